/* The compiler: named stages run in order by hl_graph_compile, each its own function
 * (declared in graph_internal.h so tests can run them one by one):
 *   descriptors -> hazards (RAW/WAR/WAW edges + rejections) -> attachments -> order (stable
 *   topological) -> cull (reverse reachability from outputs and side effects) -> lifetimes ->
 *   transient plan (equal-descriptor reuse + the planner's figures).
 * Pure CPU work: no RHI object is created here. */
#include <stdarg.h>
#include <string.h>

#include "graph_internal.h"

static hl_result hl__graph_reject(hl_graph *g, hl_graph_error kind, hl_result code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static hl_result hl__graph_reject(hl_graph *g, hl_graph_error kind, hl_result code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    hl__failv(code, fmt, ap);
    va_end(ap);
    g->error_kind = kind;
    return code;
}

/* ---- stage 1: descriptors ----------------------------------------------------------------------- */
static uint32_t hl__graph_texture_usage(hl__gacc_kind k) {
    switch (k) {
    case HL__ACC_SAMPLED: return HL_RHI_TEXTURE_USAGE_SAMPLED;
    case HL__ACC_COLOR:
    case HL__ACC_DEPTH:
    case HL__ACC_RESOLVE:
    case HL__ACC_CLEAR: return HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT;
    case HL__ACC_COPY_SRC: return HL_RHI_TEXTURE_USAGE_COPY_SRC;
    case HL__ACC_COPY_DST: return HL_RHI_TEXTURE_USAGE_COPY_DST;
    case HL__ACC_STORAGE_TEXTURE_WRITE: return HL_RHI_TEXTURE_USAGE_STORAGE;
    case HL__ACC_MIPS: return HL_RHI_TEXTURE_USAGE_SAMPLED | HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT;
    default: return 0;
    }
}

static uint32_t hl__graph_buffer_usage(hl__gacc_kind k) {
    switch (k) {
    case HL__ACC_COPY_SRC: return HL_RHI_BUFFER_USAGE_COPY_SRC;
    case HL__ACC_COPY_DST:
    case HL__ACC_CLEAR: return HL_RHI_BUFFER_USAGE_COPY_DST;
    case HL__ACC_STORAGE_READ:
    case HL__ACC_STORAGE_WRITE:
    case HL__ACC_STORAGE_READ_WRITE: return HL_RHI_BUFFER_USAGE_STORAGE;
    case HL__ACC_UNIFORM: return HL_RHI_BUFFER_USAGE_UNIFORM;
    case HL__ACC_VERTEX: return HL_RHI_BUFFER_USAGE_VERTEX;
    case HL__ACC_INDEX: return HL_RHI_BUFFER_USAGE_INDEX;
    case HL__ACC_INDIRECT: return HL_RHI_BUFFER_USAGE_INDIRECT;
    default: return 0;
    }
}

/* An access must fit its pass kind and resource type. */
static hl_result hl__graph_check_access(hl_graph *g, const hl__gaccess *a) {
    const hl__gpass *p = &g->passes[a->pass];
    const hl__gres *r = &g->res[a->res];
    hl__gacc_kind k = (hl__gacc_kind)a->kind;
    bool attach = k == HL__ACC_COLOR || k == HL__ACC_DEPTH || k == HL__ACC_RESOLVE;
    if (attach && p->kind != HL_GRAPH_PASS_RENDER)
        return hl__graph_reject(g, HL_GRAPH_ERR_ACCESS, HL_ERR_VALIDATION,
                                "pass '%s' declares %s attachment '%s' but is not a render pass", p->name,
                                hl__gacc_names[k], r->name);
    if (k == HL__ACC_MIPS && (r->is_buffer || p->kind != HL_GRAPH_PASS_COPY))
        return hl__graph_reject(g, HL_GRAPH_ERR_ACCESS, HL_ERR_VALIDATION,
                                "pass '%s': mips of '%s' need a texture and a copy pass", p->name, r->name);
    if (r->is_buffer) return HL_OK;
    const hl_rhi_format_info *fi = hl_rhi_format_get_info(r->tdesc.format);
    bool depth = fi && fi->is_depth;
    if (k == HL__ACC_MIPS && (depth || r->tdesc.sample_count > 1))
        return hl__graph_reject(g, HL_GRAPH_ERR_ACCESS, HL_ERR_VALIDATION,
                                "pass '%s': mips of '%s' need a single-sample colour texture", p->name, r->name);
    if ((k == HL__ACC_COLOR || k == HL__ACC_RESOLVE) && depth)
        return hl__graph_reject(g, HL_GRAPH_ERR_ACCESS, HL_ERR_VALIDATION,
                                "pass '%s' uses depth texture '%s' as a %s attachment", p->name, r->name,
                                hl__gacc_names[k]);
    if (k == HL__ACC_DEPTH && !depth)
        return hl__graph_reject(g, HL_GRAPH_ERR_ACCESS, HL_ERR_VALIDATION,
                                "pass '%s' uses colour texture '%s' as its depth attachment", p->name, r->name);
    /* a transient's mips: its attachments are level 0 (the executor keeps a view of it) */
    bool mips_ok = r->origin == HL__RES_TRANSIENT && !r->extracted;
    if (attach && ((r->tdesc.mip_levels > 1 && !mips_ok) || r->tdesc.depth_or_layers > 1))
        return hl__graph_reject(g, HL_GRAPH_ERR_ACCESS, HL_ERR_VALIDATION,
                                "pass '%s': attachment '%s' must have one layer (and one mip level unless it is a "
                                "transient of the frame)", p->name, r->name);
    return HL_OK;
}

static hl_result hl__graph_check_texture(hl_graph *g, hl__gres *r) {
    hl_rhi_texture_desc *d = &r->tdesc;
    const hl_rhi_format_info *fi = hl_rhi_format_get_info(d->format);
    if (!fi || d->format == HL_RHI_FORMAT_UNDEFINED)
        return hl__graph_reject(g, HL_GRAPH_ERR_DESCRIPTOR, HL_ERR_VALIDATION, "texture '%s': format %d is invalid",
                                r->name, (int)d->format);
    if (!d->width || !d->height)
        return hl__graph_reject(g, HL_GRAPH_ERR_DESCRIPTOR, HL_ERR_VALIDATION, "texture '%s': size %ux%u is empty",
                                r->name, d->width, d->height);
    if (!d->depth_or_layers) d->depth_or_layers = d->dimension == HL_RHI_TEXTURE_CUBE ? 6 : 1;
    if (!d->mip_levels) d->mip_levels = 1;
    if (!d->sample_count) d->sample_count = 1;
    const hl_rhi_caps *caps = g->caps;
    uint32_t max = caps->limits.max_texture_dimension_2d;
    if (max && (d->width > max || d->height > max))
        return hl__graph_reject(g, HL_GRAPH_ERR_UNSUPPORTED, HL_ERR_UNSUPPORTED,
                                "texture '%s': %ux%u exceeds the device limit %u", r->name, d->width, d->height, max);
    uint32_t big = d->width > d->height ? d->width : d->height, levels = 1;
    while (big >>= 1) levels++;
    if (d->mip_levels > levels)
        return hl__graph_reject(g, HL_GRAPH_ERR_DESCRIPTOR, HL_ERR_VALIDATION,
                                "texture '%s': %u mip levels, at most %u for %ux%u", r->name, d->mip_levels, levels,
                                d->width, d->height);
    const hl_rhi_format_caps *fc = &caps->formats[d->format];
    if (d->sample_count != 1 && d->sample_count != 4)
        return hl__graph_reject(g, HL_GRAPH_ERR_DESCRIPTOR, HL_ERR_VALIDATION, "texture '%s': sample count %u is not 1 or 4",
                                r->name, d->sample_count);
    if (!(fc->sample_counts & d->sample_count))
        return hl__graph_reject(g, HL_GRAPH_ERR_UNSUPPORTED, HL_ERR_UNSUPPORTED,
                                "texture '%s': %s does not support %u samples on this device", r->name, fi->name,
                                d->sample_count);
    uint32_t u = r->needed_usage;
    struct {
        uint32_t usage, cap;
        const char *what;
    } need[] = {{HL_RHI_TEXTURE_USAGE_SAMPLED, HL_RHI_FORMAT_CAP_SAMPLED, "sampled"},
                {HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT, HL_RHI_FORMAT_CAP_RENDERABLE, "rendered to"},
                {HL_RHI_TEXTURE_USAGE_STORAGE, HL_RHI_FORMAT_CAP_STORAGE, "written as storage"}};
    for (uint32_t i = 0; i < 3; i++)
        if ((u & need[i].usage) && !(fc->flags & need[i].cap))
            return hl__graph_reject(g, HL_GRAPH_ERR_UNSUPPORTED, HL_ERR_UNSUPPORTED,
                                    "texture '%s': format %s cannot be %s on this device", r->name, fi->name,
                                    need[i].what);
    if (r->origin == HL__RES_IMPORTED) {
        if ((d->usage & u) != u)
            return hl__graph_reject(g, HL_GRAPH_ERR_DESCRIPTOR, HL_ERR_VALIDATION,
                                    "imported texture '%s' lacks usage 0x%x its declarations need (has 0x%x)", r->name,
                                    u & ~d->usage, d->usage);
    } else {
        d->usage |= u;
        if (!d->usage) d->usage = HL_RHI_TEXTURE_USAGE_SAMPLED;
    }
    return HL_OK;
}

static hl_result hl__graph_check_buffer(hl_graph *g, hl__gres *r) {
    if (r->origin != HL__RES_TRANSIENT) { /* imports: declared usage (if any) must cover the passes' */
        uint32_t have = r->bdesc.usage, need = r->needed_usage;
        if (have && (have & need) != need)
            return hl__graph_reject(g, HL_GRAPH_ERR_ACCESS, HL_ERR_VALIDATION,
                                    "imported buffer '%s' lacks usage 0x%x its passes need (has 0x%x)", r->name,
                                    need & ~have, have);
        return HL_OK;
    }
    hl_rhi_buffer_desc *d = &r->bdesc;
    if (!d->size || (d->size & 3u))
        return hl__graph_reject(g, HL_GRAPH_ERR_DESCRIPTOR, HL_ERR_VALIDATION,
                                "buffer '%s': size %llu must be a non-zero multiple of 4", r->name,
                                (unsigned long long)d->size);
    if (d->initial_data)
        return hl__graph_reject(g, HL_GRAPH_ERR_DESCRIPTOR, HL_ERR_VALIDATION,
                                "buffer '%s': a transient has no initial_data (upload into an imported buffer)",
                                r->name);
    if ((r->needed_usage & HL_RHI_BUFFER_USAGE_STORAGE) && !(g->caps->features & HL_RHI_FEATURE_STORAGE_BUFFER))
        return hl__graph_reject(g, HL_GRAPH_ERR_UNSUPPORTED, HL_ERR_UNSUPPORTED,
                                "buffer '%s' is used as storage but the device has no storage buffers", r->name);
    d->usage |= r->needed_usage;
    if (!d->usage) d->usage = HL_RHI_BUFFER_USAGE_COPY_DST;
    return HL_OK;
}

hl_result hl__graph_stage_descriptors(hl_graph *g) {
    for (uint32_t i = 0; i < g->res_count; i++) g->res[i].needed_usage = 0;
    for (uint32_t i = 0; i < g->acc_count; i++) {
        const hl__gaccess *a = &g->acc[i];
        hl_result r = hl__graph_check_access(g, a);
        if (r) return r;
        hl__gres *res = &g->res[a->res];
        res->needed_usage |= res->is_buffer ? hl__graph_buffer_usage((hl__gacc_kind)a->kind)
                                            : hl__graph_texture_usage((hl__gacc_kind)a->kind);
    }
    for (uint32_t i = 0; i < g->res_count; i++) {
        hl__gres *res = &g->res[i];
        hl_result r = res->is_buffer ? hl__graph_check_buffer(g, res) : hl__graph_check_texture(g, res);
        if (r) return r;
    }
    return HL_OK;
}

/* ---- stage 2: hazards ------------------------------------------------------------------------------ */
static hl_result hl__graph_edge(hl_graph *g, uint32_t from, uint32_t to, uint32_t res, hl__gedge_kind kind) {
    if (from == to) return HL_OK;
    if (!hl__reserve((void **)&g->edges, &g->edges_cap, g->edges_count + 1, sizeof(hl__gedge)))
        return hl__graph_reject(g, HL_GRAPH_ERR_NONE, HL_ERR_OUT_OF_MEMORY, "hl_graph_compile: edge table");
    g->edges[g->edges_count++] = (hl__gedge){from, to, res, (uint8_t)kind};
    return HL_OK;
}

/* Same-pass read and write of one resource through different declarations: the portable
 * exceptions are a single read-write declaration (LOAD attachments, read-only depth, storage
 * read_write), several reads, and the executor's clear (it runs before the pass). */
static hl_result hl__graph_check_feedback(hl_graph *g, const hl__gpass *p) {
    for (uint32_t i = 0; i < p->access_count; i++) {
        const hl__gaccess *a = &g->acc[p->first_access + i];
        if (!a->reads || a->kind == HL__ACC_CLEAR) continue;
        for (uint32_t j = 0; j < p->access_count; j++) {
            const hl__gaccess *b = &g->acc[p->first_access + j];
            if (j == i || b->res != a->res || !b->writes || b->kind == HL__ACC_CLEAR) continue;
            const hl__gres *r = &g->res[a->res];
            return hl__graph_reject(g, HL_GRAPH_ERR_FEEDBACK, HL_ERR_VALIDATION,
                                    "pass '%s' reads %s '%s' (%s) and writes it (%s) in the same pass%s", p->name,
                                    hl__graph_res_kind(r), r->name, hl__gacc_names[a->kind], hl__gacc_names[b->kind],
                                    r->is_buffer ? "; use hl_graph_storage_read_write for in-place storage" : "");
        }
    }
    return HL_OK;
}

static hl_result hl__graph_hazard_read(hl_graph *g, uint32_t pi, uint32_t ai) {
    hl__gaccess *a = &g->acc[ai];
    hl__gres *r = &g->res[a->res];
    const hl__gpass *p = &g->passes[pi];
    if (r->last_writer == HL__GRAPH_NONE) {
        if (r->origin == HL__RES_TRANSIENT)
            return hl__graph_reject(g, HL_GRAPH_ERR_UNINITIALIZED_READ, HL_ERR_VALIDATION,
                                    "pass '%s' reads %s '%s' before any pass writes it", p->name, hl__graph_res_kind(r),
                                    r->name);
    } else if (r->last_writer != pi) {
        if (r->last_write_discarded)
            return hl__graph_reject(g, HL_GRAPH_ERR_READ_AFTER_DISCARD, HL_ERR_VALIDATION,
                                    "pass '%s' reads %s '%s' after pass '%s' discarded it", p->name,
                                    hl__graph_res_kind(r), r->name, g->passes[r->last_writer].name);
        hl_result e = hl__graph_edge(g, r->last_writer, pi, a->res, HL__EDGE_RAW);
        if (e) return e;
    }
    a->next_reader = r->reader_head;
    r->reader_head = ai;
    return HL_OK;
}

static hl_result hl__graph_hazard_write(hl_graph *g, uint32_t pi, uint32_t ai) {
    hl__gaccess *a = &g->acc[ai];
    hl__gres *r = &g->res[a->res];
    bool had_reader = false;
    for (uint32_t k = r->reader_head; k != HL__GRAPH_NONE; k = g->acc[k].next_reader) {
        hl_result e = hl__graph_edge(g, g->acc[k].pass, pi, a->res, HL__EDGE_WAR);
        if (e) return e;
        had_reader |= g->acc[k].pass != pi;
    }
    /* WAW orders writers with no reader in between; readers already order them otherwise */
    if (r->last_writer != HL__GRAPH_NONE && !had_reader) {
        hl_result e = hl__graph_edge(g, r->last_writer, pi, a->res, HL__EDGE_WAW);
        if (e) return e;
    }
    r->reader_head = HL__GRAPH_NONE;
    r->last_writer = pi;
    r->last_write_discarded = a->discard;
    return HL_OK;
}

hl_result hl__graph_stage_hazards(hl_graph *g) {
    g->edges_count = 0;
    for (uint32_t i = 0; i < g->res_count; i++) {
        g->res[i].last_writer = HL__GRAPH_NONE;
        g->res[i].reader_head = HL__GRAPH_NONE;
        g->res[i].last_write_discarded = false;
    }
    for (uint32_t pi = 0; pi < g->passes_count; pi++) {
        const hl__gpass *p = &g->passes[pi];
        hl_result e = hl__graph_check_feedback(g, p);
        if (e) return e;
        uint32_t end = p->first_access + p->access_count;
        /* clears first (the executor runs them before the pass), then reads, then writes */
        for (uint32_t ai = p->first_access; ai < end && !e; ai++)
            if (g->acc[ai].kind == HL__ACC_CLEAR) e = hl__graph_hazard_write(g, pi, ai);
        for (uint32_t ai = p->first_access; ai < end && !e; ai++)
            if (g->acc[ai].reads) e = hl__graph_hazard_read(g, pi, ai);
        for (uint32_t ai = p->first_access; ai < end && !e; ai++)
            if (g->acc[ai].writes && g->acc[ai].kind != HL__ACC_CLEAR) e = hl__graph_hazard_write(g, pi, ai);
        if (e) return e;
    }
    for (uint32_t i = 0; i < g->deps_count; i++) {
        const hl__gdep *d = &g->deps[i];
        if (d->before == d->after)
            return hl__graph_reject(g, HL_GRAPH_ERR_CYCLE, HL_ERR_VALIDATION, "dependency cycle: pass '%s' depends on itself",
                                    g->passes[d->before].name);
        hl_result e = hl__graph_edge(g, d->before, d->after, HL__GRAPH_NONE, HL__EDGE_EXPLICIT);
        if (e) return e;
    }
    return HL_OK;
}

/* ---- stage 3: attachments ------------------------------------------------------------------------- */
hl_result hl__graph_stage_attachments(hl_graph *g) {
    for (uint32_t pi = 0; pi < g->passes_count; pi++) {
        const hl__gpass *p = &g->passes[pi];
        if (p->kind != HL_GRAPH_PASS_RENDER) continue;
        const hl__gaccess *color[HL_RHI_MAX_COLOR_ATTACHMENTS] = {0}, *resolve[HL_RHI_MAX_COLOR_ATTACHMENTS] = {0};
        const hl__gaccess *first = NULL, *depth = NULL;
        for (uint32_t i = 0; i < p->access_count; i++) {
            const hl__gaccess *a = &g->acc[p->first_access + i];
            const hl__gaccess **slot = a->kind == HL__ACC_COLOR     ? &color[a->slot]
                                       : a->kind == HL__ACC_RESOLVE ? &resolve[a->slot]
                                       : a->kind == HL__ACC_DEPTH   ? &depth
                                                                    : NULL;
            if (!slot) continue;
            if (*slot)
                return hl__graph_reject(g, HL_GRAPH_ERR_ACCESS, HL_ERR_VALIDATION,
                                        "pass '%s' declares two %s attachments for slot %u ('%s' and '%s')", p->name,
                                        hl__gacc_names[a->kind], a->slot, g->res[(*slot)->res].name, g->res[a->res].name);
            *slot = a;
            const hl_rhi_texture_desc *d = &g->res[a->res].tdesc, *f;
            if (!first) {
                first = a;
                continue;
            }
            f = &g->res[first->res].tdesc;
            if (d->width != f->width || d->height != f->height)
                return hl__graph_reject(g, HL_GRAPH_ERR_ATTACHMENT_SIZE, HL_ERR_VALIDATION,
                                        "pass '%s': attachment '%s' is %ux%u but '%s' is %ux%u", p->name,
                                        g->res[a->res].name, d->width, d->height, g->res[first->res].name, f->width,
                                        f->height);
        }
        uint32_t samples = 0;
        for (uint32_t s = 0; s < HL_RHI_MAX_COLOR_ATTACHMENTS; s++) {
            if (!color[s]) {
                for (uint32_t t = s + 1; t < HL_RHI_MAX_COLOR_ATTACHMENTS; t++)
                    if (color[t])
                        return hl__graph_reject(g, HL_GRAPH_ERR_ACCESS, HL_ERR_VALIDATION,
                                                "pass '%s': colour slot %u is used but slot %u is empty", p->name, t, s);
                if (resolve[s])
                    return hl__graph_reject(g, HL_GRAPH_ERR_ACCESS, HL_ERR_VALIDATION,
                                            "pass '%s': resolve target '%s' of slot %u has no colour attachment",
                                            p->name, g->res[resolve[s]->res].name, s);
                continue;
            }
            const hl__gres *c = &g->res[color[s]->res];
            if (samples && c->tdesc.sample_count != samples)
                return hl__graph_reject(g, HL_GRAPH_ERR_SAMPLE_COUNT, HL_ERR_VALIDATION,
                                        "pass '%s': colour attachment '%s' has %u samples, slot 0 has %u", p->name,
                                        c->name, c->tdesc.sample_count, samples);
            samples = c->tdesc.sample_count;
            if (resolve[s]) {
                const hl__gres *rv = &g->res[resolve[s]->res];
                if (c->tdesc.sample_count == 1 || rv->tdesc.sample_count != 1)
                    return hl__graph_reject(g, HL_GRAPH_ERR_SAMPLE_COUNT, HL_ERR_VALIDATION,
                                            "pass '%s': resolving '%s' (%u samples) into '%s' (%u samples) needs a "
                                            "multisampled source and a single-sample target",
                                            p->name, c->name, c->tdesc.sample_count, rv->name, rv->tdesc.sample_count);
                if (rv->tdesc.format != c->tdesc.format)
                    return hl__graph_reject(g, HL_GRAPH_ERR_ACCESS, HL_ERR_VALIDATION,
                                            "pass '%s': resolve target '%s' differs in format from '%s'", p->name,
                                            rv->name, c->name);
            }
        }
        if (depth && samples && g->res[depth->res].tdesc.sample_count != samples)
            return hl__graph_reject(g, HL_GRAPH_ERR_SAMPLE_COUNT, HL_ERR_VALIDATION,
                                    "pass '%s': depth attachment '%s' has %u samples, the colour attachments %u", p->name,
                                    g->res[depth->res].name, g->res[depth->res].tdesc.sample_count, samples);
    }
    return HL_OK;
}

/* ---- stage 4: stable topological order ------------------------------------------------------------- */
static void hl__heap_push(uint32_t *h, uint32_t *n, uint32_t v) {
    uint32_t i = (*n)++;
    while (i > 0 && h[(i - 1) / 2] > v) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = v;
}

static uint32_t hl__heap_pop(uint32_t *h, uint32_t *n) {
    uint32_t top = h[0], v = h[--(*n)], i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= *n) break;
        if (c + 1 < *n && h[c + 1] < h[c]) c++;
        if (h[c] >= v) break;
        h[i] = h[c];
        i = c;
    }
    if (*n) h[i] = v;
    return top;
}

hl_result hl__graph_stage_order(hl_graph *g) {
    uint32_t n = g->passes_count, m = g->edges_count;
    if (!hl__reserve((void **)&g->edge_start, &g->edge_start_cap, n + 1, sizeof(uint32_t)) ||
        !hl__reserve((void **)&g->edge_list, &g->edge_list_cap, m ? m : 1, sizeof(uint32_t)) ||
        !hl__reserve((void **)&g->indegree, &g->indegree_cap, n ? n : 1, sizeof(uint32_t)) ||
        !hl__reserve((void **)&g->heap, &g->heap_cap, n ? n : 1, sizeof(uint32_t)) ||
        !hl__reserve((void **)&g->topo, &g->topo_cap, n ? n : 1, sizeof(uint32_t)))
        return hl__graph_reject(g, HL_GRAPH_ERR_NONE, HL_ERR_OUT_OF_MEMORY, "hl_graph_compile: order workspace");
    /* CSR by source pass; edge_list holds edge indices */
    memset(g->edge_start, 0, (n + 1) * sizeof(uint32_t));
    memset(g->indegree, 0, n * sizeof(uint32_t));
    for (uint32_t e = 0; e < m; e++) {
        g->edge_start[g->edges[e].from + 1]++;
        g->indegree[g->edges[e].to]++;
    }
    for (uint32_t i = 0; i < n; i++) g->edge_start[i + 1] += g->edge_start[i];
    uint32_t *fill = g->heap; /* borrowed as the fill cursor */
    for (uint32_t i = 0; i < n; i++) fill[i] = g->edge_start[i];
    for (uint32_t e = 0; e < m; e++) g->edge_list[fill[g->edges[e].from]++] = e;
    /* Kahn's algorithm taking the smallest ready insertion index first: stable */
    uint32_t hn = 0, out = 0;
    for (uint32_t i = 0; i < n; i++)
        if (!g->indegree[i]) hl__heap_push(g->heap, &hn, i);
    while (hn) {
        uint32_t p = hl__heap_pop(g->heap, &hn);
        g->topo[out++] = p;
        for (uint32_t k = g->edge_start[p]; k < g->edge_start[p + 1]; k++) {
            uint32_t to = g->edges[g->edge_list[k]].to;
            if (--g->indegree[to] == 0) hl__heap_push(g->heap, &hn, to);
        }
    }
    g->topo_count = out;
    if (out == n) return HL_OK;
    /* name one edge inside the cycle: between two passes that never became ready */
    for (uint32_t e = 0; e < m; e++) {
        const hl__gedge *d = &g->edges[e];
        if (g->indegree[d->from] && g->indegree[d->to]) {
            if (d->res == HL__GRAPH_NONE)
                return hl__graph_reject(g, HL_GRAPH_ERR_CYCLE, HL_ERR_VALIDATION,
                                        "dependency cycle through pass '%s' -> pass '%s' (explicit dependency)",
                                        g->passes[d->from].name, g->passes[d->to].name);
            return hl__graph_reject(g, HL_GRAPH_ERR_CYCLE, HL_ERR_VALIDATION,
                                    "dependency cycle through pass '%s' -> pass '%s' (%s '%s')", g->passes[d->from].name,
                                    g->passes[d->to].name, hl__graph_res_kind(&g->res[d->res]), g->res[d->res].name);
        }
    }
    return hl__graph_reject(g, HL_GRAPH_ERR_CYCLE, HL_ERR_VALIDATION, "dependency cycle among %u passes", n - out);
}

/* ---- stage 5: culling ------------------------------------------------------------------------------ */
void hl__graph_stage_cull(hl_graph *g) {
    /* roots: side effects and the last writer of each output (the executor also calls
     * deferred providers only for resources of live passes) */
    for (uint32_t i = 0; i < g->passes_count; i++) g->passes[i].live = g->passes[i].side_effect;
    for (uint32_t i = 0; i < g->res_count; i++)
        if (g->res[i].output && g->res[i].last_writer != HL__GRAPH_NONE) g->passes[g->res[i].last_writer].live = true;
    /* reverse topological walk: a pass lives if a live pass reads what it wrote (RAW) or
     * depends on it explicitly */
    for (uint32_t k = g->topo_count; k-- > 0;) {
        uint32_t p = g->topo[k];
        if (g->passes[p].live) continue;
        for (uint32_t e = g->edge_start[p]; e < g->edge_start[p + 1]; e++) {
            const hl__gedge *d = &g->edges[g->edge_list[e]];
            if ((d->kind == HL__EDGE_RAW || d->kind == HL__EDGE_EXPLICIT) && g->passes[d->to].live) {
                g->passes[p].live = true;
                break;
            }
        }
    }
}

/* ---- stage 6: lifetimes ---------------------------------------------------------------------------- */
void hl__graph_stage_lifetimes(hl_graph *g) {
    for (uint32_t i = 0; i < g->res_count; i++) {
        g->res[i].live = false;
        g->res[i].first = g->res[i].last = HL__GRAPH_NONE;
        g->res[i].slot = HL__GRAPH_NONE;
    }
    uint32_t pos = 0;
    for (uint32_t k = 0; k < g->topo_count; k++) {
        hl__gpass *p = &g->passes[g->topo[k]];
        if (!p->live) {
            p->position = HL__GRAPH_NONE;
            continue;
        }
        p->position = pos;
        g->order[pos] = hl__graph_pass_handle(g, g->topo[k]);
        g->order_index[pos] = g->topo[k];
        for (uint32_t i = 0; i < p->access_count; i++) {
            hl__gres *r = &g->res[g->acc[p->first_access + i].res];
            if (!r->live) r->first = pos;
            r->live = true;
            r->last = pos;
        }
        pos++;
    }
    g->order_count = pos;
}

/* ---- stage 7: transient plan ----------------------------------------------------------------------- */
static bool hl__graph_bdesc_equal(const hl_rhi_buffer_desc *a, const hl_rhi_buffer_desc *b) {
    return a->size == b->size && a->usage == b->usage;
}

hl_result hl__graph_stage_transient_plan(hl_graph *g) {
    g->slots_count = 0;
    uint32_t live_transients = 0;
    for (uint32_t i = 0; i < g->res_count; i++) {
        hl__gres *r = &g->res[i];
        r->bytes = r->is_buffer ? r->bdesc.size : hl_graph_texture_bytes(&r->tdesc);
        if (r->live && r->origin == HL__RES_TRANSIENT) live_transients++;
    }
    uint32_t n = live_transients;
    if (!hl__reserve((void **)&g->slots, &g->slots_cap, n ? n : 1, sizeof(hl__gslot)) ||
        !hl__reserve((void **)&g->lifetimes, &g->lifetimes_cap, n ? n : 1, sizeof(hl_graph_lifetime)) ||
        !hl__reserve((void **)&g->plan_scratch, &g->plan_scratch_cap, n ? 2 * n : 1, sizeof(uint32_t)) ||
        !hl__reserve((void **)&g->plan_offsets, &g->plan_offsets_cap, n ? n : 1, sizeof(uint64_t)))
        return hl__graph_reject(g, HL_GRAPH_ERR_NONE, HL_ERR_OUT_OF_MEMORY, "hl_graph_compile: plan workspace");
    /* first use order: walk the execution order; textures equal but for usage (the slot takes
     * the union) and equal buffers with disjoint lifetimes share a slot (first fit); extracted
     * resources keep their own */
    uint32_t lt = 0;
    for (uint32_t pos = 0; pos < g->order_count; pos++) {
        const hl__gpass *p = &g->passes[g->order_index[pos]];
        for (uint32_t i = 0; i < p->access_count; i++) {
            uint32_t ri = g->acc[p->first_access + i].res;
            hl__gres *r = &g->res[ri];
            if (r->origin != HL__RES_TRANSIENT || r->first != pos || r->slot != HL__GRAPH_NONE) continue;
            g->lifetimes[lt++] = (hl_graph_lifetime){r->name, r->bytes, r->first, r->last};
            uint32_t s = HL__GRAPH_NONE;
            for (uint32_t k = 0; k < g->slots_count && !r->extracted && s == HL__GRAPH_NONE; k++) {
                hl__gslot *c = &g->slots[k];
                if (c->is_buffer != r->is_buffer || c->last >= r->first || g->res[c->first_res].extracted) continue;
                if (r->is_buffer) {
                    if (hl__graph_bdesc_equal(&c->bdesc, &r->bdesc)) s = k;
                } else {
                    /* usage is not part of the match: the shared object gets the union */
                    hl_rhi_texture_desc d = r->tdesc;
                    d.usage = c->tdesc.usage;
                    if (hl__graph_tdesc_equal(&c->tdesc, &d)) s = k;
                }
            }
            if (s == HL__GRAPH_NONE) {
                s = g->slots_count++;
                hl__gslot *c = &g->slots[s];
                memset(c, 0, sizeof(*c));
                c->is_buffer = r->is_buffer;
                c->tdesc = r->tdesc;
                c->bdesc = r->bdesc;
                c->first_res = ri;
                c->bytes = r->bytes;
                c->entry = HL__GRAPH_NONE;
            }
            g->slots[s].last = r->last;
            g->slots[s].tdesc.usage |= r->tdesc.usage;
            r->slot = s;
        }
    }
    hl_graph_stats *st = &g->stats;
    st->transient_objects = g->slots_count;
    st->bytes_without_reuse = st->bytes_with_reuse = 0;
    for (uint32_t i = 0; i < lt; i++) st->bytes_without_reuse += g->lifetimes[i].bytes;
    for (uint32_t s = 0; s < g->slots_count; s++) st->bytes_with_reuse += g->slots[s].bytes;
    /* the offset planner is O(n^2) in transients: diagnostics ask for it (hl_graph_offset_plan) */
    g->lifetimes_count = lt;
    st->bytes_offset_plan = 0;
    /* the lower bound by a sweep over positions (the planner's O(n^2) version gives the same) */
    uint32_t positions = g->order_count + 1;
    if (!hl__reserve((void **)&g->plan_offsets, &g->plan_offsets_cap, positions, sizeof(uint64_t)))
        return hl__graph_reject(g, HL_GRAPH_ERR_NONE, HL_ERR_OUT_OF_MEMORY, "hl_graph_compile: plan workspace");
    int64_t *delta = (int64_t *)g->plan_offsets;
    memset(delta, 0, positions * sizeof(int64_t));
    for (uint32_t i = 0; i < lt; i++) {
        delta[g->lifetimes[i].first_use] += (int64_t)g->lifetimes[i].bytes;
        delta[g->lifetimes[i].last_use + 1] -= (int64_t)g->lifetimes[i].bytes;
    }
    int64_t live = 0, most = 0;
    for (uint32_t p = 0; p < positions; p++) {
        live += delta[p];
        if (live > most) most = live;
    }
    st->bytes_lower_bound = (uint64_t)most;
    return HL_OK;
}

/* ---- the driver ------------------------------------------------------------------------------------ */
hl_result hl_graph_compile(hl_graph *g, hl_graph_compiled *out) {
    if (out) memset(out, 0, sizeof(*out));
    if (!g) return hl__fail(HL_ERR_VALIDATION, "hl_graph_compile: graph is NULL");
    if (g->state == HL__GRAPH_IDLE || g->state == HL__GRAPH_DONE)
        return hl__fail(HL_ERR_INVALID_STATE, "hl_graph_compile: call hl_graph_begin and build a frame first");
    if (g->build_result) {
        g->error_kind = HL_GRAPH_ERR_BUILD;
        return hl__fail(g->build_result, "%s", g->build_msg);
    }
    if (!g->compiled) {
        g->error_kind = HL_GRAPH_ERR_NONE;
        if (!hl__reserve((void **)&g->order, &g->order_cap, g->passes_count ? g->passes_count : 1, sizeof(hl_graph_pass)) ||
            !hl__reserve((void **)&g->order_index, &g->order_index_cap, g->passes_count ? g->passes_count : 1,
                         sizeof(uint32_t)))
            return hl__fail(HL_ERR_OUT_OF_MEMORY, "hl_graph_compile: order table");
        hl_result r = hl__graph_stage_descriptors(g);
        if (!r) r = hl__graph_stage_hazards(g);
        if (!r) r = hl__graph_stage_attachments(g);
        if (!r) r = hl__graph_stage_order(g);
        if (r) return r;
        hl__graph_stage_cull(g);
        hl__graph_stage_lifetimes(g);
        r = hl__graph_stage_transient_plan(g);
        if (r) return r;
        hl_graph_stats *st = &g->stats;
        st->passes_total = g->passes_count;
        st->passes_culled = g->passes_count - g->order_count;
        st->textures_total = st->buffers_total = st->resources_culled = 0;
        for (uint32_t i = 0; i < g->res_count; i++) {
            if (g->res[i].is_buffer) st->buffers_total++;
            else st->textures_total++;
            if (!g->res[i].live) st->resources_culled++;
        }
        st->uploads = g->uploads_count;
        st->upload_bytes = 0;
        for (uint32_t i = 0; i < g->uploads_count; i++) st->upload_bytes += g->uploads[i].size;
        g->compiled = true;
        g->state = HL__GRAPH_COMPILED;
    }
    if (out) {
        out->order = g->order;
        out->order_count = g->order_count;
        out->stats = &g->stats;
    }
    return HL_OK;
}

/* ---- queries ---------------------------------------------------------------------------------------- */
bool hl_graph_pass_is_culled(const hl_graph *g, hl_graph_pass p) {
    uint32_t i = hl__graph_pass_index(g, p);
    return i == HL__GRAPH_NONE || !g->compiled || !g->passes[i].live;
}

static bool hl__graph_lifetime(const hl_graph *g, uint32_t i, uint32_t *first, uint32_t *last) {
    if (i == HL__GRAPH_NONE || !g->compiled || !g->res[i].live) return false;
    if (first) *first = g->res[i].first;
    if (last) *last = g->res[i].last;
    return true;
}

bool hl_graph_texture_lifetime(const hl_graph *g, hl_graph_texture t, uint32_t *first, uint32_t *last) {
    return hl__graph_lifetime(g, hl__graph_texture_index(g, t), first, last);
}

bool hl_graph_buffer_lifetime(const hl_graph *g, hl_graph_buffer b, uint32_t *first, uint32_t *last) {
    return hl__graph_lifetime(g, hl__graph_buffer_index(g, b), first, last);
}

uint32_t hl_graph_texture_slot(const hl_graph *g, hl_graph_texture t) {
    uint32_t i = hl__graph_texture_index(g, t);
    return i == HL__GRAPH_NONE || !g->compiled ? UINT32_MAX : g->res[i].slot;
}

uint32_t hl_graph_buffer_slot(const hl_graph *g, hl_graph_buffer b) {
    uint32_t i = hl__graph_buffer_index(g, b);
    return i == HL__GRAPH_NONE || !g->compiled ? UINT32_MAX : g->res[i].slot;
}

const hl_graph_stats *hl_graph_get_stats(const hl_graph *g) { return g ? &g->stats : NULL; }

uint64_t hl_graph_offset_plan(hl_graph *g) {
    if (!g) return 0;
    uint32_t n = g->lifetimes_count;
    hl_graph_alias_plan plan = {0};
    /* the workspaces hold at least n entries (2n of scratch) since the compile that made them */
    if (n) hl_graph_plan_offsets(g->lifetimes, n, 256, g->plan_offsets, g->plan_scratch, &plan);
    g->stats.bytes_offset_plan = plan.total_bytes;
    return plan.total_bytes;
}
