/* Renderer pixel test: alpha blending of unlit (basic) panes, in linear space, into the RGBA8
 * sRGB output.
 *
 * Orthographic camera over [-1, 1]^2 at 64 x 64, 1 sample, clear colour C = (0.1, 0.6, 0.9):
 *   - an opaque basic quad Q = (0.0, 0.0, 1.0) covers the left half (x < 0);
 *   - pane P1 = (0.8, 0.2, 0.0, alpha 0.25) covers the top half (y > 0), in front of Q;
 *   - pane P2 = (0.0, 1.0, 0.0, alpha 0.5) covers x > 0.5, nearer the camera than P1.
 * Expected colours are mixed in linear space (src * a + dst * (1 - a), what the hardware does
 * for an sRGB target) and then sRGB-encoded here: tolerance +-2 per channel (the 8-bit sRGB
 * store of the intermediate values and the blend unit's precision). The transparent draws
 * run back to front, so where P2 covers P1 the result is P2 over (P1 over C). */
#include <math.h>

#include "hilo3d/renderer.h"
#include "hl_test.h"
#include "hl_test_render.h"

enum { W = 64, H = 64 };

static void mix(float out[3], const float src[4], const float dst[3]) {
    for (int k = 0; k < 3; k++) out[k] = src[k] * src[3] + dst[k] * (1.0f - src[3]);
}

static void check_at(const uint8_t *img, int x, int y, const float lin[3], const char *what) {
    const uint8_t *p = img + ((size_t)y * W + (size_t)x) * 4;
    int e[3] = {srgb_byte(lin[0]), srgb_byte(lin[1]), srgb_byte(lin[2])};
    printf("%-22s (%2d,%2d): got %3u %3u %3u  expected %3d %3d %3d\n", what, x, y, p[0], p[1], p[2], e[0], e[1], e[2]);
    HL_CHECK_PIXEL(p, e[0], e[1], e[2], p[3], 2);
}

int main(int argc, char **argv) {
    hl_test_render_backend = backend_of(argc, argv);
    hl_renderer *r = make_renderer(W, H, 1);
    if (!r) return hl_test_finish();
    hl_stage *s = NULL;
    HL_CHECK_OK(hl_stage_create(&s));
    const float C[3] = {0.1f, 0.6f, 0.9f}, Q[3] = {0.0f, 0.0f, 1.0f};
    const float P1[4] = {0.8f, 0.2f, 0.0f, 0.25f}, P2[4] = {0.0f, 1.0f, 0.0f, 0.5f};
    hl_stage_set_clear_color(s, (hl_color){C[0], C[1], C[2], 1});
    hl_camera *cam = front_camera(s);
    hl_geometry *left = plane(1, 2), *top = plane(2, 1), *strip = plane(0.5f, 2);
    hl_material *mq = basic(Q[0], Q[1], Q[2], 1), *m1 = basic(P1[0], P1[1], P1[2], P1[3]),
                *m2 = basic(P2[0], P2[1], P2[2], P2[3]);
    add_mesh(s, left, mq, (hl_vec3){-0.5f, 0, 0});
    add_mesh(s, top, m1, (hl_vec3){0, 0.5f, 0.5f});
    add_mesh(s, strip, m2, (hl_vec3){0.75f, 0, 1.0f});
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_EQ(hl_renderer_stats(r)->draws, 3);
    static uint8_t img[W * H * 4];
    HL_CHECK_OK(hl_renderer_read_pixels(r, img, sizeof img));
    hl_test_write_png(hl_test_render_backend == HL_BACKEND_GLES3 ? "px_render_blend_gles3.png" : "px_render_blend_webgpu.png", W, H,
                      img);

    float p1_q[3], p1_c[3], p1_c_p2[3], p2_c[3];
    mix(p1_q, P1, Q);
    mix(p1_c, P1, C);
    mix(p1_c_p2, P2, p1_c);
    mix(p2_c, P2, C);
    /* pixel centres: x 8 -> -0.73, 40 -> 0.27, 56 -> 0.77; y 8 -> +0.73, 56 -> -0.73 */
    check_at(img, 8, 56, Q, "opaque quad");
    check_at(img, 40, 56, C, "clear colour");
    check_at(img, 8, 8, p1_q, "P1 over quad");
    check_at(img, 40, 8, p1_c, "P1 over clear");
    check_at(img, 56, 8, p1_c_p2, "P2 over P1 over clear");
    check_at(img, 56, 56, p2_c, "P2 over clear");

    hl_geometry_release(left);
    hl_geometry_release(top);
    hl_geometry_release(strip);
    hl_material_release(mq);
    hl_material_release(m1);
    hl_material_release(m2);
    hl_stage_destroy(s);
    hl_renderer_destroy(r);
    return hl_test_finish();
}
