/* A texture that changes size under a long-lived renderer draws as it does in a new renderer.
 *
 * Found by the randomized frames (seed 0x704000, frame 460, webgpu): the renderer made a
 * texture's sampler once per sampler revision, with a level-of-detail clamp for single-level
 * textures; new pixels of another size give a texture a mip chain without touching its sampler
 * settings, so the long-lived renderer kept sampling level 0 only (aliasing) where a new
 * renderer used the mips. Sequence here: 1x1 (one level) drawn, then a 256x256 checkerboard of
 * single texels, 200x200 (8 levels), minified 3.125:1 onto 64x64 pixels; and back to 1x1.
 * Checks: the long-lived renderer's image equals a new renderer's (+-2), and with mips the
 * checkerboard averages to grey (every pixel within 30 of the mid value). */
#include <stdlib.h>
#include <string.h>

#include "hilo3d/hilo3d.h"
#include "hl_test_render.h"

enum { W = 64, H = 64 };

static void draw(hl_renderer *r, hl_texture *tex, uint8_t *img) { draw_texture(r, tex, img, (size_t)W * H * 4); }

static int max_diff(const uint8_t *a, const uint8_t *b) {
    int m = 0;
    for (size_t i = 0; i < (size_t)W * H * 4; i++) {
        int d = abs(a[i] - b[i]);
        if (d > m) m = d;
    }
    return m;
}

int main(int argc, char **argv) {
    backend_of(argc, argv);
    hl_renderer *r = make_renderer(W, H, 1);
    if (!r) return hl_test_finish();
    static uint8_t mine[W * H * 4], fresh[W * H * 4];
    const uint8_t white[4] = {255, 255, 255, 255};
    hl_texture *t = NULL;
    HL_CHECK_OK(hl_texture_create(&(hl_texture_desc){.width = 1,
                                                  .height = 1,
                                                  .pixels = white,
                                                  .pixels_size = 4,
                                                  .color_space = HL_COLOR_SPACE_LINEAR},
                                  &t));
    if (t) {
        draw(r, t, mine);
        HL_CHECK_EQ(hl_texture_get_info(t)->mip_levels, 1);
        const uint32_t n = 200; /* 3.125 texels per pixel: level 0 alone aliases */
        uint8_t *checker = malloc((size_t)n * n * 4);
        for (uint32_t y = 0; checker && y < n; y++)
            for (uint32_t x = 0; x < n; x++) memset(checker + ((size_t)y * n + x) * 4, ((x ^ y) & 1) ? 255 : 0, 4);
        HL_CHECK_OK(hl_texture_set_pixels(t, n, n, checker, (size_t)n * n * 4));
        HL_CHECK_EQ(hl_texture_get_info(t)->mip_levels, 8);
        draw(r, t, mine);
        hl_renderer *r2 = make_renderer(W, H, 1);
        if (r2) {
            draw(r2, t, fresh);
            int d = max_diff(mine, fresh);
            HL_CHECK_MSG(d <= 2, "resized texture: long-lived vs new renderer max difference %d (<= 2)", d);
            int worst = 0;
            for (size_t i = 0; i < (size_t)W * H; i++) {
                int v = abs((int)mine[i * 4] - 188); /* linear 0.5 as sRGB */
                if (v > worst) worst = v;
            }
            HL_CHECK_MSG(worst <= 30, "checkerboard through its mips: worst pixel %d from grey (<= 30)", worst);
            /* and back to one level */
            HL_CHECK_OK(hl_texture_set_pixels(t, 1, 1, white, 4));
            draw(r, t, mine);
            draw(r2, t, fresh);
            HL_CHECK_PIXEL(mine + (32 * W + 32) * 4, 255, 255, 255, 255, 1);
            HL_CHECK_EQ(max_diff(mine, fresh), 0);
            hl_renderer_destroy(r2);
        }
        free(checker);
    }
    hl_texture_release(t);
    hl_renderer_destroy(r);
    return hl_test_finish();
}
