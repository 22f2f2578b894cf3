/* hilo3d webgpu backend: loading Dawn, probe, device creation, capabilities, error
 * callbacks and the backend function table. */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "webgpu_internal.h"

/* Dawn's search list (set by the build; see CMakeLists.txt): the build tree's bootstrap copy,
 * the configured install location and the install tree's library folder name. */
#ifndef HL_DAWN_DEFAULT_PATH
#define HL_DAWN_DEFAULT_PATH "libwebgpu_wrapper.so"
#endif
#ifndef HL_DAWN_INSTALL_PATH
#define HL_DAWN_INSTALL_PATH ""
#endif
#ifndef HL_DAWN_INSTALL_LIBDIR
#define HL_DAWN_INSTALL_LIBDIR "lib"
#endif
#define HL_DAWN_FILE "libwebgpu_wrapper.so"

hl__wgpu_procs hl__wgpu;
static void *hl__wgpu_lib; /* kept for the life of the process once loaded */
static pthread_mutex_t hl__wgpu_load_lock = PTHREAD_MUTEX_INITIALIZER; /* devices on several threads */

/* ---- loading -------------------------------------------------------------------------------- */
/* The folder of an absolute path, in place ("/a/b/c" -> "/a/b"); false when there is none. */
static bool dir_of(char *path) {
    char *slash = strrchr(path, '/');
    if (!slash || slash == path) return false;
    *slash = '\0';
    return true;
}

/* Where Dawn is looked for when neither $HL_DAWN_LIBRARY nor the descriptor names it, in order
 * (the first file that exists is loaded):
 *   1. beside the hilo3d shared library: <its folder>/hilo3d/libwebgpu_wrapper.so (an install
 *      tree, wherever it was installed or moved to);
 *   2. for the running program: <its folder>/../<libdir>/hilo3d/libwebgpu_wrapper.so (a program
 *      in <prefix>/bin beside an installed hilo3d, linked with the static library too);
 *   3. the install location configured at build time (<CMAKE_INSTALL_PREFIX>/<libdir>/hilo3d/);
 *   4. the build tree's bootstrap copy (.deps/dawn; left out with -DHL_DAWN_SEARCH_BUILD_TREE=OFF).
 * paths receives up to 4 candidates of PATH_MAX bytes each; returns how many. */
static int dawn_candidates(char paths[4][PATH_MAX]) {
    int n = 0;
    /* candidate n is written only when it fits; %s of a too long path is truncated, not used */
    char exe[PATH_MAX], mod[PATH_MAX];
    bool have_exe = realpath("/proc/self/exe", exe) != NULL;
    Dl_info info;
    memset(&info, 0, sizeof info);
    if (dladdr((void *)&hl__wgpu_lib, &info) && info.dli_fname && info.dli_fname[0] && realpath(info.dli_fname, mod) &&
        (!have_exe || strcmp(mod, exe) != 0) && dir_of(mod) &&
        snprintf(paths[n], PATH_MAX, "%s/hilo3d/%s", mod, HL_DAWN_FILE) < PATH_MAX)
        n++;
    if (have_exe && dir_of(exe) && dir_of(exe) && /* <prefix>/bin/program -> <prefix> */
        snprintf(paths[n], PATH_MAX, "%s/%s/hilo3d/%s", exe, HL_DAWN_INSTALL_LIBDIR, HL_DAWN_FILE) < PATH_MAX)
        n++;
    if (HL_DAWN_INSTALL_PATH[0] && snprintf(paths[n], PATH_MAX, "%s", HL_DAWN_INSTALL_PATH) < PATH_MAX) n++;
    if (HL_DAWN_DEFAULT_PATH[0] && snprintf(paths[n], PATH_MAX, "%s", HL_DAWN_DEFAULT_PATH) < PATH_MAX) n++;
    return n;
}

static hl_result load_dawn_locked(const char *desc_path) {
    if (hl__wgpu_lib) return HL_OK;
    const char *path = getenv("HL_DAWN_LIBRARY");
    if (!path || !path[0]) path = desc_path;
    static char found[PATH_MAX]; /* under the load lock */
    if (!path || !path[0]) {
        char paths[4][PATH_MAX];
        char tried[1024] = "";
        int n = dawn_candidates(paths);
        for (int i = 0; i < n && !path; i++) {
            if (access(paths[i], R_OK) == 0) {
                memcpy(found, paths[i], sizeof found);
                path = found;
            } else {
                size_t used = strlen(tried);
                snprintf(tried + used, sizeof tried - used, "%s'%s'", used ? ", " : "", paths[i]);
            }
        }
        if (!path)
            return hl__fail(HL_ERR_UNSUPPORTED,
                            "webgpu: cannot find Dawn (%s): tried %s; set HL_DAWN_LIBRARY or dawn_library_path",
                            HL_DAWN_FILE, tried);
    }
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *why = dlerror();
        return hl__fail(HL_ERR_UNSUPPORTED, "webgpu: cannot load Dawn from '%s': %s", path, why ? why : "?");
    }
    hl__wgpu_procs procs;
    memset(&procs, 0, sizeof procs);
#define HL__WGPU_LOAD(ret, name, args)                                                                  \
    {                                                                                                   \
        void *sym = dlsym(lib, "wgpu" #name);                                                           \
        if (!sym) {                                                                                     \
            dlclose(lib);                                                                               \
            return hl__fail(HL_ERR_UNSUPPORTED, "webgpu: '%s' lacks the function wgpu" #name, path);   \
        }                                                                                               \
        memcpy(&procs.name, &sym, sizeof sym);                                                          \
    }
    HL__WGPU_PROCS(HL__WGPU_LOAD)
#undef HL__WGPU_LOAD
    hl__wgpu = procs;
    hl__wgpu_lib = lib;
    return HL_OK;
}

static hl_result load_dawn(const char *desc_path) {
    pthread_mutex_lock(&hl__wgpu_load_lock);
    hl_result r = load_dawn_locked(desc_path);
    pthread_mutex_unlock(&hl__wgpu_load_lock);
    return r;
}

/* ---- errors ----------------------------------------------------------------------------------- */
static void copy_message(char *dst, size_t dst_size, WGPUStringView m) {
    size_t n = 0;
    if (m.data) n = m.length == WGPU_STRLEN ? strlen(m.data) : m.length;
    if (n >= dst_size) n = dst_size - 1;
    if (n) memcpy(dst, m.data, n);
    dst[n] = '\0';
    /* Dawn's messages end with a newline and an indented call trace: keep them on one line */
    for (size_t i = 0; i < n; i++)
        if (dst[i] == '\n') dst[i] = ' ';
    while (n && dst[n - 1] == ' ') dst[--n] = '\0';
}

static void on_uncaptured_error(const WGPUDevice *device, uint32_t type, WGPUStringView message, void *userdata1,
                                void *userdata2) {
    (void)device;
    (void)userdata2;
    hl_rhi_device *dev = userdata1;
    hl__wgpu_device *be = hl__wgpu_be(dev);
    if (be->error_code != HL_OK) return; /* the first error is the one to report */
    be->error_code = type == WGPUErrorType_OutOfMemory ? HL_ERR_OUT_OF_MEMORY : HL_ERR_BACKEND;
    copy_message(be->error, sizeof be->error, message);
}

static void on_device_lost(const WGPUDevice *device, uint32_t reason, WGPUStringView message, void *userdata1,
                           void *userdata2) {
    (void)device;
    (void)userdata2;
    hl_rhi_device *dev = userdata1;
    hl__wgpu_device *be = hl__wgpu_be(dev);
    if (be->destroying) return; /* our own release */
    dev->lost = true;
    be->error_code = HL_ERR_DEVICE_LOST;
    char msg[900];
    copy_message(msg, sizeof msg, message);
    snprintf(be->error, sizeof be->error, "device lost (reason %u): %s", reason, msg);
    snprintf(dev->lost_reason, sizeof dev->lost_reason, "webgpu: Dawn: device lost (reason %u%s): %.160s", reason,
             reason == WGPUDeviceLostReason_Destroyed ? ", destroyed" : "", msg);
}

hl_result hl__wgpu_take_error(hl_rhi_device *dev, const char *what) {
    hl__wgpu_device *be = hl__wgpu_be(dev);
    if (be->error_code == HL_OK) {
        if (dev->lost) return hl__fail(HL_ERR_DEVICE_LOST, "webgpu: %s: the device is lost", what);
        return HL_OK;
    }
    hl_result code = dev->lost ? HL_ERR_DEVICE_LOST : be->error_code;
    hl_result r = hl__fail(code, "webgpu: %s: Dawn: %s", what, be->error);
    be->error_code = HL_OK;
    be->error[0] = '\0';
    return r;
}

static void nap(long ns) {
    struct timespec ts = {0, ns};
    nanosleep(&ts, NULL);
}

void hl__wgpu_req_finish(hl__wgpu_req *req) {
    if (!req->abandoned) {
        req->done = 1;
        return;
    }
    if (req->orphan) req->orphan(req);
    hl__free(req);
}

bool hl__wgpu_pump(hl_rhi_device *dev, WGPUInstance instance, hl__wgpu_req *req, uint64_t deadline,
                   uint64_t *calls) {
    for (uint32_t spins = 0;; spins++) {
        (*calls)++;
        hl__wgpu.InstanceProcessEvents(instance);
        if (req->done) return true;
        if ((dev && dev->lost) || !hl__time_left(deadline)) return false;
        /* spin a little (answers usually come at once), then nap so the wait costs no CPU */
        if (spins > 16) nap(20000);
    }
}

hl_result hl__wgpu_wait_flag(hl_rhi_device *dev, volatile int *flag, const char *what) {
    hl__wgpu_device *be = hl__wgpu_be(dev);
    uint64_t deadline = hl__deadline(dev->wait_timeout_ns);
    for (uint32_t spins = 0; !*flag; spins++) {
        WGPU(dev, InstanceProcessEvents)(be->instance);
        if (*flag) break;
        if (dev->lost) return hl__wgpu_take_error(dev, what);
        if (!hl__time_left(deadline)) {
            char t[32];
            return hl__fail(HL_ERR_TIMEOUT, "webgpu: %s: no answer from Dawn within %s", what,
                            hl__duration_text(dev->wait_timeout_ns, t, sizeof t));
        }
        if (spins > 16) nap(20000);
    }
    return dev->lost ? hl__wgpu_take_error(dev, what) : HL_OK;
}

hl_result hl__wgpu_wait_req(hl_rhi_device *dev, hl__wgpu_req *req, const char *what) {
    hl__wgpu_device *be = hl__wgpu_be(dev);
    if (hl__wgpu_pump(dev, be->instance, req, hl__deadline(dev->wait_timeout_ns), &dev->stats.native_calls)) {
        if (dev->lost) return hl__wgpu_take_error(dev, what);
        return HL_OK;
    }
    req->abandoned = 1; /* its callback frees it when Dawn delivers it */
    if (dev->lost) return hl__wgpu_take_error(dev, what);
    char t[32];
    return hl__fail(HL_ERR_TIMEOUT,
                    "webgpu: %s: timed out after %s waiting for Dawn's answer; the work stays queued: try "
                    "again later or raise the device's wait timeout",
                    what, hl__duration_text(dev->wait_timeout_ns, t, sizeof t));
}

/* ---- enums ---------------------------------------------------------------------------------- */
uint32_t hl__wgpu_format(hl_rhi_format f) {
    switch (f) {
    case HL_RHI_FORMAT_R8_UNORM: return WGPUTextureFormat_R8Unorm;
    case HL_RHI_FORMAT_RG8_UNORM: return WGPUTextureFormat_RG8Unorm;
    case HL_RHI_FORMAT_RGBA8_UNORM: return WGPUTextureFormat_RGBA8Unorm;
    case HL_RHI_FORMAT_RGBA8_UNORM_SRGB: return WGPUTextureFormat_RGBA8UnormSrgb;
    case HL_RHI_FORMAT_BGRA8_UNORM: return WGPUTextureFormat_BGRA8Unorm;
    case HL_RHI_FORMAT_R16_FLOAT: return WGPUTextureFormat_R16Float;
    case HL_RHI_FORMAT_RG16_FLOAT: return WGPUTextureFormat_RG16Float;
    case HL_RHI_FORMAT_RGBA16_FLOAT: return WGPUTextureFormat_RGBA16Float;
    case HL_RHI_FORMAT_R32_FLOAT: return WGPUTextureFormat_R32Float;
    case HL_RHI_FORMAT_RG32_FLOAT: return WGPUTextureFormat_RG32Float;
    case HL_RHI_FORMAT_RGBA32_FLOAT: return WGPUTextureFormat_RGBA32Float;
    case HL_RHI_FORMAT_R32_UINT: return WGPUTextureFormat_R32Uint;
    case HL_RHI_FORMAT_RGBA8_UINT: return WGPUTextureFormat_RGBA8Uint;
    case HL_RHI_FORMAT_RGB10A2_UNORM: return WGPUTextureFormat_RGB10A2Unorm;
    case HL_RHI_FORMAT_DEPTH16_UNORM: return WGPUTextureFormat_Depth16Unorm;
    case HL_RHI_FORMAT_DEPTH24_PLUS: return WGPUTextureFormat_Depth24Plus;
    case HL_RHI_FORMAT_DEPTH24_PLUS_STENCIL8: return WGPUTextureFormat_Depth24PlusStencil8;
    case HL_RHI_FORMAT_DEPTH32_FLOAT: return WGPUTextureFormat_Depth32Float;
    default: return WGPUTextureFormat_Undefined;
    }
}

uint32_t hl__wgpu_texture_usage(uint32_t usage) {
    uint32_t u = 0;
    if (usage & HL_RHI_TEXTURE_USAGE_COPY_SRC) u |= WGPUTextureUsage_CopySrc;
    if (usage & HL_RHI_TEXTURE_USAGE_COPY_DST) u |= WGPUTextureUsage_CopyDst;
    if (usage & HL_RHI_TEXTURE_USAGE_SAMPLED) u |= WGPUTextureUsage_TextureBinding;
    if (usage & HL_RHI_TEXTURE_USAGE_STORAGE) u |= WGPUTextureUsage_StorageBinding;
    if (usage & HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT) u |= WGPUTextureUsage_RenderAttachment;
    return u;
}

static uint32_t power_preference(hl_rhi_power_preference p) {
    switch (p) {
    case HL_RHI_POWER_LOW: return WGPUPowerPreference_LowPower;
    case HL_RHI_POWER_HIGH: return WGPUPowerPreference_HighPerformance;
    default: return WGPUPowerPreference_Undefined;
    }
}

static const char *backend_type_name(uint32_t t) {
    switch (t) {
    case WGPUBackendType_Null: return "Null";
    case WGPUBackendType_WebGPU: return "WebGPU";
    case WGPUBackendType_D3D11: return "D3D11";
    case WGPUBackendType_D3D12: return "D3D12";
    case WGPUBackendType_Metal: return "Metal";
    case WGPUBackendType_Vulkan: return "Vulkan";
    case WGPUBackendType_OpenGL: return "OpenGL";
    case WGPUBackendType_OpenGLES: return "OpenGLES";
    default: return "unknown";
    }
}

/* ---- instance + adapter -------------------------------------------------------------------- */
typedef struct adapter_request {
    hl__wgpu_req head;
    uint32_t status;
    WGPUAdapter adapter;
    char message[512];
} adapter_request;

static void adapter_orphan(hl__wgpu_req *req) {
    adapter_request *ar = (adapter_request *)req;
    if (ar->adapter) hl__wgpu.AdapterRelease(ar->adapter);
}

static void on_adapter(uint32_t status, WGPUAdapter adapter, WGPUStringView message, void *userdata1,
                       void *userdata2) {
    (void)userdata2;
    adapter_request *req = userdata1;
    req->status = status;
    req->adapter = adapter;
    copy_message(req->message, sizeof req->message, message);
    hl__wgpu_req_finish(&req->head);
}

/* The engine's feature set on Dawn: everything but FLOAT32_FILTERABLE is core WebGPU. */
static uint32_t adapter_features(WGPUAdapter adapter, uint64_t *calls) {
    uint32_t f = HL_RHI_FEATURE_COMPUTE | HL_RHI_FEATURE_STORAGE_BUFFER | HL_RHI_FEATURE_STORAGE_TEXTURE |
                 HL_RHI_FEATURE_INDIRECT_DRAW | HL_RHI_FEATURE_TEXTURE_1D | HL_RHI_FEATURE_BASE_VERTEX |
                 HL_RHI_FEATURE_FIRST_INSTANCE | HL_RHI_FEATURE_BUFFER_MAP_ASYNC;
    (*calls)++;
    if (hl__wgpu.AdapterHasFeature(adapter, WGPUFeatureName_Float32Filterable))
        f |= HL_RHI_FEATURE_FLOAT32_FILTERABLE;
    (*calls)++;
    if (hl__wgpu.AdapterHasFeature(adapter, WGPUFeatureName_TimestampQuery)) f |= HL_RHI_FEATURE_TIMESTAMP_QUERY;
    return f;
}

static hl_result check_features(uint32_t have, uint32_t need) {
    uint32_t missing = need & ~have;
    if (!missing) return HL_OK;
    uint32_t bit = missing & (~missing + 1u);
    return hl__fail(HL_ERR_UNSUPPORTED, "webgpu: the adapter lacks the required feature '%s'",
                    hl_rhi_feature_name(bit));
}

/* Creates an instance and requests an adapter (waiting at most timeout_ns for the answer);
 * *calls counts native calls. */
static hl_result open_adapter(const hl_rhi_requirements *req, uint64_t timeout_ns, WGPUInstance *out_instance,
                              WGPUAdapter *out_adapter, uint64_t *calls) {
    (*calls)++;
    WGPUInstance instance = hl__wgpu.CreateInstance(NULL);
    if (!instance) return hl__fail(HL_ERR_UNSUPPORTED, "webgpu: wgpuCreateInstance failed");
    WGPURequestAdapterOptions opts;
    memset(&opts, 0, sizeof opts);
    opts.featureLevel = WGPUFeatureLevel_Core;
    opts.powerPreference = req ? power_preference(req->power_preference) : WGPUPowerPreference_Undefined;
    adapter_request *ar = hl__calloc(1, sizeof *ar);
    if (!ar) {
        (*calls)++;
        hl__wgpu.InstanceRelease(instance);
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "webgpu: out of memory for an adapter request");
    }
    ar->head.orphan = adapter_orphan;
    WGPUCallbackInfo cb = {NULL, WGPUCallbackMode_AllowProcessEvents, (void (*)(void))on_adapter, ar, NULL};
    (*calls)++;
    hl__wgpu.InstanceRequestAdapter(instance, &opts, cb);
    if (!hl__wgpu_pump(NULL, instance, &ar->head, hl__deadline(timeout_ns), calls)) {
        ar->head.abandoned = 1; /* the release below delivers the callback, which frees it */
        (*calls)++;
        hl__wgpu.InstanceRelease(instance);
        char t[32];
        return hl__fail(HL_ERR_TIMEOUT, "webgpu: no answer to the adapter request within %s",
                        hl__duration_text(timeout_ns, t, sizeof t));
    }
    uint32_t status = ar->status;
    WGPUAdapter adapter = ar->adapter;
    char message[sizeof ar->message];
    memcpy(message, ar->message, sizeof message);
    hl__free(ar);
    if (status != WGPU_CALLBACK_STATUS_SUCCESS || !adapter) {
        (*calls)++;
        if (adapter) hl__wgpu.AdapterRelease(adapter);
        hl__wgpu.InstanceRelease(instance);
        return hl__fail(HL_ERR_UNSUPPORTED, "webgpu: no adapter (status %u): %s", status,
                        message[0] ? message : "Dawn found no usable GPU");
    }
    /* Dawn answers with its Null backend when it finds no driver (no Vulkan ICD): an adapter that
       accepts every call and draws nothing, which must not pass for a GPU (auto would pick it). */
    WGPUAdapterInfo info;
    memset(&info, 0, sizeof info);
    (*calls)++;
    if (hl__wgpu.AdapterGetInfo(adapter, &info) == WGPUStatus_Success) {
        uint32_t type = info.backendType;
        (*calls)++;
        hl__wgpu.AdapterInfoFreeMembers(info);
        if (type == WGPUBackendType_Null) {
            (*calls) += 2;
            hl__wgpu.AdapterRelease(adapter);
            hl__wgpu.InstanceRelease(instance);
            return hl__fail(HL_ERR_UNSUPPORTED,
                            "webgpu: Dawn found no GPU driver, only its Null backend (which draws nothing): "
                            "install a Vulkan driver (mesa-vulkan-drivers for lavapipe) or check VK_ICD_FILENAMES");
        }
    }
    *out_instance = instance;
    *out_adapter = adapter;
    return HL_OK;
}

static void adapter_name(WGPUAdapter adapter, char *name, size_t name_size, char *driver, size_t driver_size,
                         uint64_t *calls) {
    WGPUAdapterInfo info;
    memset(&info, 0, sizeof info);
    (*calls)++;
    if (hl__wgpu.AdapterGetInfo(adapter, &info) != WGPUStatus_Success) {
        if (name && name_size) snprintf(name, name_size, "Dawn adapter");
        if (driver && driver_size) snprintf(driver, driver_size, "Dawn");
        return;
    }
    char device[128], description[128];
    copy_message(device, sizeof device, info.device);
    copy_message(description, sizeof description, info.description);
    if (name && name_size) {
        if (description[0] && strcmp(device, description) != 0)
            snprintf(name, name_size, "%.60s (%.60s)", device, description);
        else
            snprintf(name, name_size, "%s", device[0] ? device : "Dawn adapter");
    }
    if (driver && driver_size)
        snprintf(driver, driver_size, "Dawn/%s %.100s", backend_type_name(info.backendType), description);
    (*calls)++;
    hl__wgpu.AdapterInfoFreeMembers(info);
}

static hl_result wgpu_probe(const hl_rhi_requirements *req, const hl_rhi_device_desc *desc, char *name,
                            size_t name_size) {
    hl_result r = load_dawn(desc ? desc->dawn_library_path : NULL);
    if (r) return r;
    uint64_t calls = 0;
    WGPUInstance instance = NULL;
    WGPUAdapter adapter = NULL;
    r = open_adapter(req, hl__wait_timeout_ns(desc ? desc->wait_timeout_ms : 0), &instance, &adapter, &calls);
    if (r) return r;
    r = check_features(adapter_features(adapter, &calls), req ? req->features : 0);
    if (!r && name && name_size) adapter_name(adapter, name, name_size, NULL, 0, &calls);
    hl__wgpu.AdapterRelease(adapter);
    hl__wgpu.InstanceProcessEvents(instance);
    hl__wgpu.InstanceRelease(instance);
    return r;
}

/* ---- capabilities --------------------------------------------------------------------------- */
static uint32_t clamp_u32(uint64_t v, uint32_t max) { return v > max ? max : (uint32_t)v; }

static void fill_limits(hl_rhi_limits *l, const WGPULimits *w) {
    l->max_texture_dimension_2d = w->maxTextureDimension2D;
    l->max_texture_array_layers = w->maxTextureArrayLayers;
    l->max_bind_groups = clamp_u32(w->maxBindGroups, HL_RHI_MAX_BIND_GROUPS);
    l->max_bindings_per_group = clamp_u32(w->maxBindingsPerBindGroup, HL_RHI_MAX_BINDINGS);
    l->max_uniform_buffers_per_stage = w->maxUniformBuffersPerShaderStage;
    l->max_sampled_textures_per_stage = w->maxSampledTexturesPerShaderStage;
    l->max_samplers_per_stage = w->maxSamplersPerShaderStage;
    l->max_storage_buffers_per_stage = w->maxStorageBuffersPerShaderStage;
    l->max_uniform_buffer_binding_size = clamp_u32(w->maxUniformBufferBindingSize, UINT32_MAX);
    l->max_storage_buffer_binding_size = clamp_u32(w->maxStorageBufferBindingSize, UINT32_MAX);
    l->min_uniform_buffer_offset_alignment = w->minUniformBufferOffsetAlignment;
    l->min_storage_buffer_offset_alignment = w->minStorageBufferOffsetAlignment;
    l->max_vertex_buffers = clamp_u32(w->maxVertexBuffers, HL_RHI_MAX_VERTEX_BUFFERS);
    l->max_vertex_attributes = clamp_u32(w->maxVertexAttributes, HL_RHI_MAX_VERTEX_ATTRIBUTES);
    l->max_vertex_buffer_array_stride = w->maxVertexBufferArrayStride;
    l->max_color_attachments = clamp_u32(w->maxColorAttachments, HL_RHI_MAX_COLOR_ATTACHMENTS);
    l->max_compute_workgroup_size_x = w->maxComputeWorkgroupSizeX;
    l->max_compute_workgroup_size_y = w->maxComputeWorkgroupSizeY;
    l->max_compute_workgroup_size_z = w->maxComputeWorkgroupSizeZ;
    l->max_compute_invocations_per_workgroup = w->maxComputeInvocationsPerWorkgroup;
    l->max_compute_workgroups_per_dimension = w->maxComputeWorkgroupsPerDimension;
}

/* The WebGPU specification's texture format capability table (core, no optional features
 * except float32-filterable). */
static void fill_format_caps(hl_rhi_caps *caps) {
    enum {
        S = HL_RHI_FORMAT_CAP_SAMPLED, F = HL_RHI_FORMAT_CAP_FILTERABLE, R = HL_RHI_FORMAT_CAP_RENDERABLE,
        B = HL_RHI_FORMAT_CAP_BLENDABLE, ST = HL_RHI_FORMAT_CAP_STORAGE, RS = HL_RHI_FORMAT_CAP_RESOLVE,
    };
    const uint32_t x1 = 1u, x14 = 1u | 4u; /* bit n: sample count 1 << n; 4x is bit 2 */
    static const struct { hl_rhi_format f; uint32_t flags; int msaa; } table[] = {
        {HL_RHI_FORMAT_R8_UNORM, S | F | R | B | RS, 1},
        {HL_RHI_FORMAT_RG8_UNORM, S | F | R | B | RS, 1},
        {HL_RHI_FORMAT_RGBA8_UNORM, S | F | R | B | ST | RS, 1},
        {HL_RHI_FORMAT_RGBA8_UNORM_SRGB, S | F | R | B | RS, 1},
        {HL_RHI_FORMAT_BGRA8_UNORM, S | F | R | B | RS, 1},
        {HL_RHI_FORMAT_R16_FLOAT, S | F | R | B | RS, 1},
        {HL_RHI_FORMAT_RG16_FLOAT, S | F | R | B | RS, 1},
        {HL_RHI_FORMAT_RGBA16_FLOAT, S | F | R | B | ST | RS, 1},
        {HL_RHI_FORMAT_R32_FLOAT, S | R | ST, 1},
        {HL_RHI_FORMAT_RG32_FLOAT, S | R | ST, 0},
        {HL_RHI_FORMAT_RGBA32_FLOAT, S | R | ST, 0},
        {HL_RHI_FORMAT_R32_UINT, S | R | ST, 0},
        {HL_RHI_FORMAT_RGBA8_UINT, S | R | ST, 1},
        {HL_RHI_FORMAT_RGB10A2_UNORM, S | F | R | B | RS, 1},
        {HL_RHI_FORMAT_DEPTH16_UNORM, S | R, 1},
        {HL_RHI_FORMAT_DEPTH24_PLUS, S | R, 1},
        {HL_RHI_FORMAT_DEPTH24_PLUS_STENCIL8, S | R, 1},
        {HL_RHI_FORMAT_DEPTH32_FLOAT, S | R, 1},
    };
    bool f32_filter = (caps->features & HL_RHI_FEATURE_FLOAT32_FILTERABLE) != 0;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        hl_rhi_format_caps *fc = &caps->formats[table[i].f];
        fc->flags = table[i].flags;
        fc->sample_counts = table[i].msaa ? x14 : x1;
        bool is_f32 = table[i].f == HL_RHI_FORMAT_R32_FLOAT || table[i].f == HL_RHI_FORMAT_RG32_FLOAT ||
                      table[i].f == HL_RHI_FORMAT_RGBA32_FLOAT;
        if (is_f32 && f32_filter) fc->flags |= F;
    }
}

/* ---- device ------------------------------------------------------------------------------- */
typedef struct device_request {
    hl__wgpu_req head;
    uint32_t status;
    WGPUDevice device;
    char message[512];
} device_request;

static void device_orphan(hl__wgpu_req *req) {
    device_request *dr = (device_request *)req;
    if (dr->device) hl__wgpu.DeviceRelease(dr->device);
}

static void on_device(uint32_t status, WGPUDevice device, WGPUStringView message, void *userdata1,
                      void *userdata2) {
    (void)userdata2;
    device_request *req = userdata1;
    req->status = status;
    req->device = device;
    copy_message(req->message, sizeof req->message, message);
    hl__wgpu_req_finish(&req->head);
}

static void wgpu_device_destroy(hl_rhi_device *dev);

static hl_result wgpu_device_create(hl_rhi_device *dev, const hl_rhi_device_desc *desc) {
    hl_result r = load_dawn(desc->dawn_library_path);
    if (r) return r;
    hl__wgpu_device *be = hl__calloc(1, sizeof *be);
    if (!be) return hl__fail(HL_ERR_OUT_OF_MEMORY, "webgpu: out of memory for the device state");
    dev->be = be;

    be->tracker = hl__calloc(1, sizeof *be->tracker);
    if (!be->tracker) {
        r = hl__fail(HL_ERR_OUT_OF_MEMORY, "webgpu: out of memory for the device state");
        goto fail;
    }
    r = open_adapter(&desc->requirements, dev->wait_timeout_ns, &be->instance, &be->adapter, &dev->stats.native_calls);
    if (r) goto fail;
    uint32_t features = adapter_features(be->adapter, &dev->stats.native_calls);
    r = check_features(features, desc->requirements.features);
    if (r) goto fail;

    /* timestamps only when asked for (a device without them has no timing work); Dawn rounds
       them to 100 us unless its quantization toggle is off */
    if (!desc->gpu_timing) features &= ~(uint32_t)HL_RHI_FEATURE_TIMESTAMP_QUERY;
    uint32_t required[3];
    size_t required_count = 0;
    if (features & HL_RHI_FEATURE_FLOAT32_FILTERABLE) required[required_count++] = WGPUFeatureName_Float32Filterable;
    if (WGPU(dev, AdapterHasFeature)(be->adapter, WGPUFeatureName_IndirectFirstInstance))
        required[required_count++] = WGPUFeatureName_IndirectFirstInstance;
    if (features & HL_RHI_FEATURE_TIMESTAMP_QUERY) required[required_count++] = WGPUFeatureName_TimestampQuery;
    static const char *const unquantized[] = {"timestamp_quantization"};
    DawnTogglesDescriptor toggles;
    memset(&toggles, 0, sizeof toggles);
    toggles.chain.sType = WGPUSType_DawnTogglesDescriptor;
    toggles.disabledToggleCount = 1;
    toggles.disabledToggles = unquantized;

    WGPUDeviceDescriptor dd;
    memset(&dd, 0, sizeof dd);
    if (features & HL_RHI_FEATURE_TIMESTAMP_QUERY) dd.nextInChain = &toggles.chain;
    dd.label = hl__wgpu_str(desc->label);
    dd.requiredFeatureCount = required_count;
    dd.requiredFeatures = required;
    dd.deviceLostCallbackInfo =
        (WGPUCallbackInfo){NULL, WGPUCallbackMode_AllowProcessEvents, (void (*)(void))on_device_lost, dev, NULL};
    dd.uncapturedErrorCallbackInfo = (WGPUUncapturedErrorCallbackInfo){NULL, on_uncaptured_error, dev, NULL};
    device_request *dr = hl__calloc(1, sizeof *dr);
    if (!dr) {
        r = hl__fail(HL_ERR_OUT_OF_MEMORY, "webgpu: out of memory for a device request");
        goto fail;
    }
    dr->head.orphan = device_orphan;
    WGPU(dev, AdapterRequestDevice)(be->adapter, &dd,
                                    (WGPUCallbackInfo){NULL, WGPUCallbackMode_AllowProcessEvents,
                                                       (void (*)(void))on_device, dr, NULL});
    if (!hl__wgpu_pump(NULL, be->instance, &dr->head, hl__deadline(dev->wait_timeout_ns), &dev->stats.native_calls)) {
        dr->head.abandoned = 1; /* releasing the instance (below) delivers it */
        char t[32];
        r = hl__fail(HL_ERR_TIMEOUT, "webgpu: no answer to the device request within %s",
                     hl__duration_text(dev->wait_timeout_ns, t, sizeof t));
        goto fail;
    }
    uint32_t dr_status = dr->status;
    be->device = dr->device;
    if (dr_status != WGPU_CALLBACK_STATUS_SUCCESS || !be->device) {
        r = hl__fail(HL_ERR_UNSUPPORTED, "webgpu: device request failed (status %u): %s", dr_status, dr->message);
        hl__free(dr);
        goto fail;
    }
    hl__free(dr);
    be->queue = WGPU(dev, DeviceGetQueue)(be->device);

    hl_rhi_caps *caps = &dev->caps;
    caps->backend = HL_RHI_BACKEND_WEBGPU;
    caps->features = features;
    caps->independent_blend = true;
    WGPULimits limits;
    memset(&limits, 0, sizeof limits);
    if (WGPU(dev, DeviceGetLimits)(be->device, &limits) != WGPUStatus_Success) {
        r = hl__fail(HL_ERR_BACKEND, "webgpu: wgpuDeviceGetLimits failed");
        goto fail;
    }
    fill_limits(&caps->limits, &limits);
    fill_format_caps(caps);
    if ((features & HL_RHI_FEATURE_TIMESTAMP_QUERY) && (r = hl__wgpu_timing_create(dev))) goto fail;
    adapter_name(be->adapter, caps->adapter_name, sizeof caps->adapter_name, caps->driver_info,
                 sizeof caps->driver_info, &dev->stats.native_calls);
    return HL_OK;

fail:
    wgpu_device_destroy(dev);
    return r;
}

/* Devices whose GPU work still ran at destroy: wgpuDeviceDestroy would wait until the GPU
 * finished (possibly never), so their native objects are kept here, reachable, until the
 * process exits. Only a runaway shader gets a device here. */
#define HL__WGPU_PARKED_MAX 16
static struct {
    WGPUInstance instance;
    WGPUAdapter adapter;
    WGPUDevice device;
    WGPUQueue queue;
} hl__wgpu_parked[HL__WGPU_PARKED_MAX];
static uint32_t hl__wgpu_parked_count;

static void park_device(hl__wgpu_device *be) {
    pthread_mutex_lock(&hl__wgpu_load_lock);
    if (hl__wgpu_parked_count < HL__WGPU_PARKED_MAX) {
        uint32_t i = hl__wgpu_parked_count++;
        hl__wgpu_parked[i].instance = be->instance;
        hl__wgpu_parked[i].adapter = be->adapter;
        hl__wgpu_parked[i].device = be->device;
        hl__wgpu_parked[i].queue = be->queue;
    }
    pthread_mutex_unlock(&hl__wgpu_load_lock);
}

static void wgpu_device_destroy(hl_rhi_device *dev) {
    hl__wgpu_device *be = hl__wgpu_be(dev);
    if (!be) return;
    if (be->compute_pass) WGPU(dev, ComputePassEncoderRelease)(be->compute_pass);
    if (be->render_pass) WGPU(dev, RenderPassEncoderRelease)(be->render_pass);
    if (be->encoder) WGPU(dev, CommandEncoderRelease)(be->encoder);
    be->compute_pass = NULL;
    be->render_pass = NULL;
    be->encoder = NULL;
    bool busy = false;
    if (be->device) {
        /* let outstanding work-done callbacks arrive (until the core's destroy deadline) */
        for (uint32_t spins = 0; be->tracker->pending && !dev->lost && hl__time_left(dev->destroy_deadline); spins++) {
            WGPU(dev, InstanceProcessEvents)(be->instance);
            if (be->tracker->pending && spins > 16) nap(20000);
        }
        busy = be->tracker->pending && !dev->lost;
        hl__wgpu_mipmap_release(dev);
        hl__wgpu_timing_destroy(dev);
        hl__wgpu_staging_destroy(dev);
    }
    be->destroying = true;
    if (busy) {
        /* the tracker stays with the callbacks Dawn still owes (reachable through the parked
         * instance) */
        be->tracker->orphaned = 1;
        park_device(be);
        hl__free(be);
        dev->be = NULL;
        hl__fail(HL_ERR_TIMEOUT, "webgpu: hl_rhi_device_destroy: the GPU was still busy at the wait timeout; the "
                                 "Dawn device is left alive (destroying it would block until the GPU finished)");
        return;
    }
    if (be->queue) WGPU(dev, QueueRelease)(be->queue);
    if (be->device) {
        WGPU(dev, DeviceDestroy)(be->device);
        WGPU(dev, DeviceRelease)(be->device);
    }
    if (be->instance) WGPU(dev, InstanceProcessEvents)(be->instance);
    if (be->adapter) WGPU(dev, AdapterRelease)(be->adapter);
    if (be->instance) WGPU(dev, InstanceRelease)(be->instance);
    /* Destroying the device cancels the outstanding callbacks; any that Dawn still owes free
     * the tracker when they come. */
    if (be->tracker) {
        if (be->tracker->pending)
            be->tracker->orphaned = 1;
        else
            hl__free(be->tracker);
    }
    hl__free(be);
    dev->be = NULL;
}

/* Delivers Dawn's pending events: a lost device's callback sets dev->lost. */
static void wgpu_check_lost(hl_rhi_device *dev) {
    hl__wgpu_device *be = hl__wgpu_be(dev);
    if (be && be->instance) WGPU(dev, InstanceProcessEvents)(be->instance);
}

/* Destroys the Dawn device: Dawn reports it lost (reason "destroyed") through the callback a
 * real loss takes, delivered by the events processed here. */
static void wgpu_simulate_loss(hl_rhi_device *dev) {
    hl__wgpu_device *be = hl__wgpu_be(dev);
    if (!be || !be->device) return;
    WGPU(dev, DeviceDestroy)(be->device);
    uint64_t deadline = hl__deadline(dev->wait_timeout_ns);
    for (uint32_t spins = 0; !dev->lost && hl__time_left(deadline); spins++) {
        WGPU(dev, InstanceProcessEvents)(be->instance);
        if (!dev->lost && spins > 16) nap(20000);
    }
}

const hl__rhi_backend_fns hl__rhi_webgpu_backend = {
    .backend = HL_RHI_BACKEND_WEBGPU,
    .name = "webgpu",
    .probe = wgpu_probe,
    .device_create = wgpu_device_create,
    .device_destroy = wgpu_device_destroy,
    .buffer_create = hl__wgpu_buffer_create,
    .buffer_destroy = hl__wgpu_buffer_destroy,
    .buffer_write = hl__wgpu_buffer_write,
    .buffer_read = hl__wgpu_buffer_read,
    .texture_create = hl__wgpu_texture_create,
    .texture_destroy = hl__wgpu_texture_destroy,
    .texture_write = hl__wgpu_texture_write,
    .texture_read = hl__wgpu_texture_read,
    .view_create = hl__wgpu_view_create,
    .view_destroy = hl__wgpu_view_destroy,
    .sampler_create = hl__wgpu_sampler_create,
    .sampler_destroy = hl__wgpu_sampler_destroy,
    .bgl_create = hl__wgpu_bgl_create,
    .bgl_destroy = hl__wgpu_bgl_destroy,
    .pipeline_layout_create = hl__wgpu_pipeline_layout_create,
    .pipeline_layout_destroy = hl__wgpu_pipeline_layout_destroy,
    .render_pipeline_create = hl__wgpu_render_pipeline_create,
    .render_pipeline_destroy = hl__wgpu_render_pipeline_destroy,
    .shader_create = hl__wgpu_shader_create,
    .shader_destroy = hl__wgpu_shader_destroy,
    .bind_group_create = hl__wgpu_bind_group_create,
    .bind_group_destroy = hl__wgpu_bind_group_destroy,
    .compute_pipeline_create = hl__wgpu_compute_pipeline_create,
    .compute_pipeline_destroy = hl__wgpu_compute_pipeline_destroy,
    .begin_frame = hl__wgpu_begin_frame,
    .end_frame = hl__wgpu_end_frame,
    .abort_frame = hl__wgpu_abort_frame,
    .poll = hl__wgpu_poll,
    .wait = hl__wgpu_wait,
    .begin_render_pass = hl__wgpu_begin_render_pass,
    .end_render_pass = hl__wgpu_end_render_pass,
    .set_pipeline = hl__wgpu_set_pipeline,
    .set_bind_group = hl__wgpu_set_bind_group,
    .set_vertex_buffer = hl__wgpu_set_vertex_buffer,
    .set_index_buffer = hl__wgpu_set_index_buffer,
    .set_viewport = hl__wgpu_set_viewport,
    .set_scissor = hl__wgpu_set_scissor,
    .set_blend_constant = hl__wgpu_set_blend_constant,
    .set_stencil_reference = hl__wgpu_set_stencil_reference,
    .draw = hl__wgpu_draw,
    .draw_indexed = hl__wgpu_draw_indexed,
    .draw_indirect = hl__wgpu_draw_indirect,
    .bundle_fns = &hl__rhi_webgpu_bundle_fns,
    .bundle_begin = hl__wgpu_bundle_begin,
    .bundle_end = hl__wgpu_bundle_end,
    .bundle_destroy = hl__wgpu_bundle_destroy,
    .execute_bundles = hl__wgpu_execute_bundles,
    .begin_compute_pass = hl__wgpu_begin_compute_pass,
    .end_compute_pass = hl__wgpu_end_compute_pass,
    .set_compute_pipeline = hl__wgpu_set_compute_pipeline,
    .dispatch = hl__wgpu_dispatch,
    .dispatch_indirect = hl__wgpu_dispatch_indirect,
    .copy_buffer_to_buffer = hl__wgpu_copy_buffer_to_buffer,
    .copy_texture_to_texture = hl__wgpu_copy_texture_to_texture,
    .copy_buffer_to_texture = hl__wgpu_copy_buffer_to_texture,
    .copy_texture_to_buffer = hl__wgpu_copy_texture_to_buffer,
    .clear_buffer = hl__wgpu_clear_buffer,
    .generate_mipmaps = hl__wgpu_generate_mipmaps,
    .surface_create = hl__wgpu_surface_create,
    .surface_destroy = hl__wgpu_surface_destroy,
    .surface_configure = hl__wgpu_surface_configure,
    .surface_acquire = hl__wgpu_surface_acquire,
    .surface_present = hl__wgpu_surface_present,
    .check_lost = wgpu_check_lost,
    .simulate_loss = wgpu_simulate_loss,
};
