/* Renderer pixel test: PBR metallic/roughness extremes and the exact sRGB encode.
 *
 * A row of four spheres (128 x 32 px cells of 32 x 32, 1 sample) under one directional light
 * placed behind the camera (so each sphere's highlight faces the camera) and a small ambient:
 *   0: dielectric roughness 0.1   1: dielectric roughness 0.9
 *   2: metal      roughness 0.1   3: metal      roughness 0.9
 * Base colour (0.5, 0.5, 0.5). The peak of a cell is the largest R+G+B of its pixels.
 * Checks (margins in summed sRGB bytes; each gap is expected to be far larger, the margins
 * only guard the ordering against rasterisation differences):
 *   - peak(rough 0.1) >= peak(rough 0.9) + 60, for dielectrics and for metals (GGX: a
 *     smooth surface concentrates the reflected light into a brighter, smaller highlight);
 *   - the median pixel of a rough metal is darker than that of a rough dielectric by >= 30
 *     (a metal has no diffuse term: its base colour goes into F0);
 *   - a basic-material quad of linear colour (0.5, 0.25, 0.0) in the same frame reads
 *     (188, 137, 0) +-1 (the exact hardware sRGB encode: 0.5 -> 187.5, 0.25 -> 136.9). */
#include <math.h>
#include <stdlib.h>

#include "hilo3d/renderer.h"
#include "hl_test.h"
#include "hl_test_render.h"

enum { W = 128, H = 64, CELL = 32 };

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

int main(int argc, char **argv) {
    hl_test_render_backend = backend_of(argc, argv);
    hl_renderer *r = make_renderer(W, H, 1);
    if (!r) return hl_test_finish();
    hl_stage *s = NULL;
    HL_CHECK_OK(hl_stage_create(&s));
    hl_stage_set_clear_color(s, (hl_color){0, 0, 0, 1});
    hl_camera_desc cd = {0};
    cd.projection = HL_PROJECTION_ORTHOGRAPHIC;
    cd.left = -4, cd.right = 4, cd.bottom = -2, cd.top = 2;
    cd.near_plane = 0.1f, cd.far_plane = 50.0f;
    hl_camera *cam = NULL;
    HL_CHECK_OK(hl_camera_create(&cd, &cam));
    hl_node_set_translation(hl_camera_node(cam), (hl_vec3){0, 0, 10});
    HL_CHECK_OK(hl_stage_add(s, hl_camera_node(cam)));

    hl_sphere_desc sd = {0.9f, 48, 24};
    hl_geometry *sphere = NULL;
    HL_CHECK_OK(hl_geometry_create_sphere(&sd, &sphere));
    static const float mr[4][2] = {{0, 0.1f}, {0, 0.9f}, {1, 0.1f}, {1, 0.9f}};
    hl_material *mats[4] = {NULL};
    for (int i = 0; i < 4; i++) {
        hl_pbr_material_desc pd = {0};
        pd.base_color = (hl_color){0.5f, 0.5f, 0.5f, 1};
        pd.metallic = mr[i][0];
        pd.roughness = mr[i][1];
        HL_CHECK_OK(hl_material_create_pbr(&pd, &mats[i]));
        /* cell centres x = -3, -1, 1, 3 (pixels 16, 48, 80, 112), y = 1 (pixel row 16) */
        add_mesh(s, sphere, mats[i], (hl_vec3){-3.0f + 2.0f * (float)i, 1.0f, 0});
    }
    /* the basic quad on the bottom row */
    hl_geometry *quad = plane(2, 1);
    hl_material *mb = basic(0.5f, 0.25f, 0.0f, 1);
    add_mesh(s, quad, mb, (hl_vec3){0, -1.0f, 0});

    hl_light_desc ld = {0};
    ld.kind = HL_LIGHT_AMBIENT;
    ld.intensity = 0.1f;
    hl_light *l = NULL;
    HL_CHECK_OK(hl_light_create(&ld, &l));
    HL_CHECK_OK(hl_stage_add(s, hl_light_node(l)));
    ld.kind = HL_LIGHT_DIRECTIONAL;
    ld.intensity = 2.0f;
    HL_CHECK_OK(hl_light_create(&ld, &l));
    hl_node_set_translation(hl_light_node(l), (hl_vec3){1, 1, 10});
    hl_node_look_at(hl_light_node(l), (hl_vec3){0, 0, 0}, (hl_vec3){0, 1, 0});
    HL_CHECK_OK(hl_stage_add(s, hl_light_node(l)));

    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    static uint8_t img[W * H * 4];
    HL_CHECK_OK(hl_renderer_read_pixels(r, img, sizeof img));
    hl_test_write_png(hl_test_render_backend == HL_BACKEND_GLES3 ? "px_render_pbr_gles3.png" : "px_render_pbr_webgpu.png", W, H, img);

    int peak[4] = {0}, median[4] = {0};
    for (int i = 0; i < 4; i++) {
        static int vals[CELL * CELL];
        int n = 0;
        for (int y = 0; y < CELL; y++)
            for (int x = i * CELL; x < (i + 1) * CELL; x++) {
                const uint8_t *p = img + ((size_t)y * W + (size_t)x) * 4;
                int v = p[0] + p[1] + p[2];
                if (v > peak[i]) peak[i] = v;
                /* inside the sphere's disc (radius 0.9 -> 14.4 px) */
                float dx = (float)x + 0.5f - (float)(i * CELL + 16), dy = (float)y + 0.5f - 16.0f;
                if (dx * dx + dy * dy < 12.0f * 12.0f) vals[n++] = v;
            }
        qsort(vals, (size_t)n, sizeof vals[0], cmp_int);
        median[i] = n ? vals[n / 2] : 0;
        printf("sphere %d (metallic %.0f roughness %.1f): peak %d median %d (sum of R+G+B)\n", i, mr[i][0], mr[i][1],
               peak[i], median[i]);
    }
    HL_CHECK_MSG(peak[0] >= peak[1] + 60, "dielectric: peak rough 0.1 %d vs rough 0.9 %d", peak[0], peak[1]);
    HL_CHECK_MSG(peak[2] >= peak[3] + 60, "metal: peak rough 0.1 %d vs rough 0.9 %d", peak[2], peak[3]);
    HL_CHECK_MSG(median[1] >= median[3] + 30, "rough dielectric median %d vs rough metal %d", median[1], median[3]);
    const uint8_t *q = img + ((size_t)48 * W + 64) * 4;
    printf("basic (0.5, 0.25, 0): %u %u %u\n", q[0], q[1], q[2]);
    HL_CHECK_PIXEL(q, 188, 137, 0, 255, 1);
    HL_CHECK_EQ(srgb_byte(0.5f), 188);

    hl_geometry_release(sphere);
    hl_geometry_release(quad);
    for (int i = 0; i < 4; i++) hl_material_release(mats[i]);
    hl_material_release(mb);
    hl_stage_destroy(s);
    hl_renderer_destroy(r);
    return hl_test_finish();
}
