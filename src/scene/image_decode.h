/* Image decoding for textures: format sniffing, the size checks every decoder runs before it
 * decodes, and one decoder per accepted format (image_png.c, image_jpeg.c, image_hdr.c).
 * Files and memory share this path: hl_texture_load_file reads the file, then decodes the bytes
 * exactly as hl_texture_load_memory does. */
#ifndef HL_IMAGE_DECODE_H
#define HL_IMAGE_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "hl_base.h"

/* A decoded image: width * height * 4 bytes of RGBA8 from hl__malloc (the caller frees it). */
typedef struct hl__image {
    uint32_t width, height;
    uint8_t *rgba;
} hl__image;

/* What one decode call knows about itself, for messages and limits. */
typedef struct hl__image_job {
    const char *fn;   /* public function name, first word of every message */
    const char *what; /* "\"path\"" or "the image data" */
    const uint8_t *data;
    size_t size;
    size_t limit; /* decode limit in bytes (never 0 here) */
} hl__image_job;

/* The recognised kinds: the three decoded ones first, then those named in HL_ERR_UNSUPPORTED. */
typedef enum hl__image_kind {
    HL__IMAGE_UNKNOWN = 0,
    HL__IMAGE_PNG,
    HL__IMAGE_JPEG,
    HL__IMAGE_HDR,
    HL__IMAGE_GIF,
    HL__IMAGE_BMP,
    HL__IMAGE_PSD,
    HL__IMAGE_PNM,
    HL__IMAGE_PIC,
    HL__IMAGE_WEBP,
    HL__IMAGE_TIFF,
    HL__IMAGE_QOI,
    HL__IMAGE_DDS,
    HL__IMAGE_KTX,
    HL__IMAGE_KTX2,
    HL__IMAGE_EXR,
    HL__IMAGE_ICO,
    HL__IMAGE_AVIF,
    HL__IMAGE_HEIF,
    HL__IMAGE_JXL,
    HL__IMAGE_JP2
} hl__image_kind;

/* The kind the first bytes announce (HL__IMAGE_UNKNOWN when none; TGA has no signature). */
hl__image_kind hl__image_sniff(const uint8_t *data, size_t size);
const char *hl__image_kind_name(hl__image_kind kind);

/* Decodes job->data into *out. HL_ERR_UNSUPPORTED / PARSE / VALIDATION / OUT_OF_MEMORY as
 * texture.h documents for hl_texture_load_memory; on failure *out holds nothing. */
hl_result hl__image_decode(const hl__image_job *job, hl__image *out);

/* The checks every decoder runs once it knows the size from the header and before it decodes:
 * width and height 1..HL_TEXTURE_MAX_DIMENSION, then width * height * bytes_per_pixel +
 * extra_bytes within job->limit (all arithmetic checked). *rgba_bytes = width * height * 4. */
hl_result hl__image_check_size(const hl__image_job *job, hl__image_kind kind, uint64_t width, uint64_t height,
                               size_t bytes_per_pixel, size_t extra_bytes, size_t *rgba_bytes);

/* Reads the whole regular file at path into *data (hl__malloc), at most limit bytes. HL_ERR_IO
 * naming fn, the path and the reason (texture.c). */
hl_result hl__read_file(const char *fn, const char *path, size_t limit, uint8_t **data, size_t *size);

hl_result hl__png_decode(const hl__image_job *job, hl__image *out);
hl_result hl__jpeg_decode(const hl__image_job *job, hl__image *out);
hl_result hl__hdr_decode(const hl__image_job *job, hl__image *out);
/* A Radiance HDR image as linear RGB floats (3 per pixel, from hl__malloc; the caller frees
 * them): the same checks and errors as hl__hdr_decode, no 8-bit mapping. */
hl_result hl__hdr_decode_linear(const hl__image_job *job, uint32_t *width, uint32_t *height, float **rgb);

#endif
