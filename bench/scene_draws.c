/* bench/scene_draws: the renderer's frontend against the raw API doing the same work.
 *
 * Scene: N meshes on a grid (one box geometry: 24 vertices, 36 indices; M PBR materials, mesh i
 * uses material i % M), one directional light, a perspective camera seeing all of them; 640x360,
 * 1x MSAA, the direct recorder. Cases, each its own renderer, engine and raw frames alternating in
 * the same run (driver drift falls on both):
 *   static  nothing changes between frames;
 *   moving  every mesh's translation changes every frame;
 *   churn   1% of the meshes destroyed and 1% new ones added every frame (the count stays N).
 *
 * Raw loop (bench/support/bench_replay.h): one engine frame is captured at the RHI and replayed
 * straight against webgpu.h / GLES on the engine's own native objects (same pipeline and program,
 * same geometry buffers and layout, same bind groups, the same dynamic offsets and material
 * switches in the same order, same passes, target and MSAA), setting only what changes from draw
 * to draw. Its uploads go to a buffer of its own of the engine's size: every frame the view's
 * constants (sizeof the Frame block); moving: every mesh's model and normal matrices computed
 * from its translation (inverse-transpose as the engine does) and written in one upload; churn:
 * the new meshes' matrices, one upload each.
 *
 * Engine time: hl_render_stats.cpu_ns of hl_renderer_render (record + graph + execute + submit;
 * the wait for the GPU is outside), with its own breakdown. Raw time: CPU from the first upload to
 * the submit. Both as means (engine_ms_per_frame, raw_ms_per_frame) and medians of the measured
 * frames; with the calling thread's CPU time over the same span (CLOCK_THREAD_CPUTIME_ID: time
 * blocked in the driver does not count, time it spins does) and the wait for the GPU after each
 * frame (engine_gpu_wait_ms: hl_renderer_wait_idle; raw_gpu_wait_ms: its fence or queue wait).
 * allocs_per_frame: heap allocations through the hl allocator hook inside the render call, per
 * steady-state frame.
 *
 *   scene_draws [--json] [--backend webgpu|gles3] [--meshes N[,N...]] [--cases static,moving,churn]
 *               [--materials M] [--frames F] [--warmup W] [--size WxH] [--no-bundles] [--threads T]
 *               [--trace-allocs] [--gpu-timer]
 *
 * --size: the output (default 640x360; a small one keeps lavapipe's rasterization out of a profile
 * under valgrind). --no-bundles: the engine draws without render bundles
 * (hl_renderer_desc.no_render_bundles); the JSON says which ("bundles"), with the frames'
 * bundles recorded and replayed. --threads: hl_renderer_desc.frontend_threads (default 0: the
 * renderer's default, the machine's cores - 1). --trace-allocs: every heap allocation inside a
 * measured render call printed to stderr with its call stack (glibc backtrace_symbols_fd; resolve
 * with addr2line -e scene_draws): where a steady frame's allocations come from. --gpu-timer
 * (gles3 with GL_EXT_disjoint_timer_query): the GPU time of every measured engine and raw frame
 * (engine_gpu_ms, raw_gpu_ms; -1 without it). Off by default: an open timer query changes what it
 * measures on some drivers (llvmpipe: the engine's static 1,000-mesh frame 2.4 -> 5.1 ms).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_draws.h"
#include "bench_replay.h"
#include "hilo3d/renderer.h"
#include "hl_scene_demo.h"
#include "hl_test_alloc.h"
#include "render_internal.h"

enum { CASE_STATIC, CASE_MOVING, CASE_CHURN, CASE_COUNT };
static const char *const k_case_names[CASE_COUNT] = {"static", "moving", "churn"};

typedef struct cfg {
    uint32_t meshes[8], mesh_sets;
    uint32_t cases; /* bit per case */
    uint32_t materials, frames, warmup;
    bool json;
    uint32_t width, height;
    bool no_bundles;
    uint32_t threads;
    bool trace_allocs;
    bool gpu_timer; /* gles3: GPU time of each measured frame (timer queries) */
} cfg;

/* Lavapipe (Mesa 25.0's Vulkan on the CPU) maps a page of its own memory for each draw of a
 * submission in its queue thread and writes it without checking the mapping: a frame of more
 * draws than the process may hold mappings (vm.max_map_count, 65,530 by default) crashes it in
 * a memset. Both loops draw that many, so such a case is refused with the remedy instead. */
static hl_result lavapipe_room(hl_backend backend, const char *adapter, uint32_t draws) {
    if (backend != HL_BACKEND_WEBGPU || !strstr(adapter, "llvmpipe")) return HL_OK;
    unsigned long most = 65530;
    FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
    if (f) {
        if (fscanf(f, "%lu", &most) != 1) most = 65530;
        fclose(f);
    }
    if ((unsigned long)draws + 4096u <= most) return HL_OK; /* about 2,000 mappings are the process's own */
    fprintf(stderr,
            "scene_draws: webgpu on lavapipe: %u draws a frame need about as many memory mappings in lavapipe's queue "
            "thread, more than vm.max_map_count (%lu) leaves room for, and lavapipe crashes when a mapping fails; "
            "raise it first (sysctl -w vm.max_map_count=%lu)\n",
            draws, most, ((unsigned long)draws * 2u + 65535u) & ~65535ul);
    return HL_ERR_UNSUPPORTED;
}

/* The grid of hl_scene_grid_create, with the application's own list of its meshes. */
typedef struct grid {
    hl_stage *stage;
    hl_camera *cam;
    hl_mesh **meshes; /* [n] */
    hl_vec3 *pos;     /* [n] */
    uint32_t n;
} grid;

static void grid_destroy(grid *g) {
    hl_stage_destroy(g->stage);
    free(g->meshes);
    free(g->pos);
    memset(g, 0, sizeof *g);
}

static hl_result grid_create(uint32_t n, uint32_t materials, grid *g) {
    memset(g, 0, sizeof *g);
    hl_result r = hl_scene_grid_create(n, materials, &g->stage, &g->cam);
    if (!r) r = hl_stage_update(g->stage);
    uint32_t count = 0;
    hl_mesh *const *meshes = r ? NULL : hl_stage_meshes(g->stage, &count);
    if (!r && count != n) r = hl__fail(HL_ERR_BACKEND, "scene_draws: the grid has %u meshes, not %u", count, n);
    g->n = n;
    g->meshes = calloc(n, sizeof *g->meshes);
    g->pos = calloc(n, sizeof *g->pos);
    if (!r && (!g->meshes || !g->pos)) r = HL_ERR_OUT_OF_MEMORY;
    for (uint32_t i = 0; !r && i < n; i++) {
        g->meshes[i] = meshes[i];
        g->pos[i] = hl_node_translation(hl_mesh_node(meshes[i]));
    }
    return r;
}

/* Mesh i replaced by a new one of the same geometry and material at the same place (churn). */
static hl_result grid_replace(grid *g, uint32_t i) {
    hl_mesh_desc md = {0};
    md.geometry = hl_mesh_geometry(g->meshes[i]);
    md.material = hl_mesh_material(g->meshes[i]);
    hl_geometry_retain(md.geometry);
    hl_material_retain(md.material);
    hl_node_destroy(hl_mesh_node(g->meshes[i]));
    g->meshes[i] = NULL;
    hl_result r = hl_mesh_create(&md, &g->meshes[i]);
    hl_geometry_release(md.geometry);
    hl_material_release(md.material);
    if (r) return r;
    hl_node_set_translation(hl_mesh_node(g->meshes[i]), g->pos[i]);
    return hl_stage_add(g->stage, hl_mesh_node(g->meshes[i]));
}

static float wobble(uint32_t i, uint32_t frame) { return 0.05f * sinf(0.1f * (float)frame + 0.37f * (float)i); }

/* The application's part of a frame, outside the timed render call. */
static hl_result grid_mutate(grid *g, int which, uint32_t frame) {
    if (which == CASE_MOVING) {
        for (uint32_t i = 0; i < g->n; i++) {
            hl_vec3 p = g->pos[i];
            p.y = wobble(i, frame);
            hl_node_set_translation(hl_mesh_node(g->meshes[i]), p);
        }
    } else if (which == CASE_CHURN) {
        uint32_t k = g->n / 100 ? g->n / 100 : 1;
        for (uint32_t j = 0; j < k; j++) {
            hl_result r = grid_replace(g, (uint32_t)(((uint64_t)frame * 7919u + (uint64_t)j * 104729u) % g->n));
            if (r) return r;
        }
    }
    return HL_OK;
}

/* The raw loop's per-object block, computed as the engine computes it. */
static void object_block(hl_vec3 t, float *out) {
    hl_mat4 m = hl_mat4_from_trs(t, hl_quat_identity(), (hl_vec3){1, 1, 1});
    hl_mat4 inv;
    hl_mat4_inverse(&m, &inv);
    memcpy(out, m.m, 16 * sizeof(float));
    for (int c = 0; c < 4; c++)
        for (int rr = 0; rr < 4; rr++) out[16 + c * 4 + rr] = inv.m[rr * 4 + c];
}

typedef struct result {
    double eng_ns, raw_ns; /* per frame, means over the measured frames */
    double eng_median, raw_median; /* per frame, medians (ns) */
    double eng_thread, raw_thread; /* the calling thread's CPU time per frame (ns, means) */
    double eng_wait, raw_wait;     /* the wait for the GPU after the frame (ns, means) */
    double eng_gpu, raw_gpu;       /* GPU time per frame (ms, means; gles3 timer queries; < 0: none) */
    uint32_t gpu_frames;
    double update, cull, build, sort, other_record, compile, prepare, execute, submit; /* engine ns/frame */
    double allocs;
    uint32_t draws, raw_draws, raw_passes;
    bool refused;       /* lavapipe_room said no */
    bool image_checked; /* static: the raw frame's image read back and compared with the engine's */
    int image_max_diff;
    uint64_t upload_bytes, prepared_rebuilt, prepared_reused, objects_created;
    uint64_t bundles_recorded, bundles_replayed;
    uint32_t threads; /* the renderer's frontend threads */
} result;

static hl_result run_case(hl_backend backend, uint32_t meshes, int which, const cfg *c, result *out, char *adapter,
                          size_t adapter_size) {
    memset(out, 0, sizeof *out);
    hl_renderer_desc rd = {0};
    rd.backend = backend;
    rd.width = c->width;
    rd.height = c->height;
    rd.no_render_bundles = c->no_bundles;
    rd.frontend_threads = c->threads;
    rd.sample_count = 1;
    rd.wait_timeout_ms = 600000; /* under valgrind (profiles) lavapipe takes tens of seconds a frame */
    hl_renderer *ren = NULL;
    hl_result r = hl_renderer_create(&rd, &ren);
    if (r) return r;
    snprintf(adapter, adapter_size, "%s", hl_renderer_adapter_name(ren));
    if ((r = lavapipe_room(backend, adapter, meshes))) {
        out->refused = true;
        hl_renderer_destroy(ren);
        return r;
    }
    out->threads = ren->desc.frontend_threads;
    grid g;
    r = grid_create(meshes, c->materials < meshes ? c->materials : meshes, &g);
    hl_bench_replay *raw = NULL;
    const uint64_t frame_bytes = sizeof(hl__frame_block);
    const uint64_t upload_cap = (uint64_t)HL__OBJECT_STRIDE * (meshes + 1u) + HL__FRAME_STRIDE;
    float *staging = calloc(upload_cap / sizeof(float), sizeof(float));
    double *eng_frames = calloc(c->frames, sizeof(double)), *raw_frames = calloc(c->frames, sizeof(double));
    if (!staging || !eng_frames || !raw_frames) r = HL_ERR_OUT_OF_MEMORY;
    if (!r) r = hl_bench_replay_create(ren->dev, upload_cap, &raw);
    hl_rhi_stats rs0 = {0};
    for (uint32_t f = 0; !r && f < c->warmup + c->frames; f++) {
        bool measured = f >= c->warmup;
        if ((r = grid_mutate(&g, which, f))) break;
        bool capture = f == 1;
        if (capture) hl_bench_replay_capture_begin(raw);
        if (f == c->warmup) rs0 = *hl_rhi_device_stats(ren->dev);
        uint64_t a0 = hl_alloc_count();
        hl_test_alloc_trace(measured && c->trace_allocs);
        /* off unless asked for: on llvmpipe an open timer query doubled the engine's static frame */
        bool timed = c->gpu_timer && measured && raw && f >= 2; /* the GL context is the engine's from its first frame */
        if (timed) hl_bench_replay_timer_begin(raw);
        uint64_t c0 = hl_bench_thread_cpu_ns();
        r = hl_renderer_render(ren, g.stage, g.cam);
        uint64_t c1 = hl_bench_thread_cpu_ns();
        if (timed) hl_bench_replay_timer_end(raw);
        hl_test_alloc_trace(false);
        uint64_t a1 = hl_alloc_count();
        if (r) break;
        const hl_render_stats *st = hl_renderer_stats(ren);
        out->draws = st->draws;
        if (measured) {
            out->eng_ns += (double)st->cpu_ns;
            eng_frames[f - c->warmup] = (double)st->cpu_ns;
            out->eng_thread += (double)(c1 - c0);
            out->update += (double)st->update_ns;
            out->cull += (double)st->cull_ns;
            out->build += (double)st->build_ns;
            out->sort += (double)st->sort_ns;
            out->other_record += (double)(st->record_ns - st->update_ns - st->cull_ns - st->build_ns - st->sort_ns);
            out->compile += (double)st->graph_compile_ns;
            out->prepare += (double)st->prepare_ns;
            out->execute += (double)st->execute_ns;
            out->submit += (double)st->submit_ns;
            out->allocs += (double)(a1 - a0);
            out->upload_bytes += st->upload_bytes;
            out->prepared_rebuilt += st->prepared_rebuilt;
            out->prepared_reused += st->prepared_reused;
            out->bundles_recorded += st->bundles_recorded;
            out->bundles_replayed += st->bundles_replayed;
        }
        uint64_t w0 = hl_bench_now_ns();
        if ((r = hl_renderer_wait_idle(ren))) break;
        if (measured) out->eng_wait += (double)(hl_bench_now_ns() - w0);
        double eng_gpu = timed ? hl_bench_replay_timer_ms(raw) : -1;
        if (capture && (r = hl_bench_replay_capture_end(raw))) break;
        if (f < 1) continue;
        /* the raw frame */
        if ((r = hl_bench_replay_begin(raw))) break;
        if (timed) hl_bench_replay_timer_begin(raw);
        uint64_t t0 = hl_bench_now_ns(), rc0 = hl_bench_thread_cpu_ns();
        memset(staging, 0, frame_bytes); /* the view's constants: the application fills its block */
        staging[0] = (float)f;
        r = hl_bench_replay_upload(raw, 0, staging, frame_bytes);
        if (!r && which == CASE_MOVING) {
            for (uint32_t i = 0; i < meshes; i++) {
                hl_vec3 p = g.pos[i];
                p.y = wobble(i, f);
                object_block(p, staging + (HL__FRAME_STRIDE + (size_t)i * HL__OBJECT_STRIDE) / sizeof(float));
            }
            r = hl_bench_replay_upload(raw, HL__FRAME_STRIDE, staging + HL__FRAME_STRIDE / sizeof(float),
                                       (uint64_t)meshes * HL__OBJECT_STRIDE);
        } else if (!r && which == CASE_CHURN) {
            uint32_t k = meshes / 100 ? meshes / 100 : 1;
            for (uint32_t j = 0; !r && j < k; j++) {
                uint32_t i = (uint32_t)(((uint64_t)f * 7919u + (uint64_t)j * 104729u) % meshes);
                float *blk = staging + (HL__FRAME_STRIDE + (size_t)i * HL__OBJECT_STRIDE) / sizeof(float);
                object_block(g.pos[i], blk);
                r = hl_bench_replay_upload(raw, HL__FRAME_STRIDE + (uint64_t)i * HL__OBJECT_STRIDE, blk, 32 * sizeof(float));
            }
        }
        if (!r) r = hl_bench_replay_submit(raw);
        uint64_t t1 = hl_bench_now_ns(), rc1 = hl_bench_thread_cpu_ns();
        if (timed) hl_bench_replay_timer_end(raw);
        if (!r) r = hl_bench_replay_wait(raw);
        double raw_gpu = timed && !r ? hl_bench_replay_timer_ms(raw) : -1;
        if (eng_gpu >= 0 && raw_gpu >= 0) {
            out->eng_gpu += eng_gpu;
            out->raw_gpu += raw_gpu;
            out->gpu_frames++;
        }
        if (measured) {
            out->raw_ns += (double)(t1 - t0);
            raw_frames[f - c->warmup] = (double)(t1 - t0);
            out->raw_thread += (double)(rc1 - rc0);
            out->raw_wait += (double)(hl_bench_now_ns() - t1);
        }
    }
    /* the raw loop draws what the engine draws: in the static case the image is the same */
    if (!r && which == CASE_STATIC) {
        size_t size = (size_t)rd.width * rd.height * 4u;
        uint8_t *a = malloc(size), *b = malloc(size);
        if (!a || !b) r = HL_ERR_OUT_OF_MEMORY;
        if (!r) r = hl_renderer_render(ren, g.stage, g.cam);
        if (!r) r = hl_renderer_read_pixels(ren, a, size);
        if (!r) r = hl_bench_replay_begin(raw);
        if (!r) r = hl_bench_replay_submit(raw);
        if (!r) r = hl_bench_replay_wait(raw);
        if (!r) r = hl_renderer_read_pixels(ren, b, size);
        out->image_checked = !r;
        for (size_t i = 0; !r && i < size; i++) {
            int dd = abs((int)a[i] - (int)b[i]);
            if (dd > out->image_max_diff) out->image_max_diff = dd;
        }
        free(a);
        free(b);
    }
    if (!r) {
        const hl_rhi_stats *rs1 = hl_rhi_device_stats(ren->dev);
        out->objects_created = rs1->objects_created - rs0.objects_created;
        out->raw_draws = hl_bench_replay_draws(raw);
        out->raw_passes = hl_bench_replay_passes(raw);
        double n = c->frames;
        out->eng_gpu = out->gpu_frames ? out->eng_gpu / out->gpu_frames : -1;
        out->raw_gpu = out->gpu_frames ? out->raw_gpu / out->gpu_frames : -1;
        out->eng_median = hl_bench_median(eng_frames, c->frames);
        out->raw_median = hl_bench_median(raw_frames, c->frames);
        double *v[] = {&out->eng_ns, &out->raw_ns, &out->eng_thread, &out->raw_thread, &out->eng_wait, &out->raw_wait,
                       &out->update, &out->cull, &out->build, &out->sort, &out->other_record,
                       &out->compile, &out->prepare, &out->execute, &out->submit, &out->allocs};
        for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) *v[i] /= n;
    } else {
        fprintf(stderr, "scene_draws: %s %s %u meshes: %s: %s\n", hl_backend_name(backend), k_case_names[which], meshes,
                hl_result_name(r), hl_last_error());
    }
    hl_bench_replay_destroy(raw);
    free(staging);
    free(eng_frames);
    free(raw_frames);
    grid_destroy(&g);
    hl_renderer_destroy(ren);
    return r;
}

static void print_result(hl_backend backend, const char *adapter, uint32_t meshes, int which, const result *x, const cfg *c) {
    double d = x->draws ? x->draws : 1;
    if (c->json) {
        printf("{\"backend\":\"%s\",\"adapter\":\"%s\",\"case\":\"%s\",\"meshes\":%u,\"materials\":%u,\"draws\":%u,"
               "\"raw_draws\":%u,\"raw_passes\":%u,\"raw_image_max_diff\":%d,\"frames\":%u,\"engine_ms_per_frame\":%.4f,\"raw_ms_per_frame\":%.4f,"
               "\"engine_ns_per_draw\":%.1f,\"raw_ns_per_draw\":%.1f,\"ratio\":%.3f,\"engine_median_ms\":%.4f,\"raw_median_ms\":%.4f,\"median_ratio\":%.3f,"
               "\"engine_thread_cpu_ms\":%.4f,\"raw_thread_cpu_ms\":%.4f,\"thread_cpu_ratio\":%.3f,"
               "\"engine_gpu_wait_ms\":%.4f,\"raw_gpu_wait_ms\":%.4f,\"engine_gpu_ms\":%.4f,\"raw_gpu_ms\":%.4f,"
               "\"allocs_per_frame\":%.2f,"
               "\"engine_breakdown_us\":{\"update\":%.1f,\"cull\":%.1f,\"build\":%.1f,\"sort\":%.1f,\"record_other\":%.1f,"
               "\"graph_compile\":%.1f,\"prepare\":%.1f,\"execute\":%.1f,\"submit\":%.1f},"
               "\"per_frame\":{\"upload_bytes\":%.0f,\"prepared_rebuilt\":%.1f,\"prepared_reused\":%.1f,"
               "\"rhi_objects_created\":%.2f,\"bundles_recorded\":%.2f,\"bundles_replayed\":%.2f},\"bundles\":%s,"
               "\"size\":\"%ux%u\",\"frontend_threads\":%u}\n",
               hl_backend_name(backend), adapter, k_case_names[which], meshes, c->materials, x->draws, x->raw_draws,
               x->raw_passes, x->image_checked ? x->image_max_diff : -1, c->frames, x->eng_ns / 1e6, x->raw_ns / 1e6, x->eng_ns / d, x->raw_ns / d,
               x->eng_ns / x->raw_ns, x->eng_median / 1e6, x->raw_median / 1e6, x->eng_median / x->raw_median,
               x->eng_thread / 1e6, x->raw_thread / 1e6, x->eng_thread / x->raw_thread, x->eng_wait / 1e6,
               x->raw_wait / 1e6, x->eng_gpu, x->raw_gpu, x->allocs, x->update / 1e3, x->cull / 1e3, x->build / 1e3, x->sort / 1e3,
               x->other_record / 1e3, x->compile / 1e3, x->prepare / 1e3, x->execute / 1e3, x->submit / 1e3,
               (double)x->upload_bytes / c->frames, (double)x->prepared_rebuilt / c->frames,
               (double)x->prepared_reused / c->frames, (double)x->objects_created / c->frames,
               (double)x->bundles_recorded / c->frames, (double)x->bundles_replayed / c->frames,
               c->no_bundles ? "false" : "true", c->width, c->height, x->threads);
    } else {
        printf("%-7s %-6s %6u meshes %6u draws: engine %8.3f ms (%6.1f ns/draw)  raw %8.3f ms (%6.1f ns/draw)  ratio %5.2f  "
               "allocs %.2f | us: update %.0f cull %.0f build %.0f sort %.0f rec %.0f compile %.0f prep %.0f exec %.0f "
               "submit %.0f | thread cpu %.3f / %.3f ms, gpu wait %.3f / %.3f ms, gpu %.3f / %.3f ms\n",
               hl_backend_name(backend), k_case_names[which], meshes, x->draws, x->eng_ns / 1e6, x->eng_ns / d,
               x->raw_ns / 1e6, x->raw_ns / d, x->eng_ns / x->raw_ns, x->allocs, x->update / 1e3, x->cull / 1e3,
               x->build / 1e3, x->sort / 1e3, x->other_record / 1e3, x->compile / 1e3, x->prepare / 1e3,
               x->execute / 1e3, x->submit / 1e3, x->eng_thread / 1e6, x->raw_thread / 1e6, x->eng_wait / 1e6,
               x->raw_wait / 1e6, x->eng_gpu, x->raw_gpu);
    }
    fflush(stdout);
}

static int usage(void) {
    fprintf(stderr, "usage: scene_draws [--json] [--backend webgpu|gles3] [--meshes N[,N...]] "
                    "[--cases static,moving,churn] [--materials M] [--frames F] [--warmup W] [--size WxH] "
                    "[--no-bundles] [--threads T] [--trace-allocs] [--gpu-timer]\n");
    return 2;
}

int main(int argc, char **argv) {
    cfg c = {{10000}, 1, (1u << CASE_COUNT) - 1u, 100, 100, 10, false, 640, 360, false, 0, false, false};
    int only = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--json")) {
            c.json = true;
            continue;
        }
        if (!strcmp(a, "--no-bundles")) {
            c.no_bundles = true;
            continue;
        }
        if (!strcmp(a, "--trace-allocs")) {
            c.trace_allocs = true;
            continue;
        }
        if (!strcmp(a, "--gpu-timer")) {
            c.gpu_timer = true;
            continue;
        }
        if (!v) return usage();
        i++;
        if (!strcmp(a, "--frames")) c.frames = (uint32_t)strtoul(v, NULL, 10);
        else if (!strcmp(a, "--warmup")) c.warmup = (uint32_t)strtoul(v, NULL, 10);
        else if (!strcmp(a, "--materials")) c.materials = (uint32_t)strtoul(v, NULL, 10);
        else if (!strcmp(a, "--threads")) c.threads = (uint32_t)strtoul(v, NULL, 10);
        else if (!strcmp(a, "--size")) {
            if (sscanf(v, "%ux%u", &c.width, &c.height) != 2 || !c.width || !c.height || c.width > 4096 || c.height > 4096) {
                fprintf(stderr, "scene_draws: --size takes WxH (1..4096 each)\n");
                return 2;
            }
        }
        else if (!strcmp(a, "--meshes")) {
            c.mesh_sets = 0;
            for (const char *p = v; *p && c.mesh_sets < 8;) {
                char *end;
                unsigned long n = strtoul(p, &end, 10);
                if (end == p || !n || n > 1000000) {
                    fprintf(stderr, "scene_draws: --meshes takes counts 1..1000000\n");
                    return 2;
                }
                c.meshes[c.mesh_sets++] = (uint32_t)n;
                p = *end == ',' ? end + 1 : end;
            }
        } else if (!strcmp(a, "--cases")) {
            c.cases = 0;
            for (int k = 0; k < CASE_COUNT; k++)
                if (strstr(v, k_case_names[k])) c.cases |= 1u << k;
            if (!c.cases) return usage();
        } else if (!strcmp(a, "--backend")) {
            hl_backend b;
            if (hl_backend_parse(v, &b) || b == HL_BACKEND_AUTO) {
                fprintf(stderr, "scene_draws: --backend must be webgpu or gles3\n");
                return 2;
            }
            only = (int)b;
        } else {
            return usage();
        }
    }
    if (!c.frames || c.warmup < 2 || !c.materials) {
        fprintf(stderr, "scene_draws: --frames must be > 0, --warmup >= 2, --materials > 0\n");
        return 2;
    }
    int rc = 0;
    if (c.trace_allocs) hl_test_alloc_install("scene_draws");
    for (int b = 0; b < 2; b++) {
        hl_backend backend = b ? HL_BACKEND_GLES3 : HL_BACKEND_WEBGPU;
        if (only >= 0 && only != (int)backend) continue;
        for (uint32_t s = 0; s < c.mesh_sets; s++)
            for (int k = 0; k < CASE_COUNT; k++) {
                if (!(c.cases & (1u << k))) continue;
                result x;
                char adapter[256];
                hl_result r = run_case(backend, c.meshes[s], k, &c, &x, adapter, sizeof adapter);
                if (r == HL_ERR_UNSUPPORTED && !x.draws && !x.refused) {
                    printf(c.json ? "{\"backend\":\"%s\",\"available\":false}\n" : "%s: not available\n",
                           hl_backend_name(backend));
                    break;
                }
                if (r) {
                    rc = 1;
                    continue;
                }
                if (x.image_checked && x.image_max_diff) {
                    fprintf(stderr, "scene_draws: %s %u meshes: the raw frame's image differs from the engine's (max %d)\n",
                            hl_backend_name(backend), c.meshes[s], x.image_max_diff);
                    rc = 1;
                }
                if (x.raw_draws != x.draws) {
                    fprintf(stderr, "scene_draws: the raw loop replays %u draws, the engine drew %u\n", x.raw_draws, x.draws);
                    rc = 1;
                }
                print_result(backend, adapter, c.meshes[s], k, &x, &c);
            }
    }
    return rc;
}
