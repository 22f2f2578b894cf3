/* glTF data layer (src/scene/gltf_internal.h): GLB and .gltf containers, buffers from the GLB
 * chunk and from base64 data: URIs, accessors of every component type (normalized and not),
 * strided views, matrix column padding, sparse accessors with and without a bufferView; every
 * refusal names its JSON path and leaves nothing allocated (the ASan build checks). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gltf_internal.h"
#include "hilo3d/geometry.h"
#include "hl_test.h"

static char *b64enc(const uint8_t *d, size_t n) {
    static const char *a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *o = malloc(4 * ((n + 2) / 3) + 1), *p = o;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)d[i] << 16 | (i + 1 < n ? (uint32_t)d[i + 1] << 8 : 0) | (i + 2 < n ? d[i + 2] : 0);
        *p++ = a[v >> 18 & 63];
        *p++ = a[v >> 12 & 63];
        *p++ = i + 1 < n ? a[v >> 6 & 63] : '=';
        *p++ = i + 2 < n ? a[v & 63] : '=';
    }
    *p = 0;
    return o;
}

/* A GLB of json (padded with spaces) and bin (padded with zeros). */
static uint8_t *glb(const char *json, const uint8_t *bin, size_t bin_n, size_t *out_n) {
    size_t jn = (strlen(json) + 3) & ~(size_t)3, bn = (bin_n + 3) & ~(size_t)3;
    size_t n = 12 + 8 + jn + (bin ? 8 + bn : 0);
    uint8_t *g = calloc(1, n);
    uint32_t h[3] = {0x46546C67u, 2, (uint32_t)n}, jc[2] = {(uint32_t)jn, 0x4E4F534Au}, bc[2] = {(uint32_t)bn, 0x004E4942u};
    memcpy(g, h, 12);
    memcpy(g + 12, jc, 8);
    memset(g + 20, ' ', jn);
    memcpy(g + 20, json, strlen(json));
    if (bin) {
        memcpy(g + 20 + jn, bc, 8);
        memcpy(g + 28 + jn, bin, bin_n);
    }
    *out_n = n;
    return g;
}

/* The binary data of the main test, and its layout:
 *   0: 3 VEC3 float positions (36 bytes)
 *  36: 3 VEC4 u8 normalized colours (12)
 *  48: 3 VEC2 i16 normalized, stride 8 (24; the second half of each element is other data)
 *  72: 4 SCALAR i8 normalized (4)
 *  76: 2 MAT2 u8 (columns padded to 4 bytes: 8 each = 16)
 *  92: 3 SCALAR u16 indices (6, padded to 8)
 * 100: sparse indices u8 {1, 3} (2, padded to 4)
 * 104: sparse values 2 VEC2 float (16)
 * 120: 2 SCALAR u32 (8) */
static size_t make_bin(uint8_t *b) {
    memset(b, 0xEE, 128);
    float pos[9] = {0, 1, 2, -1.5f, 0.25f, 8, 1e3f, -2, 0.5f};
    memcpy(b, pos, 36);
    uint8_t col[12] = {0, 255, 51, 102, 255, 0, 0, 255, 1, 2, 3, 4};
    memcpy(b + 36, col, 12);
    int16_t uv[3][4] = {{32767, -32768, 7, 7}, {0, 16384, 7, 7}, {-16384, 1, 7, 7}};
    memcpy(b + 48, uv, 24);
    int8_t s8[4] = {-128, -127, 0, 127};
    memcpy(b + 72, s8, 4);
    uint8_t m2[16] = {1, 2, 0xEE, 0xEE, 3, 4, 0xEE, 0xEE, 5, 6, 0xEE, 0xEE, 7, 8, 0xEE, 0xEE};
    memcpy(b + 76, m2, 16);
    uint16_t idx[3] = {2, 0, 65535};
    memcpy(b + 92, idx, 6);
    uint8_t si[2] = {1, 3};
    memcpy(b + 100, si, 2);
    float sv[4] = {10, 11, 30, 31};
    memcpy(b + 104, sv, 16);
    uint32_t u32[2] = {0, 4000000000u};
    memcpy(b + 120, u32, 8);
    return 128;
}

static const char *k_json =
    "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":128}],"
    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":48},"
    "{\"buffer\":0,\"byteOffset\":48,\"byteLength\":24,\"byteStride\":8},"
    "{\"buffer\":0,\"byteOffset\":72,\"byteLength\":20},"
    "{\"buffer\":0,\"byteOffset\":92,\"byteLength\":6},"
    "{\"buffer\":0,\"byteOffset\":100,\"byteLength\":2},"
    "{\"buffer\":0,\"byteOffset\":104,\"byteLength\":16},"
    "{\"buffer\":0,\"byteOffset\":120,\"byteLength\":8}],"
    "\"accessors\":["
    "{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"                       /* 0 */
    "{\"bufferView\":0,\"byteOffset\":36,\"componentType\":5121,\"normalized\":true,\"count\":3,\"type\":\"VEC4\"}," /* 1 */
    "{\"bufferView\":1,\"componentType\":5122,\"normalized\":true,\"count\":3,\"type\":\"VEC2\"},"     /* 2 */
    "{\"bufferView\":2,\"componentType\":5120,\"normalized\":true,\"count\":4,\"type\":\"SCALAR\"},"   /* 3 */
    "{\"bufferView\":2,\"byteOffset\":4,\"componentType\":5121,\"count\":2,\"type\":\"MAT2\"},"        /* 4 */
    "{\"bufferView\":3,\"componentType\":5123,\"count\":3,\"type\":\"SCALAR\"},"                       /* 5 */
    "{\"componentType\":5126,\"count\":5,\"type\":\"VEC2\",\"sparse\":{\"count\":2,"
    "\"indices\":{\"bufferView\":4,\"componentType\":5121},\"values\":{\"bufferView\":5}}},"           /* 6 */
    "{\"bufferView\":6,\"componentType\":5125,\"count\":2,\"type\":\"SCALAR\"},"                       /* 7 */
    "{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\",\"sparse\":{\"count\":1,"
    "\"indices\":{\"bufferView\":4,\"componentType\":5121},\"values\":{\"bufferView\":5}}}"            /* 8 */
    "]}";

static void expect_floats(const hl__gltf_doc *d, uint32_t acc, const float *want, size_t n, float tol) {
    float got[64];
    hl_result r = hl__gltf_accessor_read_float(d, acc, got, 64);
    HL_CHECK_MSG(r == HL_OK, "accessor %u: %s", acc, hl_last_error());
    if (r) return;
    for (size_t i = 0; i < n; i++)
        HL_CHECK_MSG(got[i] - want[i] <= tol && want[i] - got[i] <= tol, "accessor %u value %zu: %g, want %g", acc, i,
                     (double)got[i], (double)want[i]);
}

static void check_doc(const hl__gltf_doc *d) {
    const float pos[9] = {0, 1, 2, -1.5f, 0.25f, 8, 1e3f, -2, 0.5f};
    expect_floats(d, 0, pos, 9, 0);
    const float col[12] = {0, 1, 0.2f, 0.4f, 1, 0, 0, 1, 1 / 255.0f, 2 / 255.0f, 3 / 255.0f, 4 / 255.0f};
    expect_floats(d, 1, col, 12, 1e-6f);
    const float uv[6] = {1, -1, 0, 16384 / 32767.0f, -16384 / 32767.0f, 1 / 32767.0f};
    expect_floats(d, 2, uv, 6, 1e-6f);
    const float s8[4] = {-1, -1, 0, 1}; /* -128 / 127 clamps to -1 */
    expect_floats(d, 3, s8, 4, 1e-6f);
    const float m2[8] = {1, 2, 3, 4, 5, 6, 7, 8}; /* the column padding bytes (0xEE) are not values */
    expect_floats(d, 4, m2, 8, 0);
    uint32_t idx[3];
    HL_CHECK_OK(hl__gltf_accessor_read_uint(d, 5, idx, 3));
    HL_CHECK(idx[0] == 2 && idx[1] == 0 && idx[2] == 65535);
    const float sp[10] = {0, 0, 10, 11, 0, 0, 30, 31, 0, 0};
    expect_floats(d, 6, sp, 10, 0);
    uint32_t u[2];
    HL_CHECK_OK(hl__gltf_accessor_read_uint(d, 7, u, 2));
    HL_CHECK(u[0] == 0 && u[1] == 4000000000u);
    hl__gltf_accessor_info info;
    HL_CHECK_OK(hl__gltf_accessor_info_get(d, 6, &info));
    HL_CHECK(info.count == 5 && info.components == 2 && info.sparse && info.component_type == HL__GLTF_F32);
    /* reads refused */
    float small[2];
    HL_CHECK_RESULT(hl__gltf_accessor_read_float(d, 0, small, 2), HL_ERR_VALIDATION);
    HL_CHECK_RESULT(hl__gltf_accessor_read_uint(d, 0, (uint32_t *)small, 64), HL_ERR_PARSE);
    HL_CHECK(strstr(hl_last_error(), "accessors[0] holds float values") != NULL);
    HL_CHECK_RESULT(hl__gltf_accessor_read_float(d, 99, small, 2), HL_ERR_PARSE);
    HL_CHECK(strstr(hl_last_error(), "accessors[99], which does not exist") != NULL);
}

static void test_containers(void) {
    uint8_t bin[128];
    size_t bn = make_bin(bin), n = 0;
    uint8_t *g = glb(k_json, bin, bn, &n);
    hl__gltf_doc d;
    hl_result r = hl__gltf_parse(g, n, NULL, &d);
    HL_CHECK_MSG(r == HL_OK, "glb: %s", hl_last_error());
    if (!r) {
        check_doc(&d);
        /* accessor 8: VEC3 over a VEC2 sparse: its values view is 16 bytes, 1 element needs 12: fine */
        float got[9];
        HL_CHECK_OK(hl__gltf_accessor_read_float(&d, 8, got, 9));
        HL_CHECK(got[3] == 10 && got[4] == 11 && got[5] == 30);
        hl__gltf_free(&d);
    }
    free(g);
    /* the same document as .gltf text with a data: URI */
    char *enc = b64enc(bin, bn);
    const char *at = strstr(k_json, "{\"byteLength\":128}");
    size_t head = (size_t)(at - k_json);
    size_t cap = strlen(k_json) + strlen(enc) + 128;
    char *text = malloc(cap);
    snprintf(text, cap, "%.*s{\"byteLength\":128,\"uri\":\"data:application/octet-stream;base64,%s\"}%s", (int)head, k_json,
             enc, at + strlen("{\"byteLength\":128}"));
    r = hl__gltf_parse((const uint8_t *)text, strlen(text), NULL, &d);
    HL_CHECK_MSG(r == HL_OK, "gltf: %s", hl_last_error());
    if (!r) {
        check_doc(&d);
        hl__gltf_free(&d);
    }
    free(text);
    free(enc);
}

/* Each broken document is refused with its code and a message naming the problem. */
static void refused(const char *json, const uint8_t *bin, size_t bn, bool as_glb, hl_result code, const char *text) {
    size_t n = 0;
    uint8_t *g = as_glb ? glb(json, bin, bn, &n) : NULL;
    hl__gltf_doc d;
    hl_result r = as_glb ? hl__gltf_parse(g, n, NULL, &d) : hl__gltf_parse((const uint8_t *)json, strlen(json), NULL, &d);
    if (!r) { /* parse passed: the accessors must refuse */
        float out[256];
        r = HL_OK;
        for (uint32_t i = 0; !r && i < 16; i++) {
            hl__gltf_accessor_info info;
            hl_result e = hl__gltf_accessor_info_get(&d, i, &info);
            if (e && strstr(hl_last_error(), "does not exist")) break;
            r = e ? e : hl__gltf_accessor_read_float(&d, i, out, 256);
        }
        hl__gltf_free(&d);
    } else {
        static const hl__gltf_doc zero;
        HL_CHECK(memcmp(&d, &zero, sizeof d) == 0);
    }
    HL_CHECK_MSG(r == code && strstr(hl_last_error(), text), "code %d (want %d): '%s' (want '%s')", (int)r, (int)code,
                 r ? hl_last_error() : "", text);
    free(g);
}

#define DOC(bufs, views, accs) "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[" bufs "],\"bufferViews\":[" views "],\"accessors\":[" accs "]}"

static void test_refusals(void) {
    uint8_t bin[128];
    size_t bn = make_bin(bin);
    refused("{\"asset\":{\"version\":\"2.0\"", NULL, 0, false, HL_ERR_PARSE, "the JSON does not parse");
    refused("{\"asset\":{\"version\":\"1.0\"}}", NULL, 0, false, HL_ERR_PARSE, "asset.version must be \"2.x\"");
    refused("[1,2]", NULL, 0, false, HL_ERR_PARSE, "not a JSON object");
    refused(DOC("{\"byteLength\":128}", "", ""), bin, bn, true, HL_OK, "");
    refused(DOC("{\"byteLength\":200}", "", ""), bin, bn, true, HL_ERR_PARSE,
            "buffers[0].byteLength 200 is more than the GLB binary chunk's 128 bytes");
    refused(DOC("{\"byteLength\":4}", "", ""), NULL, 0, false, HL_ERR_PARSE, "buffers[0] has no uri");
    refused(DOC("{\"byteLength\":4,\"uri\":\"data:application/octet-stream;base64,AA*A\"}", "", ""), NULL, 0, false,
            HL_ERR_PARSE, "buffers[0].uri: bad base64");
    refused(DOC("{\"byteLength\":8,\"uri\":\"data:application/octet-stream;base64,AAAA\"}", "", ""), NULL, 0, false,
            HL_ERR_PARSE, "the data: URI holds 3 bytes, byteLength is 8");
    refused(DOC("{\"byteLength\":4,\"uri\":\"../secret.bin\"}", "", ""), NULL, 0, false, HL_ERR_PARSE,
            "is not a relative path inside the model's folder");
    refused(DOC("{\"byteLength\":4,\"uri\":\"model.bin\"}", "", ""), NULL, 0, false, HL_ERR_PARSE, "no folder was given");
    refused(DOC("{\"byteLength\":-4,\"uri\":\"model.bin\"}", "", ""), NULL, 0, false, HL_ERR_PARSE,
            "buffers[0].byteLength must be an integer");
    refused(DOC("{\"byteLength\":128}", "{\"buffer\":0,\"byteOffset\":100,\"byteLength\":40}",
                "{\"bufferView\":0,\"componentType\":5126,\"count\":1,\"type\":\"SCALAR\"}"),
            bin, bn, true, HL_ERR_PARSE, "bufferViews[0]: bytes [100, +40) pass buffer 0's 128 bytes");
    refused(DOC("{\"byteLength\":128}", "{\"buffer\":0,\"byteLength\":36}",
                "{\"bufferView\":0,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"}"),
            bin, bn, true, HL_ERR_PARSE, "accessors[0]: 4 elements from byte 0 need 48 bytes, bufferViews[0] has 36");
    refused(DOC("{\"byteLength\":128}", "{\"buffer\":0,\"byteLength\":36}",
                "{\"bufferView\":0,\"componentType\":5127,\"count\":1,\"type\":\"SCALAR\"}"),
            bin, bn, true, HL_ERR_PARSE, "accessors[0].componentType 5127 is not a glTF component type");
    refused(DOC("{\"byteLength\":128}", "{\"buffer\":0,\"byteLength\":36}",
                "{\"bufferView\":0,\"componentType\":5126,\"normalized\":true,\"count\":1,\"type\":\"SCALAR\"}"),
            bin, bn, true, HL_ERR_PARSE, "accessors[0].normalized is true for float components");
    refused(DOC("{\"byteLength\":128}", "{\"buffer\":0,\"byteLength\":36,\"byteStride\":6}",
                "{\"bufferView\":0,\"componentType\":5121,\"count\":1,\"type\":\"SCALAR\"}"),
            bin, bn, true, HL_ERR_PARSE, "bufferViews[0].byteStride 6");
    refused(DOC("{\"byteLength\":128}", "{\"buffer\":0,\"byteLength\":36}",
                "{\"bufferView\":0,\"byteOffset\":2,\"componentType\":5126,\"count\":1,\"type\":\"SCALAR\"}"),
            bin, bn, true, HL_ERR_PARSE, "accessors[0].byteOffset 2 is not aligned");
    refused(DOC("{\"byteLength\":128}", "{\"buffer\":0,\"byteLength\":36}",
                "{\"bufferView\":0,\"componentType\":5126,\"count\":1,\"type\":\"VEC5\"}"),
            bin, bn, true, HL_ERR_PARSE, "accessors[0].type must be SCALAR");
    refused(DOC("{\"byteLength\":128}", "{\"buffer\":3,\"byteLength\":36}",
                "{\"bufferView\":0,\"componentType\":5126,\"count\":1,\"type\":\"SCALAR\"}"),
            bin, bn, true, HL_ERR_PARSE, "bufferViews[0].buffer 3 (the document has 1 buffers)");
    refused(DOC("{\"byteLength\":128}",
                "{\"buffer\":0,\"byteOffset\":100,\"byteLength\":2},{\"buffer\":0,\"byteOffset\":104,\"byteLength\":16}",
                "{\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\",\"sparse\":{\"count\":2,"
                "\"indices\":{\"bufferView\":0,\"componentType\":5121},\"values\":{\"bufferView\":1}}}"),
            bin, bn, true, HL_ERR_PARSE, "accessors[0].sparse.indices: index 1 is 3 (strictly increasing, below count 2)");
    refused(DOC("{\"byteLength\":128}", "", "{\"componentType\":5126,\"count\":24999999,\"type\":\"VEC3\"}"), bin, bn,
            true, HL_ERR_PARSE, "accessors[0]: 24999999 elements without a bufferView (at most 72384 zero-initialised elements for this document)");
    refused(DOC("{\"byteLength\":128}", "{\"buffer\":0,\"byteOffset\":100,\"byteLength\":2}",
                "{\"componentType\":5126,\"count\":5,\"type\":\"SCALAR\",\"sparse\":{\"count\":2,"
                "\"indices\":{\"bufferView\":0,\"componentType\":5126},\"values\":{\"bufferView\":0}}}"),
            bin, bn, true, HL_ERR_PARSE, "accessors[0].sparse.indices.componentType 5126");
    /* GLB framing */
    size_t n = 0;
    uint8_t *g = glb(DOC("{\"byteLength\":128}", "", ""), bin, bn, &n);
    hl__gltf_doc d;
    uint32_t bad = (uint32_t)n + 4;
    memcpy(g + 8, &bad, 4);
    HL_CHECK_RESULT(hl__gltf_parse(g, n, NULL, &d), HL_ERR_PARSE);
    HL_CHECK(strstr(hl_last_error(), "the header's length") != NULL);
    bad = (uint32_t)n;
    memcpy(g + 8, &bad, 4);
    uint32_t huge = 0x7fffffff;
    memcpy(g + 12, &huge, 4);
    HL_CHECK_RESULT(hl__gltf_parse(g, n, NULL, &d), HL_ERR_PARSE);
    HL_CHECK(strstr(hl_last_error(), "passes the end of the file") != NULL);
    uint32_t fix = (uint32_t)((strlen(DOC("{\"byteLength\":128}", "", "")) + 3) & ~3u), notjson = 0x004E4942u;
    memcpy(g + 12, &fix, 4);
    memcpy(g + 16, &notjson, 4);
    HL_CHECK_RESULT(hl__gltf_parse(g, n, NULL, &d), HL_ERR_PARSE);
    HL_CHECK(strstr(hl_last_error(), "the first chunk is not JSON") != NULL);
    HL_CHECK_RESULT(hl__gltf_parse(g, 16, NULL, &d), HL_ERR_PARSE);
    free(g);
    /* base64 */
    uint8_t *o = NULL;
    size_t on = 0;
    HL_CHECK(hl__base64_decode("TWFu", 4, &o, &on) && on == 3 && !memcmp(o, "Man", 3));
    hl__free(o);
    HL_CHECK(hl__base64_decode("TWE=", 4, &o, &on) && on == 2 && !memcmp(o, "Ma", 2));
    hl__free(o);
    HL_CHECK(!hl__base64_decode("TWE", 3, &o, &on) && !o);
    HL_CHECK(!hl__base64_decode("T=E=", 4, &o, &on) && !o);
}

/* A document of one buffer (data: URI of bin) and the given views / accessors / meshes. */
static hl_result doc_of(const uint8_t *bin, size_t bn, const char *views, const char *accs, const char *meshes, hl__gltf_doc *d) {
    char *enc = b64enc(bin, bn);
    size_t cap = strlen(enc) + strlen(views) + strlen(accs) + strlen(meshes) + 256;
    char *t = malloc(cap);
    snprintf(t, cap,
             "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":%zu,\"uri\":\"data:application/"
             "octet-stream;base64,%s\"}],\"bufferViews\":[%s],\"accessors\":[%s],\"meshes\":[%s]}",
             bn, enc, views, accs, meshes);
    hl_result r = hl__gltf_parse((const uint8_t *)t, strlen(t), NULL, d);
    free(t);
    free(enc);
    return r;
}

static void test_primitives(void) {
    /* 0: 4 positions of a unit square (strip order); 48: 3 COLOR_0 VEC3; 84: 5 u16 fan indices */
    uint8_t bin[96];
    memset(bin, 0, sizeof bin);
    const float pos[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
    const float col[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    const uint16_t fan[5] = {0, 1, 3, 2, 0};
    memcpy(bin, pos, 48);
    memcpy(bin + 48, col, 36);
    memcpy(bin + 84, fan, 10);
    const char *views = "{\"buffer\":0,\"byteLength\":48},{\"buffer\":0,\"byteOffset\":48,\"byteLength\":36},"
                        "{\"buffer\":0,\"byteOffset\":84,\"byteLength\":10}";
    const char *accs = "{\"bufferView\":0,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"},"
                       "{\"bufferView\":1,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
                       "{\"bufferView\":2,\"componentType\":5123,\"count\":4,\"type\":\"SCALAR\"},"
                       "{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
                       "{\"bufferView\":2,\"componentType\":5123,\"count\":5,\"type\":\"SCALAR\"}";
    const char *meshes =
        "{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"mode\":5},"                        /* strip, flat */
        "{\"attributes\":{\"POSITION\":3,\"NORMAL\":3,\"COLOR_0\":1}},"                        /* list, colours */
        "{\"attributes\":{\"POSITION\":0,\"NORMAL\":0},\"indices\":2,\"mode\":6},"            /* fan, indexed */
        "{\"attributes\":{\"POSITION\":0,\"NORMAL\":0},\"mode\":2},"                           /* line loop */
        "{\"attributes\":{\"NORMAL\":0}},"                                                         /* no POSITION */
        "{\"attributes\":{\"POSITION\":0,\"COLOR_0\":1}},"                                       /* counts differ */
        "{\"attributes\":{\"POSITION\":0},\"indices\":4,\"mode\":7},"                          /* bad mode */
        "{\"attributes\":{\"POSITION\":3},\"indices\":2}"                                        /* index 3 of 3 */
        "]}";
    hl__gltf_doc d;
    hl_result r = doc_of(bin, sizeof bin, views, accs, meshes, &d);
    HL_CHECK_MSG(r == HL_OK, "%s", hl_last_error());
    if (r) return;
    hl_geometry *g = NULL;
    /* the strip: two triangles, flat normals +Z, six vertices */
    HL_CHECK_OK(hl__gltf_primitive_geometry(&d, 0, 0, &g));
    if (g) {
        const hl_geometry_layout *l = hl_geometry_get_layout(g);
        HL_CHECK(l->vertex_count == 6 && l->index_count == 0 && l->topology == HL_TOPOLOGY_TRIANGLES);
        static const float want[6][2] = {{0, 0}, {1, 0}, {0, 1}, {0, 1}, {1, 0}, {1, 1}};
        for (uint32_t i = 0; i < 6; i++) {
            float p[4], n[4];
            HL_CHECK_OK(hl_geometry_read_vertex(g, HL_ATTR_POSITION, i, p));
            HL_CHECK_OK(hl_geometry_read_vertex(g, HL_ATTR_NORMAL, i, n));
            HL_CHECK_MSG(p[0] == want[i][0] && p[1] == want[i][1] && n[0] == 0 && n[1] == 0 && n[2] == 1,
                         "strip vertex %u: (%g, %g) normal (%g, %g, %g)", i, (double)p[0], (double)p[1], (double)n[0],
                         (double)n[1], (double)n[2]);
        }
        hl_geometry_release(g);
    }
    /* a list with VEC3 colours: alpha 1 */
    HL_CHECK_OK(hl__gltf_primitive_geometry(&d, 0, 1, &g));
    if (g) {
        float c[4];
        HL_CHECK_OK(hl_geometry_read_vertex(g, HL_ATTR_COLOR_0, 2, c));
        HL_CHECK(c[0] == 0 && c[1] == 0 && c[2] == 1 && c[3] == 1);
        HL_CHECK_EQ(hl_geometry_get_layout(g)->index_count, 3);
        hl_geometry_release(g);
    }
    /* the fan 0,1,3,2: triangles (0,1,3) (0,3,2) */
    HL_CHECK_OK(hl__gltf_primitive_geometry(&d, 0, 2, &g));
    if (g) {
        const hl_geometry_layout *l = hl_geometry_get_layout(g);
        const uint32_t *ix = hl_geometry_index_data(g);
        HL_CHECK(l->index_count == 6 && ix && ix[0] == 0 && ix[1] == 1 && ix[2] == 3 && ix[3] == 0 && ix[4] == 3 && ix[5] == 2);
        hl_geometry_release(g);
    }
    /* the loop: four lines */
    HL_CHECK_OK(hl__gltf_primitive_geometry(&d, 0, 3, &g));
    if (g) {
        const hl_geometry_layout *l = hl_geometry_get_layout(g);
        const uint32_t *ix = hl_geometry_index_data(g);
        HL_CHECK(l->topology == HL_TOPOLOGY_LINES && l->index_count == 8 && ix && ix[6] == 3 && ix[7] == 0);
        hl_geometry_release(g);
    }
    static const char *const errors[] = {
        "meshes[0].primitives[4].attributes.POSITION is missing",
        "meshes[0].primitives[5].attributes.COLOR_0: 3 vertices, the other attributes 4",
        "meshes[0].primitives[6].mode must be an integer in [0, 6]",
        "meshes[0].primitives[7].indices: index 2 is 3, past the 3 vertices",
    };
    for (uint32_t i = 0; i < 4; i++) {
        g = (hl_geometry *)&d;
        HL_CHECK_RESULT(hl__gltf_primitive_geometry(&d, 0, 4 + i, &g), HL_ERR_PARSE);
        HL_CHECK_MSG(g == NULL && strstr(hl_last_error(), errors[i]), "primitive %u: '%s' (want '%s')", 4 + i,
                     hl_last_error(), errors[i]);
    }
    HL_CHECK_RESULT(hl__gltf_primitive_geometry(&d, 0, 9, &g), HL_ERR_PARSE);
    HL_CHECK_RESULT(hl__gltf_primitive_geometry(&d, 3, 0, &g), HL_ERR_PARSE);
    hl__gltf_free(&d);
}

int main(void) {
    test_containers();
    test_primitives();
    test_refusals();
    return hl_test_finish();
}
