/* The allocator hook and the counted heap functions every hilo3d layer uses. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "hl_base.h"

static void *hl__default_alloc(size_t size, void *user) {
    (void)user;
    return malloc(size);
}
static void *hl__default_realloc(void *ptr, size_t size, void *user) {
    (void)user;
    return realloc(ptr, size);
}
static void hl__default_free(void *ptr, void *user) {
    (void)user;
    free(ptr);
}

static hl_allocator hl__allocator = {hl__default_alloc, hl__default_realloc, hl__default_free, NULL};
static _Atomic uint64_t hl__alloc_counter;

void hl_set_allocator(const hl_allocator *allocator) {
    if (allocator && allocator->alloc && allocator->realloc && allocator->free) {
        hl__allocator = *allocator;
    } else {
        hl__allocator = (hl_allocator){hl__default_alloc, hl__default_realloc, hl__default_free, NULL};
    }
}

uint64_t hl_alloc_count(void) { return atomic_load(&hl__alloc_counter); }

void *hl__malloc(size_t size) {
    atomic_fetch_add(&hl__alloc_counter, 1);
    return hl__allocator.alloc(size ? size : 1, hl__allocator.user);
}

void *hl__calloc(size_t count, size_t size) {
    if (size && count > SIZE_MAX / size) return NULL;
    void *p = hl__malloc(count * size);
    if (p) memset(p, 0, count * size);
    return p;
}

void *hl__realloc(void *ptr, size_t size) {
    atomic_fetch_add(&hl__alloc_counter, 1);
    return hl__allocator.realloc(ptr, size ? size : 1, hl__allocator.user);
}

void hl__free(void *ptr) {
    if (ptr) hl__allocator.free(ptr, hl__allocator.user);
}

char *hl__strdup(const char *s) {
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *d = hl__malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

bool hl__reserve(void **array, uint32_t *capacity, uint32_t need, size_t elem_size) {
    if (need <= *capacity) return true;
    uint64_t cap = *capacity ? (uint64_t)*capacity * 2u : 16u;
    if (cap < need) cap = need;
    if (cap > UINT32_MAX) cap = UINT32_MAX;
    if (elem_size && cap > SIZE_MAX / elem_size) {
        hl__fail(HL_ERR_OUT_OF_MEMORY, "hl__reserve: %u items of %zu bytes overflow", need, elem_size);
        return false;
    }
    void *p = hl__realloc(*array, (size_t)cap * elem_size);
    if (!p) {
        hl__fail(HL_ERR_OUT_OF_MEMORY, "out of memory growing an array to %u items of %zu bytes", need, elem_size);
        return false;
    }
    *array = p;
    *capacity = (uint32_t)cap;
    return true;
}
