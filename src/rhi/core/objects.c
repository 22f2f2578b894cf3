/* Buffers, textures, views, samplers and shaders: validation, creation, destruction,
 * uploads and readbacks; plus the release path every pool shares. */
#include <string.h>

#include "core_private.h"

#define HL__STALE "handle is destroyed or stale"

/* ---- shared release path ------------------------------------------------------------------- */
void hl__release_slot(hl_rhi_device *dev, uint8_t pool, uint32_t slot) {
    hl__pool *p = &dev->pools[pool];
    void *item = hl__pool_item(p, slot);
    const hl__rhi_backend_fns *f = dev->fns;
    uint64_t last_use = p->last_use[slot];
    switch (pool) {
    case HL__POOL_BUFFER: f->buffer_destroy(dev, item); break;
    case HL__POOL_TEXTURE: f->texture_destroy(dev, item); break;
    case HL__POOL_VIEW: {
        hl__texture_view *v = item;
        /* The texture's slot memory outlives it until the pool grows, which cannot happen
         * during a release; the backend may only read its desc. */
        uint32_t ts = hl__handle_slot(v->texture.id);
        v->tex_ptr_unsafe = ts < dev->pools[HL__POOL_TEXTURE].capacity ? hl__pool_item(&dev->pools[HL__POOL_TEXTURE], ts)
                                                                         : NULL;
        f->view_destroy(dev, v);
        break;
    }
    case HL__POOL_SAMPLER: hl__cache_unref(dev, ((hl__sampler *)item)->cache_index, last_use); break;
    case HL__POOL_BGL: hl__cache_unref(dev, ((hl__bind_group_layout *)item)->cache_index, last_use); break;
    case HL__POOL_PIPELINE_LAYOUT: hl__cache_unref(dev, ((hl__pipeline_layout *)item)->cache_index, last_use); break;
    case HL__POOL_RENDER_PIPELINE: hl__cache_unref(dev, ((hl__render_pipeline *)item)->cache_index, last_use); break;
    case HL__POOL_SHADER: f->shader_destroy(dev, item); break;
    case HL__POOL_SURFACE:
        if (f->surface_destroy) f->surface_destroy(dev, item);
        break;
    case HL__POOL_BIND_GROUP: {
        hl__bind_group *g = item;
        g->layout_ptr_unsafe = hl__pool_get(dev, HL__POOL_BGL, g->layout.id);
        f->bind_group_destroy(dev, g);
        hl__cache_unref(dev, g->layout_cache_index, last_use);
        break;
    }
    case HL__POOL_COMPUTE_PIPELINE: {
        hl__compute_pipeline *cp = item;
        f->compute_pipeline_destroy(dev, cp);
        hl__cache_unref(dev, cp->layout_cache_index, last_use);
        break;
    }
    case HL__POOL_RENDER_BUNDLE: {
        hl__render_bundle *b = item;
        if (b->be.ptr && f->bundle_destroy) f->bundle_destroy(dev, b);
        hl__bundle_arrays_release(dev, b); /* kept for the next bundles */
        break;
    }
    default: break;
    }
    hl__pool_free_slot(p, slot);
}

static void hl__defer_or_release(hl_rhi_device *dev, uint8_t pool, uint32_t slot, uint64_t serial) {
    if (!hl__defer_release(dev, pool, slot, serial)) {
        /* No memory to queue it: wait for the GPU rather than leak or free early. */
        hl_rhi_device_wait_idle(dev);
        hl__release_slot(dev, pool, slot);
    }
}

void hl__destroy_object(hl_rhi_device *dev, uint8_t pool, uint32_t slot) {
    hl__pool *p = &dev->pools[pool];
    uint32_t old_id = hl__pool_make_id(dev, p, slot);
    if (dev->frame_open) hl__cmd_forget(dev, pool, old_id);
    hl__pool_retire(p, slot);
    uint64_t serial = p->last_use[slot];
    switch (pool) {
    case HL__POOL_SAMPLER:
    case HL__POOL_BGL:
    case HL__POOL_PIPELINE_LAYOUT:
    case HL__POOL_RENDER_PIPELINE:
        /* The native object belongs to the cache entry, which inherits last_use. */
        hl__release_slot(dev, pool, slot);
        return;
    case HL__POOL_TEXTURE: {
        /* Views die with their texture; their native objects go after the texture's, once
         * the last frame that used the texture or any of its views completed. */
        hl__pool *vp = &dev->pools[HL__POOL_VIEW];
        for (uint32_t i = 0; i < vp->capacity; i++) {
            if (vp->state[i] == HL__SLOT_LIVE && ((hl__texture_view *)hl__pool_item(vp, i))->texture.id == old_id &&
                vp->last_use[i] > serial)
                serial = vp->last_use[i];
        }
        hl__defer_or_release(dev, HL__POOL_TEXTURE, slot, serial);
        for (uint32_t i = 0; i < vp->capacity; i++) {
            if (vp->state[i] == HL__SLOT_LIVE && ((hl__texture_view *)hl__pool_item(vp, i))->texture.id == old_id) {
                hl__pool_retire(vp, i);
                hl__defer_or_release(dev, HL__POOL_VIEW, i, serial);
            }
        }
        return;
    }
    default: hl__defer_or_release(dev, pool, slot, serial); return;
    }
}

/* Looks a handle up for destroy: invalid handles are a silent no-op. */
static void hl__destroy_handle(hl_rhi_device *dev, uint8_t pool, uint32_t id, const char *fn) {
    if (!hl__may_destroy(dev, fn)) return;
    uint32_t slot;
    if (!hl__pool_lookup(dev, pool, id, &slot)) return;
    hl__destroy_object(dev, pool, slot);
}

/* ---- buffers ------------------------------------------------------------------------------- */
#define HL__BUFFER_USAGE_ALL 0xFFu

static hl_result hl__validate_buffer(const hl_rhi_device *dev, const hl_rhi_buffer_desc *desc) {
    const char *fn = "hl_rhi_buffer_create";
    if (!desc) return hl__fail(HL_ERR_VALIDATION, "%s: desc is NULL", fn);
    if (desc->size == 0) return hl__fail(HL_ERR_VALIDATION, "%s: desc.size is 0 (must be > 0)", fn);
    if (desc->size % 4u)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.size is %llu (must be a multiple of 4)", fn,
                        (unsigned long long)desc->size);
    if (desc->usage == 0) return hl__fail(HL_ERR_VALIDATION, "%s: desc.usage is 0 (must name at least one usage)", fn);
    if (desc->usage & ~HL__BUFFER_USAGE_ALL)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.usage has unknown bits 0x%x", fn, desc->usage & ~HL__BUFFER_USAGE_ALL);
    if ((desc->usage & HL_RHI_BUFFER_USAGE_STORAGE) && !(dev->caps.features & HL_RHI_FEATURE_STORAGE_BUFFER))
        return hl__fail(HL_ERR_UNSUPPORTED, "%s: desc.usage STORAGE needs the storage-buffer feature, which the %s device lacks",
                        fn, hl_rhi_backend_name(dev->caps.backend));
    if ((desc->usage & HL_RHI_BUFFER_USAGE_INDIRECT) && !(dev->caps.features & HL_RHI_FEATURE_INDIRECT_DRAW))
        return hl__fail(HL_ERR_UNSUPPORTED, "%s: desc.usage INDIRECT needs the indirect-draw feature, which the %s device lacks",
                        fn, hl_rhi_backend_name(dev->caps.backend));
    return HL_OK;
}

hl_result hl_rhi_buffer_create(hl_rhi_device *dev, const hl_rhi_buffer_desc *desc, hl_rhi_buffer *out) {
    hl_result r = hl__check_device(dev, "hl_rhi_buffer_create");
    if (r) return r;
    if (!out) return hl__fail(HL_ERR_VALIDATION, "hl_rhi_buffer_create: out is NULL");
    out->id = 0;
    if ((r = hl__validate_buffer(dev, desc))) return r;
    uint32_t id;
    hl__buffer *buf;
    if (!hl__pool_alloc(dev, HL__POOL_BUFFER, &id, (void **)&buf)) return HL_ERR_OUT_OF_MEMORY;
    buf->desc = *desc;
    buf->desc.label = NULL;
    buf->desc.initial_data = NULL;
    r = dev->fns->buffer_create(dev, buf, desc->initial_data);
    if (r) {
        uint32_t slot = hl__handle_slot(id);
        hl__pool_retire(&dev->pools[HL__POOL_BUFFER], slot);
        hl__pool_free_slot(&dev->pools[HL__POOL_BUFFER], slot);
        return r;
    }
    dev->stats.objects_created++;
    if (dev->frame_open) dev->stats.transient_allocations++;
    out->id = id;
    return HL_OK;
}

void hl_rhi_buffer_destroy(hl_rhi_device *dev, hl_rhi_buffer buf) {
    hl__destroy_handle(dev, HL__POOL_BUFFER, buf.id, "hl_rhi_buffer_destroy");
}

/* A write inside a frame must come before every command of the frame that uses the object. */
static bool hl__used_this_frame(const hl_rhi_device *dev, uint8_t pool, uint32_t slot) {
    return dev->frame_open && dev->pools[pool].last_use[slot] == dev->cmd.serial;
}

hl_result hl_rhi_buffer_write(hl_rhi_device *dev, hl_rhi_buffer buf, uint64_t offset, const void *data,
                              uint64_t size) {
    const char *fn = "hl_rhi_buffer_write";
    hl_result r = hl__check_device(dev, fn);
    if (r) return r;
    uint32_t slot;
    hl__buffer *b = hl__pool_lookup(dev, HL__POOL_BUFFER, buf.id, &slot);
    if (!b) return hl__fail(HL_ERR_VALIDATION, "%s: buf: " HL__STALE, fn);
    if (!(b->desc.usage & HL_RHI_BUFFER_USAGE_COPY_DST))
        return hl__fail(HL_ERR_VALIDATION, "%s: buf lacks COPY_DST usage", fn);
    if (offset % 4u || size % 4u)
        return hl__fail(HL_ERR_VALIDATION, "%s: offset (%llu) and size (%llu) must be multiples of 4", fn,
                        (unsigned long long)offset, (unsigned long long)size);
    if (offset > b->desc.size || size > b->desc.size - offset)
        return hl__fail(HL_ERR_VALIDATION, "%s: offset %llu + size %llu is out of bounds (buffer size %llu)", fn,
                        (unsigned long long)offset, (unsigned long long)size, (unsigned long long)b->desc.size);
    if (size && !data) return hl__fail(HL_ERR_VALIDATION, "%s: data is NULL", fn);
    if (hl__used_this_frame(dev, HL__POOL_BUFFER, slot))
        return hl__fail(HL_ERR_INVALID_STATE, "%s: buf was already used by a command of the open frame", fn);
    if (size == 0) return HL_OK;
    return dev->fns->buffer_write(dev, b, offset, data, size);
}

hl_result hl_rhi_buffer_read(hl_rhi_device *dev, hl_rhi_buffer buf, uint64_t offset, void *dst, uint64_t size) {
    const char *fn = "hl_rhi_buffer_read";
    hl_result r = hl__check_device(dev, fn);
    if (r) return r;
    hl__buffer *b = hl__pool_get(dev, HL__POOL_BUFFER, buf.id);
    if (!b) return hl__fail(HL_ERR_VALIDATION, "%s: buf: " HL__STALE, fn);
    if (dev->frame_open) return hl__fail(HL_ERR_INVALID_STATE, "%s: not allowed while a frame is open", fn);
    if (!(b->desc.usage & (HL_RHI_BUFFER_USAGE_MAP_READ | HL_RHI_BUFFER_USAGE_COPY_SRC)))
        return hl__fail(HL_ERR_VALIDATION, "%s: buf lacks MAP_READ or COPY_SRC usage", fn);
    if (offset % 4u || size % 4u)
        return hl__fail(HL_ERR_VALIDATION, "%s: offset (%llu) and size (%llu) must be multiples of 4", fn,
                        (unsigned long long)offset, (unsigned long long)size);
    if (offset > b->desc.size || size > b->desc.size - offset)
        return hl__fail(HL_ERR_VALIDATION, "%s: offset %llu + size %llu is out of bounds (buffer size %llu)", fn,
                        (unsigned long long)offset, (unsigned long long)size, (unsigned long long)b->desc.size);
    if (size && !dst) return hl__fail(HL_ERR_VALIDATION, "%s: dst is NULL", fn);
    if (size == 0) return HL_OK;
    if ((r = hl__wait_idle(dev, fn))) return r;
    b = hl__pool_get(dev, HL__POOL_BUFFER, buf.id);
    return dev->fns->buffer_read(dev, b, offset, dst, size);
}

/* ---- textures ------------------------------------------------------------------------------ */
#define HL__TEXTURE_USAGE_ALL 0x1Fu

static uint32_t hl__max_mips(uint32_t w, uint32_t h, uint32_t d) {
    uint32_t m = w > h ? w : h;
    if (d > m) m = d;
    uint32_t n = 1;
    while (m > 1) {
        m >>= 1;
        n++;
    }
    return n;
}

static void hl__texture_defaults(const hl_rhi_texture_desc *in, hl_rhi_texture_desc *d) {
    *d = *in;
    d->label = NULL;
    if (!d->depth_or_layers) d->depth_or_layers = d->dimension == HL_RHI_TEXTURE_CUBE ? 6u : 1u;
    if (!d->mip_levels) d->mip_levels = 1;
    if (!d->sample_count) d->sample_count = 1;
}

static hl_result hl__validate_texture(const hl_rhi_device *dev, const hl_rhi_texture_desc *in, hl_rhi_texture_desc *d) {
    const char *fn = "hl_rhi_texture_create";
    if (!in) return hl__fail(HL_ERR_VALIDATION, "%s: desc is NULL", fn);
    hl__texture_defaults(in, d);
    if (!hl__format_valid(d->format)) return hl__fail(HL_ERR_VALIDATION, "%s: desc.format %d is not a texture format", fn, (int)d->format);
    if ((unsigned)d->dimension > HL_RHI_TEXTURE_CUBE)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.dimension %d is out of range", fn, (int)d->dimension);
    const hl_rhi_format_info *fi = hl_rhi_format_get_info(d->format);
    const hl_rhi_format_caps *fc = &dev->caps.formats[d->format];
    const hl_rhi_limits *lim = &dev->caps.limits;
    if (d->usage == 0) return hl__fail(HL_ERR_VALIDATION, "%s: desc.usage is 0 (must name at least one usage)", fn);
    if (d->usage & ~HL__TEXTURE_USAGE_ALL)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.usage has unknown bits 0x%x", fn, d->usage & ~HL__TEXTURE_USAGE_ALL);
    if (d->width == 0 || d->height == 0)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.width and desc.height must be > 0 (got %ux%u)", fn, d->width, d->height);
    if (d->width > lim->max_texture_dimension_2d || d->height > lim->max_texture_dimension_2d)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.width/height %ux%u exceed max_texture_dimension_2d %u", fn, d->width,
                        d->height, lim->max_texture_dimension_2d);
    if (d->dimension == HL_RHI_TEXTURE_1D) {
        if (!(dev->caps.features & HL_RHI_FEATURE_TEXTURE_1D))
            return hl__fail(HL_ERR_UNSUPPORTED, "%s: desc.dimension 1D needs the texture-1d feature, which the %s device lacks",
                            fn, hl_rhi_backend_name(dev->caps.backend));
        if (d->height != 1 || d->depth_or_layers != 1)
            return hl__fail(HL_ERR_VALIDATION, "%s: a 1D texture needs desc.height 1 and desc.depth_or_layers 1", fn);
    }
    if (d->dimension == HL_RHI_TEXTURE_CUBE) {
        if (d->depth_or_layers != 6)
            return hl__fail(HL_ERR_VALIDATION, "%s: desc.depth_or_layers is %u for a cube texture (must be 6)", fn,
                            d->depth_or_layers);
        if (d->width != d->height)
            return hl__fail(HL_ERR_VALIDATION, "%s: a cube texture must be square (desc.width %u, desc.height %u)", fn,
                            d->width, d->height);
    }
    if (d->dimension == HL_RHI_TEXTURE_3D) {
        if (d->depth_or_layers > lim->max_texture_dimension_2d)
            return hl__fail(HL_ERR_VALIDATION, "%s: desc.depth_or_layers %u exceeds the 3D limit %u", fn, d->depth_or_layers,
                            lim->max_texture_dimension_2d);
        if (fi->is_depth) return hl__fail(HL_ERR_VALIDATION, "%s: desc.format %s cannot be a 3D texture", fn, fi->name);
    } else if (d->depth_or_layers > lim->max_texture_array_layers) {
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.depth_or_layers %u exceeds max_texture_array_layers %u", fn,
                        d->depth_or_layers, lim->max_texture_array_layers);
    }
    uint32_t max_mips = hl__max_mips(d->width, d->height, d->dimension == HL_RHI_TEXTURE_3D ? d->depth_or_layers : 1);
    if (d->mip_levels > max_mips)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.mip_levels is %u (at most %u for %ux%u)", fn, d->mip_levels, max_mips,
                        d->width, d->height);
    if (fc->flags == 0)
        return hl__fail(HL_ERR_UNSUPPORTED, "%s: desc.format %s is not supported by the %s device", fn, fi->name,
                        hl_rhi_backend_name(dev->caps.backend));
    if (d->sample_count != 1 && d->sample_count != 4)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.sample_count is %u (must be 1 or 4)", fn, d->sample_count);
    if (d->sample_count == 4) {
        if (!(fc->sample_counts & 4u))
            return hl__fail(HL_ERR_UNSUPPORTED, "%s: desc.sample_count 4 is not supported for format %s", fn, fi->name);
        if (d->mip_levels != 1)
            return hl__fail(HL_ERR_VALIDATION, "%s: a multisampled texture needs desc.mip_levels 1 (got %u)", fn, d->mip_levels);
        if (d->dimension != HL_RHI_TEXTURE_2D || d->depth_or_layers != 1)
            return hl__fail(HL_ERR_VALIDATION, "%s: a multisampled texture must be 2D with one layer", fn);
        if (!(d->usage & HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT))
            return hl__fail(HL_ERR_VALIDATION, "%s: a multisampled texture needs RENDER_ATTACHMENT usage", fn);
        if (d->usage & HL_RHI_TEXTURE_USAGE_STORAGE)
            return hl__fail(HL_ERR_VALIDATION, "%s: a multisampled texture cannot have STORAGE usage", fn);
    }
    if ((d->usage & HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT) && !(fc->flags & HL_RHI_FORMAT_CAP_RENDERABLE))
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.usage RENDER_ATTACHMENT needs a renderable format (%s is not)", fn,
                        fi->name);
    if ((d->usage & HL_RHI_TEXTURE_USAGE_SAMPLED) && !(fc->flags & HL_RHI_FORMAT_CAP_SAMPLED))
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.usage SAMPLED needs a sampleable format (%s is not)", fn, fi->name);
    if (d->usage & HL_RHI_TEXTURE_USAGE_STORAGE) {
        if (!(dev->caps.features & HL_RHI_FEATURE_STORAGE_TEXTURE))
            return hl__fail(HL_ERR_UNSUPPORTED, "%s: desc.usage STORAGE needs the storage-texture feature, which the %s device lacks",
                            fn, hl_rhi_backend_name(dev->caps.backend));
        if (!(fc->flags & HL_RHI_FORMAT_CAP_STORAGE))
            return hl__fail(HL_ERR_UNSUPPORTED, "%s: desc.usage STORAGE is not supported for format %s", fn, fi->name);
    }
    return HL_OK;
}

hl_result hl_rhi_texture_create(hl_rhi_device *dev, const hl_rhi_texture_desc *desc, hl_rhi_texture *out) {
    hl_result r = hl__check_device(dev, "hl_rhi_texture_create");
    if (r) return r;
    if (!out) return hl__fail(HL_ERR_VALIDATION, "hl_rhi_texture_create: out is NULL");
    out->id = 0;
    hl_rhi_texture_desc d;
    if ((r = hl__validate_texture(dev, desc, &d))) return r;
    uint32_t id;
    hl__texture *tex;
    if (!hl__pool_alloc(dev, HL__POOL_TEXTURE, &id, (void **)&tex)) return HL_ERR_OUT_OF_MEMORY;
    tex->desc = d;
    r = dev->fns->texture_create(dev, tex);
    if (r) {
        uint32_t slot = hl__handle_slot(id);
        hl__pool_retire(&dev->pools[HL__POOL_TEXTURE], slot);
        hl__pool_free_slot(&dev->pools[HL__POOL_TEXTURE], slot);
        return r;
    }
    dev->stats.objects_created++;
    if (dev->frame_open) dev->stats.transient_allocations++;
    out->id = id;
    return HL_OK;
}

void hl_rhi_texture_destroy(hl_rhi_device *dev, hl_rhi_texture tex) {
    hl__texture *t = dev && hl__owned_here(dev) ? hl__pool_get(dev, HL__POOL_TEXTURE, tex.id) : NULL;
    if (t && t->surface) {
        hl__fail(HL_ERR_VALIDATION, "hl_rhi_texture_destroy: tex is a surface's frame texture (hl_rhi_surface_present "
                                    "or hl_rhi_surface_destroy releases it); ignored");
        return;
    }
    hl__destroy_handle(dev, HL__POOL_TEXTURE, tex.id, "hl_rhi_texture_destroy");
}

const hl_rhi_texture_desc *hl_rhi_texture_get_desc(hl_rhi_device *dev, hl_rhi_texture tex) {
    if (dev && !hl__owned_here(dev)) {
        hl__fail_thread(dev, "hl_rhi_texture_get_desc");
        return NULL;
    }
    hl__texture *t = hl__pool_get(dev, HL__POOL_TEXTURE, tex.id);
    return t ? &t->desc : NULL;
}

/* Fills zero extents and checks the region lies inside the texture. */
static hl_result hl__resolve_region(const char *fn, const char *field, const hl__texture *t,
                                    const hl_rhi_texture_region *in, hl_rhi_texture_region *out) {
    hl_rhi_texture_region r = in ? *in : (hl_rhi_texture_region){0};
    const hl_rhi_texture_desc *d = &t->desc;
    if (r.mip_level >= d->mip_levels)
        return hl__fail(HL_ERR_VALIDATION, "%s: %s.mip_level %u is out of range (texture has %u levels)", fn, field,
                        r.mip_level, d->mip_levels);
    uint32_t mw = hl__mip_extent(d->width, r.mip_level), mh = hl__mip_extent(d->height, r.mip_level);
    uint32_t md = d->dimension == HL_RHI_TEXTURE_3D ? hl__mip_extent(d->depth_or_layers, r.mip_level) : d->depth_or_layers;
    if (r.x >= mw || r.y >= mh || r.z_or_layer >= md)
        return hl__fail(HL_ERR_VALIDATION, "%s: %s origin (%u,%u,%u) is out of bounds (level %u is %ux%ux%u)", fn, field,
                        r.x, r.y, r.z_or_layer, r.mip_level, mw, mh, md);
    if (!r.width) r.width = mw - r.x;
    if (!r.height) r.height = mh - r.y;
    if (!r.depth_or_layers) r.depth_or_layers = md - r.z_or_layer;
    if (r.width > mw - r.x || r.height > mh - r.y || r.depth_or_layers > md - r.z_or_layer)
        return hl__fail(HL_ERR_VALIDATION, "%s: %s (%u,%u,%u)+(%ux%ux%u) is out of bounds (level %u is %ux%ux%u)", fn,
                        field, r.x, r.y, r.z_or_layer, r.width, r.height, r.depth_or_layers, r.mip_level, mw, mh, md);
    *out = r;
    return HL_OK;
}

/* What hl_rhi_texture_write (write) and hl_rhi_texture_read share: the usage, a copyable
 * single-sample format, the region, the row pitch (0 = tight) and the data pointer. */
static hl_result hl__check_transfer(const char *fn, const hl__texture *t, bool write, const hl_rhi_texture_region *region,
                                    hl_rhi_texture_region *reg, uint32_t *pitch, const void *data) {
    if (!(t->desc.usage & (write ? HL_RHI_TEXTURE_USAGE_COPY_DST : HL_RHI_TEXTURE_USAGE_COPY_SRC)))
        return hl__fail(HL_ERR_VALIDATION, "%s: tex lacks %s usage", fn, write ? "COPY_DST" : "COPY_SRC");
    uint32_t texel = hl__format_texel_size(t->desc.format);
    if (!texel || t->desc.sample_count != 1)
        return hl__fail(HL_ERR_VALIDATION, "%s: tex (format %s, %u samples) cannot be %s", fn,
                        hl_rhi_format_get_info(t->desc.format)->name, t->desc.sample_count,
                        write ? "written" : "read back");
    hl_result r = hl__resolve_region(fn, "region", t, region, reg);
    if (r) return r;
    const char *pitch_name = write ? "row_pitch" : "dst_row_pitch";
    uint64_t row = (uint64_t)reg->width * texel;
    if (*pitch == 0) *pitch = (uint32_t)row;
    if (*pitch < row)
        return hl__fail(HL_ERR_VALIDATION, "%s: %s %u is less than one row (%llu bytes)", fn, pitch_name, *pitch,
                        (unsigned long long)row);
    if (!data) return hl__fail(HL_ERR_VALIDATION, "%s: %s is NULL", fn, write ? "data" : "dst");
    return HL_OK;
}

hl_result hl_rhi_texture_write(hl_rhi_device *dev, hl_rhi_texture tex, const hl_rhi_texture_region *region,
                               const void *data, uint32_t row_pitch) {
    const char *fn = "hl_rhi_texture_write";
    hl_result r = hl__check_device(dev, fn);
    if (r) return r;
    uint32_t slot;
    hl__texture *t = hl__pool_lookup(dev, HL__POOL_TEXTURE, tex.id, &slot);
    if (!t) return hl__fail(HL_ERR_VALIDATION, "%s: tex: " HL__STALE, fn);
    hl_rhi_texture_region reg;
    if ((r = hl__check_transfer(fn, t, true, region, &reg, &row_pitch, data))) return r;
    if (hl__used_this_frame(dev, HL__POOL_TEXTURE, slot))
        return hl__fail(HL_ERR_INVALID_STATE, "%s: tex was already used by a command of the open frame", fn);
    return dev->fns->texture_write(dev, t, &reg, data, row_pitch);
}

hl_result hl_rhi_texture_read(hl_rhi_device *dev, hl_rhi_texture tex, const hl_rhi_texture_region *region, void *dst,
                              uint32_t dst_row_pitch) {
    const char *fn = "hl_rhi_texture_read";
    hl_result r = hl__check_device(dev, fn);
    if (r) return r;
    hl__texture *t = hl__pool_get(dev, HL__POOL_TEXTURE, tex.id);
    if (!t) return hl__fail(HL_ERR_VALIDATION, "%s: tex: " HL__STALE, fn);
    if (dev->frame_open) return hl__fail(HL_ERR_INVALID_STATE, "%s: not allowed while a frame is open", fn);
    hl_rhi_texture_region reg;
    if ((r = hl__check_transfer(fn, t, false, region, &reg, &dst_row_pitch, dst))) return r;
    if ((r = hl__wait_idle(dev, fn))) return r;
    t = hl__pool_get(dev, HL__POOL_TEXTURE, tex.id);
    return dev->fns->texture_read(dev, t, &reg, dst, dst_row_pitch);
}

/* ---- texture views ------------------------------------------------------------------------- */
static hl_result hl__validate_view(const hl__texture *t, const hl_rhi_texture_view_desc *in, hl_rhi_texture_view_desc *d) {
    const char *fn = "hl_rhi_texture_view_create";
    const hl_rhi_texture_desc *td = &t->desc;
    *d = in ? *in : (hl_rhi_texture_view_desc){0};
    d->label = NULL;
    uint32_t total_layers = td->dimension == HL_RHI_TEXTURE_3D ? 1u : td->depth_or_layers;
    if ((unsigned)d->dimension > HL_RHI_TEXTURE_CUBE)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.dimension %d is out of range", fn, (int)d->dimension);
    if (d->base_mip_level >= td->mip_levels)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.base_mip_level %u is out of range (texture has %u levels)", fn,
                        d->base_mip_level, td->mip_levels);
    if (!d->mip_level_count) d->mip_level_count = td->mip_levels - d->base_mip_level;
    if (d->mip_level_count > td->mip_levels - d->base_mip_level)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.base_mip_level %u + mip_level_count %u exceeds the texture's %u levels",
                        fn, d->base_mip_level, d->mip_level_count, td->mip_levels);
    if (d->base_layer >= total_layers)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.base_layer %u is out of range (texture has %u layers)", fn, d->base_layer,
                        total_layers);
    bool whole = d->layer_count == 0;
    if (whole) d->layer_count = total_layers - d->base_layer;
    /* dimension 0 (2D) is also "default": derive it from the texture and the layer range. A
     * whole array or cube texture keeps its own dimension; one selected layer is 2D. */
    if (d->dimension == HL_RHI_TEXTURE_2D) {
        switch (td->dimension) {
        case HL_RHI_TEXTURE_1D:
        case HL_RHI_TEXTURE_3D: d->dimension = td->dimension; break;
        case HL_RHI_TEXTURE_CUBE:
            d->dimension = (whole && d->layer_count == 6) ? HL_RHI_TEXTURE_CUBE
                           : d->layer_count == 1          ? HL_RHI_TEXTURE_2D
                                                          : HL_RHI_TEXTURE_2D_ARRAY;
            break;
        case HL_RHI_TEXTURE_2D_ARRAY:
            d->dimension = (whole || d->layer_count > 1) ? HL_RHI_TEXTURE_2D_ARRAY : HL_RHI_TEXTURE_2D;
            break;
        default: d->dimension = d->layer_count > 1 ? HL_RHI_TEXTURE_2D_ARRAY : HL_RHI_TEXTURE_2D; break;
        }
    }
    if (d->layer_count > total_layers - d->base_layer)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.base_layer %u + layer_count %u exceeds the texture's %u layers", fn,
                        d->base_layer, d->layer_count, total_layers);
    bool tex_2d = td->dimension == HL_RHI_TEXTURE_2D || td->dimension == HL_RHI_TEXTURE_2D_ARRAY ||
                  td->dimension == HL_RHI_TEXTURE_CUBE;
    switch (d->dimension) {
    case HL_RHI_TEXTURE_1D:
    case HL_RHI_TEXTURE_3D:
        if (td->dimension != d->dimension)
            return hl__fail(HL_ERR_VALIDATION, "%s: desc.dimension does not match the texture's dimension", fn);
        break;
    case HL_RHI_TEXTURE_2D:
        if (!tex_2d || d->layer_count != 1)
            return hl__fail(HL_ERR_VALIDATION, "%s: a 2D view needs a 2D texture and desc.layer_count 1 (got %u)", fn,
                            d->layer_count);
        break;
    case HL_RHI_TEXTURE_2D_ARRAY:
        if (!tex_2d) return hl__fail(HL_ERR_VALIDATION, "%s: a 2D array view needs a 2D texture", fn);
        break;
    case HL_RHI_TEXTURE_CUBE:
        if (!tex_2d || d->layer_count != 6 || td->width != td->height)
            return hl__fail(HL_ERR_VALIDATION, "%s: a cube view needs 6 layers of a square 2D texture (layer_count %u)", fn,
                            d->layer_count);
        break;
    }
    return HL_OK;
}

hl_result hl_rhi_texture_view_create(hl_rhi_device *dev, hl_rhi_texture tex, const hl_rhi_texture_view_desc *desc,
                                     hl_rhi_texture_view *out) {
    const char *fn = "hl_rhi_texture_view_create";
    hl_result r = hl__check_device(dev, fn);
    if (r) return r;
    if (!out) return hl__fail(HL_ERR_VALIDATION, "%s: out is NULL", fn);
    out->id = 0;
    hl__texture *t = hl__pool_get(dev, HL__POOL_TEXTURE, tex.id);
    if (!t) return hl__fail(HL_ERR_VALIDATION, "%s: tex: " HL__STALE, fn);
    hl_rhi_texture_view_desc d;
    if ((r = hl__validate_view(t, desc, &d))) return r;
    uint32_t id;
    hl__texture_view *v;
    if (!hl__pool_alloc(dev, HL__POOL_VIEW, &id, (void **)&v)) return HL_ERR_OUT_OF_MEMORY;
    t = hl__pool_get(dev, HL__POOL_TEXTURE, tex.id); /* item pointers are re-resolved after any pool allocation */
    v->texture = tex;
    v->tex_ptr_unsafe = t;
    v->desc = d;
    v->format = t->desc.format;
    v->width = hl__mip_extent(t->desc.width, d.base_mip_level);
    v->height = hl__mip_extent(t->desc.height, d.base_mip_level);
    v->sample_count = t->desc.sample_count;
    r = dev->fns->view_create(dev, t, v);
    if (r) {
        uint32_t slot = hl__handle_slot(id);
        hl__pool_retire(&dev->pools[HL__POOL_VIEW], slot);
        hl__pool_free_slot(&dev->pools[HL__POOL_VIEW], slot);
        return r;
    }
    dev->stats.objects_created++;
    if (dev->frame_open) dev->stats.transient_allocations++;
    out->id = id;
    return HL_OK;
}

void hl_rhi_texture_view_destroy(hl_rhi_device *dev, hl_rhi_texture_view view) {
    hl__destroy_handle(dev, HL__POOL_VIEW, view.id, "hl_rhi_texture_view_destroy");
}

/* ---- samplers ------------------------------------------------------------------------------ */
static hl_result hl__validate_sampler(const hl_rhi_sampler_desc *in, hl_rhi_sampler_desc *d) {
    const char *fn = "hl_rhi_sampler_create";
    hl_rhi_sampler_desc z = {0};
    if (!in) in = &z;
    memset(d, 0, sizeof *d); /* canonical bytes: the cache key */
    d->mag_filter = in->mag_filter;
    d->min_filter = in->min_filter;
    d->mipmap_filter = in->mipmap_filter;
    d->address_u = in->address_u;
    d->address_v = in->address_v;
    d->address_w = in->address_w;
    d->lod_min = in->lod_min;
    d->lod_max = in->lod_max == 0.0f ? 32.0f : in->lod_max;
    d->compare = in->compare;
    d->max_anisotropy = in->max_anisotropy ? in->max_anisotropy : 1u;
    if ((unsigned)d->mag_filter > HL_RHI_FILTER_LINEAR || (unsigned)d->min_filter > HL_RHI_FILTER_LINEAR ||
        (unsigned)d->mipmap_filter > HL_RHI_FILTER_LINEAR)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.mag_filter/min_filter/mipmap_filter out of range", fn);
    if ((unsigned)d->address_u > HL_RHI_ADDRESS_MIRROR_REPEAT || (unsigned)d->address_v > HL_RHI_ADDRESS_MIRROR_REPEAT ||
        (unsigned)d->address_w > HL_RHI_ADDRESS_MIRROR_REPEAT)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.address_u/v/w out of range", fn);
    if ((unsigned)d->compare > HL_RHI_COMPARE_ALWAYS) return hl__fail(HL_ERR_VALIDATION, "%s: desc.compare out of range", fn);
    if (!(d->lod_min >= 0.0f) || !(d->lod_max >= d->lod_min))
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.lod_min %g / lod_max %g (need 0 <= lod_min <= lod_max)", fn,
                        (double)d->lod_min, (double)d->lod_max);
    if (d->max_anisotropy > 16) return hl__fail(HL_ERR_VALIDATION, "%s: desc.max_anisotropy %u exceeds 16", fn, d->max_anisotropy);
    if (d->max_anisotropy > 1 &&
        (d->mag_filter != HL_RHI_FILTER_LINEAR || d->min_filter != HL_RHI_FILTER_LINEAR || d->mipmap_filter != HL_RHI_FILTER_LINEAR))
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.max_anisotropy > 1 needs linear mag, min and mipmap filters", fn);
    return HL_OK;
}

static hl_result hl__sampler_native_create(hl_rhi_device *dev, void *ctx, hl__native *be) {
    return dev->fns->sampler_create(dev, ctx, be);
}

hl_result hl_rhi_sampler_create(hl_rhi_device *dev, const hl_rhi_sampler_desc *desc, hl_rhi_sampler *out) {
    const char *fn = "hl_rhi_sampler_create";
    hl_result r = hl__check_device(dev, fn);
    if (r) return r;
    if (!out) return hl__fail(HL_ERR_VALIDATION, "%s: out is NULL", fn);
    out->id = 0;
    hl_rhi_sampler_desc d;
    if ((r = hl__validate_sampler(desc, &d))) return r;
    uint32_t index;
    if ((r = hl__cache_acquire(dev, HL__CACHE_SAMPLER, &d, sizeof d, hl__sampler_native_create, &d, &index))) return r;
    uint32_t id;
    hl__sampler *s = hl__cached_handle(dev, HL__POOL_SAMPLER, index, &d, sizeof d, &id);
    if (!s) return HL_ERR_OUT_OF_MEMORY;
    s->cache_index = index;
    s->be = dev->cache[index].be;
    out->id = id;
    return HL_OK;
}

void hl_rhi_sampler_destroy(hl_rhi_device *dev, hl_rhi_sampler s) {
    hl__destroy_handle(dev, HL__POOL_SAMPLER, s.id, "hl_rhi_sampler_destroy");
}

/* ---- shaders ------------------------------------------------------------------------------- */
static hl_result hl__validate_shader(const hl_rhi_device *dev, const hl_rhi_shader_desc *desc) {
    const char *fn = "hl_rhi_shader_create";
    if (!desc) return hl__fail(HL_ERR_VALIDATION, "%s: desc is NULL", fn);
    if ((unsigned)desc->stage > HL_RHI_SHADER_COMPUTE)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.stage %d is out of range", fn, (int)desc->stage);
    bool compute = dev->caps.features & HL_RHI_FEATURE_COMPUTE;
    if (desc->stage == HL_RHI_SHADER_COMPUTE && !compute)
        return hl__fail(HL_ERR_UNSUPPORTED, "%s: desc.stage COMPUTE needs the compute feature, which the %s device lacks", fn,
                        hl_rhi_backend_name(dev->caps.backend));
    if (desc->wgsl && !compute)
        return hl__fail(HL_ERR_UNSUPPORTED, "%s: desc.wgsl (a compute kernel) is not supported by the %s device", fn,
                        hl_rhi_backend_name(dev->caps.backend));
    if (desc->spirv && desc->spirv_word_count == 0)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.spirv is set but desc.spirv_word_count is 0", fn);
    if (desc->binding_plan_count && !desc->binding_plan)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.binding_plan is NULL but binding_plan_count is %u", fn,
                        desc->binding_plan_count);
    switch (dev->caps.backend) {
    case HL_RHI_BACKEND_GLES3:
        if (!desc->glsl)
            return hl__fail(HL_ERR_VALIDATION, "%s: desc.glsl is NULL (the gles3 device needs GLSL ES 3.00 source)", fn);
        break;
    case HL_RHI_BACKEND_WEBGPU:
        if (!desc->spirv && !desc->wgsl)
            return hl__fail(HL_ERR_VALIDATION, "%s: desc.spirv and desc.wgsl are NULL (the webgpu device needs one)", fn);
        break;
    default:
        if (!desc->spirv && !desc->wgsl && !desc->glsl)
            return hl__fail(HL_ERR_VALIDATION, "%s: desc has no spirv, wgsl or glsl source", fn);
        break;
    }
    return HL_OK;
}

hl_result hl_rhi_shader_create(hl_rhi_device *dev, const hl_rhi_shader_desc *desc, hl_rhi_shader *out) {
    const char *fn = "hl_rhi_shader_create";
    hl_result r = hl__check_device(dev, fn);
    if (r) return r;
    if (!out) return hl__fail(HL_ERR_VALIDATION, "%s: out is NULL", fn);
    out->id = 0;
    if ((r = hl__validate_shader(dev, desc))) return r;
    uint32_t id;
    hl__shader *s;
    if (!hl__pool_alloc(dev, HL__POOL_SHADER, &id, (void **)&s)) return HL_ERR_OUT_OF_MEMORY;
    s->stage = desc->stage;
    s->is_wgsl = desc->wgsl != NULL && (dev->caps.backend != HL_RHI_BACKEND_GLES3) && desc->spirv == NULL;
    s->outputs_known = desc->stage == HL_RHI_SHADER_FRAGMENT && desc->outputs_known;
    s->output_mask = s->outputs_known ? desc->output_mask : 0u;
    r = dev->fns->shader_create(dev, desc, s);
    if (r) {
        uint32_t slot = hl__handle_slot(id);
        hl__pool_retire(&dev->pools[HL__POOL_SHADER], slot);
        hl__pool_free_slot(&dev->pools[HL__POOL_SHADER], slot);
        return r;
    }
    dev->stats.objects_created++;
    if (dev->frame_open) dev->stats.transient_allocations++;
    out->id = id;
    return HL_OK;
}

void hl_rhi_shader_destroy(hl_rhi_device *dev, hl_rhi_shader s) {
    hl__destroy_handle(dev, HL__POOL_SHADER, s.id, "hl_rhi_shader_destroy");
}
