/** @file
 * hilo3d: glTF 2.0 assets (.gltf with external or data: buffers and images, .glb) loaded into
 * scene nodes.
 *
 * A load builds, for the chosen scene, a tree of nodes under one group node (the asset's root):
 * every glTF node becomes a group node with its name and transform (TRS, or a matrix decomposed
 * into TRS), and its mesh, camera and light become children of it: one hl_mesh per primitive,
 * an hl_camera (perspective or orthographic, looking down its node's -Z as glTF's do), an
 * hl_light (KHR_lights_punctual: directional, point, spot; glTF's intensity used as the light's
 * intensity, range and cone angles as given). Geometry comes from the accessors (every component
 * type, normalized integers, strides, sparse accessors, KHR_mesh_quantization), primitives of
 * every mode (strips and fans as triangle lists, loops and strips of lines as line lists), flat
 * normals where NORMAL is missing. Materials: metallic-roughness PBR with its five textures and
 * their texCoord sets, factors, normal scale, occlusion strength, emissive factor (times
 * KHR_materials_emissive_strength), alpha modes and cutoff, double-sided; KHR_materials_unlit
 * as an unlit (basic) material; KHR_texture_transform (offset, rotation, scale and texCoord per
 * map: hl_material_set_uv_transform); vertex colours (COLOR_0); samplers (wrap and filter modes;
 * minification without a mip filter means no mipmaps). Images are PNG or JPEG (hilo3d/texture.h);
 * colour maps (base colour, emissive) are sRGB, the others linear.
 *
 * Skins: each mesh of a node with a skin gets hl_mesh_set_skin (its joints, inverse bind
 * matrices; at most HL_SKIN_MAX_JOINTS; JOINTS_0 and JOINTS_1 checked against the joint count),
 * drawn with a joint palette on the GPU, up to 8 influences a vertex (JOINTS_0/WEIGHTS_0 and
 * JOINTS_1/WEIGHTS_1). Animations of node transforms, joints included, are parsed and
 * sampled, and morph targets blended (both below). Not yet: image-based lighting. An extension
 * in extensionsRequired that the loader does not implement fails the load (HL_ERR_UNSUPPORTED
 * naming it); optional ones it does not implement are listed in the report.
 *
 * Errors: malformed JSON, wrong types, out-of-range indices, accessors past their buffer views,
 * views past their buffers, bad base64, node cycles (a node that is its own ancestor or has two
 * parents), unreadable or undecodable images: HL_ERR_PARSE, HL_ERR_IO (a file) or the texture
 * decoder's code, with a message naming the JSON path (`meshes[2].primitives[0].material`).
 * Nothing is left allocated by a failed load.
 */
#ifndef HILO3D_GLTF_H
#define HILO3D_GLTF_H

#include <stddef.h>
#include <stdint.h>

#include "hilo3d/export.h"
#include "hilo3d/math3d.h"
#include "hilo3d/result.h"
#include "hilo3d/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

/** How to load (hl_gltf_load_file / _memory; may be NULL). Zero = defaults. */
typedef struct hl_gltf_load_desc {
    /** The scene to build: 0 = the document's `scene` (else scenes[0]; a document without scenes
     * gets every node that is no other node's child); N = scenes[N - 1]. */
    uint32_t scene;
    /** hl_gltf_load_memory only: the folder that relative URIs name files in (NULL: a file URI
     * fails the load; data: URIs and the GLB chunk still work). hl_gltf_load_file uses the
     * file's folder. */
    const char *base_dir;
    /** Per image, as hl_texture_desc.decode_limit (0 = HL_TEXTURE_DECODE_LIMIT_DEFAULT). */
    size_t decode_limit;
} hl_gltf_load_desc;

/** What a load found and built. Counts are of the whole document except where said. */
typedef struct hl_gltf_report {
    uint32_t nodes;            /**< nodes built for the scene */
    uint32_t meshes;           /**< hl_mesh objects built (one per primitive drawn) */
    uint64_t triangles;        /**< triangles of those meshes */
    uint32_t materials;        /**< materials built (a default one included when used) */
    uint32_t textures;         /**< textures built (an image used as colour and as data: two) */
    uint32_t images;           /**< images in the document */
    /** built for the scene @{ */
    uint32_t cameras, lights;
    /** @} */
    uint32_t skins;                /**< in the document */
    uint32_t morph_targets;        /**< morph targets of the primitives built (summed) */
    uint32_t animations;           /**< in the document (hl_gltf_asset_animation) */
    char extensions_used[256];    /**< extensionsUsed, comma-separated (truncated with "...") */
    char extensions_ignored[256]; /**< those of them the loader does not implement */
    double load_ms;               /**< wall time of the load */
} hl_gltf_report;

/** A loaded asset: the built node tree, its report, cameras, animations and morph targets (owned
 * by the caller: hl_gltf_asset_destroy). */
typedef struct hl_gltf_asset hl_gltf_asset;

/** Reads and builds the file (.gltf or .glb, told apart by content). HL_ERR_IO naming the path
 * when it cannot be read. */
HL_API hl_result hl_gltf_load_file(const char *path, const hl_gltf_load_desc *desc, hl_gltf_asset **out);
/** The same from memory (data only read during the call). */
HL_API hl_result hl_gltf_load_memory(const void *data, size_t size, const hl_gltf_load_desc *desc, hl_gltf_asset **out);
/** Destroys the asset and its root node with everything under it, unless the root was given a
 * parent (hl_stage_add): the tree then belongs to that parent, and the asset must be destroyed
 * while that parent still exists (before hl_stage_destroy). NULL is a no-op. */
HL_API void hl_gltf_asset_destroy(hl_gltf_asset *a);
/** The group node holding the built scene (add it to a stage to draw it). */
HL_API hl_node *hl_gltf_asset_root(hl_gltf_asset *a);
/** What the load found and built (owned by the asset); an all-zero report for NULL. */
HL_API const hl_gltf_report *hl_gltf_asset_report(const hl_gltf_asset *a);
/** The number of cameras built (0 for NULL). */
HL_API uint32_t hl_gltf_asset_camera_count(const hl_gltf_asset *a);
/** The cameras built, in document order of their nodes (NULL past the count); they are nodes of
 * the asset's tree. */
HL_API hl_camera *hl_gltf_asset_camera(hl_gltf_asset *a, uint32_t index);
/** The node built for glTF node `index` (NULL when it is not in the built scene). */
HL_API hl_node *hl_gltf_asset_node(hl_gltf_asset *a, uint32_t index);
/** World-space bounds of every mesh under the root (hl_mesh_world_aabb: posed for skinned
 * meshes; the world matrices are brought up to date first); an empty box (min > max) when
 * there is none. */
HL_API hl_aabb hl_gltf_asset_bounds(hl_gltf_asset *a);

/* ---- animations ---------------------------------------------------------------------------- */
/** The document's animations, parsed at load: channels targeting the translation, rotation or
 * scale of nodes and the weights of their meshes' morph targets, with
 * STEP, LINEAR (rotations: normalized spherical interpolation on the shorter arc) and
 * CUBICSPLINE samplers (Hermite curves from the in/out tangents scaled by the key interval;
 * rotations normalized afterwards). Sampling at time t sets the nodes' TRS (the node's own
 * setters: the next hl_stage_update brings the world matrices up to date); before the first key
 * a channel holds its first value, after the last its last. Channels whose node is outside the
 * built scene are skipped. An animation is owned by its asset and animates the asset's nodes:
 * apply it only while those nodes exist. Applying allocates nothing. */
typedef struct hl_animation hl_animation;

/** What an animation does with a time outside [0, duration]. */
typedef enum hl_animation_wrap {
    HL_ANIMATION_CLAMP = 0, /**< t outside [0, duration] holds the end values */
    HL_ANIMATION_LOOP       /**< t taken modulo the duration (t < 0 too) */
} hl_animation_wrap;

/** The number of animations in the document (0 for NULL). */
HL_API uint32_t hl_gltf_asset_animation_count(const hl_gltf_asset *a);
/** Animation index in document order (owned by the asset); NULL past the count. */
HL_API hl_animation *hl_gltf_asset_animation(hl_gltf_asset *a, uint32_t index);
/** The animation named `name` (the first of that name), else NULL. */
HL_API hl_animation *hl_gltf_asset_find_animation(hl_gltf_asset *a, const char *name);
HL_API const char *hl_animation_name(const hl_animation *anim); /**< "" when unnamed or NULL */
HL_API float hl_animation_duration(const hl_animation *anim);   /**< seconds: the last key's time; 0 for NULL */
/** The channels kept (those whose node is in the built scene); 0 for NULL. */
HL_API uint32_t hl_animation_channel_count(const hl_animation *anim);
/** Sets every target of anim to its value at time t (seconds). HL_ERR_VALIDATION for a NULL
 * animation or a t that is not finite. */
HL_API hl_result hl_animation_apply(hl_animation *anim, float t, hl_animation_wrap wrap);
/** Several animations at the same time t, in order (a later one wins where two animate the same
 * property); each wraps by its own duration. */
HL_API hl_result hl_animations_apply(hl_animation *const *anims, uint32_t count, float t, hl_animation_wrap wrap);

/* ---- morph targets --------------------------------------------------------------------------- */
/** The weights of glTF node `node`'s mesh (count values; the targets past count get 0).
 *
 * Primitives with targets (POSITION, NORMAL and TANGENT deltas; at most 64 targets) keep their
 * base attributes and deltas; their geometry holds base + sum(weight_i * delta_i), normals and
 * tangents renormalized, blended on the CPU when the weights change: at load (the node's
 * weights, else the mesh's), by hl_gltf_asset_set_morph_weights and by animation weights
 * channels (no allocation). Primitives without NORMAL (their vertices expanded for flat
 * normals, each triangle its own three) blend their positions the same way and get the flat
 * normals of the blended triangles, and, where the loader generated their tangents for a normal
 * map, tangents generated again from those; their targets' NORMAL deltas (and TANGENT deltas
 * where tangents are generated) are ignored. */
HL_API hl_result hl_gltf_asset_set_morph_weights(hl_gltf_asset *a, uint32_t node, const float *weights, uint32_t count);
/** The current weights of node `node`'s first morphed primitive into out (at most max); returns
 * its target count (0: the node has no morph targets). */
HL_API uint32_t hl_gltf_asset_morph_weights(const hl_gltf_asset *a, uint32_t node, float *out, uint32_t max);

#ifdef __cplusplus
}
#endif

#endif
