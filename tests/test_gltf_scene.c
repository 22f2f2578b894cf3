/* The glTF loader (hilo3d/gltf.h) without a GPU: what a load builds and every refusal.
 *
 * BoxTextured (tests/data/gltf, a Khronos sample): the report's counts, the parent's matrix
 * decomposed so that the world matrix equals the file's, the PBR material with its sRGB base
 * colour texture and the sampler's filters, the bounds. Small documents: cameras (perspective
 * without zfar, orthographic), lights (spot cone angles in degrees, point colour / intensity /
 * range), materials (unlit, emissive strength, MASK cutoff, double-sided, exact roughness 0,
 * the default material), scene selection and documents without scenes. Refusals, each with
 * its code and the JSON path in the message: a required extension that is not implemented, a
 * node cycle, a node with two parents, a mesh / material / light index out of range,
 * texCoord 2, an image that does not decode, an unknown camera type, matrix together with TRS,
 * a zero rotation, a scene out of range, a missing file, a file URI without a folder.
 * Animations: LINEAR translation (inside, before, after the keys, looped), slerped rotation,
 * STEP scale, a CUBICSPLINE curve checked against the Hermite formula, a weights channel on a
 * node without morph targets (applied, changing nothing), two animations applied together, and
 * five malformed samplers or targets refused.
 * Generated tangents for a normal-mapped quad (plain and mirrored UVs) and none without a map.
 * Skins: joints and joint matrices given to the mesh, integer joints, four refusals; a second
 * set of influences (JOINTS_1 / WEIGHTS_1) kept, two refusals (an index past the joints, a
 * JOINTS_1 accessor of 3 components). Morph
 * targets: default weights, set weights, animated weights, renormalized normals, 8 targets,
 * three refusals, no allocation while blending; on primitives without NORMAL (flat-expanded,
 * indexed and not, with and without generated tangents): every copy of the moved vertex moved,
 * the moved faces' normals (and tangents) those of the blended triangle, the others unchanged,
 * weight 0 restoring every bit. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hilo3d/gltf.h"
#include "hilo3d/material.h"
#include "hilo3d/scene.h"
#include "hilo3d/texture.h"
#include "hl_test.h"
#include "hl_test_gltf.h"

static char g_dir[512];

static hl_gltf_asset *load_text(const char *json) {
    hl_gltf_asset *a = NULL;
    HL_CHECK_OK(hl_gltf_load_memory(json, strlen(json), NULL, &a));
    return a;
}

/* The load fails with code and a message containing want. */
static void refused(const char *json, hl_result code, const char *want) {
    hl_gltf_asset *a = (hl_gltf_asset *)json;
    hl_result r = hl_gltf_load_memory(json, strlen(json), NULL, &a);
    HL_CHECK_MSG(r == code && a == NULL && strstr(hl_last_error(), want), "refused with %s naming '%s': got %s '%s'",
                 hl_result_name(code), want, hl_result_name(r), hl_last_error());
}

static hl_mesh *first_mesh(hl_node *n) {
    if (hl_node_mesh(n)) return hl_node_mesh(n);
    for (hl_node *c = hl_node_first_child(n); c; c = hl_node_next_sibling(c)) {
        hl_mesh *m = first_mesh(c);
        if (m) return m;
    }
    return NULL;
}

static void test_box(void) {
    char path[600];
    snprintf(path, sizeof path, "%s/data/gltf/BoxTextured.gltf", g_dir);
    hl_gltf_asset *a = NULL;
    HL_CHECK_OK(hl_gltf_load_file(path, NULL, &a));
    if (!a) return;
    const hl_gltf_report *rp = hl_gltf_asset_report(a);
    HL_CHECK_EQ(rp->nodes, 3);
    HL_CHECK_EQ(rp->meshes, 1);
    HL_CHECK_EQ(rp->triangles, 12);
    HL_CHECK_EQ(rp->materials, 1);
    HL_CHECK_EQ(rp->textures, 1);
    HL_CHECK_EQ(rp->images, 1);
    HL_CHECK_EQ(rp->cameras, 0);
    HL_CHECK_EQ(hl_gltf_asset_camera_count(a), 0);
    /* node 0: matrix rotating +90 degrees about X (columns (1,0,0), (0,0,-1), (0,1,0)) */
    hl_node *n0 = hl_gltf_asset_node(a, 0);
    hl_node_update_world(n0);
    const float want[16] = {1, 0, 0, 0, 0, 0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1};
    const hl_mat4 *w = hl_node_world_matrix(n0);
    float err = 0;
    for (int i = 0; i < 16; i++) err = fmaxf(err, fabsf(w->m[i] - want[i]));
    HL_CHECK_MSG(err < 1e-6f, "node 0's world matrix is the file's (max error %g)", err);
    HL_CHECK(hl_gltf_asset_node(a, 3) == NULL);
    hl_mesh *m = first_mesh(hl_gltf_asset_root(a));
    HL_CHECK(m != NULL);
    hl_material *mat = hl_mesh_material(m);
    HL_CHECK_EQ(hl_material_get_kind(mat), HL_MATERIAL_PBR);
    const hl_material_factors *f = hl_material_get_factors(mat);
    HL_CHECK(f->metallic == 1.0f && f->roughness == 1.0f); /* glTF's defaults */
    uint32_t tc = 9;
    hl_texture *t = hl_material_get_texture(mat, HL_TEXTURE_BASE_COLOR, &tc);
    HL_CHECK(t != NULL && tc == 0);
    const hl_texture_info *ti = hl_texture_get_info(t);
    if (ti) {
        HL_CHECK_EQ(ti->width, 211);
        HL_CHECK_EQ(ti->color_space, HL_COLOR_SPACE_SRGB);
        /* magFilter LINEAR, minFilter NEAREST_MIPMAP_LINEAR, REPEAT */
        HL_CHECK_EQ(ti->sampler.mag_filter, HL_FILTER_LINEAR);
        HL_CHECK_EQ(ti->sampler.min_filter, HL_FILTER_NEAREST);
        HL_CHECK_EQ(ti->sampler.mip_filter, HL_FILTER_LINEAR);
        HL_CHECK_EQ(ti->sampler.wrap_u, HL_WRAP_REPEAT);
        HL_CHECK(ti->mip_levels > 1);
    }
    hl_aabb b = hl_gltf_asset_bounds(a);
    HL_CHECK_MSG(fabsf(b.min.x + 0.5f) < 1e-5f && fabsf(b.max.y - 0.5f) < 1e-5f && fabsf(b.max.z - 0.5f) < 1e-5f,
                 "bounds [-0.5, 0.5]^3: (%g %g %g) - (%g %g %g)", b.min.x, b.min.y, b.min.z, b.max.x, b.max.y, b.max.z);
    hl_gltf_asset_destroy(a);
}

#define TRI_BUFFER                                                                                              \
    "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}],"                 \
    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":36}],"                                                       \
    "\"buffers\":[{\"byteLength\":36,\"uri\":\"data:application/octet-stream;base64,"                          \
    "AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA\"}]"

static void test_cameras_lights(void) {
    hl_gltf_asset *a = load_text(
        "{\"asset\":{\"version\":\"2.0\"},\"scenes\":[{\"nodes\":[0,1,2,3]}],"
        "\"nodes\":[{\"camera\":0},{\"camera\":1,\"translation\":[1,2,3]},"
        "{\"extensions\":{\"KHR_lights_punctual\":{\"light\":0}}},{\"extensions\":{\"KHR_lights_punctual\":{\"light\":1}}}],"
        "\"cameras\":[{\"type\":\"perspective\",\"perspective\":{\"yfov\":1.0,\"znear\":0.5}},"
        "{\"type\":\"orthographic\",\"orthographic\":{\"xmag\":2,\"ymag\":3,\"znear\":0,\"zfar\":50}}],"
        "\"extensions\":{\"KHR_lights_punctual\":{\"lights\":[{\"type\":\"spot\",\"spot\":{\"innerConeAngle\":0.2,"
        "\"outerConeAngle\":0.5}},{\"type\":\"point\",\"color\":[1,0.5,0.25],\"intensity\":7,\"range\":12}]}}}");
    if (!a) return;
    HL_CHECK_EQ(hl_gltf_asset_camera_count(a), 2);
    const hl_camera_desc *p = hl_camera_get_desc(hl_gltf_asset_camera(a, 0));
    HL_CHECK(p->projection == HL_PROJECTION_PERSPECTIVE && fabsf(p->fov_y_deg - 57.29578f) < 1e-3f &&
             p->near_plane == 0.5f && p->far_plane == 50000.0f);
    const hl_camera_desc *o = hl_camera_get_desc(hl_gltf_asset_camera(a, 1));
    HL_CHECK(o->projection == HL_PROJECTION_ORTHOGRAPHIC && o->right == 2.0f && o->top == 3.0f && o->far_plane == 50.0f);
    HL_CHECK(hl_node_translation(hl_gltf_asset_node(a, 1)).z == 3.0f);
    hl_light *spot = hl_node_light(hl_node_first_child(hl_gltf_asset_node(a, 2)));
    hl_light *point = hl_node_light(hl_node_first_child(hl_gltf_asset_node(a, 3)));
    HL_CHECK(spot && point);
    if (spot && point) {
        const hl_light_desc *s = hl_light_get_desc(spot), *pt = hl_light_get_desc(point);
        HL_CHECK(s->kind == HL_LIGHT_SPOT && fabsf(s->inner_cone_deg - 11.459f) < 1e-2f &&
                 fabsf(s->outer_cone_deg - 28.648f) < 1e-2f);
        HL_CHECK(pt->kind == HL_LIGHT_POINT && pt->intensity == 7.0f && pt->range == 12.0f && pt->color.g == 0.5f);
    }
    HL_CHECK_EQ(hl_gltf_asset_report(a)->lights, 2);
    hl_gltf_asset_destroy(a);
}

static hl_material *material_of(hl_gltf_asset *a, uint32_t node) {
    hl_mesh *m = first_mesh(hl_gltf_asset_node(a, node));
    return m ? hl_mesh_material(m) : NULL;
}

static void test_materials(void) {
    hl_gltf_asset *a = load_text(
        "{\"asset\":{\"version\":\"2.0\"},\"scenes\":[{\"nodes\":[0,1,2,3]}],"
        "\"nodes\":[{\"mesh\":0},{\"mesh\":1},{\"mesh\":2},{\"mesh\":3}],"
        "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"material\":0}]},"
        "{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"material\":1}]},"
        "{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"material\":2}]},"
        "{\"primitives\":[{\"attributes\":{\"POSITION\":0}}]}],"
        "\"materials\":[{\"extensions\":{\"KHR_materials_unlit\":{}},\"pbrMetallicRoughness\":{\"baseColorFactor\":[1,0,0,0.5]},"
        "\"alphaMode\":\"BLEND\"},"
        "{\"emissiveFactor\":[1,0.5,0],\"extensions\":{\"KHR_materials_emissive_strength\":{\"emissiveStrength\":4}},"
        "\"alphaMode\":\"MASK\",\"alphaCutoff\":0.25,\"doubleSided\":true,"
        "\"pbrMetallicRoughness\":{\"metallicFactor\":0.3,\"roughnessFactor\":0}},"
        "{\"pbrMetallicRoughness\":{\"metallicFactor\":0}}]," TRI_BUFFER "}");
    if (!a) return;
    hl_material *unlit = material_of(a, 0), *em = material_of(a, 1), *plain = material_of(a, 2), *def = material_of(a, 3);
    HL_CHECK(unlit && em && plain && def);
    if (unlit && em && plain && def) {
        HL_CHECK_EQ(hl_material_get_kind(unlit), HL_MATERIAL_BASIC);
        HL_CHECK(hl_material_is_transparent(unlit) && hl_material_get_factors(unlit)->base_color.a == 0.5f);
        const hl_material_factors *f = hl_material_get_factors(em);
        HL_CHECK(f->emissive.x == 4.0f && f->emissive.y == 2.0f && f->emissive.z == 0.0f);
        HL_CHECK(f->metallic == 0.3f && f->roughness == 0.0f && f->alpha_cutoff == 0.25f);
        const hl_material_variant *v = hl_material_get_variant(em);
        HL_CHECK(v->alpha_mode == HL_ALPHA_MASK && v->double_sided);
        HL_CHECK(hl_material_get_factors(plain)->metallic == 0.0f && hl_material_get_factors(plain)->roughness == 1.0f);
        HL_CHECK(hl_material_get_factors(def)->metallic == 1.0f && hl_material_get_factors(def)->roughness == 1.0f);
        HL_CHECK_EQ(hl_material_get_kind(def), HL_MATERIAL_PBR);
    }
    HL_CHECK_EQ(hl_gltf_asset_report(a)->materials, 4);
    HL_CHECK_EQ(hl_gltf_asset_report(a)->triangles, 4);
    hl_gltf_asset_destroy(a);
}

static void test_scenes(void) {
    /* scene 1 asked for: only node 1; no scenes: the nodes that are nobody's child */
    const char *two = "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]},{\"nodes\":[1]}],"
                      "\"nodes\":[{\"name\":\"a\"},{\"name\":\"b\",\"children\":[2]},{\"name\":\"c\"}]}";
    hl_gltf_load_desc d = {0};
    d.scene = 2;
    hl_gltf_asset *a = NULL;
    HL_CHECK_OK(hl_gltf_load_memory(two, strlen(two), &d, &a));
    if (a) {
        HL_CHECK(hl_gltf_asset_node(a, 0) == NULL && hl_gltf_asset_node(a, 1) != NULL && hl_gltf_asset_node(a, 2) != NULL);
        HL_CHECK(hl_node_find(hl_gltf_asset_root(a), "c") != NULL);
        HL_CHECK_EQ(hl_gltf_asset_report(a)->nodes, 2);
        hl_gltf_asset_destroy(a);
    }
    a = load_text(two);
    if (a) {
        HL_CHECK(hl_gltf_asset_node(a, 0) != NULL && hl_gltf_asset_node(a, 1) == NULL);
        hl_gltf_asset_destroy(a);
    }
    a = load_text("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"children\":[2]},{},{}]}");
    if (a) {
        HL_CHECK_EQ(hl_node_child_count(hl_gltf_asset_root(a)), 2); /* nodes 0 and 1; 2 under 0 */
        HL_CHECK_EQ(hl_gltf_asset_report(a)->nodes, 3);
        hl_gltf_asset_destroy(a);
    }
    d.scene = 3;
    HL_CHECK_RESULT(hl_gltf_load_memory(two, strlen(two), &d, &a), HL_ERR_VALIDATION);
}

static void test_refusals(void) {
    const char *head = "{\"asset\":{\"version\":\"2.0\"},";
    char j[2000];
    snprintf(j, sizeof j, "%s\"extensionsRequired\":[\"KHR_draco_mesh_compression\"]}", head);
    refused(j, HL_ERR_UNSUPPORTED, "KHR_draco_mesh_compression");
    snprintf(j, sizeof j, "%s\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"children\":[1]},{\"children\":[0]}]}", head);
    refused(j, HL_ERR_PARSE, "nodes[0] is reached twice");
    snprintf(j, sizeof j, "%s\"scenes\":[{\"nodes\":[0,1]}],\"nodes\":[{\"children\":[2]},{\"children\":[2]},{}]}", head);
    refused(j, HL_ERR_PARSE, "nodes[2] is reached twice (from nodes[1].children[0])");
    snprintf(j, sizeof j, "%s\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"mesh\":5}]}", head);
    refused(j, HL_ERR_PARSE, "meshes[5]");
    snprintf(j, sizeof j, "%s\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"mesh\":0}],"
             "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"material\":3}]}]," TRI_BUFFER "}", head);
    refused(j, HL_ERR_PARSE, "materials[3]");
    snprintf(j, sizeof j, "%s\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"mesh\":0}],"
             "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"material\":0}]}],"
             "\"materials\":[{\"emissiveTexture\":{\"index\":0,\"texCoord\":2}}],\"textures\":[{\"source\":0}],"
             "\"images\":[{\"uri\":\"data:image/png;base64,AAAA\"}]," TRI_BUFFER "}", head);
    refused(j, HL_ERR_UNSUPPORTED, "materials[0].emissiveTexture.texCoord 2");
    snprintf(j, sizeof j, "%s\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"mesh\":0}],"
             "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"material\":0}]}],"
             "\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0}}}],\"textures\":[{\"source\":0}],"
             "\"images\":[{\"uri\":\"data:image/png;base64,AAAA\"}]," TRI_BUFFER "}", head);
    refused(j, HL_ERR_PARSE, "materials[0].pbrMetallicRoughness.baseColorTexture.index (images[0])");
    snprintf(j, sizeof j, "%s\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"camera\":0}],\"cameras\":[{\"type\":\"fisheye\"}]}", head);
    refused(j, HL_ERR_PARSE, "cameras[0].type");
    snprintf(j, sizeof j, "%s\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"extensions\":{\"KHR_lights_punctual\":{\"light\":0}}}]}", head);
    refused(j, HL_ERR_PARSE, "nodes[0].extensions.KHR_lights_punctual.light 0");
    snprintf(j, sizeof j, "%s\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"matrix\":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1],"
             "\"translation\":[1,2,3]}]}", head);
    refused(j, HL_ERR_PARSE, "nodes[0] has both matrix and");
    snprintf(j, sizeof j, "%s\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"rotation\":[0,0,0,0]}]}", head);
    refused(j, HL_ERR_PARSE, "nodes[0].rotation is a zero quaternion");
    snprintf(j, sizeof j, "%s\"buffers\":[{\"byteLength\":4,\"uri\":\"side.bin\"}]}", head);
    refused(j, HL_ERR_PARSE, "no folder was given");
    hl_gltf_asset *a = NULL;
    hl_result r = hl_gltf_load_file("/nonexistent/model.glb", NULL, &a);
    HL_CHECK_MSG(r == HL_ERR_IO && strstr(hl_last_error(), "/nonexistent/model.glb"), "missing file: %s",
                 hl_last_error());
    HL_CHECK_RESULT(hl_gltf_load_memory(NULL, 3, NULL, &a), HL_ERR_VALIDATION);
    HL_CHECK_RESULT(hl_gltf_load_file(g_dir, NULL, &a), HL_ERR_IO); /* a folder */
    hl_gltf_asset_destroy(NULL);
    HL_CHECK(hl_gltf_asset_root(NULL) == NULL && hl_gltf_asset_camera(NULL, 0) == NULL);
}

/* The animation document: node 0 animated by animation 0 (translation LINEAR over 0, 1, 2 s,
 * rotation LINEAR over 0, 1 s, scale STEP, weights), node 1 by animation 1 (CUBICSPLINE
 * translation over 0, 2 s). bad: 0 valid, 1 decreasing times, 2 output count wrong, 3 target
 * node out of range, 4 unknown path, 5 unknown interpolation. */
static hl_gltf_asset *anim_doc(int bad) {
    hl_test_glb g = {0};
    const float t3[3] = {0, 1, bad == 1 ? 0.5f : 2}, t2[2] = {0, 1}, t2b[2] = {0, 2};
    const float tr[9] = {0, 0, 0, 2, 0, 0, 2, 4, 0};
    const float s45 = 0.70710678f, rot[8] = {0, 0, 0, 1, 0, s45, 0, s45};
    const float sc[9] = {1, 1, 1, 2, 2, 2, 3, 3, 3};
    const float w[6] = {0, 0, 1, 0, 0, 1};                                            /* 3 keys x 2 targets */
    const float cub[18] = {0, 0, 0, 0, 0, 0, 3, 0, 0, /* key 0: in, value, out */ 1, 0, 0, 4, 0, 0, 0, 0, 0};
    size_t o_t3 = hl_test_glb_add(&g, t3, sizeof t3), o_t2 = hl_test_glb_add(&g, t2, sizeof t2);
    size_t o_t2b = hl_test_glb_add(&g, t2b, sizeof t2b), o_tr = hl_test_glb_add(&g, tr, sizeof tr);
    size_t o_rot = hl_test_glb_add(&g, rot, sizeof rot), o_sc = hl_test_glb_add(&g, sc, sizeof sc);
    size_t o_w = hl_test_glb_add(&g, w, sizeof w), o_cub = hl_test_glb_add(&g, cub, sizeof cub);
    char json[4000];
    snprintf(json, sizeof json,
             "{\"asset\":{\"version\":\"2.0\"},\"scenes\":[{\"nodes\":[0,1]}],\"nodes\":[{\"name\":\"a\"},{\"name\":\"b\"}],"
             "\"animations\":[{\"name\":\"walk\",\"channels\":["
             "{\"sampler\":0,\"target\":{\"node\":%d,\"path\":\"translation\"}},"
             "{\"sampler\":1,\"target\":{\"node\":0,\"path\":\"%s\"}},"
             "{\"sampler\":2,\"target\":{\"node\":0,\"path\":\"scale\"}},"
             "{\"sampler\":3,\"target\":{\"node\":0,\"path\":\"weights\"}}],"
             "\"samplers\":[{\"input\":0,\"output\":%d},{\"input\":1,\"output\":4,\"interpolation\":\"%s\"},"
             "{\"input\":0,\"output\":5,\"interpolation\":\"STEP\"},{\"input\":0,\"output\":6}]},"
             "{\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"translation\"}}],"
             "\"samplers\":[{\"input\":2,\"output\":7,\"interpolation\":\"CUBICSPLINE\"}]}],"
             "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"SCALAR\"},"
             "{\"bufferView\":1,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
             "{\"bufferView\":2,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
             "{\"bufferView\":3,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
             "{\"bufferView\":4,\"componentType\":5126,\"count\":2,\"type\":\"VEC4\"},"
             "{\"bufferView\":5,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
             "{\"bufferView\":6,\"componentType\":5126,\"count\":6,\"type\":\"SCALAR\"},"
             "{\"bufferView\":7,\"componentType\":5126,\"count\":6,\"type\":\"VEC3\"},"
             "{\"bufferView\":3,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}],"
             "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":12},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":8},"
             "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":8},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":36},"
             "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":32},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":36},"
             "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":24},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":72}],"
             "\"buffers\":[{\"byteLength\":%zu}]}",
             bad == 3 ? 7 : 0, bad == 4 ? "colour" : "rotation", bad == 2 ? 8 : 3, bad == 5 ? "SMOOTH" : "LINEAR",
             o_t3, o_t2, o_t2b, o_tr, o_rot, o_sc, o_w, o_cub, g.bin_len);
    size_t n = 0;
    uint8_t *file = hl_test_glb_file(json, &g, &n);
    hl_gltf_asset *a = NULL;
    hl_result r = hl_gltf_load_memory(file, n, NULL, &a);
    static const char *const want[] = {"", "input key 2 has time 0.5", "do not fit", "target.node 7", "path 'colour'",
                                       "interpolation 'SMOOTH'"};
    if (bad)
        HL_CHECK_MSG(r == HL_ERR_PARSE && !a && strstr(hl_last_error(), want[bad]), "animation defect %d refused naming "
                     "'%s': %s %s", bad, want[bad], hl_result_name(r), hl_last_error());
    else
        HL_CHECK_OK(r);
    free(file);
    hl_test_glb_free(&g);
    return a;
}

static bool near3(hl_vec3 v, float x, float y, float z) {
    return fabsf(v.x - x) < 1e-5f && fabsf(v.y - y) < 1e-5f && fabsf(v.z - z) < 1e-5f;
}

static void test_animations(void) {
    for (int bad = 1; bad <= 5; bad++) (void)anim_doc(bad);
    hl_gltf_asset *a = anim_doc(0);
    if (!a) return;
    HL_CHECK_EQ(hl_gltf_asset_animation_count(a), 2);
    hl_animation *walk = hl_gltf_asset_find_animation(a, "walk"), *cubic = hl_gltf_asset_animation(a, 1);
    HL_CHECK(walk == hl_gltf_asset_animation(a, 0) && cubic && !hl_gltf_asset_find_animation(a, "run"));
    HL_CHECK(!strcmp(hl_animation_name(walk), "walk") && !strcmp(hl_animation_name(cubic), ""));
    HL_CHECK(hl_animation_duration(walk) == 2.0f && hl_animation_channel_count(walk) == 4);
    hl_node *n0 = hl_gltf_asset_node(a, 0), *n1 = hl_gltf_asset_node(a, 1);
    struct { float t; hl_animation_wrap wrap; float x, y, z; } tr[] = {
        {0.5f, HL_ANIMATION_CLAMP, 1, 0, 0}, {1.5f, HL_ANIMATION_CLAMP, 2, 2, 0}, {-1.0f, HL_ANIMATION_CLAMP, 0, 0, 0},
        {5.0f, HL_ANIMATION_CLAMP, 2, 4, 0}, {2.5f, HL_ANIMATION_LOOP, 1, 0, 0},  {-0.5f, HL_ANIMATION_LOOP, 2, 2, 0},
    };
    for (size_t i = 0; i < sizeof tr / sizeof tr[0]; i++) {
        HL_CHECK_OK(hl_animation_apply(walk, tr[i].t, tr[i].wrap));
        hl_vec3 v = hl_node_translation(n0);
        HL_CHECK_MSG(near3(v, tr[i].x, tr[i].y, tr[i].z), "translation at t %g (%s): (%g %g %g), want (%g %g %g)",
                     (double)tr[i].t, tr[i].wrap ? "loop" : "clamp", v.x, v.y, v.z, tr[i].x, tr[i].y, tr[i].z);
    }
    HL_CHECK_OK(hl_animation_apply(walk, 0.5f, HL_ANIMATION_CLAMP));
    hl_quat q = hl_node_rotation(n0);
    float s = sinf(3.14159265f / 8.0f), c = cosf(3.14159265f / 8.0f); /* 45 degrees about Y */
    HL_CHECK_MSG(fabsf(q.x) < 1e-5f && fabsf(q.y - s) < 1e-5f && fabsf(q.z) < 1e-5f && fabsf(q.w - c) < 1e-5f,
                 "slerp halfway: (%g %g %g %g)", q.x, q.y, q.z, q.w);
    HL_CHECK(near3(hl_node_scale(n0), 1, 1, 1));
    HL_CHECK_OK(hl_animation_apply(walk, 1.5f, HL_ANIMATION_CLAMP));
    HL_CHECK(near3(hl_node_scale(n0), 2, 2, 2)); /* STEP holds key 1 */
    HL_CHECK_OK(hl_animation_apply(walk, 2.0f, HL_ANIMATION_CLAMP));
    HL_CHECK(near3(hl_node_scale(n0), 3, 3, 3));
    /* CUBICSPLINE at t = 1 of [0, 2]: s = 0.5, td = 2: v0 = 0, out0 = 3, in1 = 1, v1 = 4 */
    float t = 0.5f, td = 2.0f, t2 = t * t, t3 = t2 * t;
    float want = (2 * t3 - 3 * t2 + 1) * 0 + (t3 - 2 * t2 + t) * td * 3 + (-2 * t3 + 3 * t2) * 4 + (t3 - t2) * td * 1;
    hl_animation *both[2] = {walk, cubic};
    HL_CHECK_OK(hl_animations_apply(both, 2, 1.0f, HL_ANIMATION_CLAMP));
    HL_CHECK_MSG(fabsf(hl_node_translation(n1).x - want) < 1e-5f, "cubic spline at t 1: %g, want %g",
                 hl_node_translation(n1).x, want);
    HL_CHECK(near3(hl_node_translation(n0), 2, 0, 0)); /* the other animation applied too */
    HL_CHECK_OK(hl_animation_apply(cubic, 2.0f, HL_ANIMATION_CLAMP));
    HL_CHECK(near3(hl_node_translation(n1), 4, 0, 0));
    HL_CHECK_RESULT(hl_animation_apply(NULL, 0, HL_ANIMATION_CLAMP), HL_ERR_VALIDATION);
    HL_CHECK_RESULT(hl_animation_apply(walk, NAN, HL_ANIMATION_LOOP), HL_ERR_VALIDATION);
    uint64_t a0 = hl_alloc_count();
    for (int i = 0; i < 100; i++) hl_animations_apply(both, 2, (float)i * 0.037f, HL_ANIMATION_LOOP);
    HL_CHECK_MSG(hl_alloc_count() == a0, "applying animations allocates nothing");
    HL_CHECK_EQ(hl_gltf_asset_report(a)->animations, 2);
    hl_gltf_asset_destroy(a);
}

/* Tangents generated for a normal-mapped quad without TANGENT: along +X with w = +1 for UVs
 * running right and down, along -X with w = -1 when u is mirrored; none without a normal map. */
static void test_tangents(void) {
    const float pos[12] = {-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0}, nrm[12] = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
    const float uv[8] = {0, 1, 1, 1, 1, 0, 0, 0}, uv_mirror[8] = {1, 1, 0, 1, 0, 0, 1, 0};
    const uint16_t idx[6] = {0, 1, 2, 0, 2, 3};
    const uint8_t flat_normal[4] = {128, 128, 255, 255};
    for (int mode = 0; mode < 3; mode++) { /* 0 plain, 1 mirrored, 2 no normal map */
        hl_test_glb g = {0};
        size_t png_n = 0;
        uint8_t *png = hl_test_png(1, 1, flat_normal, &png_n);
        size_t o_p = hl_test_glb_add(&g, pos, sizeof pos), o_n = hl_test_glb_add(&g, nrm, sizeof nrm);
        size_t o_uv = hl_test_glb_add(&g, mode == 1 ? uv_mirror : uv, sizeof uv), o_i = hl_test_glb_add(&g, idx, sizeof idx);
        size_t o_png = hl_test_glb_add(&g, png, png_n);
        free(png);
        char json[2400];
        snprintf(json, sizeof json,
                 "{\"asset\":{\"version\":\"2.0\"},\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"mesh\":0}],"
                 "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":1,\"TEXCOORD_0\":2},\"indices\":3,"
                 "\"material\":0}]}],\"materials\":[%s],\"textures\":[{\"source\":0}],"
                 "\"images\":[{\"bufferView\":4,\"mimeType\":\"image/png\"}],"
                 "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"},"
                 "{\"bufferView\":1,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"},"
                 "{\"bufferView\":2,\"componentType\":5126,\"count\":4,\"type\":\"VEC2\"},"
                 "{\"bufferView\":3,\"componentType\":5123,\"count\":6,\"type\":\"SCALAR\"}],"
                 "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":48},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":48},"
                 "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":32},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":12},"
                 "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu}],\"buffers\":[{\"byteLength\":%zu}]}",
                 mode == 2 ? "{}" : "{\"normalTexture\":{\"index\":0}}", o_p, o_n, o_uv, o_i, o_png, png_n, g.bin_len);
        size_t n = 0;
        uint8_t *file = hl_test_glb_file(json, &g, &n);
        hl_gltf_asset *a = NULL;
        HL_CHECK_OK(hl_gltf_load_memory(file, n, NULL, &a));
        free(file);
        hl_test_glb_free(&g);
        hl_mesh *m = a ? first_mesh(hl_gltf_asset_root(a)) : NULL;
        if (!m) continue;
        const hl_geometry_layout *l = hl_geometry_get_layout(hl_mesh_geometry(m));
        const hl_vertex_attribute_info *t = &l->attributes[HL_ATTR_TANGENT];
        if (mode == 2) {
            HL_CHECK_MSG(!t->present, "no normal map: no generated tangents");
        } else if (t->present) {
            const float *tv = (const float *)((const uint8_t *)hl_geometry_vertex_data(hl_mesh_geometry(m)) + t->offset);
            float sx = mode == 1 ? -1.0f : 1.0f;
            for (uint32_t i = 0; i < 4; i++)
                HL_CHECK_MSG(fabsf(tv[i * 4] - sx) < 1e-5f && fabsf(tv[i * 4 + 1]) < 1e-5f && fabsf(tv[i * 4 + 2]) < 1e-5f &&
                             tv[i * 4 + 3] == sx, "%s: vertex %u tangent (%g %g %g %g)", mode ? "mirrored" : "plain", i,
                             tv[i * 4], tv[i * 4 + 1], tv[i * 4 + 2], tv[i * 4 + 3]);
        } else {
            HL_CHECK_MSG(false, "a normal-mapped primitive without TANGENT gets generated tangents");
        }
        hl_gltf_asset_destroy(a);
    }
}

/* Skins: the mesh gets the skin's joints and inverse bind matrices (its joint matrices equal
 * world(joint) * IBM); refusals: a JOINTS_0 index past the joints, more than 256 joints, an IBM
 * accessor that is not MAT4 floats, a joint outside the built scene. */
static hl_gltf_asset *skin_doc(int bad) {
    hl_test_glb g = {0};
    const float pos[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0}, w[12] = {1, 0, 0, 0, 1, 0, 0, 0, 0.5f, 0.5f, 0, 0};
    const uint8_t j[12] = {0, 0, 0, 0, 1, 0, 0, 0, 0, (uint8_t)(bad == 1 ? 7 : 1), 0, 0};
    float ibm[32];
    memset(ibm, 0, sizeof ibm);
    for (int k = 0; k < 2; k++) {
        ibm[k * 16] = ibm[k * 16 + 5] = ibm[k * 16 + 10] = ibm[k * 16 + 15] = 1;
        ibm[k * 16 + 12] = -(float)k * 2; /* IBM of joint 1: translate -2 in x */
    }
    size_t o_p = hl_test_glb_add(&g, pos, sizeof pos), o_j = hl_test_glb_add(&g, j, sizeof j);
    size_t o_w = hl_test_glb_add(&g, w, sizeof w), o_m = hl_test_glb_add(&g, ibm, sizeof ibm);
    char joints[1400] = "0,1";
    if (bad == 2)
        for (int k = 2; k < 257; k++) snprintf(joints + strlen(joints), sizeof joints - strlen(joints), ",%d", k % 2);
    char json[4000];
    snprintf(json, sizeof json,
             "{\"asset\":{\"version\":\"2.0\"},\"scenes\":[{\"nodes\":[0,%s]}],"
             "\"nodes\":[{\"name\":\"j0\",\"translation\":[1,0,0]},{\"name\":\"j1\",\"translation\":[3,1,0]},"
             "{\"mesh\":0,\"skin\":0},{\"name\":\"outside\"}],"
             "\"skins\":[{\"joints\":[%s],\"inverseBindMatrices\":%d}],"
             "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"JOINTS_0\":1,\"WEIGHTS_0\":2}}]}],"
             "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
             "{\"bufferView\":1,\"componentType\":5121,\"count\":3,\"type\":\"VEC4\"},"
             "{\"bufferView\":2,\"componentType\":5126,\"count\":3,\"type\":\"VEC4\"},"
             "{\"bufferView\":3,\"componentType\":5126,\"count\":2,\"type\":\"MAT4\"}],"
             "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":36},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":12},"
             "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":48},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":128}],"
             "\"buffers\":[{\"byteLength\":%zu}]}",
             bad == 4 ? "2" : "1,2", bad == 4 ? "0,3" : joints, bad == 3 ? 0 : 3, o_p, o_j, o_w, o_m, g.bin_len);
    size_t n = 0;
    uint8_t *file = hl_test_glb_file(json, &g, &n);
    hl_gltf_asset *a = NULL;
    hl_result r = hl_gltf_load_memory(file, n, NULL, &a);
    static const char *const want[] = {"", "JOINTS_0 of vertex 2 is 7, past its 2 joints", "257 joints (at most 256)",
                                       "inverseBindMatrices: accessor 0 must hold 2 float MAT4", "joints[1] is not a node"};
    static const hl_result code[] = {HL_OK, HL_ERR_PARSE, HL_ERR_UNSUPPORTED, HL_ERR_PARSE, HL_ERR_PARSE};
    if (bad)
        HL_CHECK_MSG(r == code[bad] && !a && strstr(hl_last_error(), want[bad]), "skin defect %d refused naming '%s': %s %s",
                     bad, want[bad], hl_result_name(r), hl_last_error());
    else
        HL_CHECK_OK(r);
    free(file);
    hl_test_glb_free(&g);
    return a;
}

static void test_skins(void) {
    for (int bad = 1; bad <= 4; bad++) (void)skin_doc(bad);
    hl_gltf_asset *a = skin_doc(0);
    if (!a) return;
    hl_mesh *m = first_mesh(hl_gltf_asset_node(a, 2));
    HL_CHECK(m && hl_mesh_skin_joint_count(m) == 2);
    if (m) {
        hl_node_update_world(hl_gltf_asset_node(a, 0));
        hl_node_update_world(hl_gltf_asset_node(a, 1));
        hl_mat4 jm[4];
        HL_CHECK_EQ(hl_mesh_skin_matrices(m, jm, 4), 2);
        /* joint 0 at x 1 with an identity IBM: translate 1; joint 1 at (3, 1) with IBM -2: (1, 1) */
        HL_CHECK_MSG(jm[0].m[12] == 1 && jm[0].m[13] == 0 && jm[1].m[12] == 1 && jm[1].m[13] == 1,
                     "joint matrices: (%g %g) (%g %g)", jm[0].m[12], jm[0].m[13], jm[1].m[12], jm[1].m[13]);
        const hl_geometry_layout *l = hl_geometry_get_layout(hl_mesh_geometry(m));
        HL_CHECK(l->attributes[HL_ATTR_JOINTS_0].present && l->attributes[HL_ATTR_JOINTS_0].type == HL_COMPONENT_UINT16);
        HL_CHECK_OK(hl_mesh_set_skin(m, NULL));
        HL_CHECK_EQ(hl_mesh_skin_joint_count(m), 0);
        hl_skin_desc too_many = {NULL, NULL, HL_SKIN_MAX_JOINTS + 1};
        HL_CHECK_RESULT(hl_mesh_set_skin(m, &too_many), HL_ERR_VALIDATION);
    }
    HL_CHECK_EQ(hl_gltf_asset_report(a)->skins, 1);
    hl_gltf_asset_destroy(a);
}

/* A second set of influences (JOINTS_1 u16 / WEIGHTS_1) on a triangle without normals (flat
 * normals: the vertices expanded per triangle): both sets become UINT16 joints and float weights
 * of the geometry, values kept. bad: 1 a JOINTS_1 index past the skin's 2 joints, 2 a JOINTS_1
 * accessor of 3 components. */
static void test_skins8(int bad) {
    hl_test_glb g = {0};
    const float pos[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    const float w0[12] = {1, 0, 0, 0, 0.5f, 0, 0, 0, 0, 0, 0, 0}, w1[12] = {0, 0, 0, 0, 0.5f, 0, 0, 0, 1, 0, 0, 0};
    const uint8_t j0[12] = {0};
    const uint16_t j1[12] = {0, 0, 0, 0, 1, 0, 0, 0, (uint16_t)(bad == 1 ? 5 : 1), 0, 0, 0};
    size_t o_p = hl_test_glb_add(&g, pos, sizeof pos), o_j0 = hl_test_glb_add(&g, j0, sizeof j0);
    size_t o_w0 = hl_test_glb_add(&g, w0, sizeof w0), o_j1 = hl_test_glb_add(&g, j1, sizeof j1);
    size_t o_w1 = hl_test_glb_add(&g, w1, sizeof w1);
    char json[3000];
    snprintf(json, sizeof json,
             "{\"asset\":{\"version\":\"2.0\"},\"scenes\":[{\"nodes\":[0,1,2]}],"
             "\"nodes\":[{\"name\":\"j0\"},{\"name\":\"j1\",\"translation\":[1,0,0]},{\"mesh\":0,\"skin\":0}],"
             "\"skins\":[{\"joints\":[0,1]}],"
             "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"JOINTS_0\":1,\"WEIGHTS_0\":2,\"JOINTS_1\":3,"
             "\"WEIGHTS_1\":4}}]}],"
             "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
             "{\"bufferView\":1,\"componentType\":5121,\"count\":3,\"type\":\"VEC4\"},"
             "{\"bufferView\":2,\"componentType\":5126,\"count\":3,\"type\":\"VEC4\"},"
             "{\"bufferView\":3,\"componentType\":5123,\"count\":3,\"type\":\"%s\"},"
             "{\"bufferView\":4,\"componentType\":5126,\"count\":3,\"type\":\"VEC4\"}],"
             "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":36},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":12},"
             "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":48},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":24},"
             "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":48}],\"buffers\":[{\"byteLength\":%zu}]}",
             bad == 2 ? "VEC3" : "VEC4", o_p, o_j0, o_w0, o_j1, o_w1, g.bin_len);
    size_t n = 0;
    uint8_t *file = hl_test_glb_file(json, &g, &n);
    hl_gltf_asset *a = NULL;
    hl_result r = hl_gltf_load_memory(file, n, NULL, &a);
    free(file);
    hl_test_glb_free(&g);
    static const char *const want[] = {"", "JOINTS_1 of vertex 2 is 5, past its 2 joints",
                                       "attributes.JOINTS_1: accessor 3 has 3 components (4 expected)"};
    if (bad) {
        HL_CHECK_MSG(r == HL_ERR_PARSE && !a && strstr(hl_last_error(), want[bad]),
                     "JOINTS_1 defect %d refused naming '%s': %s %s", bad, want[bad], hl_result_name(r), hl_last_error());
        hl_gltf_asset_destroy(a);
        return;
    }
    HL_CHECK_OK(r);
    hl_mesh *m = a ? first_mesh(hl_gltf_asset_node(a, 2)) : NULL;
    HL_CHECK(m && hl_mesh_skin_joint_count(m) == 2);
    if (m) {
        const hl_geometry *geo = hl_mesh_geometry(m);
        const hl_geometry_layout *l = hl_geometry_get_layout(geo);
        HL_CHECK_EQ(l->vertex_count, 3);
        HL_CHECK(l->attributes[HL_ATTR_JOINTS_1].present && l->attributes[HL_ATTR_JOINTS_1].type == HL_COMPONENT_UINT16 &&
                 l->attributes[HL_ATTR_JOINTS_1].components == 4);
        HL_CHECK(l->attributes[HL_ATTR_WEIGHTS_1].present && l->attributes[HL_ATTR_WEIGHTS_1].type == HL_COMPONENT_FLOAT32);
        float v[4];
        HL_CHECK_OK(hl_geometry_read_vertex(geo, HL_ATTR_JOINTS_1, 2, v));
        HL_CHECK_MSG(v[0] == 1 && v[1] == 0, "JOINTS_1 of vertex 2: %g %g", v[0], v[1]);
        HL_CHECK_OK(hl_geometry_read_vertex(geo, HL_ATTR_WEIGHTS_1, 1, v));
        HL_CHECK_MSG(v[0] == 0.5f && v[1] == 0, "WEIGHTS_1 of vertex 1: %g %g", v[0], v[1]);
        HL_CHECK_OK(hl_geometry_read_vertex(geo, HL_ATTR_WEIGHTS_0, 1, v));
        HL_CHECK_MSG(v[0] == 0.5f, "WEIGHTS_0 of vertex 1: %g", v[0]);
    }
    hl_gltf_asset_destroy(a);
}

/* Morph targets: a triangle with `targets` targets (target 0 moves vertex 0 by +1 in x and tilts
 * every normal towards +x, target 1 moves vertex 1 by +2 in y, the others move vertex 0 by +1 in
 * x), default weights, an animation of the weights. bad: 1 a target accessor of the wrong count,
 * 2 65 targets, 3 default weights of the wrong count. */
static hl_gltf_asset *morph_doc(uint32_t targets, int bad) {
    hl_test_glb g = {0};
    const float pos[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0}, nrm[9] = {0, 0, 1, 0, 0, 1, 0, 0, 1};
    const float d0[9] = {1, 0, 0, 0, 0, 0, 0, 0, 0}, n0[9] = {1, 0, 0, 1, 0, 0, 1, 0, 0}, d1[9] = {0, 0, 0, 0, 2, 0, 0, 0, 0};
    const float times[2] = {0, 1}, wk[4] = {0, 0, 1, 0.5f};
    size_t o_p = hl_test_glb_add(&g, pos, sizeof pos), o_n = hl_test_glb_add(&g, nrm, sizeof nrm);
    size_t o_d0 = hl_test_glb_add(&g, d0, sizeof d0), o_n0 = hl_test_glb_add(&g, n0, sizeof n0);
    size_t o_d1 = hl_test_glb_add(&g, d1, sizeof d1), o_t = hl_test_glb_add(&g, times, sizeof times);
    size_t o_w = hl_test_glb_add(&g, wk, sizeof wk);
    char tl[8000] = "", wl[1200] = "";
    for (uint32_t t = 0; t < targets; t++) {
        size_t a = strlen(tl), b = strlen(wl);
        snprintf(tl + a, sizeof tl - a, "%s{\"POSITION\":%u%s}", t ? "," : "", t == 1 ? 4u : (bad == 1 && t == 0) ? 7u : 2u,
                 t == 0 ? ",\"NORMAL\":3" : "");
        snprintf(wl + b, sizeof wl - b, "%s%g", t ? "," : "", targets == 2 ? (t ? 0.0 : 0.5) : 1.0 / targets);
    }
    if (bad == 3) snprintf(wl, sizeof wl, "0.5");
    if (bad == 2) wl[0] = 0; /* no default weights: the target count is what fails */
    char *json = malloc(16000);
    snprintf(json, 16000,
             "{\"asset\":{\"version\":\"2.0\"},\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"mesh\":0}],"
             "\"meshes\":[{\"weights\":[%s],\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":1},\"targets\":[%s]}]}],"
             "\"animations\":[{\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"weights\"}}],"
             "\"samplers\":[{\"input\":5,\"output\":6}]}],"
             "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
             "{\"bufferView\":1,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
             "{\"bufferView\":2,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
             "{\"bufferView\":3,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
             "{\"bufferView\":4,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
             "{\"bufferView\":5,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
             "{\"bufferView\":6,\"componentType\":5126,\"count\":%u,\"type\":\"SCALAR\"},"
             "{\"bufferView\":2,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}],"
             "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":36},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":36},"
             "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":36},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":36},"
             "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":36},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":8},"
             "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":16}],\"buffers\":[{\"byteLength\":%zu}]}",
             wl, tl, 4u, o_p, o_n, o_d0, o_n0, o_d1, o_t, o_w, g.bin_len);
    size_t n = 0;
    uint8_t *file = hl_test_glb_file(json, &g, &n);
    hl_gltf_asset *a = NULL;
    hl_result r = hl_gltf_load_memory(file, n, NULL, &a);
    static const char *const want[] = {"", "accessor 7 must hold 3 VEC3", "65 morph targets (at most 64)",
                                       "1 default weights for 2 targets"};
    static const hl_result code[] = {HL_OK, HL_ERR_PARSE, HL_ERR_UNSUPPORTED, HL_ERR_PARSE};
    if (bad)
        HL_CHECK_MSG(r == code[bad] && !a && strstr(hl_last_error(), want[bad]), "morph defect %d refused naming '%s': %s %s",
                     bad, want[bad], hl_result_name(r), hl_last_error());
    else
        HL_CHECK_OK(r);
    free(file);
    free(json);
    hl_test_glb_free(&g);
    return a;
}

/* vertex v's position component c and normal of vertex 0 from the mesh's geometry */
static float morph_pos(hl_gltf_asset *a, uint32_t v, uint32_t c) {
    hl_geometry *g = hl_mesh_geometry(first_mesh(hl_gltf_asset_root(a)));
    const hl_geometry_layout *l = hl_geometry_get_layout(g);
    return ((const float *)((const uint8_t *)hl_geometry_vertex_data(g) + l->attributes[HL_ATTR_POSITION].offset))[v * 3 + c];
}

static float morph_nrm(hl_gltf_asset *a, uint32_t c) {
    hl_geometry *g = hl_mesh_geometry(first_mesh(hl_gltf_asset_root(a)));
    const hl_geometry_layout *l = hl_geometry_get_layout(g);
    return ((const float *)((const uint8_t *)hl_geometry_vertex_data(g) + l->attributes[HL_ATTR_NORMAL].offset))[c];
}

static void test_morph(void) {
    (void)morph_doc(2, 1);
    (void)morph_doc(65, 2);
    (void)morph_doc(2, 3);
    hl_gltf_asset *a = morph_doc(2, 0);
    if (a) {
        HL_CHECK_EQ(hl_gltf_asset_report(a)->morph_targets, 2);
        HL_CHECK_MSG(fabsf(morph_pos(a, 0, 0) - 0.5f) < 1e-6f, "default weights: v0.x %g (0.5)", morph_pos(a, 0, 0));
        HL_CHECK_MSG(fabsf(morph_nrm(a, 0) - 0.4472136f) < 1e-5f && fabsf(morph_nrm(a, 2) - 0.8944272f) < 1e-5f,
                     "normal blended and renormalized: (%g, %g)", morph_nrm(a, 0), morph_nrm(a, 2));
        const float w[2] = {0, 1};
        HL_CHECK_OK(hl_gltf_asset_set_morph_weights(a, 0, w, 2));
        HL_CHECK(morph_pos(a, 0, 0) == 0.0f && morph_pos(a, 1, 1) == 2.0f && morph_nrm(a, 2) == 1.0f);
        float got[4] = {9, 9, 9, 9};
        HL_CHECK_EQ(hl_gltf_asset_morph_weights(a, 0, got, 4), 2);
        HL_CHECK(got[0] == 0 && got[1] == 1 && got[2] == 9);
        HL_CHECK_OK(hl_animation_apply(hl_gltf_asset_animation(a, 0), 0.5f, HL_ANIMATION_CLAMP));
        HL_CHECK_MSG(fabsf(morph_pos(a, 0, 0) - 0.5f) < 1e-6f && fabsf(morph_pos(a, 1, 1) - 0.5f) < 1e-6f,
                     "animated weights (0.5, 0.25): v0.x %g, v1.y %g", morph_pos(a, 0, 0), morph_pos(a, 1, 1));
        const float nan_w = NAN;
        HL_CHECK_RESULT(hl_gltf_asset_set_morph_weights(a, 0, &nan_w, 1), HL_ERR_VALIDATION);
        HL_CHECK_EQ(hl_gltf_asset_morph_weights(a, 5, NULL, 0), 0);
        uint64_t a0 = hl_alloc_count();
        for (int i = 0; i < 20; i++) hl_animation_apply(hl_gltf_asset_animation(a, 0), (float)i * 0.05f, HL_ANIMATION_LOOP);
        HL_CHECK_MSG(hl_alloc_count() == a0, "blending morph targets allocates nothing");
        hl_gltf_asset_destroy(a);
    }
    a = morph_doc(8, 0); /* 8 targets: 0 and 2..7 move v0.x by 1, 1 moves v1.y by 2, each weight 1/8 */
    if (a) {
        HL_CHECK_MSG(fabsf(morph_pos(a, 0, 0) - 7.0f / 8.0f) < 1e-6f && fabsf(morph_pos(a, 1, 1) - 0.25f) < 1e-6f,
                     "8 targets: v0.x %g (0.875), v1.y %g (0.25)", morph_pos(a, 0, 0), morph_pos(a, 1, 1));
        HL_CHECK_EQ(hl_gltf_asset_report(a)->morph_targets, 8);
        hl_gltf_asset_destroy(a);
    }
}

/* Morph targets on a primitive without NORMAL (flat-expanded by the loader): indexed, five
 * vertices in three triangles (0,1,2) (0,2,3) (1,4,2), vertex 0 moved by (-0.5, 0, 1) (it has
 * two expanded copies); non-indexed, two triangles of six vertices, vertex 0 moved the same.
 * normal_map: TEXCOORD_0 and a normal-mapped material (the loader generates tangents). */
static const float k_flat_src[15] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 2, 0, 0};
static const uint16_t k_flat_idx[9] = {0, 1, 2, 0, 2, 3, 1, 4, 2};
static const float k_flat_delta[3] = {-0.5f, 0, 1};

static hl_gltf_asset *flat_morph_doc(bool indexed, bool normal_map) {
    hl_test_glb g = {0};
    float pos[18], d[18] = {0}, uv[12];
    uint32_t n = indexed ? 5 : 6;
    for (uint32_t v = 0; v < n; v++) {
        uint32_t s = indexed ? v : k_flat_idx[v == 3 ? 6 : v == 4 ? 7 : v == 5 ? 8 : v]; /* T0, then T2 */
        memcpy(pos + v * 3, k_flat_src + s * 3, 12);
        uv[v * 2] = k_flat_src[s * 3] * 0.5f, uv[v * 2 + 1] = 1.0f - k_flat_src[s * 3 + 1];
    }
    memcpy(d, k_flat_delta, sizeof k_flat_delta);
    const uint8_t flat_normal[4] = {128, 128, 255, 255};
    size_t png_n = 0;
    uint8_t *png = hl_test_png(1, 1, flat_normal, &png_n);
    size_t o_p = hl_test_glb_add(&g, pos, n * 12), o_d = hl_test_glb_add(&g, d, n * 12);
    size_t o_uv = hl_test_glb_add(&g, uv, n * 8), o_i = hl_test_glb_add(&g, k_flat_idx, sizeof k_flat_idx);
    size_t o_png = hl_test_glb_add(&g, png, png_n);
    free(png);
    char json[3000];
    snprintf(json, sizeof json,
             "{\"asset\":{\"version\":\"2.0\"},\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"mesh\":0}],"
             "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0%s}%s,\"material\":0,"
             "\"targets\":[{\"POSITION\":1}]}]}],\"materials\":[%s],\"textures\":[{\"source\":0}],"
             "\"images\":[{\"bufferView\":4,\"mimeType\":\"image/png\"}],"
             "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":%u,\"type\":\"VEC3\"},"
             "{\"bufferView\":1,\"componentType\":5126,\"count\":%u,\"type\":\"VEC3\"},"
             "{\"bufferView\":2,\"componentType\":5126,\"count\":%u,\"type\":\"VEC2\"},"
             "{\"bufferView\":3,\"componentType\":5123,\"count\":9,\"type\":\"SCALAR\"}],"
             "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%u},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%u},"
             "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%u},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":18},"
             "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu}],\"buffers\":[{\"byteLength\":%zu}]}",
             normal_map ? ",\"TEXCOORD_0\":2" : "", indexed ? ",\"indices\":3" : "",
             normal_map ? "{\"normalTexture\":{\"index\":0}}" : "{}", n, n, n, o_p, n * 12, o_d, n * 12, o_uv, n * 8, o_i,
             o_png, png_n, g.bin_len);
    size_t fn = 0;
    uint8_t *file = hl_test_glb_file(json, &g, &fn);
    hl_gltf_asset *a = NULL;
    HL_CHECK_OK(hl_gltf_load_memory(file, fn, NULL, &a));
    free(file);
    hl_test_glb_free(&g);
    return a;
}

static const float *geo_attr(hl_geometry *g, hl_attribute attr) {
    const hl_vertex_attribute_info *ai = &hl_geometry_get_layout(g)->attributes[attr];
    return ai->present ? (const float *)((const uint8_t *)hl_geometry_vertex_data(g) + ai->offset) : NULL;
}

static void test_morph_flat(bool indexed, bool normal_map) {
    hl_gltf_asset *a = flat_morph_doc(indexed, normal_map);
    hl_geometry *g = a ? hl_mesh_geometry(first_mesh(hl_gltf_asset_root(a))) : NULL;
    if (!g) return;
    const hl_geometry_layout *l = hl_geometry_get_layout(g);
    uint32_t nv = indexed ? 9 : 6;
    HL_CHECK_MSG(l->vertex_count == nv && l->index_count == 0, "flat-expanded: %u vertices (%u), %u indices",
                 l->vertex_count, nv, l->index_count);
    HL_CHECK_EQ(hl_gltf_asset_report(a)->morph_targets, 1);
    HL_CHECK(l->attributes[HL_ATTR_TANGENT].present == normal_map);
    if (l->vertex_count != nv) {
        hl_gltf_asset_destroy(a);
        return;
    }
    /* the source vertex of each expanded one: indexed, the index list; else T0 = 0,1,2 and T2 */
    uint32_t src[9];
    for (uint32_t i = 0; i < nv; i++) src[i] = indexed ? k_flat_idx[i] : k_flat_idx[i < 3 ? i : i + 3];
    float p0[27], n0[27], t0[36];
    memcpy(p0, geo_attr(g, HL_ATTR_POSITION), nv * 12);
    memcpy(n0, geo_attr(g, HL_ATTR_NORMAL), nv * 12);
    if (normal_map) memcpy(t0, geo_attr(g, HL_ATTR_TANGENT), nv * 16);
    for (uint32_t i = 0; i < nv * 3; i++) HL_CHECK(n0[i] == (i % 3 == 2 ? 1.0f : 0.0f));
    const float w = 0.75f;
    uint64_t a0 = hl_alloc_count();
    HL_CHECK_OK(hl_gltf_asset_set_morph_weights(a, 0, &w, 1));
    HL_CHECK_MSG(hl_alloc_count() == a0, "blending a flat primitive allocates nothing");
    const float *p = geo_attr(g, HL_ATTR_POSITION), *nn = geo_attr(g, HL_ATTR_NORMAL), *tt = geo_attr(g, HL_ATTR_TANGENT);
    for (uint32_t i = 0; i < nv; i++)
        for (int c = 0; c < 3; c++) {
            float want = k_flat_src[src[i] * 3 + (uint32_t)c] + (src[i] == 0 ? w * k_flat_delta[c] : 0.0f);
            HL_CHECK_MSG(fabsf(p[i * 3 + (uint32_t)c] - want) < 1e-6f, "%s: vertex %u (source %u) .%c %g, want %g",
                         indexed ? "indexed" : "non-indexed", i, src[i], "xyz"[c], p[i * 3 + (uint32_t)c], want);
        }
    for (uint32_t t = 0; t < nv; t += 3) {
        bool moved = src[t] == 0 || src[t + 1] == 0 || src[t + 2] == 0;
        const float *v0 = p + t * 3, *v1 = v0 + 3, *v2 = v0 + 6;
        float e1[3] = {v1[0] - v0[0], v1[1] - v0[1], v1[2] - v0[2]}, e2[3] = {v2[0] - v0[0], v2[1] - v0[1], v2[2] - v0[2]};
        float c[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
        float len = sqrtf(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
        for (uint32_t k = 0; k < 3; k++) {
            const float *got = nn + (t + k) * 3;
            if (moved)
                HL_CHECK_MSG(fabsf(got[0] - c[0] / len) < 1e-6f && fabsf(got[1] - c[1] / len) < 1e-6f &&
                             fabsf(got[2] - c[2] / len) < 1e-6f && c[2] / len < 0.9f,
                             "face %u (moved) normal (%g %g %g), want (%g %g %g)", t / 3, got[0], got[1], got[2],
                             c[0] / len, c[1] / len, c[2] / len);
            else
                HL_CHECK_MSG(memcmp(got, n0 + (t + k) * 3, 12) == 0, "face %u (unmoved) keeps its normal", t / 3);
        }
        if (!normal_map) continue;
        /* the face's tangent: dP/du made orthogonal to its normal (UV u = x / 2, v = 1 - y) */
        float du1 = (k_flat_src[src[t + 1] * 3] - k_flat_src[src[t] * 3]) * 0.5f;
        float du2 = (k_flat_src[src[t + 2] * 3] - k_flat_src[src[t] * 3]) * 0.5f;
        float dv1 = -(k_flat_src[src[t + 1] * 3 + 1] - k_flat_src[src[t] * 3 + 1]);
        float dv2 = -(k_flat_src[src[t + 2] * 3 + 1] - k_flat_src[src[t] * 3 + 1]);
        float r = 1.0f / (du1 * dv2 - du2 * dv1), sd[3], nf[3] = {c[0] / len, c[1] / len, c[2] / len};
        for (int k = 0; k < 3; k++) sd[k] = (e1[k] * dv2 - e2[k] * dv1) * r;
        float dn = sd[0] * nf[0] + sd[1] * nf[1] + sd[2] * nf[2];
        for (int k = 0; k < 3; k++) sd[k] -= nf[k] * dn;
        float sl = sqrtf(sd[0] * sd[0] + sd[1] * sd[1] + sd[2] * sd[2]);
        for (uint32_t k = 0; k < 3; k++) {
            const float *got = tt + (t + k) * 4;
            HL_CHECK_MSG(fabsf(got[0] - sd[0] / sl) < 1e-5f && fabsf(got[1] - sd[1] / sl) < 1e-5f &&
                             fabsf(got[2] - sd[2] / sl) < 1e-5f && got[3] == 1.0f,
                         "face %u tangent (%g %g %g %g), want (%g %g %g 1)", t / 3, got[0], got[1], got[2], got[3],
                         sd[0] / sl, sd[1] / sl, sd[2] / sl);
            if (!moved) HL_CHECK_MSG(memcmp(got, t0 + (t + k) * 4, 16) == 0, "face %u (unmoved) keeps its tangent", t / 3);
        }
    }
    const float zero = 0;
    HL_CHECK_OK(hl_gltf_asset_set_morph_weights(a, 0, &zero, 1));
    HL_CHECK_MSG(memcmp(geo_attr(g, HL_ATTR_POSITION), p0, nv * 12) == 0 && memcmp(geo_attr(g, HL_ATTR_NORMAL), n0, nv * 12) == 0,
                 "weight 0 restores positions and normals exactly");
    if (normal_map) HL_CHECK_MSG(memcmp(geo_attr(g, HL_ATTR_TANGENT), t0, nv * 16) == 0, "weight 0 restores the tangents exactly");
    hl_gltf_asset_destroy(a);
}

int main(int argc, char **argv) {
    (void)argc;
    (void)argv;
    const char *f = __FILE__, *slash = strrchr(f, '/');
    snprintf(g_dir, sizeof g_dir, "%.*s", slash ? (int)(slash - f) : 1, slash ? f : ".");
    test_box();
    test_cameras_lights();
    test_materials();
    test_scenes();
    test_refusals();
    test_animations();
    test_tangents();
    test_skins();
    for (int bad = 0; bad <= 2; bad++) test_skins8(bad);
    test_morph();
    for (int i = 0; i < 4; i++) test_morph_flat(i & 1, i & 2);
    return hl_test_finish();
}
