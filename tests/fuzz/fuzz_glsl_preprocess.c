/* Fuzz target: the GLSL front of the shader toolchain, without a compiler: #version check and
 * #define injection (hl_shader_preprocess, which runs the source budget), the budget check for
 * both targets with small limits (so every limit is reached in a few thousand tokens), the
 * tokenizer and the declaration scanner the rewriter depends on, and the browser build's
 * expansion (hl__pp_expand: the budget check writing its output) with the scan of what it gives.
 * Input: [flags byte][GLSL text, cut at the first NUL]. flags bit 0: inject defines; bit 1:
 * fragment stage. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shader_internal.h"

static const hl__pp_limits k_small = {64, 16, 16, 16, 1u << 14, 1u << 16, 32, 64, 16};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > (1u << 20)) return 0;
    uint8_t flags = data[0];
    char *text = malloc(size);
    if (!text) return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    size_t len = strlen(text);
    hl_rhi_shader_stage stage = (flags & 2) ? HL_RHI_SHADER_FRAGMENT : HL_RHI_SHADER_VERTEX;

    /* the small limits first: a text within them is cheap under the real ones too, so the
     * slow inputs (expansion bombs) do not dominate the run */
    bool small_ok = true;
    for (int vulkan = 0; vulkan < 2; vulkan++) {
        hl__pp_stats st;
        memset(&st, 0, sizeof st);
        hl_result r = hl__pp_guard(text, vulkan != 0, &k_small, &st);
        small_ok &= r == HL_OK;
        if (r != HL_OK && r != HL_ERR_SHADER && r != HL_ERR_OUT_OF_MEMORY) __builtin_trap();
        if (r == HL_OK && (st.expansion_tokens > k_small.expansion_tokens || st.output_bytes > k_small.expanded_bytes ||
                           st.defines > k_small.defines || st.max_macro_depth > k_small.macro_depth ||
                           st.max_if_depth > k_small.if_depth))
            __builtin_trap();
    }

    if (small_ok) {
        const hl_shader_define defs[] = {{"HAS_NORMAL", NULL}, {"MRT_COUNT", "2"}, {"TWICE", "(HAS_NORMAL + HAS_NORMAL)"}};
        char *pp = (char *)1;
        hl_result r = hl_shader_preprocess(text, (flags & 1) ? defs : NULL, (flags & 1) ? 3u : 0u, &pp);
        if ((r == HL_OK) != (pp != NULL)) __builtin_trap();
        if (r != HL_OK && r != HL_ERR_SHADER && r != HL_ERR_OUT_OF_MEMORY) __builtin_trap();
        if (pp) {
            /* the injected text goes after the #version line; the rest of the source is unchanged
             * but for its line continuations, spliced (hl__splice_lines) */
            char *sp = hl__splice_lines(text);
            if (!sp) __builtin_trap();
            size_t n = strlen(pp), sl = strlen(sp);
            if (n < sl) __builtin_trap();
            if (!(flags & 1) && strcmp(pp, sp) != 0 && !(n == sl + 1 && pp[sl] == '\n' && strncmp(pp, sp, sl) == 0))
                __builtin_trap();
            hl__free(sp);
            hl_shader_string_free(pp);
        }
    }
    if (small_ok) {
        char *ex = (char *)1;
        hl_result r = hl__pp_expand(text, &ex);
        if ((r == HL_OK) != (ex != NULL)) __builtin_trap();
        if (r != HL_OK && r != HL_ERR_SHADER && r != HL_ERR_OUT_OF_MEMORY) __builtin_trap();
        hl__sh_stage *decl = ex ? malloc(sizeof *decl) : NULL;
        if (decl && hl__scan_stage(ex, stage, decl) == HL_OK)
            hl__assign_locations(decl, stage, NULL);
        free(decl);
        hl__free(ex);
    }
    hl__lex lx;
    if (hl__lex_run(text, &lx) == HL_OK) {
        uint32_t end = 0;
        for (uint32_t i = 0; i < lx.count; i++) {
            const hl__tok *t = &lx.toks[i];
            if (t->start < end || (size_t)t->start + t->len > len || t->len == 0) __builtin_trap();
            end = t->start + t->len;
        }
        hl__lex_free(&lx);
    }
    hl__sh_stage *decl = malloc(sizeof *decl);
    if (decl && hl__scan_stage(text, stage, decl) == HL_OK) {
        if (decl->in_count > HL__SH_MAX_ITEMS || decl->out_count > HL__SH_MAX_ITEMS ||
            decl->block_count > HL__SH_MAX_ITEMS || decl->sampler_count > HL__SH_MAX_ITEMS)
            __builtin_trap();
        for (uint32_t i = 0; i < decl->in_count; i++)
            if (!memchr(decl->ins[i].name, '\0', sizeof decl->ins[i].name)) __builtin_trap();
        hl__assign_locations(decl, stage, NULL);
    }
    free(decl);
    free(text);
    return 0;
}
