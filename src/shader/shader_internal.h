/* Private pieces of the shader toolchain shared by its source files.
 *
 * Text flow of one stage:  source --preprocess--> pp (defines injected; the gles3 artifact
 * after hl__rewrite adds vertex-input / fragment-output locations) --glslang -E--> expanded
 * text, scanned for the *active* declarations (what the #defines left in) --> plan and
 * locations --> hl__rewrite(pp, vulkan) --> glslang --> SPIR-V --> SPIRV-Cross reflection.
 * Rewriting the unexpanded text keeps #ifdefs, macros and comments; scanning the expanded text
 * makes bindings and locations depend only on what is compiled.
 */
#ifndef HL_SHADER_INTERNAL_H
#define HL_SHADER_INTERNAL_H

#include "hl_shader.h"
#include "hl_base.h"

/* ---- growable string (hl__malloc'd) ------------------------------------------------------- */
typedef struct hl__sb {
    char *data;
    size_t len, cap;
    bool oom;
} hl__sb;

void hl__sb_put(hl__sb *sb, const char *s, size_t n);
void hl__sb_puts(hl__sb *sb, const char *s);
void hl__sb_printf(hl__sb *sb, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Returns the NUL-terminated text (caller frees with hl__free), or NULL after an allocation
 * failure (the builder is freed either way). */
char *hl__sb_take(hl__sb *sb);
void hl__sb_free(hl__sb *sb);

/* ---- tokens ----------------------------------------------------------------------------------
 * Comments and white space are not tokens: a rewriter copies the text between tokens verbatim.
 * A preprocessor line (with continuations) is one DIRECTIVE token. Punctuation is one char. */
typedef enum hl__tok_kind { HL__TOK_IDENT, HL__TOK_NUMBER, HL__TOK_PUNCT, HL__TOK_DIRECTIVE } hl__tok_kind;

typedef struct hl__tok {
    uint32_t kind;
    uint32_t start, len;
} hl__tok;

typedef struct hl__lex {
    const char *src;
    bool es310; /* the text is GLSL ES 3.10 (storage shaders): `readonly buffer` blocks are read */
    hl__tok *toks;
    uint32_t count, cap;
} hl__lex;

hl_result hl__lex_run(const char *src, hl__lex *out);
void hl__lex_free(hl__lex *lx);

/* ---- source budget (shader_budget.c) ------------------------------------------------------
 * Runs the directives and macro expansion of `text` without producing output, follows the
 * structure of the tokens that come out (nesting, operator chains, function definitions) and
 * fails with HL_ERR_SHADER when a limit of hl_shader.h is passed (the message starts "shader
 * source line N:"). vulkan: the macros glslang predefines for Vulkan GLSL 4.50, else GLSL ES 3.00. Must run
 * on every text before glslang or a GL driver sees it. stats (may be NULL) gets the counts. */
typedef struct hl__pp_stats {
    uint64_t expansion_tokens; /* against HL_SHADER_MAX_EXPANSION_TOKENS */
    uint64_t output_bytes;     /* against HL_SHADER_MAX_EXPANDED_BYTES */
    uint64_t output_tokens;    /* so output_bytes - output_tokens is the tokens' characters */
    uint32_t defines;
    uint32_t max_macro_depth;
    uint32_t max_if_depth;
    uint32_t max_nesting;       /* of ( [ { in the preprocessed text */
    uint32_t max_operators;     /* bound on one expression's operator chain */
    uint32_t functions;         /* function definitions */
} hl__pp_stats;

/* The limits the check applies; NULL means the HL_SHADER_MAX_* constants (tests and fuzzers
 * pass smaller ones to reach every limit quickly). */
typedef struct hl__pp_limits {
    uint32_t defines, if_depth, expr_depth, macro_depth;
    uint64_t expansion_tokens, expanded_bytes;
    uint32_t nesting, expression_operators, functions;
} hl__pp_limits;

hl_result hl__pp_guard(const char *text, bool vulkan, const hl__pp_limits *limits, hl__pp_stats *stats);

/* hl__pp_guard for GLSL ES 3.00 with the default limits that also writes what comes out: the
 * expanded tokens of the lines a GLSL ES compiler compiles, one space apart, a line break where
 * the source line changes, no directives (*out hl__malloc'd). It stands in for glslang's
 * preprocessor where glslang is absent (HL_SHADER_NO_GLSLANG): the declaration scan reads it.
 * Lines under a condition on a macro only a compiler knows (extension macros) count as
 * compiled here, as they do for the budget. */
hl_result hl__pp_expand(const char *text, char **out);

/* Fuzz targets only: the limits hl__pp_guard applies when it is given NULL (the compile path's
 * own calls), NULL restoring the HL_SHADER_MAX_* constants. Set once, before any compile: not
 * synchronised. fuzz_glsl_compile uses it so that its time goes to the stages after the budget
 * (fuzz_glsl_budget and fuzz_glsl_preprocess fuzz the budget itself). */
void hl__pp_set_default_limits(const hl__pp_limits *limits);

/* `text` with every line continuation (a backslash before "\n", "\r\n" or "\r") removed, as
 * GLSL ES 3.00 does before preprocessing (§3.2), and the removed line breaks put back after the
 * joined line, so later lines keep their numbers. glslang 11-12 aborts the process
 * (std::length_error) on an object-like macro's name followed by a continuation (`U\` then
 * `;`): no text reaches it unspliced. NULL when out of memory (caller frees with hl__free). */
char *hl__splice_lines(const char *text);
/* Whether text holds a line continuation (hl__splice_lines would change it): callers splice
 * only then, so ordinary sources cost no copy. */
bool hl__has_continuation(const char *text);

/* hl_shader_preprocess, or with es310 the same for a storage shader (`#version 310 es` required). */
hl_result hl__preprocess(const char *source, const hl_shader_define *defines, uint32_t define_count, bool es310,
                         char **out);
/* Whether the text's #version line is `#version 310 es`. */
bool hl__text_is_es310(const char *text);

/* Checks a stage's source text against HL_SHADER_MAX_SOURCE_BYTES without reading past it. */
hl_result hl__check_source_size(const char *source);

/* ---- declarations of one stage ----------------------------------------------------------- */
#define HL__SH_MAX_ITEMS 32
#define HL__SH_NAME_MAX 64

typedef struct hl__sh_item {
    char name[HL__SH_NAME_MAX];
    char type[32];    /* GLSL type: "vec3", "sampler2DShadow", block name for blocks */
    int32_t location; /* explicit or assigned; -1 = none yet */
    bool storage;     /* blocks: a read-only storage (buffer) block of a GLSL ES 3.10 stage */
    uint32_t slots;   /* locations it consumes */
} hl__sh_item;

/* Active (post-preprocessor) interface of one stage. */
typedef struct hl__sh_stage {
    hl__sh_item ins[HL__SH_MAX_ITEMS];
    hl__sh_item outs[HL__SH_MAX_ITEMS];
    hl__sh_item blocks[HL__SH_MAX_ITEMS];
    hl__sh_item samplers[HL__SH_MAX_ITEMS];
    uint32_t in_count, out_count, block_count, sampler_count;
} hl__sh_stage;

/* Scans expanded GLSL ES 3.00 for uniform blocks, samplers, ins and outs. */
hl_result hl__scan_stage(const char *expanded, hl_rhi_shader_stage stage, hl__sh_stage *out);

/* Gives every in/out without an explicit location one. `vs` (may be NULL) is the vertex
 * stage of the same program when `st` is a fragment stage: its outputs' locations are given
 * to same-named fragment inputs. */
hl_result hl__assign_locations(hl__sh_stage *st, hl_rhi_shader_stage stage, const hl__sh_stage *vs);

/* Builds the plan over the stages (vertex first). With an explicit plan, checks that it names
 * every block and sampler and keeps only those entries; names point into the stages' items
 * or the explicit plan. *out is hl__malloc'd. */
hl_result hl__build_plan(const hl__sh_stage *const *stages, uint32_t stage_count,
                         const hl_rhi_binding_plan_entry *explicit_plan, uint32_t explicit_count,
                         hl_rhi_binding_plan_entry **out, uint32_t *out_count);

const hl_rhi_binding_plan_entry *hl__plan_find(const hl_rhi_binding_plan_entry *plan, uint32_t count,
                                               hl_rhi_binding_plan_kind kind, const char *name);

/* Sampler type facts ("sampler2DShadow" -> texture2D + samplerShadow, DEPTH, comparison). */
typedef struct hl__sampler_kind {
    const char *glsl;        /* "sampler2D" */
    const char *texture;     /* "texture2D" */
    bool comparison;
    hl_rhi_texture_dimension dimension;
    hl_rhi_texture_sample_type sample_type;
} hl__sampler_kind;

const hl__sampler_kind *hl__sampler_kind_find(const char *glsl_type);

/* Rewrites pp (unexpanded GLSL ES 3.00) for a target. vulkan: GLSL 4.50 with set/binding,
 * split samplers and explicit locations on every in/out. !vulkan: GLSL ES 3.00 with explicit
 * locations added to vertex inputs and fragment outputs only. */
hl_result hl__rewrite(const char *pp, hl_rhi_shader_stage stage, bool vulkan, const hl__sh_stage *st,
                      const hl_rhi_binding_plan_entry *plan, uint32_t plan_count, char **out);

/* ---- glslang --------------------------------------------------------------------------------- */
const char *hl__stage_name(hl_rhi_shader_stage stage);

/* Runs glslang's preprocessor on GLSL ES 3.00 and returns the expanded text in *expanded
 * (hl__malloc'd). validate: also parses it as GLSL ES 3.00 (the rules the GL driver applies).
 * Errors: HL_ERR_SHADER naming `what`, the stage and glslang's log. *warnings gets any
 * non-error messages appended. */
hl_result hl__glslang_expand(const char *pp, hl_rhi_shader_stage stage, bool validate, const char *what,
                             char **expanded, hl__sb *warnings);

/* Compiles Vulkan GLSL 4.50 stages (fs may be NULL) into one linked program and SPIR-V. */
hl_result hl__glslang_spirv(const char *vs, const char *fs, const char *what, uint32_t **vs_words,
                            size_t *vs_count, uint32_t **fs_words, size_t *fs_count, hl__sb *warnings);

/* ---- reflection ------------------------------------------------------------------------------ */
/* Reflects the SPIR-V of both stages (fs may be NULL) into *out; textures come from the
 * stages' sampler declarations and the plan, stage bits from where SPIR-V uses them. */
hl_result hl__reflect(const uint32_t *vs, size_t vs_count, const uint32_t *fs, size_t fs_count,
                      const hl__sh_stage *vs_decl, const hl__sh_stage *fs_decl,
                      const hl_rhi_binding_plan_entry *plan, uint32_t plan_count, hl_shader_reflection *out);
void hl__reflection_free(hl_shader_reflection *r);

/* ---- reflection without SPIR-V (shader_introspect.c) --------------------------------------- */
/* What the declarations of both stages (fs may be NULL) and the plan give: every block with its
 * plan binding and declaring stages but no size or members, the textures, the vertex inputs and
 * the fragment outputs by location, as hl__reflect orders them. */
hl_result hl__reflect_declared(const hl__sh_stage *vs, const hl__sh_stage *fs, const hl_rhi_binding_plan_entry *plan,
                               uint32_t plan_count, hl_shader_reflection *out);
/* Whether HL_SHADER_INTROSPECTION_CHECK=1 is in the environment (read at every gles3 compile). */
bool hl__shader_introspection_check(void);
/* Adds the textures of one stage's sampler declarations (bindings from the plan, dimension and
 * sample type from the sampler type) to r, whose textures array has room for cap; a sampler
 * both stages declare gets both stage bits. */
hl_result hl__reflect_add_textures(hl_shader_reflection *r, const hl__sh_stage *st, uint32_t bit,
                                   const hl_rhi_binding_plan_entry *plan, uint32_t plan_count, uint32_t cap);

#endif
