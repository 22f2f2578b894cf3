/* glTF 2.0 loader: the document (gltf_data.c) built into nodes, meshes, materials, textures,
 * cameras and lights (include/hilo3d/gltf.h). */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gltf_internal.h"
#include "hilo3d/gltf.h"
#include "hilo3d/material.h"
#include "hilo3d/texture.h"

/* Extensions the loader implements (a required one outside this list fails the load). */
static const char *const k_supported_ext[] = {"KHR_mesh_quantization", "KHR_materials_unlit",
                                              "KHR_materials_emissive_strength", "KHR_lights_punctual",
                                              "KHR_texture_transform"};

/* The load's working state. */
typedef struct loader {
    hl__gltf_doc doc;
    hl_gltf_asset *a;
    size_t decode_limit;
    hl_material **materials; /* per glTF material, built on first use; [count] = the default */
    uint32_t material_count;
    hl_texture **textures; /* per glTF texture x 2 (sRGB, linear), built on first use */
    uint32_t texture_count;
    uint8_t *visiting; /* node cycle check: 1 on the current path, 2 done */
    hl_light_desc *lights;
    uint32_t light_count;
} loader;

static const cJSON *obj(const cJSON *o, const char *key) { return cJSON_GetObjectItemCaseSensitive(o, key); }

static int array_size(const cJSON *root, const char *name) {
    const cJSON *a = obj(root, name);
    return cJSON_IsArray(a) ? cJSON_GetArraySize(a) : 0;
}

/* A number member (absent: def); HL_ERR_PARSE naming path.key when it is not a finite number. */
static hl_result get_float(const cJSON *o, const char *key, const char *path, float def, float *out) {
    const cJSON *v = obj(o, key);
    if (!v) {
        *out = def;
        return HL_OK;
    }
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || fabs(v->valuedouble) > 3.0e38)
        return hl__fail(HL_ERR_PARSE, "glTF: %s.%s must be a finite number", path, key);
    *out = (float)v->valuedouble;
    return HL_OK;
}

/* An array member of exactly n finite numbers (absent: out left as is). */
static hl_result get_floats(const cJSON *o, const char *key, const char *path, uint32_t n, float *out) {
    const cJSON *v = obj(o, key);
    if (!v) return HL_OK;
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != (int)n)
        return hl__fail(HL_ERR_PARSE, "glTF: %s.%s must be an array of %u numbers", path, key, n);
    for (uint32_t i = 0; i < n; i++) {
        const cJSON *e = cJSON_GetArrayItem(v, (int)i);
        if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble) || fabs(e->valuedouble) > 3.0e38)
            return hl__fail(HL_ERR_PARSE, "glTF: %s.%s[%u] must be a finite number", path, key, i);
        out[i] = (float)e->valuedouble;
    }
    return HL_OK;
}

static bool is_supported(const char *ext) {
    for (size_t i = 0; i < sizeof k_supported_ext / sizeof k_supported_ext[0]; i++)
        if (!strcmp(ext, k_supported_ext[i])) return true;
    return false;
}

static void list_add(char *list, size_t size, const char *name) {
    size_t n = strlen(list);
    if (n + 4 >= size || !strcmp(list + (n >= 3 ? n - 3 : 0), "...")) return;
    int w = snprintf(list + n, size - n, "%s%s", n ? "," : "", name);
    if (w < 0 || (size_t)w >= size - n) snprintf(list + (size > 4 ? size - 4 : 0), 4, "...");
}

/* extensionsRequired must name only implemented extensions; extensionsUsed goes to the report. */
static hl_result check_extensions(loader *L) {
    const cJSON *req = obj(L->doc.json, "extensionsRequired"), *used = obj(L->doc.json, "extensionsUsed");
    if (req && !cJSON_IsArray(req)) return hl__fail(HL_ERR_PARSE, "glTF: extensionsRequired must be an array");
    if (used && !cJSON_IsArray(used)) return hl__fail(HL_ERR_PARSE, "glTF: extensionsUsed must be an array");
    const cJSON *e;
    cJSON_ArrayForEach(e, req) {
        if (!cJSON_IsString(e)) return hl__fail(HL_ERR_PARSE, "glTF: extensionsRequired holds a non-string");
        if (!is_supported(e->valuestring))
            return hl__fail(HL_ERR_UNSUPPORTED, "glTF: the required extension %.64s is outside what the loader supports",
                            e->valuestring);
    }
    cJSON_ArrayForEach(e, used) {
        if (!cJSON_IsString(e)) return hl__fail(HL_ERR_PARSE, "glTF: extensionsUsed holds a non-string");
        list_add(L->a->report.extensions_used, sizeof L->a->report.extensions_used, e->valuestring);
        if (!is_supported(e->valuestring))
            list_add(L->a->report.extensions_ignored, sizeof L->a->report.extensions_ignored, e->valuestring);
    }
    return HL_OK;
}

/* ---- textures ----------------------------------------------------------------------------------- */
static hl_wrap wrap_of(uint64_t v) { return v == 33071 ? HL_WRAP_CLAMP : v == 33648 ? HL_WRAP_MIRROR : HL_WRAP_REPEAT; }

/* textures[index] as a texture of the given colour space (built once per space). */
static hl_result texture_get(loader *L, uint64_t index, bool srgb, const char *path, hl_texture **out) {
    hl_result res;
    char tpath[48];
    snprintf(tpath, sizeof tpath, "textures[%llu]", (unsigned long long)index);
    const cJSON *t = hl__gltf_array_item(L->doc.json, "textures", index, path, &res);
    if (!t) return res;
    hl_texture **slot = &L->textures[index * 2 + (srgb ? 0 : 1)];
    if (*slot) {
        *out = *slot;
        return HL_OK;
    }
    uint64_t source = 0, sampler = UINT64_MAX;
    if ((res = hl__gltf_get_uint(t, "source", tpath, true, 0, UINT32_MAX, &source)) ||
        (res = hl__gltf_get_uint(t, "sampler", tpath, false, UINT64_MAX, UINT32_MAX, &sampler)))
        return res;
    hl_texture_desc td = {0};
    td.color_space = srgb ? HL_COLOR_SPACE_SRGB : HL_COLOR_SPACE_LINEAR;
    td.decode_limit = L->decode_limit;
    if (sampler != UINT64_MAX) {
        char spath[48];
        snprintf(spath, sizeof spath, "samplers[%llu]", (unsigned long long)sampler);
        const cJSON *s = hl__gltf_array_item(L->doc.json, "samplers", sampler, tpath, &res);
        if (!s) return res;
        uint64_t mag = 9729, min = 9987, ws = 10497, wt = 10497;
        if ((res = hl__gltf_get_uint(s, "magFilter", spath, false, 9729, 65535, &mag)) ||
            (res = hl__gltf_get_uint(s, "minFilter", spath, false, 9987, 65535, &min)) ||
            (res = hl__gltf_get_uint(s, "wrapS", spath, false, 10497, 65535, &ws)) ||
            (res = hl__gltf_get_uint(s, "wrapT", spath, false, 10497, 65535, &wt)))
            return res;
        if ((mag != 9728 && mag != 9729) || (min != 9728 && min != 9729 && (min < 9984 || min > 9987)))
            return hl__fail(HL_ERR_PARSE, "glTF: %s: magFilter %llu / minFilter %llu is not a glTF filter", spath,
                            (unsigned long long)mag, (unsigned long long)min);
        for (int k = 0; k < 2; k++) {
            uint64_t w = k ? wt : ws;
            if (w != 33071 && w != 33648 && w != 10497)
                return hl__fail(HL_ERR_PARSE, "glTF: %s.%s %llu is not a glTF wrap mode", spath, k ? "wrapT" : "wrapS",
                                (unsigned long long)w);
        }
        td.sampler.mag_filter = mag == 9728 ? HL_FILTER_NEAREST : HL_FILTER_LINEAR;
        /* 9984 NEAREST_MIPMAP_NEAREST, 9985 LINEAR_MIPMAP_NEAREST, 9986 NEAREST_MIPMAP_LINEAR,
           9987 LINEAR_MIPMAP_LINEAR; 9728 / 9729 sample level 0 only */
        td.sampler.min_filter = (min == 9728 || min == 9984 || min == 9986) ? HL_FILTER_NEAREST : HL_FILTER_LINEAR;
        td.sampler.mip_filter = (min == 9984 || min == 9985) ? HL_FILTER_NEAREST : HL_FILTER_LINEAR;
        if (min == 9728 || min == 9729) td.mipmaps = HL_MIPMAPS_NONE;
        td.sampler.wrap_u = wrap_of(ws);
        td.sampler.wrap_v = wrap_of(wt);
    }
    const uint8_t *bytes;
    uint64_t size;
    uint8_t *owned;
    size_t limit = L->decode_limit ? L->decode_limit : HL_TEXTURE_DECODE_LIMIT_DEFAULT;
    if ((res = hl__gltf_image_bytes(&L->doc, (uint32_t)source, limit, &bytes, &size, &owned))) return res;
    char label[48];
    snprintf(label, sizeof label, "images[%llu]", (unsigned long long)source);
    td.label = label;
    res = hl_texture_load_memory(bytes, (size_t)size, &td, slot);
    hl__free(owned);
    if (res) {
        char msg[300];
        snprintf(msg, sizeof msg, "%s", hl_last_error());
        return hl__fail(res, "glTF: %s (images[%llu]): %s", path, (unsigned long long)source, msg);
    }
    L->a->report.textures++;
    *out = *slot;
    return HL_OK;
}

/* A textureInfo object: the texture (colour space srgb), its texCoord set (0 or 1) and its
 * KHR_texture_transform (*xf, has_xf; the extension's texCoord replaces the info's). */
static hl_result texture_info(loader *L, const cJSON *info, const char *path, bool srgb, hl_texture_ref *out,
                                 hl_uv_transform *xf, bool *has_xf) {
    if (!info) return HL_OK;
    if (!cJSON_IsObject(info)) return hl__fail(HL_ERR_PARSE, "glTF: %s must be an object", path);
    uint64_t index = 0, tc = 0;
    hl_result res;
    if ((res = hl__gltf_get_uint(info, "index", path, true, 0, UINT32_MAX, &index)) ||
        (res = hl__gltf_get_uint(info, "texCoord", path, false, 0, UINT32_MAX, &tc)))
        return res;
    const cJSON *ext = obj(info, "extensions");
    const cJSON *tt = cJSON_IsObject(ext) ? obj(ext, "KHR_texture_transform") : NULL;
    if (tt) {
        char xpath[192];
        snprintf(xpath, sizeof xpath, "%s.extensions.KHR_texture_transform", path);
        if (!cJSON_IsObject(tt)) return hl__fail(HL_ERR_PARSE, "glTF: %s must be an object", xpath);
        memset(xf, 0, sizeof *xf);
        xf->scale[0] = xf->scale[1] = 1.0f;
        if ((res = get_floats(tt, "offset", xpath, 2, xf->offset)) || (res = get_float(tt, "rotation", xpath, 0, &xf->rotation)) ||
            (res = get_floats(tt, "scale", xpath, 2, xf->scale)) ||
            (res = hl__gltf_get_uint(tt, "texCoord", xpath, false, tc, UINT32_MAX, &tc)))
            return res;
        if (xf->scale[0] == 0 && xf->scale[1] == 0) xf->scale[0] = 1e-30f; /* a zero scale, not hl's "default" */
        *has_xf = true;
    }
    if (tc > 1) return hl__fail(HL_ERR_UNSUPPORTED, "glTF: %s.texCoord %llu (TEXCOORD_0 and _1 only)", path, (unsigned long long)tc);
    char ipath[128];
    snprintf(ipath, sizeof ipath, "%s.index", path);
    if ((res = texture_get(L, index, srgb, ipath, &out->texture))) return res;
    out->texcoord = (uint32_t)tc;
    return HL_OK;
}

/* ---- materials ---------------------------------------------------------------------------------- */
static hl_result material_state(const cJSON *m, const char *path, hl_material_state *st) {
    const cJSON *mode = obj(m, "alphaMode");
    if (mode) {
        if (!cJSON_IsString(mode)) return hl__fail(HL_ERR_PARSE, "glTF: %s.alphaMode must be a string", path);
        if (!strcmp(mode->valuestring, "OPAQUE")) st->alpha_mode = HL_ALPHA_OPAQUE;
        else if (!strcmp(mode->valuestring, "MASK")) st->alpha_mode = HL_ALPHA_MASK;
        else if (!strcmp(mode->valuestring, "BLEND")) st->alpha_mode = HL_ALPHA_BLEND;
        else return hl__fail(HL_ERR_PARSE, "glTF: %s.alphaMode '%.32s' (OPAQUE, MASK or BLEND)", path, mode->valuestring);
    }
    hl_result res = get_float(m, "alphaCutoff", path, 0.5f, &st->alpha_cutoff);
    if (res) return res;
    if (st->alpha_cutoff < 0.0f) return hl__fail(HL_ERR_PARSE, "glTF: %s.alphaCutoff must be >= 0", path);
    if (st->alpha_mode == HL_ALPHA_MASK && st->alpha_cutoff == 0.0f) st->alpha_cutoff = 1e-6f; /* 0 would mean 0.5 */
    const cJSON *ds = obj(m, "doubleSided");
    if (ds && !cJSON_IsBool(ds)) return hl__fail(HL_ERR_PARSE, "glTF: %s.doubleSided must be a boolean", path);
    st->double_sided = cJSON_IsTrue(ds);
    return HL_OK;
}

static hl_result material_build(loader *L, uint64_t index, hl_material **out) {
    char path[48];
    snprintf(path, sizeof path, "materials[%llu]", (unsigned long long)index);
    hl_result res;
    const cJSON *m = hl__gltf_array_item(L->doc.json, "materials", index, path, &res);
    if (!m) return res;
    const cJSON *ext = obj(m, "extensions");
    const cJSON *pbr = obj(m, "pbrMetallicRoughness");
    if (pbr && !cJSON_IsObject(pbr)) return hl__fail(HL_ERR_PARSE, "glTF: %s.pbrMetallicRoughness must be an object", path);
    char ppath[96], tpath[128];
    snprintf(ppath, sizeof ppath, "%s.pbrMetallicRoughness", path);
    float base[4] = {1, 1, 1, 1};
    if ((res = get_floats(pbr, "baseColorFactor", ppath, 4, base))) return res;
    hl_material_state st = {0};
    if ((res = material_state(m, path, &st))) return res;
    hl_texture_ref base_tex = {0};
    hl_uv_transform xf[HL_TEXTURE_SLOT_COUNT];
    bool has_xf[HL_TEXTURE_SLOT_COUNT] = {0};
    snprintf(tpath, sizeof tpath, "%s.baseColorTexture", ppath);
    if ((res = texture_info(L, obj(pbr, "baseColorTexture"), tpath, true, &base_tex, &xf[0], &has_xf[0]))) return res;
    const cJSON *name = obj(m, "name");
    const char *label = cJSON_IsString(name) ? name->valuestring : path;
    if (cJSON_IsObject(ext) && obj(ext, "KHR_materials_unlit")) {
        hl_basic_material_desc bd = {0};
        bd.color = (hl_color){base[0], base[1], base[2], base[3]};
        bd.texture = base_tex;
        bd.state = st;
        bd.label = label;
        if ((res = hl_material_create_basic(&bd, out))) return res;
        return has_xf[0] ? hl_material_set_uv_transform(*out, HL_TEXTURE_BASE_COLOR, &xf[0]) : HL_OK;
    }
    hl_pbr_material_desc pd = {0};
    pd.base_color = (hl_color){base[0], base[1], base[2], base[3]};
    pd.textures[HL_TEXTURE_BASE_COLOR] = base_tex;
    float metallic = 1.0f, roughness = 1.0f, emissive[3] = {0, 0, 0}, strength = 1.0f;
    if ((res = get_float(pbr, "metallicFactor", ppath, 1.0f, &metallic)) ||
        (res = get_float(pbr, "roughnessFactor", ppath, 1.0f, &roughness)) ||
        (res = get_floats(m, "emissiveFactor", path, 3, emissive)))
        return res;
    if (metallic < 0 || metallic > 1 || roughness < 0 || roughness > 1)
        return hl__fail(HL_ERR_PARSE, "glTF: %s: metallicFactor and roughnessFactor must be in [0, 1]", ppath);
    const cJSON *es = cJSON_IsObject(ext) ? obj(ext, "KHR_materials_emissive_strength") : NULL;
    if (es) {
        char epath[128];
        snprintf(epath, sizeof epath, "%s.extensions.KHR_materials_emissive_strength", path);
        if ((res = get_float(es, "emissiveStrength", epath, 1.0f, &strength))) return res;
        if (strength < 0) return hl__fail(HL_ERR_PARSE, "glTF: %s.emissiveStrength must be >= 0", epath);
    }
    pd.metallic = metallic;
    pd.roughness = roughness > 0 ? roughness : 1.0f; /* 0 is set exactly below */
    pd.emissive = (hl_vec3){emissive[0] * strength, emissive[1] * strength, emissive[2] * strength};
    snprintf(tpath, sizeof tpath, "%s.metallicRoughnessTexture", ppath);
    if ((res = texture_info(L, obj(pbr, "metallicRoughnessTexture"), tpath, false,
                               &pd.textures[HL_TEXTURE_METALLIC_ROUGHNESS], &xf[1], &has_xf[1])))
        return res;
    const cJSON *nt = obj(m, "normalTexture"), *ot = obj(m, "occlusionTexture");
    snprintf(tpath, sizeof tpath, "%s.normalTexture", path);
    if ((res = texture_info(L, nt, tpath, false, &pd.textures[HL_TEXTURE_NORMAL], &xf[2], &has_xf[2])) ||
        (res = get_float(nt, "scale", tpath, 1.0f, &pd.normal_scale)))
        return res;
    snprintf(tpath, sizeof tpath, "%s.occlusionTexture", path);
    if ((res = texture_info(L, ot, tpath, false, &pd.textures[HL_TEXTURE_OCCLUSION], &xf[3], &has_xf[3])) ||
        (res = get_float(ot, "strength", tpath, 1.0f, &pd.occlusion_strength)))
        return res;
    snprintf(tpath, sizeof tpath, "%s.emissiveTexture", path);
    if ((res = texture_info(L, obj(m, "emissiveTexture"), tpath, true, &pd.textures[HL_TEXTURE_EMISSIVE], &xf[4],
                               &has_xf[4])))
        return res;
    pd.state = st;
    pd.label = label;
    if ((res = hl_material_create_pbr(&pd, out))) return res;
    if (roughness == 0.0f) hl_material_set_metallic_roughness(*out, metallic, 0.0f);
    for (int t = 0; !res && t < HL_TEXTURE_SLOT_COUNT; t++)
        if (has_xf[t]) res = hl_material_set_uv_transform(*out, (hl_texture_slot)t, &xf[t]);
    return res;
}

/* The material of a primitive (index UINT64_MAX: glTF's default material), built once. */
static hl_result material_get(loader *L, uint64_t index, hl_material **out) {
    uint32_t slot = index == UINT64_MAX ? L->material_count : (uint32_t)index;
    if (index != UINT64_MAX && index >= L->material_count) {
        char path[48];
        snprintf(path, sizeof path, "materials[%llu]", (unsigned long long)index);
        hl_result res;
        (void)hl__gltf_array_item(L->doc.json, "materials", index, path, &res);
        return res;
    }
    if (!L->materials[slot]) {
        hl_result res;
        if (index == UINT64_MAX) {
            hl_pbr_material_desc pd = {0};
            pd.metallic = 1.0f;
            pd.roughness = 1.0f;
            pd.label = "glTF default material";
            res = hl_material_create_pbr(&pd, &L->materials[slot]);
        } else {
            res = material_build(L, index, &L->materials[slot]);
        }
        if (res) return res;
        L->a->report.materials++;
    }
    *out = L->materials[slot];
    return HL_OK;
}

/* ---- nodes -------------------------------------------------------------------------------------- */
/* A column-major matrix as T * R * S (a mirroring matrix negates the x scale). */
static void decompose(const float m[16], hl_vec3 *t, hl_quat *r, hl_vec3 *s) {
    *t = (hl_vec3){m[12], m[13], m[14]};
    float c[3][3];
    float sx = sqrtf(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]), sy = sqrtf(m[4] * m[4] + m[5] * m[5] + m[6] * m[6]),
          sz = sqrtf(m[8] * m[8] + m[9] * m[9] + m[10] * m[10]);
    float det = m[0] * (m[5] * m[10] - m[6] * m[9]) - m[4] * (m[1] * m[10] - m[2] * m[9]) + m[8] * (m[1] * m[6] - m[2] * m[5]);
    if (det < 0) sx = -sx;
    float sc[3] = {sx, sy, sz};
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++) c[j][i] = sc[j] != 0 ? m[j * 4 + i] / sc[j] : (i == j ? 1.0f : 0.0f);
    /* rotation matrix (columns c[j]) to quaternion */
    float tr = c[0][0] + c[1][1] + c[2][2];
    hl_quat q;
    if (tr > 0) {
        float k = sqrtf(tr + 1.0f) * 2.0f;
        q = (hl_quat){(c[1][2] - c[2][1]) / k, (c[2][0] - c[0][2]) / k, (c[0][1] - c[1][0]) / k, 0.25f * k};
    } else if (c[0][0] > c[1][1] && c[0][0] > c[2][2]) {
        float k = sqrtf(1.0f + c[0][0] - c[1][1] - c[2][2]) * 2.0f;
        q = (hl_quat){0.25f * k, (c[1][0] + c[0][1]) / k, (c[2][0] + c[0][2]) / k, (c[1][2] - c[2][1]) / k};
    } else if (c[1][1] > c[2][2]) {
        float k = sqrtf(1.0f + c[1][1] - c[0][0] - c[2][2]) * 2.0f;
        q = (hl_quat){(c[1][0] + c[0][1]) / k, 0.25f * k, (c[2][1] + c[1][2]) / k, (c[2][0] - c[0][2]) / k};
    } else {
        float k = sqrtf(1.0f + c[2][2] - c[0][0] - c[1][1]) * 2.0f;
        q = (hl_quat){(c[2][0] + c[0][2]) / k, (c[2][1] + c[1][2]) / k, 0.25f * k, (c[0][1] - c[1][0]) / k};
    }
    *r = hl_quat_normalize(q);
    *s = (hl_vec3){sx, sy, sz};
}

static hl_result add_child(hl_node *parent, hl_node *child) {
    hl_result res = hl_node_add_child(parent, child);
    if (res) hl_node_destroy(child);
    return res;
}

static hl_result build_mesh(loader *L, hl_node *n, uint32_t node_index, uint64_t mesh, const char *npath) {
    char path[48];
    snprintf(path, sizeof path, "meshes[%llu]", (unsigned long long)mesh);
    hl_result res;
    const cJSON *m = hl__gltf_array_item(L->doc.json, "meshes", mesh, npath, &res);
    if (!m) return res;
    const cJSON *prims = obj(m, "primitives");
    if (!cJSON_IsArray(prims) || !cJSON_GetArraySize(prims))
        return hl__fail(HL_ERR_PARSE, "glTF: %s.primitives must be a non-empty array", path);
    int np = cJSON_GetArraySize(prims);
    /* morph weights: the node's, else the mesh's */
    float weights[HL__GLTF_MAX_MORPH_TARGETS];
    uint32_t wn = 0;
    const cJSON *wl = obj(cJSON_GetArrayItem(obj(L->doc.json, "nodes"), (int)node_index), "weights");
    if (!wl) wl = obj(m, "weights");
    if (wl) {
        int c = cJSON_IsArray(wl) ? cJSON_GetArraySize(wl) : -1;
        if (c < 0 || (uint32_t)c > HL__GLTF_MAX_MORPH_TARGETS)
            return hl__fail(HL_ERR_PARSE, "glTF: %s (or its node).weights must be an array of at most %u numbers", path,
                            HL__GLTF_MAX_MORPH_TARGETS);
        for (int k = 0; k < c; k++) {
            const cJSON *e = cJSON_GetArrayItem(wl, k);
            if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble))
                return hl__fail(HL_ERR_PARSE, "glTF: %s.weights[%d] must be a finite number", path, k);
            weights[k] = (float)e->valuedouble;
        }
        wn = (uint32_t)c;
    }
    for (int i = 0; i < np; i++) {
        char ppath[80];
        snprintf(ppath, sizeof ppath, "%s.primitives[%d]", path, i);
        const cJSON *p = cJSON_GetArrayItem(prims, i);
        if (!cJSON_IsObject(p)) return hl__fail(HL_ERR_PARSE, "glTF: %s must be an object", ppath);
        uint64_t mi = UINT64_MAX;
        if ((res = hl__gltf_get_uint(p, "material", ppath, false, UINT64_MAX, UINT32_MAX, &mi))) return res;
        hl_material *mat = NULL;
        if ((res = material_get(L, mi, &mat))) return res;
        hl_geometry *g = NULL;
        uint32_t ntc = UINT32_MAX;
        if (!hl_material_get_texture(mat, HL_TEXTURE_NORMAL, &ntc)) ntc = UINT32_MAX;
        /* morph targets: their deltas are per source vertex, so a flat-expanded primitive's map too */
        bool morphed = obj(p, "targets") != NULL;
        hl__gltf_flat flat = {0};
        if ((res = hl__gltf_primitive_geometry_ex(&L->doc, (uint32_t)mesh, (uint32_t)i, ntc, &g, morphed ? &flat : NULL)))
            return res;
        const hl_geometry_layout *gl = hl_geometry_get_layout(g);
        if (morphed) res = hl__gltf_morph_add(&L->doc, L->a, node_index, p, ppath, weights, wn, g, &flat);
        hl__free(flat.map);
        if (res) {
            hl_geometry_release(g);
            return res;
        }
        hl_mesh_desc md = {0};
        md.geometry = g;
        md.material = mat;
        md.name = ppath;
        hl_mesh *hm = NULL;
        res = hl_mesh_create(&md, &hm);
        if (!res && gl->topology == HL_TOPOLOGY_TRIANGLES)
            L->a->report.triangles += (gl->index_count ? gl->index_count : gl->vertex_count) / 3u;
        hl_geometry_release(g);
        if (res || (res = add_child(n, hl_mesh_node(hm)))) return res;
        L->a->report.meshes++;
    }
    return HL_OK;
}

static hl_result build_camera(loader *L, hl_node *n, uint64_t index, const char *npath) {
    char path[48];
    snprintf(path, sizeof path, "cameras[%llu]", (unsigned long long)index);
    hl_result res;
    const cJSON *c = hl__gltf_array_item(L->doc.json, "cameras", index, npath, &res);
    if (!c) return res;
    const cJSON *type = obj(c, "type");
    if (!cJSON_IsString(type)) return hl__fail(HL_ERR_PARSE, "glTF: %s.type must be a string", path);
    hl_camera_desc cd = {0};
    const cJSON *name = obj(c, "name");
    cd.name = cJSON_IsString(name) ? name->valuestring : NULL;
    char ppath[80];
    if (!strcmp(type->valuestring, "perspective")) {
        snprintf(ppath, sizeof ppath, "%s.perspective", path);
        const cJSON *p = obj(c, "perspective");
        if (!cJSON_IsObject(p)) return hl__fail(HL_ERR_PARSE, "glTF: %s must be an object", ppath);
        float yfov = 0, aspect = 0, znear = 0, zfar = 0;
        if ((res = get_float(p, "yfov", ppath, 0, &yfov)) || (res = get_float(p, "aspectRatio", ppath, 0, &aspect)) ||
            (res = get_float(p, "znear", ppath, 0, &znear)) || (res = get_float(p, "zfar", ppath, 0, &zfar)))
            return res;
        if (!(yfov > 0 && yfov < 3.14159f) || !(znear > 0) || aspect < 0 || (zfar != 0 && zfar <= znear))
            return hl__fail(HL_ERR_PARSE, "glTF: %s: yfov in (0, pi), znear > 0, zfar > znear, aspectRatio > 0 needed", ppath);
        cd.projection = HL_PROJECTION_PERSPECTIVE;
        cd.fov_y_deg = yfov * 57.29578f;
        cd.aspect = aspect;
        cd.near_plane = znear;
        cd.far_plane = zfar ? zfar : znear * 100000.0f; /* glTF's infinite projection, made finite */
    } else if (!strcmp(type->valuestring, "orthographic")) {
        snprintf(ppath, sizeof ppath, "%s.orthographic", path);
        const cJSON *o = obj(c, "orthographic");
        if (!cJSON_IsObject(o)) return hl__fail(HL_ERR_PARSE, "glTF: %s must be an object", ppath);
        float xmag = 0, ymag = 0, znear = -1, zfar = 0;
        if ((res = get_float(o, "xmag", ppath, 0, &xmag)) || (res = get_float(o, "ymag", ppath, 0, &ymag)) ||
            (res = get_float(o, "znear", ppath, -1, &znear)) || (res = get_float(o, "zfar", ppath, 0, &zfar)))
            return res;
        if (xmag == 0 || ymag == 0 || znear < 0 || zfar <= znear)
            return hl__fail(HL_ERR_PARSE, "glTF: %s: xmag, ymag non-zero, znear >= 0, zfar > znear needed", ppath);
        cd.projection = HL_PROJECTION_ORTHOGRAPHIC;
        cd.left = -fabsf(xmag), cd.right = fabsf(xmag), cd.bottom = -fabsf(ymag), cd.top = fabsf(ymag);
        cd.near_plane = znear > 0 ? znear : 1e-4f; /* 0 would mean the default 0.1 */
        cd.far_plane = zfar;
    } else {
        return hl__fail(HL_ERR_PARSE, "glTF: %s.type '%.32s' (perspective or orthographic)", path, type->valuestring);
    }
    hl_camera *cam = NULL;
    if ((res = hl_camera_create(&cd, &cam)) || (res = add_child(n, hl_camera_node(cam)))) return res;
    hl_camera **grown = hl__realloc(L->a->cameras, (L->a->camera_count + 1u) * sizeof *grown);
    if (!grown) return hl__fail(HL_ERR_OUT_OF_MEMORY, "glTF: cameras");
    L->a->cameras = grown;
    L->a->cameras[L->a->camera_count++] = cam;
    L->a->report.cameras++;
    return HL_OK;
}

/* KHR_lights_punctual: the document's lights, parsed once. */
static hl_result lights_parse(loader *L) {
    const cJSON *ext = obj(L->doc.json, "extensions");
    const cJSON *lp = cJSON_IsObject(ext) ? obj(ext, "KHR_lights_punctual") : NULL;
    const cJSON *lights = cJSON_IsObject(lp) ? obj(lp, "lights") : NULL;
    if (!lights) return HL_OK;
    if (!cJSON_IsArray(lights)) return hl__fail(HL_ERR_PARSE, "glTF: extensions.KHR_lights_punctual.lights must be an array");
    int n = cJSON_GetArraySize(lights);
    if (!n) return HL_OK;
    L->lights = hl__calloc((size_t)n, sizeof *L->lights);
    if (!L->lights) return hl__fail(HL_ERR_OUT_OF_MEMORY, "glTF: lights");
    L->light_count = (uint32_t)n;
    for (int i = 0; i < n; i++) {
        char path[80];
        snprintf(path, sizeof path, "extensions.KHR_lights_punctual.lights[%d]", i);
        const cJSON *l = cJSON_GetArrayItem(lights, i);
        if (!cJSON_IsObject(l)) return hl__fail(HL_ERR_PARSE, "glTF: %s must be an object", path);
        const cJSON *type = obj(l, "type");
        hl_light_desc *d = &L->lights[i];
        if (!cJSON_IsString(type)) return hl__fail(HL_ERR_PARSE, "glTF: %s.type must be a string", path);
        if (!strcmp(type->valuestring, "directional")) d->kind = HL_LIGHT_DIRECTIONAL;
        else if (!strcmp(type->valuestring, "point")) d->kind = HL_LIGHT_POINT;
        else if (!strcmp(type->valuestring, "spot")) d->kind = HL_LIGHT_SPOT;
        else return hl__fail(HL_ERR_PARSE, "glTF: %s.type '%.32s' (directional, point or spot)", path, type->valuestring);
        float color[3] = {1, 1, 1}, intensity = 1, range = 0;
        hl_result res;
        if ((res = get_floats(l, "color", path, 3, color)) || (res = get_float(l, "intensity", path, 1, &intensity)) ||
            (res = get_float(l, "range", path, 0, &range)))
            return res;
        if (intensity < 0 || range < 0) return hl__fail(HL_ERR_PARSE, "glTF: %s: intensity and range must be >= 0", path);
        d->color = (hl_color){color[0], color[1], color[2], 1};
        d->intensity = intensity;
        d->range = range;
        if (d->kind == HL_LIGHT_SPOT) {
            char spath[96];
            snprintf(spath, sizeof spath, "%s.spot", path);
            const cJSON *s = obj(l, "spot");
            float inner = 0, outer = 0.785398f;
            if ((res = get_float(s, "innerConeAngle", spath, 0, &inner)) ||
                (res = get_float(s, "outerConeAngle", spath, 0.785398f, &outer)))
                return res;
            if (!(inner >= 0 && inner < outer && outer <= 1.5708f))
                return hl__fail(HL_ERR_PARSE, "glTF: %s: 0 <= innerConeAngle < outerConeAngle <= pi/2 needed", spath);
            d->inner_cone_deg = inner * 57.29578f;
            d->outer_cone_deg = outer * 57.29578f;
        }
    }
    return HL_OK;
}

/* Element i of a JSON array of node indices (path.field[i] in messages). */
static hl_result node_index_at(const cJSON *arr, int i, const char *path, const char *field, uint64_t *out) {
    const cJSON *c = cJSON_GetArrayItem(arr, i);
    double d = cJSON_IsNumber(c) ? c->valuedouble : -1;
    if (!(d >= 0) || d != floor(d) || d > (double)UINT32_MAX)
        return hl__fail(HL_ERR_PARSE, "glTF: %s.%s[%d] must be a node index", path, field, i);
    *out = (uint64_t)d;
    return HL_OK;
}

static hl_result build_node(loader *L, uint64_t index, hl_node *parent, const char *from, uint32_t depth);

/* The nodes listed in path.field (an array of node indices, or absent) built under parent. */
static hl_result build_nodes(loader *L, const cJSON *owner, const char *path, const char *field, hl_node *parent,
                             uint32_t depth) {
    const cJSON *arr = obj(owner, field);
    if (arr && !cJSON_IsArray(arr)) return hl__fail(HL_ERR_PARSE, "glTF: %s.%s must be an array", path, field);
    int n = arr ? cJSON_GetArraySize(arr) : 0;
    hl_result res = HL_OK;
    for (int i = 0; !res && i < n; i++) {
        uint64_t c = 0;
        char cpath[96];
        snprintf(cpath, sizeof cpath, "%s.%s[%d]", path, field, i);
        if (!(res = node_index_at(arr, i, path, field, &c))) res = build_node(L, c, parent, cpath, depth);
    }
    return res;
}

static hl_result build_node(loader *L, uint64_t index, hl_node *parent, const char *from, uint32_t depth) {
    char path[48];
    snprintf(path, sizeof path, "nodes[%llu]", (unsigned long long)index);
    hl_result res;
    const cJSON *nd = hl__gltf_array_item(L->doc.json, "nodes", index, from, &res);
    if (!nd) return res;
    if (L->visiting[index])
        return hl__fail(HL_ERR_PARSE, "glTF: %s is reached twice (from %s): a node has one parent, and no cycles", path, from);
    if (depth > 4096) return hl__fail(HL_ERR_PARSE, "glTF: %s: the node hierarchy is deeper than 4096", path);
    L->visiting[index] = 1;
    const cJSON *name = obj(nd, "name");
    hl_node *n = NULL;
    if ((res = hl_node_create(cJSON_IsString(name) ? name->valuestring : NULL, &n))) return res;
    if ((res = add_child(parent, n))) return res;
    L->a->nodes[index] = n;
    L->a->report.nodes++;
    if (obj(nd, "matrix")) {
        float m[16];
        if ((res = get_floats(nd, "matrix", path, 16, m))) return res;
        if (obj(nd, "translation") || obj(nd, "rotation") || obj(nd, "scale"))
            return hl__fail(HL_ERR_PARSE, "glTF: %s has both matrix and translation/rotation/scale", path);
        hl_vec3 t, s;
        hl_quat r;
        decompose(m, &t, &r, &s);
        hl_node_set_translation(n, t);
        hl_node_set_rotation(n, r);
        hl_node_set_scale(n, s);
    } else {
        float t[3] = {0, 0, 0}, r[4] = {0, 0, 0, 1}, s[3] = {1, 1, 1};
        if ((res = get_floats(nd, "translation", path, 3, t)) || (res = get_floats(nd, "rotation", path, 4, r)) ||
            (res = get_floats(nd, "scale", path, 3, s)))
            return res;
        if (r[0] == 0 && r[1] == 0 && r[2] == 0 && r[3] == 0)
            return hl__fail(HL_ERR_PARSE, "glTF: %s.rotation is a zero quaternion", path);
        hl_node_set_translation(n, (hl_vec3){t[0], t[1], t[2]});
        hl_node_set_rotation(n, (hl_quat){r[0], r[1], r[2], r[3]});
        hl_node_set_scale(n, (hl_vec3){s[0], s[1], s[2]});
    }
    uint64_t v = 0;
    if (obj(nd, "mesh")) {
        if ((res = hl__gltf_get_uint(nd, "mesh", path, true, 0, UINT32_MAX, &v)) || (res = build_mesh(L, n, (uint32_t)index, v, path)))
            return res;
    }
    if (obj(nd, "camera")) {
        if ((res = hl__gltf_get_uint(nd, "camera", path, true, 0, UINT32_MAX, &v)) || (res = build_camera(L, n, v, path)))
            return res;
    }
    const cJSON *ext = obj(nd, "extensions");
    const cJSON *lp = cJSON_IsObject(ext) ? obj(ext, "KHR_lights_punctual") : NULL;
    if (lp) {
        char lpath[96];
        snprintf(lpath, sizeof lpath, "%s.extensions.KHR_lights_punctual", path);
        if ((res = hl__gltf_get_uint(lp, "light", lpath, true, 0, UINT32_MAX, &v))) return res;
        if (v >= L->light_count)
            return hl__fail(HL_ERR_PARSE, "glTF: %s.light %llu (the document has %u lights)", lpath, (unsigned long long)v,
                            L->light_count);
        hl_light *l = NULL;
        if ((res = hl_light_create(&L->lights[v], &l)) || (res = add_child(n, hl_light_node(l)))) return res;
        L->a->report.lights++;
    }
    if ((res = build_nodes(L, nd, path, "children", n, depth + 1))) return res;
    L->visiting[index] = 2;
    return HL_OK;
}

/* The root nodes of the chosen scene: built under the asset's root. */
static hl_result build_scene(loader *L, uint32_t which) {
    const cJSON *scenes = obj(L->doc.json, "scenes");
    if (scenes && !cJSON_IsArray(scenes)) return hl__fail(HL_ERR_PARSE, "glTF: scenes must be an array");
    int ns = scenes ? cJSON_GetArraySize(scenes) : 0;
    uint64_t s = 0;
    hl_result res;
    if (which) {
        if ((int64_t)which > ns) return hl__fail(HL_ERR_VALIDATION, "glTF: scene %u asked for, the document has %d", which - 1, ns);
        s = which - 1;
    } else if ((res = hl__gltf_get_uint(L->doc.json, "scene", "the document", false, 0, UINT32_MAX, &s))) {
        return res;
    }
    if (!ns) { /* no scenes: every node that is no other node's child */
        if (obj(L->doc.json, "scene")) return hl__fail(HL_ERR_PARSE, "glTF: scene is given, but there are no scenes");
        uint32_t nn = L->a->node_count;
        uint8_t *child = hl__calloc(nn ? nn : 1, 1);
        if (!child) return hl__fail(HL_ERR_OUT_OF_MEMORY, "glTF: nodes");
        const cJSON *nodes = obj(L->doc.json, "nodes");
        for (uint32_t i = 0; i < nn; i++) {
            const cJSON *c, *ch = obj(cJSON_GetArrayItem(nodes, (int)i), "children");
            const cJSON *list = cJSON_IsArray(ch) ? ch : NULL;
            cJSON_ArrayForEach(c, list) {
                if (cJSON_IsNumber(c) && c->valuedouble >= 0 && c->valuedouble < nn) child[(uint32_t)c->valuedouble] = 1;
            }
        }
        res = HL_OK;
        for (uint32_t i = 0; !res && i < nn; i++)
            if (!child[i] && !L->visiting[i]) res = build_node(L, i, L->a->root, "the document's root nodes", 0);
        hl__free(child);
        return res;
    }
    char path[48];
    snprintf(path, sizeof path, "scenes[%llu]", (unsigned long long)s);
    const cJSON *sc = hl__gltf_array_item(L->doc.json, "scenes", s, "scene", &res);
    if (!sc) return res;
    return build_nodes(L, sc, path, "nodes", L->a->root, 0);
}

/* skins[]: joints (nodes of the built scene), inverse bind matrices; given to the meshes of
 * every node that names the skin. A primitive's JOINTS_0 and JOINTS_1 must index the skin's joints. */
static hl_result apply_skins(loader *L) {
    const cJSON *nodes = obj(L->doc.json, "nodes");
    uint32_t nn = L->a->node_count;
    hl_mat4 *ibm = NULL;
    hl_node **joints = NULL;
    hl_result res = HL_OK;
    for (uint32_t i = 0; !res && i < nn; i++) {
        const cJSON *nd = cJSON_GetArrayItem(nodes, (int)i);
        if (!L->a->nodes[i] || !obj(nd, "skin")) continue;
        char npath[48], spath[48];
        snprintf(npath, sizeof npath, "nodes[%u]", i);
        uint64_t si = 0;
        if ((res = hl__gltf_get_uint(nd, "skin", npath, true, 0, UINT32_MAX, &si))) break;
        snprintf(spath, sizeof spath, "skins[%llu]", (unsigned long long)si);
        const cJSON *sk = hl__gltf_array_item(L->doc.json, "skins", si, npath, &res);
        if (!sk) break;
        const cJSON *jl = obj(sk, "joints");
        int nj = cJSON_IsArray(jl) ? cJSON_GetArraySize(jl) : 0;
        if (!nj) {
            res = hl__fail(HL_ERR_PARSE, "glTF: %s.joints must be a non-empty array", spath);
            break;
        }
        if ((uint32_t)nj > HL_SKIN_MAX_JOINTS) {
            res = hl__fail(HL_ERR_UNSUPPORTED, "glTF: %s has %d joints (at most %u)", spath, nj, HL_SKIN_MAX_JOINTS);
            break;
        }
        hl__free(ibm);
        hl__free(joints);
        ibm = hl__malloc((size_t)nj * sizeof *ibm);
        joints = hl__malloc((size_t)nj * sizeof *joints);
        if (!ibm || !joints) {
            res = hl__fail(HL_ERR_OUT_OF_MEMORY, "glTF: %s", spath);
            break;
        }
        for (int k = 0; !res && k < nj; k++) {
            const cJSON *j = cJSON_GetArrayItem(jl, k);
            double d = cJSON_IsNumber(j) ? j->valuedouble : -1;
            if (!(d >= 0) || d != floor(d) || d >= nn || !L->a->nodes[(uint32_t)d])
                res = hl__fail(HL_ERR_PARSE, "glTF: %s.joints[%d] is not a node of the built scene", spath, k);
            else joints[k] = L->a->nodes[(uint32_t)d];
            ibm[k] = hl_mat4_identity();
        }
        if (res) break;
        if (obj(sk, "inverseBindMatrices")) {
            uint64_t acc = 0;
            hl__gltf_accessor_info info;
            if ((res = hl__gltf_get_uint(sk, "inverseBindMatrices", spath, true, 0, UINT32_MAX, &acc)) ||
                (res = hl__gltf_accessor_info_get(&L->doc, (uint32_t)acc, &info)))
                break;
            if (info.components != 16 || info.component_type != HL__GLTF_F32 || info.count < (uint32_t)nj) {
                res = hl__fail(HL_ERR_PARSE, "glTF: %s.inverseBindMatrices: accessor %llu must hold %d float MAT4", spath,
                               (unsigned long long)acc, nj);
                break;
            }
            float *m = hl__malloc((size_t)info.count * 64);
            if (!m) {
                res = hl__fail(HL_ERR_OUT_OF_MEMORY, "glTF: %s", spath);
                break;
            }
            res = hl__gltf_accessor_read_float(&L->doc, (uint32_t)acc, m, (size_t)info.count * 16);
            for (int k = 0; !res && k < nj; k++) memcpy(ibm[k].m, m + (size_t)k * 16, 64);
            hl__free(m);
            if (res) break;
        }
        hl_skin_desc sd = {joints, ibm, (uint32_t)nj};
        for (hl_node *c = hl_node_first_child(L->a->nodes[i]); !res && c; c = hl_node_next_sibling(c)) {
            hl_mesh *m = hl_node_mesh(c);
            if (!m) continue;
            /* the primitive's joint indices index this skin */
            const hl_geometry_layout *gl = hl_geometry_get_layout(hl_mesh_geometry(m));
            static const hl_attribute k_joint_sets[2] = {HL_ATTR_JOINTS_0, HL_ATTR_JOINTS_1};
            for (uint32_t set = 0; !res && set < 2; set++) {
                const hl_vertex_attribute_info *ja = &gl->attributes[k_joint_sets[set]];
                if (!ja->present || ja->type != HL_COMPONENT_UINT16) continue; /* the loader's joints are UINT16 */
                const uint16_t *jv = (const uint16_t *)((const uint8_t *)hl_geometry_vertex_data(hl_mesh_geometry(m)) + ja->offset);
                for (uint32_t v = 0; !res && v < gl->vertex_count * 4; v++)
                    if (jv[v] >= (uint32_t)nj)
                        res = hl__fail(HL_ERR_PARSE, "glTF: %s (skin of %s): %s of vertex %u is %u, past its %d joints",
                                       hl_node_name(c), npath, hl_attribute_name(k_joint_sets[set]), v / 4, jv[v], nj);
            }
            if (!res) res = hl_mesh_set_skin(m, &sd);
        }
    }
    hl__free(ibm);
    hl__free(joints);
    return res;
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static hl_result load(const uint8_t *data, size_t size, const char *base_dir, const hl_gltf_load_desc *desc,
                      hl_gltf_asset **out) {
    double t0 = now_ms();
    hl_gltf_load_desc d = desc ? *desc : (hl_gltf_load_desc){0};
    loader L;
    memset(&L, 0, sizeof L);
    L.decode_limit = d.decode_limit;
    hl_result res = hl__gltf_parse(data, size, base_dir, &L.doc);
    if (res) return res;
    hl_gltf_asset *a = hl__calloc(1, sizeof *a);
    L.a = a;
    if (!a) res = hl__fail(HL_ERR_OUT_OF_MEMORY, "glTF: the asset");
    const cJSON *root = L.doc.json;
    if (!res) res = check_extensions(&L);
    if (!res) {
        int nn = array_size(root, "nodes"), nm = array_size(root, "materials"), nt = array_size(root, "textures");
        a->node_count = (uint32_t)nn;
        L.material_count = (uint32_t)nm;
        L.texture_count = (uint32_t)nt;
        a->nodes = hl__calloc((size_t)nn + 1, sizeof *a->nodes);
        L.visiting = hl__calloc((size_t)nn + 1, 1);
        L.materials = hl__calloc((size_t)nm + 1, sizeof *L.materials);
        L.textures = hl__calloc((size_t)nt * 2 + 1, sizeof *L.textures);
        if (!a->nodes || !L.visiting || !L.materials || !L.textures) res = hl__fail(HL_ERR_OUT_OF_MEMORY, "glTF: tables");
        a->report.images = (uint32_t)array_size(root, "images");
        a->report.skins = (uint32_t)array_size(root, "skins");
        a->report.animations = (uint32_t)array_size(root, "animations");

    }
    if (!res) res = hl_node_create("glTF", &a->root);
    if (!res) res = lights_parse(&L);
    if (!res) res = build_scene(&L, d.scene);
    if (!res) res = apply_skins(&L);
    if (!res) res = hl__gltf_animations_parse(&L.doc, a);
    /* the meshes hold what they use */
    for (uint32_t i = 0; L.materials && i <= L.material_count; i++) hl_material_release(L.materials[i]);
    for (uint32_t i = 0; L.textures && i < L.texture_count * 2; i++) hl_texture_release(L.textures[i]);
    hl__free(L.materials);
    hl__free(L.textures);
    hl__free(L.visiting);
    hl__free(L.lights);
    hl__gltf_free(&L.doc);
    if (res) {
        hl_gltf_asset_destroy(a);
        return res;
    }
    a->report.load_ms = now_ms() - t0;
    *out = a;
    return HL_OK;
}

hl_result hl_gltf_load_memory(const void *data, size_t size, const hl_gltf_load_desc *desc, hl_gltf_asset **out) {
    if (!out) return hl__fail(HL_ERR_VALIDATION, "hl_gltf_load_memory: out is NULL");
    *out = NULL;
    if (!data) return hl__fail(HL_ERR_VALIDATION, "hl_gltf_load_memory: data is NULL");
    return load(data, size, desc ? desc->base_dir : NULL, desc, out);
}

hl_result hl_gltf_load_file(const char *path, const hl_gltf_load_desc *desc, hl_gltf_asset **out) {
    if (!out) return hl__fail(HL_ERR_VALIDATION, "hl_gltf_load_file: out is NULL");
    *out = NULL;
    if (!path) return hl__fail(HL_ERR_VALIDATION, "hl_gltf_load_file: path is NULL");
    FILE *f = fopen(path, "rb");
    if (!f) return hl__fail(HL_ERR_IO, "hl_gltf_load_file: cannot open '%s': %s", path, strerror(errno));
    uint8_t *data = NULL;
    size_t size = 0;
    hl_result res = HL_OK;
    if (fseek(f, 0, SEEK_END) != 0 || ftell(f) < 0) {
        res = hl__fail(HL_ERR_IO, "hl_gltf_load_file: '%s' is not a regular file", path);
    } else {
        long n = ftell(f);
        if (n <= 0 || (uint64_t)n > HL__GLTF_MAX_BYTES) res = hl__fail(HL_ERR_IO, "hl_gltf_load_file: '%s' has %ld bytes (1 byte to 1 GiB)", path, n);
        else if (!(data = hl__malloc((size_t)n))) res = hl__fail(HL_ERR_OUT_OF_MEMORY, "hl_gltf_load_file: %ld bytes", n);
        else if (fseek(f, 0, SEEK_SET) != 0 || fread(data, 1, (size_t)n, f) != (size_t)n)
            res = hl__fail(HL_ERR_IO, "hl_gltf_load_file: reading '%s' failed", path);
        size = (size_t)n;
    }
    fclose(f);
    char *dir = NULL;
    if (!res) {
        const char *slash = strrchr(path, '/');
        size_t dn = slash ? (size_t)(slash - path) : 1;
        dir = hl__malloc(dn + 1);
        if (!dir) res = hl__fail(HL_ERR_OUT_OF_MEMORY, "hl_gltf_load_file");
        else if (slash) memcpy(dir, path, dn), dir[dn] = 0;
        else strcpy(dir, ".");
    }
    if (!res) res = load(data, size, dir, desc, out);
    hl__free(dir);
    hl__free(data);
    return res;
}

void hl_gltf_asset_destroy(hl_gltf_asset *a) {
    if (!a) return;
    if (a->root && !hl_node_parent(a->root)) hl_node_destroy(a->root);
    hl__gltf_animations_free(a);
    hl__gltf_morphs_free(a);
    hl__free(a->nodes);
    hl__free(a->cameras);
    hl__free(a);
}

hl_node *hl_gltf_asset_root(hl_gltf_asset *a) { return a ? a->root : NULL; }

const hl_gltf_report *hl_gltf_asset_report(const hl_gltf_asset *a) {
    static const hl_gltf_report none;
    return a ? &a->report : &none;
}

uint32_t hl_gltf_asset_camera_count(const hl_gltf_asset *a) { return a ? a->camera_count : 0; }

hl_camera *hl_gltf_asset_camera(hl_gltf_asset *a, uint32_t index) {
    return a && index < a->camera_count ? a->cameras[index] : NULL;
}

hl_node *hl_gltf_asset_node(hl_gltf_asset *a, uint32_t index) {
    return a && index < a->node_count ? a->nodes[index] : NULL;
}

/* Every node's world matrix: a skinned mesh's bounds read its joints', which may sit anywhere
 * in the tree. Updating a leaf updates its ancestors. */
static void world_walk(hl_node *n) {
    if (!hl_node_first_child(n)) hl_node_update_world(n);
    for (hl_node *c = hl_node_first_child(n); c; c = hl_node_next_sibling(c)) world_walk(c);
}

static void bounds_walk(hl_node *n, hl_aabb *box) {
    hl_mesh *m = hl_node_mesh(n);
    if (m) {
        hl_aabb b = hl_mesh_world_aabb(m); /* posed for a skinned mesh */
        hl_aabb_merge(box, &b);
    }
    for (hl_node *c = hl_node_first_child(n); c; c = hl_node_next_sibling(c)) bounds_walk(c, box);
}

hl_aabb hl_gltf_asset_bounds(hl_gltf_asset *a) {
    hl_aabb box = {{INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}};
    if (!a || !a->root) return box;
    world_walk(a->root);
    bounds_walk(a->root, &box);
    return box;
}
