/* Shader material (seed 004 "custom GLSL and UBO contract"): a std140 block from a schema,
 * registered before use, drives a custom GLSL ES 3.00 shader; changing a value with
 * hl_uniform_buffer_set shows in the next frame (only the dirty range uploads). The engine's
 * Object block gives the model matrix when the shader declares it. An unregistered block is
 * an error naming it. Tolerance +-1 (sRGB encode of exact linear values). */
#include <math.h>

#include "hilo3d/renderer.h"
#include "hl_test.h"

enum { W = 64, H = 64 };

static const char *k_vs = "#version 300 es\n"
                          "layout(std140) uniform Object { mat4 u_model; mat4 u_normalMatrix; };\n"
                          "layout(std140) uniform EffectBlock { vec4 tint; };\n"
                          "in vec3 a_position; out vec4 v_tint;\n"
                          "void main() { v_tint = tint; gl_Position = vec4((u_model * vec4(a_position, 1.0)).xy, 0.5, 1.0); }\n";
static const char *k_fs = "#version 300 es\n"
                          "precision highp float;\n"
                          "in vec4 v_tint; layout(location = 0) out vec4 outColor;\n"
                          "void main() { outColor = v_tint; }\n";

/* sRGB encode of a linear value, as the output target stores it */
static int srgb(float v) {
    float s = v <= 0.0031308f ? v * 12.92f : 1.055f * powf(v, 1.0f / 2.4f) - 0.055f;
    return (int)(s * 255.0f + 0.5f);
}

int main(int argc, char **argv) {
    hl_rhi_backend rb = hl_test_backend_arg(argc, argv, HL_RHI_BACKEND_GLES3);
    hl_renderer_desc rd = {0};
    rd.backend = rb == HL_RHI_BACKEND_WEBGPU ? HL_BACKEND_WEBGPU : HL_BACKEND_GLES3;
    rd.width = W;
    rd.height = H;
    rd.sample_count = 1;
    hl_renderer *r = NULL;
    HL_CHECK_OK(hl_renderer_create(&rd, &r));
    if (!r) return hl_test_finish();

    hl_std140_entry schema[1] = {{"tint", HL_STD140_VEC4, 0}};
    hl_std140_layout *layout = NULL;
    HL_CHECK_OK(hl_std140_layout_create(schema, 1, &layout));
    hl_uniform_buffer *ub = NULL;
    HL_CHECK_OK(hl_uniform_buffer_create(layout, &ub));
    const float tint0[4] = {0.6f, 0.8f, 1.0f, 1.0f};
    HL_CHECK_OK(hl_uniform_buffer_set(ub, "tint", tint0, 4));

    hl_material_attribute attrs[1] = {{"a_position", HL_ATTR_POSITION}};
    hl_material_uniform_block blocks[1] = {{"EffectBlock", ub}};
    hl_shader_material_desc sd = {0};
    sd.vs = k_vs;
    sd.fs = k_fs;
    sd.attributes = attrs;
    sd.attribute_count = 1;
    sd.uniform_blocks = blocks;
    sd.uniform_block_count = 1;
    sd.label = "effect";
    hl_material *mat = NULL;
    HL_CHECK_OK(hl_material_create_shader(&sd, &mat));

    hl_stage *stage = NULL;
    HL_CHECK_OK(hl_stage_create(&stage));
    hl_plane_desc pd = {1.0f, 1.0f, 1, 1};
    hl_geometry *quad = NULL;
    HL_CHECK_OK(hl_geometry_create_plane(&pd, &quad));
    hl_mesh_desc md = {0};
    md.geometry = quad;
    md.material = mat;
    hl_mesh *mesh = NULL;
    HL_CHECK_OK(hl_mesh_create(&md, &mesh));
    hl_node_set_translation(hl_mesh_node(mesh), (hl_vec3){0.5f, 0.5f, 0.0f}); /* covers the upper-right quarter */
    HL_CHECK_OK(hl_stage_add(stage, hl_mesh_node(mesh)));
    hl_camera_desc cd = {0};
    cd.projection = HL_PROJECTION_ORTHOGRAPHIC;
    hl_camera *cam = NULL;
    HL_CHECK_OK(hl_camera_create(&cd, &cam));
    hl_node_set_translation(hl_camera_node(cam), (hl_vec3){0, 0, 5});
    HL_CHECK_OK(hl_stage_add(stage, hl_camera_node(cam)));

    /* unregistered block: an error naming it, nothing drawn */
    HL_CHECK_RESULT(hl_renderer_render(r, stage, cam), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "EffectBlock") != NULL);

    HL_CHECK_OK(hl_register_uniform_block_binding("EffectBlock", NULL));
    static uint8_t img[W * H * 4];
    HL_CHECK_OK(hl_renderer_render(r, stage, cam));
    HL_CHECK_OK(hl_renderer_read_pixels(r, img, sizeof img));
    const uint8_t *in = img + (16 * W + 48) * 4;  /* upper right: the quad */
    const uint8_t *out = img + (48 * W + 16) * 4; /* lower left: clear colour (opaque black) */
    HL_CHECK_PIXEL(in, srgb(0.6f), srgb(0.8f), 255, 255, 1);
    HL_CHECK_PIXEL(out, 0, 0, 0, 255, 1);

    const float tint1[4] = {1.0f, 0.5f, 0.2f, 1.0f};
    HL_CHECK_OK(hl_uniform_buffer_set(ub, "tint", tint1, 4));
    HL_CHECK_OK(hl_renderer_render(r, stage, cam));
    HL_CHECK_OK(hl_renderer_read_pixels(r, img, sizeof img));
    HL_CHECK_PIXEL(in, 255, srgb(0.5f), srgb(0.2f), 255, 1);
    HL_CHECK(hl_renderer_stats(r)->draws == 1);

    hl_stage_destroy(stage);
    hl_material_release(mat);
    hl_geometry_release(quad);
    hl_uniform_buffer_release(ub);
    hl_std140_layout_release(layout);
    hl_renderer_destroy(r);
    return hl_test_finish();
}
