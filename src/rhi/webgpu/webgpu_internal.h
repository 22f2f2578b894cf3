/* hilo3d webgpu backend: state shared by the backend's files (never included elsewhere).
 *
 * One Dawn instance/adapter/device per hl_rhi_device. Dawn is loaded with dlopen once per
 * process into hl__wgpu (its function pointers); every call goes through WGPU(dev, Name),
 * which also counts the call in dev->stats.native_calls.
 *
 * Errors: Dawn reports validation / out-of-memory / internal errors through the
 * uncaptured-error callback, synchronously inside the failing call. The callback remembers
 * the first one; the next backend call that can fail returns it (hl__wgpu_take_error).
 * Device loss sets dev->lost and makes those calls return HL_ERR_DEVICE_LOST.
 *
 * Waits: Dawn answers through callbacks delivered by wgpuInstanceProcessEvents. Every wait
 * polls against a deadline (the device's wait timeout). A callback's record (hl__wgpu_req) is
 * on the heap so that a wait that gives up can leave it to the callback, which frees it when
 * it finally runs; the work-done callbacks of submissions share one heap record per device
 * (hl__wgpu_tracker) that outlives the device state while callbacks are outstanding.
 */
#ifndef HL_WEBGPU_INTERNAL_H
#define HL_WEBGPU_INTERNAL_H

#include "rhi_internal.h"
#include "webgpu_decl.h"

extern hl__wgpu_procs hl__wgpu;

#define WGPU(dev, name) (HL__NATIVE(dev), hl__wgpu.name)

/* The head of every callback record. */
typedef struct hl__wgpu_req {
    int done;      /* the callback ran */
    int abandoned; /* the waiter gave up: the callback frees the record */
    /* optional: releases what a late answer holds (a device, an adapter) before the free */
    void (*orphan)(struct hl__wgpu_req *req);
} hl__wgpu_req;

/* Ends every callback: marks the record done, or frees it when its waiter gave up. */
void hl__wgpu_req_finish(hl__wgpu_req *req);
/* Processes Dawn events until req->done, the deadline or (dev only) a device loss; dev may be
 * NULL (adapter requests), calls counts native calls. True when the callback ran. */
bool hl__wgpu_pump(hl_rhi_device *dev, WGPUInstance instance, hl__wgpu_req *req, uint64_t deadline,
                   uint64_t *calls);

/* Work-done bookkeeping of the submissions (userdata of their callbacks). */
typedef struct hl__wgpu_tracker {
    uint64_t completed_serial; /* highest serial whose work-done callback arrived */
    uint32_t pending;          /* callbacks not yet delivered */
    int orphaned;              /* the device is gone: the last callback frees the tracker */
} hl__wgpu_tracker;

/* GPU frame timing (hl_rhi_device_desc.gpu_timing, where the adapter has timestamp queries):
 * an empty compute pass opens each frame's first encoder with a timestamp and another closes
 * its last one with a second (the end-of-pass write follows every earlier command); the pair is
 * resolved and copied into the mappable buffer of the frame's slot and read once the frame has
 * completed (hl__wgpu_timing_collect). One heap block, like the tracker: map callbacks still
 * outstanding when the device goes free it. */
#define HL__WGPU_TIMING_SLOTS 4u
typedef struct hl__wgpu_timing_slot {
    WGPUBuffer read;  /* MapRead | CopyDst, 16 bytes */
    uint64_t serial;  /* the submitted frame whose timestamps it holds; 0: free */
    int mapping;      /* a map is outstanding */
    int mapped;       /* its callback ran */
    uint32_t status;  /* the callback's status */
} hl__wgpu_timing_slot;

typedef struct hl__wgpu_timing {
    WGPUQuerySet set;  /* 2 timestamps per slot */
    WGPUBuffer resolve; /* QueryResolve | CopySrc, 256 bytes per slot */
    hl__wgpu_timing_slot slot[HL__WGPU_TIMING_SLOTS];
    int frame_slot;     /* the open frame's slot, -1: the frame is not timed */
    uint32_t outstanding;
    int orphaned;
} hl__wgpu_timing;

/* Staged buffer writes (webgpu_resources.c). Dawn's queue writes above 4 MiB each get a new
 * mapped staging buffer (fresh memory, one page fault per 4 KiB: 12.8 MB of object matrices a
 * frame cost 15-19 ms on the H100 host): those writes copy into staging buffers of our own,
 * kept mapped between uses. A write takes a mapped slot at least its size, copies into it,
 * unmaps it, submits a copy into the buffer (queue order, as a queue write) and asks for the
 * slot to be mapped again (done once the copy has run). One heap block, like the timing
 * slots: map callbacks still outstanding when the device goes free it. */
#define HL__WGPU_STAGED_MIN (4u << 20) /* bytes: smaller writes go through Dawn's upload ring */
#define HL__WGPU_STAGING_SLOTS 8u
typedef struct hl__wgpu_staging_slot {
    WGPUBuffer buf;   /* MapWrite | CopySrc; NULL: the slot is empty */
    uint64_t size;
    int mapping;      /* a map is outstanding */
    int mapped;       /* mapped and free to write */
} hl__wgpu_staging_slot;

typedef struct hl__wgpu_staging {
    hl__wgpu_staging_slot slot[HL__WGPU_STAGING_SLOTS];
    uint32_t outstanding;
    int orphaned;
} hl__wgpu_staging;

typedef struct hl__wgpu_device {
    WGPUInstance instance;
    WGPUAdapter adapter;
    WGPUDevice device;
    WGPUQueue queue;

    /* open frame */
    WGPUCommandEncoder encoder;
    WGPURenderPassEncoder render_pass;
    WGPUComputePassEncoder compute_pass;
    /* a pipeline without colour targets was set on `encoder` (see hl__wgpu_begin_render_pass) */
    bool colorless_pipeline_set;
    hl__wgpu_tracker *tracker;
    uint64_t submitted_serial;
    hl__wgpu_timing *timing; /* NULL: frames are not timed */
    hl__wgpu_staging *staging; /* NULL until the first write above HL__WGPU_STAGED_MIN */

    /* first Dawn error since the last report */
    hl_result error_code;
    char error[1024];
    bool destroying;

    /* generate_mipmaps: shared objects, one pipeline per format (made on first use) */
    WGPUShaderModule mip_vs, mip_fs;
    WGPUBindGroupLayout mip_bgl;
    WGPUPipelineLayout mip_layout;
    WGPUSampler mip_sampler;
    WGPURenderPipeline mip_pipeline[HL_RHI_FORMAT_COUNT];
} hl__wgpu_device;

/* A shader module and the entry point it was created with. */
typedef struct hl__wgpu_shader {
    WGPUShaderModule module;
    char entry[64];
} hl__wgpu_shader;

static inline hl__wgpu_device *hl__wgpu_be(hl_rhi_device *dev) { return (hl__wgpu_device *)dev->be; }

static inline WGPUStringView hl__wgpu_str(const char *s) {
    WGPUStringView v;
    v.data = s;
    v.length = s ? WGPU_STRLEN : 0;
    return v;
}

/* Returns HL_OK, or the remembered Dawn error / device loss as a failure naming `what`. */
hl_result hl__wgpu_take_error(hl_rhi_device *dev, const char *what);
/* Waits for req's callback within the device's wait timeout. HL_OK: the callback ran, the
 * caller frees req. Otherwise (HL_ERR_TIMEOUT naming what, or the device's loss) req now
 * belongs to its callback: the caller must not touch it again. */
hl_result hl__wgpu_wait_req(hl_rhi_device *dev, hl__wgpu_req *req, const char *what);
/* Frame timing (webgpu_commands.c): reads the timestamps of completed frames into
 * dev->stats.gpu_frame_ns; block: wait (within the wait timeout) for the maps it starts. */
void hl__wgpu_timing_collect(hl_rhi_device *dev, bool block);
hl_result hl__wgpu_timing_create(hl_rhi_device *dev);
void hl__wgpu_timing_destroy(hl_rhi_device *dev);
/* Releases the staged-write slots (webgpu_resources.c). */
void hl__wgpu_staging_destroy(hl_rhi_device *dev);
/* For callers with their own flag (bench/): processes events until *flag becomes non-zero,
 * the device is lost or the wait timeout passed. The flag must stay valid until its callback
 * runs, even after a timeout. */
hl_result hl__wgpu_wait_flag(hl_rhi_device *dev, volatile int *flag, const char *what);

uint32_t hl__wgpu_format(hl_rhi_format f);
uint32_t hl__wgpu_texture_usage(uint32_t usage);

/* webgpu_resources.c / webgpu_commands.c / webgpu_mipmap.c entry points of the table */
hl_result hl__wgpu_buffer_create(hl_rhi_device *dev, hl__buffer *buf, const void *initial_data);
void hl__wgpu_buffer_destroy(hl_rhi_device *dev, hl__buffer *buf);
hl_result hl__wgpu_buffer_write(hl_rhi_device *dev, hl__buffer *buf, uint64_t offset, const void *data,
                                uint64_t size);
hl_result hl__wgpu_buffer_read(hl_rhi_device *dev, hl__buffer *buf, uint64_t offset, void *dst, uint64_t size);
hl_result hl__wgpu_texture_create(hl_rhi_device *dev, hl__texture *tex);
void hl__wgpu_texture_destroy(hl_rhi_device *dev, hl__texture *tex);
hl_result hl__wgpu_texture_write(hl_rhi_device *dev, hl__texture *tex, const hl_rhi_texture_region *region,
                                 const void *data, uint32_t row_pitch);
hl_result hl__wgpu_texture_read(hl_rhi_device *dev, hl__texture *tex, const hl_rhi_texture_region *region,
                                void *dst, uint32_t dst_row_pitch);
hl_result hl__wgpu_view_create(hl_rhi_device *dev, hl__texture *tex, hl__texture_view *view);
void hl__wgpu_view_destroy(hl_rhi_device *dev, hl__texture_view *view);
hl_result hl__wgpu_sampler_create(hl_rhi_device *dev, const hl_rhi_sampler_desc *desc, hl__native *be);
void hl__wgpu_sampler_destroy(hl_rhi_device *dev, hl__native be);
hl_result hl__wgpu_bgl_create(hl_rhi_device *dev, const hl__bind_group_layout *layout, hl__native *be);
void hl__wgpu_bgl_destroy(hl_rhi_device *dev, hl__native be);
hl_result hl__wgpu_pipeline_layout_create(hl_rhi_device *dev, const hl__pipeline_layout *layout,
                                          hl__bind_group_layout *const *groups, hl__native *be);
void hl__wgpu_pipeline_layout_destroy(hl_rhi_device *dev, hl__native be);
hl_result hl__wgpu_render_pipeline_create(hl_rhi_device *dev, const hl__render_pipeline_info *info,
                                          hl__native *be);
void hl__wgpu_render_pipeline_destroy(hl_rhi_device *dev, hl__native be);
hl_result hl__wgpu_shader_create(hl_rhi_device *dev, const hl_rhi_shader_desc *desc, hl__shader *shader);
void hl__wgpu_shader_destroy(hl_rhi_device *dev, hl__shader *shader);
hl_result hl__wgpu_bind_group_create(hl_rhi_device *dev, hl__bind_group *group, hl__bind_group_layout *layout);
void hl__wgpu_bind_group_destroy(hl_rhi_device *dev, hl__bind_group *group);
hl_result hl__wgpu_compute_pipeline_create(hl_rhi_device *dev, hl__compute_pipeline *p);
void hl__wgpu_compute_pipeline_destroy(hl_rhi_device *dev, hl__compute_pipeline *p);

hl_result hl__wgpu_begin_frame(hl_rhi_device *dev, uint64_t serial);
hl_result hl__wgpu_end_frame(hl_rhi_device *dev, uint64_t serial);
void hl__wgpu_abort_frame(hl_rhi_device *dev, uint64_t serial);
hl_result hl__wgpu_poll(hl_rhi_device *dev, uint64_t *completed_serial);
hl_result hl__wgpu_wait(hl_rhi_device *dev, uint64_t serial, uint64_t timeout_ns);

hl_result hl__wgpu_begin_render_pass(hl_rhi_cmd *cmd, const hl__render_pass_info *rp);
hl_result hl__wgpu_end_render_pass(hl_rhi_cmd *cmd);
void hl__wgpu_set_pipeline(hl_rhi_cmd *cmd, hl__render_pipeline *p);
void hl__wgpu_set_bind_group(hl_rhi_cmd *cmd, uint32_t index, hl__bind_group *g, const uint32_t *offsets,
                             uint32_t offset_count);
void hl__wgpu_set_vertex_buffer(hl_rhi_cmd *cmd, uint32_t slot, hl__buffer *buf, uint64_t offset);
void hl__wgpu_set_index_buffer(hl_rhi_cmd *cmd, hl__buffer *buf, hl_rhi_index_format format, uint64_t offset);
void hl__wgpu_set_viewport(hl_rhi_cmd *cmd, const float v[6]);
void hl__wgpu_set_scissor(hl_rhi_cmd *cmd, const uint32_t s[4]);
void hl__wgpu_set_blend_constant(hl_rhi_cmd *cmd, const float c[4]);
void hl__wgpu_set_stencil_reference(hl_rhi_cmd *cmd, uint32_t ref);
void hl__wgpu_draw(hl_rhi_cmd *cmd, uint32_t vertex_count, uint32_t instance_count, uint32_t first_vertex,
                   uint32_t first_instance);
void hl__wgpu_draw_indexed(hl_rhi_cmd *cmd, uint32_t index_count, uint32_t instance_count, uint32_t first_index,
                           int32_t base_vertex, uint32_t first_instance);
void hl__wgpu_draw_indirect(hl_rhi_cmd *cmd, hl__buffer *buf, uint64_t offset, bool indexed);
hl_result hl__wgpu_bundle_begin(hl_rhi_cmd *rec, const hl__render_bundle *b);
hl_result hl__wgpu_bundle_end(hl_rhi_cmd *rec, hl__render_bundle *b, bool discard);
void hl__wgpu_bundle_destroy(hl_rhi_device *dev, hl__render_bundle *b);
void hl__wgpu_execute_bundles(hl_rhi_cmd *cmd, hl__render_bundle *const *bundles, uint32_t count);
/* The draw-state commands into a recording render bundle (hl__rhi_backend_fns.bundle_fns). */
extern const hl__rhi_backend_fns hl__rhi_webgpu_bundle_fns;
hl_result hl__wgpu_begin_compute_pass(hl_rhi_cmd *cmd, const char *label);
hl_result hl__wgpu_end_compute_pass(hl_rhi_cmd *cmd);
void hl__wgpu_set_compute_pipeline(hl_rhi_cmd *cmd, hl__compute_pipeline *p);
void hl__wgpu_dispatch(hl_rhi_cmd *cmd, uint32_t x, uint32_t y, uint32_t z);
void hl__wgpu_dispatch_indirect(hl_rhi_cmd *cmd, hl__buffer *buf, uint64_t offset);
hl_result hl__wgpu_copy_buffer_to_buffer(hl_rhi_cmd *cmd, hl__buffer *src, uint64_t src_offset, hl__buffer *dst,
                                         uint64_t dst_offset, uint64_t size);
hl_result hl__wgpu_copy_texture_to_texture(hl_rhi_cmd *cmd, hl__texture *src, const hl_rhi_texture_region *src_region,
                                           hl__texture *dst, const hl_rhi_texture_region *dst_region);
hl_result hl__wgpu_copy_buffer_to_texture(hl_rhi_cmd *cmd, hl__buffer *src, uint64_t src_offset,
                                          uint32_t bytes_per_row, hl__texture *dst,
                                          const hl_rhi_texture_region *dst_region);
hl_result hl__wgpu_copy_texture_to_buffer(hl_rhi_cmd *cmd, hl__texture *src, const hl_rhi_texture_region *src_region,
                                          hl__buffer *dst, uint64_t dst_offset, uint32_t bytes_per_row);
hl_result hl__wgpu_clear_buffer(hl_rhi_cmd *cmd, hl__buffer *buf, uint64_t offset, uint64_t size);
hl_result hl__wgpu_generate_mipmaps(hl_rhi_cmd *cmd, hl__texture *tex);
/* webgpu_surface.c: window surfaces (the table's surface_* entries) */
hl_result hl__wgpu_surface_create(hl_rhi_device *dev, hl__surface *s);
void hl__wgpu_surface_destroy(hl_rhi_device *dev, hl__surface *s);
hl_result hl__wgpu_surface_configure(hl_rhi_device *dev, hl__surface *s, const hl_rhi_surface_config *config);
hl_result hl__wgpu_surface_acquire(hl_rhi_device *dev, hl__surface *s, hl__texture *tex,
                                   hl_rhi_surface_status *status);
hl_result hl__wgpu_surface_present(hl_rhi_device *dev, hl__surface *s, hl__texture *tex);
/* Releases the mipmap objects (device destroy). */
void hl__wgpu_mipmap_release(hl_rhi_device *dev);

/* A texture region as the copy calls name it (texture, mip, origin, all aspects) and its
 * extent (height and depth 0 mean 1). */
static inline WGPUTexelCopyTextureInfo hl__wgpu_texel_copy_info(hl__texture *tex, const hl_rhi_texture_region *r) {
    WGPUTexelCopyTextureInfo t;
    t.texture = tex->be.ptr;
    t.mipLevel = r->mip_level;
    t.origin.x = r->x;
    t.origin.y = r->y;
    t.origin.z = r->z_or_layer;
    t.aspect = WGPUTextureAspect_All;
    return t;
}

static inline WGPUExtent3D hl__wgpu_extent(const hl_rhi_texture_region *r) {
    WGPUExtent3D e = {r->width, r->height ? r->height : 1, r->depth_or_layers ? r->depth_or_layers : 1};
    return e;
}

#endif
