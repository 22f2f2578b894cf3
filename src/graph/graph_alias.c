/* The aliasing planner of seed 002: pure functions over lifetimes, no allocation. The
 * executor shares objects only between equal descriptors (what WebGPU and GLES allow); these
 * plans say how far memory aliasing on an explicit-heap API would go and what no plan beats. */
#include <string.h>

#include "hl_graph.h"

bool hl_graph_lifetimes_overlap(const hl_graph_lifetime *a, const hl_graph_lifetime *b) {
    return !(a->last_use < b->first_use || b->last_use < a->first_use);
}

/* Order of the first-fit walk: first_use, then name (as the seed sorts), then index. */
static bool hl__first_fit_before(const hl_graph_lifetime *lt, uint32_t a, uint32_t b) {
    if (lt[a].first_use != lt[b].first_use) return lt[a].first_use < lt[b].first_use;
    if (lt[a].name && lt[b].name) {
        int c = strcmp(lt[a].name, lt[b].name);
        if (c) return c < 0;
    }
    return a < b;
}

/* Order of the offset planner: largest first, then earliest, then index. */
static bool hl__largest_before(const hl_graph_lifetime *lt, uint32_t a, uint32_t b) {
    if (lt[a].bytes != lt[b].bytes) return lt[a].bytes > lt[b].bytes;
    if (lt[a].first_use != lt[b].first_use) return lt[a].first_use < lt[b].first_use;
    return a < b;
}

static void hl__sort(const hl_graph_lifetime *lt, uint32_t *idx, uint32_t n,
                     bool (*before)(const hl_graph_lifetime *, uint32_t, uint32_t)) {
    for (uint32_t i = 1; i < n; i++) {
        uint32_t v = idx[i], j = i;
        while (j > 0 && before(lt, v, idx[j - 1])) {
            idx[j] = idx[j - 1];
            j--;
        }
        idx[j] = v;
    }
}

void hl_graph_plan_first_fit(const hl_graph_lifetime *lt, uint32_t n, uint32_t *slot_of, uint32_t *scratch,
                             hl_graph_alias_plan *out) {
    uint32_t *order = scratch;
    for (uint32_t i = 0; i < n; i++) order[i] = i;
    hl__sort(lt, order, n, hl__first_fit_before);
    uint32_t slots = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t r = order[k];
        uint32_t chosen = slots;
        for (uint32_t s = 0; s < slots && chosen == slots; s++) {
            bool fits = true;
            for (uint32_t m = 0; m < k && fits; m++)
                if (slot_of[order[m]] == s && hl_graph_lifetimes_overlap(&lt[order[m]], &lt[r])) fits = false;
            if (fits) chosen = s;
        }
        if (chosen == slots) slots++;
        slot_of[r] = chosen;
    }
    uint64_t total = 0;
    for (uint32_t s = 0; s < slots; s++) {
        uint64_t biggest = 0;
        for (uint32_t i = 0; i < n; i++)
            if (slot_of[i] == s && lt[i].bytes > biggest) biggest = lt[i].bytes;
        total += biggest;
    }
    out->slots = slots;
    out->total_bytes = total;
}

void hl_graph_plan_none(const hl_graph_lifetime *lt, uint32_t n, uint32_t *slot_of, hl_graph_alias_plan *out) {
    uint64_t total = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (slot_of) slot_of[i] = i;
        total += lt[i].bytes;
    }
    out->slots = n;
    out->total_bytes = total;
}

static uint64_t hl__align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

void hl_graph_plan_offsets(const hl_graph_lifetime *lt, uint32_t n, uint64_t alignment, uint64_t *offset_of,
                           uint32_t *scratch, hl_graph_alias_plan *out) {
    if (!alignment) alignment = 1;
    uint32_t *order = scratch, *conflicts = scratch + n;
    for (uint32_t i = 0; i < n; i++) order[i] = i;
    hl__sort(lt, order, n, hl__largest_before);
    uint64_t heap = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t r = order[k], c = 0;
        /* placed resources alive at the same time, sorted by offset */
        for (uint32_t m = 0; m < k; m++) {
            uint32_t o = order[m];
            if (!hl_graph_lifetimes_overlap(&lt[o], &lt[r])) continue;
            uint32_t j = c++;
            while (j > 0 && offset_of[conflicts[j - 1]] > offset_of[o]) {
                conflicts[j] = conflicts[j - 1];
                j--;
            }
            conflicts[j] = o;
        }
        uint64_t at = 0;
        for (uint32_t j = 0; j < c; j++) {
            uint32_t o = conflicts[j];
            if (at + lt[r].bytes <= offset_of[o]) break; /* the gap before o holds it */
            uint64_t end = hl__align_up(offset_of[o] + lt[o].bytes, alignment);
            if (end > at) at = end;
        }
        offset_of[r] = at;
        if (at + lt[r].bytes > heap) heap = at + lt[r].bytes;
    }
    out->slots = n ? 1 : 0;
    out->total_bytes = heap;
}

uint64_t hl_graph_plan_lower_bound(const hl_graph_lifetime *lt, uint32_t n) {
    /* the live set only grows at a first use, so the maximum is at one of them */
    uint64_t best = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t live = 0;
        for (uint32_t j = 0; j < n; j++)
            if (lt[j].first_use <= lt[i].first_use && lt[i].first_use <= lt[j].last_use) live += lt[j].bytes;
        if (live > best) best = live;
    }
    return best;
}

uint64_t hl_graph_texture_bytes(const hl_rhi_texture_desc *d) {
    if (!d) return 0;
    const hl_rhi_format_info *fi = hl_rhi_format_get_info(d->format);
    uint64_t texel = fi && fi->bytes_per_texel ? fi->bytes_per_texel : 4;
    uint64_t layers = d->depth_or_layers ? d->depth_or_layers : (d->dimension == HL_RHI_TEXTURE_CUBE ? 6 : 1);
    uint32_t mips = d->mip_levels ? d->mip_levels : 1;
    uint64_t samples = d->sample_count ? d->sample_count : 1;
    uint64_t w = d->width, h = d->height ? d->height : 1, total = 0;
    for (uint32_t m = 0; m < mips; m++) {
        uint64_t depth = d->dimension == HL_RHI_TEXTURE_3D ? (layers >> m ? layers >> m : 1) : layers;
        total += (w ? w : 1) * (h ? h : 1) * depth * texel;
        w >>= 1;
        h >>= 1;
    }
    return total * samples;
}
