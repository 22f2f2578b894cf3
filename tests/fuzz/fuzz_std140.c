/* Fuzz target: the std140 calculator with hostile schemas (array counts that overflow the
 * block size, duplicate and invalid names, unknown types) and writes into the computed
 * block. Input: repeated records of [type byte][array_count u32 LE][name length byte][name]. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hilo3d/std140.h"

enum { MAX_ENTRIES = 16 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    hl_std140_entry e[MAX_ENTRIES];
    memset(e, 0, sizeof e);
    char names[MAX_ENTRIES][33];
    uint32_t n = 0;
    size_t p = 0;
    while (n < MAX_ENTRIES && p + 6 <= size) {
        e[n].type = (hl_std140_type)(data[p] % (HL_STD140_TYPE_COUNT + 2));
        uint32_t count;
        memcpy(&count, data + p + 1, 4);
        e[n].array_count = count;
        size_t len = data[p + 5] % 33u;
        p += 6;
        if (len > size - p) len = size - p;
        memcpy(names[n], data + p, len);
        names[n][len] = '\0';
        p += len;
        e[n].name = names[n];
        n++;
    }
    hl_std140_member m[MAX_ENTRIES];
    uint32_t block_size = 0;
    if (hl_std140_compute(e, n, m, &block_size) != HL_OK) return 0;
    /* the computed layout must describe the block it promises */
    for (uint32_t i = 0; i < n; i++)
        if ((uint64_t)m[i].offset + m[i].size > block_size) __builtin_trap();
    if (block_size > (1u << 20)) return 0;
    uint8_t *block = calloc(1, block_size);
    for (uint32_t i = 0; block && i < n; i++) {
        uint32_t scalars = hl_std140_type_scalars(e[i].type) * (e[i].array_count ? e[i].array_count : 1);
        if (scalars > (1u << 18)) continue;
        float *values = calloc(scalars ? scalars : 1, sizeof(float));
        if (!values) continue;
        int changed = 0;
        uint32_t lo = 0, hi = 0;
        if (hl_std140_write(block, block_size, &m[i], e[i].type, e[i].array_count, values, scalars, &changed, &lo,
                            &hi) == HL_OK &&
            hi > block_size)
            __builtin_trap();
        free(values);
    }
    free(block);
    return 0;
}
