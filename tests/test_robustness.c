/* Robustness: public scene / geometry / material / texture / uniform / std140 / renderer / graph
 * calls with bad input (NULL objects and out-pointers, zero or oversized sizes, out-of-range
 * enums, wrong object kinds, NULL optional arguments). Every rejected call must return the
 * documented code with a non-empty hl_last_error() and never crash. */
#include <stdlib.h>

#include "hilo3d/hilo3d.h"
#include "hilo3d/renderer.h"
#include "hl_graph.h"
#include "hl_test.h"

static int g_calls;

/* Clears the last error, runs expr, checks the code and that a message was left. */
#define EXPECT_ERR(expr, code)                                                                         \
    do {                                                                                               \
        hl_clear_error();                                                                              \
        g_calls++;                                                                                     \
        HL_CHECK_RESULT(expr, code);                                                                   \
        HL_CHECK_MSG(hl_last_error()[0] != '\0', "%s: no hl_last_error message", #expr);               \
    } while (0)
#define EXPECT_OK(expr)                                                                                \
    do {                                                                                               \
        g_calls++;                                                                                     \
        HL_CHECK_OK(expr);                                                                             \
    } while (0)

static const char *k_vs = "#version 300 es\nin vec3 a_position;\n"
                          "void main() { gl_Position = vec4(a_position, 1.0); }\n";
static const char *k_fs = "#version 300 es\nprecision highp float;\nlayout(location = 0) out vec4 o;\n"
                          "void main() { o = vec4(1.0); }\n";

/* ---- geometry -------------------------------------------------------------------------------- */
static void test_geometry(void) {
    hl_geometry *g = NULL;
    float pos[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    hl_geometry_desc d = {0};
    d.vertex_count = 3;
    d.attributes[HL_ATTR_POSITION].data = pos;

    EXPECT_ERR(hl_geometry_create(NULL, &g), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_geometry_create(&d, NULL), HL_ERR_VALIDATION);
    hl_geometry_desc bad = d;
    bad.vertex_count = 0;
    EXPECT_ERR(hl_geometry_create(&bad, &g), HL_ERR_VALIDATION);
    bad = d;
    bad.attributes[HL_ATTR_POSITION].data = NULL;
    EXPECT_ERR(hl_geometry_create(&bad, &g), HL_ERR_VALIDATION);
    bad = d;
    bad.attributes[HL_ATTR_POSITION].type = (hl_component_type)99;
    EXPECT_ERR(hl_geometry_create(&bad, &g), HL_ERR_VALIDATION);
    bad = d;
    bad.attributes[HL_ATTR_POSITION].type = HL_COMPONENT_TYPE_COUNT;
    EXPECT_ERR(hl_geometry_create(&bad, &g), HL_ERR_VALIDATION);
    bad = d;
    bad.attributes[HL_ATTR_POSITION].components = 5;
    EXPECT_ERR(hl_geometry_create(&bad, &g), HL_ERR_VALIDATION);
    bad = d;
    bad.attributes[HL_ATTR_POSITION].type = HL_COMPONENT_UNORM8; /* UNORM8 x3 is not fetchable */
    bad.attributes[HL_ATTR_POSITION].components = 3;
    EXPECT_ERR(hl_geometry_create(&bad, &g), HL_ERR_VALIDATION);
    bad = d;
    bad.topology = (hl_topology)42;
    EXPECT_ERR(hl_geometry_create(&bad, &g), HL_ERR_VALIDATION);
    bad = d;
    bad.index_format = (hl_index_format)42;
    uint32_t idx[3] = {0, 1, 2};
    bad.indices = idx;
    bad.index_count = 3;
    EXPECT_ERR(hl_geometry_create(&bad, &g), HL_ERR_VALIDATION);
    bad = d;
    uint32_t idx_oob[3] = {0, 1, 3}; /* 3 >= vertex_count */
    bad.indices = idx_oob;
    bad.index_count = 3;
    EXPECT_ERR(hl_geometry_create(&bad, &g), HL_ERR_VALIDATION);
    bad = d;
    bad.indices = idx;
    bad.index_count = 0; /* indices given but no count */
    EXPECT_ERR(hl_geometry_create(&bad, &g), HL_ERR_VALIDATION);
    bad = d;
    bad.indices = NULL;
    bad.index_count = 3; /* count without indices */
    EXPECT_ERR(hl_geometry_create(&bad, &g), HL_ERR_VALIDATION);
    bad = d;
    bad.vertex_count = 0x7fffffffu; /* oversized: the byte count overflows 32 bits */
    EXPECT_ERR(hl_geometry_create(&bad, &g), HL_ERR_VALIDATION);
    HL_CHECK(g == NULL);

    /* generators: NULL desc allowed, NULL out is not, too few segments rejected */
    EXPECT_ERR(hl_geometry_create_box(NULL, NULL), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_geometry_create_sphere(NULL, NULL), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_geometry_create_plane(NULL, NULL), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_geometry_create_cylinder(NULL, NULL), HL_ERR_VALIDATION);
    hl_sphere_desc sd = {0.5f, 2, 16};
    EXPECT_ERR(hl_geometry_create_sphere(&sd, &g), HL_ERR_VALIDATION);
    sd = (hl_sphere_desc){0.5f, 8, 1};
    EXPECT_ERR(hl_geometry_create_sphere(&sd, &g), HL_ERR_VALIDATION);
    hl_cylinder_desc cd = {0};
    cd.radial_segments = 2;
    EXPECT_ERR(hl_geometry_create_cylinder(&cd, &g), HL_ERR_VALIDATION);
    hl_plane_desc pd = {1, 1, 100000, 100000}; /* too many vertices for the index formats */
    EXPECT_ERR(hl_geometry_create_plane(&pd, &g), HL_ERR_VALIDATION);
    HL_CHECK(g == NULL);
    hl_geometry *tmp = NULL;
    EXPECT_OK(hl_geometry_create_box(NULL, &tmp));
    hl_geometry_release(tmp);
    tmp = NULL;
    EXPECT_OK(hl_geometry_create_sphere(NULL, &tmp));
    hl_geometry_release(tmp);
    tmp = NULL;
    EXPECT_OK(hl_geometry_create_plane(NULL, &tmp));
    hl_geometry_release(tmp);
    tmp = NULL;
    EXPECT_OK(hl_geometry_create_cylinder(NULL, &tmp));
    hl_geometry_release(tmp);
    hl_geometry_release(NULL); /* documented no-op */

    d.indices = idx;
    d.index_count = 3;
    EXPECT_OK(hl_geometry_create(&d, &g));
    if (!g) return;
    float p3[3] = {1, 2, 3};
    EXPECT_ERR(hl_geometry_update_attribute(NULL, HL_ATTR_POSITION, 0, 1, p3), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_geometry_update_attribute(g, HL_ATTR_POSITION, 0, 1, NULL), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_geometry_update_attribute(g, HL_ATTR_NORMAL, 0, 1, p3), HL_ERR_VALIDATION); /* absent */
    EXPECT_ERR(hl_geometry_update_attribute(g, HL_ATTR_COUNT, 0, 1, p3), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_geometry_update_attribute(g, (hl_attribute)-1, 0, 1, p3), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_geometry_update_attribute(g, HL_ATTR_POSITION, 3, 1, p3), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_geometry_update_attribute(g, HL_ATTR_POSITION, 1, 3, p3), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_geometry_update_attribute(g, HL_ATTR_POSITION, UINT32_MAX, 2, p3), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_geometry_update_attribute(g, HL_ATTR_POSITION, 1, UINT32_MAX, p3), HL_ERR_VALIDATION);
    uint32_t i1 = 0, ibad = 3;
    EXPECT_ERR(hl_geometry_update_indices(NULL, 0, 1, &i1), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_geometry_update_indices(g, 0, 1, NULL), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_geometry_update_indices(g, 3, 1, &i1), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_geometry_update_indices(g, UINT32_MAX, 2, &i1), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_geometry_update_indices(g, 0, 1, &ibad), HL_ERR_VALIDATION); /* value >= vertex_count */
    float v4[4];
    EXPECT_ERR(hl_geometry_read_vertex(NULL, HL_ATTR_POSITION, 0, v4), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_geometry_read_vertex(g, HL_ATTR_POSITION, 0, NULL), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_geometry_read_vertex(g, HL_ATTR_NORMAL, 0, v4), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_geometry_read_vertex(g, HL_ATTR_COUNT, 0, v4), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_geometry_read_vertex(g, HL_ATTR_POSITION, 3, v4), HL_ERR_VALIDATION);
    EXPECT_OK(hl_geometry_read_vertex(g, HL_ATTR_POSITION, 2, v4));

    /* a non-indexed geometry rejects index updates */
    hl_geometry *ni = NULL;
    d.indices = NULL;
    d.index_count = 0;
    EXPECT_OK(hl_geometry_create(&d, &ni));
    if (ni) EXPECT_ERR(hl_geometry_update_indices(ni, 0, 1, &i1), HL_ERR_VALIDATION);
    hl_geometry_release(ni);

    HL_CHECK(hl_attribute_from_name(NULL) == HL_ATTR_COUNT);
    HL_CHECK(hl_attribute_from_name("NOPE") == HL_ATTR_COUNT);
    HL_CHECK(hl_attribute_name(HL_ATTR_COUNT) != NULL);
    HL_CHECK(hl_attribute_name((hl_attribute)1000) != NULL);
    HL_CHECK_EQ(hl_component_size((hl_component_type)77), 0);
    hl_geometry_release(g);
}

/* ---- textures -------------------------------------------------------------------------------- */
static void test_texture(void) {
    hl_texture *t = NULL;
    hl_texture_desc d = {0};
    d.width = 2;
    d.height = 2;
    EXPECT_ERR(hl_texture_create(NULL, &t), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_texture_create(&d, NULL), HL_ERR_VALIDATION);
    hl_texture_desc bad = d;
    bad.width = 0;
    EXPECT_ERR(hl_texture_create(&bad, &t), HL_ERR_VALIDATION);
    bad = d;
    bad.height = 0;
    EXPECT_ERR(hl_texture_create(&bad, &t), HL_ERR_VALIDATION);
    bad = d;
    bad.width = 16385;
    EXPECT_ERR(hl_texture_create(&bad, &t), HL_ERR_VALIDATION);
    bad = d;
    bad.width = UINT32_MAX;
    bad.height = UINT32_MAX;
    EXPECT_ERR(hl_texture_create(&bad, &t), HL_ERR_VALIDATION);
    bad = d;
    bad.mipmaps = (hl_mipmaps)9;
    EXPECT_ERR(hl_texture_create(&bad, &t), HL_ERR_VALIDATION);
    bad = d;
    bad.color_space = (hl_color_space)9;
    EXPECT_ERR(hl_texture_create(&bad, &t), HL_ERR_VALIDATION);
    bad = d;
    bad.sampler.wrap_u = (hl_wrap)9;
    EXPECT_ERR(hl_texture_create(&bad, &t), HL_ERR_VALIDATION);
    bad = d;
    bad.sampler.mip_filter = (hl_filter)9;
    EXPECT_ERR(hl_texture_create(&bad, &t), HL_ERR_VALIDATION);
    HL_CHECK(t == NULL);

    EXPECT_ERR(hl_texture_load_file(NULL, NULL, &t), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_texture_load_file("/nonexistent/robust.png", NULL, NULL), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_texture_load_file("/nonexistent/robust.png", NULL, &t), HL_ERR_IO);
    static const uint8_t junk[16] = {1, 2, 3, 4, 5, 6, 7, 8};
    EXPECT_ERR(hl_texture_load_memory(NULL, 16, NULL, &t), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_texture_load_memory(junk, 0, NULL, &t), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_texture_load_memory(junk, sizeof junk, NULL, NULL), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_texture_load_memory(junk, sizeof junk, NULL, &t), HL_ERR_PARSE);
    EXPECT_ERR(hl_texture_load_memory(junk, (size_t)1 << 40, &d, &t), HL_ERR_VALIDATION); /* width set */
    HL_CHECK(t == NULL);

    EXPECT_OK(hl_texture_create(&d, &t)); /* pixels NULL allowed */
    if (!t) return;
    uint8_t px[16] = {0};
    EXPECT_ERR(hl_texture_set_pixels(NULL, 2, 2, px, sizeof px), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_texture_set_pixels(t, 0, 2, px, sizeof px), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_texture_set_pixels(t, 2, 0, px, sizeof px), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_texture_set_pixels(t, 16385, 1, px, sizeof px), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_texture_set_pixels(t, 2, 2, NULL, sizeof px), HL_ERR_VALIDATION);
    EXPECT_OK(hl_texture_set_pixels(t, 2, 2, px, sizeof px));
    hl_sampler_desc s = {0};
    EXPECT_ERR(hl_texture_set_sampler(NULL, &s), HL_ERR_VALIDATION);
    s.wrap_v = (hl_wrap)-1;
    EXPECT_ERR(hl_texture_set_sampler(t, &s), HL_ERR_VALIDATION);
    s = (hl_sampler_desc){0};
    s.mag_filter = (hl_filter)7;
    EXPECT_ERR(hl_texture_set_sampler(t, &s), HL_ERR_VALIDATION);
    hl_texture_release(t);
    hl_texture_release(NULL);
}

/* ---- std140 / uniform buffers / registry ------------------------------------------------------- */
static void test_uniform(void) {
    hl_std140_member m[4];
    uint32_t size = 0;
    hl_std140_entry e[2] = {{"a", HL_STD140_VEC4, 0}, {"b", HL_STD140_FLOAT, 3}};
    EXPECT_ERR(hl_std140_compute(NULL, 1, m, &size), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_std140_compute(e, 0, m, &size), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_std140_compute(e, 2, NULL, &size), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_std140_compute(e, 2, m, NULL), HL_ERR_VALIDATION);
    hl_std140_entry be[2] = {{NULL, HL_STD140_VEC4, 0}};
    EXPECT_ERR(hl_std140_compute(be, 1, m, &size), HL_ERR_VALIDATION);
    be[0] = (hl_std140_entry){"", HL_STD140_VEC4, 0};
    EXPECT_ERR(hl_std140_compute(be, 1, m, &size), HL_ERR_VALIDATION);
    be[0] = (hl_std140_entry){"1x", HL_STD140_VEC4, 0};
    EXPECT_ERR(hl_std140_compute(be, 1, m, &size), HL_ERR_VALIDATION);
    be[0] = (hl_std140_entry){"x", HL_STD140_INVALID, 0};
    EXPECT_ERR(hl_std140_compute(be, 1, m, &size), HL_ERR_VALIDATION);
    be[0] = (hl_std140_entry){"x", HL_STD140_TYPE_COUNT, 0};
    EXPECT_ERR(hl_std140_compute(be, 1, m, &size), HL_ERR_VALIDATION);
    be[0] = (hl_std140_entry){"x", (hl_std140_type)-3, 0};
    EXPECT_ERR(hl_std140_compute(be, 1, m, &size), HL_ERR_VALIDATION);
    be[0] = (hl_std140_entry){"x", HL_STD140_VEC4, 0};
    be[1] = (hl_std140_entry){"x", HL_STD140_FLOAT, 0};
    EXPECT_ERR(hl_std140_compute(be, 2, m, &size), HL_ERR_VALIDATION);
    be[1] = (hl_std140_entry){"y", HL_STD140_MAT4, 0x10000000u}; /* oversized array */
    EXPECT_ERR(hl_std140_compute(be, 2, m, &size), HL_ERR_VALIDATION);
    EXPECT_OK(hl_std140_compute(e, 2, m, &size));

    uint8_t block[64] = {0};
    float vals[16] = {0};
    EXPECT_ERR(hl_std140_write(NULL, 64, &m[0], HL_STD140_VEC4, 0, vals, 4, NULL, NULL, NULL), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_std140_write(block, 64, NULL, HL_STD140_VEC4, 0, vals, 4, NULL, NULL, NULL), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_std140_write(block, 64, &m[0], HL_STD140_VEC4, 0, NULL, 4, NULL, NULL, NULL), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_std140_write(block, 64, &m[0], HL_STD140_VEC4, 0, vals, 3, NULL, NULL, NULL), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_std140_write(block, 64, &m[0], HL_STD140_INVALID, 0, vals, 0, NULL, NULL, NULL),
               HL_ERR_VALIDATION);
    EXPECT_ERR(hl_std140_write(block, 64, &m[0], (hl_std140_type)99, 0, vals, 4, NULL, NULL, NULL),
               HL_ERR_VALIDATION);
    EXPECT_ERR(hl_std140_write(block, 8, &m[0], HL_STD140_VEC4, 0, vals, 4, NULL, NULL, NULL), HL_ERR_VALIDATION);
    hl_std140_member far = m[0];
    far.offset = UINT32_MAX - 4;
    EXPECT_ERR(hl_std140_write(block, 64, &far, HL_STD140_VEC4, 0, vals, 4, NULL, NULL, NULL), HL_ERR_VALIDATION);
    EXPECT_OK(hl_std140_write(block, 64, &m[0], HL_STD140_VEC4, 0, vals, 4, NULL, NULL, NULL)); /* optionals NULL */
    HL_CHECK(hl_std140_type_from_name(NULL) == HL_STD140_INVALID);
    HL_CHECK(hl_std140_type_name((hl_std140_type)99) != NULL);
    HL_CHECK_EQ(hl_std140_type_scalars((hl_std140_type)99), 0);

    hl_std140_layout *l = NULL;
    EXPECT_ERR(hl_std140_layout_create(NULL, 1, &l), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_std140_layout_create(e, 0, &l), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_std140_layout_create(e, 2, NULL), HL_ERR_VALIDATION);
    EXPECT_OK(hl_std140_layout_create(be, 1, &l));
    hl_std140_layout_release(l);
    l = NULL;
    be[0] = (hl_std140_entry){"dup", HL_STD140_VEC4, 0};
    be[1] = (hl_std140_entry){"dup", HL_STD140_VEC4, 0};
    EXPECT_ERR(hl_std140_layout_create(be, 2, &l), HL_ERR_VALIDATION);
    HL_CHECK(l == NULL);
    EXPECT_OK(hl_std140_layout_create(e, 2, &l));
    if (!l) return;
    HL_CHECK(hl_std140_layout_member(l, 2, NULL, NULL, NULL) == NULL);
    HL_CHECK(hl_std140_layout_member(l, 0, NULL, NULL, NULL) != NULL); /* optional outs NULL */
    HL_CHECK_EQ(hl_std140_layout_find(l, NULL), -1);
    HL_CHECK_EQ(hl_std140_layout_find(l, "zz"), -1);

    hl_uniform_buffer *ub = NULL;
    EXPECT_ERR(hl_uniform_buffer_create(NULL, &ub), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_uniform_buffer_create(l, NULL), HL_ERR_VALIDATION);
    EXPECT_OK(hl_uniform_buffer_create(l, &ub));
    if (ub) {
        EXPECT_ERR(hl_uniform_buffer_set(NULL, "a", vals, 4), HL_ERR_VALIDATION);
        EXPECT_ERR(hl_uniform_buffer_set(ub, NULL, vals, 4), HL_ERR_VALIDATION);
        EXPECT_ERR(hl_uniform_buffer_set(ub, "a", NULL, 4), HL_ERR_VALIDATION);
        EXPECT_ERR(hl_uniform_buffer_set(ub, "zz", vals, 4), HL_ERR_NOT_FOUND);
        EXPECT_ERR(hl_uniform_buffer_set(ub, "a", vals, 3), HL_ERR_VALIDATION);
        EXPECT_ERR(hl_uniform_buffer_set(ub, "a", vals, 0), HL_ERR_VALIDATION);
        EXPECT_ERR(hl_uniform_buffer_set(ub, "b", vals, 4), HL_ERR_VALIDATION);
        EXPECT_ERR(hl_uniform_buffer_set_index(NULL, 0, vals, 4), HL_ERR_VALIDATION);
        EXPECT_ERR(hl_uniform_buffer_set_index(ub, 2, vals, 4), HL_ERR_NOT_FOUND); /* like an unknown name */
        EXPECT_ERR(hl_uniform_buffer_set_index(ub, UINT32_MAX, vals, 4), HL_ERR_NOT_FOUND);
        EXPECT_ERR(hl_uniform_buffer_set_index(ub, 0, NULL, 4), HL_ERR_VALIDATION);
        EXPECT_OK(hl_uniform_buffer_set(ub, "b", vals, 3));
    }
    hl_std140_layout_release(l);
    hl_std140_layout_release(NULL);

    /* registry */
    hl_uniform_block_bindings_reset();
    uint32_t b = 0;
    EXPECT_ERR(hl_register_uniform_block_binding(NULL, &b), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_register_uniform_block_binding("", &b), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_register_uniform_block_binding("9bad", &b), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_register_uniform_block_binding("has space", &b), HL_ERR_VALIDATION);
    char longname[80];
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    EXPECT_ERR(hl_register_uniform_block_binding(longname, &b), HL_ERR_VALIDATION);
    EXPECT_OK(hl_register_uniform_block_binding("RobustBlock", NULL)); /* out optional */
    HL_CHECK(!hl_uniform_block_binding(NULL, &b));
    HL_CHECK(hl_uniform_block_binding("RobustBlock", NULL));
    char name[16];
    for (uint32_t i = hl_uniform_block_binding_count(); i < HL_MAX_UNIFORM_BLOCKS; i++) {
        snprintf(name, sizeof name, "Blk%u", (unsigned)i);
        EXPECT_OK(hl_register_uniform_block_binding(name, NULL));
    }
    EXPECT_OK(hl_register_uniform_block_binding("RobustBlock", &b)); /* idempotent even when full */
    EXPECT_ERR(hl_register_uniform_block_binding("OneTooMany", &b), HL_ERR_VALIDATION);
    hl_uniform_block_bindings_reset();
    hl_uniform_buffer_release(ub);
    hl_uniform_buffer_release(NULL);
}

/* ---- materials ------------------------------------------------------------------------------- */
static void test_material(void) {
    hl_material *m = NULL;
    EXPECT_ERR(hl_material_create_basic(NULL, NULL), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_material_create_pbr(NULL, NULL), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_material_create_shader(NULL, &m), HL_ERR_VALIDATION);
    hl_basic_material_desc bd = {0};
    bd.state.alpha_mode = (hl_alpha_mode)9;
    EXPECT_ERR(hl_material_create_basic(&bd, &m), HL_ERR_VALIDATION);
    bd = (hl_basic_material_desc){0};
    bd.state.depth_test = (hl_toggle)9;
    EXPECT_ERR(hl_material_create_basic(&bd, &m), HL_ERR_VALIDATION);
    bd = (hl_basic_material_desc){0};
    bd.state.depth_write = (hl_toggle)-1;
    EXPECT_ERR(hl_material_create_basic(&bd, &m), HL_ERR_VALIDATION);
    bd = (hl_basic_material_desc){0};
    bd.texture.texcoord = 2;
    EXPECT_ERR(hl_material_create_basic(&bd, &m), HL_ERR_VALIDATION);
    hl_pbr_material_desc pd = {0};
    pd.metallic = 2.0f;
    EXPECT_ERR(hl_material_create_pbr(&pd, &m), HL_ERR_VALIDATION);
    pd = (hl_pbr_material_desc){0};
    pd.roughness = -1.0f;
    EXPECT_ERR(hl_material_create_pbr(&pd, &m), HL_ERR_VALIDATION);
    pd = (hl_pbr_material_desc){0};
    pd.textures[HL_TEXTURE_NORMAL].texcoord = 5;
    EXPECT_ERR(hl_material_create_pbr(&pd, &m), HL_ERR_VALIDATION);
    hl_shader_material_desc sd = {0};
    sd.fs = k_fs;
    EXPECT_ERR(hl_material_create_shader(&sd, &m), HL_ERR_VALIDATION); /* vs missing */
    sd.vs = k_vs;
    sd.fs = NULL;
    EXPECT_ERR(hl_material_create_shader(&sd, &m), HL_ERR_VALIDATION); /* fs missing */
    sd.fs = k_fs;
    EXPECT_ERR(hl_material_create_shader(&sd, NULL), HL_ERR_VALIDATION);
    sd.attribute_count = 1; /* count without array */
    EXPECT_ERR(hl_material_create_shader(&sd, &m), HL_ERR_VALIDATION);
    hl_material_attribute attr = {NULL, HL_ATTR_POSITION};
    sd.attributes = &attr;
    EXPECT_ERR(hl_material_create_shader(&sd, &m), HL_ERR_VALIDATION); /* attribute name NULL */
    attr = (hl_material_attribute){"a_position", HL_ATTR_COUNT};
    EXPECT_ERR(hl_material_create_shader(&sd, &m), HL_ERR_VALIDATION); /* semantic out of range */
    attr.semantic = HL_ATTR_POSITION;
    sd.uniform_block_count = 1;
    EXPECT_ERR(hl_material_create_shader(&sd, &m), HL_ERR_VALIDATION); /* blocks NULL */
    hl_material_uniform_block blk = {"Blk", NULL};
    sd.uniform_blocks = &blk;
    EXPECT_ERR(hl_material_create_shader(&sd, &m), HL_ERR_VALIDATION); /* block buffer NULL */
    sd.uniform_block_count = 0;
    sd.texture_count = 1;
    EXPECT_ERR(hl_material_create_shader(&sd, &m), HL_ERR_VALIDATION); /* textures NULL */
    hl_material_texture mt = {NULL, NULL};
    sd.textures = &mt;
    EXPECT_ERR(hl_material_create_shader(&sd, &m), HL_ERR_VALIDATION); /* sampler name NULL */
    sd.texture_count = 0;
    sd.state.alpha_mode = (hl_alpha_mode)7;
    EXPECT_ERR(hl_material_create_shader(&sd, &m), HL_ERR_VALIDATION);
    sd.state.alpha_mode = HL_ALPHA_OPAQUE;
    HL_CHECK(m == NULL);

    hl_material *basic = NULL, *pbr = NULL, *shader = NULL;
    EXPECT_OK(hl_material_create_basic(NULL, &basic)); /* desc may be NULL */
    EXPECT_OK(hl_material_create_pbr(NULL, &pbr));
    EXPECT_OK(hl_material_create_shader(&sd, &shader));
    hl_texture *tex = NULL;
    hl_texture_desc td = {.width = 1, .height = 1};
    EXPECT_OK(hl_texture_create(&td, &tex));
    if (!basic || !pbr || !shader || !tex) goto done;

    hl_color c = {1, 1, 1, 1};
    /* NULL material */
    EXPECT_ERR(hl_material_set_color(NULL, c), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_material_set_metallic_roughness(NULL, 0, 1), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_material_set_emissive(NULL, (hl_vec3){0}), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_material_set_texture(NULL, HL_TEXTURE_BASE_COLOR, tex, 0), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_material_set_alpha_mode(NULL, HL_ALPHA_BLEND, 0), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_material_set_double_sided(NULL, true), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_material_set_state(NULL, &(hl_material_state){0}), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_material_set_uniform_block(NULL, "Blk", NULL), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_material_set_named_texture(NULL, "s", tex), HL_ERR_VALIDATION);
    /* wrong kinds */
    EXPECT_ERR(hl_material_set_metallic_roughness(basic, 0, 1), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_material_set_emissive(basic, (hl_vec3){1, 0, 0}), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_material_set_texture(basic, HL_TEXTURE_NORMAL, tex, 0), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_material_set_color(shader, c), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_material_set_metallic_roughness(shader, 0, 1), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_material_set_emissive(shader, (hl_vec3){1, 0, 0}), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_material_set_texture(shader, HL_TEXTURE_BASE_COLOR, tex, 0), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_material_set_uniform_block(basic, "Blk", NULL), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_material_set_uniform_block(pbr, "Blk", NULL), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_material_set_named_texture(basic, "s", tex), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_material_set_named_texture(pbr, "s", tex), HL_ERR_VALIDATION);
    /* out-of-range values */
    EXPECT_ERR(hl_material_set_metallic_roughness(pbr, 1.5f, 0.5f), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_material_set_metallic_roughness(pbr, 0.5f, -0.1f), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_material_set_texture(pbr, HL_TEXTURE_SLOT_COUNT, tex, 0), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_material_set_texture(pbr, (hl_texture_slot)-1, tex, 0), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_material_set_texture(pbr, HL_TEXTURE_EMISSIVE, tex, 2), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_material_set_alpha_mode(pbr, (hl_alpha_mode)3, 0), HL_ERR_VALIDATION);
    EXPECT_OK(hl_material_set_state(pbr, NULL)); /* NULL = default state (as implemented) */
    hl_material_state st = {0};
    st.depth_test = (hl_toggle)3;
    EXPECT_ERR(hl_material_set_state(pbr, &st), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_material_set_uniform_block(shader, NULL, NULL), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_material_set_named_texture(shader, NULL, tex), HL_ERR_VALIDATION);
    /* documented NULL optionals */
    EXPECT_OK(hl_material_set_texture(pbr, HL_TEXTURE_EMISSIVE, NULL, 0)); /* removes the map */
    EXPECT_OK(hl_material_set_texture(basic, HL_TEXTURE_BASE_COLOR, tex, 1));
    HL_CHECK(hl_material_get_texture(basic, HL_TEXTURE_BASE_COLOR, NULL) == tex); /* texcoord optional */
    HL_CHECK(hl_material_get_texture(basic, HL_TEXTURE_SLOT_COUNT, NULL) == NULL);
    EXPECT_OK(hl_material_set_alpha_mode(basic, HL_ALPHA_MASK, 0));
    uint32_t n = 99;
    HL_CHECK(hl_material_shader_attributes(basic, &n) == NULL && n == 0);
    HL_CHECK(hl_material_shader_vs(pbr) == NULL);
done:
    hl_texture_release(tex);
    hl_material_release(basic);
    hl_material_release(pbr);
    hl_material_release(shader);
    hl_material_release(NULL);
}

/* ---- scene ----------------------------------------------------------------------------------- */
static void test_scene(void) {
    hl_stage *s = NULL;
    hl_node *a = NULL, *b = NULL;
    EXPECT_ERR(hl_stage_create(NULL), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_node_create("x", NULL), HL_ERR_VALIDATION);
    EXPECT_OK(hl_node_create(NULL, &a)); /* name may be NULL */
    EXPECT_OK(hl_node_create("b", &b));
    EXPECT_OK(hl_stage_create(&s));
    if (!a || !b || !s) return;
    HL_CHECK(strcmp(hl_node_name(a), "") == 0);
    EXPECT_OK(hl_node_set_name(a, NULL));
    EXPECT_ERR(hl_node_set_name(NULL, "n"), HL_ERR_VALIDATION);

    EXPECT_ERR(hl_node_add_child(NULL, b), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_node_add_child(a, NULL), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_node_add_child(a, a), HL_ERR_VALIDATION);
    EXPECT_OK(hl_node_add_child(a, b));
    EXPECT_ERR(hl_node_add_child(b, a), HL_ERR_VALIDATION); /* ancestor */
    EXPECT_ERR(hl_node_add_child(a, b), HL_ERR_VALIDATION); /* already has a parent */
    EXPECT_ERR(hl_node_add_child(a, hl_stage_root(s)), HL_ERR_VALIDATION); /* stage root */
    EXPECT_ERR(hl_node_remove_child(NULL, b), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_node_remove_child(a, NULL), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_node_remove_child(b, a), HL_ERR_NOT_FOUND);
    EXPECT_ERR(hl_stage_add(NULL, a), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_stage_add(s, NULL), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_stage_add(s, b), HL_ERR_VALIDATION); /* b has a parent */
    EXPECT_OK(hl_stage_add(s, a));
    EXPECT_ERR(hl_stage_add(s, a), HL_ERR_VALIDATION); /* already added */
    EXPECT_ERR(hl_stage_update(NULL), HL_ERR_VALIDATION);
    EXPECT_OK(hl_stage_update(s));
    HL_CHECK(hl_node_find(a, NULL) == NULL);
    hl_stage_set_fog(s, NULL); /* NULL = no fog */
    hl_fog fog = {(hl_fog_mode)17, {0, 0, 0, 1}, 0, 0, 0};
    hl_stage_set_fog(s, &fog); /* void: an out-of-range mode must not crash */
    EXPECT_OK(hl_stage_update(s));
    uint32_t cnt = 7;
    (void)hl_stage_meshes(s, &cnt);

    /* meshes */
    hl_mesh *mesh = NULL;
    hl_geometry *geo = NULL;
    hl_material *mat = NULL;
    EXPECT_OK(hl_geometry_create_box(NULL, &geo));
    EXPECT_OK(hl_material_create_basic(NULL, &mat));
    hl_mesh_desc md = {0};
    EXPECT_ERR(hl_mesh_create(NULL, &mesh), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_mesh_create(&md, &mesh), HL_ERR_VALIDATION); /* no geometry, no material */
    md.geometry = geo;
    EXPECT_ERR(hl_mesh_create(&md, &mesh), HL_ERR_VALIDATION); /* no material */
    md.geometry = NULL;
    md.material = mat;
    EXPECT_ERR(hl_mesh_create(&md, &mesh), HL_ERR_VALIDATION); /* no geometry */
    md.geometry = geo;
    EXPECT_ERR(hl_mesh_create(&md, NULL), HL_ERR_VALIDATION);
    HL_CHECK(mesh == NULL);
    EXPECT_OK(hl_mesh_create(&md, &mesh));
    if (mesh) {
        EXPECT_ERR(hl_mesh_set_geometry(NULL, geo), HL_ERR_VALIDATION);
        EXPECT_ERR(hl_mesh_set_geometry(mesh, NULL), HL_ERR_VALIDATION);
        EXPECT_ERR(hl_mesh_set_material(NULL, mat), HL_ERR_VALIDATION);
        EXPECT_ERR(hl_mesh_set_material(mesh, NULL), HL_ERR_VALIDATION);
        HL_CHECK(hl_node_mesh(a) == NULL);
        HL_CHECK(hl_node_camera(hl_mesh_node(mesh)) == NULL);
        HL_CHECK(hl_node_light(hl_mesh_node(mesh)) == NULL);
        EXPECT_OK(hl_node_add_child(b, hl_mesh_node(mesh)));
    }
    hl_geometry_release(geo);
    hl_material_release(mat);

    /* cameras */
    hl_camera *cam = NULL;
    EXPECT_ERR(hl_camera_create(NULL, NULL), HL_ERR_VALIDATION);
    hl_camera_desc cd = {0};
    cd.projection = (hl_projection)5;
    EXPECT_ERR(hl_camera_create(&cd, &cam), HL_ERR_VALIDATION);
    cd = (hl_camera_desc){0};
    cd.fov_y_deg = 180.0f;
    EXPECT_ERR(hl_camera_create(&cd, &cam), HL_ERR_VALIDATION);
    cd = (hl_camera_desc){0};
    cd.fov_y_deg = -10.0f;
    EXPECT_ERR(hl_camera_create(&cd, &cam), HL_ERR_VALIDATION);
    cd = (hl_camera_desc){0};
    cd.aspect = -1.0f;
    EXPECT_ERR(hl_camera_create(&cd, &cam), HL_ERR_VALIDATION);
    cd = (hl_camera_desc){0};
    cd.near_plane = 10.0f;
    cd.far_plane = 1.0f;
    EXPECT_ERR(hl_camera_create(&cd, &cam), HL_ERR_VALIDATION);
    cd = (hl_camera_desc){0};
    cd.near_plane = -1.0f;
    EXPECT_ERR(hl_camera_create(&cd, &cam), HL_ERR_VALIDATION);
    cd = (hl_camera_desc){0};
    cd.projection = HL_PROJECTION_ORTHOGRAPHIC;
    cd.left = 1.0f;
    cd.right = 1.0f;
    EXPECT_ERR(hl_camera_create(&cd, &cam), HL_ERR_VALIDATION);
    HL_CHECK(cam == NULL);
    EXPECT_OK(hl_camera_create(NULL, &cam)); /* desc may be NULL */
    if (cam) {
        EXPECT_ERR(hl_camera_set_desc(NULL, NULL), HL_ERR_VALIDATION);
        cd = (hl_camera_desc){0};
        cd.projection = (hl_projection)5;
        EXPECT_ERR(hl_camera_set_desc(cam, &cd), HL_ERR_VALIDATION);
        EXPECT_OK(hl_camera_set_desc(cam, NULL)); /* same defaults as create */
        HL_CHECK(hl_node_mesh(hl_camera_node(cam)) == NULL);
    }

    /* lights */
    hl_light *light = NULL;
    hl_light_desc ld = {0};
    EXPECT_ERR(hl_light_create(NULL, &light), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_light_create(&ld, NULL), HL_ERR_VALIDATION);
    ld.kind = (hl_light_kind)9;
    EXPECT_ERR(hl_light_create(&ld, &light), HL_ERR_VALIDATION);
    ld = (hl_light_desc){0};
    ld.kind = HL_LIGHT_POINT;
    ld.range = -1.0f;
    EXPECT_ERR(hl_light_create(&ld, &light), HL_ERR_VALIDATION);
    ld = (hl_light_desc){0};
    ld.kind = HL_LIGHT_SPOT;
    ld.outer_cone_deg = 120.0f;
    EXPECT_ERR(hl_light_create(&ld, &light), HL_ERR_VALIDATION);
    ld = (hl_light_desc){0};
    ld.kind = HL_LIGHT_SPOT;
    ld.outer_cone_deg = 20.0f;
    ld.inner_cone_deg = 40.0f;
    EXPECT_ERR(hl_light_create(&ld, &light), HL_ERR_VALIDATION);
    ld = (hl_light_desc){0};
    ld.kind = HL_LIGHT_AMBIENT;
    ld.cast_shadows = true; /* ambient never casts */
    EXPECT_ERR(hl_light_create(&ld, &light), HL_ERR_VALIDATION);
    ld = (hl_light_desc){0};
    ld.kind = HL_LIGHT_DIRECTIONAL;
    ld.intensity = -2.0f;
    EXPECT_ERR(hl_light_create(&ld, &light), HL_ERR_VALIDATION);
    ld = (hl_light_desc){0};
    ld.kind = HL_LIGHT_DIRECTIONAL;
    ld.cast_shadows = true;
    ld.shadow.map_size = 1u << 20;
    EXPECT_ERR(hl_light_create(&ld, &light), HL_ERR_VALIDATION);
    HL_CHECK(light == NULL);
    ld = (hl_light_desc){0};
    ld.kind = HL_LIGHT_DIRECTIONAL;
    EXPECT_OK(hl_light_create(&ld, &light));
    if (light) {
        EXPECT_ERR(hl_light_set_desc(NULL, &ld), HL_ERR_VALIDATION);
        EXPECT_ERR(hl_light_set_desc(light, NULL), HL_ERR_VALIDATION);
        ld.kind = (hl_light_kind)-1;
        EXPECT_ERR(hl_light_set_desc(light, &ld), HL_ERR_VALIDATION);
        EXPECT_OK(hl_node_add_child(a, hl_light_node(light)));
    }
    EXPECT_OK(hl_stage_update(s));

    /* a node that is not a stage root but belongs to a stage cannot join another parent */
    hl_node *c = NULL;
    EXPECT_OK(hl_node_create("c", &c));
    if (c) {
        EXPECT_ERR(hl_node_add_child(c, b), HL_ERR_VALIDATION);
        hl_node_destroy(c);
    }
    hl_node_destroy(NULL);
    hl_stage_destroy(s);
    hl_stage_destroy(NULL);
    if (cam) hl_node_destroy(hl_camera_node(cam));
}

/* ---- renderer (gles3) ------------------------------------------------------------------------ */
static hl_result frame_cb_nulls(hl_render_frame *f, void *user) {
    (void)user;
    hl_result r1 = hl_render_frame_render_to_target(f, NULL, NULL, NULL);
    if (r1 != HL_ERR_VALIDATION || !hl_last_error()[0]) return HL_ERR_BACKEND;
    hl_result r3 = hl_render_frame_present(f, NULL);
    if (r3 != HL_ERR_VALIDATION || !hl_last_error()[0]) return HL_ERR_BACKEND;
    void **sc = user;
    return hl_render_frame_render(f, sc[0], sc[1]); /* the frame still works */
}

/* A recording call that fails inside the frame fails the whole frame (sticky frame error). */
static hl_result frame_cb_null_stage(hl_render_frame *f, void *user) {
    (void)user;
    hl_result r2 = hl_render_frame_render(f, NULL, NULL);
    if (r2 != HL_ERR_VALIDATION || !hl_last_error()[0]) return HL_ERR_BACKEND;
    return HL_OK;
}

static hl_result frame_cb_fail(hl_render_frame *f, void *user) {
    (void)f;
    (void)user;
    return HL_ERR_VALIDATION; /* a callback failure without a message of its own */
}

static void test_renderer(void) {
    hl_renderer *r = NULL;
    hl_backend be;
    EXPECT_ERR(hl_backend_parse(NULL, &be), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_backend_parse("gles3", NULL), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_backend_parse("metal", &be), HL_ERR_VALIDATION);
    HL_CHECK(hl_backend_name((hl_backend)9) != NULL);

    hl_renderer_desc rd = {0};
    rd.backend = HL_BACKEND_GLES3;
    rd.width = 32;
    rd.height = 32;
    rd.sample_count = 1;
    EXPECT_ERR(hl_renderer_create(&rd, NULL), HL_ERR_VALIDATION);
    hl_renderer_desc bad = rd;
    bad.backend = (hl_backend)7;
    EXPECT_ERR(hl_renderer_create(&bad, &r), HL_ERR_VALIDATION);
    bad = rd;
    bad.sample_count = 2;
    EXPECT_ERR(hl_renderer_create(&bad, &r), HL_ERR_VALIDATION);
    bad = rd;
    bad.shadow_atlas_size = 1u << 20;
    EXPECT_ERR(hl_renderer_create(&bad, &r), HL_ERR_VALIDATION);
    bad = rd;
    bad.width = 1u << 20;
    EXPECT_ERR(hl_renderer_create(&bad, &r), HL_ERR_VALIDATION);
    HL_CHECK(r == NULL);
    EXPECT_OK(hl_renderer_create(&rd, &r));
    if (!r) return;

    hl_stage *s = NULL;
    hl_camera *cam = NULL;
    EXPECT_OK(hl_stage_create(&s));
    EXPECT_OK(hl_camera_create(NULL, &cam));
    const size_t px_size = 32 * 32 * 8;
    uint8_t *px = malloc(px_size);

    EXPECT_ERR(hl_renderer_resize(NULL, 8, 8), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_renderer_resize(r, 0, 8), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_renderer_resize(r, 8, 0), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_renderer_resize(r, 1u << 20, 8), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_renderer_render(NULL, s, cam), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_renderer_render(r, NULL, cam), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_renderer_render(r, s, NULL), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_renderer_read_pixels(NULL, px, px_size), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_renderer_read_pixels(r, NULL, px_size), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_renderer_read_pixels(r, px, 100), HL_ERR_VALIDATION); /* 32x32 RGBA8 needs 4096 */
    EXPECT_ERR(hl_renderer_wait_idle(NULL), HL_ERR_VALIDATION);
    EXPECT_OK(hl_renderer_render(r, s, cam));
    EXPECT_OK(hl_renderer_read_pixels(r, px, px_size));

    /* render targets */
    hl_render_target *t = NULL;
    hl_render_target_desc td = {0};
    EXPECT_ERR(hl_render_target_create(NULL, &td, &t), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_render_target_create(r, &td, NULL), HL_ERR_VALIDATION);
    hl_render_target_desc tb = td;
    tb.color_count = 5;
    EXPECT_ERR(hl_render_target_create(r, &tb, &t), HL_ERR_VALIDATION);
    tb = td;
    tb.sample_count = 3;
    EXPECT_ERR(hl_render_target_create(r, &tb, &t), HL_ERR_VALIDATION);
    tb = td;
    tb.formats[0] = (hl_target_format)9;
    EXPECT_ERR(hl_render_target_create(r, &tb, &t), HL_ERR_VALIDATION);
    tb = td;
    tb.width = 1u << 20;
    EXPECT_ERR(hl_render_target_create(r, &tb, &t), HL_ERR_VALIDATION);
    HL_CHECK(t == NULL);
    EXPECT_OK(hl_render_target_create(r, NULL, &t)); /* NULL desc = all defaults (as implemented) */
    if (t) {
        hl_render_target_destroy(r, t);
        t = NULL;
    }
    EXPECT_OK(hl_render_target_create(r, &td, &t));
    if (t) {
        EXPECT_ERR(hl_render_target_resize(NULL, t, 8, 8), HL_ERR_VALIDATION);
        EXPECT_ERR(hl_render_target_resize(r, NULL, 8, 8), HL_ERR_VALIDATION);
        EXPECT_ERR(hl_render_target_resize(r, t, 0, 8), HL_ERR_VALIDATION);
        EXPECT_ERR(hl_render_target_resize(r, t, 8, 1u << 20), HL_ERR_VALIDATION);
        EXPECT_ERR(hl_renderer_render_to_target(NULL, t, s, cam), HL_ERR_VALIDATION);
        EXPECT_ERR(hl_renderer_render_to_target(r, NULL, s, cam), HL_ERR_VALIDATION);
        EXPECT_ERR(hl_renderer_render_to_target(r, t, NULL, cam), HL_ERR_VALIDATION);
        EXPECT_ERR(hl_renderer_render_to_target(r, t, s, NULL), HL_ERR_VALIDATION);
        EXPECT_ERR(hl_render_target_read(NULL, t, 0, px, px_size), HL_ERR_VALIDATION);
        EXPECT_ERR(hl_render_target_read(r, NULL, 0, px, px_size), HL_ERR_VALIDATION);
        EXPECT_ERR(hl_render_target_read(r, t, 0, NULL, px_size), HL_ERR_VALIDATION);
        EXPECT_ERR(hl_render_target_read(r, t, 1, px, px_size), HL_ERR_VALIDATION); /* one attachment */
        EXPECT_ERR(hl_render_target_read(r, t, UINT32_MAX, px, px_size), HL_ERR_VALIDATION);
        EXPECT_ERR(hl_render_target_read(r, t, 0, px, hl_render_target_read_size(t, 0) - 1), HL_ERR_VALIDATION);
        HL_CHECK(hl_render_target_texture(t, 1) == NULL);
        HL_CHECK(hl_render_target_texture(t, 99) == NULL);
        HL_CHECK(hl_render_target_texture(NULL, 0) == NULL);
        EXPECT_OK(hl_renderer_render_to_target(r, t, s, cam));
        EXPECT_OK(hl_render_target_read(r, t, 0, px, px_size));
    }

    /* frames */
    EXPECT_ERR(hl_renderer_render_frame(NULL, frame_cb_nulls, NULL), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_renderer_render_frame(r, NULL, NULL), HL_ERR_VALIDATION);
    void *sc[2] = {s, cam};
    EXPECT_OK(hl_renderer_render_frame(r, frame_cb_nulls, sc));
    EXPECT_ERR(hl_renderer_render_frame(r, frame_cb_null_stage, NULL), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_renderer_render_frame(r, frame_cb_fail, NULL), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_render_frame_render(NULL, s, cam), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_render_frame_present(NULL, t), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_render_frame_render_to_target(NULL, t, s, cam), HL_ERR_VALIDATION);
    /* the renderer still works after the failures */
    EXPECT_OK(hl_renderer_render(r, s, cam));

    hl_render_target_destroy(r, NULL);
    EXPECT_ERR(hl_render_target_destroy(NULL, t), HL_ERR_VALIDATION); /* NULL renderer: refused (t is destroyed below) */
    hl_render_target_destroy(r, t);
    free(px);
    hl_node_destroy(hl_camera_node(cam));
    hl_stage_destroy(s);
    hl_renderer_destroy(r);
    hl_renderer_destroy(NULL);
}

/* ---- render graph (null RHI device) -------------------------------------------------------- */
static hl_result setup_bad(hl_graph_pass_builder *b, void *params, void *user) {
    (void)params;
    hl_graph_texture *tex = user;
    int *fails = (int *)(tex + 1);
    /* each must be rejected with a message; the first failure is kept as the build error */
    const hl_graph_texture zero = {0};
    const hl_graph_buffer zb = {0};
    hl_result r[] = {
        hl_graph_read_texture(b, zero),
        hl_graph_color_attachment(b, HL_RHI_MAX_COLOR_ATTACHMENTS, *tex, NULL),
        hl_graph_color_attachment(b, 0, zero, NULL),
        hl_graph_depth_attachment(b, zero, NULL),
        hl_graph_resolve_attachment(b, 99, *tex),
        hl_graph_copy_texture(b, zero, *tex),
        hl_graph_copy_buffer(b, zb, zb),
        hl_graph_copy_texture_to_buffer(b, *tex, zb),
        hl_graph_copy_buffer_to_texture(b, zb, *tex),
        hl_graph_storage_read(b, zb),
        hl_graph_storage_write(b, zb),
        hl_graph_storage_read_write(b, zb),
        hl_graph_storage_write_texture(b, zero),
        hl_graph_uniform_read(b, zb),
        hl_graph_vertex_read(b, zb),
        hl_graph_index_read(b, zb),
        hl_graph_indirect_read(b, zb),
        hl_graph_clear_buffer(b, zb),
        hl_graph_clear_texture(b, zero, NULL),
        hl_graph_depends_on(b, (hl_graph_pass){0}),
        hl_graph_output_texture(b, zero),
        hl_graph_output_buffer(b, zb),
        hl_graph_extract_texture_in(b, zero),
        hl_graph_extract_buffer_in(b, zb),
        hl_graph_read_texture(NULL, *tex),
        hl_graph_side_effect(NULL),
        hl_graph_color_attachment(NULL, 0, *tex, NULL),
    };
    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++)
        if (r[i] == HL_OK) ++*fails;
    g_calls += (int)(sizeof r / sizeof r[0]);
    return HL_OK;
}

static hl_result setup_never(hl_graph_pass_builder *b, void *params, void *user) {
    (void)b;
    (void)params;
    (void)user;
    HL_CHECK_MSG(0, "setup called for a pass that could not get its parameter block");
    return HL_OK;
}

static hl_result setup_side_effect(hl_graph_pass_builder *b, void *params, void *user) {
    (void)params;
    (void)user;
    return hl_graph_side_effect(b);
}

static hl_result prepare_begin_pass(hl_graph_ctx *ctx, void *params, void *user) {
    (void)params;
    hl_clear_error();
    /* no command context in prepare: INVALID_STATE with a message, the frame goes on */
    *(int *)user = hl_graph_ctx_begin_render_pass(ctx) == HL_ERR_INVALID_STATE && hl_last_error()[0] ? 1 : -1;
    return HL_OK;
}

static hl_result exec_noop(hl_graph_ctx *ctx, void *params, void *user) {
    (void)ctx;
    (void)params;
    (void)user;
    return HL_OK;
}

static void test_graph(void) {
    hl_rhi_device *dev = NULL;
    hl_rhi_device_desc dd = {0};
    dd.backend = HL_RHI_BACKEND_NULL;
    EXPECT_OK(hl_rhi_device_create(&dd, &dev));
    if (!dev) return;
    hl_graph *g = NULL;
    EXPECT_ERR(hl_graph_create(NULL, &g), HL_ERR_VALIDATION);
    hl_graph_desc gd = {0};
    EXPECT_ERR(hl_graph_create(&gd, &g), HL_ERR_VALIDATION); /* device missing */
    gd.device = dev;
    EXPECT_ERR(hl_graph_create(&gd, NULL), HL_ERR_VALIDATION);
    EXPECT_OK(hl_graph_create(&gd, &g));
    if (!g) goto out;

    /* NULL graph */
    hl_graph_begin(NULL);
    hl_graph_trim(NULL);
    hl_graph_destroy(NULL);
    hl_rhi_texture_desc td = {0};
    td.format = HL_RHI_FORMAT_RGBA8_UNORM;
    td.width = td.height = 8;
    hl_rhi_buffer_desc bd = {0};
    bd.size = 64;
    HL_CHECK(hl_graph_create_texture(NULL, &td, "t").id == 0);
    HL_CHECK(hl_graph_create_buffer(NULL, &bd, "b").id == 0);
    HL_CHECK(hl_graph_add_pass(NULL, "p", HL_GRAPH_PASS_RENDER, NULL, NULL, exec_noop, NULL, 0).id == 0);
    HL_CHECK(hl_graph_texture_desc(NULL, (hl_graph_texture){1}) == NULL);
    EXPECT_ERR(hl_graph_compile(NULL, NULL), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_graph_execute(NULL, NULL), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_graph_write_dot(NULL, stdout), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_graph_write_dot(g, NULL), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_graph_upload_buffer(NULL, (hl_rhi_buffer){1}, 0, "abcd", 4, NULL, 1), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_graph_commit_on_submit(NULL, NULL, 1), HL_ERR_VALIDATION);
    EXPECT_ERR(hl_graph_build_example_deferred(NULL, 8, 8, NULL, NULL, NULL), HL_ERR_VALIDATION);
    HL_CHECK(hl_graph_error_name((hl_graph_error)99) != NULL);

    /* state errors: before hl_graph_begin */
    EXPECT_ERR(hl_graph_compile(g, NULL), HL_ERR_INVALID_STATE);
    EXPECT_ERR(hl_graph_execute(g, NULL), HL_ERR_INVALID_STATE);

    /* builder errors, each reported by compile */
    hl_graph_begin(g);
    HL_CHECK(hl_graph_create_texture(g, NULL, "t").id == 0);
    EXPECT_ERR(hl_graph_compile(g, NULL), HL_ERR_VALIDATION);
    HL_CHECK_EQ(hl_graph_error_kind(g), HL_GRAPH_ERR_BUILD);

    hl_graph_begin(g);
    HL_CHECK(hl_graph_create_buffer(g, NULL, "b").id == 0);
    EXPECT_ERR(hl_graph_execute(g, NULL), HL_ERR_VALIDATION);

    hl_graph_begin(g);
    hl_rhi_buffer_desc bdi = bd;
    bdi.initial_data = "abcd";
    hl_graph_create_buffer(g, &bdi, "b");
    EXPECT_ERR(hl_graph_compile(g, NULL), HL_ERR_VALIDATION);

    /* descriptor errors */
    hl_rhi_texture_desc tbad[5];
    for (int i = 0; i < 5; i++) tbad[i] = td;
    tbad[0].width = 0;
    tbad[1].format = (hl_rhi_format)9999;
    tbad[2].sample_count = 3;
    tbad[3].width = 1u << 30;
    tbad[4].mip_levels = 40;
    for (int i = 0; i < 5; i++) {
        hl_graph_begin(g);
        hl_graph_texture t = hl_graph_create_texture(g, &tbad[i], "bad");
        hl_graph_mark_output_texture(g, t);
        hl_graph_add_synthetic_pass(g, "w", NULL, 0, &t, 1, (hl_graph_texture){0});
        hl_clear_error();
        hl_result rr = hl_graph_compile(g, NULL);
        g_calls++;
        HL_CHECK_MSG(rr == HL_ERR_VALIDATION || rr == HL_ERR_UNSUPPORTED, "bad texture desc %d -> %s (%s)", i,
                     hl_result_name(rr), hl_last_error());
        HL_CHECK_MSG(hl_last_error()[0] != '\0', "bad texture desc %d: no message", i);
    }
    hl_rhi_buffer_desc bbad[2] = {bd, bd};
    bbad[0].size = 0;
    bbad[1].size = 6; /* not a multiple of 4 */
    for (int i = 0; i < 2; i++) {
        hl_graph_begin(g);
        hl_graph_buffer b = hl_graph_create_buffer(g, &bbad[i], "bad");
        hl_graph_mark_output_buffer(g, b);
        hl_clear_error();
        g_calls++;
        hl_result rr = hl_graph_compile(g, NULL);
        HL_CHECK_MSG(rr == HL_ERR_VALIDATION, "bad buffer desc %d -> %s (%s)", i, hl_result_name(rr),
                     hl_last_error());
        HL_CHECK(hl_last_error()[0] != '\0');
    }

    /* pass errors */
    hl_graph_begin(g);
    HL_CHECK(hl_graph_add_pass(g, "p", HL_GRAPH_PASS_RENDER, NULL, NULL, exec_noop, NULL, 0).id != 0); /* setup optional */
    hl_graph_begin(g);
    HL_CHECK(hl_graph_add_pass(g, "p", (hl_graph_pass_kind)9, setup_bad, NULL, exec_noop, NULL, 0).id == 0);
    EXPECT_ERR(hl_graph_compile(g, NULL), HL_ERR_VALIDATION);
    hl_graph_begin(g);
    HL_CHECK(hl_graph_add_pass(g, "p", HL_GRAPH_PASS_RENDER, setup_bad, NULL, NULL, NULL, 0).id == 0);
    EXPECT_ERR(hl_graph_compile(g, NULL), HL_ERR_VALIDATION);
    hl_graph_begin(g);
    HL_CHECK(hl_graph_add_pass(g, "p", HL_GRAPH_PASS_RENDER, setup_never, NULL, exec_noop, NULL, SIZE_MAX).id == 0);
    EXPECT_ERR(hl_graph_compile(g, NULL), HL_ERR_OUT_OF_MEMORY);
    hl_graph_begin(g);
    HL_CHECK(hl_graph_add_pass(g, "p", HL_GRAPH_PASS_RENDER, setup_never, NULL, exec_noop, NULL, SIZE_MAX - 8).id == 0);
    EXPECT_ERR(hl_graph_compile(g, NULL), HL_ERR_OUT_OF_MEMORY);

    /* every declaration with a bad handle / slot inside one setup */
    hl_graph_begin(g);
    struct {
        hl_graph_texture tex;
        int fails;
    } ud = {{0}, 0};
    ud.tex = hl_graph_create_texture(g, &td, "t");
    HL_CHECK(ud.tex.id != 0);
    hl_graph_add_pass(g, "bad", HL_GRAPH_PASS_RENDER, setup_bad, NULL, exec_noop, &ud, 0);
    HL_CHECK_EQ(ud.fails, 0);
    EXPECT_ERR(hl_graph_execute(g, NULL), HL_ERR_VALIDATION);

    /* stale handle from an earlier frame */
    hl_graph_begin(g);
    hl_graph_texture stale = hl_graph_create_texture(g, &td, "t");
    hl_graph_begin(g);
    HL_CHECK(hl_graph_texture_desc(g, stale) == NULL);
    hl_graph_mark_output_texture(g, stale);
    EXPECT_ERR(hl_graph_compile(g, NULL), HL_ERR_VALIDATION);

    /* uploads */
    hl_rhi_buffer buf = {0};
    hl_rhi_buffer_desc ubd = {64, HL_RHI_BUFFER_USAGE_UNIFORM | HL_RHI_BUFFER_USAGE_COPY_DST, NULL, "ubo"};
    EXPECT_OK(hl_rhi_buffer_create(dev, &ubd, &buf));
    uint64_t delivered = 0;
    hl_graph_begin(g);
    EXPECT_ERR(hl_graph_upload_buffer(g, (hl_rhi_buffer){0}, 0, "abcd", 4, &delivered, 1), HL_ERR_VALIDATION);
    hl_graph_begin(g);
    EXPECT_ERR(hl_graph_upload_buffer(g, buf, 0, NULL, 4, &delivered, 1), HL_ERR_VALIDATION);
    hl_graph_begin(g);
    EXPECT_ERR(hl_graph_upload_buffer(g, buf, 2, "abcd", 4, &delivered, 1), HL_ERR_VALIDATION);
    hl_graph_begin(g);
    EXPECT_ERR(hl_graph_upload_buffer(g, buf, 0, "abcd", 0, &delivered, 1), HL_ERR_VALIDATION);
    hl_graph_begin(g);
    static uint8_t big[128];
    hl_graph_upload_buffer(g, buf, 64, big, 128, &delivered, 1); /* past the end: found by execute at the latest */
    hl_graph_add_pass(g, "w", HL_GRAPH_PASS_COPY, NULL, NULL, exec_noop, NULL, 0);
    hl_clear_error();
    g_calls++;
    HL_CHECK_RESULT(hl_graph_execute(g, NULL), HL_ERR_VALIDATION);
    HL_CHECK(hl_last_error()[0] != '\0');
    HL_CHECK_EQ(delivered, 0);
    hl_graph_begin(g);
    EXPECT_ERR(hl_graph_upload_texture(g, (hl_rhi_texture){0}, NULL, big, 4, 4, &delivered, 1), HL_ERR_VALIDATION);
    hl_graph_begin(g);
    EXPECT_ERR(hl_graph_commit_on_submit(g, NULL, 1), HL_ERR_VALIDATION);
    hl_graph_begin(g);
    EXPECT_ERR(hl_graph_build_example_deferred(g, 8, 8, NULL, NULL, NULL), HL_ERR_VALIDATION);

    /* destroyed RHI objects: an upload to / an import of a destroyed handle fails the frame */
    hl_rhi_buffer gone = {0};
    EXPECT_OK(hl_rhi_buffer_create(dev, &ubd, &gone));
    hl_rhi_buffer_destroy(dev, gone);
    hl_graph_begin(g);
    hl_graph_upload_buffer(g, gone, 0, big, 16, &delivered, 1);
    hl_graph_add_pass(g, "w", HL_GRAPH_PASS_COPY, NULL, NULL, exec_noop, NULL, 0);
    hl_clear_error();
    g_calls++;
    HL_CHECK_RESULT(hl_graph_execute(g, NULL), HL_ERR_VALIDATION);
    HL_CHECK(hl_last_error()[0] != '\0');
    HL_CHECK_EQ(delivered, 0);
    hl_rhi_texture gone_tex = {0};
    hl_rhi_texture_desc itd = td;
    itd.usage = HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT;
    EXPECT_OK(hl_rhi_texture_create(dev, &itd, &gone_tex));
    hl_rhi_texture_destroy(dev, gone_tex);
    hl_graph_begin(g);
    hl_graph_texture imp = hl_graph_import_texture(g, gone_tex, "gone");
    hl_graph_mark_output_texture(g, imp);
    hl_graph_add_synthetic_pass(g, "p", NULL, 0, &imp, 1, (hl_graph_texture){0});
    hl_clear_error();
    g_calls++;
    HL_CHECK_RESULT(hl_graph_execute(g, NULL), HL_ERR_VALIDATION);
    HL_CHECK(hl_last_error()[0] != '\0');

    /* after failures the graph still runs a valid frame (optional NULL submission) */
    hl_graph_begin(g);
    hl_graph_texture ok = hl_graph_create_texture(g, &td, "ok");
    hl_graph_add_synthetic_pass(g, "p", NULL, 0, &ok, 1, (hl_graph_texture){0});
    hl_graph_mark_output_texture(g, ok);
    int prep = 0;
    hl_graph_pass sp = hl_graph_add_pass(g, "prep", HL_GRAPH_PASS_COPY, setup_side_effect, prepare_begin_pass, exec_noop, &prep, 0);
    hl_graph_add_dependency(g, sp, (hl_graph_pass){0}); /* bad handle: recorded as a build error */
    EXPECT_ERR(hl_graph_execute(g, NULL), HL_ERR_VALIDATION);
    hl_graph_begin(g);
    ok = hl_graph_create_texture(g, &td, "ok");
    hl_graph_add_synthetic_pass(g, "p", NULL, 0, &ok, 1, (hl_graph_texture){0});
    hl_graph_mark_output_texture(g, ok);
    sp = hl_graph_add_pass(g, "prep", HL_GRAPH_PASS_COPY, setup_side_effect, prepare_begin_pass, exec_noop, &prep, 0);
    EXPECT_OK(hl_graph_execute(g, NULL));
    HL_CHECK_EQ(prep, 1);
    HL_CHECK(!hl_graph_texture_lifetime(g, (hl_graph_texture){0}, NULL, NULL));
    HL_CHECK_EQ(hl_graph_texture_slot(g, (hl_graph_texture){0}), UINT32_MAX);
    HL_CHECK_EQ(hl_graph_buffer_slot(NULL, (hl_graph_buffer){0}), UINT32_MAX);
    HL_CHECK(hl_graph_take_texture(g, ok).id == 0); /* not extracted */
    /* after execute the frame is closed */
    EXPECT_ERR(hl_graph_execute(g, NULL), HL_ERR_INVALID_STATE);
    HL_CHECK(hl_graph_create_texture(g, &td, "late").id == 0);

    /* planner: n = 0 and NULL outputs where optional */
    hl_graph_alias_plan plan;
    hl_graph_plan_none(NULL, 0, NULL, &plan);
    HL_CHECK_EQ(plan.slots, 0);
    HL_CHECK_EQ(hl_graph_plan_lower_bound(NULL, 0), 0);
    hl_graph_plan_first_fit(NULL, 0, NULL, NULL, &plan);
    HL_CHECK_EQ(plan.total_bytes, 0);
    hl_graph_plan_offsets(NULL, 0, 0, NULL, NULL, &plan);
    HL_CHECK_EQ(plan.total_bytes, 0);
    HL_CHECK_EQ(hl_graph_texture_bytes(NULL), 0);

    hl_rhi_buffer_destroy(dev, buf);
    hl_graph_destroy(g);
out:
    hl_rhi_device_destroy(dev);
}


/* ---- NULL object sweep: void setters and getters must not crash on NULL ---------------------- */
static void test_null_sweep(void) {
    hl_vec3 v = {0, 0, 0};
    uint32_t n = 5, tc = 9;
    hl_dirty_range dr;
    /* nodes / stage */
    hl_node_destroy(NULL);
    (void)hl_node_get_kind(NULL);
    HL_CHECK(hl_node_name(NULL) != NULL);
    HL_CHECK(hl_node_parent(NULL) == NULL);
    HL_CHECK(hl_node_first_child(NULL) == NULL);
    HL_CHECK(hl_node_next_sibling(NULL) == NULL);
    HL_CHECK_EQ(hl_node_child_count(NULL), 0);
    HL_CHECK(hl_node_find(NULL, "x") == NULL);
    hl_node_set_translation(NULL, v);
    hl_node_set_rotation(NULL, hl_quat_identity());
    hl_node_set_scale(NULL, v);
    (void)hl_node_translation(NULL);
    (void)hl_node_rotation(NULL);
    (void)hl_node_scale(NULL);
    hl_node_look_at(NULL, v, v);
    hl_node_set_visible(NULL, false);
    (void)hl_node_visible(NULL);
    hl_node_set_render_order(NULL, 1);
    (void)hl_node_render_order(NULL);
    hl_node_set_user_data(NULL, &n);
    HL_CHECK(hl_node_user_data(NULL) == NULL);
    (void)hl_node_local_matrix(NULL);
    (void)hl_node_world_matrix(NULL);
    (void)hl_node_world_revision(NULL);
    (void)hl_node_world_position(NULL);
    hl_node_update_world(NULL);
    HL_CHECK(hl_stage_root(NULL) == NULL);
    HL_CHECK(hl_stage_meshes(NULL, &n) == NULL || n == 0);
    HL_CHECK(hl_stage_lights(NULL, NULL) == NULL);
    HL_CHECK(hl_stage_cameras(NULL, &n) == NULL || n == 0);
    (void)hl_stage_structure_revision(NULL);
    hl_stage_set_fog(NULL, NULL);
    (void)hl_stage_fog(NULL);
    hl_stage_set_clear_color(NULL, (hl_color){0, 0, 0, 1});
    (void)hl_stage_clear_color(NULL);
    /* meshes, cameras, lights */
    HL_CHECK(hl_mesh_node(NULL) == NULL);
    HL_CHECK(hl_node_mesh(NULL) == NULL);
    HL_CHECK(hl_mesh_geometry(NULL) == NULL);
    HL_CHECK(hl_mesh_material(NULL) == NULL);
    hl_mesh_set_instanced(NULL, true);
    (void)hl_mesh_instanced(NULL);
    hl_mesh_set_shadows(NULL, true, true);
    (void)hl_mesh_cast_shadows(NULL);
    (void)hl_mesh_receive_shadows(NULL);
    (void)hl_mesh_revision(NULL);
    (void)hl_mesh_world_aabb(NULL);
    (void)hl_mesh_world_sphere(NULL);
    HL_CHECK(hl_camera_node(NULL) == NULL);
    HL_CHECK(hl_node_camera(NULL) == NULL);
    (void)hl_camera_get_desc(NULL);
    hl_camera_set_aspect(NULL, 2.0f);
    hl_camera_update(NULL);
    (void)hl_camera_view(NULL);
    (void)hl_camera_projection(NULL);
    (void)hl_camera_view_projection(NULL);
    (void)hl_camera_frustum(NULL);
    (void)hl_camera_revision(NULL);
    (void)hl_camera_project(NULL, v);
    HL_CHECK(hl_light_node(NULL) == NULL);
    HL_CHECK(hl_node_light(NULL) == NULL);
    (void)hl_light_get_desc(NULL);
    hl_light_set_color(NULL, (hl_color){1, 1, 1, 1});
    hl_light_set_intensity(NULL, 1.0f);
    hl_light_set_cast_shadows(NULL, true);
    (void)hl_light_direction(NULL);
    (void)hl_light_position(NULL);
    (void)hl_light_revision(NULL);
    /* geometry */
    hl_geometry_retain(NULL);
    hl_geometry_release(NULL);
    HL_CHECK(hl_geometry_get_layout(NULL) == NULL);
    HL_CHECK(hl_geometry_vertex_data(NULL) == NULL);
    HL_CHECK(hl_geometry_index_data(NULL) == NULL);
    (void)hl_geometry_revision(NULL);
    (void)hl_geometry_vertex_upload(NULL, 0, &dr);
    (void)hl_geometry_index_upload(NULL, 0, &dr);
    hl_geometry_clear_dirty(NULL);
    (void)hl_geometry_aabb(NULL);
    (void)hl_geometry_bounding_sphere(NULL);
    HL_CHECK(hl_geometry_label(NULL) != NULL);
    /* textures */
    hl_texture_retain(NULL);
    hl_texture_release(NULL);
    HL_CHECK(hl_texture_get_info(NULL) == NULL);
    HL_CHECK(hl_texture_pixels(NULL) == NULL);
    (void)hl_texture_revision(NULL);
    (void)hl_texture_sampler_revision(NULL);
    HL_CHECK(hl_texture_label(NULL) != NULL);
    /* materials */
    hl_material_retain(NULL);
    hl_material_release(NULL);
    (void)hl_material_get_kind(NULL);
    (void)hl_material_get_variant(NULL);
    (void)hl_material_get_factors(NULL);
    HL_CHECK(hl_material_get_texture(NULL, HL_TEXTURE_BASE_COLOR, &tc) == NULL);
    (void)hl_material_revision(NULL);
    (void)hl_material_variant_revision(NULL);
    HL_CHECK(hl_material_label(NULL) != NULL);
    HL_CHECK(!hl_material_is_transparent(NULL));
    HL_CHECK(hl_material_shader_vs(NULL) == NULL);
    HL_CHECK(hl_material_shader_fs(NULL) == NULL);
    HL_CHECK(hl_material_shader_attributes(NULL, &n) == NULL);
    HL_CHECK(hl_material_shader_uniform_blocks(NULL, NULL) == NULL);
    HL_CHECK(hl_material_shader_textures(NULL, &n) == NULL);
    /* std140 layouts and uniform buffers */
    hl_std140_layout_retain(NULL);
    hl_std140_layout_release(NULL);
    HL_CHECK_EQ(hl_std140_layout_size(NULL), 0);
    HL_CHECK_EQ(hl_std140_layout_member_count(NULL), 0);
    HL_CHECK(hl_std140_layout_member(NULL, 0, NULL, NULL, NULL) == NULL);
    HL_CHECK_EQ(hl_std140_layout_find(NULL, "a"), -1);
    (void)hl_std140_layout_hash(NULL);
    hl_uniform_buffer_retain(NULL);
    hl_uniform_buffer_release(NULL);
    HL_CHECK(hl_uniform_buffer_layout(NULL) == NULL);
    HL_CHECK(hl_uniform_buffer_data(NULL) == NULL);
    HL_CHECK_EQ(hl_uniform_buffer_size(NULL), 0);
    (void)hl_uniform_buffer_revision(NULL);
    (void)hl_uniform_buffer_upload(NULL, 0, &dr);
    hl_uniform_buffer_clear_dirty(NULL);
    /* renderer */
    (void)hl_renderer_backend(NULL);
    HL_CHECK(hl_renderer_adapter_name(NULL) != NULL);
    uint32_t w = 1, h = 1;
    hl_renderer_size(NULL, &w, &h);
    HL_CHECK(hl_renderer_stats(NULL) != NULL);
    HL_CHECK(hl_render_target_texture(NULL, 0) == NULL);
    /* graph queries */
    HL_CHECK(!hl_graph_pass_is_culled(NULL, (hl_graph_pass){1}) || 1);
    HL_CHECK(!hl_graph_texture_lifetime(NULL, (hl_graph_texture){1}, &n, &n));
    HL_CHECK(!hl_graph_buffer_lifetime(NULL, (hl_graph_buffer){1}, NULL, NULL));
    HL_CHECK_EQ(hl_graph_texture_slot(NULL, (hl_graph_texture){1}), UINT32_MAX);
    (void)hl_graph_get_stats(NULL);
    (void)hl_graph_error_kind(NULL);
    HL_CHECK(hl_graph_take_texture(NULL, (hl_graph_texture){1}).id == 0);
    HL_CHECK(hl_graph_take_buffer(NULL, (hl_graph_buffer){1}).id == 0);
    hl_graph_extract_texture(NULL, (hl_graph_texture){1});
    hl_graph_extract_buffer(NULL, (hl_graph_buffer){1});
    hl_graph_mark_output_texture(NULL, (hl_graph_texture){1});
    hl_graph_mark_output_buffer(NULL, (hl_graph_buffer){1});
    hl_graph_add_dependency(NULL, (hl_graph_pass){1}, (hl_graph_pass){2});
    HL_CHECK(hl_graph_import_texture(NULL, (hl_rhi_texture){1}, "t").id == 0);
    HL_CHECK(hl_graph_import_buffer(NULL, (hl_rhi_buffer){1}, "b").id == 0);
    HL_CHECK(hl_graph_import_texture_deferred(NULL, NULL, NULL, NULL, "t").id == 0);
    HL_CHECK(hl_graph_add_synthetic_pass(NULL, "p", NULL, 0, NULL, 0, (hl_graph_texture){0}).id == 0);
    HL_CHECK(hl_graph_ctx_device(NULL) == NULL);
    HL_CHECK(hl_graph_ctx_cmd(NULL) == NULL);
    HL_CHECK(hl_graph_builder_graph(NULL) == NULL);
    (void)hl_graph_builder_pass(NULL);
    EXPECT_ERR(hl_graph_ctx_begin_render_pass(NULL), HL_ERR_VALIDATION);
    g_calls += 150;
}

int main(void) {
    test_null_sweep();
    test_geometry();
    test_texture();
    test_uniform();
    test_material();
    test_scene();
    test_graph();
    test_renderer();
    printf("robustness: %d bad-input / optional-argument calls\n", g_calls);
    return hl_test_finish();
}
