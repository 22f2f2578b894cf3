/* Mesh before/after-render events (hilo3d/scene.h), on one backend per run.
 *
 * Scene: A (plain, visible), B (outside the view, casts shadows under a shadowed light), C and
 * D (instanced together, visible). Direct recorder: before_render for A, C, D (not B), once
 * each; after_render for A, C, D once per frame, not B (its shadow-only draw is no scene
 * draw); a colour set in A's before_render shows in the same frame (pixel, +-2); a failed frame
 * (render_frame whose callback fails) gives no after_render. A pipeline with two culls and one
 * scene pass: before_render once (per render call), after_render once; a pipeline that culls
 * but draws nothing: before_render, no after_render. */
#include <stdio.h>
#include <string.h>

#include "hilo3d/pipeline.h"
#include "hl_test.h"

typedef struct counts {
    int before[4], after[4];
    hl_material *recolor; /* A's before_render sets it green */
} counts;

static counts g;

static void on_before(hl_mesh *m, void *user) {
    int i = (int)(intptr_t)user;
    g.before[i]++;
    if (i == 0 && g.recolor) hl_material_set_color(g.recolor, (hl_color){0, 1, 0, 1});
    (void)m;
}

static void on_after(hl_mesh *m, void *user) {
    (void)m;
    g.after[(int)(intptr_t)user]++;
}

static void expect(const char *what, const int before[4], const int after[4]) {
    for (int i = 0; i < 4; i++) {
        HL_CHECK_MSG(g.before[i] == before[i], "%s: before_render of mesh %c: %d, expected %d", what, 'A' + i,
                     g.before[i], before[i]);
        HL_CHECK_MSG(g.after[i] == after[i], "%s: after_render of mesh %c: %d, expected %d", what, 'A' + i, g.after[i],
                     after[i]);
    }
    memset(g.before, 0, sizeof g.before);
    memset(g.after, 0, sizeof g.after);
}

static hl_result failing_frame(hl_render_frame *f, void *user) {
    hl_camera *cam = user;
    (void)cam;
    (void)f;
    return HL_ERR_VALIDATION;
}

typedef struct two {
    hl_stage *s;
    hl_camera *cam;
} two;

static hl_result render_then_fail(hl_render_frame *f, void *user) {
    two *t = user;
    hl_result res = hl_render_frame_render(f, t->s, t->cam);
    return res ? res : HL_ERR_IO;
}

typedef enum mode { M_TWO_CULLS, M_NO_PASS } mode;
static mode g_mode;

static hl_result pipe_record(hl_pipeline_context ctx, void *state) {
    (void)state;
    hl_pipeline_culling c1, c2;
    hl_result res = hl_pipeline_cull(ctx, NULL, &c1);
    if (!res) res = hl_pipeline_cull(ctx, NULL, &c2);
    if (!res) res = hl_pipeline_record_shadows(ctx, c1);
    if (res || g_mode == M_NO_PASS) return res;
    hl_pipeline_renderer_list_desc ld = {c1, HL_PIPELINE_QUEUE_ALL, HL_PIPELINE_SORT_MATERIAL_FRONT_TO_BACK, false, NULL, HL_PIPELINE_MATERIALS_ALL, 0};
    hl_pipeline_renderer_list l;
    res = hl_pipeline_create_renderer_list(ctx, &ld, &l);
    hl_pipeline_scene_pass_desc pd = {.name = "scene", .list = l};
    if (!res) res = hl_pipeline_add_scene_pass(ctx, &pd);
    return res;
}

static hl_result pipe_create(const hl_pipeline_caps *caps, void *user, hl_pipeline_runtime **out) {
    (void)caps, (void)user;
    hl_pipeline_runtime_desc d = {"events", NULL, pipe_record, NULL};
    return hl_pipeline_runtime_create(&d, out);
}

int main(int argc, char **argv) {
    hl_backend be = hl_test_backend_arg(argc, argv, HL_RHI_BACKEND_WEBGPU) == HL_RHI_BACKEND_GLES3 ? HL_BACKEND_GLES3
                                                                                                : HL_BACKEND_WEBGPU;
    hl_stage *s = NULL;
    HL_CHECK_OK(hl_stage_create(&s));
    hl_stage_set_clear_color(s, (hl_color){0, 0, 0, 1});
    hl_box_desc bd = {1, 1, 1};
    hl_geometry *box = NULL;
    HL_CHECK_OK(hl_geometry_create_box(&bd, &box));
    hl_basic_material_desc md = {0};
    md.color = (hl_color){1, 0, 0, 1};
    hl_material *red = NULL, *shared = NULL;
    HL_CHECK_OK(hl_material_create_basic(&md, &red));
    HL_CHECK_OK(hl_material_create_basic(&md, &shared));
    const hl_vec3 at[4] = {{-2, 0, 0}, {0, 0, 50}, {1, 0, 0}, {2.5f, 0, 0}};
    for (int i = 0; i < 4; i++) {
        hl_mesh_desc mesh = {0};
        mesh.geometry = box;
        mesh.material = i == 0 ? red : shared;
        mesh.instanced = i >= 2;
        mesh.cast_shadows = true;
        hl_mesh *m = NULL;
        HL_CHECK_OK(hl_mesh_create(&mesh, &m));
        hl_mesh_events ev = {on_before, on_after, (void *)(intptr_t)i};
        HL_CHECK_OK(hl_mesh_set_events(m, &ev));
        HL_CHECK(hl_mesh_get_events(m) != NULL);
        hl_node_set_translation(hl_mesh_node(m), at[i]);
        HL_CHECK_OK(hl_stage_add(s, hl_mesh_node(m)));
    }
    hl_light_desc ld = {0};
    ld.kind = HL_LIGHT_DIRECTIONAL;
    ld.cast_shadows = true;
    hl_light *l = NULL;
    HL_CHECK_OK(hl_light_create(&ld, &l));
    hl_node_look_at(hl_light_node(l), (hl_vec3){0, -1, -0.2f}, (hl_vec3){0, 1, 0});
    HL_CHECK_OK(hl_stage_add(s, hl_light_node(l)));
    hl_camera_desc cd = {0};
    cd.fov_y_deg = 60;
    cd.aspect = 2;
    hl_camera *cam = NULL;
    HL_CHECK_OK(hl_camera_create(&cd, &cam));
    hl_node_set_translation(hl_camera_node(cam), (hl_vec3){0, 0, 6});
    HL_CHECK_OK(hl_stage_add(s, hl_camera_node(cam)));

    hl_renderer_desc rd = {0};
    rd.backend = be;
    rd.width = 64;
    rd.height = 32;
    rd.sample_count = 1;
    hl_renderer *r = NULL;
    HL_CHECK_OK(hl_renderer_create(&rd, &r));
    if (!r) return hl_test_finish();
    static const int vis[4] = {1, 0, 1, 1}, none[4] = {0, 0, 0, 0};
    g.recolor = red;
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    expect("direct frame", vis, vis);
    uint8_t px[64 * 32 * 4];
    HL_CHECK_OK(hl_renderer_read_pixels(r, px, sizeof px));
    /* A at x = (1 - 2 / (6 tan 30 * 2)) / 2 * 64 ~ 23: green, set in its before_render */
    HL_CHECK_PIXEL(&px[(16 * 64 + 22) * 4], 0, 255, 0, 255, 2);
    g.recolor = NULL;
    /* a failed frame: no after_render */
    two t = {s, cam};
    HL_CHECK(hl_renderer_render_frame(r, render_then_fail, &t) != HL_OK);
    expect("failed frame", vis, none);
    HL_CHECK(hl_renderer_render_frame(r, failing_frame, cam) != HL_OK);
    expect("frame failing before any render", none, none);
    /* a mesh without events again */
    hl_renderer_destroy(r);

    /* pipelines: two culls, one scene pass; then no scene pass */
    hl_pipeline_factory f = {"events", NULL, pipe_create, NULL};
    rd.pipeline = &f;
    HL_CHECK_OK(hl_renderer_create(&rd, &r));
    if (!r) return hl_test_finish();
    g_mode = M_TWO_CULLS;
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    expect("two culls, one scene pass", vis, vis); /* once per render call */
    g_mode = M_NO_PASS;
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    expect("culls without a scene pass", vis, none);
    hl_renderer_destroy(r);
    hl_material_release(red);
    hl_material_release(shared);
    hl_geometry_release(box);
    hl_stage_destroy(s);
    return hl_test_finish();
}
