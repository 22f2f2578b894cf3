/* Pipelines recorded through the public SRP calls (cull, record_shadows, renderer lists, scene
 * passes), on one backend per run.
 *
 * 1. Scripted Forward = direct recorder, byte for byte (tolerance 0: same driver, same
 *    draws): a runtime that culls, records shadows, draws the opaque list (clear) and the
 *    transparent list (load) renders the demo scene (shadows from two lights, PBR, texture,
 *    transparency, 300 instanced cubes) exactly as the built-in path does at 64x64 4x, 96x48,
 *    48x96 4x, 33x17 and 1x1; into an MRT target (4 attachments, RGBA16F among them, 4x MSAA);
 *    and in hl_renderer_render_frame with two views (target, then output), over 3 frames with
 *    the box moving.
 * 2. Lists select what they promise (known pixels, +-2 of 255): two unlit boxes, red (casts
 *    shadows) left and green right, a half-transparent yellow pane over the red one, blue
 *    clear colour, the pane first in the stage: casters-only, transparent-only, back-to-front
 *    (pane over box) and none (box drawn over the pane) sortings, a second
 *    scene pass that clears, a record that adds no pass (the output keeps its last frame).
 *    An override material draws the list's meshes in its colour, and the next frame in their own.
 * 3. Misuse gets codes, not crashes: a scene pass before the shadows it needs, handles kept
 *    from an earlier invocation, a 17th cull in one frame, out-of-range queue. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hilo3d/pipeline.h"
#include "hl_scene_demo.h"
#include "hl_test.h"

typedef enum mode {
    MODE_FORWARD = 0,  /* cull, shadows, opaque (clear), transparent (load) */
    MODE_CASTERS,      /* opaque casters only */
    MODE_TRANSPARENT,  /* transparent queue only (clear) */
    MODE_ALL_BACK_TO_FRONT,
    MODE_ALL_NONE,
    MODE_CLEAR_AGAIN,  /* opaque, then an empty-looking second pass that clears */
    MODE_NOTHING,      /* no pass at all */
    MODE_TWICE,        /* the opaque list drawn twice (the second pass loads) */
    MODE_OVERRIDE,     /* the opaque list with an override material */
    MODE_MISUSE,
} mode;

typedef struct script {
    mode m;
    hl_pipeline_culling kept_culling;
    hl_pipeline_renderer_list kept_list;
    bool have_kept;
    hl_result misuse[8];
    uint32_t counts[4];
    hl_pipeline_culling_info info;
    hl_material *override;
} script;

static hl_result add_list(hl_pipeline_context ctx, hl_pipeline_culling c, hl_pipeline_queue q, hl_pipeline_sorting s,
                          bool casters, bool load, const char *name, uint32_t *count) {
    hl_pipeline_renderer_list_desc ld = {c, q, s, casters, NULL, HL_PIPELINE_MATERIALS_ALL, 0};
    hl_pipeline_renderer_list l;
    hl_result res = hl_pipeline_create_renderer_list(ctx, &ld, &l);
    if (!res && count) res = hl_pipeline_renderer_list_count(ctx, l, count);
    hl_pipeline_scene_pass_desc pd = {.name = name, .list = l, .load_color = load, .load_depth = load};
    if (!res) res = hl_pipeline_add_scene_pass(ctx, &pd);
    return res;
}

static hl_result script_record(hl_pipeline_context ctx, void *state) {
    script *s = state;
    if (s->m == MODE_NOTHING) return HL_OK;
    hl_pipeline_culling c;
    hl_result res = hl_pipeline_cull(ctx, NULL, &c);
    if (!res) res = hl_pipeline_culling_info_get(ctx, c, &s->info);
    if (res) return res;
    if (s->m == MODE_MISUSE) {
        hl_pipeline_renderer_list_desc ld = {c, HL_PIPELINE_QUEUE_OPAQUE, HL_PIPELINE_SORT_MATERIAL_FRONT_TO_BACK, false, NULL, HL_PIPELINE_MATERIALS_ALL, 0};
        hl_pipeline_renderer_list l;
        s->misuse[0] = hl_pipeline_create_renderer_list(ctx, &ld, &l);
        hl_pipeline_scene_pass_desc pd = {.name = "early", .list = l, .load_color = false, .load_depth = false};
        s->misuse[1] = hl_pipeline_add_scene_pass(ctx, &pd); /* shadows not recorded yet */
        if (s->have_kept) {
            s->misuse[2] = hl_pipeline_record_shadows(ctx, s->kept_culling);
            pd.list = s->kept_list;
            s->misuse[3] = hl_pipeline_add_scene_pass(ctx, &pd);
        }
        ld.queue = (hl_pipeline_queue)7;
        s->misuse[4] = hl_pipeline_create_renderer_list(ctx, &ld, &l);
        s->misuse[5] = hl_pipeline_record_shadows(ctx, c);
        s->misuse[6] = hl_pipeline_record_shadows(ctx, c); /* twice */
        hl_result last = HL_OK;
        for (int i = 0; i < 20 && !last; i++) last = hl_pipeline_cull(ctx, NULL, &(hl_pipeline_culling){0});
        s->misuse[7] = last;
        s->kept_culling = c;
        ld.queue = HL_PIPELINE_QUEUE_OPAQUE;
        hl_pipeline_create_renderer_list(ctx, &ld, &s->kept_list);
        s->have_kept = true;
        return HL_OK;
    }
    res = hl_pipeline_record_shadows(ctx, c);
    if (res) return res;
    switch (s->m) {
    case MODE_FORWARD:
        res = add_list(ctx, c, HL_PIPELINE_QUEUE_OPAQUE, HL_PIPELINE_SORT_MATERIAL_FRONT_TO_BACK, false, false, "opaque",
                       &s->counts[0]);
        if (!res)
            res = add_list(ctx, c, HL_PIPELINE_QUEUE_TRANSPARENT, HL_PIPELINE_SORT_MATERIAL_FRONT_TO_BACK, false, true,
                           "transparent", &s->counts[1]);
        break;
    case MODE_CASTERS:
        res = add_list(ctx, c, HL_PIPELINE_QUEUE_OPAQUE, HL_PIPELINE_SORT_MATERIAL_FRONT_TO_BACK, true, false, "casters",
                       &s->counts[0]);
        break;
    case MODE_TRANSPARENT:
        res = add_list(ctx, c, HL_PIPELINE_QUEUE_TRANSPARENT, HL_PIPELINE_SORT_BACK_TO_FRONT, false, false, "panes",
                       &s->counts[0]);
        break;
    case MODE_ALL_BACK_TO_FRONT:
        res = add_list(ctx, c, HL_PIPELINE_QUEUE_ALL, HL_PIPELINE_SORT_BACK_TO_FRONT, false, false, "all", &s->counts[0]);
        break;
    case MODE_ALL_NONE:
        res = add_list(ctx, c, HL_PIPELINE_QUEUE_ALL, HL_PIPELINE_SORT_NONE, false, false, "all", &s->counts[0]);
        break;
    case MODE_OVERRIDE: {
        hl_pipeline_renderer_list_desc ld = {c, HL_PIPELINE_QUEUE_OPAQUE, HL_PIPELINE_SORT_MATERIAL_FRONT_TO_BACK, false,
                                             s->override, HL_PIPELINE_MATERIALS_ALL, 0};
        hl_pipeline_renderer_list l;
        res = hl_pipeline_create_renderer_list(ctx, &ld, &l);
        if (!res) res = hl_pipeline_renderer_list_count(ctx, l, &s->counts[0]);
        hl_pipeline_scene_pass_desc pd = {.name = "override", .list = l};
        if (!res) res = hl_pipeline_add_scene_pass(ctx, &pd);
        break;
    }
    case MODE_TWICE:
        res = add_list(ctx, c, HL_PIPELINE_QUEUE_OPAQUE, HL_PIPELINE_SORT_MATERIAL_FRONT_TO_BACK, false, false, "once",
                       &s->counts[0]);
        if (!res)
            res = add_list(ctx, c, HL_PIPELINE_QUEUE_OPAQUE, HL_PIPELINE_SORT_MATERIAL_FRONT_TO_BACK, false, true, "twice",
                           &s->counts[1]);
        break;
    case MODE_CLEAR_AGAIN:
        res = add_list(ctx, c, HL_PIPELINE_QUEUE_OPAQUE, HL_PIPELINE_SORT_MATERIAL_FRONT_TO_BACK, false, false, "opaque",
                       &s->counts[0]);
        if (!res)
            res = add_list(ctx, c, HL_PIPELINE_QUEUE_TRANSPARENT, HL_PIPELINE_SORT_MATERIAL_FRONT_TO_BACK, false, false,
                           "clear again", &s->counts[1]);
        break;
    default: break;
    }
    return res;
}

static hl_result script_create(const hl_pipeline_caps *caps, void *user, hl_pipeline_runtime **out) {
    (void)caps;
    hl_pipeline_runtime_desc d = {"scripted", user, script_record, NULL};
    return hl_pipeline_runtime_create(&d, out);
}

static hl_renderer *make_renderer(hl_backend be, uint32_t w, uint32_t h, uint32_t samples, script *s) {
    static hl_pipeline_factory f = {"scripted", NULL, script_create, NULL};
    hl_renderer_desc rd = {0};
    rd.backend = be;
    rd.width = w;
    rd.height = h;
    rd.sample_count = samples;
    if (s) {
        f.user = s;
        rd.pipeline = &f;
    }
    hl_renderer *r = NULL;
    HL_CHECK_OK(hl_renderer_create(&rd, &r));
    return r;
}

static void compare_bytes(const char *what, const uint8_t *a, const uint8_t *b, size_t n) {
    size_t diff = 0, first = n;
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i]) {
            if (first == n) first = i;
            diff++;
        }
    HL_CHECK_MSG(diff == 0, "%s: %zu of %zu bytes differ (first at byte %zu: %u vs %u)", what, diff, n, first,
                 first < n ? a[first] : 0, first < n ? b[first] : 0);
}

typedef struct two_views_ctx {
    hl_render_target *t;
    hl_scene_demo *demo;
} two_views_ctx;

static hl_result two_views(hl_render_frame *f, void *user) {
    two_views_ctx *c = user;
    hl_result res = hl_render_frame_render_to_target(f, c->t, c->demo->stage, c->demo->camera);
    if (!res) res = hl_render_frame_render(f, c->demo->stage, c->demo->camera);
    return res;
}

static void test_forward_parity(hl_backend be) {
    static const uint32_t sizes[][3] = {{64, 64, 4}, {96, 48, 1}, {48, 96, 4}, {33, 17, 1}, {1, 1, 4}};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        uint32_t w = sizes[k][0], h = sizes[k][1], n = sizes[k][2];
        hl_scene_demo demo;
        HL_CHECK_OK(hl_scene_demo_create((float)w / (float)h, &demo));
        script s = {.m = MODE_FORWARD};
        hl_renderer *direct = make_renderer(be, w, h, n, NULL), *scripted = make_renderer(be, w, h, n, &s);
        if (!direct || !scripted || !demo.stage) return;
        size_t bytes = (size_t)w * h * 4;
        uint8_t *a = malloc(bytes), *b = malloc(bytes);
        for (int frame = 0; frame < 3; frame++) {
            hl_node_set_translation(hl_mesh_node(demo.box), (hl_vec3){4.3f, 0.6f + 0.1f * (float)frame, -0.5f});
            HL_CHECK_OK(hl_renderer_render(direct, demo.stage, demo.camera));
            HL_CHECK_OK(hl_renderer_render(scripted, demo.stage, demo.camera));
            HL_CHECK_OK(hl_renderer_read_pixels(direct, a, bytes));
            HL_CHECK_OK(hl_renderer_read_pixels(scripted, b, bytes));
            char what[96];
            snprintf(what, sizeof what, "demo %ux%u %ux frame %d", w, h, n, frame);
            compare_bytes(what, a, b, bytes);
        }
        HL_CHECK_EQ(hl_renderer_stats(scripted)->draws, hl_renderer_stats(direct)->draws);
        HL_CHECK(s.counts[0] > 0 && s.info.shadow_tiles > 0 && s.info.lights >= 2);
        if (w == 64) {
            /* an MRT target, 4x MSAA, RGBA16F among the attachments; then two views in one frame */
            hl_render_target_desc td = {0};
            td.width = 40;
            td.height = 24;
            td.color_count = 4;
            td.formats[1] = HL_TARGET_RGBA16F;
            td.formats[2] = HL_TARGET_RGBA8;
            td.sample_count = 4;
            hl_render_target *ta = NULL, *tb = NULL;
            HL_CHECK_OK(hl_render_target_create(direct, &td, &ta));
            HL_CHECK_OK(hl_render_target_create(scripted, &td, &tb));
            HL_CHECK_OK(hl_renderer_render_to_target(direct, ta, demo.stage, demo.camera));
            HL_CHECK_OK(hl_renderer_render_to_target(scripted, tb, demo.stage, demo.camera));
            for (uint32_t i = 0; ta && tb && i < 4; i++) {
                size_t sz = hl_render_target_read_size(ta, i);
                uint8_t *x = malloc(sz), *y = malloc(sz);
                HL_CHECK_OK(hl_render_target_read(direct, ta, i, x, sz));
                HL_CHECK_OK(hl_render_target_read(scripted, tb, i, y, sz));
                char what[64];
                snprintf(what, sizeof what, "MRT attachment %u", i);
                compare_bytes(what, x, y, sz);
                free(x);
                free(y);
            }
            hl_render_target_desc od = {0};
            hl_render_target *oa = NULL, *ob = NULL;
            HL_CHECK_OK(hl_render_target_create(direct, &od, &oa));
            HL_CHECK_OK(hl_render_target_create(scripted, &od, &ob));
            two_views_ctx ca = {oa, &demo}, cb = {ob, &demo};
            HL_CHECK_OK(hl_renderer_render_frame(direct, two_views, &ca));
            HL_CHECK_OK(hl_renderer_render_frame(scripted, two_views, &cb));
            HL_CHECK_OK(hl_renderer_read_pixels(direct, a, bytes));
            HL_CHECK_OK(hl_renderer_read_pixels(scripted, b, bytes));
            compare_bytes("render_frame output", a, b, bytes);
            HL_CHECK_OK(hl_render_target_read(direct, oa, 0, a, bytes));
            HL_CHECK_OK(hl_render_target_read(scripted, ob, 0, b, bytes));
            compare_bytes("render_frame target", a, b, bytes);
        }
        free(a);
        free(b);
        hl_renderer_destroy(direct);
        hl_renderer_destroy(scripted);
        hl_scene_demo_destroy(&demo);
    }
}

/* two unlit boxes (red casts shadows, green does not), a yellow 50% pane over the red one */
static hl_result lists_scene(hl_stage **out_stage, hl_camera **out_cam) {
    hl_stage *s = NULL;
    hl_result res = hl_stage_create(&s);
    if (res) return res;
    hl_stage_set_clear_color(s, (hl_color){0, 0, 1, 1});
    hl_box_desc bd = {1, 1, 1};
    hl_geometry *box = NULL, *plane = NULL;
    hl_plane_desc pd = {1.4f, 1.4f, 1, 1};
    res = hl_geometry_create_box(&bd, &box);
    if (!res) res = hl_geometry_create_plane(&pd, &plane);
    const hl_color colors[3] = {{1, 0, 0, 1}, {0, 1, 0, 1}, {1, 1, 0, 0.5f}};
    const hl_vec3 at[3] = {{-1, 0, 0}, {1, 0, 0}, {-1, 0, 1.0f}};
    /* the pane first: traversal order draws it before the box it covers */
    for (int k = 0; k < 3 && !res; k++) {
        int i = (k + 2) % 3;
        hl_basic_material_desc md = {0};
        md.color = colors[i];
        if (i == 2) md.state.alpha_mode = HL_ALPHA_BLEND;
        hl_material *m = NULL;
        res = hl_material_create_basic(&md, &m);
        hl_mesh_desc mesh = {0};
        mesh.geometry = i == 2 ? plane : box;
        mesh.material = m;
        mesh.cast_shadows = i == 0;
        hl_mesh *me = NULL;
        if (!res) res = hl_mesh_create(&mesh, &me);
        hl_material_release(m);
        if (!res) {
            hl_node_set_translation(hl_mesh_node(me), at[i]);
            res = hl_stage_add(s, hl_mesh_node(me));
        }
    }
    hl_geometry_release(box);
    hl_geometry_release(plane);
    hl_camera_desc cd = {0};
    cd.fov_y_deg = 60;
    cd.aspect = 1;
    hl_camera *cam = NULL;
    if (!res) res = hl_camera_create(&cd, &cam);
    if (!res) {
        hl_node_set_translation(hl_camera_node(cam), (hl_vec3){0, 0, 5});
        res = hl_stage_add(s, hl_camera_node(cam));
    }
    if (res) {
        hl_stage_destroy(s);
        return res;
    }
    *out_stage = s;
    *out_cam = cam;
    return HL_OK;
}

#define PX(buf, x, y) (&(buf)[((size_t)(y) * 64 + (x)) * 4])

static void test_lists(hl_backend be) {
    hl_stage *stage = NULL;
    hl_camera *cam = NULL;
    HL_CHECK_OK(lists_scene(&stage, &cam));
    if (!stage) return;
    script s = {.m = MODE_FORWARD};
    hl_renderer *r = make_renderer(be, 64, 64, 1, &s);
    if (!r) return;
    uint8_t px[64 * 64 * 4];
    /* red box at pixel x ~21, green at ~43, pane over red (yellow 0.5 over red: 255,188,0) */
    const int L = 18, R = 45, Y = 32;
    s.m = MODE_FORWARD;
    HL_CHECK_OK(hl_renderer_render(r, stage, cam));
    HL_CHECK_OK(hl_renderer_read_pixels(r, px, sizeof px));
    HL_CHECK_PIXEL(PX(px, L, Y), 255, 188, 0, 255, 2);
    HL_CHECK_PIXEL(PX(px, R, Y), 0, 255, 0, 255, 2);
    HL_CHECK_PIXEL(PX(px, 32, 2), 0, 0, 255, 255, 2);
    HL_CHECK(s.counts[0] == 2 && s.counts[1] == 1);
    s.m = MODE_CASTERS;
    HL_CHECK_OK(hl_renderer_render(r, stage, cam));
    HL_CHECK_OK(hl_renderer_read_pixels(r, px, sizeof px));
    HL_CHECK_PIXEL(PX(px, L, Y), 255, 0, 0, 255, 2);
    HL_CHECK_PIXEL(PX(px, R, Y), 0, 0, 255, 255, 2);
    HL_CHECK_EQ(s.counts[0], 1);
    HL_CHECK_EQ(hl_renderer_stats(r)->draws, 1);
    s.m = MODE_TRANSPARENT; /* yellow 0.5 over blue: 188,188,188 */
    HL_CHECK_OK(hl_renderer_render(r, stage, cam));
    HL_CHECK_OK(hl_renderer_read_pixels(r, px, sizeof px));
    HL_CHECK_PIXEL(PX(px, L, Y), 188, 188, 188, 255, 2);
    HL_CHECK_PIXEL(PX(px, R, Y), 0, 0, 255, 255, 2);
    /* QUEUE_ALL back to front: the pane (nearest) last, over the red box */
    s.m = MODE_ALL_BACK_TO_FRONT;
    HL_CHECK_OK(hl_renderer_render(r, stage, cam));
    HL_CHECK_OK(hl_renderer_read_pixels(r, px, sizeof px));
    HL_CHECK_PIXEL(PX(px, L, Y), 255, 188, 0, 255, 2);
    HL_CHECK_PIXEL(PX(px, R, Y), 0, 255, 0, 255, 2);
    HL_CHECK_EQ(s.counts[0], 3);
    /* traversal order: the pane (no depth write) first, the red box then covers it */
    s.m = MODE_ALL_NONE;
    HL_CHECK_OK(hl_renderer_render(r, stage, cam));
    HL_CHECK_OK(hl_renderer_read_pixels(r, px, sizeof px));
    HL_CHECK_PIXEL(PX(px, L, Y), 255, 0, 0, 255, 2);
    HL_CHECK_PIXEL(PX(px, R, Y), 0, 255, 0, 255, 2);
    /* a second pass that clears: only the pane over blue remains */
    s.m = MODE_CLEAR_AGAIN;
    HL_CHECK_OK(hl_renderer_render(r, stage, cam));
    HL_CHECK_OK(hl_renderer_read_pixels(r, px, sizeof px));
    HL_CHECK_PIXEL(PX(px, L, Y), 188, 188, 188, 255, 2);
    HL_CHECK_PIXEL(PX(px, R, Y), 0, 0, 255, 255, 2);
    /* statistics follow execution: a list drawn twice counts its draws twice, its faces once */
    s.m = MODE_CASTERS;
    HL_CHECK_OK(hl_renderer_render(r, stage, cam));
    uint64_t faces_once = hl_renderer_stats(r)->faces;
    s.m = MODE_TWICE;
    HL_CHECK_OK(hl_renderer_render(r, stage, cam));
    HL_CHECK_EQ(hl_renderer_stats(r)->draws, 4);
    HL_CHECK_EQ(hl_renderer_stats(r)->faces, faces_once * 2); /* two boxes, each counted once */
    HL_CHECK(faces_once == 12);
    /* an override material: the same boxes in magenta; the next frame draws their own colours
       again (the meshes' prepared draws are untouched) */
    hl_basic_material_desc omd = {0};
    omd.color = (hl_color){1, 0, 1, 1};
    HL_CHECK_OK(hl_material_create_basic(&omd, &s.override));
    s.m = MODE_OVERRIDE;
    for (int k = 0; k < 2; k++) {
        HL_CHECK_OK(hl_renderer_render(r, stage, cam));
        HL_CHECK_OK(hl_renderer_read_pixels(r, px, sizeof px));
        HL_CHECK_PIXEL(PX(px, L, Y), 255, 0, 255, 255, 2);
        HL_CHECK_PIXEL(PX(px, R, Y), 255, 0, 255, 255, 2);
        HL_CHECK_PIXEL(PX(px, 32, 2), 0, 0, 255, 255, 2);
        HL_CHECK_EQ(s.counts[0], 2);
    }
    s.m = MODE_CASTERS;
    HL_CHECK_OK(hl_renderer_render(r, stage, cam));
    HL_CHECK_OK(hl_renderer_read_pixels(r, px, sizeof px));
    HL_CHECK_PIXEL(PX(px, L, Y), 255, 0, 0, 255, 2);
    hl_material_release(s.override);
    s.m = MODE_TWICE;
    HL_CHECK_OK(hl_renderer_render(r, stage, cam));
    /* no pass: the output keeps the last frame */
    s.m = MODE_NOTHING;
    HL_CHECK_OK(hl_renderer_render(r, stage, cam));
    HL_CHECK_OK(hl_renderer_read_pixels(r, px, sizeof px));
    HL_CHECK_PIXEL(PX(px, L, Y), 255, 0, 0, 255, 2); /* the opaque boxes of the last frame */
    HL_CHECK_PIXEL(PX(px, R, Y), 0, 255, 0, 255, 2);
    HL_CHECK_EQ(hl_renderer_stats(r)->draws, 0);
    hl_renderer_destroy(r);
    hl_stage_destroy(stage);
}

static void test_misuse(hl_backend be) {
    hl_scene_demo demo;
    HL_CHECK_OK(hl_scene_demo_create(1.0f, &demo));
    script s = {.m = MODE_MISUSE};
    hl_renderer *r = make_renderer(be, 32, 32, 1, &s);
    if (!r || !demo.stage) return;
    HL_CHECK_OK(hl_renderer_render(r, demo.stage, demo.camera));
    HL_CHECK_OK(s.misuse[0]);
    HL_CHECK_RESULT(s.misuse[1], HL_ERR_INVALID_STATE); /* the demo's lights cast shadows */
    HL_CHECK_RESULT(s.misuse[4], HL_ERR_VALIDATION);
    HL_CHECK_OK(s.misuse[5]);
    HL_CHECK_RESULT(s.misuse[6], HL_ERR_INVALID_STATE);
    HL_CHECK_RESULT(s.misuse[7], HL_ERR_VALIDATION); /* more than HL_RENDER_MAX_VIEWS culls */
    memset(s.misuse, 0, sizeof s.misuse);
    HL_CHECK_OK(hl_renderer_render(r, demo.stage, demo.camera)); /* the next frame is fine */
    HL_CHECK_RESULT(s.misuse[2], HL_ERR_INVALID_STATE); /* a culling result of the last invocation */
    HL_CHECK_RESULT(s.misuse[3], HL_ERR_INVALID_STATE); /* a list of the last invocation */
    /* an override over the demo's instanced batches, textures and shadows: renders, then the
       demo's own materials again (records the shadows first: MODE_OVERRIDE does) */
    hl_pbr_material_desc pm = {0};
    pm.base_color = (hl_color){0.2f, 0.8f, 0.3f, 1};
    HL_CHECK_OK(hl_material_create_pbr(&pm, &s.override));
    s.m = MODE_OVERRIDE;
    HL_CHECK_OK(hl_renderer_render(r, demo.stage, demo.camera));
    HL_CHECK(s.counts[0] > 10 && hl_renderer_stats(r)->draws == s.counts[0]);
    hl_material_release(s.override);
    s.m = MODE_FORWARD;
    HL_CHECK_OK(hl_renderer_render(r, demo.stage, demo.camera));
    hl_renderer_destroy(r);
    hl_scene_demo_destroy(&demo);
}

int main(int argc, char **argv) {
    hl_backend be = hl_test_backend_arg(argc, argv, HL_RHI_BACKEND_WEBGPU) == HL_RHI_BACKEND_GLES3 ? HL_BACKEND_GLES3
                                                                                                : HL_BACKEND_WEBGPU;
    test_forward_parity(be);
    test_lists(be);
    test_misuse(be);
    return hl_test_finish();
}
