/* gles3 window surface: an EGL window surface on the device's display (one per device), made
 * current with the context instead of the pbuffer while it exists.
 *
 * The frame texture: the backend's y convention (gles3_internal.h) puts the image's top row at
 * memory row 0 of every render target, while the window's default framebuffer counts its rows
 * from the bottom. So the surface texture is a GL texture of the configured size (the
 * backbuffer: every pass can render into it, copy into it or read it like any texture), and
 * present copies it into the default framebuffer flipped (one glBlitFramebuffer, top-left
 * anchored) before eglSwapBuffers. The default framebuffer is wrapped, not drawn into by
 * passes.
 *
 * Outdated: EGL resizes a window surface with its window; when the window's size (as EGL
 * reports it) differs from the configured size, acquire reports OUTDATED and gives no texture
 * until the surface is configured again.
 *
 * The browser (window system CANVAS, Emscripten): the device's EGL surface is already the
 * page's canvas (gles3_egl.c), so the window surface is that one (not made, not destroyed
 * here) and its default framebuffer is the canvas's drawing buffer. EGL's size of it is
 * canvas.width x height, so a canvas resized by the page is OUTDATED until configured at its
 * new size. RGBA8 only (the drawing buffer's format) and FIFO only: eglSwapInterval would
 * change the timing of Emscripten's main loop, and the page's requestAnimationFrame sets the
 * pace. eglSwapBuffers does nothing there (it reports a lost context); the browser composites
 * the drawing buffer when the task that drew it ends (then clears it: preserveDrawingBuffer
 * stays false, the fast path). */
#include <string.h>

#include "gles3_internal.h"

static void release_backbuffer(hl_rhi_device *dev, hl__gl_device *g) {
    if (!g->backbuffer) return;
    hl__texture tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.be.ptr = g->backbuffer;
    hl__gl_texture_destroy(dev, &tmp); /* forgets the FBOs that name it */
    g->backbuffer = NULL;
}

#ifdef __EMSCRIPTEN__
hl_result hl__gl_surface_create(hl_rhi_device *dev, hl__surface *s) {
    hl__gl_device *g = hl__gl(dev);
    if (dev->desc.display.system != HL_RHI_WINDOW_SYSTEM_CANVAS)
        return hl__fail(HL_ERR_UNSUPPORTED, "gles3: in the browser the window system is the canvas (CANVAS)");
    if (g->window != EGL_NO_SURFACE)
        return hl__fail(HL_ERR_UNSUPPORTED, "gles3: the device already has a window surface (one per gles3 device)");
    g->window = g->pbuffer; /* the canvas's, current with the context since the device was made */
    s->be.ptr = g->pbuffer;
    s->caps.formats[0] = HL_RHI_FORMAT_RGBA8_UNORM;
    s->caps.format_count = 1;
    s->caps.usages = HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT | HL_RHI_TEXTURE_USAGE_COPY_SRC |
                     HL_RHI_TEXTURE_USAGE_COPY_DST | HL_RHI_TEXTURE_USAGE_SAMPLED;
    s->caps.present_modes = 1u << HL_RHI_PRESENT_FIFO;
    return HL_OK;
}
#else
hl_result hl__gl_surface_create(hl_rhi_device *dev, hl__surface *s) {
    hl__gl_device *g = hl__gl(dev);
    if (dev->desc.display.system != HL_RHI_WINDOW_SYSTEM_X11)
        return hl__fail(HL_ERR_UNSUPPORTED, "gles3: window surfaces are implemented for X11 only (Wayland needs "
                                            "wl_egl_window: use the webgpu backend there, or XWayland)");
    if (g->window != EGL_NO_SURFACE)
        return hl__fail(HL_ERR_UNSUPPORTED, "gles3: the device already has a window surface (one per gles3 device)");
    EGLSurface w =
        HL__GL(dev, eglCreateWindowSurface(g->display, g->config, (EGLNativeWindowType)s->desc.window, NULL));
    if (w == EGL_NO_SURFACE) {
        EGLint err = eglGetError();
        return hl__fail(HL_ERR_BACKEND,
                        "gles3: eglCreateWindowSurface failed for X11 window 0x%llx (0x%x%s)",
                        (unsigned long long)s->desc.window, (unsigned)err,
                        err == EGL_BAD_MATCH ? ": the window's visual does not match the 24-bit RGB EGL config"
                        : err == EGL_BAD_NATIVE_WINDOW ? ": not a window of this display"
                        : err == EGL_BAD_ALLOC ? ": the window has a surface already"
                                              : "");
    }
    g->window = w;
    hl_result r = hl__gl_make_current_with(dev, w);
    if (r) {
        g->window = EGL_NO_SURFACE;
        HL__GL(dev, eglDestroySurface(g->display, w));
        hl__gl_make_current(dev);
        return r;
    }
    s->be.ptr = w;
    s->caps.formats[0] = HL_RHI_FORMAT_RGBA8_UNORM;
    s->caps.formats[1] = HL_RHI_FORMAT_BGRA8_UNORM;
    s->caps.format_count = 2;
    s->caps.usages = HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT | HL_RHI_TEXTURE_USAGE_COPY_SRC |
                     HL_RHI_TEXTURE_USAGE_COPY_DST | HL_RHI_TEXTURE_USAGE_SAMPLED;
    s->caps.present_modes = (1u << HL_RHI_PRESENT_FIFO) | (1u << HL_RHI_PRESENT_IMMEDIATE);
    return HL_OK;
}
#endif

void hl__gl_surface_destroy(hl_rhi_device *dev, hl__surface *s) {
    hl__gl_device *g = hl__gl(dev);
    if (g) {
        hl__gl_make_current(dev); /* a lost device: no context, the deletes below reach nothing */
        release_backbuffer(dev, g);
        g->swap_width = g->swap_height = 0;
    }
    if (!s->be.ptr) return;
#ifdef __EMSCRIPTEN__
    if (g && g->window == s->be.ptr) g->window = EGL_NO_SURFACE; /* the canvas's surface stays the device's */
#else
    if (g) {
        if (g->window == s->be.ptr) {
            g->window = EGL_NO_SURFACE;
            /* the context goes back to the pbuffer (or none) before its surface is destroyed */
            if (!dev->lost && g->display != EGL_NO_DISPLAY && !g->context_destroyed)
                (void)hl__gl_make_current_with(dev, g->pbuffer);
        }
        if (g->display != EGL_NO_DISPLAY) HL__GL(dev, eglDestroySurface(g->display, s->be.ptr));
    }
#endif
    s->be.ptr = NULL;
}

hl_result hl__gl_surface_configure(hl_rhi_device *dev, hl__surface *s, const hl_rhi_surface_config *config) {
    (void)s;
    hl__gl_device *g = hl__gl(dev);
    hl__gl_make_current(dev);
    if (!g->backbuffer || g->window_width != config->width || g->window_height != config->height ||
        g->backbuffer->format != config->format) {
        release_backbuffer(dev, g);
        hl__texture tmp;
        memset(&tmp, 0, sizeof tmp);
        tmp.desc.format = config->format;
        tmp.desc.width = config->width;
        tmp.desc.height = config->height;
        tmp.desc.depth_or_layers = 1;
        tmp.desc.mip_levels = 1;
        tmp.desc.sample_count = 1;
        tmp.desc.usage = config->usage;
        hl_result r = hl__gl_texture_create(dev, &tmp);
        if (r) return r;
        g->backbuffer = tmp.be.ptr;
        g->window_width = config->width;
        g->window_height = config->height;
    }
    g->swap_interval = config->present_mode == HL_RHI_PRESENT_IMMEDIATE ? 0 : 1;
#ifndef __EMSCRIPTEN__ /* FIFO only: the page's requestAnimationFrame sets the pace */
    if (!HL__GL(dev, eglSwapInterval(g->display, g->swap_interval)))
        (void)eglGetError(); /* a display without swap control presents as it can */
#endif
    return HL_OK;
}

/* The window's size as EGL sees it now. */
static void window_size(hl_rhi_device *dev, hl__gl_device *g, EGLint *w, EGLint *h) {
    *w = *h = 0;
    if (!HL__GL(dev, eglQuerySurface(g->display, g->window, EGL_WIDTH, w)) ||
        !HL__GL(dev, eglQuerySurface(g->display, g->window, EGL_HEIGHT, h))) {
        (void)eglGetError();
        *w = *h = -1;
    }
}

hl_result hl__gl_surface_acquire(hl_rhi_device *dev, hl__surface *s, hl__texture *tex, hl_rhi_surface_status *status) {
    (void)s;
    hl__gl_device *g = hl__gl(dev);
    EGLint w, h;
    window_size(dev, g, &w, &h);
    if (w < 0) {
        *status = HL_RHI_SURFACE_LOST;
        return HL_OK;
    }
    if ((uint32_t)w != g->window_width || (uint32_t)h != g->window_height) {
        *status = HL_RHI_SURFACE_OUTDATED;
        return HL_OK;
    }
    tex->be.ptr = g->backbuffer;
    *status = HL_RHI_SURFACE_OPTIMAL;
    return HL_OK;
}

#ifndef __EMSCRIPTEN__
/* Replaces the EGL window surface of s's window by a new one (made current in its place). */
static hl_result recreate_window_surface(hl_rhi_device *dev, hl__gl_device *g, hl__surface *s) {
    hl_result r = hl__gl_make_current_with(dev, g->pbuffer);
    if (r) return r;
    HL__GL(dev, eglDestroySurface(g->display, g->window));
    g->window = EGL_NO_SURFACE;
    s->be.ptr = NULL;
    EGLSurface w =
        HL__GL(dev, eglCreateWindowSurface(g->display, g->config, (EGLNativeWindowType)s->desc.window, NULL));
    if (w == EGL_NO_SURFACE)
        return hl__fail(HL_ERR_BACKEND, "gles3: present: eglCreateWindowSurface for the resized window failed (0x%x)",
                        (unsigned)eglGetError());
    g->window = w;
    s->be.ptr = w;
    r = hl__gl_make_current_with(dev, w);
    if (!r && !HL__GL(dev, eglSwapInterval(g->display, g->swap_interval))) (void)eglGetError();
    return r;
}
#endif

hl_result hl__gl_surface_present(hl_rhi_device *dev, hl__surface *s, hl__texture *tex) {
    (void)tex;
    hl__gl_device *g = hl__gl(dev);
    if (dev->lost) return hl__fail(HL_ERR_DEVICE_LOST, "gles3: present: the device is lost");
    hl__gl_make_current(dev);
    hl__gl_fbo_key key;
    memset(&key, 0, sizeof key);
    key.color[0] = hl__gl_attach_of(g->backbuffer, 0, 0);
    key.color_count = 1;
    GLuint fbo = hl__gl_fbo_get(dev, &key);
    if (!fbo) return HL_ERR_BACKEND;
    EGLint ww, wh;
    window_size(dev, g, &ww, &wh);
    if (wh < 0) wh = (EGLint)g->window_height;
#ifndef __EMSCRIPTEN__ /* the canvas's drawing buffer has the canvas's size at once */
    if (g->swap_width && (ww != g->swap_width || wh != g->swap_height)) {
        /* The window changed size since the last swap. Mesa's software X11 path learns a
         * drawable's size when it first validates its buffers after a swap, which any draw does
         * (into any framebuffer): draws of this frame made before the resize reached the server
         * leave the default framebuffer at the old size, and the copy below would land offset
         * (seen: 16 rows low after 96x64 -> 80x48). A new EGL surface for the window starts with
         * its current size. */
        hl_result r = recreate_window_surface(dev, g, s);
        if (r) return r;
    }
#endif
    hl__gl_bind_read_fbo(dev, fbo);
    hl__gl_bind_draw_fbo(dev, 0);
    hl__gl_scissor(dev, false, 0, 0, 0, 0); /* blits are scissored */
    const GLint w = (GLint)g->window_width, h = (GLint)g->window_height;
    /* memory row 0 (the image's top) to the window's top row: GL row wh - 1 */
    HL__GL(dev, glBlitFramebuffer(0, 0, w, h, 0, wh, w, wh - h, GL_COLOR_BUFFER_BIT, GL_NEAREST));
    GLenum e = HL__GL(dev, glGetError());
    if (e != GL_NO_ERROR) return hl__fail(HL_ERR_BACKEND, "gles3: present: glBlitFramebuffer failed (0x%04x)", (unsigned)e);
    if (!HL__GL(dev, eglSwapBuffers(g->display, s->be.ptr))) {
        EGLint err = eglGetError();
        if (err == EGL_CONTEXT_LOST) {
            hl__gl_check_lost(dev);
            return hl__fail(HL_ERR_DEVICE_LOST, "gles3: present: eglSwapBuffers: the context was lost");
        }
        return hl__fail(HL_ERR_BACKEND, "gles3: present: eglSwapBuffers failed (0x%x)", (unsigned)err);
    }
    g->swap_width = ww;
    g->swap_height = wh;
    return HL_OK;
}
