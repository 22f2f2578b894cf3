/* Scene layer: node hierarchy, world matrices, dirty propagation, stage lists, cameras,
 * frustum culling, lights. Pure CPU, no device. */
#include <math.h>

#include "hilo3d/hilo3d.h"
#include "hl_test.h"

#define NEAR(a, b, eps)                                                                                                \
    HL_CHECK_MSG(fabs((double)(a) - (double)(b)) <= (eps), "%s = %.6f, expected %.6f", #a, (double)(a), (double)(b))
#define PI_F 3.14159265f

static hl_geometry *g_box;
static hl_material *g_mat;

static hl_mesh *make_mesh(const char *name) {
    hl_mesh *m = NULL;
    HL_CHECK_OK(hl_mesh_create(&(hl_mesh_desc){.geometry = g_box, .material = g_mat, .name = name}, &m));
    return m;
}

static void test_world_matrices(void) {
    hl_stage *s = NULL;
    HL_CHECK_OK(hl_stage_create(&s));
    hl_node *parent = NULL, *child = NULL;
    HL_CHECK_OK(hl_node_create("parent", &parent));
    HL_CHECK_OK(hl_node_create("child", &child));
    HL_CHECK_OK(hl_stage_add(s, parent));
    HL_CHECK_OK(hl_node_add_child(parent, child));
    hl_node_set_translation(parent, (hl_vec3){10, 0, 0});
    hl_node_set_rotation(parent, hl_quat_from_axis_angle((hl_vec3){0, 1, 0}, PI_F / 2)); /* +X -> -Z */
    hl_node_set_translation(child, (hl_vec3){1, 0, 0});
    HL_CHECK_OK(hl_stage_update(s));
    hl_vec3 p = hl_node_world_position(child);
    NEAR(p.x, 10, 1e-5);
    NEAR(p.y, 0, 1e-5);
    NEAR(p.z, -1, 1e-5);
    /* the child's local +X axis (column 0) is the parent's rotated X: (0, 0, -1) */
    const hl_mat4 *w = hl_node_world_matrix(child);
    NEAR(w->m[0], 0, 1e-5);
    NEAR(w->m[2], -1, 1e-5);
    NEAR(w->m[8], 1, 1e-5); /* local +Z -> +X */

    /* scaling the parent scales the child's offset */
    hl_node_set_scale(parent, (hl_vec3){2, 2, 2});
    HL_CHECK_OK(hl_stage_update(s));
    p = hl_node_world_position(child);
    NEAR(p.x, 10, 1e-5);
    NEAR(p.z, -2, 1e-5);

    /* a transformed point: child-local (0, 1, 0) -> parent scale 2 -> (10, 2, -2) */
    hl_vec3 q = hl_mat4_transform_point(hl_node_world_matrix(child), (hl_vec3){0, 1, 0});
    NEAR(q.x, 10, 1e-5);
    NEAR(q.y, 2, 1e-5);
    NEAR(q.z, -2, 1e-5);

    /* local matrix matches TRS */
    hl_mat4 local = hl_node_local_matrix(parent);
    NEAR(local.m[12], 10, 1e-6);
    NEAR(local.m[1], 0, 1e-6);
    hl_stage_destroy(s);
}

static void test_dirty_propagation(void) {
    hl_stage *s = NULL;
    HL_CHECK_OK(hl_stage_create(&s));
    hl_node *a = NULL, *b = NULL, *c = NULL, *sib = NULL;
    HL_CHECK_OK(hl_node_create("a", &a));
    HL_CHECK_OK(hl_node_create("b", &b));
    HL_CHECK_OK(hl_node_create("c", &c));
    HL_CHECK_OK(hl_node_create("sib", &sib));
    HL_CHECK_OK(hl_stage_add(s, a));
    HL_CHECK_OK(hl_stage_add(s, sib));
    HL_CHECK_OK(hl_node_add_child(a, b));
    HL_CHECK_OK(hl_node_add_child(b, c));
    HL_CHECK_OK(hl_stage_update(s));
    uint64_t ra = hl_node_world_revision(a), rb = hl_node_world_revision(b), rc = hl_node_world_revision(c),
             rs = hl_node_world_revision(sib);
    /* nothing changed: nothing recomputed */
    HL_CHECK_OK(hl_stage_update(s));
    HL_CHECK_EQ(hl_node_world_revision(a), ra);
    HL_CHECK_EQ(hl_node_world_revision(c), rc);
    /* setters only mark dirty: the world matrix keeps its old value until the update */
    hl_node_set_translation(a, (hl_vec3){0, 5, 0});
    NEAR(hl_node_world_position(c).y, 0, 0);
    HL_CHECK_OK(hl_stage_update(s));
    /* revisions are process-unique values (revision.h): compare, never count */
    HL_CHECK(hl_node_world_revision(a) > ra);
    HL_CHECK(hl_node_world_revision(b) > rb);
    HL_CHECK(hl_node_world_revision(c) > rc);
    HL_CHECK_EQ(hl_node_world_revision(sib), rs);
    ra = hl_node_world_revision(a), rb = hl_node_world_revision(b), rc = hl_node_world_revision(c);
    NEAR(hl_node_world_position(c).y, 5, 1e-6);
    /* a leaf change touches only the leaf */
    hl_node_set_translation(c, (hl_vec3){1, 0, 0});
    HL_CHECK_OK(hl_stage_update(s));
    HL_CHECK_EQ(hl_node_world_revision(a), ra);
    HL_CHECK_EQ(hl_node_world_revision(b), rb);
    HL_CHECK(hl_node_world_revision(c) > rc);
    /* hl_node_update_world on a leaf refreshes the ancestor chain, and the next stage update
     * still notices the children of a refreshed ancestor */
    hl_node_set_translation(a, (hl_vec3){0, 7, 0});
    hl_node_update_world(b);
    NEAR(hl_node_world_position(b).y, 7, 1e-6);
    NEAR(hl_node_world_position(c).y, 5, 1e-6); /* not yet */
    HL_CHECK_OK(hl_stage_update(s));
    NEAR(hl_node_world_position(c).y, 7, 1e-6);
    /* re-parenting: c moves under sib at the origin */
    HL_CHECK_OK(hl_node_remove_child(b, c));
    HL_CHECK_OK(hl_node_add_child(sib, c));
    HL_CHECK_OK(hl_stage_update(s));
    NEAR(hl_node_world_position(c).y, 0, 1e-6);
    NEAR(hl_node_world_position(c).x, 1, 1e-6);
    hl_stage_destroy(s);
}

static void test_structure_and_lists(void) {
    hl_stage *s = NULL;
    HL_CHECK_OK(hl_stage_create(&s));
    hl_node *group = NULL;
    HL_CHECK_OK(hl_node_create("group", &group));
    HL_CHECK_OK(hl_stage_add(s, group));
    hl_mesh *m1 = make_mesh("m1"), *m2 = make_mesh("m2"), *m3 = make_mesh("m3");
    HL_CHECK_OK(hl_node_add_child(group, hl_mesh_node(m1)));
    HL_CHECK_OK(hl_node_add_child(group, hl_mesh_node(m2)));
    HL_CHECK_OK(hl_stage_add(s, hl_mesh_node(m3)));
    hl_light *sun = NULL;
    HL_CHECK_OK(hl_light_create(&(hl_light_desc){.kind = HL_LIGHT_DIRECTIONAL, .name = "sun"}, &sun));
    HL_CHECK_OK(hl_stage_add(s, hl_light_node(sun)));
    HL_CHECK_OK(hl_stage_update(s));
    uint32_t n = 0;
    hl_mesh *const *meshes = hl_stage_meshes(s, &n);
    HL_CHECK_EQ(n, 3);
    if (n == 3) {
        HL_CHECK(meshes[0] == m1); /* depth-first, insertion order */
        HL_CHECK(meshes[1] == m2);
        HL_CHECK(meshes[2] == m3);
    }
    hl_stage_lights(s, &n);
    HL_CHECK_EQ(n, 1);
    HL_CHECK(hl_node_find(hl_stage_root(s), "m2") == hl_mesh_node(m2));
    HL_CHECK(hl_node_find(hl_stage_root(s), "nope") == NULL);
    HL_CHECK(hl_node_mesh(hl_mesh_node(m1)) == m1);
    HL_CHECK(hl_node_light(hl_mesh_node(m1)) == NULL);
    HL_CHECK_EQ(hl_node_get_kind(hl_light_node(sun)), HL_NODE_LIGHT);
    HL_CHECK_EQ(hl_node_child_count(group), 2);

    /* an invisible group hides its subtree */
    uint64_t rev = hl_stage_structure_revision(s);
    hl_node_set_visible(group, false);
    HL_CHECK(hl_stage_structure_revision(s) > rev);
    HL_CHECK_OK(hl_stage_update(s));
    meshes = hl_stage_meshes(s, &n);
    HL_CHECK_EQ(n, 1);
    if (n == 1) HL_CHECK(meshes[0] == m3);
    hl_node_set_visible(group, true);

    /* steady state: an update allocates nothing */
    HL_CHECK_OK(hl_stage_update(s));
    uint64_t before = hl_alloc_count();
    for (int i = 0; i < 10; ++i) {
        hl_node_set_translation(group, (hl_vec3){(float)i, 0, 0});
        HL_CHECK_OK(hl_stage_update(s));
    }
    HL_CHECK_EQ(hl_alloc_count() - before, 0);

    /* destroying a node in the stage empties the lists until the next update */
    hl_node_destroy(hl_mesh_node(m2));
    hl_stage_meshes(s, &n);
    HL_CHECK_EQ(n, 0);
    HL_CHECK_OK(hl_stage_update(s));
    hl_stage_meshes(s, &n);
    HL_CHECK_EQ(n, 2);
    HL_CHECK_EQ(hl_node_child_count(group), 1);

    /* bad structure edits */
    hl_node *loose = NULL;
    HL_CHECK_OK(hl_node_create(NULL, &loose));
    HL_CHECK_RESULT(hl_node_add_child(hl_mesh_node(m1), group), HL_ERR_VALIDATION); /* group has a parent */
    HL_CHECK_RESULT(hl_node_add_child(loose, loose), HL_ERR_VALIDATION);            /* cycle */
    HL_CHECK_RESULT(hl_node_remove_child(group, loose), HL_ERR_NOT_FOUND);
    HL_CHECK_RESULT(hl_node_add_child(loose, hl_stage_root(s)), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "stage root") != NULL);
    /* removing hands ownership back: group (with m1) is destroyed by us, not the stage */
    HL_CHECK_OK(hl_node_remove_child(hl_stage_root(s), group));
    HL_CHECK_OK(hl_node_add_child(loose, group));
    HL_CHECK_RESULT(hl_node_add_child(hl_mesh_node(m1), loose), HL_ERR_VALIDATION); /* loose is an ancestor of m1 */
    hl_node_destroy(loose);
    HL_CHECK_OK(hl_stage_update(s));
    hl_stage_meshes(s, &n);
    HL_CHECK_EQ(n, 1);
    HL_CHECK_EQ(hl_stage_fog(s)->mode, HL_FOG_NONE);
    hl_stage_set_fog(s, &(hl_fog){.mode = HL_FOG_LINEAR, .start = 5});
    HL_CHECK_EQ(hl_stage_fog(s)->mode, HL_FOG_LINEAR);
    NEAR(hl_stage_fog(s)->end, 100, 0);
    hl_stage_destroy(s);
}

static void test_mesh_bounds_and_refs(void) {
    hl_mesh *m = make_mesh("b");
    hl_node_set_translation(hl_mesh_node(m), (hl_vec3){5, 0, 0});
    hl_node_set_scale(hl_mesh_node(m), (hl_vec3){2, 2, 2});
    hl_node_update_world(hl_mesh_node(m));
    hl_sphere sp = hl_mesh_world_sphere(m);
    NEAR(sp.center.x, 5, 1e-5);
    NEAR(sp.radius, sqrt(3.0), 1e-5);
    hl_aabb bb = hl_mesh_world_aabb(m);
    NEAR(bb.min.x, 4, 1e-5);
    NEAR(bb.max.y, 1, 1e-5);
    uint64_t r = hl_mesh_revision(m);
    hl_mesh_set_instanced(m, true);
    HL_CHECK(hl_mesh_revision(m) > r);
    HL_CHECK(hl_mesh_instanced(m));
    HL_CHECK_RESULT(hl_mesh_create(&(hl_mesh_desc){.geometry = g_box}, &(hl_mesh *){0}), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "material") != NULL);
    hl_node_destroy(hl_mesh_node(m));
}

static void test_camera(void) {
    hl_camera *cam = NULL;
    HL_CHECK_OK(
        hl_camera_create(&(hl_camera_desc){.fov_y_deg = 90, .aspect = 1, .near_plane = 1, .far_plane = 100}, &cam));
    hl_camera_update(cam);
    hl_vec3 p = hl_camera_project(cam, (hl_vec3){0, 0, -1});
    NEAR(p.z, 0, 1e-6); /* near plane -> depth 0 (WebGPU clip space) */
    p = hl_camera_project(cam, (hl_vec3){0, 0, -100});
    NEAR(p.z, 1, 1e-5); /* far plane -> depth 1 */
    p = hl_camera_project(cam, (hl_vec3){0, 0, -10});
    NEAR(p.z, 100.0 / 99.0 * 0.9, 1e-5);
    p = hl_camera_project(cam, (hl_vec3){0.5f, 0.25f, -2});
    NEAR(p.x, 0.25, 1e-6);
    NEAR(p.y, 0.125, 1e-6);
    /* the GL variant maps near to -1 and far to +1 */
    hl_mat4 gl = hl_mat4_clip_zo_to_no(hl_camera_projection(cam));
    NEAR(hl_mat4_transform_point(&gl, (hl_vec3){0, 0, -1}).z, -1, 1e-5);
    NEAR(hl_mat4_transform_point(&gl, (hl_vec3){0, 0, -100}).z, 1, 1e-4);

    /* moving the camera bumps its revision and moves the view */
    uint64_t rev = hl_camera_revision(cam);
    hl_camera_update(cam);
    HL_CHECK_EQ(hl_camera_revision(cam), rev);
    hl_node_set_translation(hl_camera_node(cam), (hl_vec3){10, 0, 0});
    hl_node_look_at(hl_camera_node(cam), (hl_vec3){0, 0, 0}, (hl_vec3){0, 1, 0});
    hl_camera_update(cam);
    HL_CHECK(hl_camera_revision(cam) > rev);
    p = hl_camera_project(cam, (hl_vec3){0, 0, 0});
    NEAR(p.x, 0, 1e-5);
    NEAR(p.y, 0, 1e-5);
    HL_CHECK(p.z > 0 && p.z < 1);
    /* looking down -X from +10, the camera's right is world -Z */
    p = hl_camera_project(cam, (hl_vec3){0, 0, -1});
    HL_CHECK_MSG(p.x > 0, "world -Z appears on the right (x = %f)", (double)p.x);

    /* frustum culling */
    const hl_frustum *f = hl_camera_frustum(cam);
    HL_CHECK(hl_frustum_test_sphere(f, &(hl_sphere){{0, 0, 0}, 1}));
    HL_CHECK(!hl_frustum_test_sphere(f, &(hl_sphere){{20, 0, 0}, 1}));   /* behind */
    HL_CHECK(!hl_frustum_test_sphere(f, &(hl_sphere){{-200, 0, 0}, 1})); /* beyond far */
    HL_CHECK(!hl_frustum_test_sphere(f, &(hl_sphere){{0, 0, 50}, 1}));   /* far to the side */
    HL_CHECK(hl_frustum_test_sphere(f, &(hl_sphere){{9.5f, 0, 0}, 1}));  /* straddles the near plane */
    HL_CHECK(hl_frustum_test_sphere(f, &(hl_sphere){{0, 0, 10.5f}, 1})); /* crosses a side plane */
    HL_CHECK(hl_frustum_test_aabb(f, &(hl_aabb){{-1, -1, -1}, {1, 1, 1}}));
    HL_CHECK(!hl_frustum_test_aabb(f, &(hl_aabb){{11, -1, -1}, {12, 1, 1}}));

    /* the aspect stretches x */
    hl_camera_set_aspect(cam, 2);
    hl_camera_update(cam);
    HL_CHECK_EQ(hl_camera_get_desc(cam)->aspect, 2);

    /* orthographic */
    hl_camera *ortho = NULL;
    HL_CHECK_OK(hl_camera_create(&(hl_camera_desc){.projection = HL_PROJECTION_ORTHOGRAPHIC,
                                                   .left = -2,
                                                   .right = 2,
                                                   .bottom = -1,
                                                   .top = 1,
                                                   .near_plane = 1,
                                                   .far_plane = 11},
                                 &ortho));
    hl_camera_update(ortho);
    p = hl_camera_project(ortho, (hl_vec3){1, 0.5f, -6});
    NEAR(p.x, 0.5, 1e-6);
    NEAR(p.y, 0.5, 1e-6);
    NEAR(p.z, 0.5, 1e-6);

    /* defaults and errors */
    hl_camera *def = NULL;
    HL_CHECK_OK(hl_camera_create(NULL, &def));
    NEAR(hl_camera_get_desc(def)->fov_y_deg, 50, 0);
    NEAR(hl_camera_get_desc(def)->far_plane, 1000, 0);
    HL_CHECK_RESULT(hl_camera_create(&(hl_camera_desc){.fov_y_deg = 200}, &(hl_camera *){0}), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "fov_y_deg") != NULL);
    HL_CHECK_RESULT(hl_camera_create(&(hl_camera_desc){.near_plane = 10, .far_plane = 5}, &(hl_camera *){0}),
                    HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "far_plane") != NULL);
    hl_node_destroy(hl_camera_node(cam));
    hl_node_destroy(hl_camera_node(ortho));
    hl_node_destroy(hl_camera_node(def));
}

static void test_lights(void) {
    hl_light *l = NULL;
    HL_CHECK_OK(hl_light_create(&(hl_light_desc){.kind = HL_LIGHT_SPOT, .intensity = 3, .cast_shadows = true}, &l));
    const hl_light_desc *d = hl_light_get_desc(l);
    NEAR(d->color.r, 1, 0);
    NEAR(d->intensity, 3, 0);
    NEAR(d->outer_cone_deg, 30, 0);
    NEAR(d->shadow.bias, 0.005, 1e-9);
    HL_CHECK_EQ(d->shadow.map_size, 1024);
    HL_CHECK(d->cast_shadows);
    hl_node_set_translation(hl_light_node(l), (hl_vec3){0, 10, 0});
    hl_node_look_at(hl_light_node(l), (hl_vec3){0, 0, 0}, (hl_vec3){0, 0, -1});
    hl_node_update_world(hl_light_node(l));
    hl_vec3 dir = hl_light_direction(l);
    NEAR(dir.x, 0, 1e-5);
    NEAR(dir.y, -1, 1e-5);
    NEAR(dir.z, 0, 1e-5);
    NEAR(hl_light_position(l).y, 10, 1e-6);
    uint64_t r = hl_light_revision(l);
    hl_light_set_intensity(l, 0);
    HL_CHECK(hl_light_revision(l) > r);
    NEAR(hl_light_get_desc(l)->intensity, 0, 0);
    HL_CHECK_RESULT(hl_light_create(&(hl_light_desc){.kind = HL_LIGHT_SPOT, .outer_cone_deg = 100}, &(hl_light *){0}),
                    HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "outer_cone_deg") != NULL);
    HL_CHECK_RESULT(hl_light_create(&(hl_light_desc){.kind = HL_LIGHT_AMBIENT, .cast_shadows = true}, &(hl_light *){0}),
                    HL_ERR_VALIDATION);
    HL_CHECK_RESULT(hl_light_set_desc(l, &(hl_light_desc){.kind = HL_LIGHT_POINT, .inner_cone_deg = 45}),
                    HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "inner_cone_deg") != NULL);
    hl_node_destroy(hl_light_node(l));
}

int main(void) {
    HL_CHECK_OK(hl_geometry_create_box(NULL, &g_box));
    HL_CHECK_OK(hl_material_create_basic(NULL, &g_mat));
    test_world_matrices();
    test_dirty_propagation();
    test_structure_and_lists();
    test_mesh_bounds_and_refs();
    test_camera();
    test_lights();
    hl_geometry_release(g_box);
    hl_material_release(g_mat);
    return hl_test_finish();
}
