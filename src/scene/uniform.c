/* std140 layout objects, uniform buffers and the uniform-block registry. */
#include <string.h>

#include "hilo3d/std140.h"
#include "scene_internal.h"

struct hl_std140_layout {
    uint32_t refs;
    uint32_t count;
    uint32_t size;
    uint64_t hash;
    hl_std140_member *members;
    hl_std140_type *types;
    uint32_t *array_counts;
    char **names;
};

static void hl__layout_free(hl_std140_layout *l) {
    if (l->names)
        for (uint32_t i = 0; i < l->count; ++i)
            hl__free(l->names[i]);
    hl__free(l->names);
    hl__free(l->members);
    hl__free(l->types);
    hl__free(l->array_counts);
    hl__free(l);
}

hl_result hl_std140_layout_create(const hl_std140_entry *entries, uint32_t count, hl_std140_layout **out) {
    if (!out) return hl__fail(HL_ERR_VALIDATION, "hl_std140_layout_create: out is NULL");
    *out = NULL;
    if (!entries || count == 0)
        return hl__fail(HL_ERR_VALIDATION, "hl_std140_layout_create: the schema has no entries");
    hl_std140_layout *l = hl__calloc(1, sizeof *l);
    if (!l) return hl__fail(HL_ERR_OUT_OF_MEMORY, "hl_std140_layout_create: out of memory");
    l->refs = 1;
    l->count = count;
    l->members = hl__calloc(count, sizeof *l->members);
    l->types = hl__calloc(count, sizeof *l->types);
    l->array_counts = hl__calloc(count, sizeof *l->array_counts);
    l->names = hl__calloc(count, sizeof *l->names);
    if (!l->members || !l->types || !l->array_counts || !l->names) {
        hl__layout_free(l);
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "hl_std140_layout_create: out of memory");
    }
    hl_result r = hl_std140_compute(entries, count, l->members, &l->size);
    if (r) {
        hl__layout_free(l);
        return r;
    }
    uint64_t h = HL__HASH_SEED;
    for (uint32_t i = 0; i < count; ++i) {
        l->types[i] = entries[i].type;
        l->array_counts[i] = entries[i].array_count;
        l->names[i] = hl__strdup(entries[i].name);
        if (!l->names[i]) {
            hl__layout_free(l);
            return hl__fail(HL_ERR_OUT_OF_MEMORY, "hl_std140_layout_create: out of memory");
        }
        h = hl__hash_str(h, entries[i].name);
        uint32_t tc[2] = {(uint32_t)entries[i].type, entries[i].array_count};
        h = hl__hash_bytes(h, tc, sizeof tc);
    }
    l->hash = h;
    *out = l;
    return HL_OK;
}

void hl_std140_layout_retain(hl_std140_layout *l) {
    if (l) l->refs++;
}

void hl_std140_layout_release(hl_std140_layout *l) {
    if (l && --l->refs == 0) hl__layout_free(l);
}

uint32_t hl_std140_layout_size(const hl_std140_layout *l) { return l ? l->size : 0; }
uint32_t hl_std140_layout_member_count(const hl_std140_layout *l) { return l ? l->count : 0; }
uint64_t hl_std140_layout_hash(const hl_std140_layout *l) { return l ? l->hash : 0; }

const hl_std140_member *hl_std140_layout_member(const hl_std140_layout *l, uint32_t i, const char **name,
                                                hl_std140_type *type, uint32_t *array_count) {
    if (!l || i >= l->count) return NULL;
    if (name) *name = l->names[i];
    if (type) *type = l->types[i];
    if (array_count) *array_count = l->array_counts[i];
    return &l->members[i];
}

int32_t hl_std140_layout_find(const hl_std140_layout *l, const char *name) {
    if (!l || !name) return -1;
    for (uint32_t i = 0; i < l->count; ++i)
        if (strcmp(l->names[i], name) == 0) return (int32_t)i;
    return -1;
}

/* ---- uniform buffer ------------------------------------------------------------------------ */

struct hl_uniform_buffer {
    uint32_t refs;
    hl_std140_layout *layout;
    uint8_t *data;
    uint64_t revision;   /* bumps on every change */
    uint64_t dirty_base; /* dirty covers every change after this revision */
    hl_dirty_range dirty;
};

hl_result hl_uniform_buffer_create(hl_std140_layout *layout, hl_uniform_buffer **out) {
    if (!out) return hl__fail(HL_ERR_VALIDATION, "hl_uniform_buffer_create: out is NULL");
    *out = NULL;
    if (!layout) return hl__fail(HL_ERR_VALIDATION, "hl_uniform_buffer_create: layout is NULL");
    hl_uniform_buffer *ub = hl__calloc(1, sizeof *ub);
    uint8_t *data = hl__calloc(1, layout->size);
    if (!ub || !data) {
        hl__free(ub);
        hl__free(data);
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "hl_uniform_buffer_create: out of memory for %u bytes", layout->size);
    }
    ub->refs = 1;
    ub->layout = layout;
    hl_std140_layout_retain(layout);
    ub->data = data;
    ub->revision = hl__next_revision();
    ub->dirty_base = ub->revision;
    *out = ub;
    return HL_OK;
}

void hl_uniform_buffer_retain(hl_uniform_buffer *ub) {
    if (ub) ub->refs++;
}

void hl_uniform_buffer_release(hl_uniform_buffer *ub) {
    if (!ub || --ub->refs) return;
    hl_std140_layout_release(ub->layout);
    hl__free(ub->data);
    hl__free(ub);
}

hl_result hl_uniform_buffer_set_index(hl_uniform_buffer *ub, uint32_t member, const void *values,
                                      uint32_t value_count) {
    if (!ub) return hl__fail(HL_ERR_VALIDATION, "hl_uniform_buffer_set: buffer is NULL");
    const hl_std140_layout *l = ub->layout;
    if (member >= l->count)
        return hl__fail(HL_ERR_NOT_FOUND, "hl_uniform_buffer_set: member index %u out of range (%u members)", member,
                        l->count);
    if (!values) return hl__fail(HL_ERR_VALIDATION, "hl_uniform_buffer_set(\"%s\"): values is NULL", l->names[member]);
    int changed = 0;
    uint32_t lo = 0, hi = 0;
    hl_result r = hl_std140_write(ub->data, l->size, &l->members[member], l->types[member], l->array_counts[member],
                                  values, value_count, &changed, &lo, &hi);
    if (r)
        return hl__fail(r, "hl_uniform_buffer_set(\"%s\"): a %s%s takes %llu values, got %u", l->names[member],
                        hl_std140_type_name(l->types[member]), l->array_counts[member] ? "[]" : "",
                        (unsigned long long)hl_std140_type_scalars(l->types[member]) *
                            (l->array_counts[member] ? l->array_counts[member] : 1u),
                        value_count);
    if (changed) {
        ub->revision = hl__next_revision();
        hl__range_merge(&ub->dirty, lo, hi);
    }
    return HL_OK;
}

hl_result hl_uniform_buffer_set(hl_uniform_buffer *ub, const char *name, const void *values, uint32_t value_count) {
    if (!ub) return hl__fail(HL_ERR_VALIDATION, "hl_uniform_buffer_set: buffer is NULL");
    if (!name) return hl__fail(HL_ERR_VALIDATION, "hl_uniform_buffer_set: name is NULL");
    int32_t i = hl_std140_layout_find(ub->layout, name);
    if (i < 0) return hl__fail(HL_ERR_NOT_FOUND, "hl_uniform_buffer_set: the layout has no member \"%s\"", name);
    return hl_uniform_buffer_set_index(ub, (uint32_t)i, values, value_count);
}

hl_std140_layout *hl_uniform_buffer_layout(const hl_uniform_buffer *ub) { return ub ? ub->layout : NULL; }
const void *hl_uniform_buffer_data(const hl_uniform_buffer *ub) { return ub ? ub->data : NULL; }
uint32_t hl_uniform_buffer_size(const hl_uniform_buffer *ub) { return ub ? ub->layout->size : 0; }
uint64_t hl_uniform_buffer_revision(const hl_uniform_buffer *ub) { return ub ? ub->revision : 0; }

hl_upload_kind hl_uniform_buffer_upload(const hl_uniform_buffer *ub, uint64_t uploaded_revision,
                                        hl_dirty_range *range) {
    if (!ub) {
        if (range) *range = (hl_dirty_range){0, 0};
        return HL_UPLOAD_NONE;
    }
    return hl__upload_kind(ub->revision, ub->dirty_base, &ub->dirty, ub->layout->size, uploaded_revision, range);
}

void hl_uniform_buffer_clear_dirty(hl_uniform_buffer *ub) {
    if (!ub) return;
    ub->dirty_base = ub->revision;
    ub->dirty = (hl_dirty_range){0, 0};
}

/* ---- registry ------------------------------------------------------------------------------ */

static char hl__block_names[HL_MAX_UNIFORM_BLOCKS][64];
static uint32_t hl__block_count;

bool hl_uniform_block_binding(const char *name, uint32_t *out_binding) {
    if (!name) return false;
    for (uint32_t i = 0; i < hl__block_count; ++i) {
        if (strcmp(hl__block_names[i], name) == 0) {
            if (out_binding) *out_binding = i;
            return true;
        }
    }
    return false;
}

hl_result hl_register_uniform_block_binding(const char *name, uint32_t *out_binding) {
    if (!hl__is_identifier(name))
        return hl__fail(HL_ERR_VALIDATION, "hl_register_uniform_block_binding: name \"%s\" is not a GLSL identifier",
                        name ? name : "(null)");
    if (strlen(name) >= sizeof hl__block_names[0])
        return hl__fail(HL_ERR_VALIDATION, "hl_register_uniform_block_binding: name \"%.20s...\" is longer than 63",
                        name);
    if (hl_uniform_block_binding(name, out_binding)) return HL_OK;
    if (hl__block_count >= HL_MAX_UNIFORM_BLOCKS)
        return hl__fail(HL_ERR_VALIDATION, "hl_register_uniform_block_binding(\"%s\"): all %d bindings are taken", name,
                        HL_MAX_UNIFORM_BLOCKS);
    memcpy(hl__block_names[hl__block_count], name, strlen(name) + 1);
    if (out_binding) *out_binding = hl__block_count;
    hl__block_count++;
    return HL_OK;
}

uint32_t hl_uniform_block_binding_count(void) { return hl__block_count; }

void hl_uniform_block_bindings_reset(void) {
    memset(hl__block_names, 0, sizeof hl__block_names);
    hl__block_count = 0;
}

uint32_t hl_uniform_buffer_ref_count(const hl_uniform_buffer *ub) { return ub ? ub->refs : 0; }
