/* Declaration scanning, binding plans, locations and the GLSL ES 3.00 -> Vulkan GLSL rewrite.
 *
 * Works on tokens at file scope only: a statement is the tokens up to ';' or '{' outside
 * parentheses. Uniform block heads, sampler uniforms and in/out variables are recognised from
 * their leading qualifiers; bodies of functions, structs and blocks are skipped. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shader_internal.h"

#define MAX_LOCATIONS 64 /* vertex input / varying locations tracked (more is an error) */

static const hl__sampler_kind k_samplers[] = {
    {"sampler2D", "texture2D", false, HL_RHI_TEXTURE_2D, HL_RHI_SAMPLE_FLOAT},
    {"sampler3D", "texture3D", false, HL_RHI_TEXTURE_3D, HL_RHI_SAMPLE_FLOAT},
    {"samplerCube", "textureCube", false, HL_RHI_TEXTURE_CUBE, HL_RHI_SAMPLE_FLOAT},
    {"sampler2DArray", "texture2DArray", false, HL_RHI_TEXTURE_2D_ARRAY, HL_RHI_SAMPLE_FLOAT},
    {"sampler2DShadow", "texture2D", true, HL_RHI_TEXTURE_2D, HL_RHI_SAMPLE_DEPTH},
    {"samplerCubeShadow", "textureCube", true, HL_RHI_TEXTURE_CUBE, HL_RHI_SAMPLE_DEPTH},
    {"sampler2DArrayShadow", "texture2DArray", true, HL_RHI_TEXTURE_2D_ARRAY, HL_RHI_SAMPLE_DEPTH},
    {"isampler2D", "itexture2D", false, HL_RHI_TEXTURE_2D, HL_RHI_SAMPLE_SINT},
    {"isampler3D", "itexture3D", false, HL_RHI_TEXTURE_3D, HL_RHI_SAMPLE_SINT},
    {"isamplerCube", "itextureCube", false, HL_RHI_TEXTURE_CUBE, HL_RHI_SAMPLE_SINT},
    {"isampler2DArray", "itexture2DArray", false, HL_RHI_TEXTURE_2D_ARRAY, HL_RHI_SAMPLE_SINT},
    {"usampler2D", "utexture2D", false, HL_RHI_TEXTURE_2D, HL_RHI_SAMPLE_UINT},
    {"usampler3D", "utexture3D", false, HL_RHI_TEXTURE_3D, HL_RHI_SAMPLE_UINT},
    {"usamplerCube", "utextureCube", false, HL_RHI_TEXTURE_CUBE, HL_RHI_SAMPLE_UINT},
    {"usampler2DArray", "utexture2DArray", false, HL_RHI_TEXTURE_2D_ARRAY, HL_RHI_SAMPLE_UINT},
};

const hl__sampler_kind *hl__sampler_kind_find(const char *glsl_type) {
    for (size_t i = 0; i < sizeof k_samplers / sizeof k_samplers[0]; i++)
        if (strcmp(k_samplers[i].glsl, glsl_type) == 0)
            return &k_samplers[i];
    return NULL;
}

/* ---- token helpers ---------------------------------------------------------------------------- */
static bool tok_is(const hl__lex *lx, uint32_t i, const char *text) {
    const hl__tok *t = &lx->toks[i];
    size_t n = strlen(text);
    return t->len == n && memcmp(lx->src + t->start, text, n) == 0;
}

static bool tok_punct(const hl__lex *lx, uint32_t i, char c) {
    return i < lx->count && lx->toks[i].kind == HL__TOK_PUNCT && lx->src[lx->toks[i].start] == c;
}

static bool tok_copy(const hl__lex *lx, uint32_t i, char *dst, size_t cap) {
    const hl__tok *t = &lx->toks[i];
    if (t->len >= cap)
        return false;
    memcpy(dst, lx->src + t->start, t->len);
    dst[t->len] = '\0';
    return true;
}

/* ---- statements ------------------------------------------------------------------------------- */
typedef enum stmt_kind {
    STMT_NONE = 0,
    STMT_BLOCK,   /* uniform Name {   (end = index of '{') */
    STMT_SAMPLER, /* uniform samplerX a, b; */
    STMT_IN,
    STMT_OUT,
    STMT_LOOSE_UNIFORM,
} stmt_kind;

typedef struct stmt {
    uint32_t begin, end; /* tokens [begin, end); end is the ';' or '{' */
    stmt_kind kind;
    uint32_t layout_lp, layout_rp; /* '(' and ')' of layout(...), 0 if none */
    int32_t location;              /* from layout(location = N), -1 if none */
    uint32_t storage_tok;          /* the in/out/uniform token */
    uint32_t type_tok;             /* type (or block name) token */
    uint32_t decl_first;           /* first declarator token */
    bool buffer, readonly;         /* GLSL ES 3.10: a `buffer` block, declared readonly */
} stmt;

static const char *const k_qualifiers[] = {"invariant", "flat",    "smooth", "centroid", "lowp", "mediump",
                                           "highp",     "precise", "in",     "out",      "uniform", "const"};

/* GLSL ES 3.10 only (storage shaders): storage blocks and memory qualifiers */
static const char *const k_qualifiers_310[] = {"buffer", "readonly", "writeonly", "coherent", "volatile", "restrict"};

static bool is_qualifier(const hl__lex *lx, uint32_t i) {
    if (lx->toks[i].kind != HL__TOK_IDENT)
        return false;
    for (size_t q = 0; q < sizeof k_qualifiers / sizeof k_qualifiers[0]; q++)
        if (tok_is(lx, i, k_qualifiers[q]))
            return true;
    for (size_t q = 0; lx->es310 && q < sizeof k_qualifiers_310 / sizeof k_qualifiers_310[0]; q++)
        if (tok_is(lx, i, k_qualifiers_310[q]))
            return true;
    return false;
}

static void analyze(const hl__lex *lx, uint32_t b, uint32_t e, stmt *st) {
    memset(st, 0, sizeof *st);
    st->begin = b;
    st->end = e;
    st->location = -1;
    for (uint32_t i = b; i < e; i++)
        if (lx->toks[i].kind == HL__TOK_DIRECTIVE)
            return; /* a directive inside a declaration: leave it alone */
    uint32_t i = b;
    int storage = 0; /* 1 in, 2 out, 3 uniform, 4 const, 5 buffer */
    while (i < e) {
        if (tok_is(lx, i, "layout") && tok_punct(lx, i + 1, '(')) {
            uint32_t k = i + 2;
            int depth = 1;
            for (; k < e; k++) {
                if (tok_punct(lx, k, '('))
                    depth++;
                else if (tok_punct(lx, k, ')') && --depth == 0)
                    break;
            }
            if (k >= e)
                return;
            st->layout_lp = i + 1;
            st->layout_rp = k;
            for (uint32_t m = i + 2; m + 2 < k; m++)
                if (tok_is(lx, m, "location") && tok_punct(lx, m + 1, '=') &&
                    lx->toks[m + 2].kind == HL__TOK_NUMBER)
                    st->location = (int32_t)strtol(lx->src + lx->toks[m + 2].start, NULL, 0);
            i = k + 1;
            continue;
        }
        if (!is_qualifier(lx, i))
            break;
        if (tok_is(lx, i, "in"))
            storage = 1, st->storage_tok = i;
        else if (tok_is(lx, i, "out"))
            storage = 2, st->storage_tok = i;
        else if (tok_is(lx, i, "uniform"))
            storage = 3, st->storage_tok = i;
        else if (tok_is(lx, i, "const"))
            storage = 4;
        else if (tok_is(lx, i, "buffer"))
            storage = 5, st->storage_tok = i;
        else if (tok_is(lx, i, "readonly"))
            st->readonly = true;
        i++;
    }
    if (storage == 0 || storage == 4 || i >= e || lx->toks[i].kind != HL__TOK_IDENT)
        return;
    if (storage == 5 && !tok_punct(lx, e, '{'))
        return; /* a buffer variable outside a block is not GLSL */
    st->type_tok = i;
    st->decl_first = i + 1;
    bool brace = tok_punct(lx, e, '{');
    if (brace) {
        if ((storage == 3 || storage == 5) && i + 1 == e) {
            st->kind = STMT_BLOCK;
            st->buffer = storage == 5;
        }
        return; /* in/out blocks are not GLSL ES 3.00 */
    }
    if (st->decl_first >= e || lx->toks[st->decl_first].kind != HL__TOK_IDENT)
        return;
    if (storage == 1)
        st->kind = STMT_IN;
    else if (storage == 2)
        st->kind = STMT_OUT;
    else {
        char type[32];
        bool sampler = tok_copy(lx, i, type, sizeof type) && hl__sampler_kind_find(type);
        st->kind = sampler ? STMT_SAMPLER : STMT_LOOSE_UNIFORM;
    }
}

typedef hl_result (*stmt_fn)(void *ctx, const hl__lex *lx, const stmt *st);

static uint32_t match_brace(const hl__lex *lx, uint32_t open) {
    int depth = 0;
    for (uint32_t k = open; k < lx->count; k++) {
        if (tok_punct(lx, k, '{'))
            depth++;
        else if (tok_punct(lx, k, '}') && --depth == 0)
            return k;
    }
    return lx->count;
}

/* Calls fn for every file-scope statement. */
static hl_result walk(const hl__lex *lx, stmt_fn fn, void *ctx) {
    uint32_t i = 0;
    while (i < lx->count) {
        if (lx->toks[i].kind == HL__TOK_DIRECTIVE) {
            i++;
            continue;
        }
        uint32_t j = i;
        int pd = 0;
        for (; j < lx->count; j++) {
            if (tok_punct(lx, j, '(') || tok_punct(lx, j, '['))
                pd++;
            else if (tok_punct(lx, j, ')') || tok_punct(lx, j, ']'))
                pd--;
            else if (pd <= 0 && (tok_punct(lx, j, ';') || tok_punct(lx, j, '{') || tok_punct(lx, j, '}')))
                break;
        }
        if (j >= lx->count)
            break;
        if (tok_punct(lx, j, '}')) { /* unbalanced text (e.g. split by #if): skip */
            i = j + 1;
            continue;
        }
        stmt st;
        analyze(lx, i, j, &st);
        hl_result r = fn(ctx, lx, &st);
        if (r)
            return r;
        if (tok_punct(lx, j, ';')) {
            i = j + 1;
            continue;
        }
        /* '{': a block, struct or function body */
        bool aggregate = st.kind == STMT_BLOCK || st.storage_tok != 0;
        for (uint32_t k = i; k < j && !aggregate; k++)
            aggregate = tok_is(lx, k, "struct");
        uint32_t k = match_brace(lx, j);
        if (aggregate) {
            while (k < lx->count && !tok_punct(lx, k, ';'))
                k++;
        }
        i = k + 1;
    }
    return HL_OK;
}

/* Declarator n of a statement: [first, last) tokens; false when there is none. */
static bool declarator(const hl__lex *lx, const stmt *st, uint32_t n, uint32_t *first, uint32_t *last) {
    uint32_t k = st->decl_first;
    for (uint32_t d = 0;; d++) {
        uint32_t f = k;
        int depth = 0;
        for (; k < st->end; k++) {
            if (tok_punct(lx, k, '(') || tok_punct(lx, k, '['))
                depth++;
            else if (tok_punct(lx, k, ')') || tok_punct(lx, k, ']'))
                depth--;
            else if (depth == 0 && tok_punct(lx, k, ','))
                break;
        }
        if (f >= st->end)
            return false;
        if (d == n) {
            *first = f;
            *last = k;
            return true;
        }
        k++;
    }
}

/* ---- scanning the active declarations ------------------------------------------------------- */
typedef struct scan_ctx {
    hl__sh_stage *st;
    hl_rhi_shader_stage stage;
} scan_ctx;

static uint32_t type_slots(const char *type) {
    static const char *const one[] = {"float", "int",   "uint",  "bool",  "vec2",  "vec3",  "vec4",
                                      "ivec2", "ivec3", "ivec4", "uvec2", "uvec3", "uvec4", "bvec2",
                                      "bvec3", "bvec4"};
    for (size_t i = 0; i < sizeof one / sizeof one[0]; i++)
        if (strcmp(type, one[i]) == 0)
            return 1;
    if (strncmp(type, "mat", 3) == 0 && type[3] >= '2' && type[3] <= '4' &&
        (type[4] == '\0' || (type[4] == 'x' && type[5] >= '2' && type[5] <= '4' && type[6] == '\0')))
        return (uint32_t)(type[3] - '0');
    return 0;
}

static hl_result add_item(hl__sh_item *items, uint32_t *count, const hl__lex *lx, uint32_t name_tok,
                          const char *type, const char *what, hl_rhi_shader_stage stage) {
    char name[HL__SH_NAME_MAX];
    if (!tok_copy(lx, name_tok, name, sizeof name))
        return hl__fail(HL_ERR_UNSUPPORTED, "%s shader: %s name longer than %d characters", hl__stage_name(stage),
                        what, HL__SH_NAME_MAX - 1);
    for (uint32_t i = 0; i < *count; i++)
        if (strcmp(items[i].name, name) == 0)
            return HL_OK;
    if (*count == HL__SH_MAX_ITEMS)
        return hl__fail(HL_ERR_UNSUPPORTED, "%s shader: more than %d %ss", hl__stage_name(stage), HL__SH_MAX_ITEMS,
                        what);
    hl__sh_item *it = &items[(*count)++];
    memset(it, 0, sizeof *it);
    memcpy(it->name, name, sizeof name);
    snprintf(it->type, sizeof it->type, "%s", type);
    it->location = -1;
    it->slots = 1;
    return HL_OK;
}

static hl_result scan_stmt(void *vctx, const hl__lex *lx, const stmt *st) {
    scan_ctx *c = vctx;
    const char *sn = hl__stage_name(c->stage);
    char type[32] = "";
    if (st->kind != STMT_NONE && !tok_copy(lx, st->type_tok, type, sizeof type))
        return hl__fail(HL_ERR_UNSUPPORTED, "%s shader: type name too long", sn);
    if (st->kind == STMT_BLOCK && st->buffer && !st->readonly)
        return hl__fail(HL_ERR_SHADER, "%s shader: storage block '%s' must be declared readonly (graphics shaders only "
                        "read storage buffers)", sn, type);
    if (st->kind == STMT_BLOCK) {
        uint32_t before = c->st->block_count;
        hl_result r = add_item(c->st->blocks, &c->st->block_count, lx, st->type_tok, type,
                               st->buffer ? "storage block" : "uniform block", c->stage);
        if (!r && c->st->block_count > before) c->st->blocks[before].storage = st->buffer;
        return r;
    }
    if (st->kind == STMT_NONE)
        return HL_OK;
    uint32_t f, l;
    for (uint32_t d = 0; declarator(lx, st, d, &f, &l); d++) {
        char name[HL__SH_NAME_MAX] = "?";
        tok_copy(lx, f, name, sizeof name);
        uint32_t array = 1;
        if (f + 1 < l && tok_punct(lx, f + 1, '[')) {
            if (st->kind == STMT_SAMPLER)
                return hl__fail(HL_ERR_UNSUPPORTED, "%s shader: sampler array '%s' is not supported", sn, name);
            if (!(f + 3 < l && lx->toks[f + 2].kind == HL__TOK_NUMBER && tok_punct(lx, f + 3, ']')))
                return hl__fail(HL_ERR_UNSUPPORTED,
                                "%s shader: array size of '%s' must be an integer literal (or a #define)", sn, name);
            array = (uint32_t)strtoul(lx->src + lx->toks[f + 2].start, NULL, 0);
        }
        switch (st->kind) {
        case STMT_LOOSE_UNIFORM:
            return hl__fail(HL_ERR_SHADER,
                            "%s shader: uniform '%s' is outside a uniform block (numeric uniforms must live in "
                            "std140 uniform blocks; only samplers may be loose)",
                            sn, name);
        case STMT_SAMPLER: {
            hl_result r = add_item(c->st->samplers, &c->st->sampler_count, lx, f, type, "sampler", c->stage);
            if (r)
                return r;
            break;
        }
        case STMT_IN:
        case STMT_OUT: {
            bool in = st->kind == STMT_IN;
            hl__sh_item *items = in ? c->st->ins : c->st->outs;
            uint32_t *count = in ? &c->st->in_count : &c->st->out_count;
            uint32_t slots = type_slots(type);
            if (!slots)
                return hl__fail(HL_ERR_UNSUPPORTED, "%s shader: %s '%s' has type '%s' (struct interface variables "
                                "are not supported)", sn, in ? "input" : "output", name, type);
            uint32_t before = *count;
            hl_result r = add_item(items, count, lx, f, type, in ? "input" : "output", c->stage);
            if (r)
                return r;
            if (*count > before) {
                uint64_t total = (uint64_t)slots * array; /* huge arrays must not wrap to few slots */
                items[before].slots = total > MAX_LOCATIONS ? MAX_LOCATIONS + 1u : (uint32_t)total;
                items[before].location = d == 0 ? st->location : -1;
            }
            break;
        }
        default:
            break;
        }
    }
    return HL_OK;
}

hl_result hl__scan_stage(const char *expanded, hl_rhi_shader_stage stage, hl__sh_stage *out) {
    memset(out, 0, sizeof *out);
    hl__lex lx;
    hl_result r = hl__lex_run(expanded, &lx);
    if (r)
        return r;
    lx.es310 = hl__text_is_es310(expanded);
    scan_ctx c = {out, stage};
    r = walk(&lx, scan_stmt, &c);
    hl__lex_free(&lx);
    return r;
}

/* ---- locations ------------------------------------------------------------------------------- */

static bool mark(uint64_t *used, int32_t loc, uint32_t slots) {
    if (loc < 0 || (uint64_t)loc + slots > MAX_LOCATIONS) /* 64-bit: a huge slot count must not wrap */
        return false;
    for (uint32_t s = 0; s < slots; s++)
        *used |= 1ull << (loc + (int32_t)s);
    return true;
}

static bool is_free(uint64_t used, uint32_t loc, uint32_t slots) {
    if ((uint64_t)loc + slots > MAX_LOCATIONS)
        return false;
    for (uint32_t s = 0; s < slots; s++)
        if (used & (1ull << (loc + s)))
            return false;
    return true;
}

static hl_result assign_list(hl__sh_item *items, uint32_t count, uint64_t used, const char *what,
                             hl_rhi_shader_stage stage) {
    for (uint32_t i = 0; i < count; i++)
        if (items[i].location >= 0 && !mark(&used, items[i].location, items[i].slots))
            return hl__fail(HL_ERR_SHADER, "%s shader: %s '%s' location %d out of range", hl__stage_name(stage), what,
                            items[i].name, items[i].location);
    uint32_t next = 0;
    for (uint32_t i = 0; i < count; i++) {
        if (items[i].location >= 0)
            continue;
        while (next < MAX_LOCATIONS && !is_free(used, next, items[i].slots))
            next++;
        if (next >= MAX_LOCATIONS)
            return hl__fail(HL_ERR_UNSUPPORTED, "%s shader: out of %s locations at '%s'", hl__stage_name(stage), what,
                            items[i].name);
        items[i].location = (int32_t)next;
        mark(&used, (int32_t)next, items[i].slots);
    }
    return HL_OK;
}

hl_result hl__assign_locations(hl__sh_stage *st, hl_rhi_shader_stage stage, const hl__sh_stage *vs) {
    hl_result r = assign_list(st->outs, st->out_count, 0, "output", stage);
    if (r)
        return r;
    uint64_t used = 0;
    if (stage == HL_RHI_SHADER_FRAGMENT && vs) {
        /* varyings match by name: take the vertex stage's location of the same name */
        for (uint32_t v = 0; v < vs->out_count; v++)
            mark(&used, vs->outs[v].location, vs->outs[v].slots);
        for (uint32_t i = 0; i < st->in_count; i++) {
            if (st->ins[i].location >= 0)
                continue;
            for (uint32_t v = 0; v < vs->out_count; v++)
                if (strcmp(vs->outs[v].name, st->ins[i].name) == 0)
                    st->ins[i].location = vs->outs[v].location;
        }
    }
    return assign_list(st->ins, st->in_count, used, "input", stage);
}

/* ---- binding plan ---------------------------------------------------------------------------- */
const hl_rhi_binding_plan_entry *hl__plan_find(const hl_rhi_binding_plan_entry *plan, uint32_t count,
                                               hl_rhi_binding_plan_kind kind, const char *name) {
    for (uint32_t i = 0; i < count; i++)
        if (plan[i].kind == kind && plan[i].name && strcmp(plan[i].name, name) == 0)
            return &plan[i];
    return NULL;
}

static bool plan_has(const hl_rhi_binding_plan_entry *plan, uint32_t count, hl_rhi_binding_plan_kind kind,
                     const char *name) {
    return hl__plan_find(plan, count, kind, name) != NULL;
}

static hl_result check_collisions(const hl_rhi_binding_plan_entry *plan, uint32_t count) {
    for (uint32_t i = 0; i < count; i++) {
        const hl_rhi_binding_plan_entry *a = &plan[i];
        if (a->group >= HL_RHI_MAX_BIND_GROUPS)
            return hl__fail(HL_ERR_VALIDATION, "binding plan: '%s' group %u >= %d", a->name, a->group,
                            HL_RHI_MAX_BIND_GROUPS);
        if (a->kind == HL_RHI_PLAN_SAMPLER && a->binding == a->sampler_binding)
            return hl__fail(HL_ERR_VALIDATION, "binding plan: sampler '%s' has binding == sampler_binding (%u)",
                            a->name, a->binding);
        uint32_t abind[2] = {a->binding, a->sampler_binding};
        uint32_t an = a->kind == HL_RHI_PLAN_SAMPLER ? 2 : 1;
        for (uint32_t j = i + 1; j < count; j++) {
            const hl_rhi_binding_plan_entry *b = &plan[j];
            if (b->group != a->group)
                continue;
            uint32_t bbind[2] = {b->binding, b->sampler_binding};
            uint32_t bn = b->kind == HL_RHI_PLAN_SAMPLER ? 2 : 1;
            for (uint32_t x = 0; x < an; x++)
                for (uint32_t y = 0; y < bn; y++)
                    if (abind[x] == bbind[y])
                        return hl__fail(HL_ERR_VALIDATION, "binding plan: '%s' and '%s' both use group %u binding %u",
                                        a->name, b->name, a->group, abind[x]);
        }
    }
    return HL_OK;
}

hl_result hl__build_plan(const hl__sh_stage *const *stages, uint32_t stage_count,
                         const hl_rhi_binding_plan_entry *explicit_plan, uint32_t explicit_count,
                         hl_rhi_binding_plan_entry **out, uint32_t *out_count) {
    *out = NULL;
    *out_count = 0;
    if (explicit_count && !explicit_plan)
        return hl__fail(HL_ERR_VALIDATION, "binding plan: bindings is NULL with binding_count %u", explicit_count);
    for (uint32_t i = 0; i < explicit_count; i++) {
        if (!explicit_plan[i].name || !explicit_plan[i].name[0])
            return hl__fail(HL_ERR_VALIDATION, "binding plan: bindings[%u].name is empty", i);
        if (explicit_plan[i].kind != HL_RHI_PLAN_UNIFORM_BLOCK && explicit_plan[i].kind != HL_RHI_PLAN_SAMPLER)
            return hl__fail(HL_ERR_VALIDATION, "binding plan: bindings[%u].kind %d is invalid", i,
                            (int)explicit_plan[i].kind);
    }
    uint32_t max = 0;
    for (uint32_t s = 0; s < stage_count; s++)
        max += stages[s]->block_count + stages[s]->sampler_count;
    hl_rhi_binding_plan_entry *plan = hl__calloc(max ? max : 1, sizeof *plan);
    if (!plan)
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "binding plan: out of memory");
    uint32_t n = 0, next_storage = 0;
    /* blocks first (vertex stage first), then samplers */
    for (int pass = 0; pass < 2; pass++) {
        hl_rhi_binding_plan_kind kind = pass == 0 ? HL_RHI_PLAN_UNIFORM_BLOCK : HL_RHI_PLAN_SAMPLER;
        for (uint32_t s = 0; s < stage_count; s++) {
            const hl__sh_item *items = pass == 0 ? stages[s]->blocks : stages[s]->samplers;
            uint32_t count = pass == 0 ? stages[s]->block_count : stages[s]->sampler_count;
            for (uint32_t i = 0; i < count; i++) {
                if (plan_has(plan, n, kind, items[i].name))
                    continue;
                hl_rhi_binding_plan_entry e = {kind, items[i].name, 0, 0, 0};
                if (explicit_count) {
                    const hl_rhi_binding_plan_entry *x = hl__plan_find(explicit_plan, explicit_count, kind, items[i].name);
                    if (!x && pass == 0 && items[i].storage) { /* storage blocks: group 3 in order */
                        e.group = HL_SHADER_STORAGE_GROUP;
                        e.binding = next_storage++;
                        plan[n++] = e;
                        continue;
                    }
                    if (!x) {
                        hl__free(plan);
                        return hl__fail(HL_ERR_VALIDATION,
                                        "binding plan: no entry for %s '%s', which the shader declares",
                                        kind == HL_RHI_PLAN_SAMPLER ? "sampler" : "uniform block", items[i].name);
                    }
                    e = *x;
                }
                plan[n++] = e;
            }
        }
    }
    if (!explicit_count) {
        uint32_t b = 0;
        for (uint32_t i = 0; i < n; i++) {
            plan[i].group = 0;
            plan[i].binding = b++;
            plan[i].sampler_binding = plan[i].kind == HL_RHI_PLAN_SAMPLER ? b++ : 0;
        }
    } else {
        hl_result r = check_collisions(plan, n);
        if (r) {
            hl__free(plan);
            return r;
        }
    }
    *out = plan;
    *out_count = n;
    return HL_OK;
}

/* ---- rewriting -------------------------------------------------------------------------------- */
typedef struct edit {
    uint32_t first, last; /* tokens [first, last] replaced */
    size_t text, text_len; /* in rw.edits */
} edit;

#define MAX_SAMPLER_FNS 32

typedef struct sampler_param {
    char name[HL__SH_NAME_MAX];
    const hl__sampler_kind *kind;
    uint32_t open, close; /* body braces */
} sampler_param;

typedef struct rw {
    const hl__sh_stage *st;
    hl_rhi_shader_stage stage;
    bool vulkan;
    const hl_rhi_binding_plan_entry *plan;
    uint32_t plan_count;
    hl__sb text; /* replacement texts */
    edit *list;
    uint32_t count, cap;
    /* functions taking samplers: their names, and each named sampler parameter with the token
     * range of the body it is visible in */
    char fn_names[MAX_SAMPLER_FNS][HL__SH_NAME_MAX];
    uint32_t fn_count;
    sampler_param params[MAX_SAMPLER_FNS];
    uint32_t param_count;
} rw;

static hl_result add_edit(rw *w, uint32_t first, uint32_t last, size_t text_start) {
    if (w->text.oom)
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "shader rewrite: out of memory");
    if (w->count == w->cap) {
        uint32_t cap = w->cap ? w->cap * 2 : 32;
        edit *l = hl__realloc(w->list, cap * sizeof *l);
        if (!l)
            return hl__fail(HL_ERR_OUT_OF_MEMORY, "shader rewrite: out of memory");
        w->list = l;
        w->cap = cap;
    }
    w->list[w->count++] = (edit){first, last, text_start, w->text.len - text_start};
    return HL_OK;
}

static void put_tok(hl__sb *sb, const hl__lex *lx, uint32_t i) {
    hl__sb_put(sb, lx->src + lx->toks[i].start, lx->toks[i].len);
}

/* Copies the layout(...) arguments except location / packing / set / binding. */
static void put_kept_layout_args(hl__sb *sb, const hl__lex *lx, const stmt *st, bool block) {
    if (!st->layout_lp)
        return;
    uint32_t k = st->layout_lp + 1;
    while (k < st->layout_rp) {
        uint32_t f = k;
        int depth = 0;
        for (; k < st->layout_rp; k++) {
            if (tok_punct(lx, k, '('))
                depth++;
            else if (tok_punct(lx, k, ')'))
                depth--;
            else if (depth == 0 && tok_punct(lx, k, ','))
                break;
        }
        bool drop = f == k || tok_is(lx, f, "location") || tok_is(lx, f, "set") || tok_is(lx, f, "binding") ||
                    (block && (tok_is(lx, f, "std140") || tok_is(lx, f, "shared") || tok_is(lx, f, "packed") ||
                               tok_is(lx, f, "std430")));
        if (!drop) {
            hl__sb_puts(sb, ", ");
            for (uint32_t t = f; t < k; t++)
                put_tok(sb, lx, t);
        }
        k++;
    }
}

/* The declared name of declarator [f, l): its last identifier before '[' (the rewriter reads
 * unexpanded text, where a macro such as `PREC` may stand before the type, so the statement's
 * type token is not always right before the name). */
static uint32_t declarator_name(const hl__lex *lx, uint32_t f, uint32_t l) {
    uint32_t name = f;
    for (uint32_t k = f; k < l && !tok_punct(lx, k, '['); k++)
        if (lx->toks[k].kind == HL__TOK_IDENT)
            name = k;
    return name;
}

static const hl__sh_item *find_item(const hl__sh_item *items, uint32_t count, const char *name) {
    for (uint32_t i = 0; i < count; i++)
        if (strcmp(items[i].name, name) == 0)
            return &items[i];
    return NULL;
}

/* A function prototype or definition with sampler parameters: each `samplerX s` becomes
 * `textureX s_tex, sampler s_smp` (Vulkan GLSL cannot pass combined samplers built from
 * separate objects); calls pass the pair, and the body re-combines it at each use. */
static hl_result rw_function_head(rw *w, const hl__lex *lx, const stmt *st) {
    uint32_t lp = st->begin;
    while (lp < st->end && !tok_punct(lx, lp, '('))
        lp++;
    if (lp >= st->end || lp == st->begin || lx->toks[lp - 1].kind != HL__TOK_IDENT)
        return HL_OK;
    bool definition = tok_punct(lx, st->end, '{');
    uint32_t close = definition ? match_brace(lx, st->end) : 0;
    bool any = false;
    for (uint32_t k = lp + 1; k < st->end; k++) {
        char type[32];
        if (lx->toks[k].kind != HL__TOK_IDENT || !tok_copy(lx, k, type, sizeof type))
            continue;
        const hl__sampler_kind *sk = hl__sampler_kind_find(type);
        if (!sk)
            continue;
        size_t start = w->text.len;
        const char *smp = sk->comparison ? "samplerShadow" : "sampler";
        bool named = k + 1 < st->end && lx->toks[k + 1].kind == HL__TOK_IDENT;
        char name[HL__SH_NAME_MAX] = "";
        if (named && !tok_copy(lx, k + 1, name, sizeof name))
            return hl__fail(HL_ERR_UNSUPPORTED, "shader rewrite: parameter name too long");
        if (named)
            hl__sb_printf(&w->text, "%s %s_tex, %s %s_smp", sk->texture, name, smp, name);
        else
            hl__sb_printf(&w->text, "%s, %s", sk->texture, smp);
        hl_result r = add_edit(w, k, named ? k + 1 : k, start);
        if (r)
            return r;
        if (named && definition) {
            if (w->param_count == MAX_SAMPLER_FNS)
                return hl__fail(HL_ERR_UNSUPPORTED, "shader rewrite: more than %d sampler parameters",
                                MAX_SAMPLER_FNS);
            sampler_param *sp = &w->params[w->param_count++];
            memcpy(sp->name, name, sizeof name);
            sp->kind = sk;
            sp->open = st->end;
            sp->close = close;
        }
        any = true;
        k += named;
    }
    if (any) {
        char fn[HL__SH_NAME_MAX];
        if (!tok_copy(lx, lp - 1, fn, sizeof fn))
            return HL_OK;
        for (uint32_t i = 0; i < w->fn_count; i++)
            if (strcmp(w->fn_names[i], fn) == 0)
                return HL_OK;
        if (w->fn_count == MAX_SAMPLER_FNS)
            return hl__fail(HL_ERR_UNSUPPORTED, "shader rewrite: more than %d functions with sampler parameters",
                            MAX_SAMPLER_FNS);
        memcpy(w->fn_names[w->fn_count++], fn, sizeof fn);
    }
    return HL_OK;
}

static hl_result rw_stmt(void *vctx, const hl__lex *lx, const stmt *st) {
    rw *w = vctx;
    size_t start = w->text.len;
    char name[HL__SH_NAME_MAX];
    if (w->vulkan && st->kind == STMT_NONE)
        return rw_function_head(w, lx, st);
    if (st->kind == STMT_BLOCK) {
        if (!w->vulkan || !tok_copy(lx, st->type_tok, name, sizeof name))
            return HL_OK;
        const hl_rhi_binding_plan_entry *e = hl__plan_find(w->plan, w->plan_count, HL_RHI_PLAN_UNIFORM_BLOCK, name);
        if (!e)
            return HL_OK; /* not active in this variant */
        hl__sb_puts(&w->text, st->buffer ? "layout(std430" : "layout(std140");
        put_kept_layout_args(&w->text, lx, st, true);
        hl__sb_printf(&w->text, ", set = %u, binding = %u) %s", e->group, e->binding,
                      st->buffer ? "readonly buffer" : "uniform");
        return add_edit(w, st->begin, st->storage_tok, start);
    }
    if (st->kind == STMT_SAMPLER) {
        if (!w->vulkan)
            return HL_OK;
        char type[32];
        if (!tok_copy(lx, st->type_tok, type, sizeof type))
            return HL_OK;
        const hl__sampler_kind *sk = hl__sampler_kind_find(type);
        uint32_t f, l;
        for (uint32_t d = 0; declarator(lx, st, d, &f, &l); d++) {
            const hl_rhi_binding_plan_entry *e = NULL;
            if (l == f + 1 && tok_copy(lx, f, name, sizeof name))
                e = hl__plan_find(w->plan, w->plan_count, HL_RHI_PLAN_SAMPLER, name);
            if (!e) {
                w->text.len = start; /* inactive or unsupported: leave the statement as written */
                return HL_OK;
            }
            hl__sb_printf(&w->text,
                          "%slayout(set = %u, binding = %u) uniform %s %s_tex; layout(set = %u, binding = %u) "
                          "uniform %s %s_smp;",
                          d ? " " : "", e->group, e->binding, sk->texture, name, e->group, e->sampler_binding,
                          sk->comparison ? "samplerShadow" : "sampler", name);
        }
        return add_edit(w, st->begin, st->end, start);
    }
    if (st->kind != STMT_IN && st->kind != STMT_OUT)
        return HL_OK;
    bool in = st->kind == STMT_IN;
    if (st->location >= 0)
        return HL_OK; /* explicit */
    if (!w->vulkan && !((in && w->stage == HL_RHI_SHADER_VERTEX) || (!in && w->stage == HL_RHI_SHADER_FRAGMENT)))
        return HL_OK; /* GLSL ES 3.00 has no locations on varyings */
    /* the type is everything between the qualifiers and the first declarator's name (a macro
     * such as `PREC` may stand in it); each declarator becomes one declaration of that type */
    uint32_t f, l, name0 = 0;
    if (declarator(lx, st, 0, &f, &l))
        name0 = declarator_name(lx, f, l);
    for (uint32_t d = 0; declarator(lx, st, d, &f, &l); d++) {
        const hl__sh_item *it = NULL;
        uint32_t first = d == 0 ? name0 : f;
        if (tok_copy(lx, declarator_name(lx, first, l), name, sizeof name))
            it = in ? find_item(w->st->ins, w->st->in_count, name) : find_item(w->st->outs, w->st->out_count, name);
        if (!it || it->location < 0) {
            w->text.len = start;
            return HL_OK;
        }
        hl__sb_printf(&w->text, "%slayout(location = %d", d ? " " : "", it->location);
        put_kept_layout_args(&w->text, lx, st, false);
        hl__sb_puts(&w->text, ")");
        for (uint32_t t = st->layout_rp ? st->layout_rp + 1 : st->begin; t < name0; t++) {
            hl__sb_puts(&w->text, " ");
            put_tok(&w->text, lx, t);
        }
        hl__sb_puts(&w->text, " ");
        for (uint32_t t = first; t < l; t++)
            put_tok(&w->text, lx, t);
        hl__sb_puts(&w->text, ";");
    }
    return add_edit(w, st->begin, st->end, start);
}

static bool is_sampler_fn(const rw *w, const hl__lex *lx, uint32_t callee) {
    for (uint32_t i = 0; i < w->fn_count; i++)
        if (tok_is(lx, callee, w->fn_names[i]))
            return true;
    return false;
}

/* Identifier at token i of the rewritten source: a sampler (parameter in scope, else global)
 * becomes the texture/sampler pair when it is a whole argument of a call to a function taking
 * samplers (callee: the token before the innermost open parenthesis, or UINT32_MAX), else the
 * combined-sampler constructor. */
static bool token_replacement(const rw *w, const hl__lex *lx, uint32_t i, uint32_t callee, hl__sb *out) {
    const char *s = lx->src + lx->toks[i].start;
    size_t n = lx->toks[i].len;
    const char *type = NULL;
    for (uint32_t p = 0; p < w->param_count && !type; p++)
        if (i > w->params[p].open && i < w->params[p].close && tok_is(lx, i, w->params[p].name))
            type = w->params[p].kind->glsl;
    for (uint32_t k = 0; k < w->st->sampler_count && !type; k++)
        if (tok_is(lx, i, w->st->samplers[k].name))
            type = w->st->samplers[k].type;
    if (!type)
        return false;
    bool whole_arg = i > 0 && i + 1 < lx->count && (tok_punct(lx, i - 1, '(') || tok_punct(lx, i - 1, ',')) &&
                     (tok_punct(lx, i + 1, ')') || tok_punct(lx, i + 1, ','));
    if (whole_arg && callee != UINT32_MAX && is_sampler_fn(w, lx, callee))
        hl__sb_printf(out, "%.*s_tex, %.*s_smp", (int)n, s, (int)n, s);
    else
        hl__sb_printf(out, "%s(%.*s_tex, %.*s_smp)", type, (int)n, s, (int)n, s);
    return true;
}

/* Use-site replacement of an identifier (sampler names, Vulkan built-in renames). */
static bool ident_replacement(const rw *w, const char *s, size_t n, hl__sb *out) {
    if (!w->vulkan)
        return false;
    if (n == 11 && memcmp(s, "gl_VertexID", 11) == 0) {
        hl__sb_puts(out, "gl_VertexIndex");
        return true;
    }
    if (n == 13 && memcmp(s, "gl_InstanceID", 13) == 0) {
        hl__sb_puts(out, "gl_InstanceIndex");
        return true;
    }
    for (uint32_t i = 0; i < w->st->sampler_count; i++) {
        const hl__sh_item *it = &w->st->samplers[i];
        if (strlen(it->name) == n && memcmp(it->name, s, n) == 0) {
            hl__sb_printf(out, "%s(%s_tex, %s_smp)", it->type, it->name, it->name);
            return true;
        }
    }
    return false;
}

/* Directive text: #version becomes 450; identifiers in macro bodies get use-site replacement. */
static void put_directive(const rw *w, hl__sb *out, const char *s, size_t n) {
    size_t i = 1;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (w->vulkan && n - i >= 7 && memcmp(s + i, "version", 7) == 0) {
        hl__sb_puts(out, "#version 450");
        for (size_t k = i; k < n; k++) /* a directive continued over lines keeps its line count */
            if (s[k] == '\n')
                hl__sb_puts(out, "\n");
        return;
    }
    size_t copied = 0;
    bool first_word = true;
    char prev = 0;
    while (i < n) {
        if (s[i] == '/' && i + 1 < n && (s[i + 1] == '/' || s[i + 1] == '*')) {
            size_t e = i + 2;
            if (s[i + 1] == '/')
                e = n;
            else {
                while (e + 1 < n && !(s[e] == '*' && s[e + 1] == '/'))
                    e++;
                e = e + 2 < n ? e + 2 : n;
            }
            i = e;
            continue;
        }
        if (isalpha((unsigned char)s[i]) || s[i] == '_') {
            size_t b = i;
            while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '_'))
                i++;
            if (!first_word && prev != '.') {
                hl__sb tmp = {0};
                if (ident_replacement(w, s + b, i - b, &tmp)) {
                    hl__sb_put(out, s + copied, b - copied);
                    hl__sb_put(out, tmp.data, tmp.len);
                    copied = i;
                }
                hl__sb_free(&tmp);
            }
            first_word = false;
            prev = s[i - 1];
            continue;
        }
        if (isdigit((unsigned char)s[i])) {
            while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '.' || s[i] == '_'))
                i++;
            prev = '0';
            continue;
        }
        if (!isspace((unsigned char)s[i]))
            prev = s[i];
        i++;
    }
    hl__sb_put(out, s + copied, n - copied);
}

hl_result hl__rewrite(const char *pp, hl_rhi_shader_stage stage, bool vulkan, const hl__sh_stage *st,
                      const hl_rhi_binding_plan_entry *plan, uint32_t plan_count, char **out) {
    *out = NULL;
    hl__lex lx;
    hl_result r = hl__lex_run(pp, &lx);
    if (r)
        return r;
    lx.es310 = hl__text_is_es310(pp);
    rw *w = hl__calloc(1, sizeof *w);
    if (!w) {
        hl__lex_free(&lx);
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "shader rewrite: out of memory");
    }
    w->st = st;
    w->stage = stage;
    w->vulkan = vulkan;
    w->plan = plan;
    w->plan_count = plan_count;
    r = walk(&lx, rw_stmt, w);
    hl__sb o = {0};
    uint32_t callees[64]; /* callee token of each open parenthesis */
    uint32_t depth = 0;
    if (!r) {
        size_t pos = 0; /* source offset copied so far */
        uint32_t e = 0;
        for (uint32_t i = 0; i < lx.count; i++) {
            const hl__tok *t = &lx.toks[i];
            if (tok_punct(&lx, i, '(')) {
                if (depth < 64)
                    callees[depth] = i > 0 && lx.toks[i - 1].kind == HL__TOK_IDENT ? i - 1 : UINT32_MAX;
                depth++;
            } else if (tok_punct(&lx, i, ')') && depth) {
                depth--;
            }
            uint32_t callee = depth && depth <= 64 ? callees[depth - 1] : UINT32_MAX;
            hl__sb_put(&o, pp + pos, t->start - pos);
            if (e < w->count && w->list[e].first == i) {
                const edit *ed = &w->list[e++];
                hl__sb_put(&o, w->text.data + ed->text, ed->text_len);
                const hl__tok *lt = &lx.toks[ed->last];
                for (uint32_t k = t->start; k < lt->start + lt->len; k++)
                    if (pp[k] == '\n')
                        hl__sb_puts(&o, "\n"); /* keep line numbers */
                pos = lt->start + lt->len;
                i = ed->last;
                continue;
            }
            const char *s = pp + t->start;
            bool ident = t->kind == HL__TOK_IDENT && !tok_punct(&lx, i - (i > 0), '.');
            bool done = false;
            if (t->kind == HL__TOK_DIRECTIVE) {
                put_directive(w, &o, s, t->len);
                done = true;
            } else if (ident && vulkan) {
                done = token_replacement(w, &lx, i, callee, &o) || ident_replacement(w, s, t->len, &o);
            }
            if (!done)
                hl__sb_put(&o, s, t->len);
            pos = t->start + t->len;
        }
        hl__sb_puts(&o, pp + pos);
        *out = hl__sb_take(&o);
        if (!*out)
            r = hl__fail(HL_ERR_OUT_OF_MEMORY, "shader rewrite: out of memory");
    }
    hl__sb_free(&o);
    hl__sb_free(&w->text);
    hl__free(w->list);
    hl__free(w);
    hl__lex_free(&lx);
    return r;
}

/* ---- public single-stage rewrite -------------------------------------------------------------- */
hl_result hl_shader_rewrite_vulkan(const char *source, hl_rhi_shader_stage stage,
                                   const hl_rhi_binding_plan_entry *plan, uint32_t plan_count, char **out) {
    if (!out)
        return hl__fail(HL_ERR_VALIDATION, "hl_shader_rewrite_vulkan: out is NULL");
    *out = NULL;
    if (!source)
        return hl__fail(HL_ERR_VALIDATION, "hl_shader_rewrite_vulkan: source is NULL");
    if (stage != HL_RHI_SHADER_VERTEX && stage != HL_RHI_SHADER_FRAGMENT)
        return hl__fail(HL_ERR_VALIDATION, "hl_shader_rewrite_vulkan: stage must be vertex or fragment");
    hl_result r = hl__check_source_size(source);
    if (!r)
        r = hl__pp_guard(source, false, NULL, NULL);
    if (r)
        return r;
    hl__sh_stage *st = hl__calloc(1, sizeof *st);
    if (!st)
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "hl_shader_rewrite_vulkan: out of memory");
    char *expanded = NULL;
    hl_rhi_binding_plan_entry *p = NULL;
    uint32_t pn = 0;
    hl__sb warnings = {0};
    r = hl__glslang_expand(source, stage, false, "shader", &expanded, &warnings);
    if (!r)
        r = hl__scan_stage(expanded, stage, st);
    if (!r)
        r = hl__assign_locations(st, stage, NULL);
    const hl__sh_stage *stages[1] = {st};
    if (!r)
        r = hl__build_plan(stages, 1, plan, plan_count, &p, &pn);
    if (!r)
        r = hl__rewrite(source, stage, true, st, p, pn, out);
    hl__free(p);
    hl__free(expanded);
    hl__sb_free(&warnings);
    hl__free(st);
    return r;
}
