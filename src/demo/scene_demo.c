/* The built-in demo scene (see hl_scene_demo.h). */
#include "hl_scene_demo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DEMO_TRY(expr)                                                                                 \
    do {                                                                                               \
        res = (expr);                                                                                  \
        if (res) goto fail;                                                                            \
    } while (0)

/* Adds a mesh of geometry + material at a position; the mesh holds its own references. */
static hl_result add_mesh(hl_stage *s, hl_geometry *g, hl_material *m, hl_vec3 pos, bool cast, bool receive,
                          bool instanced, const char *name, hl_mesh **out) {
    hl_mesh_desc md = {0};
    md.geometry = g;
    md.material = m;
    md.cast_shadows = cast;
    md.receive_shadows = receive;
    md.instanced = instanced;
    md.name = name;
    hl_mesh *mesh = NULL;
    hl_result res = hl_mesh_create(&md, &mesh);
    if (res) return res;
    hl_node_set_translation(hl_mesh_node(mesh), pos);
    res = hl_stage_add(s, hl_mesh_node(mesh));
    if (res) {
        hl_node_destroy(hl_mesh_node(mesh));
        return res;
    }
    if (out) *out = mesh;
    return HL_OK;
}

hl_result hl_scene_demo_create(float aspect, hl_scene_demo *out) {
    memset(out, 0, sizeof *out);
    hl_result res;
    hl_geometry *sphere = NULL, *plane = NULL, *box = NULL, *cube = NULL, *pane = NULL;
    hl_material *ground = NULL, *crate = NULL, *cube_mat = NULL, *glass[2] = {NULL, NULL};
    hl_texture *checker = NULL;
    DEMO_TRY(hl_stage_create(&out->stage));
    hl_stage *s = out->stage;
    hl_stage_set_clear_color(s, (hl_color){0.02f, 0.025f, 0.035f, 1.0f});

    /* camera */
    hl_camera_desc cd = {0};
    cd.fov_y_deg = 45.0f;
    cd.aspect = aspect > 0 ? aspect : 16.0f / 9.0f;
    cd.near_plane = 0.1f;
    cd.far_plane = 100.0f;
    cd.name = "camera";
    DEMO_TRY(hl_camera_create(&cd, &out->camera));
    hl_node_set_translation(hl_camera_node(out->camera), (hl_vec3){0.0f, 6.5f, 13.0f});
    out->camera_target = (hl_vec3){0.0f, 0.5f, 0.0f};
    hl_node_look_at(hl_camera_node(out->camera), out->camera_target, (hl_vec3){0, 1, 0});
    DEMO_TRY(hl_stage_add(s, hl_camera_node(out->camera)));

    /* a 5 x 5 grid of spheres: metallic 0 -> 1 along x, roughness 0 -> 1 along z */
    hl_sphere_desc sd = {0.45f, 48, 24};
    DEMO_TRY(hl_geometry_create_sphere(&sd, &sphere));
    for (int iz = 0; iz < 5; iz++) {
        for (int ix = 0; ix < 5; ix++) {
            hl_pbr_material_desc pd = {0};
            pd.base_color = (hl_color){0.85f, 0.45f, 0.2f, 1.0f};
            pd.metallic = (float)ix / 4.0f;
            pd.roughness = 0.05f + 0.95f * (float)iz / 4.0f;
            hl_material *m = NULL;
            DEMO_TRY(hl_material_create_pbr(&pd, &m));
            res = add_mesh(s, sphere, m, (hl_vec3){(float)ix * 1.2f - 2.4f, 0.45f, (float)iz * 1.2f - 2.4f}, true, true,
                           false, "sphere", NULL);
            hl_material_release(m);
            if (res) goto fail;
        }
    }

    /* ground plane (XY plane rotated to XZ) */
    hl_plane_desc pl = {24.0f, 24.0f, 1, 1};
    DEMO_TRY(hl_geometry_create_plane(&pl, &plane));
    hl_pbr_material_desc gd = {0};
    gd.base_color = (hl_color){0.55f, 0.57f, 0.6f, 1.0f};
    gd.roughness = 0.9f;
    DEMO_TRY(hl_material_create_pbr(&gd, &ground));
    hl_mesh *ground_mesh = NULL;
    DEMO_TRY(add_mesh(s, plane, ground, (hl_vec3){0, 0, 0}, false, true, false, "ground", &ground_mesh));
    hl_node_set_rotation(hl_mesh_node(ground_mesh), hl_quat_from_axis_angle((hl_vec3){1, 0, 0}, -1.5707963f));

    /* a textured box */
    uint8_t px[64 * 64 * 4];
    for (int y = 0; y < 64; y++)
        for (int x = 0; x < 64; x++) {
            uint8_t *p = px + (y * 64 + x) * 4;
            bool on = ((x / 8) ^ (y / 8)) & 1;
            p[0] = on ? 230 : 60, p[1] = on ? 200 : 40, p[2] = on ? 120 : 30, p[3] = 255;
        }
    hl_texture_desc td = {0};
    td.width = td.height = 64;
    td.pixels = px;
    td.pixels_size = sizeof px;
    td.label = "checker";
    DEMO_TRY(hl_texture_create(&td, &checker));
    hl_pbr_material_desc bd = {0};
    bd.roughness = 0.6f;
    bd.textures[HL_TEXTURE_BASE_COLOR].texture = checker;
    DEMO_TRY(hl_material_create_pbr(&bd, &crate));
    hl_box_desc bx = {1.2f, 1.2f, 1.2f};
    DEMO_TRY(hl_geometry_create_box(&bx, &box));
    DEMO_TRY(add_mesh(s, box, crate, (hl_vec3){4.3f, 0.6f, -0.5f}, true, true, false, "box", &out->box));
    hl_node_set_rotation(hl_mesh_node(out->box), hl_quat_from_axis_angle((hl_vec3){0, 1, 0}, 0.5f));

    /* instanced cubes: a ring of 300 small cubes, one instanced draw */
    hl_box_desc cb = {0.18f, 0.18f, 0.18f};
    DEMO_TRY(hl_geometry_create_box(&cb, &cube));
    hl_pbr_material_desc cm = {0};
    cm.base_color = (hl_color){0.2f, 0.55f, 0.9f, 1.0f};
    cm.metallic = 0.2f;
    cm.roughness = 0.4f;
    DEMO_TRY(hl_material_create_pbr(&cm, &cube_mat));
    for (uint32_t i = 0; i < 300; i++) {
        float a = (float)i / 300.0f * 6.2831853f * 3.0f;
        float rr = 5.2f + 0.9f * (float)(i % 3);
        float y = 0.09f + 0.25f * (float)((i * 7) % 5);
        hl_mesh *m = NULL;
        DEMO_TRY(add_mesh(s, cube, cube_mat, (hl_vec3){cosf(a) * rr, y, sinf(a) * rr - 1.0f}, true, true, true, "cube", &m));
        hl_node_set_rotation(hl_mesh_node(m), hl_quat_from_axis_angle((hl_vec3){0.3f, 1, 0.2f}, a * 2.0f));
    }
    out->instanced_cubes = 300;

    /* transparent panes */
    hl_plane_desc pp = {2.2f, 1.6f, 1, 1};
    DEMO_TRY(hl_geometry_create_plane(&pp, &pane));
    hl_color pane_colors[2] = {{0.2f, 0.8f, 0.4f, 0.35f}, {0.9f, 0.2f, 0.3f, 0.35f}};
    for (int i = 0; i < 2; i++) {
        hl_pbr_material_desc gm = {0};
        gm.base_color = pane_colors[i];
        gm.roughness = 0.1f;
        gm.state.alpha_mode = HL_ALPHA_BLEND;
        gm.state.double_sided = true;
        DEMO_TRY(hl_material_create_pbr(&gm, &glass[i]));
        DEMO_TRY(add_mesh(s, pane, glass[i], (hl_vec3){-4.2f + 1.0f * (float)i, 0.8f, 1.5f - 1.2f * (float)i}, false,
                          false, false, "pane", NULL));
    }

    /* light: the default studio environment (image-based), a directional sun and a spot, both
       casting shadows */
    hl_environment *env = NULL;
    DEMO_TRY(hl_environment_create_default(&env));
    hl_environment_set_intensity(env, 0.4f);
    hl_stage_set_environment(s, env);
    hl_environment_release(env); /* the stage holds it */
    hl_light_desc ld = {0};
    hl_light *l = NULL;
    ld.kind = HL_LIGHT_DIRECTIONAL;
    ld.color = (hl_color){1.0f, 0.95f, 0.85f, 1};
    ld.intensity = 2.6f;
    ld.cast_shadows = true;
    DEMO_TRY(hl_light_create(&ld, &l));
    hl_node_set_translation(hl_light_node(l), (hl_vec3){-6, 10, 5});
    hl_node_look_at(hl_light_node(l), (hl_vec3){0, 0, 0}, (hl_vec3){0, 1, 0});
    DEMO_TRY(hl_stage_add(s, hl_light_node(l)));
    ld = (hl_light_desc){0};
    ld.kind = HL_LIGHT_SPOT;
    ld.color = (hl_color){0.4f, 0.6f, 1.0f, 1};
    ld.intensity = 60.0f;
    ld.range = 30.0f;
    ld.outer_cone_deg = 28.0f;
    ld.inner_cone_deg = 20.0f;
    ld.cast_shadows = true;
    DEMO_TRY(hl_light_create(&ld, &l));
    hl_node_set_translation(hl_light_node(l), (hl_vec3){5, 7, 4});
    hl_node_look_at(hl_light_node(l), (hl_vec3){2, 0, 0}, (hl_vec3){0, 1, 0});
    DEMO_TRY(hl_stage_add(s, hl_light_node(l)));
    res = HL_OK;

fail:
    /* the meshes hold their own references */
    hl_geometry_release(sphere);
    hl_geometry_release(plane);
    hl_geometry_release(box);
    hl_geometry_release(cube);
    hl_geometry_release(pane);
    hl_material_release(ground);
    hl_material_release(crate);
    hl_material_release(cube_mat);
    hl_material_release(glass[0]);
    hl_material_release(glass[1]);
    hl_texture_release(checker);
    if (res) hl_scene_demo_destroy(out);
    return res;
}

void hl_scene_demo_destroy(hl_scene_demo *d) {
    hl_stage_destroy(d->stage); /* the camera is in the stage */
    memset(d, 0, sizeof *d);
}

/* ---- the benchmark grid (hl_scene_demo.h) ---- */
hl_result hl_scene_grid_create(uint32_t meshes, uint32_t materials, hl_stage **out_stage, hl_camera **out_camera) {
    hl_stage *s = NULL;
    hl_result r = hl_stage_create(&s);
    if (r) return r;
    hl_box_desc bd = {0.6f, 0.6f, 0.6f};
    hl_geometry *box = NULL;
    r = hl_geometry_create_box(&bd, &box);
    hl_material **mats = calloc(materials, sizeof *mats);
    for (uint32_t i = 0; !r && i < materials; i++) {
        hl_pbr_material_desc pd = {0};
        pd.base_color = (hl_color){(float)(i % 10) / 9.0f, (float)(i / 10) / 9.0f, 0.5f, 1.0f};
        pd.metallic = (float)(i % 4) / 3.0f;
        pd.roughness = 0.2f + 0.8f * (float)(i % 7) / 6.0f;
        r = hl_material_create_pbr(&pd, &mats[i]);
    }
    uint32_t side = (uint32_t)ceilf(sqrtf((float)meshes));
    for (uint32_t i = 0; !r && i < meshes; i++) {
        hl_mesh_desc md = {0};
        md.geometry = box;
        md.material = mats[i % materials];
        hl_mesh *m = NULL;
        r = hl_mesh_create(&md, &m);
        if (r) break;
        float x = (float)(i % side) - (float)side * 0.5f, z = (float)(i / side) - (float)side * 0.5f;
        hl_node_set_translation(hl_mesh_node(m), (hl_vec3){x, 0.0f, z});
        r = hl_stage_add(s, hl_mesh_node(m));
    }
    for (uint32_t i = 0; i < materials; i++) hl_material_release(mats[i]);
    free(mats);
    hl_geometry_release(box);
    hl_light_desc ld = {0};
    ld.kind = HL_LIGHT_DIRECTIONAL;
    hl_light *l = NULL;
    if (!r) r = hl_light_create(&ld, &l);
    if (!r) {
        hl_node_look_at(hl_light_node(l), (hl_vec3){-1, -2, -1}, (hl_vec3){0, 1, 0});
        r = hl_stage_add(s, hl_light_node(l));
    }
    hl_camera_desc cd = {0};
    cd.fov_y_deg = 60.0f;
    cd.aspect = 16.0f / 9.0f;
    cd.far_plane = 1000.0f;
    hl_camera *cam = NULL;
    if (!r) r = hl_camera_create(&cd, &cam);
    if (!r) {
        hl_node_set_translation(hl_camera_node(cam), (hl_vec3){0, (float)side * 0.9f, (float)side * 0.75f});
        hl_node_look_at(hl_camera_node(cam), (hl_vec3){0, 0, 0}, (hl_vec3){0, 1, 0});
        r = hl_stage_add(s, hl_camera_node(cam));
    }
    if (r) {
        hl_stage_destroy(s);
        return r;
    }
    *out_stage = s;
    *out_camera = cam;
    return HL_OK;
}

