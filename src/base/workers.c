/* Worker threads for data-parallel loops (hl_base.h, hl__workers): threads started with their
 * owner that take parts of one loop at a time. A loop split into parts gives each part a
 * contiguous range, and every caller merges the parts in order, so results do not depend on the
 * number of threads.
 *
 * A run is published by advancing `job` (release); a worker that sees it reads the run's
 * function and context (acquire), does its part and counts `pending` down. Between runs a worker
 * spins while the pool is held (hl__workers_hold) and sleeps on the condition variable otherwise;
 * the caller spins for the last part for a while, then sleeps. Sleeping needs the lock and a
 * Dekker-style pair of sequentially consistent accesses so that no wake-up is lost: a worker
 * announces itself in `sleepers` and then reads `job` again before it waits (under the lock); the
 * caller advances `job` and then reads `sleepers`, broadcasting under the lock when any sleep.
 * The caller's wait for `pending` is the same pair with `caller_waits`. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "hl_base.h"

/* The longest a held worker spins for the next run before it sleeps anyway (an owner that holds
 * and then does long serial work loses only this much CPU per thread), and the longest the caller
 * spins for the others' parts. */
#define HOLD_SPIN_NS 2000000u
#define CALLER_SPIN_NS 1000000u

struct hl__workers {
    pthread_t threads[HL__MAX_WORKER_THREADS];
    uint32_t count; /* workers started (the calling thread is one more) */
    bool spin;      /* every thread has a core of its own: spinning pays */
    pthread_mutex_t lock;
    pthread_cond_t go, done;
    _Atomic uint64_t job;          /* advanced per run: a worker takes each run once */
    _Atomic uint32_t pending;      /* workers not done with the current run */
    _Atomic uint32_t sleepers;     /* workers waiting on `go` */
    _Atomic uint32_t caller_waits; /* the caller waits on `done` */
    _Atomic uint32_t held;
    _Atomic uint32_t quit;
    uint32_t parts; /* the current run (written before `job` is advanced) */
    hl__work_fn fn;
    void *ctx;
};

typedef struct worker_arg {
    hl__workers *w;
    uint32_t index; /* 1.. (part 0 is the caller's) */
} worker_arg;

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Waits until `job` differs from seen (or quit): spinning while held and allowed, else asleep. */
static uint64_t wait_job(hl__workers *w, uint64_t seen) {
    uint64_t j;
    if (w->spin) {
        uint64_t start = 0;
        for (uint32_t k = 1;; k++) {
            j = atomic_load_explicit(&w->job, memory_order_acquire);
            if (j != seen || atomic_load_explicit(&w->quit, memory_order_relaxed)) return j;
            if (!atomic_load_explicit(&w->held, memory_order_relaxed)) break;
            cpu_relax();
            if (k % 64u) continue;
            uint64_t now = hl__now_ns();
            if (!start) start = now;
            else if (now - start > HOLD_SPIN_NS) break;
        }
    }
    pthread_mutex_lock(&w->lock);
    atomic_fetch_add(&w->sleepers, 1u);
    while ((j = atomic_load(&w->job)) == seen && !atomic_load(&w->quit)) pthread_cond_wait(&w->go, &w->lock);
    atomic_fetch_sub(&w->sleepers, 1u);
    pthread_mutex_unlock(&w->lock);
    return j;
}

static void *worker_main(void *p) {
    hl__workers *w = ((worker_arg *)p)->w;
    uint32_t index = ((worker_arg *)p)->index;
    uint64_t seen = 0;
    for (;;) {
        uint64_t j = wait_job(w, seen);
        if (atomic_load_explicit(&w->quit, memory_order_acquire)) break;
        seen = j;
        uint32_t parts = w->parts;
        if (index < parts) w->fn(w->ctx, index, parts);
        /* every worker answers every run, those without a part too: none can still be reading
           this run's fields when the caller writes the next one's */
        if (atomic_fetch_sub(&w->pending, 1u) == 1u && atomic_load(&w->caller_waits)) {
            pthread_mutex_lock(&w->lock);
            pthread_cond_signal(&w->done);
            pthread_mutex_unlock(&w->lock);
        }
    }
    return NULL;
}

static uint32_t online_cores(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1u : (uint32_t)n;
}

uint32_t hl__workers_default_threads(void) {
    uint32_t n = online_cores();
    if (n < 2) return 1;
    return n - 1 > HL__MAX_WORKER_THREADS ? HL__MAX_WORKER_THREADS : n - 1;
}

/* The workers' arguments live beside the pool (one allocation with it). */
typedef struct pool_block {
    hl__workers w;
    worker_arg args[HL__MAX_WORKER_THREADS];
} pool_block;

hl_result hl__workers_start(uint32_t threads, hl__workers **out) {
    *out = NULL;
    if (threads <= 1) return HL_OK;
    if (threads > HL__MAX_WORKER_THREADS) threads = HL__MAX_WORKER_THREADS;
    pool_block *b = hl__calloc(1, sizeof *b);
    if (!b) return hl__fail(HL_ERR_OUT_OF_MEMORY, "workers: out of memory for %u threads", threads);
    hl__workers *w = &b->w;
    if (pthread_mutex_init(&w->lock, NULL)) {
        hl__free(b);
        return HL_OK; /* no threads: the calling thread does everything */
    }
    pthread_cond_init(&w->go, NULL);
    pthread_cond_init(&w->done, NULL);
    w->spin = threads <= online_cores();
    for (uint32_t i = 0; i + 1 < threads; i++) {
        b->args[i] = (worker_arg){w, i + 1};
        if (pthread_create(&w->threads[i], NULL, worker_main, &b->args[i])) break;
        w->count++;
    }
    if (!w->count) {
        hl__workers_stop(w);
        return HL_OK;
    }
    *out = w;
    return HL_OK;
}

static void wake_sleepers(hl__workers *w) {
    if (!atomic_load(&w->sleepers)) return;
    pthread_mutex_lock(&w->lock);
    pthread_cond_broadcast(&w->go);
    pthread_mutex_unlock(&w->lock);
}

void hl__workers_stop(hl__workers *w) {
    if (!w) return;
    pthread_mutex_lock(&w->lock);
    atomic_store(&w->quit, 1u);
    pthread_cond_broadcast(&w->go);
    pthread_mutex_unlock(&w->lock);
    for (uint32_t i = 0; i < w->count; i++) pthread_join(w->threads[i], NULL);
    pthread_cond_destroy(&w->go);
    pthread_cond_destroy(&w->done);
    pthread_mutex_destroy(&w->lock);
    hl__free((pool_block *)w); /* w is the block's first member */
}

uint32_t hl__workers_threads(const hl__workers *w) { return w ? w->count + 1 : 1; }

void hl__workers_hold(hl__workers *w, bool hold) {
    if (!w || !w->spin) return;
    atomic_store_explicit(&w->held, hold ? 1u : 0u, memory_order_relaxed);
    if (hold) wake_sleepers(w); /* they spin from now on: the first run finds them awake */
}

void hl__workers_run(hl__workers *w, uint32_t parts, hl__work_fn fn, void *ctx) {
    if (!parts) return;
    if (!w || parts == 1) {
        for (uint32_t p = 0; p < parts; p++) fn(ctx, p, parts);
        return;
    }
    if (parts > w->count + 1) parts = w->count + 1;
    w->fn = fn;
    w->ctx = ctx;
    w->parts = parts;
    atomic_store_explicit(&w->pending, w->count, memory_order_relaxed);
    atomic_fetch_add(&w->job, 1u); /* publishes the run (sequentially consistent: see the top) */
    wake_sleepers(w);
    fn(ctx, 0, parts);
    if (w->spin) {
        uint64_t start = 0;
        for (uint32_t k = 1; atomic_load_explicit(&w->pending, memory_order_acquire); k++) {
            cpu_relax();
            if (k % 64u) continue;
            uint64_t now = hl__now_ns();
            if (!start) start = now;
            else if (now - start > CALLER_SPIN_NS) break;
        }
    }
    if (!atomic_load_explicit(&w->pending, memory_order_acquire)) return;
    pthread_mutex_lock(&w->lock);
    atomic_store(&w->caller_waits, 1u);
    while (atomic_load(&w->pending)) pthread_cond_wait(&w->done, &w->lock);
    atomic_store(&w->caller_waits, 0u);
    pthread_mutex_unlock(&w->lock);
}

void hl__work_range(uint32_t count, uint32_t part, uint32_t parts, uint32_t *first, uint32_t *end) {
    uint64_t a = (uint64_t)count * part / parts, b = (uint64_t)count * (part + 1u) / parts;
    *first = (uint32_t)a;
    *end = (uint32_t)b;
}
