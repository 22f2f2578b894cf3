/* bench/workers: what one run of the frontend's worker pool costs (hl__workers_run), apart from
 * the work of its parts: the publication of the run, the workers' start on it and the caller's
 * wait for the last part. The renderer's view makes 5-7 such runs a frame (culling, records and
 * normal matrices, draws, sort keys, sort runs, the sorted packets, the world update), so this
 * cost times the runs is the floor of a threaded frontend.
 *
 * Each measured round: `gap` microseconds of serial work on the calling thread (the frontend's
 * serial steps between runs), then one run whose parts each do `work` microseconds. A run's
 * overhead = its wall time - work. Modes: idle (the pool as a plain caller leaves it: workers
 * sleep between runs) and held (hl__workers_hold around the rounds, as the renderer holds it for
 * one view's frontend).
 *
 *   workers [--threads T[,T...]] [--rounds N] [--gap US] [--work US] [--json]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hl_base.h"

static void busy_until(uint64_t end) {
    while (hl__now_ns() < end) {
    }
}

static void part_fn(void *ctx, uint32_t part, uint32_t parts) {
    (void)part;
    (void)parts;
    uint64_t work_ns = *(const uint64_t *)ctx;
    if (work_ns) busy_until(hl__now_ns() + work_ns);
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    uint32_t threads[8] = {2, 4, 8}, tcount = 3, rounds = 2000;
    uint64_t gap_ns = 50000, work_ns = 20000;
    bool json = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--json")) {
            json = true;
            continue;
        }
        if (!v) goto usage;
        i++;
        if (!strcmp(a, "--rounds")) rounds = (uint32_t)strtoul(v, NULL, 10);
        else if (!strcmp(a, "--gap")) gap_ns = strtoull(v, NULL, 10) * 1000u;
        else if (!strcmp(a, "--work")) work_ns = strtoull(v, NULL, 10) * 1000u;
        else if (!strcmp(a, "--threads")) {
            tcount = 0;
            for (char *p = (char *)v; *p && tcount < 8;) {
                char *end;
                unsigned long t = strtoul(p, &end, 10);
                if (end == p || t < 2 || t > HL__MAX_WORKER_THREADS) goto usage;
                threads[tcount++] = (uint32_t)t;
                p = *end == ',' ? end + 1 : end;
            }
        } else {
            goto usage;
        }
    }
    if (!rounds || !tcount) goto usage;
    uint64_t *ns = calloc(rounds, sizeof *ns);
    if (!ns) return 1;
    for (uint32_t t = 0; t < tcount; t++) {
        hl__workers *w = NULL;
        if (hl__workers_start(threads[t], &w) || !w) {
            fprintf(stderr, "workers: could not start %u threads\n", threads[t]);
            return 1;
        }
        for (int held = 0; held < 2; held++) {
            for (uint32_t k = 0; k < rounds / 10u + 1u; k++) hl__workers_run(w, threads[t], part_fn, &work_ns); /* warm */
            if (held) hl__workers_hold(w, true);
            for (uint32_t k = 0; k < rounds; k++) {
                busy_until(hl__now_ns() + gap_ns);
                uint64_t t0 = hl__now_ns();
                hl__workers_run(w, threads[t], part_fn, &work_ns);
                uint64_t t1 = hl__now_ns();
                ns[k] = t1 - t0 > work_ns ? t1 - t0 - work_ns : 0;
            }
            if (held) hl__workers_hold(w, false);
            qsort(ns, rounds, sizeof *ns, cmp_u64);
            double mean = 0;
            for (uint32_t k = 0; k < rounds; k++) mean += (double)ns[k];
            mean /= rounds;
            double p50 = (double)ns[rounds / 2], p90 = (double)ns[rounds * 9 / 10], p99 = (double)ns[rounds * 99 / 100];
            if (json)
                printf("{\"threads\":%u,\"mode\":\"%s\",\"gap_us\":%.0f,\"work_us\":%.0f,\"rounds\":%u,"
                       "\"overhead_us\":{\"mean\":%.2f,\"p50\":%.2f,\"p90\":%.2f,\"p99\":%.2f}}\n",
                       threads[t], held ? "held" : "idle", gap_ns / 1e3, work_ns / 1e3, rounds, mean / 1e3, p50 / 1e3,
                       p90 / 1e3, p99 / 1e3);
            else
                printf("%u threads %-4s gap %5.0f us work %5.0f us: overhead per run mean %7.2f us  p50 %7.2f  p90 %7.2f  "
                       "p99 %7.2f\n",
                       threads[t], held ? "held" : "idle", gap_ns / 1e3, work_ns / 1e3, mean / 1e3, p50 / 1e3, p90 / 1e3,
                       p99 / 1e3);
            fflush(stdout);
        }
        hl__workers_stop(w);
    }
    free(ns);
    return 0;
usage:
    fprintf(stderr, "usage: workers [--threads T[,T...]] (2..%u) [--rounds N] [--gap US] [--work US] [--json]\n",
            HL__MAX_WORKER_THREADS);
    return 2;
}
