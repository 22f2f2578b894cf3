/* Worker threads for data-parallel loops (hl_base.h, hl__workers): threads started with their
 * owner that take parts of one loop at a time. Each part is a contiguous range its caller merges
 * in order, so results do not depend on the number of threads or on which thread ran a part.
 *
 * Parts are taken, not assigned: a run publishes its function, context and part count and then
 * `state` = (run << 32 | next part); the caller and every worker awake take the next part with a
 * compare-and-swap on `state` until none is left, and the caller waits only for the parts taken to
 * finish (`done`). A worker still waking up when the run starts (tens of microseconds, hundreds in a
 * virtual machine) finds the parts taken and delays nothing. A worker reads a run's fields after
 * it saw the run in `state` and before its swap: the swap succeeds only if `state` did not move,
 * and the caller writes the next run's fields only after every part of this one was taken (state
 * moved), so a part is always run with its own run's fields (they are atomics: a late reader may
 * see the next run's, and then its swap fails).
 *
 * Between runs a worker spins while the pool is held (hl__workers_hold) and sleeps on the condition
 * variable otherwise; the caller spins for the last parts for a while, then sleeps. Sleeping uses
 * the lock and a Dekker-style pair of sequentially consistent accesses so that no wake-up is lost:
 * a worker announces itself in `sleepers` and then reads `state` again before it waits (under the
 * lock); the caller publishes `state` and then reads `sleepers`, broadcasting under the lock when
 * any sleep. The caller's wait for `done` is the same pair with `caller_waits`. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "hl_base.h"

/* The longest a held worker spins for the next run before it sleeps (an owner's long serial step
 * between runs is then not slowed by spinning threads: on the H200 host a serial stage walk took
 * twice as long beside 7 spinning workers), and the longest the caller spins for the others'
 * parts. The clock is read every SPIN_CHECK iterations. */
#define HOLD_SPIN_NS 200000u
#define CALLER_SPIN_NS 1000000u
#define SPIN_CHECK 256u

struct hl__workers {
    pthread_t threads[HL__MAX_WORKER_THREADS];
    uint32_t count; /* workers started (the calling thread is one more) */
    bool spin;      /* every thread has a core of its own: spinning pays */
    pthread_mutex_t lock;
    pthread_cond_t go, done_cond;
    uint32_t run;                  /* the caller's count of runs (the high half of state) */
    _Atomic uint64_t state;        /* run << 32 | the next part to take */
    _Atomic uint32_t done;         /* parts of the current run finished */
    _Atomic uint32_t sleepers;     /* workers waiting on `go` */
    _Atomic uint32_t caller_waits; /* the caller waits on `done_cond` */
    _Atomic uint32_t held;
    _Atomic uint32_t quit;
    /* the current run (written before state publishes it) */
    _Atomic uint32_t parts;
    _Atomic(hl__work_fn) fn;
    _Atomic(void *) ctx;
};

typedef struct worker_arg {
    hl__workers *w;
} worker_arg;

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static inline uint32_t run_of(uint64_t state) { return (uint32_t)(state >> 32); }

/* Waits until a run other than `seen` is published (or quit): spinning while held and allowed,
 * else asleep. Returns the state seen. */
static uint64_t wait_run(hl__workers *w, uint32_t seen) {
    uint64_t s;
    if (w->spin) {
        uint64_t start = 0;
        for (uint32_t k = 1;; k++) {
            s = atomic_load_explicit(&w->state, memory_order_acquire);
            if (run_of(s) != seen || atomic_load_explicit(&w->quit, memory_order_relaxed)) return s;
            if (!atomic_load_explicit(&w->held, memory_order_relaxed)) break;
            cpu_relax();
            if (k % SPIN_CHECK) continue;
            uint64_t now = hl__now_ns();
            if (!start) start = now;
            else if (now - start > HOLD_SPIN_NS) break;
        }
    }
    pthread_mutex_lock(&w->lock);
    atomic_fetch_add(&w->sleepers, 1u);
    while (run_of(s = atomic_load(&w->state)) == seen && !atomic_load(&w->quit)) pthread_cond_wait(&w->go, &w->lock);
    atomic_fetch_sub(&w->sleepers, 1u);
    pthread_mutex_unlock(&w->lock);
    return s;
}

/* One part of run `run` finished: the caller, waiting for the last, is woken when asleep. */
static void part_done(hl__workers *w, uint32_t parts) {
    if (atomic_fetch_add(&w->done, 1u) + 1u == parts && atomic_load(&w->caller_waits)) {
        pthread_mutex_lock(&w->lock);
        pthread_cond_signal(&w->done_cond);
        pthread_mutex_unlock(&w->lock);
    }
}

/* Takes and runs parts of run `run` until none is left or the run is over. */
static void take_parts(hl__workers *w, uint32_t run) {
    for (;;) {
        uint64_t s = atomic_load(&w->state);
        if (run_of(s) != run) return;
        hl__work_fn fn = atomic_load(&w->fn);
        void *ctx = atomic_load(&w->ctx);
        uint32_t parts = atomic_load(&w->parts), part = (uint32_t)s;
        if (part >= parts) return;
        if (!atomic_compare_exchange_weak(&w->state, &s, s + 1u)) continue;
        fn(ctx, part, parts);
        part_done(w, parts);
    }
}

static void *worker_main(void *p) {
    hl__workers *w = ((worker_arg *)p)->w;
    uint32_t seen = 0;
    for (;;) {
        uint64_t s = wait_run(w, seen);
        if (atomic_load_explicit(&w->quit, memory_order_acquire)) break;
        seen = run_of(s);
        take_parts(w, seen);
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
    pthread_cond_init(&w->done_cond, NULL);
    w->spin = threads <= online_cores();
    for (uint32_t i = 0; i + 1 < threads; i++) {
        b->args[i] = (worker_arg){w};
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
    pthread_cond_destroy(&w->done_cond);
    pthread_mutex_destroy(&w->lock);
    hl__free((pool_block *)w); /* w is the block's first member */
}

uint32_t hl__workers_threads(const hl__workers *w) { return w ? w->count + 1 : 1; }

uint32_t hl__workers_parts(const hl__workers *w, uint32_t per_thread) {
    uint64_t n = (uint64_t)hl__workers_threads(w) * (per_thread ? per_thread : 1u);
    return w ? (n > HL__MAX_WORKER_PARTS ? HL__MAX_WORKER_PARTS : (uint32_t)n) : 1u;
}

void hl__workers_hold(hl__workers *w, bool hold) {
    if (!w || !w->spin) return;
    atomic_store_explicit(&w->held, hold ? 1u : 0u, memory_order_relaxed);
    if (hold) wake_sleepers(w); /* they spin from now on: later runs find them awake */
}

void hl__workers_run(hl__workers *w, uint32_t parts, hl__work_fn fn, void *ctx) {
    if (!parts) return;
    if (!w || parts == 1) {
        for (uint32_t p = 0; p < parts; p++) fn(ctx, p, parts);
        return;
    }
    if (parts > HL__MAX_WORKER_PARTS) parts = HL__MAX_WORKER_PARTS;
    atomic_store(&w->fn, fn);
    atomic_store(&w->ctx, ctx);
    atomic_store(&w->parts, parts);
    atomic_store(&w->done, 0u);
    uint32_t run = ++w->run;
    atomic_store(&w->state, (uint64_t)run << 32); /* publishes the run (see the top) */
    wake_sleepers(w);
    take_parts(w, run);
    if (w->spin) {
        uint64_t start = 0;
        for (uint32_t k = 1; atomic_load_explicit(&w->done, memory_order_acquire) != parts; k++) {
            cpu_relax();
            if (k % SPIN_CHECK) continue;
            uint64_t now = hl__now_ns();
            if (!start) start = now;
            else if (now - start > CALLER_SPIN_NS) break;
        }
    }
    if (atomic_load_explicit(&w->done, memory_order_acquire) == parts) return;
    pthread_mutex_lock(&w->lock);
    atomic_store(&w->caller_waits, 1u);
    while (atomic_load(&w->done) != parts) pthread_cond_wait(&w->done_cond, &w->lock);
    atomic_store(&w->caller_waits, 0u);
    pthread_mutex_unlock(&w->lock);
}

typedef struct equal_ctx {
    const unsigned char *a, *b;
    size_t bytes;
    bool differ[HL__MAX_WORKER_PARTS];
} equal_ctx;

static void equal_part(void *ctx, uint32_t part, uint32_t parts) {
    equal_ctx *c = ctx;
    size_t at = c->bytes / parts * part, end = part + 1 == parts ? c->bytes : c->bytes / parts * (part + 1);
    c->differ[part] = memcmp(c->a + at, c->b + at, end - at) != 0;
}

bool hl__workers_equal(hl__workers *w, const void *a, const void *b, size_t bytes) {
    uint32_t parts = bytes >= ((size_t)1 << 20) ? hl__workers_parts(w, 1) : 1u;
    if (parts <= 1) return bytes == 0 || memcmp(a, b, bytes) == 0;
    equal_ctx c;
    c.a = a, c.b = b, c.bytes = bytes;
    hl__workers_run(w, parts, equal_part, &c);
    for (uint32_t p = 0; p < parts; p++)
        if (c.differ[p]) return false;
    return true;
}

void hl__work_range(uint32_t count, uint32_t part, uint32_t parts, uint32_t *first, uint32_t *end) {
    uint64_t a = (uint64_t)count * part / parts, b = (uint64_t)count * (part + 1u) / parts;
    *first = (uint32_t)a;
    *end = (uint32_t)b;
}
