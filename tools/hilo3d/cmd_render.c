/* `hilo3d render`: the main job. Renders the built-in demo scene to a PNG and prints the
 * backend, frame time and diagnostics. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hilo3d/pipeline.h"
#include "hilo3d/renderer.h"
#include "hl_demo_model.h"
#include "hl_gpu_examples.h"
#include "hl_scene_demo.h"

int hl_cli_render(int argc, char **argv) {
    static const hl_cli_command cmd = {
        "render", "Renders the built-in demo scene with the scene renderer to a PNG and prints the backend,\n"
                  "the CPU frame times and the renderer statistics of the last frame. 'hilo3d render MODEL.gltf'\n"
                  "(or .glb) renders a glTF model instead: 'hilo3d render MODEL --help' lists its options.\n"};
    static const char *const backends[] = {"auto", "webgpu", "gles3", NULL};
    static const char *const pipelines[] = HL_CLI_PIPELINES;
    static const char *const examples[] = {"none", "particles", "gpu-culling", "forward-plus", NULL};
    const char *pipeline_name = "forward";
    const char *example_name = "none";
    uint32_t count = 0;
    static const uint32_t sample_counts[] = {1, 4, 0};
    const char *backend_name = "auto";
    const char *out = "out/demo.png";
    uint32_t frames = 3;
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
        {.name = "pipeline", .kind = HL_CLI_CHOICE,
         .help = "render pipeline (forward-post: the scene in HDR, then bloom, ACES tone mapping and FXAA; "
                 "deferred: G-buffer, lighting pass, forward transparent, bloom, ACES)",
         .value = &pipeline_name, .choices = pipelines},
        {.name = "example", .kind = HL_CLI_CHOICE,
         .help = "a GPU-driven example instead of the demo scene (webgpu only; --samples is 1): particles "
                 "(65,536 bodies simulated, compacted and drawn on the GPU), gpu-culling (100,000 instances culled "
                 "on the GPU, drawn from indirect arguments), forward-plus (256 point lights culled per screen tile "
                 "by a compute pass, the scene lit from the tile lists)",
         .value = &example_name, .choices = examples},
        {.name = "count", .kind = HL_CLI_U32, .metavar = "N",
         .help = "bodies or instances of --example (0: the example's default)", .value = &count, .lo = 0,
         .hi = 4194304, .default_text = "0"},
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
    if (argc > 1 && hl_cli_is_model(argv[1])) return hl_cli_render_model(argv[1], argc - 1, argv + 1);
    int prc = hl_cli_parse(&cmd, opts, sizeof opts / sizeof opts[0], argc, argv);
    if (prc >= 0) return prc;
    hl_result res = hl_backend_parse(backend_name, &rd.backend);
    if (res) {
        hl_cli_error("%s: %s", hl_result_name(res), hl_last_error());
        return HL_CLI_EXIT_USAGE;
    }

    bool example = strcmp(example_name, "none") != 0;
    if (example && strcmp(pipeline_name, "forward")) {
        hl_cli_error("--example and --pipeline %s: an example brings its own pipeline", pipeline_name);
        return HL_CLI_EXIT_USAGE;
    }
    hl_gpu_example *ex = NULL;
    if (example) {
        hl_gpu_example_desc ed = {0};
        hl_gpu_example_parse(example_name, &ed.kind);
        ed.count = count;
        if ((res = hl_gpu_example_create(&ed, &ex))) {
            hl_cli_error("example %s: %s", example_name, hl_result_name(res));
            return HL_CLI_EXIT_FAIL;
        }
        rd.sample_count = 1;
        pipeline_name = example_name;
    }
    hl_pipeline_factory *factory = NULL;
    res = example ? HL_OK : hl_demo_pipeline_factory(pipeline_name, &factory);
    if (res) {
        hl_cli_error("%s: %s", hl_result_name(res), hl_last_error());
        return HL_CLI_EXIT_FAIL;
    }
    rd.pipeline = example ? hl_gpu_example_factory(ex) : factory;
    hl_renderer *r = NULL;
    res = hl_renderer_create(&rd, &r);
    if (!example) hl_demo_pipeline_release(pipeline_name, factory); /* the renderer keeps what it needs */
    if (res) {
        hl_cli_error("cannot create a %s renderer: %s: %s", hl_backend_name(rd.backend), hl_result_name(res),
                     hl_last_error());
        hl_gpu_example_destroy(ex);
        return HL_CLI_EXIT_FAIL;
    }
    if (ex && (res = hl_gpu_example_setup(ex, r)))
        hl_cli_error("example %s: %s: %s", example_name, hl_result_name(res), hl_last_error());
    hl_scene_demo demo;
    memset(&demo, 0, sizeof demo);
    hl_stage *stage = NULL;
    hl_camera *camera = NULL;
    if (!res && ex && (res = hl_gpu_example_scene(ex, &stage, &camera)))
        hl_cli_error("example %s: %s: %s", example_name, hl_result_name(res), hl_last_error());
    if (!res && !ex) res = hl_scene_demo_create((float)rd.width / (float)rd.height, &demo);
    if (!res && !ex) stage = demo.stage, camera = demo.camera;
    if (!res && !ex) {
        int erc = hl_cli_apply_environment(stage, env_arg, exposure_arg, 0.4f);
        if (erc) {
            hl_scene_demo_destroy(&demo);
            hl_renderer_destroy(r);
            return erc;
        }
    }
    double first_ms = 0, sum_ms = 0;
    for (uint32_t f = 0; !res && f < frames; f++) {
        if (ex && (res = hl_gpu_example_frame(ex, f))) break;
        res = hl_renderer_render(r, stage, camera);
        double ms = (double)hl_renderer_stats(r)->cpu_ns / 1e6;
        if (f == 0) first_ms = ms;
        else sum_ms += ms;
    }
    if (!res) res = hl_renderer_wait_idle(r);
    uint8_t *px = res ? NULL : malloc((size_t)rd.width * rd.height * 4);
    if (!res && !px) res = HL_ERR_OUT_OF_MEMORY;
    if (!res) res = hl_renderer_read_pixels(r, px, (size_t)rd.width * rd.height * 4);
    int rc = HL_CLI_EXIT_OK;
    if (res) {
        hl_cli_error("%s: %s", hl_result_name(res), hl_last_error());
        rc = HL_CLI_EXIT_FAIL;
    } else if (hl_cli_write_png(out, rd.width, rd.height, px)) {
        rc = HL_CLI_EXIT_FAIL;
    } else {
        const hl_render_stats *s = hl_renderer_stats(r);
        hl_cli_printf("backend: %s (%s)\n", hl_backend_name(hl_renderer_backend(r)), hl_renderer_adapter_name(r));
        hl_cli_printf("pipeline: %s\n", pipeline_name);
        hl_cli_printf("frame: first %.2f ms, steady %.2f ms CPU (mean of %u)\n", first_ms,
                      frames > 1 ? sum_ms / (frames - 1) : first_ms, frames > 1 ? frames - 1 : 1);
        hl_cli_printf("draws %u, instances %u, faces %llu, passes %u, meshes visible %u culled %u, lights %u, shadow "
                      "tiles %u\n",
                      s->draws, s->instances, (unsigned long long)s->faces, s->passes, s->meshes_visible,
                      s->meshes_culled, s->lights, s->shadow_tiles);
        hl_cli_printf("pipeline switches %llu, bind group switches %llu, cache hits %llu misses %llu, prepared draws "
                      "reused %llu rebuilt %llu, uploads %llu bytes\n",
                      (unsigned long long)s->pipeline_switches, (unsigned long long)s->bind_group_switches,
                      (unsigned long long)s->cache_hits, (unsigned long long)s->cache_misses,
                      (unsigned long long)s->prepared_reused, (unsigned long long)s->prepared_rebuilt,
                      (unsigned long long)s->upload_bytes);
        hl_cli_printf("wrote %s (%ux%u, %ux MSAA)\n", out, rd.width, rd.height, rd.sample_count);
    }
    free(px);
    hl_scene_demo_destroy(&demo);
    hl_renderer_destroy(r);
    hl_gpu_example_destroy(ex); /* after the renderer: its GPU objects went with it */
    return rc;
}
