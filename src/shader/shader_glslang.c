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

/* glslang (Debian 12's) dereferences NULL when an interface block's name is the name of a
 * function (a built-in one, or one the source declares): `uniform abs { vec4 v; };` crashes the
 * process in TParseContext::declareBlock instead of failing (found by fuzz_glsl_compile). Such
 * texts are refused before glslang parses them. The built-in names are those glslang declares
 * for GLSL ES 3.00 and Vulkan GLSL 4.50, vertex and fragment (glslangValidator
 * --dump-builtin-symbols), sorted for bsearch. */
static const char *const k_builtin_functions[] = {
    "abs", "absoluteDifference", "acos", "acosh", "addInvocationsAMD", "addInvocationsExclusiveScanAMD",
    "addInvocationsExclusiveScanNonUniformAMD", "addInvocationsInclusiveScanAMD",
    "addInvocationsInclusiveScanNonUniformAMD", "addInvocationsNonUniformAMD", "addSaturate", "all",
    "allInvocationsARB", "allInvocationsEqualARB", "any", "anyInvocationARB", "asin", "asinh", "atan",
    "atanh", "atomicAdd", "atomicAnd", "atomicCompSwap", "atomicExchange", "atomicLoad", "atomicMax",
    "atomicMin", "atomicOr", "atomicStore", "atomicXor", "average", "averageRounded", "ballotARB",
    "beginInvocationInterlockARB", "bitCount", "bitfieldExtract", "bitfieldInsert", "bitfieldReverse",
    "ceil", "clamp", "clock2x32ARB", "clockARB", "clockRealtime2x32EXT", "clockRealtimeEXT",
    "controlBarrier", "cos", "cosh", "countLeadingZeros", "countTrailingZeros", "cross", "cubeFaceCoordAMD",
    "cubeFaceIndexAMD", "dFdx", "dFdxCoarse", "dFdxFine", "dFdy", "dFdyCoarse", "dFdyFine",
    "debugPrintfEXT", "degrees", "determinant", "distance", "dot", "doubleBitsToInt64",
    "doubleBitsToUint64", "endInvocationInterlockARB", "equal", "exp", "exp2", "faceforward", "findLSB",
    "findMSB", "float16BitsToInt16", "float16BitsToUint16", "floatBitsToInt", "floatBitsToUint", "floor",
    "fma", "fract", "fragmentFetchAMD", "fragmentMaskFetchAMD", "frexp", "fwidth", "fwidthCoarse",
    "fwidthFine", "greaterThan", "greaterThanEqual", "halfBitsToInt16", "halfBitsToUint16",
    "halhBitsToInt16", "helperInvocationEXT", "imageAtomicAdd", "imageAtomicAnd", "imageAtomicCompSwap",
    "imageAtomicExchange", "imageAtomicLoad", "imageAtomicMax", "imageAtomicMin", "imageAtomicOr",
    "imageAtomicStore", "imageAtomicXor", "imageLoad", "imageLoadLodAMD", "imageSamples", "imageSize",
    "imageStore", "imageStoreLodAMD", "imulExtended", "int16BitsToFloat16", "int16BitsToHalf",
    "int64BitsToDouble", "intBitsToFloat", "interpolateAtCentroid", "interpolateAtOffset",
    "interpolateAtSample", "interpolateAtVertexAMD", "inverse", "inversesqrt", "isinf", "isnan", "ldexp",
    "length", "lessThan", "lessThanEqual", "log", "log2", "matrixCompMult", "max", "max3",
    "maxInvocationsAMD", "maxInvocationsExclusiveScanAMD", "maxInvocationsExclusiveScanNonUniformAMD",
    "maxInvocationsInclusiveScanAMD", "maxInvocationsInclusiveScanNonUniformAMD",
    "maxInvocationsNonUniformAMD", "mbcntAMD", "memoryBarrier", "memoryBarrierBuffer", "memoryBarrierImage",
    "mid3", "min", "min3", "minInvocationsAMD", "minInvocationsExclusiveScanAMD",
    "minInvocationsExclusiveScanNonUniformAMD", "minInvocationsInclusiveScanAMD",
    "minInvocationsInclusiveScanNonUniformAMD", "minInvocationsNonUniformAMD", "mix", "mod", "modf",
    "multiply32x16", "normalize", "not", "notEqual", "outerProduct", "pack16", "pack32", "pack64",
    "packDouble2x32", "packFloat2x16", "packHalf2x16", "packInt2x16", "packInt2x32", "packInt4x16",
    "packSnorm2x16", "packSnorm4x8", "packUint2x16", "packUint2x32", "packUint4x16", "packUnorm2x16",
    "packUnorm4x8", "pow", "radians", "readFirstInvocationARB", "readInvocationARB", "reflect", "refract",
    "round", "roundEven", "shadow2DEXT", "shadow2DProjEXT", "sign", "sin", "sinh", "smoothstep",
    "sparseImageLoadARB", "sparseImageLoadLodAMD", "sparseTexelFetchARB", "sparseTexelFetchOffsetARB",
    "sparseTexelGradFetchARB", "sparseTexelGradFetchOffsetARB", "sparseTexelsResidentARB",
    "sparseTextureARB", "sparseTextureClampARB", "sparseTextureGatherARB", "sparseTextureGatherLodAMD",
    "sparseTextureGatherLodOffsetAMD", "sparseTextureGatherLodOffsetsAMD", "sparseTextureGatherOffsetARB",
    "sparseTextureGatherOffsetsARB", "sparseTextureGradARB", "sparseTextureGradClampARB",
    "sparseTextureGradOffsetARB", "sparseTextureGradOffsetClampARB", "sparseTextureLodARB",
    "sparseTextureLodOffsetARB", "sparseTextureOffsetARB", "sparseTextureOffsetClampARB", "sqrt", "step",
    "subgroupAdd", "subgroupAll", "subgroupAllEqual", "subgroupAnd", "subgroupAny", "subgroupBallot",
    "subgroupBallotBitCount", "subgroupBallotBitExtract", "subgroupBallotExclusiveBitCount",
    "subgroupBallotFindLSB", "subgroupBallotFindMSB", "subgroupBallotInclusiveBitCount", "subgroupBarrier",
    "subgroupBroadcast", "subgroupBroadcastFirst", "subgroupClusteredAdd", "subgroupClusteredAnd",
    "subgroupClusteredMax", "subgroupClusteredMin", "subgroupClusteredMul", "subgroupClusteredOr",
    "subgroupClusteredXor", "subgroupElect", "subgroupExclusiveAdd", "subgroupExclusiveAnd",
    "subgroupExclusiveMax", "subgroupExclusiveMin", "subgroupExclusiveMul", "subgroupExclusiveOr",
    "subgroupExclusiveXor", "subgroupInclusiveAdd", "subgroupInclusiveAnd", "subgroupInclusiveMax",
    "subgroupInclusiveMin", "subgroupInclusiveMul", "subgroupInclusiveOr", "subgroupInclusiveXor",
    "subgroupInverseBallot", "subgroupMax", "subgroupMemoryBarrier", "subgroupMemoryBarrierBuffer",
    "subgroupMemoryBarrierImage", "subgroupMin", "subgroupMul", "subgroupOr", "subgroupPartitionNV",
    "subgroupPartitionedAddNV", "subgroupPartitionedAndNV", "subgroupPartitionedExclusiveAddNV",
    "subgroupPartitionedExclusiveAndNV", "subgroupPartitionedExclusiveMaxNV",
    "subgroupPartitionedExclusiveMinNV", "subgroupPartitionedExclusiveMulNV",
    "subgroupPartitionedExclusiveOrNV", "subgroupPartitionedExclusiveXorNV",
    "subgroupPartitionedInclusiveAddNV", "subgroupPartitionedInclusiveAndNV",
    "subgroupPartitionedInclusiveMaxNV", "subgroupPartitionedInclusiveMinNV",
    "subgroupPartitionedInclusiveMulNV", "subgroupPartitionedInclusiveOrNV",
    "subgroupPartitionedInclusiveXorNV", "subgroupPartitionedMaxNV", "subgroupPartitionedMinNV",
    "subgroupPartitionedMulNV", "subgroupPartitionedOrNV", "subgroupPartitionedXorNV",
    "subgroupQuadBroadcast", "subgroupQuadSwapDiagonal", "subgroupQuadSwapHorizontal",
    "subgroupQuadSwapVertical", "subgroupShuffle", "subgroupShuffleDown", "subgroupShuffleUp",
    "subgroupShuffleXor", "subgroupXor", "subpassLoad", "subtractSaturate", "swizzleInvocationsAMD",
    "swizzleInvocationsMaskedAMD", "tan", "tanh", "texelFetch", "texelFetchOffset", "texelGradFetch",
    "texelGradFetchOffset", "texelProjFetch", "texelProjFetchOffset", "texelProjGradFetch", "texture",
    "texture2DGradEXT", "texture2DLodEXT", "texture2DProjGradEXT", "texture2DProjLodEXT", "textureClampARB",
    "textureCubeGradEXT", "textureCubeLodEXT", "textureFootprintClampNV", "textureFootprintGradClampNV",
    "textureFootprintGradNV", "textureFootprintLodNV", "textureFootprintNV", "textureGather",
    "textureGatherLodAMD", "textureGatherLodOffsetAMD", "textureGatherLodOffsetsAMD", "textureGatherOffset",
    "textureGatherOffsets", "textureGrad", "textureGradClampARB", "textureGradOffset",
    "textureGradOffsetClampARB", "textureLod", "textureLodOffset", "textureOffset", "textureOffsetClampARB",
    "textureProj", "textureProjGrad", "textureProjGradOffset", "textureProjLod", "textureProjLodOffset",
    "textureProjOffset", "textureQueryLOD", "textureQueryLevels", "textureQueryLod", "textureSamples",
    "textureSize", "timeAMD", "transpose", "trunc", "uaddCarry", "uint16BitsToFloat16", "uint16BitsToHalf",
    "uint64BitsToDouble", "uintBitsToFloat", "umulExtended", "unpack16", "unpack32", "unpack8",
    "unpackDouble2x32", "unpackFloat2x16", "unpackHalf2x16", "unpackInt2x16", "unpackInt2x32",
    "unpackInt4x16", "unpackSnorm2x16", "unpackSnorm4x8", "unpackUint2x16", "unpackUint2x32",
    "unpackUint4x16", "unpackUnorm2x16", "unpackUnorm4x8", "usubBorrow", "writeInvocationAMD",
};

static int cmp_name(const void *key, const void *elem) { return strcmp((const char *)key, *(const char *const *)elem); }

/* A small scanner over glslang's preprocessed output (no comments; directive lines skipped):
 * identifiers, and single punctuation characters. No allocation (a steady frame's compiles
 * make the same allocations as before this check). */
typedef struct scan_tok {
    const char *s;
    uint32_t len;
    bool ident;
} scan_tok;

static bool ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool ident_char(char c) { return ident_start(c) || (c >= '0' && c <= '9'); }

static bool scan_next(const char **at, scan_tok *t) {
    const char *p = *at;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' || *p == '\v')
            p++;
        if (*p != '#')
            break;
        while (*p && *p != '\n')
            p++;
    }
    if (!*p)
        return false;
    t->s = p;
    t->ident = ident_start(*p);
    if (t->ident || (*p >= '0' && *p <= '9')) {
        while (ident_char(*p) || (!t->ident && *p == '.'))
            p++;
    } else {
        p++;
    }
    t->len = (uint32_t)(p - t->s);
    *at = p;
    return true;
}

static bool tok_is(const scan_tok *t, const char *s) { return t->len == strlen(s) && memcmp(t->s, s, t->len) == 0; }
static bool tok_punct_is(const scan_tok *t, char c) { return !t->ident && t->len == 1 && t->s[0] == c; }
static int depth_change(const scan_tok *t) {
    return tok_punct_is(t, '{') || tok_punct_is(t, '(') || tok_punct_is(t, '[')    ? 1
           : tok_punct_is(t, '}') || tok_punct_is(t, ')') || tok_punct_is(t, ']') ? -1
                                                                                  : 0;
}

static uint32_t line_of(const char *s, const char *at) {
    uint32_t line = 1;
    for (; s < at; s++)
        line += *s == '\n';
    return line;
}

/* A function of the source named `name`: `name (` at file scope anywhere in the text. */
static bool declares_function(const char *text, const scan_tok *name) {
    const char *at = text;
    scan_tok prev = {0}, t;
    int depth = 0;
    bool have_prev = false;
    while (scan_next(&at, &t)) {
        if (have_prev && depth == 0 && tok_punct_is(&t, '(') && prev.ident && prev.len == name->len &&
            memcmp(prev.s, name->s, name->len) == 0)
            return true;
        depth += depth_change(&t);
        if (depth < 0)
            depth = 0;
        prev = t;
        have_prev = true;
    }
    return false;
}

/* A block declaration at file scope is `<storage> <name> {` with storage uniform, in, out or
 * buffer. */
static hl_result check_block_names(const char *expanded, hl_rhi_shader_stage stage, const char *what) {
    const char *at = expanded;
    scan_tok p2 = {0}, p1 = {0}, t;
    int depth = 0;
    while (scan_next(&at, &t)) {
        if (depth == 0 && tok_punct_is(&t, '{') && p1.ident && p2.ident &&
            (tok_is(&p2, "uniform") || tok_is(&p2, "in") || tok_is(&p2, "out") || tok_is(&p2, "buffer"))) {
            char buf[128];
            if (p1.len < sizeof buf) {
                memcpy(buf, p1.s, p1.len);
                buf[p1.len] = '\0';
                bool clash = bsearch(buf, k_builtin_functions, sizeof k_builtin_functions / sizeof *k_builtin_functions,
                                     sizeof *k_builtin_functions, cmp_name) != NULL ||
                             declares_function(expanded, &p1);
                if (clash)
                    return hl__fail(HL_ERR_SHADER,
                                    "%s: %s shader line %u: the block name '%s' is the name of a function (a block "
                                    "needs a name of its own)",
                                    what, hl__stage_name(stage), line_of(expanded, p1.s), buf);
            }
        }
        depth += depth_change(&t);
        if (depth < 0)
            depth = 0;
        p2 = p1;
        p1 = t;
    }
    return HL_OK;
}

hl_result hl__glslang_expand(const char *pp, hl_rhi_shader_stage stage, bool validate, const char *what,
                             char **expanded, hl__sb *warnings) {
    *expanded = NULL;
    hl_result r = glslang_ready();
    if (r)
        return r;
    /* see hl__splice_lines: glslang must not see a line continuation */
    char *spliced = hl__has_continuation(pp) ? hl__splice_lines(pp) : NULL;
    if (!spliced && hl__has_continuation(pp))
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: out of memory", what);
    glslang_input_t in = make_input(stage, spliced ? spliced : pp, false);
    glslang_shader_t *sh = glslang_shader_create(&in);
    if (!sh) {
        hl__free(spliced);
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: glslang_shader_create failed", what);
    }
    if (!glslang_shader_preprocess(sh, &in)) {
        r = shader_fail(what, stage, "preprocessing", glslang_shader_get_info_log(sh));
    } else {
        *expanded = hl__strdup(glslang_shader_get_preprocessed_code(sh));
        if (!*expanded)
            r = hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: out of memory", what);
        else if (validate && (r = check_block_names(*expanded, stage, what)) == HL_OK &&
                 !glslang_shader_parse(sh, &in))
            r = shader_fail(what, stage, "compilation (GLSL ES 3.00)", glslang_shader_get_info_log(sh));
        if (!r)
            add_warnings(warnings, hl__stage_name(stage), glslang_shader_get_info_log(sh));
    }
    if (r) {
        hl__free(*expanded);
        *expanded = NULL;
    }
    glslang_shader_delete(sh);
    hl__free(spliced);
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
    char *spliced[2] = {NULL, NULL};
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
        if (hl__has_continuation(src[s]) && !(spliced[s] = hl__splice_lines(src[s]))) {
            r = hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: out of memory", what);
            break;
        }
        in[s] = make_input(stages[s], spliced[s] ? spliced[s] : src[s], true);
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
    for (int s = 0; s < 2; s++) {
        if (sh[s])
            glslang_shader_delete(sh[s]);
        hl__free(spliced[s]);
    }
    return r;
}
