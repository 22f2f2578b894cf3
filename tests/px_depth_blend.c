/* Pixel tests: an indexed mesh with depth test (the nearer quad wins whatever the draw
 * order) and alpha blending (50% red over blue). Tolerance +-1 per channel. */
#include "hl_test.h"

static const char *k_vs = "#version 300 es\n"
                          "in vec3 a_pos;\n"
                          "in vec4 a_color;\n"
                          "out vec4 v_color;\n"
                          "void main() { v_color = a_color; gl_Position = vec4(a_pos, 1.0); }\n";
static const char *k_fs = "#version 300 es\n"
                          "precision highp float;\n"
                          "in vec4 v_color;\n"
                          "out vec4 o_color;\n"
                          "void main() { o_color = v_color; }\n";

enum { W = 48, H = 48 };

typedef struct vtx {
    float pos[3];
    float color[4];
} vtx;

static const uint8_t *px(const uint8_t *img, int x, int y) { return img + ((size_t)y * W + (size_t)x) * 4; }

int main(int argc, char **argv) {
    hl_rhi_device *dev = hl_test_device(hl_test_backend_arg(argc, argv, HL_RHI_BACKEND_GLES3));
    if (!dev) return hl_test_finish();

    hl_test_target t;
    HL_CHECK_OK(hl_test_target_create(dev, W, H, HL_RHI_FORMAT_RGBA8_UNORM, 1, &t));
    hl_rhi_texture depth;
    hl_rhi_texture_view depth_view;
    hl_rhi_texture_desc dd = {0};
    dd.format = HL_RHI_FORMAT_DEPTH24_PLUS;
    dd.width = W;
    dd.height = H;
    dd.usage = HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT;
    HL_CHECK_OK(hl_rhi_texture_create(dev, &dd, &depth));
    HL_CHECK_OK(hl_rhi_texture_view_create(dev, depth, NULL, &depth_view));

    const hl_test_attr attrs[2] = {{"a_pos", HL_RHI_VERTEX_FLOAT32X3, 0},
                                   {"a_color", HL_RHI_VERTEX_FLOAT32X4, 12}};
    hl_test_pipeline_desc pd = {0};
    pd.vs = k_vs;
    pd.fs = k_fs;
    pd.stride = sizeof(vtx);
    pd.attrs = attrs;
    pd.attr_count = 2;
    pd.depth_format = HL_RHI_FORMAT_DEPTH24_PLUS;
    pd.depth_write = true;
    pd.depth_compare = HL_RHI_COMPARE_LESS;
    hl_test_pipeline depth_pipe, blend_pipe;
    HL_CHECK_OK(hl_test_pipeline_create(dev, &pd, &depth_pipe));
    pd.depth_format = HL_RHI_FORMAT_UNDEFINED;
    pd.depth_write = false;
    pd.depth_compare = HL_RHI_COMPARE_UNDEFINED;
    pd.blend_alpha = true;
    HL_CHECK_OK(hl_test_pipeline_create(dev, &pd, &blend_pipe));

    /* Quad A (red, z 0.3) covers x in [-1, 1/3]; quad B (green, z 0.6) covers [-1/3, 1]. */
    const vtx verts[] = {
        {{-1.0f, -1, 0.3f}, {1, 0, 0, 1}}, {{0.333f, -1, 0.3f}, {1, 0, 0, 1}},
        {{0.333f, 1, 0.3f}, {1, 0, 0, 1}}, {{-1.0f, 1, 0.3f}, {1, 0, 0, 1}},
        {{-0.333f, -1, 0.6f}, {0, 1, 0, 1}}, {{1.0f, -1, 0.6f}, {0, 1, 0, 1}},
        {{1.0f, 1, 0.6f}, {0, 1, 0, 1}},     {{-0.333f, 1, 0.6f}, {0, 1, 0, 1}},
        /* a 50% red pane over the whole target for the blend test */
        {{-1, -1, 0.5f}, {1, 0, 0, 0.5f}}, {{1, -1, 0.5f}, {1, 0, 0, 0.5f}},
        {{1, 1, 0.5f}, {1, 0, 0, 0.5f}},   {{-1, 1, 0.5f}, {1, 0, 0, 0.5f}},
    };
    const uint16_t idx[] = {0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7, 8, 9, 10, 8, 10, 11};
    hl_rhi_buffer vbo, ibo;
    HL_CHECK_OK(hl_test_buffer(dev, HL_RHI_BUFFER_USAGE_VERTEX, verts, sizeof(verts), &vbo));
    HL_CHECK_OK(hl_test_buffer(dev, HL_RHI_BUFFER_USAGE_INDEX, idx, sizeof(idx), &ibo));
    static uint8_t img[W * H * 4];
    const float black[4] = {0, 0, 0, 1};

    /* order 0: A then B; order 1: B then A. The overlap is red (A is nearer) either way. */
    for (int order = 0; order < 2; order++) {
        hl_rhi_cmd *cmd = NULL;
        HL_CHECK_OK(hl_test_begin(dev, &t, black, depth_view, &cmd));
        HL_CHECK_OK(hl_rhi_cmd_set_pipeline(cmd, depth_pipe.pipe));
        HL_CHECK_OK(hl_rhi_cmd_set_vertex_buffer(cmd, 0, vbo, 0));
        HL_CHECK_OK(hl_rhi_cmd_set_index_buffer(cmd, ibo, HL_RHI_INDEX_UINT16, 0));
        HL_CHECK_OK(hl_rhi_cmd_draw_indexed(cmd, 6, 1, order ? 6 : 0, 0, 0));
        HL_CHECK_OK(hl_rhi_cmd_draw_indexed(cmd, 6, 1, order ? 0 : 6, 0, 0));
        HL_CHECK_OK(hl_test_end(dev, cmd));
        HL_CHECK_OK(hl_test_read_rgba8(dev, t.tex, img));
        HL_CHECK_PIXEL(px(img, 4, 24), 255, 0, 0, 255, 1);  /* A only */
        HL_CHECK_PIXEL(px(img, 24, 24), 255, 0, 0, 255, 1); /* overlap: nearer A wins */
        HL_CHECK_PIXEL(px(img, 44, 24), 0, 255, 0, 255, 1); /* B only */
    }

    /* blending: 50% red over blue = (0.5, 0, 0.5), alpha 0.5 + 1 * 0.5 = 1 */
    const float blue[4] = {0, 0, 1, 1};
    hl_rhi_cmd *cmd = NULL;
    HL_CHECK_OK(hl_test_begin(dev, &t, blue, (hl_rhi_texture_view){0}, &cmd));
    HL_CHECK_OK(hl_rhi_cmd_set_pipeline(cmd, blend_pipe.pipe));
    HL_CHECK_OK(hl_rhi_cmd_set_vertex_buffer(cmd, 0, vbo, 0));
    HL_CHECK_OK(hl_rhi_cmd_set_index_buffer(cmd, ibo, HL_RHI_INDEX_UINT16, 0));
    HL_CHECK_OK(hl_rhi_cmd_draw_indexed(cmd, 6, 1, 12, 0, 0));
    HL_CHECK_OK(hl_test_end(dev, cmd));
    HL_CHECK_OK(hl_test_read_rgba8(dev, t.tex, img));
    HL_CHECK_PIXEL(px(img, 24, 24), 128, 0, 128, 255, 1);
    HL_CHECK_PIXEL(px(img, 1, 46), 128, 0, 128, 255, 1);

    hl_rhi_buffer_destroy(dev, vbo);
    hl_rhi_buffer_destroy(dev, ibo);
    hl_test_pipeline_destroy(dev, &depth_pipe);
    hl_test_pipeline_destroy(dev, &blend_pipe);
    hl_rhi_texture_view_destroy(dev, depth_view);
    hl_rhi_texture_destroy(dev, depth);
    hl_test_target_destroy(dev, &t);
    hl_rhi_device_destroy(dev);
    return hl_test_finish();
}
