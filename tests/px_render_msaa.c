/* Renderer pixel test: 4x MSAA with resolve, on the renderer's output and on a render target.
 *
 * A white unlit square rotated 30 degrees about Z (edges not axis aligned) on black, 64 x 64.
 * A pixel is "blended" when every channel is strictly between 8 and 247 (between background
 * and object, away from the 0 / 255 ends that rounding could reach). Checks:
 *   - sample_count 4: at least 40 blended pixels along the ~150-pixel edge (a 4-sample
 *     pattern gives 1/4, 2/4, 3/4 coverage on most edge pixels); the centre is solid white
 *     and a corner solid black (+-1);
 *   - sample_count 1: no blended pixel at all (unlit colour, no filtering), same centre and
 *     corner;
 *   - a 4x MSAA render target (hl_render_target_desc.sample_count 4) rendered with the 1x
 *     renderer resolves the same way (>= 40 blended pixels, solid centre);
 *   - at an edge pixel blended with 4x, the 1x value is 0 or 255 (+-1). */
#include <math.h>
#include <stdlib.h>

#include "hilo3d/renderer.h"
#include "hl_test.h"
#include "hl_test_render.h"

enum { W = 64, H = 64 };

static bool blended(const uint8_t *p) {
    for (int k = 0; k < 3; k++)
        if (p[k] <= 8 || p[k] >= 247) return false;
    return true;
}

static int count_blended(const uint8_t *img, int *first) {
    int n = 0;
    for (int i = 0; i < W * H; i++)
        if (blended(img + i * 4)) {
            if (!n && first) *first = i;
            n++;
        }
    return n;
}

/* Renders the square; target NULL = the output. */
static void render(uint32_t samples, bool to_target, uint8_t *img) {
    hl_renderer *r = make_renderer(W, H, samples);
    if (!r) return;
    hl_stage *s = NULL;
    HL_CHECK_OK(hl_stage_create(&s));
    hl_stage_set_clear_color(s, (hl_color){0, 0, 0, 1});
    hl_camera *cam = front_camera(s);
    hl_geometry *g = plane(1, 1);
    hl_material *m = basic(1, 1, 1, 1);
    hl_mesh *mesh = add_mesh(s, g, m, (hl_vec3){0, 0, 0});
    hl_node_set_rotation(hl_mesh_node(mesh), hl_quat_from_axis_angle((hl_vec3){0, 0, 1}, 0.5235988f));
    if (to_target) {
        hl_render_target_desc td = {0};
        td.sample_count = 4;
        td.clear_color = (hl_color){0, 0, 0, 1};
        hl_render_target *t = NULL;
        HL_CHECK_OK(hl_render_target_create(r, &td, &t));
        if (t) {
            HL_CHECK_OK(hl_renderer_render_to_target(r, t, s, cam));
            HL_CHECK_OK(hl_render_target_read(r, t, 0, img, (size_t)W * H * 4));
            hl_render_target_destroy(r, t);
        }
    } else {
        HL_CHECK_OK(hl_renderer_render(r, s, cam));
        HL_CHECK_OK(hl_renderer_read_pixels(r, img, (size_t)W * H * 4));
    }
    hl_geometry_release(g);
    hl_material_release(m);
    hl_stage_destroy(s);
    hl_renderer_destroy(r);
}

int main(int argc, char **argv) {
    hl_test_render_backend = backend_of(argc, argv);
    static uint8_t ms[W * H * 4], ss[W * H * 4], tg[W * H * 4];
    render(4, false, ms);
    render(1, false, ss);
    render(1, true, tg);
    bool gl = hl_test_render_backend == HL_BACKEND_GLES3;
    hl_test_write_png(gl ? "px_render_msaa4_gles3.png" : "px_render_msaa4_webgpu.png", W, H, ms);
    hl_test_write_png(gl ? "px_render_msaa1_gles3.png" : "px_render_msaa1_webgpu.png", W, H, ss);
    int edge = -1;
    int n4 = count_blended(ms, &edge), n1 = count_blended(ss, NULL), nt = count_blended(tg, NULL);
    printf("blended pixels: 4x output %d, 1x output %d, 4x target %d\n", n4, n1, nt);
    HL_CHECK_MSG(n4 >= 40, "4x: %d blended edge pixels (>= 40)", n4);
    HL_CHECK_EQ(n1, 0);
    HL_CHECK_MSG(nt >= 40, "4x target: %d blended edge pixels (>= 40)", nt);
    const uint8_t *imgs[3] = {ms, ss, tg};
    for (int i = 0; i < 3; i++) {
        HL_CHECK_PIXEL(imgs[i] + ((size_t)32 * W + 32) * 4, 255, 255, 255, 255, 1);
        HL_CHECK_PIXEL(imgs[i] + ((size_t)2 * W + 2) * 4, 0, 0, 0, 255, 1);
    }
    if (edge >= 0) {
        const uint8_t *p = ss + edge * 4;
        printf("edge pixel (%d,%d): 4x %u, 1x %u\n", edge % W, edge / W, ms[edge * 4], p[0]);
        HL_CHECK_MSG(p[0] <= 1 || p[0] >= 254, "1x value at the 4x edge pixel: %u", p[0]);
    }
    return hl_test_finish();
}
