/* Text utilities of the shader toolchain: string builder, GLSL tokenizer, #define injection. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "shader_internal.h"

/* ---- string builder -------------------------------------------------------------------------- */
static bool sb_reserve(hl__sb *sb, size_t extra) {
    if (sb->oom)
        return false;
    size_t need = sb->len + extra + 1;
    if (need <= sb->cap)
        return true;
    size_t cap = sb->cap ? sb->cap : 256;
    while (cap < need)
        cap *= 2;
    char *p = hl__realloc(sb->data, cap);
    if (!p) {
        sb->oom = true;
        return false;
    }
    sb->data = p;
    sb->cap = cap;
    return true;
}

void hl__sb_put(hl__sb *sb, const char *s, size_t n) {
    if (!sb_reserve(sb, n))
        return;
    memcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = '\0';
}

void hl__sb_puts(hl__sb *sb, const char *s) { hl__sb_put(sb, s, strlen(s)); }

void hl__sb_printf(hl__sb *sb, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n > 0 && sb_reserve(sb, (size_t)n)) {
        vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap2);
        sb->len += (size_t)n;
    }
    va_end(ap2);
}

char *hl__sb_take(hl__sb *sb) {
    if (!sb->oom && !sb->data)
        sb_reserve(sb, 0);
    if (sb->oom) {
        hl__sb_free(sb);
        return NULL;
    }
    sb->data[sb->len] = '\0';
    char *s = sb->data;
    memset(sb, 0, sizeof *sb);
    return s;
}

void hl__sb_free(hl__sb *sb) {
    hl__free(sb->data);
    memset(sb, 0, sizeof *sb);
}

/* ---- tokenizer ------------------------------------------------------------------------------- */
static bool ident_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static bool ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

static bool lex_push(hl__lex *lx, uint32_t kind, size_t start, size_t end) {
    if (lx->count == lx->cap) {
        uint32_t cap = lx->cap ? lx->cap * 2 : 256;
        hl__tok *t = hl__realloc(lx->toks, cap * sizeof *t);
        if (!t)
            return false;
        lx->toks = t;
        lx->cap = cap;
    }
    lx->toks[lx->count++] = (hl__tok){kind, (uint32_t)start, (uint32_t)(end - start)};
    return true;
}

/* Skips a comment at s[i] if there is one; returns the index after it (i if none). */
static size_t skip_comment(const char *s, size_t i) {
    if (s[i] == '/' && s[i + 1] == '/') {
        i += 2;
        while (s[i] && s[i] != '\n') {
            if (s[i] == '\\' && s[i + 1] == '\n')
                i++;
            i++;
        }
        return i;
    }
    if (s[i] == '/' && s[i + 1] == '*') {
        i += 2;
        while (s[i] && !(s[i] == '*' && s[i + 1] == '/'))
            i++;
        return s[i] ? i + 2 : i;
    }
    return i;
}

hl_result hl__lex_run(const char *src, hl__lex *out) {
    memset(out, 0, sizeof *out);
    out->src = src;
    size_t i = 0;
    bool line_start = true;
    while (src[i]) {
        char c = src[i];
        if (c == '\n') {
            line_start = true;
            i++;
            continue;
        }
        if (isspace((unsigned char)c) || (c == '\\' && src[i + 1] == '\n')) {
            i += c == '\\' ? 2 : 1;
            continue;
        }
        size_t after = skip_comment(src, i);
        if (after != i) {
            i = after;
            continue;
        }
        size_t start = i;
        uint32_t kind;
        if (c == '#' && line_start) {
            /* a directive runs to the end of the line; comments inside may span lines */
            while (src[i] && src[i] != '\n') {
                size_t a = skip_comment(src, i);
                if (a != i) {
                    i = a;
                    continue;
                }
                if (src[i] == '\\' && src[i + 1] == '\n')
                    i++;
                i++;
            }
            kind = HL__TOK_DIRECTIVE;
        } else if (ident_start(c)) {
            while (ident_char(src[i]))
                i++;
            kind = HL__TOK_IDENT;
        } else if (isdigit((unsigned char)c) || (c == '.' && isdigit((unsigned char)src[i + 1]))) {
            bool hex = c == '0' && (src[i + 1] == 'x' || src[i + 1] == 'X');
            i++;
            while (ident_char(src[i]) || src[i] == '.' ||
                   (!hex && (src[i] == '+' || src[i] == '-') && (src[i - 1] == 'e' || src[i - 1] == 'E')))
                i++;
            kind = HL__TOK_NUMBER;
        } else {
            i++;
            kind = HL__TOK_PUNCT;
        }
        line_start = false;
        if (!lex_push(out, kind, start, i)) {
            hl__lex_free(out);
            return hl__fail(HL_ERR_OUT_OF_MEMORY, "shader: out of memory tokenizing GLSL");
        }
    }
    return HL_OK;
}

void hl__lex_free(hl__lex *lx) {
    hl__free(lx->toks);
    memset(lx, 0, sizeof *lx);
}

/* ---- #define injection ----------------------------------------------------------------------- */

/* Finds the #version directive: the first directive of the source. Returns its start offset,
 * the offset just past its line and its 1-based line number; false if absent. */
static bool find_version(const char *src, size_t *start, size_t *end, uint32_t *line) {
    uint32_t ln = 1;
    size_t i = 0;
    bool line_start = true;
    while (src[i]) {
        char c = src[i];
        if (c == '\n') {
            ln++;
            line_start = true;
            i++;
            continue;
        }
        if (isspace((unsigned char)c)) {
            i++;
            continue;
        }
        size_t after = skip_comment(src, i);
        if (after != i) {
            for (size_t k = i; k < after; k++)
                ln += src[k] == '\n';
            i = after;
            continue;
        }
        if (c != '#' || !line_start)
            return false;
        size_t k = i + 1;
        while (src[k] == ' ' || src[k] == '\t')
            k++;
        if (strncmp(src + k, "version", 7) != 0 || ident_char(src[k + 7]))
            return false;
        *start = i;
        while (src[k] && src[k] != '\n')
            k++;
        *end = src[k] ? k + 1 : k;
        *line = ln;
        return true;
    }
    return false;
}

static bool version_is(const char *s, size_t start, size_t end, const char *number) {
    const char *p = s + start + 1;
    const char *e = s + end;
    while (p < e && (*p == ' ' || *p == '\t'))
        p++;
    p += 7; /* "version" */
    const char *want[] = {number, "es"};
    for (int w = 0; w < 2; w++) {
        while (p < e && (*p == ' ' || *p == '\t'))
            p++;
        size_t n = strlen(want[w]);
        if ((size_t)(e - p) < n || strncmp(p, want[w], n) != 0 || (p + n < e && ident_char(p[n])))
            return false;
        p += n;
    }
    while (p < e && isspace((unsigned char)*p))
        p++;
    return p == e || (p + 1 < e && p[0] == '/' && (p[1] == '/' || p[1] == '*'));
}

static hl_result check_define(const hl_shader_define *d, uint32_t index) {
    if (!d->name || !ident_start(d->name[0]))
        return hl__fail(HL_ERR_VALIDATION, "shader defines[%u].name: must be a GLSL identifier", index);
    for (const char *p = d->name; *p; p++)
        if (!ident_char(*p))
            return hl__fail(HL_ERR_VALIDATION, "shader defines[%u].name '%s': must be a GLSL identifier", index,
                            d->name);
    if (d->value && strpbrk(d->value, "\r\n"))
        return hl__fail(HL_ERR_VALIDATION, "shader defines[%u].value of '%s': must be one line", index, d->name);
    size_t n = strnlen(d->name, HL_SHADER_MAX_DEFINE_BYTES + 1);
    if (d->value)
        n += strnlen(d->value, HL_SHADER_MAX_DEFINE_BYTES + 1);
    if (n > HL_SHADER_MAX_DEFINE_BYTES)
        return hl__fail(HL_ERR_VALIDATION,
                        "shader defines[%u] '%.32s': name + value longer than %u bytes (HL_SHADER_MAX_DEFINE_BYTES)",
                        index, d->name, (unsigned)HL_SHADER_MAX_DEFINE_BYTES);
    return HL_OK;
}

static size_t line_break_at(const char *s, size_t i) {
    return s[i] == '\n' ? 1 : s[i] == '\r' ? (s[i + 1] == '\n' ? 2 : 1) : 0;
}

bool hl__has_continuation(const char *text) {
    for (const char *p = strchr(text, '\\'); p; p = strchr(p + 1, '\\'))
        if (p[1] == '\n' || p[1] == '\r') return true;
    return false;
}

/* A line break may not follow a backslash in the output: a backslash left just before a
 * removed continuation (two backslashes, then a line break) followed by a line break, or by a
 * removed line break put back, would make a continuation the source did not have, and glslang
 * aborts on one after a macro name (`USE` then three backslashes at the end of a text, found by
 * fuzz_glsl_compile): a space goes between them. */
static void put_break(char *out, size_t *o, const char *brk, size_t len) {
    if (*o && out[*o - 1] == '\\') out[(*o)++] = ' ';
    memcpy(out + *o, brk, len);
    *o += len;
}

char *hl__splice_lines(const char *text) {
    size_t n = strlen(text);
    char *out = hl__malloc(2 * n + 2); /* a space may precede every line break */
    if (!out)
        return NULL;
    size_t o = 0, pending = 0;
    for (size_t i = 0; i < n;) {
        size_t k = text[i] == '\\' ? line_break_at(text, i + 1) : 0;
        if (k) {
            i += 1 + k;
            pending++;
            continue;
        }
        size_t nl = line_break_at(text, i);
        if (nl) {
            put_break(out, &o, text + i, nl);
            i += nl;
            for (; pending; pending--)
                out[o++] = '\n';
            continue;
        }
        out[o++] = text[i++];
    }
    for (; pending; pending--)
        put_break(out, &o, "\n", 1);
    out[o] = '\0';
    return out;
}

hl_result hl__check_source_size(const char *source) {
    if (strnlen(source, (size_t)HL_SHADER_MAX_SOURCE_BYTES + 1) > HL_SHADER_MAX_SOURCE_BYTES)
        return hl__fail(HL_ERR_SHADER, "shader source: longer than %u bytes (HL_SHADER_MAX_SOURCE_BYTES)",
                        (unsigned)HL_SHADER_MAX_SOURCE_BYTES);
    return HL_OK;
}

bool hl__text_is_es310(const char *text) {
    size_t start, end;
    uint32_t line;
    return text && find_version(text, &start, &end, &line) && version_is(text, start, end, "310");
}

hl_result hl_shader_preprocess(const char *source, const hl_shader_define *defines, uint32_t define_count,
                               char **out) {
    return hl__preprocess(source, defines, define_count, false, out);
}

hl_result hl__preprocess(const char *source, const hl_shader_define *defines, uint32_t define_count, bool es310,
                         char **out) {
    if (!out)
        return hl__fail(HL_ERR_VALIDATION, "hl_shader_preprocess: out is NULL");
    *out = NULL;
    if (!source)
        return hl__fail(HL_ERR_VALIDATION, "hl_shader_preprocess: source is NULL");
    if (define_count && !defines)
        return hl__fail(HL_ERR_VALIDATION, "hl_shader_preprocess: defines is NULL with define_count %u",
                        define_count);
    hl_result r = hl__check_source_size(source);
    if (r)
        return r;
    for (uint32_t i = 0; i < define_count; i++) {
        r = check_define(&defines[i], i);
        if (r)
            return r;
    }
    size_t vstart, vend;
    uint32_t vline;
    if (!find_version(source, &vstart, &vend, &vline))
        return hl__fail(HL_ERR_SHADER, "shader source: the first line must be '#version %s es'", es310 ? "310" : "300");
    if (es310 && !version_is(source, vstart, vend, "310"))
        return hl__fail(HL_ERR_SHADER, "shader source line %u: '#version 310 es' required (a storage shader: GLSL ES "
                        "3.10)", vline);
    if (!es310 && !version_is(source, vstart, vend, "300"))
        return hl__fail(HL_ERR_SHADER, "shader source line %u: '#version 300 es' required (GLSL ES 3.00)", vline);

    hl__sb sb = {0};
    hl__sb_put(&sb, source, vend);
    if (vend == 0 || source[vend - 1] != '\n')
        hl__sb_puts(&sb, "\n");
    if (define_count) {
        for (uint32_t i = 0; i < define_count; i++)
            hl__sb_printf(&sb, "#define %s %s\n", defines[i].name, defines[i].value ? defines[i].value : "1");
        /* GLSL ES 3.00: the line after `#line N` is line N, so messages keep the user's numbers */
        hl__sb_printf(&sb, "#line %u\n", vline + 1);
    }
    hl__sb_puts(&sb, source + vend);
    char *joined = hl__sb_take(&sb);
    if (joined && hl__has_continuation(joined)) {
        *out = hl__splice_lines(joined);
        hl__free(joined);
    } else {
        *out = joined;
    }
    if (!*out)
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "hl_shader_preprocess: out of memory");
    /* the budget covers the injected defines too; this text goes to glslang and the GL driver */
    r = hl__pp_guard(*out, false, NULL, NULL);
    if (r) {
        hl__free(*out);
        *out = NULL;
    }
    return r;
}

void hl_shader_string_free(char *s) { hl__free(s); }
