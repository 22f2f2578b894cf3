/* Graph buffers and compute passes inside a pipeline's record (include/hilo3d/compute.h): the
 * runtime's handles checked against the invocation and turned into graph handles; the passes
 * themselves live in src/render/render_storage.c. webgpu only: gles3 refuses each call before
 * anything reaches the graph or GL. */
#include <string.h>

#include "hilo3d/compute.h"
#include "pipeline_internal.h"

/* The invocation of ctx on a device with compute, or NULL and *res the error. */
static invocation *compute_invocation(hl_pipeline_context ctx, const char *fn, hl_result *res) {
    invocation *inv = hl__pipeline_current(ctx, fn, res);
    if (inv && hl_rhi_device_backend(inv->r->dev) == HL_RHI_BACKEND_GLES3) {
        *res = hl__fail(HL_ERR_UNSUPPORTED, "%s: the gles3 backend has no compute shaders or storage buffers "
                        "(OpenGL ES 3.0); use webgpu", fn);
        return NULL;
    }
    return inv;
}

hl_result hl__pipeline_buffer_of(invocation *inv, hl_pipeline_buffer b, const char *fn, hl_graph_buffer *out) {
    if (b.token != inv->token || !b.id || !hl_graph_buffer_desc(inv->r->graph, (hl_graph_buffer){b.id}))
        return hl__fail(HL_ERR_INVALID_STATE, "%s: the buffer is not one of this invocation (valid only inside the record "
                        "call that made it)", fn);
    *out = (hl_graph_buffer){b.id};
    return HL_OK;
}

hl_result hl_pipeline_create_buffer(hl_pipeline_context ctx, const hl_pipeline_buffer_desc *desc, hl_pipeline_buffer *out) {
    const char *fn = "hl_pipeline_create_buffer";
    hl_result res;
    invocation *inv = compute_invocation(ctx, fn, &res);
    if (!inv) return res;
    if (!desc || !out) return hl__fail(HL_ERR_VALIDATION, "%s: %s is NULL", fn, desc ? "out" : "desc");
    *out = (hl_pipeline_buffer){0, 0};
    const char *name = desc->name && desc->name[0] ? desc->name : "buffer";
    uint64_t max = hl_rhi_device_caps(inv->r->dev)->limits.max_storage_buffer_binding_size;
    if (!desc->size || (desc->size & 3u) || desc->size > max)
        return hl__fail(HL_ERR_VALIDATION, "%s: buffer '%s': size %llu (a non-zero multiple of 4, at most %llu)", fn, name,
                        (unsigned long long)desc->size, (unsigned long long)max);
    hl_rhi_buffer_desc bd = {desc->size, HL_RHI_BUFFER_USAGE_COPY_SRC | HL_RHI_BUFFER_USAGE_COPY_DST, NULL, name};
    hl_graph_buffer b = hl_graph_create_buffer(inv->r->graph, &bd, name);
    if (!b.id) return hl_last_error_code() ? hl_last_error_code() : HL_ERR_VALIDATION;
    *out = (hl_pipeline_buffer){inv->token, b.id};
    return HL_OK;
}

hl_result hl_pipeline_import_storage_buffer(hl_pipeline_context ctx, hl_storage_buffer *b, hl_pipeline_buffer *out) {
    const char *fn = "hl_pipeline_import_storage_buffer";
    hl_result res;
    invocation *inv = compute_invocation(ctx, fn, &res);
    if (!inv) return res;
    if (!out) return hl__fail(HL_ERR_VALIDATION, "%s: out is NULL", fn);
    *out = (hl_pipeline_buffer){0, 0};
    hl_graph_buffer gb;
    if ((res = hl__storage_import(inv->r, b, fn, &gb))) return res;
    *out = (hl_pipeline_buffer){inv->token, gb.id};
    return HL_OK;
}

hl_result hl_pipeline_add_buffer_clear_pass(hl_pipeline_context ctx, const char *name, hl_pipeline_buffer buf,
                                            uint64_t offset, uint64_t size) {
    const char *fn = "hl_pipeline_add_buffer_clear_pass";
    hl_result res;
    invocation *inv = compute_invocation(ctx, fn, &res);
    if (!inv) return res;
    hl_graph_buffer b;
    if ((res = hl__pipeline_buffer_of(inv, buf, fn, &b))) return res;
    return hl__add_buffer_clear_pass(inv->r, name, b, offset, size);
}

hl_result hl_pipeline_add_buffer_copy_pass(hl_pipeline_context ctx, const char *name, hl_pipeline_buffer src,
                                           uint64_t src_offset, hl_pipeline_buffer dst, uint64_t dst_offset,
                                           uint64_t size) {
    const char *fn = "hl_pipeline_add_buffer_copy_pass";
    hl_result res;
    invocation *inv = compute_invocation(ctx, fn, &res);
    if (!inv) return res;
    hl_graph_buffer s, d;
    if ((res = hl__pipeline_buffer_of(inv, src, fn, &s)) || (res = hl__pipeline_buffer_of(inv, dst, fn, &d))) return res;
    return hl__add_buffer_copy_pass(inv->r, name, s, src_offset, d, dst_offset, size);
}

hl_result hl_pipeline_add_compute_pass(hl_pipeline_context ctx, const hl_pipeline_compute_pass_desc *desc) {
    const char *fn = "hl_pipeline_add_compute_pass";
    hl_result res;
    invocation *inv = compute_invocation(ctx, fn, &res);
    if (!inv) return res;
    if (!desc) return hl__fail(HL_ERR_VALIDATION, "%s: desc is NULL", fn);
    if (desc->resource_count > HL_COMPUTE_MAX_BINDINGS * HL_COMPUTE_MAX_GROUPS || (desc->resource_count && !desc->resources))
        return hl__fail(HL_ERR_VALIDATION, "%s: %u resources%s", fn, desc->resource_count,
                        desc->resources ? " (too many)" : " with resources NULL");
    hl__compute_resource rs[HL_COMPUTE_MAX_BINDINGS * HL_COMPUTE_MAX_GROUPS];
    memset(rs, 0, sizeof rs);
    for (uint32_t i = 0; i < desc->resource_count; i++) {
        const hl_pipeline_compute_resource *c = &desc->resources[i];
        rs[i].name = c->name;
        rs[i].offset = c->offset;
        rs[i].size = c->size;
        rs[i].data = c->data;
        rs[i].data_size = c->data_size;
        rs[i].overwrite = c->overwrite;
        if (c->buffer.id && (res = hl__pipeline_buffer_of(inv, c->buffer, fn, &rs[i].buffer))) return res;
        if (c->texture.id && (res = hl__pipeline_texture_of(inv, c->texture, fn, &rs[i].texture))) return res;
    }
    hl_graph_buffer indirect = {0};
    if (desc->indirect.id && (res = hl__pipeline_buffer_of(inv, desc->indirect, fn, &indirect))) return res;
    return hl__add_compute_pass(inv->r, desc->name, desc->kernel, rs, desc->resource_count, desc->groups, indirect,
                                desc->indirect_offset);
}

hl_result hl_pipeline_add_gpu_draw_pass(hl_pipeline_context ctx, const hl_pipeline_gpu_draw_pass_desc *desc) {
    const char *fn = "hl_pipeline_add_gpu_draw_pass";
    hl_result res;
    invocation *inv = compute_invocation(ctx, fn, &res);
    if (!inv) return res;
    if (!desc) return hl__fail(HL_ERR_VALIDATION, "%s: desc is NULL", fn);
    if (desc->buffer_count > HL_PIPELINE_GPU_DRAW_MAX_BUFFERS || desc->color_count > 4 ||
        (unsigned)desc->blend > HL_PIPELINE_BLEND_ADDITIVE)
        return hl__fail(HL_ERR_VALIDATION, "%s: buffer_count %u (at most %u), color_count %u (1..4), blend %d", fn,
                        desc->buffer_count, HL_PIPELINE_GPU_DRAW_MAX_BUFFERS, desc->color_count, (int)desc->blend);
    hl__gpu_draw_desc d;
    memset(&d, 0, sizeof d);
    d.name = desc->name;
    d.shader = desc->shader;
    d.buffer_count = desc->buffer_count;
    for (uint32_t i = 0; i < desc->buffer_count; i++) {
        d.blocks[i] = desc->buffers[i].block;
        d.offsets[i] = desc->buffers[i].offset;
        d.sizes[i] = desc->buffers[i].size;
        if ((res = hl__pipeline_buffer_of(inv, desc->buffers[i].buffer, fn, &d.buffers[i]))) return res;
    }
    d.params = desc->params;
    d.params_size = desc->params_size;
    d.color_count = desc->color_count;
    for (uint32_t i = 0; i < desc->color_count; i++)
        if ((res = hl__pipeline_texture_of(inv, desc->color[i], fn, &d.color[i]))) return res;
    d.load_color = desc->load_color;
    memcpy(d.clear_color, desc->clear_color, sizeof d.clear_color);
    if (desc->depth.id && (res = hl__pipeline_texture_of(inv, desc->depth, fn, &d.depth))) return res;
    d.load_depth = desc->load_depth;
    d.blend = desc->blend == HL_PIPELINE_BLEND_ADDITIVE ? HL__BLEND_ADDITIVE : (uint8_t)desc->blend;
    d.depth_test = desc->depth_test;
    d.depth_write = desc->depth_write;
    d.cull_back = desc->cull_back;
    if (desc->material_state) {
        const hl_material_variant *v = hl_material_get_variant(desc->material_state);
        if (!v) return hl__fail(HL_ERR_VALIDATION, "%s: material_state is not a material", fn);
        d.blend = v->alpha_mode == HL_ALPHA_BLEND ? 1u : 0u;
        d.depth_test = v->depth_test;
        d.depth_write = v->depth_write;
        d.cull_back = !v->double_sided;
    }
    if (desc->vertex_count > 8) return hl__fail(HL_ERR_VALIDATION, "%s: vertex_count %u (at most 8)", fn, desc->vertex_count);
    static const hl_rhi_vertex_format formats[] = {HL_RHI_VERTEX_FORMAT_INVALID, HL_RHI_VERTEX_FLOAT32,
                                                   HL_RHI_VERTEX_FLOAT32X2,      HL_RHI_VERTEX_FLOAT32X3,
                                                   HL_RHI_VERTEX_FLOAT32X4,      HL_RHI_VERTEX_UNORM8X4,
                                                   HL_RHI_VERTEX_UINT32};
    d.vertex_count = desc->vertex_count;
    for (uint32_t i = 0; i < desc->vertex_count; i++) {
        const hl_pipeline_vertex_attribute *a = &desc->vertex[i];
        if ((unsigned)a->format == 0 || (unsigned)a->format > HL_PIPELINE_VERTEX_UINT32)
            return hl__fail(HL_ERR_VALIDATION, "%s: vertex[%u] ('%s') has format %d", fn, i, a->name ? a->name : "",
                            (int)a->format);
        d.vertex[i].name = a->name;
        d.vertex[i].offset = a->offset;
        d.vertex[i].stride = a->stride;
        d.vertex[i].format = formats[a->format];
        d.vertex[i].per_instance = a->per_instance;
        if ((res = hl__pipeline_buffer_of(inv, a->buffer, fn, &d.vertex[i].buffer))) return res;
    }
    if (desc->texture_count > 4) return hl__fail(HL_ERR_VALIDATION, "%s: texture_count %u (at most 4)", fn, desc->texture_count);
    d.texture_count = desc->texture_count;
    for (uint32_t i = 0; i < desc->texture_count; i++) {
        d.texture_names[i] = desc->texture_names[i];
        if ((res = hl__pipeline_texture_of(inv, desc->textures[i], fn, &d.textures[i]))) return res;
    }
    if (desc->index_buffer.id && (res = hl__pipeline_buffer_of(inv, desc->index_buffer, fn, &d.index))) return res;
    d.count = desc->count;
    d.instance_count = desc->instance_count;
    if (desc->indirect.id && (res = hl__pipeline_buffer_of(inv, desc->indirect, fn, &d.indirect))) return res;
    d.indirect_offset = desc->indirect_offset;
    return hl__add_gpu_draw_pass(inv->r, &d);
}
