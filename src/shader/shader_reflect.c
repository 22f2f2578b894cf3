/* Reflection of SPIR-V through SPIRV-Cross's C API (no target language: reflection only). The
 * queries on a reflection are in shader_query.c; the reflection without SPIR-V (declarations
 * and the GL driver's introspection) is in shader_introspect.c. */
#include <stdio.h>
#include <string.h>

#include <spirv_cross/spirv_cross_c.h>

#include "shader_internal.h"

static hl_shader_type map_type(spvc_type t) {
    spvc_basetype bt = spvc_type_get_basetype(t);
    unsigned vec = spvc_type_get_vector_size(t);
    unsigned cols = spvc_type_get_columns(t);
    if (bt == SPVC_BASETYPE_STRUCT)
        return HL_SHADER_TYPE_STRUCT;
    if (vec < 1 || vec > 4)
        return HL_SHADER_TYPE_UNKNOWN;
    if (cols > 1) {
        if (bt != SPVC_BASETYPE_FP32 || cols != vec)
            return HL_SHADER_TYPE_UNKNOWN; /* non-square matrices have no hl_shader_type */
        return (hl_shader_type)(HL_SHADER_TYPE_MAT2 + (cols - 2));
    }
    switch (bt) {
    case SPVC_BASETYPE_FP32: return (hl_shader_type)(HL_SHADER_TYPE_FLOAT + (vec - 1));
    case SPVC_BASETYPE_INT32: return (hl_shader_type)(HL_SHADER_TYPE_INT + (vec - 1));
    case SPVC_BASETYPE_UINT32: return (hl_shader_type)(HL_SHADER_TYPE_UINT + (vec - 1));
    case SPVC_BASETYPE_BOOLEAN: return vec == 1 ? HL_SHADER_TYPE_BOOL : HL_SHADER_TYPE_UNKNOWN;
    default: return HL_SHADER_TYPE_UNKNOWN;
    }
}

/* Capacities of the arrays in an hl_shader_reflection being filled. */
typedef struct caps {
    uint32_t blocks, textures, inputs, outputs;
} caps;

static void copy_name(char dst[64], const char *src) { snprintf(dst, 64, "%s", src ? src : ""); }

static hl_result reflect_block(spvc_compiler comp, const spvc_reflected_resource *res, uint32_t stage_bit,
                               bool storage, hl_shader_block *b) {
    memset(b, 0, sizeof *b);
    b->storage = storage;
    const char *name = spvc_compiler_get_name(comp, res->base_type_id);
    copy_name(b->name, name && name[0] ? name : res->name);
    b->group = spvc_compiler_get_decoration(comp, res->id, SpvDecorationDescriptorSet);
    b->binding = spvc_compiler_get_decoration(comp, res->id, SpvDecorationBinding);
    b->stages = stage_bit;
    spvc_type st = spvc_compiler_get_type_handle(comp, res->base_type_id);
    size_t size = 0;
    if (spvc_compiler_get_declared_struct_size(comp, st, &size) != SPVC_SUCCESS)
        return hl__fail(HL_ERR_SHADER, "reflection: size of uniform block '%s' unknown", b->name);
    /* std140: a block's size is rounded up to its base alignment, which is at least 16 (what
     * GL reports as GL_UNIFORM_BLOCK_DATA_SIZE and what a WebGPU binding must cover). A storage
     * block (std430) is its members' extent, a runtime array counted with one element (below). */
    b->size = storage ? (uint32_t)size : (uint32_t)((size + 15u) & ~(size_t)15u);
    if (storage && size > HL_SHADER_MAX_STORAGE_BLOCK_BYTES)
        return hl__fail(HL_ERR_SHADER, "storage block '%s': its fixed part is larger than %u bytes", b->name,
                        (unsigned)HL_SHADER_MAX_STORAGE_BLOCK_BYTES);
    unsigned n = spvc_type_get_num_member_types(st);
    if (!n)
        return HL_OK;
    b->members = hl__calloc(n, sizeof *b->members);
    if (!b->members)
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "reflection: out of memory");
    b->member_count = n;
    for (unsigned i = 0; i < n; i++) {
        hl_shader_block_member *m = &b->members[i];
        spvc_type mt = spvc_compiler_get_type_handle(comp, spvc_type_get_member_type(st, i));
        copy_name(m->name, spvc_compiler_get_member_name(comp, res->base_type_id, i));
        m->type = map_type(mt);
        unsigned off = 0, stride = 0;
        spvc_compiler_type_struct_member_offset(comp, st, i, &off);
        m->offset = off;
        size_t msize = 0;
        spvc_compiler_get_declared_struct_member_size(comp, st, i, &msize);
        m->size = (uint32_t)msize;
        if (spvc_type_get_num_array_dimensions(mt) > 0) {
            m->array_size = spvc_type_array_dimension_is_literal(mt, 0) ? spvc_type_get_array_dimension(mt, 0) : 0;
            if (spvc_compiler_type_struct_member_array_stride(comp, st, i, &stride) == SPVC_SUCCESS)
                m->array_stride = stride;
        }
        if (spvc_type_get_columns(mt) > 1 &&
            spvc_compiler_type_struct_member_matrix_stride(comp, st, i, &stride) == SPVC_SUCCESS)
            m->matrix_stride = stride;
    }
    /* SPIRV-Cross and glslang compute sizes and offsets in 32 bits: `vec4 a[300000000]` comes
     * back as 505032720 bytes and `mat4 m[268435456]` as 0, so a buffer of the reflected size
     * would be read far past its end. Recompute in 64 bits; members must follow each other. */
    uint64_t end = 0;
    for (unsigned i = 0; i < n; i++) {
        hl_shader_block_member *m = &b->members[i];
        uint64_t bytes = m->size;
        if (m->array_size && m->array_stride)
            bytes = (uint64_t)m->array_size * m->array_stride;
        uint64_t lim = storage ? HL_SHADER_MAX_STORAGE_BLOCK_BYTES : HL_SHADER_MAX_UNIFORM_BLOCK_BYTES;
        if (m->offset < end || bytes > lim || m->offset + bytes > lim)
            return hl__fail(HL_ERR_SHADER, "%s block '%s': member '%s' ends past %u bytes (%s)",
                            storage ? "storage" : "uniform", b->name, m->name, (unsigned)lim,
                            storage ? "HL_SHADER_MAX_STORAGE_BLOCK_BYTES" : "HL_SHADER_MAX_UNIFORM_BLOCK_BYTES");
        end = m->offset + bytes;
    }
    if (storage) {
        /* a runtime array last: WebGPU's minimum binding covers its first element */
        const hl_shader_block_member *last = &b->members[n - 1];
        spvc_type lt = spvc_compiler_get_type_handle(comp, spvc_type_get_member_type(st, n - 1));
        if (spvc_type_get_num_array_dimensions(lt) > 0 && !last->array_size && last->array_stride)
            b->size = last->offset + last->array_stride;
        /* rounded up to the block's alignment (std430: a member's vector alignment, 16 for vec3,
           vec4, matrices and structs), as WGSL sizes the struct */
        uint32_t align = 4;
        for (unsigned i = 0; i < n; i++) {
            spvc_type mt = spvc_compiler_get_type_handle(comp, spvc_type_get_member_type(st, i));
            unsigned vec = spvc_type_get_vector_size(mt);
            uint32_t a = spvc_type_get_basetype(mt) == SPVC_BASETYPE_STRUCT || spvc_type_get_columns(mt) > 1 || vec >= 3
                             ? 16u
                             : vec == 2 ? 8u : 4u;
            align = a > align ? a : align;
        }
        b->size = (b->size + align - 1) & ~(align - 1);
        return HL_OK;
    }
    if (size > HL_SHADER_MAX_UNIFORM_BLOCK_BYTES || end > b->size)
        return hl__fail(HL_ERR_SHADER, "uniform block '%s': larger than %u bytes (HL_SHADER_MAX_UNIFORM_BLOCK_BYTES)",
                        b->name, (unsigned)HL_SHADER_MAX_UNIFORM_BLOCK_BYTES);
    return HL_OK;
}

static hl_result reflect_io(spvc_compiler comp, spvc_resources res, spvc_resource_type type, hl_shader_io *list,
                            uint32_t *count, uint32_t cap) {
    const spvc_reflected_resource *items = NULL;
    size_t n = 0;
    spvc_resources_get_resource_list_for_type(res, type, &items, &n);
    for (size_t i = 0; i < n; i++) {
        if (*count == cap)
            return hl__fail(HL_ERR_SHADER, "reflection: more stage inputs/outputs than declared");
        hl_shader_io *io = &list[(*count)++];
        copy_name(io->name, items[i].name);
        io->location = spvc_compiler_get_decoration(comp, items[i].id, SpvDecorationLocation);
        io->type = map_type(spvc_compiler_get_type_handle(comp, items[i].type_id));
    }
    /* by location: insertion sort (a handful of entries) */
    for (uint32_t i = 1; i < *count; i++)
        for (uint32_t j = i; j > 0 && list[j - 1].location > list[j].location; j--) {
            hl_shader_io t = list[j];
            list[j] = list[j - 1];
            list[j - 1] = t;
        }
    return HL_OK;
}

/* Marks the stage on the texture whose split image/sampler variable is `var` (name_tex/_smp). */
static void mark_texture(hl_shader_reflection *r, const char *var, uint32_t stage_bit) {
    size_t n = strlen(var);
    if (n < 5)
        return;
    for (uint32_t i = 0; i < r->texture_count; i++) {
        size_t tn = strlen(r->textures[i].name);
        if (tn + 4 == n && strncmp(var, r->textures[i].name, tn) == 0)
            r->textures[i].stages |= stage_bit;
    }
}

static hl_result reflect_stage(const uint32_t *words, size_t count, hl_rhi_shader_stage stage, hl_shader_reflection *r,
                               const caps *cap) {
    uint32_t bit = stage == HL_RHI_SHADER_VERTEX ? HL_RHI_STAGE_VERTEX : HL_RHI_STAGE_FRAGMENT;
    spvc_context ctx = NULL;
    if (spvc_context_create(&ctx) != SPVC_SUCCESS)
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "reflection: spvc_context_create failed");
    hl_result res = HL_OK;
    spvc_parsed_ir ir = NULL;
    spvc_compiler comp = NULL;
    spvc_resources resources = NULL;
    if (spvc_context_parse_spirv(ctx, words, count, &ir) != SPVC_SUCCESS ||
        spvc_context_create_compiler(ctx, SPVC_BACKEND_NONE, ir, SPVC_CAPTURE_MODE_TAKE_OWNERSHIP, &comp) !=
            SPVC_SUCCESS ||
        spvc_compiler_create_shader_resources(comp, &resources) != SPVC_SUCCESS) {
        res = hl__fail(HL_ERR_SHADER, "reflection of the %s shader failed: %s", hl__stage_name(stage),
                       spvc_context_get_last_error_string(ctx));
        goto done;
    }
    const spvc_reflected_resource *list = NULL;
    size_t n = 0;
    for (int kind = 0; kind < 2 && !res; kind++) {
    bool storage = kind == 1;
    spvc_resources_get_resource_list_for_type(
        resources, storage ? SPVC_RESOURCE_TYPE_STORAGE_BUFFER : SPVC_RESOURCE_TYPE_UNIFORM_BUFFER, &list, &n);
    for (size_t i = 0; i < n && !res; i++) {
        hl_shader_block b;
        res = reflect_block(comp, &list[i], bit, storage, &b);
        if (res) {
            hl__free(b.members);
            break;
        }
        hl_shader_block *same = NULL;
        for (uint32_t k = 0; k < r->block_count; k++)
            if (strcmp(r->blocks[k].name, b.name) == 0)
                same = &r->blocks[k];
        if (same) {
            if (same->size != b.size)
                res = hl__fail(HL_ERR_SHADER, "uniform block '%s' is %u bytes in the vertex shader but %u in the "
                               "fragment shader", b.name, same->size, b.size);
            same->stages |= bit;
            hl__free(b.members);
        } else if (r->block_count == cap->blocks) {
            hl__free(b.members);
            res = hl__fail(HL_ERR_SHADER, "reflection: more uniform blocks than declared");
        } else {
            r->blocks[r->block_count++] = b;
        }
    }
    }
    if (res)
        goto done;
    spvc_resources_get_resource_list_for_type(resources, SPVC_RESOURCE_TYPE_SEPARATE_IMAGE, &list, &n);
    for (size_t i = 0; i < n; i++)
        mark_texture(r, list[i].name, bit);
    spvc_resources_get_resource_list_for_type(resources, SPVC_RESOURCE_TYPE_SEPARATE_SAMPLERS, &list, &n);
    for (size_t i = 0; i < n; i++)
        mark_texture(r, list[i].name, bit);
    if (stage == HL_RHI_SHADER_VERTEX)
        res = reflect_io(comp, resources, SPVC_RESOURCE_TYPE_STAGE_INPUT, r->inputs, &r->input_count, cap->inputs);
    else
        res = reflect_io(comp, resources, SPVC_RESOURCE_TYPE_STAGE_OUTPUT, r->outputs, &r->output_count, cap->outputs);
done:
    spvc_context_destroy(ctx);
    return res;
}

hl_result hl__reflect(const uint32_t *vs, size_t vs_count, const uint32_t *fs, size_t fs_count,
                      const hl__sh_stage *vs_decl, const hl__sh_stage *fs_decl,
                      const hl_rhi_binding_plan_entry *plan, uint32_t plan_count, hl_shader_reflection *out) {
    memset(out, 0, sizeof *out);
    caps cap = {
        vs_decl->block_count + (fs_decl ? fs_decl->block_count : 0),
        vs_decl->sampler_count + (fs_decl ? fs_decl->sampler_count : 0),
        vs_decl->in_count,
        fs_decl ? fs_decl->out_count : 0,
    };
    out->blocks = hl__calloc(cap.blocks ? cap.blocks : 1, sizeof *out->blocks);
    out->textures = hl__calloc(cap.textures ? cap.textures : 1, sizeof *out->textures);
    out->inputs = hl__calloc(cap.inputs ? cap.inputs : 1, sizeof *out->inputs);
    out->outputs = hl__calloc(cap.outputs ? cap.outputs : 1, sizeof *out->outputs);
    hl_result r = HL_OK;
    if (!out->blocks || !out->textures || !out->inputs || !out->outputs)
        r = hl__fail(HL_ERR_OUT_OF_MEMORY, "reflection: out of memory");
    if (!r)
        r = hl__reflect_add_textures(out, vs_decl, HL_RHI_STAGE_VERTEX, plan, plan_count, cap.textures);
    if (!r)
        r = hl__reflect_add_textures(out, fs_decl, HL_RHI_STAGE_FRAGMENT, plan, plan_count, cap.textures);
    /* keep the declared stages as a fallback for textures SPIR-V does not show */
    uint32_t declared[2 * HL__SH_MAX_ITEMS];
    for (uint32_t i = 0; !r && i < out->texture_count; i++) {
        declared[i] = out->textures[i].stages;
        out->textures[i].stages = 0;
    }
    if (!r)
        r = reflect_stage(vs, vs_count, HL_RHI_SHADER_VERTEX, out, &cap);
    if (!r && fs)
        r = reflect_stage(fs, fs_count, HL_RHI_SHADER_FRAGMENT, out, &cap);
    for (uint32_t i = 0; !r && i < out->texture_count; i++)
        if (!out->textures[i].stages)
            out->textures[i].stages = declared[i];
    if (r)
        hl__reflection_free(out);
    return r;
}
