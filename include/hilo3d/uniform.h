/** @file
 * hilo3d: std140 layouts built from a schema, uniform buffers with named set, and the
 * uniform-block registry (seed 004 "custom GLSL and UBO contract").
 *
 *   uint32_t binding;
 *   hl_register_uniform_block_binding("EffectBlock", &binding);
 *   hl_std140_entry schema[] = {{"tint", HL_STD140_VEC4, 0}};
 *   hl_std140_layout *layout;  hl_std140_layout_create(schema, 1, &layout);
 *   hl_uniform_buffer *ub;     hl_uniform_buffer_create(layout, &ub);
 *   float tint[4] = {1, 0.5f, 0.2f, 1};
 *   hl_uniform_buffer_set(ub, "tint", tint, 4);
 *   hl_std140_layout_release(layout);  // the buffer keeps its own reference
 */
#ifndef HILO3D_UNIFORM_H
#define HILO3D_UNIFORM_H

#include <stdbool.h>
#include <stdint.h>

#include "hilo3d/export.h"
#include "hilo3d/result.h"
#include "hilo3d/revision.h"
#include "hilo3d/std140.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- std140 layout ------------------------------------------------------------------------ */
/** An immutable, reference-counted std140 layout with its member names. Created with one
 * reference; names are copied. hash is a 64-bit digest of (name, type, array_count) of every
 * member in order, so two stages can check they declare the same block. Schema rules and
 * size limits: hl_std140_compute (std140.h); sizes are uint32 byte counts. */
typedef struct hl_std140_layout hl_std140_layout;

/** Computes the layout of entries[0..count-1] (hl_std140_compute's rules; HL_ERR_VALIDATION naming
 * the entry) and returns it with one reference, names copied. */
HL_API hl_result hl_std140_layout_create(const hl_std140_entry *entries, uint32_t count, hl_std140_layout **out);
/** Adds a reference (NULL is a no-op). Not atomic: retain and release from one thread at a time. */
HL_API void hl_std140_layout_retain(hl_std140_layout *l);
/** Drops a reference; the last one frees the layout. NULL is a no-op. */
HL_API void hl_std140_layout_release(hl_std140_layout *l);
/** The block size in bytes (a multiple of 16); 0 for NULL. */
HL_API uint32_t hl_std140_layout_size(const hl_std140_layout *l);
/** The number of members (the schema's entry count); 0 for NULL. */
HL_API uint32_t hl_std140_layout_member_count(const hl_std140_layout *l);
/** i-th member in schema order; name/type/array_count optional out-params. NULL if i is out of range. */
HL_API const hl_std140_member *hl_std140_layout_member(const hl_std140_layout *l, uint32_t i, const char **name,
                                                hl_std140_type *type, uint32_t *array_count);
/** Index of the member called name, -1 if none (or l or name NULL). */
HL_API int32_t hl_std140_layout_find(const hl_std140_layout *l, const char *name);
/** The 64-bit digest of every member's (name, type, array_count) in order: equal layouts, equal
 * hashes. 0 for NULL. */
HL_API uint64_t hl_std140_layout_hash(const hl_std140_layout *l);

/* ---- uniform buffer ----------------------------------------------------------------------- */
/** A CPU block shaped by a layout (zero-filled at creation) whose writes record a merged
 * dirty byte range and bump the revision (see revision.h). Writing identical bytes changes
 * nothing. Reference counted (materials retain the buffers bound to them); created with one
 * reference; retains its layout. */
typedef struct hl_uniform_buffer hl_uniform_buffer;

/** A zero-filled block of layout's size, with one reference; it retains layout. */
HL_API hl_result hl_uniform_buffer_create(hl_std140_layout *layout, hl_uniform_buffer **out);
/** Adds a reference (NULL is a no-op). Not atomic, like every reference count of the scene layer. */
HL_API void hl_uniform_buffer_retain(hl_uniform_buffer *ub);
/** Drops a reference; the last one frees the buffer and releases its layout. NULL is a no-op. */
HL_API void hl_uniform_buffer_release(hl_uniform_buffer *ub);
/** References held (the creator's, and those of meshes, materials and renderers that use it);
 * 0 for NULL. A renderer releases its GPU copy once only its own reference is left. */
HL_API uint32_t hl_uniform_buffer_ref_count(const hl_uniform_buffer *ub);
/** values: value_count tightly packed 4-byte scalars (see std140.h; value_count * 4 bytes are
 * read), exactly the member's full scalar count. HL_ERR_NOT_FOUND for an unknown name,
 * HL_ERR_VALIDATION for a wrong count. */
HL_API hl_result hl_uniform_buffer_set(hl_uniform_buffer *ub, const char *name, const void *values, uint32_t value_count);
/** Same by member index (hl_std140_layout_find), no string compare: the renderer's path.
 * HL_ERR_NOT_FOUND for an index past the member count. */
HL_API hl_result hl_uniform_buffer_set_index(hl_uniform_buffer *ub, uint32_t member, const void *values,
                                      uint32_t value_count);
/** The layout the buffer was made with (the buffer's reference: retain it to keep it longer); NULL
 * for NULL. */
HL_API hl_std140_layout *hl_uniform_buffer_layout(const hl_uniform_buffer *ub);
/** The block's bytes, hl_uniform_buffer_size of them, as the GPU gets them; NULL for NULL. */
HL_API const void *hl_uniform_buffer_data(const hl_uniform_buffer *ub);
/** The block size in bytes (the layout's); 0 for NULL. */
HL_API uint32_t hl_uniform_buffer_size(const hl_uniform_buffer *ub);
/** Changes with every write that changed a byte; process-unique (revision.h); 0 for NULL. */
HL_API uint64_t hl_uniform_buffer_revision(const hl_uniform_buffer *ub);
/** What a consumer that last uploaded uploaded_revision must send now (revision.h); *range gets
 * the bytes for HL_UPLOAD_RANGE (the whole block for HL_UPLOAD_FULL). HL_UPLOAD_NONE for NULL. */
HL_API hl_upload_kind hl_uniform_buffer_upload(const hl_uniform_buffer *ub, uint64_t uploaded_revision,
                                        hl_dirty_range *range);
/** Empties the dirty range after a successful upload: later ranges start from the current
 * revision (the renderer calls it). NULL is a no-op. */
HL_API void hl_uniform_buffer_clear_dirty(hl_uniform_buffer *ub);

/* ---- uniform-block registry --------------------------------------------------------------- */
/** The most uniform block names the process-wide registry holds. */
#define HL_MAX_UNIFORM_BLOCKS 64

/** Registers a custom uniform block name in the process-wide table and gives its binding index
 * in *out_binding (optional). A custom block must be registered before the first render that
 * uses it; the renderer refuses an unregistered block (hl_uniform_block_binding returns false).
 * Registering is idempotent and returns the same binding index (0, 1, 2... in registration
 * order). At most HL_MAX_UNIFORM_BLOCKS names of up to 63 characters (GLSL identifiers; else
 * HL_ERR_VALIDATION). Not thread-safe: register during setup, before renderers run. */
HL_API hl_result hl_register_uniform_block_binding(const char *name, uint32_t *out_binding /* optional */);
/** true when name is registered, with its binding index in *out_binding (optional). */
HL_API bool hl_uniform_block_binding(const char *name, uint32_t *out_binding /* optional */);
/** The number of registered names. */
HL_API uint32_t hl_uniform_block_binding_count(void);
/** Forgets every registration (tests). */
HL_API void hl_uniform_block_bindings_reset(void);

#ifdef __cplusplus
}
#endif

#endif
