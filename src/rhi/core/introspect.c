/* hl_rhi_program_introspect: the shared checks, then the backend's driver queries. */
#include <string.h>

#include "core_private.h"

#define HL__STALE "handle is destroyed or stale"

/* Storage order inside the one block: the info, blocks, uniforms, inputs, then the names. */
typedef struct hl__program_info_block {
    hl_rhi_program_info info;
    size_t names_at;
} hl__program_info_block;

static size_t hl__align8(size_t n) { return (n + 7u) & ~(size_t)7u; }

hl_rhi_program_info *hl__program_info_alloc(uint32_t blocks, uint32_t uniforms, uint32_t inputs, size_t name_bytes) {
    size_t bytes = hl__align8(sizeof(hl__program_info_block));
    size_t at_blocks = bytes;
    bytes += hl__align8((size_t)blocks * sizeof(hl_rhi_program_block));
    size_t at_uniforms = bytes;
    bytes += hl__align8((size_t)uniforms * sizeof(hl_rhi_program_variable));
    size_t at_inputs = bytes;
    bytes += hl__align8((size_t)inputs * sizeof(hl_rhi_program_variable));
    size_t at_names = bytes;
    if (!hl__add_size(bytes, name_bytes, &bytes)) return NULL;
    uint8_t *mem = hl__calloc(1, bytes);
    if (!mem) return NULL;
    hl__program_info_block *b = (hl__program_info_block *)mem;
    b->info.blocks = (hl_rhi_program_block *)(mem + at_blocks);
    b->info.uniforms = (hl_rhi_program_variable *)(mem + at_uniforms);
    b->info.inputs = (hl_rhi_program_variable *)(mem + at_inputs);
    b->names_at = at_names;
    return &b->info;
}

const char *hl__program_info_name(hl_rhi_program_info *info, size_t *cursor, size_t name_bytes, const char *name,
                                  size_t len) {
    hl__program_info_block *b = (hl__program_info_block *)info;
    if (*cursor > name_bytes || len + 1u > name_bytes - *cursor) return NULL;
    char *dst = (char *)b + b->names_at + *cursor;
    memcpy(dst, name, len);
    dst[len] = '\0';
    *cursor += len + 1u;
    return dst;
}

void hl_rhi_program_info_free(hl_rhi_program_info *info) { hl__free(info); }

hl_result hl_rhi_program_introspect(hl_rhi_device *dev, hl_rhi_shader vertex, hl_rhi_shader fragment,
                                    hl_rhi_program_info **out) {
    const char *fn = "hl_rhi_program_introspect";
    if (out) *out = NULL;
    hl_result r = hl__check_device(dev, fn);
    if (r) return r;
    if (!out) return hl__fail(HL_ERR_VALIDATION, "%s: out is NULL", fn);
    hl__shader *vs = hl__pool_get(dev, HL__POOL_SHADER, vertex.id);
    if (!vs) return hl__fail(HL_ERR_VALIDATION, "%s: vertex: " HL__STALE, fn);
    if (vs->stage != HL_RHI_SHADER_VERTEX) return hl__fail(HL_ERR_VALIDATION, "%s: vertex is not a vertex shader", fn);
    hl__shader *fs = NULL;
    if (fragment.id) {
        fs = hl__pool_get(dev, HL__POOL_SHADER, fragment.id);
        if (!fs) return hl__fail(HL_ERR_VALIDATION, "%s: fragment: " HL__STALE, fn);
        if (fs->stage != HL_RHI_SHADER_FRAGMENT)
            return hl__fail(HL_ERR_VALIDATION, "%s: fragment is not a fragment shader", fn);
    }
    if (!dev->fns->program_introspect)
        return hl__fail(HL_ERR_UNSUPPORTED, "%s: the %s backend has no program introspection (gles3 only)", fn,
                        dev->fns->name);
    return dev->fns->program_introspect(dev, vs, fs, out);
}
