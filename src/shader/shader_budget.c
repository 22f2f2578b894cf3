/* The source budget: a preprocessing check that runs before any GLSL compiler.
 *
 * A GLSL preprocessor can be made to work without bound by a tiny source (`#define B A A A A`
 * nested ten deep, function-like macros nested in their own arguments, `#if ((((...` deep
 * enough to overflow glslang's recursive evaluator). glslang and the GL driver have no limits
 * of their own, so this file runs the directives and macro expansion itself, counting instead
 * of producing text, and refuses the source (HL_ERR_SHADER) as soon as one of the limits of
 * hl_shader.h is passed. It follows glslang's model (a macro is "busy" while its replacement
 * is being read, arguments are pre-expanded eagerly, ## pastes, undefined names are 0 in #if)
 * and rescans substituted arguments like C does, so it counts at least the work of either
 * compiler.
 *
 * Which lines a compiler sees depends on macros it defines itself (GL_ES, extension macros).
 * The known ones are modelled per target (GLSL ES 3.00 for glslang's validation and the GL
 * driver, Vulkan GLSL 4.50 for the SPIR-V compile). Any other GL_* or __* name is unknown: a
 * condition on it makes its lines "maybe" compiled; they are counted as compiled, and a
 * #define / #undef among them is refused, because which definition wins would then differ
 * between compilers. Arithmetic in #if is evaluated in both 32 bits (glslang) and 64 bits
 * (Mesa's glcpp); where they disagree, or a shift is out of range, the result is unknown too.
 */
#include <stdio.h>
#include <string.h>

#include "shader_internal.h"

/* ---- tokens ---------------------------------------------------------------------------------- */
enum { TK_IDENT = 1, TK_NUMBER, TK_PUNCT, TK_OTHER };
enum { TF_BOL = 1, TF_SPACE = 2, TF_NOEXPAND = 4 };

typedef struct ptok {
    const char *s;
    uint32_t len;
    uint32_t hash; /* of the text, for identifiers: macro lookups never rehash long names */
    uint8_t kind, flags;
} ptok;

typedef struct tokvec {
    ptok *v;
    uint32_t n, cap;
} tokvec;

static bool ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool ident_char(char c) { return ident_start(c) || (c >= '0' && c <= '9'); }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }

static bool tok_eq(const ptok *t, const char *s) {
    size_t n = strlen(s);
    return t->len == n && memcmp(t->s, s, n) == 0;
}
static bool tok_punct(const ptok *t, const char *s) { return t->kind == TK_PUNCT && tok_eq(t, s); }
static bool tok_same(const ptok *a, const ptok *b) { return a->len == b->len && memcmp(a->s, b->s, a->len) == 0; }

/* ---- state ----------------------------------------------------------------------------------- */
enum { MAC_PLAIN = 0, MAC_LINE, MAC_UNKNOWN_VALUE };

typedef struct macro {
    const char *name;
    uint32_t name_len, hash;
    tokvec body;
    tokvec params;
    bool function_like, defined, busy;
    bool pastes; /* the replacement list has a ## */
    uint8_t special;
} macro;

enum { FR_BASE = 0, FR_MACRO, FR_BARRIER, FR_UNGET };
enum { BASE_TEXT = 0, BASE_LINE };

typedef struct frame {
    uint8_t kind;
    const ptok *toks;
    uint32_t count, pos;
    uint32_t mac; /* macro index + 1 (FR_MACRO) */
    tokvec owned; /* FR_MACRO: the replacement list */
    ptok single;  /* FR_UNGET */
} frame;

enum { ST_INACTIVE = 0, ST_MAYBE = 1, ST_ACTIVE = 2 };

typedef struct cond {
    uint8_t parent, state;
    bool taken_yes, taken_maybe, seen_else;
} cond;

typedef struct chunk {
    struct chunk *next;
    size_t used, cap;
    char data[];
} chunk;

typedef struct guard {
    const char *src;
    char *clean; /* spliced copy of the text (owned) */
    size_t *splices;
    uint32_t splice_count, splice_cap, splice_next;
    size_t pos;
    uint32_t phys_line;
    int64_t line_delta;
    bool bol;
    bool has_peek;
    ptok peek;
    uint32_t peek_line;
    uint32_t cur_line;

    bool vulkan;
    bool es310; /* GLSL ES 3.10 text (storage shaders): __VERSION__ is 310 */
    macro *macros;
    uint32_t macro_count, macro_cap;
    uint32_t *table; /* open addressing: macro index + 1, 0 = empty */
    uint32_t table_cap;

    frame *frames;
    uint32_t frame_count, frame_cap;
    uint8_t base_mode;
    uint32_t macro_depth;
    const macro *outer; /* the macro the source text invoked (for messages) */

    cond *conds;
    uint32_t cond_count, cond_cap;
    uint8_t state;

    chunk *arena;
    const char *unknown_name; /* compiler-defined name met in the last #if */
    const char *expr_directive; /* "#if" or "#line": the directive whose expression is read */
    uint32_t unknown_len;

    /* structure of the output: per open ( [ {, its opener, the operators counted in the
     * current element and the largest element closed so far */
    uint8_t *open_kind;
    uint32_t *open_count, *open_max;
    uint32_t depth;
    bool after_paren; /* the last output token was ')' (a '{' after it opens a function) */
    bool call_error;  /* a macro call could not be completed (see start_macro) */

    hl__pp_limits lim;
    hl__pp_stats st;
    hl_result err;
    bool stop;

    hl__sb *out;       /* hl__pp_expand: the expanded tokens are written here */
    uint32_t out_line; /* source line of the last token written (a new line starts a new line) */
} guard;

static hl_result gfail(guard *g, hl_result code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static hl_result gfail(guard *g, hl_result code, const char *fmt, ...) {
    if (g->err)
        return g->err;
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    g->err = hl__fail(code, "shader source line %u: %s", g->cur_line, msg);
    return g->err;
}

static hl_result oom(guard *g) { return gfail(g, HL_ERR_OUT_OF_MEMORY, "out of memory checking the preprocessing budget"); }

static bool tv_push(guard *g, tokvec *tv, ptok t) {
    if (tv->n == tv->cap && !hl__reserve((void **)&tv->v, &tv->cap, tv->n + 1, sizeof *tv->v)) {
        oom(g);
        return false;
    }
    tv->v[tv->n++] = t;
    return true;
}

static void tv_free(tokvec *tv) {
    hl__free(tv->v);
    memset(tv, 0, sizeof *tv);
}

static const char *arena_put(guard *g, const char *a, uint32_t na, const char *b, uint32_t nb) {
    size_t n = (size_t)na + nb;
    if (!g->arena || g->arena->cap - g->arena->used < n) {
        size_t cap = n > 4096 ? n : 4096;
        chunk *c = hl__malloc(sizeof *c + cap);
        if (!c)
            return NULL;
        c->next = g->arena;
        c->used = 0;
        c->cap = cap;
        g->arena = c;
    }
    char *p = g->arena->data + g->arena->used;
    memcpy(p, a, na);
    memcpy(p + na, b, nb);
    g->arena->used += n;
    return p;
}

/* ---- macro table ----------------------------------------------------------------------------- */
static uint32_t name_hash(const char *s, uint32_t n) {
    uint64_t h = hl__hash_bytes(HL__HASH_SEED, s, n);
    return (uint32_t)(h ^ (h >> 32));
}

static macro *lookup_hashed(guard *g, const char *s, uint32_t n, uint32_t h) {
    if (!g->table_cap)
        return NULL;
    uint32_t mask = g->table_cap - 1;
    for (uint32_t i = h & mask;; i = (i + 1) & mask) {
        uint32_t m = g->table[i];
        if (!m)
            return NULL;
        macro *mc = &g->macros[m - 1];
        if (mc->hash == h && mc->name_len == n && memcmp(mc->name, s, n) == 0)
            return mc;
    }
}

static macro *lookup(guard *g, const char *s, uint32_t n) { return lookup_hashed(g, s, n, name_hash(s, n)); }
static macro *lookup_tok(guard *g, const ptok *t) { return lookup_hashed(g, t->s, t->len, t->hash); }

static bool table_insert(guard *g, uint32_t index) {
    uint32_t mask = g->table_cap - 1;
    const macro *m = &g->macros[index];
    uint32_t i = m->hash & mask;
    while (g->table[i])
        i = (i + 1) & mask;
    g->table[i] = index + 1;
    return true;
}

/* Returns the macro named s (created undefined when new), NULL on allocation failure. */
static macro *macro_get(guard *g, const char *s, uint32_t n) {
    macro *m = lookup(g, s, n);
    if (m)
        return m;
    if ((g->macro_count + 1) * 2 > g->table_cap) {
        uint32_t cap = g->table_cap ? g->table_cap * 2 : 64;
        uint32_t *t = hl__calloc(cap, sizeof *t);
        if (!t)
            return NULL;
        hl__free(g->table);
        g->table = t;
        g->table_cap = cap;
        for (uint32_t i = 0; i < g->macro_count; i++)
            table_insert(g, i);
    }
    if (!hl__reserve((void **)&g->macros, &g->macro_cap, g->macro_count + 1, sizeof *g->macros))
        return NULL;
    m = &g->macros[g->macro_count];
    memset(m, 0, sizeof *m);
    m->name = s;
    m->name_len = n;
    m->hash = name_hash(s, n);
    table_insert(g, g->macro_count++);
    return m;
}

/* Names a compiler may define on its own: GL_* (extension macros) and __* (implementation
 * macros). Names with "__" inside are reserved too, but no compiler defines any: an include
 * guard like MY__SHADER_H stays an ordinary name. */
static bool compiler_name(const char *s, uint32_t n) {
    return n >= 2 && ((n >= 3 && memcmp(s, "GL_", 3) == 0) || (s[0] == '_' && s[1] == '_'));
}

static bool add_builtin(guard *g, const char *name, const char *value, uint8_t special) {
    macro *m = macro_get(g, name, (uint32_t)strlen(name));
    if (!m)
        return false;
    m->defined = true;
    m->special = special;
    ptok t = {value, (uint32_t)strlen(value), 0, TK_NUMBER, 0};
    return tv_push(g, &m->body, t);
}

static bool add_builtins(guard *g) {
    /* the macros glslang (and, for GLSL ES, the GL driver) define for the target */
    bool ok = add_builtin(g, "GL_FRAGMENT_PRECISION_HIGH", "1", MAC_PLAIN) &&
              add_builtin(g, "__LINE__", "4294967295", MAC_LINE) && add_builtin(g, "__FILE__", "0", MAC_UNKNOWN_VALUE) &&
              add_builtin(g, "__VERSION__", g->vulkan ? "450" : g->es310 ? "310" : "300", MAC_PLAIN);
    if (ok && g->vulkan)
        ok = add_builtin(g, "VULKAN", "100", MAC_PLAIN) && add_builtin(g, "GL_core_profile", "1", MAC_PLAIN);
    if (ok && !g->vulkan)
        ok = add_builtin(g, "GL_ES", "1", MAC_PLAIN);
    /* known not to be defined for the target */
    const char *absent[] = {g->vulkan ? "GL_ES" : "VULKAN", "GL_core_profile", "GL_compatibility_profile", "GL_SPIRV"};
    for (size_t i = 0; ok && i < sizeof absent / sizeof absent[0]; i++)
        ok = macro_get(g, absent[i], (uint32_t)strlen(absent[i])) != NULL;
    return ok;
}

/* ---- scanner --------------------------------------------------------------------------------- */
static void skip_blank(guard *g, uint8_t *flags) {
    const char *s = g->src;
    for (;;) {
        char c = s[g->pos];
        if (c == '\n') {
            g->pos++;
            g->phys_line++;
            g->bol = true;
            *flags |= TF_SPACE;
        } else if (c == ' ' || c == '\t' || c == '\r') { /* glslang reads \f and \v as bad tokens */
            g->pos++;
            *flags |= TF_SPACE;
        } else if (c == '/' && s[g->pos + 1] == '/') {
            g->pos += 2;
            while (s[g->pos] && s[g->pos] != '\n')
                g->pos++;
            *flags |= TF_SPACE;
        } else if (c == '/' && s[g->pos + 1] == '*') {
            g->pos += 2;
            while (s[g->pos] && !(s[g->pos] == '*' && s[g->pos + 1] == '/')) {
                g->phys_line += s[g->pos] == '\n';
                g->pos++;
            }
            if (s[g->pos])
                g->pos += 2;
            *flags |= TF_SPACE;
        } else {
            return;
        }
    }
}

/* Compilers end a line at "\n", "\r\n" or a lone "\r" (text after a lone "\r" on a
 * directive's line is compiled) and splice lines ending in a backslash before anything else
 * (in tokens and comment openers too): the check reads a normalised, spliced copy and
 * remembers where splices were, for line numbers. */
static size_t newline_at(const char *s, size_t i) {
    return s[i] == '\n' ? 1 : s[i] == '\r' ? (s[i + 1] == '\n' ? 2 : 1) : 0;
}

static bool splice(guard *g, const char *text) {
    size_t n = strlen(text);
    char *out = hl__malloc(n + 1);
    if (!out)
        return false;
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        size_t nl = newline_at(text, i);
        if (nl) {
            out[o++] = '\n';
            i += nl;
            continue;
        }
        size_t k = text[i] == '\\' ? newline_at(text, i + 1) : 0;
        if (k) {
            k++;
            if (g->splice_count == g->splice_cap &&
                !hl__reserve((void **)&g->splices, &g->splice_cap, g->splice_count + 1, sizeof *g->splices)) {
                hl__free(out);
                return false;
            }
            g->splices[g->splice_count++] = o;
            i += k;
            continue;
        }
        out[o++] = text[i++];
    }
    out[o] = '\0';
    g->clean = out;
    g->src = out;
    return true;
}

static const char *const k_punct3[] = {"<<=", ">>="};
static const char *const k_punct2[] = {"##", "&&", "||", "==", "!=", "<=", ">=", "<<", ">>", "++",
                                       "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^="};

static bool hex_digit(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

/* Length of the number at s as GLSL (and glslang) reads it, not as a C pp-number: `14x` is
 * 14 then x, so a macro parameter written right after a number is still seen. */
static uint32_t number_len(const char *s) {
    uint32_t n = 0;
    bool integer = true; /* the unsigned suffix belongs to integers: glslang reads `0.0USE` as 0.0 USE */
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        n = 2;
        while (hex_digit(s[n]))
            n++;
    } else {
        while (is_digit(s[n]))
            n++;
        if (s[n] == '.') {
            integer = false;
            for (n++; is_digit(s[n]);)
                n++;
        }
        if ((s[n] == 'e' || s[n] == 'E') &&
            (is_digit(s[n + 1]) || ((s[n + 1] == '+' || s[n + 1] == '-') && is_digit(s[n + 2])))) {
            integer = false;
            n += 2;
            while (is_digit(s[n]))
                n++;
        }
        if ((s[n] == 'l' && s[n + 1] == 'f') || (s[n] == 'L' && s[n + 1] == 'F'))
            return n + 2;
        if (s[n] == 'f' || s[n] == 'F')
            return n + 1;
    }
    if (integer && (s[n] == 'u' || s[n] == 'U'))
        n++;
    return n;
}

/* Reads the next token of the source into g->peek (false at the end). */
static bool scan_peek(guard *g, ptok *out) {
    if (!g->has_peek) {
        uint8_t flags = 0;
        skip_blank(g, &flags);
        while (g->splice_next < g->splice_count && g->splices[g->splice_next] <= g->pos) {
            g->splice_next++;
            g->phys_line++;
        }
        const char *s = g->src + g->pos;
        if (!*s)
            return false;
        if (g->bol)
            flags |= TF_BOL;
        g->bol = false;
        uint32_t n = 1;
        uint8_t kind = TK_OTHER;
        if (ident_start(*s)) {
            while (ident_char(s[n]))
                n++;
            kind = TK_IDENT;
        } else if (is_digit(*s) || (*s == '.' && is_digit(s[1]))) {
            n = number_len(s);
            kind = TK_NUMBER;
        } else if (strchr("{}[]()<>;:,.+-*/%&|^!~=?#", *s)) {
            kind = TK_PUNCT;
            for (size_t i = 0; i < sizeof k_punct3 / sizeof k_punct3[0] && n == 1; i++)
                if (strncmp(s, k_punct3[i], 3) == 0)
                    n = 3;
            for (size_t i = 0; i < sizeof k_punct2 / sizeof k_punct2[0] && n == 1; i++)
                if (s[0] == k_punct2[i][0] && s[1] == k_punct2[i][1])
                    n = 2;
        }
        g->peek = (ptok){s, n, kind == TK_IDENT ? name_hash(s, n) : 0, kind, flags};
        g->pos += n;
        int64_t line = (int64_t)g->phys_line + g->line_delta;
        g->peek_line = line < 0 ? 0 : line > UINT32_MAX ? UINT32_MAX : (uint32_t)line;
        g->has_peek = true;
    }
    *out = g->peek;
    return true;
}

static void scan_take(guard *g) {
    g->has_peek = false;
    g->cur_line = g->peek_line;
}

/* Next token of the current directive line (false at its end). */
static bool line_next(guard *g, ptok *out) {
    if (!scan_peek(g, out) || (out->flags & TF_BOL))
        return false;
    scan_take(g);
    return true;
}

static void skip_line(guard *g) {
    ptok t;
    while (line_next(g, &t)) {
    }
}

/* ---- expansion ------------------------------------------------------------------------------- */
static bool push_frame(guard *g, frame f) {
    if (!hl__reserve((void **)&g->frames, &g->frame_cap, g->frame_count + 1, sizeof *g->frames)) {
        oom(g);
        return false;
    }
    g->frames[g->frame_count++] = f;
    if (f.kind == FR_UNGET)
        g->frames[g->frame_count - 1].toks = &g->frames[g->frame_count - 1].single;
    return true;
}

static void pop_frame(guard *g) {
    frame *f = &g->frames[--g->frame_count];
    if (f->kind == FR_MACRO) {
        g->macros[f->mac - 1].busy = false;
        g->macro_depth--;
        tv_free(&f->owned);
    }
}

static bool count_work(guard *g, uint64_t n) {
    g->st.expansion_tokens += n;
    if (g->st.expansion_tokens <= g->lim.expansion_tokens)
        return true;
    const macro *m = g->outer;
    gfail(g, HL_ERR_SHADER,
          "preprocessing budget exceeded: macro expansion produced more than %llu tokens "
          "(HL_SHADER_MAX_EXPANSION_TOKENS) while expanding '%.*s'",
          (unsigned long long)g->lim.expansion_tokens, m ? (int)m->name_len : 1, m ? m->name : "?");
    return false;
}

/* Next token before macro expansion: 1, 0 at the end of the innermost barrier, -1 on error. */
static int raw_next(guard *g, ptok *out) {
    for (;;) {
        if (g->err)
            return -1;
        if (!g->frame_count)
            return 0;
        frame *f = &g->frames[g->frame_count - 1];
        if (f->kind == FR_BASE) {
            if (!scan_peek(g, out))
                return 0;
            if ((out->flags & TF_BOL) && (g->base_mode == BASE_LINE || tok_punct(out, "#")))
                return 0;
            scan_take(g);
            return 1;
        }
        if (f->pos < f->count) {
            *out = f->toks[f->pos++];
            /* replacement lists were counted when made; re-reading an argument is work too */
            return f->kind == FR_MACRO || count_work(g, 1) ? 1 : -1;
        }
        if (f->kind == FR_BARRIER)
            return 0;
        pop_frame(g);
    }
}

static bool unget(guard *g, ptok t) {
    frame f = {0};
    f.kind = FR_UNGET;
    f.single = t;
    f.count = 1;
    return push_frame(g, f);
}

static int next_expanded(guard *g, ptok *out, bool in_expr);

static bool enter_depth(guard *g, const macro *m) {
    if (g->macro_depth >= g->lim.macro_depth) {
        const macro *o = g->outer ? g->outer : m;
        gfail(g, HL_ERR_SHADER,
              "preprocessing budget exceeded: macros nested more than %u deep (HL_SHADER_MAX_MACRO_DEPTH) at '%.*s' "
              "while expanding '%.*s'",
              (unsigned)g->lim.macro_depth, (int)m->name_len, m->name, (int)o->name_len, o->name);
        return false;
    }
    g->macro_depth++;
    if (g->macro_depth > g->st.max_macro_depth)
        g->st.max_macro_depth = g->macro_depth;
    return true;
}

/* Fully expands one macro argument on its own (glslang pre-expands every argument). */
static bool prescan(guard *g, const macro *m, const tokvec *raw, tokvec *out) {
    if (!enter_depth(g, m))
        return false;
    frame f = {0};
    f.kind = FR_BARRIER;
    f.toks = raw->v;
    f.count = raw->n;
    uint32_t base = g->frame_count;
    bool ok = push_frame(g, f);
    ptok t;
    int r = 0;
    while (ok && (r = next_expanded(g, &t, false)) > 0)
        ok = tv_push(g, out, t);
    /* frames above the barrier (an unfinished call at the argument's end) end with it */
    while (g->frame_count > base)
        pop_frame(g);
    g->macro_depth--;
    return ok && r == 0;
}

/* Appends t to the replacement list, pasting it onto the last token when *paste is set. */
static bool put_replacement(guard *g, tokvec *list, ptok t, bool *paste) {
    if (!count_work(g, 1))
        return false;
    t.flags &= (uint8_t)~(TF_BOL | TF_NOEXPAND);
    if (*paste && list->n) {
        *paste = false;
        ptok *l = &list->v[list->n - 1];
        /* glslang threw std::length_error out of its preprocessor pasting a character that is
         * no GLSL token (`` `##a ``, found by fuzz_glsl_compile): such pastes are refused */
        if (l->kind == TK_OTHER || t.kind == TK_OTHER) {
            gfail(g, HL_ERR_SHADER, "token pasting (##) of '%.*s' and '%.*s': a character that is not a GLSL token",
                  (int)(l->len > 32 ? 32 : l->len), l->s, (int)(t.len > 32 ? 32 : t.len), t.s);
            return false;
        }
        if ((size_t)l->len + t.len > 1024) {
            gfail(g, HL_ERR_SHADER, "token pasting (##) makes a token longer than 1024 characters");
            return false;
        }
        const char *s = arena_put(g, l->s, l->len, t.s, t.len);
        if (!s) {
            oom(g);
            return false;
        }
        l->s = s;
        l->len += t.len;
        l->kind = ident_start(s[0]) ? TK_IDENT : is_digit(s[0]) ? TK_NUMBER : l->kind;
        for (uint32_t i = 0; l->kind == TK_IDENT && i < l->len; i++)
            if (!ident_char(s[i]))
                l->kind = TK_OTHER;
        l->hash = l->kind == TK_IDENT ? name_hash(s, l->len) : 0;
        return true;
    }
    *paste = false;
    return tv_push(g, list, t);
}

static int param_index(const macro *m, const ptok *t) {
    if (t->kind != TK_IDENT)
        return -1;
    for (uint32_t i = m->params.n; i-- > 0;)
        if (tok_same(&m->params.v[i], t))
            return (int)i;
    return -1;
}

/* Starts expanding macro m (its name token was just read). 1: started, 0: a function-like
 * macro without arguments (not a call), -1: error. */
static int start_macro(guard *g, macro *m) {
    uint32_t mi = (uint32_t)(m - g->macros);
    tokvec *raw = NULL, *exp = NULL;
    uint32_t nargs = 0;
    int result = -1;
    if (m->function_like) {
        ptok p;
        int r = raw_next(g, &p);
        if (r < 0)
            return -1;
        if (r == 0 || !tok_punct(&p, "("))
            return r == 0 || unget(g, p) ? 0 : -1;
        nargs = m->params.n ? m->params.n : 1;
        raw = hl__calloc(nargs, sizeof *raw);
        exp = hl__calloc(nargs, sizeof *exp);
        if (!raw || !exp) {
            oom(g);
            goto done;
        }
        uint32_t arg = 0, depth = 0, given = 0; /* given: arguments seen (0 for `F()`) */
        for (;;) {
            r = raw_next(g, &p);
            if (r < 0)
                goto done;
            if (r != 0 && tok_punct(&p, "#")) {
                /* '#' in an argument: glslang reports it and recovers the way a '#' in a
                 * replacement list does (see do_define): refused the same way */
                gfail(g, HL_ERR_SHADER, "'#' in the arguments of a call to '%.*s' (GLSL has no # operator)",
                      (int)m->name_len, m->name);
                goto done;
            }
            if (r == 0) {
                /* unterminated call: glslang reports it and drops the tokens; inside an
                 * argument's pre-expansion it then substitutes the argument unexpanded, to be
                 * expanded again at every use (prescan below) */
                g->call_error = true;
                result = 0;
                goto done;
            }
            if (depth == 0 && tok_punct(&p, ")"))
                break;
            if (given == 0)
                given = 1;
            if (depth == 0 && tok_punct(&p, ",")) {
                given++;
                if (arg + 1 < nargs)
                    arg++;
                continue;
            }
            if (tok_punct(&p, "("))
                depth++;
            else if (tok_punct(&p, ")"))
                depth--;
            if (!tv_push(g, &raw[arg], p))
                goto done;
        }
        /* glslang reports a wrong argument count and its recovery from too many arguments can
         * abort the process (an uncaught std::length_error for `#define P(a)a` / `P(P(,{))`,
         * found by fuzz_glsl_compile): the check refuses the call first */
        if (given != m->params.n) {
            gfail(g, HL_ERR_SHADER, "macro '%.*s' takes %u argument%s, called with %u", (int)m->name_len, m->name,
                  m->params.n, m->params.n == 1 ? "" : "s", given);
            goto done;
        }
        /* every argument is pre-expanded, used or not */
        const macro *outer = g->outer;
        if (!outer)
            g->outer = m;
        for (uint32_t i = 0; i < nargs; i++) {
            bool error = g->call_error;
            g->call_error = false;
            if (!prescan(g, m, &raw[i], &exp[i]))
                goto done;
            if (g->call_error) { /* glslang drops the expansion and uses the argument as written */
                exp[i].n = 0;
                for (uint32_t k = 0; k < raw[i].n; k++)
                    if (!tv_push(g, &exp[i], raw[i].v[k]))
                        goto done;
            }
            g->call_error = error;
        }
        g->outer = outer;
    }
    if (!g->outer)
        g->outer = m;
    if (!enter_depth(g, m))
        goto done;
    frame f = {0};
    f.kind = FR_MACRO;
    f.mac = mi + 1;
    if (!m->function_like && !m->pastes) {
        /* read the replacement list in place: no #define runs while a macro expands */
        if (!count_work(g, m->body.n)) {
            g->macro_depth--;
            goto done;
        }
        f.toks = m->body.v;
        f.count = m->body.n;
        if (!push_frame(g, f)) {
            g->macro_depth--;
            goto done;
        }
        g->macros[mi].busy = true;
        result = 1;
        goto done;
    }
    bool paste = false, produced = false; /* produced: the previous element gave tokens */
    const tokvec *body = &m->body;
    for (uint32_t i = 0; i < body->n; i++) {
        const ptok *t = &body->v[i];
        if (tok_punct(t, "##") && i > 0 && i + 1 < body->n) {
            paste = produced;
            continue;
        }
        int p = m->function_like ? param_index(m, t) : -1;
        if (p >= 0 && (uint32_t)p < nargs) {
            bool beside_paste = (i + 1 < body->n && tok_punct(&body->v[i + 1], "##")) ||
                                (i > 0 && tok_punct(&body->v[i - 1], "##"));
            const tokvec *a = beside_paste ? &raw[p] : &exp[p];
            /* glslang dereferences a bad pointer pasting an operator with an empty argument
             * (`#define C(b) +##b` / `C()`, found by fuzz_glsl_budget): refused here */
            if (paste && !a->n && f.owned.n && f.owned.v[f.owned.n - 1].kind == TK_PUNCT) {
                const ptok *l = &f.owned.v[f.owned.n - 1];
                gfail(g, HL_ERR_SHADER, "macro '%.*s': '%.*s' ## an empty argument (an operator cannot be pasted with "
                      "nothing)", (int)m->name_len, m->name, (int)l->len, l->s);
                goto fail_frame;
            }
            produced = a->n != 0;
            if (!a->n)
                paste = false;
            for (uint32_t k = 0; k < a->n; k++)
                if (!put_replacement(g, &f.owned, a->v[k], &paste))
                    goto fail_frame;
            continue;
        }
        if (!put_replacement(g, &f.owned, *t, &paste))
            goto fail_frame;
        produced = true;
    }
    f.toks = f.owned.v;
    f.count = f.owned.n;
    if (!push_frame(g, f))
        goto fail_frame;
    m = &g->macros[mi];
    m->busy = true;
    result = 1;
    goto done;
fail_frame:
    tv_free(&f.owned);
    g->macro_depth--;
done:
    for (uint32_t i = 0; i < nargs && raw; i++)
        tv_free(&raw[i]);
    for (uint32_t i = 0; i < nargs && exp; i++)
        tv_free(&exp[i]);
    hl__free(raw);
    hl__free(exp);
    return g->err ? -1 : result;
}

/* Next token after macro expansion: 1, 0 at the end of the innermost barrier, -1 on error. */
static int next_expanded(guard *g, ptok *out, bool in_expr) {
    for (;;) {
        int r = raw_next(g, out);
        if (r <= 0)
            return r;
        if (out->kind != TK_IDENT || (out->flags & TF_NOEXPAND))
            return 1;
        if (in_expr && tok_eq(out, "defined"))
            return 1;
        macro *m = lookup_tok(g, out);
        if (!m || !m->defined)
            return 1;
        if (m->busy) {
            out->flags |= TF_NOEXPAND;
            return 1;
        }
        if (m->special == MAC_LINE || (in_expr && m->special == MAC_UNKNOWN_VALUE))
            return 1; /* one number token; its value is unknown to #if */
        r = start_macro(g, m);
        if (r < 0)
            return -1;
        if (r == 0)
            return 1;
    }
}

static bool structure_fail(guard *g, const char *what, uint32_t limit, const char *name) {
    const macro *m = g->outer;
    gfail(g, HL_ERR_SHADER, "source budget exceeded: %s more than %u (%s)%s%.*s%s", what, (unsigned)limit, name,
          m ? " while expanding '" : "", m ? (int)m->name_len : 0, m ? m->name : "", m ? "'" : "");
    return false;
}

static bool count_operators(guard *g, uint32_t n) {
    uint32_t *c = &g->open_count[g->depth];
    *c = *c + n > *c ? *c + n : UINT32_MAX;
    if (*c > g->st.max_operators)
        g->st.max_operators = *c;
    if (*c <= g->lim.expression_operators)
        return true;
    return structure_fail(g, "operators chained in one expression:", g->lim.expression_operators,
                          "HL_SHADER_MAX_EXPRESSION_OPERATORS");
}

/* Follows one output token: nesting of ( [ {, operators per expression element (an element
 * ends at ',' or ';'; a closed ( or [ group adds its largest element to the one around it, so
 * the count bounds the depth of glslang's expression tree), function definitions. */
static bool structure(guard *g, const ptok *t) {
    bool paren = false;
    if (t->kind == TK_PUNCT) {
        char c = t->s[0];
        if (t->len == 1 && (c == '(' || c == '[' || c == '{')) {
            if (c == '{' && g->depth == 0 && g->after_paren && ++g->st.functions > g->lim.functions)
                return structure_fail(g, "function definitions:", g->lim.functions, "HL_SHADER_MAX_FUNCTIONS");
            if (g->depth >= g->lim.nesting)
                return structure_fail(g, "( [ { nested", g->lim.nesting, "HL_SHADER_MAX_NESTING");
            g->depth++;
            if (g->depth > g->st.max_nesting)
                g->st.max_nesting = g->depth;
            g->open_kind[g->depth] = (uint8_t)c;
            g->open_count[g->depth] = g->open_max[g->depth] = 0;
        } else if (t->len == 1 && (c == ')' || c == ']' || c == '}')) {
            if (g->depth) {
                uint32_t inner = g->open_count[g->depth] > g->open_max[g->depth] ? g->open_count[g->depth]
                                                                                 : g->open_max[g->depth];
                uint8_t opener = g->open_kind[g->depth--];
                if (opener == '{') /* a block ends the statement around it */
                    g->open_count[g->depth] = g->open_max[g->depth] = 0;
                else if (!count_operators(g, inner + 1))
                    return false;
            }
            paren = c == ')';
        } else if (t->len == 1 && (c == ',' || c == ';')) {
            if (g->open_count[g->depth] > g->open_max[g->depth])
                g->open_max[g->depth] = g->open_count[g->depth];
            g->open_count[g->depth] = 0;
        } else if (!count_operators(g, 1)) {
            return false;
        }
    }
    g->after_paren = paren;
    return true;
}

static bool expand_text(guard *g) {
    frame f = {0};
    f.kind = FR_BASE;
    g->base_mode = BASE_TEXT;
    if (!push_frame(g, f))
        return false;
    ptok t;
    int r;
    while ((r = next_expanded(g, &t, false)) > 0) {
        if (g->frame_count == 1)
            g->outer = NULL;
        g->st.output_bytes += t.len + 1u;
        g->st.output_tokens++;
        if (!structure(g, &t)) {
            r = -1;
            break;
        }
        if (g->out) {
            hl__sb_put(g->out, g->cur_line != g->out_line ? "\n" : " ", 1);
            g->out_line = g->cur_line;
            hl__sb_put(g->out, t.s, t.len);
            if (g->out->oom) {
                oom(g);
                r = -1;
                break;
            }
        }
        if (g->st.output_bytes > g->lim.expanded_bytes) {
            const macro *m = g->outer;
            gfail(g, HL_ERR_SHADER,
                  "preprocessing budget exceeded: the preprocessed text is longer than %llu bytes "
                  "(HL_SHADER_MAX_EXPANDED_BYTES)%s%.*s%s",
                  (unsigned long long)g->lim.expanded_bytes, m ? " while expanding '" : "", m ? (int)m->name_len : 0,
                  m ? m->name : "", m ? "'" : "");
            r = -1;
            break;
        }
    }
    while (g->frame_count)
        pop_frame(g);
    g->outer = NULL;
    return r == 0;
}

/* ---- #if expressions ------------------------------------------------------------------------- */
/* A value as glslang (32-bit int) and glcpp (64-bit) compute it; unknown when they disagree
 * or a compiler-defined name is involved. */
typedef struct pval {
    int32_t a;
    int64_t b;
    bool unknown;
} pval;

typedef struct expr {
    guard *g;
    ptok cur;
    bool has; /* cur is valid (false at the end of the line) */
    uint32_t depth;
} expr;

static bool ex_advance(expr *e) {
    int r = next_expanded(e->g, &e->cur, true);
    e->has = r > 0;
    return r >= 0;
}

static pval make_val(int64_t v) { return (pval){(int32_t)(uint32_t)(uint64_t)v, v, false}; }

static bool ex_fail(expr *e, const char *what) {
    gfail(e->g, HL_ERR_SHADER, "%s expression: %s", e->g->expr_directive, what);
    return false;
}

static void note_unknown(guard *g, const ptok *t) {
    if (!g->unknown_name) {
        g->unknown_name = t->s;
        g->unknown_len = t->len;
    }
}

static bool ex_number(expr *e, const ptok *t, pval *out) {
    const char *s = t->s;
    uint32_t n = t->len, i = 0;
    unsigned base = 10;
    if (n > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        i = 2;
    } else if (s[0] == '0') {
        base = 8;
    }
    uint64_t v = 0;
    bool big = false, digits = false;
    for (; i < n; i++) {
        char c = s[i];
        unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0')
                     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
                                            : 99u;
        if (d >= base)
            break;
        digits = true;
        if (v > (UINT64_MAX >> 4))
            big = true;
        v = v * base + d;
    }
    if (i < n && (s[i] == 'u' || s[i] == 'U') && i + 1 == n)
        i++;
    if (i != n || (!digits && base != 8))
        return ex_fail(e, "expected an integer");
    *out = make_val((int64_t)(v & INT64_MAX));
    out->unknown = big || v > UINT32_MAX; /* glslang refuses it, glcpp takes it */
    return true;
}

static int binop_prec(const ptok *t) {
    static const struct {
        const char *op;
        int prec;
    } ops[] = {{"||", 1}, {"&&", 2}, {"|", 3},  {"^", 4},  {"&", 5},  {"==", 6}, {"!=", 6}, {">", 7}, {">=", 7},
               {"<", 7},  {"<=", 7}, {"<<", 8}, {">>", 8}, {"+", 9},  {"-", 9},  {"*", 10}, {"/", 10}, {"%", 10}};
    if (t->kind != TK_PUNCT)
        return 0;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (tok_eq(t, ops[i].op))
            return ops[i].prec;
    return 0;
}

static bool ex_binary(expr *e, int min_prec, pval *out);

static bool ex_enter(expr *e) {
    if (++e->depth > e->g->lim.expr_depth) {
        gfail(e->g, HL_ERR_SHADER,
              "preprocessing budget exceeded: #if expression nested more than %u deep (HL_SHADER_MAX_EXPR_DEPTH)",
              (unsigned)e->g->lim.expr_depth);
        return false;
    }
    return true;
}

static bool ex_unary(expr *e, pval *out) {
    if (!e->has)
        return ex_fail(e, "expected an operand");
    ptok t = e->cur;
    if (tok_punct(&t, "(")) {
        if (!ex_enter(e) || !ex_advance(e) || !ex_binary(e, 1, out))
            return false;
        if (!e->has || !tok_punct(&e->cur, ")"))
            return ex_fail(e, "missing ')'");
        e->depth--;
        return ex_advance(e);
    }
    if (tok_punct(&t, "+") || tok_punct(&t, "-") || tok_punct(&t, "~") || tok_punct(&t, "!")) {
        pval v;
        if (!ex_enter(e) || !ex_advance(e) || !ex_unary(e, &v))
            return false;
        e->depth--;
        char op = t.s[0];
        uint32_t ua = (uint32_t)v.a;
        uint64_t ub = (uint64_t)v.b;
        *out = v;
        if (op == '-') {
            out->a = (int32_t)(0u - ua);
            out->unknown |= v.b == INT64_MIN;
            out->b = (int64_t)(0u - ub);
        } else if (op == '~') {
            out->a = (int32_t)~ua;
            out->b = (int64_t)~ub;
        } else if (op == '!') {
            out->a = !v.a;
            out->b = !v.b;
        }
        out->unknown |= (int64_t)out->a != out->b;
        return true;
    }
    if (t.kind == TK_NUMBER) {
        if (!ex_number(e, &t, out))
            return false;
        return ex_advance(e);
    }
    if (t.kind == TK_IDENT) {
        if (tok_eq(&t, "defined")) {
            ptok n;
            bool paren = false;
            if (raw_next(e->g, &n) <= 0)
                return ex_fail(e, "'defined' without a name");
            if (tok_punct(&n, "(")) {
                paren = true;
                if (raw_next(e->g, &n) <= 0)
                    return ex_fail(e, "'defined' without a name");
            }
            if (n.kind != TK_IDENT)
                return ex_fail(e, "'defined' without a name");
            if (paren) {
                ptok c;
                if (raw_next(e->g, &c) <= 0 || !tok_punct(&c, ")"))
                    return ex_fail(e, "missing ')' after 'defined('");
            }
            macro *m = lookup_tok(e->g, &n);
            *out = make_val(m && m->defined);
            if (!m && compiler_name(n.s, n.len)) {
                out->unknown = true;
                note_unknown(e->g, &n);
            }
            return ex_advance(e);
        }
        /* an identifier left after expansion: 0, or unknown when a compiler may define it */
        *out = make_val(0);
        macro *m = lookup_tok(e->g, &t);
        if ((m && m->defined) || (!m && compiler_name(t.s, t.len))) {
            out->unknown = true;
            note_unknown(e->g, &t);
        }
        return ex_advance(e);
    }
    return ex_fail(e, "unexpected token");
}

static pval ex_apply(const ptok *op, pval x, pval y, bool *div0) {
    pval r = {0, 0, x.unknown || y.unknown};
    uint32_t xa = (uint32_t)x.a, ya = (uint32_t)y.a;
    uint64_t xb = (uint64_t)x.b, yb = (uint64_t)y.b;
    char c0 = op->s[0], c1 = op->len > 1 ? op->s[1] : 0;
    int64_t b = 0;
    int32_t a = 0;
    switch (c0) {
    case '|': a = c1 ? (x.a || y.a) : (int32_t)(xa | ya); b = c1 ? (x.b || y.b) : (int64_t)(xb | yb); break;
    case '&': a = c1 ? (x.a && y.a) : (int32_t)(xa & ya); b = c1 ? (x.b && y.b) : (int64_t)(xb & yb); break;
    case '^': a = (int32_t)(xa ^ ya); b = (int64_t)(xb ^ yb); break;
    case '=': a = x.a == y.a; b = x.b == y.b; break;
    case '!': a = x.a != y.a; b = x.b != y.b; break;
    case '>':
        if (c1 == '>') {
            if (y.a < 0 || y.a > 31 || y.b < 0 || y.b > 63)
                r.unknown = true;
            else {
                a = x.a >> y.a;
                b = x.b >> y.b;
            }
        } else {
            a = c1 ? x.a >= y.a : x.a > y.a;
            b = c1 ? x.b >= y.b : x.b > y.b;
        }
        break;
    case '<':
        if (c1 == '<') {
            if (y.a < 0 || y.a > 31 || y.b < 0 || y.b > 63)
                r.unknown = true;
            else {
                a = (int32_t)(xa << y.a);
                b = (int64_t)(xb << y.b);
            }
        } else {
            a = c1 ? x.a <= y.a : x.a < y.a;
            b = c1 ? x.b <= y.b : x.b < y.b;
        }
        break;
    case '+': a = (int32_t)(xa + ya); b = (int64_t)(xb + yb); break;
    case '-': a = (int32_t)(xa - ya); b = (int64_t)(xb - yb); break;
    case '*': a = (int32_t)(xa * ya); b = (int64_t)(xb * yb); break;
    case '/':
    case '%':
        if (y.a == 0 || y.b == 0) {
            *div0 = !r.unknown;
            r.unknown = true;
            break;
        }
        if ((x.a == INT32_MIN && y.a == -1) || (x.b == INT64_MIN && y.b == -1)) {
            r.unknown = true;
            break;
        }
        a = c0 == '/' ? x.a / y.a : x.a % y.a;
        b = c0 == '/' ? x.b / y.b : x.b % y.b;
        break;
    default: r.unknown = true; break;
    }
    r.a = a;
    r.b = b;
    /* the two widths disagree: the compilers could take different branches */
    if ((int64_t)a != b)
        r.unknown = true;
    /* short circuits decide without the unknown side */
    if (c0 == '|' && c1 == '|' && ((!x.unknown && x.a) || (!y.unknown && y.a)))
        r = (pval){1, 1, false};
    if (c0 == '&' && c1 == '&' && ((!x.unknown && !x.a) || (!y.unknown && !y.a)))
        r = (pval){0, 0, false};
    return r;
}

static bool ex_binary(expr *e, int min_prec, pval *out) {
    if (!ex_unary(e, out))
        return false;
    for (;;) {
        int prec = e->has ? binop_prec(&e->cur) : 0;
        if (prec < min_prec || prec == 0)
            return true;
        ptok op = e->cur;
        pval rhs;
        if (!ex_enter(e) || !ex_advance(e) || !ex_binary(e, prec + 1, &rhs))
            return false;
        e->depth--;
        bool div0 = false;
        *out = ex_apply(&op, *out, rhs, &div0);
        if (div0)
            return ex_fail(e, "division by zero");
    }
}

/* Evaluates the rest of the directive line: ST_ACTIVE (true), ST_INACTIVE (false), ST_MAYBE. */
static int eval_condition(guard *g, int *value) {
    g->expr_directive = "#if";
    frame f = {0};
    f.kind = FR_BASE;
    g->base_mode = BASE_LINE;
    g->unknown_name = NULL;
    if (!push_frame(g, f))
        return -1;
    expr e = {g, {0}, false, 0};
    pval v = {0, 0, false};
    bool ok = ex_advance(&e) && ex_binary(&e, 1, &v);
    if (ok && e.has)
        ok = ex_fail(&e, "unexpected tokens after the expression");
    while (g->frame_count)
        pop_frame(g);
    g->outer = NULL;
    skip_line(g);
    if (!ok)
        return -1;
    *value = v.unknown ? ST_MAYBE : (v.a != 0 ? ST_ACTIVE : ST_INACTIVE);
    return 0;
}

/* ---- directives ------------------------------------------------------------------------------ */
static uint8_t combine(uint8_t parent, int v) { return v == ST_INACTIVE ? ST_INACTIVE : parent < v ? parent : (uint8_t)v; }

static bool cond_push(guard *g) {
    if (g->cond_count >= g->lim.if_depth) {
        gfail(g, HL_ERR_SHADER, "preprocessing budget exceeded: #if nested more than %u deep (HL_SHADER_MAX_IF_DEPTH)",
              (unsigned)g->lim.if_depth);
        return false;
    }
    if (!hl__reserve((void **)&g->conds, &g->cond_cap, g->cond_count + 1, sizeof *g->conds)) {
        oom(g);
        return false;
    }
    cond *c = &g->conds[g->cond_count++];
    memset(c, 0, sizeof *c);
    c->parent = g->state;
    if (g->cond_count > g->st.max_if_depth)
        g->st.max_if_depth = g->cond_count;
    return true;
}

static void cond_set(guard *g, cond *c, int v) {
    uint8_t s = combine(c->parent, v);
    if (c->taken_yes)
        s = ST_INACTIVE;
    else if (c->taken_maybe && s == ST_ACTIVE)
        s = ST_MAYBE;
    c->state = s;
    c->taken_yes |= v == ST_ACTIVE;
    c->taken_maybe |= v == ST_MAYBE;
    g->state = s;
}

static bool do_ifdef(guard *g, bool want) {
    ptok n;
    int v = ST_INACTIVE;
    if (!cond_push(g))
        return false;
    if (g->conds[g->cond_count - 1].parent != ST_INACTIVE) {
        if (!line_next(g, &n) || n.kind != TK_IDENT) {
            gfail(g, HL_ERR_SHADER, "#ifdef / #ifndef without a macro name");
            return false;
        }
        macro *m = lookup_tok(g, &n);
        bool def = m && m->defined;
        v = def == want ? ST_ACTIVE : ST_INACTIVE;
        if (!m && compiler_name(n.s, n.len)) {
            v = ST_MAYBE;
            g->unknown_name = n.s;
            g->unknown_len = n.len;
        }
    }
    skip_line(g);
    cond_set(g, &g->conds[g->cond_count - 1], v);
    return true;
}

static bool do_define(guard *g) {
    ptok name, t;
    if (!line_next(g, &name) || name.kind != TK_IDENT)
        return true; /* glslang reports it and defines nothing */
    if (++g->st.defines > g->lim.defines) {
        gfail(g, HL_ERR_SHADER, "preprocessing budget exceeded: more than %u #define directives (HL_SHADER_MAX_DEFINES) at '%.*s'",
              (unsigned)g->lim.defines, (int)name.len, name.s);
        return false;
    }
    tokvec params = {0}, body = {0};
    bool function_like = false, has = line_next(g, &t);
    if (has && tok_punct(&t, "(") && !(t.flags & TF_SPACE)) {
        function_like = true;
        has = line_next(g, &t);
        if (has && tok_punct(&t, ")")) {
            has = line_next(g, &t);
        } else {
            for (;;) {
                if (!has || t.kind != TK_IDENT)
                    goto malformed;
                bool dup = false;
                for (uint32_t i = 0; i < params.n; i++)
                    dup |= tok_same(&params.v[i], &t);
                if (!dup && !tv_push(g, &params, t))
                    goto fail;
                has = line_next(g, &t);
                if (has && tok_punct(&t, ",")) {
                    has = line_next(g, &t);
                    continue;
                }
                if (!has || !tok_punct(&t, ")"))
                    goto malformed;
                has = line_next(g, &t);
                break;
            }
        }
    } else if (has && !(t.flags & TF_SPACE)) {
        goto malformed; /* "missing space after macro name": glslang warns and defines nothing */
    }
    int32_t parens = 0;
    while (has) {
        if (tok_punct(&t, "#")) {
            /* GLSL has no stringizing: glslang reports the '#' when the macro expands, and its
             * recovery inside an argument's pre-expansion re-expands without the C rules' bound
             * (8 levels of doubling macros took over 8 GB; found by fuzz_glsl_compile), so a
             * replacement list with a '#' is refused (## stays: token pasting) */
            gfail(g, HL_ERR_SHADER, "#define '%.*s': '#' in the replacement list (GLSL has no # operator)",
                  (int)name.len, name.s);
            goto fail;
        }
        if (!tv_push(g, &body, t))
            goto fail;
        parens += tok_punct(&t, "(") ? 1 : tok_punct(&t, ")") ? -1 : 0;
        if (parens < 0)
            break;
        has = line_next(g, &t);
    }
    if (parens != 0) {
        /* a call that runs past the end of a replacement list is where glslang's expansion
         * stops following the C rules (a macro it should no longer expand expands again: 11
         * levels took 21 s and 16 GB, found by fuzz_glsl_compile), so such lists are refused */
        gfail(g, HL_ERR_SHADER, "#define '%.*s': unbalanced parentheses in the replacement list", (int)name.len,
              name.s);
        goto fail;
    }
    macro *m = macro_get(g, name.s, name.len);
    if (!m) {
        oom(g);
        goto fail;
    }
    tv_free(&m->body);
    tv_free(&m->params);
    m->body = body;
    m->params = params;
    m->function_like = function_like;
    m->pastes = false;
    for (uint32_t i = 0; i < body.n; i++)
        m->pastes |= tok_punct(&body.v[i], "##");
    m->defined = true;
    m->special = MAC_PLAIN;
    return true;
malformed:
    skip_line(g);
    tv_free(&params);
    tv_free(&body);
    return true;
fail:
    tv_free(&params);
    tv_free(&body);
    return false;
}

/* `#line N [S]`: N and S are integer expressions after macro expansion. Compilers count lines
 * in 32-bit signed integers (glslang wraps past 2^31 - 1 and its output loses its line breaks),
 * so N must be known and at most HL_SHADER_MAX_LINE_NUMBER; the source holds fewer lines than
 * it has bytes, which keeps every later line number below 2^31. */
static bool do_line(guard *g) {
    uint32_t line_of_directive = g->phys_line;
    g->expr_directive = "#line";
    frame f = {0};
    f.kind = FR_BASE;
    g->base_mode = BASE_LINE;
    g->unknown_name = NULL;
    if (!push_frame(g, f))
        return false;
    expr e = {g, {0}, false, 0};
    pval v = {0, 0, false}, s = {0, 0, false};
    bool ok = ex_advance(&e) && ex_binary(&e, 1, &v);
    if (ok && e.has)
        ok = ex_binary(&e, 1, &s);
    if (ok && e.has)
        ok = ex_fail(&e, "unexpected tokens after #line's line and source numbers");
    while (g->frame_count)
        pop_frame(g);
    g->outer = NULL;
    skip_line(g);
    if (!ok)
        return false;
    if (v.unknown || v.b < 0 || v.b > (int64_t)HL_SHADER_MAX_LINE_NUMBER || v.a != v.b) {
        gfail(g, HL_ERR_SHADER,
              "#line %lld: the line number must be a known value from 0 to %u (HL_SHADER_MAX_LINE_NUMBER; "
              "compilers count lines in 32-bit integers)",
              (long long)v.b, HL_SHADER_MAX_LINE_NUMBER);
        return false;
    }
    /* the line after `#line N` is line N (GLSL ES 3.00, 4.50) */
    g->line_delta = v.b - (int64_t)line_of_directive - 1;
    return true;
}

static bool directive(guard *g) {
    ptok d;
    if (!line_next(g, &d))
        return true; /* null directive */
    /* While glslang skips a region it takes every '#' that follows the line's first one as a
     * new start: `##endif` and `# # endif` end the region there (and are errors elsewhere). */
    while (g->state != ST_ACTIVE && (tok_punct(&d, "#") || tok_punct(&d, "##")))
        if (!line_next(g, &d))
            return true;
    if (d.kind != TK_IDENT) {
        skip_line(g);
        return true;
    }
    if (tok_eq(&d, "if")) {
        if (!cond_push(g))
            return false;
        int v = ST_INACTIVE;
        if (g->conds[g->cond_count - 1].parent != ST_INACTIVE) {
            if (eval_condition(g, &v))
                return false;
        } else {
            skip_line(g);
        }
        cond_set(g, &g->conds[g->cond_count - 1], v);
        return true;
    }
    if (tok_eq(&d, "ifdef") || tok_eq(&d, "ifndef"))
        return do_ifdef(g, tok_eq(&d, "ifdef"));
    if (tok_eq(&d, "elif") || tok_eq(&d, "else") || tok_eq(&d, "endif")) {
        if (!g->cond_count) {
            gfail(g, HL_ERR_SHADER, "#%.*s without #if", (int)d.len, d.s);
            return false;
        }
        cond *c = &g->conds[g->cond_count - 1];
        if (tok_eq(&d, "endif")) {
            g->state = c->parent;
            g->cond_count--;
            skip_line(g);
            return true;
        }
        if (c->seen_else) {
            gfail(g, HL_ERR_SHADER, "#%.*s after #else", (int)d.len, d.s);
            return false;
        }
        int v = ST_ACTIVE;
        if (tok_eq(&d, "else")) {
            c->seen_else = true;
            skip_line(g);
        } else if (c->parent != ST_INACTIVE && !c->taken_yes) {
            if (eval_condition(g, &v))
                return false;
            c = &g->conds[g->cond_count - 1];
        } else {
            skip_line(g);
        }
        cond_set(g, c, v);
        return true;
    }
    if (g->state == ST_INACTIVE) {
        skip_line(g);
        return true;
    }
    bool def = tok_eq(&d, "define"), undef = tok_eq(&d, "undef");
    if ((def || undef) && g->state == ST_MAYBE) {
        ptok n = {0};
        line_next(g, &n);
        gfail(g, HL_ERR_SHADER,
              "#%s of '%.*s' under a condition on '%.*s', a macro the compiler defines itself: the preprocessing "
              "budget cannot tell which definition applies (test GL_ES, GL_FRAGMENT_PRECISION_HIGH, VULKAN or your "
              "own macros instead)",
              def ? "define" : "undef", (int)n.len, n.s ? n.s : "", (int)g->unknown_len,
              g->unknown_name ? g->unknown_name : "?");
        return false;
    }
    if (def)
        return do_define(g);
    if (undef) {
        ptok n;
        if (line_next(g, &n) && n.kind == TK_IDENT) {
            macro *m = lookup_tok(g, &n);
            if (m)
                m->defined = false;
        }
        skip_line(g);
        return true;
    }
    if (tok_eq(&d, "line"))
        return do_line(g);
    if (tok_eq(&d, "error") && g->state == ST_ACTIVE) {
        g->stop = true; /* compilers stop at #error */
        return true;
    }
    skip_line(g);
    return true;
}

/* ---- entry ----------------------------------------------------------------------------------- */
static const hl__pp_limits *g_default_limits; /* fuzzers only: see hl__pp_set_default_limits */

void hl__pp_set_default_limits(const hl__pp_limits *limits) { g_default_limits = limits; }

static hl_result guard_run(const char *text, bool vulkan, const hl__pp_limits *limits, hl__pp_stats *stats,
                           hl__sb *out) {
    guard *g = hl__calloc(1, sizeof *g);
    if (!g)
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "out of memory checking the preprocessing budget");
    g->out = out;
    g->out_line = 1;
    g->src = "";
    if (!splice(g, text ? text : ""))
        oom(g);
    g->phys_line = 1;
    g->cur_line = 1;
    g->bol = true;
    g->vulkan = vulkan;
    g->es310 = !vulkan && hl__text_is_es310(text);
    g->state = ST_ACTIVE;
    static const hl__pp_limits defaults = {HL_SHADER_MAX_DEFINES,          HL_SHADER_MAX_IF_DEPTH,
                                           HL_SHADER_MAX_EXPR_DEPTH,       HL_SHADER_MAX_MACRO_DEPTH,
                                           HL_SHADER_MAX_EXPANSION_TOKENS, HL_SHADER_MAX_EXPANDED_BYTES,
                                           HL_SHADER_MAX_NESTING,          HL_SHADER_MAX_EXPRESSION_OPERATORS,
                                           HL_SHADER_MAX_FUNCTIONS};
    g->lim = limits ? *limits : g_default_limits ? *g_default_limits : defaults;
    if (g->lim.nesting > HL_SHADER_MAX_NESTING)
        g->lim.nesting = HL_SHADER_MAX_NESTING;
    g->open_kind = hl__calloc(g->lim.nesting + 1u, 1);
    g->open_count = hl__calloc(g->lim.nesting + 1u, sizeof *g->open_count);
    g->open_max = hl__calloc(g->lim.nesting + 1u, sizeof *g->open_max);
    if (!g->open_kind || !g->open_count || !g->open_max)
        oom(g);
    if (!add_builtins(g))
        oom(g);
    while (!g->err && !g->stop) {
        ptok t;
        if (!scan_peek(g, &t))
            break;
        if ((t.flags & TF_BOL) && (tok_punct(&t, "#") || (g->state != ST_ACTIVE && tok_punct(&t, "##")))) {
            scan_take(g);
            if (!directive(g))
                break;
            continue;
        }
        if (g->state == ST_INACTIVE) {
            scan_take(g);
            continue;
        }
        if (!expand_text(g))
            break;
    }
    hl_result r = g->err;
    if (stats)
        *stats = g->st;
    for (uint32_t i = 0; i < g->macro_count; i++) {
        tv_free(&g->macros[i].body);
        tv_free(&g->macros[i].params);
    }
    while (g->arena) {
        chunk *c = g->arena;
        g->arena = c->next;
        hl__free(c);
    }
    hl__free(g->open_kind);
    hl__free(g->open_count);
    hl__free(g->open_max);
    hl__free(g->clean);
    hl__free(g->splices);
    hl__free(g->macros);
    hl__free(g->table);
    hl__free(g->frames);
    hl__free(g->conds);
    hl__free(g);
    return r;
}

hl_result hl__pp_guard(const char *text, bool vulkan, const hl__pp_limits *limits, hl__pp_stats *stats) {
    return guard_run(text, vulkan, limits, stats, NULL);
}

hl_result hl__pp_expand(const char *text, char **out) {
    *out = NULL;
    hl__sb sb = {0};
    hl_result r = guard_run(text, false, NULL, NULL, &sb);
    if (r) {
        hl__sb_free(&sb);
        return r;
    }
    hl__sb_put(&sb, "\n", 1);
    *out = hl__sb_take(&sb);
    return *out ? HL_OK : hl__fail(HL_ERR_OUT_OF_MEMORY, "out of memory expanding a shader source");
}
