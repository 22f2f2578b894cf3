/* Large buffer writes (hl_rhi_buffer_write above 4 MiB: webgpu copies them through staging
 * buffers of its own, kept mapped between uses; smaller writes and gles3 go as before). A 24 MiB
 * uniform buffer is written in pieces of varying sizes (small, just above 4 MiB, 12.8 MB, 20
 * MiB) at varying offsets, several writes a frame without waits, large and small writes
 * overlapping in both orders (the later write wins: queue order), more large writes in a row
 * than there are staging slots, and sizes that grow past the slots made so far; every round
 * four quads read their colours from the buffer at offsets spread through it (0, 5 MiB, 12 MiB,
 * 23 MiB) and must show the latest values exactly (max difference 0), and every third round the
 * whole buffer read back must equal the CPU mirror byte for byte. The device is destroyed
 * with a large write's slot still being mapped again. */
#include <stdlib.h>
#include <string.h>

#include "hl_test.h"

enum { W = 32, H = 32, QUADS = 4 };
#define MIB (1024u * 1024u)
#define BUF_SIZE (24u * MIB)

static const uint32_t k_probe[QUADS] = {0u, 5u * MIB, 12u * MIB, 23u * MIB}; /* 256-aligned */

static uint32_t rng_next(uint32_t *x) {
    *x = *x * 1664525u + 1013904223u;
    return *x;
}

/* Fills mirror[at, at + size) with words of seed and writes the range. */
static hl_result write_range(hl_rhi_device *dev, hl_rhi_buffer buf, uint8_t *mirror, uint32_t at, uint32_t size,
                             uint32_t seed) {
    uint32_t *w = (uint32_t *)(mirror + at);
    for (uint32_t i = 0; i < size / 4u; i++) w[i] = seed ^ (i * 2654435761u);
    return hl_rhi_buffer_write(dev, buf, at, mirror + at, size);
}

/* The colour a probe's tint decodes to: the four floats at the probe in the mirror. */
static void probe_color(const uint8_t *mirror, uint32_t probe, uint8_t rgba[4]) {
    float f[4];
    memcpy(f, mirror + probe, sizeof f);
    for (int c = 0; c < 4; c++) {
        float v = f[c] < 0.0f ? 0.0f : f[c] > 1.0f ? 1.0f : f[c];
        rgba[c] = (uint8_t)(v * 255.0f + 0.5f);
    }
}

/* Writes a tint of exact 8-bit values (k/255 for k multiple of 51: exact in every rounding mode)
 * at each probe, as one small write each. */
static hl_result write_tints(hl_rhi_device *dev, hl_rhi_buffer buf, uint8_t *mirror, uint32_t *x) {
    for (int q = 0; q < QUADS; q++) {
        float f[4];
        for (int c = 0; c < 3; c++) f[c] = (float)(51u * (rng_next(x) % 6u)) / 255.0f;
        f[3] = 1.0f;
        memcpy(mirror + k_probe[q], f, sizeof f);
        hl_result r = hl_rhi_buffer_write(dev, buf, k_probe[q], f, sizeof f);
        if (r) return r;
    }
    return HL_OK;
}

int main(int argc, char **argv) {
    hl_rhi_device *dev = hl_test_device(hl_test_backend_arg(argc, argv, HL_RHI_BACKEND_GLES3));
    if (!dev) return hl_test_finish();
    hl_test_target t;
    HL_CHECK_OK(hl_test_target_create(dev, W, H, HL_RHI_FORMAT_RGBA8_UNORM, 1, &t));
    const float clear[4] = {0, 0, 0, 1};
    hl_test_pipeline_desc pd = hl_test_tint_pipeline_desc(false);
    hl_test_pipeline p;
    HL_CHECK_OK(hl_test_pipeline_create(dev, &pd, &p));
    float quads[QUADS * 12];
    hl_test_quadrant_quads(quads);
    hl_rhi_buffer vbo, big;
    HL_CHECK_OK(hl_test_buffer(dev, HL_RHI_BUFFER_USAGE_VERTEX, quads, sizeof quads, &vbo));
    hl_rhi_buffer_desc bdesc = {BUF_SIZE, HL_RHI_BUFFER_USAGE_UNIFORM | HL_RHI_BUFFER_USAGE_COPY_DST | HL_RHI_BUFFER_USAGE_COPY_SRC,
                                NULL, "large writes"};
    HL_CHECK_OK(hl_rhi_buffer_create(dev, &bdesc, &big));
    hl_rhi_bind_group bg;
    hl_rhi_draw_packet pk[QUADS];
    HL_CHECK_OK(hl_test_quadrant_packets(dev, &p, vbo, big, k_probe, "tint", &bg, pk));

    uint8_t *mirror = calloc(1, BUF_SIZE), *back = malloc(BUF_SIZE);
    static uint8_t img[W * H * 4];
    HL_CHECK(mirror && back);
    if (!mirror || !back) return hl_test_finish();
    uint32_t x = 12345u;
    /* sizes just above the 4 MiB line, 12.8 MB (100k object blocks of 128 bytes), 20 MiB, and
       small ones; every size a multiple of 4 */
    const uint32_t sizes[] = {4u * MIB + 4u, 5u * MIB, 12800000u, 20u * MIB, 4096u, 4u * MIB, 7u * MIB + 256u};
    const uint32_t size_count = (uint32_t)(sizeof sizes / sizeof sizes[0]);
    for (uint32_t round = 0; round < 12; round++) {
        uint32_t writes = 3u + rng_next(&x) % 10u; /* up to 12 in a row: more than the 8 slots */
        for (uint32_t k = 0; k < writes; k++) {
            uint32_t size = sizes[rng_next(&x) % size_count];
            uint32_t at = (rng_next(&x) % ((BUF_SIZE - size) / 256u + 1u)) * 256u;
            HL_CHECK_OK(write_range(dev, big, mirror, at, size, rng_next(&x)));
            if (k % 3u == 1u) { /* a small write inside the large one just made: it wins */
                uint32_t small_at = at + (rng_next(&x) % (size / 256u)) * 256u, small = 256u;
                HL_CHECK_OK(write_range(dev, big, mirror, small_at, small, rng_next(&x)));
            }
        }
        /* a small write, then a large one over it: the large one wins */
        HL_CHECK_OK(write_range(dev, big, mirror, 6u * MIB, 1024u, rng_next(&x)));
        HL_CHECK_OK(write_range(dev, big, mirror, 6u * MIB - 512u, 5u * MIB, rng_next(&x)));
        HL_CHECK_OK(write_tints(dev, big, mirror, &x));
        if (round % 4u == 3u) { /* a large write over a probe: its words are the tint (NaNs clamp to 0) */
            uint32_t at = k_probe[2] - 2u * MIB;
            HL_CHECK_OK(write_range(dev, big, mirror, at, 5u * MIB, rng_next(&x)));
            float f[4] = {1.0f, 0.2f, 0.6f, 1.0f};
            memcpy(mirror + k_probe[2], f, sizeof f);
            HL_CHECK_OK(hl_rhi_buffer_write(dev, big, k_probe[2], f, sizeof f));
        }
        hl_rhi_cmd *cmd = NULL;
        HL_CHECK_OK(hl_test_begin(dev, &t, clear, (hl_rhi_texture_view){0}, &cmd));
        HL_CHECK_OK(hl_rhi_cmd_draw_packets(cmd, pk, QUADS, NULL));
        HL_CHECK_OK(hl_test_end(dev, cmd));
        HL_CHECK_OK(hl_test_read_rgba8(dev, t.tex, img));
        for (int q = 0; q < QUADS; q++) {
            uint8_t want[4];
            probe_color(mirror, k_probe[q], want);
            int px_x = (q & 1) ? 3 * W / 4 : W / 4, px_y = (q & 2) ? H / 4 : 3 * H / 4; /* row 0 is the top */
            const uint8_t *got = img + ((size_t)px_y * W + (size_t)px_x) * 4;
            HL_CHECK_MSG(!memcmp(got, want, 4), "round %u quad %d: (%u,%u,%u,%u), expected (%u,%u,%u,%u)", round, q, got[0],
                         got[1], got[2], got[3], want[0], want[1], want[2], want[3]);
        }
        if (round % 3u == 2u) {
            HL_CHECK_OK(hl_rhi_buffer_read(dev, big, 0, back, BUF_SIZE));
            size_t first = 0;
            while (first < BUF_SIZE && back[first] == mirror[first]) first++;
            HL_CHECK_MSG(first == BUF_SIZE, "round %u: the buffer differs from the mirror from byte %zu", round, first);
        }
    }
    /* a last large write, then the device goes with its staging slot still being mapped again */
    HL_CHECK_OK(write_range(dev, big, mirror, 0, 6u * MIB, 7u));
    free(mirror);
    free(back);
    hl_rhi_bind_group_destroy(dev, bg);
    hl_rhi_buffer_destroy(dev, big);
    hl_rhi_buffer_destroy(dev, vbo);
    hl_test_pipeline_destroy(dev, &p);
    hl_test_target_destroy(dev, &t);
    hl_rhi_device_destroy(dev);
    return hl_test_finish();
}
