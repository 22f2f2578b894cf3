/* bench/rhi_draws: N draws per frame of a small mesh, each with its own dynamic UBO offset,
 * through the RHI and through the raw API in the same run, on each backend.
 *
 *   rhi_draws [--json] [--backend webgpu|gles3] [--draws N] [--frames F] [--warmup W]
 *
 * Engine loop: begin_frame, one render pass, set pipeline + vertex buffer, then per draw
 * set_bind_group(dynamic offset) + draw, end pass, end_frame; then wait.
 * Raw loop, same work:
 *  - webgpu: wgpu* calls straight into Dawn (encoder, pass, SetBindGroup with the dynamic
 *    offset + Draw per draw, Finish, Submit) on the same native pipeline/bind group/buffers;
 *  - gles3: GL calls on the same EGL context with GL objects of its own (program from the
 *    same GLSL, VAO, FBO, UBO): glBindBufferRange + glDrawArrays per draw, glFlush + fence.
 * Timed: CPU time to record and submit a frame (encode), and the whole frame including the
 * wait (frame). One JSON line per backend: engine_ns_per_draw, raw_ns_per_draw, ratio
 * (encode time), allocs_per_frame (heap allocations through the hl allocator hook per
 * steady-state engine frame).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_draws.h"

typedef struct bench_cfg {
    uint32_t draws, frames, warmup;
    bool json;
} bench_cfg;

typedef struct bench_result {
    double encode_ns, frame_ns; /* per frame, mean over measured frames */
    double allocs_per_frame;
} bench_result;

/* Alternates one engine frame and one raw frame; warm-up frames are not measured. */
static hl_result run_both(hl_bench_draws *bd, const bench_cfg *cfg, bench_result *eng, bench_result *raw) {
    uint64_t eng_enc = 0, raw_enc = 0, eng_frame = 0, raw_frame = 0, allocs = 0;
    hl_result r = HL_OK;
    for (uint32_t f = 0; !r && f < cfg->warmup + cfg->frames; f++) {
        bool measured = f >= cfg->warmup;
        uint64_t enc = 0, t0 = hl_bench_now_ns(), a0 = hl_alloc_count();
        r = hl_bench_draws_engine_frame(bd, &enc);
        uint64_t t1 = hl_bench_now_ns(), a1 = hl_alloc_count();
        if (measured) {
            eng_enc += enc;
            eng_frame += t1 - t0;
            allocs += a1 - a0;
        }
        if (r) break;
        t0 = hl_bench_now_ns();
        r = hl_bench_draws_raw_frame(bd, &enc);
        if (measured) {
            raw_enc += enc;
            raw_frame += hl_bench_now_ns() - t0;
        }
    }
    eng->encode_ns = (double)eng_enc / cfg->frames;
    eng->frame_ns = (double)eng_frame / cfg->frames;
    eng->allocs_per_frame = (double)allocs / cfg->frames;
    raw->encode_ns = (double)raw_enc / cfg->frames;
    raw->frame_ns = (double)raw_frame / cfg->frames;
    return r;
}

static int run_backend(hl_rhi_backend b, const bench_cfg *cfg) {
    hl_rhi_device_desc dd = {0};
    dd.backend = b;
    hl_rhi_device *dev = NULL;
    hl_result r = hl_rhi_device_create(&dd, &dev);
    if (r) {
        printf("{\"backend\":\"%s\",\"available\":false,\"error\":\"%s\"}\n", hl_rhi_backend_name(b),
               hl_result_name(r));
        return 0;
    }
    bench_result eng = {0}, raw = {0};
    hl_bench_draws *bd = NULL;
    r = hl_bench_draws_create(dev, cfg->draws, &bd);
    if (!r) r = run_both(bd, cfg, &eng, &raw);
    hl_rhi_stats st = *hl_rhi_device_stats(dev);
    if (r) fprintf(stderr, "rhi_draws: %s: %s: %s\n", hl_rhi_backend_name(b), hl_result_name(r), hl_last_error());
    const double n = cfg->draws;
    if (!r) {
        if (cfg->json)
            printf("{\"backend\":\"%s\",\"adapter\":\"%s\",\"draws\":%u,\"frames\":%u,"
                   "\"engine_ns_per_draw\":%.1f,\"raw_ns_per_draw\":%.1f,\"ratio\":%.3f,"
                   "\"engine_frame_ms\":%.3f,\"raw_frame_ms\":%.3f,\"allocs_per_frame\":%.2f,"
                   "\"native_calls_per_draw\":%.2f}\n",
                   hl_rhi_backend_name(b), hl_rhi_device_caps(dev)->adapter_name, cfg->draws, cfg->frames,
                   eng.encode_ns / n, raw.encode_ns / n, eng.encode_ns / raw.encode_ns, eng.frame_ns / 1e6,
                   raw.frame_ns / 1e6, eng.allocs_per_frame,
                   (double)st.native_calls / ((double)(cfg->frames + cfg->warmup) * n));
        else
            printf("%-7s %s\n  engine %.1f ns/draw (frame %.3f ms)  raw %.1f ns/draw (frame %.3f ms)  ratio %.3f  "
                   "allocs/frame %.2f\n",
                   hl_rhi_backend_name(b), hl_rhi_device_caps(dev)->adapter_name, eng.encode_ns / n,
                   eng.frame_ns / 1e6, raw.encode_ns / n, raw.frame_ns / 1e6, eng.encode_ns / raw.encode_ns,
                   eng.allocs_per_frame);
    }
    hl_bench_draws_destroy(bd);
    hl_rhi_device_destroy(dev);
    return r ? 1 : 0;
}

int main(int argc, char **argv) {
    bench_cfg cfg = {10000, 200, 20, false};
    int only = -1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) cfg.json = true;
        else if (i + 1 < argc && strcmp(argv[i], "--draws") == 0) cfg.draws = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (i + 1 < argc && strcmp(argv[i], "--frames") == 0) cfg.frames = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (i + 1 < argc && strcmp(argv[i], "--warmup") == 0) cfg.warmup = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (i + 1 < argc && strcmp(argv[i], "--backend") == 0) {
            hl_rhi_backend b;
            if (hl_rhi_backend_parse(argv[++i], &b) != HL_OK || b == HL_RHI_BACKEND_AUTO || b == HL_RHI_BACKEND_NULL) {
                fprintf(stderr, "rhi_draws: --backend must be webgpu or gles3\n");
                return 2;
            }
            only = (int)b;
        } else {
            fprintf(stderr, "usage: rhi_draws [--json] [--backend webgpu|gles3] [--draws N] [--frames F] [--warmup W]\n");
            return 2;
        }
    }
    if (!cfg.draws || !cfg.frames || cfg.draws > 100000) {
        fprintf(stderr, "rhi_draws: --draws must be 1..100000 and --frames > 0\n");
        return 2;
    }
    int rc = 0;
    if (only < 0 || only == HL_RHI_BACKEND_WEBGPU) rc |= run_backend(HL_RHI_BACKEND_WEBGPU, &cfg);
    if (only < 0 || only == HL_RHI_BACKEND_GLES3) rc |= run_backend(HL_RHI_BACKEND_GLES3, &cfg);
    return rc;
}
