/** @file
 * hilo3d: how CPU-side scene data tells a renderer what to upload.
 *
 * Every object with GPU-visible content (geometry, uniform buffer, texture, material) keeps a
 * revision. A consumer (one renderer / device) remembers the revision it last uploaded
 * (0 = never) and asks the object what it must send now:
 *   - HL_UPLOAD_NONE : nothing changed since that revision;
 *   - HL_UPLOAD_RANGE: only the merged dirty byte range changed;
 *   - HL_UPLOAD_FULL : the consumer is older than the dirty range's start (or new): send all.
 * After a frame that uploaded successfully was submitted, the renderer calls the object's
 * *_clear_dirty so later ranges start from the current revision. Several consumers stay
 * correct: one that has not caught up gets HL_UPLOAD_FULL.
 *
 * Revision values (every *_revision getter of the scene layer: geometry, uniform buffer,
 * texture and its sampler, material and its variant, mesh, node world matrix, camera, light,
 * stage structure) come from ONE process-wide atomic counter:
 *   - never 0 for a live object (0 is what the getters return for NULL / a wrong object);
 *   - strictly increasing per object: a change gives a value greater than every earlier one;
 *   - unique per process: no two states of any two objects, of any kind, share a value. A new
 *     object created at the address of a destroyed one therefore never repeats a revision the
 *     old one had, so a cache keyed by (address, revision) cannot mistake it for the old one;
 *   - not consecutive: an object's revisions start at an arbitrary value and step by arbitrary
 *     amounts. Compare them with == / != (or order them for the same object); never compute
 *     with them or expect "+1".
 * Safe to bump from several threads (the counter is atomic); each object itself is not.
 */
#ifndef HILO3D_REVISION_H
#define HILO3D_REVISION_H

#include <stdint.h>

#include "hilo3d/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What a consumer must upload for an object, given the revision it uploaded last (the
 * *_upload getters of geometry and uniform buffers). */
typedef enum hl_upload_kind {
    HL_UPLOAD_NONE = 0, /**< nothing changed since that revision */
    HL_UPLOAD_RANGE,    /**< only the returned dirty range changed */
    HL_UPLOAD_FULL      /**< the consumer is new or older than the dirty range: send everything */
} hl_upload_kind;

/** Bytes [offset, offset + size); size 0 = empty. */
typedef struct hl_dirty_range {
    uint32_t offset; /**< first byte that changed */
    uint32_t size;   /**< bytes from offset (0: nothing) */
} hl_dirty_range;

/** The counter's current value: the last revision handed out. Two equal reads mean that nothing
 * with a revision changed in between, anywhere in the process; the setters of state without a
 * revision of its own that decides what is drawn (render order, layers, mesh events, stage fog,
 * environment and exposure) advance it too. hl_stage_update skips its walk and renderers keep
 * their sorted draw lists while it stands still. */
HL_API uint64_t hl_revision_now(void);

#ifdef __cplusplus
}
#endif

#endif
