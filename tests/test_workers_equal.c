/* hl__workers_equal (src/base/workers.c): memcmp(a, b, bytes) == 0 split over the worker pool
 * from 1 MiB up, as the renderer compares a pass's packets with last frame's (render_bundle.c).
 * Against memcmp on buffers of sizes around the split (below 1 MiB: one part; from 1 MiB: one
 * part per thread, the last taking the remainder) with no difference and with one byte changed at
 * the start, at every part boundary and its neighbours, in the middle of a part and at the end;
 * for pools of 1 to 8 threads and none (the calling thread alone). A part that never compared,
 * or a result of one part dropped, fails the boundary cases. */
#include <stdlib.h>
#include <string.h>

#include "hl_base.h"
#include "hl_test.h"

static void check_size(hl__workers *w, uint32_t threads, unsigned char *a, unsigned char *b, size_t bytes) {
    memcpy(b, a, bytes);
    HL_CHECK_MSG(hl__workers_equal(w, a, b, bytes), "%u thread(s), %zu bytes: equal buffers differ", threads, bytes);
    if (!bytes) return;
    uint32_t parts = bytes >= ((size_t)1 << 20) ? hl__workers_parts(w, 1) : 1u;
    size_t at[64];
    uint32_t n = 0;
    at[n++] = 0;
    at[n++] = bytes - 1;
    at[n++] = bytes / 2;
    for (uint32_t p = 1; p < parts && n + 4 < 64; p++) {
        size_t edge = bytes / parts * p;
        at[n++] = edge - 1;
        at[n++] = edge;
        at[n++] = edge + 1;
        at[n++] = edge + bytes / parts / 2; /* inside part p */
    }
    for (uint32_t i = 0; i < n; i++) {
        if (at[i] >= bytes) continue;
        b[at[i]] ^= 0x5a;
        HL_CHECK_MSG(!hl__workers_equal(w, a, b, bytes), "%u thread(s), %zu bytes: a difference at %zu not seen",
                     threads, bytes, at[i]);
        b[at[i]] ^= 0x5a;
    }
    HL_CHECK_MSG(hl__workers_equal(w, a, b, bytes), "%u thread(s), %zu bytes: restored buffers differ", threads, bytes);
}

int main(void) {
    const size_t max = ((size_t)3 << 20) + 4099u;
    unsigned char *a = malloc(max), *b = malloc(max);
    HL_CHECK(a && b);
    if (!a || !b) return hl_test_finish();
    uint32_t seed = 12345u;
    for (size_t i = 0; i < max; i++) {
        seed = seed * 1664525u + 1013904223u;
        a[i] = (unsigned char)(seed >> 24);
    }
    const size_t sizes[] = {0, 1, 4096, ((size_t)1 << 20) - 1, (size_t)1 << 20, ((size_t)1 << 20) + 7, max};
    for (uint32_t threads = 1; threads <= 8; threads++) {
        hl__workers *w = NULL;
        HL_CHECK_OK(hl__workers_start(threads, &w));
        HL_CHECK(threads == 1 ? w == NULL : w != NULL);
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) check_size(w, threads, a, b, sizes[s]);
        hl__workers_stop(w);
    }
    free(a);
    free(b);
    return hl_test_finish();
}
