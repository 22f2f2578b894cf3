/* hl_shader_program: GLSL ES 3.00 vertex + fragment -> artifacts for one backend + reflection.
 *
 * Both backends run the same steps (so both report the same errors and get the same
 * reflection): inject defines, validate as GLSL ES 3.00, scan the active declarations, plan
 * bindings and locations, rewrite to Vulkan GLSL, compile to SPIR-V, reflect. gles3 keeps the
 * GLSL ES text (with explicit vertex-input / fragment-output locations added), webgpu the SPIR-V.
 *
 * Without glslang (HL_SHADER_NO_GLSLANG: the browser build) only gles3 compiles: the budget
 * check's own expansion stands in for glslang's preprocessor, the GL driver validates when the
 * shaders are created, and the reflection comes from the declarations (textures, inputs,
 * outputs, which blocks exist) and from the driver (the blocks' sizes and members,
 * shader_introspect.c). */
#include <stdio.h>
#include <string.h>

#include "shader_internal.h"

/* One allocation: the entries followed by their names. */
static hl_rhi_binding_plan_entry *copy_plan(const hl_rhi_binding_plan_entry *plan, uint32_t count) {
    size_t bytes = (size_t)count * sizeof *plan;
    for (uint32_t i = 0; i < count; i++)
        bytes += strlen(plan[i].name) + 1;
    hl_rhi_binding_plan_entry *out = hl__malloc(bytes ? bytes : 1);
    if (!out)
        return NULL;
    char *names = (char *)(out + count);
    for (uint32_t i = 0; i < count; i++) {
        out[i] = plan[i];
        size_t n = strlen(plan[i].name) + 1;
        memcpy(names, plan[i].name, n);
        out[i].name = names;
        names += n;
    }
    return out;
}

typedef struct stage_work {
    hl_rhi_shader_stage stage;
    const char *source;
    char *pp;
    char *expanded;
    char *vulkan;
    hl__sh_stage decl;
} stage_work;

void hl_shader_program_free(hl_shader_program *p) {
    if (!p)
        return;
    hl__free(p->vertex_glsl);
    hl__free(p->fragment_glsl);
    hl__free(p->vertex_spirv);
    hl__free(p->fragment_spirv);
    hl__free(p->plan);
    hl__reflection_free(&p->reflection);
    if (p->expected) {
        hl__reflection_free(p->expected);
        hl__free(p->expected);
    }
    hl__free(p->info_log);
    memset(p, 0, sizeof *p);
}

/* The steps every backend shares: defines and the budget, the expansion the declaration scan
 * reads (glslang's preprocessor with its GLSL ES 3.00 validation, or without glslang the
 * budget check's own expansion), locations, the binding plan and, unless the program is a
 * storage shader, the gles3 artifacts gl[]. */
static hl_result compile_front(const hl_shader_program_desc *desc, const char *what, bool use_glslang, stage_work *w,
                               uint32_t n, hl_rhi_binding_plan_entry **plan, uint32_t *plan_count, char *gl[2],
                               hl__sb *warnings) {
    hl_result r = HL_OK;
    for (uint32_t s = 0; s < n && !r; s++) {
        r = hl__preprocess(w[s].source, desc->defines, desc->define_count, desc->storage, &w[s].pp);
        if (r) {
            /* name the stage in the message */
            char msg[512];
            snprintf(msg, sizeof msg, "%s", hl_last_error());
            r = hl__fail(r, "%s: %s shader: %s", what, hl__stage_name(w[s].stage), msg);
            break;
        }
#ifdef HL_SHADER_NO_GLSLANG
        (void)use_glslang;
        (void)warnings;
        r = hl__pp_expand(w[s].pp, &w[s].expanded);
#else
        r = use_glslang ? hl__glslang_expand(w[s].pp, w[s].stage, true, what, &w[s].expanded, warnings)
                        : hl__pp_expand(w[s].pp, &w[s].expanded);
#endif
        if (!r)
            r = hl__scan_stage(w[s].expanded, w[s].stage, &w[s].decl);
        if (!r)
            r = hl__assign_locations(&w[s].decl, w[s].stage, s == 1 ? &w[0].decl : NULL);
    }
    if (!r) {
        const hl__sh_stage *stages[2] = {&w[0].decl, &w[1].decl};
        r = hl__build_plan(stages, n, desc->bindings, desc->binding_count, plan, plan_count);
    }
    for (uint32_t s = 0; s < n && !r && !desc->storage; s++) /* storage shaders have no GL artifact */
        r = hl__rewrite(w[s].pp, w[s].stage, false, &w[s].decl, *plan, *plan_count, &gl[s]);
    return r;
}

static void work_free(stage_work *w) {
    for (uint32_t s = 0; s < 2; s++) {
        hl__free(w[s].pp);
        hl__free(w[s].expanded);
        hl__free(w[s].vulkan);
        memset(&w[s].decl, 0, sizeof w[s].decl);
        w[s].pp = w[s].expanded = w[s].vulkan = NULL;
    }
}

/* A compiled program takes its binding plan and GLSL (gl[] is emptied: the program owns them). */
static hl_result adopt_outputs(hl_shader_program *out, const hl_rhi_binding_plan_entry *plan, uint32_t plan_count,
                               hl_rhi_backend backend, char *gl[2], const char *what) {
    out->plan = copy_plan(plan, plan_count);
    out->plan_count = plan_count;
    if (!out->plan) return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: out of memory", what);
    out->backend = backend;
    out->vertex_glsl = gl[0];
    out->fragment_glsl = gl[1];
    gl[0] = gl[1] = NULL;
    return HL_OK;
}

/* The gles3 program whose reflection the driver completes (hl_shader_program_create_shaders):
 * the front steps, then the reflection the declarations give. */
static hl_result compile_for_driver(const hl_shader_program_desc *desc, const char *what, stage_work *w, uint32_t n,
                                    hl_shader_program *out) {
    hl_rhi_binding_plan_entry *plan = NULL;
    uint32_t plan_count = 0;
    char *gl[2] = {NULL, NULL};
    hl_result r = compile_front(desc, what, false, w, n, &plan, &plan_count, gl, NULL);
    if (!r)
        r = hl__reflect_declared(&w[0].decl, n == 2 ? &w[1].decl : NULL, plan, plan_count, &out->reflection);
    if (!r) r = adopt_outputs(out, plan, plan_count, HL_RHI_BACKEND_GLES3, gl, what);
    if (!r) out->reflect_on_device = true;
    hl__free(gl[0]);
    hl__free(gl[1]);
    hl__free(plan);
    return r;
}

#ifndef HL_SHADER_NO_GLSLANG
/* The introspection check (HL_SHADER_INTROSPECTION_CHECK=1): a gles3 program compiled with
 * glslang and SPIRV-Cross is compiled again the way the browser build compiles it; its GL
 * texts and plan must be the same, and its reflection, completed by the driver when the
 * shaders are created, must equal SPIRV-Cross's (kept in p->expected until then). */
static hl_result introspection_check_swap(const hl_shader_program_desc *desc, const char *what, stage_work *w,
                                          uint32_t n, hl_shader_program *p) {
    hl_shader_program alt;
    memset(&alt, 0, sizeof alt);
    hl_result r = compile_for_driver(desc, what, w, n, &alt);
    if (r) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", hl_last_error());
        hl_shader_program_free(&alt);
        return hl__fail(r, "%s: introspection check: the compile without glslang failed where glslang's passed: %s",
                        what, msg);
    }
    const char *diff = NULL;
    if (strcmp(alt.vertex_glsl, p->vertex_glsl) != 0)
        diff = "the vertex GLSL";
    else if ((alt.fragment_glsl == NULL) != (p->fragment_glsl == NULL) ||
             (alt.fragment_glsl && strcmp(alt.fragment_glsl, p->fragment_glsl) != 0))
        diff = "the fragment GLSL";
    else if (alt.plan_count != p->plan_count)
        diff = "the binding plan's length";
    for (uint32_t i = 0; !diff && i < p->plan_count; i++) {
        const hl_rhi_binding_plan_entry *a = &alt.plan[i], *b = &p->plan[i];
        if (a->kind != b->kind || strcmp(a->name, b->name) != 0 || a->group != b->group || a->binding != b->binding ||
            a->sampler_binding != b->sampler_binding)
            diff = "the binding plan";
    }
    if (diff) {
        hl_shader_program_free(&alt);
        return hl__fail(HL_ERR_SHADER, "%s: introspection check: %s differs between the compiles with and without "
                        "glslang", what, diff);
    }
    p->expected = hl__calloc(1, sizeof *p->expected);
    if (!p->expected) {
        hl_shader_program_free(&alt);
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: out of memory", what);
    }
    *p->expected = p->reflection;
    p->reflection = alt.reflection;
    memset(&alt.reflection, 0, sizeof alt.reflection);
    p->reflect_on_device = true;
    hl_shader_program_free(&alt);
    return HL_OK;
}
#endif

hl_result hl_shader_program_compile(const hl_shader_program_desc *desc, hl_rhi_backend backend,
                                    hl_shader_program *out) {
    if (!out)
        return hl__fail(HL_ERR_VALIDATION, "hl_shader_program_compile: out is NULL");
    memset(out, 0, sizeof *out);
    if (!desc)
        return hl__fail(HL_ERR_VALIDATION, "hl_shader_program_compile: desc is NULL");
    if (!desc->vertex_source)
        return hl__fail(HL_ERR_VALIDATION, "hl_shader_program_desc.vertex_source is NULL");
    if (backend != HL_RHI_BACKEND_WEBGPU && backend != HL_RHI_BACKEND_GLES3 && backend != HL_RHI_BACKEND_NULL)
        return hl__fail(HL_ERR_VALIDATION, "hl_shader_program_compile: backend must be webgpu, gles3 or null (got %d)",
                        (int)backend);
    if (desc->define_count && !desc->defines)
        return hl__fail(HL_ERR_VALIDATION, "hl_shader_program_desc.defines is NULL with define_count %u",
                        desc->define_count);
    if (desc->binding_count && !desc->bindings)
        return hl__fail(HL_ERR_VALIDATION, "hl_shader_program_desc.bindings is NULL with binding_count %u",
                        desc->binding_count);

    char what[96];
    snprintf(what, sizeof what, "shader program '%s'", desc->label ? desc->label : "(unlabelled)");
    if (desc->storage && backend != HL_RHI_BACKEND_WEBGPU)
        return hl__fail(HL_ERR_UNSUPPORTED, "%s: storage shaders (GLSL ES 3.10 with storage blocks) compile for webgpu "
                        "only", what);
#ifdef HL_SHADER_NO_GLSLANG
    if (backend != HL_RHI_BACKEND_GLES3)
        return hl__fail(HL_ERR_UNSUPPORTED, "%s: this build of the shader toolchain has no glslang (the browser build): "
                        "it compiles for gles3 only (asked for %s)", what, hl_rhi_backend_name(backend));
#endif
    uint32_t n = desc->fragment_source ? 2 : 1;
    stage_work *w = hl__calloc(2, sizeof *w);
    if (!w)
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: out of memory", what);
    w[0].stage = HL_RHI_SHADER_VERTEX;
    w[0].source = desc->vertex_source;
    w[1].stage = HL_RHI_SHADER_FRAGMENT;
    w[1].source = desc->fragment_source;

    hl_result r = HL_OK;
#ifdef HL_SHADER_NO_GLSLANG
    r = compile_for_driver(desc, what, w, n, out);
#else
    hl__sb warnings = {0};
    hl_rhi_binding_plan_entry *plan = NULL;
    uint32_t plan_count = 0;
    char *gl[2] = {NULL, NULL};
    r = compile_front(desc, what, true, w, n, &plan, &plan_count, gl, &warnings);
    for (uint32_t s = 0; s < n && !r; s++)
        r = hl__rewrite(w[s].pp, w[s].stage, true, &w[s].decl, plan, plan_count, &w[s].vulkan);
    if (!r)
        r = hl__glslang_spirv(w[0].vulkan, n == 2 ? w[1].vulkan : NULL, what, &out->vertex_spirv,
                              &out->vertex_spirv_words, &out->fragment_spirv, &out->fragment_spirv_words, &warnings);
    if (!r)
        r = hl__reflect(out->vertex_spirv, out->vertex_spirv_words, out->fragment_spirv, out->fragment_spirv_words,
                        &w[0].decl, n == 2 ? &w[1].decl : NULL, plan, plan_count, &out->reflection);
    if (!r) r = adopt_outputs(out, plan, plan_count, backend, gl, what);
    if (!r && warnings.len) out->info_log = hl__sb_take(&warnings);
    if (!r && backend == HL_RHI_BACKEND_GLES3 && hl__shader_introspection_check()) {
        work_free(w);
        r = introspection_check_swap(desc, what, w, n, out);
    }
    hl__free(gl[0]);
    hl__free(gl[1]);
    hl__free(plan);
    hl__sb_free(&warnings);
#endif
    work_free(w);
    hl__free(w);
    if (r)
        hl_shader_program_free(out);
    else
        snprintf(out->label, sizeof out->label, "%s", desc->label ? desc->label : "(unlabelled)");
    return r;
}

static void fill_desc(const hl_shader_program *p, hl_rhi_shader_stage stage, hl_rhi_shader_desc *out) {
    memset(out, 0, sizeof *out);
    out->stage = stage;
    if (!p)
        return;
    bool vs = stage == HL_RHI_SHADER_VERTEX;
    bool gl = p->backend == HL_RHI_BACKEND_GLES3 || p->backend == HL_RHI_BACKEND_NULL;
    bool spv = p->backend == HL_RHI_BACKEND_WEBGPU || p->backend == HL_RHI_BACKEND_NULL;
    if (gl) {
        out->glsl = vs ? p->vertex_glsl : p->fragment_glsl;
        out->binding_plan = p->plan;
        out->binding_plan_count = p->plan_count;
    }
    if (spv) {
        out->spirv = vs ? p->vertex_spirv : p->fragment_spirv;
        out->spirv_word_count = vs ? p->vertex_spirv_words : p->fragment_spirv_words;
    }
    out->entry_point = "main";
    if (stage == HL_RHI_SHADER_FRAGMENT) { /* the colour locations it writes (pipeline checks) */
        out->outputs_known = true;
        for (uint32_t i = 0; i < p->reflection.output_count; i++)
            if (p->reflection.outputs[i].location < 32) out->output_mask |= 1u << p->reflection.outputs[i].location;
    }
}

void hl_shader_program_vertex_desc(const hl_shader_program *p, hl_rhi_shader_desc *out) {
    if (out)
        fill_desc(p, HL_RHI_SHADER_VERTEX, out);
}

void hl_shader_program_fragment_desc(const hl_shader_program *p, hl_rhi_shader_desc *out) {
    if (out)
        fill_desc(p, HL_RHI_SHADER_FRAGMENT, out);
}
