/* Fuzz target: the whole shader program path on arbitrary sources: source budget, #define
 * injection, glslang validation as GLSL ES 3.00, declaration scan, binding plan, Vulkan
 * rewrite, glslang -> SPIR-V, SPIRV-Tools validation and SPIRV-Cross reflection.
 * Input: [flags byte][vertex source]['\0'][fragment source]. flags bit 0: gles3 (else webgpu);
 * bit 1: inject defines; bit 2: a storage shader (GLSL ES 3.10 with read-only buffer blocks;
 * with gles3 it must be refused). A missing or empty fragment part compiles a depth-only program.
 * The source budget runs with smaller limits than the engine's (2^14 expansion tokens instead
 * of 2^18...): at the real ones most of the time went to inputs that expand for milliseconds
 * inside the budget check (fuzz_glsl_budget and fuzz_glsl_preprocess cover it), and what
 * follows it (glslang, rewrite, SPIR-V, reflection) was reached a few hundred times a second. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shader_internal.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    static const hl__pp_limits lim = {256, 64, 64, 64, 1u << 14, 1u << 16, 64, 256, 64};
    hl__pp_set_default_limits(&lim);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > (1u << 18)) return 0;
    uint8_t flags = data[0];
    char *buf = malloc(size + 1);
    if (!buf) return 0;
    memcpy(buf, data + 1, size - 1);
    buf[size - 1] = '\0';
    buf[size] = '\0';
    const char *vs = buf;
    size_t vlen = strlen(vs);
    const char *fs = vlen + 1 < size ? buf + vlen + 1 : NULL;
    if (fs && !*fs) fs = NULL;
    const hl_shader_define defs[] = {{"HAS_NORMAL", NULL}, {"MRT_COUNT", "2"}};
    hl_shader_program_desc d = {0};
    d.vertex_source = vs;
    d.fragment_source = fs;
    d.defines = (flags & 2) ? defs : NULL;
    d.define_count = (flags & 2) ? 2u : 0u;
    d.label = "fuzz";
    d.storage = (flags & 4) != 0;
    hl_rhi_backend be = (flags & 1) ? HL_RHI_BACKEND_GLES3 : HL_RHI_BACKEND_WEBGPU;
    hl_shader_program p;
    hl_result r = hl_shader_program_compile(&d, be, &p);
    if (r == HL_OK && d.storage && be == HL_RHI_BACKEND_GLES3) __builtin_trap();
    if (r == HL_OK) {
        if (!p.vertex_spirv || p.vertex_spirv[0] != 0x07230203u) __builtin_trap();
        if (be == HL_RHI_BACKEND_GLES3 && !p.vertex_glsl) __builtin_trap();
        const hl_shader_reflection *rf = &p.reflection;
        for (uint32_t i = 0; i < rf->block_count; i++) {
            if (rf->blocks[i].storage && !d.storage) __builtin_trap();
            if (rf->blocks[i].storage) continue; /* size: the fixed part and one runtime-array element */
            for (uint32_t m = 0; m < rf->blocks[i].member_count; m++)
                if ((uint64_t)rf->blocks[i].members[m].offset + rf->blocks[i].members[m].size > rf->blocks[i].size)
                    __builtin_trap();
        }
        hl_rhi_bind_group_layout_entry e[64];
        for (uint32_t g = 0; g < 4; g++)
            if (hl_shader_program_layout_entries(&p, g, false, e, 64) > 64) __builtin_trap();
        hl_shader_program_free(&p);
    } else {
        static const hl_shader_program zero;
        if (memcmp(&p, &zero, sizeof p) != 0) __builtin_trap();
        if (r != HL_ERR_SHADER && r != HL_ERR_UNSUPPORTED && r != HL_ERR_VALIDATION && r != HL_ERR_OUT_OF_MEMORY)
            __builtin_trap();
    }
    free(buf);
    return 0;
}
