/* Storage buffers (include/hilo3d/compute.h) and the graph passes of compute: a renderer-owned
 * buffer with its CPU writes delivered through the frame's upload batch, asynchronous reads
 * through a graph copy into a staging buffer, and compute / buffer clear / buffer copy passes.
 * webgpu only: gles3 refuses every call first (hl__compute_check). */
#include <string.h>

#include "hilo3d/compute.h"
#include "render_internal.h"

typedef struct write_range {
    uint64_t offset, size;
} write_range;

struct hl_storage_buffer {
    hl_renderer *r;
    struct hl_storage_buffer *next;
    hl_rhi_buffer buf;
    uint64_t size;
    uint32_t usage; /* HL_STORAGE_USAGE_* */
    hl_storage_recovery recovery;
    uint8_t *shadow;       /* the CPU's copy: the latest CPU write of every byte (initial contents first) */
    uint8_t *initial;      /* REINITIALIZE: the initial contents (NULL: zeros) */
    write_range *pending;  /* disjoint ranges written by the CPU, not yet delivered */
    uint32_t pending_count, pending_capacity;
    uint64_t write_revision, delivered_revision;
    uint64_t cpu_full_mark;  /* r->storage_clock at the last CPU write of the whole buffer */
    uint64_t gpu_write_mark; /* r->storage_clock of the last submitted frame whose pass wrote it */
    uint64_t imported_frame; /* r->storage_frame of the graph frame that imported it */
    hl_graph_buffer imported;
    /* REINITIALIZE after a recovery: r->storage_clock when the contents were lost; they are
       usable again once a full writer commits (gpu_full_mark, cpu_full_mark after it) or within
       the frame that wrote it whole (full_write_frame) */
    uint64_t lost_mark, gpu_full_mark, full_write_frame;
    char label[64];
};

hl_result hl__compute_check(hl_renderer *r, const char *fn) {
    if (!r) return hl__fail(HL_ERR_VALIDATION, "%s: the renderer is NULL", fn);
    hl_result res = hl_rhi_device_check_thread(r->dev, fn);
    if (res) return res;
    if (hl_rhi_device_backend(r->dev) == HL_RHI_BACKEND_GLES3)
        return hl__fail(HL_ERR_UNSUPPORTED, "%s: the gles3 backend has no compute shaders or storage buffers "
                        "(OpenGL ES 3.0); use webgpu", fn);
    if (r->in_frame || r->in_record)
        return hl__fail(HL_ERR_INVALID_STATE, "%s: inside hl_renderer_render_frame or a pipeline's record", fn);
    return hl__renderer_ready(r, fn, false);
}

static bool storage_of(const hl_renderer *r, const hl_storage_buffer *b) {
    for (const hl_storage_buffer *s = r->storage_buffers; s; s = s->next)
        if (s == b) return true;
    return false;
}

static hl_result check_range(const hl_storage_buffer *b, uint64_t offset, uint64_t size, const char *fn) {
    if ((offset | size) & 3u || !size || offset > b->size || size > b->size - offset)
        return hl__fail(HL_ERR_VALIDATION, "%s: '%s': range [%llu, +%llu) (multiples of 4, non-empty, within its %llu bytes)",
                        fn, b->label, (unsigned long long)offset, (unsigned long long)size, (unsigned long long)b->size);
    return HL_OK;
}

static void buffer_free(hl_renderer *r, hl_storage_buffer *b) {
    if (b->buf.id) hl_rhi_buffer_destroy(r->dev, b->buf);
    hl__free(b->shadow);
    hl__free(b->initial);
    hl__free(b->pending);
    hl__free(b);
}

static uint32_t rhi_usage(const hl_storage_buffer *b) {
    uint32_t usage = HL_RHI_BUFFER_USAGE_STORAGE | HL_RHI_BUFFER_USAGE_COPY_SRC | HL_RHI_BUFFER_USAGE_COPY_DST;
    if (b->usage & HL_STORAGE_USAGE_VERTEX) usage |= HL_RHI_BUFFER_USAGE_VERTEX;
    if (b->usage & HL_STORAGE_USAGE_INDEX) usage |= HL_RHI_BUFFER_USAGE_INDEX;
    if (b->usage & HL_STORAGE_USAGE_INDIRECT) usage |= HL_RHI_BUFFER_USAGE_INDIRECT;
    return usage;
}

static hl_result gpu_buffer_make(hl_renderer *r, hl_storage_buffer *b, const void *contents) {
    hl_rhi_buffer_desc bd = {b->size, rhi_usage(b), contents, b->label};
    return hl_rhi_buffer_create(r->dev, &bd, &b->buf);
}

hl_result hl_storage_buffer_create(hl_renderer *r, const hl_storage_buffer_desc *desc, hl_storage_buffer **out) {
    const char *fn = "hl_storage_buffer_create";
    if (out) *out = NULL;
    hl_result res = hl__compute_check(r, fn);
    if (res) return res;
    if (!desc || !out) return hl__fail(HL_ERR_VALIDATION, "%s: %s is NULL", fn, desc ? "out" : "desc");
    const char *label = desc->label && desc->label[0] ? desc->label : "storage";
    if (!desc->size || (desc->size & 3u))
        return hl__fail(HL_ERR_VALIDATION, "%s: '%s': size %llu (a non-zero multiple of 4)", fn, label,
                        (unsigned long long)desc->size);
    uint64_t max = hl_rhi_device_caps(r->dev)->limits.max_storage_buffer_binding_size;
    if (desc->size > max)
        return hl__fail(HL_ERR_UNSUPPORTED, "%s: '%s': size %llu is above the device's storage binding size %llu", fn,
                        label, (unsigned long long)desc->size, (unsigned long long)max);
    if (desc->size > SIZE_MAX) return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: '%s': too large for this process", fn, label);
    if (desc->usage & ~(uint32_t)HL_STORAGE_USAGE_ALL)
        return hl__fail(HL_ERR_VALIDATION, "%s: '%s': usage 0x%x has unknown bits", fn, label, desc->usage);
    if ((unsigned)desc->recovery > HL_STORAGE_RECOVERY_REINITIALIZE)
        return hl__fail(HL_ERR_VALIDATION, "%s: '%s': recovery %d", fn, label, (int)desc->recovery);
    hl_storage_buffer *b = hl__calloc(1, sizeof *b);
    if (!b) return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: '%s'", fn, label);
    b->r = r;
    b->size = desc->size;
    b->usage = desc->usage;
    b->recovery = desc->recovery;
    snprintf(b->label, sizeof b->label, "%s", label);
    b->shadow = hl__calloc(1, (size_t)desc->size);
    if (b->shadow && desc->initial_data) memcpy(b->shadow, desc->initial_data, (size_t)desc->size);
    if (b->shadow && desc->initial_data && desc->recovery == HL_STORAGE_RECOVERY_REINITIALIZE) {
        b->initial = hl__malloc((size_t)desc->size);
        if (b->initial) memcpy(b->initial, desc->initial_data, (size_t)desc->size);
    }
    if (!b->shadow || (desc->initial_data && desc->recovery == HL_STORAGE_RECOVERY_REINITIALIZE && !b->initial)) {
        buffer_free(r, b);
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: '%s': %llu bytes", fn, label, (unsigned long long)desc->size);
    }
    if ((res = gpu_buffer_make(r, b, desc->initial_data))) {
        char msg[300];
        snprintf(msg, sizeof msg, "%s", hl_last_error());
        buffer_free(r, b);
        return hl__fail(res, "%s: '%s': %s", fn, label, msg);
    }
    b->cpu_full_mark = ++r->storage_clock;
    b->next = r->storage_buffers;
    r->storage_buffers = b;
    *out = b;
    return HL_OK;
}

hl_result hl_storage_buffer_destroy(hl_renderer *r, hl_storage_buffer *b) {
    const char *fn = "hl_storage_buffer_destroy";
    if (!b) return HL_OK;
    hl_result res = hl__compute_check(r, fn);
    if (res) return res;
    if (!storage_of(r, b))
        return hl__fail(HL_ERR_VALIDATION, "%s: the buffer was not created by this renderer (or was destroyed)", fn);
    if (r->storage_read.pending && r->storage_read.buffer == b)
        return hl__fail(HL_ERR_INVALID_STATE, "%s: '%s' has a read pending (hl_storage_buffer_read_wait first)", fn,
                        b->label);
    for (hl_storage_buffer **p = &r->storage_buffers; *p; p = &(*p)->next)
        if (*p == b) {
            *p = b->next;
            break;
        }
    buffer_free(r, b);
    return HL_OK;
}

/* Adds [offset, offset + size) to the pending ranges, merging those it touches (kept disjoint
 * and sorted). */
static bool pending_add(hl_storage_buffer *b, uint64_t offset, uint64_t size) {
    uint64_t lo = offset, hi = offset + size;
    uint32_t k = 0;
    for (uint32_t i = 0; i < b->pending_count; i++) {
        write_range w = b->pending[i];
        if (w.offset + w.size < lo || w.offset > hi) {
            b->pending[k++] = w;
            continue;
        }
        if (w.offset < lo) lo = w.offset;
        if (w.offset + w.size > hi) hi = w.offset + w.size;
    }
    b->pending_count = k;
    if (!hl__reserve((void **)&b->pending, &b->pending_capacity, k + 1, sizeof *b->pending)) return false;
    uint32_t at = 0;
    while (at < k && b->pending[at].offset < lo) at++;
    memmove(b->pending + at + 1, b->pending + at, (k - at) * sizeof *b->pending);
    b->pending[at] = (write_range){lo, hi - lo};
    b->pending_count++;
    return true;
}

hl_result hl_storage_buffer_write(hl_renderer *r, hl_storage_buffer *b, uint64_t offset, const void *data, uint64_t size) {
    const char *fn = "hl_storage_buffer_write";
    hl_result res = hl__compute_check(r, fn);
    if (res) return res;
    if (!b || !storage_of(r, b))
        return hl__fail(HL_ERR_VALIDATION, "%s: the buffer is NULL, another renderer's or destroyed", fn);
    if (!data) return hl__fail(HL_ERR_VALIDATION, "%s: '%s': data is NULL", fn, b->label);
    if ((res = check_range(b, offset, size, fn))) return res;
    /* delivered writes are forgotten first (the ranges only name what the next frame sends) */
    if (b->delivered_revision == b->write_revision) b->pending_count = 0;
    if (!pending_add(b, offset, size)) return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: '%s'", fn, b->label);
    memcpy(b->shadow + offset, data, (size_t)size);
    b->write_revision++;
    if (offset == 0 && size == b->size) b->cpu_full_mark = ++r->storage_clock;
    return HL_OK;
}

/* ---- contents lost with the device (REINITIALIZE) ----------------------------------------------- */
/* recording: the caller is a pass being added to the frame now recorded, where a pass added
 * before it may have written the buffer whole. r->storage_frame keeps naming that frame after it
 * ends (failed or not), and is 0 before the first, like an unset full_write_frame: reads outside
 * a record go by committed writers only. */
static bool contents_lost(const hl_renderer *r, const hl_storage_buffer *b, bool recording) {
    return b->lost_mark && b->lost_mark > b->cpu_full_mark && b->lost_mark > b->gpu_full_mark &&
           !(recording && b->full_write_frame == r->storage_frame);
}

static hl_result lost_error(const hl_storage_buffer *b, const char *fn, const char *use) {
    return hl__fail(HL_ERR_INVALID_STATE,
                    "%s: storage buffer '%s' lost its contents with the device (recovery policy REINITIALIZE): it "
                    "cannot be %s until a full writer commits (hl_storage_buffer_write of the whole buffer, a whole "
                    "clear or copy, or a compute pass that binds all of it read-write with overwrite)",
                    fn, b->label, use);
}

hl_result hl__storage_check_input(hl_renderer *r, hl_graph_buffer gb, const char *pass, const char *use) {
    const hl_storage_buffer *b = hl__storage_of_graph_buffer(r, gb);
    if (!b || !contents_lost(r, b, true)) return HL_OK;
    char where[96];
    snprintf(where, sizeof where, "pass '%s'", pass);
    return lost_error(b, where, use);
}

/* A pass of this frame writes all of gb: the contents are whole again once it commits. Called
 * once the pass is in the graph (a pass refused before that writes nothing). */
static hl_result mark_full_write(hl_renderer *r, hl_graph_buffer gb, uint64_t offset, uint64_t size) {
    hl_storage_buffer *b = hl__storage_of_graph_buffer(r, gb);
    if (!b || offset != 0 || size != b->size || !b->lost_mark) return HL_OK;
    b->full_write_frame = r->storage_frame;
    return hl_graph_commit_on_submit(r->graph, &b->gpu_full_mark, ++r->storage_clock);
}

void hl__storage_gpu_drop(hl_renderer *r) {
    for (hl_storage_buffer *b = r->storage_buffers; b; b = b->next) {
        hl_rhi_buffer_destroy(r->dev, b->buf);
        b->buf = (hl_rhi_buffer){0};
        b->imported_frame = 0;
        b->imported = (hl_graph_buffer){0};
    }
    hl_rhi_buffer_destroy(r->dev, r->storage_read.staging);
    memset(&r->storage_read, 0, sizeof r->storage_read); /* a pending read ends (its wait fails: lost) */
}

hl_result hl__storage_gpu_rebuild(hl_renderer *r) {
    hl_result res = HL_OK;
    for (hl_storage_buffer *b = r->storage_buffers; b && !res; b = b->next) {
        if (b->buf.id) continue;
        if (b->recovery == HL_STORAGE_RECOVERY_REINITIALIZE) {
            /* the initial contents, marked lost until a full writer commits */
            if (b->initial) memcpy(b->shadow, b->initial, (size_t)b->size);
            else memset(b->shadow, 0, (size_t)b->size);
            b->lost_mark = ++r->storage_clock;
        } else {
            /* the CPU's copy: every byte's last CPU write (GPU writes since are not in it) */
            b->cpu_full_mark = ++r->storage_clock;
        }
        b->pending_count = 0;
        b->delivered_revision = b->write_revision;
        b->gpu_write_mark = 0; /* the new buffer holds the shadow: not stale, whichever the policy */
        res = gpu_buffer_make(r, b, b->shadow);
    }
    return res;
}

hl_result hl_storage_buffer_info_get(const hl_renderer *r, const hl_storage_buffer *b, hl_storage_buffer_info *out) {
    if (!r || !b || !out || !storage_of(r, b))
        return hl__fail(HL_ERR_VALIDATION, "hl_storage_buffer_info_get: %s", !out ? "out is NULL"
                        : "the buffer is NULL, another renderer's or destroyed");
    out->size = b->size;
    out->usage = b->usage;
    out->recovery = b->recovery;
    out->shadow_stale = b->gpu_write_mark > b->cpu_full_mark;
    out->writes_pending = b->delivered_revision != b->write_revision;
    return HL_OK;
}

/* ---- the buffer in a graph frame ---------------------------------------------------------------- */
hl_result hl__storage_import(hl_renderer *r, hl_storage_buffer *b, const char *fn, hl_graph_buffer *out) {
    if (!b || !storage_of(r, b))
        return hl__fail(HL_ERR_VALIDATION, "%s: the storage buffer is NULL, another renderer's or destroyed", fn);
    if (b->imported_frame == r->storage_frame && b->imported.id) {
        *out = b->imported;
        return HL_OK;
    }
    hl_graph_buffer gb = hl_graph_import_buffer_usage(r->graph, b->buf, b->size, rhi_usage(b), b->label);
    if (!gb.id) return hl_last_error_code() ? hl_last_error_code() : HL_ERR_VALIDATION;
    hl_graph_mark_output_buffer(r->graph, gb); /* what passes write into it outlives the frame */
    if (b->delivered_revision == b->write_revision) b->pending_count = 0;
    for (uint32_t i = 0; i < b->pending_count; i++) {
        const write_range *w = &b->pending[i];
        hl_result res = hl_graph_upload_buffer(r->graph, b->buf, w->offset, b->shadow + w->offset, w->size,
                                               &b->delivered_revision, b->write_revision);
        if (res) return res;
    }
    b->imported_frame = r->storage_frame;
    b->imported = gb;
    *out = gb;
    return HL_OK;
}

hl_result hl__storage_written(hl_renderer *r, hl_storage_buffer *b) {
    return hl_graph_commit_on_submit(r->graph, &b->gpu_write_mark, ++r->storage_clock);
}

hl_storage_buffer *hl__storage_of_graph_buffer(hl_renderer *r, hl_graph_buffer gb) {
    for (hl_storage_buffer *s = r->storage_buffers; s; s = s->next)
        if (s->imported_frame == r->storage_frame && s->imported.id == gb.id) return s;
    return NULL;
}

void hl__storage_free(hl_renderer *r) {
    while (r->storage_buffers) {
        hl_storage_buffer *b = r->storage_buffers;
        r->storage_buffers = b->next;
        buffer_free(r, b);
    }
    if (r->storage_read.staging.id) hl_rhi_buffer_destroy(r->dev, r->storage_read.staging);
    memset(&r->storage_read, 0, sizeof r->storage_read);
}

/* ---- asynchronous reads -------------------------------------------------------------------------- */
typedef struct read_pass {
    hl_graph_buffer src, dst;
    uint64_t offset, size;
} read_pass;

static hl_result setup_read(hl_graph_pass_builder *b, void *params, void *user) {
    read_pass *p = params;
    *p = *(const read_pass *)user;
    hl_result res = hl_graph_copy_buffer(b, p->src, p->dst);
    if (!res) res = hl_graph_side_effect(b);
    return res;
}

static hl_result exec_read(hl_graph_ctx *ctx, void *params, void *user) {
    (void)user;
    const read_pass *p = params;
    return hl_rhi_cmd_copy_buffer_to_buffer(hl_graph_ctx_cmd(ctx), hl_graph_ctx_buffer(ctx, p->src), p->offset,
                                            hl_graph_ctx_buffer(ctx, p->dst), 0, p->size);
}

hl_result hl_storage_buffer_read(hl_renderer *r, hl_storage_buffer *b, uint64_t offset, uint64_t size) {
    const char *fn = "hl_storage_buffer_read";
    hl_result res = hl__compute_check(r, fn);
    if (res) return res;
    if (!b || !storage_of(r, b))
        return hl__fail(HL_ERR_VALIDATION, "%s: the buffer is NULL, another renderer's or destroyed", fn);
    if ((res = check_range(b, offset, size, fn))) return res;
    if (contents_lost(r, b, false)) return lost_error(b, fn, "read");
    hl__storage_read *rd = &r->storage_read;
    if (rd->pending)
        return hl__fail(HL_ERR_INVALID_STATE, "%s: a read of '%s' is pending (one per renderer: hl_storage_buffer_read_wait "
                        "first)", fn, rd->buffer->label);
    if (size > rd->staging_size) {
        uint64_t cap = rd->staging_size ? rd->staging_size : 256u;
        while (cap < size) cap *= 2;
        hl_rhi_buffer nb;
        hl_rhi_buffer_desc bd = {cap, HL_RHI_BUFFER_USAGE_MAP_READ | HL_RHI_BUFFER_USAGE_COPY_DST, NULL, "storage read"};
        if ((res = hl_rhi_buffer_create(r->dev, &bd, &nb))) return res;
        if (rd->staging.id) hl_rhi_buffer_destroy(r->dev, rd->staging); /* no read uses it: the last one ended */
        rd->staging = nb;
        rd->staging_size = cap;
    }
    /* a graph frame of its own: pending CPU writes, then the copy */
    r->storage_frame++;
    r->graph_ok = false;
    r->graph_read = true;
    hl_graph_begin(r->graph);
    read_pass p = {{0}, {0}, offset, size};
    res = hl__storage_import(r, b, fn, &p.src);
    if (!res) {
        p.dst = hl_graph_import_buffer(r->graph, rd->staging, "storage read");
        hl_graph_pass gp = hl_graph_add_pass(r->graph, "storage read", HL_GRAPH_PASS_COPY, setup_read, NULL, exec_read, &p,
                                             sizeof p);
        if (!p.dst.id || !gp.id) res = hl_last_error_code() ? hl_last_error_code() : HL_ERR_VALIDATION;
    }
    hl_rhi_submission sub = {0};
    if (!res) res = hl_graph_execute(r->graph, &sub);
    hl_graph_begin(r->graph); /* nothing of it is kept (hl_renderer_write_graph_dot shows render frames) */
    r->storage_frame++;
    if (res) return res;
    rd->pending = true;
    rd->buffer = b;
    rd->submission = sub;
    rd->size = size;
    return HL_OK;
}

hl_result hl_storage_buffer_read_poll(hl_renderer *r, bool *done) {
    const char *fn = "hl_storage_buffer_read_poll";
    hl_result res = hl__compute_check(r, fn);
    if (res) return res;
    if (!done) return hl__fail(HL_ERR_VALIDATION, "%s: done is NULL", fn);
    if (!r->storage_read.pending) return hl__fail(HL_ERR_INVALID_STATE, "%s: no read is pending", fn);
    return hl_rhi_submission_poll(r->dev, r->storage_read.submission, done);
}

hl_result hl_storage_buffer_read_wait(hl_renderer *r, void *dst, uint64_t dst_size, uint32_t timeout_ms) {
    const char *fn = "hl_storage_buffer_read_wait";
    hl_result res = hl__compute_check(r, fn);
    if (res) return res;
    hl__storage_read *rd = &r->storage_read;
    if (!rd->pending) return hl__fail(HL_ERR_INVALID_STATE, "%s: no read is pending", fn);
    if (!dst || dst_size < rd->size)
        return hl__fail(HL_ERR_VALIDATION, "%s: dst %s (the read is %llu bytes)", fn, dst ? "is too small" : "is NULL",
                        (unsigned long long)rd->size);
    uint32_t ms = timeout_ms ? timeout_ms : r->desc.wait_timeout_ms ? r->desc.wait_timeout_ms : 10000u;
    uint64_t ns = ms == UINT32_MAX ? UINT64_MAX : (uint64_t)ms * 1000000u;
    if ((res = hl__renderer_after(r, hl_rhi_submission_wait(r->dev, rd->submission, ns)))) return res;
    if ((res = hl__renderer_after(r, hl_rhi_buffer_read(r->dev, rd->staging, 0, dst, rd->size)))) return res;
    rd->pending = false;
    rd->buffer = NULL;
    return HL_OK;
}

/* ---- compute passes ------------------------------------------------------------------------------- */
typedef struct cp_ref {
    uint8_t group, slot; /* entries[group][slot] */
    uint8_t is_texture;
    uint8_t access; /* 0 read, 1 read-write, 2 sampled, 3 storage-texture write, 4 none (uniform), 5 write */
    uint32_t handle;
} cp_ref;

typedef struct cp_pass {
    hl_renderer *r;
    const char *name;
    hl_rhi_compute_pipeline pipeline;
    hl_rhi_bind_group_layout layouts[HL_COMPUTE_MAX_GROUPS];
    uint32_t group_count;
    hl_rhi_bind_group_entry entries[HL_COMPUTE_MAX_GROUPS][HL_COMPUTE_MAX_BINDINGS];
    uint32_t entry_count[HL_COMPUTE_MAX_GROUPS];
    cp_ref refs[HL_COMPUTE_MAX_BINDINGS];
    uint32_t ref_count;
    hl_rhi_bind_group groups[HL_COMPUTE_MAX_GROUPS];
    uint32_t xyz[3];
    hl_graph_buffer indirect;
    uint64_t indirect_offset;
} cp_pass;

static hl_result setup_cp(hl_graph_pass_builder *b, void *params, void *user) {
    cp_pass *p = params;
    *p = *(const cp_pass *)user;
    hl_result res = HL_OK;
    for (uint32_t i = 0; !res && i < p->ref_count; i++) {
        const cp_ref *f = &p->refs[i];
        bool seen = false; /* one declaration per resource and access */
        for (uint32_t k = 0; k < i; k++)
            seen |= p->refs[k].handle == f->handle && p->refs[k].is_texture == f->is_texture &&
                    p->refs[k].access == f->access;
        if (seen) continue;
        switch (f->access) {
        case 0: res = hl_graph_storage_read(b, (hl_graph_buffer){f->handle}); break;
        case 1: res = hl_graph_storage_read_write(b, (hl_graph_buffer){f->handle}); break;
        case 2: res = hl_graph_read_texture(b, (hl_graph_texture){f->handle}); break;
        case 3: res = hl_graph_storage_write_texture(b, (hl_graph_texture){f->handle}); break;
        case 5: res = hl_graph_storage_write(b, (hl_graph_buffer){f->handle}); break;
        default: break;
        }
    }
    if (!res && p->indirect.id) res = hl_graph_indirect_read(b, p->indirect);
    return res;
}

static hl_result prepare_cp(hl_graph_ctx *ctx, void *params, void *user) {
    (void)user;
    cp_pass *p = params;
    for (uint32_t i = 0; i < p->ref_count; i++) {
        const cp_ref *f = &p->refs[i];
        hl_rhi_bind_group_entry *e = &p->entries[f->group][f->slot];
        if (f->is_texture) e->view = hl_graph_ctx_view(ctx, (hl_graph_texture){f->handle});
        else e->buffer = hl_graph_ctx_buffer(ctx, (hl_graph_buffer){f->handle});
    }
    for (uint32_t g = 0; g < p->group_count; g++) {
        hl_result res = hl__frame_group_get(p->r, p->layouts[g], p->entries[g], p->entry_count[g], p->name, &p->groups[g]);
        if (res) return res;
    }
    return HL_OK;
}

static hl_result exec_cp(hl_graph_ctx *ctx, void *params, void *user) {
    (void)user;
    const cp_pass *p = params;
    hl_rhi_cmd *cmd = hl_graph_ctx_cmd(ctx);
    hl_result res = hl_rhi_cmd_begin_compute_pass(cmd, p->name);
    if (!res) res = hl_rhi_cmd_set_compute_pipeline(cmd, p->pipeline);
    for (uint32_t g = 0; !res && g < p->group_count; g++) res = hl_rhi_cmd_set_bind_group(cmd, g, p->groups[g], NULL, 0);
    if (!res)
        res = p->indirect.id ? hl_rhi_cmd_dispatch_indirect(cmd, hl_graph_ctx_buffer(ctx, p->indirect), p->indirect_offset)
                             : hl_rhi_cmd_dispatch(cmd, p->xyz[0], p->xyz[1], p->xyz[2]);
    hl_result end = hl_rhi_cmd_end_compute_pass(cmd);
    return res ? res : end;
}

static hl_result buffer_range(hl_renderer *r, hl_graph_buffer b, uint64_t offset, uint64_t *size, const char *what,
                              const char *pass, uint64_t align) {
    const hl_rhi_buffer_desc *d = hl_graph_buffer_desc(r->graph, b);
    if (!d) return hl__fail(HL_ERR_VALIDATION, "pass '%s': %s is not a buffer of this frame", pass, what);
    if (offset % align || offset > d->size || (*size && *size > d->size - offset) || (*size & 3u))
        return hl__fail(HL_ERR_VALIDATION, "pass '%s': %s: range [%llu, +%llu) of a %llu-byte buffer (offset a multiple "
                        "of %llu, size of 4, within the buffer)", pass, what, (unsigned long long)offset,
                        (unsigned long long)*size, (unsigned long long)d->size, (unsigned long long)align);
    if (!*size) *size = d->size - offset;
    if (!*size) return hl__fail(HL_ERR_VALIDATION, "pass '%s': %s: empty range at the buffer's end", pass, what);
    return HL_OK;
}

static hl_result mark_written(hl_renderer *r, hl_graph_buffer b) {
    struct hl_storage_buffer *s = hl__storage_of_graph_buffer(r, b);
    return s ? hl__storage_written(r, s) : HL_OK;
}

hl_result hl__add_compute_pass(hl_renderer *r, const char *name, struct hl_compute_kernel *k,
                               const hl__compute_resource *rs, uint32_t count, const uint32_t groups[3],
                               hl_graph_buffer indirect, uint64_t indirect_offset) {
    name = name && name[0] ? name : "compute";
    uint32_t abi_count = 0;
    const char *label = NULL;
    const hl_compute_binding *abi = k ? hl__compute_kernel_abi(r, k, &abi_count, &label) : NULL;
    if (!abi) return hl__fail(HL_ERR_VALIDATION, "compute pass '%s': the kernel is NULL, another renderer's or destroyed", name);
    if (count && !rs) return hl__fail(HL_ERR_VALIDATION, "compute pass '%s': resources is NULL with %u resources", name, count);
    const hl_rhi_limits *lim = &hl_rhi_device_caps(r->dev)->limits;
    cp_pass p;
    memset(&p, 0, sizeof p);
    p.r = r;
    p.name = name;
    hl__compute_kernel_objects(k, &p.pipeline, p.layouts, &p.group_count);
    /* every resource names a binding, once */
    for (uint32_t i = 0; i < count; i++) {
        const char *n = rs[i].name ? rs[i].name : "";
        uint32_t a = 0;
        while (a < abi_count && strcmp(abi[a].name, n)) a++;
        if (a == abi_count)
            return hl__fail(HL_ERR_VALIDATION, "compute pass '%s': resource '%s' is no binding of kernel '%s'", name, n, label);
        if (abi[a].type >= HL_COMPUTE_SAMPLER_FILTERING && abi[a].type <= HL_COMPUTE_SAMPLER_COMPARISON)
            return hl__fail(HL_ERR_VALIDATION, "compute pass '%s': '%s' is a sampler (the renderer binds samplers)", name, n);
        for (uint32_t j = 0; j < i; j++)
            if (rs[j].name && !strcmp(rs[j].name, n))
                return hl__fail(HL_ERR_VALIDATION, "compute pass '%s': resource '%s' is given twice", name, n);
    }
    for (uint32_t a = 0; a < abi_count; a++) {
        const hl_compute_binding *b = &abi[a];
        uint32_t g = b->group, slot = p.entry_count[g]++;
        hl_rhi_bind_group_entry *e = &p.entries[g][slot];
        e->binding = b->binding;
        if (b->type == HL_COMPUTE_SAMPLER_FILTERING || b->type == HL_COMPUTE_SAMPLER_NON_FILTERING) {
            e->sampler = r->default_sampler;
            continue;
        }
        if (b->type == HL_COMPUTE_SAMPLER_COMPARISON) {
            e->sampler = r->atlas_sampler;
            continue;
        }
        const hl__compute_resource *c = NULL;
        for (uint32_t i = 0; i < count && !c; i++)
            if (rs[i].name && !strcmp(rs[i].name, b->name)) c = &rs[i];
        if (!c)
            return hl__fail(HL_ERR_VALIDATION, "compute pass '%s': binding '%s' (%s, group %u binding %u) has no resource",
                            name, b->name, hl_compute_binding_type_name(b->type), b->group, b->binding);
        cp_ref *f = &p.refs[p.ref_count++];
        f->group = (uint8_t)g;
        f->slot = (uint8_t)slot;
        hl_result res;
        switch (b->type) {
        case HL_COMPUTE_UNIFORM_BUFFER: {
            if (!c->data || !c->data_size || (c->data_size & 3u) || c->data_size > HL_COMPUTE_MAX_UNIFORM_DATA ||
                c->data_size < b->min_binding_size)
                return hl__fail(HL_ERR_VALIDATION, "compute pass '%s': uniform '%s' needs data of 4..%u bytes (a multiple "
                                "of 4, at least its %llu), got %u%s", name, b->name, HL_COMPUTE_MAX_UNIFORM_DATA,
                                (unsigned long long)b->min_binding_size, c->data_size, c->data ? "" : " and NULL data");
            uint32_t off = 0;
            if ((res = hl__params_slot(r, c->data, c->data_size, &off))) return res;
            e->buffer = r->fs_params;
            e->offset = off;
            e->size = c->data_size;
            f->access = 4;
            p.ref_count--; /* nothing to resolve at prepare */
            break;
        }
        case HL_COMPUTE_STORAGE_READ:
        case HL_COMPUTE_STORAGE_READ_WRITE: {
            char what[96];
            snprintf(what, sizeof what, "storage binding '%s'", b->name);
            uint64_t size = c->size;
            if (!c->buffer.id) return hl__fail(HL_ERR_VALIDATION, "compute pass '%s': %s has no buffer", name, what);
            if ((res = buffer_range(r, c->buffer, c->offset, &size, what, name, lim->min_storage_buffer_offset_alignment)))
                return res;
            if (size < b->min_binding_size || size > lim->max_storage_buffer_binding_size)
                return hl__fail(HL_ERR_VALIDATION, "compute pass '%s': %s binds %llu bytes (at least %llu, at most %u)", name,
                                what, (unsigned long long)size, (unsigned long long)b->min_binding_size,
                                lim->max_storage_buffer_binding_size);
            e->offset = c->offset;
            e->size = size;
            f->handle = c->buffer.id;
            f->access = b->type == HL_COMPUTE_STORAGE_READ ? 0 : c->overwrite ? 5 : 1;
            /* an overwrite reads nothing (its full write is marked once the pass is added) */
            if (f->access != 5 &&
                (res = hl__storage_check_input(r, c->buffer, name, f->access ? "partly read-write input" : "read")))
                return res;
            break;
        }
        case HL_COMPUTE_SAMPLED_TEXTURE_2D:
        case HL_COMPUTE_STORAGE_TEXTURE_2D_WRITE: {
            const hl_rhi_texture_desc *td = c->texture.id ? hl_graph_texture_desc(r->graph, c->texture) : NULL;
            if (!td) return hl__fail(HL_ERR_VALIDATION, "compute pass '%s': texture binding '%s' has no texture of this frame",
                                     name, b->name);
            if (td->sample_count > 1 || hl_rhi_format_get_info(td->format)->is_depth)
                return hl__fail(HL_ERR_VALIDATION, "compute pass '%s': texture '%s' must be a single-sample colour texture",
                                name, b->name);
            f->is_texture = 1;
            f->handle = c->texture.id;
            f->access = b->type == HL_COMPUTE_SAMPLED_TEXTURE_2D ? 2 : 3;
            break;
        }
        default: break;
        }
    }
    uint32_t maxg = lim->max_compute_workgroups_per_dimension;
    if (indirect.id) {
        uint64_t size = 12;
        hl_result res = buffer_range(r, indirect, indirect_offset, &size, "indirect arguments", name, 4);
        if (!res) res = hl__storage_check_input(r, indirect, name, "indirect arguments");
        if (res) return res;
        p.indirect = indirect;
        p.indirect_offset = indirect_offset;
    } else {
        for (uint32_t i = 0; i < 3; i++) p.xyz[i] = groups ? groups[i] : 0;
        if (!p.xyz[1]) p.xyz[1] = 1;
        if (!p.xyz[2]) p.xyz[2] = 1;
        if (!p.xyz[0] || p.xyz[0] > maxg || p.xyz[1] > maxg || p.xyz[2] > maxg)
            return hl__fail(HL_ERR_VALIDATION, "compute pass '%s': %u x %u x %u workgroups (x at least 1; each at most %u)",
                            name, p.xyz[0], p.xyz[1], p.xyz[2], maxg);
    }
    hl_result res = hl__scene_flush(r, false, false);
    if (res) return res;
    hl_graph_pass gp = hl_graph_add_pass(r->graph, name, HL_GRAPH_PASS_COMPUTE, setup_cp, prepare_cp, exec_cp, &p, sizeof p);
    if (!gp.id) return hl_last_error_code() ? hl_last_error_code() : HL_ERR_VALIDATION;
    for (uint32_t i = 0; !res && i < p.ref_count; i++) {
        const cp_ref *f = &p.refs[i];
        const hl_rhi_bind_group_entry *e = &p.entries[f->group][f->slot];
        if (f->access == 5) res = mark_full_write(r, (hl_graph_buffer){f->handle}, e->offset, e->size);
        if (!res && (f->access == 1 || f->access == 5)) res = mark_written(r, (hl_graph_buffer){f->handle});
    }
    return res;
}

/* ---- buffer clears and copies ------------------------------------------------------------------------ */
typedef struct buf_pass {
    hl_graph_buffer src, dst;
    uint64_t src_offset, dst_offset, size;
    bool whole; /* the whole destination (clears: the executor zero-fills it) */
} buf_pass;

static hl_result setup_clear_buf(hl_graph_pass_builder *b, void *params, void *user) {
    buf_pass *p = params;
    *p = *(const buf_pass *)user;
    /* part of a buffer: the rest is kept, so the pass reads it too */
    return p->whole ? hl_graph_clear_buffer(b, p->dst) : hl_graph_storage_read_write(b, p->dst);
}

static hl_result exec_clear_buf(hl_graph_ctx *ctx, void *params, void *user) {
    (void)user;
    const buf_pass *p = params;
    if (p->whole) return HL_OK;
    return hl_rhi_cmd_clear_buffer(hl_graph_ctx_cmd(ctx), hl_graph_ctx_buffer(ctx, p->dst), p->dst_offset, p->size);
}

hl_result hl__add_buffer_clear_pass(hl_renderer *r, const char *name, hl_graph_buffer buf, uint64_t offset, uint64_t size) {
    name = name && name[0] ? name : "clear buffer";
    buf_pass p;
    memset(&p, 0, sizeof p);
    hl_result res = buffer_range(r, buf, offset, &size, "the buffer", name, 4);
    if (res) return res;
    p.dst = buf;
    p.dst_offset = offset;
    p.size = size;
    p.whole = offset == 0 && size == hl_graph_buffer_desc(r->graph, buf)->size;
    if ((res = hl__scene_flush(r, false, false))) return res;
    hl_graph_pass gp = hl_graph_add_pass(r->graph, name, HL_GRAPH_PASS_COPY, setup_clear_buf, NULL, exec_clear_buf, &p,
                                         sizeof p);
    if (!gp.id) return hl_last_error_code() ? hl_last_error_code() : HL_ERR_VALIDATION;
    if ((res = mark_full_write(r, buf, offset, size))) return res;
    return mark_written(r, buf);
}

static hl_result setup_copy_buf(hl_graph_pass_builder *b, void *params, void *user) {
    buf_pass *p = params;
    *p = *(const buf_pass *)user;
    return p->whole ? hl_graph_copy_buffer(b, p->src, p->dst) : hl_graph_copy_buffer_part(b, p->src, p->dst);
}

static hl_result exec_copy_buf(hl_graph_ctx *ctx, void *params, void *user) {
    (void)user;
    const buf_pass *p = params;
    return hl_rhi_cmd_copy_buffer_to_buffer(hl_graph_ctx_cmd(ctx), hl_graph_ctx_buffer(ctx, p->src), p->src_offset,
                                            hl_graph_ctx_buffer(ctx, p->dst), p->dst_offset, p->size);
}

hl_result hl__add_buffer_copy_pass(hl_renderer *r, const char *name, hl_graph_buffer src, uint64_t src_offset,
                                   hl_graph_buffer dst, uint64_t dst_offset, uint64_t size) {
    name = name && name[0] ? name : "copy buffer";
    if (src.id == dst.id) return hl__fail(HL_ERR_VALIDATION, "pass '%s': source and destination are one buffer", name);
    if (!size) return hl__fail(HL_ERR_VALIDATION, "pass '%s': size 0", name);
    uint64_t s1 = size, s2 = size;
    hl_result res = buffer_range(r, src, src_offset, &s1, "the source", name, 4);
    if (!res) res = buffer_range(r, dst, dst_offset, &s2, "the destination", name, 4);
    if (!res) res = hl__storage_check_input(r, src, name, "copied");
    if (!res) res = hl__scene_flush(r, false, false);
    if (res) return res;
    buf_pass p = {src, dst, src_offset, dst_offset, size, dst_offset == 0 && size == hl_graph_buffer_desc(r->graph, dst)->size};
    hl_graph_pass gp = hl_graph_add_pass(r->graph, name, HL_GRAPH_PASS_COPY, setup_copy_buf, NULL, exec_copy_buf, &p,
                                         sizeof p);
    if (!gp.id) return hl_last_error_code() ? hl_last_error_code() : HL_ERR_VALIDATION;
    if ((res = mark_full_write(r, dst, dst_offset, size))) return res;
    return mark_written(r, dst);
}
