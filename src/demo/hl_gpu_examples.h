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
 *   forward-plus N point lights (default 256, at most 4096) over a floor and nine boxes: a depth
 *                prepass (an override material writes the view depth into an RGBA16F texture), a
 *                compute pass keeps per 16x16 tile the lights whose projected bounding box
 *                overlaps the tile on screen and in depth (conservative), and the scene pass
 *                draws the meshes with a storage material (GLSL ES 3.10) looping over its tile's
 *                list from group-3 storage (a tile with more than 255 lights is marked and
 *                shades with every light). brute_force: the same material over every light.
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
    HL_GPU_EXAMPLE_FORWARD_PLUS,
} hl_gpu_example_kind;

typedef struct hl_gpu_example_desc {
    hl_gpu_example_kind kind;
    uint32_t count; /* bodies or instances; 0: 65,536 or 100,000; at most 4,194,304 */
    bool cpu_cull;  /* gpu-culling: cull on the CPU and draw the uploaded list directly */
    bool brute_force; /* forward-plus: every pixel loops over every light (no prepass, no culling) */
} hl_gpu_example_desc;

typedef struct hl_gpu_example hl_gpu_example;

/* "particles" / "gpu-culling" / "forward-plus" -> kind; HL_ERR_VALIDATION otherwise. Errors of these helpers are
 * codes only (the engine's message, when an engine call failed, is hl_last_error()). */
hl_result hl_gpu_example_parse(const char *name, hl_gpu_example_kind *out);
hl_result hl_gpu_example_create(const hl_gpu_example_desc *desc, hl_gpu_example **out);
const hl_pipeline_factory *hl_gpu_example_factory(hl_gpu_example *ex);
/* Kernels, shaders and buffers on r (a renderer made with the example's factory). */
hl_result hl_gpu_example_setup(hl_gpu_example *ex, hl_renderer *r);
/* The stage and camera to render (made on the first call, after setup; owned by the example):
 * forward-plus's floor and boxes, an empty stage for the others (they draw from storage). */
hl_result hl_gpu_example_scene(hl_gpu_example *ex, hl_stage **stage, hl_camera **camera);
/* Before the render call of frame `frame` (0, 1, ...): the camera of that frame (gpu-culling
 * orbits the origin), and with cpu_cull the CPU's culling and the list's upload. */
hl_result hl_gpu_example_frame(hl_gpu_example *ex, uint32_t frame);
/* gpu-culling: the instances inside the frustum of the last hl_gpu_example_frame, counted on
 * the CPU now (0 for particles or before any frame). */
uint32_t hl_gpu_example_count_visible(const hl_gpu_example *ex);
/* gpu-culling: the view-projection of the last hl_gpu_example_frame (identity before). */
void hl_gpu_example_view_proj(const hl_gpu_example *ex, float out[16]);
void hl_gpu_example_destroy(hl_gpu_example *ex);

/* The example's storage buffers (NULL before setup or when the example has none):
 * DATA bodies (32 bytes: position, velocity) or spheres (16: centre, radius); ARGS the indirect
 * arguments (particles: 4 u32 for a draw, gpu-culling: 5 for an indexed draw); VISIBLE the
 * compacted indices. forward-plus: DATA the lights (a uvec4 header holding the count, then
 * 32 bytes per light: position + radius, colour), VISIBLE the tile lists (a uvec4 header holding
 * the tiles per row, then 256 u32 per tile: the count, 0xFFFFFFFF when more than 255 lights
 * overlap it, and the light indices). */
typedef enum hl_gpu_example_buffer_kind {
    HL_GPU_EXAMPLE_DATA = 0,
    HL_GPU_EXAMPLE_ARGS,
    HL_GPU_EXAMPLE_VISIBLE,
} hl_gpu_example_buffer_kind;
hl_storage_buffer *hl_gpu_example_buffer(const hl_gpu_example *ex, hl_gpu_example_buffer_kind which);

/* ---- the pieces (for tests and pipelines of one's own) -------------------------------------------
 * Particle integration (bindings `sim`: {dt, k, w, damping, count, 3 x pad}, `bodies`) and
 * compaction (`bodies`, `args`: 4 u32 draw arguments, vertex count 6 and the atomic instance
 * count, `visible`) kernels, workgroup size 256; the simulation constants of the example. */
extern const char *const hl_gpu_particles_step_wgsl;
extern const hl_compute_binding hl_gpu_particles_step_abi[2];
extern const char *const hl_gpu_particles_compact_wgsl;
extern const hl_compute_binding hl_gpu_particles_compact_abi[3];
typedef struct hl_gpu_particles_sim {
    float dt, k, w, damping;
    uint32_t count, pad[3];
} hl_gpu_particles_sim;
extern const hl_gpu_particles_sim hl_gpu_particles_default_sim; /* count 0: set it */
/* One step of body b (8 floats) on the CPU, as the kernel computes it. */
void hl_gpu_particles_step_cpu(const hl_gpu_particles_sim *sim, float b[8]);
/* Records one step of count bodies on the GPU: the integration kernel `step`, the zeroing of
 * args and the compaction kernel `compact` of the bodies with p.y > 0 into visible (it writes
 * the vertex count and counts the visible bodies into the instance count of args). */
hl_result hl_gpu_particles_record_step(hl_pipeline_context ctx, hl_compute_kernel *step, hl_compute_kernel *compact,
                                       uint32_t count, hl_pipeline_buffer bodies, hl_pipeline_buffer args,
                                       hl_pipeline_buffer visible);

/* Frustum culling (`frustum`: 6 planes, `spheres`, `args`: 5 u32 indexed-indirect arguments,
 * index count 36 and the atomic instance count, `visible`), workgroup size 64, dispatched in
 * rows of 65,536 workgroups; the cube (36 u32 indices over 8 corners) and its storage shader
 * (blocks Spheres and Visible, Params {mat4 view_proj}). */
extern const char *const hl_gpu_culling_wgsl;
extern const hl_compute_binding hl_gpu_culling_abi[4];
extern const char *const hl_gpu_cube_vs, *const hl_gpu_cube_fs;
extern const uint32_t hl_gpu_cube_indices[36];
/* Column-major perspective (depth 0..1, vertical field of view fovy radians, near 1, far 300)
 * times a look-at from eye to the origin (y up). */
void hl_gpu_look_at(float aspect, float fovy, const float eye[3], float out[16]);
/* The six normalized planes (left, right, bottom, top, near, far) of view_proj; a sphere
 * (centre, radius) is inside when no plane has it wholly behind. */
void hl_gpu_frustum_planes(const float view_proj[16], float out[24]);
bool hl_gpu_sphere_in_frustum(const float planes[24], const float sphere[4]);
/* A compute shader made from wgsl + abi and its kernel (the shader destroyed: the kernel keeps
 * what it needs). */
hl_result hl_gpu_kernel_create(hl_renderer *r, const char *wgsl, const hl_compute_binding *abi, uint32_t binding_count,
                               uint32_t workgroup_size, const char *label, hl_compute_kernel **out);

#endif
