/* Parameter pools (seed 003 §7.6): per-runtime storage for the parameters of the passes a
 * runtime records, with a frame cursor and high-water slots. A slot handed out in a frame is
 * the caller's until the frame ends; the next frame starts the cursor again and hands the same
 * slots out (reset first), so steady frames allocate nothing; init runs only for slots beyond
 * the high water. */
#include <string.h>

#include "pipeline_internal.h"

struct hl_pipeline_param_pool {
    hl_pipeline_param_pool_desc desc;
    void **slots;          /* high-water storage: one block per slot (stable addresses) */
    uint32_t count, capacity;
    uint32_t cursor;       /* slots handed out in the current frame */
    uint64_t frame;        /* renderer frame serial of the cursor */
    const hl_renderer *owner; /* the renderer whose runtime acquired first (pools are renderer-local) */
};

hl_result hl_pipeline_param_pool_create(const hl_pipeline_param_pool_desc *desc, hl_pipeline_param_pool **out) {
    const char *fn = "hl_pipeline_param_pool_create";
    if (!out) return hl__fail(HL_ERR_VALIDATION, "%s: out is NULL", fn);
    *out = NULL;
    if (!desc) return hl__fail(HL_ERR_VALIDATION, "%s: desc is NULL", fn);
    if (desc->item_size == 0 || desc->item_size > HL_PIPELINE_PARAM_MAX_ITEM)
        return hl__fail(HL_ERR_VALIDATION, "%s: item_size %zu (1..%u)", fn, desc->item_size, HL_PIPELINE_PARAM_MAX_ITEM);
    hl_pipeline_param_pool *p = hl__calloc(1, sizeof *p);
    if (!p) return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: out of memory", fn);
    p->desc = *desc;
    *out = p;
    return HL_OK;
}

void hl_pipeline_param_pool_destroy(hl_pipeline_param_pool *pool) {
    if (!pool) return;
    for (uint32_t i = 0; i < pool->count; i++) {
        if (pool->desc.fini) pool->desc.fini(pool->slots[i], pool->desc.user);
        hl__free(pool->slots[i]);
    }
    hl__free(pool->slots);
    hl__free(pool);
}

uint32_t hl_pipeline_param_pool_high_water(const hl_pipeline_param_pool *pool) { return pool ? pool->count : 0; }

hl_result hl_pipeline_acquire_params(hl_pipeline_context ctx, hl_pipeline_param_pool *pool, void **out) {
    const char *fn = "hl_pipeline_acquire_params";
    hl_result res;
    invocation *inv = hl__pipeline_current(ctx, fn, &res);
    if (!inv) return res;
    if (!pool || !out) return hl__fail(HL_ERR_VALIDATION, "%s: %s is NULL", fn, pool ? "out" : "pool");
    *out = NULL;
    if (pool->owner && pool->owner != inv->r)
        return hl__fail(HL_ERR_VALIDATION, "%s: the pool belongs to another renderer's runtime (a pool is made per runtime)",
                        fn);
    pool->owner = inv->r;
    if (pool->frame != inv->r->frame_serial) { /* a new frame: the slots of the last one come back */
        pool->frame = inv->r->frame_serial;
        pool->cursor = 0;
    }
    if (pool->cursor == pool->count) { /* past the high water: one more slot */
        if (!hl__reserve((void **)&pool->slots, &pool->capacity, pool->count + 1u, sizeof *pool->slots))
            return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: out of memory", fn);
        void *slot = hl__calloc(1, pool->desc.item_size);
        if (!slot) return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: out of memory", fn);
        if (pool->desc.init && (res = pool->desc.init(slot, pool->desc.user))) {
            hl__free(slot);
            return res;
        }
        pool->slots[pool->count++] = slot;
    } else if (pool->desc.reset) {
        pool->desc.reset(pool->slots[pool->cursor], pool->desc.user);
    }
    *out = pool->slots[pool->cursor++];
    return HL_OK;
}
