/** @file
 * hilo3d: stage, node hierarchy, meshes, cameras, lights and fog.
 *
 * Everything in a scene is an hl_node: a group node, a mesh, a camera or a light. Mesh,
 * camera and light are nodes with a kind-specific part; hl_mesh_node / hl_node_mesh (and the
 * camera / light pairs) convert between the typed pointer and its node (same object).
 *
 * Node kinds are checked: every hl_mesh_* / hl_camera_* / hl_light_* function reads the node
 * kind first, so a typed pointer that is really another kind of node (say
 * `(hl_camera *)hl_mesh_node(mesh)`) is refused exactly like NULL: functions returning
 * hl_result fail with HL_ERR_VALIDATION naming the kind expected and the kind received;
 * setters returning void do nothing; getters return the value they document for NULL (NULL
 * pointers, 0 revisions, false flags, zero vectors and bounds). hl_mesh_check /
 * hl_camera_check / hl_light_check validate a pointer once before use. (Only pointers to some
 * hl_node can be told apart; a pointer to anything else is undefined behaviour.)
 *
 * Revisions (node world, stage structure, mesh, camera, light) follow revision.h: unique in
 * the process, increasing per object, never consecutive by contract.
 *
 * Ownership: a node without a parent belongs to the caller (hl_node_destroy). Adding it to a
 * parent hands it to the parent; removing it hands it back. Destroying a node destroys its
 * whole subtree; hl_stage_destroy destroys every node in the stage. A camera need not be in
 * the stage.
 *
 * Transforms: local = T * R * S from translation, rotation quaternion and scale; world =
 * parent.world * local. Setters only mark the node dirty; hl_stage_update recomputes every
 * dirty world matrix in one depth-first pass (a dirty parent re-derives its subtree) and
 * rebuilds the flat lists of visible meshes, lights and cameras the renderer iterates
 * (high-water arrays: no allocation in a steady state). A node is visible when it and all its
 * ancestors are visible. For a node outside a stage (a free camera) call hl_node_update_world.
 */
#ifndef HILO3D_SCENE_H
#define HILO3D_SCENE_H

#include <stdbool.h>
#include <stdint.h>

#include "hilo3d/export.h"
#include "hilo3d/environment.h"
#include "hilo3d/geometry.h"
#include "hilo3d/material.h"
#include "hilo3d/math3d.h"
#include "hilo3d/result.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hl_stage hl_stage;
typedef struct hl_node hl_node;
typedef struct hl_mesh hl_mesh;
typedef struct hl_camera hl_camera;
typedef struct hl_light hl_light;

typedef enum hl_node_kind {
    HL_NODE_GROUP = 0,
    HL_NODE_MESH,
    HL_NODE_CAMERA,
    HL_NODE_LIGHT
} hl_node_kind;

/* ---- nodes ---------------------------------------------------------------------------------
 * Defaults: translation 0, rotation identity, scale 1, visible, render_order 0, no name. */
HL_API hl_result hl_node_create(const char *name, hl_node **out); /**< a group node; name may be NULL */
HL_API void hl_node_destroy(hl_node *n); /**< any kind; detaches from the parent, destroys the subtree */
HL_API hl_node_kind hl_node_get_kind(const hl_node *n); /**< HL_NODE_GROUP for NULL */
HL_API const char *hl_node_kind_name(hl_node_kind kind); /**< "group", "mesh", "camera", "light"; "unknown" */
HL_API const char *hl_node_name(const hl_node *n); /**< "" when none */
HL_API hl_result hl_node_set_name(hl_node *n, const char *name);

/** child must have no parent, not be a stage root and not be n or an ancestor of n. */
HL_API hl_result hl_node_add_child(hl_node *n, hl_node *child);
/** HL_ERR_NOT_FOUND when child is not a child of n. The caller owns child again. */
HL_API hl_result hl_node_remove_child(hl_node *n, hl_node *child);
HL_API hl_node *hl_node_parent(const hl_node *n);
HL_API hl_node *hl_node_first_child(const hl_node *n);
HL_API hl_node *hl_node_next_sibling(const hl_node *n);
HL_API uint32_t hl_node_child_count(const hl_node *n);
/** First node named `name` in the subtree (n included), depth first; NULL if none. */
HL_API hl_node *hl_node_find(hl_node *n, const char *name);

HL_API void hl_node_set_translation(hl_node *n, hl_vec3 t);
HL_API void hl_node_set_rotation(hl_node *n, hl_quat r); /**< normalised here */
HL_API void hl_node_set_scale(hl_node *n, hl_vec3 s);
HL_API hl_vec3 hl_node_translation(const hl_node *n);
HL_API hl_quat hl_node_rotation(const hl_node *n);
HL_API hl_vec3 hl_node_scale(const hl_node *n);
/** Rotates n so its -Z axis points at target (in the parent's space), +Y towards up. */
HL_API void hl_node_look_at(hl_node *n, hl_vec3 target, hl_vec3 up);
HL_API void hl_node_set_visible(hl_node *n, bool visible);
HL_API bool hl_node_visible(const hl_node *n);
/** Opaque draws sort by render order first (ascending). */
HL_API void hl_node_set_render_order(hl_node *n, int32_t order);
HL_API int32_t hl_node_render_order(const hl_node *n);
HL_API void hl_node_set_user_data(hl_node *n, void *user);
HL_API void *hl_node_user_data(const hl_node *n);

/** Local matrix from the current TRS (always up to date). */
HL_API hl_mat4 hl_node_local_matrix(const hl_node *n);
/** World matrix as of the last hl_stage_update / hl_node_update_world. */
HL_API const hl_mat4 *hl_node_world_matrix(const hl_node *n);
/** Changes every time the world matrix is recomputed (revision.h); 0 for NULL. */
HL_API uint64_t hl_node_world_revision(const hl_node *n);
HL_API hl_vec3 hl_node_world_position(const hl_node *n);
/** Updates the world matrices of n's ancestors and n (not its children). */
HL_API void hl_node_update_world(hl_node *n);

/* ---- stage ---------------------------------------------------------------------------------
 * The root of a scene plus the per-update flat lists and the scene-wide settings (fog, clear
 * colour default opaque black, environment, exposure). */
typedef enum hl_fog_mode {
    HL_FOG_NONE = 0,
    HL_FOG_LINEAR,  /**< factor = (end - d) / (end - start) */
    HL_FOG_EXP,     /**< factor = exp(-density * d) */
    HL_FOG_EXP2     /**< factor = exp(-(density * d)^2) */
} hl_fog_mode;

/** Zero = no fog. start default 0, end 0 = 100, density 0 = 0.01, colour literal. */
typedef struct hl_fog {
    hl_fog_mode mode;
    hl_color color;
    float start, end;
    float density;
} hl_fog;

HL_API hl_result hl_stage_create(hl_stage **out);
HL_API void hl_stage_destroy(hl_stage *s); /**< destroys every node in it; NULL is a no-op */
HL_API hl_node *hl_stage_root(hl_stage *s);
HL_API hl_result hl_stage_add(hl_stage *s, hl_node *n); /**< hl_node_add_child(root, n) */
/** Recomputes dirty world matrices and the flat lists. HL_ERR_OUT_OF_MEMORY only when a list
 * must grow and cannot. */
HL_API hl_result hl_stage_update(hl_stage *s);
/** Visible meshes / lights / cameras in depth-first order, as of the last update. Structural
 * changes (add, remove, destroy) empty the lists until the next update, so they never hold a
 * destroyed node. */
HL_API hl_mesh *const *hl_stage_meshes(const hl_stage *s, uint32_t *count);
HL_API hl_light *const *hl_stage_lights(const hl_stage *s, uint32_t *count);
HL_API hl_camera *const *hl_stage_cameras(const hl_stage *s, uint32_t *count);
/** Changes when the set or order of listed nodes may have changed (structure, visibility). */
HL_API uint64_t hl_stage_structure_revision(const hl_stage *s);
HL_API void hl_stage_set_fog(hl_stage *s, const hl_fog *fog); /**< NULL = no fog; defaults resolved here */
HL_API const hl_fog *hl_stage_fog(const hl_stage *s);
HL_API void hl_stage_set_clear_color(hl_stage *s, hl_color c);
HL_API hl_color hl_stage_clear_color(const hl_stage *s);
/** Image-based lighting (environment.h): env lights every lit material of the stage (retained;
 * NULL = none, the default: lights and ambient lights only). */
HL_API void hl_stage_set_environment(hl_stage *s, hl_environment *env);
HL_API hl_environment *hl_stage_environment(const hl_stage *s);
/** Scales the whole lit colour (lights, environment, ambient, emission) before it is written:
 * a linear factor, finite and > 0 (others are ignored); default 1. */
HL_API void hl_stage_set_exposure(hl_stage *s, float exposure);
HL_API float hl_stage_exposure(const hl_stage *s);

/* ---- meshes --------------------------------------------------------------------------------
 * geometry and material: required, retained (the mesh holds a reference).
 * instanced: meshes with the same geometry and material that are all instanced may be drawn
 * as one instanced draw (a hint: meshes with shader materials are drawn one by one). cast_shadows / receive_shadows: default off. */
typedef struct hl_mesh_desc {
    hl_geometry *geometry;
    hl_material *material;
    bool instanced;
    bool cast_shadows;
    bool receive_shadows;
    const char *name;
} hl_mesh_desc;

HL_API hl_result hl_mesh_create(const hl_mesh_desc *desc, hl_mesh **out);
/** HL_OK when m is a mesh; HL_ERR_VALIDATION for NULL or another node kind (named). */
HL_API hl_result hl_mesh_check(const hl_mesh *m);
HL_API hl_node *hl_mesh_node(hl_mesh *m); /**< NULL when m is NULL or not a mesh (as for every hl_mesh_* getter) */
HL_API hl_mesh *hl_node_mesh(hl_node *n); /**< NULL when n is not a mesh */
HL_API hl_geometry *hl_mesh_geometry(const hl_mesh *m);
HL_API hl_material *hl_mesh_material(const hl_mesh *m);
HL_API hl_result hl_mesh_set_geometry(hl_mesh *m, hl_geometry *g);
HL_API hl_result hl_mesh_set_material(hl_mesh *m, hl_material *mat);
HL_API void hl_mesh_set_instanced(hl_mesh *m, bool instanced);
HL_API bool hl_mesh_instanced(const hl_mesh *m);
HL_API void hl_mesh_set_shadows(hl_mesh *m, bool cast, bool receive);
HL_API bool hl_mesh_cast_shadows(const hl_mesh *m);
/** The layers a mesh is on, a bit mask (default 1: layer 0). Renderer lists of pipelines select
 * by it (hl_pipeline_renderer_list_desc.layer_mask); the built-in pipelines draw every layer.
 * 0 takes the mesh off every selecting list. hl_mesh_layers: 0 for NULL or another node kind. */
HL_API void hl_mesh_set_layers(hl_mesh *m, uint32_t layers);
HL_API uint32_t hl_mesh_layers(const hl_mesh *m);

/** Mesh events, called by renderers on the renderer's thread:
 *   before_render: when a render call's culling finds the mesh visible, before its draw is
 *     prepared (once per mesh per render call, however many culls a pipeline makes; its
 *     transform is already taken for this frame, material and uniform changes made here apply
 *     to this draw);
 *   after_render: after the frame's submission is valid, once per frame for each mesh a
 *     scene pass actually drew (not for failed frames, culled meshes, shadow-only draws or
 *     passes the graph culled).
 * Inside them, do not destroy or re-parent the mesh, and make no renderer calls. events NULL
 * (or all NULL) removes them; a mesh without events costs the renderer one pointer test. */
typedef void (*hl_mesh_event_fn)(hl_mesh *mesh, void *user);
typedef struct hl_mesh_events {
    hl_mesh_event_fn before_render, after_render;
    void *user;
} hl_mesh_events;
HL_API hl_result hl_mesh_set_events(hl_mesh *m, const hl_mesh_events *events);
/** NULL when the mesh has none. */
HL_API const hl_mesh_events *hl_mesh_get_events(const hl_mesh *m);
HL_API bool hl_mesh_receive_shadows(const hl_mesh *m);

/** Skinning (glTF skins). A skinned mesh's vertices are placed by their joints: position' =
 * sum over the vertex's 4 JOINTS_0 / WEIGHTS_0 (and, when the geometry has JOINTS_1 and 4
 * WEIGHTS_1, their 4 more: 8 influences) of weight * (world(joint) * inverse_bind(joint)) *
 * position, in world space: the mesh node's own transform is not applied, as glTF specifies.
 * The geometry needs JOINTS_0 (joint indices < joint_count; JOINTS_1's too) and WEIGHTS_0;
 * without them the mesh draws unskinned. Each vertex attribute takes one of 8 vertex buffers:
 * with 8 influences a draw that would read more drops TANGENT (no normal mapping), then
 * TEXCOORD_1 (its maps read TEXCOORD_0), then COLOR_0. Joints are nodes of the same stage; they must outlive the skin (destroy
 * the mesh, or remove its skin, first). At most HL_SKIN_MAX_JOINTS joints. A skinned mesh is
 * culled by its posed bounds (hl_mesh_world_aabb) and never instanced; shader materials draw it
 * unskinned. Weights are taken as non-negative (glTF's rule; their sum need not be 1). joints /
 * inverse_bind are copied; inverse_bind NULL = identities. */
#define HL_SKIN_MAX_JOINTS 256u
typedef struct hl_skin_desc {
    hl_node *const *joints;
    const hl_mat4 *inverse_bind;
    uint32_t joint_count; /**< 0 (or a NULL desc) removes the skin */
} hl_skin_desc;
HL_API hl_result hl_mesh_set_skin(hl_mesh *m, const hl_skin_desc *skin);
HL_API uint32_t hl_mesh_skin_joint_count(const hl_mesh *m);
/** world(joint) * inverse_bind(joint) for the first min(count, max) joints into out, from the
 * joints' world matrices as of the last update; the number written. */
HL_API uint32_t hl_mesh_skin_matrices(const hl_mesh *m, hl_mat4 *out, uint32_t max);
/** Changes on geometry/material swap and flag changes (not on transform changes); 0 for NULL. */
HL_API uint64_t hl_mesh_revision(const hl_mesh *m);
/** World-space bounds (zero for NULL): from the geometry bounds and the mesh's world matrix;
 * for a mesh drawn skinned, its posed bounds instead: the union over the joints that move some
 * vertex of (joint's world matrix as of the last update) * (the box, in the joint's bind space
 * inverse_bind * POSITION, of the vertices it moves), which holds every skinned vertex and is
 * not tight (the sphere surrounds that box). Posed bounds cost O(joints); the joint boxes are
 * made again, O(vertices), on the first call after the geometry or the skin changed. A skin
 * that moves no vertex (all weights 0) gets the unskinned bounds. */
HL_API hl_aabb hl_mesh_world_aabb(const hl_mesh *m);
HL_API hl_sphere hl_mesh_world_sphere(const hl_mesh *m);

/* ---- cameras -------------------------------------------------------------------------------
 * Perspective: fov_y_deg 0 = 50, aspect 0 = 1, near 0 = 0.1, far 0 = 1000.
 * Orthographic: left/right/bottom/top all 0 = -1, 1, -1, 1; near 0 = 0.1, far 0 = 1000.
 * Projections are right-handed with WebGPU depth: near -> 0, far -> 1 (the gles3 path applies
 * hl_mat4_clip_zo_to_no). view = inverse(world). */
typedef enum hl_projection {
    HL_PROJECTION_PERSPECTIVE = 0,
    HL_PROJECTION_ORTHOGRAPHIC
} hl_projection;

typedef struct hl_camera_desc {
    hl_projection projection;
    float fov_y_deg, aspect;
    float left, right, bottom, top;
    float near_plane, far_plane;
    const char *name;
} hl_camera_desc;

HL_API hl_result hl_camera_create(const hl_camera_desc *desc, hl_camera **out); /**< desc may be NULL */
/** HL_OK when c is a camera; HL_ERR_VALIDATION for NULL or another node kind (named). A
 * renderer calls this (or checks hl_camera_update's result) before reading a camera. */
HL_API hl_result hl_camera_check(const hl_camera *c);
HL_API hl_node *hl_camera_node(hl_camera *c); /**< NULL when c is NULL or not a camera */
HL_API hl_camera *hl_node_camera(hl_node *n);
/** Replaces the projection parameters (same defaults). */
HL_API hl_result hl_camera_set_desc(hl_camera *c, const hl_camera_desc *desc);
HL_API const hl_camera_desc *hl_camera_get_desc(const hl_camera *c); /**< resolved */
HL_API void hl_camera_set_aspect(hl_camera *c, float aspect);
/** Updates the camera's world matrix (through hl_node_update_world) and its view, projection,
 * view-projection and frustum; bumps the camera revision when any of them changed.
 * HL_ERR_VALIDATION (nothing updated) when c is NULL or not a camera. */
HL_API hl_result hl_camera_update(hl_camera *c);
/** Getters: NULL (pointers), 0 (revision) or the zero vector when c is NULL or not a camera. */
HL_API const hl_mat4 *hl_camera_view(const hl_camera *c);
HL_API const hl_mat4 *hl_camera_projection(const hl_camera *c);
HL_API const hl_mat4 *hl_camera_view_projection(const hl_camera *c);
HL_API const hl_frustum *hl_camera_frustum(const hl_camera *c);
HL_API uint64_t hl_camera_revision(const hl_camera *c);
/** World point -> clip-space NDC (x, y in [-1, 1], z in [0, 1] when inside), as of the last update. */
HL_API hl_vec3 hl_camera_project(const hl_camera *c, hl_vec3 world);

/* ---- lights --------------------------------------------------------------------------------
 * A light shines along its node's world -Z (directional, spot) from its world position
 * (point, spot). Zero = default:
 *   color all-zero = white; intensity 0 = 1 (set 0 with hl_light_set_intensity);
 *   range 0 = unlimited (point/spot attenuation radius);
 *   outer_cone_deg 0 = 30 (half angle), inner_cone_deg literal (0 = smooth over the whole cone).
 * Shadows (directional, spot, point; ambient never): cast_shadows default off;
 *   bias 0 = 0.005, normal_bias literal, map_size 0 = 1024 (a hint for the atlas planner),
 *   directional: ortho_size 0 = 10 (half extent of the shadow camera), near 0 = 0.1, far 0 = 100. */
typedef enum hl_light_kind {
    HL_LIGHT_AMBIENT = 0,
    HL_LIGHT_DIRECTIONAL,
    HL_LIGHT_POINT,
    HL_LIGHT_SPOT
} hl_light_kind;

typedef struct hl_shadow_desc {
    float bias;
    float normal_bias;
    uint32_t map_size;
    float ortho_size;
    float near_plane, far_plane;
} hl_shadow_desc;

typedef struct hl_light_desc {
    hl_light_kind kind;
    hl_color color;
    float intensity;
    float range;
    float inner_cone_deg, outer_cone_deg;
    bool cast_shadows;
    hl_shadow_desc shadow;
    const char *name;
} hl_light_desc;

HL_API hl_result hl_light_create(const hl_light_desc *desc, hl_light **out);
/** HL_OK when l is a light; HL_ERR_VALIDATION for NULL or another node kind (named). */
HL_API hl_result hl_light_check(const hl_light *l);
HL_API hl_node *hl_light_node(hl_light *l); /**< NULL when l is NULL or not a light */
HL_API hl_light *hl_node_light(hl_node *n);
/** Replaces every parameter (same defaults); validation as at creation. */
HL_API hl_result hl_light_set_desc(hl_light *l, const hl_light_desc *desc);
HL_API const hl_light_desc *hl_light_get_desc(const hl_light *l); /**< resolved */
HL_API void hl_light_set_color(hl_light *l, hl_color c);
HL_API void hl_light_set_intensity(hl_light *l, float intensity); /**< literal, 0 allowed */
HL_API void hl_light_set_cast_shadows(hl_light *l, bool cast);
/** World-space unit direction the light travels (-Z of the world matrix) and position, as
 * of the last update; (0, 0, -1) and the origin for NULL or a non-light. */
HL_API hl_vec3 hl_light_direction(const hl_light *l);
HL_API hl_vec3 hl_light_position(const hl_light *l);
/** Changes on parameter changes (not transform changes: see hl_node_world_revision); 0 for
 * NULL or a non-light. */
HL_API uint64_t hl_light_revision(const hl_light *l);

#ifdef __cplusplus
}
#endif

#endif
