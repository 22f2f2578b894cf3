/* The browser page's program: renders the built-in demo scene, or a glTF model the page wrote into
 * the in-memory file system, with the gles3 backend on WebGL 2, reads the frame back
 * (hl_renderer_read_pixels: glReadPixels in the browser) and hands the pixels and timings to the
 * page (web/shell.html shows them on its canvas and keeps them for tests).
 *
 * The scenes are the ones `hilo3d render` draws (tools/hilo3d/cmd_render.c for the demo,
 * cmd_model.c for a model: the same camera framing, default lights and environment), so the
 * browser's image can be compared with the native gles3 one of the same size (make web-test).
 *
 * Arguments (the page passes its URL query as --name value pairs):
 *   --width W --height H   frame size (default 320 x 180)
 *   --samples 1|4          MSAA samples (default 4, as hilo3d render)
 *   --frames N             frames rendered, the last one read back (default 3 demo, 2 model)
 *   --model PATH           a .gltf / .glb in the in-memory file system instead of the demo scene
 *   --pipeline NAME        forward (default), forward-post (HDR, bloom, ACES, FXAA) or deferred, as
 *                          hilo3d render --pipeline
 */
#include <emscripten.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hilo3d/gltf.h"
#include "hilo3d/pipeline.h"
#include "hilo3d/renderer.h"
#include "hl_deferred.h"
#include "hl_scene_demo.h"

/* The page's side (web/shell.html): the pixels and figures of the frame, or why there is none. */
EM_JS(void, hl_web_publish,
      (const uint8_t *rgba, uint32_t width, uint32_t height, double first_frame_ms, double main_ms, double frame_ms,
       const char *info),
      { Module.hlPublish(HEAPU8.slice(rgba, rgba + width * height * 4), width, height, first_frame_ms, main_ms,
                         frame_ms, UTF8ToString(info)); })
EM_JS(void, hl_web_fail, (const char *message), { Module.hlFail(UTF8ToString(message)); })

typedef struct web_args {
    uint32_t width, height, samples, frames;
    const char *model, *pipeline;
} web_args;

static bool parse_u32(const char *s, uint32_t lo, uint32_t hi, uint32_t *out) {
    char *end = NULL;
    unsigned long v = strtoul(s, &end, 10);
    if (!*s || *end || v < lo || v > hi) return false;
    *out = (uint32_t)v;
    return true;
}

static bool parse_args(int argc, char **argv, web_args *a, char *why, size_t why_size) {
    a->width = 320;
    a->height = 180;
    a->samples = 4;
    a->frames = 0;
    a->model = NULL;
    a->pipeline = "forward";
    for (int i = 1; i < argc; i += 2) {
        const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool ok = v != NULL;
        if (ok && !strcmp(k, "--width")) ok = parse_u32(v, 1, 8192, &a->width);
        else if (ok && !strcmp(k, "--height")) ok = parse_u32(v, 1, 8192, &a->height);
        else if (ok && !strcmp(k, "--samples")) ok = parse_u32(v, 1, 4, &a->samples) && a->samples != 2 && a->samples != 3;
        else if (ok && !strcmp(k, "--frames")) ok = parse_u32(v, 1, 1000, &a->frames);
        else if (ok && !strcmp(k, "--model")) a->model = v;
        else if (ok && !strcmp(k, "--pipeline"))
            ok = !strcmp(v, "forward") || !strcmp(v, "forward-post") || !strcmp(v, "deferred"), a->pipeline = v;
        else ok = false;
        if (!ok) {
            snprintf(why, why_size,
                     "bad argument %s %s (--width, --height, --samples 1|4, --frames, --model, --pipeline "
                     "forward|forward-post|deferred)", k,
                     v ? v : "(missing)");
            return false;
        }
    }
    if (!a->frames) a->frames = a->model ? 2u : 3u;
    return true;
}

/* cmd_model.c's auto camera: framing the box from the front, a little above. */
static hl_camera *auto_camera(hl_aabb box, float aspect) {
    hl_vec3 c = {(box.min.x + box.max.x) * 0.5f, (box.min.y + box.max.y) * 0.5f, (box.min.z + box.max.z) * 0.5f};
    hl_vec3 half = {(box.max.x - box.min.x) * 0.5f, (box.max.y - box.min.y) * 0.5f, (box.max.z - box.min.z) * 0.5f};
    float r = hl_vec3_length(half);
    if (!(r > 1e-6f) || !isfinite(r)) r = 1.0f;
    const float fov_y = 45.0f;
    float half_fov = fov_y * 0.5f * 3.14159265f / 180.0f;
    if (aspect < 1.0f) half_fov = atanf(tanf(half_fov) * aspect);
    float dist = r / sinf(half_fov) * 1.05f;
    hl_camera_desc cd = {0};
    cd.fov_y_deg = fov_y;
    cd.aspect = aspect;
    cd.near_plane = dist * 0.01f;
    cd.far_plane = dist * 10.0f;
    cd.name = "auto";
    hl_camera *cam = NULL;
    if (hl_camera_create(&cd, &cam)) return NULL;
    hl_vec3 dir = hl_vec3_normalize((hl_vec3){0.0f, 0.3f, 1.0f});
    hl_node_set_translation(hl_camera_node(cam), (hl_vec3){c.x + dir.x * dist, c.y + dir.y * dist, c.z + dir.z * dist});
    hl_node_look_at(hl_camera_node(cam), c, (hl_vec3){0, 1, 0});
    return cam;
}

/* cmd_model.c's default lights: a key light and, without an environment, an ambient term. */
static hl_result default_lights(hl_stage *s, hl_aabb box, bool environment) {
    hl_light_desc ld = {0};
    hl_light *l = NULL;
    hl_result res = HL_OK;
    if (!environment) {
        ld.kind = HL_LIGHT_AMBIENT;
        ld.intensity = 0.3f;
        if ((res = hl_light_create(&ld, &l)) || (res = hl_stage_add(s, hl_light_node(l)))) return res;
    }
    ld.kind = HL_LIGHT_DIRECTIONAL;
    ld.intensity = 2.5f;
    if ((res = hl_light_create(&ld, &l)) || (res = hl_stage_add(s, hl_light_node(l)))) return res;
    hl_vec3 c = {(box.min.x + box.max.x) * 0.5f, (box.min.y + box.max.y) * 0.5f, (box.min.z + box.max.z) * 0.5f};
    hl_node_set_translation(hl_light_node(l), (hl_vec3){c.x + 1.0f, c.y + 2.0f, c.z + 1.5f});
    hl_node_look_at(hl_light_node(l), c, (hl_vec3){0, 1, 0});
    return HL_OK;
}

/* The pipelines of hilo3d render --pipeline (tools/hilo3d/cmd_render.c). NULL for forward. */
static hl_result pipeline_factory(const char *name, hl_pipeline_factory **out) {
    *out = NULL;
    if (!strcmp(name, "forward-post")) {
        hl_forward_feature_desc features[3];
        hl_forward_bloom(NULL, &features[0]);
        hl_forward_tone_map(NULL, &features[1]);
        hl_forward_fxaa(&features[2]);
        hl_forward_pipeline_desc fd = {features, 3};
        return hl_forward_pipeline_factory_create(&fd, out);
    }
    if (!strcmp(name, "deferred")) {
        hl_deferred_desc dd = {.bloom = true};
        return hl_deferred_pipeline_factory_create(&dd, out);
    }
    return HL_OK;
}

static void pipeline_release(const char *name, hl_pipeline_factory *f) {
    if (!f) return;
    if (!strcmp(name, "deferred")) hl_deferred_pipeline_factory_destroy(f);
    else hl_forward_pipeline_factory_destroy(f);
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
    if (!rp->lights && (res = default_lights(s->stage, box, true))) return res;
    if (rp->cameras) {
        s->camera = hl_gltf_asset_camera(s->asset, 0);
        if (hl_camera_get_desc(s->camera)->projection == HL_PROJECTION_PERSPECTIVE) hl_camera_set_aspect(s->camera, aspect);
    } else {
        s->camera = s->own_camera = auto_camera(box, aspect);
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

int main(int argc, char **argv) {
    double main_ms = emscripten_get_now(); /* ms since the page's navigation started */
    char msg[768];
    web_args a;
    if (!parse_args(argc, argv, &a, msg, sizeof msg)) {
        hl_web_fail(msg);
        return 1;
    }
    hl_renderer_desc rd = {0};
    rd.backend = HL_BACKEND_GLES3;
    rd.width = a.width;
    rd.height = a.height;
    rd.sample_count = a.samples;
    hl_renderer *r = NULL;
    web_scene s;
    memset(&s, 0, sizeof s);
    const char *step = "the pipeline";
    hl_pipeline_factory *factory = NULL;
    hl_result res = pipeline_factory(a.pipeline, &factory);
    rd.pipeline = factory;
    if (!res) {
        step = "hl_renderer_create";
        res = hl_renderer_create(&rd, &r);
    }
    pipeline_release(a.pipeline, factory); /* the renderer keeps what it needs */
    float aspect = (float)a.width / (float)a.height;
    if (!res) {
        step = a.model ? "the glTF model" : "hl_scene_demo_create";
        res = a.model ? model_scene(a.model, aspect, &s) : hl_scene_demo_create(aspect, &s.demo);
        if (!a.model && !res) s.stage = NULL, s.camera = s.demo.camera;
    }
    hl_stage *stage = a.model ? s.stage : s.demo.stage;
    double first_ms = 0, frame_ms = 0;
    for (uint32_t f = 0; !res && f < a.frames; f++) {
        step = "hl_renderer_render";
        res = hl_renderer_render(r, stage, s.camera);
        if (!res && f == 0) { /* the first frame rendered: the GPU has finished it */
            step = "hl_renderer_wait_idle";
            res = hl_renderer_wait_idle(r);
            first_ms = emscripten_get_now();
        }
        if (!res) frame_ms = (double)hl_renderer_stats(r)->cpu_ns / 1e6;
    }
    size_t n = (size_t)a.width * a.height * 4;
    uint8_t *px = res ? NULL : malloc(n);
    if (!res && !px) res = HL_ERR_OUT_OF_MEMORY;
    if (!res) {
        step = "hl_renderer_read_pixels";
        res = hl_renderer_read_pixels(r, px, n);
    }
    if (res) {
        snprintf(msg, sizeof msg, "%s: %s: %s", step, hl_result_name(res), hl_last_error());
        hl_web_fail(msg);
    } else {
        const hl_render_stats *st = hl_renderer_stats(r);
        snprintf(msg, sizeof msg, "%s, %s, %ux%u, %ux MSAA, %u frames, backend %s (%s), draws %u",
                 a.model ? a.model : "demo", a.pipeline, a.width, a.height, a.samples, a.frames,
                 hl_backend_name(hl_renderer_backend(r)), hl_renderer_adapter_name(r), st->draws);
        hl_web_publish(px, a.width, a.height, first_ms, main_ms, frame_ms, msg);
    }
    free(px);
    scene_destroy(&s);
    hl_renderer_destroy(r);
    return res ? 1 : 0;
}
