/* The randomized differential scene generator: PRNG, image comparison, the lockstep run of
 * the worlds, repro lines and crash reporting. The worlds themselves (scene building,
 * mutations, views) are in hl_scene_gen_world*.c; the soak in hl_scene_gen_soak.c. */
#include "hl_scene_gen.h"
#include "hl_test.h" /* hl_test_write_png */

#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define HL_GEN_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HL_GEN_SANITIZED 1
#endif
#endif
#ifndef HL_GEN_SANITIZED
#define HL_GEN_SANITIZED 0
#endif

/* ---- PRNG: xoshiro256** seeded through splitmix64 ------------------------------------------------ */
static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void hl_gen_rng_seed(hl_gen_rng *r, uint64_t seed) {
    uint64_t x = seed;
    for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&x);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t hl_gen_rng_next(hl_gen_rng *r) {
    uint64_t *s = r->s;
    const uint64_t result = rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint32_t hl_gen_rng_below(hl_gen_rng *r, uint32_t n) {
    if (n == 0) return 0;
    /* Lemire's multiply-shift; the tiny bias does not matter here */
    return (uint32_t)(((hl_gen_rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

uint32_t hl_gen_rng_range(hl_gen_rng *r, uint32_t lo, uint32_t hi) {
    if (hi <= lo) return lo;
    return lo + (uint32_t)((((hl_gen_rng_next(r) >> 11) * (1.0 / 9007199254740992.0)) * ((double)hi - lo + 1.0)));
}

float hl_gen_rng_float(hl_gen_rng *r, float lo, float hi) {
    double u = (double)(hl_gen_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
    float v = (float)(lo + (hi - lo) * u);
    return v < hi ? v : lo;
}

bool hl_gen_rng_chance(hl_gen_rng *r, float p) { return hl_gen_rng_float(r, 0.0f, 1.0f) < p; }

/* ---- image comparison --------------------------------------------------------------------------- */
static float half_to_float(uint16_t h) {
    uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 31u, man = h & 1023u;
    uint32_t bits;
    if (exp == 0) {
        if (man == 0) {
            bits = sign;
        } else { /* subnormal */
            float f = (float)man / 1024.0f / 16384.0f;
            return sign ? -f : f;
        }
    } else if (exp == 31) {
        bits = sign | 0x7f800000u | (man << 13);
    } else {
        bits = sign | ((exp + 112u) << 23) | (man << 13);
    }
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

void hl_gen_compare(const void *a, const void *b, uint32_t w, uint32_t h, bool half16, hl_gen_diff *out) {
    uint64_t hist[256] = {0};
    uint64_t n = (uint64_t)w * h * 4, sum = 0;
    uint32_t max = 0;
    uint64_t worst_i = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint32_t d;
        if (half16) {
            uint16_t ha, hb;
            memcpy(&ha, (const uint8_t *)a + i * 2, 2);
            memcpy(&hb, (const uint8_t *)b + i * 2, 2);
            float fa = half_to_float(ha), fb = half_to_float(hb);
            if (isnan(fa) || isnan(fb)) {
                d = (isnan(fa) && isnan(fb)) ? 0 : 255;
            } else {
                float scale = fmaxf(1.0f, fmaxf(fabsf(fa), fabsf(fb)));
                float dd = fabsf(fa - fb) / scale * 255.0f;
                /* infinities: equal ones agree, anything else is the worst */
                d = isinf(fa) || isinf(fb) ? (fa == fb ? 0 : 255) : dd >= 255.0f ? 255u : (uint32_t)(dd + 0.5f);
            }
        } else {
            int da = ((const uint8_t *)a)[i], db = ((const uint8_t *)b)[i];
            d = (uint32_t)abs(da - db);
        }
        hist[d]++;
        sum += d;
        if (d > max) {
            max = d;
            worst_i = i;
        }
    }
    out->mean = n ? (double)sum / (double)n : 0.0;
    out->max = max;
    out->worst_x = w ? (uint32_t)((worst_i / 4) % w) : 0;
    out->worst_y = w ? (uint32_t)((worst_i / 4) / w) : 0;
    /* 99th percentile: the smallest d with at least 99% of the channels at or below it */
    uint64_t need = n - n / 100, acc = 0;
    out->p99 = 0;
    for (uint32_t d = 0; d < 256; d++) {
        acc += hist[d];
        if (acc >= need) {
            out->p99 = d;
            break;
        }
    }
}

/* ---- crash line ----------------------------------------------------------------------------------- */
static char g_crash_line[1024];
static volatile sig_atomic_t g_crash_set;
static bool g_handlers;

static void write_crash_line(void) {
    if (!g_crash_set) return;
    static const char pre[] = "CRASH ";
    ssize_t ignored = write(2, pre, sizeof pre - 1);
    ignored = write(2, g_crash_line, strlen(g_crash_line));
    ignored = write(2, "\n", 1);
    (void)ignored;
}

#if HL_GEN_SANITIZED
/* Under the sanitizers their own handlers report the crash; the line follows their report. */
#include <sanitizer/common_interface_defs.h>
static void install_handlers(void) { __sanitizer_set_death_callback(write_crash_line); }
#else
static void crash_handler(int sig) {
    write_crash_line();
    signal(sig, SIG_DFL);
    raise(sig);
}
static void install_handlers(void) {
    const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) signal(sigs[i], crash_handler);
}
#endif

bool hl_gen_sanitized(void) { return HL_GEN_SANITIZED != 0; }

void hl_gen_set_crash_line(const char *line) {
    if (!g_handlers) {
        g_handlers = true;
        install_handlers();
    }
    g_crash_set = 0;
    if (line) {
        snprintf(g_crash_line, sizeof g_crash_line, "%s", line);
        g_crash_set = 1;
    }
}

/* ---- the lockstep run ------------------------------------------------------------------------------ */
struct hl_gen {
    hl_gen_options opt;
    uint32_t world_count;
    hl_gen_world *worlds[2];
    uint32_t frame;
};

hl_result hl_gen_create(const hl_gen_options *opt, hl_gen **out) {
    *out = NULL;
    hl_gen *g = calloc(1, sizeof *g);
    if (!g) return HL_ERR_OUT_OF_MEMORY;
    g->opt = *opt;
    if (!g->opt.backend_count) {
        g->opt.backend_count = 2;
        g->opt.backends[0] = HL_BACKEND_WEBGPU;
        g->opt.backends[1] = HL_BACKEND_GLES3;
    }
    if (g->opt.backend_count > 2) g->opt.backend_count = 2;
    for (uint32_t i = 0; i < g->opt.backend_count; i++) {
        hl_gen_options wo = g->opt;
        wo.verbose = g->opt.verbose && i == 0;
        hl_result res = hl_gen_world_create(&wo, g->opt.backends[i], &g->worlds[i]);
        if (res) {
            hl_gen_destroy(g);
            return res;
        }
        g->world_count++;
    }
    *out = g;
    return HL_OK;
}

void hl_gen_destroy(hl_gen *g) {
    if (!g) return;
    for (uint32_t i = 0; i < 2; i++) hl_gen_world_destroy(g->worlds[i]);
    free(g);
}

static void add_check(hl_gen_frame_report *rep, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void add_check(hl_gen_frame_report *rep, const char *fmt, ...) {
    if (!rep->failures++) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(rep->check, sizeof rep->check, fmt, ap);
        va_end(ap);
    }
}

static void texel_text(const hl_gen_image *im, uint32_t x, uint32_t y, char *buf, size_t size) {
    size_t i = (size_t)y * im->w + x;
    if (!im->half16) {
        const uint8_t *p = im->data + i * 4;
        snprintf(buf, size, "(%u %u %u %u)", p[0], p[1], p[2], p[3]);
        return;
    }
    float f[4];
    for (int c = 0; c < 4; c++) {
        uint16_t h;
        memcpy(&h, im->data + (i * 4 + (size_t)c) * 2, 2);
        f[c] = half_to_float(h);
    }
    snprintf(buf, size, "(%.3g %.3g %.3g %.3g)", f[0], f[1], f[2], f[3]);
}

/* RGBA8 copy of an image (half floats clamped to [0, 1]). */
static uint8_t *to_rgba8(const hl_gen_image *im) {
    size_t n = (size_t)im->w * im->h * 4;
    uint8_t *out = malloc(n ? n : 1);
    if (!out) return NULL;
    for (size_t i = 0; i < n; i++) {
        if (!im->half16) {
            out[i] = im->data[i];
        } else {
            uint16_t h;
            memcpy(&h, im->data + i * 2, 2);
            float f = half_to_float(h);
            out[i] = (uint8_t)(f <= 0.0f || isnan(f) ? 0 : f >= 1.0f ? 255 : (int)(f * 255.0f + 0.5f));
        }
    }
    return out;
}

/* Writes both images of a failed comparison and their difference (x8, alpha 255) side by side
 * as one PNG (webgpu | gles3 | diff), small images scaled up (nearest) to at least 256 pixels. */
static void dump_pair(const hl_gen *g, uint32_t frame, uint32_t k, const hl_gen_image *a, const hl_gen_image *b) {
    uint8_t *pa = to_rgba8(a), *pb = to_rgba8(b);
    uint32_t big = a->w > a->h ? a->w : a->h, sc = big >= 256 ? 1 : (256 + big - 1) / big;
    uint32_t ow = a->w * sc * 3 + 8, oh = a->h * sc;
    uint8_t *out = calloc((size_t)ow * oh * 4 + 1, 1);
    if (pa && pb && out) {
        for (uint32_t y = 0; y < oh; y++)
            for (uint32_t x = 0; x < a->w * sc; x++) {
                size_t si = ((size_t)(y / sc) * a->w + x / sc) * 4;
                for (int part = 0; part < 3; part++) {
                    uint8_t *d = out + ((size_t)y * ow + part * (a->w * sc + 4) + x) * 4;
                    for (int c = 0; c < 4; c++) {
                        int v = part == 0 ? pa[si + c] : part == 1 ? pb[si + c] : abs((int)pa[si + c] - (int)pb[si + c]) * 8;
                        d[c] = (uint8_t)(part == 2 && c == 3 ? 255 : v > 255 ? 255 : v);
                    }
                }
            }
        char path[512];
        snprintf(path, sizeof path, "%s/seed%llx-frame%u-image%u.png", g->opt.dump_dir, (unsigned long long)g->opt.seed,
                 frame, k);
        if (hl_test_write_png(path, ow, oh, out))
            fprintf(stderr, "wrote %s (%s: %s | %s | difference x8)\n", path, a->what, hl_backend_name(g->opt.backends[0]),
                    hl_backend_name(g->opt.backends[1]));
    }
    free(pa), free(pb), free(out);
}

void hl_gen_frame(hl_gen *g, hl_gen_frame_report *rep) {
    memset(rep, 0, sizeof *rep);
    rep->frame = g->frame++;
    hl_gen_world_frame wf[2];
    memset(wf, 0, sizeof wf);
    for (uint32_t i = 0; i < g->world_count; i++) {
        hl_gen_world_frame_run(g->worlds[i], &wf[i]);
        if (wf[i].failures)
            add_check(rep, "%s: %s", hl_backend_name(g->opt.backends[i]), wf[i].failure);
        rep->failures += wf[i].failures ? wf[i].failures - 1 : 0;
    }
    rep->views = wf[0].views;
    rep->out_w = wf[0].out_w;
    rep->out_h = wf[0].out_h;
    rep->meshes = wf[0].meshes;
    if (g->world_count < 2) return;
    if (wf[0].image_count != wf[1].image_count) {
        add_check(rep, "plan: the worlds read %u and %u images (lockstep broken)", wf[0].image_count, wf[1].image_count);
        return;
    }
    for (uint32_t k = 0; k < wf[0].image_count; k++) {
        const hl_gen_image *a = &wf[0].images[k], *b = &wf[1].images[k];
        if (!a->valid || !b->valid) continue; /* the failed readback is reported as a call */
        if (a->w != b->w || a->h != b->h || a->half16 != b->half16 || strcmp(a->what, b->what) != 0) {
            add_check(rep, "plan: image %u is %s %ux%u vs %s %ux%u (lockstep broken)", k, a->what, a->w, a->h, b->what,
                      b->w, b->h);
            continue;
        }
        hl_gen_diff d;
        hl_gen_compare(a->data, b->data, a->w, a->h, a->half16, &d);
        rep->compared++;
        rep->compared_px += (uint64_t)a->w * a->h;
        if (d.mean > rep->worst_mean) rep->worst_mean = d.mean;
        if (d.p99 > rep->worst_p99) rep->worst_p99 = d.p99;
        bool strict = g->opt.strict && d.max > 4 && (g->opt.focus_frame < 0 || (uint64_t)g->opt.focus_frame == rep->frame);
        if ((d.mean > 1.0 || d.p99 > 4 || strict || g->opt.dump_all) && g->opt.dump_dir) dump_pair(g, rep->frame, k, a, b);
        if (d.mean > 1.0 || d.p99 > 4 || strict)
        {
            /* the texels at the worst place, as bytes (RGBA8) or floats (RGBA16F) */
            char ta[64], tb[64];
            texel_text(a, d.worst_x, d.worst_y, ta, sizeof ta);
            texel_text(b, d.worst_x, d.worst_y, tb, sizeof tb);
            add_check(rep, "diff: %s %ux%u: mean %.3f/255 (<= 1), p99 %u/255 (<= 4), max %u at (%u, %u): %s %s vs %s %s",
                      a->what, a->w, a->h, d.mean, d.p99, d.max, d.worst_x, d.worst_y,
                      hl_backend_name(g->opt.backends[0]), ta, hl_backend_name(g->opt.backends[1]), tb);
        }
    }
}

static const char *const k_avoid_names[] = {"draw-order", "mrt-blend", "mips", "alpha-test"};
enum { AVOID_COUNT = sizeof k_avoid_names / sizeof k_avoid_names[0] };

bool hl_gen_avoid_parse(const char *list, uint32_t *mask) {
    *mask = 0;
    while (list && *list) {
        size_t len = strcspn(list, ",");
        bool found = false;
        for (uint32_t i = 0; i < AVOID_COUNT; i++)
            if (strlen(k_avoid_names[i]) == len && strncmp(list, k_avoid_names[i], len) == 0) {
                *mask |= 1u << i;
                found = true;
            }
        if (!found) return false;
        list += len;
        if (*list == ',') list++;
    }
    return true;
}

void hl_gen_avoid_format(uint32_t mask, char *buf, size_t size) {
    size_t n = 0;
    if (size) buf[0] = 0;
    for (uint32_t i = 0; i < AVOID_COUNT; i++)
        if (mask & (1u << i)) {
            int k = snprintf(buf + n, size - n, "%s%s", n ? "," : "", k_avoid_names[i]);
            if (k < 0 || (size_t)k >= size - n) return;
            n += (size_t)k;
        }
}

void hl_gen_repro(const hl_gen_options *opt, const char *prog, uint32_t frame, char *buf, size_t size) {
    int n = snprintf(buf, size, "%s --seed 0x%" PRIx64 " --frames %u", prog ? prog : "random_frames", opt->seed,
                     frame + 1);
    if (n < 0 || (size_t)n >= size) return;
    if (opt->max_size && opt->max_size != 4096) n += snprintf(buf + n, size - (size_t)n, " --max-size %u", opt->max_size);
    if (n < 0 || (size_t)n >= size) return;
    if (opt->max_meshes && opt->max_meshes != 200)
        n += snprintf(buf + n, size - (size_t)n, " --max-meshes %u", opt->max_meshes);
    if (n < 0 || (size_t)n >= size) return;
    if (opt->history_every != 10) n += snprintf(buf + n, size - (size_t)n, " --history %u", opt->history_every);
    if (n < 0 || (size_t)n >= size) return;
    if (opt->avoid) {
        char names[128];
        hl_gen_avoid_format(opt->avoid, names, sizeof names);
        n += snprintf(buf + n, size - (size_t)n, " --avoid %s", names);
    }
    if (n < 0 || (size_t)n >= size) return;
    if (opt->gltf) n += snprintf(buf + n, size - (size_t)n, " --gltf");
    if (opt->env) n += snprintf(buf + n, size - (size_t)n, " --env");
    if (opt->loss) n += snprintf(buf + n, size - (size_t)n, " --loss");
    if (n < 0 || (size_t)n >= size) return;
    if (opt->backend_count == 1)
        snprintf(buf + n, size - (size_t)n, " --backend %s", hl_backend_name(opt->backends[0]));
}

void hl_gen_run_sequence(const hl_gen_sequence *s, hl_gen_sequence_result *res) {
    memset(res, 0, sizeof *res);
    FILE *out = s->out ? s->out : stdout;
    char repro[256];
    hl_gen_repro(&s->opt, s->prog, 0, repro, sizeof repro);
    hl_gen_set_crash_line(repro);
    hl_gen *g = NULL;
    hl_result cr = hl_gen_create(&s->opt, &g);
    if (cr) {
        res->create_failed = true;
        fprintf(out, "FAIL %s  create: %s %s\n", repro, hl_result_name(cr), hl_last_error());
        if (s->on_failure) s->on_failure(repro, "create failed", s->user);
        hl_gen_set_crash_line(NULL);
        return;
    }
    for (uint32_t f = 0; f < s->frames && !(s->stop && *s->stop); f++) {
        hl_gen_repro(&s->opt, s->prog, f, repro, sizeof repro);
        hl_gen_set_crash_line(repro);
        hl_gen_frame_report rep;
        hl_gen_frame(g, &rep);
        res->frames_run++;
        res->compared += rep.compared;
        if (rep.worst_mean > res->worst_mean) res->worst_mean = rep.worst_mean;
        if (rep.worst_p99 > res->worst_p99) res->worst_p99 = rep.worst_p99;
        if (s->on_frame) s->on_frame(&rep, s->user);
        if (rep.failures) {
            res->failed_frames++;
            fprintf(out, "FAIL %s  %s%s\n", repro, rep.check, rep.failures > 1 ? "  (and more)" : "");
            fflush(out);
            if (s->on_failure) s->on_failure(repro, rep.check, s->user);
            if (!s->keep_going) break;
        }
    }
    hl_gen_set_crash_line(NULL);
    hl_gen_destroy(g);
}
