/* The GL state-diff cache: every setter compares with what the context holds and issues the
 * GL call only on a change. The cache starts from GL's documented initial state, so it is
 * exact from the first call; names being deleted are forgotten (GL may reuse them at once). */
#include <string.h>

#include "gles3_internal.h"

void hl__gl_state_init(hl_rhi_device *dev) {
    hl__gl_state *s = &hl__gl(dev)->st;
    memset(s, 0, sizeof *s);
    s->blend_eq[0] = s->blend_eq[1] = GL_FUNC_ADD;
    s->blend_func[0] = s->blend_func[2] = GL_ONE;
    s->blend_func[1] = s->blend_func[3] = GL_ZERO;
    s->depth_func = GL_LESS;
    s->depth_mask = GL_TRUE;
    s->depth_range[1] = 1.0f;
    for (int f = 0; f < 2; f++) {
        s->st_func[f] = GL_ALWAYS;
        s->st_read_mask[f] = 0xFFFFFFFFu;
        s->st_write_mask[f] = 0xFFFFFFFFu;
        s->st_op[f][0] = s->st_op[f][1] = s->st_op[f][2] = GL_KEEP;
    }
    s->cull_face = GL_BACK;
    s->front_face = GL_CCW;
    for (int i = 0; i < 4; i++) s->color_mask[i] = GL_TRUE;
    s->viewport[2] = s->viewport[3] = -1; /* unknown: the first set always reaches GL */
    s->scissor[2] = s->scissor[3] = -1;
    s->pack_align = s->unpack_align = 4;
    /* WebGPU does not dither; GL enables it by default. */
    HL__GL(dev, glDisable(GL_DITHER));
    hl__gl_pixel_store(dev, GL_PACK_ALIGNMENT, 1);
    hl__gl_pixel_store(dev, GL_UNPACK_ALIGNMENT, 1);
}

void hl__gl_use_program(hl_rhi_device *dev, GLuint p) {
    hl__gl_state *s = &hl__gl(dev)->st;
    if (s->program == p) return;
    s->program = p;
    HL__GL(dev, glUseProgram(p));
}

void hl__gl_bind_vao(hl_rhi_device *dev, GLuint vao) {
    hl__gl_state *s = &hl__gl(dev)->st;
    if (s->vao == vao) return;
    s->vao = vao;
    HL__GL(dev, glBindVertexArray(vao));
}

void hl__gl_bind_draw_fbo(hl_rhi_device *dev, GLuint fbo) {
    hl__gl_state *s = &hl__gl(dev)->st;
    if (s->draw_fbo == fbo) return;
    s->draw_fbo = fbo;
    HL__GL(dev, glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo));
}

void hl__gl_bind_read_fbo(hl_rhi_device *dev, GLuint fbo) {
    hl__gl_state *s = &hl__gl(dev)->st;
    if (s->read_fbo == fbo) return;
    s->read_fbo = fbo;
    HL__GL(dev, glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo));
}

static GLuint *hl__buffer_slot(hl__gl_state *s, GLenum target) {
    switch (target) {
    case GL_ARRAY_BUFFER: return &s->array_buffer;
    case GL_COPY_READ_BUFFER: return &s->copy_read;
    case GL_COPY_WRITE_BUFFER: return &s->copy_write;
    case GL_PIXEL_PACK_BUFFER: return &s->pack_buffer;
    case GL_PIXEL_UNPACK_BUFFER: return &s->unpack_buffer;
    default: return NULL;
    }
}

void hl__gl_bind_buffer(hl_rhi_device *dev, GLenum target, GLuint buf) {
    GLuint *slot = hl__buffer_slot(&hl__gl(dev)->st, target);
    if (slot && *slot == buf) return;
    if (slot) *slot = buf;
    HL__GL(dev, glBindBuffer(target, buf));
}

static void hl__active_unit(hl_rhi_device *dev, uint32_t unit) {
    hl__gl_state *s = &hl__gl(dev)->st;
    if (s->active_unit == unit) return;
    s->active_unit = unit;
    HL__GL(dev, glActiveTexture(GL_TEXTURE0 + unit));
}

void hl__gl_bind_texture(hl_rhi_device *dev, uint32_t unit, uint32_t slot, GLenum target, GLuint tex) {
    hl__gl_state *s = &hl__gl(dev)->st;
    if (unit >= HL__GL_MAX_UNITS || slot >= HL__GL_TARGET_COUNT) return;
    /* callers go on to work on "the texture bound to the active unit" (uploads, copies,
       parameters): the unit is made active even when the binding is already there */
    hl__active_unit(dev, unit);
    if (s->tex[unit][slot] == tex) return;
    s->tex[unit][slot] = tex;
    HL__GL(dev, glBindTexture(target, tex));
}

void hl__gl_bind_texture_levels(hl_rhi_device *dev, uint32_t unit, hl__gl_texture *t, GLint base, GLint max) {
    hl__gl_bind_texture(dev, unit, t->slot, t->target, t->name);
    if (t->base_level != base) {
        hl__active_unit(dev, unit);
        t->base_level = base;
        HL__GL(dev, glTexParameteri(t->target, GL_TEXTURE_BASE_LEVEL, base));
    }
    if (t->max_level != max) {
        hl__active_unit(dev, unit);
        t->max_level = max;
        HL__GL(dev, glTexParameteri(t->target, GL_TEXTURE_MAX_LEVEL, max));
    }
}

void hl__gl_bind_sampler(hl_rhi_device *dev, uint32_t unit, GLuint sampler) {
    hl__gl_state *s = &hl__gl(dev)->st;
    if (unit >= HL__GL_MAX_UNITS || s->sampler[unit] == sampler) return;
    s->sampler[unit] = sampler;
    HL__GL(dev, glBindSampler(unit, sampler));
}

void hl__gl_enable(hl_rhi_device *dev, GLenum cap, bool *cached, bool on) {
    if (*cached == on) return;
    *cached = on;
    if (on) {
        HL__GL(dev, glEnable(cap));
    } else {
        HL__GL(dev, glDisable(cap));
    }
}

void hl__gl_blend(hl_rhi_device *dev, bool on, GLenum eq_rgb, GLenum eq_a, GLenum src_rgb, GLenum dst_rgb,
                  GLenum src_a, GLenum dst_a) {
    hl__gl_state *s = &hl__gl(dev)->st;
    hl__gl_enable(dev, GL_BLEND, &s->blend, on);
    if (!on) return;
    if (s->blend_eq[0] != eq_rgb || s->blend_eq[1] != eq_a) {
        s->blend_eq[0] = eq_rgb;
        s->blend_eq[1] = eq_a;
        HL__GL(dev, glBlendEquationSeparate(eq_rgb, eq_a));
    }
    if (s->blend_func[0] != src_rgb || s->blend_func[1] != dst_rgb || s->blend_func[2] != src_a ||
        s->blend_func[3] != dst_a) {
        s->blend_func[0] = src_rgb;
        s->blend_func[1] = dst_rgb;
        s->blend_func[2] = src_a;
        s->blend_func[3] = dst_a;
        HL__GL(dev, glBlendFuncSeparate(src_rgb, dst_rgb, src_a, dst_a));
    }
}

void hl__gl_blend_color(hl_rhi_device *dev, const float c[4]) {
    hl__gl_state *s = &hl__gl(dev)->st;
    if (memcmp(s->blend_color, c, sizeof s->blend_color) == 0) return;
    memcpy(s->blend_color, c, sizeof s->blend_color);
    HL__GL(dev, glBlendColor(c[0], c[1], c[2], c[3]));
}

void hl__gl_depth(hl_rhi_device *dev, bool test, GLenum func, GLboolean mask) {
    hl__gl_state *s = &hl__gl(dev)->st;
    hl__gl_enable(dev, GL_DEPTH_TEST, &s->depth_test, test);
    if (test && s->depth_func != func) {
        s->depth_func = func;
        HL__GL(dev, glDepthFunc(func));
    }
    if (s->depth_mask != mask) {
        s->depth_mask = mask;
        HL__GL(dev, glDepthMask(mask));
    }
}

void hl__gl_depth_range(hl_rhi_device *dev, float n, float f) {
    hl__gl_state *s = &hl__gl(dev)->st;
    if (s->depth_range[0] == n && s->depth_range[1] == f) return;
    s->depth_range[0] = n;
    s->depth_range[1] = f;
    HL__GL(dev, glDepthRangef(n, f));
}

void hl__gl_stencil_face(hl_rhi_device *dev, uint32_t face, GLenum func, GLint ref, GLuint read_mask,
                         GLenum fail, GLenum zfail, GLenum pass, GLuint write_mask) {
    hl__gl_state *s = &hl__gl(dev)->st;
    GLenum gl_face = face ? GL_BACK : GL_FRONT;
    if (s->st_func[face] != func || s->st_ref[face] != ref || s->st_read_mask[face] != read_mask) {
        s->st_func[face] = func;
        s->st_ref[face] = ref;
        s->st_read_mask[face] = read_mask;
        HL__GL(dev, glStencilFuncSeparate(gl_face, func, ref, read_mask));
    }
    if (s->st_op[face][0] != fail || s->st_op[face][1] != zfail || s->st_op[face][2] != pass) {
        s->st_op[face][0] = fail;
        s->st_op[face][1] = zfail;
        s->st_op[face][2] = pass;
        HL__GL(dev, glStencilOpSeparate(gl_face, fail, zfail, pass));
    }
    if (s->st_write_mask[face] != write_mask) {
        s->st_write_mask[face] = write_mask;
        HL__GL(dev, glStencilMaskSeparate(gl_face, write_mask));
    }
}

void hl__gl_cull(hl_rhi_device *dev, bool on, GLenum face, GLenum front) {
    hl__gl_state *s = &hl__gl(dev)->st;
    hl__gl_enable(dev, GL_CULL_FACE, &s->cull, on);
    if (on && s->cull_face != face) {
        s->cull_face = face;
        HL__GL(dev, glCullFace(face));
    }
    if (s->front_face != front) {
        s->front_face = front;
        HL__GL(dev, glFrontFace(front));
    }
}

void hl__gl_color_mask(hl_rhi_device *dev, const GLboolean m[4]) {
    hl__gl_state *s = &hl__gl(dev)->st;
    if (memcmp(s->color_mask, m, sizeof s->color_mask) == 0) return;
    memcpy(s->color_mask, m, sizeof s->color_mask);
    HL__GL(dev, glColorMask(m[0], m[1], m[2], m[3]));
}

void hl__gl_viewport(hl_rhi_device *dev, GLint x, GLint y, GLint w, GLint h) {
    hl__gl_state *s = &hl__gl(dev)->st;
    if (s->viewport[0] == x && s->viewport[1] == y && s->viewport[2] == w && s->viewport[3] == h) return;
    s->viewport[0] = x;
    s->viewport[1] = y;
    s->viewport[2] = w;
    s->viewport[3] = h;
    HL__GL(dev, glViewport(x, y, w, h));
}

void hl__gl_scissor(hl_rhi_device *dev, bool on, GLint x, GLint y, GLint w, GLint h) {
    hl__gl_state *s = &hl__gl(dev)->st;
    hl__gl_enable(dev, GL_SCISSOR_TEST, &s->scissor_test, on);
    if (!on) return;
    if (s->scissor[0] == x && s->scissor[1] == y && s->scissor[2] == w && s->scissor[3] == h) return;
    s->scissor[0] = x;
    s->scissor[1] = y;
    s->scissor[2] = w;
    s->scissor[3] = h;
    HL__GL(dev, glScissor(x, y, w, h));
}

void hl__gl_polygon_offset(hl_rhi_device *dev, bool on, float factor, float units) {
    hl__gl_state *s = &hl__gl(dev)->st;
    hl__gl_enable(dev, GL_POLYGON_OFFSET_FILL, &s->poly_offset, on);
    if (!on || (s->poly_factor == factor && s->poly_units == units)) return;
    s->poly_factor = factor;
    s->poly_units = units;
    HL__GL(dev, glPolygonOffset(factor, units));
}

void hl__gl_pixel_store(hl_rhi_device *dev, GLenum pname, GLint value) {
    hl__gl_state *s = &hl__gl(dev)->st;
    GLint *slot = NULL;
    switch (pname) {
    case GL_PACK_ALIGNMENT: slot = &s->pack_align; break;
    case GL_UNPACK_ALIGNMENT: slot = &s->unpack_align; break;
    case GL_PACK_ROW_LENGTH: slot = &s->pack_row_length; break;
    case GL_UNPACK_ROW_LENGTH: slot = &s->unpack_row_length; break;
    case GL_UNPACK_IMAGE_HEIGHT: slot = &s->unpack_image_height; break;
    default: break;
    }
    if (slot && *slot == value) return;
    if (slot) *slot = value;
    HL__GL(dev, glPixelStorei(pname, value));
}

void hl__gl_forget_buffer(hl_rhi_device *dev, GLuint buf) {
    hl__gl_state *s = &hl__gl(dev)->st;
    GLuint *targets[] = {&s->array_buffer, &s->copy_read, &s->copy_write, &s->pack_buffer, &s->unpack_buffer};
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++)
        if (*targets[i] == buf) *targets[i] = 0;
    /* Indexed UBO bindings keep their (deleted) buffer in GL; our slot must not match a reused name. */
    for (uint32_t i = 0; i < HL__GL_MAX_UBO_SLOTS; i++)
        if (s->ubo[i].buffer == buf) s->ubo[i].buffer = (GLuint)-1;
}

void hl__gl_forget_texture(hl_rhi_device *dev, GLuint tex) {
    hl__gl_state *s = &hl__gl(dev)->st;
    for (uint32_t u = 0; u < HL__GL_MAX_UNITS; u++)
        for (uint32_t t = 0; t < HL__GL_TARGET_COUNT; t++)
            if (s->tex[u][t] == tex) s->tex[u][t] = 0;
    if (s->renderbuffer == tex) s->renderbuffer = 0;
}

void hl__gl_forget_sampler(hl_rhi_device *dev, GLuint smp) {
    hl__gl_state *s = &hl__gl(dev)->st;
    for (uint32_t u = 0; u < HL__GL_MAX_UNITS; u++)
        if (s->sampler[u] == smp) s->sampler[u] = 0;
}

void hl__gl_invalidate_native_state(hl_rhi_device *dev) {
    /* Someone else issued GL calls: start again from GL's initial state and mark every
     * binding dirty. Values that differ from the real context are set again on first use,
     * since the cache then holds defaults that our objects never equal (names are non-zero). */
    hl__gl_device *g = hl__gl(dev);
    hl__gl_make_current(dev);
    hl__gl_state_init(dev);
    g->applied_program = NULL;
    g->pipeline_dirty = true;
    g->vao_dirty = true;
    g->group_dirty = 0xFF;
}
