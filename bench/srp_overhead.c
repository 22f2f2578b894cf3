/* bench/srp_overhead: what the render pipeline host costs. One renderer per case, frames
 * alternating between the cases in the same run (driver drift falls on all alike):
 *
 *   direct     hl_renderer_desc.pipeline NULL (the direct recorder)
 *   forward-0  hl_forward_pipeline_factory_create with no features (must be the direct recorder)
 *   noop-N     Forward with N features that record nothing (N = 2, 4, 8), spread over the
 *              injection points: the SRP record path with the culling/list/scene-pass calls
 *   fs-N       Forward with N features that each add one fullscreen pass over scene colour
 *              (N = 2, 4, 8): the intermediate, N passes and N textures, then the copy out
 *   fwd-tone   Forward with ACES tone mapping (the same post as the next case)
 *   deferred   the deferred pipeline of src/demo/hl_deferred.h (G-buffer, lighting, forward
 *              transparent, tone map; no MSAA)
 *
 * on the demo scene (640x360, 4x MSAA) and the 10,000-mesh scene of scene_draws (640x360, 1x).
 *
 *   srp_overhead [--json] [--backend webgpu|gles3] [--frames F] [--warmup W] [--scene demo|10k|both]
 *                [--cases forward-0,noop-2,...]   (direct always runs: the reference)
 *
 * Rounds of one frame per case, the first case rotating from round to round. Per case: CPU
 * time of the render call (record + graph build/compile/execute + submit; the
 * wait for the GPU is outside), its ratio to direct (of the medians, and paired: the median and
 * quartiles of each round's time over direct's in that round), graph passes, RHI objects
 * created and heap allocations (allocator hook) per steady-state frame. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hilo3d/pipeline.h"
#include "hl_deferred.h"
#include "hl_scene_demo.h"
#include "render_internal.h"

enum { CASES = 10, CASE_TONE_MAP = 8, CASE_DEFERRED = 9 };
static const char *const k_case_names[CASES] = {"direct", "forward-0", "noop-2", "noop-4",  "noop-8",
                                                "fs-2",   "fs-4",      "fs-8",   "fwd-tone", "deferred"};
static const uint32_t k_case_n[CASES] = {0, 0, 2, 4, 8, 2, 4, 8, 1, 0};
static uint32_t g_cases = (1u << CASES) - 1u; /* --cases: the cases run (direct always) */

static hl_result noop_record(hl_pipeline_context ctx, hl_forward_frame *frame, void *state) {
    (void)ctx, (void)frame, (void)state;
    return HL_OK;
}

static const char *const k_tint_fs = "#version 300 es\n"
                                     "precision highp float;\n"
                                     "in vec2 v_uv;\n"
                                     "uniform sampler2D u_src;\n"
                                     "layout(std140) uniform Params { vec4 tint; };\n"
                                     "out vec4 o_color;\n"
                                     "void main() { o_color = texture(u_src, v_uv) * tint; }\n";

static hl_result fs_record(hl_pipeline_context ctx, hl_forward_frame *frame, void *state) {
    (void)state;
    hl_pipeline_texture out;
    hl_pipeline_texture_desc td = {HL_PIPELINE_FORMAT_RGBA16F, 0, 0, 0, 0, "tinted", 1, 0};
    hl_result res = hl_pipeline_create_texture(ctx, &td, &out);
    static const float tint[4] = {1, 1, 1, 1};
    hl_pipeline_fullscreen_pass_desc d = {0};
    d.name = "tint";
    d.fragment = k_tint_fs;
    d.params = tint;
    d.params_size = sizeof tint;
    d.input_names[0] = "u_src";
    d.inputs[0] = frame->color;
    d.input_count = 1;
    d.outputs[0] = out;
    d.output_count = 1;
    if (!res) res = hl_pipeline_add_fullscreen_pass(ctx, &d);
    if (!res) frame->color = out;
    return res;
}

static hl_result make_factory(uint32_t c, hl_pipeline_factory **out) {
    *out = NULL;
    if (c == 0) return HL_OK;
    if (c == CASE_DEFERRED) return hl_deferred_pipeline_factory_create(NULL, out);
    if (c == CASE_TONE_MAP) {
        hl_forward_feature_desc tone;
        hl_forward_tone_map(NULL, &tone);
        hl_forward_pipeline_desc d = {&tone, 1};
        return hl_forward_pipeline_factory_create(&d, out);
    }
    static const hl_forward_injection spread[8] = {HL_FORWARD_BEFORE_SHADOW,     HL_FORWARD_AFTER_OPAQUE,
                                                   HL_FORWARD_AFTER_TRANSPARENT, HL_FORWARD_POST,
                                                   HL_FORWARD_BEFORE_OPAQUE,     HL_FORWARD_AFTER_SHADOW,
                                                   HL_FORWARD_BEFORE_POST,       HL_FORWARD_BEFORE_OUTPUT};
    hl_forward_feature_desc fd[8];
    char names[8][16];
    memset(fd, 0, sizeof fd);
    bool fs = c >= 5 && c <= 7;
    for (uint32_t i = 0; i < k_case_n[c]; i++) {
        snprintf(names[i], sizeof names[i], "%s%u", fs ? "fs" : "noop", i);
        fd[i].name = names[i];
        fd[i].injection = fs ? HL_FORWARD_POST : spread[i];
        fd[i].samples_scene_color = fs;
        fd[i].record = fs ? fs_record : noop_record;
    }
    hl_forward_pipeline_desc d = {fd, k_case_n[c]};
    return hl_forward_pipeline_factory_create(&d, out);
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int run_scene(hl_backend be, const char *scene, hl_stage *stage, hl_camera *cam, uint32_t samples,
                     uint32_t frames, uint32_t warmup, bool json) {
    hl_renderer *r[CASES] = {0};
    hl_result res = HL_OK;
    uint32_t list[CASES], count = 0;
    for (uint32_t c = 0; c < CASES; c++)
        if (g_cases & (1u << c)) list[count++] = c;
    for (uint32_t i = 0; i < count && !res; i++) {
        uint32_t c = list[i];
        hl_pipeline_factory *f = NULL;
        res = make_factory(c, &f);
        hl_renderer_desc rd = {0};
        rd.backend = be;
        rd.width = 640;
        rd.height = 360;
        rd.sample_count = samples;
        rd.pipeline = f;
        if (!res) res = hl_renderer_create(&rd, &r[c]);
        if (c == CASE_DEFERRED) hl_deferred_pipeline_factory_destroy(f);
        else hl_forward_pipeline_factory_destroy(f);
    }
    /* per case and frame: total CPU, then the phases record, graph compile, execute */
    enum { PH = 4 };
    uint64_t *ns = calloc((size_t)PH * CASES * frames, sizeof *ns);
    if (!ns) res = HL_ERR_OUT_OF_MEMORY;
    uint64_t allocs[CASES] = {0}, objects[CASES] = {0};
    uint32_t passes[CASES] = {0};
    for (uint32_t f = 0; !res && f < warmup + frames; f++) {
        /* the first case of each round rotates: no case always runs right after the wait */
        for (uint32_t k = 0; k < count && !res; k++) {
            uint32_t c = list[(k + f) % count];
            uint64_t o0 = hl_rhi_device_stats(r[c]->dev)->objects_created, a0 = hl_alloc_count();
            res = hl_renderer_render(r[c], stage, cam);
            uint64_t a1 = hl_alloc_count(), o1 = hl_rhi_device_stats(r[c]->dev)->objects_created;
            if (!res) res = hl_renderer_wait_idle(r[c]);
            if (res || f < warmup) continue;
            const hl_render_stats *st = hl_renderer_stats(r[c]);
            const uint64_t ph[PH] = {st->cpu_ns, st->record_ns, st->graph_compile_ns, st->execute_ns};
            for (uint32_t p = 0; p < PH; p++) ns[(p * CASES + c) * frames + (f - warmup)] = ph[p];
            allocs[c] += a1 - a0;
            objects[c] += o1 - o0;
            passes[c] = hl_renderer_stats(r[c])->passes;
        }
    }
    int rc = 0;
    if (res) {
        fprintf(stderr, "srp_overhead: %s %s: %s: %s\n", hl_backend_name(be), scene, hl_result_name(res), hl_last_error());
        rc = 1;
    } else {
        /* paired: each round's time over direct's in the same round (before the sorts below),
         * median and quartiles; drift of the machine cancels out of each pair */
        double paired[CASES][3];
        double *pr = malloc((size_t)frames * sizeof *pr);
        for (uint32_t i = 0; i < count && pr; i++) {
            uint32_t c = list[i];
            for (uint32_t f = 0; f < frames; f++)
                pr[f] = (double)ns[c * frames + f] / (double)(ns[f] ? ns[f] : 1);
            qsort(pr, frames, sizeof *pr, cmp_double);
            paired[c][0] = pr[frames / 4], paired[c][1] = pr[frames / 2], paired[c][2] = pr[(3 * frames) / 4];
        }
        free(pr);
        double med[PH][CASES];
        for (uint32_t p = 0; p < PH; p++)
            for (uint32_t c = 0; c < CASES; c++) {
                uint64_t *v = &ns[(p * CASES + c) * frames];
                qsort(v, frames, sizeof *v, cmp_u64);
                med[p][c] = (double)v[frames / 2];
            }
        for (uint32_t i = 0; i < count; i++) {
            uint32_t c = list[i];
            double ms = med[0][c] / 1e6, ratio = med[0][c] / med[0][0];
            if (json)
                printf("{\"backend\":\"%s\",\"scene\":\"%s\",\"case\":\"%s\",\"frames\":%u,\"cpu_ms_median\":%.3f,"
                       "\"ratio_vs_direct\":%.3f,\"ratio_paired_median\":%.3f,\"ratio_paired_q1\":%.3f,"
                       "\"ratio_paired_q3\":%.3f,\"passes\":%u,\"objects_created_per_frame\":%.2f,"
                       "\"allocs_per_frame\":%.2f,\"record_ms\":%.3f,\"graph_compile_us\":%.1f,\"execute_ms\":%.3f,"
                       "\"pipeline\":\"%s\"}\n",
                       hl_backend_name(hl_renderer_backend(r[c])), scene, k_case_names[c], frames, ms, ratio,
                       paired[c][1], paired[c][0], paired[c][2], passes[c], (double)objects[c] / frames,
                       (double)allocs[c] / frames, med[1][c] / 1e6, med[2][c] / 1e3, med[3][c] / 1e6,
                       hl_renderer_pipeline_name(r[c]));
            else
                printf("%-7s %-5s %-10s %8.3f ms/frame (median of %u)  x%.3f vs direct (paired x%.3f [%.3f..%.3f])  "
                       "passes %2u  objects/frame %.2f  allocs/frame %.2f  record %.3f ms  graph compile %.1f us  "
                       "execute %.3f ms\n",
                       hl_backend_name(hl_renderer_backend(r[c])), scene, k_case_names[c], ms, frames, ratio,
                       paired[c][1], paired[c][0], paired[c][2], passes[c],
                       (double)objects[c] / frames, (double)allocs[c] / frames, med[1][c] / 1e6, med[2][c] / 1e3,
                       med[3][c] / 1e6);
        }
    }
    free(ns);
    for (uint32_t c = 0; c < CASES; c++) hl_renderer_destroy(r[c]);
    return rc;
}

int main(int argc, char **argv) {
    bool json = false;
    const char *backend = NULL, *scene = "both";
    uint32_t frames = 30, warmup = 5;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) json = true;
        else if (!strcmp(argv[i], "--backend") && i + 1 < argc) backend = argv[++i];
        else if (!strcmp(argv[i], "--frames") && i + 1 < argc) frames = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--warmup") && i + 1 < argc) warmup = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--scene") && i + 1 < argc) scene = argv[++i];
        else if (!strcmp(argv[i], "--cases") && i + 1 < argc) {
            g_cases = 1u; /* direct: the reference of every ratio */
            char list[256];
            snprintf(list, sizeof list, "%s", argv[++i]);
            for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
                uint32_t c = 0;
                while (c < CASES && strcmp(tok, k_case_names[c])) c++;
                if (c == CASES) {
                    fprintf(stderr, "srp_overhead: unknown case '%s'\n", tok);
                    return 2;
                }
                g_cases |= 1u << c;
            }
        }
        else {
            fprintf(stderr, "usage: srp_overhead [--json] [--backend webgpu|gles3] [--frames F] [--warmup W] "
                            "[--scene demo|10k|both] [--cases NAME,...]\n");
            return 2;
        }
    }
    if (!frames || frames > 100000) {
        fprintf(stderr, "srp_overhead: --frames must be 1..100000\n");
        return 2;
    }
    int rc = 0;
    for (int b = 0; b < 2; b++) {
        hl_backend be = b ? HL_BACKEND_GLES3 : HL_BACKEND_WEBGPU;
        if (backend && strcmp(backend, hl_backend_name(be))) continue;
        if (!strcmp(scene, "demo") || !strcmp(scene, "both")) {
            hl_scene_demo demo;
            if (hl_scene_demo_create(16.0f / 9.0f, &demo)) return 1;
            rc |= run_scene(be, "demo", demo.stage, demo.camera, 4, frames, warmup, json);
            hl_scene_demo_destroy(&demo);
        }
        if (!strcmp(scene, "10k") || !strcmp(scene, "both")) {
            hl_stage *s = NULL;
            hl_camera *cam = NULL;
            if (hl_scene_grid_create(10000, 100, &s, &cam)) return 1;
            rc |= run_scene(be, "10k", s, cam, 1, frames, warmup, json);
            hl_stage_destroy(s);
        }
    }
    return rc;
}
