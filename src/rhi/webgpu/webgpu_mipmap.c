/* hilo3d webgpu backend: generate_mipmaps. WebGPU has no mip generation, so each level i is a
 * render pass on the frame's encoder that draws one fullscreen triangle sampling level i - 1
 * with a linear sampler (shaders/mipmap.vert/.frag, GLSL 4.50 compiled to SPIR-V at build
 * time). The shader modules, layout and sampler are made once per device, the pipeline once per
 * format. The per-level views and bind groups are released right after recording: the command
 * encoder holds its own references until the submission is done with them. */
#include <stdint.h>
#include <string.h>

#include "webgpu_internal.h"

#include "mipmap_frag.h"
#include "mipmap_vert.h"

static WGPUShaderModule spirv_module(hl_rhi_device *dev, const uint32_t *code, size_t bytes, const char *label) {
    WGPUShaderSourceSPIRV src;
    memset(&src, 0, sizeof src);
    src.chain.sType = WGPUSType_ShaderSourceSPIRV;
    src.codeSize = (uint32_t)(bytes / sizeof(uint32_t));
    src.code = code;
    WGPUShaderModuleDescriptor d;
    memset(&d, 0, sizeof d);
    d.nextInChain = &src.chain;
    d.label = hl__wgpu_str(label);
    return WGPU(dev, DeviceCreateShaderModule)(hl__wgpu_be(dev)->device, &d);
}

/* Shader modules, bind group layout, pipeline layout and sampler shared by every format. */
static hl_result mip_shared_objects(hl_rhi_device *dev) {
    hl__wgpu_device *be = hl__wgpu_be(dev);
    if (be->mip_sampler) return HL_OK;
    be->mip_vs = spirv_module(dev, hl__mipmap_vert_spv, sizeof hl__mipmap_vert_spv, "hl mipmap vs");
    be->mip_fs = spirv_module(dev, hl__mipmap_frag_spv, sizeof hl__mipmap_frag_spv, "hl mipmap fs");

    WGPUBindGroupLayoutEntry entries[2];
    memset(entries, 0, sizeof entries);
    entries[0].binding = 0;
    entries[0].visibility = WGPUShaderStage_Fragment;
    entries[0].texture.sampleType = WGPUTextureSampleType_Float;
    entries[0].texture.viewDimension = WGPUTextureViewDimension_2D;
    entries[1].binding = 1;
    entries[1].visibility = WGPUShaderStage_Fragment;
    entries[1].sampler.type = WGPUSamplerBindingType_Filtering;
    WGPUBindGroupLayoutDescriptor bd;
    memset(&bd, 0, sizeof bd);
    bd.label = hl__wgpu_str("hl mipmap");
    bd.entryCount = 2;
    bd.entries = entries;
    be->mip_bgl = WGPU(dev, DeviceCreateBindGroupLayout)(be->device, &bd);

    WGPUPipelineLayoutDescriptor pd;
    memset(&pd, 0, sizeof pd);
    pd.label = hl__wgpu_str("hl mipmap");
    pd.bindGroupLayoutCount = 1;
    pd.bindGroupLayouts = &be->mip_bgl;
    be->mip_layout = WGPU(dev, DeviceCreatePipelineLayout)(be->device, &pd);

    WGPUSamplerDescriptor sd;
    memset(&sd, 0, sizeof sd);
    sd.label = hl__wgpu_str("hl mipmap linear");
    sd.addressModeU = sd.addressModeV = sd.addressModeW = WGPUAddressMode_ClampToEdge;
    sd.magFilter = sd.minFilter = WGPUFilterMode_Linear;
    sd.mipmapFilter = WGPUFilterMode_Nearest;
    sd.lodMinClamp = 0.0f;
    sd.lodMaxClamp = 32.0f;
    sd.maxAnisotropy = 1;
    be->mip_sampler = WGPU(dev, DeviceCreateSampler)(be->device, &sd);

    hl_result r = hl__wgpu_take_error(dev, "generate_mipmaps (shared objects)");
    if (!r && (!be->mip_vs || !be->mip_fs || !be->mip_bgl || !be->mip_layout || !be->mip_sampler))
        r = hl__fail(HL_ERR_BACKEND, "webgpu: generate_mipmaps: Dawn returned no object for the mip shaders");
    if (r) hl__wgpu_mipmap_release(dev);
    return r;
}

static hl_result mip_pipeline(hl_rhi_device *dev, hl_rhi_format format, WGPURenderPipeline *out) {
    hl__wgpu_device *be = hl__wgpu_be(dev);
    if (be->mip_pipeline[format]) {
        *out = be->mip_pipeline[format];
        return HL_OK;
    }
    hl_result r = mip_shared_objects(dev);
    if (r) return r;
    WGPUColorTargetState target;
    memset(&target, 0, sizeof target);
    target.format = hl__wgpu_format(format);
    target.writeMask = WGPUColorWriteMask_All;
    WGPUFragmentState fragment;
    memset(&fragment, 0, sizeof fragment);
    fragment.module = be->mip_fs;
    fragment.entryPoint = hl__wgpu_str("main");
    fragment.targetCount = 1;
    fragment.targets = &target;
    WGPURenderPipelineDescriptor d;
    memset(&d, 0, sizeof d);
    d.label = hl__wgpu_str("hl mipmap");
    d.layout = be->mip_layout;
    d.vertex.module = be->mip_vs;
    d.vertex.entryPoint = hl__wgpu_str("main");
    d.primitive.topology = WGPUPrimitiveTopology_TriangleList;
    d.primitive.frontFace = WGPUFrontFace_CCW;
    d.primitive.cullMode = WGPUCullMode_None;
    d.multisample.count = 1;
    d.multisample.mask = 0xffffffffu;
    d.fragment = &fragment;
    WGPURenderPipeline p = WGPU(dev, DeviceCreateRenderPipeline)(be->device, &d);
    r = hl__wgpu_take_error(dev, "generate_mipmaps (pipeline)");
    if (!r && !p) r = hl__fail(HL_ERR_BACKEND, "webgpu: generate_mipmaps: Dawn returned no pipeline");
    if (r) {
        if (p) WGPU(dev, RenderPipelineRelease)(p);
        return r;
    }
    be->mip_pipeline[format] = p;
    *out = p;
    return HL_OK;
}

static WGPUTextureView level_view(hl_rhi_device *dev, hl__texture *tex, uint32_t level, uint32_t layer) {
    WGPUTextureViewDescriptor d;
    memset(&d, 0, sizeof d);
    d.format = hl__wgpu_format(tex->desc.format);
    d.dimension = WGPUTextureViewDimension_2D;
    d.baseMipLevel = level;
    d.mipLevelCount = 1;
    d.baseArrayLayer = layer;
    d.arrayLayerCount = 1;
    d.aspect = WGPUTextureAspect_All;
    return WGPU(dev, TextureCreateView)(tex->be.ptr, &d);
}

/* Records one level: src (level - 1) -> dst (level) for one layer. */
static hl_result mip_level(hl_rhi_device *dev, hl__texture *tex, WGPURenderPipeline pipeline, uint32_t level,
                           uint32_t layer) {
    hl__wgpu_device *be = hl__wgpu_be(dev);
    WGPUTextureView src = level_view(dev, tex, level - 1, layer);
    WGPUTextureView dst = level_view(dev, tex, level, layer);
    WGPUBindGroupEntry entries[2];
    memset(entries, 0, sizeof entries);
    entries[0].binding = 0;
    entries[0].textureView = src;
    entries[1].binding = 1;
    entries[1].sampler = be->mip_sampler;
    WGPUBindGroupDescriptor bd;
    memset(&bd, 0, sizeof bd);
    bd.layout = be->mip_bgl;
    bd.entryCount = 2;
    bd.entries = entries;
    WGPUBindGroup group = WGPU(dev, DeviceCreateBindGroup)(be->device, &bd);
    dev->stats.transient_allocations += 3; /* two views and a bind group, made inside the frame */

    WGPURenderPassColorAttachment color;
    memset(&color, 0, sizeof color);
    color.view = dst;
    color.depthSlice = WGPU_DEPTH_SLICE_UNDEFINED;
    color.loadOp = WGPULoadOp_Clear; /* every texel is drawn */
    color.storeOp = WGPUStoreOp_Store;
    WGPURenderPassDescriptor pd;
    memset(&pd, 0, sizeof pd);
    pd.label = hl__wgpu_str("hl mipmap level");
    pd.colorAttachmentCount = 1;
    pd.colorAttachments = &color;
    WGPURenderPassEncoder pass = WGPU(dev, CommandEncoderBeginRenderPass)(be->encoder, &pd);
    WGPU(dev, RenderPassEncoderSetPipeline)(pass, pipeline);
    WGPU(dev, RenderPassEncoderSetBindGroup)(pass, 0, group, 0, NULL);
    WGPU(dev, RenderPassEncoderDraw)(pass, 3, 1, 0, 0);
    WGPU(dev, RenderPassEncoderEnd)(pass);
    WGPU(dev, RenderPassEncoderRelease)(pass);

    WGPU(dev, BindGroupRelease)(group);
    WGPU(dev, TextureViewRelease)(src);
    WGPU(dev, TextureViewRelease)(dst);
    return hl__wgpu_take_error(dev, "generate_mipmaps");
}

hl_result hl__wgpu_generate_mipmaps(hl_rhi_cmd *cmd, hl__texture *tex) {
    hl_rhi_device *dev = cmd->dev;
    const hl_rhi_texture_desc *desc = &tex->desc;
    uint32_t levels = desc->mip_levels ? desc->mip_levels : 1;
    if (levels < 2) return HL_OK;
    if (desc->format <= HL_RHI_FORMAT_UNDEFINED || desc->format >= HL_RHI_FORMAT_COUNT)
        return hl__fail(HL_ERR_VALIDATION, "generate_mipmaps: texture format %d is out of range", (int)desc->format);
    WGPURenderPipeline pipeline = NULL;
    hl_result r = mip_pipeline(dev, desc->format, &pipeline);
    if (r) return r;
    uint32_t layers = desc->dimension == HL_RHI_TEXTURE_3D ? 1u : (desc->depth_or_layers ? desc->depth_or_layers : 1u);
    for (uint32_t layer = 0; layer < layers; layer++)
        for (uint32_t level = 1; level < levels; level++) {
            r = mip_level(dev, tex, pipeline, level, layer);
            if (r) return r;
        }
    return HL_OK;
}

void hl__wgpu_mipmap_release(hl_rhi_device *dev) {
    hl__wgpu_device *be = hl__wgpu_be(dev);
    for (uint32_t i = 0; i < HL_RHI_FORMAT_COUNT; i++)
        if (be->mip_pipeline[i]) {
            WGPU(dev, RenderPipelineRelease)(be->mip_pipeline[i]);
            be->mip_pipeline[i] = NULL;
        }
    if (be->mip_sampler) WGPU(dev, SamplerRelease)(be->mip_sampler);
    if (be->mip_layout) WGPU(dev, PipelineLayoutRelease)(be->mip_layout);
    if (be->mip_bgl) WGPU(dev, BindGroupLayoutRelease)(be->mip_bgl);
    if (be->mip_fs) WGPU(dev, ShaderModuleRelease)(be->mip_fs);
    if (be->mip_vs) WGPU(dev, ShaderModuleRelease)(be->mip_vs);
    be->mip_sampler = NULL;
    be->mip_layout = NULL;
    be->mip_bgl = NULL;
    be->mip_fs = NULL;
    be->mip_vs = NULL;
}
