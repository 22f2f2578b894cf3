/* Parameter pools (hl_pipeline_param_pool), on one backend per run.
 *
 * A runtime acquires N slots per frame from its pool (N per frame: 3, 5, 2, 5, 5) and writes
 * into each the colour of a fullscreen pass it records into its own texture, the last one
 * copied out; the output's colour checks that the slot contents reach the frame (+-1).
 * - init runs only when the high water grows (3, then 5 in all), reset for every reused slot;
 * - slots are distinct within a frame, and the same addresses come back the next frame;
 * - steady frames (5 slots again) make no heap allocation;
 * - two invocations in one frame (hl_renderer_render_frame with two views) take distinct slots;
 * - a pool acquired from by one renderer's runtime refuses another renderer's (HL_ERR_VALIDATION),
 *   acquire outside record is HL_ERR_INVALID_STATE, a failing init fails the frame with its
 *   code, bad descriptions are refused; destroy runs fini once per slot. */
#include <stdlib.h>
#include <string.h>

#include "hilo3d/pipeline.h"
#include "hl_base.h"
#include "hl_test_render.h"

enum { W = 16, H = 16 };

typedef struct slot {
    float color[4];
    uint32_t magic;
} slot;

static int g_init, g_reset, g_fini;
static bool g_fail_init;
static hl_result slot_init(void *item, void *user) {
    (void)user;
    if (g_fail_init) return HL_ERR_IO;
    g_init++;
    ((slot *)item)->magic = 0x5107;
    return HL_OK;
}
static void slot_reset(void *item, void *user) {
    (void)user;
    g_reset++;
    memset(((slot *)item)->color, 0, sizeof(((slot *)item)->color));
}
static void slot_fini(void *item, void *user) {
    (void)user;
    g_fini += ((slot *)item)->magic == 0x5107;
}

typedef struct state {
    hl_pipeline_param_pool *pool;
    uint32_t n;           /* slots per invocation */
    void *seen[16];       /* slot addresses of the last frame, in order */
    uint32_t seen_count;
    bool distinct;
} state;

static hl_pipeline_param_pool *g_foreign; /* another runtime's pool, for the ownership check */
static hl_result g_foreign_res;

static const char *k_fs = "#version 300 es\nprecision highp float;\n"
                          "layout(std140) uniform Params { vec4 c; };\nout vec4 o;\nvoid main() { o = c; }\n";

static hl_result record(hl_pipeline_context ctx, void *user) {
    state *s = user;
    uint32_t inv = 0;
    hl_result res = hl_pipeline_context_invocation(ctx, &inv);
    if (!res && inv == 0) s->seen_count = 0;
    hl_pipeline_texture t, out;
    hl_pipeline_texture_desc td = {HL_PIPELINE_FORMAT_RGBA8_SRGB, 0, 0, 0, 0, "param", 1, 0};
    if (!res) res = hl_pipeline_create_texture(ctx, &td, &t);
    if (!res) res = hl_pipeline_output_texture(ctx, 0, &out);
    for (uint32_t i = 0; i < s->n && !res; i++) {
        void *p = NULL;
        res = hl_pipeline_acquire_params(ctx, s->pool, &p);
        if (res) break;
        for (uint32_t k = 0; k < s->seen_count; k++) s->distinct &= s->seen[k] != p;
        if (s->seen_count < 16) s->seen[s->seen_count++] = p;
        slot *sl = p;
        sl->color[0] = (float)i / 8.0f, sl->color[1] = 0.5f, sl->color[2] = 0.25f, sl->color[3] = 1.0f;
        hl_pipeline_fullscreen_pass_desc fp = {.name = "param", .fragment = k_fs, .params = sl->color,
                                               .params_size = sizeof sl->color, .output_count = 1, .outputs = {t}};
        res = hl_pipeline_add_fullscreen_pass(ctx, &fp);
    }
    if (!res) res = hl_pipeline_add_copy_pass(ctx, "out", t, out);
    if (g_foreign) {
        void *p = NULL;
        g_foreign_res = hl_pipeline_acquire_params(ctx, g_foreign, &p);
    }
    return res;
}

static void destroy(void *user) {
    state *s = user;
    hl_pipeline_param_pool_destroy(s->pool);
    free(s);
}

static state *g_last_state;
static hl_result create(const hl_pipeline_caps *caps, void *user, hl_pipeline_runtime **out) {
    (void)caps, (void)user;
    state *s = calloc(1, sizeof *s);
    if (!s) return HL_ERR_OUT_OF_MEMORY;
    hl_pipeline_param_pool_desc pd = {sizeof(slot), slot_init, slot_reset, slot_fini, NULL};
    hl_result res = hl_pipeline_param_pool_create(&pd, &s->pool);
    if (res) {
        free(s);
        return res;
    }
    g_last_state = s;
    hl_pipeline_runtime_desc d = {"params", s, record, destroy};
    return hl_pipeline_runtime_create(&d, out);
}

static hl_renderer *make(void) {
    static const hl_pipeline_factory f = {"params", NULL, create, NULL};
    return make_renderer_with(W, H, 1, &f);
}

static struct {
    hl_stage *stage;
    hl_camera *cam;
} g_two;

static hl_result two_views(hl_render_frame *f, void *user) {
    (void)user;
    hl_result res = hl_render_frame_render(f, g_two.stage, g_two.cam);
    if (!res) res = hl_render_frame_render(f, g_two.stage, g_two.cam);
    return res;
}

int main(int argc, char **argv) {
    backend_of(argc, argv);
    /* descriptions */
    hl_pipeline_param_pool *p = NULL;
    hl_pipeline_param_pool_desc bad = {0};
    HL_CHECK_RESULT(hl_pipeline_param_pool_create(&bad, &p), HL_ERR_VALIDATION);
    bad.item_size = HL_PIPELINE_PARAM_MAX_ITEM + 1;
    HL_CHECK_RESULT(hl_pipeline_param_pool_create(&bad, &p), HL_ERR_VALIDATION);
    HL_CHECK_RESULT(hl_pipeline_param_pool_create(NULL, &p), HL_ERR_VALIDATION);
    HL_CHECK(p == NULL);
    hl_pipeline_param_pool_destroy(NULL);
    HL_CHECK_EQ(hl_pipeline_param_pool_high_water(NULL), 0);

    hl_renderer *r = make();
    hl_stage *st = NULL;
    HL_CHECK_OK(hl_stage_create(&st));
    if (!r || !st) return hl_test_finish();
    hl_camera *cam = front_camera(st);
    state *s = g_last_state;
    void *outside = NULL;
    HL_CHECK_RESULT(hl_pipeline_acquire_params((hl_pipeline_context){12345}, s->pool, &outside), HL_ERR_INVALID_STATE);
    static uint8_t img[W * H * 4];
    const uint32_t per_frame[] = {3, 5, 2, 5, 5};
    const int want_init[] = {3, 5, 5, 5, 5}, want_reset[] = {0, 3, 5, 10, 15};
    void *first[16];
    uint32_t first_count = 0;
    for (int f = 0; f < 5; f++) {
        s->n = per_frame[f];
        s->distinct = true;
        uint64_t a0 = hl_alloc_count();
        HL_CHECK_OK(hl_renderer_render(r, st, cam));
        uint64_t a1 = hl_alloc_count();
        HL_CHECK_OK(hl_renderer_read_pixels(r, img, sizeof img));
        HL_CHECK_MSG(g_init == want_init[f] && g_reset == want_reset[f], "frame %d: init %d (want %d), reset %d (want %d)",
                     f, g_init, want_init[f], g_reset, want_reset[f]);
        HL_CHECK_MSG(s->distinct, "frame %d: a slot handed out twice", f);
        HL_CHECK_EQ(hl_pipeline_param_pool_high_water(s->pool), want_init[f]);
        /* the last pass wrote (n-1)/8, 0.5, 0.25 (linear, into sRGB) */
        HL_CHECK_PIXEL(img + (8 * W + 8) * 4, srgb_byte((float)(per_frame[f] - 1) / 8.0f), srgb_byte(0.5f),
                       srgb_byte(0.25f), 255, 1);
        if (f == 1) {
            memcpy(first, s->seen, sizeof first);
            first_count = s->seen_count;
        }
        if (f == 4) {
            HL_CHECK_MSG(a1 == a0, "steady frame: %llu heap allocations", (unsigned long long)(a1 - a0));
            HL_CHECK_EQ(s->seen_count, first_count);
            for (uint32_t k = 0; k < first_count && k < s->seen_count; k++)
                HL_CHECK_MSG(s->seen[k] == first[k], "slot %u: another address in a later frame", k);
        }
    }
    /* two invocations in one frame: distinct slots (2 x 4 = 8 > the high water 5: 3 more) */
    g_two.stage = st, g_two.cam = cam;
    s->n = 4;
    s->distinct = true;
    HL_CHECK_OK(hl_renderer_render_frame(r, two_views, &g_two));
    HL_CHECK(s->distinct);
    HL_CHECK_EQ(hl_pipeline_param_pool_high_water(s->pool), 8);
    /* another renderer's runtime may not take slots of this pool */
    hl_renderer *r2 = make();
    if (r2) {
        g_foreign = s->pool;
        state *s2 = g_last_state;
        s2->n = 1;
        HL_CHECK_OK(hl_renderer_render(r2, st, cam));
        HL_CHECK_EQ(g_foreign_res, HL_ERR_VALIDATION);
        g_foreign = NULL;
        /* a failing init fails the frame with its code */
        g_fail_init = true;
        s2->n = 3;
        HL_CHECK_RESULT(hl_renderer_render(r2, st, cam), HL_ERR_IO);
        g_fail_init = false;
        hl_renderer_destroy(r2);
    }
    int made = g_init;
    hl_renderer_destroy(r);
    HL_CHECK_MSG(g_fini == made, "fini ran %d times for %d slots", g_fini, made);
    hl_stage_destroy(st);
    return hl_test_finish();
}
