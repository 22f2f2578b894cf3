/* Scene layer: the posed bounds of skinned meshes (hl_mesh_world_aabb / hl_mesh_world_sphere).
 * Pure CPU, no device.
 *
 *   - a strip of 18 vertices on a chain of 3 joints (8 influences on some vertices) posed far
 *     from its mesh node: every vertex skinned on the CPU by scene.h's formula lies in the
 *     world box (1e-4) and sphere, the box is the union of the joints' moved bind-space boxes
 *     computed here (1e-4), no more than 2 beyond the skinned vertices on any side, and away
 *     from the mesh node;
 *   - the bounds follow the joints (a root moved by +100 in x moves them by +100) and the
 *     geometry (a vertex moved in bind space is held again), with no allocation;
 *   - unskinned bounds (node matrix * geometry bounds) when the mesh is drawn unskinned: a
 *     geometry without JOINTS_0, a shader material, all weights 0, the skin removed;
 *   - hl_gltf_asset_bounds of a skinned triangle whose node is at x 50 and whose joint (under a
 *     parent at y 2, both stale until the call) is at x 1: (1, 2, 0) - (2, 3, 0) (1e-5). */
#include <math.h>
#include <stdlib.h>

#include "hilo3d/gltf.h"
#include "hilo3d/hilo3d.h"
#include "hl_test.h"
#include "hl_test_gltf.h"

#define PI_F 3.14159265f
enum { COLS = 9, VERTS = COLS * 2 };

static hl_vec3 g_pos[VERTS];
static uint16_t g_j0[VERTS][4], g_j1[VERTS][4];
static float g_w0[VERTS][4], g_w1[VERTS][4];
static hl_mat4 g_ibm[3];

/* Columns at x = 0, 0.5 .. 4, rows y = 0 and 0.4; joint j is bound at x = 2j. Set 0 blends the
 * two joints around x with 0.9 of the weight; set 1 gives the rest to joint 2 on the column at
 * x = 1 (so joint 2 moves a vertex left of its own span) and to joint 0 elsewhere. */
static void build_strip(void) {
    for (int c = 0; c < COLS; c++)
        for (int r = 0; r < 2; r++) {
            int v = c * 2 + r;
            float x = 0.5f * (float)c;
            g_pos[v] = (hl_vec3){x, 0.4f * (float)r, 0};
            int a = x < 2.0f ? 0 : 1;
            float t = (x - 2.0f * (float)a) / 2.0f;
            g_j0[v][0] = (uint16_t)a, g_j0[v][1] = (uint16_t)(a + 1), g_j0[v][2] = 0, g_j0[v][3] = 0;
            g_w0[v][0] = 0.9f * (1 - t), g_w0[v][1] = 0.9f * t, g_w0[v][2] = 0, g_w0[v][3] = 0;
            g_j1[v][0] = c == 2 ? 2 : 0, g_j1[v][1] = g_j1[v][2] = g_j1[v][3] = 1;
            g_w1[v][0] = 0.1f, g_w1[v][1] = g_w1[v][2] = g_w1[v][3] = 0;
        }
    for (int j = 0; j < 3; j++)
        g_ibm[j] = hl_mat4_from_trs((hl_vec3){-2.0f * (float)j, 0, 0}, (hl_quat){0, 0, 0, 1}, (hl_vec3){1, 1, 1});
}

static hl_geometry *strip_geometry(bool skin_attrs, bool zero_weights) {
    static uint16_t idx[(COLS - 1) * 6];
    for (int c = 0; c < COLS - 1; c++) {
        uint16_t a = (uint16_t)(c * 2), *q = idx + c * 6;
        q[0] = a, q[1] = (uint16_t)(a + 2), q[2] = (uint16_t)(a + 1);
        q[3] = (uint16_t)(a + 1), q[4] = (uint16_t)(a + 2), q[5] = (uint16_t)(a + 3);
    }
    static const float zero[VERTS * 4];
    hl_geometry_desc d = {0};
    d.vertex_count = VERTS;
    d.attributes[HL_ATTR_POSITION] = (hl_attribute_desc){g_pos, HL_COMPONENT_FLOAT32, 3};
    if (skin_attrs) {
        const float *w0 = zero_weights ? zero : &g_w0[0][0], *w1 = zero_weights ? zero : &g_w1[0][0];
        d.attributes[HL_ATTR_JOINTS_0] = (hl_attribute_desc){g_j0, HL_COMPONENT_UINT16, 4};
        d.attributes[HL_ATTR_WEIGHTS_0] = (hl_attribute_desc){w0, HL_COMPONENT_FLOAT32, 4};
        d.attributes[HL_ATTR_JOINTS_1] = (hl_attribute_desc){g_j1, HL_COMPONENT_UINT16, 4};
        d.attributes[HL_ATTR_WEIGHTS_1] = (hl_attribute_desc){w1, HL_COMPONENT_FLOAT32, 4};
    }
    d.indices = idx;
    d.index_count = (COLS - 1) * 6;
    d.index_format = HL_INDEX_UINT16;
    hl_geometry *g = NULL;
    HL_CHECK_OK(hl_geometry_create(&d, &g));
    return g;
}

static bool contains(const hl_aabb *b, hl_vec3 p, float eps) {
    return p.x >= b->min.x - eps && p.y >= b->min.y - eps && p.z >= b->min.z - eps && p.x <= b->max.x + eps &&
           p.y <= b->max.y + eps && p.z <= b->max.z + eps;
}

/* scene.h's formula: sum over the 8 influences of w * world(joint) * inverse_bind(joint) * p. */
static hl_vec3 cpu_skin(hl_node *const *joints, int v) {
    hl_vec3 out = {0, 0, 0};
    for (int set = 0; set < 2; set++)
        for (int k = 0; k < 4; k++) {
            float w = set ? g_w1[v][k] : g_w0[v][k];
            int j = set ? g_j1[v][k] : g_j0[v][k];
            if (w == 0) continue;
            hl_mat4 m = hl_mat4_mul(hl_node_world_matrix(joints[j]), &g_ibm[j]);
            hl_vec3 q = hl_mat4_transform_point(&m, g_pos[v]);
            out.x += w * q.x, out.y += w * q.y, out.z += w * q.z;
        }
    return out;
}

/* The expected box: per joint, the bind-space box of the vertices it moves, its 8 corners
 * carried by the joint's world matrix; their union. */
static hl_aabb expected_box(hl_node *const *joints) {
    hl_aabb u = {{INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}};
    for (int j = 0; j < 3; j++) {
        hl_aabb b = {{INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}};
        for (int v = 0; v < VERTS; v++) {
            bool moves = false;
            for (int k = 0; k < 4; k++)
                moves |= (g_j0[v][k] == j && g_w0[v][k] != 0) || (g_j1[v][k] == j && g_w1[v][k] != 0);
            if (!moves) continue;
            hl_vec3 q = hl_mat4_transform_point(&g_ibm[j], g_pos[v]);
            hl_aabb p = {q, q};
            hl_aabb_merge(&b, &p);
        }
        for (int c = 0; c < 8; c++) {
            hl_vec3 corner = {c & 1 ? b.max.x : b.min.x, c & 2 ? b.max.y : b.min.y, c & 4 ? b.max.z : b.min.z};
            hl_vec3 w = hl_mat4_transform_point(hl_node_world_matrix(joints[j]), corner);
            hl_aabb p = {w, w};
            hl_aabb_merge(&u, &p);
        }
    }
    return u;
}

static void check_box_eq(hl_aabb a, hl_aabb b, const char *what) {
    float d = fmaxf(fmaxf(fabsf(a.min.x - b.min.x), fmaxf(fabsf(a.min.y - b.min.y), fabsf(a.min.z - b.min.z))),
                    fmaxf(fabsf(a.max.x - b.max.x), fmaxf(fabsf(a.max.y - b.max.y), fabsf(a.max.z - b.max.z))));
    HL_CHECK_MSG(d <= 1e-4f, "%s: (%g %g %g)-(%g %g %g) vs expected (%g %g %g)-(%g %g %g)", what, a.min.x, a.min.y,
                 a.min.z, a.max.x, a.max.y, a.max.z, b.min.x, b.min.y, b.min.z, b.max.x, b.max.y, b.max.z);
}

/* Every skinned vertex in the box and sphere; the box no more than 2 beyond them per side. */
static void check_holds_vertices(hl_mesh *m, hl_node *const *joints, const char *what) {
    hl_aabb b = hl_mesh_world_aabb(m);
    hl_sphere s = hl_mesh_world_sphere(m);
    hl_aabb verts = {{INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}};
    int outside = 0, outside_sphere = 0;
    for (int v = 0; v < VERTS; v++) {
        hl_vec3 p = cpu_skin(joints, v);
        hl_aabb pb = {p, p};
        hl_aabb_merge(&verts, &pb);
        outside += !contains(&b, p, 1e-4f);
        hl_vec3 d = {p.x - s.center.x, p.y - s.center.y, p.z - s.center.z};
        outside_sphere += hl_vec3_length(d) > s.radius + 1e-4f;
    }
    HL_CHECK_MSG(outside == 0 && outside_sphere == 0, "%s: %d skinned vertices outside the box, %d the sphere", what,
                 outside, outside_sphere);
    float slack = fmaxf(fmaxf(verts.min.x - b.min.x, fmaxf(verts.min.y - b.min.y, verts.min.z - b.min.z)),
                        fmaxf(b.max.x - verts.max.x, fmaxf(b.max.y - verts.max.y, b.max.z - verts.max.z)));
    HL_CHECK_MSG(slack <= 2.0f, "%s: the box reaches %g beyond the skinned vertices", what, slack);
    /* the sphere surrounds the box */
    HL_CHECK_MSG(fabsf(s.center.x - (b.min.x + b.max.x) * 0.5f) < 1e-4f &&
                     fabsf(s.center.y - (b.min.y + b.max.y) * 0.5f) < 1e-4f &&
                     fabsf(s.center.z - (b.min.z + b.max.z) * 0.5f) < 1e-4f,
                 "%s: sphere centre (%g %g %g)", what, s.center.x, s.center.y, s.center.z);
}

static hl_aabb node_bounds(hl_mesh *m) {
    hl_aabb g = hl_geometry_aabb(hl_mesh_geometry(m));
    return hl_aabb_transform(&g, hl_node_world_matrix(hl_mesh_node(m)));
}

static void test_gltf_bounds(void) {
    hl_test_glb g = {0};
    const float pos[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0}, w[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    const uint8_t j[12] = {0};
    size_t o_p = hl_test_glb_add(&g, pos, sizeof pos), o_j = hl_test_glb_add(&g, j, sizeof j);
    size_t o_w = hl_test_glb_add(&g, w, sizeof w);
    char json[2000];
    snprintf(json, sizeof json,
             "{\"asset\":{\"version\":\"2.0\"},\"scenes\":[{\"nodes\":[0,2]}],"
             "\"nodes\":[{\"translation\":[0,2,0],\"children\":[1]},{\"translation\":[1,0,0]},"
             "{\"mesh\":0,\"skin\":0,\"translation\":[50,0,0]}],"
             "\"skins\":[{\"joints\":[1]}],"
             "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"JOINTS_0\":1,\"WEIGHTS_0\":2}}]}],"
             "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
             "{\"bufferView\":1,\"componentType\":5121,\"count\":3,\"type\":\"VEC4\"},"
             "{\"bufferView\":2,\"componentType\":5126,\"count\":3,\"type\":\"VEC4\"}],"
             "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":36},"
             "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":12},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":48}],"
             "\"buffers\":[{\"byteLength\":%zu}]}",
             o_p, o_j, o_w, g.bin_len);
    size_t n = 0;
    uint8_t *file = hl_test_glb_file(json, &g, &n);
    hl_gltf_asset *a = NULL;
    HL_CHECK_OK(hl_gltf_load_memory(file, n, NULL, &a));
    free(file);
    hl_test_glb_free(&g);
    if (!a) return;
    hl_aabb b = hl_gltf_asset_bounds(a);
    check_box_eq(b, (hl_aabb){{1, 2, 0}, {2, 3, 0}}, "glTF asset bounds");
    hl_gltf_asset_destroy(a);
}

int main(void) {
    test_gltf_bounds();
    build_strip();
    hl_stage *s = NULL;
    HL_CHECK_OK(hl_stage_create(&s));
    hl_material *mat = NULL;
    HL_CHECK_OK(hl_material_create_basic(NULL, &mat));
    hl_geometry *g = strip_geometry(true, false);
    if (!s || !mat || !g) return hl_test_finish();
    hl_node *joints[3];
    for (int j = 0; j < 3; j++) HL_CHECK_OK(hl_node_create("joint", &joints[j]));
    HL_CHECK_OK(hl_stage_add(s, joints[0]));
    HL_CHECK_OK(hl_node_add_child(joints[0], joints[1]));
    HL_CHECK_OK(hl_node_add_child(joints[1], joints[2]));
    hl_node_set_translation(joints[0], (hl_vec3){100, 20, -50});
    hl_node_set_rotation(joints[0], hl_quat_from_axis_angle((hl_vec3){0, 1, 0}, PI_F / 6));
    hl_node_set_translation(joints[1], (hl_vec3){2, 0, 0});
    hl_node_set_rotation(joints[1], hl_quat_from_axis_angle((hl_vec3){0, 0, 1}, PI_F / 3));
    hl_node_set_translation(joints[2], (hl_vec3){2, 0, 0});
    hl_node_set_rotation(joints[2], hl_quat_from_axis_angle((hl_vec3){1, 0, 0}, -PI_F / 4));
    hl_node_set_scale(joints[2], (hl_vec3){1.5f, 1.5f, 1.5f});

    hl_mesh *m = NULL;
    HL_CHECK_OK(hl_mesh_create(&(hl_mesh_desc){.geometry = g, .material = mat, .name = "strip"}, &m));
    if (!m) return hl_test_finish();
    HL_CHECK_OK(hl_stage_add(s, hl_mesh_node(m)));
    hl_node_set_translation(hl_mesh_node(m), (hl_vec3){-7, 3, 0}); /* ignored when skinned */
    HL_CHECK_OK(hl_mesh_set_skin(m, &(hl_skin_desc){joints, g_ibm, 3}));
    HL_CHECK_OK(hl_stage_update(s));

    hl_aabb b = hl_mesh_world_aabb(m);
    printf("posed box (%.3f %.3f %.3f) - (%.3f %.3f %.3f)\n", b.min.x, b.min.y, b.min.z, b.max.x, b.max.y, b.max.z);
    check_box_eq(b, expected_box(joints), "posed box");
    check_holds_vertices(m, joints, "posed");
    HL_CHECK_MSG(b.min.x > 90 && b.min.z < -40, "posed box away from the mesh node (min x %g, z %g)", b.min.x, b.min.z);

    /* the joints move the bounds; the geometry too; neither allocates */
    uint64_t allocs = hl_alloc_count();
    hl_node_set_translation(joints[0], (hl_vec3){200, 20, -50});
    HL_CHECK_OK(hl_stage_update(s));
    hl_aabb moved = hl_mesh_world_aabb(m);
    HL_CHECK_MSG(fabsf(moved.min.x - (b.min.x + 100)) < 1e-3f && fabsf(moved.max.y - b.max.y) < 1e-3f,
                 "a root moved by +100 in x: min x %g (was %g)", moved.min.x, b.min.x);
    check_holds_vertices(m, joints, "root moved");
    g_pos[0] = (hl_vec3){0, -3, 1}; /* on joints 0 (0.9) and 0 (0.1) */
    HL_CHECK_OK(hl_geometry_update_attribute(g, HL_ATTR_POSITION, 0, 1, &g_pos[0]));
    hl_aabb grown = hl_mesh_world_aabb(m);
    check_box_eq(grown, expected_box(joints), "after a vertex moved");
    check_holds_vertices(m, joints, "vertex moved");
    (void)hl_mesh_world_sphere(m);
    HL_CHECK_EQ(hl_alloc_count() - allocs, 0);

    /* drawn unskinned: unskinned bounds */
    hl_geometry *plain = strip_geometry(false, false), *zero = strip_geometry(true, true);
    hl_material *shader = NULL;
    HL_CHECK_OK(hl_material_create_shader(
        &(hl_shader_material_desc){.vs = "#version 300 es\nvoid main() { gl_Position = vec4(0.0); }\n",
                                    .fs = "#version 300 es\nvoid main() {}\n"}, &shader));
    const char *what[3] = {"no JOINTS_0", "all weights 0", "shader material"};
    for (int i = 0; i < 3; i++) {
        if (i < 2) {
            HL_CHECK_OK(hl_mesh_set_geometry(m, i == 0 ? plain : zero));
        } else if (shader) {
            HL_CHECK_OK(hl_mesh_set_geometry(m, g));
            HL_CHECK_OK(hl_mesh_set_material(m, shader));
        }
        check_box_eq(hl_mesh_world_aabb(m), node_bounds(m), what[i]);
    }
    HL_CHECK_OK(hl_mesh_set_material(m, mat));
    check_box_eq(hl_mesh_world_aabb(m), expected_box(joints), "engine material again");
    HL_CHECK_OK(hl_mesh_set_skin(m, NULL));
    check_box_eq(hl_mesh_world_aabb(m), node_bounds(m), "skin removed");
    hl_sphere sp = hl_mesh_world_sphere(m);
    HL_CHECK_MSG(fabsf(sp.center.x - (-7 + 2)) < 1e-4f, "unskinned sphere centre x %g", sp.center.x);

    hl_geometry_release(plain);
    hl_geometry_release(zero);
    hl_geometry_release(g);
    hl_material_release(shader);
    hl_material_release(mat);
    hl_stage_destroy(s);
    return hl_test_finish();
}
