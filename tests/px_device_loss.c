/* Device loss and recovery (renderer.h, "Device loss"), on one backend per run. Every case
 * renders, loses the device through hl_renderer_simulate_device_loss (webgpu: the Dawn device is
 * destroyed; gles3: the EGL context and surface are destroyed; both noticed by the path a real
 * loss takes), renders again and compares: the image after recovery equals the image before
 * exactly (max difference 0: the same device kind, the same recipes, the same commands).
 *
 * - Scenes: the demo scene (forward, 4x MSAA, shadows, IBL, instancing, transparency) at
 *   160x90; the same at 1x and at 61x97; the deferred pipeline (hl_deferred); render-to-texture
 *   (a target drawn in the frame and sampled by the output's scene) with the target read too.
 * - hl_renderer_release_gpu_resources: the next frame rebuilds everything, same image; twice in a
 *   row; then a loss.
 * - While lost, a resize and a new target are kept and made at recovery (pixels checked +-1).
 * - Two renderers on one thread: the second draws the same image (exactly) while the first is
 *   lost and after it recovered; its generation and events are untouched.
 * - The gate: while lost, read_pixels, target reads and wait_idle are HL_ERR_DEVICE_LOST; events
 *   fire once per loss and once per recovery; stats count recoveries and the generation.
 * - Engine objects keep working: a material changed and a mesh added after the recovery show up.
 * - A replacement device smaller than the first (hl_rhi_set_test_caps_hook lowers a limit or
 *   drops a feature) fails recovery with HL_ERR_UNSUPPORTED naming it; the renderer stays lost
 *   and recovers once a full device comes back.
 * - Loss in the middle of a frame: inside hl_renderer_render_frame's callback between two render
 *   calls, and inside a scene pass's execute callback: that frame returns HL_ERR_DEVICE_LOST and
 *   commits nothing (its after_render event does not fire, the frame index does not advance);
 *   the next frame is correct.
 * - RHI: a handle made before the loss is stale after hl_rhi_device_recreate (refused as
 *   destroyed, never aliasing a new object); calls on the lost device are HL_ERR_DEVICE_LOST. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hilo3d/pipeline.h"
#include "hl_deferred.h"
#include "hl_rhi.h"
#include "hl_scene_demo.h"
#include "hl_test.h"
#include "hl_test_render.h"

typedef struct events {
    uint32_t lost, recovered, after;
    uint64_t lost_generation, recovered_generation;
} events;

static void on_lost(hl_renderer *r, uint64_t generation, const char *message, void *user) {
    (void)r;
    events *e = user;
    e->lost++;
    e->lost_generation = generation;
    printf("  device_lost (generation %llu): %s\n", (unsigned long long)generation, message);
}

static void on_recovered(hl_renderer *r, uint64_t generation, const char *message, void *user) {
    (void)r;
    events *e = user;
    e->recovered++;
    e->recovered_generation = generation;
    printf("  device_recovered (generation %llu): %s\n", (unsigned long long)generation, message);
}

static void on_after(hl_renderer *r, uint64_t frame, void *user) {
    (void)r;
    (void)frame;
    ((events *)user)->after++;
}

static hl_renderer *make(uint32_t w, uint32_t h, uint32_t samples, const hl_pipeline_factory *pipeline, events *ev) {
    hl_renderer_desc d = {0};
    d.backend = hl_test_render_backend;
    d.width = w;
    d.height = h;
    d.sample_count = samples;
    d.pipeline = pipeline;
    d.device_lost = on_lost;
    d.device_recovered = on_recovered;
    d.after_render = on_after;
    d.event_user = ev;
    hl_renderer *r = NULL;
    HL_CHECK_OK(hl_renderer_create(&d, &r));
    return r;
}

static int max_diff(const uint8_t *a, const uint8_t *b, size_t n) {
    int worst = 0;
    for (size_t i = 0; i < n; i++) {
        int d = abs((int)a[i] - (int)b[i]);
        if (d > worst) worst = d;
    }
    return worst;
}

static bool lit(const uint8_t *img, size_t n) {
    for (size_t i = 0; i < n; i += 4)
        if (img[i] | img[i + 1] | img[i + 2]) return true;
    return false;
}

/* Renders the demo with r before and after a loss (or a release): the images must be equal. */
static void demo_case(const char *name, uint32_t w, uint32_t h, uint32_t samples, const hl_pipeline_factory *pipeline,
                      bool release_only) {
    printf("%s: %ux%u, %ux\n", name, w, h, samples);
    events ev = {0};
    hl_renderer *r = make(w, h, samples, pipeline, &ev);
    hl_scene_demo demo;
    HL_CHECK_OK(hl_scene_demo_create((float)w / (float)h, &demo));
    size_t n = (size_t)w * h * 4;
    uint8_t *a = malloc(n), *b = malloc(n);
    if (!r || !a || !b || !demo.stage) goto out;
    HL_CHECK(render_read(r, demo.stage, demo.camera, a, n));
    HL_CHECK(lit(a, n));
    if (release_only) {
        HL_CHECK_OK(hl_renderer_release_gpu_resources(r));
        HL_CHECK_OK(hl_renderer_release_gpu_resources(r)); /* twice: nothing left to drop */
        HL_CHECK_EQ(hl_renderer_device_lost(r), false);
    } else {
        HL_CHECK_OK(hl_renderer_simulate_device_loss(r));
        HL_CHECK_EQ(hl_renderer_device_lost(r), true);
        HL_CHECK_EQ(ev.lost, 1u);
        HL_CHECK_EQ(ev.lost_generation, 1u);
        HL_CHECK_EQ(hl_renderer_read_pixels(r, b, n), HL_ERR_DEVICE_LOST);
        HL_CHECK_EQ(hl_renderer_wait_idle(r), HL_ERR_DEVICE_LOST);
        HL_CHECK_OK(hl_renderer_simulate_device_loss(r)); /* lost already: no second event */
        HL_CHECK_EQ(ev.lost, 1u);
    }
    memset(b, 0, n);
    HL_CHECK(render_read(r, demo.stage, demo.camera, b, n));
    int d = max_diff(a, b, n);
    printf("  after %s: max difference %d/255\n", release_only ? "the release" : "recovery", d);
    HL_CHECK_MSG(d == 0, "%s: the image after %s differs by %d/255", name, release_only ? "the release" : "recovery", d);
    const hl_render_stats *st = hl_renderer_stats(r);
    HL_CHECK_EQ(st->device_recoveries, release_only ? 0u : 1u);
    HL_CHECK_EQ(st->device_generation, release_only ? 1u : 2u);
    HL_CHECK_EQ(ev.recovered, release_only ? 0u : 1u);
    if (!release_only) HL_CHECK_EQ(ev.recovered_generation, 2u);
    /* a second loss on the new device, then a third frame */
    HL_CHECK_OK(hl_renderer_simulate_device_loss(r));
    memset(b, 0, n);
    HL_CHECK(render_read(r, demo.stage, demo.camera, b, n));
    d = max_diff(a, b, n);
    HL_CHECK_MSG(d == 0, "%s: the image after a further loss differs by %d/255", name, d);
    HL_CHECK_EQ(hl_renderer_stats(r)->device_generation, release_only ? 2u : 3u);
out:
    free(a);
    free(b);
    hl_renderer_destroy(r);
    hl_scene_demo_destroy(&demo);
}

/* ---- render to texture ------------------------------------------------------------------------------ */
typedef struct rtt {
    hl_render_target *t;
    hl_stage *a, *b;
    hl_camera *ca, *cb;
    hl_renderer *r;
    bool lose; /* lose the device between the two render calls */
    hl_result after_lose;
} rtt;

static hl_result rtt_frame(hl_render_frame *f, void *user) {
    rtt *s = user;
    hl_result res = hl_render_frame_render_to_target(f, s->t, s->a, s->ca);
    if (!res && s->lose) {
        s->after_lose = hl_renderer_simulate_device_loss(s->r);
        s->lose = false;
    }
    if (!res) res = hl_render_frame_render(f, s->b, s->cb);
    return res;
}

static void rtt_case(void) {
    enum { W = 64, H = 48 };
    printf("render to texture, loss between two render calls of one frame\n");
    events ev = {0};
    rtt s = {0};
    s.r = make(W, H, 4, NULL, &ev);
    HL_CHECK_OK(hl_stage_create(&s.a));
    HL_CHECK_OK(hl_stage_create(&s.b));
    if (!s.r || !s.a || !s.b) return;
    s.ca = front_camera(s.a);
    s.cb = front_camera(s.b);
    hl_geometry *half = plane(2, 1), *full = plane(2, 2);
    hl_material *mt = basic(0.8f, 0.2f, 0.1f, 1), *mb = basic(0.1f, 0.3f, 0.9f, 1);
    add_mesh(s.a, half, mt, (hl_vec3){0, 0.5f, 0});
    add_mesh(s.a, half, mb, (hl_vec3){0, -0.5f, 0});
    hl_render_target_desc td = {0};
    td.sample_count = 4;
    HL_CHECK_OK(hl_render_target_create(s.r, &td, &s.t));
    hl_basic_material_desc bd = {0};
    bd.texture.texture = hl_render_target_texture(s.t, 0);
    hl_material *mq = NULL;
    HL_CHECK_OK(hl_material_create_basic(&bd, &mq));
    hl_mesh *quad = add_mesh(s.b, full, mq, (hl_vec3){0, 0, 0});
    static uint8_t a[W * H * 4], b[W * H * 4], ta[W * H * 4], tb[W * H * 4];
    HL_CHECK_OK(hl_renderer_render_frame(s.r, rtt_frame, &s));
    HL_CHECK_OK(hl_renderer_read_pixels(s.r, a, sizeof a));
    HL_CHECK_OK(hl_render_target_read(s.r, s.t, 0, ta, sizeof ta));
    HL_CHECK(lit(a, sizeof a));
    uint64_t frames = hl_renderer_stats(s.r)->frame_index;
    uint32_t after = ev.after;
    /* the frame that loses the device between its render calls fails and commits nothing */
    s.lose = true;
    HL_CHECK_EQ(hl_renderer_render_frame(s.r, rtt_frame, &s), HL_ERR_DEVICE_LOST);
    HL_CHECK_OK(s.after_lose);
    HL_CHECK_EQ(ev.lost, 1u);
    HL_CHECK_EQ(ev.after, after);
    HL_CHECK_EQ(hl_renderer_stats(s.r)->frame_index, frames);
    HL_CHECK_EQ(hl_render_target_read(s.r, s.t, 0, tb, sizeof tb), HL_ERR_DEVICE_LOST);
    /* the next frame recovers and draws the same */
    HL_CHECK_OK(hl_renderer_render_frame(s.r, rtt_frame, &s));
    HL_CHECK_OK(hl_renderer_read_pixels(s.r, b, sizeof b));
    HL_CHECK_OK(hl_render_target_read(s.r, s.t, 0, tb, sizeof tb));
    int d = max_diff(a, b, sizeof a), dt = max_diff(ta, tb, sizeof ta);
    printf("  after recovery: output %d/255, target %d/255\n", d, dt);
    HL_CHECK_MSG(d == 0 && dt == 0, "render to texture after recovery: output %d/255, target %d/255", d, dt);
    HL_CHECK_EQ(ev.recovered, 1u);
    HL_CHECK_EQ(ev.after, after + 1);
    /* engine objects keep working: a material changed and a mesh added after the recovery */
    hl_material_set_color(mt, (hl_color){0.1f, 0.9f, 0.2f, 1});
    HL_CHECK_OK(hl_renderer_render_frame(s.r, rtt_frame, &s));
    HL_CHECK_OK(hl_renderer_read_pixels(s.r, b, sizeof b));
    const uint8_t *top = b + ((size_t)12 * W + 32) * 4;
    printf("  top after the colour change: %u %u %u\n", top[0], top[1], top[2]);
    HL_CHECK_PIXEL(top, srgb_byte(0.1f), srgb_byte(0.9f), srgb_byte(0.2f), 255, 2);
    hl_node_set_visible(hl_mesh_node(quad), false);
    hl_material *yellow = basic(1.0f, 1.0f, 0.0f, 1);
    add_mesh(s.b, full, yellow, (hl_vec3){0, 0, 0});
    HL_CHECK_OK(hl_renderer_render_frame(s.r, rtt_frame, &s));
    HL_CHECK_OK(hl_renderer_read_pixels(s.r, b, sizeof b));
    HL_CHECK_PIXEL(b + ((size_t)24 * W + 32) * 4, 255, 255, 0, 255, 0);
    hl_renderer_destroy(s.r);
    hl_stage_destroy(s.a);
    hl_stage_destroy(s.b);
    hl_material_release(yellow);
    hl_material_release(mq);
    hl_material_release(mt);
    hl_material_release(mb);
    hl_geometry_release(half);
    hl_geometry_release(full);
}

/* ---- loss inside a scene pass's execute callback --------------------------------------------------------- */
typedef struct exec_state {
    hl_renderer *r;
    bool lose;
    hl_result lose_result;
} exec_state;

static hl_result exec_cb(hl_pipeline_pass_encoder enc, void *user) {
    exec_state *s = user;
    if (s->lose) {
        s->lose = false;
        s->lose_result = hl_renderer_simulate_device_loss(s->r);
    }
    hl_result res = hl_pipeline_pass_draw_list(enc, 0);
    if (!res) res = hl_pipeline_pass_draw_list(enc, 1);
    return res;
}

static hl_result exec_record(hl_pipeline_context ctx, void *state) {
    hl_pipeline_culling c;
    hl_result res = hl_pipeline_cull(ctx, NULL, &c);
    if (!res) res = hl_pipeline_record_shadows(ctx, c);
    hl_pipeline_renderer_list lo, lt;
    if (!res) res = hl_test_forward_lists(ctx, c, &lo, &lt);
    if (res) return res;
    hl_pipeline_scene_pass_desc pd = {.name = "encoded", .list = lo, .execute = exec_cb, .user = state, .more_lists = {lt}};
    return hl_pipeline_add_scene_pass(ctx, &pd);
}

static void execute_case(void) {
    enum { W = 96, H = 64 };
    printf("loss inside a scene pass's execute callback (demo scene, a runtime of the pipeline API)\n");
    events ev = {0};
    exec_state st = {0};
    hl_test_runtime rt = {"loss-test", exec_record, &st};
    hl_pipeline_factory f;
    hl_test_runtime_factory(&rt, &f);
    st.r = make(W, H, 1, &f, &ev);
    hl_scene_demo demo;
    HL_CHECK_OK(hl_scene_demo_create((float)W / H, &demo));
    static uint8_t a[W * H * 4], b[W * H * 4];
    if (!st.r || !demo.stage) return;
    HL_CHECK(render_read(st.r, demo.stage, demo.camera, a, sizeof a));
    uint64_t frames = hl_renderer_stats(st.r)->frame_index;
    st.lose = true;
    HL_CHECK_EQ(hl_renderer_render(st.r, demo.stage, demo.camera), HL_ERR_DEVICE_LOST);
    printf("  the frame: %s\n", hl_last_error());
    HL_CHECK_OK(st.lose_result);
    HL_CHECK_EQ(ev.lost, 1u);
    HL_CHECK_EQ(hl_renderer_stats(st.r)->frame_index, frames);
    HL_CHECK(render_read(st.r, demo.stage, demo.camera, b, sizeof b));
    int d = max_diff(a, b, sizeof a);
    printf("  after recovery: %d/255\n", d);
    HL_CHECK_MSG(d == 0, "execute-callback loss: the image after recovery differs by %d/255", d);
    HL_CHECK_EQ(ev.recovered, 1u);
    hl_renderer_destroy(st.r);
    hl_scene_demo_destroy(&demo);
}

/* ---- a smaller replacement device ------------------------------------------------------------------------- */
static int g_shrink; /* 1: lower max_texture_dimension_2d; 2: drop features */
static void shrink(hl_rhi_caps *caps) {
    if (g_shrink == 1) caps->limits.max_texture_dimension_2d /= 2;
    if (g_shrink == 2) caps->features = 0;
}

static void smaller_device_case(void) {
    enum { W = 48, H = 32 };
    printf("a smaller replacement device fails recovery\n");
    events ev = {0};
    hl_renderer *r = make(W, H, 4, NULL, &ev);
    hl_scene_demo demo;
    HL_CHECK_OK(hl_scene_demo_create((float)W / H, &demo));
    static uint8_t a[W * H * 4], b[W * H * 4];
    if (!r || !demo.stage) return;
    HL_CHECK(render_read(r, demo.stage, demo.camera, a, sizeof a));
    uint32_t features = 0;
    {
        hl_rhi_device *dev = NULL;
        hl_rhi_device_desc dd = {0};
        dd.backend = hl_test_render_backend == HL_BACKEND_GLES3 ? HL_RHI_BACKEND_GLES3 : HL_RHI_BACKEND_WEBGPU;
        if (!hl_rhi_device_create(&dd, &dev)) features = hl_rhi_device_caps(dev)->features;
        hl_rhi_device_destroy(dev);
    }
    HL_CHECK_OK(hl_renderer_simulate_device_loss(r));
    hl_rhi_set_test_caps_hook(shrink);
    g_shrink = 1;
    hl_result res = hl_renderer_render(r, demo.stage, demo.camera);
    printf("  lower limit: %s\n", hl_last_error());
    HL_CHECK_EQ(res, HL_ERR_UNSUPPORTED);
    HL_CHECK(strstr(hl_last_error(), "max_texture_dimension_2d") != NULL);
    HL_CHECK_EQ(hl_renderer_device_lost(r), true);
    HL_CHECK_EQ(hl_renderer_read_pixels(r, b, sizeof b), HL_ERR_DEVICE_LOST);
    if (features) {
        g_shrink = 2;
        res = hl_renderer_recover(r);
        printf("  fewer features: %s\n", hl_last_error());
        HL_CHECK_EQ(res, HL_ERR_UNSUPPORTED);
        HL_CHECK(strstr(hl_last_error(), "feature") != NULL);
    }
    HL_CHECK_EQ(ev.recovered, 0u);
    g_shrink = 0;
    hl_rhi_set_test_caps_hook(NULL);
    HL_CHECK(render_read(r, demo.stage, demo.camera, b, sizeof b));
    int d = max_diff(a, b, sizeof a);
    HL_CHECK_MSG(d == 0, "after the full device came back: %d/255", d);
    HL_CHECK_EQ(ev.lost, 1u);
    HL_CHECK_EQ(ev.recovered, 1u);
    hl_renderer_destroy(r);
    hl_scene_demo_destroy(&demo);
}

/* ---- calls while lost: sizes and targets are kept and made when the device is back ---------------- */
static void while_lost_case(void) {
    printf("resize and target creation while lost\n");
    events ev = {0};
    hl_renderer *r = make(32, 32, 4, NULL, &ev);
    hl_stage *s = NULL;
    HL_CHECK_OK(hl_stage_create(&s));
    if (!r || !s) return;
    hl_camera *cam = front_camera(s);
    hl_geometry *g = plane(2, 2);
    hl_material *m = basic(0.2f, 0.6f, 0.4f, 1);
    add_mesh(s, g, m, (hl_vec3){0, 0, 0});
    hl_geometry_release(g);
    hl_material_release(m);
    static uint8_t img[40 * 24 * 4];
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_OK(hl_renderer_simulate_device_loss(r));
    HL_CHECK_OK(hl_renderer_resize(r, 40, 24));
    hl_render_target *t = NULL;
    hl_render_target_desc td = {0};
    td.width = td.height = 16;
    HL_CHECK_OK(hl_render_target_create(r, &td, &t));
    HL_CHECK(hl_render_target_texture(t, 0) != NULL);
    HL_CHECK_EQ(hl_render_target_read(r, t, 0, img, sizeof img), HL_ERR_DEVICE_LOST);
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_OK(hl_renderer_read_pixels(r, img, 40 * 24 * 4));
    HL_CHECK_PIXEL(img + ((size_t)12 * 40 + 20) * 4, srgb_byte(0.2f), srgb_byte(0.6f), srgb_byte(0.4f), 255, 1);
    HL_CHECK_PIXEL(img + ((size_t)23 * 40 + 39) * 4, srgb_byte(0.2f), srgb_byte(0.6f), srgb_byte(0.4f), 255, 1);
    if (t) {
        HL_CHECK_OK(hl_renderer_render_to_target(r, t, s, cam));
        HL_CHECK_OK(hl_render_target_read(r, t, 0, img, 16 * 16 * 4));
        HL_CHECK_PIXEL(img + ((size_t)8 * 16 + 8) * 4, srgb_byte(0.2f), srgb_byte(0.6f), srgb_byte(0.4f), 255, 1);
    }
    HL_CHECK_EQ(ev.recovered, 1u);
    /* a renderer destroyed while lost (nothing recovered) releases everything */
    HL_CHECK_OK(hl_renderer_simulate_device_loss(r));
    hl_renderer_destroy(r);
    hl_stage_destroy(s);
}

/* ---- a second renderer on the same thread is not touched by the first one's loss --------------- */
static void two_renderers_case(void) {
    enum { W = 80, H = 45 };
    printf("two renderers on one thread, one loses its device\n");
    events ev1 = {0}, ev2 = {0};
    hl_renderer *r1 = make(W, H, 4, NULL, &ev1), *r2 = make(W, H, 1, NULL, &ev2);
    hl_scene_demo demo;
    HL_CHECK_OK(hl_scene_demo_create((float)W / H, &demo));
    static uint8_t a1[W * H * 4], a2[W * H * 4], b[W * H * 4];
    if (r1 && r2 && demo.stage) {
        HL_CHECK(render_read(r1, demo.stage, demo.camera, a1, sizeof a1));
        HL_CHECK(render_read(r2, demo.stage, demo.camera, a2, sizeof a2));
        HL_CHECK_OK(hl_renderer_simulate_device_loss(r1));
        /* r2 (its context made current after r1's went) draws the same while r1 is lost */
        HL_CHECK(render_read(r2, demo.stage, demo.camera, b, sizeof b));
        HL_CHECK_MSG(max_diff(a2, b, sizeof b) == 0, "the second renderer during the first one's loss: %d/255",
                     max_diff(a2, b, sizeof b));
        HL_CHECK(render_read(r1, demo.stage, demo.camera, b, sizeof b));
        HL_CHECK_MSG(max_diff(a1, b, sizeof b) == 0, "the lost renderer after recovery: %d/255", max_diff(a1, b, sizeof b));
        HL_CHECK(render_read(r2, demo.stage, demo.camera, b, sizeof b));
        HL_CHECK_MSG(max_diff(a2, b, sizeof b) == 0, "the second renderer after the first one's recovery: %d/255",
                     max_diff(a2, b, sizeof b));
        HL_CHECK_EQ(ev1.lost, 1u);
        HL_CHECK_EQ(ev1.recovered, 1u);
        HL_CHECK_EQ(ev2.lost, 0u);
        HL_CHECK_EQ(hl_renderer_stats(r2)->device_generation, 1u);
    }
    hl_renderer_destroy(r1);
    hl_renderer_destroy(r2);
    hl_scene_demo_destroy(&demo);
}

/* ---- RHI handles ------------------------------------------------------------------------------------------ */
static void rhi_case(void) {
    printf("RHI: stale handles after recreate\n");
    hl_rhi_device *dev = NULL;
    hl_rhi_device_desc dd = {0};
    dd.backend = hl_test_render_backend == HL_BACKEND_GLES3 ? HL_RHI_BACKEND_GLES3 : HL_RHI_BACKEND_WEBGPU;
    HL_CHECK_OK(hl_rhi_device_create(&dd, &dev));
    if (!dev) return;
    HL_CHECK_EQ(hl_rhi_device_generation(dev), 1u);
    const uint32_t data[4] = {1, 2, 3, 4};
    hl_rhi_buffer_desc bd = {sizeof data, HL_RHI_BUFFER_USAGE_COPY_SRC | HL_RHI_BUFFER_USAGE_COPY_DST, data, "old"};
    hl_rhi_buffer old = {0};
    HL_CHECK_OK(hl_rhi_buffer_create(dev, &bd, &old));
    HL_CHECK_OK(hl_rhi_device_simulate_loss(dev));
    HL_CHECK_EQ(hl_rhi_device_is_lost(dev), true);
    HL_CHECK_EQ(hl_rhi_buffer_write(dev, old, 0, data, sizeof data), HL_ERR_DEVICE_LOST);
    hl_rhi_buffer nb = {0};
    HL_CHECK_EQ(hl_rhi_buffer_create(dev, &bd, &nb), HL_ERR_DEVICE_LOST);
    HL_CHECK_OK(hl_rhi_device_recreate(dev));
    HL_CHECK_EQ(hl_rhi_device_is_lost(dev), false);
    HL_CHECK_EQ(hl_rhi_device_generation(dev), 2u);
    /* the old handle is stale, also once new objects fill the pool */
    hl_rhi_buffer fresh[8];
    for (int i = 0; i < 8; i++) HL_CHECK_OK(hl_rhi_buffer_create(dev, &bd, &fresh[i]));
    for (int i = 0; i < 8; i++) HL_CHECK(fresh[i].id != old.id);
    hl_result res = hl_rhi_buffer_write(dev, old, 0, data, sizeof data);
    printf("  the old handle: %s\n", hl_last_error());
    HL_CHECK_EQ(res, HL_ERR_VALIDATION);
    uint32_t back[4] = {0};
    HL_CHECK_OK(hl_rhi_buffer_read(dev, fresh[7], 0, back, sizeof back));
    HL_CHECK(memcmp(back, data, sizeof data) == 0);
    hl_rhi_buffer_destroy(dev, old); /* a stale destroy does nothing */
    HL_CHECK_OK(hl_rhi_buffer_read(dev, fresh[7], 0, back, sizeof back));
    hl_rhi_device_destroy(dev);
}

int main(int argc, char **argv) {
    hl_test_render_backend = backend_of(argc, argv);
    demo_case("demo, forward", 160, 90, 4, NULL, false);
    demo_case("demo, forward", 61, 97, 1, NULL, false);
    demo_case("demo, release_gpu_resources", 160, 90, 4, NULL, true);
    hl_pipeline_factory *deferred = NULL;
    HL_CHECK_OK(hl_deferred_pipeline_factory_create(NULL, &deferred));
    if (deferred) demo_case("demo, deferred pipeline", 128, 72, 1, deferred, false);
    hl_deferred_pipeline_factory_destroy(deferred);
    rtt_case();
    execute_case();
    smaller_device_case();
    while_lost_case();
    two_renderers_case();
    rhi_case();
    return hl_test_finish();
}
