/* See bench_replay.h. */
#include "bench_replay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_draws.h"
#include "gles3_internal.h"
#include "rhi_internal.h"
#include "webgpu_internal.h"

typedef struct cap_pass {
    hl_rhi_color_attachment color[HL_RHI_MAX_COLOR_ATTACHMENTS];
    uint32_t color_count;
    hl_rhi_depth_stencil_attachment depth;
    bool has_depth;
    uint32_t first, count; /* packets */
} cap_pass;

/* webgpu: one draw on native objects */
typedef struct w_draw {
    WGPURenderPipeline pipe;
    WGPUBindGroup group[HL_RHI_MAX_BIND_GROUPS];
    uint32_t offset[HL_RHI_MAX_BIND_GROUPS];
    uint8_t group_count, dyn_mask, vb_count, indexed;
    WGPUBuffer vb[HL_RHI_MAX_VERTEX_BUFFERS];
    uint64_t vb_offset[HL_RHI_MAX_VERTEX_BUFFERS];
    WGPUBuffer ib;
    uint32_t ib_format; /* WGPUIndexFormat_* */
    uint64_t ib_offset;
    uint32_t count, instances, first, first_instance;
    int32_t base_vertex;
} w_draw;

/* gles3: one draw as the GL calls it needs */
enum { G_UBOS = 12, G_TEX = 16 };
typedef struct g_draw {
    const hl__gl_pipeline *pipe;
    GLuint vao;
    uint8_t ubo_count, tex_count, indexed;
    struct { GLuint slot, buffer; GLintptr offset; GLsizeiptr size; } ubo[G_UBOS];
    struct { GLuint unit, name, sampler; GLenum target; } tex[G_TEX];
    GLenum index_type;
    uintptr_t index_ptr;
    GLsizei count, instances;
    GLint first;
} g_draw;

typedef struct g_pass {
    GLuint fbo, resolve_fbo;
    GLsizei width, height;
} g_pass;

struct hl_bench_replay {
    hl_rhi_device *dev;
    bool gl;
    hl__rhi_tap tap;
    cap_pass *passes;
    uint32_t pass_count, pass_cap;
    hl_rhi_draw_packet *packets;
    uint32_t packet_count, packet_cap;
    bool failed; /* out of memory while capturing */
    /* resolved */
    w_draw *wd;
    WGPURenderPassColorAttachment (*wcolor)[HL_RHI_MAX_COLOR_ATTACHMENTS];
    WGPURenderPassDepthStencilAttachment *wdepth;
    WGPUBuffer wupload;
    g_draw *gd;
    g_pass *gp;
    uint32_t *ops;       /* gd as the loop replays it (g_encode); pass i's from pass_ops[i] */
    uint32_t *pass_ops;
    const hl__gl_pipeline **pipes; /* the pipelines ops name, by index */
    GLuint *vaos;
    uint32_t vao_count;
    GLuint gupload;
    uint64_t upload_capacity;
    volatile int done;
    GLsync fence;
    GLuint timer;    /* GL_TIME_ELAPSED_EXT query (EXT_disjoint_timer_query) */
    int timer_state; /* 0 not looked for, 1 available, -1 none */
};

#define TRY(expr)                                                                                      \
    do {                                                                                               \
        hl_result r_ = (expr);                                                                         \
        if (r_) return r_;                                                                             \
    } while (0)

static void tap_pass(void *user, const hl_rhi_render_pass_desc *d) {
    hl_bench_replay *rp = user;
    if (rp->pass_count == rp->pass_cap) {
        uint32_t cap = rp->pass_cap ? rp->pass_cap * 2 : 8;
        cap_pass *n = realloc(rp->passes, cap * sizeof *n);
        if (!n) {
            rp->failed = true;
            return;
        }
        rp->passes = n;
        rp->pass_cap = cap;
    }
    cap_pass *p = &rp->passes[rp->pass_count++];
    memset(p, 0, sizeof *p);
    p->color_count = d->color_attachment_count;
    for (uint32_t i = 0; i < p->color_count && i < HL_RHI_MAX_COLOR_ATTACHMENTS; i++) p->color[i] = d->color_attachments[i];
    if (d->depth_stencil.view.id) {
        p->depth = d->depth_stencil;
        p->has_depth = true;
    }
    p->first = rp->packet_count;
}

static void tap_packets(void *user, const hl_rhi_draw_packet *packets, uint32_t count) {
    hl_bench_replay *rp = user;
    if (!rp->pass_count) return;
    if (rp->packet_count + count > rp->packet_cap) {
        uint32_t cap = rp->packet_cap ? rp->packet_cap : 1024;
        while (cap < rp->packet_count + count) cap *= 2;
        hl_rhi_draw_packet *n = realloc(rp->packets, (size_t)cap * sizeof *n);
        if (!n) {
            rp->failed = true;
            return;
        }
        rp->packets = n;
        rp->packet_cap = cap;
    }
    memcpy(rp->packets + rp->packet_count, packets, (size_t)count * sizeof *packets);
    rp->packet_count += count;
    rp->passes[rp->pass_count - 1].count += count;
}

hl_result hl_bench_replay_create(hl_rhi_device *dev, uint64_t upload_capacity, hl_bench_replay **out) {
    hl_bench_replay *rp = calloc(1, sizeof *rp);
    if (!rp) return HL_ERR_OUT_OF_MEMORY;
    rp->dev = dev;
    rp->gl = hl_rhi_device_backend(dev) == HL_RHI_BACKEND_GLES3;
    rp->upload_capacity = upload_capacity;
    rp->tap = (hl__rhi_tap){tap_pass, tap_packets, rp};
    *out = rp;
    return HL_OK;
}

void hl_bench_replay_capture_begin(hl_bench_replay *rp) {
    rp->pass_count = rp->packet_count = 0;
    hl__rhi_set_tap(rp->dev, &rp->tap);
}

uint32_t hl_bench_replay_passes(const hl_bench_replay *rp) { return rp->pass_count; }
uint32_t hl_bench_replay_draws(const hl_bench_replay *rp) { return rp->packet_count; }

static void *native(hl_rhi_device *dev, uint32_t pool, uint32_t id) {
    hl__native *n = NULL;
    void *o = id ? hl__pool_get(dev, pool, id) : NULL;
    if (!o) return NULL;
    switch (pool) {
    case HL__POOL_BUFFER: n = &((hl__buffer *)o)->be; break;
    case HL__POOL_VIEW: n = &((hl__texture_view *)o)->be; break;
    case HL__POOL_BIND_GROUP: n = &((hl__bind_group *)o)->be; break;
    case HL__POOL_RENDER_PIPELINE: n = &((hl__render_pipeline *)o)->be; break;
    default: return NULL;
    }
    return n;
}

/* ---- webgpu ------------------------------------------------------------------------------------ */
static WGPUTextureView wview(hl_rhi_device *dev, hl_rhi_texture_view v) {
    hl__native *n = native(dev, HL__POOL_VIEW, v.id);
    return n ? n->ptr : NULL;
}

static hl_result w_resolve(hl_bench_replay *rp) {
    hl_rhi_device *dev = rp->dev;
    rp->wd = calloc(rp->packet_count ? rp->packet_count : 1, sizeof *rp->wd);
    rp->wcolor = calloc(rp->pass_count ? rp->pass_count : 1, sizeof *rp->wcolor);
    rp->wdepth = calloc(rp->pass_count ? rp->pass_count : 1, sizeof *rp->wdepth);
    if (!rp->wd || !rp->wcolor || !rp->wdepth) return HL_ERR_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < rp->pass_count; i++) {
        const cap_pass *p = &rp->passes[i];
        for (uint32_t c = 0; c < p->color_count; c++) {
            WGPURenderPassColorAttachment *a = &rp->wcolor[i][c];
            a->view = wview(dev, p->color[c].view);
            a->resolveTarget = p->color[c].resolve_target.id ? wview(dev, p->color[c].resolve_target) : NULL;
            a->depthSlice = WGPU_DEPTH_SLICE_UNDEFINED;
            a->loadOp = p->color[c].load_op == HL_RHI_LOAD_LOAD ? WGPULoadOp_Load : WGPULoadOp_Clear;
            a->storeOp = p->color[c].store_op == HL_RHI_STORE_DISCARD ? WGPUStoreOp_Discard : WGPUStoreOp_Store;
            a->clearValue = (WGPUColor){p->color[c].clear_color[0], p->color[c].clear_color[1], p->color[c].clear_color[2],
                                        p->color[c].clear_color[3]};
            if (!a->view) return hl__fail(HL_ERR_UNSUPPORTED, "replay: pass %u colour %u: no view", i, c);
        }
        if (p->has_depth) {
            WGPURenderPassDepthStencilAttachment *d = &rp->wdepth[i];
            d->view = wview(dev, p->depth.view);
            hl__texture_view *v = hl__pool_get(dev, HL__POOL_VIEW, p->depth.view.id);
            const hl_rhi_format_info *fi = v ? hl_rhi_format_get_info(v->format) : NULL;
            if (!d->view || !fi) return hl__fail(HL_ERR_UNSUPPORTED, "replay: pass %u: no depth view", i);
            d->depthReadOnly = p->depth.depth_read_only;
            if (!d->depthReadOnly) {
                d->depthLoadOp = p->depth.depth_load_op == HL_RHI_LOAD_LOAD ? WGPULoadOp_Load : WGPULoadOp_Clear;
                d->depthStoreOp = p->depth.depth_store_op == HL_RHI_STORE_DISCARD ? WGPUStoreOp_Discard : WGPUStoreOp_Store;
            }
            d->depthClearValue = p->depth.depth_clear_value;
            if (fi->has_stencil && !p->depth.stencil_read_only) {
                d->stencilLoadOp = p->depth.stencil_load_op == HL_RHI_LOAD_LOAD ? WGPULoadOp_Load : WGPULoadOp_Clear;
                d->stencilStoreOp = p->depth.stencil_store_op == HL_RHI_STORE_DISCARD ? WGPUStoreOp_Discard : WGPUStoreOp_Store;
            }
            d->stencilClearValue = p->depth.stencil_clear_value;
            d->stencilReadOnly = fi->has_stencil && p->depth.stencil_read_only;
        }
    }
    for (uint32_t i = 0; i < rp->packet_count; i++) {
        const hl_rhi_draw_packet *pk = &rp->packets[i];
        w_draw *d = &rp->wd[i];
        hl__native *n = native(dev, HL__POOL_RENDER_PIPELINE, pk->pipeline.id);
        if (!n) return hl__fail(HL_ERR_UNSUPPORTED, "replay: packet %u: its pipeline is gone", i);
        d->pipe = n->ptr;
        d->group_count = (uint8_t)pk->bind_group_count;
        d->dyn_mask = pk->dynamic_offset_mask;
        for (uint32_t g = 0; g < pk->bind_group_count; g++) {
            if (!(n = native(dev, HL__POOL_BIND_GROUP, pk->bind_groups[g].id)))
                return hl__fail(HL_ERR_UNSUPPORTED, "replay: packet %u: bind group %u is gone", i, g);
            d->group[g] = n->ptr;
            d->offset[g] = pk->dynamic_offsets[g];
        }
        d->vb_count = (uint8_t)pk->vertex_buffer_count;
        for (uint32_t v = 0; v < pk->vertex_buffer_count; v++) {
            if (!(n = native(dev, HL__POOL_BUFFER, pk->vertex_buffers[v].id)))
                return hl__fail(HL_ERR_UNSUPPORTED, "replay: packet %u: vertex buffer %u is gone", i, v);
            d->vb[v] = n->ptr;
            d->vb_offset[v] = pk->vertex_offsets[v];
        }
        d->indexed = pk->indexed;
        if (pk->indexed) {
            if (!(n = native(dev, HL__POOL_BUFFER, pk->index_buffer.id)))
                return hl__fail(HL_ERR_UNSUPPORTED, "replay: packet %u: its index buffer is gone", i);
            d->ib = n->ptr;
            d->ib_format = pk->index_format == HL_RHI_INDEX_UINT32 ? WGPUIndexFormat_Uint32 : WGPUIndexFormat_Uint16;
            d->ib_offset = pk->index_offset;
        }
        d->count = pk->count;
        d->instances = pk->instance_count ? pk->instance_count : 1;
        d->first = pk->first;
        d->first_instance = pk->first_instance;
        d->base_vertex = pk->base_vertex;
    }
    if (rp->upload_capacity) {
        WGPUBufferDescriptor bd;
        memset(&bd, 0, sizeof bd);
        bd.size = (rp->upload_capacity + 3u) & ~3ull;
        bd.usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst;
        rp->wupload = hl__wgpu.DeviceCreateBuffer(hl__wgpu_be(dev)->device, &bd);
        if (!rp->wupload) return hl__fail(HL_ERR_OUT_OF_MEMORY, "replay: no upload buffer");
    }
    return HL_OK;
}

static hl_result w_submit(hl_bench_replay *rp) {
    hl__wgpu_device *be = hl__wgpu_be(rp->dev);
    WGPUCommandEncoder enc = hl__wgpu.DeviceCreateCommandEncoder(be->device, NULL);
    for (uint32_t i = 0; i < rp->pass_count; i++) {
        const cap_pass *p = &rp->passes[i];
        WGPURenderPassDescriptor d;
        memset(&d, 0, sizeof d);
        d.colorAttachmentCount = p->color_count;
        d.colorAttachments = rp->wcolor[i];
        d.depthStencilAttachment = p->has_depth ? &rp->wdepth[i] : NULL;
        WGPURenderPassEncoder pass = hl__wgpu.CommandEncoderBeginRenderPass(enc, &d);
        /* what is bound: set only what changes */
        WGPURenderPipeline pipe = NULL;
        WGPUBindGroup group[HL_RHI_MAX_BIND_GROUPS] = {0};
        uint32_t offset[HL_RHI_MAX_BIND_GROUPS] = {0};
        WGPUBuffer vb[HL_RHI_MAX_VERTEX_BUFFERS] = {0};
        uint64_t vb_offset[HL_RHI_MAX_VERTEX_BUFFERS] = {0};
        WGPUBuffer ib = NULL;
        uint64_t ib_offset = 0;
        const w_draw *dr = rp->wd + p->first;
        for (uint32_t k = 0; k < p->count; k++, dr++) {
            if (dr->pipe != pipe) hl__wgpu.RenderPassEncoderSetPipeline(pass, pipe = dr->pipe);
            for (uint32_t g = 0; g < dr->group_count; g++) {
                bool dyn = (dr->dyn_mask >> g) & 1u;
                if (dr->group[g] == group[g] && (!dyn || dr->offset[g] == offset[g])) continue;
                hl__wgpu.RenderPassEncoderSetBindGroup(pass, g, group[g] = dr->group[g], dyn, dyn ? &dr->offset[g] : NULL);
                offset[g] = dr->offset[g];
            }
            for (uint32_t v = 0; v < dr->vb_count; v++) {
                if (dr->vb[v] == vb[v] && dr->vb_offset[v] == vb_offset[v]) continue;
                hl__wgpu.RenderPassEncoderSetVertexBuffer(pass, v, vb[v] = dr->vb[v], vb_offset[v] = dr->vb_offset[v],
                                                          WGPU_WHOLE_SIZE);
            }
            if (dr->indexed) {
                if (dr->ib != ib || dr->ib_offset != ib_offset)
                    hl__wgpu.RenderPassEncoderSetIndexBuffer(pass, ib = dr->ib, dr->ib_format, ib_offset = dr->ib_offset,
                                                             WGPU_WHOLE_SIZE);
                hl__wgpu.RenderPassEncoderDrawIndexed(pass, dr->count, dr->instances, dr->first, dr->base_vertex,
                                                      dr->first_instance);
            } else {
                hl__wgpu.RenderPassEncoderDraw(pass, dr->count, dr->instances, dr->first, dr->first_instance);
            }
        }
        hl__wgpu.RenderPassEncoderEnd(pass);
        hl__wgpu.RenderPassEncoderRelease(pass);
    }
    hl_bench_wgpu_submit(rp->dev, enc, &rp->done);
    return HL_OK;
}

/* ---- gles3 -------------------------------------------------------------------------------------- */
static hl__gl_texture *g_view_tex(hl_rhi_device *dev, uint32_t view_id, const hl__texture_view **view) {
    const hl__texture_view *v = hl__pool_get(dev, HL__POOL_VIEW, view_id);
    const hl__texture *t = v ? hl__pool_get(dev, HL__POOL_TEXTURE, v->texture.id) : NULL;
    if (view) *view = v;
    return t ? t->be.ptr : NULL;
}

static hl_result g_attach(hl_rhi_device *dev, GLenum point, hl_rhi_texture_view view, uint32_t pass) {
    const hl__texture_view *v;
    hl__gl_texture *t = g_view_tex(dev, view.id, &v);
    if (!t) return hl__fail(HL_ERR_UNSUPPORTED, "replay: pass %u: an attachment is gone", pass);
    if (t->renderbuffer) glFramebufferRenderbuffer(GL_FRAMEBUFFER, point, GL_RENDERBUFFER, t->name);
    else if (t->target == GL_TEXTURE_2D)
        glFramebufferTexture2D(GL_FRAMEBUFFER, point, GL_TEXTURE_2D, t->name, (GLint)v->desc.base_mip_level);
    else return hl__fail(HL_ERR_UNSUPPORTED, "replay: pass %u: only 2D and renderbuffer attachments are replayed", pass);
    return HL_OK;
}

static GLuint g_vao(hl_bench_replay *rp, const hl__gl_pipeline *pipe, const hl_rhi_draw_packet *pk) {
    hl_rhi_device *dev = rp->dev;
    const hl__gl_vertex_layout *l = &hl__gl(dev)->layouts[pipe->layout_id];
    GLuint vao = 0;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    for (uint32_t a = 0; a < l->attr_count; a++) {
        uint32_t b = l->attr[a].buffer;
        hl__native *n = b < pk->vertex_buffer_count ? native(dev, HL__POOL_BUFFER, pk->vertex_buffers[b].id) : NULL;
        if (!n) continue;
        hl__vfmt f = hl__vertex_format(l->attr[a].format);
        const void *ptr = (const void *)(uintptr_t)(pk->vertex_offsets[b] + l->attr[a].offset);
        glBindBuffer(GL_ARRAY_BUFFER, n->u32[0]);
        glEnableVertexAttribArray(l->attr[a].location);
        if (f.integer) glVertexAttribIPointer(l->attr[a].location, f.size, f.type, (GLsizei)l->stride[b], ptr);
        else glVertexAttribPointer(l->attr[a].location, f.size, f.type, f.normalized, (GLsizei)l->stride[b], ptr);
        if (l->per_instance[b]) glVertexAttribDivisor(l->attr[a].location, 1);
    }
    hl__native *in = pk->indexed ? native(dev, HL__POOL_BUFFER, pk->index_buffer.id) : NULL;
    if (in) glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, in->u32[0]);
    glBindVertexArray(0);
    return vao;
}

static hl_result g_encode(hl_bench_replay *rp);

static hl_result g_resolve(hl_bench_replay *rp) {
    hl_rhi_device *dev = rp->dev;
    TRY(hl_rhi_device_invalidate_native_state(dev)); /* its context current */
    rp->gd = calloc(rp->packet_count ? rp->packet_count : 1, sizeof *rp->gd);
    rp->gp = calloc(rp->pass_count ? rp->pass_count : 1, sizeof *rp->gp);
    rp->vaos = calloc(rp->packet_count ? rp->packet_count : 1, sizeof *rp->vaos);
    if (!rp->gd || !rp->gp || !rp->vaos) return HL_ERR_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < rp->pass_count; i++) {
        const cap_pass *p = &rp->passes[i];
        g_pass *gp = &rp->gp[i];
        if (p->color_count > 1 && p->color[0].resolve_target.id)
            return hl__fail(HL_ERR_UNSUPPORTED, "replay: pass %u: MSAA resolve of several attachments", i);
        glGenFramebuffers(1, &gp->fbo);
        glBindFramebuffer(GL_FRAMEBUFFER, gp->fbo);
        GLenum bufs[HL_RHI_MAX_COLOR_ATTACHMENTS];
        for (uint32_t c = 0; c < p->color_count; c++) {
            TRY(g_attach(dev, GL_COLOR_ATTACHMENT0 + c, p->color[c].view, i));
            bufs[c] = GL_COLOR_ATTACHMENT0 + c;
        }
        glDrawBuffers((GLsizei)p->color_count, bufs);
        const hl__texture_view *v = NULL;
        if (p->has_depth) {
            g_view_tex(dev, p->depth.view.id, &v);
            const hl_rhi_format_info *fi = v ? hl_rhi_format_get_info(v->format) : NULL;
            TRY(g_attach(dev, fi && fi->has_stencil ? GL_DEPTH_STENCIL_ATTACHMENT : GL_DEPTH_ATTACHMENT, p->depth.view, i));
        }
        if (p->color_count) g_view_tex(dev, p->color[0].view.id, &v);
        if (v) {
            gp->width = (GLsizei)v->width;
            gp->height = (GLsizei)v->height;
        }
        if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
            return hl__fail(HL_ERR_BACKEND, "replay: pass %u: framebuffer incomplete", i);
        if (p->color_count == 1 && p->color[0].resolve_target.id) {
            glGenFramebuffers(1, &gp->resolve_fbo);
            glBindFramebuffer(GL_FRAMEBUFFER, gp->resolve_fbo);
            TRY(g_attach(dev, GL_COLOR_ATTACHMENT0, p->color[0].resolve_target, i));
        }
    }
    for (uint32_t i = 0; i < rp->packet_count; i++) {
        const hl_rhi_draw_packet *pk = &rp->packets[i];
        g_draw *d = &rp->gd[i];
        hl__native *n = native(dev, HL__POOL_RENDER_PIPELINE, pk->pipeline.id);
        if (!n) return hl__fail(HL_ERR_UNSUPPORTED, "replay: packet %u: its pipeline is gone", i);
        d->pipe = n->ptr;
        const hl__gl_program *prog = d->pipe->prog;
        /* a vertex array per distinct (layout, buffers): an application's own, made once */
        d->vao = 0;
        for (uint32_t j = 0; j < i && !d->vao; j++) {
            const hl_rhi_draw_packet *q = &rp->packets[j];
            if (rp->gd[j].pipe->layout_id == d->pipe->layout_id && q->vertex_buffer_count == pk->vertex_buffer_count &&
                !memcmp(q->vertex_buffers, pk->vertex_buffers, pk->vertex_buffer_count * sizeof pk->vertex_buffers[0]) &&
                !memcmp(q->vertex_offsets, pk->vertex_offsets, pk->vertex_buffer_count * sizeof pk->vertex_offsets[0]) &&
                q->indexed == pk->indexed && q->index_buffer.id == pk->index_buffer.id)
                d->vao = rp->gd[j].vao;
            if (j > 64) break; /* a long list: look back a little, then make one */
        }
        if (!d->vao) d->vao = rp->vaos[rp->vao_count++] = g_vao(rp, d->pipe, pk);
        /* the program's UBO slots and texture units, from the packet's groups */
        for (uint32_t s = 0; s < prog->ubo_count && d->ubo_count < G_UBOS; s++) {
            uint32_t gi = prog->ubo[s].group;
            hl__native *gn = gi < pk->bind_group_count ? native(dev, HL__POOL_BIND_GROUP, pk->bind_groups[gi].id) : NULL;
            const hl__gl_bind_group *bg = gn ? gn->ptr : NULL;
            for (uint32_t e = 0; bg && e < bg->count; e++) {
                const hl__gl_bg_entry *be = &bg->e[e];
                if (be->binding != prog->ubo[s].binding || be->kind != HL__GL_BG_UBO) continue;
                uint32_t off = be->offset + (be->dynamic_index >= 0 ? pk->dynamic_offsets[gi] : 0);
                d->ubo[d->ubo_count].slot = s;
                d->ubo[d->ubo_count].buffer = be->buffer;
                d->ubo[d->ubo_count].offset = off;
                d->ubo[d->ubo_count].size = be->size;
                d->ubo_count++;
            }
        }
        for (uint32_t u = 0; u < prog->unit_count && d->tex_count < G_TEX; u++) {
            uint32_t gi = prog->unit[u].group;
            hl__native *gn = gi < pk->bind_group_count ? native(dev, HL__POOL_BIND_GROUP, pk->bind_groups[gi].id) : NULL;
            const hl__gl_bind_group *bg = gn ? gn->ptr : NULL;
            GLuint tex = 0, sampler = 0;
            GLenum target = GL_TEXTURE_2D;
            for (uint32_t e = 0; bg && e < bg->count; e++) {
                const hl__gl_bg_entry *be = &bg->e[e];
                if (be->binding == prog->unit[u].binding && be->kind == HL__GL_BG_TEXTURE) {
                    hl__gl_texture *t = g_view_tex(dev, be->view_id, NULL);
                    if (t) tex = t->name, target = t->target;
                }
                if (be->binding == prog->unit[u].sampler_binding && be->kind == HL__GL_BG_SAMPLER) sampler = be->sampler;
            }
            d->tex[d->tex_count].unit = u;
            d->tex[d->tex_count].name = tex;
            d->tex[d->tex_count].target = target;
            d->tex[d->tex_count].sampler = sampler;
            d->tex_count++;
        }
        d->indexed = pk->indexed;
        d->index_type = pk->index_format == HL_RHI_INDEX_UINT32 ? GL_UNSIGNED_INT : GL_UNSIGNED_SHORT;
        d->index_ptr = (uintptr_t)(pk->index_offset + (uint64_t)pk->first * (pk->index_format == HL_RHI_INDEX_UINT32 ? 4u : 2u));
        d->count = (GLsizei)pk->count;
        d->instances = (GLsizei)(pk->instance_count ? pk->instance_count : 1);
        d->first = (GLint)pk->first;
    }
    if (rp->upload_capacity) {
        glGenBuffers(1, &rp->gupload);
        glBindBuffer(GL_UNIFORM_BUFFER, rp->gupload);
        glBufferData(GL_UNIFORM_BUFFER, (GLsizeiptr)rp->upload_capacity, NULL, GL_DYNAMIC_DRAW);
    }
    GLenum err = glGetError();
    hl_result r = hl_rhi_device_invalidate_native_state(dev);
    if (err) return hl__fail(HL_ERR_BACKEND, "replay: GL error 0x%04x while setting up", (unsigned)err);
    if (r) return r;
    return g_encode(rp);
}

/* The list as a hand-written loop keeps it: per draw only the state that differs from the draw
 * before it in its pass (worked out once here, at capture), then the draw. A header word (G_OP_*
 * flags, the count of UBO ranges and of texture units that change), the pipeline's index and the
 * vertex array when they change, 4 words per changed UBO range (slot, buffer, offset, size) and
 * texture unit (unit | G_TEX_NAME / G_TEX_SAMPLER, target, name, sampler), then count, first
 * vertex or index offset, and the instance count when above 1. g_submit makes the same GL calls
 * as a loop over gd comparing each draw's whole state with what is bound (that loop read 544
 * bytes a draw: at 100,000 draws the raw frame's own work doubled per draw). */
enum { G_OP_PIPE = 1, G_OP_VAO = 2, G_OP_INDEXED = 4, G_OP_INSTANCED = 8, G_OP_U32 = 16 };
#define G_TEX_NAME (1u << 30)
#define G_TEX_SAMPLER (1u << 31)

static hl_result g_encode(hl_bench_replay *rp) {
    size_t cap = 16, n = 0;
    uint32_t pipe_count = 0;
    rp->ops = malloc(cap * sizeof *rp->ops);
    rp->pass_ops = calloc(rp->pass_count + 1u, sizeof *rp->pass_ops);
    rp->pipes = calloc(rp->packet_count + 1u, sizeof *rp->pipes);
    if (!rp->ops || !rp->pass_ops || !rp->pipes) return HL_ERR_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < rp->pass_count; i++) {
        const cap_pass *p = &rp->passes[i];
        struct { GLuint buffer; GLintptr offset; GLsizeiptr size; } ubo[G_UBOS * 2];
        struct { GLuint name, sampler; } tex[G_TEX];
        memset(ubo, 0, sizeof ubo);
        memset(tex, 0, sizeof tex);
        const hl__gl_pipeline *pipe = NULL;
        GLuint vao = 0;
        rp->pass_ops[i] = (uint32_t)n;
        for (uint32_t k = 0; k < p->count; k++) {
            const g_draw *d = &rp->gd[p->first + k];
            /* room for the longest draw: header, pipeline, vertex array, every range and unit,
               three draw words */
            const size_t most = 6u + 4u * (G_UBOS + G_TEX);
            if (n + most > cap) {
                while (n + most > cap) cap *= 2u;
                uint32_t *grown = realloc(rp->ops, cap * sizeof *rp->ops);
                if (!grown) return HL_ERR_OUT_OF_MEMORY;
                rp->ops = grown;
            }
            if (d->index_ptr > UINT32_MAX || (uint64_t)d->first > UINT32_MAX)
                return hl__fail(HL_ERR_UNSUPPORTED, "replay: draw %u: an index offset above 4 GiB", p->first + k);
            size_t head = n++;
            uint32_t h = 0, ubos = 0, texs = 0;
            if (d->pipe != pipe) {
                uint32_t pi = 0;
                while (pi < pipe_count && rp->pipes[pi] != d->pipe) pi++;
                if (pi == pipe_count) rp->pipes[pipe_count++] = d->pipe;
                h |= G_OP_PIPE;
                rp->ops[n++] = pi;
                pipe = d->pipe;
            }
            if (d->vao != vao) {
                h |= G_OP_VAO;
                rp->ops[n++] = vao = d->vao;
            }
            for (uint32_t u = 0; u < d->ubo_count; u++) {
                GLuint sl = d->ubo[u].slot;
                if (ubo[sl].buffer == d->ubo[u].buffer && ubo[sl].offset == d->ubo[u].offset && ubo[sl].size == d->ubo[u].size)
                    continue;
                ubo[sl].buffer = d->ubo[u].buffer;
                ubo[sl].offset = d->ubo[u].offset;
                ubo[sl].size = d->ubo[u].size;
                rp->ops[n++] = sl;
                rp->ops[n++] = d->ubo[u].buffer;
                rp->ops[n++] = (uint32_t)d->ubo[u].offset;
                rp->ops[n++] = (uint32_t)d->ubo[u].size;
                ubos++;
            }
            for (uint32_t t = 0; t < d->tex_count; t++) {
                GLuint unit = d->tex[t].unit;
                uint32_t what = 0;
                if (tex[unit].name != d->tex[t].name) what |= G_TEX_NAME, tex[unit].name = d->tex[t].name;
                if (tex[unit].sampler != d->tex[t].sampler) what |= G_TEX_SAMPLER, tex[unit].sampler = d->tex[t].sampler;
                if (!what) continue;
                rp->ops[n++] = unit | what;
                rp->ops[n++] = d->tex[t].target;
                rp->ops[n++] = d->tex[t].name;
                rp->ops[n++] = d->tex[t].sampler;
                texs++;
            }
            if (d->indexed) h |= G_OP_INDEXED | (d->index_type == GL_UNSIGNED_INT ? (uint32_t)G_OP_U32 : 0u);
            if (d->instances != 1) h |= G_OP_INSTANCED;
            rp->ops[n++] = (uint32_t)d->count;
            rp->ops[n++] = d->indexed ? (uint32_t)d->index_ptr : (uint32_t)d->first;
            if (d->instances != 1) rp->ops[n++] = (uint32_t)d->instances;
            rp->ops[head] = h | ubos << 8 | texs << 16;
        }
    }
    rp->pass_ops[rp->pass_count] = (uint32_t)n;
    return HL_OK;
}

static void g_pipeline(const hl__gl_pipeline *p) {
    glUseProgram(p->prog->name);
    if (p->blend) {
        glEnable(GL_BLEND);
        glBlendEquationSeparate(p->eq_rgb, p->eq_a);
        glBlendFuncSeparate(p->src_rgb, p->dst_rgb, p->src_a, p->dst_a);
    } else {
        glDisable(GL_BLEND);
    }
    glColorMask(p->color_mask[0], p->color_mask[1], p->color_mask[2], p->color_mask[3]);
    if (p->depth_test) glEnable(GL_DEPTH_TEST);
    else glDisable(GL_DEPTH_TEST);
    glDepthFunc(p->depth_func);
    glDepthMask(p->depth_write);
    if (p->stencil) {
        glEnable(GL_STENCIL_TEST);
        for (uint32_t f = 0; f < 2; f++) {
            GLenum face = f ? GL_BACK : GL_FRONT;
            glStencilFuncSeparate(face, p->st_func[f], 0, p->st_read_mask);
            glStencilOpSeparate(face, p->st_fail[f], p->st_zfail[f], p->st_pass[f]);
            glStencilMaskSeparate(face, p->st_write_mask);
        }
    } else {
        glDisable(GL_STENCIL_TEST);
    }
    if (p->cull) {
        glEnable(GL_CULL_FACE);
        glCullFace(p->cull_face);
    } else {
        glDisable(GL_CULL_FACE);
    }
    glFrontFace(p->front_face);
    if (p->poly_offset) {
        glEnable(GL_POLYGON_OFFSET_FILL);
        glPolygonOffset(p->poly_factor, p->poly_units);
    } else {
        glDisable(GL_POLYGON_OFFSET_FILL);
    }
    if (p->a2c) glEnable(GL_SAMPLE_ALPHA_TO_COVERAGE);
    else glDisable(GL_SAMPLE_ALPHA_TO_COVERAGE);
    if (p->restart) glEnable(GL_PRIMITIVE_RESTART_FIXED_INDEX);
    else glDisable(GL_PRIMITIVE_RESTART_FIXED_INDEX);
}

static hl_result g_submit(hl_bench_replay *rp) {
    for (uint32_t i = 0; i < rp->pass_count; i++) {
        const cap_pass *p = &rp->passes[i];
        const g_pass *gp = &rp->gp[i];
        glBindFramebuffer(GL_FRAMEBUFFER, gp->fbo);
        glViewport(0, 0, gp->width, gp->height);
        glDisable(GL_SCISSOR_TEST);
        glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
        for (uint32_t c = 0; c < p->color_count; c++)
            if (p->color[c].load_op != HL_RHI_LOAD_LOAD) glClearBufferfv(GL_COLOR, (GLint)c, p->color[c].clear_color);
        if (p->has_depth && !p->depth.depth_read_only && p->depth.depth_load_op != HL_RHI_LOAD_LOAD) {
            glDepthMask(GL_TRUE);
            glClearBufferfv(GL_DEPTH, 0, &p->depth.depth_clear_value);
        }
        const hl__gl_pipeline *pipe = NULL;
        for (const uint32_t *o = rp->ops + rp->pass_ops[i], *end = rp->ops + rp->pass_ops[i + 1]; o < end;) {
            uint32_t h = *o++;
            if (h & G_OP_PIPE) g_pipeline(pipe = rp->pipes[*o++]);
            if (h & G_OP_VAO) glBindVertexArray(*o++);
            for (uint32_t u = (h >> 8) & 255u; u; u--, o += 4)
                glBindBufferRange(GL_UNIFORM_BUFFER, o[0], o[1], (GLintptr)o[2], (GLsizeiptr)o[3]);
            for (uint32_t t = (h >> 16) & 255u; t; t--, o += 4) {
                GLuint unit = o[0] & ~(G_TEX_NAME | G_TEX_SAMPLER);
                if (o[0] & G_TEX_NAME) {
                    glActiveTexture(GL_TEXTURE0 + unit);
                    glBindTexture(o[1], o[2]);
                }
                if (o[0] & G_TEX_SAMPLER) glBindSampler(unit, o[3]);
            }
            GLsizei count = (GLsizei)*o++;
            uint32_t at = *o++;
            GLsizei instances = h & G_OP_INSTANCED ? (GLsizei)*o++ : 1;
            if (h & G_OP_INDEXED) {
                GLenum type = h & G_OP_U32 ? GL_UNSIGNED_INT : GL_UNSIGNED_SHORT;
                if (instances == 1) glDrawElements(pipe->mode, count, type, (const void *)(uintptr_t)at);
                else glDrawElementsInstanced(pipe->mode, count, type, (const void *)(uintptr_t)at, instances);
            } else if (instances == 1) {
                glDrawArrays(pipe->mode, (GLint)at, count);
            } else {
                glDrawArraysInstanced(pipe->mode, (GLint)at, count, instances);
            }
        }
        if (gp->resolve_fbo) {
            glBindFramebuffer(GL_READ_FRAMEBUFFER, gp->fbo);
            glBindFramebuffer(GL_DRAW_FRAMEBUFFER, gp->resolve_fbo);
            glBlitFramebuffer(0, 0, gp->width, gp->height, 0, 0, gp->width, gp->height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
        }
    }
    rp->fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    glFlush();
    return HL_OK;
}

/* ---- public ------------------------------------------------------------------------------------- */
hl_result hl_bench_replay_capture_end(hl_bench_replay *rp) {
    hl__rhi_set_tap(rp->dev, NULL);
    if (rp->failed) return hl__fail(HL_ERR_OUT_OF_MEMORY, "replay: out of memory while capturing");
    if (!rp->pass_count) return hl__fail(HL_ERR_UNSUPPORTED, "replay: the frame recorded no render pass");
    return rp->gl ? g_resolve(rp) : w_resolve(rp);
}

hl_result hl_bench_replay_begin(hl_bench_replay *rp) {
    return rp->gl ? hl_rhi_device_invalidate_native_state(rp->dev) : HL_OK;
}

hl_result hl_bench_replay_upload(hl_bench_replay *rp, uint64_t offset, const void *data, uint64_t size) {
    if (offset > rp->upload_capacity || size > rp->upload_capacity - offset)
        return hl__fail(HL_ERR_VALIDATION, "replay: upload out of range");
    if (rp->gl) {
        glBindBuffer(GL_UNIFORM_BUFFER, rp->gupload);
        glBufferSubData(GL_UNIFORM_BUFFER, (GLintptr)offset, (GLsizeiptr)size, data);
    } else {
        hl__wgpu.QueueWriteBuffer(hl__wgpu_be(rp->dev)->queue, rp->wupload, offset, data, (size + 3u) & ~(uint64_t)3u);
    }
    return HL_OK;
}

hl_result hl_bench_replay_submit(hl_bench_replay *rp) { return rp->gl ? g_submit(rp) : w_submit(rp); }

hl_result hl_bench_replay_wait(hl_bench_replay *rp) {
    if (rp->gl) {
        GLenum r = rp->fence ? glClientWaitSync(rp->fence, GL_SYNC_FLUSH_COMMANDS_BIT, 60000000000ull) : GL_ALREADY_SIGNALED;
        if (rp->fence) glDeleteSync(rp->fence);
        rp->fence = NULL;
        GLenum err = glGetError();
        hl_result res = hl_rhi_device_invalidate_native_state(rp->dev); /* the engine's state cache is stale */
        if (r == GL_TIMEOUT_EXPIRED || r == GL_WAIT_FAILED) return hl__fail(HL_ERR_TIMEOUT, "replay: the GL frame did not finish");
        return err ? hl__fail(HL_ERR_BACKEND, "replay: GL error 0x%04x", (unsigned)err) : res;
    }
    TRY(hl__wgpu_wait_flag(rp->dev, &rp->done, "replay frame"));
    return hl__wgpu_take_error(rp->dev, "replay");
}

/* ---- GPU time (gles3) ----------------------------------------------------------------------------- */
#define G_TIME_ELAPSED 0x88BFu /* GL_TIME_ELAPSED_EXT */
#define G_GPU_DISJOINT 0x8FBBu /* GL_GPU_DISJOINT_EXT */

void hl_bench_replay_timer_begin(hl_bench_replay *rp) {
    if (!rp->gl || rp->timer_state < 0) return;
    if (!rp->timer_state) {
        const char *ext = (const char *)glGetString(GL_EXTENSIONS);
        rp->timer_state = ext && strstr(ext, "GL_EXT_disjoint_timer_query") ? 1 : -1;
        if (rp->timer_state > 0) glGenQueries(1, &rp->timer);
        if (rp->timer_state > 0 && !rp->timer) rp->timer_state = -1;
        if (rp->timer_state < 0) return;
    }
    GLint disjoint = 0;
    glGetIntegerv(G_GPU_DISJOINT, &disjoint); /* reading it clears it */
    glBeginQuery(G_TIME_ELAPSED, rp->timer);
}

void hl_bench_replay_timer_end(hl_bench_replay *rp) {
    if (rp->gl && rp->timer_state > 0) glEndQuery(G_TIME_ELAPSED);
}

double hl_bench_replay_timer_ms(hl_bench_replay *rp) {
    if (!rp->gl || rp->timer_state <= 0) return -1;
    GLuint ns = 0;
    glGetQueryObjectuiv(rp->timer, GL_QUERY_RESULT, &ns);
    GLint disjoint = 0;
    glGetIntegerv(G_GPU_DISJOINT, &disjoint);
    if (glGetError() != GL_NO_ERROR || disjoint) return -1;
    return (double)ns / 1e6;
}

void hl_bench_replay_destroy(hl_bench_replay *rp) {
    if (!rp) return;
    hl__rhi_set_tap(rp->dev, NULL);
    /* GL names are deleted with the engine's context current (the timer's too) */
    if (rp->gl && (rp->gp || rp->vaos || rp->timer) && !hl_rhi_device_invalidate_native_state(rp->dev)) {
        if (rp->timer) glDeleteQueries(1, &rp->timer);
        for (uint32_t i = 0; rp->gp && i < rp->pass_count; i++) {
            if (rp->gp[i].fbo) glDeleteFramebuffers(1, &rp->gp[i].fbo);
            if (rp->gp[i].resolve_fbo) glDeleteFramebuffers(1, &rp->gp[i].resolve_fbo);
        }
        if (rp->vao_count) glDeleteVertexArrays((GLsizei)rp->vao_count, rp->vaos);
        if (rp->gupload) glDeleteBuffers(1, &rp->gupload);
        hl_rhi_device_invalidate_native_state(rp->dev);
    }
    if (rp->wupload) {
        hl__wgpu.BufferDestroy(rp->wupload);
        hl__wgpu.BufferRelease(rp->wupload);
    }
    free(rp->passes);
    free(rp->packets);
    free(rp->wd);
    free(rp->wcolor);
    free(rp->wdepth);
    free(rp->gd);
    free(rp->ops);
    free(rp->pass_ops);
    free(rp->pipes);
    free(rp->gp);
    free(rp->vaos);
    free(rp);
}
