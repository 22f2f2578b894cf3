/* std140 layouts from a schema, uniform buffers with named set and dirty ranges, and the
 * uniform-block registry. */
#include <math.h>

#include "hilo3d/hilo3d.h"
#include "hl_test.h"

static void check_members(const char *what, const hl_std140_entry *e, uint32_t n, const uint32_t *offsets,
                          uint32_t size) {
    hl_std140_member m[16];
    uint32_t got = 0;
    HL_CHECK_OK(hl_std140_compute(e, n, m, &got));
    HL_CHECK_MSG(got == size, "%s: block size %u, expected %u", what, got, size);
    for (uint32_t i = 0; i < n; ++i)
        HL_CHECK_MSG(m[i].offset == offsets[i], "%s: %s at %u, expected %u", what, e[i].name, m[i].offset, offsets[i]);
}

static void test_offsets(void) {
    /* the brief's example: {float a; vec3 b; mat4 c; float d[3]; vec2 e} */
    const hl_std140_entry e1[] = {{"a", HL_STD140_FLOAT, 0},
                                  {"b", HL_STD140_VEC3, 0},
                                  {"c", HL_STD140_MAT4, 0},
                                  {"d", HL_STD140_FLOAT, 3},
                                  {"e", HL_STD140_VEC2, 0}};
    check_members("example", e1, 5, (const uint32_t[]){0, 16, 32, 96, 144}, 160);
    hl_std140_member m[5];
    uint32_t size;
    HL_CHECK_OK(hl_std140_compute(e1, 5, m, &size));
    HL_CHECK_EQ(m[1].size, 12);
    HL_CHECK_EQ(m[2].size, 64);
    HL_CHECK_EQ(m[2].matrix_stride, 16);
    HL_CHECK_EQ(m[3].array_stride, 16);
    HL_CHECK_EQ(m[3].size, 48);
    HL_CHECK_EQ(m[4].align, 8);

    /* a scalar packs into the tail of a vec3 */
    const hl_std140_entry e2[] = {{"dir", HL_STD140_VEC3, 0}, {"intensity", HL_STD140_FLOAT, 0}};
    check_members("vec3+float", e2, 2, (const uint32_t[]){0, 12}, 16);
    /* mat3 columns are padded to vec4; vec2 arrays take 16 per element */
    const hl_std140_entry e3[] = {
        {"m", HL_STD140_MAT3, 0}, {"v", HL_STD140_VEC2, 2}, {"i", HL_STD140_INT, 0}, {"f", HL_STD140_BOOL, 0}};
    check_members("mat3/vec2[2]", e3, 4, (const uint32_t[]){0, 48, 80, 84}, 96);
    const hl_std140_entry e4[] = {{"x", HL_STD140_FLOAT, 0}, {"y", HL_STD140_VEC2, 0}, {"a", HL_STD140_VEC2, 0},
                                  {"b", HL_STD140_VEC3, 0},  {"c", HL_STD140_VEC4, 0}, {"d", HL_STD140_IVEC3, 0},
                                  {"e", HL_STD140_UINT, 0}};
    check_members("mixed", e4, 7, (const uint32_t[]){0, 8, 16, 32, 48, 64, 76}, 80);
    const hl_std140_entry e5[] = {
        {"bones", HL_STD140_MAT4, 2}, {"mat2s", HL_STD140_MAT2, 2}, {"t", HL_STD140_FLOAT, 0}};
    check_members("matrix arrays", e5, 3, (const uint32_t[]){0, 128, 192}, 208);

    HL_CHECK_EQ(hl_std140_type_from_name("mat3"), HL_STD140_MAT3);
    HL_CHECK_EQ(hl_std140_type_from_name("dvec3"), HL_STD140_INVALID);
    HL_CHECK(strcmp(hl_std140_type_name(HL_STD140_UVEC2), "uvec2") == 0);
    HL_CHECK_EQ(hl_std140_type_scalars(HL_STD140_MAT3), 9);

    /* errors name the entry */
    const hl_std140_entry dup[] = {{"a", HL_STD140_FLOAT, 0}, {"a", HL_STD140_VEC2, 0}};
    HL_CHECK_RESULT(hl_std140_compute(dup, 2, m, &size), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "entries[1].name \"a\" repeats") != NULL);
    const hl_std140_entry bad_name[] = {{"1x", HL_STD140_FLOAT, 0}};
    HL_CHECK_RESULT(hl_std140_compute(bad_name, 1, m, &size), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "entries[0].name \"1x\"") != NULL);
    const hl_std140_entry bad_type[] = {{"ok", HL_STD140_FLOAT, 0}, {"t", (hl_std140_type)99, 0}};
    HL_CHECK_RESULT(hl_std140_compute(bad_type, 2, m, &size), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "entries[1]") != NULL);
    HL_CHECK_RESULT(hl_std140_compute(e1, 0, m, &size), HL_ERR_VALIDATION);
}

static void test_layout_and_buffer(void) {
    const hl_std140_entry schema[] = {{"a", HL_STD140_FLOAT, 0},
                                      {"b", HL_STD140_VEC3, 0},
                                      {"c", HL_STD140_MAT3, 0},
                                      {"d", HL_STD140_FLOAT, 3},
                                      {"tint", HL_STD140_VEC4, 0}};
    hl_std140_layout *layout = NULL, *same = NULL, *other = NULL;
    HL_CHECK_OK(hl_std140_layout_create(schema, 5, &layout));
    HL_CHECK_OK(hl_std140_layout_create(schema, 5, &same));
    HL_CHECK_OK(hl_std140_layout_create(schema, 4, &other));
    if (!layout || !same || !other) return;
    HL_CHECK_EQ(hl_std140_layout_size(layout), 144); /* a 0, b 16, c 32..80, d 80..128, tint 128 */
    HL_CHECK_EQ(hl_std140_layout_member_count(layout), 5);
    HL_CHECK_EQ(hl_std140_layout_find(layout, "tint"), 4);
    HL_CHECK_EQ(hl_std140_layout_find(layout, "nope"), -1);
    const char *name = NULL;
    hl_std140_type type = HL_STD140_INVALID;
    uint32_t count = 9;
    const hl_std140_member *mem = hl_std140_layout_member(layout, 3, &name, &type, &count);
    HL_CHECK(mem && mem->offset == 80 && strcmp(name, "d") == 0 && type == HL_STD140_FLOAT && count == 3);
    HL_CHECK(hl_std140_layout_member(layout, 5, NULL, NULL, NULL) == NULL);
    HL_CHECK(hl_std140_layout_hash(layout) == hl_std140_layout_hash(same));
    HL_CHECK(hl_std140_layout_hash(layout) != hl_std140_layout_hash(other));

    hl_uniform_buffer *ub = NULL;
    HL_CHECK_OK(hl_uniform_buffer_create(layout, &ub));
    hl_std140_layout_release(layout); /* the buffer keeps the layout alive */
    hl_std140_layout_release(same);
    hl_std140_layout_release(other);
    if (!ub) return;
    HL_CHECK_EQ(hl_uniform_buffer_size(ub), 144);
    HL_CHECK(hl_uniform_buffer_layout(ub) == layout);
    const float *f = hl_uniform_buffer_data(ub);
    uint64_t rev1 = hl_uniform_buffer_revision(ub);
    hl_dirty_range r;
    HL_CHECK_EQ(hl_uniform_buffer_upload(ub, 0, &r), HL_UPLOAD_FULL);
    HL_CHECK_EQ(r.size, 144);
    HL_CHECK_EQ(hl_uniform_buffer_upload(ub, rev1, &r), HL_UPLOAD_NONE);

    const float tint[4] = {1, 0.5f, 0.2f, 1};
    HL_CHECK_OK(hl_uniform_buffer_set(ub, "tint", tint, 4));
    HL_CHECK(memcmp(f + 32, tint, 16) == 0);
    uint64_t rev2 = hl_uniform_buffer_revision(ub);
    HL_CHECK(rev2 > rev1);
    HL_CHECK_EQ(hl_uniform_buffer_upload(ub, rev1, &r), HL_UPLOAD_RANGE);
    HL_CHECK_EQ(r.offset, 128);
    HL_CHECK_EQ(r.size, 16);
    /* the same bytes again: no change, no revision */
    HL_CHECK_OK(hl_uniform_buffer_set(ub, "tint", tint, 4));
    HL_CHECK_EQ(hl_uniform_buffer_revision(ub), rev2);

    /* mat3: 9 floats land in three 16-byte columns, padding untouched */
    const float m3[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    HL_CHECK_OK(hl_uniform_buffer_set(ub, "c", m3, 9));
    HL_CHECK(f[8] == 1 && f[9] == 2 && f[10] == 3 && f[11] == 0);
    HL_CHECK(f[12] == 4 && f[14] == 6 && f[15] == 0);
    HL_CHECK(f[16] == 7 && f[18] == 9 && f[19] == 0);
    HL_CHECK_EQ(hl_uniform_buffer_upload(ub, rev1, &r), HL_UPLOAD_RANGE);
    HL_CHECK_EQ(r.offset, 32); /* merged with tint: [32, 144) */
    HL_CHECK_EQ(r.size, 112);

    /* the renderer committed; a float array writes one value per 16 bytes */
    uint64_t up = hl_uniform_buffer_revision(ub);
    hl_uniform_buffer_clear_dirty(ub);
    HL_CHECK_EQ(hl_uniform_buffer_upload(ub, up, &r), HL_UPLOAD_NONE);
    const float d3[3] = {0.25f, 0, 0.75f}; /* d[1] stays 0: only d[0] and d[2] change */
    HL_CHECK_OK(hl_uniform_buffer_set_index(ub, 3, d3, 3));
    HL_CHECK(f[20] == 0.25f && f[24] == 0 && f[28] == 0.75f);
    HL_CHECK_EQ(hl_uniform_buffer_upload(ub, up, &r), HL_UPLOAD_RANGE);
    HL_CHECK_EQ(r.offset, 80);
    HL_CHECK_EQ(r.size, 36);                                             /* d[0] at [80, 84), d[2] at [112, 116) */
    HL_CHECK_EQ(hl_uniform_buffer_upload(ub, rev1, &r), HL_UPLOAD_FULL); /* older than the range start */

    /* errors */
    HL_CHECK_RESULT(hl_uniform_buffer_set(ub, "tint", tint, 3), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "\"tint\"") != NULL && strstr(hl_last_error(), "4 values, got 3") != NULL);
    HL_CHECK_RESULT(hl_uniform_buffer_set(ub, "tnit", tint, 4), HL_ERR_NOT_FOUND);
    HL_CHECK(strstr(hl_last_error(), "tnit") != NULL);
    HL_CHECK_RESULT(hl_uniform_buffer_set_index(ub, 7, tint, 4), HL_ERR_NOT_FOUND);
    hl_uniform_buffer_release(ub); /* last reference: frees the layout too (ASan checks) */
    HL_CHECK_RESULT(hl_std140_layout_create(NULL, 0, &layout), HL_ERR_VALIDATION);
    HL_CHECK(layout == NULL);
    HL_CHECK_RESULT(hl_uniform_buffer_create(NULL, &ub), HL_ERR_VALIDATION);
    HL_CHECK(ub == NULL);
}

static void test_int_members(void) {
    const hl_std140_entry schema[] = {{"count", HL_STD140_INT, 0}, {"ids", HL_STD140_UVEC2, 0}};
    hl_std140_layout *l = NULL;
    hl_uniform_buffer *ub = NULL;
    HL_CHECK_OK(hl_std140_layout_create(schema, 2, &l));
    HL_CHECK_OK(hl_uniform_buffer_create(l, &ub));
    const int32_t c = -3;
    const uint32_t ids[2] = {7, 9};
    HL_CHECK_OK(hl_uniform_buffer_set(ub, "count", &c, 1));
    HL_CHECK_OK(hl_uniform_buffer_set(ub, "ids", ids, 2));
    const uint8_t *p = hl_uniform_buffer_data(ub);
    int32_t gc;
    uint32_t gi[2];
    memcpy(&gc, p, 4);
    memcpy(gi, p + 8, 8);
    HL_CHECK_EQ(gc, -3);
    HL_CHECK(gi[0] == 7 && gi[1] == 9);
    hl_uniform_buffer_retain(ub);
    hl_uniform_buffer_release(ub);
    hl_uniform_buffer_release(ub);
    hl_std140_layout_release(l);
}

static void test_registry(void) {
    hl_uniform_block_bindings_reset();
    uint32_t b = 99;
    HL_CHECK(!hl_uniform_block_binding("EffectBlock", &b));
    HL_CHECK_OK(hl_register_uniform_block_binding("EffectBlock", &b));
    HL_CHECK_EQ(b, 0);
    HL_CHECK_OK(hl_register_uniform_block_binding("Other", &b));
    HL_CHECK_EQ(b, 1);
    HL_CHECK_OK(hl_register_uniform_block_binding("EffectBlock", &b)); /* idempotent */
    HL_CHECK_EQ(b, 0);
    HL_CHECK(hl_uniform_block_binding("Other", &b) && b == 1);
    HL_CHECK_EQ(hl_uniform_block_binding_count(), 2);
    HL_CHECK_RESULT(hl_register_uniform_block_binding("bad name", NULL), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "bad name") != NULL);
    HL_CHECK_RESULT(hl_register_uniform_block_binding(NULL, NULL), HL_ERR_VALIDATION);
    char name[16];
    hl_result last = HL_OK;
    for (int i = 0; i < HL_MAX_UNIFORM_BLOCKS; ++i) {
        snprintf(name, sizeof name, "B%d", i);
        hl_result r = hl_register_uniform_block_binding(name, NULL);
        if (r) last = r;
    }
    HL_CHECK_EQ(last, HL_ERR_VALIDATION); /* 2 + 64 names exceed the 64 bindings */
    HL_CHECK_EQ(hl_uniform_block_binding_count(), HL_MAX_UNIFORM_BLOCKS);
    hl_uniform_block_bindings_reset();
    HL_CHECK_EQ(hl_uniform_block_binding_count(), 0);
}

int main(void) {
    test_offsets();
    test_layout_and_buffer();
    test_int_members();
    test_registry();
    return hl_test_finish();
}
