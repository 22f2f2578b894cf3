/* glTF 2.0 data layer (issue 10, first part): the container (.gltf JSON or .glb), buffers
 * (GLB binary chunk, base64 `data:` URIs, files beside the model) and accessors decoded into
 * floats or integers with every component type, normalization, byte stride and sparse storage.
 * Internal to the scene layer; the public loader (include/hilo3d/gltf.h) builds on it.
 *
 * Every failure is HL_ERR_PARSE (malformed input) or HL_ERR_IO (a file that cannot be read) with
 * a message naming the JSON path (`accessors[3].sparse.indices.byteOffset`), and leaves nothing
 * allocated. Limits: a document of at most HL__GLTF_MAX_BYTES, buffers of at most
 * HL__GLTF_MAX_BUFFER_BYTES each; sizes are computed in 64 bits and checked before any read. */
#ifndef HL_GLTF_INTERNAL_H
#define HL_GLTF_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "hl_base.h"
#include "hilo3d/gltf.h"

#define HL__GLTF_MAX_BYTES ((size_t)1 << 30)        /* a .gltf or .glb file */
#define HL__GLTF_MAX_BUFFER_BYTES ((uint64_t)1 << 30) /* one buffer */
#define HL__GLTF_MAX_BUFFERS 1024u
/* An accessor without a bufferView (zeros, perhaps with sparse values) holds at most this many
 * elements, and at most 65,536 + 16 per byte of the document and its buffers: its size comes
 * from no data, so a few bytes could otherwise claim gigabytes of decoding. */
#define HL__GLTF_MAX_ZERO_ELEMENTS (1u << 22)

struct cJSON;

typedef struct hl__gltf_buffer {
    uint8_t *data; /* owned */
    uint64_t size; /* byteLength */
} hl__gltf_buffer;

typedef struct hl__gltf_doc {
    struct cJSON *json;
    char *base_dir; /* owned; NULL: no file URIs */
    hl__gltf_buffer *buffers;
    uint32_t buffer_count;
    uint64_t zero_elements_max; /* for accessors without a bufferView (see above) */
} hl__gltf_doc;

/* Parses a .glb (by its magic) or .gltf text of `size` bytes. base_dir: the folder relative
 * buffer URIs are read from (NULL: only the GLB chunk and data: URIs are allowed; a file URI is
 * HL_ERR_PARSE). URIs with a scheme other than data:, absolute paths and `..` are refused. */
hl_result hl__gltf_parse(const uint8_t *data, size_t size, const char *base_dir, hl__gltf_doc *out);
void hl__gltf_free(hl__gltf_doc *doc);

/* JSON helpers: an integer member in [0, hi] (absent: def unless required); the object at
 * root.name[index] (else NULL and *res set). path names the referring object in messages. */
hl_result hl__gltf_get_uint(const struct cJSON *obj, const char *key, const char *path, bool required, uint64_t def,
                            uint64_t hi, uint64_t *out);
const struct cJSON *hl__gltf_array_item(const struct cJSON *root, const char *name, uint64_t index, const char *path,
                                        hl_result *res);

/* The encoded bytes of images[image] (a bufferView, a data: URI or a file beside the model), at
 * most max: *data points into the document or at *owned (hl__malloc'd; the caller frees it). */
hl_result hl__gltf_image_bytes(const hl__gltf_doc *doc, uint32_t image, uint64_t max, const uint8_t **data,
                               uint64_t *size, uint8_t **owned);

/* glTF component types */
enum {
    HL__GLTF_I8 = 5120,
    HL__GLTF_U8 = 5121,
    HL__GLTF_I16 = 5122,
    HL__GLTF_U16 = 5123,
    HL__GLTF_U32 = 5125,
    HL__GLTF_F32 = 5126,
};

typedef struct hl__gltf_accessor_info {
    uint32_t count;      /* elements */
    uint32_t components; /* 1 SCALAR, 2-4 VECn, 4 MAT2, 9 MAT3, 16 MAT4 */
    uint32_t component_type;
    bool normalized;
    bool sparse;
} hl__gltf_accessor_info;

/* The accessor's description, validated (types, bounds of its buffer view and buffer, stride,
 * alignment, sparse indices and values) without decoding it. */
hl_result hl__gltf_accessor_info_get(const hl__gltf_doc *doc, uint32_t index, hl__gltf_accessor_info *out);
/* Decodes the accessor into out (count * components floats, out_count at least that, else
 * HL_ERR_VALIDATION): integers as values, normalized integers mapped to [0, 1] or [-1, 1] as
 * glTF defines; sparse values applied. */
hl_result hl__gltf_accessor_read_float(const hl__gltf_doc *doc, uint32_t index, float *out, size_t out_count);
/* The same for unsigned integer accessors (indices, joints: u8, u16, u32); a float, signed or
 * normalized accessor is HL_ERR_PARSE. */
hl_result hl__gltf_accessor_read_uint(const hl__gltf_doc *doc, uint32_t index, uint32_t *out, size_t out_count);

/* Primitive `prim` of mesh `mesh` as a geometry (FLOAT32 attributes, u32 indices): the
 * attributes POSITION (required), NORMAL, TANGENT, TEXCOORD_0/1, COLOR_0 (VEC3 made VEC4 with
 * alpha 1), JOINTS_0/1 and WEIGHTS_0/1 decoded to floats (joints then stored as UINT16), all of
 * one vertex count; modes 0 points, 1 lines, 2 line loop and 3 line strip (as lines), 4
 * triangles, 5 strip and 6 fan (as triangles, strips keeping the first triangle's winding);
 * indices checked against the vertex count. Triangles without NORMAL get flat normals (every
 * triangle its own three vertices, no index buffer). */
struct hl_geometry;
hl_result hl__gltf_primitive_geometry(const hl__gltf_doc *doc, uint32_t mesh, uint32_t prim, struct hl_geometry **out);
/* What became of a primitive's vertices in its geometry (for its morph targets, whose deltas
 * are per source vertex). */
typedef struct hl__gltf_flat {
    uint32_t *map;         /* flat-expanded: the source vertex of each geometry vertex (hl__malloc'd,
                              the geometry's vertex_count entries); NULL: the source vertices kept */
    uint32_t source_count; /* the primitive's own vertices (its accessors' count) */
    uint32_t tangent_uv;   /* tangents generated from HL_ATTR_TEXCOORD_0 / _1; UINT32_MAX: none */
} hl__gltf_flat;
/* The same; tangent_uv 0 or 1: a primitive without TANGENT (triangles with NORMAL and that UV
 * set) gets generated tangents (the material has a normal map sampling that set); UINT32_MAX:
 * none generated. flat (NULL: not wanted) filled on success; the caller frees flat->map. */
hl_result hl__gltf_primitive_geometry_ex(const hl__gltf_doc *doc, uint32_t mesh, uint32_t prim, uint32_t tangent_uv,
                                         struct hl_geometry **out, hl__gltf_flat *flat);
/* Flat normals of a triangle list of count vertices (each three one triangle, count / 3 whole
 * triangles): every vertex its triangle's normalized cross(p1 - p0, p2 - p0), (0, 0, 1) for a
 * degenerate one. The loader's and the morph blend's, so both give the same bits. */
void hl__gltf_flat_normals(const float *pos, uint32_t count, float *nrm);
/* Per-vertex tangents (xyz, w = handedness) of a triangle list of count indices over n vertices
 * from positions, normals and one UV set (Lengyel's method: each triangle's dP/du and dP/dv
 * summed per vertex, then made orthogonal to the normal; w = +1 when the bitangent cross(N, T)
 * points along -dP/dv). idx: the triangles' vertex indices (NULL: 0..count-1). A vertex
 * without a usable direction gets any unit vector orthogonal to its normal. t4: n * 4 floats
 * out; bit: n * 3 floats of scratch. */
void hl__gltf_make_tangents(const float *pos, const float *nrm, const float *uv, const uint32_t *idx, uint32_t count,
                            uint32_t n, float *t4, float *bit);

/* ---- the asset (gltf_scene.c) and its animations (gltf_anim.c) ---- */
struct hl_node;
struct hl_camera;
typedef struct hl__gltf_channel {
    struct hl_node *node; /* NULL: the target is outside the built scene (skipped) */
    uint32_t path;        /* HL__GLTF_PATH_* */
    uint32_t interp;      /* HL__GLTF_STEP, _LINEAR, _CUBIC */
    uint32_t keys, comps; /* keyframes; 3 or 4 components (weights: per target) */
    uint32_t node_index;  /* the target node's glTF index (weights: which morphs) */
    const float *times;   /* keys, non-decreasing */
    const float *values;  /* keys * comps (x 3 for cubic: in-tangent, value, out-tangent) */
} hl__gltf_channel;
enum { HL__GLTF_PATH_TRANSLATION, HL__GLTF_PATH_ROTATION, HL__GLTF_PATH_SCALE, HL__GLTF_PATH_WEIGHTS };
enum { HL__GLTF_STEP, HL__GLTF_LINEAR, HL__GLTF_CUBIC };

/* Morph targets of one primitive (gltf_morph.c): the base attributes and every target's
 * deltas (zeros where a target has none), applied on the CPU into the primitive's geometry. */
#define HL__GLTF_MAX_MORPH_TARGETS 64u
struct hl_geometry;
typedef struct hl__gltf_morph {
    struct hl_geometry *geometry; /* retained */
    uint32_t gltf_node;           /* the node whose mesh this primitive is */
    uint32_t vertex_count, target_count;
    uint32_t source_count;        /* the vertices the deltas are of (vertex_count unless map) */
    uint32_t *map;                /* flat-expanded: geometry vertex -> source vertex (else NULL) */
    uint32_t tangent_uv;          /* flat with generated tangents: their UV set (else UINT32_MAX) */
    float *base[3];               /* POSITION, NORMAL, TANGENT (xyzw), per geometry vertex; NULL
                                     when absent or recomputed (flat normals, generated tangents) */
    float *delta[3];              /* target_count * source_count * 3 (NULL when absent) */
    /* vertex_count * 4 floats; flat: positions and normals (3 + 3), with generated tangents
       also the UV set, tangents and bitangent sums (+ 2 + 4 + 3) */
    float *scratch;
    float weights[HL__GLTF_MAX_MORPH_TARGETS]; /* as last applied */
} hl__gltf_morph;

struct hl_animation {
    struct hl_gltf_asset *asset; /* the owner (weights channels reach its morphs) */
    char *name;
    float duration;            /* the largest input time */
    hl__gltf_channel *channels;
    uint32_t channel_count;
    float *data;               /* every channel's times and values (one block) */
};

struct hl_gltf_asset {
    struct hl_node *root;
    struct hl_node **nodes; /* per glTF node: its group node, NULL outside the built scene */
    uint32_t node_count;
    struct hl_camera **cameras;
    uint32_t camera_count;
    struct hl_animation *animations;
    uint32_t animation_count;
    hl__gltf_morph *morphs;
    uint32_t morph_count;
    hl_gltf_report report;
};

/* Reads the targets of primitive p (its JSON path in messages) for geometry g, whose vertices
 * flat says about, into a new entry of a->morphs (taking flat->map: NULL afterwards), blended
 * once at the default weights (else 0). A flat-expanded primitive's positions are blended and its flat normals (and
 * generated tangents) recomputed from them; the NORMAL deltas of its targets (and TANGENT ones
 * where tangents are generated) are checked, not used. */
hl_result hl__gltf_morph_add(const hl__gltf_doc *doc, struct hl_gltf_asset *a, uint32_t gltf_node, const struct cJSON *p,
                             const char *path, const float *default_weights, uint32_t weight_count,
                             struct hl_geometry *g, hl__gltf_flat *flat);
/* Applies weights to every morph of glTF node `node` (count values, the rest 0). */
void hl__gltf_morph_weights(struct hl_gltf_asset *a, uint32_t node, const float *weights, uint32_t count);
void hl__gltf_morphs_free(struct hl_gltf_asset *a);

/* Parses doc's animations into a->animations (targets resolved through a->nodes); HL_ERR_PARSE
 * naming the JSON path for a malformed one. */
hl_result hl__gltf_animations_parse(const hl__gltf_doc *doc, struct hl_gltf_asset *a);
void hl__gltf_animations_free(struct hl_gltf_asset *a);

/* Standard base64 (RFC 4648, padding required when the length needs it); *out hl__malloc'd.
 * false for a character outside the alphabet or a bad length. */
bool hl__base64_decode(const char *text, size_t len, uint8_t **out, size_t *out_size);

#endif
