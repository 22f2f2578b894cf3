/* The executor and the frame transaction: transient pool, imports and deferred providers,
 * prepare, begin frame, upload flush, passes, submission, commit or roll back. */
#include <string.h>

#include "graph_internal.h"

bool hl__graph_tdesc_equal(const hl_rhi_texture_desc *a, const hl_rhi_texture_desc *b) {
    return a->dimension == b->dimension && a->format == b->format && a->width == b->width && a->height == b->height &&
           a->depth_or_layers == b->depth_or_layers && a->mip_levels == b->mip_levels &&
           a->sample_count == b->sample_count && a->usage == b->usage;
}

/* ---- transient pool ------------------------------------------------------------------------------- */
static void hl__graph_entry_destroy(hl_graph *g, hl__gpool_entry *e) {
    if (e->is_buffer) hl_rhi_buffer_destroy(g->dev, e->buf);
    else {
        if (e->view0.id) hl_rhi_texture_view_destroy(g->dev, e->view0);
        hl_rhi_texture_view_destroy(g->dev, e->view);
        hl_rhi_texture_destroy(g->dev, e->tex);
    }
    memset(e, 0, sizeof(*e));
}

static bool hl__graph_entry_idle(hl_graph *g, hl__gpool_entry *e) {
    if (e->in_use) return false;
    if (!e->busy_serial) return true;
    bool done = false;
    if (hl_rhi_submission_poll(g->dev, (hl_rhi_submission){e->busy_serial}, &done) || !done) return false;
    e->busy_serial = 0;
    return true;
}

void hl__graph_pool_release_all(hl_graph *g, bool destroy_everything) {
    for (uint32_t i = 0; i < g->pool_count; i++) {
        hl__gpool_entry *e = &g->pool[i];
        if (e->alive && (destroy_everything || hl__graph_entry_idle(g, e))) hl__graph_entry_destroy(g, e);
    }
}

/* Finds an idle pooled object with the slot's descriptor or creates one. */
static hl_result hl__graph_acquire(hl_graph *g, hl__gslot *s, bool *created) {
    uint32_t free_index = HL__GRAPH_NONE;
    for (uint32_t i = 0; i < g->pool_count; i++) {
        hl__gpool_entry *e = &g->pool[i];
        if (!e->alive) {
            if (free_index == HL__GRAPH_NONE) free_index = i;
            continue;
        }
        if (e->is_buffer != s->is_buffer) continue;
        bool same = s->is_buffer ? (e->bdesc.size == s->bdesc.size && e->bdesc.usage == s->bdesc.usage)
                                 : hl__graph_tdesc_equal(&e->tdesc, &s->tdesc);
        if (same && hl__graph_entry_idle(g, e)) {
            e->in_use = true;
            e->idle_frames = 0;
            s->entry = i;
            *created = false;
            return HL_OK;
        }
    }
    if (free_index == HL__GRAPH_NONE) {
        if (!hl__reserve((void **)&g->pool, &g->pool_cap, g->pool_count + 1, sizeof(hl__gpool_entry)))
            return hl__fail(HL_ERR_OUT_OF_MEMORY, "hl_graph_execute: transient pool");
        free_index = g->pool_count++;
        memset(&g->pool[free_index], 0, sizeof(hl__gpool_entry));
    }
    hl__gpool_entry *e = &g->pool[free_index];
    hl_result r;
    const char *name = g->res[s->first_res].name;
    if (s->is_buffer) {
        hl_rhi_buffer_desc d = s->bdesc;
        d.label = name;
        r = hl_rhi_buffer_create(g->dev, &d, &e->buf);
        if (r) return hl__fail(r, "hl_graph_execute: creating transient buffer '%s': %s", name, hl_last_error());
        e->bdesc = s->bdesc;
    } else {
        hl_rhi_texture_desc d = s->tdesc;
        d.label = name;
        r = hl_rhi_texture_create(g->dev, &d, &e->tex);
        if (!r) {
            r = hl_rhi_texture_view_create(g->dev, e->tex, NULL, &e->view);
            if (r) hl_rhi_texture_destroy(g->dev, e->tex);
        }
        if (!r && d.mip_levels > 1) {
            hl_rhi_texture_view_desc vd = {.mip_level_count = 1, .label = name};
            r = hl_rhi_texture_view_create(g->dev, e->tex, &vd, &e->view0);
            if (r) {
                hl_rhi_texture_view_destroy(g->dev, e->view);
                hl_rhi_texture_destroy(g->dev, e->tex);
            }
        }
        if (r) return hl__fail(r, "hl_graph_execute: creating transient texture '%s': %s", name, hl_last_error());
        e->tdesc = s->tdesc;
    }
    e->alive = true;
    e->is_buffer = s->is_buffer;
    e->in_use = true;
    e->busy_serial = 0;
    e->idle_frames = 0;
    s->entry = free_index;
    *created = true;
    return HL_OK;
}

/* ---- imported texture views (cached across frames by texture handle) ------------------------------ */
static hl_result hl__graph_import_view(hl_graph *g, hl_rhi_texture tex, hl_rhi_texture_view *out) {
    for (uint32_t i = 0; i < g->views_count; i++)
        if (g->views[i].tex.id == tex.id) {
            g->views[i].idle_frames = 0;
            *out = g->views[i].view;
            return HL_OK;
        }
    if (!hl__reserve((void **)&g->views, &g->views_cap, g->views_count + 1, sizeof(hl__gview_cache)))
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "hl_graph_execute: view cache");
    hl__gview_cache *v = &g->views[g->views_count];
    hl_result r = hl_rhi_texture_view_create(g->dev, tex, NULL, &v->view);
    if (r) return r;
    v->tex = tex;
    v->idle_frames = 0;
    g->views_count++;
    *out = v->view;
    return HL_OK;
}

static void hl__graph_age_views(hl_graph *g) {
    for (uint32_t i = 0; i < g->views_count;) {
        hl__gview_cache *v = &g->views[i];
        /* a view whose texture is gone, or unused for a while, is dropped */
        if (++v->idle_frames > 8 || !hl_rhi_texture_get_desc(g->dev, v->tex)) {
            hl_rhi_texture_view_destroy(g->dev, v->view);
            g->views[i] = g->views[--g->views_count];
        } else {
            i++;
        }
    }
}

/* ---- stages of the transaction ---------------------------------------------------------------------- */
static hl_result hl__graph_validate_uploads(hl_graph *g) {
    for (uint32_t i = 0; i < g->uploads_count; i++) {
        const hl__gupload *u = &g->uploads[i];
        if (!u->is_texture) continue;
        const hl_rhi_texture_desc *d = hl_rhi_texture_get_desc(g->dev, u->tex);
        if (!d) return hl__fail(HL_ERR_VALIDATION, "hl_graph_execute: upload %u targets a destroyed texture", i);
        const hl_rhi_format_info *fi = hl_rhi_format_get_info(d->format);
        uint32_t level = u->region.mip_level;
        uint32_t w = u->region.width ? u->region.width : (d->width >> level ? d->width >> level : 1) - u->region.x;
        uint32_t h = u->region.height ? u->region.height : (d->height >> level ? d->height >> level : 1) - u->region.y;
        uint32_t layers = u->region.depth_or_layers ? u->region.depth_or_layers : 1;
        uint64_t pitch = u->row_pitch ? u->row_pitch : (uint64_t)w * (fi ? fi->bytes_per_texel : 0);
        uint64_t need = pitch * h * layers;
        if (!fi || !fi->bytes_per_texel || need > u->size)
            return hl__fail(HL_ERR_VALIDATION,
                            "hl_graph_execute: texture upload %u needs %llu bytes for a %ux%u region, %llu given", i,
                            (unsigned long long)need, w, h, (unsigned long long)u->size);
    }
    return HL_OK;
}

static hl_result hl__graph_allocate(hl_graph *g) {
    hl_graph_stats *st = &g->stats;
    for (uint32_t s = 0; s < g->slots_count; s++) {
        hl__gslot *sl = &g->slots[s];
        const hl__gres *r0 = &g->res[sl->first_res];
        bool created = false;
        if (r0->extracted) {
            /* own object, handed to the caller: never pooled */
            hl__gres *r = &g->res[sl->first_res];
            hl_result e;
            if (r->is_buffer) {
                e = hl_rhi_buffer_create(g->dev, &r->bdesc, &r->buf);
            } else {
                e = hl_rhi_texture_create(g->dev, &r->tdesc, &r->tex);
                if (!e) {
                    e = hl_rhi_texture_view_create(g->dev, r->tex, NULL, &r->view);
                    if (e) hl_rhi_texture_destroy(g->dev, r->tex);
                }
            }
            if (e) return hl__fail(e, "hl_graph_execute: creating extracted %s '%s': %s", hl__graph_res_kind(r), r->name,
                                   hl_last_error());
            r->own_object = true;
            r->attach_view = r->view;
            sl->entry = HL__GRAPH_NONE;
            if (r->is_buffer) st->transient_buffers_created++;
            else st->transient_textures_created++;
            continue;
        }
        hl_result e = hl__graph_acquire(g, sl, &created);
        if (e) return e;
        if (created) {
            if (sl->is_buffer) st->transient_buffers_created++;
            else st->transient_textures_created++;
        }
    }
    for (uint32_t i = 0; i < g->res_count; i++) {
        hl__gres *r = &g->res[i];
        if (!r->live) continue;
        if (r->origin == HL__RES_TRANSIENT) {
            if (!r->own_object) {
                const hl__gpool_entry *e = &g->pool[g->slots[r->slot].entry];
                r->tex = e->tex;
                r->view = e->view;
                r->attach_view = e->view0.id ? e->view0 : e->view;
                r->buf = e->buf;
            }
            continue;
        }
        if (r->is_buffer) {
            r->buf = r->imported_buf;
            continue;
        }
        hl_rhi_texture tex = r->imported_tex;
        if (r->origin == HL__RES_DEFERRED) {
            /* the late acquire: only now, only for a live resource */
            hl_result e = r->provider(r->provider_user, &tex);
            if (e) return hl__fail(e, "hl_graph_execute: provider of texture '%s' failed: %s", r->name, hl_last_error());
            const hl_rhi_texture_desc *d = hl_rhi_texture_get_desc(g->dev, tex);
            if (!d)
                return hl__fail(HL_ERR_VALIDATION, "hl_graph_execute: provider of texture '%s' returned no live texture",
                                r->name);
            if (d->width != r->tdesc.width || d->height != r->tdesc.height || d->format != r->tdesc.format ||
                d->sample_count != r->tdesc.sample_count || (d->usage & r->needed_usage) != r->needed_usage)
                return hl__fail(HL_ERR_VALIDATION,
                                "hl_graph_execute: provider of texture '%s' returned %ux%u %s x%u usage 0x%x; declared "
                                "%ux%u %s x%u needing usage 0x%x",
                                r->name, d->width, d->height, hl_rhi_format_get_info(d->format)->name, d->sample_count,
                                d->usage, r->tdesc.width, r->tdesc.height,
                                hl_rhi_format_get_info(r->tdesc.format)->name, r->tdesc.sample_count, r->needed_usage);
        }
        r->tex = tex;
        hl_result e = hl__graph_import_view(g, tex, &r->view);
        if (e) return hl__fail(e, "hl_graph_execute: view of texture '%s': %s", r->name, hl_last_error());
        r->attach_view = r->view;
    }
    uint32_t tex_live = 0, buf_live = 0;
    for (uint32_t i = 0; i < g->res_count; i++) {
        const hl__gres *r = &g->res[i];
        if (!r->live || r->origin != HL__RES_TRANSIENT) continue;
        if (r->is_buffer) buf_live++;
        else tex_live++;
    }
    st->transient_textures_reused = tex_live - st->transient_textures_created;
    st->transient_buffers_reused = buf_live - st->transient_buffers_created;
    return HL_OK;
}

/* In recording order; buffer uploads that continue the previous one (same buffer, the next bytes,
 * their copies adjacent in the frame arena) go as one write: a renderer's per-object blocks of
 * consecutive slots become one copy, as an application would write them. */
static hl_result hl__graph_flush_uploads(hl_graph *g) {
    for (uint32_t i = 0; i < g->uploads_count;) {
        const hl__gupload *u = &g->uploads[i];
        uint32_t j = i + 1;
        uint64_t size = u->size;
        if (!u->is_texture) {
            while (j < g->uploads_count) {
                const hl__gupload *n = &g->uploads[j];
                if (n->is_texture || n->buf.id != u->buf.id || n->offset != u->offset + size ||
                    (const uint8_t *)n->data != (const uint8_t *)u->data + size)
                    break;
                size += n->size;
                j++;
            }
        }
        hl_result r = u->is_texture ? hl_rhi_texture_write(g->dev, u->tex, &u->region, u->data, u->row_pitch)
                                    : hl_rhi_buffer_write(g->dev, u->buf, u->offset, u->data, size);
        if (r) return hl__fail(r, "hl_graph_execute: upload %u: %s", i, hl_last_error());
        i = j;
    }
    return HL_OK;
}

/* The executor's clears, right before the pass's execute callback. */
static hl_result hl__graph_run_clears(hl_graph *g, const hl__gpass *p, hl_rhi_cmd *cmd) {
    for (uint32_t i = 0; i < p->access_count; i++) {
        const hl__gaccess *a = &g->acc[p->first_access + i];
        if (a->kind != HL__ACC_CLEAR) continue;
        const hl__gres *r = &g->res[a->res];
        hl_result e;
        if (r->is_buffer) {
            e = hl_rhi_cmd_clear_buffer(cmd, r->buf, 0, 0);
        } else {
            hl_rhi_render_pass_desc rp = {0};
            hl_rhi_color_attachment ca = {0};
            const hl_rhi_format_info *fi = hl_rhi_format_get_info(r->tdesc.format);
            if (fi && fi->is_depth) {
                rp.depth_stencil.view = r->attach_view;
                rp.depth_stencil.depth_clear_value = a->u.clear[0];
                rp.depth_stencil.stencil_clear_value = (uint32_t)a->u.clear[1];
            } else {
                ca.view = r->attach_view;
                memcpy(ca.clear_color, a->u.clear, sizeof(ca.clear_color));
                rp.color_attachments = &ca;
                rp.color_attachment_count = 1;
            }
            rp.label = r->name;
            e = hl_rhi_cmd_begin_render_pass(cmd, &rp);
            if (!e) e = hl_rhi_cmd_end_render_pass(cmd);
        }
        if (e) return hl__fail(e, "pass '%s': clearing %s '%s': %s", p->name, hl__graph_res_kind(r), r->name, hl_last_error());
    }
    return HL_OK;
}

static void hl__graph_rollback(hl_graph *g) {
    if (hl_rhi_frame_is_open(g->dev)) hl_rhi_abort_frame(g->dev);
    for (uint32_t i = 0; i < g->pool_count; i++) g->pool[i].in_use = false;
    for (uint32_t i = 0; i < g->res_count; i++) {
        hl__gres *r = &g->res[i];
        if (r->own_object) {
            if (r->is_buffer) hl_rhi_buffer_destroy(g->dev, r->buf);
            else {
                hl_rhi_texture_view_destroy(g->dev, r->view);
                hl_rhi_texture_destroy(g->dev, r->tex);
            }
            r->own_object = false;
        }
        r->tex = (hl_rhi_texture){0};
        r->view = r->attach_view = (hl_rhi_texture_view){0};
        r->buf = (hl_rhi_buffer){0};
    }
    g->uploads_count = 0; /* the batch and the commit records are dropped */
    g->commits_count = 0;
    g->state = HL__GRAPH_DONE;
}

hl_result hl_graph_execute(hl_graph *g, hl_rhi_submission *submission) {
    if (submission) submission->serial = 0;
    if (!g) return hl__fail(HL_ERR_VALIDATION, "hl_graph_execute: graph is NULL");
    if (g->state != HL__GRAPH_BUILDING && g->state != HL__GRAPH_COMPILED)
        return hl__fail(HL_ERR_INVALID_STATE, "hl_graph_execute: call hl_graph_begin and build a frame first");
    /* build + compile: nothing touched yet */
    uint64_t t0 = hl__now_ns();
    hl_result r = hl_graph_compile(g, NULL);
    if (!r) r = hl__graph_validate_uploads(g);
    if (r) {
        hl__graph_rollback(g);
        return r;
    }
    g->stats.transient_textures_created = g->stats.transient_buffers_created = 0;
    for (uint32_t i = 0; i < g->pool_count; i++)
        if (g->pool[i].alive) g->pool[i].idle_frames++;
    r = hl__graph_allocate(g);
    uint64_t t1 = hl__now_ns();
    hl_graph_ctx ctx = {g, 0, NULL};
    for (uint32_t k = 0; k < g->order_count && !r; k++) {
        const hl__gpass *p = &g->passes[g->order_index[k]];
        if (!p->prepare) continue;
        ctx.pass = g->order_index[k];
        hl_clear_error(); /* so a callback failing without a message does not show a stale one */
        r = p->prepare(&ctx, p->params, p->user);
        if (r) r = hl__fail(r, "prepare of pass '%s' failed: %s", p->name, hl_last_error());
    }
    uint64_t t2 = hl__now_ns();
    hl_rhi_cmd *cmd = NULL;
    if (!r) r = hl_rhi_begin_frame(g->dev, &cmd);
    if (!r) r = hl__graph_flush_uploads(g);
    ctx.cmd = cmd;
    for (uint32_t k = 0; k < g->order_count && !r; k++) {
        const hl__gpass *p = &g->passes[g->order_index[k]];
        ctx.pass = g->order_index[k];
        r = hl__graph_run_clears(g, p, cmd);
        if (!r) {
            hl_clear_error();
            r = p->execute(&ctx, p->params, p->user);
            if (r) r = hl__fail(r, "execute of pass '%s' failed: %s", p->name, hl_last_error());
        }
    }
    uint64_t t3 = hl__now_ns();
    hl_rhi_submission sub = {0};
    if (!r) r = hl_rhi_end_frame(g->dev, &sub);
    uint64_t t4 = hl__now_ns();
    g->stats.compile_ns = t1 - t0;
    g->stats.prepare_ns = t2 - t1;
    g->stats.execute_ns = t3 - t2;
    g->stats.submit_ns = t4 - t3;
    if (r) {
        hl__graph_rollback(g);
        return r;
    }
    /* commit: the frame reached the GPU */
    for (uint32_t i = 0; i < g->pool_count; i++) {
        hl__gpool_entry *e = &g->pool[i];
        if (!e->in_use) continue;
        e->in_use = false;
        e->busy_serial = sub.serial;
    }
    for (uint32_t i = 0; i < g->commits_count; i++) *g->commits[i].slot = g->commits[i].value;
    g->commits_count = 0;
    g->uploads_count = 0;
    /* pooled objects unused for many frames go back to the device */
    for (uint32_t i = 0; i < g->pool_count; i++) {
        hl__gpool_entry *e = &g->pool[i];
        if (e->alive && e->idle_frames > 64 && hl__graph_entry_idle(g, e)) hl__graph_entry_destroy(g, e);
    }
    hl__graph_age_views(g);
    g->last_submission = sub;
    g->state = HL__GRAPH_DONE;
    if (submission) *submission = sub;
    return HL_OK;
}

/* ---- context ------------------------------------------------------------------------------------------ */
hl_rhi_device *hl_graph_ctx_device(hl_graph_ctx *ctx) { return ctx ? ctx->g->dev : NULL; }
hl_rhi_cmd *hl_graph_ctx_cmd(hl_graph_ctx *ctx) { return ctx ? ctx->cmd : NULL; }
hl_graph_pass hl_graph_ctx_pass(hl_graph_ctx *ctx) {
    return ctx ? hl__graph_pass_handle(ctx->g, ctx->pass) : (hl_graph_pass){0};
}

hl_rhi_texture hl_graph_ctx_texture(hl_graph_ctx *ctx, hl_graph_texture t) {
    uint32_t i = ctx ? hl__graph_texture_index(ctx->g, t) : HL__GRAPH_NONE;
    return i == HL__GRAPH_NONE ? (hl_rhi_texture){0} : ctx->g->res[i].tex;
}

hl_rhi_texture_view hl_graph_ctx_view(hl_graph_ctx *ctx, hl_graph_texture t) {
    uint32_t i = ctx ? hl__graph_texture_index(ctx->g, t) : HL__GRAPH_NONE;
    return i == HL__GRAPH_NONE ? (hl_rhi_texture_view){0} : ctx->g->res[i].view;
}

hl_rhi_buffer hl_graph_ctx_buffer(hl_graph_ctx *ctx, hl_graph_buffer b) {
    uint32_t i = ctx ? hl__graph_buffer_index(ctx->g, b) : HL__GRAPH_NONE;
    return i == HL__GRAPH_NONE ? (hl_rhi_buffer){0} : ctx->g->res[i].buf;
}

hl_result hl_graph_ctx_begin_render_pass(hl_graph_ctx *ctx) {
    if (!ctx) return hl__fail(HL_ERR_VALIDATION, "hl_graph_ctx_begin_render_pass: ctx is NULL");
    if (!ctx->cmd) return hl__fail(HL_ERR_INVALID_STATE, "hl_graph_ctx_begin_render_pass: only in execute");
    hl_graph *g = ctx->g;
    const hl__gpass *p = &g->passes[ctx->pass];
    hl_rhi_color_attachment ca[HL_RHI_MAX_COLOR_ATTACHMENTS];
    memset(ca, 0, sizeof(ca));
    hl_rhi_render_pass_desc rp = {0};
    rp.color_attachments = ca;
    rp.label = p->name;
    for (uint32_t i = 0; i < p->access_count; i++) {
        const hl__gaccess *a = &g->acc[p->first_access + i];
        const hl__gres *r = &g->res[a->res];
        if (a->kind == HL__ACC_COLOR) {
            ca[a->slot].view = r->attach_view;
            ca[a->slot].load_op = a->u.color.load_op;
            ca[a->slot].store_op = a->u.color.store_op;
            memcpy(ca[a->slot].clear_color, a->u.color.clear_color, sizeof(ca[a->slot].clear_color));
            if (a->slot + 1u > rp.color_attachment_count) rp.color_attachment_count = a->slot + 1u;
        } else if (a->kind == HL__ACC_RESOLVE) {
            ca[a->slot].resolve_target = r->attach_view;
        } else if (a->kind == HL__ACC_DEPTH) {
            const hl_graph_depth_attachment_desc *d = &a->u.depth;
            rp.depth_stencil.view = r->attach_view;
            rp.depth_stencil.depth_load_op = d->depth_load_op;
            rp.depth_stencil.depth_store_op = d->depth_store_op;
            rp.depth_stencil.depth_clear_value = d->depth_clear_value;
            rp.depth_stencil.depth_read_only = d->depth_read_only;
            rp.depth_stencil.stencil_load_op = d->stencil_load_op;
            rp.depth_stencil.stencil_store_op = d->stencil_store_op;
            rp.depth_stencil.stencil_clear_value = d->stencil_clear_value;
            rp.depth_stencil.stencil_read_only = d->stencil_read_only;
        }
    }
    hl_result r = hl_rhi_cmd_begin_render_pass(ctx->cmd, &rp);
    if (r) return hl__fail(r, "pass '%s': %s", p->name, hl_last_error());
    return HL_OK;
}
