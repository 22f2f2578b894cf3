/* hl_shader_program: GLSL ES 3.00 vertex + fragment -> artifacts for one backend + reflection.
 *
 * Both backends run the same steps (so both report the same errors and get the same
 * reflection): inject defines, validate as GLSL ES 3.00, scan the active declarations, plan
 * bindings and locations, rewrite to Vulkan GLSL, compile to SPIR-V, reflect. gles3 keeps the
 * GLSL ES text (with explicit vertex-input / fragment-output locations added), webgpu the SPIR-V. */
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
    hl__free(p->info_log);
    memset(p, 0, sizeof *p);
}

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
    uint32_t n = desc->fragment_source ? 2 : 1;
    stage_work *w = hl__calloc(2, sizeof *w);
    if (!w)
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: out of memory", what);
    w[0].stage = HL_RHI_SHADER_VERTEX;
    w[0].source = desc->vertex_source;
    w[1].stage = HL_RHI_SHADER_FRAGMENT;
    w[1].source = desc->fragment_source;

    hl_result r = HL_OK;
    hl__sb warnings = {0};
    hl_rhi_binding_plan_entry *plan = NULL;
    uint32_t plan_count = 0;
    char *gl[2] = {NULL, NULL};
    for (uint32_t s = 0; s < n && !r; s++) {
        r = hl__preprocess(w[s].source, desc->defines, desc->define_count, desc->storage, &w[s].pp);
        if (r) {
            /* name the stage in the message */
            char msg[512];
            snprintf(msg, sizeof msg, "%s", hl_last_error());
            r = hl__fail(r, "%s: %s shader: %s", what, hl__stage_name(w[s].stage), msg);
            break;
        }
        r = hl__glslang_expand(w[s].pp, w[s].stage, true, what, &w[s].expanded, &warnings);
        if (!r)
            r = hl__scan_stage(w[s].expanded, w[s].stage, &w[s].decl);
        if (!r)
            r = hl__assign_locations(&w[s].decl, w[s].stage, s == 1 ? &w[0].decl : NULL);
    }
    if (!r) {
        const hl__sh_stage *stages[2] = {&w[0].decl, &w[1].decl};
        r = hl__build_plan(stages, n, desc->bindings, desc->binding_count, &plan, &plan_count);
    }
    for (uint32_t s = 0; s < n && !r; s++) {
        r = hl__rewrite(w[s].pp, w[s].stage, true, &w[s].decl, plan, plan_count, &w[s].vulkan);
        if (!r && !desc->storage) /* storage shaders have no GL artifact */
            r = hl__rewrite(w[s].pp, w[s].stage, false, &w[s].decl, plan, plan_count, &gl[s]);
    }
    if (!r)
        r = hl__glslang_spirv(w[0].vulkan, n == 2 ? w[1].vulkan : NULL, what, &out->vertex_spirv,
                              &out->vertex_spirv_words, &out->fragment_spirv, &out->fragment_spirv_words, &warnings);
    if (!r)
        r = hl__reflect(out->vertex_spirv, out->vertex_spirv_words, out->fragment_spirv, out->fragment_spirv_words,
                        &w[0].decl, n == 2 ? &w[1].decl : NULL, plan, plan_count, &out->reflection);
    if (!r) {
        out->plan = copy_plan(plan, plan_count);
        out->plan_count = plan_count;
        if (!out->plan)
            r = hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: out of memory", what);
    }
    if (!r) {
        out->backend = backend;
        out->vertex_glsl = gl[0];
        out->fragment_glsl = gl[1];
        gl[0] = gl[1] = NULL;
        if (warnings.len)
            out->info_log = hl__sb_take(&warnings);
    }
    for (uint32_t s = 0; s < 2; s++) {
        hl__free(w[s].pp);
        hl__free(w[s].expanded);
        hl__free(w[s].vulkan);
        hl__free(gl[s]);
    }
    hl__free(w);
    hl__free(plan);
    hl__sb_free(&warnings);
    if (r)
        hl_shader_program_free(out);
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
