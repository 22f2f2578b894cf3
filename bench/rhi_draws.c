/* bench/rhi_draws: N draws per frame of a small mesh, each with its own dynamic UBO offset,
 * through the RHI and through the raw API in the same run, on each backend.
 *
 *   rhi_draws [--json] [--backend webgpu|gles3] [--draws N] [--frames F] [--warmup W]
 *
 * Engine loop: begin_frame, one render pass, set pipeline + vertex buffer, then per draw
 * set_bind_group(dynamic offset) + draw, end pass, end_frame; then wait.
 * Raw loop, same work:
 *  - webgpu: wgpu* calls straight into Dawn (encoder, pass, SetBindGroup with the dynamic
 *    offset + Draw per draw, Finish, Submit) on the same native pipeline/bind group/buffers;
 *  - gles3: GL calls on the same EGL context with GL objects of its own (program from the
 *    same GLSL, VAO, FBO, UBO): glBindBufferRange + glDrawArrays per draw, glFlush + fence.
 * Timed: CPU time to record and submit a frame (encode), and the whole frame including the
 * wait (frame). One JSON line per backend: engine_ns_per_draw, raw_ns_per_draw, ratio
 * (encode time), allocs_per_frame (heap allocations through the hl allocator hook per
 * steady-state engine frame).
 */
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

typedef struct bench_cfg {
    uint32_t draws, frames, warmup;
    bool json;
} bench_cfg;

typedef struct bench_result {
    double encode_ns, frame_ns; /* per frame, mean over measured frames */
    double allocs_per_frame;
} bench_result;

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
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
    return HL_OK;
}

static void scene_destroy(scene *s) {
    hl_rhi_device *dev = s->dev;
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
    uint64_t t0 = now_ns();
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
    for (uint32_t i = 0; i < draws; i++) {
        uint32_t off = i * SLICE;
        hl_result r = hl_rhi_cmd_set_bind_group(cmd, 0, s->group, &off, 1);
        if (!r) r = hl_rhi_cmd_draw(cmd, 3, 1, 0, 0);
        if (r) {
            hl_rhi_abort_frame(s->dev);
            return r;
        }
    }
    TRY(hl_rhi_cmd_end_render_pass(cmd));
    hl_rhi_submission sub;
    TRY(hl_rhi_end_frame(s->dev, &sub));
    *encode_ns = now_ns() - t0;
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
    uint64_t t0 = now_ns();
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
    WGPUCommandBuffer cb = hl__wgpu.CommandEncoderFinish(enc, NULL);
    hl__wgpu.QueueSubmit(be->queue, 1, &cb);
    hl__wgpu.CommandBufferRelease(cb);
    hl__wgpu.CommandEncoderRelease(enc);
    volatile int done = 0;
    hl__wgpu.QueueOnSubmittedWorkDone(be->queue, (WGPUCallbackInfo){NULL, WGPUCallbackMode_AllowProcessEvents,
                                                                     (void (*)(void))raw_wgpu_done, (void *)&done,
                                                                     NULL});
    *encode_ns = now_ns() - t0;
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
    uint64_t t0 = now_ns();
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
    *encode_ns = now_ns() - t0;
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

/* Alternates one engine frame and one raw frame; warm-up frames are not measured. */
static hl_result run_both(scene *s, hl_rhi_backend b, const bench_cfg *cfg, bench_result *eng, bench_result *raw_out) {
    raw_state raw;
    memset(&raw, 0, sizeof(raw));
    bool gl = b == HL_RHI_BACKEND_GLES3;
    hl_result r = gl ? raw_gles_setup(s, &raw, cfg->draws) : raw_webgpu_setup(s, &raw);
    if (gl) TRY(hl_rhi_device_invalidate_native_state(s->dev));
    uint64_t eng_enc = 0, raw_enc = 0, eng_frame = 0, raw_frame = 0, allocs = 0;
    for (uint32_t f = 0; !r && f < cfg->warmup + cfg->frames; f++) {
        bool measured = f >= cfg->warmup;
        uint64_t enc = 0, t0 = now_ns(), a0 = hl_alloc_count();
        r = engine_frame(s, cfg->draws, &enc);
        uint64_t t1 = now_ns(), a1 = hl_alloc_count();
        if (measured) {
            eng_enc += enc;
            eng_frame += t1 - t0;
            allocs += a1 - a0;
        }
        if (r) break;
        t0 = now_ns();
        r = gl ? raw_gles_frame(s, &raw, cfg->draws, &enc) : raw_webgpu_frame(s, &raw, cfg->draws, &enc);
        if (measured) {
            raw_enc += enc;
            raw_frame += now_ns() - t0;
        }
    }
    if (gl) raw_gles_teardown(&raw);
    eng->encode_ns = (double)eng_enc / cfg->frames;
    eng->frame_ns = (double)eng_frame / cfg->frames;
    eng->allocs_per_frame = (double)allocs / cfg->frames;
    raw_out->encode_ns = (double)raw_enc / cfg->frames;
    raw_out->frame_ns = (double)raw_frame / cfg->frames;
    return r;
}

static int run_backend(hl_rhi_backend b, const bench_cfg *cfg) {
    hl_rhi_device_desc dd = {0};
    dd.backend = b;
    scene s;
    memset(&s, 0, sizeof(s));
    hl_result r = hl_rhi_device_create(&dd, &s.dev);
    if (r) {
        printf("{\"backend\":\"%s\",\"available\":false,\"error\":\"%s\"}\n", hl_rhi_backend_name(b),
               hl_result_name(r));
        return 0;
    }
    bench_result eng = {0}, raw = {0};
    r = scene_create(&s, cfg->draws);
    if (!r) r = run_both(&s, b, cfg, &eng, &raw);
    hl_rhi_stats st = *hl_rhi_device_stats(s.dev);
    if (r) fprintf(stderr, "rhi_draws: %s: %s: %s\n", hl_rhi_backend_name(b), hl_result_name(r), hl_last_error());
    const double n = cfg->draws;
    if (!r) {
        if (cfg->json)
            printf("{\"backend\":\"%s\",\"adapter\":\"%s\",\"draws\":%u,\"frames\":%u,"
                   "\"engine_ns_per_draw\":%.1f,\"raw_ns_per_draw\":%.1f,\"ratio\":%.3f,"
                   "\"engine_frame_ms\":%.3f,\"raw_frame_ms\":%.3f,\"allocs_per_frame\":%.2f,"
                   "\"native_calls_per_draw\":%.2f}\n",
                   hl_rhi_backend_name(b), hl_rhi_device_caps(s.dev)->adapter_name, cfg->draws, cfg->frames,
                   eng.encode_ns / n, raw.encode_ns / n, eng.encode_ns / raw.encode_ns, eng.frame_ns / 1e6,
                   raw.frame_ns / 1e6, eng.allocs_per_frame,
                   (double)st.native_calls / ((double)(cfg->frames + cfg->warmup) * n));
        else
            printf("%-7s %s\n  engine %.1f ns/draw (frame %.3f ms)  raw %.1f ns/draw (frame %.3f ms)  ratio %.3f  "
                   "allocs/frame %.2f\n",
                   hl_rhi_backend_name(b), hl_rhi_device_caps(s.dev)->adapter_name, eng.encode_ns / n,
                   eng.frame_ns / 1e6, raw.encode_ns / n, raw.frame_ns / 1e6, eng.encode_ns / raw.encode_ns,
                   eng.allocs_per_frame);
    }
    scene_destroy(&s);
    hl_rhi_device_destroy(s.dev);
    return r ? 1 : 0;
}

int main(int argc, char **argv) {
    bench_cfg cfg = {10000, 200, 20, false};
    int only = -1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) cfg.json = true;
        else if (i + 1 < argc && strcmp(argv[i], "--draws") == 0) cfg.draws = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (i + 1 < argc && strcmp(argv[i], "--frames") == 0) cfg.frames = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (i + 1 < argc && strcmp(argv[i], "--warmup") == 0) cfg.warmup = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (i + 1 < argc && strcmp(argv[i], "--backend") == 0) {
            hl_rhi_backend b;
            if (hl_rhi_backend_parse(argv[++i], &b) != HL_OK || b == HL_RHI_BACKEND_AUTO || b == HL_RHI_BACKEND_NULL) {
                fprintf(stderr, "rhi_draws: --backend must be webgpu or gles3\n");
                return 2;
            }
            only = (int)b;
        } else {
            fprintf(stderr, "usage: rhi_draws [--json] [--backend webgpu|gles3] [--draws N] [--frames F] [--warmup W]\n");
            return 2;
        }
    }
    if (!cfg.draws || !cfg.frames || cfg.draws > 100000) {
        fprintf(stderr, "rhi_draws: --draws must be 1..100000 and --frames > 0\n");
        return 2;
    }
    int rc = 0;
    if (only < 0 || only == HL_RHI_BACKEND_WEBGPU) rc |= run_backend(HL_RHI_BACKEND_WEBGPU, &cfg);
    if (only < 0 || only == HL_RHI_BACKEND_GLES3) rc |= run_backend(HL_RHI_BACKEND_GLES3, &cfg);
    return rc;
}
