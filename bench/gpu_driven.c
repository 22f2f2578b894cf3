/* bench/gpu_driven: the gpu-culling example (src/demo/hl_gpu_examples.h) culled and drawn on
 * the GPU against the same scene culled on the CPU (the visible list uploaded each frame and
 * drawn directly by the same GPU-driven pass: the CPU path with instancing), at 1k, 10k, 100k
 * and 1M instances. One renderer per mode; frames alternate between the two modes in the same
 * run (the first mode rotating from round to round), the camera orbiting.
 *
 *   gpu_driven [--json] [--frames F] [--warmup W] [--counts 1000,10000,...] [--size WxH]
 *              [--mode both|gpu|cpu]
 *
 * Per count and mode: CPU time of a frame (the example's frame call, which culls and uploads on
 * the CPU path, plus the render call: record, graph, submit; the wait is outside), the frame's
 * wall time with a wait for the GPU (render call + hl_renderer_wait_idle), the frame's GPU time
 * from timestamp queries (hl_renderer_desc.gpu_timing: 0 where the adapter has none, and the
 * wall time is then the GPU figure), heap allocations per steady-state frame (allocator hook)
 * and the visible instances. Medians over F frames after W warm-up frames. --mode gpu or cpu
 * runs that mode alone (no alternation: the other mode's culling of a million instances then
 * does not evict the caches between two frames). The target: the GPU-driven CPU time flat from
 * 10k to 1M. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_draws.h"
#include "hilo3d/renderer.h"
#include "hilo3d/scene.h"
#include "hl_gpu_examples.h"


typedef struct mode {
    hl_gpu_example *ex;
    hl_renderer *r;
    double *cpu, *wall, *gpu;
    uint64_t allocs;
} mode;

static int make(uint32_t count, bool cpu_cull, uint32_t w, uint32_t h, uint32_t frames, mode *m) {
    memset(m, 0, sizeof *m);
    hl_gpu_example_desc ed = {HL_GPU_EXAMPLE_CULLING, count, cpu_cull, false};
    hl_renderer_desc rd = {0};
    rd.width = w;
    rd.height = h;
    rd.sample_count = 1;
    rd.backend = HL_BACKEND_WEBGPU;
    rd.gpu_timing = true;
    m->cpu = calloc(frames, sizeof *m->cpu);
    m->wall = calloc(frames, sizeof *m->wall);
    m->gpu = calloc(frames, sizeof *m->gpu);
    if (!m->cpu || !m->wall || !m->gpu || hl_gpu_example_create(&ed, &m->ex)) return 1;
    rd.pipeline = hl_gpu_example_factory(m->ex);
    hl_result res = hl_renderer_create(&rd, &m->r);
    if (!res) res = hl_gpu_example_setup(m->ex, m->r);
    if (res) {
        fprintf(stderr, "gpu_driven: %s: %s\n", hl_result_name(res), hl_last_error());
        return 1;
    }
    return 0;
}

static void release(mode *m) {
    hl_renderer_destroy(m->r);
    hl_gpu_example_destroy(m->ex);
    free(m->cpu);
    free(m->wall);
    free(m->gpu);
}

/* One frame of m; timings stored at slot when slot >= 0. */
static int frame(mode *m, hl_stage *stage, hl_camera *cam, uint32_t f, int slot) {
    double t0 = hl_bench_now_ms();
    hl_result res = hl_gpu_example_frame(m->ex, f);
    if (!res) res = hl_renderer_render(m->r, stage, cam);
    double t1 = hl_bench_now_ms();
    if (!res) res = hl_renderer_wait_idle(m->r);
    double t2 = hl_bench_now_ms();
    if (res) {
        fprintf(stderr, "gpu_driven: frame %u: %s: %s\n", f, hl_result_name(res), hl_last_error());
        return 1;
    }
    if (slot >= 0) {
        m->cpu[slot] = t1 - t0;
        m->wall[slot] = t2 - t0;
        m->gpu[slot] = (double)hl_renderer_stats(m->r)->gpu_ns / 1e6; /* 0: no timestamps */
    }
    return 0;
}

int main(int argc, char **argv) {
    bool json = false;
    uint32_t frames = 20, warmup = 3, w = 640, h = 360;
    uint32_t counts[8] = {1000, 10000, 100000, 1000000}, ncounts = 4;
    int first = 0, last = 1; /* the modes run: 0 gpu-driven, 1 cpu-culled */
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) json = true;
        else if (!strcmp(argv[i], "--frames") && i + 1 < argc) frames = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--warmup") && i + 1 < argc) warmup = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--mode") && i + 1 < argc) {
            const char *v = argv[++i];
            first = !strcmp(v, "cpu");
            last = strcmp(v, "gpu") ? 1 : 0;
            if (strcmp(v, "cpu") && strcmp(v, "gpu") && strcmp(v, "both")) first = 2;
        } else if (!strcmp(argv[i], "--size") && i + 1 < argc && sscanf(argv[i + 1], "%ux%u", &w, &h) == 2) i++;
        else if (!strcmp(argv[i], "--counts") && i + 1 < argc) {
            ncounts = 0;
            for (char *s = argv[++i]; *s && ncounts < 8;) {
                counts[ncounts++] = (uint32_t)strtoul(s, &s, 10);
                if (*s == ',') s++;
            }
        } else {
            fprintf(stderr, "usage: gpu_driven [--json] [--frames F] [--warmup W] [--counts N,N,...] [--size WxH] "
                            "[--mode both|gpu|cpu]\n");
            return 2;
        }
    }
    if (!frames || !w || !h || first > 1) {
        fprintf(stderr, "gpu_driven: --frames and --size need values > 0; --mode is both, gpu or cpu\n");
        return 2;
    }
    hl_stage *stage = NULL;
    if (hl_stage_create(&stage)) return 1;
    hl_camera *cam = NULL;
    if (hl_camera_create(NULL, &cam)) return 1;
    int rc = 0;
    if (!json)
        printf("%-9s %-5s %10s %10s %10s %12s %9s\n", "instances", "mode", "cpu ms", "wall ms", "gpu ms", "allocs/frame",
               "visible");
    for (uint32_t c = 0; c < ncounts && !rc; c++) {
        mode m[2];
        memset(m, 0, sizeof m);
        for (int k = first; k <= last && !rc; k++) rc = make(counts[c], k == 1, w, h, frames, &m[k]);
        if (rc) break;
        int n = last - first + 1;
        for (uint32_t f = 0; f < warmup && !rc; f++)
            for (int k = first; k <= last && !rc; k++) rc = frame(&m[k], stage, cam, f, -1);
        for (uint32_t f = 0; f < frames && !rc; f++)
            for (int k = 0; k < n && !rc; k++) {
                mode *mm = &m[first + (int)((f + (uint32_t)k) % (uint32_t)n)];
                uint64_t a0 = hl_alloc_count();
                rc = frame(mm, stage, cam, warmup + f, (int)f);
                mm->allocs += hl_alloc_count() - a0;
            }
        uint32_t visible = hl_gpu_example_count_visible(m[first].ex);
        double cpu[2], wall[2], gpu[2];
        for (int k = first; k <= last && !rc; k++) {
            cpu[k] = hl_bench_median(m[k].cpu, frames);
            wall[k] = hl_bench_median(m[k].wall, frames);
            gpu[k] = hl_bench_median(m[k].gpu, frames);
            double allocs = (double)m[k].allocs / frames;
            const char *name = k ? "cpu" : "gpu";
            if (json)
                printf("{\"instances\": %u, \"mode\": \"%s\", \"cpu_ms\": %.4f, \"wall_ms\": %.4f, \"gpu_ms\": %.4f, "
                       "\"allocs_per_frame\": "
                       "%.2f, \"visible\": %u, \"frames\": %u, \"size\": \"%ux%u\"}\n",
                       counts[c], name, cpu[k], wall[k], gpu[k], allocs, visible, frames, w, h);
            else
                printf("%-9u %-5s %10.3f %10.3f %10.3f %12.2f %9u\n", counts[c], name, cpu[k], wall[k], gpu[k], allocs,
                       visible);
        }
        if (!rc && !json && n == 2)
            printf("%-9u ratio CPU time gpu-driven / cpu-culled x%.3f, wall x%.3f\n", counts[c], cpu[0] / cpu[1],
                   wall[0] / wall[1]);
        for (int k = first; k <= last; k++) release(&m[k]);
    }
    hl_node_destroy(hl_camera_node(cam));
    hl_stage_destroy(stage);
    return rc;
}
