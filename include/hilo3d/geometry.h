/** @file
 * hilo3d: geometry = vertex attributes + optional indices, as CPU data with dirty ranges.
 *
 * Storage (what the renderer uploads): ONE vertex block holding each present attribute as its
 * own non-interleaved array, attribute a at layout.attributes[a].offset with
 * layout.attributes[a].stride bytes per vertex (a multiple of 4, offsets 4-aligned), so one GPU
 * vertex buffer bound at several offsets serves every attribute; and one index block. The
 * shape (vertex count, formats, index count) is fixed at creation; content updates record a
 * merged dirty byte range per block and bump the revision (revision.h).
 *
 * Attribute formats are (component type, component count) pairs the RHI can fetch:
 * FLOAT32 x1..4, UNORM8/SNORM8/UINT8 x4, UNORM16/SNORM16 x2 or x4, UINT16 x4. UNORM/SNORM
 * are normalised (quantised) values the GPU reads as floats.
 *
 * Limits (HL_ERR_VALIDATION naming the numbers, before anything is allocated): at most
 * HL_GEOMETRY_MAX_VERTICES vertices; the vertex block (the sum over present attributes of
 * stride * vertex_count) and the index block (index_count * index size) each at most
 * HL_GEOMETRY_MAX_BLOCK_BYTES, because offsets, sizes and dirty ranges are uint32 byte counts.
 * A device may allow less (its buffer size limit): the renderer checks that when it uploads.
 *
 * Reference counted: created with one reference; meshes retain their geometry.
 */
#ifndef HILO3D_GEOMETRY_H
#define HILO3D_GEOMETRY_H

#include <stdbool.h>
#include <stdint.h>

#include "hilo3d/export.h"
#include "hilo3d/math3d.h"
#include "hilo3d/result.h"
#include "hilo3d/revision.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HL_GEOMETRY_MAX_VERTICES (1u << 26)   /**< 67,108,864 */
#define HL_GEOMETRY_MAX_BLOCK_BYTES 0xfffffffcu /**< 4 GiB - 4: the largest 4-aligned uint32 size */

/** Semantics; the value doubles as an index into the attribute arrays. Default component
 * counts: POSITION 3, NORMAL 3, TANGENT 4 (w = handedness), TEXCOORD_0/1 2, COLOR_0 4,
 * JOINTS_0/1 4, WEIGHTS_0/1 4. JOINTS_1/WEIGHTS_1 are a second set of 4 skin influences (8 joints
 * per vertex); JOINTS_0 and JOINTS_1 are the only integer (UINT8/UINT16) attributes. */
typedef enum hl_attribute {
    HL_ATTR_POSITION = 0,
    HL_ATTR_NORMAL,
    HL_ATTR_TANGENT,
    HL_ATTR_TEXCOORD_0,
    HL_ATTR_TEXCOORD_1,
    HL_ATTR_COLOR_0,
    HL_ATTR_JOINTS_0,
    HL_ATTR_WEIGHTS_0,
    HL_ATTR_JOINTS_1,
    HL_ATTR_WEIGHTS_1,
    HL_ATTR_COUNT
} hl_attribute;

/** "POSITION", "TEXCOORD_0"... (glTF spelling); HL_ATTR_COUNT when unknown. */
HL_API const char *hl_attribute_name(hl_attribute a);
HL_API hl_attribute hl_attribute_from_name(const char *name);

typedef enum hl_component_type {
    HL_COMPONENT_FLOAT32 = 0, /**< default */
    HL_COMPONENT_UNORM8,
    HL_COMPONENT_SNORM8,
    HL_COMPONENT_UINT8,
    HL_COMPONENT_UNORM16,
    HL_COMPONENT_SNORM16,
    HL_COMPONENT_UINT16,
    HL_COMPONENT_TYPE_COUNT
} hl_component_type;

HL_API uint32_t hl_component_size(hl_component_type t); /**< bytes: 4, 1 or 2; 0 if invalid */

typedef enum hl_index_format {
    HL_INDEX_FORMAT_DEFAULT = 0, /**< = HL_INDEX_UINT32 */
    HL_INDEX_UINT16,
    HL_INDEX_UINT32
} hl_index_format;

typedef enum hl_topology {
    HL_TOPOLOGY_TRIANGLES = 0, /**< default */
    HL_TOPOLOGY_LINES,
    HL_TOPOLOGY_POINTS
} hl_topology;

/** One attribute of a custom geometry. data == NULL: the attribute is absent. data holds
 * vertex_count elements of `components` values of `type`, tightly packed (no padding; for
 * UNORM8 x4 that is 4 bytes per vertex). components 0 = the semantic's default count. */
typedef struct hl_attribute_desc {
    const void *data;
    hl_component_type type;
    uint32_t components;
} hl_attribute_desc;

/** vertex_count: required (1..HL_GEOMETRY_MAX_VERTICES). attributes[HL_ATTR_POSITION]: required. indices: NULL = draw
 * vertices in order; else index_count values of index_format (each < vertex_count).
 * dynamic: a hint that the content will be updated often. */
typedef struct hl_geometry_desc {
    uint32_t vertex_count;
    hl_attribute_desc attributes[HL_ATTR_COUNT];
    const void *indices;
    uint32_t index_count;
    hl_index_format index_format;
    hl_topology topology;
    bool dynamic;
    const char *label;
} hl_geometry_desc;

/** Where and how each attribute lives in the vertex block. present == false: absent. */
typedef struct hl_vertex_attribute_info {
    bool present;
    bool normalized; /**< UNORM / SNORM */
    hl_component_type type;
    uint32_t components;
    uint32_t offset; /**< byte offset of the attribute array in the vertex block */
    uint32_t stride; /**< bytes per vertex (element size rounded up to 4) */
} hl_vertex_attribute_info;

/** The fixed shape of a geometry. layout_key hashes every field that shapes a pipeline's
 * vertex state (attribute types/counts/strides, topology, index format), for cache keys. */
typedef struct hl_geometry_layout {
    uint32_t vertex_count;
    uint32_t vertex_bytes;
    uint32_t index_count; /**< 0 = not indexed */
    hl_index_format index_format; /**< resolved (UINT16/UINT32) when indexed */
    uint32_t index_bytes;
    hl_topology topology;
    uint32_t attribute_mask; /**< bit (1u << hl_attribute) per present attribute */
    bool dynamic;
    hl_vertex_attribute_info attributes[HL_ATTR_COUNT];
    uint64_t layout_key;
} hl_geometry_layout;

typedef struct hl_geometry hl_geometry;

HL_API hl_result hl_geometry_create(const hl_geometry_desc *desc, hl_geometry **out);
HL_API void hl_geometry_retain(hl_geometry *g);
HL_API void hl_geometry_release(hl_geometry *g); /**< NULL is a no-op */
/** References held (the creator's, and those of meshes, materials and renderers that use it);
 * 0 for NULL. A renderer releases its GPU copy once only its own reference is left. */
HL_API uint32_t hl_geometry_ref_count(const hl_geometry *g);

/* ---- generators (all indexed, with POSITION, NORMAL, TEXCOORD_0, TANGENT; centred at the
 * origin; UINT16 indices when they fit). Zero fields take the defaults listed. ---- */

/** The segment counts below are bounded so that every generated shape fits the limits above.
 * width, height, depth: 1. 24 vertices, 36 indices. */
typedef struct hl_box_desc { float width, height, depth; } hl_box_desc;
/** radius 0.5; width_segments 32 (3..1024), height_segments 16 (2..1024).
 * (ws + 1) * (hs + 1) vertices, 6 * ws * (hs - 1) indices (no degenerate pole triangles). */
typedef struct hl_sphere_desc { float radius; uint32_t width_segments, height_segments; } hl_sphere_desc;
/** In the XY plane facing +Z. width, height: 1; segments 1 (each at most 4096). (ws + 1) * (hs + 1) vertices,
 * 6 * ws * hs indices. */
typedef struct hl_plane_desc { float width, height; uint32_t width_segments, height_segments; } hl_plane_desc;
/** Along Y. radius_top, radius_bottom: 0.5 (use a tiny value for a cone); height 1;
 * radial_segments 16 (3..1024), height_segments 1 (at most 1024); caps unless open_ended.
 * (rs + 1) * (hs + 1) + (open_ended ? 0 : 2 * (rs + 2)) vertices,
 * 6 * rs * hs + (open_ended ? 0 : 6 * rs) indices. */
typedef struct hl_cylinder_desc {
    float radius_top, radius_bottom, height;
    uint32_t radial_segments, height_segments;
    bool open_ended;
} hl_cylinder_desc;

/** desc may be NULL for all defaults. */
HL_API hl_result hl_geometry_create_box(const hl_box_desc *desc, hl_geometry **out);
HL_API hl_result hl_geometry_create_sphere(const hl_sphere_desc *desc, hl_geometry **out);
HL_API hl_result hl_geometry_create_plane(const hl_plane_desc *desc, hl_geometry **out);
HL_API hl_result hl_geometry_create_cylinder(const hl_cylinder_desc *desc, hl_geometry **out);

/* ---- content updates ---- */

/** Overwrites count vertices of attribute attr starting at first_vertex with tightly packed
 * data in the attribute's own format (count * components * component size bytes are read);
 * merges the touched bytes into the vertex dirty range, bumps the revision and, for POSITION,
 * recomputes the bounds. HL_ERR_VALIDATION when [first_vertex, first_vertex + count) is not
 * inside the vertex count (computed without wrapping). */
HL_API hl_result hl_geometry_update_attribute(hl_geometry *g, hl_attribute attr, uint32_t first_vertex, uint32_t count,
                                       const void *data);
/** Overwrites count indices from first (values < vertex_count, in the index format; count *
 * index size bytes are read). HL_ERR_VALIDATION when the range is not inside index_count. */
HL_API hl_result hl_geometry_update_indices(hl_geometry *g, uint32_t first, uint32_t count, const void *data);

/* ---- what the renderer reads ---- */

HL_API const hl_geometry_layout *hl_geometry_get_layout(const hl_geometry *g);
HL_API const void *hl_geometry_vertex_data(const hl_geometry *g);
HL_API const void *hl_geometry_index_data(const hl_geometry *g); /**< NULL when not indexed */
/** Reads vertex i of attr as floats (normalised types decoded; missing components 0, w 1).
 * HL_ERR_VALIDATION for an absent attribute or i out of range. */
HL_API hl_result hl_geometry_read_vertex(const hl_geometry *g, hl_attribute attr, uint32_t i, float out[4]);
HL_API uint64_t hl_geometry_revision(const hl_geometry *g); /**< process-unique (revision.h); 0 for NULL */
HL_API hl_upload_kind hl_geometry_vertex_upload(const hl_geometry *g, uint64_t uploaded_revision, hl_dirty_range *range);
HL_API hl_upload_kind hl_geometry_index_upload(const hl_geometry *g, uint64_t uploaded_revision, hl_dirty_range *range);
HL_API void hl_geometry_clear_dirty(hl_geometry *g);
/** Local-space bounds of POSITION. */
HL_API hl_aabb hl_geometry_aabb(const hl_geometry *g);
HL_API hl_sphere hl_geometry_bounding_sphere(const hl_geometry *g);
HL_API const char *hl_geometry_label(const hl_geometry *g); /**< "" when none */

#ifdef __cplusplus
}
#endif

#endif
