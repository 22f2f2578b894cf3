/* Materials: basic, PBR metallic-roughness and shader materials with their variant. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scene_internal.h"

typedef struct hl__named_block {
    char *name;
    hl_uniform_buffer *buffer;
} hl__named_block;

typedef struct hl__named_texture {
    char *name;
    hl_texture *texture;
} hl__named_texture;

struct hl_material {
    uint32_t refs;
    hl_material_kind kind;
    hl_material_state state; /* as given (DEFAULT toggles kept; resolved into variant) */
    hl_material_factors factors;
    hl_texture_ref textures[HL_TEXTURE_SLOT_COUNT];
    hl_material_variant variant;
    uint64_t revision, variant_revision;
    char *label;
    /* shader material */
    char *vs, *fs;
    hl_material_attribute *attributes; /* names owned */
    uint32_t attribute_count;
    hl_material_uniform_block *blocks; /* names owned, buffers retained */
    uint32_t block_count;
    hl_material_texture *named_textures; /* names owned, textures retained */
    uint32_t named_texture_count;
};

/* ---- defaults, validation, variant --------------------------------------------------------- */

static hl_result hl__validate_state(const char *fn, const hl_material_state *s) {
    if ((unsigned)s->alpha_mode > HL_ALPHA_BLEND)
        return hl__fail(HL_ERR_VALIDATION, "%s: state.alpha_mode %d is invalid", fn, (int)s->alpha_mode);
    if (!(s->alpha_cutoff >= 0.0f && s->alpha_cutoff <= 1.0f))
        return hl__fail(HL_ERR_VALIDATION, "%s: state.alpha_cutoff %g must be in [0, 1]", fn, (double)s->alpha_cutoff);
    if ((unsigned)s->depth_test > HL_TOGGLE_OFF)
        return hl__fail(HL_ERR_VALIDATION, "%s: state.depth_test %d is invalid", fn, (int)s->depth_test);
    if ((unsigned)s->depth_write > HL_TOGGLE_OFF)
        return hl__fail(HL_ERR_VALIDATION, "%s: state.depth_write %d is invalid", fn, (int)s->depth_write);
    return HL_OK;
}

static hl_result hl__validate_ref(const char *fn, const char *what, const hl_texture_ref *t) {
    if (t->texcoord > 1) return hl__fail(HL_ERR_VALIDATION, "%s: %s.texcoord %u must be 0 or 1", fn, what, t->texcoord);
    return HL_OK;
}

static bool hl__unit(float v) { return v >= 0.0f && v <= 1.0f; }

/* Recomputes the variant from the current fields; bumps the revisions. */
static void hl__changed(hl_material *m) {
    hl_material_variant v = {0};
    v.kind = m->kind;
    v.alpha_mode = m->state.alpha_mode;
    v.double_sided = m->state.double_sided;
    v.depth_test = m->state.depth_test != HL_TOGGLE_OFF;
    v.depth_write = m->state.depth_write == HL_TOGGLE_DEFAULT ? m->state.alpha_mode != HL_ALPHA_BLEND
                                                              : m->state.depth_write == HL_TOGGLE_ON;
    for (int s = 0; s < HL_TEXTURE_SLOT_COUNT; ++s) {
        if (!m->textures[s].texture) continue;
        v.texture_mask |= 1u << s;
        if (m->textures[s].texcoord == 1) v.texcoord1_mask |= 1u << s;
        float(*r)[3] = m->factors.uv_rows[s];
        if (r[0][0] != 1 || r[0][1] != 0 || r[0][2] != 0 || r[1][0] != 0 || r[1][1] != 1 || r[1][2] != 0)
            v.uv_transform_mask |= 1u << s;
    }
    if (m->kind == HL_MATERIAL_SHADER) v.shader_hash = hl__hash_str(hl__hash_str(HL__HASH_SEED, m->vs), m->fs);
    m->factors.alpha_cutoff = m->state.alpha_cutoff == 0.0f ? 0.5f : m->state.alpha_cutoff;
    m->revision = hl__next_revision();
    if (memcmp(&v, &m->variant, sizeof v) != 0) {
        m->variant = v;
        m->variant_revision = m->revision; /* unique too: the revision was just drawn */
    }
}

static hl_material *hl__material_new(hl_material_kind kind, const hl_material_state *state) {
    hl_material *m = hl__calloc(1, sizeof *m);
    if (!m) return NULL;
    m->refs = 1;
    m->kind = kind;
    if (state) m->state = *state;
    m->factors.base_color = (hl_color){1, 1, 1, 1};
    m->factors.roughness = 1.0f;
    m->factors.normal_scale = 1.0f;
    m->factors.occlusion_strength = 1.0f;
    for (int s = 0; s < HL_TEXTURE_SLOT_COUNT; ++s) m->factors.uv_rows[s][0][0] = m->factors.uv_rows[s][1][1] = 1.0f;
    return m;
}

static void hl__set_tex(hl_material *m, int slot, hl_texture_ref ref) {
    if (ref.texture) hl_texture_retain(ref.texture);
    hl_texture_release(m->textures[slot].texture);
    m->textures[slot] = ref;
}

static hl_color hl__color_or_white(hl_color c) {
    if (c.r == 0 && c.g == 0 && c.b == 0 && c.a == 0) return (hl_color){1, 1, 1, 1};
    return c;
}

/* ---- creation ------------------------------------------------------------------------------ */

hl_result hl_material_create_basic(const hl_basic_material_desc *desc, hl_material **out) {
    static const char fn[] = "hl_material_create_basic";
    if (!out) return hl__fail(HL_ERR_VALIDATION, "%s: out is NULL", fn);
    *out = NULL;
    hl_basic_material_desc d = desc ? *desc : (hl_basic_material_desc){0};
    hl_result r = hl__validate_state(fn, &d.state);
    if (!r) r = hl__validate_ref(fn, "texture", &d.texture);
    if (r) return r;
    hl_material *m = hl__material_new(HL_MATERIAL_BASIC, &d.state);
    if (!m || !hl__set_string(&m->label, d.label)) {
        hl__free(m);
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: out of memory", fn);
    }
    m->factors.base_color = hl__color_or_white(d.color);
    hl__set_tex(m, HL_TEXTURE_BASE_COLOR, d.texture);
    hl__changed(m);
    *out = m;
    return HL_OK;
}

hl_result hl_material_create_pbr(const hl_pbr_material_desc *desc, hl_material **out) {
    static const char fn[] = "hl_material_create_pbr";
    if (!out) return hl__fail(HL_ERR_VALIDATION, "%s: out is NULL", fn);
    *out = NULL;
    hl_pbr_material_desc d = desc ? *desc : (hl_pbr_material_desc){0};
    hl_result r = hl__validate_state(fn, &d.state);
    if (r) return r;
    if (!hl__unit(d.metallic))
        return hl__fail(HL_ERR_VALIDATION, "%s: metallic %g must be in [0, 1]", fn, (double)d.metallic);
    if (!hl__unit(d.roughness))
        return hl__fail(HL_ERR_VALIDATION, "%s: roughness %g must be in [0, 1]", fn, (double)d.roughness);
    if (!(d.occlusion_strength >= 0.0f && d.occlusion_strength <= 1.0f))
        return hl__fail(HL_ERR_VALIDATION, "%s: occlusion_strength %g must be in [0, 1]", fn,
                        (double)d.occlusion_strength);
    if (!isfinite(d.normal_scale)) return hl__fail(HL_ERR_VALIDATION, "%s: normal_scale is not finite", fn);
    static const char *const slot_names[HL_TEXTURE_SLOT_COUNT] = {"textures[BASE_COLOR]",
                                                                  "textures[METALLIC_ROUGHNESS]", "textures[NORMAL]",
                                                                  "textures[OCCLUSION]", "textures[EMISSIVE]"};
    for (int s = 0; s < HL_TEXTURE_SLOT_COUNT; ++s)
        if ((r = hl__validate_ref(fn, slot_names[s], &d.textures[s]))) return r;
    hl_material *m = hl__material_new(HL_MATERIAL_PBR, &d.state);
    if (!m || !hl__set_string(&m->label, d.label)) {
        hl__free(m);
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: out of memory", fn);
    }
    m->factors.base_color = hl__color_or_white(d.base_color);
    m->factors.metallic = d.metallic;
    m->factors.roughness = d.roughness == 0.0f ? 1.0f : d.roughness;
    m->factors.emissive = d.emissive;
    m->factors.normal_scale = d.normal_scale == 0.0f ? 1.0f : d.normal_scale;
    m->factors.occlusion_strength = d.occlusion_strength == 0.0f ? 1.0f : d.occlusion_strength;
    for (int s = 0; s < HL_TEXTURE_SLOT_COUNT; ++s)
        hl__set_tex(m, s, d.textures[s]);
    hl__changed(m);
    *out = m;
    return HL_OK;
}

/* 300 or 310 for a source starting (after blank space) with `#version 300 es` / `310 es`; else 0. */
static int hl__es_version(const char *src) {
    while (*src == ' ' || *src == '\t' || *src == '\r' || *src == '\n')
        ++src;
    return strncmp(src, "#version 300 es", 15) == 0 ? 300 : strncmp(src, "#version 310 es", 15) == 0 ? 310 : 0;
}

static hl_result hl__add_block(hl_material *m, const char *name, hl_uniform_buffer *ub) {
    size_t bytes = 0;
    void *p = hl__mul_size(sizeof *m->blocks, (size_t)m->block_count + 1u, &bytes) ? hl__realloc(m->blocks, bytes)
                                                                                  : NULL;
    if (!p) return hl__fail(HL_ERR_OUT_OF_MEMORY, "out of memory adding uniform block \"%s\"", name);
    m->blocks = p;
    char *copy = hl__strdup(name);
    if (!copy) return hl__fail(HL_ERR_OUT_OF_MEMORY, "out of memory adding uniform block \"%s\"", name);
    hl_uniform_buffer_retain(ub);
    m->blocks[m->block_count++] = (hl_material_uniform_block){copy, ub};
    return HL_OK;
}

static hl_result hl__add_named_texture(hl_material *m, const char *name, hl_texture *t) {
    size_t bytes = 0;
    void *p = hl__mul_size(sizeof *m->named_textures, (size_t)m->named_texture_count + 1u, &bytes)
                  ? hl__realloc(m->named_textures, bytes)
                  : NULL;
    if (!p) return hl__fail(HL_ERR_OUT_OF_MEMORY, "out of memory adding texture \"%s\"", name);
    m->named_textures = p;
    char *copy = hl__strdup(name);
    if (!copy) return hl__fail(HL_ERR_OUT_OF_MEMORY, "out of memory adding texture \"%s\"", name);
    hl_texture_retain(t);
    m->named_textures[m->named_texture_count++] = (hl_material_texture){copy, t};
    return HL_OK;
}

static void hl__material_free(hl_material *m) {
    for (int s = 0; s < HL_TEXTURE_SLOT_COUNT; ++s)
        hl_texture_release(m->textures[s].texture);
    for (uint32_t i = 0; i < m->attribute_count; ++i)
        hl__free((char *)m->attributes[i].name);
    for (uint32_t i = 0; i < m->block_count; ++i) {
        hl__free((char *)m->blocks[i].name);
        hl_uniform_buffer_release(m->blocks[i].buffer);
    }
    for (uint32_t i = 0; i < m->named_texture_count; ++i) {
        hl__free((char *)m->named_textures[i].name);
        hl_texture_release(m->named_textures[i].texture);
    }
    hl__free(m->attributes);
    hl__free(m->blocks);
    hl__free(m->named_textures);
    hl__free(m->vs);
    hl__free(m->fs);
    hl__free(m->label);
    hl__free(m);
}

/* A name the GLSL side declares: an identifier, not in the reserved gl_ namespace (GLSL ES
 * 3.00 section 3.8: declaring one is a compile error), and for blocks short enough for the
 * block registry. what/index name the field in the message; index UINT32_MAX = no index. */
static hl_result hl__check_glsl_name(const char *fn, const char *what, uint32_t index, const char *name,
                                     size_t max_len) {
    char field[48];
    if (index == UINT32_MAX)
        snprintf(field, sizeof field, "%s", what);
    else
        snprintf(field, sizeof field, "%s[%u].name", what, index);
    if (!name) return hl__fail(HL_ERR_VALIDATION, "%s: %s is NULL", fn, field);
    if (!hl__is_identifier(name))
        return hl__fail(HL_ERR_VALIDATION, "%s: %s \"%.64s\" is not a GLSL identifier", fn, field, name);
    if (strncmp(name, "gl_", 3) == 0)
        return hl__fail(HL_ERR_VALIDATION, "%s: %s \"%.64s\" uses the reserved prefix gl_", fn, field, name);
    if (max_len && strlen(name) > max_len)
        return hl__fail(HL_ERR_VALIDATION, "%s: %s \"%.32s...\" is longer than %zu characters", fn, field, name,
                        max_len);
    return HL_OK;
}

/* Block names must fit the uniform-block registry (uniform.h). */
#define HL__BLOCK_NAME_MAX 63u

static hl_result hl__validate_shader_desc(const char *fn, const hl_shader_material_desc *d) {
    if (!d->vs) return hl__fail(HL_ERR_VALIDATION, "%s: vs is NULL", fn);
    if (!d->fs) return hl__fail(HL_ERR_VALIDATION, "%s: fs is NULL", fn);
    const char *names[2] = {"vs", "fs"};
    const char *srcs[2] = {d->vs, d->fs};
    for (int i = 0; i < 2; i++) /* strnlen: never reads past the limit of an endless string */
        if (strnlen(srcs[i], (size_t)HL_MATERIAL_MAX_SHADER_SOURCE_BYTES + 1) > HL_MATERIAL_MAX_SHADER_SOURCE_BYTES)
            return hl__fail(HL_ERR_VALIDATION, "%s: %s is longer than %u bytes (HL_MATERIAL_MAX_SHADER_SOURCE_BYTES)", fn,
                            names[i], HL_MATERIAL_MAX_SHADER_SOURCE_BYTES);
    int vv = hl__es_version(d->vs), fv = hl__es_version(d->fs);
    if (!vv)
        return hl__fail(HL_ERR_VALIDATION, "%s: vs must start with \"#version 300 es\" (GLSL ES 3.00; or 310 es: the "
                        "storage variant)", fn);
    if (!fv)
        return hl__fail(HL_ERR_VALIDATION, "%s: fs must start with \"#version 300 es\" (GLSL ES 3.00; or 310 es: the "
                        "storage variant)", fn);
    if (vv != fv)
        return hl__fail(HL_ERR_VALIDATION, "%s: vs is GLSL ES %d.%02d and fs %d.%02d (one version for both)", fn, vv / 100,
                        vv % 100, fv / 100, fv % 100);
    if (d->attribute_count && !d->attributes)
        return hl__fail(HL_ERR_VALIDATION, "%s: attribute_count is %u but attributes is NULL", fn, d->attribute_count);
    if (d->uniform_block_count && !d->uniform_blocks)
        return hl__fail(HL_ERR_VALIDATION, "%s: uniform_block_count is %u but uniform_blocks is NULL", fn,
                        d->uniform_block_count);
    if (d->texture_count && !d->textures)
        return hl__fail(HL_ERR_VALIDATION, "%s: texture_count is %u but textures is NULL", fn, d->texture_count);
    /* each semantic feeds one input at most, so more entries than semantics must repeat one */
    if (d->attribute_count > HL_ATTR_COUNT)
        return hl__fail(HL_ERR_VALIDATION, "%s: attribute_count %u exceeds the %d vertex semantics", fn,
                        d->attribute_count, HL_ATTR_COUNT);
    if (d->uniform_block_count > HL_MATERIAL_MAX_UNIFORM_BLOCKS)
        return hl__fail(HL_ERR_VALIDATION, "%s: uniform_block_count %u exceeds %d (HL_MATERIAL_MAX_UNIFORM_BLOCKS)", fn,
                        d->uniform_block_count, HL_MATERIAL_MAX_UNIFORM_BLOCKS);
    if (d->texture_count > HL_MATERIAL_MAX_TEXTURES)
        return hl__fail(HL_ERR_VALIDATION, "%s: texture_count %u exceeds %d (HL_MATERIAL_MAX_TEXTURES)", fn,
                        d->texture_count, HL_MATERIAL_MAX_TEXTURES);
    hl_result r;
    for (uint32_t i = 0; i < d->attribute_count; ++i) {
        const hl_material_attribute *a = &d->attributes[i];
        if ((r = hl__check_glsl_name(fn, "attributes", i, a->name, 0))) return r;
        if ((unsigned)a->semantic >= HL_ATTR_COUNT)
            return hl__fail(HL_ERR_VALIDATION, "%s: attributes[%u] (\"%s\") has invalid semantic %d", fn, i, a->name,
                            (int)a->semantic);
        for (uint32_t j = 0; j < i; ++j) {
            const hl_material_attribute *b = &d->attributes[j];
            if (strcmp(b->name, a->name) == 0)
                return hl__fail(HL_ERR_VALIDATION,
                                "%s: vertex input \"%s\" is mapped twice: attributes[%u] to %s and attributes[%u] "
                                "to %s",
                                fn, a->name, j, hl_attribute_name(b->semantic), i, hl_attribute_name(a->semantic));
            if (b->semantic == a->semantic)
                return hl__fail(HL_ERR_VALIDATION,
                                "%s: vertex inputs \"%s\" (attributes[%u]) and \"%s\" (attributes[%u]) are both "
                                "mapped to semantic %s (one input per semantic)",
                                fn, b->name, j, a->name, i, hl_attribute_name(a->semantic));
        }
    }
    for (uint32_t i = 0; i < d->uniform_block_count; ++i) {
        const hl_material_uniform_block *b = &d->uniform_blocks[i];
        if ((r = hl__check_glsl_name(fn, "uniform_blocks", i, b->name, HL__BLOCK_NAME_MAX))) return r;
        if (!b->buffer)
            return hl__fail(HL_ERR_VALIDATION, "%s: uniform_blocks[%u] (\"%s\") has no buffer", fn, i, b->name);
        for (uint32_t j = 0; j < i; ++j)
            if (strcmp(d->uniform_blocks[j].name, b->name) == 0)
                return hl__fail(HL_ERR_VALIDATION, "%s: uniform_blocks[%u].name \"%s\" repeats uniform_blocks[%u]", fn,
                                i, b->name, j);
    }
    for (uint32_t i = 0; i < d->texture_count; ++i) {
        const hl_material_texture *t = &d->textures[i];
        if ((r = hl__check_glsl_name(fn, "textures", i, t->name, 0))) return r;
        if (!t->texture) return hl__fail(HL_ERR_VALIDATION, "%s: textures[%u] (\"%s\") has no texture", fn, i, t->name);
        for (uint32_t j = 0; j < i; ++j)
            if (strcmp(d->textures[j].name, t->name) == 0)
                return hl__fail(HL_ERR_VALIDATION, "%s: textures[%u].name \"%s\" repeats textures[%u]", fn, i, t->name,
                                j);
    }
    return hl__validate_state(fn, &d->state);
}

hl_result hl_material_create_shader(const hl_shader_material_desc *desc, hl_material **out) {
    static const char fn[] = "hl_material_create_shader";
    if (!out) return hl__fail(HL_ERR_VALIDATION, "%s: out is NULL", fn);
    *out = NULL;
    if (!desc) return hl__fail(HL_ERR_VALIDATION, "%s: desc is NULL (vs and fs are required)", fn);
    hl_result r = hl__validate_shader_desc(fn, desc);
    if (r) return r;
    hl_material *m = hl__material_new(HL_MATERIAL_SHADER, &desc->state);
    if (!m) return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: out of memory", fn);
    bool ok =
        hl__set_string(&m->label, desc->label) && hl__set_string(&m->vs, desc->vs) && hl__set_string(&m->fs, desc->fs);
    if (ok && desc->attribute_count) {
        m->attributes = hl__calloc(desc->attribute_count, sizeof *m->attributes);
        ok = m->attributes != NULL;
        for (uint32_t i = 0; ok && i < desc->attribute_count; ++i) {
            m->attributes[i].semantic = desc->attributes[i].semantic;
            m->attributes[i].name = hl__strdup(desc->attributes[i].name);
            ok = m->attributes[i].name != NULL;
            m->attribute_count = i + 1;
        }
    }
    for (uint32_t i = 0; ok && i < desc->uniform_block_count; ++i)
        ok = !hl__add_block(m, desc->uniform_blocks[i].name, desc->uniform_blocks[i].buffer);
    for (uint32_t i = 0; ok && i < desc->texture_count; ++i)
        ok = !hl__add_named_texture(m, desc->textures[i].name, desc->textures[i].texture);
    if (!ok) {
        hl__material_free(m);
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: out of memory", fn);
    }
    hl__changed(m);
    *out = m;
    return HL_OK;
}

void hl_material_retain(hl_material *m) {
    if (m) m->refs++;
}

void hl_material_release(hl_material *m) {
    if (m && --m->refs == 0) hl__material_free(m);
}

/* ---- setters ------------------------------------------------------------------------------- */

static const char *const hl__kind_names[] = {"?", "basic", "PBR", "shader"};

static hl_result hl__need(const hl_material *m, const char *fn, unsigned kinds_mask) {
    if (!m) return hl__fail(HL_ERR_VALIDATION, "%s: material is NULL", fn);
    if (!(kinds_mask & (1u << m->kind)))
        return hl__fail(HL_ERR_VALIDATION, "%s: not supported by a %s material", fn, hl__kind_names[m->kind]);
    return HL_OK;
}
#define HL__K(k) (1u << (k))

hl_result hl_material_set_color(hl_material *m, hl_color c) {
    hl_result r = hl__need(m, "hl_material_set_color", HL__K(HL_MATERIAL_BASIC) | HL__K(HL_MATERIAL_PBR));
    if (r) return r;
    if (memcmp(&c, &m->factors.base_color, sizeof c) == 0) return HL_OK;
    m->factors.base_color = c;
    hl__changed(m);
    return HL_OK;
}

hl_result hl_material_set_metallic_roughness(hl_material *m, float metallic, float roughness) {
    static const char fn[] = "hl_material_set_metallic_roughness";
    hl_result r = hl__need(m, fn, HL__K(HL_MATERIAL_PBR));
    if (r) return r;
    if (!hl__unit(metallic))
        return hl__fail(HL_ERR_VALIDATION, "%s: metallic %g must be in [0, 1]", fn, (double)metallic);
    if (!hl__unit(roughness))
        return hl__fail(HL_ERR_VALIDATION, "%s: roughness %g must be in [0, 1]", fn, (double)roughness);
    if (m->factors.metallic == metallic && m->factors.roughness == roughness) return HL_OK;
    m->factors.metallic = metallic;
    m->factors.roughness = roughness;
    hl__changed(m);
    return HL_OK;
}

hl_result hl_material_set_emissive(hl_material *m, hl_vec3 e) {
    hl_result r = hl__need(m, "hl_material_set_emissive", HL__K(HL_MATERIAL_PBR));
    if (r) return r;
    if (memcmp(&e, &m->factors.emissive, sizeof e) == 0) return HL_OK;
    m->factors.emissive = e;
    hl__changed(m);
    return HL_OK;
}

hl_result hl_material_set_texture(hl_material *m, hl_texture_slot slot, hl_texture *texture, uint32_t texcoord) {
    static const char fn[] = "hl_material_set_texture";
    hl_result r = hl__need(m, fn, HL__K(HL_MATERIAL_BASIC) | HL__K(HL_MATERIAL_PBR));
    if (r) return r;
    if ((unsigned)slot >= HL_TEXTURE_SLOT_COUNT)
        return hl__fail(HL_ERR_VALIDATION, "%s: slot %d is invalid", fn, (int)slot);
    if (m->kind == HL_MATERIAL_BASIC && slot != HL_TEXTURE_BASE_COLOR)
        return hl__fail(HL_ERR_VALIDATION, "%s: a basic material has only the BASE_COLOR slot", fn);
    if (texcoord > 1) return hl__fail(HL_ERR_VALIDATION, "%s: texcoord %u must be 0 or 1", fn, texcoord);
    if (!texture) texcoord = 0;
    if (m->textures[slot].texture == texture && m->textures[slot].texcoord == texcoord) return HL_OK;
    hl__set_tex(m, slot, (hl_texture_ref){texture, texcoord});
    hl__changed(m);
    return HL_OK;
}

hl_result hl_material_set_uv_transform(hl_material *m, hl_texture_slot slot, const hl_uv_transform *t) {
    static const char fn[] = "hl_material_set_uv_transform";
    hl_result r = hl__need(m, fn, HL__K(HL_MATERIAL_BASIC) | HL__K(HL_MATERIAL_PBR));
    if (r) return r;
    if ((unsigned)slot >= HL_TEXTURE_SLOT_COUNT) return hl__fail(HL_ERR_VALIDATION, "%s: slot %d is invalid", fn, (int)slot);
    if (m->kind == HL_MATERIAL_BASIC && slot != HL_TEXTURE_BASE_COLOR)
        return hl__fail(HL_ERR_VALIDATION, "%s: a basic material has only the BASE_COLOR slot", fn);
    float rows[2][3] = {{1, 0, 0}, {0, 1, 0}};
    if (t) {
        float sx = t->scale[0], sy = t->scale[1];
        if (sx == 0 && sy == 0) sx = sy = 1;
        const float v[5] = {t->offset[0], t->offset[1], t->rotation, sx, sy};
        for (int i = 0; i < 5; i++)
            if (!isfinite(v[i]) || fabsf(v[i]) > 1e6f)
                return hl__fail(HL_ERR_VALIDATION, "%s: offset, rotation and scale must be finite (at most 1e6)", fn);
        float c = cosf(t->rotation), sn = sinf(t->rotation);
        rows[0][0] = c * sx, rows[0][1] = sn * sy, rows[0][2] = t->offset[0];
        rows[1][0] = -sn * sx, rows[1][1] = c * sy, rows[1][2] = t->offset[1];
    }
    if (!memcmp(rows, m->factors.uv_rows[slot], sizeof rows)) return HL_OK;
    memcpy(m->factors.uv_rows[slot], rows, sizeof rows);
    hl__changed(m);
    return HL_OK;
}

hl_result hl_material_set_state(hl_material *m, const hl_material_state *state) {
    static const char fn[] = "hl_material_set_state";
    if (!m) return hl__fail(HL_ERR_VALIDATION, "%s: material is NULL", fn);
    hl_material_state s = state ? *state : (hl_material_state){0};
    hl_result r = hl__validate_state(fn, &s);
    if (r) return r;
    if (memcmp(&s, &m->state, sizeof s) == 0) return HL_OK;
    m->state = s;
    hl__changed(m);
    return HL_OK;
}

hl_result hl_material_set_alpha_mode(hl_material *m, hl_alpha_mode mode, float cutoff) {
    if (!m) return hl__fail(HL_ERR_VALIDATION, "hl_material_set_alpha_mode: material is NULL");
    hl_material_state s = m->state;
    s.alpha_mode = mode;
    s.alpha_cutoff = cutoff;
    return hl_material_set_state(m, &s);
}

hl_result hl_material_set_double_sided(hl_material *m, bool double_sided) {
    if (!m) return hl__fail(HL_ERR_VALIDATION, "hl_material_set_double_sided: material is NULL");
    hl_material_state s = m->state;
    s.double_sided = double_sided;
    return hl_material_set_state(m, &s);
}

hl_result hl_material_set_uniform_block(hl_material *m, const char *name, hl_uniform_buffer *buffer) {
    static const char fn[] = "hl_material_set_uniform_block";
    hl_result r = hl__need(m, fn, HL__K(HL_MATERIAL_SHADER));
    if (!r) r = hl__check_glsl_name(fn, "name", UINT32_MAX, name, HL__BLOCK_NAME_MAX);
    if (r) return r;
    if (!buffer) return hl__fail(HL_ERR_VALIDATION, "%s(\"%s\"): buffer is NULL", fn, name);
    for (uint32_t i = 0; i < m->block_count; ++i) {
        if (strcmp(m->blocks[i].name, name) != 0) continue;
        if (m->blocks[i].buffer == buffer) return HL_OK;
        hl_uniform_buffer_retain(buffer);
        hl_uniform_buffer_release(m->blocks[i].buffer);
        m->blocks[i].buffer = buffer;
        hl__changed(m);
        return HL_OK;
    }
    if (m->block_count >= HL_MATERIAL_MAX_UNIFORM_BLOCKS)
        return hl__fail(HL_ERR_VALIDATION,
                        "%s(\"%s\"): the material already has %d blocks (HL_MATERIAL_MAX_UNIFORM_BLOCKS)", fn, name,
                        HL_MATERIAL_MAX_UNIFORM_BLOCKS);
    if ((r = hl__add_block(m, name, buffer))) return r;
    hl__changed(m);
    return HL_OK;
}

hl_result hl_material_set_named_texture(hl_material *m, const char *name, hl_texture *texture) {
    static const char fn[] = "hl_material_set_named_texture";
    hl_result r = hl__need(m, fn, HL__K(HL_MATERIAL_SHADER));
    if (!r) r = hl__check_glsl_name(fn, "name", UINT32_MAX, name, 0);
    if (r) return r;
    if (!texture) return hl__fail(HL_ERR_VALIDATION, "%s(\"%s\"): texture is NULL", fn, name);
    for (uint32_t i = 0; i < m->named_texture_count; ++i) {
        if (strcmp(m->named_textures[i].name, name) != 0) continue;
        if (m->named_textures[i].texture == texture) return HL_OK;
        hl_texture_retain(texture);
        hl_texture_release(m->named_textures[i].texture);
        m->named_textures[i].texture = texture;
        hl__changed(m);
        return HL_OK;
    }
    if (m->named_texture_count >= HL_MATERIAL_MAX_TEXTURES)
        return hl__fail(HL_ERR_VALIDATION,
                        "%s(\"%s\"): the material already has %d textures (HL_MATERIAL_MAX_TEXTURES)", fn, name,
                        HL_MATERIAL_MAX_TEXTURES);
    if ((r = hl__add_named_texture(m, name, texture))) return r;
    hl__changed(m);
    return HL_OK;
}

/* ---- getters ------------------------------------------------------------------------------- */

hl_material_kind hl_material_get_kind(const hl_material *m) { return m ? m->kind : HL_MATERIAL_BASIC; }
const hl_material_variant *hl_material_get_variant(const hl_material *m) { return m ? &m->variant : NULL; }
const hl_material_factors *hl_material_get_factors(const hl_material *m) { return m ? &m->factors : NULL; }
uint64_t hl_material_revision(const hl_material *m) { return m ? m->revision : 0; }
uint64_t hl_material_variant_revision(const hl_material *m) { return m ? m->variant_revision : 0; }
const char *hl_material_label(const hl_material *m) { return m && m->label ? m->label : ""; }
bool hl_material_is_transparent(const hl_material *m) { return m && m->state.alpha_mode == HL_ALPHA_BLEND; }

hl_texture *hl_material_get_texture(const hl_material *m, hl_texture_slot slot, uint32_t *texcoord) {
    if (texcoord) *texcoord = 0;
    if (!m || (unsigned)slot >= HL_TEXTURE_SLOT_COUNT) return NULL;
    if (texcoord) *texcoord = m->textures[slot].texcoord;
    return m->textures[slot].texture;
}

const char *hl_material_shader_vs(const hl_material *m) { return m ? m->vs : NULL; }
const char *hl_material_shader_fs(const hl_material *m) { return m ? m->fs : NULL; }

const hl_material_attribute *hl_material_shader_attributes(const hl_material *m, uint32_t *count) {
    if (count) *count = m ? m->attribute_count : 0;
    return m ? m->attributes : NULL;
}

const hl_material_uniform_block *hl_material_shader_uniform_blocks(const hl_material *m, uint32_t *count) {
    if (count) *count = m ? m->block_count : 0;
    return m ? m->blocks : NULL;
}

const hl_material_texture *hl_material_shader_textures(const hl_material *m, uint32_t *count) {
    if (count) *count = m ? m->named_texture_count : 0;
    return m ? m->named_textures : NULL;
}

uint32_t hl_material_ref_count(const hl_material *m) { return m ? m->refs : 0; }
