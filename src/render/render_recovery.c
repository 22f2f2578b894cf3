/* Device loss and recovery (renderer.h, "Device loss"): the coordinator that notices a loss,
 * gates the calls that need the device, makes a replacement device of the same backend, checks
 * it against the first device's capabilities and the pipeline's requirements, and rebuilds every
 * GPU object from its recipe. hl_renderer_release_gpu_resources takes the same drop and rebuild
 * path without a new device.
 *
 * Drop: everything the renderer created on the device is destroyed through the RHI (on a lost
 * device those calls only forget the objects; hl_rhi_device_recreate then releases what is left)
 * and its records emptied: the pipeline runtime's persistent targets, the frame graph (transient
 * textures), targets' attachments, compute and storage objects, mirrors, programs, pipelines,
 * environments, the window's surface. Rebuild: the graph, the shared objects, targets'
 * attachments, compute and storage objects, the window's surface (made and configured) now;
 * mirrors, programs and pipelines when frames draw them again (their scene
 * objects hold the data, and revisions, generations and program ids are new, so no prepared
 * draw survives). */
#include <string.h>

#include "render_internal.h"

/* The first device's capabilities must all be there: features, every limit (alignments no
 * coarser), every format capability and sample count, the same clip-space convention. */
static hl_result caps_superset(const hl_rhi_caps *had, const hl_rhi_caps *has) {
    const char *fn = "renderer recovery";
    uint32_t missing = had->features & ~has->features;
    if (missing) {
        uint32_t bit = missing & (~missing + 1u);
        return hl__fail(HL_ERR_UNSUPPORTED, "%s: the new device (%s) lacks feature \"%s\", which the lost one had", fn,
                        has->adapter_name, hl_rhi_feature_name(bit));
    }
    static const struct {
        const char *name;
        size_t offset;
        bool smaller_is_better;
    } limits[] = {
#define L(f, s) {#f, offsetof(hl_rhi_limits, f), s}
        L(max_texture_dimension_2d, false),          L(max_texture_array_layers, false),
        L(max_bind_groups, false),                   L(max_bindings_per_group, false),
        L(max_uniform_buffers_per_stage, false),     L(max_sampled_textures_per_stage, false),
        L(max_samplers_per_stage, false),            L(max_storage_buffers_per_stage, false),
        L(max_uniform_buffer_binding_size, false),   L(max_storage_buffer_binding_size, false),
        L(min_uniform_buffer_offset_alignment, true), L(min_storage_buffer_offset_alignment, true),
        L(max_vertex_buffers, false),                L(max_vertex_attributes, false),
        L(max_vertex_buffer_array_stride, false),    L(max_color_attachments, false),
        L(max_compute_workgroup_size_x, false),      L(max_compute_workgroup_size_y, false),
        L(max_compute_workgroup_size_z, false),      L(max_compute_invocations_per_workgroup, false),
        L(max_compute_workgroups_per_dimension, false),
#undef L
    };
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
        uint32_t a, b;
        memcpy(&a, (const char *)&had->limits + limits[i].offset, sizeof a);
        memcpy(&b, (const char *)&has->limits + limits[i].offset, sizeof b);
        if (limits[i].smaller_is_better ? b > a : b < a)
            return hl__fail(HL_ERR_UNSUPPORTED, "%s: the new device (%s) has %s %u; the lost one had %u", fn,
                            has->adapter_name, limits[i].name, b, a);
    }
    for (uint32_t f = 1; f < HL_RHI_FORMAT_COUNT; f++) {
        const hl_rhi_format_caps *a = &had->formats[f], *b = &has->formats[f];
        if ((a->flags & ~b->flags) || (a->sample_counts & ~b->sample_counts))
            return hl__fail(HL_ERR_UNSUPPORTED, "%s: the new device (%s) supports format %s with fewer capabilities "
                            "(flags 0x%x, samples 0x%x) than the lost one (0x%x, 0x%x)", fn, has->adapter_name,
                            hl_rhi_format_get_info((hl_rhi_format)f)->name, b->flags, b->sample_counts, a->flags,
                            a->sample_counts);
    }
    if (had->clip_depth_negative_one != has->clip_depth_negative_one || (had->independent_blend && !has->independent_blend))
        return hl__fail(HL_ERR_UNSUPPORTED, "%s: the new device (%s) differs in clip depth or blend conventions", fn,
                        has->adapter_name);
    return HL_OK;
}

static void gpu_drop(hl_renderer *r) {
    hl__retained_drop(r);
    hl__bundles_drop(r);
    if (r->host.gpu_release) r->host.gpu_release(r->host.user);
    if (r->graph) hl_graph_destroy(r->graph);
    r->graph = NULL;
    r->graph_ok = false;
    hl__present_gpu_drop(r); /* the window's surface goes with its device */
    hl__targets_drop(r);
    hl__storage_gpu_drop(r);
    hl__storage_shaders_gpu_drop(r);
    hl__compute_gpu_drop(r);
    hl__render_release_retired(r);
    hl__render_fullscreen_free(r); /* before the programs: the groups use their layouts */
    hl__render_ubufs_free(r);
    hl__render_resources_free(r); /* material mirrors first: they hold uses of programs */
    hl__render_programs_free(r);
    /* per-frame records that name GPU objects or mirrors */
    for (uint32_t i = 0; i < HL__MAX_VIEWS; i++) r->sort_cache[i].count = 0;
    r->draw_count = r->view_count = r->list_count = r->list_item_count = 0;
    r->evict_epoch++;
}

static hl_result gpu_rebuild(hl_renderer *r) {
    hl_graph_desc gd = {r->dev, 0, "renderer"};
    hl_result res = r->graph ? HL_OK : hl_graph_create(&gd, &r->graph);
    if (!res) res = hl__render_resources_init(r);
    if (!res) res = hl__targets_rebuild(r);
    if (!res) res = hl__compute_gpu_rebuild(r);
    if (!res) res = hl__storage_shaders_gpu_rebuild(r);
    if (!res) res = hl__storage_gpu_rebuild(r);
    if (!res) res = hl__present_gpu_rebuild(r); /* the surface made and configured again */
    if (res) {
        /* whatever was made goes again: the next call starts over */
        char msg[400];
        snprintf(msg, sizeof msg, "%s", hl_last_error());
        gpu_drop(r);
        return hl__fail(res, "renderer: rebuilding the GPU objects failed: %s", msg);
    }
    r->gpu_state = HL__GPU_LIVE;
    return HL_OK;
}

static void note_loss(hl_renderer *r) {
    if (r->gpu_state == HL__GPU_LOST) return;
    r->gpu_state = HL__GPU_LOST;
    const char *why = hl_rhi_device_lost_reason(r->dev);
    snprintf(r->lost_reason, sizeof r->lost_reason, "%s",
             why[0] ? why : hl_last_error()[0] ? hl_last_error() : "the device was lost");
    if (r->desc.device_lost)
        r->desc.device_lost(r, hl_rhi_device_generation(r->dev), r->lost_reason, r->desc.event_user);
}

hl_result hl__renderer_after(hl_renderer *r, hl_result res) {
    /* a failure asks the device whether it was lost (gles3 polls the context then); success
       only reads the flag the RHI keeps (no native call) */
    bool lost = r->gpu_state == HL__GPU_LOST || (res ? hl_rhi_device_check_lost(r->dev) : hl_rhi_device_is_lost(r->dev));
    if (!lost) return res;
    if (res && res != HL_ERR_DEVICE_LOST) {
        char msg[400];
        snprintf(msg, sizeof msg, "%s", hl_last_error());
        res = hl__fail(HL_ERR_DEVICE_LOST, "the device was lost (%s)", msg);
    }
    note_loss(r);
    return res;
}

static hl_result recover(hl_renderer *r) {
    gpu_drop(r);
    hl_result res = hl_rhi_device_recreate(r->dev);
    const hl_rhi_caps *caps = hl_rhi_device_caps(r->dev);
    if (!res) res = caps_superset(&r->created_caps, caps);
    if (!res && r->host.revalidate) res = r->host.revalidate(r->host.user, caps);
    if (!res) {
        r->gpu_state = HL__GPU_RELEASED;
        res = gpu_rebuild(r);
    }
    if (res) {
        char msg[400];
        snprintf(msg, sizeof msg, "%s", hl_last_error());
        r->gpu_state = HL__GPU_LOST;
        return hl__fail(res, "renderer: recovery after the device loss (%s) failed: %s", r->lost_reason, msg);
    }
    r->recoveries++;
    r->stats.device_recoveries = r->recoveries;
    r->stats.device_generation = hl_rhi_device_generation(r->dev);
    if (r->desc.device_recovered)
        r->desc.device_recovered(r, hl_rhi_device_generation(r->dev), caps->adapter_name, r->desc.event_user);
    return HL_OK;
}

hl_result hl__renderer_ready(hl_renderer *r, const char *fn, bool may_recover) {
    if (r->gpu_state == HL__GPU_LIVE && !hl_rhi_device_is_lost(r->dev)) return HL_OK;
    if (r->gpu_state != HL__GPU_LOST && hl_rhi_device_is_lost(r->dev)) {
        hl__fail(HL_ERR_DEVICE_LOST, "%s: the device was lost", fn);
        note_loss(r);
    }
    if (r->gpu_state == HL__GPU_LOST) {
        if (!may_recover)
            return hl__fail(HL_ERR_DEVICE_LOST, "%s: the device was lost (%s); a render call or hl_renderer_recover "
                            "recovers it", fn, r->lost_reason);
        return recover(r);
    }
    return gpu_rebuild(r); /* released */
}

/* ---- public ---------------------------------------------------------------------------------------- */
static hl_result check_call(hl_renderer *r, const char *fn) {
    if (!r) return hl__fail(HL_ERR_VALIDATION, "%s: r is NULL", fn);
    return hl_rhi_device_check_thread(r->dev, fn);
}

hl_result hl_renderer_simulate_device_loss(hl_renderer *r) {
    const char *fn = "hl_renderer_simulate_device_loss";
    hl_result res = check_call(r, fn);
    if (res) return res;
    if (r->gpu_state != HL__GPU_LOST && !hl_rhi_device_is_lost(r->dev)) {
        res = hl_rhi_device_simulate_loss(r->dev);
        if (res) return res;
    }
    hl__renderer_after(r, HL_OK);
    return r->gpu_state == HL__GPU_LOST ? HL_OK : hl__fail(HL_ERR_BACKEND, "%s: the loss was not noticed", fn);
}

bool hl_renderer_device_lost(hl_renderer *r) {
    if (check_call(r, "hl_renderer_device_lost")) return false;
    if (hl_rhi_device_check_lost(r->dev)) hl__renderer_after(r, HL_OK);
    return r->gpu_state == HL__GPU_LOST;
}

hl_result hl_renderer_recover(hl_renderer *r) {
    const char *fn = "hl_renderer_recover";
    hl_result res = check_call(r, fn);
    if (res) return res;
    if (r->in_frame || r->in_record) return hl__fail(HL_ERR_INVALID_STATE, "%s: inside a frame", fn);
    if (hl_rhi_device_check_lost(r->dev)) hl__renderer_after(r, HL_OK);
    return hl__renderer_ready(r, fn, true);
}

hl_result hl_renderer_release_gpu_resources(hl_renderer *r) {
    const char *fn = "hl_renderer_release_gpu_resources";
    hl_result res = check_call(r, fn);
    if (res) return res;
    if (r->in_frame || r->in_record) return hl__fail(HL_ERR_INVALID_STATE, "%s: inside a frame", fn);
    if (r->storage_read.pending)
        return hl__fail(HL_ERR_INVALID_STATE, "%s: a storage buffer read is pending (hl_storage_buffer_read_wait first)", fn);
    if (r->gpu_state != HL__GPU_LIVE) return HL_OK; /* nothing held (lost: dropped at recovery) */
    /* the GPU may still use them: wait (a lost device's objects simply go) */
    res = hl_rhi_device_wait_idle(r->dev);
    if (res && res != HL_ERR_DEVICE_LOST) return res;
    gpu_drop(r);
    hl_rhi_device_clear_caches(r->dev);
    r->gpu_state = res == HL_ERR_DEVICE_LOST ? HL__GPU_LOST : HL__GPU_RELEASED;
    if (res) note_loss(r);
    return HL_OK;
}
