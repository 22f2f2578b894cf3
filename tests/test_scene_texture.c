/* Scene textures without a GPU: image decoding (PNG through libpng, JPEG through libjpeg-turbo,
 * Radiance HDR; every other format refused by its signature), sizes and decode memory checked
 * before decoding, file errors, caller buffer sizes, and no leak on any error path.
 *
 * Every heap block hilo3d (and libpng) allocates goes through a counting allocator, so a test
 * can state how many bytes a call needed at its peak and that a failure left nothing behind;
 * it can also make the Nth allocation fail. The hostile files of tests/data/img/ are the
 * reproductions of issue 7's image defects. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jpeglib.h>
#include <png.h>

#include "hilo3d/hilo3d.h"
#include "hl_test.h"

/* ---- counting allocator ------------------------------------------------------------------- */
static size_t g_live, g_peak;
static long g_fail_at = -1; /* the allocation (0-based) that returns NULL; -1 = none */
static long g_allocs;

static bool count_should_fail(void) {
    long n = g_allocs++;
    return g_fail_at >= 0 && n == g_fail_at;
}
static void *count_alloc(size_t size, void *user) {
    (void)user;
    if (count_should_fail() || size > SIZE_MAX - 16) return NULL;
    size_t *h = malloc(size + 16);
    if (!h) return NULL;
    h[0] = size;
    g_live += size;
    if (g_live > g_peak) g_peak = g_live;
    return (char *)h + 16;
}
static void *count_realloc(void *ptr, size_t size, void *user) {
    if (!ptr) return count_alloc(size, user);
    if (count_should_fail() || size > SIZE_MAX - 16) return NULL;
    size_t *h = (size_t *)((char *)ptr - 16), old = h[0];
    size_t *n = realloc(h, size + 16);
    if (!n) return NULL;
    n[0] = size;
    g_live = g_live - old + size;
    if (g_live > g_peak) g_peak = g_live;
    return (char *)n + 16;
}
static void count_free(void *ptr, void *user) {
    (void)user;
    if (!ptr) return;
    size_t *h = (size_t *)((char *)ptr - 16);
    g_live -= h[0];
    free(h);
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}
static long max_rss_kb(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* ---- growable byte buffer for the encoders ------------------------------------------------ */
typedef struct buf {
    uint8_t *data;
    size_t size, cap;
} buf;
static void buf_put(buf *b, const void *p, size_t n) {
    if (b->size + n > b->cap) {
        b->cap = (b->size + n) * 2 + 64;
        b->data = realloc(b->data, b->cap);
    }
    memcpy(b->data + b->size, p, n);
    b->size += n;
}
static void buf_str(buf *b, const char *s) { buf_put(b, s, strlen(s)); }
static void buf_free(buf *b) {
    free(b->data);
    *b = (buf){0};
}

/* ---- helpers around the API ---------------------------------------------------------------- */
/* A load that must fail with `code`: no texture, nothing left allocated, peak heap below
 * max_peak bytes, done in under 2 s; the message must contain `needle` (when given). */
#define EXPECT_LOAD_FAIL(call, code, needle, max_peak) expect_load_fail((call), code, needle, max_peak, #call, __LINE__)
static hl_texture *g_tex; /* the out parameter of every load in EXPECT_LOAD_FAIL */
static double g_t0;
static size_t g_live0;
static void load_begin(void) {
    g_tex = NULL;
    g_live0 = g_live;
    g_peak = g_live;
    g_t0 = now_s();
}
static void expect_load_fail(hl_result r, hl_result code, const char *needle, size_t max_peak, const char *what,
                             int line) {
    double dt = now_s() - g_t0;
    size_t peak = g_peak - g_live0;
    hl_test_check(r == code, __FILE__, line, "%s -> %s, expected %s (%s)", what, hl_result_name(r),
                  hl_result_name(code), hl_last_error());
    hl_test_check(g_tex == NULL, __FILE__, line, "%s left a texture", what);
    hl_test_check(g_live == g_live0, __FILE__, line, "%s leaked %zd bytes", what, (ssize_t)(g_live - g_live0));
    hl_test_check(peak <= max_peak, __FILE__, line, "%s allocated %zu bytes at its peak (bound %zu)", what, peak,
                  max_peak);
    hl_test_check(dt < 2.0, __FILE__, line, "%s took %.2f s", what, dt);
    if (needle)
        hl_test_check(strstr(hl_last_error(), needle) != NULL, __FILE__, line, "%s: message \"%s\" lacks \"%s\"", what,
                      hl_last_error(), needle);
    hl_texture_release(g_tex);
}

static const char *data_dir(void) {
    static char dir[512];
    const char *f = __FILE__; /* absolute under CMake */
    const char *slash = strrchr(f, '/');
    snprintf(dir, sizeof dir, "%.*s/data/img", slash ? (int)(slash - f) : 1, slash ? f : ".");
    return dir;
}

static bool read_whole(const char *path, buf *out) {
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    uint8_t tmp[4096];
    size_t n;
    while ((n = fread(tmp, 1, sizeof tmp, f)) > 0) buf_put(out, tmp, n);
    fclose(f);
    return out->size > 0;
}

static void check_rgba(const hl_texture *t, uint32_t w, uint32_t h, const uint8_t *want, int tol, const char *what) {
    const hl_texture_info *info = hl_texture_get_info(t);
    HL_CHECK_MSG(info && info->width == w && info->height == h, "%s: size %ux%u, expected %ux%u", what,
                 info ? info->width : 0, info ? info->height : 0, w, h);
    if (!info || info->width != w || info->height != h) return;
    const uint8_t *px = hl_texture_pixels(t);
    int worst = 0;
    size_t at = 0;
    for (size_t i = 0; i < (size_t)w * h * 4; i++) {
        int d = abs((int)px[i] - (int)want[i]);
        if (d > worst) worst = d, at = i;
    }
    HL_CHECK_MSG(worst <= tol, "%s: pixel %zu channel %zu is %d, expected %d (+-%d)", what, at / 4, at % 4, px[at],
                 want[at], tol);
}

/* ---- 1. the reproduction files: right code, fast, bounded memory, nothing leaked ---------- */
static void test_repro_files(void) {
    static const struct {
        const char *name;
        hl_result code;
        const char *needle;
    } cases[] = {
        {"bmp_negheight_min.bmp", HL_ERR_UNSUPPORTED, "BMP is not supported"},
        {"crash_huffman.jpg", HL_ERR_PARSE, "corrupt JPEG"},
        {"gif_16384_tiny.gif", HL_ERR_UNSUPPORTED, "GIF is not supported: PNG, JPEG, HDR"},
        {"ok_prog_sof_w16385.jpg", HL_ERR_VALIDATION, "16385x16000"},
        {"ok_sof_16384sq.jpg", HL_ERR_VALIDATION, "HL_TEXTURE_MAX_DIMENSION (8192)"},
        {"pnm_16384_nodata.ppm", HL_ERR_UNSUPPORTED, "PNM"},
        {"pnm_16bit.ppm", HL_ERR_UNSUPPORTED, "PNM"},
        {"psd_16384_nodata.psd", HL_ERR_UNSUPPORTED, "PSD"},
    };
    long rss0 = max_rss_kb();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[700];
        snprintf(path, sizeof path, "%s/%s", data_dir(), cases[i].name);
        load_begin();
        EXPECT_LOAD_FAIL(hl_texture_load_file(path, NULL, &g_tex), cases[i].code, cases[i].needle, 64 * 1024);
        buf b = {0};
        HL_CHECK_MSG(read_whole(path, &b), "cannot read %s", path);
        load_begin();
        EXPECT_LOAD_FAIL(hl_texture_load_memory(b.data, b.size, NULL, &g_tex), cases[i].code, cases[i].needle,
                         64 * 1024);
        buf_free(&b);
    }
    /* libjpeg allocates outside the hook: the process's peak RSS must not have grown either */
    long grown = max_rss_kb() - rss0;
    HL_CHECK_MSG(grown < 32 * 1024, "peak RSS grew by %ld KB over the hostile files", grown);
}

/* ---- 2. PNG through libpng ------------------------------------------------------------------ */
typedef struct png_case {
    const char *name;
    uint32_t w, h;
    int color, depth, interlace;
    const uint8_t *samples; /* packed rows as PNG stores them */
    size_t stride;
    const png_color *palette;
    int palette_count;
    const uint8_t *trns;
    int trns_count;
    const png_color_16 *trns_color;
    bool metadata; /* add zTXt and gAMA chunks */
} png_case;

static png_case pc(const char *name, uint32_t w, uint32_t h, int color, int depth, int interlace,
                   const uint8_t *samples, size_t stride) {
    png_case c = {.name = name, .w = w, .h = h, .color = color, .depth = depth, .interlace = interlace};
    c.samples = samples;
    c.stride = stride;
    return c;
}

static void png_to_buf(png_structp png, png_bytep d, size_t n) { buf_put(png_get_io_ptr(png), d, n); }
static void png_no_flush(png_structp png) { (void)png; }

static bool encode_png(png_case cv, buf *out) {
    const png_case *c = &cv;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        return false;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return false;
    }
    png_set_write_fn(png, out, png_to_buf, png_no_flush);
    png_set_IHDR(png, info, c->w, c->h, c->depth, c->color, c->interlace, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    if (c->palette) png_set_PLTE(png, info, c->palette, c->palette_count);
    if (c->trns || c->trns_color) png_set_tRNS(png, info, c->trns, c->trns_count, c->trns_color);
    if (c->metadata) { /* chunks the decoder skips or ignores: the pixels stay as stored */
        png_text text = {.compression = PNG_TEXT_COMPRESSION_zTXt, .key = "Comment", .text = "made by a test"};
        png_set_text(png, info, &text, 1);
        png_set_gAMA(png, info, 1.0 / 1.8);
    }
    png_write_info(png, info);
    int passes = png_set_interlace_handling(png);
    for (int p = 0; p < passes; p++)
        for (uint32_t y = 0; y < c->h; y++) png_write_row(png, c->samples + y * c->stride);
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    return true;
}

static void check_png(png_case cv, const uint8_t *want) {
    const png_case *c = &cv;
    buf b = {0};
    HL_CHECK_MSG(encode_png(cv, &b), "%s: libpng could not write it", c->name);
    hl_texture *t = NULL;
    HL_CHECK_OK(hl_texture_load_memory(b.data, b.size, NULL, &t));
    if (t) check_rgba(t, c->w, c->h, want, 0, c->name);
    hl_texture_release(t);
    buf_free(&b);
}

static void test_png(void) {
    /* 8-bit RGB, 3x2 */
    static const uint8_t rgb[] = {10, 20, 30, 40, 50, 60, 70, 80, 90, 200, 201, 202, 0, 0, 0, 255, 255, 255};
    static const uint8_t rgb_want[] = {10,  20,  30,  255, 40, 50, 60, 255, 70,  80,  90,  255,
                                       200, 201, 202, 255, 0,  0,  0,  255, 255, 255, 255, 255};
    check_png(pc("rgb8", 3, 2, PNG_COLOR_TYPE_RGB, 8, PNG_INTERLACE_NONE, rgb, 9), rgb_want);
    /* 8-bit RGBA */
    static const uint8_t rgba[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    check_png(pc("rgba8", 2, 2, PNG_COLOR_TYPE_RGB_ALPHA, 8, PNG_INTERLACE_NONE, rgba, 8), rgba);
    /* 8-bit grey and grey + alpha */
    static const uint8_t grey[] = {0, 100, 255, 7};
    static const uint8_t grey_want[] = {0, 0, 0, 255, 100, 100, 100, 255, 255, 255, 255, 255, 7, 7, 7, 255};
    check_png(pc("grey8", 2, 2, PNG_COLOR_TYPE_GRAY, 8, PNG_INTERLACE_NONE, grey, 2), grey_want);
    static const uint8_t ga[] = {50, 60, 70, 80};
    static const uint8_t ga_want[] = {50, 50, 50, 60, 70, 70, 70, 80};
    check_png(pc("grey_alpha8", 2, 1, PNG_COLOR_TYPE_GRAY_ALPHA, 8, PNG_INTERLACE_NONE, ga, 4), ga_want);
    /* 1-bit grey: 0 -> 0, 1 -> 255 */
    static const uint8_t bits[] = {0xa0}; /* 1 0 1 0 */
    static const uint8_t bits_want[] = {255, 255, 255, 255, 0, 0, 0, 255, 255, 255, 255, 255, 0, 0, 0, 255};
    check_png(pc("grey1", 4, 1, PNG_COLOR_TYPE_GRAY, 1, PNG_INTERLACE_NONE, bits, 1), bits_want);
    /* 2-bit palette with tRNS: index 1 half transparent, indices 3 2 1 0 */
    static const png_color pal[] = {{255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {9, 8, 7}};
    static const uint8_t pal_trns[] = {255, 128};
    static const uint8_t pal_px[] = {0xe4}; /* 11 10 01 00 */
    static const uint8_t pal_want[] = {9, 8, 7, 255, 0, 0, 255, 255, 0, 255, 0, 128, 255, 0, 0, 255};
    png_case c = pc("palette2_trns", 4, 1, PNG_COLOR_TYPE_PALETTE, 2, PNG_INTERLACE_NONE, pal_px, 1);
    c.palette = pal, c.palette_count = 4, c.trns = pal_trns, c.trns_count = 2;
    check_png(c, pal_want);
    /* 8-bit palette without tRNS */
    static const uint8_t pal8_px[] = {3, 0};
    static const uint8_t pal8_want[] = {9, 8, 7, 255, 255, 0, 0, 255};
    c = pc("palette8", 2, 1, PNG_COLOR_TYPE_PALETTE, 8, PNG_INTERLACE_NONE, pal8_px, 2);
    c.palette = pal, c.palette_count = 4;
    check_png(c, pal8_want);
    /* 16-bit RGB: each channel keeps its high byte (0x12ff -> 0x12, as stb_image did) */
    static const uint8_t rgb16[] = {0x12, 0xff, 0x34, 0x00, 0xff, 0xff, 0x00, 0x80, 0x80, 0x00, 0x7f, 0xff};
    static const uint8_t rgb16_want[] = {0x12, 0x34, 0xff, 255, 0x00, 0x80, 0x7f, 255};
    check_png(pc("rgb16", 2, 1, PNG_COLOR_TYPE_RGB, 16, PNG_INTERLACE_NONE, rgb16, 12), rgb16_want);
    /* 16-bit RGBA */
    static const uint8_t rgba16[] = {1, 2, 3, 4, 5, 6, 0xfe, 0xff};
    static const uint8_t rgba16_want[] = {1, 3, 5, 0xfe};
    check_png(pc("rgba16", 1, 1, PNG_COLOR_TYPE_RGB_ALPHA, 16, PNG_INTERLACE_NONE, rgba16, 8), rgba16_want);
    /* RGB with a tRNS colour: that colour becomes alpha 0 */
    static const png_color_16 key = {0, 40, 50, 60, 0};
    static const uint8_t keyed_want[] = {10, 20, 30, 255, 40, 50, 60, 0, 70, 80, 90, 255,
                                         200, 201, 202, 255, 0, 0, 0, 255, 255, 255, 255, 255};
    c = pc("rgb8_trns", 3, 2, PNG_COLOR_TYPE_RGB, 8, PNG_INTERLACE_NONE, rgb, 9);
    c.trns_color = &key;
    check_png(c, keyed_want);
    c = pc("rgb8_metadata", 3, 2, PNG_COLOR_TYPE_RGB, 8, PNG_INTERLACE_NONE, rgb, 9);
    c.metadata = true;
    check_png(c, rgb_want);
    /* Adam7 interlaced RGBA, 9x9 (every pass non-empty) */
    uint8_t il[9 * 9 * 4];
    for (int i = 0; i < 9 * 9 * 4; i++) il[i] = (uint8_t)(i * 7 + 3);
    check_png(pc("rgba8_adam7", 9, 9, PNG_COLOR_TYPE_RGB_ALPHA, 8, PNG_INTERLACE_ADAM7, il, 36), il);

    /* broken files */
    buf b = {0};
    HL_CHECK(encode_png(pc("rgb8", 3, 2, PNG_COLOR_TYPE_RGB, 8, PNG_INTERLACE_NONE, rgb, 9), &b));
    for (size_t cut = 8; cut < b.size - 12; cut += 7) { /* truncated anywhere before IEND */
        load_begin();
        EXPECT_LOAD_FAIL(hl_texture_load_memory(b.data, cut, NULL, &g_tex), HL_ERR_PARSE, "corrupt PNG", 256 * 1024);
    }
    b.data[23] ^= 1; /* IHDR height 2 -> 3: its CRC no longer matches */
    load_begin();
    EXPECT_LOAD_FAIL(hl_texture_load_memory(b.data, b.size, NULL, &g_tex), HL_ERR_PARSE, "CRC", 256 * 1024);
    b.data[23] ^= 1;
    /* IHDR sizes above the maximum: refused from the header, before libpng starts */
    uint8_t big[64];
    memcpy(big, b.data, sizeof big);
    big[16] = 0, big[17] = 0, big[18] = 0x40, big[19] = 0; /* width 16384 */
    load_begin();
    EXPECT_LOAD_FAIL(hl_texture_load_memory(big, sizeof big, NULL, &g_tex), HL_ERR_VALIDATION, "16384x2", 1024);
    big[16] = 0x7f, big[17] = 0xff, big[18] = 0xff, big[19] = 0xff;
    load_begin();
    EXPECT_LOAD_FAIL(hl_texture_load_memory(big, sizeof big, NULL, &g_tex), HL_ERR_VALIDATION, "2147483647x2", 1024);
    big[16] = 0, big[17] = 0, big[18] = 0x20, big[19] = 0; /* 8192x8192 within the maximum ... */
    big[20] = 0, big[21] = 0, big[22] = 0x20, big[23] = 0;
    hl_texture_desc small = {.decode_limit = 1u << 20}; /* ... but above a 1 MiB decode limit */
    load_begin();
    EXPECT_LOAD_FAIL(hl_texture_load_memory(big, sizeof big, &small, &g_tex), HL_ERR_VALIDATION, "decode limit",
                     1024);
    buf_free(&b);
}

/* ---- 3. JPEG through libjpeg-turbo ---------------------------------------------------------- */
static bool encode_jpeg(const uint8_t *px, int w, int h, int comps, J_COLOR_SPACE space, bool progressive,
                        buf *out) {
    struct jpeg_compress_struct c;
    struct jpeg_error_mgr err;
    c.err = jpeg_std_error(&err); /* our inputs are valid: the default handler never runs */
    jpeg_create_compress(&c);
    unsigned char *mem = NULL;
    unsigned long size = 0;
    jpeg_mem_dest(&c, &mem, &size);
    c.image_width = (JDIMENSION)w;
    c.image_height = (JDIMENSION)h;
    c.input_components = comps;
    c.in_color_space = space;
    jpeg_set_defaults(&c);
    jpeg_set_quality(&c, 100, TRUE);
    for (int i = 0; i < c.num_components; i++) c.comp_info[i].h_samp_factor = c.comp_info[i].v_samp_factor = 1;
    if (progressive) jpeg_simple_progression(&c);
    jpeg_start_compress(&c, TRUE);
    while (c.next_scanline < c.image_height) {
        JSAMPROW row = (JSAMPROW)(px + (size_t)c.next_scanline * w * comps);
        jpeg_write_scanlines(&c, &row, 1);
    }
    jpeg_finish_compress(&c);
    jpeg_destroy_compress(&c);
    buf_put(out, mem, size);
    free(mem);
    return size > 0;
}

/* 16x16 RGB in four flat 8x8 quadrants: flat blocks survive DCT exactly (colour conversion
 * rounding aside). */
static const uint8_t k_quad[4][3] = {{200, 30, 40}, {20, 180, 60}, {30, 40, 220}, {128, 128, 128}};
static void quad_image(uint8_t *rgb, uint8_t *want_rgba) {
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) {
            const uint8_t *q = k_quad[(y / 8) * 2 + x / 8];
            memcpy(rgb + (y * 16 + x) * 3, q, 3);
            memcpy(want_rgba + (y * 16 + x) * 4, q, 3);
            want_rgba[(y * 16 + x) * 4 + 3] = 255;
        }
}

static void test_jpeg(void) {
    uint8_t rgb[16 * 16 * 3], want[16 * 16 * 4];
    quad_image(rgb, want);
    buf base = {0}, prog = {0};
    HL_CHECK(encode_jpeg(rgb, 16, 16, 3, JCS_RGB, false, &base));
    HL_CHECK(encode_jpeg(rgb, 16, 16, 3, JCS_RGB, true, &prog));
    HL_CHECK(base.size > 4 && prog.size > 4 && memcmp(base.data, prog.data, prog.size < base.size ? prog.size : base.size));
    hl_texture *t = NULL;
    HL_CHECK_OK(hl_texture_load_memory(base.data, base.size, NULL, &t));
    if (t) check_rgba(t, 16, 16, want, 3, "baseline JPEG");
    hl_texture_release(t);
    t = NULL;
    HL_CHECK_OK(hl_texture_load_memory(prog.data, prog.size, NULL, &t));
    if (t) check_rgba(t, 16, 16, want, 3, "progressive JPEG");
    hl_texture_release(t);

    /* greyscale: RGB equal, alpha 255 */
    uint8_t grey[8 * 8], grey_want[8 * 8 * 4];
    for (int i = 0; i < 64; i++) {
        grey[i] = 77;
        grey_want[i * 4] = grey_want[i * 4 + 1] = grey_want[i * 4 + 2] = 77, grey_want[i * 4 + 3] = 255;
    }
    buf g = {0};
    HL_CHECK(encode_jpeg(grey, 8, 8, 1, JCS_GRAYSCALE, false, &g));
    t = NULL;
    HL_CHECK_OK(hl_texture_load_memory(g.data, g.size, NULL, &t));
    if (t) check_rgba(t, 8, 8, grey_want, 1, "greyscale JPEG");
    hl_texture_release(t);
    buf_free(&g);

    /* CMYK as Adobe writes it (inverted: 255 = no ink): colour = channel * K / 255 */
    uint8_t cmyk[8 * 8 * 4], cmyk_want[8 * 8 * 4];
    for (int i = 0; i < 64; i++) {
        const uint8_t v[4] = {255, 128, 0, 255};
        memcpy(cmyk + i * 4, v, 4);
        const uint8_t o[4] = {255, 128, 0, 255};
        memcpy(cmyk_want + i * 4, o, 4);
    }
    buf k = {0};
    HL_CHECK(encode_jpeg(cmyk, 8, 8, 4, JCS_CMYK, false, &k));
    t = NULL;
    HL_CHECK_OK(hl_texture_load_memory(k.data, k.size, NULL, &t));
    if (t) check_rgba(t, 8, 8, cmyk_want, 2, "CMYK JPEG");
    hl_texture_release(t);
    buf_free(&k);

    /* truncated anywhere: a parse error, never filler pixels */
    for (size_t cut = 3; cut < base.size - 2; cut += base.size / 23 + 1) {
        load_begin();
        EXPECT_LOAD_FAIL(hl_texture_load_memory(base.data, cut, NULL, &g_tex), HL_ERR_PARSE, "corrupt JPEG",
                         64 * 1024);
    }
    for (size_t cut = 3; cut < prog.size - 2; cut += prog.size / 23 + 1) {
        load_begin();
        EXPECT_LOAD_FAIL(hl_texture_load_memory(prog.data, cut, NULL, &g_tex), HL_ERR_PARSE, "corrupt JPEG",
                         64 * 1024);
    }
    /* the decode limit counts a progressive file's coefficients: 16x16 RGBA is 1024 bytes, the
     * coefficients of three 2x2-block components 3 * 4 * 128 = 1536 more */
    hl_texture_desc lim = {.decode_limit = 2000};
    t = NULL;
    HL_CHECK_OK(hl_texture_load_memory(base.data, base.size, &lim, &t));
    hl_texture_release(t);
    load_begin();
    EXPECT_LOAD_FAIL(hl_texture_load_memory(prog.data, prog.size, &lim, &g_tex), HL_ERR_VALIDATION, "decode limit",
                     4096); /* the decoder's state only */
    buf_free(&base);
    buf_free(&prog);
}

/* ---- 4. Radiance HDR --------------------------------------------------------------------------- */
/* stb_image's HDR-to-8-bit mapping, which texture.h documents. */
static uint8_t hdr_ldr(uint8_t m, uint8_t e) {
    if (!e) return 0;
    float v = (float)ldexp(1.0, e - 136) * m;
    float z = powf(v, 1.0f / 2.2f) * 255.0f + 0.5f;
    return (uint8_t)(z > 255 ? 255 : z < 0 ? 0 : z);
}

static void hdr_header(buf *b, uint32_t w, uint32_t h) {
    char line[64];
    buf_str(b, "#?RADIANCE\n# made by test_scene_texture\nFORMAT=32-bit_rle_rgbe\nEXPOSURE=1.0\n\n");
    snprintf(line, sizeof line, "-Y %u +X %u\n", h, w);
    buf_str(b, line);
}

static void test_hdr(void) {
    /* flat (narrower than 8): 2x2 */
    static const uint8_t flat[4][4] = {{128, 64, 32, 129}, {255, 255, 255, 140}, {0, 0, 0, 0}, {10, 200, 90, 128}};
    uint8_t want[4 * 4];
    buf b = {0};
    hdr_header(&b, 2, 2);
    for (int i = 0; i < 4; i++) {
        buf_put(&b, flat[i], 4);
        for (int c = 0; c < 3; c++) want[i * 4 + c] = hdr_ldr(flat[i][c], flat[i][3]);
        want[i * 4 + 3] = 255;
    }
    HL_CHECK_EQ(want[0], 255); /* 1.0 */
    HL_CHECK_EQ(want[1], 186); /* 0.5^(1/2.2) * 255 */
    HL_CHECK_EQ(want[2], 136);
    hl_texture *t = NULL;
    HL_CHECK_OK(hl_texture_load_memory(b.data, b.size, NULL, &t));
    if (t) check_rgba(t, 2, 2, want, 0, "flat HDR");
    hl_texture_release(t);
    buf_free(&b);

    /* run-length encoded, 8x2: per scanline R a run, G a copy, B a run + a copy, E a run */
    uint8_t rle_want[8 * 2 * 4];
    hdr_header(&b, 8, 2);
    for (uint8_t y = 0; y < 2; y++) {
        const uint8_t head[4] = {2, 2, 0, 8};
        buf_put(&b, head, 4);
        uint8_t r_run[2] = {128 + 8, (uint8_t)(100 + y)};
        buf_put(&b, r_run, 2);
        uint8_t g_copy[9] = {8, 0, 16, 32, 48, 64, 80, 96, 112};
        buf_put(&b, g_copy, 9);
        uint8_t b_mix[7] = {128 + 4, 200, 4, 1, 2, 3, 4};
        buf_put(&b, b_mix, 7);
        uint8_t e_run[2] = {128 + 8, 129};
        buf_put(&b, e_run, 2);
        for (int x = 0; x < 8; x++) {
            uint8_t *p = rle_want + (y * 8 + x) * 4;
            p[0] = hdr_ldr((uint8_t)(100 + y), 129);
            p[1] = hdr_ldr(g_copy[1 + x], 129);
            p[2] = hdr_ldr(x < 4 ? 200 : b_mix[3 + x - 4], 129);
            p[3] = 255;
        }
    }
    t = NULL;
    HL_CHECK_OK(hl_texture_load_memory(b.data, b.size, NULL, &t));
    if (t) check_rgba(t, 8, 2, rle_want, 0, "run-length HDR");
    hl_texture_release(t);

    /* truncated run-length data: stb_image 2.27 alone loops forever here (CVE-2021-42715) */
    for (size_t cut = b.size - 1; cut > b.size - 40; cut -= 3) {
        load_begin();
        EXPECT_LOAD_FAIL(hl_texture_load_memory(b.data, cut, NULL, &g_tex), HL_ERR_PARSE, "corrupt HDR", 64 * 1024);
    }
    /* an empty copy run in the middle of the data */
    buf z = {0};
    hdr_header(&z, 8, 1);
    const uint8_t zero[] = {2, 2, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    buf_put(&z, zero, sizeof zero);
    load_begin();
    EXPECT_LOAD_FAIL(hl_texture_load_memory(z.data, z.size, NULL, &g_tex), HL_ERR_PARSE, "empty run", 64 * 1024);
    buf_free(&z);
    buf_free(&b);

    /* header problems */
    static const struct {
        const char *text;
        hl_result code;
        const char *needle;
    } bad[] = {
        {"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 16384 +X 16384\n", HL_ERR_VALIDATION, "16384x16384"},
        {"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 6000 +X 6000\n", HL_ERR_VALIDATION, "decode limit"},
        {"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 99999999999999999999 +X 4\n", HL_ERR_VALIDATION, "4294967295"},
        {"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 0 +X 4\n", HL_ERR_PARSE, "size 4x0"},
        {"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n+Y 4 +X 4\n", HL_ERR_UNSUPPORTED, "resolution"},
        {"#?RADIANCE\nFORMAT=32-bit_rle_xyze\n\n-Y 4 +X 4\n", HL_ERR_UNSUPPORTED, "xyze"},
        {"#?RADIANCE\n\n-Y 4 +X 4\n", HL_ERR_PARSE, "FORMAT"},
        {"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n", HL_ERR_PARSE, "no end"},
        {"#?RADIANCE-ish\n", HL_ERR_PARSE, "first line"},
        {"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 4 +X 4\n\x01\x02", HL_ERR_PARSE, "truncated"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        load_begin();
        EXPECT_LOAD_FAIL(hl_texture_load_memory(bad[i].text, strlen(bad[i].text), NULL, &g_tex), bad[i].code,
                         bad[i].needle, 64 * 1024);
    }
}

/* ---- 5. formats are recognised by their bytes; junk; desc rules of the loaders -------------- */
static void test_sniffing(void) {
    static const struct {
        const char *bytes;
        size_t size;
        const char *name;
    } other[] = {
        {"GIF87a\x01\x00\x01\x00", 10, "GIF"},
        {"BM\x36\0\0\0", 6, "BMP"},
        {"RIFF\x10\0\0\0WEBPVP8 ", 16, "WebP"},
        {"II*\0\x08\0\0\0", 8, "TIFF"},
        {"qoif\0\0\0\x01\0\0\0\x01\x04\0", 14, "QOI"},
        {"DDS \x7c\0\0\0", 8, "DDS"},
        {"\xabKTX 20\xbb\r\n\x1a\n", 12, "KTX2"},
        {"\x76\x2f\x31\x01\x02\0\0\0", 8, "OpenEXR"},
        {"\0\0\0\x1c" "ftypavif", 12, "AVIF"},
        {"P5\n1 1\n255\n\0", 12, "PNM"},
        {"8BPS\0\x01", 6, "PSD"},
    };
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
        char needle[64];
        snprintf(needle, sizeof needle, "%s is not supported", other[i].name);
        load_begin();
        EXPECT_LOAD_FAIL(hl_texture_load_memory(other[i].bytes, other[i].size, NULL, &g_tex), HL_ERR_UNSUPPORTED,
                         needle, 1024);
    }
    const char junk[] = "this is not an image at all";
    load_begin();
    EXPECT_LOAD_FAIL(hl_texture_load_memory(junk, sizeof junk, NULL, &g_tex), HL_ERR_PARSE, "known format", 1024);
    static const uint8_t one = 0x89;
    load_begin();
    EXPECT_LOAD_FAIL(hl_texture_load_memory(&one, 1, NULL, &g_tex), HL_ERR_PARSE, NULL, 1024);

    /* the loaders take settings only */
    buf b = {0};
    static const uint8_t px[] = {1, 2, 3, 4};
    HL_CHECK(encode_png(pc("rgba8", 1, 1, PNG_COLOR_TYPE_RGB_ALPHA, 8, PNG_INTERLACE_NONE, px, 4), &b));
    load_begin();
    EXPECT_LOAD_FAIL(hl_texture_load_memory(b.data, b.size, &(hl_texture_desc){.pixels_size = 4}, &g_tex),
                     HL_ERR_VALIDATION, "pixels_size", 1024);
    load_begin();
    EXPECT_LOAD_FAIL(hl_texture_load_memory(b.data, b.size, &(hl_texture_desc){.mipmaps = (hl_mipmaps)7}, &g_tex),
                     HL_ERR_VALIDATION, "mipmaps", 1024);
    hl_texture *t = NULL;
    HL_CHECK_OK(hl_texture_load_memory(
        b.data, b.size, &(hl_texture_desc){.label = "tiny", .color_space = HL_COLOR_SPACE_LINEAR}, &t));
    if (t) {
        check_rgba(t, 1, 1, px, 0, "1x1 PNG");
        HL_CHECK(strcmp(hl_texture_label(t), "tiny") == 0);
        HL_CHECK_EQ(hl_texture_get_info(t)->color_space, HL_COLOR_SPACE_LINEAR);
    }
    hl_texture_release(t);
    buf_free(&b);
}

/* ---- 6. files: one path with memory; every failure HL_ERR_IO naming path and reason --------- */
static void test_files(void) {
    char dir[128], path[192], jpg_named[192], empty[192];
    snprintf(dir, sizeof dir, "/tmp/hl_test_scene_texture_%d", (int)getpid());
    HL_CHECK(mkdir(dir, 0700) == 0);
    snprintf(path, sizeof path, "%s/a.png", dir);
    snprintf(jpg_named, sizeof jpg_named, "%s/really_a_png.jpg", dir);
    snprintf(empty, sizeof empty, "%s/empty.png", dir);

    uint8_t il[5 * 3 * 4];
    for (int i = 0; i < (int)sizeof il; i++) il[i] = (uint8_t)(i * 11);
    buf b = {0};
    HL_CHECK(encode_png(pc("rgba8", 5, 3, PNG_COLOR_TYPE_RGB_ALPHA, 8, PNG_INTERLACE_NONE, il, 20), &b));
    FILE *f = fopen(path, "wb");
    HL_CHECK(f && fwrite(b.data, 1, b.size, f) == b.size);
    if (f) fclose(f);
    f = fopen(jpg_named, "wb");
    HL_CHECK(f && fwrite(b.data, 1, b.size, f) == b.size);
    if (f) fclose(f);
    f = fopen(empty, "wb");
    if (f) fclose(f);

    hl_texture *t = NULL;
    HL_CHECK_OK(hl_texture_load_file(path, NULL, &t));
    if (t) check_rgba(t, 5, 3, il, 0, "PNG file");
    hl_texture_release(t);
    t = NULL;
    HL_CHECK_OK(hl_texture_load_file(jpg_named, NULL, &t)); /* the bytes decide, not the name */
    if (t) check_rgba(t, 5, 3, il, 0, "PNG named .jpg");
    hl_texture_release(t);

    load_begin();
    EXPECT_LOAD_FAIL(hl_texture_load_file(dir, NULL, &g_tex), HL_ERR_IO, strerror(EISDIR), 1024);
    HL_CHECK(strstr(hl_last_error(), dir) != NULL);
    load_begin();
    EXPECT_LOAD_FAIL(hl_texture_load_file("/", NULL, &g_tex), HL_ERR_IO, strerror(EISDIR), 1024);
    load_begin();
    EXPECT_LOAD_FAIL(hl_texture_load_file(empty, NULL, &g_tex), HL_ERR_IO, "empty", 1024);
    load_begin();
    EXPECT_LOAD_FAIL(hl_texture_load_file("/dev/null", NULL, &g_tex), HL_ERR_IO, "not a regular file", 1024);
    load_begin();
    EXPECT_LOAD_FAIL(hl_texture_load_file("/dev/zero", NULL, &g_tex), HL_ERR_IO, "not a regular file", 1024);
    char fifo[256];
    snprintf(fifo, sizeof fifo, "%s/fifo.png", dir);
    HL_CHECK(mkfifo(fifo, 0600) == 0);
    load_begin(); /* no writer: opening must not wait for one */
    EXPECT_LOAD_FAIL(hl_texture_load_file(fifo, NULL, &g_tex), HL_ERR_IO, "not a regular file", 1024);
    unlink(fifo);
    char missing[256];
    snprintf(missing, sizeof missing, "%s/missing.png", dir);
    load_begin();
    EXPECT_LOAD_FAIL(hl_texture_load_file(missing, NULL, &g_tex), HL_ERR_IO, strerror(ENOENT), 1024);
    HL_CHECK(strstr(hl_last_error(), missing) != NULL);
    /* longer than the decode limit: refused before reading */
    load_begin();
    EXPECT_LOAD_FAIL(hl_texture_load_file(path, &(hl_texture_desc){.decode_limit = 16}, &g_tex), HL_ERR_IO,
                     "decode limit", 1024);
    if (geteuid() != 0) { /* root reads anything */
        HL_CHECK(chmod(path, 0) == 0);
        load_begin();
        EXPECT_LOAD_FAIL(hl_texture_load_file(path, NULL, &g_tex), HL_ERR_IO, strerror(EACCES), 1024);
    }
    unlink(path);
    unlink(jpg_named);
    unlink(empty);
    rmdir(dir);
    buf_free(&b);
}

/* ---- 7. creation and set_pixels: sizes and caller buffers ----------------------------------- */
static void test_create_limits(void) {
    uint8_t px16[16] = {0}, px64[64], px100[100];
    for (int i = 0; i < 64; i++) px64[i] = (uint8_t)i;
    memcpy(px100, px64, 64);
    memset(px100 + 64, 0xee, 36);
    hl_texture *t = NULL;
    /* a 4x4 texture from a 16-byte buffer: refused, not read past its end */
    HL_CHECK_RESULT(hl_texture_create(&(hl_texture_desc){.width = 4, .height = 4, .pixels = px16, .pixels_size = 16}, &t),
                    HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "pixels_size is 16") && strstr(hl_last_error(), "need 64"));
    HL_CHECK_RESULT(hl_texture_create(&(hl_texture_desc){.width = 4, .height = 4, .pixels = px16}, &t),
                    HL_ERR_VALIDATION); /* size 0 with pixels */
    HL_CHECK_RESULT(hl_texture_create(&(hl_texture_desc){.width = 4, .height = 4, .pixels_size = 64}, &t),
                    HL_ERR_VALIDATION); /* size without pixels */
    HL_CHECK(t == NULL);
    HL_CHECK_OK(hl_texture_create(&(hl_texture_desc){.width = 4, .height = 4, .pixels = px100, .pixels_size = 100}, &t));
    if (t) HL_CHECK(memcmp(hl_texture_pixels(t), px64, 64) == 0); /* only 64 bytes read */
    hl_texture_release(t);
    t = NULL;

    /* the engine maximum, the same on every backend */
    HL_CHECK_EQ(HL_TEXTURE_MAX_DIMENSION, 8192);
    const uint32_t sizes[][2] = {{8193, 1}, {1, 8193}, {9000, 4}, {16384, 1}, {UINT32_MAX, UINT32_MAX}, {0, 1}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        HL_CHECK_RESULT(hl_texture_create(&(hl_texture_desc){.width = sizes[i][0], .height = sizes[i][1]}, &t),
                        HL_ERR_VALIDATION);
        char want[64];
        snprintf(want, sizeof want, "size %ux%u", sizes[i][0], sizes[i][1]);
        HL_CHECK_MSG(strstr(hl_last_error(), want) && strstr(hl_last_error(), "8192"), "message: %s", hl_last_error());
    }
    HL_CHECK(t == NULL);
    HL_CHECK_OK(hl_texture_create(&(hl_texture_desc){.width = 8192, .height = 1}, &t));
    hl_texture_release(t);
    t = NULL;
    HL_CHECK_RESULT(hl_texture_create(&(hl_texture_desc){.width = 1, .height = 1, .decode_limit = 5}, &t),
                    HL_ERR_VALIDATION);

    /* set_pixels: the same rules; a refused call changes nothing */
    HL_CHECK_OK(hl_texture_create(&(hl_texture_desc){.width = 2, .height = 2, .pixels = px16, .pixels_size = 16}, &t));
    if (!t) return;
    uint64_t rev = hl_texture_revision(t);
    HL_CHECK_RESULT(hl_texture_set_pixels(t, 4, 4, px16, sizeof px16), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "pixels_size is 16"));
    HL_CHECK_RESULT(hl_texture_set_pixels(t, 8193, 1, px100, sizeof px100), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "8192"));
    HL_CHECK_EQ(hl_texture_revision(t), rev);
    HL_CHECK_EQ(hl_texture_get_info(t)->width, 2);
    HL_CHECK_OK(hl_texture_set_pixels(t, 4, 4, px100, sizeof px100));
    HL_CHECK_EQ(hl_texture_get_info(t)->width, 4);
    HL_CHECK(hl_texture_revision(t) > rev);
    HL_CHECK(memcmp(hl_texture_pixels(t), px64, 64) == 0);
    /* revisions are unique in the process: a texture made after another, even at its freed
       address, never repeats one of its revisions (renderer caches compare them) */
    uint64_t last = hl_texture_revision(t), last_sampler = hl_texture_sampler_revision(t);
    hl_texture_release(t);
    for (int i = 0; i < 8; i++) {
        hl_texture *u = NULL;
        HL_CHECK_OK(hl_texture_create(&(hl_texture_desc){.width = 2, .height = 2, .pixels = px16, .pixels_size = 16}, &u));
        if (!u) return;
        HL_CHECK(hl_texture_revision(u) > last && hl_texture_sampler_revision(u) > last_sampler);
        HL_CHECK(hl_texture_revision(u) != hl_texture_sampler_revision(u));
        last = hl_texture_revision(u) > hl_texture_sampler_revision(u) ? hl_texture_revision(u) : hl_texture_sampler_revision(u);
        last_sampler = last;
        hl_texture_release(u);
    }
}

/* ---- 8. out of memory at every allocation: an error, nothing leaked ------------------------- */
static void oom_sweep(const char *what, const void *data, size_t size) {
    int failures = 0;
    for (long n = 0; n < 200; n++) {
        size_t live0 = g_live;
        hl_texture *t = NULL;
        g_allocs = 0;
        g_fail_at = n;
        hl_result r = hl_texture_load_memory(data, size, &(hl_texture_desc){.label = "oom"}, &t);
        g_fail_at = -1;
        if (r == HL_OK) {
            HL_CHECK_MSG(t != NULL, "%s: OK without a texture", what);
            hl_texture_release(t);
            HL_CHECK_MSG(failures == n, "%s: %d failures before success at allocation %ld", what, failures, n);
            HL_CHECK_MSG(g_live == live0, "%s: %zd bytes left after release", what, (ssize_t)(g_live - live0));
            return;
        }
        failures++;
        HL_CHECK_MSG(r == HL_ERR_OUT_OF_MEMORY, "%s: allocation %ld failing gave %s (%s)", what, n, hl_result_name(r),
                     hl_last_error());
        HL_CHECK_MSG(t == NULL && g_live == live0, "%s: allocation %ld failing leaked %zd bytes", what, n,
                     (ssize_t)(g_live - live0));
    }
    HL_CHECK_MSG(0, "%s: still failing after 200 allocations", what);
}

static void test_out_of_memory(void) {
    static const uint8_t px[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    buf png = {0}, jpg = {0}, hdr = {0};
    HL_CHECK(encode_png(pc("rgba8", 2, 2, PNG_COLOR_TYPE_RGB_ALPHA, 8, PNG_INTERLACE_ADAM7, px, 8), &png));
    oom_sweep("PNG", png.data, png.size);
    uint8_t rgb[16 * 16 * 3], want[16 * 16 * 4];
    quad_image(rgb, want);
    HL_CHECK(encode_jpeg(rgb, 16, 16, 3, JCS_RGB, true, &jpg));
    oom_sweep("JPEG", jpg.data, jpg.size);
    hdr_header(&hdr, 2, 1);
    buf_put(&hdr, "\x80\x40\x20\x81\x10\x20\x30\x80", 8);
    oom_sweep("HDR", hdr.data, hdr.size);
    buf_free(&png);
    buf_free(&jpg);
    buf_free(&hdr);
}

int main(void) {
    hl_set_allocator(&(hl_allocator){count_alloc, count_realloc, count_free, NULL});
    test_repro_files(); /* first: its RSS check needs the process's peak still low */
    test_png();
    test_jpeg();
    test_hdr();
    test_sniffing();
    test_files();
    test_create_limits();
    test_out_of_memory();
    HL_CHECK_MSG(g_live == 0, "%zu bytes still allocated at exit", g_live);
    return hl_test_finish();
}
