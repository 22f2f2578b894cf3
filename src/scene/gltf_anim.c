/* glTF animations: parsed at load (channels with their keyframes decoded into one block per
 * animation) and sampled into node transforms (include/hilo3d/gltf.h). */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gltf_internal.h"
#include "hilo3d/scene.h"

static const cJSON *obj(const cJSON *o, const char *key) { return cJSON_GetObjectItemCaseSensitive(o, key); }

/* One sampler's accessors, checked: input times (SCALAR floats, non-decreasing, finite) and
 * output values (comps per key, x 3 for CUBICSPLINE). */
typedef struct sampler_info {
    uint32_t input, output, interp, keys, out_comps;
} sampler_info;

static hl_result sampler_get(const hl__gltf_doc *doc, const cJSON *samplers, uint64_t index, const char *apath,
                             sampler_info *out) {
    char path[96];
    snprintf(path, sizeof path, "%s.samplers[%llu]", apath, (unsigned long long)index);
    const cJSON *s = cJSON_GetArrayItem(samplers, (int)index);
    if (index >= (uint64_t)cJSON_GetArraySize(samplers) || !cJSON_IsObject(s))
        return hl__fail(HL_ERR_PARSE, "glTF: %s does not exist", path);
    uint64_t in = 0, outp = 0;
    hl_result res;
    if ((res = hl__gltf_get_uint(s, "input", path, true, 0, UINT32_MAX, &in)) ||
        (res = hl__gltf_get_uint(s, "output", path, true, 0, UINT32_MAX, &outp)))
        return res;
    const cJSON *ip = obj(s, "interpolation");
    out->interp = HL__GLTF_LINEAR;
    if (ip) {
        if (!cJSON_IsString(ip)) return hl__fail(HL_ERR_PARSE, "glTF: %s.interpolation must be a string", path);
        if (!strcmp(ip->valuestring, "STEP")) out->interp = HL__GLTF_STEP;
        else if (!strcmp(ip->valuestring, "CUBICSPLINE")) out->interp = HL__GLTF_CUBIC;
        else if (strcmp(ip->valuestring, "LINEAR"))
            return hl__fail(HL_ERR_PARSE, "glTF: %s.interpolation '%.32s' (STEP, LINEAR or CUBICSPLINE)", path,
                            ip->valuestring);
    }
    hl__gltf_accessor_info ii, oi;
    if ((res = hl__gltf_accessor_info_get(doc, (uint32_t)in, &ii)) || (res = hl__gltf_accessor_info_get(doc, (uint32_t)outp, &oi)))
        return res;
    if (ii.components != 1 || ii.component_type != HL__GLTF_F32)
        return hl__fail(HL_ERR_PARSE, "glTF: %s.input: accessor %llu must be SCALAR floats", path, (unsigned long long)in);
    uint32_t per = out->interp == HL__GLTF_CUBIC ? 3u : 1u;
    if (oi.count % (ii.count * per) != 0 || oi.count / (ii.count * per) * oi.components > 1024u)
        return hl__fail(HL_ERR_PARSE, "glTF: %s.output: %u elements do not fit %u keys%s", path, oi.count, ii.count,
                        per == 3 ? " x 3 (CUBICSPLINE)" : "");
    out->input = (uint32_t)in;
    out->output = (uint32_t)outp;
    out->keys = ii.count;
    out->out_comps = oi.components * (oi.count / (ii.count * per)); /* weights: one scalar per target */
    return HL_OK;
}

static hl_result parse_one(const hl__gltf_doc *doc, hl_gltf_asset *a, uint32_t ai, const cJSON *an, hl_animation *out) {
    char path[48];
    snprintf(path, sizeof path, "animations[%u]", ai);
    if (!cJSON_IsObject(an)) return hl__fail(HL_ERR_PARSE, "glTF: %s is not an object", path);
    out->asset = a;
    const cJSON *channels = obj(an, "channels"), *samplers = obj(an, "samplers");
    if (!cJSON_IsArray(channels) || !cJSON_IsArray(samplers))
        return hl__fail(HL_ERR_PARSE, "glTF: %s needs channels and samplers arrays", path);
    const cJSON *name = obj(an, "name");
    if (cJSON_IsString(name) && !(out->name = hl__strdup(name->valuestring)))
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "glTF: %s", path);
    int nc = cJSON_GetArraySize(channels);
    if (nc > 65536) return hl__fail(HL_ERR_PARSE, "glTF: %s: %d channels (at most 65,536)", path, nc);
    out->channels = hl__calloc(nc ? (size_t)nc : 1, sizeof *out->channels);
    sampler_info *si = hl__calloc(nc ? (size_t)nc : 1, sizeof *si);
    hl_result res = out->channels && si ? HL_OK : hl__fail(HL_ERR_OUT_OF_MEMORY, "glTF: %s", path);
    /* pass 1: validate every channel and count the floats */
    uint64_t floats = 0;
    for (int c = 0; !res && c < nc; c++) {
        char cpath[96];
        snprintf(cpath, sizeof cpath, "%s.channels[%d]", path, c);
        const cJSON *ch = cJSON_GetArrayItem(channels, c), *target = obj(ch, "target");
        if (!cJSON_IsObject(ch) || !cJSON_IsObject(target)) {
            res = hl__fail(HL_ERR_PARSE, "glTF: %s needs a target object", cpath);
            break;
        }
        uint64_t sampler = 0, node = UINT64_MAX;
        char tpath[112];
        snprintf(tpath, sizeof tpath, "%s.target", cpath);
        if ((res = hl__gltf_get_uint(ch, "sampler", cpath, true, 0, UINT32_MAX, &sampler)) ||
            (res = hl__gltf_get_uint(target, "node", tpath, false, UINT64_MAX, UINT32_MAX, &node)))
            break;
        const cJSON *p = obj(target, "path");
        hl__gltf_channel *k = &out->channels[c];
        if (!cJSON_IsString(p)) {
            res = hl__fail(HL_ERR_PARSE, "glTF: %s.path must be a string", tpath);
            break;
        }
        uint32_t want = 0;
        if (!strcmp(p->valuestring, "translation")) k->path = HL__GLTF_PATH_TRANSLATION, want = 3;
        else if (!strcmp(p->valuestring, "rotation")) k->path = HL__GLTF_PATH_ROTATION, want = 4;
        else if (!strcmp(p->valuestring, "scale")) k->path = HL__GLTF_PATH_SCALE, want = 3;
        else if (!strcmp(p->valuestring, "weights")) k->path = HL__GLTF_PATH_WEIGHTS;
        else {
            res = hl__fail(HL_ERR_PARSE, "glTF: %s.path '%.32s' (translation, rotation, scale or weights)", tpath,
                           p->valuestring);
            break;
        }
        if (node != UINT64_MAX && node >= a->node_count) {
            res = hl__fail(HL_ERR_PARSE, "glTF: %s.node %llu (the document has %u nodes)", tpath, (unsigned long long)node,
                           a->node_count);
            break;
        }
        if ((res = sampler_get(doc, samplers, sampler, path, &si[c]))) break;
        if (want && si[c].out_comps != want) {
            res = hl__fail(HL_ERR_PARSE, "glTF: %s: the %s channel's sampler gives %u components per key (%u expected)",
                           cpath, p->valuestring, si[c].out_comps, want);
            break;
        }
        k->node = node == UINT64_MAX ? NULL : a->nodes[node];
        k->node_index = node == UINT64_MAX ? UINT32_MAX : (uint32_t)node;
        k->interp = si[c].interp;
        k->keys = si[c].keys;
        k->comps = si[c].out_comps;
        floats += (uint64_t)k->keys * (1u + k->comps * (k->interp == HL__GLTF_CUBIC ? 3u : 1u));
    }
    if (!res && floats > (64u << 20)) res = hl__fail(HL_ERR_PARSE, "glTF: %s: %llu keyframe values (at most 64 Mi)", path,
                                                     (unsigned long long)floats);
    if (!res && !(out->data = hl__malloc(floats ? (size_t)floats * sizeof(float) : 4)))
        res = hl__fail(HL_ERR_OUT_OF_MEMORY, "glTF: %s: keyframes", path);
    /* pass 2: decode */
    float *at = out->data;
    for (int c = 0; !res && c < nc; c++) {
        hl__gltf_channel *k = &out->channels[c];
        uint32_t vals = k->keys * k->comps * (k->interp == HL__GLTF_CUBIC ? 3u : 1u);
        if ((res = hl__gltf_accessor_read_float(doc, si[c].input, at, k->keys)) ||
            (res = hl__gltf_accessor_read_float(doc, si[c].output, at + k->keys, vals)))
            break;
        for (uint32_t i = 0; !res && i < k->keys; i++) {
            if (!isfinite(at[i]) || at[i] < 0 || (i && at[i] < at[i - 1]))
                res = hl__fail(HL_ERR_PARSE, "glTF: %s.channels[%d]: its sampler's input key %u has time %g (times are "
                               "finite, >= 0 and non-decreasing)", path, c, i, (double)at[i]);
        }
        for (uint32_t i = 0; !res && i < vals; i++)
            if (!isfinite(at[k->keys + i]))
                res = hl__fail(HL_ERR_PARSE, "glTF: %s.channels[%d]: output value %u is not finite", path, c, i);
        if (res) break;
        k->times = at;
        k->values = at + k->keys;
        if (k->keys && at[k->keys - 1] > out->duration) out->duration = at[k->keys - 1];
        at += k->keys + vals;
    }
    out->channel_count = res ? 0 : (uint32_t)nc;
    hl__free(si);
    return res;
}

hl_result hl__gltf_animations_parse(const hl__gltf_doc *doc, hl_gltf_asset *a) {
    const cJSON *anims = obj(doc->json, "animations");
    if (!anims) return HL_OK;
    if (!cJSON_IsArray(anims)) return hl__fail(HL_ERR_PARSE, "glTF: animations must be an array");
    int n = cJSON_GetArraySize(anims);
    if (!n) return HL_OK;
    if (n > 65536) return hl__fail(HL_ERR_PARSE, "glTF: %d animations (at most 65,536)", n);
    a->animations = hl__calloc((size_t)n, sizeof *a->animations);
    if (!a->animations) return hl__fail(HL_ERR_OUT_OF_MEMORY, "glTF: animations");
    a->animation_count = (uint32_t)n;
    for (int i = 0; i < n; i++) {
        hl_result res = parse_one(doc, a, (uint32_t)i, cJSON_GetArrayItem(anims, i), &a->animations[i]);
        if (res) return res;
    }
    return HL_OK;
}

void hl__gltf_animations_free(hl_gltf_asset *a) {
    for (uint32_t i = 0; i < a->animation_count; i++) {
        hl__free(a->animations[i].name);
        hl__free(a->animations[i].channels);
        hl__free(a->animations[i].data);
    }
    hl__free(a->animations);
    a->animations = NULL;
    a->animation_count = 0;
}

/* ---- sampling ---------------------------------------------------------------------------------- */
static void slerp(const float *a, const float *b, float s, float *out) {
    float d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3], sign = 1.0f;
    if (d < 0) d = -d, sign = -1.0f; /* the shorter arc */
    float wa, wb;
    if (d > 0.9995f) {
        wa = 1.0f - s, wb = s;
    } else {
        float th = acosf(d), sn = sinf(th);
        wa = sinf((1.0f - s) * th) / sn, wb = sinf(s * th) / sn;
    }
    for (int i = 0; i < 4; i++) out[i] = wa * a[i] + sign * wb * b[i];
}

/* The value of channel k at time t into out (k->comps floats). */
static void sample(const hl__gltf_channel *k, float t, float *out) {
    uint32_t n = k->keys, c = k->comps, per = k->interp == HL__GLTF_CUBIC ? 3u : 1u, mid = per == 3 ? 1u : 0u;
    const float *v = k->values;
    if (t <= k->times[0] || n == 1) {
        memcpy(out, v + (size_t)mid * c, c * sizeof(float));
        return;
    }
    if (t >= k->times[n - 1]) {
        memcpy(out, v + ((size_t)(n - 1) * per + mid) * c, c * sizeof(float));
        return;
    }
    uint32_t lo = 0, hi = n - 1; /* times[lo] <= t < times[hi] */
    while (hi - lo > 1) {
        uint32_t m = (lo + hi) / 2;
        if (k->times[m] <= t) lo = m;
        else hi = m;
    }
    float t0 = k->times[lo], td = k->times[hi] - t0, s = td > 0 ? (t - t0) / td : 0.0f;
    const float *a = v + ((size_t)lo * per + mid) * c, *b = v + ((size_t)hi * per + mid) * c;
    if (k->interp == HL__GLTF_STEP) {
        memcpy(out, a, c * sizeof(float));
    } else if (k->interp == HL__GLTF_LINEAR) {
        if (k->path == HL__GLTF_PATH_ROTATION) slerp(a, b, s, out);
        else
            for (uint32_t i = 0; i < c; i++) out[i] = a[i] + (b[i] - a[i]) * s;
    } else {
        const float *out_tan = a + c, *in_tan = b - c; /* b_k (after v_k), a_k+1 (before v_k+1) */
        float s2 = s * s, s3 = s2 * s;
        float h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2;
        for (uint32_t i = 0; i < c; i++) out[i] = h00 * a[i] + h10 * td * out_tan[i] + h01 * b[i] + h11 * td * in_tan[i];
    }
    if (k->path == HL__GLTF_PATH_ROTATION) {
        float len = sqrtf(out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]);
        if (len > 0) for (int i = 0; i < 4; i++) out[i] /= len;
    }
}

hl_result hl_animation_apply(hl_animation *anim, float t, hl_animation_wrap wrap) {
    if (!anim) return hl__fail(HL_ERR_VALIDATION, "hl_animation_apply: anim is NULL");
    if (!isfinite(t)) return hl__fail(HL_ERR_VALIDATION, "hl_animation_apply: t is not finite");
    if (wrap == HL_ANIMATION_LOOP && anim->duration > 0) {
        t = fmodf(t, anim->duration);
        if (t < 0) t += anim->duration;
    }
    for (uint32_t i = 0; i < anim->channel_count; i++) {
        const hl__gltf_channel *k = &anim->channels[i];
        if (!k->node || !k->keys) continue;
        if (k->path == HL__GLTF_PATH_WEIGHTS) { /* the node's morph targets */
            float w[HL__GLTF_MAX_MORPH_TARGETS];
            if (k->comps > HL__GLTF_MAX_MORPH_TARGETS) continue;
            sample(k, t, w);
            hl__gltf_morph_weights(anim->asset, k->node_index, w, k->comps);
            continue;
        }
        float v[4];
        sample(k, t, v);
        if (k->path == HL__GLTF_PATH_TRANSLATION) hl_node_set_translation(k->node, (hl_vec3){v[0], v[1], v[2]});
        else if (k->path == HL__GLTF_PATH_SCALE) hl_node_set_scale(k->node, (hl_vec3){v[0], v[1], v[2]});
        else hl_node_set_rotation(k->node, (hl_quat){v[0], v[1], v[2], v[3]});
    }
    return HL_OK;
}

hl_result hl_animations_apply(hl_animation *const *anims, uint32_t count, float t, hl_animation_wrap wrap) {
    if (count && !anims) return hl__fail(HL_ERR_VALIDATION, "hl_animations_apply: anims is NULL");
    for (uint32_t i = 0; i < count; i++) {
        hl_result res = hl_animation_apply(anims[i], t, wrap);
        if (res) return res;
    }
    return HL_OK;
}

uint32_t hl_gltf_asset_animation_count(const hl_gltf_asset *a) { return a ? a->animation_count : 0; }

hl_animation *hl_gltf_asset_animation(hl_gltf_asset *a, uint32_t index) {
    return a && index < a->animation_count ? &a->animations[index] : NULL;
}

hl_animation *hl_gltf_asset_find_animation(hl_gltf_asset *a, const char *name) {
    for (uint32_t i = 0; a && name && i < a->animation_count; i++)
        if (a->animations[i].name && !strcmp(a->animations[i].name, name)) return &a->animations[i];
    return NULL;
}

const char *hl_animation_name(const hl_animation *anim) { return anim && anim->name ? anim->name : ""; }
float hl_animation_duration(const hl_animation *anim) { return anim ? anim->duration : 0.0f; }
uint32_t hl_animation_channel_count(const hl_animation *anim) { return anim ? anim->channel_count : 0; }
