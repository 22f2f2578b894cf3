/* Commands (executed immediately): render passes through an FBO cache, draws with lazily
 * applied pipeline / bind group / vertex state (VAO cache), copies, clears, mipmaps, and the
 * pixel transfer helpers shared with texture_write / texture_read. */
#include <math.h>
#include <string.h>

#include "gles3_internal.h"

/* ---- scratch --------------------------------------------------------------------------------- */
uint8_t *hl__gl_scratch(hl_rhi_device *dev, size_t size) {
    hl__gl_device *g = hl__gl(dev);
    if (size > UINT32_MAX) return NULL;
    void *arr = g->scratch;
    if (!hl__reserve(&arr, &g->scratch_capacity, (uint32_t)size, 1)) return NULL;
    g->scratch = arr;
    return g->scratch;
}

void hl__gl_swap_rb_rows(uint8_t *dst, uint32_t dst_pitch, const uint8_t *src, uint32_t src_pitch, uint32_t w,
                         uint32_t h) {
    for (uint32_t y = 0; y < h; y++) {
        const uint8_t *s = src + (size_t)y * src_pitch;
        uint8_t *d = dst + (size_t)y * dst_pitch;
        for (uint32_t x = 0; x < w; x++) {
            uint8_t r = s[4 * x], b = s[4 * x + 2];
            d[4 * x] = b;
            d[4 * x + 1] = s[4 * x + 1];
            d[4 * x + 2] = r;
            d[4 * x + 3] = s[4 * x + 3];
        }
    }
}

/* ---- caches (set-associative, LRU within a set) ------------------------------------------------ */
static uint32_t hl__hash(const void *data, size_t size) {
    const uint8_t *b = data;
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < size; i++) h = (h ^ b[i]) * 16777619u;
    return h;
}

hl__gl_attach hl__gl_attach_of(const hl__gl_texture *t, uint32_t level, uint32_t layer) {
    hl__gl_attach a;
    memset(&a, 0, sizeof a);
    a.name = t->name;
    a.level = level;
    if (t->renderbuffer) {
        a.kind = 4;
    } else if (t->target == GL_TEXTURE_CUBE_MAP) {
        a.kind = 2;
        a.layer = layer;
    } else if (t->target == GL_TEXTURE_2D) {
        a.kind = 1;
    } else {
        a.kind = 3;
        a.layer = layer;
    }
    return a;
}

static void hl__attach(hl_rhi_device *dev, GLenum point, const hl__gl_attach *a) {
    switch (a->kind) {
    case 1: HL__GL(dev, glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, point, GL_TEXTURE_2D, a->name, (GLint)a->level)); break;
    case 2:
        HL__GL(dev, glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, point, GL_TEXTURE_CUBE_MAP_POSITIVE_X + a->layer, a->name,
                                           (GLint)a->level));
        break;
    case 3: HL__GL(dev, glFramebufferTextureLayer(GL_DRAW_FRAMEBUFFER, point, a->name, (GLint)a->level, (GLint)a->layer)); break;
    case 4: HL__GL(dev, glFramebufferRenderbuffer(GL_DRAW_FRAMEBUFFER, point, GL_RENDERBUFFER, a->name)); break;
    default: break;
    }
}

static void hl__delete_fbo(hl_rhi_device *dev, GLuint fbo) {
    hl__gl_device *g = hl__gl(dev);
    if (g->st.draw_fbo == fbo) g->st.draw_fbo = 0;
    if (g->st.read_fbo == fbo) g->st.read_fbo = 0;
    if (g->pass_fbo == fbo) g->pass_fbo = 0;
    HL__GL(dev, glDeleteFramebuffers(1, &fbo));
}

static void hl__delete_vao(hl_rhi_device *dev, GLuint vao) {
    hl__gl_device *g = hl__gl(dev);
    if (g->st.vao == vao) g->st.vao = 0;
    HL__GL(dev, glDeleteVertexArrays(1, &vao));
}

GLuint hl__gl_fbo_get(hl_rhi_device *dev, const hl__gl_fbo_key *key) {
    hl__gl_device *g = hl__gl(dev);
    uint32_t set = hl__hash(key, sizeof *key) % HL__GL_FBO_SETS;
    hl__gl_fbo_entry *ways = &g->fbo[set * HL__GL_CACHE_WAYS];
    hl__gl_fbo_entry *victim = &ways[0];
    for (uint32_t w = 0; w < HL__GL_CACHE_WAYS; w++) {
        if (ways[w].fbo && memcmp(&ways[w].key, key, sizeof *key) == 0) {
            ways[w].tick = ++g->tick;
            return ways[w].fbo;
        }
        if (!ways[w].fbo) {
            if (victim->fbo) victim = &ways[w];
        } else if (victim->fbo && ways[w].tick < victim->tick) {
            victim = &ways[w];
        }
    }
    if (victim->fbo) hl__delete_fbo(dev, victim->fbo);
    memset(victim, 0, sizeof *victim);
    GLuint fbo = 0;
    HL__GL(dev, glGenFramebuffers(1, &fbo));
    hl__gl_bind_draw_fbo(dev, fbo);
    GLenum bufs[HL_RHI_MAX_COLOR_ATTACHMENTS];
    for (uint32_t i = 0; i < key->color_count; i++) {
        hl__attach(dev, GL_COLOR_ATTACHMENT0 + i, &key->color[i]);
        bufs[i] = GL_COLOR_ATTACHMENT0 + i;
    }
    if (key->depth.kind) hl__attach(dev, key->depth_point, &key->depth);
    if (key->color_count > 1) HL__GL(dev, glDrawBuffers((GLsizei)key->color_count, bufs));
    if (!key->color_count) {
        GLenum none = GL_NONE;
        HL__GL(dev, glDrawBuffers(1, &none));
        /* glReadBuffer names the READ binding's framebuffer: bind the new one there first, or
           the call clears the read buffer of whatever FBO a readback left bound (it then read
           nothing: GL_INVALID_OPERATION, stale pixels) */
        hl__gl_bind_read_fbo(dev, fbo);
        HL__GL(dev, glReadBuffer(GL_NONE));
    }
    GLenum status = HL__GL(dev, glCheckFramebufferStatus(GL_DRAW_FRAMEBUFFER));
    if (status != GL_FRAMEBUFFER_COMPLETE) {
        hl__delete_fbo(dev, fbo);
        hl__fail(HL_ERR_BACKEND, "gles3: framebuffer incomplete (status 0x%04x): an attachment format is not "
                                 "renderable here or sizes differ", (unsigned)status);
        return 0;
    }
    victim->key = *key;
    victim->fbo = fbo;
    victim->tick = ++g->tick;
    return fbo;
}

static bool hl__fbo_uses(const hl__gl_fbo_key *k, GLuint tex) {
    for (uint32_t i = 0; i < k->color_count; i++)
        if (k->color[i].name == tex) return true;
    return k->depth.kind && k->depth.name == tex;
}

void hl__gl_caches_forget_texture(hl_rhi_device *dev, GLuint name) {
    hl__gl_device *g = hl__gl(dev);
    /* Texture and renderbuffer names live in different namespaces: dropping a few extra FBOs
     * on a name clash is harmless, keeping one that names a deleted object is not. */
    for (uint32_t i = 0; i < HL__GL_FBO_SETS * HL__GL_CACHE_WAYS; i++) {
        if (g->fbo[i].fbo && hl__fbo_uses(&g->fbo[i].key, name)) {
            hl__delete_fbo(dev, g->fbo[i].fbo);
            memset(&g->fbo[i], 0, sizeof g->fbo[i]);
        }
    }
}

void hl__gl_caches_forget_buffer(hl_rhi_device *dev, GLuint name) {
    hl__gl_device *g = hl__gl(dev);
    for (uint32_t i = 0; i < HL__GL_VAO_SETS * HL__GL_CACHE_WAYS; i++) {
        hl__gl_vao_entry *e = &g->vao[i];
        if (!e->vao) continue;
        bool uses = e->key.index_buffer == name;
        for (uint32_t b = 0; b < HL_RHI_MAX_VERTEX_BUFFERS; b++) uses |= e->key.vb[b] == name;
        if (uses) {
            hl__delete_vao(dev, e->vao);
            memset(e, 0, sizeof *e);
        }
    }
    for (uint32_t b = 0; b < HL_RHI_MAX_VERTEX_BUFFERS; b++)
        if (g->vb[b] == name) g->vb[b] = 0;
    if (g->ib == name) g->ib = 0;
    g->vao_dirty = true;
}

void hl__gl_caches_release(hl_rhi_device *dev) {
    hl__gl_device *g = hl__gl(dev);
    for (uint32_t i = 0; i < HL__GL_FBO_SETS * HL__GL_CACHE_WAYS; i++)
        if (g->fbo[i].fbo) hl__delete_fbo(dev, g->fbo[i].fbo);
    for (uint32_t i = 0; i < HL__GL_VAO_SETS * HL__GL_CACHE_WAYS; i++)
        if (g->vao[i].vao) hl__delete_vao(dev, g->vao[i].vao);
    memset(g->fbo, 0, sizeof g->fbo);
    memset(g->vao, 0, sizeof g->vao);
}

/* ---- vertex input ---------------------------------------------------------------------------- */
hl__vfmt hl__vertex_format(uint32_t f) {
    switch ((hl_rhi_vertex_format)f) {
    case HL_RHI_VERTEX_FLOAT32: return (hl__vfmt){1, GL_FLOAT, GL_FALSE, false};
    case HL_RHI_VERTEX_FLOAT32X2: return (hl__vfmt){2, GL_FLOAT, GL_FALSE, false};
    case HL_RHI_VERTEX_FLOAT32X3: return (hl__vfmt){3, GL_FLOAT, GL_FALSE, false};
    case HL_RHI_VERTEX_FLOAT32X4: return (hl__vfmt){4, GL_FLOAT, GL_FALSE, false};
    case HL_RHI_VERTEX_UNORM8X4: return (hl__vfmt){4, GL_UNSIGNED_BYTE, GL_TRUE, false};
    case HL_RHI_VERTEX_SNORM8X4: return (hl__vfmt){4, GL_BYTE, GL_TRUE, false};
    case HL_RHI_VERTEX_UINT8X4: return (hl__vfmt){4, GL_UNSIGNED_BYTE, GL_FALSE, true};
    case HL_RHI_VERTEX_UNORM16X2: return (hl__vfmt){2, GL_UNSIGNED_SHORT, GL_TRUE, false};
    case HL_RHI_VERTEX_UNORM16X4: return (hl__vfmt){4, GL_UNSIGNED_SHORT, GL_TRUE, false};
    case HL_RHI_VERTEX_SNORM16X2: return (hl__vfmt){2, GL_SHORT, GL_TRUE, false};
    case HL_RHI_VERTEX_SNORM16X4: return (hl__vfmt){4, GL_SHORT, GL_TRUE, false};
    case HL_RHI_VERTEX_UINT16X4: return (hl__vfmt){4, GL_UNSIGNED_SHORT, GL_FALSE, true};
    case HL_RHI_VERTEX_UINT32: return (hl__vfmt){1, GL_UNSIGNED_INT, GL_FALSE, true};
    default: return (hl__vfmt){4, GL_FLOAT, GL_FALSE, false};
    }
}

static GLuint hl__vao_create(hl_rhi_device *dev, const hl__gl_vao_key *key) {
    hl__gl_device *g = hl__gl(dev);
    const hl__gl_vertex_layout *l = &g->layouts[key->layout_id];
    GLuint vao = 0;
    HL__GL(dev, glGenVertexArrays(1, &vao));
    hl__gl_bind_vao(dev, vao);
    for (uint32_t a = 0; a < l->attr_count; a++) {
        uint32_t b = l->attr[a].buffer;
        hl__vfmt f = hl__vertex_format(l->attr[a].format);
        const void *ptr = (const void *)(uintptr_t)(key->vb_offset[b] + l->attr[a].offset);
        GLuint loc = l->attr[a].location;
        hl__gl_bind_buffer(dev, GL_ARRAY_BUFFER, key->vb[b]);
        HL__GL(dev, glEnableVertexAttribArray(loc));
        if (f.integer) {
            HL__GL(dev, glVertexAttribIPointer(loc, f.size, f.type, (GLsizei)l->stride[b], ptr));
        } else {
            HL__GL(dev, glVertexAttribPointer(loc, f.size, f.type, f.normalized, (GLsizei)l->stride[b], ptr));
        }
        if (l->per_instance[b]) HL__GL(dev, glVertexAttribDivisor(loc, 1));
    }
    if (key->index_buffer) HL__GL(dev, glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, key->index_buffer));
    return vao;
}

static void hl__apply_vao(hl_rhi_device *dev) {
    hl__gl_device *g = hl__gl(dev);
    hl__gl_vao_key key;
    memset(&key, 0, sizeof key);
    key.layout_id = g->pipeline->layout_id;
    key.index_buffer = g->ib;
    uint32_t n = g->pipeline->vertex_buffer_count;
    for (uint32_t b = 0; b < n && b < HL_RHI_MAX_VERTEX_BUFFERS; b++) {
        key.vb[b] = g->vb[b];
        key.vb_offset[b] = g->vb_offset[b];
    }
    uint32_t set = hl__hash(&key, sizeof key) % HL__GL_VAO_SETS;
    hl__gl_vao_entry *ways = &g->vao[set * HL__GL_CACHE_WAYS];
    hl__gl_vao_entry *victim = &ways[0];
    for (uint32_t w = 0; w < HL__GL_CACHE_WAYS; w++) {
        if (ways[w].vao && memcmp(&ways[w].key, &key, sizeof key) == 0) {
            ways[w].tick = ++g->tick;
            hl__gl_bind_vao(dev, ways[w].vao);
            return;
        }
        if (!ways[w].vao) {
            if (victim->vao) victim = &ways[w];
        } else if (victim->vao && ways[w].tick < victim->tick) {
            victim = &ways[w];
        }
    }
    if (victim->vao) hl__delete_vao(dev, victim->vao);
    victim->key = key;
    victim->vao = hl__vao_create(dev, &key);
    victim->tick = ++g->tick;
}

/* ---- render passes --------------------------------------------------------------------------- */
/* The view's texture, looked up by handle (tex_ptr_unsafe may predate a pool move). */
static hl__gl_texture *hl__view_tex(hl_rhi_device *dev, const hl__texture_view *v) {
    hl__texture *t = hl__pool_get(dev, HL__POOL_TEXTURE, v->texture.id);
    return t ? hl__gl_tex(t) : NULL;
}

static hl__gl_attach hl__view_attach(hl_rhi_device *dev, const hl__texture_view *v) {
    hl__gl_texture *t = hl__view_tex(dev, v);
    if (!t) {
        hl__gl_attach none;
        memset(&none, 0, sizeof none);
        return none;
    }
    return hl__gl_attach_of(t, v->desc.base_mip_level, v->desc.base_layer);
}

static void hl__pass_key(hl_rhi_device *dev, const hl__render_pass_info *rp, hl__gl_fbo_key *key) {
    memset(key, 0, sizeof *key);
    key->color_count = rp->color_count;
    for (uint32_t i = 0; i < rp->color_count; i++) key->color[i] = hl__view_attach(dev, rp->color[i]);
    if (rp->depth) {
        key->depth = hl__view_attach(dev, rp->depth);
        bool stencil = hl_rhi_format_get_info(rp->depth->format)->has_stencil;
        key->depth_point = stencil ? GL_DEPTH_STENCIL_ATTACHMENT : GL_DEPTH_ATTACHMENT;
    }
}

/* Draw buffers of the bound draw FBO: GL_COLOR_ATTACHMENTi where bit i of mask is set, else
 * GL_NONE (a target the pipeline does not write keeps its contents). */
void hl__gl_draw_buffers(hl_rhi_device *dev, uint32_t mask, uint32_t count) {
    GLenum bufs[HL_RHI_MAX_COLOR_ATTACHMENTS];
    for (uint32_t i = 0; i < count && i < HL_RHI_MAX_COLOR_ATTACHMENTS; i++)
        bufs[i] = (mask & (1u << i)) ? GL_COLOR_ATTACHMENT0 + i : GL_NONE;
    HL__GL(dev, glDrawBuffers((GLsizei)count, bufs));
}

void hl__gl_mark_all_dirty(hl__gl_device *g) {
    g->pipeline = NULL;
    g->applied_program = NULL;
    memset(g->groups, 0, sizeof g->groups);
    g->pipeline_dirty = true;
    g->vao_dirty = true;
    g->group_dirty = 0xFF;
}

hl_result hl__gl_begin_render_pass(hl_rhi_cmd *cmd, const hl__render_pass_info *rp) {
    hl_rhi_device *dev = cmd->dev;
    hl__gl_device *g = hl__gl(dev);
    hl__gl_make_current(dev);
    hl__gl_fbo_key key;
    hl__pass_key(dev, rp, &key);
    GLuint fbo = hl__gl_fbo_get(dev, &key);
    if (!fbo) return HL_ERR_BACKEND;
    g->pass_fbo = fbo;
    hl__gl_bind_draw_fbo(dev, fbo);
    hl__gl_mark_all_dirty(g);
    memset(g->vb, 0, sizeof g->vb);
    memset(g->vb_offset, 0, sizeof g->vb_offset);
    g->ib = 0;
    g->stencil_ref = 0;
    g->depth_read_only = rp->depth && rp->depth_desc.depth_read_only;
    g->stencil_read_only = rp->depth && rp->depth_desc.stencil_read_only;

    GLint w = (GLint)rp->width, h = (GLint)rp->height;
    hl__gl_viewport(dev, 0, 0, w, h);
    hl__gl_depth_range(dev, 0.0f, 1.0f);
    hl__gl_scissor(dev, true, 0, 0, w, h);
    g->pass_color_count = rp->color_count;
    g->pass_draw_mask = (1u << rp->color_count) - 1u; /* every cached FBO keeps all its draw buffers */

    /* Clears ignore blend but obey the write masks: open them for the clears. */
    GLenum discard[HL_RHI_MAX_COLOR_ATTACHMENTS + 2];
    GLsizei ndiscard = 0;
    static const GLboolean all[4] = {GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE};
    for (uint32_t i = 0; i < rp->color_count; i++) {
        const hl_rhi_color_attachment *c = &rp->color_desc[i];
        if (c->load_op == HL_RHI_LOAD_DONT_CARE) discard[ndiscard++] = GL_COLOR_ATTACHMENT0 + i;
        if (c->load_op != HL_RHI_LOAD_CLEAR) continue;
        hl__gl_color_mask(dev, all);
        const hl__gl_format *gf = hl__gl_format_get(rp->color[i]->format);
        if (gf && gf->cls == HL__GL_FMT_UINT) {
            GLuint v[4];
            for (int k = 0; k < 4; k++) v[k] = c->clear_color[k] > 0.0f ? (GLuint)c->clear_color[k] : 0u;
            HL__GL(dev, glClearBufferuiv(GL_COLOR, (GLint)i, v));
        } else {
            HL__GL(dev, glClearBufferfv(GL_COLOR, (GLint)i, c->clear_color));
        }
    }
    if (rp->depth) {
        const hl_rhi_depth_stencil_attachment *d = &rp->depth_desc;
        bool has_stencil = key.depth_point == GL_DEPTH_STENCIL_ATTACHMENT;
        bool clear_d = d->depth_load_op == HL_RHI_LOAD_CLEAR && !d->depth_read_only;
        bool clear_s = has_stencil && d->stencil_load_op == HL_RHI_LOAD_CLEAR && !d->stencil_read_only;
        if (clear_d) {
            hl__gl_state *s = &g->st;
            hl__gl_depth(dev, s->depth_test, s->depth_func, GL_TRUE);
        }
        if (clear_s) {
            hl__gl_state *s = &g->st;
            for (uint32_t f = 0; f < 2; f++)
                hl__gl_stencil_face(dev, f, s->st_func[f], s->st_ref[f], s->st_read_mask[f], s->st_op[f][0],
                                    s->st_op[f][1], s->st_op[f][2], 0xFFu);
        }
        GLint sv = (GLint)d->stencil_clear_value;
        if (clear_d && clear_s) {
            HL__GL(dev, glClearBufferfi(GL_DEPTH_STENCIL, 0, d->depth_clear_value, sv));
        } else if (clear_d) {
            HL__GL(dev, glClearBufferfv(GL_DEPTH, 0, &d->depth_clear_value));
        } else if (clear_s) {
            HL__GL(dev, glClearBufferiv(GL_STENCIL, 0, &sv));
        }
        if (d->depth_load_op == HL_RHI_LOAD_DONT_CARE && !d->depth_read_only) discard[ndiscard++] = GL_DEPTH_ATTACHMENT;
        if (has_stencil && d->stencil_load_op == HL_RHI_LOAD_DONT_CARE && !d->stencil_read_only)
            discard[ndiscard++] = GL_STENCIL_ATTACHMENT;
    }
    if (ndiscard) HL__GL(dev, glInvalidateFramebuffer(GL_DRAW_FRAMEBUFFER, ndiscard, discard));
    return HL_OK;
}

hl_result hl__gl_end_render_pass(hl_rhi_cmd *cmd) {
    hl_rhi_device *dev = cmd->dev;
    hl__gl_device *g = hl__gl(dev);
    const hl__render_pass_info *rp = &cmd->rp;
    hl_result result = HL_OK;
    /* MSAA resolve: blit each multisample attachment into its resolve target. Blits obey the
     * scissor test, so it is switched off. */
    bool any_resolve = false;
    for (uint32_t i = 0; i < rp->color_count; i++) any_resolve |= rp->resolve[i] != NULL;
    if (any_resolve) {
        hl__gl_scissor(dev, false, 0, 0, 0, 0);
        for (uint32_t i = 0; i < rp->color_count; i++) {
            if (!rp->resolve[i]) continue;
            hl__gl_fbo_key rk, dk;
            memset(&rk, 0, sizeof rk);
            memset(&dk, 0, sizeof dk);
            rk.color[0] = hl__view_attach(dev, rp->color[i]);
            rk.color_count = 1;
            dk.color[0] = hl__view_attach(dev, rp->resolve[i]);
            dk.color_count = 1;
            GLuint rf = hl__gl_fbo_get(dev, &rk);
            GLuint df = rf ? hl__gl_fbo_get(dev, &dk) : 0;
            if (!rf || !df) {
                result = HL_ERR_BACKEND;
                continue;
            }
            hl__gl_bind_read_fbo(dev, rf);
            hl__gl_bind_draw_fbo(dev, df);
            GLint w = (GLint)rp->width, h = (GLint)rp->height;
            HL__GL(dev, glBlitFramebuffer(0, 0, w, h, 0, 0, w, h, GL_COLOR_BUFFER_BIT, GL_NEAREST));
        }
    }
    /* STORE_DISCARD: the contents may go (after the resolve read them). */
    GLenum discard[HL_RHI_MAX_COLOR_ATTACHMENTS + 2];
    GLsizei ndiscard = 0;
    for (uint32_t i = 0; i < rp->color_count; i++)
        if (rp->color_desc[i].store_op == HL_RHI_STORE_DISCARD) discard[ndiscard++] = GL_COLOR_ATTACHMENT0 + i;
    if (rp->depth) {
        bool has_stencil = hl_rhi_format_get_info(rp->depth->format)->has_stencil;
        if (rp->depth_desc.depth_store_op == HL_RHI_STORE_DISCARD && !rp->depth_desc.depth_read_only)
            discard[ndiscard++] = GL_DEPTH_ATTACHMENT;
        if (has_stencil && rp->depth_desc.stencil_store_op == HL_RHI_STORE_DISCARD && !rp->depth_desc.stencil_read_only)
            discard[ndiscard++] = GL_STENCIL_ATTACHMENT;
    }
    if (ndiscard) {
        hl__gl_fbo_key key;
        hl__pass_key(dev, rp, &key);
        GLuint fbo = hl__gl_fbo_get(dev, &key);
        if (fbo) {
            hl__gl_bind_draw_fbo(dev, fbo);
            HL__GL(dev, glInvalidateFramebuffer(GL_DRAW_FRAMEBUFFER, ndiscard, discard));
        }
    }
    if (g->pass_fbo && g->pass_draw_mask != (1u << rp->color_count) - 1u) {
        /* a pipeline masked draw buffers: give the cached FBO all of them back (clears and
           blits of later passes write through them) */
        hl__gl_bind_draw_fbo(dev, g->pass_fbo);
        hl__gl_draw_buffers(dev, (1u << rp->color_count) - 1u, rp->color_count);
    }
    hl__gl_mark_all_dirty(g);
    g->pass_fbo = 0;
    if (result) return hl__fail(result, "gles3: MSAA resolve failed: %s", hl_last_error());
    return HL_OK;
}

/* ---- command state --------------------------------------------------------------------------- */
/* The setters on native objects: the pass commands below and a bundle's state changes
 * (gles3_bundles.c, hl__gl_bundle_state_apply). */
static void hl__set_pipeline(hl__gl_device *g, hl__gl_pipeline *gp) {
    if (gp == g->pipeline) return;
    if (g->pipeline && gp && g->pipeline->layout_id != gp->layout_id) g->vao_dirty = true;
    if (!g->pipeline) g->vao_dirty = true;
    g->pipeline = gp;
    g->pipeline_dirty = true;
}

static void hl__set_group(hl__gl_device *g, uint32_t index, hl__gl_bind_group *bg, const uint32_t *offsets,
                          uint32_t offset_count) {
    if (index >= HL_RHI_MAX_BIND_GROUPS) return;
    for (uint32_t i = 0; i < offset_count && i < HL_RHI_MAX_BINDINGS; i++) g->dyn[index][i] = offsets[i];
    if (bg && bg == g->groups[index] && offset_count) {
        g->offsets_dirty |= (uint8_t)(1u << index);
        return;
    }
    g->groups[index] = bg;
    g->group_dirty |= (uint8_t)(1u << index);
}

static void hl__set_vertex_buffer(hl__gl_device *g, uint32_t slot, GLuint name, uint64_t offset) {
    if (slot >= HL_RHI_MAX_VERTEX_BUFFERS) return;
    if (g->vb[slot] == name && g->vb_offset[slot] == offset) return;
    g->vb[slot] = name;
    g->vb_offset[slot] = offset;
    g->vao_dirty = true;
}

static void hl__set_index_buffer(hl__gl_device *g, GLuint name, hl_rhi_index_format format, uint64_t offset) {
    if (g->ib != name) g->vao_dirty = true;
    g->ib = name;
    g->index_type = format == HL_RHI_INDEX_UINT32 ? GL_UNSIGNED_INT : GL_UNSIGNED_SHORT;
    g->index_size = format == HL_RHI_INDEX_UINT32 ? 4u : 2u;
    g->ib_offset = offset;
}

void hl__gl_set_pipeline(hl_rhi_cmd *cmd, hl__render_pipeline *p) {
    hl__set_pipeline(hl__gl(cmd->dev), p ? p->be.ptr : NULL);
}

void hl__gl_set_bind_group(hl_rhi_cmd *cmd, uint32_t index, hl__bind_group *grp, const uint32_t *offsets,
                           uint32_t offset_count) {
    hl__set_group(hl__gl(cmd->dev), index, grp ? grp->be.ptr : NULL, offsets, offset_count);
}

void hl__gl_set_vertex_buffer(hl_rhi_cmd *cmd, uint32_t slot, hl__buffer *buf, uint64_t offset) {
    hl__set_vertex_buffer(hl__gl(cmd->dev), slot, buf ? buf->be.u32[0] : 0, offset);
}

void hl__gl_set_index_buffer(hl_rhi_cmd *cmd, hl__buffer *buf, hl_rhi_index_format format, uint64_t offset) {
    hl__set_index_buffer(hl__gl(cmd->dev), buf ? buf->be.u32[0] : 0, format, offset);
}

void hl__gl_bundle_state_apply(hl_rhi_device *dev, const hl__gl_bundle_state *s) {
    hl__gl_device *g = hl__gl(dev);
    hl__set_pipeline(g, s->pipeline);
    for (uint32_t i = 0; i < HL_RHI_MAX_BIND_GROUPS; i++) hl__set_group(g, i, s->groups[i], s->dyn[i], s->dyn_count[i]);
    for (uint32_t i = 0; i < HL_RHI_MAX_VERTEX_BUFFERS; i++) hl__set_vertex_buffer(g, i, s->vb[i], s->vb_offset[i]);
    hl__set_index_buffer(g, s->ib, s->index_format, s->ib_offset);
}

void hl__gl_set_viewport(hl_rhi_cmd *cmd, const float v[6]) {
    /* No y arithmetic: with the vertex-stage flip, GL window row 0 is the image's top row. */
    hl__gl_viewport(cmd->dev, (GLint)lroundf(v[0]), (GLint)lroundf(v[1]), (GLint)lroundf(v[2]), (GLint)lroundf(v[3]));
    hl__gl_depth_range(cmd->dev, v[4], v[5]);
}

void hl__gl_set_scissor(hl_rhi_cmd *cmd, const uint32_t s[4]) {
    hl__gl_scissor(cmd->dev, true, (GLint)s[0], (GLint)s[1], (GLint)s[2], (GLint)s[3]);
}

void hl__gl_set_blend_constant(hl_rhi_cmd *cmd, const float c[4]) { hl__gl_blend_color(cmd->dev, c); }

void hl__gl_set_stencil_reference(hl_rhi_cmd *cmd, uint32_t ref) {
    hl__gl_device *g = hl__gl(cmd->dev);
    if (g->stencil_ref == ref) return;
    g->stencil_ref = ref;
    g->pipeline_dirty = true;
}

static void hl__apply_pipeline(hl_rhi_device *dev, hl__gl_pipeline *p) {
    hl__gl_device *g = hl__gl(dev);
    hl__gl_state *s = &g->st;
    hl__gl_use_program(dev, p->prog->name);
    hl__gl_blend(dev, p->blend, p->eq_rgb, p->eq_a, p->src_rgb, p->dst_rgb, p->src_a, p->dst_a);
    hl__gl_color_mask(dev, p->color_mask);
    uint32_t all = (1u << g->pass_color_count) - 1u;
    if ((p->draw_mask & all) != g->pass_draw_mask) {
        g->pass_draw_mask = p->draw_mask & all;
        hl__gl_draw_buffers(dev, g->pass_draw_mask, g->pass_color_count);
    }
    hl__gl_depth(dev, p->depth_test, p->depth_func, (p->depth_write && !g->depth_read_only) ? GL_TRUE : GL_FALSE);
    hl__gl_enable(dev, GL_STENCIL_TEST, &s->stencil_test, p->stencil);
    if (p->stencil) {
        GLuint wm = g->stencil_read_only ? 0u : p->st_write_mask;
        for (uint32_t f = 0; f < 2; f++)
            hl__gl_stencil_face(dev, f, p->st_func[f], (GLint)g->stencil_ref, p->st_read_mask, p->st_fail[f],
                                p->st_zfail[f], p->st_pass[f], wm);
    }
    hl__gl_cull(dev, p->cull, p->cull_face, p->front_face);
    hl__gl_polygon_offset(dev, p->poly_offset, p->poly_factor, p->poly_units);
    hl__gl_enable(dev, GL_SAMPLE_ALPHA_TO_COVERAGE, &s->a2c, p->a2c);
#ifndef __EMSCRIPTEN__ /* WebGL 2 always restarts at the fixed index (and has no such capability) */
    hl__gl_enable(dev, GL_PRIMITIVE_RESTART_FIXED_INDEX, &s->restart, p->restart);
#endif
}

static const hl__gl_bg_entry *hl__bg_find(const hl__gl_bind_group *bg, uint32_t binding) {
    for (uint32_t i = 0; i < bg->count; i++)
        if (bg->e[i].binding == binding) return &bg->e[i];
    return NULL;
}

uint32_t hl__gl_dynamic_slots(const hl__gl_program *p, const hl__gl_bind_group *bg, uint32_t gi, hl__gl_dyn_slot *out) {
    uint32_t n = 0;
    for (uint32_t slot = 0; bg && slot < p->ubo_count && n < HL_RHI_MAX_BINDINGS; slot++) {
        if (p->ubo[slot].group != gi) continue;
        const hl__gl_bg_entry *e = hl__bg_find(bg, p->ubo[slot].binding);
        if (e && e->kind == HL__GL_BG_UBO && e->dynamic_index >= 0) out[n++] = (hl__gl_dyn_slot){slot, e};
    }
    return n;
}

/* UBO ranges of group gi used by program p; records which of them take dynamic offsets. */
static void hl__apply_group_ubos(hl_rhi_device *dev, const hl__gl_program *p, uint32_t gi) {
    hl__gl_device *g = hl__gl(dev);
    const hl__gl_bind_group *bg = g->groups[gi];
    g->dyn_slot_count[gi] = (uint8_t)hl__gl_dynamic_slots(p, bg, gi, g->dyn_slots[gi]);
    if (!bg) return;
    for (uint32_t slot = 0; slot < p->ubo_count; slot++) {
        if (p->ubo[slot].group != gi) continue;
        const hl__gl_bg_entry *e = hl__bg_find(bg, p->ubo[slot].binding);
        if (!e || e->kind != HL__GL_BG_UBO) continue;
        uint32_t off = e->offset + (e->dynamic_index >= 0 ? g->dyn[gi][e->dynamic_index] : 0u);
        hl__gl_bind_ubo(dev, slot, e->buffer, off, e->size);
    }
}

/* The same group with new dynamic offsets: only the recorded dynamic slots. */
static inline void hl__apply_group_offsets(hl_rhi_device *dev, uint32_t gi) {
    hl__gl_device *g = hl__gl(dev);
    for (uint32_t k = 0; k < g->dyn_slot_count[gi]; k++) {
        const hl__gl_bg_entry *e = g->dyn_slots[gi][k].e;
        hl__gl_bind_ubo(dev, g->dyn_slots[gi][k].slot, e->buffer, e->offset + g->dyn[gi][e->dynamic_index], e->size);
    }
}

static void hl__apply_group(hl_rhi_device *dev, const hl__gl_program *p, uint32_t gi) {
    hl__gl_device *g = hl__gl(dev);
    const hl__gl_bind_group *bg = g->groups[gi];
    if (!bg) return;
    hl__apply_group_ubos(dev, p, gi);
    for (uint32_t unit = 0; unit < p->unit_count; unit++) {
        if (p->unit[unit].group != gi) continue;
        const hl__gl_bg_entry *te = hl__bg_find(bg, p->unit[unit].binding);
        const hl__gl_bg_entry *se = hl__bg_find(bg, p->unit[unit].sampler_binding);
        hl__texture_view *v = te ? hl__pool_get(dev, HL__POOL_VIEW, te->view_id) : NULL;
        hl__gl_texture *t = v ? hl__view_tex(dev, v) : NULL;
        if (t) {
            GLint base = (GLint)v->desc.base_mip_level;
            GLint count = (GLint)(v->desc.mip_level_count ? v->desc.mip_level_count : t->levels - v->desc.base_mip_level);
            if (!t->renderbuffer) hl__gl_bind_texture_levels(dev, unit, t, base, base + count - 1);
        }
        hl__gl_bind_sampler(dev, unit, se && se->kind == HL__GL_BG_SAMPLER ? se->sampler : 0u);
    }
}

bool hl__gl_flush(hl_rhi_device *dev) {
    hl__gl_device *g = hl__gl(dev);
    hl__gl_pipeline *p = g->pipeline;
    if (!p) return false;
    hl__gl_make_current(dev); /* another device may have been used on this thread meanwhile */
    uint8_t mask = p->prog->group_mask;
    if (!g->pipeline_dirty && !g->vao_dirty && !(g->group_dirty & mask)) {
        /* the per-draw case: at most new dynamic offsets of groups already applied */
        uint8_t off = g->offsets_dirty & mask;
        for (uint32_t gi = 0; off; gi++, off >>= 1)
            if (off & 1u) hl__apply_group_offsets(dev, gi);
        g->offsets_dirty &= (uint8_t)~mask;
        return true;
    }
    if (g->pipeline_dirty) {
        hl__apply_pipeline(dev, p);
        g->pipeline_dirty = false;
        if (g->applied_program != p->prog) {
            g->applied_program = p->prog;
            g->group_dirty = 0xFF;
        }
    }
    uint8_t dirty = g->group_dirty & p->prog->group_mask;
    uint8_t offsets = g->offsets_dirty & p->prog->group_mask & (uint8_t)~dirty;
    if (dirty | offsets) {
        for (uint32_t gi = 0; gi < HL_RHI_MAX_BIND_GROUPS; gi++) {
            if (dirty & (1u << gi)) hl__apply_group(dev, p->prog, gi);
            else if (offsets & (1u << gi)) hl__apply_group_offsets(dev, gi);
        }
    }
    g->group_dirty &= (uint8_t)~p->prog->group_mask;
    g->offsets_dirty &= (uint8_t)~p->prog->group_mask;
    /* The index buffer is VAO state, so it is part of the VAO key. */
    if (g->vao_dirty) {
        hl__apply_vao(dev);
        g->vao_dirty = false;
    }
    return true;
}

void hl__gl_draw(hl_rhi_cmd *cmd, uint32_t vertex_count, uint32_t instance_count, uint32_t first_vertex,
                 uint32_t first_instance) {
    (void)first_instance; /* 0: FIRST_INSTANCE is not a gles3 feature, the core rejects others */
    hl_rhi_device *dev = cmd->dev;
    if (!instance_count || !vertex_count || !hl__gl_flush(dev)) return;
    hl__gl_draw_call(dev, hl__gl(dev)->pipeline->mode, 0, 0, 0, (GLint)first_vertex, (GLsizei)vertex_count,
                     (GLsizei)instance_count);
}

void hl__gl_draw_indexed(hl_rhi_cmd *cmd, uint32_t index_count, uint32_t instance_count, uint32_t first_index,
                         int32_t base_vertex, uint32_t first_instance) {
    (void)base_vertex; /* 0: BASE_VERTEX is not a gles3 feature */
    (void)first_instance;
    hl_rhi_device *dev = cmd->dev;
    hl__gl_device *g = hl__gl(dev);
    if (!instance_count || !index_count || !g->ib || !hl__gl_flush(dev)) return;
    hl__gl_draw_call(dev, g->pipeline->mode, g->index_type, g->ib_offset, g->index_size, (GLint)first_index,
                     (GLsizei)index_count, (GLsizei)instance_count);
}

/* The per-draw case of hl__gl_draw_run: the program reads one dynamic group, whose one dynamic
 * entry feeds one UBO slot (an object's data at its own offset). Per packet: the range bound
 * when its offset differs from the one before (a different offset is a different range, so no
 * cache lookup) and the draw call; the cache and the native-call count are written once, after
 * the run. The range of g->dyn[gi][0] is bound when it starts (nothing is pending). */
static void hl__gl_draw_run_one_range(hl_rhi_device *dev, const hl_rhi_draw_packet *p, uint32_t n, uint32_t gi, GLenum mode,
                                      GLenum index_type) {
    hl__gl_device *g = hl__gl(dev);
    const hl__gl_bg_entry *e = g->dyn_slots[gi][0].e;
    const GLuint slot = g->dyn_slots[gi][0].slot, buf = e->buffer;
    const uint32_t base = e->offset, size = e->size;
    const uint64_t ib_offset = g->ib_offset;
    const uint32_t index_size = g->index_size;
    uint32_t cur = g->dyn[gi][0];
    uint64_t calls = 0;
    bool bound = false;
    for (const hl_rhi_draw_packet *end = p + n; p < end; p++) {
        uint32_t off = p->dynamic_offsets[gi];
        if (off != cur) {
            cur = off;
            bound = true;
            calls++;
            glBindBufferRange(GL_UNIFORM_BUFFER, slot, buf, (GLintptr)(base + off), (GLsizeiptr)size);
        }
        if (!p->count) continue;
        calls++;
        hl__gl_draw_native(mode, index_type, ib_offset, index_size, (GLint)p->first, (GLsizei)p->count,
                           (GLsizei)(p->instance_count ? p->instance_count : 1u));
    }
    g->dyn[gi][0] = cur;
    if (bound) {
        hl__gl_state *s = &g->st;
        s->ubo[slot].buffer = buf;
        s->ubo[slot].offset = base + cur;
        s->ubo[slot].size = size;
    }
    dev->stats.native_calls += calls;
}

/* The packet loop's run (the core checked it): packets that bind the bound pipeline, groups and
 * buffers, each with its own offsets for the dynamic groups of dyn (as hl__gl_set_bind_group
 * takes them for a bound group). While something else is pending (a new pipeline, buffers,
 * groups) a packet draws through hl__gl_flush; after that, per packet, only the dynamic UBO
 * ranges its offsets select (cache-checked) and its draw call. */
void hl__gl_draw_run(hl_rhi_cmd *cmd, const hl_rhi_draw_packet *p, uint32_t n, uint32_t dyn) {
    hl_rhi_device *dev = cmd->dev;
    hl__gl_device *g = hl__gl(dev);
    hl__gl_pipeline *pl = g->pipeline;
    uint8_t mask = pl ? pl->prog->group_mask : 0u;
    for (; n && (!pl || g->pipeline_dirty || g->vao_dirty || ((g->group_dirty | g->offsets_dirty) & mask)); p++, n--) {
        for (uint32_t b = dyn; b; b &= b - 1u) g->dyn[__builtin_ctz(b)][0] = p->dynamic_offsets[__builtin_ctz(b)];
        g->offsets_dirty |= (uint8_t)dyn;
        uint32_t instances = p->instance_count ? p->instance_count : 1u;
        if (p->indexed) hl__gl_draw_indexed(cmd, p->count, instances, p->first, p->base_vertex, p->first_instance);
        else hl__gl_draw(cmd, p->count, instances, p->first, p->first_instance);
    }
    if (!n) return;
    hl__gl_make_current(dev);
    uint32_t live = dyn & mask, later = dyn & ~(uint32_t)mask; /* later: groups this program does not read */
    for (uint32_t b = later; b; b &= b - 1u) g->dyn[__builtin_ctz(b)][0] = p[n - 1].dynamic_offsets[__builtin_ctz(b)];
    g->offsets_dirty |= (uint8_t)later;
    GLenum mode = pl->mode, index_type = p->indexed ? g->index_type : 0u;
    bool index_ok = !p->indexed || g->ib;
    if (live && !(live & (live - 1u))) {
        uint32_t gi = (uint32_t)__builtin_ctz(live);
        if (g->dyn_slot_count[gi] == 1 && g->dyn_slots[gi][0].slot < HL__GL_MAX_UBO_SLOTS && index_ok) {
            hl__gl_draw_run_one_range(dev, p, n, gi, mode, index_type);
            return;
        }
    }
    for (const hl_rhi_draw_packet *end = p + n; p < end; p++) {
        for (uint32_t b = live; b; b &= b - 1u) { /* the ranges of g->dyn are bound (nothing is pending) */
            uint32_t gi = (uint32_t)__builtin_ctz(b);
            if (g->dyn[gi][0] == p->dynamic_offsets[gi]) continue;
            g->dyn[gi][0] = p->dynamic_offsets[gi];
            hl__apply_group_offsets(dev, gi);
        }
        if (!p->count || !index_ok) continue;
        hl__gl_draw_call(dev, mode, index_type, g->ib_offset, g->index_size, (GLint)p->first, (GLsizei)p->count,
                         (GLsizei)(p->instance_count ? p->instance_count : 1u));
    }
}

void hl__gl_draw_indirect(hl_rhi_cmd *cmd, hl__buffer *buf, uint64_t offset, bool indexed) {
    /* INDIRECT_DRAW is absent from gles3 caps; the core refuses it before reaching here. */
    (void)cmd;
    (void)buf;
    (void)offset;
    (void)indexed;
}

/* ---- pixel transfer -------------------------------------------------------------------------- */
/* True when glReadPixels can write this format's own texel layout. */
static bool hl__direct_readable(hl_rhi_device *dev, const hl__gl_format *gf) {
    if (gf->bgra) return false;
    if ((gf->format == GL_RGBA && gf->type == GL_UNSIGNED_BYTE) ||
        (gf->format == GL_RGBA && gf->type == GL_UNSIGNED_INT_2_10_10_10_REV) ||
        (gf->format == GL_RGBA && gf->type == GL_FLOAT))
        return true;
    GLint fmt = 0, type = 0;
    HL__GL(dev, glGetIntegerv(GL_IMPLEMENTATION_COLOR_READ_FORMAT, &fmt));
    HL__GL(dev, glGetIntegerv(GL_IMPLEMENTATION_COLOR_READ_TYPE, &type));
    return (GLenum)fmt == gf->format && (GLenum)type == gf->type;
}

/* A readback that GL refused would leave the caller's memory as it was (stale pixels passed off
 * as new ones): its error is an error of the call. */
static hl_result hl__gl_read_error(hl_rhi_device *dev) {
    GLenum e = HL__GL(dev, glGetError());
    if (e == GL_NO_ERROR) return HL_OK;
    return hl__fail(HL_ERR_BACKEND, "gles3: glReadPixels failed with GL error 0x%04x", (unsigned)e);
}

hl_result hl__gl_read_rect(hl_rhi_device *dev, const hl__gl_texture *t, uint32_t x, uint32_t y, uint32_t w,
                           uint32_t h, uint8_t *dst, uint32_t dst_pitch) {
    const hl__gl_format *gf = hl__gl_format_get(t->format);
    uint32_t texel = hl__format_texel_size(t->format);
    if (gf->cls == HL__GL_FMT_DEPTH || !texel)
        return hl__fail(HL_ERR_UNSUPPORTED, "gles3: OpenGL ES 3.0 cannot read back %s texels",
                        hl_rhi_format_get_info(t->format)->name);
    hl__gl_pixel_store(dev, GL_PACK_ALIGNMENT, 1);
    while (HL__GL(dev, glGetError()) != GL_NO_ERROR) { /* errors of earlier calls are not this read's */
    }
    if (hl__direct_readable(dev, gf) && dst_pitch % texel == 0) {
        hl__gl_pixel_store(dev, GL_PACK_ROW_LENGTH, (GLint)(dst_pitch / texel));
        HL__GL(dev, glReadPixels((GLint)x, (GLint)y, (GLsizei)w, (GLsizei)h, gf->format, gf->type, dst));
        hl__gl_pixel_store(dev, GL_PACK_ROW_LENGTH, 0);
        return hl__gl_read_error(dev);
    }
    /* The formats GLES always reads: RGBA/UNSIGNED_BYTE, RGBA_INTEGER/UNSIGNED_INT, RGBA/FLOAT;
     * read tightly into scratch, then convert row by row. */
    GLenum fmt = GL_RGBA, type = GL_UNSIGNED_BYTE;
    uint32_t src_texel = 4;
    if (gf->cls == HL__GL_FMT_UINT) {
        fmt = GL_RGBA_INTEGER;
        type = GL_UNSIGNED_INT;
        src_texel = 16;
    } else if (gf->cls == HL__GL_FMT_FLOAT) {
        type = GL_FLOAT;
        src_texel = 16;
    }
    uint8_t *tmp = hl__gl_scratch(dev, (size_t)w * h * src_texel);
    if (!tmp) return hl__fail(HL_ERR_OUT_OF_MEMORY, "gles3: out of memory for a readback");
    hl__gl_pixel_store(dev, GL_PACK_ROW_LENGTH, 0);
    HL__GL(dev, glReadPixels((GLint)x, (GLint)y, (GLsizei)w, (GLsizei)h, fmt, type, tmp));
    hl_result read_res = hl__gl_read_error(dev);
    if (read_res) return read_res;
    for (uint32_t row = 0; row < h; row++) {
        const uint8_t *s = tmp + (size_t)row * w * src_texel;
        uint8_t *d = dst + (size_t)row * dst_pitch;
        if (gf->bgra) {
            hl__gl_swap_rb_rows(d, 0, s, 0, w, 1);
            continue;
        }
        for (uint32_t i = 0; i < w; i++) {
            const uint8_t *sp = s + (size_t)i * src_texel;
            uint8_t *dp = d + (size_t)i * texel;
            if (gf->cls == HL__GL_FMT_UNORM8 || gf->cls == HL__GL_FMT_PACKED) {
                memcpy(dp, sp, texel);
            } else if (gf->cls == HL__GL_FMT_UINT) {
                uint32_t v[4];
                memcpy(v, sp, sizeof v);
                if (t->format == HL_RHI_FORMAT_R32_UINT) {
                    memcpy(dp, &v[0], 4);
                } else {
                    for (int c = 0; c < 4; c++) dp[c] = (uint8_t)v[c];
                }
            } else {
                float v[4];
                memcpy(v, sp, sizeof v);
                for (uint32_t c = 0; c < gf->channels; c++) {
                    if (gf->half) {
                        uint16_t hv = hl__f32_to_f16(v[c]);
                        memcpy(dp + 2 * c, &hv, 2);
                    } else {
                        memcpy(dp + 4 * c, &v[c], 4);
                    }
                }
            }
        }
    }
    return HL_OK;
}

static GLenum hl__face(const hl__gl_texture *t, uint32_t layer) {
    return t->target == GL_TEXTURE_CUBE_MAP ? GL_TEXTURE_CUBE_MAP_POSITIVE_X + layer : t->target;
}

hl_result hl__gl_upload(hl_rhi_device *dev, hl__gl_texture *t, const hl_rhi_texture_region *r, const void *data,
                        uint32_t pitch) {
    hl__gl_device *g = hl__gl(dev);
    if (t->renderbuffer) return hl__fail(HL_ERR_UNSUPPORTED, "gles3: multisampled textures cannot be written");
    const hl__gl_format *gf = hl__gl_format_get(t->format);
    uint32_t texel = hl__format_texel_size(t->format);
    if (!texel) return hl__fail(HL_ERR_UNSUPPORTED, "gles3: %s texels cannot be uploaded", hl_rhi_format_get_info(t->format)->name);
    uint32_t layers = r->depth_or_layers ? r->depth_or_layers : 1u;
    const uint8_t *src = data;
    if (gf->bgra || pitch % texel) {
        /* Repack tightly (and swap to RGBA for bgra8unorm). */
        uint32_t tight = r->width * texel;
        uint8_t *tmp = hl__gl_scratch(dev, (size_t)tight * r->height * layers);
        if (!tmp) return hl__fail(HL_ERR_OUT_OF_MEMORY, "gles3: out of memory for an upload");
        for (uint32_t l = 0; l < layers; l++) {
            const uint8_t *s = src + (size_t)l * pitch * r->height;
            uint8_t *d = tmp + (size_t)l * tight * r->height;
            if (gf->bgra) {
                hl__gl_swap_rb_rows(d, tight, s, pitch, r->width, r->height);
            } else {
                for (uint32_t y = 0; y < r->height; y++) memcpy(d + (size_t)y * tight, s + (size_t)y * pitch, tight);
            }
        }
        src = tmp;
        pitch = tight;
    }
    hl__gl_bind_texture(dev, g->scratch_unit, t->slot, t->target, t->name);
    hl__gl_pixel_store(dev, GL_UNPACK_ALIGNMENT, 1);
    hl__gl_pixel_store(dev, GL_UNPACK_ROW_LENGTH, (GLint)(pitch / texel));
    hl__gl_pixel_store(dev, GL_UNPACK_IMAGE_HEIGHT, (GLint)r->height);
    GLint level = (GLint)r->mip_level;
    if (t->target == GL_TEXTURE_2D || t->target == GL_TEXTURE_CUBE_MAP) {
        for (uint32_t l = 0; l < layers; l++) {
            HL__GL(dev, glTexSubImage2D(hl__face(t, r->z_or_layer + l), level, (GLint)r->x, (GLint)r->y,
                                        (GLsizei)r->width, (GLsizei)r->height, gf->format, gf->type,
                                        src + (size_t)l * pitch * r->height));
        }
    } else {
        HL__GL(dev, glTexSubImage3D(t->target, level, (GLint)r->x, (GLint)r->y, (GLint)r->z_or_layer, (GLsizei)r->width,
                                    (GLsizei)r->height, (GLsizei)layers, gf->format, gf->type, src));
    }
    return HL_OK;
}

/* ---- copies ---------------------------------------------------------------------------------- */
hl_result hl__gl_copy_buffer_to_buffer(hl_rhi_cmd *cmd, hl__buffer *src, uint64_t src_offset, hl__buffer *dst,
                                       uint64_t dst_offset, uint64_t size) {
    hl_rhi_device *dev = cmd->dev;
    hl__gl_make_current(dev);
    hl__gl_bind_buffer(dev, GL_COPY_READ_BUFFER, src->be.u32[0]);
    hl__gl_bind_buffer(dev, GL_COPY_WRITE_BUFFER, dst->be.u32[0]);
    HL__GL(dev, glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, (GLintptr)src_offset,
                                    (GLintptr)dst_offset, (GLsizeiptr)size));
    return HL_OK;
}

hl_result hl__gl_copy_texture_to_texture(hl_rhi_cmd *cmd, hl__texture *src, const hl_rhi_texture_region *sr,
                                         hl__texture *dst, const hl_rhi_texture_region *dr) {
    hl_rhi_device *dev = cmd->dev;
    hl__gl_make_current(dev);
    hl__gl_device *g = hl__gl(dev);
    hl__gl_texture *s = hl__gl_tex(src), *d = hl__gl_tex(dst);
    if (s->renderbuffer || d->renderbuffer)
        return hl__fail(HL_ERR_UNSUPPORTED, "gles3: OpenGL ES 3.0 cannot copy between multisampled textures");
    const hl__gl_format *gf = hl__gl_format_get(s->format);
    bool depth = gf->cls == HL__GL_FMT_DEPTH;
    uint32_t layers = sr->depth_or_layers ? sr->depth_or_layers : 1u;
    hl__gl_scissor(dev, false, 0, 0, 0, 0);
    for (uint32_t l = 0; l < layers; l++) {
        hl__gl_fbo_key rk;
        memset(&rk, 0, sizeof rk);
        hl__gl_attach sa = hl__gl_attach_of(s, sr->mip_level, sr->z_or_layer + l);
        if (depth) {
            rk.depth = sa;
            rk.depth_point = hl_rhi_format_get_info(s->format)->has_stencil ? GL_DEPTH_STENCIL_ATTACHMENT : GL_DEPTH_ATTACHMENT;
        } else {
            rk.color[0] = sa;
            rk.color_count = 1;
        }
        GLuint rf = hl__gl_fbo_get(dev, &rk);
        if (!rf) return HL_ERR_BACKEND;
        if (depth) {
            /* Depth cannot go through glCopyTexSubImage: blit between depth framebuffers. */
            hl__gl_fbo_key dk = rk;
            dk.depth = hl__gl_attach_of(d, dr->mip_level, dr->z_or_layer + l);
            GLuint df = hl__gl_fbo_get(dev, &dk);
            if (!df) return HL_ERR_BACKEND;
            hl__gl_bind_read_fbo(dev, rf);
            hl__gl_bind_draw_fbo(dev, df);
            GLbitfield mask = GL_DEPTH_BUFFER_BIT;
            if (rk.depth_point == GL_DEPTH_STENCIL_ATTACHMENT) mask |= GL_STENCIL_BUFFER_BIT;
            HL__GL(dev, glBlitFramebuffer((GLint)sr->x, (GLint)sr->y, (GLint)(sr->x + sr->width), (GLint)(sr->y + sr->height),
                                          (GLint)dr->x, (GLint)dr->y, (GLint)(dr->x + sr->width), (GLint)(dr->y + sr->height),
                                          mask, GL_NEAREST));
            continue;
        }
        hl__gl_bind_read_fbo(dev, rf);
        hl__gl_bind_texture(dev, g->scratch_unit, d->slot, d->target, d->name);
        if (d->target == GL_TEXTURE_2D || d->target == GL_TEXTURE_CUBE_MAP) {
            HL__GL(dev, glCopyTexSubImage2D(hl__face(d, dr->z_or_layer + l), (GLint)dr->mip_level, (GLint)dr->x, (GLint)dr->y,
                                            (GLint)sr->x, (GLint)sr->y, (GLsizei)sr->width, (GLsizei)sr->height));
        } else {
            HL__GL(dev, glCopyTexSubImage3D(d->target, (GLint)dr->mip_level, (GLint)dr->x, (GLint)dr->y,
                                            (GLint)(dr->z_or_layer + l), (GLint)sr->x, (GLint)sr->y, (GLsizei)sr->width,
                                            (GLsizei)sr->height));
        }
    }
    return HL_OK;
}

hl_result hl__gl_copy_buffer_to_texture(hl_rhi_cmd *cmd, hl__buffer *src, uint64_t src_offset,
                                        uint32_t bytes_per_row, hl__texture *dst, const hl_rhi_texture_region *dr) {
    hl_rhi_device *dev = cmd->dev;
    hl__gl_make_current(dev);
    hl__gl_texture *t = hl__gl_tex(dst);
    const hl__gl_format *gf = hl__gl_format_get(t->format);
    uint32_t layers = dr->depth_or_layers ? dr->depth_or_layers : 1u;
    uint64_t bytes = (uint64_t)bytes_per_row * dr->height * layers;
    if (gf->bgra) {
        /* The swap needs the CPU: map the rows, upload from scratch. */
        hl_result r = hl__gl_sync_for_read(dev, "copy_buffer_to_texture");
        if (r) return r;
        hl__gl_bind_buffer(dev, GL_COPY_READ_BUFFER, src->be.u32[0]);
        if (src_offset + bytes > src->desc.size) bytes = src->desc.size - src_offset;
#ifdef __EMSCRIPTEN__
        /* WebGL 2 has no read mappings: a copy of the rows instead */
        uint8_t *p = hl__malloc(bytes ? (size_t)bytes : 1u);
        if (!p) return hl__fail(HL_ERR_OUT_OF_MEMORY, "gles3: out of memory (copy_buffer_to_texture)");
        HL__GL(dev, glGetBufferSubData(GL_COPY_READ_BUFFER, (GLintptr)src_offset, (GLsizeiptr)bytes, p));
        hl__gl_bind_buffer(dev, GL_PIXEL_UNPACK_BUFFER, 0);
        r = hl__gl_upload(dev, t, dr, p, bytes_per_row);
        hl__free(p);
#else
        const void *p = HL__GL(dev, glMapBufferRange(GL_COPY_READ_BUFFER, (GLintptr)src_offset, (GLsizeiptr)bytes, GL_MAP_READ_BIT));
        if (!p) return hl__fail(HL_ERR_BACKEND, "gles3: glMapBufferRange failed (copy_buffer_to_texture)");
        hl__gl_bind_buffer(dev, GL_PIXEL_UNPACK_BUFFER, 0);
        r = hl__gl_upload(dev, t, dr, p, bytes_per_row);
        HL__GL(dev, glUnmapBuffer(GL_COPY_READ_BUFFER));
#endif
        return r;
    }
    hl__gl_bind_buffer(dev, GL_PIXEL_UNPACK_BUFFER, src->be.u32[0]);
    hl_result r = hl__gl_upload(dev, t, dr, (const void *)(uintptr_t)src_offset, bytes_per_row);
    hl__gl_bind_buffer(dev, GL_PIXEL_UNPACK_BUFFER, 0);
    return r;
}

hl_result hl__gl_copy_texture_to_buffer(hl_rhi_cmd *cmd, hl__texture *src, const hl_rhi_texture_region *sr,
                                        hl__buffer *dst, uint64_t dst_offset, uint32_t bytes_per_row) {
    hl_rhi_device *dev = cmd->dev;
    hl__gl_make_current(dev);
    hl__gl_texture *t = hl__gl_tex(src);
    const hl__gl_format *gf = hl__gl_format_get(t->format);
    uint32_t texel = hl__format_texel_size(t->format);
    uint32_t layers = sr->depth_or_layers ? sr->depth_or_layers : 1u;
    bool gpu_path = gf->cls != HL__GL_FMT_DEPTH && texel && hl__direct_readable(dev, gf);
    if (!gpu_path) {
        /* the CPU path reads into memory, which would block on unfinished rendering */
        hl_result r = hl__gl_sync_for_read(dev, "copy_texture_to_buffer");
        if (r) return r;
    }
    for (uint32_t l = 0; l < layers; l++) {
        hl__gl_fbo_key rk;
        memset(&rk, 0, sizeof rk);
        rk.color[0] = hl__gl_attach_of(t, sr->mip_level, sr->z_or_layer + l);
        rk.color_count = 1;
        GLuint rf = hl__gl_fbo_get(dev, &rk);
        if (!rf) return HL_ERR_BACKEND;
        hl__gl_bind_read_fbo(dev, rf);
        uint64_t off = dst_offset + (uint64_t)l * bytes_per_row * sr->height;
        if (gpu_path) {
            /* GPU path: glReadPixels into the buffer bound as PIXEL_PACK. */
            hl__gl_bind_buffer(dev, GL_PIXEL_PACK_BUFFER, dst->be.u32[0]);
            hl__gl_pixel_store(dev, GL_PACK_ALIGNMENT, 1);
            hl__gl_pixel_store(dev, GL_PACK_ROW_LENGTH, (GLint)(bytes_per_row / texel));
            HL__GL(dev, glReadPixels((GLint)sr->x, (GLint)sr->y, (GLsizei)sr->width, (GLsizei)sr->height, gf->format,
                                     gf->type, (void *)(uintptr_t)off));
            hl__gl_pixel_store(dev, GL_PACK_ROW_LENGTH, 0);
            hl__gl_bind_buffer(dev, GL_PIXEL_PACK_BUFFER, 0);
            continue;
        }
        /* CPU path (format conversion): read into scratch, write each row's texels. */
        hl__gl_bind_buffer(dev, GL_PIXEL_PACK_BUFFER, 0);
        uint32_t row = sr->width * texel;
        size_t need = (size_t)row * sr->height;
        size_t conv = (size_t)sr->width * sr->height * 16u;
        /* One reservation: hl__gl_read_rect converts from the scratch start (at most conv
         * bytes, so it does not grow it) into the rows kept after that. */
        uint8_t *tmp = hl__gl_scratch(dev, conv + need);
        if (!tmp) return hl__fail(HL_ERR_OUT_OF_MEMORY, "gles3: out of memory for a copy");
        uint8_t *rows = tmp + conv;
        hl_result r = hl__gl_read_rect(dev, t, sr->x, sr->y, sr->width, sr->height, rows, row);
        if (!r) {
            hl__gl_bind_buffer(dev, GL_COPY_WRITE_BUFFER, dst->be.u32[0]);
            for (uint32_t y = 0; y < sr->height; y++)
                HL__GL(dev, glBufferSubData(GL_COPY_WRITE_BUFFER, (GLintptr)(off + (uint64_t)y * bytes_per_row),
                                            (GLsizeiptr)row, rows + (size_t)y * row));
        }
        if (r) return r;
    }
    return HL_OK;
}

hl_result hl__gl_clear_buffer(hl_rhi_cmd *cmd, hl__buffer *buf, uint64_t offset, uint64_t size) {
    hl_rhi_device *dev = cmd->dev;
    hl__gl_make_current(dev);
    hl__gl_device *g = hl__gl(dev);
    if (!size) size = buf->desc.size - offset;
    hl__gl_bind_buffer(dev, GL_COPY_WRITE_BUFFER, buf->be.u32[0]);
    while (size) {
        uint64_t n = size < HL__GL_ZERO_BYTES ? size : HL__GL_ZERO_BYTES;
        HL__GL(dev, glBufferSubData(GL_COPY_WRITE_BUFFER, (GLintptr)offset, (GLsizeiptr)n, g->zeros));
        offset += n;
        size -= n;
    }
    return HL_OK;
}

/* generate_mipmaps draws each level from the one above with the webgpu backend's very shader
 * (src/rhi/webgpu/shaders/mipmap.frag): one linear sample between the four source texels at
 * the target texel's centre, so both backends make the same levels (glGenerateMipmap's filter
 * is the driver's choice, and drivers differ on odd sizes). */
static const char *const k_mip_vs = "#version 300 es\n"
                                    "void main() {\n"
                                    "    vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));\n"
                                    "    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);\n"
                                    "}\n";
static const char *const k_mip_fs = "#version 300 es\n"
                                    "precision highp float;\n"
                                    "uniform highp sampler2D u_src;\n"
                                    "layout(location = 0) out vec4 o_color;\n"
                                    "void main() {\n"
                                    "    ivec2 dst_size = max(textureSize(u_src, 0) >> 1, ivec2(1));\n"
                                    "    o_color = textureLod(u_src, gl_FragCoord.xy / vec2(dst_size), 0.0);\n"
                                    "}\n";

static hl_result mip_objects(hl_rhi_device *dev, hl__gl_device *g) {
    if (g->mip_program) return HL_OK;
    GLuint sh[2] = {HL__GL(dev, glCreateShader(GL_VERTEX_SHADER)), HL__GL(dev, glCreateShader(GL_FRAGMENT_SHADER))};
    const char *src[2] = {k_mip_vs, k_mip_fs};
    GLuint p = HL__GL(dev, glCreateProgram());
    for (int i = 0; i < 2; i++) {
        HL__GL(dev, glShaderSource(sh[i], 1, &src[i], NULL));
        HL__GL(dev, glCompileShader(sh[i]));
        HL__GL(dev, glAttachShader(p, sh[i]));
    }
    HL__GL(dev, glLinkProgram(p));
    for (int i = 0; i < 2; i++) HL__GL(dev, glDeleteShader(sh[i]));
    GLint ok = 0;
    HL__GL(dev, glGetProgramiv(p, GL_LINK_STATUS, &ok));
    if (!ok) {
        char log[512] = "";
        HL__GL(dev, glGetProgramInfoLog(p, sizeof log, NULL, log));
        HL__GL(dev, glDeleteProgram(p));
        return hl__fail(HL_ERR_BACKEND, "gles3: generate_mipmaps: the blit program did not link: %s", log);
    }
    hl__gl_use_program(dev, p);
    HL__GL(dev, glUniform1i(HL__GL(dev, glGetUniformLocation(p, "u_src")), (GLint)g->scratch_unit));
    HL__GL(dev, glGenVertexArrays(1, &g->mip_vao));
    HL__GL(dev, glGenSamplers(1, &g->mip_sampler));
    HL__GL(dev, glSamplerParameteri(g->mip_sampler, GL_TEXTURE_MIN_FILTER, GL_LINEAR));
    HL__GL(dev, glSamplerParameteri(g->mip_sampler, GL_TEXTURE_MAG_FILTER, GL_LINEAR));
    HL__GL(dev, glSamplerParameteri(g->mip_sampler, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE));
    HL__GL(dev, glSamplerParameteri(g->mip_sampler, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE));
    g->mip_program = p;
    return HL_OK;
}

hl_result hl__gl_generate_mipmaps(hl_rhi_cmd *cmd, hl__texture *tex) {
    hl_rhi_device *dev = cmd->dev;
    hl__gl_make_current(dev);
    hl__gl_device *g = hl__gl(dev);
    hl__gl_texture *t = hl__gl_tex(tex);
    if (t->renderbuffer) return hl__fail(HL_ERR_UNSUPPORTED, "gles3: multisampled textures have no mipmaps");
    if (t->levels < 2) return HL_OK;
    hl_result r = mip_objects(dev, g);
    if (r) return r;
    hl__gl_use_program(dev, g->mip_program);
    hl__gl_bind_vao(dev, g->mip_vao);
    hl__gl_bind_sampler(dev, g->scratch_unit, g->mip_sampler);
    static const GLboolean all[4] = {GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE};
    hl__gl_state *s = &g->st;
    hl__gl_blend(dev, false, s->blend_eq[0], s->blend_eq[1], s->blend_func[0], s->blend_func[1], s->blend_func[2],
                 s->blend_func[3]);
    hl__gl_depth(dev, false, s->depth_func, s->depth_mask);
    hl__gl_enable(dev, GL_STENCIL_TEST, &s->stencil_test, false);
    hl__gl_cull(dev, false, s->cull_face, s->front_face);
    hl__gl_scissor(dev, false, 0, 0, 0, 0);
    hl__gl_polygon_offset(dev, false, s->poly_factor, s->poly_units);
    hl__gl_enable(dev, GL_SAMPLE_ALPHA_TO_COVERAGE, &s->a2c, false);
    hl__gl_color_mask(dev, all);
    for (uint32_t level = 1; level < t->levels; level++) {
        hl__gl_fbo_key key;
        memset(&key, 0, sizeof key);
        key.color[0] = hl__gl_attach_of(t, level, 0);
        key.color_count = 1;
        GLuint fbo = hl__gl_fbo_get(dev, &key);
        if (!fbo) return HL_ERR_BACKEND;
        hl__gl_bind_draw_fbo(dev, fbo);
        GLint w = (GLint)(tex->desc.width >> level), h = (GLint)(tex->desc.height >> level);
        hl__gl_viewport(dev, 0, 0, w ? w : 1, h ? h : 1);
        hl__gl_bind_texture_levels(dev, g->scratch_unit, t, (GLint)level - 1, (GLint)level - 1);
        HL__GL(dev, glDrawArrays(GL_TRIANGLES, 0, 3));
    }
    hl__gl_mark_all_dirty(g); /* the next pass applies its pipeline and groups again */
    return HL_OK;
}
