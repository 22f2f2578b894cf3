/* PNG decoding through libpng (Debian's libpng16): every colour type and bit depth to RGBA8.
 *
 * libpng reports errors through a callback that must not return: it records the message and
 * longjmps back to hl__png_run, whose caller then frees what the decode allocated. libpng's own
 * allocations go through the project's allocator hook, so they are counted and bounded. */
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include "hilo3d/texture.h"
#include "image_decode.h"

typedef struct hl__png_ctx {
    const hl__image_job *job;
    png_structp png;
    png_infop info;
    size_t pos;
    uint8_t *rgba;
    png_bytep *rows;
    uint32_t width, height;
    bool out_of_memory;
    char msg[160];
} hl__png_ctx;

static void hl__png_error(png_structp png, png_const_charp msg) {
    hl__png_ctx *c = png_get_error_ptr(png);
    snprintf(c->msg, sizeof c->msg, "%s", msg ? msg : "unknown error");
    png_longjmp(png, 1);
}

static void hl__png_warning(png_structp png, png_const_charp msg) {
    (void)png; /* warnings (bad ancillary chunks, ...) are not failures and are never printed */
    (void)msg;
}

static png_voidp hl__png_malloc(png_structp png, png_alloc_size_t size) {
    void *p = hl__malloc(size);
    if (!p) ((hl__png_ctx *)png_get_mem_ptr(png))->out_of_memory = true;
    return p;
}

static void hl__png_free(png_structp png, png_voidp p) {
    (void)png;
    hl__free(p);
}

static void hl__png_read(png_structp png, png_bytep out, size_t n) {
    hl__png_ctx *c = png_get_io_ptr(png);
    if (n > c->job->size - c->pos) png_error(png, "unexpected end of data (truncated file)");
    memcpy(out, c->job->data + c->pos, n);
    c->pos += n;
}

static uint32_t hl__be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Bytes beside the RGBA8 result: row pointers and libpng's row buffers (a few 8-byte-per-pixel
 * rows at most). Sizes above the maximum are clamped: hl__image_check_size refuses them. */
static size_t hl__png_extra(uint32_t w, uint32_t h) {
    if (w > HL_TEXTURE_MAX_DIMENSION) w = HL_TEXTURE_MAX_DIMENSION;
    if (h > HL_TEXTURE_MAX_DIMENSION) h = HL_TEXTURE_MAX_DIMENSION;
    return (size_t)h * sizeof(png_bytep) + 4u * ((size_t)w * 8u + 1u);
}

/* Everything that may longjmp; state lives in *c (the caller's), so nothing here is clobbered. */
static hl_result hl__png_run(hl__png_ctx *c) {
    const hl__image_job *job = c->job;
    if (setjmp(png_jmpbuf(c->png))) {
        if (c->out_of_memory) return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: %s: out of memory decoding PNG", job->fn, job->what);
        return hl__fail(HL_ERR_PARSE, "%s: %s: corrupt PNG: %s", job->fn, job->what, c->msg);
    }
    png_set_read_fn(c->png, c, hl__png_read);
    png_set_user_limits(c->png, HL_TEXTURE_MAX_DIMENSION, HL_TEXTURE_MAX_DIMENSION);
    /* bounded work and memory for hostile ancillary data: at most 8 MB per chunk (compressed
     * text/profiles included), at most 64 stored ancillary chunks, and the metadata the engine
     * never uses is skipped unread (only its CRC is checked) */
    png_set_chunk_malloc_max(c->png, 8u << 20);
    png_set_chunk_cache_max(c->png, 64);
    static const png_byte skip[] = "iCCP\0zTXt\0iTXt\0tEXt\0sPLT\0eXIf\0hIST\0pCAL\0sCAL\0sBIT\0tIME\0";
    png_set_keep_unknown_chunks(c->png, PNG_HANDLE_CHUNK_NEVER, skip, (int)(sizeof skip / 5));
    png_set_keep_unknown_chunks(c->png, PNG_HANDLE_CHUNK_NEVER, NULL, 0);

    png_read_info(c->png, c->info);
    png_uint_32 w = 0, h = 0;
    int depth = 0, color = 0;
    png_get_IHDR(c->png, c->info, &w, &h, &depth, &color, NULL, NULL, NULL);
    size_t rgba_bytes = 0;
    hl_result r = hl__image_check_size(job, HL__IMAGE_PNG, w, h, 4, hl__png_extra(w, h), &rgba_bytes);
    if (r) return r;

    /* to RGBA8: palette and low-depth grey expanded, tRNS to alpha, 16-bit channels keep the
     * high byte (as the earlier stb_image decoder did), grey to RGB, alpha 255 when absent */
    bool trns = png_get_valid(c->png, c->info, PNG_INFO_tRNS) != 0;
    if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(c->png);
    if (color == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(c->png);
    if (trns) png_set_tRNS_to_alpha(c->png);
    if (depth == 16) png_set_strip_16(c->png);
    if (color == PNG_COLOR_TYPE_GRAY || color == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(c->png);
    if (!(color & PNG_COLOR_MASK_ALPHA) && !trns) png_set_filler(c->png, 0xff, PNG_FILLER_AFTER);
    png_set_interlace_handling(c->png);
    png_read_update_info(c->png, c->info);
    if (png_get_rowbytes(c->png, c->info) != (size_t)w * 4u || png_get_channels(c->png, c->info) != 4 ||
        png_get_bit_depth(c->png, c->info) != 8)
        return hl__fail(HL_ERR_PARSE, "%s: %s: PNG colour type %d depth %d did not convert to RGBA8", job->fn,
                        job->what, color, depth);

    c->rgba = hl__malloc(rgba_bytes);
    c->rows = hl__malloc((size_t)h * sizeof *c->rows);
    if (!c->rgba || !c->rows)
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: %s: out of memory for %ux%u pixels", job->fn, job->what, (unsigned)w,
                        (unsigned)h);
    for (png_uint_32 y = 0; y < h; y++) c->rows[y] = c->rgba + (size_t)y * w * 4u;
    png_read_image(c->png, c->rows);
    c->width = w;
    c->height = h;
    /* png_read_end is skipped: chunks after the last image data cannot change the pixels */
    return HL_OK;
}

hl_result hl__png_decode(const hl__image_job *job, hl__image *out) {
    /* The size from IHDR (always the first chunk) before libpng allocates anything. */
    if (job->size >= 24 && memcmp(job->data + 12, "IHDR", 4) == 0) {
        uint32_t w = hl__be32(job->data + 16), h = hl__be32(job->data + 20);
        size_t rgba_bytes;
        hl_result r = hl__image_check_size(job, HL__IMAGE_PNG, w, h, 4, hl__png_extra(w, h), &rgba_bytes);
        if (r) return r;
    }
    hl__png_ctx c = {.job = job};
    c.png = png_create_read_struct_2(PNG_LIBPNG_VER_STRING, &c, hl__png_error, hl__png_warning, &c, hl__png_malloc,
                                     hl__png_free);
    if (c.png) c.info = png_create_info_struct(c.png);
    hl_result r = c.png && c.info ? hl__png_run(&c)
                                  : hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: %s: out of memory starting the PNG decoder",
                                             job->fn, job->what);
    png_destroy_read_struct(&c.png, &c.info, NULL);
    hl__free(c.rows);
    if (r) {
        hl__free(c.rgba);
        return r;
    }
    *out = (hl__image){c.width, c.height, c.rgba};
    return HL_OK;
}
