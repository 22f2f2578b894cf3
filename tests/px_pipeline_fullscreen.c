/* Fullscreen passes and graph textures of pipeline runtimes, on one backend per run.
 *
 * - Round trip: the demo scene drawn by scene passes, copied from the output into an RGBA16F
 *   transient and back by two fullscreen passes, equals the direct recorder's image (+-1 of
 *   255: one more sRGB decode/encode); orientation included (the demo is not symmetric), at
 *   64x40 (1x and 4x MSAA: the copy back replaces the resolve) and 31x57.
 * - Params: a std140 block colours the output exactly (known bytes, +-1).
 * - Inversion in linear light: 1 - c of each pixel, checked against the direct image through
 *   the sRGB curve (+-3: half-float steps where the curve is steepest).
 * - v_uv: (0, 0) at the top left, (1, 1) at the bottom right on both backends.
 * - Relative sizes: scale 0.5 / 0.25 with min_size, rounded to nearest, on odd outputs; a
 *   down- and up-sampling chain keeps a uniform image uniform.
 * - Culling: a pass whose result nothing reads is not executed (pass count).
 * - Copy pass: the output copied into another render target of the renderer equals the direct
 *   image exactly (1x and 4x); wrong sizes, one texture twice, another renderer's target and a
 *   bad attachment index are refused.
 * - Misuse: an input that is also the output, a sampler that is not an input, a Params block
 *   larger than params_size, GLSL that does not compile, a texture of an earlier invocation,
 *   a multisampled or depth format. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hilo3d/pipeline.h"
#include "hl_scene_demo.h"
#include "hl_test.h"

static const char *k_copy_fs = "#version 300 es\n"
                               "precision highp float;\n"
                               "in vec2 v_uv;\n"
                               "uniform sampler2D u_src;\n"
                               "out vec4 o_color;\n"
                               "void main() { o_color = texture(u_src, v_uv); }\n";
static const char *k_invert_fs = "#version 300 es\n"
                                 "precision highp float;\n"
                                 "in vec2 v_uv;\n"
                                 "uniform sampler2D u_src;\n"
                                 "out vec4 o_color;\n"
                                 "void main() { vec4 c = texture(u_src, v_uv); o_color = vec4(1.0 - c.rgb, 1.0); }\n";
static const char *k_solid_fs = "#version 300 es\n"
                                "precision highp float;\n"
                                "layout(std140) uniform Params { vec4 color; vec4 scale; };\n"
                                "out vec4 o_color;\n"
                                "void main() { o_color = color * scale.x; }\n";

typedef enum mode { M_ROUND_TRIP, M_INVERT, M_SOLID, M_CHAIN, M_UNUSED, M_MISUSE, M_HDR, M_HDR_MISUSE, M_UV, M_COPY } mode;
static const char *k_uv_fs = "#version 300 es\n"
                             "precision highp float;\n"
                             "in vec2 v_uv;\n"
                             "out vec4 o_color;\n"
                             "void main() { o_color = vec4(v_uv, 0.0, 1.0); }\n";

typedef struct post {
    mode m;
    float color[8];
    uint32_t sizes[6];
    hl_pipeline_texture kept;
    bool have_kept;
    hl_result misuse[8];
    hl_render_target *dest, *foreign; /* M_COPY: a target of the same renderer; another renderer's */
    hl_result copy_misuse[4];
} post;

static hl_result scene(hl_pipeline_context ctx) {
    hl_pipeline_culling c;
    hl_result res = hl_pipeline_cull(ctx, NULL, &c);
    if (!res) res = hl_pipeline_record_shadows(ctx, c);
    hl_pipeline_renderer_list lo, lt;
    hl_pipeline_renderer_list_desc ld = {c, HL_PIPELINE_QUEUE_OPAQUE, HL_PIPELINE_SORT_MATERIAL_FRONT_TO_BACK, false, NULL, HL_PIPELINE_MATERIALS_ALL, 0};
    if (!res) res = hl_pipeline_create_renderer_list(ctx, &ld, &lo);
    ld.queue = HL_PIPELINE_QUEUE_TRANSPARENT;
    if (!res) res = hl_pipeline_create_renderer_list(ctx, &ld, &lt);
    hl_pipeline_scene_pass_desc pd = {.name = "opaque", .list = lo, .load_color = false, .load_depth = false};
    if (!res) res = hl_pipeline_add_scene_pass(ctx, &pd);
    pd = (hl_pipeline_scene_pass_desc){.name = "transparent", .list = lt, .load_color = true, .load_depth = true};
    if (!res) res = hl_pipeline_add_scene_pass(ctx, &pd);
    return res;
}

static hl_result pass1(hl_pipeline_context ctx, const char *name, const char *fs, hl_pipeline_texture in,
                       hl_pipeline_texture out) {
    hl_pipeline_fullscreen_pass_desc d = {0};
    d.name = name;
    d.fragment = fs;
    d.input_names[0] = "u_src";
    d.inputs[0] = in;
    d.input_count = 1;
    d.outputs[0] = out;
    d.output_count = 1;
    return hl_pipeline_add_fullscreen_pass(ctx, &d);
}

static hl_result post_record(hl_pipeline_context ctx, void *state) {
    post *p = state;
    hl_pipeline_texture out, tmp;
    hl_result res = hl_pipeline_output_texture(ctx, 0, &out);
    if (res) return res;
    hl_pipeline_texture_desc td = {HL_PIPELINE_FORMAT_RGBA16F, 0, 0, 0, 0, "copy", 1, 0};
    switch (p->m) {
    case M_ROUND_TRIP:
    case M_INVERT:
        res = scene(ctx);
        if (!res) res = hl_pipeline_create_texture(ctx, &td, &tmp);
        if (!res) res = pass1(ctx, "copy", k_copy_fs, out, tmp);
        if (!res) res = pass1(ctx, p->m == M_INVERT ? "invert" : "copy back", p->m == M_INVERT ? k_invert_fs : k_copy_fs,
                              tmp, out);
        return res;
    case M_COPY: { /* the scene into the output, the output copied into another target of the renderer */
        res = scene(ctx);
        hl_pipeline_texture dst;
        if (!res) res = hl_pipeline_import_render_target(ctx, p->dest, 0, &dst);
        if (!res) res = hl_pipeline_add_copy_pass(ctx, "to target", out, dst);
        if (res) return res;
        hl_pipeline_texture small;
        hl_pipeline_texture_desc sd = {HL_PIPELINE_FORMAT_RGBA8_SRGB, 4, 4, 0, 0, "small", 1, 0};
        hl_pipeline_create_texture(ctx, &sd, &small);
        hl_pipeline_texture t;
        p->copy_misuse[0] = hl_pipeline_add_copy_pass(ctx, "size", out, small);
        p->copy_misuse[1] = hl_pipeline_import_render_target(ctx, p->foreign, 0, &t);
        p->copy_misuse[2] = hl_pipeline_import_render_target(ctx, p->dest, 3, &t);
        p->copy_misuse[3] = hl_pipeline_add_copy_pass(ctx, "same", dst, dst);
        return HL_OK;
    }
    case M_UV: {
        hl_pipeline_fullscreen_pass_desc d = {0};
        d.fragment = k_uv_fs;
        d.outputs[0] = out;
        d.output_count = 1;
        return hl_pipeline_add_fullscreen_pass(ctx, &d);
    }
    case M_SOLID: {
        hl_pipeline_fullscreen_pass_desc d = {0};
        d.fragment = k_solid_fs;
        d.params = p->color;
        d.params_size = sizeof p->color;
        d.outputs[0] = out;
        d.output_count = 1;
        return hl_pipeline_add_fullscreen_pass(ctx, &d);
    }
    case M_CHAIN: {
        hl_pipeline_texture half, quarter;
        hl_pipeline_texture_desc hd = {HL_PIPELINE_FORMAT_RGBA16F, 0, 0, 0.5f, 0, "half", 1, 0};
        hl_pipeline_texture_desc qd = {HL_PIPELINE_FORMAT_RGBA8, 0, 0, 0.25f, 3, "quarter", 1, 0};
        res = scene(ctx);
        if (!res) res = hl_pipeline_create_texture(ctx, &hd, &half);
        if (!res) res = hl_pipeline_create_texture(ctx, &qd, &quarter);
        if (!res) res = hl_pipeline_texture_size(ctx, half, &p->sizes[0], &p->sizes[1]);
        if (!res) res = hl_pipeline_texture_size(ctx, quarter, &p->sizes[2], &p->sizes[3]);
        if (!res) res = hl_pipeline_texture_size(ctx, out, &p->sizes[4], &p->sizes[5]);
        if (!res) res = pass1(ctx, "down 1", k_copy_fs, out, half);
        if (!res) res = pass1(ctx, "down 2", k_copy_fs, half, quarter);
        if (!res) res = pass1(ctx, "up", k_copy_fs, quarter, out);
        return res;
    }
    case M_HDR: /* the scene into RGBA16F + depth textures, then copied into the output */
    case M_HDR_MISUSE: {
        hl_pipeline_cull_desc cd = {0};
        cd.color_count = 1;
        cd.color_formats[0] = HL_PIPELINE_FORMAT_RGBA16F;
        hl_pipeline_culling c;
        res = hl_pipeline_cull(ctx, &cd, &c);
        hl_pipeline_texture hdr, depth;
        hl_pipeline_texture_desc dd = {HL_PIPELINE_FORMAT_DEPTH24_PLUS, 0, 0, 0, 0, "depth", 1, 0};
        if (!res) res = hl_pipeline_create_texture(ctx, &td, &hdr);
        if (!res) res = hl_pipeline_create_texture(ctx, &dd, &depth);
        if (!res) res = hl_pipeline_record_shadows(ctx, c);
        hl_pipeline_renderer_list lo, lt;
        hl_pipeline_renderer_list_desc ld = {c, HL_PIPELINE_QUEUE_OPAQUE, HL_PIPELINE_SORT_MATERIAL_FRONT_TO_BACK, false, NULL, HL_PIPELINE_MATERIALS_ALL, 0};
        if (!res) res = hl_pipeline_create_renderer_list(ctx, &ld, &lo);
        ld.queue = HL_PIPELINE_QUEUE_TRANSPARENT;
        if (!res) res = hl_pipeline_create_renderer_list(ctx, &ld, &lt);
        if (res) return res;
        hl_pipeline_scene_pass_desc pd = {.name = "opaque", .list = lo, .color = {hdr}, .depth = depth};
        if (p->m == M_HDR_MISUSE) {
            hl_pipeline_scene_pass_desc bad = pd;
            bad.depth = (hl_pipeline_texture){0};
            p->misuse[0] = hl_pipeline_add_scene_pass(ctx, &bad); /* depth missing */
            bad = pd;
            bad.color[0] = out;
            p->misuse[1] = hl_pipeline_add_scene_pass(ctx, &bad); /* the output's format is not the layout's */
            bad = (hl_pipeline_scene_pass_desc){.name = "bad", .list = lo};
            p->misuse[2] = hl_pipeline_add_scene_pass(ctx, &bad); /* no attachments for a layout */
            return HL_OK;
        }
        res = hl_pipeline_add_scene_pass(ctx, &pd);
        pd = (hl_pipeline_scene_pass_desc){.name = "transparent", .list = lt, .load_color = true, .load_depth = true,
                                           .color = {hdr}, .depth = depth};
        if (!res) res = hl_pipeline_add_scene_pass(ctx, &pd);
        if (!res) res = pass1(ctx, "to output", k_copy_fs, hdr, out);
        return res;
    }
    case M_UNUSED:
        res = scene(ctx);
        if (!res) res = hl_pipeline_create_texture(ctx, &td, &tmp);
        if (!res) res = pass1(ctx, "unused", k_copy_fs, out, tmp); /* nothing reads tmp */
        return res;
    case M_MISUSE: {
        res = scene(ctx);
        if (res) return res;
        hl_pipeline_create_texture(ctx, &td, &tmp);
        p->misuse[0] = pass1(ctx, "feedback", k_copy_fs, out, out);
        p->misuse[1] = pass1(ctx, "wrong name", k_copy_fs, tmp, tmp);
        hl_pipeline_fullscreen_pass_desc d = {0};
        d.fragment = "#version 300 es\nprecision highp float;\nuniform sampler2D u_other;\nout vec4 o;\n"
                     "void main() { o = texture(u_other, vec2(0.5)); }\n";
        d.input_names[0] = "u_src";
        d.inputs[0] = out;
        d.input_count = 1;
        d.outputs[0] = tmp;
        d.output_count = 1;
        p->misuse[2] = hl_pipeline_add_fullscreen_pass(ctx, &d);
        d = (hl_pipeline_fullscreen_pass_desc){0};
        d.fragment = k_solid_fs;
        d.params = p->color;
        d.params_size = 16; /* the block has 32 bytes */
        d.outputs[0] = tmp;
        d.output_count = 1;
        p->misuse[3] = hl_pipeline_add_fullscreen_pass(ctx, &d);
        d.fragment = "#version 300 es\nthis is not glsl\n";
        d.params_size = 0;
        p->misuse[4] = hl_pipeline_add_fullscreen_pass(ctx, &d);
        p->misuse[5] = p->have_kept ? pass1(ctx, "stale", k_copy_fs, p->kept, tmp) : HL_ERR_INVALID_STATE;
        hl_pipeline_texture_desc dd = {HL_PIPELINE_FORMAT_DEPTH32F, 8, 8, 0, 0, "depth", 1, 0};
        p->misuse[6] = hl_pipeline_create_texture(ctx, &dd, &(hl_pipeline_texture){0});
        hl_pipeline_texture_desc big = {HL_PIPELINE_FORMAT_RGBA8, 0, 0, 100.0f, 0, "huge", 1, 0};
        p->misuse[7] = hl_pipeline_create_texture(ctx, &big, &(hl_pipeline_texture){0});
        p->kept = tmp;
        p->have_kept = true;
        return HL_OK;
    }
    }
    return HL_OK;
}

static hl_result post_create(const hl_pipeline_caps *caps, void *user, hl_pipeline_runtime **out) {
    (void)caps;
    hl_pipeline_runtime_desc d = {"post-test", user, post_record, NULL};
    return hl_pipeline_runtime_create(&d, out);
}

static hl_renderer *make(hl_backend be, uint32_t w, uint32_t h, uint32_t samples, post *p) {
    static hl_pipeline_factory f = {"post-test", NULL, post_create, NULL};
    hl_renderer_desc rd = {0};
    rd.backend = be;
    rd.width = w;
    rd.height = h;
    rd.sample_count = samples;
    if (p) {
        f.user = p;
        rd.pipeline = &f;
    }
    hl_renderer *r = NULL;
    HL_CHECK_OK(hl_renderer_create(&rd, &r));
    return r;
}

static double srgb_to_linear(double c) { return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4); }
static double linear_to_srgb(double c) { return c <= 0.0031308 ? c * 12.92 : 1.055 * pow(c, 1.0 / 2.4) - 0.055; }

static void compare(const char *what, const uint8_t *want, const uint8_t *got, uint32_t w, uint32_t h, bool invert,
                    int tol) {
    int worst = 0;
    uint32_t wx = 0, wy = 0;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++)
            for (int c = 0; c < 3; c++) {
                size_t i = ((size_t)y * w + x) * 4 + c;
                int e = want[i];
                if (invert) e = (int)lround(255.0 * linear_to_srgb(1.0 - srgb_to_linear(e / 255.0)));
                int d = abs(e - got[i]);
                if (d > worst) worst = d, wx = x, wy = y;
            }
    HL_CHECK_MSG(worst <= tol, "%s: worst difference %d/255 at (%u, %u) (tolerance %d)", what, worst, wx, wy, tol);
    if (worst > tol && getenv("HL_TEST_DUMP")) {
        char path[160];
        snprintf(path, sizeof path, "%s_want.png", getenv("HL_TEST_DUMP"));
        hl_test_write_png(path, w, h, want);
        snprintf(path, sizeof path, "%s_got.png", getenv("HL_TEST_DUMP"));
        hl_test_write_png(path, w, h, got);
    }
}

static void test_round_trip(hl_backend be) {
    static const uint32_t sizes[][3] = {{64, 40, 1}, {64, 40, 4}, {31, 57, 1}};
    for (size_t k = 0; k < 3; k++) {
        uint32_t w = sizes[k][0], h = sizes[k][1];
        hl_scene_demo demo;
        HL_CHECK_OK(hl_scene_demo_create((float)w / (float)h, &demo));
        post p = {.m = M_ROUND_TRIP};
        hl_renderer *direct = make(be, w, h, sizes[k][2], NULL), *r = make(be, w, h, sizes[k][2], &p);
        if (!direct || !r || !demo.stage) return;
        size_t n = (size_t)w * h * 4;
        uint8_t *a = malloc(n), *b = malloc(n);
        HL_CHECK_OK(hl_renderer_render(direct, demo.stage, demo.camera));
        HL_CHECK_OK(hl_renderer_read_pixels(direct, a, n));
        for (int frame = 0; frame < 2; frame++) {
            HL_CHECK_OK(hl_renderer_render(r, demo.stage, demo.camera));
            HL_CHECK_OK(hl_renderer_read_pixels(r, b, n));
            char what[64];
            snprintf(what, sizeof what, "round trip %ux%u %ux frame %d", w, h, sizes[k][2], frame);
            compare(what, a, b, w, h, false, 1);
        }
        /* shadow, opaque, transparent (which resolves the samples: the copy reads the resolved
           texture), copy, copy back */
        HL_CHECK_EQ(hl_renderer_stats(r)->passes, 5);
        { /* the output copied into another render target of the renderer (a resolve first at 4x) */
            hl_render_target_desc td = {0};
            td.width = w;
            td.height = h;
            HL_CHECK_OK(hl_render_target_create(r, &td, &p.dest));
            HL_CHECK_OK(hl_render_target_create(direct, &td, &p.foreign));
            p.m = M_COPY;
            HL_CHECK_OK(hl_renderer_render(r, demo.stage, demo.camera));
            HL_CHECK_OK(hl_render_target_read(r, p.dest, 0, b, n));
            compare("output copied into a target", a, b, w, h, false, 0);
            HL_CHECK_RESULT(p.copy_misuse[0], HL_ERR_VALIDATION);
            HL_CHECK_RESULT(p.copy_misuse[1], HL_ERR_VALIDATION);
            HL_CHECK_RESULT(p.copy_misuse[2], HL_ERR_VALIDATION);
            HL_CHECK_RESULT(p.copy_misuse[3], HL_ERR_VALIDATION);
            HL_CHECK_EQ(hl_renderer_stats(r)->passes, 4); /* shadow, opaque, transparent, copy */
        }
        if (sizes[k][2] == 1) { /* the scene into RGBA16F textures (single-sample), then into the output */
            p.m = M_HDR;
            HL_CHECK_OK(hl_renderer_render(r, demo.stage, demo.camera));
            HL_CHECK_OK(hl_renderer_read_pixels(r, b, n));
            char what[64];
            snprintf(what, sizeof what, "scene into RGBA16F %ux%u, copied out", w, h);
            compare(what, a, b, w, h, false, 1);
            HL_CHECK_EQ(hl_renderer_stats(r)->passes, 4);
            p.m = M_HDR_MISUSE;
            HL_CHECK_OK(hl_renderer_render(r, demo.stage, demo.camera));
            for (int i = 0; i < 3; i++) HL_CHECK_MSG(p.misuse[i] == HL_ERR_VALIDATION, "layout misuse %d: %s", i, hl_result_name(p.misuse[i]));
        }
        p.m = M_INVERT;
        HL_CHECK_OK(hl_renderer_render(r, demo.stage, demo.camera));
        HL_CHECK_OK(hl_renderer_read_pixels(r, b, n));
        /* 1 - c near c = 1 lands where the sRGB curve is steepest: one RGBA16F step there is
           ~1.6/255, so +-3 */
        compare("inverted in linear light", a, b, w, h, true, 3);
        free(a);
        free(b);
        hl_renderer_destroy(direct);
        hl_renderer_destroy(r);
        hl_scene_demo_destroy(&demo);
    }
}

static void test_params_chain_culling(hl_backend be) {
    hl_scene_demo demo;
    HL_CHECK_OK(hl_scene_demo_create(1.0f, &demo));
    post p = {.m = M_SOLID, .color = {0.2f, 0.4f, 0.6f, 1.0f, 1.0f, 0, 0, 0}};
    hl_renderer *r = make(be, 33, 17, 4, &p);
    if (!r || !demo.stage) return;
    uint8_t px[33 * 17 * 4];
    HL_CHECK_OK(hl_renderer_render(r, demo.stage, demo.camera));
    HL_CHECK_OK(hl_renderer_read_pixels(r, px, sizeof px));
    /* linear 0.2 / 0.4 / 0.6 through the sRGB output: 124, 170, 203 */
    HL_CHECK_PIXEL(&px[0], 124, 170, 203, 255, 1);
    HL_CHECK_PIXEL(&px[(16 * 33 + 32) * 4], 124, 170, 203, 255, 1);
    HL_CHECK_EQ(hl_renderer_stats(r)->passes, 1);
    p.color[4] = 0.5f; /* new params every frame */
    HL_CHECK_OK(hl_renderer_render(r, demo.stage, demo.camera));
    HL_CHECK_OK(hl_renderer_read_pixels(r, px, sizeof px));
    HL_CHECK_PIXEL(&px[(8 * 33 + 16) * 4], 89, 124, 149, 128, 1); /* alpha scaled too */
    /* v_uv runs from the top left (pixel centres: 0.5/33 and 0.5/17 there) */
    p.m = M_UV;
    HL_CHECK_OK(hl_renderer_render(r, demo.stage, demo.camera));
    HL_CHECK_OK(hl_renderer_read_pixels(r, px, sizeof px));
    HL_CHECK(px[0] < 40 && px[1] < 50);                                          /* top left: small u, v */
    HL_CHECK(px[(16 * 33 + 32) * 4] > 250 && px[(16 * 33 + 32) * 4 + 1] > 245); /* bottom right: ~1, ~1 */
    HL_CHECK(px[32 * 4] > 250 && px[32 * 4 + 1] < 50);                           /* top right: u ~1, v small */
    /* relative sizes: 33x17 * 0.5 -> 17x9 (round to nearest), * 0.25 -> 8x4, min 3 */
    p.m = M_CHAIN;
    HL_CHECK_OK(hl_renderer_render(r, demo.stage, demo.camera));
    HL_CHECK(p.sizes[0] == 17 && p.sizes[1] == 9);
    HL_CHECK(p.sizes[2] == 8 && p.sizes[3] == 4);
    HL_CHECK(p.sizes[4] == 33 && p.sizes[5] == 17);
    HL_CHECK_EQ(hl_renderer_stats(r)->passes, 6); /* shadow, opaque, transparent (resolving), 3 fullscreen */
    /* a pass nobody reads is culled: shadow, opaque, transparent only */
    p.m = M_UNUSED;
    HL_CHECK_OK(hl_renderer_render(r, demo.stage, demo.camera));
    HL_CHECK_EQ(hl_renderer_stats(r)->passes, 3); /* the transparent pass resolves the 4x output itself */
    hl_renderer_destroy(r);
    hl_scene_demo_destroy(&demo);
}

static void test_chain_uniform(hl_backend be) {
    /* a uniform image through 0.5 and 0.25 and back stays uniform */
    hl_stage *s = NULL;
    hl_camera *cam = NULL;
    HL_CHECK_OK(hl_stage_create(&s));
    hl_stage_set_clear_color(s, (hl_color){0.5f, 0.25f, 0.75f, 1});
    hl_camera_desc cd = {0};
    HL_CHECK_OK(hl_camera_create(&cd, &cam));
    HL_CHECK_OK(hl_stage_add(s, hl_camera_node(cam)));
    post p = {.m = M_CHAIN};
    hl_renderer *r = make(be, 37, 23, 1, &p), *direct = make(be, 37, 23, 1, NULL);
    if (!r || !direct) return;
    uint8_t a[37 * 23 * 4], b[37 * 23 * 4];
    HL_CHECK_OK(hl_renderer_render(direct, s, cam));
    HL_CHECK_OK(hl_renderer_read_pixels(direct, a, sizeof a));
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_OK(hl_renderer_read_pixels(r, b, sizeof b));
    compare("down/up chain of a uniform image", a, b, 37, 23, false, 2); /* RGBA8 (linear) quarter: +-2 */
    hl_renderer_destroy(r);
    hl_renderer_destroy(direct);
    hl_stage_destroy(s);
}

static void test_misuse(hl_backend be) {
    hl_scene_demo demo;
    HL_CHECK_OK(hl_scene_demo_create(1.0f, &demo));
    post p = {.m = M_MISUSE};
    hl_renderer *r = make(be, 16, 16, 1, &p);
    if (!r || !demo.stage) return;
    HL_CHECK_OK(hl_renderer_render(r, demo.stage, demo.camera));
    HL_CHECK_RESULT(p.misuse[0], HL_ERR_VALIDATION);
    HL_CHECK_RESULT(p.misuse[1], HL_ERR_VALIDATION);
    HL_CHECK_RESULT(p.misuse[2], HL_ERR_VALIDATION);
    HL_CHECK_RESULT(p.misuse[3], HL_ERR_VALIDATION);
    HL_CHECK_RESULT(p.misuse[4], HL_ERR_SHADER);
    HL_CHECK_RESULT(p.misuse[6], HL_ERR_VALIDATION);
    HL_CHECK_RESULT(p.misuse[7], HL_ERR_VALIDATION);
    HL_CHECK_OK(hl_renderer_render(r, demo.stage, demo.camera));
    HL_CHECK_RESULT(p.misuse[5], HL_ERR_INVALID_STATE); /* a texture of the last invocation */
    hl_renderer_destroy(r);
    hl_scene_demo_destroy(&demo);
}

int main(int argc, char **argv) {
    hl_backend be = hl_test_backend_arg(argc, argv, HL_RHI_BACKEND_WEBGPU) == HL_RHI_BACKEND_GLES3 ? HL_BACKEND_GLES3
                                                                                                : HL_BACKEND_WEBGPU;
    test_round_trip(be);
    test_params_chain_culling(be);
    test_chain_uniform(be);
    test_misuse(be);
    return hl_test_finish();
}
