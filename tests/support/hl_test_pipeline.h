/* Pipelines for tests: the Forward pipeline recorded through the public SRP calls. */
#ifndef HL_TEST_PIPELINE_H
#define HL_TEST_PIPELINE_H

#include "hilo3d/pipeline.h"

/* cull -> record_shadows -> opaque list (clear) -> transparent list (load, when not empty; drawn
 * from an execute callback through the pass encoder):
 * the same draws, passes and pixels as the built-in direct recorder. Stateless; usable by any
 * number of renderers (a new runtime each). */
const hl_pipeline_factory *hl_test_scripted_forward(void);

/* The Forward pipeline with a POST feature on graph mips (the scene colour softened by 1/4 of its
 * mip level 1) and tone mapping (ACES) (made on first use, kept for the process; NULL
 * if that failed): the HDR intermediate, a fullscreen pass, the copy out. Bloom and FXAA are
 * left out of the randomized comparison: FXAA's edge test is a threshold, so the one-level
 * differences the backends may have flip edge decisions into 0.1 differences (seed 0x3003
 * frame 103: p99 10/255), and bloom spreads HDR highlights, where the backends agree only
 * relatively (the same frame with bloom: mean 1.44/255, p99 11/255 on a 158x13 target);
 * px_forward_features tests both on fixed scenes. */
const hl_pipeline_factory *hl_test_forward_post(void);

/* The deferred pipeline of src/demo/hl_deferred.h with tone mapping (ACES) and no bloom (made
 * on first use, kept for the process; NULL if that failed). */
const hl_pipeline_factory *hl_test_deferred(void);

#endif
