/* glTF morph targets: each primitive's base attributes and target deltas kept by the asset and
 * blended on the CPU into the primitive's geometry when its weights change
 * (hl_gltf_asset_set_morph_weights, animation weights channels). A primitive without NORMAL was
 * flat-expanded by the loader (each triangle its own three vertices): its deltas stay per source
 * vertex, reached through the expansion's map, and its flat normals (and generated tangents)
 * are recomputed from the blended positions the way the loader made them. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gltf_internal.h"
#include "hilo3d/geometry.h"

static const char *const k_morph_attr[3] = {"POSITION", "NORMAL", "TANGENT"};
static const hl_attribute k_morph_semantic[3] = {HL_ATTR_POSITION, HL_ATTR_NORMAL, HL_ATTR_TANGENT};

static void morph_free(hl__gltf_morph *m) {
    for (int k = 0; k < 3; k++) hl__free(m->base[k]), hl__free(m->delta[k]);
    hl__free(m->scratch);
    hl__free(m->map);
    hl_geometry_release(m->geometry);
    memset(m, 0, sizeof *m);
}

/* Blends attribute k (0 position, 1 normal, 2 tangent) into out (vertex_count * 3 or 4 floats)
 * and the geometry. */
static hl_result blend(hl__gltf_morph *m, int k, float *out) {
    if (!m->base[k]) return HL_OK;
    uint32_t n = m->vertex_count, sn = m->source_count, c = k == 2 ? 4u : 3u;
    for (uint32_t v = 0; v < n; v++) {
        const float *b = m->base[k] + (size_t)v * c;
        float x = b[0], y = b[1], z = b[2];
        uint32_t s = m->map ? m->map[v] : v;
        for (uint32_t t = 0; m->delta[k] && t < m->target_count; t++) {
            float w = m->weights[t];
            if (w == 0.0f) continue;
            const float *d = m->delta[k] + ((size_t)t * sn + s) * 3;
            x += w * d[0], y += w * d[1], z += w * d[2];
        }
        if (k > 0) { /* directions stay unit length */
            float l = sqrtf(x * x + y * y + z * z);
            if (l > 0 && isfinite(l)) x /= l, y /= l, z /= l;
        }
        out[(size_t)v * c] = x, out[(size_t)v * c + 1] = y, out[(size_t)v * c + 2] = z;
        if (c == 4) out[(size_t)v * 4 + 3] = b[3];
    }
    return hl_geometry_update_attribute(m->geometry, k_morph_semantic[k], 0, n, out);
}

/* The geometry's own checks cannot fail here: every attribute written is present, of n vertices. */
static void apply(hl__gltf_morph *m) {
    if (!m->map) {
        for (int k = 0; k < 3; k++) (void)blend(m, k, m->scratch);
        return;
    }
    /* flat-expanded: the blended triangles' own normals (and tangents), as the loader makes them */
    size_t n = m->vertex_count;
    float *pos = m->scratch, *nrm = pos + n * 3, *uv = nrm + n * 3;
    (void)blend(m, 0, pos);
    hl__gltf_flat_normals(pos, m->vertex_count, nrm);
    (void)hl_geometry_update_attribute(m->geometry, HL_ATTR_NORMAL, 0, m->vertex_count, nrm);
    if (m->tangent_uv != UINT32_MAX) {
        float *t4 = uv + n * 2, *bit = t4 + n * 4;
        hl__gltf_make_tangents(pos, nrm, uv, NULL, m->vertex_count, m->vertex_count, t4, bit);
        (void)hl_geometry_update_attribute(m->geometry, HL_ATTR_TANGENT, 0, m->vertex_count, t4);
    } else {
        (void)blend(m, 2, m->scratch); /* the file's tangents (positions and normals are written) */
    }
}

/* Copies attribute `attr` (comps floats a vertex) of g's n vertices into a new block. */
static float *attr_copy(hl_geometry *g, hl_attribute attr, uint32_t comps, uint32_t n) {
    const hl_vertex_attribute_info *ai = &hl_geometry_get_layout(g)->attributes[attr];
    float *f = hl__malloc((size_t)n * comps * 4);
    if (f) memcpy(f, (const uint8_t *)hl_geometry_vertex_data(g) + ai->offset, (size_t)n * comps * 4);
    return f;
}

hl_result hl__gltf_morph_add(const hl__gltf_doc *doc, hl_gltf_asset *a, uint32_t gltf_node, const cJSON *p,
                             const char *path, const float *default_weights, uint32_t weight_count, hl_geometry *g,
                             hl__gltf_flat *flat) {
    const cJSON *targets = cJSON_GetObjectItemCaseSensitive(p, "targets");
    if (!targets) return HL_OK;
    int nt = cJSON_IsArray(targets) ? cJSON_GetArraySize(targets) : -1;
    if (nt < 1) return hl__fail(HL_ERR_PARSE, "glTF: %s.targets must be a non-empty array", path);
    if ((uint32_t)nt > HL__GLTF_MAX_MORPH_TARGETS)
        return hl__fail(HL_ERR_UNSUPPORTED, "glTF: %s has %d morph targets (at most %u)", path, nt, HL__GLTF_MAX_MORPH_TARGETS);
    if (weight_count && weight_count != (uint32_t)nt)
        return hl__fail(HL_ERR_PARSE, "glTF: %s: %u default weights for %d targets", path, weight_count, nt);
    const hl_geometry_layout *l = hl_geometry_get_layout(g);
    hl__gltf_morph *grown = hl__realloc(a->morphs, (a->morph_count + 1u) * sizeof *grown);
    if (!grown) return hl__fail(HL_ERR_OUT_OF_MEMORY, "glTF: %s: morph targets", path);
    a->morphs = grown;
    hl__gltf_morph *m = &a->morphs[a->morph_count];
    memset(m, 0, sizeof *m);
    m->gltf_node = gltf_node;
    m->vertex_count = l->vertex_count;
    m->target_count = (uint32_t)nt;
    bool expanded = flat->map != NULL;
    m->source_count = expanded ? flat->source_count : l->vertex_count;
    m->tangent_uv = expanded ? flat->tangent_uv : UINT32_MAX;
    uint32_t n = l->vertex_count, sn = m->source_count;
    hl_result res = HL_OK;
    for (int k = 0; !res && k < 3; k++) {
        const hl_vertex_attribute_info *ai = &l->attributes[k_morph_semantic[k]];
        if (!ai->present || ai->type != HL_COMPONENT_FLOAT32) continue;
        uint32_t c = k == 2 ? 4u : 3u;
        /* recomputed from the positions instead of blended: a flat primitive's normals and
           generated tangents (their targets' deltas still checked) */
        bool recomputed = expanded && (k == 1 || (k == 2 && m->tangent_uv != UINT32_MAX));
        /* the base: the geometry's own values (the loader stores these three as floats) */
        if (!recomputed && !(m->base[k] = attr_copy(g, k_morph_semantic[k], c, n))) {
            res = hl__fail(HL_ERR_OUT_OF_MEMORY, "glTF: %s: morph base", path);
            break;
        }
        for (int t = 0; !res && t < nt; t++) {
            const cJSON *tg = cJSON_GetArrayItem(targets, t);
            char tpath[128];
            snprintf(tpath, sizeof tpath, "%s.targets[%d]", path, t);
            if (!cJSON_IsObject(tg)) {
                res = hl__fail(HL_ERR_PARSE, "glTF: %s must be an object", tpath);
                break;
            }
            if (!cJSON_GetObjectItemCaseSensitive(tg, k_morph_attr[k])) continue;
            uint64_t acc = 0;
            hl__gltf_accessor_info info;
            if ((res = hl__gltf_get_uint(tg, k_morph_attr[k], tpath, true, 0, UINT32_MAX, &acc)) ||
                (res = hl__gltf_accessor_info_get(doc, (uint32_t)acc, &info)))
                break;
            if (info.components != 3 || info.count != sn) {
                res = hl__fail(HL_ERR_PARSE, "glTF: %s.%s: accessor %llu must hold %u VEC3 (the primitive's vertices)",
                               tpath, k_morph_attr[k], (unsigned long long)acc, sn);
                break;
            }
            if (recomputed) continue;
            if (!m->delta[k] && !(m->delta[k] = hl__calloc((size_t)nt * sn * 3, sizeof(float)))) {
                res = hl__fail(HL_ERR_OUT_OF_MEMORY, "glTF: %s: morph deltas", path);
                break;
            }
            res = hl__gltf_accessor_read_float(doc, (uint32_t)acc, m->delta[k] + (size_t)t * sn * 3, (size_t)sn * 3);
        }
    }
    /* scratch (see hl__gltf_morph); a flat primitive's UV set copied in once */
    size_t floats = !expanded ? 4 : m->tangent_uv == UINT32_MAX ? 6 : 15;
    if (!res && !(m->scratch = hl__malloc((size_t)n * floats * 4))) res = hl__fail(HL_ERR_OUT_OF_MEMORY, "glTF: %s", path);
    if (!res && expanded && m->tangent_uv != UINT32_MAX) /* the set the loader made them from: floats */
        memcpy(m->scratch + (size_t)n * 6,
               (const uint8_t *)hl_geometry_vertex_data(g) + l->attributes[m->tangent_uv].offset, (size_t)n * 8);
    if (res) {
        for (int k = 0; k < 3; k++) hl__free(m->base[k]), hl__free(m->delta[k]);
        hl__free(m->scratch);
        memset(m, 0, sizeof *m);
        return res;
    }
    m->map = flat->map;
    flat->map = NULL;
    hl_geometry_retain(g);
    m->geometry = g;
    a->morph_count++;
    for (uint32_t t = 0; t < weight_count; t++) m->weights[t] = default_weights[t];
    apply(m); /* even at weights 0: the geometry as any later blend at 0 leaves it (normals renormalized) */
    a->report.morph_targets += (uint32_t)nt;
    return HL_OK;
}

void hl__gltf_morph_weights(hl_gltf_asset *a, uint32_t node, const float *weights, uint32_t count) {
    for (uint32_t i = 0; i < a->morph_count; i++) {
        hl__gltf_morph *m = &a->morphs[i];
        if (m->gltf_node != node) continue;
        bool same = true;
        for (uint32_t t = 0; t < m->target_count; t++) {
            float w = t < count && isfinite(weights[t]) ? weights[t] : 0.0f;
            same &= m->weights[t] == w;
            m->weights[t] = w;
        }
        if (!same) apply(m);
    }
}

void hl__gltf_morphs_free(hl_gltf_asset *a) {
    for (uint32_t i = 0; i < a->morph_count; i++) morph_free(&a->morphs[i]);
    hl__free(a->morphs);
    a->morphs = NULL;
    a->morph_count = 0;
}

hl_result hl_gltf_asset_set_morph_weights(hl_gltf_asset *a, uint32_t node, const float *weights, uint32_t count) {
    if (!a) return hl__fail(HL_ERR_VALIDATION, "hl_gltf_asset_set_morph_weights: a is NULL");
    if (count && !weights) return hl__fail(HL_ERR_VALIDATION, "hl_gltf_asset_set_morph_weights: weights is NULL");
    for (uint32_t t = 0; t < count; t++)
        if (!isfinite(weights[t]))
            return hl__fail(HL_ERR_VALIDATION, "hl_gltf_asset_set_morph_weights: weights[%u] is not finite", t);
    hl__gltf_morph_weights(a, node, weights, count);
    return HL_OK;
}

uint32_t hl_gltf_asset_morph_weights(const hl_gltf_asset *a, uint32_t node, float *out, uint32_t max) {
    for (uint32_t i = 0; a && i < a->morph_count; i++) {
        const hl__gltf_morph *m = &a->morphs[i];
        if (m->gltf_node != node) continue;
        uint32_t n = m->target_count < max ? m->target_count : max;
        if (out) memcpy(out, m->weights, n * sizeof(float));
        return m->target_count;
    }
    return 0;
}
