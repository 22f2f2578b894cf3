/* The GPU-driven examples (src/demo/hl_gpu_examples.h) for tests: an example with its own
 * renderer (webgpu unless the run's backend says otherwise), set up, with its stage. */
#ifndef HL_TEST_GPU_H
#define HL_TEST_GPU_H

#include "hl_gpu_examples.h"

typedef struct hl_test_gpu_example {
    hl_gpu_example *ex;
    hl_renderer *r;
    hl_stage *stage;
    hl_camera *camera;
} hl_test_gpu_example;

/* desc's example at w x h on backend (single-sample); checks and reports every step; false
 * (and e partly made: release it anyway) when one failed. */
bool hl_test_gpu_example_make(const hl_gpu_example_desc *desc, hl_backend backend, uint32_t w, uint32_t h,
                              hl_test_gpu_example *e);
void hl_test_gpu_example_release(hl_test_gpu_example *e);
/* One frame: hl_gpu_example_frame then the render call; checks it. */
bool hl_test_gpu_example_frame(hl_test_gpu_example *e, uint32_t frame);

#endif
