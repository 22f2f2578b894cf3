/* hilo3d base: the allocator hook's counted heap functions, last-error messages, growth
 * arrays, hashing and checked size arithmetic. Every layer's internal header includes this
 * one; it includes nothing of any layer (only the public result header). */
#ifndef HL_BASE_H
#define HL_BASE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hilo3d/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- memory (alloc.c): every heap block goes through the hl_set_allocator hook ----------- */
void *hl__malloc(size_t size);
void *hl__calloc(size_t count, size_t size); /* NULL when count * size overflows */
void *hl__realloc(void *ptr, size_t size);
void hl__free(void *ptr);
char *hl__strdup(const char *s); /* NULL stays NULL */

/* Grows *array (of elem_size items) to hold at least need items; high-water, never shrinks.
 * Returns false (with an HL_ERR_OUT_OF_MEMORY message) on allocation failure or overflow. */
bool hl__reserve(void **array, uint32_t *capacity, uint32_t need, size_t elem_size);

/* ---- errors (error.c) ------------------------------------------------------------------------ */
/* Records the message for hl_last_error() and returns code. printf-style. */
hl_result hl__fail(hl_result code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
hl_result hl__failv(hl_result code, const char *fmt, va_list ap);

/* ---- time (clock.c) ------------------------------------------------------------------------ */
/* Monotonic nanoseconds (CLOCK_MONOTONIC): deadlines and the per-phase frame timers. */
uint64_t hl__now_ns(void);

/* ---- worker threads (workers.c) -----------------------------------------------------------
 * A pool for data-parallel loops (the renderer's frontend threads, the stage's world update):
 * run(w, parts, fn, ctx) calls fn(ctx, part, parts) once for every part, on the calling thread and
 * the workers, each taking the next part left (a worker still waking up delays nothing), and
 * returns when all are done. parts is at most HL__MAX_WORKER_PARTS; hl__workers_parts(w, k) is k
 * parts per thread (more parts than threads even out uneven parts). Which thread runs which part
 * varies: a part writes only its own results, which the caller merges in part order. w NULL (one
 * thread): every part in turn on the caller. A part makes no allocation and no hl__fail (messages
 * are per thread). A platform without threads (or a failed start) runs every part on the calling
 * thread. hold(w, true) before a burst of runs (one view's frontend) keeps the workers spinning
 * between runs instead of sleeping; hold(w, false) lets them sleep. Spinning is used only where
 * every thread of the pool has a core of its own. */
#define HL__MAX_WORKER_THREADS 8u
#define HL__MAX_WORKER_PARTS 32u
typedef struct hl__workers hl__workers;
typedef void (*hl__work_fn)(void *ctx, uint32_t part, uint32_t parts);
uint32_t hl__workers_default_threads(void); /* cores - 1, at least 1, at most the maximum */
hl_result hl__workers_start(uint32_t threads, hl__workers **out); /* *out NULL for 1 thread */
void hl__workers_stop(hl__workers *w);
uint32_t hl__workers_threads(const hl__workers *w);
uint32_t hl__workers_parts(const hl__workers *w, uint32_t per_thread); /* 1 for w NULL */
void hl__workers_run(hl__workers *w, uint32_t parts, hl__work_fn fn, void *ctx);
void hl__workers_hold(hl__workers *w, bool hold);
/* memcmp(a, b, bytes) == 0, split over the pool's threads from 1 MiB up (one part each). */
bool hl__workers_equal(hl__workers *w, const void *a, const void *b, size_t bytes);
/* Part `part` of [0, count) split into parts contiguous ranges: [*first, *end). */
void hl__work_range(uint32_t count, uint32_t part, uint32_t parts, uint32_t *first, uint32_t *end);

/* ---- hashing (hash.c): FNV-1a 64 for lookups; equality is always checked on the full key --- */
#define HL__HASH_SEED 1469598103934665603ull
uint64_t hl__hash_bytes(uint64_t h, const void *data, size_t size);
/* Hashes the string with its terminator, so ("ab","c") and ("a","bc") differ; NULL = "". */
uint64_t hl__hash_str(uint64_t h, const char *s);
/* A 64-bit finaliser (splitmix64): spreads pointer and integer keys over all bits. */
static inline uint64_t hl__hash_mix(uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x;
}

/* ---- checked size arithmetic: false on overflow (*out untouched) ----------------------------- */
static inline bool hl__mul_size(size_t a, size_t b, size_t *out) {
    if (a && b > SIZE_MAX / a) return false;
    *out = a * b;
    return true;
}
static inline bool hl__add_size(size_t a, size_t b, size_t *out) {
    if (b > SIZE_MAX - a) return false;
    *out = a + b;
    return true;
}
static inline bool hl__mul_u32(uint32_t a, uint32_t b, uint32_t *out) {
    uint64_t p = (uint64_t)a * b;
    if (p > UINT32_MAX) return false;
    *out = (uint32_t)p;
    return true;
}
static inline bool hl__add_u32(uint32_t a, uint32_t b, uint32_t *out) {
    if (b > UINT32_MAX - a) return false;
    *out = a + b;
    return true;
}

/* IEEE 754 binary16 <-> binary32 (half.c): round to nearest even, infinities and NaN kept. */
uint16_t hl__f32_to_f16(float f);
float hl__f16_to_f32(uint16_t h);
/* The next mip level of a w x h image of 3 floats per texel into dst (max(1, w/2) x max(1, h/2)):
 * each texel the mean of its 2x2 block (the last row or column repeated for a side of 1). */
void hl__halve_rgbf(const float *src, uint32_t w, uint32_t h, float *dst);

#ifdef __cplusplus
}
#endif

#endif
