/* Renderer pixel test: shadows from a directional, a spot and a point light (two point-light
 * cases: the caster in the -Y cube face and in the +X cube face of the light).
 *
 * Scene: a 12 x 12 ground plane (PBR, white 0.8, roughness 1, receives shadows), a floating
 * 1 x 1 x 1 box caster and one light; an orthographic camera looks straight down, 64 x 64, 1
 * sample. For each case, pixel S (the ground point whose ray to the light passes through the
 * box centre) is read in three frames:
 *   A: caster in place        -> S is in shadow;
 *   B: caster moved far aside -> S is lit;
 *   C: caster hidden          -> the reference lit value.
 * Checks (sRGB bytes, every colour channel):
 *   - C - A >= 40: the shadowed ground is clearly darker than the lit one (the expected gap is
 *     about 100 for these light strengths; 40 leaves room for PCF edges and ambient terms);
 *   - |B - C| <= 3: moving the caster away gives the lit value back (3 = PCF / depth bias
 *     differences of a shadow map re-planned around a different scene bounds);
 *   - for the directional cases also a lit pixel L of frame A far from the shadow:
 *     L - S >= 40.
 * The "offscreen_caster" case puts the caster outside the camera frustum (culled from the colour
 * passes): it must still be drawn into the shadow map and darken the visible ground. The last
 * case is the same with a skinned box whose mesh node sits in view at the origin and whose
 * joint poses it out of view (frame B moves the joint): culled by its posed bounds, which the
 * directional shadow box must also hold for the shadow to fall. */
#include <math.h>
#include <stdlib.h>

#include "hilo3d/renderer.h"
#include "hl_test.h"

enum { W = 64, H = 64 };

static hl_backend g_backend;

static hl_backend backend_of(int argc, char **argv) {
    return hl_test_backend_arg(argc, argv, HL_RHI_BACKEND_WEBGPU) == HL_RHI_BACKEND_GLES3 ? HL_BACKEND_GLES3
                                                                                          : HL_BACKEND_WEBGPU;
}

/* Pixel (clamped) of a world point seen through c: row 0 = top. */
static const uint8_t *px_at(const uint8_t *img, hl_camera *c, hl_vec3 p, int *ox, int *oy) {
    hl_vec3 n = hl_camera_project(c, p);
    int x = (int)floorf((n.x * 0.5f + 0.5f) * (float)W);
    int y = (int)floorf((0.5f - n.y * 0.5f) * (float)H);
    x = x < 0 ? 0 : x >= W ? W - 1 : x;
    y = y < 0 ? 0 : y >= H ? H - 1 : y;
    if (ox) *ox = x, *oy = y;
    return img + ((size_t)y * W + (size_t)x) * 4;
}

typedef struct shadow_case {
    const char *name;
    hl_light_kind kind;
    hl_vec3 light_pos, light_target;
    float intensity;
    hl_vec3 caster;   /* box centre */
    hl_vec3 shadow;   /* ground point in the shadow */
    hl_vec3 lit;      /* ground point lit in frame A (directional only) */
    hl_vec3 moved;    /* where the caster goes in frame B */
    bool skinned;     /* a skinned box: caster and moved place its joint, its node stays at 0 */
} shadow_case;

/* The unit box with every vertex on joint 0 (weight 1). */
static hl_geometry *skinned_box(void) {
    hl_geometry *box = NULL, *g = NULL;
    HL_CHECK_OK(hl_geometry_create_box(NULL, &box));
    if (!box) return NULL;
    const hl_geometry_layout *l = hl_geometry_get_layout(box);
    enum { MAXV = 24 };
    float pos[MAXV][3], nrm[MAXV][3], w[MAXV][4] = {{0}};
    uint8_t j[MAXV][4] = {{0}};
    HL_CHECK(l->vertex_count <= MAXV && l->index_format == HL_INDEX_UINT16);
    for (uint32_t v = 0; v < l->vertex_count && v < MAXV; v++) {
        float t[4];
        HL_CHECK_OK(hl_geometry_read_vertex(box, HL_ATTR_POSITION, v, t));
        memcpy(pos[v], t, sizeof pos[v]);
        HL_CHECK_OK(hl_geometry_read_vertex(box, HL_ATTR_NORMAL, v, t));
        memcpy(nrm[v], t, sizeof nrm[v]);
        w[v][0] = 1;
    }
    hl_geometry_desc d = {0};
    d.vertex_count = l->vertex_count < MAXV ? l->vertex_count : MAXV;
    d.attributes[HL_ATTR_POSITION] = (hl_attribute_desc){pos, HL_COMPONENT_FLOAT32, 3};
    d.attributes[HL_ATTR_NORMAL] = (hl_attribute_desc){nrm, HL_COMPONENT_FLOAT32, 3};
    d.attributes[HL_ATTR_JOINTS_0] = (hl_attribute_desc){j, HL_COMPONENT_UINT8, 4};
    d.attributes[HL_ATTR_WEIGHTS_0] = (hl_attribute_desc){w, HL_COMPONENT_FLOAT32, 4};
    d.indices = hl_geometry_index_data(box);
    d.index_count = l->index_count;
    d.index_format = l->index_format;
    HL_CHECK_OK(hl_geometry_create(&d, &g));
    hl_geometry_release(box);
    return g;
}

static void run_case(const shadow_case *sc) {
    hl_renderer_desc rd = {0};
    rd.backend = g_backend;
    rd.width = W;
    rd.height = H;
    rd.sample_count = 1;
    rd.shadow_atlas_size = 1024;
    hl_renderer *r = NULL;
    HL_CHECK_OK(hl_renderer_create(&rd, &r));
    if (!r) return;
    hl_stage *s = NULL;
    HL_CHECK_OK(hl_stage_create(&s));
    hl_stage_set_clear_color(s, (hl_color){0, 0, 0, 1});

    hl_plane_desc pl = {12, 12, 1, 1};
    hl_geometry *plane = NULL, *box = NULL;
    HL_CHECK_OK(hl_geometry_create_plane(&pl, &plane));
    if (sc->skinned) box = skinned_box();
    else HL_CHECK_OK(hl_geometry_create_box(NULL, &box));
    hl_pbr_material_desc pd = {0};
    pd.base_color = (hl_color){0.8f, 0.8f, 0.8f, 1};
    pd.roughness = 1.0f;
    hl_material *ground_mat = NULL, *box_mat = NULL;
    HL_CHECK_OK(hl_material_create_pbr(&pd, &ground_mat));
    pd.base_color = (hl_color){0.9f, 0.2f, 0.2f, 1};
    HL_CHECK_OK(hl_material_create_pbr(&pd, &box_mat));

    hl_mesh_desc md = {0};
    md.geometry = plane;
    md.material = ground_mat;
    md.receive_shadows = true;
    hl_mesh *ground = NULL, *caster = NULL;
    HL_CHECK_OK(hl_mesh_create(&md, &ground));
    hl_node_set_rotation(hl_mesh_node(ground), hl_quat_from_axis_angle((hl_vec3){1, 0, 0}, -1.5707963f));
    HL_CHECK_OK(hl_stage_add(s, hl_mesh_node(ground)));
    md.geometry = box;
    md.material = box_mat;
    md.cast_shadows = true;
    md.receive_shadows = false;
    HL_CHECK_OK(hl_mesh_create(&md, &caster));
    /* what moves the caster: its node, or (skinned) its joint */
    hl_node *mover = hl_mesh_node(caster);
    if (sc->skinned) {
        HL_CHECK_OK(hl_node_create("joint", &mover));
        HL_CHECK_OK(hl_stage_add(s, mover));
        HL_CHECK_OK(hl_mesh_set_skin(caster, &(hl_skin_desc){&mover, NULL, 1}));
    }
    hl_node_set_translation(mover, sc->caster);
    HL_CHECK_OK(hl_stage_add(s, hl_mesh_node(caster)));

    hl_light_desc ld = {0};
    ld.kind = HL_LIGHT_AMBIENT;
    ld.intensity = 0.1f;
    hl_light *amb = NULL, *light = NULL;
    HL_CHECK_OK(hl_light_create(&ld, &amb));
    HL_CHECK_OK(hl_stage_add(s, hl_light_node(amb)));
    ld = (hl_light_desc){0};
    ld.kind = sc->kind;
    ld.intensity = sc->intensity;
    ld.outer_cone_deg = 40.0f;
    ld.inner_cone_deg = 35.0f;
    ld.cast_shadows = true;
    HL_CHECK_OK(hl_light_create(&ld, &light));
    hl_node_set_translation(hl_light_node(light), sc->light_pos);
    hl_vec3 dir = {sc->light_target.x - sc->light_pos.x, sc->light_target.y - sc->light_pos.y,
                   sc->light_target.z - sc->light_pos.z};
    hl_node_look_at(hl_light_node(light), sc->light_target, fabsf(dir.x) + fabsf(dir.z) < 1e-3f ? (hl_vec3){0, 0, 1}
                                                                                              : (hl_vec3){0, 1, 0});
    HL_CHECK_OK(hl_stage_add(s, hl_light_node(light)));

    hl_camera_desc cd = {0};
    cd.projection = HL_PROJECTION_ORTHOGRAPHIC;
    cd.left = -6, cd.right = 6, cd.bottom = -6, cd.top = 6;
    cd.near_plane = 0.1f, cd.far_plane = 30.0f;
    hl_camera *cam = NULL;
    HL_CHECK_OK(hl_camera_create(&cd, &cam));
    hl_node_set_translation(hl_camera_node(cam), (hl_vec3){0, 15, 0});
    hl_node_look_at(hl_camera_node(cam), (hl_vec3){0, 0, 0}, (hl_vec3){0, 0, -1});
    HL_CHECK_OK(hl_stage_add(s, hl_camera_node(cam)));

    static uint8_t a[W * H * 4], b[W * H * 4], c[W * H * 4];
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_MSG(hl_renderer_stats(r)->shadow_tiles == (sc->kind == HL_LIGHT_POINT ? 6u : 1u),
                 "%s: shadow tiles %u", sc->name, hl_renderer_stats(r)->shadow_tiles);
    if (strncmp(sc->name, "offscreen_", 10) == 0) {
        HL_CHECK_EQ(hl_renderer_stats(r)->meshes_culled, 1);
        HL_CHECK_EQ(hl_renderer_stats(r)->draws, 1);
    }
    HL_CHECK_OK(hl_renderer_read_pixels(r, a, sizeof a));
    hl_node_set_translation(mover, sc->moved);
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_OK(hl_renderer_read_pixels(r, b, sizeof b));
    hl_node_set_visible(hl_mesh_node(caster), false);
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_OK(hl_renderer_read_pixels(r, c, sizeof c));

    int x, y;
    const uint8_t *pa = px_at(a, cam, sc->shadow, &x, &y);
    const uint8_t *pb = px_at(b, cam, sc->shadow, NULL, NULL);
    const uint8_t *pc = px_at(c, cam, sc->shadow, NULL, NULL);
    printf("%s: S (%d,%d) shadowed %u,%u,%u  moved %u,%u,%u  no caster %u,%u,%u\n", sc->name, x, y, pa[0], pa[1], pa[2],
           pb[0], pb[1], pb[2], pc[0], pc[1], pc[2]);
    for (int k = 0; k < 3; k++) {
        HL_CHECK_MSG(pc[k] - pa[k] >= 40, "%s: channel %d lit %u vs shadowed %u (margin 40)", sc->name, k, pc[k], pa[k]);
        HL_CHECK_MSG(abs(pb[k] - pc[k]) <= 3, "%s: channel %d after moving %u vs lit %u (+-3)", sc->name, k, pb[k], pc[k]);
    }
    if (sc->kind == HL_LIGHT_DIRECTIONAL) {
        const uint8_t *pl2 = px_at(a, cam, sc->lit, &x, &y);
        printf("%s: L (%d,%d) lit %u,%u,%u\n", sc->name, x, y, pl2[0], pl2[1], pl2[2]);
        for (int k = 0; k < 3; k++)
            HL_CHECK_MSG(pl2[k] - pa[k] >= 40, "%s: channel %d lit pixel %u vs shadowed %u", sc->name, k, pl2[k], pa[k]);
    }
    char path[96];
    snprintf(path, sizeof path, "px_render_shadow_%s_%s.png", sc->name, hl_backend_name(g_backend));
    hl_test_write_png(path, W, H, a);

    hl_geometry_release(plane);
    hl_geometry_release(box);
    hl_material_release(ground_mat);
    hl_material_release(box_mat);
    hl_stage_destroy(s);
    hl_renderer_destroy(r);
}

int main(int argc, char **argv) {
    g_backend = backend_of(argc, argv);
    /* light from up-left (-x): the box at height 2 throws its shadow 1 unit towards +x */
    static const shadow_case cases[] = {
        {"directional", HL_LIGHT_DIRECTIONAL, {-5, 10, 0}, {0, 0, 0}, 3.0f, {0, 2, 0}, {1.0f, 0, 0}, {-3, 0, 3},
         {-3, 2, 3.5f}, false},
        {"spot", HL_LIGHT_SPOT, {-3, 6, 0}, {1, 0, 0}, 120.0f, {-1, 2, 0}, {0, 0, 0}, {0, 0, 0}, {-3, 2, 4.5f}, false},
        /* point light at (-2, 5, 0): box in its -Y face, the shadow at x = 1 (through (-0.8, 3)) */
        {"point_down", HL_LIGHT_POINT, {-2, 5, 0}, {-2, 0, 0}, 120.0f, {-0.8f, 3, 0}, {1, 0, 0}, {0, 0, 0},
         {-4, 1, 4.5f}, false},
        /* point light at (0, 3, 0): box in its +X face, the shadow at x = 4.5 */
        {"point_side", HL_LIGHT_POINT, {0, 3, 0}, {0, 0, 0}, 120.0f, {1.5f, 2, 0}, {4.5f, 0, 0}, {0, 0, 0},
         {-3, 1, -4.5f}, false},
        /* a caster outside the camera's view (x < -6.6 with its bounding sphere) still shadows
           the visible ground at x = -5.5 */
        {"offscreen_caster", HL_LIGHT_DIRECTIONAL, {-5, 10, 0}, {0, 0, 0}, 3.0f, {-7.5f, 4, 0}, {-5.5f, 0, 0},
         {-3, 0, 3}, {-7.5f, 4, 8}, false},
        {"offscreen_skinned_caster", HL_LIGHT_DIRECTIONAL, {-5, 10, 0}, {0, 0, 0}, 3.0f, {-7.5f, 4, 0}, {-5.5f, 0, 0},
         {-3, 0, 3}, {-7.5f, 4, 8}, true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) run_case(&cases[i]);
    return hl_test_finish();
}
