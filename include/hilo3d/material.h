/** @file
 * hilo3d: materials (basic unlit, PBR metallic-roughness, custom GLSL shader material).
 *
 * A material is CPU data: factors, textures, render state and, for a shader material, GLSL
 * ES 3.00 sources with their bindings. The renderer turns hl_material_get_variant() into
 * #defines / pipeline state and the factors into a uniform block. Two revisions:
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

typedef enum hl_material_kind {
    HL_MATERIAL_BASIC = 1,
    HL_MATERIAL_PBR,
    HL_MATERIAL_SHADER
} hl_material_kind;

typedef enum hl_alpha_mode {
    HL_ALPHA_OPAQUE = 0, /**< default */
    HL_ALPHA_MASK,       /**< discard when alpha < alpha_cutoff */
    HL_ALPHA_BLEND       /**< transparent queue, back to front, premultiplied-free src-alpha blend */
} hl_alpha_mode;

typedef enum hl_toggle {
    HL_TOGGLE_DEFAULT = 0,
    HL_TOGGLE_ON,
    HL_TOGGLE_OFF
} hl_toggle;

/** Texture slots of basic and PBR materials (basic uses BASE_COLOR only). METALLIC_ROUGHNESS
 * follows glTF: roughness in G, metallic in B. */
typedef enum hl_texture_slot {
    HL_TEXTURE_BASE_COLOR = 0,
    HL_TEXTURE_METALLIC_ROUGHNESS,
    HL_TEXTURE_NORMAL,
    HL_TEXTURE_OCCLUSION,
    HL_TEXTURE_EMISSIVE,
    HL_TEXTURE_SLOT_COUNT
} hl_texture_slot;

/** texture NULL = no map; texcoord: 0 = TEXCOORD_0, 1 = TEXCOORD_1. */
typedef struct hl_texture_ref {
    hl_texture *texture;
    uint32_t texcoord;
} hl_texture_ref;

/** Render state shared by every kind; zero = defaults: opaque, alpha_cutoff 0.5, back faces
 * culled, depth test on, depth write on except for HL_ALPHA_BLEND. */
typedef struct hl_material_state {
    hl_alpha_mode alpha_mode;
    float alpha_cutoff;
    bool double_sided;
    hl_toggle depth_test;
    hl_toggle depth_write;
} hl_material_state;

/** Unlit colour (all-zero = opaque white) times an optional texture (retained). */
typedef struct hl_basic_material_desc {
    hl_color color;
    hl_texture_ref texture;
    hl_material_state state;
    const char *label;
} hl_basic_material_desc;

/** PBR metallic-roughness. Zero = default, except where 0 is the default anyway:
 *   base_color   all-zero = opaque white    metallic            literal (default 0)
 *   roughness    0 = 1.0 (set exactly 0 with hl_material_set_metallic_roughness)
 *   emissive     literal (default black)    normal_scale        0 = 1.0
 *   occlusion_strength 0 = 1.0
 * textures[slot]: optional maps, retained. */
typedef struct hl_pbr_material_desc {
    hl_color base_color;
    float metallic;
    float roughness;
    hl_vec3 emissive;
    float normal_scale;
    float occlusion_strength;
    hl_texture_ref textures[HL_TEXTURE_SLOT_COUNT];
    hl_material_state state;
    const char *label;
} hl_pbr_material_desc;

/** Shader material bindings (names are copied; buffers and textures retained). */
typedef struct hl_material_attribute {
    const char *name;     /**< `in` variable of the vertex shader */
    hl_attribute semantic;
} hl_material_attribute;

typedef struct hl_material_uniform_block {
    const char *name;     /**< `layout(std140) uniform <name>`; must be registered before first render */
    hl_uniform_buffer *buffer;
} hl_material_uniform_block;

typedef struct hl_material_texture {
    const char *name;     /**< sampler2D uniform name */
    hl_texture *texture;
} hl_material_texture;

/** Most blocks / named textures one shader material holds (creation and the set_* calls). */
#define HL_MATERIAL_MAX_UNIFORM_BLOCKS 32
#define HL_MATERIAL_MAX_TEXTURES 32
/** Longest shader source (strlen, per stage): the shader toolchain's source budget. */
#define HL_MATERIAL_MAX_SHADER_SOURCE_BYTES (1u << 20)

/** vs, fs: required GLSL ES 3.00 sources (first line `#version 300 es`), copied; or both GLSL
 * ES 3.10 (`#version 310 es`): the storage variant, which may declare read-only storage blocks
 * read from a pipeline scene pass's storage (hl_pipeline_scene_pass_desc.storage; webgpu only).
 * attributes / uniform_blocks / textures: arrays of the given counts (an array is required
 * when its count is non-zero). hl_material_create_shader checks, before any device is
 * involved, and fails with HL_ERR_VALIDATION naming the entry:
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
    const char *vs, *fs;
    const hl_material_attribute *attributes;
    uint32_t attribute_count;
    const hl_material_uniform_block *uniform_blocks;
    uint32_t uniform_block_count;
    const hl_material_texture *textures;
    uint32_t texture_count;
    hl_material_state state;
    const char *label;
} hl_shader_material_desc;

/** A texture coordinate transform (KHR_texture_transform): uv' = T(offset) * R(rotation) *
 * S(scale) * uv, rotation in radians (counter-clockwise in UV space as the extension defines:
 * row 0 = (cos * sx, sin * sy, offset.x), row 1 = (-sin * sx, cos * sy, offset.y)). */
typedef struct hl_uv_transform {
    float offset[2];
    float rotation;
    float scale[2]; /**< both 0 = (1, 1) */
} hl_uv_transform;

/** The structured description the renderer turns into a shader variant and pipeline state.
 * All fields resolved (no DEFAULT values). */
typedef struct hl_material_variant {
    hl_material_kind kind;
    hl_alpha_mode alpha_mode;
    bool double_sided;
    bool depth_test;
    bool depth_write;
    uint32_t texture_mask;   /**< bit (1u << hl_texture_slot) per present map (basic/PBR) */
    uint32_t texcoord1_mask; /**< bit per map that samples TEXCOORD_1 */
    uint32_t uv_transform_mask; /**< bit per map with a UV transform other than the identity */
    uint64_t shader_hash;    /**< shader material: hash of vs and fs sources; else 0 */
} hl_material_variant;

/** Values the renderer writes into the material uniform block (resolved). */
typedef struct hl_material_factors {
    hl_color base_color;
    hl_vec3 emissive;
    float metallic;
    float roughness;
    float normal_scale;
    float occlusion_strength;
    float alpha_cutoff;
    /** per slot, the UV transform as two rows (a, b, tx), (c, d, ty): uv' = (a u + b v + tx,
       c u + d v + ty); the identity where none is set */
    float uv_rows[HL_TEXTURE_SLOT_COUNT][2][3];
} hl_material_factors;

typedef struct hl_material hl_material;

HL_API hl_result hl_material_create_basic(const hl_basic_material_desc *desc, hl_material **out); /**< desc may be NULL */
HL_API hl_result hl_material_create_pbr(const hl_pbr_material_desc *desc, hl_material **out);     /**< desc may be NULL */
HL_API hl_result hl_material_create_shader(const hl_shader_material_desc *desc, hl_material **out);
HL_API void hl_material_retain(hl_material *m);
HL_API void hl_material_release(hl_material *m); /**< NULL is a no-op */
/** References held (the creator's, and those of meshes, materials and renderers that use it);
 * 0 for NULL. A renderer releases its GPU copy once only its own reference is left. */
HL_API uint32_t hl_material_ref_count(const hl_material *m);

/* ---- setters (HL_ERR_VALIDATION when the kind has no such property) ---- */
HL_API hl_result hl_material_set_color(hl_material *m, hl_color c);                         /**< basic, PBR */
HL_API hl_result hl_material_set_metallic_roughness(hl_material *m, float metallic, float roughness); /**< PBR, [0, 1] */
HL_API hl_result hl_material_set_emissive(hl_material *m, hl_vec3 e);                       /**< PBR */
/** texture NULL removes the map; texcoord 0 or 1. Basic: BASE_COLOR only. */
HL_API hl_result hl_material_set_texture(hl_material *m, hl_texture_slot slot, hl_texture *texture, uint32_t texcoord);
/** The UV transform of a map slot (basic: BASE_COLOR only); NULL = the identity. Values must be
 * finite; a non-identity transform takes a shader variant of its own. */
HL_API hl_result hl_material_set_uv_transform(hl_material *m, hl_texture_slot slot, const hl_uv_transform *t);
HL_API hl_result hl_material_set_alpha_mode(hl_material *m, hl_alpha_mode mode, float cutoff); /**< cutoff 0 = 0.5 */
HL_API hl_result hl_material_set_double_sided(hl_material *m, bool double_sided);
HL_API hl_result hl_material_set_state(hl_material *m, const hl_material_state *state); /**< NULL = defaults */
/** Shader material: replaces (or adds) the buffer bound to block `name` (name rules and the
 * block limit as at creation). */
HL_API hl_result hl_material_set_uniform_block(hl_material *m, const char *name, hl_uniform_buffer *buffer);
/** Shader material: replaces (or adds) the texture of sampler `name` (name rules and the
 * texture limit as at creation). */
HL_API hl_result hl_material_set_named_texture(hl_material *m, const char *name, hl_texture *texture);

/* ---- what the renderer reads ---- */
HL_API hl_material_kind hl_material_get_kind(const hl_material *m);
HL_API const hl_material_variant *hl_material_get_variant(const hl_material *m);
HL_API const hl_material_factors *hl_material_get_factors(const hl_material *m);
/** The map in slot (NULL when none); *texcoord optional. */
HL_API hl_texture *hl_material_get_texture(const hl_material *m, hl_texture_slot slot, uint32_t *texcoord);
/** Process-unique values (revision.h); 0 for NULL. */
HL_API uint64_t hl_material_revision(const hl_material *m);
HL_API uint64_t hl_material_variant_revision(const hl_material *m);
HL_API const char *hl_material_label(const hl_material *m); /**< "" when none */
HL_API bool hl_material_is_transparent(const hl_material *m); /**< alpha mode BLEND */
/** Shader material sources and bindings (NULL / count 0 for other kinds). Arrays and names are
 * owned by the material and valid until the next set_* call on it. */
HL_API const char *hl_material_shader_vs(const hl_material *m);
HL_API const char *hl_material_shader_fs(const hl_material *m);
HL_API const hl_material_attribute *hl_material_shader_attributes(const hl_material *m, uint32_t *count);
HL_API const hl_material_uniform_block *hl_material_shader_uniform_blocks(const hl_material *m, uint32_t *count);
HL_API const hl_material_texture *hl_material_shader_textures(const hl_material *m, uint32_t *count);

#ifdef __cplusplus
}
#endif

#endif
