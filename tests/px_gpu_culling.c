/* The GPU-culling workload (issue 9 §4.2): the gpu-culling example of src/demo/hl_gpu_examples.h,
 * on one backend per run.
 *
 * webgpu: 100,000 instance bounding spheres in a storage buffer; a compute pass tests each
 * against the camera's six frustum planes and appends the visible ones to an index list with an
 * atomic counter that is also the instance count of indexed-indirect arguments; a GPU-driven pass
 * draws a lit cube per visible instance from those arguments (depth tested). The same example
 * with cpu_cull culls on the CPU, uploads the list and draws it directly. Checked, at two sizes
 * and aspects (96x64, 48x80) and two frames of the orbiting camera: the visible count read back
 * equals the CPU's frustum test exactly, the list holds exactly the CPU's instances, and the
 * GPU-culled image equals the CPU-culled one (+-1 per channel); the frame has no heap
 * allocation once warm. gles3: the example's renderer cannot be made (its pipeline requires
 * compute: HL_ERR_UNSUPPORTED naming it), and an explicit storage call is refused. */
#include <stdlib.h>
#include <string.h>

#include "hilo3d/compute.h"
#include "hilo3d/scene.h"
#include "hl_test_gpu.h"
#include "hl_test.h"
#include "hl_test_render.h"

enum { INSTANCES = 100000 };

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

typedef hl_test_gpu_example example;

static bool make(uint32_t w, uint32_t h, bool cpu_cull, example *e) {
    hl_gpu_example_desc ed = {HL_GPU_EXAMPLE_CULLING, INSTANCES, cpu_cull, false};
    return hl_test_gpu_example_make(&ed, hl_test_render_backend, w, h, e);
}

static void run(uint32_t w, uint32_t h) {
    example g, c;
    bool ok = make(w, h, false, &g);
    ok = make(w, h, true, &c) && ok;
    uint8_t *a = malloc((size_t)w * h * 4), *b = malloc((size_t)w * h * 4);
    uint32_t *got = malloc(INSTANCES * 4), *want = malloc(INSTANCES * 4);
    float *spheres = malloc((size_t)INSTANCES * 16);
    hl_stage *stage = NULL;
    HL_CHECK_OK(hl_stage_create(&stage));
    hl_camera *cam = front_camera(stage);
    if (ok && a && b && got && want && spheres) {
        HL_CHECK_OK(hl_storage_buffer_read(g.r, hl_gpu_example_buffer(g.ex, HL_GPU_EXAMPLE_DATA), 0, INSTANCES * 16));
        HL_CHECK_OK(hl_storage_buffer_read_wait(g.r, spheres, (uint64_t)INSTANCES * 16, 0));
        static const uint32_t frames[] = {0, 1, 2, 40};
        for (uint32_t k = 0; k < 4; k++) {
            uint32_t f = frames[k];
            uint64_t a0 = hl_alloc_count();
            HL_CHECK_OK(hl_gpu_example_frame(g.ex, f));
            HL_CHECK_OK(hl_renderer_render(g.r, stage, cam));
            if (k == 2) HL_CHECK_EQ(hl_alloc_count() - a0, 0); /* warm: the GPU path allocates nothing */
            HL_CHECK_EQ(hl_renderer_stats(g.r)->passes, 3);
            HL_CHECK_OK(hl_gpu_example_frame(c.ex, f));
            HL_CHECK_OK(hl_renderer_render(c.r, stage, cam));
            HL_CHECK_EQ(hl_renderer_stats(c.r)->passes, 1);
            if (k == 1 || k == 2) continue; /* warm-up frames */
            /* the CPU's own frustum test of this frame's camera */
            float vp[16], planes[24];
            hl_gpu_example_view_proj(g.ex, vp);
            hl_gpu_frustum_planes(vp, planes);
            uint32_t count = 0;
            for (uint32_t i = 0; i < INSTANCES; i++)
                if (hl_gpu_sphere_in_frustum(planes, spheres + (size_t)i * 4)) want[count++] = i;
            HL_CHECK_EQ(count, hl_gpu_example_count_visible(g.ex));
            HL_CHECK_MSG(count > 1000 && count < INSTANCES, "%ux%u frame %u: %u visible", w, h, f, count);
            uint32_t args[5] = {0};
            HL_CHECK_OK(hl_storage_buffer_read(g.r, hl_gpu_example_buffer(g.ex, HL_GPU_EXAMPLE_ARGS), 0, 20));
            HL_CHECK_OK(hl_storage_buffer_read_wait(g.r, args, sizeof args, 0));
            HL_CHECK_MSG(args[0] == 36 && args[1] == count && !args[2] && !args[3] && !args[4],
                         "%ux%u frame %u: args %u %u %u %u %u; the CPU finds %u visible", w, h, f, args[0], args[1],
                         args[2], args[3], args[4], count);
            if (args[1] == count) {
                HL_CHECK_OK(hl_storage_buffer_read(g.r, hl_gpu_example_buffer(g.ex, HL_GPU_EXAMPLE_VISIBLE), 0,
                                                   (uint64_t)count * 4));
                HL_CHECK_OK(hl_storage_buffer_read_wait(g.r, got, INSTANCES * 4, 0));
                qsort(got, count, 4, cmp_u32);
                HL_CHECK(memcmp(got, want, (size_t)count * 4) == 0);
            }
            HL_CHECK_OK(hl_renderer_read_pixels(g.r, a, (size_t)w * h * 4));
            HL_CHECK_OK(hl_renderer_read_pixels(c.r, b, (size_t)w * h * 4));
            int worst = 0;
            uint32_t lit = 0;
            for (size_t i = 0; i < (size_t)w * h * 4; i++) worst = abs(a[i] - b[i]) > worst ? abs(a[i] - b[i]) : worst;
            for (size_t i = 0; i < (size_t)w * h; i++) lit += a[i * 4] > 20 || a[i * 4 + 1] > 20 || a[i * 4 + 2] > 20;
            HL_CHECK_MSG(worst <= 1, "%ux%u frame %u: GPU-culled image differs from the CPU-culled one by %d/255", w, h, f,
                         worst);
            HL_CHECK_MSG(lit > w * h / 2, "%ux%u frame %u: %u pixels covered", w, h, f, lit);
        }
    }
    free(a);
    free(b);
    free(got);
    free(want);
    free(spheres);
    hl_stage_destroy(stage);
    hl_test_gpu_example_release(&g);
    hl_test_gpu_example_release(&c);
}

static void test_gles3(void) {
    hl_gpu_example_desc ed = {HL_GPU_EXAMPLE_CULLING, 1000, false, false};
    hl_gpu_example *ex = NULL;
    HL_CHECK_OK(hl_gpu_example_create(&ed, &ex));
    hl_renderer_desc rd = {0};
    rd.width = rd.height = 16;
    rd.backend = HL_BACKEND_GLES3;
    rd.pipeline = hl_gpu_example_factory(ex);
    hl_renderer *r = NULL;
    HL_CHECK_RESULT(hl_renderer_create(&rd, &r), HL_ERR_UNSUPPORTED);
    HL_CHECK(r == NULL && strstr(hl_last_error(), "requires compute") != NULL);
    hl_gpu_example_destroy(ex);
    r = make_renderer(16, 16, 1);
    if (!r) return;
    hl_storage_buffer *b = NULL;
    hl_storage_buffer_desc bd = {16, 0, HL_STORAGE_RECOVERY_CPU_SHADOW, NULL, "spheres"};
    HL_CHECK_RESULT(hl_storage_buffer_create(r, &bd, &b), HL_ERR_UNSUPPORTED);
    hl_renderer_destroy(r);
}

int main(int argc, char **argv) {
    if (backend_of(argc, argv) == HL_BACKEND_GLES3) {
        test_gles3();
        return hl_test_finish();
    }
    run(96, 64);
    run(48, 80);
    return hl_test_finish();
}
