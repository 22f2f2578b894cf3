/** @file
 * hilo3d: materials (basic unlit, PBR metallic-roughness, custom GLSL shader material).
 *
 * A material is CPU data: factors, textures, render state and, for a shader material, GLSL
 * ES 3.00 sources with their bindings. The renderer turns hl_material_get_variant() into
 * `#define`s / pipeline state and the factors into a uniform block. Two revisions:
 *   - hl_material_revision: bumps on every change (factors, textures, blocks, state);
 *   - hl_material_variant_revision: bumps only when hl_material_variant changes (which maps
 *     are present, alpha mode, double-sided, depth state...), i.e. when the shader variant or
 *     the pipeline may change. Setting a value equal to the current one bumps nothing.
 *
 * Reference counted: created with one reference; meshes retain their material; a material
 * retains its textures and uniform buffers.
 */
#ifndef HILO3D_MATERIAL_H
#define HILO3D_MATERIAL_H

#include <stdbool.h>
#include <stdint.h>

#include "hilo3d/export.h"
#include "hilo3d/geometry.h"
#include "hilo3d/math3d.h"
#include "hilo3d/result.h"
#include "hilo3d/texture.h"
#include "hilo3d/uniform.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The three kinds of material. */
typedef enum hl_material_kind {
    HL_MATERIAL_BASIC = 1, /**< unlit: a colour times an optional texture */
    HL_MATERIAL_PBR,       /**< lit, metallic-roughness (GGX), with up to five maps */
    HL_MATERIAL_SHADER     /**< the application's GLSL ES vertex and fragment shaders */
} hl_material_kind;

/** How a material's alpha is used. */
typedef enum hl_alpha_mode {
    HL_ALPHA_OPAQUE = 0, /**< alpha ignored (the default) */
    HL_ALPHA_MASK,       /**< discard when alpha < alpha_cutoff */
    HL_ALPHA_BLEND       /**< transparent queue, back to front, premultiplied-free src-alpha blend */
} hl_alpha_mode;

/** A switch whose zero value means "the default for this case". */
typedef enum hl_toggle {
    HL_TOGGLE_DEFAULT = 0, /**< the documented default of the field */
    HL_TOGGLE_ON,          /**< on, whatever the default */
    HL_TOGGLE_OFF          /**< off, whatever the default */
} hl_toggle;

/** Texture slots of basic and PBR materials (basic uses BASE_COLOR only). METALLIC_ROUGHNESS
 * follows glTF: roughness in G, metallic in B. */
typedef enum hl_texture_slot {
    HL_TEXTURE_BASE_COLOR = 0,     /**< sRGB colour and alpha, times the base colour factor */
    HL_TEXTURE_METALLIC_ROUGHNESS, /**< linear: roughness in G, metallic in B (times the factors) */
    HL_TEXTURE_NORMAL,             /**< linear tangent-space normal map (used where the geometry has TANGENT) */
    HL_TEXTURE_OCCLUSION,          /**< linear: ambient occlusion in R */
    HL_TEXTURE_EMISSIVE,           /**< sRGB emission, times the emissive factor */
    HL_TEXTURE_SLOT_COUNT          /**< the number of slots */
} hl_texture_slot;

/** texture NULL = no map; texcoord: 0 = TEXCOORD_0, 1 = TEXCOORD_1. */
typedef struct hl_texture_ref {
    hl_texture *texture; /**< the map (retained by the material); NULL = none */
    uint32_t texcoord;   /**< which UV set it reads: 0 or 1 */
} hl_texture_ref;

/** Render state shared by every kind; zero = defaults: opaque, alpha_cutoff 0.5, back faces
 * culled, depth test on, depth write on except for HL_ALPHA_BLEND. */
typedef struct hl_material_state {
    hl_alpha_mode alpha_mode; /**< default opaque */
    float alpha_cutoff;       /**< HL_ALPHA_MASK threshold; 0 = 0.5 */
    bool double_sided;        /**< draw back faces too (default: culled) */
    hl_toggle depth_test;     /**< default on */
    hl_toggle depth_write;    /**< default on, off for HL_ALPHA_BLEND */
} hl_material_state;

/** Unlit colour (all-zero = opaque white) times an optional texture (retained). */
typedef struct hl_basic_material_desc {
    hl_color color;          /**< linear colour; all-zero = opaque white */
    hl_texture_ref texture;  /**< optional colour map (retained) */
    hl_material_state state; /**< zero = defaults */
    const char *label;       /**< for messages (copied); NULL = none */
} hl_basic_material_desc;

/** PBR metallic-roughness. Zero = default, except where 0 is the default anyway.
 * textures[slot]: optional maps, retained. */
typedef struct hl_pbr_material_desc {
    hl_color base_color;      /**< linear; all-zero = opaque white */
    float metallic;           /**< literal (default 0), [0, 1] */
    float roughness;          /**< 0 = 1.0 (set exactly 0 with hl_material_set_metallic_roughness) */
    hl_vec3 emissive;         /**< linear emission; literal (default black) */
    float normal_scale;       /**< normal map strength; 0 = 1.0 */
    float occlusion_strength; /**< occlusion map strength; 0 = 1.0 */
    hl_texture_ref textures[HL_TEXTURE_SLOT_COUNT]; /**< optional maps by hl_texture_slot (retained) */
    hl_material_state state;  /**< zero = defaults */
    const char *label;        /**< for messages (copied); NULL = none */
} hl_pbr_material_desc;

/** Shader material bindings (names are copied; buffers and textures retained). One vertex input
 * and the geometry attribute that feeds it. */
typedef struct hl_material_attribute {
    const char *name;     /**< `in` variable of the vertex shader */
    hl_attribute semantic; /**< the geometry attribute it reads */
} hl_material_attribute;

/** A uniform block of a shader material and the buffer bound to it. */
typedef struct hl_material_uniform_block {
    const char *name;     /**< `layout(std140) uniform <name>`; must be registered before first render */
    hl_uniform_buffer *buffer; /**< its contents (retained); layout as the shader declares it */
} hl_material_uniform_block;

/** A sampler2D uniform of a shader material and the texture it samples. */
typedef struct hl_material_texture {
    const char *name;     /**< sampler2D uniform name */
    hl_texture *texture;  /**< the texture (retained), sampled with its own sampler settings */
} hl_material_texture;

/** Most blocks one shader material holds (creation and the set_* calls). */
#define HL_MATERIAL_MAX_UNIFORM_BLOCKS 32
/** Most named textures one shader material holds. */
#define HL_MATERIAL_MAX_TEXTURES 32
/** Longest shader source (strlen, per stage): the shader toolchain's source budget. */
#define HL_MATERIAL_MAX_SHADER_SOURCE_BYTES (1u << 20)

/** A shader material. vs, fs: required GLSL ES 3.00 sources (first line `#version 300 es`),
 * copied; or both GLSL ES 3.10 (`#version 310 es`): the storage variant, which may declare
 * read-only storage blocks read from a pipeline scene pass's storage
 * (hl_pipeline_scene_pass_desc.storage; webgpu only). attributes / uniform_blocks / textures:
 * arrays of the given counts (an array is required when its count is non-zero).
 * hl_material_create_shader checks, before any device is involved, and fails with
 * HL_ERR_VALIDATION naming the entry:
 *   - each source at most HL_MATERIAL_MAX_SHADER_SOURCE_BYTES long;
 *   - every name a GLSL identifier, not NULL, not starting with the reserved "gl_";
 *     block names at most 63 characters (the block registry's limit);
 *   - attributes: each semantic valid; one vertex input mapped at most once, and each
 *     semantic feeding at most one input (so attribute_count <= HL_ATTR_COUNT);
 *   - uniform block names unique, each with a buffer; uniform_block_count at most
 *     HL_MATERIAL_MAX_UNIFORM_BLOCKS;
 *   - texture names unique, each with a texture; texture_count at most HL_MATERIAL_MAX_TEXTURES;
 *   - the render state as for every kind.
 * What only the compiled shader can tell (an input without mapping, an unregistered block)
 * fails at the first render, with the same code on every backend. */
typedef struct hl_shader_material_desc {
    /** The vertex and fragment sources (required, copied). @{ */
    const char *vs, *fs;
    /** @} */
    const hl_material_attribute *attributes;          /**< vertex inputs and their semantics */
    uint32_t attribute_count;                         /**< entries in attributes */
    const hl_material_uniform_block *uniform_blocks;  /**< uniform blocks and their buffers */
    uint32_t uniform_block_count;                     /**< entries in uniform_blocks */
    const hl_material_texture *textures;              /**< sampler2D uniforms and their textures */
    uint32_t texture_count;                           /**< entries in textures */
    hl_material_state state;                          /**< zero = defaults */
    const char *label;                                /**< for messages (copied); NULL = none */
} hl_shader_material_desc;

/** A texture coordinate transform (KHR_texture_transform): uv' = T(offset) * R(rotation) *
 * S(scale) * uv, rotation in radians (counter-clockwise in UV space as the extension defines:
 * row 0 = (cos * sx, sin * sy, offset.x), row 1 = (-sin * sx, cos * sy, offset.y)). */
typedef struct hl_uv_transform {
    float offset[2]; /**< added last (default 0, 0) */
    float rotation;  /**< radians (default 0) */
    float scale[2]; /**< both 0 = (1, 1) */
} hl_uv_transform;

/** The structured description the renderer turns into a shader variant and pipeline state.
 * All fields resolved (no DEFAULT values). */
typedef struct hl_material_variant {
    hl_material_kind kind;    /**< the material's kind */
    hl_alpha_mode alpha_mode; /**< the state's alpha mode */
    bool double_sided;        /**< back faces drawn */
    bool depth_test;          /**< resolved from the state's toggle */
    bool depth_write;         /**< resolved from the state's toggle and alpha mode */
    uint32_t texture_mask;   /**< bit (1u << hl_texture_slot) per present map (basic/PBR) */
    uint32_t texcoord1_mask; /**< bit per map that samples TEXCOORD_1 */
    uint32_t uv_transform_mask; /**< bit per map with a UV transform other than the identity */
    uint64_t shader_hash;    /**< shader material: hash of vs and fs sources; else 0 */
} hl_material_variant;

/** Values the renderer writes into the material uniform block (resolved). */
typedef struct hl_material_factors {
    hl_color base_color;      /**< linear base (or basic) colour */
    hl_vec3 emissive;         /**< linear emission */
    float metallic;           /**< [0, 1] */
    float roughness;          /**< [0, 1] */
    float normal_scale;       /**< normal map strength */
    float occlusion_strength; /**< occlusion map strength */
    float alpha_cutoff;       /**< HL_ALPHA_MASK threshold */
    /** per slot, the UV transform as two rows (a, b, tx), (c, d, ty): uv' = (a u + b v + tx,
       c u + d v + ty); the identity where none is set */
    float uv_rows[HL_TEXTURE_SLOT_COUNT][2][3];
} hl_material_factors;

/** A material: factors, maps, render state and (shader materials) sources and bindings, reference
 * counted (see the top of this file). */
typedef struct hl_material hl_material;

/** An unlit material with one reference; desc may be NULL (opaque white). HL_ERR_VALIDATION naming
 * the field for a bad state or texcoord. */
HL_API hl_result hl_material_create_basic(const hl_basic_material_desc *desc, hl_material **out);
/** A PBR material with one reference; desc may be NULL (white, dielectric, roughness 1).
 * HL_ERR_VALIDATION naming the field for values out of range. */
HL_API hl_result hl_material_create_pbr(const hl_pbr_material_desc *desc, hl_material **out);
/** A shader material with one reference; the checks it makes are listed at
 * hl_shader_material_desc. */
HL_API hl_result hl_material_create_shader(const hl_shader_material_desc *desc, hl_material **out);
/** Adds a reference (NULL is a no-op). Not atomic: one thread at a time. */
HL_API void hl_material_retain(hl_material *m);
/** Drops a reference; the last one frees the material and releases its textures and buffers.
 * NULL is a no-op. */
HL_API void hl_material_release(hl_material *m);
/** References held (the creator's, and those of meshes, materials and renderers that use it);
 * 0 for NULL. A renderer releases its GPU copy once only its own reference is left. */
HL_API uint32_t hl_material_ref_count(const hl_material *m);

/* ---- setters (HL_ERR_VALIDATION when the kind has no such property) ---- */
/** The base colour (basic: the colour), linear. Basic and PBR. */
HL_API hl_result hl_material_set_color(hl_material *m, hl_color c);
/** Both factors, each in [0, 1] (0 is taken literally here). PBR only. */
HL_API hl_result hl_material_set_metallic_roughness(hl_material *m, float metallic, float roughness);
/** The linear emission colour. PBR only. */
HL_API hl_result hl_material_set_emissive(hl_material *m, hl_vec3 e);
/** The map of a slot (retained; the previous one released). texture NULL removes the map;
 * texcoord 0 or 1. Basic: BASE_COLOR only. */
HL_API hl_result hl_material_set_texture(hl_material *m, hl_texture_slot slot, hl_texture *texture, uint32_t texcoord);
/** The UV transform of a map slot (basic: BASE_COLOR only); NULL = the identity. Values must be
 * finite; a non-identity transform takes a shader variant of its own. */
HL_API hl_result hl_material_set_uv_transform(hl_material *m, hl_texture_slot slot, const hl_uv_transform *t);
/** The alpha mode and its MASK threshold (cutoff 0 = 0.5); every kind. */
HL_API hl_result hl_material_set_alpha_mode(hl_material *m, hl_alpha_mode mode, float cutoff);
/** Draws back faces too (true) or culls them (false, the default); every kind. */
HL_API hl_result hl_material_set_double_sided(hl_material *m, bool double_sided);
/** Replaces the whole render state (NULL = defaults); every kind. */
HL_API hl_result hl_material_set_state(hl_material *m, const hl_material_state *state);
/** Shader material: replaces (or adds) the buffer bound to block `name` (name rules and the
 * block limit as at creation). */
HL_API hl_result hl_material_set_uniform_block(hl_material *m, const char *name, hl_uniform_buffer *buffer);
/** Shader material: replaces (or adds) the texture of sampler `name` (name rules and the
 * texture limit as at creation). */
HL_API hl_result hl_material_set_named_texture(hl_material *m, const char *name, hl_texture *texture);

/* ---- what the renderer reads ---- */
/** The material's kind; HL_MATERIAL_BASIC for NULL. */
HL_API hl_material_kind hl_material_get_kind(const hl_material *m);
/** The resolved variant (owned by the material, updated by the setters); NULL for NULL. */
HL_API const hl_material_variant *hl_material_get_variant(const hl_material *m);
/** The resolved factors (owned by the material, updated by the setters); NULL for NULL. */
HL_API const hl_material_factors *hl_material_get_factors(const hl_material *m);
/** The map in slot (NULL when none); *texcoord optional. */
HL_API hl_texture *hl_material_get_texture(const hl_material *m, hl_texture_slot slot, uint32_t *texcoord);
/** Changes on every change of the material (factors, maps, blocks, state); process-unique
 * (revision.h); 0 for NULL. */
HL_API uint64_t hl_material_revision(const hl_material *m);
/** Changes only when hl_material_get_variant changes (see the top of this file); 0 for NULL. */
HL_API uint64_t hl_material_variant_revision(const hl_material *m);
/** The label given at creation; "" when none (or NULL). */
HL_API const char *hl_material_label(const hl_material *m);
/** true when the alpha mode is BLEND: the material draws in the transparent queue. */
HL_API bool hl_material_is_transparent(const hl_material *m);
/* Shader material sources and bindings (NULL / count 0 for other kinds). Arrays and names are
 * owned by the material and valid until the next set_* call on it. */
/** The vertex source (a shader material's copy; NULL for other kinds). */
HL_API const char *hl_material_shader_vs(const hl_material *m);
/** The fragment source (a shader material's copy; NULL for other kinds). */
HL_API const char *hl_material_shader_fs(const hl_material *m);
/** The attribute mappings and their number in *count (NULL / 0 for other kinds); valid until the
 * next set_* call on m. */
HL_API const hl_material_attribute *hl_material_shader_attributes(const hl_material *m, uint32_t *count);
/** The uniform blocks and their buffers (as hl_material_shader_attributes). */
HL_API const hl_material_uniform_block *hl_material_shader_uniform_blocks(const hl_material *m, uint32_t *count);
/** The named textures (as hl_material_shader_attributes). */
HL_API const hl_material_texture *hl_material_shader_textures(const hl_material *m, uint32_t *count);

#ifdef __cplusplus
}
#endif

#endif
