/* glslang through its C interface: GLSL ES 3.00 preprocessing + validation, and Vulkan GLSL
 * 4.50 -> SPIR-V 1.3 (Vulkan 1.1 semantics, which Dawn accepts). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <glslang/Include/glslang_c_interface.h>
#include <glslang/Public/resource_limits_c.h>
#include <spirv-tools/libspirv.h>

#include "shader_internal.h"

static pthread_once_t g_glslang_once = PTHREAD_ONCE_INIT;
static int g_glslang_ok;

/* glslang keeps process-wide tables; it is initialised once and never finalised, because
 * other threads may still compile. */
static void glslang_init_once(void) { g_glslang_ok = glslang_initialize_process(); }

static hl_result glslang_ready(void) {
    pthread_once(&g_glslang_once, glslang_init_once);
    return g_glslang_ok ? HL_OK : hl__fail(HL_ERR_SHADER, "shader: glslang_initialize_process failed");
}

const char *hl__stage_name(hl_rhi_shader_stage stage) {
    switch (stage) {
    case HL_RHI_SHADER_VERTEX: return "vertex";
    case HL_RHI_SHADER_FRAGMENT: return "fragment";
    case HL_RHI_SHADER_COMPUTE: return "compute";
    }
    return "?";
}

static glslang_stage_t to_glslang_stage(hl_rhi_shader_stage stage) {
    return stage == HL_RHI_SHADER_FRAGMENT ? GLSLANG_STAGE_FRAGMENT : GLSLANG_STAGE_VERTEX;
}

static glslang_input_t make_input(hl_rhi_shader_stage stage, const char *code, bool vulkan) {
    glslang_input_t in;
    memset(&in, 0, sizeof in);
    in.language = GLSLANG_SOURCE_GLSL;
    in.stage = to_glslang_stage(stage);
    in.client = vulkan ? GLSLANG_CLIENT_VULKAN : GLSLANG_CLIENT_NONE;
    in.target_language = vulkan ? GLSLANG_TARGET_SPV : GLSLANG_TARGET_NONE;
    if (vulkan) { /* zero (none) otherwise */
        in.client_version = GLSLANG_TARGET_VULKAN_1_1;
        in.target_language_version = GLSLANG_TARGET_SPV_1_3;
    }
    in.code = code;
    in.default_version = vulkan ? 450 : 300;
    in.default_profile = vulkan ? GLSLANG_NO_PROFILE : GLSLANG_ES_PROFILE;
    in.messages = vulkan ? (glslang_messages_t)(GLSLANG_MSG_SPV_RULES_BIT | GLSLANG_MSG_VULKAN_RULES_BIT)
                         : GLSLANG_MSG_DEFAULT_BIT;
    in.resource = glslang_default_resource();
    return in;
}

/* glslang logs end in blank lines; messages read better without them. */
static size_t trimmed_len(const char *log) {
    size_t n = log ? strlen(log) : 0;
    while (n && (log[n - 1] == '\n' || log[n - 1] == ' ' || log[n - 1] == '\r'))
        n--;
    return n;
}

static void add_warnings(hl__sb *warnings, const char *prefix, const char *log) {
    size_t n = trimmed_len(log);
    if (!warnings || !n)
        return;
    hl__sb_printf(warnings, "%s: %.*s\n", prefix, (int)n, log);
}

static hl_result shader_fail(const char *what, hl_rhi_shader_stage stage, const char *step, const char *log) {
    size_t n = trimmed_len(log);
    return hl__fail(HL_ERR_SHADER, "%s: %s shader %s failed: %.*s", what, hl__stage_name(stage), step, (int)n,
                    n ? log : "(no log)");
}

hl_result hl__glslang_expand(const char *pp, hl_rhi_shader_stage stage, bool validate, const char *what,
                             char **expanded, hl__sb *warnings) {
    *expanded = NULL;
    hl_result r = glslang_ready();
    if (r)
        return r;
    glslang_input_t in = make_input(stage, pp, false);
    glslang_shader_t *sh = glslang_shader_create(&in);
    if (!sh)
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: glslang_shader_create failed", what);
    if (!glslang_shader_preprocess(sh, &in)) {
        r = shader_fail(what, stage, "preprocessing", glslang_shader_get_info_log(sh));
    } else {
        *expanded = hl__strdup(glslang_shader_get_preprocessed_code(sh));
        if (!*expanded)
            r = hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: out of memory", what);
        else if (validate && !glslang_shader_parse(sh, &in))
            r = shader_fail(what, stage, "compilation (GLSL ES 3.00)", glslang_shader_get_info_log(sh));
        else
            add_warnings(warnings, hl__stage_name(stage), glslang_shader_get_info_log(sh));
    }
    if (r) {
        hl__free(*expanded);
        *expanded = NULL;
    }
    glslang_shader_delete(sh);
    return r;
}

/* SPIRV-Tools validation for the Vulkan 1.1 environment Dawn consumes. */
static hl_result validate_spirv(const uint32_t *w, size_t n, const char *what, hl_rhi_shader_stage stage) {
    spv_context ctx = spvContextCreate(SPV_ENV_VULKAN_1_1);
    if (!ctx)
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: spvContextCreate failed", what);
    spv_diagnostic diag = NULL;
    spv_const_binary_t bin = {w, n};
    spv_result_t res = spvValidate(ctx, &bin, &diag);
    hl_result r = HL_OK;
    if (res != SPV_SUCCESS)
        r = hl__fail(HL_ERR_SHADER, "%s: %s shader: generated SPIR-V is invalid: %s", what, hl__stage_name(stage),
                     diag && diag->error ? diag->error : "(no diagnostic)");
    spvDiagnosticDestroy(diag);
    spvContextDestroy(ctx);
    return r;
}

/* glslang (12) appends each generated module to the program's word vector without clearing
 * it, so a stage's module starts where the previous one ended: `*skip` tracks that. */
static hl_result take_spirv(glslang_program_t *prog, hl_rhi_shader_stage stage, const char *what, uint32_t **words,
                            size_t *count, size_t *skip, hl__sb *warnings) {
    /* glslang's own validation would see the modules concatenated: validate each below */
    glslang_spv_options_t opts;
    memset(&opts, 0, sizeof opts);
    opts.disable_optimizer = true;
    glslang_program_SPIRV_generate_with_options(prog, to_glslang_stage(stage), &opts);
    const char *msgs = glslang_program_SPIRV_get_messages(prog);
    add_warnings(warnings, hl__stage_name(stage), msgs);
    size_t total = glslang_program_SPIRV_get_size(prog);
    const unsigned *all = glslang_program_SPIRV_get_ptr(prog);
    size_t from = *skip;
    if (total <= from + 5 || !all || all[from] != 0x07230203u)
        from = 0; /* a glslang that replaces the vector instead */
    size_t n = total - from;
    *skip = total;
    if (n < 5)
        return hl__fail(HL_ERR_SHADER, "%s: %s shader: glslang produced no SPIR-V (%s)", what, hl__stage_name(stage),
                        msgs ? msgs : "no message");
    uint32_t *w = hl__malloc(n * sizeof *w);
    if (!w)
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: out of memory for SPIR-V", what);
    memcpy(w, all + from, n * sizeof *w);
    if (w[0] != 0x07230203u) {
        hl__free(w);
        return hl__fail(HL_ERR_SHADER, "%s: %s shader: SPIR-V has a bad magic number", what, hl__stage_name(stage));
    }
    hl_result r = validate_spirv(w, n, what, stage);
    if (r) {
        hl__free(w);
        return r;
    }
    *words = w;
    *count = n;
    return HL_OK;
}

hl_result hl__glslang_spirv(const char *vs, const char *fs, const char *what, uint32_t **vs_words,
                            size_t *vs_count, uint32_t **fs_words, size_t *fs_count, hl__sb *warnings) {
    *vs_words = *fs_words = NULL;
    *vs_count = *fs_count = 0;
    hl_result r = glslang_ready();
    if (r)
        return r;
    const char *src[2] = {vs, fs};
    hl_rhi_shader_stage stages[2] = {HL_RHI_SHADER_VERTEX, HL_RHI_SHADER_FRAGMENT};
    glslang_input_t in[2];
    glslang_shader_t *sh[2] = {NULL, NULL};
    glslang_program_t *prog = NULL;
    for (int s = 0; s < 2 && !r; s++) {
        if (!src[s])
            continue;
        /* the rewrite can select other #if branches (no GL_ES in GLSL 4.50) and lengthens
         * sampler names in macro bodies: the rewritten text gets its own budget check */
        r = hl__pp_guard(src[s], true, NULL, NULL);
        if (r) {
            char msg[512];
            snprintf(msg, sizeof msg, "%s", hl_last_error());
            r = hl__fail(r, "%s: %s shader (Vulkan GLSL rewrite): %s", what, hl__stage_name(stages[s]), msg);
            break;
        }
        in[s] = make_input(stages[s], src[s], true);
        sh[s] = glslang_shader_create(&in[s]);
        if (!sh[s])
            r = hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: glslang_shader_create failed", what);
        else if (!glslang_shader_preprocess(sh[s], &in[s]))
            r = shader_fail(what, stages[s], "preprocessing (Vulkan GLSL rewrite)", glslang_shader_get_info_log(sh[s]));
        else if (!glslang_shader_parse(sh[s], &in[s]))
            r = shader_fail(what, stages[s], "compilation (Vulkan GLSL rewrite)", glslang_shader_get_info_log(sh[s]));
    }
    if (!r) {
        prog = glslang_program_create();
        if (!prog)
            r = hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: glslang_program_create failed", what);
    }
    if (!r) {
        for (int s = 0; s < 2; s++)
            if (sh[s])
                glslang_program_add_shader(prog, sh[s]);
        if (!glslang_program_link(prog, GLSLANG_MSG_SPV_RULES_BIT | GLSLANG_MSG_VULKAN_RULES_BIT)) {
            size_t n = trimmed_len(glslang_program_get_info_log(prog));
            r = hl__fail(HL_ERR_SHADER, "%s: program link failed: %.*s", what, (int)n,
                         n ? glslang_program_get_info_log(prog) : "(no log)");
        }
    }
    size_t skip = 0;
    if (!r)
        r = take_spirv(prog, HL_RHI_SHADER_VERTEX, what, vs_words, vs_count, &skip, warnings);
    if (!r && fs)
        r = take_spirv(prog, HL_RHI_SHADER_FRAGMENT, what, fs_words, fs_count, &skip, warnings);
    if (r) {
        hl__free(*vs_words);
        hl__free(*fs_words);
        *vs_words = *fs_words = NULL;
        *vs_count = *fs_count = 0;
    }
    if (prog)
        glslang_program_delete(prog);
    for (int s = 0; s < 2; s++)
        if (sh[s])
            glslang_shader_delete(sh[s]);
    return r;
}
