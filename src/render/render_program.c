/* Programs and pipelines: the renderer's shader variants and their render pipelines.
 *
 * Keys are exact. An engine program is its kind (forward or shadow) and its define bits (the
 * fields themselves, not a digest); a shader material's program is its whole description
 * (render_shader_material.c). Pipelines are keyed by a struct of every field that shapes them
 * (the program's id, each vertex attribute's format and stride, targets, states): a 64-bit hash
 * finds candidates, memcmp of the key confirms. Ids are never reused, so a key naming a released
 * program can never match a new one.
 *
 * Lifetime: every use stamps the frame (prepared draws stamp what they name when reused). A
 * pipeline unused for HL__PROGRAM_KEEP_FRAMES frames is released when a frame ends; a program
 * when, besides, no pipeline and no shader-material mirror holds it (hl__render_programs_evict).
 * A release bumps r->evict_epoch, which every prepared draw's signature includes, so no prepared
 * draw outlives what it names. The RHI defers the native objects past the submissions that may
 * still use them. So the caches hold what the last HL__PROGRAM_KEEP_FRAMES frames used (plus the
 * programs of live shader-material mirrors), and the RHI's device cache bounds the native
 * pipelines underneath. */
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
    if (v->uv_transform_mask & v->texture_mask & (unlit ? 1u << HL_TEXTURE_BASE_COLOR : ~0u)) k |= HL__DEF_UV_TRANSFORM;
    k |= (uint64_t)((mrt_count ? mrt_count : 1) - 1) << HL__DEF_MRT_SHIFT;
    return k;
}

uint64_t hl__program_key_fit(uint64_t key) {
    static const uint64_t droppable[] = {HL__DEF_HAS_TANGENT, HL__DEF_HAS_UV1, HL__DEF_HAS_COLOR};
    static const uint64_t inputs[] = {HL__DEF_HAS_NORMAL, HL__DEF_HAS_TANGENT, HL__DEF_HAS_UV0,
                                      HL__DEF_HAS_UV1,    HL__DEF_HAS_COLOR,   HL__DEF_INSTANCED};
    uint32_t n = 1; /* a_position */
    for (uint32_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) n += (key & inputs[i]) != 0;
    n += (key & HL__DEF_SKINNED) ? 2u : 0u;  /* a_joints, a_weights */
    n += (key & HL__DEF_SKINNED8) ? 2u : 0u; /* a_joints1, a_weights1 */
    for (uint32_t i = 0; n > HL_RHI_MAX_VERTEX_BUFFERS && i < sizeof droppable / sizeof droppable[0]; i++)
        if (key & droppable[i]) key &= ~droppable[i], n--;
    return key;
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
        {HL__DEF_FOG, "FOG"},               {HL__DEF_GBUFFER, "GBUFFER"},         {HL__DEF_UV_TRANSFORM, "UV_TRANSFORM"},
        {HL__DEF_SKINNED, "SKINNED"},       {HL__DEF_SKINNED8, "SKINNED8"},       {HL__DEF_IBL, "IBL"},
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

/* Compiles an engine program (forward or shadow variant). */
static hl_result engine_program_create(hl_renderer *r, hl__program *p) {
    bool shadow = p->kind == HL__PROGRAM_SHADOW;
    uint64_t key = p->defines;
    hl_shader_define defs[32];
    char mrt[8];
    hl_rhi_binding_plan_entry plan[16];
    uint32_t n = 0, pn = 0;
    if (shadow) {
        if (key & HL__DEF_INSTANCED) defs[n++] = (hl_shader_define){"INSTANCED", NULL};
        if (key & HL__DEF_SKINNED) defs[n++] = (hl_shader_define){"SKINNED", NULL};
        if (key & HL__DEF_SKINNED8) defs[n++] = (hl_shader_define){"SKINNED8", NULL};
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
        if ((key & HL__DEF_RECEIVE_SHADOWS) && !(key & HL__DEF_GBUFFER))
            plan[pn++] = (hl_rhi_binding_plan_entry){HL_RHI_PLAN_SAMPLER, "u_shadowAtlas", 3, 0, 1};
        if (key & HL__DEF_IBL) { /* render_env.c; never with GBUFFER */
            plan[pn++] = (hl_rhi_binding_plan_entry){HL_RHI_PLAN_SAMPLER, "u_envSpecular", 3, 2, 3};
            plan[pn++] = (hl_rhi_binding_plan_entry){HL_RHI_PLAN_SAMPLER, "u_brdfLut", 3, 4, 5};
        }
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
    res = hl_shader_program_create_shaders(r->dev, &p->prog, &p->vs, &p->fs);
    if (res) return res;
    bool group3 = ((key & HL__DEF_RECEIVE_SHADOWS) && !(key & HL__DEF_GBUFFER)) || (key & HL__DEF_IBL);
    res = hl__program_layouts(r, p, shadow ? 2 : group3 ? 4 : 3, pd.label);
    static const char *const inputs[HL_ATTR_COUNT + 4] = {
        "a_position", "a_normal",   "a_tangent",   "a_uv0",       "a_uv1",       "a_color",     "a_joints",
        "a_weights",  "a_joints1",  "a_weights1",  "a_instance0", "a_instance1", "a_instance2", "a_instance3"};
    for (uint32_t i = 0; i < HL_ATTR_COUNT + 4; i++) {
        p->location[i] = -1;
        if (!inputs[i]) continue;
        for (uint32_t k = 0; k < p->prog.reflection.input_count; k++)
            if (strcmp(p->prog.reflection.inputs[k].name, inputs[i]) == 0)
                p->location[i] = (int32_t)p->prog.reflection.inputs[k].location;
    }
    return res;
}

hl_result hl__program_layouts(hl_renderer *r, hl__program *p, uint32_t group_count, const char *label) {
    hl_result res = HL_OK;
    for (uint32_t i = 0; i < p->prog.reflection.output_count; i++)
        if (p->prog.reflection.outputs[i].location < 32) p->output_mask |= 1u << p->prog.reflection.outputs[i].location;
    memset(p->entries, 0, sizeof p->entries); /* padding too: entries are compared with memcmp */
    for (uint32_t g = 0; !res && g < group_count; g++) {
        hl_rhi_bind_group_layout_entry *e = p->entries[g];
        /* the Frame and Object blocks (groups 0 and 1) take dynamic offsets; a fullscreen
           pass's Params block does not */
        bool dynamic = p->kind == HL__PROGRAM_FULLSCREEN ? p->defines && g == 1
                       : p->kind == HL__PROGRAM_STORAGE  ? false
                                                          : g < 2; /* lit: Frame in group 1 */
        uint32_t c = hl_shader_program_layout_entries(&p->prog, g, dynamic, e, HL_RHI_MAX_BINDINGS);
        for (uint32_t i = 0; i < c; i++)
            if (e[i].type == HL_RHI_BINDING_UNIFORM_BUFFER) e[i].visibility = HL_RHI_STAGE_VERTEX | HL_RHI_STAGE_FRAGMENT;
        /* The Frame (0) and Object (1) blocks are bound whole (render_frame.c, color_groups), so
           their entries ask for the bound size: a shader material declaring a shorter Frame
           block then has the forward programs' group layout and shares their groups (else the
           renderer's one frame group was made again at every switch between the two). */
        uint64_t whole = g == 0   ? sizeof(hl__frame_block)
                         : g == 1 ? ((p->defines & HL__DEF_SKINNED) && p->kind == HL__PROGRAM_FORWARD ? HL__SKIN_STRIDE
                                                                                                   : sizeof(hl__object_block))
                                  : 0;
        if ((p->kind == HL__PROGRAM_FORWARD || p->kind == HL__PROGRAM_SHADER) && whole)
            for (uint32_t i = 0; i < c; i++)
                if (e[i].type == HL_RHI_BINDING_UNIFORM_BUFFER && e[i].binding == 0 && e[i].has_dynamic_offset &&
                    e[i].min_binding_size && e[i].min_binding_size < whole)
                    e[i].min_binding_size = whole;
        p->entry_count[g] = c;
        hl_rhi_bind_group_layout_desc bd = {e, c, label};
        res = hl_rhi_bind_group_layout_create(r->dev, &bd, &p->bgl[g]);
        if (!res && c == 0) p->empty_groups |= 1u << g;
    }
    p->group_count = group_count;
    if (!res) {
        hl_rhi_pipeline_layout_desc pld = {p->bgl, group_count, label};
        res = hl_rhi_pipeline_layout_create(r->dev, &pld, &p->layout);
    }
    return res;
}

void hl__program_release(hl_renderer *r, hl__program *p) {
    if (!p) return;
    hl_rhi_pipeline_layout_destroy(r->dev, p->layout);
    for (uint32_t g = 0; g < 4; g++) hl_rhi_bind_group_layout_destroy(r->dev, p->bgl[g]);
    hl_rhi_shader_destroy(r->dev, p->vs);
    hl_rhi_shader_destroy(r->dev, p->fs);
    hl_shader_program_free(&p->prog);
    hl__free(p->desc);
    hl__free(p);
}

uint64_t hl__program_hash(hl__program_kind kind, uint64_t defines, const void *desc, uint32_t desc_size) {
    uint64_t h = hl__hash_bytes(HL__HASH_SEED, &kind, sizeof kind);
    h = hl__hash_bytes(h, &defines, sizeof defines);
    return desc ? hl__hash_bytes(h, desc, desc_size) : h;
}

hl__program *hl__program_find(hl_renderer *r, hl__program_kind kind, uint64_t defines, const void *desc,
                              uint32_t desc_size, uint64_t hash) {
    for (uint32_t i = 0; i < r->program_count; i++) {
        hl__program *p = r->programs[i];
        if (!p || p->hash != hash || p->kind != kind || p->defines != defines || p->desc_size != desc_size) continue;
        if (desc_size && memcmp(p->desc, desc, desc_size) != 0) continue;
        r->stats.cache_hits++;
        p->last_frame = r->frame_serial;
        return p;
    }
    return NULL;
}

hl_result hl__program_add(hl_renderer *r, hl__program *p) {
    uint32_t i;
    for (i = r->program_hint; i < r->program_count && r->programs[i]; i++) {
    }
    if (i == r->program_count) {
        if (!hl__reserve((void **)&r->programs, &r->program_capacity, r->program_count + 1, sizeof *r->programs)) {
            hl__program_release(r, p);
            return HL_ERR_OUT_OF_MEMORY;
        }
        r->program_count++;
    }
    r->programs[i] = p;
    r->program_hint = i + 1;
    p->id = ++r->next_object_id;
    p->hash = hl__program_hash(p->kind, p->defines, p->desc, p->desc_size);
    p->last_frame = r->frame_serial;
    return HL_OK;
}

hl_result hl__program_get(hl_renderer *r, hl__program_kind kind, uint64_t defines, hl__program **out) {
    uint32_t mi = (uint32_t)hl__hash_mix(defines ^ ((uint64_t)kind << 56)) & 15u;
    if (r->program_memo[mi].p && r->program_memo[mi].epoch == r->evict_epoch && r->program_memo[mi].defines == defines &&
        r->program_memo[mi].kind == (uint32_t)kind) {
        hl__program *p = r->program_memo[mi].p;
        r->stats.cache_hits++;
        p->last_frame = r->frame_serial;
        *out = p;
        return HL_OK;
    }
    uint64_t h = hl__program_hash(kind, defines, NULL, 0);
    if ((*out = hl__program_find(r, kind, defines, NULL, 0, h))) {
        r->program_memo[mi].p = *out;
        r->program_memo[mi].defines = defines;
        r->program_memo[mi].kind = (uint32_t)kind;
        r->program_memo[mi].epoch = r->evict_epoch;
        return HL_OK;
    }
    r->stats.cache_misses++;
    hl__program *p = hl__calloc(1, sizeof *p);
    if (!p) return hl__fail(HL_ERR_OUT_OF_MEMORY, "renderer: out of memory for a program");
    p->kind = kind;
    p->defines = defines;
    hl_result res = engine_program_create(r, p);
    if (res) {
        hl__program_release(r, p);
        return res;
    }
    if ((res = hl__program_add(r, p))) return res;
    *out = p;
    return HL_OK;
}

hl_result hl__pipeline_key_vertex(const hl__program *p, const hl_geometry_layout *layout, hl__pipeline_key *k) {
    for (uint32_t a = 0; a < HL_ATTR_COUNT; a++) {
        if (p->location[a] < 0) continue;
        const hl_vertex_attribute_info *ai = &layout->attributes[a];
        if (!ai->present)
            return hl__fail(HL_ERR_VALIDATION, "renderer: the shader reads %s but the geometry lacks it", hl_attribute_name(a));
        k->attr_format[a] = (uint32_t)vertex_format(ai);
        k->attr_stride[a] = ai->stride;
    }
    k->topology = layout->topology == HL_TOPOLOGY_LINES    ? HL_RHI_TOPOLOGY_LINE_LIST
                  : layout->topology == HL_TOPOLOGY_POINTS ? HL_RHI_TOPOLOGY_POINT_LIST
                                                           : HL_RHI_TOPOLOGY_TRIANGLE_LIST;
    return HL_OK;
}

/* Vertex state: one buffer slot per attribute the program reads (the geometry's one vertex
 * block bound at each attribute's offset), plus the instance matrices in the last slot. */
static hl_result pipeline_create(hl_renderer *r, const hl__program *p, const hl__pipeline_key *k,
                                 hl_rhi_render_pipeline *out) {
    hl_rhi_vertex_buffer_layout vbl[HL_RHI_MAX_VERTEX_BUFFERS];
    hl_rhi_vertex_attribute attrs[HL_RHI_MAX_VERTEX_ATTRIBUTES];
    uint32_t nb = 0, na = 0;
    for (uint32_t a = 0; a < HL_ATTR_COUNT; a++) {
        if (p->location[a] < 0) continue;
        attrs[na] = (hl_rhi_vertex_attribute){(hl_rhi_vertex_format)k->attr_format[a], 0, (uint32_t)p->location[a]};
        vbl[nb++] = (hl_rhi_vertex_buffer_layout){k->attr_stride[a], (k->attr_instance >> a) & 1u, &attrs[na], 1};
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
        /* an attachment the fragment shader writes nothing to keeps its contents (same on both
           backends; WebGPU requires it) */
        ct[i].write_none = !(p->output_mask & (1u << i));
        if (k->blend == HL__BLEND_ADDITIVE) { /* GPU-driven passes */
            ct[i].blend_enabled = true;
            ct[i].color = (hl_rhi_blend_component){HL_RHI_BLEND_ONE, HL_RHI_BLEND_ONE, 0};
            ct[i].alpha = (hl_rhi_blend_component){HL_RHI_BLEND_ONE, HL_RHI_BLEND_ONE, 0};
        } else if (k->blend) { /* every attachment alike: one blend state on OpenGL ES 3.0 (independent_blend) */
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
    d.topology = (hl_rhi_topology)k->topology;
    d.cull_mode = k->cull ? HL_RHI_CULL_BACK : HL_RHI_CULL_NONE;
    d.depth_stencil.format = (hl_rhi_format)k->depth_format;
    d.depth_stencil.depth_write = k->depth_write;
    d.depth_stencil.depth_compare = k->depth_test ? HL_RHI_COMPARE_LESS_EQUAL : HL_RHI_COMPARE_ALWAYS;
    if (k->shadow && d.topology == HL_RHI_TOPOLOGY_TRIANGLE_LIST) { /* WebGPU: no bias for points and lines */
        d.depth_stencil.depth_bias = 2;
        d.depth_stencil.depth_bias_slope_scale = 2.0f;
    }
    d.color_targets = ct;
    d.color_target_count = k->shadow ? 0 : k->color_count;
    d.sample_count = k->sample_count;
    d.label = k->shadow ? "shadow" : p->kind == HL__PROGRAM_STORAGE ? "gpu draw" : "forward";
    return hl_rhi_render_pipeline_create(r->dev, &d, out);
}

hl_result hl__pipeline_get(hl_renderer *r, hl__program *p, const hl__pipeline_key *key, hl__pipeline_entry **out) {
    uint64_t h = hl__hash_bytes(HL__HASH_SEED, key, sizeof *key); /* the key struct is zeroed first */
    for (uint32_t i = 0; i < r->pipeline_count; i++) {
        hl__pipeline_entry *e = r->pipelines[i];
        if (e && e->hash == h && memcmp(&e->key, key, sizeof *key) == 0) {
            r->stats.cache_hits++;
            e->last_frame = r->frame_serial;
            e->program->last_frame = r->frame_serial;
            *out = e;
            return HL_OK;
        }
    }
    r->stats.cache_misses++;
    uint32_t i;
    hl__pipeline_entry *e = hl__record_alloc((void ***)&r->pipelines, &r->pipeline_count, &r->pipeline_capacity,
                                             &r->pipeline_hint, sizeof *e, &i);
    if (!e) return HL_ERR_OUT_OF_MEMORY;
    hl_result res = pipeline_create(r, p, key, &e->pipeline);
    if (res) {
        hl__record_clear((void **)r->pipelines, i, &r->pipeline_hint);
        return res;
    }
    e->key = *key;
    e->hash = h;
    e->id = ++r->next_object_id;
    hl__pipeline_key content = *key;
    content.program_id = p->hash; /* what the program is, not when it was made */
    e->content_hash = hl__hash_bytes(HL__HASH_SEED, &content, sizeof content);
    e->program = p;
    p->users++;
    e->last_frame = p->last_frame = r->frame_serial;
    *out = e;
    return HL_OK;
}

void hl__render_programs_evict(hl_renderer *r) {
    if (r->frame_serial <= HL__PROGRAM_KEEP_FRAMES) return;
    uint64_t old = hl__evict_horizon(r, r->frame_serial - HL__PROGRAM_KEEP_FRAMES);
    bool evicted = false;
    for (uint32_t i = 0; i < r->pipeline_count; i++) {
        hl__pipeline_entry *e = r->pipelines[i];
        if (!e || e->last_frame >= old) continue;
        hl_rhi_render_pipeline_destroy(r->dev, e->pipeline);
        e->program->users--;
        hl__record_clear((void **)r->pipelines, i, &r->pipeline_hint);
        evicted = true;
    }
    for (uint32_t i = 0; i < r->program_count; i++) {
        hl__program *p = r->programs[i];
        if (!p || p->users || p->last_frame >= old) continue;
        hl__program_release(r, p);
        r->programs[i] = NULL;
        if (i < r->program_hint) r->program_hint = i;
        evicted = true;
    }
    if (evicted) r->evict_epoch++;
}

void hl__render_programs_free(hl_renderer *r) {
    for (uint32_t i = 0; i < r->pipeline_count; i++)
        if (r->pipelines[i]) {
            hl_rhi_render_pipeline_destroy(r->dev, r->pipelines[i]->pipeline);
            hl__free(r->pipelines[i]);
        }
    for (uint32_t i = 0; i < r->program_count; i++) hl__program_release(r, r->programs[i]);
    hl__free(r->pipelines);
    hl__free(r->programs);
    r->pipelines = NULL;
    r->programs = NULL;
    r->pipeline_count = r->program_count = 0;
    r->pipeline_capacity = r->program_capacity = 0;
    r->pipeline_hint = r->program_hint = 0;
}
