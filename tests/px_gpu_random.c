/* The GPU-driven examples under random variation (webgpu; gles3: each example's renderer is
 * refused, its pipeline requiring compute).
 *
 * For each of a fixed list of seeds (one line reproduces a failure: the seed and its draw): a
 * target size from 1x1 to 300x300 at any aspect, an instance or light count (1 .. 150,000
 * instances, 1 .. 600 lights), a frame of the orbiting camera. gpu-culling: the GPU-culled image
 * equals the CPU-culled one within 1/255 and the visible count read back equals the CPU's
 * frustum test. forward-plus: the tiled image equals the brute-force one within 2/255 (tiles cut
 * by odd edges, counts above and below 64 per tile). particles: after a random number of steps
 * (1..5) the bodies equal the CPU's within 1e-4. `HL_GPU_RANDOM_SEEDS=N` runs N seeds instead of
 * the suite's 12. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hilo3d/compute.h"
#include "hilo3d/renderer.h"
#include "hilo3d/scene.h"
#include "hl_test_gpu.h"
#include "hl_test.h"
#include "hl_test_render.h"

typedef hl_test_gpu_example example;

static bool make(hl_gpu_example_kind kind, uint32_t count, bool alt, uint32_t w, uint32_t h, example *e) {
    hl_gpu_example_desc ed = {kind, count, kind == HL_GPU_EXAMPLE_CULLING && alt, kind == HL_GPU_EXAMPLE_FORWARD_PLUS && alt};
    return hl_test_gpu_example_make(&ed, HL_BACKEND_WEBGPU, w, h, e);
}

static uint32_t g_rng;
static uint32_t rnd(uint32_t n) {
    g_rng = g_rng * 1664525u + 1013904223u;
    return (uint32_t)(((uint64_t)(g_rng >> 4) * n) >> 28);
}

static int frame(example *e, uint32_t f) { return !hl_test_gpu_example_frame(e, f); }

static int compare(example *a, example *b, uint32_t w, uint32_t h, int tol, const char *what, uint32_t seed) {
    uint8_t *ia = malloc((size_t)w * h * 4), *ib = malloc((size_t)w * h * 4);
    int worst = -1;
    if (ia && ib && !hl_renderer_read_pixels(a->r, ia, (size_t)w * h * 4) &&
        !hl_renderer_read_pixels(b->r, ib, (size_t)w * h * 4)) {
        worst = 0;
        for (size_t i = 0; i < (size_t)w * h * 4; i++) worst = abs(ia[i] - ib[i]) > worst ? abs(ia[i] - ib[i]) : worst;
    }
    HL_CHECK_MSG(worst >= 0 && worst <= tol, "seed %u %s %ux%u: worst %d/255 (<= %d)", seed, what, w, h, worst, tol);
    free(ia);
    free(ib);
    return worst;
}

static void culling(uint32_t seed, uint32_t w, uint32_t h) {
    uint32_t count = 1 + rnd(150000), f = rnd(600);
    example g, c;
    bool ok = make(HL_GPU_EXAMPLE_CULLING, count, false, w, h, &g);
    ok = make(HL_GPU_EXAMPLE_CULLING, count, true, w, h, &c) && ok;
    if (ok && !frame(&g, f) && !frame(&c, f)) {
        compare(&g, &c, w, h, 1, "gpu-culling", seed);
        uint32_t args[5] = {0};
        HL_CHECK_OK(hl_storage_buffer_read(g.r, hl_gpu_example_buffer(g.ex, HL_GPU_EXAMPLE_ARGS), 0, 20));
        HL_CHECK_OK(hl_storage_buffer_read_wait(g.r, args, sizeof args, 0));
        uint32_t want = hl_gpu_example_count_visible(g.ex);
        HL_CHECK_MSG(args[1] == want, "seed %u gpu-culling %ux%u, %u instances, frame %u: %u visible on the GPU, %u on the "
                     "CPU", seed, w, h, count, f, args[1], want);
    }
    hl_test_gpu_example_release(&g);
    hl_test_gpu_example_release(&c);
}

static void forward_plus(uint32_t seed, uint32_t w, uint32_t h) {
    uint32_t lights = 1 + rnd(600);
    example t, b;
    bool ok = make(HL_GPU_EXAMPLE_FORWARD_PLUS, lights, false, w, h, &t);
    ok = make(HL_GPU_EXAMPLE_FORWARD_PLUS, lights, true, w, h, &b) && ok;
    if (ok && !frame(&t, 0) && !frame(&b, 0)) compare(&t, &b, w, h, 2, "forward-plus", seed);
    hl_test_gpu_example_release(&t);
    hl_test_gpu_example_release(&b);
}

static void particles(uint32_t seed, uint32_t w, uint32_t h) {
    uint32_t count = 1 + rnd(70000), steps = 1 + rnd(5);
    example p;
    float *cpu = malloc((size_t)count * 32), *gpu = malloc((size_t)count * 32);
    if (make(HL_GPU_EXAMPLE_PARTICLES, count, false, w, h, &p) && cpu && gpu) {
        hl_storage_buffer *b = hl_gpu_example_buffer(p.ex, HL_GPU_EXAMPLE_DATA);
        HL_CHECK_OK(hl_storage_buffer_read(p.r, b, 0, (uint64_t)count * 32));
        HL_CHECK_OK(hl_storage_buffer_read_wait(p.r, cpu, (uint64_t)count * 32, 0));
        bool failed = false;
        for (uint32_t s = 0; s < steps && !failed; s++) failed = frame(&p, s);
        hl_gpu_particles_sim sim = hl_gpu_particles_default_sim;
        sim.count = count;
        for (uint32_t s = 0; s < steps; s++)
            for (uint32_t i = 0; i < count; i++) hl_gpu_particles_step_cpu(&sim, cpu + (size_t)i * 8);
        HL_CHECK_OK(hl_storage_buffer_read(p.r, b, 0, (uint64_t)count * 32));
        HL_CHECK_OK(hl_storage_buffer_read_wait(p.r, gpu, (uint64_t)count * 32, 0));
        double worst = 0;
        for (size_t i = 0; i < (size_t)count * 8; i++) worst = fmax(worst, fabs((double)gpu[i] - cpu[i]));
        HL_CHECK_MSG(!failed && worst <= 1e-4, "seed %u particles %ux%u, %u bodies, %u steps: worst %g", seed, w, h, count,
                     steps, worst);
    }
    free(cpu);
    free(gpu);
    hl_test_gpu_example_release(&p);
}

int main(int argc, char **argv) {
    if (backend_of(argc, argv) == HL_BACKEND_GLES3) { /* every example's pipeline requires compute */
        for (int k = 0; k < 3; k++) {
            hl_gpu_example_desc ed = {(hl_gpu_example_kind)k, 16, false, false};
            hl_gpu_example *ex = NULL;
            HL_CHECK_OK(hl_gpu_example_create(&ed, &ex));
            hl_renderer_desc rd = {0};
            rd.width = rd.height = 8;
            rd.backend = HL_BACKEND_GLES3;
            rd.pipeline = hl_gpu_example_factory(ex);
            hl_renderer *r = NULL;
            HL_CHECK_RESULT(hl_renderer_create(&rd, &r), HL_ERR_UNSUPPORTED);
            hl_gpu_example_destroy(ex);
        }
        return hl_test_finish();
    }
    uint32_t seeds = getenv("HL_GPU_RANDOM_SEEDS") ? (uint32_t)strtoul(getenv("HL_GPU_RANDOM_SEEDS"), NULL, 10) : 12;
    for (uint32_t seed = 1; seed <= seeds; seed++) {
        g_rng = seed * 2654435761u;
        /* sizes: square, wide, tall, tiny, odd */
        uint32_t w = 1 + rnd(300), h = rnd(4) == 0 ? w : 1 + rnd(300);
        if (rnd(8) == 0) w = 1 + rnd(4), h = 1 + rnd(4);
        switch (seed % 3) {
        case 0: culling(seed, w, h); break;
        case 1: forward_plus(seed, w, h); break;
        default: particles(seed, w, h); break;
        }
    }
    return hl_test_finish();
}
