/* hilo3d webgpu backend: window surfaces. One Dawn surface per hl_rhi_surface, made on the
 * device's instance from the X11 window or the Wayland surface; configure / getCurrentTexture /
 * present map one to one. Dawn's texture reference of each frame is released with the RHI's
 * frame texture (hl__wgpu_texture_destroy: released, never destroyed). */
#include <string.h>

#include "webgpu_internal.h"

static hl_rhi_format rhi_format(uint32_t f) {
    switch (f) {
    case WGPUTextureFormat_BGRA8Unorm: return HL_RHI_FORMAT_BGRA8_UNORM;
    case WGPUTextureFormat_RGBA8Unorm: return HL_RHI_FORMAT_RGBA8_UNORM;
    case WGPUTextureFormat_RGBA8UnormSrgb: return HL_RHI_FORMAT_RGBA8_UNORM_SRGB;
    case WGPUTextureFormat_RGB10A2Unorm: return HL_RHI_FORMAT_RGB10A2_UNORM;
    case WGPUTextureFormat_RGBA16Float: return HL_RHI_FORMAT_RGBA16_FLOAT;
    default: return HL_RHI_FORMAT_UNDEFINED; /* e.g. BGRA8UnormSrgb: no such RHI format */
    }
}

static uint32_t rhi_usages(WGPUFlags u) {
    uint32_t r = 0;
    if (u & WGPUTextureUsage_CopySrc) r |= HL_RHI_TEXTURE_USAGE_COPY_SRC;
    if (u & WGPUTextureUsage_CopyDst) r |= HL_RHI_TEXTURE_USAGE_COPY_DST;
    if (u & WGPUTextureUsage_TextureBinding) r |= HL_RHI_TEXTURE_USAGE_SAMPLED;
    if (u & WGPUTextureUsage_StorageBinding) r |= HL_RHI_TEXTURE_USAGE_STORAGE;
    if (u & WGPUTextureUsage_RenderAttachment) r |= HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT;
    return r;
}

static uint32_t wgpu_present_mode(hl_rhi_present_mode m) {
    switch (m) {
    case HL_RHI_PRESENT_FIFO_RELAXED: return WGPUPresentMode_FifoRelaxed;
    case HL_RHI_PRESENT_IMMEDIATE: return WGPUPresentMode_Immediate;
    case HL_RHI_PRESENT_MAILBOX: return WGPUPresentMode_Mailbox;
    default: return WGPUPresentMode_Fifo;
    }
}

static void read_caps(hl_rhi_surface_caps *caps, const WGPUSurfaceCapabilities *c) {
    memset(caps, 0, sizeof *caps);
    for (size_t i = 0; i < c->formatCount && caps->format_count < HL_RHI_SURFACE_MAX_FORMATS; i++) {
        hl_rhi_format f = rhi_format(c->formats[i]);
        bool seen = f == HL_RHI_FORMAT_UNDEFINED;
        for (uint32_t k = 0; k < caps->format_count && !seen; k++) seen = caps->formats[k] == f;
        if (!seen) caps->formats[caps->format_count++] = f;
    }
    caps->usages = rhi_usages(c->usages);
    for (size_t i = 0; i < c->presentModeCount; i++) {
        switch (c->presentModes[i]) {
        case WGPUPresentMode_Fifo: caps->present_modes |= 1u << HL_RHI_PRESENT_FIFO; break;
        case WGPUPresentMode_FifoRelaxed: caps->present_modes |= 1u << HL_RHI_PRESENT_FIFO_RELAXED; break;
        case WGPUPresentMode_Immediate: caps->present_modes |= 1u << HL_RHI_PRESENT_IMMEDIATE; break;
        case WGPUPresentMode_Mailbox: caps->present_modes |= 1u << HL_RHI_PRESENT_MAILBOX; break;
        default: break;
        }
    }
}

hl_result hl__wgpu_surface_create(hl_rhi_device *dev, hl__surface *s) {
    hl__wgpu_device *be = hl__wgpu_be(dev);
    WGPUSurfaceSourceXlibWindow xlib;
    WGPUSurfaceSourceWaylandSurface wayland;
    memset(&xlib, 0, sizeof xlib);
    memset(&wayland, 0, sizeof wayland);
    WGPUSurfaceDescriptor sd;
    memset(&sd, 0, sizeof sd);
    if (dev->desc.display.system == HL_RHI_WINDOW_SYSTEM_X11) {
        xlib.chain.sType = WGPUSType_SurfaceSourceXlibWindow;
        xlib.display = dev->desc.display.display;
        xlib.window = s->desc.window;
        sd.nextInChain = &xlib.chain;
    } else {
        wayland.chain.sType = WGPUSType_SurfaceSourceWaylandSurface;
        wayland.display = dev->desc.display.display;
        wayland.surface = s->desc.wayland_surface;
        sd.nextInChain = &wayland.chain;
    }
    WGPUSurface surface = WGPU(dev, InstanceCreateSurface)(be->instance, &sd);
    if (!surface) return hl__fail(HL_ERR_BACKEND, "webgpu: wgpuInstanceCreateSurface failed for the window");
    WGPUSurfaceCapabilities c;
    memset(&c, 0, sizeof c);
    if (WGPU(dev, SurfaceGetCapabilities)(surface, be->adapter, &c) != WGPUStatus_Success) {
        WGPU(dev, SurfaceRelease)(surface);
        hl_result r = hl__wgpu_take_error(dev, "surface capabilities");
        return r ? r
                 : hl__fail(HL_ERR_UNSUPPORTED, "webgpu: the adapter cannot present to this window "
                                                "(wgpuSurfaceGetCapabilities failed: is the window alive?)");
    }
    read_caps(&s->caps, &c);
    WGPU(dev, SurfaceCapabilitiesFreeMembers)(c);
    s->be.ptr = surface;
    return HL_OK;
}

/* Surfaces of lost devices: releasing a configured Dawn surface after its device was destroyed
 * crashes this build (vulkan::SwapChain::DetachFromSurfaceImpl touches the destroyed device), so
 * they stay here, reachable, until the process exits; a new surface of the window works beside
 * them. One per loss of a device that had a surface. */
#define HL__WGPU_PARKED_SURFACES 64
static WGPUSurface hl__wgpu_parked_surfaces[HL__WGPU_PARKED_SURFACES];
static uint32_t hl__wgpu_parked_surface_count;

void hl__wgpu_surface_destroy(hl_rhi_device *dev, hl__surface *s) {
    if (!s->be.ptr) return;
    if (dev->lost && s->configured) {
        if (hl__wgpu_parked_surface_count < HL__WGPU_PARKED_SURFACES)
            hl__wgpu_parked_surfaces[hl__wgpu_parked_surface_count++] = s->be.ptr;
        s->be.ptr = NULL;
        return;
    }
    if (dev->be && s->configured) WGPU(dev, SurfaceUnconfigure)(s->be.ptr);
    WGPU(dev, SurfaceRelease)(s->be.ptr);
    s->be.ptr = NULL;
}

hl_result hl__wgpu_surface_configure(hl_rhi_device *dev, hl__surface *s, const hl_rhi_surface_config *config) {
    WGPUSurfaceConfiguration c;
    memset(&c, 0, sizeof c);
    c.device = hl__wgpu_be(dev)->device;
    c.format = hl__wgpu_format(config->format);
    c.usage = hl__wgpu_texture_usage(config->usage);
    c.width = config->width;
    c.height = config->height;
    c.alphaMode = WGPUCompositeAlphaMode_Auto;
    c.presentMode = wgpu_present_mode(config->present_mode);
    WGPU(dev, SurfaceConfigure)(s->be.ptr, &c);
    return hl__wgpu_take_error(dev, "surface configure");
}

hl_result hl__wgpu_surface_acquire(hl_rhi_device *dev, hl__surface *s, hl__texture *tex,
                                      hl_rhi_surface_status *status) {
    WGPUSurfaceTexture st;
    memset(&st, 0, sizeof st);
    WGPU(dev, SurfaceGetCurrentTexture)(s->be.ptr, &st);
    hl_result r = hl__wgpu_take_error(dev, "surface getCurrentTexture");
    bool has = false;
    switch (st.status) {
    case WGPUSurfaceGetCurrentTextureStatus_SuccessOptimal: *status = HL_RHI_SURFACE_OPTIMAL, has = true; break;
    case WGPUSurfaceGetCurrentTextureStatus_SuccessSuboptimal: *status = HL_RHI_SURFACE_SUBOPTIMAL, has = true; break;
    case WGPUSurfaceGetCurrentTextureStatus_Timeout: *status = HL_RHI_SURFACE_TIMEOUT; break;
    case WGPUSurfaceGetCurrentTextureStatus_Outdated: *status = HL_RHI_SURFACE_OUTDATED; break;
    case WGPUSurfaceGetCurrentTextureStatus_Lost: *status = HL_RHI_SURFACE_LOST; break;
    default:
        if (!r) r = hl__fail(HL_ERR_BACKEND, "webgpu: wgpuSurfaceGetCurrentTexture failed (status %u)", st.status);
        break;
    }
    if (r || !has || !st.texture) {
        if (st.texture) WGPU(dev, TextureRelease)(st.texture);
        if (!r && has) r = hl__fail(HL_ERR_BACKEND, "webgpu: wgpuSurfaceGetCurrentTexture gave no texture");
        return r;
    }
    tex->be.ptr = st.texture;
    return HL_OK;
}

hl_result hl__wgpu_surface_present(hl_rhi_device *dev, hl__surface *s, hl__texture *tex) {
    (void)tex;
    WGPU(dev, SurfacePresent)(s->be.ptr);
    return hl__wgpu_take_error(dev, "surface present");
}
