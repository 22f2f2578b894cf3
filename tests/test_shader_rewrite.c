/* The GLSL ES 3.00 -> Vulkan GLSL rewriter on inputs found while fuzzing it and on macros in
 * declarations: line numbers are kept, every input gets its location, nothing is read out of
 * bounds (the fuzz corpus under tests/fuzz/corpus/glsl_* replays the crashing inputs). */
#include <stdlib.h>
#include <string.h>

#include "hl_test.h"
#include "shader_internal.h"

static int count_lines(const char *s) {
    int n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

/* Rewrites `src` (declarations scanned from the text itself) for Vulkan; caller frees. */
static char *rewrite(const char *src, hl_rhi_shader_stage stage) {
    hl__sh_stage *st = calloc(1, sizeof *st);
    hl_rhi_binding_plan_entry *plan = NULL;
    uint32_t n = 0;
    char *out = NULL;
    const hl__sh_stage *stages[1] = {st};
    if (hl__scan_stage(src, stage, st) == HL_OK && hl__assign_locations(st, stage, NULL) == HL_OK &&
        hl__build_plan(stages, 1, NULL, 0, &plan, &n) == HL_OK)
        HL_CHECK_OK(hl__rewrite(src, stage, true, st, plan, n, &out));
    hl__free(plan);
    free(st);
    return out;
}

/* A #version continued over two lines became one line: every compiler message after it was
 * one line off (found by fuzz_glsl_rewrite). */
static void test_continued_version(void) {
    const char *src = "#version 300 \\\nes\nin vec3 a_position;\nvoid main() { gl_Position = vec4(a_position, 1.0); }\n";
    char *out = rewrite(src, HL_RHI_SHADER_VERTEX);
    HL_CHECK(out != NULL);
    if (out) {
        HL_CHECK_EQ(count_lines(out), count_lines(src));
        HL_CHECK(strncmp(out, "#version 450\n", 13) == 0);
        HL_CHECK(strstr(out, "layout(location = 0) in vec3 a_position;") != NULL);
    }
    hl__free(out);
}

/* A macro between the qualifiers and the type (`in PREC vec3 a;`): the rewriter took the type
 * for the name, left the input without a location, and glslang refused the Vulkan text on both
 * backends ("SPIR-V requires location for user input/output"). */
static void test_macro_in_declaration(void) {
    const char *vs = "#version 300 es\n"
                     "#define PREC highp\n"
                     "in PREC vec3 a_position;\n"
                     "in vec2 a_uv;\n"
                     "out PREC vec2 v_uv, v_uv2[2];\n"
                     "void main() { v_uv = a_uv; v_uv2[0] = v_uv2[1] = a_uv; gl_Position = vec4(a_position, 1.0); }\n";
    const char *fs = "#version 300 es\n"
                     "precision mediump float;\n"
                     "#define PREC highp\n"
                     "in PREC vec2 v_uv, v_uv2[2];\n"
                     "out PREC vec4 o_color;\n"
                     "void main() { o_color = vec4(v_uv + v_uv2[1], 0.0, 1.0); }\n";
    const hl_rhi_backend backends[] = {HL_RHI_BACKEND_WEBGPU, HL_RHI_BACKEND_GLES3};
    for (int b = 0; b < 2; b++) {
        hl_shader_program_desc d = {0};
        d.vertex_source = vs;
        d.fragment_source = fs;
        d.label = "macro in declaration";
        hl_shader_program p;
        HL_CHECK_OK(hl_shader_program_compile(&d, backends[b], &p));
        HL_CHECK_EQ(p.reflection.input_count, 2);
        if (p.reflection.input_count == 2) {
            HL_CHECK(strcmp(p.reflection.inputs[0].name, "a_position") == 0 && p.reflection.inputs[0].location == 0);
            HL_CHECK(strcmp(p.reflection.inputs[1].name, "a_uv") == 0 && p.reflection.inputs[1].location == 1);
        }
        if (backends[b] == HL_RHI_BACKEND_GLES3)
            HL_CHECK(p.vertex_glsl && strstr(p.vertex_glsl, "layout(location = 0) in PREC vec3 a_position;"));
        hl_shader_program_free(&p);
    }
}

int main(void) {
    test_continued_version();
    test_macro_in_declaration();
    return hl_test_finish();
}
