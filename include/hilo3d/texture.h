/* hilo3d: textures as CPU RGBA8 content with a revision, plus sampler settings.
 *
 * A texture holds width * height * 4 bytes (RGBA8, rows top to bottom, no padding). The
 * renderer uploads it when hl_texture_revision differs from what it uploaded last
 * (revision.h); changing the sampler bumps hl_texture_sampler_revision only.
 * Reference counted: created with one reference; materials retain the textures they use.
 */
#ifndef HILO3D_TEXTURE_H
#define HILO3D_TEXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hilo3d/result.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hl_wrap {
    HL_WRAP_DEFAULT = 0, /* = HL_WRAP_REPEAT */
    HL_WRAP_REPEAT,
    HL_WRAP_CLAMP,
    HL_WRAP_MIRROR
} hl_wrap;

typedef enum hl_filter {
    HL_FILTER_DEFAULT = 0, /* = HL_FILTER_LINEAR */
    HL_FILTER_NEAREST,
    HL_FILTER_LINEAR
} hl_filter;

typedef enum hl_mipmaps {
    HL_MIPMAPS_DEFAULT = 0, /* = HL_MIPMAPS_GENERATE */
    HL_MIPMAPS_GENERATE,    /* the renderer generates the full chain on upload */
    HL_MIPMAPS_NONE
} hl_mipmaps;

typedef enum hl_color_space {
    HL_COLOR_SPACE_DEFAULT = 0, /* = HL_COLOR_SPACE_SRGB (colour maps); use LINEAR for data maps */
    HL_COLOR_SPACE_SRGB,
    HL_COLOR_SPACE_LINEAR
} hl_color_space;

/* Sampler settings; zero = defaults (repeat, linear min/mag/mip filters). */
typedef struct hl_sampler_desc {
    hl_wrap wrap_u, wrap_v;
    hl_filter mag_filter, min_filter, mip_filter;
} hl_sampler_desc;

/* width, height: required (1..16384) unless loading a file. pixels: RGBA8 data copied at
 * creation; NULL = transparent black. mipmaps/color_space/sampler: 0 = defaults above. */
typedef struct hl_texture_desc {
    uint32_t width, height;
    const void *pixels;
    hl_mipmaps mipmaps;
    hl_color_space color_space;
    hl_sampler_desc sampler;
    const char *label;
} hl_texture_desc;

/* What the renderer reads: the resolved settings (no DEFAULT values left). */
typedef struct hl_texture_info {
    uint32_t width, height;
    uint32_t mip_levels; /* 1 when HL_MIPMAPS_NONE, else floor(log2(max(w, h))) + 1 */
    hl_mipmaps mipmaps;
    hl_color_space color_space;
    hl_sampler_desc sampler;
} hl_texture_info;

typedef struct hl_texture hl_texture;

hl_result hl_texture_create(const hl_texture_desc *desc, hl_texture **out);
/* Decodes a PNG/JPEG/... file with stb_image, converted to RGBA8. desc is optional (sampler,
 * mipmaps, colour space, label; width/height/pixels must be 0). HL_ERR_IO when the file cannot
 * be read, HL_ERR_PARSE when it cannot be decoded. */
hl_result hl_texture_load_file(const char *path, const hl_texture_desc *desc, hl_texture **out);
hl_result hl_texture_load_memory(const void *data, size_t size, const hl_texture_desc *desc, hl_texture **out);
void hl_texture_retain(hl_texture *t);
void hl_texture_release(hl_texture *t); /* NULL is a no-op */

/* Replaces the whole content (and size when width/height differ); bumps the revision. */
hl_result hl_texture_set_pixels(hl_texture *t, uint32_t width, uint32_t height, const void *pixels);
/* Replaces the sampler settings; bumps the sampler revision. */
hl_result hl_texture_set_sampler(hl_texture *t, const hl_sampler_desc *sampler);

const hl_texture_info *hl_texture_get_info(const hl_texture *t);
const uint8_t *hl_texture_pixels(const hl_texture *t);
uint64_t hl_texture_revision(const hl_texture *t);
uint64_t hl_texture_sampler_revision(const hl_texture *t);
const char *hl_texture_label(const hl_texture *t); /* "" when none */

#ifdef __cplusplus
}
#endif

#endif
