/* hilo3d webgpu backend: objects (one native object each), uploads and readbacks. */
#include <stdio.h>
#include <string.h>

#include "webgpu_internal.h"

/* ---- enum translation ------------------------------------------------------------------------ */
static uint32_t buffer_usage(uint32_t usage) {
    uint32_t u = 0;
    if (usage & HL_RHI_BUFFER_USAGE_VERTEX) u |= WGPUBufferUsage_Vertex;
    if (usage & HL_RHI_BUFFER_USAGE_INDEX) u |= WGPUBufferUsage_Index;
    if (usage & HL_RHI_BUFFER_USAGE_UNIFORM) u |= WGPUBufferUsage_Uniform;
    if (usage & HL_RHI_BUFFER_USAGE_STORAGE) u |= WGPUBufferUsage_Storage;
    if (usage & HL_RHI_BUFFER_USAGE_INDIRECT) u |= WGPUBufferUsage_Indirect;
    if (usage & HL_RHI_BUFFER_USAGE_COPY_SRC) u |= WGPUBufferUsage_CopySrc;
    if (usage & HL_RHI_BUFFER_USAGE_COPY_DST) u |= WGPUBufferUsage_CopyDst;
    /* WebGPU allows MapRead only with CopyDst; readback always goes through a staging copy */
    if (usage & HL_RHI_BUFFER_USAGE_MAP_READ) u |= WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst;
    return u;
}

static uint32_t shader_stages(uint32_t vis) {
    uint32_t s = 0;
    if (vis & HL_RHI_STAGE_VERTEX) s |= WGPUShaderStage_Vertex;
    if (vis & HL_RHI_STAGE_FRAGMENT) s |= WGPUShaderStage_Fragment;
    if (vis & HL_RHI_STAGE_COMPUTE) s |= WGPUShaderStage_Compute;
    return s;
}

static uint32_t texture_dimension(hl_rhi_texture_dimension d) {
    switch (d) {
    case HL_RHI_TEXTURE_1D: return WGPUTextureDimension_1D;
    case HL_RHI_TEXTURE_3D: return WGPUTextureDimension_3D;
    default: return WGPUTextureDimension_2D;
    }
}

static uint32_t view_dimension(hl_rhi_texture_dimension d) {
    switch (d) {
    case HL_RHI_TEXTURE_1D: return WGPUTextureViewDimension_1D;
    case HL_RHI_TEXTURE_3D: return WGPUTextureViewDimension_3D;
    case HL_RHI_TEXTURE_2D_ARRAY: return WGPUTextureViewDimension_2DArray;
    case HL_RHI_TEXTURE_CUBE: return WGPUTextureViewDimension_Cube;
    default: return WGPUTextureViewDimension_2D;
    }
}

static uint32_t address_mode(hl_rhi_address_mode m) {
    switch (m) {
    case HL_RHI_ADDRESS_REPEAT: return WGPUAddressMode_Repeat;
    case HL_RHI_ADDRESS_MIRROR_REPEAT: return WGPUAddressMode_MirrorRepeat;
    default: return WGPUAddressMode_ClampToEdge;
    }
}

static uint32_t filter_mode(hl_rhi_filter f) {
    return f == HL_RHI_FILTER_LINEAR ? WGPUFilterMode_Linear : WGPUFilterMode_Nearest;
}

static uint32_t compare_function(hl_rhi_compare c, uint32_t undefined_value) {
    switch (c) {
    case HL_RHI_COMPARE_NEVER: return WGPUCompareFunction_Never;
    case HL_RHI_COMPARE_LESS: return WGPUCompareFunction_Less;
    case HL_RHI_COMPARE_EQUAL: return WGPUCompareFunction_Equal;
    case HL_RHI_COMPARE_LESS_EQUAL: return WGPUCompareFunction_LessEqual;
    case HL_RHI_COMPARE_GREATER: return WGPUCompareFunction_Greater;
    case HL_RHI_COMPARE_NOT_EQUAL: return WGPUCompareFunction_NotEqual;
    case HL_RHI_COMPARE_GREATER_EQUAL: return WGPUCompareFunction_GreaterEqual;
    case HL_RHI_COMPARE_ALWAYS: return WGPUCompareFunction_Always;
    default: return undefined_value;
    }
}

static uint32_t sample_type(hl_rhi_texture_sample_type t) {
    switch (t) {
    case HL_RHI_SAMPLE_UNFILTERABLE_FLOAT: return WGPUTextureSampleType_UnfilterableFloat;
    case HL_RHI_SAMPLE_DEPTH: return WGPUTextureSampleType_Depth;
    case HL_RHI_SAMPLE_UINT: return WGPUTextureSampleType_Uint;
    case HL_RHI_SAMPLE_SINT: return WGPUTextureSampleType_Sint;
    default: return WGPUTextureSampleType_Float;
    }
}

static uint32_t vertex_format(hl_rhi_vertex_format f) {
    switch (f) {
    case HL_RHI_VERTEX_FLOAT32: return WGPUVertexFormat_Float32;
    case HL_RHI_VERTEX_FLOAT32X2: return WGPUVertexFormat_Float32x2;
    case HL_RHI_VERTEX_FLOAT32X3: return WGPUVertexFormat_Float32x3;
    case HL_RHI_VERTEX_FLOAT32X4: return WGPUVertexFormat_Float32x4;
    case HL_RHI_VERTEX_UNORM8X4: return WGPUVertexFormat_Unorm8x4;
    case HL_RHI_VERTEX_SNORM8X4: return WGPUVertexFormat_Snorm8x4;
    case HL_RHI_VERTEX_UINT8X4: return WGPUVertexFormat_Uint8x4;
    case HL_RHI_VERTEX_UNORM16X2: return WGPUVertexFormat_Unorm16x2;
    case HL_RHI_VERTEX_UNORM16X4: return WGPUVertexFormat_Unorm16x4;
    case HL_RHI_VERTEX_SNORM16X2: return WGPUVertexFormat_Snorm16x2;
    case HL_RHI_VERTEX_SNORM16X4: return WGPUVertexFormat_Snorm16x4;
    case HL_RHI_VERTEX_UINT16X4: return WGPUVertexFormat_Uint16x4;
    case HL_RHI_VERTEX_UINT32: return WGPUVertexFormat_Uint32;
    default: return 0;
    }
}

static uint32_t topology(hl_rhi_topology t) {
    switch (t) {
    case HL_RHI_TOPOLOGY_TRIANGLE_STRIP: return WGPUPrimitiveTopology_TriangleStrip;
    case HL_RHI_TOPOLOGY_LINE_LIST: return WGPUPrimitiveTopology_LineList;
    case HL_RHI_TOPOLOGY_LINE_STRIP: return WGPUPrimitiveTopology_LineStrip;
    case HL_RHI_TOPOLOGY_POINT_LIST: return WGPUPrimitiveTopology_PointList;
    default: return WGPUPrimitiveTopology_TriangleList;
    }
}

static uint32_t index_format(hl_rhi_index_format f) {
    return f == HL_RHI_INDEX_UINT32 ? WGPUIndexFormat_Uint32 : WGPUIndexFormat_Uint16;
}

static uint32_t cull_mode(hl_rhi_cull_mode c) {
    switch (c) {
    case HL_RHI_CULL_FRONT: return WGPUCullMode_Front;
    case HL_RHI_CULL_BACK: return WGPUCullMode_Back;
    default: return WGPUCullMode_None;
    }
}

static uint32_t blend_factor(hl_rhi_blend_factor f, uint32_t default_value) {
    switch (f) {
    case HL_RHI_BLEND_ZERO: return WGPUBlendFactor_Zero;
    case HL_RHI_BLEND_ONE: return WGPUBlendFactor_One;
    case HL_RHI_BLEND_SRC: return WGPUBlendFactor_Src;
    case HL_RHI_BLEND_ONE_MINUS_SRC: return WGPUBlendFactor_OneMinusSrc;
    case HL_RHI_BLEND_SRC_ALPHA: return WGPUBlendFactor_SrcAlpha;
    case HL_RHI_BLEND_ONE_MINUS_SRC_ALPHA: return WGPUBlendFactor_OneMinusSrcAlpha;
    case HL_RHI_BLEND_DST: return WGPUBlendFactor_Dst;
    case HL_RHI_BLEND_ONE_MINUS_DST: return WGPUBlendFactor_OneMinusDst;
    case HL_RHI_BLEND_DST_ALPHA: return WGPUBlendFactor_DstAlpha;
    case HL_RHI_BLEND_ONE_MINUS_DST_ALPHA: return WGPUBlendFactor_OneMinusDstAlpha;
    case HL_RHI_BLEND_CONSTANT: return WGPUBlendFactor_Constant;
    case HL_RHI_BLEND_ONE_MINUS_CONSTANT: return WGPUBlendFactor_OneMinusConstant;
    default: return default_value;
    }
}

static uint32_t blend_op(hl_rhi_blend_op op) {
    switch (op) {
    case HL_RHI_BLEND_OP_SUBTRACT: return WGPUBlendOperation_Subtract;
    case HL_RHI_BLEND_OP_REVERSE_SUBTRACT: return WGPUBlendOperation_ReverseSubtract;
    case HL_RHI_BLEND_OP_MIN: return WGPUBlendOperation_Min;
    case HL_RHI_BLEND_OP_MAX: return WGPUBlendOperation_Max;
    default: return WGPUBlendOperation_Add;
    }
}

static uint32_t stencil_op(hl_rhi_stencil_op op) {
    switch (op) {
    case HL_RHI_STENCIL_ZERO: return WGPUStencilOperation_Zero;
    case HL_RHI_STENCIL_REPLACE: return WGPUStencilOperation_Replace;
    case HL_RHI_STENCIL_INVERT: return WGPUStencilOperation_Invert;
    case HL_RHI_STENCIL_INCREMENT_CLAMP: return WGPUStencilOperation_IncrementClamp;
    case HL_RHI_STENCIL_DECREMENT_CLAMP: return WGPUStencilOperation_DecrementClamp;
    case HL_RHI_STENCIL_INCREMENT_WRAP: return WGPUStencilOperation_IncrementWrap;
    case HL_RHI_STENCIL_DECREMENT_WRAP: return WGPUStencilOperation_DecrementWrap;
    default: return WGPUStencilOperation_Keep;
    }
}

/* ---- buffers ----------------------------------------------------------------------------- */
hl_result hl__wgpu_buffer_create(hl_rhi_device *dev, hl__buffer *buf, const void *initial_data) {
    hl__wgpu_device *be = hl__wgpu_be(dev);
    WGPUBufferDescriptor d;
    memset(&d, 0, sizeof d);
    d.label = hl__wgpu_str(buf->desc.label);
    d.usage = buffer_usage(buf->desc.usage);
    if (initial_data) d.usage |= WGPUBufferUsage_CopyDst;
    d.size = buf->desc.size;
    WGPUBuffer b = WGPU(dev, DeviceCreateBuffer)(be->device, &d);
    hl_result r = hl__wgpu_take_error(dev, "buffer_create");
    if (!r && !b) r = hl__fail(HL_ERR_BACKEND, "webgpu: buffer_create: Dawn returned no buffer");
    if (!r && initial_data) {
        WGPU(dev, QueueWriteBuffer)(be->queue, b, 0, initial_data, (size_t)buf->desc.size);
        r = hl__wgpu_take_error(dev, "buffer_create (initial data)");
    }
    if (r) {
        if (b) WGPU(dev, BufferRelease)(b);
        return r;
    }
    buf->be.ptr = b;
    return HL_OK;
}

void hl__wgpu_buffer_destroy(hl_rhi_device *dev, hl__buffer *buf) {
    if (!buf->be.ptr) return;
    WGPU(dev, BufferDestroy)(buf->be.ptr);
    WGPU(dev, BufferRelease)(buf->be.ptr);
    buf->be.ptr = NULL;
}

/* ---- staged writes (hl__wgpu_staging, webgpu_internal.h) ------------------------------------- */
static void on_staging_mapped(uint32_t status, WGPUStringView message, void *userdata1, void *userdata2) {
    (void)message;
    hl__wgpu_staging *st = userdata1;
    hl__wgpu_staging_slot *s = &st->slot[(uintptr_t)userdata2];
    s->mapping = 0;
    s->mapped = status == WGPU_CALLBACK_STATUS_SUCCESS; /* else the slot is dead: remade when taken */
    if (st->outstanding) st->outstanding--;
    if (st->orphaned && !st->outstanding) hl__free(st);
}

void hl__wgpu_staging_destroy(hl_rhi_device *dev) {
    hl__wgpu_device *be = hl__wgpu_be(dev);
    hl__wgpu_staging *st = be->staging;
    if (!st) return;
    be->staging = NULL;
    for (uint32_t i = 0; i < HL__WGPU_STAGING_SLOTS; i++) {
        if (!st->slot[i].buf) continue;
        WGPU(dev, BufferDestroy)(st->slot[i].buf); /* aborts an outstanding map */
        WGPU(dev, BufferRelease)(st->slot[i].buf);
        st->slot[i].buf = NULL;
    }
    if (st->outstanding) st->orphaned = 1; /* the last map callback frees it */
    else hl__free(st);
}

/* The mapped slot of the least size at least need; -1: none. */
static int staging_mapped_slot(const hl__wgpu_staging *st, uint64_t need) {
    int best = -1;
    for (uint32_t i = 0; i < HL__WGPU_STAGING_SLOTS; i++) {
        const hl__wgpu_staging_slot *s = &st->slot[i];
        if (s->buf && s->mapped && s->size >= need && (best < 0 || s->size < st->slot[best].size)) best = (int)i;
    }
    return best;
}

/* A slot to write need bytes through: a mapped one large enough (after the events of maps
 * outstanding are delivered, when none is), else an empty or dead slot or the smallest mapped
 * one, (re)made mapped at need rounded up to 1 MiB. -1: every slot is in flight or no staging
 * buffer could be made; the caller writes through the queue. */
static int staging_take(hl_rhi_device *dev, uint64_t need) {
    hl__wgpu_device *be = hl__wgpu_be(dev);
    hl__wgpu_staging *st = be->staging;
    int i = staging_mapped_slot(st, need);
    if (i >= 0) return i;
    if (st->outstanding) {
        WGPU(dev, InstanceProcessEvents)(be->instance);
        if ((i = staging_mapped_slot(st, need)) >= 0) return i;
    }
    for (uint32_t k = 0; k < HL__WGPU_STAGING_SLOTS; k++) {
        const hl__wgpu_staging_slot *s = &st->slot[k];
        if (s->mapping) continue;
        if (!s->buf || !s->mapped) { /* empty, or its map failed */
            i = (int)k;
            break;
        }
        if (i < 0 || s->size < st->slot[i].size) i = (int)k;
    }
    if (i < 0) return -1;
    hl__wgpu_staging_slot *s = &st->slot[i];
    if (s->buf) {
        WGPU(dev, BufferDestroy)(s->buf);
        WGPU(dev, BufferRelease)(s->buf);
        memset(s, 0, sizeof *s);
    }
    WGPUBufferDescriptor d;
    memset(&d, 0, sizeof d);
    d.label = hl__wgpu_str("hl staged writes");
    d.usage = WGPUBufferUsage_MapWrite | WGPUBufferUsage_CopySrc;
    d.size = (need + ((1u << 20) - 1u)) & ~(uint64_t)((1u << 20) - 1u);
    d.mappedAtCreation = 1;
    WGPUBuffer b = WGPU(dev, DeviceCreateBuffer)(be->device, &d);
    /* a failure (out of memory) is this buffer's alone: taken here, the queue write goes on */
    if (be->error_code || !b) {
        be->error_code = HL_OK;
        be->error[0] = '\0';
        if (b) WGPU(dev, BufferRelease)(b);
        return -1;
    }
    s->buf = b;
    s->size = d.size;
    s->mapped = 1;
    return i;
}

/* Writes through a staging slot (*r: the write's result); false: no slot could take it, write
 * through the queue. */
static bool staged_write(hl_rhi_device *dev, hl__buffer *buf, uint64_t offset, const void *data, uint64_t size,
                         hl_result *r) {
    hl__wgpu_device *be = hl__wgpu_be(dev);
    if (!be->staging && !(be->staging = hl__calloc(1, sizeof *be->staging))) return false; /* the queue needs none */
    if (be->error_code) return false; /* an earlier error is the queue write's to report */
    int i = staging_take(dev, size);
    if (i < 0) return false;
    hl__wgpu_staging *st = be->staging;
    hl__wgpu_staging_slot *s = &st->slot[i];
    void *dst = WGPU(dev, BufferGetMappedRange)(s->buf, 0, (size_t)size);
    if (!dst) {
        s->mapped = 0; /* dead: remade when taken */
        return false;
    }
    memcpy(dst, data, (size_t)size);
    WGPU(dev, BufferUnmap)(s->buf);
    s->mapped = 0;
    WGPUCommandEncoder enc = WGPU(dev, DeviceCreateCommandEncoder)(be->device, NULL);
    WGPU(dev, CommandEncoderCopyBufferToBuffer)(enc, s->buf, 0, buf->be.ptr, offset, size);
    WGPUCommandBuffer cb = WGPU(dev, CommandEncoderFinish)(enc, NULL);
    WGPU(dev, CommandEncoderRelease)(enc);
    if (cb) {
        WGPU(dev, QueueSubmit)(be->queue, 1, &cb);
        WGPU(dev, CommandBufferRelease)(cb);
    }
    s->mapping = 1;
    st->outstanding++;
    WGPU(dev, BufferMapAsync)(s->buf, WGPUMapMode_Write, 0, (size_t)s->size,
                              (WGPUCallbackInfo){NULL, WGPUCallbackMode_AllowProcessEvents,
                                                 (void (*)(void))on_staging_mapped, st, (void *)(uintptr_t)i});
    *r = hl__wgpu_take_error(dev, "buffer_write");
    return true;
}

hl_result hl__wgpu_buffer_write(hl_rhi_device *dev, hl__buffer *buf, uint64_t offset, const void *data,
                                uint64_t size) {
    hl_result r;
    if (size > HL__WGPU_STAGED_MIN && !dev->lost && staged_write(dev, buf, offset, data, size, &r)) return r;
    WGPU(dev, QueueWriteBuffer)(hl__wgpu_be(dev)->queue, buf->be.ptr, offset, data, (size_t)size);
    return hl__wgpu_take_error(dev, "buffer_write");
}

typedef struct map_request {
    hl__wgpu_req head;
    uint32_t status;
    char message[256];
} map_request;

static void on_mapped(uint32_t status, WGPUStringView message, void *userdata1, void *userdata2) {
    (void)userdata2;
    map_request *req = userdata1;
    req->status = status;
    size_t n = message.data ? (message.length == WGPU_STRLEN ? strlen(message.data) : message.length) : 0;
    if (n >= sizeof req->message) n = sizeof req->message - 1;
    if (n) memcpy(req->message, message.data, n);
    req->message[n] = '\0';
    hl__wgpu_req_finish(&req->head);
}

/* Submits `enc`, maps `staging` for reading and returns its contents through *out. The caller
 * unmaps and releases the staging buffer. */
static hl_result submit_and_map(hl_rhi_device *dev, WGPUCommandEncoder enc, WGPUBuffer staging, uint64_t size,
                                const uint8_t **out, const char *what) {
    hl__wgpu_device *be = hl__wgpu_be(dev);
    WGPUCommandBuffer cb = WGPU(dev, CommandEncoderFinish)(enc, NULL);
    hl_result r = hl__wgpu_take_error(dev, what);
    if (r) {
        if (cb) WGPU(dev, CommandBufferRelease)(cb);
        return r;
    }
    WGPU(dev, QueueSubmit)(be->queue, 1, &cb);
    WGPU(dev, CommandBufferRelease)(cb);
    map_request *req = hl__calloc(1, sizeof *req);
    if (!req) return hl__fail(HL_ERR_OUT_OF_MEMORY, "webgpu: %s: out of memory for a map request", what);
    WGPU(dev, BufferMapAsync)(staging, WGPUMapMode_Read, 0, (size_t)size,
                              (WGPUCallbackInfo){NULL, WGPUCallbackMode_AllowProcessEvents,
                                                 (void (*)(void))on_mapped, req, NULL});
    /* on failure req belongs to its callback; the caller destroys the staging buffer, which
     * aborts the mapping */
    r = hl__wgpu_wait_req(dev, &req->head, what);
    if (r) return r;
    uint32_t status = req->status;
    char message[sizeof req->message];
    memcpy(message, req->message, sizeof message);
    hl__free(req);
    r = hl__wgpu_take_error(dev, what);
    if (r) return r;
    if (status != WGPU_CALLBACK_STATUS_SUCCESS)
        return hl__fail(HL_ERR_BACKEND, "webgpu: %s: map failed (status %u): %s", what, status, message);
    *out = WGPU(dev, BufferGetConstMappedRange)(staging, 0, (size_t)size);
    if (!*out) return hl__fail(HL_ERR_BACKEND, "webgpu: %s: no mapped range", what);
    return HL_OK;
}

static WGPUBuffer create_staging(hl_rhi_device *dev, uint64_t size, const char *what, hl_result *r) {
    WGPUBufferDescriptor d;
    memset(&d, 0, sizeof d);
    d.label = hl__wgpu_str("hl readback staging");
    d.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst;
    d.size = size;
    WGPUBuffer b = WGPU(dev, DeviceCreateBuffer)(hl__wgpu_be(dev)->device, &d);
    *r = hl__wgpu_take_error(dev, what);
    if (!*r && !b) *r = hl__fail(HL_ERR_OUT_OF_MEMORY, "webgpu: %s: no staging buffer", what);
    if (*r && b) {
        WGPU(dev, BufferRelease)(b);
        b = NULL;
    }
    return b;
}

hl_result hl__wgpu_buffer_read(hl_rhi_device *dev, hl__buffer *buf, uint64_t offset, void *dst, uint64_t size) {
    if (size == 0) return HL_OK;
    /* copies need 4-byte aligned offsets and sizes; buffer sizes are multiples of 4 */
    uint64_t begin = offset & ~(uint64_t)3;
    uint64_t end = (offset + size + 3) & ~(uint64_t)3;
    if (end > buf->desc.size) end = buf->desc.size;
    uint64_t span = end - begin;
    hl_result r;
    WGPUBuffer staging = create_staging(dev, span, "buffer_read", &r);
    if (r) return r;
    WGPUCommandEncoder enc = WGPU(dev, DeviceCreateCommandEncoder)(hl__wgpu_be(dev)->device, NULL);
    WGPU(dev, CommandEncoderCopyBufferToBuffer)(enc, buf->be.ptr, begin, staging, 0, span);
    const uint8_t *mapped = NULL;
    r = submit_and_map(dev, enc, staging, span, &mapped, "buffer_read");
    WGPU(dev, CommandEncoderRelease)(enc);
    if (!r) {
        memcpy(dst, mapped + (offset - begin), (size_t)size);
        WGPU(dev, BufferUnmap)(staging);
    }
    WGPU(dev, BufferDestroy)(staging);
    WGPU(dev, BufferRelease)(staging);
    return r;
}

/* ---- textures ------------------------------------------------------------------------------ */
hl_result hl__wgpu_texture_create(hl_rhi_device *dev, hl__texture *tex) {
    const hl_rhi_texture_desc *desc = &tex->desc;
    WGPUTextureDescriptor d;
    memset(&d, 0, sizeof d);
    d.label = hl__wgpu_str(desc->label);
    d.usage = hl__wgpu_texture_usage(desc->usage);
    d.dimension = texture_dimension(desc->dimension);
    d.size.width = desc->width;
    d.size.height = desc->height ? desc->height : 1;
    d.size.depthOrArrayLayers = desc->depth_or_layers ? desc->depth_or_layers : 1;
    d.format = hl__wgpu_format(desc->format);
    d.mipLevelCount = desc->mip_levels ? desc->mip_levels : 1;
    d.sampleCount = desc->sample_count ? desc->sample_count : 1;
    WGPUTexture t = WGPU(dev, DeviceCreateTexture)(hl__wgpu_be(dev)->device, &d);
    hl_result r = hl__wgpu_take_error(dev, "texture_create");
    if (!r && !t) r = hl__fail(HL_ERR_BACKEND, "webgpu: texture_create: Dawn returned no texture");
    if (r) {
        if (t) WGPU(dev, TextureRelease)(t);
        return r;
    }
    tex->be.ptr = t;
    return HL_OK;
}

void hl__wgpu_texture_destroy(hl_rhi_device *dev, hl__texture *tex) {
    if (!tex->be.ptr) return;
    /* a surface's frame texture belongs to the surface: only the reference acquire took goes */
    if (!tex->surface) WGPU(dev, TextureDestroy)(tex->be.ptr);
    WGPU(dev, TextureRelease)(tex->be.ptr);
    tex->be.ptr = NULL;
}

hl_result hl__wgpu_texture_write(hl_rhi_device *dev, hl__texture *tex, const hl_rhi_texture_region *region,
                                 const void *data, uint32_t row_pitch) {
    uint32_t texel = hl__format_texel_size(tex->desc.format);
    WGPUExtent3D e = hl__wgpu_extent(region);
    uint64_t rows = (uint64_t)e.height * e.depthOrArrayLayers;
    size_t size = (size_t)((rows - 1) * row_pitch + (uint64_t)e.width * texel);
    WGPUTexelCopyTextureInfo dst = hl__wgpu_texel_copy_info(tex, region);
    WGPUTexelCopyBufferLayout layout = {0, row_pitch, e.height};
    WGPU(dev, QueueWriteTexture)(hl__wgpu_be(dev)->queue, &dst, data, size, &layout, &e);
    return hl__wgpu_take_error(dev, "texture_write");
}

hl_result hl__wgpu_texture_read(hl_rhi_device *dev, hl__texture *tex, const hl_rhi_texture_region *region,
                                void *dst, uint32_t dst_row_pitch) {
    uint32_t texel = hl__format_texel_size(tex->desc.format);
    WGPUExtent3D e = hl__wgpu_extent(region);
    uint32_t row_bytes = e.width * texel;
    uint32_t pitch = (row_bytes + 255u) & ~255u;
    if (dst_row_pitch == 0) dst_row_pitch = row_bytes;
    uint64_t rows = (uint64_t)e.height * e.depthOrArrayLayers;
    uint64_t span = rows * pitch;
    hl_result r;
    WGPUBuffer staging = create_staging(dev, span, "texture_read", &r);
    if (r) return r;
    WGPUCommandEncoder enc = WGPU(dev, DeviceCreateCommandEncoder)(hl__wgpu_be(dev)->device, NULL);
    WGPUTexelCopyTextureInfo src = hl__wgpu_texel_copy_info(tex, region);
    WGPUTexelCopyBufferInfo to = {{0, pitch, e.height}, staging};
    WGPU(dev, CommandEncoderCopyTextureToBuffer)(enc, &src, &to, &e);
    const uint8_t *mapped = NULL;
    r = submit_and_map(dev, enc, staging, span, &mapped, "texture_read");
    WGPU(dev, CommandEncoderRelease)(enc);
    if (!r) {
        uint8_t *out = dst;
        for (uint64_t y = 0; y < rows; y++) memcpy(out + y * dst_row_pitch, mapped + y * pitch, row_bytes);
        WGPU(dev, BufferUnmap)(staging);
    }
    WGPU(dev, BufferDestroy)(staging);
    WGPU(dev, BufferRelease)(staging);
    return r;
}

/* ---- views, samplers --------------------------------------------------------------------- */
hl_result hl__wgpu_view_create(hl_rhi_device *dev, hl__texture *tex, hl__texture_view *view) {
    const hl_rhi_texture_view_desc *vd = &view->desc;
    WGPUTextureViewDescriptor d;
    memset(&d, 0, sizeof d);
    d.label = hl__wgpu_str(vd->label);
    d.format = hl__wgpu_format(view->format ? view->format : tex->desc.format);
    d.dimension = view_dimension(vd->dimension);
    d.baseMipLevel = vd->base_mip_level;
    d.mipLevelCount = vd->mip_level_count ? vd->mip_level_count : UINT32_MAX;
    d.baseArrayLayer = vd->base_layer;
    d.arrayLayerCount = vd->layer_count ? vd->layer_count : UINT32_MAX;
    d.aspect = WGPUTextureAspect_All;
    WGPUTextureView v = WGPU(dev, TextureCreateView)(tex->be.ptr, &d);
    hl_result r = hl__wgpu_take_error(dev, "texture_view_create");
    if (!r && !v) r = hl__fail(HL_ERR_BACKEND, "webgpu: texture_view_create: Dawn returned no view");
    if (r) {
        if (v) WGPU(dev, TextureViewRelease)(v);
        return r;
    }
    view->be.ptr = v;
    return HL_OK;
}

void hl__wgpu_view_destroy(hl_rhi_device *dev, hl__texture_view *view) {
    if (!view->be.ptr) return;
    WGPU(dev, TextureViewRelease)(view->be.ptr);
    view->be.ptr = NULL;
}

hl_result hl__wgpu_sampler_create(hl_rhi_device *dev, const hl_rhi_sampler_desc *desc, hl__native *be) {
    WGPUSamplerDescriptor d;
    memset(&d, 0, sizeof d);
    d.label = hl__wgpu_str(desc->label);
    d.addressModeU = address_mode(desc->address_u);
    d.addressModeV = address_mode(desc->address_v);
    d.addressModeW = address_mode(desc->address_w);
    d.magFilter = filter_mode(desc->mag_filter);
    d.minFilter = filter_mode(desc->min_filter);
    d.mipmapFilter = filter_mode(desc->mipmap_filter);
    d.lodMinClamp = desc->lod_min;
    d.lodMaxClamp = desc->lod_max > 0.0f ? desc->lod_max : 32.0f;
    d.compare = compare_function(desc->compare, WGPUCompareFunction_Undefined);
    d.maxAnisotropy = (uint16_t)(desc->max_anisotropy ? (desc->max_anisotropy > 16 ? 16 : desc->max_anisotropy) : 1);
    WGPUSampler s = WGPU(dev, DeviceCreateSampler)(hl__wgpu_be(dev)->device, &d);
    hl_result r = hl__wgpu_take_error(dev, "sampler_create");
    if (!r && !s) r = hl__fail(HL_ERR_BACKEND, "webgpu: sampler_create: Dawn returned no sampler");
    if (r) {
        if (s) WGPU(dev, SamplerRelease)(s);
        return r;
    }
    be->ptr = s;
    return HL_OK;
}

void hl__wgpu_sampler_destroy(hl_rhi_device *dev, hl__native be) {
    if (be.ptr) WGPU(dev, SamplerRelease)(be.ptr);
}

/* ---- layouts, bind groups ------------------------------------------------------------------ */
hl_result hl__wgpu_bgl_create(hl_rhi_device *dev, const hl__bind_group_layout *layout, hl__native *be) {
    WGPUBindGroupLayoutEntry entries[HL_RHI_MAX_BINDINGS];
    memset(entries, 0, sizeof entries);
    for (uint32_t i = 0; i < layout->entry_count; i++) {
        const hl_rhi_bind_group_layout_entry *e = &layout->entries[i];
        WGPUBindGroupLayoutEntry *w = &entries[i];
        w->binding = e->binding;
        w->visibility = shader_stages(e->visibility);
        switch (e->type) {
        case HL_RHI_BINDING_UNIFORM_BUFFER:
        case HL_RHI_BINDING_STORAGE_BUFFER:
        case HL_RHI_BINDING_READ_ONLY_STORAGE_BUFFER:
            w->buffer.type = e->type == HL_RHI_BINDING_UNIFORM_BUFFER   ? WGPUBufferBindingType_Uniform
                             : e->type == HL_RHI_BINDING_STORAGE_BUFFER ? WGPUBufferBindingType_Storage
                                                                        : WGPUBufferBindingType_ReadOnlyStorage;
            w->buffer.hasDynamicOffset = e->has_dynamic_offset;
            w->buffer.minBindingSize = e->min_binding_size;
            break;
        case HL_RHI_BINDING_SAMPLED_TEXTURE:
            w->texture.sampleType = sample_type(e->sample_type);
            w->texture.viewDimension = view_dimension(e->view_dimension);
            w->texture.multisampled = e->multisampled;
            break;
        case HL_RHI_BINDING_SAMPLER: w->sampler.type = WGPUSamplerBindingType_Filtering; break;
        case HL_RHI_BINDING_COMPARISON_SAMPLER: w->sampler.type = WGPUSamplerBindingType_Comparison; break;
        case HL_RHI_BINDING_STORAGE_TEXTURE:
            w->storageTexture.access = WGPUStorageTextureAccess_WriteOnly;
            w->storageTexture.format = hl__wgpu_format(e->storage_format);
            w->storageTexture.viewDimension = view_dimension(e->view_dimension);
            break;
        }
    }
    WGPUBindGroupLayoutDescriptor d;
    memset(&d, 0, sizeof d);
    d.entryCount = layout->entry_count;
    d.entries = entries;
    WGPUBindGroupLayout l = WGPU(dev, DeviceCreateBindGroupLayout)(hl__wgpu_be(dev)->device, &d);
    hl_result r = hl__wgpu_take_error(dev, "bind_group_layout_create");
    if (!r && !l) r = hl__fail(HL_ERR_BACKEND, "webgpu: bind_group_layout_create: Dawn returned no layout");
    if (r) {
        if (l) WGPU(dev, BindGroupLayoutRelease)(l);
        return r;
    }
    be->ptr = l;
    return HL_OK;
}

void hl__wgpu_bgl_destroy(hl_rhi_device *dev, hl__native be) {
    if (be.ptr) WGPU(dev, BindGroupLayoutRelease)(be.ptr);
}

hl_result hl__wgpu_pipeline_layout_create(hl_rhi_device *dev, const hl__pipeline_layout *layout,
                                          hl__bind_group_layout *const *groups, hl__native *be) {
    WGPUBindGroupLayout bgls[HL_RHI_MAX_BIND_GROUPS];
    for (uint32_t i = 0; i < layout->group_count; i++) bgls[i] = groups[i]->be.ptr;
    WGPUPipelineLayoutDescriptor d;
    memset(&d, 0, sizeof d);
    d.bindGroupLayoutCount = layout->group_count;
    d.bindGroupLayouts = bgls;
    WGPUPipelineLayout l = WGPU(dev, DeviceCreatePipelineLayout)(hl__wgpu_be(dev)->device, &d);
    hl_result r = hl__wgpu_take_error(dev, "pipeline_layout_create");
    if (!r && !l) r = hl__fail(HL_ERR_BACKEND, "webgpu: pipeline_layout_create: Dawn returned no layout");
    if (r) {
        if (l) WGPU(dev, PipelineLayoutRelease)(l);
        return r;
    }
    be->ptr = l;
    return HL_OK;
}

void hl__wgpu_pipeline_layout_destroy(hl_rhi_device *dev, hl__native be) {
    if (be.ptr) WGPU(dev, PipelineLayoutRelease)(be.ptr);
}

hl_result hl__wgpu_bind_group_create(hl_rhi_device *dev, hl__bind_group *group, hl__bind_group_layout *layout) {
    WGPUBindGroupEntry entries[HL_RHI_MAX_BINDINGS];
    memset(entries, 0, sizeof entries);
    for (uint32_t i = 0; i < group->entry_count; i++) {
        const hl_rhi_bind_group_entry *e = &group->entries[i];
        const hl_rhi_bind_group_layout_entry *le = NULL;
        for (uint32_t j = 0; j < layout->entry_count; j++)
            if (layout->entries[j].binding == e->binding) le = &layout->entries[j];
        if (!le) return hl__fail(HL_ERR_VALIDATION, "bind group entry %u: binding %u is not in the layout", i, e->binding);
        WGPUBindGroupEntry *w = &entries[i];
        w->binding = e->binding;
        switch (le->type) {
        case HL_RHI_BINDING_UNIFORM_BUFFER:
        case HL_RHI_BINDING_STORAGE_BUFFER:
        case HL_RHI_BINDING_READ_ONLY_STORAGE_BUFFER: {
            hl__buffer *b = hl__pool_get(dev, HL__POOL_BUFFER, e->buffer.id);
            if (!b) return hl__fail(HL_ERR_VALIDATION, "bind group entry %u: stale buffer", i);
            w->buffer = b->be.ptr;
            w->offset = e->offset;
            w->size = e->size ? e->size : WGPU_WHOLE_SIZE;
            break;
        }
        case HL_RHI_BINDING_SAMPLED_TEXTURE:
        case HL_RHI_BINDING_STORAGE_TEXTURE: {
            hl__texture_view *v = hl__pool_get(dev, HL__POOL_VIEW, e->view.id);
            if (!v) return hl__fail(HL_ERR_VALIDATION, "bind group entry %u: stale texture view", i);
            w->textureView = v->be.ptr;
            break;
        }
        case HL_RHI_BINDING_SAMPLER:
        case HL_RHI_BINDING_COMPARISON_SAMPLER: {
            hl__sampler *s = hl__pool_get(dev, HL__POOL_SAMPLER, e->sampler.id);
            if (!s) return hl__fail(HL_ERR_VALIDATION, "bind group entry %u: stale sampler", i);
            w->sampler = s->be.ptr;
            break;
        }
        }
    }
    WGPUBindGroupDescriptor d;
    memset(&d, 0, sizeof d);
    d.layout = layout->be.ptr;
    d.entryCount = group->entry_count;
    d.entries = entries;
    WGPUBindGroup g = WGPU(dev, DeviceCreateBindGroup)(hl__wgpu_be(dev)->device, &d);
    hl_result r = hl__wgpu_take_error(dev, "bind_group_create");
    if (!r && !g) r = hl__fail(HL_ERR_BACKEND, "webgpu: bind_group_create: Dawn returned no bind group");
    if (r) {
        if (g) WGPU(dev, BindGroupRelease)(g);
        return r;
    }
    group->be.ptr = g;
    return HL_OK;
}

void hl__wgpu_bind_group_destroy(hl_rhi_device *dev, hl__bind_group *group) {
    if (!group->be.ptr) return;
    WGPU(dev, BindGroupRelease)(group->be.ptr);
    group->be.ptr = NULL;
}

/* ---- shader modules ------------------------------------------------------------------------ */
typedef struct compilation_request {
    hl__wgpu_req head;
    char message[1024];
    uint32_t errors;
} compilation_request;

static void on_compilation_info(uint32_t status, const WGPUCompilationInfo *info, void *userdata1, void *userdata2) {
    (void)userdata2;
    compilation_request *req = userdata1;
    if (status == WGPU_CALLBACK_STATUS_SUCCESS && info) {
        size_t used = 0;
        for (size_t i = 0; i < info->messageCount; i++) {
            const WGPUCompilationMessage *m = &info->messages[i];
            if (m->type != WGPUCompilationMessageType_Error) continue;
            req->errors++;
            size_t n = m->message.data ? (m->message.length == WGPU_STRLEN ? strlen(m->message.data)
                                                                           : m->message.length)
                                       : 0;
            int w = snprintf(req->message + used, sizeof req->message - used, "%s%u:%u: %.*s", used ? "; " : "",
                             (unsigned)m->lineNum, (unsigned)m->linePos, (int)(n > 600 ? 600 : n),
                             m->message.data ? m->message.data : "");
            if (w < 0) break;
            used += (size_t)w;
            if (used >= sizeof req->message) break;
        }
    }
    hl__wgpu_req_finish(&req->head);
}

hl_result hl__wgpu_shader_create(hl_rhi_device *dev, const hl_rhi_shader_desc *desc, hl__shader *shader) {
    hl__wgpu_device *be = hl__wgpu_be(dev);
    hl__wgpu_shader *s = hl__calloc(1, sizeof *s);
    if (!s) return hl__fail(HL_ERR_OUT_OF_MEMORY, "webgpu: out of memory for a shader module");
    const char *entry = desc->entry_point && desc->entry_point[0] ? desc->entry_point : "main";
    if (strlen(entry) >= sizeof s->entry) {
        hl__free(s);
        return hl__fail(HL_ERR_VALIDATION, "shader_create: entry_point '%.40s...' is longer than %u bytes", entry,
                        (unsigned)sizeof s->entry - 1);
    }
    memcpy(s->entry, entry, strlen(entry) + 1);

    WGPUShaderSourceSPIRV spirv;
    WGPUShaderSourceWGSL wgsl;
    WGPUShaderModuleDescriptor d;
    memset(&d, 0, sizeof d);
    d.label = hl__wgpu_str(desc->label);
    if (desc->spirv && desc->spirv_word_count) {
        memset(&spirv, 0, sizeof spirv);
        spirv.chain.sType = WGPUSType_ShaderSourceSPIRV;
        spirv.codeSize = (uint32_t)desc->spirv_word_count;
        spirv.code = desc->spirv;
        d.nextInChain = &spirv.chain;
    } else {
        memset(&wgsl, 0, sizeof wgsl);
        wgsl.chain.sType = WGPUSType_ShaderSourceWGSL;
        wgsl.code = hl__wgpu_str(desc->wgsl ? desc->wgsl : "");
        d.nextInChain = &wgsl.chain;
    }
    WGPUShaderModule m = WGPU(dev, DeviceCreateShaderModule)(be->device, &d);
    compilation_request req;
    memset(&req, 0, sizeof req);
    if (m) {
        compilation_request *cr = hl__calloc(1, sizeof *cr);
        hl_result r = cr ? HL_OK : hl__fail(HL_ERR_OUT_OF_MEMORY, "webgpu: shader_create: out of memory");
        if (cr) {
            WGPU(dev, ShaderModuleGetCompilationInfo)(m, (WGPUCallbackInfo){NULL, WGPUCallbackMode_AllowProcessEvents,
                                                                            (void (*)(void))on_compilation_info,
                                                                            cr, NULL});
            r = hl__wgpu_wait_req(dev, &cr->head, "shader_create"); /* on failure cr is its callback's */
        }
        if (r) {
            WGPU(dev, ShaderModuleRelease)(m);
            hl__free(s);
            return r;
        }
        req = *cr;
        hl__free(cr);
    }
    /* the compile error also reached the uncaptured-error callback: report it as a shader error */
    bool had_error = be->error_code != HL_OK && !dev->lost;
    char dawn_message[sizeof be->error];
    memcpy(dawn_message, be->error, sizeof dawn_message);
    if (had_error) {
        be->error_code = HL_OK;
        be->error[0] = '\0';
    }
    hl_result r = HL_OK;
    if (req.errors)
        r = hl__fail(HL_ERR_SHADER, "webgpu: shader_create%s%s: %s", desc->label ? " " : "",
                     desc->label ? desc->label : "", req.message);
    else if (had_error)
        r = hl__fail(HL_ERR_SHADER, "webgpu: shader_create%s%s: Dawn: %s", desc->label ? " " : "",
                     desc->label ? desc->label : "", dawn_message);
    else if (dev->lost)
        r = hl__wgpu_take_error(dev, "shader_create");
    else if (!m)
        r = hl__fail(HL_ERR_BACKEND, "webgpu: shader_create: Dawn returned no module");
    if (r) {
        if (m) WGPU(dev, ShaderModuleRelease)(m);
        hl__free(s);
        return r;
    }
    s->module = m;
    shader->be.ptr = s;
    return HL_OK;
}

void hl__wgpu_shader_destroy(hl_rhi_device *dev, hl__shader *shader) {
    hl__wgpu_shader *s = shader->be.ptr;
    if (!s) return;
    if (s->module) WGPU(dev, ShaderModuleRelease)(s->module);
    hl__free(s);
    shader->be.ptr = NULL;
}

/* ---- pipelines ----------------------------------------------------------------------------- */
static hl__wgpu_shader *shader_of(hl_rhi_device *dev, hl_rhi_shader h) {
    hl__shader *s = hl__pool_get(dev, HL__POOL_SHADER, h.id);
    return s ? s->be.ptr : NULL;
}

hl_result hl__wgpu_render_pipeline_create(hl_rhi_device *dev, const hl__render_pipeline_info *info,
                                          hl__native *be) {
    hl__pipeline_layout *pl = hl__pool_get(dev, HL__POOL_PIPELINE_LAYOUT, info->layout.id);
    hl__wgpu_shader *vs = shader_of(dev, info->vertex);
    hl__wgpu_shader *fs = info->fragment.id ? shader_of(dev, info->fragment) : NULL;
    if (!pl || !vs || (info->fragment.id && !fs))
        return hl__fail(HL_ERR_VALIDATION, "render_pipeline_create: stale layout or shader handle");

    WGPUVertexAttribute attrs[HL_RHI_MAX_VERTEX_ATTRIBUTES];
    WGPUVertexBufferLayout vbs[HL_RHI_MAX_VERTEX_BUFFERS];
    memset(attrs, 0, sizeof attrs);
    memset(vbs, 0, sizeof vbs);
    for (uint32_t i = 0; i < info->attribute_count; i++) {
        attrs[i].format = vertex_format(info->attributes[i].format);
        attrs[i].offset = info->attributes[i].offset;
        attrs[i].shaderLocation = info->attributes[i].location;
    }
    uint32_t first = 0;
    for (uint32_t b = 0; b < info->vertex_buffer_count; b++) {
        vbs[b].stepMode = info->vb_per_instance[b] ? WGPUVertexStepMode_Instance : WGPUVertexStepMode_Vertex;
        vbs[b].arrayStride = info->vb_stride[b];
        vbs[b].attributeCount = info->vb_attribute_count[b];
        vbs[b].attributes = info->vb_attribute_count[b] ? &attrs[first] : NULL;
        first += info->vb_attribute_count[b];
    }

    WGPURenderPipelineDescriptor d;
    memset(&d, 0, sizeof d);
    d.layout = pl->be.ptr;
    d.vertex.module = vs->module;
    d.vertex.entryPoint = hl__wgpu_str(vs->entry);
    d.vertex.bufferCount = info->vertex_buffer_count;
    d.vertex.buffers = info->vertex_buffer_count ? vbs : NULL;

    d.primitive.topology = topology(info->topology);
    bool strip = info->topology == HL_RHI_TOPOLOGY_TRIANGLE_STRIP || info->topology == HL_RHI_TOPOLOGY_LINE_STRIP;
    d.primitive.stripIndexFormat = strip ? index_format(info->strip_index_format) : WGPUIndexFormat_Undefined;
    d.primitive.frontFace = info->front_face == HL_RHI_FRONT_CW ? WGPUFrontFace_CW : WGPUFrontFace_CCW;
    d.primitive.cullMode = cull_mode(info->cull_mode);

    WGPUDepthStencilState ds;
    const hl_rhi_depth_stencil_state *hds = &info->depth_stencil;
    if (hds->format != HL_RHI_FORMAT_UNDEFINED) {
        memset(&ds, 0, sizeof ds);
        ds.format = hl__wgpu_format(hds->format);
        ds.depthWriteEnabled = hds->depth_write ? WGPUOptionalBool_True : WGPUOptionalBool_False;
        ds.depthCompare = compare_function(hds->depth_compare, hds->depth_write ? WGPUCompareFunction_Less
                                                                               : WGPUCompareFunction_Always);
        const hl_rhi_stencil_face *faces[2] = {&hds->stencil_front, &hds->stencil_back};
        WGPUStencilFaceState *out[2] = {&ds.stencilFront, &ds.stencilBack};
        for (int i = 0; i < 2; i++) {
            bool on = hds->stencil_enabled;
            out[i]->compare = on ? compare_function(faces[i]->compare, WGPUCompareFunction_Always)
                                 : WGPUCompareFunction_Always;
            out[i]->failOp = on ? stencil_op(faces[i]->fail_op) : WGPUStencilOperation_Keep;
            out[i]->depthFailOp = on ? stencil_op(faces[i]->depth_fail_op) : WGPUStencilOperation_Keep;
            out[i]->passOp = on ? stencil_op(faces[i]->pass_op) : WGPUStencilOperation_Keep;
        }
        ds.stencilReadMask = hds->stencil_enabled ? (hds->stencil_read_mask ? hds->stencil_read_mask : 0xffu) : 0xffu;
        ds.stencilWriteMask = hds->stencil_enabled ? (hds->stencil_write_mask ? hds->stencil_write_mask : 0xffu) : 0u;
        ds.depthBias = hds->depth_bias;
        ds.depthBiasSlopeScale = hds->depth_bias_slope_scale;
        ds.depthBiasClamp = 0.0f;
        d.depthStencil = &ds;
    }

    d.multisample.count = info->sample_count ? info->sample_count : 1;
    d.multisample.mask = 0xffffffffu;
    d.multisample.alphaToCoverageEnabled = info->alpha_to_coverage;

    WGPUColorTargetState targets[HL_RHI_MAX_COLOR_ATTACHMENTS];
    WGPUBlendState blends[HL_RHI_MAX_COLOR_ATTACHMENTS];
    WGPUFragmentState fragment;
    memset(targets, 0, sizeof targets);
    if (fs) {
        for (uint32_t i = 0; i < info->color_target_count; i++) {
            const hl_rhi_color_target_state *ct = &info->color_targets[i];
            targets[i].format = hl__wgpu_format(ct->format);
            if (ct->blend_enabled) {
                blends[i].color.operation = blend_op(ct->color.op);
                blends[i].color.srcFactor = blend_factor(ct->color.src_factor, WGPUBlendFactor_One);
                blends[i].color.dstFactor = blend_factor(ct->color.dst_factor, WGPUBlendFactor_Zero);
                blends[i].alpha.operation = blend_op(ct->alpha.op);
                blends[i].alpha.srcFactor = blend_factor(ct->alpha.src_factor, WGPUBlendFactor_One);
                blends[i].alpha.dstFactor = blend_factor(ct->alpha.dst_factor, WGPUBlendFactor_Zero);
                targets[i].blend = &blends[i];
            }
            targets[i].writeMask = ct->write_none ? 0u : (ct->write_mask ? (ct->write_mask & 0xfu) : WGPUColorWriteMask_All);
        }
        memset(&fragment, 0, sizeof fragment);
        fragment.module = fs->module;
        fragment.entryPoint = hl__wgpu_str(fs->entry);
        fragment.targetCount = info->color_target_count;
        fragment.targets = targets;
        d.fragment = &fragment;
    }

    WGPURenderPipeline p = WGPU(dev, DeviceCreateRenderPipeline)(hl__wgpu_be(dev)->device, &d);
    hl_result r = hl__wgpu_take_error(dev, "render_pipeline_create");
    if (!r && !p) r = hl__fail(HL_ERR_BACKEND, "webgpu: render_pipeline_create: Dawn returned no pipeline");
    if (r) {
        if (p) WGPU(dev, RenderPipelineRelease)(p);
        return r;
    }
    be->ptr = p;
    return HL_OK;
}

void hl__wgpu_render_pipeline_destroy(hl_rhi_device *dev, hl__native be) {
    if (be.ptr) WGPU(dev, RenderPipelineRelease)(be.ptr);
}

hl_result hl__wgpu_compute_pipeline_create(hl_rhi_device *dev, hl__compute_pipeline *p) {
    hl__pipeline_layout *pl = hl__pool_get(dev, HL__POOL_PIPELINE_LAYOUT, p->layout.id);
    hl__wgpu_shader *cs = shader_of(dev, p->compute);
    if (!pl || !cs) return hl__fail(HL_ERR_VALIDATION, "compute_pipeline_create: stale layout or shader handle");
    WGPUComputePipelineDescriptor d;
    memset(&d, 0, sizeof d);
    d.layout = pl->be.ptr;
    d.compute.module = cs->module;
    d.compute.entryPoint = hl__wgpu_str(cs->entry);
    WGPUConstantEntry constants[HL_RHI_MAX_CONSTANTS];
    memset(constants, 0, sizeof constants);
    for (uint32_t i = 0; i < p->constant_count; i++) {
        constants[i].key = hl__wgpu_str(p->constants[i].name);
        constants[i].value = p->constants[i].value;
    }
    d.compute.constantCount = p->constant_count;
    d.compute.constants = p->constant_count ? constants : NULL;
    WGPUComputePipeline cp = WGPU(dev, DeviceCreateComputePipeline)(hl__wgpu_be(dev)->device, &d);
    hl_result r = hl__wgpu_take_error(dev, "compute_pipeline_create");
    if (!r && !cp) r = hl__fail(HL_ERR_BACKEND, "webgpu: compute_pipeline_create: Dawn returned no pipeline");
    if (r) {
        if (cp) WGPU(dev, ComputePipelineRelease)(cp);
        return r;
    }
    p->be.ptr = cp;
    return HL_OK;
}

void hl__wgpu_compute_pipeline_destroy(hl_rhi_device *dev, hl__compute_pipeline *p) {
    if (!p->be.ptr) return;
    WGPU(dev, ComputePipelineRelease)(p->be.ptr);
    p->be.ptr = NULL;
}
