/* Fuzz target: the WGSL declaration scanner (hl_wgsl_reflect), which reads compute sources
 * before Dawn does. Input: [entry byte][WGSL text]: the entry byte picks the entry point name
 * ("main", "k", "helper" or "cs"). Checks: only HL_OK or HL_ERR_SHADER; on HL_OK at most
 * HL_WGSL_MAX_BINDINGS bindings, each name terminated, no two on one (group, binding), kinds in
 * range; at most HL_WGSL_MAX_OVERRIDES overrides, names terminated, types in range. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hl_wgsl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > HL_WGSL_MAX_SOURCE) return 0;
    static const char *const entries[4] = {"main", "k", "helper", "cs"};
    const char *entry = entries[data[0] & 3];
    static hl_wgsl_info info;
    hl_result r = hl_wgsl_reflect((const char *)data + 1, size - 1, entry, &info);
    if (r != HL_OK && r != HL_ERR_SHADER) __builtin_trap();
    if (r != HL_OK) return 0;
    if (info.binding_count > HL_WGSL_MAX_BINDINGS) __builtin_trap();
    for (uint32_t i = 0; i < info.binding_count; i++) {
        const hl_wgsl_binding *b = &info.bindings[i];
        if (!memchr(b->name, '\0', sizeof b->name) || (unsigned)b->kind > HL_WGSL_OTHER) __builtin_trap();
        for (uint32_t j = 0; j < i; j++)
            if (info.bindings[j].group == b->group && info.bindings[j].binding == b->binding) __builtin_trap();
    }
    if (info.override_count > HL_WGSL_MAX_OVERRIDES) __builtin_trap();
    for (uint32_t i = 0; i < info.override_count; i++) {
        const hl_wgsl_override *o = &info.overrides[i];
        if (!memchr(o->name, '\0', sizeof o->name) || (unsigned)o->type > HL_WGSL_SCALAR_OTHER) __builtin_trap();
    }
    return 0;
}
