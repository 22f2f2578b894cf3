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

/* A persistent target (persistent.c): one RHI texture kept across frames under a key. */
typedef struct hl__persistent {
    uint64_t key;
    hl_rhi_texture tex; /* committed (0 until a frame using it succeeds) */
    hl_rhi_format format;
    uint32_t width, height;
    hl_rhi_texture pending; /* made this frame for a new recipe: committed on success, else destroyed */
    hl_rhi_format pending_format;
    uint32_t pending_width, pending_height;
    uint64_t acquired_serial, imported_serial; /* renderer frame_serial of the last acquire / import */
    hl_graph_texture imported;
    hl_rhi_texture imported_tex;
    bool release_pending;
} hl__persistent;

/* A pipeline's requirements, normalized (pipeline_host.c): checked against a device at creation
 * and again against a replacement device after a loss. */
typedef struct hl__pipeline_reqs {
    uint32_t capabilities;
    hl_pipeline_limits limits;
    hl_pipeline_texture_requirement textures[HL_PIPELINE_MAX_TEXTURE_REQUIREMENTS];
    uint32_t texture_count;
} hl__pipeline_reqs;

struct hl_pipeline_runtime {
    char name[64];
    void *state;
    hl_result (*record)(hl_pipeline_context ctx, void *state);
    void (*destroy)(void *state);
    bool direct;   /* the built-in Forward runtime: the renderer records directly */
    bool attached; /* a renderer took it */
    hl_renderer *renderer;
    hl_pipeline_caps caps;
    hl__pipeline_reqs reqs;
    hl__persistent *persistent;
    uint32_t persistent_count, persistent_capacity;
};

/* persistent.c: the frame's outcome for the runtime's persistent targets; their release. */
void hl__persistent_frame_end(hl_pipeline_runtime *rt, bool ok);
void hl__persistent_free(hl_pipeline_runtime *rt);

typedef struct invocation {
    uint64_t token;
    hl_pipeline_runtime *rt;
    hl_renderer *r;
    hl_render_target *target;
    hl_stage *stage;
    hl_camera *camera;
    uint32_t index;
    uint32_t first_view, first_list; /* this invocation's views and lists start here */
} invocation;

/* The invocation being recorded on this thread if ctx names it; else NULL and *res the error. */
invocation *hl__pipeline_current(hl_pipeline_context ctx, const char *fn, hl_result *res);
/* The graph texture of t if t is one of inv's (else HL_ERR_INVALID_STATE). */
hl_result hl__pipeline_texture_of(invocation *inv, hl_pipeline_texture t, const char *fn, hl_graph_texture *out);
/* The graph buffer of b if b is one of inv's (else HL_ERR_INVALID_STATE). */
hl_result hl__pipeline_buffer_of(invocation *inv, hl_pipeline_buffer b, const char *fn, hl_graph_buffer *out);
/* A texture size: width x height, or relative to the invocation's output (see
 * hl_pipeline_texture_desc); checked against the device. */
hl_result hl__pipeline_texture_size(const invocation *inv, uint32_t width, uint32_t height, float scale, uint32_t min_size,
                                    const char *fn, const char *name, uint32_t *out_w, uint32_t *out_h);
extern const hl_rhi_format hl__pipeline_rhi_formats[HL_PIPELINE_FORMAT_COUNT];

/* The runtime of the built-in direct recorder (no record callback; not installed as a host). */
hl_result hl__pipeline_direct_runtime(hl_pipeline_runtime **out);
/* The runtime a renderer records with, or NULL for the direct recorder. */
hl_pipeline_runtime *hl__pipeline_renderer_runtime(hl_renderer *r);

#endif
