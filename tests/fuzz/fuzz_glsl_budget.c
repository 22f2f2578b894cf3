/* Fuzz target: the source budget against glslang's own preprocessor. The budget check must
 * count at least what the compiler produces: for every text it accepts whose preprocessing
 * glslang completes, glslang's output (directive lines aside) may not hold more characters
 * than the check counted. A failure means the check missed an expansion or a compiled region
 * (a hole a macro bomb could use). Only GLSL ES 3.00 (glslang's validation pass) is compared.
 * Input: [flags byte][GLSL text, cut at the first NUL]; flags bit 0: fragment stage. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shader_internal.h"

static uint64_t compiled_chars(const char *s) {
    uint64_t n = 0;
    while (*s) {
        const char *e = strchr(s, '\n');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        size_t i = 0;
        while (i < len && (s[i] == ' ' || s[i] == '\t')) i++;
        if (i == len || s[i] != '#') {
            for (; i < len; i++) {
                /* glslang appends a #line directive to the text before it when the line number
                   goes back (`a#line 5`): a directive, not compiled text */
                if (len - i >= 6 && memcmp(s + i, "#line ", 6) == 0) break;
                /* glslang prints a byte it cannot read as "<bad token>": one character read */
                if (len - i >= 11 && memcmp(s + i, "<bad token>", 11) == 0) {
                    n++;
                    i += 10;
                    continue;
                }
                n += s[i] != ' ' && s[i] != '\t' && s[i] != '\r';
            }
        }
        s += len + (e ? 1 : 0);
    }
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > (1u << 16)) return 0;
    char *text = malloc(size);
    if (!text) return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    hl_rhi_shader_stage stage = (data[0] & 1) ? HL_RHI_SHADER_FRAGMENT : HL_RHI_SHADER_VERTEX;
    /* the engine checks and compiles only GLSL ES 3.00 (hl_shader_preprocess refuses other
     * versions): other versions read differently (GLSL ES 1.00 has no line continuation) */
    bool es300 = strncmp(text, "#version 300 es", 15) == 0 && (text[15] == '\n' || text[15] == ' ' || text[15] == '\r');
    /* limits small enough that glslang stays fast on what passes */
    static const hl__pp_limits lim = {256, 64, 64, 64, 1u << 14, 1u << 16, 64, 256, 64};
    hl__pp_stats st;
    memset(&st, 0, sizeof st);
    if (hl__pp_guard(text, false, &lim, &st) == HL_OK) {
        char *expanded = NULL;
        hl__sb warnings = {0};
        if (es300 && hl__glslang_expand(text, stage, false, "fuzz", &expanded, &warnings) == HL_OK && expanded) {
            uint64_t counted = st.output_bytes - st.output_tokens;
            uint64_t produced = compiled_chars(expanded);
            if (produced > counted + 16) __builtin_trap();
        }
        hl__free(expanded);
        hl__sb_free(&warnings);
    }
    free(text);
    return 0;
}
