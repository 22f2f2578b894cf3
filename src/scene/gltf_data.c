/* glTF 2.0 data layer: container, buffers, accessors (gltf_internal.h). */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gltf_internal.h"
#include "hilo3d/geometry.h"

/* ---- base64 ---------------------------------------------------------------------------------------- */
static int b64(char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

bool hl__base64_decode(const char *text, size_t len, uint8_t **out, size_t *out_size) {
    *out = NULL;
    *out_size = 0;
    if (len % 4) return false;
    size_t pad = len && text[len - 1] == '=' ? (len > 1 && text[len - 2] == '=' ? 2 : 1) : 0;
    size_t n = len / 4 * 3 - pad;
    uint8_t *d = hl__malloc(n ? n : 1);
    if (!d) return false;
    size_t o = 0;
    for (size_t i = 0; i < len; i += 4) {
        int v[4];
        for (int k = 0; k < 4; k++) {
            bool padded = i + 4 == len && (size_t)k >= 4 - pad;
            v[k] = padded ? 0 : b64(text[i + (size_t)k]);
            if (v[k] < 0) {
                hl__free(d);
                return false;
            }
        }
        uint32_t w = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 | (uint32_t)v[2] << 6 | (uint32_t)v[3];
        uint8_t b[3] = {(uint8_t)(w >> 16), (uint8_t)(w >> 8), (uint8_t)w};
        for (int k = 0; k < 3 && o < n; k++) d[o++] = b[k];
    }
    *out = d;
    *out_size = n;
    return true;
}

/* ---- JSON helpers ------------------------------------------------------------------------------------ */
/* An integer member in [lo, hi] (absent: *out = def when not required). */
hl_result hl__gltf_get_uint(const cJSON *obj, const char *key, const char *path, bool required, uint64_t def,
                            uint64_t hi, uint64_t *out) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) {
        if (required) return hl__fail(HL_ERR_PARSE, "glTF: %s.%s is missing", path, key);
        *out = def;
        return HL_OK;
    }
    double d = v->valuedouble;
    if (!cJSON_IsNumber(v) || !(d >= 0.0) || d > (double)hi || d != floor(d))
        return hl__fail(HL_ERR_PARSE, "glTF: %s.%s must be an integer in [0, %llu]", path, key, (unsigned long long)hi);
    *out = (uint64_t)d;
    return HL_OK;
}

const cJSON *hl__gltf_array_item(const cJSON *root, const char *name, uint64_t index, const char *path, hl_result *res) {
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(root, name);
    int n = cJSON_IsArray(a) ? cJSON_GetArraySize(a) : 0;
    if ((uint64_t)n <= index) {
        *res = hl__fail(HL_ERR_PARSE, "glTF: %s refers to %s[%llu], which does not exist (%d %s)", path, name,
                        (unsigned long long)index, n, name);
        return NULL;
    }
    const cJSON *o = cJSON_GetArrayItem(a, (int)index);
    if (!cJSON_IsObject(o)) {
        *res = hl__fail(HL_ERR_PARSE, "glTF: %s[%llu] is not an object", name, (unsigned long long)index);
        return NULL;
    }
    *res = HL_OK;
    return o;
}

/* ---- the container ------------------------------------------------------------------------------------- */
static uint32_t le32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

/* Reads `need` bytes of a file (0: the whole file, 1..max bytes) into *out (*out_size). */
static hl_result read_file(const char *path, uint64_t need, uint64_t max, uint8_t **out, uint64_t *out_size,
                           const char *what) {
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) return hl__fail(HL_ERR_IO, "glTF: %s: cannot open '%s': %s", what, path, strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(f);
        return hl__fail(HL_ERR_IO, "glTF: %s: '%s' is not a regular file", what, path);
    }
    if (!need && (st.st_size <= 0 || (uint64_t)st.st_size > max)) {
        fclose(f);
        return hl__fail(HL_ERR_IO, "glTF: %s: '%s' has %lld bytes (1 to %llu allowed)", what, path, (long long)st.st_size,
                        (unsigned long long)max);
    }
    if (!need) need = (uint64_t)st.st_size;
    if ((uint64_t)st.st_size < need) {
        fclose(f);
        return hl__fail(HL_ERR_PARSE, "glTF: %s: '%s' has %lld bytes, byteLength is %llu", what, path,
                        (long long)st.st_size, (unsigned long long)need);
    }
    uint8_t *d = hl__malloc((size_t)need);
    if (!d) {
        fclose(f);
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "glTF: %s: %llu bytes", what, (unsigned long long)need);
    }
    size_t got = fread(d, 1, (size_t)need, f);
    fclose(f);
    if (got != need) {
        hl__free(d);
        return hl__fail(HL_ERR_IO, "glTF: %s: reading '%s' failed", what, path);
    }
    *out = d;
    *out_size = need;
    return HL_OK;
}

/* The bytes URI u names (path: its JSON path): a base64 data: URI, or a file in base_dir (no
 * scheme, no absolute path, no `..`). need: bytes required (0: any length, at most max). */
static hl_result uri_read(const char *base_dir, const char *u, const char *path, uint64_t need, uint64_t max,
                          uint8_t **out, uint64_t *out_size) {
    *out = NULL;
    if (strncmp(u, "data:", 5) == 0) {
        const char *comma = strstr(u, ";base64,");
        if (!comma) return hl__fail(HL_ERR_PARSE, "glTF: %s is a data: URI without ';base64,'", path);
        const char *text = comma + 8;
        size_t n = 0;
        if (!hl__base64_decode(text, strlen(text), out, &n))
            return hl__fail(HL_ERR_PARSE, "glTF: %s: bad base64 (a character outside the alphabet or a bad length)", path);
        if (n < need || !n || n > max) {
            hl__free(*out);
            *out = NULL;
            if (need) return hl__fail(HL_ERR_PARSE, "glTF: %s: the data: URI holds %zu bytes, byteLength is %llu", path, n,
                                      (unsigned long long)need);
            return hl__fail(HL_ERR_PARSE, "glTF: %s: the data: URI holds %zu bytes (1 to %llu allowed)", path, n,
                            (unsigned long long)max);
        }
        *out_size = need ? need : n;
        return HL_OK;
    }
    if (strstr(u, "://") || u[0] == '/' || strstr(u, "..") || strchr(u, '\\'))
        return hl__fail(HL_ERR_PARSE, "glTF: %s '%.64s' is not a relative path inside the model's folder", path, u);
    if (!base_dir) return hl__fail(HL_ERR_PARSE, "glTF: %s '%.64s' names a file, and no folder was given", path, u);
    size_t pn = strlen(base_dir) + strlen(u) + 2;
    char *full = hl__malloc(pn);
    if (!full) return hl__fail(HL_ERR_OUT_OF_MEMORY, "glTF: %s", path);
    snprintf(full, pn, "%s/%s", base_dir, u);
    hl_result res = read_file(full, need, max, out, out_size, path);
    hl__free(full);
    return res;
}

static hl_result load_buffer(hl__gltf_doc *doc, uint32_t i, const cJSON *b, const uint8_t *bin, uint64_t bin_size,
                             const char *base_dir) {
    char path[64];
    snprintf(path, sizeof path, "buffers[%u]", i);
    uint64_t len = 0;
    hl_result res = hl__gltf_get_uint(b, "byteLength", path, true, 0, HL__GLTF_MAX_BUFFER_BYTES, &len);
    if (res) return res;
    if (!len) return hl__fail(HL_ERR_PARSE, "glTF: %s.byteLength must be at least 1", path);
    const cJSON *uri = cJSON_GetObjectItemCaseSensitive(b, "uri");
    hl__gltf_buffer *out = &doc->buffers[i];
    if (!uri) { /* the GLB binary chunk: buffer 0 only */
        if (i != 0 || !bin) return hl__fail(HL_ERR_PARSE, "glTF: %s has no uri (only buffer 0 of a .glb may omit it)", path);
        if (bin_size < len)
            return hl__fail(HL_ERR_PARSE, "glTF: %s.byteLength %llu is more than the GLB binary chunk's %llu bytes", path,
                            (unsigned long long)len, (unsigned long long)bin_size);
        out->data = hl__malloc((size_t)len);
        if (!out->data) return hl__fail(HL_ERR_OUT_OF_MEMORY, "glTF: %s: %llu bytes", path, (unsigned long long)len);
        memcpy(out->data, bin, (size_t)len);
        out->size = len;
        return HL_OK;
    }
    if (!cJSON_IsString(uri)) return hl__fail(HL_ERR_PARSE, "glTF: %s.uri must be a string", path);
    char upath[72];
    snprintf(upath, sizeof upath, "%s.uri", path);
    return uri_read(base_dir, uri->valuestring, upath, len, HL__GLTF_MAX_BUFFER_BYTES, &out->data, &out->size);
}

hl_result hl__gltf_image_bytes(const hl__gltf_doc *doc, uint32_t image, uint64_t max, const uint8_t **data,
                               uint64_t *size, uint8_t **owned) {
    *owned = NULL;
    *data = NULL;
    *size = 0;
    char path[48];
    snprintf(path, sizeof path, "images[%u]", image);
    hl_result res;
    const cJSON *img = hl__gltf_array_item(doc->json, "images", image, path, &res);
    if (!img) return res;
    const cJSON *uri = cJSON_GetObjectItemCaseSensitive(img, "uri");
    if (uri) {
        if (!cJSON_IsString(uri)) return hl__fail(HL_ERR_PARSE, "glTF: %s.uri must be a string", path);
        char upath[64];
        snprintf(upath, sizeof upath, "%s.uri", path);
        res = uri_read(doc->base_dir, uri->valuestring, upath, 0, max, owned, size);
        *data = *owned;
        return res;
    }
    uint64_t view = 0, buf = 0, off = 0, len = 0;
    if ((res = hl__gltf_get_uint(img, "bufferView", path, true, 0, UINT32_MAX, &view))) return res;
    char vpath[48];
    snprintf(vpath, sizeof vpath, "bufferViews[%llu]", (unsigned long long)view);
    const cJSON *v = hl__gltf_array_item(doc->json, "bufferViews", view, path, &res);
    if (!v) return res;
    if ((res = hl__gltf_get_uint(v, "buffer", vpath, true, 0, UINT32_MAX, &buf)) ||
        (res = hl__gltf_get_uint(v, "byteOffset", vpath, false, 0, HL__GLTF_MAX_BUFFER_BYTES, &off)) ||
        (res = hl__gltf_get_uint(v, "byteLength", vpath, true, 0, HL__GLTF_MAX_BUFFER_BYTES, &len)))
        return res;
    if (buf >= doc->buffer_count || !len || off + len > doc->buffers[buf].size)
        return hl__fail(HL_ERR_PARSE, "glTF: %s: bytes [%llu, +%llu) of buffer %llu are not in the document's buffers",
                        vpath, (unsigned long long)off, (unsigned long long)len, (unsigned long long)buf);
    if (len > max)
        return hl__fail(HL_ERR_PARSE, "glTF: %s: %llu bytes of image data (at most %llu)", path, (unsigned long long)len,
                        (unsigned long long)max);
    *data = doc->buffers[buf].data + off;
    *size = len;
    return HL_OK;
}

void hl__gltf_free(hl__gltf_doc *doc) {
    if (!doc) return;
    for (uint32_t i = 0; i < doc->buffer_count; i++) hl__free(doc->buffers[i].data);
    hl__free(doc->buffers);
    hl__free(doc->base_dir);
    if (doc->json) cJSON_Delete(doc->json);
    memset(doc, 0, sizeof *doc);
}

hl_result hl__gltf_parse(const uint8_t *data, size_t size, const char *base_dir, hl__gltf_doc *out) {
    memset(out, 0, sizeof *out);
    if (!data || !size) return hl__fail(HL_ERR_PARSE, "glTF: the document is empty");
    if (size > HL__GLTF_MAX_BYTES) return hl__fail(HL_ERR_PARSE, "glTF: the document is larger than 1 GiB");
    const char *json = (const char *)data;
    size_t json_size = size;
    const uint8_t *bin = NULL;
    uint64_t bin_size = 0;
    if (size >= 4 && le32(data) == 0x46546C67u) { /* "glTF": a GLB */
        if (size < 20) return hl__fail(HL_ERR_PARSE, "glb: %zu bytes, shorter than a header and one chunk", size);
        uint32_t version = le32(data + 4), length = le32(data + 8);
        if (version != 2) return hl__fail(HL_ERR_PARSE, "glb: version %u (2 expected)", version);
        if (length != size)
            return hl__fail(HL_ERR_PARSE, "glb: the header's length %u is not the file's %zu bytes", length, size);
        size_t at = 12;
        for (uint32_t c = 0; at < size; c++) {
            if (size - at < 8) return hl__fail(HL_ERR_PARSE, "glb: chunk %u: %zu bytes left, a chunk header needs 8", c, size - at);
            uint32_t clen = le32(data + at), ctype = le32(data + at + 4);
            if (clen > size - at - 8)
                return hl__fail(HL_ERR_PARSE, "glb: chunk %u: length %u passes the end of the file", c, clen);
            if (c == 0 && ctype != 0x4E4F534Au) return hl__fail(HL_ERR_PARSE, "glb: the first chunk is not JSON");
            if (c == 0) json = (const char *)data + at + 8, json_size = clen;
            else if (c == 1 && ctype == 0x004E4942u) bin = data + at + 8, bin_size = clen;
            at += 8 + (size_t)clen;
        }
    }
    cJSON *root = cJSON_ParseWithLength(json, json_size);
    if (!root) return hl__fail(HL_ERR_PARSE, "glTF: the JSON does not parse (near byte %td)",
                               cJSON_GetErrorPtr() ? cJSON_GetErrorPtr() - json : (ptrdiff_t)0);
    out->json = root;
    hl_result res = HL_OK;
    if (base_dir && !(out->base_dir = hl__strdup(base_dir))) res = hl__fail(HL_ERR_OUT_OF_MEMORY, "glTF: base folder");
    if (!cJSON_IsObject(root)) res = hl__fail(HL_ERR_PARSE, "glTF: the document is not a JSON object");
    const cJSON *asset = res ? NULL : cJSON_GetObjectItemCaseSensitive(root, "asset");
    const cJSON *ver = asset ? cJSON_GetObjectItemCaseSensitive(asset, "version") : NULL;
    if (!res && (!cJSON_IsString(ver) || strncmp(ver->valuestring, "2.", 2) != 0))
        res = hl__fail(HL_ERR_PARSE, "glTF: asset.version must be \"2.x\"");
    const cJSON *buffers = res ? NULL : cJSON_GetObjectItemCaseSensitive(root, "buffers");
    if (!res && buffers && !cJSON_IsArray(buffers)) res = hl__fail(HL_ERR_PARSE, "glTF: buffers must be an array");
    int nb = buffers ? cJSON_GetArraySize(buffers) : 0;
    if (!res && nb > (int)HL__GLTF_MAX_BUFFERS) res = hl__fail(HL_ERR_PARSE, "glTF: %d buffers (at most %u)", nb, HL__GLTF_MAX_BUFFERS);
    if (!res && nb) {
        out->buffers = hl__calloc((size_t)nb, sizeof *out->buffers);
        if (!out->buffers) res = hl__fail(HL_ERR_OUT_OF_MEMORY, "glTF: buffers");
        else out->buffer_count = (uint32_t)nb;
    }
    for (int i = 0; !res && i < nb; i++) {
        const cJSON *b = cJSON_GetArrayItem(buffers, i);
        res = cJSON_IsObject(b) ? load_buffer(out, (uint32_t)i, b, bin, bin_size, base_dir)
                                : hl__fail(HL_ERR_PARSE, "glTF: buffers[%d] is not an object", i);
    }
    if (!res) {
        uint64_t bytes = size;
        for (uint32_t i = 0; i < out->buffer_count; i++) bytes += out->buffers[i].size;
        uint64_t max = 65536u + 16u * bytes;
        out->zero_elements_max = max < HL__GLTF_MAX_ZERO_ELEMENTS ? max : HL__GLTF_MAX_ZERO_ELEMENTS;
    }
    if (res) hl__gltf_free(out);
    return res;
}

/* ---- accessors ------------------------------------------------------------------------------------------ */
static uint32_t component_size(uint32_t t) {
    switch (t) {
    case HL__GLTF_I8:
    case HL__GLTF_U8: return 1;
    case HL__GLTF_I16:
    case HL__GLTF_U16: return 2;
    case HL__GLTF_U32:
    case HL__GLTF_F32: return 4;
    default: return 0;
    }
}

/* A resolved view of elements: base pointer, stride, count, layout of one element. */
typedef struct elems {
    const uint8_t *base; /* NULL: all zeros (an accessor without bufferView) */
    uint64_t stride;
    uint32_t count, comps, ctype, csize;
    uint32_t rows, col_stride; /* matrices: rows and the padded column stride; 0 otherwise */
    bool normalized;
} elems;

static uint64_t elem_size(const elems *e) { return e->rows ? (uint64_t)e->col_stride * (e->comps / e->rows) : (uint64_t)e->comps * e->csize; }

static const uint8_t *comp_at(const elems *e, uint32_t i, uint32_t j) {
    uint64_t off = (uint64_t)i * e->stride + (e->rows ? (uint64_t)(j / e->rows) * e->col_stride + (uint64_t)(j % e->rows) * e->csize
                                                     : (uint64_t)j * e->csize);
    return e->base + off;
}

static double comp_value(const elems *e, const uint8_t *p) {
    switch (e->ctype) {
    case HL__GLTF_I8: {
        int8_t v = (int8_t)p[0];
        return e->normalized ? (v / 127.0 < -1.0 ? -1.0 : v / 127.0) : v;
    }
    case HL__GLTF_U8: return e->normalized ? p[0] / 255.0 : p[0];
    case HL__GLTF_I16: {
        int16_t v;
        memcpy(&v, p, 2);
        return e->normalized ? (v / 32767.0 < -1.0 ? -1.0 : v / 32767.0) : v;
    }
    case HL__GLTF_U16: {
        uint16_t v;
        memcpy(&v, p, 2);
        return e->normalized ? v / 65535.0 : v;
    }
    case HL__GLTF_U32: {
        uint32_t v;
        memcpy(&v, p, 4);
        return v;
    }
    default: {
        float v;
        memcpy(&v, p, 4);
        return v;
    }
    }
}

/* The elements a bufferView holds from byte_offset: count elements of e's layout (stride from the
 * view unless tight). */
static hl_result view_elems(const hl__gltf_doc *doc, uint64_t view, uint64_t byte_offset, bool allow_stride, elems *e,
                            const char *path) {
    hl_result res;
    char vpath[48];
    snprintf(vpath, sizeof vpath, "bufferViews[%llu]", (unsigned long long)view);
    const cJSON *v = hl__gltf_array_item(doc->json, "bufferViews", view, path, &res);
    if (!v) return res;
    uint64_t buf = 0, off = 0, len = 0, stride = 0;
    if ((res = hl__gltf_get_uint(v, "buffer", vpath, true, 0, UINT32_MAX, &buf)) ||
        (res = hl__gltf_get_uint(v, "byteOffset", vpath, false, 0, HL__GLTF_MAX_BUFFER_BYTES, &off)) ||
        (res = hl__gltf_get_uint(v, "byteLength", vpath, true, 0, HL__GLTF_MAX_BUFFER_BYTES, &len)) ||
        (res = hl__gltf_get_uint(v, "byteStride", vpath, false, 0, 252, &stride)))
        return res;
    if (buf >= doc->buffer_count)
        return hl__fail(HL_ERR_PARSE, "glTF: %s.buffer %llu (the document has %u buffers)", vpath, (unsigned long long)buf,
                        doc->buffer_count);
    if (!len || off + len > doc->buffers[buf].size)
        return hl__fail(HL_ERR_PARSE, "glTF: %s: bytes [%llu, +%llu) pass buffer %llu's %llu bytes (or are empty)", vpath,
                        (unsigned long long)off, (unsigned long long)len, (unsigned long long)buf,
                        (unsigned long long)doc->buffers[buf].size);
    if (stride && (!allow_stride || stride < 4 || stride % 4))
        return hl__fail(HL_ERR_PARSE, "glTF: %s.byteStride %llu (4..252, a multiple of 4%s)", vpath,
                        (unsigned long long)stride, allow_stride ? "" : "; none for sparse data");
    uint64_t es = elem_size(e);
    e->stride = stride ? stride : es;
    if (e->stride < es)
        return hl__fail(HL_ERR_PARSE, "glTF: %s.byteStride %llu is less than the %llu-byte element of %s", vpath,
                        (unsigned long long)e->stride, (unsigned long long)es, path);
    if (byte_offset % e->csize || (off + byte_offset) % e->csize)
        return hl__fail(HL_ERR_PARSE, "glTF: %s.byteOffset %llu is not aligned to its %u-byte components", path,
                        (unsigned long long)byte_offset, e->csize);
    uint64_t need = byte_offset + (uint64_t)(e->count - 1) * e->stride + es;
    if (need > len)
        return hl__fail(HL_ERR_PARSE, "glTF: %s: %u elements from byte %llu need %llu bytes, %s has %llu", path, e->count,
                        (unsigned long long)byte_offset, (unsigned long long)need, vpath, (unsigned long long)len);
    e->base = doc->buffers[buf].data + off + byte_offset;
    return HL_OK;
}

typedef struct sparse {
    uint32_t count;
    elems indices, values;
} sparse;

static hl_result accessor(const hl__gltf_doc *doc, uint32_t index, elems *e, sparse *sp, hl__gltf_accessor_info *info) {
    char path[48];
    snprintf(path, sizeof path, "accessors[%u]", index);
    memset(e, 0, sizeof *e);
    memset(sp, 0, sizeof *sp);
    hl_result res;
    const cJSON *a = hl__gltf_array_item(doc->json, "accessors", index, path, &res);
    if (!a) return res;
    uint64_t ctype = 0, count = 0, view = 0, off = 0;
    if ((res = hl__gltf_get_uint(a, "componentType", path, true, 0, UINT32_MAX, &ctype)) ||
        (res = hl__gltf_get_uint(a, "count", path, true, 0, UINT32_MAX, &count)))
        return res;
    e->ctype = (uint32_t)ctype;
    e->csize = component_size(e->ctype);
    if (!e->csize) return hl__fail(HL_ERR_PARSE, "glTF: %s.componentType %llu is not a glTF component type", path, (unsigned long long)ctype);
    if (!count) return hl__fail(HL_ERR_PARSE, "glTF: %s.count must be at least 1", path);
    e->count = (uint32_t)count;
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(a, "type");
    static const struct {
        const char *name;
        uint32_t comps, rows;
    } k_types[] = {{"SCALAR", 1, 0}, {"VEC2", 2, 0}, {"VEC3", 3, 0}, {"VEC4", 4, 0}, {"MAT2", 4, 2}, {"MAT3", 9, 3}, {"MAT4", 16, 4}};
    for (size_t t = 0; cJSON_IsString(type) && t < sizeof k_types / sizeof k_types[0]; t++)
        if (!strcmp(type->valuestring, k_types[t].name)) e->comps = k_types[t].comps, e->rows = k_types[t].rows;
    if (!e->comps) return hl__fail(HL_ERR_PARSE, "glTF: %s.type must be SCALAR, VEC2, VEC3, VEC4, MAT2, MAT3 or MAT4", path);
    if (e->rows) e->col_stride = (e->rows * e->csize + 3u) & ~3u;
    const cJSON *norm = cJSON_GetObjectItemCaseSensitive(a, "normalized");
    if (norm && !cJSON_IsBool(norm)) return hl__fail(HL_ERR_PARSE, "glTF: %s.normalized must be a boolean", path);
    e->normalized = cJSON_IsTrue(norm);
    if (e->normalized && (e->ctype == HL__GLTF_U32 || e->ctype == HL__GLTF_F32))
        return hl__fail(HL_ERR_PARSE, "glTF: %s.normalized is true for %s components", path,
                        e->ctype == HL__GLTF_F32 ? "float" : "unsigned int");
    bool has_view = cJSON_GetObjectItemCaseSensitive(a, "bufferView") != NULL;
    if ((res = hl__gltf_get_uint(a, "bufferView", path, false, 0, UINT32_MAX, &view)) ||
        (res = hl__gltf_get_uint(a, "byteOffset", path, false, 0, HL__GLTF_MAX_BUFFER_BYTES, &off)))
        return res;
    if (!has_view && off) return hl__fail(HL_ERR_PARSE, "glTF: %s.byteOffset without a bufferView", path);
    if (!has_view && e->count > doc->zero_elements_max) /* a few bytes would otherwise claim gigabytes */
        return hl__fail(HL_ERR_PARSE, "glTF: %s: %u elements without a bufferView (at most %llu zero-initialised elements "
                        "for this document)", path, e->count, (unsigned long long)doc->zero_elements_max);
    if (has_view && (res = view_elems(doc, view, off, true, e, path))) return res;
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(a, "sparse");
    if (s) {
        char spath[64];
        snprintf(spath, sizeof spath, "%s.sparse", path);
        if (!cJSON_IsObject(s)) return hl__fail(HL_ERR_PARSE, "glTF: %s must be an object", spath);
        uint64_t sc = 0;
        if ((res = hl__gltf_get_uint(s, "count", spath, true, 0, e->count, &sc))) return res;
        if (!sc) return hl__fail(HL_ERR_PARSE, "glTF: %s.count must be at least 1", spath);
        sp->count = (uint32_t)sc;
        const cJSON *ind = cJSON_GetObjectItemCaseSensitive(s, "indices"), *val = cJSON_GetObjectItemCaseSensitive(s, "values");
        if (!cJSON_IsObject(ind) || !cJSON_IsObject(val))
            return hl__fail(HL_ERR_PARSE, "glTF: %s needs objects indices and values", spath);
        char ipath[80], vpath[80];
        snprintf(ipath, sizeof ipath, "%s.indices", spath);
        snprintf(vpath, sizeof vpath, "%s.values", spath);
        uint64_t iv = 0, io = 0, it = 0, vv = 0, vo = 0;
        if ((res = hl__gltf_get_uint(ind, "bufferView", ipath, true, 0, UINT32_MAX, &iv)) ||
            (res = hl__gltf_get_uint(ind, "byteOffset", ipath, false, 0, HL__GLTF_MAX_BUFFER_BYTES, &io)) ||
            (res = hl__gltf_get_uint(ind, "componentType", ipath, true, 0, UINT32_MAX, &it)) ||
            (res = hl__gltf_get_uint(val, "bufferView", vpath, true, 0, UINT32_MAX, &vv)) ||
            (res = hl__gltf_get_uint(val, "byteOffset", vpath, false, 0, HL__GLTF_MAX_BUFFER_BYTES, &vo)))
            return res;
        if (it != HL__GLTF_U8 && it != HL__GLTF_U16 && it != HL__GLTF_U32)
            return hl__fail(HL_ERR_PARSE, "glTF: %s.componentType %llu (5121, 5123 or 5125)", ipath, (unsigned long long)it);
        sp->indices = (elems){NULL, 0, sp->count, 1, (uint32_t)it, component_size((uint32_t)it), 0, 0, false};
        sp->values = *e;
        sp->values.count = sp->count;
        sp->values.base = NULL;
        if ((res = view_elems(doc, iv, io, false, &sp->indices, ipath)) || (res = view_elems(doc, vv, vo, false, &sp->values, vpath)))
            return res;
        uint64_t prev = 0;
        for (uint32_t i = 0; i < sp->count; i++) { /* strictly increasing, within the accessor */
            uint64_t k = (uint64_t)comp_value(&sp->indices, comp_at(&sp->indices, i, 0));
            if (k >= e->count || (i && k <= prev))
                return hl__fail(HL_ERR_PARSE, "glTF: %s: index %u is %llu (strictly increasing, below count %u)", ipath, i,
                                (unsigned long long)k, e->count);
            prev = k;
        }
    }
    if (info) *info = (hl__gltf_accessor_info){e->count, e->comps, e->ctype, e->normalized, s != NULL};
    return HL_OK;
}

hl_result hl__gltf_accessor_info_get(const hl__gltf_doc *doc, uint32_t index, hl__gltf_accessor_info *out) {
    elems e;
    sparse sp;
    return accessor(doc, index, &e, &sp, out);
}

/* count * comps values of accessor index, as doubles through put(i, value). */
static hl_result read_all(const hl__gltf_doc *doc, uint32_t index, size_t out_count, bool integer, void *out) {
    elems e;
    sparse sp;
    hl__gltf_accessor_info info;
    hl_result res = accessor(doc, index, &e, &sp, &info);
    if (res) return res;
    if (integer && (e.ctype == HL__GLTF_F32 || e.ctype == HL__GLTF_I8 || e.ctype == HL__GLTF_I16 || e.normalized))
        return hl__fail(HL_ERR_PARSE, "glTF: accessors[%u] holds %s values where unsigned integers are expected", index,
                        e.normalized ? "normalized" : e.ctype == HL__GLTF_F32 ? "float" : "signed");
    uint64_t n = (uint64_t)e.count * e.comps;
    if (out_count < n)
        return hl__fail(HL_ERR_VALIDATION, "glTF: accessors[%u] has %llu values, the destination %zu", index,
                        (unsigned long long)n, out_count);
    for (uint32_t i = 0; i < e.count; i++)
        for (uint32_t j = 0; j < e.comps; j++) {
            double v = e.base ? comp_value(&e, comp_at(&e, i, j)) : 0.0;
            if (integer) ((uint32_t *)out)[(size_t)i * e.comps + j] = (uint32_t)v;
            else ((float *)out)[(size_t)i * e.comps + j] = (float)v;
        }
    for (uint32_t s = 0; s < sp.count; s++) {
        uint32_t k = (uint32_t)comp_value(&sp.indices, comp_at(&sp.indices, s, 0));
        for (uint32_t j = 0; j < e.comps; j++) {
            double v = comp_value(&sp.values, comp_at(&sp.values, s, j));
            if (integer) ((uint32_t *)out)[(size_t)k * e.comps + j] = (uint32_t)v;
            else ((float *)out)[(size_t)k * e.comps + j] = (float)v;
        }
    }
    return HL_OK;
}

hl_result hl__gltf_accessor_read_float(const hl__gltf_doc *doc, uint32_t index, float *out, size_t out_count) {
    if (!doc || !out) return hl__fail(HL_ERR_VALIDATION, "glTF: accessor read: %s is NULL", doc ? "out" : "doc");
    return read_all(doc, index, out_count, false, out);
}

hl_result hl__gltf_accessor_read_uint(const hl__gltf_doc *doc, uint32_t index, uint32_t *out, size_t out_count) {
    if (!doc || !out) return hl__fail(HL_ERR_VALIDATION, "glTF: accessor read: %s is NULL", doc ? "out" : "doc");
    return read_all(doc, index, out_count, true, out);
}

/* ---- primitives into geometry ------------------------------------------------------------------------- */
static const uint32_t k_attr_comps[HL_ATTR_COUNT] = {3, 3, 4, 2, 2, 4, 4, 4, 4, 4}; /* as hl_attribute */

/* The triangle list (or line / point list) of `mode` over n source indices src. *out hl__malloc'd. */
static hl_result assemble(uint32_t mode, const uint32_t *src, uint32_t n, uint32_t **out, uint32_t *out_n,
                          hl_topology *topo, const char *path) {
    uint64_t m = 0;
    switch (mode) {
    case 0: m = n, *topo = HL_TOPOLOGY_POINTS; break;
    case 1: m = n / 2 * 2, *topo = HL_TOPOLOGY_LINES; break;
    case 2: m = n >= 2 ? (uint64_t)n * 2 : 0, *topo = HL_TOPOLOGY_LINES; break;        /* loop */
    case 3: m = n >= 2 ? (uint64_t)(n - 1) * 2 : 0, *topo = HL_TOPOLOGY_LINES; break;  /* strip */
    case 4: m = n / 3 * 3, *topo = HL_TOPOLOGY_TRIANGLES; break;
    case 5:
    case 6: m = n >= 3 ? (uint64_t)(n - 2) * 3 : 0, *topo = HL_TOPOLOGY_TRIANGLES; break;
    default: return hl__fail(HL_ERR_PARSE, "glTF: %s.mode %u (0..6)", path, mode);
    }
    if (!m) return hl__fail(HL_ERR_PARSE, "glTF: %s: %u vertices make no primitive of mode %u", path, n, mode);
    uint32_t *d = hl__malloc((size_t)m * 4);
    if (!d) return hl__fail(HL_ERR_OUT_OF_MEMORY, "glTF: %s", path);
    uint64_t k = 0;
    if (mode <= 1 || mode == 4) memcpy(d, src, (size_t)m * 4), k = m;
    else if (mode == 2 || mode == 3)
        for (uint32_t i = 0; i + (mode == 3) < n; i++) d[k++] = src[i], d[k++] = src[(i + 1) % n];
    else
        for (uint32_t i = 0; i + 2 < n; i++) { /* strips keep the winding of the first triangle */
            uint32_t a = mode == 5 ? src[i] : src[0], b = src[i + 1], c = src[i + 2];
            if (mode == 5 && (i & 1)) d[k++] = b, d[k++] = a, d[k++] = c;
            else d[k++] = a, d[k++] = b, d[k++] = c;
        }
    *out = d;
    *out_n = (uint32_t)k;
    return HL_OK;
}

void hl__gltf_flat_normals(const float *pos, uint32_t count, float *nrm) {
    for (uint32_t t = 0; t + 2 < count; t += 3) {
        const float *v0 = pos + (size_t)t * 3, *v1 = v0 + 3, *v2 = v0 + 6;
        float e1[3] = {v1[0] - v0[0], v1[1] - v0[1], v1[2] - v0[2]}, e2[3] = {v2[0] - v0[0], v2[1] - v0[1], v2[2] - v0[2]};
        float nx = e1[1] * e2[2] - e1[2] * e2[1], ny = e1[2] * e2[0] - e1[0] * e2[2], nz = e1[0] * e2[1] - e1[1] * e2[0];
        float len = sqrtf(nx * nx + ny * ny + nz * nz);
        if (len > 0) nx /= len, ny /= len, nz /= len;
        else nx = 0, ny = 0, nz = 1; /* a degenerate triangle */
        for (int k = 0; k < 3; k++) {
            float *nn = nrm + (size_t)(t + (uint32_t)k) * 3;
            nn[0] = nx, nn[1] = ny, nn[2] = nz;
        }
    }
}

void hl__gltf_make_tangents(const float *pos, const float *nrm, const float *uv, const uint32_t *idx, uint32_t count,
                          uint32_t n, float *t4, float *bit) {
    memset(t4, 0, (size_t)n * 16);
    memset(bit, 0, (size_t)n * 12);
    for (uint32_t i = 0; i + 2 < count; i += 3) {
        uint32_t v[3] = {idx ? idx[i] : i, idx ? idx[i + 1] : i + 1, idx ? idx[i + 2] : i + 2};
        const float *p0 = pos + (size_t)v[0] * 3, *p1 = pos + (size_t)v[1] * 3, *p2 = pos + (size_t)v[2] * 3;
        const float *w0 = uv + (size_t)v[0] * 2, *w1 = uv + (size_t)v[1] * 2, *w2 = uv + (size_t)v[2] * 2;
        float e1[3] = {p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]}, e2[3] = {p2[0] - p0[0], p2[1] - p0[1], p2[2] - p0[2]};
        float du1 = w1[0] - w0[0], dv1 = w1[1] - w0[1], du2 = w2[0] - w0[0], dv2 = w2[1] - w0[1];
        float det = du1 * dv2 - du2 * dv1;
        if (!(fabsf(det) > 1e-20f) || !isfinite(det)) continue;
        float r = 1.0f / det;
        float sd[3], td[3];
        for (int k = 0; k < 3; k++) {
            sd[k] = (e1[k] * dv2 - e2[k] * dv1) * r;
            td[k] = (e2[k] * du1 - e1[k] * du2) * r;
        }
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 3; k++) {
                t4[(size_t)v[j] * 4 + k] += sd[k];
                bit[(size_t)v[j] * 3 + k] += td[k];
            }
    }
    for (uint32_t i = 0; i < n; i++) {
        const float *nn = nrm + (size_t)i * 3;
        float *t = t4 + (size_t)i * 4, *b = bit + (size_t)i * 3;
        float d = nn[0] * t[0] + nn[1] * t[1] + nn[2] * t[2];
        for (int k = 0; k < 3; k++) t[k] -= nn[k] * d;
        float len = sqrtf(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
        if (!(len > 1e-12f) || !isfinite(len)) { /* any direction orthogonal to the normal */
            float a[3] = {fabsf(nn[0]) < 0.9f ? 1.0f : 0.0f, fabsf(nn[0]) < 0.9f ? 0.0f : 1.0f, 0.0f};
            float ad = nn[0] * a[0] + nn[1] * a[1];
            for (int k = 0; k < 3; k++) t[k] = a[k] - nn[k] * ad;
            len = sqrtf(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
            if (!(len > 0)) t[0] = 1, t[1] = t[2] = 0, len = 1;
        }
        for (int k = 0; k < 3; k++) t[k] /= len;
        float c[3] = {nn[1] * t[2] - nn[2] * t[1], nn[2] * t[0] - nn[0] * t[2], nn[0] * t[1] - nn[1] * t[0]};
        /* glTF's v runs down the image while a normal map's +Y points up: the bitangent the
           map means is -dP/dv (w = +1 for a quad whose UVs are not mirrored) */
        t[3] = c[0] * b[0] + c[1] * b[1] + c[2] * b[2] > 0.0f ? -1.0f : 1.0f;
    }
}

hl_result hl__gltf_primitive_geometry(const hl__gltf_doc *doc, uint32_t mesh, uint32_t prim, hl_geometry **out) {
    return hl__gltf_primitive_geometry_ex(doc, mesh, prim, UINT32_MAX, out, NULL);
}

hl_result hl__gltf_primitive_geometry_ex(const hl__gltf_doc *doc, uint32_t mesh, uint32_t prim, uint32_t tangent_uv,
                                         hl_geometry **out, hl__gltf_flat *out_flat) {
    *out = NULL;
    if (out_flat) out_flat->map = NULL, out_flat->source_count = 0, out_flat->tangent_uv = UINT32_MAX;
    char mpath[48], path[80];
    snprintf(mpath, sizeof mpath, "meshes[%u]", mesh);
    snprintf(path, sizeof path, "meshes[%u].primitives[%u]", mesh, prim);
    hl_result res;
    const cJSON *m = hl__gltf_array_item(doc->json, "meshes", mesh, mpath, &res);
    if (!m) return res;
    const cJSON *prims = cJSON_GetObjectItemCaseSensitive(m, "primitives");
    const cJSON *p = cJSON_IsArray(prims) ? cJSON_GetArrayItem(prims, (int)prim) : NULL;
    if (!cJSON_IsObject(p)) return hl__fail(HL_ERR_PARSE, "glTF: %s does not exist", path);
    const cJSON *attrs = cJSON_GetObjectItemCaseSensitive(p, "attributes");
    if (!cJSON_IsObject(attrs)) return hl__fail(HL_ERR_PARSE, "glTF: %s.attributes must be an object", path);
    uint64_t mode = 4, acc[HL_ATTR_COUNT];
    if ((res = hl__gltf_get_uint(p, "mode", path, false, 4, 6, &mode))) return res;
    float *data[HL_ATTR_COUNT] = {0};
    uint32_t comps[HL_ATTR_COUNT] = {0}, n = 0, *src = NULL, *list = NULL, count = 0;
    char apath[128];
    snprintf(apath, sizeof apath, "%s.attributes", path);
    for (uint32_t a = 0; !res && a < HL_ATTR_COUNT; a++) {
        const char *name = hl_attribute_name((hl_attribute)a);
        if (!cJSON_GetObjectItemCaseSensitive(attrs, name)) continue;
        hl__gltf_accessor_info info;
        if ((res = hl__gltf_get_uint(attrs, name, apath, true, 0, UINT32_MAX, &acc[a])) ||
            (res = hl__gltf_accessor_info_get(doc, (uint32_t)acc[a], &info)))
            break;
        bool color3 = a == HL_ATTR_COLOR_0 && info.components == 3;
        if (info.components != k_attr_comps[a] && !color3) {
            res = hl__fail(HL_ERR_PARSE, "glTF: %s.%s: accessor %llu has %u components (%u expected)", apath, name,
                           (unsigned long long)acc[a], info.components, k_attr_comps[a]);
            break;
        }
        if (n && info.count != n) {
            res = hl__fail(HL_ERR_PARSE, "glTF: %s.%s: %u vertices, the other attributes %u", apath, name, info.count, n);
            break;
        }
        n = info.count;
        if (n > HL_GEOMETRY_MAX_VERTICES) {
            res = hl__fail(HL_ERR_PARSE, "glTF: %s: %u vertices (at most %u)", path, n, HL_GEOMETRY_MAX_VERTICES);
            break;
        }
        comps[a] = info.components;
        data[a] = hl__malloc((size_t)n * 4 * info.components);
        if (!data[a]) res = hl__fail(HL_ERR_OUT_OF_MEMORY, "glTF: %s", path);
        else res = hl__gltf_accessor_read_float(doc, (uint32_t)acc[a], data[a], (size_t)n * info.components);
    }
    if (!res && !data[HL_ATTR_POSITION]) res = hl__fail(HL_ERR_PARSE, "glTF: %s.attributes.POSITION is missing", path);
    /* the source indices: the accessor's, else 0..n-1 */
    uint64_t ia = 0;
    bool indexed = !res && cJSON_GetObjectItemCaseSensitive(p, "indices") != NULL;
    if (indexed) {
        hl__gltf_accessor_info info;
        if (!(res = hl__gltf_get_uint(p, "indices", path, true, 0, UINT32_MAX, &ia)) &&
            !(res = hl__gltf_accessor_info_get(doc, (uint32_t)ia, &info))) {
            if (info.components != 1) res = hl__fail(HL_ERR_PARSE, "glTF: %s.indices: accessor %llu is not SCALAR", path, (unsigned long long)ia);
            count = info.count;
        }
        if (!res && !(src = hl__malloc((size_t)count * 4))) res = hl__fail(HL_ERR_OUT_OF_MEMORY, "glTF: %s", path);
        if (!res) res = hl__gltf_accessor_read_uint(doc, (uint32_t)ia, src, count);
        for (uint32_t i = 0; !res && i < count; i++)
            if (src[i] >= n)
                res = hl__fail(HL_ERR_PARSE, "glTF: %s.indices: index %u is %u, past the %u vertices", path, i, src[i], n);
    } else if (!res) {
        count = n;
        if (!(src = hl__malloc((size_t)n * 4))) res = hl__fail(HL_ERR_OUT_OF_MEMORY, "glTF: %s", path);
        for (uint32_t i = 0; !res && i < n; i++) src[i] = i;
    }
    hl_topology topo = HL_TOPOLOGY_TRIANGLES;
    uint32_t ln = 0;
    if (!res) res = assemble((uint32_t)mode, src, count, &list, &ln, &topo, path);
    /* COLOR_0 as VEC3: alpha 1 */
    if (!res && comps[HL_ATTR_COLOR_0] == 3) {
        float *c4 = hl__malloc((size_t)n * 16);
        if (!c4) res = hl__fail(HL_ERR_OUT_OF_MEMORY, "glTF: %s", path);
        for (uint32_t i = 0; !res && i < n; i++) {
            memcpy(c4 + (size_t)i * 4, data[HL_ATTR_COLOR_0] + (size_t)i * 3, 12);
            c4[(size_t)i * 4 + 3] = 1.0f;
        }
        if (!res) {
            hl__free(data[HL_ATTR_COLOR_0]);
            data[HL_ATTR_COLOR_0] = c4;
            comps[HL_ATTR_COLOR_0] = 4;
        }
    }
    /* triangles without normals: flat normals, every triangle its own three vertices */
    bool flat = !res && topo == HL_TOPOLOGY_TRIANGLES && !data[HL_ATTR_NORMAL];
    float *fdata[HL_ATTR_COUNT] = {0};
    if (flat) {
        for (uint32_t a = 0; !res && a < HL_ATTR_COUNT; a++) {
            if (!data[a] && a != HL_ATTR_NORMAL) continue;
            uint32_t c = a == HL_ATTR_NORMAL ? 3 : comps[a];
            fdata[a] = hl__malloc((size_t)ln * 4 * c);
            if (!fdata[a]) res = hl__fail(HL_ERR_OUT_OF_MEMORY, "glTF: %s", path);
            for (uint32_t i = 0; !res && a != HL_ATTR_NORMAL && i < ln; i++)
                memcpy(fdata[a] + (size_t)i * c, data[a] + (size_t)list[i] * c, (size_t)c * 4);
        }
        if (!res) hl__gltf_flat_normals(fdata[HL_ATTR_POSITION], ln, fdata[HL_ATTR_NORMAL]);
        comps[HL_ATTR_NORMAL] = 3;
    }
    /* tangents from the normal map's UV set when the primitive has none */
    float *gen_t = NULL, *scratch = NULL;
    uint16_t *joints16[2] = {NULL, NULL};
    uint32_t tuv = tangent_uv == 1 ? HL_ATTR_TEXCOORD_1 : HL_ATTR_TEXCOORD_0;
    const float *const *cur = flat ? (const float *const *)fdata : (const float *const *)data;
    uint32_t vn = flat ? ln : n;
    if (!res && tangent_uv != UINT32_MAX && topo == HL_TOPOLOGY_TRIANGLES && !cur[HL_ATTR_TANGENT] && cur[tuv] &&
        cur[HL_ATTR_NORMAL]) {
        gen_t = hl__malloc((size_t)vn * 16);
        scratch = hl__malloc((size_t)vn * 12);
        if (!gen_t || !scratch) res = hl__fail(HL_ERR_OUT_OF_MEMORY, "glTF: %s: tangents", path);
        else hl__gltf_make_tangents(cur[HL_ATTR_POSITION], cur[HL_ATTR_NORMAL], cur[tuv], flat ? NULL : list, ln, vn,
                           gen_t, scratch);
    }
    if (!res) {
        hl_geometry_desc gd = {0};
        gd.vertex_count = flat ? ln : n;
        for (uint32_t a = 0; a < HL_ATTR_COUNT; a++) {
            const float *d = flat ? fdata[a] : data[a];
            if (d) gd.attributes[a] = (hl_attribute_desc){d, HL_COMPONENT_FLOAT32, comps[a]};
        }
        if (gen_t) gd.attributes[HL_ATTR_TANGENT] = (hl_attribute_desc){gen_t, HL_COMPONENT_FLOAT32, 4};
        /* joint indices of both sets as UINT16 (the geometry's integer joints; glTF's are u8 or u16) */
        static const hl_attribute k_joint_sets[2] = {HL_ATTR_JOINTS_0, HL_ATTR_JOINTS_1};
        for (uint32_t set = 0; !res && set < 2; set++) {
            hl_attribute ja = k_joint_sets[set];
            const float *jf = flat ? fdata[ja] : data[ja];
            if (!jf) continue;
            uint16_t *j16 = joints16[set] = hl__malloc((size_t)gd.vertex_count * 8);
            if (!j16) res = hl__fail(HL_ERR_OUT_OF_MEMORY, "glTF: %s: joints", path);
            for (uint32_t i = 0; !res && i < gd.vertex_count * 4; i++) {
                if (!(jf[i] >= 0 && jf[i] <= 65535.0f))
                    res = hl__fail(HL_ERR_PARSE, "glTF: %s.attributes.%s: %g is not a joint index", path,
                                   hl_attribute_name(ja), (double)jf[i]);
                else j16[i] = (uint16_t)jf[i];
            }
            gd.attributes[ja] = (hl_attribute_desc){j16, HL_COMPONENT_UINT16, 4};
        }
        if (!flat) {
            gd.indices = list;
            gd.index_count = ln;
            gd.index_format = HL_INDEX_UINT32;
        }
        gd.topology = topo;
        gd.label = path;
        if (!res) res = hl_geometry_create(&gd, out);
    }
    if (!res && out_flat) { /* the triangle list is the expanded vertices' map to their sources */
        out_flat->source_count = n;
        if (gen_t) out_flat->tangent_uv = tuv;
        if (flat) out_flat->map = list, list = NULL;
    }
    for (uint32_t a = 0; a < HL_ATTR_COUNT; a++) hl__free(data[a]), hl__free(fdata[a]);
    hl__free(gen_t);
    hl__free(scratch);
    hl__free(joints16[0]);
    hl__free(joints16[1]);
    hl__free(src);
    hl__free(list);
    return res;
}
