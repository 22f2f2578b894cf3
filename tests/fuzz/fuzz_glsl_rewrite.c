/* Fuzz target: the GLSL ES 3.00 -> Vulkan GLSL 4.50 rewriter (and the GLSL ES location
 * rewrite) on arbitrary text: declarations scanned from the text itself (the compile path
 * scans glslang's expanded text; here no compiler runs), locations, an automatic or explicit
 * binding plan, then both rewrites. Checks: no crash, leak or UB; a rewrite keeps the line
 * count (compiler messages keep the user's line numbers) and the text before the first token.
 * Input: [flags byte][GLSL text, cut at the first NUL]. flags bit 0: fragment stage; bit 1:
 * explicit plan (group/binding from the flags). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shader_internal.h"

static uint32_t lines(const char *s) {
    uint32_t n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > (1u << 20)) return 0;
    uint8_t flags = data[0];
    char *text = malloc(size);
    if (!text) return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    hl_rhi_shader_stage stage = (flags & 1) ? HL_RHI_SHADER_FRAGMENT : HL_RHI_SHADER_VERTEX;
    hl__sh_stage *decl = calloc(1, sizeof *decl);
    hl_rhi_binding_plan_entry *plan = NULL;
    uint32_t plan_count = 0;
    if (decl && hl__scan_stage(text, stage, decl) == HL_OK &&
        hl__assign_locations(decl, stage, NULL) == HL_OK) {
        const hl__sh_stage *stages[1] = {decl};
        hl_rhi_binding_plan_entry explicit_plan[2 * HL__SH_MAX_ITEMS];
        uint32_t ne = 0;
        if (flags & 2) {
            uint32_t b = (flags >> 2) & 7u;
            for (uint32_t i = 0; i < decl->block_count; i++)
                explicit_plan[ne++] = (hl_rhi_binding_plan_entry){HL_RHI_PLAN_UNIFORM_BLOCK, decl->blocks[i].name,
                                                                  (flags >> 5) & 3u, b++, 0};
            for (uint32_t i = 0; i < decl->sampler_count; i++, b += 2)
                explicit_plan[ne++] =
                    (hl_rhi_binding_plan_entry){HL_RHI_PLAN_SAMPLER, decl->samplers[i].name, 1, b, b + 1};
        }
        if (hl__build_plan(stages, 1, ne ? explicit_plan : NULL, ne, &plan, &plan_count) == HL_OK) {
            for (int vulkan = 0; vulkan < 2; vulkan++) {
                char *out = NULL;
                hl_result r = hl__rewrite(text, stage, vulkan != 0, decl, plan, plan_count, &out);
                if ((r == HL_OK) != (out != NULL)) __builtin_trap();
                if (r != HL_OK && r != HL_ERR_UNSUPPORTED && r != HL_ERR_SHADER && r != HL_ERR_OUT_OF_MEMORY)
                    __builtin_trap();
                if (out) {
                    if (lines(out) != lines(text)) __builtin_trap();
                    hl__lex lx;
                    if (hl__lex_run(out, &lx) == HL_OK) hl__lex_free(&lx);
                    free(out);
                }
            }
        }
    }
    free(plan);
    free(decl);
    free(text);
    return 0;
}
