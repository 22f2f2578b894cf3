/* Random glTF assets for the randomized differential scenes (hl_scene_gen.h, option gltf): a GLB
 * with a small node hierarchy (TRS or matrix nodes), boxes and fans in every accessor encoding
 * the loader takes (float, normalized and quantized integers, u8/u16/u32 or no indices, strips
 * and fans), unlit or PBR materials with every alpha mode, double-sided or not, a generated PNG
 * with a random sampler on one or both UV sets (sometimes through KHR_texture_transform), vertex
 * colours, sometimes a skin (the first mesh on the asset's own nodes, sometimes with a second set
 * of influences, JOINTS_1 / WEIGHTS_1), morph targets with weights, and an animation. */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hl_scene_gen.h"
#include "hl_test_gltf.h"

#define R (rng)
static float fr(hl_gen_rng *rng, float lo, float hi) { return hl_gen_rng_float(R, lo, hi); }
static uint32_t ur(hl_gen_rng *rng, uint32_t n) { return hl_gen_rng_below(R, n); }
static bool ch(hl_gen_rng *rng, float p) { return hl_gen_rng_chance(R, p); }

typedef struct json_buf {
    char *s;
    size_t n, cap;
} json_buf;

static void jp(json_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void jp(json_buf *b, const char *fmt, ...) {
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
        va_end(ap);
        if (k >= 0 && (size_t)k < b->cap - b->n) {
            b->n += (size_t)k;
            return;
        }
        size_t cap = b->cap * 2 + (size_t)(k > 0 ? k : 256);
        char *s = realloc(b->s, cap);
        if (!s) abort(); /* test support */
        b->s = s, b->cap = cap;
    }
}

/* Appends an accessor (and its buffer view) over data; returns its index. */
typedef struct doc {
    hl_test_glb g;
    json_buf acc, views;
    uint32_t acc_count, view_count;
} doc;

static uint32_t accessor(doc *d, const void *data, size_t bytes, uint32_t ctype, bool normalized, uint32_t count,
                         const char *type) {
    size_t off = hl_test_glb_add(&d->g, data, bytes);
    jp(&d->views, "%s{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu}", d->view_count ? "," : "", off, bytes);
    jp(&d->acc, "%s{\"bufferView\":%u,\"componentType\":%u,%s\"count\":%u,\"type\":\"%s\"}", d->acc_count ? "," : "",
       d->view_count, ctype, normalized ? "\"normalized\":true," : "", count, type);
    d->view_count++;
    return d->acc_count++;
}

/* The box (24 vertices, 36 indices) or a fan disc (mode 6, 18 vertices): positions in [-s, s]. */
static void primitive(hl_gen_rng *rng, doc *d, json_buf *meshes, uint32_t mesh, bool *quantized, bool uv1,
                      uint32_t skin_joints, uint32_t *weights) {
    *weights = 0;
    float pos[24 * 3], nrm[24 * 3], uv[24 * 2], col[24 * 4];
    uint32_t idx[36], nv, ni;
    bool fan = ch(rng, 0.25f);
    float s = fr(rng, 0.3f, 1.2f);
    if (!fan) {
        static const float fn[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
        nv = 24, ni = 36;
        for (int f = 0; f < 6; f++) {
            const float *n = fn[f];
            float u[3] = {n[1] != 0 ? 1.0f : 0.0f, 0, n[1] != 0 ? 0.0f : 1.0f}, v[3];
            if (n[0] != 0) u[0] = 0, u[2] = -n[0]; else if (n[2] != 0) u[0] = n[2], u[2] = 0;
            v[0] = n[1] * u[2] - n[2] * u[1], v[1] = n[2] * u[0] - n[0] * u[2], v[2] = n[0] * u[1] - n[1] * u[0];
            for (int k = 0; k < 4; k++) {
                float a = (k == 1 || k == 2) ? 1.0f : -1.0f, b = k >= 2 ? 1.0f : -1.0f;
                for (int c = 0; c < 3; c++) {
                    pos[(f * 4 + k) * 3 + c] = s * (n[c] + a * u[c] + b * v[c]);
                    nrm[(f * 4 + k) * 3 + c] = n[c];
                }
                uv[(f * 4 + k) * 2] = (a + 1) * 0.5f, uv[(f * 4 + k) * 2 + 1] = (1 - b) * 0.5f;
            }
            uint32_t b0 = (uint32_t)f * 4;
            uint32_t tri[6] = {b0, b0 + 1, b0 + 2, b0, b0 + 2, b0 + 3};
            memcpy(idx + f * 6, tri, sizeof tri);
        }
    } else {
        nv = 18, ni = 0;
        pos[0] = pos[1] = pos[2] = 0, uv[0] = uv[1] = 0.5f;
        for (uint32_t k = 1; k < nv; k++) {
            float a = 6.2831853f * (float)(k - 1) / (float)(nv - 2);
            pos[k * 3] = s * cosf(a), pos[k * 3 + 1] = s * sinf(a), pos[k * 3 + 2] = 0;
            uv[k * 2] = 0.5f + 0.5f * cosf(a), uv[k * 2 + 1] = 0.5f - 0.5f * sinf(a);
        }
        for (uint32_t k = 0; k < nv; k++) nrm[k * 3] = 0, nrm[k * 3 + 1] = 0, nrm[k * 3 + 2] = 1;
    }
    for (uint32_t k = 0; k < nv * 4; k++) col[k] = (k % 4 == 3) ? 1.0f : fr(rng, 0.3f, 1.0f);
    /* positions: float or normalized i16 (quantized: the node scale makes up the range) */
    uint32_t a_pos;
    if (ch(rng, 0.3f)) {
        int16_t q[24 * 3];
        for (uint32_t i = 0; i < nv * 3; i++) q[i] = (int16_t)lrintf(pos[i] / 1.25f * 32767.0f);
        a_pos = accessor(d, q, nv * 6, 5122, true, nv, "VEC3");
        *quantized = true;
    } else {
        a_pos = accessor(d, pos, nv * 12, 5126, false, nv, "VEC3");
    }
    jp(meshes, "%s{\"primitives\":[{\"attributes\":{\"POSITION\":%u", mesh ? "," : "", a_pos);
    /* (a mesh's "weights", when it has targets, is appended by the caller after the primitive) */
    if (ch(rng, 0.85f)) { /* else flat normals from the loader */
        if (ch(rng, 0.3f)) {
            int8_t q[24 * 3];
            for (uint32_t i = 0; i < nv * 3; i++) q[i] = (int8_t)lrintf(nrm[i] * 127.0f);
            jp(meshes, ",\"NORMAL\":%u", accessor(d, q, nv * 3, 5120, true, nv, "VEC3"));
            *quantized = true;
        } else {
            jp(meshes, ",\"NORMAL\":%u", accessor(d, nrm, nv * 12, 5126, false, nv, "VEC3"));
        }
    }
    for (uint32_t set = 0; set < (uv1 ? 2u : 1u); set++) {
        if (ch(rng, 0.3f)) {
            uint16_t q[24 * 2];
            for (uint32_t i = 0; i < nv * 2; i++) q[i] = (uint16_t)lrintf(uv[i] * 65535.0f);
            jp(meshes, ",\"TEXCOORD_%u\":%u", set, accessor(d, q, nv * 4, 5123, true, nv, "VEC2"));
            *quantized = true;
        } else {
            jp(meshes, ",\"TEXCOORD_%u\":%u", set, accessor(d, uv, nv * 8, 5126, false, nv, "VEC2"));
        }
    }
    if (ch(rng, 0.3f)) {
        if (ch(rng, 0.5f)) {
            uint8_t q[24 * 4];
            for (uint32_t i = 0; i < nv * 4; i++) q[i] = (uint8_t)lrintf(col[i] * 255.0f);
            jp(meshes, ",\"COLOR_0\":%u", accessor(d, q, nv * 4, 5121, true, nv, "VEC4"));
        } else {
            float c3[24 * 3];
            for (uint32_t i = 0; i < nv; i++) memcpy(c3 + i * 3, col + i * 4, 12);
            jp(meshes, ",\"COLOR_0\":%u", accessor(d, c3, nv * 12, 5126, false, nv, "VEC3"));
        }
    }
    if (skin_joints) { /* skinned: each vertex on one or two random joints (and sometimes a third through
                          JOINTS_1 / WEIGHTS_1, the second set of influences, u8 or u16) */
        uint8_t jv[24 * 4];
        float wv[24 * 4];
        for (uint32_t i = 0; i < nv; i++) {
            float w0 = ch(rng, 0.5f) ? 1.0f : fr(rng, 0.3f, 0.9f);
            jv[i * 4] = (uint8_t)ur(rng, skin_joints), jv[i * 4 + 1] = (uint8_t)ur(rng, skin_joints);
            jv[i * 4 + 2] = jv[i * 4 + 3] = 0;
            wv[i * 4] = w0, wv[i * 4 + 1] = 1.0f - w0, wv[i * 4 + 2] = wv[i * 4 + 3] = 0;
        }
        jp(meshes, ",\"JOINTS_0\":%u", accessor(d, jv, nv * 4, 5121, false, nv, "VEC4"));
        if (ch(rng, 0.4f)) {
            uint16_t jv1[24 * 4] = {0};
            float wv1[24 * 4] = {0};
            for (uint32_t i = 0; i < nv; i++) {
                float k = fr(rng, 0.5f, 1.0f); /* set 0 keeps k of the weight, set 1's first joint the rest */
                jv1[i * 4] = (uint16_t)ur(rng, skin_joints);
                wv[i * 4] *= k, wv[i * 4 + 1] *= k, wv1[i * 4] = 1.0f - k;
            }
            if (ch(rng, 0.5f)) {
                jp(meshes, ",\"JOINTS_1\":%u", accessor(d, jv1, nv * 8, 5123, false, nv, "VEC4"));
            } else {
                uint8_t j8[24 * 4];
                for (uint32_t i = 0; i < nv * 4; i++) j8[i] = (uint8_t)jv1[i];
                jp(meshes, ",\"JOINTS_1\":%u", accessor(d, j8, nv * 4, 5121, false, nv, "VEC4"));
            }
            jp(meshes, ",\"WEIGHTS_1\":%u", accessor(d, wv1, nv * 16, 5126, false, nv, "VEC4"));
        }
        jp(meshes, ",\"WEIGHTS_0\":%u", accessor(d, wv, nv * 16, 5126, false, nv, "VEC4"));
    }
    jp(meshes, "}");
    if (ch(rng, 0.25f)) { /* morph targets: one or two random position displacements, random weights */
        uint32_t nt = 1 + ur(rng, 2);
        jp(meshes, ",\"targets\":[");
        for (uint32_t t = 0; t < nt; t++) {
            float dd[24 * 3];
            for (uint32_t i = 0; i < nv * 3; i++) dd[i] = fr(rng, -0.3f, 0.3f);
            jp(meshes, "%s{\"POSITION\":%u}", t ? "," : "", accessor(d, dd, nv * 12, 5126, false, nv, "VEC3"));
        }
        jp(meshes, "]");
        *weights = nt;
    }
    if (ni) {
        uint32_t kind = ur(rng, 3);
        if (kind == 0) {
            uint8_t q[36];
            for (uint32_t i = 0; i < ni; i++) q[i] = (uint8_t)idx[i];
            jp(meshes, ",\"indices\":%u", accessor(d, q, ni, 5121, false, ni, "SCALAR"));
        } else if (kind == 1) {
            uint16_t q[36];
            for (uint32_t i = 0; i < ni; i++) q[i] = (uint16_t)idx[i];
            jp(meshes, ",\"indices\":%u", accessor(d, q, ni * 2, 5123, false, ni, "SCALAR"));
        } else {
            jp(meshes, ",\"indices\":%u", accessor(d, idx, ni * 4, 5125, false, ni, "SCALAR"));
        }
    } else {
        jp(meshes, ",\"mode\":6");
    }
    jp(meshes, ",\"material\":%u}]", mesh);
    if (*weights) {
        jp(meshes, ",\"weights\":[");
        for (uint32_t t = 0; t < *weights; t++) jp(meshes, "%s%.3f", t ? "," : "", fr(rng, 0, 1));
        jp(meshes, "]");
    }
    jp(meshes, "}");
}

static void material(hl_gen_rng *rng, json_buf *m, uint32_t i, bool uv1) {
    jp(m, "%s{", i ? "," : "");
    uint32_t mode = ur(rng, 3);
    if (mode == 1) jp(m, "\"alphaMode\":\"MASK\",\"alphaCutoff\":%.3f,", fr(rng, 0.2f, 0.8f));
    if (mode == 2) jp(m, "\"alphaMode\":\"BLEND\",");
    if (ch(rng, 0.3f)) jp(m, "\"doubleSided\":true,");
    bool tex = ch(rng, 0.6f);
    jp(m, "\"pbrMetallicRoughness\":{\"baseColorFactor\":[%.3f,%.3f,%.3f,%.3f],\"metallicFactor\":%.3f,"
          "\"roughnessFactor\":%.3f",
       fr(rng, 0.2f, 1), fr(rng, 0.2f, 1), fr(rng, 0.2f, 1), mode == 2 ? fr(rng, 0.3f, 0.9f) : 1.0f, fr(rng, 0, 1),
       fr(rng, 0.1f, 1));
    if (tex) {
        jp(m, ",\"baseColorTexture\":{\"index\":0,\"texCoord\":%u", uv1 && ch(rng, 0.5f) ? 1u : 0u);
        if (ch(rng, 0.3f)) /* KHR_texture_transform */
            jp(m, ",\"extensions\":{\"KHR_texture_transform\":{\"offset\":[%.3f,%.3f],\"rotation\":%.3f,\"scale\":[%.3f,%.3f]}}",
               fr(rng, -1, 1), fr(rng, -1, 1), fr(rng, -3, 3), fr(rng, 0.25f, 3), fr(rng, 0.25f, 3));
        jp(m, "}");
    }
    jp(m, "}");
    if (ch(rng, 0.3f)) jp(m, ",\"emissiveFactor\":[%.3f,%.3f,%.3f]", fr(rng, 0, 0.5f), fr(rng, 0, 0.5f), fr(rng, 0, 0.5f));
    if (ch(rng, 0.3f)) jp(m, ",\"extensions\":{\"KHR_materials_unlit\":{}}");
    jp(m, "}");
}

uint8_t *hl_gen_gltf_random(hl_gen_rng *rng, size_t *size, bool *animated) {
    doc d;
    memset(&d, 0, sizeof d);
    json_buf nodes = {0}, meshes = {0}, mats = {0}, root = {0};
    uint32_t n = 1 + ur(rng, 5), mesh_count = 0;
    bool quantized = false, uv1 = ch(rng, 0.3f);
    int parent[6];
    for (uint32_t i = 0; i < n; i++) parent[i] = i ? (int)ur(rng, i) : -1;
    bool skinned = ch(rng, 0.3f); /* the first mesh skinned to every node of the asset */
    jp(&nodes, "[");
    for (uint32_t i = 0; i < n; i++) {
        jp(&nodes, "%s{\"name\":\"n%u\",\"children\":[", i ? "," : "", i);
        bool any = false;
        for (uint32_t j = i + 1; j < n; j++)
            if (parent[j] == (int)i) jp(&nodes, "%s%u", any ? "," : "", j), any = true;
        jp(&nodes, "],");
        if (ch(rng, 0.2f)) { /* a matrix node: scale s, rotation about Z by a, translation t */
            float s = fr(rng, 0.5f, 1.5f), a = fr(rng, -3, 3), t[3] = {fr(rng, -2, 2), fr(rng, -2, 2), fr(rng, -2, 2)};
            jp(&nodes, "\"matrix\":[%.4f,%.4f,0,0,%.4f,%.4f,0,0,0,0,%.4f,0,%.4f,%.4f,%.4f,1]", s * cosf(a), s * sinf(a),
               -s * sinf(a), s * cosf(a), s, t[0], t[1], t[2]);
        } else {
            float ax[3] = {fr(rng, -1, 1), fr(rng, -1, 1), fr(rng, -1, 1)}, an = fr(rng, -3, 3);
            float l = sqrtf(ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2]) + 1e-3f, sn = sinf(an / 2) / l;
            jp(&nodes, "\"translation\":[%.4f,%.4f,%.4f],\"rotation\":[%.5f,%.5f,%.5f,%.5f],\"scale\":[%.3f,%.3f,%.3f]",
               fr(rng, -3, 3), fr(rng, -3, 3), fr(rng, -3, 3), ax[0] * sn, ax[1] * sn, ax[2] * sn, cosf(an / 2),
               fr(rng, 0.5f, 1.5f), fr(rng, 0.5f, 1.5f), fr(rng, 0.5f, 1.5f));
        }
        if (ch(rng, 0.8f)) {
            bool skin = skinned && mesh_count == 0;
            uint32_t morph = 0;
            primitive(rng, &d, &meshes, mesh_count, &quantized, uv1, skin ? n : 0, &morph);
            material(rng, &mats, mesh_count, uv1);
            jp(&nodes, ",\"mesh\":%u%s", mesh_count++, skin ? ",\"skin\":0" : "");
        }
        jp(&nodes, "}");
    }
    jp(&nodes, "]");
    /* the texture: an 8x8 random pattern, random sampler */
    uint8_t px[8 * 8 * 4];
    for (uint32_t i = 0; i < 64; i++) {
        px[i * 4] = (uint8_t)ur(rng, 256), px[i * 4 + 1] = (uint8_t)ur(rng, 256), px[i * 4 + 2] = (uint8_t)ur(rng, 256);
        px[i * 4 + 3] = (uint8_t)(ch(rng, 0.2f) ? ur(rng, 256) : 255);
    }
    size_t png_n = 0;
    uint8_t *png = hl_test_png(8, 8, px, &png_n);
    size_t o_png = hl_test_glb_add(&d.g, png, png_n);
    free(png);
    jp(&d.views, "%s{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu}", d.view_count ? "," : "", o_png, png_n);
    uint32_t png_view = d.view_count++;
    static const uint32_t mags[2] = {9728, 9729}, mins[6] = {9728, 9729, 9984, 9985, 9986, 9987};
    static const uint32_t wraps[3] = {33071, 33648, 10497};
    /* an animation of node 0's rotation (LINEAR or STEP or CUBICSPLINE) */
    *animated = ch(rng, 0.4f);
    json_buf anim = {0};
    if (*animated) {
        uint32_t interp = ur(rng, 3), keys = 2 + ur(rng, 4);
        float times[6], vals[6 * 3 * 4];
        uint32_t per = interp == 2 ? 3 : 1;
        for (uint32_t k = 0; k < keys; k++) {
            times[k] = (float)k * fr(rng, 0.2f, 0.6f) + (k ? times[k - 1] : 0.0f);
            float a = fr(rng, -3, 3);
            for (uint32_t p = 0; p < per; p++) {
                float *q = vals + (k * per + p) * 4;
                bool value = per == 1 || p == 1;
                q[0] = 0, q[1] = value ? sinf(a / 2) : fr(rng, -0.5f, 0.5f), q[2] = 0, q[3] = value ? cosf(a / 2) : 0;
            }
        }
        uint32_t ai = accessor(&d, times, keys * 4, 5126, false, keys, "SCALAR");
        uint32_t ao = accessor(&d, vals, keys * per * 16, 5126, false, keys * per, "VEC4");
        static const char *const names[3] = {"LINEAR", "STEP", "CUBICSPLINE"};
        jp(&anim, ",\"animations\":[{\"samplers\":[{\"input\":%u,\"output\":%u,\"interpolation\":\"%s\"}],"
                  "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"rotation\"}}]}]",
           ai, ao, names[interp]);
    }
    jp(&root, "{\"asset\":{\"version\":\"2.0\"},%s\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":%s",
       quantized ? "\"extensionsUsed\":[\"KHR_mesh_quantization\"],\"extensionsRequired\":[\"KHR_mesh_quantization\"]," : "",
       nodes.s);
    if (mesh_count) jp(&root, ",\"meshes\":[%s],\"materials\":[%s]", meshes.s, mats.s);
    jp(&root, ",\"textures\":[{\"source\":0,\"sampler\":0}],\"samplers\":[{\"magFilter\":%u,\"minFilter\":%u,\"wrapS\":%u,"
              "\"wrapT\":%u}],\"images\":[{\"bufferView\":%u,\"mimeType\":\"image/png\"}]",
       mags[ur(rng, 2)], mins[ur(rng, 6)], wraps[ur(rng, 3)], wraps[ur(rng, 3)], png_view);
    if (skinned) {
        jp(&root, ",\"skins\":[{\"joints\":[");
        for (uint32_t i = 0; i < n; i++) jp(&root, "%s%u", i ? "," : "", i);
        jp(&root, "]}]");
    }
    jp(&root, "%s,\"accessors\":[%s],\"bufferViews\":[%s],\"buffers\":[{\"byteLength\":%zu}]}", anim.s ? anim.s : "",
       d.acc.s ? d.acc.s : "", d.views.s, d.g.bin_len);
    uint8_t *file = hl_test_glb_file(root.s, &d.g, size);
    free(nodes.s), free(meshes.s), free(mats.s), free(anim.s), free(root.s);
    free(d.acc.s), free(d.views.s);
    hl_test_glb_free(&d.g);
    return file;
}
