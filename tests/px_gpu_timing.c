/* GPU frame timing (hl_renderer_desc.gpu_timing, hl_render_stats.gpu_ns), on one backend per run.
 *
 * webgpu (an adapter with timestamp queries: lavapipe and NVIDIA have them): after a render and
 * hl_renderer_wait_idle, gpu_ns is positive and no longer than the wall time of that render
 * and wait; a frame of 60 blended full-target planes at 256x256 takes longer on the GPU than a
 * frame of one plane at 8x8; the images of a timed and an untimed renderer are identical
 * (the timestamp passes draw nothing); timed frames in steady state allocate nothing; a
 * renderer without gpu_timing reports 0. gles3: gpu_timing is ignored (gpu_ns stays 0), the
 * frames render as usual. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hilo3d/renderer.h"
#include "hilo3d/scene.h"
#include "hl_test.h"
#include "hl_test_render.h"

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static hl_renderer *renderer(uint32_t w, uint32_t h, bool timing) {
    hl_renderer_desc rd = {0};
    rd.backend = hl_test_render_backend;
    rd.width = w;
    rd.height = h;
    rd.sample_count = 1;
    rd.gpu_timing = timing;
    hl_renderer *r = NULL;
    HL_CHECK_OK(hl_renderer_create(&rd, &r));
    return r;
}

/* n planes filling the view, each blended at alpha 0.1, the farthest first */
static hl_stage *planes(uint32_t n, hl_camera **cam) {
    hl_stage *s = NULL;
    HL_CHECK_OK(hl_stage_create(&s));
    if (!s) return NULL;
    hl_geometry *g = plane(40.0f, 40.0f);
    for (uint32_t i = 0; i < n; i++) {
        hl_material *m = basic(0.2f + 0.01f * (float)(i % 50), 0.5f, 0.8f, 0.1f);
        add_mesh(s, g, m, (hl_vec3){0.0f, 0.0f, -0.01f * (float)i});
        hl_material_release(m);
    }
    hl_geometry_release(g);
    *cam = front_camera(s);
    return s;
}

/* Renders stage once and waits; the GPU time reported and the wall time of both calls. */
static uint64_t timed_frame(hl_renderer *r, hl_stage *s, hl_camera *c, uint64_t *wall) {
    uint64_t t0 = now_ns();
    HL_CHECK_OK(hl_renderer_render(r, s, c));
    HL_CHECK_OK(hl_renderer_wait_idle(r));
    *wall = now_ns() - t0;
    return hl_renderer_stats(r)->gpu_ns;
}

int main(int argc, char **argv) {
    bool webgpu = backend_of(argc, argv) == HL_BACKEND_WEBGPU;
    hl_camera *c_small = NULL, *c_big = NULL;
    hl_stage *small = planes(1, &c_small), *big = planes(60, &c_big);
    hl_renderer *r_small = renderer(8, 8, true), *r_big = renderer(256, 256, true), *r_off = renderer(256, 256, false);
    if (!small || !big || !r_small || !r_big || !r_off) return hl_test_finish();

    uint64_t wall = 0, light = 0, heavy = 0, w_light = 0, w_heavy = 0;
    for (int i = 0; i < 5; i++) { /* medians would hide nothing here: the lightest of five of each */
        uint64_t a = timed_frame(r_small, small, c_small, &wall);
        if (i == 0 || a < light) light = a, w_light = wall;
        uint64_t b = timed_frame(r_big, big, c_big, &wall);
        if (i == 0 || b < heavy) heavy = b, w_heavy = wall;
        HL_CHECK_MSG(a <= wall + 1000000u || !webgpu, "GPU time %llu ns within the wall time %llu ns (+1 ms clock slack)",
                 (unsigned long long)a, (unsigned long long)wall);
    }
    if (webgpu) {
        HL_CHECK_MSG(light > 0 && heavy > 0, "timed frames report a GPU time: light %llu ns, heavy %llu ns",
                 (unsigned long long)light, (unsigned long long)heavy);
        HL_CHECK_MSG(heavy > light, "60 blended 256x256 planes take longer than one 8x8 plane: %llu vs %llu ns",
                 (unsigned long long)heavy, (unsigned long long)light);
        HL_CHECK_MSG(heavy <= w_heavy + 1000000u, "heavy GPU time %llu ns <= its wall time %llu ns",
                 (unsigned long long)heavy, (unsigned long long)w_heavy);
        printf("gpu time: light %.3f ms (wall %.3f), heavy %.3f ms (wall %.3f)\n", (double)light / 1e6,
               (double)w_light / 1e6, (double)heavy / 1e6, (double)w_heavy / 1e6);
    } else {
        HL_CHECK_MSG(light == 0 && heavy == 0, "gles3 measures no GPU time (%llu, %llu)", (unsigned long long)light,
                 (unsigned long long)heavy);
    }

    /* the timestamp passes change no pixel */
    size_t n = 256u * 256u * 4u;
    uint8_t *a = malloc(n), *b = malloc(n);
    if (a && b && render_read(r_big, big, c_big, a, n) && render_read(r_off, big, c_big, b, n)) {
        HL_CHECK_MSG(memcmp(a, b, n) == 0, "a timed and an untimed renderer draw the same image");
        const uint8_t *px = a + (128u * 256u + 128u) * 4u;
        HL_CHECK_MSG(px[0] > 0 && px[1] > 0 && px[2] > px[0], "the planes drew at the centre: %u %u %u", px[0], px[1],
                     px[2]);
    }
    free(a);
    free(b);
    uint64_t w_off = 0;
    HL_CHECK_MSG(timed_frame(r_off, big, c_big, &w_off) == 0, "a renderer without gpu_timing reports 0");

    /* steady state: timed frames allocate nothing */
    for (int i = 0; i < 3; i++) timed_frame(r_big, big, c_big, &wall);
    uint64_t a0 = hl_alloc_count();
    for (int i = 0; i < 10; i++) {
        HL_CHECK_OK(hl_renderer_render(r_big, big, c_big));
        if (i % 3 == 2) HL_CHECK_OK(hl_renderer_wait_idle(r_big));
    }
    HL_CHECK_MSG(hl_alloc_count() == a0, "10 timed frames allocated %llu times", (unsigned long long)(hl_alloc_count() - a0));
    HL_CHECK_OK(hl_renderer_wait_idle(r_big));

    hl_renderer_destroy(r_small);
    hl_renderer_destroy(r_big);
    hl_renderer_destroy(r_off);
    hl_node_destroy(hl_camera_node(c_small));
    hl_node_destroy(hl_camera_node(c_big));
    hl_stage_destroy(small);
    hl_stage_destroy(big);
    return hl_test_finish();
}
