/* Scene layer: node kinds. A typed pointer that is really another kind of node, e.g.
 * `(hl_camera *)hl_mesh_node(mesh)`, is refused like NULL: hl_result functions fail with
 * HL_ERR_VALIDATION naming both kinds, setters do nothing, getters return their documented
 * NULL values; nothing reads or writes past the real (smaller) object. Run under ASan this
 * also proves no out-of-bounds access. Pure CPU, no device. */
#include <string.h>

#include "hilo3d/hilo3d.h"
#include "hl_test.h"

static const float k_tri[9] = {-0.5f, -0.5f, 0, 0.5f, -0.5f, 0, 0, 0.5f, 0};

static bool has(const char *needle) { return strstr(hl_last_error(), needle) != NULL; }

typedef struct objects {
    hl_geometry *geometry;
    hl_material *material;
    hl_node *group;
    hl_mesh *mesh;
    hl_camera *camera;
    hl_light *light;
} objects;

static bool make(objects *o) {
    memset(o, 0, sizeof *o);
    hl_geometry_desc d = {0};
    d.vertex_count = 3;
    d.attributes[HL_ATTR_POSITION].data = k_tri;
    HL_CHECK_OK(hl_geometry_create(&d, &o->geometry));
    HL_CHECK_OK(hl_material_create_basic(NULL, &o->material));
    HL_CHECK_OK(hl_node_create("group", &o->group));
    HL_CHECK_OK(hl_mesh_create(&(hl_mesh_desc){.geometry = o->geometry, .material = o->material, .name = "mesh"},
                               &o->mesh));
    HL_CHECK_OK(hl_camera_create(&(hl_camera_desc){.name = "camera"}, &o->camera));
    HL_CHECK_OK(hl_light_create(&(hl_light_desc){.kind = HL_LIGHT_SPOT, .name = "light"}, &o->light));
    return o->geometry && o->material && o->group && o->mesh && o->camera && o->light;
}

static void destroy(objects *o) {
    hl_node_destroy(o->group);
    hl_node_destroy(hl_mesh_node(o->mesh));
    hl_node_destroy(hl_camera_node(o->camera));
    hl_node_destroy(hl_light_node(o->light));
    hl_material_release(o->material);
    hl_geometry_release(o->geometry);
}

static void test_kind_names(void) {
    HL_CHECK(strcmp(hl_node_kind_name(HL_NODE_GROUP), "group") == 0);
    HL_CHECK(strcmp(hl_node_kind_name(HL_NODE_MESH), "mesh") == 0);
    HL_CHECK(strcmp(hl_node_kind_name(HL_NODE_CAMERA), "camera") == 0);
    HL_CHECK(strcmp(hl_node_kind_name(HL_NODE_LIGHT), "light") == 0);
    HL_CHECK(strcmp(hl_node_kind_name((hl_node_kind)77), "unknown") == 0);
}

/* Everything of hl_camera_* given a group node, a mesh and a light. */
static void test_not_a_camera(void) {
    objects o;
    if (!make(&o)) return;
    struct {
        hl_node *node;
        const char *kind;
    } others[] = {{o.group, "group"}, {hl_mesh_node(o.mesh), "mesh"}, {hl_light_node(o.light), "light"}};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; ++i) {
        hl_camera *c = (hl_camera *)others[i].node;
        uint64_t wrev = hl_node_world_revision(others[i].node);
        HL_CHECK_RESULT(hl_camera_check(c), HL_ERR_VALIDATION);
        HL_CHECK_MSG(has("expected a camera") && has(others[i].kind), "message: %s", hl_last_error());
        HL_CHECK_RESULT(hl_camera_update(c), HL_ERR_VALIDATION);
        HL_CHECK_MSG(has("hl_camera_update") && has(others[i].kind), "message: %s", hl_last_error());
        HL_CHECK_RESULT(hl_camera_set_desc(c, NULL), HL_ERR_VALIDATION);
        HL_CHECK(has(others[i].kind));
        hl_camera_set_aspect(c, 2.0f);
        HL_CHECK(hl_camera_node(c) == NULL);
        HL_CHECK(hl_camera_get_desc(c) == NULL);
        HL_CHECK(hl_camera_view(c) == NULL);
        HL_CHECK(hl_camera_projection(c) == NULL);
        HL_CHECK(hl_camera_view_projection(c) == NULL);
        HL_CHECK(hl_camera_frustum(c) == NULL);
        HL_CHECK_EQ(hl_camera_revision(c), 0);
        hl_vec3 p = hl_camera_project(c, (hl_vec3){1, 2, 3});
        HL_CHECK(p.x == 0 && p.y == 0 && p.z == 0);
        /* the node itself is untouched */
        HL_CHECK_EQ(hl_node_world_revision(others[i].node), wrev);
        HL_CHECK_EQ(hl_node_get_kind(others[i].node), i == 0 ? HL_NODE_GROUP : i == 1 ? HL_NODE_MESH : HL_NODE_LIGHT);
    }
    HL_CHECK(hl_mesh_geometry(o.mesh) == o.geometry && hl_mesh_material(o.mesh) == o.material);
    HL_CHECK(hl_light_get_desc(o.light) && hl_light_get_desc(o.light)->kind == HL_LIGHT_SPOT);
    /* NULL and the real thing */
    HL_CHECK_RESULT(hl_camera_check(NULL), HL_ERR_VALIDATION);
    HL_CHECK(has("camera is NULL"));
    HL_CHECK_RESULT(hl_camera_update(NULL), HL_ERR_VALIDATION);
    HL_CHECK_OK(hl_camera_check(o.camera));
    HL_CHECK_OK(hl_camera_update(o.camera));
    HL_CHECK(hl_camera_view(o.camera) != NULL && hl_camera_revision(o.camera) != 0);
    HL_CHECK(hl_node_camera(hl_camera_node(o.camera)) == o.camera);
    HL_CHECK(hl_node_camera(hl_mesh_node(o.mesh)) == NULL);
    destroy(&o);
}

/* Everything of hl_mesh_* given a group node, a camera and a light. */
static void test_not_a_mesh(void) {
    objects o;
    if (!make(&o)) return;
    hl_geometry *g2 = NULL;
    hl_material *m2 = NULL;
    HL_CHECK_OK(hl_geometry_create_box(NULL, &g2));
    HL_CHECK_OK(hl_material_create_pbr(NULL, &m2));
    struct {
        hl_node *node;
        const char *kind;
    } others[] = {{o.group, "group"}, {hl_camera_node(o.camera), "camera"}, {hl_light_node(o.light), "light"}};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; ++i) {
        hl_mesh *m = (hl_mesh *)others[i].node;
        HL_CHECK_RESULT(hl_mesh_check(m), HL_ERR_VALIDATION);
        HL_CHECK_MSG(has("expected a mesh") && has(others[i].kind), "message: %s", hl_last_error());
        HL_CHECK_RESULT(hl_mesh_set_geometry(m, g2), HL_ERR_VALIDATION);
        HL_CHECK(has(others[i].kind));
        HL_CHECK_RESULT(hl_mesh_set_material(m, m2), HL_ERR_VALIDATION);
        hl_mesh_set_instanced(m, true);
        hl_mesh_set_shadows(m, true, true);
        HL_CHECK(hl_mesh_node(m) == NULL);
        HL_CHECK(hl_mesh_geometry(m) == NULL);
        HL_CHECK(hl_mesh_material(m) == NULL);
        HL_CHECK(!hl_mesh_instanced(m) && !hl_mesh_cast_shadows(m) && !hl_mesh_receive_shadows(m));
        HL_CHECK_EQ(hl_mesh_revision(m), 0);
        hl_aabb b = hl_mesh_world_aabb(m);
        HL_CHECK(b.min.x == 0 && b.max.x == 0);
        HL_CHECK_EQ(hl_mesh_world_sphere(m).radius, 0);
    }
    /* the objects kept their state (a refused call released nothing) */
    HL_CHECK(hl_camera_get_desc(o.camera) && hl_camera_get_desc(o.camera)->fov_y_deg == 50.0f);
    HL_CHECK(hl_light_get_desc(o.light)->kind == HL_LIGHT_SPOT);
    HL_CHECK_RESULT(hl_mesh_check(NULL), HL_ERR_VALIDATION);
    HL_CHECK_OK(hl_mesh_check(o.mesh));
    HL_CHECK_OK(hl_mesh_set_geometry(o.mesh, g2));
    HL_CHECK(hl_mesh_geometry(o.mesh) == g2);
    hl_material_release(m2);
    hl_geometry_release(g2);
    destroy(&o);
}

/* Everything of hl_light_* given a group node, a mesh and a camera. */
static void test_not_a_light(void) {
    objects o;
    if (!make(&o)) return;
    struct {
        hl_node *node;
        const char *kind;
    } others[] = {{o.group, "group"}, {hl_mesh_node(o.mesh), "mesh"}, {hl_camera_node(o.camera), "camera"}};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; ++i) {
        hl_light *l = (hl_light *)others[i].node;
        HL_CHECK_RESULT(hl_light_check(l), HL_ERR_VALIDATION);
        HL_CHECK_MSG(has("expected a light") && has(others[i].kind), "message: %s", hl_last_error());
        HL_CHECK_RESULT(hl_light_set_desc(l, &(hl_light_desc){.kind = HL_LIGHT_POINT}), HL_ERR_VALIDATION);
        HL_CHECK(has(others[i].kind));
        hl_light_set_color(l, (hl_color){1, 0, 0, 1});
        hl_light_set_intensity(l, 5.0f);
        hl_light_set_cast_shadows(l, true);
        HL_CHECK(hl_light_node(l) == NULL);
        HL_CHECK(hl_light_get_desc(l) == NULL);
        HL_CHECK_EQ(hl_light_revision(l), 0);
        hl_vec3 d = hl_light_direction(l), p = hl_light_position(l);
        HL_CHECK(d.x == 0 && d.y == 0 && d.z == -1);
        HL_CHECK(p.x == 0 && p.y == 0 && p.z == 0);
    }
    HL_CHECK(hl_mesh_geometry(o.mesh) == o.geometry && !hl_mesh_cast_shadows(o.mesh));
    HL_CHECK(hl_camera_get_desc(o.camera)->far_plane == 1000.0f);
    HL_CHECK_RESULT(hl_light_check(NULL), HL_ERR_VALIDATION);
    HL_CHECK_OK(hl_light_check(o.light));
    destroy(&o);
}

/* A stage lists each node under its own kind only. */
static void test_stage_lists_by_kind(void) {
    objects o;
    if (!make(&o)) return;
    hl_stage *s = NULL;
    HL_CHECK_OK(hl_stage_create(&s));
    if (!s) return;
    HL_CHECK_OK(hl_stage_add(s, o.group));
    HL_CHECK_OK(hl_node_add_child(o.group, hl_mesh_node(o.mesh)));
    HL_CHECK_OK(hl_stage_add(s, hl_camera_node(o.camera)));
    HL_CHECK_OK(hl_stage_add(s, hl_light_node(o.light)));
    HL_CHECK_OK(hl_stage_update(s));
    uint32_t nm = 0, nc = 0, nl = 0;
    hl_mesh *const *meshes = hl_stage_meshes(s, &nm);
    hl_camera *const *cams = hl_stage_cameras(s, &nc);
    hl_light *const *lights = hl_stage_lights(s, &nl);
    HL_CHECK(nm == 1 && nc == 1 && nl == 1);
    if (nm == 1) HL_CHECK_OK(hl_mesh_check(meshes[0]));
    if (nc == 1) HL_CHECK_OK(hl_camera_check(cams[0]));
    if (nl == 1) HL_CHECK_OK(hl_light_check(lights[0]));
    hl_stage_destroy(s); /* owns group (and mesh), camera, light now */
    hl_material_release(o.material);
    hl_geometry_release(o.geometry);
}

int main(void) {
    test_kind_names();
    test_not_a_camera();
    test_not_a_mesh();
    test_not_a_light();
    test_stage_lists_by_kind();
    return hl_test_finish();
}
