/* Forward+ light culling (issue 9 §4.3): the forward-plus example of src/demo/hl_gpu_examples.h,
 * on one backend per run.
 *
 * webgpu: a floor and nine boxes lit by 256 point lights (finite radius: attenuation
 * (1 - d / r)^2, zero beyond). Each frame: (1) a depth prepass into an RGBA16F texture (the view
 * depth 1 / gl_FragCoord.w, through an override material) with its depth buffer; (2) a compute
 * pass tiles the image (16x16 pixels), reads each tile's depth range from that texture and keeps
 * the lights whose bounding box, projected, overlaps the tile on screen and in depth
 * (conservative); (3) the scene pass draws the meshes with a storage material looping over its
 * tile's list, read from group-3 storage (`Lights`, `Tiles`). The reference: the example's
 * brute_force mode, the same material over all 256 lights. Checked at 128x96 and 72x120 (and
 * 33x17, tiles cut by the edges): every pixel within 2/255 per channel of the reference (the
 * same lights summed in another order), the image lit over most of the frame, the tiles keeping
 * far fewer lights than 256 (read back). gles3: the example's renderer cannot be made (its
 * pipeline requires compute). */
#include <stdlib.h>
#include <string.h>

#include "hilo3d/compute.h"
#include "hilo3d/renderer.h"
#include "hilo3d/scene.h"
#include "hl_test_gpu.h"
#include "hl_test.h"
#include "hl_test_render.h"

enum { LIGHTS = 256, TILE = 16 };

typedef hl_test_gpu_example example;

static bool make(uint32_t w, uint32_t h, bool brute, example *e) {
    hl_gpu_example_desc ed = {HL_GPU_EXAMPLE_FORWARD_PLUS, LIGHTS, false, brute};
    return hl_test_gpu_example_make(&ed, hl_test_render_backend, w, h, e);
}

static void run(uint32_t w, uint32_t h) {
    example a, b;
    bool ok = make(w, h, false, &a);
    ok = make(w, h, true, &b) && ok;
    uint8_t *ia = malloc((size_t)w * h * 4), *ib = malloc((size_t)w * h * 4);
    uint32_t tiles = ((w + TILE - 1) / TILE) * ((h + TILE - 1) / TILE);
    uint64_t tbytes = 16 + (uint64_t)tiles * 256 * 4;
    uint32_t *t = malloc(tbytes);
    if (ok && ia && ib && t) {
        hl_result res = hl_renderer_render(a.r, a.stage, a.camera);
        HL_CHECK_MSG(res == HL_OK, "forward+: %s", hl_last_error());
        HL_CHECK_EQ(hl_renderer_stats(a.r)->passes, 3);
        res = hl_renderer_render(b.r, b.stage, b.camera);
        HL_CHECK_MSG(res == HL_OK, "brute force: %s", hl_last_error());
        HL_CHECK_OK(hl_renderer_read_pixels(a.r, ia, (size_t)w * h * 4));
        HL_CHECK_OK(hl_renderer_read_pixels(b.r, ib, (size_t)w * h * 4));
        int worst = 0;
        uint32_t lit = 0, at = 0;
        for (size_t i = 0; i < (size_t)w * h * 4; i++)
            if (abs(ia[i] - ib[i]) > worst) worst = abs(ia[i] - ib[i]), at = (uint32_t)i;
        for (size_t i = 0; i < (size_t)w * h; i++) lit += ib[i * 4] > 40 || ib[i * 4 + 1] > 40 || ib[i * 4 + 2] > 40;
        HL_CHECK_MSG(worst <= 2, "%ux%u: forward+ differs from brute force by %d/255 at (%u, %u)", w, h, worst,
                     at / 4 % w, at / 4 / w);
        HL_CHECK_MSG(lit > w * h / 3, "%ux%u: %u pixels lit", w, h, lit);
        HL_CHECK_OK(hl_storage_buffer_read(a.r, hl_gpu_example_buffer(a.ex, HL_GPU_EXAMPLE_VISIBLE), 0, tbytes));
        HL_CHECK_OK(hl_storage_buffer_read_wait(a.r, t, tbytes, 0));
        uint64_t sum = 0;
        uint32_t most = 0;
        for (uint32_t i = 0; i < tiles; i++) {
            uint32_t c = t[4 + i * 256];
            c = c == 0xFFFFFFFFu ? LIGHTS : c; /* overflowed: every light */
            sum += c;
            most = c > most ? c : most;
        }
        HL_CHECK_EQ(t[0], (w + TILE - 1) / TILE);
        HL_CHECK_MSG(sum < (uint64_t)tiles * LIGHTS / 2 && most < 255, "%ux%u: %.1f lights per tile on average, %u at most",
                     w, h, (double)sum / tiles, most);
        if (getenv("HL_VERBOSE"))
            fprintf(stderr, "%ux%u: %u tiles, %.1f lights per tile on average, %u at most, worst %d/255, %u lit\n", w, h,
                    tiles, (double)sum / tiles, most, worst, lit);
    }
    free(ia);
    free(ib);
    free(t);
    hl_test_gpu_example_release(&a);
    hl_test_gpu_example_release(&b);
}

static void test_gles3(void) {
    hl_gpu_example_desc ed = {HL_GPU_EXAMPLE_FORWARD_PLUS, 0, false, false};
    hl_gpu_example *ex = NULL;
    HL_CHECK_OK(hl_gpu_example_create(&ed, &ex));
    hl_renderer_desc rd = {0};
    rd.width = rd.height = 16;
    rd.backend = HL_BACKEND_GLES3;
    rd.pipeline = hl_gpu_example_factory(ex);
    hl_renderer *r = NULL;
    HL_CHECK_RESULT(hl_renderer_create(&rd, &r), HL_ERR_UNSUPPORTED);
    HL_CHECK(r == NULL && strstr(hl_last_error(), "requires compute") != NULL);
    hl_gpu_example_destroy(ex);
}

int main(int argc, char **argv) {
    if (backend_of(argc, argv) == HL_BACKEND_GLES3) {
        test_gles3();
        return hl_test_finish();
    }
    run(128, 96);
    run(72, 120);
    run(33, 17);
    return hl_test_finish();
}
