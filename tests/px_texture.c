/* Pixel tests: a textured quad sampled with nearest vs linear filtering, and a sampled mip
 * level of generated mipmaps. Texture rows are uploaded top row first; v = 0 is the top.
 * Tolerances: nearest +-1; linear +-3 (8-bit filter weights differ across drivers);
 * generated mips +-2 (box filter rounding). */
#include "hl_test.h"

static const char *k_vs = "#version 300 es\n"
                          "in vec2 a_pos;\n"
                          "out vec2 v_uv;\n"
                          "void main() {\n"
                          "    v_uv = vec2(a_pos.x * 0.5 + 0.5, 0.5 - a_pos.y * 0.5);\n"
                          "    gl_Position = vec4(a_pos, 0.5, 1.0);\n"
                          "}\n";
static const char *k_fs = "#version 300 es\n"
                          "precision highp float;\n"
                          "layout(std140) uniform Params { vec4 u_lod; };\n"
                          "uniform sampler2D u_tex;\n"
                          "in vec2 v_uv;\n"
                          "out vec4 o_color;\n"
                          "void main() { o_color = textureLod(u_tex, v_uv, u_lod.x); }\n";

enum { W = 64, H = 64 };

static const uint8_t *px(const uint8_t *img, int x, int y) { return img + ((size_t)y * W + (size_t)x) * 4; }

typedef struct fixture {
    hl_rhi_device *dev;
    hl_test_target t;
    hl_test_pipeline p;
    hl_rhi_buffer vbo, ubo;
} fixture;

/* Draws a full-target quad sampling `view` with `sampler` at lod, reads back into img. */
static void draw(fixture *f, hl_rhi_texture_view view, hl_rhi_sampler sampler, float lod, uint8_t *img) {
    const float params[4] = {lod, 0, 0, 0};
    HL_CHECK_OK(hl_rhi_buffer_write(f->dev, f->ubo, 0, params, sizeof(params)));
    /* bind groups follow the reflection's auto plan: group 0 = Params (0), u_tex (1, 2) */
    hl_rhi_bind_group_entry e[3] = {{0}, {0}, {0}};
    e[0].binding = 0;
    e[0].buffer = f->ubo;
    e[1].binding = 1;
    e[1].view = view;
    e[2].binding = 2;
    e[2].sampler = sampler;
    hl_rhi_bind_group_desc bgd = {f->p.bgl[0], e, 3, "tex"};
    hl_rhi_bind_group bg = {0};
    HL_CHECK_OK(hl_rhi_bind_group_create(f->dev, &bgd, &bg));
    const float clear[4] = {1, 0, 1, 1};
    hl_rhi_cmd *cmd = NULL;
    HL_CHECK_OK(hl_test_begin(f->dev, &f->t, clear, (hl_rhi_texture_view){0}, &cmd));
    HL_CHECK_OK(hl_rhi_cmd_set_pipeline(cmd, f->p.pipe));
    HL_CHECK_OK(hl_rhi_cmd_set_bind_group(cmd, 0, bg, NULL, 0));
    HL_CHECK_OK(hl_rhi_cmd_set_vertex_buffer(cmd, 0, f->vbo, 0));
    HL_CHECK_OK(hl_rhi_cmd_draw(cmd, 6, 1, 0, 0));
    HL_CHECK_OK(hl_test_end(f->dev, cmd));
    HL_CHECK_OK(hl_test_read_rgba8(f->dev, f->t.tex, img));
    hl_rhi_bind_group_destroy(f->dev, bg);
}

int main(int argc, char **argv) {
    fixture f = {0};
    f.dev = hl_test_device(hl_test_backend_arg(argc, argv, HL_RHI_BACKEND_GLES3));
    if (!f.dev) return hl_test_finish();
    hl_rhi_device *dev = f.dev;
    HL_CHECK_OK(hl_test_target_create(dev, W, H, HL_RHI_FORMAT_RGBA8_UNORM, 1, &f.t));
    const hl_test_attr attr = {"a_pos", HL_RHI_VERTEX_FLOAT32X2, 0};
    hl_test_pipeline_desc pd = {0};
    pd.vs = k_vs;
    pd.fs = k_fs;
    pd.stride = 8;
    pd.attrs = &attr;
    pd.attr_count = 1;
    HL_CHECK_OK(hl_test_pipeline_create(dev, &pd, &f.p));
    const float quad[] = {-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1};
    HL_CHECK_OK(hl_test_buffer(dev, HL_RHI_BUFFER_USAGE_VERTEX, quad, sizeof(quad), &f.vbo));
    const float zero[4] = {0};
    HL_CHECK_OK(hl_test_buffer(dev, HL_RHI_BUFFER_USAGE_UNIFORM, zero, sizeof(zero), &f.ubo));
    static uint8_t img[W * H * 4];

    /* 1. a 2x2 texture: left column black, right column white; top row red-tinted */
    hl_rhi_texture_desc td = {0};
    td.format = HL_RHI_FORMAT_RGBA8_UNORM;
    td.width = 2;
    td.height = 2;
    td.usage = HL_RHI_TEXTURE_USAGE_SAMPLED | HL_RHI_TEXTURE_USAGE_COPY_DST;
    hl_rhi_texture tex;
    hl_rhi_texture_view view;
    HL_CHECK_OK(hl_rhi_texture_create(dev, &td, &tex));
    HL_CHECK_OK(hl_rhi_texture_view_create(dev, tex, NULL, &view));
    const uint8_t texels[16] = {0, 0, 0, 255, 255, 0, 0, 255, /* top row: black, red */
                                0, 0, 0, 255, 255, 255, 255, 255 /* bottom: black, white */};
    hl_rhi_texture_region all = {0};
    HL_CHECK_OK(hl_rhi_texture_write(dev, tex, &all, texels, 0));

    hl_rhi_sampler_desc sd = {0};
    hl_rhi_sampler nearest, linear;
    HL_CHECK_OK(hl_rhi_sampler_create(dev, &sd, &nearest));
    sd.mag_filter = sd.min_filter = HL_RHI_FILTER_LINEAR;
    HL_CHECK_OK(hl_rhi_sampler_create(dev, &sd, &linear));

    draw(&f, view, nearest, 0.0f, img);
    HL_CHECK_PIXEL(px(img, 8, 8), 0, 0, 0, 255, 1);       /* top-left texel */
    HL_CHECK_PIXEL(px(img, 56, 8), 255, 0, 0, 255, 1);    /* top-right texel: red (orientation) */
    HL_CHECK_PIXEL(px(img, 56, 56), 255, 255, 255, 255, 1);
    HL_CHECK_PIXEL(px(img, 33, 56), 255, 255, 255, 255, 1); /* just right of the seam */
    HL_CHECK_PIXEL(px(img, 30, 56), 0, 0, 0, 255, 1);       /* just left of the seam */

    /* linear: u = (x + 0.5) / 64, texel coordinate u * 2 - 0.5, clamped at the edges */
    draw(&f, view, linear, 0.0f, img);
    for (int x = 16; x <= 48; x += 8) {
        float t = ((float)x + 0.5f) / 64.0f * 2.0f - 0.5f;
        t = t < 0.0f ? 0.0f : t > 1.0f ? 1.0f : t;
        int want = (int)(t * 255.0f + 0.5f);
        HL_CHECK_PIXEL(px(img, x, 63), want, want, want, 255, 3);
    }
    HL_CHECK_PIXEL(px(img, 0, 63), 0, 0, 0, 255, 1); /* clamp to edge */

    /* 2. generated mipmaps: 4x4, left half white, right half black.
     *    level 1 (2x2): white | black; level 2 (1x1): 50% grey. */
    td.width = 4;
    td.height = 4;
    td.mip_levels = 3;
    td.usage = HL_RHI_TEXTURE_USAGE_SAMPLED | HL_RHI_TEXTURE_USAGE_COPY_DST | HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT;
    hl_rhi_texture mip;
    hl_rhi_texture_view mip_view;
    HL_CHECK_OK(hl_rhi_texture_create(dev, &td, &mip));
    HL_CHECK_OK(hl_rhi_texture_view_create(dev, mip, NULL, &mip_view));
    uint8_t level0[4 * 4 * 4];
    for (int i = 0; i < 16; i++) {
        uint8_t v = (i % 4) < 2 ? 255 : 0;
        level0[i * 4 + 0] = level0[i * 4 + 1] = level0[i * 4 + 2] = v;
        level0[i * 4 + 3] = 255;
    }
    HL_CHECK_OK(hl_rhi_texture_write(dev, mip, &all, level0, 0));
    hl_rhi_cmd *cmd = NULL;
    HL_CHECK_OK(hl_rhi_begin_frame(dev, &cmd));
    HL_CHECK_OK(hl_rhi_cmd_generate_mipmaps(cmd, mip));
    hl_rhi_submission s = {0};
    HL_CHECK_OK(hl_rhi_end_frame(dev, &s));
    HL_CHECK_OK(hl_rhi_submission_wait(dev, s, UINT64_MAX));

    sd.mag_filter = sd.min_filter = HL_RHI_FILTER_NEAREST;
    sd.mipmap_filter = HL_RHI_FILTER_NEAREST;
    hl_rhi_sampler mip_sampler;
    HL_CHECK_OK(hl_rhi_sampler_create(dev, &sd, &mip_sampler));
    draw(&f, mip_view, mip_sampler, 1.0f, img);
    HL_CHECK_PIXEL(px(img, 16, 32), 255, 255, 255, 255, 2);
    HL_CHECK_PIXEL(px(img, 48, 32), 0, 0, 0, 255, 2);
    draw(&f, mip_view, mip_sampler, 2.0f, img);
    HL_CHECK_PIXEL(px(img, 16, 32), 128, 128, 128, 255, 2);
    HL_CHECK_PIXEL(px(img, 48, 32), 128, 128, 128, 255, 2);

    hl_rhi_sampler_destroy(dev, nearest);
    hl_rhi_sampler_destroy(dev, linear);
    hl_rhi_sampler_destroy(dev, mip_sampler);
    hl_rhi_texture_view_destroy(dev, view);
    hl_rhi_texture_destroy(dev, tex);
    hl_rhi_texture_view_destroy(dev, mip_view);
    hl_rhi_texture_destroy(dev, mip);
    hl_rhi_buffer_destroy(dev, f.vbo);
    hl_rhi_buffer_destroy(dev, f.ubo);
    hl_test_pipeline_destroy(dev, &f.p);
    hl_test_target_destroy(dev, &f.t);
    hl_rhi_device_destroy(dev);
    return hl_test_finish();
}
