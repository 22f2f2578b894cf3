/* Render bundles (hl_rhi.h, "render bundles"): creation runs the packets through the same packet
 * loop as hl_rhi_cmd_draw_packets on a recording context of the bundle's layout, into the
 * backend's bundle recording (webgpu) or through a table of no-ops (backends without native
 * bundles: the core keeps the packets and draws them at execute). What the packets name is
 * listed once per object with the slot's birth number: execute checks that list (a stale bundle
 * is refused) and marks each object used by the frame. */
#include <stdio.h>
#include <string.h>

#include "core_private.h"

#define HL__STALE "handle is destroyed or stale"

/* ---- the recording table of backends without native bundles ----------------------------------- */
static void noop_set_pipeline(hl_rhi_cmd *cmd, hl__render_pipeline *p) { (void)cmd, (void)p; }
static void noop_set_bind_group(hl_rhi_cmd *cmd, uint32_t index, hl__bind_group *g, const uint32_t *offsets,
                                uint32_t offset_count) {
    (void)cmd, (void)index, (void)g, (void)offsets, (void)offset_count;
}
static void noop_set_vertex_buffer(hl_rhi_cmd *cmd, uint32_t slot, hl__buffer *buf, uint64_t offset) {
    (void)cmd, (void)slot, (void)buf, (void)offset;
}
static void noop_set_index_buffer(hl_rhi_cmd *cmd, hl__buffer *buf, hl_rhi_index_format format, uint64_t offset) {
    (void)cmd, (void)buf, (void)format, (void)offset;
}
static void noop_draw(hl_rhi_cmd *cmd, uint32_t vertex_count, uint32_t instance_count, uint32_t first_vertex,
                      uint32_t first_instance) {
    (void)cmd, (void)vertex_count, (void)instance_count, (void)first_vertex, (void)first_instance;
}
static void noop_draw_indexed(hl_rhi_cmd *cmd, uint32_t index_count, uint32_t instance_count, uint32_t first_index,
                              int32_t base_vertex, uint32_t first_instance) {
    (void)cmd, (void)index_count, (void)instance_count, (void)first_index, (void)base_vertex, (void)first_instance;
}

static const hl__rhi_backend_fns hl__bundle_noop_fns = {
    .name = "bundle (kept by the core)",
    .set_pipeline = noop_set_pipeline,
    .set_bind_group = noop_set_bind_group,
    .set_vertex_buffer = noop_set_vertex_buffer,
    .set_index_buffer = noop_set_index_buffer,
    .draw = noop_draw,
    .draw_indexed = noop_draw_indexed,
};

/* ---- validation ------------------------------------------------------------------------------- */
static hl_result hl__validate_bundle_desc(const hl_rhi_device *dev, const hl_rhi_render_bundle_desc *d) {
    const char *fn = "hl_rhi_render_bundle_create";
    if (!d) return hl__fail(HL_ERR_VALIDATION, "%s: desc is NULL", fn);
    uint32_t max = dev->caps.limits.max_color_attachments < HL_RHI_MAX_COLOR_ATTACHMENTS ? dev->caps.limits.max_color_attachments
                                                                                        : HL_RHI_MAX_COLOR_ATTACHMENTS;
    if (d->color_format_count > max)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.color_format_count %u exceeds %u", fn, d->color_format_count, max);
    for (uint32_t i = 0; i < d->color_format_count; i++) {
        hl_rhi_format f = d->color_formats[i];
        if (!hl__format_valid(f) || hl_rhi_format_get_info(f)->is_depth)
            return hl__fail(HL_ERR_VALIDATION, "%s: desc.color_formats[%u] (%d) is not a colour format", fn, i, (int)f);
        if (!(dev->caps.formats[f].flags & HL_RHI_FORMAT_CAP_RENDERABLE))
            return hl__fail(HL_ERR_VALIDATION, "%s: desc.color_formats[%u] %s is not renderable", fn, i,
                            hl_rhi_format_get_info(f)->name);
    }
    if (d->depth_format != HL_RHI_FORMAT_UNDEFINED &&
        (!hl__format_valid(d->depth_format) || !hl_rhi_format_get_info(d->depth_format)->is_depth))
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.depth_format (%d) is not a depth format", fn, (int)d->depth_format);
    if (!d->color_format_count && d->depth_format == HL_RHI_FORMAT_UNDEFINED)
        return hl__fail(HL_ERR_VALIDATION, "%s: the layout has no colour format and no depth format", fn);
    uint32_t samples = d->sample_count ? d->sample_count : 1u;
    if (samples != 1 && samples != 4)
        return hl__fail(HL_ERR_VALIDATION, "%s: desc.sample_count %u (must be 1 or 4)", fn, samples);
    if (!d->packet_count) return hl__fail(HL_ERR_VALIDATION, "%s: desc.packet_count is 0", fn);
    if (!d->packets) return hl__fail(HL_ERR_VALIDATION, "%s: desc.packets is NULL", fn);
    return HL_OK;
}

/* ---- the arrays bundles keep: size classes of 2^k items, recycled through dev->bundle_free ------- */
static uint32_t hl__size_class(uint32_t n) {
    uint32_t k = 4; /* 16 items at least */
    while ((1u << k) < n && k < 31) k++;
    return k;
}

uint32_t hl__bundle_room_need(const hl__render_bundle *b, uint32_t need) {
    if (b->packet_room <= b->packet_count || !b->packet_count) return need;
    uint64_t scaled = ((uint64_t)need * b->packet_room + b->packet_count - 1u) / b->packet_count;
    return scaled > UINT32_MAX / 2u ? need : (uint32_t)scaled;
}

/* An array of at least `need` items of kind (HL__BUNDLE_ARRAY_*); *klass: its class. A free one
 * of the class or of a larger one, else a new one of the class. */
void *hl__bundle_array_take(hl_rhi_device *dev, int kind, uint32_t need, size_t elem, uint32_t *klass) {
    uint32_t k = hl__size_class(need);
    if (need > (1u << k)) return NULL;
    for (uint32_t j = k; j < 32; j++) {
        struct hl__bundle_free *fj = &dev->bundle_free[kind][j];
        if (!fj->count) continue;
        *klass = j;
        return fj->items[--fj->count];
    }
    /* A new array is made of the largest class made so far: every array made after the first
       frames serves any request, so a churned scene, whose chunks move across class boundaries,
       stops allocating once the arrays in use and in flight are covered (made of their own
       class, a request for a class just above the free ones would allocate again, and again
       whenever the mix of sizes drifted) */
    if (k < dev->bundle_top_class[kind]) k = dev->bundle_top_class[kind];
    /* a new largest class: the arrays of smaller ones serve no request of this size, so the new
       class is made for as many arrays as the kind holds in all (with its spares below) */
    uint32_t population = 0;
    if (k > dev->bundle_top_class[kind])
        for (uint32_t j = 0; j < k; j++) population += dev->bundle_free[kind][j].total;
    dev->bundle_top_class[kind] = k;
    struct hl__bundle_free *f = &dev->bundle_free[kind][k];
    *klass = k;
    /* A new array, and half the class's count more (two at least) spare in the free list: the
       arrays in use and in flight drift up and down with the content (a few bundles re-recorded
       in one frame while the ones they replace wait for the GPU), and each new high would
       allocate again (a quarter more, one at least, still met a new high every 70 frames of a
       churned 1k scene). The list gets room for them all now, so that giving one back never
       allocates. */
    uint32_t spare = (f->total + population) / 2u + 2u + population;
    size_t bytes;
    if (!hl__mul_size((size_t)1 << k, elem, &bytes) ||
        !hl__reserve((void **)&f->items, &f->capacity, f->total + 1u + spare, sizeof *f->items))
        return NULL;
    void *a = hl__malloc(bytes);
    if (!a) return NULL;
    f->total++;
    for (uint32_t i = 0; i < spare; i++) {
        void *b = hl__malloc(bytes);
        if (!b) break; /* spares only: the array asked for is made */
        f->items[f->count++] = b;
        f->total++;
    }
    return a;
}

void hl__bundle_array_give(hl_rhi_device *dev, int kind, void *a, uint32_t k) {
    if (!a) return;
    struct hl__bundle_free *f = &dev->bundle_free[kind][k];
    if (f->count < f->capacity) {
        f->items[f->count++] = a;
    } else { /* not one of the list's (cannot happen) */
        hl__free(a);
        if (f->total) f->total--;
    }
}

void hl__bundle_arrays_release(hl_rhi_device *dev, hl__render_bundle *b) {
    hl__bundle_array_give(dev, HL__BUNDLE_ARRAY_PACKETS, b->packets, b->packet_class);
    hl__bundle_array_give(dev, HL__BUNDLE_ARRAY_USES, b->uses, b->use_class);
    b->packets = NULL;
    b->uses = NULL;
}

void hl__bundle_arrays_free(hl_rhi_device *dev) {
    for (int kind = 0; kind < HL__BUNDLE_ARRAY_KINDS; kind++)
        for (uint32_t k = 0; k < 32; k++) {
            struct hl__bundle_free *f = &dev->bundle_free[kind][k];
            for (uint32_t i = 0; i < f->count; i++) hl__free(f->items[i]);
            hl__free(f->items);
            memset(f, 0, sizeof *f);
        }
    hl__free(dev->bundle_uses);
    dev->bundle_uses = NULL;
    dev->bundle_use_capacity = 0;
    memset(dev->bundle_top_class, 0, sizeof dev->bundle_top_class);
}

/* ---- what a bundle names ---------------------------------------------------------------------- */
typedef struct hl__use_list {
    uint32_t count;
    uint64_t seen[64]; /* direct-mapped: (pool + 1) << 32 | id of recent additions */
    bool oom;
} hl__use_list;

/* Adds (pool, id) to dev->bundle_uses unless it was just added; true when it was new (the caller
 * expands a group). */
static bool hl__use_add(hl_rhi_device *dev, hl__use_list *l, uint32_t pool, uint32_t id) {
    if (!id) return false;
    uint64_t key = ((uint64_t)(pool + 1u) << 32) | id;
    /* placed without the device tag: the same packets give the same list on every device */
    uint64_t tag = (uint64_t)((1u << HL__HANDLE_TAG_BITS) - 1u) << (HL__HANDLE_INDEX_BITS + HL__HANDLE_GEN_BITS);
    uint32_t h = (uint32_t)(hl__hash_mix(key & ~tag) & 63u);
    if (l->seen[h] == key) return false;
    uint32_t slot;
    if (!hl__pool_lookup(dev, pool, id, &slot)) return false; /* validated: only unused ids reach here */
    l->seen[h] = key;
    /* high-water, from 1,024 (a chunk's distinct objects rarely pass that: churn grows it rarely) */
    if (!hl__reserve((void **)&dev->bundle_uses, &dev->bundle_use_capacity, l->count < 1024u ? 1024u : l->count + 1u,
                     sizeof *dev->bundle_uses)) {
        l->oom = true;
        return false;
    }
    dev->bundle_uses[l->count++] = (hl__bundle_use){pool, slot, dev->pools[pool].birth[slot]};
    return true;
}

static void hl__use_packet(hl_rhi_device *dev, hl__use_list *l, const hl_rhi_draw_packet *p) {
    hl__use_add(dev, l, HL__POOL_RENDER_PIPELINE, p->pipeline.id);
    for (uint32_t g = 0; g < p->bind_group_count; g++) {
        if (!hl__use_add(dev, l, HL__POOL_BIND_GROUP, p->bind_groups[g].id)) continue;
        const hl__bind_group *bg = hl__pool_get(dev, HL__POOL_BIND_GROUP, p->bind_groups[g].id);
        for (uint32_t e = 0; bg && e < bg->entry_count; e++) {
            const hl_rhi_bind_group_entry *en = &bg->entries[e];
            hl__use_add(dev, l, HL__POOL_BUFFER, en->buffer.id);
            hl__use_add(dev, l, HL__POOL_SAMPLER, en->sampler.id);
            if (hl__use_add(dev, l, HL__POOL_VIEW, en->view.id)) {
                const hl__texture_view *v = hl__pool_get(dev, HL__POOL_VIEW, en->view.id);
                if (v) hl__use_add(dev, l, HL__POOL_TEXTURE, v->texture.id);
            }
        }
    }
    for (uint32_t v = 0; v < p->vertex_buffer_count; v++) hl__use_add(dev, l, HL__POOL_BUFFER, p->vertex_buffers[v].id);
    if (p->indexed) hl__use_add(dev, l, HL__POOL_BUFFER, p->index_buffer.id);
}

static bool hl__bundle_current(const hl_rhi_device *dev, const hl__render_bundle *b, uint32_t *stale) {
    for (uint32_t i = 0; i < b->use_count; i++) {
        const hl__bundle_use *u = &b->uses[i];
        const hl__pool *p = &dev->pools[u->pool];
        if (u->slot >= p->capacity || p->state[u->slot] != HL__SLOT_LIVE || p->birth[u->slot] != u->birth) {
            if (stale) *stale = i;
            return false;
        }
    }
    return true;
}

/* ---- create / destroy ------------------------------------------------------------------------- */
hl_result hl_rhi_render_bundle_create(hl_rhi_device *dev, const hl_rhi_render_bundle_desc *desc, hl_rhi_render_bundle *out) {
    const char *fn = "hl_rhi_render_bundle_create";
    hl_result r = hl__check_device(dev, fn);
    if (r) return r;
    if (!out) return hl__fail(HL_ERR_VALIDATION, "%s: out is NULL", fn);
    out->id = 0;
    if ((r = hl__validate_bundle_desc(dev, desc))) return r;

    hl__render_bundle b;
    memset(&b, 0, sizeof b);
    b.color_format_count = desc->color_format_count;
    for (uint32_t i = 0; i < desc->color_format_count; i++) b.color_formats[i] = desc->color_formats[i];
    b.depth_format = desc->depth_format;
    b.sample_count = desc->sample_count ? desc->sample_count : 1u;
    b.packet_count = desc->packet_count;
    b.packet_room = desc->packet_room > desc->packet_count ? desc->packet_room : desc->packet_count;

    /* the recording context: a render pass of the bundle's layout with nothing bound */
    hl_rhi_cmd rec;
    memset(&rec, 0, sizeof rec);
    rec.dev = dev;
    rec.pass = HL__PASS_RENDER;
    rec.serial = dev->cmd.serial;
    rec.rp.color_count = b.color_format_count;
    for (uint32_t i = 0; i < b.color_format_count; i++) rec.rp.color_format[i] = b.color_formats[i];
    rec.rp.depth_format = b.depth_format;
    rec.rp.sample_count = b.sample_count;
    hl__cmd_reset_bindings(&rec);
    bool native = dev->fns->bundle_begin != NULL;
    rec.fns = native ? dev->fns->bundle_fns : &hl__bundle_noop_fns;
    if (native && (r = dev->fns->bundle_begin(&rec, &b))) return r;

    /* the packets go through the packet loop; its counters are the execute's, not this call's */
    hl_rhi_stats s0 = dev->stats;
    uint32_t failed = 0;
    dev->recording_bundle = true;
    r = hl__cmd_draw_packet_list(&rec, desc->packets, desc->packet_count, &failed, fn);
    dev->recording_bundle = false;
    b.pipeline_switches = (uint32_t)(dev->stats.pipeline_switches - s0.pipeline_switches);
    b.bind_group_switches = (uint32_t)(dev->stats.bind_group_switches - s0.bind_group_switches);
    b.vertex_buffer_switches = (uint32_t)(dev->stats.vertex_buffer_switches - s0.vertex_buffer_switches);
    uint64_t native_calls = dev->stats.native_calls;
    dev->stats = s0;
    dev->stats.native_calls = native_calls;
    if (r) {
        char msg[400];
        snprintf(msg, sizeof msg, "%s", hl_last_error());
        if (native) dev->fns->bundle_end(&rec, &b, true);
        size_t skip = strncmp(msg, fn, strlen(fn)) == 0 && msg[strlen(fn)] == ':' ? strlen(fn) + 2 : 0;
        return hl__fail(r, "%s: packets[%u]: %s", fn, failed, msg + skip);
    }
    if (native && (r = dev->fns->bundle_end(&rec, &b, false))) return r;

    /* what the packets name, their copy and the slot */
    hl__use_list uses;
    memset(&uses, 0, sizeof uses);
    for (uint32_t i = 0; i < b.packet_count && !uses.oom; i++) hl__use_packet(dev, &uses, &desc->packets[i]);
    b.use_count = uses.count;
    b.packets = uses.oom ? NULL
                         : hl__bundle_array_take(dev, HL__BUNDLE_ARRAY_PACKETS, b.packet_room, sizeof *b.packets,
                                                 &b.packet_class);
    /* the objects the packets name: up to several a packet, but neighbouring packets share most
       (a renderer's chunk names its pipelines, shared groups, materials and buffers): room for
       half the packet room, or more when there are more */
    uint32_t use_need = b.use_count > b.packet_room / 2u ? b.use_count : b.packet_room / 2u;
    b.uses = b.packets ? hl__bundle_array_take(dev, HL__BUNDLE_ARRAY_USES, use_need, sizeof *b.uses, &b.use_class) : NULL;
    uint32_t id = 0;
    hl__render_bundle *item = NULL;
    if (!b.packets || !b.uses || !hl__pool_alloc(dev, HL__POOL_RENDER_BUNDLE, &id, (void **)&item)) {
        if (b.be.ptr) dev->fns->bundle_destroy(dev, &b);
        hl__bundle_arrays_release(dev, &b);
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: out of memory for the bundle's %u packets", fn, desc->packet_count);
    }
    memcpy(b.packets, desc->packets, (size_t)b.packet_count * sizeof *b.packets);
    memcpy(b.uses, dev->bundle_uses, (size_t)b.use_count * sizeof *b.uses);
    *item = b;
    dev->stats.objects_created++;
    if (dev->frame_open) dev->stats.transient_allocations++;
    out->id = id;
    return HL_OK;
}

void hl_rhi_render_bundle_destroy(hl_rhi_device *dev, hl_rhi_render_bundle b) {
    if (!hl__may_destroy(dev, "hl_rhi_render_bundle_destroy")) return;
    uint32_t slot;
    if (!hl__pool_lookup(dev, HL__POOL_RENDER_BUNDLE, b.id, &slot)) return;
    hl__destroy_object(dev, HL__POOL_RENDER_BUNDLE, slot);
}

bool hl_rhi_render_bundle_is_current(hl_rhi_device *dev, hl_rhi_render_bundle b) {
    if (!dev || !hl__owned_here(dev) || dev->lost) return false;
    const hl__render_bundle *item = hl__pool_get(dev, HL__POOL_RENDER_BUNDLE, b.id);
    return item && hl__bundle_current(dev, item, NULL);
}

uint32_t hl_rhi_render_bundle_draw_count(hl_rhi_device *dev, hl_rhi_render_bundle b) {
    if (!dev || !hl__owned_here(dev)) return 0;
    const hl__render_bundle *item = hl__pool_get(dev, HL__POOL_RENDER_BUNDLE, b.id);
    return item ? item->packet_count : 0;
}

/* ---- execute ---------------------------------------------------------------------------------- */
static hl_result hl__check_bundle(hl_rhi_cmd *cmd, uint32_t i, uint32_t id, hl__render_bundle **out, uint32_t *out_slot,
                                  const char *fn) {
    hl_rhi_device *dev = cmd->dev;
    hl__render_bundle *b = hl__pool_lookup(dev, HL__POOL_RENDER_BUNDLE, id, out_slot);
    if (!b) return hl__fail(HL_ERR_VALIDATION, "%s: bundles[%u]: " HL__STALE, fn, i);
    const hl__render_pass_info *rp = &cmd->rp;
    bool same = b->color_format_count == rp->color_count && b->depth_format == rp->depth_format &&
                b->sample_count == rp->sample_count;
    for (uint32_t k = 0; same && k < rp->color_count; k++) same = b->color_formats[k] == rp->color_format[k];
    if (!same)
        return hl__fail(HL_ERR_VALIDATION,
                        "%s: bundles[%u] was recorded for %u colour formats (first %s), depth %s, %u samples; the pass "
                        "has %u (first %s), depth %s, %u samples",
                        fn, i, b->color_format_count,
                        hl_rhi_format_get_info(b->color_format_count ? b->color_formats[0] : HL_RHI_FORMAT_UNDEFINED)->name,
                        hl_rhi_format_get_info(b->depth_format)->name, b->sample_count, rp->color_count,
                        hl_rhi_format_get_info(rp->color_count ? rp->color_format[0] : HL_RHI_FORMAT_UNDEFINED)->name,
                        hl_rhi_format_get_info(rp->depth_format)->name, rp->sample_count);
    uint32_t stale = 0;
    if (!hl__bundle_current(dev, b, &stale))
        return hl__fail(HL_ERR_VALIDATION, "%s: bundles[%u] names a %s that was destroyed after the bundle was recorded", fn,
                        i, dev->pools[b->uses[stale].pool].type_name);
    *out = b;
    return HL_OK;
}

hl_result hl_rhi_cmd_execute_bundles(hl_rhi_cmd *cmd, const hl_rhi_render_bundle *bundles, uint32_t count) {
    const char *fn = "hl_rhi_cmd_execute_bundles";
    if (!cmd || !cmd->dev) return hl__fail(HL_ERR_VALIDATION, "%s: cmd is NULL", fn);
    hl_rhi_device *dev = cmd->dev;
    if (dev->lost) return hl__fail(HL_ERR_DEVICE_LOST, "%s: the device is lost", fn);
    if (!dev->frame_open || cmd != &dev->cmd) return hl__fail(HL_ERR_INVALID_STATE, "%s: no frame is open", fn);
    if (cmd->pass != HL__PASS_RENDER) return hl__fail(HL_ERR_INVALID_STATE, "%s: no render pass is open", fn);
    if (count && !bundles) return hl__fail(HL_ERR_VALIDATION, "%s: bundles is NULL", fn);
    if (cmd->rp.depth && (cmd->rp.depth_desc.depth_read_only || cmd->rp.depth_desc.stencil_read_only))
        return hl__fail(HL_ERR_VALIDATION, "%s: the pass's depth/stencil attachment is read-only (bundles write it)", fn);
    dev->stats.commands++;
    hl_result r = HL_OK;
    enum { BATCH = 64 };
    hl__render_bundle *items[BATCH];
    for (uint32_t first = 0; first < count; first += BATCH) {
        uint32_t n = count - first < BATCH ? count - first : BATCH;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t slot;
            if ((r = hl__check_bundle(cmd, first + i, bundles[first + i].id, &items[i], &slot, fn))) return r;
            hl__rhi_use_object(dev, HL__POOL_RENDER_BUNDLE, slot);
            for (uint32_t u = 0; u < items[i]->use_count; u++)
                hl__rhi_use_object(dev, items[i]->uses[u].pool, items[i]->uses[u].slot);
        }
        if (dev->fns->execute_bundles) {
            dev->fns->execute_bundles(cmd, items, n);
            for (uint32_t i = 0; i < n; i++) {
                dev->stats.draws += items[i]->packet_count;
                dev->stats.pipeline_switches += items[i]->pipeline_switches;
                dev->stats.bind_group_switches += items[i]->bind_group_switches;
                dev->stats.vertex_buffer_switches += items[i]->vertex_buffer_switches;
            }
        } else {
            /* the core's bundles: each one's packets from nothing bound, through the pass's draw loop */
            for (uint32_t i = 0; i < n && !r; i++) {
                hl__cmd_reset_draw_state(cmd);
                uint32_t failed = 0;
                r = hl__cmd_draw_packet_list(cmd, items[i]->packets, items[i]->packet_count, &failed, fn);
                if (r) {
                    char msg[400];
                    snprintf(msg, sizeof msg, "%s", hl_last_error());
                    size_t skip = strncmp(msg, fn, strlen(fn)) == 0 && msg[strlen(fn)] == ':' ? strlen(fn) + 2 : 0;
                    r = hl__fail(r, "%s: bundles[%u] packets[%u]: %s", fn, first + i, failed, msg + skip);
                }
            }
        }
        hl__cmd_reset_draw_state(cmd);
        if (r) return r;
        if (dev->tap && dev->tap->packets)
            for (uint32_t i = 0; i < n; i++) dev->tap->packets(dev->tap->user, items[i]->packets, items[i]->packet_count);
    }
    return HL_OK;
}
