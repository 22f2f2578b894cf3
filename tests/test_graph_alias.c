/* The aliasing planner of seed 002, exactly: its four lifetimes (dummy 4 B in pass 0, t1 and
 * t2 and out 65x65 RGBA8 = 16,900 B over passes 0-1, 1-2, 2) give first fit 33,800 B in 2
 * slots and no aliasing 50,704 B in 4 slots; the offset planner and the lower bound reach
 * 33,800 B too. Plus edge cases of each planner. */
#include "hl_graph.h"
#include "hl_test.h"

static void seed_chain(void) {
    hl_rhi_texture_desc td = {0};
    td.format = HL_RHI_FORMAT_RGBA8_UNORM;
    td.width = 65;
    td.height = 65;
    const uint64_t px = hl_graph_texture_bytes(&td);
    HL_CHECK_EQ(px, 16900);
    const hl_graph_lifetime lt[4] = {
        {"dummy", 4, 0, 0}, {"t1", px, 0, 1}, {"t2", px, 1, 2}, {"out", px, 2, 2}};
    uint32_t slot[4], scratch[8];
    hl_graph_alias_plan fit = {0}, none = {0}, off = {0};
    hl_graph_plan_first_fit(lt, 4, slot, scratch, &fit);
    HL_CHECK_EQ(fit.slots, 2);
    HL_CHECK_EQ(fit.total_bytes, 33800);
    /* dummy and t2 share slot 0, t1 and out slot 1 (the seed's placements) */
    HL_CHECK_EQ(slot[0], 0);
    HL_CHECK_EQ(slot[1], 1);
    HL_CHECK_EQ(slot[2], 0);
    HL_CHECK_EQ(slot[3], 1);
    hl_graph_plan_none(lt, 4, slot, &none);
    HL_CHECK_EQ(none.slots, 4);
    HL_CHECK_EQ(none.total_bytes, 50704);
    HL_CHECK_EQ(slot[3], 3);
    uint64_t offs[4];
    hl_graph_plan_offsets(lt, 4, 0, offs, scratch, &off);
    HL_CHECK_EQ(off.total_bytes, 33800);
    HL_CHECK_EQ(offs[1], 0);     /* t1: largest, earliest */
    HL_CHECK_EQ(offs[2], 16900); /* t2 overlaps t1 */
    HL_CHECK_EQ(offs[3], 0);     /* out reuses t1's bytes */
    HL_CHECK_EQ(offs[0], 16900); /* dummy overlaps t1 only */
    HL_CHECK_EQ(hl_graph_plan_lower_bound(lt, 4), 33800);
    HL_CHECK(!hl_graph_lifetimes_overlap(&lt[0], &lt[2]));
    HL_CHECK(hl_graph_lifetimes_overlap(&lt[1], &lt[2]));
}

/* Different sizes: first fit pays the largest member per slot; offsets pack the gaps. */
static void mixed_sizes(void) {
    const hl_graph_lifetime lt[4] = {{"a", 100, 0, 1}, {"b", 300, 1, 2}, {"c", 200, 2, 3}, {"d", 100, 3, 3}};
    uint32_t slot[4], scratch[8];
    hl_graph_alias_plan fit = {0}, off = {0};
    hl_graph_plan_first_fit(lt, 4, slot, scratch, &fit);
    /* a -> 0; b overlaps a -> 1; c overlaps b, fits slot 0 (a ends at 1); d overlaps c, fits slot 1 */
    HL_CHECK_EQ(fit.slots, 2);
    HL_CHECK_EQ(slot[2], 0);
    HL_CHECK_EQ(slot[3], 1);
    HL_CHECK_EQ(fit.total_bytes, 200 + 300);
    uint64_t offs[4];
    hl_graph_plan_offsets(lt, 4, 0, offs, scratch, &off);
    /* b at 0 (300); c overlaps b -> 300; a overlaps b -> 300; d overlaps c only -> 0 */
    HL_CHECK_EQ(offs[1], 0);
    HL_CHECK_EQ(offs[2], 300);
    HL_CHECK_EQ(offs[0], 300);
    HL_CHECK_EQ(offs[3], 0);
    HL_CHECK_EQ(off.total_bytes, 500);
    HL_CHECK_EQ(hl_graph_plan_lower_bound(lt, 4), 500); /* b + c at position 2 */
    /* alignment: offsets are multiples of 256 */
    hl_graph_plan_offsets(lt, 4, 256, offs, scratch, &off);
    HL_CHECK_EQ(offs[2], 512);
    HL_CHECK_EQ(off.total_bytes, 712);
}

/* A gap between two placed resources is used when large enough. */
static void gap_fill(void) {
    const hl_graph_lifetime lt[4] = {{"x", 400, 0, 2}, {"y", 100, 0, 0}, {"z", 100, 2, 2}, {"w", 90, 1, 1}};
    uint32_t scratch[8];
    uint64_t offs[4];
    hl_graph_alias_plan off = {0};
    hl_graph_plan_offsets(lt, 4, 0, offs, scratch, &off);
    HL_CHECK_EQ(offs[0], 0);
    HL_CHECK_EQ(offs[1], 400);
    HL_CHECK_EQ(offs[2], 400);
    HL_CHECK_EQ(offs[3], 400);
    HL_CHECK_EQ(off.total_bytes, 500);
    HL_CHECK_EQ(hl_graph_plan_lower_bound(lt, 4), 500);
    hl_graph_alias_plan none = {0};
    hl_graph_plan_none(lt, 0, NULL, &none);
    HL_CHECK_EQ(none.slots, 0);
    HL_CHECK_EQ(none.total_bytes, 0);
    HL_CHECK_EQ(hl_graph_plan_lower_bound(lt, 0), 0);
}

static void texture_bytes(void) {
    hl_rhi_texture_desc d = {0};
    d.format = HL_RHI_FORMAT_RGBA16_FLOAT;
    d.width = 8;
    d.height = 4;
    d.mip_levels = 3; /* 8x4 + 4x2 + 2x1 = 42 texels */
    HL_CHECK_EQ(hl_graph_texture_bytes(&d), 42 * 8);
    hl_rhi_texture_desc m = {0};
    m.format = HL_RHI_FORMAT_DEPTH24_PLUS;
    m.width = m.height = 16;
    m.sample_count = 4;
    HL_CHECK_EQ(hl_graph_texture_bytes(&m), 16 * 16 * 4 * 4);
}

int main(void) {
    seed_chain();
    mixed_sizes();
    gap_fill();
    texture_bytes();
    return hl_test_finish();
}
