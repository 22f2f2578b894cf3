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

static void ubuf_release(hl_renderer *r, uint32_t i) {
    hl__gpu_ubuf *g = r->ubufs[i];
    hl_rhi_buffer_destroy(r->dev, g->buffer);
    hl__ptr_map_remove(&r->ubuf_map, g->ub);
    hl_uniform_buffer_release(g->ub);
    hl__record_clear((void **)r->ubufs, i, &r->ubuf_hint);
}

void hl__render_ubufs_evict(hl_renderer *r, uint64_t unused_before) {
    for (uint32_t i = 0; i < r->ubuf_count; i++) {
        hl__gpu_ubuf *g = r->ubufs[i];
        if (g && (g->last_frame < unused_before || hl_uniform_buffer_ref_count(g->ub) == 1)) ubuf_release(r, i);
    }
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
    r->ubuf_count = r->ubuf_capacity = r->ubuf_hint = 0;
    hl__ptr_map_free(&r->ubuf_map);
}

/* ---- programs --------------------------------------------------------------------------------- */
static hl_result program_create(hl_renderer *r, hl_material *m, hl__program *p) {
    uint32_t nb = 0, nt = 0, na = 0;
    const hl_material_uniform_block *blocks = hl_material_shader_uniform_blocks(m, &nb);
    const hl_material_texture *texs = hl_material_shader_textures(m, &nt);
    const hl_material_attribute *attrs = hl_material_shader_attributes(m, &na);
    enum { MAX_BLOCKS = 32, MAX_TEXTURES = 32 };
    if (nb > MAX_BLOCKS || nt > MAX_TEXTURES)
        return hl__fail(HL_ERR_VALIDATION, "renderer: shader material '%s': %u uniform blocks and %u textures (at most %d and %d)",
                        hl_material_label(m), nb, nt, MAX_BLOCKS, MAX_TEXTURES);
    hl_rhi_binding_plan_entry plan[2 + MAX_BLOCKS + MAX_TEXTURES];
    uint32_t pn = 0;
    plan[pn++] = (hl_rhi_binding_plan_entry){HL_RHI_PLAN_UNIFORM_BLOCK, "Frame", 0, 0, 0};
    plan[pn++] = (hl_rhi_binding_plan_entry){HL_RHI_PLAN_UNIFORM_BLOCK, "Object", 1, 0, 0};
    for (uint32_t i = 0; i < nb; i++) {
        uint32_t binding;
        if (!hl_uniform_block_binding(blocks[i].name, &binding))
            return hl__fail(HL_ERR_VALIDATION,
                            "renderer: shader material '%s': uniform block '%s' is not registered "
                            "(hl_register_uniform_block_binding before first use)",
                            hl_material_label(m), blocks[i].name);
        plan[pn++] = (hl_rhi_binding_plan_entry){HL_RHI_PLAN_UNIFORM_BLOCK, blocks[i].name, 2, binding, 0};
    }
    for (uint32_t i = 0; i < nt; i++)
        plan[pn++] = (hl_rhi_binding_plan_entry){HL_RHI_PLAN_SAMPLER, texs[i].name, 2, 64 + 2 * i, 65 + 2 * i};
    hl_shader_program_desc pd = {0};
    pd.vertex_source = hl_material_shader_vs(m);
    pd.fragment_source = hl_material_shader_fs(m);
    pd.bindings = plan;
    pd.binding_count = pn;
    pd.label = hl_material_label(m);
    /* GLSL ES 3.10 sources: a storage variant, its storage blocks read from the scene pass's
       storage at group 3 (webgpu only: the compile refuses other backends) */
    const char *v = pd.vertex_source;
    while (*v == ' ' || *v == '\t' || *v == '\r' || *v == '\n') v++;
    pd.storage = strncmp(v, "#version 310 es", 15) == 0;
    hl_result res = hl_shader_program_compile(&pd, r->backend, &p->prog);
    if (res) return res;
    for (uint32_t b = 0; b < p->prog.reflection.block_count; b++) p->storage |= p->prog.reflection.blocks[b].storage;
    res = hl_shader_program_create_shaders(r->dev, &p->prog, &p->vs, &p->fs);
    if (!res) res = hl__program_layouts(r, p, p->storage ? 4u : 3u, "shader material");
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

/* The exact description of a shader material's program: everything that shapes it (sources,
 * block names with their registered bindings, texture names in order, the attribute map), as
 * one byte string compared whole. */
typedef struct hl__desc_writer {
    uint8_t *data;
    size_t size, capacity;
    bool failed;
} desc_writer;

static void dw_put(desc_writer *w, const void *p, size_t n) {
    if (w->failed) return;
    size_t need;
    if (!hl__add_size(w->size, n, &need) || need > UINT32_MAX) {
        w->failed = true;
        return;
    }
    if (need > w->capacity) {
        size_t cap = w->capacity ? w->capacity : 256;
        while (cap < need) cap *= 2;
        uint8_t *d = hl__realloc(w->data, cap);
        if (!d) {
            w->failed = true;
            return;
        }
        w->data = d;
        w->capacity = cap;
    }
    memcpy(w->data + w->size, p, n);
    w->size = need;
}

static void dw_str(desc_writer *w, const char *s) { dw_put(w, s ? s : "", (s ? strlen(s) : 0) + 1); }

static void dw_u32(desc_writer *w, uint32_t v) { dw_put(w, &v, sizeof v); }

hl_result hl__shader_material_program(hl_renderer *r, hl_material *m, hl__gpu_material *gm, hl__program **out) {
    uint64_t vrev = hl_material_variant_revision(m);
    if (gm->program && gm->program_revision == vrev) {
        gm->program->last_frame = r->frame_serial;
        r->stats.cache_hits++;
        *out = gm->program;
        return HL_OK;
    }
    desc_writer w = {0};
    dw_str(&w, hl_material_shader_vs(m));
    dw_str(&w, hl_material_shader_fs(m));
    uint32_t n = 0;
    const hl_material_uniform_block *b = hl_material_shader_uniform_blocks(m, &n);
    dw_u32(&w, n);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t binding = UINT32_MAX;
        hl_uniform_block_binding(b[i].name, &binding);
        dw_str(&w, b[i].name);
        dw_u32(&w, binding);
    }
    const hl_material_texture *t = hl_material_shader_textures(m, &n);
    dw_u32(&w, n);
    for (uint32_t i = 0; i < n; i++) dw_str(&w, t[i].name);
    const hl_material_attribute *a = hl_material_shader_attributes(m, &n);
    dw_u32(&w, n);
    for (uint32_t i = 0; i < n; i++) {
        dw_str(&w, a[i].name);
        dw_u32(&w, (uint32_t)a[i].semantic);
    }
    if (w.failed) {
        hl__free(w.data);
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "renderer: shader material '%s': out of memory describing its program",
                        hl_material_label(m));
    }
    uint64_t h = hl__program_hash(HL__PROGRAM_SHADER, 0, w.data, (uint32_t)w.size);
    hl__program *p = hl__program_find(r, HL__PROGRAM_SHADER, 0, w.data, (uint32_t)w.size, h);
    if (p) {
        hl__free(w.data);
    } else {
        r->stats.cache_misses++;
        p = hl__calloc(1, sizeof *p);
        if (!p) {
            hl__free(w.data);
            return hl__fail(HL_ERR_OUT_OF_MEMORY, "renderer: out of memory for a program");
        }
        p->kind = HL__PROGRAM_SHADER;
        p->desc = w.data;
        p->desc_size = (uint32_t)w.size;
        hl_result res = program_create(r, m, p);
        if (res) {
            hl__program_release(r, p);
            return res;
        }
        if ((res = hl__program_add(r, p))) return res;
    }
    if (gm->program) gm->program->users--;
    p->users++;
    gm->program = p;
    gm->program_revision = vrev;
    *out = p;
    return HL_OK;
}

/* Group 2 of a shader material: its blocks and textures. */
hl_result hl__shader_material_group(hl_renderer *r, hl_material *m, const hl__program *p, hl__gpu_material *gm) {
    uint32_t nb = 0, nt = 0;
    const hl_material_uniform_block *blocks = hl_material_shader_uniform_blocks(m, &nb);
    const hl_material_texture *texs = hl_material_shader_textures(m, &nt);
    hl_rhi_bind_group_entry e[HL_RHI_MAX_BINDINGS];
    memset(e, 0, sizeof e);
    uint32_t n = 0;
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
        e[n].binding = binding;
        e[n++].buffer = g->buffer;
    }
    for (uint32_t i = 0; i < nt; i++) {
        bool used = false;
        for (uint32_t k = 0; k < refl->texture_count; k++) used |= strcmp(refl->textures[k].name, texs[i].name) == 0;
        if (!used) continue;
        if (n + 2 > HL_RHI_MAX_BINDINGS) return hl__fail(HL_ERR_VALIDATION, "renderer: too many bindings in a shader material");
        hl__gpu_texture *t;
        hl_result res = hl__gpu_texture_get(r, texs[i].texture, &t);
        if (res) return res;
        e[n].binding = 64 + 2 * i;
        e[n++].view = t->view;
        e[n].binding = 65 + 2 * i;
        e[n++].sampler = t->sampler;
    }
    return hl__owned_group_get(r, &gm->group, p, 2, e, n, hl_material_label(m));
}

/* The empty group bound where a shader material's program uses nothing. */
hl_result hl__empty_group(hl_renderer *r, const hl__program *p, uint32_t g, hl_rhi_bind_group *out) {
    hl_result res = hl__owned_group_get(r, &r->empty_group, p, g, NULL, 0, "empty");
    *out = r->empty_group.group;
    return res;
}
