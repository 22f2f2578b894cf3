/* hilo3d RHI: the WebGPU-shaped portable render hardware interface (internal API used by the
 * engine layers and by tests; applications use include/hilo3d/).
 *
 * Objects: device (opaque pointer) owning buffers, textures, texture views, samplers, shader
 * modules, bind group layouts, bind groups, pipeline layouts, render and compute pipelines, render
 * bundles.
 * Those are typed handles {uint32_t id}: low 20 bits pool index + 1, 8 bits generation, 4 bits
 * device tag. id 0 is "none". A destroyed or stale handle, or one of another device, is
 * HL_ERR_VALIDATION, never a crash.
 *
 * Frame scope: hl_rhi_begin_frame -> commands on the returned hl_rhi_cmd -> hl_rhi_end_frame
 * gives an hl_rhi_submission (poll or wait); hl_rhi_abort_frame discards a failed frame.
 * The command context has at most one open pass (render or compute); draws only inside a
 * render pass, dispatches only inside a compute pass, copies/clears/mipmaps outside passes.
 *
 * Validation: every call is checked by one shared layer before any native call; the same bad
 * input gives the same code and a message naming the field on every backend.
 *
 * Destruction is logically immediate (the handle becomes invalid at once); the native object
 * is released when every submission that used it has completed.
 *
 * Descriptors are zero-initialised structs: 0 means the documented default.
 *
 * Waits: every call that blocks (hl_rhi_device_wait_idle, hl_rhi_buffer_read,
 * hl_rhi_texture_read, device creation, a full queue of frames in flight, and the wait inside
 * hl_rhi_device_destroy) gives up after the device's wait timeout (hl_rhi_device_desc.
 * wait_timeout_ms, default 10 s) and returns HL_ERR_TIMEOUT with a message naming what it
 * waited for and for how long. hl_rhi_submission_wait takes its own timeout. A timeout changes
 * nothing: the work stays queued, a later wait succeeds once the GPU has finished it, and
 * hl_rhi_device_destroy waits at most the timeout, then releases everything anyway.
 *
 * Threads: a device and everything made from it belong to one thread at a time, its owner:
 * the thread that created it, until it is handed over. Every call that takes the device, an
 * object handle of it or its hl_rhi_cmd must come from the owner. The owner is checked where
 * it costs nothing per draw: at every call taking the device (object create / destroy /
 * write / read, frame begin / end, waits, polls, cache and state calls); a call from another
 * thread returns HL_ERR_INVALID_STATE naming both threads (void calls do nothing and leave
 * that message). hl_rhi_cmd_* calls are not checked: the command context belongs to the
 * thread that began the frame. Getters of immutable data (hl_rhi_device_caps,
 * hl_rhi_device_backend) work from any thread. Hand-over: hl_rhi_device_detach on the owner
 * (no frame open), then hl_rhi_device_attach on the new thread; a detached device may also be
 * destroyed from any thread. Detach a device before its owning thread exits (gles3: the EGL
 * context is current on that thread until then). Different devices may be used by different
 * threads at the same time; the behaviour is the same on every backend (gles3 makes its EGL
 * context current on the owner; webgpu has no thread affinity, but the same rule applies).
 */
#ifndef HL_RHI_H
#define HL_RHI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hilo3d/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- handles ---------------------------------------------------------------------------- */
typedef struct hl_rhi_buffer { uint32_t id; } hl_rhi_buffer;
typedef struct hl_rhi_texture { uint32_t id; } hl_rhi_texture;
typedef struct hl_rhi_texture_view { uint32_t id; } hl_rhi_texture_view;
typedef struct hl_rhi_sampler { uint32_t id; } hl_rhi_sampler;
typedef struct hl_rhi_shader { uint32_t id; } hl_rhi_shader;
typedef struct hl_rhi_bind_group_layout { uint32_t id; } hl_rhi_bind_group_layout;
typedef struct hl_rhi_bind_group { uint32_t id; } hl_rhi_bind_group;
typedef struct hl_rhi_pipeline_layout { uint32_t id; } hl_rhi_pipeline_layout;
typedef struct hl_rhi_render_pipeline { uint32_t id; } hl_rhi_render_pipeline;
typedef struct hl_rhi_compute_pipeline { uint32_t id; } hl_rhi_compute_pipeline;
typedef struct hl_rhi_render_bundle { uint32_t id; } hl_rhi_render_bundle;

typedef struct hl_rhi_device hl_rhi_device; /* opaque */
typedef struct hl_rhi_cmd hl_rhi_cmd;       /* command context of the open frame (opaque) */

/* A submitted frame. serial 0 means "none". */
typedef struct hl_rhi_submission { uint64_t serial; } hl_rhi_submission;

/* ---- enums -------------------------------------------------------------------------------- */
typedef enum hl_rhi_backend {
    HL_RHI_BACKEND_AUTO = 0, /* webgpu if an adapter satisfies the requirements, else gles3 */
    HL_RHI_BACKEND_WEBGPU,
    HL_RHI_BACKEND_GLES3,
    HL_RHI_BACKEND_NULL, /* no GPU: objects and validation only, for logic tests */
    HL_RHI_BACKEND_COUNT
} hl_rhi_backend;

const char *hl_rhi_backend_name(hl_rhi_backend b); /* "auto", "webgpu", "gles3", "null" */
/* Parses a name as above; HL_ERR_VALIDATION for anything else. */
hl_result hl_rhi_backend_parse(const char *name, hl_rhi_backend *out);

typedef enum hl_rhi_format {
    HL_RHI_FORMAT_UNDEFINED = 0,
    HL_RHI_FORMAT_R8_UNORM,
    HL_RHI_FORMAT_RG8_UNORM,
    HL_RHI_FORMAT_RGBA8_UNORM,
    HL_RHI_FORMAT_RGBA8_UNORM_SRGB,
    HL_RHI_FORMAT_BGRA8_UNORM,
    HL_RHI_FORMAT_R16_FLOAT,
    HL_RHI_FORMAT_RG16_FLOAT,
    HL_RHI_FORMAT_RGBA16_FLOAT,
    HL_RHI_FORMAT_R32_FLOAT,
    HL_RHI_FORMAT_RG32_FLOAT,
    HL_RHI_FORMAT_RGBA32_FLOAT,
    HL_RHI_FORMAT_R32_UINT,
    HL_RHI_FORMAT_RGBA8_UINT,
    HL_RHI_FORMAT_RGB10A2_UNORM,
    HL_RHI_FORMAT_DEPTH16_UNORM,
    HL_RHI_FORMAT_DEPTH24_PLUS,
    HL_RHI_FORMAT_DEPTH24_PLUS_STENCIL8,
    HL_RHI_FORMAT_DEPTH32_FLOAT,
    HL_RHI_FORMAT_COUNT
} hl_rhi_format;

typedef struct hl_rhi_format_info {
    const char *name;      /* "rgba8unorm" (WebGPU spelling) */
    uint32_t bytes_per_texel; /* 0 for depth formats that cannot be copied (depth24plus*) */
    bool is_depth;
    bool has_stencil;
    bool is_integer;
    bool is_srgb;
} hl_rhi_format_info;

const hl_rhi_format_info *hl_rhi_format_get_info(hl_rhi_format f); /* NULL if out of range */

enum {
    HL_RHI_BUFFER_USAGE_VERTEX = 1u << 0,
    HL_RHI_BUFFER_USAGE_INDEX = 1u << 1,
    HL_RHI_BUFFER_USAGE_UNIFORM = 1u << 2,
    HL_RHI_BUFFER_USAGE_STORAGE = 1u << 3,
    HL_RHI_BUFFER_USAGE_INDIRECT = 1u << 4,
    HL_RHI_BUFFER_USAGE_COPY_SRC = 1u << 5,
    HL_RHI_BUFFER_USAGE_COPY_DST = 1u << 6,
    HL_RHI_BUFFER_USAGE_MAP_READ = 1u << 7, /* readable through hl_rhi_buffer_read */
};

enum {
    HL_RHI_TEXTURE_USAGE_COPY_SRC = 1u << 0,
    HL_RHI_TEXTURE_USAGE_COPY_DST = 1u << 1,
    HL_RHI_TEXTURE_USAGE_SAMPLED = 1u << 2,
    HL_RHI_TEXTURE_USAGE_STORAGE = 1u << 3,
    HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT = 1u << 4,
};

typedef enum hl_rhi_texture_dimension {
    HL_RHI_TEXTURE_2D = 0, /* default */
    HL_RHI_TEXTURE_1D,
    HL_RHI_TEXTURE_3D,
    HL_RHI_TEXTURE_2D_ARRAY, /* 2D texture with depth_or_layers layers viewed as an array */
    HL_RHI_TEXTURE_CUBE,     /* 2D texture with 6 layers viewed as a cube */
} hl_rhi_texture_dimension;

typedef enum hl_rhi_filter { HL_RHI_FILTER_NEAREST = 0, HL_RHI_FILTER_LINEAR } hl_rhi_filter;

typedef enum hl_rhi_address_mode {
    HL_RHI_ADDRESS_CLAMP_TO_EDGE = 0,
    HL_RHI_ADDRESS_REPEAT,
    HL_RHI_ADDRESS_MIRROR_REPEAT,
} hl_rhi_address_mode;

typedef enum hl_rhi_compare {
    HL_RHI_COMPARE_UNDEFINED = 0, /* default: for depth state means LESS, for samplers "none" */
    HL_RHI_COMPARE_NEVER,
    HL_RHI_COMPARE_LESS,
    HL_RHI_COMPARE_EQUAL,
    HL_RHI_COMPARE_LESS_EQUAL,
    HL_RHI_COMPARE_GREATER,
    HL_RHI_COMPARE_NOT_EQUAL,
    HL_RHI_COMPARE_GREATER_EQUAL,
    HL_RHI_COMPARE_ALWAYS,
} hl_rhi_compare;

enum { HL_RHI_STAGE_VERTEX = 1u << 0, HL_RHI_STAGE_FRAGMENT = 1u << 1, HL_RHI_STAGE_COMPUTE = 1u << 2 };

typedef enum hl_rhi_shader_stage {
    HL_RHI_SHADER_VERTEX = 0,
    HL_RHI_SHADER_FRAGMENT,
    HL_RHI_SHADER_COMPUTE,
} hl_rhi_shader_stage;

/* ---- features, limits, capabilities ------------------------------------------------------ */
enum {
    HL_RHI_FEATURE_COMPUTE = 1u << 0,
    HL_RHI_FEATURE_STORAGE_BUFFER = 1u << 1,
    HL_RHI_FEATURE_STORAGE_TEXTURE = 1u << 2,
    HL_RHI_FEATURE_INDIRECT_DRAW = 1u << 3,
    HL_RHI_FEATURE_TEXTURE_1D = 1u << 4,
    HL_RHI_FEATURE_BASE_VERTEX = 1u << 5,    /* draw_indexed with base_vertex != 0 */
    HL_RHI_FEATURE_FIRST_INSTANCE = 1u << 6, /* draws with first_instance != 0 */
    HL_RHI_FEATURE_BUFFER_MAP_ASYNC = 1u << 7,
    HL_RHI_FEATURE_FLOAT32_FILTERABLE = 1u << 8,
    /* the GPU time of each frame is measured (hl_rhi_device_desc.gpu_timing, webgpu where the
       adapter has timestamp queries; a device created without gpu_timing lacks it) */
    HL_RHI_FEATURE_TIMESTAMP_QUERY = 1u << 9,
};

const char *hl_rhi_feature_name(uint32_t single_feature_bit); /* "compute", ... */

typedef struct hl_rhi_limits {
    uint32_t max_texture_dimension_2d;
    uint32_t max_texture_array_layers;
    uint32_t max_bind_groups;
    uint32_t max_bindings_per_group;
    uint32_t max_uniform_buffers_per_stage;
    uint32_t max_sampled_textures_per_stage;
    uint32_t max_samplers_per_stage;
    uint32_t max_storage_buffers_per_stage; /* 0 where storage is absent */
    uint32_t max_uniform_buffer_binding_size;
    uint32_t max_storage_buffer_binding_size;
    uint32_t min_uniform_buffer_offset_alignment;
    uint32_t min_storage_buffer_offset_alignment;
    uint32_t max_vertex_buffers;
    uint32_t max_vertex_attributes;
    uint32_t max_vertex_buffer_array_stride;
    uint32_t max_color_attachments;
    uint32_t max_compute_workgroup_size_x; /* compute limits are 0 where compute is absent */
    uint32_t max_compute_workgroup_size_y;
    uint32_t max_compute_workgroup_size_z;
    uint32_t max_compute_invocations_per_workgroup;
    uint32_t max_compute_workgroups_per_dimension;
} hl_rhi_limits;

enum {
    HL_RHI_FORMAT_CAP_SAMPLED = 1u << 0,
    HL_RHI_FORMAT_CAP_FILTERABLE = 1u << 1,
    HL_RHI_FORMAT_CAP_RENDERABLE = 1u << 2,
    HL_RHI_FORMAT_CAP_BLENDABLE = 1u << 3,
    HL_RHI_FORMAT_CAP_STORAGE = 1u << 4,
    HL_RHI_FORMAT_CAP_RESOLVE = 1u << 5,
};

typedef struct hl_rhi_format_caps {
    uint32_t flags;        /* HL_RHI_FORMAT_CAP_* */
    uint32_t sample_counts; /* bit n set: sample count (1 << n) supported; bit 0 = 1x */
} hl_rhi_format_caps;

/* Immutable snapshot taken at device creation. Truthful and conservative. */
typedef struct hl_rhi_caps {
    hl_rhi_backend backend;
    uint32_t features; /* HL_RHI_FEATURE_* */
    hl_rhi_limits limits;
    hl_rhi_format_caps formats[HL_RHI_FORMAT_COUNT];
    char adapter_name[128]; /* e.g. "llvmpipe (LLVM 19.1.7, 256 bits)" */
    char driver_info[128];  /* backend-specific: Vulkan/GL version string */
    bool clip_depth_negative_one; /* clip-space z spans [-1, 1] (GL) instead of [0, 1] (WebGPU):
                                     projections for this device need hl_mat4_clip_zo_to_no */
    bool independent_blend; /* colour targets of one pipeline may differ in blend state and write
                               mask (WebGPU). Without it (OpenGL ES 3.0) they must agree, except
                               that any target may be write_none; a pipeline that breaks this is
                               refused with HL_ERR_UNSUPPORTED, never drawn differently */
} hl_rhi_caps;

/* ---- device ------------------------------------------------------------------------------- */
typedef enum hl_rhi_power_preference {
    HL_RHI_POWER_DEFAULT = 0,
    HL_RHI_POWER_LOW,
    HL_RHI_POWER_HIGH,
} hl_rhi_power_preference;

typedef struct hl_rhi_requirements {
    uint32_t features; /* HL_RHI_FEATURE_* the device must have */
    hl_rhi_power_preference power_preference;
    bool allow_fallback_adapter; /* webgpu: accept a software/fallback adapter (default false
                                    means hardware is preferred, software still accepted if it
                                    is the only adapter; see hl_rhi_probe) */
} hl_rhi_requirements;

/* Counters kept by every device; reset with hl_rhi_reset_stats. */
typedef struct hl_rhi_stats {
    uint64_t native_calls;            /* calls into Dawn/GL made by the backend */
    uint64_t commands;                /* hl_rhi_cmd_* calls accepted into a frame */
    uint64_t objects_created;         /* buffers, textures, samplers, layouts, pipelines, groups
                                         created (device cache hits not counted) */
    uint64_t draws;
    uint64_t dispatches;
    uint64_t pipeline_switches;       /* set_pipeline that changed the bound pipeline */
    uint64_t bind_group_switches;
    uint64_t vertex_buffer_switches;
    uint64_t redundant_state_skipped; /* set_* calls dropped by the command-state cache */
    uint64_t cache_hits;              /* device caches: sampler, bgl, pipeline layout, pipeline */
    uint64_t cache_misses;
    uint64_t transient_allocations;   /* objects_created while a frame was open */
    uint64_t frames;
    uint64_t submissions_completed;
    /* With HL_RHI_FEATURE_TIMESTAMP_QUERY: the GPU time (ns, from the frame's first command to
     * the end of its last) of the latest completed frame whose timestamps were read (polls
     * read them; after hl_rhi_device_wait_idle, the last submitted frame) and its serial; 0
     * before any */
    uint64_t gpu_frame_ns, gpu_frame_serial;
} hl_rhi_stats;

/* Wait timeouts in milliseconds: 0 = HL_RHI_WAIT_TIMEOUT_DEFAULT_MS, HL_RHI_WAIT_FOREVER =
 * no limit (a GPU that never finishes then blocks the caller for ever). */
#define HL_RHI_WAIT_TIMEOUT_DEFAULT_MS 10000u
#define HL_RHI_WAIT_FOREVER UINT32_MAX

typedef struct hl_rhi_device_desc {
    hl_rhi_backend backend;            /* default AUTO */
    hl_rhi_requirements requirements;
    const char *dawn_library_path;     /* default: $HL_DAWN_LIBRARY, else the bootstrap location */
    uint32_t cache_capacity;           /* per device cache; default 256 entries */
    const char *label;
    uint32_t wait_timeout_ms;          /* every implicit wait (see "Waits" above); 0 = 10 s,
                                          HL_RHI_WAIT_FOREVER = no limit */
    bool gpu_timing;                   /* time every frame on the GPU where the backend can
                                          (HL_RHI_FEATURE_TIMESTAMP_QUERY in the caps then);
                                          elsewhere ignored */
} hl_rhi_device_desc;

/* Answers "is backend b usable with these requirements" without creating a device (webgpu:
 * adapter request only; gles3: EGL display + config only). HL_OK if usable; otherwise the
 * reason (HL_ERR_UNSUPPORTED, ...) with a message. adapter_name may be NULL; when given it
 * receives the adapter / renderer name. AUTO answers for the backend auto would pick. */
hl_result hl_rhi_probe(hl_rhi_backend b, const hl_rhi_requirements *req, char *adapter_name,
                       size_t adapter_name_size);

/* The calling thread becomes the device's owner. */
hl_result hl_rhi_device_create(const hl_rhi_device_desc *desc, hl_rhi_device **out);
/* Waits for outstanding submissions (at most the wait timeout), releases every object and the
 * native device. Call it on the owner, or on any thread once the device is detached; from
 * another thread it does nothing and leaves an HL_ERR_INVALID_STATE message. */
void hl_rhi_device_destroy(hl_rhi_device *dev);
/* Replaces the wait timeout (same rule as hl_rhi_device_desc.wait_timeout_ms). */
hl_result hl_rhi_device_set_wait_timeout(hl_rhi_device *dev, uint32_t timeout_ms);
/* Thread hand-over (see "Threads" above). detach: on the owner, no frame open; the device then
 * has no owner (gles3: its EGL context is released from the calling thread). attach: the
 * calling thread becomes the owner of a detached device (gles3: makes the context current
 * here); HL_OK without effect on the owner itself; HL_ERR_INVALID_STATE while another thread
 * owns it. Neither waits for the GPU. */
hl_result hl_rhi_device_detach(hl_rhi_device *dev);
hl_result hl_rhi_device_attach(hl_rhi_device *dev);
/* HL_OK when the calling thread owns dev, else HL_ERR_INVALID_STATE with the message every
 * RHI call gives, naming `caller` and both threads. For layers above the RHI that must refuse
 * a call before doing work of their own. Costs a thread-local read and a relaxed load. */
hl_result hl_rhi_device_check_thread(const hl_rhi_device *dev, const char *caller);
const hl_rhi_caps *hl_rhi_device_caps(const hl_rhi_device *dev);
hl_rhi_backend hl_rhi_device_backend(const hl_rhi_device *dev);
const hl_rhi_stats *hl_rhi_device_stats(const hl_rhi_device *dev);
void hl_rhi_reset_stats(hl_rhi_device *dev);
/* Drops every cached sampler / layout / pipeline not referenced by a live handle. */
void hl_rhi_device_clear_caches(hl_rhi_device *dev);
/* Native interop: call after issuing native API calls yourself on the device's context
 * (gles3: GL calls on its current EGL context) so the backend forgets the native state it
 * cached and sets everything again before the next command. Not allowed inside a pass
 * (HL_ERR_INVALID_STATE). webgpu keeps no state across passes; the call is then a no-op. */
hl_result hl_rhi_device_invalidate_native_state(hl_rhi_device *dev);

/* ---- device loss ----------------------------------------------------------------------------
 * A device is lost when the driver or the GPU takes it away (webgpu: Dawn's device-lost
 * callback, delivered during any wait or poll; gles3: a context reset reported by
 * glGetGraphicsResetStatus where the context was created with reset notification, or an EGL
 * context that is no longer valid). From then on every call that needs the device returns
 * HL_ERR_DEVICE_LOST (destroy calls only forget the object) until hl_rhi_device_recreate. */
/* Asks the backend whether the device was lost (gles3 polls the context; webgpu processes
 * Dawn's events). True when lost. Owner thread only (false elsewhere). */
bool hl_rhi_device_check_lost(hl_rhi_device *dev);
/* The lost flag alone (no native call): what the device has noticed so far. */
bool hl_rhi_device_is_lost(const hl_rhi_device *dev);
/* Takes the device away through the native API, as a real loss would: webgpu destroys the
 * Dawn device (its lost callback fires, reason "destroyed"); gles3 destroys the EGL context and
 * its surface. The loss is then detected by the same path as a real one (the device is lost
 * when this returns HL_OK). Inside a frame the frame then fails at its end (nothing submitted). */
hl_result hl_rhi_device_simulate_loss(hl_rhi_device *dev);
/* Replaces the native device by a new one of the same backend, made from the same
 * description: every object of the device is released first (every handle made before is
 * stale from then on: it fails as a destroyed one), the caches are emptied, the capabilities
 * are read again from the new device and the generation advances. Works on a lost device
 * and on a live one (after waiting for it). An open frame is aborted. On failure (no device
 * could be made, or it lacks a required feature) the device stays lost and the call may be
 * repeated. Owner thread only. */
hl_result hl_rhi_device_recreate(hl_rhi_device *dev);
/* Why the device was lost (the backend's words), "" while it is not. */
const char *hl_rhi_device_lost_reason(const hl_rhi_device *dev);
/* Objects alive on the device: live handles of every kind plus the native objects of the device
 * caches (what a leak across recoveries would grow). */
uint32_t hl_rhi_device_live_objects(const hl_rhi_device *dev);
/* Starts at 1; advanced by every successful hl_rhi_device_recreate. */
uint64_t hl_rhi_device_generation(const hl_rhi_device *dev);
/* Tests only: fn (NULL = none) edits the capabilities of every device created or recreated
 * after the call (e.g. to make a recovery find a smaller device). Process-wide. */
void hl_rhi_set_test_caps_hook(void (*fn)(hl_rhi_caps *caps));

/* ---- buffers ------------------------------------------------------------------------------ */
typedef struct hl_rhi_buffer_desc {
    uint64_t size;  /* bytes, > 0, multiple of 4 */
    uint32_t usage; /* HL_RHI_BUFFER_USAGE_*, non-zero */
    const void *initial_data; /* optional: size bytes uploaded at creation */
    const char *label;
} hl_rhi_buffer_desc;

hl_result hl_rhi_buffer_create(hl_rhi_device *dev, const hl_rhi_buffer_desc *desc, hl_rhi_buffer *out);
void hl_rhi_buffer_destroy(hl_rhi_device *dev, hl_rhi_buffer buf);
/* Uploads size bytes at offset (both multiples of 4; buffer needs COPY_DST). Outside a frame,
 * or inside one before any pass used the buffer: visible to every later command. */
hl_result hl_rhi_buffer_write(hl_rhi_device *dev, hl_rhi_buffer buf, uint64_t offset,
                              const void *data, uint64_t size);
/* Blocking readback (buffer needs MAP_READ or COPY_SRC); not allowed inside an open frame.
 * Waits for all submitted work first, at most the wait timeout (HL_ERR_TIMEOUT, dst untouched). */
hl_result hl_rhi_buffer_read(hl_rhi_device *dev, hl_rhi_buffer buf, uint64_t offset, void *dst,
                             uint64_t size);

/* ---- textures ----------------------------------------------------------------------------- */
typedef struct hl_rhi_texture_desc {
    hl_rhi_texture_dimension dimension; /* default 2D */
    hl_rhi_format format;               /* required */
    uint32_t width, height;             /* required, height 1 for 1D */
    uint32_t depth_or_layers;           /* default 1 (6 for CUBE) */
    uint32_t mip_levels;                /* default 1 */
    uint32_t sample_count;              /* default 1; 4 for MSAA */
    uint32_t usage;                     /* HL_RHI_TEXTURE_USAGE_*, non-zero */
    const char *label;
} hl_rhi_texture_desc;

hl_result hl_rhi_texture_create(hl_rhi_device *dev, const hl_rhi_texture_desc *desc, hl_rhi_texture *out);
void hl_rhi_texture_destroy(hl_rhi_device *dev, hl_rhi_texture tex);
/* The creation descriptor with defaults applied; NULL for an invalid handle. */
const hl_rhi_texture_desc *hl_rhi_texture_get_desc(hl_rhi_device *dev, hl_rhi_texture tex);

typedef struct hl_rhi_texture_region {
    uint32_t mip_level;
    uint32_t x, y, z_or_layer;
    uint32_t width, height, depth_or_layers; /* 0 = to the end of the mip level */
} hl_rhi_texture_region;

/* Uploads tightly or row_pitch-packed texels (row_pitch 0 = width * texel size). Needs COPY_DST. */
hl_result hl_rhi_texture_write(hl_rhi_device *dev, hl_rhi_texture tex, const hl_rhi_texture_region *region,
                               const void *data, uint32_t row_pitch);
/* Blocking readback into dst with dst_row_pitch (0 = tight); needs COPY_SRC, sample count 1,
 * a copyable format. Not allowed inside an open frame; waits for submitted work, at most the
 * wait timeout (HL_ERR_TIMEOUT, dst untouched). */
hl_result hl_rhi_texture_read(hl_rhi_device *dev, hl_rhi_texture tex, const hl_rhi_texture_region *region,
                              void *dst, uint32_t dst_row_pitch);

typedef struct hl_rhi_texture_view_desc {
    hl_rhi_texture_dimension dimension; /* default: the texture's */
    uint32_t base_mip_level;
    uint32_t mip_level_count; /* 0 = to the last level */
    uint32_t base_layer;
    uint32_t layer_count; /* 0 = to the last layer */
    const char *label;
} hl_rhi_texture_view_desc;

/* desc NULL = the whole texture. Views die with their texture. */
hl_result hl_rhi_texture_view_create(hl_rhi_device *dev, hl_rhi_texture tex,
                                     const hl_rhi_texture_view_desc *desc, hl_rhi_texture_view *out);
void hl_rhi_texture_view_destroy(hl_rhi_device *dev, hl_rhi_texture_view view);

/* ---- samplers (device-cached: equal descriptors return the same native object) ---------- */
typedef struct hl_rhi_sampler_desc {
    hl_rhi_filter mag_filter, min_filter, mipmap_filter; /* default NEAREST */
    hl_rhi_address_mode address_u, address_v, address_w; /* default CLAMP_TO_EDGE */
    float lod_min;  /* default 0 */
    float lod_max;  /* 0 = default 32 */
    hl_rhi_compare compare; /* UNDEFINED = not a comparison sampler */
    uint32_t max_anisotropy; /* default 1 */
    const char *label;
} hl_rhi_sampler_desc;

hl_result hl_rhi_sampler_create(hl_rhi_device *dev, const hl_rhi_sampler_desc *desc, hl_rhi_sampler *out);
void hl_rhi_sampler_destroy(hl_rhi_device *dev, hl_rhi_sampler s);

/* ---- shader modules ----------------------------------------------------------------------
 * The RHI consumes prepared backend artifacts (made by src/shader):
 *  - webgpu: SPIR-V words for raster and compute, or WGSL source for compute;
 *  - gles3:  GLSL ES 3.00 source plus its binding plan (which GLSL block / sampler name maps to
 *            which (group, binding)), applied at pipeline link time.
 * A module for the other backend is HL_ERR_VALIDATION; a compute module on gles3 is
 * HL_ERR_UNSUPPORTED. The RHI is internal (not installed) and hands these artifacts to the
 * driver as they are: the size and preprocessing budget of a GLSL text (HL_SHADER_MAX_* in
 * hl_shader.h) is checked by src/shader when it makes them, before glslang or the driver sees
 * them. Code calling the RHI directly with GLSL of its own runs hl_shader_preprocess first. */
typedef enum hl_rhi_binding_plan_kind {
    HL_RHI_PLAN_UNIFORM_BLOCK = 0, /* name = GLSL uniform block name */
    HL_RHI_PLAN_SAMPLER,           /* name = GLSL sampler uniform; texture + sampler bindings */
} hl_rhi_binding_plan_kind;

typedef struct hl_rhi_binding_plan_entry {
    hl_rhi_binding_plan_kind kind;
    const char *name;
    uint32_t group;
    uint32_t binding;         /* UBO binding, or the texture binding of a sampler */
    uint32_t sampler_binding; /* HL_RHI_PLAN_SAMPLER only: binding of the sampler object */
} hl_rhi_binding_plan_entry;

typedef struct hl_rhi_shader_desc {
    hl_rhi_shader_stage stage;
    const uint32_t *spirv; /* webgpu */
    size_t spirv_word_count;
    const char *wgsl;      /* webgpu compute */
    const char *glsl;      /* gles3: complete GLSL ES 3.00 source */
    const hl_rhi_binding_plan_entry *binding_plan; /* gles3 */
    uint32_t binding_plan_count;
    const char *entry_point; /* default "main" */
    const char *label;
    /* fragment shaders, optional: the colour locations the shader writes (bit i = location i),
       valid when outputs_known. Pipelines are then checked against it on every backend: a
       colour target the shader does not write must be write_none (WebGPU requires it; GL would
       write undefined values) */
    uint32_t output_mask;
    bool outputs_known;
} hl_rhi_shader_desc;

hl_result hl_rhi_shader_create(hl_rhi_device *dev, const hl_rhi_shader_desc *desc, hl_rhi_shader *out);
void hl_rhi_shader_destroy(hl_rhi_device *dev, hl_rhi_shader s);

/* ---- bind group layouts, bind groups, pipeline layouts ---------------------------------- */
typedef enum hl_rhi_binding_type {
    HL_RHI_BINDING_UNIFORM_BUFFER = 0,
    HL_RHI_BINDING_STORAGE_BUFFER,           /* webgpu only */
    HL_RHI_BINDING_READ_ONLY_STORAGE_BUFFER, /* webgpu only */
    HL_RHI_BINDING_SAMPLED_TEXTURE,
    HL_RHI_BINDING_SAMPLER,
    HL_RHI_BINDING_COMPARISON_SAMPLER,
    HL_RHI_BINDING_STORAGE_TEXTURE, /* webgpu only, write-only */
} hl_rhi_binding_type;

typedef enum hl_rhi_texture_sample_type {
    HL_RHI_SAMPLE_FLOAT = 0,
    HL_RHI_SAMPLE_UNFILTERABLE_FLOAT,
    HL_RHI_SAMPLE_DEPTH,
    HL_RHI_SAMPLE_UINT,
    HL_RHI_SAMPLE_SINT,
} hl_rhi_texture_sample_type;

typedef struct hl_rhi_bind_group_layout_entry {
    uint32_t binding;
    uint32_t visibility; /* HL_RHI_STAGE_*, non-zero */
    hl_rhi_binding_type type;
    bool has_dynamic_offset; /* buffers */
    uint64_t min_binding_size; /* buffers; 0 = no minimum */
    hl_rhi_texture_sample_type sample_type;   /* sampled textures */
    hl_rhi_texture_dimension view_dimension;  /* textures; default 2D */
    bool multisampled;                        /* sampled textures */
    hl_rhi_format storage_format;             /* storage textures */
} hl_rhi_bind_group_layout_entry;

#define HL_RHI_MAX_BINDINGS 16
#define HL_RHI_MAX_BIND_GROUPS 4
#define HL_RHI_MAX_VERTEX_BUFFERS 8
#define HL_RHI_MAX_VERTEX_ATTRIBUTES 16
#define HL_RHI_MAX_COLOR_ATTACHMENTS 4

typedef struct hl_rhi_bind_group_layout_desc {
    const hl_rhi_bind_group_layout_entry *entries;
    uint32_t entry_count; /* <= HL_RHI_MAX_BINDINGS, bindings unique */
    const char *label;
} hl_rhi_bind_group_layout_desc;

/* Device-cached: equal descriptors share one native layout (labels are not part of the key). */
hl_result hl_rhi_bind_group_layout_create(hl_rhi_device *dev, const hl_rhi_bind_group_layout_desc *desc,
                                          hl_rhi_bind_group_layout *out);
void hl_rhi_bind_group_layout_destroy(hl_rhi_device *dev, hl_rhi_bind_group_layout l);

typedef struct hl_rhi_bind_group_entry {
    uint32_t binding;
    hl_rhi_buffer buffer;    /* buffer bindings */
    uint64_t offset;
    uint64_t size;           /* 0 = rest of the buffer (must fit the binding limits) */
    hl_rhi_texture_view view; /* texture bindings */
    hl_rhi_sampler sampler;   /* sampler bindings */
} hl_rhi_bind_group_entry;

typedef struct hl_rhi_bind_group_desc {
    hl_rhi_bind_group_layout layout;
    const hl_rhi_bind_group_entry *entries;
    uint32_t entry_count; /* exactly one per layout entry */
    const char *label;
} hl_rhi_bind_group_desc;

hl_result hl_rhi_bind_group_create(hl_rhi_device *dev, const hl_rhi_bind_group_desc *desc, hl_rhi_bind_group *out);
void hl_rhi_bind_group_destroy(hl_rhi_device *dev, hl_rhi_bind_group g);

typedef struct hl_rhi_pipeline_layout_desc {
    const hl_rhi_bind_group_layout *groups; /* group i = groups[i] */
    uint32_t group_count;                   /* <= HL_RHI_MAX_BIND_GROUPS */
    const char *label;
} hl_rhi_pipeline_layout_desc;

hl_result hl_rhi_pipeline_layout_create(hl_rhi_device *dev, const hl_rhi_pipeline_layout_desc *desc,
                                        hl_rhi_pipeline_layout *out);
void hl_rhi_pipeline_layout_destroy(hl_rhi_device *dev, hl_rhi_pipeline_layout l);

/* ---- render pipelines ---------------------------------------------------------------------- */
typedef enum hl_rhi_vertex_format {
    HL_RHI_VERTEX_FORMAT_INVALID = 0,
    HL_RHI_VERTEX_FLOAT32,
    HL_RHI_VERTEX_FLOAT32X2,
    HL_RHI_VERTEX_FLOAT32X3,
    HL_RHI_VERTEX_FLOAT32X4,
    HL_RHI_VERTEX_UNORM8X4,
    HL_RHI_VERTEX_SNORM8X4,
    HL_RHI_VERTEX_UINT8X4,
    HL_RHI_VERTEX_UNORM16X2,
    HL_RHI_VERTEX_UNORM16X4,
    HL_RHI_VERTEX_SNORM16X2,
    HL_RHI_VERTEX_SNORM16X4,
    HL_RHI_VERTEX_UINT16X4,
    HL_RHI_VERTEX_UINT32,
    HL_RHI_VERTEX_FORMAT_COUNT
} hl_rhi_vertex_format;

uint32_t hl_rhi_vertex_format_size(hl_rhi_vertex_format f); /* bytes; 0 for invalid */

typedef struct hl_rhi_vertex_attribute {
    hl_rhi_vertex_format format;
    uint32_t offset;
    uint32_t location; /* shader input location */
} hl_rhi_vertex_attribute;

typedef struct hl_rhi_vertex_buffer_layout {
    uint32_t stride;
    bool per_instance; /* step mode: instance instead of vertex */
    const hl_rhi_vertex_attribute *attributes;
    uint32_t attribute_count;
} hl_rhi_vertex_buffer_layout;

typedef enum hl_rhi_topology {
    HL_RHI_TOPOLOGY_TRIANGLE_LIST = 0,
    HL_RHI_TOPOLOGY_TRIANGLE_STRIP,
    HL_RHI_TOPOLOGY_LINE_LIST,
    HL_RHI_TOPOLOGY_LINE_STRIP,
    HL_RHI_TOPOLOGY_POINT_LIST,
} hl_rhi_topology;

typedef enum hl_rhi_cull_mode { HL_RHI_CULL_NONE = 0, HL_RHI_CULL_FRONT, HL_RHI_CULL_BACK } hl_rhi_cull_mode;
typedef enum hl_rhi_front_face { HL_RHI_FRONT_CCW = 0, HL_RHI_FRONT_CW } hl_rhi_front_face;
typedef enum hl_rhi_index_format { HL_RHI_INDEX_UINT16 = 0, HL_RHI_INDEX_UINT32 } hl_rhi_index_format;

typedef enum hl_rhi_blend_factor {
    HL_RHI_BLEND_DEFAULT = 0, /* ONE for src factors, ZERO for dst factors */
    HL_RHI_BLEND_ZERO,
    HL_RHI_BLEND_ONE,
    HL_RHI_BLEND_SRC,
    HL_RHI_BLEND_ONE_MINUS_SRC,
    HL_RHI_BLEND_SRC_ALPHA,
    HL_RHI_BLEND_ONE_MINUS_SRC_ALPHA,
    HL_RHI_BLEND_DST,
    HL_RHI_BLEND_ONE_MINUS_DST,
    HL_RHI_BLEND_DST_ALPHA,
    HL_RHI_BLEND_ONE_MINUS_DST_ALPHA,
    HL_RHI_BLEND_CONSTANT,
    HL_RHI_BLEND_ONE_MINUS_CONSTANT,
} hl_rhi_blend_factor;

typedef enum hl_rhi_blend_op {
    HL_RHI_BLEND_OP_ADD = 0,
    HL_RHI_BLEND_OP_SUBTRACT,
    HL_RHI_BLEND_OP_REVERSE_SUBTRACT,
    HL_RHI_BLEND_OP_MIN,
    HL_RHI_BLEND_OP_MAX,
} hl_rhi_blend_op;

typedef struct hl_rhi_blend_component {
    hl_rhi_blend_factor src_factor, dst_factor;
    hl_rhi_blend_op op;
} hl_rhi_blend_component;

enum { HL_RHI_COLOR_WRITE_R = 1, HL_RHI_COLOR_WRITE_G = 2, HL_RHI_COLOR_WRITE_B = 4, HL_RHI_COLOR_WRITE_A = 8,
       HL_RHI_COLOR_WRITE_ALL = 15 };

typedef struct hl_rhi_color_target_state {
    hl_rhi_format format;
    bool blend_enabled;
    hl_rhi_blend_component color, alpha;
    uint32_t write_mask; /* HL_RHI_COLOR_WRITE_* bits; 0 = ALL */
    bool write_none;     /* true: write nothing (overrides write_mask) */
} hl_rhi_color_target_state;

typedef enum hl_rhi_stencil_op {
    HL_RHI_STENCIL_KEEP = 0,
    HL_RHI_STENCIL_ZERO,
    HL_RHI_STENCIL_REPLACE,
    HL_RHI_STENCIL_INVERT,
    HL_RHI_STENCIL_INCREMENT_CLAMP,
    HL_RHI_STENCIL_DECREMENT_CLAMP,
    HL_RHI_STENCIL_INCREMENT_WRAP,
    HL_RHI_STENCIL_DECREMENT_WRAP,
} hl_rhi_stencil_op;

typedef struct hl_rhi_stencil_face {
    hl_rhi_compare compare; /* UNDEFINED = ALWAYS */
    hl_rhi_stencil_op fail_op, depth_fail_op, pass_op;
} hl_rhi_stencil_face;

typedef struct hl_rhi_depth_stencil_state {
    hl_rhi_format format; /* UNDEFINED = no depth/stencil attachment */
    bool depth_write;
    hl_rhi_compare depth_compare; /* UNDEFINED = ALWAYS when depth_write is false and LESS otherwise */
    bool stencil_enabled;
    hl_rhi_stencil_face stencil_front, stencil_back;
    uint32_t stencil_read_mask;  /* 0 = 0xff when stencil_enabled */
    uint32_t stencil_write_mask; /* 0 = 0xff when stencil_enabled */
    int32_t depth_bias;
    float depth_bias_slope_scale;
} hl_rhi_depth_stencil_state;

typedef struct hl_rhi_render_pipeline_desc {
    hl_rhi_pipeline_layout layout; /* required */
    hl_rhi_shader vertex;          /* required */
    hl_rhi_shader fragment;        /* optional (depth-only passes) */
    const hl_rhi_vertex_buffer_layout *vertex_buffers;
    uint32_t vertex_buffer_count;
    hl_rhi_topology topology;
    hl_rhi_index_format strip_index_format; /* strips only */
    hl_rhi_cull_mode cull_mode;
    hl_rhi_front_face front_face;
    hl_rhi_depth_stencil_state depth_stencil;
    const hl_rhi_color_target_state *color_targets;
    uint32_t color_target_count;
    uint32_t sample_count; /* default 1 */
    bool alpha_to_coverage;
    const char *label;
} hl_rhi_render_pipeline_desc;

/* Device-cached: an equal descriptor returns a new handle sharing the native pipeline. */
hl_result hl_rhi_render_pipeline_create(hl_rhi_device *dev, const hl_rhi_render_pipeline_desc *desc,
                                        hl_rhi_render_pipeline *out);
void hl_rhi_render_pipeline_destroy(hl_rhi_device *dev, hl_rhi_render_pipeline p);

/* A pipeline-overridable constant of the shader (WGSL `override`), set at pipeline creation. */
typedef struct hl_rhi_constant {
    const char *name;
    double value;
} hl_rhi_constant;

#define HL_RHI_MAX_CONSTANTS 32

typedef struct hl_rhi_compute_pipeline_desc {
    hl_rhi_pipeline_layout layout;
    hl_rhi_shader compute;
    const hl_rhi_constant *constants; /* at most HL_RHI_MAX_CONSTANTS; names checked by the driver */
    uint32_t constant_count;
    const char *label;
} hl_rhi_compute_pipeline_desc;

/* HL_ERR_UNSUPPORTED without HL_RHI_FEATURE_COMPUTE. */
hl_result hl_rhi_compute_pipeline_create(hl_rhi_device *dev, const hl_rhi_compute_pipeline_desc *desc,
                                         hl_rhi_compute_pipeline *out);
void hl_rhi_compute_pipeline_destroy(hl_rhi_device *dev, hl_rhi_compute_pipeline p);

/* ---- frame scope and commands -------------------------------------------------------------- */
hl_result hl_rhi_begin_frame(hl_rhi_device *dev, hl_rhi_cmd **out_cmd);
/* Closes the frame and submits it. An open pass is an error (the frame is aborted). */
hl_result hl_rhi_end_frame(hl_rhi_device *dev, hl_rhi_submission *out);
/* Discards the open frame: nothing of it reaches the GPU on webgpu, except the commands
 * before a render pass of several colour attachments that follows a pipeline without colour
 * targets (the backend submits those early, a lavapipe workaround); gles3 has executed its
 * commands already, but no submission is produced and resources used by it are released as
 * if the frame completed. No-op without an open frame. */
void hl_rhi_abort_frame(hl_rhi_device *dev);
bool hl_rhi_frame_is_open(const hl_rhi_device *dev);

/* done = the submission's GPU work has completed. */
hl_result hl_rhi_submission_poll(hl_rhi_device *dev, hl_rhi_submission s, bool *done);
/* timeout_ns UINT64_MAX = forever; HL_ERR_TIMEOUT when it elapsed (the submission stays
 * queued: wait again later). */
hl_result hl_rhi_submission_wait(hl_rhi_device *dev, hl_rhi_submission s, uint64_t timeout_ns);
/* Waits for every submission, at most the device's wait timeout (HL_ERR_TIMEOUT). */
hl_result hl_rhi_device_wait_idle(hl_rhi_device *dev);

typedef enum hl_rhi_load_op { HL_RHI_LOAD_CLEAR = 0, HL_RHI_LOAD_LOAD, HL_RHI_LOAD_DONT_CARE } hl_rhi_load_op;
typedef enum hl_rhi_store_op { HL_RHI_STORE_STORE = 0, HL_RHI_STORE_DISCARD } hl_rhi_store_op;

typedef struct hl_rhi_color_attachment {
    hl_rhi_texture_view view;           /* texture needs RENDER_ATTACHMENT; one mip, one layer */
    hl_rhi_texture_view resolve_target; /* optional: single-sample view to resolve into */
    hl_rhi_load_op load_op;             /* default CLEAR */
    hl_rhi_store_op store_op;           /* default STORE */
    float clear_color[4];
} hl_rhi_color_attachment;

typedef struct hl_rhi_depth_stencil_attachment {
    hl_rhi_texture_view view; /* id 0 = none */
    hl_rhi_load_op depth_load_op;
    hl_rhi_store_op depth_store_op;
    float depth_clear_value; /* used as given: set 1.0f for the usual clear */
    bool depth_read_only;
    hl_rhi_load_op stencil_load_op;
    hl_rhi_store_op stencil_store_op;
    uint32_t stencil_clear_value;
    bool stencil_read_only;
} hl_rhi_depth_stencil_attachment;

typedef struct hl_rhi_render_pass_desc {
    const hl_rhi_color_attachment *color_attachments;
    uint32_t color_attachment_count;
    hl_rhi_depth_stencil_attachment depth_stencil;
    const char *label;
} hl_rhi_render_pass_desc;

hl_result hl_rhi_cmd_begin_render_pass(hl_rhi_cmd *cmd, const hl_rhi_render_pass_desc *desc);
hl_result hl_rhi_cmd_end_render_pass(hl_rhi_cmd *cmd);
hl_result hl_rhi_cmd_set_pipeline(hl_rhi_cmd *cmd, hl_rhi_render_pipeline p);
hl_result hl_rhi_cmd_set_bind_group(hl_rhi_cmd *cmd, uint32_t index, hl_rhi_bind_group g,
                                    const uint32_t *dynamic_offsets, uint32_t dynamic_offset_count);
hl_result hl_rhi_cmd_set_vertex_buffer(hl_rhi_cmd *cmd, uint32_t slot, hl_rhi_buffer buf, uint64_t offset);
hl_result hl_rhi_cmd_set_index_buffer(hl_rhi_cmd *cmd, hl_rhi_buffer buf, hl_rhi_index_format format,
                                      uint64_t offset);
/* Viewport and scissor default to the full attachment at pass begin. */
hl_result hl_rhi_cmd_set_viewport(hl_rhi_cmd *cmd, float x, float y, float w, float h, float min_depth,
                                  float max_depth);
hl_result hl_rhi_cmd_set_scissor(hl_rhi_cmd *cmd, uint32_t x, uint32_t y, uint32_t w, uint32_t h);
hl_result hl_rhi_cmd_set_blend_constant(hl_rhi_cmd *cmd, const float rgba[4]);
hl_result hl_rhi_cmd_set_stencil_reference(hl_rhi_cmd *cmd, uint32_t ref);
hl_result hl_rhi_cmd_draw(hl_rhi_cmd *cmd, uint32_t vertex_count, uint32_t instance_count,
                          uint32_t first_vertex, uint32_t first_instance);
hl_result hl_rhi_cmd_draw_indexed(hl_rhi_cmd *cmd, uint32_t index_count, uint32_t instance_count,
                                  uint32_t first_index, int32_t base_vertex, uint32_t first_instance);
hl_result hl_rhi_cmd_draw_indirect(hl_rhi_cmd *cmd, hl_rhi_buffer buf, uint64_t offset);
hl_result hl_rhi_cmd_draw_indexed_indirect(hl_rhi_cmd *cmd, hl_rhi_buffer buf, uint64_t offset);

/* A prepared draw: everything one draw needs, bound through the command-state cache.
 * Fields equal to the previous packet's are not re-sent. */
typedef struct hl_rhi_draw_packet {
    hl_rhi_render_pipeline pipeline;
    hl_rhi_bind_group bind_groups[HL_RHI_MAX_BIND_GROUPS];
    uint32_t dynamic_offsets[HL_RHI_MAX_BIND_GROUPS]; /* one dynamic offset per group at most */
    uint8_t bind_group_count;
    uint8_t dynamic_offset_mask;  /* bit g: group g takes dynamic_offsets[g] */
    uint8_t vertex_buffer_count;
    uint8_t indexed;              /* 1 = draw_indexed with index_buffer/index_format */
    hl_rhi_buffer vertex_buffers[HL_RHI_MAX_VERTEX_BUFFERS];
    uint64_t vertex_offsets[HL_RHI_MAX_VERTEX_BUFFERS];
    hl_rhi_buffer index_buffer;
    hl_rhi_index_format index_format;
    uint64_t index_offset;
    uint32_t count;            /* vertices or indices */
    uint32_t instance_count;   /* 0 = 1 */
    uint32_t first;            /* first vertex or first index */
    int32_t base_vertex;
    uint32_t first_instance;
} hl_rhi_draw_packet;

/* Records count packets in order; stops at the first invalid one (its index in *failed_index
 * when given). One call per batch, so per-draw work stays inside the backend loop. */
hl_result hl_rhi_cmd_draw_packets(hl_rhi_cmd *cmd, const hl_rhi_draw_packet *packets, uint32_t count,
                                  uint32_t *failed_index);

/* ---- render bundles -----------------------------------------------------------------------
 * A render bundle is a list of draw packets recorded once for an attachment layout and replayed
 * inside render passes of that layout (WebGPU's GPURenderBundle). Creation validates the packets
 * exactly as hl_rhi_cmd_draw_packets does inside a pass of the bundle's layout that has nothing
 * bound (the first invalid one fails the create with HL_ERR_VALIDATION naming its index); webgpu
 * records them through a render bundle encoder, gles3 and null keep them and draw them at
 * execute through the same draw loop as hl_rhi_cmd_draw_packets: the same draws, the same
 * images, the same contract on every backend.
 *
 * The bundle does not keep what its packets name alive: once any of those objects is destroyed
 * (its pipelines, bind groups, vertex and index buffers, and the buffers, views, textures and
 * samplers its bind groups bind) the bundle is stale and executing it is HL_ERR_VALIDATION
 * naming the object (hl_rhi_render_bundle_is_current asks first; a stale bundle is only fit to be
 * destroyed). Executing a bundle counts as a use of each of them by the open frame (they are
 * released once that frame completed, as for any command). A device loss or recreate makes every
 * bundle stale like every other handle. */
typedef struct hl_rhi_render_bundle_desc {
    hl_rhi_format color_formats[HL_RHI_MAX_COLOR_ATTACHMENTS]; /* the pass's colour attachments, in order */
    uint32_t color_format_count;
    hl_rhi_format depth_format; /* UNDEFINED = no depth attachment */
    uint32_t sample_count;      /* 0 = 1 */
    const hl_rhi_draw_packet *packets; /* copied: the array may go after the call */
    uint32_t packet_count;             /* >= 1 */
    const char *label;
} hl_rhi_render_bundle_desc;

hl_result hl_rhi_render_bundle_create(hl_rhi_device *dev, const hl_rhi_render_bundle_desc *desc,
                                      hl_rhi_render_bundle *out);
void hl_rhi_render_bundle_destroy(hl_rhi_device *dev, hl_rhi_render_bundle b);
/* True while b is alive and every object its packets name is the one it was recorded with and
 * alive (false for a stale or foreign handle). */
bool hl_rhi_render_bundle_is_current(hl_rhi_device *dev, hl_rhi_render_bundle b);
/* The number of packets of b (0 for an invalid handle). */
uint32_t hl_rhi_render_bundle_draw_count(hl_rhi_device *dev, hl_rhi_render_bundle b);
/* Executes count bundles in order inside the open render pass, whose colour formats, depth format
 * and sample count must equal each bundle's, and whose depth/stencil attachment must not be read
 * only. Each bundle starts with nothing bound, and afterwards the pass has no pipeline, bind
 * groups, vertex or index buffers bound (WebGPU's rule); viewport, scissor, blend constant and
 * stencil reference are the pass's, inside the bundles too, and stay. Counted in the device
 * stats as the draws and state changes of the packets. */
hl_result hl_rhi_cmd_execute_bundles(hl_rhi_cmd *cmd, const hl_rhi_render_bundle *bundles, uint32_t count);

hl_result hl_rhi_cmd_begin_compute_pass(hl_rhi_cmd *cmd, const char *label);
hl_result hl_rhi_cmd_end_compute_pass(hl_rhi_cmd *cmd);
hl_result hl_rhi_cmd_set_compute_pipeline(hl_rhi_cmd *cmd, hl_rhi_compute_pipeline p);
hl_result hl_rhi_cmd_dispatch(hl_rhi_cmd *cmd, uint32_t x, uint32_t y, uint32_t z);
hl_result hl_rhi_cmd_dispatch_indirect(hl_rhi_cmd *cmd, hl_rhi_buffer buf, uint64_t offset);

/* Copies and clears: outside passes. */
hl_result hl_rhi_cmd_copy_buffer_to_buffer(hl_rhi_cmd *cmd, hl_rhi_buffer src, uint64_t src_offset,
                                           hl_rhi_buffer dst, uint64_t dst_offset, uint64_t size);
hl_result hl_rhi_cmd_copy_texture_to_texture(hl_rhi_cmd *cmd, hl_rhi_texture src,
                                             const hl_rhi_texture_region *src_region, hl_rhi_texture dst,
                                             uint32_t dst_mip_level, uint32_t dst_x, uint32_t dst_y,
                                             uint32_t dst_z_or_layer);
/* Buffer layout: rows of bytes_per_row (multiple of 256 on every backend, the portable rule). */
hl_result hl_rhi_cmd_copy_buffer_to_texture(hl_rhi_cmd *cmd, hl_rhi_buffer src, uint64_t src_offset,
                                            uint32_t bytes_per_row, hl_rhi_texture dst,
                                            const hl_rhi_texture_region *dst_region);
hl_result hl_rhi_cmd_copy_texture_to_buffer(hl_rhi_cmd *cmd, hl_rhi_texture src,
                                            const hl_rhi_texture_region *src_region, hl_rhi_buffer dst,
                                            uint64_t dst_offset, uint32_t bytes_per_row);
/* Zero-fills size bytes (0 = to the end); needs COPY_DST. */
hl_result hl_rhi_cmd_clear_buffer(hl_rhi_cmd *cmd, hl_rhi_buffer buf, uint64_t offset, uint64_t size);
/* Fills mip levels 1.. of a single-layer 2D colour texture from level 0: each texel one bilinear
 * sample of the level above at its centre (the 2x2 average for even sides), by the same shader
 * on both backends. Needs SAMPLED and RENDER_ATTACHMENT usage and a filterable, renderable
 * format. */
hl_result hl_rhi_cmd_generate_mipmaps(hl_rhi_cmd *cmd, hl_rhi_texture tex);

#ifdef __cplusplus
}
#endif

#endif
