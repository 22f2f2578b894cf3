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

/** The most vertices a geometry may have: 67,108,864. */
#define HL_GEOMETRY_MAX_VERTICES (1u << 26)
/** The largest vertex or index block in bytes: 4 GiB - 4, the largest 4-aligned uint32 size. */
#define HL_GEOMETRY_MAX_BLOCK_BYTES 0xfffffffcu

/** Semantics; the value doubles as an index into the attribute arrays. Default component
 * counts: POSITION 3, NORMAL 3, TANGENT 4 (w = handedness), TEXCOORD_0/1 2, COLOR_0 4,
 * JOINTS_0/1 4, WEIGHTS_0/1 4. JOINTS_1/WEIGHTS_1 are a second set of 4 skin influences (8 joints
 * per vertex); JOINTS_0 and JOINTS_1 are the only integer (UINT8/UINT16) attributes. */
typedef enum hl_attribute {
    HL_ATTR_POSITION = 0, /**< object-space position (required; the bounds come from it) */
    HL_ATTR_NORMAL,       /**< object-space normal, unit length */
    HL_ATTR_TANGENT,      /**< xyz tangent along +u, w = +1 or -1: the bitangent's sign */
    HL_ATTR_TEXCOORD_0,   /**< first UV set */
    HL_ATTR_TEXCOORD_1,   /**< second UV set (maps whose texcoord is 1) */
    HL_ATTR_COLOR_0,      /**< vertex colour (RGBA), multiplying the base colour */
    HL_ATTR_JOINTS_0,     /**< skin joint indices 0..3 (integers) */
    HL_ATTR_WEIGHTS_0,    /**< weights of JOINTS_0 */
    HL_ATTR_JOINTS_1,     /**< skin joint indices 4..7 (integers) */
    HL_ATTR_WEIGHTS_1,    /**< weights of JOINTS_1 */
    HL_ATTR_COUNT         /**< the number of semantics; also "unknown" from hl_attribute_from_name */
} hl_attribute;

/** "POSITION", "TEXCOORD_0"... (glTF spelling); "INVALID" for a value outside the enum. */
HL_API const char *hl_attribute_name(hl_attribute a);
/** The semantic spelled name as glTF does ("NORMAL"...); HL_ATTR_COUNT when unknown. */
HL_API hl_attribute hl_attribute_from_name(const char *name);

/** The type of one component of a vertex attribute. */
typedef enum hl_component_type {
    HL_COMPONENT_FLOAT32 = 0, /**< 32-bit float (the default) */
    HL_COMPONENT_UNORM8,      /**< 8-bit unsigned, read as [0, 1] */
    HL_COMPONENT_SNORM8,      /**< 8-bit signed, read as [-1, 1] */
    HL_COMPONENT_UINT8,       /**< 8-bit unsigned integer (joint indices) */
    HL_COMPONENT_UNORM16,     /**< 16-bit unsigned, read as [0, 1] */
    HL_COMPONENT_SNORM16,     /**< 16-bit signed, read as [-1, 1] */
    HL_COMPONENT_UINT16,      /**< 16-bit unsigned integer (joint indices) */
    HL_COMPONENT_TYPE_COUNT   /**< the number of types; not a type */
} hl_component_type;

/** Bytes of one component: 4, 1 or 2; 0 if invalid. */
HL_API uint32_t hl_component_size(hl_component_type t);

/** The width of index values. */
typedef enum hl_index_format {
    HL_INDEX_FORMAT_DEFAULT = 0, /**< = HL_INDEX_UINT32 */
    HL_INDEX_UINT16,             /**< 16-bit indices */
    HL_INDEX_UINT32              /**< 32-bit indices */
} hl_index_format;

/** How vertices (or indices) form primitives. */
typedef enum hl_topology {
    HL_TOPOLOGY_TRIANGLES = 0, /**< a triangle list (the default); counter-clockwise faces are front */
    HL_TOPOLOGY_LINES,         /**< a line list */
    HL_TOPOLOGY_POINTS         /**< a point list */
} hl_topology;

/** One attribute of a custom geometry. data == NULL: the attribute is absent. data holds
 * vertex_count elements of `components` values of `type`, tightly packed (no padding; for
 * UNORM8 x4 that is 4 bytes per vertex). components 0 = the semantic's default count. */
typedef struct hl_attribute_desc {
    const void *data;        /**< vertex_count elements, copied at creation; NULL = absent */
    hl_component_type type;  /**< default FLOAT32; the pairs the RHI can fetch only (see the top) */
    uint32_t components;     /**< values per vertex, 1..4; 0 = the semantic's default count */
} hl_attribute_desc;

/** A custom geometry (hl_geometry_create): its shape is fixed at creation, its content copied. */
typedef struct hl_geometry_desc {
    uint32_t vertex_count;                        /**< required: 1..HL_GEOMETRY_MAX_VERTICES */
    hl_attribute_desc attributes[HL_ATTR_COUNT];  /**< by semantic; attributes[HL_ATTR_POSITION] is required */
    const void *indices;                          /**< NULL = draw vertices in order; else index_count values */
    uint32_t index_count;                         /**< indices to read (each < vertex_count) */
    hl_index_format index_format;                 /**< of the indices; default UINT32 */
    hl_topology topology;                         /**< default triangles */
    bool dynamic;                                 /**< a hint that the content will be updated often */
    const char *label;                            /**< for messages (copied); NULL = none */
} hl_geometry_desc;

/** Where and how each attribute lives in the vertex block. present == false: absent. */
typedef struct hl_vertex_attribute_info {
    bool present;            /**< the geometry has this attribute */
    bool normalized;         /**< UNORM / SNORM */
    hl_component_type type;  /**< the component type as given */
    uint32_t components;     /**< resolved component count (1..4) */
    uint32_t offset;         /**< byte offset of the attribute array in the vertex block */
    uint32_t stride;         /**< bytes per vertex (element size rounded up to 4) */
} hl_vertex_attribute_info;

/** The fixed shape of a geometry. layout_key hashes every field that shapes a pipeline's
 * vertex state (attribute types/counts/strides, topology, index format), for cache keys. */
typedef struct hl_geometry_layout {
    uint32_t vertex_count;        /**< as created (fixed) */
    uint32_t vertex_bytes;        /**< size of the vertex block (every present attribute's array) */
    uint32_t index_count;         /**< 0 = not indexed */
    hl_index_format index_format; /**< resolved (UINT16/UINT32) when indexed */
    uint32_t index_bytes;         /**< size of the index block (0 when not indexed) */
    hl_topology topology;         /**< as created */
    uint32_t attribute_mask;      /**< bit (1u << hl_attribute) per present attribute */
    bool dynamic;                 /**< the hint given at creation */
    hl_vertex_attribute_info attributes[HL_ATTR_COUNT]; /**< by semantic */
    uint64_t layout_key;          /**< hash of what shapes a pipeline's vertex state */
} hl_geometry_layout;

/** A geometry: vertex attributes and optional indices on the CPU, reference counted (see the
 * top of this file). */
typedef struct hl_geometry hl_geometry;

/** A geometry with one reference, its content copied from desc. HL_ERR_VALIDATION naming the field
 * (or the numbers, for the limits above) before anything is allocated. */
HL_API hl_result hl_geometry_create(const hl_geometry_desc *desc, hl_geometry **out);
/** Adds a reference (NULL is a no-op). Not atomic: one thread at a time. */
HL_API void hl_geometry_retain(hl_geometry *g);
/** Drops a reference; the last one frees the geometry. NULL is a no-op. */
HL_API void hl_geometry_release(hl_geometry *g);
/** References held (the creator's, and those of meshes, materials and renderers that use it);
 * 0 for NULL. A renderer releases its GPU copy once only its own reference is left. */
HL_API uint32_t hl_geometry_ref_count(const hl_geometry *g);

/* ---- generators (all indexed, with POSITION, NORMAL, TEXCOORD_0, TANGENT; centred at the
 * origin; UINT16 indices when they fit). Zero fields take the defaults listed; the segment
 * counts are bounded so that every generated shape fits the limits above. ---- */

/** A box: 24 vertices, 36 indices. */
typedef struct hl_box_desc {
    /** @{ */
    float width, height, depth; /**< extents along x, y, z; 0 = 1 */
    /** @} */
} hl_box_desc;
/** A UV sphere: (ws + 1) * (hs + 1) vertices, 6 * ws * (hs - 1) indices (no degenerate pole
 * triangles). */
typedef struct hl_sphere_desc {
    float radius; /**< 0 = 0.5 */
    /** Segments around the equator (3..1024; 0 = 32) and pole to pole (2..1024; 0 = 16). @{ */
    uint32_t width_segments, height_segments;
    /** @} */
} hl_sphere_desc;
/** A plane in the XY plane facing +Z: (ws + 1) * (hs + 1) vertices, 6 * ws * hs indices. */
typedef struct hl_plane_desc {
    /** @{ */
    float width, height; /**< extents along x and y; 0 = 1 */
    /** @} */
    /** @{ */
    uint32_t width_segments, height_segments; /**< each at most 4096; 0 = 1 */
    /** @} */
} hl_plane_desc;
/** A cylinder along Y, capped unless open_ended: (rs + 1) * (hs + 1) + (open_ended ? 0 : 2 *
 * (rs + 2)) vertices, 6 * rs * hs + (open_ended ? 0 : 6 * rs) indices. */
typedef struct hl_cylinder_desc {
    /** Radii at +y and -y (0 = 0.5; use a tiny value for a cone) and the height (0 = 1). @{ */
    float radius_top, radius_bottom, height;
    /** @} */
    /** Segments around (3..1024; 0 = 16) and along the axis (at most 1024; 0 = 1). @{ */
    uint32_t radial_segments, height_segments;
    /** @} */
    bool open_ended; /**< no caps */
} hl_cylinder_desc;

/** A box geometry with one reference; desc may be NULL for all defaults. HL_ERR_VALIDATION for a
 * size that is not positive and finite. */
HL_API hl_result hl_geometry_create_box(const hl_box_desc *desc, hl_geometry **out);
/** A sphere geometry (as hl_geometry_create_box; segment counts out of range are HL_ERR_VALIDATION). */
HL_API hl_result hl_geometry_create_sphere(const hl_sphere_desc *desc, hl_geometry **out);
/** A plane geometry (as hl_geometry_create_box). */
HL_API hl_result hl_geometry_create_plane(const hl_plane_desc *desc, hl_geometry **out);
/** A cylinder geometry (as hl_geometry_create_box). */
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

/** The fixed shape (owned by the geometry); NULL for NULL. */
HL_API const hl_geometry_layout *hl_geometry_get_layout(const hl_geometry *g);
/** The vertex block, layout.vertex_bytes bytes (owned by the geometry); NULL for NULL. */
HL_API const void *hl_geometry_vertex_data(const hl_geometry *g);
/** The index block, layout.index_bytes bytes; NULL when not indexed. */
HL_API const void *hl_geometry_index_data(const hl_geometry *g);
/** Reads vertex i of attr as floats (normalised types decoded; missing components 0, w 1).
 * HL_ERR_VALIDATION for an absent attribute or i out of range. */
HL_API hl_result hl_geometry_read_vertex(const hl_geometry *g, hl_attribute attr, uint32_t i, float out[4]);
/** Changes on every content update; process-unique (revision.h); 0 for NULL. */
HL_API uint64_t hl_geometry_revision(const hl_geometry *g);
/** What a consumer that last uploaded uploaded_revision must send of the vertex block
 * (revision.h); *range gets the bytes. HL_UPLOAD_NONE for NULL. */
HL_API hl_upload_kind hl_geometry_vertex_upload(const hl_geometry *g, uint64_t uploaded_revision, hl_dirty_range *range);
/** The same for the index block. */
HL_API hl_upload_kind hl_geometry_index_upload(const hl_geometry *g, uint64_t uploaded_revision, hl_dirty_range *range);
/** Empties both dirty ranges after a successful upload (the renderer calls it). NULL is a no-op. */
HL_API void hl_geometry_clear_dirty(hl_geometry *g);
/** Local-space bounds of POSITION (zero for NULL). */
HL_API hl_aabb hl_geometry_aabb(const hl_geometry *g);
/** Local-space bounding sphere of POSITION (zero for NULL). */
HL_API hl_sphere hl_geometry_bounding_sphere(const hl_geometry *g);
/** The label given at creation; "" when none (or NULL). */
HL_API const char *hl_geometry_label(const hl_geometry *g);

#ifdef __cplusplus
}
#endif

#endif
