/* std140 layout rules (GLSL ES 3.00 spec 4.3.7 / OpenGL "std140"), pure functions.
 * Deliberately no RHI include: the scene layer uses this without knowing any device. */
#include <ctype.h>
#include <string.h>

#include "hl_base.h"
#include "hl_std140.h"

typedef struct hl__std140_type_info {
    const char *name;
    uint32_t components; /* per column */
    uint32_t columns;    /* 1 for scalars and vectors */
} hl__std140_type_info;

static const hl__std140_type_info hl__std140_types[HL_STD140_TYPE_COUNT] = {
    [HL_STD140_INVALID] = {"invalid", 0, 0}, [HL_STD140_FLOAT] = {"float", 1, 1}, [HL_STD140_VEC2] = {"vec2", 2, 1},
    [HL_STD140_VEC3] = {"vec3", 3, 1},       [HL_STD140_VEC4] = {"vec4", 4, 1},   [HL_STD140_INT] = {"int", 1, 1},
    [HL_STD140_IVEC2] = {"ivec2", 2, 1},     [HL_STD140_IVEC3] = {"ivec3", 3, 1}, [HL_STD140_IVEC4] = {"ivec4", 4, 1},
    [HL_STD140_UINT] = {"uint", 1, 1},       [HL_STD140_UVEC2] = {"uvec2", 2, 1}, [HL_STD140_UVEC3] = {"uvec3", 3, 1},
    [HL_STD140_UVEC4] = {"uvec4", 4, 1},     [HL_STD140_BOOL] = {"bool", 1, 1},   [HL_STD140_MAT2] = {"mat2", 2, 2},
    [HL_STD140_MAT3] = {"mat3", 3, 3},       [HL_STD140_MAT4] = {"mat4", 4, 4},
};

static int hl__std140_valid(hl_std140_type t) { return t > HL_STD140_INVALID && t < HL_STD140_TYPE_COUNT; }

const char *hl_std140_type_name(hl_std140_type t) { return hl__std140_valid(t) ? hl__std140_types[t].name : "invalid"; }

hl_std140_type hl_std140_type_from_name(const char *glsl_name) {
    if (!glsl_name) return HL_STD140_INVALID;
    for (int t = HL_STD140_FLOAT; t < HL_STD140_TYPE_COUNT; ++t)
        if (strcmp(hl__std140_types[t].name, glsl_name) == 0) return (hl_std140_type)t;
    return HL_STD140_INVALID;
}

uint32_t hl_std140_type_scalars(hl_std140_type t) {
    return hl__std140_valid(t) ? hl__std140_types[t].components * hl__std140_types[t].columns : 0;
}

static uint32_t hl__round_up(uint32_t v, uint32_t a) { return (v + a - 1u) / a * a; }

static int hl__is_identifier(const char *s) {
    if (!s || !*s) return 0;
    if (!(isalpha((unsigned char)s[0]) || s[0] == '_')) return 0;
    for (const char *p = s + 1; *p; ++p)
        if (!(isalnum((unsigned char)*p) || *p == '_')) return 0;
    return 1;
}

hl_result hl_std140_compute(const hl_std140_entry *entries, uint32_t count, hl_std140_member *members,
                            uint32_t *out_size) {
    if (!entries || count == 0) return hl__fail(HL_ERR_VALIDATION, "std140 schema: no entries (count is 0)");
    if (!members || !out_size) return hl__fail(HL_ERR_VALIDATION, "std140 schema: members/out_size is NULL");
    uint32_t cursor = 0;
    for (uint32_t i = 0; i < count; ++i) {
        const hl_std140_entry *e = &entries[i];
        if (!hl__is_identifier(e->name))
            return hl__fail(HL_ERR_VALIDATION, "std140 schema: entries[%u].name \"%s\" is not a GLSL identifier", i,
                            e->name ? e->name : "(null)");
        for (uint32_t j = 0; j < i; ++j)
            if (strcmp(entries[j].name, e->name) == 0)
                return hl__fail(HL_ERR_VALIDATION, "std140 schema: entries[%u].name \"%s\" repeats entries[%u]", i,
                                e->name, j);
        if (!hl__std140_valid(e->type))
            return hl__fail(HL_ERR_VALIDATION, "std140 schema: entries[%u] (\"%s\") has invalid type %d", i, e->name,
                            (int)e->type);
        if (e->array_count > HL_STD140_MAX_ARRAY_COUNT)
            return hl__fail(HL_ERR_VALIDATION, "std140 schema: entries[%u] (\"%s\") array_count %u exceeds %u", i,
                            e->name, e->array_count, (uint32_t)HL_STD140_MAX_ARRAY_COUNT);
        const hl__std140_type_info *ti = &hl__std140_types[e->type];
        hl_std140_member m = {0};
        uint32_t vec_size = 4u * ti->components;
        uint32_t vec_align = ti->components == 1 ? 4u : ti->components == 2 ? 8u : 16u;
        if (ti->columns > 1) {
            /* a matrix is an array of column vectors: each column rounded up to vec4 */
            m.matrix_stride = 16;
            m.align = 16;
            uint32_t elem = 16u * ti->columns;
            if (e->array_count) {
                m.array_stride = elem;
                m.size = elem * e->array_count;
            } else {
                m.size = elem;
            }
        } else if (e->array_count) {
            m.align = 16;
            m.array_stride = hl__round_up(vec_size, 16);
            m.size = m.array_stride * e->array_count;
        } else {
            m.align = vec_align;
            m.size = vec_size;
        }
        /* one member is at most 64 * 65536 bytes, but many of them can pass 32 bits */
        uint32_t offset = 0, end = 0;
        if (!hl__add_u32(cursor, m.align - 1u, &offset) || !hl__add_u32(offset / m.align * m.align, m.size, &end) ||
            end > HL_STD140_MAX_BLOCK_SIZE)
            return hl__fail(HL_ERR_VALIDATION,
                            "std140 schema: entries[%u] (\"%s\", %u bytes) ends at byte %llu, past the %u-byte limit "
                            "of a block (HL_STD140_MAX_BLOCK_SIZE)",
                            i, e->name, m.size,
                            ((unsigned long long)cursor + m.align - 1u) / m.align * m.align + m.size,
                            (uint32_t)HL_STD140_MAX_BLOCK_SIZE);
        m.offset = offset / m.align * m.align;
        cursor = end;
        members[i] = m;
    }
    *out_size = hl__round_up(cursor, 16); /* cursor <= HL_STD140_MAX_BLOCK_SIZE, a multiple of 16 */
    return HL_OK;
}

hl_result hl_std140_write(void *block, uint32_t block_size, const hl_std140_member *m, hl_std140_type t,
                          uint32_t array_count, const void *values, uint32_t value_count, int *changed,
                          uint32_t *dirty_lo, uint32_t *dirty_hi) {
    if (changed) *changed = 0;
    if (dirty_lo) *dirty_lo = 0;
    if (dirty_hi) *dirty_hi = 0;
    if (!block || !m || !values) return hl__fail(HL_ERR_VALIDATION, "std140 write: block, member or values is NULL");
    if (!hl__std140_valid(t)) return hl__fail(HL_ERR_VALIDATION, "std140 write: invalid type %d", (int)t);
    const hl__std140_type_info *ti = &hl__std140_types[t];
    uint32_t elements = array_count ? array_count : 1u;
    uint32_t need = 0;
    if (!hl__mul_u32(hl_std140_type_scalars(t), elements, &need))
        return hl__fail(HL_ERR_VALIDATION, "std140 write: a %s[%u] has more than 2^32 scalars", ti->name, array_count);
    if (value_count != need)
        return hl__fail(HL_ERR_VALIDATION, "std140 write: a %s%s expects %u values, got %u", ti->name,
                        array_count ? "[]" : "", need, value_count);
    /* The bytes actually written (m is caller data: its size need not match its strides). The
     * last element's last column ends furthest: every stride is unsigned. */
    uint32_t chunk = 4u * ti->components;
    uint64_t end = (uint64_t)m->offset + (uint64_t)(elements - 1u) * m->array_stride +
                   (uint64_t)(ti->columns - 1u) * m->matrix_stride + chunk;
    if ((uint64_t)m->offset + m->size > block_size || end > block_size)
        return hl__fail(HL_ERR_VALIDATION,
                        "std140 write: a %s%s member at offset %u (size %u, array_stride %u, matrix_stride %u) "
                        "writes up to byte %llu, past the %u-byte block",
                        ti->name, array_count ? "[]" : "", m->offset, m->size, m->array_stride, m->matrix_stride,
                        (unsigned long long)(end > (uint64_t)m->offset + m->size ? end : (uint64_t)m->offset + m->size),
                        block_size);
    uint8_t *dst = (uint8_t *)block;
    const uint8_t *src = (const uint8_t *)values;
    uint32_t lo = UINT32_MAX, hi = 0;
    for (uint32_t e = 0; e < elements; ++e) {
        uint32_t base = m->offset + e * m->array_stride; /* <= end <= block_size: no wrap */
        for (uint32_t c = 0; c < ti->columns; ++c) {
            uint32_t at = base + c * m->matrix_stride;
            if (memcmp(dst + at, src, chunk) != 0) {
                memcpy(dst + at, src, chunk);
                if (at < lo) lo = at;
                if (at + chunk > hi) hi = at + chunk;
            }
            src += chunk;
        }
    }
    if (hi > 0) {
        if (changed) *changed = 1;
        if (dirty_lo) *dirty_lo = lo;
        if (dirty_hi) *dirty_hi = hi;
    }
    return HL_OK;
}
