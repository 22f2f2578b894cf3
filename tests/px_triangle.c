/* Pixel tests: clear, a triangle tinted through a UBO (and its orientation: clip-space +y is
 * the top rows of the readback on both backends), and a partial UBO update visible in the
 * next draw. Tolerance: +-1 per channel (0.5 * 255 rounds either way across drivers). */
#include "hl_test.h"

static const char *k_vs = "#version 300 es\n"
                          "in vec2 a_pos;\n"
                          "void main() { gl_Position = vec4(a_pos, 0.5, 1.0); }\n";
static const char *k_fs = "#version 300 es\n"
                          "precision highp float;\n"
                          "layout(std140) uniform Tint { vec4 u_tint; vec4 u_unused; };\n"
                          "out vec4 o_color;\n"
                          "void main() { o_color = u_tint; }\n";

enum { W = 64, H = 64 };

static const uint8_t *px(const uint8_t *img, int x, int y) { return img + ((size_t)y * W + (size_t)x) * 4; }

int main(int argc, char **argv) {
    hl_rhi_device *dev = hl_test_device(hl_test_backend_arg(argc, argv, HL_RHI_BACKEND_GLES3));
    if (!dev) return hl_test_finish();

    hl_test_target t;
    HL_CHECK_OK(hl_test_target_create(dev, W, H, HL_RHI_FORMAT_RGBA8_UNORM, 1, &t));
    static uint8_t img[W * H * 4];

    /* 1. clear only */
    const float clear[4] = {0.2f, 0.4f, 0.6f, 1.0f};
    hl_rhi_cmd *cmd = NULL;
    HL_CHECK_OK(hl_test_begin(dev, &t, clear, (hl_rhi_texture_view){0}, &cmd));
    HL_CHECK_OK(hl_test_end(dev, cmd));
    HL_CHECK_OK(hl_test_read_rgba8(dev, t.tex, img));
    HL_CHECK_PIXEL(px(img, 0, 0), 51, 102, 153, 255, 1);
    HL_CHECK_PIXEL(px(img, W - 1, H - 1), 51, 102, 153, 255, 1);

    /* 2. triangle in the upper half, tinted through a UBO */
    const hl_test_attr attr = {"a_pos", HL_RHI_VERTEX_FLOAT32X2, 0};
    hl_test_pipeline_desc pd = {0};
    pd.vs = k_vs;
    pd.fs = k_fs;
    pd.stride = 8;
    pd.attrs = &attr;
    pd.attr_count = 1;
    hl_test_pipeline p;
    HL_CHECK_OK(hl_test_pipeline_create(dev, &pd, &p));
    const float tri[] = {-0.8f, 0.1f, 0.8f, 0.1f, 0.0f, 0.9f};
    const float tint[8] = {1.0f, 0.5f, 0.25f, 1.0f, 0, 0, 0, 0};
    hl_rhi_buffer vbo, ubo;
    HL_CHECK_OK(hl_test_buffer(dev, HL_RHI_BUFFER_USAGE_VERTEX, tri, sizeof(tri), &vbo));
    HL_CHECK_OK(hl_test_buffer(dev, HL_RHI_BUFFER_USAGE_UNIFORM, tint, sizeof(tint), &ubo));
    hl_rhi_bind_group_entry be = {0};
    be.buffer = ubo;
    hl_rhi_bind_group_desc bgd = {p.bgl[0], &be, 1, "tint"};
    hl_rhi_bind_group bg;
    HL_CHECK_OK(hl_rhi_bind_group_create(dev, &bgd, &bg));

    for (int frame = 0; frame < 2; frame++) {
        HL_CHECK_OK(hl_test_begin(dev, &t, clear, (hl_rhi_texture_view){0}, &cmd));
        HL_CHECK_OK(hl_rhi_cmd_set_pipeline(cmd, p.pipe));
        HL_CHECK_OK(hl_rhi_cmd_set_bind_group(cmd, 0, bg, NULL, 0));
        HL_CHECK_OK(hl_rhi_cmd_set_vertex_buffer(cmd, 0, vbo, 0));
        HL_CHECK_OK(hl_rhi_cmd_draw(cmd, 3, 1, 0, 0));
        HL_CHECK_OK(hl_test_end(dev, cmd));
        HL_CHECK_OK(hl_test_read_rgba8(dev, t.tex, img));
        if (frame == 0) {
            HL_CHECK_PIXEL(px(img, 32, 16), 255, 128, 64, 255, 1); /* inside, upper half */
            HL_CHECK_PIXEL(px(img, 32, 48), 51, 102, 153, 255, 1); /* lower half: clear */
            HL_CHECK_PIXEL(px(img, 2, 30), 51, 102, 153, 255, 1);  /* left of the triangle */
            /* 3. partial update: only the first vec4 of the UBO changes */
            const float green[4] = {0.0f, 1.0f, 0.0f, 1.0f};
            HL_CHECK_OK(hl_rhi_buffer_write(dev, ubo, 0, green, sizeof(green)));
        } else {
            HL_CHECK_PIXEL(px(img, 32, 16), 0, 255, 0, 255, 1);
            HL_CHECK_PIXEL(px(img, 32, 48), 51, 102, 153, 255, 1);
        }
    }
    const hl_rhi_stats *st = hl_rhi_device_stats(dev);
    HL_CHECK(st->draws >= 2);

    hl_rhi_bind_group_destroy(dev, bg);
    hl_rhi_buffer_destroy(dev, vbo);
    hl_rhi_buffer_destroy(dev, ubo);
    hl_test_pipeline_destroy(dev, &p);
    hl_test_target_destroy(dev, &t);
    hl_rhi_device_destroy(dev);
    return hl_test_finish();
}
