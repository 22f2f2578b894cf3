/* Shader toolchain: preprocessing, Vulkan rewrite, SPIR-V, reflection, binding plans, errors. */
#include <stdlib.h>

#include "hl_test.h"

static const char *k_tri_vs = "#version 300 es\n"
                              "layout(std140) uniform Frame { mat4 u_mvp; vec4 u_time; };\n"
                              "in vec3 a_position;\n"
                              "in vec4 a_color;\n"
                              "out vec4 v_color;\n"
                              "void main() {\n"
                              "    v_color = a_color;\n"
                              "    gl_Position = u_mvp * vec4(a_position, 1.0);\n"
                              "}\n";

static const char *k_tri_fs = "#version 300 es\n"
                              "precision mediump float;\n"
                              "uniform EffectBlock { vec4 tint; mat4 m; float f; vec3 v; };\n"
                              "layout(std140) uniform Frame { mat4 u_mvp; vec4 u_time; };\n"
                              "in vec4 v_color;\n"
                              "out vec4 o_color;\n"
                              "void main() {\n"
                              "    o_color = v_color * tint + m[0] * f + vec4(v, u_time.x);\n"
                              "}\n";

static hl_result compile(const char *vs, const char *fs, const hl_shader_define *defs, uint32_t ndefs,
                         const hl_rhi_binding_plan_entry *plan, uint32_t nplan, hl_rhi_backend be,
                         hl_shader_program *out) {
    hl_shader_program_desc d = {0};
    d.vertex_source = vs;
    d.fragment_source = fs;
    d.defines = defs;
    d.define_count = ndefs;
    d.bindings = plan;
    d.binding_count = nplan;
    d.label = "test";
    return hl_shader_program_compile(&d, be, out);
}

static const hl_shader_texture_binding *find_texture(const hl_shader_program *p, const char *name) {
    for (uint32_t i = 0; i < p->reflection.texture_count; i++)
        if (strcmp(p->reflection.textures[i].name, name) == 0)
            return &p->reflection.textures[i];
    return NULL;
}

static int is_zeroed(const hl_shader_program *p) {
    static const hl_shader_program zero;
    return memcmp(p, &zero, sizeof zero) == 0;
}

/* Location decoration of the variable named `name` in SPIR-V (-1 if absent). */
static int spirv_location(const uint32_t *w, size_t n, const char *name) {
    uint32_t id = 0;
    for (size_t i = 5; i < n;) {
        uint32_t op = w[i] & 0xffff, len = w[i] >> 16;
        if (len == 0)
            break;
        if (op == 5 /* OpName */ && strcmp((const char *)&w[i + 2], name) == 0)
            id = w[i + 1];
        if (op == 71 /* OpDecorate */ && id && w[i + 1] == id && w[i + 2] == 30 /* Location */)
            return (int)w[i + 3];
        i += len;
    }
    return -1;
}

static void test_triangle(hl_rhi_backend be) {
    hl_shader_program p;
    HL_CHECK_OK(compile(k_tri_vs, k_tri_fs, NULL, 0, NULL, 0, be, &p));
    HL_CHECK_EQ(p.backend, be);
    const hl_shader_reflection *r = &p.reflection;
    HL_CHECK_EQ(r->block_count, 2);
    const hl_shader_block *frame = hl_shader_program_find_block(&p, "Frame");
    const hl_shader_block *fx = hl_shader_program_find_block(&p, "EffectBlock");
    HL_CHECK(frame && fx);
    HL_CHECK(hl_shader_program_find_block(&p, "Nope") == NULL);
    if (frame && fx) {
        /* auto plan: blocks in order of first appearance, vertex stage first */
        HL_CHECK_EQ(frame->group, 0);
        HL_CHECK_EQ(frame->binding, 0);
        HL_CHECK_EQ(frame->size, 80);
        HL_CHECK_EQ(frame->stages, HL_RHI_STAGE_VERTEX | HL_RHI_STAGE_FRAGMENT);
        HL_CHECK_EQ(fx->binding, 1);
        HL_CHECK_EQ(fx->stages, HL_RHI_STAGE_FRAGMENT);
        HL_CHECK_EQ(fx->size, 112);
        HL_CHECK_EQ(fx->member_count, 4);
        if (fx->member_count == 4) {
            const hl_shader_block_member *m = fx->members;
            HL_CHECK(strcmp(m[0].name, "tint") == 0 && strcmp(m[3].name, "v") == 0);
            HL_CHECK_EQ(m[0].offset, 0);
            HL_CHECK_EQ(m[1].offset, 16);
            HL_CHECK_EQ(m[2].offset, 80);
            HL_CHECK_EQ(m[3].offset, 96);
            HL_CHECK_EQ(m[0].type, HL_SHADER_TYPE_VEC4);
            HL_CHECK_EQ(m[1].type, HL_SHADER_TYPE_MAT4);
            HL_CHECK_EQ(m[2].type, HL_SHADER_TYPE_FLOAT);
            HL_CHECK_EQ(m[3].type, HL_SHADER_TYPE_VEC3);
            HL_CHECK_EQ(m[1].matrix_stride, 16);
            HL_CHECK_EQ(m[1].size, 64);
            HL_CHECK(strcmp(hl_shader_type_name(m[1].type), "mat4") == 0);
        }
    }
    HL_CHECK_EQ(r->input_count, 2);
    if (r->input_count == 2) {
        HL_CHECK(strcmp(r->inputs[0].name, "a_position") == 0);
        HL_CHECK_EQ(r->inputs[0].location, 0);
        HL_CHECK_EQ(r->inputs[0].type, HL_SHADER_TYPE_VEC3);
        HL_CHECK(strcmp(r->inputs[1].name, "a_color") == 0);
        HL_CHECK_EQ(r->inputs[1].location, 1);
        HL_CHECK_EQ(r->inputs[1].type, HL_SHADER_TYPE_VEC4);
    }
    HL_CHECK_EQ(r->output_count, 1);
    if (r->output_count == 1) {
        HL_CHECK(strcmp(r->outputs[0].name, "o_color") == 0);
        HL_CHECK_EQ(r->outputs[0].location, 0);
    }
    HL_CHECK_EQ(p.plan_count, 2);

    /* artifacts */
    HL_CHECK(p.vertex_spirv && p.vertex_spirv_words > 5 && p.vertex_spirv[0] == 0x07230203u);
    HL_CHECK(p.fragment_spirv && p.fragment_spirv[0] == 0x07230203u);
    HL_CHECK(p.vertex_glsl && strstr(p.vertex_glsl, "#version 300 es"));
    /* vertex inputs carry the reflected locations in the GLSL ES text too */
    HL_CHECK(p.vertex_glsl && strstr(p.vertex_glsl, "layout(location = 1) in vec4 a_color;"));
    HL_CHECK(p.fragment_glsl && strstr(p.fragment_glsl, "uniform EffectBlock {"));
    hl_rhi_shader_desc vd, fd;
    hl_shader_program_vertex_desc(&p, &vd);
    hl_shader_program_fragment_desc(&p, &fd);
    HL_CHECK_EQ(vd.stage, HL_RHI_SHADER_VERTEX);
    HL_CHECK_EQ(fd.stage, HL_RHI_SHADER_FRAGMENT);
    if (be == HL_RHI_BACKEND_WEBGPU) {
        HL_CHECK(vd.spirv == p.vertex_spirv && vd.spirv_word_count == p.vertex_spirv_words && !vd.glsl);
        HL_CHECK(fd.spirv == p.fragment_spirv && !fd.glsl);
    } else {
        HL_CHECK(vd.glsl == p.vertex_glsl && !vd.spirv && vd.binding_plan == p.plan && vd.binding_plan_count == 2);
        HL_CHECK(fd.glsl == p.fragment_glsl && !fd.spirv);
        HL_CHECK(p.plan[0].kind == HL_RHI_PLAN_UNIFORM_BLOCK && strcmp(p.plan[0].name, "Frame") == 0);
    }

    hl_rhi_bind_group_layout_entry e[8];
    uint32_t n = hl_shader_program_layout_entries(&p, 0, true, e, 8);
    HL_CHECK_EQ(n, 2);
    if (n == 2) {
        HL_CHECK_EQ(e[0].binding, 0);
        HL_CHECK_EQ(e[0].type, HL_RHI_BINDING_UNIFORM_BUFFER);
        HL_CHECK_EQ(e[0].min_binding_size, 80);
        HL_CHECK_EQ(e[0].visibility, HL_RHI_STAGE_VERTEX | HL_RHI_STAGE_FRAGMENT);
        HL_CHECK(e[0].has_dynamic_offset);
        HL_CHECK_EQ(e[1].binding, 1);
        HL_CHECK_EQ(e[1].min_binding_size, 112);
        HL_CHECK_EQ(e[1].visibility, HL_RHI_STAGE_FRAGMENT);
    }
    HL_CHECK_EQ(hl_shader_program_layout_entries(&p, 1, false, e, 8), 0);
    HL_CHECK_EQ(hl_shader_program_layout_entries(&p, 0, false, e, 1), 1);
    HL_CHECK(!e[0].has_dynamic_offset);
    hl_shader_program_free(&p);
    HL_CHECK(is_zeroed(&p));
}

static const char *k_tex_vs = "#version 300 es\n"
                              "in vec2 a_uv;\n"
                              "out vec2 v_uv;\n"
                              "void main() { v_uv = a_uv; gl_Position = vec4(a_uv, 0.0, 1.0); }\n";

static const char *k_tex_fs = "#version 300 es\n"
                              "precision mediump float;\n"
                              "uniform Material { vec4 color; float u_base_scale; };\n"
                              "uniform sampler2D u_base; // sample u_base here\n"
                              "uniform highp sampler2DShadow u_shadow;\n"
                              "uniform highp isampler2D u_ids;\n"
                              "in vec2 v_uv;\n"
                              "out vec4 o_color;\n"
                              "vec4 base(vec2 uv) { return texture(u_base, uv) * u_base_scale; }\n"
                              "void main() {\n"
                              "    float s = texture(u_shadow, vec3(v_uv, 0.5));\n"
                              "    ivec4 id = texelFetch(u_ids, ivec2(0), 0);\n"
                              "    o_color = base(v_uv) * color * s + vec4(id);\n"
                              "}\n";

static void test_samplers(hl_rhi_backend be) {
    hl_shader_program p;
    HL_CHECK_OK(compile(k_tex_vs, k_tex_fs, NULL, 0, NULL, 0, be, &p));
    /* auto plan: blocks first, then each sampler gets texture b and sampler b + 1 */
    const hl_shader_texture_binding *base = find_texture(&p, "u_base");
    const hl_shader_texture_binding *shadow = find_texture(&p, "u_shadow");
    const hl_shader_texture_binding *ids = find_texture(&p, "u_ids");
    HL_CHECK_EQ(p.reflection.texture_count, 3);
    HL_CHECK(base && shadow && ids);
    if (base && shadow && ids) {
        HL_CHECK_EQ(base->binding, 1);
        HL_CHECK_EQ(base->sampler_binding, 2);
        HL_CHECK_EQ(base->dimension, HL_RHI_TEXTURE_2D);
        HL_CHECK_EQ(base->sample_type, HL_RHI_SAMPLE_FLOAT);
        HL_CHECK(!base->comparison);
        HL_CHECK_EQ(base->stages, HL_RHI_STAGE_FRAGMENT);
        HL_CHECK_EQ(shadow->binding, 3);
        HL_CHECK_EQ(shadow->sampler_binding, 4);
        HL_CHECK_EQ(shadow->sample_type, HL_RHI_SAMPLE_DEPTH);
        HL_CHECK(shadow->comparison);
        HL_CHECK_EQ(ids->binding, 5);
        HL_CHECK_EQ(ids->sampler_binding, 6);
        HL_CHECK_EQ(ids->sample_type, HL_RHI_SAMPLE_SINT);
    }
    hl_rhi_bind_group_layout_entry e[16];
    uint32_t n = hl_shader_program_layout_entries(&p, 0, false, e, 16);
    HL_CHECK_EQ(n, 7);
    if (n == 7) {
        for (uint32_t i = 0; i < 7; i++)
            HL_CHECK_EQ(e[i].binding, i);
        HL_CHECK_EQ(e[0].type, HL_RHI_BINDING_UNIFORM_BUFFER);
        HL_CHECK_EQ(e[0].min_binding_size, 32);
        HL_CHECK_EQ(e[1].type, HL_RHI_BINDING_SAMPLED_TEXTURE);
        HL_CHECK_EQ(e[2].type, HL_RHI_BINDING_SAMPLER);
        HL_CHECK_EQ(e[3].type, HL_RHI_BINDING_SAMPLED_TEXTURE);
        HL_CHECK_EQ(e[3].sample_type, HL_RHI_SAMPLE_DEPTH);
        HL_CHECK_EQ(e[4].type, HL_RHI_BINDING_COMPARISON_SAMPLER);
        HL_CHECK_EQ(e[5].sample_type, HL_RHI_SAMPLE_SINT);
        HL_CHECK_EQ(e[6].type, HL_RHI_BINDING_SAMPLER);
        HL_CHECK_EQ(e[6].visibility, HL_RHI_STAGE_FRAGMENT);
    }
    /* the gles3 artifact keeps the sampler uniforms */
    HL_CHECK(p.fragment_glsl && strstr(p.fragment_glsl, "uniform sampler2D u_base;"));
    HL_CHECK_EQ(p.plan_count, 4);
    hl_shader_program_free(&p);

    /* explicit plan */
    const hl_rhi_binding_plan_entry plan[] = {
        {HL_RHI_PLAN_SAMPLER, "u_base", 0, 0, 1},
        {HL_RHI_PLAN_SAMPLER, "u_shadow", 0, 2, 5},
        {HL_RHI_PLAN_SAMPLER, "u_ids", 0, 3, 4},
        {HL_RHI_PLAN_UNIFORM_BLOCK, "Material", 1, 3, 0},
        {HL_RHI_PLAN_UNIFORM_BLOCK, "Unused", 2, 0, 0},
    };
    HL_CHECK_OK(compile(k_tex_vs, k_tex_fs, NULL, 0, plan, 5, be, &p));
    const hl_shader_block *mat = hl_shader_program_find_block(&p, "Material");
    HL_CHECK(mat && mat->group == 1 && mat->binding == 3); /* read back from SPIR-V decorations */
    shadow = find_texture(&p, "u_shadow");
    HL_CHECK(shadow && shadow->binding == 2 && shadow->sampler_binding == 5);
    n = hl_shader_program_layout_entries(&p, 0, false, e, 16);
    HL_CHECK_EQ(n, 6);
    if (n == 6) {
        HL_CHECK_EQ(e[4].binding, 4);
        HL_CHECK_EQ(e[4].type, HL_RHI_BINDING_SAMPLER); /* u_ids' sampler */
        HL_CHECK_EQ(e[5].type, HL_RHI_BINDING_COMPARISON_SAMPLER);
    }
    n = hl_shader_program_layout_entries(&p, 1, false, e, 16);
    HL_CHECK(n == 1 && e[0].binding == 3 && e[0].type == HL_RHI_BINDING_UNIFORM_BUFFER);
    HL_CHECK_EQ(p.plan_count, 4); /* only what the program uses */
    hl_shader_program_free(&p);

    /* a plan without an entry the source uses */
    HL_CHECK_RESULT(compile(k_tex_vs, k_tex_fs, NULL, 0, plan, 3, be, &p), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "Material") != NULL);
    HL_CHECK(is_zeroed(&p));
    const hl_rhi_binding_plan_entry no_ids[] = {plan[0], plan[1], plan[3]};
    HL_CHECK_RESULT(compile(k_tex_vs, k_tex_fs, NULL, 0, no_ids, 3, be, &p), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "u_ids") != NULL);
    HL_CHECK(is_zeroed(&p));
    /* two resources on one binding */
    const hl_rhi_binding_plan_entry clash[] = {
        {HL_RHI_PLAN_SAMPLER, "u_base", 0, 0, 1},
        {HL_RHI_PLAN_SAMPLER, "u_shadow", 0, 2, 1},
        {HL_RHI_PLAN_SAMPLER, "u_ids", 0, 3, 4},
        {HL_RHI_PLAN_UNIFORM_BLOCK, "Material", 1, 3, 0},
    };
    HL_CHECK_RESULT(compile(k_tex_vs, k_tex_fs, NULL, 0, clash, 4, be, &p), HL_ERR_VALIDATION);
    HL_CHECK(is_zeroed(&p));
}

/* Vulkan GLSL cannot pass a combined sampler built from separate objects: functions taking
 * samplers get texture + sampler parameter pairs. */
static void test_sampler_functions(hl_rhi_backend be) {
    const char *fs = "#version 300 es\n"
                     "precision mediump float;\n"
                     "uniform sampler2D u_a;\n"
                     "uniform highp sampler2DShadow u_sh;\n"
                     "in vec2 v_uv;\n"
                     "out vec4 o_color;\n"
                     "vec4 tap(sampler2D s, vec2 uv);\n"
                     "float shadow(highp sampler2DShadow s, vec3 p) { return texture(s, p); }\n"
                     "vec4 tap2(sampler2D s, vec2 uv) { return tap(s, uv) * 0.5; }\n"
                     "vec4 tap(sampler2D s, vec2 uv) { return texture(s, uv); }\n"
                     "void main() { o_color = tap2(u_a, v_uv) * shadow(u_sh, vec3(v_uv, 0.5)); }\n";
    hl_shader_program p;
    HL_CHECK_OK(compile(k_tex_vs, fs, NULL, 0, NULL, 0, be, &p));
    HL_CHECK_EQ(p.reflection.texture_count, 2);
    const hl_shader_texture_binding *sh = find_texture(&p, "u_sh");
    HL_CHECK(sh && sh->comparison && sh->binding == 2 && sh->sampler_binding == 3 &&
             sh->stages == HL_RHI_STAGE_FRAGMENT);
    hl_shader_program_free(&p);
    char *out = NULL;
    HL_CHECK_OK(hl_shader_rewrite_vulkan(fs, HL_RHI_SHADER_FRAGMENT, NULL, 0, &out));
    HL_CHECK(out && strstr(out, "vec4 tap(texture2D s_tex, sampler s_smp, vec2 uv);"));
    HL_CHECK(out && strstr(out, "return tap(s_tex, s_smp, uv)"));
    HL_CHECK(out && strstr(out, "tap2(u_a_tex, u_a_smp, v_uv)"));
    HL_CHECK(out && strstr(out, "texture(sampler2DShadow(s_tex, s_smp), p)"));
    hl_shader_string_free(out);
}

static void test_rewrite(void) {
    char *out = NULL;
    HL_CHECK_OK(hl_shader_rewrite_vulkan(k_tex_fs, HL_RHI_SHADER_FRAGMENT, NULL, 0, &out));
    if (out) {
        HL_CHECK(strstr(out, "#version 450") != NULL);
        HL_CHECK(strstr(out, "layout(std140, set = 0, binding = 0) uniform Material {") != NULL);
        HL_CHECK(strstr(out, "layout(set = 0, binding = 1) uniform texture2D u_base_tex;") != NULL);
        HL_CHECK(strstr(out, "layout(set = 0, binding = 2) uniform sampler u_base_smp;") != NULL);
        HL_CHECK(strstr(out, "uniform samplerShadow u_shadow_smp;") != NULL);
        HL_CHECK(strstr(out, "uniform itexture2D u_ids_tex;") != NULL);
        HL_CHECK(strstr(out, "texture(sampler2D(u_base_tex, u_base_smp), uv) * u_base_scale") != NULL);
        HL_CHECK(strstr(out, "texture(sampler2DShadow(u_shadow_tex, u_shadow_smp), vec3") != NULL);
        HL_CHECK(strstr(out, "// sample u_base here") != NULL); /* comments untouched */
        HL_CHECK(strstr(out, "layout(location = 0) in vec2 v_uv;") != NULL);
        HL_CHECK(strstr(out, "layout(location = 0) out vec4 o_color;") != NULL);
        /* line structure kept: same number of lines */
        int a = 0, b = 0;
        for (const char *c = k_tex_fs; *c; c++)
            a += *c == '\n';
        for (const char *c = out; *c; c++)
            b += *c == '\n';
        HL_CHECK_EQ(a, b);
    }
    hl_shader_string_free(out);

    const hl_rhi_binding_plan_entry plan[] = {
        {HL_RHI_PLAN_UNIFORM_BLOCK, "Material", 2, 7, 0},
        {HL_RHI_PLAN_SAMPLER, "u_base", 1, 0, 1},
        {HL_RHI_PLAN_SAMPLER, "u_shadow", 1, 2, 3},
        {HL_RHI_PLAN_SAMPLER, "u_ids", 1, 4, 5},
    };
    out = NULL;
    HL_CHECK_OK(hl_shader_rewrite_vulkan(k_tex_fs, HL_RHI_SHADER_FRAGMENT, plan, 4, &out));
    HL_CHECK(out && strstr(out, "layout(std140, set = 2, binding = 7) uniform Material {") != NULL);
    HL_CHECK(out && strstr(out, "layout(set = 1, binding = 3) uniform samplerShadow u_shadow_smp;") != NULL);
    hl_shader_string_free(out);
    out = NULL;
    HL_CHECK_RESULT(hl_shader_rewrite_vulkan(k_tex_fs, HL_RHI_SHADER_FRAGMENT, plan, 1, &out), HL_ERR_VALIDATION);
    HL_CHECK(out == NULL);
}

static void test_preprocess(void) {
    const hl_shader_define defs[] = {{"A", NULL}, {"SCALE", "2.0"}};
    char *out = NULL;
    HL_CHECK_OK(hl_shader_preprocess("#version 300 es\nvoid main() {}\n", defs, 2, &out));
    HL_CHECK(out && strcmp(out, "#version 300 es\n#define A 1\n#define SCALE 2.0\n#line 2\nvoid main() {}\n") == 0);
    hl_shader_string_free(out);
    HL_CHECK_RESULT(hl_shader_preprocess("void main() {}\n", NULL, 0, &out), HL_ERR_SHADER);
    HL_CHECK(out == NULL);
    HL_CHECK_RESULT(hl_shader_preprocess("#version 100\nvoid main() {}\n", NULL, 0, &out), HL_ERR_SHADER);
    const hl_shader_define bad[] = {{"1X", NULL}};
    HL_CHECK_RESULT(hl_shader_preprocess("#version 300 es\n", bad, 1, &out), HL_ERR_VALIDATION);
}

static const char *k_var_fs = "#version 300 es\n"
                              "precision mediump float;\n"
                              "out vec4 o_color;\n"
                              "#ifdef MRT\n"
                              "layout(location = 1) out vec4 o_extra;\n"
                              "#endif\n"
                              "void main() {\n"
                              "    o_color = vec4(SCALE);\n"
                              "#ifdef MRT\n"
                              "    o_extra = vec4(1.0);\n"
                              "#endif\n"
                              "}\n";

static void test_defines(hl_rhi_backend be) {
    const hl_shader_define d1[] = {{"SCALE", "0.5"}};
    const hl_shader_define d2[] = {{"SCALE", "0.25"}, {"MRT", NULL}};
    hl_shader_program a, b;
    HL_CHECK_OK(compile(k_tex_vs, k_var_fs, d1, 1, NULL, 0, be, &a));
    HL_CHECK_OK(compile(k_tex_vs, k_var_fs, d2, 2, NULL, 0, be, &b));
    HL_CHECK_EQ(a.reflection.output_count, 1);
    HL_CHECK_EQ(b.reflection.output_count, 2);
    if (b.reflection.output_count == 2)
        HL_CHECK(strcmp(b.reflection.outputs[1].name, "o_extra") == 0 && b.reflection.outputs[1].location == 1);
    HL_CHECK(a.fragment_spirv_words != b.fragment_spirv_words ||
             memcmp(a.fragment_spirv, b.fragment_spirv, a.fragment_spirv_words * 4) != 0);
    HL_CHECK(a.fragment_glsl && strstr(a.fragment_glsl, "#define SCALE 0.5\n"));
    HL_CHECK(b.fragment_glsl && strstr(b.fragment_glsl, "#define MRT 1\n"));
    hl_shader_program_free(&a);
    hl_shader_program_free(&b);
    /* SCALE undefined -> compile error */
    HL_CHECK_RESULT(compile(k_tex_vs, k_var_fs, NULL, 0, NULL, 0, be, &a), HL_ERR_SHADER);
    HL_CHECK(strstr(hl_last_error(), "SCALE") != NULL);
}

static void test_errors(hl_rhi_backend be) {
    const char *fs = "#version 300 es\n"
                     "precision mediump float;\n"
                     "out vec4 o_color;\n"
                     "void main() {\n"
                     "    o_color = vec4(1.0) +;\n"
                     "}\n";
    const hl_shader_define d[] = {{"X", "1"}, {"Y", "2"}};
    hl_shader_program p;
    for (uint32_t nd = 0; nd <= 2; nd += 2) {
        HL_CHECK_RESULT(compile(k_tex_vs, fs, d, nd, NULL, 0, be, &p), HL_ERR_SHADER);
        HL_CHECK_MSG(strstr(hl_last_error(), "0:5:") != NULL, "line 5 in: %s", hl_last_error());
        HL_CHECK(strstr(hl_last_error(), "fragment") != NULL);
        HL_CHECK(is_zeroed(&p));
    }
    /* GLSL ES rules apply on both backends: no implicit int -> float */
    const char *fs2 = "#version 300 es\n"
                      "precision mediump float;\n"
                      "out vec4 o_color;\n"
                      "void main() { float x = 1; o_color = vec4(x); }\n";
    HL_CHECK_RESULT(compile(k_tex_vs, fs2, NULL, 0, NULL, 0, be, &p), HL_ERR_SHADER);
    HL_CHECK(strstr(hl_last_error(), "0:4:") != NULL);
    /* numeric uniforms must live in blocks */
    const char *fs3 = "#version 300 es\n"
                      "precision mediump float;\n"
                      "uniform vec4 u_loose;\n"
                      "out vec4 o_color;\n"
                      "void main() { o_color = u_loose; }\n";
    HL_CHECK_RESULT(compile(k_tex_vs, fs3, NULL, 0, NULL, 0, be, &p), HL_ERR_SHADER);
    HL_CHECK(strstr(hl_last_error(), "u_loose") != NULL);
    const char *vs_err = "#version 300 es\nvoid main() { gl_Position = vec4(undefined_thing); }\n";
    HL_CHECK_RESULT(compile(vs_err, NULL, NULL, 0, NULL, 0, be, &p), HL_ERR_SHADER);
    HL_CHECK(strstr(hl_last_error(), "vertex") && strstr(hl_last_error(), "undefined_thing"));
    HL_CHECK_RESULT(compile(NULL, fs, NULL, 0, NULL, 0, be, &p), HL_ERR_VALIDATION);
    HL_CHECK_RESULT(compile(k_tex_vs, k_tex_fs, NULL, 0, NULL, 0, HL_RHI_BACKEND_AUTO, &p), HL_ERR_VALIDATION);
}

static void test_varyings(hl_rhi_backend be) {
    const char *vs = "#version 300 es\n"
                     "layout(location = 1) in vec3 a_normal;\n"
                     "in vec3 a_pos;\n"
                     "in vec2 a_uv;\n"
                     "out mat2 v_m;\n"
                     "flat out highp ivec2 v_id;\n"
                     "out vec4 v_arr[2];\n"
                     "centroid out vec2 v_uv;\n"
                     "void main() {\n"
                     "    v_m = mat2(1.0); v_id = ivec2(gl_VertexID, gl_InstanceID); v_arr[0] = vec4(a_normal, 1.0);\n"
                     "    v_arr[1] = vec4(0.0); v_uv = a_uv; gl_Position = vec4(a_pos, 1.0);\n"
                     "}\n";
    const char *fs = "#version 300 es\n"
                     "precision mediump float;\n"
                     "centroid in vec2 v_uv;\n"
                     "in vec4 v_arr[2];\n"
                     "flat in highp ivec2 v_id;\n"
                     "in mat2 v_m;\n"
                     "out vec4 o_color;\n"
                     "void main() { o_color = vec4(v_uv, v_m[0]) + v_arr[1] + vec4(v_id.xyxy); }\n";
    hl_shader_program p;
    HL_CHECK_OK(compile(vs, fs, NULL, 0, NULL, 0, be, &p));
    const hl_shader_reflection *r = &p.reflection;
    HL_CHECK_EQ(r->input_count, 3);
    if (r->input_count == 3) {
        HL_CHECK(strcmp(r->inputs[0].name, "a_pos") == 0 && r->inputs[0].location == 0);
        HL_CHECK(strcmp(r->inputs[1].name, "a_normal") == 0 && r->inputs[1].location == 1);
        HL_CHECK(strcmp(r->inputs[2].name, "a_uv") == 0 && r->inputs[2].location == 2);
    }
    const char *names[] = {"v_m", "v_id", "v_arr", "v_uv"};
    const int want[] = {0, 2, 3, 5};
    for (int i = 0; i < 4; i++) {
        int lv = spirv_location(p.vertex_spirv, p.vertex_spirv_words, names[i]);
        int lf = spirv_location(p.fragment_spirv, p.fragment_spirv_words, names[i]);
        HL_CHECK_MSG(lv == want[i] && lf == want[i], "%s: vs %d fs %d want %d", names[i], lv, lf, want[i]);
    }
    HL_CHECK(p.vertex_glsl && strstr(p.vertex_glsl, "layout(location = 2) in vec2 a_uv;"));
    HL_CHECK(p.vertex_glsl && strstr(p.vertex_glsl, "centroid out vec2 v_uv;")); /* no location on varyings */
    hl_shader_program_free(&p);

    /* depth-only: no fragment stage */
    HL_CHECK_OK(compile(vs, NULL, NULL, 0, NULL, 0, be, &p));
    hl_rhi_shader_desc fd;
    hl_shader_program_fragment_desc(&p, &fd);
    HL_CHECK(!fd.glsl && !fd.spirv);
    HL_CHECK_EQ(p.reflection.output_count, 0);
    hl_shader_program_free(&p);
}

int main(void) {
    const hl_rhi_backend backends[] = {HL_RHI_BACKEND_WEBGPU, HL_RHI_BACKEND_GLES3};
    for (int i = 0; i < 2; i++) {
        test_triangle(backends[i]);
        test_samplers(backends[i]);
        test_defines(backends[i]);
        test_errors(backends[i]);
        test_varyings(backends[i]);
        test_sampler_functions(backends[i]);
    }
    /* the null backend gets both artifacts */
    hl_shader_program p;
    HL_CHECK_OK(compile(k_tri_vs, k_tri_fs, NULL, 0, NULL, 0, HL_RHI_BACKEND_NULL, &p));
    hl_rhi_shader_desc vd;
    hl_shader_program_vertex_desc(&p, &vd);
    HL_CHECK(vd.glsl && vd.spirv && vd.binding_plan_count == 2);
    hl_shader_program_free(&p);
    test_rewrite();
    test_preprocess();
    return hl_test_finish();
}
