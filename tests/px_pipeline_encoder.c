/* Scene passes with an execute callback (hl_pipeline_pass_* encoders), on one backend per run.
 *
 * - Split: one scene pass draws the demo's opaque and transparent lists twice, with the viewport
 *   on the left and then the right half of a 64x40 output: each half equals the direct
 *   recorder's 32x40 image of the same camera (+-1), so the viewport's origin is the top left
 *   on both backends; the draw count is twice the direct one.
 * - Scissor: the lists drawn over the whole output with the scissor on the top 20 rows: those
 *   rows equal the direct 64x40 image (+-1), the rest keep the clear colour exactly.
 * - Misuse: a viewport or scissor outside the attachments, an unknown slot (HL_ERR_VALIDATION,
 *   the frame goes on when the callback ignores them); the encoder kept and used after its
 *   callback (HL_ERR_INVALID_STATE); more_lists of another culling result or without execute
 *   (refused when the pass is added); a nested render and a resize from inside the callback
 *   (HL_ERR_INVALID_STATE); a callback returning an error fails the frame, with its message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hilo3d/pipeline.h"
#include "hl_scene_demo.h"
#include "hl_test.h"
#include "hl_test_render.h"

typedef enum mode { M_SPLIT, M_SCISSOR, M_MISUSE, M_FAIL } mode;

typedef struct enc_test {
    mode m;
    uint32_t w, h;
    hl_pipeline_pass_encoder kept;
    hl_result misuse[8];
    hl_renderer *r; /* M_MISUSE: calls that would poison the frame, from inside execute */
    hl_stage *stage;
    hl_camera *camera;
} enc_test;

static hl_result execute_cb(hl_pipeline_pass_encoder enc, void *user) {
    enc_test *t = user;
    hl_result res = HL_OK;
    switch (t->m) {
    case M_SPLIT:
        for (uint32_t half = 0; half < 2 && !res; half++) {
            res = hl_pipeline_pass_set_viewport(enc, (float)(half * t->w / 2), 0.0f, (float)(t->w / 2), (float)t->h);
            if (!res) res = hl_pipeline_pass_draw_list(enc, 0);
            if (!res) res = hl_pipeline_pass_draw_list(enc, 1);
        }
        return res;
    case M_SCISSOR:
        res = hl_pipeline_pass_set_scissor(enc, 0, 0, t->w, t->h / 2);
        if (!res) res = hl_pipeline_pass_set_stencil_reference(enc, 1);
        if (!res) res = hl_pipeline_pass_draw_list(enc, 0);
        if (!res) res = hl_pipeline_pass_draw_list(enc, 1);
        return res;
    case M_MISUSE:
        t->misuse[0] = hl_pipeline_pass_set_viewport(enc, 1.0f, 0.0f, (float)t->w, (float)t->h);
        t->misuse[1] = hl_pipeline_pass_set_scissor(enc, t->w, 0, 1, 1);
        t->misuse[2] = hl_pipeline_pass_draw_list(enc, 2);
        t->misuse[3] = hl_pipeline_pass_set_viewport(enc, 0.0f, 0.0f, 0.0f, 1.0f);
        if (t->r) {
            t->misuse[6] = hl_renderer_render(t->r, t->stage, t->camera);
            t->misuse[7] = hl_renderer_resize(t->r, 16, 16);
        }
        t->kept = enc;
        return hl_pipeline_pass_draw_list(enc, 0);
    case M_FAIL: return HL_ERR_VALIDATION; /* no message of its own: the engine names the pass */
    }
    return res;
}

static hl_result enc_record(hl_pipeline_context ctx, void *state) {
    enc_test *t = state;
    if (t->m == M_MISUSE && t->kept.token) /* the encoder of the last frame's callback */
        t->misuse[4] = hl_pipeline_pass_draw_list(t->kept, 0);
    hl_pipeline_culling c, other;
    hl_result res = hl_pipeline_cull(ctx, NULL, &c);
    if (!res) res = hl_pipeline_record_shadows(ctx, c);
    hl_pipeline_renderer_list lo, lt;
    if (!res) res = hl_test_forward_lists(ctx, c, &lo, &lt);
    if (res) return res;
    hl_pipeline_scene_pass_desc pd = {.name = "encoded", .list = lo, .execute = execute_cb, .user = t, .more_lists = {lt}};
    if (t->m == M_MISUSE) {
        /* refused when added: a list of another culling result; more_lists without execute */
        hl_pipeline_cull_desc cd = {.color_count = 1, .color_formats = {HL_PIPELINE_FORMAT_RGBA8}};
        hl_pipeline_renderer_list lx;
        hl_pipeline_renderer_list_desc ld = {.queue = HL_PIPELINE_QUEUE_OPAQUE};
        res = hl_pipeline_cull(ctx, &cd, &other);
        ld.culling = other;
        if (!res) res = hl_pipeline_create_renderer_list(ctx, &ld, &lx);
        if (res) return res;
        hl_pipeline_scene_pass_desc bad = pd;
        bad.more_lists[0] = lx;
        t->misuse[5] = hl_pipeline_add_scene_pass(ctx, &bad);
        bad = pd;
        bad.execute = NULL;
        hl_result r2 = hl_pipeline_add_scene_pass(ctx, &bad);
        if (t->misuse[5] == HL_ERR_VALIDATION && r2 != HL_ERR_VALIDATION) t->misuse[5] = r2 ? r2 : HL_ERR_INVALID_STATE; /* accepted: wrong */
    }
    return hl_pipeline_add_scene_pass(ctx, &pd);
}

static hl_renderer *make(hl_backend be, uint32_t w, uint32_t h, enc_test *t) {
    hl_test_render_backend = be;
    hl_test_runtime rt = {"encoder-test", enc_record, t};
    hl_pipeline_factory f;
    hl_test_runtime_factory(&rt, &f);
    return make_renderer_with(w, h, 1, t ? &f : NULL); /* single-sample: the scenes compare like with like */
}

/* worst channel difference of rows y0..y1-1, columns x0..x0+w-1 of a (stride aw) against b (stride bw, column bx0) */
static int region_diff(const uint8_t *a, uint32_t aw, uint32_t x0, const uint8_t *b, uint32_t bw, uint32_t bx0, uint32_t w,
                       uint32_t y0, uint32_t y1) {
    int worst = 0;
    for (uint32_t y = y0; y < y1; y++)
        for (uint32_t x = 0; x < w; x++)
            for (int c = 0; c < 4; c++) {
                int d = abs(a[((size_t)y * aw + x0 + x) * 4 + c] - b[((size_t)y * bw + bx0 + x) * 4 + c]);
                if (d > worst) worst = d;
            }
    return worst;
}

static void test_split(hl_backend be) {
    const uint32_t w = 64, h = 40;
    hl_scene_demo demo;
    HL_CHECK_OK(hl_scene_demo_create((float)(w / 2) / (float)h, &demo));
    enc_test t = {.m = M_SPLIT, .w = w, .h = h};
    hl_renderer *direct = make(be, w / 2, h, NULL), *r = make(be, w, h, &t);
    uint8_t *a = malloc((size_t)w / 2 * h * 4), *b = malloc((size_t)w * h * 4);
    if (direct && r && demo.stage && a && b) {
        render_read(direct, demo.stage, demo.camera, a, (size_t)w / 2 * h * 4);
        render_read(r, demo.stage, demo.camera, b, (size_t)w * h * 4);
        int left = region_diff(b, w, 0, a, w / 2, 0, w / 2, 0, h), right = region_diff(b, w, w / 2, a, w / 2, 0, w / 2, 0, h);
        HL_CHECK_MSG(left <= 1 && right <= 1, "split viewports vs the direct 32x40 image: left %d/255, right %d/255", left,
                     right);
        HL_CHECK_EQ(hl_renderer_stats(r)->draws, 2 * hl_renderer_stats(direct)->draws);
    }
    free(a);
    free(b);
    hl_renderer_destroy(r);
    hl_renderer_destroy(direct);
    hl_scene_demo_destroy(&demo);
}

static void test_scissor(hl_backend be) {
    const uint32_t w = 64, h = 40;
    hl_scene_demo demo;
    HL_CHECK_OK(hl_scene_demo_create((float)w / (float)h, &demo));
    enc_test t = {.m = M_SCISSOR, .w = w, .h = h};
    hl_renderer *direct = make(be, w, h, NULL), *r = make(be, w, h, &t);
    size_t n = (size_t)w * h * 4;
    uint8_t *a = malloc(n), *b = malloc(n);
    if (direct && r && demo.stage && a && b) {
        render_read(direct, demo.stage, demo.camera, a, n);
        render_read(r, demo.stage, demo.camera, b, n);
        int top = region_diff(b, w, 0, a, w, 0, w, 0, h / 2);
        HL_CHECK_MSG(top <= 1, "scissored top half vs the direct image: %d/255", top);
        /* the bottom half: the clear colour (sRGB encode of the stage's linear clear colour) */
        uint8_t clear[4];
        memcpy(clear, b + ((size_t)(h - 1) * w) * 4, 4);
        int off = 0;
        for (uint32_t y = h / 2; y < h; y++)
            for (uint32_t x = 0; x < w; x++)
                off += memcmp(b + ((size_t)y * w + x) * 4, clear, 4) != 0;
        HL_CHECK_MSG(off == 0, "scissor: %d pixels of the bottom half drawn", off);
        /* ... the colour an empty stage of the same clear colour renders */
        hl_stage *empty = NULL;
        HL_CHECK_OK(hl_stage_create(&empty));
        if (empty) {
            hl_stage_set_clear_color(empty, hl_stage_clear_color(demo.stage));
            render_read(direct, empty, demo.camera, a, n);
            int d = region_diff(b, w, 0, a, w, 0, w, h / 2, h);
            HL_CHECK_MSG(d <= 1, "scissor: the bottom half is not the clear colour (%d/255)", d);
        }
        hl_stage_destroy(empty);
    }
    free(a);
    free(b);
    hl_renderer_destroy(r);
    hl_renderer_destroy(direct);
    hl_scene_demo_destroy(&demo);
}

static void test_misuse(hl_backend be) {
    hl_scene_demo demo;
    HL_CHECK_OK(hl_scene_demo_create(1.0f, &demo));
    enc_test t = {.m = M_MISUSE, .w = 32, .h = 32};
    hl_renderer *r = make(be, 32, 32, &t);
    t.r = r, t.stage = demo.stage, t.camera = demo.camera;
    if (r && demo.stage) {
        HL_CHECK_OK(hl_renderer_render(r, demo.stage, demo.camera));
        HL_CHECK_RESULT(t.misuse[6], HL_ERR_INVALID_STATE); /* a nested render */
        HL_CHECK_RESULT(t.misuse[7], HL_ERR_INVALID_STATE); /* a resize */
        HL_CHECK_RESULT(t.misuse[0], HL_ERR_VALIDATION);
        HL_CHECK_RESULT(t.misuse[1], HL_ERR_VALIDATION);
        HL_CHECK_RESULT(t.misuse[2], HL_ERR_VALIDATION);
        HL_CHECK_RESULT(t.misuse[3], HL_ERR_VALIDATION);
        HL_CHECK_RESULT(t.misuse[5], HL_ERR_VALIDATION);
        HL_CHECK_OK(hl_renderer_render(r, demo.stage, demo.camera));
        HL_CHECK_RESULT(t.misuse[4], HL_ERR_INVALID_STATE);
        HL_CHECK_RESULT(hl_pipeline_pass_draw_list(t.kept, 0), HL_ERR_INVALID_STATE); /* outside any frame */
        t.m = M_FAIL;
        HL_CHECK_RESULT(hl_renderer_render(r, demo.stage, demo.camera), HL_ERR_VALIDATION);
        HL_CHECK_MSG(strstr(hl_last_error(), "pipeline 'encoder-test': execute of pass 'encoded' failed") != NULL,
                     "the pipeline, stage and pass are named: %s", hl_last_error());
        t.m = M_SPLIT; /* the renderer goes on */
        HL_CHECK_OK(hl_renderer_render(r, demo.stage, demo.camera));
    }
    hl_renderer_destroy(r);
    hl_scene_demo_destroy(&demo);
}

int main(int argc, char **argv) {
    hl_backend be = hl_test_backend_arg(argc, argv, HL_RHI_BACKEND_WEBGPU) == HL_RHI_BACKEND_GLES3 ? HL_BACKEND_GLES3
                                                                                                : HL_BACKEND_WEBGPU;
    test_split(be);
    test_scissor(be);
    test_misuse(be);
    return hl_test_finish();
}
