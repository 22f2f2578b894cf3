/* Queries on a program's reflection (type names, block lookup, bind group layout entries) and
 * what every build of the toolchain shares with them, with or without glslang and SPIRV-Cross. */
#include <stdio.h>
#include <string.h>

#include "shader_internal.h"

const char *hl__stage_name(hl_rhi_shader_stage stage) {
    switch (stage) {
    case HL_RHI_SHADER_VERTEX: return "vertex";
    case HL_RHI_SHADER_FRAGMENT: return "fragment";
    case HL_RHI_SHADER_COMPUTE: return "compute";
    }
    return "?";
}

static const char *const k_type_names[] = {
    [HL_SHADER_TYPE_UNKNOWN] = "unknown", [HL_SHADER_TYPE_FLOAT] = "float", [HL_SHADER_TYPE_VEC2] = "vec2",
    [HL_SHADER_TYPE_VEC3] = "vec3",       [HL_SHADER_TYPE_VEC4] = "vec4",   [HL_SHADER_TYPE_INT] = "int",
    [HL_SHADER_TYPE_IVEC2] = "ivec2",     [HL_SHADER_TYPE_IVEC3] = "ivec3", [HL_SHADER_TYPE_IVEC4] = "ivec4",
    [HL_SHADER_TYPE_UINT] = "uint",       [HL_SHADER_TYPE_UVEC2] = "uvec2", [HL_SHADER_TYPE_UVEC3] = "uvec3",
    [HL_SHADER_TYPE_UVEC4] = "uvec4",     [HL_SHADER_TYPE_BOOL] = "bool",   [HL_SHADER_TYPE_MAT2] = "mat2",
    [HL_SHADER_TYPE_MAT3] = "mat3",       [HL_SHADER_TYPE_MAT4] = "mat4",   [HL_SHADER_TYPE_STRUCT] = "struct",
};

const char *hl_shader_type_name(hl_shader_type t) {
    if ((unsigned)t >= sizeof k_type_names / sizeof k_type_names[0])
        return "unknown";
    return k_type_names[t];
}

void hl__reflection_free(hl_shader_reflection *r) {
    for (uint32_t i = 0; r->blocks && i < r->block_count; i++)
        hl__free(r->blocks[i].members);
    hl__free(r->blocks);
    hl__free(r->textures);
    hl__free(r->inputs);
    hl__free(r->outputs);
    memset(r, 0, sizeof *r);
}

hl_result hl__reflect_add_textures(hl_shader_reflection *r, const hl__sh_stage *st, uint32_t bit,
                                   const hl_rhi_binding_plan_entry *plan, uint32_t plan_count, uint32_t cap) {
    for (uint32_t i = 0; st && i < st->sampler_count; i++) {
        const hl__sh_item *it = &st->samplers[i];
        hl_shader_texture_binding *t = NULL;
        for (uint32_t k = 0; k < r->texture_count; k++)
            if (strcmp(r->textures[k].name, it->name) == 0)
                t = &r->textures[k];
        if (t) {
            t->stages |= bit; /* declared stages; SPIR-V use replaces them below when known */
            continue;
        }
        const hl__sampler_kind *sk = hl__sampler_kind_find(it->type);
        const hl_rhi_binding_plan_entry *e = hl__plan_find(plan, plan_count, HL_RHI_PLAN_SAMPLER, it->name);
        if (!sk || !e || r->texture_count == cap)
            return hl__fail(HL_ERR_SHADER, "reflection: sampler '%s' has no plan entry", it->name);
        t = &r->textures[r->texture_count++];
        memset(t, 0, sizeof *t);
        snprintf(t->name, sizeof t->name, "%s", it->name);
        t->group = e->group;
        t->binding = e->binding;
        t->sampler_binding = e->sampler_binding;
        t->dimension = sk->dimension;
        t->sample_type = sk->sample_type;
        t->comparison = sk->comparison;
        t->stages = bit;
    }
    return HL_OK;
}

/* ---- queries ----------------------------------------------------------------------------------- */
const hl_shader_block *hl_shader_program_find_block(const hl_shader_program *p, const char *name) {
    if (!p || !name)
        return NULL;
    for (uint32_t i = 0; i < p->reflection.block_count; i++)
        if (strcmp(p->reflection.blocks[i].name, name) == 0)
            return &p->reflection.blocks[i];
    return NULL;
}

uint32_t hl_shader_program_layout_entries(const hl_shader_program *p, uint32_t group, bool dynamic_offsets,
                                          hl_rhi_bind_group_layout_entry *out, uint32_t max) {
    if (!p || (!out && max))
        return 0;
    hl_rhi_bind_group_layout_entry all[3 * HL__SH_MAX_ITEMS * 2];
    uint32_t n = 0;
    const uint32_t cap = (uint32_t)(sizeof all / sizeof all[0]);
    const hl_shader_reflection *r = &p->reflection;
    for (uint32_t i = 0; i < r->block_count && n < cap; i++) {
        const hl_shader_block *b = &r->blocks[i];
        if (b->group != group)
            continue;
        hl_rhi_bind_group_layout_entry e;
        memset(&e, 0, sizeof e);
        e.binding = b->binding;
        e.visibility = b->stages;
        e.type = b->storage ? HL_RHI_BINDING_READ_ONLY_STORAGE_BUFFER : HL_RHI_BINDING_UNIFORM_BUFFER;
        e.has_dynamic_offset = dynamic_offsets && !b->storage;
        e.min_binding_size = b->size;
        all[n++] = e;
    }
    for (uint32_t i = 0; i < r->texture_count && n + 1 < cap; i++) {
        const hl_shader_texture_binding *t = &r->textures[i];
        if (t->group != group)
            continue;
        hl_rhi_bind_group_layout_entry e;
        memset(&e, 0, sizeof e);
        e.binding = t->binding;
        e.visibility = t->stages;
        e.type = HL_RHI_BINDING_SAMPLED_TEXTURE;
        e.sample_type = t->sample_type;
        e.view_dimension = t->dimension;
        all[n++] = e;
        memset(&e, 0, sizeof e);
        e.binding = t->sampler_binding;
        e.visibility = t->stages;
        e.type = t->comparison ? HL_RHI_BINDING_COMPARISON_SAMPLER : HL_RHI_BINDING_SAMPLER;
        all[n++] = e;
    }
    for (uint32_t i = 1; i < n; i++)
        for (uint32_t j = i; j > 0 && all[j - 1].binding > all[j].binding; j--) {
            hl_rhi_bind_group_layout_entry t = all[j];
            all[j] = all[j - 1];
            all[j - 1] = t;
        }
    uint32_t count = n < max ? n : max;
    if (count)
        memcpy(out, all, count * sizeof *out);
    return count;
}
