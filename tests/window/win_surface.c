/* Window test (RHI): a surface on an X11 window, on each backend (run under xvfb_run.sh).
 *
 * - caps, configuration defaults and every refusal (bad format, usage, size, present mode;
 *   configure while acquired; present without a texture or inside a frame; surfaces of a device
 *   without a display; the surface texture refused by hl_rhi_texture_destroy);
 * - a frame drawn into the surface texture (a quadrant pattern from v_uv: orientation) shows in
 *   the window exactly (X screenshot, +-1), and a readback of the surface texture before
 *   present gives the same pixels where the surface offers COPY_SRC;
 * - the texture has frame lifetime: after present every use of a kept handle (or its view) is
 *   HL_ERR_VALIDATION, acquiring twice gives the same texture;
 * - outdated: the window resized between acquire and present; the next acquire says OUTDATED
 *   on gles3 (EGL reports the new size; lavapipe's X11 swapchain never does, so webgpu may say
 *   OPTIMAL), configuring at the new size gives a texture of that size that fills the window;
 *   a forced OUTDATED / TIMEOUT / LOST (the test hook) gives no texture;
 * - device loss: the surface is stale after hl_rhi_device_recreate; a new one presents again. */
#include <stdlib.h>
#include <time.h>

#include "hl_test.h"
#include "hl_test_window.h"

static const char *k_vs = "#version 300 es\n"
                          "out vec2 v_uv;\n"
                          "void main() {\n"
                          "    vec2 p = vec2(float((gl_VertexID & 1) << 2) - 1.0, float((gl_VertexID & 2) << 1) - 1.0);\n"
                          "    v_uv = vec2(p.x * 0.5 + 0.5, 0.5 - p.y * 0.5);\n"
                          "    gl_Position = vec4(p, 0.0, 1.0);\n"
                          "}\n";
/* quadrants: red where u < 0.5, green where v < 0.5 (the top), blue 0.5 everywhere */
static const char *k_fs = "#version 300 es\n"
                          "precision highp float;\n"
                          "in vec2 v_uv;\n"
                          "out vec4 o_color;\n"
                          "void main() { o_color = vec4(v_uv.x < 0.5 ? 1.0 : 0.0, v_uv.y < 0.5 ? 1.0 : 0.0, 0.5, 1.0); }\n";

/* RGBA8 of the expected quadrant at (x, y) of a w x h image. */
static void expected(uint32_t x, uint32_t y, uint32_t w, uint32_t h, int out[3]) {
    out[0] = x < w / 2 ? 255 : 0;
    out[1] = y < h / 2 ? 255 : 0;
    out[2] = 128;
}

/* Pixels off by more than 1 in some channel (quadrant borders excluded). */
static uint32_t mismatches(const uint8_t *rgba, uint32_t w, uint32_t h) {
    uint32_t bad = 0;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            if (x + 1 == w / 2 || x == w / 2 || y + 1 == h / 2 || y == h / 2) continue;
            int e[3];
            expected(x, y, w, h, e);
            const uint8_t *p = rgba + ((size_t)y * w + x) * 4;
            for (int c = 0; c < 3; c++)
                if (abs((int)p[c] - e[c]) > 1) {
                    bad++;
                    break;
                }
        }
    return bad;
}

/* The window's pixels once they show the quadrants, or after 2 s: the mismatches of the last
 * read. A swapchain may present from a queue of its own (lavapipe's X11 swapchain in FIFO mode
 * does), so the screenshot waits for the frame to arrive rather than racing it. */
static uint32_t window_mismatches_within(hl_test_window *w, uint8_t *img, int max_tries) {
    uint32_t bad = UINT32_MAX;
    for (int tries = 0; tries < max_tries && bad; tries++) {
        if (tries) {
            struct timespec ts = {0, 50 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
        if (!hl_test_window_read(w, img)) return UINT32_MAX;
        bad = mismatches(img, w->width, w->height);
    }
    return bad;
}

static uint32_t window_mismatches(hl_test_window *w, uint8_t *img) { return window_mismatches_within(w, img, 40); }

typedef struct ctx {
    hl_rhi_device *dev;
    hl_rhi_surface surface;
    hl_test_pipeline pipe;
    hl_rhi_format format;
} ctx;

/* One frame drawing the quadrants into the surface's texture (acquired already). */
static hl_result draw_frame(ctx *c, hl_rhi_texture tex) {
    hl_rhi_texture_view view;
    hl_result r = hl_rhi_texture_view_create(c->dev, tex, NULL, &view);
    if (r) return r;
    hl_rhi_cmd *cmd;
    if ((r = hl_rhi_begin_frame(c->dev, &cmd))) return r;
    hl_rhi_color_attachment ca = {0};
    ca.view = view;
    ca.load_op = HL_RHI_LOAD_CLEAR;
    hl_rhi_render_pass_desc rp = {0};
    rp.color_attachments = &ca;
    rp.color_attachment_count = 1;
    r = hl_rhi_cmd_begin_render_pass(cmd, &rp);
    if (!r) r = hl_rhi_cmd_set_pipeline(cmd, c->pipe.pipe);
    if (!r) r = hl_rhi_cmd_draw(cmd, 3, 1, 0, 0);
    if (!r) r = hl_rhi_cmd_end_render_pass(cmd);
    if (r) {
        hl_rhi_abort_frame(c->dev);
        return r;
    }
    hl_rhi_submission sub;
    return hl_rhi_end_frame(c->dev, &sub);
}

static hl_result make_surface(ctx *c, hl_test_window *w, uint32_t usage) {
    hl_rhi_surface_desc sd = {0};
    sd.window = w->window;
    sd.label = "test window";
    hl_result r = hl_rhi_surface_create(c->dev, &sd, &c->surface);
    if (r) return r;
    hl_rhi_surface_config cfg = {0};
    cfg.format = c->format;
    cfg.usage = usage;
    cfg.width = w->width;
    cfg.height = w->height;
    return hl_rhi_surface_configure(c->dev, c->surface, &cfg);
}

/* Frames (acquire, draw, present) until the window shows the quadrants, at most max_frames,
 * each given tries * 50 ms to arrive. After a window's resize, with lavapipe's X11 swapchain
 * under load, a present or two did not show at all (seen next to other window tests): those
 * checks allow 6 frames. */
static void frames_and_check(ctx *c, hl_test_window *w, int max_frames, int tries, const char *what) {
    uint8_t *img = malloc((size_t)w->width * w->height * 4);
    uint32_t bad = UINT32_MAX;
    int n = 0;
    while (bad && n < max_frames) {
        hl_rhi_texture tex;
        hl_rhi_surface_status st;
        HL_CHECK_OK(hl_rhi_surface_acquire(c->dev, c->surface, &tex, &st));
        HL_CHECK_MSG(tex.id && st == HL_RHI_SURFACE_OPTIMAL, "%s: acquire gave texture %u, status %d", what, tex.id,
                     (int)st);
        HL_CHECK_OK(draw_frame(c, tex));
        HL_CHECK_OK(hl_rhi_surface_present(c->dev, c->surface));
        HL_CHECK_OK(hl_rhi_device_wait_idle(c->dev));
        n++;
        bad = window_mismatches_within(w, img, tries);
    }
    HL_CHECK_MSG(bad == 0, "%s: %u of %ux%u window pixels differ from the quadrants after %d frames (top-left %d,%d,%d)",
                 what, bad, w->width, w->height, n, img[0], img[1], img[2]);
    free(img);
}

/* One frame; the window must show it within 2 s. */
static void frame_and_check(ctx *c, hl_test_window *w, const char *what) { frames_and_check(c, w, 1, 40, what); }

int main(int argc, char **argv) {
    hl_rhi_backend backend = hl_test_backend_arg(argc, argv, HL_RHI_BACKEND_GLES3);
    hl_test_window w;
    if (!hl_test_window_open(&w, 96, 64)) {
        HL_CHECK_MSG(0, "no X display");
        return hl_test_finish();
    }

    /* a device without a display makes no surface, on every backend */
    hl_rhi_device *headless = hl_test_device(backend);
    if (!headless) return hl_test_finish();
    hl_rhi_surface s0;
    hl_rhi_surface_desc sd0 = {w.window, NULL, NULL};
    HL_CHECK_RESULT(hl_rhi_surface_create(headless, &sd0, &s0), HL_ERR_VALIDATION);
    HL_CHECK_EQ(s0.id, 0);
    hl_rhi_device_destroy(headless);

    hl_rhi_device_desc dd = {0};
    dd.backend = backend;
    dd.display.system = HL_RHI_WINDOW_SYSTEM_X11;
    hl_rhi_device *bad_dev = NULL;
    HL_CHECK_RESULT(hl_rhi_device_create(&dd, &bad_dev), HL_ERR_VALIDATION); /* no Display * */
    dd.display.display = w.display;
    ctx c = {0};
    HL_CHECK_OK(hl_rhi_device_create(&dd, &c.dev));
    if (!c.dev) return hl_test_finish();
    printf("%s on X11: %s\n", hl_rhi_backend_name(backend), hl_rhi_device_caps(c.dev)->adapter_name);

    hl_rhi_surface_desc bad_sd = {0};
    HL_CHECK_RESULT(hl_rhi_surface_create(c.dev, &bad_sd, &c.surface), HL_ERR_VALIDATION); /* no window */
    HL_CHECK_RESULT(hl_rhi_surface_create(c.dev, &sd0, &c.surface), HL_OK);
    hl_rhi_surface_caps caps;
    HL_CHECK_OK(hl_rhi_surface_get_caps(c.dev, c.surface, &caps));
    HL_CHECK(caps.format_count >= 1);
    HL_CHECK(caps.usages & HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT);
    HL_CHECK(caps.present_modes & (1u << HL_RHI_PRESENT_FIFO));
    c.format = caps.formats[0];
    printf("surface: %u formats (first %s), usages 0x%x, present modes 0x%x\n", caps.format_count,
           hl_rhi_format_get_info(c.format)->name, caps.usages, caps.present_modes);
    if (backend == HL_RHI_BACKEND_GLES3) HL_CHECK(caps.present_modes & (1u << HL_RHI_PRESENT_IMMEDIATE));

    /* not configured yet */
    hl_rhi_texture tex = {0};
    HL_CHECK_RESULT(hl_rhi_surface_acquire(c.dev, c.surface, &tex, NULL), HL_ERR_INVALID_STATE);
    HL_CHECK(hl_rhi_surface_get_config(c.dev, c.surface) == NULL);
    /* refusals of configure */
    hl_rhi_surface_config cfg = {0};
    cfg.width = w.width, cfg.height = w.height;
    cfg.format = HL_RHI_FORMAT_R32_FLOAT;
    HL_CHECK_RESULT(hl_rhi_surface_configure(c.dev, c.surface, &cfg), HL_ERR_VALIDATION);
    cfg.format = HL_RHI_FORMAT_UNDEFINED;
    cfg.usage = 0x100;
    HL_CHECK_RESULT(hl_rhi_surface_configure(c.dev, c.surface, &cfg), HL_ERR_VALIDATION);
    cfg.usage = 0;
    cfg.width = 0;
    HL_CHECK_RESULT(hl_rhi_surface_configure(c.dev, c.surface, &cfg), HL_ERR_VALIDATION);
    cfg.width = w.width;
    cfg.present_mode = (hl_rhi_present_mode)9;
    HL_CHECK_RESULT(hl_rhi_surface_configure(c.dev, c.surface, &cfg), HL_ERR_VALIDATION);
    cfg.present_mode = HL_RHI_PRESENT_FIFO;
    HL_CHECK_RESULT(hl_rhi_surface_configure(c.dev, c.surface, NULL), HL_ERR_VALIDATION);
    /* defaults */
    HL_CHECK_OK(hl_rhi_surface_configure(c.dev, c.surface, &cfg));
    const hl_rhi_surface_config *got = hl_rhi_surface_get_config(c.dev, c.surface);
    HL_CHECK(got && got->format == c.format && got->usage == HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT &&
             got->present_mode == HL_RHI_PRESENT_FIFO && got->width == w.width);
    hl_rhi_surface_destroy(c.dev, c.surface);

    hl_test_pipeline_desc pd = {0};
    pd.vs = k_vs;
    pd.fs = k_fs;
    pd.color_formats[0] = c.format;
    pd.color_count = 1;
    HL_CHECK_OK(hl_test_pipeline_create(c.dev, &pd, &c.pipe));

    /* a frame, readback of the surface texture, present, the window's pixels */
    bool readable = (caps.usages & HL_RHI_TEXTURE_USAGE_COPY_SRC) != 0;
    HL_CHECK_OK(make_surface(&c, &w, HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT |
                                         (readable ? HL_RHI_TEXTURE_USAGE_COPY_SRC : 0u)));
    hl_rhi_surface_status st;
    HL_CHECK_OK(hl_rhi_surface_acquire(c.dev, c.surface, &tex, &st));
    HL_CHECK(tex.id != 0);
    HL_CHECK_EQ(st, HL_RHI_SURFACE_OPTIMAL);
    hl_rhi_texture again;
    HL_CHECK_OK(hl_rhi_surface_acquire(c.dev, c.surface, &again, NULL));
    HL_CHECK_EQ(again.id, tex.id); /* the same texture until present */
    const hl_rhi_texture_desc *td = hl_rhi_texture_get_desc(c.dev, tex);
    HL_CHECK(td && td->width == w.width && td->height == w.height && td->format == c.format &&
             td->sample_count == 1 && td->mip_levels == 1);
    HL_CHECK_RESULT(hl_rhi_surface_configure(c.dev, c.surface, &cfg), HL_ERR_INVALID_STATE); /* acquired */
    HL_CHECK_RESULT(hl_rhi_surface_present(c.dev, (hl_rhi_surface){0}), HL_ERR_VALIDATION);
    hl_rhi_texture_destroy(c.dev, tex); /* refused: the surface owns it */
    HL_CHECK_EQ(hl_last_error_code(), HL_ERR_VALIDATION);
    HL_CHECK(hl_rhi_texture_get_desc(c.dev, tex) != NULL);
    hl_rhi_cmd *cmd;
    HL_CHECK_OK(hl_rhi_begin_frame(c.dev, &cmd));
    HL_CHECK_RESULT(hl_rhi_surface_present(c.dev, c.surface), HL_ERR_INVALID_STATE); /* inside a frame */
    hl_rhi_abort_frame(c.dev);
    HL_CHECK_OK(draw_frame(&c, tex));
    if (readable) {
        uint8_t *img = malloc((size_t)w.width * w.height * 4);
        hl_rhi_texture_region all = {0};
        HL_CHECK_OK(hl_rhi_texture_read(c.dev, tex, &all, img, 0));
        if (c.format == HL_RHI_FORMAT_BGRA8_UNORM)
            for (size_t i = 0; i < (size_t)w.width * w.height; i++) {
                uint8_t t = img[i * 4];
                img[i * 4] = img[i * 4 + 2];
                img[i * 4 + 2] = t;
            }
        uint32_t bad = mismatches(img, w.width, w.height);
        HL_CHECK_MSG(bad == 0, "readback of the surface texture: %u pixels differ (top-left %d,%d,%d)", bad, img[0],
                     img[1], img[2]);
        free(img);
    }
    hl_rhi_texture_view kept_view;
    HL_CHECK_OK(hl_rhi_texture_view_create(c.dev, tex, NULL, &kept_view));
    HL_CHECK_OK(hl_rhi_surface_present(c.dev, c.surface));
    HL_CHECK_OK(hl_rhi_device_wait_idle(c.dev));
    {
        uint8_t *img = malloc((size_t)w.width * w.height * 4);
        uint32_t bad = window_mismatches(&w, img);
        HL_CHECK_MSG(bad == 0, "window after present: %u pixels differ (top-left %d,%d,%d bottom-right %d,%d,%d)", bad,
                     img[0], img[1], img[2], img[(w.width * w.height - 1) * 4], img[(w.width * w.height - 1) * 4 + 1],
                     img[(w.width * w.height - 1) * 4 + 2]);
        free(img);
    }
    /* stale after present: the texture, its view */
    HL_CHECK(hl_rhi_texture_get_desc(c.dev, tex) == NULL);
    hl_rhi_texture_view v2;
    HL_CHECK_RESULT(hl_rhi_texture_view_create(c.dev, tex, NULL, &v2), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "stale") != NULL);
    HL_CHECK_RESULT(draw_frame(&c, tex), HL_ERR_VALIDATION);
    HL_CHECK_OK(hl_rhi_begin_frame(c.dev, &cmd));
    hl_rhi_color_attachment ca = {0};
    ca.view = kept_view;
    hl_rhi_render_pass_desc rp = {0};
    rp.color_attachments = &ca;
    rp.color_attachment_count = 1;
    HL_CHECK_RESULT(hl_rhi_cmd_begin_render_pass(cmd, &rp), HL_ERR_VALIDATION);
    hl_rhi_abort_frame(c.dev);
    HL_CHECK_RESULT(hl_rhi_surface_present(c.dev, c.surface), HL_ERR_INVALID_STATE); /* nothing acquired */

    /* a few more frames: a new texture each time, the window keeps showing them */
    for (int i = 0; i < 3; i++) frame_and_check(&c, &w, "frame");

    /* outdated: resize between acquire and present */
    HL_CHECK_OK(hl_rhi_surface_acquire(c.dev, c.surface, &tex, &st));
    HL_CHECK_OK(draw_frame(&c, tex));
    hl_test_window_resize(&w, 80, 48);
    HL_CHECK_OK(hl_rhi_surface_present(c.dev, c.surface));
    HL_CHECK_OK(hl_rhi_surface_acquire(c.dev, c.surface, &tex, &st));
    printf("acquire after the window's resize: status %d, texture %s\n", (int)st, tex.id ? "given" : "none");
    if (backend == HL_RHI_BACKEND_GLES3) {
        HL_CHECK_EQ(st, HL_RHI_SURFACE_OUTDATED);
        HL_CHECK_EQ(tex.id, 0);
    } else {
        HL_CHECK(st == HL_RHI_SURFACE_OUTDATED || st == HL_RHI_SURFACE_SUBOPTIMAL || st == HL_RHI_SURFACE_OPTIMAL);
    }
    if (tex.id) { /* webgpu's driver gave one at the old size: show it, then reconfigure */
        HL_CHECK_OK(draw_frame(&c, tex));
        HL_CHECK_OK(hl_rhi_surface_present(c.dev, c.surface));
    }
    cfg = *hl_rhi_surface_get_config(c.dev, c.surface);
    cfg.width = w.width, cfg.height = w.height;
    HL_CHECK_OK(hl_rhi_surface_configure(c.dev, c.surface, &cfg));
    frames_and_check(&c, &w, 6, 10, "after reconfiguring at 80x48");
    HL_CHECK_OK(hl_rhi_surface_acquire(c.dev, c.surface, &tex, NULL));
    td = hl_rhi_texture_get_desc(c.dev, tex);
    HL_CHECK(td && td->width == 80 && td->height == 48);
    HL_CHECK_OK(draw_frame(&c, tex));
    HL_CHECK_OK(hl_rhi_surface_present(c.dev, c.surface));

    /* the driver statuses through the test hook: no texture, then the next acquire works */
    const hl_rhi_surface_status forced[3] = {HL_RHI_SURFACE_OUTDATED, HL_RHI_SURFACE_TIMEOUT, HL_RHI_SURFACE_LOST};
    for (int i = 0; i < 3; i++) {
        HL_CHECK_OK(hl_rhi_surface_test_force_status(c.dev, c.surface, forced[i]));
        HL_CHECK_OK(hl_rhi_surface_acquire(c.dev, c.surface, &tex, &st));
        HL_CHECK_EQ(st, forced[i]);
        HL_CHECK_EQ(tex.id, 0);
    }
    HL_CHECK_OK(hl_rhi_surface_test_force_status(c.dev, c.surface, HL_RHI_SURFACE_SUBOPTIMAL));
    HL_CHECK_OK(hl_rhi_surface_acquire(c.dev, c.surface, &tex, &st));
    HL_CHECK_EQ(st, HL_RHI_SURFACE_SUBOPTIMAL);
    HL_CHECK(tex.id != 0);
    HL_CHECK_OK(draw_frame(&c, tex));
    HL_CHECK_OK(hl_rhi_surface_present(c.dev, c.surface));

    /* destroying the surface with a texture acquired makes the texture stale */
    HL_CHECK_OK(hl_rhi_surface_acquire(c.dev, c.surface, &tex, NULL));
    hl_rhi_surface_destroy(c.dev, c.surface);
    HL_CHECK(hl_rhi_texture_get_desc(c.dev, tex) == NULL);
    HL_CHECK_RESULT(hl_rhi_surface_acquire(c.dev, c.surface, &tex, NULL), HL_ERR_VALIDATION);

    /* device loss: surface calls say so; after recreate the surface is stale; a new one works */
    HL_CHECK_OK(make_surface(&c, &w, 0));
    frame_and_check(&c, &w, "new surface");
    HL_CHECK_OK(hl_rhi_device_simulate_loss(c.dev));
    HL_CHECK_RESULT(hl_rhi_surface_acquire(c.dev, c.surface, &tex, NULL), HL_ERR_DEVICE_LOST);
    hl_test_pipeline_destroy(c.dev, &c.pipe); /* (on a lost device the handles are only forgotten) */
    HL_CHECK_OK(hl_rhi_device_recreate(c.dev));
    HL_CHECK_RESULT(hl_rhi_surface_acquire(c.dev, c.surface, &tex, NULL), HL_ERR_VALIDATION);
    HL_CHECK_OK(hl_test_pipeline_create(c.dev, &pd, &c.pipe));
    HL_CHECK_OK(make_surface(&c, &w, 0));
    frame_and_check(&c, &w, "after the device's recreation");
    HL_CHECK(hl_rhi_device_live_objects(c.dev) > 0);

    hl_rhi_surface_destroy(c.dev, c.surface);
    hl_test_pipeline_destroy(c.dev, &c.pipe);
    hl_rhi_device_destroy(c.dev);
    hl_test_window_close(&w);
    return hl_test_finish();
}
