/** @file
 * hilo3d: textures as CPU RGBA8 content with a revision, plus sampler settings.
 *
 * A texture holds width * height * 4 bytes (RGBA8, rows top to bottom, no padding). The
 * renderer uploads it when hl_texture_revision differs from what it uploaded last
 * (revision.h); changing the sampler bumps hl_texture_sampler_revision only.
 * Reference counted: created with one reference; materials retain the textures they use.
 *
 * Image files: PNG (libpng), JPEG (libjpeg-turbo) and Radiance HDR (.hdr, RGBE) only. The
 * format is recognised from the first bytes, never from the file name. Every image becomes
 * RGBA8: PNG 16-bit channels keep their high byte, grey and palette images are expanded, a
 * missing alpha is 255; JPEG greyscale/YCbCr/RGB/CMYK become RGB with alpha 255; HDR colours
 * are mapped to 8 bits as round(255 * min(1, c^(1/2.2))) with alpha 255 (no exposure, no
 * tone mapping). Width and height are checked against HL_TEXTURE_MAX_DIMENSION and the
 * memory the decode would need against the decode limit BEFORE any pixel is decoded.
 */
#ifndef HILO3D_TEXTURE_H
#define HILO3D_TEXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hilo3d/export.h"
#include "hilo3d/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What a sampler does with texture coordinates outside [0, 1]. */
typedef enum hl_wrap {
    HL_WRAP_DEFAULT = 0, /**< = HL_WRAP_REPEAT */
    HL_WRAP_REPEAT,      /**< the image tiles */
    HL_WRAP_CLAMP,       /**< the edge texels extend */
    HL_WRAP_MIRROR       /**< the image tiles, every other copy mirrored */
} hl_wrap;

/** How a sampler filters between texels (or between mip levels). */
typedef enum hl_filter {
    HL_FILTER_DEFAULT = 0, /**< = HL_FILTER_LINEAR */
    HL_FILTER_NEAREST,     /**< the nearest texel (level) */
    HL_FILTER_LINEAR       /**< a weighted mean of the nearest texels (levels) */
} hl_filter;

/** Whether a texture gets a mip chain. */
typedef enum hl_mipmaps {
    HL_MIPMAPS_DEFAULT = 0, /**< = HL_MIPMAPS_GENERATE */
    HL_MIPMAPS_GENERATE,    /**< the renderer generates the full chain on upload */
    HL_MIPMAPS_NONE         /**< one level: mip_filter is not used */
} hl_mipmaps;

/** How the texture's bytes are read in shaders. */
typedef enum hl_color_space {
    HL_COLOR_SPACE_DEFAULT = 0, /**< = HL_COLOR_SPACE_SRGB (colour maps); use LINEAR for data maps */
    HL_COLOR_SPACE_SRGB,        /**< sRGB-encoded colour, decoded to linear when sampled */
    HL_COLOR_SPACE_LINEAR       /**< values as stored (normal, metallic-roughness, occlusion maps) */
} hl_color_space;

/** Sampler settings; zero = defaults (repeat, linear min/mag/mip filters). */
typedef struct hl_sampler_desc {
    /** Along u (x) and v (y). @{ */
    hl_wrap wrap_u, wrap_v;
    /** @} */
    /** Magnification, minification and between mip levels. @{ */
    hl_filter mag_filter, min_filter, mip_filter;
    /** @} */
} hl_sampler_desc;

/** The largest width or height of any texture (created, resized or loaded): WebGPU's
 * guaranteed maxTextureDimension2D, which both backends support, so a texture that is valid on
 * one backend is valid on all. Larger sizes are HL_ERR_VALIDATION at creation, never a failure
 * in a later frame. */
#define HL_TEXTURE_MAX_DIMENSION 8192u

/** The default decode limit: the most bytes of whole-image buffers one image decode may need,
 * counted before decoding: the RGBA8 result (4 bytes per pixel) plus the decoder's whole-image
 * intermediates (progressive or multi-scan JPEG: about 2 bytes per sample of coefficients; HDR:
 * 16 bytes per pixel of floats). Every PNG, baseline JPEG and chroma-subsampled progressive
 * JPEG up to HL_TEXTURE_MAX_DIMENSION fits within it; progressive JPEGs without subsampling
 * above about 7300x7300 and HDR images above about 4700x4700 do not (raise
 * hl_texture_desc.decode_limit). A file loaded by hl_texture_load_file may also be at most the
 * decode limit long. */
#define HL_TEXTURE_DECODE_LIMIT_DEFAULT ((size_t)512 << 20)

/** A texture to create (hl_texture_create) or the settings of one to load (hl_texture_load_*).
 * Zero = defaults; everything is copied at the call. */
typedef struct hl_texture_desc {
    /** Required (1..HL_TEXTURE_MAX_DIMENSION) unless loading a file (then 0). @{ */
    uint32_t width, height;
    /** @} */
    const void *pixels;          /**< RGBA8 data (width * height * 4 bytes) copied at creation; NULL = transparent black */
    /** The number of bytes readable at pixels; must be at least width * height * 4 when pixels is
     * set (only that many are read) and 0 when pixels is NULL. */
    size_t pixels_size;
    hl_mipmaps mipmaps;          /**< 0 = HL_MIPMAPS_GENERATE */
    hl_color_space color_space;  /**< 0 = HL_COLOR_SPACE_SRGB */
    hl_sampler_desc sampler;     /**< zero = repeat, linear filters */
    const char *label;           /**< for messages (copied); NULL = none */
    /** Loading only (hl_texture_load_*): the decode limit in bytes (see
     * HL_TEXTURE_DECODE_LIMIT_DEFAULT, the value used for 0); an image that needs more is
     * HL_ERR_VALIDATION before any pixel is decoded. Must be 0 for hl_texture_create. */
    size_t decode_limit;
} hl_texture_desc;

/** What the renderer reads: the resolved settings (no DEFAULT values left). */
typedef struct hl_texture_info {
    /** The size in texels. @{ */
    uint32_t width, height;
    /** @} */
    uint32_t mip_levels; /**< 1 when HL_MIPMAPS_NONE, else floor(log2(max(w, h))) + 1 */
    hl_mipmaps mipmaps;          /**< GENERATE or NONE */
    hl_color_space color_space;  /**< SRGB or LINEAR */
    hl_sampler_desc sampler;     /**< every field resolved (no DEFAULT) */
} hl_texture_info;

/** A texture: CPU RGBA8 pixels with a revision and sampler settings, reference counted (see the
 * top of this file). */
typedef struct hl_texture hl_texture;

/** HL_ERR_VALIDATION (message naming the field) for a bad desc: a size outside
 * 1..HL_TEXTURE_MAX_DIMENSION, pixels_size below width * height * 4, an invalid enum. */
HL_API hl_result hl_texture_create(const hl_texture_desc *desc, hl_texture **out);
/** Decodes a PNG, JPEG or Radiance HDR image (see the top of this file) held in memory; data is
 * only read during the call. desc is optional (sampler, mipmaps, colour space, label,
 * decode_limit; width/height/pixels/pixels_size must be 0). Results:
 *   HL_ERR_UNSUPPORTED  a recognised image format other than these three (GIF, BMP, PSD, PNM,
 *                       WebP, TIFF, ...); the message names the format.
 *   HL_ERR_PARSE        not an image of a known format, or a corrupt or truncated PNG/JPEG/HDR
 *                       (JPEG data libjpeg reports as corrupt counts, even where it could go on).
 *   HL_ERR_VALIDATION   a bad desc, or an image wider or taller than HL_TEXTURE_MAX_DIMENSION or
 *                       needing more than the decode limit (checked before decoding).
 *   HL_ERR_OUT_OF_MEMORY an allocation failed. */
HL_API hl_result hl_texture_load_memory(const void *data, size_t size, const hl_texture_desc *desc, hl_texture **out);
/** Reads the whole file, then decodes it exactly as hl_texture_load_memory. HL_ERR_IO, with a
 * message naming the path and the reason (strerror), when it cannot be opened, is a directory
 * or not a regular file, is empty, is longer than the decode limit, or cannot be read whole. */
HL_API hl_result hl_texture_load_file(const char *path, const hl_texture_desc *desc, hl_texture **out);
/** Adds a reference (NULL is a no-op). Not atomic: one thread at a time. */
HL_API void hl_texture_retain(hl_texture *t);
/** Drops a reference; the last one frees the pixels. NULL is a no-op. */
HL_API void hl_texture_release(hl_texture *t);
/** References held (the creator's, and those of meshes, materials and renderers that use it);
 * 0 for NULL. A renderer releases its GPU copy once only its own reference is left. */
HL_API uint32_t hl_texture_ref_count(const hl_texture *t);

/** Replaces the whole content (and size when width/height differ); bumps the revision.
 * pixels: width * height * 4 bytes of RGBA8; pixels_size: the bytes readable at pixels (at least
 * width * height * 4). Sizes outside 1..HL_TEXTURE_MAX_DIMENSION or a short buffer are
 * HL_ERR_VALIDATION and leave the texture unchanged. */
HL_API hl_result hl_texture_set_pixels(hl_texture *t, uint32_t width, uint32_t height, const void *pixels,
                                size_t pixels_size);
/** Replaces the sampler settings (NULL = the defaults); bumps the sampler revision when they
 * differ. HL_ERR_VALIDATION for an invalid enum (the texture keeps its sampler). */
HL_API hl_result hl_texture_set_sampler(hl_texture *t, const hl_sampler_desc *sampler);

/** The resolved size and settings (owned by the texture); NULL for NULL. */
HL_API const hl_texture_info *hl_texture_get_info(const hl_texture *t);
/** The RGBA8 pixels, width * height * 4 bytes, row 0 at the top (owned by the texture, valid until
 * the next hl_texture_set_pixels); NULL for NULL. */
HL_API const uint8_t *hl_texture_pixels(const hl_texture *t);
/** Changes when the pixels (or the size) change; process-unique (revision.h); 0 for NULL. */
HL_API uint64_t hl_texture_revision(const hl_texture *t);
/** Changes when the sampler settings change; 0 for NULL. */
HL_API uint64_t hl_texture_sampler_revision(const hl_texture *t);
/** The label given at creation; "" when none (or NULL). */
HL_API const char *hl_texture_label(const hl_texture *t);

#ifdef __cplusplus
}
#endif

#endif
