/* Device-owned bounded caches of samplers, bind group layouts, pipeline layouts and render
 * pipelines. An entry owns one native object shared by every handle made from an equal
 * descriptor (the key: resolved descriptor bytes, labels excluded). Entries without live
 * handles stay for reuse until the cache is full; then the least recently used unreferenced
 * entry is released (deferred while a submission may still use it). */
#include <string.h>

#include "core_private.h"

/* Entries an entry keeps alive: pipeline layout -> its group layouts, pipeline -> its layout. */
static uint32_t hl__cache_deps(const hl__cache_entry *e, uint32_t deps[HL_RHI_MAX_BIND_GROUPS]) {
    if (e->kind == HL__CACHE_PIPELINE_LAYOUT) {
        const hl__pipeline_layout_key *k = e->key;
        for (uint32_t i = 0; i < k->group_count; i++) deps[i] = k->group_cache[i];
        return k->group_count;
    }
    if (e->kind == HL__CACHE_RENDER_PIPELINE) {
        const hl__render_pipeline_info *k = e->key;
        deps[0] = k->layout.id;
        return 1;
    }
    return 0;
}

static void hl__cache_native_destroy(hl_rhi_device *dev, hl__cache_entry *e) {
    const hl__rhi_backend_fns *f = dev->fns;
    switch (e->kind) {
    case HL__CACHE_SAMPLER: f->sampler_destroy(dev, e->be); break;
    case HL__CACHE_BGL: f->bgl_destroy(dev, e->be); break;
    case HL__CACHE_PIPELINE_LAYOUT: f->pipeline_layout_destroy(dev, e->be); break;
    case HL__CACHE_RENDER_PIPELINE: f->render_pipeline_destroy(dev, e->be); break;
    default: break;
    }
}

void hl__cache_release_entry(hl_rhi_device *dev, uint32_t index) {
    hl__cache_entry *e = &dev->cache[index];
    if (e->used == HL__CACHE_FREE) return;
    hl__cache_native_destroy(dev, e);
    uint32_t deps[HL_RHI_MAX_BIND_GROUPS];
    uint32_t n = hl__cache_deps(e, deps);
    uint64_t last_use = e->last_use_serial;
    hl__free(e->key);
    memset(e, 0, sizeof *e);
    for (uint32_t i = 0; i < n; i++) hl__cache_unref(dev, deps[i], last_use);
}

/* Releases an unreferenced entry now, or queues it while a submission may use it. */
static void hl__cache_retire(hl_rhi_device *dev, uint32_t index) {
    hl__cache_entry *e = &dev->cache[index];
    if (e->last_use_serial > dev->completed_serial) {
        e->used = HL__CACHE_RELEASING;
        if (hl__defer_release(dev, HL__DEFERRED_CACHE, index, e->last_use_serial)) return;
        /* Out of memory for the queue: wait for the GPU instead of leaking. */
        hl_rhi_device_wait_idle(dev);
    }
    hl__cache_release_entry(dev, index);
}

void hl__cache_ref(hl_rhi_device *dev, uint32_t index) { dev->cache[index].refs++; }

void hl__cache_unref(hl_rhi_device *dev, uint32_t index, uint64_t last_use) {
    hl__cache_entry *e = &dev->cache[index];
    if (e->refs) e->refs--;
    if (last_use > e->last_use_serial) e->last_use_serial = last_use;
}

uint32_t hl__cache_live_objects(const hl_rhi_device *dev) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < dev->cache_count; i++) n += dev->cache[i].used != HL__CACHE_FREE;
    return n;
}

static void hl__cache_evict_one(hl_rhi_device *dev) {
    uint32_t best = UINT32_MAX;
    for (uint32_t i = 0; i < dev->cache_count; i++) {
        const hl__cache_entry *e = &dev->cache[i];
        if (e->used != HL__CACHE_LIVE || e->refs) continue;
        if (best == UINT32_MAX || e->lru_tick < dev->cache[best].lru_tick) best = i;
    }
    if (best != UINT32_MAX) hl__cache_retire(dev, best);
}

hl_result hl__cache_acquire(hl_rhi_device *dev, uint8_t kind, const void *key, uint32_t key_size,
                            hl__cache_create_fn create, void *ctx, uint32_t *out_index) {
    uint64_t hash = hl__hash_bytes(HL__HASH_SEED, key, key_size) ^ kind;
    for (uint32_t i = 0; i < dev->cache_count; i++) {
        hl__cache_entry *e = &dev->cache[i];
        if (e->used == HL__CACHE_LIVE && e->kind == kind && e->hash == hash && e->key_size == key_size &&
            memcmp(e->key, key, key_size) == 0) {
            e->refs++;
            e->lru_tick = ++dev->cache_tick;
            dev->stats.cache_hits++;
            *out_index = i;
            return HL_OK;
        }
    }
    if (hl__cache_live_objects(dev) >= dev->cache_limit) hl__cache_evict_one(dev);

    uint32_t index = UINT32_MAX;
    for (uint32_t i = 0; i < dev->cache_count; i++) {
        if (dev->cache[i].used == HL__CACHE_FREE) {
            index = i;
            break;
        }
    }
    if (index == UINT32_MAX) {
        void *arr = dev->cache;
        if (!hl__reserve(&arr, &dev->cache_capacity, dev->cache_count + 1u, sizeof(hl__cache_entry)))
            return HL_ERR_OUT_OF_MEMORY;
        dev->cache = arr;
        index = dev->cache_count++;
        memset(&dev->cache[index], 0, sizeof dev->cache[index]);
    }
    void *key_copy = hl__malloc(key_size);
    if (!key_copy) return hl__fail(HL_ERR_OUT_OF_MEMORY, "out of memory copying a cache key");
    memcpy(key_copy, key, key_size);

    hl__native be = {0};
    hl_result r = create(dev, ctx, &be);
    if (r) {
        hl__free(key_copy);
        return r;
    }
    dev->stats.cache_misses++;
    dev->stats.objects_created++;
    if (dev->frame_open) dev->stats.transient_allocations++;
    hl__cache_entry *e = &dev->cache[index];
    e->hash = hash;
    e->key = key_copy;
    e->key_size = key_size;
    e->refs = 1;
    e->last_use_serial = 0;
    e->lru_tick = ++dev->cache_tick;
    e->be = be;
    e->kind = kind;
    e->used = HL__CACHE_LIVE;
    uint32_t deps[HL_RHI_MAX_BIND_GROUPS];
    uint32_t n = hl__cache_deps(e, deps);
    for (uint32_t i = 0; i < n; i++) dev->cache[deps[i]].refs++;
    *out_index = index;
    return HL_OK;
}

void hl__cache_release_unreferenced(hl_rhi_device *dev, bool force) {
    /* Dependents first, so their release frees what they kept alive. */
    static const uint8_t order[] = {HL__CACHE_RENDER_PIPELINE, HL__CACHE_PIPELINE_LAYOUT, HL__CACHE_BGL,
                                    HL__CACHE_SAMPLER};
    for (unsigned k = 0; k < sizeof order; k++) {
        for (uint32_t i = 0; i < dev->cache_count; i++) {
            hl__cache_entry *e = &dev->cache[i];
            if (e->kind != order[k] || e->used == HL__CACHE_FREE) continue;
            if (force) {
                hl__cache_release_entry(dev, i);
            } else if (e->used == HL__CACHE_LIVE && e->refs == 0) {
                hl__cache_retire(dev, i);
            }
        }
    }
}

void hl_rhi_device_clear_caches(hl_rhi_device *dev) {
    if (!hl__may_destroy(dev, "hl_rhi_device_clear_caches") || dev->lost) return;
    hl__cache_release_unreferenced(dev, false);
}

void *hl__cached_handle(hl_rhi_device *dev, uint32_t pool, uint32_t index, const void *init, size_t init_size,
                        uint32_t *id) {
    void *obj;
    if (!hl__pool_alloc(dev, pool, id, &obj)) {
        hl__cache_unref(dev, index, 0);
        return NULL;
    }
    memcpy(obj, init, init_size);
    return obj;
}
