/* `hilo3d render`: the main job. Renders the built-in demo scene to a PNG and prints the
 * backend, frame time and diagnostics. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hilo3d/renderer.h"
#include "hl_scene_demo.h"

int hl_cli_render(int argc, char **argv);
int hl_cli_write_png(const char *path, uint32_t w, uint32_t h, const uint8_t *rgba); /* main.c */

static int usage_error(const char *msg, const char *arg) {
    fprintf(stderr, "hilo3d render: %s%s%s\n", msg, arg ? " " : "", arg ? arg : "");
    fprintf(stderr, "usage: hilo3d render [--backend auto|webgpu|gles3] [--width W --height H] [--samples 1|4]\n"
                    "                     [--frames N] [--out FILE.png]\n");
    return 2;
}

static bool parse_uint(const char *s, uint32_t lo, uint32_t hi, uint32_t *out) {
    char *end = NULL;
    unsigned long v = strtoul(s, &end, 10);
    if (!s[0] || *end || v < lo || v > hi) return false;
    *out = (uint32_t)v;
    return true;
}

int hl_cli_render(int argc, char **argv) {
    hl_renderer_desc rd = {0};
    rd.width = 1280;
    rd.height = 720;
    rd.sample_count = 4;
    const char *out = "out/demo.png";
    uint32_t frames = 3;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--backend") || !strcmp(a, "--width") || !strcmp(a, "--height") || !strcmp(a, "--out") ||
            !strcmp(a, "--samples") || !strcmp(a, "--frames")) {
            if (!v) return usage_error("missing value for", a);
            i++;
            if (!strcmp(a, "--backend") && hl_backend_parse(v, &rd.backend)) return usage_error("unknown backend", v);
            if (!strcmp(a, "--width") && !parse_uint(v, 1, 8192, &rd.width)) return usage_error("bad --width", v);
            if (!strcmp(a, "--height") && !parse_uint(v, 1, 8192, &rd.height)) return usage_error("bad --height", v);
            if (!strcmp(a, "--samples") && (!parse_uint(v, 1, 4, &rd.sample_count) || rd.sample_count == 2 ||
                                            rd.sample_count == 3))
                return usage_error("--samples must be 1 or 4, not", v);
            if (!strcmp(a, "--frames") && !parse_uint(v, 1, 100000, &frames)) return usage_error("bad --frames", v);
            if (!strcmp(a, "--out")) out = v;
        } else {
            return usage_error("unknown option", a);
        }
    }
    hl_renderer *r = NULL;
    hl_result res = hl_renderer_create(&rd, &r);
    if (res) {
        fprintf(stderr, "hilo3d render: cannot create a %s renderer: %s: %s\n", hl_backend_name(rd.backend),
                hl_result_name(res), hl_last_error());
        return 1;
    }
    hl_scene_demo demo;
    res = hl_scene_demo_create((float)rd.width / (float)rd.height, &demo);
    double first_ms = 0, sum_ms = 0;
    for (uint32_t f = 0; !res && f < frames; f++) {
        res = hl_renderer_render(r, demo.stage, demo.camera);
        double ms = (double)hl_renderer_stats(r)->cpu_ns / 1e6;
        if (f == 0) first_ms = ms;
        else sum_ms += ms;
    }
    if (!res) res = hl_renderer_wait_idle(r);
    uint8_t *px = res ? NULL : malloc((size_t)rd.width * rd.height * 4);
    if (!res && !px) res = HL_ERR_OUT_OF_MEMORY;
    if (!res) res = hl_renderer_read_pixels(r, px);
    int rc = 0;
    if (res) {
        fprintf(stderr, "hilo3d render: %s: %s\n", hl_result_name(res), hl_last_error());
        rc = 1;
    } else if (!hl_cli_write_png(out, rd.width, rd.height, px)) {
        fprintf(stderr, "hilo3d render: cannot write %s\n", out);
        rc = 1;
    } else {
        const hl_render_stats *s = hl_renderer_stats(r);
        printf("backend: %s (%s)\n", hl_backend_name(hl_renderer_backend(r)), hl_renderer_adapter_name(r));
        printf("frame: first %.2f ms, steady %.2f ms CPU (mean of %u)\n", first_ms,
               frames > 1 ? sum_ms / (frames - 1) : first_ms, frames > 1 ? frames - 1 : 1);
        printf("draws %u, instances %u, faces %llu, passes %u, meshes visible %u culled %u, lights %u, shadow tiles %u\n",
               s->draws, s->instances, (unsigned long long)s->faces, s->passes, s->meshes_visible, s->meshes_culled,
               s->lights, s->shadow_tiles);
        printf("pipeline switches %llu, bind group switches %llu, cache hits %llu misses %llu, prepared draws reused %llu "
               "rebuilt %llu, uploads %llu bytes\n",
               (unsigned long long)s->pipeline_switches, (unsigned long long)s->bind_group_switches,
               (unsigned long long)s->cache_hits, (unsigned long long)s->cache_misses,
               (unsigned long long)s->prepared_reused, (unsigned long long)s->prepared_rebuilt,
               (unsigned long long)s->upload_bytes);
        printf("wrote %s (%ux%u, %ux MSAA)\n", out, rd.width, rd.height, rd.sample_count);
    }
    free(px);
    hl_scene_demo_destroy(&demo);
    hl_renderer_destroy(r);
    return rc;
}
