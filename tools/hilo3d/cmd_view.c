/* `hilo3d view [MODEL]`: the demo scene or a glTF model in a window (GLFW, X11), presented
 * through the renderer's window surface (renderer.h, "windows").
 *
 * Controls: left drag orbits, right or middle drag pans, the wheel zooms; R resets the camera;
 * Space plays / pauses the model's animation, + and - double / halve its speed; P cycles the
 * pipelines (forward, forward-post, deferred: the renderer is made again, the scene stays); Esc
 * or Q closes. The title shows the frame time (wall, and the CPU of render and present).
 *
 * For tests: --frames N quits after N presented frames, --capture FILE.png then saves what the
 * window shows: an X screenshot of the window (XGetImage), not a readback of the swapchain
 * image, so that the whole path is checked, present copy, swapchain and window system included.
 * A swapchain may present from a queue of its own (lavapipe's X11 one does in FIFO mode), so the
 * capture waits until two screenshots 50 ms apart agree (at most 2 s) after the GPU is idle; the
 * frames before it show the same still scene. --resize-test scripts rapid resizes (down to 1x1
 * and up to 1200x900, one per frame), hides and shows the window, simulates a minimised window
 * (a 0 x 0 framebuffer: nothing rendered or presented), cycles the three pipelines back to
 * the first as P does, drives the input handlers (orbit and pan drags, the wheel, the keys, R),
 * and then runs the N frames at --size. Every run ends by the window's close request, as a
 * click on the close button does. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#define GLFW_EXPOSE_NATIVE_X11
#include <GLFW/glfw3native.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>

#include "cli.h"
#include "hilo3d/renderer.h"
#include "hl_scene_demo.h"

static const char *const k_pipelines[] = HL_CLI_PIPELINES;
#define PIPELINE_COUNT 3

typedef struct orbit {
    hl_vec3 target;
    float distance, yaw, pitch; /* radians; pitch above the target's horizon */
} orbit;

typedef struct viewer {
    GLFWwindow *win;
    hl_renderer *r;
    hl_renderer_desc rd;
    uint32_t pipeline; /* index into k_pipelines */
    bool cycle_pipeline;
    const char *scene_name;
    hl_stage *stage;
    hl_camera *camera;      /* the one drawn with */
    hl_camera *file_camera; /* a model's own camera (orbiting switches to `own`) */
    hl_camera *own;         /* the viewer's orbit camera for a model with a camera of its file */
    hl_vec3 home_pos;       /* the first camera's transform, for R */
    hl_quat home_rot;
    orbit home_orbit, orb;
    float fov_y;
    /* mouse */
    int drag; /* 0 none, 1 orbit, 2 pan */
    double mx, my;
    /* animation */
    hl_animation *anim;
    double anim_time, anim_speed;
    bool playing;
    /* window */
    int fb_w, fb_h;
    bool simulate_minimised;
    /* --resize-test: how far the scripted input moved the camera, and how far from the first
       view R left it */
    float script_moved, script_back;
    bool script_input;
    /* counters of the renderers made so far but the current one (P makes a new one) */
    uint64_t skipped_before;
    uint32_t configures_before;
} viewer;

/* ---- camera --------------------------------------------------------------------------------------- */
static orbit orbit_from(hl_vec3 pos, hl_vec3 target) {
    orbit o;
    hl_vec3 d = {pos.x - target.x, pos.y - target.y, pos.z - target.z};
    o.target = target;
    o.distance = hl_vec3_length(d);
    if (!(o.distance > 1e-4f)) o.distance = 1.0f;
    o.pitch = asinf(fmaxf(-1.0f, fminf(1.0f, d.y / o.distance)));
    o.yaw = atan2f(d.x, d.z);
    return o;
}

static void orbit_apply(viewer *v) {
    const orbit *o = &v->orb;
    float cp = cosf(o->pitch);
    hl_vec3 p = {o->target.x + o->distance * cp * sinf(o->yaw), o->target.y + o->distance * sinf(o->pitch),
                 o->target.z + o->distance * cp * cosf(o->yaw)};
    hl_node *n = hl_camera_node(v->camera);
    hl_node_set_translation(n, p);
    hl_node_look_at(n, o->target, (hl_vec3){0, 1, 0});
}

/* The first interaction with a model seen through its file's camera moves to the viewer's own
 * orbit camera (the file's may sit under transformed parents) from where the file's was. */
static void begin_interaction(viewer *v) {
    if (v->camera != v->file_camera || !v->own) return;
    hl_camera_update(v->file_camera);
    hl_vec3 pos = hl_node_world_position(hl_camera_node(v->file_camera));
    v->orb = orbit_from(pos, v->home_orbit.target);
    v->camera = v->own;
}

static void camera_reset(viewer *v) {
    v->camera = v->file_camera ? v->file_camera : v->camera;
    v->orb = v->home_orbit;
    if (!v->file_camera) {
        hl_node *n = hl_camera_node(v->camera);
        hl_node_set_translation(n, v->home_pos);
        hl_node_set_rotation(n, v->home_rot);
    }
}

/* ---- input ---------------------------------------------------------------------------------------- */
static void on_key(GLFWwindow *w, int key, int scancode, int action, int mods) {
    (void)scancode, (void)mods;
    if (action != GLFW_PRESS && action != GLFW_REPEAT) return;
    viewer *v = glfwGetWindowUserPointer(w);
    switch (key) {
    case GLFW_KEY_ESCAPE:
    case GLFW_KEY_Q: glfwSetWindowShouldClose(w, GLFW_TRUE); break;
    case GLFW_KEY_R: camera_reset(v); break;
    case GLFW_KEY_SPACE: v->playing = !v->playing; break;
    case GLFW_KEY_EQUAL:
    case GLFW_KEY_KP_ADD: v->anim_speed = fmin(v->anim_speed * 2.0, 64.0); break;
    case GLFW_KEY_MINUS:
    case GLFW_KEY_KP_SUBTRACT: v->anim_speed = fmax(v->anim_speed * 0.5, 1.0 / 64.0); break;
    case GLFW_KEY_P: v->cycle_pipeline = true; break;
    default: break;
    }
}

static void on_button(GLFWwindow *w, int button, int action, int mods) {
    (void)mods;
    viewer *v = glfwGetWindowUserPointer(w);
    if (action == GLFW_RELEASE) {
        v->drag = 0;
        return;
    }
    glfwGetCursorPos(w, &v->mx, &v->my);
    v->drag = button == GLFW_MOUSE_BUTTON_LEFT ? 1 : (button == GLFW_MOUSE_BUTTON_RIGHT || button == GLFW_MOUSE_BUTTON_MIDDLE) ? 2 : 0;
    if (v->drag) begin_interaction(v);
}

static void on_cursor(GLFWwindow *w, double x, double y) {
    viewer *v = glfwGetWindowUserPointer(w);
    double dx = x - v->mx, dy = y - v->my;
    v->mx = x, v->my = y;
    if (!v->drag) return;
    orbit *o = &v->orb;
    if (v->drag == 1) {
        o->yaw -= (float)dx * 0.008f;
        o->pitch += (float)dy * 0.008f;
        o->pitch = fmaxf(-1.55f, fminf(1.55f, o->pitch));
    } else {
        /* the target moves with the cursor: a pixel is 2 tan(fov/2) distance / height */
        float k = 2.0f * tanf(v->fov_y * 0.5f) * o->distance / (float)(v->fb_h > 0 ? v->fb_h : 1);
        float sy = sinf(o->yaw), cy = cosf(o->yaw), sp = sinf(o->pitch), cp = cosf(o->pitch);
        hl_vec3 right = {cy, 0.0f, -sy}, up = {-sp * sy, cp, -sp * cy};
        o->target.x += (-(float)dx * right.x + (float)dy * up.x) * k;
        o->target.y += (-(float)dx * right.y + (float)dy * up.y) * k;
        o->target.z += (-(float)dx * right.z + (float)dy * up.z) * k;
    }
    orbit_apply(v);
}

static void on_scroll(GLFWwindow *w, double xoff, double yoff) {
    (void)xoff;
    viewer *v = glfwGetWindowUserPointer(w);
    begin_interaction(v);
    v->orb.distance *= powf(0.88f, (float)yoff);
    v->orb.distance = fmaxf(v->orb.distance, 1e-3f);
    orbit_apply(v);
}

static void on_glfw_error(int code, const char *msg) { hl_cli_error("GLFW error 0x%x: %s", (unsigned)code, msg); }

/* ---- the renderer ----------------------------------------------------------------------------------- */
static hl_result make_renderer(viewer *v, uint32_t pipeline) {
    hl_pipeline_factory *factory = NULL;
    hl_result res = hl_demo_pipeline_factory(k_pipelines[pipeline], &factory);
    if (res) return res;
    hl_renderer_desc d = v->rd;
    d.pipeline = factory;
    d.width = (uint32_t)v->fb_w;
    d.height = (uint32_t)v->fb_h;
    res = hl_renderer_create(&d, &v->r);
    hl_demo_pipeline_release(k_pipelines[pipeline], factory);
    if (!res) v->pipeline = pipeline;
    return res;
}

/* P: the next pipeline (the renderer is made again; the scene stays). A pipeline the device
 * cannot run is skipped with a message and the one before is kept. */
static hl_result cycle_pipeline(viewer *v) {
    uint32_t now = v->pipeline;
    const hl_render_stats *s = hl_renderer_stats(v->r);
    v->skipped_before += s->presents_skipped;
    v->configures_before += s->surface_configures;
    hl_renderer_destroy(v->r);
    v->r = NULL;
    for (uint32_t k = 1; k <= PIPELINE_COUNT; k++) {
        uint32_t next = (now + k) % PIPELINE_COUNT;
        hl_result res = make_renderer(v, next);
        if (!res) return HL_OK;
        hl_cli_error("pipeline %s: %s: %s", k_pipelines[next], hl_result_name(res), hl_last_error());
    }
    return HL_ERR_UNSUPPORTED;
}

/* ---- capture: what the X server shows in the window ------------------------------------------------- */
static int g_x_error;
static int on_x_error(Display *d, XErrorEvent *e) {
    (void)d;
    g_x_error = e->error_code ? e->error_code : 1;
    return 0;
}

static uint8_t *screenshot(Display *d, Window w, uint32_t width, uint32_t height) {
    XSync(d, False);
    g_x_error = 0;
    int (*old)(Display *, XErrorEvent *) = XSetErrorHandler(on_x_error);
    XImage *img = XGetImage(d, w, 0, 0, width, height, AllPlanes, ZPixmap);
    XSync(d, False);
    XSetErrorHandler(old);
    if (!img || g_x_error) {
        if (img) XDestroyImage(img);
        return NULL;
    }
    uint8_t *rgba = malloc((size_t)width * height * 4);
    int shift[3] = {0, 0, 0};
    unsigned long mask[3] = {img->red_mask, img->green_mask, img->blue_mask};
    for (int c = 0; c < 3; c++)
        for (unsigned long m = mask[c]; m && !(m & 1u); m >>= 1) shift[c]++;
    for (uint32_t y = 0; rgba && y < height; y++)
        for (uint32_t x = 0; x < width; x++) {
            unsigned long p = XGetPixel(img, (int)x, (int)y);
            uint8_t *o = rgba + ((size_t)y * width + x) * 4;
            for (int c = 0; c < 3; c++) o[c] = (uint8_t)((p & mask[c]) >> shift[c]);
            o[3] = 255;
        }
    XDestroyImage(img);
    return rgba;
}

static int capture(viewer *v, const char *path) {
    hl_result res = hl_renderer_wait_idle(v->r);
    if (res) {
        hl_cli_error("capture: %s: %s", hl_result_name(res), hl_last_error());
        return HL_CLI_EXIT_FAIL;
    }
    Display *d = glfwGetX11Display();
    Window w = glfwGetX11Window(v->win);
    uint32_t width = (uint32_t)v->fb_w, height = (uint32_t)v->fb_h;
    size_t n = (size_t)width * height * 4;
    uint8_t *last = NULL;
    for (int tries = 0; tries < 40; tries++) {
        uint8_t *now = screenshot(d, w, width, height);
        if (!now) {
            free(last);
            hl_cli_error("capture: XGetImage of the window failed (X error %d)", g_x_error);
            return HL_CLI_EXIT_FAIL;
        }
        bool stable = last && !memcmp(last, now, n);
        free(last);
        last = now;
        if (stable) break;
        struct timespec ts = {0, 50 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    int rc = hl_cli_write_png(path, width, height, last);
    free(last);
    if (!rc) hl_cli_printf("capture: wrote %s (%ux%u, an X screenshot of the window)\n", path, width, height);
    return rc ? HL_CLI_EXIT_FAIL : HL_CLI_EXIT_OK;
}

/* ---- --resize-test ---------------------------------------------------------------------------------- */
#define SCRIPT_STEPS 56
/* Step i of the script, before frame i: rapid resizes, hide / show, a simulated minimise, the
 * three pipelines in turn (P) back to the first, back to w x h, then the input handlers as GLFW
 * calls them: an orbit drag, a pan drag, the wheel, Space, + and -, and R (the frames after it
 * must show the first view again). Returns false once the script is over. */
static bool script_step(viewer *v, uint32_t i, int w, int h) {
    static const int sizes[][2] = {{640, 360}, {1, 1},    {1200, 900}, {17, 333}, {333, 17}, {2, 2},
                                   {600, 451}, {64, 64},  {1023, 77},  {5, 700},  {320, 240}, {600, 600},
                                   {3, 1},     {700, 5},  {128, 96},   {641, 359}, {1, 900},  {900, 1},
                                   {480, 270}, {256, 256}, {720, 400}, {33, 44},  {401, 301}, {160, 90}};
    const uint32_t n = (uint32_t)(sizeof sizes / sizeof sizes[0]);
    if (i < n) glfwSetWindowSize(v->win, sizes[i][0], sizes[i][1]);
    else if (i == n) glfwHideWindow(v->win); /* presents to an unmapped window for a few frames */
    else if (i == n + 4) glfwShowWindow(v->win);
    else if (i == n + 6) v->simulate_minimised = true; /* a 0 x 0 framebuffer, as minimised */
    else if (i == n + 12) {
        v->simulate_minimised = false;
        glfwSetWindowSize(v->win, w, h);
    } else if (i == n + 14 || i == n + 16 || i == n + 18) {
        v->cycle_pipeline = true; /* as the P key does */
    } else if (i == n + 20) { /* left drag: orbit */
        on_cursor(v->win, 100, 100);
        on_button(v->win, GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, 0);
        v->mx = 100, v->my = 100;
        on_cursor(v->win, 160, 80);
        on_button(v->win, GLFW_MOUSE_BUTTON_LEFT, GLFW_RELEASE, 0);
    } else if (i == n + 22) { /* right drag: pan; the wheel: zoom */
        on_button(v->win, GLFW_MOUSE_BUTTON_RIGHT, GLFW_PRESS, 0);
        v->mx = 100, v->my = 100;
        on_cursor(v->win, 120, 110);
        on_button(v->win, GLFW_MOUSE_BUTTON_RIGHT, GLFW_RELEASE, 0);
        on_scroll(v->win, 0, 2);
    } else if (i == n + 24) {
        on_key(v->win, GLFW_KEY_SPACE, 0, GLFW_PRESS, 0);
        on_key(v->win, GLFW_KEY_EQUAL, 0, GLFW_PRESS, 0);
        on_key(v->win, GLFW_KEY_MINUS, 0, GLFW_PRESS, 0);
        on_key(v->win, GLFW_KEY_SPACE, 0, GLFW_PRESS, 0);
    } else if (i == n + 26) {
        hl_node *cn = hl_camera_node(v->camera);
        hl_vec3 p = hl_node_translation(cn);
        v->script_moved = hl_vec3_length((hl_vec3){p.x - v->home_pos.x, p.y - v->home_pos.y, p.z - v->home_pos.z});
        on_key(v->win, GLFW_KEY_R, 0, GLFW_PRESS, 0);
        p = hl_node_translation(hl_camera_node(v->camera));
        v->script_back = hl_vec3_length((hl_vec3){p.x - v->home_pos.x, p.y - v->home_pos.y, p.z - v->home_pos.z});
        v->script_input = true;
    }
    return i < SCRIPT_STEPS;
}

/* ---- the command ----------------------------------------------------------------------------------- */
static bool parse_size(const char *s, int *w, int *h) {
    const char *x = strchr(s, 'x');
    if (!x) return false;
    char tmp[16];
    size_t n = (size_t)(x - s);
    if (!n || n >= sizeof tmp) return false;
    memcpy(tmp, s, n);
    tmp[n] = '\0';
    uint32_t a, b;
    if (!hl_cli_parse_u32(tmp, 1, 8192, &a) || !hl_cli_parse_u32(x + 1, 1, 8192, &b)) return false;
    *w = (int)a, *h = (int)b;
    return true;
}

static void set_title(viewer *v, double frame_ms) {
    const hl_render_stats *s = hl_renderer_stats(v->r);
    char t[256];
    char anim[48] = "";
    if (v->anim) snprintf(anim, sizeof anim, " | animation %s x%g", v->playing ? "playing" : "paused", v->anim_speed);
    snprintf(t, sizeof t, "hilo3d view: %s | %s, %s | %.2f ms/frame (CPU: render %.2f ms, present %.2f ms)%s",
             v->scene_name, hl_backend_name(hl_renderer_backend(v->r)), k_pipelines[v->pipeline], frame_ms,
             (double)s->cpu_ns / 1e6, (double)s->present_ns / 1e6, anim);
    glfwSetWindowTitle(v->win, t);
}

int hl_cli_view(int argc, char **argv) {
    static const hl_cli_command cmd = {
        "view", "hilo3d view [MODEL.gltf|MODEL.glb] [OPTIONS]: shows the built-in demo scene, or a glTF 2.0 model\n"
                "(framed as 'hilo3d render MODEL' frames it), in a window (GLFW on X11).\n"
                "Mouse: left drag orbits, right or middle drag pans, the wheel zooms. Keys: R resets the camera,\n"
                "Space plays/pauses the model's animation, + and - change its speed, P cycles the pipelines\n"
                "(forward, forward-post, deferred), Esc or Q closes. The title shows the frame time.\n"};
    static const char *const backends[] = {"auto", "webgpu", "gles3", NULL};
    static const uint32_t sample_counts[] = {1, 4, 0};
    const char *model = NULL;
    if (argc > 1 && hl_cli_is_model(argv[1])) {
        model = argv[1];
        argc--, argv++;
    }
    const char *backend_name = "auto", *pipeline_name = "forward", *size_arg = "1280x720", *capture_path = NULL;
    const char *env_arg = "default", *exposure_arg = "1", *camera_arg = "auto", *anim_arg = NULL;
    uint32_t frames = 0, samples = 4;
    bool resize_test = false, no_vsync = false, paused = false;
    const hl_cli_option opts[] = {
        {.name = "backend", .kind = HL_CLI_CHOICE, .help = "GPU backend (auto: webgpu, else gles3)",
         .value = &backend_name, .choices = backends},
        {.name = "pipeline", .kind = HL_CLI_CHOICE, .help = "the first render pipeline (P cycles them)",
         .value = &pipeline_name, .choices = k_pipelines},
        {.name = "size", .kind = HL_CLI_STRING, .metavar = "WxH", .help = "the window's size", .value = &size_arg},
        {.name = "samples", .kind = HL_CLI_U32, .metavar = "N", .help = "MSAA samples", .value = &samples, .lo = 1,
         .hi = 4, .one_of = sample_counts},
        {.name = "no-vsync", .kind = HL_CLI_FLAG, .help = "present without waiting for the display's refresh",
         .value = &no_vsync},
        {.name = "camera", .kind = HL_CLI_STRING, .metavar = "auto|INDEX", .help = "a model's camera (as for render)",
         .value = &camera_arg},
        {.name = "animation", .kind = HL_CLI_STRING, .metavar = "INDEX|NAME",
         .help = "the model's animation to play", .value = &anim_arg, .default_text = "the first"},
        {.name = "paused", .kind = HL_CLI_FLAG, .help = "start with the animation paused (Space plays it)",
         .value = &paused},
        {.name = "env", .kind = HL_CLI_STRING, .metavar = "default|none|FILE.hdr",
         .help = "image-based lighting: the default studio, none, or an equirectangular Radiance HDR file",
         .value = &env_arg},
        {.name = "exposure", .kind = HL_CLI_STRING, .metavar = "X", .help = "linear exposure of the lit colour",
         .value = &exposure_arg},
        {.name = "frames", .kind = HL_CLI_U32, .metavar = "N", .help = "close after N presented frames (0: when closed)",
         .value = &frames, .lo = 0, .hi = 100000000},
        {.name = "capture", .kind = HL_CLI_STRING, .metavar = "FILE.png",
         .help = "at the end, save what the window shows (an X screenshot) as PNG", .value = &capture_path,
         .default_text = "none"},
        {.name = "resize-test", .kind = HL_CLI_FLAG,
         .help = "first resize the window rapidly, hide and show it, simulate a minimised window, cycle the "
                 "pipelines, drive the mouse and key handlers, then run --frames",
         .value = &resize_test},
    };
    int prc = hl_cli_parse(&cmd, opts, sizeof opts / sizeof opts[0], argc, argv);
    if (prc >= 0) return prc;
    viewer v;
    memset(&v, 0, sizeof v);
    int want_w = 0, want_h = 0;
    if (!parse_size(size_arg, &want_w, &want_h)) {
        hl_cli_error("--size '%s': WxH, each 1..8192", size_arg);
        return HL_CLI_EXIT_USAGE;
    }
    hl_result res = hl_backend_parse(backend_name, &v.rd.backend);
    if (res) {
        hl_cli_error("%s: %s", hl_result_name(res), hl_last_error());
        return HL_CLI_EXIT_USAGE;
    }
    for (uint32_t i = 0; i < PIPELINE_COUNT; i++)
        if (!strcmp(pipeline_name, k_pipelines[i])) v.pipeline = i;
    if (capture_path && !frames) {
        hl_cli_error("--capture needs --frames N (the capture is taken after the last frame)");
        return HL_CLI_EXIT_USAGE;
    }

    /* the window first: the renderer is made for it */
    glfwSetErrorCallback(on_glfw_error);
    if (!glfwInit()) {
        hl_cli_error("cannot open a window (is DISPLAY set? GLFW could not initialise)");
        return HL_CLI_EXIT_FAIL;
    }
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API); /* the renderer makes its own surface */
    v.win = glfwCreateWindow(want_w, want_h, "hilo3d view", NULL, NULL);
    if (!v.win) {
        hl_cli_error("cannot create a %dx%d window", want_w, want_h);
        glfwTerminate();
        return HL_CLI_EXIT_FAIL;
    }
    glfwSetWindowUserPointer(v.win, &v);
    glfwGetFramebufferSize(v.win, &v.fb_w, &v.fb_h);
    if (v.fb_w <= 0 || v.fb_h <= 0) v.fb_w = want_w, v.fb_h = want_h;
    float aspect = (float)v.fb_w / (float)v.fb_h;

    /* the scene */
    int rc = HL_CLI_EXIT_OK;
    hl_scene_demo demo;
    memset(&demo, 0, sizeof demo);
    hl_cli_model_scene m;
    memset(&m, 0, sizeof m);
    if (model) {
        rc = hl_cli_model_scene_create(model, camera_arg, env_arg, exposure_arg, aspect, &m);
        if (!rc) {
            v.stage = m.stage;
            v.camera = m.camera;
            v.scene_name = model;
            v.home_orbit.target =
                (hl_vec3){(m.bounds.min.x + m.bounds.max.x) * 0.5f, (m.bounds.min.y + m.bounds.max.y) * 0.5f,
                          (m.bounds.min.z + m.bounds.max.z) * 0.5f};
            if (!m.own_camera) { /* the file's camera: orbit with a camera of the viewer's */
                v.file_camera = m.camera;
                hl_camera_desc cd = {0};
                cd.fov_y_deg = 45.0f;
                cd.aspect = aspect;
                hl_vec3 half = {(m.bounds.max.x - m.bounds.min.x) * 0.5f, (m.bounds.max.y - m.bounds.min.y) * 0.5f,
                                (m.bounds.max.z - m.bounds.min.z) * 0.5f};
                float radius = fmaxf(hl_vec3_length(half), 1e-3f);
                cd.near_plane = radius * 0.01f;
                cd.far_plane = radius * 100.0f;
                cd.name = "viewer";
                if ((res = hl_camera_create(&cd, &v.own))) {
                    hl_cli_error("%s: %s", hl_result_name(res), hl_last_error());
                    rc = HL_CLI_EXIT_FAIL;
                }
            }
            uint32_t animations = hl_gltf_asset_animation_count(m.asset);
            if (!rc && anim_arg) {
                v.anim = hl_cli_model_animation(m.asset, anim_arg, model);
                if (!v.anim) rc = HL_CLI_EXIT_USAGE;
            } else if (!rc && animations) {
                v.anim = hl_gltf_asset_animation(m.asset, 0);
            }
        }
    } else {
        res = hl_scene_demo_create(aspect, &demo);
        if (!res) res = hl_cli_apply_environment(demo.stage, env_arg, exposure_arg, 0.4f) ? HL_ERR_VALIDATION : HL_OK;
        if (res) rc = HL_CLI_EXIT_FAIL;
        v.stage = demo.stage;
        v.camera = demo.camera;
        v.scene_name = "demo scene";
        v.home_orbit.target = demo.camera_target;
    }
    v.anim_speed = 1.0;
    v.playing = !paused;
    if (!rc) {
        hl_node *cn = hl_camera_node(v.camera);
        v.home_pos = hl_node_translation(cn);
        v.home_rot = hl_node_rotation(cn);
        hl_camera_update(v.camera);
        v.home_orbit = orbit_from(hl_node_world_position(cn), v.home_orbit.target);
        v.orb = v.home_orbit;
        const hl_camera_desc *cd = hl_camera_get_desc(v.camera);
        v.fov_y = (cd->fov_y_deg > 0 ? cd->fov_y_deg : 45.0f) * 3.14159265f / 180.0f;
    }

    /* the renderer, presenting into the window */
    v.rd.sample_count = samples;
    v.rd.no_vsync = no_vsync;
    v.rd.window.system = HL_WINDOW_X11;
    v.rd.window.display = glfwGetX11Display();
    v.rd.window.window = (uint64_t)glfwGetX11Window(v.win);
    if (!rc && (res = make_renderer(&v, v.pipeline))) {
        hl_cli_error("cannot create a %s renderer for the window: %s: %s", hl_backend_name(v.rd.backend),
                     hl_result_name(res), hl_last_error());
        rc = HL_CLI_EXIT_FAIL;
    }
    if (!rc) {
        glfwSetKeyCallback(v.win, on_key);
        glfwSetMouseButtonCallback(v.win, on_button);
        glfwSetCursorPosCallback(v.win, on_cursor);
        glfwSetScrollCallback(v.win, on_scroll);
    }

    uint64_t presented = 0, minimised_loops = 0, resizes = 0;
    uint32_t script = 0;
    bool scripting = resize_test;
    double t_prev = glfwGetTime(), title_t = t_prev, sum_ms = 0;
    uint32_t title_frames = 0;
    while (!rc && !glfwWindowShouldClose(v.win)) {
        glfwPollEvents();
        if (scripting) scripting = script_step(&v, script++, want_w, want_h);
        if (v.cycle_pipeline) {
            v.cycle_pipeline = false;
            if ((res = cycle_pipeline(&v))) {
                hl_cli_error("no pipeline runs on this device");
                rc = HL_CLI_EXIT_FAIL;
                break;
            }
        }
        int fw = 0, fh = 0;
        glfwGetFramebufferSize(v.win, &fw, &fh);
        if (v.simulate_minimised || glfwGetWindowAttrib(v.win, GLFW_ICONIFIED)) fw = fh = 0;
        double now = glfwGetTime();
        double dt = now - t_prev;
        t_prev = now;
        if (fw <= 0 || fh <= 0) { /* minimised: nothing to render or present */
            minimised_loops++;
            glfwWaitEventsTimeout(scripting ? 0.001 : 0.05);
            continue;
        }
        if (fw != v.fb_w || fh != v.fb_h) {
            v.fb_w = fw, v.fb_h = fh;
            if ((res = hl_renderer_resize(v.r, (uint32_t)fw, (uint32_t)fh))) {
                hl_cli_error("resize to %dx%d: %s: %s", fw, fh, hl_result_name(res), hl_last_error());
                rc = HL_CLI_EXIT_FAIL;
                break;
            }
            resizes++;
            hl_camera_set_aspect(v.camera, (float)fw / (float)fh);
            if (v.own) hl_camera_set_aspect(v.own, (float)fw / (float)fh);
        }
        if (v.anim && v.playing) {
            v.anim_time += dt * v.anim_speed;
            hl_animation_apply(v.anim, (float)v.anim_time, HL_ANIMATION_LOOP);
        } else if (v.anim && presented == 0) {
            hl_animation_apply(v.anim, (float)v.anim_time, HL_ANIMATION_LOOP);
        }
        res = hl_renderer_render(v.r, v.stage, v.camera);
        if (!res) res = hl_renderer_present(v.r);
        if (res) {
            hl_cli_error("frame %llu: %s: %s", (unsigned long long)presented, hl_result_name(res), hl_last_error());
            rc = HL_CLI_EXIT_FAIL;
            break;
        }
        /* --frames counts the frames after the script, once the window is back at --size */
        if (scripting || (resize_test && (fw != want_w || fh != want_h))) continue;
        presented++;
        sum_ms += dt * 1000.0;
        title_frames++;
        if (now - title_t > 0.25) {
            set_title(&v, (now - title_t) * 1000.0 / title_frames);
            title_t = now;
            title_frames = 0;
        }
        if (frames && presented >= frames) {
            if (capture_path) rc = capture(&v, capture_path);
            glfwSetWindowShouldClose(v.win, GLFW_TRUE); /* the close path, as the window's button takes it */
        }
    }
    if (!rc && v.r) {
        const hl_render_stats *s = hl_renderer_stats(v.r);
        hl_cli_printf("backend: %s (%s)\n", hl_backend_name(hl_renderer_backend(v.r)), hl_renderer_adapter_name(v.r));
        hl_cli_printf("pipeline: %s; scene: %s\n", k_pipelines[v.pipeline], v.scene_name);
        hl_cli_printf("frames: %llu presented (mean %.2f ms), %llu presents skipped, %u surface configures, %llu resizes, "
                      "%llu minimised loops\n",
                      (unsigned long long)presented, presented ? sum_ms / (double)presented : 0.0,
                      (unsigned long long)(v.skipped_before + s->presents_skipped),
                      v.configures_before + s->surface_configures, (unsigned long long)resizes,
                      (unsigned long long)minimised_loops);
        if (v.script_input)
            hl_cli_printf("input: the drags and the wheel moved the camera %.3f units, R left it %.6f from the first "
                          "view\n",
                          (double)v.script_moved, (double)v.script_back);
    }
    hl_renderer_destroy(v.r);
    if (v.own) hl_node_destroy(hl_camera_node(v.own));
    if (model) hl_cli_model_scene_destroy(&m);
    else hl_scene_demo_destroy(&demo);
    glfwDestroyWindow(v.win);
    glfwTerminate();
    return rc;
}
