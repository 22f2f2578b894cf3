/* The RHI demo scene rendered on webgpu and on gles3: every channel of every pixel within
 * 1 of the other backend (llvmpipe and lavapipe share one rasterizer; the +-1 covers
 * rounding differences such as 0.5 -> 127/128). Writes both images to the build folder. */
#include <stdlib.h>

#include "hl_rhi_demo.h"
#include "hl_test.h"

enum { W = 256, H = 256 };

static bool render(hl_rhi_backend b, uint8_t *img, uint32_t samples) {
    hl_rhi_device *dev = hl_test_device(b);
    if (!dev) return false;
    hl_rhi_demo_desc d = {W, H, samples};
    hl_result r = hl_rhi_demo_render(dev, &d, img, NULL);
    HL_CHECK_OK(r);
    hl_rhi_device_destroy(dev);
    return r == HL_OK;
}

int main(void) {
    uint8_t *a = malloc(W * H * 4), *b = malloc(W * H * 4);
    const uint32_t sample_counts[2] = {1, 4};
    for (int s = 0; s < 2; s++) {
        if (!render(HL_RHI_BACKEND_WEBGPU, a, sample_counts[s]) || !render(HL_RHI_BACKEND_GLES3, b, sample_counts[s]))
            break;
        char name[64];
        snprintf(name, sizeof(name), "cross_webgpu_%ux.png", sample_counts[s]);
        hl_test_write_png(name, W, H, a);
        snprintf(name, sizeof(name), "cross_gles3_%ux.png", sample_counts[s]);
        hl_test_write_png(name, W, H, b);
        int maxd = 0, over = 0;
        double sum = 0;
        for (int i = 0; i < W * H * 4; i++) {
            int d = abs((int)a[i] - (int)b[i]);
            sum += d;
            if (d > maxd) maxd = d;
            if (d > 1) over++;
        }
        printf("%ux MSAA: max difference %d, mean %.4f, channels over 1: %d\n", sample_counts[s], maxd,
               sum / (W * H * 4), over);
        HL_CHECK_MSG(maxd <= 1, "%ux MSAA: max channel difference %d (> 1) in %d channels", sample_counts[s], maxd, over);
        /* the scene is not blank: the centre is the checker board, the corner the background */
        const uint8_t *c = a + ((H / 2) * W + W / 2) * 4;
        HL_CHECK(c[0] > 30 || c[1] > 30 || c[2] > 30);
    }
    free(a);
    free(b);
    return hl_test_finish();
}
