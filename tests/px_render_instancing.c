/* Renderer pixel test: explicit instancing.
 *
 * 64 cubes (8 x 8 grid, one per 16 x 16 px cell of a 128 x 128 output, 1 sample) share one
 * box geometry and one basic material and are all marked instanced; a 65th, non-instanced
 * cube with another material sits in the gap at the centre of the grid. Checks:
 *   - hl_renderer_stats: the 64 cubes are ONE draw with 64 instances (2 draws in total with
 *     the extra mesh), faces = 65 * 12;
 *   - every cube appears: the pixel at each cube's projected centre (hl_camera_project) has
 *     the cube colour, sRGB-encoded, +-1 (unlit colour: only the hardware encode rounds);
 *   - the pixel between neighbours shows the clear colour (exact, +-1);
 *   - hiding one instanced cube gives 63 instances and the clear colour at its centre;
 *   - the cubes are rotated 45 degrees about Z by their node: the instance matrices carry the
 *     whole world transform (a corner direction pixel inside the rotated square but outside
 *     the unrotated one is cube-coloured). */
#include <math.h>
#include <stdlib.h>

#include "hilo3d/renderer.h"
#include "hl_test.h"
#include "hl_test_render.h"

enum { W = 128, H = 128, N = 64 };

static const uint8_t *px_at(const uint8_t *img, hl_camera *c, hl_vec3 p) {
    hl_vec3 n = hl_camera_project(c, p);
    int x = (int)floorf((n.x * 0.5f + 0.5f) * (float)W);
    int y = (int)floorf((0.5f - n.y * 0.5f) * (float)H);
    x = x < 0 ? 0 : x >= W ? W - 1 : x;
    y = y < 0 ? 0 : y >= H ? H - 1 : y;
    return img + ((size_t)y * W + (size_t)x) * 4;
}

int main(int argc, char **argv) {
    hl_test_render_backend = backend_of(argc, argv);
    hl_renderer *r = make_renderer(W, H, 1);
    if (!r) return hl_test_finish();
    hl_stage *s = NULL;
    HL_CHECK_OK(hl_stage_create(&s));
    hl_stage_set_clear_color(s, (hl_color){0, 0, 0, 1});
    hl_camera_desc cd = {0};
    cd.projection = HL_PROJECTION_ORTHOGRAPHIC;
    cd.left = -4, cd.right = 4, cd.bottom = -4, cd.top = 4;
    cd.near_plane = 0.1f, cd.far_plane = 20.0f;
    hl_camera *cam = NULL;
    HL_CHECK_OK(hl_camera_create(&cd, &cam));
    hl_node_set_translation(hl_camera_node(cam), (hl_vec3){0, 0, 10});
    HL_CHECK_OK(hl_stage_add(s, hl_camera_node(cam)));

    hl_box_desc bd = {0.5f, 0.5f, 0.5f};
    hl_geometry *box = NULL;
    HL_CHECK_OK(hl_geometry_create_box(&bd, &box));
    hl_material *m = basic(0.2f, 0.6f, 1.0f, 1), *other = basic(1.0f, 0.5f, 0.0f, 1);
    hl_mesh *cubes[N] = {NULL};
    hl_vec3 centre[N];
    for (int i = 0; i < N; i++) {
        hl_mesh_desc md = {0};
        md.geometry = box;
        md.material = m;
        md.instanced = true;
        HL_CHECK_OK(hl_mesh_create(&md, &cubes[i]));
        if (!cubes[i]) return hl_test_finish();
        centre[i] = (hl_vec3){-3.5f + (float)(i % 8), -3.5f + (float)(i / 8), (float)(i % 5) * 0.1f};
        hl_node_set_translation(hl_mesh_node(cubes[i]), centre[i]);
        hl_node_set_rotation(hl_mesh_node(cubes[i]), hl_quat_from_axis_angle((hl_vec3){0, 0, 1}, 0.785398f));
        HL_CHECK_OK(hl_stage_add(s, hl_mesh_node(cubes[i])));
    }
    /* the non-instanced mesh: same geometry, another material, on a grid line (between cells) */
    hl_mesh *single = add_mesh(s, box, other, (hl_vec3){0, 0, -1});
    hl_node_set_scale(hl_mesh_node(single), (hl_vec3){0.6f, 0.6f, 0.6f});

    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    const hl_render_stats *st = hl_renderer_stats(r);
    printf("draws %u instances %u faces %llu\n", st->draws, st->instances, (unsigned long long)st->faces);
    HL_CHECK_EQ(st->draws, 2);
    HL_CHECK_EQ(st->instances, N + 1);
    HL_CHECK_EQ(st->faces, (N + 1) * 12);
    static uint8_t img[W * H * 4];
    HL_CHECK_OK(hl_renderer_read_pixels(r, img, sizeof img));
    hl_test_write_png(hl_test_render_backend == HL_BACKEND_GLES3 ? "px_render_instancing_gles3.png" : "px_render_instancing_webgpu.png",
                      W, H, img);
    int cr = srgb_byte(0.2f), cg = srgb_byte(0.6f), cb = 255;
    int seen = 0;
    for (int i = 0; i < N; i++) {
        const uint8_t *p = px_at(img, cam, centre[i]);
        bool ok = abs(p[0] - cr) <= 1 && abs(p[1] - cg) <= 1 && abs(p[2] - cb) <= 1;
        seen += ok;
        HL_CHECK_MSG(ok, "cube %d: %u %u %u, expected %d %d %d", i, p[0], p[1], p[2], cr, cg, cb);
        /* 45-degree rotation: 0.3 along x from the centre lies inside the rotated square
           (half diagonal 0.354) but the corner region at (0.3, 0.3) does not */
        const uint8_t *q = px_at(img, cam, (hl_vec3){centre[i].x + 0.3f, centre[i].y, 0});
        HL_CHECK_MSG(q[2] == 255, "cube %d: the rotated corner at +0.3 x is %u %u %u", i, q[0], q[1], q[2]);
        if (i % 8 != 7 && i / 8 != 7 && i != 27) {
            const uint8_t *g = px_at(img, cam, (hl_vec3){centre[i].x + 0.5f, centre[i].y + 0.5f, 0});
            HL_CHECK_PIXEL(g, 0, 0, 0, 255, 1);
        }
    }
    printf("%d of %d cubes seen\n", seen, N);
    HL_CHECK_PIXEL(px_at(img, cam, (hl_vec3){0, 0, 0}), 255, srgb_byte(0.5f), 0, 255, 1);

    hl_node_set_visible(hl_mesh_node(cubes[9]), false);
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_EQ(st->draws, 2);
    HL_CHECK_EQ(st->instances, N);
    HL_CHECK_OK(hl_renderer_read_pixels(r, img, sizeof img));
    HL_CHECK_PIXEL(px_at(img, cam, centre[9]), 0, 0, 0, 255, 1);
    HL_CHECK_PIXEL(px_at(img, cam, centre[10]), cr, cg, cb, 255, 1);

    hl_geometry_release(box);
    hl_material_release(m);
    hl_material_release(other);
    hl_stage_destroy(s);
    hl_renderer_destroy(r);
    return hl_test_finish();
}
