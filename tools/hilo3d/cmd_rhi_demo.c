/* `hilo3d rhi-demo`: renders the RHI test scene (no scene layer, no renderer) to a PNG and
 * prints the backend, frame time and RHI statistics. */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "hl_rhi.h"
#include "hl_rhi_demo.h"

int hl_cli_rhi_demo(int argc, char **argv) {
    static const hl_cli_command cmd = {
        "rhi-demo", "Renders the RHI test scene (drawn with the RHI alone) to a PNG and prints the backend,\n"
                    "the frame time and the RHI statistics.\n"};
    static const char *const backends[] = {"auto", "webgpu", "gles3", NULL};
    static const uint32_t sample_counts[] = {1, 4, 0};
    const char *backend_name = "auto";
    const char *out = "out/demo.png";
    hl_rhi_demo_desc dd = {0};
    dd.width = 512;
    dd.height = 512;
    dd.sample_count = 4;
    const hl_cli_option opts[] = {
        {.name = "backend", .kind = HL_CLI_CHOICE, .help = "GPU backend", .value = &backend_name, .choices = backends},
        {.name = "width", .kind = HL_CLI_U32, .metavar = "W", .help = "image width", .value = &dd.width, .lo = 1,
         .hi = 8192},
        {.name = "height", .kind = HL_CLI_U32, .metavar = "H", .help = "image height", .value = &dd.height, .lo = 1,
         .hi = 8192},
        {.name = "samples", .kind = HL_CLI_U32, .metavar = "N", .help = "MSAA samples", .value = &dd.sample_count,
         .lo = 1, .hi = 4, .one_of = sample_counts},
        {.name = "out", .kind = HL_CLI_STRING, .metavar = "FILE.png",
         .help = "PNG to write (folders are created)", .value = &out},
    };
    int prc = hl_cli_parse(&cmd, opts, sizeof opts / sizeof opts[0], argc, argv);
    if (prc >= 0) return prc;

    hl_rhi_backend backend = HL_RHI_BACKEND_AUTO;
    hl_result r = hl_rhi_backend_parse(backend_name, &backend);
    if (r) {
        hl_cli_error("%s: %s", hl_result_name(r), hl_last_error());
        return HL_CLI_EXIT_USAGE;
    }
    hl_rhi_device_desc desc = {0};
    desc.backend = backend;
    hl_rhi_device *dev = NULL;
    r = hl_rhi_device_create(&desc, &dev);
    if (r) {
        hl_cli_error("cannot create a %s device: %s: %s", hl_rhi_backend_name(backend), hl_result_name(r),
                     hl_last_error());
        return HL_CLI_EXIT_FAIL;
    }
    uint8_t *rgba = malloc((size_t)dd.width * dd.height * 4);
    if (!rgba) {
        hl_cli_error("out of memory for a %ux%u image", dd.width, dd.height);
        hl_rhi_device_destroy(dev);
        return HL_CLI_EXIT_FAIL;
    }
    uint64_t ns = 0;
    r = hl_rhi_demo_render(dev, &dd, rgba, &ns);
    int rc = HL_CLI_EXIT_OK;
    if (r) {
        hl_cli_error("rendering failed: %s: %s", hl_result_name(r), hl_last_error());
        rc = HL_CLI_EXIT_FAIL;
    } else if (hl_cli_write_png(out, dd.width, dd.height, rgba)) {
        rc = HL_CLI_EXIT_FAIL;
    } else {
        const hl_rhi_caps *caps = hl_rhi_device_caps(dev);
        const hl_rhi_stats *st = hl_rhi_device_stats(dev);
        hl_cli_printf("backend: %s (%s)\nframe: %.3f ms (record + submit + wait, first frame)\n"
                      "draws: %llu, pipeline switches: %llu, bind group switches: %llu, native calls: %llu\n"
                      "wrote %s (%ux%u, %ux MSAA)\n",
                      hl_rhi_backend_name(hl_rhi_device_backend(dev)), caps->adapter_name, (double)ns / 1e6,
                      (unsigned long long)st->draws, (unsigned long long)st->pipeline_switches,
                      (unsigned long long)st->bind_group_switches, (unsigned long long)st->native_calls, out,
                      dd.width, dd.height, dd.sample_count);
    }
    free(rgba);
    hl_rhi_device_destroy(dev);
    return rc;
}
