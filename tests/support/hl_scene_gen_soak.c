/* The churn soak (see hl_scene_gen.h): every frame creates and destroys meshes, geometries,
 * textures, materials (one shader material with a source unique to the frame, with its own
 * uniform buffer), a render target that the frame renders and samples, and renders them in one
 * hl_renderer_render_frame (target, then output). Every sample_every frames it records RSS,
 * hilo3d's live heap blocks and bytes (through the allocator hook) and the renderer's live
 * counts; at the end it checks that they stayed bounded:
 *   - RSS, live blocks and live bytes grew by at most the given amounts between the warm-up
 *     sample and the last one (both taken at the same phase of the renderer's 60-frame
 *     eviction period);
 *   - programs, pipelines, mirrors and targets stayed under fixed bounds derived from the
 *     documented retention (mirrors unused for 120 frames and programs/pipelines unused for 60
 *     are released, checked every 60 frames: what one frame creates lives at most ~240 frames).
 * Every call must succeed; periodic readbacks must show the frame's meshes (not only the clear
 * colour). */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hl_scene_gen.h"

/* ---- counting allocator ----------------------------------------------------------------------- */
typedef struct alloc_head {
    size_t size;
    size_t pad; /* keeps the block 16-byte aligned */
} alloc_head;

static atomic_ullong g_live_blocks, g_live_bytes;

static void *count_alloc(size_t size, void *user) {
    (void)user;
    alloc_head *h = malloc(sizeof *h + size);
    if (!h) return NULL;
    h->size = size;
    atomic_fetch_add(&g_live_blocks, 1);
    atomic_fetch_add(&g_live_bytes, size);
    return h + 1;
}

static void count_free(void *p, void *user) {
    (void)user;
    if (!p) return;
    alloc_head *h = (alloc_head *)p - 1;
    atomic_fetch_sub(&g_live_blocks, 1);
    atomic_fetch_sub(&g_live_bytes, h->size);
    free(h);
}

static void *count_realloc(void *p, size_t size, void *user) {
    if (!p) return count_alloc(size, user);
    alloc_head *h = (alloc_head *)p - 1;
    size_t old = h->size;
    alloc_head *n = realloc(h, sizeof *n + size);
    if (!n) return NULL;
    n->size = size;
    atomic_fetch_sub(&g_live_bytes, old);
    atomic_fetch_add(&g_live_bytes, size);
    return n + 1;
}

void hl_gen_count_allocations(void) {
    static const hl_allocator a = {count_alloc, count_realloc, count_free, NULL};
    hl_set_allocator(&a);
}

uint64_t hl_gen_live_blocks(void) { return atomic_load(&g_live_blocks); }
uint64_t hl_gen_live_bytes(void) { return atomic_load(&g_live_bytes); }

uint64_t hl_gen_rss_kb(void) {
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f) return 0;
    unsigned long long size = 0, resident = 0;
    int n = fscanf(f, "%llu %llu", &size, &resident);
    fclose(f);
    if (n != 2) return 0;
    long page = sysconf(_SC_PAGESIZE);
    return resident * (uint64_t)(page > 0 ? page : 4096) / 1024u;
}

uint64_t hl_gen_exec_anon_kb(void) {
    FILE *f = fopen("/proc/self/smaps", "r");
    if (!f) return 0;
    char line[512];
    bool exec_anon = false;
    uint64_t kb = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned long long lo, hi, rss;
        char perms[8];
        int name_at = 0;
        if (sscanf(line, "%llx-%llx %7s %*s %*s %*s %n", &lo, &hi, perms, &name_at) == 3 && name_at > 0) {
            const char *name = line + name_at;
            exec_anon = perms[2] == 'x' && (*name == '\n' || *name == '\0'); /* no file, no [stack] etc. */
        } else if (exec_anon && sscanf(line, "Rss: %llu kB", &rss) == 1) {
            kb += rss;
        }
    }
    fclose(f);
    return kb;
}

/* ---- the soak --------------------------------------------------------------------------------- */
static const char *k_soak_vs = "#version 300 es\n"
                               "layout(std140) uniform Frame { mat4 u_viewProj; vec4 u_cameraPos; };\n"
                               "layout(std140) uniform Object { mat4 u_model; mat4 u_normalMatrix; };\n"
                               "in vec3 a_position;\n"
                               "void main() { gl_Position = u_viewProj * (u_model * vec4(a_position, 1.0)); }\n";
static const char *k_soak_fs = "#version 300 es\nprecision highp float;\n"
                               "layout(std140) uniform SoakBlock { vec4 tint; };\n"
                               "layout(location = 0) out vec4 outColor;\n"
                               "void main() { outColor = tint; }\n";

typedef struct soak {
    const hl_soak_desc *d;
    hl_soak_result *res;
    hl_renderer *r;
    hl_stage *scene, *view; /* rendered into the target; rendered into the output, sampling it */
    hl_camera *cam, *view_cam;
    hl_std140_layout *layout;
    hl_render_target *t;
    hl_stage *frame_stage;
    hl_gen_rng rng;
} soak;

static bool ok(soak *s, hl_result r, const char *what) {
    if (r == HL_OK) return true;
    if (!s->res->failed_calls++)
        snprintf(s->res->first_error, sizeof s->res->first_error, "frame %u: %s -> %s: %s", s->res->frames_run, what,
                 hl_result_name(r), hl_last_error());
    return false;
}
#define OK(s, expr) ok((s), (expr), #expr)

static hl_result soak_frame_fn(hl_render_frame *f, void *user) {
    soak *s = user;
    hl_result r = hl_render_frame_render_to_target(f, s->t, s->scene, s->cam);
    if (!r) r = hl_render_frame_render(f, s->view, s->view_cam);
    return r;
}

static float rf(soak *s, float lo, float hi) { return hl_gen_rng_float(&s->rng, lo, hi); }

/* One frame: create everything, render target + output in one frame, destroy everything. */
static void soak_frame(soak *s, uint32_t f, bool read) {
    hl_gen_rng *g = &s->rng;
    hl_geometry *geo = NULL;
    uint32_t kind = f % 3;
    if (kind == 0) {
        hl_box_desc bd = {rf(s, 0.3f, 1.2f), rf(s, 0.3f, 1.2f), rf(s, 0.3f, 1.2f)};
        OK(s, hl_geometry_create_box(&bd, &geo));
    } else if (kind == 1) {
        hl_sphere_desc sd = {rf(s, 0.3f, 0.8f), hl_gen_rng_range(g, 3, 24), hl_gen_rng_range(g, 2, 12)};
        OK(s, hl_geometry_create_sphere(&sd, &geo));
    } else {
        hl_plane_desc pd = {rf(s, 0.5f, 1.5f), rf(s, 0.5f, 1.5f), hl_gen_rng_range(g, 1, 4), 1};
        OK(s, hl_geometry_create_plane(&pd, &geo));
    }
    uint32_t tw = hl_gen_rng_range(g, 1, 32), th = hl_gen_rng_range(g, 1, 32);
    uint8_t *px = malloc((size_t)tw * th * 4);
    hl_texture *tex = NULL;
    if (px) {
        for (size_t i = 0; i < (size_t)tw * th * 4; i++) px[i] = (uint8_t)(i % 4 == 3 ? 255 : hl_gen_rng_below(g, 256));
        hl_texture_desc td = {0};
        td.width = tw;
        td.height = th;
        td.pixels = px;
        td.pixels_size = (size_t)tw * th * 4;
        OK(s, hl_texture_create(&td, &tex));
        free(px);
    }
    hl_pbr_material_desc pd = {0};
    pd.base_color = (hl_color){rf(s, 0.2f, 1), rf(s, 0.2f, 1), rf(s, 0.2f, 1), 1};
    pd.roughness = rf(s, 0.2f, 1.0f);
    pd.textures[HL_TEXTURE_BASE_COLOR].texture = tex;
    hl_material *pbr = NULL, *shader = NULL, *sampler = NULL;
    OK(s, hl_material_create_pbr(&pd, &pbr));
    /* a shader material whose source is unique to this frame, with its own uniform buffer */
    char vs[1024];
    snprintf(vs, sizeof vs, "%s// soak frame %u\n", k_soak_vs, f);
    hl_uniform_buffer *ub = NULL;
    OK(s, hl_uniform_buffer_create(s->layout, &ub));
    float tint[4] = {rf(s, 0, 1), rf(s, 0, 1), rf(s, 0, 1), 1};
    if (ub) OK(s, hl_uniform_buffer_set(ub, "tint", tint, 4));
    hl_material_attribute attr = {"a_position", HL_ATTR_POSITION};
    hl_material_uniform_block blk = {"SoakBlock", ub};
    hl_shader_material_desc sd = {0};
    sd.vs = vs;
    sd.fs = k_soak_fs;
    sd.attributes = &attr;
    sd.attribute_count = 1;
    sd.uniform_blocks = &blk;
    sd.uniform_block_count = 1;
    sd.label = "soak";
    OK(s, hl_material_create_shader(&sd, &shader));
    /* a render target of its own, sampled by the view stage */
    hl_render_target_desc rd = {0};
    rd.width = hl_gen_rng_range(g, 8, 64);
    rd.height = hl_gen_rng_range(g, 8, 64);
    rd.color_count = hl_gen_rng_range(g, 1, 2);
    rd.formats[0] = HL_TARGET_RGBA8_SRGB;
    rd.formats[1] = hl_gen_rng_chance(g, 0.5f) ? HL_TARGET_RGBA16F : HL_TARGET_RGBA8;
    rd.sample_count = hl_gen_rng_chance(g, 0.3f) ? 4 : 1;
    rd.clear_color = (hl_color){0.2f, 0.3f, 0.8f, 1.0f};
    OK(s, hl_render_target_create(s->r, &rd, &s->t));
    hl_basic_material_desc bd = {0};
    bd.texture.texture = hl_render_target_texture(s->t, 0);
    if (bd.texture.texture) OK(s, hl_material_create_basic(&bd, &sampler));

    hl_mesh *meshes[3] = {0};
    hl_material *mats[3] = {pbr, shader, sampler};
    for (int i = 0; i < 3; i++) {
        hl_mesh_desc md = {geo, mats[i], false, i == 0, i == 0, "soak"};
        if (!geo || !mats[i] || !OK(s, hl_mesh_create(&md, &meshes[i]))) continue;
        hl_node *n = hl_mesh_node(meshes[i]);
        if (i == 1) { /* the shader material draws into the output (single attachment) */
            hl_node_set_translation(n, (hl_vec3){rf(s, -0.5f, 0.5f), rf(s, -0.5f, 0.5f), 1.0f});
            hl_node_set_scale(n, (hl_vec3){0.3f, 0.3f, 0.3f});
            OK(s, hl_stage_add(s->view, n));
        } else if (i == 0) {
            hl_node_set_translation(n, (hl_vec3){rf(s, -1.5f, 1.5f), rf(s, -1.0f, 1.0f), rf(s, -1.0f, 1.0f)});
            hl_node_set_rotation(n, hl_quat_from_euler(rf(s, 0, 3), rf(s, 0, 3), rf(s, 0, 3)));
            OK(s, hl_stage_add(s->scene, n));
        } else {
            hl_node_set_scale(n, (hl_vec3){4, 4, 4}); /* fills the view camera's [-1, 1] square */
            hl_node_set_rotation(n, hl_quat_identity());
            OK(s, hl_stage_add(s->view, n));
        }
    }
    if (meshes[2] && kind != 2) { /* the sampler needs a plane facing the camera */
        hl_geometry *quad = NULL;
        hl_plane_desc qd = {1, 1, 1, 1};
        if (OK(s, hl_geometry_create_plane(&qd, &quad))) OK(s, hl_mesh_set_geometry(meshes[2], quad));
        hl_geometry_release(quad);
    }
    if (s->t) OK(s, hl_renderer_render_frame(s->r, soak_frame_fn, s));
    if (read && s->t) {
        uint32_t w, h;
        hl_renderer_size(s->r, &w, &h);
        uint8_t *out = malloc((size_t)w * h * 4);
        if (out && OK(s, hl_renderer_read_pixels(s->r, out, (size_t)w * h * 4))) {
            s->res->reads++;
            /* the quad shows the target (its clear colour is blue) over the whole view: at least half
               the pixels are not the view's black clear colour */
            size_t lit = 0;
            for (size_t i = 0; i < (size_t)w * h; i++) lit += out[i * 4] >= 8 || out[i * 4 + 1] >= 8 || out[i * 4 + 2] >= 8;
            if (lit * 2 < (size_t)w * h) s->res->blank_reads++;
        }
        free(out);
        size_t n = hl_render_target_read_size(s->t, 1);
        uint8_t *att = n ? malloc(n) : NULL;
        if (att) OK(s, hl_render_target_read(s->r, s->t, 1, att, n));
        free(att);
    }
    for (int i = 0; i < 3; i++) hl_node_destroy(hl_mesh_node(meshes[i]));
    for (int i = 0; i < 3; i++) hl_material_release(mats[i]);
    if (s->t) OK(s, hl_render_target_destroy(s->r, s->t));
    s->t = NULL;
    hl_uniform_buffer_release(ub);
    hl_texture_release(tex);
    hl_geometry_release(geo);
}

typedef struct soak_sample {
    uint64_t rss_kb, blocks, bytes;
} soak_sample;

static soak_sample take_sample(void) { return (soak_sample){hl_gen_rss_kb(), hl_gen_live_blocks(), hl_gen_live_bytes()}; }

static hl_result soak_setup(soak *s) {
    hl_renderer_desc rd = {0};
    rd.backend = s->d->backend;
    rd.wait_timeout_ms = 120000; /* sanitizer builds on a loaded 2-core machine: a slow frame is not a hang */
    rd.width = 64;
    rd.height = 48;
    rd.sample_count = 1;
    rd.shadow_atlas_size = 512;
    hl_result r = hl_renderer_create(&rd, &s->r);
    if (r) return r;
    if ((r = hl_register_uniform_block_binding("SoakBlock", NULL))) return r;
    hl_std140_entry e[1] = {{"tint", HL_STD140_VEC4, 0}};
    if ((r = hl_std140_layout_create(e, 1, &s->layout))) return r;
    if ((r = hl_stage_create(&s->scene)) || (r = hl_stage_create(&s->view))) return r;
    hl_camera_desc cd = {0};
    if ((r = hl_camera_create(&cd, &s->cam))) return r;
    hl_node_set_translation(hl_camera_node(s->cam), (hl_vec3){0, 0, 6});
    if ((r = hl_stage_add(s->scene, hl_camera_node(s->cam)))) return r;
    cd.projection = HL_PROJECTION_ORTHOGRAPHIC;
    if ((r = hl_camera_create(&cd, &s->view_cam))) return r;
    hl_node_set_translation(hl_camera_node(s->view_cam), (hl_vec3){0, 0, 5});
    if ((r = hl_stage_add(s->view, hl_camera_node(s->view_cam)))) return r;
    hl_light_desc ld = {0};
    ld.kind = HL_LIGHT_DIRECTIONAL;
    ld.cast_shadows = true;
    hl_light *l = NULL;
    if ((r = hl_light_create(&ld, &l))) return r;
    hl_node_set_translation(hl_light_node(l), (hl_vec3){2, 5, 4});
    hl_node_look_at(hl_light_node(l), (hl_vec3){0, 0, 0}, (hl_vec3){0, 1, 0});
    if ((r = hl_stage_add(s->scene, hl_light_node(l)))) return r;
    hl_stage_set_clear_color(s->view, (hl_color){0, 0, 0, 1});
    return HL_OK;
}

hl_result hl_soak_run(const hl_soak_desc *d_in, hl_soak_result *res) {
    memset(res, 0, sizeof *res);
    hl_soak_desc d = *d_in;
    if (!d.frames) d.frames = 10000;
    if (!d.sample_every) d.sample_every = 600;
    d.sample_every = (d.sample_every + 59) / 60 * 60; /* the renderer's eviction period: samples at one phase */
    if (!d.read_every) d.read_every = 50;
    if (!d.warmup) d.warmup = d.frames / 5;
    d.warmup = d.warmup / d.sample_every * d.sample_every;
    if (d.warmup < d.sample_every) d.warmup = d.sample_every;
    if (!d.max_rss_growth_kb) d.max_rss_growth_kb = 4096;
    if (!d.max_live_block_growth) d.max_live_block_growth = 256;
    if (!d.max_live_byte_growth) d.max_live_byte_growth = 1u << 20;
    /* what one frame makes (a program and a pipeline or two, ~8 mirrors, a target) lives at most
       120 + 60 (mirrors) + 60 (programs) frames: bounds with room to spare */
    if (!d.max_programs) d.max_programs = 320;
    if (!d.max_pipelines) d.max_pipelines = 640;
    if (!d.max_mirrors) d.max_mirrors = 2000;
    if (!d.max_targets) d.max_targets = 3;
    FILE *out = d.out ? d.out : stdout;
    soak s;
    memset(&s, 0, sizeof s);
    s.d = &d;
    s.res = res;
    hl_gen_rng_seed(&s.rng, 0x50a4u + (uint64_t)d.backend);
    hl_result r = soak_setup(&s);
    if (r) {
        snprintf(res->first_error, sizeof res->first_error, "setup: %s %s", hl_result_name(r), hl_last_error());
        res->failed_calls++;
    }
    soak_sample warm = {0}, last = {0};
    uint64_t allocs_warm = 0;
    for (uint32_t f = 0; !r && f < d.frames; f++) {
        if (f % 101 == 100) OK(&s, hl_renderer_resize(s.r, f % 2 ? 64 : 48, f % 2 ? 48 : 64));
        soak_frame(&s, f, (f + 1) % d.read_every == 0);
        res->frames_run++;
        const hl_render_stats *st = hl_renderer_stats(s.r);
        uint32_t done = f + 1;
        if (done > d.warmup) {
            if (st->programs > res->max_programs) res->max_programs = st->programs;
            if (st->pipelines > res->max_pipelines) res->max_pipelines = st->pipelines;
            if (st->mirrors > res->max_mirrors) res->max_mirrors = st->mirrors;
            if (st->targets > res->max_targets) res->max_targets = st->targets;
        }
        if (done % d.sample_every == 0 || done == d.frames) {
            /* drained first: objects whose release waits for the GPU are gone, so the sample does
               not depend on how far the GPU has got (that moved it by a few hundred blocks) */
            OK(&s, hl_renderer_wait_idle(s.r));
            soak_sample sm = take_sample();
            if (sm.blocks > res->live_blocks_max) res->live_blocks_max = sm.blocks;
            if (sm.bytes > res->live_bytes_max) res->live_bytes_max = sm.bytes;
            if (done == d.warmup) {
                warm = sm;
                allocs_warm = hl_alloc_count();
            }
            if (done % d.sample_every == 0) last = sm;
            if (!d.quiet)
                fprintf(out,
                        "%s frame %u: rss %llu KiB, hilo3d live %llu blocks / %llu bytes, allocs %llu, programs %u, "
                        "pipelines %u, mirrors %u, targets %u\n",
                        hl_backend_name(d.backend), done, (unsigned long long)sm.rss_kb, (unsigned long long)sm.blocks,
                        (unsigned long long)sm.bytes, (unsigned long long)hl_alloc_count(), st->programs, st->pipelines,
                        st->mirrors, st->targets);
        }
        if (res->failed_calls) break;
    }
    res->rss_kb_warm = warm.rss_kb, res->rss_kb_end = last.rss_kb;
    res->live_blocks_warm = warm.blocks, res->live_blocks_end = last.blocks;
    res->live_bytes_warm = warm.bytes, res->live_bytes_end = last.bytes;
    uint32_t measured = res->frames_run > d.warmup ? res->frames_run - d.warmup : 0;
    res->allocs_per_frame = measured ? (double)(hl_alloc_count() - allocs_warm) / measured : 0.0;
    /* the verdict */
    size_t n = 0;
    res->verdict[0] = 0;
#define BROKE(...) n += (size_t)snprintf(res->verdict + n, n < sizeof res->verdict ? sizeof res->verdict - n : 0, __VA_ARGS__)
    if (res->failed_calls) BROKE("%u failed calls (first: %s); ", res->failed_calls, res->first_error);
    if (res->frames_run < d.frames) BROKE("ran %u of %u frames; ", res->frames_run, d.frames);
    double rss_growth = (double)res->rss_kb_end - (double)res->rss_kb_warm;
    if (measured && rss_growth > d.max_rss_growth_kb)
        BROKE("RSS grew %.0f KiB (bound %.0f); ", rss_growth, d.max_rss_growth_kb);
    if (measured && res->live_blocks_end > res->live_blocks_warm + d.max_live_block_growth)
        BROKE("live blocks grew %llu -> %llu (bound +%llu); ", (unsigned long long)res->live_blocks_warm,
              (unsigned long long)res->live_blocks_end, (unsigned long long)d.max_live_block_growth);
    if (measured && res->live_bytes_end > res->live_bytes_warm + d.max_live_byte_growth)
        BROKE("live bytes grew %llu -> %llu (bound +%llu); ", (unsigned long long)res->live_bytes_warm,
              (unsigned long long)res->live_bytes_end, (unsigned long long)d.max_live_byte_growth);
    if (res->max_programs > d.max_programs) BROKE("programs %u (bound %u); ", res->max_programs, d.max_programs);
    if (res->max_pipelines > d.max_pipelines) BROKE("pipelines %u (bound %u); ", res->max_pipelines, d.max_pipelines);
    if (res->max_mirrors > d.max_mirrors) BROKE("mirrors %u (bound %u); ", res->max_mirrors, d.max_mirrors);
    if (res->max_targets > d.max_targets) BROKE("targets %u (bound %u); ", res->max_targets, d.max_targets);
    if (res->blank_reads) BROKE("%u of %u readbacks blank; ", res->blank_reads, res->reads);
#undef BROKE
    res->bounded = n == 0;
    fprintf(out,
            "%s soak: %u frames, RSS %llu -> %llu KiB, live %llu -> %llu blocks, %llu -> %llu bytes (from frame %u), "
            "%.1f allocs/frame, at most %u programs %u pipelines %u mirrors %u targets: %s%s\n",
            hl_backend_name(d.backend), res->frames_run, (unsigned long long)res->rss_kb_warm,
            (unsigned long long)res->rss_kb_end, (unsigned long long)res->live_blocks_warm,
            (unsigned long long)res->live_blocks_end, (unsigned long long)res->live_bytes_warm,
            (unsigned long long)res->live_bytes_end, d.warmup, res->allocs_per_frame, res->max_programs,
            res->max_pipelines, res->max_mirrors, res->max_targets, res->bounded ? "bounded" : "NOT BOUNDED: ",
            res->verdict);
    hl_stage_destroy(s.scene);
    hl_stage_destroy(s.view);
    hl_std140_layout_release(s.layout);
    hl_renderer_destroy(s.r);
    return HL_OK;
}
