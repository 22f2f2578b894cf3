/* Renderer cross-backend test: the built-in demo scene (src/demo) rendered at 320 x 180 with
 * 4x MSAA (the `hilo3d render` default) on webgpu and on gles3, compared pixel by pixel.
 *
 * Measured (lavapipe vs llvmpipe, Mesa 25): see the printed "mean" / "p99" lines. Bounds held
 * (issue 4 §4): the mean absolute difference of every channel (R, G, B separately) <= 1/255,
 * and the 99th percentile of the absolute per-channel differences <= 4/255. Alpha is 255 on
 * both. Both images are written as PNGs for inspection. */
#include <math.h>
#include <stdlib.h>

#include "hilo3d/renderer.h"
#include "hl_scene_demo.h"
#include "hl_test.h"

enum { W = 320, H = 180 };

static bool render_demo(hl_backend b, uint8_t *img) {
    hl_renderer_desc rd = {0};
    rd.backend = b;
    rd.width = W;
    rd.height = H;
    rd.sample_count = 4;
    hl_renderer *r = NULL;
    HL_CHECK_OK(hl_renderer_create(&rd, &r));
    if (!r) return false;
    hl_scene_demo demo;
    hl_result res = hl_scene_demo_create((float)W / (float)H, &demo);
    HL_CHECK_OK(res);
    if (!res) {
        HL_CHECK_OK(hl_renderer_render(r, demo.stage, demo.camera));
        const hl_render_stats *st = hl_renderer_stats(r);
        printf("%s: draws %u instances %u faces %llu passes %u shadow tiles %u\n", hl_backend_name(b), st->draws,
               st->instances, (unsigned long long)st->faces, st->passes, st->shadow_tiles);
        HL_CHECK_OK(hl_renderer_read_pixels(r, img, (size_t)W * H * 4));
        hl_scene_demo_destroy(&demo);
    }
    hl_renderer_destroy(r);
    return res == HL_OK;
}

int main(void) {
    static uint8_t a[W * H * 4], b[W * H * 4];
    if (!render_demo(HL_BACKEND_WEBGPU, a) || !render_demo(HL_BACKEND_GLES3, b)) return hl_test_finish();
    hl_test_write_png("test_render_demo_webgpu.png", W, H, a);
    hl_test_write_png("test_render_demo_gles3.png", W, H, b);
    uint64_t sum[4] = {0};
    uint32_t hist[256] = {0};
    uint32_t maxd = 0, differing = 0;
    for (uint32_t i = 0; i < W * H; i++) {
        bool diff = false;
        for (int k = 0; k < 4; k++) {
            uint32_t d = (uint32_t)abs(a[i * 4 + k] - b[i * 4 + k]);
            sum[k] += d;
            if (k < 3) hist[d]++;
            if (d > maxd) maxd = d;
            diff |= d != 0;
        }
        differing += diff;
    }
    uint32_t total = W * H * 3, acc = 0, p99 = 0;
    for (uint32_t d = 0; d < 256; d++) {
        acc += hist[d];
        if (acc >= (uint32_t)ceil(0.99 * total)) {
            p99 = d;
            break;
        }
    }
    double mean[4];
    for (int k = 0; k < 4; k++) mean[k] = (double)sum[k] / (double)(W * H);
    printf("mean abs diff per channel (x255): R %.4f G %.4f B %.4f A %.4f\n", mean[0], mean[1], mean[2], mean[3]);
    printf("p99 abs diff (x255): %u   max %u   pixels differing %u of %u\n", p99, maxd, differing, W * H);
    for (int k = 0; k < 4; k++) HL_CHECK_MSG(mean[k] <= 1.0, "channel %d mean %.4f/255 (bound 1/255)", k, mean[k]);
    HL_CHECK_MSG(p99 <= 4, "p99 %u/255 (bound 4/255)", p99);
    return hl_test_finish();
}
