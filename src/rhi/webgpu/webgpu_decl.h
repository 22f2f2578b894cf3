/* hilo3d webgpu backend: our own declarations of the webgpu.h subset the backend calls.
 *
 * Dawn ships no header here (npm bun-webgpu-linux-x64 0.1.7, libwebgpu_wrapper.so). Its enum
 * numbering predates the 2026 renumbering (RGBA8Unorm = 0x12, SType SPIR-V = 1, WGSL = 2);
 * its struct layouts are the current ones (StringView labels, callback-info structs,
 * bindingArraySize in WGPUBindGroupLayoutEntry, 64-bit flags). The values below were checked
 * against that build (pixel and readback tests). Structs Dawn writes into (limits, adapter
 * info) carry trailing reserve space so a newer member list cannot overrun them.
 *
 * Only src/rhi/webgpu includes this file.
 */
#ifndef HL_WEBGPU_DECL_H
#define HL_WEBGPU_DECL_H

#include <stddef.h>
#include <stdint.h>

typedef uint32_t WGPUBool;
typedef uint64_t WGPUFlags;

#define WGPU_STRLEN SIZE_MAX
#define WGPU_WHOLE_SIZE UINT64_MAX
#define WGPU_DEPTH_SLICE_UNDEFINED UINT32_MAX
#define WGPU_COPY_STRIDE_UNDEFINED UINT32_MAX

/* ---- opaque objects ------------------------------------------------------------------------ */
typedef struct WGPUInstanceImpl *WGPUInstance;
typedef struct WGPUAdapterImpl *WGPUAdapter;
typedef struct WGPUDeviceImpl *WGPUDevice;
typedef struct WGPUQueueImpl *WGPUQueue;
typedef struct WGPUBufferImpl *WGPUBuffer;
typedef struct WGPUTextureImpl *WGPUTexture;
typedef struct WGPUTextureViewImpl *WGPUTextureView;
typedef struct WGPUSamplerImpl *WGPUSampler;
typedef struct WGPUBindGroupLayoutImpl *WGPUBindGroupLayout;
typedef struct WGPUBindGroupImpl *WGPUBindGroup;
typedef struct WGPUPipelineLayoutImpl *WGPUPipelineLayout;
typedef struct WGPURenderPipelineImpl *WGPURenderPipeline;
typedef struct WGPUComputePipelineImpl *WGPUComputePipeline;
typedef struct WGPUShaderModuleImpl *WGPUShaderModule;
typedef struct WGPUCommandEncoderImpl *WGPUCommandEncoder;
typedef struct WGPUCommandBufferImpl *WGPUCommandBuffer;
typedef struct WGPURenderPassEncoderImpl *WGPURenderPassEncoder;
typedef struct WGPUComputePassEncoderImpl *WGPUComputePassEncoder;
typedef struct WGPUQuerySetImpl *WGPUQuerySet;
typedef struct WGPUSurfaceImpl *WGPUSurface;
typedef struct WGPURenderBundleImpl *WGPURenderBundle;
typedef struct WGPURenderBundleEncoderImpl *WGPURenderBundleEncoder;

/* ---- enums (this build's numbering) -------------------------------------------------------- */
enum {
    WGPUSType_ShaderSourceSPIRV = 0x1,
    WGPUSType_ShaderSourceWGSL = 0x2,
    WGPUSType_SurfaceSourceXlibWindow = 0x6,     /* (bun-webgpu 0.1.7's structs_def.ts) */
    WGPUSType_SurfaceSourceWaylandSurface = 0x7,
};
/* Surfaces. Seen on this build with lavapipe on Xvfb: formats 0x18 (BGRA8UnormSrgb, its
 * clear values came back sRGB-encoded) and 0x17 (BGRA8Unorm), present modes 3, 4, 1, 2, alpha
 * modes 1 and 4, status 1 for every current texture. The other statuses follow the 2025
 * webgpu.h (not observed). */
enum {
    WGPUPresentMode_Undefined = 0, WGPUPresentMode_Fifo = 1, WGPUPresentMode_FifoRelaxed = 2,
    WGPUPresentMode_Immediate = 3, WGPUPresentMode_Mailbox = 4,
};
enum { WGPUCompositeAlphaMode_Auto = 0, WGPUCompositeAlphaMode_Opaque = 1 };
enum {
    WGPUSurfaceGetCurrentTextureStatus_SuccessOptimal = 1, WGPUSurfaceGetCurrentTextureStatus_SuccessSuboptimal = 2,
    WGPUSurfaceGetCurrentTextureStatus_Timeout = 3, WGPUSurfaceGetCurrentTextureStatus_Outdated = 4,
    WGPUSurfaceGetCurrentTextureStatus_Lost = 5, WGPUSurfaceGetCurrentTextureStatus_Error = 6,
};
enum { WGPUCallbackMode_AllowProcessEvents = 0x2 };
enum { WGPUStatus_Success = 0x1 };
/* Success = 1 for RequestAdapter/RequestDevice/MapAsync/QueueWorkDone/CompilationInfoRequest
 * statuses alike. */
enum { WGPU_CALLBACK_STATUS_SUCCESS = 0x1 };
enum { WGPUFeatureLevel_Core = 0x2 };
enum { WGPUPowerPreference_Undefined = 0, WGPUPowerPreference_LowPower = 1, WGPUPowerPreference_HighPerformance = 2 };
enum {
    WGPUBackendType_Undefined = 0, WGPUBackendType_Null = 1, WGPUBackendType_WebGPU = 2, WGPUBackendType_D3D11 = 3,
    WGPUBackendType_D3D12 = 4, WGPUBackendType_Metal = 5, WGPUBackendType_Vulkan = 6, WGPUBackendType_OpenGL = 7,
    WGPUBackendType_OpenGLES = 8,
};
enum { WGPUAdapterType_DiscreteGPU = 1, WGPUAdapterType_IntegratedGPU = 2, WGPUAdapterType_CPU = 3 };
enum {
    WGPUErrorType_NoError = 1, WGPUErrorType_Validation = 2, WGPUErrorType_OutOfMemory = 3,
    WGPUErrorType_Internal = 4, WGPUErrorType_Unknown = 5,
};
enum { WGPUDeviceLostReason_Unknown = 1, WGPUDeviceLostReason_Destroyed = 2,
       WGPUDeviceLostReason_CallbackCancelled = 3, WGPUDeviceLostReason_FailedCreation = 4 };
enum { WGPUCompilationMessageType_Error = 1, WGPUCompilationMessageType_Warning = 2 };
enum { WGPUFeatureName_TimestampQuery = 0x3, WGPUFeatureName_IndirectFirstInstance = 0x9, WGPUFeatureName_Float32Filterable = 0xD };

enum {
    WGPUTextureFormat_Undefined = 0x00,
    WGPUTextureFormat_R8Unorm = 0x01,
    WGPUTextureFormat_R16Float = 0x07,
    WGPUTextureFormat_RG8Unorm = 0x08,
    WGPUTextureFormat_R32Float = 0x0C,
    WGPUTextureFormat_R32Uint = 0x0D,
    WGPUTextureFormat_RG16Float = 0x11,
    WGPUTextureFormat_RGBA8Unorm = 0x12,
    WGPUTextureFormat_RGBA8UnormSrgb = 0x13,
    WGPUTextureFormat_RGBA8Uint = 0x15,
    WGPUTextureFormat_BGRA8Unorm = 0x17,
    WGPUTextureFormat_RGB10A2Unorm = 0x1A,
    WGPUTextureFormat_RG32Float = 0x1D,
    WGPUTextureFormat_RGBA16Float = 0x22,
    WGPUTextureFormat_RGBA32Float = 0x23,
    WGPUTextureFormat_Depth16Unorm = 0x27,
    WGPUTextureFormat_Depth24Plus = 0x28,
    WGPUTextureFormat_Depth24PlusStencil8 = 0x29,
    WGPUTextureFormat_Depth32Float = 0x2A,
};

enum { WGPUTextureDimension_1D = 1, WGPUTextureDimension_2D = 2, WGPUTextureDimension_3D = 3 };
enum {
    WGPUTextureViewDimension_1D = 1, WGPUTextureViewDimension_2D = 2, WGPUTextureViewDimension_2DArray = 3,
    WGPUTextureViewDimension_Cube = 4, WGPUTextureViewDimension_CubeArray = 5, WGPUTextureViewDimension_3D = 6,
};
enum { WGPUTextureAspect_All = 1, WGPUTextureAspect_StencilOnly = 2, WGPUTextureAspect_DepthOnly = 3 };
enum { WGPUAddressMode_ClampToEdge = 1, WGPUAddressMode_Repeat = 2, WGPUAddressMode_MirrorRepeat = 3 };
enum { WGPUFilterMode_Nearest = 1, WGPUFilterMode_Linear = 2 }; /* also WGPUMipmapFilterMode */
enum {
    WGPUCompareFunction_Undefined = 0, WGPUCompareFunction_Never = 1, WGPUCompareFunction_Less = 2,
    WGPUCompareFunction_Equal = 3, WGPUCompareFunction_LessEqual = 4, WGPUCompareFunction_Greater = 5,
    WGPUCompareFunction_NotEqual = 6, WGPUCompareFunction_GreaterEqual = 7, WGPUCompareFunction_Always = 8,
};
enum { WGPUBufferBindingType_Uniform = 2, WGPUBufferBindingType_Storage = 3, WGPUBufferBindingType_ReadOnlyStorage = 4 };
enum { WGPUSamplerBindingType_Filtering = 2, WGPUSamplerBindingType_NonFiltering = 3, WGPUSamplerBindingType_Comparison = 4 };
enum {
    WGPUTextureSampleType_Float = 2, WGPUTextureSampleType_UnfilterableFloat = 3, WGPUTextureSampleType_Depth = 4,
    WGPUTextureSampleType_Sint = 5, WGPUTextureSampleType_Uint = 6,
};
enum { WGPUStorageTextureAccess_WriteOnly = 2 };
enum { WGPUVertexStepMode_Vertex = 1, WGPUVertexStepMode_Instance = 2 };
enum {
    WGPUPrimitiveTopology_PointList = 1, WGPUPrimitiveTopology_LineList = 2, WGPUPrimitiveTopology_LineStrip = 3,
    WGPUPrimitiveTopology_TriangleList = 4, WGPUPrimitiveTopology_TriangleStrip = 5,
};
enum { WGPUIndexFormat_Undefined = 0, WGPUIndexFormat_Uint16 = 1, WGPUIndexFormat_Uint32 = 2 };
enum { WGPUFrontFace_CCW = 1, WGPUFrontFace_CW = 2 };
enum { WGPUCullMode_None = 1, WGPUCullMode_Front = 2, WGPUCullMode_Back = 3 };
enum {
    WGPUStencilOperation_Keep = 1, WGPUStencilOperation_Zero = 2, WGPUStencilOperation_Replace = 3,
    WGPUStencilOperation_Invert = 4, WGPUStencilOperation_IncrementClamp = 5, WGPUStencilOperation_DecrementClamp = 6,
    WGPUStencilOperation_IncrementWrap = 7, WGPUStencilOperation_DecrementWrap = 8,
};
enum {
    WGPUBlendOperation_Add = 1, WGPUBlendOperation_Subtract = 2, WGPUBlendOperation_ReverseSubtract = 3,
    WGPUBlendOperation_Min = 4, WGPUBlendOperation_Max = 5,
};
enum {
    WGPUBlendFactor_Zero = 1, WGPUBlendFactor_One = 2, WGPUBlendFactor_Src = 3, WGPUBlendFactor_OneMinusSrc = 4,
    WGPUBlendFactor_SrcAlpha = 5, WGPUBlendFactor_OneMinusSrcAlpha = 6, WGPUBlendFactor_Dst = 7,
    WGPUBlendFactor_OneMinusDst = 8, WGPUBlendFactor_DstAlpha = 9, WGPUBlendFactor_OneMinusDstAlpha = 10,
    WGPUBlendFactor_Constant = 12, WGPUBlendFactor_OneMinusConstant = 13,
};
enum {
    WGPUVertexFormat_Uint8x4 = 0x03, WGPUVertexFormat_Unorm8x4 = 0x09, WGPUVertexFormat_Snorm8x4 = 0x0C,
    WGPUVertexFormat_Uint16x4 = 0x0F, WGPUVertexFormat_Unorm16x2 = 0x14, WGPUVertexFormat_Unorm16x4 = 0x15,
    WGPUVertexFormat_Snorm16x2 = 0x17, WGPUVertexFormat_Snorm16x4 = 0x18, WGPUVertexFormat_Float32 = 0x1C,
    WGPUVertexFormat_Float32x2 = 0x1D, WGPUVertexFormat_Float32x3 = 0x1E, WGPUVertexFormat_Float32x4 = 0x1F,
    WGPUVertexFormat_Uint32 = 0x20,
};
enum { WGPULoadOp_Undefined = 0, WGPULoadOp_Load = 1, WGPULoadOp_Clear = 2 };
enum { WGPUStoreOp_Undefined = 0, WGPUStoreOp_Store = 1, WGPUStoreOp_Discard = 2 };
enum { WGPUOptionalBool_False = 0, WGPUOptionalBool_True = 1, WGPUOptionalBool_Undefined = 2 };

/* flags (64-bit) */
enum {
    WGPUBufferUsage_MapRead = 0x1, WGPUBufferUsage_MapWrite = 0x2, WGPUBufferUsage_CopySrc = 0x4,
    WGPUBufferUsage_CopyDst = 0x8, WGPUBufferUsage_Index = 0x10, WGPUBufferUsage_Vertex = 0x20,
    WGPUBufferUsage_Uniform = 0x40, WGPUBufferUsage_Storage = 0x80, WGPUBufferUsage_Indirect = 0x100,
    WGPUBufferUsage_QueryResolve = 0x200,
};
enum {
    WGPUTextureUsage_CopySrc = 0x1, WGPUTextureUsage_CopyDst = 0x2, WGPUTextureUsage_TextureBinding = 0x4,
    WGPUTextureUsage_StorageBinding = 0x8, WGPUTextureUsage_RenderAttachment = 0x10,
};
enum { WGPUShaderStage_Vertex = 0x1, WGPUShaderStage_Fragment = 0x2, WGPUShaderStage_Compute = 0x4 };
enum { WGPUColorWriteMask_All = 0xF };
enum { WGPUMapMode_Read = 0x1, WGPUMapMode_Write = 0x2 };

/* ---- structs ------------------------------------------------------------------------------- */
typedef struct WGPUStringView {
    const char *data;
    size_t length;
} WGPUStringView;

typedef struct WGPUChainedStruct {
    const struct WGPUChainedStruct *next;
    uint32_t sType;
} WGPUChainedStruct;

typedef struct WGPUFuture { uint64_t id; } WGPUFuture;

typedef void (*WGPURequestAdapterCallback)(uint32_t status, WGPUAdapter adapter, WGPUStringView message,
                                           void *userdata1, void *userdata2);
typedef void (*WGPURequestDeviceCallback)(uint32_t status, WGPUDevice device, WGPUStringView message,
                                          void *userdata1, void *userdata2);
typedef void (*WGPUDeviceLostCallback)(const WGPUDevice *device, uint32_t reason, WGPUStringView message,
                                       void *userdata1, void *userdata2);
typedef void (*WGPUUncapturedErrorCallback)(const WGPUDevice *device, uint32_t type, WGPUStringView message,
                                            void *userdata1, void *userdata2);
typedef void (*WGPUBufferMapCallback)(uint32_t status, WGPUStringView message, void *userdata1, void *userdata2);
/* This build passes a message to the work-done callback (checked: userdata arrives after it). */
typedef void (*WGPUQueueWorkDoneCallback)(uint32_t status, WGPUStringView message, void *userdata1,
                                          void *userdata2);
struct WGPUCompilationInfo;
typedef void (*WGPUCompilationInfoCallback)(uint32_t status, const struct WGPUCompilationInfo *info,
                                            void *userdata1, void *userdata2);

/* Every *CallbackInfo with a mode has this layout; only the callback type differs. */
typedef struct WGPUCallbackInfo {
    const WGPUChainedStruct *nextInChain;
    uint32_t mode;
    void (*callback)(void);
    void *userdata1;
    void *userdata2;
} WGPUCallbackInfo;

typedef struct WGPUUncapturedErrorCallbackInfo {
    const WGPUChainedStruct *nextInChain;
    WGPUUncapturedErrorCallback callback;
    void *userdata1;
    void *userdata2;
} WGPUUncapturedErrorCallbackInfo;

typedef struct WGPURequestAdapterOptions {
    const WGPUChainedStruct *nextInChain;
    uint32_t featureLevel;
    uint32_t powerPreference;
    WGPUBool forceFallbackAdapter;
    uint32_t backendType;
    void *compatibleSurface;
} WGPURequestAdapterOptions;

typedef struct WGPUAdapterInfo {
    const WGPUChainedStruct *nextInChain;
    WGPUStringView vendor;
    WGPUStringView architecture;
    WGPUStringView device;
    WGPUStringView description;
    uint32_t backendType;
    uint32_t adapterType;
    uint32_t vendorID;
    uint32_t deviceID;
    uint32_t subgroupMinSize;
    uint32_t subgroupMaxSize;
    uint64_t reserved_[8];
} WGPUAdapterInfo;

typedef struct WGPULimits {
    const WGPUChainedStruct *nextInChain;
    uint32_t maxTextureDimension1D;
    uint32_t maxTextureDimension2D;
    uint32_t maxTextureDimension3D;
    uint32_t maxTextureArrayLayers;
    uint32_t maxBindGroups;
    uint32_t maxBindGroupsPlusVertexBuffers;
    uint32_t maxBindingsPerBindGroup;
    uint32_t maxDynamicUniformBuffersPerPipelineLayout;
    uint32_t maxDynamicStorageBuffersPerPipelineLayout;
    uint32_t maxSampledTexturesPerShaderStage;
    uint32_t maxSamplersPerShaderStage;
    uint32_t maxStorageBuffersPerShaderStage;
    uint32_t maxStorageTexturesPerShaderStage;
    uint32_t maxUniformBuffersPerShaderStage;
    uint64_t maxUniformBufferBindingSize;
    uint64_t maxStorageBufferBindingSize;
    uint32_t minUniformBufferOffsetAlignment;
    uint32_t minStorageBufferOffsetAlignment;
    uint32_t maxVertexBuffers;
    uint64_t maxBufferSize;
    uint32_t maxVertexAttributes;
    uint32_t maxVertexBufferArrayStride;
    uint32_t maxInterStageShaderVariables;
    uint32_t maxColorAttachments;
    uint32_t maxColorAttachmentBytesPerSample;
    uint32_t maxComputeWorkgroupStorageSize;
    uint32_t maxComputeInvocationsPerWorkgroup;
    uint32_t maxComputeWorkgroupSizeX;
    uint32_t maxComputeWorkgroupSizeY;
    uint32_t maxComputeWorkgroupSizeZ;
    uint32_t maxComputeWorkgroupsPerDimension;
    uint32_t maxImmediateSize;
    uint32_t maxStorageBuffersInVertexStage;
    uint32_t maxStorageTexturesInVertexStage;
    uint32_t maxStorageBuffersInFragmentStage;
    uint32_t maxStorageTexturesInFragmentStage;
    uint32_t reserved_[16];
} WGPULimits;

typedef struct WGPUQueueDescriptor {
    const WGPUChainedStruct *nextInChain;
    WGPUStringView label;
} WGPUQueueDescriptor;

typedef struct WGPUDeviceDescriptor {
    const WGPUChainedStruct *nextInChain;
    WGPUStringView label;
    size_t requiredFeatureCount;
    const uint32_t *requiredFeatures;
    const WGPULimits *requiredLimits;
    WGPUQueueDescriptor defaultQueue;
    WGPUCallbackInfo deviceLostCallbackInfo;
    WGPUUncapturedErrorCallbackInfo uncapturedErrorCallbackInfo;
} WGPUDeviceDescriptor;

typedef struct WGPUBufferDescriptor {
    const WGPUChainedStruct *nextInChain;
    WGPUStringView label;
    WGPUFlags usage;
    uint64_t size;
    WGPUBool mappedAtCreation;
} WGPUBufferDescriptor;

typedef struct WGPUExtent3D {
    uint32_t width, height, depthOrArrayLayers;
} WGPUExtent3D;

typedef struct WGPUOrigin3D {
    uint32_t x, y, z;
} WGPUOrigin3D;

typedef struct WGPUTextureDescriptor {
    const WGPUChainedStruct *nextInChain;
    WGPUStringView label;
    WGPUFlags usage;
    uint32_t dimension;
    WGPUExtent3D size;
    uint32_t format;
    uint32_t mipLevelCount;
    uint32_t sampleCount;
    size_t viewFormatCount;
    const uint32_t *viewFormats;
} WGPUTextureDescriptor;

typedef struct WGPUTextureViewDescriptor {
    const WGPUChainedStruct *nextInChain;
    WGPUStringView label;
    uint32_t format;
    uint32_t dimension;
    uint32_t baseMipLevel;
    uint32_t mipLevelCount;
    uint32_t baseArrayLayer;
    uint32_t arrayLayerCount;
    uint32_t aspect;
    WGPUFlags usage;
} WGPUTextureViewDescriptor;

typedef struct WGPUSamplerDescriptor {
    const WGPUChainedStruct *nextInChain;
    WGPUStringView label;
    uint32_t addressModeU, addressModeV, addressModeW;
    uint32_t magFilter, minFilter, mipmapFilter;
    float lodMinClamp, lodMaxClamp;
    uint32_t compare;
    uint16_t maxAnisotropy;
} WGPUSamplerDescriptor;

typedef struct WGPUBufferBindingLayout {
    const WGPUChainedStruct *nextInChain;
    uint32_t type;
    WGPUBool hasDynamicOffset;
    uint64_t minBindingSize;
} WGPUBufferBindingLayout;

typedef struct WGPUSamplerBindingLayout {
    const WGPUChainedStruct *nextInChain;
    uint32_t type;
} WGPUSamplerBindingLayout;

typedef struct WGPUTextureBindingLayout {
    const WGPUChainedStruct *nextInChain;
    uint32_t sampleType;
    uint32_t viewDimension;
    WGPUBool multisampled;
} WGPUTextureBindingLayout;

typedef struct WGPUStorageTextureBindingLayout {
    const WGPUChainedStruct *nextInChain;
    uint32_t access;
    uint32_t format;
    uint32_t viewDimension;
} WGPUStorageTextureBindingLayout;

typedef struct WGPUBindGroupLayoutEntry {
    const WGPUChainedStruct *nextInChain;
    uint32_t binding;
    WGPUFlags visibility;
    uint32_t bindingArraySize;
    WGPUBufferBindingLayout buffer;
    WGPUSamplerBindingLayout sampler;
    WGPUTextureBindingLayout texture;
    WGPUStorageTextureBindingLayout storageTexture;
} WGPUBindGroupLayoutEntry;

typedef struct WGPUBindGroupLayoutDescriptor {
    const WGPUChainedStruct *nextInChain;
    WGPUStringView label;
    size_t entryCount;
    const WGPUBindGroupLayoutEntry *entries;
} WGPUBindGroupLayoutDescriptor;

typedef struct WGPUBindGroupEntry {
    const WGPUChainedStruct *nextInChain;
    uint32_t binding;
    WGPUBuffer buffer;
    uint64_t offset;
    uint64_t size;
    WGPUSampler sampler;
    WGPUTextureView textureView;
} WGPUBindGroupEntry;

typedef struct WGPUBindGroupDescriptor {
    const WGPUChainedStruct *nextInChain;
    WGPUStringView label;
    WGPUBindGroupLayout layout;
    size_t entryCount;
    const WGPUBindGroupEntry *entries;
} WGPUBindGroupDescriptor;

typedef struct WGPUPipelineLayoutDescriptor {
    const WGPUChainedStruct *nextInChain;
    WGPUStringView label;
    size_t bindGroupLayoutCount;
    const WGPUBindGroupLayout *bindGroupLayouts;
    uint32_t immediateSize;
} WGPUPipelineLayoutDescriptor;

typedef struct WGPUShaderModuleDescriptor {
    const WGPUChainedStruct *nextInChain;
    WGPUStringView label;
} WGPUShaderModuleDescriptor;

typedef struct WGPUShaderSourceSPIRV {
    WGPUChainedStruct chain;
    uint32_t codeSize; /* in words */
    const uint32_t *code;
} WGPUShaderSourceSPIRV;

typedef struct WGPUShaderSourceWGSL {
    WGPUChainedStruct chain;
    WGPUStringView code;
} WGPUShaderSourceWGSL;

typedef struct WGPUCompilationMessage {
    const WGPUChainedStruct *nextInChain;
    WGPUStringView message;
    uint32_t type;
    uint64_t lineNum;
    uint64_t linePos;
    uint64_t offset;
    uint64_t length;
} WGPUCompilationMessage;

typedef struct WGPUCompilationInfo {
    const WGPUChainedStruct *nextInChain;
    size_t messageCount;
    const WGPUCompilationMessage *messages;
} WGPUCompilationInfo;

typedef struct WGPUConstantEntry {
    const WGPUChainedStruct *nextInChain;
    WGPUStringView key;
    double value;
} WGPUConstantEntry;

typedef struct WGPUVertexAttribute {
    const WGPUChainedStruct *nextInChain;
    uint32_t format;
    uint64_t offset;
    uint32_t shaderLocation;
} WGPUVertexAttribute;

typedef struct WGPUVertexBufferLayout {
    const WGPUChainedStruct *nextInChain;
    uint32_t stepMode;
    uint64_t arrayStride;
    size_t attributeCount;
    const WGPUVertexAttribute *attributes;
} WGPUVertexBufferLayout;

typedef struct WGPUVertexState {
    const WGPUChainedStruct *nextInChain;
    WGPUShaderModule module;
    WGPUStringView entryPoint;
    size_t constantCount;
    const WGPUConstantEntry *constants;
    size_t bufferCount;
    const WGPUVertexBufferLayout *buffers;
} WGPUVertexState;

typedef struct WGPUPrimitiveState {
    const WGPUChainedStruct *nextInChain;
    uint32_t topology;
    uint32_t stripIndexFormat;
    uint32_t frontFace;
    uint32_t cullMode;
    WGPUBool unclippedDepth;
} WGPUPrimitiveState;

typedef struct WGPUStencilFaceState {
    uint32_t compare, failOp, depthFailOp, passOp;
} WGPUStencilFaceState;

typedef struct WGPUDepthStencilState {
    const WGPUChainedStruct *nextInChain;
    uint32_t format;
    uint32_t depthWriteEnabled; /* WGPUOptionalBool */
    uint32_t depthCompare;
    WGPUStencilFaceState stencilFront;
    WGPUStencilFaceState stencilBack;
    uint32_t stencilReadMask;
    uint32_t stencilWriteMask;
    int32_t depthBias;
    float depthBiasSlopeScale;
    float depthBiasClamp;
} WGPUDepthStencilState;

typedef struct WGPUMultisampleState {
    const WGPUChainedStruct *nextInChain;
    uint32_t count;
    uint32_t mask;
    WGPUBool alphaToCoverageEnabled;
} WGPUMultisampleState;

typedef struct WGPUBlendComponent {
    uint32_t operation, srcFactor, dstFactor;
} WGPUBlendComponent;

typedef struct WGPUBlendState {
    WGPUBlendComponent color, alpha;
} WGPUBlendState;

typedef struct WGPUColorTargetState {
    const WGPUChainedStruct *nextInChain;
    uint32_t format;
    const WGPUBlendState *blend;
    WGPUFlags writeMask;
} WGPUColorTargetState;

typedef struct WGPUFragmentState {
    const WGPUChainedStruct *nextInChain;
    WGPUShaderModule module;
    WGPUStringView entryPoint;
    size_t constantCount;
    const WGPUConstantEntry *constants;
    size_t targetCount;
    const WGPUColorTargetState *targets;
} WGPUFragmentState;

typedef struct WGPURenderPipelineDescriptor {
    const WGPUChainedStruct *nextInChain;
    WGPUStringView label;
    WGPUPipelineLayout layout;
    WGPUVertexState vertex;
    WGPUPrimitiveState primitive;
    const WGPUDepthStencilState *depthStencil;
    WGPUMultisampleState multisample;
    const WGPUFragmentState *fragment;
} WGPURenderPipelineDescriptor;

typedef struct WGPUComputeState {
    const WGPUChainedStruct *nextInChain;
    WGPUShaderModule module;
    WGPUStringView entryPoint;
    size_t constantCount;
    const WGPUConstantEntry *constants;
} WGPUComputeState;

typedef struct WGPUComputePipelineDescriptor {
    const WGPUChainedStruct *nextInChain;
    WGPUStringView label;
    WGPUPipelineLayout layout;
    WGPUComputeState compute;
} WGPUComputePipelineDescriptor;

typedef struct WGPUCommandEncoderDescriptor {
    const WGPUChainedStruct *nextInChain;
    WGPUStringView label;
} WGPUCommandEncoderDescriptor;

typedef struct WGPUCommandBufferDescriptor {
    const WGPUChainedStruct *nextInChain;
    WGPUStringView label;
} WGPUCommandBufferDescriptor;

typedef struct WGPUColor {
    double r, g, b, a;
} WGPUColor;

typedef struct WGPURenderPassColorAttachment {
    const WGPUChainedStruct *nextInChain;
    WGPUTextureView view;
    uint32_t depthSlice;
    WGPUTextureView resolveTarget;
    uint32_t loadOp;
    uint32_t storeOp;
    WGPUColor clearValue;
} WGPURenderPassColorAttachment;

typedef struct WGPURenderPassDepthStencilAttachment {
    const WGPUChainedStruct *nextInChain;
    WGPUTextureView view;
    uint32_t depthLoadOp;
    uint32_t depthStoreOp;
    float depthClearValue;
    WGPUBool depthReadOnly;
    uint32_t stencilLoadOp;
    uint32_t stencilStoreOp;
    uint32_t stencilClearValue;
    WGPUBool stencilReadOnly;
} WGPURenderPassDepthStencilAttachment;

typedef struct WGPURenderPassDescriptor {
    const WGPUChainedStruct *nextInChain;
    WGPUStringView label;
    size_t colorAttachmentCount;
    const WGPURenderPassColorAttachment *colorAttachments;
    const WGPURenderPassDepthStencilAttachment *depthStencilAttachment;
    void *occlusionQuerySet;
    const void *timestampWrites;
} WGPURenderPassDescriptor;

/* Render bundles: the encoder's attachment layout (formats are WGPUTextureFormat values). */
typedef struct WGPURenderBundleEncoderDescriptor {
    const WGPUChainedStruct *nextInChain;
    WGPUStringView label;
    size_t colorFormatCount;
    const uint32_t *colorFormats;
    uint32_t depthStencilFormat;
    uint32_t sampleCount;
    WGPUBool depthReadOnly;
    WGPUBool stencilReadOnly;
} WGPURenderBundleEncoderDescriptor;

typedef struct WGPURenderBundleDescriptor {
    const WGPUChainedStruct *nextInChain;
    WGPUStringView label;
} WGPURenderBundleDescriptor;

/* Timestamps (feature TimestampQuery): a query set of `count` timestamps, written by passes. */
enum { WGPUQueryType_Timestamp = 0x2, WGPUSType_DawnTogglesDescriptor = 0x0005000A };
#define WGPU_QUERY_SET_INDEX_UNDEFINED 0xFFFFFFFFu
typedef struct WGPUQuerySetDescriptor {
    const WGPUChainedStruct *nextInChain;
    WGPUStringView label;
    uint32_t type;
    uint32_t count;
} WGPUQuerySetDescriptor;

typedef struct WGPUPassTimestampWrites {
    const WGPUChainedStruct *nextInChain;
    WGPUQuerySet querySet;
    uint32_t beginningOfPassWriteIndex;
    uint32_t endOfPassWriteIndex;
} WGPUPassTimestampWrites;

/* Dawn's toggles, chained to the device descriptor. */
typedef struct DawnTogglesDescriptor {
    WGPUChainedStruct chain;
    size_t enabledToggleCount;
    const char *const *enabledToggles;
    size_t disabledToggleCount;
    const char *const *disabledToggles;
} DawnTogglesDescriptor;

typedef struct WGPUComputePassDescriptor {
    const WGPUChainedStruct *nextInChain;
    WGPUStringView label;
    const void *timestampWrites;
} WGPUComputePassDescriptor;

typedef struct WGPUTexelCopyBufferLayout {
    uint64_t offset;
    uint32_t bytesPerRow;
    uint32_t rowsPerImage;
} WGPUTexelCopyBufferLayout;

typedef struct WGPUTexelCopyBufferInfo {
    WGPUTexelCopyBufferLayout layout;
    WGPUBuffer buffer;
} WGPUTexelCopyBufferInfo;

typedef struct WGPUTexelCopyTextureInfo {
    WGPUTexture texture;
    uint32_t mipLevel;
    WGPUOrigin3D origin;
    uint32_t aspect;
} WGPUTexelCopyTextureInfo;

typedef struct WGPUSurfaceSourceXlibWindow {
    WGPUChainedStruct chain;
    void *display;
    uint64_t window;
} WGPUSurfaceSourceXlibWindow;

typedef struct WGPUSurfaceSourceWaylandSurface {
    WGPUChainedStruct chain;
    void *display;
    void *surface;
} WGPUSurfaceSourceWaylandSurface;

typedef struct WGPUSurfaceDescriptor {
    const WGPUChainedStruct *nextInChain;
    WGPUStringView label;
} WGPUSurfaceDescriptor;

/* Dawn fills it (FreeMembers releases the arrays). */
typedef struct WGPUSurfaceCapabilities {
    const WGPUChainedStruct *nextInChain;
    WGPUFlags usages;
    size_t formatCount;
    const uint32_t *formats;
    size_t presentModeCount;
    const uint32_t *presentModes;
    size_t alphaModeCount;
    const uint32_t *alphaModes;
} WGPUSurfaceCapabilities;

/* The 2025 order: width and height after usage (this build renders at the configured size). */
typedef struct WGPUSurfaceConfiguration {
    const WGPUChainedStruct *nextInChain;
    WGPUDevice device;
    uint32_t format;
    WGPUFlags usage;
    uint32_t width;
    uint32_t height;
    size_t viewFormatCount;
    const uint32_t *viewFormats;
    uint32_t alphaMode;
    uint32_t presentMode;
} WGPUSurfaceConfiguration;

typedef struct WGPUSurfaceTexture {
    const WGPUChainedStruct *nextInChain;
    WGPUTexture texture;
    uint32_t status;
} WGPUSurfaceTexture;

/* Layouts of this build (x86-64), as described by bun-webgpu 0.1.7's FFI definitions: they hold
 * for 64-bit pointers only (the browser build, wasm32, has no webgpu backend). */
#if UINTPTR_MAX == UINT64_MAX
_Static_assert(offsetof(WGPUBindGroupLayoutEntry, bindingArraySize) == 24, "WGPUBindGroupLayoutEntry layout");
_Static_assert(sizeof(WGPUBindGroupLayoutEntry) == 120, "WGPUBindGroupLayoutEntry size");
_Static_assert(sizeof(WGPURenderPassColorAttachment) == 72, "WGPURenderPassColorAttachment size");
_Static_assert(offsetof(WGPUDeviceDescriptor, uncapturedErrorCallbackInfo) == 112, "WGPUDeviceDescriptor layout");
_Static_assert(offsetof(WGPUSurfaceConfiguration, width) == 32 && sizeof(WGPUSurfaceConfiguration) == 64,
               "WGPUSurfaceConfiguration layout");
_Static_assert(offsetof(WGPUSurfaceTexture, status) == 16, "WGPUSurfaceTexture layout");
_Static_assert(offsetof(WGPURenderBundleEncoderDescriptor, colorFormats) == 32 &&
                   offsetof(WGPURenderBundleEncoderDescriptor, sampleCount) == 44 &&
                   sizeof(WGPURenderBundleEncoderDescriptor) == 56,
               "WGPURenderBundleEncoderDescriptor layout");
#endif

/* ---- functions: X(return type, name without the "wgpu" prefix, parameter list) ------------ */
#define HL__WGPU_PROCS(X)                                                                                   \
    X(WGPUInstance, CreateInstance, (const void *descriptor))                                               \
    X(void, InstanceRelease, (WGPUInstance instance))                                                       \
    X(void, InstanceProcessEvents, (WGPUInstance instance))                                                 \
    X(WGPUFuture, InstanceRequestAdapter,                                                                   \
      (WGPUInstance instance, const WGPURequestAdapterOptions *options, WGPUCallbackInfo callbackInfo))      \
    X(void, AdapterRelease, (WGPUAdapter adapter))                                                          \
    X(uint32_t, AdapterGetInfo, (WGPUAdapter adapter, WGPUAdapterInfo *info))                               \
    X(void, AdapterInfoFreeMembers, (WGPUAdapterInfo info))                                                 \
    X(WGPUBool, AdapterHasFeature, (WGPUAdapter adapter, uint32_t feature))                                 \
    X(WGPUFuture, AdapterRequestDevice,                                                                     \
      (WGPUAdapter adapter, const WGPUDeviceDescriptor *descriptor, WGPUCallbackInfo callbackInfo))         \
    X(void, DeviceRelease, (WGPUDevice device))                                                             \
    X(void, DeviceDestroy, (WGPUDevice device))                                                             \
    X(uint32_t, DeviceGetLimits, (WGPUDevice device, WGPULimits *limits))                                   \
    X(WGPUQueue, DeviceGetQueue, (WGPUDevice device))                                                       \
    X(WGPUBuffer, DeviceCreateBuffer, (WGPUDevice device, const WGPUBufferDescriptor *descriptor))          \
    X(WGPUTexture, DeviceCreateTexture, (WGPUDevice device, const WGPUTextureDescriptor *descriptor))       \
    X(WGPUSampler, DeviceCreateSampler, (WGPUDevice device, const WGPUSamplerDescriptor *descriptor))       \
    X(WGPUBindGroupLayout, DeviceCreateBindGroupLayout,                                                     \
      (WGPUDevice device, const WGPUBindGroupLayoutDescriptor *descriptor))                                 \
    X(WGPUBindGroup, DeviceCreateBindGroup, (WGPUDevice device, const WGPUBindGroupDescriptor *descriptor)) \
    X(WGPUPipelineLayout, DeviceCreatePipelineLayout,                                                       \
      (WGPUDevice device, const WGPUPipelineLayoutDescriptor *descriptor))                                  \
    X(WGPUShaderModule, DeviceCreateShaderModule,                                                           \
      (WGPUDevice device, const WGPUShaderModuleDescriptor *descriptor))                                    \
    X(WGPURenderPipeline, DeviceCreateRenderPipeline,                                                       \
      (WGPUDevice device, const WGPURenderPipelineDescriptor *descriptor))                                  \
    X(WGPUComputePipeline, DeviceCreateComputePipeline,                                                     \
      (WGPUDevice device, const WGPUComputePipelineDescriptor *descriptor))                                 \
    X(WGPUCommandEncoder, DeviceCreateCommandEncoder,                                                       \
      (WGPUDevice device, const WGPUCommandEncoderDescriptor *descriptor))                                  \
    X(void, QueueRelease, (WGPUQueue queue))                                                                \
    X(void, QueueSubmit, (WGPUQueue queue, size_t commandCount, const WGPUCommandBuffer *commands))         \
    X(void, QueueWriteBuffer, (WGPUQueue queue, WGPUBuffer buffer, uint64_t offset, const void *data,       \
                               size_t size))                                                                \
    X(void, QueueWriteTexture, (WGPUQueue queue, const WGPUTexelCopyTextureInfo *destination,               \
                                const void *data, size_t dataSize, const WGPUTexelCopyBufferLayout *layout, \
                                const WGPUExtent3D *writeSize))                                             \
    X(WGPUFuture, QueueOnSubmittedWorkDone, (WGPUQueue queue, WGPUCallbackInfo callbackInfo))               \
    X(void, BufferRelease, (WGPUBuffer buffer))                                                             \
    X(void, BufferDestroy, (WGPUBuffer buffer))                                                             \
    X(WGPUFuture, BufferMapAsync, (WGPUBuffer buffer, WGPUFlags mode, size_t offset, size_t size,           \
                                   WGPUCallbackInfo callbackInfo))                                          \
    X(const void *, BufferGetConstMappedRange, (WGPUBuffer buffer, size_t offset, size_t size))             \
    X(void *, BufferGetMappedRange, (WGPUBuffer buffer, size_t offset, size_t size))                        \
    X(void, BufferUnmap, (WGPUBuffer buffer))                                                               \
    X(void, TextureRelease, (WGPUTexture texture))                                                          \
    X(void, TextureDestroy, (WGPUTexture texture))                                                          \
    X(WGPUTextureView, TextureCreateView, (WGPUTexture texture, const WGPUTextureViewDescriptor *descriptor)) \
    X(void, TextureViewRelease, (WGPUTextureView view))                                                     \
    X(void, SamplerRelease, (WGPUSampler sampler))                                                          \
    X(void, BindGroupLayoutRelease, (WGPUBindGroupLayout layout))                                           \
    X(void, BindGroupRelease, (WGPUBindGroup group))                                                        \
    X(void, PipelineLayoutRelease, (WGPUPipelineLayout layout))                                             \
    X(void, ShaderModuleRelease, (WGPUShaderModule module))                                                 \
    X(WGPUFuture, ShaderModuleGetCompilationInfo, (WGPUShaderModule module, WGPUCallbackInfo callbackInfo)) \
    X(void, RenderPipelineRelease, (WGPURenderPipeline pipeline))                                           \
    X(void, ComputePipelineRelease, (WGPUComputePipeline pipeline))                                         \
    X(void, CommandEncoderRelease, (WGPUCommandEncoder encoder))                                            \
    X(WGPUCommandBuffer, CommandEncoderFinish,                                                              \
      (WGPUCommandEncoder encoder, const WGPUCommandBufferDescriptor *descriptor))                          \
    X(WGPURenderPassEncoder, CommandEncoderBeginRenderPass,                                                 \
      (WGPUCommandEncoder encoder, const WGPURenderPassDescriptor *descriptor))                             \
    X(WGPUComputePassEncoder, CommandEncoderBeginComputePass,                                               \
      (WGPUCommandEncoder encoder, const WGPUComputePassDescriptor *descriptor))                            \
    X(void, CommandEncoderCopyBufferToBuffer, (WGPUCommandEncoder encoder, WGPUBuffer source,               \
                                               uint64_t sourceOffset, WGPUBuffer destination,               \
                                               uint64_t destinationOffset, uint64_t size))                  \
    X(void, CommandEncoderCopyBufferToTexture, (WGPUCommandEncoder encoder, const WGPUTexelCopyBufferInfo *source, \
                                                const WGPUTexelCopyTextureInfo *destination,                \
                                                const WGPUExtent3D *copySize))                              \
    X(void, CommandEncoderCopyTextureToBuffer, (WGPUCommandEncoder encoder, const WGPUTexelCopyTextureInfo *source, \
                                                const WGPUTexelCopyBufferInfo *destination,                 \
                                                const WGPUExtent3D *copySize))                              \
    X(void, CommandEncoderCopyTextureToTexture, (WGPUCommandEncoder encoder,                                \
                                                 const WGPUTexelCopyTextureInfo *source,                    \
                                                 const WGPUTexelCopyTextureInfo *destination,               \
                                                 const WGPUExtent3D *copySize))                             \
    X(void, CommandEncoderClearBuffer, (WGPUCommandEncoder encoder, WGPUBuffer buffer, uint64_t offset,     \
                                        uint64_t size))                                                     \
    X(void, CommandBufferRelease, (WGPUCommandBuffer buffer))                                               \
    X(WGPUQuerySet, DeviceCreateQuerySet, (WGPUDevice device, const WGPUQuerySetDescriptor *descriptor))    \
    X(void, QuerySetDestroy, (WGPUQuerySet querySet))                                                       \
    X(void, QuerySetRelease, (WGPUQuerySet querySet))                                                       \
    X(void, CommandEncoderResolveQuerySet, (WGPUCommandEncoder encoder, WGPUQuerySet querySet,              \
                                            uint32_t firstQuery, uint32_t queryCount, WGPUBuffer destination, \
                                            uint64_t destinationOffset))                                    \
    X(void, RenderPassEncoderEnd, (WGPURenderPassEncoder pass))                                             \
    X(void, RenderPassEncoderRelease, (WGPURenderPassEncoder pass))                                         \
    X(void, RenderPassEncoderSetPipeline, (WGPURenderPassEncoder pass, WGPURenderPipeline pipeline))        \
    X(void, RenderPassEncoderSetBindGroup, (WGPURenderPassEncoder pass, uint32_t groupIndex,                \
                                            WGPUBindGroup group, size_t dynamicOffsetCount,                 \
                                            const uint32_t *dynamicOffsets))                                \
    X(void, RenderPassEncoderSetVertexBuffer, (WGPURenderPassEncoder pass, uint32_t slot, WGPUBuffer buffer, \
                                               uint64_t offset, uint64_t size))                             \
    X(void, RenderPassEncoderSetIndexBuffer, (WGPURenderPassEncoder pass, WGPUBuffer buffer, uint32_t format, \
                                              uint64_t offset, uint64_t size))                              \
    X(void, RenderPassEncoderSetViewport, (WGPURenderPassEncoder pass, float x, float y, float width,       \
                                           float height, float minDepth, float maxDepth))                   \
    X(void, RenderPassEncoderSetScissorRect, (WGPURenderPassEncoder pass, uint32_t x, uint32_t y,           \
                                              uint32_t width, uint32_t height))                             \
    X(void, RenderPassEncoderSetBlendConstant, (WGPURenderPassEncoder pass, const WGPUColor *color))        \
    X(void, RenderPassEncoderSetStencilReference, (WGPURenderPassEncoder pass, uint32_t reference))         \
    X(void, RenderPassEncoderDraw, (WGPURenderPassEncoder pass, uint32_t vertexCount, uint32_t instanceCount, \
                                    uint32_t firstVertex, uint32_t firstInstance))                          \
    X(void, RenderPassEncoderDrawIndexed, (WGPURenderPassEncoder pass, uint32_t indexCount,                 \
                                           uint32_t instanceCount, uint32_t firstIndex, int32_t baseVertex, \
                                           uint32_t firstInstance))                                         \
    X(void, RenderPassEncoderDrawIndirect, (WGPURenderPassEncoder pass, WGPUBuffer buffer, uint64_t offset)) \
    X(void, RenderPassEncoderDrawIndexedIndirect, (WGPURenderPassEncoder pass, WGPUBuffer buffer,           \
                                                   uint64_t offset))                                        \
    X(void, RenderPassEncoderExecuteBundles, (WGPURenderPassEncoder pass, size_t bundleCount,               \
                                              const WGPURenderBundle *bundles))                             \
    X(WGPURenderBundleEncoder, DeviceCreateRenderBundleEncoder,                                             \
      (WGPUDevice device, const WGPURenderBundleEncoderDescriptor *descriptor))                             \
    X(void, RenderBundleEncoderSetPipeline, (WGPURenderBundleEncoder encoder, WGPURenderPipeline pipeline)) \
    X(void, RenderBundleEncoderSetBindGroup, (WGPURenderBundleEncoder encoder, uint32_t groupIndex,         \
                                              WGPUBindGroup group, size_t dynamicOffsetCount,               \
                                              const uint32_t *dynamicOffsets))                              \
    X(void, RenderBundleEncoderSetVertexBuffer, (WGPURenderBundleEncoder encoder, uint32_t slot,            \
                                                 WGPUBuffer buffer, uint64_t offset, uint64_t size))        \
    X(void, RenderBundleEncoderSetIndexBuffer, (WGPURenderBundleEncoder encoder, WGPUBuffer buffer,         \
                                                uint32_t format, uint64_t offset, uint64_t size))           \
    X(void, RenderBundleEncoderDraw, (WGPURenderBundleEncoder encoder, uint32_t vertexCount,                \
                                      uint32_t instanceCount, uint32_t firstVertex, uint32_t firstInstance)) \
    X(void, RenderBundleEncoderDrawIndexed, (WGPURenderBundleEncoder encoder, uint32_t indexCount,          \
                                             uint32_t instanceCount, uint32_t firstIndex, int32_t baseVertex, \
                                             uint32_t firstInstance))                                       \
    X(WGPURenderBundle, RenderBundleEncoderFinish,                                                          \
      (WGPURenderBundleEncoder encoder, const WGPURenderBundleDescriptor *descriptor))                      \
    X(void, RenderBundleEncoderRelease, (WGPURenderBundleEncoder encoder))                                  \
    X(void, RenderBundleRelease, (WGPURenderBundle bundle))                                                 \
    X(void, ComputePassEncoderEnd, (WGPUComputePassEncoder pass))                                           \
    X(void, ComputePassEncoderRelease, (WGPUComputePassEncoder pass))                                       \
    X(void, ComputePassEncoderSetPipeline, (WGPUComputePassEncoder pass, WGPUComputePipeline pipeline))     \
    X(void, ComputePassEncoderSetBindGroup, (WGPUComputePassEncoder pass, uint32_t groupIndex,              \
                                             WGPUBindGroup group, size_t dynamicOffsetCount,                \
                                             const uint32_t *dynamicOffsets))                               \
    X(void, ComputePassEncoderDispatchWorkgroups, (WGPUComputePassEncoder pass, uint32_t x, uint32_t y,     \
                                                   uint32_t z))                                             \
    X(void, ComputePassEncoderDispatchWorkgroupsIndirect, (WGPUComputePassEncoder pass, WGPUBuffer buffer,  \
                                                           uint64_t offset))                                \
    X(WGPUSurface, InstanceCreateSurface, (WGPUInstance instance, const WGPUSurfaceDescriptor *descriptor)) \
    X(uint32_t, SurfaceGetCapabilities, (WGPUSurface surface, WGPUAdapter adapter,                          \
                                         WGPUSurfaceCapabilities *capabilities))                            \
    X(void, SurfaceCapabilitiesFreeMembers, (WGPUSurfaceCapabilities capabilities))                         \
    X(void, SurfaceConfigure, (WGPUSurface surface, const WGPUSurfaceConfiguration *config))                \
    X(void, SurfaceUnconfigure, (WGPUSurface surface))                                                      \
    X(void, SurfaceGetCurrentTexture, (WGPUSurface surface, WGPUSurfaceTexture *surfaceTexture))            \
    /* this build's present returns nothing (a WGPUStatus came back as garbage) */                          \
    X(void, SurfacePresent, (WGPUSurface surface))                                                          \
    X(void, SurfaceRelease, (WGPUSurface surface))

typedef struct hl__wgpu_procs {
#define HL__WGPU_FIELD(ret, name, args) ret(*name) args;
    HL__WGPU_PROCS(HL__WGPU_FIELD)
#undef HL__WGPU_FIELD
} hl__wgpu_procs;

#endif
