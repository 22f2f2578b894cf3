/* hilo3d render graph: declare a frame's passes and resources, compile (validate, order, cull,
 * lifetimes, transient reuse plan), execute it as one transaction on an RHI device.
 *
 * Internal engine API (like hl_rhi.h). The graph talks only to the RHI: it knows no scene, mesh
 * or material.
 *
 * One frame:
 *
 *   hl_graph_begin(g);                              reset the frame arena, builder, uploads
 *   t = hl_graph_create_texture(g, &desc, "hdr");   transient, pooled by the executor
 *   hl_graph_upload_buffer(g, ubo, 0, data, n, &delivered, rev);   joins the upload batch
 *   p = hl_graph_add_pass(g, "light", HL_GRAPH_PASS_RENDER, setup, prepare, execute, user, sizeof(params));
 *   hl_graph_compile(g, &info);                     optional: hl_graph_execute compiles if needed
 *   hl_graph_execute(g, &submission);               the frame transaction (below)
 *
 * Frame transaction of hl_graph_execute: compile -> validate uploads -> allocate/import live
 * resources -> prepare live passes -> hl_rhi_begin_frame -> flush uploads -> execute passes in
 * order -> hl_rhi_end_frame -> commit. Build, compile, import and prepare errors happen before
 * hl_rhi_begin_frame, and compile errors before any RHI object is created. On any failure
 * the RHI frame (if open) is aborted, the upload batch and the commit records are dropped and
 * transients go back to the pool; the caller's delivered revisions stay as they were, so the
 * next frame uploads again what this one did not deliver.
 *
 * Memory: the graph owns a frame arena (names, pass parameters, upload copies) and high-water
 * arrays for builder, compiler and executor; after warm-up, building, compiling and executing
 * the same graph makes no heap allocation.
 *
 * Errors: hl_result codes with a message naming pass and resource, e.g.
 * "pass 'blur' reads texture 'bloom1' before any pass writes it". Builder calls return a zero
 * handle on failure and keep the first failure; hl_graph_compile reports it. The kind of the
 * last compile rejection is hl_graph_error_kind(g).
 */
#ifndef HL_GRAPH_H
#define HL_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hl_rhi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- handles --------------------------------------------------------------------------------
 * Valid for the frame that made them (until the next hl_graph_begin): low 20 bits index + 1,
 * high 12 bits the frame's generation. id 0 is "none". A handle of another frame is rejected. */
typedef struct hl_graph_texture { uint32_t id; } hl_graph_texture;
typedef struct hl_graph_buffer { uint32_t id; } hl_graph_buffer;
typedef struct hl_graph_pass { uint32_t id; } hl_graph_pass;

typedef struct hl_graph hl_graph;                           /* opaque; one per device */
typedef struct hl_graph_pass_builder hl_graph_pass_builder; /* given to setup callbacks */
typedef struct hl_graph_ctx hl_graph_ctx;                   /* given to prepare and execute */
/* The execute-stage name for the same context (hl_graph_ctx_cmd is non-NULL there). */
typedef hl_graph_ctx hl_graph_execute_ctx;

/* ---- the graph object ------------------------------------------------------------------------ */
typedef struct hl_graph_desc {
    hl_rhi_device *device;      /* required; the graph must be destroyed before it */
    uint32_t arena_chunk_bytes; /* default 64 KiB; a larger request gets a chunk of its own, this size
                                   doubled until it fits */
    const char *label;
} hl_graph_desc;

hl_result hl_graph_create(const hl_graph_desc *desc, hl_graph **out);
/* Waits for the graph's submissions, destroys pooled transients and frees everything. */
void hl_graph_destroy(hl_graph *g);
/* Destroys pooled transients not in use by a pending submission (e.g. after a resize). */
void hl_graph_trim(hl_graph *g);

/* Starts a new frame: drops the previous frame's passes, resources, uploads and commit
 * records (a frame that was built but not executed is rolled back), resets the arena. */
void hl_graph_begin(hl_graph *g);

/* ---- resources -------------------------------------------------------------------------------
 * Transient: created (from the pool) by the executor, alive for this frame only. The usage
 * flags are the descriptor's plus those the declarations need (sampled, attachment, copy,
 * storage), so usage may be 0. label is ignored (the name labels the native object).
 * Buffers: initial_data must be NULL (use hl_graph_upload_buffer on an imported buffer). */
hl_graph_texture hl_graph_create_texture(hl_graph *g, const hl_rhi_texture_desc *desc, const char *name);
hl_graph_buffer hl_graph_create_buffer(hl_graph *g, const hl_rhi_buffer_desc *desc, const char *name);

/* Imported: an RHI object owned by the caller; its contents count as initialised. */
hl_graph_texture hl_graph_import_texture(hl_graph *g, hl_rhi_texture tex, const char *name);
hl_graph_buffer hl_graph_import_buffer(hl_graph *g, hl_rhi_buffer buf, const char *name);
/* An imported buffer with its size and RHI usage declared: a compile whose live passes need a
 * usage it lacks is rejected (HL_GRAPH_ERR_ACCESS, naming the buffer and the missing bits). */
hl_graph_buffer hl_graph_import_buffer_usage(hl_graph *g, hl_rhi_buffer buf, uint64_t size, uint32_t usage,
                                             const char *name);

/* Deferred import: the provider is called by hl_graph_execute only if a live pass uses the
 * texture, after compile and before prepare (the surface texture is acquired as late as
 * possible). desc describes what it will return (format, size, sample count; usage is
 * checked against the declarations); the returned texture must match it. */
typedef hl_result (*hl_graph_texture_provider)(void *user, hl_rhi_texture *out);
hl_graph_texture hl_graph_import_texture_deferred(hl_graph *g, const hl_rhi_texture_desc *desc,
                                                  hl_graph_texture_provider provider, void *user, const char *name);

/* Extracted: a transient whose ownership passes to the caller after a successful execute
 * (hl_graph_take_*; the caller destroys it). Extracted resources are never shared or pooled
 * and count as outputs (their writers are never culled). */
void hl_graph_extract_texture(hl_graph *g, hl_graph_texture tex);
void hl_graph_extract_buffer(hl_graph *g, hl_graph_buffer buf);
/* After a successful hl_graph_execute; {0} before, for a non-extracted or culled resource. */
hl_rhi_texture hl_graph_take_texture(hl_graph *g, hl_graph_texture tex);
hl_rhi_buffer hl_graph_take_buffer(hl_graph *g, hl_graph_buffer buf);

/* Marks a resource as a frame output: the passes that produce it are roots for culling. */
void hl_graph_mark_output_texture(hl_graph *g, hl_graph_texture tex);
void hl_graph_mark_output_buffer(hl_graph *g, hl_graph_buffer buf);

/* The resolved descriptor (defaults applied, usage including the declared needs after
 * compile); NULL for an invalid handle. */
const hl_rhi_texture_desc *hl_graph_texture_desc(const hl_graph *g, hl_graph_texture tex);
/* A buffer's descriptor: a transient's as created (usage completed by compile), an import's
 * size and usage when declared (hl_graph_import_buffer_usage), else zero; NULL if invalid. */
const hl_rhi_buffer_desc *hl_graph_buffer_desc(const hl_graph *g, hl_graph_buffer buf);

/* ---- passes ----------------------------------------------------------------------------------
 * setup: declarations only (no device, no commands); called inside hl_graph_add_pass with the
 *        pass's parameter block (params_size bytes of zeroed, frame-arena storage the setup
 *        fills; NULL when params_size is 0).
 * prepare (optional): live resources exist, no RHI frame is open: create pipelines, bind
 *        groups. Not called for culled passes.
 * execute: the only stage with a command context (hl_graph_ctx_cmd). No RHI pass is open on
 *        entry; the callback must close what it opens.
 * A non-OK result from any callback fails the frame (with its hl_last_error message). */
typedef enum hl_graph_pass_kind {
    HL_GRAPH_PASS_RENDER = 0, /* may declare attachments */
    HL_GRAPH_PASS_COMPUTE,
    HL_GRAPH_PASS_COPY,
} hl_graph_pass_kind;

typedef hl_result (*hl_graph_setup_fn)(hl_graph_pass_builder *b, void *params, void *user);
typedef hl_result (*hl_graph_prepare_fn)(hl_graph_ctx *ctx, void *params, void *user);
typedef hl_result (*hl_graph_execute_fn)(hl_graph_ctx *ctx, void *params, void *user);

hl_graph_pass hl_graph_add_pass(hl_graph *g, const char *name, hl_graph_pass_kind kind, hl_graph_setup_fn setup,
                                hl_graph_prepare_fn prepare, hl_graph_execute_fn execute, void *user,
                                size_t params_size);
/* `after` runs after `before` (an explicit edge; culling keeps `before` if `after` lives). */
void hl_graph_add_dependency(hl_graph *g, hl_graph_pass before, hl_graph_pass after);

/* ---- declarations (inside setup) -------------------------------------------------------------
 * Each returns HL_OK or records a build error (first one kept) and returns it. */
typedef struct hl_graph_color_attachment {
    hl_rhi_load_op load_op;   /* default CLEAR */
    hl_rhi_store_op store_op; /* default STORE; DISCARD makes later reads an error */
    float clear_color[4];
} hl_graph_color_attachment_desc;

typedef struct hl_graph_depth_attachment {
    hl_rhi_load_op depth_load_op; /* default CLEAR */
    hl_rhi_store_op depth_store_op;
    float depth_clear_value; /* used as given: set 1.0f for the usual clear */
    bool depth_read_only;    /* read-only depth (and stencil_read_only for stencil): a read */
    hl_rhi_load_op stencil_load_op;
    hl_rhi_store_op stencil_store_op;
    uint32_t stencil_clear_value;
    bool stencil_read_only;
} hl_graph_depth_attachment_desc;

hl_graph_pass hl_graph_builder_pass(const hl_graph_pass_builder *b);
hl_graph *hl_graph_builder_graph(hl_graph_pass_builder *b);

/* Sampled (texture binding) read. */
hl_result hl_graph_read_texture(hl_graph_pass_builder *b, hl_graph_texture tex);
/* Colour attachment at slot (0..HL_RHI_MAX_COLOR_ATTACHMENTS-1); desc NULL = clear to 0,
 * store. LOAD makes it a read too. */
hl_result hl_graph_color_attachment(hl_graph_pass_builder *b, uint32_t slot, hl_graph_texture tex,
                                    const hl_graph_color_attachment_desc *desc);
/* desc NULL = clear depth to 1.0, store. */
hl_result hl_graph_depth_attachment(hl_graph_pass_builder *b, hl_graph_texture tex,
                                    const hl_graph_depth_attachment_desc *desc);
/* Resolve target of colour slot `slot` (a single-sample texture of the same size/format). */
hl_result hl_graph_resolve_attachment(hl_graph_pass_builder *b, uint32_t slot, hl_graph_texture tex);
/* Copies: the source (read) and destination (write) declared as one exact pair. */
hl_result hl_graph_copy_texture(hl_graph_pass_builder *b, hl_graph_texture src, hl_graph_texture dst);
hl_result hl_graph_copy_buffer(hl_graph_pass_builder *b, hl_graph_buffer src, hl_graph_buffer dst);
/* A copy into part of dst: the rest of dst is kept, so the destination is read too (it needs an
 * earlier writer, and earlier writes into it are not dead). */
hl_result hl_graph_copy_buffer_part(hl_graph_pass_builder *b, hl_graph_buffer src, hl_graph_buffer dst);
hl_result hl_graph_copy_texture_to_buffer(hl_graph_pass_builder *b, hl_graph_texture src, hl_graph_buffer dst);
hl_result hl_graph_copy_buffer_to_texture(hl_graph_pass_builder *b, hl_graph_buffer src, hl_graph_texture dst);
/* Storage: read, write, or in-place read-write (only through this narrow call; a separate
 * read and write of one buffer in one pass is a feedback error). */
hl_result hl_graph_storage_read(hl_graph_pass_builder *b, hl_graph_buffer buf);
hl_result hl_graph_storage_write(hl_graph_pass_builder *b, hl_graph_buffer buf);
hl_result hl_graph_storage_read_write(hl_graph_pass_builder *b, hl_graph_buffer buf);
hl_result hl_graph_storage_write_texture(hl_graph_pass_builder *b, hl_graph_texture tex);
/* Buffer reads by the fixed-function stages and uniform reads. */
hl_result hl_graph_uniform_read(hl_graph_pass_builder *b, hl_graph_buffer buf);
hl_result hl_graph_vertex_read(hl_graph_pass_builder *b, hl_graph_buffer buf);
hl_result hl_graph_index_read(hl_graph_pass_builder *b, hl_graph_buffer buf);
hl_result hl_graph_indirect_read(hl_graph_pass_builder *b, hl_graph_buffer buf);
/* Clears done by the executor right before the pass's execute callback (zero-fill for a
 * buffer; colour/depth clear through an empty render pass for a texture). A write. */
hl_result hl_graph_clear_buffer(hl_graph_pass_builder *b, hl_graph_buffer buf);
hl_result hl_graph_clear_texture(hl_graph_pass_builder *b, hl_graph_texture tex, const float rgba_or_depth[4]);
/* Mip levels 1.. of a colour texture made from its level 0 in place (hl_rhi_cmd_generate_mipmaps
 * in the pass's execute, outside a render pass: declare it in a COPY pass). A read of level 0
 * and a write of the texture: it needs a writer before it, and readers after it see the mips.
 * Attachments of a texture with mips are its level 0. */
hl_result hl_graph_generate_mips(hl_graph_pass_builder *b, hl_graph_texture tex);
/* Explicit dependency on an earlier pass. */
hl_result hl_graph_depends_on(hl_graph_pass_builder *b, hl_graph_pass before);
/* The pass has effects outside the graph (readback, timestamps): never culled. */
hl_result hl_graph_side_effect(hl_graph_pass_builder *b);
/* Shorthands for hl_graph_mark_output_* / hl_graph_extract_* from inside setup. */
hl_result hl_graph_output_texture(hl_graph_pass_builder *b, hl_graph_texture tex);
hl_result hl_graph_output_buffer(hl_graph_pass_builder *b, hl_graph_buffer buf);
hl_result hl_graph_extract_texture_in(hl_graph_pass_builder *b, hl_graph_texture tex);
hl_result hl_graph_extract_buffer_in(hl_graph_pass_builder *b, hl_graph_buffer buf);

/* ---- uploads and commit records (seed §1.5) ---------------------------------------------------
 * Uploads join the frame's batch: data is copied into the frame arena at once; the batch is
 * validated before allocation and flushed once, after hl_rhi_begin_frame and before the first
 * pass. delivered (optional) is the caller's "delivered revision" of that resource: set to
 * revision only after the frame's valid submission, left alone when the frame fails. Offsets
 * and sizes follow hl_rhi_buffer_write / hl_rhi_texture_write. Calls between hl_graph_begin and
 * hl_graph_execute (setup callbacks included). */
hl_result hl_graph_upload_buffer(hl_graph *g, hl_rhi_buffer buf, uint64_t offset, const void *data, uint64_t size,
                                 uint64_t *delivered, uint64_t revision);
/* As hl_graph_upload_buffer without the copy: the batch reads data itself when it is flushed, so
 * data must stay valid and unchanged until hl_graph_execute returns (or the frame is abandoned).
 * For memory the caller keeps anyway (the renderer's CPU copy of its object blocks), whose copy
 * would only cost a memcpy of the whole batch. */
hl_result hl_graph_upload_buffer_kept(hl_graph *g, hl_rhi_buffer buf, uint64_t offset, const void *data, uint64_t size,
                                      uint64_t *delivered, uint64_t revision);
hl_result hl_graph_upload_texture(hl_graph *g, hl_rhi_texture tex, const hl_rhi_texture_region *region,
                                  const void *data, uint32_t row_pitch, uint32_t data_size, uint64_t *delivered,
                                  uint64_t revision);
/* A general commit record: *slot = value after a valid submission, nothing otherwise (e.g. a
 * resource's "used in frame N" mark). */
hl_result hl_graph_commit_on_submit(hl_graph *g, uint64_t *slot, uint64_t value);
/* count commit records at once (as many hl_graph_commit_on_submit calls, in order). */
typedef struct hl_graph_commit {
    uint64_t *slot;
    uint64_t value;
} hl_graph_commit;
hl_result hl_graph_commits_on_submit(hl_graph *g, const hl_graph_commit *commits, uint32_t count);

/* ---- compile ---------------------------------------------------------------------------------- */
/* What a compile rejected (hl_graph_error_kind); the hl_result is HL_ERR_VALIDATION except for
 * UNSUPPORTED (HL_ERR_UNSUPPORTED) and BUILD (the builder's own code). */
#define HL_GRAPH_ERRORS(X)                                                                                      \
    X(HL_GRAPH_ERR_NONE, "none")                                                                                \
    X(HL_GRAPH_ERR_BUILD, "a builder call failed")                                                              \
    X(HL_GRAPH_ERR_DESCRIPTOR, "invalid resource descriptor")                                                   \
    X(HL_GRAPH_ERR_UNSUPPORTED, "descriptor not supported by the device")                                       \
    X(HL_GRAPH_ERR_UNINITIALIZED_READ, "read of a resource no earlier pass wrote")                              \
    X(HL_GRAPH_ERR_READ_AFTER_DISCARD, "read of a resource whose last write was discarded")                     \
    X(HL_GRAPH_ERR_FEEDBACK, "a pass reads and writes one resource in a non-portable way")                     \
    X(HL_GRAPH_ERR_ATTACHMENT_SIZE, "attachments of a pass differ in size")                                     \
    X(HL_GRAPH_ERR_SAMPLE_COUNT, "attachments of a pass differ in sample count")                                \
    X(HL_GRAPH_ERR_CYCLE, "dependency cycle")                                                                   \
    X(HL_GRAPH_ERR_ACCESS, "an access does not fit the pass kind or resource")

typedef enum hl_graph_error {
#define HL__GRAPH_ERR_ENUM(name, text) name,
    HL_GRAPH_ERRORS(HL__GRAPH_ERR_ENUM)
#undef HL__GRAPH_ERR_ENUM
    HL_GRAPH_ERR_COUNT
} hl_graph_error;

const char *hl_graph_error_name(hl_graph_error e);
hl_graph_error hl_graph_error_kind(const hl_graph *g);

/* Per-frame diagnostics. Compile fills passes, resources and bytes; execute fills created /
 * reused. Bytes are of live transients: without reuse (each its own object), with the reuse
 * the executor does (textures equal but for usage, or equal buffers, with disjoint lifetimes
 * share one object), the offset planner's heap size (what an aliasing API could reach) and
 * the lower bound (the most bytes live at any one pass). */
typedef struct hl_graph_stats {
    uint32_t passes_total, passes_culled;
    uint32_t textures_total, buffers_total, resources_culled;
    uint32_t transient_objects;          /* native objects the plan needs this frame */
    uint32_t transient_textures_created; /* new RHI textures made this frame */
    uint32_t transient_textures_reused;  /* transient textures served by an existing object */
    uint32_t transient_buffers_created, transient_buffers_reused;
    uint64_t bytes_without_reuse, bytes_with_reuse, bytes_lower_bound;
    uint64_t bytes_offset_plan; /* 0 until hl_graph_offset_plan computes it for the frame */
    uint32_t uploads;
    uint64_t upload_bytes;
    /* CPU time of the last hl_graph_execute by phase (ns): compile (validation, order, culling,
       lifetimes, the reuse plan) + allocation of transients; prepare callbacks; execute (begin
       frame, uploads, clears and pass callbacks: command encoding); submit (end frame) */
    uint64_t compile_ns, prepare_ns, execute_ns, submit_ns;
} hl_graph_stats;

/* Compile result; pointers stay valid until the next hl_graph_begin. */
typedef struct hl_graph_compiled {
    const hl_graph_pass *order; /* live passes in execution order */
    uint32_t order_count;
    const hl_graph_stats *stats;
} hl_graph_compiled;

/* Runs the stages: validate descriptors -> hazard edges -> rejections -> stable topological
 * order -> culling -> lifetimes -> transient reuse plan. out may be NULL. Idempotent within a
 * frame; adding passes afterwards needs a new compile (hl_graph_execute does it). */
hl_result hl_graph_compile(hl_graph *g, hl_graph_compiled *out);

bool hl_graph_pass_is_culled(const hl_graph *g, hl_graph_pass p);
/* Execution positions of the first and last live pass using the resource; false if culled. */
bool hl_graph_texture_lifetime(const hl_graph *g, hl_graph_texture t, uint32_t *first, uint32_t *last);
bool hl_graph_buffer_lifetime(const hl_graph *g, hl_graph_buffer b, uint32_t *first, uint32_t *last);
/* Index of the native object slot a live transient uses this frame (equal = shared object);
 * UINT32_MAX for imported, culled or invalid. */
uint32_t hl_graph_texture_slot(const hl_graph *g, hl_graph_texture t);
uint32_t hl_graph_buffer_slot(const hl_graph *g, hl_graph_buffer b);
const hl_graph_stats *hl_graph_get_stats(const hl_graph *g);
/* The offset planner's heap size for the transients of the last compiled frame (also stored in
 * its stats.bytes_offset_plan, which is 0 until asked): what an aliasing API could reach. Not
 * computed by the compile itself: it is O(n^2) in transient resources, a diagnostic. */
uint64_t hl_graph_offset_plan(hl_graph *g);

/* Writes the compiled frame as Graphviz DOT: passes in execution order (culled ones grey and
 * dashed), resources (transients sharing a native object carry the same slot label), edges
 * coloured by access kind. Compiles first if needed. */
hl_result hl_graph_write_dot(hl_graph *g, FILE *f);

/* ---- execute ---------------------------------------------------------------------------------- */
/* The frame transaction (see the top of this file). submission may be NULL. */
hl_result hl_graph_execute(hl_graph *g, hl_rhi_submission *submission);

/* ---- context for prepare / execute ------------------------------------------------------------ */
hl_rhi_device *hl_graph_ctx_device(hl_graph_ctx *ctx);
hl_rhi_cmd *hl_graph_ctx_cmd(hl_graph_ctx *ctx); /* NULL in prepare */
hl_graph_pass hl_graph_ctx_pass(hl_graph_ctx *ctx);
/* RHI objects of live resources ({0} for an invalid, culled or unresolved handle). The view
 * is the whole texture. */
hl_rhi_texture hl_graph_ctx_texture(hl_graph_ctx *ctx, hl_graph_texture t);
hl_rhi_texture_view hl_graph_ctx_view(hl_graph_ctx *ctx, hl_graph_texture t);
hl_rhi_buffer hl_graph_ctx_buffer(hl_graph_ctx *ctx, hl_graph_buffer b);
/* Begins the render pass the setup declared (attachments, resolves, load/store/clear). */
hl_result hl_graph_ctx_begin_render_pass(hl_graph_ctx *ctx);

/* ---- the aliasing planner (seed 002): pure functions ---------------------------------------
 * Lifetimes are execution positions [first_use, last_use]; two resources may share memory
 * when their intervals do not overlap. */
typedef struct hl_graph_lifetime {
    const char *name; /* optional; ties on first_use are broken by name, then by index */
    uint64_t bytes;
    uint32_t first_use, last_use;
} hl_graph_lifetime;

typedef struct hl_graph_alias_plan {
    uint32_t slots;       /* memory blocks (first-fit, none) or 1 heap (offsets) */
    uint64_t total_bytes; /* sum of slot sizes, or the heap size */
} hl_graph_alias_plan;

bool hl_graph_lifetimes_overlap(const hl_graph_lifetime *a, const hl_graph_lifetime *b);
/* Vulkan-style first fit: by first_use, each resource goes into the first slot whose members
 * all have disjoint lifetimes, else a new slot; a slot is as large as its largest member.
 * slot_of[n] receives each resource's slot; scratch holds n entries. */
void hl_graph_plan_first_fit(const hl_graph_lifetime *lt, uint32_t n, uint32_t *slot_of, uint32_t *scratch,
                             hl_graph_alias_plan *out);
/* No aliasing: one slot per resource (slot_of may be NULL). */
void hl_graph_plan_none(const hl_graph_lifetime *lt, uint32_t n, uint32_t *slot_of, hl_graph_alias_plan *out);
/* Offset planner: largest first, each resource at the lowest offset (multiple of alignment,
 * 0 = 1) free over its whole lifetime. offset_of[n] receives offsets; scratch holds 2n entries. */
void hl_graph_plan_offsets(const hl_graph_lifetime *lt, uint32_t n, uint64_t alignment, uint64_t *offset_of,
                           uint32_t *scratch, hl_graph_alias_plan *out);
/* The most bytes live at any one position: no plan can use less. */
uint64_t hl_graph_plan_lower_bound(const hl_graph_lifetime *lt, uint32_t n);

/* ---- synthetic frames (graph-dump, benchmarks, tests) ---------------------------------------
 * A render pass that samples `reads`, renders into `colors` (clear, store) and optionally
 * `depth`, and whose execute opens and closes that render pass (no draws). Handles {0} in
 * the arrays are skipped. */
hl_graph_pass hl_graph_add_synthetic_pass(hl_graph *g, const char *name, const hl_graph_texture *reads,
                                          uint32_t read_count, const hl_graph_texture *colors, uint32_t color_count,
                                          hl_graph_texture depth);
/* The typical deferred frame: G-buffer (3 colour targets + depth), lighting, a 5-level bloom
 * chain (bright pass + 4 downsamples, 4 upsamples), tone map, output onto a deferred import
 * (surface provider, width x height RGBA8 with RENDER_ATTACHMENT), plus a debug pass nobody
 * reads (culled). Call after hl_graph_begin. *out_surface (optional) = the output texture. */
hl_result hl_graph_build_example_deferred(hl_graph *g, uint32_t width, uint32_t height,
                                          hl_graph_texture_provider surface, void *surface_user,
                                          hl_graph_texture *out_surface);

/* Bytes of a texture: every mip and layer, times the sample count (4 per texel for depth
 * formats without a copyable size). */
uint64_t hl_graph_texture_bytes(const hl_rhi_texture_desc *desc);

#ifdef __cplusplus
}
#endif

#endif
