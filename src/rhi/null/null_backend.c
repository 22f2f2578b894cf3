/* The null backend: no GPU. Objects get counter ids; buffers and textures keep CPU copies so
 * uploads, readbacks, copies and clears behave like a real device; draws only count. Every
 * function counts one native call, as a stand-in for a native API. Submissions complete at
 * the next poll or wait, or, with a simulated latency (hl__rhi_null_set_latency, for tests of
 * waits and timeouts), one after the other, each `latency` after the previous one. */
#include <string.h>
#include <time.h>

#include "rhi_internal.h"

#define HL__NULL_PENDING 64 /* simulated submissions in flight tracked */

typedef struct hl__null_device {
    uint64_t next_id;
    uint64_t submitted; /* highest serial submitted */
    uint64_t completed; /* highest serial complete */
    uint64_t latency_ns;
    /* simulated GPU queue: completion times, in submission order */
    struct { uint64_t serial, done_at; } pending[HL__NULL_PENDING];
    uint32_t pending_head, pending_count;
} hl__null_device;

static hl__null_device *hl__nd(hl_rhi_device *dev) { return dev->be; }
static uint64_t hl__null_id(hl_rhi_device *dev) { return ++hl__nd(dev)->next_id; }

static hl_result hl__null_probe(const hl_rhi_requirements *req, const hl_rhi_device_desc *desc, char *name, size_t size) {
    (void)req;
    (void)desc;
    if (name && size) {
        strncpy(name, "null device", size - 1);
        name[size - 1] = '\0';
    }
    return HL_OK;
}

static hl_result hl__null_device_create(hl_rhi_device *dev, const hl_rhi_device_desc *desc) {
    (void)desc;
    hl__null_device *nd = hl__calloc(1, sizeof *nd);
    if (!nd) return hl__fail(HL_ERR_OUT_OF_MEMORY, "null backend: out of memory");
    dev->be = nd;
    hl_rhi_caps *c = &dev->caps;
    c->backend = HL_RHI_BACKEND_NULL;
    c->independent_blend = true; /* WebGPU's rules */
    c->features = HL_RHI_FEATURE_COMPUTE | HL_RHI_FEATURE_STORAGE_BUFFER | HL_RHI_FEATURE_STORAGE_TEXTURE |
                  HL_RHI_FEATURE_INDIRECT_DRAW | HL_RHI_FEATURE_TEXTURE_1D | HL_RHI_FEATURE_BASE_VERTEX |
                  HL_RHI_FEATURE_FIRST_INSTANCE | HL_RHI_FEATURE_BUFFER_MAP_ASYNC | HL_RHI_FEATURE_FLOAT32_FILTERABLE;
    hl_rhi_limits *l = &c->limits;
    l->max_texture_dimension_2d = 8192;
    l->max_texture_array_layers = 256;
    l->max_bind_groups = 4;
    l->max_bindings_per_group = HL_RHI_MAX_BINDINGS;
    l->max_uniform_buffers_per_stage = 12;
    l->max_sampled_textures_per_stage = 16;
    l->max_samplers_per_stage = 16;
    l->max_storage_buffers_per_stage = 8;
    l->max_uniform_buffer_binding_size = 65536;
    l->max_storage_buffer_binding_size = 128u << 20;
    l->min_uniform_buffer_offset_alignment = 256;
    l->min_storage_buffer_offset_alignment = 256;
    l->max_vertex_buffers = 8;
    l->max_vertex_attributes = 16;
    l->max_vertex_buffer_array_stride = 2048;
    l->max_color_attachments = 4;
    l->max_compute_workgroup_size_x = 256;
    l->max_compute_workgroup_size_y = 256;
    l->max_compute_workgroup_size_z = 64;
    l->max_compute_invocations_per_workgroup = 256;
    l->max_compute_workgroups_per_dimension = 65535;
    for (int f = 1; f < HL_RHI_FORMAT_COUNT; f++) {
        c->formats[f].flags = HL_RHI_FORMAT_CAP_SAMPLED | HL_RHI_FORMAT_CAP_FILTERABLE | HL_RHI_FORMAT_CAP_RENDERABLE |
                              HL_RHI_FORMAT_CAP_BLENDABLE | HL_RHI_FORMAT_CAP_STORAGE | HL_RHI_FORMAT_CAP_RESOLVE;
        c->formats[f].sample_counts = 1u | 4u;
    }
    strncpy(c->adapter_name, "null device", sizeof c->adapter_name - 1);
    strncpy(c->driver_info, "hilo3d null backend", sizeof c->driver_info - 1);
    return HL_OK;
}

static void hl__null_device_destroy(hl_rhi_device *dev) {
    hl__free(dev->be);
    dev->be = NULL;
}

/* The null device has no native device to lose: the loss is its flag. */
static void hl__null_simulate_loss(hl_rhi_device *dev) { dev->lost = true; }

/* ---- buffers ---------------------------------------------------------------------------------- */
static hl_result hl__null_buffer_create(hl_rhi_device *dev, hl__buffer *buf, const void *initial_data) {
    HL__NATIVE(dev);
    if (buf->desc.size > SIZE_MAX) return hl__fail(HL_ERR_OUT_OF_MEMORY, "null backend: buffer too large");
    uint8_t *mem = hl__calloc(1, (size_t)buf->desc.size);
    if (!mem) return hl__fail(HL_ERR_OUT_OF_MEMORY, "null backend: out of memory for a %llu-byte buffer",
                              (unsigned long long)buf->desc.size);
    if (initial_data) memcpy(mem, initial_data, (size_t)buf->desc.size);
    buf->be.ptr = mem;
    return HL_OK;
}

static void hl__null_buffer_destroy(hl_rhi_device *dev, hl__buffer *buf) {
    HL__NATIVE(dev);
    hl__free(buf->be.ptr);
    buf->be.ptr = NULL;
}

static hl_result hl__null_buffer_write(hl_rhi_device *dev, hl__buffer *buf, uint64_t offset, const void *data,
                                       uint64_t size) {
    HL__NATIVE(dev);
    memcpy((uint8_t *)buf->be.ptr + offset, data, (size_t)size);
    return HL_OK;
}

static hl_result hl__null_buffer_read(hl_rhi_device *dev, hl__buffer *buf, uint64_t offset, void *dst, uint64_t size) {
    HL__NATIVE(dev);
    memcpy(dst, (const uint8_t *)buf->be.ptr + offset, (size_t)size);
    return HL_OK;
}

/* ---- textures: every mip level holds depth_or_layers images, tightly packed ------------------ */
static uint64_t hl__null_level_offset(const hl_rhi_texture_desc *d, uint32_t texel, uint32_t level) {
    uint64_t off = 0;
    for (uint32_t m = 0; m < level; m++) {
        uint32_t depth = d->dimension == HL_RHI_TEXTURE_3D ? hl__mip_extent(d->depth_or_layers, m) : d->depth_or_layers;
        off += (uint64_t)hl__mip_extent(d->width, m) * hl__mip_extent(d->height, m) * depth * texel;
    }
    return off;
}

static hl_result hl__null_texture_create(hl_rhi_device *dev, hl__texture *tex) {
    HL__NATIVE(dev);
    uint32_t texel = hl__format_texel_size(tex->desc.format);
    if (!texel || tex->desc.sample_count != 1) {
        tex->be.u64 = hl__null_id(dev) | (1ull << 63); /* no CPU storage: not copyable */
        return HL_OK;
    }
    uint64_t size = hl__null_level_offset(&tex->desc, texel, tex->desc.mip_levels);
    uint8_t *mem = hl__calloc(1, (size_t)size);
    if (!mem) return hl__fail(HL_ERR_OUT_OF_MEMORY, "null backend: out of memory for a texture");
    tex->be.ptr = mem;
    return HL_OK;
}

static bool hl__null_texture_has_storage(const hl__texture *tex) {
    return hl__format_texel_size(tex->desc.format) && tex->desc.sample_count == 1;
}

static void hl__null_texture_destroy(hl_rhi_device *dev, hl__texture *tex) {
    HL__NATIVE(dev);
    if (hl__null_texture_has_storage(tex)) hl__free(tex->be.ptr);
    tex->be.ptr = NULL;
}

static uint8_t *hl__null_texel(const hl__texture *tex, uint32_t level, uint32_t x, uint32_t y, uint32_t z) {
    const hl_rhi_texture_desc *d = &tex->desc;
    uint32_t texel = hl__format_texel_size(d->format);
    uint64_t w = hl__mip_extent(d->width, level), h = hl__mip_extent(d->height, level);
    return (uint8_t *)tex->be.ptr + hl__null_level_offset(d, texel, level) + ((z * h + y) * w + x) * texel;
}

/* Copies rows between texture memory and a linear layout (to_texture chooses the direction). */
static void hl__null_texture_rows(hl__texture *tex, const hl_rhi_texture_region *r, uint8_t *linear, uint32_t row_pitch,
                                  uint64_t image_pitch, bool to_texture) {
    uint32_t texel = hl__format_texel_size(tex->desc.format);
    size_t row = (size_t)r->width * texel;
    for (uint32_t z = 0; z < r->depth_or_layers; z++) {
        for (uint32_t y = 0; y < r->height; y++) {
            uint8_t *t = hl__null_texel(tex, r->mip_level, r->x, r->y + y, r->z_or_layer + z);
            uint8_t *l = linear + z * image_pitch + (uint64_t)y * row_pitch;
            if (to_texture) {
                memcpy(t, l, row);
            } else {
                memcpy(l, t, row);
            }
        }
    }
}

static hl_result hl__null_texture_write(hl_rhi_device *dev, hl__texture *tex, const hl_rhi_texture_region *region,
                                        const void *data, uint32_t row_pitch) {
    HL__NATIVE(dev);
    if (!hl__null_texture_has_storage(tex)) return HL_OK;
    hl__null_texture_rows(tex, region, (uint8_t *)(uintptr_t)data, row_pitch, (uint64_t)row_pitch * region->height, true);
    return HL_OK;
}

static hl_result hl__null_texture_read(hl_rhi_device *dev, hl__texture *tex, const hl_rhi_texture_region *region,
                                       void *dst, uint32_t dst_row_pitch) {
    HL__NATIVE(dev);
    if (!hl__null_texture_has_storage(tex)) return HL_OK;
    hl__null_texture_rows(tex, region, dst, dst_row_pitch, (uint64_t)dst_row_pitch * region->height, false);
    return HL_OK;
}

/* ---- objects that only need an identity ---------------------------------------------------- */
static hl_result hl__null_view_create(hl_rhi_device *dev, hl__texture *tex, hl__texture_view *view) {
    (void)tex;
    HL__NATIVE(dev);
    view->be.u64 = hl__null_id(dev);
    return HL_OK;
}
static void hl__null_view_destroy(hl_rhi_device *dev, hl__texture_view *view) {
    (void)view;
    HL__NATIVE(dev);
}
static hl_result hl__null_sampler_create(hl_rhi_device *dev, const hl_rhi_sampler_desc *desc, hl__native *be) {
    (void)desc;
    HL__NATIVE(dev);
    be->u64 = hl__null_id(dev);
    return HL_OK;
}
static void hl__null_native_destroy(hl_rhi_device *dev, hl__native be) {
    (void)be;
    HL__NATIVE(dev);
}
static hl_result hl__null_bgl_create(hl_rhi_device *dev, const hl__bind_group_layout *layout, hl__native *be) {
    (void)layout;
    HL__NATIVE(dev);
    be->u64 = hl__null_id(dev);
    return HL_OK;
}
static hl_result hl__null_pipeline_layout_create(hl_rhi_device *dev, const hl__pipeline_layout *layout,
                                                 hl__bind_group_layout *const *groups, hl__native *be) {
    (void)layout;
    (void)groups;
    HL__NATIVE(dev);
    be->u64 = hl__null_id(dev);
    return HL_OK;
}
static hl_result hl__null_render_pipeline_create(hl_rhi_device *dev, const hl__render_pipeline_info *info, hl__native *be) {
    (void)info;
    HL__NATIVE(dev);
    be->u64 = hl__null_id(dev);
    return HL_OK;
}
static hl_result hl__null_shader_create(hl_rhi_device *dev, const hl_rhi_shader_desc *desc, hl__shader *shader) {
    (void)desc;
    HL__NATIVE(dev);
    shader->be.u64 = hl__null_id(dev);
    return HL_OK;
}
static void hl__null_shader_destroy(hl_rhi_device *dev, hl__shader *shader) {
    (void)shader;
    HL__NATIVE(dev);
}
static hl_result hl__null_bind_group_create(hl_rhi_device *dev, hl__bind_group *group, hl__bind_group_layout *layout) {
    (void)layout;
    HL__NATIVE(dev);
    group->be.u64 = hl__null_id(dev);
    return HL_OK;
}
static void hl__null_bind_group_destroy(hl_rhi_device *dev, hl__bind_group *group) {
    (void)group;
    HL__NATIVE(dev);
}
static hl_result hl__null_compute_pipeline_create(hl_rhi_device *dev, hl__compute_pipeline *p) {
    HL__NATIVE(dev);
    p->be.u64 = hl__null_id(dev);
    return HL_OK;
}
static void hl__null_compute_pipeline_destroy(hl_rhi_device *dev, hl__compute_pipeline *p) {
    (void)p;
    HL__NATIVE(dev);
}

/* ---- frames ---------------------------------------------------------------------------------- */
static hl_result hl__null_begin_frame(hl_rhi_device *dev, uint64_t serial) {
    (void)serial;
    HL__NATIVE(dev);
    return HL_OK;
}
void hl__rhi_null_set_latency(hl_rhi_device *dev, uint64_t latency_ns) {
    if (dev && dev->caps.backend == HL_RHI_BACKEND_NULL && dev->be) hl__nd(dev)->latency_ns = latency_ns;
}

static hl_result hl__null_end_frame(hl_rhi_device *dev, uint64_t serial) {
    HL__NATIVE(dev);
    hl__null_device *nd = hl__nd(dev);
    nd->submitted = serial;
    if (!nd->latency_ns && !nd->pending_count) {
        nd->completed = serial;
        return HL_OK;
    }
    /* A full queue folds its oldest entry into the next one (that serial completes with it). */
    if (nd->pending_count == HL__NULL_PENDING) {
        nd->pending_head = (nd->pending_head + 1u) % HL__NULL_PENDING;
        nd->pending_count--;
    }
    uint64_t start = hl__now_ns();
    if (nd->pending_count) {
        uint64_t prev = nd->pending[(nd->pending_head + nd->pending_count - 1u) % HL__NULL_PENDING].done_at;
        if (prev > start) start = prev;
    }
    uint32_t i = (nd->pending_head + nd->pending_count) % HL__NULL_PENDING;
    nd->pending[i].serial = serial;
    nd->pending[i].done_at = start + nd->latency_ns;
    nd->pending_count++;
    return HL_OK;
}

/* Pops the simulated submissions whose time has come. */
static void hl__null_retire(hl__null_device *nd) {
    uint64_t now = hl__now_ns();
    while (nd->pending_count && nd->pending[nd->pending_head].done_at <= now) {
        nd->completed = nd->pending[nd->pending_head].serial;
        nd->pending_head = (nd->pending_head + 1u) % HL__NULL_PENDING;
        nd->pending_count--;
    }
    if (!nd->pending_count) nd->completed = nd->submitted;
}
static void hl__null_abort_frame(hl_rhi_device *dev, uint64_t serial) {
    (void)serial;
    HL__NATIVE(dev);
}
static hl_result hl__null_poll(hl_rhi_device *dev, uint64_t *completed) {
    HL__NATIVE(dev);
    hl__null_retire(hl__nd(dev));
    *completed = hl__nd(dev)->completed;
    return HL_OK;
}
static hl_result hl__null_wait(hl_rhi_device *dev, uint64_t serial, uint64_t timeout_ns) {
    HL__NATIVE(dev);
    hl__null_device *nd = hl__nd(dev);
    uint64_t deadline = hl__deadline(timeout_ns);
    for (;;) {
        hl__null_retire(nd);
        if (nd->completed >= serial || !nd->pending_count) return HL_OK;
        uint64_t left = hl__time_left(deadline);
        if (!left) {
            char t[32];
            return hl__fail(HL_ERR_TIMEOUT, "null: submission %llu still runs after %s (simulated latency)",
                            (unsigned long long)serial, hl__duration_text(timeout_ns, t, sizeof t));
        }
        /* sleep until the oldest pending submission completes, or the deadline */
        uint64_t until = nd->pending[nd->pending_head].done_at, now = hl__now_ns();
        uint64_t nap = until > now ? until - now : 0;
        if (nap > left) nap = left;
        struct timespec ts = {(time_t)(nap / 1000000000u), (long)(nap % 1000000000u)};
        nanosleep(&ts, NULL);
    }
}

/* ---- commands -------------------------------------------------------------------------------- */
static hl_result hl__null_begin_render_pass(hl_rhi_cmd *cmd, const hl__render_pass_info *rp) {
    (void)rp;
    HL__NATIVE(cmd->dev);
    return HL_OK;
}
static hl_result hl__null_end_pass(hl_rhi_cmd *cmd) {
    HL__NATIVE(cmd->dev);
    return HL_OK;
}
static void hl__null_set_pipeline(hl_rhi_cmd *cmd, hl__render_pipeline *p) {
    (void)p;
    HL__NATIVE(cmd->dev);
}
static void hl__null_set_bind_group(hl_rhi_cmd *cmd, uint32_t index, hl__bind_group *g, const uint32_t *offsets,
                                    uint32_t count) {
    (void)index;
    (void)g;
    (void)offsets;
    (void)count;
    HL__NATIVE(cmd->dev);
}
static void hl__null_set_vertex_buffer(hl_rhi_cmd *cmd, uint32_t slot, hl__buffer *buf, uint64_t offset) {
    (void)slot;
    (void)buf;
    (void)offset;
    HL__NATIVE(cmd->dev);
}
static void hl__null_set_index_buffer(hl_rhi_cmd *cmd, hl__buffer *buf, hl_rhi_index_format format, uint64_t offset) {
    (void)buf;
    (void)format;
    (void)offset;
    HL__NATIVE(cmd->dev);
}
static void hl__null_set_viewport(hl_rhi_cmd *cmd, const float v[6]) {
    (void)v;
    HL__NATIVE(cmd->dev);
}
static void hl__null_set_scissor(hl_rhi_cmd *cmd, const uint32_t s[4]) {
    (void)s;
    HL__NATIVE(cmd->dev);
}
static void hl__null_set_blend_constant(hl_rhi_cmd *cmd, const float c[4]) {
    (void)c;
    HL__NATIVE(cmd->dev);
}
static void hl__null_set_stencil_reference(hl_rhi_cmd *cmd, uint32_t ref) {
    (void)ref;
    HL__NATIVE(cmd->dev);
}
static void hl__null_draw(hl_rhi_cmd *cmd, uint32_t vertex_count, uint32_t instance_count, uint32_t first_vertex,
                          uint32_t first_instance) {
    (void)vertex_count;
    (void)instance_count;
    (void)first_vertex;
    (void)first_instance;
    HL__NATIVE(cmd->dev);
}
static void hl__null_draw_indexed(hl_rhi_cmd *cmd, uint32_t index_count, uint32_t instance_count, uint32_t first_index,
                                  int32_t base_vertex, uint32_t first_instance) {
    (void)index_count;
    (void)instance_count;
    (void)first_index;
    (void)base_vertex;
    (void)first_instance;
    HL__NATIVE(cmd->dev);
}
static void hl__null_draw_indirect(hl_rhi_cmd *cmd, hl__buffer *buf, uint64_t offset, bool indexed) {
    (void)buf;
    (void)offset;
    (void)indexed;
    HL__NATIVE(cmd->dev);
}
static hl_result hl__null_begin_compute_pass(hl_rhi_cmd *cmd, const char *label) {
    (void)label;
    HL__NATIVE(cmd->dev);
    return HL_OK;
}
static void hl__null_set_compute_pipeline(hl_rhi_cmd *cmd, hl__compute_pipeline *p) {
    (void)p;
    HL__NATIVE(cmd->dev);
}
static void hl__null_dispatch(hl_rhi_cmd *cmd, uint32_t x, uint32_t y, uint32_t z) {
    (void)x;
    (void)y;
    (void)z;
    HL__NATIVE(cmd->dev);
}
static void hl__null_dispatch_indirect(hl_rhi_cmd *cmd, hl__buffer *buf, uint64_t offset) {
    (void)buf;
    (void)offset;
    HL__NATIVE(cmd->dev);
}

/* Copies execute at record time: the null device has no queue to reorder them against. */
static hl_result hl__null_copy_buffer_to_buffer(hl_rhi_cmd *cmd, hl__buffer *src, uint64_t src_offset, hl__buffer *dst,
                                                uint64_t dst_offset, uint64_t size) {
    HL__NATIVE(cmd->dev);
    memmove((uint8_t *)dst->be.ptr + dst_offset, (const uint8_t *)src->be.ptr + src_offset, (size_t)size);
    return HL_OK;
}
static hl_result hl__null_copy_texture_to_texture(hl_rhi_cmd *cmd, hl__texture *src, const hl_rhi_texture_region *sr,
                                                  hl__texture *dst, const hl_rhi_texture_region *dr) {
    HL__NATIVE(cmd->dev);
    uint32_t texel = hl__format_texel_size(src->desc.format);
    size_t row = (size_t)sr->width * texel;
    for (uint32_t z = 0; z < sr->depth_or_layers; z++) {
        for (uint32_t y = 0; y < sr->height; y++) {
            memmove(hl__null_texel(dst, dr->mip_level, dr->x, dr->y + y, dr->z_or_layer + z),
                    hl__null_texel(src, sr->mip_level, sr->x, sr->y + y, sr->z_or_layer + z), row);
        }
    }
    return HL_OK;
}
static hl_result hl__null_copy_buffer_to_texture(hl_rhi_cmd *cmd, hl__buffer *src, uint64_t src_offset,
                                                 uint32_t bytes_per_row, hl__texture *dst, const hl_rhi_texture_region *dr) {
    HL__NATIVE(cmd->dev);
    hl__null_texture_rows(dst, dr, (uint8_t *)src->be.ptr + src_offset, bytes_per_row, (uint64_t)bytes_per_row * dr->height,
                          true);
    return HL_OK;
}
static hl_result hl__null_copy_texture_to_buffer(hl_rhi_cmd *cmd, hl__texture *src, const hl_rhi_texture_region *sr,
                                                 hl__buffer *dst, uint64_t dst_offset, uint32_t bytes_per_row) {
    HL__NATIVE(cmd->dev);
    hl__null_texture_rows(src, sr, (uint8_t *)dst->be.ptr + dst_offset, bytes_per_row, (uint64_t)bytes_per_row * sr->height,
                          false);
    return HL_OK;
}
static hl_result hl__null_clear_buffer(hl_rhi_cmd *cmd, hl__buffer *buf, uint64_t offset, uint64_t size) {
    HL__NATIVE(cmd->dev);
    memset((uint8_t *)buf->be.ptr + offset, 0, (size_t)size);
    return HL_OK;
}
static hl_result hl__null_generate_mipmaps(hl_rhi_cmd *cmd, hl__texture *tex) {
    HL__NATIVE(cmd->dev);
    if (!hl__null_texture_has_storage(tex)) return HL_OK;
    /* 2x2 box filter per byte channel for 8-bit formats; other formats copy the top-left texel. */
    uint32_t texel = hl__format_texel_size(tex->desc.format);
    bool bytes = tex->desc.format == HL_RHI_FORMAT_R8_UNORM || tex->desc.format == HL_RHI_FORMAT_RG8_UNORM ||
                 tex->desc.format == HL_RHI_FORMAT_RGBA8_UNORM || tex->desc.format == HL_RHI_FORMAT_RGBA8_UNORM_SRGB ||
                 tex->desc.format == HL_RHI_FORMAT_BGRA8_UNORM;
    for (uint32_t m = 1; m < tex->desc.mip_levels; m++) {
        uint32_t w = hl__mip_extent(tex->desc.width, m), h = hl__mip_extent(tex->desc.height, m);
        uint32_t pw = hl__mip_extent(tex->desc.width, m - 1), ph = hl__mip_extent(tex->desc.height, m - 1);
        for (uint32_t y = 0; y < h; y++) {
            for (uint32_t x = 0; x < w; x++) {
                uint32_t x0 = 2 * x < pw ? 2 * x : pw - 1, y0 = 2 * y < ph ? 2 * y : ph - 1;
                uint32_t x1 = x0 + 1 < pw ? x0 + 1 : x0, y1 = y0 + 1 < ph ? y0 + 1 : y0;
                uint8_t *d = hl__null_texel(tex, m, x, y, 0);
                if (!bytes) {
                    memcpy(d, hl__null_texel(tex, m - 1, x0, y0, 0), texel);
                    continue;
                }
                for (uint32_t c = 0; c < texel; c++) {
                    unsigned s = hl__null_texel(tex, m - 1, x0, y0, 0)[c] + hl__null_texel(tex, m - 1, x1, y0, 0)[c] +
                                 hl__null_texel(tex, m - 1, x0, y1, 0)[c] + hl__null_texel(tex, m - 1, x1, y1, 0)[c];
                    d[c] = (uint8_t)((s + 2) / 4);
                }
            }
        }
    }
    return HL_OK;
}

const hl__rhi_backend_fns hl__rhi_null_backend = {
    .backend = HL_RHI_BACKEND_NULL,
    .name = "null",
    .probe = hl__null_probe,
    .device_create = hl__null_device_create,
    .device_destroy = hl__null_device_destroy,
    .buffer_create = hl__null_buffer_create,
    .buffer_destroy = hl__null_buffer_destroy,
    .buffer_write = hl__null_buffer_write,
    .buffer_read = hl__null_buffer_read,
    .texture_create = hl__null_texture_create,
    .texture_destroy = hl__null_texture_destroy,
    .texture_write = hl__null_texture_write,
    .texture_read = hl__null_texture_read,
    .view_create = hl__null_view_create,
    .view_destroy = hl__null_view_destroy,
    .sampler_create = hl__null_sampler_create,
    .sampler_destroy = hl__null_native_destroy,
    .bgl_create = hl__null_bgl_create,
    .bgl_destroy = hl__null_native_destroy,
    .pipeline_layout_create = hl__null_pipeline_layout_create,
    .pipeline_layout_destroy = hl__null_native_destroy,
    .render_pipeline_create = hl__null_render_pipeline_create,
    .render_pipeline_destroy = hl__null_native_destroy,
    .shader_create = hl__null_shader_create,
    .shader_destroy = hl__null_shader_destroy,
    .bind_group_create = hl__null_bind_group_create,
    .bind_group_destroy = hl__null_bind_group_destroy,
    .compute_pipeline_create = hl__null_compute_pipeline_create,
    .compute_pipeline_destroy = hl__null_compute_pipeline_destroy,
    .begin_frame = hl__null_begin_frame,
    .end_frame = hl__null_end_frame,
    .abort_frame = hl__null_abort_frame,
    .poll = hl__null_poll,
    .wait = hl__null_wait,
    .begin_render_pass = hl__null_begin_render_pass,
    .end_render_pass = hl__null_end_pass,
    .set_pipeline = hl__null_set_pipeline,
    .set_bind_group = hl__null_set_bind_group,
    .set_vertex_buffer = hl__null_set_vertex_buffer,
    .set_index_buffer = hl__null_set_index_buffer,
    .set_viewport = hl__null_set_viewport,
    .set_scissor = hl__null_set_scissor,
    .set_blend_constant = hl__null_set_blend_constant,
    .set_stencil_reference = hl__null_set_stencil_reference,
    .draw = hl__null_draw,
    .draw_indexed = hl__null_draw_indexed,
    .draw_indirect = hl__null_draw_indirect,
    .begin_compute_pass = hl__null_begin_compute_pass,
    .end_compute_pass = hl__null_end_pass,
    .set_compute_pipeline = hl__null_set_compute_pipeline,
    .dispatch = hl__null_dispatch,
    .dispatch_indirect = hl__null_dispatch_indirect,
    .copy_buffer_to_buffer = hl__null_copy_buffer_to_buffer,
    .copy_texture_to_texture = hl__null_copy_texture_to_texture,
    .copy_buffer_to_texture = hl__null_copy_buffer_to_texture,
    .copy_texture_to_buffer = hl__null_copy_texture_to_buffer,
    .clear_buffer = hl__null_clear_buffer,
    .generate_mipmaps = hl__null_generate_mipmaps,
    .simulate_loss = hl__null_simulate_loss,
};
