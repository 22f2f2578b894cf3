/* The executor and the frame transaction on the null backend: transient pooling and in-frame
 * sharing, the deferred provider (called only for a live pass), executor clears, extracted
 * resources, rollback (a pass failing in execute -> the next frame re-uploads), errors before
 * begin_frame, and zero heap allocations per steady-state frame. */
#include <string.h>

#include "hl_graph.h"
#include "hl_test.h"

static hl_rhi_device *g_dev;

/* ---- a small deferred-like frame -------------------------------------------------------------- */
typedef struct frame_state {
    hl_rhi_buffer ubo;          /* imported, uploaded through the batch */
    uint64_t ubo_revision;      /* CPU-side contents revision */
    uint64_t ubo_delivered;     /* what reached the GPU */
    uint64_t ubo_used_frame;    /* commit record: last frame that used it */
    uint64_t frame;
    hl_rhi_texture surface;     /* returned by the provider */
    int provider_calls;
    int fail_execute_of;        /* pass index to fail in execute, -1 none */
    int fail_prepare_of;
    int executed[8], prepared[8];
    bool cull_present;          /* do not mark the surface as output */
    hl_rhi_texture seen[8];     /* RHI texture each pass rendered into */
} frame_state;

typedef struct pass_params {
    int index;
    hl_graph_texture in, out;
    hl_graph_buffer ubo;
} pass_params;

static frame_state S;

static hl_result provide_surface(void *user, hl_rhi_texture *out) {
    frame_state *s = user;
    s->provider_calls++;
    *out = s->surface;
    return HL_OK;
}

typedef struct chain_user {
    int index;
    hl_graph_texture in, out;
    hl_graph_buffer ubo;
} chain_user;

static hl_result chain_setup(hl_graph_pass_builder *b, void *params, void *user) {
    const chain_user *u = user;
    pass_params *p = params;
    p->index = u->index;
    p->in = u->in;
    p->out = u->out;
    p->ubo = u->ubo;
    hl_result r = HL_OK;
    if (u->in.id) r = hl_graph_read_texture(b, u->in);
    if (!r && u->ubo.id) r = hl_graph_uniform_read(b, u->ubo);
    if (!r) r = hl_graph_color_attachment(b, 0, u->out, NULL);
    return r;
}

static hl_result chain_prepare(hl_graph_ctx *ctx, void *params, void *user) {
    (void)user;
    pass_params *p = params;
    HL_CHECK(hl_graph_ctx_cmd(ctx) == NULL);
    HL_CHECK(hl_graph_ctx_view(ctx, p->out).id != 0);
    S.prepared[p->index]++;
    if (S.fail_prepare_of == p->index) return HL_ERR_BACKEND;
    return HL_OK;
}

static hl_result chain_execute(hl_graph_ctx *ctx, void *params, void *user) {
    (void)user;
    pass_params *p = params;
    S.executed[p->index]++;
    S.seen[p->index] = hl_graph_ctx_texture(ctx, p->out);
    if (p->in.id) HL_CHECK(hl_graph_ctx_view(ctx, p->in).id != 0);
    if (p->ubo.id) HL_CHECK(hl_graph_ctx_buffer(ctx, p->ubo).id == S.ubo.id);
    hl_result r = hl_graph_ctx_begin_render_pass(ctx);
    if (r) return r;
    r = hl_rhi_cmd_end_render_pass(hl_graph_ctx_cmd(ctx));
    if (r) return r;
    if (S.fail_execute_of == p->index) return HL_ERR_BACKEND;
    return HL_OK;
}

/* The frame: ubo upload (when not delivered), four passes gbuf -> light -> post -> present
 * onto the deferred surface; "spare" writes a texture nobody reads (culled). */
static hl_result build(hl_graph *g, hl_graph_texture *out_surface, hl_graph_pass *passes) {
    hl_graph_begin(g);
    S.frame++;
    if (S.ubo_delivered != S.ubo_revision) {
        float data[4] = {(float)S.ubo_revision, 1, 2, 3};
        hl_result r = hl_graph_upload_buffer(g, S.ubo, 0, data, sizeof(data), &S.ubo_delivered, S.ubo_revision);
        if (r) return r;
    }
    hl_graph_commit_on_submit(g, &S.ubo_used_frame, S.frame);
    hl_rhi_texture_desc d = {0};
    d.format = HL_RHI_FORMAT_RGBA8_UNORM;
    d.width = d.height = 32;
    hl_graph_texture gbuf = hl_graph_create_texture(g, &d, "gbuffer");
    hl_graph_texture lit = hl_graph_create_texture(g, &d, "lit");
    hl_graph_texture post = hl_graph_create_texture(g, &d, "post");
    hl_graph_texture spare = hl_graph_create_texture(g, &d, "spare");
    hl_rhi_texture_desc sd = d;
    sd.usage = HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT;
    hl_graph_texture surface = hl_graph_import_texture_deferred(g, &sd, provide_surface, &S, "surface");
    hl_graph_buffer ubo = hl_graph_import_buffer(g, S.ubo, "frame_ubo");
    if (!S.cull_present) hl_graph_mark_output_texture(g, surface);
    chain_user u[5] = {{0, {0}, gbuf, ubo}, {1, gbuf, lit, {0}}, {2, lit, post, {0}}, {3, post, surface, {0}},
                       {4, {0}, spare, {0}}};
    static const char *names[5] = {"gbuf", "light", "post", "present", "spare"};
    for (int i = 0; i < 5; i++) {
        hl_graph_pass p = hl_graph_add_pass(g, names[i], HL_GRAPH_PASS_RENDER, chain_setup, chain_prepare, chain_execute,
                                            &u[i], sizeof(pass_params));
        if (passes) passes[i] = p;
    }
    if (out_surface) *out_surface = surface;
    return HL_OK;
}

static void reset_counts(void) {
    memset(S.executed, 0, sizeof(S.executed));
    memset(S.prepared, 0, sizeof(S.prepared));
    memset(S.seen, 0, sizeof(S.seen));
    S.provider_calls = 0;
    S.fail_execute_of = S.fail_prepare_of = -1;
}

static void typical_frames(hl_graph *g) {
    reset_counts();
    hl_graph_pass passes[5];
    HL_CHECK_OK(build(g, NULL, passes));
    hl_graph_compiled c;
    HL_CHECK_OK(hl_graph_compile(g, &c));
    HL_CHECK_EQ(c.order_count, 4);
    HL_CHECK(hl_graph_pass_is_culled(g, passes[4]));
    HL_CHECK_EQ(S.provider_calls, 0); /* not yet: compile touches nothing */
    hl_rhi_submission sub = {0};
    HL_CHECK_OK(hl_graph_execute(g, &sub));
    HL_CHECK(sub.serial != 0);
    HL_CHECK_EQ(S.provider_calls, 1);
    for (int i = 0; i < 4; i++) {
        HL_CHECK_EQ(S.prepared[i], 1);
        HL_CHECK_EQ(S.executed[i], 1);
    }
    HL_CHECK_EQ(S.executed[4], 0);
    HL_CHECK_EQ(S.prepared[4], 0);
    HL_CHECK_EQ(S.seen[3].id, S.surface.id);
    /* gbuffer [0,1] and post [2,3] share one native texture inside the frame */
    HL_CHECK_EQ(S.seen[0].id, S.seen[2].id);
    HL_CHECK(S.seen[0].id != S.seen[1].id);
    const hl_graph_stats *st = hl_graph_get_stats(g);
    HL_CHECK_EQ(st->passes_total, 5);
    HL_CHECK_EQ(st->passes_culled, 1);
    HL_CHECK_EQ(st->transient_objects, 2);
    HL_CHECK_EQ(st->transient_textures_created, 2);
    HL_CHECK_EQ(st->transient_textures_reused, 1);
    HL_CHECK_EQ(st->bytes_without_reuse, 3 * 32 * 32 * 4);
    HL_CHECK_EQ(st->bytes_with_reuse, 2 * 32 * 32 * 4);
    HL_CHECK_EQ(st->bytes_lower_bound, 2 * 32 * 32 * 4);
    HL_CHECK_EQ(st->uploads, 1);
    HL_CHECK_EQ(S.ubo_delivered, S.ubo_revision);
    HL_CHECK_EQ(S.ubo_used_frame, S.frame);
    float back[4] = {0};
    HL_CHECK_OK(hl_rhi_buffer_read(g_dev, S.ubo, 0, back, sizeof(back)));
    HL_CHECK(back[0] == (float)S.ubo_revision && back[3] == 3.0f);
    /* executing twice without a new build is an error */
    HL_CHECK_RESULT(hl_graph_execute(g, NULL), HL_ERR_INVALID_STATE);

    /* the next frame takes both objects from the pool and uploads nothing */
    HL_CHECK_OK(hl_rhi_device_wait_idle(g_dev));
    reset_counts();
    HL_CHECK_OK(build(g, NULL, NULL));
    HL_CHECK_OK(hl_graph_execute(g, NULL));
    HL_CHECK_EQ(st->transient_textures_created, 0);
    HL_CHECK_EQ(st->transient_textures_reused, 3);
    HL_CHECK_EQ(st->uploads, 0);
}

static void deferred_provider_culled(hl_graph *g) {
    reset_counts();
    S.cull_present = true;
    HL_CHECK_OK(build(g, NULL, NULL));
    /* nothing is an output: every pass is culled, the provider is never asked */
    hl_graph_compiled c;
    HL_CHECK_OK(hl_graph_compile(g, &c));
    HL_CHECK_EQ(c.order_count, 0);
    HL_CHECK_OK(hl_graph_execute(g, NULL));
    HL_CHECK_EQ(S.provider_calls, 0);
    HL_CHECK_EQ(S.executed[3], 0);
    S.cull_present = false;
}

static void rollback(hl_graph *g) {
    const hl_rhi_stats *rs = hl_rhi_device_stats(g_dev);
    /* a new revision of the ubo; the frame fails in execute of 'post' */
    S.ubo_revision++;
    uint64_t used_before = S.ubo_used_frame;
    reset_counts();
    S.fail_execute_of = 2;
    HL_CHECK_OK(build(g, NULL, NULL));
    uint64_t frames_before = rs->frames;
    hl_result r = hl_graph_execute(g, NULL);
    HL_CHECK_EQ(r, HL_ERR_BACKEND);
    HL_CHECK_MSG(strstr(hl_last_error(), "execute of pass 'post' failed") != NULL, "message: %s", hl_last_error());
    HL_CHECK(!hl_rhi_frame_is_open(g_dev));
    HL_CHECK_EQ(rs->frames, frames_before); /* no submission */
    HL_CHECK_EQ(S.executed[3], 0);          /* 'present' never ran */
    HL_CHECK(S.ubo_delivered != S.ubo_revision); /* not committed */
    HL_CHECK_EQ(S.ubo_used_frame, used_before);

    /* the next frame sees the revision undelivered, uploads again, and commits */
    reset_counts();
    HL_CHECK_OK(build(g, NULL, NULL));
    HL_CHECK_OK(hl_graph_execute(g, NULL));
    HL_CHECK_EQ(hl_graph_get_stats(g)->uploads, 1);
    HL_CHECK_EQ(S.ubo_delivered, S.ubo_revision);
    HL_CHECK_EQ(S.ubo_used_frame, S.frame);
    float back[4] = {0};
    HL_CHECK_OK(hl_rhi_buffer_read(g_dev, S.ubo, 0, back, sizeof(back)));
    HL_CHECK(back[0] == (float)S.ubo_revision);
    /* and the one after uploads nothing */
    HL_CHECK_OK(build(g, NULL, NULL));
    HL_CHECK_OK(hl_graph_execute(g, NULL));
    HL_CHECK_EQ(hl_graph_get_stats(g)->uploads, 0);

    /* a prepare failure stops before begin_frame; the provider was called (allocation
     * precedes prepare) but no frame was opened */
    S.ubo_revision++;
    reset_counts();
    S.fail_prepare_of = 1;
    HL_CHECK_OK(build(g, NULL, NULL));
    frames_before = rs->frames;
    HL_CHECK_RESULT(hl_graph_execute(g, NULL), HL_ERR_BACKEND);
    HL_CHECK_EQ(rs->frames, frames_before);
    HL_CHECK_EQ(S.executed[0], 0);
    HL_CHECK(S.ubo_delivered != S.ubo_revision);

    /* a compile failure touches nothing at all: no provider, no prepare */
    reset_counts();
    HL_CHECK_OK(build(g, NULL, NULL));
    hl_rhi_texture_desc d = {0};
    d.format = HL_RHI_FORMAT_RGBA8_UNORM;
    d.width = d.height = 8;
    hl_graph_texture never = hl_graph_create_texture(g, &d, "never_written");
    chain_user bad = {5, never, never, {0}};
    hl_graph_add_pass(g, "bad", HL_GRAPH_PASS_RENDER, chain_setup, NULL, chain_execute, &bad, sizeof(pass_params));
    uint64_t calls = rs->native_calls;
    HL_CHECK_RESULT(hl_graph_execute(g, NULL), HL_ERR_VALIDATION);
    HL_CHECK_EQ(S.provider_calls, 0);
    HL_CHECK_EQ(S.prepared[0], 0);
    HL_CHECK_EQ(rs->native_calls, calls);

    /* recovery */
    reset_counts();
    HL_CHECK_OK(build(g, NULL, NULL));
    HL_CHECK_OK(hl_graph_execute(g, NULL));
    HL_CHECK_EQ(S.ubo_delivered, S.ubo_revision);
}

/* ---- executor clears and extracted resources ------------------------------------------------- */
typedef struct readback_user {
    hl_graph_buffer src, dst;
} readback_user;

static hl_result clear_setup(hl_graph_pass_builder *b, void *params, void *user) {
    (void)params;
    readback_user *u = user;
    return hl_graph_clear_buffer(b, u->src);
}

static hl_result copy_setup(hl_graph_pass_builder *b, void *params, void *user) {
    (void)params;
    readback_user *u = user;
    return hl_graph_copy_buffer(b, u->src, u->dst);
}

static hl_result copy_execute(hl_graph_ctx *ctx, void *params, void *user) {
    (void)params;
    readback_user *u = user;
    return hl_rhi_cmd_copy_buffer_to_buffer(hl_graph_ctx_cmd(ctx), hl_graph_ctx_buffer(ctx, u->src), 0,
                                            hl_graph_ctx_buffer(ctx, u->dst), 0, 64);
}

static hl_result nothing(hl_graph_ctx *ctx, void *params, void *user) {
    (void)ctx, (void)params, (void)user;
    return HL_OK;
}

static void clears_and_extract(hl_graph *g) {
    uint8_t junk[64];
    memset(junk, 0xab, sizeof(junk));
    hl_rhi_buffer src;
    HL_CHECK_OK(hl_test_buffer(g_dev, HL_RHI_BUFFER_USAGE_STORAGE, junk, sizeof(junk), &src));
    hl_graph_begin(g);
    readback_user u = {hl_graph_import_buffer(g, src, "src"), {0}};
    hl_rhi_buffer_desc bd = {0};
    bd.size = 64;
    bd.usage = HL_RHI_BUFFER_USAGE_MAP_READ;
    u.dst = hl_graph_create_buffer(g, &bd, "readback");
    hl_graph_extract_buffer(g, u.dst);
    hl_graph_add_pass(g, "clear", HL_GRAPH_PASS_COPY, clear_setup, NULL, nothing, &u, 0);
    hl_graph_add_pass(g, "copy", HL_GRAPH_PASS_COPY, copy_setup, NULL, copy_execute, &u, 0);
    HL_CHECK(hl_graph_take_buffer(g, u.dst).id == 0); /* not before execute */
    HL_CHECK_OK(hl_graph_execute(g, NULL));
    hl_rhi_buffer rb = hl_graph_take_buffer(g, u.dst);
    HL_CHECK(rb.id != 0);
    HL_CHECK(hl_graph_take_buffer(g, u.dst).id == 0); /* once */
    uint8_t back[64];
    memset(back, 0x55, sizeof(back));
    HL_CHECK_OK(hl_rhi_buffer_read(g_dev, rb, 0, back, sizeof(back)));
    HL_CHECK_EQ(back[0], 0);
    HL_CHECK_EQ(back[63], 0);
    hl_rhi_buffer_destroy(g_dev, rb);
    hl_rhi_buffer_destroy(g_dev, src);
}

/* ---- zero allocations in steady state --------------------------------------------------------- */
static void zero_alloc(hl_graph *g) {
    reset_counts();
    for (int i = 0; i < 4; i++) {
        HL_CHECK_OK(build(g, NULL, NULL));
        HL_CHECK_OK(hl_graph_execute(g, NULL));
    }
    uint64_t before = hl_alloc_count();
    for (int i = 0; i < 10; i++) {
        build(g, NULL, NULL);
        hl_graph_compile(g, NULL);
        hl_graph_execute(g, NULL);
    }
    uint64_t allocs = hl_alloc_count() - before;
    HL_CHECK_MSG(allocs == 0, "%llu heap allocations in 10 steady-state frames", (unsigned long long)allocs);
    HL_CHECK_EQ(S.executed[0], 14);
}

int main(void) {
    g_dev = hl_test_device(HL_RHI_BACKEND_NULL);
    if (!g_dev) return hl_test_finish();
    memset(&S, 0, sizeof(S));
    HL_CHECK_OK(hl_test_buffer(g_dev, HL_RHI_BUFFER_USAGE_UNIFORM, NULL, 16, &S.ubo));
    S.ubo_revision = 1;
    hl_rhi_texture_desc sd = {0};
    sd.format = HL_RHI_FORMAT_RGBA8_UNORM;
    sd.width = sd.height = 32;
    sd.usage = HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT | HL_RHI_TEXTURE_USAGE_COPY_SRC;
    HL_CHECK_OK(hl_rhi_texture_create(g_dev, &sd, &S.surface));
    hl_graph *g = NULL;
    hl_graph_desc gd = {0};
    gd.device = g_dev;
    HL_CHECK_OK(hl_graph_create(&gd, &g));
    HL_CHECK_RESULT(hl_graph_execute(g, NULL), HL_ERR_INVALID_STATE);
    typical_frames(g);
    deferred_provider_culled(g);
    rollback(g);
    clears_and_extract(g);
    zero_alloc(g);
    hl_graph_destroy(g);
    hl_rhi_texture_destroy(g_dev, S.surface);
    hl_rhi_buffer_destroy(g_dev, S.ubo);
    hl_rhi_device_destroy(g_dev);
    return hl_test_finish();
}
