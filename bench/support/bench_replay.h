/* Benchmark support: the raw-API baseline of bench/scene_draws. One engine frame is captured at
 * the RHI (every render pass as it begins and every packet list it draws: hl__rhi_set_tap); the
 * raw loop then records the same passes and draws straight against webgpu.h or GLES, on the
 * engine's own native objects (pipelines and programs, bind groups and UBO ranges, vertex and
 * index buffers, attachments), setting only the state that changes from draw to draw, as a
 * hand-written loop over a prepared list would. Its uploads (per-frame constants, per-object
 * matrices) go to a buffer of its own of the same size, written with wgpuQueueWriteBuffer or
 * glBufferSubData. What it does not do: scene traversal, culling, sorting, building the list
 * (a static list is the application's), the engine's validation and state tracking. */
#ifndef HL_BENCH_REPLAY_H
#define HL_BENCH_REPLAY_H

#include "hl_rhi.h"

typedef struct hl_bench_replay hl_bench_replay;

/* upload_capacity: the size of the raw loop's own upload buffer (bytes). */
hl_result hl_bench_replay_create(hl_rhi_device *dev, uint64_t upload_capacity, hl_bench_replay **out);
void hl_bench_replay_destroy(hl_bench_replay *rp);

/* Capture: every render pass and packet list the device records between begin and end (one
 * engine frame). end resolves the handles to native objects (they must stay alive while the
 * replay runs: the engine's caches keep a static scene's) and makes the raw loop's own objects
 * (GL framebuffers and vertex arrays). HL_ERR_UNSUPPORTED names what the replay cannot do. */
void hl_bench_replay_capture_begin(hl_bench_replay *rp);
hl_result hl_bench_replay_capture_end(hl_bench_replay *rp);
uint32_t hl_bench_replay_passes(const hl_bench_replay *rp);
uint32_t hl_bench_replay_draws(const hl_bench_replay *rp);

/* One raw frame, in three steps so the caller times what it does between them:
 * begin (untimed: makes the GL context current), uploads (timed by the caller), submit (records
 * the passes, submits; timed), wait (for the GPU; untimed). */
hl_result hl_bench_replay_begin(hl_bench_replay *rp);
hl_result hl_bench_replay_upload(hl_bench_replay *rp, uint64_t offset, const void *data, uint64_t size);
hl_result hl_bench_replay_submit(hl_bench_replay *rp);
hl_result hl_bench_replay_wait(hl_bench_replay *rp);

/* GPU time of what the caller brackets with timer_begin / timer_end (an engine frame or a raw
 * one; the engine's GL context current): gles3 with GL_EXT_disjoint_timer_query, one query at a
 * time. timer_ms, after the wait: milliseconds, or -1 (webgpu, no such extension, a disjoint
 * interval). */
void hl_bench_replay_timer_begin(hl_bench_replay *rp);
void hl_bench_replay_timer_end(hl_bench_replay *rp);
double hl_bench_replay_timer_ms(hl_bench_replay *rp);

#endif
