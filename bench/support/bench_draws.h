/* Benchmark support: N draws per frame of a small mesh, each with its own dynamic UBO offset,
 * recorded through the RHI (engine frame) or straight against the native API on the same
 * device (raw frame: webgpu.h calls into Dawn on the engine's native objects; GLES calls with
 * GL objects of its own on the device's context). Used by rhi_draws and scene_draws. */
#ifndef HL_BENCH_DRAWS_H
#define HL_BENCH_DRAWS_H

#include "hl_rhi.h"

typedef struct hl_bench_draws hl_bench_draws;

uint64_t hl_bench_now_ns(void);
/* CPU time the calling thread has used (CLOCK_THREAD_CPUTIME_ID), ns: unlike the wall clock, time
 * it spends blocked (in a driver waiting for the GPU, say) does not count. */
uint64_t hl_bench_thread_cpu_ns(void);
double hl_bench_now_ms(void);
/* The median of v[0..n) (sorts v); 0 for n = 0. */
double hl_bench_median(double *v, uint32_t n);
/* webgpu: finishes and submits the encoder (a WGPUCommandEncoder, released here) on dev's queue;
 * *done becomes 1 when the queue has done that work (hl__wgpu_wait_flag waits for it). */
void hl_bench_wgpu_submit(hl_rhi_device *dev, void *encoder, volatile int *done);
hl_result hl_bench_draws_create(hl_rhi_device *dev, uint32_t draws, hl_bench_draws **out);
void hl_bench_draws_destroy(hl_bench_draws *b);
/* encode_ns: CPU time to record and submit; the call also waits for the frame. */
hl_result hl_bench_draws_engine_frame(hl_bench_draws *b, uint64_t *encode_ns);
hl_result hl_bench_draws_raw_frame(hl_bench_draws *b, uint64_t *encode_ns);

#endif
