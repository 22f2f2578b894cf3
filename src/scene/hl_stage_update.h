/* The stage's world update on a worker pool: the renderer's frontend threads update the world
 * matrices of a stage whose structure held since the last update (hl_stage_update's kept walk
 * order) in parts, when it has at least parallel_min nodes. Everything else is hl_stage_update's:
 * the same matrices, revisions that differ only in their numbers, the same lists. */
#ifndef HL_STAGE_UPDATE_H
#define HL_STAGE_UPDATE_H

#include "hilo3d/scene.h"
#include "hl_base.h"

hl_result hl__stage_update_on(hl_stage *s, hl__workers *workers, uint32_t parallel_min);

#endif
