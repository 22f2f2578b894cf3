/* Declarations shared by the files of src/rhi/core only (backends use rhi_internal.h). */
#ifndef HL_RHI_CORE_PRIVATE_H
#define HL_RHI_CORE_PRIVATE_H

#include "rhi_internal.h"

/* ---- pool.c ---------------------------------------------------------------------------------- */
bool hl__pool_init(hl__pool *pool, uint32_t item_size, const char *type_name);
void hl__pool_release_memory(hl__pool *pool);
/* Takes a free slot (growing the pool when none is free), zeroes it and marks it live. */
bool hl__pool_alloc(hl_rhi_device *dev, uint32_t pool, uint32_t *out_id, void **out_item);
/* Lookup that also returns the slot index. */
void *hl__pool_lookup(hl_rhi_device *dev, uint32_t pool, uint32_t id, uint32_t *out_slot);
static inline void *hl__pool_item(hl__pool *p, uint32_t slot) { return p->items + (size_t)slot * p->item_size; }
/* Makes every handle of the slot stale (generation bump) and marks it a zombie. */
void hl__pool_retire(hl__pool *p, uint32_t slot);
/* Returns a retired slot to the free ring. */
void hl__pool_free_slot(hl__pool *p, uint32_t slot);
uint32_t hl__pool_make_id(const hl_rhi_device *dev, const hl__pool *p, uint32_t slot);
static inline uint32_t hl__handle_slot(uint32_t id) { return (id & ((1u << HL__HANDLE_INDEX_BITS) - 1u)) - 1u; }

/* ---- cache.c --------------------------------------------------------------------------------- */
enum { HL__CACHE_SAMPLER = 0, HL__CACHE_BGL, HL__CACHE_PIPELINE_LAYOUT, HL__CACHE_RENDER_PIPELINE, HL__CACHE_KIND_COUNT };
enum { HL__CACHE_FREE = 0, HL__CACHE_LIVE = 1, HL__CACHE_RELEASING = 2 };
#define HL__DEFERRED_CACHE 0xFFu /* hl__deferred_release.pool for a cache entry */

typedef hl_result (*hl__cache_create_fn)(hl_rhi_device *dev, void *ctx, hl__native *be);

/* Finds an entry with an equal key (refs++, cache hit) or creates one through create (miss).
 * Pipeline layout keys are hl__pipeline_layout_key, render pipeline keys hl__render_pipeline_info
 * with layout.id = the pipeline layout's cache index: the entry keeps those entries alive. */
hl_result hl__cache_acquire(hl_rhi_device *dev, uint8_t kind, const void *key, uint32_t key_size,
                            hl__cache_create_fn create, void *ctx, uint32_t *out_index);
void hl__cache_ref(hl_rhi_device *dev, uint32_t index);
/* Drops one reference; last_use: the serial of the last frame that used the releasing handle. */
void hl__cache_unref(hl_rhi_device *dev, uint32_t index, uint64_t last_use);
/* A new handle of `pool` for cache entry `index`: the slot gets init (init_size bytes at the
 * start of the object); without a free slot the cache reference is dropped again and NULL is
 * returned (HL_ERR_OUT_OF_MEMORY for the caller). */
void *hl__cached_handle(hl_rhi_device *dev, uint32_t pool, uint32_t index, const void *init, size_t init_size,
                        uint32_t *id);
/* Native release of an entry whose deferred serial completed. */
void hl__cache_release_entry(hl_rhi_device *dev, uint32_t index);
/* force: release every entry (device destroy), otherwise the unreferenced ones. */
void hl__cache_release_unreferenced(hl_rhi_device *dev, bool force);

typedef struct hl__pipeline_layout_key {
    uint32_t group_count;
    uint32_t group_cache[HL_RHI_MAX_BIND_GROUPS];
} hl__pipeline_layout_key;

/* ---- device.c -------------------------------------------------------------------------------- */
/* Common prologue of every call: device present and not lost. */
hl_result hl__check_device(const hl_rhi_device *dev, const char *fn);
/* Prologue of the void destroy calls: false (nothing to do) for a NULL device, or for a call
 * from a thread that does not own it (the message says so). */
static inline bool hl__may_destroy(hl_rhi_device *dev, const char *fn) {
    if (!dev) return false;
    if (hl__owned_here(dev)) return true;
    hl__fail_thread(dev, fn);
    return false;
}
/* Queues a native release once `serial` completed (or releases now when it has). */
bool hl__defer_release(hl_rhi_device *dev, uint8_t pool, uint32_t slot, uint64_t serial);
/* Waits (at most the device's wait timeout) until every submission completed; a timeout's
 * message names fn. The caller has checked the device. */
hl_result hl__wait_idle(hl_rhi_device *dev, const char *fn);
/* Cache entries holding a native object (live or waiting for release). */
uint32_t hl__cache_live_objects(const hl_rhi_device *dev);
/* Asks the backend for the completed serial and releases what became free. */
hl_result hl__update_completed(hl_rhi_device *dev);
/* Releases a retired (zombie) object slot: backend destroy, references, slot freed. */
void hl__release_slot(hl_rhi_device *dev, uint8_t pool, uint32_t slot);
/* Re-resolves object pointers cached in the command context after a pool moved. */
void hl__cmd_refresh_pointers(hl_rhi_device *dev);
/* Unbinds a handle being destroyed from the open pass's state cache (commands.c), so a stale
 * handle never compares equal to what is bound. */
void hl__cmd_forget(hl_rhi_device *dev, uint8_t pool, uint32_t id);

/* The packet loop of hl_rhi_cmd_draw_packets (checks, the command-state cache, cmd->fns) for an
 * open pass or a render bundle being recorded; fn names the call in messages. */
hl_result hl__cmd_draw_packet_list(hl_rhi_cmd *cmd, const hl_rhi_draw_packet *packets, uint32_t count,
                                   uint32_t *failed_index, const char *fn);
/* Nothing bound: every binding of the command-state cache (pass begin), or only the draw state
 * (pipeline, bind groups, vertex and index buffers: around render bundles). */
void hl__cmd_reset_bindings(hl_rhi_cmd *cmd);
void hl__cmd_reset_draw_state(hl_rhi_cmd *cmd);
/* Marks the object in slot of pool as used by the open frame (its release waits for the frame). */
void hl__rhi_use_object(hl_rhi_device *dev, uint32_t pool, uint32_t slot);

/* bundles.c: a released bundle's arrays go back to the device's free lists (or are freed). */
void hl__bundle_arrays_release(hl_rhi_device *dev, hl__render_bundle *b);
/* Frees the free lists' arrays (device memory release). */
void hl__bundle_arrays_free(hl_rhi_device *dev);

/* ---- objects.c ------------------------------------------------------------------------------- */
/* Retires one object handle of a non-cached pool (destroy path shared with texture -> views). */
void hl__destroy_object(hl_rhi_device *dev, uint8_t pool, uint32_t slot);


/* ---- format.c -------------------------------------------------------------------------------- */
static inline bool hl__format_valid(hl_rhi_format f) { return f > HL_RHI_FORMAT_UNDEFINED && f < HL_RHI_FORMAT_COUNT; }

#endif
