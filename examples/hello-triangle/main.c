/* hello-triangle: one coloured triangle through the RHI alone (hilo3d/rhi.h), the WebGPU-shaped
 * layer the renderer is built on. It makes a device, a vertex buffer, two shaders and a
 * pipeline, draws in one render pass into a texture and reads the pixels back, then checks
 * three of them.
 *
 *     hello-triangle [auto|webgpu|gles3]      (default auto: webgpu when Dawn finds a GPU)
 *
 * Exit code 0 when the image is right, 1 when it is not or a call failed (the message says why).
 */
#include <stdio.h>
#include <stdlib.h>

#include "hilo3d/rhi.h"

enum { W = 64, H = 64 };

/* The RHI compiles nothing itself: each backend takes its own shader language. webgpu takes
 * WGSL (both stages in one source, entry points vs and fs), gles3 GLSL ES 3.00 with explicit
 * locations. Both read a 2D position (location 0) and an RGB colour (location 1). */
static const char *k_wgsl =
    "struct Out { @builtin(position) pos: vec4<f32>, @location(0) color: vec3<f32>, }\n"
    "@vertex fn vs(@location(0) pos: vec2<f32>, @location(1) color: vec3<f32>) -> Out {\n"
    "    var o: Out;\n"
    "    o.pos = vec4<f32>(pos, 0.0, 1.0);\n"
    "    o.color = color;\n"
    "    return o;\n"
    "}\n"
    "@fragment fn fs(@location(0) color: vec3<f32>) -> @location(0) vec4<f32> { return vec4<f32>(color, 1.0); }\n";
static const char *k_glsl_vs = "#version 300 es\n"
                               "layout(location = 0) in vec2 a_pos;\n"
                               "layout(location = 1) in vec3 a_color;\n"
                               "out vec3 v_color;\n"
                               "void main() { v_color = a_color; gl_Position = vec4(a_pos, 0.0, 1.0); }\n";
static const char *k_glsl_fs = "#version 300 es\n"
                               "precision mediump float;\n"
                               "in vec3 v_color;\n"
                               "out vec4 o_color;\n"
                               "void main() { o_color = vec4(v_color, 1.0); }\n";

/* Every hilo3d call returns an hl_result (HL_OK = 0); on failure hl_last_error() says why. */
#define TRY(call)                                                                        \
    do {                                                                                 \
        if ((call) != HL_OK) {                                                           \
            fprintf(stderr, "hello-triangle: %s failed: %s\n", #call, hl_last_error());  \
            return 1;                                                                    \
        }                                                                                \
    } while (0)

static int draw(hl_rhi_device *dev, uint8_t *pixels) {
    /* A triangle of three vertices: x, y in clip space (+y is up: the top rows of the image),
     * then r, g, b. It is red at the top, fading to green and blue at the bottom corners. */
    static const float vertices[] = {
        0.0f,  0.8f,  1.0f, 0.0f, 0.0f, /* top    */
        -0.8f, -0.8f, 0.0f, 1.0f, 0.0f, /* left   */
        0.8f,  -0.8f, 0.0f, 0.0f, 1.0f, /* right  */
    };
    hl_rhi_buffer_desc bd = {0}; /* descriptors start zeroed: 0 means "the default" */
    bd.size = sizeof vertices;
    bd.usage = HL_RHI_BUFFER_USAGE_VERTEX;
    bd.initial_data = vertices;
    hl_rhi_buffer vbo;
    TRY(hl_rhi_buffer_create(dev, &bd, &vbo));

    /* The texture we draw into, and copy from afterwards. */
    hl_rhi_texture_desc td = {0};
    td.format = HL_RHI_FORMAT_RGBA8_UNORM;
    td.width = W;
    td.height = H;
    td.usage = HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT | HL_RHI_TEXTURE_USAGE_COPY_SRC;
    hl_rhi_texture target;
    hl_rhi_texture_view target_view;
    TRY(hl_rhi_texture_create(dev, &td, &target));
    TRY(hl_rhi_texture_view_create(dev, target, NULL, &target_view));

    /* Shaders: pick the source of the backend the device got. */
    bool webgpu = hl_rhi_device_backend(dev) == HL_RHI_BACKEND_WEBGPU;
    hl_rhi_shader_desc vsd = {0}, fsd = {0};
    vsd.stage = HL_RHI_SHADER_VERTEX;
    fsd.stage = HL_RHI_SHADER_FRAGMENT;
    if (webgpu) {
        vsd.wgsl = fsd.wgsl = k_wgsl;
        vsd.entry_point = "vs";
        fsd.entry_point = "fs";
    } else {
        vsd.glsl = k_glsl_vs;
        fsd.glsl = k_glsl_fs;
    }
    hl_rhi_shader vs, fs;
    TRY(hl_rhi_shader_create(dev, &vsd, &vs));
    TRY(hl_rhi_shader_create(dev, &fsd, &fs));

    /* The pipeline: no bind groups (an empty layout), one vertex buffer of 5 floats per vertex,
     * one colour target of the texture's format. */
    hl_rhi_pipeline_layout_desc ld = {0};
    hl_rhi_pipeline_layout layout;
    TRY(hl_rhi_pipeline_layout_create(dev, &ld, &layout));
    const hl_rhi_vertex_attribute attributes[2] = {
        {HL_RHI_VERTEX_FLOAT32X2, 0, 0},                 /* format, byte offset, shader location */
        {HL_RHI_VERTEX_FLOAT32X3, 2 * sizeof(float), 1},
    };
    hl_rhi_vertex_buffer_layout vbl = {0};
    vbl.stride = 5 * sizeof(float);
    vbl.attributes = attributes;
    vbl.attribute_count = 2;
    hl_rhi_color_target_state color = {0};
    color.format = td.format;
    hl_rhi_render_pipeline_desc pd = {0};
    pd.layout = layout;
    pd.vertex = vs;
    pd.fragment = fs;
    pd.vertex_buffers = &vbl;
    pd.vertex_buffer_count = 1;
    pd.color_targets = &color;
    pd.color_target_count = 1;
    hl_rhi_render_pipeline pipeline;
    TRY(hl_rhi_render_pipeline_create(dev, &pd, &pipeline));

    /* One frame: a render pass that clears to dark grey and draws the triangle. */
    hl_rhi_cmd *cmd;
    TRY(hl_rhi_begin_frame(dev, &cmd));
    hl_rhi_color_attachment ca = {0}; /* load_op 0 = clear, store_op 0 = store */
    ca.view = target_view;
    ca.clear_color[0] = ca.clear_color[1] = ca.clear_color[2] = 0.1f;
    ca.clear_color[3] = 1.0f;
    hl_rhi_render_pass_desc rp = {0};
    rp.color_attachments = &ca;
    rp.color_attachment_count = 1;
    TRY(hl_rhi_cmd_begin_render_pass(cmd, &rp));
    TRY(hl_rhi_cmd_set_pipeline(cmd, pipeline));
    TRY(hl_rhi_cmd_set_vertex_buffer(cmd, 0, vbo, 0));
    TRY(hl_rhi_cmd_draw(cmd, 3, 1, 0, 0));
    TRY(hl_rhi_cmd_end_render_pass(cmd));
    hl_rhi_submission done;
    TRY(hl_rhi_end_frame(dev, &done));

    /* Read the texture back (this waits for the GPU): W * H RGBA pixels, row 0 at the top. */
    TRY(hl_rhi_texture_read(dev, target, NULL, pixels, 0));

    /* Objects die with the device too; destroying them explicitly is good manners. */
    hl_rhi_render_pipeline_destroy(dev, pipeline);
    hl_rhi_pipeline_layout_destroy(dev, layout);
    hl_rhi_shader_destroy(dev, vs);
    hl_rhi_shader_destroy(dev, fs);
    hl_rhi_texture_destroy(dev, target);
    hl_rhi_buffer_destroy(dev, vbo);
    return 0;
}

/* true when pixel (x, y) has roughly the colour (r, g, b). */
static bool near(const uint8_t *pixels, int x, int y, int r, int g, int b) {
    const uint8_t *p = pixels + ((size_t)y * W + (size_t)x) * 4;
    bool ok = abs(p[0] - r) <= 8 && abs(p[1] - g) <= 8 && abs(p[2] - b) <= 8 && p[3] == 255;
    if (!ok) fprintf(stderr, "hello-triangle: pixel (%d, %d) is (%d, %d, %d, %d), expected about (%d, %d, %d, 255)\n",
                     x, y, p[0], p[1], p[2], p[3], r, g, b);
    return ok;
}

int main(int argc, char **argv) {
    hl_rhi_device_desc dd = {0};
    if (argc > 1 && hl_rhi_backend_parse(argv[1], &dd.backend) != HL_OK) {
        fprintf(stderr, "usage: hello-triangle [auto|webgpu|gles3]\n");
        return 2;
    }
    hl_rhi_device *dev;
    if (hl_rhi_device_create(&dd, &dev) != HL_OK) {
        fprintf(stderr, "hello-triangle: no device: %s\n", hl_last_error());
        return 1;
    }
    printf("hello-triangle: %s on %s\n", hl_rhi_backend_name(hl_rhi_device_backend(dev)),
           hl_rhi_device_caps(dev)->adapter_name);

    static uint8_t pixels[W * H * 4];
    int rc = draw(dev, pixels);
    hl_rhi_device_destroy(dev); /* releases everything the device still owns */
    if (rc) return rc;

    /* The vertex colours are mixed by distance to the vertices (barycentric interpolation).
     * Below the top vertex the pixel is 84% red, 8% green, 8% blue; near the bottom left vertex
     * 2% red, 87% green, 11% blue; a corner keeps the clear colour (0.1 is 26 in 8 bits). */
    bool ok = near(pixels, 32, 14, 215, 20, 20) && near(pixels, 12, 56, 5, 222, 28) && near(pixels, 1, 1, 26, 26, 26);
    printf("hello-triangle: %s\n", ok ? "ok" : "wrong image");
    return ok ? 0 : 1;
}
