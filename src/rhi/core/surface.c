/* Surfaces: validation, configuration state, the frame texture's lifetime (acquire -> present
 * retires it) and the test hook that stands in for a driver's statuses. The backends do the
 * native part through the surface_* entries of their table. */
#include <string.h>

#include "core_private.h"

#define HL__STALE "handle is destroyed or stale"

static const char *hl__window_system_name(hl_rhi_window_system w) {
    switch (w) {
    case HL_RHI_WINDOW_SYSTEM_NONE: return "none";
    case HL_RHI_WINDOW_SYSTEM_X11: return "X11";
    case HL_RHI_WINDOW_SYSTEM_WAYLAND: return "Wayland";
    case HL_RHI_WINDOW_SYSTEM_CANVAS: return "canvas";
    default: return "?";
    }
}

hl_result hl__validate_display(const hl_rhi_native_display *d, const char *fn) {
    if ((unsigned)d->system >= HL_RHI_WINDOW_SYSTEM_COUNT)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.display.system %d is out of range", fn, (int)d->system);
    if (d->system == HL_RHI_WINDOW_SYSTEM_CANVAS) {
#ifdef __EMSCRIPTEN__
        if (d->display)
            return hl__fail(HL_ERR_VALIDATION,
                            "%s: desc.display.display must be NULL for window system canvas (the page's canvas, "
                            "Module.canvas, is the only one)",
                            fn);
        return HL_OK;
#else
        return hl__fail(HL_ERR_UNSUPPORTED,
                        "%s: window system canvas is the browser build's (Emscripten, WebGL 2): this is a native "
                        "build (use X11 or Wayland)",
                        fn);
#endif
    }
    if (d->system != HL_RHI_WINDOW_SYSTEM_NONE && !d->display)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.display.display is NULL for window system %s", fn,
                        hl__window_system_name(d->system));
    if (d->system == HL_RHI_WINDOW_SYSTEM_NONE && d->display)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.display.display is set but desc.display.system is none", fn);
    return HL_OK;
}

static hl_result hl__validate_surface_desc(const hl_rhi_device *dev, const hl_rhi_surface_desc *desc) {
    const char *fn = "hl_rhi_surface_create";
    if (!desc) return hl__fail(HL_ERR_VALIDATION, "%s: desc is NULL", fn);
    switch (dev->desc.display.system) {
    case HL_RHI_WINDOW_SYSTEM_X11:
        if (!desc->window) return hl__fail(HL_ERR_VALIDATION, "%s: desc.window is 0 (an X11 Window is required)", fn);
        return HL_OK;
    case HL_RHI_WINDOW_SYSTEM_WAYLAND:
        if (!desc->wayland_surface)
            return hl__fail(HL_ERR_VALIDATION, "%s: desc.wayland_surface is NULL (a wl_surface is required)", fn);
        return HL_OK;
    case HL_RHI_WINDOW_SYSTEM_CANVAS:
        if (desc->window || desc->wayland_surface)
            return hl__fail(HL_ERR_VALIDATION,
                            "%s: desc.window and desc.wayland_surface must be 0 for the canvas (its surface is the "
                            "page's canvas, Module.canvas)",
                            fn);
        return HL_OK;
    default:
        return hl__fail(HL_ERR_VALIDATION,
                        "%s: the device was created without a window system (hl_rhi_device_desc.display): surfaces "
                        "need it on every backend",
                        fn);
    }
}

hl_result hl_rhi_surface_create(hl_rhi_device *dev, const hl_rhi_surface_desc *desc, hl_rhi_surface *out) {
    const char *fn = "hl_rhi_surface_create";
    hl_result r = hl__check_device(dev, fn);
    if (r) return r;
    if (!out) return hl__fail(HL_ERR_VALIDATION, "%s: out is NULL", fn);
    out->id = 0;
    if ((r = hl__validate_surface_desc(dev, desc))) return r;
    if (!dev->fns->surface_create)
        return hl__fail(HL_ERR_UNSUPPORTED, "%s: the %s backend cannot present to a window", fn, dev->fns->name);
    uint32_t id;
    hl__surface *s;
    if (!hl__pool_alloc(dev, HL__POOL_SURFACE, &id, (void **)&s)) return HL_ERR_OUT_OF_MEMORY;
    s->desc = *desc;
    s->desc.label = NULL;
    r = dev->fns->surface_create(dev, s);
    if (!r && (!s->caps.format_count || !(s->caps.usages & HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT))) {
        dev->fns->surface_destroy(dev, s);
        r = hl__fail(HL_ERR_UNSUPPORTED, "%s: the %s surface offers no format the RHI knows for rendering", fn,
                     dev->fns->name);
    }
    if (r) {
        uint32_t slot = hl__handle_slot(id);
        hl__pool_retire(&dev->pools[HL__POOL_SURFACE], slot);
        hl__pool_free_slot(&dev->pools[HL__POOL_SURFACE], slot);
        return r;
    }
    s->caps.present_modes |= 1u << HL_RHI_PRESENT_FIFO;
    dev->stats.objects_created++;
    out->id = id;
    return HL_OK;
}

/* Retires the surface's frame texture (and its views): its native release follows the last
 * frame that used it; the surface is released after it. */
static void hl__surface_retire_texture(hl_rhi_device *dev, hl__surface *s, uint32_t surface_slot) {
    uint32_t ts;
    hl__texture *t = hl__pool_lookup(dev, HL__POOL_TEXTURE, s->texture.id, &ts);
    s->texture.id = 0;
    if (!t) return;
    uint64_t use = dev->pools[HL__POOL_TEXTURE].last_use[ts];
    if (t->last_use_serial > use) use = t->last_use_serial;
    if (use > s->last_use_serial) s->last_use_serial = use;
    uint64_t *surface_use = &dev->pools[HL__POOL_SURFACE].last_use[surface_slot];
    if (s->last_use_serial > *surface_use) *surface_use = s->last_use_serial;
    hl__destroy_object(dev, HL__POOL_TEXTURE, ts);
}

void hl_rhi_surface_destroy(hl_rhi_device *dev, hl_rhi_surface surface) {
    if (!hl__may_destroy(dev, "hl_rhi_surface_destroy")) return;
    uint32_t slot;
    hl__surface *s = hl__pool_lookup(dev, HL__POOL_SURFACE, surface.id, &slot);
    if (!s) return;
    if (s->texture.id) hl__surface_retire_texture(dev, s, slot);
    /* released now, not after the last frame that used it: Dawn and EGL keep what work in flight
       still uses, and the window may get a new surface at once */
    hl__pool_retire(&dev->pools[HL__POOL_SURFACE], slot);
    hl__release_slot(dev, HL__POOL_SURFACE, slot);
}

/* The common prologue: device checked, the surface looked up (its slot in *slot). */
static hl__surface *hl__surface_get(hl_rhi_device *dev, hl_rhi_surface surface, const char *fn, hl_result *r,
                                    uint32_t *slot) {
    *r = hl__check_device(dev, fn);
    if (*r) return NULL;
    uint32_t sl;
    hl__surface *s = hl__pool_lookup(dev, HL__POOL_SURFACE, surface.id, &sl);
    if (!s) {
        *r = hl__fail(HL_ERR_VALIDATION, "%s: surface: " HL__STALE, fn);
        return NULL;
    }
    if (slot) *slot = sl;
    return s;
}

hl_result hl_rhi_surface_get_caps(hl_rhi_device *dev, hl_rhi_surface surface, hl_rhi_surface_caps *out) {
    const char *fn = "hl_rhi_surface_get_caps";
    hl_result r;
    hl__surface *s = hl__surface_get(dev, surface, fn, &r, NULL);
    if (!s) return r;
    if (!out) return hl__fail(HL_ERR_VALIDATION, "%s: out is NULL", fn);
    *out = s->caps;
    return HL_OK;
}

#define HL__TEXTURE_USAGE_KNOWN 0x1Fu

static hl_result hl__validate_surface_config(const hl_rhi_device *dev, const hl__surface *s,
                                             const hl_rhi_surface_config *in, hl_rhi_surface_config *c) {
    const char *fn = "hl_rhi_surface_configure";
    if (!in) return hl__fail(HL_ERR_VALIDATION, "%s: config is NULL", fn);
    *c = *in;
    if (c->format == HL_RHI_FORMAT_UNDEFINED) c->format = s->caps.formats[0];
    if (!c->usage) c->usage = HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT;
    bool offered = false;
    for (uint32_t i = 0; i < s->caps.format_count; i++) offered |= s->caps.formats[i] == c->format;
    if (!offered) {
        const hl_rhi_format_info *fi = hl_rhi_format_get_info(c->format);
        return hl__fail(HL_ERR_VALIDATION, "%s: config.format %s is not one of the surface's %u formats (first: %s)", fn,
                        fi ? fi->name : "(out of range)", s->caps.format_count,
                        hl_rhi_format_get_info(s->caps.formats[0])->name);
    }
    if (c->usage & ~HL__TEXTURE_USAGE_KNOWN)
        return hl__fail(HL_ERR_VALIDATION, "%s: config.usage has unknown bits 0x%x", fn, c->usage & ~HL__TEXTURE_USAGE_KNOWN);
    if (c->usage & ~s->caps.usages)
        return hl__fail(HL_ERR_VALIDATION, "%s: config.usage 0x%x has bits 0x%x the surface does not offer (usages 0x%x)",
                        fn, c->usage, c->usage & ~s->caps.usages, s->caps.usages);
    const uint32_t max = dev->caps.limits.max_texture_dimension_2d;
    if (!c->width || !c->height || c->width > max || c->height > max)
        return hl__fail(HL_ERR_VALIDATION, "%s: config size %ux%u (each side 1..%u)", fn, c->width, c->height, max);
    if ((unsigned)c->present_mode >= HL_RHI_PRESENT_MODE_COUNT)
        return hl__fail(HL_ERR_VALIDATION, "%s: config.present_mode %d is out of range", fn, (int)c->present_mode);
    if (!(s->caps.present_modes & (1u << c->present_mode)))
        return hl__fail(HL_ERR_VALIDATION, "%s: config.present_mode %d is not offered by the surface (modes 0x%x)", fn,
                        (int)c->present_mode, s->caps.present_modes);
    if (s->texture.id)
        return hl__fail(HL_ERR_INVALID_STATE, "%s: the surface's texture is acquired (present it first)", fn);
    return HL_OK;
}

hl_result hl_rhi_surface_configure(hl_rhi_device *dev, hl_rhi_surface surface, const hl_rhi_surface_config *config) {
    const char *fn = "hl_rhi_surface_configure";
    hl_result r;
    hl__surface *s = hl__surface_get(dev, surface, fn, &r, NULL);
    if (!s) return r;
    hl_rhi_surface_config c;
    if ((r = hl__validate_surface_config(dev, s, config, &c))) return r;
    if ((r = dev->fns->surface_configure(dev, s, &c))) {
        s->configured = false;
        return r;
    }
    s->config = c;
    s->configured = true;
    return HL_OK;
}

const hl_rhi_surface_config *hl_rhi_surface_get_config(hl_rhi_device *dev, hl_rhi_surface surface) {
    if (dev && !hl__owned_here(dev)) {
        hl__fail_thread(dev, "hl_rhi_surface_get_config");
        return NULL;
    }
    hl__surface *s = hl__pool_get(dev, HL__POOL_SURFACE, surface.id);
    return s && s->configured ? &s->config : NULL;
}

hl_result hl_rhi_surface_acquire(hl_rhi_device *dev, hl_rhi_surface surface, hl_rhi_texture *out,
                                 hl_rhi_surface_status *status) {
    const char *fn = "hl_rhi_surface_acquire";
    hl_rhi_surface_status st_local;
    if (!status) status = &st_local;
    *status = HL_RHI_SURFACE_OPTIMAL;
    if (out) out->id = 0;
    hl_result r;
    hl__surface *s = hl__surface_get(dev, surface, fn, &r, NULL);
    if (!s) return r;
    if (!out) return hl__fail(HL_ERR_VALIDATION, "%s: out is NULL", fn);
    if (!s->configured) return hl__fail(HL_ERR_INVALID_STATE, "%s: the surface is not configured", fn);
    if (s->texture.id) { /* the same texture until present */
        *out = s->texture;
        return HL_OK;
    }
    hl_rhi_surface_status forced = s->forced;
    s->forced = HL_RHI_SURFACE_OPTIMAL;
    if (forced == HL_RHI_SURFACE_OUTDATED || forced == HL_RHI_SURFACE_TIMEOUT || forced == HL_RHI_SURFACE_LOST) {
        *status = forced;
        return HL_OK;
    }
    uint32_t id;
    hl__texture *t;
    if (!hl__pool_alloc(dev, HL__POOL_TEXTURE, &id, (void **)&t)) return HL_ERR_OUT_OF_MEMORY;
    s = hl__pool_get(dev, HL__POOL_SURFACE, surface.id); /* (another pool: unmoved, but cheap) */
    t->desc.dimension = HL_RHI_TEXTURE_2D;
    t->desc.format = s->config.format;
    t->desc.width = s->config.width;
    t->desc.height = s->config.height;
    t->desc.depth_or_layers = 1;
    t->desc.mip_levels = 1;
    t->desc.sample_count = 1;
    t->desc.usage = s->config.usage;
    t->surface = surface.id;
    r = dev->fns->surface_acquire(dev, s, t, status);
    bool has_texture = !r && (*status == HL_RHI_SURFACE_OPTIMAL || *status == HL_RHI_SURFACE_SUBOPTIMAL);
    if (!has_texture) {
        uint32_t slot = hl__handle_slot(id);
        hl__pool_retire(&dev->pools[HL__POOL_TEXTURE], slot);
        hl__pool_free_slot(&dev->pools[HL__POOL_TEXTURE], slot);
        return r;
    }
    if (forced == HL_RHI_SURFACE_SUBOPTIMAL) *status = HL_RHI_SURFACE_SUBOPTIMAL;
    s->texture.id = id;
    *out = s->texture;
    return HL_OK;
}

hl_result hl_rhi_surface_present(hl_rhi_device *dev, hl_rhi_surface surface) {
    const char *fn = "hl_rhi_surface_present";
    hl_result r;
    uint32_t slot;
    hl__surface *s = hl__surface_get(dev, surface, fn, &r, &slot);
    if (!s) return r;
    if (dev->frame_open)
        return hl__fail(HL_ERR_INVALID_STATE, "%s: a frame is open (end it first: present shows submitted work)", fn);
    hl__texture *t = hl__pool_get(dev, HL__POOL_TEXTURE, s->texture.id);
    if (!t) return hl__fail(HL_ERR_INVALID_STATE, "%s: no texture is acquired (hl_rhi_surface_acquire first)", fn);
    r = dev->fns->surface_present(dev, s, t);
    hl__surface_retire_texture(dev, s, slot); /* shown or not, the frame's texture is over */
    return r;
}

hl_result hl_rhi_surface_test_force_status(hl_rhi_device *dev, hl_rhi_surface surface, hl_rhi_surface_status status) {
    const char *fn = "hl_rhi_surface_test_force_status";
    hl_result r;
    hl__surface *s = hl__surface_get(dev, surface, fn, &r, NULL);
    if (!s) return r;
    if ((unsigned)status > HL_RHI_SURFACE_LOST)
        return hl__fail(HL_ERR_VALIDATION, "%s: status %d is out of range", fn, (int)status);
    s->forced = status;
    return HL_OK;
}
