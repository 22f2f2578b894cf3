/* Validation: the same bad input gives the same hl_result code on every backend, with a
 * message, and makes no native call (the device's native-call counter does not move). */
#include "hl_test.h"

static hl_rhi_device *g_dev;
static uint64_t g_calls;

static void mark(void) { g_calls = hl_rhi_device_stats(g_dev)->native_calls; }
#define NO_NATIVE_CALL(what)                                                                               \
    HL_CHECK_MSG(hl_rhi_device_stats(g_dev)->native_calls == g_calls, "%s made %llu native calls", what,   \
                 (unsigned long long)(hl_rhi_device_stats(g_dev)->native_calls - g_calls))
#define EXPECT_REJECT(expr, code)                                                                          \
    do {                                                                                                   \
        mark();                                                                                            \
        hl_clear_error();                                                                                  \
        HL_CHECK_RESULT(expr, code);                                                                       \
        HL_CHECK_MSG(hl_last_error()[0] != '\0', "%s left no message", #expr);                             \
        NO_NATIVE_CALL(#expr);                                                                             \
    } while (0)

static const char *k_vs = "#version 300 es\n"
                          "in vec2 a_pos;\n"
                          "void main() { gl_Position = vec4(a_pos, 0.5, 1.0); }\n";
static const char *k_fs = "#version 300 es\n"
                          "precision highp float;\n"
                          "layout(std140) uniform Tint { vec4 u_tint; };\n"
                          "out vec4 o;\n"
                          "void main() { o = u_tint; }\n";

int main(int argc, char **argv) {
    hl_rhi_device *dev = g_dev = hl_test_device(hl_test_backend_arg(argc, argv, HL_RHI_BACKEND_GLES3));
    if (!dev) return hl_test_finish();

    /* zero-size buffer; size not a multiple of 4; no usage */
    hl_rhi_buffer_desc bd = {0};
    bd.usage = HL_RHI_BUFFER_USAGE_UNIFORM;
    hl_rhi_buffer buf = {0};
    EXPECT_REJECT(hl_rhi_buffer_create(dev, &bd, &buf), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "size") != NULL);
    bd.size = 6;
    EXPECT_REJECT(hl_rhi_buffer_create(dev, &bd, &buf), HL_ERR_VALIDATION);
    bd.size = 16;
    bd.usage = 0;
    EXPECT_REJECT(hl_rhi_buffer_create(dev, &bd, &buf), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "usage") != NULL);

    /* a texture without RENDER_ATTACHMENT usage used as an attachment */
    hl_rhi_texture_desc td = {0};
    td.format = HL_RHI_FORMAT_RGBA8_UNORM;
    td.width = td.height = 8;
    td.usage = HL_RHI_TEXTURE_USAGE_SAMPLED | HL_RHI_TEXTURE_USAGE_COPY_SRC | HL_RHI_TEXTURE_USAGE_COPY_DST;
    hl_rhi_texture sampled_only;
    hl_rhi_texture_view sampled_view;
    HL_CHECK_OK(hl_rhi_texture_create(dev, &td, &sampled_only));
    HL_CHECK_OK(hl_rhi_texture_view_create(dev, sampled_only, NULL, &sampled_view));
    hl_rhi_cmd *cmd = NULL;
    HL_CHECK_OK(hl_rhi_begin_frame(dev, &cmd));
    hl_rhi_color_attachment ca = {0};
    ca.view = sampled_view;
    hl_rhi_render_pass_desc rp = {0};
    rp.color_attachments = &ca;
    rp.color_attachment_count = 1;
    EXPECT_REJECT(hl_rhi_cmd_begin_render_pass(cmd, &rp), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "RENDER_ATTACHMENT") != NULL);

    /* draw without a pipeline; two passes open */
    hl_test_target t;
    HL_CHECK_OK(hl_test_target_create(dev, 8, 8, HL_RHI_FORMAT_RGBA8_UNORM, 1, &t));
    ca.view = t.view;
    HL_CHECK_OK(hl_rhi_cmd_begin_render_pass(cmd, &rp));
    EXPECT_REJECT(hl_rhi_cmd_draw(cmd, 3, 1, 0, 0), HL_ERR_INVALID_STATE);
    HL_CHECK(strstr(hl_last_error(), "pipeline") != NULL);
    EXPECT_REJECT(hl_rhi_cmd_begin_render_pass(cmd, &rp), HL_ERR_INVALID_STATE);
    EXPECT_REJECT(hl_rhi_cmd_copy_buffer_to_buffer(cmd, (hl_rhi_buffer){0}, 0, (hl_rhi_buffer){0}, 0, 4),
                  HL_ERR_INVALID_STATE); /* copies are outside passes */
    HL_CHECK_OK(hl_rhi_cmd_end_render_pass(cmd));
    EXPECT_REJECT(hl_rhi_cmd_draw(cmd, 3, 1, 0, 0), HL_ERR_INVALID_STATE); /* no pass open */

    /* out-of-bounds copy */
    hl_rhi_buffer a, b;
    HL_CHECK_OK(hl_test_buffer(dev, HL_RHI_BUFFER_USAGE_VERTEX, NULL, 64, &a));
    HL_CHECK_OK(hl_test_buffer(dev, HL_RHI_BUFFER_USAGE_VERTEX, NULL, 32, &b));
    EXPECT_REJECT(hl_rhi_cmd_copy_buffer_to_buffer(cmd, a, 0, b, 0, 64), HL_ERR_VALIDATION);
    EXPECT_REJECT(hl_rhi_cmd_copy_buffer_to_buffer(cmd, a, 48, b, 0, 32), HL_ERR_VALIDATION);
    hl_rhi_texture_region r = {0};
    r.x = 4;
    r.width = 8;
    r.height = 1;
    r.depth_or_layers = 1;
    EXPECT_REJECT(hl_rhi_cmd_copy_texture_to_texture(cmd, sampled_only, &r, t.tex, 0, 0, 0, 0), HL_ERR_VALIDATION);
    hl_rhi_submission s;
    HL_CHECK_OK(hl_rhi_end_frame(dev, &s));
    HL_CHECK_OK(hl_rhi_submission_wait(dev, s, UINT64_MAX));

    /* bind group incompatible with its layout: a texture view where the UBO belongs */
    hl_test_pipeline_desc pd = {0};
    const hl_test_attr attr = {"a_pos", HL_RHI_VERTEX_FLOAT32X2, 0};
    pd.vs = k_vs;
    pd.fs = k_fs;
    pd.stride = 8;
    pd.attrs = &attr;
    pd.attr_count = 1;
    hl_test_pipeline p;
    HL_CHECK_OK(hl_test_pipeline_create(dev, &pd, &p));
    hl_rhi_bind_group_entry e = {0};
    e.view = sampled_view;
    hl_rhi_bind_group_desc bgd = {p.bgl[0], &e, 1, "bad"};
    hl_rhi_bind_group bg;
    EXPECT_REJECT(hl_rhi_bind_group_create(dev, &bgd, &bg), HL_ERR_VALIDATION);
    e.view = (hl_rhi_texture_view){0};
    e.buffer = a; /* a has no UNIFORM usage */
    EXPECT_REJECT(hl_rhi_bind_group_create(dev, &bgd, &bg), HL_ERR_VALIDATION);
    e.binding = 5; /* no such binding */
    EXPECT_REJECT(hl_rhi_bind_group_create(dev, &bgd, &bg), HL_ERR_VALIDATION);

    /* use of a destroyed handle */
    hl_rhi_buffer gone;
    HL_CHECK_OK(hl_test_buffer(dev, HL_RHI_BUFFER_USAGE_VERTEX, NULL, 16, &gone));
    hl_rhi_buffer_destroy(dev, gone);
    const float v[4] = {0};
    EXPECT_REJECT(hl_rhi_buffer_write(dev, gone, 0, v, sizeof(v)), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "destroyed") != NULL || strstr(hl_last_error(), "stale") != NULL);
    HL_CHECK_OK(hl_rhi_begin_frame(dev, &cmd));
    ca.view = t.view;
    HL_CHECK_OK(hl_rhi_cmd_begin_render_pass(cmd, &rp));
    HL_CHECK_OK(hl_rhi_cmd_set_pipeline(cmd, p.pipe));
    EXPECT_REJECT(hl_rhi_cmd_set_vertex_buffer(cmd, 0, gone, 0), HL_ERR_VALIDATION);
    /* draw with the pipeline's bind group missing */
    HL_CHECK_OK(hl_rhi_cmd_set_vertex_buffer(cmd, 0, a, 0));
    EXPECT_REJECT(hl_rhi_cmd_draw(cmd, 3, 1, 0, 0), HL_ERR_VALIDATION);
    hl_rhi_abort_frame(dev);
    HL_CHECK(!hl_rhi_frame_is_open(dev));

    /* a frame cannot end with a pass open; the frame is aborted */
    HL_CHECK_OK(hl_rhi_begin_frame(dev, &cmd));
    HL_CHECK_OK(hl_rhi_cmd_begin_render_pass(cmd, &rp));
    HL_CHECK_RESULT(hl_rhi_end_frame(dev, &s), HL_ERR_INVALID_STATE);
    HL_CHECK(!hl_rhi_frame_is_open(dev));

    /* colour targets: one the shader does not write must be write_none (every backend); targets
       that differ in blend state are a WebGPU pipeline, refused up front where the device has
       one blend state for all targets (OpenGL ES 3.0) instead of drawing differently */
    {
        static const char *fs2 = "#version 300 es\nprecision highp float;\n"
                                 "layout(location = 0) out vec4 o0;\nlayout(location = 1) out vec4 o1;\n"
                                 "void main() { o0 = vec4(1.0); o1 = vec4(0.5); }\n";
        hl_test_pipeline_desc pd2 = pd;
        pd2.fs = fs2;
        pd2.color_count = 2;
        pd2.color_formats[0] = pd2.color_formats[1] = HL_RHI_FORMAT_RGBA8_UNORM;
        hl_test_pipeline p2;
        HL_CHECK_OK(hl_test_pipeline_create(dev, &pd2, &p2));
        hl_rhi_color_target_state ct[2];
        memset(ct, 0, sizeof ct);
        ct[0].format = ct[1].format = HL_RHI_FORMAT_RGBA8_UNORM;
        hl_rhi_vertex_attribute va = {HL_RHI_VERTEX_FLOAT32X2, 0, 0};
        hl_rhi_vertex_buffer_layout vbl = {8, false, &va, 1};
        hl_rhi_render_pipeline_desc rpd = {0};
        rpd.layout = p.layout;
        rpd.vertex = p.prog.vs;
        rpd.fragment = p.prog.fs; /* writes location 0 only */
        rpd.vertex_buffers = &vbl;
        rpd.vertex_buffer_count = 1;
        rpd.color_targets = ct;
        rpd.color_target_count = 2;
        hl_rhi_render_pipeline rpp = {0};
        EXPECT_REJECT(hl_rhi_render_pipeline_create(dev, &rpd, &rpp), HL_ERR_VALIDATION);
        HL_CHECK(strstr(hl_last_error(), "location 1") != NULL);
        ct[1].write_none = true;
        HL_CHECK_OK(hl_rhi_render_pipeline_create(dev, &rpd, &rpp));
        hl_rhi_render_pipeline_destroy(dev, rpp);

        ct[1].write_none = false;
        ct[0].blend_enabled = true;
        ct[0].color = ct[0].alpha = (hl_rhi_blend_component){HL_RHI_BLEND_SRC_ALPHA, HL_RHI_BLEND_ONE_MINUS_SRC_ALPHA, 0};
        rpd.layout = p2.layout;
        rpd.vertex = p2.prog.vs;
        rpd.fragment = p2.prog.fs; /* writes locations 0 and 1 */
        bool independent = hl_rhi_device_caps(dev)->independent_blend;
        HL_CHECK(independent == (hl_rhi_device_backend(dev) != HL_RHI_BACKEND_GLES3));
        if (independent) {
            HL_CHECK_OK(hl_rhi_render_pipeline_create(dev, &rpd, &rpp));
            hl_rhi_render_pipeline_destroy(dev, rpp);
        } else {
            EXPECT_REJECT(hl_rhi_render_pipeline_create(dev, &rpd, &rpp), HL_ERR_UNSUPPORTED);
            HL_CHECK(strstr(hl_last_error(), "independent_blend") != NULL);
        }
        ct[1].blend_enabled = true; /* alike: fine everywhere */
        ct[1].color = ct[1].alpha = ct[0].color;
        HL_CHECK_OK(hl_rhi_render_pipeline_create(dev, &rpd, &rpp));
        hl_rhi_render_pipeline_destroy(dev, rpp);
        hl_test_pipeline_destroy(dev, &p2);
    }

    hl_test_pipeline_destroy(dev, &p);
    hl_rhi_buffer_destroy(dev, a);
    hl_rhi_buffer_destroy(dev, b);
    hl_rhi_texture_view_destroy(dev, sampled_view);
    hl_rhi_texture_destroy(dev, sampled_only);
    hl_test_target_destroy(dev, &t);
    hl_rhi_device_destroy(dev);
    return hl_test_finish();
}
