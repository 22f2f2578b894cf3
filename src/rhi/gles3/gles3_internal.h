/* gles3 backend internals: OpenGL ES 3.0 over headless EGL.
 *
 * Orientation (one convention for the whole backend, chosen so that every image matches
 * WebGPU's without changes to the shader toolchain):
 *   - Every vertex shader gets a backend-injected epilogue `gl_Position.y = -gl_Position.y`
 *     (the user's main is renamed with a #define and called from a wrapper main), and the
 *     front face is inverted (RHI CCW -> GL_CW) because the flip mirrors window winding.
 *   - Hence clip-space y = +1 lands on GL window row 0, which is memory row 0 of the render
 *     target: memory row 0 is the image's top row for rendered AND uploaded textures.
 *   - So texture_write/texture_read/copies move memory rows unchanged; viewport and scissor y
 *     count from the top like WebGPU's with no arithmetic; gl_FragCoord.y is 0.5 on the top
 *     row like WebGPU's frag coord; a texture uploaded row-0-first and one rendered, then
 *     sampled at v = 0, both give their top row, exactly as on WebGPU.
 *   - Remaining differences: dFdy() has the opposite sign of WebGPU's dpdy(); the depth range
 *     of clip space is GL's [-1, 1] (the shader's matter, not the backend's).
 *
 * GL state goes through the state-diff cache in gles3_state.c; every GL/EGL call counts one
 * native call (HL__GL). Out-of-pass work (uploads, copies, readback) binds textures on a
 * scratch texture unit that draws never use and buffers on the COPY_* / PIXEL_* targets, so
 * it does not disturb the bindings a pass relies on.
 */
#ifndef HL_GLES3_INTERNAL_H
#define HL_GLES3_INTERNAL_H

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
#ifdef __EMSCRIPTEN__
#include <webgl/webgl2.h> /* glGetBufferSubData: WebGL 2's read of a buffer (no read mappings) */
#endif

#include "rhi_internal.h"

/* Counts one native call, then makes it. */
#define HL__GL(dev, call) (HL__NATIVE(dev), call)

#define HL__GL_MAX_UNITS 32     /* texture units tracked (the last usable one is the scratch unit) */
#define HL__GL_MAX_UBO_SLOTS 72 /* indexed uniform buffer binding points tracked */
#define HL__GL_FENCES 64        /* frames in flight tracked; a full ring waits for the oldest */
#define HL__GL_MAX_PROGRAM_UBOS 32
#define HL__GL_VAO_SETS 64
#define HL__GL_FBO_SETS 32
#define HL__GL_CACHE_WAYS 4
#define HL__GL_ZERO_BYTES 65536u

/* Texture target slots tracked per unit. */
enum { HL__GL_T2D = 0, HL__GL_T3D, HL__GL_T2DA, HL__GL_TCUBE, HL__GL_TARGET_COUNT };

typedef enum hl__gl_fmt_class {
    HL__GL_FMT_UNORM8 = 0, /* read back as RGBA/UNSIGNED_BYTE */
    HL__GL_FMT_FLOAT,      /* read back as RGBA/FLOAT */
    HL__GL_FMT_UINT,       /* read back as RGBA_INTEGER/UNSIGNED_INT */
    HL__GL_FMT_PACKED,     /* rgb10a2: its own guaranteed read pair */
    HL__GL_FMT_DEPTH,
} hl__gl_fmt_class;

typedef struct hl__gl_format {
    GLenum internal, format, type;
    uint8_t channels;
    uint8_t cls; /* hl__gl_fmt_class */
    bool half;   /* 16-bit float texels */
    bool bgra;   /* stored as RGBA8; bytes swapped on the way in and out */
} hl__gl_format;

const hl__gl_format *hl__gl_format_get(hl_rhi_format f);

typedef struct hl__gl_texture {
    GLuint name; /* texture or renderbuffer */
    GLenum target; /* GL_TEXTURE_2D/3D/2D_ARRAY/CUBE_MAP or GL_RENDERBUFFER */
    uint8_t slot;  /* HL__GL_T* */
    bool renderbuffer;
    hl_rhi_format format;
    uint32_t levels, layers;
    GLint base_level, max_level; /* current GL_TEXTURE_BASE_LEVEL / MAX_LEVEL */
} hl__gl_texture;

typedef struct hl__gl_shader {
    GLuint name;
    uint64_t uid; /* never reused: program cache key */
    hl_rhi_shader_stage stage;
    hl_rhi_binding_plan_entry *plan; /* names owned */
    uint32_t plan_count;
} hl__gl_shader;

/* A linked program shared by every pipeline of the same vertex + fragment shaders. UBO slots
 * are the program's (group, binding) uniform blocks flattened in (group, binding) order;
 * texture units are its plan's combined samplers in plan order. */
typedef struct hl__gl_program {
    struct hl__gl_program *next;
    uint64_t vs_uid, fs_uid;
    uint32_t refs;
    GLuint name;
    uint32_t ubo_count;
    struct { uint32_t group, binding; } ubo[HL__GL_MAX_PROGRAM_UBOS]; /* index = slot */
    uint32_t unit_count;
    struct { uint32_t group, binding, sampler_binding; } unit[HL__GL_MAX_UNITS]; /* index = unit */
    uint8_t group_mask; /* groups the program reads */
} hl__gl_program;

typedef struct hl__gl_vertex_layout {
    uint32_t buffer_count;
    uint32_t stride[HL_RHI_MAX_VERTEX_BUFFERS];
    uint32_t per_instance[HL_RHI_MAX_VERTEX_BUFFERS];
    uint32_t attr_count;
    struct { uint32_t format, offset, location, buffer; } attr[HL_RHI_MAX_VERTEX_ATTRIBUTES];
} hl__gl_vertex_layout;

/* A vertex format's glVertexAttrib(I)Pointer arguments (integer: the I form). */
typedef struct hl__vfmt {
    GLint size;
    GLenum type;
    GLboolean normalized;
    bool integer;
} hl__vfmt;
hl__vfmt hl__vertex_format(uint32_t f);

typedef struct hl__gl_pipeline {
    hl__gl_program *prog;
    uint32_t layout_id; /* interned vertex layout */
    uint32_t vertex_buffer_count;
    GLenum mode;
    bool restart;
    bool cull;
    GLenum cull_face, front_face;
    bool depth_test;
    GLenum depth_func;
    GLboolean depth_write;
    bool stencil;
    GLenum st_func[2], st_fail[2], st_zfail[2], st_pass[2];
    GLuint st_read_mask, st_write_mask;
    bool blend;
    GLenum eq_rgb, eq_a, src_rgb, dst_rgb, src_a, dst_a;
    GLboolean color_mask[4];
    uint32_t draw_mask;     /* bit i: colour target i is written (else its draw buffer is GL_NONE) */
    uint32_t target_count;  /* colour targets of the pipeline */
    bool poly_offset;
    float poly_factor, poly_units;
    bool a2c;
} hl__gl_pipeline;

enum { HL__GL_BG_UBO = 1, HL__GL_BG_TEXTURE, HL__GL_BG_SAMPLER };

typedef struct hl__gl_bg_entry {
    uint32_t binding;
    uint8_t kind;
    int8_t dynamic_index; /* -1: not dynamic */
    GLuint buffer;
    uint32_t offset, size;
    uint32_t view_id; /* resolved at bind time: a destroyed view binds nothing */
    GLuint sampler;
} hl__gl_bg_entry;

typedef struct hl__gl_bind_group {
    uint32_t count;
    hl__gl_bg_entry e[HL_RHI_MAX_BINDINGS];
} hl__gl_bind_group;

/* A UBO slot of a program fed by a dynamic entry of a bind group. */
typedef struct hl__gl_dyn_slot {
    uint32_t slot;
    const hl__gl_bg_entry *e;
} hl__gl_dyn_slot;

/* Render bundles (gles3_bundles.c). A bundle is its packets resolved at recording into draws:
 * a draw after a change of pipeline, groups or buffers carries the whole draw state (applied
 * through the setters and hl__gl_flush, as a pass command would), every other one only the UBO
 * ranges its new dynamic offsets select and its GL draw arguments. */
typedef struct hl__gl_bundle_state {
    hl__gl_pipeline *pipeline;
    hl__gl_bind_group *groups[HL_RHI_MAX_BIND_GROUPS];
    uint32_t dyn[HL_RHI_MAX_BIND_GROUPS][HL_RHI_MAX_BINDINGS];
    uint32_t dyn_count[HL_RHI_MAX_BIND_GROUPS];
    GLuint vb[HL_RHI_MAX_VERTEX_BUFFERS];
    uint64_t vb_offset[HL_RHI_MAX_VERTEX_BUFFERS];
    GLuint ib;
    hl_rhi_index_format index_format;
    uint64_t ib_offset;
} hl__gl_bundle_state;

typedef struct hl__gl_bundle_bind {
    uint32_t slot;
    GLuint buffer;
    uint32_t offset, size;
} hl__gl_bundle_bind;

typedef struct hl__gl_bundle_draw {
    uint32_t state;           /* index of the draw state applied first; UINT32_MAX: none */
    uint32_t bind_first;      /* its UBO ranges (none with a state) */
    uint32_t bind_count;
    GLenum mode, index_type;  /* index_type 0: not indexed */
    GLsizei count, instances; /* count 0: nothing to draw (the state is still applied) */
    GLint first;              /* not indexed: the first vertex */
    uintptr_t index_ptr;      /* indexed: the index buffer offset of the first index */
} hl__gl_bundle_draw;

/* The recording in progress (high-water arrays of the device) and the draw state it tracks. */
typedef struct hl__gl_bundle_recorder {
    hl__gl_bundle_state cur;
    bool state_dirty;
    uint8_t offsets_dirty;
    hl__gl_dyn_slot dyn_slots[HL_RHI_MAX_BIND_GROUPS][HL_RHI_MAX_BINDINGS]; /* of cur, when a state is taken */
    uint32_t dyn_slot_count[HL_RHI_MAX_BIND_GROUPS];
    hl__gl_bundle_draw *draws;
    hl__gl_bundle_state *states;
    hl__gl_bundle_bind *binds;
    uint32_t draw_count, draw_capacity, state_count, state_capacity, bind_count, bind_capacity;
    bool oom;
} hl__gl_bundle_recorder;

/* One framebuffer attachment: kind 0 none, 1 texture 2D, 2 cube face, 3 layer, 4 renderbuffer. */
typedef struct hl__gl_attach {
    GLuint name;
    uint32_t kind, level, layer;
} hl__gl_attach;

typedef struct hl__gl_fbo_key {
    hl__gl_attach color[HL_RHI_MAX_COLOR_ATTACHMENTS];
    hl__gl_attach depth;
    uint32_t color_count;
    GLenum depth_point; /* GL_DEPTH_ATTACHMENT / GL_DEPTH_STENCIL_ATTACHMENT */
} hl__gl_fbo_key;

typedef struct hl__gl_fbo_entry {
    hl__gl_fbo_key key;
    GLuint fbo;
    uint64_t tick;
} hl__gl_fbo_entry;

typedef struct hl__gl_vao_key {
    uint32_t layout_id;
    GLuint index_buffer;
    GLuint vb[HL_RHI_MAX_VERTEX_BUFFERS];
    uint64_t vb_offset[HL_RHI_MAX_VERTEX_BUFFERS];
} hl__gl_vao_key;

typedef struct hl__gl_vao_entry {
    hl__gl_vao_key key;
    GLuint vao;
    uint64_t tick;
} hl__gl_vao_entry;

/* The state-diff cache: what is bound in the context. */
typedef struct hl__gl_state {
    GLuint program, vao, draw_fbo, read_fbo;
    GLuint array_buffer, copy_read, copy_write, pack_buffer, unpack_buffer, renderbuffer;
    GLuint active_unit;
    GLuint tex[HL__GL_MAX_UNITS][HL__GL_TARGET_COUNT];
    GLuint sampler[HL__GL_MAX_UNITS];
    struct { GLuint buffer; uint32_t offset, size; } ubo[HL__GL_MAX_UBO_SLOTS];
    bool blend, depth_test, stencil_test, cull, scissor_test, poly_offset, a2c, restart;
    GLenum blend_eq[2], blend_func[4];
    float blend_color[4];
    GLenum depth_func;
    GLboolean depth_mask;
    float depth_range[2];
    GLenum st_func[2];
    GLint st_ref[2];
    GLuint st_read_mask[2], st_write_mask[2];
    GLenum st_op[2][3];
    GLenum cull_face, front_face;
    GLboolean color_mask[4];
    GLint viewport[4], scissor[4];
    float poly_factor, poly_units;
    GLint pack_align, unpack_align, pack_row_length, unpack_row_length, unpack_image_height;
} hl__gl_state;

typedef struct hl__gl_device {
    /* EGL */
    EGLDisplay display;
    EGLContext context;
    EGLSurface pbuffer; /* EGL_NO_SURFACE with EGL_KHR_surfaceless_context */
    EGLConfig config;
    const char *platform;
    /* the window surface (gles3_surface.c), current instead of the pbuffer while it exists; in
       the browser the canvas's surface, which is `pbuffer` too (the device's, never destroyed
       by the surface) */
    EGLSurface window;
    hl__gl_texture *backbuffer; /* the frame texture's GL texture, at the configured size */
    uint32_t window_width, window_height; /* the configured size */
    EGLint swap_width, swap_height;       /* the window's size (EGL's) at the last swap */
    EGLint swap_interval;                 /* of the configured present mode */
    /* device loss: glGetGraphicsResetStatus(KHR/EXT) when the context was created with reset
       notification (EGL_EXT_create_context_robustness), else NULL; context_destroyed: the
       context and surface were destroyed by hl_rhi_device_simulate_loss (teardown skips them) */
    GLenum (*reset_status)(void);
    bool context_destroyed;
#ifdef __EMSCRIPTEN__
    bool web_simulated_loss; /* hl_rhi_device_simulate_loss in the browser: lost, the context kept */
#endif

    hl__gl_state st;

    /* GL facts */
    GLint gl_major, gl_minor;
    uint32_t draw_units;   /* texture units a program may use (scratch unit excluded) */
    uint32_t scratch_unit; /* the unit out-of-pass work binds textures on */
    uint32_t ubo_slots;
    bool ext_color_buffer_float, ext_color_buffer_half_float, ext_float_blend, float_linear, aniso;
    float max_aniso;

    /* frame scope */
    struct { uint64_t serial; GLsync sync; } fences[HL__GL_FENCES];
    uint32_t fence_head, fence_count;
    uint64_t last_serial;      /* last serial ended or aborted */
    uint64_t completed_serial; /* highest serial known complete */

    /* caches */
    hl__gl_vao_entry vao[HL__GL_VAO_SETS * HL__GL_CACHE_WAYS];
    hl__gl_fbo_entry fbo[HL__GL_FBO_SETS * HL__GL_CACHE_WAYS];
    uint64_t tick;
    hl__gl_vertex_layout *layouts;
    uint32_t layout_count, layout_capacity;
    hl__gl_program *programs;
    uint64_t next_shader_uid;

    /* scratch memory (high-water) and a zero block for clears */
    uint8_t *scratch;
    uint32_t scratch_capacity;
    uint8_t *zeros;

    /* command state of the open pass, applied lazily at draw time */
    hl__gl_pipeline *pipeline;
    hl__gl_program *applied_program;
    GLuint depth_only_fs; /* GLES programs need a fragment shader: an empty one for depth-only pipelines */
    GLuint mip_program, mip_vao, mip_sampler; /* generate_mipmaps' blit (made on first use) */
    uint32_t applied_layout;
    bool pipeline_dirty, vao_dirty;
    uint8_t group_dirty;
    uint8_t offsets_dirty; /* same group bound again with new dynamic offsets: UBO ranges only */
    /* Per group, the UBO slots of the applied program that take a dynamic offset and their
       entries, recorded when the group is applied whole: rebinding offsets walks only these. */
    hl__gl_dyn_slot dyn_slots[HL_RHI_MAX_BIND_GROUPS][HL_RHI_MAX_BINDINGS];
    uint8_t dyn_slot_count[HL_RHI_MAX_BIND_GROUPS];
    hl__gl_bind_group *groups[HL_RHI_MAX_BIND_GROUPS];
    uint32_t dyn[HL_RHI_MAX_BIND_GROUPS][HL_RHI_MAX_BINDINGS];
    GLuint vb[HL_RHI_MAX_VERTEX_BUFFERS];
    uint64_t vb_offset[HL_RHI_MAX_VERTEX_BUFFERS];
    GLuint ib;
    GLenum index_type;
    uint32_t index_size;
    uint64_t ib_offset;
    uint32_t stencil_ref;
    bool depth_read_only, stencil_read_only;
    GLuint pass_fbo;
    uint32_t pass_color_count; /* colour attachments of the open pass */
    uint32_t pass_draw_mask;   /* draw buffers of the pass FBO now (bit i: GL_COLOR_ATTACHMENTi) */
    hl__gl_bundle_recorder rec; /* the render bundle being recorded */
} hl__gl_device;

static inline hl__gl_device *hl__gl(hl_rhi_device *dev) { return (hl__gl_device *)dev->be; }
/* What the context is made current with: the window surface while there is one, else the
 * pbuffer (EGL_NO_SURFACE: surfaceless). */
static inline EGLSurface hl__gl_draw_surface(const hl__gl_device *g) {
    return g->window != EGL_NO_SURFACE ? g->window : g->pbuffer;
}
static inline hl__gl_texture *hl__gl_tex(const hl__texture *t) { return (hl__gl_texture *)t->be.ptr; }

/* ---- gles3_egl.c ---- */
hl_result hl__gl_egl_open(hl_rhi_device *dev, hl__gl_device *g);
void hl__gl_egl_close(hl_rhi_device *dev, hl__gl_device *g);
void hl__gl_drop_kept_display(hl_rhi_device *dev);
/* For a device whose GPU work still runs at destroy: releases the context from this thread
 * but neither destroys it nor its surface nor the display reference (llvmpipe's
 * eglDestroyContext blocks until its rasterizer finished, possibly never). EGL keeps them
 * until the process exits. */
void hl__gl_egl_abandon(hl_rhi_device *dev, hl__gl_device *g);
/* Makes dev's context current on this thread. For a lost device it makes no context current
 * instead, so that the GL calls that follow (teardown) reach no context. */
void hl__gl_make_current(hl_rhi_device *dev);
/* Makes dev's context current with `draw` (the window surface, or the pbuffer); HL_ERR_BACKEND
 * naming the EGL error. */
hl_result hl__gl_make_current_with(hl_rhi_device *dev, EGLSurface draw);
/* Device loss (gles3_egl.c): polls the context (EGL validity, reset status) and marks dev lost;
 * simulate destroys the context and its surface, then polls. */
void hl__gl_check_lost(hl_rhi_device *dev);
/* full = false: the reset status alone (one GL call where the context reports resets, none
 * elsewhere): what every submission asks. */
void hl__gl_poll_lost(hl_rhi_device *dev, bool full);
void hl__gl_simulate_loss(hl_rhi_device *dev);
/* Thread hand-over (the core's owner rule): release the context here / make it current here. */
void hl__gl_thread_detach(hl_rhi_device *dev);
hl_result hl__gl_thread_attach(hl_rhi_device *dev);
hl_result hl__gl_probe(const hl_rhi_requirements *req, const hl_rhi_device_desc *desc, char *adapter_name,
                       size_t adapter_name_size);

/* ---- gles3_state.c: cached setters ---- */
void hl__gl_state_init(hl_rhi_device *dev);
void hl__gl_invalidate_native_state(hl_rhi_device *dev);
void hl__gl_use_program(hl_rhi_device *dev, GLuint p);
void hl__gl_bind_vao(hl_rhi_device *dev, GLuint vao);
void hl__gl_bind_draw_fbo(hl_rhi_device *dev, GLuint fbo);
void hl__gl_bind_read_fbo(hl_rhi_device *dev, GLuint fbo);
void hl__gl_bind_buffer(hl_rhi_device *dev, GLenum target, GLuint buf);
/* The draw call of the applied state, the one place that picks it: index_type 0 draws count
 * vertices from first, else count indices of index_type from byte offset index_at + first *
 * index_size of the bound index buffer; instanced when instances is not 1. The byte offset is
 * computed in the indexed branch only (the per-draw path of unindexed draws pays nothing for it).
 * Uncounted: callers count it as a native call (hl__gl_draw_call does; a draw loop may sum). */
static inline void hl__gl_draw_native(GLenum mode, GLenum index_type, uint64_t index_at, uint32_t index_size, GLint first,
                                      GLsizei count, GLsizei instances) {
    if (!index_type) {
        if (instances == 1) glDrawArrays(mode, first, count);
        else glDrawArraysInstanced(mode, first, count, instances);
        return;
    }
    const void *ptr = (const void *)(uintptr_t)(index_at + (uint64_t)(uint32_t)first * index_size);
    if (instances == 1) glDrawElements(mode, count, index_type, ptr);
    else glDrawElementsInstanced(mode, count, index_type, ptr, instances);
}

static inline void hl__gl_draw_call(hl_rhi_device *dev, GLenum mode, GLenum index_type, uint64_t index_at,
                                    uint32_t index_size, GLint first, GLsizei count, GLsizei instances) {
    HL__NATIVE(dev);
    hl__gl_draw_native(mode, index_type, index_at, index_size, first, count, instances);
}

/* Inline: the per-draw path binds an object's UBO range through it. */
static inline void hl__gl_bind_ubo(hl_rhi_device *dev, uint32_t slot, GLuint buf, uint32_t offset, uint32_t size) {
    hl__gl_state *s = &hl__gl(dev)->st;
    if (slot >= HL__GL_MAX_UBO_SLOTS) return;
    if (s->ubo[slot].buffer == buf && s->ubo[slot].offset == offset && s->ubo[slot].size == size) return;
    s->ubo[slot].buffer = buf;
    s->ubo[slot].offset = offset;
    s->ubo[slot].size = size;
    HL__GL(dev, glBindBufferRange(GL_UNIFORM_BUFFER, slot, buf, (GLintptr)offset, (GLsizeiptr)size));
}
void hl__gl_bind_texture(hl_rhi_device *dev, uint32_t unit, uint32_t slot, GLenum target, GLuint tex);
void hl__gl_bind_sampler(hl_rhi_device *dev, uint32_t unit, GLuint sampler);
/* Binds tex on unit with GL_TEXTURE_BASE_LEVEL / MAX_LEVEL set to [base, max]. */
void hl__gl_bind_texture_levels(hl_rhi_device *dev, uint32_t unit, hl__gl_texture *t, GLint base, GLint max);
void hl__gl_enable(hl_rhi_device *dev, GLenum cap, bool *cached, bool on);
void hl__gl_blend(hl_rhi_device *dev, bool on, GLenum eq_rgb, GLenum eq_a, GLenum src_rgb, GLenum dst_rgb,
                  GLenum src_a, GLenum dst_a);
void hl__gl_blend_color(hl_rhi_device *dev, const float c[4]);
void hl__gl_depth(hl_rhi_device *dev, bool test, GLenum func, GLboolean mask);
void hl__gl_depth_range(hl_rhi_device *dev, float n, float f);
void hl__gl_stencil_face(hl_rhi_device *dev, uint32_t face, GLenum func, GLint ref, GLuint read_mask,
                         GLenum fail, GLenum zfail, GLenum pass, GLuint write_mask);
void hl__gl_cull(hl_rhi_device *dev, bool on, GLenum face, GLenum front);
void hl__gl_color_mask(hl_rhi_device *dev, const GLboolean m[4]);
void hl__gl_viewport(hl_rhi_device *dev, GLint x, GLint y, GLint w, GLint h);
void hl__gl_scissor(hl_rhi_device *dev, bool on, GLint x, GLint y, GLint w, GLint h);
void hl__gl_polygon_offset(hl_rhi_device *dev, bool on, float factor, float units);
void hl__gl_pixel_store(hl_rhi_device *dev, GLenum pname, GLint value);
/* Forgets GL names being deleted so the cache never matches a reused name. */
void hl__gl_forget_buffer(hl_rhi_device *dev, GLuint buf);
void hl__gl_forget_texture(hl_rhi_device *dev, GLuint tex);
void hl__gl_forget_sampler(hl_rhi_device *dev, GLuint s);

/* ---- gles3_pipeline.c ---- */
hl_result hl__gl_shader_create(hl_rhi_device *dev, const hl_rhi_shader_desc *desc, hl__shader *shader);
void hl__gl_shader_destroy(hl_rhi_device *dev, hl__shader *shader);
hl_result hl__gl_render_pipeline_create(hl_rhi_device *dev, const hl__render_pipeline_info *info, hl__native *be);
void hl__gl_render_pipeline_destroy(hl_rhi_device *dev, hl__native be);
hl_result hl__gl_bind_group_create(hl_rhi_device *dev, hl__bind_group *group, hl__bind_group_layout *layout);
void hl__gl_bind_group_destroy(hl_rhi_device *dev, hl__bind_group *group);
hl_result hl__gl_sampler_create(hl_rhi_device *dev, const hl_rhi_sampler_desc *desc, hl__native *be);
void hl__gl_sampler_destroy(hl_rhi_device *dev, hl__native be);
void hl__gl_programs_release(hl_rhi_device *dev);
/* The program of vs + fs (fs may be NULL) from the device's list, linked on a miss; no
 * reference taken (pipelines take theirs). */
hl_result hl__gl_program_find_or_link(hl_rhi_device *dev, hl__gl_shader *vs, hl__gl_shader *fs, hl__gl_program **out);

/* ---- gles3_introspect.c ---- */
hl_result hl__gl_program_introspect(hl_rhi_device *dev, hl__shader *vs, hl__shader *fs, hl_rhi_program_info **out);

/* ---- gles3_backend.c ---- */
/* Before a CPU read of GPU results (glReadPixels into memory, glMapBufferRange for reading):
 * a fence after every command issued so far, waited for at most the device's wait timeout,
 * so the read cannot block on unfinished GPU work without limit (HL_ERR_TIMEOUT naming what). */
hl_result hl__gl_sync_for_read(hl_rhi_device *dev, const char *what);

/* ---- gles3_backend.c: textures (also the surface's backbuffer) ---- */
hl_result hl__gl_texture_create(hl_rhi_device *dev, hl__texture *tex);
void hl__gl_texture_destroy(hl_rhi_device *dev, hl__texture *tex);

/* ---- gles3_surface.c: the window surface (the table's surface_* entries) ---- */
hl_result hl__gl_surface_create(hl_rhi_device *dev, hl__surface *s);
void hl__gl_surface_destroy(hl_rhi_device *dev, hl__surface *s);
hl_result hl__gl_surface_configure(hl_rhi_device *dev, hl__surface *s, const hl_rhi_surface_config *config);
hl_result hl__gl_surface_acquire(hl_rhi_device *dev, hl__surface *s, hl__texture *tex, hl_rhi_surface_status *status);
hl_result hl__gl_surface_present(hl_rhi_device *dev, hl__surface *s, hl__texture *tex);

/* ---- gles3_commands.c ---- */
/* Framebuffer from the cache (created on a miss); 0 with a message when incomplete. */
GLuint hl__gl_fbo_get(hl_rhi_device *dev, const hl__gl_fbo_key *key);
hl__gl_attach hl__gl_attach_of(const hl__gl_texture *t, uint32_t level, uint32_t layer);
void hl__gl_caches_forget_texture(hl_rhi_device *dev, GLuint name);
void hl__gl_caches_forget_buffer(hl_rhi_device *dev, GLuint name);
void hl__gl_caches_release(hl_rhi_device *dev);
/* Reads a w x h rectangle of the bound read framebuffer into dst (dst_pitch bytes per row),
 * converting from what GLES can read to the format's texel layout. */
hl_result hl__gl_read_rect(hl_rhi_device *dev, const hl__gl_texture *t, uint32_t x, uint32_t y, uint32_t w,
                           uint32_t h, uint8_t *dst, uint32_t dst_pitch);
/* Scratch memory of at least size bytes (high-water). */
uint8_t *hl__gl_scratch(hl_rhi_device *dev, size_t size);
/* Copies rows swapping bytes 0 and 2 of every texel (bgra <-> rgba). */
void hl__gl_swap_rb_rows(uint8_t *dst, uint32_t dst_pitch, const uint8_t *src, uint32_t src_pitch, uint32_t w,
                         uint32_t h);

extern const hl__rhi_backend_fns hl__rhi_gles3_backend;

/* command entry points (gles3_commands.c) */
void hl__gl_draw_buffers(hl_rhi_device *dev, uint32_t mask, uint32_t count);
hl_result hl__gl_begin_render_pass(hl_rhi_cmd *cmd, const hl__render_pass_info *rp);
hl_result hl__gl_end_render_pass(hl_rhi_cmd *cmd);
void hl__gl_set_pipeline(hl_rhi_cmd *cmd, hl__render_pipeline *p);
void hl__gl_set_bind_group(hl_rhi_cmd *cmd, uint32_t index, hl__bind_group *g, const uint32_t *offsets,
                           uint32_t offset_count);
void hl__gl_set_vertex_buffer(hl_rhi_cmd *cmd, uint32_t slot, hl__buffer *buf, uint64_t offset);
void hl__gl_set_index_buffer(hl_rhi_cmd *cmd, hl__buffer *buf, hl_rhi_index_format format, uint64_t offset);
void hl__gl_set_viewport(hl_rhi_cmd *cmd, const float v[6]);
void hl__gl_set_scissor(hl_rhi_cmd *cmd, const uint32_t s[4]);
void hl__gl_set_blend_constant(hl_rhi_cmd *cmd, const float c[4]);
void hl__gl_set_stencil_reference(hl_rhi_cmd *cmd, uint32_t ref);
void hl__gl_draw(hl_rhi_cmd *cmd, uint32_t vertex_count, uint32_t instance_count, uint32_t first_vertex,
                 uint32_t first_instance);
void hl__gl_draw_indexed(hl_rhi_cmd *cmd, uint32_t index_count, uint32_t instance_count, uint32_t first_index,
                         int32_t base_vertex, uint32_t first_instance);
void hl__gl_draw_run(hl_rhi_cmd *cmd, const hl_rhi_draw_packet *p, uint32_t n, uint32_t dyn);
void hl__gl_draw_indirect(hl_rhi_cmd *cmd, hl__buffer *buf, uint64_t offset, bool indexed);
/* Applies what changed since the last draw (pipeline state, bind groups, vertex arrays); false
 * with no pipeline bound. */
bool hl__gl_flush(hl_rhi_device *dev);
/* The command state as after a pass begins: nothing bound, everything applied anew at the next
 * draw (the GL state cache stays). */
void hl__gl_mark_all_dirty(hl__gl_device *g);
/* The UBO slots of program p that group gi's dynamic entries of bg feed, into out (at most
 * HL_RHI_MAX_BINDINGS); their count. */
uint32_t hl__gl_dynamic_slots(const hl__gl_program *p, const hl__gl_bind_group *bg, uint32_t gi, hl__gl_dyn_slot *out);
/* A bundle draw's state as the command state (the pass setters' rules); hl__gl_flush applies it. */
void hl__gl_bundle_state_apply(hl_rhi_device *dev, const hl__gl_bundle_state *s);
/* gles3_bundles.c */
extern const hl__rhi_backend_fns hl__rhi_gles3_bundle_fns;
hl_result hl__gl_bundle_begin(hl_rhi_cmd *rec, const hl__render_bundle *b);
hl_result hl__gl_bundle_end(hl_rhi_cmd *rec, hl__render_bundle *b, bool discard);
void hl__gl_bundle_destroy(hl_rhi_device *dev, hl__render_bundle *b);
void hl__gl_execute_bundles(hl_rhi_cmd *cmd, hl__render_bundle *const *bundles, uint32_t count);
void hl__gl_bundle_recorder_free(hl_rhi_device *dev);
hl_result hl__gl_copy_buffer_to_buffer(hl_rhi_cmd *cmd, hl__buffer *src, uint64_t src_offset, hl__buffer *dst,
                                       uint64_t dst_offset, uint64_t size);
hl_result hl__gl_copy_texture_to_texture(hl_rhi_cmd *cmd, hl__texture *src, const hl_rhi_texture_region *sr,
                                         hl__texture *dst, const hl_rhi_texture_region *dr);
hl_result hl__gl_copy_buffer_to_texture(hl_rhi_cmd *cmd, hl__buffer *src, uint64_t src_offset,
                                        uint32_t bytes_per_row, hl__texture *dst, const hl_rhi_texture_region *dr);
hl_result hl__gl_copy_texture_to_buffer(hl_rhi_cmd *cmd, hl__texture *src, const hl_rhi_texture_region *sr,
                                        hl__buffer *dst, uint64_t dst_offset, uint32_t bytes_per_row);
hl_result hl__gl_clear_buffer(hl_rhi_cmd *cmd, hl__buffer *buf, uint64_t offset, uint64_t size);
hl_result hl__gl_generate_mipmaps(hl_rhi_cmd *cmd, hl__texture *tex);
/* Uploads rows (pitch bytes apart, layers pitch * h apart) into a region of t. */
hl_result hl__gl_upload(hl_rhi_device *dev, hl__gl_texture *t, const hl_rhi_texture_region *r, const void *data,
                        uint32_t pitch);

#endif
