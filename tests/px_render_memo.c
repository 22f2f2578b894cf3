/* The draw memo (render_frame.c mesh_draw): in one view, plain meshes sharing a material, a
 * geometry and shadow flags resolve those once. A 4x4 grid of quads, two materials alternating on
 * one plane geometry, plus a second geometry and other shadow flags: the memo's hits are the
 * draws less the distinct kinds, every frame (moving, static after a material change, a mesh
 * given another material or geometry), and every quad shows its own material's colour after each
 * change (pixel tolerance +-1). */
#include <string.h>

#include "hilo3d/renderer.h"
#include "hl_test.h"

enum { W = 64, H = 64, N = 4 };

static hl_material *basic(hl_color c) {
    hl_basic_material_desc bd = {0};
    bd.color = c;
    hl_material *m = NULL;
    HL_CHECK_OK(hl_material_create_basic(&bd, &m));
    return m;
}

/* quad (i, j) covers the 16x16 cell of the 64x64 image at column i, row j (row 0 at the top) */
static const uint8_t *cell(const uint8_t *img, int i, int j) { return img + ((j * 16 + 8) * W + i * 16 + 8) * 4; }

static void check_cells(const uint8_t *img, hl_mesh *const *q, hl_material *const *mats, const hl_color *colors,
                        int count) {
    for (int k = 0; k < N * N; k++) {
        hl_material *m = hl_mesh_material(q[k]);
        int c = 0;
        while (c < count && mats[c] != m) c++;
        if (c == count) {
            HL_CHECK_MSG(0, "quad %d has a material the test did not make", k);
            continue;
        }
        HL_CHECK_PIXEL(cell(img, k % N, k / N), (int)(colors[c].r * 255.0f + 0.5f), (int)(colors[c].g * 255.0f + 0.5f),
                       (int)(colors[c].b * 255.0f + 0.5f), 255, 1);
    }
}

static void place(hl_mesh *m, int k, float dx) {
    hl_node_set_translation(hl_mesh_node(m), (hl_vec3){-0.75f + 0.5f * (float)(k % N) + dx, 0.75f - 0.5f * (float)(k / N), 0});
}

int main(int argc, char **argv) {
    hl_rhi_backend rb = hl_test_backend_arg(argc, argv, HL_RHI_BACKEND_GLES3);
    hl_renderer_desc rd = {0};
    rd.backend = rb == HL_RHI_BACKEND_WEBGPU ? HL_BACKEND_WEBGPU : HL_BACKEND_GLES3;
    rd.width = W;
    rd.height = H;
    rd.sample_count = 1;
    hl_renderer *r = NULL;
    HL_CHECK_OK(hl_renderer_create(&rd, &r));
    if (!r) return hl_test_finish();
    hl_stage *s = NULL;
    HL_CHECK_OK(hl_stage_create(&s));
    hl_plane_desc pd = {0.2f, 0.2f, 1, 1}, pd2 = {0.2f, 0.2f, 2, 2};
    hl_geometry *plane = NULL, *plane2 = NULL;
    HL_CHECK_OK(hl_geometry_create_plane(&pd, &plane));
    HL_CHECK_OK(hl_geometry_create_plane(&pd2, &plane2));
    hl_color colors[3] = {{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}};
    hl_material *mats[3] = {basic(colors[0]), basic(colors[1]), basic(colors[2])};
    hl_mesh *q[N * N] = {0};
    for (int k = 0; k < N * N && mats[0] && mats[1] && plane; k++) {
        hl_mesh_desc md = {0};
        md.geometry = plane;
        md.material = mats[k % 2];
        HL_CHECK_OK(hl_mesh_create(&md, &q[k]));
        if (!q[k]) break;
        /* cell centres of a 2x2 world (orthographic camera: x, y in -1..1) */
        place(q[k], k, 0);
        HL_CHECK_OK(hl_stage_add(s, hl_mesh_node(q[k])));
    }
    hl_camera_desc cd = {0};
    cd.projection = HL_PROJECTION_ORTHOGRAPHIC;
    hl_camera *cam = NULL;
    HL_CHECK_OK(hl_camera_create(&cd, &cam));
    if (!cam || !q[N * N - 1]) return hl_test_finish();
    hl_node_set_translation(hl_camera_node(cam), (hl_vec3){0, 0, 5});
    HL_CHECK_OK(hl_stage_add(s, hl_camera_node(cam)));
    static uint8_t img[W * H * 4];
    const hl_render_stats *st = hl_renderer_stats(r);

    /* first frame: two kinds (the two materials on the plane), 14 draws from the memo */
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_EQ(st->draws, N * N);
    HL_CHECK_EQ(st->draw_memo_hits, N * N - 2);
    HL_CHECK_OK(hl_renderer_read_pixels(r, img, sizeof img));
    check_cells(img, q, mats, colors, 3);

    /* moving: every quad's transform changes (a little: the cells keep their colours): prepared
       draws and memo both hold, the object blocks upload */
    for (int f = 0; f < 2; f++) {
        for (int k = 0; k < N * N; k++) place(q[k], k, 0.02f * (float)(f + 1));
        HL_CHECK_OK(hl_renderer_render(r, s, cam));
        HL_CHECK_EQ(st->draw_memo_hits, N * N - 2);
        HL_CHECK_EQ(st->prepared_reused, N * N);
        HL_CHECK_OK(hl_renderer_read_pixels(r, img, sizeof img));
        check_cells(img, q, mats, colors, 3);
    }

    /* a shared material's colour changes: the first of its quads uploads its block, the others
       take the memo, and all eight show the new colour */
    colors[0] = (hl_color){1, 1, 0, 1};
    HL_CHECK_OK(hl_material_set_color(mats[0], colors[0]));
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_EQ(st->draw_memo_hits, N * N - 2);
    HL_CHECK_OK(hl_renderer_read_pixels(r, img, sizeof img));
    check_cells(img, q, mats, colors, 3);

    /* one quad takes a third material, another the second geometry, a third other shadow flags:
       three kinds more (five), each drawn as its own */
    HL_CHECK_OK(hl_mesh_set_material(q[5], mats[2]));
    HL_CHECK_OK(hl_mesh_set_geometry(q[6], plane2));
    hl_mesh_set_shadows(q[8], !hl_mesh_cast_shadows(q[8]), true);
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_EQ(st->draws, N * N);
    HL_CHECK_EQ(st->draw_memo_hits, N * N - 5);
    HL_CHECK_OK(hl_renderer_read_pixels(r, img, sizeof img));
    check_cells(img, q, mats, colors, 3);

    /* the second material is released by all but one quad, then changes colour */
    for (int k = 1; k < N * N; k += 2)
        if (k != 3 && k != 5) HL_CHECK_OK(hl_mesh_set_material(q[k], mats[2]));
    colors[1] = (hl_color){0, 1, 1, 1};
    HL_CHECK_OK(hl_material_set_color(mats[1], colors[1]));
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    /* kinds: mats[0] on the plane, mats[0] on plane2 (q[6]), mats[0] without shadows (q[8]),
       mats[1] (q[3]), mats[2] (q[5] and the others) */
    HL_CHECK_EQ(st->draw_memo_hits, N * N - 5);
    HL_CHECK_OK(hl_renderer_read_pixels(r, img, sizeof img));
    check_cells(img, q, mats, colors, 3);

    for (int k = 0; k < N * N; k++) hl_node_destroy(hl_mesh_node(q[k]));
    for (int m = 0; m < 3; m++) hl_material_release(mats[m]);
    hl_geometry_release(plane);
    hl_geometry_release(plane2);
    hl_stage_destroy(s);
    hl_renderer_destroy(r);
    return hl_test_finish();
}
