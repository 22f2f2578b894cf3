/* The present pass of pipeline runtimes (hl_pipeline_add_present_pass), on one backend per run.
 *
 * - Same size and format: the demo scene drawn by scene passes into an RGBA8 sRGB texture with
 *   its own depth, then presented, equals the direct recorder's image exactly (a copy: the pass
 *   count shows no fullscreen draw was added), at 64x40 and 31x57.
 * - Scaling and orientation: a 16x8 RGBA16F source holding its own texture coordinate (u, v) at
 *   each texel, presented into 64x40 and 37x23 outputs: every output pixel is the linear
 *   interpolation of that ramp at the pixel's coordinate (clamped to the outer texel centres),
 *   through the sRGB encode (+-1 of 255), (0, 0) at the top left.
 * - A uniform half-size RGBA16F source of linear 0.5 gives sRGB 188 everywhere (+-1).
 * - The output is a deferred import: a frame whose only pass nothing reads (culled) leaves it
 *   untouched and does not acquire it (hl_render_stats.output_acquires 0); a render, or a render
 *   covered by a present in one frame, acquires it once.
 * - Misuse: the output itself as src, a multisampled src, a texture of an earlier invocation:
 *   HL_ERR_VALIDATION / HL_ERR_INVALID_STATE, and nothing is drawn by the failed frame. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hilo3d/pipeline.h"
#include "hl_scene_demo.h"
#include "hl_test.h"
#include "hl_test_render.h"

typedef enum mode { M_SCENE, M_RAMP, M_HALF, M_MISUSE, M_UNUSED } mode;

typedef struct present_test {
    mode m;
    hl_pipeline_texture old; /* M_MISUSE: a texture of the previous invocation */
    bool have_old;
    hl_result misuse[3];
} present_test;

static const char *k_uv_fs = "#version 300 es\n"
                             "precision highp float;\n"
                             "in vec2 v_uv;\n"
                             "layout(location = 0) out vec4 o_color;\n"
                             "void main() { o_color = vec4(v_uv, 0.0, 1.0); }\n";
static const char *k_half_fs = "#version 300 es\n"
                               "precision highp float;\n"
                               "layout(location = 0) out vec4 o_color;\n"
                               "void main() { o_color = vec4(0.5, 0.5, 0.5, 1.0); }\n";

static hl_result fill(hl_pipeline_context ctx, const char *fs, hl_pipeline_texture out) {
    hl_pipeline_fullscreen_pass_desc d = {0};
    d.name = "fill";
    d.fragment = fs;
    d.outputs[0] = out;
    d.output_count = 1;
    return hl_pipeline_add_fullscreen_pass(ctx, &d);
}

static hl_result scene_into(hl_pipeline_context ctx, hl_pipeline_texture color, hl_pipeline_texture depth) {
    hl_pipeline_cull_desc cd = {.color_count = 1, .color_formats = {HL_PIPELINE_FORMAT_RGBA8_SRGB}};
    hl_pipeline_culling c;
    hl_result res = hl_pipeline_cull(ctx, &cd, &c);
    if (!res) res = hl_pipeline_record_shadows(ctx, c);
    hl_pipeline_renderer_list lo, lt;
    if (!res) res = hl_test_forward_lists(ctx, c, &lo, &lt);
    hl_pipeline_scene_pass_desc pd = {.name = "opaque", .list = lo, .color = {color}, .depth = depth};
    if (!res) res = hl_pipeline_add_scene_pass(ctx, &pd);
    pd = (hl_pipeline_scene_pass_desc){.name = "transparent", .list = lt, .load_color = true, .load_depth = true,
                                       .color = {color}, .depth = depth};
    if (!res) res = hl_pipeline_add_scene_pass(ctx, &pd);
    return res;
}

static hl_result present_record(hl_pipeline_context ctx, void *state) {
    present_test *p = state;
    hl_pipeline_texture src, depth, out;
    hl_result res = HL_OK;
    switch (p->m) {
    case M_SCENE: {
        hl_pipeline_texture_desc cd = {HL_PIPELINE_FORMAT_RGBA8_SRGB, 0, 0, 0, 0, "scene colour", 1, 0};
        hl_pipeline_texture_desc dd = {HL_PIPELINE_FORMAT_DEPTH24_PLUS, 0, 0, 0, 0, "scene depth", 1, 0};
        res = hl_pipeline_create_texture(ctx, &cd, &src);
        if (!res) res = hl_pipeline_create_texture(ctx, &dd, &depth);
        if (!res) res = scene_into(ctx, src, depth);
        break;
    }
    case M_RAMP: {
        hl_pipeline_texture_desc d = {HL_PIPELINE_FORMAT_RGBA16F, 16, 8, 0, 0, "ramp", 1, 0};
        res = hl_pipeline_create_texture(ctx, &d, &src);
        if (!res) res = fill(ctx, k_uv_fs, src);
        break;
    }
    case M_HALF: {
        hl_pipeline_texture_desc d = {HL_PIPELINE_FORMAT_RGBA16F, 0, 0, 0.5f, 1, "half", 1, 0};
        res = hl_pipeline_create_texture(ctx, &d, &src);
        if (!res) res = fill(ctx, k_half_fs, src);
        break;
    }
    case M_MISUSE: {
        res = hl_pipeline_output_texture(ctx, 0, &out);
        if (res) return res;
        p->misuse[0] = hl_pipeline_add_present_pass(ctx, out);
        hl_pipeline_texture_desc md = {HL_PIPELINE_FORMAT_RGBA8_SRGB, 0, 0, 0, 0, "msaa", 4, 0};
        hl_pipeline_texture ms;
        p->misuse[1] = hl_pipeline_create_texture(ctx, &md, &ms);
        if (!p->misuse[1]) p->misuse[1] = hl_pipeline_add_present_pass(ctx, ms);
        p->misuse[2] = p->have_old ? hl_pipeline_add_present_pass(ctx, p->old) : HL_OK;
        hl_pipeline_texture_desc d = {HL_PIPELINE_FORMAT_RGBA16F, 8, 8, 0, 0, "kept", 1, 0};
        res = hl_pipeline_create_texture(ctx, &d, &p->old);
        p->have_old = !res;
        if (!res) res = fill(ctx, k_half_fs, p->old);
        if (!res) res = hl_pipeline_add_present_pass(ctx, p->old);
        return res;
    }
    case M_UNUSED: { /* the output asked for, a texture filled that nothing reads: no live writer */
        hl_pipeline_texture_desc d = {HL_PIPELINE_FORMAT_RGBA16F, 8, 8, 0, 0, "unread", 1, 0};
        res = hl_pipeline_output_texture(ctx, 0, &out);
        if (!res) res = hl_pipeline_create_texture(ctx, &d, &src);
        if (!res) res = fill(ctx, k_uv_fs, src);
        return res;
    }
    }
    if (!res) res = hl_pipeline_add_present_pass(ctx, src);
    return res;
}

static hl_renderer *make(hl_backend be, uint32_t w, uint32_t h, present_test *p) {
    hl_test_render_backend = be;
    hl_test_runtime rt = {"present-test", present_record, p};
    hl_pipeline_factory f;
    hl_test_runtime_factory(&rt, &f);
    return make_renderer_with(w, h, 1, p ? &f : NULL); /* single-sample: the scenes compare like with like */
}

static int srgb8(double linear) {
    double c = linear <= 0.0031308 ? linear * 12.92 : 1.055 * pow(linear, 1.0 / 2.4) - 0.055;
    return (int)lround(255.0 * c);
}

static void test_scene(hl_backend be) {
    static const uint32_t sizes[][2] = {{64, 40}, {31, 57}};
    for (size_t k = 0; k < 2; k++) {
        uint32_t w = sizes[k][0], h = sizes[k][1];
        hl_scene_demo demo;
        HL_CHECK_OK(hl_scene_demo_create((float)w / (float)h, &demo));
        present_test p = {.m = M_SCENE};
        hl_renderer *direct = make(be, w, h, NULL), *r = make(be, w, h, &p);
        size_t n = (size_t)w * h * 4;
        uint8_t *a = malloc(n), *b = malloc(n);
        if (direct && r && demo.stage && a && b) {
            render_read(direct, demo.stage, demo.camera, a, n);
            render_read(r, demo.stage, demo.camera, b, n);
            int worst = 0;
            for (size_t i = 0; i < n; i++) worst = abs(a[i] - b[i]) > worst ? abs(a[i] - b[i]) : worst;
            HL_CHECK_MSG(worst == 0, "scene presented %ux%u: worst difference %d/255 from the direct image", w, h, worst);
            /* shadow, opaque, transparent, present (a copy: nothing drawn) */
            HL_CHECK_EQ(hl_renderer_stats(r)->passes, 4);
            HL_CHECK_EQ(hl_renderer_stats(r)->draws, hl_renderer_stats(direct)->draws);
        }
        free(a);
        free(b);
        hl_renderer_destroy(r);
        hl_renderer_destroy(direct);
        hl_scene_demo_destroy(&demo);
    }
}

static void test_scaled(hl_backend be) {
    static const uint32_t sizes[][2] = {{64, 40}, {37, 23}};
    for (size_t k = 0; k < 2; k++) {
        uint32_t w = sizes[k][0], h = sizes[k][1];
        present_test p = {.m = M_RAMP};
        hl_renderer *r = make(be, w, h, &p);
        size_t n = (size_t)w * h * 4;
        uint8_t *b = malloc(n);
        hl_stage *stage = NULL;
        hl_camera *cam = NULL;
        HL_CHECK_OK(hl_stage_create(&stage));
        HL_CHECK_OK(hl_camera_create(NULL, &cam));
        if (r && b && stage && cam) {
            render_read(r, stage, cam, b, n);
            HL_CHECK_EQ(hl_renderer_stats(r)->passes, 2); /* fill, present (drawn) */
            int worst = 0;
            uint32_t wx = 0, wy = 0;
            for (uint32_t y = 0; y < h; y++)
                for (uint32_t x = 0; x < w; x++) {
                    /* the ramp holds texel centres' coordinates; interpolation of a linear function
                       is that function, clamped to the outer texel centres */
                    double u = ((double)x + 0.5) / w, v = ((double)y + 0.5) / h;
                    u = fmin(fmax(u, 0.5 / 16), 15.5 / 16);
                    v = fmin(fmax(v, 0.5 / 8), 7.5 / 8);
                    const uint8_t *px = b + ((size_t)y * w + x) * 4;
                    int d = abs(px[0] - srgb8(u));
                    if (abs(px[1] - srgb8(v)) > d) d = abs(px[1] - srgb8(v));
                    if (px[2] > d) d = px[2];
                    if (abs(px[3] - 255) > d) d = abs(px[3] - 255);
                    if (d > worst) worst = d, wx = x, wy = y;
                }
            HL_CHECK_MSG(worst <= 1, "16x8 ramp presented into %ux%u: worst difference %d/255 at (%u, %u)", w, h, worst, wx,
                         wy);
            p.m = M_HALF;
            render_read(r, stage, cam, b, n);
            worst = 0;
            for (size_t i = 0; i < n; i += 4)
                for (int c = 0; c < 3; c++)
                    if (abs(b[i + c] - 188) > worst) worst = abs(b[i + c] - 188);
            HL_CHECK_MSG(worst <= 1, "half-size linear 0.5 presented into %ux%u: worst %d/255 from 188", w, h, worst);
        }
        free(b);
        hl_renderer_destroy(r);
        hl_node_destroy(hl_camera_node(cam));
        hl_stage_destroy(stage);
    }
}

static void test_misuse(hl_backend be) {
    present_test p = {.m = M_MISUSE};
    hl_renderer *r = make(be, 32, 32, &p);
    hl_stage *stage = NULL;
    hl_camera *cam = NULL;
    HL_CHECK_OK(hl_stage_create(&stage));
    HL_CHECK_OK(hl_camera_create(NULL, &cam));
    if (r && stage && cam) {
        for (int frame = 0; frame < 2; frame++) {
            HL_CHECK_OK(hl_renderer_render(r, stage, cam));
            HL_CHECK_RESULT(p.misuse[0], HL_ERR_VALIDATION);
            HL_CHECK_RESULT(p.misuse[1], HL_ERR_VALIDATION);
            HL_CHECK_RESULT(p.misuse[2], frame ? HL_ERR_INVALID_STATE : HL_OK);
            /* the refused calls added nothing: the frame presents its own 8x8 texture */
            uint8_t px[32 * 32 * 4];
            HL_CHECK_OK(hl_renderer_read_pixels(r, px, sizeof px));
            int worst = 0;
            for (size_t i = 0; i < sizeof px; i += 4)
                if (abs(px[i] - 188) > worst) worst = abs(px[i] - 188);
            HL_CHECK_MSG(worst <= 1, "frame %d after refused presents: worst %d/255 from 188", frame, worst);
        }
    }
    hl_renderer_destroy(r);
    hl_node_destroy(hl_camera_node(cam));
    hl_stage_destroy(stage);
}

static hl_result frame_target_then_present(hl_render_frame *f, void *user) {
    void **a = user;
    hl_result res = hl_render_frame_render(f, a[0], a[1]); /* into the output, then covered */
    if (!res) res = hl_render_frame_render_to_target(f, a[2], a[0], a[1]);
    if (!res) res = hl_render_frame_present(f, a[2]);
    return res;
}

/* importOutput as a deferred provider: the output's texture is asked for once per frame, and only
 * when a pass writing it survives graph culling (hl_render_stats.output_acquires). */
static void test_output_acquire(hl_backend be) {
    present_test p = {.m = M_HALF};
    hl_renderer *r = make(be, 24, 16, &p), *direct = make(be, 24, 16, NULL);
    hl_stage *stage = NULL;
    hl_camera *cam = NULL;
    hl_render_target *t = NULL;
    HL_CHECK_OK(hl_stage_create(&stage));
    HL_CHECK_OK(hl_camera_create(NULL, &cam));
    hl_render_target_desc td = {.width = 24, .height = 16, .color_count = 1, .sample_count = 1};
    if (direct) HL_CHECK_OK(hl_render_target_create(direct, &td, &t));
    uint8_t px[24 * 16 * 4];
    if (r && direct && stage && cam && t) {
        HL_CHECK_OK(hl_renderer_render(r, stage, cam));
        HL_CHECK_EQ(hl_renderer_stats(r)->output_acquires, 1);
        p.m = M_UNUSED;
        HL_CHECK_OK(hl_renderer_render(r, stage, cam));
        HL_CHECK_EQ(hl_renderer_stats(r)->output_acquires, 0);
        HL_CHECK_EQ(hl_renderer_stats(r)->passes, 0); /* the fill was culled with its texture */
        HL_CHECK_OK(hl_renderer_read_pixels(r, px, sizeof px));
        int worst = 0;
        for (size_t i = 0; i < sizeof px; i += 4)
            if (abs(px[i] - 188) > worst) worst = abs(px[i] - 188);
        HL_CHECK_MSG(worst <= 1, "output untouched by a frame without a live writer: worst %d/255 from 188", worst);

        HL_CHECK_OK(hl_renderer_render(direct, stage, cam));
        HL_CHECK_EQ(hl_renderer_stats(direct)->output_acquires, 1);
        HL_CHECK_OK(hl_renderer_render_to_target(direct, t, stage, cam));
        HL_CHECK_EQ(hl_renderer_stats(direct)->output_acquires, 0);
        void *args[3] = {stage, cam, t};
        HL_CHECK_OK(hl_renderer_render_frame(direct, frame_target_then_present, args));
        HL_CHECK_EQ(hl_renderer_stats(direct)->output_acquires, 1); /* two writers, one acquire */
    }
    if (direct) hl_render_target_destroy(direct, t);
    hl_renderer_destroy(direct);
    hl_renderer_destroy(r);
    hl_node_destroy(hl_camera_node(cam));
    hl_stage_destroy(stage);
}

int main(int argc, char **argv) {
    hl_backend be = hl_test_backend_arg(argc, argv, HL_RHI_BACKEND_WEBGPU) == HL_RHI_BACKEND_GLES3 ? HL_BACKEND_GLES3
                                                                                                : HL_BACKEND_WEBGPU;
    test_scene(be);
    test_scaled(be);
    test_misuse(be);
    test_output_acquire(be);
    return hl_test_finish();
}
