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

/** A scene: a root node, the flat lists of the last update and the scene-wide settings (owned by
 * the caller: hl_stage_create / hl_stage_destroy). */
typedef struct hl_stage hl_stage;
/** A node of the scene tree: a group, or the node part of a mesh, camera or light. */
typedef struct hl_node hl_node;
/** A node that draws a geometry with a material. */
typedef struct hl_mesh hl_mesh;
/** A node that looks down its -Z with a perspective or orthographic projection. */
typedef struct hl_camera hl_camera;
/** A node that lights the scene (ambient, directional, point or spot). */
typedef struct hl_light hl_light;

/** What a node is. */
typedef enum hl_node_kind {
    HL_NODE_GROUP = 0, /**< a plain node: transform and children only */
    HL_NODE_MESH,      /**< an hl_mesh */
    HL_NODE_CAMERA,    /**< an hl_camera */
    HL_NODE_LIGHT      /**< an hl_light */
} hl_node_kind;

/* ---- nodes ---------------------------------------------------------------------------------
 * Defaults: translation 0, rotation identity, scale 1, visible, render_order 0, no name. */
HL_API hl_result hl_node_create(const char *name, hl_node **out); /**< a group node; name may be NULL */
HL_API void hl_node_destroy(hl_node *n); /**< any kind; detaches from the parent, destroys the subtree */
HL_API hl_node_kind hl_node_get_kind(const hl_node *n); /**< HL_NODE_GROUP for NULL */
HL_API const char *hl_node_kind_name(hl_node_kind kind); /**< "group", "mesh", "camera", "light"; "unknown" */
HL_API const char *hl_node_name(const hl_node *n); /**< "" when none */
/** Replaces the name (copied; NULL = none). HL_ERR_VALIDATION for a NULL node. */
HL_API hl_result hl_node_set_name(hl_node *n, const char *name);

/** Appends child as n's last child; n then owns it. child must have no parent, not be a stage
 * root and not be n or an ancestor of n (HL_ERR_VALIDATION). */
HL_API hl_result hl_node_add_child(hl_node *n, hl_node *child);
/** HL_ERR_NOT_FOUND when child is not a child of n. The caller owns child again. */
HL_API hl_result hl_node_remove_child(hl_node *n, hl_node *child);
/** The parent (NULL for a free node, a stage root, or NULL). */
HL_API hl_node *hl_node_parent(const hl_node *n);
/** The first child in order of addition; NULL when none. */
HL_API hl_node *hl_node_first_child(const hl_node *n);
/** The next child of the same parent; NULL after the last. */
HL_API hl_node *hl_node_next_sibling(const hl_node *n);
/** The number of direct children; 0 for NULL. */
HL_API uint32_t hl_node_child_count(const hl_node *n);
/** First node named `name` in the subtree (n included), depth first; NULL if none. */
HL_API hl_node *hl_node_find(hl_node *n, const char *name);

/** The translation relative to the parent; marks the node dirty. */
HL_API void hl_node_set_translation(hl_node *n, hl_vec3 t);
HL_API void hl_node_set_rotation(hl_node *n, hl_quat r); /**< normalised here (a zero quaternion: identity) */
/** The scale along the local axes (not checked: 0 collapses the node). */
HL_API void hl_node_set_scale(hl_node *n, hl_vec3 s);
/** The translation as set; zero for NULL. */
HL_API hl_vec3 hl_node_translation(const hl_node *n);
/** The rotation as set (normalised); identity for NULL. */
HL_API hl_quat hl_node_rotation(const hl_node *n);
/** The scale as set; (1, 1, 1) for NULL. */
HL_API hl_vec3 hl_node_scale(const hl_node *n);
/** Rotates n so its -Z axis points at target (in the parent's space), +Y towards up. */
HL_API void hl_node_look_at(hl_node *n, hl_vec3 target, hl_vec3 up);
/** Shows or hides the node and its subtree (hidden nodes leave the stage's lists at the next
 * update: not drawn, not lit by, not casting). */
HL_API void hl_node_set_visible(hl_node *n, bool visible);
/** The node's own flag (its ancestors may still hide it); false for NULL. */
HL_API bool hl_node_visible(const hl_node *n);
/** Opaque draws sort by render order first (ascending). */
HL_API void hl_node_set_render_order(hl_node *n, int32_t order);
/** The render order (default 0). */
HL_API int32_t hl_node_render_order(const hl_node *n);
/** Attaches an application pointer, never read by hilo3d. */
HL_API void hl_node_set_user_data(hl_node *n, void *user);
/** The pointer given to hl_node_set_user_data; NULL by default. */
HL_API void *hl_node_user_data(const hl_node *n);

/** Local matrix from the current TRS (always up to date). */
HL_API hl_mat4 hl_node_local_matrix(const hl_node *n);
/** World matrix as of the last hl_stage_update / hl_node_update_world. */
HL_API const hl_mat4 *hl_node_world_matrix(const hl_node *n);
/** Changes every time the world matrix is recomputed (revision.h); 0 for NULL. */
HL_API uint64_t hl_node_world_revision(const hl_node *n);
/** The translation of the world matrix (as of the last update); zero for NULL. */
HL_API hl_vec3 hl_node_world_position(const hl_node *n);
/** Updates the world matrices of n's ancestors and n (not its children). */
HL_API void hl_node_update_world(hl_node *n);

/* ---- stage ---------------------------------------------------------------------------------
 * The root of a scene plus the per-update flat lists and the scene-wide settings (fog, clear
 * colour default opaque black, environment, exposure). */
/** How fog fades the lit colour towards the fog colour with the view distance d. */
typedef enum hl_fog_mode {
    HL_FOG_NONE = 0, /**< no fog (the default) */
    HL_FOG_LINEAR,  /**< factor = (end - d) / (end - start) */
    HL_FOG_EXP,     /**< factor = exp(-density * d) */
    HL_FOG_EXP2     /**< factor = exp(-(density * d)^2) */
} hl_fog_mode;

/** Zero = no fog. start default 0, end 0 = 100, density 0 = 0.01, colour literal. */
typedef struct hl_fog {
    hl_fog_mode mode; /**< default none */
    hl_color color;   /**< linear fog colour (literal: zero is black) */
    /** Linear fog's distances: start default 0, end 0 = 100. @{ */
    float start, end;
    /** @} */
    float density;    /**< EXP and EXP2: 0 = 0.01 */
} hl_fog;

/** An empty stage (a root group node, no fog, opaque black clear colour, no environment,
 * exposure 1), owned by the caller. */
HL_API hl_result hl_stage_create(hl_stage **out);
HL_API void hl_stage_destroy(hl_stage *s); /**< destroys every node in it; NULL is a no-op */
/** The root node (owned by the stage: add children, never destroy it); NULL for NULL. */
HL_API hl_node *hl_stage_root(hl_stage *s);
HL_API hl_result hl_stage_add(hl_stage *s, hl_node *n); /**< hl_node_add_child(root, n) */
/** Recomputes dirty world matrices and the flat lists. HL_ERR_OUT_OF_MEMORY only when a list
 * must grow and cannot. */
HL_API hl_result hl_stage_update(hl_stage *s);
/** Visible meshes in depth-first order, as of the last update, and their number in *count.
 * Structural changes (add, remove, destroy) empty the lists until the next update, so they never
 * hold a destroyed node. The array is the stage's (valid until its next update). */
HL_API hl_mesh *const *hl_stage_meshes(const hl_stage *s, uint32_t *count);
/** Visible lights, as hl_stage_meshes. */
HL_API hl_light *const *hl_stage_lights(const hl_stage *s, uint32_t *count);
/** Visible cameras, as hl_stage_meshes. */
HL_API hl_camera *const *hl_stage_cameras(const hl_stage *s, uint32_t *count);
/** Changes when the set or order of listed nodes may have changed (structure, visibility). */
HL_API uint64_t hl_stage_structure_revision(const hl_stage *s);
HL_API void hl_stage_set_fog(hl_stage *s, const hl_fog *fog); /**< NULL = no fog; defaults resolved here */
/** The fog with its defaults resolved (owned by the stage); NULL for NULL. */
HL_API const hl_fog *hl_stage_fog(const hl_stage *s);
/** The colour the output is cleared to before the scene draws (linear; default opaque black). */
HL_API void hl_stage_set_clear_color(hl_stage *s, hl_color c);
/** The clear colour. */
HL_API hl_color hl_stage_clear_color(const hl_stage *s);
/** Image-based lighting (environment.h): env lights every lit material of the stage (retained;
 * NULL = none, the default: lights and ambient lights only). */
HL_API void hl_stage_set_environment(hl_stage *s, hl_environment *env);
/** The stage's environment (the stage's reference); NULL when none. */
HL_API hl_environment *hl_stage_environment(const hl_stage *s);
/** Scales the whole lit colour (lights, environment, ambient, emission) before it is written:
 * a linear factor, finite and > 0 (others are ignored); default 1. */
HL_API void hl_stage_set_exposure(hl_stage *s, float exposure);
/** The exposure factor; 1 for NULL. */
HL_API float hl_stage_exposure(const hl_stage *s);

/* ---- meshes --------------------------------------------------------------------------- */
/** A mesh to create. geometry and material: required, retained (the mesh holds a reference).
 * instanced: meshes with the same geometry and material that are all instanced may be drawn
 * as one instanced draw (a hint: meshes with shader materials are drawn one by one).
 * cast_shadows / receive_shadows: default off. */
typedef struct hl_mesh_desc {
    hl_geometry *geometry; /**< required; retained */
    hl_material *material; /**< required; retained */
    bool instanced;        /**< may be batched with equal meshes into one instanced draw */
    bool cast_shadows;     /**< drawn into the shadow maps of lights that cast shadows */
    bool receive_shadows;  /**< shaded with those shadow maps */
    const char *name;      /**< the node's name (copied); NULL = none */
} hl_mesh_desc;

/** A mesh node (no parent: the caller owns it until it is added to a parent). HL_ERR_VALIDATION
 * when desc, its geometry or its material is NULL. */
HL_API hl_result hl_mesh_create(const hl_mesh_desc *desc, hl_mesh **out);
/** HL_OK when m is a mesh; HL_ERR_VALIDATION for NULL or another node kind (named). */
HL_API hl_result hl_mesh_check(const hl_mesh *m);
HL_API hl_node *hl_mesh_node(hl_mesh *m); /**< NULL when m is NULL or not a mesh (as for every hl_mesh_* getter) */
HL_API hl_mesh *hl_node_mesh(hl_node *n); /**< NULL when n is not a mesh */
/** The geometry (the mesh's reference). */
HL_API hl_geometry *hl_mesh_geometry(const hl_mesh *m);
/** The material (the mesh's reference). */
HL_API hl_material *hl_mesh_material(const hl_mesh *m);
/** Replaces the geometry (retains g, releases the old one). HL_ERR_VALIDATION for a NULL g. */
HL_API hl_result hl_mesh_set_geometry(hl_mesh *m, hl_geometry *g);
/** Replaces the material (retains mat, releases the old one). HL_ERR_VALIDATION for a NULL mat. */
HL_API hl_result hl_mesh_set_material(hl_mesh *m, hl_material *mat);
/** The instancing hint of hl_mesh_desc. */
HL_API void hl_mesh_set_instanced(hl_mesh *m, bool instanced);
/** The instancing hint; false for NULL. */
HL_API bool hl_mesh_instanced(const hl_mesh *m);
/** Whether the mesh casts shadows and receives them. */
HL_API void hl_mesh_set_shadows(hl_mesh *m, bool cast, bool receive);
/** true when the mesh casts shadows; false for NULL. */
HL_API bool hl_mesh_cast_shadows(const hl_mesh *m);
/** The layers a mesh is on, a bit mask (default 1: layer 0). Renderer lists of pipelines select
 * by it (hl_pipeline_renderer_list_desc.layer_mask); the built-in pipelines draw every layer.
 * 0 takes the mesh off every selecting list. hl_mesh_layers: 0 for NULL or another node kind. */
HL_API void hl_mesh_set_layers(hl_mesh *m, uint32_t layers);
/** The layer mask (see hl_mesh_set_layers). */
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
/** The events of one mesh (copied by hl_mesh_set_events). */
typedef struct hl_mesh_events {
    /** The two events (see hl_mesh_event_fn); either may be NULL. @{ */
    hl_mesh_event_fn before_render, after_render;
    /** @} */
    void *user; /**< passed to both */
} hl_mesh_events;
/** Sets (copies) or, with NULL, removes the mesh's events. HL_ERR_VALIDATION when m is not a mesh. */
HL_API hl_result hl_mesh_set_events(hl_mesh *m, const hl_mesh_events *events);
/** NULL when the mesh has none. */
HL_API const hl_mesh_events *hl_mesh_get_events(const hl_mesh *m);
/** true when the mesh receives shadows; false for NULL. */
HL_API bool hl_mesh_receive_shadows(const hl_mesh *m);

/** The most joints of one skin. */
#define HL_SKIN_MAX_JOINTS 256u
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
typedef struct hl_skin_desc {
    hl_node *const *joints;      /**< joint_count nodes, in the order JOINTS_0/1 index them */
    const hl_mat4 *inverse_bind; /**< joint_count matrices; NULL = identities */
    uint32_t joint_count; /**< 0 (or a NULL desc) removes the skin */
} hl_skin_desc;
/** Gives the mesh a skin (copied; see hl_skin_desc), replacing any it had; HL_ERR_VALIDATION for
 * more than HL_SKIN_MAX_JOINTS joints, a NULL joint or a matrix that is not finite. */
HL_API hl_result hl_mesh_set_skin(hl_mesh *m, const hl_skin_desc *skin);
/** The skin's joint count; 0 when the mesh has no skin. */
HL_API uint32_t hl_mesh_skin_joint_count(const hl_mesh *m);
/** world(joint) * inverse_bind(joint) for the first min(count, max) joints into out, from the
 * joints' world matrices as of the last update; the number written. */
HL_API uint32_t hl_mesh_skin_matrices(const hl_mesh *m, hl_mat4 *out, uint32_t max);
/** Changes on geometry/material swap and flag changes (not on transform changes); 0 for NULL. */
HL_API uint64_t hl_mesh_revision(const hl_mesh *m);
/** A number that identifies the mesh for the life of the process: taken at creation from the
 * counter revisions come from, never the same for two meshes (a mesh made at the address of a
 * destroyed one gets a new one); 0 for NULL. A cache keyed by mesh address compares it to tell a
 * new mesh from the old one. */
HL_API uint64_t hl_mesh_serial(const hl_mesh *m);
/** World-space bounds (zero for NULL): from the geometry bounds and the mesh's world matrix;
 * for a mesh drawn skinned, its posed bounds instead: the union over the joints that move some
 * vertex of (joint's world matrix as of the last update) * (the box, in the joint's bind space
 * inverse_bind * POSITION, of the vertices it moves), which holds every skinned vertex and is
 * not tight (the sphere surrounds that box). Posed bounds cost O(joints); the joint boxes are
 * made again, O(vertices), on the first call after the geometry or the skin changed. A skin
 * that moves no vertex (all weights 0) gets the unskinned bounds. */
HL_API hl_aabb hl_mesh_world_aabb(const hl_mesh *m);
/** The world-space bounding sphere, made the same way (zero for NULL). */
HL_API hl_sphere hl_mesh_world_sphere(const hl_mesh *m);

/* ---- cameras -------------------------------------------------------------------------- */
/** The two projections. Both are right-handed with WebGPU depth: near -> 0, far -> 1 (the gles3
 * path applies hl_mat4_clip_zo_to_no). view = inverse(world). */
typedef enum hl_projection {
    HL_PROJECTION_PERSPECTIVE = 0, /**< fov_y_deg and aspect (the default) */
    HL_PROJECTION_ORTHOGRAPHIC     /**< left, right, bottom, top */
} hl_projection;

/** A camera's projection. Zero = defaults.
 * Perspective: fov_y_deg 0 = 50, aspect 0 = 1, near 0 = 0.1, far 0 = 1000.
 * Orthographic: left/right/bottom/top all 0 = -1, 1, -1, 1; near 0 = 0.1, far 0 = 1000. */
typedef struct hl_camera_desc {
    hl_projection projection; /**< default perspective */
    /** Perspective: vertical field of view in degrees (0 = 50) and width / height (0 = 1). @{ */
    float fov_y_deg, aspect;
    /** @} */
    /** Orthographic: the view volume's sides in view space (all 0 = -1, 1, -1, 1). @{ */
    float left, right, bottom, top;
    /** @} */
    /** Distances to the near (0 = 0.1) and far (0 = 1000) planes. @{ */
    float near_plane, far_plane;
    /** @} */
    const char *name; /**< the node's name (copied); NULL = none */
} hl_camera_desc;

/** A camera node (owned by the caller; it need not be in a stage). */
HL_API hl_result hl_camera_create(const hl_camera_desc *desc, hl_camera **out); /**< desc may be NULL */
/** HL_OK when c is a camera; HL_ERR_VALIDATION for NULL or another node kind (named). A
 * renderer calls this (or checks hl_camera_update's result) before reading a camera. */
HL_API hl_result hl_camera_check(const hl_camera *c);
HL_API hl_node *hl_camera_node(hl_camera *c); /**< NULL when c is NULL or not a camera */
/** The camera of node n (the same object); NULL when n is not a camera. */
HL_API hl_camera *hl_node_camera(hl_node *n);
/** Replaces the projection parameters (same defaults). */
HL_API hl_result hl_camera_set_desc(hl_camera *c, const hl_camera_desc *desc);
HL_API const hl_camera_desc *hl_camera_get_desc(const hl_camera *c); /**< resolved */
/** The perspective aspect (width / height; finite and > 0, else ignored), e.g. after a resize:
 * renderers never change it. */
HL_API void hl_camera_set_aspect(hl_camera *c, float aspect);
/** Updates the camera's world matrix (through hl_node_update_world) and its view, projection,
 * view-projection and frustum; bumps the camera revision when any of them changed.
 * HL_ERR_VALIDATION (nothing updated) when c is NULL or not a camera. */
HL_API hl_result hl_camera_update(hl_camera *c);
/* Getters: NULL (pointers), 0 (revision) or the zero vector when c is NULL or not a camera;
 * the matrices are those of the last hl_camera_update. */
/** The view matrix, inverse(world). */
HL_API const hl_mat4 *hl_camera_view(const hl_camera *c);
/** The projection matrix (depth [0, 1]). */
HL_API const hl_mat4 *hl_camera_projection(const hl_camera *c);
/** projection * view. */
HL_API const hl_mat4 *hl_camera_view_projection(const hl_camera *c);
/** The frustum planes of the view-projection (world space). */
HL_API const hl_frustum *hl_camera_frustum(const hl_camera *c);
/** Changes when the view, projection or frustum changed (revision.h). */
HL_API uint64_t hl_camera_revision(const hl_camera *c);
/** World point -> clip-space NDC (x, y in [-1, 1], z in [0, 1] when inside), as of the last update. */
HL_API hl_vec3 hl_camera_project(const hl_camera *c, hl_vec3 world);

/* ---- lights --------------------------------------------------------------------------- */
/** What a light is. A light shines along its node's world -Z (directional, spot) from its world
 * position (point, spot). */
typedef enum hl_light_kind {
    HL_LIGHT_AMBIENT = 0,  /**< uniform light from everywhere (never casts shadows) */
    HL_LIGHT_DIRECTIONAL,  /**< parallel light along -Z, like the sun */
    HL_LIGHT_POINT,        /**< light from the node's position in every direction */
    HL_LIGHT_SPOT          /**< a cone along -Z from the node's position */
} hl_light_kind;

/** Shadow settings of a light that casts shadows (directional, spot, point). Zero = defaults. */
typedef struct hl_shadow_desc {
    float bias;          /**< depth bias; 0 = 0.005 */
    float normal_bias;   /**< offset along the normal; literal */
    uint32_t map_size;   /**< texels per side; 0 = 1024 (a hint for the atlas planner) */
    float ortho_size;    /**< directional: half extent of the shadow camera; 0 = 10 */
    /** Directional: the shadow camera's near (0 = 0.1) and far (0 = 100) planes. @{ */
    float near_plane, far_plane;
    /** @} */
} hl_shadow_desc;

/** A light to create or set. Zero = default:
 *   color all-zero = white; intensity 0 = 1 (set 0 with hl_light_set_intensity);
 *   range 0 = unlimited (point/spot attenuation radius);
 *   outer_cone_deg 0 = 30 (half angle), inner_cone_deg literal (0 = smooth over the whole cone).
 * Shadows (directional, spot, point; ambient never): cast_shadows default off. */
typedef struct hl_light_desc {
    hl_light_kind kind;  /**< default ambient */
    hl_color color;      /**< linear; all-zero = white */
    float intensity;     /**< scale of color; 0 = 1 */
    float range;         /**< point/spot attenuation radius; 0 = unlimited */
    /** Spot: the half angles in degrees where the cone starts to fade (literal) and where it ends
     * (0 = 30). @{ */
    float inner_cone_deg, outer_cone_deg;
    /** @} */
    bool cast_shadows;     /**< default off */
    hl_shadow_desc shadow; /**< used when cast_shadows */
    const char *name;      /**< the node's name (copied); NULL = none */
} hl_light_desc;

/** A light node (owned by the caller until added to a parent). HL_ERR_VALIDATION for a NULL desc
 * or a value out of range (named). */
HL_API hl_result hl_light_create(const hl_light_desc *desc, hl_light **out);
/** HL_OK when l is a light; HL_ERR_VALIDATION for NULL or another node kind (named). */
HL_API hl_result hl_light_check(const hl_light *l);
HL_API hl_node *hl_light_node(hl_light *l); /**< NULL when l is NULL or not a light */
/** The light of node n (the same object); NULL when n is not a light. */
HL_API hl_light *hl_node_light(hl_node *n);
/** Replaces every parameter (same defaults); validation as at creation. */
HL_API hl_result hl_light_set_desc(hl_light *l, const hl_light_desc *desc);
HL_API const hl_light_desc *hl_light_get_desc(const hl_light *l); /**< resolved */
/** The colour (linear; taken as given: all-zero is black here). */
HL_API void hl_light_set_color(hl_light *l, hl_color c);
HL_API void hl_light_set_intensity(hl_light *l, float intensity); /**< literal, 0 allowed (negative or non-finite: ignored) */
/** Turns shadows on or off (ambient lights never cast). */
HL_API void hl_light_set_cast_shadows(hl_light *l, bool cast);
/** World-space unit direction the light travels (-Z of the world matrix), as of the last update;
 * (0, 0, -1) for NULL or a non-light. */
HL_API hl_vec3 hl_light_direction(const hl_light *l);
/** World-space position, as of the last update; the origin for NULL or a non-light. */
HL_API hl_vec3 hl_light_position(const hl_light *l);
/** Changes on parameter changes (not transform changes: see hl_node_world_revision); 0 for
 * NULL or a non-light. */
HL_API uint64_t hl_light_revision(const hl_light *l);

#ifdef __cplusplus
}
#endif

#endif
