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

enum { W = 64, H = 64 };
static hl_backend g_backend;

static inline hl_backend backend_of(int argc, char **argv) {
    return hl_test_backend_arg(argc, argv, HL_RHI_BACKEND_WEBGPU) == HL_RHI_BACKEND_GLES3 ? HL_BACKEND_GLES3
                                                                                          : HL_BACKEND_WEBGPU;
}

/* Linear [0, 1] -> sRGB byte (the exact encode of an RGBA8 sRGB target). */
static inline int srgb_byte(float c) {
    c = c < 0 ? 0 : c > 1 ? 1 : c;
    float s = c <= 0.0031308f ? c * 12.92f : 1.055f * powf(c, 1.0f / 2.4f) - 0.055f;
    return (int)floorf(s * 255.0f + 0.5f);
}

static inline hl_renderer *make_renderer(uint32_t w, uint32_t h, uint32_t samples) {
    hl_renderer_desc rd = {0};
    rd.backend = g_backend;
    rd.width = w;
    rd.height = h;
    rd.sample_count = samples;
    hl_renderer *r = NULL;
    HL_CHECK_OK(hl_renderer_create(&rd, &r));
    return r;
}

/* An orthographic camera at (0, 0, 5) looking down -Z over [-1, 1]^2, added to s. */
static inline hl_camera *front_camera(hl_stage *s) {
    hl_camera_desc cd = {0};
    cd.projection = HL_PROJECTION_ORTHOGRAPHIC;
    cd.near_plane = 0.1f, cd.far_plane = 20.0f;
    hl_camera *c = NULL;
    HL_CHECK_OK(hl_camera_create(&cd, &c));
    if (!c) return NULL;
    hl_node_set_translation(hl_camera_node(c), (hl_vec3){0, 0, 5});
    HL_CHECK_OK(hl_stage_add(s, hl_camera_node(c)));
    return c;
}

/* A mesh of geometry + material at pos, added to s (the mesh holds its own references). */
static inline hl_mesh *add_mesh(hl_stage *s, hl_geometry *g, hl_material *m, hl_vec3 pos) {
    hl_mesh_desc md = {0};
    md.geometry = g;
    md.material = m;
    hl_mesh *mesh = NULL;
    HL_CHECK_OK(hl_mesh_create(&md, &mesh));
    if (!mesh) return NULL;
    hl_node_set_translation(hl_mesh_node(mesh), pos);
    HL_CHECK_OK(hl_stage_add(s, hl_mesh_node(mesh)));
    return mesh;
}

static inline hl_material *basic(float r, float g, float b, float a) {
    hl_basic_material_desc bd = {0};
    bd.color = (hl_color){r, g, b, a};
    if (a < 1.0f) {
        bd.state.alpha_mode = HL_ALPHA_BLEND;
    }
    hl_material *m = NULL;
    HL_CHECK_OK(hl_material_create_basic(&bd, &m));
    return m;
}

static inline hl_geometry *plane(float w, float h) {
    hl_plane_desc pd = {w, h, 1, 1};
    hl_geometry *g = NULL;
    HL_CHECK_OK(hl_geometry_create_plane(&pd, &g));
    return g;
}

int main(int argc, char **argv) {
    g_backend = backend_of(argc, argv);
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
    for (uint32_t i = 0; i < 4; i++) HL_CHECK_OK(hl_render_target_read(r, t, i, img[i]));
    HL_CHECK_RESULT(hl_render_target_read(r, t, 4, img[0]), HL_ERR_VALIDATION);
    static const char *names[4] = {"colour", "normal", "base colour", "depth"};
    for (int i = 0; i < 4; i++) {
        char path[80];
        snprintf(path, sizeof path, "px_render_mrt%d_%s.png", i, hl_backend_name(g_backend));
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
