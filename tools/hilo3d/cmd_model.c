/* `hilo3d render MODEL` and `hilo3d info MODEL`: a glTF 2.0 asset (.gltf or .glb) loaded with
 * hilo3d/gltf.h, rendered to a PNG or described by its load report. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "hilo3d/gltf.h"
#include "hilo3d/renderer.h"

bool hl_cli_is_model(const char *arg) {
    size_t n = strlen(arg);
    return arg[0] != '-' && ((n > 5 && !strcasecmp(arg + n - 5, ".gltf")) || (n > 4 && !strcasecmp(arg + n - 4, ".glb")));
}

static void print_report(const hl_gltf_report *rp) {
    hl_cli_printf("model: %u nodes, %u meshes, %llu triangles, %u materials, %u textures (%u images), %u cameras, "
                  "%u lights, %u skins, %u morph targets, %u animations, loaded in %.1f ms\n",
                  rp->nodes, rp->meshes, (unsigned long long)rp->triangles, rp->materials, rp->textures, rp->images,
                  rp->cameras, rp->lights, rp->skins, rp->morph_targets, rp->animations, rp->load_ms);
    hl_cli_printf("extensions used: %s; ignored: %s\n", rp->extensions_used[0] ? rp->extensions_used : "none",
                  rp->extensions_ignored[0] ? rp->extensions_ignored : "none");
}

static int load(const char *path, hl_gltf_asset **a) {
    hl_result res = hl_gltf_load_file(path, NULL, a);
    if (res) {
        hl_cli_error("%s: %s: %s", path, hl_result_name(res), hl_last_error());
        return HL_CLI_EXIT_FAIL;
    }
    return HL_CLI_EXIT_OK;
}

int hl_cli_info_model(const char *path, int argc, char **argv) {
    static const hl_cli_command cmd = {"info", "Loads a glTF 2.0 model (.gltf or .glb) and prints its load report.\n"};
    int prc = hl_cli_parse(&cmd, NULL, 0, argc, argv);
    if (prc >= 0) return prc;
    hl_gltf_asset *a = NULL;
    int rc = load(path, &a);
    if (rc) return rc;
    print_report(hl_gltf_asset_report(a));
    hl_gltf_asset_destroy(a);
    return HL_CLI_EXIT_OK;
}

int hl_cli_model_scene_create(const char *path, const char *camera_arg, const char *env_arg, const char *exposure_arg,
                              float aspect, hl_cli_model_scene *m) {
    memset(m, 0, sizeof *m);
    uint32_t cam_index = UINT32_MAX;
    if (strcmp(camera_arg, "auto") && !hl_cli_parse_u32(camera_arg, 0, 1u << 20, &cam_index)) {
        hl_cli_error("--camera '%s': auto or a camera index", camera_arg);
        return HL_CLI_EXIT_USAGE;
    }
    int rc = load(path, &m->asset);
    if (rc) return rc;
    const hl_gltf_report *rp = hl_gltf_asset_report(m->asset);
    if (cam_index != UINT32_MAX && cam_index >= rp->cameras) {
        hl_cli_error("--camera %u: %s has %u cameras", cam_index, path, rp->cameras);
        hl_cli_model_scene_destroy(m);
        return HL_CLI_EXIT_USAGE;
    }
    hl_result res = hl_stage_create(&m->stage);
    if (!res) {
        hl_stage_set_clear_color(m->stage, (hl_color){0.02f, 0.025f, 0.035f, 1.0f});
        res = hl_stage_add(m->stage, hl_gltf_asset_root(m->asset));
    }
    hl_aabb box = hl_gltf_asset_bounds(m->asset);
    if (hl_aabb_is_empty(&box) || !isfinite(box.min.x)) box = (hl_aabb){{-1, -1, -1}, {1, 1, 1}};
    m->bounds = box;
    if (!res && (rc = hl_cli_apply_environment(m->stage, env_arg, exposure_arg, 1.0f))) {
        hl_cli_model_scene_destroy(m);
        return rc;
    }
    if (!res && !rp->lights) res = hl_demo_default_lights(m->stage, box, hl_stage_environment(m->stage) != NULL);
    if (!res && cam_index == UINT32_MAX && rp->cameras) cam_index = 0;
    if (!res && cam_index != UINT32_MAX) {
        m->camera = hl_gltf_asset_camera(m->asset, cam_index);
        if (hl_camera_get_desc(m->camera)->projection == HL_PROJECTION_PERSPECTIVE) hl_camera_set_aspect(m->camera, aspect);
    } else if (!res) {
        m->camera = m->own_camera = hl_demo_frame_camera(box, aspect);
        if (!m->camera) res = HL_ERR_OUT_OF_MEMORY;
    }
    if (res) {
        hl_cli_error("%s: %s: %s", path, hl_result_name(res), res == HL_ERR_OUT_OF_MEMORY ? "out of memory" : hl_last_error());
        hl_cli_model_scene_destroy(m);
        return HL_CLI_EXIT_FAIL;
    }
    return HL_CLI_EXIT_OK;
}

void hl_cli_model_scene_destroy(hl_cli_model_scene *m) {
    if (m->own_camera) hl_node_destroy(hl_camera_node(m->own_camera));
    hl_gltf_asset_destroy(m->asset); /* first: its root belongs to the stage, which destroys it */
    hl_stage_destroy(m->stage);
    memset(m, 0, sizeof *m);
}

hl_animation *hl_cli_model_animation(hl_gltf_asset *a, const char *arg, const char *path) {
    uint32_t ai = 0;
    hl_animation *anim = hl_cli_parse_u32(arg, 0, UINT32_MAX - 1, &ai) ? hl_gltf_asset_animation(a, ai)
                                                                       : hl_gltf_asset_find_animation(a, arg);
    if (!anim)
        hl_cli_error("--animation %s: %s has %u animations, none of that index or name", arg, path,
                     hl_gltf_asset_animation_count(a));
    return anim;
}

int hl_cli_render_model(const char *path, int argc, char **argv) {
    static const hl_cli_command cmd = {
        "render", "hilo3d render MODEL.gltf|MODEL.glb [OPTIONS]: loads a glTF 2.0 model and renders its scene to a\n"
                  "PNG: through the file's camera (--camera INDEX) or one framing the scene's bounds (auto, the\n"
                  "default when the file has none), lit by the file's lights or a default key and ambient light,\n"
                  "posed by one of its animations at a given time (--animation, --time), with image-based\n"
                  "lighting from the default studio environment (--env).\n"
                  "Prints the load report, the backend and the frame times.\n"};
    static const char *const backends[] = {"auto", "webgpu", "gles3", NULL};
    static const char *const pipelines[] = HL_CLI_PIPELINES;
    static const uint32_t sample_counts[] = {1, 4, 0};
    const char *backend_name = "auto", *pipeline_name = "forward", *out = "out/model.png", *camera_arg = "auto";
    const char *anim_arg = NULL, *time_arg = "0";
    uint32_t frames = 2;
    const char *env_arg = "default", *exposure_arg = "1";
    hl_renderer_desc rd = {0};
    rd.width = 1280;
    rd.height = 720;
    rd.sample_count = 4;
    const hl_cli_option opts[] = {
        {.name = "backend", .kind = HL_CLI_CHOICE, .help = "GPU backend (auto: webgpu, else gles3)",
         .value = &backend_name, .choices = backends},
        {.name = "width", .kind = HL_CLI_U32, .metavar = "W", .help = "image width", .value = &rd.width, .lo = 1,
         .hi = 8192},
        {.name = "height", .kind = HL_CLI_U32, .metavar = "H", .help = "image height", .value = &rd.height, .lo = 1,
         .hi = 8192},
        {.name = "samples", .kind = HL_CLI_U32, .metavar = "N", .help = "MSAA samples", .value = &rd.sample_count,
         .lo = 1, .hi = 4, .one_of = sample_counts},
        {.name = "pipeline", .kind = HL_CLI_CHOICE, .help = "render pipeline (as for the demo scene)",
         .value = &pipeline_name, .choices = pipelines},
        {.name = "camera", .kind = HL_CLI_STRING, .metavar = "auto|INDEX",
         .help = "the file's camera INDEX (0-based), or auto: framing the scene's bounds", .value = &camera_arg},
        {.name = "animation", .kind = HL_CLI_STRING, .metavar = "INDEX|NAME",
         .help = "pose the scene with this animation of the file at --time", .value = &anim_arg,
         .default_text = "none"},
        {.name = "time", .kind = HL_CLI_STRING, .metavar = "SECONDS",
         .help = "the animation's time (clamped to its keys)", .value = &time_arg},
        {.name = "frames", .kind = HL_CLI_U32, .metavar = "N", .help = "frames rendered (the last one is written)",
         .value = &frames, .lo = 1, .hi = 100000},
        {.name = "env", .kind = HL_CLI_STRING, .metavar = "default|none|FILE.hdr",
         .help = "image-based lighting: the default studio, none, or an equirectangular Radiance HDR file",
         .value = &env_arg},
        {.name = "exposure", .kind = HL_CLI_STRING, .metavar = "X", .help = "linear exposure of the lit colour",
         .value = &exposure_arg},
        {.name = "out", .kind = HL_CLI_STRING, .metavar = "FILE.png", .help = "PNG to write (folders are created)",
         .value = &out},
    };
    int prc = hl_cli_parse(&cmd, opts, sizeof opts / sizeof opts[0], argc, argv);
    if (prc >= 0) return prc;
    char *end = NULL;
    float anim_time = strtof(time_arg, &end);
    if (!*time_arg || *end || !isfinite(anim_time)) {
        hl_cli_error("--time '%s': a number of seconds", time_arg);
        return HL_CLI_EXIT_USAGE;
    }
    hl_result res = hl_backend_parse(backend_name, &rd.backend);
    if (res) {
        hl_cli_error("%s: %s", hl_result_name(res), hl_last_error());
        return HL_CLI_EXIT_USAGE;
    }
    hl_cli_model_scene m;
    int rc = hl_cli_model_scene_create(path, camera_arg, env_arg, exposure_arg, (float)rd.width / (float)rd.height, &m);
    if (rc) return rc;
    const hl_gltf_report *rp = hl_gltf_asset_report(m.asset);
    if (anim_arg) {
        hl_animation *anim = hl_cli_model_animation(m.asset, anim_arg, path);
        if (!anim) {
            hl_cli_model_scene_destroy(&m);
            return HL_CLI_EXIT_USAGE;
        }
        hl_animation_apply(anim, anim_time, HL_ANIMATION_CLAMP);
        hl_cli_printf("animation: '%s' at %.3f s of %.3f s\n", hl_animation_name(anim), (double)anim_time,
                      (double)hl_animation_duration(anim));
    }
    hl_stage *stage = m.stage;
    hl_camera *camera = m.camera;
    hl_pipeline_factory *factory = NULL;
    res = hl_demo_pipeline_factory(pipeline_name, &factory);
    if (!res) rd.pipeline = factory;
    hl_renderer *r = NULL;
    if (!res) {
        res = hl_renderer_create(&rd, &r);
        hl_demo_pipeline_release(pipeline_name, factory);
    }
    double first_ms = 0, sum_ms = 0;
    for (uint32_t f = 0; !res && f < frames; f++) {
        res = hl_renderer_render(r, stage, camera);
        double ms = (double)hl_renderer_stats(r)->cpu_ns / 1e6;
        if (f == 0) first_ms = ms;
        else sum_ms += ms;
    }
    size_t n = (size_t)rd.width * rd.height * 4;
    uint8_t *px = res ? NULL : malloc(n);
    if (!res && !px) res = HL_ERR_OUT_OF_MEMORY;
    if (!res) res = hl_renderer_read_pixels(r, px, n);
    if (res) {
        hl_cli_error("%s: %s: %s", path, hl_result_name(res), res == HL_ERR_OUT_OF_MEMORY ? "out of memory" : hl_last_error());
        rc = HL_CLI_EXIT_FAIL;
    } else if (hl_cli_write_png(out, rd.width, rd.height, px)) {
        rc = HL_CLI_EXIT_FAIL;
    } else {
        print_report(rp);
        const hl_render_stats *s = hl_renderer_stats(r);
        hl_cli_printf("backend: %s (%s)\n", hl_backend_name(hl_renderer_backend(r)), hl_renderer_adapter_name(r));
        hl_cli_printf("camera: %s; lights: %s; environment: %s, exposure %g\n",
                      m.own_camera ? "auto (framing the bounds)" : "the file's",
                      rp->lights ? "the file's" : hl_stage_environment(stage) ? "default key" : "default key + ambient",
                      strcmp(env_arg, "default") ? env_arg : "default studio", (double)hl_stage_exposure(stage));
        hl_cli_printf("frame: first %.2f ms, steady %.2f ms CPU; draws %u, faces %llu\n", first_ms,
                      frames > 1 ? sum_ms / (frames - 1) : first_ms, s->draws, (unsigned long long)s->faces);
        hl_cli_printf("wrote %s (%ux%u, %ux MSAA)\n", out, rd.width, rd.height, rd.sample_count);
    }
    free(px);
    hl_renderer_destroy(r);
    hl_cli_model_scene_destroy(&m);
    return rc;
}
