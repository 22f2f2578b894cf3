/* Render bundles at the RHI (hl_rhi_render_bundle_create / hl_rhi_cmd_execute_bundles): four quads
 * coloured through a dynamic-offset uniform buffer, drawn from packets one by one and through
 * bundles (one, two, the same one twice, bundles then packets) give the same image exactly (max
 * difference 0) on each backend; a bundle recorded in one frame replays in later ones and sees
 * new buffer contents; execute resets the bound state; a bundle created inside a frame does not
 * count as a use (a buffer write after it is allowed); a bundle whose objects are destroyed is not
 * current and executing it fails before any native call; validation of the descriptor, the
 * packets and the pass (codes and the named field); the device stats count the bundles' draws.
 * Packets that bind what the one before bound (the packet loop's per-draw case), plain and
 * indexed, draw the same image and still stop at a bad dynamic offset or index range. Random
 * sequences changing pipeline, group, offsets, draw kind and instances from packet to packet
 * (what gles3 resolves into its own draws at recording) draw the same image as packets, whole
 * or cut into bundles followed by packets. */
#include <string.h>

#include "hl_test.h"

enum { W = 64, H = 64, QUADS = 4 };

static const uint8_t *px(const uint8_t *img, int x, int y) { return img + ((size_t)y * W + (size_t)x) * 4; }

static int max_diff(const uint8_t *a, const uint8_t *b) {
    int m = 0;
    for (size_t i = 0; i < (size_t)W * H * 4; i++) {
        int d = a[i] > b[i] ? a[i] - b[i] : b[i] - a[i];
        if (d > m) m = d;
    }
    return m;
}

int main(int argc, char **argv) {
    hl_rhi_device *dev = hl_test_device(hl_test_backend_arg(argc, argv, HL_RHI_BACKEND_GLES3));
    if (!dev) return hl_test_finish();
    hl_test_target t;
    HL_CHECK_OK(hl_test_target_create(dev, W, H, HL_RHI_FORMAT_RGBA8_UNORM, 1, &t));
    static uint8_t ref[W * H * 4], img[W * H * 4];
    const float clear[4] = {0, 0, 0, 1};

    hl_test_pipeline_desc pd = hl_test_tint_pipeline_desc(false);
    hl_test_pipeline p;
    HL_CHECK_OK(hl_test_pipeline_create(dev, &pd, &p));
    /* quad q covers quadrant q (two triangles, 6 vertices each) */
    float quads[QUADS * 12];
    hl_test_quadrant_quads(quads);
    float tints[QUADS * 64]; /* 256-byte slots */
    memset(tints, 0, sizeof tints);
    const float colors[QUADS][4] = {{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {1, 1, 0, 1}};
    for (int q = 0; q < QUADS; q++) memcpy(tints + q * 64, colors[q], 16);
    hl_rhi_buffer vbo, ubo;
    HL_CHECK_OK(hl_test_buffer(dev, HL_RHI_BUFFER_USAGE_VERTEX, quads, sizeof quads, &vbo));
    HL_CHECK_OK(hl_test_buffer(dev, HL_RHI_BUFFER_USAGE_UNIFORM, tints, sizeof tints, &ubo));
    hl_rhi_bind_group bg;
    hl_rhi_draw_packet pk[QUADS];
    const uint32_t offsets[QUADS] = {0u, 256u, 512u, 768u};
    HL_CHECK_OK(hl_test_quadrant_packets(dev, &p, vbo, ubo, offsets, "tint", &bg, pk));

    /* the reference: packets one by one */
    hl_rhi_cmd *cmd = NULL;
    HL_CHECK_OK(hl_test_begin(dev, &t, clear, (hl_rhi_texture_view){0}, &cmd));
    HL_CHECK_OK(hl_rhi_cmd_draw_packets(cmd, pk, QUADS, NULL));
    HL_CHECK_OK(hl_test_end(dev, cmd));
    HL_CHECK_OK(hl_test_read_rgba8(dev, t.tex, ref));
    HL_CHECK_PIXEL(px(ref, 16, 48), 255, 0, 0, 255, 0); /* clip y -1 is the bottom row */
    HL_CHECK_PIXEL(px(ref, 48, 48), 0, 255, 0, 255, 0);
    HL_CHECK_PIXEL(px(ref, 16, 16), 0, 0, 255, 255, 0);
    HL_CHECK_PIXEL(px(ref, 48, 16), 255, 255, 0, 255, 0);

    /* bundles recorded outside a frame */
    hl_rhi_render_bundle_desc bd = {0};
    bd.color_formats[0] = HL_RHI_FORMAT_RGBA8_UNORM;
    bd.color_format_count = 1;
    bd.packets = pk;
    bd.packet_count = QUADS;
    hl_rhi_render_bundle all = {0}, lo = {0}, hi = {0};
    uint64_t objects0 = hl_rhi_device_stats(dev)->objects_created;
    HL_CHECK_OK(hl_rhi_render_bundle_create(dev, &bd, &all));
    bd.packet_count = 2;
    HL_CHECK_OK(hl_rhi_render_bundle_create(dev, &bd, &lo));
    bd.packets = pk + 2;
    HL_CHECK_OK(hl_rhi_render_bundle_create(dev, &bd, &hi));
    HL_CHECK_EQ(hl_rhi_device_stats(dev)->objects_created - objects0, 3);
    HL_CHECK_EQ(hl_rhi_render_bundle_draw_count(dev, all), QUADS);
    HL_CHECK_EQ(hl_rhi_render_bundle_draw_count(dev, lo), 2);
    HL_CHECK(hl_rhi_render_bundle_is_current(dev, all));

    /* one bundle, two bundles, in several frames */
    for (int f = 0; f < 3; f++) {
        uint64_t draws0 = hl_rhi_device_stats(dev)->draws;
        HL_CHECK_OK(hl_test_begin(dev, &t, clear, (hl_rhi_texture_view){0}, &cmd));
        if (f == 1) {
            const hl_rhi_render_bundle two[2] = {lo, hi};
            HL_CHECK_OK(hl_rhi_cmd_execute_bundles(cmd, two, 2));
        } else {
            HL_CHECK_OK(hl_rhi_cmd_execute_bundles(cmd, &all, 1));
        }
        HL_CHECK_OK(hl_test_end(dev, cmd));
        HL_CHECK_EQ(hl_rhi_device_stats(dev)->draws - draws0, QUADS);
        HL_CHECK_OK(hl_test_read_rgba8(dev, t.tex, img));
        HL_CHECK_MSG(max_diff(img, ref) == 0, "frame %d: bundles differ from the packets by %d", f, max_diff(img, ref));
    }

    /* packets binding what the one before bound, only the dynamic offset and the draw differing
       (the packet loop's per-draw case, the backend's draw_rebound on gles3): one vertex buffer
       from offset 0, each quad by its first vertex, plain and indexed; the same image, and a bad
       offset or index range in that case still stops the batch at its packet */
    uint16_t indices[QUADS * 6];
    for (uint16_t i = 0; i < QUADS * 6; i++) indices[i] = i;
    hl_rhi_buffer ibo;
    HL_CHECK_OK(hl_test_buffer(dev, HL_RHI_BUFFER_USAGE_INDEX, indices, sizeof indices, &ibo));
    hl_rhi_draw_packet same[QUADS];
    for (int indexed = 0; indexed < 2; indexed++) {
        for (int q = 0; q < QUADS; q++) {
            same[q] = pk[q];
            same[q].vertex_offsets[0] = 0;
            same[q].first = (uint32_t)q * 6u;
            same[q].indexed = (uint8_t)indexed;
            same[q].index_buffer = ibo;
            same[q].index_format = HL_RHI_INDEX_UINT16;
        }
        HL_CHECK_OK(hl_test_begin(dev, &t, clear, (hl_rhi_texture_view){0}, &cmd));
        HL_CHECK_OK(hl_rhi_cmd_draw_packets(cmd, same, QUADS, NULL));
        HL_CHECK_OK(hl_test_end(dev, cmd));
        HL_CHECK_OK(hl_test_read_rgba8(dev, t.tex, img));
        HL_CHECK_MSG(max_diff(img, ref) == 0, "indexed %d: same-binding packets differ by %d", indexed, max_diff(img, ref));
        /* the state after such a run is its last packet's: in the same pass, the group set again
           at the run's first offset (red) draws quad 3 red, then at its last offset (yellow) quad
           2 yellow (gles3 binds a run's ranges outside its cache and writes the cache after it:
           a cache left at the first range would skip the first rebind and draw quad 3 yellow) */
        HL_CHECK_OK(hl_test_begin(dev, &t, clear, (hl_rhi_texture_view){0}, &cmd));
        HL_CHECK_OK(hl_rhi_cmd_draw_packets(cmd, same, QUADS, NULL));
        for (int k = 0; k < 2; k++) {
            const uint32_t off = k ? 3u * 256u : 0u, first = k ? 12u : 18u;
            HL_CHECK_OK(hl_rhi_cmd_set_bind_group(cmd, 0, bg, &off, 1));
            if (indexed) HL_CHECK_OK(hl_rhi_cmd_draw_indexed(cmd, 6, 1, first, 0, 0));
            else HL_CHECK_OK(hl_rhi_cmd_draw(cmd, 6, 1, first, 0));
        }
        HL_CHECK_OK(hl_test_end(dev, cmd));
        HL_CHECK_OK(hl_test_read_rgba8(dev, t.tex, img));
        HL_CHECK_PIXEL(px(img, 16, 48), 255, 0, 0, 255, 0);
        HL_CHECK_PIXEL(px(img, 48, 48), 0, 255, 0, 255, 0);
        HL_CHECK_PIXEL(px(img, 16, 16), 255, 255, 0, 255, 0);
        HL_CHECK_PIXEL(px(img, 48, 16), 255, 0, 0, 255, 0);
        same[2].dynamic_offsets[0] = 8; /* not a multiple of the 256-byte alignment */
        if (indexed) same[3].count = 7; /* one index past the buffer's 24 */
        for (int bad = 2; bad <= 2 + indexed; bad++) {
            if (bad == 3) same[2].dynamic_offsets[0] = 512;
            uint32_t failed = 99;
            uint64_t draws0 = hl_rhi_device_stats(dev)->draws;
            HL_CHECK_OK(hl_test_begin(dev, &t, clear, (hl_rhi_texture_view){0}, &cmd));
            HL_CHECK_RESULT(hl_rhi_cmd_draw_packets(cmd, same, QUADS, &failed), HL_ERR_VALIDATION);
            HL_CHECK_EQ(failed, (uint32_t)bad);
            HL_CHECK_EQ(hl_rhi_device_stats(dev)->draws - draws0, (uint64_t)bad);
            HL_CHECK_OK(hl_test_end(dev, cmd));
        }
    }

    /* a long run of such packets: empty packets that only move the offset, and four that draw
       (at 254, 257, 511 and 512) with the offset the packets before them left bound (blue), so
       a draw that kept another range bound shows in another colour; drawn as packets and as a
       bundle, and a bad offset at packet 300 stops the batch there */
    {
        enum { LONG = 600 };
        static hl_rhi_draw_packet run[LONG];
        const uint32_t shown[4] = {254, 257, 511, 512};
        for (uint32_t i = 0; i < LONG; i++) {
            run[i] = pk[0];
            run[i].vertex_offsets[0] = 0;
            run[i].dynamic_offsets[0] = (i % 7u) * 256u % (QUADS * 256u);
            run[i].count = 0;
            for (uint32_t q = 0; q < 4; q++) {
                if (i + 6u < shown[q] || i > shown[q] + 2u) continue;
                run[i].dynamic_offsets[0] = 512u; /* blue, from a few empty packets before */
                if (i == shown[q]) run[i].count = 6, run[i].first = q * 6u;
            }
        }
        for (int as_bundle = 0; as_bundle < 2; as_bundle++) {
            hl_rhi_render_bundle b = {0};
            if (as_bundle) {
                hl_rhi_render_bundle_desc lbd = bd;
                lbd.packets = run;
                lbd.packet_count = LONG;
                HL_CHECK_OK(hl_rhi_render_bundle_create(dev, &lbd, &b));
                HL_CHECK_EQ(hl_rhi_render_bundle_draw_count(dev, b), LONG);
            }
            uint64_t draws0 = hl_rhi_device_stats(dev)->draws;
            HL_CHECK_OK(hl_test_begin(dev, &t, clear, (hl_rhi_texture_view){0}, &cmd));
            if (as_bundle) HL_CHECK_OK(hl_rhi_cmd_execute_bundles(cmd, &b, 1));
            else HL_CHECK_OK(hl_rhi_cmd_draw_packets(cmd, run, LONG, NULL));
            HL_CHECK_OK(hl_test_end(dev, cmd));
            HL_CHECK_EQ(hl_rhi_device_stats(dev)->draws - draws0, LONG);
            HL_CHECK_OK(hl_test_read_rgba8(dev, t.tex, img));
            for (int q = 0; q < QUADS; q++)
                HL_CHECK_PIXEL(px(img, q & 1 ? 48 : 16, q & 2 ? 16 : 48), 0, 0, 255, 255, 0);
            if (as_bundle) hl_rhi_render_bundle_destroy(dev, b);
        }
        run[300].dynamic_offsets[0] = 8;
        uint32_t failed = 99;
        uint64_t draws0 = hl_rhi_device_stats(dev)->draws;
        HL_CHECK_OK(hl_test_begin(dev, &t, clear, (hl_rhi_texture_view){0}, &cmd));
        HL_CHECK_RESULT(hl_rhi_cmd_draw_packets(cmd, run, LONG, &failed), HL_ERR_VALIDATION);
        HL_CHECK_EQ(failed, 300u);
        HL_CHECK_EQ(hl_rhi_device_stats(dev)->draws - draws0, 300u);
        HL_CHECK_OK(hl_test_end(dev, cmd));
    }

    /* random sequences mixing what changes from packet to packet: two pipelines (the second
       blends, so the order of overlapping draws shows) with a group each over its own buffer,
       dynamic offsets, plain and indexed draws, one or two instances, and packets that draw
       nothing (count 0) among them; drawn as packets, as one bundle, and as bundles cut at random
       places with the rest as packets after them: the same image exactly as the sequence without
       its empty packets drawn as packets (an empty packet changes no state a later one draws
       with: its offsets, set and not bound, once left the next packet of the same offsets drawing
       with the range before) */
    hl_test_pipeline_desc pd2 = hl_test_tint_pipeline_desc(true);
    hl_test_pipeline p2;
    HL_CHECK_OK(hl_test_pipeline_create(dev, &pd2, &p2));
    float tints2[QUADS * 64];
    memset(tints2, 0, sizeof tints2);
    const float halves[QUADS][4] = {{0, 1, 1, 0.5f}, {1, 0, 1, 0.5f}, {1, 1, 1, 0.5f}, {0.5f, 0.25f, 0, 0.5f}};
    for (int q = 0; q < QUADS; q++) memcpy(tints2 + q * 64, halves[q], 16);
    hl_rhi_buffer ubo_b;
    HL_CHECK_OK(hl_test_buffer(dev, HL_RHI_BUFFER_USAGE_UNIFORM, tints2, sizeof tints2, &ubo_b));
    hl_rhi_bind_group_entry be_b = {0};
    be_b.buffer = ubo_b;
    be_b.size = 16;
    hl_rhi_bind_group_desc bgd_b = {p2.bgl[0], &be_b, 1, "tint b"};
    hl_rhi_bind_group bg_b;
    HL_CHECK_OK(hl_rhi_bind_group_create(dev, &bgd_b, &bg_b));
    enum { SEQ = 40 };
    for (uint32_t seed = 1; seed <= 8; seed++) {
        uint32_t x = seed * 2654435761u;
        hl_rhi_draw_packet seq[SEQ];
        for (int i = 0; i < SEQ; i++) {
            x = x * 1664525u + 1013904223u;
            uint32_t q = (x >> 8) % QUADS, blend = (x >> 12) & 1u, indexed = (x >> 14) & 1u;
            seq[i] = pk[q];
            seq[i].pipeline = blend ? p2.pipe : p.pipe;
            seq[i].bind_groups[0] = blend ? bg_b : bg;
            seq[i].dynamic_offsets[0] = ((x >> 16) % QUADS) * 256u;
            seq[i].instance_count = (x >> 20) % 3u == 0 ? 2u : 1u;
            if (indexed) {
                seq[i].vertex_offsets[0] = 0;
                seq[i].indexed = 1;
                seq[i].index_buffer = ibo;
                seq[i].index_format = HL_RHI_INDEX_UINT16;
                seq[i].first = q * 6u;
            }
        }
        /* empty packets: now and then one binding what the packet before it binds with another
           offset, followed by one drawing with that same offset (the same quad again, in the
           same run of the packet loop: its range must be the new offset's) */
        for (int i = 1; i + 1 < SEQ; i++) {
            x = x * 1664525u + 1013904223u;
            if ((x >> 24) % 5u) continue;
            seq[i] = seq[i - 1];
            seq[i].dynamic_offsets[0] = (seq[i - 1].dynamic_offsets[0] + 256u * (1u + (x >> 8) % (QUADS - 1u))) % (QUADS * 256u);
            seq[i].count = 0; /* draws nothing */
            seq[i + 1] = seq[i];
            seq[i + 1].count = seq[i - 1].count;
            i++;
        }
        hl_rhi_draw_packet drawn[SEQ];
        uint32_t drawn_count = 0;
        for (int i = 0; i < SEQ; i++)
            if (seq[i].count) drawn[drawn_count++] = seq[i];
        HL_CHECK_OK(hl_test_begin(dev, &t, clear, (hl_rhi_texture_view){0}, &cmd));
        HL_CHECK_OK(hl_rhi_cmd_draw_packets(cmd, drawn, drawn_count, NULL));
        HL_CHECK_OK(hl_test_end(dev, cmd));
        static uint8_t seq_ref[W * H * 4];
        HL_CHECK_OK(hl_test_read_rgba8(dev, t.tex, seq_ref));
        HL_CHECK_OK(hl_test_begin(dev, &t, clear, (hl_rhi_texture_view){0}, &cmd));
        HL_CHECK_OK(hl_rhi_cmd_draw_packets(cmd, seq, SEQ, NULL));
        HL_CHECK_OK(hl_test_end(dev, cmd));
        HL_CHECK_OK(hl_test_read_rgba8(dev, t.tex, img));
        HL_CHECK_MSG(max_diff(img, seq_ref) == 0, "seed %u: the packets with empty ones differ by %d", seed,
                     max_diff(img, seq_ref));
        hl_rhi_render_bundle_desc sd = bd;
        sd.packets = seq;
        sd.packet_count = SEQ;
        hl_rhi_render_bundle whole = {0}, cuts[3] = {{0}};
        HL_CHECK_OK(hl_rhi_render_bundle_create(dev, &sd, &whole));
        uint32_t at[4] = {0};
        for (int c = 1; c < 4; c++) {
            x = x * 1664525u + 1013904223u;
            at[c] = at[c - 1] + 1u + (x >> 8) % 9u; /* 1..9 packets each, 27 at most */
        }
        for (int c = 0; c < 3; c++) {
            sd.packets = seq + at[c];
            sd.packet_count = at[c + 1] - at[c];
            HL_CHECK_OK(hl_rhi_render_bundle_create(dev, &sd, &cuts[c]));
        }
        for (int way = 0; way < 2; way++) {
            HL_CHECK_OK(hl_test_begin(dev, &t, clear, (hl_rhi_texture_view){0}, &cmd));
            if (way == 0) {
                HL_CHECK_OK(hl_rhi_cmd_execute_bundles(cmd, &whole, 1));
            } else {
                HL_CHECK_OK(hl_rhi_cmd_execute_bundles(cmd, cuts, 3));
                HL_CHECK_OK(hl_rhi_cmd_draw_packets(cmd, seq + at[3], SEQ - at[3], NULL));
            }
            HL_CHECK_OK(hl_test_end(dev, cmd));
            HL_CHECK_OK(hl_test_read_rgba8(dev, t.tex, img));
            HL_CHECK_MSG(max_diff(img, seq_ref) == 0, "seed %u, %s: bundles differ from the packets by %d", seed,
                         way ? "cut bundles then packets" : "one bundle", max_diff(img, seq_ref));
        }
        hl_rhi_render_bundle_destroy(dev, whole);
        for (int c = 0; c < 3; c++) hl_rhi_render_bundle_destroy(dev, cuts[c]);
    }
    hl_rhi_bind_group_destroy(dev, bg_b);
    hl_rhi_buffer_destroy(dev, ubo_b);
    hl_test_pipeline_destroy(dev, &p2);
    hl_rhi_buffer_destroy(dev, ibo);

    /* bundles, then packets after them (the state is reset: they bind everything again), and the
       same bundle twice */
    HL_CHECK_OK(hl_test_begin(dev, &t, clear, (hl_rhi_texture_view){0}, &cmd));
    HL_CHECK_OK(hl_rhi_cmd_execute_bundles(cmd, &lo, 1));
    HL_CHECK_RESULT(hl_rhi_cmd_draw(cmd, 6, 1, 0, 0), HL_ERR_INVALID_STATE); /* no pipeline after a bundle */
    HL_CHECK_OK(hl_rhi_cmd_draw_packets(cmd, pk + 2, 2, NULL));
    const hl_rhi_render_bundle twice[2] = {hi, hi};
    HL_CHECK_OK(hl_rhi_cmd_execute_bundles(cmd, twice, 2));
    HL_CHECK_OK(hl_test_end(dev, cmd));
    HL_CHECK_OK(hl_test_read_rgba8(dev, t.tex, img));
    HL_CHECK_EQ(max_diff(img, ref), 0);

    /* the bundle names the buffer, not its contents: a write shows in the next replay; a bundle
       made inside the frame is no use of the buffer (the write after it is allowed) */
    HL_CHECK_OK(hl_rhi_begin_frame(dev, &cmd));
    bd.packets = pk;
    bd.packet_count = QUADS;
    hl_rhi_render_bundle inside = {0};
    HL_CHECK_OK(hl_rhi_render_bundle_create(dev, &bd, &inside));
    const float white[4] = {1, 1, 1, 1};
    HL_CHECK_OK(hl_rhi_buffer_write(dev, ubo, 0, white, sizeof white));
    hl_rhi_color_attachment ca = {0};
    ca.view = t.view;
    memcpy(ca.clear_color, clear, sizeof clear);
    hl_rhi_render_pass_desc rp = {0};
    rp.color_attachments = &ca;
    rp.color_attachment_count = 1;
    HL_CHECK_OK(hl_rhi_cmd_begin_render_pass(cmd, &rp));
    HL_CHECK_OK(hl_rhi_cmd_execute_bundles(cmd, &inside, 1));
    /* used now: a write to the buffer in this frame is refused */
    HL_CHECK_RESULT(hl_rhi_buffer_write(dev, ubo, 0, colors[0], 16), HL_ERR_INVALID_STATE);
    HL_CHECK_OK(hl_test_end(dev, cmd));
    HL_CHECK_OK(hl_test_read_rgba8(dev, t.tex, img));
    HL_CHECK_PIXEL(px(img, 16, 48), 255, 255, 255, 255, 0);
    HL_CHECK_PIXEL(px(img, 48, 48), 0, 255, 0, 255, 0);
    HL_CHECK_OK(hl_rhi_buffer_write(dev, ubo, 0, colors[0], 16));

    /* validation: the descriptor */
    hl_rhi_render_bundle bad = {0};
    HL_CHECK_RESULT(hl_rhi_render_bundle_create(dev, NULL, &bad), HL_ERR_VALIDATION);
    HL_CHECK_RESULT(hl_rhi_render_bundle_create(dev, &bd, NULL), HL_ERR_VALIDATION);
    hl_rhi_render_bundle_desc d2 = bd;
    d2.packet_count = 0;
    HL_CHECK_RESULT(hl_rhi_render_bundle_create(dev, &d2, &bad), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "packet_count") != NULL);
    d2 = bd;
    d2.packets = NULL;
    HL_CHECK_RESULT(hl_rhi_render_bundle_create(dev, &d2, &bad), HL_ERR_VALIDATION);
    d2 = bd;
    d2.color_formats[0] = HL_RHI_FORMAT_DEPTH24_PLUS;
    HL_CHECK_RESULT(hl_rhi_render_bundle_create(dev, &d2, &bad), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "color_formats[0]") != NULL);
    d2 = bd;
    d2.sample_count = 3;
    HL_CHECK_RESULT(hl_rhi_render_bundle_create(dev, &d2, &bad), HL_ERR_VALIDATION);
    d2 = bd;
    d2.color_format_count = 0;
    HL_CHECK_RESULT(hl_rhi_render_bundle_create(dev, &d2, &bad), HL_ERR_VALIDATION);
    /* ... the packets, against the layout (the pipeline renders RGBA8, one sample) */
    d2 = bd;
    d2.color_formats[0] = HL_RHI_FORMAT_RGBA16_FLOAT;
    HL_CHECK_RESULT(hl_rhi_render_bundle_create(dev, &d2, &bad), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "packets[0]") != NULL);
    d2 = bd;
    d2.sample_count = 4;
    HL_CHECK_RESULT(hl_rhi_render_bundle_create(dev, &d2, &bad), HL_ERR_VALIDATION);
    hl_rhi_draw_packet broken[2] = {pk[0], pk[1]};
    broken[1].dynamic_offsets[0] = 4096; /* past the end of the buffer */
    d2 = bd;
    d2.packets = broken;
    d2.packet_count = 2;
    HL_CHECK_RESULT(hl_rhi_render_bundle_create(dev, &d2, &bad), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "packets[1]") != NULL);
    HL_CHECK_EQ(bad.id, 0);
    /* a bundle starts with nothing bound: a first packet without the vertex buffer the pipeline
       reads is refused (after a packet that bound it, it would carry over) */
    broken[1] = pk[1];
    broken[1].vertex_buffer_count = 0;
    HL_CHECK_OK(hl_rhi_render_bundle_create(dev, &d2, &bad));
    hl_rhi_render_bundle_destroy(dev, bad);
    d2.packets = broken + 1;
    d2.packet_count = 1;
    HL_CHECK_RESULT(hl_rhi_render_bundle_create(dev, &d2, &bad), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "packets[0]: vertex buffer slot 0 is not set") != NULL);

    /* ... and the execute: outside a pass, another layout, a destroyed bundle */
    HL_CHECK_RESULT(hl_rhi_cmd_execute_bundles(cmd, &all, 1), HL_ERR_INVALID_STATE); /* no frame */
    HL_CHECK_OK(hl_rhi_begin_frame(dev, &cmd));
    HL_CHECK_RESULT(hl_rhi_cmd_execute_bundles(cmd, &all, 1), HL_ERR_INVALID_STATE); /* no pass */
    HL_CHECK_OK(hl_rhi_cmd_begin_render_pass(cmd, &rp));
    HL_CHECK_RESULT(hl_rhi_cmd_execute_bundles(cmd, NULL, 1), HL_ERR_VALIDATION);
    HL_CHECK_OK(hl_rhi_cmd_execute_bundles(cmd, NULL, 0));
    HL_CHECK_OK(hl_rhi_cmd_end_render_pass(cmd));
    hl_test_target t16;
    HL_CHECK_OK(hl_test_target_create(dev, W, H, HL_RHI_FORMAT_RGBA16_FLOAT, 1, &t16));
    hl_rhi_color_attachment ca16 = ca;
    ca16.view = t16.view;
    hl_rhi_render_pass_desc rp16 = rp;
    rp16.color_attachments = &ca16;
    HL_CHECK_OK(hl_rhi_cmd_begin_render_pass(cmd, &rp16));
    HL_CHECK_RESULT(hl_rhi_cmd_execute_bundles(cmd, &all, 1), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "bundles[0]") != NULL);
    HL_CHECK_OK(hl_rhi_cmd_end_render_pass(cmd));
    hl_rhi_render_bundle_destroy(dev, hi);
    HL_CHECK(!hl_rhi_render_bundle_is_current(dev, hi));
    HL_CHECK_EQ(hl_rhi_render_bundle_draw_count(dev, hi), 0);
    HL_CHECK_OK(hl_rhi_cmd_begin_render_pass(cmd, &rp));
    const hl_rhi_render_bundle with_stale[2] = {lo, hi};
    HL_CHECK_RESULT(hl_rhi_cmd_execute_bundles(cmd, with_stale, 2), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "bundles[1]") != NULL);
    HL_CHECK_OK(hl_test_end(dev, cmd));

    /* what a bundle names, destroyed: the bind group's buffer, then the vertex buffer of another */
    hl_rhi_buffer ubo2;
    HL_CHECK_OK(hl_test_buffer(dev, HL_RHI_BUFFER_USAGE_UNIFORM, tints, sizeof tints, &ubo2));
    hl_rhi_bind_group bg2;
    hl_rhi_draw_packet pk2[QUADS]; /* pk's draws through a group over ubo2 */
    HL_CHECK_OK(hl_test_quadrant_packets(dev, &p, vbo, ubo2, offsets, "tint", &bg2, pk2));
    bd.packets = pk2;
    hl_rhi_render_bundle named = {0};
    HL_CHECK_OK(hl_rhi_render_bundle_create(dev, &bd, &named));
    HL_CHECK(hl_rhi_render_bundle_is_current(dev, named));
    hl_rhi_buffer_destroy(dev, ubo2);
    HL_CHECK(!hl_rhi_render_bundle_is_current(dev, named));
    HL_CHECK(hl_rhi_render_bundle_is_current(dev, all));
    HL_CHECK_OK(hl_test_begin(dev, &t, clear, (hl_rhi_texture_view){0}, &cmd));
    uint64_t native0 = hl_rhi_device_stats(dev)->native_calls;
    HL_CHECK_RESULT(hl_rhi_cmd_execute_bundles(cmd, &named, 1), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "buffer") != NULL);
    HL_CHECK_EQ(hl_rhi_device_stats(dev)->native_calls, native0); /* refused before any native call */
    HL_CHECK_OK(hl_rhi_cmd_execute_bundles(cmd, &all, 1));
    HL_CHECK_OK(hl_test_end(dev, cmd));
    HL_CHECK_OK(hl_test_read_rgba8(dev, t.tex, img));
    HL_CHECK_EQ(max_diff(img, ref), 0);
    hl_rhi_render_bundle_destroy(dev, named);
    hl_rhi_bind_group_destroy(dev, bg2);

    /* a bundle executed in a frame whose objects are destroyed before the frame ends: the frame
       still draws them (their release waits for it) */
    hl_rhi_buffer vbo3;
    HL_CHECK_OK(hl_test_buffer(dev, HL_RHI_BUFFER_USAGE_VERTEX, quads, sizeof quads, &vbo3));
    memcpy(pk2, pk, sizeof pk2);
    for (int q = 0; q < QUADS; q++) pk2[q].vertex_buffers[0] = vbo3;
    hl_rhi_render_bundle late = {0};
    HL_CHECK_OK(hl_rhi_render_bundle_create(dev, &bd, &late));
    HL_CHECK_OK(hl_test_begin(dev, &t, clear, (hl_rhi_texture_view){0}, &cmd));
    HL_CHECK_OK(hl_rhi_cmd_execute_bundles(cmd, &late, 1));
    hl_rhi_buffer_destroy(dev, vbo3);
    hl_rhi_render_bundle_destroy(dev, late);
    HL_CHECK_OK(hl_test_end(dev, cmd));
    HL_CHECK_OK(hl_test_read_rgba8(dev, t.tex, img));
    HL_CHECK_EQ(max_diff(img, ref), 0);

    /* a device recreate makes every bundle stale */
    HL_CHECK_OK(hl_rhi_device_recreate(dev));
    HL_CHECK(!hl_rhi_render_bundle_is_current(dev, all));
    HL_CHECK_EQ(hl_rhi_render_bundle_draw_count(dev, all), 0);

    hl_test_pipeline_destroy(dev, &p); /* its program's memory (the handles are stale already) */
    hl_rhi_device_destroy(dev);
    return hl_test_finish();
}
