/* Pipelines for tests: the Forward pipeline recorded through the public SRP calls. */
#ifndef HL_TEST_PIPELINE_H
#define HL_TEST_PIPELINE_H

#include "hilo3d/pipeline.h"

/* cull -> record_shadows -> opaque list (clear) -> transparent list (load, when not empty):
 * the same draws, passes and pixels as the built-in direct recorder. Stateless; usable by any
 * number of renderers (a new runtime each). */
const hl_pipeline_factory *hl_test_scripted_forward(void);

/* The Forward pipeline with bloom, tone mapping (ACES) and FXAA, as `hilo3d render --pipeline
 * forward-post` makes it (made on first use, kept for the process; NULL if that failed). */
const hl_pipeline_factory *hl_test_forward_post(void);

#endif
