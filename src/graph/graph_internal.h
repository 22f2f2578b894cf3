/* Render graph internals shared by the graph's source files (builder, compiler, executor,
 * DOT writer) and its white-box tests. Never included outside src/graph and tests. */
#ifndef HL_GRAPH_INTERNAL_H
#define HL_GRAPH_INTERNAL_H

#include "hl_graph.h"
#include "hl_base.h"

#define HL__GRAPH_NONE UINT32_MAX
#define HL__GRAPH_INDEX_BITS 20u
#define HL__GRAPH_INDEX_MASK ((1u << HL__GRAPH_INDEX_BITS) - 1u)

/* What one declaration does to its resource. */
typedef enum hl__gacc_kind {
    HL__ACC_SAMPLED = 0,
    HL__ACC_COLOR,
    HL__ACC_DEPTH,
    HL__ACC_RESOLVE,
    HL__ACC_COPY_SRC,
    HL__ACC_COPY_DST,
    HL__ACC_STORAGE_READ,
    HL__ACC_STORAGE_WRITE,
    HL__ACC_STORAGE_READ_WRITE,
    HL__ACC_STORAGE_TEXTURE_WRITE,
    HL__ACC_UNIFORM,
    HL__ACC_VERTEX,
    HL__ACC_INDEX,
    HL__ACC_INDIRECT,
    HL__ACC_CLEAR,
    HL__ACC_MIPS, /* levels 1.. made from level 0 in place: a read and a write */
    HL__ACC_COUNT
} hl__gacc_kind;

extern const char *const hl__gacc_names[HL__ACC_COUNT]; /* "sampled", "color", ... */

typedef struct hl__gaccess {
    uint32_t pass, res;
    uint8_t kind;    /* hl__gacc_kind */
    uint8_t reads;   /* the pass observes the previous contents */
    uint8_t writes;  /* the pass changes the contents */
    uint8_t discard; /* a write whose result is thrown away (store DISCARD) */
    uint8_t slot;    /* colour / resolve slot */
    uint32_t pair;   /* copies: index of the other half of the pair; HL__GRAPH_NONE otherwise */
    uint32_t next_reader; /* compiler scratch: reader chain of the resource */
    union {
        hl_graph_color_attachment_desc color;
        hl_graph_depth_attachment_desc depth;
        float clear[4];
    } u;
} hl__gaccess;

typedef enum hl__gorigin { HL__RES_TRANSIENT = 0, HL__RES_IMPORTED, HL__RES_DEFERRED } hl__gorigin;

typedef struct hl__gres {
    const char *name;
    bool is_buffer;
    uint8_t origin; /* hl__gorigin */
    bool extracted, output;
    hl_rhi_texture_desc tdesc; /* transients and deferred: normalised by the compiler */
    hl_rhi_buffer_desc bdesc;
    hl_rhi_texture imported_tex;
    hl_rhi_buffer imported_buf;
    hl_graph_texture_provider provider;
    void *provider_user;
    /* compiler */
    uint32_t needed_usage;
    uint32_t last_writer, reader_head; /* hazard walk state (pass index, access index) */
    bool last_write_discarded;
    bool live;
    uint32_t first, last; /* execution positions */
    uint32_t slot;        /* physical slot for live transients */
    uint64_t bytes;
    /* executor */
    hl_rhi_texture tex;
    hl_rhi_texture_view view;        /* every level: what passes sample */
    hl_rhi_texture_view attach_view; /* level 0: what passes render into */
    hl_rhi_buffer buf;
    bool own_object; /* extracted: created for this frame, handed over or destroyed */
    bool taken;
} hl__gres;

typedef struct hl__gpass {
    const char *name;
    hl_graph_pass_kind kind;
    hl_graph_prepare_fn prepare;
    hl_graph_execute_fn execute;
    void *user, *params;
    uint32_t first_access, access_count;
    bool side_effect;
    bool live;
    uint32_t position; /* in the execution order; HL__GRAPH_NONE when culled */
} hl__gpass;

typedef enum hl__gedge_kind { HL__EDGE_RAW = 0, HL__EDGE_WAR, HL__EDGE_WAW, HL__EDGE_EXPLICIT } hl__gedge_kind;

typedef struct hl__gedge {
    uint32_t from, to; /* pass indices */
    uint32_t res;      /* HL__GRAPH_NONE for explicit edges */
    uint8_t kind;      /* hl__gedge_kind */
} hl__gedge;

/* A native object the frame's plan needs: one per group of equal-descriptor transients with
 * disjoint lifetimes. */
typedef struct hl__gslot {
    bool is_buffer;
    hl_rhi_texture_desc tdesc;
    hl_rhi_buffer_desc bdesc;
    uint32_t last;   /* last use of its latest member */
    uint32_t first_res;
    uint64_t bytes;
    uint32_t entry;  /* pool entry serving it this frame */
} hl__gslot;

/* A native transient kept across frames. */
typedef struct hl__gpool_entry {
    bool alive, is_buffer, in_use;
    hl_rhi_texture_desc tdesc;
    hl_rhi_buffer_desc bdesc;
    hl_rhi_texture tex;
    hl_rhi_texture_view view, view0; /* view0: level 0 alone, for textures with mips ({0} else) */
    hl_rhi_buffer buf;
    uint64_t busy_serial; /* last submission using it; 0 = none pending */
    uint32_t idle_frames;
} hl__gpool_entry;

typedef struct hl__gupload {
    bool is_texture;
    hl_rhi_buffer buf;
    hl_rhi_texture tex;
    hl_rhi_texture_region region;
    uint64_t offset, size;
    uint32_t row_pitch;
    const void *data;
} hl__gupload;

typedef hl_graph_commit hl__gcommit;

typedef struct hl__gdep {
    uint32_t before, after;
} hl__gdep;

typedef struct hl__gview_cache {
    hl_rhi_texture tex;
    hl_rhi_texture_view view;
    uint32_t idle_frames;
} hl__gview_cache;

typedef struct hl__arena_chunk {
    struct hl__arena_chunk *next;
    size_t size, used;
    _Alignas(16) unsigned char data[];
} hl__arena_chunk;

typedef enum hl__gstate { HL__GRAPH_IDLE = 0, HL__GRAPH_BUILDING, HL__GRAPH_COMPILED, HL__GRAPH_DONE } hl__gstate;

struct hl_graph_pass_builder {
    hl_graph *g;
    uint32_t pass;
};

struct hl_graph_ctx {
    hl_graph *g;
    uint32_t pass;
    hl_rhi_cmd *cmd;
};

#define HL__GARRAY(type, name) \
    type *name;                \
    uint32_t name##_count, name##_cap

struct hl_graph {
    hl_rhi_device *dev;
    const hl_rhi_caps *caps;
    uint32_t gen;  /* 1..4095, the handles' high bits for this frame */
    uint8_t state; /* hl__gstate */
    bool compiled;
    hl_result build_result;
    char build_msg[256];
    hl_graph_error error_kind;

    hl__arena_chunk *arena_head, *arena_cur;
    size_t arena_chunk_bytes;

    HL__GARRAY(hl__gres, res);
    HL__GARRAY(hl__gpass, passes);
    HL__GARRAY(hl__gaccess, acc);
    HL__GARRAY(hl__gdep, deps);
    HL__GARRAY(hl__gupload, uploads);
    HL__GARRAY(hl__gcommit, commits);
    /* compiler workspace */
    HL__GARRAY(hl__gedge, edges);
    HL__GARRAY(uint32_t, edge_start); /* CSR by source pass: passes + 1 */
    HL__GARRAY(uint32_t, edge_list);
    HL__GARRAY(uint32_t, indegree);
    HL__GARRAY(uint32_t, heap);
    HL__GARRAY(uint32_t, topo);        /* every pass, topological */
    HL__GARRAY(hl_graph_pass, order);  /* live passes in execution order */
    HL__GARRAY(uint32_t, order_index); /* the same as pass indices */
    HL__GARRAY(hl__gslot, slots);
    HL__GARRAY(hl_graph_lifetime, lifetimes);
    HL__GARRAY(uint32_t, plan_scratch);
    HL__GARRAY(uint64_t, plan_offsets);
    /* executor */
    HL__GARRAY(hl__gpool_entry, pool);
    HL__GARRAY(hl__gview_cache, views);

    hl_graph_stats stats;
    hl_rhi_submission last_submission;
};

/* frame arena (graph_builder.c): 16-byte aligned, zeroed; NULL with an OOM message. */
void *hl__graph_arena_alloc(hl_graph *g, size_t size);
/* Records the first build failure; returns code. */
hl_result hl__graph_build_fail(hl_graph *g, hl_result code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Resource index of a handle of this frame, or HL__GRAPH_NONE. */
uint32_t hl__graph_texture_index(const hl_graph *g, hl_graph_texture t);
uint32_t hl__graph_buffer_index(const hl_graph *g, hl_graph_buffer b);
uint32_t hl__graph_pass_index(const hl_graph *g, hl_graph_pass p);
hl_graph_pass hl__graph_pass_handle(const hl_graph *g, uint32_t index);
const char *hl__graph_res_kind(const hl__gres *r); /* "texture" / "buffer" */

/* compiler stages (graph_compile.c), in order; each returns HL_OK or a rejection. */
hl_result hl__graph_stage_descriptors(hl_graph *g);
hl_result hl__graph_stage_hazards(hl_graph *g);
hl_result hl__graph_stage_attachments(hl_graph *g);
hl_result hl__graph_stage_order(hl_graph *g);
void hl__graph_stage_cull(hl_graph *g);
void hl__graph_stage_lifetimes(hl_graph *g);
hl_result hl__graph_stage_transient_plan(hl_graph *g);

/* executor (graph_execute.c) */
bool hl__graph_tdesc_equal(const hl_rhi_texture_desc *a, const hl_rhi_texture_desc *b);
void hl__graph_pool_release_all(hl_graph *g, bool destroy_everything);

#endif
