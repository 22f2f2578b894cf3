/* EGL: display selection (headless: device platform, then Mesa surfaceless, then the default
 * display; with a window system (hl_rhi_device_desc.display): that system's platform only,
 * EGL_PLATFORM_X11_KHR / _WAYLAND_KHR on the application's display), ES 3 config (window-capable
 * with a window system) and context, surfaceless make-current (1x1 pbuffer otherwise; the
 * window surface while there is one), probe, and the thread hand-over of a context.
 *
 * In the browser (Emscripten, __EMSCRIPTEN__) EGL is Emscripten's, over WebGL 2: one default
 * display, a window surface on the page's canvas (Module.canvas) made current with the context,
 * EGL_CONTEXT_CLIENT_VERSION 3 (WebGL 2) as the only context attribute it accepts, no pbuffers,
 * no platform or robustness extensions. The engine renders into its own textures, so the
 * canvas's default framebuffer asks for no depth, stencil, alpha or multisampling (an opaque
 * canvas, as a window's RGB visual is).
 *
 * Loss in the browser: the canvas's WebGL context is lost when the browser takes it away
 * ('webglcontextlost': GPU process reset, too many contexts, WEBGL_lose_context). The backend
 * accepts the event (preventDefault: without it the browser never restores the context) and
 * polls isContextLost() where the native build asks glGetGraphicsResetStatus. A lost device
 * keeps the lost context current: WebGL calls on a lost context do nothing, which is what
 * releasing it natively achieves, whereas Emscripten's GL layer cannot run a call without a
 * current context at all. A new context (recreate) is refused with HL_ERR_DEVICE_LOST until the
 * browser has restored the canvas's ('webglcontextrestored'); the restored context has none of
 * the old objects, and the recreated device makes them again. hl_rhi_device_simulate_loss marks
 * the device lost without destroying the context (the teardown's GL calls still need one; the
 * context is destroyed when the device is recreated or destroyed).
 *
 * EGL displays are per-platform singletons shared by every device of the process, so
 * eglTerminate runs only when the last user of a display goes away (a small refcount table).
 * Devices on different threads open and close displays concurrently: choosing, initialising,
 * referencing and terminating displays happen under one lock. A context is current on its
 * owner thread only (the core enforces the owner; detach/attach move it). */
#include <pthread.h>
#include <stdio.h>
#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#endif
#include <stdlib.h>
#include <string.h>

#include "gles3_internal.h"

#define HL__EGL_MAX_DISPLAYS 8

static struct {
    EGLDisplay display;
    uint32_t refs;
} hl__egl_displays[HL__EGL_MAX_DISPLAYS];
static pthread_mutex_t hl__egl_lock = PTHREAD_MUTEX_INITIALIZER;

/* The device whose context is current on this thread (NULL: none of ours). */
static _Thread_local hl_rhi_device *hl__gl_current;

static bool hl__has_ext(const char *list, const char *name) {
    if (!list) return false;
    size_t n = strlen(name);
    for (const char *p = list; (p = strstr(p, name)) != NULL; p += n) {
        bool start = p == list || p[-1] == ' ';
        bool end = p[n] == '\0' || p[n] == ' ';
        if (start && end) return true;
    }
    return false;
}

static void hl__display_ref(EGLDisplay d) {
    for (uint32_t i = 0; i < HL__EGL_MAX_DISPLAYS; i++) {
        if (hl__egl_displays[i].display == d && hl__egl_displays[i].refs) {
            hl__egl_displays[i].refs++;
            return;
        }
    }
    for (uint32_t i = 0; i < HL__EGL_MAX_DISPLAYS; i++) {
        if (!hl__egl_displays[i].refs) {
            hl__egl_displays[i].display = d;
            hl__egl_displays[i].refs = 1;
            return;
        }
    }
}

/* Drops one reference; terminates the display when nobody uses it (or it was never tracked). */
static void hl__display_unref(EGLDisplay d) {
    for (uint32_t i = 0; i < HL__EGL_MAX_DISPLAYS; i++) {
        if (hl__egl_displays[i].display == d && hl__egl_displays[i].refs) {
            if (--hl__egl_displays[i].refs) return;
            hl__egl_displays[i].display = EGL_NO_DISPLAY;
            break;
        }
    }
    eglTerminate(d);
}

static bool hl__display_in_use(EGLDisplay d) {
    for (uint32_t i = 0; i < HL__EGL_MAX_DISPLAYS; i++)
        if (hl__egl_displays[i].display == d && hl__egl_displays[i].refs) return true;
    return false;
}

#ifdef __EMSCRIPTEN__
/* Keeps the canvas's WebGL context (Module.ctx, the current one) on the canvas and, once per
 * page, accepts the canvas's 'webglcontextlost' events. 0 when no context is current. */
EM_JS(int, hl__web_canvas_watch, (void), {
    var c = Module['canvas'];
    if (!c || !Module['ctx']) return 0;
    c.hlGl = Module['ctx'];
    if (!c.hlWatched) {
        c.hlWatched = true;
        c.addEventListener('webglcontextlost', function(e) { e.preventDefault(); }, false);
    }
    return 1;
})
/* Whether the canvas's WebGL context (the one kept by hl__web_canvas_watch) is lost now. */
EM_JS(int, hl__web_canvas_lost, (void), {
    var c = Module['canvas'];
    return c && c.hlGl && c.hlGl.isContextLost() ? 1 : 0;
})

/* The canvas: the engine renders into its own textures, so the default framebuffer asks for no
 * depth, stencil, alpha or multisampling (window is always true here). */
static bool hl__choose_config(EGLDisplay d, bool window, EGLConfig *out, uint32_t *calls) {
    (void)window;
    EGLint attrs[] = {EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 0, EGL_DEPTH_SIZE, 0,
                      EGL_STENCIL_SIZE, 0, EGL_SAMPLE_BUFFERS, 0, EGL_NONE};
    EGLint n = 0;
    (*calls)++;
    return eglChooseConfig(d, attrs, out, 1, &n) && n > 0;
}
#else
/* Chooses an ES 3 config; pbuffer-capable first so the pbuffer fallback stays possible. For a
 * window system the config must also make window surfaces: RGB 8-8-8 without alpha asked for,
 * so EGL's order puts the 24-bit configs (those of a default TrueColor window visual) first. */
static bool hl__choose_config(EGLDisplay d, bool window, EGLConfig *out, uint32_t *calls) {
    const EGLint surface_types[2] = {EGL_PBUFFER_BIT, 0};
    for (int i = 0; i < 2; i++) {
        EGLint type = surface_types[i] | (window ? EGL_WINDOW_BIT : 0);
        EGLint attrs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_SURFACE_TYPE, type,
                          EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, window ? 0 : 8, EGL_NONE};
        EGLint n = 0;
        (*calls)++;
        if (eglChooseConfig(d, attrs, out, 1, &n) && n > 0) return true;
    }
    return false;
}
#endif

typedef struct hl__egl_pick {
    EGLDisplay display;
    EGLConfig config;
    const char *platform;
} hl__egl_pick;

/* Tries one display: initialize + ES 3 config. On failure terminates what it initialized. */
static bool hl__try_display(EGLDisplay d, const char *platform, bool window, hl__egl_pick *out, uint32_t *calls) {
    if (d == EGL_NO_DISPLAY) return false;
    EGLint major = 0, minor = 0;
    (*calls)++;
    if (!eglInitialize(d, &major, &minor)) return false;
    (*calls)++;
    if (!eglBindAPI(EGL_OPENGL_ES_API) || !hl__choose_config(d, window, &out->config, calls)) {
        if (!hl__display_in_use(d)) eglTerminate(d);
        return false;
    }
    out->display = d;
    out->platform = platform;
    return true;
}

/* $HL_EGL_DEVICE: the index of the one EGL device (EGL_EXT_platform_device) to use, for machines
 * with several GPUs; -1 when unset. Returns -2 for a value that is not a small index. */
static int hl__egl_device_override(void) {
    const char *v = getenv("HL_EGL_DEVICE");
    if (!v || !*v) return -1;
    char *end = NULL;
    long n = strtol(v, &end, 10);
    return (*end || n < 0 || n >= 16) ? -2 : (int)n;
}

#ifdef __EMSCRIPTEN__
static bool hl__pick_display(const hl_rhi_native_display *nd, hl__egl_pick *out, int only_device, uint32_t *calls) {
    (void)nd;
    if (only_device >= 0) return false;
    (*calls)++;
    return hl__try_display(eglGetDisplay(EGL_DEFAULT_DISPLAY), "canvas", true, out, calls);
}
#else
/* With a window system: its platform on the application's display, nothing else (an explicit
 * choice never falls back to a headless display, which could not show the window). */
static bool hl__pick_window_display(const hl_rhi_native_display *nd, const char *client,
                                    PFNEGLGETPLATFORMDISPLAYEXTPROC get_platform_display, hl__egl_pick *out,
                                    uint32_t *calls) {
    bool x11 = nd->system == HL_RHI_WINDOW_SYSTEM_X11;
    const char *ext_khr = x11 ? "EGL_KHR_platform_x11" : "EGL_KHR_platform_wayland";
    const char *ext_ext = x11 ? "EGL_EXT_platform_x11" : "EGL_EXT_platform_wayland";
    if (!get_platform_display || (!hl__has_ext(client, ext_khr) && !hl__has_ext(client, ext_ext))) return false;
    (*calls)++;
    EGLDisplay d = get_platform_display(x11 ? EGL_PLATFORM_X11_KHR : EGL_PLATFORM_WAYLAND_KHR, nd->display, NULL);
    return hl__try_display(d, x11 ? "X11" : "Wayland", true, out, calls);
}

static bool hl__pick_display(const hl_rhi_native_display *nd, hl__egl_pick *out, int only_device, uint32_t *calls) {
    (*calls)++;
    const char *client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_platform_display = NULL;
    if (hl__has_ext(client, "EGL_EXT_platform_base")) {
        (*calls)++;
        get_platform_display = (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    }
    if (nd && nd->system != HL_RHI_WINDOW_SYSTEM_NONE)
        return hl__pick_window_display(nd, client, get_platform_display, out, calls);
    /* 1. EGL_EXT_platform_device (NVIDIA headless): the first device that gives an ES 3 config. */
    if (get_platform_display && hl__has_ext(client, "EGL_EXT_platform_device")) {
        (*calls)++;
        PFNEGLQUERYDEVICESEXTPROC query_devices = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
        EGLDeviceEXT devices[16];
        EGLint count = 0;
        (*calls)++;
        if (query_devices && query_devices(16, devices, &count)) {
            for (EGLint i = 0; i < count; i++) {
                if (only_device >= 0 && i != only_device) continue;
                (*calls)++;
                EGLDisplay d = get_platform_display(EGL_PLATFORM_DEVICE_EXT, devices[i], NULL);
                if (hl__try_display(d, "device", false, out, calls)) return true;
            }
        }
    }
    if (only_device >= 0) return false;
    /* 2. Mesa surfaceless (llvmpipe here). */
    if (get_platform_display && hl__has_ext(client, "EGL_MESA_platform_surfaceless")) {
        (*calls)++;
        EGLDisplay d = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
        if (hl__try_display(d, "surfaceless", false, out, calls)) return true;
    }
    /* 3. Whatever the default display is. */
    (*calls)++;
    return hl__try_display(eglGetDisplay(EGL_DEFAULT_DISPLAY), "default", false, out, calls);
}
#endif

/* A recovery keeps the old device's display referenced until the new device has referenced its
 * own (the same display, as a rule): the display is not terminated and initialized again for
 * every recovery (on Mesa that tears down and re-creates the whole driver screen). */
void hl__gl_drop_kept_display(hl_rhi_device *dev) {
    if (!dev->recreate_keep) return;
    pthread_mutex_lock(&hl__egl_lock);
    hl__display_unref((EGLDisplay)dev->recreate_keep);
    pthread_mutex_unlock(&hl__egl_lock);
    dev->recreate_keep = NULL;
}

hl_result hl__gl_egl_open(hl_rhi_device *dev, hl__gl_device *g) {
    uint32_t calls = 0;
    hl__egl_pick pick = {0};
    const hl_rhi_native_display *nd = &dev->desc.display;
    bool windowed = nd->system != HL_RHI_WINDOW_SYSTEM_NONE;
    int only_device = windowed ? -1 : hl__egl_device_override();
    if (only_device == -2) {
        hl__gl_drop_kept_display(dev);
        return hl__fail(HL_ERR_UNSUPPORTED, "gles3: HL_EGL_DEVICE='%s' is not an EGL device index (0-15)",
                        getenv("HL_EGL_DEVICE"));
    }
#ifdef __EMSCRIPTEN__
    /* (a kept display stays kept for the next attempt, or until the device is destroyed) */
    if (hl__web_canvas_lost())
        return hl__fail(HL_ERR_DEVICE_LOST, "gles3: the canvas's WebGL context is lost and the browser has not "
                                            "restored it yet ('webglcontextrestored')");
#endif
    pthread_mutex_lock(&hl__egl_lock);
    bool ok = hl__pick_display(nd, &pick, only_device, &calls);
    EGLint pick_err = ok ? EGL_SUCCESS : eglGetError();
    if (ok) hl__display_ref(pick.display);
    pthread_mutex_unlock(&hl__egl_lock);
    hl__gl_drop_kept_display(dev); /* the old device's (recreate), now that this one holds its own */
    dev->stats.native_calls += calls;
#ifdef __EMSCRIPTEN__
    if (!ok)
        return hl__fail(HL_ERR_UNSUPPORTED, "gles3: no WebGL 2 EGL config on the page's canvas (EGL error 0x%x)",
                        (unsigned)pick_err);
#endif
    if (!ok && windowed)
        return hl__fail(HL_ERR_UNSUPPORTED,
                        "gles3: no EGL display with a window-capable OpenGL ES 3 config on the %s display "
                        "(EGL_%s_platform_%s; EGL error 0x%x)",
                        nd->system == HL_RHI_WINDOW_SYSTEM_X11 ? "X11" : "Wayland", "KHR",
                        nd->system == HL_RHI_WINDOW_SYSTEM_X11 ? "x11" : "wayland", (unsigned)pick_err);
    if (!ok && only_device >= 0)
        return hl__fail(HL_ERR_UNSUPPORTED, "gles3: HL_EGL_DEVICE=%d: no such EGL device with an OpenGL ES 3 config",
                        only_device);
    if (!ok)
        return hl__fail(HL_ERR_UNSUPPORTED,
                        "gles3: no EGL display with an OpenGL ES 3 config (tried device, surfaceless and "
                        "default platforms; EGL error 0x%x)",
                        (unsigned)pick_err);
    g->display = pick.display;
    g->platform = pick.platform;
    g->config = pick.config;
    g->pbuffer = EGL_NO_SURFACE;
    g->window = EGL_NO_SURFACE;

#ifdef __EMSCRIPTEN__
    const EGLint ctx_attrs[] = {EGL_CONTEXT_CLIENT_VERSION, 3, EGL_NONE};
#else
    const EGLint ctx_attrs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 0, EGL_NONE};
#endif
    /* With reset notification where EGL offers it, so that a GPU reset is reported
       (glGetGraphicsResetStatus) instead of leaving a context that silently draws nothing. */
    const char *dpy_ext = HL__GL(dev, eglQueryString(g->display, EGL_EXTENSIONS));
    bool reset_notify = false;
    if (hl__has_ext(dpy_ext, "EGL_EXT_create_context_robustness")) {
        const EGLint robust_attrs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 0,
                                       EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT, EGL_LOSE_CONTEXT_ON_RESET_EXT,
                                       EGL_NONE};
        g->context = HL__GL(dev, eglCreateContext(g->display, pick.config, EGL_NO_CONTEXT, robust_attrs));
        reset_notify = g->context != EGL_NO_CONTEXT;
        if (!reset_notify) (void)eglGetError();
    }
    if (!reset_notify) g->context = HL__GL(dev, eglCreateContext(g->display, pick.config, EGL_NO_CONTEXT, ctx_attrs));
    if (g->context == EGL_NO_CONTEXT) {
        EGLint err = eglGetError();
        hl__gl_egl_close(dev, g);
        return hl__fail(HL_ERR_UNSUPPORTED, "gles3: eglCreateContext(ES 3.0) failed on the %s display (0x%x)",
                        pick.platform, (unsigned)err);
    }
#ifdef __EMSCRIPTEN__
    /* the canvas: `pbuffer` is the surface made current with the context wherever it is one */
    g->pbuffer = HL__GL(dev, eglCreateWindowSurface(g->display, pick.config, 0, NULL));
    if (g->pbuffer == EGL_NO_SURFACE) {
        EGLint err = eglGetError();
        hl__gl_egl_close(dev, g);
        return hl__fail(HL_ERR_UNSUPPORTED, "gles3: no window surface on the page's canvas (EGL error 0x%x)",
                        (unsigned)err);
    }
#else
    if (!hl__has_ext(dpy_ext, "EGL_KHR_surfaceless_context")) {
        const EGLint pb_attrs[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
        g->pbuffer = HL__GL(dev, eglCreatePbufferSurface(g->display, pick.config, pb_attrs));
        if (g->pbuffer == EGL_NO_SURFACE) {
            EGLint err = eglGetError();
            hl__gl_egl_close(dev, g);
            return hl__fail(HL_ERR_UNSUPPORTED,
                            "gles3: the %s display has no EGL_KHR_surfaceless_context and a 1x1 pbuffer "
                            "failed (0x%x)",
                            pick.platform, (unsigned)err);
        }
    }
#endif
    if (!HL__GL(dev, eglMakeCurrent(g->display, g->pbuffer, g->pbuffer, g->context))) {
        EGLint err = eglGetError();
        hl__gl_egl_close(dev, g);
        return hl__fail(HL_ERR_BACKEND, "gles3: eglMakeCurrent failed (0x%x)", (unsigned)err);
    }
    hl__gl_current = dev;
#ifdef __EMSCRIPTEN__
    if (!hl__web_canvas_watch()) {
        hl__gl_egl_close(dev, g);
        return hl__fail(HL_ERR_BACKEND, "gles3: no WebGL context is current on Module.canvas after eglMakeCurrent");
    }
    if (hl__web_canvas_lost()) { /* lost while it was made */
        hl__gl_egl_close(dev, g);
        return hl__fail(HL_ERR_DEVICE_LOST, "gles3: the canvas's WebGL context is lost (the browser gives it back "
                                            "with 'webglcontextrestored')");
    }
#endif
    if (reset_notify) {
        const char *gl_ext = (const char *)HL__GL(dev, glGetString(GL_EXTENSIONS));
        const char *fn = hl__has_ext(gl_ext, "GL_KHR_robustness")   ? "glGetGraphicsResetStatusKHR"
                         : hl__has_ext(gl_ext, "GL_EXT_robustness") ? "glGetGraphicsResetStatusEXT"
                                                                    : NULL;
        if (fn) g->reset_status = (GLenum(*)(void))HL__GL(dev, eglGetProcAddress(fn));
    }
    return HL_OK;
}

/* ---- device loss ------------------------------------------------------------------------------- */
static void hl__gl_release_current(hl_rhi_device *dev, hl__gl_device *g) {
#ifdef __EMSCRIPTEN__
    (void)dev, (void)g; /* the lost context stays current: its calls do nothing (see the top) */
#else
    if (HL__GL(dev, eglGetCurrentContext()) != EGL_NO_CONTEXT)
        HL__GL(dev, eglMakeCurrent(g->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
    hl__gl_current = NULL;
#endif
}

void hl__gl_check_lost(hl_rhi_device *dev) { hl__gl_poll_lost(dev, true); }

void hl__gl_poll_lost(hl_rhi_device *dev, bool full) {
    hl__gl_device *g = hl__gl(dev);
    if (!g || dev->lost || g->display == EGL_NO_DISPLAY) return;
    const char *why = NULL;
#ifdef __EMSCRIPTEN__
    /* isContextLost() (one JS call); EGL's context query answers from its magic numbers only */
    (void)full;
    if (g->web_simulated_loss) why = "hl_rhi_device_simulate_loss";
    else if (HL__GL(dev, hl__web_canvas_lost())) why = "the canvas's WebGL context was lost: webglcontextlost";
#else
    EGLint value = 0;
    EGLint err = EGL_SUCCESS;
    /* EGL_CONFIG_ID: an attribute every EGL version answers; only a context EGL no longer knows
       (EGL_BAD_CONTEXT) or one it reports lost counts, never another error of the query */
    if (full && !HL__GL(dev, eglQueryContext(g->display, g->context, EGL_CONFIG_ID, &value)))
        err = eglGetError();
    if (err == EGL_CONTEXT_LOST || err == EGL_BAD_CONTEXT) {
        why = err == EGL_CONTEXT_LOST ? "EGL_CONTEXT_LOST" : "the EGL context is no longer valid";
    } else if (g->reset_status) {
        hl__gl_make_current(dev);
        GLenum status = HL__GL(dev, g->reset_status());
        if (status == 0x8253) why = "a GPU reset caused by this context (GL_GUILTY_CONTEXT_RESET)";
        else if (status == 0x8254) why = "a GPU reset caused elsewhere (GL_INNOCENT_CONTEXT_RESET)";
        else if (status != GL_NO_ERROR) why = "a GPU reset (GL_UNKNOWN_CONTEXT_RESET)";
    }
#endif
    if (!why) return;
    dev->lost = true;
    /* nothing of this device may run GL again: its teardown's calls reach no context */
    if (hl__gl_current == dev || HL__GL(dev, eglGetCurrentContext()) == g->context) hl__gl_release_current(dev, g);
    snprintf(dev->lost_reason, sizeof dev->lost_reason, "gles3: the context was lost (%s)", why);
    hl__fail(HL_ERR_DEVICE_LOST, "%s", dev->lost_reason);
}

void hl__gl_simulate_loss(hl_rhi_device *dev) {
    hl__gl_device *g = hl__gl(dev);
    if (!g || g->display == EGL_NO_DISPLAY || g->context_destroyed) return;
#ifdef __EMSCRIPTEN__
    g->web_simulated_loss = true; /* the context stays (see the top); recreate destroys it */
#else
    if (hl__gl_current == dev || HL__GL(dev, eglGetCurrentContext()) == g->context) hl__gl_release_current(dev, g);
    HL__GL(dev, eglDestroyContext(g->display, g->context));
    if (g->pbuffer != EGL_NO_SURFACE) HL__GL(dev, eglDestroySurface(g->display, g->pbuffer));
    g->context_destroyed = true;
#endif
    hl__gl_check_lost(dev); /* found as a real loss is: the context is no longer valid */
}

void hl__gl_egl_close(hl_rhi_device *dev, hl__gl_device *g) {
    if (g->display == EGL_NO_DISPLAY) return;
    if (hl__gl_current == dev) hl__gl_current = NULL;
    if (!g->context_destroyed) {
        if (HL__GL(dev, eglGetCurrentContext()) == g->context && g->context != EGL_NO_CONTEXT)
            HL__GL(dev, eglMakeCurrent(g->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
        if (g->window != EGL_NO_SURFACE) HL__GL(dev, eglDestroySurface(g->display, g->window));
        if (g->context != EGL_NO_CONTEXT) HL__GL(dev, eglDestroyContext(g->display, g->context));
        if (g->pbuffer != EGL_NO_SURFACE) HL__GL(dev, eglDestroySurface(g->display, g->pbuffer));
    }
    if (dev->recreating && !dev->recreate_keep) {
        dev->recreate_keep = g->display; /* its reference goes once the new device has its own */
    } else {
        pthread_mutex_lock(&hl__egl_lock);
        HL__GL(dev, hl__display_unref(g->display));
        pthread_mutex_unlock(&hl__egl_lock);
    }
    /* Frees EGL's per-thread state, unless another device's context is current here. */
    if (!hl__gl_current) HL__GL(dev, eglReleaseThread());
    g->display = EGL_NO_DISPLAY;
    g->context = EGL_NO_CONTEXT;
    g->pbuffer = EGL_NO_SURFACE;
    g->window = EGL_NO_SURFACE;
}

void hl__gl_egl_abandon(hl_rhi_device *dev, hl__gl_device *g) {
    if (g->display == EGL_NO_DISPLAY) return;
    hl__gl_thread_detach(dev);
    g->display = EGL_NO_DISPLAY;
    g->context = EGL_NO_CONTEXT;
    g->pbuffer = EGL_NO_SURFACE;
}

void hl__gl_make_current(hl_rhi_device *dev) {
    hl__gl_device *g = hl__gl(dev);
#ifndef __EMSCRIPTEN__ /* the browser's lost context stays current */
    if (dev->lost) {
        if (g && g->display != EGL_NO_DISPLAY && (hl__gl_current || HL__GL(dev, eglGetCurrentContext()) != EGL_NO_CONTEXT))
            hl__gl_release_current(dev, g);
        return;
    }
#endif
    if (hl__gl_current == dev) return;
    EGLSurface draw = hl__gl_draw_surface(g);
    if (HL__GL(dev, eglMakeCurrent(g->display, draw, draw, g->context))) hl__gl_current = dev;
}

hl_result hl__gl_make_current_with(hl_rhi_device *dev, EGLSurface draw) {
    hl__gl_device *g = hl__gl(dev);
    if (!HL__GL(dev, eglMakeCurrent(g->display, draw, draw, g->context))) {
        EGLint err = eglGetError();
        hl__gl_current = NULL;
        return hl__fail(HL_ERR_BACKEND, "gles3: eglMakeCurrent with the %s surface failed (0x%x)",
                        draw == g->window && draw != EGL_NO_SURFACE ? "window" : "offscreen", (unsigned)err);
    }
    hl__gl_current = dev;
    return HL_OK;
}

void hl__gl_thread_detach(hl_rhi_device *dev) {
    hl__gl_device *g = hl__gl(dev);
    if (!g || g->display == EGL_NO_DISPLAY) return;
    /* Releasing a context flushes it, so its commands still reach the GPU. */
    if (HL__GL(dev, eglGetCurrentContext()) == g->context)
        HL__GL(dev, eglMakeCurrent(g->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
    if (hl__gl_current == dev) hl__gl_current = NULL;
    /* Frees EGL's per-thread state (the thread may exit next), unless another device's
     * context is current here. */
    if (!hl__gl_current) HL__GL(dev, eglReleaseThread());
}

hl_result hl__gl_thread_attach(hl_rhi_device *dev) {
    hl__gl_device *g = hl__gl(dev);
    if (!g || g->display == EGL_NO_DISPLAY) return HL_OK;
    EGLSurface draw = hl__gl_draw_surface(g);
    if (!HL__GL(dev, eglMakeCurrent(g->display, draw, draw, g->context)))
        return hl__fail(HL_ERR_BACKEND,
                        "gles3: eglMakeCurrent on the new owner thread failed (0x%x): is the context still "
                        "current on another thread?",
                        (unsigned)eglGetError());
    hl__gl_current = dev;
    return HL_OK;
}

hl_result hl__gl_probe(const hl_rhi_requirements *req, const hl_rhi_device_desc *desc, char *adapter_name,
                       size_t adapter_name_size) {
    const uint32_t never = HL_RHI_FEATURE_COMPUTE | HL_RHI_FEATURE_STORAGE_BUFFER | HL_RHI_FEATURE_STORAGE_TEXTURE |
                           HL_RHI_FEATURE_INDIRECT_DRAW | HL_RHI_FEATURE_TEXTURE_1D | HL_RHI_FEATURE_BASE_VERTEX |
                           HL_RHI_FEATURE_FIRST_INSTANCE | HL_RHI_FEATURE_BUFFER_MAP_ASYNC;
    uint32_t missing = req ? (req->features & never) : 0;
    if (missing) {
        uint32_t bit = missing & (~missing + 1u);
        return hl__fail(HL_ERR_UNSUPPORTED, "gles3: OpenGL ES 3.0 has no \"%s\" (requirements.features)",
                        hl_rhi_feature_name(bit));
    }
    uint32_t calls = 0;
    hl__egl_pick pick = {0};
    const hl_rhi_native_display *nd = desc ? &desc->display : NULL;
    int only_device = nd && nd->system != HL_RHI_WINDOW_SYSTEM_NONE ? -1 : hl__egl_device_override();
    pthread_mutex_lock(&hl__egl_lock);
    if (only_device == -2 || !hl__pick_display(nd, &pick, only_device, &calls)) {
        EGLint err = eglGetError();
        pthread_mutex_unlock(&hl__egl_lock);
        return hl__fail(HL_ERR_UNSUPPORTED, "gles3: no EGL display with an OpenGL ES 3 config (EGL error 0x%x)",
                        (unsigned)err);
    }
    if (adapter_name && adapter_name_size) {
        /* The GL renderer string needs a context; the EGL vendor and platform are cheap. */
        const char *vendor = eglQueryString(pick.display, EGL_VENDOR);
        snprintf(adapter_name, adapter_name_size, "%s (EGL %s platform)", vendor ? vendor : "EGL", pick.platform);
    }
    if (!hl__display_in_use(pick.display)) eglTerminate(pick.display);
    pthread_mutex_unlock(&hl__egl_lock);
    if (!hl__gl_current) eglReleaseThread();
    return HL_OK;
}
