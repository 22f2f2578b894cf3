/** @file
 * hilo3d: compute shaders (webgpu only; gles3 refuses every compute call).
 *
 * A compute shader is WGSL source with one `@compute` entry point and an explicit binding ABI:
 * every resource variable the source declares, with its group, binding, name and type, as the
 * application will bind it. hl_compute_shader_create checks the ABI against the source before
 * any pipeline exists and names each mismatch: the entry point must exist, be `@compute` and
 * declare `@workgroup_size` with integer literals equal to desc.workgroup_size (and within the
 * device's limits); each ABI entry must be a variable of the source at the same group and
 * binding, of that name and a matching type; a resource variable missing from the ABI is an
 * error too. f16 is refused (not every device has it). Then Dawn compiles the source; its
 * errors come back as HL_ERR_SHADER with Dawn's message.
 *
 * Storage buffers (below) hold data across frames; inside a pipeline's record, compute passes
 * dispatch kernels over them and over the frame's buffers and textures (hilo3d/pipeline.h:
 * hl_pipeline_add_compute_pass).
 * Storage graphics shaders (below) draw GPU-driven passes; shader materials in GLSL ES 3.10 read
 * a scene pass's storage (hl_pipeline_scene_pass_desc.storage).
 *
 * On gles3 every call here is HL_ERR_UNSUPPORTED before any GL call (OpenGL ES 3.0 has no
 * compute shaders): no emulation. Threading and ownership: as render targets (renderer.h): a
 * shader belongs to the renderer that created it, other renderers refuse it, and
 * hl_renderer_destroy destroys the shaders left. */
#ifndef HILO3D_COMPUTE_H
#define HILO3D_COMPUTE_H

#include <stdint.h>

#include "hilo3d/export.h"
#include "hilo3d/renderer.h"
#include "hilo3d/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The kind of one resource variable of a compute shader's WGSL (its binding ABI). */
typedef enum hl_compute_binding_type {
    HL_COMPUTE_UNIFORM_BUFFER = 0,        /**< var<uniform> */
    HL_COMPUTE_STORAGE_READ,              /**< var<storage> or var<storage, read> */
    HL_COMPUTE_STORAGE_READ_WRITE,        /**< var<storage, read_write> */
    HL_COMPUTE_SAMPLED_TEXTURE_2D,        /**< texture_2d<f32> (i32, u32) */
    HL_COMPUTE_SAMPLER_FILTERING,         /**< sampler (for filterable textures) */
    HL_COMPUTE_SAMPLER_NON_FILTERING,     /**< sampler (nearest only) */
    HL_COMPUTE_SAMPLER_COMPARISON,        /**< sampler_comparison */
    HL_COMPUTE_STORAGE_TEXTURE_2D_WRITE,  /**< texture_storage_2d<format, write> */
    HL_COMPUTE_BINDING_TYPE_COUNT         /**< the number of types; not a type */
} hl_compute_binding_type;

HL_API const char *hl_compute_binding_type_name(hl_compute_binding_type type); /**< "read-write storage buffer", ...; "?" outside the enum */

#define HL_COMPUTE_MAX_GROUPS 4   /**< groups 0..3 */
#define HL_COMPUTE_MAX_BINDINGS 16 /**< bindings 0..15 in each group */

/** One entry of a compute shader's binding ABI: a resource variable as the source declares it. */
typedef struct hl_compute_binding {
    const char *name; /**< the WGSL variable's name */
    /** Its `@group` (below HL_COMPUTE_MAX_GROUPS) and `@binding` (below HL_COMPUTE_MAX_BINDINGS). @{ */
    uint32_t group, binding;
    /** @} */
    hl_compute_binding_type type; /**< what it is; must match the declaration */
    /** buffers: the bytes the shader reads at least (0: no minimum; a multiple of 4); 0 for
       textures and samplers */
    uint64_t min_binding_size;
} hl_compute_binding;

/** A compute shader to create (hl_compute_shader_create); everything is copied. */
typedef struct hl_compute_shader_desc {
    const char *wgsl;        /**< NUL-terminated, at most 1 MiB */
    const char *entry_point; /**< default "main" */
    uint32_t workgroup_size[3]; /**< as the source declares it; 0 = 1 */
    const hl_compute_binding *bindings; /**< the binding ABI: every resource variable of the source */
    uint32_t binding_count;             /**< entries in bindings */
    const char *label; /**< for messages; default the entry point */
} hl_compute_shader_desc;

/** A checked and compiled compute shader, owned by the renderer that made it. */
typedef struct hl_compute_shader hl_compute_shader;

/** HL_ERR_VALIDATION for a bad descriptor or an ABI that disagrees with the source (the message
 * names the binding and the line), HL_ERR_SHADER for a source the scanner or Dawn refuses,
 * HL_ERR_UNSUPPORTED on gles3 and for a workgroup size above the device's limits. */
HL_API hl_result hl_compute_shader_create(hl_renderer *r, const hl_compute_shader_desc *desc, hl_compute_shader **out);
/** NULL s is a no-op; another renderer's shader is HL_ERR_VALIDATION. */
HL_API hl_result hl_compute_shader_destroy(hl_renderer *r, hl_compute_shader *s);
/** The workgroup size the shader was made with (after defaults). */
HL_API void hl_compute_shader_workgroup_size(const hl_compute_shader *s, uint32_t size[3]);

/* ---- kernels: a shader with its override constants fixed ----------------------------------- */
/** Each constant names an `override` of the source with an explicit scalar type; its value must
 * fit it: bool 0 or 1, i32 and u32 integers in range, f32 finite and within float range. Every
 * override without a default must be set. The kernel's binding layout comes from the shader's
 * ABI (a sampled texture's sample type and a storage texture's format from the source:
 * rgba8unorm, rgba8uint, rgba16float, r32float, rg32float, rgba32float, r32uint). Both sampler
 * types bind a filtering sampler slot. The kernel does not keep the shader: destroying the
 * shader afterwards leaves the kernel usable. */
typedef struct hl_compute_constant {
    const char *name; /**< the `override` declaration's name */
    double value;     /**< its value (must fit the declared type) */
} hl_compute_constant;

/** The most constants of one kernel. */
#define HL_COMPUTE_MAX_CONSTANTS 32

/** A kernel to create (hl_compute_kernel_create). */
typedef struct hl_compute_kernel_desc {
    hl_compute_shader *shader; /**< of the same renderer */
    const hl_compute_constant *constants; /**< override values (copied), at most HL_COMPUTE_MAX_CONSTANTS */
    uint32_t constant_count;              /**< entries in constants */
    const char *label; /**< default the shader's */
} hl_compute_kernel_desc;

/** A compute shader with its override constants fixed: what a compute pass dispatches; owned by
 * the renderer that made it. */
typedef struct hl_compute_kernel hl_compute_kernel;

/** HL_ERR_VALIDATION naming the constant or the binding; HL_ERR_UNSUPPORTED on gles3. */
HL_API hl_result hl_compute_kernel_create(hl_renderer *r, const hl_compute_kernel_desc *desc, hl_compute_kernel **out);
/** NULL k is a no-op; another renderer's kernel is HL_ERR_VALIDATION. */
HL_API hl_result hl_compute_kernel_destroy(hl_renderer *r, hl_compute_kernel *k);

/* ---- storage buffers ------------------------------------------------------------------------ */
/** @file
 * @par Storage buffers
 * A renderer-owned buffer that keeps its contents from frame to frame (stable identity: the same
 * object every frame). Compute passes read and write it; CPU writes are copied at the call and
 * delivered by the upload batch of the next graph frame that uses the buffer (a pipeline's
 * hl_pipeline_import_storage_buffer, or hl_storage_buffer_read), before that frame's first pass;
 * a frame that fails delivers nothing and the next one delivers the writes again.
 *
 * Reads are asynchronous: hl_storage_buffer_read submits a graph frame of its own that delivers
 * pending writes and copies the range into a staging buffer; hl_storage_buffer_read_poll tells
 * whether that submission has finished, hl_storage_buffer_read_wait waits for it (at most
 * timeout_ms), copies the bytes out of the mapped staging buffer and ends the read. One read
 * may be pending per renderer: a second hl_storage_buffer_read before the wait is
 * HL_ERR_INVALID_STATE. A wait that times out keeps the read pending (wait again). A read's
 * frame replaces the renderer's last render frame in its graph: hl_renderer_write_graph_dot has
 * nothing to write until the next render.
 *
 * webgpu only: on gles3 every call is HL_ERR_UNSUPPORTED before any GL call. */
/** Recovery policy (used when the device is lost; recorded now): what a recovery restores,
 * CPU_SHADOW the CPU's copy of everything written from the CPU, REINITIALIZE the initial
 * contents (both keep a CPU copy of the buffer for the writes not yet delivered). GPU writes
 * (compute passes writing the buffer) make the CPU shadow stale once the frame that made them
 * submits successfully (hl_storage_buffer_info.shadow_stale); a failed frame changes nothing. */
typedef enum hl_storage_recovery {
    HL_STORAGE_RECOVERY_CPU_SHADOW = 0, /**< restore what the CPU wrote (initial data and every write; the default) */
    HL_STORAGE_RECOVERY_REINITIALIZE,   /**< restore the initial contents; unreadable until a full writer commits */
} hl_storage_recovery;

/** Uses beyond storage and copies (bit flags). */
enum {
    HL_STORAGE_USAGE_VERTEX = 1u << 0,   /**< vertex buffer of GPU-driven draws */
    HL_STORAGE_USAGE_INDEX = 1u << 1,    /**< index buffer of GPU-driven draws */
    HL_STORAGE_USAGE_INDIRECT = 1u << 2, /**< indirect dispatch / draw arguments */
    HL_STORAGE_USAGE_ALL = (1u << 3) - 1 /**< every bit above */
};

/** A storage buffer to create (hl_storage_buffer_create). */
typedef struct hl_storage_buffer_desc {
    uint64_t size;            /**< bytes: a non-zero multiple of 4, at most the device's storage binding size */
    uint32_t usage;           /**< HL_STORAGE_USAGE_* */
    hl_storage_recovery recovery; /**< what a device-loss recovery restores (default CPU_SHADOW) */
    const void *initial_data; /**< size bytes, copied; NULL: zeros */
    const char *label;        /**< for messages; default "storage" */
} hl_storage_buffer_desc;

/** A renderer-owned GPU buffer whose contents last from frame to frame (see "Storage buffers"
 * above). */
typedef struct hl_storage_buffer hl_storage_buffer;

/** A storage buffer's settings and state (hl_storage_buffer_info_get). */
typedef struct hl_storage_buffer_info {
    uint64_t size;                /**< bytes, as created */
    uint32_t usage;               /**< HL_STORAGE_USAGE_* bits, as created */
    hl_storage_recovery recovery; /**< the recovery policy */
    bool shadow_stale;     /**< a submitted frame's compute pass wrote it since the last CPU write */
    bool writes_pending;   /**< CPU writes not yet delivered by a successful frame */
} hl_storage_buffer_info;

/** HL_ERR_VALIDATION for a bad descriptor (the message names the field); HL_ERR_UNSUPPORTED on
 * gles3 or above the device's storage binding size. */
HL_API hl_result hl_storage_buffer_create(hl_renderer *r, const hl_storage_buffer_desc *desc, hl_storage_buffer **out);
/** NULL b is a no-op; another renderer's buffer is HL_ERR_VALIDATION; refused while a read of it
 * is pending (HL_ERR_INVALID_STATE). The GPU object goes once the frames using it are done. */
HL_API hl_result hl_storage_buffer_destroy(hl_renderer *r, hl_storage_buffer *b);
/** offset and size multiples of 4 within the buffer (HL_ERR_VALIDATION naming the range). Not
 * inside a frame's record (HL_ERR_INVALID_STATE). */
HL_API hl_result hl_storage_buffer_write(hl_renderer *r, hl_storage_buffer *b, uint64_t offset, const void *data, uint64_t size);
/** b's settings and state into *out. HL_ERR_VALIDATION for a NULL, destroyed or other renderer's
 * buffer. */
HL_API hl_result hl_storage_buffer_info_get(const hl_renderer *r, const hl_storage_buffer *b, hl_storage_buffer_info *out);
/** Starts the read of [offset, offset + size) (multiples of 4, within the buffer). */
HL_API hl_result hl_storage_buffer_read(hl_renderer *r, hl_storage_buffer *b, uint64_t offset, uint64_t size);
/** *done: the pending read's submission has finished (HL_ERR_INVALID_STATE: no read pending). */
HL_API hl_result hl_storage_buffer_read_poll(hl_renderer *r, bool *done);
/** Waits at most timeout_ms (0: the device's wait timeout) and copies the bytes into dst
 * (dst_size at least the read's size, else HL_ERR_VALIDATION and the read stays pending). */
HL_API hl_result hl_storage_buffer_read_wait(hl_renderer *r, void *dst, uint64_t dst_size, uint32_t timeout_ms);

/* ---- storage graphics shaders ---------------------------------------------------------------- */
/** GLSL ES 3.10 vertex and fragment shaders (`#version 310 es`) for GPU-driven draws
 * (hl_pipeline_add_gpu_draw_pass): the GLSL ES 3.00 rules of the engine's other shaders (numeric
 * uniforms in std140 blocks) plus read-only storage blocks,
 *     layout(std430) readonly buffer Instances { vec4 data[]; };
 * which the pass binds by block name. One uniform block may exist, named `Params` (filled from
 * the pass's params). sampler2D uniforms (at most 4) read the textures the pass names.
 * Vertices are pulled from storage with gl_VertexID and gl_InstanceID (the draws' first instance
 * is 0), or come from vertex buffers the pass names per `in` variable (at most 8;
 * hl_pipeline_gpu_draw_pass_desc.vertex). Compiled with the
 * engine's toolchain (source budget, glslang to SPIR-V); hand-written graphics WGSL is not
 * accepted. Writable storage blocks are HL_ERR_SHADER. webgpu only: gles3 refuses creation
 * (HL_ERR_UNSUPPORTED, no GL call). Ownership as compute shaders. */
typedef struct hl_storage_shader_desc {
    const char *vertex;   /**< required */
    const char *fragment; /**< required */
    const char *label;    /**< for messages; default "storage shader" */
} hl_storage_shader_desc;

/** A compiled storage graphics shader (vertex and fragment) for GPU-driven draws, owned by the
 * renderer that made it. */
typedef struct hl_storage_shader hl_storage_shader;

/** HL_ERR_SHADER for a source glslang or the toolchain refuses (the message names the stage and
 * line), HL_ERR_VALIDATION for a uniform block other than Params, a sampler other than a
 * sampler2D or more than 4 of them. */
HL_API hl_result hl_storage_shader_create(hl_renderer *r, const hl_storage_shader_desc *desc, hl_storage_shader **out);
/** NULL s is a no-op; another renderer's shader is HL_ERR_VALIDATION. */
HL_API hl_result hl_storage_shader_destroy(hl_renderer *r, hl_storage_shader *s);

/** The most bytes a compute pass's uniform binding takes (hl_pipeline_compute_resource.data). */
#define HL_COMPUTE_MAX_UNIFORM_DATA 4096u

#ifdef __cplusplus
}
#endif

#endif
