/* Regression tests of rendering that must be the same on every run and both backends (issue 7):
 * attachments a pipeline does not write keep exactly what was there, whatever ran before in
 * the frame. Found by random_frames --seed 0x9 --frames 14 --max-size 128 --max-meshes 60: on
 * webgpu (Dawn over lavapipe) a blending shader material writing location 0 only changed
 * attachments 1..3 of an MRT target under it, differently from run to run, once a shadow pass
 * (a pipeline without colour targets) had run earlier in the frame. */
#include <stdlib.h>
#include <string.h>

#include "hl_test_render.h"

enum { W = 16, H = 16 };

static const char *k_vs = "#version 300 es\n"
                          "layout(std140) uniform Object { mat4 u_model; mat4 u_normalMatrix; };\n"
                          "layout(std140) uniform DeterminismBlock { vec4 tint; };\n"
                          "in vec3 a_position; out vec4 v_tint;\n"
                          "void main() { v_tint = tint; gl_Position = vec4((u_model * vec4(a_position, 1.0)).xy, 0.5, 1.0); }\n";
static const char *k_fs = "#version 300 es\nprecision highp float;\nin vec4 v_tint; layout(location = 0) out vec4 outColor;\n"
                          "void main() { outColor = v_tint; }\n";

/* A shader material writing location 0 only: its tint (alpha 0.5), blended. */
static hl_material *blending_tint(hl_uniform_buffer **out_ub) {
    hl_std140_entry e[1] = {{"tint", HL_STD140_VEC4, 0}};
    hl_std140_layout *l = NULL;
    HL_CHECK_OK(hl_std140_layout_create(e, 1, &l));
    HL_CHECK_OK(hl_uniform_buffer_create(l, out_ub));
    hl_std140_layout_release(l);
    const float tint[4] = {1.0f, 0.0f, 0.0f, 0.5f};
    HL_CHECK_OK(hl_uniform_buffer_set(*out_ub, "tint", tint, 4));
    static hl_material_attribute a = {"a_position", HL_ATTR_POSITION};
    hl_material_uniform_block blk = {"DeterminismBlock", *out_ub};
    hl_shader_material_desc sd = {0};
    sd.vs = k_vs;
    sd.fs = k_fs;
    sd.attributes = &a;
    sd.attribute_count = 1;
    sd.uniform_blocks = &blk;
    sd.uniform_block_count = 1;
    sd.label = "determinism";
    hl_material *m = NULL;
    HL_CHECK_OK(hl_material_create_shader(&sd, &m));
    if (m) {
        hl_material_state st = {0};
        st.alpha_mode = HL_ALPHA_BLEND;
        HL_CHECK_OK(hl_material_set_state(m, &st));
    }
    return m;
}

/* A 4-attachment target (formats as the generator made them); an opaque shadow caster on the
 * left half (it writes every attachment there, and the shadow pass draws it first); the
 * blending shader material on the right half. Right of the middle, attachments 1..3 must
 * hold the clear value in every frame; the caster instanced or not. */
static void blend_after_shadow_pass(bool instanced) {
    hl_renderer *r = make_renderer(W, H, 1);
    if (!r) return;
    HL_CHECK_OK(hl_register_uniform_block_binding("DeterminismBlock", NULL));
    hl_render_target_desc td = {0};
    td.color_count = 4;
    td.formats[0] = HL_TARGET_RGBA8;
    td.formats[1] = HL_TARGET_RGBA16F;
    td.formats[2] = HL_TARGET_RGBA8;
    td.formats[3] = HL_TARGET_RGBA8;
    td.clear_color = (hl_color){0.2f, 0.4f, 0.6f, 1.0f};
    hl_render_target *t = NULL;
    HL_CHECK_OK(hl_render_target_create(r, &td, &t));
    hl_stage *s = NULL;
    HL_CHECK_OK(hl_stage_create(&s));
    hl_camera *cam = front_camera(s);
    hl_light_desc ld = {0};
    ld.kind = HL_LIGHT_DIRECTIONAL;
    ld.cast_shadows = true;
    ld.intensity = 1;
    ld.color = (hl_color){1, 1, 1, 1};
    hl_light *l = NULL;
    HL_CHECK_OK(hl_light_create(&ld, &l));
    hl_stage_add(s, hl_light_node(l));
    hl_geometry *half = plane(1, 2);
    hl_material *opaque = basic(0, 1, 0, 1);
    hl_mesh_desc md = {half, opaque, instanced, true, true, NULL};
    hl_mesh *caster = NULL;
    HL_CHECK_OK(hl_mesh_create(&md, &caster));
    if (caster) {
        hl_node_set_translation(hl_mesh_node(caster), (hl_vec3){-0.5f, 0, 0});
        hl_stage_add(s, hl_mesh_node(caster));
    }
    hl_uniform_buffer *ub = NULL;
    hl_material *blend = blending_tint(&ub);
    add_mesh(s, half, blend, (hl_vec3){0.5f, 0, 0});
    static uint8_t px[W * H * 8], first[4][W * H * 8];
    const uint32_t x = W * 3 / 4, y = H / 2;
    for (int f = 0; t && f < 3; f++) {
        HL_CHECK_OK(hl_renderer_render_to_target(r, t, s, cam));
        HL_CHECK_MSG(hl_renderer_stats(r)->shadow_tiles == 1, "%s frame %d: %u shadow tiles",
                     instanced ? "instanced" : "plain", f, hl_renderer_stats(r)->shadow_tiles);
        for (uint32_t a = 0; a < 4; a++) {
            size_t n = hl_render_target_read_size(t, a);
            HL_CHECK_OK(hl_render_target_read(r, t, a, px, sizeof px));
            if (f == 0) memcpy(first[a], px, n);
            else
                HL_CHECK_MSG(memcmp(first[a], px, n) == 0, "%s frame %d: attachment %u differs from frame 0",
                             instanced ? "instanced" : "plain", f, a);
            const uint8_t *p = px + ((size_t)y * W + x) * (a == 1 ? 8 : 4);
            if (a == 0) {
                /* half red over the clear: the blend happened on attachment 0 */
                HL_CHECK_PIXEL(p, 153, 51, 77, 255, 1);
            } else if (a == 1) {
                uint16_t h[4];
                memcpy(h, p, sizeof h);
                /* 0.2 0.4 0.6 1 as halves, +-1 ulp */
                HL_CHECK_MSG(abs(h[0] - 0x3266) <= 1 && abs(h[1] - 0x3666) <= 1 && abs(h[2] - 0x38cd) <= 1 &&
                                 h[3] == 0x3c00,
                             "%s frame %d: RGBA16F attachment 1 under the blending material: %04x %04x %04x %04x "
                             "(expected the clear 3266 3666 38cd 3c00)",
                             instanced ? "instanced" : "plain", f, h[0], h[1], h[2], h[3]);
            } else {
                HL_CHECK_MSG(abs(p[0] - 51) <= 1 && abs(p[1] - 102) <= 1 && abs(p[2] - 153) <= 1 && p[3] == 255,
                             "%s frame %d: attachment %u under the blending material: %d %d %d %d (expected the "
                             "clear 51 102 153 255)",
                             instanced ? "instanced" : "plain", f, a, p[0], p[1], p[2], p[3]);
            }
        }
    }
    hl_stage_destroy(s);
    hl_material_release(blend);
    hl_uniform_buffer_release(ub);
    hl_material_release(opaque);
    hl_geometry_release(half);
    hl_renderer_destroy(r);
}

int main(int argc, char **argv) {
    backend_of(argc, argv);
    blend_after_shadow_pass(false);
    blend_after_shadow_pass(true);
    return hl_test_finish();
}
