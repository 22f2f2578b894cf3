/* The WGSL declaration scanner of hl_wgsl.h: a tokenizer that skips comments and tracks lines,
 * and a module-scope walk over attributes, `var` declarations and functions. */
#include <string.h>

#include "hl_base.h"
#include "hl_wgsl.h"

typedef enum tok_kind { T_END = 0, T_IDENT, T_NUM, T_PUNCT } tok_kind;

typedef struct tok {
    tok_kind kind;
    const char *p;
    size_t n;
    uint32_t line;
} tok;

typedef struct lexer {
    const char *s, *end;
    uint32_t line;
} lexer;

static const char *const k_kind_names[] = {
    "uniform buffer",  "read-only storage buffer", "read-write storage buffer", "sampled 2D texture", "sampler",
    "comparison sampler", "write-only 2D storage texture", "other resource",
};

const char *hl_wgsl_kind_name(hl_wgsl_kind kind) {
    return (unsigned)kind <= HL_WGSL_OTHER ? k_kind_names[kind] : "?";
}

static bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* Skips blanks and comments; HL_ERR_SHADER for an unterminated block comment. */
static hl_result skip_space(lexer *lx) {
    while (lx->s < lx->end) {
        char c = *lx->s;
        if (c == '\n') {
            lx->line++;
            lx->s++;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f') {
            lx->s++;
        } else if (c == '/' && lx->s + 1 < lx->end && lx->s[1] == '/') {
            while (lx->s < lx->end && *lx->s != '\n') lx->s++;
        } else if (c == '/' && lx->s + 1 < lx->end && lx->s[1] == '*') {
            uint32_t start = lx->line, depth = 0; /* WGSL block comments nest */
            do {
                if (lx->s + 1 < lx->end && lx->s[0] == '/' && lx->s[1] == '*') {
                    depth++;
                    lx->s += 2;
                } else if (lx->s + 1 < lx->end && lx->s[0] == '*' && lx->s[1] == '/') {
                    depth--;
                    lx->s += 2;
                } else {
                    if (*lx->s == '\n') lx->line++;
                    lx->s++;
                }
            } while (depth && lx->s < lx->end);
            if (depth) return hl__fail(HL_ERR_SHADER, "WGSL: line %u: unterminated block comment", start);
        } else {
            return HL_OK;
        }
    }
    return HL_OK;
}

static hl_result next(lexer *lx, tok *t) {
    hl_result r = skip_space(lx);
    if (r) return r;
    t->line = lx->line;
    t->p = lx->s;
    if (lx->s >= lx->end) {
        t->kind = T_END;
        t->n = 0;
        return HL_OK;
    }
    char c = *lx->s;
    if (is_alpha(c)) {
        while (lx->s < lx->end && (is_alpha(*lx->s) || is_digit(*lx->s))) lx->s++;
        t->kind = T_IDENT;
    } else if (is_digit(c) || (c == '.' && lx->s + 1 < lx->end && is_digit(lx->s[1]))) {
        /* a number: digits, letters (hex digits, suffixes, exponents), points, exponent signs */
        char prev = 0;
        while (lx->s < lx->end) {
            char d = *lx->s;
            bool sign = (d == '+' || d == '-') && (prev == 'e' || prev == 'E' || prev == 'p' || prev == 'P');
            if (!(is_alpha(d) || is_digit(d) || d == '.' || sign)) break;
            prev = d;
            lx->s++;
        }
        t->kind = T_NUM;
    } else {
        lx->s++;
        t->kind = T_PUNCT;
    }
    t->n = (size_t)(lx->s - t->p);
    return HL_OK;
}

static bool tok_is(const tok *t, const char *s) { return t->n == strlen(s) && !memcmp(t->p, s, t->n); }
static bool punct(const tok *t, char c) { return t->kind == T_PUNCT && t->p[0] == c; }

/* f16 in any spelling the language has: the type, its vector and matrix aliases, the h suffix. */
static bool is_f16(const tok *t) {
    if (t->kind == T_NUM) {
        bool hex = t->n > 1 && t->p[0] == '0' && (t->p[1] == 'x' || t->p[1] == 'X');
        return !hex && t->p[t->n - 1] == 'h';
    }
    if (t->kind != T_IDENT) return false;
    if (tok_is(t, "f16")) return true;
    if (t->n == 5 && !memcmp(t->p, "vec", 3) && t->p[3] >= '2' && t->p[3] <= '4' && t->p[4] == 'h') return true;
    return t->n == 7 && !memcmp(t->p, "mat", 3) && t->p[3] >= '2' && t->p[3] <= '4' && t->p[4] == 'x' && t->p[5] >= '2' &&
           t->p[5] <= '4' && t->p[6] == 'h';
}

/* An integer literal (decimal or hex, optional i/u suffix) that fits 32 bits. */
static bool int_literal(const tok *t, uint32_t *out) {
    if (t->kind != T_NUM) return false;
    size_t n = t->n;
    if (n > 1 && (t->p[n - 1] == 'i' || t->p[n - 1] == 'u')) n--;
    uint64_t v = 0;
    size_t i = 0;
    unsigned base = 10;
    if (n > 2 && t->p[0] == '0' && (t->p[1] == 'x' || t->p[1] == 'X')) base = 16, i = 2;
    else if (n > 1 && t->p[0] == '0') return false; /* WGSL has no leading zeros (nor octal) */
    if (i >= n) return false;
    for (; i < n; i++) {
        char c = t->p[i];
        unsigned d = is_digit(c) ? (unsigned)(c - '0')
                     : base == 16 && c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                     : base == 16 && c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
                                                          : 99u;
        if (d >= base) return false;
        v = v * base + d;
        if (v > UINT32_MAX) return false;
    }
    *out = (uint32_t)v;
    return true;
}

typedef struct attrs {
    bool group, binding, compute, workgroup;
    uint32_t group_v, binding_v, wg[3];
} attrs;

typedef struct scan {
    lexer lx;
    tok t;
    const char *entry;
    hl_wgsl_info *out;
    bool entry_seen;
} scan;

static hl_result advance(scan *s) {
    hl_result r = next(&s->lx, &s->t);
    if (!r && is_f16(&s->t))
        return hl__fail(HL_ERR_SHADER, "WGSL: line %u: '%.*s': f16 is not supported (not every device has it; use f32)",
                        s->t.line, (int)(s->t.n > 32 ? 32 : s->t.n), s->t.p);
    return r;
}

/* `( literal [, literal]* [,] )` after an attribute name: up to max integer literals. */
static hl_result literal_args(scan *s, const char *what, uint32_t *v, uint32_t max, uint32_t *count) {
    uint32_t line = s->t.line;
    hl_result r = advance(s);
    if (r) return r;
    if (!punct(&s->t, '('))
        return hl__fail(HL_ERR_SHADER, "WGSL: line %u: %s needs arguments in parentheses", line, what);
    *count = 0;
    for (;;) {
        if ((r = advance(s))) return r;
        if (punct(&s->t, ')') && *count) return HL_OK;
        if (*count == max || !int_literal(&s->t, &v[*count]))
            return hl__fail(HL_ERR_SHADER, "WGSL: line %u: %s takes %s%u integer literal%s (no constants or expressions)",
                            line, what, max > 1 ? "1 to " : "", max, max > 1 ? "s" : "");
        ++*count;
        if ((r = advance(s))) return r;
        if (punct(&s->t, ')')) return HL_OK;
        if (!punct(&s->t, ','))
            return hl__fail(HL_ERR_SHADER, "WGSL: line %u: %s takes integer literals (no constants or expressions)", line,
                            what);
    }
}

/* Skips a balanced (...) group starting at the current '(' token. */
static hl_result skip_parens(scan *s) {
    uint32_t depth = 0;
    do {
        if (punct(&s->t, '(')) depth++;
        else if (punct(&s->t, ')')) depth--;
        if (depth) {
            hl_result r = advance(s);
            if (r) return r;
            if (s->t.kind == T_END) return hl__fail(HL_ERR_SHADER, "WGSL: unbalanced parentheses at the end");
        }
    } while (depth);
    return HL_OK;
}

/* An attribute: the current token is '@'. Leaves the token after it current. */
static hl_result attribute(scan *s, attrs *a) {
    hl_result r = advance(s);
    if (r) return r;
    if (s->t.kind != T_IDENT) return hl__fail(HL_ERR_SHADER, "WGSL: line %u: '@' without an attribute name", s->t.line);
    uint32_t count = 0;
    if (tok_is(&s->t, "group")) {
        if ((r = literal_args(s, "@group", &a->group_v, 1, &count))) return r;
        a->group = true;
    } else if (tok_is(&s->t, "binding")) {
        if ((r = literal_args(s, "@binding", &a->binding_v, 1, &count))) return r;
        a->binding = true;
    } else if (tok_is(&s->t, "workgroup_size")) {
        uint32_t v[3] = {1, 1, 1};
        if ((r = literal_args(s, "@workgroup_size", v, 3, &count))) return r;
        memcpy(a->wg, v, sizeof v);
        a->workgroup = true;
    } else {
        if (tok_is(&s->t, "compute")) a->compute = true;
        if ((r = advance(s))) return r;
        if (!punct(&s->t, '(')) return HL_OK; /* the token after a bare attribute */
        if ((r = skip_parens(s))) return r;
    }
    return advance(s);
}

static void copy_name(char *dst, const tok *t) {
    size_t n = t->n < HL_WGSL_MAX_NAME - 1 ? t->n : HL_WGSL_MAX_NAME - 1;
    memcpy(dst, t->p, n);
    dst[n] = '\0';
}

/* After a '<' (the current token): its first argument and, after a ',', its second; the token
 * after the last one read is current. */
static hl_result template_args(scan *s, tok *first, tok *second) {
    hl_result r = advance(s);
    if (r) return r;
    *first = s->t;
    if ((r = advance(s)) || !punct(&s->t, ',')) return r;
    if ((r = advance(s))) return r;
    *second = s->t;
    return HL_OK;
}

/* `var [<space [, access]>] name : type ...;` at module scope; the current token is `var`. */
static hl_result var_decl(scan *s, const attrs *a) {
    uint32_t line = s->t.line;
    tok space = {0}, access = {0}, name, type = {0}, arg1 = {0}, arg2 = {0};
    hl_result r = advance(s);
    if (r) return r;
    if (punct(&s->t, '<')) {
        if ((r = template_args(s, &space, &access))) return r;
        if (access.n && (r = advance(s))) return r;
        if (!punct(&s->t, '>')) return hl__fail(HL_ERR_SHADER, "WGSL: line %u: 'var<' without its '>'", line);
        if ((r = advance(s))) return r;
    }
    if (s->t.kind != T_IDENT) return hl__fail(HL_ERR_SHADER, "WGSL: line %u: a 'var' without a name", line);
    name = s->t;
    if ((r = advance(s))) return r;
    if (punct(&s->t, ':')) {
        if ((r = advance(s))) return r;
        type = s->t;
        if ((r = advance(s))) return r;
        /* the first two template arguments: sample type / format, access */
        if (punct(&s->t, '<') && (r = template_args(s, &arg1, &arg2))) return r;
    }
    /* to the end of the declaration (initializers of private variables included) */
    uint32_t depth = 0;
    while (!(depth == 0 && punct(&s->t, ';'))) {
        if (s->t.kind == T_END)
            return hl__fail(HL_ERR_SHADER, "WGSL: line %u: the declaration of '%.*s' has no ';'", line,
                            (int)(name.n > 32 ? 32 : name.n), name.p);
        if (punct(&s->t, '(') || punct(&s->t, '[') || punct(&s->t, '{')) depth++;
        else if ((punct(&s->t, ')') || punct(&s->t, ']') || punct(&s->t, '}')) && depth) depth--;
        if ((r = advance(s))) return r;
    }
    if (!a->group && !a->binding) return HL_OK; /* private / workgroup variables: not resources */
    if (!a->group || !a->binding)
        return hl__fail(HL_ERR_SHADER, "WGSL: line %u: '%.*s' has @%s without @%s", line,
                        (int)(name.n > 32 ? 32 : name.n), name.p, a->group ? "group" : "binding",
                        a->group ? "binding" : "group");
    hl_wgsl_info *o = s->out;
    for (uint32_t i = 0; i < o->binding_count; i++)
        if (o->bindings[i].group == a->group_v && o->bindings[i].binding == a->binding_v)
            return hl__fail(HL_ERR_SHADER, "WGSL: line %u: '%.*s' and '%s' (line %u) share @group(%u) @binding(%u)",
                            line, (int)(name.n > 32 ? 32 : name.n), name.p, o->bindings[i].name, o->bindings[i].line,
                            a->group_v, a->binding_v);
    if (o->binding_count == HL_WGSL_MAX_BINDINGS)
        return hl__fail(HL_ERR_SHADER, "WGSL: line %u: more than %u resource variables", line, HL_WGSL_MAX_BINDINGS);
    hl_wgsl_binding *b = &o->bindings[o->binding_count++];
    b->group = a->group_v;
    b->binding = a->binding_v;
    b->line = line;
    copy_name(b->name, &name);
    size_t an = arg1.kind == T_IDENT && arg1.n < sizeof b->texel ? arg1.n : 0;
    memcpy(b->texel, arg1.p ? arg1.p : "", an);
    b->texel[an] = '\0';
    b->kind = HL_WGSL_OTHER;
    if (tok_is(&space, "uniform")) {
        b->kind = HL_WGSL_UNIFORM_BUFFER;
    } else if (tok_is(&space, "storage")) {
        if (!access.n || tok_is(&access, "read")) b->kind = HL_WGSL_STORAGE_READ;
        else if (tok_is(&access, "read_write")) b->kind = HL_WGSL_STORAGE_READ_WRITE;
    } else if (!space.n) {
        if (tok_is(&type, "texture_2d") && arg1.n) b->kind = HL_WGSL_SAMPLED_TEXTURE_2D;
        else if (tok_is(&type, "sampler")) b->kind = HL_WGSL_SAMPLER;
        else if (tok_is(&type, "sampler_comparison")) b->kind = HL_WGSL_SAMPLER_COMPARISON;
        else if (tok_is(&type, "texture_storage_2d") && tok_is(&arg2, "write")) b->kind = HL_WGSL_STORAGE_TEXTURE_2D_WRITE;
    }
    return HL_OK;
}

/* `override name [: type] [= expr];` at module scope; the current token is `override`. */
static hl_result override_decl(scan *s) {
    uint32_t line = s->t.line;
    hl_result r = advance(s);
    if (r) return r;
    if (s->t.kind != T_IDENT) return hl__fail(HL_ERR_SHADER, "WGSL: line %u: an 'override' without a name", line);
    tok name = s->t;
    hl_wgsl_scalar type = HL_WGSL_SCALAR_INFERRED;
    if ((r = advance(s))) return r;
    if (punct(&s->t, ':')) {
        if ((r = advance(s))) return r;
        type = tok_is(&s->t, "bool") ? HL_WGSL_BOOL
               : tok_is(&s->t, "i32") ? HL_WGSL_I32
               : tok_is(&s->t, "u32") ? HL_WGSL_U32
               : tok_is(&s->t, "f32") ? HL_WGSL_F32
                                      : HL_WGSL_SCALAR_OTHER;
        if ((r = advance(s))) return r;
    }
    bool has_default = punct(&s->t, '=');
    while (!punct(&s->t, ';')) {
        if (s->t.kind == T_END || punct(&s->t, '{') || punct(&s->t, '}'))
            return hl__fail(HL_ERR_SHADER, "WGSL: line %u: the override '%.*s' has no ';'", line,
                            (int)(name.n > 32 ? 32 : name.n), name.p);
        if ((r = advance(s))) return r;
    }
    hl_wgsl_info *o = s->out;
    for (uint32_t i = 0; i < o->override_count; i++)
        if (strlen(o->overrides[i].name) == name.n && !memcmp(o->overrides[i].name, name.p, name.n))
            return hl__fail(HL_ERR_SHADER, "WGSL: line %u: a second override '%s'", line, o->overrides[i].name);
    if (o->override_count == HL_WGSL_MAX_OVERRIDES)
        return hl__fail(HL_ERR_SHADER, "WGSL: line %u: more than %u overrides", line, HL_WGSL_MAX_OVERRIDES);
    hl_wgsl_override *v = &o->overrides[o->override_count++];
    v->type = type;
    v->has_default = has_default;
    v->line = line;
    copy_name(v->name, &name);
    return HL_OK;
}

/* `fn name` at module scope; the current token is `fn`. */
static hl_result fn_decl(scan *s, const attrs *a) {
    uint32_t line = s->t.line;
    hl_result r = advance(s);
    if (r) return r;
    if (s->t.kind != T_IDENT || !tok_is(&s->t, s->entry)) return HL_OK;
    if (s->entry_seen) return hl__fail(HL_ERR_SHADER, "WGSL: line %u: a second function '%s'", line, s->entry);
    s->entry_seen = true;
    if (!a->compute) return hl__fail(HL_ERR_SHADER, "WGSL: line %u: entry point '%s' is not a @compute function", line, s->entry);
    if (!a->workgroup) return hl__fail(HL_ERR_SHADER, "WGSL: line %u: entry point '%s' has no @workgroup_size", line, s->entry);
    memcpy(s->out->workgroup_size, a->wg, sizeof a->wg);
    s->out->entry_line = line;
    return HL_OK;
}

hl_result hl_wgsl_reflect(const char *src, size_t len, const char *entry, hl_wgsl_info *out) {
    if (!src || !entry || !entry[0] || !out)
        return hl__fail(HL_ERR_VALIDATION, "hl_wgsl_reflect: %s is NULL or empty", !src ? "src" : !out ? "out" : "entry");
    memset(out, 0, sizeof *out);
    if (len > HL_WGSL_MAX_SOURCE)
        return hl__fail(HL_ERR_SHADER, "WGSL: the source is %zu bytes (at most %u)", len, HL_WGSL_MAX_SOURCE);
    if (memchr(src, '\0', len)) return hl__fail(HL_ERR_SHADER, "WGSL: the source contains a NUL byte");
    scan s = {{src, src + len, 1}, {0}, entry, out, false};
    attrs a = {0};
    uint32_t depth = 0;
    hl_result r = advance(&s);
    while (!r && s.t.kind != T_END) {
        if (depth) { /* inside a body or struct: only braces and f16 (checked by advance) matter */
            if (punct(&s.t, '{')) depth++;
            else if (punct(&s.t, '}')) depth--;
            r = advance(&s);
            continue;
        }
        if (punct(&s.t, '@')) {
            r = attribute(&s, &a);
            continue; /* the token after the attribute is looked at next */
        }
        if (s.t.kind == T_IDENT && tok_is(&s.t, "var")) {
            r = var_decl(&s, &a);
            a = (attrs){0};
        } else if (s.t.kind == T_IDENT && tok_is(&s.t, "override")) {
            r = override_decl(&s);
            a = (attrs){0};
        } else if (s.t.kind == T_IDENT && tok_is(&s.t, "fn")) {
            r = fn_decl(&s, &a);
            a = (attrs){0};
            continue; /* its name is the current token: parameters and body follow */
        } else if (punct(&s.t, '{')) {
            depth++;
            a = (attrs){0};
        } else if (punct(&s.t, ';') || punct(&s.t, '}')) {
            a = (attrs){0};
        }
        if (!r) r = advance(&s);
    }
    if (r) return r;
    if (!s.entry_seen) return hl__fail(HL_ERR_SHADER, "WGSL: no function '%s' (the entry point) in the source", entry);
    return HL_OK;
}
