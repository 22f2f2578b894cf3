/* Bind group layouts, bind groups, pipeline layouts, render and compute pipelines. */
#include <string.h>

#include "core_private.h"

#define HL__STALE "handle is destroyed or stale"

static const char *const hl__binding_type_names[] = {"uniform buffer",  "storage buffer", "read-only storage buffer",
                                                     "sampled texture", "sampler",        "comparison sampler",
                                                     "storage texture"};

static bool hl__is_buffer_binding(hl_rhi_binding_type t) {
    return t == HL_RHI_BINDING_UNIFORM_BUFFER || t == HL_RHI_BINDING_STORAGE_BUFFER ||
           t == HL_RHI_BINDING_READ_ONLY_STORAGE_BUFFER;
}

/* ---- bind group layouts -------------------------------------------------------------------- */
static hl_result hl__validate_bind_group_layout(const hl_rhi_device *dev, const hl_rhi_bind_group_layout_desc *desc,
                                                hl__bind_group_layout *out) {
    const char *fn = "hl_rhi_bind_group_layout_create";
    if (!desc) return hl__fail(HL_ERR_VALIDATION, "%s: desc is NULL", fn);
    if (desc->entry_count > HL_RHI_MAX_BINDINGS)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.entry_count %u exceeds %u", fn, desc->entry_count, HL_RHI_MAX_BINDINGS);
    if (desc->entry_count && !desc->entries) return hl__fail(HL_ERR_VALIDATION, "%s: desc.entries is NULL", fn);
    const hl_rhi_limits *lim = &dev->caps.limits;
    uint32_t features = dev->caps.features;
    uint32_t per_stage[3][4] = {{0}}; /* stage x {uniform, sampled texture, sampler, storage buffer} */
    memset(out, 0, sizeof *out);
    for (uint32_t i = 0; i < desc->entry_count; i++) {
        const hl_rhi_bind_group_layout_entry *e = &desc->entries[i];
        if (e->binding >= 1000)
            return hl__fail(HL_ERR_VALIDATION, "%s: desc.entries[%u].binding %u is too large (max 999)", fn, i, e->binding);
        for (uint32_t j = 0; j < i; j++) {
            if (desc->entries[j].binding == e->binding)
                return hl__fail(HL_ERR_VALIDATION, "%s: desc.entries[%u].binding %u duplicates entries[%u]", fn, i, e->binding, j);
        }
        if (e->visibility == 0)
            return hl__fail(HL_ERR_VALIDATION, "%s: desc.entries[%u].visibility is 0 (must name a stage)", fn, i);
        if (e->visibility & ~7u)
            return hl__fail(HL_ERR_VALIDATION, "%s: desc.entries[%u].visibility has unknown bits 0x%x", fn, i, e->visibility);
        if ((e->visibility & HL_RHI_STAGE_COMPUTE) && !(features & HL_RHI_FEATURE_COMPUTE))
            return hl__fail(HL_ERR_UNSUPPORTED, "%s: desc.entries[%u].visibility COMPUTE needs the compute feature", fn, i);
        if ((unsigned)e->type > HL_RHI_BINDING_STORAGE_TEXTURE)
            return hl__fail(HL_ERR_VALIDATION, "%s: desc.entries[%u].type %d is out of range", fn, i, (int)e->type);
        if ((e->type == HL_RHI_BINDING_STORAGE_BUFFER || e->type == HL_RHI_BINDING_READ_ONLY_STORAGE_BUFFER) &&
            !(features & HL_RHI_FEATURE_STORAGE_BUFFER))
            return hl__fail(HL_ERR_UNSUPPORTED, "%s: desc.entries[%u].type %s needs the storage-buffer feature, which the %s device lacks",
                            fn, i, hl__binding_type_names[e->type], hl_rhi_backend_name(dev->caps.backend));
        if (e->type == HL_RHI_BINDING_STORAGE_TEXTURE && !(features & HL_RHI_FEATURE_STORAGE_TEXTURE))
            return hl__fail(HL_ERR_UNSUPPORTED, "%s: desc.entries[%u].type storage texture needs the storage-texture feature, which the %s device lacks",
                            fn, i, hl_rhi_backend_name(dev->caps.backend));
        if (e->type == HL_RHI_BINDING_STORAGE_BUFFER && (e->visibility & HL_RHI_STAGE_VERTEX))
            return hl__fail(HL_ERR_VALIDATION, "%s: desc.entries[%u]: a writable storage buffer cannot be visible to VERTEX", fn, i);
        if (e->has_dynamic_offset && !hl__is_buffer_binding(e->type))
            return hl__fail(HL_ERR_VALIDATION, "%s: desc.entries[%u].has_dynamic_offset is only for buffer bindings", fn, i);
        if ((unsigned)e->sample_type > HL_RHI_SAMPLE_SINT)
            return hl__fail(HL_ERR_VALIDATION, "%s: desc.entries[%u].sample_type is out of range", fn, i);
        if ((unsigned)e->view_dimension > HL_RHI_TEXTURE_CUBE)
            return hl__fail(HL_ERR_VALIDATION, "%s: desc.entries[%u].view_dimension is out of range", fn, i);
        if (e->multisampled) {
            if (e->type != HL_RHI_BINDING_SAMPLED_TEXTURE || e->view_dimension != HL_RHI_TEXTURE_2D)
                return hl__fail(HL_ERR_VALIDATION, "%s: desc.entries[%u].multisampled needs a 2D sampled texture binding", fn, i);
            if (e->sample_type == HL_RHI_SAMPLE_FLOAT)
                return hl__fail(HL_ERR_VALIDATION, "%s: desc.entries[%u]: a multisampled texture cannot use sample_type FLOAT (filterable)",
                                fn, i);
        }
        if (e->type == HL_RHI_BINDING_STORAGE_TEXTURE) {
            if (!hl__format_valid(e->storage_format))
                return hl__fail(HL_ERR_VALIDATION, "%s: desc.entries[%u].storage_format is not a texture format", fn, i);
            if (!(dev->caps.formats[e->storage_format].flags & HL_RHI_FORMAT_CAP_STORAGE))
                return hl__fail(HL_ERR_UNSUPPORTED, "%s: desc.entries[%u].storage_format %s has no storage support", fn, i,
                                hl_rhi_format_get_info(e->storage_format)->name);
            if (e->view_dimension == HL_RHI_TEXTURE_CUBE)
                return hl__fail(HL_ERR_VALIDATION, "%s: desc.entries[%u]: a storage texture cannot be a cube view", fn, i);
        }
        int kind = e->type == HL_RHI_BINDING_UNIFORM_BUFFER    ? 0
                   : e->type == HL_RHI_BINDING_SAMPLED_TEXTURE ? 1
                   : (e->type == HL_RHI_BINDING_SAMPLER || e->type == HL_RHI_BINDING_COMPARISON_SAMPLER) ? 2
                   : hl__is_buffer_binding(e->type)              ? 3
                                                                 : -1;
        for (int s = 0; s < 3 && kind >= 0; s++)
            if (e->visibility & (1u << s)) per_stage[s][kind]++;

        /* Canonical copy: every field explicitly, padding zero (the cache key). */
        hl_rhi_bind_group_layout_entry c;
        memset(&c, 0, sizeof c);
        c.binding = e->binding;
        c.visibility = e->visibility;
        c.type = e->type;
        c.has_dynamic_offset = e->has_dynamic_offset;
        if (hl__is_buffer_binding(e->type)) c.min_binding_size = e->min_binding_size;
        if (e->type == HL_RHI_BINDING_SAMPLED_TEXTURE) {
            c.sample_type = e->sample_type;
            c.multisampled = e->multisampled;
        }
        if (e->type == HL_RHI_BINDING_SAMPLED_TEXTURE || e->type == HL_RHI_BINDING_STORAGE_TEXTURE)
            c.view_dimension = e->view_dimension;
        if (e->type == HL_RHI_BINDING_STORAGE_TEXTURE) c.storage_format = e->storage_format;
        /* insertion sort by binding */
        uint32_t k = out->entry_count;
        while (k > 0 && out->entries[k - 1].binding > c.binding) {
            out->entries[k] = out->entries[k - 1];
            k--;
        }
        out->entries[k] = c;
        out->entry_count++;
        if (c.has_dynamic_offset) out->dynamic_count++;
    }
    static const char *const stage_names[3] = {"vertex", "fragment", "compute"};
    for (int s = 0; s < 3; s++) {
        if (per_stage[s][0] > lim->max_uniform_buffers_per_stage)
            return hl__fail(HL_ERR_VALIDATION, "%s: %u uniform buffers visible to the %s stage exceed the limit %u", fn,
                            per_stage[s][0], stage_names[s], lim->max_uniform_buffers_per_stage);
        if (per_stage[s][1] > lim->max_sampled_textures_per_stage)
            return hl__fail(HL_ERR_VALIDATION, "%s: %u sampled textures visible to the %s stage exceed the limit %u", fn,
                            per_stage[s][1], stage_names[s], lim->max_sampled_textures_per_stage);
        if (per_stage[s][2] > lim->max_samplers_per_stage)
            return hl__fail(HL_ERR_VALIDATION, "%s: %u samplers visible to the %s stage exceed the limit %u", fn,
                            per_stage[s][2], stage_names[s], lim->max_samplers_per_stage);
        if (per_stage[s][3] > lim->max_storage_buffers_per_stage)
            return hl__fail(HL_ERR_VALIDATION, "%s: %u storage buffers visible to the %s stage exceed the limit %u", fn,
                            per_stage[s][3], stage_names[s], lim->max_storage_buffers_per_stage);
    }
    return HL_OK;
}

static hl_result hl__bgl_native_create(hl_rhi_device *dev, void *ctx, hl__native *be) {
    return dev->fns->bgl_create(dev, ctx, be);
}

hl_result hl_rhi_bind_group_layout_create(hl_rhi_device *dev, const hl_rhi_bind_group_layout_desc *desc,
                                          hl_rhi_bind_group_layout *out) {
    const char *fn = "hl_rhi_bind_group_layout_create";
    hl_result r = hl__check_device(dev, fn);
    if (r) return r;
    if (!out) return hl__fail(HL_ERR_VALIDATION, "%s: out is NULL", fn);
    out->id = 0;
    hl__bind_group_layout l;
    if ((r = hl__validate_bind_group_layout(dev, desc, &l))) return r;
    uint32_t index;
    r = hl__cache_acquire(dev, HL__CACHE_BGL, l.entries, (uint32_t)(l.entry_count * sizeof l.entries[0]),
                          hl__bgl_native_create, &l, &index);
    if (r) return r;
    uint32_t id;
    hl__bind_group_layout *obj = hl__cached_handle(dev, HL__POOL_BGL, index, &l, sizeof l, &id);
    if (!obj) return HL_ERR_OUT_OF_MEMORY;
    obj->cache_index = index;
    obj->be = dev->cache[index].be;
    out->id = id;
    return HL_OK;
}

void hl_rhi_bind_group_layout_destroy(hl_rhi_device *dev, hl_rhi_bind_group_layout l) {
    uint32_t slot;
    if (!hl__may_destroy(dev, "hl_rhi_bind_group_layout_destroy")) return;
    if (hl__pool_lookup(dev, HL__POOL_BGL, l.id, &slot)) hl__destroy_object(dev, HL__POOL_BGL, slot);
}

/* ---- bind groups --------------------------------------------------------------------------- */
static hl_result hl__check_sample_type(const char *fn, uint32_t i, const hl_rhi_device *dev,
                                       const hl_rhi_bind_group_layout_entry *le, hl_rhi_format f) {
    const hl_rhi_format_info *fi = hl_rhi_format_get_info(f);
    bool ok;
    switch (le->sample_type) {
    case HL_RHI_SAMPLE_FLOAT:
        ok = !fi->is_depth && !fi->is_integer && (dev->caps.formats[f].flags & HL_RHI_FORMAT_CAP_FILTERABLE);
        break;
    case HL_RHI_SAMPLE_UNFILTERABLE_FLOAT: ok = !fi->is_integer; break;
    case HL_RHI_SAMPLE_DEPTH: ok = fi->is_depth; break;
    case HL_RHI_SAMPLE_UINT: ok = fi->is_integer; break;
    default: ok = false; break; /* no signed integer formats exist */
    }
    if (!ok) {
        static const char *const names[] = {"float", "unfilterable-float", "depth", "uint", "sint"};
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.entries[%u].view: format %s does not match the layout's sample_type %s", fn,
                        i, fi->name, names[le->sample_type]);
    }
    return HL_OK;
}

static hl_result hl__validate_bind_group(hl_rhi_device *dev, const hl_rhi_bind_group_desc *desc, hl__bind_group *out,
                                         hl__bind_group_layout **out_layout) {
    const char *fn = "hl_rhi_bind_group_create";
    if (!desc) return hl__fail(HL_ERR_VALIDATION, "%s: desc is NULL", fn);
    hl__bind_group_layout *l = hl__pool_get(dev, HL__POOL_BGL, desc->layout.id);
    if (!l) return hl__fail(HL_ERR_VALIDATION, "%s: desc.layout: " HL__STALE, fn);
    if (desc->entry_count != l->entry_count)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.entry_count is %u but the layout has %u entries", fn, desc->entry_count,
                        l->entry_count);
    if (desc->entry_count && !desc->entries) return hl__fail(HL_ERR_VALIDATION, "%s: desc.entries is NULL", fn);
    const hl_rhi_limits *lim = &dev->caps.limits;
    memset(out, 0, sizeof *out);
    out->layout = desc->layout;
    out->layout_ptr_unsafe = l;
    out->layout_cache_index = l->cache_index;
    out->entry_count = l->entry_count;
    for (uint32_t k = 0; k < l->entry_count; k++) {
        const hl_rhi_bind_group_layout_entry *le = &l->entries[k];
        uint32_t found = UINT32_MAX;
        for (uint32_t i = 0; i < desc->entry_count; i++) {
            if (desc->entries[i].binding != le->binding) continue;
            if (found != UINT32_MAX)
                return hl__fail(HL_ERR_VALIDATION, "%s: desc.entries[%u].binding %u appears twice", fn, i, le->binding);
            found = i;
        }
        if (found == UINT32_MAX)
            return hl__fail(HL_ERR_VALIDATION, "%s: desc.entries has no entry for the layout's binding %u", fn, le->binding);
        uint32_t i = found;
        const hl_rhi_bind_group_entry *e = &desc->entries[i];
        hl_rhi_bind_group_entry *o = &out->entries[k];
        o->binding = e->binding;
        const char *tn = hl__binding_type_names[le->type];
        if (hl__is_buffer_binding(le->type)) {
            hl__buffer *b = hl__pool_get(dev, HL__POOL_BUFFER, e->buffer.id);
            if (!b)
                return hl__fail(HL_ERR_VALIDATION, "%s: desc.entries[%u].buffer (binding %u, %s): " HL__STALE, fn, i,
                                le->binding, tn);
            bool uniform = le->type == HL_RHI_BINDING_UNIFORM_BUFFER;
            uint32_t need = uniform ? HL_RHI_BUFFER_USAGE_UNIFORM : HL_RHI_BUFFER_USAGE_STORAGE;
            if (!(b->desc.usage & need))
                return hl__fail(HL_ERR_VALIDATION, "%s: desc.entries[%u].buffer lacks %s usage (binding %u is a %s)", fn, i,
                                uniform ? "UNIFORM" : "STORAGE", le->binding, tn);
            uint32_t align = uniform ? lim->min_uniform_buffer_offset_alignment : lim->min_storage_buffer_offset_alignment;
            if (align && e->offset % align)
                return hl__fail(HL_ERR_VALIDATION, "%s: desc.entries[%u].offset %llu is not a multiple of %u", fn, i,
                                (unsigned long long)e->offset, align);
            if (e->offset >= b->desc.size)
                return hl__fail(HL_ERR_VALIDATION, "%s: desc.entries[%u].offset %llu is beyond the buffer (size %llu)", fn, i,
                                (unsigned long long)e->offset, (unsigned long long)b->desc.size);
            uint64_t size = e->size ? e->size : b->desc.size - e->offset;
            if (size > b->desc.size - e->offset)
                return hl__fail(HL_ERR_VALIDATION, "%s: desc.entries[%u]: offset %llu + size %llu is out of bounds (buffer size %llu)",
                                fn, i, (unsigned long long)e->offset, (unsigned long long)size,
                                (unsigned long long)b->desc.size);
            if (le->min_binding_size && size < le->min_binding_size)
                return hl__fail(HL_ERR_VALIDATION, "%s: desc.entries[%u].size %llu is below the layout's min_binding_size %llu",
                                fn, i, (unsigned long long)size, (unsigned long long)le->min_binding_size);
            uint64_t max = uniform ? lim->max_uniform_buffer_binding_size : lim->max_storage_buffer_binding_size;
            if (size > max)
                return hl__fail(HL_ERR_VALIDATION, "%s: desc.entries[%u].size %llu exceeds max_%s_buffer_binding_size %llu", fn,
                                i, (unsigned long long)size, uniform ? "uniform" : "storage", (unsigned long long)max);
            if (!uniform && size % 4u)
                return hl__fail(HL_ERR_VALIDATION, "%s: desc.entries[%u].size %llu must be a multiple of 4 for storage", fn,
                                i, (unsigned long long)size);
            o->buffer = e->buffer;
            o->offset = e->offset;
            o->size = size;
        } else if (le->type == HL_RHI_BINDING_SAMPLED_TEXTURE || le->type == HL_RHI_BINDING_STORAGE_TEXTURE) {
            hl__texture_view *v = hl__pool_get(dev, HL__POOL_VIEW, e->view.id);
            if (!v)
                return hl__fail(HL_ERR_VALIDATION, "%s: desc.entries[%u].view (binding %u, %s): " HL__STALE, fn, i,
                                le->binding, tn);
            hl__texture *t = hl__pool_get(dev, HL__POOL_TEXTURE, v->texture.id);
            if (!t) return hl__fail(HL_ERR_VALIDATION, "%s: desc.entries[%u].view: its texture: " HL__STALE, fn, i);
            if (v->desc.dimension != le->view_dimension)
                return hl__fail(HL_ERR_VALIDATION, "%s: desc.entries[%u].view dimension %d does not match the layout's %d", fn,
                                i, (int)v->desc.dimension, (int)le->view_dimension);
            if (le->type == HL_RHI_BINDING_SAMPLED_TEXTURE) {
                if (!(t->desc.usage & HL_RHI_TEXTURE_USAGE_SAMPLED))
                    return hl__fail(HL_ERR_VALIDATION, "%s: desc.entries[%u].view: texture lacks SAMPLED usage", fn, i);
                if (le->multisampled != (v->sample_count > 1))
                    return hl__fail(HL_ERR_VALIDATION, "%s: desc.entries[%u].view has %u samples but the layout says multisampled=%d",
                                    fn, i, v->sample_count, (int)le->multisampled);
                hl_result r = hl__check_sample_type(fn, i, dev, le, v->format);
                if (r) return r;
            } else {
                if (!(t->desc.usage & HL_RHI_TEXTURE_USAGE_STORAGE))
                    return hl__fail(HL_ERR_VALIDATION, "%s: desc.entries[%u].view: texture lacks STORAGE usage", fn, i);
                if (v->format != le->storage_format)
                    return hl__fail(HL_ERR_VALIDATION, "%s: desc.entries[%u].view format %s differs from the layout's storage_format %s",
                                    fn, i, hl_rhi_format_get_info(v->format)->name,
                                    hl_rhi_format_get_info(le->storage_format)->name);
                if (v->desc.mip_level_count != 1)
                    return hl__fail(HL_ERR_VALIDATION, "%s: desc.entries[%u].view: a storage view needs one mip level", fn, i);
            }
            v->tex_ptr_unsafe = t;
            o->view = e->view;
        } else {
            hl__sampler *s = hl__pool_get(dev, HL__POOL_SAMPLER, e->sampler.id);
            if (!s)
                return hl__fail(HL_ERR_VALIDATION, "%s: desc.entries[%u].sampler (binding %u, %s): " HL__STALE, fn, i,
                                le->binding, tn);
            bool cmp = s->desc.compare != HL_RHI_COMPARE_UNDEFINED;
            if (cmp != (le->type == HL_RHI_BINDING_COMPARISON_SAMPLER))
                return hl__fail(HL_ERR_VALIDATION, "%s: desc.entries[%u].sampler is %sa comparison sampler but binding %u is a %s",
                                fn, i, cmp ? "" : "not ", le->binding, tn);
            o->sampler = e->sampler;
        }
    }
    *out_layout = l;
    return HL_OK;
}

hl_result hl_rhi_bind_group_create(hl_rhi_device *dev, const hl_rhi_bind_group_desc *desc, hl_rhi_bind_group *out) {
    const char *fn = "hl_rhi_bind_group_create";
    hl_result r = hl__check_device(dev, fn);
    if (r) return r;
    if (!out) return hl__fail(HL_ERR_VALIDATION, "%s: out is NULL", fn);
    out->id = 0;
    hl__bind_group g;
    hl__bind_group_layout *l;
    if ((r = hl__validate_bind_group(dev, desc, &g, &l))) return r;
    uint32_t id;
    hl__bind_group *obj;
    if (!hl__pool_alloc(dev, HL__POOL_BIND_GROUP, &id, (void **)&obj)) return HL_ERR_OUT_OF_MEMORY;
    *obj = g;
    /* item pointers are re-resolved after any pool allocation */
    l = hl__pool_get(dev, HL__POOL_BGL, desc->layout.id);
    obj->layout_ptr_unsafe = l;
    r = dev->fns->bind_group_create(dev, obj, l);
    if (r) {
        uint32_t slot = hl__handle_slot(id);
        hl__pool_retire(&dev->pools[HL__POOL_BIND_GROUP], slot);
        hl__pool_free_slot(&dev->pools[HL__POOL_BIND_GROUP], slot);
        return r;
    }
    hl__cache_ref(dev, obj->layout_cache_index);
    dev->stats.objects_created++;
    if (dev->frame_open) dev->stats.transient_allocations++;
    out->id = id;
    return HL_OK;
}

void hl_rhi_bind_group_destroy(hl_rhi_device *dev, hl_rhi_bind_group g) {
    uint32_t slot;
    if (!hl__may_destroy(dev, "hl_rhi_bind_group_destroy")) return;
    if (hl__pool_lookup(dev, HL__POOL_BIND_GROUP, g.id, &slot)) hl__destroy_object(dev, HL__POOL_BIND_GROUP, slot);
}

/* ---- pipeline layouts ---------------------------------------------------------------------- */
typedef struct hl__pl_ctx {
    const hl__pipeline_layout *layout;
    hl__bind_group_layout *groups[HL_RHI_MAX_BIND_GROUPS];
} hl__pl_ctx;

static hl_result hl__pl_native_create(hl_rhi_device *dev, void *ctx, hl__native *be) {
    hl__pl_ctx *c = ctx;
    return dev->fns->pipeline_layout_create(dev, c->layout, c->groups, be);
}

static hl_result hl__validate_pipeline_layout(hl_rhi_device *dev, const hl_rhi_pipeline_layout_desc *desc,
                                              hl__pipeline_layout *out, hl__pl_ctx *ctx, hl__pipeline_layout_key *key) {
    const char *fn = "hl_rhi_pipeline_layout_create";
    if (!desc) return hl__fail(HL_ERR_VALIDATION, "%s: desc is NULL", fn);
    uint32_t max = dev->caps.limits.max_bind_groups < HL_RHI_MAX_BIND_GROUPS ? dev->caps.limits.max_bind_groups
                                                                             : HL_RHI_MAX_BIND_GROUPS;
    if (desc->group_count > max)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.group_count %u exceeds %u", fn, desc->group_count, max);
    if (desc->group_count && !desc->groups) return hl__fail(HL_ERR_VALIDATION, "%s: desc.groups is NULL", fn);
    memset(out, 0, sizeof *out);
    memset(key, 0, sizeof *key);
    out->group_count = key->group_count = desc->group_count;
    for (uint32_t i = 0; i < desc->group_count; i++) {
        hl__bind_group_layout *l = hl__pool_get(dev, HL__POOL_BGL, desc->groups[i].id);
        if (!l) return hl__fail(HL_ERR_VALIDATION, "%s: desc.groups[%u]: " HL__STALE, fn, i);
        out->groups[i] = desc->groups[i];
        ctx->groups[i] = l;
        key->group_cache[i] = l->cache_index;
    }
    ctx->layout = out;
    return HL_OK;
}

hl_result hl_rhi_pipeline_layout_create(hl_rhi_device *dev, const hl_rhi_pipeline_layout_desc *desc,
                                        hl_rhi_pipeline_layout *out) {
    const char *fn = "hl_rhi_pipeline_layout_create";
    hl_result r = hl__check_device(dev, fn);
    if (r) return r;
    if (!out) return hl__fail(HL_ERR_VALIDATION, "%s: out is NULL", fn);
    out->id = 0;
    hl__pipeline_layout pl;
    hl__pl_ctx ctx;
    hl__pipeline_layout_key key;
    memset(&ctx, 0, sizeof ctx);
    if ((r = hl__validate_pipeline_layout(dev, desc, &pl, &ctx, &key))) return r;
    uint32_t index;
    if ((r = hl__cache_acquire(dev, HL__CACHE_PIPELINE_LAYOUT, &key, sizeof key, hl__pl_native_create, &ctx, &index)))
        return r;
    uint32_t id;
    hl__pipeline_layout *obj = hl__cached_handle(dev, HL__POOL_PIPELINE_LAYOUT, index, &pl, sizeof pl, &id);
    if (!obj) return HL_ERR_OUT_OF_MEMORY;
    obj->cache_index = index;
    obj->be = dev->cache[index].be;
    out->id = id;
    return HL_OK;
}

void hl_rhi_pipeline_layout_destroy(hl_rhi_device *dev, hl_rhi_pipeline_layout l) {
    uint32_t slot;
    if (!hl__may_destroy(dev, "hl_rhi_pipeline_layout_destroy")) return;
    if (hl__pool_lookup(dev, HL__POOL_PIPELINE_LAYOUT, l.id, &slot)) hl__destroy_object(dev, HL__POOL_PIPELINE_LAYOUT, slot);
}

/* ---- render pipelines ---------------------------------------------------------------------- */
static const char *const hl__stage_names[] = {"vertex", "fragment", "compute"};

static bool hl__blend_valid(const hl_rhi_blend_component *c) {
    return (unsigned)c->src_factor <= HL_RHI_BLEND_ONE_MINUS_CONSTANT &&
           (unsigned)c->dst_factor <= HL_RHI_BLEND_ONE_MINUS_CONSTANT && (unsigned)c->op <= HL_RHI_BLEND_OP_MAX;
}

static hl_rhi_blend_component hl__blend_resolve(const hl_rhi_blend_component *c, bool enabled) {
    hl_rhi_blend_component o = {HL_RHI_BLEND_ONE, HL_RHI_BLEND_ZERO, HL_RHI_BLEND_OP_ADD};
    if (!enabled) return o;
    o.src_factor = c->src_factor ? c->src_factor : HL_RHI_BLEND_ONE;
    o.dst_factor = c->dst_factor ? c->dst_factor : HL_RHI_BLEND_ZERO;
    o.op = c->op;
    /* WebGPU: MIN/MAX ignore the factors; make equal state compare equal. */
    if (o.op == HL_RHI_BLEND_OP_MIN || o.op == HL_RHI_BLEND_OP_MAX) {
        o.src_factor = HL_RHI_BLEND_ONE;
        o.dst_factor = HL_RHI_BLEND_ONE;
    }
    return o;
}

static bool hl__stencil_face_valid(const hl_rhi_stencil_face *f) {
    return (unsigned)f->compare <= HL_RHI_COMPARE_ALWAYS && (unsigned)f->fail_op <= HL_RHI_STENCIL_DECREMENT_WRAP &&
           (unsigned)f->depth_fail_op <= HL_RHI_STENCIL_DECREMENT_WRAP &&
           (unsigned)f->pass_op <= HL_RHI_STENCIL_DECREMENT_WRAP;
}

static hl_rhi_stencil_face hl__stencil_face_resolve(const hl_rhi_stencil_face *f, bool enabled) {
    hl_rhi_stencil_face o = {HL_RHI_COMPARE_ALWAYS, HL_RHI_STENCIL_KEEP, HL_RHI_STENCIL_KEEP, HL_RHI_STENCIL_KEEP};
    if (!enabled) return o;
    o.compare = f->compare ? f->compare : HL_RHI_COMPARE_ALWAYS;
    o.fail_op = f->fail_op;
    o.depth_fail_op = f->depth_fail_op;
    o.pass_op = f->pass_op;
    return o;
}

static hl_result hl__validate_render_pipeline(hl_rhi_device *dev, const hl_rhi_render_pipeline_desc *desc,
                                              hl__render_pipeline_info *info, uint32_t *out_layout_cache) {
    const char *fn = "hl_rhi_render_pipeline_create";
    if (!desc) return hl__fail(HL_ERR_VALIDATION, "%s: desc is NULL", fn);
    const hl_rhi_limits *lim = &dev->caps.limits;
    memset(info, 0, sizeof *info);
    hl__pipeline_layout *pl = hl__pool_get(dev, HL__POOL_PIPELINE_LAYOUT, desc->layout.id);
    if (!pl) return hl__fail(HL_ERR_VALIDATION, "%s: desc.layout: " HL__STALE, fn);
    *out_layout_cache = pl->cache_index;
    hl__shader *vs = hl__pool_get(dev, HL__POOL_SHADER, desc->vertex.id);
    if (!vs) return hl__fail(HL_ERR_VALIDATION, "%s: desc.vertex: " HL__STALE, fn);
    if (vs->stage != HL_RHI_SHADER_VERTEX)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.vertex is a %s shader (expected vertex)", fn, hl__stage_names[vs->stage]);
    if (desc->fragment.id) {
        hl__shader *fs = hl__pool_get(dev, HL__POOL_SHADER, desc->fragment.id);
        if (!fs) return hl__fail(HL_ERR_VALIDATION, "%s: desc.fragment: " HL__STALE, fn);
        if (fs->stage != HL_RHI_SHADER_FRAGMENT)
            return hl__fail(HL_ERR_VALIDATION, "%s: desc.fragment is a %s shader (expected fragment)", fn,
                            hl__stage_names[fs->stage]);
        for (uint32_t i = 0; fs->outputs_known && i < desc->color_target_count && desc->color_targets; i++)
            if (!desc->color_targets[i].write_none && !(fs->output_mask & (1u << i)))
                return hl__fail(HL_ERR_VALIDATION,
                                "%s: desc.color_targets[%u] is written but the fragment shader has no output at "
                                "location %u (make the target write_none)",
                                fn, i, i);
    }
    info->layout = desc->layout;
    info->vertex = desc->vertex;
    info->fragment = desc->fragment;

    uint32_t max_vb = lim->max_vertex_buffers < HL_RHI_MAX_VERTEX_BUFFERS ? lim->max_vertex_buffers : HL_RHI_MAX_VERTEX_BUFFERS;
    uint32_t max_attr = lim->max_vertex_attributes < HL_RHI_MAX_VERTEX_ATTRIBUTES ? lim->max_vertex_attributes
                                                                                   : HL_RHI_MAX_VERTEX_ATTRIBUTES;
    if (desc->vertex_buffer_count > max_vb)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.vertex_buffer_count %u exceeds %u", fn, desc->vertex_buffer_count, max_vb);
    if (desc->vertex_buffer_count && !desc->vertex_buffers)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.vertex_buffers is NULL", fn);
    uint32_t locations_seen = 0;
    info->vertex_buffer_count = desc->vertex_buffer_count;
    for (uint32_t b = 0; b < desc->vertex_buffer_count; b++) {
        const hl_rhi_vertex_buffer_layout *vb = &desc->vertex_buffers[b];
        if (vb->stride > lim->max_vertex_buffer_array_stride)
            return hl__fail(HL_ERR_VALIDATION, "%s: desc.vertex_buffers[%u].stride %u exceeds %u", fn, b, vb->stride,
                            lim->max_vertex_buffer_array_stride);
        if (vb->stride % 4u)
            return hl__fail(HL_ERR_VALIDATION, "%s: desc.vertex_buffers[%u].stride %u is not a multiple of 4", fn, b, vb->stride);
        if (vb->attribute_count && !vb->attributes)
            return hl__fail(HL_ERR_VALIDATION, "%s: desc.vertex_buffers[%u].attributes is NULL", fn, b);
        if (info->attribute_count + vb->attribute_count > max_attr)
            return hl__fail(HL_ERR_VALIDATION, "%s: desc.vertex_buffers[%u]: more than %u vertex attributes in total", fn, b,
                            max_attr);
        uint32_t limit = vb->stride ? vb->stride : lim->max_vertex_buffer_array_stride;
        for (uint32_t a = 0; a < vb->attribute_count; a++) {
            const hl_rhi_vertex_attribute *at = &vb->attributes[a];
            uint32_t size = hl_rhi_vertex_format_size(at->format);
            if (!size)
                return hl__fail(HL_ERR_VALIDATION, "%s: desc.vertex_buffers[%u].attributes[%u].format %d is invalid", fn, b, a,
                                (int)at->format);
            if (at->offset % 4u)
                return hl__fail(HL_ERR_VALIDATION, "%s: desc.vertex_buffers[%u].attributes[%u].offset %u is not a multiple of 4",
                                fn, b, a, at->offset);
            if ((uint64_t)at->offset + size > limit)
                return hl__fail(HL_ERR_VALIDATION,
                                "%s: desc.vertex_buffers[%u].attributes[%u]: offset %u + size %u exceeds the stride %u", fn, b,
                                a, at->offset, size, limit);
            if (at->location >= max_attr)
                return hl__fail(HL_ERR_VALIDATION, "%s: desc.vertex_buffers[%u].attributes[%u].location %u is >= %u", fn, b, a,
                                at->location, max_attr);
            if (locations_seen & (1u << at->location))
                return hl__fail(HL_ERR_VALIDATION, "%s: desc.vertex_buffers[%u].attributes[%u].location %u is used twice", fn,
                                b, a, at->location);
            locations_seen |= 1u << at->location;
            hl_rhi_vertex_attribute *o = &info->attributes[info->attribute_count++];
            o->format = at->format;
            o->offset = at->offset;
            o->location = at->location;
        }
        info->vb_stride[b] = vb->stride;
        info->vb_per_instance[b] = vb->per_instance;
        info->vb_attribute_count[b] = vb->attribute_count;
    }
    if ((unsigned)desc->topology > HL_RHI_TOPOLOGY_POINT_LIST)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.topology %d is out of range", fn, (int)desc->topology);
    if ((unsigned)desc->strip_index_format > HL_RHI_INDEX_UINT32)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.strip_index_format is out of range", fn);
    if ((unsigned)desc->cull_mode > HL_RHI_CULL_BACK) return hl__fail(HL_ERR_VALIDATION, "%s: desc.cull_mode is out of range", fn);
    if ((unsigned)desc->front_face > HL_RHI_FRONT_CW) return hl__fail(HL_ERR_VALIDATION, "%s: desc.front_face is out of range", fn);
    info->topology = desc->topology;
    bool strip = desc->topology == HL_RHI_TOPOLOGY_TRIANGLE_STRIP || desc->topology == HL_RHI_TOPOLOGY_LINE_STRIP;
    info->strip_index_format = strip ? desc->strip_index_format : HL_RHI_INDEX_UINT16;
    info->cull_mode = desc->cull_mode;
    info->front_face = desc->front_face;

    uint32_t sc = desc->sample_count ? desc->sample_count : 1u;
    if (sc != 1 && sc != 4) return hl__fail(HL_ERR_VALIDATION, "%s: desc.sample_count is %u (must be 1 or 4)", fn, sc);
    if (desc->alpha_to_coverage && sc == 1)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.alpha_to_coverage needs sample_count 4", fn);
    info->sample_count = sc;
    info->alpha_to_coverage = desc->alpha_to_coverage;

    uint32_t max_ct = lim->max_color_attachments < HL_RHI_MAX_COLOR_ATTACHMENTS ? lim->max_color_attachments
                                                                                : HL_RHI_MAX_COLOR_ATTACHMENTS;
    if (desc->color_target_count > max_ct)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.color_target_count %u exceeds %u", fn, desc->color_target_count, max_ct);
    if (desc->color_target_count && !desc->color_targets)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.color_targets is NULL", fn);
    if (desc->color_target_count && !desc->fragment.id)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.fragment is required when desc.color_target_count is %u", fn,
                        desc->color_target_count);
    info->color_target_count = desc->color_target_count;
    for (uint32_t i = 0; i < desc->color_target_count; i++) {
        const hl_rhi_color_target_state *ct = &desc->color_targets[i];
        if (!hl__format_valid(ct->format))
            return hl__fail(HL_ERR_VALIDATION, "%s: desc.color_targets[%u].format is not a texture format", fn, i);
        const hl_rhi_format_info *fi = hl_rhi_format_get_info(ct->format);
        const hl_rhi_format_caps *fc = &dev->caps.formats[ct->format];
        if (fi->is_depth || !(fc->flags & HL_RHI_FORMAT_CAP_RENDERABLE))
            return hl__fail(HL_ERR_VALIDATION, "%s: desc.color_targets[%u].format %s is not a renderable color format", fn, i,
                            fi->name);
        if (ct->blend_enabled && !(fc->flags & HL_RHI_FORMAT_CAP_BLENDABLE))
            return hl__fail(HL_ERR_VALIDATION, "%s: desc.color_targets[%u].blend_enabled but format %s is not blendable", fn, i,
                            fi->name);
        if (!(fc->sample_counts & sc))
            return hl__fail(HL_ERR_VALIDATION, "%s: desc.color_targets[%u].format %s does not support %u samples", fn, i,
                            fi->name, sc);
        if (ct->write_mask & ~15u)
            return hl__fail(HL_ERR_VALIDATION, "%s: desc.color_targets[%u].write_mask has unknown bits", fn, i);
        if (ct->blend_enabled && (!hl__blend_valid(&ct->color) || !hl__blend_valid(&ct->alpha)))
            return hl__fail(HL_ERR_VALIDATION, "%s: desc.color_targets[%u] blend factor or op out of range", fn, i);
        hl_rhi_color_target_state *o = &info->color_targets[i];
        o->format = ct->format;
        /* a target written not at all has no blend state (the undefined values lavapipe wrote
           into such attachments came from target 0's blend state given to every target after
           a depth-only pipeline: see hl__wgpu_begin_render_pass) */
        bool blend = ct->blend_enabled && !ct->write_none;
        o->blend_enabled = blend;
        o->color = hl__blend_resolve(&ct->color, blend);
        o->alpha = hl__blend_resolve(&ct->alpha, blend);
        o->write_mask = ct->write_none ? 0u : (ct->write_mask ? ct->write_mask : (uint32_t)HL_RHI_COLOR_WRITE_ALL);
        o->write_none = ct->write_none;
    }
    /* one blend state and colour mask for every written target without independent blend */
    const hl_rhi_color_target_state *first = NULL;
    for (uint32_t i = 0; !dev->caps.independent_blend && i < desc->color_target_count; i++) {
        const hl_rhi_color_target_state *o = &info->color_targets[i];
        if (o->write_none) continue;
        if (!first) {
            first = o;
            continue;
        }
        if (o->blend_enabled != first->blend_enabled || o->write_mask != first->write_mask ||
            (o->blend_enabled && (memcmp(&o->color, &first->color, sizeof o->color) != 0 ||
                                  memcmp(&o->alpha, &first->alpha, sizeof o->alpha) != 0)))
            return hl__fail(HL_ERR_UNSUPPORTED,
                            "%s: desc.color_targets[%u] differs in blend state or write mask from the first written "
                            "target, and this device has one blend state for all targets (independent_blend is off)",
                            fn, i);
    }

    const hl_rhi_depth_stencil_state *ds = &desc->depth_stencil;
    hl_rhi_depth_stencil_state *od = &info->depth_stencil;
    if (ds->format != HL_RHI_FORMAT_UNDEFINED) {
        if (!hl__format_valid(ds->format) || !hl_rhi_format_get_info(ds->format)->is_depth)
            return hl__fail(HL_ERR_VALIDATION, "%s: desc.depth_stencil.format %d is not a depth format", fn, (int)ds->format);
        const hl_rhi_format_info *fi = hl_rhi_format_get_info(ds->format);
        if (!(dev->caps.formats[ds->format].flags & HL_RHI_FORMAT_CAP_RENDERABLE))
            return hl__fail(HL_ERR_UNSUPPORTED, "%s: desc.depth_stencil.format %s is not renderable on this device", fn, fi->name);
        if (!(dev->caps.formats[ds->format].sample_counts & sc))
            return hl__fail(HL_ERR_VALIDATION, "%s: desc.depth_stencil.format %s does not support %u samples", fn, fi->name, sc);
        if (ds->stencil_enabled && !fi->has_stencil)
            return hl__fail(HL_ERR_VALIDATION, "%s: desc.depth_stencil.stencil_enabled but format %s has no stencil", fn,
                            fi->name);
        if ((unsigned)ds->depth_compare > HL_RHI_COMPARE_ALWAYS)
            return hl__fail(HL_ERR_VALIDATION, "%s: desc.depth_stencil.depth_compare is out of range", fn);
        if (!hl__stencil_face_valid(&ds->stencil_front) || !hl__stencil_face_valid(&ds->stencil_back))
            return hl__fail(HL_ERR_VALIDATION, "%s: desc.depth_stencil stencil face state out of range", fn);
        od->format = ds->format;
        od->depth_write = ds->depth_write;
        od->depth_compare = ds->depth_compare ? ds->depth_compare
                                              : (ds->depth_write ? HL_RHI_COMPARE_LESS : HL_RHI_COMPARE_ALWAYS);
        od->stencil_enabled = ds->stencil_enabled;
        od->stencil_front = hl__stencil_face_resolve(&ds->stencil_front, ds->stencil_enabled);
        od->stencil_back = hl__stencil_face_resolve(&ds->stencil_back, ds->stencil_enabled);
        od->stencil_read_mask = ds->stencil_enabled && ds->stencil_read_mask ? ds->stencil_read_mask : 0xffu;
        od->stencil_write_mask = ds->stencil_enabled && ds->stencil_write_mask ? ds->stencil_write_mask : 0xffu;
        if (ds->stencil_enabled) {
            od->stencil_read_mask = ds->stencil_read_mask ? ds->stencil_read_mask : 0xffu;
            od->stencil_write_mask = ds->stencil_write_mask ? ds->stencil_write_mask : 0xffu;
        }
        od->depth_bias = ds->depth_bias;
        od->depth_bias_slope_scale = ds->depth_bias_slope_scale;
    } else if (ds->depth_write || ds->stencil_enabled) {
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.depth_stencil.depth_write/stencil_enabled need desc.depth_stencil.format", fn);
    }
    if (info->color_target_count == 0 && od->format == HL_RHI_FORMAT_UNDEFINED)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc has no color target and no depth_stencil.format", fn);
    return HL_OK;
}

static hl_result hl__rp_native_create(hl_rhi_device *dev, void *ctx, hl__native *be) {
    return dev->fns->render_pipeline_create(dev, ctx, be);
}

hl_result hl_rhi_render_pipeline_create(hl_rhi_device *dev, const hl_rhi_render_pipeline_desc *desc,
                                        hl_rhi_render_pipeline *out) {
    const char *fn = "hl_rhi_render_pipeline_create";
    hl_result r = hl__check_device(dev, fn);
    if (r) return r;
    if (!out) return hl__fail(HL_ERR_VALIDATION, "%s: out is NULL", fn);
    out->id = 0;
    hl__render_pipeline_info info, key;
    uint32_t layout_cache;
    if ((r = hl__validate_render_pipeline(dev, desc, &info, &layout_cache))) return r;
    memcpy(&key, &info, sizeof key);
    key.layout.id = layout_cache;
    uint32_t index;
    if ((r = hl__cache_acquire(dev, HL__CACHE_RENDER_PIPELINE, &key, sizeof key, hl__rp_native_create, &info, &index)))
        return r;
    uint32_t id;
    hl__render_pipeline *obj = hl__cached_handle(dev, HL__POOL_RENDER_PIPELINE, index, &info, sizeof info, &id);
    if (!obj) return HL_ERR_OUT_OF_MEMORY;
    obj->cache_index = index;
    obj->be = dev->cache[index].be;
    out->id = id;
    return HL_OK;
}

void hl_rhi_render_pipeline_destroy(hl_rhi_device *dev, hl_rhi_render_pipeline p) {
    uint32_t slot;
    if (!hl__may_destroy(dev, "hl_rhi_render_pipeline_destroy")) return;
    if (hl__pool_lookup(dev, HL__POOL_RENDER_PIPELINE, p.id, &slot)) hl__destroy_object(dev, HL__POOL_RENDER_PIPELINE, slot);
}

/* ---- compute pipelines --------------------------------------------------------------------- */
static hl_result hl__validate_compute_pipeline(hl_rhi_device *dev, const hl_rhi_compute_pipeline_desc *desc,
                                               uint32_t *layout_cache) {
    const char *fn = "hl_rhi_compute_pipeline_create";
    if (!(dev->caps.features & HL_RHI_FEATURE_COMPUTE))
        return hl__fail(HL_ERR_UNSUPPORTED, "%s: the %s device has no compute support", fn,
                        hl_rhi_backend_name(dev->caps.backend));
    if (!desc) return hl__fail(HL_ERR_VALIDATION, "%s: desc is NULL", fn);
    hl__pipeline_layout *pl = hl__pool_get(dev, HL__POOL_PIPELINE_LAYOUT, desc->layout.id);
    if (!pl) return hl__fail(HL_ERR_VALIDATION, "%s: desc.layout: " HL__STALE, fn);
    hl__shader *cs = hl__pool_get(dev, HL__POOL_SHADER, desc->compute.id);
    if (!cs) return hl__fail(HL_ERR_VALIDATION, "%s: desc.compute: " HL__STALE, fn);
    if (cs->stage != HL_RHI_SHADER_COMPUTE)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.compute is a %s shader (expected compute)", fn, hl__stage_names[cs->stage]);
    if (desc->constant_count > HL_RHI_MAX_CONSTANTS || (desc->constant_count && !desc->constants))
        return hl__fail(HL_ERR_VALIDATION, "%s: %u constants%s (at most %u)", fn, desc->constant_count,
                        desc->constants ? "" : " with constants NULL", HL_RHI_MAX_CONSTANTS);
    for (uint32_t i = 0; i < desc->constant_count; i++)
        if (!desc->constants[i].name || !desc->constants[i].name[0])
            return hl__fail(HL_ERR_VALIDATION, "%s: constant %u has no name", fn, i);
    *layout_cache = pl->cache_index;
    return HL_OK;
}

hl_result hl_rhi_compute_pipeline_create(hl_rhi_device *dev, const hl_rhi_compute_pipeline_desc *desc,
                                         hl_rhi_compute_pipeline *out) {
    const char *fn = "hl_rhi_compute_pipeline_create";
    hl_result r = hl__check_device(dev, fn);
    if (r) return r;
    if (!out) return hl__fail(HL_ERR_VALIDATION, "%s: out is NULL", fn);
    out->id = 0;
    uint32_t layout_cache = 0;
    if ((r = hl__validate_compute_pipeline(dev, desc, &layout_cache))) return r;
    uint32_t id;
    hl__compute_pipeline *p;
    if (!hl__pool_alloc(dev, HL__POOL_COMPUTE_PIPELINE, &id, (void **)&p)) return HL_ERR_OUT_OF_MEMORY;
    p->layout = desc->layout;
    p->compute = desc->compute;
    p->layout_cache_index = layout_cache;
    p->constants = desc->constants;
    p->constant_count = desc->constant_count;
    r = dev->fns->compute_pipeline_create(dev, p);
    p->constants = NULL; /* the caller's array: not kept */
    if (r) {
        uint32_t slot = hl__handle_slot(id);
        hl__pool_retire(&dev->pools[HL__POOL_COMPUTE_PIPELINE], slot);
        hl__pool_free_slot(&dev->pools[HL__POOL_COMPUTE_PIPELINE], slot);
        return r;
    }
    hl__cache_ref(dev, layout_cache);
    dev->stats.objects_created++;
    if (dev->frame_open) dev->stats.transient_allocations++;
    out->id = id;
    return HL_OK;
}

void hl_rhi_compute_pipeline_destroy(hl_rhi_device *dev, hl_rhi_compute_pipeline p) {
    uint32_t slot;
    if (!hl__may_destroy(dev, "hl_rhi_compute_pipeline_destroy")) return;
    if (hl__pool_lookup(dev, HL__POOL_COMPUTE_PIPELINE, p.id, &slot)) hl__destroy_object(dev, HL__POOL_COMPUTE_PIPELINE, slot);
}
