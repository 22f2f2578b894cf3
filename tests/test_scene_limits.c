/* Scene layer: size arithmetic at every public entry point. Sizes the API cannot represent
 * (a vertex or index block past 4 GiB - 4, a std140 block past 32 bits, counts whose byte size
 * wraps) are refused with HL_ERR_VALIDATION naming the numbers, before anything is read,
 * allocated or written; caller buffers are written only inside the size the caller gave.
 * Pure CPU, no device. The huge inputs are read-only anonymous mappings: they cost address
 * space only, never memory, because a correct implementation never touches them. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "hilo3d/hilo3d.h"
#include "hl_test.h"

static const float k_tri[9] = {-0.5f, -0.5f, 0, 0.5f, -0.5f, 0, 0, 0.5f, 0};

/* bytes of zero pages that fault if written; NULL (and a failed check) if the mapping fails */
static void *map_readonly(size_t bytes) {
    void *p = mmap(NULL, bytes, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    HL_CHECK_MSG(p != MAP_FAILED, "mmap of %zu bytes failed", bytes);
    return p == MAP_FAILED ? NULL : p;
}

static bool has(const char *needle) { return strstr(hl_last_error(), needle) != NULL; }

/* 50,000,001 vertices x six FLOAT32x4 attributes = 4.8 GB of vertex block: the uint32 sum of
 * attribute offsets used to wrap to ~505 MB and the copy wrote past that heap block. */
static void test_vertex_block_overflow(void) {
    const uint32_t n = 50000001u;
    size_t bytes = (size_t)n * 16;
    const void *p = map_readonly(bytes);
    if (!p) return;
    hl_geometry_desc d = {0};
    d.vertex_count = n;
    for (int a = 0; a < 6; ++a) {
        d.attributes[a].data = p;
        d.attributes[a].components = 4;
    }
    hl_geometry *g = (hl_geometry *)(uintptr_t)1;
    HL_CHECK_RESULT(hl_geometry_create(&d, &g), HL_ERR_VALIDATION);
    HL_CHECK(g == NULL);
    HL_CHECK_MSG(has("4800000096") && has("4294967292"), "message names the sizes: %s", hl_last_error());
    /* the largest block that fits: 2^26 vertices x 4 float4 attributes = 4 GiB exactly, 4 over */
    d.vertex_count = HL_GEOMETRY_MAX_VERTICES;
    d.attributes[4].data = d.attributes[5].data = NULL;
    HL_CHECK_RESULT(hl_geometry_create(&d, &g), HL_ERR_VALIDATION);
    HL_CHECK(has("4294967296"));
    /* the vertex count limit itself */
    d.vertex_count = HL_GEOMETRY_MAX_VERTICES + 1u;
    HL_CHECK_RESULT(hl_geometry_create(&d, &g), HL_ERR_VALIDATION);
    HL_CHECK(has("vertex_count"));
    munmap((void *)(uintptr_t)p, bytes);
}

/* index_count 0x40000002 UINT32 = 4 GiB + 8 bytes: index_bytes wrapped to 8, and the indices
 * were checked (4 GiB read) and then copied into those 8 bytes. */
static void test_index_block_overflow(void) {
    const uint32_t ic = 0x40000002u;
    size_t bytes = (size_t)ic * 4;
    const void *idx = map_readonly(bytes);
    if (!idx) return;
    hl_geometry_desc d = {0};
    d.vertex_count = 3;
    d.attributes[HL_ATTR_POSITION].data = k_tri;
    d.indices = idx;
    d.index_count = ic;
    hl_geometry *g = NULL;
    HL_CHECK_RESULT(hl_geometry_create(&d, &g), HL_ERR_VALIDATION);
    HL_CHECK(g == NULL);
    HL_CHECK_MSG(has("index_count 1073741826") && has("4294967304"), "message: %s", hl_last_error());
    /* 16-bit indices: 0x7fffffff * 2 bytes fits 32 bits but not the 4-aligned limit */
    d.index_count = 0x7ffffffeu + 3u; /* 2147483649 = 3 * 715827883: a whole number of triangles */
    d.index_format = HL_INDEX_UINT16;
    HL_CHECK_RESULT(hl_geometry_create(&d, &g), HL_ERR_VALIDATION);
    HL_CHECK(has("index_count 2147483649"));
    munmap((void *)(uintptr_t)idx, bytes);
}

/* Ranges of updates that wrap uint32 are refused, with the true end in the message. */
static void test_update_ranges(void) {
    uint16_t idx[3] = {0, 1, 2};
    hl_geometry_desc d = {0};
    d.vertex_count = 3;
    d.attributes[HL_ATTR_POSITION].data = k_tri;
    d.indices = idx;
    d.index_count = 3;
    d.index_format = HL_INDEX_UINT16;
    hl_geometry *g = NULL;
    HL_CHECK_OK(hl_geometry_create(&d, &g));
    if (!g) return;
    uint64_t rev0 = hl_geometry_revision(g);
    HL_CHECK_RESULT(hl_geometry_update_attribute(g, HL_ATTR_POSITION, UINT32_MAX, 2, k_tri), HL_ERR_VALIDATION);
    HL_CHECK_MSG(has("4294967297"), "message: %s", hl_last_error());
    HL_CHECK_RESULT(hl_geometry_update_attribute(g, HL_ATTR_POSITION, 2, UINT32_MAX, k_tri), HL_ERR_VALIDATION);
    HL_CHECK_RESULT(hl_geometry_update_indices(g, UINT32_MAX, 1, idx), HL_ERR_VALIDATION);
    HL_CHECK_MSG(has("4294967296"), "message: %s", hl_last_error());
    HL_CHECK_RESULT(hl_geometry_update_indices(g, 1, UINT32_MAX, idx), HL_ERR_VALIDATION);
    /* in range still works and records the range */
    HL_CHECK_OK(hl_geometry_update_attribute(g, HL_ATTR_POSITION, 2, 1, &k_tri[6]));
    hl_dirty_range r;
    HL_CHECK(hl_geometry_revision(g) > rev0);
    HL_CHECK_EQ(hl_geometry_vertex_upload(g, rev0, &r), HL_UPLOAD_RANGE);
    HL_CHECK_EQ(r.offset, 24);
    HL_CHECK_EQ(r.size, 12);
    hl_geometry_release(g);
}

/* Generators refuse segment counts whose vertex or index counts would not fit. */
static void test_shape_limits(void) {
    hl_geometry *g = NULL;
    HL_CHECK_RESULT(hl_geometry_create_sphere(&(hl_sphere_desc){1, UINT32_MAX, UINT32_MAX}, &g), HL_ERR_VALIDATION);
    HL_CHECK_RESULT(hl_geometry_create_sphere(&(hl_sphere_desc){1, 32, 0x80000001u}, &g), HL_ERR_VALIDATION);
    HL_CHECK_RESULT(hl_geometry_create_plane(&(hl_plane_desc){1, 1, 0x10000u, 0x10000u}, &g), HL_ERR_VALIDATION);
    HL_CHECK_RESULT(hl_geometry_create_plane(&(hl_plane_desc){1, 1, 4097, 1}, &g), HL_ERR_VALIDATION);
    HL_CHECK_RESULT(hl_geometry_create_cylinder(&(hl_cylinder_desc){.radial_segments = UINT32_MAX}, &g),
                    HL_ERR_VALIDATION);
    HL_CHECK_RESULT(hl_geometry_create_cylinder(&(hl_cylinder_desc){.height_segments = 0x40000000u}, &g),
                    HL_ERR_VALIDATION);
    HL_CHECK(g == NULL);
    /* the documented maxima of the cheap ones still work */
    HL_CHECK_OK(hl_geometry_create_sphere(&(hl_sphere_desc){1, 1024, 2}, &g));
    if (g) HL_CHECK_EQ(hl_geometry_get_layout(g)->vertex_count, 1025u * 3u);
    hl_geometry_release(g);
}

/* Many large members: the byte cursor passed 32 bits and wrapped to a small block. */
static void test_std140_block_overflow(void) {
    enum { N = 1100 }; /* 1100 x mat4[65536] (4 MiB each) = 4.6 GB */
    static hl_std140_entry e[N];
    static char names[N][16];
    static hl_std140_member m[N];
    for (int i = 0; i < N; ++i) {
        snprintf(names[i], sizeof names[i], "m%d", i);
        e[i] = (hl_std140_entry){names[i], HL_STD140_MAT4, HL_STD140_MAX_ARRAY_COUNT};
    }
    uint32_t size = 0;
    HL_CHECK_RESULT(hl_std140_compute(e, N, m, &size), HL_ERR_VALIDATION);
    HL_CHECK_MSG(has("entries[1023]") && has("m1023"), "names the first member past the limit: %s", hl_last_error());
    hl_std140_layout *l = NULL;
    HL_CHECK_RESULT(hl_std140_layout_create(e, N, &l), HL_ERR_VALIDATION);
    HL_CHECK(l == NULL);
    /* 1023 of them fit (4 GiB - 4 MiB) */
    HL_CHECK_OK(hl_std140_compute(e, 1023, m, &size));
    HL_CHECK_EQ(size, 1023u * 64u * 65536u);
    HL_CHECK_EQ(m[1022].offset, 1022u * 64u * 65536u);
    /* the array count limit */
    e[0].array_count = HL_STD140_MAX_ARRAY_COUNT + 1u;
    HL_CHECK_RESULT(hl_std140_compute(e, 1, m, &size), HL_ERR_VALIDATION);
    HL_CHECK(has("65537"));
}

/* hl_std140_write writes only inside block_size, whatever the member says about its size: a
 * member description is caller data. */
static void test_std140_write_bounds(void) {
    struct {
        uint8_t block[16];
        uint8_t guard[96];
    } buf;
    memset(&buf, 0xAB, sizeof buf);
    float vals[64];
    for (int i = 0; i < 64; ++i)
        vals[i] = (float)i;
    /* size says 16 bytes but 4 elements at a 16-byte stride need 64 */
    hl_std140_member lying = {0, 16, 16, 16, 0};
    HL_CHECK_RESULT(hl_std140_write(buf.block, 16, &lying, HL_STD140_VEC4, 4, vals, 16, NULL, NULL, NULL),
                    HL_ERR_VALIDATION);
    HL_CHECK_MSG(has("64") && has("16-byte block"), "message: %s", hl_last_error());
    /* matrix columns past the block */
    hl_std140_member cols = {0, 16, 16, 0, 16};
    HL_CHECK_RESULT(hl_std140_write(buf.block, 16, &cols, HL_STD140_MAT4, 0, vals, 16, NULL, NULL, NULL),
                    HL_ERR_VALIDATION);
    /* an offset + stride product that wraps 32 bits */
    hl_std140_member wrap = {16, 0, 16, 0x80000000u, 0};
    HL_CHECK_RESULT(hl_std140_write(buf.block, 16, &wrap, HL_STD140_FLOAT, 3, vals, 3, NULL, NULL, NULL),
                    HL_ERR_VALIDATION);
    /* scalars * array_count wraps: 16 * 2^28 = 2^32 -> 0 values would have been "enough" */
    hl_std140_member big = {0, 16, 16, 64, 16};
    HL_CHECK_RESULT(hl_std140_write(buf.block, 16, &big, HL_STD140_MAT4, 0x10000000u, vals, 0, NULL, NULL, NULL),
                    HL_ERR_VALIDATION);
    uint8_t expect[sizeof buf];
    memset(expect, 0xAB, sizeof expect);
    HL_CHECK_MSG(memcmp(&buf, expect, sizeof buf) == 0, "nothing written by a refused write");
    /* a correct member still writes */
    hl_std140_member ok = {0, 16, 16, 0, 0};
    HL_CHECK_OK(hl_std140_write(buf.block, 16, &ok, HL_STD140_VEC4, 0, vals, 4, NULL, NULL, NULL));
    HL_CHECK(memcmp(buf.block, vals, 16) == 0);
    HL_CHECK(memcmp(buf.guard, expect, sizeof buf.guard) == 0);
}

/* Shader material counts that would make validation read past the caller's arrays. */
static void test_material_counts(void) {
    static const char vs[] = "#version 300 es\nin vec3 a0;\nvoid main() { gl_Position = vec4(a0, 1.0); }\n";
    static const char fs[] = "#version 300 es\nprecision mediump float;\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n";
    hl_material_attribute attrs[HL_ATTR_COUNT + 1];
    static char names[HL_ATTR_COUNT + 1][16];
    for (int i = 0; i <= HL_ATTR_COUNT; ++i) {
        snprintf(names[i], sizeof names[i], "a%d", i);
        attrs[i] = (hl_material_attribute){names[i], (hl_attribute)(i % HL_ATTR_COUNT)};
    }
    hl_shader_material_desc d = {0};
    d.vs = vs;
    d.fs = fs;
    d.attributes = attrs;
    d.attribute_count = HL_ATTR_COUNT + 1;
    hl_material *m = NULL;
    HL_CHECK_RESULT(hl_material_create_shader(&d, &m), HL_ERR_VALIDATION);
    HL_CHECK(m == NULL);
    d.attribute_count = UINT32_MAX; /* must not read attrs[9..] */
    HL_CHECK_RESULT(hl_material_create_shader(&d, &m), HL_ERR_VALIDATION);
    HL_CHECK_MSG(has("4294967295"), "message: %s", hl_last_error());
    d.attribute_count = HL_ATTR_COUNT; /* one per semantic: fine */
    HL_CHECK_OK(hl_material_create_shader(&d, &m));
    hl_material_release(m);
    d.attribute_count = 1;
    d.uniform_block_count = UINT32_MAX;
    hl_material_uniform_block one = {"B", NULL};
    d.uniform_blocks = &one;
    HL_CHECK_RESULT(hl_material_create_shader(&d, &m), HL_ERR_VALIDATION);
    HL_CHECK(has("uniform_block_count"));
    d.uniform_block_count = 0;
    hl_material_texture tex = {"t", NULL};
    d.textures = &tex;
    d.texture_count = UINT32_MAX;
    HL_CHECK_RESULT(hl_material_create_shader(&d, &m), HL_ERR_VALIDATION);
    HL_CHECK(has("texture_count"));
}

/* `test_scene_limits NAME` runs one case (each of them crashed the code before the fix). */
int main(int argc, char **argv) {
    static const struct {
        const char *name;
        void (*fn)(void);
    } cases[] = {{"vertex_block", test_vertex_block_overflow}, {"index_block", test_index_block_overflow},
                 {"update_ranges", test_update_ranges},        {"shapes", test_shape_limits},
                 {"std140_block", test_std140_block_overflow}, {"std140_write", test_std140_write_bounds},
                 {"material_counts", test_material_counts}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        if (argc < 2 || strcmp(argv[1], cases[i].name) == 0) cases[i].fn();
    return hl_test_finish();
}
