/* Command recording: pass state machine, per-command validation, the command-state cache
 * (identical re-binds are dropped before they reach the backend) and draw packets.
 *
 * Codes: a command in the wrong pass state (no frame, no pass, pass already open, draw or
 * dispatch without a pipeline) is HL_ERR_INVALID_STATE; bad arguments and bindings that do
 * not match the pipeline are HL_ERR_VALIDATION; a missing device feature is
 * HL_ERR_UNSUPPORTED. A failing command never reaches the backend. */
#include <stddef.h>
#include <string.h>

#include "core_private.h"

#define HL__STALE "handle is destroyed or stale"

static const char *const hl__pass_names[] = {"no", "a render", "a compute"};

/* ---- helpers ------------------------------------------------------------------------------- */
static inline hl_result hl__cmd_check(const hl_rhi_cmd *cmd, const char *fn) {
    if (!cmd || !cmd->dev) return hl__fail(HL_ERR_VALIDATION, "%s: cmd is NULL", fn);
    const hl_rhi_device *dev = cmd->dev;
    if (dev->lost) return hl__fail(HL_ERR_DEVICE_LOST, "%s: the device is lost", fn);
    if (!dev->frame_open || cmd != &dev->cmd) return hl__fail(HL_ERR_INVALID_STATE, "%s: no frame is open", fn);
    cmd->dev->stats.commands++;
    return HL_OK;
}

static inline hl_result hl__need_no_pass(const hl_rhi_cmd *cmd, const char *fn) {
    if (cmd->pass != HL__PASS_NONE)
        return hl__fail(HL_ERR_INVALID_STATE, "%s: %s pass is open (copies, clears and mipmaps go outside passes)", fn,
                        hl__pass_names[cmd->pass]);
    return HL_OK;
}

static inline hl_result hl__need_render_pass(const hl_rhi_cmd *cmd, const char *fn) {
    if (cmd->pass != HL__PASS_RENDER)
        return hl__fail(HL_ERR_INVALID_STATE, "%s: no render pass is open (%s pass is)", fn, hl__pass_names[cmd->pass]);
    return HL_OK;
}

static inline hl_result hl__need_compute_pass(const hl_rhi_cmd *cmd, const char *fn) {
    if (cmd->pass != HL__PASS_COMPUTE)
        return hl__fail(HL_ERR_INVALID_STATE, "%s: no compute pass is open (%s pass is)", fn, hl__pass_names[cmd->pass]);
    return HL_OK;
}

/* Uses by the open frame (a render bundle being recorded uses nothing yet: its execute does). */
static inline void hl__use_slot(hl_rhi_device *dev, uint8_t pool, uint32_t slot) {
    if (dev->recording_bundle) return;
    dev->pools[pool].last_use[slot] = dev->cmd.serial;
}
static inline void hl__use_buffer(hl_rhi_device *dev, uint32_t slot, hl__buffer *b) {
    if (dev->recording_bundle) return;
    hl__use_slot(dev, HL__POOL_BUFFER, slot);
    b->last_use_serial = b->write_frame_guard = dev->cmd.serial;
}
static inline void hl__use_texture(hl_rhi_device *dev, uint32_t slot, hl__texture *t) {
    if (dev->recording_bundle) return;
    hl__use_slot(dev, HL__POOL_TEXTURE, slot);
    t->last_use_serial = dev->cmd.serial;
}

void hl__rhi_use_object(hl_rhi_device *dev, uint32_t pool, uint32_t slot) {
    hl__pool *p = &dev->pools[pool];
    if (pool == HL__POOL_BUFFER) hl__use_buffer(dev, slot, hl__pool_item(p, slot));
    else if (pool == HL__POOL_TEXTURE) hl__use_texture(dev, slot, hl__pool_item(p, slot));
    else hl__use_slot(dev, (uint8_t)pool, slot);
}
static void hl__use_view(hl_rhi_device *dev, uint32_t view_id) {
    uint32_t vs = hl__handle_slot(view_id);
    hl__use_slot(dev, HL__POOL_VIEW, vs);
    hl__texture_view *v = hl__pool_item(&dev->pools[HL__POOL_VIEW], vs);
    uint32_t ts;
    hl__texture *t = hl__pool_lookup(dev, HL__POOL_TEXTURE, v->texture.id, &ts);
    if (t) {
        v->tex_ptr_unsafe = t;
        hl__use_texture(dev, ts, t);
    }
}

void hl__cmd_reset_draw_state(hl_rhi_cmd *cmd) {
    cmd->pipeline_id = 0;
    cmd->pipeline = NULL;
    memset(cmd->bind_group_id, 0, sizeof cmd->bind_group_id);
    memset(cmd->bind_group_offset_count, 0, sizeof cmd->bind_group_offset_count);
    memset(cmd->vertex_buffer_id, 0, sizeof cmd->vertex_buffer_id);
    memset(cmd->vertex_buffer_offset, 0, sizeof cmd->vertex_buffer_offset);
    cmd->index_buffer_id = 0;
    cmd->index_format = HL_RHI_INDEX_UINT16;
    cmd->index_offset = 0;
    cmd->index_available = 0;
    cmd->layout_group_count = 0;
    for (uint32_t i = 0; i < HL_RHI_MAX_BIND_GROUPS; i++) {
        cmd->bind_group_cache[i] = UINT32_MAX;
        cmd->layout_group_cache[i] = UINT32_MAX;
    }
    cmd->draw_dirty = true;
}

void hl__cmd_reset_bindings(hl_rhi_cmd *cmd) {
    hl__cmd_reset_draw_state(cmd);
    cmd->compute_pipeline_id = 0;
    cmd->compute_pipeline = NULL;
    cmd->stencil_ref = 0;
    memset(cmd->blend_constant, 0, sizeof cmd->blend_constant);
}

void hl__cmd_refresh_pointers(hl_rhi_device *dev) {
    if (!dev->frame_open) return;
    hl_rhi_cmd *cmd = &dev->cmd;
    if (cmd->pipeline_id)
        cmd->pipeline = hl__pool_item(&dev->pools[HL__POOL_RENDER_PIPELINE], hl__handle_slot(cmd->pipeline_id));
    if (cmd->compute_pipeline_id)
        cmd->compute_pipeline =
            hl__pool_item(&dev->pools[HL__POOL_COMPUTE_PIPELINE], hl__handle_slot(cmd->compute_pipeline_id));
    if (cmd->pass == HL__PASS_RENDER) {
        hl__pool *vp = &dev->pools[HL__POOL_VIEW];
        for (uint32_t i = 0; i < cmd->rp.color_count; i++) {
            cmd->rp.color[i] = hl__pool_item(vp, hl__handle_slot(cmd->rp.color_desc[i].view.id));
            if (cmd->rp.resolve[i]) cmd->rp.resolve[i] = hl__pool_item(vp, hl__handle_slot(cmd->rp.color_desc[i].resolve_target.id));
        }
        if (cmd->rp.depth) cmd->rp.depth = hl__pool_item(vp, hl__handle_slot(cmd->rp.depth_desc.view.id));
    }
}

void hl__cmd_forget(hl_rhi_device *dev, uint8_t pool, uint32_t id) {
    hl_rhi_cmd *cmd = &dev->cmd;
    switch (pool) {
    case HL__POOL_RENDER_PIPELINE:
        if (cmd->pipeline_id == id) {
            cmd->pipeline_id = 0;
            cmd->pipeline = NULL;
            cmd->draw_dirty = true;
        }
        break;
    case HL__POOL_COMPUTE_PIPELINE:
        if (cmd->compute_pipeline_id == id) {
            cmd->compute_pipeline_id = 0;
            cmd->compute_pipeline = NULL;
            cmd->draw_dirty = true;
        }
        break;
    case HL__POOL_BIND_GROUP:
        for (uint32_t i = 0; i < HL_RHI_MAX_BIND_GROUPS; i++) {
            if (cmd->bind_group_id[i] == id) {
                cmd->bind_group_id[i] = 0;
                cmd->bind_group_cache[i] = UINT32_MAX;
                cmd->draw_dirty = true;
            }
        }
        break;
    case HL__POOL_BUFFER:
        for (uint32_t i = 0; i < HL_RHI_MAX_VERTEX_BUFFERS; i++) {
            if (cmd->vertex_buffer_id[i] == id) {
                cmd->vertex_buffer_id[i] = 0;
                cmd->draw_dirty = true;
            }
        }
        if (cmd->index_buffer_id == id) cmd->index_buffer_id = 0;
        break;
    default: break;
    }
}

/* The bound pipeline's layout: group cache entries the bound groups must match. */
static void hl__load_layout_groups(hl_rhi_cmd *cmd, uint32_t pl_cache_index) {
    const hl__pipeline_layout_key *k = cmd->dev->cache[pl_cache_index].key;
    cmd->layout_group_count = k->group_count;
    for (uint32_t i = 0; i < HL_RHI_MAX_BIND_GROUPS; i++)
        cmd->layout_group_cache[i] = i < k->group_count ? k->group_cache[i] : UINT32_MAX;
}

/* ---- render passes ------------------------------------------------------------------------- */
static hl_result hl__validate_attachment_view(hl_rhi_device *dev, const char *fn, const char *field, uint32_t i,
                                              uint32_t view_id, hl__texture_view **out) {
    hl__texture_view *v = hl__pool_get(dev, HL__POOL_VIEW, view_id);
    if (!v) return hl__fail(HL_ERR_VALIDATION, "%s: %s[%u].view: " HL__STALE, fn, field, i);
    hl__texture *t = hl__pool_get(dev, HL__POOL_TEXTURE, v->texture.id);
    if (!t) return hl__fail(HL_ERR_VALIDATION, "%s: %s[%u].view: its texture " HL__STALE, fn, field, i);
    v->tex_ptr_unsafe = t;
    if (!(t->desc.usage & HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT))
        return hl__fail(HL_ERR_VALIDATION, "%s: %s[%u].view: texture lacks RENDER_ATTACHMENT usage", fn, field, i);
    if (v->desc.mip_level_count != 1 || v->desc.layer_count != 1)
        return hl__fail(HL_ERR_VALIDATION, "%s: %s[%u].view must cover one mip level and one layer (has %u and %u)", fn,
                        field, i, v->desc.mip_level_count, v->desc.layer_count);
    *out = v;
    return HL_OK;
}

static hl_result hl__validate_render_pass(hl_rhi_device *dev, const hl_rhi_render_pass_desc *desc, hl__render_pass_info *rp) {
    const char *fn = "hl_rhi_cmd_begin_render_pass";
    if (!desc) return hl__fail(HL_ERR_VALIDATION, "%s: desc is NULL", fn);
    uint32_t max = dev->caps.limits.max_color_attachments < HL_RHI_MAX_COLOR_ATTACHMENTS ? dev->caps.limits.max_color_attachments
                                                                                        : HL_RHI_MAX_COLOR_ATTACHMENTS;
    if (desc->color_attachment_count > max)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.color_attachment_count %u exceeds %u", fn, desc->color_attachment_count, max);
    if (desc->color_attachment_count && !desc->color_attachments)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.color_attachments is NULL", fn);
    if (desc->color_attachment_count == 0 && desc->depth_stencil.view.id == 0)
        return hl__fail(HL_ERR_VALIDATION, "%s: the pass has no color attachment and no depth_stencil.view", fn);
    memset(rp, 0, sizeof *rp);
    bool first = true;
    for (uint32_t i = 0; i < desc->color_attachment_count; i++) {
        const hl_rhi_color_attachment *a = &desc->color_attachments[i];
        hl__texture_view *v;
        hl_result r = hl__validate_attachment_view(dev, fn, "color_attachments", i, a->view.id, &v);
        if (r) return r;
        const hl_rhi_format_info *fi = hl_rhi_format_get_info(v->format);
        if (fi->is_depth)
            return hl__fail(HL_ERR_VALIDATION, "%s: color_attachments[%u].view has depth format %s", fn, i, fi->name);
        if ((unsigned)a->load_op > HL_RHI_LOAD_DONT_CARE || (unsigned)a->store_op > HL_RHI_STORE_DISCARD)
            return hl__fail(HL_ERR_VALIDATION, "%s: color_attachments[%u].load_op/store_op out of range", fn, i);
        if (first) {
            rp->width = v->width;
            rp->height = v->height;
            rp->sample_count = v->sample_count;
            first = false;
        } else if (v->width != rp->width || v->height != rp->height || v->sample_count != rp->sample_count) {
            return hl__fail(HL_ERR_VALIDATION, "%s: color_attachments[%u].view is %ux%u with %u samples, attachment 0 is %ux%u with %u",
                            fn, i, v->width, v->height, v->sample_count, rp->width, rp->height, rp->sample_count);
        }
        rp->color[i] = v;
        rp->color_format[i] = v->format;
        rp->color_desc[i] = *a;
        if (a->resolve_target.id) {
            hl__texture_view *rv;
            r = hl__validate_attachment_view(dev, fn, "color_attachments[].resolve_target: color_attachments", i,
                                             a->resolve_target.id, &rv);
            if (r) return r;
            if (v->sample_count == 1)
                return hl__fail(HL_ERR_VALIDATION, "%s: color_attachments[%u].resolve_target is set but the view is single-sampled",
                                fn, i);
            if (rv->sample_count != 1)
                return hl__fail(HL_ERR_VALIDATION, "%s: color_attachments[%u].resolve_target must be single-sampled", fn, i);
            if (rv->width != v->width || rv->height != v->height || rv->format != v->format)
                return hl__fail(HL_ERR_VALIDATION, "%s: color_attachments[%u].resolve_target differs in size or format from the view",
                                fn, i);
            if (!(dev->caps.formats[v->format].flags & HL_RHI_FORMAT_CAP_RESOLVE))
                return hl__fail(HL_ERR_VALIDATION, "%s: color_attachments[%u]: format %s cannot be resolved", fn, i, fi->name);
            rp->resolve[i] = rv;
        }
    }
    rp->color_count = desc->color_attachment_count;
    const hl_rhi_depth_stencil_attachment *ds = &desc->depth_stencil;
    if (ds->view.id) {
        hl__texture_view *v;
        hl_result r = hl__validate_attachment_view(dev, fn, "depth_stencil", 0, ds->view.id, &v);
        if (r) return r;
        if (!hl_rhi_format_get_info(v->format)->is_depth)
            return hl__fail(HL_ERR_VALIDATION, "%s: depth_stencil.view format %s is not a depth format", fn,
                            hl_rhi_format_get_info(v->format)->name);
        if ((unsigned)ds->depth_load_op > HL_RHI_LOAD_DONT_CARE || (unsigned)ds->stencil_load_op > HL_RHI_LOAD_DONT_CARE ||
            (unsigned)ds->depth_store_op > HL_RHI_STORE_DISCARD || (unsigned)ds->stencil_store_op > HL_RHI_STORE_DISCARD)
            return hl__fail(HL_ERR_VALIDATION, "%s: depth_stencil load/store op out of range", fn);
        if (!(ds->depth_clear_value >= 0.0f && ds->depth_clear_value <= 1.0f))
            return hl__fail(HL_ERR_VALIDATION, "%s: depth_stencil.depth_clear_value %g is outside [0, 1]", fn,
                            (double)ds->depth_clear_value);
        if (first) {
            rp->width = v->width;
            rp->height = v->height;
            rp->sample_count = v->sample_count;
        } else if (v->width != rp->width || v->height != rp->height || v->sample_count != rp->sample_count) {
            return hl__fail(HL_ERR_VALIDATION, "%s: depth_stencil.view is %ux%u with %u samples, the color attachments %ux%u with %u",
                            fn, v->width, v->height, v->sample_count, rp->width, rp->height, rp->sample_count);
        }
        rp->depth = v;
        rp->depth_format = v->format;
        rp->depth_desc = *ds;
    }
    return HL_OK;
}

hl_result hl_rhi_cmd_begin_render_pass(hl_rhi_cmd *cmd, const hl_rhi_render_pass_desc *desc) {
    const char *fn = "hl_rhi_cmd_begin_render_pass";
    hl_result r = hl__cmd_check(cmd, fn);
    if (r) return r;
    if (cmd->pass != HL__PASS_NONE)
        return hl__fail(HL_ERR_INVALID_STATE, "%s: %s pass is already open", fn, hl__pass_names[cmd->pass]);
    hl_rhi_device *dev = cmd->dev;
    hl__render_pass_info rp;
    if ((r = hl__validate_render_pass(dev, desc, &rp))) return r;
    hl__cmd_reset_bindings(cmd);
    cmd->rp = rp;
    r = dev->fns->begin_render_pass(cmd, &cmd->rp);
    if (r) return r;
    cmd->pass = HL__PASS_RENDER;
    if (dev->tap && dev->tap->render_pass) dev->tap->render_pass(dev->tap->user, desc);
    float vp[6] = {0.0f, 0.0f, (float)rp.width, (float)rp.height, 0.0f, 1.0f};
    memcpy(cmd->viewport, vp, sizeof vp);
    uint32_t sc[4] = {0, 0, rp.width, rp.height};
    memcpy(cmd->scissor, sc, sizeof sc);
    for (uint32_t i = 0; i < rp.color_count; i++) {
        hl__use_view(dev, rp.color_desc[i].view.id);
        if (rp.resolve[i]) hl__use_view(dev, rp.color_desc[i].resolve_target.id);
    }
    if (rp.depth) hl__use_view(dev, rp.depth_desc.view.id);
    return HL_OK;
}

hl_result hl_rhi_cmd_end_render_pass(hl_rhi_cmd *cmd) {
    const char *fn = "hl_rhi_cmd_end_render_pass";
    hl_result r = hl__cmd_check(cmd, fn);
    if (r) return r;
    if ((r = hl__need_render_pass(cmd, fn))) return r;
    r = cmd->dev->fns->end_render_pass(cmd);
    cmd->pass = HL__PASS_NONE;
    hl__cmd_reset_bindings(cmd);
    return r;
}

/* ---- state binding (the command-state cache) ------------------------------------------------ */
static hl_result hl__bind_pipeline(hl_rhi_cmd *cmd, uint32_t id, const char *fn) {
    hl_rhi_device *dev = cmd->dev;
    uint32_t slot;
    hl__render_pipeline *p = hl__pool_lookup(dev, HL__POOL_RENDER_PIPELINE, id, &slot);
    if (!p) return hl__fail(HL_ERR_VALIDATION, "%s: pipeline: " HL__STALE, fn);
    const hl__render_pipeline_info *in = &p->info;
    const hl__render_pass_info *rp = &cmd->rp;
    if (in->color_target_count != rp->color_count)
        return hl__fail(HL_ERR_VALIDATION, "%s: the pipeline has %u color targets but the pass has %u color attachments", fn,
                        in->color_target_count, rp->color_count);
    for (uint32_t i = 0; i < rp->color_count; i++) {
        if (in->color_targets[i].format != rp->color_format[i])
            return hl__fail(HL_ERR_VALIDATION, "%s: color target %u: pipeline format %s, pass attachment format %s", fn, i,
                            hl_rhi_format_get_info(in->color_targets[i].format)->name,
                            hl_rhi_format_get_info(rp->color_format[i])->name);
    }
    hl_rhi_format pass_depth = rp->depth_format;
    if (in->depth_stencil.format != pass_depth)
        return hl__fail(HL_ERR_VALIDATION, "%s: pipeline depth format %s, pass depth attachment %s", fn,
                        hl_rhi_format_get_info(in->depth_stencil.format)->name, hl_rhi_format_get_info(pass_depth)->name);
    if (in->sample_count != rp->sample_count)
        return hl__fail(HL_ERR_VALIDATION, "%s: pipeline sample_count %u, pass sample count %u", fn, in->sample_count,
                        rp->sample_count);
    cmd->fns->set_pipeline(cmd, p);
    cmd->pipeline_id = id;
    cmd->pipeline = p;
    const hl__render_pipeline_info *key = dev->cache[p->cache_index].key;
    hl__load_layout_groups(cmd, key->layout.id);
    cmd->draw_dirty = true;
    dev->stats.pipeline_switches++;
    hl__use_slot(dev, HL__POOL_RENDER_PIPELINE, slot);
    return HL_OK;
}

hl_result hl_rhi_cmd_set_pipeline(hl_rhi_cmd *cmd, hl_rhi_render_pipeline p) {
    const char *fn = "hl_rhi_cmd_set_pipeline";
    hl_result r = hl__cmd_check(cmd, fn);
    if (r) return r;
    if ((r = hl__need_render_pass(cmd, fn))) return r;
    if (p.id && p.id == cmd->pipeline_id) {
        cmd->dev->stats.redundant_state_skipped++;
        return HL_OK;
    }
    return hl__bind_pipeline(cmd, p.id, fn);
}

static inline bool hl__same_group(const hl_rhi_cmd *cmd, uint32_t index, uint32_t id, const uint32_t *offsets,
                                  uint32_t count) {
    if (cmd->bind_group_id[index] != id || cmd->bind_group_offset_count[index] != count) return false;
    for (uint32_t i = 0; i < count; i++)
        if (cmd->bind_group_offsets[index][i] != offsets[i]) return false;
    return true;
}

static hl_result hl__apply_bind_group(hl_rhi_cmd *cmd, uint32_t index, uint32_t id, const uint32_t *offsets, uint32_t count,
                                const char *fn) {
    hl_rhi_device *dev = cmd->dev;
    if (index >= HL_RHI_MAX_BIND_GROUPS || index >= dev->caps.limits.max_bind_groups)
        return hl__fail(HL_ERR_VALIDATION, "%s: index %u exceeds the bind group limit", fn, index);
    uint32_t slot;
    hl__bind_group *g = hl__pool_lookup(dev, HL__POOL_BIND_GROUP, id, &slot);
    if (!g) return hl__fail(HL_ERR_VALIDATION, "%s: group (index %u): " HL__STALE, fn, index);
    const hl__cache_entry *le = &dev->cache[g->layout_cache_index];
    const hl_rhi_bind_group_layout_entry *lents = le->key;
    uint32_t n = le->key_size / (uint32_t)sizeof(hl_rhi_bind_group_layout_entry);
    uint32_t dyn = 0;
    for (uint32_t i = 0; i < n; i++) dyn += lents[i].has_dynamic_offset;
    if (count != dyn)
        return hl__fail(HL_ERR_VALIDATION, "%s: dynamic_offset_count is %u but group %u's layout has %u dynamic bindings", fn,
                        count, index, dyn);
    if (count && !offsets) return hl__fail(HL_ERR_VALIDATION, "%s: dynamic_offsets is NULL", fn);
    bool changed_group = cmd->bind_group_id[index] != id;
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        const hl_rhi_bind_group_entry *e = &g->entries[i];
        hl__buffer *b = NULL;
        uint32_t bslot = 0;
        if (lents[i].type == HL_RHI_BINDING_UNIFORM_BUFFER || lents[i].type == HL_RHI_BINDING_STORAGE_BUFFER ||
            lents[i].type == HL_RHI_BINDING_READ_ONLY_STORAGE_BUFFER) {
            if (changed_group || lents[i].has_dynamic_offset) {
                b = hl__pool_lookup(dev, HL__POOL_BUFFER, e->buffer.id, &bslot);
                if (!b)
                    return hl__fail(HL_ERR_VALIDATION, "%s: group %u binding %u: its buffer " HL__STALE, fn, index, e->binding);
            }
            if (lents[i].has_dynamic_offset) {
                uint32_t off = offsets[k];
                bool uniform = lents[i].type == HL_RHI_BINDING_UNIFORM_BUFFER;
                uint32_t align = uniform ? dev->caps.limits.min_uniform_buffer_offset_alignment
                                         : dev->caps.limits.min_storage_buffer_offset_alignment;
                if (align && off % align)
                    return hl__fail(HL_ERR_VALIDATION, "%s: dynamic_offsets[%u] = %u is not a multiple of %u", fn, k, off, align);
                if (e->offset + off + e->size > b->desc.size)
                    return hl__fail(HL_ERR_VALIDATION,
                                    "%s: dynamic_offsets[%u] = %u: binding %u range %llu+%llu+%u exceeds the buffer (size %llu)",
                                    fn, k, off, e->binding, (unsigned long long)e->offset, (unsigned long long)e->size, off,
                                    (unsigned long long)b->desc.size);
                cmd->dyn_max_offset[index][k] = b->desc.size - e->offset - e->size;
                cmd->dyn_align[index][k] = align ? align : 1u;
                k++;
            }
            if (changed_group) hl__use_buffer(dev, bslot, b);
        } else if (changed_group && e->view.id) {
            if (!hl__pool_get(dev, HL__POOL_VIEW, e->view.id))
                return hl__fail(HL_ERR_VALIDATION, "%s: group %u binding %u: its view " HL__STALE, fn, index, e->binding);
            hl__use_view(dev, e->view.id);
        } else if (changed_group && e->sampler.id) {
            if (!hl__pool_get(dev, HL__POOL_SAMPLER, e->sampler.id))
                return hl__fail(HL_ERR_VALIDATION, "%s: group %u binding %u: its sampler " HL__STALE, fn, index, e->binding);
        }
    }
    g->layout_ptr_unsafe = hl__pool_get(dev, HL__POOL_BGL, g->layout.id);
    cmd->fns->set_bind_group(cmd, index, g, offsets, count);
    cmd->bind_group_id[index] = id;
    cmd->bind_group_offset_count[index] = count;
    for (uint32_t i = 0; i < count; i++) cmd->bind_group_offsets[index][i] = offsets[i];
    cmd->bind_group_cache[index] = g->layout_cache_index;
    cmd->bound_group_slot[index] = slot;
    cmd->draw_dirty = true;
    dev->stats.bind_group_switches++;
    hl__use_slot(dev, HL__POOL_BIND_GROUP, slot);
    return HL_OK;
}

/* The bound group again with other dynamic offsets: the group, its layout and its buffers were
 * checked when it was bound (a destroyed group is unbound at once), so only the offsets are. */
static inline hl_result hl__check_offsets(const hl_rhi_cmd *cmd, uint32_t index, const uint32_t *offsets, uint32_t count,
                                          const char *fn) {
    for (uint32_t k = 0; k < count; k++) {
        if (offsets[k] & (cmd->dyn_align[index][k] - 1u)) /* alignments are powers of two */
            return hl__fail(HL_ERR_VALIDATION, "%s: dynamic_offsets[%u] = %u is not a multiple of %u", fn, k, offsets[k],
                            cmd->dyn_align[index][k]);
        if (offsets[k] > cmd->dyn_max_offset[index][k])
            return hl__fail(HL_ERR_VALIDATION, "%s: dynamic_offsets[%u] = %u exceeds the buffer (at most %llu here)", fn, k,
                            offsets[k], (unsigned long long)cmd->dyn_max_offset[index][k]);
    }
    return HL_OK;
}

/* Checked offsets of the bound group to the backend and into the cache. */
static inline hl_result hl__rebind_offsets(hl_rhi_cmd *cmd, uint32_t index, const uint32_t *offsets, uint32_t count,
                                           const char *fn) {
    hl_result r = hl__check_offsets(cmd, index, offsets, count, fn);
    if (r) return r;
    hl_rhi_device *dev = cmd->dev;
    hl__pool *pool = &dev->pools[HL__POOL_BIND_GROUP];
    hl__bind_group *g = (hl__bind_group *)(pool->items + (size_t)cmd->bound_group_slot[index] * pool->item_size);
    cmd->fns->set_bind_group(cmd, index, g, offsets, count);
    for (uint32_t k = 0; k < count; k++) cmd->bind_group_offsets[index][k] = offsets[k];
    dev->stats.bind_group_switches++;
    return HL_OK;
}

hl_result hl_rhi_cmd_set_bind_group(hl_rhi_cmd *cmd, uint32_t index, hl_rhi_bind_group g, const uint32_t *dynamic_offsets,
                                    uint32_t dynamic_offset_count) {
    const char *fn = "hl_rhi_cmd_set_bind_group";
    hl_result r = hl__cmd_check(cmd, fn);
    if (r) return r;
    if (cmd->pass == HL__PASS_NONE) return hl__fail(HL_ERR_INVALID_STATE, "%s: no pass is open", fn);
    if (dynamic_offset_count > HL_RHI_MAX_BINDINGS)
        return hl__fail(HL_ERR_VALIDATION, "%s: dynamic_offset_count %u exceeds %u", fn, dynamic_offset_count, HL_RHI_MAX_BINDINGS);
    if (dynamic_offset_count && !dynamic_offsets) return hl__fail(HL_ERR_VALIDATION, "%s: dynamic_offsets is NULL", fn);
    if (index < HL_RHI_MAX_BIND_GROUPS && g.id && cmd->bind_group_id[index] == g.id) {
        if (hl__same_group(cmd, index, g.id, dynamic_offsets, dynamic_offset_count)) {
            cmd->dev->stats.redundant_state_skipped++;
            return HL_OK;
        }
        if (dynamic_offset_count == cmd->bind_group_offset_count[index])
            return hl__rebind_offsets(cmd, index, dynamic_offsets, dynamic_offset_count, fn);
    }
    return hl__apply_bind_group(cmd, index, g.id, dynamic_offsets, dynamic_offset_count, fn);
}

static hl_result hl__bind_vertex_buffer(hl_rhi_cmd *cmd, uint32_t slot, uint32_t id, uint64_t offset, const char *fn) {
    hl_rhi_device *dev = cmd->dev;
    if (slot >= HL_RHI_MAX_VERTEX_BUFFERS || slot >= dev->caps.limits.max_vertex_buffers)
        return hl__fail(HL_ERR_VALIDATION, "%s: slot %u exceeds the vertex buffer limit", fn, slot);
    uint32_t bslot;
    hl__buffer *b = hl__pool_lookup(dev, HL__POOL_BUFFER, id, &bslot);
    if (!b) return hl__fail(HL_ERR_VALIDATION, "%s: buf (slot %u): " HL__STALE, fn, slot);
    if (!(b->desc.usage & HL_RHI_BUFFER_USAGE_VERTEX))
        return hl__fail(HL_ERR_VALIDATION, "%s: buf (slot %u) lacks VERTEX usage", fn, slot);
    if (offset % 4u || offset > b->desc.size)
        return hl__fail(HL_ERR_VALIDATION, "%s: offset %llu must be a multiple of 4 within the buffer (size %llu)", fn,
                        (unsigned long long)offset, (unsigned long long)b->desc.size);
    cmd->fns->set_vertex_buffer(cmd, slot, b, offset);
    cmd->vertex_buffer_id[slot] = id;
    cmd->vertex_buffer_offset[slot] = offset;
    cmd->draw_dirty = true;
    dev->stats.vertex_buffer_switches++;
    hl__use_buffer(dev, bslot, b);
    return HL_OK;
}

hl_result hl_rhi_cmd_set_vertex_buffer(hl_rhi_cmd *cmd, uint32_t slot, hl_rhi_buffer buf, uint64_t offset) {
    const char *fn = "hl_rhi_cmd_set_vertex_buffer";
    hl_result r = hl__cmd_check(cmd, fn);
    if (r) return r;
    if ((r = hl__need_render_pass(cmd, fn))) return r;
    if (slot < HL_RHI_MAX_VERTEX_BUFFERS && buf.id && cmd->vertex_buffer_id[slot] == buf.id &&
        cmd->vertex_buffer_offset[slot] == offset) {
        cmd->dev->stats.redundant_state_skipped++;
        return HL_OK;
    }
    return hl__bind_vertex_buffer(cmd, slot, buf.id, offset, fn);
}

static hl_result hl__bind_index_buffer(hl_rhi_cmd *cmd, uint32_t id, hl_rhi_index_format format, uint64_t offset,
                                       const char *fn) {
    hl_rhi_device *dev = cmd->dev;
    if ((unsigned)format > HL_RHI_INDEX_UINT32) return hl__fail(HL_ERR_VALIDATION, "%s: format is out of range", fn);
    uint32_t bslot;
    hl__buffer *b = hl__pool_lookup(dev, HL__POOL_BUFFER, id, &bslot);
    if (!b) return hl__fail(HL_ERR_VALIDATION, "%s: buf: " HL__STALE, fn);
    if (!(b->desc.usage & HL_RHI_BUFFER_USAGE_INDEX)) return hl__fail(HL_ERR_VALIDATION, "%s: buf lacks INDEX usage", fn);
    uint32_t isize = format == HL_RHI_INDEX_UINT32 ? 4u : 2u;
    if (offset % isize || offset > b->desc.size)
        return hl__fail(HL_ERR_VALIDATION, "%s: offset %llu must be a multiple of %u within the buffer (size %llu)", fn,
                        (unsigned long long)offset, isize, (unsigned long long)b->desc.size);
    cmd->fns->set_index_buffer(cmd, b, format, offset);
    cmd->index_buffer_id = id;
    cmd->index_format = format;
    cmd->index_offset = offset;
    cmd->index_available = (b->desc.size - offset) / isize;
    hl__use_buffer(dev, bslot, b);
    return HL_OK;
}

hl_result hl_rhi_cmd_set_index_buffer(hl_rhi_cmd *cmd, hl_rhi_buffer buf, hl_rhi_index_format format, uint64_t offset) {
    const char *fn = "hl_rhi_cmd_set_index_buffer";
    hl_result r = hl__cmd_check(cmd, fn);
    if (r) return r;
    if ((r = hl__need_render_pass(cmd, fn))) return r;
    if (buf.id && buf.id == cmd->index_buffer_id && format == cmd->index_format && offset == cmd->index_offset) {
        cmd->dev->stats.redundant_state_skipped++;
        return HL_OK;
    }
    return hl__bind_index_buffer(cmd, buf.id, format, offset, fn);
}

hl_result hl_rhi_cmd_set_viewport(hl_rhi_cmd *cmd, float x, float y, float w, float h, float min_depth, float max_depth) {
    const char *fn = "hl_rhi_cmd_set_viewport";
    hl_result r = hl__cmd_check(cmd, fn);
    if (r) return r;
    if ((r = hl__need_render_pass(cmd, fn))) return r;
    if (!(x >= 0.0f && y >= 0.0f && w > 0.0f && h > 0.0f) || x + w > (float)cmd->rp.width || y + h > (float)cmd->rp.height)
        return hl__fail(HL_ERR_VALIDATION, "%s: (%g,%g %gx%g) must lie inside the %ux%u attachment with w, h > 0", fn,
                        (double)x, (double)y, (double)w, (double)h, cmd->rp.width, cmd->rp.height);
    if (!(min_depth >= 0.0f && max_depth <= 1.0f && min_depth <= max_depth))
        return hl__fail(HL_ERR_VALIDATION, "%s: min_depth %g / max_depth %g must satisfy 0 <= min <= max <= 1", fn,
                        (double)min_depth, (double)max_depth);
    float v[6] = {x, y, w, h, min_depth, max_depth};
    if (memcmp(v, cmd->viewport, sizeof v) == 0) {
        cmd->dev->stats.redundant_state_skipped++;
        return HL_OK;
    }
    cmd->dev->fns->set_viewport(cmd, v);
    memcpy(cmd->viewport, v, sizeof v);
    return HL_OK;
}

hl_result hl_rhi_cmd_set_scissor(hl_rhi_cmd *cmd, uint32_t x, uint32_t y, uint32_t w, uint32_t h) {
    const char *fn = "hl_rhi_cmd_set_scissor";
    hl_result r = hl__cmd_check(cmd, fn);
    if (r) return r;
    if ((r = hl__need_render_pass(cmd, fn))) return r;
    if ((uint64_t)x + w > cmd->rp.width || (uint64_t)y + h > cmd->rp.height)
        return hl__fail(HL_ERR_VALIDATION, "%s: (%u,%u %ux%u) exceeds the %ux%u attachment", fn, x, y, w, h, cmd->rp.width,
                        cmd->rp.height);
    uint32_t s[4] = {x, y, w, h};
    if (memcmp(s, cmd->scissor, sizeof s) == 0) {
        cmd->dev->stats.redundant_state_skipped++;
        return HL_OK;
    }
    cmd->dev->fns->set_scissor(cmd, s);
    memcpy(cmd->scissor, s, sizeof s);
    return HL_OK;
}

hl_result hl_rhi_cmd_set_blend_constant(hl_rhi_cmd *cmd, const float rgba[4]) {
    const char *fn = "hl_rhi_cmd_set_blend_constant";
    hl_result r = hl__cmd_check(cmd, fn);
    if (r) return r;
    if ((r = hl__need_render_pass(cmd, fn))) return r;
    if (!rgba) return hl__fail(HL_ERR_VALIDATION, "%s: rgba is NULL", fn);
    if (memcmp(rgba, cmd->blend_constant, sizeof cmd->blend_constant) == 0) {
        cmd->dev->stats.redundant_state_skipped++;
        return HL_OK;
    }
    cmd->dev->fns->set_blend_constant(cmd, rgba);
    memcpy(cmd->blend_constant, rgba, sizeof cmd->blend_constant);
    return HL_OK;
}

hl_result hl_rhi_cmd_set_stencil_reference(hl_rhi_cmd *cmd, uint32_t ref) {
    const char *fn = "hl_rhi_cmd_set_stencil_reference";
    hl_result r = hl__cmd_check(cmd, fn);
    if (r) return r;
    if ((r = hl__need_render_pass(cmd, fn))) return r;
    if (ref == cmd->stencil_ref) {
        cmd->dev->stats.redundant_state_skipped++;
        return HL_OK;
    }
    cmd->dev->fns->set_stencil_reference(cmd, ref);
    cmd->stencil_ref = ref;
    return HL_OK;
}

/* ---- draws --------------------------------------------------------------------------------- */
/* Bound groups against the pipeline layout (render or compute); re-checked only after a change. */
static hl_result hl__check_groups(hl_rhi_cmd *cmd, const char *fn) {
    for (uint32_t g = 0; g < cmd->layout_group_count; g++) {
        if (!cmd->bind_group_id[g])
            return hl__fail(HL_ERR_VALIDATION, "%s: bind group %u is not set (the pipeline layout uses it)", fn, g);
        if (cmd->bind_group_cache[g] != cmd->layout_group_cache[g])
            return hl__fail(HL_ERR_VALIDATION, "%s: bind group %u's layout differs from group %u of the pipeline layout", fn, g, g);
    }
    return HL_OK;
}

static inline hl_result hl__check_draw(hl_rhi_cmd *cmd, const char *fn) {
    if (cmd->pass != HL__PASS_RENDER)
        return hl__fail(HL_ERR_INVALID_STATE, "%s: no render pass is open (%s pass is)", fn, hl__pass_names[cmd->pass]);
    if (!cmd->pipeline_id) return hl__fail(HL_ERR_INVALID_STATE, "%s: no pipeline is set", fn);
    if (cmd->draw_dirty) {
        hl_result r = hl__check_groups(cmd, fn);
        if (r) return r;
        for (uint32_t s = 0; s < cmd->pipeline->info.vertex_buffer_count; s++) {
            if (!cmd->vertex_buffer_id[s])
                return hl__fail(HL_ERR_VALIDATION, "%s: vertex buffer slot %u is not set (the pipeline reads it)", fn, s);
        }
        cmd->draw_dirty = false;
    }
    return HL_OK;
}

static inline hl_result hl__draw(hl_rhi_cmd *cmd, uint32_t vertex_count, uint32_t instance_count, uint32_t first_vertex,
                                 uint32_t first_instance, const char *fn) {
    hl_result r = hl__check_draw(cmd, fn);
    if (r) return r;
    hl_rhi_device *dev = cmd->dev;
    if (first_instance && !(dev->caps.features & HL_RHI_FEATURE_FIRST_INSTANCE))
        return hl__fail(HL_ERR_UNSUPPORTED, "%s: first_instance %u needs the first-instance feature", fn, first_instance);
    cmd->fns->draw(cmd, vertex_count, instance_count, first_vertex, first_instance);
    dev->stats.draws++;
    return HL_OK;
}

/* A draw's arguments against the bound index buffer and the device's features (the index buffer
 * and the pipeline's strip format are checked by the caller). */
static inline hl_result hl__check_indexed_args(const hl_rhi_cmd *cmd, uint32_t index_count, uint32_t first_index,
                                               int32_t base_vertex, uint32_t first_instance, const char *fn) {
    uint32_t features = cmd->dev->caps.features;
    if (base_vertex && !(features & HL_RHI_FEATURE_BASE_VERTEX))
        return hl__fail(HL_ERR_UNSUPPORTED, "%s: base_vertex %d needs the base-vertex feature", fn, base_vertex);
    if (first_instance && !(features & HL_RHI_FEATURE_FIRST_INSTANCE))
        return hl__fail(HL_ERR_UNSUPPORTED, "%s: first_instance %u needs the first-instance feature", fn, first_instance);
    if ((uint64_t)first_index + index_count > cmd->index_available)
        return hl__fail(HL_ERR_VALIDATION, "%s: first_index %u + index_count %u exceeds the %llu indices in the index buffer", fn,
                        first_index, index_count, (unsigned long long)cmd->index_available);
    return HL_OK;
}

static inline hl_result hl__draw_indexed(hl_rhi_cmd *cmd, uint32_t index_count, uint32_t instance_count,
                                         uint32_t first_index, int32_t base_vertex, uint32_t first_instance, const char *fn) {
    hl_result r = hl__check_draw(cmd, fn);
    if (r) return r;
    hl_rhi_device *dev = cmd->dev;
    if (!cmd->index_buffer_id) return hl__fail(HL_ERR_VALIDATION, "%s: no index buffer is set", fn);
    if ((r = hl__check_indexed_args(cmd, index_count, first_index, base_vertex, first_instance, fn))) return r;
    const hl__render_pipeline_info *in = &cmd->pipeline->info;
    if ((in->topology == HL_RHI_TOPOLOGY_TRIANGLE_STRIP || in->topology == HL_RHI_TOPOLOGY_LINE_STRIP) &&
        in->strip_index_format != cmd->index_format)
        return hl__fail(HL_ERR_VALIDATION, "%s: the index format differs from the pipeline's strip_index_format", fn);
    cmd->fns->draw_indexed(cmd, index_count, instance_count, first_index, base_vertex, first_instance);
    dev->stats.draws++;
    return HL_OK;
}

hl_result hl_rhi_cmd_draw(hl_rhi_cmd *cmd, uint32_t vertex_count, uint32_t instance_count, uint32_t first_vertex,
                          uint32_t first_instance) {
    const char *fn = "hl_rhi_cmd_draw";
    hl_result r = hl__cmd_check(cmd, fn);
    if (r) return r;
    return hl__draw(cmd, vertex_count, instance_count, first_vertex, first_instance, fn);
}

hl_result hl_rhi_cmd_draw_indexed(hl_rhi_cmd *cmd, uint32_t index_count, uint32_t instance_count, uint32_t first_index,
                                  int32_t base_vertex, uint32_t first_instance) {
    const char *fn = "hl_rhi_cmd_draw_indexed";
    hl_result r = hl__cmd_check(cmd, fn);
    if (r) return r;
    return hl__draw_indexed(cmd, index_count, instance_count, first_index, base_vertex, first_instance, fn);
}

static hl_result hl__draw_indirect(hl_rhi_cmd *cmd, hl_rhi_buffer buf, uint64_t offset, bool indexed, const char *fn) {
    hl_result r = hl__cmd_check(cmd, fn);
    if (r) return r;
    hl_rhi_device *dev = cmd->dev;
    if (!(dev->caps.features & HL_RHI_FEATURE_INDIRECT_DRAW))
        return hl__fail(HL_ERR_UNSUPPORTED, "%s: the %s device lacks the indirect-draw feature", fn,
                        hl_rhi_backend_name(dev->caps.backend));
    if ((r = hl__check_draw(cmd, fn))) return r;
    if (indexed && !cmd->index_buffer_id) return hl__fail(HL_ERR_VALIDATION, "%s: no index buffer is set", fn);
    uint32_t bslot;
    hl__buffer *b = hl__pool_lookup(dev, HL__POOL_BUFFER, buf.id, &bslot);
    if (!b) return hl__fail(HL_ERR_VALIDATION, "%s: buf: " HL__STALE, fn);
    if (!(b->desc.usage & HL_RHI_BUFFER_USAGE_INDIRECT)) return hl__fail(HL_ERR_VALIDATION, "%s: buf lacks INDIRECT usage", fn);
    uint64_t need = indexed ? 20u : 16u;
    if (offset % 4u || offset > b->desc.size || b->desc.size - offset < need)
        return hl__fail(HL_ERR_VALIDATION, "%s: offset %llu + %llu argument bytes is out of bounds or unaligned (buffer size %llu)",
                        fn, (unsigned long long)offset, (unsigned long long)need, (unsigned long long)b->desc.size);
    dev->fns->draw_indirect(cmd, b, offset, indexed);
    dev->stats.draws++;
    hl__use_buffer(dev, bslot, b);
    return HL_OK;
}

hl_result hl_rhi_cmd_draw_indirect(hl_rhi_cmd *cmd, hl_rhi_buffer buf, uint64_t offset) {
    return hl__draw_indirect(cmd, buf, offset, false, "hl_rhi_cmd_draw_indirect");
}

hl_result hl_rhi_cmd_draw_indexed_indirect(hl_rhi_cmd *cmd, hl_rhi_buffer buf, uint64_t offset) {
    return hl__draw_indirect(cmd, buf, offset, true, "hl_rhi_cmd_draw_indexed_indirect");
}

_Static_assert(offsetof(hl_rhi_draw_packet, dynamic_offsets) == sizeof(hl_rhi_render_pipeline) * (1 + HL_RHI_MAX_BIND_GROUPS) &&
                   offsetof(hl_rhi_draw_packet, vertex_buffers) == offsetof(hl_rhi_draw_packet, bind_group_count) + 4 &&
                   offsetof(hl_rhi_draw_packet, index_offset) == offsetof(hl_rhi_draw_packet, index_format) + 4 &&
                   offsetof(hl_rhi_draw_packet, index_format) == offsetof(hl_rhi_draw_packet, index_buffer) + 4 &&
                   offsetof(hl_rhi_draw_packet, count) == offsetof(hl_rhi_draw_packet, index_offset) + 8,
               "hl__same_bindings compares these packet fields as padding-free byte ranges");

/* Packet p binds what packet q (the one before it) bound: after q drew, all of it is bound and
 * was checked with q's draw (pipeline, groups against its layout, buffers, a strip's index format);
 * only dynamic offsets and the draw's arguments may differ. */
static inline bool hl__same_bindings(const hl_rhi_draw_packet *p, const hl_rhi_draw_packet *q) {
    /* first the binding fields compared whole, unused slots and an unindexed packet's index
       fields included (each range has no padding): equal there is the same bindings; a
       difference may be in an unused field only, so the exact check follows */
    if (!memcmp(p, q, offsetof(hl_rhi_draw_packet, dynamic_offsets)) &&
        !memcmp(&p->bind_group_count, &q->bind_group_count, 4) && p->vertex_buffer_count <= 1 &&
        p->vertex_buffers[0].id == q->vertex_buffers[0].id && p->vertex_offsets[0] == q->vertex_offsets[0] &&
        !memcmp(&p->index_buffer, &q->index_buffer, offsetof(hl_rhi_draw_packet, count) - offsetof(hl_rhi_draw_packet, index_buffer)))
        return true;
    if (p->pipeline.id != q->pipeline.id || p->bind_group_count != q->bind_group_count ||
        p->dynamic_offset_mask != q->dynamic_offset_mask || p->vertex_buffer_count != q->vertex_buffer_count ||
        p->indexed != q->indexed)
        return false;
    for (uint32_t g = 0; g < p->bind_group_count; g++)
        if (p->bind_groups[g].id != q->bind_groups[g].id) return false;
    for (uint32_t v = 0; v < p->vertex_buffer_count; v++)
        if (p->vertex_buffers[v].id != q->vertex_buffers[v].id || p->vertex_offsets[v] != q->vertex_offsets[v]) return false;
    return !p->indexed || (p->index_buffer.id == q->index_buffer.id && p->index_format == q->index_format &&
                           p->index_offset == q->index_offset);
}

/* Packet q of a run (it binds what the packet before it bound) checked for its draw: the dynamic
 * offsets that differ from the previous packet's (counted in *switches) and its arguments. */
static inline hl_result hl__check_run_packet(hl_rhi_cmd *cmd, const hl_rhi_draw_packet *q, uint32_t dyn,
                                             uint32_t *switches, const char *fn) {
    for (; dyn; dyn &= dyn - 1u) {
        uint32_t g = (uint32_t)__builtin_ctz(dyn);
        if (q->dynamic_offsets[g] == q[-1].dynamic_offsets[g]) continue;
        hl_result r = hl__check_offsets(cmd, g, &q->dynamic_offsets[g], 1, fn);
        if (r) return r;
        (*switches)++;
    }
    if (q->indexed) return hl__check_indexed_args(cmd, q->count, q->first, q->base_vertex, q->first_instance, fn);
    if (q->first_instance && !(cmd->dev->caps.features & HL_RHI_FEATURE_FIRST_INSTANCE))
        return hl__fail(HL_ERR_UNSUPPORTED, "%s: first_instance %u needs the first-instance feature", fn, q->first_instance);
    return HL_OK;
}

/* The run of packets from p (p[-1] drew, p binds what it bound), at most avail: each packet
 * checked for its draw while the next binds what it bound. Returns the packets checked; *r is
 * the error of the one after them when it failed. With one dynamic group at most (the per-draw
 * case), the group's alignment and bound are read once and a packet with nothing unusual (an
 * offset in range, indices in the buffer, no base vertex or first instance) is checked inline;
 * any other packet takes the full check, which also words the error. */
static inline uint32_t hl__check_run(hl_rhi_cmd *cmd, const hl_rhi_draw_packet *p, uint32_t avail, uint32_t dyn,
                                     uint32_t *switches, hl_result *r, const char *fn) {
    uint32_t n = 0;
    if (dyn & (dyn - 1u)) {
        do {
            if ((*r = hl__check_run_packet(cmd, p + n, dyn, switches, fn))) break;
            n++;
        } while (n < avail && hl__same_bindings(p + n, p + n - 1));
        return n;
    }
    const uint32_t g = dyn ? (uint32_t)__builtin_ctz(dyn) : 0u;
    const uint32_t align_mask = dyn ? cmd->dyn_align[g][0] - 1u : 0u;
    const uint64_t max_offset = dyn ? cmd->dyn_max_offset[g][0] : UINT64_MAX, indices = cmd->index_available;
    const bool indexed = p->indexed; /* the same for the whole run (hl__same_bindings) */
    uint32_t sw = 0;
    do {
        const hl_rhi_draw_packet *q = p + n;
        uint32_t off = q->dynamic_offsets[g];
        bool moved = dyn && off != q[-1].dynamic_offsets[g];
        bool odd = q->first_instance || (moved && ((off & align_mask) || off > max_offset)) ||
                   (indexed && (q->base_vertex || (uint64_t)q->first + q->count > indices));
        if (odd) {
            if ((*r = hl__check_run_packet(cmd, q, dyn, &sw, fn))) break;
        } else {
            sw += moved;
        }
        n++;
    } while (n < avail && hl__same_bindings(p + n, p + n - 1));
    *switches += sw;
    return n;
}

hl_result hl__cmd_draw_packet_list(hl_rhi_cmd *cmd, const hl_rhi_draw_packet *packets, uint32_t count,
                                   uint32_t *failed_index, const char *fn) {
    hl_result r = HL_OK;
    void (*draw_run)(hl_rhi_cmd *, const hl_rhi_draw_packet *, uint32_t, uint32_t) = cmd->fns->draw_run;
    for (uint32_t i = 0; i < count; i++) {
        const hl_rhi_draw_packet *p = &packets[i];
        if (draw_run && i && hl__same_bindings(p, p - 1)) {
            /* the per-draw case of prepared draws: a run of packets with new dynamic offsets at
               most, checked here and drawn by the backend in one call */
            uint32_t dyn = p->dynamic_offset_mask & ((1u << p->bind_group_count) - 1u), switches = 0;
            uint32_t n = hl__check_run(cmd, p, count - i, dyn, &switches, &r, fn);
            if (n) {
                draw_run(cmd, p, n, dyn);
                for (uint32_t b = dyn; b; b &= b - 1u)
                    cmd->bind_group_offsets[__builtin_ctz(b)][0] = p[n - 1].dynamic_offsets[__builtin_ctz(b)];
                cmd->dev->stats.draws += n;
                cmd->dev->stats.bind_group_switches += switches;
            }
            i += n;
            if (r) goto fail;
            i--;
            continue;
        }
        /* Handles equal to the bound ones are live (destroy unbinds), so only changes are looked up. */
        if (p->pipeline.id != cmd->pipeline_id || !p->pipeline.id) {
            if ((r = hl__bind_pipeline(cmd, p->pipeline.id, fn))) goto fail;
        }
        if (p->bind_group_count > HL_RHI_MAX_BIND_GROUPS || p->vertex_buffer_count > HL_RHI_MAX_VERTEX_BUFFERS) {
            r = hl__fail(HL_ERR_VALIDATION, "%s: packets[%u]: bind_group_count %u / vertex_buffer_count %u out of range", fn, i,
                         p->bind_group_count, p->vertex_buffer_count);
            goto fail;
        }
        for (uint32_t g = 0; g < p->bind_group_count; g++) {
            uint32_t n = (p->dynamic_offset_mask >> g) & 1u;
            const uint32_t *off = &p->dynamic_offsets[g];
            if (p->bind_groups[g].id && cmd->bind_group_id[g] == p->bind_groups[g].id &&
                cmd->bind_group_offset_count[g] == n) {
                if (n && cmd->bind_group_offsets[g][0] != *off && (r = hl__rebind_offsets(cmd, g, off, n, fn))) goto fail;
            } else if ((r = hl__apply_bind_group(cmd, g, p->bind_groups[g].id, off, n, fn))) {
                goto fail;
            }
        }
        for (uint32_t v = 0; v < p->vertex_buffer_count; v++) {
            if (!p->vertex_buffers[v].id || cmd->vertex_buffer_id[v] != p->vertex_buffers[v].id ||
                cmd->vertex_buffer_offset[v] != p->vertex_offsets[v]) {
                if ((r = hl__bind_vertex_buffer(cmd, v, p->vertex_buffers[v].id, p->vertex_offsets[v], fn))) goto fail;
            }
        }
        uint32_t instances = p->instance_count ? p->instance_count : 1u;
        if (p->indexed) {
            if (!p->index_buffer.id || p->index_buffer.id != cmd->index_buffer_id || p->index_format != cmd->index_format ||
                p->index_offset != cmd->index_offset) {
                if ((r = hl__bind_index_buffer(cmd, p->index_buffer.id, p->index_format, p->index_offset, fn))) goto fail;
            }
            r = hl__draw_indexed(cmd, p->count, instances, p->first, p->base_vertex, p->first_instance, fn);
        } else {
            r = hl__draw(cmd, p->count, instances, p->first, p->first_instance, fn);
        }
        if (r) goto fail;
        continue;
    fail:
        if (failed_index) *failed_index = i;
        return r;
    }
    return HL_OK;
}

hl_result hl_rhi_cmd_draw_packets(hl_rhi_cmd *cmd, const hl_rhi_draw_packet *packets, uint32_t count,
                                  uint32_t *failed_index) {
    const char *fn = "hl_rhi_cmd_draw_packets";
    hl_result r = hl__cmd_check(cmd, fn);
    if (!r) r = hl__need_render_pass(cmd, fn);
    if (!r && count && !packets) r = hl__fail(HL_ERR_VALIDATION, "%s: packets is NULL", fn);
    if (r) {
        if (failed_index) *failed_index = 0;
        return r;
    }
    if ((r = hl__cmd_draw_packet_list(cmd, packets, count, failed_index, fn))) return r;
    if (cmd->dev->tap && cmd->dev->tap->packets) cmd->dev->tap->packets(cmd->dev->tap->user, packets, count);
    return HL_OK;
}

void hl__rhi_set_tap(hl_rhi_device *dev, const hl__rhi_tap *tap) {
    if (dev) dev->tap = tap;
}

/* ---- compute ------------------------------------------------------------------------------- */
static hl_result hl__need_compute_feature(const hl_rhi_device *dev, const char *fn) {
    if (!(dev->caps.features & HL_RHI_FEATURE_COMPUTE))
        return hl__fail(HL_ERR_UNSUPPORTED, "%s: the %s device has no compute support", fn, hl_rhi_backend_name(dev->caps.backend));
    return HL_OK;
}

hl_result hl_rhi_cmd_begin_compute_pass(hl_rhi_cmd *cmd, const char *label) {
    const char *fn = "hl_rhi_cmd_begin_compute_pass";
    hl_result r = hl__cmd_check(cmd, fn);
    if (r) return r;
    if ((r = hl__need_compute_feature(cmd->dev, fn))) return r;
    if (cmd->pass != HL__PASS_NONE)
        return hl__fail(HL_ERR_INVALID_STATE, "%s: %s pass is already open", fn, hl__pass_names[cmd->pass]);
    hl__cmd_reset_bindings(cmd);
    memset(&cmd->rp, 0, sizeof cmd->rp);
    if ((r = cmd->dev->fns->begin_compute_pass(cmd, label))) return r;
    cmd->pass = HL__PASS_COMPUTE;
    return HL_OK;
}

hl_result hl_rhi_cmd_end_compute_pass(hl_rhi_cmd *cmd) {
    const char *fn = "hl_rhi_cmd_end_compute_pass";
    hl_result r = hl__cmd_check(cmd, fn);
    if (r) return r;
    if ((r = hl__need_compute_pass(cmd, fn))) return r;
    r = cmd->dev->fns->end_compute_pass(cmd);
    cmd->pass = HL__PASS_NONE;
    hl__cmd_reset_bindings(cmd);
    return r;
}

hl_result hl_rhi_cmd_set_compute_pipeline(hl_rhi_cmd *cmd, hl_rhi_compute_pipeline p) {
    const char *fn = "hl_rhi_cmd_set_compute_pipeline";
    hl_result r = hl__cmd_check(cmd, fn);
    if (r) return r;
    hl_rhi_device *dev = cmd->dev;
    if ((r = hl__need_compute_feature(dev, fn))) return r;
    if ((r = hl__need_compute_pass(cmd, fn))) return r;
    if (p.id && p.id == cmd->compute_pipeline_id) {
        dev->stats.redundant_state_skipped++;
        return HL_OK;
    }
    uint32_t slot;
    hl__compute_pipeline *cp = hl__pool_lookup(dev, HL__POOL_COMPUTE_PIPELINE, p.id, &slot);
    if (!cp) return hl__fail(HL_ERR_VALIDATION, "%s: p: " HL__STALE, fn);
    dev->fns->set_compute_pipeline(cmd, cp);
    cmd->compute_pipeline_id = p.id;
    cmd->compute_pipeline = cp;
    hl__load_layout_groups(cmd, cp->layout_cache_index);
    cmd->draw_dirty = true;
    dev->stats.pipeline_switches++;
    hl__use_slot(dev, HL__POOL_COMPUTE_PIPELINE, slot);
    return HL_OK;
}

static hl_result hl__check_dispatch(hl_rhi_cmd *cmd, const char *fn) {
    hl_result r = hl__cmd_check(cmd, fn);
    if (r) return r;
    if ((r = hl__need_compute_feature(cmd->dev, fn))) return r;
    if ((r = hl__need_compute_pass(cmd, fn))) return r;
    if (!cmd->compute_pipeline_id) return hl__fail(HL_ERR_INVALID_STATE, "%s: no compute pipeline is set", fn);
    if (cmd->draw_dirty) {
        if ((r = hl__check_groups(cmd, fn))) return r;
        cmd->draw_dirty = false;
    }
    return HL_OK;
}

hl_result hl_rhi_cmd_dispatch(hl_rhi_cmd *cmd, uint32_t x, uint32_t y, uint32_t z) {
    const char *fn = "hl_rhi_cmd_dispatch";
    hl_result r = hl__check_dispatch(cmd, fn);
    if (r) return r;
    hl_rhi_device *dev = cmd->dev;
    uint32_t max = dev->caps.limits.max_compute_workgroups_per_dimension;
    if (x > max || y > max || z > max)
        return hl__fail(HL_ERR_VALIDATION, "%s: (%u, %u, %u) exceeds max_compute_workgroups_per_dimension %u", fn, x, y, z, max);
    dev->fns->dispatch(cmd, x, y, z);
    dev->stats.dispatches++;
    return HL_OK;
}

hl_result hl_rhi_cmd_dispatch_indirect(hl_rhi_cmd *cmd, hl_rhi_buffer buf, uint64_t offset) {
    const char *fn = "hl_rhi_cmd_dispatch_indirect";
    hl_result r = hl__check_dispatch(cmd, fn);
    if (r) return r;
    hl_rhi_device *dev = cmd->dev;
    uint32_t bslot;
    hl__buffer *b = hl__pool_lookup(dev, HL__POOL_BUFFER, buf.id, &bslot);
    if (!b) return hl__fail(HL_ERR_VALIDATION, "%s: buf: " HL__STALE, fn);
    if (!(b->desc.usage & HL_RHI_BUFFER_USAGE_INDIRECT)) return hl__fail(HL_ERR_VALIDATION, "%s: buf lacks INDIRECT usage", fn);
    if (offset % 4u || offset > b->desc.size || b->desc.size - offset < 12u)
        return hl__fail(HL_ERR_VALIDATION, "%s: offset %llu + 12 argument bytes is out of bounds or unaligned (buffer size %llu)",
                        fn, (unsigned long long)offset, (unsigned long long)b->desc.size);
    dev->fns->dispatch_indirect(cmd, b, offset);
    dev->stats.dispatches++;
    hl__use_buffer(dev, bslot, b);
    return HL_OK;
}

/* ---- copies and clears --------------------------------------------------------------------- */
static hl_result hl__copy_prologue(hl_rhi_cmd *cmd, const char *fn) {
    hl_result r = hl__cmd_check(cmd, fn);
    if (r) return r;
    return hl__need_no_pass(cmd, fn);
}

hl_result hl_rhi_cmd_copy_buffer_to_buffer(hl_rhi_cmd *cmd, hl_rhi_buffer src, uint64_t src_offset, hl_rhi_buffer dst,
                                           uint64_t dst_offset, uint64_t size) {
    const char *fn = "hl_rhi_cmd_copy_buffer_to_buffer";
    hl_result r = hl__copy_prologue(cmd, fn);
    if (r) return r;
    hl_rhi_device *dev = cmd->dev;
    uint32_t ss, ds;
    hl__buffer *s = hl__pool_lookup(dev, HL__POOL_BUFFER, src.id, &ss);
    if (!s) return hl__fail(HL_ERR_VALIDATION, "%s: src: " HL__STALE, fn);
    hl__buffer *d = hl__pool_lookup(dev, HL__POOL_BUFFER, dst.id, &ds);
    if (!d) return hl__fail(HL_ERR_VALIDATION, "%s: dst: " HL__STALE, fn);
    if (src.id == dst.id) return hl__fail(HL_ERR_VALIDATION, "%s: src and dst are the same buffer", fn);
    if (!(s->desc.usage & HL_RHI_BUFFER_USAGE_COPY_SRC)) return hl__fail(HL_ERR_VALIDATION, "%s: src lacks COPY_SRC usage", fn);
    if (!(d->desc.usage & HL_RHI_BUFFER_USAGE_COPY_DST)) return hl__fail(HL_ERR_VALIDATION, "%s: dst lacks COPY_DST usage", fn);
    if (src_offset % 4u || dst_offset % 4u || size % 4u)
        return hl__fail(HL_ERR_VALIDATION, "%s: src_offset, dst_offset and size must be multiples of 4", fn);
    if (src_offset > s->desc.size || size > s->desc.size - src_offset)
        return hl__fail(HL_ERR_VALIDATION, "%s: src_offset %llu + size %llu is out of bounds (src size %llu)", fn,
                        (unsigned long long)src_offset, (unsigned long long)size, (unsigned long long)s->desc.size);
    if (dst_offset > d->desc.size || size > d->desc.size - dst_offset)
        return hl__fail(HL_ERR_VALIDATION, "%s: dst_offset %llu + size %llu is out of bounds (dst size %llu)", fn,
                        (unsigned long long)dst_offset, (unsigned long long)size, (unsigned long long)d->desc.size);
    if (size == 0) return HL_OK;
    if ((r = dev->fns->copy_buffer_to_buffer(cmd, s, src_offset, d, dst_offset, size))) return r;
    hl__use_buffer(dev, ss, s);
    hl__use_buffer(dev, ds, d);
    return HL_OK;
}

/* Region inside texture t (zero extents filled in). */
static hl_result hl__copy_region(const char *fn, const char *field, const hl__texture *t, const hl_rhi_texture_region *in,
                                 hl_rhi_texture_region *out) {
    hl_rhi_texture_region r = in ? *in : (hl_rhi_texture_region){0};
    const hl_rhi_texture_desc *d = &t->desc;
    if (r.mip_level >= d->mip_levels)
        return hl__fail(HL_ERR_VALIDATION, "%s: %s.mip_level %u is out of range (texture has %u levels)", fn, field, r.mip_level,
                        d->mip_levels);
    uint32_t mw = hl__mip_extent(d->width, r.mip_level), mh = hl__mip_extent(d->height, r.mip_level);
    uint32_t md = d->dimension == HL_RHI_TEXTURE_3D ? hl__mip_extent(d->depth_or_layers, r.mip_level) : d->depth_or_layers;
    if (r.x >= mw || r.y >= mh || r.z_or_layer >= md)
        return hl__fail(HL_ERR_VALIDATION, "%s: %s origin (%u,%u,%u) is out of bounds (level %u is %ux%ux%u)", fn, field, r.x,
                        r.y, r.z_or_layer, r.mip_level, mw, mh, md);
    if (!r.width) r.width = mw - r.x;
    if (!r.height) r.height = mh - r.y;
    if (!r.depth_or_layers) r.depth_or_layers = md - r.z_or_layer;
    if (r.width > mw - r.x || r.height > mh - r.y || r.depth_or_layers > md - r.z_or_layer)
        return hl__fail(HL_ERR_VALIDATION, "%s: %s (%u,%u,%u)+(%ux%ux%u) is out of bounds (level %u is %ux%ux%u)", fn, field,
                        r.x, r.y, r.z_or_layer, r.width, r.height, r.depth_or_layers, r.mip_level, mw, mh, md);
    *out = r;
    return HL_OK;
}

static hl_result hl__copyable(const char *fn, const char *field, const hl__texture *t) {
    if (!hl__format_texel_size(t->desc.format) || t->desc.sample_count != 1)
        return hl__fail(HL_ERR_VALIDATION, "%s: %s (format %s, %u samples) cannot be copied", fn, field,
                        hl_rhi_format_get_info(t->desc.format)->name, t->desc.sample_count);
    return HL_OK;
}

hl_result hl_rhi_cmd_copy_texture_to_texture(hl_rhi_cmd *cmd, hl_rhi_texture src, const hl_rhi_texture_region *src_region,
                                             hl_rhi_texture dst, uint32_t dst_mip_level, uint32_t dst_x, uint32_t dst_y,
                                             uint32_t dst_z_or_layer) {
    const char *fn = "hl_rhi_cmd_copy_texture_to_texture";
    hl_result r = hl__copy_prologue(cmd, fn);
    if (r) return r;
    hl_rhi_device *dev = cmd->dev;
    uint32_t ss, ds;
    hl__texture *s = hl__pool_lookup(dev, HL__POOL_TEXTURE, src.id, &ss);
    if (!s) return hl__fail(HL_ERR_VALIDATION, "%s: src: " HL__STALE, fn);
    hl__texture *d = hl__pool_lookup(dev, HL__POOL_TEXTURE, dst.id, &ds);
    if (!d) return hl__fail(HL_ERR_VALIDATION, "%s: dst: " HL__STALE, fn);
    if (!(s->desc.usage & HL_RHI_TEXTURE_USAGE_COPY_SRC)) return hl__fail(HL_ERR_VALIDATION, "%s: src lacks COPY_SRC usage", fn);
    if (!(d->desc.usage & HL_RHI_TEXTURE_USAGE_COPY_DST)) return hl__fail(HL_ERR_VALIDATION, "%s: dst lacks COPY_DST usage", fn);
    if (s->desc.format != d->desc.format)
        return hl__fail(HL_ERR_VALIDATION, "%s: src format %s differs from dst format %s", fn,
                        hl_rhi_format_get_info(s->desc.format)->name, hl_rhi_format_get_info(d->desc.format)->name);
    if ((r = hl__copyable(fn, "src", s)) || (r = hl__copyable(fn, "dst", d))) return r;
    hl_rhi_texture_region sr, dr;
    if ((r = hl__copy_region(fn, "src_region", s, src_region, &sr))) return r;
    hl_rhi_texture_region din = {dst_mip_level, dst_x, dst_y, dst_z_or_layer, sr.width, sr.height, sr.depth_or_layers};
    if ((r = hl__copy_region(fn, "dst region", d, &din, &dr))) return r;
    if (src.id == dst.id && sr.mip_level == dr.mip_level && sr.z_or_layer < dr.z_or_layer + dr.depth_or_layers &&
        dr.z_or_layer < sr.z_or_layer + sr.depth_or_layers)
        return hl__fail(HL_ERR_VALIDATION, "%s: src and dst are the same subresources of one texture", fn);
    if ((r = dev->fns->copy_texture_to_texture(cmd, s, &sr, d, &dr))) return r;
    hl__use_texture(dev, ss, s);
    hl__use_texture(dev, ds, d);
    return HL_OK;
}

/* Checks a buffer side of a buffer<->texture copy. */
static hl_result hl__check_linear(const char *fn, const char *field, const hl__buffer *b, uint64_t offset,
                                  uint32_t bytes_per_row, const hl__texture *t, const hl_rhi_texture_region *reg) {
    uint32_t texel = hl__format_texel_size(t->desc.format);
    uint64_t row = (uint64_t)reg->width * texel;
    if (bytes_per_row % 256u)
        return hl__fail(HL_ERR_VALIDATION, "%s: bytes_per_row %u is not a multiple of 256", fn, bytes_per_row);
    if (bytes_per_row < row)
        return hl__fail(HL_ERR_VALIDATION, "%s: bytes_per_row %u is less than one row (%llu bytes)", fn, bytes_per_row,
                        (unsigned long long)row);
    if (offset % texel) return hl__fail(HL_ERR_VALIDATION, "%s: %s offset %llu is not a multiple of the texel size %u", fn,
                                        field, (unsigned long long)offset, texel);
    uint64_t need = (uint64_t)bytes_per_row * reg->height * (reg->depth_or_layers - 1u) +
                    (uint64_t)bytes_per_row * (reg->height - 1u) + row;
    if (offset > b->desc.size || need > b->desc.size - offset)
        return hl__fail(HL_ERR_VALIDATION, "%s: %s offset %llu + %llu bytes is out of bounds (buffer size %llu)", fn, field,
                        (unsigned long long)offset, (unsigned long long)need, (unsigned long long)b->desc.size);
    return HL_OK;
}

/* Both directions of a buffer<->texture copy: the same checks with the roles of src and dst
 * swapped (to_texture: the buffer is src). Checks run src first, as the messages name them. */
static hl_result hl__buffer_texture_copy(hl_rhi_cmd *cmd, const char *fn, bool to_texture, hl_rhi_buffer buf,
                                         uint64_t buf_offset, uint32_t bytes_per_row, hl_rhi_texture tex,
                                         const hl_rhi_texture_region *region) {
    hl_result r = hl__copy_prologue(cmd, fn);
    if (r) return r;
    hl_rhi_device *dev = cmd->dev;
    const char *bname = to_texture ? "src" : "dst", *tname = to_texture ? "dst" : "src";
    uint32_t bs, ts;
    hl__buffer *b = NULL;
    hl__texture *t = NULL;
    for (int side = 0; side < 2; side++) { /* side 0 = src */
        if ((side == 0) == to_texture) {
            if (!(b = hl__pool_lookup(dev, HL__POOL_BUFFER, buf.id, &bs)))
                return hl__fail(HL_ERR_VALIDATION, "%s: %s: " HL__STALE, fn, bname);
        } else if (!(t = hl__pool_lookup(dev, HL__POOL_TEXTURE, tex.id, &ts))) {
            return hl__fail(HL_ERR_VALIDATION, "%s: %s: " HL__STALE, fn, tname);
        }
    }
    bool buf_ok = b->desc.usage & (to_texture ? HL_RHI_BUFFER_USAGE_COPY_SRC : HL_RHI_BUFFER_USAGE_COPY_DST);
    bool tex_ok = t->desc.usage & (to_texture ? HL_RHI_TEXTURE_USAGE_COPY_DST : HL_RHI_TEXTURE_USAGE_COPY_SRC);
    if (!(to_texture ? buf_ok : tex_ok)) return hl__fail(HL_ERR_VALIDATION, "%s: src lacks COPY_SRC usage", fn);
    if (!(to_texture ? tex_ok : buf_ok)) return hl__fail(HL_ERR_VALIDATION, "%s: dst lacks COPY_DST usage", fn);
    if ((r = hl__copyable(fn, tname, t))) return r;
    hl_rhi_texture_region reg;
    if ((r = hl__copy_region(fn, to_texture ? "dst_region" : "src_region", t, region, &reg))) return r;
    if ((r = hl__check_linear(fn, bname, b, buf_offset, bytes_per_row, t, &reg))) return r;
    r = to_texture ? dev->fns->copy_buffer_to_texture(cmd, b, buf_offset, bytes_per_row, t, &reg)
                   : dev->fns->copy_texture_to_buffer(cmd, t, &reg, b, buf_offset, bytes_per_row);
    if (r) return r;
    hl__use_buffer(dev, bs, b);
    hl__use_texture(dev, ts, t);
    return HL_OK;
}

hl_result hl_rhi_cmd_copy_buffer_to_texture(hl_rhi_cmd *cmd, hl_rhi_buffer src, uint64_t src_offset, uint32_t bytes_per_row,
                                            hl_rhi_texture dst, const hl_rhi_texture_region *dst_region) {
    return hl__buffer_texture_copy(cmd, "hl_rhi_cmd_copy_buffer_to_texture", true, src, src_offset, bytes_per_row, dst,
                                   dst_region);
}

hl_result hl_rhi_cmd_copy_texture_to_buffer(hl_rhi_cmd *cmd, hl_rhi_texture src, const hl_rhi_texture_region *src_region,
                                            hl_rhi_buffer dst, uint64_t dst_offset, uint32_t bytes_per_row) {
    return hl__buffer_texture_copy(cmd, "hl_rhi_cmd_copy_texture_to_buffer", false, dst, dst_offset, bytes_per_row, src,
                                   src_region);
}

hl_result hl_rhi_cmd_clear_buffer(hl_rhi_cmd *cmd, hl_rhi_buffer buf, uint64_t offset, uint64_t size) {
    const char *fn = "hl_rhi_cmd_clear_buffer";
    hl_result r = hl__copy_prologue(cmd, fn);
    if (r) return r;
    hl_rhi_device *dev = cmd->dev;
    uint32_t bs;
    hl__buffer *b = hl__pool_lookup(dev, HL__POOL_BUFFER, buf.id, &bs);
    if (!b) return hl__fail(HL_ERR_VALIDATION, "%s: buf: " HL__STALE, fn);
    if (!(b->desc.usage & HL_RHI_BUFFER_USAGE_COPY_DST)) return hl__fail(HL_ERR_VALIDATION, "%s: buf lacks COPY_DST usage", fn);
    if (offset % 4u || size % 4u)
        return hl__fail(HL_ERR_VALIDATION, "%s: offset %llu and size %llu must be multiples of 4", fn,
                        (unsigned long long)offset, (unsigned long long)size);
    if (offset > b->desc.size)
        return hl__fail(HL_ERR_VALIDATION, "%s: offset %llu is out of bounds (buffer size %llu)", fn,
                        (unsigned long long)offset, (unsigned long long)b->desc.size);
    if (size == 0) size = b->desc.size - offset;
    if (size > b->desc.size - offset)
        return hl__fail(HL_ERR_VALIDATION, "%s: offset %llu + size %llu is out of bounds (buffer size %llu)", fn,
                        (unsigned long long)offset, (unsigned long long)size, (unsigned long long)b->desc.size);
    if (size == 0) return HL_OK;
    if ((r = dev->fns->clear_buffer(cmd, b, offset, size))) return r;
    hl__use_buffer(dev, bs, b);
    return HL_OK;
}

hl_result hl_rhi_cmd_generate_mipmaps(hl_rhi_cmd *cmd, hl_rhi_texture tex) {
    const char *fn = "hl_rhi_cmd_generate_mipmaps";
    hl_result r = hl__copy_prologue(cmd, fn);
    if (r) return r;
    hl_rhi_device *dev = cmd->dev;
    uint32_t ts;
    hl__texture *t = hl__pool_lookup(dev, HL__POOL_TEXTURE, tex.id, &ts);
    if (!t) return hl__fail(HL_ERR_VALIDATION, "%s: tex: " HL__STALE, fn);
    const hl_rhi_texture_desc *d = &t->desc;
    const hl_rhi_format_info *fi = hl_rhi_format_get_info(d->format);
    uint32_t need = HL_RHI_TEXTURE_USAGE_SAMPLED | HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT;
    if ((d->usage & need) != need)
        return hl__fail(HL_ERR_VALIDATION, "%s: tex needs SAMPLED and RENDER_ATTACHMENT usage", fn);
    if (d->dimension != HL_RHI_TEXTURE_2D || d->depth_or_layers != 1 || d->sample_count != 1 || fi->is_depth)
        return hl__fail(HL_ERR_VALIDATION, "%s: tex must be a single-layer, single-sampled 2D colour texture", fn);
    uint32_t caps = dev->caps.formats[d->format].flags;
    if (!(caps & HL_RHI_FORMAT_CAP_FILTERABLE) || !(caps & HL_RHI_FORMAT_CAP_RENDERABLE))
        return hl__fail(HL_ERR_VALIDATION, "%s: format %s must be filterable and renderable", fn, fi->name);
    if (d->mip_levels == 1) return HL_OK;
    if ((r = dev->fns->generate_mipmaps(cmd, t))) return r;
    hl__use_texture(dev, ts, t);
    return HL_OK;
}
