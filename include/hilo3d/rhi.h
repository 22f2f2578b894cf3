/** @file
 * hilo3d RHI: the WebGPU-shaped portable render hardware interface.
 *
 * The layer every renderer call ends in, public for programs that draw with it directly (see
 * examples/hello-triangle: a device, buffers, shaders, a pipeline, one render pass, a read
 * back). It knows no scene, material or render graph; the renderer (renderer.h) is the usual
 * way in. A device is one backend, chosen once at creation: webgpu (Dawn's webgpu.h, loaded at
 * run time) or gles3 (OpenGL ES 3.0 over headless EGL); null creates objects and validates
 * calls without a GPU.
 *
 * Objects: device (opaque pointer) owning buffers, textures, texture views, samplers, shader
 * modules, bind group layouts, bind groups, pipeline layouts, render and compute pipelines.
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
 * Coordinates, the same on every backend: clip-space +y is up and lands in the top rows of the
 * image; viewport, scissor and read-back rows count from the top left; front faces are
 * counter-clockwise as seen in the image. Clip-space depth is [0, 1] on webgpu and [-1, 1] on
 * gles3 (hl_rhi_caps.clip_depth_negative_one).
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
#ifndef HILO3D_RHI_H
#define HILO3D_RHI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hilo3d/export.h"
#include "hilo3d/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- handles ----------------------------------------------------------------------------
 * Values, not pointers: copy them freely. id 0 is "none"; a handle stays valid until its
 * destroy call (or the device's destruction or recreation) and is refused afterwards. Each is
 * {uint32_t id}: low 20 bits pool index + 1, 8 bits generation, 4 bits device tag. */
/** A GPU buffer (hl_rhi_buffer_create). */
typedef struct hl_rhi_buffer { uint32_t id; /**< 0 = none */ } hl_rhi_buffer;
/** A texture (hl_rhi_texture_create). */
typedef struct hl_rhi_texture { uint32_t id; /**< 0 = none */ } hl_rhi_texture;
/** A view of some mips and layers of a texture (hl_rhi_texture_view_create). */
typedef struct hl_rhi_texture_view { uint32_t id; /**< 0 = none */ } hl_rhi_texture_view;
/** A sampler (hl_rhi_sampler_create; device-cached). */
typedef struct hl_rhi_sampler { uint32_t id; /**< 0 = none */ } hl_rhi_sampler;
/** A shader module of one stage (hl_rhi_shader_create). */
typedef struct hl_rhi_shader { uint32_t id; /**< 0 = none */ } hl_rhi_shader;
/** The shape of a bind group (hl_rhi_bind_group_layout_create; device-cached). */
typedef struct hl_rhi_bind_group_layout { uint32_t id; /**< 0 = none */ } hl_rhi_bind_group_layout;
/** Resources bound together at one group index (hl_rhi_bind_group_create). */
typedef struct hl_rhi_bind_group { uint32_t id; /**< 0 = none */ } hl_rhi_bind_group;
/** The bind group layouts of a pipeline (hl_rhi_pipeline_layout_create; device-cached). */
typedef struct hl_rhi_pipeline_layout { uint32_t id; /**< 0 = none */ } hl_rhi_pipeline_layout;
/** Shaders, vertex layout and fixed-function state (hl_rhi_render_pipeline_create). */
typedef struct hl_rhi_render_pipeline { uint32_t id; /**< 0 = none */ } hl_rhi_render_pipeline;
/** A compute module and its constants (hl_rhi_compute_pipeline_create). */
typedef struct hl_rhi_compute_pipeline { uint32_t id; /**< 0 = none */ } hl_rhi_compute_pipeline;
/** A window's presentation surface (hl_rhi_surface_create). */
typedef struct hl_rhi_surface { uint32_t id; /**< 0 = none */ } hl_rhi_surface;
/** Draw packets recorded once for an attachment layout and replayed in passes of it
 * (hl_rhi_render_bundle_create). */
typedef struct hl_rhi_render_bundle { uint32_t id; /**< 0 = none */ } hl_rhi_render_bundle;

/** A device: one backend's native device or context and every object made from it (opaque;
 * hl_rhi_device_create / hl_rhi_device_destroy). */
typedef struct hl_rhi_device hl_rhi_device;
/** The command context of the open frame (opaque): valid from hl_rhi_begin_frame until
 * hl_rhi_end_frame / hl_rhi_abort_frame; owned by the device. */
typedef struct hl_rhi_cmd hl_rhi_cmd;

/** A submitted frame. serial 0 means "none". */
typedef struct hl_rhi_submission { uint64_t serial; /**< increasing per device; 0 = none */ } hl_rhi_submission;

/* ---- enums -------------------------------------------------------------------------------- */
/** Which native API a device uses. */
typedef enum hl_rhi_backend {
    HL_RHI_BACKEND_AUTO = 0, /**< webgpu if an adapter satisfies the requirements, else gles3 */
    HL_RHI_BACKEND_WEBGPU,   /**< WebGPU through Dawn's webgpu.h, loaded at run time */
    HL_RHI_BACKEND_GLES3,    /**< OpenGL ES 3.0 over headless EGL */
    HL_RHI_BACKEND_NULL, /**< no GPU: objects and validation only, for logic tests */
    HL_RHI_BACKEND_COUNT     /**< the number of values */
} hl_rhi_backend;

/** "auto", "webgpu", "gles3", "null"; "unknown" for a value outside the enum. Static strings. */
HL_API const char *hl_rhi_backend_name(hl_rhi_backend b);
/** Parses a name as above; HL_ERR_VALIDATION for anything else. */
HL_API hl_result hl_rhi_backend_parse(const char *name, hl_rhi_backend *out);

/** Texture formats (WebGPU's names; the capability snapshot says what each device can do with
 * each: hl_rhi_caps.formats). */
typedef enum hl_rhi_format {
    HL_RHI_FORMAT_UNDEFINED = 0, /**< no format (the default where a format is optional) */
    HL_RHI_FORMAT_R8_UNORM, /**< one 8-bit channel, [0, 1] */
    HL_RHI_FORMAT_RG8_UNORM, /**< two 8-bit channels */
    HL_RHI_FORMAT_RGBA8_UNORM, /**< four 8-bit channels, linear */
    HL_RHI_FORMAT_RGBA8_UNORM_SRGB, /**< four 8-bit channels, sRGB-encoded */
    HL_RHI_FORMAT_BGRA8_UNORM, /**< four 8-bit channels in BGRA order */
    HL_RHI_FORMAT_R16_FLOAT, /**< one half float */
    HL_RHI_FORMAT_RG16_FLOAT, /**< two half floats */
    HL_RHI_FORMAT_RGBA16_FLOAT, /**< four half floats (HDR) */
    HL_RHI_FORMAT_R32_FLOAT, /**< one float */
    HL_RHI_FORMAT_RG32_FLOAT, /**< two floats */
    HL_RHI_FORMAT_RGBA32_FLOAT, /**< four floats */
    HL_RHI_FORMAT_R32_UINT, /**< one 32-bit unsigned integer */
    HL_RHI_FORMAT_RGBA8_UINT, /**< four 8-bit unsigned integers */
    HL_RHI_FORMAT_RGB10A2_UNORM, /**< 10-bit RGB and 2-bit alpha */
    HL_RHI_FORMAT_DEPTH16_UNORM, /**< 16-bit depth */
    HL_RHI_FORMAT_DEPTH24_PLUS, /**< depth of at least 24 bits (not copyable) */
    HL_RHI_FORMAT_DEPTH24_PLUS_STENCIL8, /**< depth of at least 24 bits with 8-bit stencil (not copyable) */
    HL_RHI_FORMAT_DEPTH32_FLOAT, /**< 32-bit float depth */
    HL_RHI_FORMAT_COUNT /**< the number of formats */
} hl_rhi_format;

/** Static facts about a format (hl_rhi_format_get_info). */
typedef struct hl_rhi_format_info {
    const char *name;      /**< "rgba8unorm" (WebGPU spelling) */
    uint32_t bytes_per_texel; /**< 0 for depth formats that cannot be copied (depth24plus*) */
    bool is_depth;    /**< a depth (or depth-stencil) format */
    bool has_stencil; /**< has a stencil aspect */
    bool is_integer;  /**< read as integers (not filterable) */
    bool is_srgb;     /**< sRGB-encoded colour */
} hl_rhi_format_info;

/** The format's facts (a static table entry); NULL for a value out of range. */
HL_API const hl_rhi_format_info *hl_rhi_format_get_info(hl_rhi_format f);

/** Buffer usages (hl_rhi_buffer_desc.usage, bit flags): what a buffer may be used for. */
enum {
    HL_RHI_BUFFER_USAGE_VERTEX = 1u << 0, /**< vertex buffer of draws */
    HL_RHI_BUFFER_USAGE_INDEX = 1u << 1, /**< index buffer of indexed draws */
    HL_RHI_BUFFER_USAGE_UNIFORM = 1u << 2, /**< uniform buffer binding */
    HL_RHI_BUFFER_USAGE_STORAGE = 1u << 3, /**< storage buffer binding (webgpu) */
    HL_RHI_BUFFER_USAGE_INDIRECT = 1u << 4, /**< indirect draw or dispatch arguments */
    HL_RHI_BUFFER_USAGE_COPY_SRC = 1u << 5, /**< source of copies and reads */
    HL_RHI_BUFFER_USAGE_COPY_DST = 1u << 6, /**< destination of copies, writes and clears */
    HL_RHI_BUFFER_USAGE_MAP_READ = 1u << 7, /**< readable through hl_rhi_buffer_read */
};

/** Texture usages (hl_rhi_texture_desc.usage, bit flags). */
enum {
    HL_RHI_TEXTURE_USAGE_COPY_SRC = 1u << 0, /**< source of copies and reads */
    HL_RHI_TEXTURE_USAGE_COPY_DST = 1u << 1, /**< destination of copies and writes */
    HL_RHI_TEXTURE_USAGE_SAMPLED = 1u << 2, /**< sampled in shaders */
    HL_RHI_TEXTURE_USAGE_STORAGE = 1u << 3, /**< storage texture binding (webgpu) */
    HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT = 1u << 4, /**< colour or depth attachment of render passes */
};

/** Texture (and view) dimensions. */
typedef enum hl_rhi_texture_dimension {
    HL_RHI_TEXTURE_2D = 0, /**< default */
    HL_RHI_TEXTURE_1D,       /**< 1D (HL_RHI_FEATURE_TEXTURE_1D) */
    HL_RHI_TEXTURE_3D,       /**< 3D: depth_or_layers is the depth */
    HL_RHI_TEXTURE_2D_ARRAY, /**< 2D texture with depth_or_layers layers viewed as an array */
    HL_RHI_TEXTURE_CUBE,     /**< 2D texture with 6 layers viewed as a cube */
} hl_rhi_texture_dimension;

/** Sampler filters. */
typedef enum hl_rhi_filter {
    HL_RHI_FILTER_NEAREST = 0, /**< the nearest texel (the default) */
    HL_RHI_FILTER_LINEAR       /**< a weighted mean of the nearest texels */
} hl_rhi_filter;

/** Sampler address modes (outside [0, 1]). */
typedef enum hl_rhi_address_mode {
    HL_RHI_ADDRESS_CLAMP_TO_EDGE = 0, /**< the edge texels extend (the default) */
    HL_RHI_ADDRESS_REPEAT,            /**< the texture tiles */
    HL_RHI_ADDRESS_MIRROR_REPEAT,     /**< the texture tiles, every other copy mirrored */
} hl_rhi_address_mode;

/** Comparison functions (depth test, stencil test, comparison samplers). */
typedef enum hl_rhi_compare {
    HL_RHI_COMPARE_UNDEFINED = 0, /**< default: for depth state means LESS, for samplers "none" */
    HL_RHI_COMPARE_NEVER,         /**< never passes */
    HL_RHI_COMPARE_LESS,          /**< new < stored */
    HL_RHI_COMPARE_EQUAL,         /**< new == stored */
    HL_RHI_COMPARE_LESS_EQUAL,    /**< new <= stored */
    HL_RHI_COMPARE_GREATER,       /**< new > stored */
    HL_RHI_COMPARE_NOT_EQUAL,     /**< new != stored */
    HL_RHI_COMPARE_GREATER_EQUAL, /**< new >= stored */
    HL_RHI_COMPARE_ALWAYS,        /**< always passes */
} hl_rhi_compare;

/** Shader stage bits (hl_rhi_bind_group_layout_entry.visibility). */
enum {
    HL_RHI_STAGE_VERTEX = 1u << 0,   /**< the vertex stage */
    HL_RHI_STAGE_FRAGMENT = 1u << 1, /**< the fragment stage */
    HL_RHI_STAGE_COMPUTE = 1u << 2   /**< the compute stage */
};

/** The stage of one shader module (hl_rhi_shader_desc.stage). */
typedef enum hl_rhi_shader_stage {
    HL_RHI_SHADER_VERTEX = 0, /**< a vertex shader */
    HL_RHI_SHADER_FRAGMENT,   /**< a fragment shader */
    HL_RHI_SHADER_COMPUTE,    /**< a compute shader (HL_RHI_FEATURE_COMPUTE) */
} hl_rhi_shader_stage;

/* ---- features, limits, capabilities ------------------------------------------------------ */
/** Optional features (hl_rhi_caps.features, hl_rhi_requirements.features; bit flags). */
enum {
    HL_RHI_FEATURE_COMPUTE = 1u << 0, /**< compute pipelines and passes (webgpu) */
    HL_RHI_FEATURE_STORAGE_BUFFER = 1u << 1, /**< storage buffer bindings */
    HL_RHI_FEATURE_STORAGE_TEXTURE = 1u << 2, /**< write-only storage texture bindings */
    HL_RHI_FEATURE_INDIRECT_DRAW = 1u << 3, /**< indirect draws and dispatches */
    HL_RHI_FEATURE_TEXTURE_1D = 1u << 4, /**< textures of HL_RHI_TEXTURE_1D */
    HL_RHI_FEATURE_BASE_VERTEX = 1u << 5,    /**< draw_indexed with base_vertex != 0 */
    HL_RHI_FEATURE_FIRST_INSTANCE = 1u << 6, /**< draws with first_instance != 0 */
    HL_RHI_FEATURE_BUFFER_MAP_ASYNC = 1u << 7, /**< asynchronous buffer mapping */
    HL_RHI_FEATURE_FLOAT32_FILTERABLE = 1u << 8, /**< linear filtering of 32-bit float textures */
    /** the GPU time of each frame is measured (hl_rhi_device_desc.gpu_timing, webgpu where the
       adapter has timestamp queries; a device created without gpu_timing lacks it) */
    HL_RHI_FEATURE_TIMESTAMP_QUERY = 1u << 9,
};

/** "compute", "storage-buffer", ... for one HL_RHI_FEATURE_* bit; "unknown" otherwise (static strings). */
HL_API const char *hl_rhi_feature_name(uint32_t single_feature_bit);

/** The device's limits (WebGPU's names, in the units WebGPU uses: texels, bindings, bytes). */
typedef struct hl_rhi_limits {
    uint32_t max_texture_dimension_2d; /**< largest width or height of a 2D texture */
    uint32_t max_texture_array_layers; /**< layers of an array texture */
    uint32_t max_bind_groups; /**< bind groups of a pipeline layout */
    uint32_t max_bindings_per_group; /**< bindings of one bind group layout */
    uint32_t max_uniform_buffers_per_stage; /**< uniform buffer bindings one stage sees */
    uint32_t max_sampled_textures_per_stage; /**< sampled textures one stage sees */
    uint32_t max_samplers_per_stage; /**< samplers one stage sees */
    uint32_t max_storage_buffers_per_stage; /**< 0 where storage is absent */
    uint32_t max_uniform_buffer_binding_size; /**< bytes of one uniform buffer binding */
    uint32_t max_storage_buffer_binding_size; /**< bytes of one storage buffer binding (0 without storage) */
    uint32_t min_uniform_buffer_offset_alignment; /**< alignment of uniform binding and dynamic offsets */
    uint32_t min_storage_buffer_offset_alignment; /**< alignment of storage binding offsets */
    uint32_t max_vertex_buffers; /**< vertex buffer slots of a pipeline */
    uint32_t max_vertex_attributes; /**< vertex attributes of a pipeline */
    uint32_t max_vertex_buffer_array_stride; /**< largest vertex buffer stride */
    uint32_t max_color_attachments; /**< colour attachments of a render pass */
    uint32_t max_compute_workgroup_size_x; /**< workgroup size along x (compute limits are 0 where compute is absent) */
    uint32_t max_compute_workgroup_size_y; /**< workgroup size along y */
    uint32_t max_compute_workgroup_size_z; /**< workgroup size along z */
    uint32_t max_compute_invocations_per_workgroup; /**< x * y * z of a workgroup */
    uint32_t max_compute_workgroups_per_dimension; /**< workgroups of a dispatch along each axis */
} hl_rhi_limits;

/** What a device can do with a format (hl_rhi_format_caps.flags, bit flags). */
enum {
    HL_RHI_FORMAT_CAP_SAMPLED = 1u << 0, /**< sampled in shaders */
    HL_RHI_FORMAT_CAP_FILTERABLE = 1u << 1, /**< read through linear filtering */
    HL_RHI_FORMAT_CAP_RENDERABLE = 1u << 2, /**< a render attachment */
    HL_RHI_FORMAT_CAP_BLENDABLE = 1u << 3, /**< blended into as a colour attachment */
    HL_RHI_FORMAT_CAP_STORAGE = 1u << 4, /**< a storage texture */
    HL_RHI_FORMAT_CAP_RESOLVE = 1u << 5, /**< a resolve target of multisampled passes */
};

/** One format's capabilities on a device. */
typedef struct hl_rhi_format_caps {
    uint32_t flags;        /**< HL_RHI_FORMAT_CAP_* */
    uint32_t sample_counts; /**< bit n set: sample count (1 << n) supported; bit 0 = 1x */
} hl_rhi_format_caps;

/** Immutable snapshot taken at device creation. Truthful and conservative. */
typedef struct hl_rhi_caps {
    hl_rhi_backend backend; /**< the backend the device uses (never AUTO) */
    uint32_t features; /**< HL_RHI_FEATURE_* */
    hl_rhi_limits limits;   /**< the device's limits */
    hl_rhi_format_caps formats[HL_RHI_FORMAT_COUNT]; /**< per hl_rhi_format */
    char adapter_name[128]; /**< e.g. "llvmpipe (LLVM 19.1.7, 256 bits)" */
    char driver_info[128];  /**< backend-specific: Vulkan/GL version string */
    bool clip_depth_negative_one; /**< clip-space z spans [-1, 1] (GL) instead of [0, 1] (WebGPU):
                                     projections for this device need hl_mat4_clip_zo_to_no */
    bool independent_blend; /**< colour targets of one pipeline may differ in blend state and write
                               mask (WebGPU). Without it (OpenGL ES 3.0) they must agree, except
                               that any target may be write_none; a pipeline that breaks this is
                               refused with HL_ERR_UNSUPPORTED, never drawn differently */
} hl_rhi_caps;

/* ---- device ------------------------------------------------------------------------------- */
/** Which adapter webgpu asks for (ignored by gles3). */
typedef enum hl_rhi_power_preference {
    HL_RHI_POWER_DEFAULT = 0, /**< the adapter Dawn picks by default */
    HL_RHI_POWER_LOW,         /**< prefer a low-power (integrated) adapter */
    HL_RHI_POWER_HIGH,        /**< prefer a high-performance (discrete) adapter */
} hl_rhi_power_preference;

/** What a device must offer (zero: nothing beyond the baseline). */
typedef struct hl_rhi_requirements {
    uint32_t features; /**< HL_RHI_FEATURE_* the device must have */
    hl_rhi_power_preference power_preference; /**< webgpu's adapter preference */
    bool allow_fallback_adapter; /**< webgpu: accept a software/fallback adapter (default false
                                    means hardware is preferred, software still accepted if it
                                    is the only adapter; see hl_rhi_probe) */
} hl_rhi_requirements;

/** Counters kept by every device; reset with hl_rhi_reset_stats. */
typedef struct hl_rhi_stats {
    uint64_t native_calls;            /**< calls into Dawn/GL made by the backend */
    uint64_t commands;                /**< hl_rhi_cmd_* calls accepted into a frame */
    uint64_t objects_created;         /**< buffers, textures, samplers, layouts, pipelines, groups
                                         created (device cache hits not counted) */
    uint64_t draws; /**< draw commands recorded (packets included) */
    uint64_t dispatches; /**< compute dispatches recorded */
    uint64_t pipeline_switches;       /**< set_pipeline that changed the bound pipeline */
    uint64_t bind_group_switches; /**< set_bind_group that changed a bound group */
    uint64_t vertex_buffer_switches; /**< set_vertex_buffer that changed a bound buffer */
    uint64_t redundant_state_skipped; /**< set_* calls dropped by the command-state cache */
    uint64_t cache_hits;              /**< device caches: sampler, bgl, pipeline layout, pipeline */
    uint64_t cache_misses; /**< device cache lookups that created a native object */
    uint64_t transient_allocations;   /**< objects_created while a frame was open */
    uint64_t frames; /**< frames ended (submitted) */
    uint64_t submissions_completed; /**< submissions the GPU is known to have finished */
    /** With HL_RHI_FEATURE_TIMESTAMP_QUERY: the GPU time (ns, from the frame's first command to
     * the end of its last) of the latest completed frame whose timestamps were read (polls
     * read them; after hl_rhi_device_wait_idle, the last submitted frame) and its serial; 0
     * before any @{ */
    uint64_t gpu_frame_ns, gpu_frame_serial;
    /** @} */
} hl_rhi_stats;

/** Wait timeouts in milliseconds: 0 = HL_RHI_WAIT_TIMEOUT_DEFAULT_MS (10 s), HL_RHI_WAIT_FOREVER =
 * no limit (a GPU that never finishes then blocks the caller for ever). */
#define HL_RHI_WAIT_TIMEOUT_DEFAULT_MS 10000u
#define HL_RHI_WAIT_FOREVER UINT32_MAX /**< no limit */

/** The window system a device's surfaces present to (see "Surfaces" below). */
typedef enum hl_rhi_window_system {
    HL_RHI_WINDOW_SYSTEM_NONE = 0, /**< headless (default): the device can make no surface */
    HL_RHI_WINDOW_SYSTEM_X11,      /**< Xlib: display is a Display *, windows are Window XIDs */
    HL_RHI_WINDOW_SYSTEM_WAYLAND,  /**< display is a struct wl_display *, windows are wl_surface * */
    /** The browser build (Emscripten) only: the page's WebGL canvas (Module.canvas, which
     * Emscripten's EGL draws on); display NULL, surface windows 0. Elsewhere HL_ERR_UNSUPPORTED. */
    HL_RHI_WINDOW_SYSTEM_CANVAS,
    HL_RHI_WINDOW_SYSTEM_COUNT     /**< the number of window systems (not one) */
} hl_rhi_window_system;

/** A connection to a window system, owned by the application: it must stay open while the device
 * (and any recreation of it) lives. */
typedef struct hl_rhi_native_display {
    hl_rhi_window_system system; /**< NONE: headless */
    void *display;               /**< the connection (Display *, wl_display *) */
} hl_rhi_native_display;

/** Zero = defaults (listed per field). Read during hl_rhi_device_create only (strings copied). */
typedef struct hl_rhi_device_desc {
    hl_rhi_backend backend;            /**< default AUTO */
    hl_rhi_requirements requirements; /**< what the device must offer (zero: the baseline) */
    const char *dawn_library_path;     /**< webgpu: where Dawn's libwebgpu_wrapper.so is loaded from;
                                          $HL_DAWN_LIBRARY overrides it; NULL = the search of
                                          hl_renderer_desc.dawn_library_path (renderer.h) */
    uint32_t cache_capacity;           /**< per device cache; default 256 entries */
    const char *label; /**< for messages and native debug labels; NULL = none */
    uint32_t wait_timeout_ms;          /**< every implicit wait (see "Waits" above); 0 = 10 s,
                                          HL_RHI_WAIT_FOREVER = no limit */
    bool gpu_timing;                   /**< time every frame on the GPU where the backend can
                                          (HL_RHI_FEATURE_TIMESTAMP_QUERY in the caps then);
                                          elsewhere ignored */
    /** The window system of the surfaces this device will present to (default none: headless).
     * Required for hl_rhi_surface_create on every backend: gles3 opens its EGL display on it
     * (EGL_PLATFORM_X11_KHR / _WAYLAND_KHR instead of the headless device or surfaceless
     * platforms) and picks a window-capable config; webgpu names it in each Dawn surface. CANVAS
     * (the browser build only) needs no display: gles3's context is already the canvas's. */
    hl_rhi_native_display display;
} hl_rhi_device_desc;

/** Answers "is backend b usable with these requirements" without creating a device (webgpu:
 * adapter request only; gles3: EGL display + config only). HL_OK if usable; otherwise the
 * reason (HL_ERR_UNSUPPORTED, ...) with a message. adapter_name may be NULL; when given it
 * receives the adapter / renderer name. AUTO answers for the backend auto would pick. */
HL_API hl_result hl_rhi_probe(hl_rhi_backend b, const hl_rhi_requirements *req, char *adapter_name,
                       size_t adapter_name_size);

/** Creates a device (desc NULL = all defaults) into *out (NULL on failure). The calling thread
 * becomes the device's owner. AUTO picks webgpu when an adapter meets the requirements, else
 * gles3; an explicit backend never falls back (HL_ERR_UNSUPPORTED naming why). The caller owns
 * the device: hl_rhi_device_destroy. */
HL_API hl_result hl_rhi_device_create(const hl_rhi_device_desc *desc, hl_rhi_device **out);
/** Waits for outstanding submissions (at most the wait timeout), releases every object and the
 * native device. Call it on the owner, or on any thread once the device is detached; from
 * another thread it does nothing and leaves an HL_ERR_INVALID_STATE message. */
HL_API void hl_rhi_device_destroy(hl_rhi_device *dev);
/** Replaces the wait timeout (same rule as hl_rhi_device_desc.wait_timeout_ms). */
HL_API hl_result hl_rhi_device_set_wait_timeout(hl_rhi_device *dev, uint32_t timeout_ms);
/** Thread hand-over (see "Threads" above). detach: on the owner, no frame open; the device then
 * has no owner (gles3: its EGL context is released from the calling thread). attach: the
 * calling thread becomes the owner of a detached device (gles3: makes the context current
 * here); HL_OK without effect on the owner itself; HL_ERR_INVALID_STATE while another thread
 * owns it. Neither waits for the GPU. */
HL_API hl_result hl_rhi_device_detach(hl_rhi_device *dev);
/** Makes the calling thread the owner of a detached device (see hl_rhi_device_detach). */
HL_API hl_result hl_rhi_device_attach(hl_rhi_device *dev);
/** The capability snapshot taken at creation (updated by hl_rhi_device_recreate); owned by the
 * device. Any thread. NULL for a NULL device. */
HL_API const hl_rhi_caps *hl_rhi_device_caps(const hl_rhi_device *dev);
/** The backend the device uses (never AUTO). Any thread. */
HL_API hl_rhi_backend hl_rhi_device_backend(const hl_rhi_device *dev);
/** The device's counters (owned by the device, updated by every call). */
HL_API const hl_rhi_stats *hl_rhi_device_stats(const hl_rhi_device *dev);
/** Sets every counter of hl_rhi_device_stats to 0. */
HL_API void hl_rhi_reset_stats(hl_rhi_device *dev);
/** Drops every cached sampler / layout / pipeline not referenced by a live handle. */
HL_API void hl_rhi_device_clear_caches(hl_rhi_device *dev);
/** Native interop: call after issuing native API calls yourself on the device's context
 * (gles3: GL calls on its current EGL context) so the backend forgets the native state it
 * cached and sets everything again before the next command. Not allowed inside a pass
 * (HL_ERR_INVALID_STATE). webgpu keeps no state across passes; the call is then a no-op. */
HL_API hl_result hl_rhi_device_invalidate_native_state(hl_rhi_device *dev);

/* ---- device loss ----------------------------------------------------------------------------
 * A device is lost when the driver or the GPU takes it away (webgpu: Dawn's device-lost
 * callback, delivered during any wait or poll; gles3: a context reset reported by
 * glGetGraphicsResetStatus where the context was created with reset notification, or an EGL
 * context that is no longer valid; in the browser, the canvas's WebGL context lost: its
 * isContextLost(), the 'webglcontextlost' event, which the backend accepts (preventDefault) so
 * that the browser may restore the context; recreate fails with HL_ERR_DEVICE_LOST until it has,
 * 'webglcontextrestored'). From then on every call that needs the device returns
 * HL_ERR_DEVICE_LOST (destroy calls only forget the object) until hl_rhi_device_recreate. */
/** Asks the backend whether the device was lost (gles3 polls the context; webgpu processes
 * Dawn's events). True when lost. Owner thread only (false elsewhere). */
HL_API bool hl_rhi_device_check_lost(hl_rhi_device *dev);
/** The lost flag alone (no native call): what the device has noticed so far. */
HL_API bool hl_rhi_device_is_lost(const hl_rhi_device *dev);
/** Takes the device away through the native API, as a real loss would: webgpu destroys the
 * Dawn device (its lost callback fires, reason "destroyed"); gles3 destroys the EGL context and
 * its surface (in the browser it marks the device lost and keeps the WebGL context, which
 * Emscripten's GL layer needs for the teardown's calls, until recreate). The loss is then
 * detected by the same path as a real one (the device is lost when this returns HL_OK). Inside
 * a frame the frame then fails at its end (nothing submitted). */
HL_API hl_result hl_rhi_device_simulate_loss(hl_rhi_device *dev);
/** Replaces the native device by a new one of the same backend, made from the same
 * description: every object of the device is released first (every handle made before is
 * stale from then on: it fails as a destroyed one), the caches are emptied, the capabilities
 * are read again from the new device and the generation advances. Works on a lost device
 * and on a live one (after waiting for it). An open frame is aborted. On failure (no device
 * could be made, or it lacks a required feature) the device stays lost and the call may be
 * repeated. Owner thread only. */
HL_API hl_result hl_rhi_device_recreate(hl_rhi_device *dev);
/** Why the device was lost (the backend's words), "" while it is not. */
HL_API const char *hl_rhi_device_lost_reason(const hl_rhi_device *dev);
/** Objects alive on the device: live handles of every kind plus the native objects of the device
 * caches (what a leak across recoveries would grow). */
HL_API uint32_t hl_rhi_device_live_objects(const hl_rhi_device *dev);
/** Starts at 1; advanced by every successful hl_rhi_device_recreate. */
HL_API uint64_t hl_rhi_device_generation(const hl_rhi_device *dev);

/* ---- buffers ------------------------------------------------------------------------------ */
/** A GPU buffer. size and usage are required. */
typedef struct hl_rhi_buffer_desc {
    uint64_t size;  /**< bytes, > 0, multiple of 4 */
    uint32_t usage; /**< HL_RHI_BUFFER_USAGE_*, non-zero */
    const void *initial_data; /**< optional: size bytes uploaded at creation */
    const char *label; /**< for messages and native debug labels; NULL = none */
} hl_rhi_buffer_desc;

/** Creates a buffer (contents zero, or initial_data) into *out (id 0 on failure). */
HL_API hl_result hl_rhi_buffer_create(hl_rhi_device *dev, const hl_rhi_buffer_desc *desc, hl_rhi_buffer *out);
/** The handle is invalid at once; the memory goes when the frames using it have completed. A
 * handle of 0 or a stale one is ignored (as by every destroy call). */
HL_API void hl_rhi_buffer_destroy(hl_rhi_device *dev, hl_rhi_buffer buf);
/** Uploads size bytes at offset (both multiples of 4; buffer needs COPY_DST). Outside a frame,
 * or inside one before any pass used the buffer: visible to every later command. */
HL_API hl_result hl_rhi_buffer_write(hl_rhi_device *dev, hl_rhi_buffer buf, uint64_t offset,
                              const void *data, uint64_t size);
/** Blocking readback (buffer needs MAP_READ or COPY_SRC); not allowed inside an open frame.
 * Waits for all submitted work first, at most the wait timeout (HL_ERR_TIMEOUT, dst untouched). */
HL_API hl_result hl_rhi_buffer_read(hl_rhi_device *dev, hl_rhi_buffer buf, uint64_t offset, void *dst,
                             uint64_t size);

/* ---- textures ----------------------------------------------------------------------------- */
/** A texture. format, width, height and usage are required. */
typedef struct hl_rhi_texture_desc {
    hl_rhi_texture_dimension dimension; /**< default 2D */
    hl_rhi_format format;               /**< required */
    /** required, height 1 for 1D @{ */
    uint32_t width, height;
    /** @} */
    uint32_t depth_or_layers;           /**< default 1 (6 for CUBE) */
    uint32_t mip_levels;                /**< default 1 */
    uint32_t sample_count;              /**< default 1; 4 for MSAA */
    uint32_t usage;                     /**< HL_RHI_TEXTURE_USAGE_*, non-zero */
    const char *label; /**< for messages and native debug labels; NULL = none */
} hl_rhi_texture_desc;

/** Creates a texture (contents undefined until written or rendered) into *out. */
HL_API hl_result hl_rhi_texture_create(hl_rhi_device *dev, const hl_rhi_texture_desc *desc, hl_rhi_texture *out);
/** Destroys the texture and every view of it (see hl_rhi_buffer_destroy). */
HL_API void hl_rhi_texture_destroy(hl_rhi_device *dev, hl_rhi_texture tex);
/** The creation descriptor with defaults applied; NULL for an invalid handle. */
HL_API const hl_rhi_texture_desc *hl_rhi_texture_get_desc(hl_rhi_device *dev, hl_rhi_texture tex);

/** A box of one mip level (x, y, z_or_layer: its first texel or layer). Where a call takes a
 * region pointer, NULL means all of mip level 0. */
typedef struct hl_rhi_texture_region {
    uint32_t mip_level; /**< the mip level (default 0) */
    /** The first texel (and the first layer of an array or cube texture). @{ */
    uint32_t x, y, z_or_layer;
    /** @} */
    /** 0 = to the end of the mip level @{ */
    uint32_t width, height, depth_or_layers;
    /** @} */
} hl_rhi_texture_region;

/** Uploads tightly or row_pitch-packed texels (row_pitch 0 = width * texel size). Needs COPY_DST. */
HL_API hl_result hl_rhi_texture_write(hl_rhi_device *dev, hl_rhi_texture tex, const hl_rhi_texture_region *region,
                               const void *data, uint32_t row_pitch);
/** Blocking readback into dst with dst_row_pitch (0 = tight), row 0 = the top of the image (the
 * rows clip-space +y draws into, on every backend); needs COPY_SRC, sample count 1,
 * a copyable format. Not allowed inside an open frame; waits for submitted work, at most the
 * wait timeout (HL_ERR_TIMEOUT, dst untouched). */
HL_API hl_result hl_rhi_texture_read(hl_rhi_device *dev, hl_rhi_texture tex, const hl_rhi_texture_region *region,
                              void *dst, uint32_t dst_row_pitch);

/** A view: some mips and layers of a texture, seen as one dimension. Zero = the whole texture. */
typedef struct hl_rhi_texture_view_desc {
    hl_rhi_texture_dimension dimension; /**< default: the texture's */
    uint32_t base_mip_level; /**< first mip level seen */
    uint32_t mip_level_count; /**< 0 = to the last level */
    uint32_t base_layer; /**< first layer seen */
    uint32_t layer_count; /**< 0 = to the last layer */
    const char *label; /**< for messages and native debug labels; NULL = none */
} hl_rhi_texture_view_desc;

/** desc NULL = the whole texture. Views die with their texture. */
HL_API hl_result hl_rhi_texture_view_create(hl_rhi_device *dev, hl_rhi_texture tex,
                                     const hl_rhi_texture_view_desc *desc, hl_rhi_texture_view *out);
/** Destroys one view (its texture stays). */
HL_API void hl_rhi_texture_view_destroy(hl_rhi_device *dev, hl_rhi_texture_view view);

/* ---- samplers (device-cached: equal descriptors return the same native object) ---------- */
/** How textures are filtered and addressed. Zero = nearest, clamp to edge, no comparison. */
typedef struct hl_rhi_sampler_desc {
    /** default NEAREST @{ */
    hl_rhi_filter mag_filter, min_filter, mipmap_filter;
    /** @} */
    /** default CLAMP_TO_EDGE @{ */
    hl_rhi_address_mode address_u, address_v, address_w;
    /** @} */
    float lod_min;  /**< default 0 */
    float lod_max;  /**< 0 = default 32 */
    hl_rhi_compare compare; /**< UNDEFINED = not a comparison sampler */
    uint32_t max_anisotropy; /**< default 1 */
    const char *label; /**< for messages and native debug labels; NULL = none */
} hl_rhi_sampler_desc;

/** Creates a sampler handle into *out (sharing the native sampler of an equal descriptor). */
HL_API hl_result hl_rhi_sampler_create(hl_rhi_device *dev, const hl_rhi_sampler_desc *desc, hl_rhi_sampler *out);
/** Releases the handle (the cached native sampler stays until hl_rhi_device_clear_caches). */
HL_API void hl_rhi_sampler_destroy(hl_rhi_device *dev, hl_rhi_sampler s);

/* ---- shader modules ----------------------------------------------------------------------
 * The RHI takes each backend's own shader form (it compiles nothing itself):
 *  - webgpu: SPIR-V words, or WGSL source (any stage: `@vertex` / `@fragment` / `@compute`
 *            functions, named by entry_point);
 *  - gles3:  GLSL ES 3.00 source plus its binding plan (which GLSL block / sampler name maps to
 *            which (group, binding)), applied at pipeline link time.
 * So a program drawing through the RHI directly carries one source per backend and picks by
 * hl_rhi_device_backend (examples/hello-triangle). A module for the other backend is
 * HL_ERR_VALIDATION; a compute module on gles3 is HL_ERR_UNSUPPORTED. Sources go to the
 * driver as they are: the engine's own shaders are checked against a source budget before any
 * compiler sees them (renderer shader materials, HL_MATERIAL_MAX_SHADER_SOURCE_BYTES), text
 * given here is not. Compile errors come back as HL_ERR_SHADER with the driver's log. */
/** What a binding plan entry maps (gles3). */
typedef enum hl_rhi_binding_plan_kind {
    HL_RHI_PLAN_UNIFORM_BLOCK = 0, /**< name = GLSL uniform block name */
    HL_RHI_PLAN_SAMPLER,           /**< name = GLSL sampler uniform; texture + sampler bindings */
} hl_rhi_binding_plan_kind;

/** One GLSL name's (group, binding) (gles3: GLSL ES 3.00 has no layout(binding)). */
typedef struct hl_rhi_binding_plan_entry {
    hl_rhi_binding_plan_kind kind; /**< a uniform block or a sampler */
    const char *name; /**< the GLSL name */
    uint32_t group; /**< the group it belongs to */
    uint32_t binding;         /**< UBO binding, or the texture binding of a sampler */
    uint32_t sampler_binding; /**< HL_RHI_PLAN_SAMPLER only: binding of the sampler object */
} hl_rhi_binding_plan_entry;

/** One stage's module: the source of the device's backend is required (webgpu: spirv, else
 * wgsl; gles3: glsl, and wgsl must be NULL there since it means a compute kernel, which gles3
 * refuses with HL_ERR_UNSUPPORTED). Strings and arrays are read during the call only. */
typedef struct hl_rhi_shader_desc {
    hl_rhi_shader_stage stage; /**< which stage the module is for */
    const uint32_t *spirv; /**< webgpu */
    size_t spirv_word_count; /**< 32-bit words at spirv */
    const char *wgsl;      /**< webgpu (used when spirv is NULL) */
    const char *glsl;      /**< gles3: complete GLSL ES 3.00 source */
    const hl_rhi_binding_plan_entry *binding_plan; /**< gles3 */
    uint32_t binding_plan_count; /**< entries in binding_plan */
    const char *entry_point; /**< default "main" */
    const char *label; /**< for messages and native debug labels; NULL = none */
    /** fragment shaders, optional: the colour locations the shader writes (bit i = location i),
       valid when outputs_known. Pipelines are then checked against it on every backend: a
       colour target the shader does not write must be write_none (WebGPU requires it; GL would
       write undefined values) */
    uint32_t output_mask;
    bool outputs_known; /**< output_mask is given */
} hl_rhi_shader_desc;

/** Compiles a module into *out: HL_ERR_SHADER with the compiler's message when the source does
 * not compile (gles3 compiles here and links at pipeline creation). */
HL_API hl_result hl_rhi_shader_create(hl_rhi_device *dev, const hl_rhi_shader_desc *desc, hl_rhi_shader *out);
/** Pipelines made from the module keep working. */
HL_API void hl_rhi_shader_destroy(hl_rhi_device *dev, hl_rhi_shader s);

/* ---- bind group layouts, bind groups, pipeline layouts ---------------------------------- */
/** What one binding of a group holds. */
typedef enum hl_rhi_binding_type {
    HL_RHI_BINDING_UNIFORM_BUFFER = 0,       /**< a uniform buffer range */
    HL_RHI_BINDING_STORAGE_BUFFER,           /**< webgpu only */
    HL_RHI_BINDING_READ_ONLY_STORAGE_BUFFER, /**< webgpu only */
    HL_RHI_BINDING_SAMPLED_TEXTURE,          /**< a texture view read through a sampler */
    HL_RHI_BINDING_SAMPLER,                  /**< a filtering or non-filtering sampler */
    HL_RHI_BINDING_COMPARISON_SAMPLER,       /**< a comparison (shadow) sampler */
    HL_RHI_BINDING_STORAGE_TEXTURE, /**< webgpu only, write-only */
} hl_rhi_binding_type;

/** How a shader reads a sampled texture. */
typedef enum hl_rhi_texture_sample_type {
    HL_RHI_SAMPLE_FLOAT = 0,          /**< filterable floats (the default) */
    HL_RHI_SAMPLE_UNFILTERABLE_FLOAT, /**< floats read without filtering */
    HL_RHI_SAMPLE_DEPTH,              /**< a depth texture */
    HL_RHI_SAMPLE_UINT,               /**< unsigned integers */
    HL_RHI_SAMPLE_SINT,               /**< signed integers */
} hl_rhi_texture_sample_type;

/** One binding of a bind group layout. */
typedef struct hl_rhi_bind_group_layout_entry {
    uint32_t binding; /**< the binding number, below HL_RHI_MAX_BINDINGS */
    uint32_t visibility; /**< HL_RHI_STAGE_*, non-zero */
    hl_rhi_binding_type type; /**< what it holds */
    bool has_dynamic_offset; /**< buffers */
    uint64_t min_binding_size; /**< buffers; 0 = no minimum */
    hl_rhi_texture_sample_type sample_type;   /**< sampled textures */
    hl_rhi_texture_dimension view_dimension;  /**< textures; default 2D */
    bool multisampled;                        /**< sampled textures */
    hl_rhi_format storage_format;             /**< storage textures */
} hl_rhi_bind_group_layout_entry;

/* Fixed bounds of the contract (every backend). */
#define HL_RHI_MAX_BINDINGS 16           /**< bindings of one bind group layout */
#define HL_RHI_MAX_BIND_GROUPS 4         /**< bind groups of one pipeline layout */
#define HL_RHI_MAX_VERTEX_BUFFERS 8      /**< vertex buffer slots of a pipeline */
#define HL_RHI_MAX_VERTEX_ATTRIBUTES 16  /**< vertex attributes of a pipeline */
#define HL_RHI_MAX_COLOR_ATTACHMENTS 4   /**< colour attachments of a pass or pipeline */

/** The shape of a bind group. */
typedef struct hl_rhi_bind_group_layout_desc {
    const hl_rhi_bind_group_layout_entry *entries; /**< the bindings (read during the call) */
    uint32_t entry_count; /**< <= HL_RHI_MAX_BINDINGS, bindings unique */
    const char *label; /**< for messages and native debug labels; NULL = none */
} hl_rhi_bind_group_layout_desc;

/** Device-cached: equal descriptors share one native layout (labels are not part of the key). */
HL_API hl_result hl_rhi_bind_group_layout_create(hl_rhi_device *dev, const hl_rhi_bind_group_layout_desc *desc,
                                          hl_rhi_bind_group_layout *out);
/** Releases the handle; groups and pipeline layouts made from it keep working. */
HL_API void hl_rhi_bind_group_layout_destroy(hl_rhi_device *dev, hl_rhi_bind_group_layout l);

/** What one binding of a group points at (the field of the layout entry's type). */
typedef struct hl_rhi_bind_group_entry {
    uint32_t binding; /**< the layout entry this fills */
    hl_rhi_buffer buffer;    /**< buffer bindings */
    uint64_t offset; /**< buffer bindings: bytes from the start (aligned as the limits say) */
    uint64_t size;           /**< 0 = rest of the buffer (must fit the binding limits) */
    hl_rhi_texture_view view; /**< texture bindings */
    hl_rhi_sampler sampler;   /**< sampler bindings */
} hl_rhi_bind_group_entry;

/** A bind group: resources for every entry of a layout. */
typedef struct hl_rhi_bind_group_desc {
    hl_rhi_bind_group_layout layout; /**< the shape (required) */
    const hl_rhi_bind_group_entry *entries; /**< the resources (read during the call) */
    uint32_t entry_count; /**< exactly one per layout entry */
    const char *label; /**< for messages and native debug labels; NULL = none */
} hl_rhi_bind_group_desc;

/** Creates a group into *out; the resources must outlive it (a destroyed one makes draws using
 * the group fail validation). */
HL_API hl_result hl_rhi_bind_group_create(hl_rhi_device *dev, const hl_rhi_bind_group_desc *desc, hl_rhi_bind_group *out);
/** Destroys the group (see hl_rhi_buffer_destroy). */
HL_API void hl_rhi_bind_group_destroy(hl_rhi_device *dev, hl_rhi_bind_group g);

/** The bind group layouts of a pipeline, group 0 first (group_count 0: no bindings). */
typedef struct hl_rhi_pipeline_layout_desc {
    const hl_rhi_bind_group_layout *groups; /**< group i = groups[i] */
    uint32_t group_count;                   /**< <= HL_RHI_MAX_BIND_GROUPS */
    const char *label; /**< for messages and native debug labels; NULL = none */
} hl_rhi_pipeline_layout_desc;

/** Device-cached like bind group layouts. */
HL_API hl_result hl_rhi_pipeline_layout_create(hl_rhi_device *dev, const hl_rhi_pipeline_layout_desc *desc,
                                        hl_rhi_pipeline_layout *out);
/** Releases the handle; pipelines made with it keep working. */
HL_API void hl_rhi_pipeline_layout_destroy(hl_rhi_device *dev, hl_rhi_pipeline_layout l);

/* ---- render pipelines ---------------------------------------------------------------------- */
/** Vertex attribute formats (WebGPU's). */
typedef enum hl_rhi_vertex_format {
    HL_RHI_VERTEX_FORMAT_INVALID = 0, /**< no format (refused) */
    HL_RHI_VERTEX_FLOAT32, /**< float */
    HL_RHI_VERTEX_FLOAT32X2, /**< vec2 */
    HL_RHI_VERTEX_FLOAT32X3, /**< vec3 */
    HL_RHI_VERTEX_FLOAT32X4, /**< vec4 */
    HL_RHI_VERTEX_UNORM8X4, /**< 4 bytes read as [0, 1] */
    HL_RHI_VERTEX_SNORM8X4, /**< 4 signed bytes read as [-1, 1] */
    HL_RHI_VERTEX_UINT8X4, /**< 4 unsigned bytes as integers */
    HL_RHI_VERTEX_UNORM16X2, /**< 2 unsigned shorts read as [0, 1] */
    HL_RHI_VERTEX_UNORM16X4, /**< 4 unsigned shorts read as [0, 1] */
    HL_RHI_VERTEX_SNORM16X2, /**< 2 signed shorts read as [-1, 1] */
    HL_RHI_VERTEX_SNORM16X4, /**< 4 signed shorts read as [-1, 1] */
    HL_RHI_VERTEX_UINT16X4, /**< 4 unsigned shorts as integers */
    HL_RHI_VERTEX_UINT32, /**< one unsigned int */
    HL_RHI_VERTEX_FORMAT_COUNT /**< the number of formats */
} hl_rhi_vertex_format;

/** Bytes of one attribute of format f; 0 for an invalid format. */
HL_API uint32_t hl_rhi_vertex_format_size(hl_rhi_vertex_format f);

/** One attribute inside a vertex buffer. */
typedef struct hl_rhi_vertex_attribute {
    hl_rhi_vertex_format format; /**< how the shader reads it */
    uint32_t offset; /**< bytes from the start of the element */
    uint32_t location; /**< shader input location */
} hl_rhi_vertex_attribute;

/** One vertex buffer slot of a pipeline: its stride and the attributes read from it. */
typedef struct hl_rhi_vertex_buffer_layout {
    uint32_t stride; /**< bytes from one element to the next */
    bool per_instance; /**< step mode: instance instead of vertex */
    const hl_rhi_vertex_attribute *attributes; /**< read during pipeline creation */
    uint32_t attribute_count; /**< entries in attributes */
} hl_rhi_vertex_buffer_layout;

/** Primitive topology (default triangle list). */
typedef enum hl_rhi_topology {
    HL_RHI_TOPOLOGY_TRIANGLE_LIST = 0, /**< every 3 vertices a triangle */
    HL_RHI_TOPOLOGY_TRIANGLE_STRIP,    /**< each vertex after the second a triangle with the two before */
    HL_RHI_TOPOLOGY_LINE_LIST,         /**< every 2 vertices a line */
    HL_RHI_TOPOLOGY_LINE_STRIP,        /**< a connected line */
    HL_RHI_TOPOLOGY_POINT_LIST,        /**< one point per vertex */
} hl_rhi_topology;

/** Face culling (default none). */
typedef enum hl_rhi_cull_mode {
    HL_RHI_CULL_NONE = 0, /**< draw both faces */
    HL_RHI_CULL_FRONT,    /**< drop front faces */
    HL_RHI_CULL_BACK      /**< drop back faces */
} hl_rhi_cull_mode;
/** Winding of front faces as seen in the image (default counter-clockwise). */
typedef enum hl_rhi_front_face {
    HL_RHI_FRONT_CCW = 0, /**< counter-clockwise */
    HL_RHI_FRONT_CW       /**< clockwise */
} hl_rhi_front_face;
/** Index formats (default 16-bit). */
typedef enum hl_rhi_index_format {
    HL_RHI_INDEX_UINT16 = 0, /**< 16-bit indices */
    HL_RHI_INDEX_UINT32      /**< 32-bit indices */
} hl_rhi_index_format;

/** Blend factors (WebGPU's). */
typedef enum hl_rhi_blend_factor {
    HL_RHI_BLEND_DEFAULT = 0, /**< ONE for src factors, ZERO for dst factors */
    HL_RHI_BLEND_ZERO, /**< 0 */
    HL_RHI_BLEND_ONE, /**< 1 */
    HL_RHI_BLEND_SRC, /**< the source colour */
    HL_RHI_BLEND_ONE_MINUS_SRC, /**< 1 - the source colour */
    HL_RHI_BLEND_SRC_ALPHA, /**< the source alpha */
    HL_RHI_BLEND_ONE_MINUS_SRC_ALPHA, /**< 1 - the source alpha */
    HL_RHI_BLEND_DST, /**< the destination colour */
    HL_RHI_BLEND_ONE_MINUS_DST, /**< 1 - the destination colour */
    HL_RHI_BLEND_DST_ALPHA, /**< the destination alpha */
    HL_RHI_BLEND_ONE_MINUS_DST_ALPHA, /**< 1 - the destination alpha */
    HL_RHI_BLEND_CONSTANT, /**< the blend constant (hl_rhi_cmd_set_blend_constant) */
    HL_RHI_BLEND_ONE_MINUS_CONSTANT, /**< 1 - the blend constant */
} hl_rhi_blend_factor;

/** Blend operations (default add). */
typedef enum hl_rhi_blend_op {
    HL_RHI_BLEND_OP_ADD = 0, /**< src + dst (the default) */
    HL_RHI_BLEND_OP_SUBTRACT, /**< src - dst */
    HL_RHI_BLEND_OP_REVERSE_SUBTRACT, /**< dst - src */
    HL_RHI_BLEND_OP_MIN, /**< min(src, dst), factors ignored */
    HL_RHI_BLEND_OP_MAX, /**< max(src, dst), factors ignored */
} hl_rhi_blend_op;

/** result = op(src * src_factor, dst * dst_factor), for colour or alpha. */
typedef struct hl_rhi_blend_component {
    /** The factors of the source (default ONE) and destination (default ZERO). @{ */
    hl_rhi_blend_factor src_factor, dst_factor;
    /** @} */
    hl_rhi_blend_op op; /**< default ADD */
} hl_rhi_blend_component;

/** Colour write mask bits. */
enum {
    HL_RHI_COLOR_WRITE_R = 1,   /**< red */
    HL_RHI_COLOR_WRITE_G = 2,   /**< green */
    HL_RHI_COLOR_WRITE_B = 4,   /**< blue */
    HL_RHI_COLOR_WRITE_A = 8,   /**< alpha */
    HL_RHI_COLOR_WRITE_ALL = 15 /**< every channel */
};

/** One colour attachment of a pipeline: its format (required) and blend / write state. */
typedef struct hl_rhi_color_target_state {
    hl_rhi_format format; /**< the attachment's format (required) */
    bool blend_enabled; /**< blend with color and alpha below (default off: replace) */
    /** How colour and alpha blend when blend_enabled. @{ */
    hl_rhi_blend_component color, alpha;
    /** @} */
    uint32_t write_mask; /**< HL_RHI_COLOR_WRITE_* bits; 0 = ALL */
    bool write_none;     /**< true: write nothing (overrides write_mask) */
} hl_rhi_color_target_state;

/** Stencil operations (default keep). */
typedef enum hl_rhi_stencil_op {
    HL_RHI_STENCIL_KEEP = 0, /**< keep the stored value (the default) */
    HL_RHI_STENCIL_ZERO, /**< write 0 */
    HL_RHI_STENCIL_REPLACE, /**< write the reference value */
    HL_RHI_STENCIL_INVERT, /**< invert the bits */
    HL_RHI_STENCIL_INCREMENT_CLAMP, /**< add 1, saturating */
    HL_RHI_STENCIL_DECREMENT_CLAMP, /**< subtract 1, saturating */
    HL_RHI_STENCIL_INCREMENT_WRAP, /**< add 1, wrapping */
    HL_RHI_STENCIL_DECREMENT_WRAP, /**< subtract 1, wrapping */
} hl_rhi_stencil_op;

/** Stencil test and operations of one face. */
typedef struct hl_rhi_stencil_face {
    hl_rhi_compare compare; /**< UNDEFINED = ALWAYS */
    /** What happens when the stencil test fails, when it passes but the depth test fails, and when both pass. @{ */
    hl_rhi_stencil_op fail_op, depth_fail_op, pass_op;
    /** @} */
} hl_rhi_stencil_face;

/** Depth and stencil state of a pipeline (zero: no depth/stencil attachment). */
typedef struct hl_rhi_depth_stencil_state {
    hl_rhi_format format; /**< UNDEFINED = no depth/stencil attachment */
    bool depth_write; /**< write depth (default off) */
    hl_rhi_compare depth_compare; /**< UNDEFINED = ALWAYS when depth_write is false and LESS otherwise */
    bool stencil_enabled; /**< use the stencil state below */
    /** The stencil test of front and back faces. @{ */
    hl_rhi_stencil_face stencil_front, stencil_back;
    /** @} */
    uint32_t stencil_read_mask;  /**< 0 = 0xff when stencil_enabled */
    uint32_t stencil_write_mask; /**< 0 = 0xff when stencil_enabled */
    int32_t depth_bias; /**< constant depth bias (default 0) */
    float depth_bias_slope_scale; /**< slope-scaled depth bias (default 0) */
} hl_rhi_depth_stencil_state;

/** A render pipeline: shaders, vertex layout and fixed-function state. Zero = defaults listed
 * per field; arrays are read during the call only. */
typedef struct hl_rhi_render_pipeline_desc {
    hl_rhi_pipeline_layout layout; /**< required */
    hl_rhi_shader vertex;          /**< required */
    hl_rhi_shader fragment;        /**< optional (depth-only passes) */
    const hl_rhi_vertex_buffer_layout *vertex_buffers; /**< one per vertex buffer slot */
    uint32_t vertex_buffer_count; /**< at most HL_RHI_MAX_VERTEX_BUFFERS */
    hl_rhi_topology topology; /**< default triangle list */
    hl_rhi_index_format strip_index_format; /**< strips only */
    hl_rhi_cull_mode cull_mode; /**< default none */
    hl_rhi_front_face front_face; /**< default counter-clockwise */
    hl_rhi_depth_stencil_state depth_stencil; /**< zero: no depth/stencil attachment */
    const hl_rhi_color_target_state *color_targets; /**< one per colour attachment */
    uint32_t color_target_count; /**< at most HL_RHI_MAX_COLOR_ATTACHMENTS (0: depth only) */
    uint32_t sample_count; /**< default 1 */
    bool alpha_to_coverage; /**< multisampled: coverage from the fragment's alpha */
    const char *label; /**< for messages and native debug labels; NULL = none */
} hl_rhi_render_pipeline_desc;

/** Device-cached: an equal descriptor returns a new handle sharing the native pipeline. */
HL_API hl_result hl_rhi_render_pipeline_create(hl_rhi_device *dev, const hl_rhi_render_pipeline_desc *desc,
                                        hl_rhi_render_pipeline *out);
/** Releases the handle (the cached native pipeline stays until hl_rhi_device_clear_caches). */
HL_API void hl_rhi_render_pipeline_destroy(hl_rhi_device *dev, hl_rhi_render_pipeline p);

/** A pipeline-overridable constant of the shader (WGSL `override`), set at pipeline creation. */
typedef struct hl_rhi_constant {
    const char *name; /**< the override's name */
    double value; /**< its value */
} hl_rhi_constant;

/** Most constants of one compute pipeline. */
#define HL_RHI_MAX_CONSTANTS 32

/** A compute pipeline: one compute module and its constants. */
typedef struct hl_rhi_compute_pipeline_desc {
    hl_rhi_pipeline_layout layout; /**< required */
    hl_rhi_shader compute; /**< a compute module (required) */
    const hl_rhi_constant *constants; /**< at most HL_RHI_MAX_CONSTANTS; names checked by the driver */
    uint32_t constant_count; /**< entries in constants */
    const char *label; /**< for messages and native debug labels; NULL = none */
} hl_rhi_compute_pipeline_desc;

/** HL_ERR_UNSUPPORTED without HL_RHI_FEATURE_COMPUTE. */
HL_API hl_result hl_rhi_compute_pipeline_create(hl_rhi_device *dev, const hl_rhi_compute_pipeline_desc *desc,
                                         hl_rhi_compute_pipeline *out);
/** Destroys the pipeline (see hl_rhi_buffer_destroy). */
HL_API void hl_rhi_compute_pipeline_destroy(hl_rhi_device *dev, hl_rhi_compute_pipeline p);

/* ---- surfaces: presenting to a window --------------------------------------------------------- */
/** @file
 * @par Surfaces
 * Device and surface are separate objects (the device exists first; rendering never depends on
 * a window). A surface belongs to its device and shows one native window of the device's
 * display (hl_rhi_device_desc.display). It owns its configuration (format, usage, size, present
 * mode), the texture of the current frame and the explicit present:
 *
 *   hl_rhi_surface_configure(dev, s, &cfg)        once, and again when the window's size changes
 *   each frame:
 *     hl_rhi_surface_acquire(dev, s, &tex, &st)   the frame's texture (outside or inside a frame)
 *     ... frames that render into / copy into tex (a view of it as a colour attachment) ...
 *     hl_rhi_surface_present(dev, s)              after hl_rhi_end_frame: shows it
 *
 * The surface texture has frame lifetime: present (and configure, surface destroy, device loss)
 * retires it and its views, so a handle kept after present is stale (HL_ERR_VALIDATION "handle is
 * destroyed or stale" on every call that takes it). It cannot be destroyed with
 * hl_rhi_texture_destroy. Acquiring again before present gives the same texture.
 *
 * Backends: webgpu wraps a Dawn surface (wgpuInstanceCreateSurface on the X11 window / Wayland
 * surface; configure, getCurrentTexture, present). gles3 wraps the default framebuffer of an EGL
 * window surface: the frame texture is a texture of the configured size (the backend's y
 * convention makes memory row 0 the image's top, the window's default framebuffer counts rows
 * from the bottom), copied flipped into the default framebuffer by present before
 * eglSwapBuffers; present mode FIFO is eglSwapInterval 1, IMMEDIATE 0. In the browser (window
 * system CANVAS) the default framebuffer is the WebGL canvas's drawing buffer: the same copy,
 * RGBA8 and FIFO only (the page's requestAnimationFrame loop sets the pace; eglSwapBuffers is a
 * no-op there and the browser composites the canvas when the frame's task ends), OUTDATED when
 * canvas.width / height differ from the configured size. The null backend makes no surfaces
 * (HL_ERR_UNSUPPORTED).
 *
 * A lost device loses its surfaces with every other object (their handles are stale after
 * hl_rhi_device_recreate): create and configure them again on the recreated device. */
/** The window a surface shows (on the device's display, hl_rhi_device_desc.display). */
typedef struct hl_rhi_surface_desc {
    uint64_t window;       /**< X11: the Window XID (an integer); canvas: 0 (the page's canvas) */
    void *wayland_surface; /**< Wayland: the struct wl_surface * */
    const char *label;     /**< for messages; may be NULL */
} hl_rhi_surface_desc;

/** How presented frames meet the display's refresh. */
typedef enum hl_rhi_present_mode {
    HL_RHI_PRESENT_FIFO = 0,     /**< default: vsync, every frame shown, no tearing */
    HL_RHI_PRESENT_FIFO_RELAXED, /**< vsync unless late (a late frame may tear) */
    HL_RHI_PRESENT_IMMEDIATE,    /**< no vsync (may tear) */
    HL_RHI_PRESENT_MAILBOX,      /**< no tearing, the newest frame replaces a waiting one */
    HL_RHI_PRESENT_MODE_COUNT    /**< the number of modes (not one) */
} hl_rhi_present_mode;

#define HL_RHI_SURFACE_MAX_FORMATS 8 /**< entries of hl_rhi_surface_caps.formats */

/** What a surface can be configured with, read when it is created. */
typedef struct hl_rhi_surface_caps {
    /** The backend's preferred first; only formats the RHI has (webgpu's sRGB BGRA is not one). */
    hl_rhi_format formats[HL_RHI_SURFACE_MAX_FORMATS];
    uint32_t format_count; /**< entries of formats in use (at least 1) */
    /** HL_RHI_TEXTURE_USAGE_* the frame texture may have (always RENDER_ATTACHMENT). */
    uint32_t usages;
    uint32_t present_modes; /**< bit (1u << hl_rhi_present_mode): the modes offered (FIFO always) */
} hl_rhi_surface_caps;

/** Zero = defaults: the first format of the caps, RENDER_ATTACHMENT usage, FIFO. */
typedef struct hl_rhi_surface_config {
    hl_rhi_format format;             /**< one of the caps' formats; UNDEFINED = formats[0] */
    uint32_t usage;                   /**< a subset of caps.usages; 0 = RENDER_ATTACHMENT */
    uint32_t width;                   /**< required, 1..max_texture_dimension_2d */
    uint32_t height;                  /**< required, 1..max_texture_dimension_2d */
    hl_rhi_present_mode present_mode; /**< one of the caps' modes; default FIFO (vsync) */
} hl_rhi_surface_config;

/** What hl_rhi_surface_acquire found. Only OPTIMAL and SUBOPTIMAL give a texture. */
typedef enum hl_rhi_surface_status {
    HL_RHI_SURFACE_OPTIMAL = 0, /**< a texture matching the configuration */
    /** A texture, but the window no longer matches the configuration: configure again after
     * presenting it. */
    HL_RHI_SURFACE_SUBOPTIMAL,
    /** No texture: configure again first (the window changed; gles3: the EGL window's size
     * differs from the configured one). */
    HL_RHI_SURFACE_OUTDATED,
    HL_RHI_SURFACE_TIMEOUT, /**< no texture this time: try again */
    HL_RHI_SURFACE_LOST,    /**< no texture: the native surface is gone; destroy and create it */
} hl_rhi_surface_status;

/** Creates a surface on a window of the device's display. HL_ERR_VALIDATION: no display on the
 * device, or no window in desc for its window system; HL_ERR_UNSUPPORTED: the backend cannot
 * present there (the null backend; gles3 makes one surface per device); HL_ERR_BACKEND when the
 * native surface cannot be made. The surface starts unconfigured. */
HL_API hl_result hl_rhi_surface_create(hl_rhi_device *dev, const hl_rhi_surface_desc *desc, hl_rhi_surface *out);
/** Retires its texture (if acquired) and releases the native surface once no submission uses it.
 * Invalid handles are a no-op. */
HL_API void hl_rhi_surface_destroy(hl_rhi_device *dev, hl_rhi_surface s);
/** What the surface can be configured with (read at creation) into *out; HL_ERR_VALIDATION for an
 * invalid handle. */
HL_API hl_result hl_rhi_surface_get_caps(hl_rhi_device *dev, hl_rhi_surface s, hl_rhi_surface_caps *out);
/** (Re)configures: HL_ERR_VALIDATION for a value the caps do not offer or a bad size,
 * HL_ERR_INVALID_STATE while a texture is acquired (present it first). */
HL_API hl_result hl_rhi_surface_configure(hl_rhi_device *dev, hl_rhi_surface s, const hl_rhi_surface_config *config);
/** The configuration with defaults applied; NULL when invalid or not configured. */
HL_API const hl_rhi_surface_config *hl_rhi_surface_get_config(hl_rhi_device *dev, hl_rhi_surface s);
/** The frame's texture (format, size and usage of the configuration; 2D, one mip, one sample) in
 * *out, and what was found in *status (may be NULL). HL_OK with out->id 0 when the status gives
 * no texture. HL_ERR_INVALID_STATE when not configured. The same texture until present. */
HL_API hl_result hl_rhi_surface_acquire(hl_rhi_device *dev, hl_rhi_surface s, hl_rhi_texture *out,
                                        hl_rhi_surface_status *status);
/** Shows the acquired texture (what the submitted frames put in it) and retires it. Outside an
 * open frame (the frames that render into it must be submitted first: HL_ERR_INVALID_STATE
 * inside one), with a texture acquired (else HL_ERR_INVALID_STATE). */
HL_API hl_result hl_rhi_surface_present(hl_rhi_device *dev, hl_rhi_surface s);

/* ---- frame scope and commands -------------------------------------------------------------- */
/** Opens a frame and gives its command context in *out_cmd (one frame at a time:
 * HL_ERR_INVALID_STATE while one is open). Waits (at most the wait timeout) when too many
 * submitted frames are still in flight. */
HL_API hl_result hl_rhi_begin_frame(hl_rhi_device *dev, hl_rhi_cmd **out_cmd);
/** Closes the frame and submits it. An open pass is an error (the frame is aborted). */
HL_API hl_result hl_rhi_end_frame(hl_rhi_device *dev, hl_rhi_submission *out);
/** Discards the open frame: nothing of it reaches the GPU on webgpu, except the commands
 * before a render pass of several colour attachments that follows a pipeline without colour
 * targets (the backend submits those early, a lavapipe workaround); gles3 has executed its
 * commands already, but no submission is produced and resources used by it are released as
 * if the frame completed. No-op without an open frame. */
HL_API void hl_rhi_abort_frame(hl_rhi_device *dev);
/** true between hl_rhi_begin_frame and hl_rhi_end_frame / hl_rhi_abort_frame. */
HL_API bool hl_rhi_frame_is_open(const hl_rhi_device *dev);

/** done = the submission's GPU work has completed. */
HL_API hl_result hl_rhi_submission_poll(hl_rhi_device *dev, hl_rhi_submission s, bool *done);
/** timeout_ns UINT64_MAX = forever; HL_ERR_TIMEOUT when it elapsed (the submission stays
 * queued: wait again later). */
HL_API hl_result hl_rhi_submission_wait(hl_rhi_device *dev, hl_rhi_submission s, uint64_t timeout_ns);
/** Waits for every submission, at most the device's wait timeout (HL_ERR_TIMEOUT). */
HL_API hl_result hl_rhi_device_wait_idle(hl_rhi_device *dev);

/** What a pass does with an attachment at its start (default clear). */
typedef enum hl_rhi_load_op {
    HL_RHI_LOAD_CLEAR = 0, /**< fill with the clear value */
    HL_RHI_LOAD_LOAD,      /**< keep the contents */
    HL_RHI_LOAD_DONT_CARE  /**< contents undefined (no read) */
} hl_rhi_load_op;
/** What a pass does with an attachment at its end. */
typedef enum hl_rhi_store_op {
    HL_RHI_STORE_STORE = 0, /**< keep what the pass drew */
    HL_RHI_STORE_DISCARD    /**< contents undefined afterwards */
} hl_rhi_store_op;

/** One colour attachment of a render pass. */
typedef struct hl_rhi_color_attachment {
    hl_rhi_texture_view view;           /**< texture needs RENDER_ATTACHMENT; one mip, one layer */
    hl_rhi_texture_view resolve_target; /**< optional: single-sample view to resolve into */
    hl_rhi_load_op load_op;             /**< default CLEAR */
    hl_rhi_store_op store_op;           /**< default STORE */
    float clear_color[4]; /**< RGBA for LOAD_CLEAR */
} hl_rhi_color_attachment;

/** The depth/stencil attachment of a render pass (view id 0: none). */
typedef struct hl_rhi_depth_stencil_attachment {
    hl_rhi_texture_view view; /**< id 0 = none */
    hl_rhi_load_op depth_load_op; /**< default CLEAR */
    hl_rhi_store_op depth_store_op; /**< default STORE */
    float depth_clear_value; /**< used as given: set 1.0f for the usual clear */
    bool depth_read_only; /**< depth is tested but never written in the pass */
    hl_rhi_load_op stencil_load_op; /**< default CLEAR */
    hl_rhi_store_op stencil_store_op; /**< default STORE */
    uint32_t stencil_clear_value; /**< for LOAD_CLEAR */
    bool stencil_read_only; /**< stencil is tested but never written in the pass */
} hl_rhi_depth_stencil_attachment;

/** A render pass: its attachments (all of one size and sample count). */
typedef struct hl_rhi_render_pass_desc {
    const hl_rhi_color_attachment *color_attachments; /**< read during the call */
    uint32_t color_attachment_count; /**< at most HL_RHI_MAX_COLOR_ATTACHMENTS (0: depth only) */
    hl_rhi_depth_stencil_attachment depth_stencil; /**< view id 0: none */
    const char *label; /**< for messages and native debug labels; NULL = none */
} hl_rhi_render_pass_desc;

/* Render passes. Inside one: set a pipeline, its bind groups and vertex / index buffers,
 * then draw; state set in a pass ends with it. Every command is validated against the bound
 * state (HL_ERR_VALIDATION naming the problem; the command is not recorded). */
/** Opens a render pass (no pass may be open). */
HL_API hl_result hl_rhi_cmd_begin_render_pass(hl_rhi_cmd *cmd, const hl_rhi_render_pass_desc *desc);
/** Closes the open render pass. */
HL_API hl_result hl_rhi_cmd_end_render_pass(hl_rhi_cmd *cmd);
/** Binds a render pipeline whose attachment formats and sample count match the pass. */
HL_API hl_result hl_rhi_cmd_set_pipeline(hl_rhi_cmd *cmd, hl_rhi_render_pipeline p);
/** Binds group g at index, with one offset per dynamic-offset binding of its layout. */
HL_API hl_result hl_rhi_cmd_set_bind_group(hl_rhi_cmd *cmd, uint32_t index, hl_rhi_bind_group g,
                                    const uint32_t *dynamic_offsets, uint32_t dynamic_offset_count);
/** Binds buf (VERTEX usage) from offset to vertex buffer slot `slot`. */
HL_API hl_result hl_rhi_cmd_set_vertex_buffer(hl_rhi_cmd *cmd, uint32_t slot, hl_rhi_buffer buf, uint64_t offset);
/** Binds buf (INDEX usage) as the index buffer from offset. */
HL_API hl_result hl_rhi_cmd_set_index_buffer(hl_rhi_cmd *cmd, hl_rhi_buffer buf, hl_rhi_index_format format,
                                      uint64_t offset);
/** Viewport and scissor default to the full attachment at pass begin. */
HL_API hl_result hl_rhi_cmd_set_viewport(hl_rhi_cmd *cmd, float x, float y, float w, float h, float min_depth,
                                  float max_depth);
/** The scissor rectangle in pixels, inside the attachment; like the viewport's, its origin is
 * the top left of the image (the rows read back first). */
HL_API hl_result hl_rhi_cmd_set_scissor(hl_rhi_cmd *cmd, uint32_t x, uint32_t y, uint32_t w, uint32_t h);
/** The colour of the CONSTANT blend factors (default 0, 0, 0, 0). */
HL_API hl_result hl_rhi_cmd_set_blend_constant(hl_rhi_cmd *cmd, const float rgba[4]);
/** The stencil reference value (default 0). */
HL_API hl_result hl_rhi_cmd_set_stencil_reference(hl_rhi_cmd *cmd, uint32_t ref);
/** Draws vertex_count vertices from first_vertex, instance_count instances (first_instance != 0
 * needs HL_RHI_FEATURE_FIRST_INSTANCE). */
HL_API hl_result hl_rhi_cmd_draw(hl_rhi_cmd *cmd, uint32_t vertex_count, uint32_t instance_count,
                          uint32_t first_vertex, uint32_t first_instance);
/** Draws index_count indices of the bound index buffer (base_vertex != 0 needs
 * HL_RHI_FEATURE_BASE_VERTEX). */
HL_API hl_result hl_rhi_cmd_draw_indexed(hl_rhi_cmd *cmd, uint32_t index_count, uint32_t instance_count,
                                  uint32_t first_index, int32_t base_vertex, uint32_t first_instance);
/** Draws with arguments read by the GPU from buf (INDIRECT usage) at offset: four uint32
 * (vertex count, instance count, first vertex, first instance), or five for the indexed form
 * (index count, instance count, first index, base vertex, first instance). Needs
 * HL_RHI_FEATURE_INDIRECT_DRAW. */
HL_API hl_result hl_rhi_cmd_draw_indirect(hl_rhi_cmd *cmd, hl_rhi_buffer buf, uint64_t offset);
/** The indexed form of hl_rhi_cmd_draw_indirect (five uint32 at offset; the bound index buffer). */
HL_API hl_result hl_rhi_cmd_draw_indexed_indirect(hl_rhi_cmd *cmd, hl_rhi_buffer buf, uint64_t offset);

/** A prepared draw: everything one draw needs, bound through the command-state cache.
 * Fields equal to the previous packet's are not re-sent. */
typedef struct hl_rhi_draw_packet {
    hl_rhi_render_pipeline pipeline; /**< the pipeline (required) */
    hl_rhi_bind_group bind_groups[HL_RHI_MAX_BIND_GROUPS]; /**< groups 0..bind_group_count-1 */
    uint32_t dynamic_offsets[HL_RHI_MAX_BIND_GROUPS]; /**< one dynamic offset per group at most */
    uint8_t bind_group_count; /**< groups bound */
    uint8_t dynamic_offset_mask;  /**< bit g: group g takes dynamic_offsets[g] */
    uint8_t vertex_buffer_count; /**< vertex buffer slots bound */
    uint8_t indexed;              /**< 1 = draw_indexed with index_buffer/index_format */
    hl_rhi_buffer vertex_buffers[HL_RHI_MAX_VERTEX_BUFFERS]; /**< per slot */
    uint64_t vertex_offsets[HL_RHI_MAX_VERTEX_BUFFERS]; /**< per slot, bytes */
    hl_rhi_buffer index_buffer; /**< indexed draws */
    hl_rhi_index_format index_format; /**< indexed draws */
    uint64_t index_offset; /**< indexed draws, bytes */
    uint32_t count;            /**< vertices or indices */
    uint32_t instance_count;   /**< 0 = 1 */
    uint32_t first;            /**< first vertex or first index */
    int32_t base_vertex; /**< indexed draws (non-zero needs HL_RHI_FEATURE_BASE_VERTEX) */
    uint32_t first_instance; /**< non-zero needs HL_RHI_FEATURE_FIRST_INSTANCE */
} hl_rhi_draw_packet;

/** Records count packets in order; stops at the first invalid one (its index in *failed_index
 * when given). One call per batch, so per-draw work stays inside the backend loop. */
HL_API hl_result hl_rhi_cmd_draw_packets(hl_rhi_cmd *cmd, const hl_rhi_draw_packet *packets, uint32_t count,
                                  uint32_t *failed_index);

/* ---- render bundles ----------------------------------------------------------------------- */
/** @file
 * @par Render bundles
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
/** What a bundle is recorded from and for. */
typedef struct hl_rhi_render_bundle_desc {
    /** The colour attachments of the passes it is executed in, in order. */
    hl_rhi_format color_formats[HL_RHI_MAX_COLOR_ATTACHMENTS];
    uint32_t color_format_count;       /**< entries of color_formats in use */
    hl_rhi_format depth_format;        /**< UNDEFINED = no depth attachment */
    uint32_t sample_count;             /**< 0 = 1 */
    const hl_rhi_draw_packet *packets; /**< copied: the array may go after the call */
    uint32_t packet_count;             /**< >= 1 */
    const char *label;                 /**< for messages and native debug labels; NULL = none */
    /** The most packets the caller's bundles hold (0, or below packet_count: packet_count). The
     * bundle's arrays are sized as for that many packets (their share scaled up), from a free list
     * shared by the device's bundles: an owner that records bundles of varying sizes again and
     * again (a churned scene) then reuses arrays of one size and stops allocating. */
    uint32_t packet_room;
} hl_rhi_render_bundle_desc;

/** Validates and records desc's packets into a new bundle (see "Render bundles" above). */
HL_API hl_result hl_rhi_render_bundle_create(hl_rhi_device *dev, const hl_rhi_render_bundle_desc *desc,
                                             hl_rhi_render_bundle *out);
/** Destroys b (an invalid handle is a no-op). */
HL_API void hl_rhi_render_bundle_destroy(hl_rhi_device *dev, hl_rhi_render_bundle b);
/** True while b is alive and every object its packets name is the one it was recorded with and
 * alive (false for a stale or foreign handle). */
HL_API bool hl_rhi_render_bundle_is_current(hl_rhi_device *dev, hl_rhi_render_bundle b);
/** The number of packets of b (0 for an invalid handle). */
HL_API uint32_t hl_rhi_render_bundle_draw_count(hl_rhi_device *dev, hl_rhi_render_bundle b);
/** Executes count bundles in order inside the open render pass, whose colour formats, depth format
 * and sample count must equal each bundle's, and whose depth/stencil attachment must not be read
 * only. Each bundle starts with nothing bound, and afterwards the pass has no pipeline, bind
 * groups, vertex or index buffers bound (WebGPU's rule); viewport, scissor, blend constant and
 * stencil reference are the pass's, inside the bundles too, and stay. Counted in the device
 * stats as the draws and state changes of the packets. */
HL_API hl_result hl_rhi_cmd_execute_bundles(hl_rhi_cmd *cmd, const hl_rhi_render_bundle *bundles, uint32_t count);

/** Compute passes (HL_RHI_FEATURE_COMPUTE): open one (no pass may be open), bind a compute
 * pipeline and its groups (hl_rhi_cmd_set_bind_group), dispatch x * y * z workgroups, or the
 * three uint32 counts the GPU reads from buf (INDIRECT usage) at offset, then close it. */
HL_API hl_result hl_rhi_cmd_begin_compute_pass(hl_rhi_cmd *cmd, const char *label);
/** Closes the open compute pass. */
HL_API hl_result hl_rhi_cmd_end_compute_pass(hl_rhi_cmd *cmd);
/** Binds a compute pipeline for the dispatches that follow. */
HL_API hl_result hl_rhi_cmd_set_compute_pipeline(hl_rhi_cmd *cmd, hl_rhi_compute_pipeline p);
/** Dispatches x * y * z workgroups (each at most max_compute_workgroups_per_dimension). */
HL_API hl_result hl_rhi_cmd_dispatch(hl_rhi_cmd *cmd, uint32_t x, uint32_t y, uint32_t z);
/** Dispatches the three uint32 workgroup counts the GPU reads from buf (INDIRECT usage) at offset. */
HL_API hl_result hl_rhi_cmd_dispatch_indirect(hl_rhi_cmd *cmd, hl_rhi_buffer buf, uint64_t offset);

/* Copies and clears: outside passes. Sources need COPY_SRC usage, destinations COPY_DST. */
/** size bytes (a multiple of 4) from src_offset to dst_offset. */
HL_API hl_result hl_rhi_cmd_copy_buffer_to_buffer(hl_rhi_cmd *cmd, hl_rhi_buffer src, uint64_t src_offset,
                                           hl_rhi_buffer dst, uint64_t dst_offset, uint64_t size);
/** The texels of src_region into dst at (dst_x, dst_y, dst_z_or_layer) of dst_mip_level (same
 * format, same sample count). */
HL_API hl_result hl_rhi_cmd_copy_texture_to_texture(hl_rhi_cmd *cmd, hl_rhi_texture src,
                                             const hl_rhi_texture_region *src_region, hl_rhi_texture dst,
                                             uint32_t dst_mip_level, uint32_t dst_x, uint32_t dst_y,
                                             uint32_t dst_z_or_layer);
/** Buffer layout: rows of bytes_per_row (multiple of 256 on every backend, the portable rule). */
HL_API hl_result hl_rhi_cmd_copy_buffer_to_texture(hl_rhi_cmd *cmd, hl_rhi_buffer src, uint64_t src_offset,
                                            uint32_t bytes_per_row, hl_rhi_texture dst,
                                            const hl_rhi_texture_region *dst_region);
/** The texels of src_region into dst from dst_offset, rows of bytes_per_row (a multiple of 256). */
HL_API hl_result hl_rhi_cmd_copy_texture_to_buffer(hl_rhi_cmd *cmd, hl_rhi_texture src,
                                            const hl_rhi_texture_region *src_region, hl_rhi_buffer dst,
                                            uint64_t dst_offset, uint32_t bytes_per_row);
/** Zero-fills size bytes (0 = to the end); needs COPY_DST. */
HL_API hl_result hl_rhi_cmd_clear_buffer(hl_rhi_cmd *cmd, hl_rhi_buffer buf, uint64_t offset, uint64_t size);
/** Fills mip levels 1.. of a single-layer 2D colour texture from level 0: each texel one bilinear
 * sample of the level above at its centre (the 2x2 average for even sides), by the same shader
 * on both backends. Needs SAMPLED and RENDER_ATTACHMENT usage and a filterable, renderable
 * format. */
HL_API hl_result hl_rhi_cmd_generate_mipmaps(hl_rhi_cmd *cmd, hl_rhi_texture tex);

/* ---- program introspection (gles3) ----------------------------------------------------------- */
/** @file
 * @par Program introspection
 * What the driver reports for the program linked from a vertex shader and an optional
 * fragment shader: its active uniform blocks, the active uniforms (block members and
 * samplers) and the active vertex inputs. The program is the one the pipelines of these two
 * shaders share, so introspecting first links it once, not twice. The shader toolchain builds
 * a program's reflection from this where glslang and SPIRV-Cross are absent (the browser
 * build: src/shader's HL_SHADER_NO_GLSLANG). gles3 only: another backend is HL_ERR_UNSUPPORTED;
 * a program that does not link is HL_ERR_SHADER with the driver's log. */
/** The basic type of an introspected variable. */
typedef enum hl_rhi_scalar {
    HL_RHI_SCALAR_OTHER = 0, /**< a type the RHI does not name */
    HL_RHI_SCALAR_FLOAT,     /**< float, vecN, matCxR */
    HL_RHI_SCALAR_INT,       /**< int, ivecN */
    HL_RHI_SCALAR_UINT,      /**< uint, uvecN */
    HL_RHI_SCALAR_BOOL,      /**< bool, bvecN */
    HL_RHI_SCALAR_SAMPLER,   /**< dimension, sample_type and comparison say which */
} hl_rhi_scalar;

/** One active variable as the driver names it. Block members: "member", "member[0]" (an array
 * of a basic type: its first element stands for the whole array, array_size elements),
 * "s.field" (struct members one by one), "lights[1].color" (arrays of structs element by
 * element); GL puts "Block." in front where the block has an instance name. */
typedef struct hl_rhi_program_variable {
    const char *name;     /**< as above (owned by the hl_rhi_program_info) */
    hl_rhi_scalar scalar; /**< the basic type */
    uint32_t columns;     /**< scalars and vectors: 1; matrices: columns; samplers 0 */
    uint32_t rows;        /**< scalars and vectors: the components; matrices: rows; samplers 0 */
    uint32_t array_size;  /**< 1: not an array */
    int32_t block;        /**< index into hl_rhi_program_info.blocks; -1: outside a block */
    uint32_t offset;        /**< block members: the byte offset in the block (std140) */
    uint32_t array_stride;  /**< block members: bytes between array elements (0: not an array) */
    uint32_t matrix_stride; /**< block members: bytes between matrix columns (0: not a matrix) */
    int32_t location;                       /**< vertex inputs: the attribute location */
    hl_rhi_texture_dimension dimension;     /**< samplers: the texture dimension */
    hl_rhi_texture_sample_type sample_type; /**< samplers: DEPTH for shadow samplers */
    bool comparison;                        /**< samplers: a shadow sampler */
} hl_rhi_program_variable;

/** One active uniform block of a program. */
typedef struct hl_rhi_program_block {
    const char *name;   /**< the block (interface) name */
    uint32_t data_size; /**< bytes a buffer bound to it must cover (GL_UNIFORM_BLOCK_DATA_SIZE) */
    uint32_t stages;    /**< HL_RHI_STAGE_* of the shaders that reference it */
} hl_rhi_program_block;

/** What hl_rhi_program_introspect found (one allocation; hl_rhi_program_info_free). */
typedef struct hl_rhi_program_info {
    hl_rhi_program_block *blocks;      /**< the active uniform blocks */
    uint32_t block_count;              /**< entries of blocks */
    hl_rhi_program_variable *uniforms; /**< block members (block >= 0) and samplers (block -1) */
    uint32_t uniform_count;            /**< entries of uniforms */
    hl_rhi_program_variable *inputs;   /**< vertex inputs, built-ins (gl_*) left out */
    uint32_t input_count;              /**< entries of inputs */
} hl_rhi_program_info;

/** Introspects the program of vertex + fragment (fragment may be {0}: a depth-only program).
 * *out is one allocation owned by the caller (hl_rhi_program_info_free); it holds its names. */
HL_API hl_result hl_rhi_program_introspect(hl_rhi_device *dev, hl_rhi_shader vertex, hl_rhi_shader fragment,
                                           hl_rhi_program_info **out);
HL_API void hl_rhi_program_info_free(hl_rhi_program_info *info); /**< frees *info; NULL is fine */

#ifdef __cplusplus
}
#endif

#endif
