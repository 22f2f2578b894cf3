/* Render bundles on gles3 (hl_rhi.h, "render bundles"; rhi_internal.h, bundle_begin).
 *
 * The core runs a bundle's packets through its packet loop once, at creation, into the recording
 * table below: the checks are made then, and every draw is resolved to what GL needs, in the
 * recorder's own copy of the draw state (a bundle may be recorded inside an open pass). A draw
 * after a change of pipeline, bind groups or buffers keeps the whole draw state, applied at
 * execute through the pass setters and hl__gl_flush (the state cache, the VAO cache, the
 * program's texture units); every other draw keeps only the UBO ranges its new dynamic offsets
 * select (from the program's dynamic slots of its groups, known at recording) and its GL draw
 * arguments. Execute then walks the draws: no packet checks, no state diff beyond the UBO range
 * cache, one GL draw call each.
 *
 * Each bundle is one array of the core's size classes (HL__BUNDLE_ARRAY_BACKEND): its header,
 * its draws, states and ranges; the recorder's arrays are high-water ones of the device. So
 * bundles recorded again and again (churn) allocate nothing once warm. What a bundle names (its
 * pipelines' programs, its groups' entries, buffer names) stays valid while the core deems the
 * bundle current, which it checks before every execute. */
#include <string.h>

#include "gles3_internal.h"

typedef struct hl__gl_bundle_blob {
    uint32_t klass; /* the array's size class */
    uint32_t draw_count, state_count, bind_count;
    size_t states_at, binds_at; /* byte offsets from the blob's start */
} hl__gl_bundle_blob;

#define HL__ALIGN8(x) (((x) + 7u) & ~(size_t)7u)

static hl__gl_bundle_recorder *recorder(hl_rhi_cmd *rec) { return &hl__gl(rec->dev)->rec; }

/* ---- recording ------------------------------------------------------------------------------ */
static void rec_set_pipeline(hl_rhi_cmd *rec, hl__render_pipeline *p) {
    hl__gl_bundle_recorder *r = recorder(rec);
    hl__gl_pipeline *gp = p ? p->be.ptr : NULL;
    if (r->cur.pipeline == gp) return;
    r->cur.pipeline = gp;
    r->state_dirty = true;
}

static void rec_set_bind_group(hl_rhi_cmd *rec, uint32_t index, hl__bind_group *grp, const uint32_t *offsets,
                               uint32_t offset_count) {
    hl__gl_bundle_recorder *r = recorder(rec);
    if (index >= HL_RHI_MAX_BIND_GROUPS) return;
    hl__gl_bind_group *bg = grp ? grp->be.ptr : NULL;
    uint32_t n = offset_count < HL_RHI_MAX_BINDINGS ? offset_count : HL_RHI_MAX_BINDINGS;
    for (uint32_t i = 0; i < n; i++) r->cur.dyn[index][i] = offsets[i];
    if (bg && bg == r->cur.groups[index] && n && n == r->cur.dyn_count[index]) {
        r->offsets_dirty |= (uint8_t)(1u << index);
        return;
    }
    r->cur.groups[index] = bg;
    r->cur.dyn_count[index] = n;
    r->state_dirty = true;
}

static void rec_set_vertex_buffer(hl_rhi_cmd *rec, uint32_t slot, hl__buffer *buf, uint64_t offset) {
    hl__gl_bundle_recorder *r = recorder(rec);
    if (slot >= HL_RHI_MAX_VERTEX_BUFFERS) return;
    r->cur.vb[slot] = buf ? buf->be.u32[0] : 0;
    r->cur.vb_offset[slot] = offset;
    r->state_dirty = true;
}

static void rec_set_index_buffer(hl_rhi_cmd *rec, hl__buffer *buf, hl_rhi_index_format format, uint64_t offset) {
    hl__gl_bundle_recorder *r = recorder(rec);
    r->cur.ib = buf ? buf->be.u32[0] : 0;
    r->cur.index_format = format;
    r->cur.ib_offset = offset;
    r->state_dirty = true;
}

/* The next draw: the whole state when it changed (and always first: a bundle starts with nothing
 * bound), else the UBO ranges of the groups with new dynamic offsets that the program reads. */
static void rec_draw(hl_rhi_cmd *rec, bool indexed, uint32_t count, uint32_t instances, uint32_t first) {
    hl__gl_bundle_recorder *r = recorder(rec);
    hl__gl_pipeline *p = r->cur.pipeline;
    if (r->oom || !p) return; /* the core binds a pipeline before any draw */
    if (!hl__reserve((void **)&r->draws, &r->draw_capacity, r->draw_count + 1u, sizeof *r->draws)) {
        r->oom = true;
        return;
    }
    hl__gl_bundle_draw *d = &r->draws[r->draw_count++];
    memset(d, 0, sizeof *d);
    d->state = UINT32_MAX;
    d->bind_first = r->bind_count;
    if (r->state_dirty || r->draw_count == 1) {
        if (!hl__reserve((void **)&r->states, &r->state_capacity, r->state_count + 1u, sizeof *r->states)) {
            r->oom = true;
            return;
        }
        d->state = r->state_count;
        r->states[r->state_count++] = r->cur;
        for (uint32_t gi = 0; gi < HL_RHI_MAX_BIND_GROUPS; gi++)
            r->dyn_slot_count[gi] = hl__gl_dynamic_slots(p->prog, r->cur.groups[gi], gi, r->dyn_slots[gi]);
        r->state_dirty = false;
    } else {
        uint8_t groups = r->offsets_dirty & p->prog->group_mask;
        for (uint32_t gi = 0; groups; gi++, groups >>= 1) {
            if (!(groups & 1u)) continue;
            for (uint32_t k = 0; k < r->dyn_slot_count[gi]; k++) {
                const hl__gl_bg_entry *e = r->dyn_slots[gi][k].e;
                if (!hl__reserve((void **)&r->binds, &r->bind_capacity, r->bind_count + 1u, sizeof *r->binds)) {
                    r->oom = true;
                    return;
                }
                r->binds[r->bind_count++] =
                    (hl__gl_bundle_bind){r->dyn_slots[gi][k].slot, e->buffer, e->offset + r->cur.dyn[gi][e->dynamic_index], e->size};
            }
        }
        d->bind_count = r->bind_count - d->bind_first;
    }
    /* offsets of groups the program does not read reach GL with the next state (it has them all) */
    r->offsets_dirty = 0;
    d->mode = p->mode;
    d->count = (GLsizei)count;
    d->instances = (GLsizei)instances;
    if (indexed) {
        bool wide = r->cur.index_format == HL_RHI_INDEX_UINT32;
        d->index_type = wide ? GL_UNSIGNED_INT : GL_UNSIGNED_SHORT;
        d->index_ptr = (uintptr_t)(r->cur.ib_offset + (uint64_t)first * (wide ? 4u : 2u));
        if (!r->cur.ib) d->count = 0; /* as hl__gl_draw_indexed: nothing without an index buffer */
    } else {
        d->first = (GLint)first;
    }
}

static void rec_draw_plain(hl_rhi_cmd *rec, uint32_t vertex_count, uint32_t instance_count, uint32_t first_vertex,
                           uint32_t first_instance) {
    (void)first_instance; /* 0: FIRST_INSTANCE is not a gles3 feature */
    rec_draw(rec, false, vertex_count, instance_count, first_vertex);
}

static void rec_draw_indexed(hl_rhi_cmd *rec, uint32_t index_count, uint32_t instance_count, uint32_t first_index,
                             int32_t base_vertex, uint32_t first_instance) {
    (void)base_vertex, (void)first_instance; /* 0: neither is a gles3 feature */
    rec_draw(rec, true, index_count, instance_count, first_index);
}

static void rec_draw_run(hl_rhi_cmd *rec, const hl_rhi_draw_packet *p, uint32_t n, uint32_t dyn) {
    hl__gl_bundle_recorder *r = recorder(rec);
    for (const hl_rhi_draw_packet *end = p + n; p < end; p++) {
        for (uint32_t b = dyn; b; b &= b - 1u) {
            uint32_t gi = (uint32_t)__builtin_ctz(b);
            if (r->cur.dyn[gi][0] == p->dynamic_offsets[gi]) continue;
            r->cur.dyn[gi][0] = p->dynamic_offsets[gi];
            r->offsets_dirty |= (uint8_t)(1u << gi);
        }
        rec_draw(rec, p->indexed, p->count, p->instance_count ? p->instance_count : 1u, p->first);
    }
}

const hl__rhi_backend_fns hl__rhi_gles3_bundle_fns = {
    .name = "gles3 (render bundle recording)",
    .set_pipeline = rec_set_pipeline,
    .set_bind_group = rec_set_bind_group,
    .set_vertex_buffer = rec_set_vertex_buffer,
    .set_index_buffer = rec_set_index_buffer,
    .draw = rec_draw_plain,
    .draw_indexed = rec_draw_indexed,
    .draw_run = rec_draw_run,
};

/* The recorder's arrays start with room for HL__GL_BUNDLE_ROOM draws (the renderer's largest
 * chunk is 512 packets): a bundle larger than any before grows them, and in a churned scene the
 * first such bundle can come long after the first frames. */
#define HL__GL_BUNDLE_ROOM 512u

hl_result hl__gl_bundle_begin(hl_rhi_cmd *rec, const hl__render_bundle *b) {
    hl__gl_bundle_recorder *r = recorder(rec);
    memset(&r->cur, 0, sizeof r->cur);
    r->state_dirty = true;
    r->offsets_dirty = 0;
    r->draw_count = r->state_count = r->bind_count = 0;
    /* a draw and a state per packet at most; two ranges per draw is room enough to start */
    uint32_t room = b->packet_count > HL__GL_BUNDLE_ROOM ? b->packet_count : HL__GL_BUNDLE_ROOM;
    r->oom = !hl__reserve((void **)&r->draws, &r->draw_capacity, room, sizeof *r->draws) ||
             !hl__reserve((void **)&r->states, &r->state_capacity, room, sizeof *r->states) ||
             !hl__reserve((void **)&r->binds, &r->bind_capacity, room * 2u, sizeof *r->binds);
    rec->native_encoder = r;
    return HL_OK;
}

hl_result hl__gl_bundle_end(hl_rhi_cmd *rec, hl__render_bundle *b, bool discard) {
    hl_rhi_device *dev = rec->dev;
    hl__gl_bundle_recorder *r = recorder(rec);
    rec->native_encoder = NULL;
    if (discard) return HL_OK;
    if (r->oom) return hl__fail(HL_ERR_OUT_OF_MEMORY, "gles3: out of memory recording a bundle of %u packets", b->packet_count);
    size_t states_at = HL__ALIGN8(sizeof(hl__gl_bundle_blob) + (size_t)r->draw_count * sizeof *r->draws);
    size_t binds_at = HL__ALIGN8(states_at + (size_t)r->state_count * sizeof *r->states);
    size_t bytes = binds_at + (size_t)r->bind_count * sizeof *r->binds;
    uint32_t klass = 0;
    uint8_t *a = bytes <= UINT32_MAX ? hl__bundle_array_take(dev, HL__BUNDLE_ARRAY_BACKEND,
                                                             hl__bundle_room_need(b, (uint32_t)bytes), 1, &klass)
                                     : NULL;
    if (!a) return hl__fail(HL_ERR_OUT_OF_MEMORY, "gles3: out of memory for a bundle of %u draws", r->draw_count);
    hl__gl_bundle_blob h = {klass, r->draw_count, r->state_count, r->bind_count, states_at, binds_at};
    memcpy(a, &h, sizeof h);
    /* (an array never grown is NULL: memcpy may not be handed it, even for 0 bytes) */
    if (r->draw_count) memcpy(a + sizeof h, r->draws, (size_t)r->draw_count * sizeof *r->draws);
    if (r->state_count) memcpy(a + states_at, r->states, (size_t)r->state_count * sizeof *r->states);
    if (r->bind_count) memcpy(a + binds_at, r->binds, (size_t)r->bind_count * sizeof *r->binds);
    b->be.ptr = a;
    return HL_OK;
}

void hl__gl_bundle_destroy(hl_rhi_device *dev, hl__render_bundle *b) {
    hl__gl_bundle_blob *h = b->be.ptr;
    if (h) hl__bundle_array_give(dev, HL__BUNDLE_ARRAY_BACKEND, h, h->klass);
    b->be.ptr = NULL;
}

void hl__gl_bundle_recorder_free(hl_rhi_device *dev) {
    hl__gl_bundle_recorder *r = &hl__gl(dev)->rec;
    hl__free(r->draws);
    hl__free(r->states);
    hl__free(r->binds);
    memset(r, 0, sizeof *r);
}

/* ---- execute -------------------------------------------------------------------------------- */
static void execute_one(hl_rhi_device *dev, const uint8_t *a) {
    hl__gl_bundle_blob h;
    memcpy(&h, a, sizeof h);
    const hl__gl_bundle_draw *d = (const hl__gl_bundle_draw *)(const void *)(a + sizeof h);
    const hl__gl_bundle_state *states = (const hl__gl_bundle_state *)(const void *)(a + h.states_at);
    const hl__gl_bundle_bind *binds = (const hl__gl_bundle_bind *)(const void *)(a + h.binds_at);
    for (uint32_t i = 0; i < h.draw_count; i++, d++) {
        if (d->state != UINT32_MAX) {
            hl__gl_bundle_state_apply(dev, &states[d->state]);
            if (!hl__gl_flush(dev)) continue;
        } else {
            for (uint32_t k = 0; k < d->bind_count; k++) {
                const hl__gl_bundle_bind *u = &binds[d->bind_first + k];
                hl__gl_bind_ubo(dev, u->slot, u->buffer, u->offset, u->size);
            }
        }
        if (!d->count || !d->instances) continue;
        hl__gl_draw_call(dev, d->mode, d->index_type, d->index_ptr, 0, d->first, d->count, d->instances);
    }
}

/* The command state after the bundles is what their last draws left (the setters and the state
 * cache saw every change), so the packets after them set and apply only what differs. */
void hl__gl_execute_bundles(hl_rhi_cmd *cmd, hl__render_bundle *const *bundles, uint32_t count) {
    hl_rhi_device *dev = cmd->dev;
    hl__gl_make_current(dev);
    for (uint32_t i = 0; i < count; i++)
        if (bundles[i]->be.ptr) execute_one(dev, bundles[i]->be.ptr);
}
