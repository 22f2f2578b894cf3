/* Small helpers shared by the scene files: identifiers, owned strings, the process-wide
 * revision counter and node-kind checks. */
#include <ctype.h>
#include <stdatomic.h>
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

/* One counter for every revision of every scene object (and textures): a consumer that caches
 * by object address can never see a new object at a reused address with a revision it holds
 * for the old one. 64 bits do not wrap in practice (2^64 bumps). */
static _Atomic uint64_t hl__revision_counter;

uint64_t hl__next_revision(void) {
    return atomic_fetch_add_explicit(&hl__revision_counter, 1, memory_order_relaxed) + 1;
}

uint64_t hl__next_revisions(uint64_t n) {
    return atomic_fetch_add_explicit(&hl__revision_counter, n, memory_order_relaxed) + 1;
}

uint64_t hl_revision_now(void) { return atomic_load_explicit(&hl__revision_counter, memory_order_relaxed); }

const char *hl_node_kind_name(hl_node_kind kind) {
    switch (kind) {
    case HL_NODE_GROUP: return "group";
    case HL_NODE_MESH: return "mesh";
    case HL_NODE_CAMERA: return "camera";
    case HL_NODE_LIGHT: return "light";
    default: return "unknown";
    }
}

hl_result hl__check_node_kind(const char *fn, const void *object, hl_node_kind want) {
    if (!object) return hl__fail(HL_ERR_VALIDATION, "%s: %s is NULL", fn, hl_node_kind_name(want));
    const hl_node *n = (const hl_node *)object;
    if (n->kind == want) return HL_OK;
    if ((unsigned)n->kind > HL_NODE_LIGHT)
        return hl__fail(HL_ERR_VALIDATION, "%s: expected a %s, got an object of unknown node kind %d", fn,
                        hl_node_kind_name(want), (int)n->kind);
    return hl__fail(HL_ERR_VALIDATION, "%s: expected a %s, got a %s node (\"%s\")", fn, hl_node_kind_name(want),
                    hl_node_kind_name(n->kind), n->name ? n->name : "");
}
