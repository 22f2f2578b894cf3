/* Compiler stages on small graphs (null backend): every rejection with its kind and a message
 * naming pass and resource, hazard edges, stable order, culling, lifetimes and the
 * equal-descriptor transient plan. Nothing here creates an RHI object. */
#include <string.h>

#include "graph_internal.h"
#include "hl_test.h"

static hl_rhi_device *g_dev;

/* ---- a tiny declaration language for the tests: each pass gets a list of steps ---------------- */
typedef enum op {
    END = 0,
    SAMPLE,     /* read_texture(tex) */
    COLOR,      /* color_attachment(slot 0.., tex) clear */
    COLOR_LOAD, /* LOAD + STORE */
    COLOR_DISCARD,
    DEPTH,
    DEPTH_RO,
    RESOLVE,
    COPY_T,   /* copy_texture(tex, tex2) */
    ST_READ,  /* storage_read(buf) */
    ST_WRITE, /* storage_write(buf) */
    ST_RW,
    CLEAR_B,
    SIDE,
    OUT_T,
} op;

typedef struct step {
    op o;
    uint32_t a, b; /* resource indices into the fixture's tables; slot for colour */
} step;

typedef struct fixture {
    hl_graph_texture tex[8];
    hl_graph_buffer buf[4];
    const step *steps[8];
} fixture;

static fixture F;

static hl_result setup(hl_graph_pass_builder *b, void *params, void *user) {
    (void)params;
    const step *s = user;
    hl_result r = HL_OK;
    for (; s->o != END && !r; s++) {
        hl_graph_color_attachment_desc c = {0};
        hl_graph_depth_attachment_desc d = {0};
        d.depth_clear_value = 1.0f;
        switch (s->o) {
        case SAMPLE: r = hl_graph_read_texture(b, F.tex[s->a]); break;
        case COLOR: r = hl_graph_color_attachment(b, s->b, F.tex[s->a], NULL); break;
        case COLOR_LOAD:
            c.load_op = HL_RHI_LOAD_LOAD;
            r = hl_graph_color_attachment(b, s->b, F.tex[s->a], &c);
            break;
        case COLOR_DISCARD:
            c.store_op = HL_RHI_STORE_DISCARD;
            r = hl_graph_color_attachment(b, s->b, F.tex[s->a], &c);
            break;
        case DEPTH: r = hl_graph_depth_attachment(b, F.tex[s->a], NULL); break;
        case DEPTH_RO:
            d.depth_read_only = true;
            d.depth_load_op = HL_RHI_LOAD_LOAD;
            r = hl_graph_depth_attachment(b, F.tex[s->a], &d);
            break;
        case RESOLVE: r = hl_graph_resolve_attachment(b, s->b, F.tex[s->a]); break;
        case COPY_T: r = hl_graph_copy_texture(b, F.tex[s->a], F.tex[s->b]); break;
        case ST_READ: r = hl_graph_storage_read(b, F.buf[s->a]); break;
        case ST_WRITE: r = hl_graph_storage_write(b, F.buf[s->a]); break;
        case ST_RW: r = hl_graph_storage_read_write(b, F.buf[s->a]); break;
        case CLEAR_B: r = hl_graph_clear_buffer(b, F.buf[s->a]); break;
        case SIDE: r = hl_graph_side_effect(b); break;
        case OUT_T: r = hl_graph_output_texture(b, F.tex[s->a]); break;
        default: break;
        }
    }
    return r;
}

static hl_result execute_nothing(hl_graph_ctx *ctx, void *params, void *user) {
    (void)ctx, (void)params, (void)user;
    return HL_OK;
}

static hl_graph_texture tex(hl_graph *g, const char *name, uint32_t w, uint32_t h, hl_rhi_format f, uint32_t samples) {
    hl_rhi_texture_desc d = {0};
    d.format = f;
    d.width = w;
    d.height = h;
    d.sample_count = samples;
    return hl_graph_create_texture(g, &d, name);
}

static hl_graph_texture rgba(hl_graph *g, const char *name) {
    return tex(g, name, 64, 64, HL_RHI_FORMAT_RGBA8_UNORM, 1);
}

static hl_graph_pass pass(hl_graph *g, const char *name, hl_graph_pass_kind kind, const step *steps) {
    return hl_graph_add_pass(g, name, kind, setup, NULL, execute_nothing, (void *)steps, 0);
}

#define RENDER HL_GRAPH_PASS_RENDER
#define COMPUTE HL_GRAPH_PASS_COMPUTE
#define COPY HL_GRAPH_PASS_COPY

static void expect_reject(hl_graph *g, hl_graph_error kind, hl_result code, const char *needle1, const char *needle2) {
    hl_result r = hl_graph_compile(g, NULL);
    HL_CHECK_MSG(r == code, "compile -> %s, expected %s (%s)", hl_result_name(r), hl_result_name(code), hl_last_error());
    HL_CHECK_MSG(hl_graph_error_kind(g) == kind, "kind %s, expected %s", hl_graph_error_name(hl_graph_error_kind(g)),
                 hl_graph_error_name(kind));
    HL_CHECK_MSG(strstr(hl_last_error(), needle1) != NULL, "message '%s' names '%s'", hl_last_error(), needle1);
    if (needle2) HL_CHECK_MSG(strstr(hl_last_error(), needle2) != NULL, "message '%s' names '%s'", hl_last_error(), needle2);
    /* nothing reached the device */
    HL_CHECK(!hl_rhi_frame_is_open(g_dev));
}

static void rejections(hl_graph *g) {
    uint64_t textures_before = hl_rhi_device_stats(g_dev)->native_calls;
    /* uninitialised read: the issue's own example */
    hl_graph_begin(g);
    F.tex[0] = rgba(g, "bloom1");
    F.tex[1] = rgba(g, "bloom2");
    static const step blur[] = {{SAMPLE, 0, 0}, {COLOR, 1, 0}, {OUT_T, 1, 0}, {END, 0, 0}};
    pass(g, "blur", RENDER, blur);
    expect_reject(g, HL_GRAPH_ERR_UNINITIALIZED_READ, HL_ERR_VALIDATION, "pass 'blur' reads texture 'bloom1' before any pass writes it", NULL);
    HL_CHECK(strcmp(hl_last_error(), "pass 'blur' reads texture 'bloom1' before any pass writes it") == 0);

    /* LOAD of a transient nobody wrote is a read too */
    hl_graph_begin(g);
    F.tex[0] = rgba(g, "acc");
    static const step load[] = {{COLOR_LOAD, 0, 0}, {SIDE, 0, 0}, {END, 0, 0}};
    pass(g, "accumulate", RENDER, load);
    expect_reject(g, HL_GRAPH_ERR_UNINITIALIZED_READ, HL_ERR_VALIDATION, "'accumulate'", "'acc'");

    /* read after discard */
    hl_graph_begin(g);
    F.tex[0] = rgba(g, "scratch");
    F.tex[1] = rgba(g, "result");
    static const step disc[] = {{COLOR_DISCARD, 0, 0}, {END, 0, 0}};
    static const step use[] = {{SAMPLE, 0, 0}, {COLOR, 1, 0}, {OUT_T, 1, 0}, {END, 0, 0}};
    pass(g, "draw", RENDER, disc);
    pass(g, "use", RENDER, use);
    expect_reject(g, HL_GRAPH_ERR_READ_AFTER_DISCARD, HL_ERR_VALIDATION, "pass 'use' reads texture 'scratch' after pass 'draw' discarded it", NULL);

    /* sampled + attachment feedback */
    hl_graph_begin(g);
    F.tex[0] = rgba(g, "hdr");
    static const step init[] = {{COLOR, 0, 0}, {END, 0, 0}};
    static const step fb[] = {{SAMPLE, 0, 0}, {COLOR_LOAD, 0, 0}, {SIDE, 0, 0}, {END, 0, 0}};
    pass(g, "init", RENDER, init);
    pass(g, "feedback", RENDER, fb);
    expect_reject(g, HL_GRAPH_ERR_FEEDBACK, HL_ERR_VALIDATION, "pass 'feedback' reads texture 'hdr'", "sampled");

    /* storage read + write through separate calls is feedback; read_write is allowed */
    hl_graph_begin(g);
    hl_rhi_buffer_desc bd = {0};
    bd.size = 256;
    F.buf[0] = hl_graph_create_buffer(g, &bd, "particles");
    static const step clear[] = {{CLEAR_B, 0, 0}, {END, 0, 0}};
    static const step rw2[] = {{ST_READ, 0, 0}, {ST_WRITE, 0, 0}, {SIDE, 0, 0}, {END, 0, 0}};
    pass(g, "clear", COPY, clear);
    pass(g, "simulate", COMPUTE, rw2);
    expect_reject(g, HL_GRAPH_ERR_FEEDBACK, HL_ERR_VALIDATION, "pass 'simulate' reads buffer 'particles'",
                  "hl_graph_storage_read_write");
    hl_graph_begin(g);
    F.buf[0] = hl_graph_create_buffer(g, &bd, "particles");
    static const step rw1[] = {{ST_RW, 0, 0}, {SIDE, 0, 0}, {END, 0, 0}};
    pass(g, "clear", COPY, clear);
    pass(g, "simulate", COMPUTE, rw1);
    HL_CHECK_OK(hl_graph_compile(g, NULL));

    /* copy of a texture onto itself */
    hl_graph_begin(g);
    F.tex[0] = rgba(g, "img");
    static const step self_copy[] = {{COPY_T, 0, 0}, {SIDE, 0, 0}, {END, 0, 0}};
    pass(g, "init", RENDER, init);
    pass(g, "self", COPY, self_copy);
    expect_reject(g, HL_GRAPH_ERR_FEEDBACK, HL_ERR_VALIDATION, "pass 'self'", "'img'");

    /* attachment size mismatch */
    hl_graph_begin(g);
    F.tex[0] = rgba(g, "albedo");
    F.tex[1] = tex(g, "normal", 32, 32, HL_RHI_FORMAT_RGBA8_UNORM, 1);
    static const step mrt[] = {{COLOR, 0, 0}, {COLOR, 1, 1}, {SIDE, 0, 0}, {END, 0, 0}};
    pass(g, "gbuffer", RENDER, mrt);
    expect_reject(g, HL_GRAPH_ERR_ATTACHMENT_SIZE, HL_ERR_VALIDATION, "pass 'gbuffer': attachment 'normal' is 32x32",
                  "'albedo' is 64x64");

    /* sample count mismatch between colour and depth */
    hl_graph_begin(g);
    F.tex[0] = tex(g, "msaa", 64, 64, HL_RHI_FORMAT_RGBA8_UNORM, 4);
    F.tex[1] = tex(g, "depth", 64, 64, HL_RHI_FORMAT_DEPTH24_PLUS, 1);
    static const step ms[] = {{COLOR, 0, 0}, {DEPTH, 1, 0}, {SIDE, 0, 0}, {END, 0, 0}};
    pass(g, "forward", RENDER, ms);
    expect_reject(g, HL_GRAPH_ERR_SAMPLE_COUNT, HL_ERR_VALIDATION, "pass 'forward': depth attachment 'depth' has 1 samples",
                  NULL);

    /* resolve into a multisampled target */
    hl_graph_begin(g);
    F.tex[0] = tex(g, "msaa", 64, 64, HL_RHI_FORMAT_RGBA8_UNORM, 4);
    F.tex[1] = tex(g, "msaa2", 64, 64, HL_RHI_FORMAT_RGBA8_UNORM, 4);
    static const step rs[] = {{COLOR, 0, 0}, {RESOLVE, 1, 0}, {SIDE, 0, 0}, {END, 0, 0}};
    pass(g, "resolve", RENDER, rs);
    expect_reject(g, HL_GRAPH_ERR_SAMPLE_COUNT, HL_ERR_VALIDATION, "'msaa2'", "single-sample");

    /* dependency cycle through explicit edges */
    hl_graph_begin(g);
    F.tex[0] = rgba(g, "a");
    F.tex[1] = rgba(g, "b");
    static const step wa[] = {{COLOR, 0, 0}, {END, 0, 0}};
    static const step ab[] = {{SAMPLE, 0, 0}, {COLOR, 1, 0}, {OUT_T, 1, 0}, {END, 0, 0}};
    hl_graph_pass p0 = pass(g, "first", RENDER, wa);
    hl_graph_pass p1 = pass(g, "second", RENDER, ab);
    hl_graph_add_dependency(g, p1, p0); /* first after second, but second reads first's 'a' */
    expect_reject(g, HL_GRAPH_ERR_CYCLE, HL_ERR_VALIDATION, "dependency cycle through pass", "'first'");
    hl_graph_begin(g);
    p0 = pass(g, "selfish", RENDER, (const step[]){{SIDE, 0, 0}, {END, 0, 0}});
    hl_graph_add_dependency(g, p0, p0);
    expect_reject(g, HL_GRAPH_ERR_CYCLE, HL_ERR_VALIDATION, "pass 'selfish' depends on itself", NULL);

    /* descriptor and capability checks */
    hl_graph_begin(g);
    F.tex[0] = tex(g, "empty", 0, 64, HL_RHI_FORMAT_RGBA8_UNORM, 1);
    pass(g, "p", RENDER, (const step[]){{COLOR, 0, 0}, {SIDE, 0, 0}, {END, 0, 0}});
    expect_reject(g, HL_GRAPH_ERR_DESCRIPTOR, HL_ERR_VALIDATION, "texture 'empty'", "0x64");
    hl_graph_begin(g);
    F.tex[0] = tex(g, "huge", 1u << 20, 4, HL_RHI_FORMAT_RGBA8_UNORM, 1);
    pass(g, "p", RENDER, (const step[]){{COLOR, 0, 0}, {SIDE, 0, 0}, {END, 0, 0}});
    expect_reject(g, HL_GRAPH_ERR_UNSUPPORTED, HL_ERR_UNSUPPORTED, "texture 'huge'", "limit");
    hl_graph_begin(g);
    bd.size = 6;
    F.buf[0] = hl_graph_create_buffer(g, &bd, "odd");
    pass(g, "p", COPY, (const step[]){{CLEAR_B, 0, 0}, {SIDE, 0, 0}, {END, 0, 0}});
    expect_reject(g, HL_GRAPH_ERR_DESCRIPTOR, HL_ERR_VALIDATION, "buffer 'odd'", "multiple of 4");

    /* access that does not fit: an attachment in a compute pass, a colour texture as depth */
    hl_graph_begin(g);
    F.tex[0] = rgba(g, "c");
    pass(g, "cs", COMPUTE, (const step[]){{COLOR, 0, 0}, {SIDE, 0, 0}, {END, 0, 0}});
    expect_reject(g, HL_GRAPH_ERR_ACCESS, HL_ERR_VALIDATION, "pass 'cs'", "not a render pass");
    hl_graph_begin(g);
    F.tex[0] = rgba(g, "c");
    pass(g, "p", RENDER, (const step[]){{DEPTH, 0, 0}, {SIDE, 0, 0}, {END, 0, 0}});
    expect_reject(g, HL_GRAPH_ERR_ACCESS, HL_ERR_VALIDATION, "colour texture 'c'", NULL);

    /* builder errors surface at compile: a handle of another frame */
    hl_graph_begin(g);
    hl_graph_texture stale = rgba(g, "old");
    hl_graph_begin(g);
    F.tex[0] = stale;
    pass(g, "late", RENDER, (const step[]){{COLOR, 0, 0}, {SIDE, 0, 0}, {END, 0, 0}});
    expect_reject(g, HL_GRAPH_ERR_BUILD, HL_ERR_VALIDATION, "pass 'late'", "not one of this frame");

    HL_CHECK_EQ(hl_rhi_device_stats(g_dev)->native_calls, textures_before);
}

static hl_graph_pass order_of(const hl_graph_compiled *c, uint32_t i) { return c->order[i]; }

static void order_cull_lifetimes(hl_graph *g) {
    /* insertion order kept without edges; hazards reorder; unused passes culled */
    hl_graph_begin(g);
    F.tex[0] = rgba(g, "t0");
    F.tex[1] = rgba(g, "t1");
    F.tex[2] = rgba(g, "unused");
    F.tex[3] = rgba(g, "final");
    static const step w0[] = {{COLOR, 0, 0}, {END, 0, 0}};
    static const step w1[] = {{COLOR, 1, 0}, {END, 0, 0}};
    static const step w2[] = {{COLOR, 2, 0}, {END, 0, 0}};
    static const step fin[] = {{SAMPLE, 0, 0}, {SAMPLE, 1, 0}, {COLOR, 3, 0}, {OUT_T, 3, 0}, {END, 0, 0}};
    hl_graph_pass a = pass(g, "a", RENDER, w0);
    hl_graph_pass dead = pass(g, "dead", RENDER, w2);
    hl_graph_pass b = pass(g, "b", RENDER, w1);
    hl_graph_pass f = pass(g, "final", RENDER, fin);
    hl_graph_compiled c;
    HL_CHECK_OK(hl_graph_compile(g, &c));
    HL_CHECK_EQ(c.order_count, 3);
    HL_CHECK_EQ(order_of(&c, 0).id, a.id);
    HL_CHECK_EQ(order_of(&c, 1).id, b.id);
    HL_CHECK_EQ(order_of(&c, 2).id, f.id);
    HL_CHECK(hl_graph_pass_is_culled(g, dead));
    HL_CHECK(!hl_graph_pass_is_culled(g, a));
    HL_CHECK_EQ(c.stats->passes_total, 4);
    HL_CHECK_EQ(c.stats->passes_culled, 1);
    HL_CHECK_EQ(c.stats->resources_culled, 1);
    uint32_t first = 99, last = 99;
    HL_CHECK(hl_graph_texture_lifetime(g, F.tex[0], &first, &last));
    HL_CHECK_EQ(first, 0);
    HL_CHECK_EQ(last, 2);
    HL_CHECK(hl_graph_texture_lifetime(g, F.tex[1], &first, &last));
    HL_CHECK_EQ(first, 1);
    HL_CHECK_EQ(last, 2);
    HL_CHECK(!hl_graph_texture_lifetime(g, F.tex[2], &first, &last));
    /* t0 and t1 overlap: two objects; final starts at 2 where both still live: three */
    HL_CHECK_EQ(c.stats->transient_objects, 3);
    HL_CHECK_EQ(c.stats->bytes_without_reuse, 3 * 64 * 64 * 4);
    HL_CHECK_EQ(c.stats->bytes_lower_bound, 3 * 64 * 64 * 4);

    /* explicit dependency reorders against insertion order and keeps the dependency alive */
    hl_graph_begin(g);
    F.tex[0] = rgba(g, "x");
    F.tex[1] = rgba(g, "y");
    a = pass(g, "late_producer", RENDER, (const step[]){{COLOR, 0, 0}, {OUT_T, 0, 0}, {END, 0, 0}});
    b = pass(g, "early_side", RENDER, (const step[]){{COLOR, 1, 0}, {END, 0, 0}});
    hl_graph_add_dependency(g, b, a); /* a after b; b lives because a does */
    HL_CHECK_OK(hl_graph_compile(g, &c));
    HL_CHECK_EQ(c.order_count, 2);
    HL_CHECK_EQ(order_of(&c, 0).id, b.id);
    HL_CHECK_EQ(order_of(&c, 1).id, a.id);

    /* WAR: a reader declared before a later writer runs before it */
    hl_graph_begin(g);
    F.tex[0] = rgba(g, "shared");
    F.tex[1] = rgba(g, "o1");
    F.tex[2] = rgba(g, "o2");
    hl_graph_pass w = pass(g, "write1", RENDER, (const step[]){{COLOR, 0, 0}, {END, 0, 0}});
    hl_graph_pass r = pass(g, "read1", RENDER, (const step[]){{SAMPLE, 0, 0}, {COLOR, 1, 0}, {OUT_T, 1, 0}, {END, 0, 0}});
    hl_graph_pass w2p = pass(g, "write2", RENDER, (const step[]){{COLOR, 0, 0}, {END, 0, 0}});
    hl_graph_pass r2 = pass(g, "read2", RENDER, (const step[]){{SAMPLE, 0, 0}, {COLOR, 2, 0}, {OUT_T, 2, 0}, {END, 0, 0}});
    HL_CHECK_OK(hl_graph_compile(g, &c));
    HL_CHECK_EQ(c.order_count, 4);
    HL_CHECK_EQ(order_of(&c, 0).id, w.id);
    HL_CHECK_EQ(order_of(&c, 1).id, r.id);
    HL_CHECK_EQ(order_of(&c, 2).id, w2p.id);
    HL_CHECK_EQ(order_of(&c, 3).id, r2.id);
    uint32_t raw = 0, war = 0, waw = 0;
    for (uint32_t i = 0; i < g->edges_count; i++) {
        raw += g->edges[i].kind == HL__EDGE_RAW;
        war += g->edges[i].kind == HL__EDGE_WAR;
        waw += g->edges[i].kind == HL__EDGE_WAW;
    }
    HL_CHECK_EQ(raw, 2); /* write1 -> read1, write2 -> read2 */
    HL_CHECK_EQ(war, 1); /* read1 -> write2 */
    HL_CHECK_EQ(waw, 0); /* ordered through the reader */

    /* a fully overwritten write is culled (WAW keeps order, not liveness) */
    hl_graph_begin(g);
    F.tex[0] = rgba(g, "target");
    hl_graph_pass over1 = pass(g, "overwritten", RENDER, (const step[]){{COLOR, 0, 0}, {END, 0, 0}});
    hl_graph_pass over2 = pass(g, "final", RENDER, (const step[]){{COLOR, 0, 0}, {OUT_T, 0, 0}, {END, 0, 0}});
    HL_CHECK_OK(hl_graph_compile(g, &c));
    HL_CHECK(hl_graph_pass_is_culled(g, over1));
    HL_CHECK(!hl_graph_pass_is_culled(g, over2));
    /* with LOAD the earlier write is read, so it lives */
    hl_graph_begin(g);
    F.tex[0] = rgba(g, "target");
    over1 = pass(g, "base", RENDER, (const step[]){{COLOR, 0, 0}, {END, 0, 0}});
    over2 = pass(g, "blend", RENDER, (const step[]){{COLOR_LOAD, 0, 0}, {OUT_T, 0, 0}, {END, 0, 0}});
    HL_CHECK_OK(hl_graph_compile(g, &c));
    HL_CHECK(!hl_graph_pass_is_culled(g, over1));
    HL_CHECK_EQ(c.order_count, 2);
}

/* Equal descriptors with disjoint lifetimes share a slot; different descriptors never do. */
static void transient_plan(hl_graph *g) {
    hl_graph_begin(g);
    F.tex[0] = rgba(g, "p0");
    F.tex[1] = rgba(g, "p1");
    F.tex[2] = rgba(g, "p2");
    F.tex[3] = rgba(g, "p3");
    F.tex[4] = tex(g, "half", 32, 32, HL_RHI_FORMAT_RGBA8_UNORM, 1);
    pass(g, "a", RENDER, (const step[]){{COLOR, 0, 0}, {END, 0, 0}});
    pass(g, "b", RENDER, (const step[]){{SAMPLE, 0, 0}, {COLOR, 1, 0}, {END, 0, 0}});
    pass(g, "c", RENDER, (const step[]){{SAMPLE, 1, 0}, {COLOR, 2, 0}, {END, 0, 0}});
    pass(g, "d", RENDER, (const step[]){{SAMPLE, 2, 0}, {COLOR, 4, 0}, {END, 0, 0}});
    pass(g, "e", RENDER, (const step[]){{SAMPLE, 4, 0}, {COLOR, 3, 0}, {OUT_T, 3, 0}, {END, 0, 0}});
    hl_graph_compiled c;
    HL_CHECK_OK(hl_graph_compile(g, &c));
    uint32_t s0 = hl_graph_texture_slot(g, F.tex[0]), s1 = hl_graph_texture_slot(g, F.tex[1]);
    uint32_t s2 = hl_graph_texture_slot(g, F.tex[2]), s3 = hl_graph_texture_slot(g, F.tex[3]);
    uint32_t sh = hl_graph_texture_slot(g, F.tex[4]);
    HL_CHECK(s0 != s1);
    HL_CHECK_EQ(s2, s0); /* p0 ends at b (1), p2 starts at c (2) */
    /* p3 is only rendered to (never sampled): the usage differs, the object is shared anyway
     * (p2 ends at d (3), p3 starts at e (4)) and its usage is the union */
    HL_CHECK_EQ(s3, s0);
    HL_CHECK(sh != s0 && sh != s1);
    HL_CHECK_EQ(c.stats->transient_objects, 3);
    HL_CHECK_EQ(g->slots[s0].tdesc.usage, HL_RHI_TEXTURE_USAGE_SAMPLED | HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT);
    const uint64_t big = 64 * 64 * 4, small = 32 * 32 * 4;
    HL_CHECK_EQ(c.stats->bytes_without_reuse, 4 * big + small);
    HL_CHECK_EQ(c.stats->bytes_with_reuse, 2 * big + small);
    HL_CHECK_EQ(c.stats->bytes_lower_bound, 2 * big);
    /* the compiler's sweep agrees with the planner's definition */
    HL_CHECK_EQ(c.stats->bytes_lower_bound, hl_graph_plan_lower_bound(g->lifetimes, 5));
    HL_CHECK_EQ(c.stats->bytes_offset_plan, 0); /* computed when asked (O(n^2)) */
    HL_CHECK_EQ(hl_graph_offset_plan(g), c.stats->bytes_offset_plan);
    HL_CHECK(c.stats->bytes_offset_plan >= c.stats->bytes_lower_bound);
    HL_CHECK(c.stats->bytes_offset_plan <= c.stats->bytes_with_reuse);
    /* the usage of each transient is what its declarations need */
    const hl_rhi_texture_desc *d = hl_graph_texture_desc(g, F.tex[1]);
    HL_CHECK_EQ(d->usage, HL_RHI_TEXTURE_USAGE_SAMPLED | HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT);
}

/* The individual stages can be run one by one (white box). */
static void stages(hl_graph *g) {
    hl_graph_begin(g);
    F.tex[0] = rgba(g, "s0");
    F.tex[1] = rgba(g, "s1");
    pass(g, "one", RENDER, (const step[]){{COLOR, 0, 0}, {END, 0, 0}});
    pass(g, "two", RENDER, (const step[]){{SAMPLE, 0, 0}, {COLOR, 1, 0}, {OUT_T, 1, 0}, {END, 0, 0}});
    HL_CHECK_OK(hl__graph_stage_descriptors(g));
    HL_CHECK_EQ(g->res[0].tdesc.usage, HL_RHI_TEXTURE_USAGE_SAMPLED | HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT);
    HL_CHECK_OK(hl__graph_stage_hazards(g));
    HL_CHECK_EQ(g->edges_count, 1);
    HL_CHECK_EQ(g->edges[0].from, 0);
    HL_CHECK_EQ(g->edges[0].to, 1);
    HL_CHECK_OK(hl__graph_stage_attachments(g));
    HL_CHECK(hl__reserve((void **)&g->order, &g->order_cap, 2, sizeof(hl_graph_pass)));
    HL_CHECK(hl__reserve((void **)&g->order_index, &g->order_index_cap, 2, sizeof(uint32_t)));
    HL_CHECK_OK(hl__graph_stage_order(g));
    HL_CHECK_EQ(g->topo_count, 2);
    hl__graph_stage_cull(g);
    HL_CHECK(g->passes[0].live && g->passes[1].live);
    hl__graph_stage_lifetimes(g);
    HL_CHECK_EQ(g->order_count, 2);
    HL_CHECK_EQ(g->res[1].first, 1);
    HL_CHECK_OK(hl__graph_stage_transient_plan(g));
    HL_CHECK_EQ(g->slots_count, 2);
}

static hl_result provide_nothing(void *user, hl_rhi_texture *out) {
    (void)user, (void)out;
    return HL_ERR_NOT_FOUND;
}

/* The example deferred frame compiles, culls its debug pass, and its DOT names what it shows. */
static void example_and_dot(hl_graph *g) {
    hl_graph_begin(g);
    hl_graph_texture surface = {0};
    HL_CHECK_OK(hl_graph_build_example_deferred(g, 1920, 1080, provide_nothing, NULL, &surface));
    hl_graph_compiled c;
    HL_CHECK_OK(hl_graph_compile(g, &c));
    HL_CHECK_EQ(c.stats->passes_total, 14);
    HL_CHECK_EQ(c.stats->passes_culled, 1);
    HL_CHECK_EQ(c.order_count, 13);
    HL_CHECK(hl_graph_offset_plan(g) > 0);
    HL_CHECK(c.stats->bytes_lower_bound <= c.stats->bytes_offset_plan);
    HL_CHECK(c.stats->bytes_offset_plan <= c.stats->bytes_with_reuse);
    HL_CHECK(c.stats->bytes_with_reuse < c.stats->bytes_without_reuse);
    /* ldr (full-size RGBA8, tone map -> output) reuses the albedo target */
    HL_CHECK_EQ(c.stats->transient_objects, 14);
    FILE *f = tmpfile();
    HL_CHECK(f != NULL);
    if (!f) return;
    HL_CHECK_OK(hl_graph_write_dot(g, f));
    long n = ftell(f);
    rewind(f);
    static char text[65536];
    size_t got = fread(text, 1, sizeof(text) - 1, f);
    text[got] = 0;
    fclose(f);
    HL_CHECK(n > 0 && (size_t)n == got);
    HL_CHECK(strstr(text, "digraph frame {") == text);
    HL_CHECK(strstr(text, "debug.normals (culled)") != NULL);
    HL_CHECK(strstr(text, "label=\"#0 gbuffer\"") != NULL);
    HL_CHECK(strstr(text, "label=\"#12 output\"") != NULL);
    HL_CHECK(strstr(text, "(shared)") != NULL);
    HL_CHECK(strstr(text, "deferred import") != NULL);
    HL_CHECK(strstr(text, "label=\"sampled\"") != NULL);
    HL_CHECK(strstr(text, "label=\"depth\"") != NULL);
    HL_CHECK(text[got - 2] == '}');
}

int main(void) {
    g_dev = hl_test_device(HL_RHI_BACKEND_NULL);
    if (!g_dev) return hl_test_finish();
    hl_graph *g = NULL;
    hl_graph_desc gd = {0};
    gd.device = g_dev;
    hl_graph *bad = (hl_graph *)&gd;
    HL_CHECK_RESULT(hl_graph_create(NULL, &bad), HL_ERR_VALIDATION);
    HL_CHECK(bad == NULL);
    HL_CHECK_OK(hl_graph_create(&gd, &g));
    rejections(g);
    order_cull_lifetimes(g);
    transient_plan(g);
    stages(g);
    example_and_dot(g);
    hl_graph_destroy(g);
    hl_rhi_device_destroy(g_dev);
    return hl_test_finish();
}
