/* Textures: RGBA8 CPU content with a revision, sampler settings, stb_image decoding. */
#include <stdio.h>
#include <string.h>

#include "scene_internal.h"

/* stb_image: private (static) copy, allocating through the project's hook. */
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_MALLOC(sz) hl__malloc(sz)
#define STBI_REALLOC(p, newsz) hl__realloc(p, newsz)
#define STBI_FREE(p) hl__free(p)
#define STBI_NO_STDIO /* files are read here so the IO error names the path */
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

#define HL__MAX_TEXTURE_SIZE 16384u

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
    if (w == 0 || w > HL__MAX_TEXTURE_SIZE)
        return hl__fail(HL_ERR_VALIDATION, "%s: width %u must be 1..%u", fn, w, HL__MAX_TEXTURE_SIZE);
    if (h == 0 || h > HL__MAX_TEXTURE_SIZE)
        return hl__fail(HL_ERR_VALIDATION, "%s: height %u must be 1..%u", fn, h, HL__MAX_TEXTURE_SIZE);
    return HL_OK;
}

/* Takes ownership of pixels (w * h * 4 bytes, from hl__malloc or stb). */
static hl_result hl__texture_make(const char *fn, const hl_texture_desc *desc, uint32_t w, uint32_t h, uint8_t *pixels,
                                  hl_texture **out) {
    hl_texture_desc d = desc ? *desc : (hl_texture_desc){0};
    hl_result r = hl__validate_sampler(fn, &d.sampler);
    if (!r && (unsigned)d.mipmaps > HL_MIPMAPS_NONE)
        r = hl__fail(HL_ERR_VALIDATION, "%s: mipmaps %d is invalid", fn, (int)d.mipmaps);
    if (!r && (unsigned)d.color_space > HL_COLOR_SPACE_LINEAR)
        r = hl__fail(HL_ERR_VALIDATION, "%s: color_space %d is invalid", fn, (int)d.color_space);
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
    t->revision = 1;
    t->sampler_revision = 1;
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
    size_t bytes = (size_t)desc->width * desc->height * 4u;
    uint8_t *px = desc->pixels ? hl__malloc(bytes) : hl__calloc(1, bytes);
    if (!px) return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: out of memory for %ux%u pixels", fn, desc->width, desc->height);
    if (desc->pixels) memcpy(px, desc->pixels, bytes);
    return hl__texture_make(fn, desc, desc->width, desc->height, px, out);
}

static hl_result hl__texture_decode(const char *fn, const char *what, const void *data, size_t size,
                                    const hl_texture_desc *desc, hl_texture **out) {
    if (desc && (desc->width || desc->height || desc->pixels))
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.width/height/pixels must be 0 when loading an image", fn);
    if (size > 0x7fffffff) return hl__fail(HL_ERR_VALIDATION, "%s: %s is larger than 2 GiB", fn, what);
    int w = 0, h = 0, comp = 0;
    stbi_uc *px = stbi_load_from_memory((const stbi_uc *)data, (int)size, &w, &h, &comp, 4);
    if (!px) return hl__fail(HL_ERR_PARSE, "%s: cannot decode %s: %s", fn, what, stbi_failure_reason());
    hl_result r = hl__validate_size(fn, (uint32_t)w, (uint32_t)h);
    if (r) {
        stbi_image_free(px);
        return r;
    }
    return hl__texture_make(fn, desc, (uint32_t)w, (uint32_t)h, px, out);
}

hl_result hl_texture_load_memory(const void *data, size_t size, const hl_texture_desc *desc, hl_texture **out) {
    static const char fn[] = "hl_texture_load_memory";
    if (!out) return hl__fail(HL_ERR_VALIDATION, "%s: out is NULL", fn);
    *out = NULL;
    if (!data || size == 0) return hl__fail(HL_ERR_VALIDATION, "%s: data is NULL or size is 0", fn);
    return hl__texture_decode(fn, "the image data", data, size, desc, out);
}

hl_result hl_texture_load_file(const char *path, const hl_texture_desc *desc, hl_texture **out) {
    static const char fn[] = "hl_texture_load_file";
    if (!out) return hl__fail(HL_ERR_VALIDATION, "%s: out is NULL", fn);
    *out = NULL;
    if (!path || !*path) return hl__fail(HL_ERR_VALIDATION, "%s: path is NULL or empty", fn);
    FILE *f = fopen(path, "rb");
    if (!f) return hl__fail(HL_ERR_IO, "%s: cannot open \"%s\"", fn, path);
    long size = -1;
    if (fseek(f, 0, SEEK_END) == 0) size = ftell(f);
    if (size <= 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return hl__fail(HL_ERR_IO, "%s: cannot read \"%s\" (empty or not seekable)", fn, path);
    }
    void *buf = hl__malloc((size_t)size);
    if (!buf) {
        fclose(f);
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: out of memory reading \"%s\"", fn, path);
    }
    size_t got = fread(buf, 1, (size_t)size, f);
    fclose(f);
    if (got != (size_t)size) {
        hl__free(buf);
        return hl__fail(HL_ERR_IO, "%s: short read on \"%s\"", fn, path);
    }
    char what[300];
    snprintf(what, sizeof what, "\"%s\"", path);
    hl_result r = hl__texture_decode(fn, what, buf, (size_t)size, desc, out);
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

hl_result hl_texture_set_pixels(hl_texture *t, uint32_t width, uint32_t height, const void *pixels) {
    static const char fn[] = "hl_texture_set_pixels";
    if (!t) return hl__fail(HL_ERR_VALIDATION, "%s: texture is NULL", fn);
    if (!pixels) return hl__fail(HL_ERR_VALIDATION, "%s: pixels is NULL", fn);
    hl_result r = hl__validate_size(fn, width, height);
    if (r) return r;
    size_t bytes = (size_t)width * height * 4u;
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
    t->revision++;
    return HL_OK;
}

hl_result hl_texture_set_sampler(hl_texture *t, const hl_sampler_desc *sampler) {
    if (!t) return hl__fail(HL_ERR_VALIDATION, "hl_texture_set_sampler: texture is NULL");
    hl_sampler_desc s = hl__sampler_defaults(sampler);
    hl_result r = hl__validate_sampler("hl_texture_set_sampler", &s);
    if (r) return r;
    if (memcmp(&s, &t->info.sampler, sizeof s) == 0) return HL_OK;
    t->info.sampler = s;
    t->sampler_revision++;
    return HL_OK;
}

const hl_texture_info *hl_texture_get_info(const hl_texture *t) { return t ? &t->info : NULL; }
const uint8_t *hl_texture_pixels(const hl_texture *t) { return t ? t->pixels : NULL; }
uint64_t hl_texture_revision(const hl_texture *t) { return t ? t->revision : 0; }
uint64_t hl_texture_sampler_revision(const hl_texture *t) { return t ? t->sampler_revision : 0; }
const char *hl_texture_label(const hl_texture *t) { return t && t->label ? t->label : ""; }
