/* bench/recovery_soak: device loss and recovery, many times over (renderer.h, "Device loss").
 *
 *   recovery_soak [--json] [--backend webgpu|gles3|both] [--losses N] [--seconds S]
 *                 [--frames-between K] [--size WxH] [--samples 1|4] [--malloc-trim]
 *
 * Defaults: both backends in turn, N = 50, K = 2, 160x90, 4x MSAA; --seconds ends each backend's
 * cycles after S seconds (the losses done are reported and the run passes with at least one);
 * --malloc-trim returns glibc's free pages to the system after each cycle before RSS is sampled.
 * Per backend: one renderer on
 * the demo scene (src/demo/hl_scene_demo.h) renders the reference image; one warm-up loss cycle;
 * then N cycles of: hl_renderer_simulate_device_loss, hl_renderer_recover (timed: the new device
 * and what recovery rebuilds at once), K frames (the first one timed with its wait: the frames
 * rebuild mirrors, programs and pipelines), a readback compared with the reference exactly (max
 * difference 0: the same device kind, recipes and commands), then process RSS (/proc/self/statm),
 * the process's malloc heap in use (glibc mallinfo2: what the drivers and Dawn hold, unlike RSS,
 * which keeps freed pages too), the process's anonymous executable memory (/proc/self/smaps: code
 * a driver compiles at run time, e.g. lavapipe's LLVM JIT), hilo3d's live heap (allocator hook)
 * and stats.gpu_objects are sampled.
 *
 * Reports recovery ms (median, p95, max), the first frame after recovery (median) against a
 * steady frame before any loss, RSS at start (after the warm-up cycle), after each quarter of the
 * cycles, at end and at most, RSS growth per 100 losses (least-squares slope) and between the two
 * halves' means, the executable memory's growth and RSS's growth without it, hilo3d's live heap at start and end, gpu_objects at start and end, and the pixel
 * verdict. Text: one table; --json: one line per backend. Exits 1 when any image differed,
 * gpu_objects changed, hilo3d's live heap grew, the recovery counters were wrong or any call
 * failed (with hl_last_error()); 2 on a usage error. */
#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_draws.h"
#include "hilo3d/renderer.h"
#include "hl_scene_demo.h"
#include "hl_scene_gen.h" /* hl_gen_count_allocations, hl_gen_live_bytes, hl_gen_rss_kb */

/* ---- statistics ----------------------------------------------------------------------------- */
static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The q-quantile (nearest rank) of v[0..n), which it sorts; 0 for n = 0. */
static double quantile(double *v, uint32_t n, double q) {
    if (!n) return 0;
    qsort(v, n, sizeof *v, cmp_double);
    uint32_t k = (uint32_t)ceil(q * (double)n);
    return v[k ? k - 1 : 0];
}

/* The process's malloc heap in use (glibc: every arena's allocated chunks plus mmapped blocks),
 * KiB: what the drivers and Dawn hold, as opposed to RSS, which also keeps freed pages. */
static double malloc_in_use_kib(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
    struct mallinfo2 mi = mallinfo2();
    return (double)(mi.uordblks + mi.hblkhd) / 1024.0;
#else
    return 0;
#endif
}

/* Least-squares slope of y over its index 0..n-1 (per sample); 0 for n < 2. */
static double slope(const double *y, uint32_t n) {
    if (n < 2) return 0;
    double mx = (n - 1) / 2.0, my = 0, sxy = 0, sxx = 0;
    for (uint32_t i = 0; i < n; i++) my += y[i];
    my /= n;
    for (uint32_t i = 0; i < n; i++) {
        sxy += ((double)i - mx) * (y[i] - my);
        sxx += ((double)i - mx) * ((double)i - mx);
    }
    return sxy / sxx;
}

static double mean(const double *y, uint32_t n) {
    double s = 0;
    for (uint32_t i = 0; i < n; i++) s += y[i];
    return n ? s / n : 0;
}

/* ---- one backend ------------------------------------------------------------------------------ */
typedef struct options {
    uint32_t losses, frames_between, width, height, samples;
    double seconds; /* > 0: stop the cycles after this long (the losses done are reported) */
    bool trim;      /* malloc_trim(0) after each cycle (glibc): RSS without the allocator's free pages */
} options;

typedef struct events {
    uint32_t lost, recovered;
} events;

typedef struct result {
    hl_backend backend;
    char adapter[128];
    bool ok;              /* every call succeeded and the counters were right */
    char error[512];      /* the first failure */
    uint32_t losses;      /* measured cycles completed */
    double loss_ms;       /* hl_renderer_simulate_device_loss, median */
    double recover_med, recover_p95, recover_max;
    double first_med, first_p95, steady_ms;
    double rss_start, rss_end, rss_slope100, rss_halves, rss_max;
    double rss_quarter[3]; /* after 25, 50 and 75 % of the cycles */
    double heap_start, heap_end; /* hilo3d's live heap, KiB */
    double malloc_start, malloc_end, malloc_slope100; /* the process's malloc heap in use, KiB */
    /* anonymous executable memory (a driver's JIT code), KiB, and RSS without it per 100 losses */
    double exec_start, exec_end, exec_slope100, rss_other_slope100;
    double allocs_per_cycle;
    uint32_t objects_start, objects_end, objects_min, objects_max;
    uint32_t mismatches;
    int worst_diff;
    double wall_s;
} result;

static void on_lost(hl_renderer *r, uint64_t generation, const char *message, void *user) {
    (void)r, (void)generation, (void)message;
    ((events *)user)->lost++;
}

static void on_recovered(hl_renderer *r, uint64_t generation, const char *message, void *user) {
    (void)r, (void)generation, (void)message;
    ((events *)user)->recovered++;
}

static bool fail(result *res, const char *what, hl_result code) {
    if (res->ok) {
        const char *msg = hl_last_error();
        snprintf(res->error, sizeof res->error, "%s: %s%s%s%s", what, hl_result_name(code), *msg ? " (" : "", msg,
                 *msg ? ")" : "");
        res->ok = false;
    }
    return false;
}

static int max_diff(const uint8_t *a, const uint8_t *b, size_t n) {
    int worst = 0;
    for (size_t i = 0; i < n; i++) {
        int d = abs((int)a[i] - (int)b[i]);
        if (d > worst) worst = d;
    }
    return worst;
}

static bool frame(hl_renderer *r, hl_scene_demo *demo, result *res, double *ms) {
    double t0 = hl_bench_now_ms();
    hl_result e = hl_renderer_render(r, demo->stage, demo->camera);
    if (e) return fail(res, "hl_renderer_render", e);
    if ((e = hl_renderer_wait_idle(r))) return fail(res, "hl_renderer_wait_idle", e);
    if (ms) *ms = hl_bench_now_ms() - t0;
    return true;
}

/* One loss cycle: loss, recover, K frames, readback and comparison; the times go to the out
 * parameters. */
static bool cycle(hl_renderer *r, hl_scene_demo *demo, const options *o, const uint8_t *ref, uint8_t *img, size_t n,
                  result *res, double *loss_ms, double *recover_ms, double *first_ms, int *diff) {
    double t0 = hl_bench_now_ms();
    hl_result e = hl_renderer_simulate_device_loss(r);
    if (e) return fail(res, "hl_renderer_simulate_device_loss", e);
    *loss_ms = hl_bench_now_ms() - t0;
    if (!hl_renderer_device_lost(r)) {
        hl_clear_error(); /* no call failed: the message is the check's alone */
        return fail(res, "hl_renderer_device_lost is false after the loss", HL_ERR_INVALID_STATE);
    }
    t0 = hl_bench_now_ms();
    if ((e = hl_renderer_recover(r))) return fail(res, "hl_renderer_recover", e);
    *recover_ms = hl_bench_now_ms() - t0;
    if (hl_renderer_device_lost(r)) {
        hl_clear_error();
        return fail(res, "hl_renderer_device_lost is true after recovery", HL_ERR_INVALID_STATE);
    }
    if (!frame(r, demo, res, first_ms)) return false;
    for (uint32_t k = 1; k < o->frames_between; k++)
        if (!frame(r, demo, res, NULL)) return false;
    memset(img, 0, n);
    if ((e = hl_renderer_read_pixels(r, img, n))) return fail(res, "hl_renderer_read_pixels", e);
    *diff = max_diff(ref, img, n);
    return true;
}

static void run_backend(hl_backend backend, const options *o, result *res) {
    memset(res, 0, sizeof *res);
    res->backend = backend;
    res->ok = true;
    double wall0 = hl_bench_now_ms();
    uint32_t N = o->losses;
    size_t n = (size_t)o->width * o->height * 4;
    uint8_t *ref = malloc(n), *img = malloc(n);
    double *recover = calloc(N, sizeof(double)), *first = calloc(N, sizeof(double)),
           *loss = calloc(N, sizeof(double)), *rss = calloc(N, sizeof(double)), *heap = calloc(N, sizeof(double)),
           *exec = calloc(N, sizeof(double));
    events ev = {0};
    hl_renderer *r = NULL;
    hl_scene_demo demo = {0};
    if (!ref || !img || !recover || !first || !loss || !rss || !heap || !exec) {
        fail(res, "out of memory", HL_ERR_OUT_OF_MEMORY);
        goto out;
    }

    hl_renderer_desc rd = {0};
    rd.backend = backend;
    rd.width = o->width;
    rd.height = o->height;
    rd.sample_count = o->samples;
    rd.device_lost = on_lost;
    rd.device_recovered = on_recovered;
    rd.event_user = &ev;
    hl_result e = hl_renderer_create(&rd, &r);
    if (e) {
        fail(res, "hl_renderer_create", e);
        goto out;
    }
    snprintf(res->adapter, sizeof res->adapter, "%s", hl_renderer_adapter_name(r));
    if ((e = hl_scene_demo_create((float)o->width / (float)o->height, &demo))) {
        fail(res, "hl_scene_demo_create", e);
        goto out;
    }
    /* the reference, then steady frames (the environment bake and every variant warm) */
    if (!frame(r, &demo, res, NULL)) goto out;
    if ((e = hl_renderer_read_pixels(r, ref, n))) {
        fail(res, "hl_renderer_read_pixels (reference)", e);
        goto out;
    }
    double steady[8];
    for (int i = 0; i < 8; i++)
        if (!frame(r, &demo, res, &steady[i])) goto out;
    res->steady_ms = quantile(steady, 8, 0.5);

    /* one warm-up cycle: the first replacement device loads what later ones reuse */
    double lms, rms, fms;
    int diff = 0;
    if (!cycle(r, &demo, o, ref, img, n, res, &lms, &rms, &fms, &diff)) goto out;
    if (diff) res->mismatches++;
    res->worst_diff = diff;
    res->rss_start = (double)hl_gen_rss_kb();
    res->malloc_start = malloc_in_use_kib();
    res->exec_start = (double)hl_gen_exec_anon_kb();
    res->heap_start = (double)hl_gen_live_bytes() / 1024.0;
    res->objects_start = res->objects_min = res->objects_max = hl_renderer_stats(r)->gpu_objects;
    uint64_t allocs0 = hl_alloc_count();

    for (uint32_t i = 0; i < N; i++) {
        if (o->seconds > 0 && hl_bench_now_ms() - wall0 > o->seconds * 1000.0) break;
        if (!cycle(r, &demo, o, ref, img, n, res, &loss[i], &recover[i], &first[i], &diff)) break;
        if (diff) res->mismatches++;
        if (diff > res->worst_diff) res->worst_diff = diff;
#ifdef __GLIBC__
        if (o->trim) malloc_trim(0);
#endif
        rss[i] = (double)hl_gen_rss_kb();
        heap[i] = malloc_in_use_kib();
        exec[i] = (double)hl_gen_exec_anon_kb();
        uint32_t objs = hl_renderer_stats(r)->gpu_objects;
        if (objs < res->objects_min) res->objects_min = objs;
        if (objs > res->objects_max) res->objects_max = objs;
        res->losses = i + 1;
    }
    uint32_t m = res->losses;
    const hl_render_stats *st = hl_renderer_stats(r);
    res->allocs_per_cycle = m ? (double)(hl_alloc_count() - allocs0) / m : 0;
    res->objects_end = st->gpu_objects;
    res->heap_end = (double)hl_gen_live_bytes() / 1024.0;
    res->rss_end = m ? rss[m - 1] : res->rss_start;
    res->rss_slope100 = slope(rss, m) * 100.0;
    res->malloc_end = m ? heap[m - 1] : res->malloc_start;
    res->malloc_slope100 = slope(heap, m) * 100.0;
    res->exec_end = m ? exec[m - 1] : res->exec_start;
    res->exec_slope100 = slope(exec, m) * 100.0;
    for (uint32_t i = 0; i < m; i++) exec[i] = rss[i] - exec[i]; /* RSS outside executable memory */
    res->rss_other_slope100 = slope(exec, m) * 100.0;
    res->rss_max = res->rss_start;
    for (uint32_t i = 0; i < m; i++)
        if (rss[i] > res->rss_max) res->rss_max = rss[i];
    for (uint32_t q = 0; q < 3 && m; q++) res->rss_quarter[q] = rss[(m * (q + 1) + 3) / 4 - 1];
    res->rss_halves = m >= 2 ? mean(rss + m / 2, m - m / 2) - mean(rss, m / 2) : 0;
    res->loss_ms = quantile(loss, m, 0.5);
    res->first_p95 = quantile(first, m, 0.95);
    res->first_med = quantile(first, m, 0.5);
    res->recover_max = quantile(recover, m, 1.0);
    res->recover_p95 = quantile(recover, m, 0.95);
    res->recover_med = quantile(recover, m, 0.5);
    /* one loss event and one recovery per cycle, the warm-up's included */
    if (res->ok && (ev.lost != m + 1 || ev.recovered != m + 1 || st->device_recoveries != m + 1 ||
                    st->device_generation != (uint64_t)m + 2)) {
        snprintf(res->error, sizeof res->error,
                 "after %u cycles: %u loss events, %u recovery events, stats: %u recoveries, generation %llu", m + 1,
                 ev.lost, ev.recovered, st->device_recoveries, (unsigned long long)st->device_generation);
        res->ok = false;
    }
out:
    hl_renderer_destroy(r);
    hl_scene_demo_destroy(&demo);
    free(ref);
    free(img);
    free(recover);
    free(first);
    free(loss);
    free(rss);
    free(heap);
    free(exec);
    res->wall_s = (hl_bench_now_ms() - wall0) / 1000.0;
}

static bool passed(const result *res, const options *o) {
    return res->ok && (res->losses == o->losses || (o->seconds > 0 && res->losses > 0)) && res->mismatches == 0 &&
           res->objects_end == res->objects_start && res->objects_max == res->objects_start &&
           res->heap_end <= res->heap_start;
}

static void print_json(const result *r, const options *o) {
    printf("{\"backend\":\"%s\",\"adapter\":\"%s\",\"size\":\"%ux%u\",\"samples\":%u,\"frames_between\":%u,"
           "\"losses\":%u,\"loss_ms\":%.3f,\"recovery_ms\":{\"median\":%.3f,\"p95\":%.3f,\"max\":%.3f},"
           "\"first_frame_ms\":{\"median\":%.3f,\"p95\":%.3f},\"steady_frame_ms\":%.3f,"
           "\"rss_kib\":{\"start\":%.0f,\"q1\":%.0f,\"mid\":%.0f,\"q3\":%.0f,\"end\":%.0f,\"max\":%.0f,"
           "\"growth_per_100_losses\":%.1f,\"halves_growth\":%.1f},"
           "\"malloc_kib\":{\"start\":%.0f,\"end\":%.0f,\"growth_per_100_losses\":%.1f},"
           "\"exec_anon_kib\":{\"start\":%.0f,\"end\":%.0f,\"growth_per_100_losses\":%.1f},"
           "\"rss_without_exec_growth_per_100_losses\":%.1f,"
           "\"heap_kib\":{\"start\":%.1f,\"end\":%.1f},\"allocations_per_cycle\":%.1f,"
           "\"gpu_objects\":{\"start\":%u,\"end\":%u,\"min\":%u,\"max\":%u},\"all_pixels_match\":%s,"
           "\"mismatching_cycles\":%u,\"worst_diff\":%d,\"wall_s\":%.2f,\"ok\":%s",
           hl_backend_name(r->backend), r->adapter, o->width, o->height, o->samples, o->frames_between, r->losses,
           r->loss_ms, r->recover_med, r->recover_p95, r->recover_max, r->first_med, r->first_p95, r->steady_ms,
           r->rss_start, r->rss_quarter[0], r->rss_quarter[1], r->rss_quarter[2], r->rss_end, r->rss_max,
           r->rss_slope100, r->rss_halves, r->malloc_start, r->malloc_end, r->malloc_slope100, r->exec_start,
           r->exec_end, r->exec_slope100, r->rss_other_slope100, r->heap_start,
           r->heap_end, r->allocs_per_cycle,
           r->objects_start, r->objects_end, r->objects_min, r->objects_max,
           r->mismatches == 0 && r->losses ? "true" : "false", r->mismatches, r->worst_diff, r->wall_s,
           passed(r, o) ? "true" : "false");
    if (!r->ok) {
        printf(",\"error\":\"");
        for (const char *c = r->error; *c; c++) {
            if (*c == '"' || *c == '\\') putchar('\\');
            putchar((unsigned char)*c < 0x20 ? ' ' : *c);
        }
        putchar('"');
    }
    printf("}\n");
}

static void print_table(const result *rs, int nb, const options *o) {
    printf("recovery_soak: %u losses, %u frame%s after each, %ux%u %ux MSAA, the demo scene\n", o->losses,
           o->frames_between, o->frames_between == 1 ? "" : "s", o->width, o->height, o->samples);
    printf("%-40s", "");
    for (int b = 0; b < nb; b++) printf(" %16s", hl_backend_name(rs[b].backend));
    printf("\n");
#define ROW(label, fmt, expr)                                                                                          \
    do {                                                                                                               \
        printf("%-40s", label);                                                                                        \
        for (int b = 0; b < nb; b++) {                                                                                 \
            const result *r = &rs[b];                                                                                  \
            printf(" %16" fmt, expr);                                                                                  \
        }                                                                                                              \
        printf("\n");                                                                                                  \
    } while (0)
    ROW("losses (measured, after 1 warm-up)", "u", r->losses);
    ROW("loss ms (simulate, median)", ".2f", r->loss_ms);
    ROW("recovery ms median", ".2f", r->recover_med);
    ROW("recovery ms p95", ".2f", r->recover_p95);
    ROW("recovery ms max", ".2f", r->recover_max);
    ROW("first frame after ms median (waited)", ".2f", r->first_med);
    ROW("first frame after ms p95", ".2f", r->first_p95);
    ROW("steady frame ms (before losses)", ".2f", r->steady_ms);
    ROW("RSS KiB at start", ".0f", r->rss_start);
    ROW("RSS KiB after 25 % of the losses", ".0f", r->rss_quarter[0]);
    ROW("RSS KiB after 50 %", ".0f", r->rss_quarter[1]);
    ROW("RSS KiB after 75 %", ".0f", r->rss_quarter[2]);
    ROW("RSS KiB at end", ".0f", r->rss_end);
    ROW("RSS KiB max", ".0f", r->rss_max);
    ROW("RSS growth KiB / 100 losses (slope)", ".1f", r->rss_slope100);
    ROW("RSS growth KiB (2nd half - 1st half)", ".1f", r->rss_halves);
    ROW("malloc heap in use KiB at start", ".0f", r->malloc_start);
    ROW("malloc heap in use KiB at end", ".0f", r->malloc_end);
    ROW("malloc heap growth KiB / 100 losses", ".1f", r->malloc_slope100);
    ROW("executable anon KiB at start (JIT)", ".0f", r->exec_start);
    ROW("executable anon KiB at end", ".0f", r->exec_end);
    ROW("executable anon growth KiB / 100", ".1f", r->exec_slope100);
    ROW("RSS without it, growth KiB / 100", ".1f", r->rss_other_slope100);
    ROW("hilo3d live heap KiB at start", ".1f", r->heap_start);
    ROW("hilo3d live heap KiB at end", ".1f", r->heap_end);
    ROW("hilo3d allocations per loss cycle", ".1f", r->allocs_per_cycle);
    ROW("gpu_objects at start", "u", r->objects_start);
    ROW("gpu_objects at end", "u", r->objects_end);
    ROW("gpu_objects max over cycles", "u", r->objects_max);
    ROW("all pixels match", "s", r->mismatches == 0 && r->losses ? "true" : "false");
    ROW("mismatching cycles", "u", r->mismatches);
    ROW("worst difference /255", "d", r->worst_diff);
    ROW("wall s", ".1f", r->wall_s);
    ROW("verdict", "s", passed(r, o) ? "ok" : "FAILED");
#undef ROW
    for (int b = 0; b < nb; b++) printf("  %s: %s\n", hl_backend_name(rs[b].backend), rs[b].adapter);
}

static int usage(const char *msg) {
    fprintf(stderr,
            "recovery_soak: %s\nusage: recovery_soak [--json] [--backend webgpu|gles3|both] [--losses N]\n"
            "                     [--seconds S] [--frames-between K] [--size WxH] [--samples 1|4] [--malloc-trim]\n",
            msg);
    return 2;
}

static bool num(const char *s, uint32_t *out) {
    if (!s || !*s) return false;
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (*end || v > UINT32_MAX) return false;
    *out = (uint32_t)v;
    return true;
}

int main(int argc, char **argv) {
    hl_gen_count_allocations();
    options o = {50, 2, 160, 90, 4, 0, false};
    bool json = false;
    int nb = 2;
    hl_backend backends[2] = {HL_BACKEND_WEBGPU, HL_BACKEND_GLES3};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--json")) {
            json = true;
            continue;
        }
        if (!strcmp(a, "--malloc-trim")) {
            o.trim = true;
            continue;
        }
        if (!strcmp(a, "--backend")) {
            if (!v) return usage("--backend needs webgpu, gles3 or both");
            if (strcmp(v, "both") != 0) {
                if (hl_backend_parse(v, &backends[0]) || backends[0] == HL_BACKEND_AUTO)
                    return usage("--backend needs webgpu, gles3 or both");
                nb = 1;
            }
        } else if (!strcmp(a, "--seconds")) {
            if (!v || (o.seconds = strtod(v, NULL)) <= 0) return usage("--seconds needs a number > 0");
        } else if (!strcmp(a, "--losses")) {
            if (!num(v, &o.losses) || !o.losses) return usage("--losses needs a number > 0");
        } else if (!strcmp(a, "--frames-between")) {
            if (!num(v, &o.frames_between) || !o.frames_between) return usage("--frames-between needs a number > 0");
        } else if (!strcmp(a, "--size")) {
            char tail;
            if (!v || sscanf(v, "%ux%u%c", &o.width, &o.height, &tail) != 2 || !o.width || !o.height)
                return usage("--size needs WxH");
        } else if (!strcmp(a, "--samples")) {
            if (!num(v, &o.samples) || (o.samples != 1 && o.samples != 4)) return usage("--samples needs 1 or 4");
        } else {
            return usage("unknown option");
        }
        i++;
    }
    result rs[2];
    bool all = true;
    for (int b = 0; b < nb; b++) {
        run_backend(backends[b], &o, &rs[b]);
        if (!rs[b].ok) fprintf(stderr, "recovery_soak: %s: %s\n", hl_backend_name(backends[b]), rs[b].error);
        if (rs[b].mismatches)
            fprintf(stderr, "recovery_soak: %s: %u of %u cycles differ from the reference (worst %d/255)\n",
                    hl_backend_name(backends[b]), rs[b].mismatches, rs[b].losses + 1, rs[b].worst_diff);
        if (rs[b].ok && (rs[b].objects_max != rs[b].objects_start || rs[b].objects_end != rs[b].objects_start))
            fprintf(stderr,
                    "recovery_soak: %s: gpu_objects %u after the warm-up, %u..%u over the cycles, %u at the end\n",
                    hl_backend_name(backends[b]), rs[b].objects_start, rs[b].objects_min, rs[b].objects_max,
                    rs[b].objects_end);
        if (rs[b].ok && rs[b].heap_end > rs[b].heap_start)
            fprintf(stderr, "recovery_soak: %s: hilo3d's live heap grew from %.1f KiB to %.1f KiB\n",
                    hl_backend_name(backends[b]), rs[b].heap_start, rs[b].heap_end);
        all &= passed(&rs[b], &o);
        if (json) {
            print_json(&rs[b], &o);
            fflush(stdout);
        }
    }
    if (!json) print_table(rs, nb, &o);
    return all ? 0 : 1;
}
