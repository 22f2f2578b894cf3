/* Shader variants and pipelines.
 *
 * A variant is a 64-bit key: the #define bitmask of render_internal.h plus the pass in the
 * top byte. The key is its own exact-field check (it is the fields, not a digest of them), so
 * two different variants can never share a program. Pipelines are keyed by a struct of every
 * field that shapes them, found through a 64-bit hash and confirmed by comparing the struct.
 * Both caches are bounded by the number of distinct variants a scene uses; the RHI's device
 * cache shares equal native pipelines underneath. */
#include <stdio.h>
#include <string.h>

#include "render_internal.h"

static const char *const k_map_defines[HL_TEXTURE_SLOT_COUNT] = {"BASE_COLOR_MAP", "MR_MAP", "NORMAL_MAP",
                                                                 "OCCLUSION_MAP", "EMISSIVE_MAP"};
static const char *const k_map_samplers[HL_TEXTURE_SLOT_COUNT] = {
    "u_baseColorMap", "u_metallicRoughnessMap", "u_normalMap", "u_occlusionMap", "u_emissiveMap"};

uint64_t hl__program_key_for(const hl_geometry_layout *layout, const hl_material_variant *v, bool instanced,
                             bool receive_shadows, bool fog, uint32_t mrt_count) {
    uint64_t k = 0;
    uint32_t a = layout->attribute_mask;
    bool unlit = v->kind == HL_MATERIAL_BASIC;
    if ((a & (1u << HL_ATTR_NORMAL)) && !unlit) k |= HL__DEF_HAS_NORMAL;
    if ((a & (1u << HL_ATTR_TANGENT)) && !unlit && (v->texture_mask & (1u << HL_TEXTURE_NORMAL))) k |= HL__DEF_HAS_TANGENT;
    if (a & (1u << HL_ATTR_TEXCOORD_0)) k |= HL__DEF_HAS_UV0;
    if ((a & (1u << HL_ATTR_TEXCOORD_1)) && v->texcoord1_mask) k |= HL__DEF_HAS_UV1;
    if (a & (1u << HL_ATTR_COLOR_0)) k |= HL__DEF_HAS_COLOR;
    if (instanced) k |= HL__DEF_INSTANCED;
    if (unlit) k |= HL__DEF_UNLIT;
    if (v->alpha_mode == HL_ALPHA_MASK) k |= HL__DEF_ALPHA_MASK;
    if (receive_shadows && !unlit && (k & HL__DEF_HAS_NORMAL)) k |= HL__DEF_RECEIVE_SHADOWS;
    if (fog) k |= HL__DEF_FOG;
    for (uint32_t s = 0; s < HL_TEXTURE_SLOT_COUNT; s++) {
        if (!(v->texture_mask & (1u << s))) continue;
        if (unlit && s != HL_TEXTURE_BASE_COLOR) continue;
        k |= (uint64_t)HL__DEF_MAP0 << s;
        if (v->texcoord1_mask & (1u << s)) k |= (uint64_t)HL__DEF_MAP0_UV1 << s;
    }
    k |= (uint64_t)((mrt_count ? mrt_count : 1) - 1) << HL__DEF_MRT_SHIFT;
    return k;
}

/* Builds the defines and the explicit binding plan of a forward variant. */
static uint32_t program_defines(uint64_t key, hl_shader_define *d, char mrt[8]) {
    static const struct {
        uint32_t bit;
        const char *name;
    } flags[] = {
        {HL__DEF_HAS_NORMAL, "HAS_NORMAL"}, {HL__DEF_HAS_TANGENT, "HAS_TANGENT"}, {HL__DEF_HAS_UV0, "HAS_UV0"},
        {HL__DEF_HAS_UV1, "HAS_UV1"},       {HL__DEF_HAS_COLOR, "HAS_COLOR"},     {HL__DEF_INSTANCED, "INSTANCED"},
        {HL__DEF_UNLIT, "UNLIT"},           {HL__DEF_ALPHA_MASK, "ALPHA_MASK"},   {HL__DEF_RECEIVE_SHADOWS, "RECEIVE_SHADOWS"},
        {HL__DEF_FOG, "FOG"},
    };
    static const char *const uv1_names[HL_TEXTURE_SLOT_COUNT] = {"BASE_COLOR_MAP_UV1", "MR_MAP_UV1", "NORMAL_MAP_UV1",
                                                                 "OCCLUSION_MAP_UV1", "EMISSIVE_MAP_UV1"};
    uint32_t n = 0;
    for (uint32_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
        if (key & flags[i].bit) d[n++] = (hl_shader_define){flags[i].name, NULL};
    for (uint32_t s = 0; s < HL_TEXTURE_SLOT_COUNT; s++) {
        if (key & ((uint64_t)HL__DEF_MAP0 << s)) d[n++] = (hl_shader_define){k_map_defines[s], NULL};
        if (key & ((uint64_t)HL__DEF_MAP0_UV1 << s)) d[n++] = (hl_shader_define){uv1_names[s], NULL};
    }
    snprintf(mrt, 8, "%u", (unsigned)(((key >> HL__DEF_MRT_SHIFT) & 3u) + 1u));
    d[n++] = (hl_shader_define){"MRT_COUNT", mrt};
    return n;
}

static hl_result program_create(hl_renderer *r, uint64_t key, hl__program *p) {
    memset(p, 0, sizeof *p);
    p->key = key;
    bool shadow = (key & HL__PROGRAM_SHADOW) != 0;
    hl_shader_define defs[32];
    char mrt[8];
    hl_rhi_binding_plan_entry plan[16];
    uint32_t n = 0, pn = 0;
    if (shadow) {
        if (key & HL__DEF_INSTANCED) defs[n++] = (hl_shader_define){"INSTANCED", NULL};
        plan[pn++] = (hl_rhi_binding_plan_entry){HL_RHI_PLAN_UNIFORM_BLOCK, "Shadow", 0, 0, 0};
        plan[pn++] = (hl_rhi_binding_plan_entry){HL_RHI_PLAN_UNIFORM_BLOCK, "Object", 1, 0, 0};
    } else {
        n = program_defines(key, defs, mrt);
        plan[pn++] = (hl_rhi_binding_plan_entry){HL_RHI_PLAN_UNIFORM_BLOCK, "Frame", 0, 0, 0};
        plan[pn++] = (hl_rhi_binding_plan_entry){HL_RHI_PLAN_UNIFORM_BLOCK, "Object", 1, 0, 0};
        plan[pn++] = (hl_rhi_binding_plan_entry){HL_RHI_PLAN_UNIFORM_BLOCK, "Material", 2, 0, 0};
        for (uint32_t s = 0; s < HL_TEXTURE_SLOT_COUNT; s++)
            if (key & ((uint64_t)HL__DEF_MAP0 << s))
                plan[pn++] = (hl_rhi_binding_plan_entry){HL_RHI_PLAN_SAMPLER, k_map_samplers[s], 2, 1 + 2 * s, 2 + 2 * s};
        if (key & HL__DEF_RECEIVE_SHADOWS)
            plan[pn++] = (hl_rhi_binding_plan_entry){HL_RHI_PLAN_SAMPLER, "u_shadowAtlas", 3, 0, 1};
    }
    hl_shader_program_desc pd = {0};
    pd.vertex_source = shadow ? hl__render_shadow_vs : hl__render_forward_vs;
    pd.fragment_source = shadow ? NULL : hl__render_forward_fs;
    pd.defines = defs;
    pd.define_count = n;
    pd.bindings = plan;
    pd.binding_count = pn;
    pd.label = shadow ? "shadow" : "forward";
    hl_result res = hl_shader_program_compile(&pd, r->backend, &p->prog);
    if (res) return res;
    hl_rhi_shader_desc sd;
    hl_shader_program_vertex_desc(&p->prog, &sd);
    res = hl_rhi_shader_create(r->dev, &sd, &p->vs);
    if (!res && !shadow) {
        hl_shader_program_fragment_desc(&p->prog, &sd);
        res = hl_rhi_shader_create(r->dev, &sd, &p->fs);
    }
    /* Layouts from the reflection: uniform blocks take dynamic offsets in groups 0 and 1. */
    uint32_t groups = shadow ? 2 : (key & HL__DEF_RECEIVE_SHADOWS) ? 4 : 3;
    for (uint32_t g = 0; !res && g < groups; g++) {
        hl_rhi_bind_group_layout_entry e[HL_RHI_MAX_BINDINGS];
        uint32_t c = hl_shader_program_layout_entries(&p->prog, g, g < 2, e, HL_RHI_MAX_BINDINGS);
        for (uint32_t i = 0; i < c; i++)
            if (e[i].type == HL_RHI_BINDING_UNIFORM_BUFFER) e[i].visibility = HL_RHI_STAGE_VERTEX | HL_RHI_STAGE_FRAGMENT;
        hl_rhi_bind_group_layout_desc bd = {e, c, "forward"};
        res = hl_rhi_bind_group_layout_create(r->dev, &bd, &p->bgl[g]);
    }
    p->group_count = groups;
    if (!res) {
        hl_rhi_pipeline_layout_desc pld = {p->bgl, groups, "forward"};
        res = hl_rhi_pipeline_layout_create(r->dev, &pld, &p->layout);
    }
    static const char *const inputs[HL_ATTR_COUNT + 4] = {"a_position", "a_normal", "a_tangent", "a_uv0", "a_uv1",
                                                          "a_color", NULL, NULL, "a_instance0", "a_instance1",
                                                          "a_instance2", "a_instance3"};
    for (uint32_t i = 0; i < HL_ATTR_COUNT + 4; i++) {
        p->location[i] = -1;
        if (!inputs[i]) continue;
        for (uint32_t k = 0; k < p->prog.reflection.input_count; k++)
            if (strcmp(p->prog.reflection.inputs[k].name, inputs[i]) == 0)
                p->location[i] = (int32_t)p->prog.reflection.inputs[k].location;
    }
    return res;
}

void hl__program_release(hl_renderer *r, hl__program *p) {
    hl_rhi_pipeline_layout_destroy(r->dev, p->layout);
    for (uint32_t g = 0; g < 4; g++) hl_rhi_bind_group_layout_destroy(r->dev, p->bgl[g]);
    hl_rhi_shader_destroy(r->dev, p->vs);
    hl_rhi_shader_destroy(r->dev, p->fs);
    hl_shader_program_free(&p->prog);
}

hl_result hl__program_get(hl_renderer *r, uint64_t key, uint32_t *index) {
    for (uint32_t i = 0; i < r->program_count; i++)
        if (r->programs[i].key == key) {
            r->stats.cache_hits++;
            *index = i;
            return HL_OK;
        }
    r->stats.cache_misses++;
    if (!hl__reserve((void **)&r->programs, &r->program_capacity, r->program_count + 1, sizeof(hl__program)))
        return HL_ERR_OUT_OF_MEMORY;
    hl__program *p = &r->programs[r->program_count];
    hl_result res = program_create(r, key, p);
    if (res) {
        hl__program_release(r, p);
        return res;
    }
    *index = r->program_count++;
    return HL_OK;
}

static hl_rhi_vertex_format vertex_format(const hl_vertex_attribute_info *a) {
    switch (a->type) {
    case HL_COMPONENT_FLOAT32:
        return (hl_rhi_vertex_format)(HL_RHI_VERTEX_FLOAT32 + (a->components - 1));
    case HL_COMPONENT_UNORM8: return HL_RHI_VERTEX_UNORM8X4;
    case HL_COMPONENT_SNORM8: return HL_RHI_VERTEX_SNORM8X4;
    case HL_COMPONENT_UINT8: return HL_RHI_VERTEX_UINT8X4;
    case HL_COMPONENT_UNORM16: return a->components <= 2 ? HL_RHI_VERTEX_UNORM16X2 : HL_RHI_VERTEX_UNORM16X4;
    case HL_COMPONENT_SNORM16: return a->components <= 2 ? HL_RHI_VERTEX_SNORM16X2 : HL_RHI_VERTEX_SNORM16X4;
    case HL_COMPONENT_UINT16: return HL_RHI_VERTEX_UINT16X4;
    default: return HL_RHI_VERTEX_FORMAT_INVALID;
    }
}

/* Vertex state: one buffer slot per attribute the program reads (the geometry's one vertex
 * block bound at each attribute's offset), plus the instance matrices in the last slot. */
static hl_result pipeline_create(hl_renderer *r, const hl__pipeline_key *k, const hl_geometry_layout *layout,
                                 hl_rhi_render_pipeline *out) {
    uint32_t pi;
    hl_result res = hl__program_get(r, k->program_key, &pi);
    if (res) return res;
    const hl__program *p = &r->programs[pi];
    hl_rhi_vertex_buffer_layout vbl[HL_RHI_MAX_VERTEX_BUFFERS];
    hl_rhi_vertex_attribute attrs[HL_RHI_MAX_VERTEX_ATTRIBUTES];
    uint32_t nb = 0, na = 0;
    for (uint32_t a = 0; a < HL_ATTR_COUNT; a++) {
        if (p->location[a] < 0) continue;
        const hl_vertex_attribute_info *ai = &layout->attributes[a];
        if (!ai->present)
            return hl__fail(HL_ERR_VALIDATION, "renderer: the shader reads %s but the geometry lacks it", hl_attribute_name(a));
        attrs[na] = (hl_rhi_vertex_attribute){vertex_format(ai), 0, (uint32_t)p->location[a]};
        vbl[nb++] = (hl_rhi_vertex_buffer_layout){ai->stride, false, &attrs[na], 1};
        na++;
    }
    if (k->instanced) {
        for (uint32_t c = 0; c < 4; c++)
            attrs[na + c] = (hl_rhi_vertex_attribute){HL_RHI_VERTEX_FLOAT32X4, c * 16u,
                                                      (uint32_t)p->location[HL_ATTR_COUNT + c]};
        vbl[nb++] = (hl_rhi_vertex_buffer_layout){64, true, &attrs[na], 4};
        na += 4;
    }
    hl_rhi_color_target_state ct[4];
    memset(ct, 0, sizeof ct);
    for (uint32_t i = 0; i < k->color_count; i++) {
        ct[i].format = (hl_rhi_format)k->color_formats[i];
        if (k->blend && i == 0) {
            ct[i].blend_enabled = true;
            ct[i].color = (hl_rhi_blend_component){HL_RHI_BLEND_SRC_ALPHA, HL_RHI_BLEND_ONE_MINUS_SRC_ALPHA, 0};
            ct[i].alpha = (hl_rhi_blend_component){HL_RHI_BLEND_ONE, HL_RHI_BLEND_ONE_MINUS_SRC_ALPHA, 0};
        }
    }
    hl_rhi_render_pipeline_desc d = {0};
    d.layout = p->layout;
    d.vertex = p->vs;
    d.fragment = p->fs;
    d.vertex_buffers = vbl;
    d.vertex_buffer_count = nb;
    d.topology = layout->topology == HL_TOPOLOGY_LINES    ? HL_RHI_TOPOLOGY_LINE_LIST
                 : layout->topology == HL_TOPOLOGY_POINTS ? HL_RHI_TOPOLOGY_POINT_LIST
                                                          : HL_RHI_TOPOLOGY_TRIANGLE_LIST;
    d.cull_mode = k->cull ? HL_RHI_CULL_BACK : HL_RHI_CULL_NONE;
    d.depth_stencil.format = (hl_rhi_format)k->depth_format;
    d.depth_stencil.depth_write = k->depth_write;
    d.depth_stencil.depth_compare = k->depth_test ? HL_RHI_COMPARE_LESS_EQUAL : HL_RHI_COMPARE_ALWAYS;
    if (k->shadow) {
        d.depth_stencil.depth_bias = 2;
        d.depth_stencil.depth_bias_slope_scale = 2.0f;
    }
    d.color_targets = ct;
    d.color_target_count = k->shadow ? 0 : k->color_count;
    d.sample_count = k->sample_count;
    d.label = k->shadow ? "shadow" : "forward";
    return hl_rhi_render_pipeline_create(r->dev, &d, out);
}

/* key->layout_key identifies the geometry layout; `layout` is that layout (used on a miss). */
hl_result hl__pipeline_get(hl_renderer *r, const hl__pipeline_key *key, const hl_geometry_layout *layout,
                           hl_rhi_render_pipeline *out) {
    uint64_t h = hl__hash_bytes(HL__HASH_SEED, key, sizeof *key); /* the key struct is zeroed first */
    for (uint32_t i = 0; i < r->pipeline_count; i++) {
        const hl__pipeline_entry *e = &r->pipelines[i];
        if (e->hash == h && memcmp(&e->key, key, sizeof *key) == 0) {
            r->stats.cache_hits++;
            *out = e->pipeline;
            return HL_OK;
        }
    }
    r->stats.cache_misses++;
    if (!hl__reserve((void **)&r->pipelines, &r->pipeline_capacity, r->pipeline_count + 1, sizeof(hl__pipeline_entry)))
        return HL_ERR_OUT_OF_MEMORY;
    hl__pipeline_entry *e = &r->pipelines[r->pipeline_count];
    memset(e, 0, sizeof *e);
    hl_result res = pipeline_create(r, key, layout, &e->pipeline);
    if (res) return res;
    e->key = *key;
    e->hash = h;
    r->pipeline_count++;
    *out = e->pipeline;
    return HL_OK;
}

void hl__render_programs_free(hl_renderer *r) {
    for (uint32_t i = 0; i < r->pipeline_count; i++) hl_rhi_render_pipeline_destroy(r->dev, r->pipelines[i].pipeline);
    for (uint32_t i = 0; i < r->program_count; i++) hl__program_release(r, &r->programs[i]);
    hl__free(r->pipelines);
    hl__free(r->programs);
    r->pipelines = NULL;
    r->programs = NULL;
    r->pipeline_count = r->program_count = 0;
    r->pipeline_capacity = r->program_capacity = 0;
}
