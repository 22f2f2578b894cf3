/* Persistent targets of pipeline runtimes, on one backend per run (known values, +-2 of 255).
 *
 * An accumulation: each frame a fullscreen pass writes history + 0.1 (RGBA16F, linear) into a
 * frame texture, which is copied back into the persistent target and into the output, so the
 * output after frame k shows k * 0.1 through the sRGB curve. Then:
 * - a failed frame (record fails after acquiring) changes nothing: the next frame goes on
 *   from the old value;
 * - a failed frame that changed the recipe (size) keeps the old texture and contents;
 * - a release takes effect with the frame: the next acquire is fresh (cleared, 0.1 again);
 *   releasing a key acquired in the same frame is HL_ERR_INVALID_STATE, so is acquiring a key
 *   released in the frame; an unknown key is HL_ERR_VALIDATION;
 * - a relative recipe follows a resize of the output (fresh texture, accumulation restarts);
 * - 30 steady frames create no RHI object and make no heap allocation;
 * - after a device loss, and after hl_renderer_release_gpu_resources, the next acquire is fresh
 *   and the accumulation starts again. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hilo3d/pipeline.h"
#include "hl_test.h"
#include "render_internal.h"

static const char *k_acc_fs = "#version 300 es\n"
                              "precision highp float;\n"
                              "in vec2 v_uv;\n"
                              "uniform sampler2D u_history;\n"
                              "out vec4 o_color;\n"
                              "void main() { o_color = vec4(texture(u_history, v_uv).rgb + vec3(0.1), 1.0); }\n";

typedef struct acc {
    bool fail_after_acquire;
    float scale; /* the recipe: relative size */
    bool release, release_same_frame, acquire_after_release;
    bool fresh;
    hl_result misuse[3];
} acc;

static hl_result acc_record(hl_pipeline_context ctx, void *state) {
    acc *a = state;
    if (a->release) {
        a->release = false;
        hl_result res = hl_pipeline_release_persistent_target(ctx, 7);
        if (res) return res;
        if (a->acquire_after_release) {
            hl_pipeline_persistent_desc pd = {HL_PIPELINE_FORMAT_RGBA16F, 0, 0, a->scale, 0, "history"};
            hl_pipeline_texture h;
            a->misuse[1] = hl_pipeline_acquire_persistent_target(ctx, 7, &pd, &h, NULL);
        }
        return HL_OK; /* nothing drawn: the output keeps its last frame */
    }
    hl_pipeline_persistent_desc pd = {HL_PIPELINE_FORMAT_RGBA16F, 0, 0, a->scale, 0, "history"};
    hl_pipeline_texture history, next, out;
    hl_result res = hl_pipeline_acquire_persistent_target(ctx, 7, &pd, &history, &a->fresh);
    if (!res && a->release_same_frame) a->misuse[0] = hl_pipeline_release_persistent_target(ctx, 7);
    a->misuse[2] = hl_pipeline_release_persistent_target(ctx, 99);
    if (!res && a->fail_after_acquire) return hl__fail(HL_ERR_VALIDATION, "the test fails this frame on purpose");
    hl_pipeline_texture_desc td = {HL_PIPELINE_FORMAT_RGBA16F, 0, 0, a->scale, 0, "next", 1, 0};
    if (!res) res = hl_pipeline_create_texture(ctx, &td, &next);
    hl_pipeline_fullscreen_pass_desc fd = {0};
    fd.fragment = k_acc_fs;
    fd.input_names[0] = "u_history";
    fd.inputs[0] = history;
    fd.input_count = 1;
    fd.outputs[0] = next;
    fd.output_count = 1;
    if (!res) res = hl_pipeline_add_fullscreen_pass(ctx, &fd);
    if (!res) res = hl_pipeline_add_copy_pass(ctx, "keep", next, history);
    if (!res) res = hl_pipeline_output_texture(ctx, 0, &out);
    static const char *copy_fs = "#version 300 es\nprecision highp float;\nin vec2 v_uv;\nuniform sampler2D u_src;\n"
                                 "out vec4 o;\nvoid main() { o = texture(u_src, v_uv); }\n";
    hl_pipeline_fullscreen_pass_desc cd = {0};
    cd.fragment = copy_fs;
    cd.input_names[0] = "u_src";
    cd.inputs[0] = next;
    cd.input_count = 1;
    cd.outputs[0] = out;
    cd.output_count = 1;
    if (!res) res = hl_pipeline_add_fullscreen_pass(ctx, &cd);
    return res;
}

static hl_result acc_create(const hl_pipeline_caps *caps, void *user, hl_pipeline_runtime **out) {
    (void)caps;
    hl_pipeline_runtime_desc d = {"accumulate", user, acc_record, NULL};
    return hl_pipeline_runtime_create(&d, out);
}

static int expected(int steps) {
    double c = 0.1 * steps;
    if (c > 1) c = 1;
    double s = c <= 0.0031308 ? c * 12.92 : 1.055 * pow(c, 1.0 / 2.4) - 0.055;
    return (int)lround(s * 255.0);
}

static void check_value(hl_renderer *r, uint32_t w, uint32_t h, int steps, const char *what) {
    uint8_t px[64 * 64 * 4];
    HL_CHECK_OK(hl_renderer_read_pixels(r, px, (size_t)w * h * 4));
    int e = expected(steps);
    const uint8_t *c = &px[((h / 2) * w + w / 2) * 4];
    HL_CHECK_MSG(abs(c[0] - e) <= 2 && abs(px[0] - e) <= 2, "%s: %u / %u, expected %d (%d steps of 0.1)", what, c[0],
                 px[0], e, steps);
}

int main(int argc, char **argv) {
    hl_backend be = hl_test_backend_arg(argc, argv, HL_RHI_BACKEND_WEBGPU) == HL_RHI_BACKEND_GLES3 ? HL_BACKEND_GLES3
                                                                                                : HL_BACKEND_WEBGPU;
    acc a = {0};
    a.scale = 1.0f;
    hl_pipeline_factory f = {"accumulate", NULL, acc_create, &a};
    hl_renderer_desc rd = {0};
    rd.backend = be;
    rd.width = 24;
    rd.height = 16;
    rd.sample_count = 1;
    rd.pipeline = &f;
    hl_renderer *r = NULL;
    HL_CHECK_OK(hl_renderer_create(&rd, &r));
    hl_stage *s = NULL;
    hl_camera *cam = NULL;
    HL_CHECK_OK(hl_stage_create(&s));
    hl_camera_desc cd = {0};
    HL_CHECK_OK(hl_camera_create(&cd, &cam));
    HL_CHECK_OK(hl_stage_add(s, hl_camera_node(cam)));
    if (!r || !s) return hl_test_finish();
    for (int k = 1; k <= 3; k++) {
        HL_CHECK_OK(hl_renderer_render(r, s, cam));
        HL_CHECK_EQ(a.fresh, k == 1);
        char what[32];
        snprintf(what, sizeof what, "frame %d", k);
        check_value(r, 24, 16, k, what);
    }
    HL_CHECK_RESULT(a.misuse[2], HL_ERR_VALIDATION); /* unknown key */
    /* a failed frame changes nothing */
    a.fail_after_acquire = true;
    HL_CHECK_RESULT(hl_renderer_render(r, s, cam), HL_ERR_VALIDATION);
    a.fail_after_acquire = false;
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK(!a.fresh);
    check_value(r, 24, 16, 4, "after a failed frame");
    /* a failed frame with a new recipe: the old texture and contents stay */
    a.scale = 0.5f;
    a.fail_after_acquire = true;
    HL_CHECK_RESULT(hl_renderer_render(r, s, cam), HL_ERR_VALIDATION);
    HL_CHECK(a.fresh); /* it was a new texture in that frame */
    a.fail_after_acquire = false;
    a.scale = 1.0f;
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK(!a.fresh);
    check_value(r, 24, 16, 5, "after a failed recipe change");
    /* releasing in the frame that acquired: refused */
    a.release_same_frame = true;
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    a.release_same_frame = false;
    HL_CHECK_RESULT(a.misuse[0], HL_ERR_INVALID_STATE);
    check_value(r, 24, 16, 6, "after a refused release");
    /* a release, and an acquire of the released key in that frame: refused */
    a.release = true;
    a.acquire_after_release = true;
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_RESULT(a.misuse[1], HL_ERR_INVALID_STATE);
    a.acquire_after_release = false;
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK(a.fresh); /* released: a new, cleared texture */
    check_value(r, 24, 16, 1, "after a release");
    /* a resize: the relative recipe makes a new texture */
    HL_CHECK_OK(hl_renderer_resize(r, 20, 12));
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK(a.fresh);
    check_value(r, 20, 12, 1, "after a resize");
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    check_value(r, 20, 12, 2, "second frame after a resize");
    /* steady frames (after 10 more for the graph's pool and caches; each waited for, so the
       pool's textures are free again: with frames in flight it makes more while all are busy)
       create no RHI object */
    for (int i = 0; i < 10; i++) {
        HL_CHECK_OK(hl_renderer_render(r, s, cam));
        HL_CHECK_OK(hl_renderer_wait_idle(r));
    }
    uint64_t o0 = hl_rhi_device_stats(r->dev)->objects_created, a0 = hl_alloc_count();
    for (int i = 0; i < 30; i++) {
        HL_CHECK_OK(hl_renderer_render(r, s, cam));
        HL_CHECK_OK(hl_renderer_wait_idle(r));
    }
    HL_CHECK_EQ(hl_rhi_device_stats(r->dev)->objects_created - o0, 0);
    HL_CHECK_EQ(hl_alloc_count() - a0, 0);
    check_value(r, 20, 12, 42, "saturated");
    /* a device loss and a release of the GPU objects: the persistent target goes with its record,
       the next acquire is fresh and the accumulation starts again (the device is new) */
    HL_CHECK_OK(hl_renderer_simulate_device_loss(r));
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK(a.fresh);
    check_value(r, 20, 12, 1, "after a device loss");
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK(!a.fresh);
    check_value(r, 20, 12, 2, "second frame after a device loss");
    HL_CHECK_OK(hl_renderer_release_gpu_resources(r));
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK(a.fresh);
    check_value(r, 20, 12, 1, "after hl_renderer_release_gpu_resources");
    HL_CHECK_EQ(hl_renderer_stats(r)->device_recoveries, 1u);
    hl_renderer_destroy(r);
    hl_stage_destroy(s);
    return hl_test_finish();
}
