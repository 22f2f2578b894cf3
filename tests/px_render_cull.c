/* Renderer pixel test: frustum culling, one frame of many passes, and render events.
 *
 *   - culling: of two meshes, one is behind the camera: stats report 1 draw, 1 visible and 1
 *     culled mesh, and the visible one's pixel is drawn (+-1, unlit colour); moving the
 *     culled one into view gives 2 draws and 0 culled;
 *   - hl_renderer_render_frame with two hl_render_frame_render_to_target calls and a present
 *     is ONE frame: frame_index + 1, 3 passes (two opaque passes and the present copy), draws
 *     summed over both views; the output then holds the presented target's colours (+-1);
 *   - events: before_render / after_render fire once per successful frame with the frame
 *     index; a frame whose callback fails (returns an error, or records a present of a
 *     target of the wrong size) returns that error, does not advance frame_index and does
 *     not fire after_render; the next frame works again;
 *   - skinned meshes are culled by their posed bounds: a skinned quad whose node is in view
 *     but whose joint poses it out of view is culled (1 culled, 1 draw, none of its colour in
 *     the image), one whose node is out of view but posed into the right half is drawn (its
 *     colour there +-1, the left half clear); swapping the two joints' poses swaps them. */
#include <math.h>
#include <stdlib.h>

#include "hilo3d/renderer.h"
#include "hl_test.h"
#include "hl_test_render.h"

enum { W = 32, H = 32 };

typedef struct events {
    int before, after;
    uint64_t last_before, last_after;
} events;

static void on_before(hl_renderer *r, uint64_t frame, void *user) {
    (void)r;
    events *e = user;
    e->before++;
    e->last_before = frame;
}

static void on_after(hl_renderer *r, uint64_t frame, void *user) {
    (void)r;
    events *e = user;
    e->after++;
    e->last_after = frame;
}

typedef struct frame_ctx {
    hl_render_target *t1, *t2, *small;
    hl_stage *s;
    hl_camera *cam;
    int mode; /* 0 = two targets + present, 1 = fail from the callback, 2 = bad present */
} frame_ctx;

static hl_result frame_fn(hl_render_frame *f, void *user) {
    frame_ctx *c = user;
    hl_result res = hl_render_frame_render_to_target(f, c->t1, c->s, c->cam);
    if (!res) res = hl_render_frame_render_to_target(f, c->t2, c->s, c->cam);
    if (res) return res;
    if (c->mode == 1) return HL_ERR_VALIDATION;
    if (c->mode == 2) {
        HL_CHECK_RESULT(hl_render_frame_present(f, c->small), HL_ERR_VALIDATION);
        return HL_OK; /* the recorded error fails the frame anyway */
    }
    return hl_render_frame_present(f, c->t2);
}

/* A 0.8 x 0.8 quad facing +Z, every vertex on joint 0 with weight 1. */
static hl_geometry *skinned_quad(void) {
    static const float pos[] = {-0.4f, -0.4f, 0, 0.4f, -0.4f, 0, 0.4f, 0.4f, 0, -0.4f, 0.4f, 0};
    static const uint8_t joints[16] = {0};
    static const float weights[] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    static const uint16_t idx[] = {0, 1, 2, 0, 2, 3};
    hl_geometry_desc d = {0};
    d.vertex_count = 4;
    d.attributes[HL_ATTR_POSITION] = (hl_attribute_desc){pos, HL_COMPONENT_FLOAT32, 3};
    d.attributes[HL_ATTR_JOINTS_0] = (hl_attribute_desc){joints, HL_COMPONENT_UINT8, 4};
    d.attributes[HL_ATTR_WEIGHTS_0] = (hl_attribute_desc){weights, HL_COMPONENT_FLOAT32, 4};
    d.indices = idx;
    d.index_count = 6;
    d.index_format = HL_INDEX_UINT16;
    hl_geometry *g = NULL;
    HL_CHECK_OK(hl_geometry_create(&d, &g));
    return g;
}

static int count_colour(const uint8_t *img, int r, int g, int b) {
    int n = 0;
    for (int i = 0; i < W * H; i++)
        n += abs(img[i * 4] - r) <= 1 && abs(img[i * 4 + 1] - g) <= 1 && abs(img[i * 4 + 2] - b) <= 1;
    return n;
}

static void test_skinned_culling(hl_renderer *r) {
    const hl_render_stats *st = hl_renderer_stats(r);
    hl_stage *s = NULL;
    HL_CHECK_OK(hl_stage_create(&s));
    if (!s) return;
    hl_stage_set_clear_color(s, (hl_color){0, 0, 0, 1});
    hl_camera *cam = front_camera(s);
    hl_geometry *g = skinned_quad();
    hl_material *red = basic(1, 0, 0, 1), *blue = basic(0, 0, 1, 1);
    hl_node *ja = NULL, *jb = NULL;
    HL_CHECK_OK(hl_node_create("joint a", &ja));
    HL_CHECK_OK(hl_node_create("joint b", &jb));
    HL_CHECK_OK(hl_stage_add(s, ja));
    HL_CHECK_OK(hl_stage_add(s, jb));
    hl_mesh *a = add_mesh(s, g, red, (hl_vec3){0, 0, 0});   /* node in view */
    hl_mesh *b = add_mesh(s, g, blue, (hl_vec3){20, 0, 0}); /* node out of view */
    if (!cam || !g || !a || !b) return;
    HL_CHECK_OK(hl_mesh_set_skin(a, &(hl_skin_desc){&ja, NULL, 1}));
    HL_CHECK_OK(hl_mesh_set_skin(b, &(hl_skin_desc){&jb, NULL, 1}));
    hl_node_set_translation(ja, (hl_vec3){10, 0, 0});  /* a posed out of view */
    hl_node_set_translation(jb, (hl_vec3){0.5f, 0, 0}); /* b posed into the right half */
    static uint8_t img[W * H * 4];
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    printf("skinned: draws %u visible %u culled %u\n", st->draws, st->meshes_visible, st->meshes_culled);
    HL_CHECK_EQ(st->draws, 1);
    HL_CHECK_EQ(st->meshes_visible, 1);
    HL_CHECK_EQ(st->meshes_culled, 1);
    HL_CHECK_OK(hl_renderer_read_pixels(r, img, sizeof img));
    HL_CHECK_PIXEL(img + ((size_t)16 * W + 24) * 4, 0, 0, 255, 255, 1);
    HL_CHECK_PIXEL(img + ((size_t)16 * W + 8) * 4, 0, 0, 0, 255, 1);
    HL_CHECK_EQ(count_colour(img, 255, 0, 0), 0);
    /* the bounds follow the joints: a posed into the left half, b out of view */
    hl_node_set_translation(ja, (hl_vec3){-0.5f, 0, 0});
    hl_node_set_translation(jb, (hl_vec3){0, 10, 0});
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_EQ(st->draws, 1);
    HL_CHECK_EQ(st->meshes_culled, 1);
    HL_CHECK_OK(hl_renderer_read_pixels(r, img, sizeof img));
    HL_CHECK_PIXEL(img + ((size_t)16 * W + 8) * 4, 255, 0, 0, 255, 1);
    HL_CHECK_PIXEL(img + ((size_t)16 * W + 24) * 4, 0, 0, 0, 255, 1);
    HL_CHECK_EQ(count_colour(img, 0, 0, 255), 0);
    hl_geometry_release(g);
    hl_material_release(red);
    hl_material_release(blue);
    hl_stage_destroy(s);
}

int main(int argc, char **argv) {
    hl_test_render_backend = backend_of(argc, argv);
    events ev = {0};
    hl_renderer_desc rd = {0};
    rd.backend = hl_test_render_backend;
    rd.width = W;
    rd.height = H;
    rd.sample_count = 1;
    rd.before_render = on_before;
    rd.after_render = on_after;
    rd.event_user = &ev;
    hl_renderer *r = NULL;
    HL_CHECK_OK(hl_renderer_create(&rd, &r));
    if (!r) return hl_test_finish();
    const hl_render_stats *st = hl_renderer_stats(r);
    hl_stage *s = NULL;
    HL_CHECK_OK(hl_stage_create(&s));
    hl_stage_set_clear_color(s, (hl_color){0, 0, 0, 1});
    hl_camera *cam = front_camera(s);
    hl_geometry *g = plane(1, 1);
    hl_material *mv = basic(1, 0.5f, 0, 1), *mc = basic(0, 0, 1, 1);
    add_mesh(s, g, mv, (hl_vec3){-0.5f, 0, 0});
    hl_mesh *hidden = add_mesh(s, g, mc, (hl_vec3){0.5f, 0, 10}); /* behind the camera (z = 5) */

    static uint8_t img[W * H * 4];
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    printf("culled case: draws %u visible %u culled %u\n", st->draws, st->meshes_visible, st->meshes_culled);
    HL_CHECK_EQ(st->draws, 1);
    HL_CHECK_EQ(st->meshes_visible, 1);
    HL_CHECK_EQ(st->meshes_culled, 1);
    HL_CHECK_EQ(st->frame_index, 1);
    HL_CHECK_EQ(st->passes, 1);
    HL_CHECK_OK(hl_renderer_read_pixels(r, img, sizeof img));
    HL_CHECK_PIXEL(img + ((size_t)16 * W + 8) * 4, 255, srgb_byte(0.5f), 0, 255, 1);
    HL_CHECK_PIXEL(img + ((size_t)16 * W + 24) * 4, 0, 0, 0, 255, 1);
    hl_node_set_translation(hl_mesh_node(hidden), (hl_vec3){0.5f, 0, 0});
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_EQ(st->draws, 2);
    HL_CHECK_EQ(st->meshes_culled, 0);
    HL_CHECK_OK(hl_renderer_read_pixels(r, img, sizeof img));
    HL_CHECK_PIXEL(img + ((size_t)16 * W + 24) * 4, 0, 0, 255, 255, 1);
    HL_CHECK_EQ(ev.before, 2);
    HL_CHECK_EQ(ev.after, 2);
    HL_CHECK_EQ(ev.last_after, 2);

    /* one frame, many passes */
    frame_ctx fc = {0};
    fc.s = s;
    fc.cam = cam;
    hl_render_target_desc td = {0};
    td.clear_color = (hl_color){0, 1, 0, 1};
    HL_CHECK_OK(hl_render_target_create(r, &td, &fc.t1));
    HL_CHECK_OK(hl_render_target_create(r, &td, &fc.t2));
    td.width = td.height = 8;
    HL_CHECK_OK(hl_render_target_create(r, &td, &fc.small));
    if (!fc.t1 || !fc.t2 || !fc.small) return hl_test_finish();
    /* the output first shows something else: clear it with the stage colour only */
    hl_node_set_visible(hl_stage_root(s), false);
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    hl_node_set_visible(hl_stage_root(s), true);
    uint64_t f0 = st->frame_index;
    int after0 = ev.after;
    HL_CHECK_OK(hl_renderer_render_frame(r, frame_fn, &fc));
    printf("render_frame: frame %llu passes %u draws %u\n", (unsigned long long)st->frame_index, st->passes, st->draws);
    HL_CHECK_EQ(st->frame_index, f0 + 1);
    HL_CHECK_EQ(st->passes, 3);
    HL_CHECK_EQ(st->draws, 4);
    HL_CHECK_EQ(ev.after, after0 + 1);
    HL_CHECK_EQ(ev.last_after, f0 + 1);
    HL_CHECK_OK(hl_renderer_read_pixels(r, img, sizeof img));
    HL_CHECK_PIXEL(img + ((size_t)16 * W + 8) * 4, 255, srgb_byte(0.5f), 0, 255, 1);
    HL_CHECK_PIXEL(img + ((size_t)16 * W + 24) * 4, 0, 0, 255, 255, 1);
    HL_CHECK_PIXEL(img + ((size_t)2 * W + 16) * 4, 0, 255, 0, 255, 1); /* t2's clear colour */

    /* failing frames: no after_render, no frame index */
    int before0 = ev.before;
    fc.mode = 1;
    HL_CHECK_RESULT(hl_renderer_render_frame(r, frame_fn, &fc), HL_ERR_VALIDATION);
    fc.mode = 2;
    HL_CHECK_RESULT(hl_renderer_render_frame(r, frame_fn, &fc), HL_ERR_VALIDATION);
    HL_CHECK_EQ(st->frame_index, f0 + 1);
    HL_CHECK_EQ(ev.after, after0 + 1);
    HL_CHECK_EQ(ev.before, before0 + 2);
    /* and the renderer still works */
    fc.mode = 0;
    HL_CHECK_OK(hl_renderer_render_frame(r, frame_fn, &fc));
    HL_CHECK_EQ(st->frame_index, f0 + 2);
    HL_CHECK_EQ(ev.after, after0 + 2);
    HL_CHECK_EQ(ev.last_after, f0 + 2);

    test_skinned_culling(r);

    hl_render_target_destroy(r, fc.t1);
    hl_render_target_destroy(r, fc.t2);
    hl_render_target_destroy(r, fc.small);
    hl_geometry_release(g);
    hl_material_release(mv);
    hl_material_release(mc);
    hl_stage_destroy(s);
    hl_renderer_destroy(r);
    return hl_test_finish();
}
