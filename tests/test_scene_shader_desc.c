/* Scene layer: hl_material_create_shader refuses, with HL_ERR_VALIDATION naming the entries,
 * every description it can judge without a device, so that both backends see the same code
 * before any native call: one vertex input mapped twice, two inputs mapped to one semantic,
 * NULL / non-identifier / reserved (gl_) names, duplicate block or texture names, counts
 * without arrays, counts over the documented limits. The set_* calls keep the same rules.
 * Pure CPU, no device. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hilo3d/hilo3d.h"
#include "hl_test.h"

static const char k_vs[] = "#version 300 es\nin vec3 a_position;\nin vec2 a_uv;\nout vec2 v_uv;\n"
                           "void main() { v_uv = a_uv; gl_Position = vec4(a_position, 1.0); }\n";
static const char k_fs[] = "#version 300 es\nprecision mediump float;\nin vec2 v_uv;\nout vec4 o;\n"
                           "void main() { o = vec4(v_uv, 0.0, 1.0); }\n";

static bool has(const char *needle) { return strstr(hl_last_error(), needle) != NULL; }

static hl_uniform_buffer *g_ub;
static hl_texture *g_tex;

static hl_shader_material_desc base_desc(void) {
    hl_shader_material_desc d = {0};
    d.vs = k_vs;
    d.fs = k_fs;
    return d;
}

/* create must fail with HL_ERR_VALIDATION, leave *out NULL and mention every needle */
static void expect_refused(const hl_shader_material_desc *d, const char *n1, const char *n2, const char *n3,
                           int line) {
    hl_material *m = (hl_material *)(uintptr_t)1;
    hl_result r = hl_material_create_shader(d, &m);
    hl_test_check(r == HL_ERR_VALIDATION, __FILE__, line, "create_shader -> %s, expected HL_ERR_VALIDATION (%s)",
                  hl_result_name(r), r ? hl_last_error() : "");
    hl_test_check(m == NULL, __FILE__, line, "out is NULL after a refusal");
    if (r == HL_OK) hl_material_release(m);
    const char *needles[3] = {n1, n2, n3};
    for (int i = 0; i < 3; ++i)
        if (needles[i])
            hl_test_check(r != HL_OK && has(needles[i]), __FILE__, line, "message names %s: %s", needles[i],
                          r ? hl_last_error() : "(no error)");
}
#define REFUSED(d, a, b, c) expect_refused((d), (a), (b), (c), __LINE__)

static void test_attribute_maps(void) {
    hl_shader_material_desc d = base_desc();
    /* the good map */
    const hl_material_attribute good[2] = {{"a_position", HL_ATTR_POSITION}, {"a_uv", HL_ATTR_TEXCOORD_0}};
    d.attributes = good;
    d.attribute_count = 2;
    hl_material *m = NULL;
    HL_CHECK_OK(hl_material_create_shader(&d, &m));
    hl_material_release(m);

    /* one input mapped twice */
    const hl_material_attribute twice[2] = {{"a_position", HL_ATTR_POSITION}, {"a_position", HL_ATTR_NORMAL}};
    d.attributes = twice;
    REFUSED(&d, "\"a_position\" is mapped twice", "POSITION", "NORMAL");
    /* two inputs on one semantic */
    const hl_material_attribute one_sem[2] = {{"a_position", HL_ATTR_POSITION}, {"a_uv", HL_ATTR_POSITION}};
    d.attributes = one_sem;
    REFUSED(&d, "\"a_position\"", "\"a_uv\"", "semantic POSITION");
    /* also when the pair is not adjacent */
    const hl_material_attribute far[3] = {
        {"a_uv", HL_ATTR_TEXCOORD_0}, {"a_position", HL_ATTR_POSITION}, {"a_uv2", HL_ATTR_TEXCOORD_0}};
    d.attributes = far;
    d.attribute_count = 3;
    REFUSED(&d, "attributes[0]", "attributes[2]", "TEXCOORD_0");
    /* names */
    const hl_material_attribute null_name[1] = {{NULL, HL_ATTR_POSITION}};
    d.attributes = null_name;
    d.attribute_count = 1;
    REFUSED(&d, "attributes[0].name is NULL", NULL, NULL);
    const hl_material_attribute spaced[1] = {{"a position", HL_ATTR_POSITION}};
    d.attributes = spaced;
    REFUSED(&d, "attributes[0].name", "not a GLSL identifier", NULL);
    const hl_material_attribute digit[1] = {{"1a", HL_ATTR_POSITION}};
    d.attributes = digit;
    REFUSED(&d, "\"1a\"", NULL, NULL);
    const hl_material_attribute reserved[1] = {{"gl_Vertex", HL_ATTR_POSITION}};
    d.attributes = reserved;
    REFUSED(&d, "\"gl_Vertex\"", "reserved", NULL);
    const hl_material_attribute bad_sem[1] = {{"a_position", (hl_attribute)HL_ATTR_COUNT}};
    d.attributes = bad_sem;
    REFUSED(&d, "semantic", NULL, NULL);
    /* counts without arrays */
    d.attributes = NULL;
    d.attribute_count = 2;
    REFUSED(&d, "attribute_count is 2 but attributes is NULL", NULL, NULL);
}

static void test_blocks_and_textures(void) {
    hl_shader_material_desc d = base_desc();
    const hl_material_uniform_block dup_blocks[2] = {{"Effect", g_ub}, {"Effect", g_ub}};
    d.uniform_blocks = dup_blocks;
    d.uniform_block_count = 2;
    REFUSED(&d, "uniform_blocks[1].name \"Effect\" repeats uniform_blocks[0]", NULL, NULL);
    const hl_material_uniform_block null_block[1] = {{NULL, g_ub}};
    d.uniform_blocks = null_block;
    d.uniform_block_count = 1;
    REFUSED(&d, "uniform_blocks[0].name is NULL", NULL, NULL);
    const hl_material_uniform_block gl_block[1] = {{"gl_Block", g_ub}};
    d.uniform_blocks = gl_block;
    REFUSED(&d, "gl_Block", "reserved", NULL);
    char long_name[80];
    memset(long_name, 'B', 64);
    long_name[64] = '\0'; /* 64 characters: the registry holds 63 */
    const hl_material_uniform_block long_block[1] = {{long_name, g_ub}};
    d.uniform_blocks = long_block;
    REFUSED(&d, "uniform_blocks[0].name", "63", NULL);
    long_name[63] = '\0';
    hl_material *m = NULL;
    HL_CHECK_OK(hl_material_create_shader(&d, &m)); /* 63 characters fit */
    hl_material_release(m);
    d.uniform_blocks = NULL;
    d.uniform_block_count = 1;
    REFUSED(&d, "uniform_block_count is 1 but uniform_blocks is NULL", NULL, NULL);
    d.uniform_block_count = 0;

    const hl_material_texture dup_tex[2] = {{"u_map", g_tex}, {"u_map", g_tex}};
    d.textures = dup_tex;
    d.texture_count = 2;
    REFUSED(&d, "textures[1].name \"u_map\" repeats textures[0]", NULL, NULL);
    const hl_material_texture gl_tex[1] = {{"gl_map", g_tex}};
    d.textures = gl_tex;
    d.texture_count = 1;
    REFUSED(&d, "textures[0].name", "gl_map", NULL);
    const hl_material_texture no_tex[1] = {{"u_map", NULL}};
    d.textures = no_tex;
    REFUSED(&d, "textures[0] (\"u_map\") has no texture", NULL, NULL);
    d.textures = NULL;
    d.texture_count = 3;
    REFUSED(&d, "texture_count is 3 but textures is NULL", NULL, NULL);
}

/* The documented limits, at creation and through the setters. */
static void test_limits(void) {
    static char names[HL_MATERIAL_MAX_TEXTURES + 1][16];
    hl_material_uniform_block blocks[HL_MATERIAL_MAX_UNIFORM_BLOCKS + 1];
    hl_material_texture texs[HL_MATERIAL_MAX_TEXTURES + 1];
    for (int i = 0; i <= HL_MATERIAL_MAX_TEXTURES; ++i) {
        snprintf(names[i], sizeof names[i], "n%d", i);
        texs[i] = (hl_material_texture){names[i], g_tex};
    }
    for (int i = 0; i <= HL_MATERIAL_MAX_UNIFORM_BLOCKS; ++i)
        blocks[i] = (hl_material_uniform_block){names[i], g_ub};
    hl_shader_material_desc d = base_desc();
    d.uniform_blocks = blocks;
    d.uniform_block_count = HL_MATERIAL_MAX_UNIFORM_BLOCKS + 1;
    REFUSED(&d, "uniform_block_count 33", NULL, NULL);
    d.uniform_block_count = HL_MATERIAL_MAX_UNIFORM_BLOCKS;
    hl_material *m = NULL;
    HL_CHECK_OK(hl_material_create_shader(&d, &m));
    if (m) {
        HL_CHECK_RESULT(hl_material_set_uniform_block(m, "one_more", g_ub), HL_ERR_VALIDATION);
        HL_CHECK(has("HL_MATERIAL_MAX_UNIFORM_BLOCKS"));
        HL_CHECK_OK(hl_material_set_uniform_block(m, "n0", g_ub)); /* replacing is fine */
        hl_material_release(m);
    }
    d.uniform_block_count = 0;
    d.textures = texs;
    d.texture_count = HL_MATERIAL_MAX_TEXTURES + 1;
    REFUSED(&d, "texture_count 33", NULL, NULL);
    d.texture_count = HL_MATERIAL_MAX_TEXTURES;
    m = NULL;
    HL_CHECK_OK(hl_material_create_shader(&d, &m));
    if (m) {
        HL_CHECK_RESULT(hl_material_set_named_texture(m, "one_more", g_tex), HL_ERR_VALIDATION);
        HL_CHECK(has("HL_MATERIAL_MAX_TEXTURES"));
        HL_CHECK_RESULT(hl_material_set_named_texture(m, "gl_x", g_tex), HL_ERR_VALIDATION);
        HL_CHECK_RESULT(hl_material_set_uniform_block(m, "gl_x", g_ub), HL_ERR_VALIDATION);
        HL_CHECK(has("reserved"));
        HL_CHECK_RESULT(hl_material_set_uniform_block(m, NULL, g_ub), HL_ERR_VALIDATION);
        HL_CHECK(has("name is NULL"));
        uint32_t n = 0;
        hl_material_shader_textures(m, &n);
        HL_CHECK_EQ(n, HL_MATERIAL_MAX_TEXTURES);
        hl_material_shader_uniform_blocks(m, &n);
        HL_CHECK_EQ(n, 0);
        hl_material_release(m);
    }
    /* sources: the toolchain's budget applies at creation (exactly the limit is accepted) */
    size_t len = HL_MATERIAL_MAX_SHADER_SOURCE_BYTES;
    char *big = malloc(len + 2);
    if (!big) return;
    hl_shader_material_desc b = base_desc();
    size_t head = strlen(b.vs);
    memcpy(big, b.vs, head);
    memset(big + head, ' ', len + 1 - head);
    big[len + 1] = '\0'; /* one byte over */
    b.vs = big;
    REFUSED(&b, "HL_MATERIAL_MAX_SHADER_SOURCE_BYTES", "vs", NULL);
    big[len] = '\0';
    m = NULL;
    HL_CHECK_OK(hl_material_create_shader(&b, &m));
    hl_material_release(m);
    b = base_desc();
    big[len] = ' ';
    memcpy(big, b.fs, strlen(b.fs));
    b.fs = big;
    REFUSED(&b, "fs", NULL, NULL);
    free(big);
}

int main(void) {
    hl_std140_layout *layout = NULL;
    HL_CHECK_OK(hl_std140_layout_create((const hl_std140_entry[]){{"tint", HL_STD140_VEC4, 0}}, 1, &layout));
    HL_CHECK_OK(hl_uniform_buffer_create(layout, &g_ub));
    hl_std140_layout_release(layout);
    HL_CHECK_OK(hl_texture_create(&(hl_texture_desc){.width = 1, .height = 1}, &g_tex));
    if (!g_ub || !g_tex) return hl_test_finish();
    test_attribute_maps();
    test_blocks_and_textures();
    test_limits();
    hl_texture_release(g_tex);
    hl_uniform_buffer_release(g_ub);
    return hl_test_finish();
}
