/* bench/scene_draws: 10,000 meshes (one shared geometry, 100 materials) rendered each frame
 * through the whole renderer (traversal, culling, sorting, prepared draws, graph frame) on
 * each backend, against the raw-API loop of rhi_draws doing the same number of draws in the
 * same run (frames alternate so driver drift falls on both).
 *
 *   scene_draws [--json] [--backend webgpu|gles3] [--meshes N] [--frames F] [--warmup W]
 *
 * Engine time: CPU time of hl_renderer_render (record + graph execute + submit; the wait for
 * the GPU is outside the timed region). Raw time: CPU time to encode and submit the raw loop.
 * allocs_per_frame: heap allocations through the hl allocator hook per steady-state frame. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_draws.h"
#include "hilo3d/renderer.h"
#include "hl_scene_demo.h"

typedef struct cfg {
    uint32_t meshes, materials, frames, warmup;
    bool json;
} cfg;

static int run(hl_backend backend, const cfg *c) {
    hl_renderer_desc rd = {0};
    rd.backend = backend;
    rd.width = 640;
    rd.height = 360;
    rd.sample_count = 1;
    hl_renderer *ren = NULL;
    hl_result r = hl_renderer_create(&rd, &ren);
    if (r) {
        printf("{\"backend\":\"%s\",\"available\":false,\"error\":\"%s\"}\n", hl_backend_name(backend), hl_result_name(r));
        return 0;
    }
    hl_stage *stage = NULL;
    hl_camera *cam = NULL;
    r = hl_scene_grid_create(c->meshes, c->materials, &stage, &cam);
    /* the raw loop runs on a device of its own (same backend), as an application would */
    hl_rhi_device_desc dd = {0};
    dd.backend = backend == HL_BACKEND_WEBGPU ? HL_RHI_BACKEND_WEBGPU : HL_RHI_BACKEND_GLES3;
    hl_rhi_device *dev = NULL;
    hl_bench_draws *raw = NULL;
    if (!r) r = hl_rhi_device_create(&dd, &dev);
    uint32_t draws = 0;
    uint64_t eng_ns = 0, raw_ns = 0, allocs = 0;
    for (uint32_t f = 0; !r && f < c->warmup + c->frames; f++) {
        bool measured = f >= c->warmup;
        uint64_t a0 = hl_alloc_count();
        r = hl_renderer_render(ren, stage, cam);
        uint64_t a1 = hl_alloc_count();
        if (r) break;
        draws = hl_renderer_stats(ren)->draws;
        if (measured) {
            eng_ns += hl_renderer_stats(ren)->cpu_ns;
            allocs += a1 - a0;
        }
        r = hl_renderer_wait_idle(ren);
        if (!r && !raw) r = hl_bench_draws_create(dev, draws, &raw);
        uint64_t enc = 0;
        if (!r) r = hl_bench_draws_raw_frame(raw, &enc);
        if (measured) raw_ns += enc;
    }
    int rc = 0;
    if (r) {
        fprintf(stderr, "scene_draws: %s: %s: %s\n", hl_backend_name(backend), hl_result_name(r), hl_last_error());
        rc = 1;
    } else {
        double eng = (double)eng_ns / c->frames, rw = (double)raw_ns / c->frames;
        const hl_render_stats *st = hl_renderer_stats(ren);
        if (c->json)
            printf("{\"backend\":\"%s\",\"adapter\":\"%s\",\"meshes\":%u,\"materials\":%u,\"draws\":%u,\"frames\":%u,"
                   "\"engine_ms_per_frame\":%.3f,\"engine_ns_per_draw\":%.1f,\"raw_ns_per_draw\":%.1f,\"ratio\":%.3f,"
                   "\"allocs_per_frame\":%.2f,\"pipeline_switches\":%llu,\"bind_group_switches\":%llu}\n",
                   hl_backend_name(hl_renderer_backend(ren)), hl_renderer_adapter_name(ren), c->meshes, c->materials,
                   draws, c->frames, eng / 1e6, eng / draws, rw / draws, eng / rw, (double)allocs / c->frames,
                   (unsigned long long)st->pipeline_switches, (unsigned long long)st->bind_group_switches);
        else
            printf("%-7s %u meshes, %u draws: engine %.3f ms/frame (%.1f ns/draw), raw %.1f ns/draw, ratio %.2f, "
                   "allocs/frame %.2f\n",
                   hl_backend_name(hl_renderer_backend(ren)), c->meshes, draws, eng / 1e6, eng / draws, rw / draws,
                   eng / rw, (double)allocs / c->frames);
    }
    hl_bench_draws_destroy(raw);
    if (dev) hl_rhi_device_destroy(dev);
    hl_stage_destroy(stage);
    hl_renderer_destroy(ren);
    return rc;
}

int main(int argc, char **argv) {
    cfg c = {10000, 100, 100, 10, false};
    int only = -1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) c.json = true;
        else if (i + 1 < argc && !strcmp(argv[i], "--meshes")) c.meshes = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (i + 1 < argc && !strcmp(argv[i], "--frames")) c.frames = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (i + 1 < argc && !strcmp(argv[i], "--warmup")) c.warmup = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (i + 1 < argc && !strcmp(argv[i], "--backend")) {
            hl_backend b;
            if (hl_backend_parse(argv[++i], &b) || b == HL_BACKEND_AUTO) {
                fprintf(stderr, "scene_draws: --backend must be webgpu or gles3\n");
                return 2;
            }
            only = (int)b;
        } else {
            fprintf(stderr, "usage: scene_draws [--json] [--backend webgpu|gles3] [--meshes N] [--frames F] [--warmup W]\n");
            return 2;
        }
    }
    if (!c.meshes || !c.frames || c.meshes > 1000000) {
        fprintf(stderr, "scene_draws: --meshes must be 1..1000000 and --frames > 0\n");
        return 2;
    }
    if (c.materials > c.meshes) c.materials = c.meshes;
    int rc = 0;
    if (only < 0 || only == HL_BACKEND_WEBGPU) rc |= run(HL_BACKEND_WEBGPU, &c);
    if (only < 0 || only == HL_BACKEND_GLES3) rc |= run(HL_BACKEND_GLES3, &c);
    return rc;
}
