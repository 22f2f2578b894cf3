/* Geometry: validated attribute arrays in one non-interleaved vertex block, optional index
 * block, bounds, dirty ranges and revisions. */
#include <math.h>
#include <string.h>

#include "scene_internal.h"

enum { HL__BLOCK_VERTEX = 0, HL__BLOCK_INDEX = 1 };

struct hl_geometry {
    uint32_t refs;
    hl_geometry_layout layout;
    uint8_t *vertices;
    uint8_t *indices;
    uint64_t revision;
    uint64_t changed_at[2];
    uint64_t dirty_base[2];
    hl_dirty_range dirty[2];
    hl_aabb aabb;
    hl_sphere sphere;
    char *label;
};

static const char *const hl__attr_names[HL_ATTR_COUNT] = {"POSITION",   "NORMAL",    "TANGENT",  "TEXCOORD_0",
                                                          "TEXCOORD_1", "COLOR_0",   "JOINTS_0", "WEIGHTS_0",
                                                          "JOINTS_1",   "WEIGHTS_1"};
static const uint32_t hl__attr_default_components[HL_ATTR_COUNT] = {3, 3, 4, 2, 2, 4, 4, 4, 4, 4};
static const char *const hl__component_names[HL_COMPONENT_TYPE_COUNT] = {"FLOAT32", "UNORM8",  "SNORM8", "UINT8",
                                                                         "UNORM16", "SNORM16", "UINT16"};

const char *hl_attribute_name(hl_attribute a) { return (unsigned)a < HL_ATTR_COUNT ? hl__attr_names[a] : "INVALID"; }

hl_attribute hl_attribute_from_name(const char *name) {
    if (!name) return HL_ATTR_COUNT;
    for (int a = 0; a < HL_ATTR_COUNT; ++a)
        if (strcmp(hl__attr_names[a], name) == 0) return (hl_attribute)a;
    return HL_ATTR_COUNT;
}

uint32_t hl_component_size(hl_component_type t) {
    switch (t) {
    case HL_COMPONENT_FLOAT32: return 4;
    case HL_COMPONENT_UNORM8:
    case HL_COMPONENT_SNORM8:
    case HL_COMPONENT_UINT8: return 1;
    case HL_COMPONENT_UNORM16:
    case HL_COMPONENT_SNORM16:
    case HL_COMPONENT_UINT16: return 2;
    default: return 0;
    }
}

static bool hl__is_integer(hl_component_type t) { return t == HL_COMPONENT_UINT8 || t == HL_COMPONENT_UINT16; }

/* The (type, count) pairs the RHI has a vertex format for. */
static bool hl__format_supported(hl_component_type t, uint32_t n) {
    switch (t) {
    case HL_COMPONENT_FLOAT32: return n >= 1 && n <= 4;
    case HL_COMPONENT_UNORM8:
    case HL_COMPONENT_SNORM8:
    case HL_COMPONENT_UINT8:
    case HL_COMPONENT_UINT16: return n == 4;
    case HL_COMPONENT_UNORM16:
    case HL_COMPONENT_SNORM16: return n == 2 || n == 4;
    default: return false;
    }
}

static uint32_t hl__elem_size(const hl_vertex_attribute_info *a) { return a->components * hl_component_size(a->type); }

static float hl__decode(const uint8_t *p, hl_component_type t) {
    switch (t) {
    case HL_COMPONENT_FLOAT32: {
        float f;
        memcpy(&f, p, 4);
        return f;
    }
    case HL_COMPONENT_UNORM8: return (float)p[0] / 255.0f;
    case HL_COMPONENT_SNORM8: return fmaxf((float)(int8_t)p[0] / 127.0f, -1.0f);
    case HL_COMPONENT_UINT8: return (float)p[0];
    case HL_COMPONENT_UNORM16: {
        uint16_t v;
        memcpy(&v, p, 2);
        return (float)v / 65535.0f;
    }
    case HL_COMPONENT_SNORM16: {
        int16_t v;
        memcpy(&v, p, 2);
        return fmaxf((float)v / 32767.0f, -1.0f);
    }
    case HL_COMPONENT_UINT16: {
        uint16_t v;
        memcpy(&v, p, 2);
        return (float)v;
    }
    default: return 0.0f;
    }
}

static void hl__read(const hl_geometry *g, hl_attribute attr, uint32_t i, float out[4]) {
    const hl_vertex_attribute_info *a = &g->layout.attributes[attr];
    const uint8_t *p = g->vertices + a->offset + (size_t)i * a->stride;
    uint32_t cs = hl_component_size(a->type);
    out[0] = out[1] = out[2] = 0.0f;
    out[3] = 1.0f;
    for (uint32_t c = 0; c < a->components; ++c)
        out[c] = hl__decode(p + c * cs, a->type);
}

static void hl__compute_bounds(hl_geometry *g) {
    hl_aabb b = {{INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}};
    for (uint32_t i = 0; i < g->layout.vertex_count; ++i) {
        float v[4];
        hl__read(g, HL_ATTR_POSITION, i, v);
        b.min.x = fminf(b.min.x, v[0]);
        b.min.y = fminf(b.min.y, v[1]);
        b.min.z = fminf(b.min.z, v[2]);
        b.max.x = fmaxf(b.max.x, v[0]);
        b.max.y = fmaxf(b.max.y, v[1]);
        b.max.z = fmaxf(b.max.z, v[2]);
    }
    g->aabb = b;
    /* sphere around the box centre, radius = furthest vertex (tighter than the half diagonal) */
    hl_vec3 c = {(b.min.x + b.max.x) * 0.5f, (b.min.y + b.max.y) * 0.5f, (b.min.z + b.max.z) * 0.5f};
    float r2 = 0.0f;
    for (uint32_t i = 0; i < g->layout.vertex_count; ++i) {
        float v[4];
        hl__read(g, HL_ATTR_POSITION, i, v);
        float dx = v[0] - c.x, dy = v[1] - c.y, dz = v[2] - c.z;
        r2 = fmaxf(r2, dx * dx + dy * dy + dz * dz);
    }
    g->sphere = (hl_sphere){c, sqrtf(r2)};
}

/* Copies count tightly packed elements into the strided attribute array. */
static void hl__write_attr(hl_geometry *g, hl_attribute attr, uint32_t first, uint32_t count, const void *data) {
    const hl_vertex_attribute_info *a = &g->layout.attributes[attr];
    uint32_t es = hl__elem_size(a);
    uint8_t *dst = g->vertices + a->offset + (size_t)first * a->stride;
    if (es == a->stride) {
        memcpy(dst, data, (size_t)count * es);
        return;
    }
    const uint8_t *src = (const uint8_t *)data;
    for (uint32_t i = 0; i < count; ++i)
        memcpy(dst + (size_t)i * a->stride, src + (size_t)i * es, es);
}

static uint32_t hl__index_size(hl_index_format f) { return f == HL_INDEX_UINT16 ? 2u : 4u; }

static hl_result hl__check_indices(const char *fn, hl_index_format f, const void *data, uint32_t first, uint32_t count,
                                   uint32_t vertex_count) {
    for (uint32_t i = 0; i < count; ++i) {
        uint32_t v;
        if (f == HL_INDEX_UINT16) {
            uint16_t s;
            memcpy(&s, (const uint8_t *)data + (size_t)i * 2, 2);
            v = s;
        } else {
            memcpy(&v, (const uint8_t *)data + (size_t)i * 4, 4);
        }
        if (v >= vertex_count)
            return hl__fail(HL_ERR_VALIDATION, "%s: indices[%u] = %u is not below vertex_count %u", fn, first + i, v,
                            vertex_count);
    }
    return HL_OK;
}

static hl_result hl__validate_geometry(const hl_geometry_desc *d) {
    static const char fn[] = "hl_geometry_create";
    if (d->vertex_count == 0) return hl__fail(HL_ERR_VALIDATION, "%s: vertex_count is 0", fn);
    if (d->vertex_count > HL_GEOMETRY_MAX_VERTICES)
        return hl__fail(HL_ERR_VALIDATION, "%s: vertex_count %u exceeds the limit of %u vertices", fn, d->vertex_count,
                        (uint32_t)HL_GEOMETRY_MAX_VERTICES);
    if (!d->attributes[HL_ATTR_POSITION].data)
        return hl__fail(HL_ERR_VALIDATION, "%s: attributes[POSITION].data is NULL (POSITION is required)", fn);
    for (int a = 0; a < HL_ATTR_COUNT; ++a) {
        const hl_attribute_desc *ad = &d->attributes[a];
        if (!ad->data) continue;
        uint32_t n = ad->components ? ad->components : hl__attr_default_components[a];
        if ((unsigned)ad->type >= HL_COMPONENT_TYPE_COUNT)
            return hl__fail(HL_ERR_VALIDATION, "%s: attributes[%s].type %d is invalid", fn, hl__attr_names[a],
                            (int)ad->type);
        if (!hl__format_supported(ad->type, n))
            return hl__fail(HL_ERR_VALIDATION,
                            "%s: attributes[%s] is %s x%u, which no vertex format fetches (FLOAT32 x1-4, "
                            "UNORM8/SNORM8/UINT8/UINT16 x4, UNORM16/SNORM16 x2 or x4)",
                            fn, hl__attr_names[a], hl__component_names[ad->type], n);
        bool joints = a == HL_ATTR_JOINTS_0 || a == HL_ATTR_JOINTS_1;
        if (joints && !hl__is_integer(ad->type))
            return hl__fail(HL_ERR_VALIDATION, "%s: attributes[%s].type must be UINT8 or UINT16, got %s", fn,
                            hl__attr_names[a], hl__component_names[ad->type]);
        if (!joints && hl__is_integer(ad->type))
            return hl__fail(HL_ERR_VALIDATION,
                            "%s: attributes[%s].type %s is an integer type (only JOINTS_0 and JOINTS_1 may be)", fn,
                            hl__attr_names[a], hl__component_names[ad->type]);
        if (a == HL_ATTR_POSITION && n < 2)
            return hl__fail(HL_ERR_VALIDATION, "%s: attributes[POSITION].components is %u (needs 2..4)", fn, n);
    }
    /* the vertex block: every attribute array at a uint32 offset, so it must fit 32 bits */
    uint32_t vertex_bytes = 0;
    uint64_t true_bytes = 0; /* exact (at most HL_ATTR_COUNT * 16 * 2^26), for the message */
    bool fits = true;
    for (int a = 0; a < HL_ATTR_COUNT; ++a) {
        const hl_attribute_desc *ad = &d->attributes[a];
        if (!ad->data) continue;
        uint32_t n = ad->components ? ad->components : hl__attr_default_components[a];
        uint32_t stride = (n * hl_component_size(ad->type) + 3u) & ~3u, bytes = 0;
        true_bytes += (uint64_t)stride * d->vertex_count;
        fits = fits && hl__mul_u32(stride, d->vertex_count, &bytes) &&
               hl__add_u32(vertex_bytes, bytes, &vertex_bytes) && vertex_bytes <= HL_GEOMETRY_MAX_BLOCK_BYTES;
    }
    if (!fits)
        return hl__fail(HL_ERR_VALIDATION,
                        "%s: the vertex block of %u vertices needs %llu bytes, over the limit of %u bytes "
                        "(HL_GEOMETRY_MAX_BLOCK_BYTES: attribute offsets are uint32)",
                        fn, d->vertex_count, (unsigned long long)true_bytes, (uint32_t)HL_GEOMETRY_MAX_BLOCK_BYTES);
    if ((unsigned)d->topology > HL_TOPOLOGY_POINTS)
        return hl__fail(HL_ERR_VALIDATION, "%s: topology %d is invalid", fn, (int)d->topology);
    if ((unsigned)d->index_format > HL_INDEX_UINT32)
        return hl__fail(HL_ERR_VALIDATION, "%s: index_format %d is invalid", fn, (int)d->index_format);
    if (!d->indices && d->index_count)
        return hl__fail(HL_ERR_VALIDATION, "%s: index_count is %u but indices is NULL", fn, d->index_count);
    if (d->indices && d->index_count == 0)
        return hl__fail(HL_ERR_VALIDATION, "%s: indices given with index_count 0", fn);
    if (d->indices) {
        hl_index_format f = d->index_format == HL_INDEX_FORMAT_DEFAULT ? HL_INDEX_UINT32 : d->index_format;
        uint32_t bytes = 0;
        if (!hl__mul_u32(d->index_count, hl__index_size(f), &bytes) || bytes > HL_GEOMETRY_MAX_BLOCK_BYTES)
            return hl__fail(HL_ERR_VALIDATION,
                            "%s: index_count %u of %u-byte indices needs %llu bytes, over the limit of %u bytes "
                            "(HL_GEOMETRY_MAX_BLOCK_BYTES)",
                            fn, d->index_count, hl__index_size(f),
                            (unsigned long long)d->index_count * hl__index_size(f),
                            (uint32_t)HL_GEOMETRY_MAX_BLOCK_BYTES);
    }
    uint32_t prim = d->topology == HL_TOPOLOGY_TRIANGLES ? 3u : d->topology == HL_TOPOLOGY_LINES ? 2u : 1u;
    uint32_t n = d->indices ? d->index_count : d->vertex_count;
    if (n % prim)
        return hl__fail(HL_ERR_VALIDATION, "%s: %s count %u is not a multiple of %u for the topology", fn,
                        d->indices ? "index" : "vertex", n, prim);
    if (d->indices) {
        hl_index_format f = d->index_format == HL_INDEX_FORMAT_DEFAULT ? HL_INDEX_UINT32 : d->index_format;
        hl_result r = hl__check_indices(fn, f, d->indices, 0, d->index_count, d->vertex_count);
        if (r) return r;
    }
    return HL_OK;
}

hl_result hl_geometry_create(const hl_geometry_desc *desc, hl_geometry **out) {
    if (!out) return hl__fail(HL_ERR_VALIDATION, "hl_geometry_create: out is NULL");
    *out = NULL;
    if (!desc) return hl__fail(HL_ERR_VALIDATION, "hl_geometry_create: desc is NULL");
    hl_result r = hl__validate_geometry(desc);
    if (r) return r;

    hl_geometry *g = hl__calloc(1, sizeof *g);
    if (!g) return hl__fail(HL_ERR_OUT_OF_MEMORY, "hl_geometry_create: out of memory");
    hl_geometry_layout *L = &g->layout;
    L->vertex_count = desc->vertex_count;
    L->topology = desc->topology;
    L->dynamic = desc->dynamic;
    uint64_t key = HL__HASH_SEED;
    uint32_t offset = 0; /* sums fit 32 bits: checked by hl__validate_geometry */
    for (int a = 0; a < HL_ATTR_COUNT; ++a) {
        const hl_attribute_desc *ad = &desc->attributes[a];
        hl_vertex_attribute_info *ai = &L->attributes[a];
        if (ad->data) {
            ai->present = true;
            ai->type = ad->type;
            ai->components = ad->components ? ad->components : hl__attr_default_components[a];
            ai->normalized = !hl__is_integer(ad->type) && ad->type != HL_COMPONENT_FLOAT32;
            ai->stride = (hl__elem_size(ai) + 3u) & ~3u;
            ai->offset = offset;
            offset += ai->stride * desc->vertex_count;
            L->attribute_mask |= 1u << a;
        }
        uint32_t k[4] = {ai->present, (uint32_t)ai->type, ai->components, ai->stride};
        key = hl__hash_bytes(key, k, sizeof k);
    }
    L->vertex_bytes = offset;
    if (desc->indices) {
        L->index_count = desc->index_count;
        L->index_format = desc->index_format == HL_INDEX_FORMAT_DEFAULT ? HL_INDEX_UINT32 : desc->index_format;
        L->index_bytes = (desc->index_count * hl__index_size(L->index_format) + 3u) & ~3u; /* <= the limit */
    }
    uint32_t k2[2] = {(uint32_t)L->topology, (uint32_t)L->index_format};
    L->layout_key = hl__hash_bytes(key, k2, sizeof k2);

    g->vertices = hl__malloc(L->vertex_bytes);
    g->indices = L->index_bytes ? hl__calloc(1, L->index_bytes) : NULL;
    if (!g->vertices || (L->index_bytes && !g->indices) || !hl__set_string(&g->label, desc->label)) {
        hl__free(g->vertices);
        hl__free(g->indices);
        hl__free(g);
        return hl__fail(HL_ERR_OUT_OF_MEMORY,
                        "hl_geometry_create: out of memory for %u vertex bytes and %u index bytes", L->vertex_bytes,
                        L->index_bytes);
    }
    for (int a = 0; a < HL_ATTR_COUNT; ++a) {
        hl_vertex_attribute_info *ai = &L->attributes[a];
        if (!ai->present) continue;
        if (ai->stride != hl__elem_size(ai)) memset(g->vertices + ai->offset, 0, (size_t)ai->stride * L->vertex_count);
        hl__write_attr(g, (hl_attribute)a, 0, L->vertex_count, desc->attributes[a].data);
    }
    if (desc->indices) memcpy(g->indices, desc->indices, (size_t)desc->index_count * hl__index_size(L->index_format));
    g->refs = 1;
    g->revision = hl__next_revision();
    for (int b = 0; b < 2; ++b)
        g->changed_at[b] = g->dirty_base[b] = g->revision;
    hl__compute_bounds(g);
    *out = g;
    return HL_OK;
}

void hl_geometry_retain(hl_geometry *g) {
    if (g) g->refs++;
}

void hl_geometry_release(hl_geometry *g) {
    if (!g || --g->refs) return;
    hl__free(g->vertices);
    hl__free(g->indices);
    hl__free(g->label);
    hl__free(g);
}

static void hl__mark(hl_geometry *g, int block, uint32_t lo, uint32_t hi) {
    g->revision = hl__next_revision();
    g->changed_at[block] = g->revision;
    hl__range_merge(&g->dirty[block], lo, hi);
}

hl_result hl_geometry_update_attribute(hl_geometry *g, hl_attribute attr, uint32_t first_vertex, uint32_t count,
                                       const void *data) {
    static const char fn[] = "hl_geometry_update_attribute";
    if (!g) return hl__fail(HL_ERR_VALIDATION, "%s: geometry is NULL", fn);
    if ((unsigned)attr >= HL_ATTR_COUNT) return hl__fail(HL_ERR_VALIDATION, "%s: attr %d is invalid", fn, (int)attr);
    const hl_vertex_attribute_info *a = &g->layout.attributes[attr];
    if (!a->present)
        return hl__fail(HL_ERR_VALIDATION, "%s: the geometry has no %s attribute", fn, hl__attr_names[attr]);
    if (!data) return hl__fail(HL_ERR_VALIDATION, "%s(%s): data is NULL", fn, hl__attr_names[attr]);
    if (count == 0) return HL_OK;
    if ((uint64_t)first_vertex + count > g->layout.vertex_count)
        return hl__fail(HL_ERR_VALIDATION, "%s(%s): vertices [%u, %llu) exceed vertex_count %u", fn,
                        hl__attr_names[attr], first_vertex, (unsigned long long)first_vertex + count,
                        g->layout.vertex_count);
    hl__write_attr(g, attr, first_vertex, count, data);
    /* inside the vertex block, whose size fits 32 bits */
    uint32_t lo = a->offset + first_vertex * a->stride;
    hl__mark(g, HL__BLOCK_VERTEX, lo, lo + count * a->stride);
    if (attr == HL_ATTR_POSITION) hl__compute_bounds(g);
    return HL_OK;
}

hl_result hl_geometry_update_indices(hl_geometry *g, uint32_t first, uint32_t count, const void *data) {
    static const char fn[] = "hl_geometry_update_indices";
    if (!g) return hl__fail(HL_ERR_VALIDATION, "%s: geometry is NULL", fn);
    if (!g->layout.index_count) return hl__fail(HL_ERR_VALIDATION, "%s: the geometry has no indices", fn);
    if (!data) return hl__fail(HL_ERR_VALIDATION, "%s: data is NULL", fn);
    if (count == 0) return HL_OK;
    if ((uint64_t)first + count > g->layout.index_count)
        return hl__fail(HL_ERR_VALIDATION, "%s: indices [%u, %llu) exceed index_count %u", fn, first,
                        (unsigned long long)first + count, g->layout.index_count);
    hl_result r = hl__check_indices(fn, g->layout.index_format, data, first, count, g->layout.vertex_count);
    if (r) return r;
    uint32_t is = hl__index_size(g->layout.index_format);
    memcpy(g->indices + (size_t)first * is, data, (size_t)count * is);
    /* GPU copies want 4-byte aligned ranges; the block is padded to 4 and fits 32 bits */
    uint32_t lo = (first * is) & ~3u, hi = ((first + count) * is + 3u) & ~3u;
    hl__mark(g, HL__BLOCK_INDEX, lo, hi);
    return HL_OK;
}

const hl_geometry_layout *hl_geometry_get_layout(const hl_geometry *g) { return g ? &g->layout : NULL; }
const void *hl_geometry_vertex_data(const hl_geometry *g) { return g ? g->vertices : NULL; }
const void *hl_geometry_index_data(const hl_geometry *g) { return g ? g->indices : NULL; }
uint64_t hl_geometry_revision(const hl_geometry *g) { return g ? g->revision : 0; }
hl_aabb hl_geometry_aabb(const hl_geometry *g) { return g ? g->aabb : (hl_aabb){{0, 0, 0}, {0, 0, 0}}; }
hl_sphere hl_geometry_bounding_sphere(const hl_geometry *g) { return g ? g->sphere : (hl_sphere){{0, 0, 0}, 0}; }
const char *hl_geometry_label(const hl_geometry *g) { return g && g->label ? g->label : ""; }

hl_result hl_geometry_read_vertex(const hl_geometry *g, hl_attribute attr, uint32_t i, float out[4]) {
    static const char fn[] = "hl_geometry_read_vertex";
    if (!g || !out) return hl__fail(HL_ERR_VALIDATION, "%s: geometry or out is NULL", fn);
    if ((unsigned)attr >= HL_ATTR_COUNT || !g->layout.attributes[attr].present)
        return hl__fail(HL_ERR_VALIDATION, "%s: attribute %s is absent", fn, hl_attribute_name(attr));
    if (i >= g->layout.vertex_count)
        return hl__fail(HL_ERR_VALIDATION, "%s: vertex %u is not below vertex_count %u", fn, i, g->layout.vertex_count);
    hl__read(g, attr, i, out);
    return HL_OK;
}

hl_upload_kind hl_geometry_vertex_upload(const hl_geometry *g, uint64_t uploaded_revision, hl_dirty_range *range) {
    if (!g) return HL_UPLOAD_NONE;
    return hl__upload_kind(g->changed_at[0], g->dirty_base[0], &g->dirty[0], g->layout.vertex_bytes, uploaded_revision,
                           range);
}

hl_upload_kind hl_geometry_index_upload(const hl_geometry *g, uint64_t uploaded_revision, hl_dirty_range *range) {
    if (!g || !g->layout.index_count) {
        if (range) *range = (hl_dirty_range){0, 0};
        return HL_UPLOAD_NONE;
    }
    return hl__upload_kind(g->changed_at[1], g->dirty_base[1], &g->dirty[1], g->layout.index_bytes, uploaded_revision,
                           range);
}

void hl_geometry_clear_dirty(hl_geometry *g) {
    if (!g) return;
    for (int b = 0; b < 2; ++b) {
        g->dirty_base[b] = g->revision;
        g->dirty[b] = (hl_dirty_range){0, 0};
    }
}

uint32_t hl_geometry_ref_count(const hl_geometry *g) { return g ? g->refs : 0; }
