/* The direct recorder's colour passes through render bundles (hl_rhi.h, "render bundles").
 *
 * A pass's packets (the view's sorted opaque or transparent list) are cut into chunks where the
 * content says so: after a packet whose hash has HL__BUNDLE_CUT_MASK's bits clear, once the chunk
 * has HL__BUNDLE_MIN packets, and always at HL__BUNDLE_MAX. So a change in one place (a mesh
 * added, removed, or given another material) moves only the cuts next to it, and the chunks
 * elsewhere come out as they were. Each chunk is one render bundle; the cache of a view slot and
 * pass keeps last frame's packets and chunks:
 *   - the same packets as last frame (a kept view, or a rebuilt one whose draws came out the
 *     same: moving meshes keep their packets, their matrices go through the object buffer at the
 *     same dynamic offsets): every bundle replays;
 *   - otherwise the new chunks are matched with last frame's by their hash and then compared
 *     packet by packet: equal chunks replay their bundle (or, drawn directly last frame, are
 *     recorded now: their draws held for two frames), and last frame's bundles that no chunk
 *     took are destroyed. A chunk seen for the first time is drawn directly (one by one, as
 *     without bundles) and kept: recorded if it comes again the next frame, unless most of the
 *     pass's chunks are new this frame (then nothing new is recorded: a pass churned all over
 *     would change those chunks again before they replay). So content that changes every frame
 *     (meshes churned all over the list, a transparent list re-sorted as the camera moves) costs
 *     what it costs without bundles plus the matching, and little is recorded to be thrown away;
 *     an empty cache (the first frame, a new layout, after a loss) records every chunk at once.
 * A bundle is replayed only while it is current (hl_rhi_render_bundle_is_current: nothing it
 * names was destroyed); else it is recorded again. Caches not drawn in a frame are emptied at
 * its end (their bundles would only keep destroyed objects' native memory alive), every bundle
 * goes with the GPU objects (device loss, hl_renderer_release_gpu_resources). */
#include <string.h>

#include "render_internal.h"

#define HL__BUNDLE_MIN 64u
#define HL__BUNDLE_CUT_MASK 127u
#define HL__BUNDLE_MAX 512u

/* What tells neighbouring packets apart (equality is always the whole packet). Handles count
 * without their device tag (the top 4 bits of an id: hl_rhi.h's handle layout): the same scene is
 * cut the same way by every renderer. */
#define ID(h) ((uint64_t)((h).id & 0x0fffffffu))
static uint64_t packet_hash(const hl_rhi_draw_packet *p) {
    uint64_t h = hl__hash_mix((ID(p->pipeline) << 32) ^ ID(p->bind_groups[2]));
    h = hl__hash_mix(h ^ (((uint64_t)p->dynamic_offsets[1] << 32) | p->dynamic_offsets[0]));
    h = hl__hash_mix(h ^ ((ID(p->vertex_buffers[0]) << 32) | ID(p->index_buffer)));
    h = hl__hash_mix(h ^ (((uint64_t)p->first << 32) | p->count) ^ ((uint64_t)p->first_instance << 20) ^ p->instance_count);
    return h;
}
#undef ID

static void cache_clear(hl_renderer *r, hl__bundle_cache *c) {
    for (uint32_t i = 0; i < c->chunk_count; i++) hl_rhi_render_bundle_destroy(r->dev, c->chunks[i].bundle);
    c->chunk_count = 0;
    c->packet_count = 0;
    c->frame = 0;
}

static hl_result record(hl_renderer *r, const hl__bundle_cache *c, const hl_rhi_draw_packet *packets, hl__bundle_chunk *k) {
    hl_rhi_render_bundle_desc d;
    memset(&d, 0, sizeof d);
    d.color_format_count = c->color_count;
    memcpy(d.color_formats, c->color, sizeof d.color_formats);
    d.depth_format = c->depth;
    d.sample_count = c->samples;
    d.packets = packets + k->first;
    d.packet_count = k->count;
    d.packet_room = HL__BUNDLE_MAX; /* chunks of any size re-recorded take arrays of one size */
    d.label = "renderer list";
    hl_result res = hl_rhi_render_bundle_create(r->dev, &d, &k->bundle);
    if (!res) r->stats.bundles_recorded++;
    return res;
}

/* The chunk's bundle replays when it is current, else it is recorded again. */
static hl_result replay_or_record(hl_renderer *r, const hl__bundle_cache *c, const hl_rhi_draw_packet *packets,
                                  hl__bundle_chunk *k) {
    if (k->bundle.id && hl_rhi_render_bundle_is_current(r->dev, k->bundle)) {
        r->stats.bundles_replayed++;
        return HL_OK;
    }
    hl_rhi_render_bundle_destroy(r->dev, k->bundle);
    k->bundle = (hl_rhi_render_bundle){0};
    return record(r, c, packets, k);
}

/* The most chunks cut makes of `packets` packets (every chunk but the last has HL__BUNDLE_MIN). */
static uint32_t chunk_bound(uint32_t packets) { return packets / HL__BUNDLE_MIN + 2u; }

/* New chunks of packets into r->bundle_scratch (*out_count of them). */
static hl_result cut(hl_renderer *r, const hl_rhi_draw_packet *packets, uint32_t count, uint32_t *out_count) {
    if (!hl__reserve((void **)&r->bundle_scratch, &r->bundle_scratch_capacity, chunk_bound(count), sizeof *r->bundle_scratch))
        return HL_ERR_OUT_OF_MEMORY;
    uint32_t n = 0, first = 0;
    uint64_t run = HL__HASH_SEED;
    for (uint32_t i = 0; i < count; i++) {
        uint64_t ph = packet_hash(&packets[i]);
        run = hl__hash_mix(run ^ ph);
        uint32_t len = i + 1 - first;
        if ((len >= HL__BUNDLE_MIN && !(ph & HL__BUNDLE_CUT_MASK)) || len == HL__BUNDLE_MAX || i + 1 == count) {
            r->bundle_scratch[n++] = (hl__bundle_chunk){first, len, run ^ len, {0}, false};
            first = i + 1;
            run = HL__HASH_SEED;
        }
    }
    *out_count = n;
    return HL_OK;
}

/* Brings the cache to this frame's packets: chunks matched with last frame's, the rest recorded. */
static hl_result sync_changed(hl_renderer *r, hl__bundle_cache *c, const hl_rhi_draw_packet *packets, uint32_t count) {
    bool cold = c->chunk_count == 0;
    uint32_t n = 0;
    hl_result res = cut(r, packets, count, &n);
    if (res) return res;
    /* last frame's chunks by hash: slot value = chunk index + 1. The table and the chunk array
       are reserved for the most chunks a pass of this many packets can have (cut's bound), not
       for this frame's: a count that wanders over a power of two (churn) allocates nothing. */
    uint32_t most = chunk_bound(count > c->packet_count ? count : c->packet_count);
    uint32_t cap = 16, cap_most = 16;
    while (cap < c->chunk_count * 2u + 2u) cap *= 2;
    while (cap_most < most * 2u + 2u) cap_most *= 2;
    if (!hl__reserve((void **)&r->bundle_table, &r->bundle_table_capacity, cap_most, sizeof *r->bundle_table) ||
        !hl__reserve((void **)&c->chunks, &c->chunk_capacity, most, sizeof *c->chunks))
        return HL_ERR_OUT_OF_MEMORY;
    memset(r->bundle_table, 0, cap * sizeof *r->bundle_table);
    for (uint32_t i = 0; i < c->chunk_count; i++) {
        uint32_t s = (uint32_t)c->chunks[i].hash & (cap - 1);
        while (r->bundle_table[s]) s = (s + 1) & (cap - 1);
        r->bundle_table[s] = i + 1;
    }
    uint32_t unmatched = 0;
    for (uint32_t j = 0; j < n; j++) {
        hl__bundle_chunk *k = &r->bundle_scratch[j];
        for (uint32_t s = (uint32_t)k->hash & (cap - 1); r->bundle_table[s]; s = (s + 1) & (cap - 1)) {
            hl__bundle_chunk *old = &c->chunks[r->bundle_table[s] - 1];
            if (old->hash != k->hash || old->count != k->count || old->first == UINT32_MAX ||
                memcmp(c->packets + old->first, packets + k->first, (size_t)k->count * sizeof *packets))
                continue;
            k->bundle = old->bundle; /* taken: the old chunk no longer owns it (and matches no other) */
            old->bundle = (hl_rhi_render_bundle){0};
            old->first = UINT32_MAX;
            k->seen = true;
            break;
        }
        unmatched += !k->seen;
    }
    /* A pass where most chunks changed (churn all over the list) records nothing new: what it
       would record would most likely change again before it is replayed. */
    bool volatile_pass = !cold && unmatched * 2u > n;
    for (uint32_t j = 0; j < n && !res; j++) {
        hl__bundle_chunk *k = &r->bundle_scratch[j];
        if (cold || (k->seen && !volatile_pass) || (k->bundle.id && hl_rhi_render_bundle_is_current(r->dev, k->bundle))) {
            res = replay_or_record(r, c, packets, k);
        } else { /* drawn directly; a stale bundle goes */
            hl_rhi_render_bundle_destroy(r->dev, k->bundle);
            k->bundle = (hl_rhi_render_bundle){0};
        }
    }
    /* what no chunk took goes; the new chunks become the cache's */
    for (uint32_t i = 0; i < c->chunk_count; i++) hl_rhi_render_bundle_destroy(r->dev, c->chunks[i].bundle);
    c->chunk_count = 0;
    if (!hl__reserve((void **)&c->packets, &c->packet_capacity, count, sizeof *c->packets)) { /* chunks: reserved above */
        for (uint32_t j = 0; j < n; j++) hl_rhi_render_bundle_destroy(r->dev, r->bundle_scratch[j].bundle);
        c->packet_count = 0;
        return HL_ERR_OUT_OF_MEMORY;
    }
    memcpy(c->chunks, r->bundle_scratch, (size_t)n * sizeof *c->chunks);
    c->chunk_count = n;
    memcpy(c->packets, packets, (size_t)count * sizeof *packets);
    c->packet_count = count;
    if (res) cache_clear(r, c); /* a chunk failed: start again next frame */
    return res;
}

hl_result hl__bundles_draw(hl_renderer *r, hl_rhi_cmd *cmd, const hl__view *v, bool transparent,
                           const hl_rhi_draw_packet *packets, uint32_t count) {
    hl__bundle_cache *c = &r->bundle_caches[v->frame_slot][transparent];
    const hl_render_target *t = v->target;
    hl_rhi_format color[4] = {0};
    for (uint32_t i = 0; i < t->desc.color_count && i < 4; i++) color[i] = t->formats[i];
    hl_rhi_format depth = t->desc.no_depth ? HL_RHI_FORMAT_UNDEFINED : HL_RHI_FORMAT_DEPTH24_PLUS;
    uint32_t samples = t->desc.sample_count ? t->desc.sample_count : 1u;
    if (c->color_count != t->desc.color_count || memcmp(c->color, color, sizeof color) || c->depth != depth ||
        c->samples != samples) {
        cache_clear(r, c);
        c->color_count = t->desc.color_count;
        memcpy(c->color, color, sizeof color);
        c->depth = depth;
        c->samples = samples;
    }
    /* the same packets as last frame: a kept view in the slot drawn last frame holds them for
       certain; others are compared (over the frontend threads: a moving 100k-draw pass compares
       17.6 MB, a serial step that grew faster than the draws once the lists left the caches) */
    bool same = c->chunk_count && c->packet_count == count &&
                ((v->kept && c->frame + 1 == r->frame_serial) ||
                 hl__workers_equal(r->workers, c->packets, packets, (size_t)count * sizeof *packets));
    c->frame = r->frame_serial;
    hl_result res = HL_OK;
    if (same) { /* every chunk again: replayed, or recorded (drawn directly last frame) */
        for (uint32_t i = 0; i < c->chunk_count && !res; i++) res = replay_or_record(r, c, packets, &c->chunks[i]);
        if (res) cache_clear(r, c);
    } else {
        res = sync_changed(r, c, packets, count);
    }
    if (res) return res;
    if (!hl__reserve((void **)&r->bundle_handles, &r->bundle_handle_capacity, c->chunk_count + 1u,
                     sizeof *r->bundle_handles))
        return HL_ERR_OUT_OF_MEMORY;
    /* in order: runs of bundles in one execute each, the chunks without one drawn directly */
    for (uint32_t i = 0; i < c->chunk_count && !res;) {
        uint32_t j = i, n = 0;
        while (j < c->chunk_count && c->chunks[j].bundle.id) {
            r->bundle_handles[n++] = c->chunks[j].bundle;
            r->stats.bundle_draws += c->chunks[j++].count;
        }
        if (n) {
            res = hl_rhi_cmd_execute_bundles(cmd, r->bundle_handles, n);
        } else {
            while (j < c->chunk_count && !c->chunks[j].bundle.id) j++;
            const hl__bundle_chunk *a = &c->chunks[i], *z = &c->chunks[j - 1];
            res = hl_rhi_cmd_draw_packets(cmd, packets + a->first, z->first + z->count - a->first, NULL);
        }
        i = j;
    }
    return res;
}

void hl__bundles_frame_end(hl_renderer *r) {
    for (uint32_t v = 0; v < HL__MAX_VIEWS; v++)
        for (uint32_t p = 0; p < 2; p++) {
            hl__bundle_cache *c = &r->bundle_caches[v][p];
            if (c->frame != r->frame_serial && (c->chunk_count || c->packet_count)) cache_clear(r, c);
        }
}

void hl__bundles_drop(hl_renderer *r) {
    for (uint32_t v = 0; v < HL__MAX_VIEWS; v++)
        for (uint32_t p = 0; p < 2; p++) cache_clear(r, &r->bundle_caches[v][p]);
}

void hl__bundles_free(hl_renderer *r) {
    hl__bundles_drop(r);
    for (uint32_t v = 0; v < HL__MAX_VIEWS; v++)
        for (uint32_t p = 0; p < 2; p++) {
            hl__free(r->bundle_caches[v][p].packets);
            hl__free(r->bundle_caches[v][p].chunks);
        }
    memset(r->bundle_caches, 0, sizeof r->bundle_caches);
    hl__free(r->bundle_scratch);
    hl__free(r->bundle_table);
    hl__free(r->bundle_handles);
    r->bundle_scratch = NULL;
    r->bundle_table = NULL;
    r->bundle_handles = NULL;
    r->bundle_scratch_capacity = r->bundle_table_capacity = r->bundle_handle_capacity = 0;
}
