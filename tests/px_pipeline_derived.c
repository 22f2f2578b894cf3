/* Derived culling results (hl_pipeline_cull_desc.base), on one backend per run.
 *
 * - The demo scene culled into an RGBA16F layout (the base, which records the shadows), then a
 *   culling derived from it for the output draws the opaque and transparent lists: the image
 *   equals the direct recorder's exactly, with the same pass count (one shadow pass, not two),
 *   the same shadow tile and visible mesh counts (one traversal) and the same draws (the base's
 *   lists are not drawn). Recording the shadows on the derived result as well is a no-op; at
 *   64x40 and 31x57, two frames each.
 * - Another cull between the base and the derived one (r->order no longer holds the base's
 *   traversal): the same image and counts.
 * - exclude_opaque_engine: a derived culling without opaque built-in materials holds in its lists
 *   exactly the base's opaque shader-material and transparent draws (counts), and the frame
 *   (which does not draw it) stays equal to the direct image.
 * - Misuse: a base of an earlier invocation (HL_ERR_INVALID_STATE), another camera, and
 *   exclude_opaque_engine without a base (HL_ERR_VALIDATION). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hilo3d/pipeline.h"
#include "hl_scene_demo.h"
#include "hl_test.h"
#include "hl_test_render.h"

typedef struct derived_test {
    bool cull_between;
    hl_camera *other_camera;
    hl_pipeline_culling old; /* a culling of the previous invocation */
    hl_result misuse[3];
    /* exclude_opaque_engine: list counts of the excluding derived culling (opaque all, transparent)
       and of the base (opaque shader materials, transparent) */
    uint32_t excl_opaque, excl_transparent, base_opaque_shader, base_transparent;
} derived_test;

static hl_result derived_record(hl_pipeline_context ctx, void *state) {
    derived_test *t = state;
    hl_pipeline_cull_desc bd = {.color_count = 1, .color_formats = {HL_PIPELINE_FORMAT_RGBA16F}};
    hl_pipeline_culling base, between, derived;
    hl_result res = hl_pipeline_cull(ctx, &bd, &base);
    if (!res) res = hl_pipeline_record_shadows(ctx, base);
    if (!res && t->cull_between) res = hl_pipeline_cull(ctx, NULL, &between);
    hl_pipeline_cull_desc dd = {.base = base};
    if (!res) res = hl_pipeline_cull(ctx, &dd, &derived);
    if (!res) res = hl_pipeline_record_shadows(ctx, derived); /* shared with the base: a no-op */
    if (res) return res;
    /* misuse */
    hl_pipeline_cull_desc bad = {.base = t->old};
    hl_pipeline_culling unused;
    t->misuse[0] = t->old.token ? hl_pipeline_cull(ctx, &bad, &unused) : HL_ERR_INVALID_STATE;
    bad = (hl_pipeline_cull_desc){.base = base, .camera = t->other_camera};
    t->misuse[1] = hl_pipeline_cull(ctx, &bad, &unused);
    bad = (hl_pipeline_cull_desc){.exclude_opaque_engine = true};
    t->misuse[2] = hl_pipeline_cull(ctx, &bad, &unused);
    t->old = base;
    { /* a derived culling without opaque built-in materials: its lists hold only the rest */
        hl_pipeline_cull_desc sd = {.base = base, .exclude_opaque_engine = true};
        hl_pipeline_culling excl;
        hl_pipeline_renderer_list so, st, bo;
        res = hl_pipeline_cull(ctx, &sd, &excl);
        if (!res) res = hl_test_forward_lists(ctx, excl, &so, &st);
        hl_pipeline_renderer_list_desc ld = {.culling = base, .queue = HL_PIPELINE_QUEUE_OPAQUE,
                                             .materials = HL_PIPELINE_MATERIALS_SHADER};
        if (!res) res = hl_pipeline_create_renderer_list(ctx, &ld, &bo);
        if (!res) res = hl_pipeline_renderer_list_count(ctx, so, &t->excl_opaque);
        if (!res) res = hl_pipeline_renderer_list_count(ctx, st, &t->excl_transparent);
        if (!res) res = hl_pipeline_renderer_list_count(ctx, bo, &t->base_opaque_shader);
        ld.queue = HL_PIPELINE_QUEUE_TRANSPARENT;
        ld.materials = HL_PIPELINE_MATERIALS_ALL;
        if (!res) res = hl_pipeline_create_renderer_list(ctx, &ld, &bo);
        if (!res) res = hl_pipeline_renderer_list_count(ctx, bo, &t->base_transparent);
        if (res) return res;
    }
    hl_pipeline_renderer_list lo, lt;
    res = hl_test_forward_lists(ctx, derived, &lo, &lt);
    hl_pipeline_scene_pass_desc pd = {.name = "opaque", .list = lo};
    if (!res) res = hl_pipeline_add_scene_pass(ctx, &pd);
    pd = (hl_pipeline_scene_pass_desc){.name = "transparent", .list = lt, .load_color = true, .load_depth = true};
    if (!res) res = hl_pipeline_add_scene_pass(ctx, &pd);
    return res;
}

static hl_renderer *make(hl_backend be, uint32_t w, uint32_t h, derived_test *t) {
    hl_test_render_backend = be;
    hl_test_runtime rt = {"derived-test", derived_record, t};
    hl_pipeline_factory f;
    hl_test_runtime_factory(&rt, &f);
    return make_renderer_with(w, h, 1, t ? &f : NULL); /* single-sample: the scenes compare like with like */
}

static void test_derived(hl_backend be, uint32_t w, uint32_t h, bool cull_between) {
    hl_scene_demo demo;
    HL_CHECK_OK(hl_scene_demo_create((float)w / (float)h, &demo));
    hl_camera *other = NULL;
    HL_CHECK_OK(hl_camera_create(NULL, &other));
    derived_test t = {.cull_between = cull_between, .other_camera = other};
    hl_renderer *direct = make(be, w, h, NULL), *r = make(be, w, h, &t);
    size_t n = (size_t)w * h * 4;
    uint8_t *a = malloc(n), *b = malloc(n);
    if (direct && r && demo.stage && a && b) {
        render_read(direct, demo.stage, demo.camera, a, n);
        const hl_render_stats want = *hl_renderer_stats(direct);
        for (int frame = 0; frame < 2; frame++) {
            render_read(r, demo.stage, demo.camera, b, n);
            const hl_render_stats *got = hl_renderer_stats(r);
            int worst = 0;
            for (size_t i = 0; i < n; i++) worst = abs(a[i] - b[i]) > worst ? abs(a[i] - b[i]) : worst;
            HL_CHECK_MSG(worst == 0, "%ux%u%s frame %d: derived culling vs direct, worst %d/255", w, h,
                         cull_between ? " (a cull between)" : "", frame, worst);
            HL_CHECK_EQ(got->passes, want.passes);
            HL_CHECK_EQ(got->shadow_tiles, want.shadow_tiles * (cull_between ? 2u : 1u)); /* a full cull between plans its own */
            HL_CHECK_EQ(got->draws, want.draws);
            HL_CHECK_EQ(got->meshes_visible, want.meshes_visible * (cull_between ? 2u : 1u));
            HL_CHECK_RESULT(t.misuse[0], HL_ERR_INVALID_STATE);
            HL_CHECK_RESULT(t.misuse[1], HL_ERR_VALIDATION);
            HL_CHECK_RESULT(t.misuse[2], HL_ERR_VALIDATION);
            HL_CHECK_EQ(t.excl_opaque, t.base_opaque_shader);
            HL_CHECK_EQ(t.excl_transparent, t.base_transparent);
            HL_CHECK(t.base_transparent > 0); /* the demo has transparent meshes: the case is seen */
        }
    }
    free(a);
    free(b);
    hl_renderer_destroy(r);
    hl_renderer_destroy(direct);
    hl_node_destroy(hl_camera_node(other));
    hl_scene_demo_destroy(&demo);
}

int main(int argc, char **argv) {
    hl_backend be = hl_test_backend_arg(argc, argv, HL_RHI_BACKEND_WEBGPU) == HL_RHI_BACKEND_GLES3 ? HL_BACKEND_GLES3
                                                                                                : HL_BACKEND_WEBGPU;
    test_derived(be, 64, 40, false);
    test_derived(be, 31, 57, false);
    test_derived(be, 64, 40, true);
    return hl_test_finish();
}
