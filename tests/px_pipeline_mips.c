/* Graph textures with mips (hl_pipeline_texture_desc.mip_count, hl_pipeline_add_mip_pass), on one
 * backend per run.
 *
 * - Levels: an RGBA16F texture (24x12 and 21x13, the whole chain) whose level 0 holds a pattern
 *   of exact values (r = (x mod 8) / 8, g = (y mod 4) / 4, b = (x + y) mod 2), made into mips by
 *   the mip pass; every level k read back through textureLod(s, uv, k) into an RGBA8 render
 *   target of level k's size equals the reference computed here the way the pass is specified
 *   (each texel one bilinear sample of the level above at its centre, clamped to the edge):
 *   +-2 of 255 (filter weight precision; the odd size checks that both backends place the
 *   samples alike, which glGenerateMipmap would not).
 * - Trilinear sampling: texture() into a 6x3 target from the 24x12 texture picks level 2 by its
 *   derivatives (the fixed sampler filters between levels): level 2's reference, +-2.
 * - A mip pass whose texture nothing reads afterwards is culled with it.
 * - Misuse: a mip pass on a one-level texture, more levels than the chain, mips on a
 *   multisampled or depth texture: HL_ERR_VALIDATION, nothing recorded. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hilo3d/pipeline.h"
#include "hl_test.h"
#include "hl_test_render.h"

#define MAX_LEVELS 6

typedef struct mips_test {
    uint32_t w, h, levels;
    hl_render_target *targets[MAX_LEVELS]; /* level k read into targets[k] */
    hl_render_target *auto_lod;            /* NULL: no texture() case */
    bool unread;                           /* the texture's mips feed nothing */
    hl_result misuse[4];
} mips_test;

static const char *k_fill_fs = "#version 300 es\n"
                               "precision highp float;\n"
                               "in vec2 v_uv;\n"
                               "layout(std140) uniform Params { vec4 size; };\n"
                               "layout(location = 0) out vec4 o_color;\n"
                               "void main() {\n"
                               "    vec2 p = floor(v_uv * size.xy);\n"
                               "    o_color = vec4(mod(p.x, 8.0) / 8.0, mod(p.y, 4.0) / 4.0, mod(p.x + p.y, 2.0), 1.0);\n"
                               "}\n";
static const char *k_level_fs = "#version 300 es\n"
                                "precision highp float;\n"
                                "in vec2 v_uv;\n"
                                "uniform sampler2D u_src;\n"
                                "layout(std140) uniform Params { vec4 level; };\n"
                                "layout(location = 0) out vec4 o_color;\n"
                                "void main() { o_color = textureLod(u_src, v_uv, level.x); }\n";
static const char *k_auto_fs = "#version 300 es\n"
                               "precision highp float;\n"
                               "in vec2 v_uv;\n"
                               "uniform sampler2D u_src;\n"
                               "layout(location = 0) out vec4 o_color;\n"
                               "void main() { o_color = texture(u_src, v_uv); }\n";

static hl_result pass(hl_pipeline_context ctx, const char *name, const char *fs, const hl_pipeline_texture *in,
                      hl_pipeline_texture out, const float params[4]) {
    hl_pipeline_fullscreen_pass_desc d = {0};
    d.name = name;
    d.fragment = fs;
    if (in) {
        d.input_names[0] = "u_src";
        d.inputs[0] = *in;
        d.input_count = 1;
    }
    d.outputs[0] = out;
    d.output_count = 1;
    d.params = params;
    d.params_size = params ? 16 : 0;
    return hl_pipeline_add_fullscreen_pass(ctx, &d);
}

static hl_result mips_record(hl_pipeline_context ctx, void *state) {
    mips_test *p = state;
    hl_pipeline_texture tex, out;
    hl_pipeline_texture_desc td = {HL_PIPELINE_FORMAT_RGBA16F, p->w, p->h, 0, 0, "mipped", 1, HL_PIPELINE_MIP_CHAIN};
    hl_result res = hl_pipeline_create_texture(ctx, &td, &tex);
    const float size[4] = {(float)p->w, (float)p->h, 0, 0};
    if (!res) res = pass(ctx, "fill", k_fill_fs, NULL, tex, size);
    if (!res) res = hl_pipeline_add_mip_pass(ctx, tex);
    if (p->unread) return res;
    for (uint32_t k = 0; !res && k < p->levels; k++) {
        const float level[4] = {(float)k, 0, 0, 0};
        res = hl_pipeline_import_render_target(ctx, p->targets[k], 0, &out);
        if (!res) res = pass(ctx, "level", k_level_fs, &tex, out, level);
    }
    if (!res && p->auto_lod) {
        res = hl_pipeline_import_render_target(ctx, p->auto_lod, 0, &out);
        if (!res) res = pass(ctx, "auto lod", k_auto_fs, &tex, out, NULL);
    }
    /* misuse: refused before anything is recorded */
    hl_pipeline_texture one, bad;
    hl_pipeline_texture_desc od = {HL_PIPELINE_FORMAT_RGBA8, 8, 8, 0, 0, "one level", 1, 0};
    p->misuse[0] = hl_pipeline_create_texture(ctx, &od, &one);
    if (!p->misuse[0]) p->misuse[0] = hl_pipeline_add_mip_pass(ctx, one);
    hl_pipeline_texture_desc big = {HL_PIPELINE_FORMAT_RGBA8, 5, 3, 0, 0, "too many", 1, 4}; /* 5x3: 3 levels */
    p->misuse[1] = hl_pipeline_create_texture(ctx, &big, &bad);
    hl_pipeline_texture_desc ms = {HL_PIPELINE_FORMAT_RGBA8, 8, 8, 0, 0, "msaa", 4, 2};
    p->misuse[2] = hl_pipeline_create_texture(ctx, &ms, &bad);
    hl_pipeline_texture_desc dd = {HL_PIPELINE_FORMAT_DEPTH24_PLUS, 8, 8, 0, 0, "depth", 1, 2};
    p->misuse[3] = hl_pipeline_create_texture(ctx, &dd, &bad);
    return res;
}

/* Level 0's pattern and each level below it, as specified: texel (x, y) of level k is the
 * bilinear sample of level k - 1 at ((x + 0.5) / w_k, (y + 0.5) / h_k), clamped to the edge. */
static void reference(uint32_t w, uint32_t h, uint32_t levels, double *lv[MAX_LEVELS]) {
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            double *t = lv[0] + ((size_t)y * w + x) * 4;
            t[0] = (x % 8) / 8.0, t[1] = (y % 4) / 4.0, t[2] = (x + y) % 2, t[3] = 1.0;
        }
    uint32_t sw = w, sh = h;
    for (uint32_t k = 1; k < levels; k++) {
        uint32_t dw = sw > 1 ? sw >> 1 : 1, dh = sh > 1 ? sh >> 1 : 1;
        for (uint32_t y = 0; y < dh; y++)
            for (uint32_t x = 0; x < dw; x++) {
                double sx = (x + 0.5) / dw * sw - 0.5, sy = (y + 0.5) / dh * sh - 0.5;
                double fx = floor(sx), fy = floor(sy), ax = sx - fx, ay = sy - fy;
                for (int c = 0; c < 4; c++) {
                    double v = 0;
                    for (int j = 0; j < 2; j++)
                        for (int i = 0; i < 2; i++) {
                            int px = (int)fx + i, py = (int)fy + j;
                            px = px < 0 ? 0 : px >= (int)sw ? (int)sw - 1 : px;
                            py = py < 0 ? 0 : py >= (int)sh ? (int)sh - 1 : py;
                            double wgt = (i ? ax : 1 - ax) * (j ? ay : 1 - ay);
                            v += wgt * lv[k - 1][((size_t)py * sw + px) * 4 + c];
                        }
                    lv[k][((size_t)y * dw + x) * 4 + c] = v;
                }
            }
        sw = dw, sh = dh;
    }
}

static int compare(hl_renderer *r, hl_render_target *t, const double *ref, uint32_t w, uint32_t h, const char *what) {
    size_t n = (size_t)w * h * 4;
    uint8_t *img = malloc(n);
    int worst = 0;
    uint32_t wx = 0, wy = 0;
    if (img && !hl_render_target_read(r, t, 0, img, n)) {
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++)
                for (int c = 0; c < 4; c++) {
                    size_t i = ((size_t)y * w + x) * 4 + c;
                    int d = abs(img[i] - (int)lround(ref[i] * 255.0));
                    if (d > worst) worst = d, wx = x, wy = y;
                }
    } else {
        worst = 256;
        HL_CHECK_MSG(false, "%s: readback failed: %s", what, hl_last_error());
    }
    HL_CHECK_MSG(worst <= 2, "%s (%ux%u): worst difference %d/255 at (%u, %u)", what, w, h, worst, wx, wy);
    free(img);
    return worst;
}

static void test_levels(hl_backend be, uint32_t w, uint32_t h) {
    mips_test p = {.w = w, .h = h};
    for (uint32_t big = w > h ? w : h; big; big >>= 1) p.levels++;
    hl_test_render_backend = be;
    hl_test_runtime rt = {"mips-test", mips_record, &p};
    hl_pipeline_factory f;
    hl_test_runtime_factory(&rt, &f);
    hl_renderer *r = make_renderer_with(16, 16, 1, &f);
    hl_stage *stage = NULL;
    hl_camera *cam = NULL;
    HL_CHECK_OK(hl_stage_create(&stage));
    HL_CHECK_OK(hl_camera_create(NULL, &cam));
    double *lv[MAX_LEVELS] = {0};
    bool ok = r && stage && cam && p.levels <= MAX_LEVELS;
    for (uint32_t k = 0; ok && k < p.levels; k++) {
        hl_render_target_desc td = {.width = w >> k ? w >> k : 1, .height = h >> k ? h >> k : 1, .color_count = 1,
                                    .formats = {HL_TARGET_RGBA8}, .sample_count = 1, .no_depth = true};
        ok = !hl_render_target_create(r, &td, &p.targets[k]);
        lv[k] = malloc((size_t)td.width * td.height * 4 * sizeof(double));
        ok = ok && lv[k];
    }
    if (ok && w == 24 && h == 12) {
        hl_render_target_desc td = {.width = 6, .height = 3, .color_count = 1, .formats = {HL_TARGET_RGBA8},
                                    .sample_count = 1, .no_depth = true};
        ok = !hl_render_target_create(r, &td, &p.auto_lod);
    }
    HL_CHECK(ok);
    if (ok) {
        reference(w, h, p.levels, lv);
        HL_CHECK_OK(hl_renderer_render(r, stage, cam));
        /* fill, mips, one pass per level (+ auto lod); the misuse added nothing */
        HL_CHECK_EQ(hl_renderer_stats(r)->passes, 2 + p.levels + (p.auto_lod ? 1 : 0));
        for (uint32_t k = 0; k < p.levels; k++) {
            char what[64];
            snprintf(what, sizeof what, "%ux%u level %u", w, h, k);
            compare(r, p.targets[k], lv[k], w >> k ? w >> k : 1, h >> k ? h >> k : 1, what);
        }
        if (p.auto_lod) compare(r, p.auto_lod, lv[2], 6, 3, "24x12 sampled by texture() into 6x3 (level 2)");
        HL_CHECK_RESULT(p.misuse[0], HL_ERR_VALIDATION);
        HL_CHECK_RESULT(p.misuse[1], HL_ERR_VALIDATION);
        HL_CHECK_RESULT(p.misuse[2], HL_ERR_VALIDATION);
        HL_CHECK_RESULT(p.misuse[3], HL_ERR_VALIDATION);
        /* nothing reads the mips: the fill and the mip pass are culled with the texture */
        p.unread = true;
        HL_CHECK_OK(hl_renderer_render(r, stage, cam));
        HL_CHECK_EQ(hl_renderer_stats(r)->passes, 0);
        /* and the frame after reads them again from a new texture (a second frame's pool) */
        p.unread = false;
        HL_CHECK_OK(hl_renderer_render(r, stage, cam));
        compare(r, p.targets[p.levels - 1], lv[p.levels - 1], 1, 1, "last level, third frame");
    }
    for (uint32_t k = 0; k < MAX_LEVELS; k++) {
        free(lv[k]);
        if (p.targets[k]) hl_render_target_destroy(r, p.targets[k]);
    }
    if (p.auto_lod) hl_render_target_destroy(r, p.auto_lod);
    hl_renderer_destroy(r);
    hl_node_destroy(hl_camera_node(cam));
    hl_stage_destroy(stage);
}

int main(int argc, char **argv) {
    hl_backend be = backend_of(argc, argv);
    test_levels(be, 24, 12);
    test_levels(be, 21, 13);
    return hl_test_finish();
}
