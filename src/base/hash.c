/* FNV-1a 64: the one byte hash of the project (caches confirm hits on the full key). */
#include <string.h>

#include "hl_base.h"

uint64_t hl__hash_bytes(uint64_t h, const void *data, size_t size) {
    const uint8_t *p = (const uint8_t *)data;
    for (size_t i = 0; i < size; ++i) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}

uint64_t hl__hash_str(uint64_t h, const char *s) {
    return s ? hl__hash_bytes(h, s, strlen(s) + 1) : hl__hash_bytes(h, "", 1);
}
