/* gles3 backend: device (EGL context, caps), buffers, textures, views, frame scope (fences)
 * and the backend function table. See gles3_internal.h for the orientation convention. */
#include <stdio.h>
#include <string.h>

#include "gles3_internal.h"

#ifndef GL_TEXTURE_MAX_ANISOTROPY_EXT
#define GL_TEXTURE_MAX_ANISOTROPY_EXT 0x84FE
#define GL_MAX_TEXTURE_MAX_ANISOTROPY_EXT 0x84FF
#endif

/* ---- formats (GLES 3.0 spec, table 3.13) -------------------------------------------------- */
static const hl__gl_format hl__gl_formats[HL_RHI_FORMAT_COUNT] = {
    [HL_RHI_FORMAT_R8_UNORM] = {GL_R8, GL_RED, GL_UNSIGNED_BYTE, 1, HL__GL_FMT_UNORM8, false, false},
    [HL_RHI_FORMAT_RG8_UNORM] = {GL_RG8, GL_RG, GL_UNSIGNED_BYTE, 2, HL__GL_FMT_UNORM8, false, false},
    [HL_RHI_FORMAT_RGBA8_UNORM] = {GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, 4, HL__GL_FMT_UNORM8, false, false},
    [HL_RHI_FORMAT_RGBA8_UNORM_SRGB] = {GL_SRGB8_ALPHA8, GL_RGBA, GL_UNSIGNED_BYTE, 4, HL__GL_FMT_UNORM8, false,
                                        false},
    /* GLES 3.0 has no sized BGRA: stored as RGBA8, bytes swapped on upload and readback. */
    [HL_RHI_FORMAT_BGRA8_UNORM] = {GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, 4, HL__GL_FMT_UNORM8, false, true},
    [HL_RHI_FORMAT_R16_FLOAT] = {GL_R16F, GL_RED, GL_HALF_FLOAT, 1, HL__GL_FMT_FLOAT, true, false},
    [HL_RHI_FORMAT_RG16_FLOAT] = {GL_RG16F, GL_RG, GL_HALF_FLOAT, 2, HL__GL_FMT_FLOAT, true, false},
    [HL_RHI_FORMAT_RGBA16_FLOAT] = {GL_RGBA16F, GL_RGBA, GL_HALF_FLOAT, 4, HL__GL_FMT_FLOAT, true, false},
    [HL_RHI_FORMAT_R32_FLOAT] = {GL_R32F, GL_RED, GL_FLOAT, 1, HL__GL_FMT_FLOAT, false, false},
    [HL_RHI_FORMAT_RG32_FLOAT] = {GL_RG32F, GL_RG, GL_FLOAT, 2, HL__GL_FMT_FLOAT, false, false},
    [HL_RHI_FORMAT_RGBA32_FLOAT] = {GL_RGBA32F, GL_RGBA, GL_FLOAT, 4, HL__GL_FMT_FLOAT, false, false},
    [HL_RHI_FORMAT_R32_UINT] = {GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, 1, HL__GL_FMT_UINT, false, false},
    [HL_RHI_FORMAT_RGBA8_UINT] = {GL_RGBA8UI, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE, 4, HL__GL_FMT_UINT, false, false},
    [HL_RHI_FORMAT_RGB10A2_UNORM] = {GL_RGB10_A2, GL_RGBA, GL_UNSIGNED_INT_2_10_10_10_REV, 4, HL__GL_FMT_PACKED,
                                     false, false},
    [HL_RHI_FORMAT_DEPTH16_UNORM] = {GL_DEPTH_COMPONENT16, GL_DEPTH_COMPONENT, GL_UNSIGNED_SHORT, 1,
                                     HL__GL_FMT_DEPTH, false, false},
    [HL_RHI_FORMAT_DEPTH24_PLUS] = {GL_DEPTH_COMPONENT24, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, 1, HL__GL_FMT_DEPTH,
                                    false, false},
    [HL_RHI_FORMAT_DEPTH24_PLUS_STENCIL8] = {GL_DEPTH24_STENCIL8, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, 2,
                                             HL__GL_FMT_DEPTH, false, false},
    [HL_RHI_FORMAT_DEPTH32_FLOAT] = {GL_DEPTH_COMPONENT32F, GL_DEPTH_COMPONENT, GL_FLOAT, 1, HL__GL_FMT_DEPTH, false,
                                     false},
};

const hl__gl_format *hl__gl_format_get(hl_rhi_format f) {
    if ((unsigned)f >= HL_RHI_FORMAT_COUNT || !hl__gl_formats[f].internal) return NULL;
    return &hl__gl_formats[f];
}

/* ---- device ---------------------------------------------------------------------------------- */
static bool hl__gl_has_ext(hl_rhi_device *dev, const char *name) {
    GLint n = 0;
    HL__GL(dev, glGetIntegerv(GL_NUM_EXTENSIONS, &n));
    for (GLint i = 0; i < n; i++) {
        const char *e = (const char *)HL__GL(dev, glGetStringi(GL_EXTENSIONS, (GLuint)i));
        if (e && strcmp(e, name) == 0) return true;
    }
    return false;
}

static uint32_t hl__geti(hl_rhi_device *dev, GLenum pname) {
    GLint v = 0;
    HL__GL(dev, glGetIntegerv(pname, &v));
    return v > 0 ? (uint32_t)v : 0u;
}

static uint32_t hl__min3(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t m = a < b ? a : b;
    return m < c ? m : c;
}

/* Sample counts a renderbuffer of this format supports (bit n = 1 << n samples; 1x always). */
static uint32_t hl__sample_counts(hl_rhi_device *dev, GLenum internal) {
    uint32_t bits = 1u;
    GLint n = 0;
#ifdef __EMSCRIPTEN__
    n = 16; /* WebGL 2 answers GL_SAMPLES only (the whole list); unused entries stay 0 */
#else
    HL__GL(dev, glGetInternalformativ(GL_RENDERBUFFER, internal, GL_NUM_SAMPLE_COUNTS, 1, &n));
#endif
    if (n <= 0) return bits;
    GLint samples[16] = {0};
    if (n > 16) n = 16;
    HL__GL(dev, glGetInternalformativ(GL_RENDERBUFFER, internal, GL_SAMPLES, n, samples));
    for (GLint i = 0; i < n; i++) {
        GLint s = samples[i];
        if (s > 1 && s <= 32 && (s & (s - 1)) == 0) {
            uint32_t bit = 0;
            while ((1 << bit) < s) bit++;
            bits |= 1u << bit;
        }
    }
    return bits;
}

static void hl__fill_caps(hl_rhi_device *dev, hl__gl_device *g) {
    hl_rhi_caps *c = &dev->caps;
    memset(c, 0, sizeof *c);
    c->backend = HL_RHI_BACKEND_GLES3;
    const char *renderer = (const char *)HL__GL(dev, glGetString(GL_RENDERER));
    const char *version = (const char *)HL__GL(dev, glGetString(GL_VERSION));
    snprintf(c->adapter_name, sizeof c->adapter_name, "%s", renderer ? renderer : "unknown GLES renderer");
    c->clip_depth_negative_one = true; /* GL clip space; glClipControl is not in GLES 3.0 */
    c->independent_blend = false;      /* one glBlendFunc / glColorMask for all draw buffers */
    snprintf(c->driver_info, sizeof c->driver_info, "%s", version ? version : "OpenGL ES");

    g->gl_major = (GLint)hl__geti(dev, GL_MAJOR_VERSION);
    g->gl_minor = (GLint)hl__geti(dev, GL_MINOR_VERSION);
    bool es32 = g->gl_major > 3 || (g->gl_major == 3 && g->gl_minor >= 2);
    g->ext_color_buffer_float = es32 || hl__gl_has_ext(dev, "GL_EXT_color_buffer_float");
    g->ext_color_buffer_half_float = g->ext_color_buffer_float || hl__gl_has_ext(dev, "GL_EXT_color_buffer_half_float");
    g->ext_float_blend = hl__gl_has_ext(dev, "GL_EXT_float_blend");
    g->float_linear = hl__gl_has_ext(dev, "GL_OES_texture_float_linear");
    g->aniso = hl__gl_has_ext(dev, "GL_EXT_texture_filter_anisotropic");
    if (g->aniso) HL__GL(dev, glGetFloatv(GL_MAX_TEXTURE_MAX_ANISOTROPY_EXT, &g->max_aniso));

    /* Features: GLES 3.0 has no compute, storage, indirect draws, 1D textures, base vertex,
     * first instance or asynchronous map. */
    c->features = g->float_linear ? HL_RHI_FEATURE_FLOAT32_FILTERABLE : 0u;

    /* Texture units: the last combined unit is kept for out-of-pass work. */
    uint32_t combined = hl__geti(dev, GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS);
    if (combined > HL__GL_MAX_UNITS) combined = HL__GL_MAX_UNITS;
    g->scratch_unit = combined ? combined - 1u : 0u;
    g->draw_units = g->scratch_unit;
    uint32_t ubo_bindings = hl__geti(dev, GL_MAX_UNIFORM_BUFFER_BINDINGS);
    g->ubo_slots = ubo_bindings < HL__GL_MAX_UBO_SLOTS ? ubo_bindings : HL__GL_MAX_UBO_SLOTS;

    /* Limits: GL's values clamped to the RHI's arrays and to WebGPU's default (portable) limits. */
    hl_rhi_limits *l = &c->limits;
    l->max_texture_dimension_2d = hl__min3(hl__geti(dev, GL_MAX_TEXTURE_SIZE), 8192u, UINT32_MAX);
    l->max_texture_array_layers = hl__min3(hl__geti(dev, GL_MAX_ARRAY_TEXTURE_LAYERS), 256u, UINT32_MAX);
    l->max_bind_groups = HL_RHI_MAX_BIND_GROUPS;
    l->max_bindings_per_group = HL_RHI_MAX_BINDINGS;
    l->max_uniform_buffers_per_stage = hl__min3(hl__geti(dev, GL_MAX_VERTEX_UNIFORM_BLOCKS),
                                                hl__geti(dev, GL_MAX_FRAGMENT_UNIFORM_BLOCKS), 12u);
    if (l->max_uniform_buffers_per_stage > g->ubo_slots) l->max_uniform_buffers_per_stage = g->ubo_slots;
    uint32_t tex_units = hl__min3(hl__geti(dev, GL_MAX_TEXTURE_IMAGE_UNITS),
                                  hl__geti(dev, GL_MAX_VERTEX_TEXTURE_IMAGE_UNITS), 16u);
    if (tex_units > g->draw_units) tex_units = g->draw_units;
    l->max_sampled_textures_per_stage = tex_units;
    l->max_samplers_per_stage = tex_units;
    l->max_storage_buffers_per_stage = 0;
    l->max_uniform_buffer_binding_size = hl__min3(hl__geti(dev, GL_MAX_UNIFORM_BLOCK_SIZE), 65536u, UINT32_MAX);
    l->max_storage_buffer_binding_size = 0;
    uint32_t align = hl__geti(dev, GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT);
    l->min_uniform_buffer_offset_alignment = align > 256u ? align : 256u;
    /* Storage is absent; 256 keeps the value a valid power of two for code that divides by it. */
    l->min_storage_buffer_offset_alignment = 256u;
    uint32_t attribs = hl__geti(dev, GL_MAX_VERTEX_ATTRIBS);
    l->max_vertex_buffers = hl__min3(attribs, HL_RHI_MAX_VERTEX_BUFFERS, 8u);
    l->max_vertex_attributes = hl__min3(attribs, HL_RHI_MAX_VERTEX_ATTRIBUTES, 16u);
    l->max_vertex_buffer_array_stride = 2048u; /* GLES 3.1's minimum MAX_VERTEX_ATTRIB_STRIDE */
    l->max_color_attachments = hl__min3(hl__geti(dev, GL_MAX_DRAW_BUFFERS), hl__geti(dev, GL_MAX_COLOR_ATTACHMENTS),
                                        HL_RHI_MAX_COLOR_ATTACHMENTS);

    /* Per-format capabilities. MSAA textures are renderbuffers, which cannot be sampled, so no
     * format claims sampled multisampling; sample_counts are for render attachments. */
    for (uint32_t f = 1; f < HL_RHI_FORMAT_COUNT; f++) {
        const hl__gl_format *gf = hl__gl_format_get((hl_rhi_format)f);
        if (!gf) continue;
        hl_rhi_format_caps *fc = &c->formats[f];
        uint32_t flags = HL_RHI_FORMAT_CAP_SAMPLED;
        bool renderable = false;
        switch (gf->cls) {
        case HL__GL_FMT_UNORM8:
        case HL__GL_FMT_PACKED:
            flags |= HL_RHI_FORMAT_CAP_FILTERABLE | HL_RHI_FORMAT_CAP_BLENDABLE | HL_RHI_FORMAT_CAP_RESOLVE;
            renderable = true;
            break;
        case HL__GL_FMT_FLOAT:
            if (gf->half) {
                flags |= HL_RHI_FORMAT_CAP_FILTERABLE;
                renderable = g->ext_color_buffer_half_float;
                if (renderable) flags |= HL_RHI_FORMAT_CAP_BLENDABLE | HL_RHI_FORMAT_CAP_RESOLVE;
            } else {
                if (g->float_linear) flags |= HL_RHI_FORMAT_CAP_FILTERABLE;
                renderable = g->ext_color_buffer_float;
                if (renderable && g->ext_float_blend) flags |= HL_RHI_FORMAT_CAP_BLENDABLE;
            }
            break;
        case HL__GL_FMT_UINT: renderable = true; break;
        case HL__GL_FMT_DEPTH: renderable = true; break;
        default: break;
        }
        if (renderable) flags |= HL_RHI_FORMAT_CAP_RENDERABLE;
        fc->flags = flags;
        fc->sample_counts = 1u;
        /* Integer formats: single-sample only (conservative, as WebGPU's tier-1 formats). */
        if (renderable && gf->cls != HL__GL_FMT_UINT) fc->sample_counts = hl__sample_counts(dev, gf->internal);
    }
}

static hl_result hl__gl_device_create(hl_rhi_device *dev, const hl_rhi_device_desc *desc) {
    (void)desc;
    hl__gl_device *g = hl__calloc(1, sizeof *g);
    if (!g) {
        hl__gl_drop_kept_display(dev);
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "gles3: out of memory for the device");
    }
    g->display = EGL_NO_DISPLAY;
    g->context = EGL_NO_CONTEXT;
    g->pbuffer = EGL_NO_SURFACE;
    g->window = EGL_NO_SURFACE;
    dev->be = g;
    hl_result r = hl__gl_egl_open(dev, g);
    if (r) {
        hl__free(g);
        dev->be = NULL;
        return r;
    }
    g->zeros = hl__calloc(1, HL__GL_ZERO_BYTES);
    if (!g->zeros) {
        hl__gl_egl_close(dev, g);
        hl__free(g);
        dev->be = NULL;
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "gles3: out of memory for the zero block");
    }
    g->next_shader_uid = 1;
    hl__gl_state_init(dev);
    hl__fill_caps(dev, g);
    while (HL__GL(dev, glGetError()) != GL_NO_ERROR) {
    }
    return HL_OK;
}

static GLenum hl__gl_client_wait(hl_rhi_device *dev, GLsync sync, uint64_t deadline);

static void hl__gl_device_destroy(hl_rhi_device *dev) {
    hl__gl_device *g = hl__gl(dev);
    if (!g) { /* after a failed recreate: what it kept of the old device goes */
        hl__gl_drop_kept_display(dev);
        return;
    }
    hl__gl_make_current(dev);
    /* Is the GPU done with every command (aborted frames' too)? Waits until the destroy
     * deadline at most. */
    bool idle = dev->lost; /* a lost context runs nothing more (its GL calls reach no context) */
    GLsync last = idle ? NULL : HL__GL(dev, glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0));
    if (last) {
        GLenum w = hl__gl_client_wait(dev, last, dev->destroy_deadline);
        idle = w == GL_ALREADY_SIGNALED || w == GL_CONDITION_SATISFIED;
        HL__GL(dev, glDeleteSync(last));
    }
    for (uint32_t i = 0; i < g->fence_count; i++)
        HL__GL(dev, glDeleteSync(g->fences[(g->fence_head + i) % HL__GL_FENCES].sync));
    g->fence_count = 0;
    hl__gl_caches_release(dev);
    hl__gl_programs_release(dev);
    if (g->depth_only_fs) HL__GL(dev, glDeleteShader(g->depth_only_fs));
    if (g->mip_program) HL__GL(dev, glDeleteProgram(g->mip_program));
    if (g->mip_vao) HL__GL(dev, glDeleteVertexArrays(1, &g->mip_vao));
    if (g->mip_sampler) HL__GL(dev, glDeleteSamplers(1, &g->mip_sampler));
    if (idle) {
        hl__gl_egl_close(dev, g);
    } else {
        hl__gl_egl_abandon(dev, g);
        hl__fail(HL_ERR_TIMEOUT, "gles3: hl_rhi_device_destroy: the GPU was still busy at the wait timeout; the "
                                 "EGL context is left to the driver (destroying it would block until the GPU "
                                 "finished)");
    }
    hl__free(g->layouts);
    hl__gl_bundle_recorder_free(dev);
    hl__free(g->scratch);
    hl__free(g->zeros);
    hl__free(g);
    dev->be = NULL;
}

/* Drains GL errors; returns the first one (GL_NO_ERROR when none). */
static GLenum hl__gl_error(hl_rhi_device *dev) {
    GLenum first = HL__GL(dev, glGetError());
    if (first != GL_NO_ERROR)
        while (HL__GL(dev, glGetError()) != GL_NO_ERROR) {
        }
    return first;
}

static hl_result hl__gl_error_result(GLenum e, const char *what) {
    if (e == GL_OUT_OF_MEMORY) return hl__fail(HL_ERR_OUT_OF_MEMORY, "gles3: %s: GL_OUT_OF_MEMORY", what);
    return hl__fail(HL_ERR_BACKEND, "gles3: %s: GL error 0x%04x", what, (unsigned)e);
}

/* ---- buffers --------------------------------------------------------------------------------- */
static hl_result hl__zero_fill(hl_rhi_device *dev, GLenum target, uint64_t offset, uint64_t size) {
    hl__gl_device *g = hl__gl(dev);
    while (size) {
        uint64_t n = size < HL__GL_ZERO_BYTES ? size : HL__GL_ZERO_BYTES;
        HL__GL(dev, glBufferSubData(target, (GLintptr)offset, (GLsizeiptr)n, g->zeros));
        offset += n;
        size -= n;
    }
    return HL_OK;
}

static hl_result hl__gl_buffer_create(hl_rhi_device *dev, hl__buffer *buf, const void *initial_data) {
    hl__gl_make_current(dev);
    GLuint name = 0;
    HL__GL(dev, glGenBuffers(1, &name));
    if (!name) return hl__fail(HL_ERR_BACKEND, "gles3: glGenBuffers returned no name");
#ifdef __EMSCRIPTEN__
    /* WebGL 2 types a buffer at its first binding, and one first bound to a copy target can never
     * hold indices: an index buffer is bound as one first (on the default vertex array, which
     * draws never use). */
    if (buf->desc.usage & HL_RHI_BUFFER_USAGE_INDEX) {
        hl__gl_bind_vao(dev, 0);
        HL__GL(dev, glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, name));
        HL__GL(dev, glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0));
    }
#endif
    hl__gl_bind_buffer(dev, GL_COPY_WRITE_BUFFER, name);
    GLenum usage = (buf->desc.usage & HL_RHI_BUFFER_USAGE_MAP_READ) ? GL_DYNAMIC_READ
                   : (buf->desc.usage & HL_RHI_BUFFER_USAGE_COPY_DST) ? GL_DYNAMIC_DRAW
                                                                       : GL_STATIC_DRAW;
    /* WebGPU buffers start zeroed; GL's glBufferData(NULL) content is undefined. The zeros go in
     * with the allocation: on NVIDIA's GL (580.159), a buffer made by glBufferData(NULL) and then
     * zero-filled by glBufferSubData lost later glBufferSubData writes of the same frame to the
     * first zero chunk (px_render_threads: the grown object buffer's first 256 blocks read back as
     * zeros); only where no zero block can be had is it filled in chunks, and then finished. */
    const void *init = initial_data;
    void *zeros = NULL;
    if (!init && buf->desc.size <= HL__GL_ZERO_BYTES) init = hl__gl(dev)->zeros;
    else if (!init && buf->desc.size <= SIZE_MAX) init = zeros = hl__calloc(1, (size_t)buf->desc.size);
    HL__GL(dev, glBufferData(GL_COPY_WRITE_BUFFER, (GLsizeiptr)buf->desc.size, init, usage));
    hl__free(zeros);
    if (!init) {
        hl__zero_fill(dev, GL_COPY_WRITE_BUFFER, 0, buf->desc.size);
        HL__GL(dev, glFinish());
    }
    GLenum e = hl__gl_error(dev);
    if (e != GL_NO_ERROR) {
        hl__gl_forget_buffer(dev, name);
        HL__GL(dev, glDeleteBuffers(1, &name));
        return hl__gl_error_result(e, "glBufferData (buffer_create)");
    }
    buf->be.u64 = 0;
    buf->be.u32[0] = name;
    return HL_OK;
}

static void hl__gl_buffer_destroy(hl_rhi_device *dev, hl__buffer *buf) {
    GLuint name = buf->be.u32[0];
    if (!name || !dev->be) return;
    hl__gl_make_current(dev);
    hl__gl_caches_forget_buffer(dev, name);
    hl__gl_forget_buffer(dev, name);
    HL__GL(dev, glDeleteBuffers(1, &name));
    buf->be.u64 = 0;
}

static hl_result hl__gl_buffer_write(hl_rhi_device *dev, hl__buffer *buf, uint64_t offset, const void *data,
                                     uint64_t size) {
    hl__gl_make_current(dev);
    hl__gl_bind_buffer(dev, GL_COPY_WRITE_BUFFER, buf->be.u32[0]);
    HL__GL(dev, glBufferSubData(GL_COPY_WRITE_BUFFER, (GLintptr)offset, (GLsizeiptr)size, data));
    return HL_OK;
}

static hl_result hl__gl_buffer_read(hl_rhi_device *dev, hl__buffer *buf, uint64_t offset, void *dst,
                                    uint64_t size) {
    hl__gl_make_current(dev);
    /* mapping would block until the GPU is done with the buffer: wait (bounded) first */
    hl_result r = hl__gl_sync_for_read(dev, "buffer_read");
    if (r) return r;
    hl__gl_bind_buffer(dev, GL_COPY_READ_BUFFER, buf->be.u32[0]);
#ifdef __EMSCRIPTEN__
    HL__GL(dev, glGetBufferSubData(GL_COPY_READ_BUFFER, (GLintptr)offset, (GLsizeiptr)size, dst));
    GLenum e = hl__gl_error(dev);
    return e == GL_NO_ERROR ? HL_OK : hl__gl_error_result(e, "glGetBufferSubData (buffer_read)");
#else
    void *p = HL__GL(dev, glMapBufferRange(GL_COPY_READ_BUFFER, (GLintptr)offset, (GLsizeiptr)size, GL_MAP_READ_BIT));
    if (!p) return hl__gl_error_result(hl__gl_error(dev), "glMapBufferRange (buffer_read)");
    memcpy(dst, p, (size_t)size);
    if (!HL__GL(dev, glUnmapBuffer(GL_COPY_READ_BUFFER)))
        return hl__fail(HL_ERR_BACKEND, "gles3: glUnmapBuffer reported corrupted contents (buffer_read)");
    return HL_OK;
#endif
}

/* ---- textures -------------------------------------------------------------------------------- */
hl_result hl__gl_texture_create(hl_rhi_device *dev, hl__texture *tex) {
    hl__gl_device *g = hl__gl(dev);
    const hl_rhi_texture_desc *d = &tex->desc;
    const hl__gl_format *gf = hl__gl_format_get(d->format);
    if (!gf) return hl__fail(HL_ERR_UNSUPPORTED, "gles3: texture format %d has no GLES 3.0 mapping", (int)d->format);
    if (d->dimension == HL_RHI_TEXTURE_1D)
        return hl__fail(HL_ERR_UNSUPPORTED, "gles3: 1D textures do not exist in OpenGL ES 3.0 (desc.dimension)");
    hl__gl_make_current(dev);
    hl__gl_texture *t = hl__calloc(1, sizeof *t);
    if (!t) return hl__fail(HL_ERR_OUT_OF_MEMORY, "gles3: out of memory for a texture");
    t->format = d->format;
    t->levels = d->mip_levels ? d->mip_levels : 1u;
    t->layers = d->depth_or_layers ? d->depth_or_layers : 1u;
    GLsizei w = (GLsizei)d->width, h = (GLsizei)d->height;
    if (d->sample_count > 1) {
        /* GLES 3.0 has no multisample textures: a multisample renderbuffer, attachable only. */
        if ((d->usage & HL_RHI_TEXTURE_USAGE_SAMPLED) || d->dimension != HL_RHI_TEXTURE_2D || t->layers != 1 ||
            t->levels != 1) {
            hl__free(t);
            return hl__fail(HL_ERR_UNSUPPORTED,
                            "gles3: multisampled textures must be single-layer, single-mip 2D render attachments "
                            "without SAMPLED usage (OpenGL ES 3.0 has no multisample textures)");
        }
        t->renderbuffer = true;
        t->target = GL_RENDERBUFFER;
        HL__GL(dev, glGenRenderbuffers(1, &t->name));
        HL__GL(dev, glBindRenderbuffer(GL_RENDERBUFFER, t->name));
        HL__GL(dev, glRenderbufferStorageMultisample(GL_RENDERBUFFER, (GLsizei)d->sample_count, gf->internal, w, h));
        HL__GL(dev, glBindRenderbuffer(GL_RENDERBUFFER, 0));
    } else {
        switch (d->dimension) {
        case HL_RHI_TEXTURE_3D: t->target = GL_TEXTURE_3D; t->slot = HL__GL_T3D; break;
        case HL_RHI_TEXTURE_CUBE:
            if (t->layers != 6) {
                hl__free(t);
                return hl__fail(HL_ERR_UNSUPPORTED, "gles3: cube arrays do not exist in OpenGL ES 3.0 "
                                                    "(desc.depth_or_layers must be 6 for a cube)");
            }
            t->target = GL_TEXTURE_CUBE_MAP;
            t->slot = HL__GL_TCUBE;
            break;
        case HL_RHI_TEXTURE_2D_ARRAY: t->target = GL_TEXTURE_2D_ARRAY; t->slot = HL__GL_T2DA; break;
        default:
            t->target = t->layers > 1 ? GL_TEXTURE_2D_ARRAY : GL_TEXTURE_2D;
            t->slot = t->layers > 1 ? HL__GL_T2DA : HL__GL_T2D;
            break;
        }
        HL__GL(dev, glGenTextures(1, &t->name));
        hl__gl_bind_texture(dev, g->scratch_unit, t->slot, t->target, t->name);
        if (t->target == GL_TEXTURE_2D || t->target == GL_TEXTURE_CUBE_MAP) {
            HL__GL(dev, glTexStorage2D(t->target, (GLsizei)t->levels, gf->internal, w, h));
        } else {
            HL__GL(dev, glTexStorage3D(t->target, (GLsizei)t->levels, gf->internal, w, h, (GLsizei)t->layers));
        }
        t->max_level = (GLint)t->levels - 1;
        HL__GL(dev, glTexParameteri(t->target, GL_TEXTURE_MAX_LEVEL, t->max_level));
    }
    GLenum e = hl__gl_error(dev);
    if (e != GL_NO_ERROR) {
        if (t->renderbuffer) {
            HL__GL(dev, glDeleteRenderbuffers(1, &t->name));
        } else {
            hl__gl_forget_texture(dev, t->name);
            HL__GL(dev, glDeleteTextures(1, &t->name));
        }
        hl__free(t);
        return hl__gl_error_result(e, "texture storage (texture_create)");
    }
    tex->be.ptr = t;
    return HL_OK;
}

void hl__gl_texture_destroy(hl_rhi_device *dev, hl__texture *tex) {
    hl__gl_texture *t = hl__gl_tex(tex);
    if (!t) return;
    if (tex->surface) { /* the surface's backbuffer: the surface deletes it */
        tex->be.ptr = NULL;
        return;
    }
    if (dev->be) {
        hl__gl_make_current(dev);
        hl__gl_caches_forget_texture(dev, t->name);
        if (t->renderbuffer) {
            HL__GL(dev, glDeleteRenderbuffers(1, &t->name));
        } else {
            hl__gl_forget_texture(dev, t->name);
            HL__GL(dev, glDeleteTextures(1, &t->name));
        }
    }
    hl__free(t);
    tex->be.ptr = NULL;
}

static hl_result hl__gl_texture_write(hl_rhi_device *dev, hl__texture *tex, const hl_rhi_texture_region *region,
                                      const void *data, uint32_t row_pitch) {
    hl__gl_make_current(dev);
    hl__gl_bind_buffer(dev, GL_PIXEL_UNPACK_BUFFER, 0);
    return hl__gl_upload(dev, hl__gl_tex(tex), region, data, row_pitch);
}

static hl_result hl__gl_texture_read(hl_rhi_device *dev, hl__texture *tex, const hl_rhi_texture_region *region,
                                     void *dst, uint32_t dst_row_pitch) {
    hl__gl_make_current(dev);
    hl__gl_texture *t = hl__gl_tex(tex);
    if (hl__gl_format_get(t->format)->cls == HL__GL_FMT_DEPTH)
        return hl__fail(HL_ERR_UNSUPPORTED, "gles3: OpenGL ES 3.0 cannot read back depth textures");
    /* glReadPixels into memory would block until the GPU finished rendering: wait (bounded) */
    hl_result r = hl__gl_sync_for_read(dev, "texture_read");
    if (r) return r;
    uint32_t texel = hl__format_texel_size(t->format);
    if (!dst_row_pitch) dst_row_pitch = region->width * texel;
    uint32_t layers = region->depth_or_layers ? region->depth_or_layers : 1u;
    hl__gl_bind_buffer(dev, GL_PIXEL_PACK_BUFFER, 0);
    for (uint32_t l = 0; l < layers; l++) {
        hl__gl_fbo_key key;
        memset(&key, 0, sizeof key);
        hl__gl_attach a = hl__gl_attach_of(t, region->mip_level, region->z_or_layer + l);
        key.color[0] = a;
        key.color_count = 1;
        GLuint fbo = hl__gl_fbo_get(dev, &key);
        if (!fbo) return HL_ERR_BACKEND;
        hl__gl_bind_read_fbo(dev, fbo);
        uint8_t *out = (uint8_t *)dst + (size_t)l * dst_row_pitch * region->height;
        r = hl__gl_read_rect(dev, t, region->x, region->y, region->width, region->height, out, dst_row_pitch);
        if (r) return r;
    }
    return HL_OK;
}

/* Views need no GL object: GLES 3.0 has no views. A view is its core record (texture, base mip,
 * layer range), applied at bind time through base/max level and at attach time through
 * glFramebufferTexture*. */
static hl_result hl__gl_view_create(hl_rhi_device *dev, hl__texture *tex, hl__texture_view *view) {
    (void)dev;
    (void)tex;
    view->be.u64 = 0;
    return HL_OK;
}

static void hl__gl_view_destroy(hl_rhi_device *dev, hl__texture_view *view) {
    (void)dev;
    (void)view;
}

/* ---- layouts: nothing native (slots are assigned per program, see gles3_pipeline.c) ---------- */
static hl_result hl__gl_bgl_create(hl_rhi_device *dev, const hl__bind_group_layout *layout, hl__native *be) {
    (void)dev;
    (void)layout;
    be->u64 = 0;
    return HL_OK;
}

static void hl__gl_bgl_destroy(hl_rhi_device *dev, hl__native be) {
    (void)dev;
    (void)be;
}

static hl_result hl__gl_pipeline_layout_create(hl_rhi_device *dev, const hl__pipeline_layout *layout,
                                               hl__bind_group_layout *const *groups, hl__native *be) {
    /* Uniform blocks of all groups share one set of binding points. */
    uint32_t ubos = 0;
    for (uint32_t i = 0; i < layout->group_count; i++) {
        if (!groups || !groups[i]) continue;
        for (uint32_t e = 0; e < groups[i]->entry_count; e++)
            ubos += groups[i]->entries[e].type == HL_RHI_BINDING_UNIFORM_BUFFER;
    }
    if (ubos > hl__gl(dev)->ubo_slots)
        return hl__fail(HL_ERR_UNSUPPORTED, "gles3: the pipeline layout has %u uniform buffers, GL_MAX_UNIFORM_BUFFER_BINDINGS is %u",
                        ubos, hl__gl(dev)->ubo_slots);
    be->u64 = 0;
    return HL_OK;
}

static void hl__gl_pipeline_layout_destroy(hl_rhi_device *dev, hl__native be) {
    (void)dev;
    (void)be;
}

static hl_result hl__gl_compute_pipeline_create(hl_rhi_device *dev, hl__compute_pipeline *p) {
    (void)dev;
    (void)p;
    return hl__fail(HL_ERR_UNSUPPORTED, "gles3: OpenGL ES 3.0 has no compute shaders");
}

static void hl__gl_compute_pipeline_destroy(hl_rhi_device *dev, hl__compute_pipeline *p) {
    (void)dev;
    (void)p;
}

/* ---- frame scope ----------------------------------------------------------------------------- */
static void hl__gl_abort_frame(hl_rhi_device *dev, uint64_t serial);

/* HL_ERR_DEVICE_LOST when the context was lost (hl__gl_check_lost has said why). */
static hl_result hl__gl_lost_check(hl_rhi_device *dev) {
    hl__gl_poll_lost(dev, false);
    return dev->lost ? HL_ERR_DEVICE_LOST : HL_OK;
}

static hl_result hl__gl_begin_frame(hl_rhi_device *dev, uint64_t serial) {
    (void)serial;
    hl__gl_make_current(dev);
    return HL_OK;
}

/* Waits for a fence until the deadline, in slices of at most HL__GL_WAIT_SLICE_NS: a driver
 * that rounds or ignores long timeouts cannot block past the deadline by more than a slice.
 * Returns glClientWaitSync's answer (GL_TIMEOUT_EXPIRED once the deadline passed). */
#define HL__GL_WAIT_SLICE_NS 10000000u
static GLenum hl__gl_client_wait(hl_rhi_device *dev, GLsync sync, uint64_t deadline) {
#ifdef __EMSCRIPTEN__
    /* WebGL 2: a client wait may not block (its timeout must be 0) and a fence's status changes
     * only between tasks of the page, so a wait loop would never end. glFinish returns once the
     * GPU has run every command so far (a read, readPixels included, is synchronous anyway):
     * the fence is as good as signalled. */
    (void)sync;
    (void)deadline;
    HL__GL(dev, glFinish());
    return GL_ALREADY_SIGNALED;
#else
    GLbitfield flags = GL_SYNC_FLUSH_COMMANDS_BIT;
    for (;;) {
        uint64_t left = hl__time_left(deadline);
        GLuint64 slice = left < HL__GL_WAIT_SLICE_NS ? left : HL__GL_WAIT_SLICE_NS;
        GLenum r = HL__GL(dev, glClientWaitSync(sync, flags, slice));
        flags = 0;
        if (r != GL_TIMEOUT_EXPIRED || left == 0) return r;
    }
#endif
}

hl_result hl__gl_sync_for_read(hl_rhi_device *dev, const char *what) {
    if (hl__gl_lost_check(dev)) return HL_ERR_DEVICE_LOST;
    GLsync sync = HL__GL(dev, glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0));
    if (!sync)
        return hl__fail(HL_ERR_BACKEND, "gles3: %s: glFenceSync failed (0x%04x)", what,
                        (unsigned)HL__GL(dev, glGetError()));
    GLenum r = hl__gl_client_wait(dev, sync, hl__deadline(dev->wait_timeout_ns));
    HL__GL(dev, glDeleteSync(sync)); /* an unsignalled fence is deleted once it signals */
    if (r == GL_WAIT_FAILED)
        return hl__fail(HL_ERR_BACKEND, "gles3: %s: glClientWaitSync failed (0x%04x)", what,
                        (unsigned)HL__GL(dev, glGetError()));
    if (r == GL_TIMEOUT_EXPIRED) {
        char t[32];
        return hl__fail(HL_ERR_TIMEOUT,
                        "gles3: %s: timed out after %s waiting for the GPU to finish the commands before the "
                        "read; the work stays queued: read again later or raise the device's wait timeout",
                        what, hl__duration_text(dev->wait_timeout_ns, t, sizeof t));
    }
    return HL_OK;
}

/* Pops signalled fences in order; the fences of serials <= until_serial are waited for, all of
 * them within timeout_ns. */
static hl_result hl__gl_retire(hl_rhi_device *dev, uint64_t until_serial, uint64_t timeout_ns) {
    hl__gl_device *g = hl__gl(dev);
    uint64_t deadline = until_serial ? hl__deadline(timeout_ns) : 0;
    bool finished = false; /* WebGL 2: a wait ran glFinish, so every fence so far is as good as signalled */
    while (g->fence_count) {
        uint32_t i = g->fence_head;
        bool wait = g->fences[i].serial <= until_serial;
        GLenum r = finished ? GL_ALREADY_SIGNALED
                   : wait   ? hl__gl_client_wait(dev, g->fences[i].sync, deadline)
                            : HL__GL(dev, glClientWaitSync(g->fences[i].sync, 0, 0));
#ifdef __EMSCRIPTEN__
        finished |= wait;
#endif
        if (r == GL_WAIT_FAILED) return hl__fail(HL_ERR_BACKEND, "gles3: glClientWaitSync failed (0x%04x)", (unsigned)HL__GL(dev, glGetError()));
        if (r == GL_TIMEOUT_EXPIRED) {
            char t[32];
            if (wait)
                return hl__fail(HL_ERR_TIMEOUT, "gles3: the fence of frame %llu was not signalled within %s",
                                (unsigned long long)g->fences[i].serial, hl__duration_text(timeout_ns, t, sizeof t));
            break;
        }
        g->completed_serial = g->fences[i].serial;
        HL__GL(dev, glDeleteSync(g->fences[i].sync));
        g->fence_head = (g->fence_head + 1u) % HL__GL_FENCES;
        g->fence_count--;
    }
    /* Serials between fences (aborted frames) complete with the frame before the next fence. */
    if (!g->fence_count) {
        g->completed_serial = g->last_serial;
    } else {
        uint64_t next = g->fences[g->fence_head].serial;
        if (next - 1u > g->completed_serial) g->completed_serial = next - 1u;
    }
    return HL_OK;
}

static hl_result hl__gl_end_frame(hl_rhi_device *dev, uint64_t serial) {
    hl__gl_device *g = hl__gl(dev);
    if (hl__gl_lost_check(dev)) return HL_ERR_DEVICE_LOST; /* nothing is submitted */
    hl__gl_make_current(dev);
    if (g->fence_count == HL__GL_FENCES) {
        /* A full ring waits for the oldest frame (bounded; on a timeout the frame's commands
         * have run but it gets no submission, like an aborted frame). */
        hl_result r = hl__gl_retire(dev, g->fences[g->fence_head].serial, dev->wait_timeout_ns);
        if (r) {
            if (r == HL_ERR_TIMEOUT) {
                char detail[200];
                snprintf(detail, sizeof detail, "%s", hl_last_error());
                r = hl__fail(HL_ERR_TIMEOUT, "gles3: end_frame: %u frames are in flight and the oldest did not "
                             "complete: %s", (unsigned)HL__GL_FENCES, detail);
            }
            hl__gl_abort_frame(dev, serial);
            return r;
        }
    }
    GLsync sync = HL__GL(dev, glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0));
    HL__GL(dev, glFlush());
    if (!sync) return hl__fail(HL_ERR_BACKEND, "gles3: glFenceSync failed (0x%04x)", (unsigned)HL__GL(dev, glGetError()));
    uint32_t i = (g->fence_head + g->fence_count) % HL__GL_FENCES;
    g->fences[i].serial = serial;
    g->fences[i].sync = sync;
    g->fence_count++;
    g->last_serial = serial;
    return HL_OK;
}

static void hl__gl_abort_frame(hl_rhi_device *dev, uint64_t serial) {
    hl__gl_device *g = hl__gl(dev);
    /* The commands already ran; only the command state is dropped (bindings re-applied later). */
    hl__gl_mark_all_dirty(g);
    if (serial > g->last_serial) g->last_serial = serial;
    if (!g->fence_count) g->completed_serial = g->last_serial;
}

static hl_result hl__gl_poll(hl_rhi_device *dev, uint64_t *completed_serial) {
    hl__gl_make_current(dev);
    hl_result r = hl__gl_retire(dev, 0, 0);
    *completed_serial = hl__gl(dev)->completed_serial;
    return r;
}

static hl_result hl__gl_wait(hl_rhi_device *dev, uint64_t serial, uint64_t timeout_ns) {
    if (hl__gl_lost_check(dev)) return HL_ERR_DEVICE_LOST;
    hl__gl_make_current(dev);
    hl__gl_device *g = hl__gl(dev);
    /* Fences signal in order: waiting for the first fence at or after `serial` covers it. */
    uint64_t target = serial;
    for (uint32_t k = 0; k < g->fence_count; k++) {
        uint64_t s = g->fences[(g->fence_head + k) % HL__GL_FENCES].serial;
        if (s >= serial) {
            target = s;
            break;
        }
    }
    return hl__gl_retire(dev, target, timeout_ns);
}

/* ---- compute: absent ------------------------------------------------------------------------- */
static hl_result hl__gl_begin_compute_pass(hl_rhi_cmd *cmd, const char *label) {
    (void)cmd;
    (void)label;
    return hl__fail(HL_ERR_UNSUPPORTED, "gles3: OpenGL ES 3.0 has no compute passes");
}
static hl_result hl__gl_end_compute_pass(hl_rhi_cmd *cmd) {
    (void)cmd;
    return hl__fail(HL_ERR_UNSUPPORTED, "gles3: OpenGL ES 3.0 has no compute passes");
}
static void hl__gl_set_compute_pipeline(hl_rhi_cmd *cmd, hl__compute_pipeline *p) {
    (void)cmd;
    (void)p;
}
static void hl__gl_dispatch(hl_rhi_cmd *cmd, uint32_t x, uint32_t y, uint32_t z) {
    (void)cmd;
    (void)x;
    (void)y;
    (void)z;
}
static void hl__gl_dispatch_indirect(hl_rhi_cmd *cmd, hl__buffer *buf, uint64_t offset) {
    (void)cmd;
    (void)buf;
    (void)offset;
}

const hl__rhi_backend_fns hl__rhi_gles3_backend = {
    .backend = HL_RHI_BACKEND_GLES3,
    .name = "gles3",
    .probe = hl__gl_probe,
    .device_create = hl__gl_device_create,
    .device_destroy = hl__gl_device_destroy,
    .buffer_create = hl__gl_buffer_create,
    .buffer_destroy = hl__gl_buffer_destroy,
    .buffer_write = hl__gl_buffer_write,
    .buffer_read = hl__gl_buffer_read,
    .texture_create = hl__gl_texture_create,
    .texture_destroy = hl__gl_texture_destroy,
    .texture_write = hl__gl_texture_write,
    .texture_read = hl__gl_texture_read,
    .view_create = hl__gl_view_create,
    .view_destroy = hl__gl_view_destroy,
    .sampler_create = hl__gl_sampler_create,
    .sampler_destroy = hl__gl_sampler_destroy,
    .bgl_create = hl__gl_bgl_create,
    .bgl_destroy = hl__gl_bgl_destroy,
    .pipeline_layout_create = hl__gl_pipeline_layout_create,
    .pipeline_layout_destroy = hl__gl_pipeline_layout_destroy,
    .render_pipeline_create = hl__gl_render_pipeline_create,
    .render_pipeline_destroy = hl__gl_render_pipeline_destroy,
    .shader_create = hl__gl_shader_create,
    .shader_destroy = hl__gl_shader_destroy,
    .bind_group_create = hl__gl_bind_group_create,
    .bind_group_destroy = hl__gl_bind_group_destroy,
    .compute_pipeline_create = hl__gl_compute_pipeline_create,
    .compute_pipeline_destroy = hl__gl_compute_pipeline_destroy,
    .begin_frame = hl__gl_begin_frame,
    .end_frame = hl__gl_end_frame,
    .abort_frame = hl__gl_abort_frame,
    .poll = hl__gl_poll,
    .wait = hl__gl_wait,
    .begin_render_pass = hl__gl_begin_render_pass,
    .end_render_pass = hl__gl_end_render_pass,
    .set_pipeline = hl__gl_set_pipeline,
    .set_bind_group = hl__gl_set_bind_group,
    .set_vertex_buffer = hl__gl_set_vertex_buffer,
    .set_index_buffer = hl__gl_set_index_buffer,
    .set_viewport = hl__gl_set_viewport,
    .set_scissor = hl__gl_set_scissor,
    .set_blend_constant = hl__gl_set_blend_constant,
    .set_stencil_reference = hl__gl_set_stencil_reference,
    .draw = hl__gl_draw,
    .draw_indexed = hl__gl_draw_indexed,
    .draw_run = hl__gl_draw_run,
    .bundle_fns = &hl__rhi_gles3_bundle_fns,
    .bundle_begin = hl__gl_bundle_begin,
    .bundle_end = hl__gl_bundle_end,
    .bundle_destroy = hl__gl_bundle_destroy,
    .execute_bundles = hl__gl_execute_bundles,
    .draw_indirect = hl__gl_draw_indirect,
    .begin_compute_pass = hl__gl_begin_compute_pass,
    .end_compute_pass = hl__gl_end_compute_pass,
    .set_compute_pipeline = hl__gl_set_compute_pipeline,
    .dispatch = hl__gl_dispatch,
    .dispatch_indirect = hl__gl_dispatch_indirect,
    .copy_buffer_to_buffer = hl__gl_copy_buffer_to_buffer,
    .copy_texture_to_texture = hl__gl_copy_texture_to_texture,
    .copy_buffer_to_texture = hl__gl_copy_buffer_to_texture,
    .copy_texture_to_buffer = hl__gl_copy_texture_to_buffer,
    .clear_buffer = hl__gl_clear_buffer,
    .generate_mipmaps = hl__gl_generate_mipmaps,
    .surface_create = hl__gl_surface_create,
    .surface_destroy = hl__gl_surface_destroy,
    .surface_configure = hl__gl_surface_configure,
    .surface_acquire = hl__gl_surface_acquire,
    .surface_present = hl__gl_surface_present,
    .invalidate_native_state = hl__gl_invalidate_native_state,
    .thread_detach = hl__gl_thread_detach,
    .program_introspect = hl__gl_program_introspect,
    .thread_attach = hl__gl_thread_attach,
    .check_lost = hl__gl_check_lost,
    .simulate_loss = hl__gl_simulate_loss,
};
