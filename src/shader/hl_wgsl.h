/* hilo3d shader toolchain: what a WGSL compute source declares, read before any pipeline exists.
 *
 * Compute shaders are the one hand-written WGSL the engine accepts (issue 9: graphics shaders
 * stay GLSL). Before Dawn sees a source, hl_wgsl_reflect reads its module-scope declarations so
 * the engine can check them against the binding ABI the application declared and name every
 * mismatch: the resource variables (`@group(g) @binding(b) var<...> name : type;`), the entry
 * point (a `@compute` function) and its `@workgroup_size`, which must be integer literals.
 *
 * It is a scanner of declarations, not a WGSL compiler: comments (nested block comments
 * included) are skipped, function bodies are stepped over by brace depth, and what it does not
 * understand it leaves to Dawn's compile. It refuses, with HL_ERR_SHADER and a message naming
 * the line: sources over HL_WGSL_MAX_SOURCE bytes or with a NUL byte, an unterminated block
 * comment, `f16` in any form (`enable f16;`, f16, vecNh, matCxRh: not every device has it),
 * group/binding or workgroup_size arguments that are not integer literals, more than
 * HL_WGSL_MAX_BINDINGS resource variables, two variables on one (group, binding), an entry
 * point that is missing or not `@compute`, more than HL_WGSL_MAX_OVERRIDES `override`
 * constants or two of one name. Time and memory are linear in the source. */
#ifndef HL_WGSL_H
#define HL_WGSL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hilo3d/result.h"

#define HL_WGSL_MAX_SOURCE (1u << 20)
#define HL_WGSL_MAX_BINDINGS 64
#define HL_WGSL_MAX_NAME 64

typedef enum hl_wgsl_kind {
    HL_WGSL_UNIFORM_BUFFER = 0,       /* var<uniform> */
    HL_WGSL_STORAGE_READ,             /* var<storage> / var<storage, read> */
    HL_WGSL_STORAGE_READ_WRITE,       /* var<storage, read_write> */
    HL_WGSL_SAMPLED_TEXTURE_2D,       /* texture_2d<T> */
    HL_WGSL_SAMPLER,                  /* sampler (filtering or not: WGSL does not say) */
    HL_WGSL_SAMPLER_COMPARISON,       /* sampler_comparison */
    HL_WGSL_STORAGE_TEXTURE_2D_WRITE, /* texture_storage_2d<format, write> */
    HL_WGSL_OTHER,                    /* any other resource (another texture type, access mode) */
} hl_wgsl_kind;

const char *hl_wgsl_kind_name(hl_wgsl_kind kind); /* "uniform buffer", ... */

typedef struct hl_wgsl_binding {
    uint32_t group, binding;
    hl_wgsl_kind kind;
    uint32_t line;
    char name[HL_WGSL_MAX_NAME]; /* cut to HL_WGSL_MAX_NAME - 1 bytes */
    /* textures: the first template argument (sample type "f32"/"i32"/"u32", or the storage
       format "rgba8unorm", ...); "" otherwise */
    char texel[24];
} hl_wgsl_binding;

#define HL_WGSL_MAX_OVERRIDES 32

typedef enum hl_wgsl_scalar {
    HL_WGSL_SCALAR_INFERRED = 0, /* no type written: the initializer's */
    HL_WGSL_BOOL,
    HL_WGSL_I32,
    HL_WGSL_U32,
    HL_WGSL_F32,
    HL_WGSL_SCALAR_OTHER,
} hl_wgsl_scalar;

/* A module-scope `override name [: type] [= initializer];`. */
typedef struct hl_wgsl_override {
    hl_wgsl_scalar type;
    bool has_default;
    uint32_t line;
    char name[HL_WGSL_MAX_NAME];
} hl_wgsl_override;

typedef struct hl_wgsl_info {
    uint32_t workgroup_size[3]; /* of the entry point; missing dimensions are 1 */
    uint32_t entry_line;
    hl_wgsl_binding bindings[HL_WGSL_MAX_BINDINGS];
    uint32_t binding_count;
    hl_wgsl_override overrides[HL_WGSL_MAX_OVERRIDES]; /* more is HL_ERR_SHADER */
    uint32_t override_count;
} hl_wgsl_info;

/* Reads src (len bytes; no NUL inside) for the compute entry point `entry`. */
hl_result hl_wgsl_reflect(const char *src, size_t len, const char *entry, hl_wgsl_info *out);

#endif
