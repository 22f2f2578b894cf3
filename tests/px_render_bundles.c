/* Render bundles in the direct recorder (render_bundle.c): the same scene drawn by a renderer with
 * bundles and one without (hl_renderer_desc.no_render_bundles) gives the same image exactly (max
 * difference 0, the same backend) through static, moving and churned frames, material changes
 * (contents and variant), culling changes, a second view into a target, a device loss and MSAA;
 * and the counters show what each frame did: static frames replay every bundle and record,
 * rebuild, upload and create nothing; moving meshes re-record nothing; a change (churn, a
 * material's variant) draws only the chunks it touched directly and records just those the
 * frame after; a loss records every chunk again. The scene: 1,000 boxes of hl_scene_grid_create
 * (several chunks of bundles), every fifth material transparent, a shadow-casting light. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hilo3d/renderer.h"
#include "hl_scene_demo.h"
#include "hl_test.h"
#include "render_internal.h"

enum { W = 96, H = 64, N = 1000, MATERIALS = 20 };

typedef struct pair {
    hl_renderer *a, *b; /* a: bundles, b: none */
    uint32_t w, h;
    uint8_t *img_a, *img_b;
} pair;

static bool pair_create(hl_backend be, uint32_t samples, pair *p) {
    memset(p, 0, sizeof *p);
    hl_renderer_desc rd = {0};
    rd.backend = be;
    rd.width = p->w = W;
    rd.height = p->h = H;
    rd.sample_count = samples;
    rd.shadow_atlas_size = 512;
    HL_CHECK_OK(hl_renderer_create(&rd, &p->a));
    rd.no_render_bundles = true;
    HL_CHECK_OK(hl_renderer_create(&rd, &p->b));
    p->img_a = malloc((size_t)W * H * 4);
    p->img_b = malloc((size_t)W * H * 4);
    return p->a && p->b && p->img_a && p->img_b;
}

static void pair_destroy(pair *p) {
    hl_renderer_destroy(p->a);
    hl_renderer_destroy(p->b);
    free(p->img_a);
    free(p->img_b);
}

typedef struct frame_counts {
    hl_render_stats st;   /* renderer a's */
    uint64_t objects;     /* RHI objects created in a's frame */
    int diff;             /* max |a - b| over the image */
} frame_counts;

/* Renders the stage with both renderers (fn: a render_frame callback instead, when given) and
 * compares the outputs. */
static frame_counts frame(pair *p, hl_stage *s, hl_camera *cam, hl_render_frame_fn fn, void *user, const char *what) {
    frame_counts c;
    memset(&c, 0, sizeof c);
    uint64_t o0 = hl_rhi_device_stats(p->a->dev)->objects_created;
    HL_CHECK_OK(fn ? hl_renderer_render_frame(p->a, fn, user) : hl_renderer_render(p->a, s, cam));
    c.objects = hl_rhi_device_stats(p->a->dev)->objects_created - o0;
    c.st = *hl_renderer_stats(p->a);
    HL_CHECK_OK(fn ? hl_renderer_render_frame(p->b, fn, user) : hl_renderer_render(p->b, s, cam));
    HL_CHECK_EQ(hl_renderer_stats(p->b)->bundles_recorded + hl_renderer_stats(p->b)->bundles_replayed, 0);
    size_t size = (size_t)p->w * p->h * 4;
    HL_CHECK_OK(hl_renderer_read_pixels(p->a, p->img_a, size));
    HL_CHECK_OK(hl_renderer_read_pixels(p->b, p->img_b, size));
    for (size_t i = 0; i < size; i++) {
        int d = abs((int)p->img_a[i] - (int)p->img_b[i]);
        if (d > c.diff) c.diff = d;
    }
    HL_CHECK_MSG(c.diff == 0, "%s: the image with bundles differs from the one without by %d", what, c.diff);
    HL_CHECK_MSG(c.st.bundle_draws <= c.st.draws, "%s: %u of %u draws through bundles", what, c.st.bundle_draws,
                 c.st.draws);
    return c;
}

/* Draws drawn directly (chunks new this frame), and a frame in which every draw went through a
 * bundle. */
static uint32_t direct(const frame_counts *c) { return c->st.draws - c->st.bundle_draws; }
static void all_bundled(const frame_counts *c, const char *what) {
    HL_CHECK_MSG(c->st.bundle_draws == c->st.draws, "%s: %u of %u draws through bundles", what, c->st.bundle_draws,
                 c->st.draws);
}

/* A second view: the stage into a target (a material of the output samples it), then the output. */
typedef struct two_views {
    hl_render_target *ta, *tb; /* the target of renderer a / b */
    bool a;
    hl_stage *s;
    hl_camera *cam;
} two_views;

static hl_result draw_two(hl_render_frame *f, void *user) {
    two_views *t = user;
    hl_result r = hl_render_frame_render_to_target(f, t->a ? t->ta : t->tb, t->s, t->cam);
    t->a = !t->a; /* renderer a's frame comes first */
    return r ? r : hl_render_frame_render(f, t->s, t->cam);
}

static hl_mesh *replace_mesh(hl_stage *s, hl_mesh *m) {
    hl_mesh_desc md = {0};
    md.geometry = hl_mesh_geometry(m);
    md.material = hl_mesh_material(m);
    md.cast_shadows = md.receive_shadows = true; /* as the grid's meshes here: the same pipelines */
    hl_geometry_retain(md.geometry);
    hl_material_retain(md.material);
    hl_vec3 at = hl_node_translation(hl_mesh_node(m));
    hl_node_destroy(hl_mesh_node(m));
    hl_mesh *n = NULL;
    HL_CHECK_OK(hl_mesh_create(&md, &n));
    hl_geometry_release(md.geometry);
    hl_material_release(md.material);
    if (!n) return NULL;
    hl_node_set_translation(hl_mesh_node(n), at);
    HL_CHECK_OK(hl_stage_add(s, hl_mesh_node(n)));
    return n;
}

static void run(hl_backend be, uint32_t samples) {
    hl_stage *s = NULL;
    hl_camera *cam = NULL;
    HL_CHECK_OK(hl_scene_grid_create(N, MATERIALS, &s, &cam));
    if (!s) return;
    hl_camera_desc cd = *hl_camera_get_desc(cam);
    cd.aspect = (float)W / (float)H;
    HL_CHECK_OK(hl_camera_set_desc(cam, &cd));
    uint32_t count = 0;
    HL_CHECK_OK(hl_stage_update(s)); /* the stage's mesh list */
    hl_mesh *const *ms = hl_stage_meshes(s, &count);
    HL_CHECK_EQ(count, N);
    for (uint32_t i = 0; i < MATERIALS; i += 5) HL_CHECK_OK(hl_material_set_alpha_mode(hl_mesh_material(ms[i]), HL_ALPHA_BLEND, 0));
    for (uint32_t i = 0; i < count; i++) hl_mesh_set_shadows(ms[i], true, true);
    hl_light_desc ld = {0};
    ld.kind = HL_LIGHT_SPOT;
    ld.intensity = 2.0f;
    ld.color = (hl_color){1, 0.9f, 0.8f, 1};
    ld.outer_cone_deg = 40.0f;
    ld.cast_shadows = true;
    hl_light *spot = NULL;
    HL_CHECK_OK(hl_light_create(&ld, &spot));
    hl_node_set_translation(hl_light_node(spot), (hl_vec3){0, 20, 0});
    hl_node_look_at(hl_light_node(spot), (hl_vec3){0, 0, 0}, (hl_vec3){0, 0, 1});
    HL_CHECK_OK(hl_stage_add(s, hl_light_node(spot)));

    pair p;
    if (!pair_create(be, samples, &p)) {
        pair_destroy(&p);
        hl_stage_destroy(s);
        return;
    }
    printf("%s, %u sample(s):\n", hl_backend_name(be), samples);

    /* cold: every chunk recorded; then static: every bundle replays, nothing else happens */
    frame_counts c = frame(&p, s, cam, NULL, NULL, "cold");
    uint32_t chunks = c.st.bundles_recorded;
    HL_CHECK(chunks >= 4); /* opaque and transparent passes of 1,000 draws: several chunks */
    HL_CHECK_EQ(c.st.bundles_replayed, 0);
    all_bundled(&c, "cold"); /* an empty cache records every chunk at once */
    printf("  cold: %u draws in %u bundles\n", c.st.draws, chunks);
    for (int f = 0; f < 3; f++) {
        c = frame(&p, s, cam, NULL, NULL, "static");
        HL_CHECK_EQ(c.st.bundles_replayed, chunks);
        HL_CHECK_EQ(c.st.bundles_recorded, 0);
        all_bundled(&c, "static");
        HL_CHECK_EQ(c.objects, 0); /* no pipeline, bind group, buffer or bundle made */
        HL_CHECK_EQ(c.st.upload_bytes, 0); /* the view's constants only (not counted) */
        HL_CHECK_EQ(c.st.prepared_rebuilt, 0);
        HL_CHECK(c.st.retained_draws >= c.st.draws);
    }

    /* moving: every opaque mesh moves (its object block); no packet changes, no bundle is
       recorded. (Transparent meshes stay: their back-to-front order would change with them.)
       The first frame that builds the list again makes room for as many new meshes as are in
       view (hl__reserve_object_slots): the object buffer grows once, and with it the object
       group every packet names, so that frame records everything. */
    uint32_t moved = 0;
    for (int f = 0; f < 3; f++) {
        moved = 0;
        for (uint32_t i = 0; i < count; i++) {
            if (hl_material_is_transparent(hl_mesh_material(ms[i]))) continue;
            hl_vec3 t = hl_node_translation(hl_mesh_node(ms[i]));
            t.y = 0.05f * sinf(0.7f * (float)f + 0.37f * (float)i);
            hl_node_set_translation(hl_mesh_node(ms[i]), t);
            moved++;
        }
        c = frame(&p, s, cam, NULL, NULL, "moving");
        HL_CHECK_EQ(c.st.retained_draws, 0);
        if (f == 0) continue; /* the object buffer's growth: everything drawn directly */
        HL_CHECK_EQ(c.st.bundles_recorded, f == 1 ? chunks : 0); /* recorded again, once */
        HL_CHECK_EQ(c.st.bundles_replayed, f == 1 ? 0 : chunks);
        all_bundled(&c, "moving");
        HL_CHECK(c.st.upload_bytes >= (uint64_t)moved * 128u);
    }
    HL_CHECK(moved >= N / 2);

    /* a material's contents (its uniform block, same group and packets): replayed */
    HL_CHECK_OK(hl_material_set_color(hl_mesh_material(ms[1]), (hl_color){1, 0, 1, 1}));
    c = frame(&p, s, cam, NULL, NULL, "material colour");
    HL_CHECK_EQ(c.st.bundles_recorded, 0);
    all_bundled(&c, "material colour");
    /* a material's variant (another program and pipeline): the chunks with its draws are drawn
       directly, then recorded the next frame */
    HL_CHECK_OK(hl_material_set_double_sided(hl_mesh_material(ms[2]), true));
    c = frame(&p, s, cam, NULL, NULL, "material variant");
    HL_CHECK_EQ(c.st.bundles_recorded, 0);
    HL_CHECK(c.st.bundles_replayed >= chunks - 2 && direct(&c) > 0 && direct(&c) <= 2 * 512);
    printf("  material variant: %u direct draws, %u bundles replayed\n", direct(&c), c.st.bundles_replayed);
    c = frame(&p, s, cam, NULL, NULL, "after the variant");
    HL_CHECK(c.st.bundles_recorded >= 1 && c.st.bundles_recorded <= 2);
    all_bundled(&c, "after the variant");
    c = frame(&p, s, cam, NULL, NULL, "after the variant, static");
    HL_CHECK_EQ(c.st.bundles_recorded, 0);
    chunks = c.st.bundles_replayed;

    /* churn: one mesh replaced a frame (a new mesh, a new object slot, at the end of the
       traversal): its removal and its addition each touch one chunk, and the next one where a
       cut moves: at most 4 of the 7 are recorded */
    for (int f = 0; f < 3; f++) {
        /* a mesh near the centre (in view): the one closest to (2 f - 2, 0, 1 - f) */
        uint32_t i = 0;
        float best = 1e30f;
        for (uint32_t k = 0; k < count; k++) {
            hl_vec3 t = hl_node_translation(hl_mesh_node(ms[k]));
            float dx = t.x - (float)(2 * f - 2), dz = t.z - (float)(1 - f), d = dx * dx + dz * dz;
            if (d < best) best = d, i = k;
        }
        HL_CHECK(replace_mesh(s, ms[i]) != NULL);
        HL_CHECK_OK(hl_stage_update(s));
        ms = hl_stage_meshes(s, &count);
        c = frame(&p, s, cam, NULL, NULL, "churn");
        printf("  churn: %u draws direct, %u bundles recorded (last frame's direct ones), %u replayed\n", direct(&c),
               c.st.bundles_recorded, c.st.bundles_replayed);
        /* the chunks it touched drawn directly (at most 4 of about `chunks`), the rest replayed;
           those of the frame before recorded */
        HL_CHECK(direct(&c) >= 1 && direct(&c) <= 4 * 512);
        HL_CHECK(c.st.bundles_replayed + 4 >= chunks);
        HL_CHECK(f == 0 ? c.st.bundles_recorded == 0 : c.st.bundles_recorded <= 4);
    }
    c = frame(&p, s, cam, NULL, NULL, "after the churn");
    HL_CHECK(c.st.bundles_recorded >= 1 && c.st.bundles_recorded <= 4);
    all_bundled(&c, "after the churn");
    c = frame(&p, s, cam, NULL, NULL, "after the churn, static");
    HL_CHECK_EQ(c.st.bundles_recorded, 0);
    /* churn all over the list (every hundredth mesh replaced, two frames running): most chunks
       are new each frame, so nothing is recorded while it lasts; then a static frame records */
    for (int f = 0; f < 2; f++) {
        for (uint32_t k = (uint32_t)f * 50u; k < count; k += 100) {
            HL_CHECK_OK(hl_stage_update(s));
            ms = hl_stage_meshes(s, &count);
            HL_CHECK(replace_mesh(s, ms[k % count]) != NULL);
        }
        HL_CHECK_OK(hl_stage_update(s));
        ms = hl_stage_meshes(s, &count);
        c = frame(&p, s, cam, NULL, NULL, "churn all over");
        HL_CHECK_EQ(c.st.bundles_recorded, 0);
        HL_CHECK(direct(&c) > c.st.draws / 2);
    }
    c = frame(&p, s, cam, NULL, NULL, "after the churn all over");
    HL_CHECK(c.st.bundles_recorded > chunks / 2);
    all_bundled(&c, "after the churn all over");
    c = frame(&p, s, cam, NULL, NULL, "after the churn all over, static");
    HL_CHECK_EQ(c.st.bundles_recorded, 0);

    /* culling: the camera moves, fewer meshes in view, then back */
    hl_vec3 eye = hl_node_translation(hl_camera_node(cam));
    hl_node_set_translation(hl_camera_node(cam), (hl_vec3){eye.x + 8.0f, eye.y * 0.5f, eye.z * 0.5f});
    hl_node_look_at(hl_camera_node(cam), (hl_vec3){8, 0, 0}, (hl_vec3){0, 1, 0});
    c = frame(&p, s, cam, NULL, NULL, "culled");
    HL_CHECK(c.st.meshes_culled > 0);
    c = frame(&p, s, cam, NULL, NULL, "culled, static");
    all_bundled(&c, "culled, static");
    c = frame(&p, s, cam, NULL, NULL, "culled, static again");
    HL_CHECK_EQ(c.st.bundles_recorded, 0);
    hl_node_set_translation(hl_camera_node(cam), eye);
    hl_node_look_at(hl_camera_node(cam), (hl_vec3){0, 0, 0}, (hl_vec3){0, 1, 0});
    frame(&p, s, cam, NULL, NULL, "back");

    /* a second view into a target of another format in the same frame, twice (the second time
       both views replay) */
    hl_render_target_desc td = {0};
    td.width = W;
    td.height = H;
    td.formats[0] = HL_TARGET_RGBA16F;
    two_views tv = {0};
    tv.s = s;
    tv.cam = cam;
    tv.a = true;
    HL_CHECK_OK(hl_render_target_create(p.a, &td, &tv.ta));
    HL_CHECK_OK(hl_render_target_create(p.b, &td, &tv.tb));
    c = frame(&p, s, cam, draw_two, &tv, "two views");
    all_bundled(&c, "two views"); /* the target's caches are new: recorded at once */
    c = frame(&p, s, cam, draw_two, &tv, "two views, again");
    HL_CHECK_EQ(c.st.bundles_recorded, 0);
    HL_CHECK(c.st.bundles_replayed >= 2 * 2);
    all_bundled(&c, "two views, again");
    size_t tsize = hl_render_target_read_size(tv.ta, 0);
    uint8_t *ta = malloc(tsize), *tb = malloc(tsize);
    HL_CHECK_OK(hl_render_target_read(p.a, tv.ta, 0, ta, tsize));
    HL_CHECK_OK(hl_render_target_read(p.b, tv.tb, 0, tb, tsize));
    HL_CHECK_MSG(memcmp(ta, tb, tsize) == 0, "the target views differ");
    free(ta);
    free(tb);
    HL_CHECK_OK(hl_render_target_destroy(p.a, tv.ta));
    HL_CHECK_OK(hl_render_target_destroy(p.b, tv.tb));
    /* the output alone again: the target's caches went at the end of the frames without it */
    c = frame(&p, s, cam, NULL, NULL, "one view again");

    /* a device loss: every bundle goes with the device and is recorded again */
    HL_CHECK_OK(hl_renderer_simulate_device_loss(p.a));
    c = frame(&p, s, cam, NULL, NULL, "after the loss");
    HL_CHECK_EQ(c.st.device_recoveries, 1);
    HL_CHECK(c.st.bundles_recorded >= 4);
    HL_CHECK_EQ(c.st.bundles_replayed, 0);
    all_bundled(&c, "after the loss");
    c = frame(&p, s, cam, NULL, NULL, "after the loss, static");
    HL_CHECK_EQ(c.st.bundles_recorded, 0);
    /* released GPU objects: the same */
    HL_CHECK_OK(hl_renderer_release_gpu_resources(p.a));
    c = frame(&p, s, cam, NULL, NULL, "after the release");
    HL_CHECK(c.st.bundles_recorded >= 4);
    HL_CHECK_EQ(c.st.bundles_replayed, 0);

    pair_destroy(&p);
    hl_stage_destroy(s);
}

int main(int argc, char **argv) {
    hl_backend be = hl_test_backend_arg(argc, argv, HL_RHI_BACKEND_WEBGPU) == HL_RHI_BACKEND_GLES3 ? HL_BACKEND_GLES3
                                                                                                : HL_BACKEND_WEBGPU;
    run(be, 1);
    run(be, 4);
    return hl_test_finish();
}
