/* GPU-driven examples written only against the public API (hilo3d/compute.h, pipeline.h):
 * what `hilo3d render --example NAME` draws and what bench/gpu_driven measures.
 *
 *   particles    N bodies (default 65,536) in a storage buffer, advanced each frame by a compute
 *                kernel (a spring towards the origin plus a swirl about the y axis, damped),
 *                compacted with an atomic counter into draw-indirect arguments (the bodies above
 *                y = 0) and drawn as additive quads by a GPU-driven pass, coloured by speed.
 *   gpu-culling  N instance bounding spheres (default 100,000) in [-50, 50]^3; a compute pass
 *                culls them against the camera frustum into a visible list and indexed-indirect
 *                arguments; a GPU-driven pass draws a lit cube per visible instance (depth
 *                tested). With cpu_cull the CPU tests the spheres and uploads the list, and the
 *                same pass draws it directly: the baseline of the benchmark.
 *
 * Usage: create the example, make a renderer with hl_gpu_example_factory (its requirements,
 * compute and storage buffers, make HL_BACKEND_AUTO choose webgpu; gles3 refuses), call
 * hl_gpu_example_setup once, then hl_gpu_example_frame before each render call. The example's
 * GPU objects belong to the renderer; destroy the example after the renderer. */
#ifndef HL_GPU_EXAMPLES_H
#define HL_GPU_EXAMPLES_H

#include "hilo3d/compute.h"
#include "hilo3d/pipeline.h"

typedef enum hl_gpu_example_kind {
    HL_GPU_EXAMPLE_PARTICLES = 0,
    HL_GPU_EXAMPLE_CULLING,
} hl_gpu_example_kind;

typedef struct hl_gpu_example_desc {
    hl_gpu_example_kind kind;
    uint32_t count; /* bodies or instances; 0: 65,536 or 100,000; at most 4,194,304 */
    bool cpu_cull;  /* gpu-culling: cull on the CPU and draw the uploaded list directly */
} hl_gpu_example_desc;

typedef struct hl_gpu_example hl_gpu_example;

/* "particles" / "gpu-culling" -> kind; HL_ERR_VALIDATION otherwise. Errors of these helpers are
 * codes only (the engine's message, when an engine call failed, is hl_last_error()). */
hl_result hl_gpu_example_parse(const char *name, hl_gpu_example_kind *out);
hl_result hl_gpu_example_create(const hl_gpu_example_desc *desc, hl_gpu_example **out);
const hl_pipeline_factory *hl_gpu_example_factory(hl_gpu_example *ex);
/* Kernels, shaders and buffers on r (a renderer made with the example's factory). */
hl_result hl_gpu_example_setup(hl_gpu_example *ex, hl_renderer *r);
/* Before the render call of frame `frame` (0, 1, ...): the camera of that frame (gpu-culling
 * orbits the origin), and with cpu_cull the CPU's culling and the list's upload. */
hl_result hl_gpu_example_frame(hl_gpu_example *ex, uint32_t frame);
/* gpu-culling: the instances inside the frustum of the last hl_gpu_example_frame, counted on
 * the CPU now (0 for particles or before any frame). */
uint32_t hl_gpu_example_count_visible(const hl_gpu_example *ex);
void hl_gpu_example_destroy(hl_gpu_example *ex);

#endif
