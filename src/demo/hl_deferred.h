/* A deferred render pipeline written only against the public SRP API (hilo3d/pipeline.h):
 * what a user of the engine can build without touching it.
 *
 * Each render call records:
 *   1. a G-buffer culling (hl_pipeline_cull_desc.gbuffer) and its shadow maps;
 *   2. the G-buffer pass: opaque meshes with built-in materials into four RGBA16F textures
 *      (base colour + occlusion, normal + metallic, emission + roughness, world position +
 *      receives-shadows) and a depth texture;
 *   3. the lighting pass: a lit fullscreen pass (hl_pipeline_fullscreen_pass_desc.lighting)
 *      running the forward shader's own hl_shade / hl_fog per pixel (the stage's lights, up
 *      to 64 per view, with shadows) into an RGBA16F scene colour;
 *   4. a forward culling derived from the G-buffer one (hl_pipeline_cull_desc.base: the same
 *      visible meshes, lights and shadow pass; exclude_opaque_engine: draws made only for shader
 *      materials and transparent meshes): opaque shader materials, then transparent meshes,
 *      drawn over the lit colour with the G-buffer's depth;
 *   5. bloom and tone mapping (the shipped Forward features, called from this runtime) and a
 *      copy into the output (RGBA8 sRGB).
 * The output's MSAA samples are not used (the G-buffer is single-sample: the copy writes the
 * resolved texture). Outputs other than one RGBA8 sRGB attachment with depth (render targets
 * of other formats, MRT) get the plain forward passes. */
#ifndef HL_DEFERRED_H
#define HL_DEFERRED_H

#include "hilo3d/pipeline.h"

typedef struct hl_deferred_desc {
    bool bloom;         /* default false */
    hl_bloom_desc bloom_desc;
    hl_tone_map_desc tone_map; /* zero: ACES, exposure 1 */
} hl_deferred_desc;

/* A factory (desc copied; NULL = no bloom, ACES at exposure 1). Renderers made with it keep
 * what they need: destroy it after hl_renderer_create. Requirements: RGBA16F colour
 * attachments, filterable-sampled, and 4 colour attachments. */
hl_result hl_deferred_pipeline_factory_create(const hl_deferred_desc *desc, hl_pipeline_factory **out);
void hl_deferred_pipeline_factory_destroy(hl_pipeline_factory *factory);

#endif
