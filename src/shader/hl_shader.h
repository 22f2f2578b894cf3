/* hilo3d shader toolchain: GLSL ES 3.00 -> backend artifacts for the RHI.
 *
 * GLSL ES 3.00 is the only hand-written raster source: numeric uniforms live in std140
 * uniform blocks; samplers are the only uniforms outside blocks. Variants are `#define`s
 * injected after the #version line.
 *
 * For gles3 the artifact is the (variant-expanded) GLSL plus its binding plan. For webgpu the
 * source is rewritten to Vulkan GLSL 4.50 (layout(set, binding) on blocks, each sampler2D etc.
 * split into a texture2D + sampler pair re-combined at use sites, explicit in/out locations),
 * compiled with glslang to SPIR-V. Reflection comes from SPIR-V through SPIRV-Cross for both
 * backends (the gles3 path compiles the Vulkan rewrite too, only to reflect), so both see the
 * same block sizes, member offsets, textures, vertex inputs and fragment outputs.
 *
 * A build without glslang and SPIRV-Cross (HL_SHADER_NO_GLSLANG, the browser build) compiles
 * for gles3 only: the preprocessing budget check expands the text the declaration scan reads,
 * the GL driver validates the source, and the reflection comes from the declarations and the
 * driver's program introspection (see hl_shader_program.reflect_on_device).
 *
 * Bindings: a program (vertex + fragment) gets one plan. Without an explicit plan, uniform
 * blocks get group 0, bindings 0.. in order of first appearance (vertex stage first); then
 * each sampler gets two bindings: texture at b, sampler at b + 1. An explicit plan gives
 * (group, binding[, sampler_binding]) per block / sampler name; names absent from it are an
 * error (HL_ERR_VALIDATION).
 *
 * Source budget. Every text is checked before any compiler sees it (glslang here, the GL
 * driver through the gles3 artifact), because preprocessors have no limits of their own: a
 * 1 KB macro bomb would keep them busy for minutes and take gigabytes. The check runs the
 * directives and macro expansion itself, counting instead of producing text, and follows the
 * structure of the tokens that come out, so the limits below bound what the compilers would
 * do, not how the source looks. Limits are per stage; hl_shader_program_compile,
 * hl_shader_preprocess and hl_shader_rewrite_vulkan refuse a source that passes one with
 * HL_ERR_SHADER (a source problem, like a compile error) and a message naming the constant,
 * the line and, for expansion limits, the macro the source invoked; the program's label and
 * stage come first. Defines injected through hl_shader_define count like #defines in the
 * source (one longer than HL_SHADER_MAX_DEFINE_BYTES is HL_ERR_VALIDATION: an API misuse). The
 * check takes well under a millisecond for the engine's shaders and refuses a bomb in tens of
 * milliseconds with bounded memory (test_shader_budget).
 *
 * Conditions on macros a compiler defines itself: GL_ES, GL_FRAGMENT_PRECISION_HIGH, VULKAN,
 * GL_core_profile, __VERSION__ are modelled for each target (GLSL ES 3.00; Vulkan GLSL 4.50 for
 * the SPIR-V compile). Other GL_* and __* names (extension macros) differ between compilers:
 * lines under a condition on them count as compiled, and a #define / #undef among them is
 * refused (HL_ERR_SHADER), since the compilers could disagree on which definition applies.
 * A #define whose replacement list has unbalanced parentheses is refused too: a call running
 * past the end of a macro is where glslang stops following the C rules and re-expands
 * macros without bound.
 */
#ifndef HL_SHADER_H
#define HL_SHADER_H

#include "hl_rhi.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HL_SHADER_MAX_SOURCE_BYTES (1u << 20) /* one stage's source text (strlen) */
#define HL_SHADER_MAX_DEFINE_BYTES 1024u      /* name + value of one hl_shader_define */
#define HL_SHADER_MAX_DEFINES 1024u           /* #define directives run (injected ones included) */
#define HL_SHADER_MAX_IF_DEPTH 64u            /* #if / #ifdef / #ifndef nesting (glslang's own limit) */
/* `#line N`: N after macro expansion (compilers count lines in 32-bit signed integers) */
#define HL_SHADER_MAX_LINE_NUMBER (1u << 30)
#define HL_SHADER_MAX_EXPR_DEPTH 64u          /* parentheses + unary operators nested in one #if */
/* macro expansions nested in one another's replacement or arguments (chains of macros
 * naming macros, F(F(F(...))) calls) */
#define HL_SHADER_MAX_MACRO_DEPTH 64u
/* tokens produced by macro expansion (replacement lists with their arguments substituted)
 * plus the tokens read again to pre-expand every argument, used or not: the preprocessor's
 * work beyond reading the source (the engine's shaders use a few dozen) */
#define HL_SHADER_MAX_EXPANSION_TOKENS (1u << 18)
/* preprocessed text: each token's characters + 1 separator (4x the source limit) */
#define HL_SHADER_MAX_EXPANDED_BYTES (4u << 20)
/* What glslang and SPIRV-Tools cannot take, counted on the preprocessed tokens: glslang
 * recurses once per nesting level and once per operator of an expression (about 500 bytes of
 * stack each: a 20000-operator `a+a+...` crashes it on an 8 MiB stack, 1000 on 512 KiB), and
 * SPIR-V validation is quadratic in the functions called (3000 took 19 s). */
#define HL_SHADER_MAX_NESTING 256u              /* ( [ { nested in one another */
#define HL_SHADER_MAX_EXPRESSION_OPERATORS 512u /* operators chained in one expression */
#define HL_SHADER_MAX_FUNCTIONS 256u            /* function definitions */
/* Reflection: a uniform block's std140 size (WebGPU's default maxUniformBufferBindingSize; the
 * size is computed in 64 bits, as glslang and SPIRV-Cross wrap at 4 GiB) */
#define HL_SHADER_MAX_UNIFORM_BLOCK_BYTES 65536u
/* A storage block's fixed part (members before a runtime array) */
#define HL_SHADER_MAX_STORAGE_BLOCK_BYTES (1u << 27)
/* The group of storage blocks an explicit plan leaves unnamed (the scene pass storage group). */
#define HL_SHADER_STORAGE_GROUP 3u

typedef struct hl_shader_define {
    const char *name;
    const char *value; /* NULL = "1" */
} hl_shader_define;

typedef enum hl_shader_type {
    HL_SHADER_TYPE_UNKNOWN = 0,
    HL_SHADER_TYPE_FLOAT, HL_SHADER_TYPE_VEC2, HL_SHADER_TYPE_VEC3, HL_SHADER_TYPE_VEC4,
    HL_SHADER_TYPE_INT, HL_SHADER_TYPE_IVEC2, HL_SHADER_TYPE_IVEC3, HL_SHADER_TYPE_IVEC4,
    HL_SHADER_TYPE_UINT, HL_SHADER_TYPE_UVEC2, HL_SHADER_TYPE_UVEC3, HL_SHADER_TYPE_UVEC4,
    HL_SHADER_TYPE_BOOL,
    HL_SHADER_TYPE_MAT2, HL_SHADER_TYPE_MAT3, HL_SHADER_TYPE_MAT4,
    HL_SHADER_TYPE_STRUCT,
} hl_shader_type;

const char *hl_shader_type_name(hl_shader_type t); /* "vec4", ... */

typedef struct hl_shader_block_member {
    char name[64];
    hl_shader_type type;
    uint32_t offset;       /* std140 byte offset */
    uint32_t size;         /* bytes, including array elements */
    uint32_t array_size;   /* 0 = not an array */
    uint32_t array_stride; /* bytes between elements */
    uint32_t matrix_stride;
} hl_shader_block_member;

typedef struct hl_shader_block {
    char name[64]; /* block (interface) name, e.g. "EffectBlock" */
    uint32_t group, binding;
    uint32_t size; /* std140 size in bytes */
    uint32_t stages; /* HL_RHI_STAGE_* that use it */
    bool storage;    /* a read-only storage block (storage shaders): size is its fixed part plus one element of
                        a runtime array (std430; WebGPU's minimum binding size) */
    hl_shader_block_member *members;
    uint32_t member_count;
} hl_shader_block;

typedef struct hl_shader_texture_binding {
    char name[64]; /* GLSL sampler uniform name, e.g. "u_baseColor" */
    uint32_t group, binding, sampler_binding;
    hl_rhi_texture_dimension dimension;
    hl_rhi_texture_sample_type sample_type; /* DEPTH for shadow samplers */
    bool comparison;                        /* sampler2DShadow etc. */
    uint32_t stages;
} hl_shader_texture_binding;

typedef struct hl_shader_io {
    char name[64];
    uint32_t location;
    hl_shader_type type;
} hl_shader_io;

typedef struct hl_shader_reflection {
    hl_shader_block *blocks;
    uint32_t block_count;
    hl_shader_texture_binding *textures;
    uint32_t texture_count;
    hl_shader_io *inputs; /* vertex inputs */
    uint32_t input_count;
    hl_shader_io *outputs; /* fragment outputs */
    uint32_t output_count;
} hl_shader_reflection;

typedef struct hl_shader_program_desc {
    const char *vertex_source;   /* GLSL ES 3.00, required */
    const char *fragment_source; /* GLSL ES 3.00, optional (depth-only) */
    const hl_shader_define *defines;
    uint32_t define_count;
    const hl_rhi_binding_plan_entry *bindings; /* optional explicit plan */
    uint32_t binding_count;
    const char *label;
    /* A storage shader (webgpu only): GLSL ES 3.10 (`#version 310 es`) that may declare
     * `layout(std430) readonly buffer Name { ... };` blocks, bound like uniform blocks (plan kind
     * HL_RHI_PLAN_UNIFORM_BLOCK, by block name) as read-only storage buffers. With an explicit
     * plan, storage blocks it does not name take group HL_SHADER_STORAGE_GROUP, bindings 0.. in
     * order of appearance (vertex stage first). No gles3 artifact:
     * another backend is HL_ERR_UNSUPPORTED. A buffer block that is not readonly is HL_ERR_SHADER. */
    bool storage;
} hl_shader_program_desc;

/* A compiled program for one backend. Owns everything it points to. */
typedef struct hl_shader_program {
    hl_rhi_backend backend;
    /* gles3 */
    char *vertex_glsl;
    char *fragment_glsl;
    /* webgpu */
    uint32_t *vertex_spirv;
    size_t vertex_spirv_words;
    uint32_t *fragment_spirv;
    size_t fragment_spirv_words;
    /* both */
    hl_rhi_binding_plan_entry *plan; /* names point into plan_names storage */
    uint32_t plan_count;
    hl_shader_reflection reflection; /* merged over both stages */
    char *info_log; /* compiler messages (warnings) or NULL */
    /* The uniform blocks' sizes and members are the GL driver's, filled in when the program's
     * shaders are created (hl_shader_program_create_shaders), which clears the flag; until then
     * reflection.blocks have neither. Everything else in reflection is known at compile time.
     * Set for gles3 in a build without glslang (HL_SHADER_NO_GLSLANG, the browser build) and
     * under the introspection check (HL_SHADER_INTROSPECTION_CHECK=1 in the environment: gles3
     * programs compile both ways and the driver's reflection must equal SPIRV-Cross's, which
     * `expected` holds until the check ran). */
    bool reflect_on_device;
    hl_shader_reflection *expected;
    char label[64]; /* desc.label, for messages */
} hl_shader_program;

/* Compiles vertex + fragment GLSL ES 3.00 for `backend` (WEBGPU or GLES3). On a compile
 * error returns HL_ERR_SHADER and hl_last_error() holds the info log naming stage and line. */
hl_result hl_shader_program_compile(const hl_shader_program_desc *desc, hl_rhi_backend backend,
                                    hl_shader_program *out);
void hl_shader_program_free(hl_shader_program *p);

/* Creates the RHI shader modules of p on dev (the fragment one only when p has a fragment
 * stage; *fs is {0} otherwise) and, where p->reflect_on_device, completes p->reflection from
 * the driver's introspection of the linked program (hl_rhi_program_introspect): block sizes,
 * members with offsets and strides, and a check that every active block, sampler and vertex
 * input is one the declarations gave, with the planned location. Under the introspection check
 * the result is compared with SPIRV-Cross's (a difference is HL_ERR_SHADER naming it). On
 * failure nothing is left created (*vs and *fs are {0}). Renderers make their shaders through
 * this call so that every build reflects the same way. */
hl_result hl_shader_program_create_shaders(hl_rhi_device *dev, hl_shader_program *p, hl_rhi_shader *vs,
                                           hl_rhi_shader *fs);

/* Programs whose driver reflection the introspection check found equal to SPIRV-Cross's, since
 * the process started (tests assert that the check ran). */
uint64_t hl_shader_introspection_checks(void);

/* Fills RHI shader descriptors pointing into p (valid while p lives). */
void hl_shader_program_vertex_desc(const hl_shader_program *p, hl_rhi_shader_desc *out);
void hl_shader_program_fragment_desc(const hl_shader_program *p, hl_rhi_shader_desc *out);

/* Builds the bind group layout entries of `group` from the reflection (uniform blocks ->
 * UNIFORM_BUFFER with min_binding_size = block size, textures -> SAMPLED_TEXTURE + SAMPLER).
 * dynamic_offsets: make uniform buffers dynamic. Returns the count written (<= max). */
uint32_t hl_shader_program_layout_entries(const hl_shader_program *p, uint32_t group, bool dynamic_offsets,
                                          hl_rhi_bind_group_layout_entry *out, uint32_t max);

/* Looks up a reflected block by name (NULL if absent). */
const hl_shader_block *hl_shader_program_find_block(const hl_shader_program *p, const char *name);

/* Expands #defines into GLSL ES 3.00 source (after #version) and checks the source budget
 * (HL_ERR_SHADER). Caller frees with hl_shader_string_free. */
hl_result hl_shader_preprocess(const char *source, const hl_shader_define *defines, uint32_t define_count,
                               char **out);
void hl_shader_string_free(char *s);

/* Rewrites GLSL ES 3.00 to Vulkan GLSL 4.50 using the binding plan (exposed for tests). */
hl_result hl_shader_rewrite_vulkan(const char *source, hl_rhi_shader_stage stage,
                                   const hl_rhi_binding_plan_entry *plan, uint32_t plan_count, char **out);

#ifdef __cplusplus
}
#endif

#endif
