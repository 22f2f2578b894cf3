/* Small helpers shared by the scene files: hashing, identifiers, owned strings. */
#include <ctype.h>
#include <string.h>

#include "scene_internal.h"

uint64_t hl__hash_bytes(uint64_t h, const void *data, size_t size) {
    const uint8_t *p = (const uint8_t *)data;
    for (size_t i = 0; i < size; ++i) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}

uint64_t hl__hash_str(uint64_t h, const char *s) {
    /* include the terminator so ("ab","c") and ("a","bc") differ */
    return s ? hl__hash_bytes(h, s, strlen(s) + 1) : hl__hash_bytes(h, "", 1);
}

bool hl__is_identifier(const char *s) {
    if (!s || !*s) return false;
    if (!(isalpha((unsigned char)s[0]) || s[0] == '_')) return false;
    for (const char *p = s + 1; *p; ++p)
        if (!(isalnum((unsigned char)*p) || *p == '_')) return false;
    return true;
}

bool hl__set_string(char **dst, const char *src) {
    char *copy = NULL;
    if (src) {
        copy = hl__strdup(src);
        if (!copy) {
            hl__fail(HL_ERR_OUT_OF_MEMORY, "out of memory copying the string \"%.32s\"", src);
            return false;
        }
    }
    hl__free(*dst);
    *dst = copy;
    return true;
}
