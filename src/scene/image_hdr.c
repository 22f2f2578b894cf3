/* Radiance HDR (RGBE) decoding through stb_image built with STBI_ONLY_HDR, converted to RGBA8
 * exactly as hilo3d always did (stb's HDR-to-LDR mapping: gamma 2.2, scale 1, alpha 255).
 *
 * Debian's stb_image is 2.27, whose HDR reader loops forever on a truncated run-length scanline
 * (CVE-2021-42715: at the end of the data every byte reads as 0, a zero-length copy). So the
 * header is parsed here, the pixel stream is walked here first (every run inside the data,
 * none empty), and stb then decodes a copy that starts with a canonical header it cannot read
 * differently from this parser. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "hilo3d/texture.h"
#include "image_decode.h"

#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_HDR
#define STBI_NO_STDIO
#define STBI_MAX_DIMENSIONS HL_TEXTURE_MAX_DIMENSION
#define STBI_MALLOC(sz) hl__malloc(sz)
#define STBI_REALLOC(p, newsz) hl__realloc(p, newsz)
#define STBI_FREE(p) hl__free(p)
#define STBI_ASSERT(x) ((void)0)
#if defined(__GNUC__)
/* stays off for the whole file: gcc reports stb's unused static declarations at its end */
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wpedantic"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#endif
#include <stb/stb_image.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

/* One header line: [*pos, end of line); *pos moves past the '\n'. false when no '\n' is left. */
static bool hl__hdr_line(const uint8_t *d, size_t n, size_t *pos, const char **line, size_t *len) {
    const uint8_t *nl = *pos < n ? memchr(d + *pos, '\n', n - *pos) : NULL;
    if (!nl) return false;
    *line = (const char *)d + *pos;
    *len = (size_t)(nl - (d + *pos));
    *pos += *len + 1;
    return true;
}

static bool hl__line_is(const char *line, size_t len, const char *s) { return len == strlen(s) && !memcmp(line, s, len); }

/* Decimal digits at *p (at most 10 used; larger values saturate at UINT32_MAX). */
static bool hl__hdr_number(const char *s, size_t len, size_t *p, uint64_t *v) {
    size_t start = *p;
    *v = 0;
    while (*p < len && s[*p] >= '0' && s[*p] <= '9') {
        if (*v <= UINT32_MAX) *v = *v * 10u + (uint64_t)(s[*p] - '0');
        (*p)++;
    }
    if (*v > UINT32_MAX) *v = UINT32_MAX;
    return *p > start;
}

/* Walks the pixel stream as stb_image 2.27 reads it; the number of bytes it consumes, or 0 with
 * *why set when it would read past the end or the data is corrupt. */
static size_t hl__hdr_walk(const uint8_t *d, size_t n, uint32_t w, uint32_t h, const char **why) {
    size_t flat = (size_t)w * h * 4u; /* w, h <= HL_TEXTURE_MAX_DIMENSION: no overflow */
    *why = "truncated pixel data";
    if (w < 8) return n >= flat ? flat : 0; /* stb: flat RGBE when narrower than 8 */
    size_t p = 0;
    for (uint32_t y = 0; y < h; y++) {
        if (n - p < 4) return 0;
        if (d[p] != 2 || d[p + 1] != 2 || (d[p + 2] & 0x80)) {
            /* not run-length encoded: stb reads the whole image as flat RGBE from here */
            return n - p >= flat ? p + flat : 0;
        }
        uint32_t len = (uint32_t)d[p + 2] << 8 | d[p + 3];
        p += 4;
        if (len != w) {
            *why = "a scanline's length differs from the image width";
            return 0;
        }
        for (int k = 0; k < 4; k++) {
            for (uint32_t x = 0; x < w;) {
                if (p >= n) return 0;
                uint32_t count = d[p++];
                if (count > 128) {
                    count -= 128;
                    if (p >= n) return 0;
                    p++;
                } else {
                    if (count == 0) {
                        *why = "an empty run";
                        return 0;
                    }
                    if (n - p < count) return 0;
                    p += count;
                }
                if (count > w - x) {
                    *why = "a run past the end of its scanline";
                    return 0;
                }
                x += count;
            }
        }
    }
    return p;
}

/* The whole decode; linear: 3 floats per pixel into *rgbf (stb's raw radiance), else RGBA8
 * into out->rgba. */
static hl_result hdr_decode(const hl__image_job *job, bool linear, hl__image *out, float **rgbf) {
    const uint8_t *d = job->data;
    size_t n = job->size, pos = 0, len = 0;
    const char *line = NULL;
    if (!hl__hdr_line(d, n, &pos, &line, &len) ||
        (!hl__line_is(line, len, "#?RADIANCE") && !hl__line_is(line, len, "#?RGBE")))
        return hl__fail(HL_ERR_PARSE, "%s: %s: corrupt HDR: the first line is not \"#?RADIANCE\" or \"#?RGBE\"", job->fn,
                        job->what);
    bool rgbe = false;
    for (;;) {
        if (!hl__hdr_line(d, n, &pos, &line, &len))
            return hl__fail(HL_ERR_PARSE, "%s: %s: corrupt HDR: the header has no end", job->fn, job->what);
        if (len == 0) break;
        if (hl__line_is(line, len, "FORMAT=32-bit_rle_rgbe")) {
            rgbe = true;
        } else if (len >= 7 && !memcmp(line, "FORMAT=", 7)) {
            return hl__fail(HL_ERR_UNSUPPORTED, "%s: %s: HDR %.*s is not supported (only FORMAT=32-bit_rle_rgbe)",
                            job->fn, job->what, (int)(len > 64 ? 64 : len), line);
        }
    }
    if (!rgbe) return hl__fail(HL_ERR_PARSE, "%s: %s: corrupt HDR: no FORMAT=32-bit_rle_rgbe line", job->fn, job->what);
    if (!hl__hdr_line(d, n, &pos, &line, &len))
        return hl__fail(HL_ERR_PARSE, "%s: %s: corrupt HDR: no resolution line", job->fn, job->what);
    /* "-Y <height> +X <width>": rows top to bottom, pixels left to right (the only layout) */
    uint64_t w = 0, h = 0;
    size_t p = 0;
    bool ok = len > 3 && !memcmp(line, "-Y ", 3);
    p = 3;
    ok = ok && hl__hdr_number(line, len, &p, &h);
    while (ok && p < len && line[p] == ' ') p++;
    ok = ok && len - p > 3 && !memcmp(line + p, "+X ", 3);
    p += 3;
    ok = ok && hl__hdr_number(line, len, &p, &w);
    while (ok && p < len && (line[p] == ' ' || line[p] == '\r')) p++;
    if (!ok || p != len)
        return hl__fail(HL_ERR_UNSUPPORTED, "%s: %s: HDR resolution line \"%.*s\" is not supported (only \"-Y H +X W\")",
                        job->fn, job->what, (int)(len > 64 ? 64 : len), line);

    /* stb's working set: w*h*4 floats, the RGBA8 result, a scanline and the copy below */
    enum { HEADER_MAX = 64 };
    size_t rgba_bytes = 0;
    hl_result r = hl__image_check_size(job, HL__IMAGE_HDR, w, h, 4 * sizeof(float) + 4, 0, &rgba_bytes);
    if (r) return r;
    const char *why = NULL;
    size_t stream = hl__hdr_walk(d + pos, n - pos, (uint32_t)w, (uint32_t)h, &why);
    if (!stream) return hl__fail(HL_ERR_PARSE, "%s: %s: corrupt HDR: %s", job->fn, job->what, why);
    r = hl__image_check_size(job, HL__IMAGE_HDR, w, h, 4 * sizeof(float) + 4, (size_t)w * 4u + HEADER_MAX + stream,
                             &rgba_bytes);
    if (r) return r;

    if (stream > (size_t)INT_MAX - HEADER_MAX) /* stb counts in int; unreachable within the size limits */
        return hl__fail(HL_ERR_VALIDATION, "%s: %s: HDR pixel data of %zu bytes is too long", job->fn, job->what, stream);
    uint8_t *copy = hl__malloc(HEADER_MAX + stream);
    if (!copy) return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: %s: out of memory decoding HDR", job->fn, job->what);
    int head = snprintf((char *)copy, HEADER_MAX, "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y %u +X %u\n", (unsigned)h,
                        (unsigned)w);
    memcpy(copy + head, d + pos, stream);
    int x = 0, y = 0, comp = 0;
    void *px = linear ? (void *)stbi_loadf_from_memory(copy, head + (int)stream, &x, &y, &comp, 3)
                      : (void *)stbi_load_from_memory(copy, head + (int)stream, &x, &y, &comp, 4);
    hl__free(copy);
    if (!px || (uint64_t)x != w || (uint64_t)y != h) {
        hl__free(px);
        const char *reason = stbi_failure_reason();
        bool oom = reason && !strcmp(reason, "outofmem");
        return hl__fail(oom ? HL_ERR_OUT_OF_MEMORY : HL_ERR_PARSE, "%s: %s: %s HDR: %s", job->fn, job->what,
                        oom ? "out of memory decoding" : "corrupt", reason ? reason : "size mismatch");
    }
    *out = (hl__image){(uint32_t)w, (uint32_t)h, linear ? NULL : px};
    if (linear) *rgbf = px;
    return HL_OK;
}

hl_result hl__hdr_decode(const hl__image_job *job, hl__image *out) { return hdr_decode(job, false, out, NULL); }

hl_result hl__hdr_decode_linear(const hl__image_job *job, uint32_t *width, uint32_t *height, float **rgb) {
    hl__image im = {0};
    *rgb = NULL;
    hl_result res = hdr_decode(job, true, &im, rgb);
    if (res) return res;
    *width = im.width;
    *height = im.height;
    return HL_OK;
}
