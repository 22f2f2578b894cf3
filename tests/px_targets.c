/* Pixel tests for render targets: MRT with 3 colour attachments, 4x MSAA with resolve (an
 * edge pixel is a blend of the two colours), texture-to-texture copy, and readback of a
 * 65x65 target (row pitch 260 bytes, not a multiple of 256) checked pixel by pixel.
 * Tolerance +-1 per channel. */
#include <stdlib.h>

#include "hl_test.h"

static const char *k_vs = "#version 300 es\n"
                          "in vec2 a_pos;\n"
                          "void main() { gl_Position = vec4(a_pos, 0.5, 1.0); }\n";
static const char *k_fs_mrt = "#version 300 es\n"
                              "precision highp float;\n"
                              "layout(location = 0) out vec4 o0;\n"
                              "layout(location = 1) out vec4 o1;\n"
                              "layout(location = 2) out vec4 o2;\n"
                              "void main() {\n"
                              "    o0 = vec4(1.0, 0.0, 0.0, 1.0);\n"
                              "    o1 = vec4(0.0, 1.0, 0.0, 1.0);\n"
                              "    o2 = vec4(0.2, 0.4, 0.6, 0.8);\n"
                              "}\n";
static const char *k_fs_white = "#version 300 es\n"
                                "precision highp float;\n"
                                "out vec4 o;\n"
                                "void main() { o = vec4(1.0); }\n";
/* pixel (x, y) -> (3x, 3y, 0.5, 1): exact integers for x, y < 65 */
static const char *k_fs_coord = "#version 300 es\n"
                                "precision highp float;\n"
                                "out vec4 o;\n"
                                "void main() { o = vec4(floor(gl_FragCoord.xy) * 3.0 / 255.0, 0.5, 1.0); }\n";

static hl_rhi_buffer g_quad, g_tri;

static hl_test_pipeline pipeline(hl_rhi_device *dev, const char *fs, uint32_t colors, uint32_t samples) {
    const hl_test_attr attr = {"a_pos", HL_RHI_VERTEX_FLOAT32X2, 0};
    hl_test_pipeline_desc pd = {0};
    pd.vs = k_vs;
    pd.fs = fs;
    pd.stride = 8;
    pd.attrs = &attr;
    pd.attr_count = 1;
    pd.color_count = colors;
    pd.sample_count = samples;
    hl_test_pipeline p;
    HL_CHECK_OK(hl_test_pipeline_create(dev, &pd, &p));
    return p;
}

static void test_mrt(hl_rhi_device *dev) {
    hl_test_target t[3];
    for (int i = 0; i < 3; i++) HL_CHECK_OK(hl_test_target_create(dev, 16, 16, HL_RHI_FORMAT_RGBA8_UNORM, 1, &t[i]));
    hl_test_pipeline p = pipeline(dev, k_fs_mrt, 3, 1);
    hl_rhi_color_attachment ca[3];
    memset(ca, 0, sizeof(ca));
    for (int i = 0; i < 3; i++) ca[i].view = t[i].view;
    hl_rhi_render_pass_desc rp = {0};
    rp.color_attachments = ca;
    rp.color_attachment_count = 3;
    hl_rhi_cmd *cmd = NULL;
    HL_CHECK_OK(hl_rhi_begin_frame(dev, &cmd));
    HL_CHECK_OK(hl_rhi_cmd_begin_render_pass(cmd, &rp));
    HL_CHECK_OK(hl_rhi_cmd_set_pipeline(cmd, p.pipe));
    HL_CHECK_OK(hl_rhi_cmd_set_vertex_buffer(cmd, 0, g_quad, 0));
    HL_CHECK_OK(hl_rhi_cmd_draw(cmd, 6, 1, 0, 0));
    HL_CHECK_OK(hl_test_end(dev, cmd));
    uint8_t img[16 * 16 * 4];
    static const int want[3][4] = {{255, 0, 0, 255}, {0, 255, 0, 255}, {51, 102, 153, 204}};
    for (int i = 0; i < 3; i++) {
        HL_CHECK_OK(hl_test_read_rgba8(dev, t[i].tex, img));
        HL_CHECK_PIXEL(img + (8 * 16 + 8) * 4, want[i][0], want[i][1], want[i][2], want[i][3], 1);
        HL_CHECK_PIXEL(img, want[i][0], want[i][1], want[i][2], want[i][3], 1);
        hl_test_target_destroy(dev, &t[i]);
    }
    hl_test_pipeline_destroy(dev, &p);
}

static void test_msaa(hl_rhi_device *dev) {
    enum { N = 32 };
    hl_test_target ms, resolved;
    HL_CHECK_OK(hl_test_target_create(dev, N, N, HL_RHI_FORMAT_RGBA8_UNORM, 4, &ms));
    HL_CHECK_OK(hl_test_target_create(dev, N, N, HL_RHI_FORMAT_RGBA8_UNORM, 1, &resolved));
    hl_test_pipeline p = pipeline(dev, k_fs_white, 1, 4);
    hl_rhi_color_attachment ca = {0};
    ca.view = ms.view;
    ca.resolve_target = resolved.view;
    ca.store_op = HL_RHI_STORE_DISCARD;
    ca.clear_color[3] = 1.0f;
    hl_rhi_render_pass_desc rp = {0};
    rp.color_attachments = &ca;
    rp.color_attachment_count = 1;
    hl_rhi_cmd *cmd = NULL;
    HL_CHECK_OK(hl_rhi_begin_frame(dev, &cmd));
    HL_CHECK_OK(hl_rhi_cmd_begin_render_pass(cmd, &rp));
    HL_CHECK_OK(hl_rhi_cmd_set_pipeline(cmd, p.pipe));
    HL_CHECK_OK(hl_rhi_cmd_set_vertex_buffer(cmd, 0, g_tri, 0));
    HL_CHECK_OK(hl_rhi_cmd_draw(cmd, 3, 1, 0, 0));
    HL_CHECK_OK(hl_test_end(dev, cmd));
    uint8_t img[N * N * 4];
    HL_CHECK_OK(hl_test_read_rgba8(dev, resolved.tex, img));
    /* The triangle (-1,-1) (1,-1) (1,1) covers the lower-right half; the diagonal pixels are
     * partly covered: with 4 samples their value lies strictly between black and white. */
    HL_CHECK_PIXEL(img + ((N - 4) * N + (N - 4)) * 4, 255, 255, 255, 255, 1); /* inside */
    HL_CHECK_PIXEL(img + (3 * N + 3) * 4, 0, 0, 0, 255, 1);                   /* outside */
    int blends = 0;
    for (int i = 4; i < N - 4; i++) {
        const uint8_t *q = img + ((size_t)(N - 1 - i) * N + (size_t)i) * 4; /* on the diagonal */
        if (q[0] > 20 && q[0] < 235) blends++;
    }
    HL_CHECK_MSG(blends >= (N - 8) / 2, "MSAA: %d of %d diagonal pixels are blends", blends, N - 8);
    hl_test_pipeline_destroy(dev, &p);
    hl_test_target_destroy(dev, &ms);
    hl_test_target_destroy(dev, &resolved);
}

static void test_copy(hl_rhi_device *dev) {
    hl_rhi_texture_desc td = {0};
    td.format = HL_RHI_FORMAT_RGBA8_UNORM;
    td.width = 8;
    td.height = 8;
    td.usage = HL_RHI_TEXTURE_USAGE_COPY_SRC | HL_RHI_TEXTURE_USAGE_COPY_DST | HL_RHI_TEXTURE_USAGE_SAMPLED;
    hl_rhi_texture a, b;
    HL_CHECK_OK(hl_rhi_texture_create(dev, &td, &a));
    HL_CHECK_OK(hl_rhi_texture_create(dev, &td, &b));
    uint8_t src[8 * 8 * 4], zero[8 * 8 * 4], out[8 * 8 * 4];
    for (int i = 0; i < 64; i++) {
        src[i * 4 + 0] = (uint8_t)(i * 4);
        src[i * 4 + 1] = (uint8_t)(255 - i * 4);
        src[i * 4 + 2] = (uint8_t)(i & 7) * 30;
        src[i * 4 + 3] = 255;
    }
    memset(zero, 0, sizeof(zero));
    hl_rhi_texture_region all = {0};
    HL_CHECK_OK(hl_rhi_texture_write(dev, a, &all, src, 0));
    HL_CHECK_OK(hl_rhi_texture_write(dev, b, &all, zero, 0));
    hl_rhi_cmd *cmd = NULL;
    HL_CHECK_OK(hl_rhi_begin_frame(dev, &cmd));
    hl_rhi_texture_region r = {0};
    r.x = 2;
    r.y = 3;
    r.width = 4;
    r.height = 3;
    r.depth_or_layers = 1;
    HL_CHECK_OK(hl_rhi_cmd_copy_texture_to_texture(cmd, a, &r, b, 0, 1, 0, 0));
    hl_rhi_submission s;
    HL_CHECK_OK(hl_rhi_end_frame(dev, &s));
    HL_CHECK_OK(hl_rhi_submission_wait(dev, s, UINT64_MAX));
    HL_CHECK_OK(hl_test_read_rgba8(dev, b, out));
    int bad = 0;
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) {
            bool inside = x >= 1 && x < 5 && y < 3;
            const uint8_t *want = inside ? src + ((y + 3) * 8 + (x + 1)) * 4 : zero;
            if (memcmp(out + (y * 8 + x) * 4, want, 4) != 0) bad++;
        }
    HL_CHECK_MSG(bad == 0, "texture copy: %d of 64 texels differ", bad);
    hl_rhi_texture_destroy(dev, a);
    hl_rhi_texture_destroy(dev, b);
}

static void test_readback_65(hl_rhi_device *dev) {
    enum { N = 65 };
    hl_test_target t;
    HL_CHECK_OK(hl_test_target_create(dev, N, N, HL_RHI_FORMAT_RGBA8_UNORM, 1, &t));
    hl_test_pipeline p = pipeline(dev, k_fs_coord, 1, 1);
    const float clear[4] = {0, 0, 0, 0};
    hl_rhi_cmd *cmd = NULL;
    HL_CHECK_OK(hl_test_begin(dev, &t, clear, (hl_rhi_texture_view){0}, &cmd));
    HL_CHECK_OK(hl_rhi_cmd_set_pipeline(cmd, p.pipe));
    HL_CHECK_OK(hl_rhi_cmd_set_vertex_buffer(cmd, 0, g_quad, 0));
    HL_CHECK_OK(hl_rhi_cmd_draw(cmd, 6, 1, 0, 0));
    HL_CHECK_OK(hl_test_end(dev, cmd));
    uint8_t *img = malloc(N * N * 4);
    HL_CHECK_OK(hl_test_read_rgba8(dev, t.tex, img));
    int bad = 0;
    for (int y = 0; y < N; y++)
        for (int x = 0; x < N; x++) {
            const uint8_t *q = img + (y * N + x) * 4;
            if (abs(q[0] - 3 * x) > 1 || abs(q[1] - 3 * y) > 1 || abs(q[2] - 128) > 1 || q[3] != 255) {
                if (bad++ < 3) fprintf(stderr, "65x65: (%d,%d) = %d,%d,%d,%d\n", x, y, q[0], q[1], q[2], q[3]);
            }
        }
    HL_CHECK_MSG(bad == 0, "65x65 readback: %d pixels differ from (3x, 3y, 128, 255)", bad);
    /* A sub-region with a caller row pitch: rows 10..12, columns 20..24, pitch 64 bytes. */
    uint8_t sub[3 * 64];
    hl_rhi_texture_region r = {0};
    r.x = 20;
    r.y = 10;
    r.width = 5;
    r.height = 3;
    r.depth_or_layers = 1;
    HL_CHECK_OK(hl_rhi_texture_read(dev, t.tex, &r, sub, 64));
    HL_CHECK_PIXEL(sub + 0, 60, 30, 128, 255, 1);
    HL_CHECK_PIXEL(sub + 2 * 64 + 4 * 4, 72, 36, 128, 255, 1);
    free(img);
    hl_test_pipeline_destroy(dev, &p);
    hl_test_target_destroy(dev, &t);
}

int main(int argc, char **argv) {
    hl_rhi_device *dev = hl_test_device(hl_test_backend_arg(argc, argv, HL_RHI_BACKEND_GLES3));
    if (!dev) return hl_test_finish();
    const float quad[] = {-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1};
    const float tri[] = {-1, -1, 1, -1, 1, 1};
    HL_CHECK_OK(hl_test_buffer(dev, HL_RHI_BUFFER_USAGE_VERTEX, quad, sizeof(quad), &g_quad));
    HL_CHECK_OK(hl_test_buffer(dev, HL_RHI_BUFFER_USAGE_VERTEX, tri, sizeof(tri), &g_tri));
    test_mrt(dev);
    test_msaa(dev);
    test_copy(dev);
    test_readback_65(dev);
    hl_rhi_buffer_destroy(dev, g_quad);
    hl_rhi_buffer_destroy(dev, g_tri);
    hl_rhi_device_destroy(dev);
    return hl_test_finish();
}
