/* Renderer pixel test: render to texture, then use the result as a material map.
 *
 * Pass 1 renders scene A into a 64 x 64 RGBA8 sRGB target: the top half a basic quad of
 * linear colour TOP = (0.5, 0.1, 0.0), the bottom half BOTTOM = (0.0, 0.3, 0.7); readback of
 * the target gives TOP in row 0 (hl_render_target_read: row 0 = top).
 * Pass 2 renders scene B into the output (64 x 64): a basic quad filling the view with
 * hl_render_target_texture(t, 0) as its base-colour map (white colour factor).
 * Checks, +-2 per channel (sRGB encode -> sRGB decode in the sampler -> sRGB encode again,
 * each rounding to 8 bits, plus linear filtering exactly at texel centres):
 *   - the target itself: top (16 rows in) = sRGB(TOP), bottom = sRGB(BOTTOM);
 *   - the output: the same colours the same way up (TOP in the top half), on both backends;
 *   - the two passes again inside one hl_renderer_render_frame (target, then output): same;
 *   - after re-rendering the target with the colours swapped, the quad shows the new content
 *     (the scene texture always shows what the target holds);
 *   - the same after hl_render_target_resize (new attachments) and with a 4x MSAA target
 *     (the texture shows the resolved attachment). */
#include <math.h>
#include <stdlib.h>

#include "hilo3d/renderer.h"
#include "hl_test.h"
#include "hl_test_render.h"

enum { W = 64, H = 64 };

typedef struct two_scenes {
    hl_render_target *t;
    hl_stage *a, *b;
    hl_camera *ca, *cb;
} two_scenes;

static hl_result frame_fn(hl_render_frame *f, void *user) {
    two_scenes *ts = user;
    hl_result res = hl_render_frame_render_to_target(f, ts->t, ts->a, ts->ca);
    if (!res) res = hl_render_frame_render(f, ts->b, ts->cb);
    return res;
}

static void check_halves(const uint8_t *img, const int top[3], const int bottom[3], const char *what) {
    const uint8_t *pt = img + ((size_t)16 * W + 32) * 4, *pb = img + ((size_t)48 * W + 32) * 4;
    printf("%-24s top %3u %3u %3u  bottom %3u %3u %3u\n", what, pt[0], pt[1], pt[2], pb[0], pb[1], pb[2]);
    HL_CHECK_PIXEL(pt, top[0], top[1], top[2], 255, 2);
    HL_CHECK_PIXEL(pb, bottom[0], bottom[1], bottom[2], 255, 2);
}

int main(int argc, char **argv) {
    hl_test_render_backend = backend_of(argc, argv);
    hl_renderer *r = make_renderer(W, H, 1);
    if (!r) return hl_test_finish();
    two_scenes ts = {0};
    HL_CHECK_OK(hl_stage_create(&ts.a));
    HL_CHECK_OK(hl_stage_create(&ts.b));
    ts.ca = front_camera(ts.a);
    ts.cb = front_camera(ts.b);
    hl_geometry *half = plane(2, 1), *full = plane(2, 2);
    const float TOP[3] = {0.5f, 0.1f, 0.0f}, BOTTOM[3] = {0.0f, 0.3f, 0.7f};
    hl_material *mt = basic(TOP[0], TOP[1], TOP[2], 1), *mb = basic(BOTTOM[0], BOTTOM[1], BOTTOM[2], 1);
    hl_mesh *top = add_mesh(ts.a, half, mt, (hl_vec3){0, 0.5f, 0});
    hl_mesh *bottom = add_mesh(ts.a, half, mb, (hl_vec3){0, -0.5f, 0});

    hl_render_target_desc td = {0};
    td.label = "rtt";
    HL_CHECK_OK(hl_render_target_create(r, &td, &ts.t));
    if (!ts.t) return hl_test_finish();
    hl_texture *tex = hl_render_target_texture(ts.t, 0);
    HL_CHECK(tex != NULL);
    HL_CHECK(hl_render_target_texture(ts.t, 1) == NULL);
    hl_basic_material_desc bd = {0};
    bd.texture.texture = tex;
    hl_material *mq = NULL;
    HL_CHECK_OK(hl_material_create_basic(&bd, &mq));
    add_mesh(ts.b, full, mq, (hl_vec3){0, 0, 0});

    int top_b[3] = {srgb_byte(TOP[0]), srgb_byte(TOP[1]), srgb_byte(TOP[2])};
    int bot_b[3] = {srgb_byte(BOTTOM[0]), srgb_byte(BOTTOM[1]), srgb_byte(BOTTOM[2])};
    static uint8_t img[W * H * 4];
    HL_CHECK_OK(hl_renderer_render_to_target(r, ts.t, ts.a, ts.ca));
    HL_CHECK_OK(hl_render_target_read(r, ts.t, 0, img, sizeof img));
    check_halves(img, top_b, bot_b, "target");
    HL_CHECK_OK(hl_renderer_render(r, ts.b, ts.cb));
    HL_CHECK_OK(hl_renderer_read_pixels(r, img, sizeof img));
    hl_test_write_png(hl_test_render_backend == HL_BACKEND_GLES3 ? "px_render_rtt_gles3.png" : "px_render_rtt_webgpu.png", W, H, img);
    check_halves(img, top_b, bot_b, "output (separate frames)");

    /* swap the colours and do both passes in one frame */
    HL_CHECK_OK(hl_mesh_set_material(top, mb));
    HL_CHECK_OK(hl_mesh_set_material(bottom, mt));
    memset(img, 0, sizeof img);
    HL_CHECK_OK(hl_renderer_render_frame(r, frame_fn, &ts));
    HL_CHECK_EQ(hl_renderer_stats(r)->draws, 3);
    HL_CHECK_OK(hl_renderer_read_pixels(r, img, sizeof img));
    check_halves(img, bot_b, top_b, "output (one frame)");

    /* the target resized (new attachments): the scene texture follows */
    HL_CHECK_OK(hl_render_target_resize(r, ts.t, 16, 32));
    memset(img, 0, sizeof img);
    HL_CHECK_OK(hl_renderer_render_frame(r, frame_fn, &ts));
    HL_CHECK_OK(hl_renderer_read_pixels(r, img, sizeof img));
    check_halves(img, bot_b, top_b, "output (resized target)");

    /* a 4x MSAA target: the texture shows the resolved attachment */
    hl_render_target *ms = NULL;
    td.sample_count = 4;
    HL_CHECK_OK(hl_render_target_create(r, &td, &ms));
    if (ms) {
        HL_CHECK_OK(hl_material_set_texture(mq, HL_TEXTURE_BASE_COLOR, hl_render_target_texture(ms, 0), 0));
        hl_render_target *keep = ts.t;
        ts.t = ms;
        memset(img, 0, sizeof img);
        HL_CHECK_OK(hl_renderer_render_frame(r, frame_fn, &ts));
        HL_CHECK_OK(hl_renderer_read_pixels(r, img, sizeof img));
        check_halves(img, bot_b, top_b, "output (4x MSAA target)");
        ts.t = keep;
        HL_CHECK_OK(hl_material_set_texture(mq, HL_TEXTURE_BASE_COLOR, NULL, 0));
        hl_render_target_destroy(r, ms);
    }

    hl_render_target_destroy(r, ts.t);
    hl_geometry_release(half);
    hl_geometry_release(full);
    hl_material_release(mt);
    hl_material_release(mb);
    hl_material_release(mq);
    hl_stage_destroy(ts.a);
    hl_stage_destroy(ts.b);
    hl_renderer_destroy(r);
    return hl_test_finish();
}
