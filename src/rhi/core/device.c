/* Device lifetime, deferred release, frame scope, submissions and waits, thread hand-over. */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "core_private.h"

static _Atomic uint32_t hl__device_tag_counter;
static void (*hl__test_caps_hook)(hl_rhi_caps *caps);

void hl_rhi_set_test_caps_hook(void (*fn)(hl_rhi_caps *caps)) { hl__test_caps_hook = fn; }

static const struct {
    uint32_t size;
    const char *name;
} hl__pool_types[HL__POOL_COUNT] = {
    [HL__POOL_BUFFER] = {sizeof(hl__buffer), "buffer"},
    [HL__POOL_TEXTURE] = {sizeof(hl__texture), "texture"},
    [HL__POOL_VIEW] = {sizeof(hl__texture_view), "texture view"},
    [HL__POOL_SAMPLER] = {sizeof(hl__sampler), "sampler"},
    [HL__POOL_SHADER] = {sizeof(hl__shader), "shader"},
    [HL__POOL_BGL] = {sizeof(hl__bind_group_layout), "bind group layout"},
    [HL__POOL_BIND_GROUP] = {sizeof(hl__bind_group), "bind group"},
    [HL__POOL_PIPELINE_LAYOUT] = {sizeof(hl__pipeline_layout), "pipeline layout"},
    [HL__POOL_RENDER_PIPELINE] = {sizeof(hl__render_pipeline), "render pipeline"},
    [HL__POOL_COMPUTE_PIPELINE] = {sizeof(hl__compute_pipeline), "compute pipeline"},
    [HL__POOL_SURFACE] = {sizeof(hl__surface), "surface"},
    [HL__POOL_RENDER_BUNDLE] = {sizeof(hl__render_bundle), "render bundle"},
};

hl_result hl__check_device(const hl_rhi_device *dev, const char *fn) {
    if (!dev) return hl__fail(HL_ERR_VALIDATION, "%s: dev is NULL", fn);
    if (!hl__owned_here(dev)) return hl__fail_thread(dev, fn);
    if (dev->lost) return hl__fail(HL_ERR_DEVICE_LOST, "%s: the device is lost", fn);
    return HL_OK;
}

static void hl__free_device_memory(hl_rhi_device *dev) {
    for (uint32_t i = 0; i < HL__POOL_COUNT; i++) hl__pool_release_memory(&dev->pools[i]);
    for (uint32_t i = 0; i < dev->cache_count; i++) hl__free(dev->cache[i].key);
    hl__bundle_arrays_free(dev);
    hl__free(dev->cache);
    hl__free(dev->deferred);
    hl__free(dev);
}

hl_result hl__rhi_device_create_with(const hl__rhi_backend_fns *fns, const hl_rhi_device_desc *desc,
                                     hl_rhi_device **out) {
    if (!out) return hl__fail(HL_ERR_VALIDATION, "hl_rhi_device_create: out is NULL");
    *out = NULL;
    if (!fns) return hl__fail(HL_ERR_VALIDATION, "hl_rhi_device_create: no backend table");
    hl_rhi_device_desc d = {0};
    if (desc) d = *desc;
    hl_result vr = hl__validate_display(&d.display, "hl_rhi_device_create");
    if (vr) return vr;
    hl_rhi_device *dev = hl__calloc(1, sizeof *dev);
    if (!dev) return hl__fail(HL_ERR_OUT_OF_MEMORY, "hl_rhi_device_create: out of memory");
    dev->fns = fns;
    dev->tag = atomic_fetch_add(&hl__device_tag_counter, 1u) & ((1u << HL__HANDLE_TAG_BITS) - 1u);
    for (uint32_t i = 0; i < HL__POOL_COUNT; i++)
        hl__pool_init(&dev->pools[i], hl__pool_types[i].size, hl__pool_types[i].name);
    dev->cache_limit = d.cache_capacity ? d.cache_capacity : 256u;
    dev->next_serial = 1;
    dev->completed_serial = 0;
    dev->cmd.dev = dev;
    dev->cmd.fns = fns;
    dev->wait_timeout_ns = hl__wait_timeout_ns(d.wait_timeout_ms);
    dev->generation = 1;
    hl__set_owner_here(dev);
    /* the description, kept for hl_rhi_device_recreate (its strings copied) */
    dev->desc = d;
    if (d.dawn_library_path) {
        snprintf(dev->desc_dawn_path, sizeof dev->desc_dawn_path, "%s", d.dawn_library_path);
        dev->desc.dawn_library_path = dev->desc_dawn_path;
    }
    if (d.label) {
        snprintf(dev->desc_label, sizeof dev->desc_label, "%s", d.label);
        dev->desc.label = dev->desc_label;
    }
    hl_result r = fns->device_create(dev, &d);
    if (r) {
        hl__free_device_memory(dev);
        return r;
    }
    if (hl__test_caps_hook) hl__test_caps_hook(&dev->caps);
    uint32_t missing = d.requirements.features & ~dev->caps.features;
    if (missing) {
        uint32_t bit = missing & (~missing + 1u);
        dev->destroy_deadline = hl__deadline(dev->wait_timeout_ns);
        fns->device_destroy(dev);
        hl__free_device_memory(dev);
        return hl__fail(HL_ERR_UNSUPPORTED, "hl_rhi_device_create: the %s device lacks required feature \"%s\"",
                        fns->name ? fns->name : "?", hl_rhi_feature_name(bit));
    }
    *out = dev;
    return HL_OK;
}

/* Order of the final sweep: users before what they use. */
static const uint8_t hl__destroy_order[HL__POOL_COUNT] = {
    HL__POOL_RENDER_BUNDLE, HL__POOL_BIND_GROUP, HL__POOL_COMPUTE_PIPELINE, HL__POOL_RENDER_PIPELINE,
    HL__POOL_PIPELINE_LAYOUT, HL__POOL_BGL,      HL__POOL_SAMPLER,          HL__POOL_SHADER,
    HL__POOL_VIEW,          HL__POOL_TEXTURE,    HL__POOL_BUFFER,           HL__POOL_SURFACE, /* after its frame textures */
};

static void hl__process_deferred(hl_rhi_device *dev, bool all) {
    uint32_t kept = 0;
    /* Releases may not queue more entries (they only free), so the array is stable here. */
    for (uint32_t i = 0; i < dev->deferred_count; i++) {
        hl__deferred_release d = dev->deferred[i];
        if (all || d.serial <= dev->completed_serial) {
            if (d.pool == HL__DEFERRED_CACHE) {
                hl__cache_release_entry(dev, d.slot);
            } else {
                hl__release_slot(dev, d.pool, d.slot);
            }
        } else {
            dev->deferred[kept++] = d;
        }
    }
    dev->deferred_count = kept;
}

/* Waits for serial through the backend; a timeout's message names fn, the submission and the
 * time waited (the backend's own detail follows). */
static hl_result hl__wait_serial(hl_rhi_device *dev, uint64_t serial, uint64_t timeout_ns, const char *fn) {
    hl_result r = dev->fns->wait(dev, serial, timeout_ns);
    if (r != HL_ERR_TIMEOUT) return r;
    char detail[256], t[32];
    snprintf(detail, sizeof detail, "%s", hl_last_error());
    return hl__fail(HL_ERR_TIMEOUT,
                    "%s: timed out after %s waiting for the GPU to finish submission %llu (%s); the work stays "
                    "queued: wait again later or raise the device's wait timeout",
                    fn, hl__duration_text(timeout_ns, t, sizeof t), (unsigned long long)serial, detail);
}

/* Releases every object and cache entry of dev (after waiting for the GPU, at most the wait
 * timeout, unless lost): destroy and recreate share it. Every handle is stale afterwards. */
static void hl__cmd_reset(hl_rhi_cmd *cmd);

static void hl__release_everything(hl_rhi_device *dev, const char *fn) {
    /* Bounded: after the timeout everything is released anyway (the native APIs keep what the
     * GPU still uses alive until it is done with it); the backend's final waits share the
     * same deadline. */
    dev->destroy_deadline = hl__deadline(dev->wait_timeout_ns);
    if (!dev->lost && dev->be && dev->last_submitted_serial > dev->completed_serial)
        hl__wait_serial(dev, dev->last_submitted_serial, dev->wait_timeout_ns, fn);
    dev->completed_serial = dev->next_serial - 1u;
    dev->last_submitted_serial = dev->completed_serial;
    hl__process_deferred(dev, true);
    for (uint32_t k = 0; k < HL__POOL_COUNT; k++) {
        uint8_t pool = hl__destroy_order[k];
        hl__pool *p = &dev->pools[pool];
        for (uint32_t slot = 0; slot < p->capacity; slot++) {
            if (p->state[slot] == HL__SLOT_LIVE) {
                hl__pool_retire(p, slot);
                hl__release_slot(dev, pool, slot);
            }
        }
    }
    hl__cache_release_unreferenced(dev, true);
}

void hl_rhi_device_destroy(hl_rhi_device *dev) {
    if (!dev) return;
    uint64_t owner = atomic_load(&dev->owner);
    if (owner && owner != hl__thread_id()) {
        hl__fail_thread(dev, "hl_rhi_device_destroy");
        return;
    }
    /* A detached device is destroyed on the calling thread: give the backend its context. */
    if (!owner) {
        hl__set_owner_here(dev);
        if (dev->fns->thread_attach) dev->fns->thread_attach(dev);
    }
    if (dev->frame_open) hl_rhi_abort_frame(dev);
    hl__release_everything(dev, "hl_rhi_device_destroy");
    dev->fns->device_destroy(dev);
    hl__free_device_memory(dev);
}

/* ---- device loss ------------------------------------------------------------------------------- */
bool hl_rhi_device_check_lost(hl_rhi_device *dev) {
    if (!dev || !hl__owned_here(dev)) return false;
    if (!dev->lost && dev->be && dev->fns->check_lost) dev->fns->check_lost(dev);
    return dev->lost;
}

hl_result hl_rhi_device_simulate_loss(hl_rhi_device *dev) {
    const char *fn = "hl_rhi_device_simulate_loss";
    hl_result r = hl__check_device(dev, fn);
    if (r) return r;
    if (!dev->fns->simulate_loss)
        return hl__fail(HL_ERR_UNSUPPORTED, "%s: the %s backend cannot lose its device", fn, dev->fns->name);
    dev->fns->simulate_loss(dev);
    if (dev->lost && !dev->lost_reason[0]) snprintf(dev->lost_reason, sizeof dev->lost_reason, "lost (simulated)");
    if (!dev->lost) return hl__fail(HL_ERR_BACKEND, "%s: the %s backend did not report the loss", fn, dev->fns->name);
    return HL_OK;
}

uint64_t hl_rhi_device_generation(const hl_rhi_device *dev) { return dev ? dev->generation : 0; }
bool hl_rhi_device_is_lost(const hl_rhi_device *dev) { return dev && dev->lost; }
const char *hl_rhi_device_lost_reason(const hl_rhi_device *dev) { return dev && dev->lost ? dev->lost_reason : ""; }

uint32_t hl_rhi_device_live_objects(const hl_rhi_device *dev) {
    if (!dev) return 0;
    uint32_t n = 0;
    for (uint32_t i = 0; i < HL__POOL_COUNT; i++) n += dev->pools[i].used;
    return n + hl__cache_live_objects(dev);
}

hl_result hl_rhi_device_recreate(hl_rhi_device *dev) {
    const char *fn = "hl_rhi_device_recreate";
    if (!dev) return hl__fail(HL_ERR_VALIDATION, "%s: dev is NULL", fn);
    if (!hl__owned_here(dev)) return hl__fail_thread(dev, fn);
    if (dev->frame_open) hl_rhi_abort_frame(dev);
    /* every object goes (a live device is waited for first, as destroy does) */
    hl__release_everything(dev, fn);
    dev->recreating = true;
    if (dev->be) dev->fns->device_destroy(dev);
    dev->be = NULL;
    hl__cmd_reset(&dev->cmd);
    dev->cmd.serial = dev->next_serial;
    hl_rhi_caps *old_caps = hl__malloc(sizeof *old_caps); /* kept for a failure (the device stays as it was) */
    if (old_caps) *old_caps = dev->caps;
    hl_rhi_backend backend = dev->caps.backend;
    memset(&dev->caps, 0, sizeof dev->caps);
    dev->caps.backend = backend;
    dev->lost = false;
    dev->lost_reason[0] = '\0';
    hl_result r = dev->fns->device_create(dev, &dev->desc);
    dev->recreating = false;
    if (!r && hl__test_caps_hook) hl__test_caps_hook(&dev->caps);
    uint32_t missing = r ? 0 : dev->desc.requirements.features & ~dev->caps.features;
    if (!r && missing) {
        uint32_t bit = missing & (~missing + 1u);
        dev->destroy_deadline = hl__deadline(dev->wait_timeout_ns);
        dev->fns->device_destroy(dev);
        dev->be = NULL;
        r = hl__fail(HL_ERR_UNSUPPORTED, "%s: the new %s device lacks required feature \"%s\"", fn,
                     dev->fns->name ? dev->fns->name : "?", hl_rhi_feature_name(bit));
    }
    if (r) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", hl_last_error());
        dev->be = NULL;
        dev->lost = true;
        if (old_caps) dev->caps = *old_caps;
        dev->caps.backend = backend;
        hl__free(old_caps);
        snprintf(dev->lost_reason, sizeof dev->lost_reason, "no replacement device: %.200s", msg);
        return hl__fail(r == HL_ERR_UNSUPPORTED ? r : HL_ERR_DEVICE_LOST, "%s: no replacement device: %s", fn, msg);
    }
    hl__free(old_caps);
    dev->generation++;
    return HL_OK;
}

const hl_rhi_caps *hl_rhi_device_caps(const hl_rhi_device *dev) { return dev ? &dev->caps : NULL; }
hl_rhi_backend hl_rhi_device_backend(const hl_rhi_device *dev) { return dev ? dev->caps.backend : HL_RHI_BACKEND_AUTO; }
const hl_rhi_stats *hl_rhi_device_stats(const hl_rhi_device *dev) { return dev ? &dev->stats : NULL; }
void hl_rhi_reset_stats(hl_rhi_device *dev) {
    if (dev && !hl__check_device(dev, "hl_rhi_reset_stats")) memset(&dev->stats, 0, sizeof dev->stats);
}

bool hl__defer_release(hl_rhi_device *dev, uint8_t pool, uint32_t slot, uint64_t serial) {
    if (serial <= dev->completed_serial) {
        if (pool == HL__DEFERRED_CACHE) {
            hl__cache_release_entry(dev, slot);
        } else {
            hl__release_slot(dev, pool, slot);
        }
        return true;
    }
    void *arr = dev->deferred;
    if (!hl__reserve(&arr, &dev->deferred_capacity, dev->deferred_count + 1u, sizeof(hl__deferred_release)))
        return false;
    dev->deferred = arr;
    dev->deferred[dev->deferred_count++] = (hl__deferred_release){serial, pool, slot};
    return true;
}

/* Frames that were aborted never reach the GPU: once everything submitted has completed and
 * no frame is open, every serial handed out so far counts as complete. */
static void hl__set_completed(hl_rhi_device *dev, uint64_t backend_completed) {
    uint64_t c = backend_completed;
    if (c > dev->last_submitted_serial) c = dev->last_submitted_serial;
    if (c >= dev->last_submitted_serial) {
        uint64_t all = dev->frame_open ? dev->cmd.serial - 1u : dev->next_serial - 1u;
        if (all > c) c = all;
    }
    if (c > dev->completed_serial) {
        uint64_t lo = dev->completed_serial, hi = c < dev->last_submitted_serial ? c : dev->last_submitted_serial;
        if (hi > lo) dev->stats.submissions_completed += hi - lo;
        dev->completed_serial = c;
    }
    if (dev->deferred_count) hl__process_deferred(dev, false);
}

hl_result hl__update_completed(hl_rhi_device *dev) {
    uint64_t c = dev->completed_serial;
    if (dev->last_submitted_serial > dev->completed_serial) {
        hl_result r = dev->fns->poll(dev, &c);
        if (r) return r;
    }
    hl__set_completed(dev, c);
    return HL_OK;
}

/* ---- frame scope -------------------------------------------------------------------------- */
static void hl__cmd_reset(hl_rhi_cmd *cmd) {
    hl_rhi_device *dev = cmd->dev;
    uint64_t serial = cmd->serial;
    memset(cmd, 0, sizeof *cmd);
    cmd->dev = dev;
    cmd->fns = dev->fns;
    cmd->serial = serial;
}

hl_result hl_rhi_begin_frame(hl_rhi_device *dev, hl_rhi_cmd **out_cmd) {
    hl_result r = hl__check_device(dev, "hl_rhi_begin_frame");
    if (r) return r;
    if (!out_cmd) return hl__fail(HL_ERR_VALIDATION, "hl_rhi_begin_frame: out_cmd is NULL");
    *out_cmd = NULL;
    if (dev->frame_open) return hl__fail(HL_ERR_INVALID_STATE, "hl_rhi_begin_frame: a frame is already open");
    r = hl__update_completed(dev);
    if (r) return r;
    uint64_t serial = dev->next_serial;
    r = dev->fns->begin_frame(dev, serial);
    if (r) return r;
    dev->cmd.serial = serial;
    hl__cmd_reset(&dev->cmd);
    dev->frame_open = true;
    *out_cmd = &dev->cmd;
    return HL_OK;
}

bool hl_rhi_frame_is_open(const hl_rhi_device *dev) { return dev && dev->frame_open; }

void hl_rhi_abort_frame(hl_rhi_device *dev) {
    if (!dev || !dev->frame_open) return;
    if (!hl__owned_here(dev)) {
        hl__fail_thread(dev, "hl_rhi_abort_frame");
        return;
    }
    if (!dev->lost) dev->fns->abort_frame(dev, dev->cmd.serial);
    dev->frame_open = false;
    dev->next_serial = dev->cmd.serial + 1u;
    dev->cmd.pass = HL__PASS_NONE;
    if (!dev->lost) hl__update_completed(dev);
}

hl_result hl_rhi_end_frame(hl_rhi_device *dev, hl_rhi_submission *out) {
    if (out) out->serial = 0;
    hl_result r = hl__check_device(dev, "hl_rhi_end_frame");
    if (r) {
        /* a frame of a lost device is dropped; another thread's call touches nothing */
        if (dev && dev->frame_open && hl__owned_here(dev)) hl_rhi_abort_frame(dev);
        return r;
    }
    if (!dev->frame_open) return hl__fail(HL_ERR_INVALID_STATE, "hl_rhi_end_frame: no frame is open");
    if (dev->cmd.pass != HL__PASS_NONE) {
        const char *kind = dev->cmd.pass == HL__PASS_RENDER ? "render" : "compute";
        hl_rhi_abort_frame(dev);
        return hl__fail(HL_ERR_INVALID_STATE, "hl_rhi_end_frame: a %s pass is still open (the frame was aborted)", kind);
    }
    uint64_t serial = dev->cmd.serial;
    r = dev->fns->end_frame(dev, serial);
    dev->frame_open = false;
    dev->next_serial = serial + 1u;
    if (r) {
        /* Nothing was submitted: treat it like an aborted frame. */
        if (!dev->lost) hl__update_completed(dev);
        return r;
    }
    dev->last_submitted_serial = serial;
    dev->stats.frames++;
    if (out) out->serial = serial;
    return HL_OK;
}

hl_result hl_rhi_submission_poll(hl_rhi_device *dev, hl_rhi_submission s, bool *done) {
    hl_result r = hl__check_device(dev, "hl_rhi_submission_poll");
    if (r) return r;
    if (!done) return hl__fail(HL_ERR_VALIDATION, "hl_rhi_submission_poll: done is NULL");
    if (s.serial >= dev->next_serial)
        return hl__fail(HL_ERR_VALIDATION, "hl_rhi_submission_poll: serial %llu was never submitted",
                        (unsigned long long)s.serial);
    r = hl__update_completed(dev);
    if (r) return r;
    *done = s.serial <= dev->completed_serial;
    return HL_OK;
}

hl_result hl_rhi_submission_wait(hl_rhi_device *dev, hl_rhi_submission s, uint64_t timeout_ns) {
    hl_result r = hl__check_device(dev, "hl_rhi_submission_wait");
    if (r) return r;
    if (s.serial >= dev->next_serial)
        return hl__fail(HL_ERR_VALIDATION, "hl_rhi_submission_wait: serial %llu was never submitted",
                        (unsigned long long)s.serial);
    if (s.serial > dev->completed_serial) {
        uint64_t target = s.serial <= dev->last_submitted_serial ? s.serial : dev->last_submitted_serial;
        if (target > dev->completed_serial) {
            r = hl__wait_serial(dev, target, timeout_ns, "hl_rhi_submission_wait");
            if (r) return r;
            if (target > dev->completed_serial) hl__set_completed(dev, target);
        }
    }
    return hl__update_completed(dev);
}

hl_result hl__wait_idle(hl_rhi_device *dev, const char *fn) {
    if (dev->last_submitted_serial > dev->completed_serial) {
        hl_result r = hl__wait_serial(dev, dev->last_submitted_serial, dev->wait_timeout_ns, fn);
        if (r) return r;
    }
    hl__set_completed(dev, dev->last_submitted_serial);
    return HL_OK;
}

hl_result hl_rhi_device_wait_idle(hl_rhi_device *dev) {
    hl_result r = hl__check_device(dev, "hl_rhi_device_wait_idle");
    if (r) return r;
    return hl__wait_idle(dev, "hl_rhi_device_wait_idle");
}

hl_result hl_rhi_device_set_wait_timeout(hl_rhi_device *dev, uint32_t timeout_ms) {
    hl_result r = hl__check_device(dev, "hl_rhi_device_set_wait_timeout");
    if (r) return r;
    dev->wait_timeout_ns = hl__wait_timeout_ns(timeout_ms);
    return HL_OK;
}

/* ---- thread hand-over --------------------------------------------------------------------- */
hl_result hl_rhi_device_check_thread(const hl_rhi_device *dev, const char *caller) {
    if (!caller) caller = "hl_rhi_device_check_thread";
    if (!dev) return hl__fail(HL_ERR_VALIDATION, "%s: dev is NULL", caller);
    return hl__owned_here(dev) ? HL_OK : hl__fail_thread(dev, caller);
}

hl_result hl_rhi_device_detach(hl_rhi_device *dev) {
    const char *fn = "hl_rhi_device_detach";
    if (!dev) return hl__fail(HL_ERR_VALIDATION, "%s: dev is NULL", fn);
    if (!hl__owned_here(dev)) return hl__fail_thread(dev, fn);
    if (dev->frame_open)
        return hl__fail(HL_ERR_INVALID_STATE, "%s: a frame is open (end or abort it on this thread first)", fn);
    if (dev->fns->thread_detach) dev->fns->thread_detach(dev);
    atomic_store(&dev->owner, 0);
    return HL_OK;
}

hl_result hl_rhi_device_attach(hl_rhi_device *dev) {
    const char *fn = "hl_rhi_device_attach";
    if (!dev) return hl__fail(HL_ERR_VALIDATION, "%s: dev is NULL", fn);
    uint64_t self = hl__thread_id(), expected = 0;
    if (atomic_load(&dev->owner) == self) return HL_OK;
    if (!atomic_compare_exchange_strong(&dev->owner, &expected, self)) {
        char me[64], owner[64];
        hl__thread_describe(hl__thread_os_id(), me, sizeof me);
        hl__thread_describe(atomic_load(&dev->owner_tid), owner, sizeof owner);
        return hl__fail(HL_ERR_INVALID_STATE,
                        "%s: the device still belongs to %s (called from %s); detach it on its owner first", fn,
                        owner, me);
    }
    atomic_store(&dev->owner_tid, hl__thread_os_id());
    if (dev->fns->thread_attach) {
        hl_result r = dev->fns->thread_attach(dev);
        if (r) {
            atomic_store(&dev->owner, 0);
            return r;
        }
    }
    return HL_OK;
}

hl_result hl_rhi_device_invalidate_native_state(hl_rhi_device *dev) {
    const char *fn = "hl_rhi_device_invalidate_native_state";
    hl_result r = hl__check_device(dev, fn);
    if (r) return r;
    if (dev->frame_open && dev->cmd.pass != HL__PASS_NONE)
        return hl__fail(HL_ERR_INVALID_STATE, "%s: a pass is open", fn);
    if (dev->fns->invalidate_native_state) dev->fns->invalidate_native_state(dev);
    return HL_OK;
}
