/* `hilo3d graph-dump`: builds the typical deferred frame of the graph benchmark on the null
 * backend (G-buffer, lighting, 5-level bloom, tone map, output; a debug pass culled),
 * compiles and executes it, and writes the graph as Graphviz DOT.
 *
 *   hilo3d graph-dump [--width W] [--height H] [--out FILE.dot]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hl_graph.h"
#include "hl_rhi.h"

int hl_cli_graph_dump(int argc, char **argv);

static hl_result provide(void *user, hl_rhi_texture *out) {
    *out = *(hl_rhi_texture *)user;
    return HL_OK;
}

static int parse_size(const char *opt, const char *s, uint32_t *out) {
    char *end = NULL;
    unsigned long v = strtoul(s, &end, 10);
    if (!s[0] || *end || v < 32 || v > 8192) {
        fprintf(stderr, "hilo3d: %s '%s' must be an integer in [32, 8192]\n", opt, s);
        return 0;
    }
    *out = (uint32_t)v;
    return 1;
}

int hl_cli_graph_dump(int argc, char **argv) {
    uint32_t w = 1920, h = 1080;
    const char *out_path = NULL;
    for (int i = 2; i < argc; i++) {
        const char *o = argv[i];
        if (strcmp(o, "--width") && strcmp(o, "--height") && strcmp(o, "--out")) {
            fprintf(stderr, "hilo3d: unknown option '%s'\n", o);
            return 2;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "hilo3d: option %s needs a value\n", o);
            return 2;
        }
        const char *v = argv[++i];
        if (!strcmp(o, "--out")) out_path = v;
        else if (!parse_size(o, v, !strcmp(o, "--width") ? &w : &h)) return 2;
    }
    hl_rhi_device_desc dd = {0};
    dd.backend = HL_RHI_BACKEND_NULL;
    hl_rhi_device *dev = NULL;
    hl_graph *g = NULL;
    hl_rhi_texture surface = {0};
    FILE *f = NULL;
    int rc = 1;
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
        fprintf(stderr, "hilo3d: graph-dump: %s: %s\n", hl_result_name(r), hl_last_error());
    } else {
        f = out_path ? fopen(out_path, "w") : stdout;
        if (!f) {
            fprintf(stderr, "hilo3d: cannot write %s\n", out_path);
        } else {
            r = hl_graph_write_dot(g, f);
            if (r) fprintf(stderr, "hilo3d: graph-dump: %s\n", hl_last_error());
            else rc = 0;
            if (out_path && fclose(f)) {
                fprintf(stderr, "hilo3d: cannot write %s\n", out_path);
                rc = 1;
            }
            if (!rc && out_path) {
                const hl_graph_stats *st = hl_graph_get_stats(g);
                fprintf(stderr, "wrote %s: %u passes (%u culled), transient bytes %llu with reuse, %llu without, lower "
                        "bound %llu\n", out_path, st->passes_total, st->passes_culled,
                        (unsigned long long)st->bytes_with_reuse, (unsigned long long)st->bytes_without_reuse,
                        (unsigned long long)st->bytes_lower_bound);
            }
        }
    }
    hl_graph_destroy(g);
    if (dev) {
        hl_rhi_texture_destroy(dev, surface);
        hl_rhi_device_destroy(dev);
    }
    return rc;
}
