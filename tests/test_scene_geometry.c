/* Scene layer: geometry generators, custom quantised geometry, dirty ranges, upload rules. */
#include <math.h>

#include "hilo3d/hilo3d.h"
#include "hl_test.h"

#define NEAR(a, b, eps)                                                                                                \
    HL_CHECK_MSG(fabs((double)(a) - (double)(b)) <= (eps), "%s = %.6f, expected %.6f", #a, (double)(a), (double)(b))

static uint32_t index_at(const hl_geometry *g, uint32_t i) {
    const hl_geometry_layout *L = hl_geometry_get_layout(g);
    const void *p = hl_geometry_index_data(g);
    return L->index_format == HL_INDEX_UINT16 ? ((const uint16_t *)p)[i] : ((const uint32_t *)p)[i];
}

/* Every triangle winds counter-clockwise seen from outside (face normal along the vertex
 * normals), and every tangent is a unit vector orthogonal to its normal. */
static void check_shape(const char *what, hl_geometry *g) {
    const hl_geometry_layout *L = hl_geometry_get_layout(g);
    uint32_t bad_wind = 0, bad_tan = 0, degenerate = 0;
    for (uint32_t t = 0; t + 2 < L->index_count; t += 3) {
        float p[3][4], n[3][4];
        for (int k = 0; k < 3; ++k) {
            uint32_t v = index_at(g, t + (uint32_t)k);
            hl_geometry_read_vertex(g, HL_ATTR_POSITION, v, p[k]);
            hl_geometry_read_vertex(g, HL_ATTR_NORMAL, v, n[k]);
        }
        hl_vec3 e1 = {p[1][0] - p[0][0], p[1][1] - p[0][1], p[1][2] - p[0][2]};
        hl_vec3 e2 = {p[2][0] - p[0][0], p[2][1] - p[0][1], p[2][2] - p[0][2]};
        hl_vec3 fn = hl_vec3_cross(e1, e2);
        if (hl_vec3_length(fn) < 1e-9f) {
            degenerate++;
            continue;
        }
        hl_vec3 avg = {n[0][0] + n[1][0] + n[2][0], n[0][1] + n[1][1] + n[2][1], n[0][2] + n[1][2] + n[2][2]};
        if (hl_vec3_dot(fn, avg) <= 0) bad_wind++;
    }
    for (uint32_t v = 0; v < L->vertex_count; ++v) {
        float n[4], t[4];
        hl_geometry_read_vertex(g, HL_ATTR_NORMAL, v, n);
        hl_geometry_read_vertex(g, HL_ATTR_TANGENT, v, t);
        float dot = n[0] * t[0] + n[1] * t[1] + n[2] * t[2];
        float len = sqrtf(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
        if (fabsf(dot) > 1e-4f || fabsf(len - 1) > 1e-4f || t[3] != 1.0f) bad_tan++;
    }
    HL_CHECK_MSG(bad_wind == 0, "%s: %u triangles wind clockwise", what, bad_wind);
    HL_CHECK_MSG(degenerate == 0, "%s: %u degenerate triangles", what, degenerate);
    HL_CHECK_MSG(bad_tan == 0, "%s: %u bad tangents", what, bad_tan);
    HL_CHECK_EQ(L->attribute_mask, (1u << HL_ATTR_POSITION) | (1u << HL_ATTR_NORMAL) | (1u << HL_ATTR_TANGENT) |
                                       (1u << HL_ATTR_TEXCOORD_0));
}

static void test_generators(void) {
    hl_geometry *g = NULL;
    HL_CHECK_OK(hl_geometry_create_box(NULL, &g));
    const hl_geometry_layout *L = hl_geometry_get_layout(g);
    HL_CHECK_EQ(L->vertex_count, 24);
    HL_CHECK_EQ(L->index_count, 36);
    HL_CHECK_EQ(L->index_format, HL_INDEX_UINT16);
    HL_CHECK_EQ(L->index_bytes, 72);
    HL_CHECK_EQ(L->vertex_bytes, 24 * (12 + 12 + 16 + 8));
    hl_aabb b = hl_geometry_aabb(g);
    NEAR(b.min.x, -0.5, 1e-6);
    NEAR(b.max.z, 0.5, 1e-6);
    NEAR(hl_geometry_bounding_sphere(g).radius, sqrt(0.75), 1e-5);
    check_shape("box", g);
    hl_geometry_release(g);

    HL_CHECK_OK(hl_geometry_create_box(&(hl_box_desc){.width = 2, .height = 4, .depth = 6}, &g));
    b = hl_geometry_aabb(g);
    NEAR(b.max.x, 1, 1e-6);
    NEAR(b.max.y, 2, 1e-6);
    NEAR(b.min.z, -3, 1e-6);
    hl_geometry_release(g);

    HL_CHECK_OK(hl_geometry_create_sphere(NULL, &g));
    L = hl_geometry_get_layout(g);
    HL_CHECK_EQ(L->vertex_count, 33 * 17);
    HL_CHECK_EQ(L->index_count, 6 * 32 * 15);
    b = hl_geometry_aabb(g);
    NEAR(b.max.y, 0.5, 1e-6);
    NEAR(b.min.y, -0.5, 1e-6);
    NEAR(b.max.x, 0.5, 1e-3);
    NEAR(hl_geometry_bounding_sphere(g).radius, 0.5, 1e-4);
    check_shape("sphere", g);
    hl_geometry_release(g);

    HL_CHECK_OK(hl_geometry_create_plane(
        &(hl_plane_desc){.width = 4, .height = 2, .width_segments = 2, .height_segments = 3}, &g));
    L = hl_geometry_get_layout(g);
    HL_CHECK_EQ(L->vertex_count, 3 * 4);
    HL_CHECK_EQ(L->index_count, 6 * 2 * 3);
    b = hl_geometry_aabb(g);
    NEAR(b.min.x, -2, 1e-6);
    NEAR(b.max.y, 1, 1e-6);
    NEAR(b.max.z, 0, 0);
    check_shape("plane", g);
    hl_geometry_release(g);

    HL_CHECK_OK(hl_geometry_create_cylinder(NULL, &g));
    L = hl_geometry_get_layout(g);
    HL_CHECK_EQ(L->vertex_count, 17 * 2 + 2 * 18);
    HL_CHECK_EQ(L->index_count, 6 * 16 + 6 * 16);
    b = hl_geometry_aabb(g);
    NEAR(b.max.y, 0.5, 1e-6);
    NEAR(b.max.z, 0.5, 1e-6);
    check_shape("cylinder", g);
    hl_geometry_release(g);

    HL_CHECK_OK(hl_geometry_create_cylinder(&(hl_cylinder_desc){.radius_top = 0.25f,
                                                                .radius_bottom = 1,
                                                                .height = 2,
                                                                .radial_segments = 8,
                                                                .height_segments = 3,
                                                                .open_ended = true},
                                            &g));
    L = hl_geometry_get_layout(g);
    HL_CHECK_EQ(L->vertex_count, 9 * 4);
    HL_CHECK_EQ(L->index_count, 6 * 8 * 3);
    check_shape("open cone", g);
    hl_geometry_release(g);

    HL_CHECK_RESULT(hl_geometry_create_sphere(&(hl_sphere_desc){.width_segments = 2}, &g), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "width_segments") != NULL);
    HL_CHECK(g == NULL);
    HL_CHECK_RESULT(hl_geometry_create_box(&(hl_box_desc){.width = -1}, &g), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "width") != NULL);
}

static void test_custom_quantised(void) {
    const float pos[4 * 3] = {0, 0, 0, 2, 0, 0, 2, 4, 0, 0, 4, -6};
    const int8_t nrm[4 * 4] = {0, 0, 127, 0, 0, 0, 127, 0, 0, 0, -127, 0, 127, 0, 0, 0};
    const uint16_t uv[4 * 2] = {0, 0, 65535, 0, 65535, 65535, 0, 32768};
    const uint8_t col[4 * 4] = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 51, 102, 153, 204};
    const uint16_t joints[4 * 4] = {0, 1, 2, 3, 4, 5, 6, 7, 0, 0, 0, 0, 9, 9, 9, 9};
    const uint32_t idx[6] = {0, 1, 2, 0, 2, 3};
    hl_geometry_desc d = {0};
    d.vertex_count = 4;
    d.attributes[HL_ATTR_POSITION] = (hl_attribute_desc){pos, HL_COMPONENT_FLOAT32, 3};
    d.attributes[HL_ATTR_NORMAL] = (hl_attribute_desc){nrm, HL_COMPONENT_SNORM8, 4};
    d.attributes[HL_ATTR_TEXCOORD_0] = (hl_attribute_desc){uv, HL_COMPONENT_UNORM16, 2};
    d.attributes[HL_ATTR_COLOR_0] = (hl_attribute_desc){col, HL_COMPONENT_UNORM8, 4};
    d.attributes[HL_ATTR_JOINTS_0] = (hl_attribute_desc){joints, HL_COMPONENT_UINT16, 4};
    d.indices = idx;
    d.index_count = 6;
    d.dynamic = true;
    d.label = "quad";
    hl_geometry *g = NULL;
    HL_CHECK_OK(hl_geometry_create(&d, &g));
    if (!g) return;
    const hl_geometry_layout *L = hl_geometry_get_layout(g);
    HL_CHECK_EQ(L->index_format, HL_INDEX_UINT32);
    HL_CHECK_EQ(L->index_bytes, 24);
    HL_CHECK_EQ(L->attributes[HL_ATTR_POSITION].offset, 0);
    HL_CHECK_EQ(L->attributes[HL_ATTR_POSITION].stride, 12);
    HL_CHECK_EQ(L->attributes[HL_ATTR_NORMAL].offset, 48);
    HL_CHECK_EQ(L->attributes[HL_ATTR_NORMAL].stride, 4);
    HL_CHECK(L->attributes[HL_ATTR_NORMAL].normalized);
    HL_CHECK_EQ(L->attributes[HL_ATTR_TEXCOORD_0].offset, 64);
    HL_CHECK_EQ(L->attributes[HL_ATTR_TEXCOORD_0].stride, 4);
    HL_CHECK_EQ(L->attributes[HL_ATTR_COLOR_0].offset, 80);
    HL_CHECK_EQ(L->attributes[HL_ATTR_JOINTS_0].offset, 96);
    HL_CHECK_EQ(L->attributes[HL_ATTR_JOINTS_0].stride, 8);
    HL_CHECK(!L->attributes[HL_ATTR_JOINTS_0].normalized);
    HL_CHECK(!L->attributes[HL_ATTR_TANGENT].present);
    HL_CHECK_EQ(L->vertex_bytes, 128);
    HL_CHECK_EQ(L->attribute_mask, 0x1 | 0x2 | 0x8 | 0x20 | 0x40);
    HL_CHECK(L->dynamic);
    HL_CHECK(strcmp(hl_geometry_label(g), "quad") == 0);

    /* decoding of the normalised types */
    float v[4];
    HL_CHECK_OK(hl_geometry_read_vertex(g, HL_ATTR_NORMAL, 2, v));
    NEAR(v[2], -1, 1e-6);
    HL_CHECK_OK(hl_geometry_read_vertex(g, HL_ATTR_TEXCOORD_0, 3, v));
    NEAR(v[1], 32768.0 / 65535.0, 1e-6);
    HL_CHECK_OK(hl_geometry_read_vertex(g, HL_ATTR_COLOR_0, 3, v));
    NEAR(v[0], 0.2, 1e-6);
    NEAR(v[3], 0.8, 1e-6);
    HL_CHECK_OK(hl_geometry_read_vertex(g, HL_ATTR_JOINTS_0, 1, v));
    NEAR(v[3], 7, 0);
    HL_CHECK_RESULT(hl_geometry_read_vertex(g, HL_ATTR_TANGENT, 0, v), HL_ERR_VALIDATION);

    /* bounds */
    hl_aabb b = hl_geometry_aabb(g);
    NEAR(b.min.z, -6, 0);
    NEAR(b.max.x, 2, 0);
    NEAR(b.max.y, 4, 0);
    hl_sphere s = hl_geometry_bounding_sphere(g);
    NEAR(s.center.y, 2, 1e-6);
    NEAR(s.radius, sqrt(1 + 4 + 9), 1e-5);

    /* the data the renderer uploads */
    const uint8_t *vb = hl_geometry_vertex_data(g);
    HL_CHECK(memcmp(vb + 48, nrm, 16) == 0);
    HL_CHECK(memcmp(vb + 80, col, 16) == 0);

    /* revisions and dirty ranges */
    hl_dirty_range r;
    uint64_t rev0 = hl_geometry_revision(g);
    HL_CHECK(rev0 != 0);
    HL_CHECK_EQ(hl_geometry_vertex_upload(g, 0, &r), HL_UPLOAD_FULL);
    HL_CHECK_EQ(r.offset, 0);
    HL_CHECK_EQ(r.size, 128);
    HL_CHECK_EQ(hl_geometry_vertex_upload(g, rev0, &r), HL_UPLOAD_NONE);
    HL_CHECK_EQ(hl_geometry_index_upload(g, rev0, &r), HL_UPLOAD_NONE);

    const uint16_t uv1[2] = {100, 200};
    HL_CHECK_OK(hl_geometry_update_attribute(g, HL_ATTR_TEXCOORD_0, 1, 1, uv1));
    HL_CHECK(hl_geometry_revision(g) > rev0);
    HL_CHECK_EQ(hl_geometry_vertex_upload(g, rev0, &r), HL_UPLOAD_RANGE);
    HL_CHECK_EQ(r.offset, 68);
    HL_CHECK_EQ(r.size, 4);
    const float p3[3] = {0, 4, -10};
    HL_CHECK_OK(hl_geometry_update_attribute(g, HL_ATTR_POSITION, 3, 1, p3));
    HL_CHECK_EQ(hl_geometry_vertex_upload(g, rev0, &r), HL_UPLOAD_RANGE);
    HL_CHECK_EQ(r.offset, 36); /* merged: position 3 [36, 48) + uv 1 [68, 72) */
    HL_CHECK_EQ(r.size, 72 - 36);
    NEAR(hl_geometry_aabb(g).min.z, -10, 0);                            /* bounds follow POSITION */
    HL_CHECK_EQ(hl_geometry_index_upload(g, rev0, &r), HL_UPLOAD_NONE); /* indices untouched */
    HL_CHECK(memcmp(vb + 68, uv1, 4) == 0);

    /* the renderer uploaded revision 3 and committed: ranges restart */
    uint64_t rev3 = hl_geometry_revision(g);
    hl_geometry_clear_dirty(g);
    HL_CHECK_EQ(hl_geometry_vertex_upload(g, rev3, &r), HL_UPLOAD_NONE);
    const uint32_t tri[3] = {3, 2, 1};
    HL_CHECK_OK(hl_geometry_update_indices(g, 3, 3, tri));
    HL_CHECK_EQ(hl_geometry_index_upload(g, rev3, &r), HL_UPLOAD_RANGE);
    HL_CHECK_EQ(r.offset, 12);
    HL_CHECK_EQ(r.size, 12);
    HL_CHECK_EQ(hl_geometry_vertex_upload(g, rev3, &r), HL_UPLOAD_NONE);
    /* a consumer older than the range start must upload everything */
    HL_CHECK_EQ(hl_geometry_index_upload(g, rev0, &r), HL_UPLOAD_FULL);
    HL_CHECK_EQ(r.size, 24);
    HL_CHECK_EQ(index_at(g, 3), 3);

    /* bad updates */
    HL_CHECK_RESULT(hl_geometry_update_attribute(g, HL_ATTR_POSITION, 3, 2, pos), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "vertex_count") != NULL);
    HL_CHECK_RESULT(hl_geometry_update_attribute(g, HL_ATTR_TANGENT, 0, 1, pos), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "TANGENT") != NULL);
    const uint32_t badidx[1] = {4};
    HL_CHECK_RESULT(hl_geometry_update_indices(g, 1, 1, badidx), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "indices[1]") != NULL);
    hl_geometry_release(g);

    /* 16-bit indices: ranges widen to 4-byte boundaries */
    const uint16_t idx16[6] = {0, 1, 2, 0, 2, 3};
    d.indices = idx16;
    d.index_format = HL_INDEX_UINT16;
    HL_CHECK_OK(hl_geometry_create(&d, &g));
    HL_CHECK_EQ(hl_geometry_get_layout(g)->index_bytes, 12);
    uint64_t created = hl_geometry_revision(g);
    const uint16_t one = 3;
    HL_CHECK_OK(hl_geometry_update_indices(g, 1, 1, &one));
    HL_CHECK_EQ(hl_geometry_index_upload(g, created, &r), HL_UPLOAD_RANGE);
    HL_CHECK_EQ(r.offset, 0);
    HL_CHECK_EQ(r.size, 4);
    hl_geometry_release(g);
}

static void test_custom_errors(void) {
    const float pos[9] = {0};
    const uint8_t bytes[12] = {0};
    hl_geometry *g = NULL;
    hl_geometry_desc d = {0};
    d.vertex_count = 3;
    HL_CHECK_RESULT(hl_geometry_create(&d, &g), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "POSITION") != NULL);
    d.attributes[HL_ATTR_POSITION].data = pos;
    d.attributes[HL_ATTR_NORMAL] = (hl_attribute_desc){bytes, HL_COMPONENT_UNORM8, 3};
    HL_CHECK_RESULT(hl_geometry_create(&d, &g), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "attributes[NORMAL] is UNORM8 x3") != NULL);
    d.attributes[HL_ATTR_NORMAL] = (hl_attribute_desc){0};
    d.attributes[HL_ATTR_JOINTS_0] = (hl_attribute_desc){pos, HL_COMPONENT_FLOAT32, 4};
    HL_CHECK_RESULT(hl_geometry_create(&d, &g), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "JOINTS_0") != NULL);
    d.attributes[HL_ATTR_JOINTS_0] = (hl_attribute_desc){0};
    d.attributes[HL_ATTR_COLOR_0] = (hl_attribute_desc){bytes, HL_COMPONENT_UINT8, 4};
    HL_CHECK_RESULT(hl_geometry_create(&d, &g), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "COLOR_0") != NULL);
    d.attributes[HL_ATTR_COLOR_0] = (hl_attribute_desc){0};
    /* the second set of influences: JOINTS_1 integer only, WEIGHTS_1 never integer */
    const float w4[12] = {0};
    d.attributes[HL_ATTR_JOINTS_1] = (hl_attribute_desc){w4, HL_COMPONENT_FLOAT32, 4};
    HL_CHECK_RESULT(hl_geometry_create(&d, &g), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "attributes[JOINTS_1].type must be UINT8 or UINT16") != NULL);
    d.attributes[HL_ATTR_JOINTS_1] = (hl_attribute_desc){bytes, HL_COMPONENT_UINT8, 4};
    d.attributes[HL_ATTR_WEIGHTS_1] = (hl_attribute_desc){bytes, HL_COMPONENT_UINT8, 4};
    HL_CHECK_RESULT(hl_geometry_create(&d, &g), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "attributes[WEIGHTS_1].type UINT8 is an integer type") != NULL);
    d.attributes[HL_ATTR_WEIGHTS_1] = (hl_attribute_desc){w4, HL_COMPONENT_FLOAT32, 4};
    HL_CHECK_OK(hl_geometry_create(&d, &g));
    HL_CHECK(g && hl_geometry_get_layout(g)->attributes[HL_ATTR_JOINTS_1].present &&
             hl_geometry_get_layout(g)->attribute_mask == ((1u << HL_ATTR_POSITION) | (1u << HL_ATTR_JOINTS_1) |
                                                           (1u << HL_ATTR_WEIGHTS_1)));
    hl_geometry_release(g);
    g = NULL;
    HL_CHECK_EQ(hl_attribute_from_name("WEIGHTS_1"), HL_ATTR_WEIGHTS_1);
    HL_CHECK(strcmp(hl_attribute_name(HL_ATTR_JOINTS_1), "JOINTS_1") == 0);
    d.attributes[HL_ATTR_JOINTS_1] = d.attributes[HL_ATTR_WEIGHTS_1] = (hl_attribute_desc){0};
    const uint16_t idx[4] = {0, 1, 2, 0};
    d.indices = idx;
    d.index_format = HL_INDEX_UINT16;
    d.index_count = 4;
    HL_CHECK_RESULT(hl_geometry_create(&d, &g), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "multiple of 3") != NULL);
    d.index_count = 3;
    d.vertex_count = 2;
    HL_CHECK_RESULT(hl_geometry_create(&d, &g), HL_ERR_VALIDATION);
    d.vertex_count = 3;
    HL_CHECK_OK(hl_geometry_create(&d, &g));
    HL_CHECK_EQ(hl_geometry_get_layout(g)->index_bytes, 8); /* 6 bytes padded to 4 */
    hl_geometry_release(g);
    HL_CHECK_RESULT(hl_geometry_create(NULL, &g), HL_ERR_VALIDATION);
}

static void test_refcount(void) {
    hl_geometry *g = NULL;
    hl_material *m = NULL;
    HL_CHECK_OK(hl_geometry_create_plane(NULL, &g));
    HL_CHECK_OK(hl_material_create_basic(NULL, &m));
    hl_mesh *a = NULL, *b = NULL;
    HL_CHECK_OK(hl_mesh_create(&(hl_mesh_desc){.geometry = g, .material = m}, &a));
    HL_CHECK_OK(hl_mesh_create(&(hl_mesh_desc){.geometry = g, .material = m}, &b));
    hl_geometry_release(g); /* the meshes keep it alive */
    hl_material_release(m);
    HL_CHECK_EQ(hl_geometry_get_layout(hl_mesh_geometry(a))->vertex_count, 4);
    hl_node_destroy(hl_mesh_node(a));
    HL_CHECK_EQ(hl_geometry_get_layout(hl_mesh_geometry(b))->index_count, 6);
    hl_geometry *g2 = NULL;
    HL_CHECK_OK(hl_geometry_create_box(NULL, &g2));
    HL_CHECK_OK(hl_mesh_set_geometry(b, g2)); /* releases the plane: last reference */
    hl_geometry_release(g2);
    hl_node_destroy(hl_mesh_node(b)); /* frees the box and the material (ASan checks) */
}

int main(void) {
    test_generators();
    test_custom_quantised();
    test_custom_errors();
    test_refcount();
    return hl_test_finish();
}
