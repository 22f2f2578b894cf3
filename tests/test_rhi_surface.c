/* RHI surfaces without a window system (null backend, no X server): the shared layer's
 * refusals. The device description's display (system out of range, a system without its
 * display, a display without a system), the browser's canvas in this native build (refused with
 * HL_ERR_UNSUPPORTED on every backend and by the renderer, before any native call), surfaces of
 * a device without a display, the null backend (no surfaces: HL_ERR_UNSUPPORTED), NULL
 * arguments and stale handles on every surface call. Surfaces on real windows:
 * tests/window/win_surface.c; the canvas itself: web/page_test.py. */
#include "hilo3d/renderer.h"
#include "hl_test.h"

/* The canvas window system is the browser build's: refused here by the shared layer, for every
 * backend (AUTO included: before its probe) and by the renderer (before its device). */
static void canvas_refused(void) {
    const hl_rhi_backend backends[] = {HL_RHI_BACKEND_AUTO, HL_RHI_BACKEND_NULL, HL_RHI_BACKEND_GLES3,
                                       HL_RHI_BACKEND_WEBGPU};
    for (size_t i = 0; i < sizeof backends / sizeof backends[0]; i++) {
        hl_rhi_device_desc d = {0};
        d.backend = backends[i];
        d.display.system = HL_RHI_WINDOW_SYSTEM_CANVAS;
        hl_rhi_device *dev = (hl_rhi_device *)&d; /* must come back NULL */
        HL_CHECK_RESULT(hl_rhi_device_create(&d, &dev), HL_ERR_UNSUPPORTED);
        HL_CHECK(dev == NULL);
        HL_CHECK(strstr(hl_last_error(), "hl_rhi_device_create: window system canvas is the browser build's") !=
                 NULL);
        HL_CHECK(strstr(hl_last_error(), "Emscripten") != NULL);
    }
    hl_renderer_desc rd = {0};
    rd.window.system = HL_WINDOW_CANVAS;
    hl_renderer *r = (hl_renderer *)&rd;
    HL_CHECK_RESULT(hl_renderer_create(&rd, &r), HL_ERR_UNSUPPORTED);
    HL_CHECK(r == NULL);
    HL_CHECK(strstr(hl_last_error(), "hl_renderer_create: desc.window.system HL_WINDOW_CANVAS is the browser") != NULL);
    rd.backend = HL_BACKEND_GLES3;
    HL_CHECK_RESULT(hl_renderer_create(&rd, &r), HL_ERR_UNSUPPORTED);
    HL_CHECK(strstr(hl_last_error(), "Emscripten") != NULL);
}

int main(void) {
    static int fake_display; /* never dereferenced: the null backend opens nothing */
    hl_rhi_device_desc d = {0};
    d.backend = HL_RHI_BACKEND_NULL;
    hl_rhi_device *dev = NULL;
    d.display.system = (hl_rhi_window_system)9;
    d.display.display = &fake_display;
    HL_CHECK_RESULT(hl_rhi_device_create(&d, &dev), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "display.system") != NULL);
    d.display.system = HL_RHI_WINDOW_SYSTEM_X11;
    d.display.display = NULL;
    HL_CHECK_RESULT(hl_rhi_device_create(&d, &dev), HL_ERR_VALIDATION);
    d.display.system = HL_RHI_WINDOW_SYSTEM_NONE;
    d.display.display = &fake_display;
    HL_CHECK_RESULT(hl_rhi_device_create(&d, &dev), HL_ERR_VALIDATION);
    HL_CHECK(dev == NULL);
    canvas_refused();

    /* headless: no surface on any backend */
    d.display.display = NULL;
    HL_CHECK_OK(hl_rhi_device_create(&d, &dev));
    hl_rhi_surface s = {7};
    hl_rhi_surface_desc sd = {0x1234, NULL, "w"};
    HL_CHECK_RESULT(hl_rhi_surface_create(dev, &sd, &s), HL_ERR_VALIDATION);
    HL_CHECK_EQ(s.id, 0);
    HL_CHECK(strstr(hl_last_error(), "without a window system") != NULL);
    hl_rhi_device_destroy(dev);

    /* a display, the null backend: no surfaces */
    d.display.system = HL_RHI_WINDOW_SYSTEM_X11;
    d.display.display = &fake_display;
    HL_CHECK_OK(hl_rhi_device_create(&d, &dev));
    if (!dev) return hl_test_finish();
    HL_CHECK_RESULT(hl_rhi_surface_create(dev, NULL, &s), HL_ERR_VALIDATION);
    HL_CHECK_RESULT(hl_rhi_surface_create(dev, &sd, NULL), HL_ERR_VALIDATION);
    hl_rhi_surface_desc no_window = {0};
    HL_CHECK_RESULT(hl_rhi_surface_create(dev, &no_window, &s), HL_ERR_VALIDATION);
    HL_CHECK_RESULT(hl_rhi_surface_create(dev, &sd, &s), HL_ERR_UNSUPPORTED);
    HL_CHECK(strstr(hl_last_error(), "null") != NULL);
    HL_CHECK_RESULT(hl_rhi_surface_create(NULL, &sd, &s), HL_ERR_VALIDATION);

    /* stale / never made handles on every call */
    hl_rhi_surface bad = {0x00100001u};
    hl_rhi_surface_caps caps;
    hl_rhi_surface_config cfg = {0};
    cfg.width = cfg.height = 8;
    hl_rhi_texture tex = {99};
    hl_rhi_surface_status st = HL_RHI_SURFACE_LOST;
    HL_CHECK_RESULT(hl_rhi_surface_get_caps(dev, bad, &caps), HL_ERR_VALIDATION);
    HL_CHECK_RESULT(hl_rhi_surface_configure(dev, bad, &cfg), HL_ERR_VALIDATION);
    HL_CHECK(hl_rhi_surface_get_config(dev, bad) == NULL);
    HL_CHECK_RESULT(hl_rhi_surface_acquire(dev, bad, &tex, &st), HL_ERR_VALIDATION);
    HL_CHECK_EQ(tex.id, 0);
    HL_CHECK_EQ(st, HL_RHI_SURFACE_OPTIMAL);
    HL_CHECK_RESULT(hl_rhi_surface_present(dev, bad), HL_ERR_VALIDATION);
    HL_CHECK_RESULT(hl_rhi_surface_test_force_status(dev, bad, HL_RHI_SURFACE_OUTDATED), HL_ERR_VALIDATION);
    hl_rhi_surface_destroy(dev, bad); /* a no-op */
    hl_rhi_surface_destroy(NULL, bad);
    hl_rhi_device_destroy(dev);
    return hl_test_finish();
}
