/* Program introspection and the reflection the browser build uses (gles3 without glslang and
 * SPIRV-Cross): the driver's reflection must equal SPIRV-Cross's for every layout a shader can
 * declare, and the renderer must draw the same image with either.
 *
 * gles3: each source below compiles under the introspection check (HL_SHADER_INTROSPECTION_CHECK=1:
 * the program is also compiled the way the browser build compiles it, its GL texts and plan must
 * be equal, and the reflection the driver completes must equal SPIRV-Cross's, field by field);
 * the count of programs checked must grow by one per program. The introspection's raw answer is
 * asserted on one program (offsets and strides of std140). The demo scene rendered through the
 * three pipelines of `hilo3d render` (forward, forward-post, deferred) with the checked
 * reflection must give the same pixels as with SPIRV-Cross's (exactly) and check every program
 * the renderer built. Unused std140 blocks and samplers stay in both reflections.
 * webgpu: introspection is HL_ERR_UNSUPPORTED, before any native call. */
#include <stdlib.h>
#include <string.h>

#include "hilo3d/pipeline.h"
#include "hilo3d/renderer.h"
#include "hl_deferred.h"
#include "hl_scene_demo.h"
#include "hl_test.h"

typedef struct case_src {
    const char *label;
    const char *vs, *fs;
} case_src;

#define VS_HEAD "#version 300 es\n"
#define FS_HEAD "#version 300 es\nprecision highp float;\n"

static const case_src k_cases[] = {
    {"basic types",
     VS_HEAD "layout(std140) uniform Basic {\n"
             "  float f; vec2 v2; vec3 v3; vec4 v4; int i; ivec2 i2; ivec3 i3; ivec4 i4;\n"
             "  uint u; uvec2 u2; uvec3 u3; uvec4 u4; mat2 m2; mat3 m3; mat4 m4; bool b; bvec2 b2; bvec3 b3;\n"
             "};\n"
             "in vec3 a_position;\n"
             "void main() { gl_Position = vec4(a_position * (f + v2.x + v3.y + v4.z + float(i + i2.x + i3.y + i4.z) +\n"
             "  float(u + u2.x + u3.y + u4.z) + m2[0][0] + m3[1][1] + m4[2][2] + (b && b2.y && b3.z ? 1.0 : 0.0)), 1.0); }\n",
     FS_HEAD "layout(location = 0) out vec4 o;\nvoid main() { o = vec4(1.0); }\n"},
    {"arrays",
     VS_HEAD "layout(std140) uniform Arrays { float fa[3]; vec3 va[2]; mat4 ma[2]; mat3 m3a[2]; ivec2 ia[4]; };\n"
             "in vec3 a_position;\n"
             "void main() { gl_Position = ma[1] * vec4(a_position * fa[2] * va[1].y * m3a[1][0][0], float(ia[3].x)); }\n",
     FS_HEAD "layout(location = 0) out vec4 o;\nvoid main() { o = vec4(1.0); }\n"},
    {"structs",
     VS_HEAD "struct Light { vec3 color; float range; mat4 shadow; };\n"
             "struct Inner { vec2 a; float b[2]; };\n"
             "struct Outer { Inner inner; vec3 c; Inner more[2]; };\n"
             "layout(std140) uniform Lights { vec4 head; Light lights[3]; Light one[1]; Outer outer; float tail; };\n"
             "in vec3 a_position;\n"
             "void main() { gl_Position = lights[2].shadow * vec4(a_position * lights[1].color * one[0].range *\n"
             "  outer.more[1].b[1] * outer.inner.a.x * outer.c.y * tail, head.x); }\n",
     FS_HEAD "layout(location = 0) out vec4 o;\nvoid main() { o = vec4(1.0); }\n"},
    {"instance name, both stages",
     VS_HEAD "layout(std140) uniform Frame { mat4 viewProj; vec4 tint; } frame;\n"
             "in vec3 a_position; in vec2 a_uv; in vec4 a_unused; out vec2 v_uv;\n"
             "void main() { v_uv = a_uv; gl_Position = frame.viewProj * vec4(a_position, 1.0); }\n",
     FS_HEAD "layout(std140) uniform Frame { mat4 viewProj; vec4 tint; } frame;\n"
             "layout(std140) uniform Material { vec4 color; vec2 scale; };\n"
             "uniform sampler2D u_base; uniform samplerCube u_env; uniform highp sampler2DShadow u_shadow;\n"
             "uniform highp sampler2DArray u_layers; uniform highp isampler2D u_ids; uniform highp usampler3D u_vol;\n"
             "in vec2 v_uv; layout(location = 0) out vec4 o0; layout(location = 1) out vec4 o1;\n"
             "void main() {\n"
             "  o0 = frame.tint * color * texture(u_base, v_uv * scale) + texture(u_env, vec3(v_uv, 1.0)) +\n"
             "       vec4(texture(u_shadow, vec3(v_uv, 0.5))) + texture(u_layers, vec3(v_uv, 0.0));\n"
             "  o1 = vec4(texture(u_ids, v_uv)) + vec4(texture(u_vol, vec3(v_uv, 0.0)));\n"
             "}\n"},
    {"unused block and sampler",
     VS_HEAD "layout(std140) uniform Unused { vec4 never; mat4 m; };\n"
             "in vec3 a_position;\n"
             "void main() { gl_Position = vec4(a_position, 1.0); }\n",
     FS_HEAD "uniform sampler2D u_never; layout(location = 0) out vec4 o;\nvoid main() { o = vec4(1.0); }\n"},
    {"defines and macros",
     VS_HEAD "#define N 4\n#define DECL(t, n) t n\n"
             "#ifdef NOT_DEFINED\nlayout(std140) uniform Gone { vec4 g; };\nin vec4 a_gone;\n#endif\n"
             "layout(std140) uniform Macro { DECL(vec4, m[N]); DECL(float, s); };\n"
             "in vec3 a_position;\n"
             "void main() { gl_Position = vec4(a_position, 1.0) * m[N - 1] * s; }\n",
     NULL},
};

/* The std140 facts of the "structs" case, as the driver must report them. */
static void check_raw_introspection(hl_rhi_device *dev) {
    const case_src *c = &k_cases[2];
    hl_test_program p;
    HL_CHECK_OK(hl_test_program_create(dev, c->vs, c->fs, NULL, 0, &p));
    hl_rhi_program_info *info = NULL;
    HL_CHECK_OK(hl_rhi_program_introspect(dev, p.vs, p.fs, &info));
    if (!info) {
        hl_test_program_destroy(dev, &p);
        return;
    }
    HL_CHECK_EQ(info->block_count, 1);
    HL_CHECK(info->block_count && strcmp(info->blocks[0].name, "Lights") == 0);
    HL_CHECK(info->block_count && info->blocks[0].stages == HL_RHI_STAGE_VERTEX);
    /* head 0; Light is 80 bytes (vec3 + float, a mat4 at 16): lights[i] at 16 + 80 i; one[0] at
       256; Outer (Inner {vec2; float[2] at 16} = 48 bytes, c at 48, more[2] at 64) at 336 */
    static const struct {
        const char *name;
        uint32_t offset, array_size, array_stride, matrix_stride;
    } want[] = {
        {"head", 0, 1, 0, 0},           {"lights[0].color", 16, 1, 0, 0},   {"lights[0].range", 28, 1, 0, 0},
        {"lights[0].shadow", 32, 1, 0, 16}, {"lights[2].shadow", 192, 1, 0, 16}, {"one[0].range", 268, 1, 0, 0},
        {"outer.inner.a", 336, 1, 0, 0}, {"outer.inner.b[0]", 352, 2, 16, 0}, {"outer.c", 384, 1, 0, 0},
        {"outer.more[1].b[0]", 464, 2, 16, 0},
    };
    for (size_t w = 0; w < sizeof want / sizeof want[0]; w++) {
        const hl_rhi_program_variable *v = NULL;
        for (uint32_t i = 0; i < info->uniform_count && !v; i++)
            if (strcmp(info->uniforms[i].name, want[w].name) == 0) v = &info->uniforms[i];
        HL_CHECK_MSG(v != NULL, "introspection lists %s", want[w].name);
        if (!v) continue;
        HL_CHECK_MSG(v->block == 0 && v->offset == want[w].offset && v->array_size == want[w].array_size &&
                         v->array_stride == want[w].array_stride && v->matrix_stride == want[w].matrix_stride,
                     "%s: block %d offset %u array %u stride %u matrix stride %u", v->name, (int)v->block, v->offset,
                     v->array_size, v->array_stride, v->matrix_stride);
    }
    bool pos = false;
    for (uint32_t i = 0; i < info->input_count; i++)
        pos |= strcmp(info->inputs[i].name, "a_position") == 0 && info->inputs[i].location == 0 &&
               info->inputs[i].scalar == HL_RHI_SCALAR_FLOAT && info->inputs[i].rows == 3;
    HL_CHECK_MSG(pos, "a_position: a vec3 at location 0");
    hl_rhi_program_info_free(info);
    /* a stale handle is a validation error; a fragment shader as the vertex one too */
    hl_rhi_shader stale = p.vs;
    hl_test_program_destroy(dev, &p);
    HL_CHECK_RESULT(hl_rhi_program_introspect(dev, stale, (hl_rhi_shader){0}, &info), HL_ERR_VALIDATION);
    HL_CHECK(info == NULL);
}

/* The program of every case under the check: one more program checked each. */
static void check_cases(hl_rhi_device *dev) {
    for (size_t i = 0; i < sizeof k_cases / sizeof k_cases[0]; i++) {
        uint64_t before = hl_shader_introspection_checks();
        hl_test_program p;
        hl_result r = hl_test_program_create(dev, k_cases[i].vs, k_cases[i].fs, NULL, 0, &p);
        HL_CHECK_MSG(r == HL_OK, "%s: %s: %s", k_cases[i].label, hl_result_name(r), r ? hl_last_error() : "");
        HL_CHECK_MSG(hl_shader_introspection_checks() == before + 1, "%s: checked once", k_cases[i].label);
        HL_CHECK_MSG(r || !p.prog.reflect_on_device, "%s: reflection completed", k_cases[i].label);
        if (!r) hl_test_program_destroy(dev, &p);
    }
    /* the reflection of the structs case, as SPIR-V and the driver both give it */
    hl_test_program p;
    HL_CHECK_OK(hl_test_program_create(dev, k_cases[2].vs, k_cases[2].fs, NULL, 0, &p));
    const hl_shader_block *b = hl_shader_program_find_block(&p.prog, "Lights");
    HL_CHECK(b && b->member_count == 5);
    if (b && b->member_count == 5) {
        HL_CHECK(!strcmp(b->members[1].name, "lights") && b->members[1].type == HL_SHADER_TYPE_STRUCT &&
                 b->members[1].offset == 16 && b->members[1].array_size == 3 && b->members[1].array_stride == 80 &&
                 b->members[1].size == 240);
        HL_CHECK(!strcmp(b->members[2].name, "one") && b->members[2].array_size == 1 && b->members[2].array_stride == 80);
        HL_CHECK(!strcmp(b->members[3].name, "outer") && b->members[3].offset == 336 && b->members[3].array_size == 0 &&
                 b->members[3].size == 160);
        HL_CHECK(!strcmp(b->members[4].name, "tail") && b->members[4].type == HL_SHADER_TYPE_FLOAT &&
                 b->members[4].offset == 496 && b->size == 512);
    }
    if (b) hl_test_program_destroy(dev, &p);
}

/* A program compiled without the check: introspection sees the explicit locations the
 * toolchain gave; the GL text and reflection come from the SPIR-V path. */
static void check_unchecked(hl_rhi_device *dev) {
    unsetenv("HL_SHADER_INTROSPECTION_CHECK");
    hl_test_program p;
    HL_CHECK_OK(hl_test_program_create(dev, k_cases[3].vs, k_cases[3].fs, NULL, 0, &p));
    HL_CHECK(!p.prog.reflect_on_device && !p.prog.expected);
    hl_rhi_program_info *info = NULL;
    HL_CHECK_OK(hl_rhi_program_introspect(dev, p.vs, p.fs, &info));
    uint32_t uv = 0, blocks = 0;
    for (uint32_t i = 0; info && i < info->input_count; i++)
        if (!strcmp(info->inputs[i].name, "a_uv")) uv = (uint32_t)info->inputs[i].location + 1u;
    for (uint32_t i = 0; info && i < info->block_count; i++)
        blocks |= (!strcmp(info->blocks[i].name, "Frame") ? 1u : !strcmp(info->blocks[i].name, "Material") ? 2u : 0u);
    const hl_shader_io *in_uv = NULL;
    for (uint32_t i = 0; i < p.prog.reflection.input_count; i++)
        if (!strcmp(p.prog.reflection.inputs[i].name, "a_uv")) in_uv = &p.prog.reflection.inputs[i];
    HL_CHECK(in_uv && uv == in_uv->location + 1u);
    HL_CHECK_EQ(blocks, 3);
    hl_rhi_program_info_free(info);
    hl_test_program_destroy(dev, &p);
    setenv("HL_SHADER_INTROSPECTION_CHECK", "1", 1);
}

static uint8_t *render_demo(const char *pipeline, uint32_t w, uint32_t h) {
    hl_renderer_desc rd = {0};
    rd.backend = HL_BACKEND_GLES3;
    rd.width = w;
    rd.height = h;
    rd.sample_count = 4;
    hl_pipeline_factory *factory = NULL;
    if (!strcmp(pipeline, "forward-post")) {
        hl_forward_feature_desc f[3];
        hl_forward_bloom(NULL, &f[0]);
        hl_forward_tone_map(NULL, &f[1]);
        hl_forward_fxaa(&f[2]);
        hl_forward_pipeline_desc fd = {f, 3};
        HL_CHECK_OK(hl_forward_pipeline_factory_create(&fd, &factory));
    } else if (!strcmp(pipeline, "deferred")) {
        hl_deferred_desc dd = {.bloom = true};
        HL_CHECK_OK(hl_deferred_pipeline_factory_create(&dd, &factory));
    }
    rd.pipeline = factory;
    hl_renderer *r = NULL;
    HL_CHECK_OK(hl_renderer_create(&rd, &r));
    if (factory && !strcmp(pipeline, "deferred")) hl_deferred_pipeline_factory_destroy(factory);
    else if (factory) hl_forward_pipeline_factory_destroy(factory);
    if (!r) return NULL;
    hl_scene_demo demo;
    uint8_t *px = malloc((size_t)w * h * 4);
    hl_result res = hl_scene_demo_create((float)w / (float)h, &demo);
    HL_CHECK_OK(res);
    hl_environment *env = NULL;
    if (!res) HL_CHECK_OK(res = hl_environment_create_default(&env));
    if (!res) {
        hl_environment_set_intensity(env, 0.4f);
        hl_stage_set_environment(demo.stage, env);
        hl_environment_release(env);
    }
    for (int f = 0; !res && f < 2; f++) HL_CHECK_OK(res = hl_renderer_render(r, demo.stage, demo.camera));
    if (!res && px) HL_CHECK_OK(res = hl_renderer_read_pixels(r, px, (size_t)w * h * 4));
    if (res || !px) {
        free(px);
        px = NULL;
    }
    hl_scene_demo_destroy(&demo);
    hl_renderer_destroy(r);
    return px;
}

static void check_renderer(void) {
    static const char *const pipelines[] = {"forward", "forward-post", "deferred"};
    enum { W = 96, H = 54 };
    for (size_t i = 0; i < sizeof pipelines / sizeof pipelines[0]; i++) {
        unsetenv("HL_SHADER_INTROSPECTION_CHECK");
        uint8_t *ref = render_demo(pipelines[i], W, H);
        setenv("HL_SHADER_INTROSPECTION_CHECK", "1", 1);
        uint64_t before = hl_shader_introspection_checks();
        uint8_t *got = render_demo(pipelines[i], W, H);
        uint64_t checked = hl_shader_introspection_checks() - before;
        printf("%s: %llu programs checked\n", pipelines[i], (unsigned long long)checked);
        HL_CHECK_MSG(checked >= 3, "%s: the renderer's programs were checked (%llu)", pipelines[i],
                     (unsigned long long)checked);
        uint32_t diff = 0;
        for (size_t k = 0; ref && got && k < (size_t)W * H * 4; k++) diff += ref[k] != got[k];
        HL_CHECK_MSG(ref && got && diff == 0, "%s: the same image with the driver's reflection (%u bytes differ)",
                     pipelines[i], diff);
        free(ref);
        free(got);
    }
}

int main(int argc, char **argv) {
    hl_rhi_backend be = hl_test_backend_arg(argc, argv, HL_RHI_BACKEND_GLES3);
    hl_rhi_device *dev = hl_test_device(be);
    if (!dev) return hl_test_finish();
    if (be != HL_RHI_BACKEND_GLES3) {
        hl_test_program p;
        HL_CHECK_OK(hl_test_program_create(dev, k_cases[0].vs, k_cases[0].fs, NULL, 0, &p));
        hl_rhi_program_info *info = (hl_rhi_program_info *)&p; /* must be reset to NULL */
        uint64_t calls = hl_rhi_device_stats(dev)->native_calls;
        HL_CHECK_RESULT(hl_rhi_program_introspect(dev, p.vs, p.fs, &info), HL_ERR_UNSUPPORTED);
        HL_CHECK(info == NULL);
        HL_CHECK_EQ(hl_rhi_device_stats(dev)->native_calls, calls);
        hl_test_program_destroy(dev, &p);
        hl_rhi_device_destroy(dev);
        return hl_test_finish();
    }
    setenv("HL_SHADER_INTROSPECTION_CHECK", "1", 1);
    check_raw_introspection(dev);
    check_cases(dev);
    check_unchecked(dev);
    hl_rhi_device_destroy(dev);
    check_renderer();
    return hl_test_finish();
}
