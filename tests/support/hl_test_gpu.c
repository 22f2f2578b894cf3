/* GPU-driven examples for tests (hl_test_gpu.h). */
#include <string.h>

#include "hl_test.h"
#include "hl_test_gpu.h"

bool hl_test_gpu_example_make(const hl_gpu_example_desc *desc, hl_backend backend, uint32_t w, uint32_t h,
                              hl_test_gpu_example *e) {
    memset(e, 0, sizeof *e);
    hl_result res = hl_gpu_example_create(desc, &e->ex);
    hl_renderer_desc rd = {0};
    rd.width = w;
    rd.height = h;
    rd.sample_count = 1;
    rd.backend = backend;
    rd.pipeline = hl_gpu_example_factory(e->ex);
    if (!res) res = hl_renderer_create(&rd, &e->r);
    if (!res) res = hl_gpu_example_setup(e->ex, e->r);
    if (!res) res = hl_gpu_example_scene(e->ex, &e->stage, &e->camera);
    HL_CHECK_MSG(res == HL_OK, "example kind %d, count %u, %ux%u: %s", (int)desc->kind, desc->count, w, h, hl_last_error());
    return res == HL_OK;
}

void hl_test_gpu_example_release(hl_test_gpu_example *e) {
    hl_renderer_destroy(e->r); /* first: the example's GPU objects go with it */
    hl_gpu_example_destroy(e->ex);
    memset(e, 0, sizeof *e);
}

bool hl_test_gpu_example_frame(hl_test_gpu_example *e, uint32_t frame) {
    hl_result res = hl_gpu_example_frame(e->ex, frame);
    if (!res) res = hl_renderer_render(e->r, e->stage, e->camera);
    HL_CHECK_MSG(res == HL_OK, "frame %u: %s", frame, hl_last_error());
    return res == HL_OK;
}
