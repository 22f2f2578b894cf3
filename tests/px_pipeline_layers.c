/* Renderer lists select meshes by layer (hl_mesh_set_layers, hl_pipeline_renderer_list_desc.
 * layer_mask), on one backend per run.
 *
 * Three unlit boxes left to right: red on layer 0 (the default), green on layer 1, and a pair
 * of instanced blue boxes of one geometry and material, the upper on layer 1 and the lower on
 * layer 2 (so an instanced batch splits by layer). A pipeline draws one list with the mask under
 * test into the output: 0 draws all, 1 only red, 2 green and the upper blue, 4 the lower blue,
 * 8 nothing (the clear colour), 3 red, green and the upper blue. Every box is checked at its
 * centre (+-1 of its colour, or of the black clear colour). The built-in pipeline draws every
 * layer; a mesh moved to layer 8 later is drawn by mask 8 in the next frame. */
#include <stdlib.h>

#include "hilo3d/pipeline.h"
#include "hl_test_render.h"

enum { W = 64, H = 32 };

static uint32_t g_mask;

static hl_result record(hl_pipeline_context ctx, void *state) {
    (void)state;
    hl_pipeline_culling c;
    hl_result res = hl_pipeline_cull(ctx, NULL, &c);
    if (!res) res = hl_pipeline_record_shadows(ctx, c);
    hl_pipeline_renderer_list_desc ld = {.culling = c, .queue = HL_PIPELINE_QUEUE_ALL, .layer_mask = g_mask};
    hl_pipeline_renderer_list l;
    if (!res) res = hl_pipeline_create_renderer_list(ctx, &ld, &l);
    hl_pipeline_scene_pass_desc pd = {.name = "layers", .list = l};
    if (!res) res = hl_pipeline_add_scene_pass(ctx, &pd);
    return res;
}

static hl_result create(const hl_pipeline_caps *caps, void *user, hl_pipeline_runtime **out) {
    (void)caps, (void)user;
    hl_pipeline_runtime_desc d = {"layers", NULL, record, NULL};
    return hl_pipeline_runtime_create(&d, out);
}

static const uint8_t *px(const uint8_t *img, int x, int y) { return img + ((size_t)y * W + (size_t)x) * 4; }

/* which: bit 0 red, 1 green, 2 upper blue, 3 lower blue */
static void check(const uint8_t *img, uint32_t which, uint32_t mask) {
    const struct {
        int x, y;
        int r, g, b;
    } boxes[4] = {{8, 16, 255, 0, 0}, {24, 16, 0, 255, 0}, {48, 8, 0, 0, 255}, {48, 24, 0, 0, 255}};
    for (int i = 0; i < 4; i++) {
        bool on = which & (1u << i);
        const uint8_t *p = px(img, boxes[i].x, boxes[i].y);
        hl_test_check_pixel(p, on ? boxes[i].r : 0, on ? boxes[i].g : 0, on ? boxes[i].b : 0, 255, 1, __FILE__, __LINE__,
                            i == 0 ? "red" : i == 1 ? "green" : i == 2 ? "upper blue" : "lower blue");
        if (on != (p[0] + p[1] + p[2] > 100)) printf("  (mask %u, box %d)\n", mask, i);
    }
}

int main(int argc, char **argv) {
    backend_of(argc, argv);
    static const hl_pipeline_factory f = {"layers", NULL, create, NULL};
    hl_renderer *r = make_renderer_with(W, H, 1, &f), *plain = make_renderer(W, H, 1);
    hl_stage *s = NULL;
    HL_CHECK_OK(hl_stage_create(&s));
    if (!r || !plain || !s) return hl_test_finish();
    hl_stage_set_clear_color(s, (hl_color){0, 0, 0, 1});
    hl_camera_desc cd = {0};
    cd.projection = HL_PROJECTION_ORTHOGRAPHIC;
    cd.left = 0, cd.right = 4, cd.bottom = -1, cd.top = 1;
    cd.near_plane = 0.1f, cd.far_plane = 10.0f;
    hl_camera *cam = NULL;
    HL_CHECK_OK(hl_camera_create(&cd, &cam));
    hl_node_set_translation(hl_camera_node(cam), (hl_vec3){0, 0, 5});
    HL_CHECK_OK(hl_stage_add(s, hl_camera_node(cam)));
    hl_box_desc bd = {0.6f, 0.6f, 0.6f};
    hl_geometry *box = NULL;
    HL_CHECK_OK(hl_geometry_create_box(&bd, &box));
    hl_material *red = basic(1, 0, 0, 1), *green = basic(0, 1, 0, 1), *blue = basic(0, 0, 1, 1);
    hl_mesh *mr = add_mesh(s, box, red, (hl_vec3){0.5f, 0, 0});
    hl_mesh *mg = add_mesh(s, box, green, (hl_vec3){1.5f, 0, 0});
    hl_mesh *mb1 = add_mesh(s, box, blue, (hl_vec3){3.0f, 0.5f, 0});
    hl_mesh *mb2 = add_mesh(s, box, blue, (hl_vec3){3.0f, -0.5f, 0});
    if (!mr || !mg || !mb1 || !mb2) return hl_test_finish();
    hl_mesh_set_instanced(mb1, true);
    hl_mesh_set_instanced(mb2, true);
    HL_CHECK_EQ(hl_mesh_layers(mr), 1);
    HL_CHECK_EQ(hl_mesh_layers(NULL), 0);
    hl_mesh_set_layers(mg, 2);
    hl_mesh_set_layers(mb1, 2);
    hl_mesh_set_layers(mb2, 4);
    static uint8_t img[W * H * 4];
    const struct {
        uint32_t mask, which;
    } cases[] = {{0, 15}, {1, 1}, {2, 6}, {4, 8}, {8, 0}, {3, 7}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        g_mask = cases[i].mask;
        HL_CHECK_OK(hl_renderer_render(r, s, cam));
        HL_CHECK_OK(hl_renderer_read_pixels(r, img, sizeof img));
        check(img, cases[i].which, cases[i].mask);
    }
    /* the built-in pipeline draws every layer */
    HL_CHECK_OK(hl_renderer_render(plain, s, cam));
    HL_CHECK_OK(hl_renderer_read_pixels(plain, img, sizeof img));
    check(img, 15, 0);
    /* a change applies from the next frame */
    hl_mesh_set_layers(mr, 8);
    g_mask = 8;
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_OK(hl_renderer_read_pixels(r, img, sizeof img));
    check(img, 1, 8);
    hl_test_write_png("px_pipeline_layers.png", W, H, img);
    hl_geometry_release(box);
    hl_material_release(red);
    hl_material_release(green);
    hl_material_release(blue);
    hl_stage_destroy(s);
    hl_renderer_destroy(r);
    hl_renderer_destroy(plain);
    return hl_test_finish();
}
