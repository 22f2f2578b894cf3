/* Persistent targets of pipeline runtimes: textures kept across frames under a key (history
 * buffers, accumulations). A new key, or a new recipe (format or size, relative sizes
 * following the output), makes a new texture, cleared to 0, that replaces the old one only
 * when the frame's submission is valid; a failed frame keeps the old one. A release takes
 * effect with a valid submission too, and a key acquired in the frame cannot be released in it. */
#include <string.h>

#include "pipeline_internal.h"

static hl__persistent *find(hl_pipeline_runtime *rt, uint64_t key) {
    for (uint32_t i = 0; i < rt->persistent_count; i++)
        if (rt->persistent[i].key == key) return &rt->persistent[i];
    return NULL;
}

hl_result hl_pipeline_acquire_persistent_target(hl_pipeline_context ctx, uint64_t key,
                                                const hl_pipeline_persistent_desc *desc, hl_pipeline_texture *out,
                                                bool *fresh) {
    const char *fn = "hl_pipeline_acquire_persistent_target";
    hl_result res;
    invocation *inv = hl__pipeline_current(ctx, fn, &res);
    if (!inv) return res;
    if (!desc || !out) return hl__fail(HL_ERR_VALIDATION, "%s: %s is NULL", fn, desc ? "out" : "desc");
    *out = (hl_pipeline_texture){0, 0};
    const char *name = desc->name && desc->name[0] ? desc->name : "persistent";
    if ((unsigned)desc->format > HL_PIPELINE_FORMAT_R8)
        return hl__fail(HL_ERR_VALIDATION, "%s: '%s': format %d is not a colour format", fn, name, (int)desc->format);
    uint32_t w = 0, h = 0;
    if ((res = hl__pipeline_texture_size(inv, desc->width, desc->height, desc->scale, desc->min_size, fn, name, &w, &h)))
        return res;
    hl_rhi_format format = hl__pipeline_rhi_formats[desc->format];
    hl_pipeline_runtime *rt = inv->rt;
    hl_renderer *r = inv->r;
    hl__persistent *p = find(rt, key);
    if (p && p->release_pending)
        return hl__fail(HL_ERR_INVALID_STATE, "%s: '%s' (key %llu) was released in this frame", fn, name,
                        (unsigned long long)key);
    if (!p) {
        if (!hl__reserve((void **)&rt->persistent, &rt->persistent_capacity, rt->persistent_count + 1,
                         sizeof *rt->persistent))
            return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: out of memory", fn);
        p = &rt->persistent[rt->persistent_count++];
        memset(p, 0, sizeof *p);
        p->key = key;
    }
    bool is_fresh = false;
    hl_rhi_texture tex = p->tex;
    if (p->pending.id && p->pending_format == format && p->pending_width == w && p->pending_height == h) {
        tex = p->pending; /* acquired again in this frame */
        is_fresh = true;
    } else if (!p->tex.id || p->format != format || p->width != w || p->height != h) {
        if (p->pending.id) { /* a second recipe in one frame: the first one goes */
            hl_rhi_texture_destroy(r->dev, p->pending);
            p->pending = (hl_rhi_texture){0};
        }
        hl_rhi_texture_desc td = {0};
        td.format = format;
        td.width = w;
        td.height = h;
        td.usage = HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT | HL_RHI_TEXTURE_USAGE_SAMPLED | HL_RHI_TEXTURE_USAGE_COPY_SRC |
                   HL_RHI_TEXTURE_USAGE_COPY_DST;
        td.label = name;
        if ((res = hl_rhi_texture_create(r->dev, &td, &p->pending))) return res;
        p->pending_format = format;
        p->pending_width = w;
        p->pending_height = h;
        tex = p->pending;
        is_fresh = true;
    }
    p->acquired_serial = r->frame_serial;
    if (p->imported_serial != r->frame_serial || p->imported_tex.id != tex.id) { /* one import per texture and frame */
        p->imported = hl_graph_import_texture(r->graph, tex, name);
        if (!p->imported.id) return hl_last_error_code() ? hl_last_error_code() : HL_ERR_VALIDATION;
        p->imported_serial = r->frame_serial;
        p->imported_tex = tex;
        hl_graph_mark_output_texture(r->graph, p->imported); /* what is written there is a result of the frame */
        if (is_fresh && (res = hl__add_clear_pass(r, "clear persistent", p->imported))) return res;
    }
    *out = (hl_pipeline_texture){inv->token, p->imported.id};
    if (fresh) *fresh = is_fresh;
    return HL_OK;
}

hl_result hl_pipeline_release_persistent_target(hl_pipeline_context ctx, uint64_t key) {
    const char *fn = "hl_pipeline_release_persistent_target";
    hl_result res;
    invocation *inv = hl__pipeline_current(ctx, fn, &res);
    if (!inv) return res;
    hl__persistent *p = find(inv->rt, key);
    if (!p) return hl__fail(HL_ERR_VALIDATION, "%s: no persistent target with key %llu", fn, (unsigned long long)key);
    if (p->acquired_serial == inv->r->frame_serial)
        return hl__fail(HL_ERR_INVALID_STATE, "%s: key %llu was acquired in this frame (release it in a later one)", fn,
                        (unsigned long long)key);
    p->release_pending = true;
    return HL_OK;
}

void hl__persistent_frame_end(hl_pipeline_runtime *rt, bool ok) {
    hl_renderer *r = rt->renderer;
    uint32_t k = 0;
    for (uint32_t i = 0; i < rt->persistent_count; i++) {
        hl__persistent *p = &rt->persistent[i];
        if (ok && p->pending.id) { /* the new recipe is committed */
            if (p->tex.id) hl_rhi_texture_destroy(r->dev, p->tex);
            p->tex = p->pending;
            p->format = p->pending_format;
            p->width = p->pending_width;
            p->height = p->pending_height;
        } else if (p->pending.id) { /* rolled back: the old texture stays */
            hl_rhi_texture_destroy(r->dev, p->pending);
        }
        p->pending = (hl_rhi_texture){0};
        p->imported = (hl_graph_texture){0};
        bool gone = (ok && p->release_pending) || !p->tex.id;
        p->release_pending = false;
        if (gone) {
            if (p->tex.id) hl_rhi_texture_destroy(r->dev, p->tex);
            continue;
        }
        rt->persistent[k++] = *p;
    }
    rt->persistent_count = k;
}

void hl__persistent_free(hl_pipeline_runtime *rt) {
    for (uint32_t i = 0; i < rt->persistent_count; i++) {
        if (rt->persistent[i].tex.id) hl_rhi_texture_destroy(rt->renderer->dev, rt->persistent[i].tex);
        if (rt->persistent[i].pending.id) hl_rhi_texture_destroy(rt->renderer->dev, rt->persistent[i].pending);
    }
    hl__free(rt->persistent);
    rt->persistent = NULL;
    rt->persistent_count = rt->persistent_capacity = 0;
}
