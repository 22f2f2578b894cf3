/* hilo3d webgpu backend: frame scope (one command encoder per frame, one submit, split in two
 * where lavapipe needs it: see hl__wgpu_begin_render_pass) and commands, each forwarded to
 * the open native pass (no recording, no replay). */
#include <string.h>
#include <time.h>

#include "webgpu_internal.h"

/* ---- frame scope --------------------------------------------------------------------------- */
static hl_result open_encoder(hl_rhi_device *dev, const char *what) {
    hl__wgpu_device *be = hl__wgpu_be(dev);
    WGPUCommandEncoderDescriptor d;
    memset(&d, 0, sizeof d);
    d.label = hl__wgpu_str("hl frame");
    be->encoder = WGPU(dev, DeviceCreateCommandEncoder)(be->device, &d);
    be->colorless_pipeline_set = false;
    hl_result r = hl__wgpu_take_error(dev, what);
    if (!r && !be->encoder) r = hl__fail(HL_ERR_BACKEND, "webgpu: %s: Dawn returned no command encoder", what);
    if (r && be->encoder) {
        WGPU(dev, CommandEncoderRelease)(be->encoder);
        be->encoder = NULL;
    }
    return r;
}

/* ---- frame timing (see hl__wgpu_timing) ------------------------------------------------------- */
hl_result hl__wgpu_timing_create(hl_rhi_device *dev) {
    hl__wgpu_device *be = hl__wgpu_be(dev);
    hl__wgpu_timing *t = hl__calloc(1, sizeof *t);
    if (!t) return hl__fail(HL_ERR_OUT_OF_MEMORY, "webgpu: out of memory for the frame timing state");
    be->timing = t;
    t->frame_slot = -1;
    WGPUQuerySetDescriptor qd = {NULL, hl__wgpu_str("hl frame timestamps"), WGPUQueryType_Timestamp,
                                 2u * HL__WGPU_TIMING_SLOTS};
    t->set = WGPU(dev, DeviceCreateQuerySet)(be->device, &qd);
    WGPUBufferDescriptor bd;
    memset(&bd, 0, sizeof bd);
    bd.label = hl__wgpu_str("hl frame timestamps (resolve)");
    bd.usage = WGPUBufferUsage_QueryResolve | WGPUBufferUsage_CopySrc;
    bd.size = 256u * HL__WGPU_TIMING_SLOTS;
    t->resolve = WGPU(dev, DeviceCreateBuffer)(be->device, &bd);
    bd.label = hl__wgpu_str("hl frame timestamps (read)");
    bd.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst;
    bd.size = 16;
    for (uint32_t i = 0; i < HL__WGPU_TIMING_SLOTS; i++) t->slot[i].read = WGPU(dev, DeviceCreateBuffer)(be->device, &bd);
    hl_result r = hl__wgpu_take_error(dev, "frame timing");
    bool made = t->set && t->resolve;
    for (uint32_t i = 0; i < HL__WGPU_TIMING_SLOTS; i++) made = made && t->slot[i].read;
    if (!r && !made) r = hl__fail(HL_ERR_BACKEND, "webgpu: frame timing: Dawn returned no query set or buffer");
    return r;
}

void hl__wgpu_timing_destroy(hl_rhi_device *dev) {
    hl__wgpu_device *be = hl__wgpu_be(dev);
    hl__wgpu_timing *t = be->timing;
    if (!t) return;
    be->timing = NULL;
    if (t->set) {
        WGPU(dev, QuerySetDestroy)(t->set);
        WGPU(dev, QuerySetRelease)(t->set);
    }
    if (t->resolve) WGPU(dev, BufferRelease)(t->resolve);
    for (uint32_t i = 0; i < HL__WGPU_TIMING_SLOTS; i++)
        if (t->slot[i].read) WGPU(dev, BufferRelease)(t->slot[i].read); /* aborts an outstanding map */
    if (t->outstanding) t->orphaned = 1; /* the last map callback frees it */
    else hl__free(t);
}

static void on_timing_mapped(uint32_t status, WGPUStringView message, void *userdata1, void *userdata2) {
    (void)message;
    hl__wgpu_timing *t = userdata1;
    hl__wgpu_timing_slot *s = &t->slot[(uintptr_t)userdata2];
    s->mapped = 1;
    s->status = status;
    if (t->outstanding) t->outstanding--;
    if (t->orphaned && !t->outstanding) hl__free(t);
}

void hl__wgpu_timing_collect(hl_rhi_device *dev, bool block) {
    hl__wgpu_device *be = hl__wgpu_be(dev);
    hl__wgpu_timing *t = be->timing;
    if (!t || dev->lost) return;
    uint64_t done = be->tracker->completed_serial;
    bool started = false;
    for (uint32_t i = 0; i < HL__WGPU_TIMING_SLOTS; i++) {
        hl__wgpu_timing_slot *s = &t->slot[i];
        if (!s->serial || s->mapping || s->serial > done) continue;
        s->mapping = 1;
        s->mapped = 0;
        t->outstanding++;
        WGPU(dev, BufferMapAsync)(s->read, WGPUMapMode_Read, 0, 16,
                                  (WGPUCallbackInfo){NULL, WGPUCallbackMode_AllowProcessEvents,
                                                     (void (*)(void))on_timing_mapped, t, (void *)(uintptr_t)i});
        started = true;
    }
    if (started) WGPU(dev, InstanceProcessEvents)(be->instance);
    uint64_t deadline = block ? hl__deadline(dev->wait_timeout_ns) : 0;
    for (;;) {
        bool waiting = false;
        for (uint32_t i = 0; i < HL__WGPU_TIMING_SLOTS; i++) {
            hl__wgpu_timing_slot *s = &t->slot[i];
            if (!s->mapping) continue;
            if (!s->mapped) {
                waiting = true;
                continue;
            }
            if (s->status == WGPU_CALLBACK_STATUS_SUCCESS) {
                const uint64_t *ts = WGPU(dev, BufferGetConstMappedRange)(s->read, 0, 16);
                /* timestamps are nanoseconds; a pair out of order (a GPU that reset its clock) is
                   not a time */
                if (ts && ts[1] >= ts[0] && s->serial > dev->stats.gpu_frame_serial) {
                    dev->stats.gpu_frame_ns = ts[1] - ts[0];
                    dev->stats.gpu_frame_serial = s->serial;
                }
                WGPU(dev, BufferUnmap)(s->read);
            }
            s->mapping = s->mapped = 0;
            s->serial = 0;
        }
        if (!waiting || !block || !hl__time_left(deadline) || dev->lost) break;
        WGPU(dev, InstanceProcessEvents)(be->instance);
    }
}

/* An empty compute pass writing timestamp `index` at its beginning (begin) or end. */
static void timing_pass(hl_rhi_device *dev, uint32_t index, bool begin) {
    hl__wgpu_device *be = hl__wgpu_be(dev);
    WGPUPassTimestampWrites tw = {NULL, be->timing->set, begin ? index : WGPU_QUERY_SET_INDEX_UNDEFINED,
                                  begin ? WGPU_QUERY_SET_INDEX_UNDEFINED : index};
    WGPUComputePassDescriptor d;
    memset(&d, 0, sizeof d);
    d.label = hl__wgpu_str(begin ? "hl frame start" : "hl frame end");
    d.timestampWrites = &tw;
    WGPUComputePassEncoder pass = WGPU(dev, CommandEncoderBeginComputePass)(be->encoder, &d);
    if (!pass) return;
    WGPU(dev, ComputePassEncoderEnd)(pass);
    WGPU(dev, ComputePassEncoderRelease)(pass);
}

hl_result hl__wgpu_begin_frame(hl_rhi_device *dev, uint64_t serial) {
    (void)serial;
    hl__wgpu_device *be = hl__wgpu_be(dev);
    hl_result r = hl__wgpu_take_error(dev, "begin_frame");
    if (!r) r = open_encoder(dev, "begin_frame");
    if (r || !be->timing) return r;
    /* a frame finds a free slot unless four timed frames are still unread: it then goes untimed */
    be->timing->frame_slot = -1;
    for (uint32_t i = 0; i < HL__WGPU_TIMING_SLOTS; i++) {
        if (be->timing->slot[i].serial || be->timing->slot[i].mapping) continue;
        be->timing->frame_slot = (int)i;
        timing_pass(dev, 2u * i, true);
        break;
    }
    return HL_OK;
}

static void on_work_done(uint32_t status, WGPUStringView message, void *userdata1, void *userdata2) {
    (void)status;
    (void)message;
    hl__wgpu_tracker *t = userdata1;
    uint64_t serial = (uint64_t)(uintptr_t)userdata2;
    /* a cancelled callback (device lost / destroyed) also ends the wait for that serial */
    if (serial > t->completed_serial) t->completed_serial = serial;
    if (t->pending) t->pending--;
    if (t->orphaned && !t->pending) hl__free(t); /* the device is gone and this was the last one */
}

static void release_passes(hl_rhi_device *dev) {
    hl__wgpu_device *be = hl__wgpu_be(dev);
    if (be->render_pass) WGPU(dev, RenderPassEncoderRelease)(be->render_pass);
    if (be->compute_pass) WGPU(dev, ComputePassEncoderRelease)(be->compute_pass);
    be->render_pass = NULL;
    be->compute_pass = NULL;
}

hl_result hl__wgpu_end_frame(hl_rhi_device *dev, uint64_t serial) {
    hl__wgpu_device *be = hl__wgpu_be(dev);
    release_passes(dev);
    if (!be->encoder) return hl__fail(HL_ERR_INVALID_STATE, "webgpu: end_frame without an open encoder");
    int ts = be->timing ? be->timing->frame_slot : -1;
    if (ts >= 0) {
        hl__wgpu_timing *t = be->timing;
        t->frame_slot = -1;
        timing_pass(dev, 2u * (uint32_t)ts + 1u, false);
        WGPU(dev, CommandEncoderResolveQuerySet)(be->encoder, t->set, 2u * (uint32_t)ts, 2, t->resolve,
                                                 256u * (uint64_t)ts);
        WGPU(dev, CommandEncoderCopyBufferToBuffer)(be->encoder, t->resolve, 256u * (uint64_t)ts,
                                                    t->slot[ts].read, 0, 16);
    }
    WGPUCommandBuffer cb = WGPU(dev, CommandEncoderFinish)(be->encoder, NULL);
    WGPU(dev, CommandEncoderRelease)(be->encoder);
    be->encoder = NULL;
    hl_result r = hl__wgpu_take_error(dev, "end_frame");
    if (!r && !cb) r = hl__fail(HL_ERR_BACKEND, "webgpu: end_frame: Dawn returned no command buffer");
    if (r) {
        if (cb) WGPU(dev, CommandBufferRelease)(cb);
        return r;
    }
    WGPU(dev, QueueSubmit)(be->queue, 1, &cb);
    WGPU(dev, CommandBufferRelease)(cb);
    be->tracker->pending++;
    WGPU(dev, QueueOnSubmittedWorkDone)(be->queue, (WGPUCallbackInfo){NULL, WGPUCallbackMode_AllowProcessEvents,
                                                                      (void (*)(void))on_work_done, be->tracker,
                                                                      (void *)(uintptr_t)serial});
    be->submitted_serial = serial;
    if (ts >= 0) be->timing->slot[ts].serial = serial;
    return hl__wgpu_take_error(dev, "end_frame (submit)");
}

void hl__wgpu_abort_frame(hl_rhi_device *dev, uint64_t serial) {
    (void)serial;
    hl__wgpu_device *be = hl__wgpu_be(dev);
    release_passes(dev);
    if (be->encoder) WGPU(dev, CommandEncoderRelease)(be->encoder);
    be->encoder = NULL;
    if (be->timing) be->timing->frame_slot = -1;
}

hl_result hl__wgpu_poll(hl_rhi_device *dev, uint64_t *completed_serial) {
    hl__wgpu_device *be = hl__wgpu_be(dev);
    WGPU(dev, InstanceProcessEvents)(be->instance);
    *completed_serial = be->tracker->completed_serial;
    hl__wgpu_timing_collect(dev, false);
    return hl__wgpu_take_error(dev, "poll");
}

hl_result hl__wgpu_wait(hl_rhi_device *dev, uint64_t serial, uint64_t timeout_ns) {
    hl__wgpu_device *be = hl__wgpu_be(dev);
    /* a serial that was never submitted (aborted frame) waits for what was */
    if (serial > be->submitted_serial) serial = be->submitted_serial;
    uint64_t deadline = hl__deadline(timeout_ns);
    for (uint32_t spins = 0;; spins++) {
        WGPU(dev, InstanceProcessEvents)(be->instance);
        if (be->tracker->completed_serial >= serial) break;
        if (dev->lost) return hl__wgpu_take_error(dev, "wait");
        if (!hl__time_left(deadline)) {
            char t[32];
            return hl__fail(HL_ERR_TIMEOUT, "webgpu: the work-done callback of submission %llu did not come within %s",
                            (unsigned long long)serial, hl__duration_text(timeout_ns, t, sizeof t));
        }
        if (spins > 8) {
            struct timespec ts = {0, 20000};
            nanosleep(&ts, NULL);
        }
    }
    hl__wgpu_timing_collect(dev, true);
    return hl__wgpu_take_error(dev, "wait");
}

/* ---- render passes ------------------------------------------------------------------------- */
static uint32_t load_op(hl_rhi_load_op op) {
    /* WebGPU has no "don't care": clearing is the cheap way to say the old contents are unused */
    return op == HL_RHI_LOAD_LOAD ? WGPULoadOp_Load : WGPULoadOp_Clear;
}

static uint32_t store_op(hl_rhi_store_op op) {
    return op == HL_RHI_STORE_DISCARD ? WGPUStoreOp_Discard : WGPUStoreOp_Store;
}

/* Submits what the frame recorded so far and goes on in a new encoder (so in a new Vulkan
 * command buffer: Dawn's Vulkan backend records each submit into its own). The frame's
 * work-done callback, after the last submit, covers this one too (one queue, in order);
 * writes during a frame precede every command of the frame that uses the object (the core
 * refuses the others), so the split changes no ordering the frame relies on. */
static hl_result split_frame(hl_rhi_device *dev) {
    hl__wgpu_device *be = hl__wgpu_be(dev);
    WGPUCommandBuffer cb = WGPU(dev, CommandEncoderFinish)(be->encoder, NULL);
    WGPU(dev, CommandEncoderRelease)(be->encoder);
    be->encoder = NULL;
    hl_result r = hl__wgpu_take_error(dev, "begin_render_pass (split)");
    if (!r && !cb) r = hl__fail(HL_ERR_BACKEND, "webgpu: begin_render_pass: Dawn returned no command buffer");
    if (r) {
        if (cb) WGPU(dev, CommandBufferRelease)(cb);
        return r;
    }
    WGPU(dev, QueueSubmit)(be->queue, 1, &cb);
    WGPU(dev, CommandBufferRelease)(cb);
    if ((r = hl__wgpu_take_error(dev, "begin_render_pass (split submit)"))) return r;
    return open_encoder(dev, "begin_render_pass (split)");
}

hl_result hl__wgpu_begin_render_pass(hl_rhi_cmd *cmd, const hl__render_pass_info *rp) {
    hl_rhi_device *dev = cmd->dev;
    hl__wgpu_device *be = hl__wgpu_be(dev);
    /* lavapipe (seen with Mesa 25.0.7), binding a pipeline without colour attachments (a
       depth-only shadow pass), clears its blend state, independent_blend_enable included, and
       sets that flag again only at the start of the next command buffer; llvmpipe then gives
       every colour target the blend state and write mask of target 0. A pipeline blending
       target 0 with write-mask-0 targets the shader has no output for then blended undefined
       values into those attachments (different on every run). A pass of several colour
       attachments after such a pipeline therefore starts a new command buffer. */
    if (be->colorless_pipeline_set && rp->color_count > 1) {
        hl_result r = split_frame(dev);
        if (r) return r;
    }
    WGPURenderPassColorAttachment colors[HL_RHI_MAX_COLOR_ATTACHMENTS];
    memset(colors, 0, sizeof colors);
    for (uint32_t i = 0; i < rp->color_count; i++) {
        const hl_rhi_color_attachment *a = &rp->color_desc[i];
        colors[i].view = rp->color[i] ? rp->color[i]->be.ptr : NULL;
        colors[i].depthSlice = WGPU_DEPTH_SLICE_UNDEFINED;
        colors[i].resolveTarget = rp->resolve[i] ? rp->resolve[i]->be.ptr : NULL;
        colors[i].loadOp = load_op(a->load_op);
        colors[i].storeOp = store_op(a->store_op);
        if (a->load_op == HL_RHI_LOAD_CLEAR)
            colors[i].clearValue = (WGPUColor){a->clear_color[0], a->clear_color[1], a->clear_color[2], a->clear_color[3]};
    }
    WGPURenderPassDepthStencilAttachment ds;
    WGPURenderPassDescriptor d;
    memset(&d, 0, sizeof d);
    d.colorAttachmentCount = rp->color_count;
    d.colorAttachments = rp->color_count ? colors : NULL;
    if (rp->depth) {
        const hl_rhi_depth_stencil_attachment *a = &rp->depth_desc;
        const hl_rhi_format_info *fi = hl_rhi_format_get_info(rp->depth->format);
        memset(&ds, 0, sizeof ds);
        ds.view = rp->depth->be.ptr;
        if (a->depth_read_only) {
            ds.depthReadOnly = 1;
        } else {
            ds.depthLoadOp = load_op(a->depth_load_op);
            ds.depthStoreOp = store_op(a->depth_store_op);
        }
        ds.depthClearValue = a->depth_clear_value;
        /* formats without stencil must leave the stencil ops undefined */
        if (fi && fi->has_stencil) {
            if (a->stencil_read_only) {
                ds.stencilReadOnly = 1;
            } else {
                ds.stencilLoadOp = load_op(a->stencil_load_op);
                ds.stencilStoreOp = store_op(a->stencil_store_op);
            }
            ds.stencilClearValue = a->stencil_clear_value;
        } else {
            ds.stencilReadOnly = a->stencil_read_only;
        }
        d.depthStencilAttachment = &ds;
    }
    be->render_pass = WGPU(dev, CommandEncoderBeginRenderPass)(be->encoder, &d);
    hl_result r = hl__wgpu_take_error(dev, "begin_render_pass");
    if (!r && !be->render_pass) r = hl__fail(HL_ERR_BACKEND, "webgpu: begin_render_pass: no pass encoder");
    if (r) release_passes(dev);
    return r;
}

hl_result hl__wgpu_end_render_pass(hl_rhi_cmd *cmd) {
    hl_rhi_device *dev = cmd->dev;
    hl__wgpu_device *be = hl__wgpu_be(dev);
    if (be->render_pass) {
        WGPU(dev, RenderPassEncoderEnd)(be->render_pass);
        WGPU(dev, RenderPassEncoderRelease)(be->render_pass);
        be->render_pass = NULL;
    }
    return hl__wgpu_take_error(dev, "end_render_pass");
}

void hl__wgpu_set_pipeline(hl_rhi_cmd *cmd, hl__render_pipeline *p) {
    hl__wgpu_device *be = hl__wgpu_be(cmd->dev);
    if (!p->info.color_target_count) be->colorless_pipeline_set = true;
    WGPU(cmd->dev, RenderPassEncoderSetPipeline)(be->render_pass, p->be.ptr);
}

void hl__wgpu_set_bind_group(hl_rhi_cmd *cmd, uint32_t index, hl__bind_group *g, const uint32_t *offsets,
                             uint32_t offset_count) {
    hl__wgpu_device *be = hl__wgpu_be(cmd->dev);
    if (be->compute_pass)
        WGPU(cmd->dev, ComputePassEncoderSetBindGroup)(be->compute_pass, index, g->be.ptr, offset_count, offsets);
    else
        WGPU(cmd->dev, RenderPassEncoderSetBindGroup)(be->render_pass, index, g->be.ptr, offset_count, offsets);
}

void hl__wgpu_set_vertex_buffer(hl_rhi_cmd *cmd, uint32_t slot, hl__buffer *buf, uint64_t offset) {
    WGPU(cmd->dev, RenderPassEncoderSetVertexBuffer)(hl__wgpu_be(cmd->dev)->render_pass, slot, buf->be.ptr, offset,
                                                     WGPU_WHOLE_SIZE);
}

void hl__wgpu_set_index_buffer(hl_rhi_cmd *cmd, hl__buffer *buf, hl_rhi_index_format format, uint64_t offset) {
    WGPU(cmd->dev, RenderPassEncoderSetIndexBuffer)(
        hl__wgpu_be(cmd->dev)->render_pass, buf->be.ptr,
        format == HL_RHI_INDEX_UINT32 ? WGPUIndexFormat_Uint32 : WGPUIndexFormat_Uint16, offset, WGPU_WHOLE_SIZE);
}

void hl__wgpu_set_viewport(hl_rhi_cmd *cmd, const float v[6]) {
    WGPU(cmd->dev, RenderPassEncoderSetViewport)(hl__wgpu_be(cmd->dev)->render_pass, v[0], v[1], v[2], v[3], v[4], v[5]);
}

void hl__wgpu_set_scissor(hl_rhi_cmd *cmd, const uint32_t s[4]) {
    WGPU(cmd->dev, RenderPassEncoderSetScissorRect)(hl__wgpu_be(cmd->dev)->render_pass, s[0], s[1], s[2], s[3]);
}

void hl__wgpu_set_blend_constant(hl_rhi_cmd *cmd, const float c[4]) {
    WGPUColor color = {c[0], c[1], c[2], c[3]};
    WGPU(cmd->dev, RenderPassEncoderSetBlendConstant)(hl__wgpu_be(cmd->dev)->render_pass, &color);
}

void hl__wgpu_set_stencil_reference(hl_rhi_cmd *cmd, uint32_t ref) {
    WGPU(cmd->dev, RenderPassEncoderSetStencilReference)(hl__wgpu_be(cmd->dev)->render_pass, ref);
}

void hl__wgpu_draw(hl_rhi_cmd *cmd, uint32_t vertex_count, uint32_t instance_count, uint32_t first_vertex,
                   uint32_t first_instance) {
    WGPU(cmd->dev, RenderPassEncoderDraw)(hl__wgpu_be(cmd->dev)->render_pass, vertex_count, instance_count,
                                          first_vertex, first_instance);
}

void hl__wgpu_draw_indexed(hl_rhi_cmd *cmd, uint32_t index_count, uint32_t instance_count, uint32_t first_index,
                           int32_t base_vertex, uint32_t first_instance) {
    WGPU(cmd->dev, RenderPassEncoderDrawIndexed)(hl__wgpu_be(cmd->dev)->render_pass, index_count, instance_count,
                                                 first_index, base_vertex, first_instance);
}

void hl__wgpu_draw_indirect(hl_rhi_cmd *cmd, hl__buffer *buf, uint64_t offset, bool indexed) {
    WGPURenderPassEncoder pass = hl__wgpu_be(cmd->dev)->render_pass;
    if (indexed)
        WGPU(cmd->dev, RenderPassEncoderDrawIndexedIndirect)(pass, buf->be.ptr, offset);
    else
        WGPU(cmd->dev, RenderPassEncoderDrawIndirect)(pass, buf->be.ptr, offset);
}

/* ---- render bundles ------------------------------------------------------------------------- */
hl_result hl__wgpu_bundle_begin(hl_rhi_cmd *rec, const hl__render_bundle *b) {
    hl_rhi_device *dev = rec->dev;
    uint32_t formats[HL_RHI_MAX_COLOR_ATTACHMENTS];
    for (uint32_t i = 0; i < b->color_format_count; i++) formats[i] = hl__wgpu_format(b->color_formats[i]);
    WGPURenderBundleEncoderDescriptor d;
    memset(&d, 0, sizeof d);
    d.label = hl__wgpu_str("hl bundle");
    d.colorFormatCount = b->color_format_count;
    d.colorFormats = b->color_format_count ? formats : NULL;
    d.depthStencilFormat = b->depth_format ? hl__wgpu_format(b->depth_format) : WGPUTextureFormat_Undefined;
    d.sampleCount = b->sample_count;
    rec->native_encoder = WGPU(dev, DeviceCreateRenderBundleEncoder)(hl__wgpu_be(dev)->device, &d);
    hl_result r = hl__wgpu_take_error(dev, "render bundle encoder");
    if (!r && !rec->native_encoder) r = hl__fail(HL_ERR_BACKEND, "webgpu: Dawn returned no render bundle encoder");
    if (r && rec->native_encoder) {
        WGPU(dev, RenderBundleEncoderRelease)(rec->native_encoder);
        rec->native_encoder = NULL;
    }
    return r;
}

hl_result hl__wgpu_bundle_end(hl_rhi_cmd *rec, hl__render_bundle *b, bool discard) {
    hl_rhi_device *dev = rec->dev;
    WGPURenderBundleDescriptor d = {NULL, hl__wgpu_str("hl bundle")};
    WGPURenderBundle rb = WGPU(dev, RenderBundleEncoderFinish)(rec->native_encoder, &d);
    WGPU(dev, RenderBundleEncoderRelease)(rec->native_encoder);
    rec->native_encoder = NULL;
    hl_result r = hl__wgpu_take_error(dev, "render bundle");
    if (!r && !discard && !rb) r = hl__fail(HL_ERR_BACKEND, "webgpu: Dawn returned no render bundle");
    if (r || discard) {
        if (rb) WGPU(dev, RenderBundleRelease)(rb);
        return r;
    }
    b->be.ptr = rb;
    return HL_OK;
}

void hl__wgpu_bundle_destroy(hl_rhi_device *dev, hl__render_bundle *b) {
    if (b->be.ptr) WGPU(dev, RenderBundleRelease)(b->be.ptr);
    b->be.ptr = NULL;
}

void hl__wgpu_execute_bundles(hl_rhi_cmd *cmd, hl__render_bundle *const *bundles, uint32_t count) {
    hl_rhi_device *dev = cmd->dev;
    hl__wgpu_device *be = hl__wgpu_be(dev);
    WGPURenderBundle native[64];
    for (uint32_t first = 0; first < count; first += 64) {
        uint32_t n = count - first < 64 ? count - first : 64;
        for (uint32_t i = 0; i < n; i++) {
            native[i] = bundles[first + i]->be.ptr;
            /* a depth-only bundle binds pipelines without colour targets (see hl__wgpu_begin_render_pass) */
            if (!bundles[first + i]->color_format_count) be->colorless_pipeline_set = true;
        }
        WGPU(dev, RenderPassEncoderExecuteBundles)(be->render_pass, n, native);
    }
}

/* The draw-state commands while a bundle records (rec->native_encoder is its encoder). */
static void bundle_set_pipeline(hl_rhi_cmd *rec, hl__render_pipeline *p) {
    WGPU(rec->dev, RenderBundleEncoderSetPipeline)(rec->native_encoder, p->be.ptr);
}

static void bundle_set_bind_group(hl_rhi_cmd *rec, uint32_t index, hl__bind_group *g, const uint32_t *offsets,
                                  uint32_t offset_count) {
    WGPU(rec->dev, RenderBundleEncoderSetBindGroup)(rec->native_encoder, index, g->be.ptr, offset_count, offsets);
}

static void bundle_set_vertex_buffer(hl_rhi_cmd *rec, uint32_t slot, hl__buffer *buf, uint64_t offset) {
    WGPU(rec->dev, RenderBundleEncoderSetVertexBuffer)(rec->native_encoder, slot, buf->be.ptr, offset, WGPU_WHOLE_SIZE);
}

static void bundle_set_index_buffer(hl_rhi_cmd *rec, hl__buffer *buf, hl_rhi_index_format format, uint64_t offset) {
    WGPU(rec->dev, RenderBundleEncoderSetIndexBuffer)(rec->native_encoder, buf->be.ptr,
                                                      format == HL_RHI_INDEX_UINT32 ? WGPUIndexFormat_Uint32
                                                                                    : WGPUIndexFormat_Uint16,
                                                      offset, WGPU_WHOLE_SIZE);
}

static void bundle_draw(hl_rhi_cmd *rec, uint32_t vertex_count, uint32_t instance_count, uint32_t first_vertex,
                        uint32_t first_instance) {
    WGPU(rec->dev, RenderBundleEncoderDraw)(rec->native_encoder, vertex_count, instance_count, first_vertex,
                                            first_instance);
}

static void bundle_draw_indexed(hl_rhi_cmd *rec, uint32_t index_count, uint32_t instance_count, uint32_t first_index,
                                int32_t base_vertex, uint32_t first_instance) {
    WGPU(rec->dev, RenderBundleEncoderDrawIndexed)(rec->native_encoder, index_count, instance_count, first_index,
                                                   base_vertex, first_instance);
}

const hl__rhi_backend_fns hl__rhi_webgpu_bundle_fns = {
    .backend = HL_RHI_BACKEND_WEBGPU,
    .name = "webgpu (render bundle encoder)",
    .set_pipeline = bundle_set_pipeline,
    .set_bind_group = bundle_set_bind_group,
    .set_vertex_buffer = bundle_set_vertex_buffer,
    .set_index_buffer = bundle_set_index_buffer,
    .draw = bundle_draw,
    .draw_indexed = bundle_draw_indexed,
};

/* ---- compute passes ------------------------------------------------------------------------ */
hl_result hl__wgpu_begin_compute_pass(hl_rhi_cmd *cmd, const char *label) {
    hl_rhi_device *dev = cmd->dev;
    hl__wgpu_device *be = hl__wgpu_be(dev);
    WGPUComputePassDescriptor d;
    memset(&d, 0, sizeof d);
    d.label = hl__wgpu_str(label);
    be->compute_pass = WGPU(dev, CommandEncoderBeginComputePass)(be->encoder, &d);
    hl_result r = hl__wgpu_take_error(dev, "begin_compute_pass");
    if (!r && !be->compute_pass) r = hl__fail(HL_ERR_BACKEND, "webgpu: begin_compute_pass: no pass encoder");
    if (r) release_passes(dev);
    return r;
}

hl_result hl__wgpu_end_compute_pass(hl_rhi_cmd *cmd) {
    hl_rhi_device *dev = cmd->dev;
    hl__wgpu_device *be = hl__wgpu_be(dev);
    if (be->compute_pass) {
        WGPU(dev, ComputePassEncoderEnd)(be->compute_pass);
        WGPU(dev, ComputePassEncoderRelease)(be->compute_pass);
        be->compute_pass = NULL;
    }
    return hl__wgpu_take_error(dev, "end_compute_pass");
}

void hl__wgpu_set_compute_pipeline(hl_rhi_cmd *cmd, hl__compute_pipeline *p) {
    WGPU(cmd->dev, ComputePassEncoderSetPipeline)(hl__wgpu_be(cmd->dev)->compute_pass, p->be.ptr);
}

void hl__wgpu_dispatch(hl_rhi_cmd *cmd, uint32_t x, uint32_t y, uint32_t z) {
    WGPU(cmd->dev, ComputePassEncoderDispatchWorkgroups)(hl__wgpu_be(cmd->dev)->compute_pass, x, y, z);
}

void hl__wgpu_dispatch_indirect(hl_rhi_cmd *cmd, hl__buffer *buf, uint64_t offset) {
    WGPU(cmd->dev, ComputePassEncoderDispatchWorkgroupsIndirect)(hl__wgpu_be(cmd->dev)->compute_pass, buf->be.ptr,
                                                                 offset);
}

/* ---- copies -------------------------------------------------------------------------------- */
hl_result hl__wgpu_copy_buffer_to_buffer(hl_rhi_cmd *cmd, hl__buffer *src, uint64_t src_offset, hl__buffer *dst,
                                         uint64_t dst_offset, uint64_t size) {
    WGPU(cmd->dev, CommandEncoderCopyBufferToBuffer)(hl__wgpu_be(cmd->dev)->encoder, src->be.ptr, src_offset,
                                                     dst->be.ptr, dst_offset, size);
    return hl__wgpu_take_error(cmd->dev, "copy_buffer_to_buffer");
}

hl_result hl__wgpu_copy_texture_to_texture(hl_rhi_cmd *cmd, hl__texture *src, const hl_rhi_texture_region *src_region,
                                           hl__texture *dst, const hl_rhi_texture_region *dst_region) {
    WGPUTexelCopyTextureInfo s = hl__wgpu_texel_copy_info(src, src_region);
    WGPUTexelCopyTextureInfo d = hl__wgpu_texel_copy_info(dst, dst_region);
    WGPUExtent3D e = hl__wgpu_extent(src_region);
    WGPU(cmd->dev, CommandEncoderCopyTextureToTexture)(hl__wgpu_be(cmd->dev)->encoder, &s, &d, &e);
    return hl__wgpu_take_error(cmd->dev, "copy_texture_to_texture");
}

hl_result hl__wgpu_copy_buffer_to_texture(hl_rhi_cmd *cmd, hl__buffer *src, uint64_t src_offset,
                                          uint32_t bytes_per_row, hl__texture *dst,
                                          const hl_rhi_texture_region *dst_region) {
    WGPUExtent3D e = hl__wgpu_extent(dst_region);
    WGPUTexelCopyBufferInfo s = {{src_offset, bytes_per_row, e.height}, src->be.ptr};
    WGPUTexelCopyTextureInfo d = hl__wgpu_texel_copy_info(dst, dst_region);
    WGPU(cmd->dev, CommandEncoderCopyBufferToTexture)(hl__wgpu_be(cmd->dev)->encoder, &s, &d, &e);
    return hl__wgpu_take_error(cmd->dev, "copy_buffer_to_texture");
}

hl_result hl__wgpu_copy_texture_to_buffer(hl_rhi_cmd *cmd, hl__texture *src, const hl_rhi_texture_region *src_region,
                                          hl__buffer *dst, uint64_t dst_offset, uint32_t bytes_per_row) {
    WGPUExtent3D e = hl__wgpu_extent(src_region);
    WGPUTexelCopyTextureInfo s = hl__wgpu_texel_copy_info(src, src_region);
    WGPUTexelCopyBufferInfo d = {{dst_offset, bytes_per_row, e.height}, dst->be.ptr};
    WGPU(cmd->dev, CommandEncoderCopyTextureToBuffer)(hl__wgpu_be(cmd->dev)->encoder, &s, &d, &e);
    return hl__wgpu_take_error(cmd->dev, "copy_texture_to_buffer");
}

hl_result hl__wgpu_clear_buffer(hl_rhi_cmd *cmd, hl__buffer *buf, uint64_t offset, uint64_t size) {
    WGPU(cmd->dev, CommandEncoderClearBuffer)(hl__wgpu_be(cmd->dev)->encoder, buf->be.ptr, offset,
                                              size ? size : WGPU_WHOLE_SIZE);
    return hl__wgpu_take_error(cmd->dev, "clear_buffer");
}
