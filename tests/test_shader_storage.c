/* Storage shaders (hl_shader_program_desc.storage): GLSL ES 3.10 with read-only std430 buffer
 * blocks, compiled for webgpu through the same toolchain (budget, rewrite to Vulkan GLSL,
 * glslang, SPIRV-Cross). Checks the reflection (storage blocks with group, binding, stages, the
 * fixed part's size plus one runtime-array element; a uniform block beside them), the layout entries (read-only storage, no
 * dynamic offset), __VERSION__ 310 in the budget and glslang alike, gl_VertexID/gl_InstanceID,
 * and the refusals: a writable buffer block, a 3.00 source marked storage, a 3.10 source not
 * marked storage, a buffer block in a 3.00 source, gles3. */
#include <string.h>

#include "hl_shader.h"
#include "hl_test.h"

static const char *k_vs =
    "#version 310 es\n"
    "struct Body { vec4 p; vec4 v; };\n"
    "layout(std430) readonly buffer Bodies { Body bodies[]; };\n"
    "layout(std430) readonly buffer Visible { uint count; uint index[]; } vis;\n"
    "layout(std140) uniform Params { mat4 view_proj; vec4 size; };\n"
    "out vec2 v_uv;\n"
    "void main() {\n"
    "    Body b = bodies[vis.index[gl_InstanceID]];\n"
    "    vec2 c = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));\n"
    "#if __VERSION__ == 310\n"
    "    v_uv = c;\n"
    "#else\n"
    "    v_uv = vec2(9.0);\n"
    "#endif\n"
    "    gl_Position = view_proj * vec4(b.p.xyz + vec3((c - 0.5) * size.x, 0.0), 1.0);\n"
    "}\n";

static const char *k_fs =
    "#version 310 es\n"
    "precision highp float;\n"
    "layout(std430) readonly buffer Palette { vec4 colors[4]; };\n"
    "in vec2 v_uv;\n"
    "out vec4 o_color;\n"
    "void main() { o_color = colors[int(v_uv.x * 3.99)]; }\n";

static hl_result compile(const char *vs, const char *fs, bool storage, hl_rhi_backend be, hl_shader_program *out) {
    hl_shader_program_desc d = {0};
    d.vertex_source = vs;
    d.fragment_source = fs;
    d.label = "storage";
    d.storage = storage;
    memset(out, 0, sizeof *out);
    return hl_shader_program_compile(&d, be, out);
}

static void test_reflection(void) {
    hl_shader_program p;
    hl_result r = compile(k_vs, k_fs, true, HL_RHI_BACKEND_WEBGPU, &p);
    HL_CHECK_MSG(r == HL_OK, "%s", hl_last_error());
    if (r) return;
    HL_CHECK(p.vertex_spirv && p.fragment_spirv && !p.vertex_glsl && !p.fragment_glsl);
    const hl_shader_block *bodies = hl_shader_program_find_block(&p, "Bodies");
    const hl_shader_block *vis = hl_shader_program_find_block(&p, "Visible");
    const hl_shader_block *params = hl_shader_program_find_block(&p, "Params");
    const hl_shader_block *pal = hl_shader_program_find_block(&p, "Palette");
    HL_CHECK(bodies && vis && params && pal);
    if (bodies && vis && params && pal) {
        HL_CHECK(bodies->storage && vis->storage && pal->storage && !params->storage);
        HL_CHECK_EQ(bodies->size, 32); /* a runtime array only: one element (Body: 32 bytes) */
        HL_CHECK_EQ(vis->size, 8);     /* count, then one element of the runtime array */
        HL_CHECK_EQ(pal->size, 64);
        HL_CHECK_EQ(params->size, 80);
        HL_CHECK_EQ(bodies->stages, HL_RHI_STAGE_VERTEX);
        HL_CHECK_EQ(pal->stages, HL_RHI_STAGE_FRAGMENT);
        /* default plan: blocks in order of appearance, vertex stage first */
        HL_CHECK(bodies->group == 0 && bodies->binding == 0 && vis->binding == 1 && params->binding == 2 &&
                 pal->binding == 3);
    }
    hl_rhi_bind_group_layout_entry e[8];
    uint32_t n = hl_shader_program_layout_entries(&p, 0, true, e, 8);
    HL_CHECK_EQ(n, 4);
    for (uint32_t i = 0; i < n; i++) {
        bool storage = i != 2;
        HL_CHECK(e[i].binding == i);
        HL_CHECK(e[i].type == (storage ? HL_RHI_BINDING_READ_ONLY_STORAGE_BUFFER : HL_RHI_BINDING_UNIFORM_BUFFER));
        HL_CHECK(e[i].has_dynamic_offset == !storage);
    }
    HL_CHECK_EQ(e[3].min_binding_size, 64);
    hl_shader_program_free(&p);
}

static void refused(const char *vs, const char *fs, bool storage, hl_rhi_backend be, hl_result code, const char *text) {
    hl_shader_program p;
    hl_result r = compile(vs, fs, storage, be, &p);
    HL_CHECK_MSG(r == code && strstr(hl_last_error(), text) != NULL, "code %d (want %d): '%s' (want '%s')", (int)r,
                 (int)code, r ? hl_last_error() : "", text);
    if (!r) hl_shader_program_free(&p);
}

static void test_refusals(void) {
    const char *writable = "#version 310 es\n"
                           "layout(std430) buffer Out { vec4 data[]; };\n"
                           "void main() { gl_Position = data[gl_VertexID]; }\n";
    refused(writable, NULL, true, HL_RHI_BACKEND_WEBGPU, HL_ERR_SHADER, "storage block 'Out' must be declared readonly");
    refused("#version 300 es\nvoid main() { gl_Position = vec4(0.0); }\n", NULL, true, HL_RHI_BACKEND_WEBGPU,
            HL_ERR_SHADER, "'#version 310 es' required");
    refused(k_vs, k_fs, false, HL_RHI_BACKEND_WEBGPU, HL_ERR_SHADER, "'#version 300 es' required");
    refused(k_vs, k_fs, true, HL_RHI_BACKEND_GLES3, HL_ERR_UNSUPPORTED, "compile for webgpu only");
    /* in GLSL ES 3.00 `buffer` is no storage qualifier: the block is left to glslang, which refuses it */
    const char *es300 = "#version 300 es\n"
                        "layout(std430) readonly buffer B { vec4 d[4]; };\n"
                        "void main() { gl_Position = d[0]; }\n";
    hl_shader_program p;
    HL_CHECK(compile(es300, NULL, false, HL_RHI_BACKEND_WEBGPU, &p) != HL_OK);
}

int main(void) {
    test_reflection();
    test_refusals();
    return hl_test_finish();
}
