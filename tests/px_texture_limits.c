/* Textures at the engine's maximum size (HL_TEXTURE_MAX_DIMENSION) draw on every backend, and
 * larger ones are refused when created or resized, not by a frame that fails afterwards
 * (before, 9000x4 was accepted and every later frame failed on the device limit). */
#include <stdlib.h>
#include <string.h>

#include "hilo3d/hilo3d.h"
#include "hl_test_render.h"

enum { W = 64, H = 64 };

static const uint8_t *px(const uint8_t *img, int x, int y) { return img + ((size_t)y * W + x) * 4; }

/* n texels along one axis: the first half `a`, the second half `b` (RGBA8). */
static uint8_t *halves(uint32_t n, const uint8_t a[4], const uint8_t b[4]) {
    uint8_t *p = malloc((size_t)n * 4);
    for (uint32_t i = 0; p && i < n; i++) memcpy(p + (size_t)i * 4, i < n / 2 ? a : b, 4);
    return p;
}

static void draw(hl_renderer *r, hl_texture *tex, uint8_t *img) { draw_texture(r, tex, img, (size_t)W * H * 4); }

int main(int argc, char **argv) {
    backend_of(argc, argv);
    hl_renderer *r = make_renderer(W, H, 1);
    if (!r) return hl_test_finish();
    static const uint8_t red[4] = {255, 0, 0, 255}, green[4] = {0, 255, 0, 255}, blue[4] = {0, 0, 255, 255},
                         white[4] = {255, 255, 255, 255};
    static uint8_t img[W * H * 4];
    const uint32_t n = HL_TEXTURE_MAX_DIMENSION;

    /* n x 1, no mipmaps: left half red, right half green */
    uint8_t *row = halves(n, red, green);
    hl_texture *wide = NULL;
    HL_CHECK_OK(hl_texture_create(&(hl_texture_desc){.width = n,
                                                     .height = 1,
                                                     .pixels = row,
                                                     .pixels_size = (size_t)n * 4,
                                                     .mipmaps = HL_MIPMAPS_NONE,
                                                     .sampler = {.wrap_u = HL_WRAP_CLAMP,
                                                                 .wrap_v = HL_WRAP_CLAMP,
                                                                 .mag_filter = HL_FILTER_NEAREST,
                                                                 .min_filter = HL_FILTER_NEAREST}},
                                  &wide));
    if (wide) {
        draw(r, wide, img);
        HL_CHECK_PIXEL(px(img, 16, 32), 255, 0, 0, 255, 1);
        HL_CHECK_PIXEL(px(img, 48, 32), 0, 255, 0, 255, 1);
        /* resizing past the maximum is refused and leaves the texture drawable as it was */
        uint8_t *big = halves(n + 1, blue, blue);
        HL_CHECK_RESULT(hl_texture_set_pixels(wide, n + 1, 1, big, (size_t)(n + 1) * 4), HL_ERR_VALIDATION);
        free(big);
        draw(r, wide, img);
        HL_CHECK_PIXEL(px(img, 16, 32), 255, 0, 0, 255, 1);
        HL_CHECK_PIXEL(px(img, 48, 32), 0, 255, 0, 255, 1);
    }
    hl_texture_release(wide);
    free(row);

    /* 1 x n with the full mip chain (14 levels generated on upload): top blue, bottom white */
    uint8_t *col = halves(n, blue, white);
    hl_texture *tall = NULL;
    HL_CHECK_OK(hl_texture_create(
        &(hl_texture_desc){.width = 1, .height = n, .pixels = col, .pixels_size = (size_t)n * 4}, &tall));
    if (tall) {
        HL_CHECK_EQ(hl_texture_get_info(tall)->mip_levels, 14);
        draw(r, tall, img);
        HL_CHECK_PIXEL(px(img, 32, 12), 0, 0, 255, 255, 2);
        HL_CHECK_PIXEL(px(img, 32, 52), 255, 255, 255, 255, 2);
    }
    hl_texture_release(tall);
    free(col);

    /* above the maximum: refused at creation on every backend, the same code and message */
    hl_texture *t = NULL;
    HL_CHECK_RESULT(hl_texture_create(&(hl_texture_desc){.width = 9000, .height = 4}, &t), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "9000x4") && strstr(hl_last_error(), "8192"));
    HL_CHECK_RESULT(hl_texture_create(&(hl_texture_desc){.width = 1, .height = n + 1}, &t), HL_ERR_VALIDATION);
    HL_CHECK(t == NULL);
    hl_renderer_destroy(r);
    return hl_test_finish();
}
