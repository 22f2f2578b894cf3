/* hl_rhi_program_introspect on gles3: links (or finds) the program the pipelines of the two
 * shaders share and asks the driver for its active uniform blocks, uniforms and vertex inputs
 * (OpenGL ES 3.0 program queries, all of them in WebGL 2 too). */
#include <string.h>

#include "gles3_internal.h"

typedef struct hl__gl_type_info {
    GLenum type;
    uint8_t scalar, columns, rows;
    uint8_t dimension, sample_type;
    bool comparison;
} hl__gl_type_info;

static const hl__gl_type_info k_gl_types[] = {
    {GL_FLOAT, HL_RHI_SCALAR_FLOAT, 1, 1, 0, 0, false},
    {GL_FLOAT_VEC2, HL_RHI_SCALAR_FLOAT, 1, 2, 0, 0, false},
    {GL_FLOAT_VEC3, HL_RHI_SCALAR_FLOAT, 1, 3, 0, 0, false},
    {GL_FLOAT_VEC4, HL_RHI_SCALAR_FLOAT, 1, 4, 0, 0, false},
    {GL_INT, HL_RHI_SCALAR_INT, 1, 1, 0, 0, false},
    {GL_INT_VEC2, HL_RHI_SCALAR_INT, 1, 2, 0, 0, false},
    {GL_INT_VEC3, HL_RHI_SCALAR_INT, 1, 3, 0, 0, false},
    {GL_INT_VEC4, HL_RHI_SCALAR_INT, 1, 4, 0, 0, false},
    {GL_UNSIGNED_INT, HL_RHI_SCALAR_UINT, 1, 1, 0, 0, false},
    {GL_UNSIGNED_INT_VEC2, HL_RHI_SCALAR_UINT, 1, 2, 0, 0, false},
    {GL_UNSIGNED_INT_VEC3, HL_RHI_SCALAR_UINT, 1, 3, 0, 0, false},
    {GL_UNSIGNED_INT_VEC4, HL_RHI_SCALAR_UINT, 1, 4, 0, 0, false},
    {GL_BOOL, HL_RHI_SCALAR_BOOL, 1, 1, 0, 0, false},
    {GL_BOOL_VEC2, HL_RHI_SCALAR_BOOL, 1, 2, 0, 0, false},
    {GL_BOOL_VEC3, HL_RHI_SCALAR_BOOL, 1, 3, 0, 0, false},
    {GL_BOOL_VEC4, HL_RHI_SCALAR_BOOL, 1, 4, 0, 0, false},
    {GL_FLOAT_MAT2, HL_RHI_SCALAR_FLOAT, 2, 2, 0, 0, false},
    {GL_FLOAT_MAT3, HL_RHI_SCALAR_FLOAT, 3, 3, 0, 0, false},
    {GL_FLOAT_MAT4, HL_RHI_SCALAR_FLOAT, 4, 4, 0, 0, false},
    {GL_FLOAT_MAT2x3, HL_RHI_SCALAR_FLOAT, 2, 3, 0, 0, false},
    {GL_FLOAT_MAT2x4, HL_RHI_SCALAR_FLOAT, 2, 4, 0, 0, false},
    {GL_FLOAT_MAT3x2, HL_RHI_SCALAR_FLOAT, 3, 2, 0, 0, false},
    {GL_FLOAT_MAT3x4, HL_RHI_SCALAR_FLOAT, 3, 4, 0, 0, false},
    {GL_FLOAT_MAT4x2, HL_RHI_SCALAR_FLOAT, 4, 2, 0, 0, false},
    {GL_FLOAT_MAT4x3, HL_RHI_SCALAR_FLOAT, 4, 3, 0, 0, false},
    {GL_SAMPLER_2D, HL_RHI_SCALAR_SAMPLER, 0, 0, HL_RHI_TEXTURE_2D, HL_RHI_SAMPLE_FLOAT, false},
    {GL_SAMPLER_3D, HL_RHI_SCALAR_SAMPLER, 0, 0, HL_RHI_TEXTURE_3D, HL_RHI_SAMPLE_FLOAT, false},
    {GL_SAMPLER_CUBE, HL_RHI_SCALAR_SAMPLER, 0, 0, HL_RHI_TEXTURE_CUBE, HL_RHI_SAMPLE_FLOAT, false},
    {GL_SAMPLER_2D_ARRAY, HL_RHI_SCALAR_SAMPLER, 0, 0, HL_RHI_TEXTURE_2D_ARRAY, HL_RHI_SAMPLE_FLOAT, false},
    {GL_SAMPLER_2D_SHADOW, HL_RHI_SCALAR_SAMPLER, 0, 0, HL_RHI_TEXTURE_2D, HL_RHI_SAMPLE_DEPTH, true},
    {GL_SAMPLER_CUBE_SHADOW, HL_RHI_SCALAR_SAMPLER, 0, 0, HL_RHI_TEXTURE_CUBE, HL_RHI_SAMPLE_DEPTH, true},
    {GL_SAMPLER_2D_ARRAY_SHADOW, HL_RHI_SCALAR_SAMPLER, 0, 0, HL_RHI_TEXTURE_2D_ARRAY, HL_RHI_SAMPLE_DEPTH, true},
    {GL_INT_SAMPLER_2D, HL_RHI_SCALAR_SAMPLER, 0, 0, HL_RHI_TEXTURE_2D, HL_RHI_SAMPLE_SINT, false},
    {GL_INT_SAMPLER_3D, HL_RHI_SCALAR_SAMPLER, 0, 0, HL_RHI_TEXTURE_3D, HL_RHI_SAMPLE_SINT, false},
    {GL_INT_SAMPLER_CUBE, HL_RHI_SCALAR_SAMPLER, 0, 0, HL_RHI_TEXTURE_CUBE, HL_RHI_SAMPLE_SINT, false},
    {GL_INT_SAMPLER_2D_ARRAY, HL_RHI_SCALAR_SAMPLER, 0, 0, HL_RHI_TEXTURE_2D_ARRAY, HL_RHI_SAMPLE_SINT, false},
    {GL_UNSIGNED_INT_SAMPLER_2D, HL_RHI_SCALAR_SAMPLER, 0, 0, HL_RHI_TEXTURE_2D, HL_RHI_SAMPLE_UINT, false},
    {GL_UNSIGNED_INT_SAMPLER_3D, HL_RHI_SCALAR_SAMPLER, 0, 0, HL_RHI_TEXTURE_3D, HL_RHI_SAMPLE_UINT, false},
    {GL_UNSIGNED_INT_SAMPLER_CUBE, HL_RHI_SCALAR_SAMPLER, 0, 0, HL_RHI_TEXTURE_CUBE, HL_RHI_SAMPLE_UINT, false},
    {GL_UNSIGNED_INT_SAMPLER_2D_ARRAY, HL_RHI_SCALAR_SAMPLER, 0, 0, HL_RHI_TEXTURE_2D_ARRAY, HL_RHI_SAMPLE_UINT, false},
};

static void hl__set_type(hl_rhi_program_variable *v, GLenum type) {
    for (size_t i = 0; i < sizeof k_gl_types / sizeof k_gl_types[0]; i++) {
        const hl__gl_type_info *t = &k_gl_types[i];
        if (t->type != type) continue;
        v->scalar = (hl_rhi_scalar)t->scalar;
        v->columns = t->columns;
        v->rows = t->rows;
        v->dimension = (hl_rhi_texture_dimension)t->dimension;
        v->sample_type = (hl_rhi_texture_sample_type)t->sample_type;
        v->comparison = t->comparison;
        return;
    }
    v->scalar = HL_RHI_SCALAR_OTHER;
}

/* The driver's counts and longest names of the three lists. */
typedef struct hl__gl_counts {
    GLint blocks, block_len, uniforms, uniform_len, attribs, attrib_len;
} hl__gl_counts;

static hl_result hl__introspect(hl_rhi_device *dev, GLuint prog, hl_rhi_program_info **out) {
    hl__gl_counts c = {0};
    HL__GL(dev, glGetProgramiv(prog, GL_ACTIVE_UNIFORM_BLOCKS, &c.blocks));
    HL__GL(dev, glGetProgramiv(prog, GL_ACTIVE_UNIFORM_BLOCK_MAX_NAME_LENGTH, &c.block_len));
    HL__GL(dev, glGetProgramiv(prog, GL_ACTIVE_UNIFORMS, &c.uniforms));
    HL__GL(dev, glGetProgramiv(prog, GL_ACTIVE_UNIFORM_MAX_LENGTH, &c.uniform_len));
    HL__GL(dev, glGetProgramiv(prog, GL_ACTIVE_ATTRIBUTES, &c.attribs));
    HL__GL(dev, glGetProgramiv(prog, GL_ACTIVE_ATTRIBUTE_MAX_LENGTH, &c.attrib_len));
    const GLint lim = 1 << 16; /* far past any GLES implementation's limits: a driver answering more is broken */
    if (c.blocks < 0 || c.uniforms < 0 || c.attribs < 0 || c.blocks > lim || c.uniforms > lim || c.attribs > lim ||
        c.block_len < 0 || c.uniform_len < 0 || c.attrib_len < 0 || c.block_len > lim || c.uniform_len > lim ||
        c.attrib_len > lim)
        return hl__fail(HL_ERR_BACKEND, "gles3: program introspection: the driver reports impossible counts");
    GLint longest = c.block_len > c.uniform_len ? c.block_len : c.uniform_len;
    longest = (longest > c.attrib_len ? longest : c.attrib_len) + 1;
    size_t name_bytes = (size_t)c.blocks * (size_t)(c.block_len + 1) + (size_t)c.uniforms * (size_t)(c.uniform_len + 1) +
                        (size_t)c.attribs * (size_t)(c.attrib_len + 1);
    hl_rhi_program_info *info =
        hl__program_info_alloc((uint32_t)c.blocks, (uint32_t)c.uniforms, (uint32_t)c.attribs, name_bytes);
    char *name = hl__malloc((size_t)longest);
    GLuint *indices = hl__malloc(((size_t)c.uniforms + 1u) * sizeof *indices);
    GLint *values = hl__malloc(((size_t)c.uniforms + 1u) * 4u * sizeof *values);
    if (!info || !name || !indices || !values) {
        hl__free(info);
        hl__free(name);
        hl__free(indices);
        hl__free(values);
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "gles3: out of memory for program introspection");
    }
    hl_result r = HL_OK;
    size_t cursor = 0;
    for (GLint i = 0; i < c.blocks && !r; i++) {
        hl_rhi_program_block *b = &info->blocks[info->block_count];
        GLsizei len = 0;
        name[0] = '\0';
        HL__GL(dev, glGetActiveUniformBlockName(prog, (GLuint)i, longest, &len, name));
        GLint size = 0, vs = 0, fs = 0;
        HL__GL(dev, glGetActiveUniformBlockiv(prog, (GLuint)i, GL_UNIFORM_BLOCK_DATA_SIZE, &size));
        HL__GL(dev, glGetActiveUniformBlockiv(prog, (GLuint)i, GL_UNIFORM_BLOCK_REFERENCED_BY_VERTEX_SHADER, &vs));
        HL__GL(dev, glGetActiveUniformBlockiv(prog, (GLuint)i, GL_UNIFORM_BLOCK_REFERENCED_BY_FRAGMENT_SHADER, &fs));
        b->name = hl__program_info_name(info, &cursor, name_bytes, name, len > 0 && len < longest ? (size_t)len : 0);
        b->data_size = size > 0 ? (uint32_t)size : 0u;
        b->stages = (vs ? HL_RHI_STAGE_VERTEX : 0u) | (fs ? HL_RHI_STAGE_FRAGMENT : 0u);
        if (!b->name) r = hl__fail(HL_ERR_BACKEND, "gles3: program introspection: a block name is longer than reported");
        info->block_count++;
    }
    for (GLint i = 0; i < c.uniforms && !r; i++) {
        hl_rhi_program_variable *v = &info->uniforms[info->uniform_count];
        GLsizei len = 0;
        GLint size = 0;
        GLenum type = 0;
        name[0] = '\0';
        HL__GL(dev, glGetActiveUniform(prog, (GLuint)i, longest, &len, &size, &type, name));
        v->name = hl__program_info_name(info, &cursor, name_bytes, name, len > 0 && len < longest ? (size_t)len : 0);
        if (!v->name) r = hl__fail(HL_ERR_BACKEND, "gles3: program introspection: a uniform name is longer than reported");
        hl__set_type(v, type);
        v->array_size = size > 0 ? (uint32_t)size : 1u;
        v->block = -1;
        v->location = -1;
        indices[info->uniform_count++] = (GLuint)i;
    }
    if (!r && info->uniform_count) {
        static const GLenum pnames[4] = {GL_UNIFORM_BLOCK_INDEX, GL_UNIFORM_OFFSET, GL_UNIFORM_ARRAY_STRIDE,
                                         GL_UNIFORM_MATRIX_STRIDE};
        for (uint32_t k = 0; k < 4; k++)
            HL__GL(dev, glGetActiveUniformsiv(prog, (GLsizei)info->uniform_count, indices, pnames[k],
                                              values + (size_t)k * info->uniform_count));
        for (uint32_t i = 0; i < info->uniform_count; i++) {
            hl_rhi_program_variable *v = &info->uniforms[i];
            GLint block = values[i], offset = values[info->uniform_count + i];
            GLint astride = values[2u * info->uniform_count + i], mstride = values[3u * info->uniform_count + i];
            if (block < -1 || block >= (GLint)info->block_count) block = -1;
            v->block = block;
            v->offset = offset > 0 ? (uint32_t)offset : 0u;
            v->array_stride = astride > 0 ? (uint32_t)astride : 0u;
            v->matrix_stride = mstride > 0 ? (uint32_t)mstride : 0u;
        }
    }
    for (GLint i = 0; i < c.attribs && !r; i++) {
        hl_rhi_program_variable *v = &info->inputs[info->input_count];
        GLsizei len = 0;
        GLint size = 0;
        GLenum type = 0;
        name[0] = '\0';
        HL__GL(dev, glGetActiveAttrib(prog, (GLuint)i, longest, &len, &size, &type, name));
        if (len >= 3 && strncmp(name, "gl_", 3) == 0) continue; /* gl_VertexID, gl_InstanceID on some drivers */
        v->name = hl__program_info_name(info, &cursor, name_bytes, name, len > 0 && len < longest ? (size_t)len : 0);
        if (!v->name) {
            r = hl__fail(HL_ERR_BACKEND, "gles3: program introspection: an input name is longer than reported");
            break;
        }
        hl__set_type(v, type);
        v->array_size = size > 0 ? (uint32_t)size : 1u;
        v->block = -1;
        v->location = HL__GL(dev, glGetAttribLocation(prog, v->name));
        info->input_count++;
    }
    hl__free(name);
    hl__free(indices);
    hl__free(values);
    if (r) {
        hl__free(info);
        return r;
    }
    *out = info;
    return HL_OK;
}

hl_result hl__gl_program_introspect(hl_rhi_device *dev, hl__shader *vs, hl__shader *fs, hl_rhi_program_info **out) {
    hl__gl_make_current(dev);
    hl__gl_program *p = NULL;
    hl_result r = hl__gl_program_find_or_link(dev, vs->be.ptr, fs ? fs->be.ptr : NULL, &p);
    if (r) return r;
    r = hl__introspect(dev, p->name, out);
    hl__gl_check_lost(dev);
    if (!r && dev->lost) {
        hl_rhi_program_info_free(*out);
        *out = NULL;
        return hl__fail(HL_ERR_DEVICE_LOST, "gles3: program introspection: %s", dev->lost_reason);
    }
    return r;
}
