/* The renderer's frontend workers (hl_renderer_desc.frontend_threads): threads started with the
 * renderer that take parts of one loop at a time (hl__workers_run) and wait in between. A loop
 * split into parts gives each part a contiguous range, and every caller merges the parts in
 * order, so the results do not depend on the number of threads. What runs on them only reads
 * the scene and writes its own part of renderer scratch: no RHI call, no allocation, no error
 * message (those are per thread). A platform without threads (or a failed start) runs every
 * part on the calling thread. */
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "render_internal.h"

struct hl__workers {
    pthread_t threads[HL__MAX_FRONTEND_THREADS];
    uint32_t count; /* workers started (the calling thread is one more) */
    pthread_mutex_t lock;
    pthread_cond_t go, done;
    uint64_t job;     /* advanced per run: a worker takes each job once */
    uint32_t pending; /* parts not finished */
    uint32_t parts;
    hl__work_fn fn;
    void *ctx;
    bool quit;
};

typedef struct worker_arg {
    hl__workers *w;
    uint32_t index; /* 1.. (part 0 is the caller's) */
} worker_arg;

static void *worker_main(void *p) {
    hl__workers *w = ((worker_arg *)p)->w;
    uint32_t index = ((worker_arg *)p)->index;
    uint64_t seen = 0;
    pthread_mutex_lock(&w->lock);
    for (;;) {
        while (!w->quit && w->job == seen) pthread_cond_wait(&w->go, &w->lock);
        if (w->quit) break;
        seen = w->job;
        uint32_t parts = w->parts;
        hl__work_fn fn = w->fn;
        void *ctx = w->ctx;
        pthread_mutex_unlock(&w->lock);
        if (index < parts) fn(ctx, index, parts);
        pthread_mutex_lock(&w->lock);
        if (index < parts && --w->pending == 0) pthread_cond_signal(&w->done);
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

uint32_t hl__frontend_threads_default(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 2) return 1;
    return n - 1 > HL__MAX_FRONTEND_THREADS ? HL__MAX_FRONTEND_THREADS : (uint32_t)(n - 1);
}

/* The workers' arguments live beside the pool (one allocation with it). */
typedef struct pool_block {
    hl__workers w;
    worker_arg args[HL__MAX_FRONTEND_THREADS];
} pool_block;

hl_result hl__workers_start(uint32_t threads, hl__workers **out) {
    *out = NULL;
    if (threads <= 1) return HL_OK;
    if (threads > HL__MAX_FRONTEND_THREADS) threads = HL__MAX_FRONTEND_THREADS;
    pool_block *b = hl__calloc(1, sizeof *b);
    if (!b) return hl__fail(HL_ERR_OUT_OF_MEMORY, "renderer: out of memory for the frontend threads");
    hl__workers *w = &b->w;
    if (pthread_mutex_init(&w->lock, NULL)) {
        hl__free(b);
        return HL_OK; /* no threads: the calling thread does everything */
    }
    pthread_cond_init(&w->go, NULL);
    pthread_cond_init(&w->done, NULL);
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

void hl__workers_stop(hl__workers *w) {
    if (!w) return;
    pthread_mutex_lock(&w->lock);
    w->quit = true;
    pthread_cond_broadcast(&w->go);
    pthread_mutex_unlock(&w->lock);
    for (uint32_t i = 0; i < w->count; i++) pthread_join(w->threads[i], NULL);
    pthread_cond_destroy(&w->go);
    pthread_cond_destroy(&w->done);
    pthread_mutex_destroy(&w->lock);
    hl__free((pool_block *)w); /* w is the block's first member */
}

uint32_t hl__workers_threads(const hl__workers *w) { return w ? w->count + 1 : 1; }

void hl__workers_run(hl__workers *w, uint32_t parts, hl__work_fn fn, void *ctx) {
    if (!parts) return;
    if (!w || parts == 1) {
        for (uint32_t p = 0; p < parts; p++) fn(ctx, p, parts);
        return;
    }
    if (parts > w->count + 1) parts = w->count + 1;
    pthread_mutex_lock(&w->lock);
    w->fn = fn;
    w->ctx = ctx;
    w->parts = parts;
    w->pending = parts - 1;
    w->job++;
    pthread_cond_broadcast(&w->go);
    pthread_mutex_unlock(&w->lock);
    fn(ctx, 0, parts);
    pthread_mutex_lock(&w->lock);
    while (w->pending) pthread_cond_wait(&w->done, &w->lock);
    pthread_mutex_unlock(&w->lock);
}

void hl__work_range(uint32_t count, uint32_t part, uint32_t parts, uint32_t *first, uint32_t *end) {
    uint64_t a = (uint64_t)count * part / parts, b = (uint64_t)count * (part + 1u) / parts;
    *first = (uint32_t)a;
    *end = (uint32_t)b;
}
