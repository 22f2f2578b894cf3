/* Shared between the files of src/pipeline (not installed). */
#ifndef HL_PIPELINE_INTERNAL_H
#define HL_PIPELINE_INTERNAL_H

#include "hilo3d/pipeline.h"
#include "render_internal.h"

struct hl_pipeline_caps {
    hl_pipeline_limits limits;
    uint32_t capabilities; /* HL_PIPELINE_CAP_* */
    hl_rhi_format_caps formats[HL_PIPELINE_FORMAT_COUNT];
};

struct hl_pipeline_runtime {
    char name[64];
    void *state;
    hl_result (*record)(hl_pipeline_context ctx, void *state);
    void (*destroy)(void *state);
    bool direct;   /* the built-in Forward runtime: the renderer records directly */
    bool attached; /* a renderer took it */
    hl_renderer *renderer;
    hl_pipeline_caps caps;
};

/* The runtime of the built-in direct recorder (no record callback; not installed as a host). */
hl_result hl__pipeline_direct_runtime(hl_pipeline_runtime **out);
/* The runtime a renderer records with, or NULL for the direct recorder. */
hl_pipeline_runtime *hl__pipeline_renderer_runtime(hl_renderer *r);

#endif
