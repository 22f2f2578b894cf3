/* The install test's program: renders a 32 x 32 frame (the left half a basic-material quad of
 * linear colour (0.5, 0.25, 0), the right half the stage's clear colour (0, 0, 0.5)) and checks
 * two pixels of the sRGB output: (188, 137, 0) and (0, 0, 188), +-1. It also checks that the
 * library it runs with is the version of the headers it was built with, and, given a second
 * argument, that this is the expected version.
 *   consumer [auto|webgpu|gles3] [EXPECTED_VERSION]
 * Exit code 0 when all holds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hilo3d/hilo3d.h"

enum { W = 32, H = 32 };

static int near(const uint8_t *p, int r, int g, int b) {
    return abs(p[0] - r) <= 1 && abs(p[1] - g) <= 1 && abs(p[2] - b) <= 1;
}

int main(int argc, char **argv) {
    if (strcmp(hl_version_string(), HILO3D_VERSION_STRING) != 0 ||
        (argc > 2 && strcmp(argv[2], HILO3D_VERSION_STRING) != 0)) {
        fprintf(stderr, "consumer: library %s, headers %s, expected %s\n", hl_version_string(), HILO3D_VERSION_STRING,
                argc > 2 ? argv[2] : "(any)");
        return 1;
    }
    hl_renderer_desc rd = {0};
    rd.width = W, rd.height = H, rd.sample_count = 1;
    if (argc > 1 && hl_backend_parse(argv[1], &rd.backend) != HL_OK) return 2;
    hl_renderer *r = NULL;
    hl_stage *stage = NULL;
    hl_geometry *quad = NULL;
    hl_material *mat = NULL;
    hl_mesh *mesh = NULL;
    hl_camera *cam = NULL;
    hl_plane_desc pd = {1.0f, 2.0f, 1, 1};
    hl_basic_material_desc bd = {0};
    bd.color = (hl_color){0.5f, 0.25f, 0.0f, 1.0f};
    hl_camera_desc cd = {0};
    cd.projection = HL_PROJECTION_ORTHOGRAPHIC; /* [-1, 1] on both axes */
    static uint8_t img[W * H * 4];
    hl_result res = hl_renderer_create(&rd, &r);
    if (!res) res = hl_stage_create(&stage);
    if (!res) res = hl_geometry_create_plane(&pd, &quad);
    if (!res) res = hl_material_create_basic(&bd, &mat);
    hl_mesh_desc md = {0};
    md.geometry = quad, md.material = mat;
    if (!res) res = hl_mesh_create(&md, &mesh);
    if (!res) res = hl_stage_add(stage, hl_mesh_node(mesh));
    if (!res) res = hl_camera_create(&cd, &cam);
    if (!res) {
        hl_node_set_translation(hl_mesh_node(mesh), (hl_vec3){-0.5f, 0, 0});
        hl_node_set_translation(hl_camera_node(cam), (hl_vec3){0, 0, 5});
        hl_stage_set_clear_color(stage, (hl_color){0, 0, 0.5f, 1});
        res = hl_renderer_render(r, stage, cam);
    }
    if (!res) res = hl_renderer_read_pixels(r, img, sizeof img);
    const uint8_t *left = img + (16 * W + 8) * 4, *right = img + (16 * W + 24) * 4;
    int ok = !res && near(left, 188, 137, 0) && near(right, 0, 0, 188);
    if (res)
        fprintf(stderr, "consumer: %s\n", hl_last_error());
    else if (!ok)
        fprintf(stderr, "consumer: pixels %d %d %d / %d %d %d\n", left[0], left[1], left[2], right[0], right[1],
                right[2]);
    printf("consumer: hilo3d %s, %s: %s\n", hl_version_string(), r ? hl_backend_name(hl_renderer_backend(r)) : "-",
           ok ? "ok" : "FAILED");
    hl_geometry_release(quad);
    hl_material_release(mat);
    hl_node_destroy(hl_camera_node(cam));
    hl_stage_destroy(stage);
    hl_renderer_destroy(r);
    return ok ? 0 : 1;
}
