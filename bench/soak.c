/* bench/soak: the long churn soak (tests/support/hl_scene_gen_soak.c; tests/test_soak.c is the
 * short CI version).
 *
 *   soak [--backend webgpu|gles3|both] [--frames N] [--sample-every N] [--warmup N]
 *        [--max-rss-growth KIB] [--read-every N] [--quiet]
 *
 * Each frame creates and destroys meshes, geometries, textures, materials (one shader material
 * with a source unique to the frame), a uniform buffer and a render target, renders them in one
 * frame and reads back every --read-every frames (default 50). Prints, every --sample-every
 * frames (default 600, rounded up to the renderer's 60-frame eviction period): RSS
 * (/proc/self/statm), hilo3d's live heap blocks and bytes (allocator hook), hl_alloc_count and
 * the renderer's live programs, pipelines, mirrors and targets; then a verdict per backend.
 * Defaults: 10,000 frames, growth measured from frame 2,000 (--warmup), RSS growth bound
 * 4 MiB. Exits 1 when any bound broke or any call failed, 2 on a usage error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hl_scene_gen.h"

static int usage(const char *msg) {
    fprintf(stderr,
            "soak: %s\nusage: soak [--backend webgpu|gles3|both] [--frames N] [--sample-every N] [--warmup N]\n"
            "            [--max-rss-growth KIB] [--read-every N] [--quiet]\n",
            msg);
    return 2;
}

static bool num(const char *s, uint32_t *out) {
    if (!s || !*s) return false;
    char *end;
    unsigned long v = strtoul(s, &end, 0);
    if (*end || v > UINT32_MAX) return false;
    *out = (uint32_t)v;
    return true;
}

int main(int argc, char **argv) {
    hl_gen_count_allocations();
    hl_soak_desc d = {0};
    d.frames = 10000;
    d.warmup = 2000;
    uint32_t rss = 4096;
    int nb = 2;
    hl_backend backends[2] = {HL_BACKEND_WEBGPU, HL_BACKEND_GLES3};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--backend")) {
            if (!v) return usage("--backend needs webgpu, gles3 or both");
            if (strcmp(v, "both") != 0) {
                if (hl_backend_parse(v, &backends[0]) || backends[0] == HL_BACKEND_AUTO)
                    return usage("--backend needs webgpu, gles3 or both");
                nb = 1;
            }
            i++;
        } else if (!strcmp(a, "--frames")) {
            if (!num(v, &d.frames) || !d.frames) return usage("--frames needs a number > 0");
            i++;
        } else if (!strcmp(a, "--sample-every")) {
            if (!num(v, &d.sample_every)) return usage("--sample-every needs a number");
            i++;
        } else if (!strcmp(a, "--warmup")) {
            if (!num(v, &d.warmup)) return usage("--warmup needs a number");
            i++;
        } else if (!strcmp(a, "--read-every")) {
            if (!num(v, &d.read_every)) return usage("--read-every needs a number");
            i++;
        } else if (!strcmp(a, "--max-rss-growth")) {
            if (!num(v, &rss)) return usage("--max-rss-growth needs KiB");
            i++;
        } else if (!strcmp(a, "--quiet")) {
            d.quiet = true;
        } else {
            return usage("unknown option");
        }
    }
    d.max_rss_growth_kb = rss;
    bool all = true;
    for (int b = 0; b < nb; b++) {
        d.backend = backends[b];
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        hl_soak_result res;
        hl_result r = hl_soak_run(&d, &res);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
        printf("%s: %u frames in %.1f s (%.1f frames/s)\n", hl_backend_name(d.backend), res.frames_run, s,
               s > 0 ? res.frames_run / s : 0.0);
        all &= r == HL_OK && res.bounded;
    }
    return all ? 0 : 1;
}
