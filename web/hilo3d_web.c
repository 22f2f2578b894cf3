/* The browser page's program: renders the built-in demo scene, or a glTF model the page wrote into
 * the in-memory file system, with the gles3 backend on WebGL 2 and presents every frame to the
 * page's canvas through the engine's surface (hl_renderer_desc.window = HL_WINDOW_CANVAS,
 * hl_renderer_present), in a requestAnimationFrame loop (emscripten_set_main_loop). A model's
 * first animation plays, as in `hilo3d view`; --time pauses it at a time instead.
 *
 * The scenes are the ones `hilo3d render` draws (tools/hilo3d/cmd_render.c for the demo,
 * cmd_model.c for a model: the same camera framing, default lights and environment), so the
 * canvas can be compared with the native gles3 image of the same size (make web-test).
 *
 * The output is the canvas's size (canvas.width x height, which the page sets): when the page
 * changes it the renderer is resized before the next frame (the surface is configured again).
 * A WebGL context loss is a device loss: render calls return HL_ERR_DEVICE_LOST until the
 * browser restores the context, and the frame after that recovers the renderer as natively.
 *
 * The page's side (web/shell.html) gets, after every presented frame, its number and timings,
 * and may ask for that frame's output (hl_renderer_read_pixels) to compare with the canvas it
 * captures in the same task (the canvas keeps preserveDrawingBuffer false: the browser clears
 * it after compositing). Device events and errors are reported too.
 *
 * Arguments (the page passes its URL query as --name value pairs):
 *   --samples 1|4          MSAA samples (default 4, as hilo3d render)
 *   --model PATH           a .gltf / .glb in the in-memory file system instead of the demo scene
 *   --pipeline NAME        forward (default), forward-post (HDR, bloom, ACES, FXAA) or deferred, as
 *                          hilo3d render --pipeline
 *   --time SECONDS         the model's animation paused at this time (default: it plays)
 */
#include <emscripten.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hilo3d/gltf.h"
#include "hilo3d/pipeline.h"
#include "hilo3d/renderer.h"
#include "hl_demo_model.h"
#include "hl_scene_demo.h"

/* ---- the page's side (web/shell.html) ---- */
EM_JS(void, hl_web_canvas_size, (uint32_t *w, uint32_t *h), {
    HEAPU32[w >> 2] = Module.canvas.width;
    HEAPU32[h >> 2] = Module.canvas.height;
})
/* Once, after the first frame was presented and finished on the GPU. */
EM_JS(void, hl_web_started, (double first_frame_ms, double main_ms, const char *info),
      { Module.hlStarted(first_frame_ms, main_ms, UTF8ToString(info)); })
/* After every presented frame; returns 1 when the page wants this frame's output. */
EM_JS(int, hl_web_frame,
      (uint32_t frame, uint32_t width, uint32_t height, double cpu_ms, double present_ms, double anim_time,
       double generation),
      { return Module.hlFrame(frame, width, height, cpu_ms, present_ms, anim_time, generation) ? 1 : 0; })
EM_JS(void, hl_web_output, (const uint8_t *rgba, uint32_t width, uint32_t height),
      { Module.hlOutput(HEAPU8.slice(rgba, rgba + width * height * 4), width, height); })
/* kind 0: device lost, 1: recovered; 2: a frame that failed while lost (message: why). */
EM_JS(void, hl_web_event, (int kind, double generation, const char *message),
      { Module.hlEvent(kind, generation, UTF8ToString(message)); })
EM_JS(void, hl_web_fail, (const char *message), { Module.hlFail(UTF8ToString(message)); })

typedef struct web_args {
    uint32_t samples;
    const char *model, *pipeline;
    bool paused;
    float time;
} web_args;

static bool parse_u32(const char *s, uint32_t lo, uint32_t hi, uint32_t *out) {
    char *end = NULL;
    unsigned long v = strtoul(s, &end, 10);
    if (!*s || *end || v < lo || v > hi) return false;
    *out = (uint32_t)v;
    return true;
}

static bool parse_args(int argc, char **argv, web_args *a, char *why, size_t why_size) {
    a->samples = 4;
    a->model = NULL;
    a->pipeline = "forward";
    a->paused = false;
    a->time = 0.0f;
    for (int i = 1; i < argc; i += 2) {
        const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool ok = v != NULL;
        if (ok && !strcmp(k, "--samples")) ok = parse_u32(v, 1, 4, &a->samples) && a->samples != 2 && a->samples != 3;
        else if (ok && !strcmp(k, "--model")) a->model = v;
        else if (ok && !strcmp(k, "--pipeline"))
            ok = !strcmp(v, "forward") || !strcmp(v, "forward-post") || !strcmp(v, "deferred"), a->pipeline = v;
        else if (ok && !strcmp(k, "--time")) {
            char *end = NULL;
            a->time = strtof(v, &end);
            a->paused = true;
            ok = *v && !*end && isfinite(a->time);
        } else ok = false;
        if (!ok) {
            snprintf(why, why_size,
                     "bad argument %s %s (--samples 1|4, --model, --pipeline forward|forward-post|deferred, --time)",
                     k, v ? v : "(missing)");
            return false;
        }
    }
    return true;
}


typedef struct web_scene {
    hl_scene_demo demo;
    hl_gltf_asset *asset;
    hl_stage *stage;
    hl_camera *camera, *own_camera;
} web_scene;

/* The model scene as cmd_model.c builds it: the file's camera (the first) or the auto camera,
 * the file's lights or the default ones, the default studio environment at intensity 1. */
static hl_result model_scene(const char *path, float aspect, web_scene *s) {
    hl_result res = hl_gltf_load_file(path, NULL, &s->asset);
    if (res) return res;
    const hl_gltf_report *rp = hl_gltf_asset_report(s->asset);
    if ((res = hl_stage_create(&s->stage))) return res;
    hl_stage_set_clear_color(s->stage, (hl_color){0.02f, 0.025f, 0.035f, 1.0f});
    if ((res = hl_stage_add(s->stage, hl_gltf_asset_root(s->asset)))) return res;
    hl_aabb box = hl_gltf_asset_bounds(s->asset);
    if (hl_aabb_is_empty(&box) || !isfinite(box.min.x)) box = (hl_aabb){{-1, -1, -1}, {1, 1, 1}};
    hl_stage_set_exposure(s->stage, 1.0f);
    hl_environment *env = NULL;
    if ((res = hl_environment_create_default(&env))) return res;
    hl_environment_set_intensity(env, 1.0f);
    hl_stage_set_environment(s->stage, env);
    hl_environment_release(env);
    if (!rp->lights && (res = hl_demo_default_lights(s->stage, box, true))) return res;
    if (rp->cameras) {
        s->camera = hl_gltf_asset_camera(s->asset, 0);
        if (hl_camera_get_desc(s->camera)->projection == HL_PROJECTION_PERSPECTIVE) hl_camera_set_aspect(s->camera, aspect);
    } else {
        s->camera = s->own_camera = hl_demo_frame_camera(box, aspect);
        if (!s->camera) return HL_ERR_OUT_OF_MEMORY;
    }
    return HL_OK;
}

static void scene_destroy(web_scene *s) {
    if (s->own_camera) hl_node_destroy(hl_camera_node(s->own_camera));
    if (s->asset) hl_gltf_asset_destroy(s->asset); /* first: its root belongs to the stage */
    if (s->stage) hl_stage_destroy(s->stage);
    if (s->demo.stage) hl_scene_demo_destroy(&s->demo);
}

/* ---- the loop ---- */
typedef struct web_app {
    web_args a;
    hl_renderer *r;
    web_scene s;
    hl_stage *stage;
    hl_animation *anim;
    uint32_t width, height;
    uint32_t presented;
    double main_ms, start_ms;
    bool lost;
    uint8_t *px; /* the output read for the page (a test's request), width * height * 4 */
    size_t px_size;
    char msg[768];
} web_app;

static web_app g_app;

static void on_lost(hl_renderer *r, uint64_t generation, const char *message, void *user) {
    (void)r;
    ((web_app *)user)->lost = true;
    hl_web_event(0, (double)generation, message);
}

static void on_recovered(hl_renderer *r, uint64_t generation, const char *message, void *user) {
    (void)r;
    ((web_app *)user)->lost = false;
    hl_web_event(1, (double)generation, message);
}

static void stop(web_app *app, const char *step, hl_result res) {
    snprintf(app->msg, sizeof app->msg, "%s: %s: %s", step, hl_result_name(res), hl_last_error());
    hl_web_fail(app->msg);
    emscripten_cancel_main_loop();
}

/* One requestAnimationFrame: follow the canvas's size, pose the animation, render, present. */
static void frame(void *user) {
    web_app *app = user;
    uint32_t w = 0, h = 0;
    hl_web_canvas_size(&w, &h);
    if (w && h && (w != app->width || h != app->height)) {
        hl_result res = hl_renderer_resize(app->r, w, h);
        if (res) { stop(app, "hl_renderer_resize", res); return; }
        app->width = w, app->height = h;
        float aspect = (float)w / (float)h;
        if (!app->a.model || app->s.own_camera ||
            hl_camera_get_desc(app->s.camera)->projection == HL_PROJECTION_PERSPECTIVE)
            hl_camera_set_aspect(app->s.camera, aspect);
    }
    if (!w || !h) return; /* a canvas of no size shows nothing */
    double now = emscripten_get_now();
    if (!app->start_ms) app->start_ms = now;
    double t = app->a.paused ? (double)app->a.time : (now - app->start_ms) / 1000.0;
    if (app->anim) hl_animation_apply(app->anim, (float)t, HL_ANIMATION_LOOP);
    const char *step = "hl_renderer_render";
    hl_result res = hl_renderer_render(app->r, app->stage, app->s.camera);
    if (!res) {
        step = "hl_renderer_present";
        res = hl_renderer_present(app->r);
    }
    if (res == HL_ERR_DEVICE_LOST) { /* the canvas's context is lost: the next frames recover */
        hl_web_event(2, (double)hl_renderer_stats(app->r)->device_generation, hl_last_error());
        return;
    }
    if (res) { stop(app, step, res); return; }
    app->presented++;
    const hl_render_stats *st = hl_renderer_stats(app->r);
    if (app->presented == 1) { /* the first frame presented: the GPU has finished it */
        if ((res = hl_renderer_wait_idle(app->r))) { stop(app, "hl_renderer_wait_idle", res); return; }
        snprintf(app->msg, sizeof app->msg, "%s, %s, %ux%u, %ux MSAA, backend %s (%s), draws %u%s",
                 app->a.model ? app->a.model : "demo", app->a.pipeline, app->width, app->height, app->a.samples,
                 hl_backend_name(hl_renderer_backend(app->r)), hl_renderer_adapter_name(app->r), st->draws,
                 app->anim ? (app->a.paused ? ", animation paused" : ", animation playing") : "");
        hl_web_started(emscripten_get_now(), app->main_ms, app->msg);
    }
    bool want = hl_web_frame((uint32_t)app->presented, app->width, app->height, (double)st->cpu_ns / 1e6,
                             (double)st->present_ns / 1e6, app->anim ? t : 0.0, (double)st->device_generation);
    if (!want) return;
    size_t n = (size_t)app->width * app->height * 4;
    if (n > app->px_size) { /* a test's request: not a steady-state frame's */
        uint8_t *p = realloc(app->px, n);
        if (!p) { stop(app, "the output's buffer", HL_ERR_OUT_OF_MEMORY); return; }
        app->px = p, app->px_size = n;
    }
    if ((res = hl_renderer_read_pixels(app->r, app->px, n))) { stop(app, "hl_renderer_read_pixels", res); return; }
    hl_web_output(app->px, app->width, app->height);
}

/* For tests (the page's Module._hl_web_simulate_loss()): hl_renderer_simulate_device_loss, the
 * engine's own loss; the next frame recovers. 0 when the renderer is lost afterwards. */
EMSCRIPTEN_KEEPALIVE int hl_web_simulate_loss(void) {
    return g_app.r ? (int)hl_renderer_simulate_device_loss(g_app.r) : (int)HL_ERR_INVALID_STATE;
}

int main(int argc, char **argv) {
    web_app *app = &g_app;
    app->main_ms = emscripten_get_now(); /* ms since the page's navigation started */
    if (!parse_args(argc, argv, &app->a, app->msg, sizeof app->msg)) {
        hl_web_fail(app->msg);
        return 1;
    }
    hl_web_canvas_size(&app->width, &app->height);
    if (!app->width || !app->height) {
        hl_web_fail("the canvas has no size (canvas.width x height)");
        return 1;
    }
    hl_renderer_desc rd = {0};
    rd.backend = HL_BACKEND_GLES3;
    rd.width = app->width;
    rd.height = app->height;
    rd.sample_count = app->a.samples;
    rd.window.system = HL_WINDOW_CANVAS;
    rd.device_lost = on_lost;
    rd.device_recovered = on_recovered;
    rd.event_user = app;
    const char *step = "the pipeline";
    hl_pipeline_factory *factory = NULL;
    hl_result res = hl_demo_pipeline_factory(app->a.pipeline, &factory);
    rd.pipeline = factory;
    if (!res) {
        step = "hl_renderer_create";
        res = hl_renderer_create(&rd, &app->r);
    }
    hl_demo_pipeline_release(app->a.pipeline, factory); /* the renderer keeps what it needs */
    float aspect = (float)app->width / (float)app->height;
    if (!res) {
        step = app->a.model ? "the glTF model" : "hl_scene_demo_create";
        res = app->a.model ? model_scene(app->a.model, aspect, &app->s) : hl_scene_demo_create(aspect, &app->s.demo);
        if (!app->a.model && !res) app->s.camera = app->s.demo.camera;
    }
    if (res) {
        snprintf(app->msg, sizeof app->msg, "%s: %s: %s", step, hl_result_name(res), hl_last_error());
        hl_web_fail(app->msg);
        scene_destroy(&app->s);
        hl_renderer_destroy(app->r);
        return 1;
    }
    app->stage = app->a.model ? app->s.stage : app->s.demo.stage;
    if (app->a.model && hl_gltf_asset_animation_count(app->s.asset))
        app->anim = hl_gltf_asset_animation(app->s.asset, 0); /* the first, as hilo3d view plays */
    /* requestAnimationFrame; main returns and the runtime stays (the page lives as long as the loop) */
    emscripten_set_main_loop_arg(frame, app, 0, 0);
    return 0;
}
