/* RHI core internals shared by the core and the backends (never included above src/rhi).
 *
 * The core owns every object's slot, descriptor copy, validation, caches, frame scope and
 * command-state cache. A backend receives only validated calls with resolved object pointers
 * and keeps its native object in the object's `be` field. Backend dispatch happens through
 * one function table (hl__rhi_backend_fns) chosen at device creation.
 */
#ifndef HL_RHI_INTERNAL_H
#define HL_RHI_INTERNAL_H

#include <stdatomic.h>

#include "hl_base.h" /* hl__malloc, hl__fail, hl__reserve, hashing */
#include "hl_rhi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- native object storage ----------------------------------------------------------------- */
typedef union hl__native {
    void *ptr;
    uint64_t u64;
    uint32_t u32[2];
} hl__native;

/* ---- objects (all fields owned by the core except `be`) ------------------------------------- */
typedef struct hl__buffer {
    hl_rhi_buffer_desc desc; /* label and initial_data are NULL after creation */
    uint64_t last_use_serial; /* serial of the last frame that used it */
    uint64_t write_frame_guard; /* internal: frame serial whose passes used it */
    hl__native be;
} hl__buffer;

typedef struct hl__texture {
    hl_rhi_texture_desc desc; /* defaults applied; label NULL */
    uint64_t last_use_serial;
    hl__native be;
    uint32_t surface; /* a surface's frame texture: the surface's handle id (0: an ordinary
                         texture). The native object belongs to the surface: the backend's
                         texture_destroy releases only what acquire took */
} hl__texture;

typedef struct hl__texture_view {
    hl_rhi_texture texture;
    hl__texture *tex_ptr_unsafe; /* valid only while `texture` is live (checked by the core) */
    hl_rhi_texture_view_desc desc; /* resolved: dimension, counts filled, label NULL */
    hl_rhi_format format;
    uint32_t width, height; /* of base_mip_level */
    uint32_t sample_count;
    hl__native be;
} hl__texture_view;

/* A device-cache entry: one native object shared by equal descriptors (core/cache.c). */
typedef struct hl__cache_entry {
    uint64_t hash;
    void *key; /* key bytes (core-owned) */
    uint32_t key_size;
    uint32_t refs; /* live handles using it */
    uint64_t last_use_serial;
    uint64_t lru_tick;
    hl__native be;
    uint8_t kind;
    uint8_t used;
} hl__cache_entry;

typedef struct hl__sampler {
    hl_rhi_sampler_desc desc; /* defaults applied; label NULL */
    uint32_t cache_index;
    hl__native be; /* copy of the cache entry's native object */
} hl__sampler;

typedef struct hl__shader {
    hl_rhi_shader_stage stage;
    bool is_wgsl;
    bool outputs_known;   /* fragment: output_mask is the locations it writes */
    uint32_t output_mask;
    hl__native be;
} hl__shader;

typedef struct hl__bind_group_layout {
    hl_rhi_bind_group_layout_entry entries[HL_RHI_MAX_BINDINGS]; /* sorted by binding */
    uint32_t entry_count;
    uint32_t dynamic_count; /* entries with has_dynamic_offset, in binding order */
    uint32_t cache_index;
    hl__native be;
} hl__bind_group_layout;

typedef struct hl__bind_group {
    hl_rhi_bind_group_layout layout;
    hl__bind_group_layout *layout_ptr_unsafe; /* valid while `layout` is live */
    hl_rhi_bind_group_entry entries[HL_RHI_MAX_BINDINGS]; /* sorted by binding, sizes resolved */
    uint32_t entry_count;
    hl__native be;
    uint32_t layout_cache_index; /* core: the layout's cache entry (kept alive by the group) */
} hl__bind_group;

typedef struct hl__pipeline_layout {
    hl_rhi_bind_group_layout groups[HL_RHI_MAX_BIND_GROUPS];
    uint32_t group_count;
    uint32_t cache_index;
    hl__native be;
} hl__pipeline_layout;

/* A copy of a render pipeline descriptor without pointers, used by backends to create the
 * native pipeline and by the core for pass compatibility checks and as cache key. */
typedef struct hl__render_pipeline_info {
    hl_rhi_pipeline_layout layout;
    hl_rhi_shader vertex, fragment;
    uint32_t vertex_buffer_count;
    uint32_t vb_stride[HL_RHI_MAX_VERTEX_BUFFERS];
    bool vb_per_instance[HL_RHI_MAX_VERTEX_BUFFERS];
    uint32_t vb_attribute_count[HL_RHI_MAX_VERTEX_BUFFERS];
    hl_rhi_vertex_attribute attributes[HL_RHI_MAX_VERTEX_ATTRIBUTES]; /* buffer 0's first */
    uint32_t attribute_count;
    hl_rhi_topology topology;
    hl_rhi_index_format strip_index_format;
    hl_rhi_cull_mode cull_mode;
    hl_rhi_front_face front_face;
    hl_rhi_depth_stencil_state depth_stencil; /* defaults applied */
    hl_rhi_color_target_state color_targets[HL_RHI_MAX_COLOR_ATTACHMENTS]; /* defaults applied */
    uint32_t color_target_count;
    uint32_t sample_count;
    bool alpha_to_coverage;
} hl__render_pipeline_info;

typedef struct hl__render_pipeline {
    hl__render_pipeline_info info;
    uint32_t cache_index;
    hl__native be;
} hl__render_pipeline;

typedef struct hl__compute_pipeline {
    hl_rhi_pipeline_layout layout;
    hl_rhi_shader compute;
    const hl_rhi_constant *constants; /* the descriptor's, during the backend's create only */
    uint32_t constant_count;
    hl__native be;
    uint32_t layout_cache_index; /* core: the pipeline layout's cache entry (kept alive) */
} hl__compute_pipeline;

/* A window's surface (core/surface.c). */
typedef struct hl__surface {
    hl_rhi_surface_desc desc;     /* label NULL */
    hl_rhi_surface_caps caps;     /* read once at creation */
    hl_rhi_surface_config config; /* defaults applied; valid when configured */
    bool configured;
    hl_rhi_texture texture;       /* the acquired frame texture, {0} when none */
    uint64_t last_use_serial;     /* the last frame that used one of its textures */
    hl_rhi_surface_status forced; /* hl_rhi_surface_test_force_status (OPTIMAL: none) */
    hl__native be;
} hl__surface;

/* One object a render bundle's packets name (its pipelines, bind groups, vertex and index buffers,
 * and what its bind groups bind): the slot and the slot's birth number when the bundle was
 * recorded. The bundle is current while every such slot is live with the same birth. */
typedef struct hl__bundle_use {
    uint32_t pool;
    uint32_t slot;
    uint32_t birth;
} hl__bundle_use;

/* The kinds of arrays a bundle keeps (core/bundles.c's size classes, recycled through
 * hl_rhi_device.bundle_free): the core's packets and uses, and a backend's recording in bytes
 * (gles3: its resolved draws). hl__bundle_array_take gives an array of at least `need` items of
 * `elem` bytes and its class (NULL: out of memory); hl__bundle_array_give takes it back. */
enum { HL__BUNDLE_ARRAY_PACKETS, HL__BUNDLE_ARRAY_USES, HL__BUNDLE_ARRAY_BACKEND, HL__BUNDLE_ARRAY_KINDS };
void *hl__bundle_array_take(hl_rhi_device *dev, int kind, uint32_t need, size_t elem, uint32_t *klass);
void hl__bundle_array_give(hl_rhi_device *dev, int kind, void *a, uint32_t klass);

typedef struct hl__render_bundle {
    hl_rhi_format color_formats[HL_RHI_MAX_COLOR_ATTACHMENTS]; /* the layout it was recorded for */
    uint32_t color_format_count;
    hl_rhi_format depth_format;
    uint32_t sample_count;
    hl_rhi_draw_packet *packets; /* the core's copy: 2^packet_class items (dev->bundle_free) */
    uint32_t packet_count, packet_class;
    uint32_t packet_room; /* desc.packet_room, at least packet_count (hl__bundle_room_need) */
    hl__bundle_use *uses;        /* 2^use_class items */
    uint32_t use_count, use_class;
    /* the state changes its packets make from nothing bound (device stats at execute) */
    uint32_t pipeline_switches, bind_group_switches, vertex_buffer_switches;
    hl__native be; /* backends that record bundles (bundle_begin): the native bundle */
} hl__render_bundle;
/* What an array of b holding `need` items is asked for: need scaled by the bundle's packet room
 * (desc.packet_room over packet_count), so that arrays come from one size class whatever the
 * bundle's size. */
uint32_t hl__bundle_room_need(const hl__render_bundle *b, uint32_t need);

/* ---- pools: typed handles with generation ---------------------------------------------------- */
enum {
    HL__POOL_BUFFER,
    HL__POOL_TEXTURE,
    HL__POOL_VIEW,
    HL__POOL_SAMPLER,
    HL__POOL_SHADER,
    HL__POOL_BGL,
    HL__POOL_BIND_GROUP,
    HL__POOL_PIPELINE_LAYOUT,
    HL__POOL_RENDER_PIPELINE,
    HL__POOL_COMPUTE_PIPELINE,
    HL__POOL_SURFACE,
    HL__POOL_RENDER_BUNDLE,
    HL__POOL_COUNT
};

#define HL__HANDLE_INDEX_BITS 20u
#define HL__HANDLE_GEN_BITS 8u
#define HL__HANDLE_TAG_BITS 4u

typedef struct hl__pool {
    uint8_t *items;        /* capacity * item_size */
    uint8_t *generation;   /* per slot */
    uint8_t *state;        /* HL__SLOT_* */
    uint32_t *free_list;   /* FIFO ring of free slot indices */
    uint32_t free_head, free_count;
    uint32_t capacity, used;
    uint32_t item_size;
    const char *type_name; /* "buffer", ... for messages */
    uint64_t *last_use;    /* per slot: serial of the last frame that used it */
    uint32_t *birth;       /* per slot: the device's creation number of its object (render bundles) */
} hl__pool;

enum { HL__SLOT_FREE = 0, HL__SLOT_LIVE, HL__SLOT_ZOMBIE };

/* ---- command context ----------------------------------------------------------------------- */
typedef enum hl__pass_kind { HL__PASS_NONE = 0, HL__PASS_RENDER, HL__PASS_COMPUTE } hl__pass_kind;

/* Resolved render pass: what the backend needs to begin it. */
typedef struct hl__render_pass_info {
    uint32_t color_count;
    hl__texture_view *color[HL_RHI_MAX_COLOR_ATTACHMENTS];
    hl__texture_view *resolve[HL_RHI_MAX_COLOR_ATTACHMENTS]; /* NULL = none */
    hl_rhi_color_attachment color_desc[HL_RHI_MAX_COLOR_ATTACHMENTS];
    hl__texture_view *depth; /* NULL = none */
    hl_rhi_depth_stencil_attachment depth_desc;
    uint32_t width, height, sample_count;
    /* the attachment layout (pipelines and bundles are checked against it) */
    hl_rhi_format color_format[HL_RHI_MAX_COLOR_ATTACHMENTS];
    hl_rhi_format depth_format; /* UNDEFINED = none */
} hl__render_pass_info;

struct hl_rhi_cmd {
    hl_rhi_device *dev;
    /* where the draw-state commands of the packet loop go: the backend's table for the frame's
       context; for a render bundle being recorded the backend's bundle table (or the core's no-op
       one where the core keeps the packets), with native_encoder the backend's recording */
    const struct hl__rhi_backend_fns *fns;
    void *native_encoder;
    hl__pass_kind pass;
    hl__render_pass_info rp;
    /* command-state cache: what is bound in the open pass */
    uint32_t pipeline_id;
    hl__render_pipeline *pipeline;
    uint32_t compute_pipeline_id;
    hl__compute_pipeline *compute_pipeline;
    uint32_t bind_group_id[HL_RHI_MAX_BIND_GROUPS];
    uint32_t bind_group_offsets[HL_RHI_MAX_BIND_GROUPS][HL_RHI_MAX_BINDINGS];
    uint32_t bind_group_offset_count[HL_RHI_MAX_BIND_GROUPS];
    uint32_t vertex_buffer_id[HL_RHI_MAX_VERTEX_BUFFERS];
    uint64_t vertex_buffer_offset[HL_RHI_MAX_VERTEX_BUFFERS];
    uint32_t index_buffer_id;
    hl_rhi_index_format index_format;
    uint64_t index_offset;
    uint64_t index_available; /* indices in the bound index buffer from index_offset on */
    float viewport[6];
    uint32_t scissor[4];
    uint32_t stencil_ref;
    float blend_constant[4];
    /* core-private validation state (backends ignore it) */
    uint64_t serial;    /* serial of the open frame */
    bool draw_dirty;    /* pipeline / bind groups / vertex buffers changed since the last check */
    uint32_t layout_group_count;                       /* bound pipeline's layout */
    uint32_t layout_group_cache[HL_RHI_MAX_BIND_GROUPS]; /* its groups' cache entries */
    uint32_t bind_group_cache[HL_RHI_MAX_BIND_GROUPS];   /* bound groups' layout cache entries */
    /* Rebinding the bound group with new dynamic offsets (the per-draw case) is checked
     * against limits captured when the group was bound: the largest valid offset and the
     * alignment of each dynamic binding. */
    uint64_t dyn_max_offset[HL_RHI_MAX_BIND_GROUPS][HL_RHI_MAX_BINDINGS];
    uint32_t dyn_align[HL_RHI_MAX_BIND_GROUPS][HL_RHI_MAX_BINDINGS];
    uint32_t bound_group_slot[HL_RHI_MAX_BIND_GROUPS];
};

/* ---- backend function table ----------------------------------------------------------------
 * Every function receives validated arguments. Create functions fill obj->be; destroy
 * functions release it (called by the core once no pending submission uses the object).
 * Functions returning hl_result report native failures (HL_ERR_BACKEND, HL_ERR_DEVICE_LOST,
 * HL_ERR_OUT_OF_MEMORY, HL_ERR_SHADER) with hl__fail. Every native API call increments
 * dev->stats.native_calls (the HL__NATIVE macro below). */
typedef struct hl__rhi_backend_fns {
    hl_rhi_backend backend;
    const char *name;

    hl_result (*probe)(const hl_rhi_requirements *req, const hl_rhi_device_desc *desc, char *adapter_name,
                       size_t adapter_name_size);
    /* Creates the native device, fills dev->caps and dev->be (dev->wait_timeout_ns is set). */
    hl_result (*device_create)(hl_rhi_device *dev, const hl_rhi_device_desc *desc);
    /* Must not block past dev->destroy_deadline (see there). */
    void (*device_destroy)(hl_rhi_device *dev);

    hl_result (*buffer_create)(hl_rhi_device *dev, hl__buffer *buf, const void *initial_data);
    void (*buffer_destroy)(hl_rhi_device *dev, hl__buffer *buf);
    hl_result (*buffer_write)(hl_rhi_device *dev, hl__buffer *buf, uint64_t offset, const void *data,
                              uint64_t size);
    /* Called outside a frame after all submissions completed. */
    hl_result (*buffer_read)(hl_rhi_device *dev, hl__buffer *buf, uint64_t offset, void *dst, uint64_t size);

    hl_result (*texture_create)(hl_rhi_device *dev, hl__texture *tex);
    void (*texture_destroy)(hl_rhi_device *dev, hl__texture *tex);
    /* region resolved (no zero extents); row_pitch resolved (>= width * texel size) */
    hl_result (*texture_write)(hl_rhi_device *dev, hl__texture *tex, const hl_rhi_texture_region *region,
                               const void *data, uint32_t row_pitch);
    hl_result (*texture_read)(hl_rhi_device *dev, hl__texture *tex, const hl_rhi_texture_region *region,
                              void *dst, uint32_t dst_row_pitch);

    hl_result (*view_create)(hl_rhi_device *dev, hl__texture *tex, hl__texture_view *view);
    void (*view_destroy)(hl_rhi_device *dev, hl__texture_view *view);

    /* Cached objects: the native object lives in the cache entry; create fills *be. */
    hl_result (*sampler_create)(hl_rhi_device *dev, const hl_rhi_sampler_desc *desc, hl__native *be);
    void (*sampler_destroy)(hl_rhi_device *dev, hl__native be);
    hl_result (*bgl_create)(hl_rhi_device *dev, const hl__bind_group_layout *layout, hl__native *be);
    void (*bgl_destroy)(hl_rhi_device *dev, hl__native be);
    hl_result (*pipeline_layout_create)(hl_rhi_device *dev, const hl__pipeline_layout *layout,
                                        hl__bind_group_layout *const *groups, hl__native *be);
    void (*pipeline_layout_destroy)(hl_rhi_device *dev, hl__native be);
    hl_result (*render_pipeline_create)(hl_rhi_device *dev, const hl__render_pipeline_info *info,
                                        hl__native *be);
    void (*render_pipeline_destroy)(hl_rhi_device *dev, hl__native be);

    hl_result (*shader_create)(hl_rhi_device *dev, const hl_rhi_shader_desc *desc, hl__shader *shader);
    void (*shader_destroy)(hl_rhi_device *dev, hl__shader *shader);

    /* entries resolved: resources looked up, sizes filled */
    hl_result (*bind_group_create)(hl_rhi_device *dev, hl__bind_group *group, hl__bind_group_layout *layout);
    void (*bind_group_destroy)(hl_rhi_device *dev, hl__bind_group *group);

    hl_result (*compute_pipeline_create)(hl_rhi_device *dev, hl__compute_pipeline *p);
    void (*compute_pipeline_destroy)(hl_rhi_device *dev, hl__compute_pipeline *p);

    /* Frame scope. serial is the submission serial this frame will get. */
    hl_result (*begin_frame)(hl_rhi_device *dev, uint64_t serial);
    hl_result (*end_frame)(hl_rhi_device *dev, uint64_t serial);
    void (*abort_frame)(hl_rhi_device *dev, uint64_t serial);
    /* Returns the highest serial known complete (non-blocking), or blocks until `serial` is
     * complete when wait is true (timeout_ns: UINT64_MAX forever). */
    hl_result (*poll)(hl_rhi_device *dev, uint64_t *completed_serial);
    hl_result (*wait)(hl_rhi_device *dev, uint64_t serial, uint64_t timeout_ns);

    /* Commands (cmd->dev is the device; the core has already updated nothing in cmd for the
     * call being made: backends may read cmd->rp and cmd->pipeline). */
    hl_result (*begin_render_pass)(hl_rhi_cmd *cmd, const hl__render_pass_info *rp);
    hl_result (*end_render_pass)(hl_rhi_cmd *cmd);
    void (*set_pipeline)(hl_rhi_cmd *cmd, hl__render_pipeline *p);
    void (*set_bind_group)(hl_rhi_cmd *cmd, uint32_t index, hl__bind_group *g, const uint32_t *offsets,
                           uint32_t offset_count);
    void (*set_vertex_buffer)(hl_rhi_cmd *cmd, uint32_t slot, hl__buffer *buf, uint64_t offset);
    void (*set_index_buffer)(hl_rhi_cmd *cmd, hl__buffer *buf, hl_rhi_index_format format, uint64_t offset);
    void (*set_viewport)(hl_rhi_cmd *cmd, const float v[6]);
    void (*set_scissor)(hl_rhi_cmd *cmd, const uint32_t s[4]);
    void (*set_blend_constant)(hl_rhi_cmd *cmd, const float c[4]);
    void (*set_stencil_reference)(hl_rhi_cmd *cmd, uint32_t ref);
    void (*draw)(hl_rhi_cmd *cmd, uint32_t vertex_count, uint32_t instance_count, uint32_t first_vertex,
                 uint32_t first_instance);
    void (*draw_indexed)(hl_rhi_cmd *cmd, uint32_t index_count, uint32_t instance_count, uint32_t first_index,
                         int32_t base_vertex, uint32_t first_instance);
    void (*draw_indirect)(hl_rhi_cmd *cmd, hl__buffer *buf, uint64_t offset, bool indexed);
    /* The packet loop's per-draw case (optional; NULL: set_bind_group per changed group, then
     * draw or draw_indexed): packets p[0..n) bind the bound pipeline, groups, vertex and index
     * buffers, and each takes its own checked dynamic_offsets[g] for the groups of dyn (bit g:
     * group g; the same for the whole run); draws them in order, in one call. */
    void (*draw_run)(hl_rhi_cmd *cmd, const hl_rhi_draw_packet *p, uint32_t n, uint32_t dyn);

    /* Render bundles recorded natively (optional: with bundle_begin NULL the core keeps the packets
     * and draws them at execute through the pass commands above). bundle_begin opens a recording
     * for b's layout into rec->native_encoder; the validated packets then reach it through
     * bundle_fns (its set_pipeline, set_bind_group, set_vertex_buffer, set_index_buffer, draw and
     * draw_indexed, called with rec); bundle_end finishes it into b->be, or drops it (discard: a
     * packet failed). execute_bundles runs validated bundles in the open render pass; afterwards
     * nothing is bound in it. */
    const struct hl__rhi_backend_fns *bundle_fns;
    hl_result (*bundle_begin)(hl_rhi_cmd *rec, const hl__render_bundle *b);
    hl_result (*bundle_end)(hl_rhi_cmd *rec, hl__render_bundle *b, bool discard);
    void (*bundle_destroy)(hl_rhi_device *dev, hl__render_bundle *b);
    void (*execute_bundles)(hl_rhi_cmd *cmd, hl__render_bundle *const *bundles, uint32_t count);

    hl_result (*begin_compute_pass)(hl_rhi_cmd *cmd, const char *label);
    hl_result (*end_compute_pass)(hl_rhi_cmd *cmd);
    void (*set_compute_pipeline)(hl_rhi_cmd *cmd, hl__compute_pipeline *p);
    void (*dispatch)(hl_rhi_cmd *cmd, uint32_t x, uint32_t y, uint32_t z);
    void (*dispatch_indirect)(hl_rhi_cmd *cmd, hl__buffer *buf, uint64_t offset);

    hl_result (*copy_buffer_to_buffer)(hl_rhi_cmd *cmd, hl__buffer *src, uint64_t src_offset, hl__buffer *dst,
                                       uint64_t dst_offset, uint64_t size);
    /* regions resolved (no zero extents) */
    hl_result (*copy_texture_to_texture)(hl_rhi_cmd *cmd, hl__texture *src, const hl_rhi_texture_region *src_region,
                                         hl__texture *dst, const hl_rhi_texture_region *dst_region);
    hl_result (*copy_buffer_to_texture)(hl_rhi_cmd *cmd, hl__buffer *src, uint64_t src_offset,
                                        uint32_t bytes_per_row, hl__texture *dst,
                                        const hl_rhi_texture_region *dst_region);
    hl_result (*copy_texture_to_buffer)(hl_rhi_cmd *cmd, hl__texture *src, const hl_rhi_texture_region *src_region,
                                        hl__buffer *dst, uint64_t dst_offset, uint32_t bytes_per_row);
    hl_result (*clear_buffer)(hl_rhi_cmd *cmd, hl__buffer *buf, uint64_t offset, uint64_t size);
    hl_result (*generate_mipmaps)(hl_rhi_cmd *cmd, hl__texture *tex);

    /* Optional (NULL = nothing cached): forget cached native state (interop). */
    void (*invalidate_native_state)(hl_rhi_device *dev);

    /* Optional (NULL = no thread affinity): thread hand-over. detach releases the native
     * context from the calling thread (the owner); attach makes it current on the calling
     * thread (the new owner). */
    void (*thread_detach)(hl_rhi_device *dev);
    hl_result (*thread_attach)(hl_rhi_device *dev);

    /* Surfaces (all NULL: the backend makes none, HL_ERR_UNSUPPORTED). create fills s->be and
     * s->caps (desc validated; dev->desc.display is the window system); configure gets the
     * config with defaults applied and checked against the caps, never while a texture is
     * acquired. acquire fills tex->be of a texture slot the core made from the config (desc
     * set, tex->surface set) and *status; HL_OK with status OUTDATED / TIMEOUT / LOST means no
     * texture (the core frees the slot). present shows tex (outside any frame; the core retires
     * the texture afterwards). texture_destroy receives surface textures too (tex->surface). */
    hl_result (*surface_create)(hl_rhi_device *dev, hl__surface *s);
    void (*surface_destroy)(hl_rhi_device *dev, hl__surface *s);
    hl_result (*surface_configure)(hl_rhi_device *dev, hl__surface *s, const hl_rhi_surface_config *config);
    hl_result (*surface_acquire)(hl_rhi_device *dev, hl__surface *s, hl__texture *tex, hl_rhi_surface_status *status);
    hl_result (*surface_present)(hl_rhi_device *dev, hl__surface *s, hl__texture *tex);

    /* Optional (NULL: the lost flag alone tells): polls the native device for a loss and sets
     * dev->lost (with the backend's error) when it finds one. */
    void (*check_lost)(hl_rhi_device *dev);
    /* Takes the native device away as a real loss would, then detects it the same way (sets
     * dev->lost through the backend's detection). */
    void (*simulate_loss)(hl_rhi_device *dev);

    /* Optional (NULL: HL_ERR_UNSUPPORTED): hl_rhi_program_introspect; fs may be NULL. *out is
     * one hl__malloc'd block (hl__program_info_alloc). */
    hl_result (*program_introspect)(hl_rhi_device *dev, hl__shader *vs, hl__shader *fs, hl_rhi_program_info **out);
} hl__rhi_backend_fns;

/* One block for an hl_rhi_program_info with room for the counts given and name_bytes of names
 * (the arrays point into it; names are stored after them: hl__program_info_name). NULL when out
 * of memory. */
hl_rhi_program_info *hl__program_info_alloc(uint32_t blocks, uint32_t uniforms, uint32_t inputs, size_t name_bytes);
/* Copies a name into the block's name storage (cursor: bytes used so far); NULL when it does
 * not fit. */
const char *hl__program_info_name(hl_rhi_program_info *info, size_t *cursor, size_t name_bytes, const char *name,
                                  size_t len);

/* ---- device -------------------------------------------------------------------------------- */
typedef struct hl__deferred_release {
    uint64_t serial; /* release once this serial completed */
    uint8_t pool;
    uint32_t slot;
} hl__deferred_release;

struct hl_rhi_device {
    const hl__rhi_backend_fns *fns;
    hl_rhi_caps caps;
    hl_rhi_stats stats;
    uint32_t tag; /* HL__HANDLE_TAG_BITS-wide device tag in handles */
    hl__pool pools[HL__POOL_COUNT];

    /* device caches */
    hl__cache_entry *cache;
    uint32_t cache_count, cache_capacity, cache_limit;
    uint64_t cache_tick;

    /* frame scope */
    bool frame_open;
    uint64_t next_serial;      /* serial the next begin_frame gets (starts at 1) */
    uint64_t completed_serial; /* every serial <= this has completed */
    uint64_t last_submitted_serial;
    hl_rhi_cmd cmd;

    hl__deferred_release *deferred;
    uint32_t deferred_count, deferred_capacity;

    bool lost;
    void *be; /* backend device state (NULL after a failed recreate) */
    /* hl_rhi_device_recreate: true from the old device's destroy to the new one's create. A
       backend may keep something of the old device for the new one in recreate_keep (gles3: its
       EGL display, still referenced, so that a recovery does not terminate and re-initialize
       it); its create takes it back whether it succeeds or not. */
    bool recreating;
    void *recreate_keep;
    uint64_t generation; /* 1, then +1 per recreate */
    char lost_reason[256]; /* set by the backend that noticed the loss (hl_rhi_device_lost_reason) */
    /* the description the device was made from (strings copied): recreate makes the next one */
    hl_rhi_device_desc desc;
    char desc_dawn_path[512];
    char desc_label[64];

    /* Every implicit wait (wait_idle, reads, creation callbacks, a full fence ring, destroy)
     * gives up after this long; UINT64_MAX = never. Backends read it directly. */
    uint64_t wait_timeout_ns;
    /* Set when the backend's device_destroy runs: its own final waits end by this time (the
     * core's wait for the submissions used the rest of the same timeout). A backend whose GPU
     * is still busy then releases what does not block and leaves the rest to the driver. */
    uint64_t destroy_deadline;
    /* Owner thread (hl__thread_id), 0 = detached; owner_tid is its OS thread id (messages). */
    _Atomic uint64_t owner;
    _Atomic long owner_tid;

    /* Benchmarks' capture of what the device is asked to draw (hl__rhi_set_tap); NULL = off. */
    const struct hl__rhi_tap *tap;

    /* render bundles (core/bundles.c): a bundle's packets are being validated and recorded (uses
       by the open frame are not stamped then); every object's creation number (hl__pool.birth);
       the arrays of released bundles by kind (HL__BUNDLE_ARRAY_*) and size class (2^k items),
       taken by new ones, so that bundles recorded again and again allocate nothing once warm;
       the use list being collected (high-water) */
    bool recording_bundle;
    uint32_t births;
    struct hl__bundle_free {
        void **items;
        uint32_t count, capacity;
        uint32_t total; /* arrays of the class in existence (the list has room for all) */
    } bundle_free[HL__BUNDLE_ARRAY_KINDS][32];
    uint32_t bundle_top_class[HL__BUNDLE_ARRAY_KINDS]; /* the largest class made so far: new arrays are made of it */
    hl__bundle_use *bundle_uses;
    uint32_t bundle_use_capacity;
};

/* ---- capture for benchmarks ---------------------------------------------------------------------
 * bench/scene_draws replays, straight against webgpu.h or GLES, the render passes and draw
 * packets the engine recorded in one frame, on the engine's own native objects: the raw loop then
 * does exactly the engine's API work. The taps see each render pass as it begins and each packet
 * list as it is drawn (after validation); they must not call back into the device. Costs one
 * branch per pass and per packet list when unset. */
typedef struct hl__rhi_tap {
    void (*render_pass)(void *user, const hl_rhi_render_pass_desc *desc);
    void (*packets)(void *user, const hl_rhi_draw_packet *packets, uint32_t count);
    void *user;
} hl__rhi_tap;
void hl__rhi_set_tap(hl_rhi_device *dev, const hl__rhi_tap *tap);

#define HL__NATIVE(dev) ((dev)->stats.native_calls++)

/* ---- threads and deadlines (core/thread.c) ---------------------------------------------------- */
/* A process-unique id of the calling thread (never 0, never reused). */
extern _Thread_local uint64_t hl__tls_thread_id;
uint64_t hl__thread_id_assign(void);
static inline uint64_t hl__thread_id(void) {
    uint64_t id = hl__tls_thread_id;
    return id ? id : hl__thread_id_assign();
}
/* OS thread id of the calling thread. */
long hl__thread_os_id(void);
/* "thread 4711 (\"worker\")": an OS thread id of this process and its name when known. */
void hl__thread_describe(long os_tid, char *buf, size_t size);
/* Makes the calling thread the owner (ids only: no backend call). */
void hl__set_owner_here(hl_rhi_device *dev);
/* True when the calling thread owns dev (one thread-local read and one relaxed load). */
static inline bool hl__owned_here(const hl_rhi_device *dev) {
    return atomic_load_explicit(&((hl_rhi_device *)dev)->owner, memory_order_relaxed) == hl__thread_id();
}
/* HL_ERR_INVALID_STATE naming fn, the owner and the calling thread. */
hl_result hl__fail_thread(const hl_rhi_device *dev, const char *fn);

/* Monotonic clock. */
/* now + timeout_ns, saturating (UINT64_MAX = no deadline). */
uint64_t hl__deadline(uint64_t timeout_ns);
/* Nanoseconds left until deadline (0 when passed; UINT64_MAX for no deadline). */
uint64_t hl__time_left(uint64_t deadline);
/* wait_timeout_ms of a device desc resolved to nanoseconds (0 = default, FOREVER = UINT64_MAX). */
uint64_t hl__wait_timeout_ns(uint32_t timeout_ms);
/* "200 ms", "1.5 s", "no limit": a duration for messages (buf of at least 32 bytes). */
const char *hl__duration_text(uint64_t ns, char *buf, size_t size);

/* Looks up a live object of a pool by handle id; NULL if stale/destroyed/foreign (no message). */
void *hl__pool_get(hl_rhi_device *dev, uint32_t pool, uint32_t id);

/* Backend tables (each defined in its backend library; the selector links them all). */
extern const hl__rhi_backend_fns hl__rhi_null_backend;
extern const hl__rhi_backend_fns hl__rhi_webgpu_backend;
extern const hl__rhi_backend_fns hl__rhi_gles3_backend;
/* Null backend, for tests of waits: from now on every submission takes latency_ns of
 * simulated GPU time (one after the other); 0 = complete at once. No-op on other backends. */
void hl__rhi_null_set_latency(hl_rhi_device *dev, uint64_t latency_ns);

/* Device creation with a given backend table (core/device.c). The public
 * hl_rhi_device_create and hl_rhi_probe live in src/rhi/select, the one place that knows
 * every backend: it resolves AUTO and requirements, then calls this. */
hl_result hl__rhi_device_create_with(const hl__rhi_backend_fns *fns, const hl_rhi_device_desc *desc,
                                     hl_rhi_device **out);

/* Texel block size (bytes) of a copyable format, 0 if not copyable. */
uint32_t hl__format_texel_size(hl_rhi_format f);
/* Extent of a mip level (at least 1). */
static inline uint32_t hl__mip_extent(uint32_t base, uint32_t level) {
    uint32_t v = base >> level;
    return v ? v : 1u;
}

/* ---- surface.c: the device description's window system --------------------------------------
 * In range, a display when not NONE (none for CANVAS); CANVAS outside the Emscripten build is
 * HL_ERR_UNSUPPORTED. Checked before backend selection (hl_rhi_device_create, rhi/select) and
 * again at device creation, so no native call precedes a refusal. */
hl_result hl__validate_display(const hl_rhi_native_display *d, const char *fn);

#ifdef __cplusplus
}
#endif

#endif
