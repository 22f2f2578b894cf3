/* Small helpers shared by the scene files: identifiers, owned strings. */
#include <ctype.h>
#include <string.h>

#include "scene_internal.h"

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
