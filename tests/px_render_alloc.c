/* Renderer steady-state allocations: the demo scene (every feature: shadows from a
 * directional and a spot light, PBR, a texture, transparent panes, 300 instanced cubes) at
 * 160 x 90, 4x MSAA. After 4 warm-up frames (caches, high-water arrays and GPU mirrors
 * filled), 8 more frames with the box moving each frame (so object uploads and the shadow
 * plan change) must not call hl__malloc / hl__calloc / hl__realloc: hl_alloc_count() is
 * unchanged (target and bound: 0 allocations per frame). The same again for frames of two
 * views (a render target and the output) through hl_renderer_render_frame. Allocations inside the GPU drivers
 * and Dawn are not counted (they do not go through hl__malloc). */
#include "hilo3d/renderer.h"
#include "hl_scene_demo.h"
#include "hl_test.h"

typedef struct frame_ctx {
    hl_render_target *t;
    hl_scene_demo *demo;
} frame_ctx;

static hl_result two_views(hl_render_frame *f, void *user) {
    frame_ctx *c = user;
    hl_result res = hl_render_frame_render_to_target(f, c->t, c->demo->stage, c->demo->camera);
    if (!res) res = hl_render_frame_render(f, c->demo->stage, c->demo->camera);
    return res;
}

int main(int argc, char **argv) {
    hl_backend be = hl_test_backend_arg(argc, argv, HL_RHI_BACKEND_WEBGPU) == HL_RHI_BACKEND_GLES3 ? HL_BACKEND_GLES3
                                                                                                : HL_BACKEND_WEBGPU;
    hl_renderer_desc rd = {0};
    rd.backend = be;
    rd.width = 160;
    rd.height = 90;
    rd.sample_count = 4;
    hl_renderer *r = NULL;
    HL_CHECK_OK(hl_renderer_create(&rd, &r));
    if (!r) return hl_test_finish();
    hl_scene_demo demo;
    HL_CHECK_OK(hl_scene_demo_create(16.0f / 9.0f, &demo));
    for (int i = 0; i < 4; i++) HL_CHECK_OK(hl_renderer_render(r, demo.stage, demo.camera));
    uint64_t before = hl_alloc_count();
    enum { FRAMES = 8 };
    for (int i = 0; i < FRAMES; i++) {
        hl_node_set_translation(hl_mesh_node(demo.box), (hl_vec3){4.3f, 0.6f + 0.05f * (float)i, -0.5f});
        HL_CHECK_OK(hl_renderer_render(r, demo.stage, demo.camera));
    }
    HL_CHECK_OK(hl_renderer_wait_idle(r));
    uint64_t after = hl_alloc_count();
    printf("%s: %llu allocations over %d steady-state frames (%.2f per frame)\n", hl_backend_name(be),
           (unsigned long long)(after - before), FRAMES, (double)(after - before) / FRAMES);
    HL_CHECK_EQ(after - before, 0);

    /* the same through hl_renderer_render_frame: the scene into a target, then into the
       output (two views, one submission) */
    hl_render_target *t = NULL;
    HL_CHECK_OK(hl_render_target_create(r, NULL, &t));
    frame_ctx fc = {t, &demo};
    for (int i = 0; i < 4; i++) HL_CHECK_OK(hl_renderer_render_frame(r, two_views, &fc));
    before = hl_alloc_count();
    for (int i = 0; i < FRAMES; i++) {
        hl_node_set_translation(hl_mesh_node(demo.box), (hl_vec3){4.3f, 0.6f + 0.05f * (float)i, -0.5f});
        HL_CHECK_OK(hl_renderer_render_frame(r, two_views, &fc));
    }
    HL_CHECK_OK(hl_renderer_wait_idle(r));
    after = hl_alloc_count();
    printf("%s: %llu allocations over %d steady-state render_frame frames (2 views each)\n", hl_backend_name(be),
           (unsigned long long)(after - before), FRAMES);
    HL_CHECK_EQ(after - before, 0);
    hl_render_target_destroy(r, t);
    hl_scene_demo_destroy(&demo);
    hl_renderer_destroy(r);
    return hl_test_finish();
}
