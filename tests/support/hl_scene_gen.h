/* Randomized scenes for the differential test (tests/test_random_scenes.c, bench/random_frames.c)
 * and the churn soak (tests/test_soak.c, bench/soak.c). Public API only.
 *
 * A sequence is deterministic from (seed, options): every decision comes from the generator's
 * own PRNG (xoshiro256** seeded through splitmix64; never rand()). Each backend gets a "world":
 * one renderer and its own copy of every scene object (stages, meshes, geometries, materials,
 * textures, uniform buffers, lights, cameras, render targets), built by a generator seeded the
 * same way. No decision depends on what a call returned, so the worlds stay in lockstep and
 * frame N of a seed is the same whatever backends run it and however many frames follow.
 *
 * A frame: random mutations (add / remove / move / reparent meshes, swap materials and
 * geometries, change factors, uniform values, textures, lights, fog, cameras; resize the
 * renderer and the targets; destroy and re-create meshes, materials, textures and targets;
 * toggle visibility), then views (hl_renderer_render, hl_renderer_render_to_target, and
 * hl_renderer_render_frame with several views and a present), then the readback of the output
 * and of every attachment of every target written in the frame.
 *
 * Checks per frame:
 *   call    every call that the API documents as valid for its input returns HL_OK;
 *   misuse  a deliberate misuse (a view whose stage samples the target it renders into) returns
 *           HL_ERR_VALIDATION;
 *   diff    the backends agree on every image read back: mean |a - b| <= 1/255 and 99th
 *           percentile <= 4/255 over all channels (RGBA16F: |a - b| / max(1, |a|, |b|) in 1/255);
 *   history every history_every frames, a stage that samples no live target is rendered again by
 *           the world's renderer and by a new renderer of the same backend and description that
 *           has seen nothing before; the two images must agree within the same bounds (finds
 *           caches keyed by stale state, which both backends would share). The new renderer
 *           draws without render bundles (hl_renderer_desc.no_render_bundles) where the world's
 *           renderer draws the direct recorder's passes through them: bundles kept across
 *           frames are compared with draws recorded one by one.
 *
 * Scenes are built so that correct backends agree: random rotations and placements (no exact
 * edge-on geometry), roughness >= 0.08 unless exactly 0, normalised normals, no line topology
 * (GL ES rasterizes lines by the diamond-exit rule, Vulkan/Dawn as parallelograms: different
 * coverage and interpolation, a legitimate difference), every target rendered before anything
 * samples it, no view sampling the target it renders into (except the misuse check).
 *
 * A failing frame N is reproduced by `random_frames --seed S --frames N+1` plus the options
 * that shape the sequence (--max-size, --max-meshes, --history, --avoid); hl_gen_repro writes
 * that line.
 */
#ifndef HL_SCENE_GEN_H
#define HL_SCENE_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hilo3d/hilo3d.h"

/* ---- PRNG ---------------------------------------------------------------------------------------- */
typedef struct hl_gen_rng {
    uint64_t s[4];
} hl_gen_rng;

void hl_gen_rng_seed(hl_gen_rng *r, uint64_t seed);
uint64_t hl_gen_rng_next(hl_gen_rng *r);
uint32_t hl_gen_rng_below(hl_gen_rng *r, uint32_t n);            /* [0, n); 0 when n == 0 */
uint32_t hl_gen_rng_range(hl_gen_rng *r, uint32_t lo, uint32_t hi); /* [lo, hi] */
float hl_gen_rng_float(hl_gen_rng *r, float lo, float hi);       /* [lo, hi) */
bool hl_gen_rng_chance(hl_gen_rng *r, float p);

/* A random glTF asset (hl_scene_gen_gltf.c) as GLB bytes (malloc'd; *size); *animated when it
 * has an animation (of node 0's rotation). Every decision comes from rng. */
uint8_t *hl_gen_gltf_random(hl_gen_rng *rng, size_t *size, bool *animated);

/* ---- randomized differential scenes -------------------------------------------------------------- */
/* Known failure classes a run can leave out (--avoid NAME[,NAME]) to look past them. A test
 * without avoidances finds them again; each names a reported defect, not a contract. */
enum {
    HL_GEN_AVOID_DRAW_ORDER = 1u << 0, /* "draw-order": images that depend on the order of opaque draws of
                                          equal render order (targets without depth, depth test or write
                                          off): the renderer breaks such ties by RHI handle ids, which
                                          differ between the backends */
    HL_GEN_AVOID_MRT_BLEND = 1u << 1,  /* "mrt-blend": transparent materials drawn into multi-attachment
                                          targets: webgpu blends attachment 0 only, GLES 3.0 applies its
                                          blend state to every attachment */
    /* Diagnosis knobs (the sequence stays the same, only values change): */
    HL_GEN_AVOID_MIPS = 1u << 2,       /* "mips": every texture made without mipmaps */
    HL_GEN_AVOID_ALPHA_TEST = 1u << 3, /* "alpha-test": alpha cutoffs 1e-6 (masked materials discard only alpha 0) */
};
/* Parses "name[,name...]" into *mask; false for an unknown name. */
bool hl_gen_avoid_parse(const char *list, uint32_t *mask);
/* Writes the names of mask, comma-separated ("" for 0). */
void hl_gen_avoid_format(uint32_t mask, char *buf, size_t size);

/* Zero = defaults. */
typedef struct hl_gen_options {
    uint64_t seed;
    uint32_t max_size;      /* largest side of the output and of targets; 0 = 4096 */
    uint32_t max_meshes;    /* meshes per stage at most; 0 = 200 */
    uint32_t backend_count; /* 0 = 2: webgpu and gles3 (1: that backend alone, no diff check) */
    hl_backend backends[2];
    uint32_t avoid;         /* HL_GEN_AVOID_* */
    uint32_t history_every; /* every N frames, a history check (0: none); see above */
    bool verbose;           /* log each frame's mutations and views to stderr (first world) */
    bool describe;          /* with verbose: also every light and mesh of each stage drawn */
    const char *dump_dir;   /* write the images of a failed diff there as PNG (NULL: none) */
    bool dump_all;          /* with dump_dir: every compared image, not only failed ones */
    /* Diagnosis (the sequence is unchanged: these act after every decision is drawn). */
    bool strict;            /* also fail on any single channel more than 4/255 apart (in the focus
                               frame when one is set) */
    int64_t focus_frame;    /* the frame the next two apply to (-1 or 0 with both unset: none) */
    const char *keep_meshes; /* "a:b,c,...": mesh indices of each drawn stage that stay visible */
    const char *keep_lights; /* the same for lights */
    uint32_t keep_views_lo, keep_views_hi; /* views [lo, hi) of a render_frame run (hi 0: all) */
    /* The worlds' renderers record through: HL_GEN_PIPELINE_BY_SEED (seed % 8: 0, 2 and 4 the
     * direct recorder, 1 and 5 the scripted Forward of hl_test_pipeline.h, 3 and 7 Forward
     * with tone mapping, 6 the deferred pipeline (src/demo/hl_deferred.h, tone mapping): see
     * hl_test_pipeline.h), _DIRECT, _SCRIPTED, _POST or _DEFERRED. The history check's fresh
     * renderer takes the other of direct and scripted (so both are compared on each backend
     * too), the same for post and deferred. Drawn from no random decision (worlds stay in
     * lockstep). */
    uint32_t pipeline;
    /* Random glTF assets (hl_gen_gltf_random) loaded into the stages, animated and removed now
     * and then, drawn from a random stream of their own (seeded from seed): the scene sequence
     * of the other decisions stays the same with or without them. random_frames --gltf. */
    bool gltf;
    /* Image-based lighting: environments (the default studio or a small random one) set on the
     * stages, changed (intensity, rotation, the stage's exposure) and removed now and then, from
     * a random stream of their own as gltf's. random_frames --env. */
    bool env;
    /* Device loss: now and then (a random stream of its own, the same in both worlds) the
     * renderer loses its device (hl_renderer_simulate_device_loss) or drops its GPU objects
     * (hl_renderer_release_gpu_resources) before the frame's render calls, which recover and must
     * draw what the other world draws. random_frames --loss. */
    bool loss;
} hl_gen_options;

enum {
    HL_GEN_PIPELINE_BY_SEED = 0,
    HL_GEN_PIPELINE_DIRECT,
    HL_GEN_PIPELINE_SCRIPTED,
    HL_GEN_PIPELINE_POST,
    HL_GEN_PIPELINE_DEFERRED
};

typedef struct hl_gen hl_gen;

/* One frame's outcome. check holds the first failed check ("call: ...", "diff: ...",
 * "misuse: ..."), failures how many checks failed. */
typedef struct hl_gen_frame_report {
    uint32_t frame;
    uint32_t failures;
    char check[768];
    uint32_t views;        /* views rendered per backend */
    uint32_t compared;     /* images compared across backends */
    uint64_t compared_px;  /* pixels compared */
    double worst_mean;     /* worst mean difference of the frame, in 1/255 */
    uint32_t worst_p99;    /* worst 99th percentile, in 1/255 */
    uint32_t out_w, out_h; /* output size */
    uint32_t meshes;       /* meshes in all stages */
} hl_gen_frame_report;

/* Creates the worlds (renderers with sample count, shadow atlas and first size drawn from the
 * seed) and the initial scene. Fails when a renderer cannot be created. */
hl_result hl_gen_create(const hl_gen_options *opt, hl_gen **out);
/* Runs the next frame of the sequence on every world and fills *rep. */
void hl_gen_frame(hl_gen *g, hl_gen_frame_report *rep);
void hl_gen_destroy(hl_gen *g);

/* The one-line reproduction of frame `frame` (0-based) of opt's sequence (no newline). */
void hl_gen_repro(const hl_gen_options *opt, const char *prog, uint32_t frame, char *buf, size_t size);

/* Frames 0 .. frames-1 of one seed. Each failing frame prints "FAIL <repro>  <check>" to out
 * (one line) and calls on_failure; the sequence stops at the first failing frame unless
 * keep_going. */
typedef struct hl_gen_sequence {
    hl_gen_options opt;
    uint32_t frames;
    bool keep_going;
    const char *prog; /* program name in repro lines; NULL = "random_frames" */
    FILE *out;        /* NULL = stdout */
    void (*on_failure)(const char *repro, const char *check, void *user);
    void (*on_frame)(const hl_gen_frame_report *rep, void *user);
    void *user;
    const volatile int *stop; /* optional: the sequence ends before the next frame once *stop != 0 */
} hl_gen_sequence;

typedef struct hl_gen_sequence_result {
    uint32_t frames_run;
    uint32_t failed_frames;
    bool create_failed;
    uint64_t compared;    /* images compared */
    double worst_mean;    /* over the sequence, in 1/255 */
    uint32_t worst_p99;
} hl_gen_sequence_result;

void hl_gen_run_sequence(const hl_gen_sequence *s, hl_gen_sequence_result *res);

/* True in an AddressSanitizer build (tests shorten their runs; RSS bounds mean nothing there). */
bool hl_gen_sanitized(void);

/* Crash reporting: the line is written to stderr when the process dies on SIGSEGV, SIGBUS,
 * SIGFPE, SIGILL or SIGABRT (async-signal-safe). NULL clears it. Installs the handlers on the
 * first call. */
void hl_gen_set_crash_line(const char *line);

/* Image comparison (exposed for the tests of the generator itself). a and b hold w * h texels
 * of 4 bytes (RGBA8) or 8 bytes (half floats when half16). */
typedef struct hl_gen_diff {
    double mean;  /* in 1/255 */
    uint32_t p99; /* in 1/255 */
    uint32_t max; /* in 1/255 */
    uint32_t worst_x, worst_y;
} hl_gen_diff;
void hl_gen_compare(const void *a, const void *b, uint32_t w, uint32_t h, bool half16, hl_gen_diff *out);

/* ---- churn soak ----------------------------------------------------------------------------------- */
/* Counts the live blocks and bytes of everything hilo3d allocates (through hl_set_allocator).
 * Call before creating any hilo3d object. */
void hl_gen_count_allocations(void);
uint64_t hl_gen_live_blocks(void);
uint64_t hl_gen_live_bytes(void);
/* Resident set size from /proc/self/statm, in KiB (0 when unknown). */
uint64_t hl_gen_rss_kb(void);
/* Resident KiB of the process's anonymous executable mappings (/proc/self/smaps): code a driver
 * generated at run time (a JIT such as Mesa's LLVM-based lavapipe/llvmpipe); 0 where unreadable. */
uint64_t hl_gen_exec_anon_kb(void);

typedef struct hl_soak_desc {
    hl_backend backend;
    uint32_t frames;       /* default 10000 */
    uint32_t sample_every; /* default 500 */
    uint32_t read_every;   /* readback period; default 50 */
    uint32_t warmup;       /* frame the growth is measured from; default frames / 5 */
    double max_rss_growth_kb;  /* bound on RSS growth warmup -> end; default 4096 */
    uint64_t max_live_block_growth; /* bound on hilo3d live-block growth; default 256 */
    uint64_t max_live_byte_growth;  /* bound on hilo3d live-byte growth; default 1 MiB */
    uint32_t max_programs, max_pipelines, max_mirrors, max_targets; /* live-count bounds; 0 = defaults */
    FILE *out;             /* samples and verdict; NULL = stdout */
    bool quiet;            /* no per-sample lines */
} hl_soak_desc;

typedef struct hl_soak_result {
    uint32_t frames_run;
    uint32_t failed_calls; /* calls that returned an error */
    char first_error[512];
    uint64_t rss_kb_warm, rss_kb_end;
    uint64_t live_blocks_warm, live_blocks_end, live_blocks_max;
    uint64_t live_bytes_warm, live_bytes_end, live_bytes_max;
    double allocs_per_frame; /* hl_alloc_count per frame after warmup */
    uint32_t max_programs, max_pipelines, max_mirrors, max_targets; /* after warmup */
    uint32_t reads, blank_reads; /* periodic readbacks; those that showed nothing drawn */
    bool bounded;                /* every bound held */
    char verdict[512];           /* which bounds broke */
} hl_soak_result;

/* Runs the soak on one backend: prints a line per sample and a verdict. HL_OK when it ran
 * (check res->bounded and res->failed_calls). */
hl_result hl_soak_run(const hl_soak_desc *d, hl_soak_result *res);

/* ---- worlds (used by hl_scene_gen*.c only) -------------------------------------------------------- */
/* One image a frame read back: the output or one attachment of a target. */
typedef struct hl_gen_image {
    char what[96];  /* "output", "target 2 (#7) attachment 1 RGBA16F 4x" */
    uint32_t w, h;
    bool half16;    /* 8 bytes per texel (RGBA16F) */
    bool valid;     /* the readback succeeded */
    uint8_t *data;
    size_t capacity;
} hl_gen_image;

typedef struct hl_gen_world hl_gen_world;

typedef struct hl_gen_world_frame {
    uint32_t image_count;
    const hl_gen_image *images; /* owned by the world, valid until its next frame */
    uint32_t views;
    uint32_t failures;          /* failed calls and misuse checks */
    char failure[640];          /* the first one */
    uint32_t out_w, out_h, meshes;
} hl_gen_world_frame;

hl_result hl_gen_world_create(const hl_gen_options *opt, hl_backend backend, hl_gen_world **out);
void hl_gen_world_frame_run(hl_gen_world *w, hl_gen_world_frame *out);
void hl_gen_world_destroy(hl_gen_world *w);
hl_renderer *hl_gen_world_renderer(hl_gen_world *w);

#endif
