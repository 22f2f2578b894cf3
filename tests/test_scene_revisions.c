/* Scene layer: revisions are unique per process (revision.h). A renderer caches per object
 * address and revision; a new object created where a destroyed one lived must never show a
 * revision the old one had, or the cache serves the old data (a new mesh drawn with a
 * destroyed mesh's model matrix). Pure CPU, no device. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hilo3d/hilo3d.h"
#include "hl_test.h"

static const float k_tri[9] = {-0.5f, -0.5f, 0, 0.5f, -0.5f, 0, 0, 0.5f, 0};

/* ---- a set of revisions that must stay distinct ---------------------------------------------- */
typedef struct revset {
    uint64_t v[512];
    const char *what[512];
    int n;
} revset;

static void rs_add(revset *s, uint64_t v, const char *what) {
    HL_CHECK_MSG(v != 0, "%s: revision 0 for a live object", what);
    for (int i = 0; i < s->n; ++i)
        HL_CHECK_MSG(s->v[i] != v, "%s and %s share revision %llu", s->what[i], what, (unsigned long long)v);
    if (s->n < 512) {
        s->v[s->n] = v;
        s->what[s->n++] = what;
    }
}

static hl_geometry *make_geometry(void) {
    hl_geometry_desc d = {0};
    d.vertex_count = 3;
    d.attributes[HL_ATTR_POSITION].data = k_tri;
    hl_geometry *g = NULL;
    HL_CHECK_OK(hl_geometry_create(&d, &g));
    return g;
}

static hl_uniform_buffer *make_ubuf(void) {
    hl_std140_entry e = {"tint", HL_STD140_VEC4, 0};
    hl_std140_layout *l = NULL;
    HL_CHECK_OK(hl_std140_layout_create(&e, 1, &l));
    hl_uniform_buffer *ub = NULL;
    HL_CHECK_OK(hl_uniform_buffer_create(l, &ub));
    hl_std140_layout_release(l);
    return ub;
}

/* Every kind: create, read, destroy, create again with the same input. The second object
 * (often at the same address) must have a different, larger revision. */
static void test_recreate_each_kind(void) {
    revset seen = {0};
    for (int round = 0; round < 2; ++round) {
        hl_geometry *g = make_geometry();
        hl_uniform_buffer *ub = make_ubuf();
        hl_material *basic = NULL, *pbr = NULL;
        HL_CHECK_OK(hl_material_create_basic(NULL, &basic));
        HL_CHECK_OK(hl_material_create_pbr(NULL, &pbr));
        hl_mesh *mesh = NULL;
        HL_CHECK_OK(hl_mesh_create(&(hl_mesh_desc){.geometry = g, .material = basic}, &mesh));
        hl_camera *cam = NULL;
        HL_CHECK_OK(hl_camera_create(NULL, &cam));
        hl_light *light = NULL;
        HL_CHECK_OK(hl_light_create(&(hl_light_desc){.kind = HL_LIGHT_POINT}, &light));
        hl_node *node = NULL;
        HL_CHECK_OK(hl_node_create("n", &node));
        hl_stage *stage = NULL;
        HL_CHECK_OK(hl_stage_create(&stage));
        if (!g || !ub || !basic || !pbr || !mesh || !cam || !light || !node || !stage) return;

        rs_add(&seen, hl_geometry_revision(g), round ? "geometry#2" : "geometry#1");
        rs_add(&seen, hl_uniform_buffer_revision(ub), round ? "ubuf#2" : "ubuf#1");
        rs_add(&seen, hl_material_revision(basic), round ? "basic#2" : "basic#1");
        rs_add(&seen, hl_material_revision(pbr), round ? "pbr#2" : "pbr#1");
        rs_add(&seen, hl_mesh_revision(mesh), round ? "mesh#2" : "mesh#1");
        rs_add(&seen, hl_node_world_revision(hl_mesh_node(mesh)), round ? "mesh world#2" : "mesh world#1");
        rs_add(&seen, hl_camera_revision(cam), round ? "camera#2" : "camera#1");
        rs_add(&seen, hl_node_world_revision(hl_camera_node(cam)), round ? "camera world#2" : "camera world#1");
        rs_add(&seen, hl_light_revision(light), round ? "light#2" : "light#1");
        rs_add(&seen, hl_node_world_revision(hl_light_node(light)), round ? "light world#2" : "light world#1");
        rs_add(&seen, hl_node_world_revision(node), round ? "node world#2" : "node world#1");
        rs_add(&seen, hl_stage_structure_revision(stage), round ? "stage#2" : "stage#1");
        /* the variant revision of a material may equal its own content revision (same state),
         * but never another object's */
        uint64_t vb = hl_material_variant_revision(basic), vp = hl_material_variant_revision(pbr);
        HL_CHECK(vb != 0 && vp != 0 && vb != vp);

        /* one change of each: still unique, and larger than the object's previous value */
        uint64_t before = hl_geometry_revision(g);
        HL_CHECK_OK(hl_geometry_update_attribute(g, HL_ATTR_POSITION, 0, 1, k_tri + 3));
        HL_CHECK(hl_geometry_revision(g) > before);
        rs_add(&seen, hl_geometry_revision(g), "geometry update");
        before = hl_uniform_buffer_revision(ub);
        HL_CHECK_OK(hl_uniform_buffer_set(ub, "tint", (float[4]){1, 2, 3, 4}, 4));
        HL_CHECK(hl_uniform_buffer_revision(ub) > before);
        rs_add(&seen, hl_uniform_buffer_revision(ub), "ubuf set");
        before = hl_material_revision(pbr);
        uint64_t vbefore = hl_material_variant_revision(pbr);
        HL_CHECK_OK(hl_material_set_double_sided(pbr, true));
        HL_CHECK(hl_material_revision(pbr) > before && hl_material_variant_revision(pbr) > vbefore);
        rs_add(&seen, hl_material_revision(pbr), "pbr change");
        before = hl_mesh_revision(mesh);
        hl_mesh_set_instanced(mesh, true);
        HL_CHECK(hl_mesh_revision(mesh) > before);
        rs_add(&seen, hl_mesh_revision(mesh), "mesh change");
        before = hl_light_revision(light);
        hl_light_set_intensity(light, 3.0f);
        HL_CHECK(hl_light_revision(light) > before);
        rs_add(&seen, hl_light_revision(light), "light change");
        before = hl_camera_revision(cam);
        hl_camera_set_aspect(cam, 2.0f);
        hl_camera_update(cam);
        HL_CHECK(hl_camera_revision(cam) > before);
        rs_add(&seen, hl_camera_revision(cam), "camera change");
        before = hl_stage_structure_revision(stage);
        HL_CHECK_OK(hl_stage_add(stage, node));
        HL_CHECK(hl_stage_structure_revision(stage) > before);
        rs_add(&seen, hl_stage_structure_revision(stage), "stage change");
        before = hl_node_world_revision(node);
        HL_CHECK_OK(hl_stage_update(stage));
        HL_CHECK(hl_node_world_revision(node) > before);
        rs_add(&seen, hl_node_world_revision(node), "node world update");

        hl_stage_destroy(stage); /* destroys node */
        hl_node_destroy(hl_light_node(light));
        hl_node_destroy(hl_camera_node(cam));
        hl_node_destroy(hl_mesh_node(mesh));
        hl_material_release(pbr);
        hl_material_release(basic);
        hl_uniform_buffer_release(ub);
        hl_geometry_release(g);
    }
}

/* The renderer's upload rule (revision.h) with a consumer that uploaded an object which was
 * destroyed: a new object at the same address must be uploaded in full, never skipped. */
static void test_upload_after_address_reuse(void) {
    int reused = 0;
    for (int i = 0; i < 16; ++i) {
        hl_geometry *a = make_geometry();
        if (!a) return;
        uint64_t uploaded = hl_geometry_revision(a); /* a consumer uploaded a at this revision */
        const void *addr = a;
        hl_geometry_release(a);
        hl_geometry *b = make_geometry();
        if (!b) return;
        reused += (const void *)b == addr;
        hl_dirty_range r;
        HL_CHECK_EQ(hl_geometry_vertex_upload(b, uploaded, &r), HL_UPLOAD_FULL);
        HL_CHECK_EQ(r.size, 36);
        HL_CHECK(hl_geometry_revision(b) != uploaded);
        hl_geometry_release(b);

        hl_uniform_buffer *u1 = make_ubuf();
        if (!u1) return;
        uploaded = hl_uniform_buffer_revision(u1);
        hl_uniform_buffer_release(u1);
        hl_uniform_buffer *u2 = make_ubuf();
        if (!u2) return;
        HL_CHECK_EQ(hl_uniform_buffer_upload(u2, uploaded, &r), HL_UPLOAD_FULL);
        hl_uniform_buffer_release(u2);
    }
    printf("note: %d/16 new geometries reused the destroyed one's address\n", reused);
}

/* p_aba2 in scene terms: two meshes L and R, a cache of (address -> world revision) filled
 * after an update; both destroyed, a new mesh N added. If N lives at a cached address, its
 * world revision must differ from the cached one (or the renderer keeps the old matrix). */
static void test_mesh_address_reuse(void) {
    hl_geometry *g = make_geometry();
    hl_material *m = NULL;
    HL_CHECK_OK(hl_material_create_basic(NULL, &m));
    hl_stage *s = NULL;
    HL_CHECK_OK(hl_stage_create(&s));
    if (!g || !m || !s) return;
    int reused = 0;
    for (int it = 0; it < 10; ++it) {
        hl_mesh *L = NULL, *R = NULL, *N = NULL;
        HL_CHECK_OK(hl_mesh_create(&(hl_mesh_desc){.geometry = g, .material = m}, &L));
        HL_CHECK_OK(hl_mesh_create(&(hl_mesh_desc){.geometry = g, .material = m}, &R));
        if (!L || !R) break;
        hl_node_set_translation(hl_mesh_node(L), (hl_vec3){-0.5f, 0, 0});
        hl_node_set_translation(hl_mesh_node(R), (hl_vec3){0.5f, 0, 0});
        HL_CHECK_OK(hl_stage_add(s, hl_mesh_node(L)));
        HL_CHECK_OK(hl_stage_add(s, hl_mesh_node(R)));
        HL_CHECK_OK(hl_stage_update(s));
        const void *addr[2] = {L, R};
        uint64_t wrev[2] = {hl_node_world_revision(hl_mesh_node(L)), hl_node_world_revision(hl_mesh_node(R))};
        uint64_t mrev[2] = {hl_mesh_revision(L), hl_mesh_revision(R)};
        if (it & 1) {
            hl_node_destroy(hl_mesh_node(L));
            hl_node_destroy(hl_mesh_node(R));
        } else {
            hl_node_destroy(hl_mesh_node(R));
            hl_node_destroy(hl_mesh_node(L));
        }
        HL_CHECK_OK(hl_mesh_create(&(hl_mesh_desc){.geometry = g, .material = m}, &N));
        if (!N) break;
        hl_node_set_translation(hl_mesh_node(N), (hl_vec3){-0.5f, 0, 0});
        HL_CHECK_OK(hl_stage_add(s, hl_mesh_node(N)));
        HL_CHECK_OK(hl_stage_update(s));
        uint64_t nw = hl_node_world_revision(hl_mesh_node(N)), nm = hl_mesh_revision(N);
        for (int k = 0; k < 2; ++k) {
            reused += (const void *)N == addr[k];
            HL_CHECK_MSG(nw != wrev[k], "iteration %d: new mesh world revision %llu equals a destroyed mesh's", it,
                         (unsigned long long)nw);
            HL_CHECK_MSG(nm != mrev[k], "iteration %d: new mesh revision %llu equals a destroyed mesh's", it,
                         (unsigned long long)nm);
        }
        hl_node_destroy(hl_mesh_node(N));
    }
    printf("note: %d/10 new meshes reused a destroyed mesh's address\n", reused);
    hl_stage_destroy(s);
    hl_material_release(m);
    hl_geometry_release(g);
}

/* The counter is shared by threads: objects made on different threads (each thread owning
 * its own objects) never share a revision. */
enum { THREADS = 4, PER_THREAD = 2000 };
static uint64_t g_thread_revs[THREADS][PER_THREAD];

static void *thread_main(void *arg) {
    uint64_t *out = arg;
    for (int i = 0; i < PER_THREAD; ++i) {
        hl_node *n = NULL;
        if (hl_node_create(NULL, &n) != HL_OK) {
            out[i] = 0;
            continue;
        }
        out[i] = hl_node_world_revision(n);
        hl_node_destroy(n);
    }
    return NULL;
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void test_threads(void) {
    pthread_t t[THREADS];
    int started = 0;
    for (int i = 0; i < THREADS; ++i)
        if (pthread_create(&t[i], NULL, thread_main, g_thread_revs[i]) == 0) started++;
    HL_CHECK_EQ(started, THREADS);
    for (int i = 0; i < started; ++i)
        pthread_join(t[i], NULL);
    if (started != THREADS) return;
    uint64_t *all = &g_thread_revs[0][0];
    qsort(all, THREADS * PER_THREAD, sizeof *all, cmp_u64);
    int dups = 0, zeros = 0;
    for (int i = 0; i < THREADS * PER_THREAD; ++i) {
        zeros += all[i] == 0;
        dups += i > 0 && all[i] == all[i - 1];
    }
    HL_CHECK_EQ(zeros, 0);
    HL_CHECK_EQ(dups, 0);
}

/* hl_mesh_serial: non-zero, kept through the mesh's changes (its revision moves), never the
 * same for a mesh made after it, also at the destroyed one's address; 0 for NULL. */
static void test_mesh_serial(void) {
    hl_geometry *g = make_geometry();
    hl_material *a = NULL, *b = NULL;
    HL_CHECK_OK(hl_material_create_basic(NULL, &a));
    HL_CHECK_OK(hl_material_create_basic(NULL, &b));
    if (!g || !a || !b) return;
    uint64_t last = 0;
    for (int i = 0; i < 4; i++) {
        hl_mesh *m = NULL;
        HL_CHECK_OK(hl_mesh_create(&(hl_mesh_desc){.geometry = g, .material = a}, &m));
        if (!m) return;
        uint64_t s = hl_mesh_serial(m), rev = hl_mesh_revision(m);
        HL_CHECK_MSG(s > last, "mesh %d: serial %llu after %llu", i, (unsigned long long)s, (unsigned long long)last);
        HL_CHECK_OK(hl_mesh_set_material(m, b));
        hl_mesh_set_shadows(m, true, true);
        HL_CHECK(hl_mesh_revision(m) > rev);
        HL_CHECK_EQ(hl_mesh_serial(m), s);
        last = s;
        hl_node_destroy(hl_mesh_node(m));
    }
    HL_CHECK_EQ(hl_mesh_serial(NULL), 0);
    hl_material_release(a);
    hl_material_release(b);
    hl_geometry_release(g);
}

int main(void) {
    test_recreate_each_kind();
    test_upload_after_address_reuse();
    test_mesh_address_reuse();
    test_mesh_serial();
    test_threads();
    return hl_test_finish();
}
