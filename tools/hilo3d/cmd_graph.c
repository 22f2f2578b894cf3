/* `hilo3d graph-dump`: builds the typical deferred frame of the graph benchmark on the null
 * backend (G-buffer, lighting, 5-level bloom, tone map, output; a debug pass culled),
 * compiles and executes it, and writes the graph as Graphviz DOT. With --pipeline, the real
 * frame graph of the demo scene rendered by that pipeline (on --backend) instead.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hilo3d/pipeline.h"
#include "hl_graph.h"
#include "hl_rhi.h"
#include "hl_scene_demo.h"

static hl_result provide(void *user, hl_rhi_texture *out) {
    *out = *(hl_rhi_texture *)user;
    return HL_OK;
}

/* The DOT text in memory, so the one write of it (file or stdout) reports its own errno.
 * Returns 0, or 1 after printing why. g, or the renderer r's last frame when g is NULL. */
static int dot_text(hl_graph *g, hl_renderer *ren, char **text, size_t *size) {
    *text = NULL;
    *size = 0;
    FILE *f = open_memstream(text, size);
    if (!f) {
        hl_cli_error("cannot format the DOT text: %s", strerror(errno));
        return 1;
    }
    hl_result r = g ? hl_graph_write_dot(g, f) : hl_renderer_write_graph_dot(ren, f);
    if (r) hl_cli_error("%s: %s", hl_result_name(r), hl_last_error());
    errno = 0;
    if (fclose(f) != 0 && !r) {
        hl_cli_error("cannot format the DOT text: %s", strerror(errno ? errno : ENOMEM));
        r = HL_ERR_OUT_OF_MEMORY;
    }
    if (r) {
        free(*text);
        *text = NULL;
        return 1;
    }
    return 0;
}

/* The demo scene rendered once by `pipeline`, then the renderer's frame graph as DOT. */
static int dump_pipeline(const char *pipeline, const char *backend, uint32_t w, uint32_t h, const char *out_path) {
    hl_renderer_desc rd = {0};
    hl_result r = hl_backend_parse(backend, &rd.backend);
    if (r) {
        hl_cli_error("%s: %s", hl_result_name(r), hl_last_error());
        return HL_CLI_EXIT_USAGE;
    }
    rd.width = w;
    rd.height = h;
    hl_pipeline_factory *factory = NULL;
    r = hl_demo_pipeline_factory(pipeline, &factory);
    rd.pipeline = factory;
    hl_renderer *ren = NULL;
    if (!r) r = hl_renderer_create(&rd, &ren);
    hl_demo_pipeline_release(pipeline, factory);
    hl_scene_demo demo = {0};
    if (!r) r = hl_scene_demo_create((float)w / (float)h, &demo);
    if (!r) r = hl_renderer_render(ren, demo.stage, demo.camera);
    char *text = NULL;
    size_t size = 0;
    int rc = HL_CLI_EXIT_FAIL;
    if (r) {
        hl_cli_error("%s: %s", hl_result_name(r), hl_last_error());
    } else if (!dot_text(NULL, ren, &text, &size) && !hl_cli_write_output(out_path, text, size)) {
        rc = HL_CLI_EXIT_OK;
        if (out_path)
            fprintf(stderr, "wrote %s: the %s frame of the demo scene on %s, %u passes\n", out_path, pipeline,
                    hl_backend_name(hl_renderer_backend(ren)), hl_renderer_stats(ren)->passes);
    }
    free(text);
    hl_scene_demo_destroy(&demo);
    hl_renderer_destroy(ren);
    return rc;
}

int hl_cli_graph_dump(int argc, char **argv) {
    static const hl_cli_command cmd = {
        "graph-dump", "Builds, compiles and executes the render graph of a typical deferred frame (G-buffer,\n"
                      "lighting, 5-level bloom, tone map, output; a debug pass culled) on the null backend and\n"
                      "writes it as Graphviz DOT. With --pipeline: the real frame graph of the demo scene\n"
                      "rendered by that pipeline.\n"};
    uint32_t w = 1920, h = 1080;
    const char *out_path = NULL;
    static const char *const pipelines[] = HL_CLI_PIPELINES;
    static const char *const backends[] = {"auto", "webgpu", "gles3", NULL};
    const char *pipeline_name = NULL, *backend_name = "auto";
    const hl_cli_option opts[] = {
        {.name = "pipeline", .kind = HL_CLI_CHOICE,
         .help = "dump the real frame graph of the demo scene rendered by this pipeline",
         .value = &pipeline_name, .choices = pipelines, .default_text = "the example deferred frame"},
        {.name = "backend", .kind = HL_CLI_CHOICE, .help = "GPU backend with --pipeline", .value = &backend_name,
         .choices = backends},
        {.name = "width", .kind = HL_CLI_U32, .metavar = "W", .help = "frame width", .value = &w, .lo = 32,
         .hi = 8192},
        {.name = "height", .kind = HL_CLI_U32, .metavar = "H", .help = "frame height", .value = &h, .lo = 32,
         .hi = 8192},
        {.name = "out", .kind = HL_CLI_STRING, .metavar = "FILE.dot", .help = "DOT file to write (folders are created)",
         .value = &out_path, .default_text = "standard output"},
    };
    int prc = hl_cli_parse(&cmd, opts, sizeof opts / sizeof opts[0], argc, argv);
    if (prc >= 0) return prc;
    if (pipeline_name) return dump_pipeline(pipeline_name, backend_name, w, h, out_path);

    hl_rhi_device_desc dd = {0};
    dd.backend = HL_RHI_BACKEND_NULL;
    hl_rhi_device *dev = NULL;
    hl_graph *g = NULL;
    hl_rhi_texture surface = {0};
    char *text = NULL;
    size_t size = 0;
    int rc = HL_CLI_EXIT_FAIL;
    hl_result r = hl_rhi_device_create(&dd, &dev);
    if (!r) {
        hl_rhi_texture_desc sd = {0};
        sd.format = HL_RHI_FORMAT_RGBA8_UNORM;
        sd.width = w;
        sd.height = h;
        sd.usage = HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT;
        r = hl_rhi_texture_create(dev, &sd, &surface);
    }
    if (!r) {
        hl_graph_desc gd = {0};
        gd.device = dev;
        r = hl_graph_create(&gd, &g);
    }
    if (!r) {
        hl_graph_begin(g);
        r = hl_graph_build_example_deferred(g, w, h, provide, &surface, NULL);
    }
    if (!r) r = hl_graph_compile(g, NULL);
    if (!r) r = hl_graph_execute(g, NULL);
    if (r) {
        hl_cli_error("%s: %s", hl_result_name(r), hl_last_error());
    } else if (!dot_text(g, NULL, &text, &size) && !hl_cli_write_output(out_path, text, size)) {
        rc = HL_CLI_EXIT_OK;
        if (out_path) {
            const hl_graph_stats *st = hl_graph_get_stats(g);
            fprintf(stderr, "wrote %s: %u passes (%u culled), transient bytes %llu with reuse, %llu without, lower "
                            "bound %llu\n",
                    out_path, st->passes_total, st->passes_culled, (unsigned long long)st->bytes_with_reuse,
                    (unsigned long long)st->bytes_without_reuse, (unsigned long long)st->bytes_lower_bound);
        }
    }
    free(text);
    hl_graph_destroy(g);
    if (dev) {
        hl_rhi_texture_destroy(dev, surface);
        hl_rhi_device_destroy(dev);
    }
    return rc;
}
