/* bench/random_frames: the long run of the randomized differential scenes
 * (tests/support/hl_scene_gen.h; tests/test_random_scenes.c is the short CI version).
 *
 *   random_frames [--seed S] [--frames N] [--episode E] [--backend webgpu|gles3|both]
 *                 [--max-size N] [--max-meshes N] [--history N] [--avoid NAME[,NAME]] [--keep-going]
 *                 [--verbose] [--describe] [--dump DIR] [--dump-all DIR] [--quiet] [--gltf] [--env] [--loss]
 *                 [--strict] [--focus-frame N [--keep-meshes LIST] [--keep-lights LIST] [--keep-views A:B]]
 *
 * Runs N frames in episodes of at most E frames (default 1000): episode k is the sequence of
 * seed S + k, so a failure at frame j of an episode is reproduced by
 * `random_frames --seed S+k --frames j+1 ...`, printed as one line per failure. With both
 * backends (the default) every frame is compared across them; with one backend only the call
 * and misuse checks run. Prints progress (frames/s), every failure and a summary; exits 1 on
 * any failure, 2 on a usage error; SIGINT / SIGTERM end it after the current frame, with the
 * summary. --history N (default 10): every Nth frame a view is rendered
 * again by a new renderer of the same backend and compared with the long-lived one (0: off).
 *
 * An episode stops at its first failing frame (the worlds may diverge after a failure) and the
 * run goes on with the next episode, unless --keep-going. --dump writes the two images of a
 * failed comparison and their difference as PNG (--dump-all: every comparison). --verbose logs
 * each frame's mutations, targets and views (--describe: also every light and mesh drawn).
 * Narrowing a failure down (the sequence stays the same): --focus-frame N with --keep-meshes
 * LIST (only those mesh indices of each stage drawn stay visible in frame N, e.g. 0:10,12),
 * --keep-lights LIST (the same for lights) and
 * --keep-views A:B (only views A..B-1 of frame N's render_frame run); the frames before N are
 * replayed (the same calls, no readback, no history renderer), so a probe costs little more than
 * frame N (scripts/random_frames_narrow.py runs such probes in parallel); --strict fails on any
 * channel more than 4/255 apart, to see a cause too small to break the bounds alone. --avoid
 * leaves out a known failure class or, for diagnosis, mips or the alpha test (see hl_scene_gen.h). */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hl_scene_gen.h"

/* SIGINT / SIGTERM end the run after the current frame, with its summary */
static volatile int g_stop;
static void on_signal(int sig) {
    (void)sig;
    g_stop = 1;
}

static void install_signals(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int usage(const char *msg) {
    fprintf(stderr,
            "random_frames: %s\n"
            "usage: random_frames [--seed S] [--frames N] [--episode E] [--backend webgpu|gles3|both]\n"
            "                     [--max-size N] [--max-meshes N] [--history N] [--avoid NAME[,NAME]] [--keep-going]\n"
            "                     [--verbose] [--describe] [--dump DIR] [--dump-all DIR] [--quiet] [--gltf] [--env] [--loss]\n"
            "                     [--strict] [--focus-frame N [--keep-meshes LIST] [--keep-lights LIST] [--keep-views A:B]]\n",
            msg);
    return 2;
}

static bool parse_u64(const char *s, uint64_t *out) {
    if (!s || !*s) return false;
    char *end;
    *out = strtoull(s, &end, 0);
    return *end == 0;
}

typedef struct run_state {
    double t0, last_print;
    uint64_t frames, failures, compared, compared_px;
    uint64_t total;
    double worst_mean;
    uint32_t worst_p99;
    bool quiet;
} run_state;

static void on_frame(const hl_gen_frame_report *rep, void *user) {
    run_state *st = user;
    /* again every frame: the drivers' LLVM registers its own SIGINT/SIGTERM handlers when it
       compiles (they re-raise with the default action) */
    install_signals();
    st->frames++;
    st->compared += rep->compared;
    st->compared_px += rep->compared_px;
    if (rep->worst_mean > st->worst_mean) st->worst_mean = rep->worst_mean;
    if (rep->worst_p99 > st->worst_p99) st->worst_p99 = rep->worst_p99;
    double t = now_s();
    if (!st->quiet && t - st->last_print >= 5.0) {
        st->last_print = t;
        printf("progress: %" PRIu64 "/%" PRIu64 " frames, %.1f frames/s, %" PRIu64 " failures, %" PRIu64
               " images compared\n",
               st->frames, st->total, (double)st->frames / (t - st->t0), st->failures, st->compared);
        fflush(stdout);
    }
}

static void on_failure(const char *repro, const char *check, void *user) {
    (void)repro, (void)check;
    ((run_state *)user)->failures++;
}

int main(int argc, char **argv) {
    uint64_t seed = 1, frames = 100, episode = 1000, v;
    hl_gen_options opt = {0};
    opt.history_every = 10;
    opt.focus_frame = -1;
    bool keep_going = false, quiet = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--seed")) {
            if (!parse_u64(val, &seed)) return usage("--seed needs a number");
            i++;
        } else if (!strcmp(a, "--frames")) {
            if (!parse_u64(val, &frames)) return usage("--frames needs a number");
            i++;
        } else if (!strcmp(a, "--episode")) {
            if (!parse_u64(val, &episode) || !episode) return usage("--episode needs a number > 0");
            i++;
        } else if (!strcmp(a, "--max-size")) {
            if (!parse_u64(val, &v) || !v || v > 8192) return usage("--max-size needs 1..8192");
            opt.max_size = (uint32_t)v;
            i++;
        } else if (!strcmp(a, "--max-meshes")) {
            if (!parse_u64(val, &v) || v > 400) return usage("--max-meshes needs 0..400");
            opt.max_meshes = (uint32_t)v;
            i++;
        } else if (!strcmp(a, "--history")) {
            if (!parse_u64(val, &v) || v > UINT32_MAX) return usage("--history needs a number (0: off)");
            opt.history_every = (uint32_t)v;
            i++;
        } else if (!strcmp(a, "--backend")) {
            if (!val) return usage("--backend needs webgpu, gles3 or both");
            if (!strcmp(val, "both")) {
                opt.backend_count = 0;
            } else {
                hl_backend b;
                if (hl_backend_parse(val, &b) || b == HL_BACKEND_AUTO) return usage("--backend needs webgpu, gles3 or both");
                opt.backend_count = 1;
                opt.backends[0] = b;
            }
            i++;
        } else if (!strcmp(a, "--avoid")) {
            if (!hl_gen_avoid_parse(val, &opt.avoid)) return usage("--avoid: unknown name");
            i++;
        } else if (!strcmp(a, "--dump")) {
            if (!val) return usage("--dump needs a folder");
            opt.dump_dir = val;
            i++;
        } else if (!strcmp(a, "--dump-all")) {
            if (!val) return usage("--dump-all needs a folder");
            opt.dump_dir = val;
            opt.dump_all = true;
            i++;
        } else if (!strcmp(a, "--describe")) {
            opt.verbose = opt.describe = true;
        } else if (!strcmp(a, "--gltf")) {
            opt.gltf = true;
        } else if (!strcmp(a, "--env")) {
            opt.env = true;
        } else if (!strcmp(a, "--loss")) {
            opt.loss = true;
        } else if (!strcmp(a, "--strict")) {
            opt.strict = true;
        } else if (!strcmp(a, "--focus-frame")) {
            if (!parse_u64(val, &v)) return usage("--focus-frame needs a frame number");
            opt.focus_frame = (int64_t)v;
            i++;
        } else if (!strcmp(a, "--keep-meshes")) {
            if (!val) return usage("--keep-meshes needs a list such as 0:10,12");
            opt.keep_meshes = val;
            i++;
        } else if (!strcmp(a, "--keep-lights")) {
            if (!val) return usage("--keep-lights needs a list such as 0,2 (or \"\" for none)");
            opt.keep_lights = val;
            i++;
        } else if (!strcmp(a, "--keep-views")) {
            unsigned lo, hi;
            if (!val || sscanf(val, "%u:%u", &lo, &hi) != 2 || hi <= lo) return usage("--keep-views needs A:B");
            opt.keep_views_lo = lo, opt.keep_views_hi = hi;
            i++;
        } else if (!strcmp(a, "--keep-going")) {
            keep_going = true;
        } else if (!strcmp(a, "--verbose")) {
            opt.verbose = true;
        } else if (!strcmp(a, "--quiet")) {
            quiet = true;
        } else {
            return usage("unknown option");
        }
    }
    install_signals();
    run_state st = {0};
    st.t0 = st.last_print = now_s();
    st.total = frames;
    st.quiet = quiet;
    uint64_t episodes = 0, failed_episodes = 0, create_failed = 0;
    for (uint64_t done = 0; done < frames && !g_stop; episodes++) {
        uint64_t n = frames - done < episode ? frames - done : episode;
        hl_gen_sequence seq = {0};
        seq.opt = opt;
        seq.opt.seed = seed + episodes;
        seq.frames = (uint32_t)n;
        seq.keep_going = keep_going;
        seq.prog = "random_frames";
        seq.on_frame = on_frame;
        seq.on_failure = on_failure;
        seq.user = &st;
        seq.stop = &g_stop;
        hl_gen_sequence_result res;
        hl_gen_run_sequence(&seq, &res);
        failed_episodes += res.failed_frames || res.create_failed;
        create_failed += res.create_failed;
        done += n; /* an episode that stopped early still counts its whole budget: the run stays bounded */
    }
    double t = now_s() - st.t0;
    printf("summary: %" PRIu64 " frames in %" PRIu64 " episodes (seeds 0x%" PRIx64 "..0x%" PRIx64 "), %.1f s, %.1f frames/s; %" PRIu64
           " images (%" PRIu64 " pixels) compared, worst mean %.3f/255, worst p99 %u/255; %" PRIu64
           " failures in %" PRIu64 " episodes%s%s\n",
           st.frames, episodes, seed, seed + (episodes ? episodes - 1 : 0), t, t > 0 ? (double)st.frames / t : 0.0,
           st.compared, st.compared_px, st.worst_mean, st.worst_p99, st.failures, failed_episodes,
           create_failed ? " (renderer creation failed)" : "", g_stop ? " (stopped by a signal)" : "");
    return st.failures || create_failed ? 1 : 0;
}
