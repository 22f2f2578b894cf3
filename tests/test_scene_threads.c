/* The stage's world update on worker threads (hl__stage_update_on) against the serial update
 * (hl_stage_update), on random forests of every shape the threaded update splits differently:
 * flat (thousands of root children), one deep chain, one subtree holding nearly everything (its
 * root joins the spine, its children become the units), a subtree under a subtree, and a mix.
 * Two stages are built alike from one seed; each frame changes the same random nodes of both
 * (translations, rotations, scales; now and then a subtree added or removed, a visibility
 * flipped, the root moved), one stage is updated on 1-4 threads from 1 node up, the other in
 * order, and then:
 *   - every world matrix is bitwise the serial one (and the serial one is the product of the
 *     locals along the path, within 1e-4);
 *   - a node's world revision changed exactly when the serial stage's did;
 *   - the mesh, light and camera lists name the same nodes in the same order, and those of the
 *     serial stage are the tree's visible meshes and lights in pre-order (walked in the test:
 *     the stage keeps its order across structure changes, appending subtrees added under the
 *     root and leaving holes for those removed). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hilo3d/hilo3d.h"
#include "hl_stage_update.h"
#include "hl_test.h"

static hl_geometry *g_box;
static hl_material *g_mat;

static uint64_t g_rng;
static uint32_t rnd(uint32_t n) {
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return n ? (uint32_t)(g_rng % n) : 0u;
}
static float rndf(float lo, float hi) { return lo + (hi - lo) * (float)rnd(1u << 20) / (float)(1u << 20); }

#define MAX_NODES 12000u

/* One stage and its nodes by creation number (the two stages' nodes of one number match). */
typedef struct world {
    hl_stage *stage;
    hl_node *nodes[MAX_NODES];
    uint64_t revs[MAX_NODES];
    uint32_t count;
} world;

static hl_node *make_node(world *w, uint32_t kind, uint32_t id) {
    char name[16];
    snprintf(name, sizeof name, "n%u", id);
    hl_node *n = NULL;
    if (kind == 0) {
        HL_CHECK_OK(hl_node_create(name, &n));
    } else if (kind == 1) {
        hl_mesh *m = NULL;
        HL_CHECK_OK(hl_mesh_create(&(hl_mesh_desc){.geometry = g_box, .material = g_mat, .name = name}, &m));
        n = hl_mesh_node(m);
    } else {
        hl_light *l = NULL;
        HL_CHECK_OK(hl_light_create(&(hl_light_desc){.kind = HL_LIGHT_POINT, .intensity = 1, .range = 10, .name = name}, &l));
        n = hl_light_node(l);
    }
    w->nodes[id] = n;
    return n;
}

typedef struct op {
    uint32_t what, a, b;
    float f[10];
} op;

/* The same random operation applied to both worlds (drawn once, applied twice). */
static void apply(world *w, const op *o) {
    hl_node *n = o->a < w->count ? w->nodes[o->a] : NULL;
    switch (o->what) {
    case 0: hl_node_set_translation(n, (hl_vec3){o->f[0], o->f[1], o->f[2]}); break;
    case 1: hl_node_set_rotation(n, hl_quat_from_axis_angle(hl_vec3_normalize((hl_vec3){o->f[3], o->f[4], o->f[5]}), o->f[6])); break;
    case 2: hl_node_set_scale(n, (hl_vec3){o->f[7], o->f[8], o->f[9]}); break;
    case 3: hl_node_set_visible(n, !hl_node_visible(n)); break;
    case 4: hl_node_set_translation(hl_stage_root(w->stage), (hl_vec3){o->f[0], o->f[1], o->f[2]}); break;
    case 5: { /* a new node under node a (or, half the time, the root) */
        hl_node *c = make_node(w, o->b % 3u, w->count++);
        hl_node *parent = o->b % 2u && o->a < w->count - 1 && w->nodes[o->a] ? w->nodes[o->a] : hl_stage_root(w->stage);
        HL_CHECK_OK(hl_node_add_child(parent, c));
        hl_node_set_translation(c, (hl_vec3){o->f[0], o->f[1], o->f[2]});
        break;
    }
    case 6: /* node a's subtree destroyed (its nodes leave the table) */
        if (n) {
            for (uint32_t i = 0; i < w->count; i++) {
                hl_node *x = w->nodes[i];
                if (x == n) continue;
                for (hl_node *p = x ? hl_node_parent(x) : NULL; p; p = hl_node_parent(p))
                    if (p == n) {
                        w->nodes[i] = NULL;
                        break;
                    }
            }
            w->nodes[o->a] = NULL;
            hl_node_destroy(n);
        }
        break;
    case 7: /* node a moved under the root (its subtree's entries leave holes, then come last) */
        if (n && hl_node_parent(n)) {
            HL_CHECK_OK(hl_node_remove_child(hl_node_parent(n), n));
            HL_CHECK_OK(hl_node_add_child(hl_stage_root(w->stage), n));
        }
        break;
    case 8: /* churn: an eighth of the root's children destroyed, as many new leaves under the root */
        for (uint32_t k = 0, step = o->b % 7u + 3u; k < w->count / 8u && w->count + 1u < MAX_NODES; k++) {
            uint32_t i = (o->a + k * step) % w->count;
            hl_node *x = w->nodes[i];
            if (x && hl_node_parent(x) == hl_stage_root(w->stage) && !hl_node_first_child(x)) {
                w->nodes[i] = NULL;
                hl_node_destroy(x);
            }
            hl_node *c = make_node(w, k % 3u, w->count++);
            HL_CHECK_OK(hl_node_add_child(hl_stage_root(w->stage), c));
            hl_node_set_translation(c, (hl_vec3){o->f[0] + (float)k, o->f[1], o->f[2]});
        }
        break;
    default: break;
    }
}

static op random_op(uint32_t count, bool structure) {
    op o = {0};
    uint32_t k = rnd(100);
    o.what = k < 40 ? 0 : k < 60 ? 1 : k < 70 ? 2 : 0;
    if (structure) o.what = k < 15 ? 3 : k < 25 ? 4 : k < 55 ? 5 : k < 70 ? 6 : k < 85 ? 7 : 8;
    o.a = rnd(count);
    o.b = rnd(1000);
    for (int i = 0; i < 10; i++) o.f[i] = rndf(-3, 3);
    o.f[6] = rndf(-3.1f, 3.1f);
    for (int i = 7; i < 10; i++) o.f[i] = rndf(0.25f, 2);
    if (o.f[3] == 0 && o.f[4] == 0 && o.f[5] == 0) o.f[4] = 1;
    return o;
}

/* The forest: shape 0 flat, 1 a chain, 2 one subtree with nearly everything, 3 a subtree in a
 * subtree, 4 random parents. */
static void build(world *w, uint32_t shape, uint32_t n, uint64_t seed) {
    g_rng = seed;
    HL_CHECK_OK(hl_stage_create(&w->stage));
    w->count = 0;
    for (uint32_t i = 0; i < n; i++) {
        hl_node *c = make_node(w, i % 7u == 3u ? 2u : i % 2u, w->count++);
        hl_node *parent = hl_stage_root(w->stage);
        if (shape == 1 && i) parent = w->nodes[i - 1];
        else if (shape == 2 && i) parent = w->nodes[0];
        else if (shape == 3 && i > 1) parent = i % 5u ? w->nodes[1] : w->nodes[0];
        else if (shape == 3 && i == 1) parent = w->nodes[0];
        else if (shape == 4 && i) parent = rnd(4) ? w->nodes[rnd(i)] : parent;
        HL_CHECK_OK(hl_node_add_child(parent, c));
        hl_node_set_translation(c, (hl_vec3){rndf(-2, 2), rndf(-2, 2), rndf(-2, 2)});
        hl_node_set_rotation(c, hl_quat_from_axis_angle((hl_vec3){0, 1, 0}, rndf(-1, 1)));
    }
}

/* The product of the locals from the root down (the reference of the serial update). */
static hl_mat4 reference_world(const hl_node *n) {
    hl_mat4 local = hl_node_local_matrix(n);
    const hl_node *p = hl_node_parent(n);
    if (!p) return local;
    hl_mat4 pw = reference_world(p);
    return hl_mat4_mul(&pw, &local);
}

/* The visible meshes and lights in pre-order, walked here through the public tree API: what the
 * lists must hold whatever the stage kept of its order across structure changes. */
static uint32_t reference_lists(hl_stage *s, hl_node **meshes, hl_node **lights, uint32_t *light_count) {
    uint32_t nm = 0, nl = 0;
    hl_node *root = hl_stage_root(s);
    if (!hl_node_visible(root)) return *light_count = 0, 0;
    for (hl_node *n = hl_node_first_child(root); n;) {
        bool shown = hl_node_visible(n);
        if (shown && hl_node_get_kind(n) == HL_NODE_MESH) meshes[nm++] = n;
        if (shown && hl_node_get_kind(n) == HL_NODE_LIGHT) lights[nl++] = n;
        if (shown && hl_node_first_child(n)) { /* an invisible node hides its subtree */
            n = hl_node_first_child(n);
            continue;
        }
        while (n != root && !hl_node_next_sibling(n)) n = hl_node_parent(n);
        n = n == root ? NULL : hl_node_next_sibling(n);
    }
    *light_count = nl;
    return nm;
}

static uint32_t compare(world *a, world *b, bool check_reference) {
    uint32_t failures = 0;
    static hl_node *ref_meshes[MAX_NODES], *ref_lights[MAX_NODES];
    uint32_t ref_lc = 0, ref_mc = reference_lists(a->stage, ref_meshes, ref_lights, &ref_lc);
    uint32_t mc = 0, lc = 0;
    hl_mesh *const *sm = hl_stage_meshes(a->stage, &mc);
    hl_light *const *sl = hl_stage_lights(a->stage, &lc);
    HL_CHECK_EQ(mc, ref_mc);
    HL_CHECK_EQ(lc, ref_lc);
    for (uint32_t i = 0; i < mc && i < ref_mc; i++)
        if (hl_mesh_node(sm[i]) != ref_meshes[i] && failures++ < 3)
            HL_CHECK_MSG(0, "mesh list entry %u is not the tree's %u-th visible mesh in pre-order", i, i);
    for (uint32_t i = 0; i < lc && i < ref_lc; i++)
        if (hl_light_node(sl[i]) != ref_lights[i] && failures++ < 3)
            HL_CHECK_MSG(0, "light list entry %u is not the tree's %u-th visible light in pre-order", i, i);
    HL_CHECK_EQ(a->count, b->count);
    for (uint32_t i = 0; i < a->count && i < b->count; i++) {
        hl_node *x = a->nodes[i], *y = b->nodes[i];
        if (!x || !y) {
            HL_CHECK(!x && !y);
            continue;
        }
        if (memcmp(hl_node_world_matrix(x), hl_node_world_matrix(y), sizeof(hl_mat4))) {
            if (failures++ < 3) HL_CHECK_MSG(0, "node %u: the threaded world matrix differs from the serial one", i);
        }
        bool moved_a = hl_node_world_revision(x) != a->revs[i], moved_b = hl_node_world_revision(y) != b->revs[i];
        if (moved_a != moved_b && failures++ < 3)
            HL_CHECK_MSG(0, "node %u: world revision %s serially, %s on threads", i, moved_a ? "changed" : "kept",
                         moved_b ? "changed" : "kept");
        a->revs[i] = hl_node_world_revision(x);
        b->revs[i] = hl_node_world_revision(y);
        if (check_reference && i % 37u == 0u) {
            hl_mat4 ref = reference_world(x);
            const hl_mat4 *got = hl_node_world_matrix(x);
            for (int k = 0; k < 16; k++)
                if (fabsf(ref.m[k] - got->m[k]) > 1e-4f * (1.0f + fabsf(ref.m[k])) && failures++ < 3)
                    HL_CHECK_MSG(0, "node %u: world[%d] %f, the product of the locals %f", i, k, got->m[k], ref.m[k]);
        }
    }
    uint32_t ca, cb;
    hl_mesh *const *ma = hl_stage_meshes(a->stage, &ca), *const *mb = hl_stage_meshes(b->stage, &cb);
    HL_CHECK_EQ(ca, cb);
    for (uint32_t i = 0; i < ca && i < cb; i++)
        if (strcmp(hl_node_name(hl_mesh_node(ma[i])), hl_node_name(hl_mesh_node(mb[i]))) && failures++ < 3)
            HL_CHECK_MSG(0, "mesh list entry %u: %s serially, %s on threads", i, hl_node_name(hl_mesh_node(ma[i])),
                         hl_node_name(hl_mesh_node(mb[i])));
    hl_light *const *la = hl_stage_lights(a->stage, &ca), *const *lb = hl_stage_lights(b->stage, &cb);
    HL_CHECK_EQ(ca, cb);
    for (uint32_t i = 0; i < ca && i < cb; i++)
        if (strcmp(hl_node_name(hl_light_node(la[i])), hl_node_name(hl_light_node(lb[i]))) && failures++ < 3)
            HL_CHECK_MSG(0, "light list entry %u differs", i);
    return failures;
}

static void run(uint32_t shape, uint32_t n, uint32_t threads, uint64_t seed) {
    static world a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    build(&a, shape, n, seed);
    build(&b, shape, n, seed);
    hl__workers *pool = NULL;
    HL_CHECK_OK(hl__workers_start(threads, &pool));
    uint32_t parallel_min = 1u + rnd(n);
    g_rng = seed ^ 0x9e3779b97f4a7c15ull;
    uint32_t failures = 0;
    for (uint32_t frame = 0; frame < 40 && !failures; frame++) {
        uint32_t changes = frame % 6u == 5u ? 0u : rnd(frame % 4u == 0u ? n : 40u) + 1u;
        for (uint32_t c = 0; c < changes; c++) {
            op o = random_op(a.count, false);
            apply(&a, &o);
            apply(&b, &o);
        }
        if (frame % 3u == 2u && a.count + 8u < MAX_NODES) { /* the structure changes */
            for (uint32_t c = 0; c < 1u + rnd(4); c++) {
                op o = random_op(a.count, true);
                apply(&a, &o);
                apply(&b, &o);
            }
        }
        HL_CHECK_OK(hl_stage_update(a.stage));
        HL_CHECK_OK(hl__stage_update_on(b.stage, pool, parallel_min));
        failures += compare(&a, &b, frame % 8u == 7u);
    }
    if (failures) fprintf(stderr, "  shape %u, %u nodes, %u threads, seed 0x%llx: %u differences\n", shape, n, threads,
                          (unsigned long long)seed, failures);
    hl__workers_stop(pool);
    hl_stage_destroy(a.stage);
    hl_stage_destroy(b.stage);
}

int main(void) {
    HL_CHECK_OK(hl_geometry_create_box(NULL, &g_box));
    HL_CHECK_OK(hl_material_create_basic(NULL, &g_mat));
    static const uint32_t sizes[] = {1, 2, 9, 300, 5000};
    uint64_t seed = 0x5eed;
    for (uint32_t shape = 0; shape < 5; shape++)
        for (uint32_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            if (shape == 1 && sizes[s] > 300) continue; /* the reference recursion is as deep as the chain */
            for (uint32_t threads = 2; threads <= 4; threads += 2) run(shape, sizes[s], threads, seed++);
        }
    hl_geometry_release(g_box);
    hl_material_release(g_mat);
    return hl_test_finish();
}
