/* Textures: RGBA8 CPU content with a revision, sampler settings; files read here and decoded
 * by image_decode.c (PNG, JPEG, HDR). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "image_decode.h"
#include "scene_internal.h"

struct hl_texture {
    uint32_t refs;
    hl_texture_info info;
    uint8_t *pixels;
    uint64_t revision;
    uint64_t sampler_revision;
    char *label;
};

static hl_sampler_desc hl__sampler_defaults(const hl_sampler_desc *s) {
    hl_sampler_desc r = s ? *s : (hl_sampler_desc){0};
    if (r.wrap_u == HL_WRAP_DEFAULT) r.wrap_u = HL_WRAP_REPEAT;
    if (r.wrap_v == HL_WRAP_DEFAULT) r.wrap_v = HL_WRAP_REPEAT;
    if (r.mag_filter == HL_FILTER_DEFAULT) r.mag_filter = HL_FILTER_LINEAR;
    if (r.min_filter == HL_FILTER_DEFAULT) r.min_filter = HL_FILTER_LINEAR;
    if (r.mip_filter == HL_FILTER_DEFAULT) r.mip_filter = HL_FILTER_LINEAR;
    return r;
}

static uint32_t hl__mip_levels(uint32_t w, uint32_t h, hl_mipmaps mode) {
    if (mode == HL_MIPMAPS_NONE) return 1;
    uint32_t m = w > h ? w : h, levels = 1;
    while (m > 1) {
        m >>= 1;
        levels++;
    }
    return levels;
}

static hl_result hl__validate_sampler(const char *fn, const hl_sampler_desc *s) {
    if ((unsigned)s->wrap_u > HL_WRAP_MIRROR)
        return hl__fail(HL_ERR_VALIDATION, "%s: sampler.wrap_u %d is invalid", fn, (int)s->wrap_u);
    if ((unsigned)s->wrap_v > HL_WRAP_MIRROR)
        return hl__fail(HL_ERR_VALIDATION, "%s: sampler.wrap_v %d is invalid", fn, (int)s->wrap_v);
    if ((unsigned)s->mag_filter > HL_FILTER_LINEAR)
        return hl__fail(HL_ERR_VALIDATION, "%s: sampler.mag_filter %d is invalid", fn, (int)s->mag_filter);
    if ((unsigned)s->min_filter > HL_FILTER_LINEAR)
        return hl__fail(HL_ERR_VALIDATION, "%s: sampler.min_filter %d is invalid", fn, (int)s->min_filter);
    if ((unsigned)s->mip_filter > HL_FILTER_LINEAR)
        return hl__fail(HL_ERR_VALIDATION, "%s: sampler.mip_filter %d is invalid", fn, (int)s->mip_filter);
    return HL_OK;
}

static hl_result hl__validate_size(const char *fn, uint32_t w, uint32_t h) {
    if (w == 0 || w > HL_TEXTURE_MAX_DIMENSION || h == 0 || h > HL_TEXTURE_MAX_DIMENSION)
        return hl__fail(HL_ERR_VALIDATION, "%s: size %ux%u: width and height must be 1..%u (HL_TEXTURE_MAX_DIMENSION)",
                        fn, w, h, HL_TEXTURE_MAX_DIMENSION);
    return HL_OK;
}

/* The caller's buffer: at least w * h * 4 bytes (w, h already within the maximum). */
static hl_result hl__validate_buffer(const char *fn, const char *field, uint32_t w, uint32_t h, size_t size,
                                     size_t *bytes) {
    if (!hl__mul_size((size_t)w * h, 4u, bytes))
        return hl__fail(HL_ERR_VALIDATION, "%s: %ux%u RGBA8 pixels overflow size_t", fn, w, h);
    if (size < *bytes)
        return hl__fail(HL_ERR_VALIDATION, "%s: %s is %zu bytes, %ux%u RGBA8 pixels need %zu", fn, field, size, w, h,
                        *bytes);
    return HL_OK;
}

/* The settings a texture keeps whatever its pixels' origin. */
static hl_result hl__validate_settings(const char *fn, const hl_texture_desc *d) {
    hl_result r = hl__validate_sampler(fn, &d->sampler);
    if (!r && (unsigned)d->mipmaps > HL_MIPMAPS_NONE)
        r = hl__fail(HL_ERR_VALIDATION, "%s: mipmaps %d is invalid", fn, (int)d->mipmaps);
    if (!r && (unsigned)d->color_space > HL_COLOR_SPACE_LINEAR)
        r = hl__fail(HL_ERR_VALIDATION, "%s: color_space %d is invalid", fn, (int)d->color_space);
    return r;
}

/* Takes ownership of pixels (w * h * 4 bytes from hl__malloc), also on failure. */
static hl_result hl__texture_make(const char *fn, const hl_texture_desc *desc, uint32_t w, uint32_t h, uint8_t *pixels,
                                  hl_texture **out) {
    hl_texture_desc d = desc ? *desc : (hl_texture_desc){0};
    hl_result r = hl__validate_settings(fn, &d);
    hl_texture *t = NULL;
    if (!r) {
        t = hl__calloc(1, sizeof *t);
        if (!t) r = hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: out of memory", fn);
    }
    if (!r && !hl__set_string(&t->label, d.label)) r = HL_ERR_OUT_OF_MEMORY;
    if (r) {
        if (t) hl__free(t->label);
        hl__free(t);
        hl__free(pixels);
        return r;
    }
    t->refs = 1;
    t->pixels = pixels;
    t->info.width = w;
    t->info.height = h;
    t->info.mipmaps = d.mipmaps == HL_MIPMAPS_DEFAULT ? HL_MIPMAPS_GENERATE : d.mipmaps;
    t->info.mip_levels = hl__mip_levels(w, h, t->info.mipmaps);
    t->info.color_space = d.color_space == HL_COLOR_SPACE_DEFAULT ? HL_COLOR_SPACE_SRGB : d.color_space;
    t->info.sampler = hl__sampler_defaults(&d.sampler);
    t->revision = hl__next_revision();
    t->sampler_revision = hl__next_revision();
    *out = t;
    return HL_OK;
}

hl_result hl_texture_create(const hl_texture_desc *desc, hl_texture **out) {
    static const char fn[] = "hl_texture_create";
    if (!out) return hl__fail(HL_ERR_VALIDATION, "%s: out is NULL", fn);
    *out = NULL;
    if (!desc) return hl__fail(HL_ERR_VALIDATION, "%s: desc is NULL (width and height are required)", fn);
    hl_result r = hl__validate_size(fn, desc->width, desc->height);
    if (r) return r;
    if (desc->decode_limit)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.decode_limit is for loading images and must be 0 here", fn);
    size_t bytes = 0;
    if (desc->pixels) {
        r = hl__validate_buffer(fn, "desc.pixels_size", desc->width, desc->height, desc->pixels_size, &bytes);
        if (r) return r;
    } else if (desc->pixels_size) {
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.pixels_size is %zu but desc.pixels is NULL", fn, desc->pixels_size);
    } else {
        bytes = (size_t)desc->width * desc->height * 4u; /* within the maximum: no overflow */
    }
    uint8_t *px = desc->pixels ? hl__malloc(bytes) : hl__calloc(1, bytes);
    if (!px) return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: out of memory for %ux%u pixels", fn, desc->width, desc->height);
    if (desc->pixels) memcpy(px, desc->pixels, bytes);
    return hl__texture_make(fn, desc, desc->width, desc->height, px, out);
}

/* The one path of both loaders: the bytes of an image, from memory or from a whole file. */
static hl_result hl__texture_decode(const char *fn, const char *what, const void *data, size_t size,
                                    const hl_texture_desc *desc, size_t limit, hl_texture **out) {
    hl__image_job job = {fn, what, data, size, limit};
    hl__image img;
    hl_result r = hl__image_decode(&job, &img);
    if (r) return r;
    return hl__texture_make(fn, desc, img.width, img.height, img.rgba, out);
}

/* desc of a load call: only the settings a decoded image keeps; the decode limit it sets. */
static hl_result hl__validate_load_desc(const char *fn, const hl_texture_desc *desc, size_t *limit) {
    if (desc && (desc->width || desc->height || desc->pixels || desc->pixels_size))
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.width/height/pixels/pixels_size must be 0 when loading an image",
                        fn);
    *limit = desc && desc->decode_limit ? desc->decode_limit : HL_TEXTURE_DECODE_LIMIT_DEFAULT;
    return desc ? hl__validate_settings(fn, desc) : HL_OK; /* before reading or decoding anything */
}

hl_result hl_texture_load_memory(const void *data, size_t size, const hl_texture_desc *desc, hl_texture **out) {
    static const char fn[] = "hl_texture_load_memory";
    if (!out) return hl__fail(HL_ERR_VALIDATION, "%s: out is NULL", fn);
    *out = NULL;
    size_t limit = 0;
    hl_result r = hl__validate_load_desc(fn, desc, &limit);
    if (r) return r;
    if (!data || size == 0) return hl__fail(HL_ERR_VALIDATION, "%s: data is NULL or size is 0", fn);
    return hl__texture_decode(fn, "the image data", data, size, desc, limit, out);
}

hl_result hl__read_file(const char *fn, const char *path, size_t limit, uint8_t **data, size_t *size) {
    *data = NULL;
    *size = 0;
    int fd;
    do {
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); /* a FIFO must not block the open */
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) return hl__fail(HL_ERR_IO, "%s: cannot open \"%s\": %s", fn, path, strerror(errno));
    struct stat st;
    hl_result r = HL_OK;
    if (fstat(fd, &st) != 0) {
        r = hl__fail(HL_ERR_IO, "%s: cannot stat \"%s\": %s", fn, path, strerror(errno));
    } else if (S_ISDIR(st.st_mode)) {
        r = hl__fail(HL_ERR_IO, "%s: cannot read \"%s\": %s", fn, path, strerror(EISDIR));
    } else if (!S_ISREG(st.st_mode)) {
        r = hl__fail(HL_ERR_IO, "%s: cannot read \"%s\": not a regular file", fn, path);
    } else if (st.st_size <= 0) {
        r = hl__fail(HL_ERR_IO, "%s: cannot read \"%s\": the file is empty", fn, path);
    } else if ((uint64_t)st.st_size > limit) {
        r = hl__fail(HL_ERR_IO, "%s: cannot read \"%s\": the file is %lld bytes, more than the decode limit of %zu",
                     fn, path, (long long)st.st_size, limit);
    }
    uint8_t *buf = NULL;
    size_t want = r ? 0 : (size_t)st.st_size, got = 0;
    if (!r) {
        buf = hl__malloc(want);
        if (!buf) r = hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: out of memory reading \"%s\" (%zu bytes)", fn, path, want);
    }
    while (!r && got < want) {
        ssize_t n = read(fd, buf + got, want - got);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            r = hl__fail(HL_ERR_IO, "%s: cannot read \"%s\": %s", fn, path, strerror(errno));
        } else if (n == 0) {
            r = hl__fail(HL_ERR_IO, "%s: cannot read \"%s\": short read (%zu of %zu bytes; did the file shrink?)", fn,
                         path, got, want);
        } else {
            got += (size_t)n;
        }
    }
    close(fd);
    if (r) {
        hl__free(buf);
        return r;
    }
    *data = buf;
    *size = want;
    return HL_OK;
}

hl_result hl_texture_load_file(const char *path, const hl_texture_desc *desc, hl_texture **out) {
    static const char fn[] = "hl_texture_load_file";
    if (!out) return hl__fail(HL_ERR_VALIDATION, "%s: out is NULL", fn);
    *out = NULL;
    if (!path || !*path) return hl__fail(HL_ERR_VALIDATION, "%s: path is NULL or empty", fn);
    size_t limit = 0;
    hl_result r = hl__validate_load_desc(fn, desc, &limit);
    if (r) return r;
    uint8_t *buf = NULL;
    size_t size = 0;
    r = hl__read_file(fn, path, limit, &buf, &size);
    if (r) return r;
    char what[512];
    snprintf(what, sizeof what, "\"%s\"", path);
    r = hl__texture_decode(fn, what, buf, size, desc, limit, out);
    hl__free(buf);
    return r;
}

void hl_texture_retain(hl_texture *t) {
    if (t) t->refs++;
}

void hl_texture_release(hl_texture *t) {
    if (!t || --t->refs) return;
    hl__free(t->pixels);
    hl__free(t->label);
    hl__free(t);
}

hl_result hl_texture_set_pixels(hl_texture *t, uint32_t width, uint32_t height, const void *pixels,
                                size_t pixels_size) {
    static const char fn[] = "hl_texture_set_pixels";
    if (!t) return hl__fail(HL_ERR_VALIDATION, "%s: texture is NULL", fn);
    if (!pixels) return hl__fail(HL_ERR_VALIDATION, "%s: pixels is NULL", fn);
    hl_result r = hl__validate_size(fn, width, height);
    size_t bytes = 0;
    if (!r) r = hl__validate_buffer(fn, "pixels_size", width, height, pixels_size, &bytes);
    if (r) return r;
    if (width != t->info.width || height != t->info.height) {
        uint8_t *px = hl__malloc(bytes);
        if (!px) return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: out of memory for %ux%u pixels", fn, width, height);
        hl__free(t->pixels);
        t->pixels = px;
        t->info.width = width;
        t->info.height = height;
        t->info.mip_levels = hl__mip_levels(width, height, t->info.mipmaps);
    }
    memcpy(t->pixels, pixels, bytes);
    t->revision = hl__next_revision();
    return HL_OK;
}

hl_result hl_texture_set_sampler(hl_texture *t, const hl_sampler_desc *sampler) {
    if (!t) return hl__fail(HL_ERR_VALIDATION, "hl_texture_set_sampler: texture is NULL");
    hl_sampler_desc s = hl__sampler_defaults(sampler);
    hl_result r = hl__validate_sampler("hl_texture_set_sampler", &s);
    if (r) return r;
    if (memcmp(&s, &t->info.sampler, sizeof s) == 0) return HL_OK;
    t->info.sampler = s;
    t->sampler_revision = hl__next_revision();
    return HL_OK;
}

const hl_texture_info *hl_texture_get_info(const hl_texture *t) { return t ? &t->info : NULL; }
const uint8_t *hl_texture_pixels(const hl_texture *t) { return t ? t->pixels : NULL; }
uint64_t hl_texture_revision(const hl_texture *t) { return t ? t->revision : 0; }
uint64_t hl_texture_sampler_revision(const hl_texture *t) { return t ? t->sampler_revision : 0; }
const char *hl_texture_label(const hl_texture *t) { return t && t->label ? t->label : ""; }

uint32_t hl_texture_ref_count(const hl_texture *t) { return t ? t->refs : 0; }
