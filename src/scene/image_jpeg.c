/* JPEG decoding through libjpeg-turbo (Debian's libjpeg62-turbo): baseline, progressive and
 * arithmetic-coded; greyscale, YCbCr, RGB, CMYK and YCCK to RGBA8.
 *
 * libjpeg's default error handler calls exit(); ours records the message and longjmps back to
 * hl__jpeg_run, whose caller destroys the decoder and frees what the decode allocated. Corrupt
 * data that libjpeg would only warn about (a truncated file, a bad Huffman code) is an error
 * here, so a hostile file cannot make us decode megapixels of filler. */
#include <limits.h>
#include <setjmp.h>
#include <stdio.h> /* jpeglib.h needs FILE and size_t */
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

#include "hilo3d/texture.h"
#include "image_decode.h"

/* Real progressive files have about 10 scans; thousands of tiny scans only burn time. */
enum { HL__JPEG_MAX_SCANS = 1000 };
/* libjpeg's own allocations beside the whole-image coefficients (tables, row buffers). */
#define HL__JPEG_WORK_SLACK ((size_t)16 << 20)

typedef struct hl__jpeg_err {
    struct jpeg_error_mgr pub;
    jmp_buf jmp;
    char msg[JMSG_LENGTH_MAX + 64];
    bool too_many_scans;
} hl__jpeg_err;

typedef struct hl__jpeg_ctx {
    const hl__image_job *job;
    struct jpeg_decompress_struct cinfo;
    hl__jpeg_err err;
    struct jpeg_progress_mgr progress;
    uint8_t *rgba;
    uint32_t width, height;
} hl__jpeg_ctx;

static void hl__jpeg_error_exit(j_common_ptr ci) {
    hl__jpeg_err *e = (hl__jpeg_err *)ci->err;
    (*ci->err->format_message)(ci, e->msg);
    longjmp(e->jmp, 1);
}

/* level -1: a warning (corrupt data, mostly): fatal except for metadata the engine ignores;
 * level >= 0: trace messages, ignored. Nothing is ever printed. */
static void hl__jpeg_emit(j_common_ptr ci, int level) {
    if (level >= 0) return;
    int code = ci->err->msg_code;
    if (code == JWRN_JFIF_MAJOR || code == JWRN_ADOBE_XFORM || code == JWRN_BOGUS_ICC) return;
    hl__jpeg_error_exit(ci);
}

static void hl__jpeg_output(j_common_ptr ci) { (void)ci; }

static void hl__jpeg_progress(j_common_ptr ci) {
    j_decompress_ptr d = (j_decompress_ptr)ci;
    if (d->input_scan_number <= HL__JPEG_MAX_SCANS) return;
    hl__jpeg_err *e = (hl__jpeg_err *)ci->err;
    e->too_many_scans = true;
    snprintf(e->msg, sizeof e->msg, "more than %d scans", HL__JPEG_MAX_SCANS);
    longjmp(e->jmp, 1);
}

static size_t hl__round_up(size_t v, size_t m) { return m ? (v + m - 1) / m * m : v; }

/* Bytes of the whole-image coefficient arrays libjpeg keeps for progressive and multi-scan
 * files (jdcoefct.c: one JBLOCK per block, rows and columns rounded up to the sampling
 * factors); 0 for single-scan files, which decode row by row. Called after the size check, so
 * nothing here can overflow (components <= 10, blocks per side <= 8192 / 8 * 4 + 4). */
static size_t hl__jpeg_coefficient_bytes(j_decompress_ptr ci) {
    if (!ci->progressive_mode && ci->comps_in_scan >= ci->num_components) return 0;
    size_t total = 0;
    for (int i = 0; i < ci->num_components; i++) {
        const jpeg_component_info *cp = &ci->comp_info[i];
        size_t bw = hl__round_up(cp->width_in_blocks, (size_t)cp->h_samp_factor);
        size_t bh = hl__round_up(cp->height_in_blocks, (size_t)cp->v_samp_factor);
        total += bw * bh * sizeof(JBLOCK);
    }
    return total;
}

/* stb_image's CMYK blend, kept so CMYK files look as before: x * y / 255, rounded. */
static uint8_t hl__blinn(uint8_t x, uint8_t y) {
    unsigned t = (unsigned)x * y + 128u;
    return (uint8_t)((t + (t >> 8)) >> 8);
}

/* Everything that may longjmp; state lives in *c (the caller's), so nothing here is clobbered. */
static hl_result hl__jpeg_run(hl__jpeg_ctx *c) {
    const hl__image_job *job = c->job;
    j_decompress_ptr ci = &c->cinfo;
    if (setjmp(c->err.jmp)) {
        if (c->err.too_many_scans)
            return hl__fail(HL_ERR_PARSE, "%s: %s: corrupt JPEG: %s", job->fn, job->what, c->err.msg);
        if (c->err.pub.msg_code == JERR_OUT_OF_MEMORY)
            return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: %s: out of memory decoding JPEG: %s", job->fn, job->what,
                            c->err.msg);
        if (c->err.pub.msg_code == JERR_NO_BACKING_STORE)
            return hl__fail(HL_ERR_VALIDATION, "%s: %s: the JPEG decoder needs more than the decode limit of %zu bytes",
                            job->fn, job->what, job->limit);
        return hl__fail(HL_ERR_PARSE, "%s: %s: corrupt JPEG: %s", job->fn, job->what, c->err.msg);
    }
    ci->err = jpeg_std_error(&c->err.pub);
    c->err.pub.error_exit = hl__jpeg_error_exit;
    c->err.pub.emit_message = hl__jpeg_emit;
    c->err.pub.output_message = hl__jpeg_output;
    jpeg_create_decompress(ci);
    c->progress.progress_monitor = hl__jpeg_progress;
    ci->progress = &c->progress;
    jpeg_mem_src(ci, job->data, (unsigned long)job->size);
    jpeg_read_header(ci, TRUE);

    uint32_t w = ci->image_width, h = ci->image_height;
    size_t rgba_bytes = 0;
    hl_result r = hl__image_check_size(job, HL__IMAGE_JPEG, w, h, 4, 0, &rgba_bytes);
    if (r) return r;
    size_t coef = hl__jpeg_coefficient_bytes(ci);
    r = hl__image_check_size(job, HL__IMAGE_JPEG, w, h, 4, coef, &rgba_bytes);
    if (r) return r;
    /* libjpeg enforces its own share too: a whole-image array beyond it is an error */
    size_t own = coef + HL__JPEG_WORK_SLACK;
    ci->mem->max_memory_to_use = own > (size_t)LONG_MAX ? LONG_MAX : (long)own;

    bool cmyk = ci->jpeg_color_space == JCS_CMYK || ci->jpeg_color_space == JCS_YCCK;
    ci->out_color_space = cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    jpeg_start_decompress(ci);
    if (ci->output_width != w || ci->output_height != h || ci->output_components != 4)
        return hl__fail(HL_ERR_PARSE, "%s: %s: JPEG decoded to %ux%u with %d channels, expected %ux%u RGBA", job->fn,
                        job->what, (unsigned)ci->output_width, (unsigned)ci->output_height, ci->output_components,
                        (unsigned)w, (unsigned)h);
    c->rgba = hl__malloc(rgba_bytes);
    if (!c->rgba)
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: %s: out of memory for %ux%u pixels", job->fn, job->what,
                        (unsigned)w, (unsigned)h);
    while (ci->output_scanline < h) {
        JSAMPROW row = c->rgba + (size_t)ci->output_scanline * w * 4u;
        if (jpeg_read_scanlines(ci, &row, 1) != 1)
            return hl__fail(HL_ERR_PARSE, "%s: %s: JPEG decoder stopped at row %u", job->fn, job->what,
                            (unsigned)ci->output_scanline);
    }
    if (cmyk) { /* libjpeg gives Adobe's inverted CMYK: colour = channel * key / 255 */
        for (size_t i = 0; i < rgba_bytes; i += 4) {
            uint8_t *p = c->rgba + i, k = p[3];
            p[0] = hl__blinn(p[0], k);
            p[1] = hl__blinn(p[1], k);
            p[2] = hl__blinn(p[2], k);
            p[3] = 255;
        }
    }
    /* jpeg_finish_decompress is skipped: data after the last row cannot change the pixels */
    c->width = w;
    c->height = h;
    return HL_OK;
}

hl_result hl__jpeg_decode(const hl__image_job *job, hl__image *out) {
    hl__jpeg_ctx *c = hl__calloc(1, sizeof *c);
    if (!c) return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: %s: out of memory starting the JPEG decoder", job->fn, job->what);
    c->job = job;
    hl_result r = hl__jpeg_run(c);
    jpeg_destroy_decompress(&c->cinfo); /* safe at any stage: the struct starts zeroed */
    if (r) {
        hl__free(c->rgba);
    } else {
        *out = (hl__image){c->width, c->height, c->rgba};
    }
    hl__free(c);
    return r;
}
