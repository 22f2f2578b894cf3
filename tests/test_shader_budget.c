/* Source budget of the shader toolchain: macro bombs, deep nesting and oversized sources fail
 * fast with HL_ERR_SHADER and a message naming the limit, the line and the macro, before any
 * compiler runs (bounded time and heap); every engine shader and ordinary preprocessor use
 * still compiles on both backend paths. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "hl_test.h"
#include "hilo3d/material.h"

/* a shader material's sources are refused at creation past the same budget */
_Static_assert(HL_MATERIAL_MAX_SHADER_SOURCE_BYTES == HL_SHADER_MAX_SOURCE_BYTES,
               "material source limit and shader source budget differ");
#include "render_internal.h"
#include "shader_internal.h"

/* ---- heap accounting through the allocator hook ---------------------------------------------- */
static size_t g_live, g_peak;

static void *track_alloc(size_t size, void *user) {
    (void)user;
    size_t *p = malloc(size + 16);
    if (!p) return NULL;
    *p = size;
    g_live += size;
    if (g_live > g_peak) g_peak = g_live;
    return (char *)p + 16;
}
static void track_free(void *ptr, void *user) {
    (void)user;
    if (!ptr) return;
    size_t *p = (size_t *)((char *)ptr - 16);
    g_live -= *p;
    free(p);
}
static void *track_realloc(void *ptr, size_t size, void *user) {
    if (!ptr) return track_alloc(size, user);
    size_t *p = (size_t *)((char *)ptr - 16);
    size_t old = *p;
    size_t *q = realloc(p, size + 16);
    if (!q) return NULL;
    *q = size;
    g_live = g_live - old + size;
    if (g_live > g_peak) g_peak = g_live;
    return (char *)q + 16;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static long max_rss_kb(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

static const char *k_fs = "#version 300 es\n"
                          "precision mediump float;\n"
                          "out vec4 o_color;\n"
                          "void main() { o_color = vec4(1.0); }\n";

static hl_result compile(const char *vs, const char *fs, const hl_shader_define *defs, uint32_t ndefs,
                         hl_rhi_backend be, hl_shader_program *out) {
    hl_shader_program_desc d = {0};
    d.vertex_source = vs;
    d.fragment_source = fs;
    d.defines = defs;
    d.define_count = ndefs;
    d.label = "budget";
    return hl_shader_program_compile(&d, be, out);
}

/* A source that must be refused: HL_ERR_SHADER within 1 s and 64 MiB of heap, the message
 * naming `limit`, `macro` (or NULL) and `line` (0: not checked). */
static void expect_refused(const char *what, const char *vs, const char *fs, hl_rhi_backend be, const char *limit,
                           const char *macro, unsigned line) {
    hl_allocator a = {track_alloc, track_realloc, track_free, NULL};
    g_live = g_peak = 0;
    long rss0 = max_rss_kb();
    hl_set_allocator(&a);
    hl_shader_program p;
    double t0 = now();
    hl_result r = compile(vs, fs, NULL, 0, be, &p);
    double dt = now() - t0;
    hl_set_allocator(NULL);
    long rss1 = max_rss_kb();
    const char *msg = hl_last_error();
    HL_CHECK_MSG(r == HL_ERR_SHADER, "%s: %s (%s)", what, hl_result_name(r), msg);
    /* limit: "A" or "A|B" (either may trip first) */
    char want[128];
    snprintf(want, sizeof want, "%s", limit);
    char *alt = strchr(want, '|');
    if (alt) *alt++ = '\0';
    HL_CHECK_MSG(strstr(msg, want) != NULL || (alt && strstr(msg, alt) != NULL), "%s: message names %s: %s", what,
                 limit, msg);
    if (macro) {
        char q[80];
        snprintf(q, sizeof q, "'%s'", macro);
        HL_CHECK_MSG(strstr(msg, q) != NULL, "%s: message names macro %s: %s", what, q, msg);
    }
    if (line) {
        char l[40];
        snprintf(l, sizeof l, "line %u:", line);
        HL_CHECK_MSG(strstr(msg, l) != NULL, "%s: message names %s: %s", what, l, msg);
    }
    HL_CHECK_MSG(dt < 1.0, "%s: refused in %.3f s (< 1 s)", what, dt);
    if (getenv("HL_TEST_VERBOSE")) printf("%-40s %.4f s, peak heap %zu KiB: %s\n", what, dt, g_peak >> 10, msg);
    HL_CHECK_MSG(g_peak < (64u << 20), "%s: peak heap %zu bytes (< 64 MiB)", what, g_peak);
    HL_CHECK_MSG(g_live == 0, "%s: %zu bytes left allocated", what, g_live);
    HL_CHECK_MSG(rss1 - rss0 < 256 * 1024, "%s: max RSS grew by %ld KiB", what, rss1 - rss0);
    HL_CHECK(r != HL_OK || (hl_shader_program_free(&p), 0));
}

/* builds text into a growing heap string */
typedef struct text {
    char *s;
    size_t n, cap;
} text;

static void put(text *t, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (t->n + (size_t)n + 1 > t->cap) {
        t->cap = (t->n + (size_t)n + 1) * 2;
        t->s = realloc(t->s, t->cap);
    }
    vsnprintf(t->s + t->n, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    t->n += (size_t)n;
}

static const char *k_use = "in vec3 a_position;\nvoid main() { gl_Position = vec4(a_position, USE); }\n";

static void test_bombs(hl_rhi_backend be) {
    text t = {0};
    /* object-like: 12 levels of 4 copies = 4^12 tokens */
    put(&t, "#version 300 es\n#define L0 1.0,\n");
    for (int i = 1; i <= 12; i++) put(&t, "#define L%d L%d L%d L%d L%d\n", i, i - 1, i - 1, i - 1, i - 1);
    put(&t, "#define USE L12 1.0\n%s", k_use);
    expect_refused("object-like bomb", t.s, k_fs, be, "HL_SHADER_MAX_EXPANSION_TOKENS", "USE", 17);
    t.n = 0;
    /* the repro's shape: X24 = (X23+X23) */
    put(&t, "#version 300 es\n#define X0 1.0\n");
    for (int i = 1; i <= 24; i++) put(&t, "#define X%d (X%d+X%d)\n", i, i - 1, i - 1);
    put(&t, "in vec3 a_position;\nvoid main() { gl_Position = vec4(a_position, X24); }\n");
    expect_refused("binary bomb", t.s, k_fs, be, "HL_SHADER_MAX_EXPANSION_TOKENS|HL_SHADER_MAX_EXPRESSION_OPERATORS", "X24", 28);
    t.n = 0;
    /* self-doubling function-like macro nested in its own argument */
    put(&t, "#version 300 es\n#define D(x) x+x\n#define USE ");
    for (int i = 0; i < 40; i++) put(&t, "D(");
    put(&t, "1.0");
    for (int i = 0; i < 40; i++) put(&t, ")");
    put(&t, "\n%s", k_use);
    expect_refused("self-doubling D(D(D(...)))", t.s, k_fs, be, "HL_SHADER_MAX_EXPANSION_TOKENS", "USE", 0);
    t.n = 0;
    /* a parameter written right after a number: GLSL reads `1x` as 1 then x (found by
     * fuzz_glsl_budget: a C pp-number hid the parameter from the check) */
    put(&t, "#version 300 es\n#define D(x) 1x,1x\n#define USE ");
    for (int i = 0; i < 30; i++) put(&t, "D(");
    put(&t, "1.0");
    for (int i = 0; i < 30; i++) put(&t, ")");
    put(&t, "\n%s", k_use);
    expect_refused("parameter after a number", t.s, k_fs, be, "HL_SHADER_MAX_EXPANSION_TOKENS", "USE", 0);
    t.n = 0;
    /* a chain of function-like macros, each calling the previous twice */
    put(&t, "#version 300 es\n#define F0(x) x+x\n");
    for (int i = 1; i <= 30; i++) put(&t, "#define F%d(x) F%d(F%d(x))\n", i, i - 1, i - 1);
    put(&t, "#define USE F30(1.0)\n%s", k_use);
    expect_refused("function-like chain", t.s, k_fs, be, "HL_SHADER_MAX_EXPANSION_TOKENS", "USE", 0);
    t.n = 0;
    /* arguments are pre-expanded even when the macro drops them */
    put(&t, "#version 300 es\n#define DROP(x) 1.0\n#define L0 a b c d\n");
    for (int i = 1; i <= 12; i++) put(&t, "#define L%d L%d L%d L%d L%d\n", i, i - 1, i - 1, i - 1, i - 1);
    put(&t, "#define USE DROP(L12)\n%s", k_use);
    expect_refused("dropped argument", t.s, k_fs, be, "HL_SHADER_MAX_EXPANSION_TOKENS", "USE", 0);
    t.n = 0;
    /* F(F(F(...))): quadratic in glslang (5000 deep took 5 s and 5 GB; deeper ones are also
     * stopped by the expansion budget, which counts the re-reading of each argument) */
    put(&t, "#version 300 es\n#define F(x) x\n#define USE ");
    for (int i = 0; i < 100; i++) put(&t, "F(");
    put(&t, "1.0");
    for (int i = 0; i < 100; i++) put(&t, ")");
    put(&t, "\n%s", k_use);
    expect_refused("nested calls", t.s, k_fs, be, "HL_SHADER_MAX_MACRO_DEPTH", "F", 0);
    t.n = 0;
    /* an argument whose pre-expansion fails (an unterminated call inside) is substituted as
     * written and expanded again at each use: 16 levels kept glslang busy 62 s and took 18 GB
     * (found by fuzz_glsl_compile); the unbalanced replacement list is refused first */
    put(&t, "#version 300 es\n#define G(x) x\n#define F0(x) G(x\n");
    for (int i = 1; i <= 16; i++) put(&t, "#define F%d(x) F%d(F%d(x))\n", i, i - 1, i - 1);
    put(&t, "#define USE F16(1.0)\n%s", k_use);
    expect_refused("failed argument pre-expansion", t.s, k_fs, be, "unbalanced parentheses", "F0", 3);
    t.n = 0;
    /* a replacement list with unbalanced parentheses, which glslang expands again and again
     * (11 levels of this took it 21 s and 16 GB; found by fuzz_glsl_compile) */
    put(&t, "#version 300 es\n#define F2(x) F1(F1(x\n#define F3(x) F2(F2(x))\n#define F9(x) F9(F3(x))\n"
            "#define USE F9(F9(1.0)))))\n%s", k_use);
    expect_refused("unbalanced replacement list", t.s, k_fs, be, "unbalanced parentheses", "F2", 2);
    t.n = 0;
    /* a call with more arguments than parameters: glslang's recovery aborted the process
     * (uncaught std::length_error; found by fuzz_glsl_compile) */
    put(&t, "#version 300 es\n#define P(a)a\nP(P(,{))\n#define USE 1.0\n%s", k_use);
    expect_refused("too many macro arguments", t.s, k_fs, be, "takes 1 argument, called with 2", "P", 3);
    t.n = 0;
    put(&t, "#version 300 es\n#define F(x, y) x\n#define USE F(1.0)\n%s", k_use);
    expect_refused("too few macro arguments", t.s, k_fs, be, "takes 2 arguments, called with 1", "F", 5);
    t.n = 0;
    /* '#' (GLSL has no # operator) in a replacement list: glslang reports it, and its recovery
     * inside an argument's pre-expansion re-expanded without bound (over 8 GB for 8 doubling
     * levels whose calls the check counted as 256 tokens; found by fuzz_glsl_compile): refused
     * at the #define */
    put(&t, "#version 300 es\n#define G(x) x\n#define F0(x) G(x # 1)\n");
    for (int i = 1; i <= 16; i++) put(&t, "#define F%d(x) F%d(F%d(x))\n", i, i - 1, i - 1);
    put(&t, "#define USE F16(1.0)\n%s", k_use);
    expect_refused("'#' in a replacement list", t.s, k_fs, be, "'#' in the replacement list", "F0", 3);
    t.n = 0;
    put(&t, "#version 300 es\n#define F0(x) x+x\n#define F1(x) F0(F0(x))\n#define F2(x) F1(F1(x))\n"
            "#define F3(x) F2(F2(x))\n#define F4(x) F3(F3;(x))\n#define F5(x) F4(F4(x))\n#define F6(x) F5(F5(x))\n"
            "#define F7(x) F6(F6(x))\n#define F8(x) F7(F7(x)#)\ndefine F9(x) F7(F8(x))\n%s", k_use);
    expect_refused("'#' after a call in a replacement list", t.s, k_fs, be, "'#' in the replacement list", "F8", 10);
    t.n = 0;
    /* and in the arguments of a call written in the source */
    put(&t, "#version 300 es\n#define G(x) x x\n#define USE 1.0\nconst float k = G(1.0 # 2.0);\n%s", k_use);
    expect_refused("'#' in an argument", t.s, k_fs, be, "'#' in the arguments of a call to 'G'", NULL, 4);
    t.n = 0;
    /* a bomb evaluated by #if */
    put(&t, "#version 300 es\n#define X0 1\n");
    for (int i = 1; i <= 24; i++) put(&t, "#define X%d (X%d+X%d)\n", i, i - 1, i - 1);
    put(&t, "#if X24 > 0\n#endif\n%s", "in vec3 a_position;\nvoid main() { gl_Position = vec4(a_position, 1.0); }\n");
    expect_refused("bomb in #if", t.s, k_fs, be, "HL_SHADER_MAX_EXPANSION_TOKENS", "X24", 27);
    t.n = 0;
    /* the bomb's name made by ## and by a line splice */
    put(&t, "#version 300 es\n#define X0 1.0\n");
    for (int i = 1; i <= 24; i++) put(&t, "#define X%d (X%d+X%d)\n", i, i - 1, i - 1);
    put(&t, "#define CAT(a, b) a ## b\n#define USE CAT(X2, 4)\n%s", k_use);
    expect_refused("bomb named by ##", t.s, k_fs, be, "HL_SHADER_MAX_EXPANSION_TOKENS|HL_SHADER_MAX_EXPRESSION_OPERATORS", "USE", 0);
    t.n = 0;
    put(&t, "#version 300 es\n#define X0 1.0\n");
    for (int i = 1; i <= 24; i++) put(&t, "#define X%d (X%d+X%d)\n", i, i - 1, i - 1);
    put(&t, "in vec3 a_position;\nvoid main() { gl_Position = vec4(a_position, X2\\\n4); }\n");
    expect_refused("bomb named across a line splice", t.s, k_fs, be, "HL_SHADER_MAX_EXPANSION_TOKENS|HL_SHADER_MAX_EXPRESSION_OPERATORS", "X24", 0);
    t.n = 0;
    /* a lone carriage return ends a line for the compilers: the text after it on a #define
     * line is compiled, not part of the definition (found by fuzz_glsl_budget) */
    put(&t, "#version 300 es\n#define L0 1.0,\n");
    for (int i = 1; i <= 12; i++) put(&t, "#define L%d L%d L%d L%d L%d\n", i, i - 1, i - 1, i - 1, i - 1);
    put(&t, "#define UNUSED 1.0\rfloat f[] = float[](L12 1.0);\n#define USE 1.0\n%s", k_use);
    expect_refused("bomb after a carriage return", t.s, k_fs, be, "HL_SHADER_MAX_EXPANSION_TOKENS", "L12", 16);
    t.n = 0;
    /* a bomb only GLSL 4.50 sees (no GL_ES there): caught on the Vulkan rewrite */
    put(&t, "#version 300 es\n#define X0 1.0\n");
    for (int i = 1; i <= 24; i++) put(&t, "#define X%d (X%d+X%d)\n", i, i - 1, i - 1);
    put(&t, "#ifdef GL_ES\n#define USE 1.0\n#else\n#define USE X24\n#endif\n%s", k_use);
    expect_refused("bomb in the Vulkan branch", t.s, k_fs, be, "HL_SHADER_MAX_EXPANSION_TOKENS|HL_SHADER_MAX_EXPRESSION_OPERATORS", "USE", 0);
    HL_CHECK(strstr(hl_last_error(), "Vulkan GLSL rewrite") != NULL);
    t.n = 0;
    /* long tokens: few expansion tokens, a lot of text */
    put(&t, "#version 300 es\n#define L0 a");
    for (int i = 0; i < 1000; i++) put(&t, "b");
    put(&t, "\n#define L1 L0 L0 L0 L0 L0 L0 L0 L0 L0 L0 L0 L0 L0 L0 L0 L0\n");
    put(&t, "#define L2 L1 L1 L1 L1 L1 L1 L1 L1 L1 L1 L1 L1 L1 L1 L1 L1\n");
    put(&t, "#define L3 L2 L2 L2 L2 L2 L2 L2 L2 L2 L2 L2 L2 L2 L2 L2 L2\n");
    put(&t, "#define USE L3 L3\n%s", k_use);
    expect_refused("long tokens", t.s, k_fs, be, "HL_SHADER_MAX_EXPANDED_BYTES", "USE", 0);
    t.n = 0;
    /* #if ((((...)))) 50000 deep overflows glslang's stack (SIGSEGV in glslangValidator -E) */
    put(&t, "#version 300 es\n#if ");
    for (int i = 0; i < 50000; i++) put(&t, "(");
    put(&t, "1");
    for (int i = 0; i < 50000; i++) put(&t, ")");
    put(&t, "\n#endif\n%s", "in vec3 a_position;\nvoid main() { gl_Position = vec4(a_position, 1.0); }\n");
    expect_refused("#if parentheses", t.s, k_fs, be, "HL_SHADER_MAX_EXPR_DEPTH", NULL, 2);
    t.n = 0;
    put(&t, "#version 300 es\n#if ");
    for (int i = 0; i < 100; i++) put(&t, "- ");
    put(&t, "1\n#endif\n%s", "in vec3 a_position;\nvoid main() { gl_Position = vec4(a_position, 1.0); }\n");
    expect_refused("#if unary chain", t.s, k_fs, be, "HL_SHADER_MAX_EXPR_DEPTH", NULL, 2);
    t.n = 0;
    put(&t, "#version 300 es\n");
    for (int i = 0; i < 100; i++) put(&t, "#if 1\n");
    for (int i = 0; i < 100; i++) put(&t, "#endif\n");
    put(&t, "in vec3 a_position;\nvoid main() { gl_Position = vec4(a_position, 1.0); }\n");
    expect_refused("#if nesting", t.s, k_fs, be, "HL_SHADER_MAX_IF_DEPTH", NULL, 66);
    t.n = 0;
    put(&t, "#version 300 es\n");
    for (int i = 0; i < 2000; i++) put(&t, "#define M%d %d\n", i, i);
    put(&t, "in vec3 a_position;\nvoid main() { gl_Position = vec4(a_position, 1.0); }\n");
    expect_refused("#define count", t.s, k_fs, be, "HL_SHADER_MAX_DEFINES", "M1024", 1026);
    /* the fragment stage is checked too, and named */
    expect_refused("fragment bomb", "#version 300 es\nvoid main() { gl_Position = vec4(1.0); }\n", t.s, be,
                   "HL_SHADER_MAX_DEFINES", NULL, 0);
    HL_CHECK(strstr(hl_last_error(), "fragment") != NULL);
    t.n = 0;
    /* what glslang itself cannot take: `a+a+...` 20000 terms overflowed its stack (SIGSEGV in
     * a recursive traversal), 3000 functions calling each other took SPIR-V validation 19 s */
    put(&t, "#version 300 es\nin vec3 a_position;\nvoid main() { float a = a_position.x;\n  gl_Position = vec4(");
    for (int i = 0; i < 20000; i++) put(&t, "a+");
    put(&t, "a); }\n");
    expect_refused("20000-operator expression", t.s, k_fs, be, "HL_SHADER_MAX_EXPRESSION_OPERATORS", NULL, 4);
    t.n = 0;
    put(&t, "#version 300 es\n#define SUM(x) x+x+x+x+x+x+x+x\n#define USE SUM(SUM(SUM(a_position.x)))\n%s", k_use);
    expect_refused("operators from a macro", t.s, k_fs, be, "HL_SHADER_MAX_EXPRESSION_OPERATORS", "USE", 5);
    t.n = 0;
    put(&t, "#version 300 es\nin vec3 a_position;\nvoid main() { gl_Position = vec4(a_position, ");
    for (int i = 0; i < 300; i++) put(&t, "(");
    put(&t, "1.0");
    for (int i = 0; i < 300; i++) put(&t, ")");
    put(&t, "); }\n");
    expect_refused("nested parentheses", t.s, k_fs, be, "HL_SHADER_MAX_NESTING", NULL, 3);
    t.n = 0;
    put(&t, "#version 300 es\nfloat f0(float x) { return x; }\n");
    for (int i = 1; i < 300; i++) put(&t, "float f%d(float x) { return f%d(x) + 1.0; }\n", i, i - 1);
    put(&t, "in vec3 a_position;\nvoid main() { gl_Position = vec4(a_position, f299(1.0)); }\n");
    expect_refused("function count", t.s, k_fs, be, "HL_SHADER_MAX_FUNCTIONS", NULL, 258);
    t.n = 0;
    /* a definition under a condition on a macro only some compilers define */
    put(&t, "#version 300 es\n#ifdef GL_EXT_some_extension\n#define USE 2.0\n#else\n#define USE 1.0\n#endif\n%s", k_use);
    expect_refused("define under an extension macro", t.s, k_fs, be, "GL_EXT_some_extension", "USE", 3);
    free(t.s);
}

/* Uniform block sizes are exact: glslang and SPIRV-Cross wrap at 4 GiB, which made
 * `vec4 a[300000000]` a 505032720-byte block and `mat4 m[268435456]` a 0-byte member. */
static void test_block_size(hl_rhi_backend be) {
    const char *huge[] = {
        "#version 300 es\nlayout(std140) uniform B { vec4 a[300000000]; vec4 b; };\n"
        "void main() { gl_Position = a[7] + b; }\n",
        "#version 300 es\nlayout(std140) uniform B { vec4 x; mat4 m[268435456]; };\n"
        "void main() { gl_Position = m[1][0] + x; }\n",
        "#version 300 es\nlayout(std140) uniform B { vec4 a[4097]; };\nvoid main() { gl_Position = a[1]; }\n",
    };
    hl_shader_program p;
    for (int i = 0; i < 3; i++) {
        HL_CHECK_RESULT(compile(huge[i], k_fs, NULL, 0, be, &p), HL_ERR_SHADER);
        HL_CHECK_MSG(strstr(hl_last_error(), "HL_SHADER_MAX_UNIFORM_BLOCK_BYTES") != NULL, "%s", hl_last_error());
    }
    HL_CHECK_OK(compile("#version 300 es\nlayout(std140) uniform B { vec4 a[4096]; };\n"
                        "void main() { gl_Position = a[1]; }\n",
                        k_fs, NULL, 0, be, &p));
    const hl_shader_block *b = hl_shader_program_find_block(&p, "B");
    HL_CHECK(b && b->size == HL_SHADER_MAX_UNIFORM_BLOCK_BYTES && b->members[0].array_size == 4096);
    hl_shader_program_free(&p);
}

/* The public single-stage entry points apply the same budget. */
static void test_entry_points(void) {
    text t = {0};
    put(&t, "#version 300 es\n#define X0 1.0\n");
    for (int i = 1; i <= 24; i++) put(&t, "#define X%d (X%d+X%d)\n", i, i - 1, i - 1);
    put(&t, "precision mediump float;\nout vec4 o;\nvoid main() { o = vec4(X24); }\n");
    char *out = (char *)1;
    double t0 = now();
    HL_CHECK_RESULT(hl_shader_preprocess(t.s, NULL, 0, &out), HL_ERR_SHADER);
    HL_CHECK(out == NULL);
    HL_CHECK(strstr(hl_last_error(), "budget exceeded") && strstr(hl_last_error(), "line 29:"));
    HL_CHECK_RESULT(hl_shader_rewrite_vulkan(t.s, HL_RHI_SHADER_FRAGMENT, NULL, 0, &out), HL_ERR_SHADER);
    HL_CHECK(out == NULL);
    HL_CHECK_MSG(now() - t0 < 1.0, "entry points refused in %.3f s", now() - t0);
    /* an injected define counts: a source that only uses BOMB, the bomb passed as a define */
    hl_shader_define d[25];
    char names[25][8], values[25][24];
    for (int i = 0; i < 25; i++) {
        snprintf(names[i], sizeof names[i], "Y%d", i);
        if (i == 0) snprintf(values[i], sizeof values[i], "1.0");
        else snprintf(values[i], sizeof values[i], "(Y%d+Y%d)", i - 1, i - 1);
        d[i] = (hl_shader_define){names[i], values[i]};
    }
    HL_CHECK_RESULT(hl_shader_preprocess("#version 300 es\nfloat f() { return Y24; }\n", d, 25, &out),
                    HL_ERR_SHADER);
    HL_CHECK(strstr(hl_last_error(), "'Y24'") != NULL);
    /* a define longer than its limit is a validation error */
    char *big = malloc(HL_SHADER_MAX_DEFINE_BYTES + 2);
    memset(big, '1', HL_SHADER_MAX_DEFINE_BYTES + 1);
    big[HL_SHADER_MAX_DEFINE_BYTES + 1] = '\0';
    hl_shader_define bd = {"BIG", big};
    HL_CHECK_RESULT(hl_shader_preprocess("#version 300 es\n", &bd, 1, &out), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "HL_SHADER_MAX_DEFINE_BYTES") != NULL);
    big[HL_SHADER_MAX_DEFINE_BYTES - 3] = '\0';
    HL_CHECK_OK(hl_shader_preprocess("#version 300 es\n", &bd, 1, &out));
    hl_shader_string_free(out);
    free(big);
    free(t.s);
}

/* Sources at the size limit compile; one byte more is refused before anything reads it all. */
static void test_size_limit(hl_rhi_backend be) {
    const char *head = "#version 300 es\n/*";
    const char *tail = "*/\nin vec3 a_position;\nvoid main() { gl_Position = vec4(a_position, 1.0); }\n";
    size_t n = HL_SHADER_MAX_SOURCE_BYTES;
    char *src = malloc(n + 2);
    size_t h = strlen(head), tl = strlen(tail);
    memcpy(src, head, h);
    memset(src + h, 'x', n - h - tl);
    memcpy(src + n - tl, tail, tl + 1);
    HL_CHECK_EQ(strlen(src), n);
    hl_shader_program p;
    HL_CHECK_OK(compile(src, k_fs, NULL, 0, be, &p));
    HL_CHECK(p.reflection.input_count == 1);
    hl_shader_program_free(&p);
    memmove(src + 1, src, n + 1); /* one byte more: a leading newline */
    src[0] = '\n';
    HL_CHECK_EQ(strlen(src), n + 1);
    HL_CHECK_RESULT(compile(src, k_fs, NULL, 0, be, &p), HL_ERR_SHADER);
    HL_CHECK(strstr(hl_last_error(), "HL_SHADER_MAX_SOURCE_BYTES") && strstr(hl_last_error(), "vertex"));
    HL_CHECK_RESULT(compile(k_fs, src, NULL, 0, be, &p), HL_ERR_SHADER);
    HL_CHECK(strstr(hl_last_error(), "HL_SHADER_MAX_SOURCE_BYTES") && strstr(hl_last_error(), "fragment"));
    free(src);
}

/* Ordinary preprocessor use passes the check unchanged on both targets. */
static void test_legitimate(hl_rhi_backend be) {
    const char *vs = "#version 300 es\n"
                     "#define SCALE(x) ((x) * 0.5)\n"
                     "#define ADD3(a, b, c) (a + b + c)\n"
                     "#define LONG_LIST 1.0, \\\n    1.0\n"
                     "#if defined(GL_ES) && (__VERSION__ >= 300) || defined(VULKAN)\n"
                     "#define OK 1\n"
                     "#endif\n"
                     "#ifdef GL_FRAGMENT_PRECISION_HIGH\n"
                     "#define PREC highp\n"
                     "#else\n"
                     "#define PREC mediump\n"
                     "#endif\n"
                     "#if (1 << 3) == 8 && -1 < 0 && !0 && ~0 == -1 && 7 / 2 == 3 && 0x10 == 16 && 010 == 8\n"
                     "#define ARITH 1\n"
                     "#endif\n"
                     "#ifdef GL_OES_standard_derivatives\n" /* a condition on an extension macro, no define */
                     "float ext_probe;\n"
                     "#endif\n"
                     "in vec3 a_position;\n"
                     "void main() {\n"
                     "    PREC float half_ = 0.5;\n"
                     "    vec2 v2 = vec2(LONG_LIST);\n"
                     "    gl_Position = vec4(SCALE(a_position) * half_, ADD3(v2.x, v2.y, float(OK + ARITH)) + float(__LINE__ - __LINE__));\n"
                     "}\n";
    hl_shader_program p;
    HL_CHECK_OK(compile(vs, k_fs, NULL, 0, be, &p));
    hl_shader_program_free(&p);
    hl__pp_stats st;
    HL_CHECK_OK(hl__pp_guard(vs, false, NULL, &st));
    HL_CHECK_EQ(st.defines, 6);
    HL_CHECK_EQ(st.max_if_depth, 1);
    HL_CHECK(st.expansion_tokens > 0 && st.expansion_tokens < 200);
    HL_CHECK_OK(hl__pp_guard(vs, true, NULL, &st));
    /* include guards with "__" inside are ordinary names */
    HL_CHECK_OK(hl__pp_guard("#ifndef MY__SHADER_H\n#define MY__SHADER_H 1\n#endif\n", false, NULL, NULL));
    /* a #define under an extension macro's condition, inside an inactive region, is fine */
    HL_CHECK_OK(hl__pp_guard("#if 0\n#ifdef GL_EXT_x\n#define A 1\n#endif\n#endif\n", false, NULL, NULL));
    /* self-reference ends (the macro is busy while its replacement is read) */
    HL_CHECK_OK(hl__pp_guard("#define A B\n#define B A\n#define C C C\nA B C\n", false, NULL, &st));
    HL_CHECK(st.expansion_tokens < 16);
    /* a function-like macro's name without arguments is not a call */
    HL_CHECK_OK(hl__pp_guard("#define F(x) x x\nF + F\n#define G F\nG(1) G\n", false, NULL, &st));
    HL_CHECK(st.output_bytes == 2 * 2 + 2 + 2 * 2 + 2);
    /* malformed directives are the compiler's to report, except where the check cannot go on */
    HL_CHECK_OK(hl__pp_guard("#define\n#define 1\n#define F(\n#define A+1\n#undef\n#line x\n#pragma\n#\n", false, NULL, NULL));
    HL_CHECK_RESULT(hl__pp_guard("#endif\n", false, NULL, NULL), HL_ERR_SHADER);
    HL_CHECK_RESULT(hl__pp_guard("#if 1\n#else\n#else\n#endif\n", false, NULL, NULL), HL_ERR_SHADER);
    HL_CHECK_RESULT(hl__pp_guard("#if 1 / 0\n#endif\n", false, NULL, NULL), HL_ERR_SHADER);
    HL_CHECK(strstr(hl_last_error(), "division by zero") != NULL);
    HL_CHECK_RESULT(hl__pp_guard("#if (1\n#endif\n", false, NULL, NULL), HL_ERR_SHADER);
    /* arithmetic that differs between 32 and 64 bits is unknown: a define under it is refused */
    HL_CHECK_OK(hl__pp_guard("#if 2147483647 + 1 > 0\nint a;\n#endif\n", false, NULL, NULL));
    HL_CHECK_RESULT(hl__pp_guard("#if 2147483647 + 1 > 0\n#define X\n#endif\n", false, NULL, NULL), HL_ERR_SHADER);
    HL_CHECK_RESULT(hl__pp_guard("#if 1 << 40\n#define X\n#endif\n", false, NULL, NULL), HL_ERR_SHADER);
    /* line numbers follow #line (the line after `#line N` is N) */
    HL_CHECK_RESULT(hl__pp_guard("#line 100\n#endif\n", false, NULL, NULL), HL_ERR_SHADER);
    HL_CHECK(strstr(hl_last_error(), "line 100:") != NULL);
    HL_CHECK_RESULT(hl__pp_guard("#define BASE 50\n#line BASE * 2 3\n#endif\n", false, NULL, NULL), HL_ERR_SHADER);
    HL_CHECK(strstr(hl_last_error(), "line 100:") != NULL);
    /* line numbers past HL_SHADER_MAX_LINE_NUMBER are refused: glslang counts them in an int and
     * wrapped past 2^31 - 1 (its output lost its line breaks; found by fuzz_glsl_budget) */
    const char *bad_lines[] = {"#line 2147483647\nint a;\nint b;\n", "#define N 2000000000\n#line N\n",
                               "#line 1073741825\n", "#line 1073741824 + 1\n", "#line -1\n",
                               "#line\n", "#line 10 20 30\n", "#line 4294967396\n"};
    for (size_t i = 0; i < sizeof bad_lines / sizeof bad_lines[0]; i++) {
        HL_CHECK_RESULT(hl__pp_guard(bad_lines[i], false, NULL, NULL), HL_ERR_SHADER);
        HL_CHECK_MSG(strstr(hl_last_error(), "#line") != NULL, "%s", hl_last_error());
    }
    HL_CHECK(strstr(hl_last_error(), "HL_SHADER_MAX_LINE_NUMBER") != NULL);
    HL_CHECK_OK(hl__pp_guard("#line 1073741824\nint a;\n#if 0\n#line 2147483647\n#endif\n", false, NULL, NULL));
    /* #error stops the compilers, and the check */
    HL_CHECK_OK(hl__pp_guard("#error stop\n#endif\n", false, NULL, NULL));
    /* a 'u' after a float is not its suffix: glslang reads `0.0USE` as 0.0 then the macro USE,
     * so the expansion counts (found by fuzz_glsl_budget: 58 characters counted, 288,836 made) */
    HL_CHECK_OK(hl__pp_guard("#define USE a a a a a a a a\nx 0.0USE 1e2USE 7u 0x1Fu\n", false, NULL, &st));
    HL_CHECK_EQ(st.output_tokens, 1 + 1 + 8 + 1 + 8 + 2);
    /* while a region is skipped, glslang takes `##endif` and `# # endif` as #endif (found by
     * fuzz_glsl_budget: the text after it was compiled but not counted) */
    HL_CHECK_OK(hl__pp_guard("#ifdef X\n##endif\nint a;\n", false, NULL, &st));
    HL_CHECK_EQ(st.output_tokens, 3);
    HL_CHECK_OK(hl__pp_guard("#if 0\n# # endif\nint a;\n", false, NULL, &st));
    HL_CHECK_EQ(st.output_tokens, 3);
    HL_CHECK_OK(hl__pp_guard("#if 0\n#ifdef Y\n## endif\nint a;\n#endif\nint b;\n", false, NULL, &st));
    HL_CHECK_EQ(st.output_tokens, 3);
    HL_CHECK_OK(hl__pp_guard("#if 0\n# 5 #endif\nint a;\n#endif\nint b;\n", false, NULL, &st));
    HL_CHECK_EQ(st.output_tokens, 3);
    /* glslang crashes pasting an operator with an empty argument (found by fuzz_glsl_budget):
       refused; with an argument, or an identifier on the left, it is the compiler's to judge */
    const char *paste_empty[] = {"#define C(a, b) a +##b\nC(x,)\n", "#define C(a, b) !## b\nint y = 1 C(x, );\n",
                                 "#define CAT(a, b) a!## b\nCAT(CAT(a,b),)\n"};
    for (size_t i = 0; i < sizeof paste_empty / sizeof paste_empty[0]; i++) {
        HL_CHECK_RESULT(hl__pp_guard(paste_empty[i], false, NULL, NULL), HL_ERR_SHADER);
        HL_CHECK_MSG(strstr(hl_last_error(), "empty argument") != NULL, "%s", hl_last_error());
    }
    HL_CHECK_OK(hl__pp_guard("#define C(a, b) a +##b\nC(x, =)\n", false, NULL, NULL));
    /* glslang threw std::length_error pasting a character that is no token (found by
       fuzz_glsl_compile): refused, on either side */
    const char *paste_other[] = {"#define P(a) `##a\nint x = P(P(y));\n", "#define P(a) a##@\nint x = P(y);\n"};
    for (size_t i = 0; i < sizeof paste_other / sizeof paste_other[0]; i++) {
        HL_CHECK_RESULT(hl__pp_guard(paste_other[i], false, NULL, NULL), HL_ERR_SHADER);
        HL_CHECK_MSG(strstr(hl_last_error(), "not a GLSL token") != NULL, "%s", hl_last_error());
    }
    HL_CHECK_OK(hl__pp_guard("#define C(a, b) a##b\nC(x,)\n", false, NULL, NULL));
}

static void test_splice(void) {
    const struct {
        const char *in, *out;
    } cases[] = {{"a\\\nb\nc", "ab\n\nc"},     {"a\\\r\nb\\\rc\nd", "abc\n\n\nd"}, {"x\\", "x\\"},
                 {"x\\\n", "x\n"},            {"\\\n\\\n\\\n", "\n\n\n"},      {"a\\ \nb", "a\\ \nb"},
                 {"a\r\nb\\\n", "a\r\nb\n"}, {"", ""},
                 /* no new continuation out of a backslash left before one (found by fuzz_glsl_compile) */
                 {"USE\\\\\\\n", "USE\\\\ \n"}, {"a\\\\\n\nb", "a\\ \n\nb"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *o = hl__splice_lines(cases[i].in);
        HL_CHECK_MSG(o && strcmp(o, cases[i].out) == 0, "splice case %zu: got '%s'", i, o ? o : "(null)");
        hl__free(o);
    }
}

/* glslang crashes (NULL dereference in TParseContext::declareBlock) on a block named after a
 * function; such sources are refused with HL_ERR_SHADER before it parses them (found by
 * fuzz_glsl_compile). */
static void test_block_names(hl_rhi_backend be) {
    const char *bad[] = {
        "#version 300 es\nlayout(std140) uniform abs { vec4 v; };\nvoid main() { gl_Position = v; }\n",
        "#version 300 es\nuniform texture { vec4 v; } inst;\nvoid main() { gl_Position = inst.v; }\n",
        "#version 300 es\nfloat foo(float x) { return x; }\nuniform foo { vec4 v; };\nvoid main() { gl_Position = v; }\n",
        "#version 300 es\n#define NAME sin\nuniform NAME { vec4 v; };\nvoid main() { gl_Position = v; }\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        hl_shader_program p;
        HL_CHECK_RESULT(compile(bad[i], k_fs, NULL, 0, be, &p), HL_ERR_SHADER);
        HL_CHECK_MSG(strstr(hl_last_error(), "block name") != NULL, "%s", hl_last_error());
    }
    const char *fs_in = "#version 300 es\nprecision mediump float;\nin abs { vec4 v; };\nout vec4 o;\n"
                        "void main() { o = v; }\n";
    hl_shader_program p;
    HL_CHECK_RESULT(compile("#version 300 es\nvoid main() { gl_Position = vec4(0.0); }\n", fs_in, NULL, 0, be, &p),
                    HL_ERR_SHADER);
    /* glslang aborts the process (std::length_error) on a macro's name followed by a line
     * continuation; the engine splices lines first (found by fuzz_glsl_compile) */
    HL_CHECK_OK(compile("#version 300 es\n#define U 1.0\nvoid main() { gl_Position = vec4(U\\\n); }\n", k_fs, NULL,
                        0, be, &p));
    hl_shader_program_free(&p);
    HL_CHECK_OK(compile("#version 300 es\n#define U 1.0\nvoid main() { gl_Position = vec4(U\\\r\n); }\n"
                        "#define V U\\\n\n",
                        k_fs, NULL, 0, be, &p));
    hl_shader_program_free(&p);
    /* later lines keep their numbers */
    HL_CHECK_RESULT(compile("#version 300 es\nfloat a = 1.0 + \\\n 2.0;\nvoid main() { gl_Position = vec4(b); }\n", k_fs,
                            NULL, 0, be, &p),
                    HL_ERR_SHADER);
    HL_CHECK_MSG(strstr(hl_last_error(), "0:4:") != NULL, "%s", hl_last_error());
    /* members and instances may be named like functions; block names like other things are fine */
    HL_CHECK_OK(compile("#version 300 es\nuniform Sin { vec4 abs; } sin_;\nvoid main() { gl_Position = sin_.abs; }\n",
                        k_fs, NULL, 0, be, &p));
    hl_shader_program_free(&p);
}

/* The forward and shadow uber-shaders in every variant shape the renderer builds. */
static void test_engine_shaders(hl_rhi_backend be) {
    static const char *const flags[] = {"HAS_NORMAL",        "HAS_TANGENT",     "HAS_UV0",      "HAS_UV1",
                                        "HAS_COLOR",         "INSTANCED",       "UNLIT",        "BASE_COLOR_MAP",
                                        "MR_MAP",            "NORMAL_MAP",      "OCCLUSION_MAP", "EMISSIVE_MAP",
                                        "BASE_COLOR_MAP_UV1", "MR_MAP_UV1",     "NORMAL_MAP_UV1", "OCCLUSION_MAP_UV1",
                                        "EMISSIVE_MAP_UV1",  "ALPHA_MASK",      "RECEIVE_SHADOWS", "FOG"};
    enum { NF = sizeof flags / sizeof flags[0] };
    static const char *const mrt[] = {"1", "2", "3", "4"};
    hl_shader_define d[NF + 1];
    uint32_t compiled = 0;
    uint64_t max_tokens = 0, max_bytes = 0;
    uint32_t max_ops = 0, max_nest = 0;
    /* variant v: -1 = no flags, NF = every flag, else one flag; MRT counts on the full set */
    for (int v = -1; v <= NF + 3; v++) {
        uint32_t n = 0;
        if (v >= NF) {
            for (int i = 0; i < NF; i++)
                if (strcmp(flags[i], "UNLIT") != 0) d[n++] = (hl_shader_define){flags[i], NULL};
        } else if (v >= 0) {
            d[n++] = (hl_shader_define){flags[v], NULL};
            if (strcmp(flags[v], "HAS_NORMAL") != 0 && strcmp(flags[v], "UNLIT") != 0)
                d[n++] = (hl_shader_define){"HAS_NORMAL", NULL};
            if (strstr(flags[v], "_UV1")) d[n++] = (hl_shader_define){"HAS_UV1", NULL};
            if (strstr(flags[v], "MAP")) d[n++] = (hl_shader_define){"HAS_UV0", NULL};
            if (strstr(flags[v], "_UV1")) {
                char base[32];
                snprintf(base, sizeof base, "%.*s", (int)(strlen(flags[v]) - 4), flags[v]);
                for (int i = 0; i < NF; i++)
                    if (strcmp(flags[i], base) == 0) d[n++] = (hl_shader_define){flags[i], NULL};
            }
            if (strcmp(flags[v], "HAS_TANGENT") == 0) d[n++] = (hl_shader_define){"NORMAL_MAP", NULL};
        }
        d[n++] = (hl_shader_define){"MRT_COUNT", mrt[v > NF ? v - NF : 0]};
        hl_shader_program p;
        hl_result r = compile(hl__render_forward_vs, hl__render_forward_fs, d, n, be, &p);
        HL_CHECK_MSG(r == HL_OK, "forward variant %d: %s", v, hl_last_error());
        if (!r) compiled++;
        hl_shader_program_free(&p);
        /* how far the engine stays from the limits */
        char *pp = NULL;
        if (hl_shader_preprocess(hl__render_forward_fs, d, n, &pp) == HL_OK) {
            hl__pp_stats st;
            HL_CHECK_OK(hl__pp_guard(pp, false, NULL, &st));
            if (st.expansion_tokens > max_tokens) max_tokens = st.expansion_tokens;
            if (st.output_bytes > max_bytes) max_bytes = st.output_bytes;
            if (st.max_operators > max_ops) max_ops = st.max_operators;
            if (st.max_nesting > max_nest) max_nest = st.max_nesting;
        }
        hl_shader_string_free(pp);
    }
    for (int inst = 0; inst < 2; inst++) {
        hl_shader_define sd = {"INSTANCED", NULL};
        hl_shader_program p;
        HL_CHECK_OK(compile(hl__render_shadow_vs, NULL, &sd, (uint32_t)inst, be, &p));
        compiled++;
        hl_shader_program_free(&p);
    }
    /* skinned, forward and shadow: 4 influences, or 8 (SKINNED8 reads a_joints1 / a_weights1) */
    for (int eight = 0; eight < 2; eight++) {
        const hl_shader_define sk[4] = {{"SKINNED", NULL}, {"HAS_NORMAL", NULL}, {"MRT_COUNT", "1"}, {"SKINNED8", NULL}};
        const hl_shader_define sk_shadow[2] = {{"SKINNED", NULL}, {"SKINNED8", NULL}};
        for (int shadow = 0; shadow < 2; shadow++) {
            hl_shader_program p;
            hl_result r = shadow ? compile(hl__render_shadow_vs, NULL, sk_shadow, 1u + (uint32_t)eight, be, &p)
                                 : compile(hl__render_forward_vs, hl__render_forward_fs, sk, 3u + (uint32_t)eight, be, &p);
            HL_CHECK_MSG(r == HL_OK, "skinned %s variant, %d influences: %s", shadow ? "shadow" : "forward",
                         eight ? 8 : 4, hl_last_error());
            if (r) {
                hl_shader_program_free(&p);
                continue;
            }
            compiled++;
            bool joints1 = false, weights1 = false;
            for (uint32_t k = 0; k < p.reflection.input_count; k++) {
                joints1 |= strcmp(p.reflection.inputs[k].name, "a_joints1") == 0;
                weights1 |= strcmp(p.reflection.inputs[k].name, "a_weights1") == 0;
            }
            HL_CHECK_MSG(joints1 == (eight != 0) && weights1 == (eight != 0),
                         "skinned %s variant, %d influences: a_joints1 %d a_weights1 %d", shadow ? "shadow" : "forward",
                         eight ? 8 : 4, joints1, weights1);
            hl_shader_program_free(&p);
        }
    }
    /* The alpha test discards after the last implicit-derivative sample: a discard in part of a
       quad leaves derivatives undefined (a discarded GLSL invocation ends, a WGSL one becomes a
       helper), and NVIDIA's GL and Vulkan then pick different mip levels and filters next to
       masked edges. The forward shader has one discard, after its last texture(). */
    const char *kill = strstr(hl__render_forward_fs, "discard");
    const char *last_tex = NULL;
    for (const char *t = strstr(hl__render_forward_fs, "texture("); t; t = strstr(t + 1, "texture(")) last_tex = t;
    HL_CHECK(kill && !strstr(kill + 1, "discard"));
    HL_CHECK_MSG(kill && last_tex && kill > last_tex, "the forward shader samples a texture after its discard");
    printf("%s: %u engine variants compiled; forward fs uses <= %llu expansion tokens, %llu output bytes, "
           "%u operators in an expression, nesting %u\n",
           be == HL_RHI_BACKEND_WEBGPU ? "webgpu" : "gles3", compiled, (unsigned long long)max_tokens,
           (unsigned long long)max_bytes, max_ops, max_nest);
    HL_CHECK(max_ops > 0 && max_ops < HL_SHADER_MAX_EXPRESSION_OPERATORS / 4);
    HL_CHECK(max_nest > 0 && max_nest < HL_SHADER_MAX_NESTING / 4);
    HL_CHECK(max_bytes > 0 && max_bytes < HL_SHADER_MAX_EXPANDED_BYTES / 64);
    HL_CHECK(max_tokens < HL_SHADER_MAX_EXPANSION_TOKENS / 64);
}

int main(void) {
    const hl_rhi_backend backends[] = {HL_RHI_BACKEND_WEBGPU, HL_RHI_BACKEND_GLES3};
    for (int i = 0; i < 2; i++) {
        test_bombs(backends[i]);
        test_size_limit(backends[i]);
        test_legitimate(backends[i]);
        test_engine_shaders(backends[i]);
        test_block_size(backends[i]);
        test_block_names(backends[i]);
    }
    test_entry_points();
    test_splice();
    return hl_test_finish();
}
