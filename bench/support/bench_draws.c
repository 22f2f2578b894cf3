/* See bench_draws.h. */
#include "bench_draws.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <GLES3/gl3.h>

#include "hl_shader.h"
#include "rhi_internal.h"
#include "webgpu_internal.h"

static const char *k_vs = "#version 300 es\n"
                          "layout(std140) uniform Draw { vec4 u_offset; vec4 u_color; };\n"
                          "in vec2 a_pos;\n"
                          "out vec4 v_color;\n"
                          "void main() { v_color = u_color; gl_Position = vec4(a_pos * 0.05 + u_offset.xy, 0.5, 1.0); }\n";
static const char *k_fs = "#version 300 es\n"
                          "precision mediump float;\n"
                          "in vec4 v_color;\n"
                          "out vec4 o_color;\n"
                          "void main() { o_color = v_color; }\n";

enum { TARGET = 64, SLICE = 256 };

static uint64_t clock_ns(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

uint64_t hl_bench_now_ns(void) { return clock_ns(CLOCK_MONOTONIC); }

uint64_t hl_bench_thread_cpu_ns(void) { return clock_ns(CLOCK_THREAD_CPUTIME_ID); }

double hl_bench_now_ms(void) { return (double)hl_bench_now_ns() / 1e6; }

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double hl_bench_median(double *v, uint32_t n) {
    qsort(v, n, sizeof *v, cmp_double);
    return n ? (n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2])) : 0.0;
}

typedef struct scene {
    hl_rhi_device *dev;
    hl_shader_program prog;
    hl_rhi_shader vs, fs;
    hl_rhi_bind_group_layout bgl;
    hl_rhi_pipeline_layout layout;
    hl_rhi_render_pipeline pipe;
    hl_rhi_buffer vbo, ubo;
    hl_rhi_bind_group group;
    hl_rhi_texture target;
    hl_rhi_texture_view view;
    uint32_t pos_location;
    hl_rhi_draw_packet *packets; /* the prepared draws: one per draw, its own dynamic offset */
} scene;

#define TRY(expr)                                                                                      \
    do {                                                                                               \
        hl_result r_ = (expr);                                                                         \
        if (r_) {                                                                                      \
            fprintf(stderr, "rhi_draws: %s: %s: %s\n", #expr, hl_result_name(r_), hl_last_error());    \
            return r_;                                                                                 \
        }                                                                                              \
    } while (0)

static hl_result scene_create(scene *s, uint32_t draws) {
    hl_rhi_device *dev = s->dev;
    hl_shader_program_desc pd = {0};
    pd.vertex_source = k_vs;
    pd.fragment_source = k_fs;
    TRY(hl_shader_program_compile(&pd, hl_rhi_device_backend(dev), &s->prog));
    hl_rhi_shader_desc sd;
    hl_shader_program_vertex_desc(&s->prog, &sd);
    TRY(hl_rhi_shader_create(dev, &sd, &s->vs));
    hl_shader_program_fragment_desc(&s->prog, &sd);
    TRY(hl_rhi_shader_create(dev, &sd, &s->fs));
    hl_rhi_bind_group_layout_entry e[4];
    uint32_t n = hl_shader_program_layout_entries(&s->prog, 0, true, e, 4);
    hl_rhi_bind_group_layout_desc bd = {e, n, "bench"};
    TRY(hl_rhi_bind_group_layout_create(dev, &bd, &s->bgl));
    hl_rhi_pipeline_layout_desc pld = {&s->bgl, 1, "bench"};
    TRY(hl_rhi_pipeline_layout_create(dev, &pld, &s->layout));
    s->pos_location = s->prog.reflection.inputs[0].location;
    hl_rhi_vertex_attribute attr = {HL_RHI_VERTEX_FLOAT32X2, 0, s->pos_location};
    hl_rhi_vertex_buffer_layout vbl = {8, false, &attr, 1};
    hl_rhi_color_target_state ct = {0};
    ct.format = HL_RHI_FORMAT_RGBA8_UNORM;
    hl_rhi_render_pipeline_desc rd = {0};
    rd.layout = s->layout;
    rd.vertex = s->vs;
    rd.fragment = s->fs;
    rd.vertex_buffers = &vbl;
    rd.vertex_buffer_count = 1;
    rd.color_targets = &ct;
    rd.color_target_count = 1;
    TRY(hl_rhi_render_pipeline_create(dev, &rd, &s->pipe));

    const float tri[6] = {-1, -1, 1, -1, 0, 1};
    hl_rhi_buffer_desc b = {sizeof(tri), HL_RHI_BUFFER_USAGE_VERTEX, tri, "bench.vbo"};
    TRY(hl_rhi_buffer_create(dev, &b, &s->vbo));
    float *uni = calloc(draws, SLICE);
    if (!uni) return HL_ERR_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < draws; i++) {
        float *u = uni + (size_t)i * (SLICE / sizeof(float));
        u[0] = -0.95f + 1.9f * (float)(i % 100) / 99.0f;
        u[1] = -0.95f + 1.9f * (float)((i / 100) % 100) / 99.0f;
        u[4] = (float)(i % 7) / 6.0f;
        u[5] = (float)(i % 11) / 10.0f;
        u[6] = (float)(i % 13) / 12.0f;
        u[7] = 1.0f;
    }
    b = (hl_rhi_buffer_desc){(uint64_t)draws * SLICE, HL_RHI_BUFFER_USAGE_UNIFORM, uni,
                             "bench.ubo"};
    hl_result r = hl_rhi_buffer_create(dev, &b, &s->ubo);
    free(uni);
    TRY(r);
    hl_rhi_bind_group_entry be = {0};
    be.buffer = s->ubo;
    be.size = 32;
    hl_rhi_bind_group_desc gd = {s->bgl, &be, 1, "bench"};
    TRY(hl_rhi_bind_group_create(dev, &gd, &s->group));
    hl_rhi_texture_desc td = {0};
    td.format = HL_RHI_FORMAT_RGBA8_UNORM;
    td.width = td.height = TARGET;
    td.usage = HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT | HL_RHI_TEXTURE_USAGE_COPY_SRC;
    TRY(hl_rhi_texture_create(dev, &td, &s->target));
    TRY(hl_rhi_texture_view_create(dev, s->target, NULL, &s->view));
    s->packets = calloc(draws, sizeof *s->packets);
    if (!s->packets) return HL_ERR_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < draws; i++) {
        hl_rhi_draw_packet *p = &s->packets[i];
        p->pipeline = s->pipe;
        p->bind_groups[0] = s->group;
        p->dynamic_offsets[0] = i * SLICE;
        p->bind_group_count = 1;
        p->dynamic_offset_mask = 1;
        p->vertex_buffers[0] = s->vbo;
        p->vertex_buffer_count = 1;
        p->count = 3;
        p->instance_count = 1;
    }
    return HL_OK;
}

static void scene_destroy(scene *s) {
    hl_rhi_device *dev = s->dev;
    free(s->packets);
    hl_rhi_texture_view_destroy(dev, s->view);
    hl_rhi_texture_destroy(dev, s->target);
    hl_rhi_bind_group_destroy(dev, s->group);
    hl_rhi_buffer_destroy(dev, s->ubo);
    hl_rhi_buffer_destroy(dev, s->vbo);
    hl_rhi_render_pipeline_destroy(dev, s->pipe);
    hl_rhi_pipeline_layout_destroy(dev, s->layout);
    hl_rhi_bind_group_layout_destroy(dev, s->bgl);
    hl_rhi_shader_destroy(dev, s->vs);
    hl_rhi_shader_destroy(dev, s->fs);
    hl_shader_program_free(&s->prog);
}

/* ---- engine loop ---------------------------------------------------------------------------- */
static hl_result engine_frame(scene *s, uint32_t draws, uint64_t *encode_ns) {
    uint64_t t0 = hl_bench_now_ns();
    hl_rhi_cmd *cmd;
    TRY(hl_rhi_begin_frame(s->dev, &cmd));
    hl_rhi_color_attachment ca = {0};
    ca.view = s->view;
    ca.clear_color[3] = 1.0f;
    hl_rhi_render_pass_desc rp = {0};
    rp.color_attachments = &ca;
    rp.color_attachment_count = 1;
    TRY(hl_rhi_cmd_begin_render_pass(cmd, &rp));
    TRY(hl_rhi_cmd_set_pipeline(cmd, s->pipe));
    TRY(hl_rhi_cmd_set_vertex_buffer(cmd, 0, s->vbo, 0));
    /* the engine's hot path: prepared draw packets, one call for the pass */
    hl_result r = hl_rhi_cmd_draw_packets(cmd, s->packets, draws, NULL);
    if (r) {
        hl_rhi_abort_frame(s->dev);
        return r;
    }
    TRY(hl_rhi_cmd_end_render_pass(cmd));
    hl_rhi_submission sub;
    TRY(hl_rhi_end_frame(s->dev, &sub));
    *encode_ns = hl_bench_now_ns() - t0;
    return hl_rhi_submission_wait(s->dev, sub, UINT64_MAX);
}

/* ---- raw loops ---------------------------------------------------------------------------------
 * Each raw loop has setup / frame / teardown so frames can alternate with engine frames: drift
 * in the driver over a run (llvmpipe's per-frame cost grows with the frames already run) then
 * falls on both loops alike. */
typedef struct raw_state {
    /* webgpu: the engine's native objects */
    WGPURenderPipeline pipe;
    WGPUBindGroup group;
    WGPUBuffer vbo;
    WGPUTextureView view;
    /* gles3: GL objects of its own */
    GLuint prog, vs, fs, gvbo, ubo, vao, tex, fbo;
} raw_state;

static void raw_wgpu_done(uint32_t status, WGPUStringView message, void *userdata1, void *userdata2) {
    (void)status;
    (void)message;
    (void)userdata2;
    *(volatile int *)userdata1 = 1;
}

void hl_bench_wgpu_submit(hl_rhi_device *dev, void *encoder, volatile int *done) {
    hl__wgpu_device *be = hl__wgpu_be(dev);
    WGPUCommandEncoder enc = encoder;
    WGPUCommandBuffer cb = hl__wgpu.CommandEncoderFinish(enc, NULL);
    hl__wgpu.QueueSubmit(be->queue, 1, &cb);
    hl__wgpu.CommandBufferRelease(cb);
    hl__wgpu.CommandEncoderRelease(enc);
    *done = 0;
    hl__wgpu.QueueOnSubmittedWorkDone(be->queue, (WGPUCallbackInfo){NULL, WGPUCallbackMode_AllowProcessEvents,
                                                                     (void (*)(void))raw_wgpu_done, (void *)done, NULL});
}

static hl_result raw_webgpu_setup(scene *s, raw_state *raw) {
    hl_rhi_device *dev = s->dev;
    raw->pipe = ((hl__render_pipeline *)hl__pool_get(dev, HL__POOL_RENDER_PIPELINE, s->pipe.id))->be.ptr;
    raw->group = ((hl__bind_group *)hl__pool_get(dev, HL__POOL_BIND_GROUP, s->group.id))->be.ptr;
    raw->vbo = ((hl__buffer *)hl__pool_get(dev, HL__POOL_BUFFER, s->vbo.id))->be.ptr;
    raw->view = ((hl__texture_view *)hl__pool_get(dev, HL__POOL_VIEW, s->view.id))->be.ptr;
    return HL_OK;
}

static hl_result raw_webgpu_frame(scene *s, raw_state *raw, uint32_t draws, uint64_t *encode_ns) {
    hl__wgpu_device *be = hl__wgpu_be(s->dev);
    uint64_t t0 = hl_bench_now_ns();
    WGPUCommandEncoder enc = hl__wgpu.DeviceCreateCommandEncoder(be->device, NULL);
    WGPURenderPassColorAttachment ca;
    memset(&ca, 0, sizeof(ca));
    ca.view = raw->view;
    ca.depthSlice = WGPU_DEPTH_SLICE_UNDEFINED;
    ca.loadOp = WGPULoadOp_Clear;
    ca.storeOp = WGPUStoreOp_Store;
    ca.clearValue.a = 1.0;
    WGPURenderPassDescriptor rp;
    memset(&rp, 0, sizeof(rp));
    rp.colorAttachmentCount = 1;
    rp.colorAttachments = &ca;
    WGPURenderPassEncoder pass = hl__wgpu.CommandEncoderBeginRenderPass(enc, &rp);
    hl__wgpu.RenderPassEncoderSetPipeline(pass, raw->pipe);
    hl__wgpu.RenderPassEncoderSetVertexBuffer(pass, 0, raw->vbo, 0, WGPU_WHOLE_SIZE);
    for (uint32_t i = 0; i < draws; i++) {
        uint32_t off = i * SLICE;
        hl__wgpu.RenderPassEncoderSetBindGroup(pass, 0, raw->group, 1, &off);
        hl__wgpu.RenderPassEncoderDraw(pass, 3, 1, 0, 0);
    }
    hl__wgpu.RenderPassEncoderEnd(pass);
    hl__wgpu.RenderPassEncoderRelease(pass);
    volatile int done = 0;
    hl_bench_wgpu_submit(s->dev, enc, &done);
    *encode_ns = hl_bench_now_ns() - t0;
    TRY(hl__wgpu_wait_flag(s->dev, &done, "raw frame"));
    return hl__wgpu_take_error(s->dev, "raw webgpu loop");
}

static GLuint gl_shader(GLenum type, const char *src) {
    GLuint sh = glCreateShader(type);
    glShaderSource(sh, 1, &src, NULL);
    glCompileShader(sh);
    GLint ok = 0;
    glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024];
        glGetShaderInfoLog(sh, sizeof(log), NULL, log);
        fprintf(stderr, "rhi_draws: raw GLES shader: %s\n", log);
    }
    return sh;
}

/* Same GLSL as the engine's program (the toolchain's gles3 output), its own GL objects, on the
 * engine device's current context. */
static hl_result raw_gles_setup(scene *s, raw_state *raw, uint32_t draws) {
    raw->prog = glCreateProgram();
    raw->vs = gl_shader(GL_VERTEX_SHADER, s->prog.vertex_glsl);
    raw->fs = gl_shader(GL_FRAGMENT_SHADER, s->prog.fragment_glsl);
    glAttachShader(raw->prog, raw->vs);
    glAttachShader(raw->prog, raw->fs);
    glLinkProgram(raw->prog);
    GLint ok = 0;
    glGetProgramiv(raw->prog, GL_LINK_STATUS, &ok);
    if (!ok) return hl__fail(HL_ERR_SHADER, "raw GLES program did not link");
    glUniformBlockBinding(raw->prog, glGetUniformBlockIndex(raw->prog, "Draw"), 0);
    const float tri[6] = {-1, -1, 1, -1, 0, 1};
    glGenBuffers(1, &raw->gvbo);
    glBindBuffer(GL_ARRAY_BUFFER, raw->gvbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof(tri), tri, GL_STATIC_DRAW);
    glGenVertexArrays(1, &raw->vao);
    glBindVertexArray(raw->vao);
    glEnableVertexAttribArray(s->pos_location);
    glVertexAttribPointer(s->pos_location, 2, GL_FLOAT, GL_FALSE, 8, 0);
    glBindVertexArray(0);
    float *uni = calloc(draws, SLICE);
    if (!uni) return HL_ERR_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < draws; i++) uni[(size_t)i * (SLICE / 4) + 7] = 1.0f;
    glGenBuffers(1, &raw->ubo);
    glBindBuffer(GL_UNIFORM_BUFFER, raw->ubo);
    glBufferData(GL_UNIFORM_BUFFER, (GLsizeiptr)draws * SLICE, uni, GL_STATIC_DRAW);
    free(uni);
    glGenTextures(1, &raw->tex);
    glBindTexture(GL_TEXTURE_2D, raw->tex);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, TARGET, TARGET);
    glGenFramebuffers(1, &raw->fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, raw->fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, raw->tex, 0);
    return glGetError() == GL_NO_ERROR ? HL_OK : hl__fail(HL_ERR_BACKEND, "raw GLES setup raised a GL error");
}

static hl_result raw_gles_frame(scene *s, raw_state *raw, uint32_t draws, uint64_t *encode_ns) {
    uint64_t t0 = hl_bench_now_ns();
    glBindFramebuffer(GL_FRAMEBUFFER, raw->fbo);
    glViewport(0, 0, TARGET, TARGET);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_BLEND);
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_CULL_FACE);
    const float clear[4] = {0, 0, 0, 1};
    glClearBufferfv(GL_COLOR, 0, clear);
    glUseProgram(raw->prog);
    glBindVertexArray(raw->vao);
    for (uint32_t i = 0; i < draws; i++) {
        glBindBufferRange(GL_UNIFORM_BUFFER, 0, raw->ubo, (GLintptr)i * SLICE, 32);
        glDrawArrays(GL_TRIANGLES, 0, 3);
    }
    glFlush();
    GLsync fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    *encode_ns = hl_bench_now_ns() - t0;
    glClientWaitSync(fence, GL_SYNC_FLUSH_COMMANDS_BIT, UINT64_MAX);
    glDeleteSync(fence);
    /* the engine's GL state cache no longer matches the context */
    return hl_rhi_device_invalidate_native_state(s->dev);
}

static void raw_gles_teardown(raw_state *raw) {
    glBindVertexArray(0);
    glUseProgram(0);
    glDeleteFramebuffers(1, &raw->fbo);
    glDeleteTextures(1, &raw->tex);
    glDeleteBuffers(1, &raw->ubo);
    glDeleteBuffers(1, &raw->gvbo);
    glDeleteVertexArrays(1, &raw->vao);
    glDeleteProgram(raw->prog);
    glDeleteShader(raw->vs);
    glDeleteShader(raw->fs);
}

struct hl_bench_draws {
    scene s;
    raw_state raw;
    uint32_t draws;
    bool gl, raw_ready;
};

hl_result hl_bench_draws_create(hl_rhi_device *dev, uint32_t draws, hl_bench_draws **out) {
    hl_bench_draws *b = calloc(1, sizeof *b);
    if (!b) return HL_ERR_OUT_OF_MEMORY;
    b->s.dev = dev;
    b->draws = draws;
    b->gl = hl_rhi_device_backend(dev) == HL_RHI_BACKEND_GLES3;
    hl_result r = scene_create(&b->s, draws);
    if (r) {
        hl_bench_draws_destroy(b);
        return r;
    }
    *out = b;
    return HL_OK;
}

void hl_bench_draws_destroy(hl_bench_draws *b) {
    if (!b) return;
    if (b->raw_ready && b->gl) {
        hl_rhi_device_invalidate_native_state(b->s.dev); /* makes its context current */
        raw_gles_teardown(&b->raw);
        hl_rhi_device_invalidate_native_state(b->s.dev);
    }
    scene_destroy(&b->s);
    free(b);
}

hl_result hl_bench_draws_engine_frame(hl_bench_draws *b, uint64_t *encode_ns) {
    return engine_frame(&b->s, b->draws, encode_ns);
}

hl_result hl_bench_draws_raw_frame(hl_bench_draws *b, uint64_t *encode_ns) {
    if (b->gl) TRY(hl_rhi_device_invalidate_native_state(b->s.dev)); /* its EGL context current */
    if (!b->raw_ready) {
        TRY(b->gl ? raw_gles_setup(&b->s, &b->raw, b->draws) : raw_webgpu_setup(&b->s, &b->raw));
        b->raw_ready = true;
    }
    return b->gl ? raw_gles_frame(&b->s, &b->raw, b->draws, encode_ns) : raw_webgpu_frame(&b->s, &b->raw, b->draws, encode_ns);
}
