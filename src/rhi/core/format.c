/* Static tables: texture formats, vertex formats, backend and feature names. */
#include <string.h>

#include "core_private.h"

static const hl_rhi_format_info hl__formats[HL_RHI_FORMAT_COUNT] = {
    /*                              name                 bytes depth  stencil integer srgb */
    [HL_RHI_FORMAT_UNDEFINED] = {"undefined", 0, false, false, false, false},
    [HL_RHI_FORMAT_R8_UNORM] = {"r8unorm", 1, false, false, false, false},
    [HL_RHI_FORMAT_RG8_UNORM] = {"rg8unorm", 2, false, false, false, false},
    [HL_RHI_FORMAT_RGBA8_UNORM] = {"rgba8unorm", 4, false, false, false, false},
    [HL_RHI_FORMAT_RGBA8_UNORM_SRGB] = {"rgba8unorm-srgb", 4, false, false, false, true},
    [HL_RHI_FORMAT_BGRA8_UNORM] = {"bgra8unorm", 4, false, false, false, false},
    [HL_RHI_FORMAT_R16_FLOAT] = {"r16float", 2, false, false, false, false},
    [HL_RHI_FORMAT_RG16_FLOAT] = {"rg16float", 4, false, false, false, false},
    [HL_RHI_FORMAT_RGBA16_FLOAT] = {"rgba16float", 8, false, false, false, false},
    [HL_RHI_FORMAT_R32_FLOAT] = {"r32float", 4, false, false, false, false},
    [HL_RHI_FORMAT_RG32_FLOAT] = {"rg32float", 8, false, false, false, false},
    [HL_RHI_FORMAT_RGBA32_FLOAT] = {"rgba32float", 16, false, false, false, false},
    [HL_RHI_FORMAT_R32_UINT] = {"r32uint", 4, false, false, true, false},
    [HL_RHI_FORMAT_RGBA8_UINT] = {"rgba8uint", 4, false, false, true, false},
    [HL_RHI_FORMAT_RGB10A2_UNORM] = {"rgb10a2unorm", 4, false, false, false, false},
    [HL_RHI_FORMAT_DEPTH16_UNORM] = {"depth16unorm", 2, true, false, false, false},
    [HL_RHI_FORMAT_DEPTH24_PLUS] = {"depth24plus", 0, true, false, false, false},
    [HL_RHI_FORMAT_DEPTH24_PLUS_STENCIL8] = {"depth24plus-stencil8", 0, true, true, false, false},
    [HL_RHI_FORMAT_DEPTH32_FLOAT] = {"depth32float", 4, true, false, false, false},
};

const hl_rhi_format_info *hl_rhi_format_get_info(hl_rhi_format f) {
    return ((unsigned)f < HL_RHI_FORMAT_COUNT) ? &hl__formats[f] : NULL;
}

uint32_t hl__format_texel_size(hl_rhi_format f) {
    return ((unsigned)f < HL_RHI_FORMAT_COUNT) ? hl__formats[f].bytes_per_texel : 0;
}

uint32_t hl_rhi_vertex_format_size(hl_rhi_vertex_format f) {
    switch (f) {
    case HL_RHI_VERTEX_FLOAT32: return 4;
    case HL_RHI_VERTEX_FLOAT32X2: return 8;
    case HL_RHI_VERTEX_FLOAT32X3: return 12;
    case HL_RHI_VERTEX_FLOAT32X4: return 16;
    case HL_RHI_VERTEX_UNORM8X4:
    case HL_RHI_VERTEX_SNORM8X4:
    case HL_RHI_VERTEX_UINT8X4: return 4;
    case HL_RHI_VERTEX_UNORM16X2:
    case HL_RHI_VERTEX_SNORM16X2: return 4;
    case HL_RHI_VERTEX_UNORM16X4:
    case HL_RHI_VERTEX_SNORM16X4:
    case HL_RHI_VERTEX_UINT16X4: return 8;
    case HL_RHI_VERTEX_UINT32: return 4;
    default: return 0;
    }
}

static const char *const hl__backend_names[HL_RHI_BACKEND_COUNT] = {"auto", "webgpu", "gles3", "null"};

const char *hl_rhi_backend_name(hl_rhi_backend b) {
    return ((unsigned)b < HL_RHI_BACKEND_COUNT) ? hl__backend_names[b] : "unknown";
}

hl_result hl_rhi_backend_parse(const char *name, hl_rhi_backend *out) {
    if (!name || !out) return hl__fail(HL_ERR_VALIDATION, "hl_rhi_backend_parse: name and out must not be NULL");
    for (unsigned i = 0; i < HL_RHI_BACKEND_COUNT; i++) {
        if (strcmp(name, hl__backend_names[i]) == 0) {
            *out = (hl_rhi_backend)i;
            return HL_OK;
        }
    }
    return hl__fail(HL_ERR_VALIDATION, "hl_rhi_backend_parse: unknown backend \"%s\" (expected auto, webgpu, gles3 or null)",
                    name);
}

const char *hl_rhi_feature_name(uint32_t bit) {
    switch (bit) {
    case HL_RHI_FEATURE_COMPUTE: return "compute";
    case HL_RHI_FEATURE_STORAGE_BUFFER: return "storage-buffer";
    case HL_RHI_FEATURE_STORAGE_TEXTURE: return "storage-texture";
    case HL_RHI_FEATURE_INDIRECT_DRAW: return "indirect-draw";
    case HL_RHI_FEATURE_TEXTURE_1D: return "texture-1d";
    case HL_RHI_FEATURE_BASE_VERTEX: return "base-vertex";
    case HL_RHI_FEATURE_FIRST_INSTANCE: return "first-instance";
    case HL_RHI_FEATURE_BUFFER_MAP_ASYNC: return "buffer-map-async";
    case HL_RHI_FEATURE_FLOAT32_FILTERABLE: return "float32-filterable";
    case HL_RHI_FEATURE_TIMESTAMP_QUERY: return "timestamp-query";
    default: return "unknown";
    }
}
