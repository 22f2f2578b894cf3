/* Environments: an equirectangular linear RGB image with a revision, intensity and rotation
 * (include/hilo3d/environment.h). The GPU maps are built by the renderer (render_env.c). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hilo3d/environment.h"
#include "hilo3d/texture.h"
#include "image_decode.h"
#include "scene_internal.h"

struct hl_environment {
    uint32_t refs;
    uint32_t width, height;
    float *rgb; /* width * height * 3 */
    float intensity, rotation;
    uint32_t specular_size;
    uint64_t revision;
    char *label;
};

static const float k_pi = 3.14159265358979f;

/* Halves the image (hl__halve_rgbf) until the width is at most HL_ENVIRONMENT_MAX_WIDTH. Returns
 * the kept image (src itself when already small enough; NULL when out of memory). */
static float *reduce(float *src, uint32_t *width, uint32_t *height) {
    uint32_t w = *width, h = *height;
    while (w > HL_ENVIRONMENT_MAX_WIDTH) {
        uint32_t nw = w / 2, nh = h > 1 ? h / 2 : 1;
        float *dst = hl__malloc((size_t)nw * nh * 3 * sizeof(float));
        if (!dst) {
            hl__free(src);
            return NULL;
        }
        hl__halve_rgbf(src, w, h, dst);
        hl__free(src);
        src = dst;
        w = nw;
        h = nh;
    }
    *width = w;
    *height = h;
    return src;
}

/* Takes ownership of rgb (freed on failure). */
static hl_result env_make(const char *fn, float *rgb, uint32_t w, uint32_t h, const hl_environment_desc *d,
                          hl_environment **out) {
    rgb = reduce(rgb, &w, &h);
    hl_environment *e = rgb ? hl__calloc(1, sizeof *e) : NULL;
    char *label = NULL;
    if (e && d && d->label && !(label = hl__strdup(d->label))) {
        hl__free(e);
        e = NULL;
    }
    if (!e) {
        hl__free(rgb);
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: out of memory", fn);
    }
    e->refs = 1;
    e->width = w;
    e->height = h;
    e->rgb = rgb;
    e->intensity = d && d->intensity > 0.0f ? d->intensity : 1.0f;
    e->rotation = d ? d->rotation : 0.0f;
    e->specular_size = d && d->specular_size ? d->specular_size : 128u;
    e->revision = hl__next_revision();
    e->label = label;
    *out = e;
    return HL_OK;
}

hl_result hl_environment_create(const hl_environment_desc *d, hl_environment **out) {
    static const char fn[] = "hl_environment_create";
    if (!out) return hl__fail(HL_ERR_VALIDATION, "%s: out is NULL", fn);
    *out = NULL;
    if (!d) return hl__fail(HL_ERR_VALIDATION, "%s: desc is NULL", fn);
    if (d->width < 2 || d->width > HL_TEXTURE_MAX_DIMENSION || d->height < 1 || d->height > HL_TEXTURE_MAX_DIMENSION)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.width %u x desc.height %u (width 2..%u, height 1..%u)", fn, d->width,
                        d->height, HL_TEXTURE_MAX_DIMENSION, HL_TEXTURE_MAX_DIMENSION);
    size_t n = (size_t)d->width * d->height * 3;
    if (!d->rgb) return hl__fail(HL_ERR_VALIDATION, "%s: desc.rgb is NULL", fn);
    if (d->rgb_count < n)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.rgb_count %zu is below width * height * 3 = %zu", fn, d->rgb_count, n);
    if (!isfinite(d->intensity) || d->intensity < 0.0f)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.intensity %g (finite, >= 0)", fn, (double)d->intensity);
    if (!isfinite(d->rotation)) return hl__fail(HL_ERR_VALIDATION, "%s: desc.rotation is not finite", fn);
    uint32_t s = d->specular_size;
    if (s && (s < 16 || s > 512 || (s & (s - 1))))
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.specular_size %u (a power of two in 16..512, or 0)", fn, s);
    for (size_t i = 0; i < n; i++)
        if (!isfinite(d->rgb[i]) || d->rgb[i] < 0.0f)
            return hl__fail(HL_ERR_VALIDATION, "%s: desc.rgb[%zu] is %g (radiance must be finite and >= 0)", fn, i,
                            (double)d->rgb[i]);
    float *copy = hl__malloc(n * sizeof(float));
    if (!copy) return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: out of memory (%zu floats)", fn, n);
    memcpy(copy, d->rgb, n * sizeof(float));
    return env_make(fn, copy, d->width, d->height, d, out);
}

static float smooth(float e0, float e1, float x) {
    float t = (x - e0) / (e1 - e0);
    t = t < 0.0f ? 0.0f : t > 1.0f ? 1.0f : t;
    return t * t * (3.0f - 2.0f * t);
}

hl_result hl_environment_create_default(hl_environment **out) {
    static const char fn[] = "hl_environment_create_default";
    if (!out) return hl__fail(HL_ERR_VALIDATION, "%s: out is NULL", fn);
    *out = NULL;
    enum { W = 128, H = 64 };
    float *rgb = hl__malloc((size_t)W * H * 3 * sizeof(float));
    if (!rgb) return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: out of memory", fn);
    /* a soft studio: white overhead, grey horizon, a dark warm floor, one soft key box above
       the front right */
    static const float top[3] = {0.8f, 0.8f, 0.82f}, horizon[3] = {0.45f, 0.46f, 0.48f}, floor_[3] = {0.12f, 0.11f, 0.1f};
    const float key[3] = {0.4851f, 0.7276f, 0.4851f}; /* normalize(2, 3, 2) */
    for (uint32_t y = 0; y < H; y++) {
        float theta = ((float)y + 0.5f) / H * k_pi;
        for (uint32_t x = 0; x < W; x++) {
            float phi = (((float)x + 0.5f) / W - 0.5f) * 2.0f * k_pi;
            float d[3] = {sinf(theta) * cosf(phi), cosf(theta), sinf(theta) * sinf(phi)};
            float up = d[1];
            float box = 2.5f * smooth(0.90f, 0.97f, d[0] * key[0] + d[1] * key[1] + d[2] * key[2]);
            for (uint32_t c = 0; c < 3; c++) {
                float v = up >= 0.0f ? horizon[c] + (top[c] - horizon[c]) * sqrtf(up)
                                     : horizon[c] + (floor_[c] - horizon[c]) * powf(-up, 0.4f);
                rgb[((size_t)y * W + x) * 3 + c] = v + box;
            }
        }
    }
    hl_environment_desc d = {0};
    d.label = "default studio";
    return env_make(fn, rgb, W, H, &d, out);
}

hl_result hl_environment_load_hdr_memory(const void *data, size_t size, hl_environment **out) {
    static const char fn[] = "hl_environment_load_hdr_memory";
    if (!out) return hl__fail(HL_ERR_VALIDATION, "%s: out is NULL", fn);
    *out = NULL;
    if (!data || !size) return hl__fail(HL_ERR_VALIDATION, "%s: data is NULL or size is 0", fn);
    hl__image_kind kind = hl__image_sniff(data, size);
    if (kind != HL__IMAGE_HDR)
        return hl__fail(kind == HL__IMAGE_UNKNOWN ? HL_ERR_PARSE : HL_ERR_UNSUPPORTED,
                        "%s: the data is %s, not a Radiance HDR image", fn,
                        kind == HL__IMAGE_UNKNOWN ? "no known image format" : hl__image_kind_name(kind));
    hl__image_job job = {fn, "the image data", data, size, HL_TEXTURE_DECODE_LIMIT_DEFAULT};
    uint32_t w = 0, h = 0;
    float *rgb = NULL;
    hl_result res = hl__hdr_decode_linear(&job, &w, &h, &rgb);
    if (res) return res;
    if (w < 2) {
        hl__free(rgb);
        return hl__fail(HL_ERR_VALIDATION, "%s: the HDR image is %u pixel wide (at least 2)", fn, w);
    }
    for (size_t i = 0, n = (size_t)w * h * 3; i < n; i++) /* RGBE decodes to finite values >= 0 */
        if (!isfinite(rgb[i]) || rgb[i] < 0.0f) rgb[i] = 0.0f;
    return env_make(fn, rgb, w, h, NULL, out);
}

hl_result hl_environment_load_hdr(const char *path, hl_environment **out) {
    static const char fn[] = "hl_environment_load_hdr";
    if (!out) return hl__fail(HL_ERR_VALIDATION, "%s: out is NULL", fn);
    *out = NULL;
    if (!path || !*path) return hl__fail(HL_ERR_VALIDATION, "%s: path is NULL or empty", fn);
    uint8_t *buf = NULL;
    size_t size = 0;
    hl_result res = hl__read_file(fn, path, HL_TEXTURE_DECODE_LIMIT_DEFAULT, &buf, &size);
    if (res) return res;
    res = hl_environment_load_hdr_memory(buf, size, out);
    hl__free(buf);
    if (res) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", hl_last_error());
        const char *rest = strncmp(msg, "hl_environment_load_hdr_memory: ", 32) ? msg : msg + 32;
        return hl__fail(res, "%s: \"%s\": %s", fn, path, rest);
    }
    return HL_OK;
}

void hl_environment_retain(hl_environment *e) {
    if (e) e->refs++;
}

void hl_environment_release(hl_environment *e) {
    if (!e || --e->refs) return;
    hl__free(e->rgb);
    hl__free(e->label);
    hl__free(e);
}

uint32_t hl_environment_ref_count(const hl_environment *e) { return e ? e->refs : 0; }

void hl_environment_set_intensity(hl_environment *e, float intensity) {
    if (e && isfinite(intensity) && intensity >= 0.0f) e->intensity = intensity;
}
float hl_environment_intensity(const hl_environment *e) { return e ? e->intensity : 0.0f; }
void hl_environment_set_rotation(hl_environment *e, float radians) {
    if (e && isfinite(radians)) e->rotation = radians;
}
float hl_environment_rotation(const hl_environment *e) { return e ? e->rotation : 0.0f; }

const float *hl_environment_pixels(const hl_environment *e, uint32_t *width, uint32_t *height) {
    if (width) *width = e ? e->width : 0;
    if (height) *height = e ? e->height : 0;
    return e ? e->rgb : NULL;
}
uint32_t hl_environment_specular_size(const hl_environment *e) { return e ? e->specular_size : 0; }
uint64_t hl_environment_revision(const hl_environment *e) { return e ? e->revision : 0; }

void hl_environment_sample(const hl_environment *e, float x, float y, float z, float rgb[3]) {
    rgb[0] = rgb[1] = rgb[2] = 0.0f;
    float len = sqrtf(x * x + y * y + z * z);
    if (!e || !(len > 0.0f)) return;
    x /= len;
    y /= len;
    z /= len;
    /* the environment turned by `rotation` about +Y: look up the direction turned back */
    float c = cosf(e->rotation), s = sinf(e->rotation);
    float rx = c * x - s * z, rz = s * x + c * z;
    float u = 0.5f + atan2f(rz, rx) / (2.0f * k_pi), v = acosf(y < -1.0f ? -1.0f : y > 1.0f ? 1.0f : y) / k_pi;
    float fx = u * (float)e->width - 0.5f, fy = v * (float)e->height - 0.5f;
    float x0f = floorf(fx), y0f = floorf(fy);
    float tx = fx - x0f, ty = fy - y0f;
    int32_t w = (int32_t)e->width, h = (int32_t)e->height;
    int32_t xs[2] = {(int32_t)x0f, (int32_t)x0f + 1}, ys[2] = {(int32_t)y0f, (int32_t)y0f + 1};
    for (int i = 0; i < 2; i++) {
        xs[i] = ((xs[i] % w) + w) % w; /* longitude wraps */
        ys[i] = ys[i] < 0 ? 0 : ys[i] >= h ? h - 1 : ys[i]; /* latitude clamps */
    }
    for (int j = 0; j < 2; j++)
        for (int i = 0; i < 2; i++) {
            float wgt = (i ? tx : 1.0f - tx) * (j ? ty : 1.0f - ty);
            const float *p = e->rgb + ((size_t)ys[j] * e->width + (size_t)xs[i]) * 3;
            for (int k = 0; k < 3; k++) rgb[k] += wgt * p[k] * e->intensity;
        }
}
