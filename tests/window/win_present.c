/* Window test (renderer): hl_renderer_present into an X11 window, on each backend (run under
 * xvfb_run.sh). The window must show exactly what hl_renderer_read_pixels reads (X screenshot,
 * every channel equal) after:
 * - the first frame, and a few more (steady presents allocate nothing);
 * - an output resized without its window (gles3: the surface is outdated, the present shows
 *   nothing and succeeds, presents_skipped counts it; webgpu's driver takes it), then the window
 *   resized to match (within 6 frames: with lavapipe's swapchain under load a present or two
 *   after the resize did not show);
 * - a forced OUTDATED acquire (the renderer configures again and acquires once more: no frame
 *   lost), a forced TIMEOUT (skipped), a forced LOST (skipped, the surface made again by the next
 *   present);
 * - a device loss (the surface is made and configured again at recovery) and
 *   hl_renderer_release_gpu_resources.
 * Also: a renderer without a window refuses present (HL_ERR_INVALID_STATE), bad window
 * descriptions are HL_ERR_VALIDATION (the browser's HL_WINDOW_CANVAS: HL_ERR_UNSUPPORTED natively),
 * present inside hl_renderer_render_frame is refused, vsync (FIFO) by default and IMMEDIATE
 * with no_vsync where offered. */
#include <stdlib.h>
#include <time.h>

#include "hilo3d/pipeline.h"
#include "hl_scene_demo.h"
#include "hl_test.h"
#include "hl_test_window.h"
#include "render_internal.h"

static hl_backend backend_of(hl_rhi_backend b) { return b == HL_RHI_BACKEND_WEBGPU ? HL_BACKEND_WEBGPU : HL_BACKEND_GLES3; }

/* Pixels of the window that differ from the output (any channel), waiting up to tries * 50 ms
 * for the frame to arrive (a swapchain may present from a queue of its own). */
static uint32_t window_vs_output(hl_renderer *r, hl_test_window *w, int tries) {
    uint32_t ow, oh;
    hl_renderer_size(r, &ow, &oh);
    if (ow != w->width || oh != w->height) return UINT32_MAX;
    size_t n = (size_t)ow * oh * 4;
    uint8_t *out = malloc(n), *win = malloc(n);
    uint32_t bad = UINT32_MAX;
    if (out && win && !hl_renderer_read_pixels(r, out, n)) {
        for (int t = 0; t < tries && bad; t++) {
            if (t) {
                struct timespec ts = {0, 50 * 1000 * 1000};
                nanosleep(&ts, NULL);
            }
            if (!hl_test_window_read(w, win)) break;
            bad = 0;
            for (size_t i = 0; i < (size_t)ow * oh; i++)
                bad += out[i * 4] != win[i * 4] || out[i * 4 + 1] != win[i * 4 + 1] || out[i * 4 + 2] != win[i * 4 + 2];
        }
        if (bad && getenv("HL_TEST_DUMP")) {
            hl_test_write_png("/tmp/win_present_out.png", ow, oh, out);
            hl_test_write_png("/tmp/win_present_win.png", ow, oh, win);
        }
    }
    free(out);
    free(win);
    return bad;
}

/* Renders and presents one frame, then the window must show the output (within 2 s). */
static void frame(hl_renderer *r, hl_scene_demo *demo, hl_test_window *w, const char *what) {
    HL_CHECK_OK(hl_renderer_render(r, demo->stage, demo->camera));
    HL_CHECK_OK(hl_renderer_present(r));
    HL_CHECK_OK(hl_renderer_wait_idle(r));
    uint32_t bad = window_vs_output(r, w, 40);
    HL_CHECK_MSG(bad == 0, "%s: %u window pixels differ from the output", what, bad);
}

/* After the window's resize, with lavapipe's X11 swapchain under load, a present or two did not
 * show at all (seen next to other window tests; its size no longer matched the window's until
 * the swapchain caught up). So frames are presented until the window shows the output, at most
 * 6, and each gets 0.5 s to arrive. */
static void frames_after_resize(hl_renderer *r, hl_scene_demo *demo, hl_test_window *w, const char *what) {
    uint32_t bad = UINT32_MAX;
    int n = 0;
    while (bad && n < 6) {
        HL_CHECK_OK(hl_renderer_render(r, demo->stage, demo->camera));
        HL_CHECK_OK(hl_renderer_present(r));
        HL_CHECK_OK(hl_renderer_wait_idle(r));
        n++;
        bad = window_vs_output(r, w, 10);
    }
    printf("%s: the window showed the output after %d frame(s)\n", what, n);
    HL_CHECK_MSG(bad == 0, "%s: %u window pixels differ from the output after %d frames", what, bad, n);
}

static hl_result in_frame_present(hl_render_frame *f, void *user) {
    (void)f;
    hl_renderer *r = user;
    hl_result res = hl_renderer_present(r);
    HL_CHECK_EQ(res, HL_ERR_INVALID_STATE);
    return HL_OK;
}

int main(int argc, char **argv) {
    hl_rhi_backend rb = hl_test_backend_arg(argc, argv, HL_RHI_BACKEND_GLES3);
    hl_test_window w;
    if (!hl_test_window_open(&w, 96, 64)) {
        HL_CHECK_MSG(0, "no X display");
        return hl_test_finish();
    }
    hl_scene_demo demo;
    HL_CHECK_OK(hl_scene_demo_create(96.0f / 64.0f, &demo));

    /* descriptions */
    hl_renderer_desc d = {0};
    d.backend = backend_of(rb);
    d.width = 96, d.height = 64;
    hl_renderer *r = NULL;
    d.window.system = HL_WINDOW_X11;
    d.window.window = w.window; /* no display */
    HL_CHECK_RESULT(hl_renderer_create(&d, &r), HL_ERR_VALIDATION);
    d.window = (hl_native_window){HL_WINDOW_NONE, w.display, 0, NULL};
    HL_CHECK_RESULT(hl_renderer_create(&d, &r), HL_ERR_VALIDATION);
    d.window = (hl_native_window){(hl_window_system)7, w.display, w.window, NULL};
    HL_CHECK_RESULT(hl_renderer_create(&d, &r), HL_ERR_VALIDATION);
    d.window = (hl_native_window){HL_WINDOW_CANVAS, NULL, 0, NULL}; /* the browser build's */
    HL_CHECK_RESULT(hl_renderer_create(&d, &r), HL_ERR_UNSUPPORTED);
    HL_CHECK(r == NULL && strstr(hl_last_error(), "Emscripten") != NULL);
    d.window = (hl_native_window){0};
    HL_CHECK_OK(hl_renderer_create(&d, &r));
    HL_CHECK_RESULT(hl_renderer_present(r), HL_ERR_INVALID_STATE); /* headless */
    hl_renderer_destroy(r);

    /* a window, with vsync off: IMMEDIATE where the surface offers it */
    d.window = (hl_native_window){HL_WINDOW_X11, w.display, w.window, NULL};
    d.no_vsync = true;
    HL_CHECK_OK(hl_renderer_create(&d, &r));
    if (!r) return hl_test_finish();
    hl_rhi_surface_caps caps;
    HL_CHECK_OK(hl_rhi_surface_get_caps(r->dev, r->present.surface, &caps));
    const hl_rhi_surface_config *cfg = hl_rhi_surface_get_config(r->dev, r->present.surface);
    HL_CHECK(cfg != NULL);
    if (cfg && (caps.present_modes & (1u << HL_RHI_PRESENT_IMMEDIATE))) HL_CHECK_EQ(cfg->present_mode, HL_RHI_PRESENT_IMMEDIATE);
    frame(r, &demo, &w, "no vsync");
    hl_renderer_destroy(r);

    d.no_vsync = false;
    HL_CHECK_OK(hl_renderer_create(&d, &r));
    if (!r) return hl_test_finish();
    printf("%s: %s\n", hl_backend_name(hl_renderer_backend(r)), hl_renderer_adapter_name(r));
    cfg = hl_rhi_surface_get_config(r->dev, r->present.surface);
    HL_CHECK(cfg && cfg->present_mode == HL_RHI_PRESENT_FIFO && cfg->width == 96 && cfg->height == 64);
    HL_CHECK_EQ(r->present.configures, 1);
    frame(r, &demo, &w, "first frame");
    const hl_render_stats *s = hl_renderer_stats(r);
    HL_CHECK_EQ(s->presents, 1);
    HL_CHECK_EQ(s->presents_skipped, 0);
    HL_CHECK_EQ(s->surface_configures, 1);
    HL_CHECK(s->present_ns > 0);
    HL_CHECK_OK(hl_renderer_render_frame(r, in_frame_present, r));

    /* steady presents allocate nothing */
    for (int i = 0; i < 12; i++) {
        HL_CHECK_OK(hl_renderer_render(r, demo.stage, demo.camera));
        HL_CHECK_OK(hl_renderer_present(r));
    }
    uint64_t a0 = hl_alloc_count();
    for (int i = 0; i < 10; i++) HL_CHECK_OK(hl_renderer_present(r));
    uint64_t a1 = hl_alloc_count();
    HL_CHECK_MSG(a1 == a0, "10 steady presents made %llu heap allocations", (unsigned long long)(a1 - a0));
    frame(r, &demo, &w, "after steady frames");
    HL_CHECK_EQ(hl_renderer_stats(r)->presents, 24);

    /* the output resized, the window not (yet) */
    HL_CHECK_OK(hl_renderer_resize(r, 80, 48));
    hl_camera_set_aspect(demo.camera, 80.0f / 48.0f);
    HL_CHECK_OK(hl_renderer_render(r, demo.stage, demo.camera));
    uint64_t skipped = hl_renderer_stats(r)->presents_skipped, shown = hl_renderer_stats(r)->presents;
    HL_CHECK_OK(hl_renderer_present(r));
    printf("present with the output 80x48 in a 96x64 window: %s\n",
           hl_renderer_stats(r)->presents_skipped > skipped ? "skipped (outdated)" : "shown");
    /* shown or skipped, counted exactly once on both backends (on webgpu the Vulkan driver
       decides which; gles3 always skips it as outdated) */
    HL_CHECK_EQ((hl_renderer_stats(r)->presents - shown) + (hl_renderer_stats(r)->presents_skipped - skipped), 1);
    if (hl_renderer_backend(r) == HL_BACKEND_GLES3) {
        HL_CHECK_EQ(hl_renderer_stats(r)->presents_skipped, skipped + 1);
        HL_CHECK(r->present.outdated >= 1);
    }
    cfg = hl_rhi_surface_get_config(r->dev, r->present.surface);
    HL_CHECK(cfg && cfg->width == 80 && cfg->height == 48);
    hl_test_window_resize(&w, 80, 48);
    frames_after_resize(r, &demo, &w, "output and window at 80x48");

    /* forced statuses */
    uint32_t configures = r->present.configures;
    HL_CHECK_OK(hl_rhi_surface_test_force_status(r->dev, r->present.surface, HL_RHI_SURFACE_OUTDATED));
    shown = hl_renderer_stats(r)->presents;
    frame(r, &demo, &w, "after a forced outdated acquire");
    HL_CHECK_EQ(hl_renderer_stats(r)->presents, shown + 1); /* configured again, acquired again, shown */
    HL_CHECK_EQ(r->present.configures, configures + 1);
    skipped = hl_renderer_stats(r)->presents_skipped;
    HL_CHECK_OK(hl_rhi_surface_test_force_status(r->dev, r->present.surface, HL_RHI_SURFACE_TIMEOUT));
    HL_CHECK_OK(hl_renderer_present(r));
    HL_CHECK_EQ(hl_renderer_stats(r)->presents_skipped, skipped + 1);
    hl_rhi_surface old = r->present.surface;
    HL_CHECK_OK(hl_rhi_surface_test_force_status(r->dev, r->present.surface, HL_RHI_SURFACE_LOST));
    HL_CHECK_OK(hl_renderer_present(r));
    HL_CHECK_EQ(hl_renderer_stats(r)->presents_skipped, skipped + 2);
    HL_CHECK_EQ(r->present.surface.id, 0); /* dropped: made again by the next present */
    HL_CHECK(hl_rhi_surface_get_config(r->dev, old) == NULL);
    frame(r, &demo, &w, "on a surface made again after a lost one");
    HL_CHECK(r->present.surface.id != 0);

    /* device loss: the surface comes back with the device */
    old = r->present.surface;
    HL_CHECK_OK(hl_renderer_simulate_device_loss(r));
    HL_CHECK(hl_renderer_device_lost(r));
    HL_CHECK_OK(hl_renderer_present(r)); /* recovers first (the output is cleared, as a new target) */
    HL_CHECK_EQ(hl_renderer_stats(r)->device_recoveries, 1);
    HL_CHECK(r->present.surface.id != 0 && r->present.surface.id != old.id);
    HL_CHECK(hl_rhi_surface_get_config(r->dev, r->present.surface) != NULL);
    frame(r, &demo, &w, "after the device's recovery");
    HL_CHECK_OK(hl_renderer_release_gpu_resources(r));
    frame(r, &demo, &w, "after release_gpu_resources");
    HL_CHECK(hl_renderer_stats(r)->presents > 28);

    hl_renderer_destroy(r);
    hl_scene_demo_destroy(&demo);
    hl_test_window_close(&w);
    return hl_test_finish();
}
