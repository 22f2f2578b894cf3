/* Storage graphics shaders and GPU-driven draw passes (include/hilo3d/compute.h, pipeline.h):
 * GLSL ES 3.10 with read-only storage blocks compiled by the shader toolchain (storage mode),
 * held by the renderer's program cache as HL__PROGRAM_STORAGE programs (one user: the shader);
 * a pass binds storage buffers by block name (graph reads), an optional Params block, and draws
 * directly or from indirect arguments written by an earlier pass. webgpu only. */
#include <string.h>

#include "hilo3d/compute.h"
#include "render_internal.h"

struct hl_storage_shader {
    hl_renderer *r;
    struct hl_storage_shader *next;
    hl__program *p; /* NULL while the GPU objects are dropped (device loss) */
    char *vertex, *fragment; /* the recipe: owned copies of the sources */
    char label[64];
};

static bool shader_of(const hl_renderer *r, const hl_storage_shader *s) {
    for (const hl_storage_shader *c = r->storage_shaders; c; c = c->next)
        if (c == s) return true;
    return false;
}

/* The program's interface: storage blocks, at most a `Params` uniform block, no samplers. */
static hl_result check_interface(const hl__program *p, const char *fn, const char *label) {
    const hl_shader_reflection *refl = &p->prog.reflection;
    if (refl->texture_count > 4)
        return hl__fail(HL_ERR_VALIDATION, "%s: '%s': %u samplers (at most 4)", fn, label, refl->texture_count);
    for (uint32_t t = 0; t < refl->texture_count; t++)
        if (refl->textures[t].dimension != HL_RHI_TEXTURE_2D || refl->textures[t].comparison ||
            refl->textures[t].sample_type != HL_RHI_SAMPLE_FLOAT)
            return hl__fail(HL_ERR_VALIDATION, "%s: '%s': sampler '%s' must be a sampler2D", fn, label,
                            refl->textures[t].name);
    uint32_t storage = 0;
    for (uint32_t i = 0; i < refl->block_count; i++) {
        const hl_shader_block *b = &refl->blocks[i];
        if (!b->storage && strcmp(b->name, "Params") != 0)
            return hl__fail(HL_ERR_VALIDATION, "%s: '%s': uniform block '%s' (only 'Params' is bound)", fn, label, b->name);
        storage += b->storage;
    }
    if (storage > 8)
        return hl__fail(HL_ERR_VALIDATION, "%s: '%s': %u storage blocks (at most 8)", fn, label, storage);
    if (refl->input_count > HL_RHI_MAX_VERTEX_BUFFERS) /* one vertex buffer per input */
        return hl__fail(HL_ERR_VALIDATION, "%s: '%s': %u vertex inputs (at most %u)", fn, label, refl->input_count,
                        (unsigned)HL_RHI_MAX_VERTEX_BUFFERS);
    return HL_OK;
}

/* The program of s from its sources (compiled, checked, layouts made, added to the cache with
 * the shader as one user). */
static hl_result shader_build(hl_renderer *r, hl_storage_shader *s, const char *fn) {
    hl__program *p = hl__calloc(1, sizeof *p);
    if (!p) return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: '%s'", fn, s->label);
    p->kind = HL__PROGRAM_STORAGE;
    for (uint32_t i = 0; i < HL_ATTR_COUNT + 4; i++) p->location[i] = -1;
    hl_shader_program_desc pd = {0};
    pd.vertex_source = s->vertex;
    pd.fragment_source = s->fragment;
    pd.label = s->label;
    pd.storage = true;
    hl_result res = hl_shader_program_compile(&pd, r->backend, &p->prog);
    if (!res) res = check_interface(p, fn, s->label);
    if (!res) {
        res = hl_shader_program_create_shaders(r->dev, &p->prog, &p->vs, &p->fs);
    }
    if (!res) res = hl__program_layouts(r, p, 1, s->label);
    /* vertex inputs: attribute slot i is the shader's i-th input (by location) */
    for (uint32_t i = 0; !res && i < p->prog.reflection.input_count; i++)
        p->location[i] = (int32_t)p->prog.reflection.inputs[i].location;
    if (res) {
        hl__program_release(r, p);
        return res;
    }
    /* no description: a storage program is never looked up, only held by its shader (s->p) */
    if ((res = hl__program_add(r, p))) return res; /* released there */
    p->users++; /* the shader's: pipelines add theirs; eviction waits for all */
    s->p = p;
    return HL_OK;
}

static void shader_free(hl_storage_shader *s) {
    hl__free(s->vertex);
    hl__free(s->fragment);
    hl__free(s);
}

static char *copy_text(const char *t) {
    size_t n = strlen(t) + 1;
    char *c = hl__malloc(n);
    if (c) memcpy(c, t, n);
    return c;
}

hl_result hl_storage_shader_create(hl_renderer *r, const hl_storage_shader_desc *desc, hl_storage_shader **out) {
    const char *fn = "hl_storage_shader_create";
    if (out) *out = NULL;
    hl_result res = hl__compute_check(r, fn);
    if (res) return res;
    if (!desc || !out) return hl__fail(HL_ERR_VALIDATION, "%s: %s is NULL", fn, desc ? "out" : "desc");
    const char *label = desc->label && desc->label[0] ? desc->label : "storage shader";
    if (!desc->vertex || !desc->fragment)
        return hl__fail(HL_ERR_VALIDATION, "%s: '%s': %s is NULL", fn, label, desc->vertex ? "fragment" : "vertex");
    hl_storage_shader *s = hl__calloc(1, sizeof *s);
    if (s) {
        s->vertex = copy_text(desc->vertex);
        s->fragment = copy_text(desc->fragment);
    }
    if (!s || !s->vertex || !s->fragment) {
        if (s) shader_free(s);
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: '%s'", fn, label);
    }
    snprintf(s->label, sizeof s->label, "%s", label);
    if ((res = shader_build(r, s, fn))) {
        shader_free(s);
        return res;
    }
    s->r = r;
    s->next = r->storage_shaders;
    r->storage_shaders = s;
    *out = s;
    return HL_OK;
}

void hl__storage_shaders_gpu_drop(hl_renderer *r) {
    /* the programs go with the program cache (hl__render_programs_free) */
    for (hl_storage_shader *s = r->storage_shaders; s; s = s->next) s->p = NULL;
}

hl_result hl__storage_shaders_gpu_rebuild(hl_renderer *r) {
    hl_result res = HL_OK;
    for (hl_storage_shader *s = r->storage_shaders; s && !res; s = s->next)
        if (!s->p) res = shader_build(r, s, "renderer recovery");
    return res;
}

hl_result hl_storage_shader_destroy(hl_renderer *r, hl_storage_shader *s) {
    const char *fn = "hl_storage_shader_destroy";
    if (!s) return HL_OK;
    hl_result res = hl__compute_check(r, fn);
    if (res) return res;
    for (hl_storage_shader **at = &r->storage_shaders; *at; at = &(*at)->next)
        if (*at == s) {
            *at = s->next;
            if (s->p) s->p->users--; /* released by the program cache once its pipelines are gone */
            shader_free(s);
            return HL_OK;
        }
    return hl__fail(HL_ERR_VALIDATION, "%s: the shader was not created by this renderer (or was destroyed)", fn);
}

void hl__storage_shaders_free(hl_renderer *r) {
    while (r->storage_shaders) {
        hl_storage_shader *s = r->storage_shaders;
        r->storage_shaders = s->next;
        if (s->p) s->p->users--;
        shader_free(s);
    }
}

/* ---- the pass ------------------------------------------------------------------------------------------ */
typedef struct gd_pass {
    hl_renderer *r;
    const char *name;
    hl_rhi_render_pipeline pipeline;
    hl_rhi_bind_group_layout layout;
    hl_rhi_bind_group_entry entries[HL_RHI_MAX_BINDINGS];
    uint32_t entry_count;
    uint8_t ref_slot[8];
    hl_graph_buffer ref_buffer[8];
    uint32_t ref_count;
    hl_rhi_bind_group group;
    hl_graph_texture color[4];
    uint32_t color_count;
    bool load_color;
    float clear[4];
    hl_graph_texture depth;
    bool load_depth;
    hl_graph_buffer index, indirect;
    uint64_t indirect_offset;
    uint32_t count, instances;
    hl_graph_texture textures[4]; /* sampled: entries[tex_slot[i]] gets the view */
    uint8_t tex_slot[4];
    uint32_t texture_count;
    hl_graph_buffer vertex[HL_ATTR_COUNT]; /* by input (slot order of the pipeline) */
    uint64_t vertex_offset[HL_ATTR_COUNT];
    uint32_t vertex_count;
} gd_pass;

static hl_result setup_gd(hl_graph_pass_builder *b, void *params, void *user) {
    gd_pass *p = params;
    *p = *(const gd_pass *)user;
    hl_result res = HL_OK;
    for (uint32_t i = 0; !res && i < p->ref_count; i++) {
        bool seen = false;
        for (uint32_t k = 0; k < i; k++) seen |= p->ref_buffer[k].id == p->ref_buffer[i].id;
        if (!seen) res = hl_graph_storage_read(b, p->ref_buffer[i]);
    }
    for (uint32_t i = 0; !res && i < p->color_count; i++) {
        hl_graph_color_attachment_desc c = {0};
        c.load_op = p->load_color ? HL_RHI_LOAD_LOAD : HL_RHI_LOAD_CLEAR;
        c.store_op = HL_RHI_STORE_STORE;
        memcpy(c.clear_color, p->clear, sizeof c.clear_color);
        res = hl_graph_color_attachment(b, i, p->color[i], &c);
    }
    if (!res && p->depth.id) {
        hl_graph_depth_attachment_desc d = {0};
        d.depth_load_op = p->load_depth ? HL_RHI_LOAD_LOAD : HL_RHI_LOAD_CLEAR;
        d.depth_store_op = HL_RHI_STORE_STORE;
        d.depth_clear_value = 1.0f;
        res = hl_graph_depth_attachment(b, p->depth, &d);
    }
    for (uint32_t i = 0; !res && i < p->texture_count; i++) res = hl_graph_read_texture(b, p->textures[i]);
    for (uint32_t i = 0; !res && i < p->vertex_count; i++) {
        bool seen = false;
        for (uint32_t k = 0; k < i; k++) seen |= p->vertex[k].id == p->vertex[i].id;
        if (!seen) res = hl_graph_vertex_read(b, p->vertex[i]);
    }
    if (!res && p->index.id) res = hl_graph_index_read(b, p->index);
    if (!res && p->indirect.id) res = hl_graph_indirect_read(b, p->indirect);
    return res;
}

static hl_result prepare_gd(hl_graph_ctx *ctx, void *params, void *user) {
    (void)user;
    gd_pass *p = params;
    for (uint32_t i = 0; i < p->ref_count; i++)
        p->entries[p->ref_slot[i]].buffer = hl_graph_ctx_buffer(ctx, p->ref_buffer[i]);
    for (uint32_t i = 0; i < p->texture_count; i++) p->entries[p->tex_slot[i]].view = hl_graph_ctx_view(ctx, p->textures[i]);
    return hl__frame_group_get(p->r, p->layout, p->entries, p->entry_count, p->name, &p->group);
}

static hl_result exec_gd(hl_graph_ctx *ctx, void *params, void *user) {
    (void)user;
    const gd_pass *p = params;
    hl_rhi_cmd *cmd = hl_graph_ctx_cmd(ctx);
    hl_result res = hl_graph_ctx_begin_render_pass(ctx);
    if (res) return res;
    res = hl_rhi_cmd_set_pipeline(cmd, p->pipeline);
    if (!res) res = hl_rhi_cmd_set_bind_group(cmd, 0, p->group, NULL, 0);
    for (uint32_t i = 0; !res && i < p->vertex_count; i++)
        res = hl_rhi_cmd_set_vertex_buffer(cmd, i, hl_graph_ctx_buffer(ctx, p->vertex[i]), p->vertex_offset[i]);
    if (!res && p->index.id) res = hl_rhi_cmd_set_index_buffer(cmd, hl_graph_ctx_buffer(ctx, p->index), HL_RHI_INDEX_UINT32, 0);
    if (!res) {
        hl_rhi_buffer ind = p->indirect.id ? hl_graph_ctx_buffer(ctx, p->indirect) : (hl_rhi_buffer){0};
        if (p->indirect.id && p->index.id) res = hl_rhi_cmd_draw_indexed_indirect(cmd, ind, p->indirect_offset);
        else if (p->indirect.id) res = hl_rhi_cmd_draw_indirect(cmd, ind, p->indirect_offset);
        else if (p->index.id) res = hl_rhi_cmd_draw_indexed(cmd, p->count, p->instances, 0, 0, 0);
        else res = hl_rhi_cmd_draw(cmd, p->count, p->instances, 0, 0);
    }
    hl_result end = hl_rhi_cmd_end_render_pass(cmd);
    return res ? res : end;
}

static hl_result buffer_size(hl_renderer *r, hl_graph_buffer b, const char *pass, const char *what, uint64_t *size) {
    const hl_rhi_buffer_desc *d = b.id ? hl_graph_buffer_desc(r->graph, b) : NULL;
    if (!d) return hl__fail(HL_ERR_VALIDATION, "gpu draw pass '%s': %s is not a buffer of this frame", pass, what);
    *size = d->size;
    return hl__storage_check_input(r, b, pass, what);
}

hl_result hl__add_gpu_draw_pass(hl_renderer *r, const hl__gpu_draw_desc *d) {
    const char *name = d->name && d->name[0] ? d->name : "gpu draw";
    const hl_storage_shader *s = d->shader;
    if (!s || !shader_of(r, s))
        return hl__fail(HL_ERR_VALIDATION, "gpu draw pass '%s': the shader is NULL, another renderer's or destroyed", name);
    const hl__program *prog = s->p;
    const hl_shader_reflection *refl = &prog->prog.reflection;
    const hl_rhi_limits *lim = &hl_rhi_device_caps(r->dev)->limits;
    gd_pass p;
    memset(&p, 0, sizeof p);
    p.r = r;
    p.name = name;
    p.layout = prog->bgl[0];
    /* bindings: every storage block from one buffer, by name; Params from the call's bytes */
    if (d->buffer_count > 8) return hl__fail(HL_ERR_VALIDATION, "gpu draw pass '%s': %u buffers (at most 8)", name, d->buffer_count);
    for (uint32_t i = 0; i < d->buffer_count; i++) {
        const char *bn = d->blocks[i] ? d->blocks[i] : "";
        const hl_shader_block *blk = hl_shader_program_find_block(&prog->prog, bn);
        if (!blk || !blk->storage)
            return hl__fail(HL_ERR_VALIDATION, "gpu draw pass '%s': '%s' is no storage block of shader '%s'", name, bn,
                            s->label);
        for (uint32_t k = 0; k < i; k++)
            if (d->blocks[k] && !strcmp(d->blocks[k], bn))
                return hl__fail(HL_ERR_VALIDATION, "gpu draw pass '%s': block '%s' is given twice", name, bn);
    }
    for (uint32_t b = 0; b < refl->block_count; b++) {
        const hl_shader_block *blk = &refl->blocks[b];
        hl_rhi_bind_group_entry *e = &p.entries[p.entry_count++];
        e->binding = blk->binding;
        if (!blk->storage) { /* Params */
            if (!d->params || d->params_size < blk->size || d->params_size > HL_COMPUTE_MAX_UNIFORM_DATA)
                return hl__fail(HL_ERR_VALIDATION, "gpu draw pass '%s': params_size %u for block Params of %u bytes (at "
                                "most %u, with params)", name, d->params_size, blk->size, HL_COMPUTE_MAX_UNIFORM_DATA);
            uint32_t off = 0;
            hl_result res = hl__params_slot(r, d->params, blk->size, &off);
            if (res) return res;
            e->buffer = r->fs_params;
            e->offset = off;
            e->size = blk->size;
            continue;
        }
        uint32_t i = 0;
        while (i < d->buffer_count && (!d->blocks[i] || strcmp(d->blocks[i], blk->name))) i++;
        if (i == d->buffer_count)
            return hl__fail(HL_ERR_VALIDATION, "gpu draw pass '%s': storage block '%s' has no buffer", name, blk->name);
        uint64_t total = 0, off = d->offsets[i], size = d->sizes[i];
        hl_result res = buffer_size(r, d->buffers[i], name, blk->name, &total);
        if (res) return res;
        if (off % lim->min_storage_buffer_offset_alignment || off > total || (size & 3u) || size > total - off)
            return hl__fail(HL_ERR_VALIDATION, "gpu draw pass '%s': block '%s': range [%llu, +%llu) of a %llu-byte buffer "
                            "(offset a multiple of %u, size of 4)", name, blk->name, (unsigned long long)off,
                            (unsigned long long)size, (unsigned long long)total, lim->min_storage_buffer_offset_alignment);
        if (!size) size = total - off;
        if (size < blk->size || size == 0 || size > lim->max_storage_buffer_binding_size)
            return hl__fail(HL_ERR_VALIDATION, "gpu draw pass '%s': block '%s' binds %llu bytes (at least %u, at most %u)",
                            name, blk->name, (unsigned long long)size, blk->size, lim->max_storage_buffer_binding_size);
        e->offset = off;
        e->size = size;
        p.ref_slot[p.ref_count] = (uint8_t)(p.entry_count - 1);
        p.ref_buffer[p.ref_count++] = d->buffers[i];
    }
    /* sampled textures: each sampler2D of the shader from one texture of the call, by name */
    for (uint32_t i = 0; i < d->texture_count; i++) {
        const char *tn = d->texture_names[i] ? d->texture_names[i] : "";
        uint32_t t = 0;
        while (t < refl->texture_count && strcmp(refl->textures[t].name, tn)) t++;
        if (t == refl->texture_count)
            return hl__fail(HL_ERR_VALIDATION, "gpu draw pass '%s': texture '%s' is no sampler of shader '%s'", name, tn,
                            s->label);
        for (uint32_t j = 0; j < i; j++)
            if (d->texture_names[j] && !strcmp(d->texture_names[j], tn))
                return hl__fail(HL_ERR_VALIDATION, "gpu draw pass '%s': texture '%s' is given twice", name, tn);
    }
    for (uint32_t t = 0; t < refl->texture_count; t++) {
        const hl_shader_texture_binding *tb = &refl->textures[t];
        uint32_t i = 0;
        while (i < d->texture_count && (!d->texture_names[i] || strcmp(d->texture_names[i], tb->name))) i++;
        if (i == d->texture_count)
            return hl__fail(HL_ERR_VALIDATION, "gpu draw pass '%s': sampler '%s' of shader '%s' has no texture", name,
                            tb->name, s->label);
        const hl_rhi_texture_desc *td = hl_graph_texture_desc(r->graph, d->textures[i]);
        const hl_rhi_format_caps *fc = td ? &hl_rhi_device_caps(r->dev)->formats[td->format] : NULL;
        if (!td || td->sample_count > 1 || !(fc->flags & HL_RHI_FORMAT_CAP_FILTERABLE))
            return hl__fail(HL_ERR_VALIDATION, "gpu draw pass '%s': texture '%s' is not a filterable single-sample colour "
                            "texture of this frame", name, tb->name);
        for (uint32_t c = 0; c < d->color_count; c++)
            if (d->color[c].id == d->textures[i].id)
                return hl__fail(HL_ERR_VALIDATION, "gpu draw pass '%s': texture '%s' is also an attachment", name, tb->name);
        hl_rhi_bind_group_entry *e = &p.entries[p.entry_count++];
        e->binding = tb->binding;
        p.tex_slot[p.texture_count] = (uint8_t)(p.entry_count - 1);
        p.textures[p.texture_count++] = d->textures[i];
        e = &p.entries[p.entry_count++];
        e->binding = tb->sampler_binding;
        e->sampler = r->default_sampler;
    }
    /* attachments */
    if (d->color_count < 1 || d->color_count > 4)
        return hl__fail(HL_ERR_VALIDATION, "gpu draw pass '%s': color_count %u (1..4)", name, d->color_count);
    hl__pipeline_key k;
    memset(&k, 0, sizeof k);
    uint32_t w = 0, h = 0;
    for (uint32_t i = 0; i < d->color_count; i++) {
        const hl_rhi_texture_desc *td = hl_graph_texture_desc(r->graph, d->color[i]);
        if (!td || td->sample_count > 1 || hl_rhi_format_get_info(td->format)->is_depth)
            return hl__fail(HL_ERR_VALIDATION, "gpu draw pass '%s': colour %u is %s", name, i,
                            !td ? "not a texture of this frame" : "not a single-sample colour texture");
        if (i && (td->width != w || td->height != h))
            return hl__fail(HL_ERR_VALIDATION, "gpu draw pass '%s': attachments differ in size", name);
        w = td->width, h = td->height;
        k.color_formats[i] = td->format;
    }
    if (d->depth.id) {
        const hl_rhi_texture_desc *td = hl_graph_texture_desc(r->graph, d->depth);
        if (!td || td->format != HL_RHI_FORMAT_DEPTH24_PLUS || td->sample_count > 1 || td->width != w || td->height != h)
            return hl__fail(HL_ERR_VALIDATION, "gpu draw pass '%s': depth must be a single-sample DEPTH24_PLUS texture of "
                            "the colour's size", name);
        k.depth_format = td->format;
    } else if (d->depth_test || d->depth_write) {
        return hl__fail(HL_ERR_VALIDATION, "gpu draw pass '%s': depth test or write without a depth texture", name);
    }
    /* draw */
    if (d->index.id) {
        uint64_t total = 0;
        hl_result res = buffer_size(r, d->index, name, "the index buffer", &total);
        if (res) return res;
        if (!d->indirect.id && (uint64_t)d->count * 4u > total)
            return hl__fail(HL_ERR_VALIDATION, "gpu draw pass '%s': %u indices past the index buffer's %llu bytes", name,
                            d->count, (unsigned long long)total);
    }
    if (d->indirect.id) {
        uint64_t total = 0, need = d->index.id ? 20u : 16u;
        hl_result res = buffer_size(r, d->indirect, name, "the indirect buffer", &total);
        if (res) return res;
        if ((d->indirect_offset & 3u) || d->indirect_offset > total || need > total - d->indirect_offset)
            return hl__fail(HL_ERR_VALIDATION, "gpu draw pass '%s': indirect arguments: range [%llu, +%llu) of a %llu-byte "
                            "buffer (offset a multiple of 4)", name, (unsigned long long)d->indirect_offset,
                            (unsigned long long)need, (unsigned long long)total);
    } else if (!d->count) {
        return hl__fail(HL_ERR_VALIDATION, "gpu draw pass '%s': count 0 on a direct draw", name);
    }
    if (d->blend > HL__BLEND_ADDITIVE) return hl__fail(HL_ERR_VALIDATION, "gpu draw pass '%s': blend %u", name, d->blend);
    /* vertex attributes: each input of the shader from one attribute of the call, by name */
    for (uint32_t i = 0; i < d->vertex_count; i++) {
        const char *an = d->vertex[i].name ? d->vertex[i].name : "";
        uint32_t k2 = 0;
        while (k2 < refl->input_count && strcmp(refl->inputs[k2].name, an)) k2++;
        if (k2 == refl->input_count)
            return hl__fail(HL_ERR_VALIDATION, "gpu draw pass '%s': vertex attribute '%s' is no input of shader '%s'", name,
                            an, s->label);
        for (uint32_t j = 0; j < i; j++)
            if (d->vertex[j].name && !strcmp(d->vertex[j].name, an))
                return hl__fail(HL_ERR_VALIDATION, "gpu draw pass '%s': vertex attribute '%s' is given twice", name, an);
    }
    for (uint32_t in = 0; in < refl->input_count; in++) {
        const hl_shader_io *io = &refl->inputs[in];
        uint32_t i = 0;
        while (i < d->vertex_count && (!d->vertex[i].name || strcmp(d->vertex[i].name, io->name))) i++;
        if (i == d->vertex_count)
            return hl__fail(HL_ERR_VALIDATION, "gpu draw pass '%s': vertex input '%s' of shader '%s' has no attribute",
                            name, io->name, s->label);
        hl_rhi_vertex_format f = d->vertex[i].format;
        uint32_t comps = io->type >= HL_SHADER_TYPE_FLOAT && io->type <= HL_SHADER_TYPE_VEC4
                             ? (uint32_t)(io->type - HL_SHADER_TYPE_FLOAT) + 1u
                             : 0u;
        bool ok = comps ? (f >= HL_RHI_VERTEX_FLOAT32 && f <= HL_RHI_VERTEX_FLOAT32X4 &&
                           (uint32_t)(f - HL_RHI_VERTEX_FLOAT32) + 1u == comps) ||
                              (f == HL_RHI_VERTEX_UNORM8X4 && comps == 4)
                        : io->type == HL_SHADER_TYPE_UINT && f == HL_RHI_VERTEX_UINT32;
        if (!ok)
            return hl__fail(HL_ERR_VALIDATION, "gpu draw pass '%s': vertex input '%s' is %s; the attribute's format does "
                            "not fit it", name, io->name, hl_shader_type_name(io->type));
        uint32_t stride = d->vertex[i].stride, fsize = hl_rhi_vertex_format_size(f);
        uint64_t total = 0;
        hl_result res = buffer_size(r, d->vertex[i].buffer, name, io->name, &total);
        if (res) return res;
        if (!stride || (stride & 3u) || stride > 2048u || (d->vertex[i].offset & 3u) || d->vertex[i].offset > total)
            return hl__fail(HL_ERR_VALIDATION, "gpu draw pass '%s': vertex attribute '%s': stride %u, offset %llu (multiples "
                            "of 4; stride 4..2048; offset within the buffer)", name, io->name, stride,
                            (unsigned long long)d->vertex[i].offset);
        /* direct, non-indexed draws: the elements read are known */
        uint32_t n = d->vertex[i].per_instance ? (d->instance_count ? d->instance_count : 1u) : d->count;
        if (!d->indirect.id && !d->index.id && n &&
            d->vertex[i].offset + (uint64_t)(n - 1) * stride + fsize > total)
            return hl__fail(HL_ERR_VALIDATION, "gpu draw pass '%s': vertex attribute '%s': %u elements of stride %u from "
                            "offset %llu pass the buffer's %llu bytes", name, io->name, n, stride,
                            (unsigned long long)d->vertex[i].offset, (unsigned long long)total);
        k.attr_format[in] = f;
        k.attr_stride[in] = stride;
        if (d->vertex[i].per_instance) k.attr_instance |= (uint8_t)(1u << in);
        p.vertex[in] = d->vertex[i].buffer;
        p.vertex_offset[in] = d->vertex[i].offset;
    }
    p.vertex_count = refl->input_count;
    k.program_id = prog->id;
    k.color_count = d->color_count;
    k.sample_count = 1;
    k.topology = HL_RHI_TOPOLOGY_TRIANGLE_LIST;
    k.blend = d->blend;
    k.depth_test = d->depth_test;
    k.depth_write = d->depth_write;
    k.cull = d->cull_back;
    hl__pipeline_entry *pe = NULL;
    hl_result res = hl__pipeline_get(r, (hl__program *)prog, &k, &pe);
    if (!res) res = hl__scene_flush(r, false, false);
    if (res) return res;
    p.pipeline = pe->pipeline;
    memcpy(p.color, d->color, sizeof p.color);
    p.color_count = d->color_count;
    p.load_color = d->load_color;
    memcpy(p.clear, d->clear_color, sizeof p.clear);
    p.depth = d->depth;
    p.load_depth = d->load_depth;
    p.index = d->index;
    p.indirect = d->indirect;
    p.indirect_offset = d->indirect_offset;
    p.count = d->count;
    p.instances = d->instance_count ? d->instance_count : 1;
    hl_graph_pass gp = hl_graph_add_pass(r->graph, name, HL_GRAPH_PASS_RENDER, setup_gd, prepare_gd, exec_gd, &p, sizeof p);
    return gp.id ? HL_OK : hl_last_error_code() ? hl_last_error_code() : HL_ERR_VALIDATION;
}
