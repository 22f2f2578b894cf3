/* Object pools: typed handles {id} = (slot + 1) | generation << 20 | device tag << 28.
 *
 * Free slots are kept in a FIFO ring so a freed slot is reused as late as possible, which
 * makes the 8-bit generation wrap slowly. Pools grow (high-water) when an object is created
 * and no slot is free; items may move then, so pointers to items live only within one call
 * (the command context re-resolves its cached pointers after a pool moved). */
#include <string.h>

#include "core_private.h"

#define HL__INDEX_MASK ((1u << HL__HANDLE_INDEX_BITS) - 1u)
#define HL__GEN_MASK ((1u << HL__HANDLE_GEN_BITS) - 1u)
#define HL__TAG_MASK ((1u << HL__HANDLE_TAG_BITS) - 1u)
#define HL__MAX_SLOTS (HL__INDEX_MASK - 1u)

bool hl__pool_init(hl__pool *pool, uint32_t item_size, const char *type_name) {
    memset(pool, 0, sizeof *pool);
    pool->item_size = (uint32_t)((item_size + 7u) & ~7u);
    pool->type_name = type_name;
    return true;
}

void hl__pool_release_memory(hl__pool *pool) {
    hl__free(pool->items);
    hl__free(pool->generation);
    hl__free(pool->state);
    hl__free(pool->free_list);
    hl__free(pool->last_use);
    hl__free(pool->birth);
    memset(pool, 0, sizeof *pool);
}

static bool hl__pool_grow(hl__pool *p) {
    if (p->capacity >= HL__MAX_SLOTS) {
        hl__fail(HL_ERR_OUT_OF_MEMORY, "too many live %s objects (at most %u)", p->type_name, HL__MAX_SLOTS);
        return false;
    }
    uint32_t old = p->capacity;
    uint32_t cap = old ? old * 2u : 32u;
    if (cap > HL__MAX_SLOTS) cap = HL__MAX_SLOTS;
    /* Each array grows separately; a failure leaves the pool consistent at the old capacity. */
    uint32_t c;
    c = old;
    void *a = p->items;
    if (!hl__reserve(&a, &c, cap, p->item_size)) return false;
    p->items = a;
    c = old;
    a = p->generation;
    if (!hl__reserve(&a, &c, cap, 1)) return false;
    p->generation = a;
    c = old;
    a = p->state;
    if (!hl__reserve(&a, &c, cap, 1)) return false;
    p->state = a;
    c = old;
    a = p->free_list;
    if (!hl__reserve(&a, &c, cap, sizeof(uint32_t))) return false;
    p->free_list = a;
    c = old;
    a = p->last_use;
    if (!hl__reserve(&a, &c, cap, sizeof(uint64_t))) return false;
    p->last_use = a;
    c = old;
    a = p->birth;
    if (!hl__reserve(&a, &c, cap, sizeof(uint32_t))) return false;
    p->birth = a;
    memset(p->birth + old, 0, (size_t)(cap - old) * sizeof(uint32_t));
    memset(p->generation + old, 0, cap - old);
    memset(p->state + old, HL__SLOT_FREE, cap - old);
    memset(p->last_use + old, 0, (size_t)(cap - old) * sizeof(uint64_t));
    /* Only called with an empty ring, so it restarts at 0. */
    p->free_head = 0;
    p->free_count = 0;
    for (uint32_t i = old; i < cap; i++) p->free_list[p->free_count++] = i;
    p->capacity = cap;
    return true;
}

uint32_t hl__pool_make_id(const hl_rhi_device *dev, const hl__pool *p, uint32_t slot) {
    return (slot + 1u) | ((uint32_t)p->generation[slot] << HL__HANDLE_INDEX_BITS) |
           ((dev->tag & HL__TAG_MASK) << (HL__HANDLE_INDEX_BITS + HL__HANDLE_GEN_BITS));
}

bool hl__pool_alloc(hl_rhi_device *dev, uint32_t pool, uint32_t *out_id, void **out_item) {
    hl__pool *p = &dev->pools[pool];
    if (p->free_count == 0) {
        uint8_t *before = p->items;
        if (!hl__pool_grow(p)) return false;
        if (before && before != p->items) hl__cmd_refresh_pointers(dev);
    }
    uint32_t slot = p->free_list[p->free_head];
    p->free_head = (p->free_head + 1u) % p->capacity;
    p->free_count--;
    p->state[slot] = HL__SLOT_LIVE;
    p->last_use[slot] = 0;
    p->birth[slot] = ++dev->births;
    p->used++;
    void *item = hl__pool_item(p, slot);
    memset(item, 0, p->item_size);
    *out_id = hl__pool_make_id(dev, p, slot);
    *out_item = item;
    return true;
}

void *hl__pool_lookup(hl_rhi_device *dev, uint32_t pool, uint32_t id, uint32_t *out_slot) {
    if (id == 0 || !dev || pool >= HL__POOL_COUNT) return NULL;
    hl__pool *p = &dev->pools[pool];
    uint32_t index = id & HL__INDEX_MASK;
    uint32_t gen = (id >> HL__HANDLE_INDEX_BITS) & HL__GEN_MASK;
    uint32_t tag = id >> (HL__HANDLE_INDEX_BITS + HL__HANDLE_GEN_BITS);
    if (index == 0 || index > p->capacity || tag != (dev->tag & HL__TAG_MASK)) return NULL;
    uint32_t slot = index - 1u;
    if (p->state[slot] != HL__SLOT_LIVE || p->generation[slot] != gen) return NULL;
    if (out_slot) *out_slot = slot;
    return hl__pool_item(p, slot);
}

void *hl__pool_get(hl_rhi_device *dev, uint32_t pool, uint32_t id) { return hl__pool_lookup(dev, pool, id, NULL); }

void hl__pool_retire(hl__pool *p, uint32_t slot) {
    p->generation[slot] = (uint8_t)((p->generation[slot] + 1u) & HL__GEN_MASK);
    p->state[slot] = HL__SLOT_ZOMBIE;
}

void hl__pool_free_slot(hl__pool *p, uint32_t slot) {
    p->state[slot] = HL__SLOT_FREE;
    p->free_list[(p->free_head + p->free_count) % p->capacity] = slot;
    p->free_count++;
    p->used--;
}
