/* Renderer pixel test: MRT. A render target with 4 colour attachments: 0 = shaded colour
 * (RGBA8 sRGB), 1 = world normal * 0.5 + 0.5 (RGBA8), 2 = base colour (RGBA8), 3 = distance
 * from the camera / far plane (RGBA8); 64 x 64, 1 sample.
 *
 * Scene (orthographic camera at z = 5 looking down -Z, far 20, no lights, so the shaded colour
 * is exactly the emissive term):
 *   - left: a PBR plane facing the camera, base (0.2, 0.4, 0.6), emissive (0.5, 0.25, 0);
 *   - right: a PBR plane tilted 30 degrees up (rotation -30 degrees about X: normal
 *     (0, sin 30, cos 30)), base (0.8, 0.1, 0.3), no emissive.
 * Expected, +-1 per channel (unorm rounding; +-2 for the tilted normal: interpolated,
 * renormalised): attachment 0 left = sRGB(0.5, 0.25, 0) = (188, 137, 0), right black;
 * attachment 1 left = (128, 128, 255) (0.5 * 255 = 127.5 rounds either way), right =
 * (128, 191, 238); attachment 2 = base colours as unorm bytes (51, 102, 153) and
 * (204, 26, 77); attachment 3 at the centre of the left plane (distance 5 / far 20) = 64;
 * outside the planes every attachment holds the target's clear colour (0, 0, 0, 0). */
#include <math.h>
#include <stdlib.h>

#include "hilo3d/renderer.h"
#include "hl_test.h"
#include "hl_test_render.h"

enum { W = 64, H = 64 };

int main(int argc, char **argv) {
    hl_test_render_backend = backend_of(argc, argv);
    hl_renderer *r = make_renderer(W, H, 1);
    if (!r) return hl_test_finish();
    hl_stage *s = NULL;
    HL_CHECK_OK(hl_stage_create(&s));
    hl_camera *cam = front_camera(s);
    hl_geometry *g = plane(0.9f, 0.9f);
    hl_pbr_material_desc pd = {0};
    pd.base_color = (hl_color){0.2f, 0.4f, 0.6f, 1};
    pd.emissive = (hl_vec3){0.5f, 0.25f, 0};
    hl_material *ml = NULL, *mr = NULL;
    HL_CHECK_OK(hl_material_create_pbr(&pd, &ml));
    pd.base_color = (hl_color){0.8f, 0.1f, 0.3f, 1};
    pd.emissive = (hl_vec3){0, 0, 0};
    HL_CHECK_OK(hl_material_create_pbr(&pd, &mr));
    add_mesh(s, g, ml, (hl_vec3){-0.5f, 0, 0});
    hl_mesh *tilted = add_mesh(s, g, mr, (hl_vec3){0.5f, 0, 0});
    hl_node_set_rotation(hl_mesh_node(tilted), hl_quat_from_axis_angle((hl_vec3){1, 0, 0}, -0.5235988f));

    hl_render_target_desc td = {0};
    td.color_count = 4;
    td.formats[0] = HL_TARGET_RGBA8_SRGB;
    td.formats[1] = td.formats[2] = td.formats[3] = HL_TARGET_RGBA8;
    td.label = "gbuffer";
    hl_render_target *t = NULL;
    HL_CHECK_OK(hl_render_target_create(r, &td, &t));
    if (!t) return hl_test_finish();
    HL_CHECK_OK(hl_renderer_render_to_target(r, t, s, cam));
    static uint8_t img[4][W * H * 4];
    for (uint32_t i = 0; i < 4; i++) HL_CHECK_OK(hl_render_target_read(r, t, i, img[i], sizeof img[i]));
    HL_CHECK_RESULT(hl_render_target_read(r, t, 4, img[0], sizeof img[0]), HL_ERR_VALIDATION);
    static const char *names[4] = {"colour", "normal", "base colour", "depth"};
    for (int i = 0; i < 4; i++) {
        char path[80];
        snprintf(path, sizeof path, "px_render_mrt%d_%s.png", i, hl_backend_name(hl_test_render_backend));
        hl_test_write_png(path, W, H, img[i]);
    }
    const int L = (32 * W + 16) * 4, R = (32 * W + 48) * 4, OUT = (2 * W + 2) * 4;
    for (int i = 0; i < 4; i++)
        printf("%-11s left %3u %3u %3u %3u  right %3u %3u %3u %3u  outside %u %u %u %u\n", names[i], img[i][L],
               img[i][L + 1], img[i][L + 2], img[i][L + 3], img[i][R], img[i][R + 1], img[i][R + 2], img[i][R + 3],
               img[i][OUT], img[i][OUT + 1], img[i][OUT + 2], img[i][OUT + 3]);
    HL_CHECK_PIXEL(img[0] + L, 188, 137, 0, 255, 1);
    HL_CHECK_PIXEL(img[0] + R, 0, 0, 0, 255, 1);
    HL_CHECK(abs(img[1][L] - 128) <= 1 && abs(img[1][L + 1] - 128) <= 1 && img[1][L + 2] >= 254);
    HL_CHECK_PIXEL(img[1] + R, 128, 191, 238, 255, 2);
    HL_CHECK_PIXEL(img[2] + L, 51, 102, 153, 255, 1);
    HL_CHECK_PIXEL(img[2] + R, 204, 26, 77, 255, 1);
    HL_CHECK_MSG(abs(img[3][L] - 64) <= 1, "depth at the left centre %u, expected 64 +-1", img[3][L]);
    for (int i = 0; i < 4; i++) HL_CHECK_PIXEL(img[i] + OUT, 0, 0, 0, 0, 1);

    hl_render_target_destroy(r, t);
    hl_geometry_release(g);
    hl_material_release(ml);
    hl_material_release(mr);
    hl_stage_destroy(s);
    hl_renderer_destroy(r);
    return hl_test_finish();
}
