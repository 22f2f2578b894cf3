/* Shader materials: user GLSL ES 3.00 with std140 uniform blocks from schemas (seed 004,
 * "custom GLSL and UBO contract").
 *
 * Bindings: the engine blocks keep their groups when the user declares them (Frame = group
 * 0, Object = group 1, with the layouts of render_shaders.c), so custom shaders can use the
 * camera and the model matrix; every user block goes to group 2 at its registered binding
 * (hl_register_uniform_block_binding: a block used before registration is an error), and the
 * material's sampler textures follow at 64 + 2i (texture) and 65 + 2i (sampler). Groups the
 * shader does not use are bound to an empty group. Vertex inputs come from the material's
 * attribute map (name -> semantic). Each hl_uniform_buffer has a GPU mirror that uploads only
 * its dirty range, committed with the frame. */
#include <string.h>

#include "render_internal.h"

#define HL__SHADER_MATERIAL_PROGRAM (1ull << 57)

/* ---- uniform buffer mirrors ----------------------------------------------------------------- */
static hl_result ubuf_get(hl_renderer *r, hl_uniform_buffer *ub, hl__gpu_ubuf **out) {
    uint32_t i = hl__ptr_map_get(&r->ubuf_map, ub);
    hl__gpu_ubuf *g;
    if (i == UINT32_MAX) {
        g = hl__record_alloc((void ***)&r->ubufs, &r->ubuf_count, &r->ubuf_capacity, &r->ubuf_hint, sizeof *g, &i);
        if (!g) return HL_ERR_OUT_OF_MEMORY;
        hl_rhi_buffer_desc d = {0};
        d.size = (hl_uniform_buffer_size(ub) + 15u) & ~(uint64_t)15u;
        d.usage = HL_RHI_BUFFER_USAGE_UNIFORM | HL_RHI_BUFFER_USAGE_COPY_DST;
        d.label = "uniform buffer";
        hl_result res = hl_rhi_buffer_create(r->dev, &d, &g->buffer);
        if (res || !hl__ptr_map_put(&r->ubuf_map, ub, i)) {
            hl_rhi_buffer_destroy(r->dev, g->buffer);
            hl__record_clear((void **)r->ubufs, i, &r->ubuf_hint);
            return res ? res : HL_ERR_OUT_OF_MEMORY;
        }
        hl_uniform_buffer_retain(ub);
        g->ub = ub;
        g->size = (uint32_t)d.size;
    } else {
        g = r->ubufs[i];
    }
    g->last_frame = r->frame_serial;
    hl_dirty_range range;
    hl_upload_kind k = hl_uniform_buffer_upload(ub, g->revision, &range);
    if (k == HL_UPLOAD_FULL) range = (hl_dirty_range){0, hl_uniform_buffer_size(ub)};
    if (k != HL_UPLOAD_NONE && range.size) {
        const uint8_t *data = hl_uniform_buffer_data(ub);
        uint32_t off = range.offset & ~3u, end = (range.offset + range.size + 3u) & ~3u;
        if (end > hl_uniform_buffer_size(ub)) end = hl_uniform_buffer_size(ub) & ~3u;
        hl_result res = hl_graph_upload_buffer(r->graph, g->buffer, off, data + off, end - off, &g->revision,
                                               hl_uniform_buffer_revision(ub));
        if (res) return res;
        r->stats.upload_bytes += end - off;
    }
    *out = g;
    return HL_OK;
}

void hl__render_ubufs_free(hl_renderer *r) {
    for (uint32_t i = 0; i < r->ubuf_count; i++) {
        hl__gpu_ubuf *g = r->ubufs[i];
        if (!g) continue;
        hl_rhi_buffer_destroy(r->dev, g->buffer);
        hl_uniform_buffer_release(g->ub);
        hl__free(g);
    }
    hl__free(r->ubufs);
    r->ubufs = NULL;
    r->ubuf_count = r->ubuf_capacity = 0;
    hl__ptr_map_free(&r->ubuf_map);
}

/* ---- programs --------------------------------------------------------------------------------- */
static hl_result program_create(hl_renderer *r, hl_material *m, uint64_t key, hl__program *p) {
    memset(p, 0, sizeof *p);
    p->key = key;
    uint32_t nb = 0, nt = 0, na = 0;
    const hl_material_uniform_block *blocks = hl_material_shader_uniform_blocks(m, &nb);
    const hl_material_texture *texs = hl_material_shader_textures(m, &nt);
    const hl_material_attribute *attrs = hl_material_shader_attributes(m, &na);
    hl_rhi_binding_plan_entry plan[2 + 2 * 32];
    uint32_t pn = 0;
    plan[pn++] = (hl_rhi_binding_plan_entry){HL_RHI_PLAN_UNIFORM_BLOCK, "Frame", 0, 0, 0};
    plan[pn++] = (hl_rhi_binding_plan_entry){HL_RHI_PLAN_UNIFORM_BLOCK, "Object", 1, 0, 0};
    for (uint32_t i = 0; i < nb && pn < 34; i++) {
        uint32_t binding;
        if (!hl_uniform_block_binding(blocks[i].name, &binding))
            return hl__fail(HL_ERR_VALIDATION,
                            "renderer: shader material '%s': uniform block '%s' is not registered "
                            "(hl_register_uniform_block_binding before first use)",
                            hl_material_label(m), blocks[i].name);
        plan[pn++] = (hl_rhi_binding_plan_entry){HL_RHI_PLAN_UNIFORM_BLOCK, blocks[i].name, 2, binding, 0};
    }
    for (uint32_t i = 0; i < nt && pn < 2 + 2 * 32; i++)
        plan[pn++] = (hl_rhi_binding_plan_entry){HL_RHI_PLAN_SAMPLER, texs[i].name, 2, 64 + 2 * i, 65 + 2 * i};
    hl_shader_program_desc pd = {0};
    pd.vertex_source = hl_material_shader_vs(m);
    pd.fragment_source = hl_material_shader_fs(m);
    pd.bindings = plan;
    pd.binding_count = pn;
    pd.label = hl_material_label(m);
    hl_result res = hl_shader_program_compile(&pd, r->backend, &p->prog);
    if (res) return res;
    hl_rhi_shader_desc sd;
    hl_shader_program_vertex_desc(&p->prog, &sd);
    res = hl_rhi_shader_create(r->dev, &sd, &p->vs);
    if (!res) {
        hl_shader_program_fragment_desc(&p->prog, &sd);
        res = hl_rhi_shader_create(r->dev, &sd, &p->fs);
    }
    for (uint32_t g = 0; !res && g < 3; g++) {
        hl_rhi_bind_group_layout_entry e[HL_RHI_MAX_BINDINGS];
        uint32_t c = hl_shader_program_layout_entries(&p->prog, g, g < 2, e, HL_RHI_MAX_BINDINGS);
        for (uint32_t i = 0; i < c; i++)
            if (e[i].type == HL_RHI_BINDING_UNIFORM_BUFFER) e[i].visibility = HL_RHI_STAGE_VERTEX | HL_RHI_STAGE_FRAGMENT;
        hl_rhi_bind_group_layout_desc bd = {e, c, "shader material"};
        res = hl_rhi_bind_group_layout_create(r->dev, &bd, &p->bgl[g]);
        if (!res && c == 0) p->empty_groups |= 1u << g;
    }
    p->group_count = 3;
    if (!res) {
        hl_rhi_pipeline_layout_desc pld = {p->bgl, 3, "shader material"};
        res = hl_rhi_pipeline_layout_create(r->dev, &pld, &p->layout);
    }
    for (uint32_t i = 0; i < HL_ATTR_COUNT + 4; i++) p->location[i] = -1;
    for (uint32_t a = 0; a < na; a++)
        for (uint32_t k = 0; k < p->prog.reflection.input_count; k++)
            if (strcmp(p->prog.reflection.inputs[k].name, attrs[a].name) == 0 && attrs[a].semantic < HL_ATTR_COUNT)
                p->location[attrs[a].semantic] = (int32_t)p->prog.reflection.inputs[k].location;
    for (uint32_t k = 0; !res && k < p->prog.reflection.input_count; k++) {
        bool mapped = false;
        for (uint32_t a = 0; a < na; a++) mapped |= strcmp(p->prog.reflection.inputs[k].name, attrs[a].name) == 0;
        if (!mapped)
            res = hl__fail(HL_ERR_VALIDATION, "renderer: shader material '%s': vertex input '%s' has no attribute mapping",
                           hl_material_label(m), p->prog.reflection.inputs[k].name);
    }
    return res;
}

static uint64_t fnv(uint64_t h, const char *s) {
    for (; *s; s++) h = (h ^ (uint8_t)*s) * 1099511628211ull;
    return (h ^ 0xffu) * 1099511628211ull;
}

/* Sources, block and texture names and the attribute map shape a program (the plan and the
 * locations come from them); the key folds them into 56 bits under the shader-material bit. */
static uint64_t program_key(const hl_material *m) {
    uint64_t h = hl_material_get_variant(m)->shader_hash;
    uint32_t n = 0;
    const hl_material_uniform_block *b = hl_material_shader_uniform_blocks(m, &n);
    for (uint32_t i = 0; i < n; i++) h = fnv(h, b[i].name);
    const hl_material_texture *t = hl_material_shader_textures(m, &n);
    for (uint32_t i = 0; i < n; i++) h = fnv(h ^ 0x5bu, t[i].name);
    const hl_material_attribute *a = hl_material_shader_attributes(m, &n);
    for (uint32_t i = 0; i < n; i++) h = fnv(h ^ (0x100u + (uint64_t)a[i].semantic), a[i].name);
    return HL__SHADER_MATERIAL_PROGRAM | (h >> 8);
}

hl_result hl__shader_material_program(hl_renderer *r, hl_material *m, uint32_t *index) {
    uint64_t key = program_key(m);
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
    hl_result res = program_create(r, m, key, p);
    if (res) {
        hl__program_release(r, p);
        return res;
    }
    *index = r->program_count++;
    return HL_OK;
}

/* Group 2 of a shader material: its blocks and textures. */
hl_result hl__shader_material_group(hl_renderer *r, hl_material *m, const hl__program *p, hl__gpu_material *gm) {
    uint32_t nb = 0, nt = 0;
    const hl_material_uniform_block *blocks = hl_material_shader_uniform_blocks(m, &nb);
    const hl_material_texture *texs = hl_material_shader_textures(m, &nt);
    hl_rhi_bind_group_entry e[HL_RHI_MAX_BINDINGS];
    uint32_t n = 0;
    uint64_t key = 1469598103934665603ull ^ p->bgl[2].id;
    const hl_shader_reflection *refl = &p->prog.reflection;
    for (uint32_t i = 0; i < nb; i++) {
        bool used = false;
        for (uint32_t k = 0; k < refl->block_count; k++) used |= strcmp(refl->blocks[k].name, blocks[i].name) == 0;
        if (!used) continue;
        if (n >= HL_RHI_MAX_BINDINGS) return hl__fail(HL_ERR_VALIDATION, "renderer: too many bindings in a shader material");
        hl__gpu_ubuf *g;
        hl_result res = ubuf_get(r, blocks[i].buffer, &g);
        if (res) return res;
        uint32_t binding = 0;
        hl_uniform_block_binding(blocks[i].name, &binding);
        memset(&e[n], 0, sizeof e[n]);
        e[n].binding = binding;
        e[n++].buffer = g->buffer;
        key = (key ^ g->buffer.id) * 1099511628211ull;
    }
    for (uint32_t i = 0; i < nt; i++) {
        bool used = false;
        for (uint32_t k = 0; k < refl->texture_count; k++) used |= strcmp(refl->textures[k].name, texs[i].name) == 0;
        if (!used) continue;
        if (n + 2 > HL_RHI_MAX_BINDINGS) return hl__fail(HL_ERR_VALIDATION, "renderer: too many bindings in a shader material");
        hl__gpu_texture *t;
        hl_result res = hl__gpu_texture_get(r, texs[i].texture, &t);
        if (res) return res;
        memset(&e[n], 0, 2 * sizeof e[n]);
        e[n].binding = 64 + 2 * i;
        e[n++].view = t->view;
        e[n].binding = 65 + 2 * i;
        e[n++].sampler = t->sampler;
        key = (key ^ t->view.id) * 1099511628211ull;
        key = (key ^ t->sampler.id) * 1099511628211ull;
    }
    if (!gm->group.id || gm->group_key != key) {
        hl_rhi_bind_group_destroy(r->dev, gm->group);
        gm->group = (hl_rhi_bind_group){0};
        hl_rhi_bind_group_desc d = {p->bgl[2], e, n, hl_material_label(m)};
        hl_result res = hl_rhi_bind_group_create(r->dev, &d, &gm->group);
        if (res) return res;
        gm->group_key = key;
    }
    return HL_OK;
}

/* The empty group bound where a shader material's program uses nothing. */
hl_result hl__empty_group(hl_renderer *r, const hl__program *p, uint32_t g, hl_rhi_bind_group *out) {
    if (!r->empty_group.id) {
        hl_rhi_bind_group_desc d = {p->bgl[g], NULL, 0, "empty"};
        hl_result res = hl_rhi_bind_group_create(r->dev, &d, &r->empty_group);
        if (res) return res;
    }
    *out = r->empty_group;
    return HL_OK;
}
