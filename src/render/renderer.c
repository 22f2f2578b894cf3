/* The renderer object and frame orchestration: the one place a frame is put together
 * (the future RenderPipelineHost of seed 003). hl_renderer_render and
 * hl_renderer_render_frame both run: begin graph frame -> record views (render_frame.c) ->
 * graph execute (the frame transaction) -> stats and events. */
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "render_internal.h"

const char *hl_backend_name(hl_backend b) {
    switch (b) {
    case HL_BACKEND_AUTO: return "auto";
    case HL_BACKEND_WEBGPU: return "webgpu";
    case HL_BACKEND_GLES3: return "gles3";
    default: return "unknown";
    }
}

hl_result hl_backend_parse(const char *name, hl_backend *out) {
    static const hl_backend all[] = {HL_BACKEND_AUTO, HL_BACKEND_WEBGPU, HL_BACKEND_GLES3};
    if (!out) return hl__fail(HL_ERR_VALIDATION, "hl_backend_parse: out is NULL");
    for (uint32_t i = 0; name && i < 3; i++)
        if (strcmp(name, hl_backend_name(all[i])) == 0) {
            *out = all[i];
            return HL_OK;
        }
    return hl__fail(HL_ERR_VALIDATION, "backend '%s' is not auto, webgpu or gles3", name ? name : "(null)");
}

/* ---- render targets ------------------------------------------------------------------------------ */
static void target_release_textures(hl_renderer *r, hl_render_target *t) {
    for (uint32_t i = 0; i < 4; i++) {
        hl_rhi_texture_destroy(r->dev, t->color[i]);
        hl_rhi_texture_destroy(r->dev, t->msaa[i]);
        t->color[i] = t->msaa[i] = (hl_rhi_texture){0};
    }
    hl_rhi_texture_destroy(r->dev, t->depth);
    t->depth = (hl_rhi_texture){0};
}

static hl_result target_alloc(hl_renderer *r, hl_render_target *t) {
    hl_rhi_texture_desc d = {0};
    d.width = t->desc.width;
    d.height = t->desc.height;
    hl_result res = HL_OK;
    for (uint32_t i = 0; !res && i < t->desc.color_count; i++) {
        d.format = t->formats[i];
        d.sample_count = 1;
        d.usage = HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT | HL_RHI_TEXTURE_USAGE_SAMPLED | HL_RHI_TEXTURE_USAGE_COPY_SRC |
                  HL_RHI_TEXTURE_USAGE_COPY_DST;
        d.label = t->desc.label;
        res = hl_rhi_texture_create(r->dev, &d, &t->color[i]);
        if (!res && t->desc.sample_count > 1) {
            d.sample_count = t->desc.sample_count;
            d.usage = HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT;
            res = hl_rhi_texture_create(r->dev, &d, &t->msaa[i]);
        }
    }
    if (!res && !t->desc.no_depth) {
        d.format = HL_RHI_FORMAT_DEPTH24_PLUS;
        d.sample_count = t->desc.sample_count;
        d.usage = HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT;
        res = hl_rhi_texture_create(r->dev, &d, &t->depth);
    }
    if (res) target_release_textures(r, t);
    t->generation = ++r->next_object_id; /* unique in the renderer: a new target at a freed one's address never matches it */
    return res;
}

static hl_result target_create(hl_renderer *r, const hl_render_target_desc *desc, hl_render_target **out) {
    if (!r || !out) return hl__fail(HL_ERR_VALIDATION, "hl_render_target_create: %s is NULL", r ? "out" : "r");
    *out = NULL;
    hl_render_target_desc d = desc ? *desc : (hl_render_target_desc){0};
    if (!d.width) d.width = r->desc.width;
    if (!d.height) d.height = r->desc.height;
    if (!d.color_count) d.color_count = 1;
    if (!d.sample_count) d.sample_count = 1;
    if (d.color_count > 4)
        return hl__fail(HL_ERR_VALIDATION, "hl_render_target_create: color_count %u (at most 4)", d.color_count);
    if (d.sample_count != 1 && d.sample_count != 4)
        return hl__fail(HL_ERR_VALIDATION, "hl_render_target_create: sample_count %u (1 or 4)", d.sample_count);
    const hl_rhi_caps *caps = hl_rhi_device_caps(r->dev);
    if (d.width > caps->limits.max_texture_dimension_2d || d.height > caps->limits.max_texture_dimension_2d)
        return hl__fail(HL_ERR_VALIDATION, "hl_render_target_create: %ux%u exceeds the device limit %u", d.width,
                        d.height, caps->limits.max_texture_dimension_2d);
    hl_render_target *t = hl__calloc(1, sizeof *t);
    if (!t) return hl__fail(HL_ERR_OUT_OF_MEMORY, "hl_render_target_create: out of memory");
    t->r = r;
    t->desc = d;
    t->desc.label = NULL;
    for (uint32_t i = 0; i < d.color_count; i++) {
        if ((unsigned)d.formats[i] > HL_TARGET_RGBA16F) {
            hl__free(t);
            return hl__fail(HL_ERR_VALIDATION, "hl_render_target_create: formats[%u] is out of range", i);
        }
        t->formats[i] = hl__target_rhi_format(d.formats[i]);
        const hl_rhi_format_caps *fc = &caps->formats[t->formats[i]];
        if (!(fc->flags & HL_RHI_FORMAT_CAP_RENDERABLE) || !(fc->sample_counts & d.sample_count)) {
            hl__free(t);
            return hl__fail(HL_ERR_UNSUPPORTED, "hl_render_target_create: formats[%u] (%s) is not renderable with %u samples",
                            i, hl_rhi_format_get_info(t->formats[i])->name, d.sample_count);
        }
    }
    /* without GPU objects (lost, or released) the attachments are made when they are rebuilt */
    hl_result res = r->gpu_state == HL__GPU_LIVE ? target_alloc(r, t) : HL_OK;
    if (res) {
        hl__free(t);
        return res;
    }
    if (r->gpu_state != HL__GPU_LIVE) t->generation = ++r->next_object_id;
    t->next_target = r->targets;
    r->targets = t;
    *out = t;
    return HL_OK;
}

hl_result hl_render_target_create(hl_renderer *r, const hl_render_target_desc *desc, hl_render_target **out) {
    if (r) {
        hl_result res = hl_rhi_device_check_thread(r->dev, "hl_render_target_create");
        if (res) {
            if (out) *out = NULL;
            return res;
        }
    }
    return target_create(r, desc, out);
}

/* The one ownership check of every call that takes a target: r must be the renderer that created
 * t (objects of another renderer are refused before anything is touched). */
static hl_result target_check(const hl_renderer *r, const hl_render_target *t, const char *fn) {
    if (!r || !t) return hl__fail(HL_ERR_VALIDATION, "%s: %s is NULL", fn, r ? "the target" : "the renderer");
    hl_result res = hl_rhi_device_check_thread(r->dev, fn); /* before reading any renderer state */
    if (res) return res;
    for (const hl_render_target *it = r->targets; it; it = it->next_target)
        if (it == t) return HL_OK;
    return hl__fail(HL_ERR_VALIDATION, "%s: the target was not created by this renderer (or was destroyed)", fn);
}

/* ---- attachment textures of every renderer in the process ----------------------------------
 * hl_render_target_texture gives a scene texture that stands for an attachment; only the
 * target's renderer can draw it. The registry lets another renderer recognise such a texture
 * (and refuse it) instead of uploading the 1x1 stand-in. Touched only on cache misses. */
static pthread_mutex_t g_proxy_lock = PTHREAD_MUTEX_INITIALIZER;
static struct proxy_entry {
    const hl_texture *texture;
    const hl_renderer *owner;
} *g_proxies;
static uint32_t g_proxy_count, g_proxy_capacity;

static bool proxy_add(const hl_texture *tex, const hl_renderer *owner) {
    pthread_mutex_lock(&g_proxy_lock);
    bool ok = hl__reserve((void **)&g_proxies, &g_proxy_capacity, g_proxy_count + 1, sizeof *g_proxies);
    if (ok) g_proxies[g_proxy_count++] = (struct proxy_entry){tex, owner};
    pthread_mutex_unlock(&g_proxy_lock);
    return ok;
}

static void proxy_remove(const hl_texture *tex) {
    pthread_mutex_lock(&g_proxy_lock);
    for (uint32_t i = 0; i < g_proxy_count; i++)
        if (g_proxies[i].texture == tex) {
            g_proxies[i] = g_proxies[--g_proxy_count];
            break;
        }
    if (!g_proxy_count) { /* the last one gone: nothing stays allocated */
        hl__free(g_proxies);
        g_proxies = NULL;
        g_proxy_capacity = 0;
    }
    pthread_mutex_unlock(&g_proxy_lock);
}

const hl_renderer *hl__proxy_owner(const hl_texture *tex) {
    const hl_renderer *owner = NULL;
    pthread_mutex_lock(&g_proxy_lock);
    for (uint32_t i = 0; i < g_proxy_count && !owner; i++)
        if (g_proxies[i].texture == tex) owner = g_proxies[i].owner;
    pthread_mutex_unlock(&g_proxy_lock);
    return owner;
}

static void target_free(hl_renderer *r, hl_render_target *t) {
    for (uint32_t i = 0; i < 4; i++) {
        if (!t->scene_tex[i]) continue;
        proxy_remove(t->scene_tex[i]);
        uint32_t k = hl__ptr_map_get(&r->texture_map, t->scene_tex[i]);
        if (k != UINT32_MAX) hl__gpu_texture_release(r, k);
        hl_texture_release(t->scene_tex[i]);
    }
    target_release_textures(r, t);
    for (hl_render_target **it = &r->targets; *it; it = &(*it)->next_target)
        if (*it == t) {
            *it = t->next_target;
            break;
        }
    hl__free(t);
}

/* The mirror record that maps a target's attachment texture (tex, attachment index) to the
 * target: its index, UINT32_MAX when out of memory (nothing kept). It holds a reference. */
static uint32_t proxy_record(hl_renderer *r, hl_render_target *t, uint32_t index, hl_texture *tex) {
    uint32_t i;
    hl__gpu_texture *g = hl__record_alloc((void ***)&r->textures, &r->texture_count, &r->texture_capacity,
                                          &r->texture_hint, sizeof *g, &i);
    if (!g) return UINT32_MAX;
    if (!hl__ptr_map_put(&r->texture_map, tex, i)) {
        hl__record_clear((void **)r->textures, i, &r->texture_hint);
        return UINT32_MAX;
    }
    hl_texture_retain(tex);
    g->texture = tex;
    g->target = t;
    g->target_index = index;
    return i;
}

void hl__targets_drop(hl_renderer *r) {
    for (hl_render_target *t = r->targets; t; t = t->next_target) target_release_textures(r, t);
}

hl_result hl__targets_rebuild(hl_renderer *r) {
    hl_result res = HL_OK;
    for (hl_render_target *t = r->targets; t && !res; t = t->next_target) {
        if (!t->color[0].id) res = target_alloc(r, t);
        /* the attachment proxies: their mirrors went with the others (hl_render_target_texture) */
        for (uint32_t i = 0; !res && i < 4; i++)
            if (t->scene_tex[i] && hl__ptr_map_get(&r->texture_map, t->scene_tex[i]) == UINT32_MAX &&
                proxy_record(r, t, i, t->scene_tex[i]) == UINT32_MAX)
                res = hl__fail(HL_ERR_OUT_OF_MEMORY, "renderer: out of memory restoring a render target's texture");
    }
    return res;
}

hl_result hl_render_target_destroy(hl_renderer *r, hl_render_target *t) {
    if (!t) return HL_OK;
    hl_result res = target_check(r, t, "hl_render_target_destroy");
    if (res) return res;
    if (t == r->output)
        return hl__fail(HL_ERR_VALIDATION, "hl_render_target_destroy: the renderer's output is destroyed with the renderer");
    if (r->in_frame || r->in_record) return hl__fail(HL_ERR_INVALID_STATE, "hl_render_target_destroy: inside hl_renderer_render_frame");
    target_free(r, t);
    return HL_OK;
}

hl_result hl_render_target_resize(hl_renderer *r, hl_render_target *t, uint32_t width, uint32_t height) {
    hl_result check = target_check(r, t, "hl_render_target_resize");
    if (check) return check;
    if (r->in_frame || r->in_record) return hl__fail(HL_ERR_INVALID_STATE, "hl_render_target_resize: inside hl_renderer_render_frame");
    if (!width || !height) return hl__fail(HL_ERR_VALIDATION, "hl_render_target_resize: size %ux%u", width, height);
    if (width == t->desc.width && height == t->desc.height) return HL_OK;
    const uint32_t max_dim = hl_rhi_device_caps(r->dev)->limits.max_texture_dimension_2d;
    if (width > max_dim || height > max_dim)
        return hl__fail(HL_ERR_VALIDATION, "hl_render_target_resize: %ux%u exceeds the device limit %u", width, height,
                        max_dim);
    const uint32_t old_w = t->desc.width, old_h = t->desc.height;
    target_release_textures(r, t);
    t->desc.width = width;
    t->desc.height = height;
    if (r->gpu_state != HL__GPU_LIVE) { /* lost or released: made at this size when rebuilt */
        t->generation = ++r->next_object_id;
        return HL_OK;
    }
    hl_result res = target_alloc(r, t);
    if (res) { /* keep the target usable at its old size (the first failure's message stays) */
        t->desc.width = old_w;
        t->desc.height = old_h;
        (void)target_alloc(r, t);
    }
    return res;
}

size_t hl_render_target_read_size(const hl_render_target *t, uint32_t index) {
    if (!t || index >= t->desc.color_count) return 0;
    size_t texel = t->formats[index] == HL_RHI_FORMAT_RGBA16_FLOAT ? 8u : 4u;
    return (size_t)t->desc.width * t->desc.height * texel;
}

hl_result hl_render_target_read(hl_renderer *r, hl_render_target *t, uint32_t index, void *pixels, size_t size) {
    hl_result res = target_check(r, t, "hl_render_target_read");
    if (res) return res;
    if (!pixels) return hl__fail(HL_ERR_VALIDATION, "hl_render_target_read: pixels is NULL");
    if (r->in_frame || r->in_record) return hl__fail(HL_ERR_INVALID_STATE, "hl_render_target_read: inside hl_renderer_render_frame");
    if (index >= t->desc.color_count)
        return hl__fail(HL_ERR_VALIDATION, "hl_render_target_read: index %u (the target has %u attachments)", index,
                        t->desc.color_count);
    size_t need = hl_render_target_read_size(t, index);
    if (size < need)
        return hl__fail(HL_ERR_VALIDATION, "hl_render_target_read: the buffer holds %zu bytes, attachment %u needs %zu (%ux%u, %s)",
                        size, index, need, t->desc.width, t->desc.height, hl_rhi_format_get_info(t->formats[index])->name);
    if ((res = hl__renderer_ready(r, "hl_render_target_read", false))) return res;
    hl_rhi_texture_region all = {0};
    return hl__renderer_after(r, hl_rhi_texture_read(r->dev, t->color[index], &all, pixels, 0));
}

hl_texture *hl_render_target_texture(hl_render_target *t, uint32_t index) {
    if (!t || index >= t->desc.color_count) return NULL;
    if (hl_rhi_device_check_thread(t->r->dev, "hl_render_target_texture")) return NULL;
    if (t->scene_tex[index]) return t->scene_tex[index];
    hl_renderer *r = t->r;
    /* A 1x1 stand-in: the renderer maps this texture to the attachment, never uploads it. */
    static const uint8_t px[4] = {0, 0, 0, 255};
    hl_texture_desc d = {0};
    d.width = d.height = 1;
    d.pixels = px;
    d.pixels_size = sizeof px;
    d.mipmaps = HL_MIPMAPS_NONE;
    d.color_space = HL_COLOR_SPACE_LINEAR;
    d.label = "render target";
    hl_texture *tex = NULL;
    if (hl_texture_create(&d, &tex)) return NULL;
    uint32_t i = proxy_record(r, t, index, tex);
    if (i == UINT32_MAX) {
        hl_texture_release(tex);
        return NULL;
    }
    if (!proxy_add(tex, r)) {
        hl__gpu_texture_release(r, i);
        hl_texture_release(tex);
        return NULL;
    }
    t->scene_tex[index] = tex;
    return tex;
}

/* ---- the renderer ---------------------------------------------------------------------------------- */
/* A device of backend b (AUTO: the RHI's choice) that the gate accepts, or an error. */
/* A device of backend b (AUTO: the RHI's choice) that the gate accepts, or an error;
 * *refused tells a gate refusal from a device that did not start. */
static hl_result device_create(const hl_renderer_desc *d, hl_rhi_backend b, uint32_t features, hl__device_gate_fn gate,
                               void *gate_user, hl_rhi_device **out, bool *refused, hl_rhi_backend *refused_backend) {
    *refused = false;
    hl_rhi_device_desc dd = {0};
    dd.backend = b;
    dd.requirements.features = features;
    dd.dawn_library_path = d->dawn_library_path;
    dd.wait_timeout_ms = d->wait_timeout_ms;
    dd.gpu_timing = d->gpu_timing;
    dd.label = "renderer";
    hl__present_display(d, &dd.display);
    hl_result res = hl_rhi_device_create(&dd, out);
    if (res || !gate) return res;
    res = gate(gate_user, hl_rhi_device_caps(*out));
    if (res) {
        *refused = true;
        *refused_backend = hl_rhi_device_backend(*out);
        hl_rhi_device_destroy(*out);
        *out = NULL;
    }
    return res;
}

hl_result hl__renderer_create(const hl_renderer_desc *desc, uint32_t rhi_features, hl__device_gate_fn gate,
                              void *gate_user, hl_renderer **out) {
    if (!out) return hl__fail(HL_ERR_VALIDATION, "hl_renderer_create: out is NULL");
    *out = NULL;
    hl_renderer_desc d = desc ? *desc : (hl_renderer_desc){0};
    if (!d.width) d.width = 640;
    if (!d.height) d.height = 480;
    if (!d.sample_count) d.sample_count = 4;
    if (!d.shadow_atlas_size) d.shadow_atlas_size = 2048;
    if ((unsigned)d.backend > HL_BACKEND_GLES3)
        return hl__fail(HL_ERR_VALIDATION, "hl_renderer_create: desc.backend %d is out of range", (int)d.backend);
    if (d.sample_count != 1 && d.sample_count != 4)
        return hl__fail(HL_ERR_VALIDATION, "hl_renderer_create: desc.sample_count %u (1 or 4)", d.sample_count);
    if (d.shadow_atlas_size < 64 || d.shadow_atlas_size > 8192)
        return hl__fail(HL_ERR_VALIDATION, "hl_renderer_create: desc.shadow_atlas_size %u (64..8192)", d.shadow_atlas_size);
    hl_result vres = hl__present_validate_desc(&d);
    if (vres) return vres;
    if (d.frontend_threads > HL__MAX_FRONTEND_THREADS)
        return hl__fail(HL_ERR_VALIDATION, "hl_renderer_create: desc.frontend_threads %u (0..%u)", d.frontend_threads,
                        HL__MAX_FRONTEND_THREADS);
    if (!d.frontend_threads) d.frontend_threads = hl__workers_default_threads();
    hl_renderer *r = hl__calloc(1, sizeof *r);
    if (!r) return hl__fail(HL_ERR_OUT_OF_MEMORY, "hl_renderer_create: out of memory");
    r->desc = d;
    hl_rhi_backend want = d.backend == HL_BACKEND_WEBGPU ? HL_RHI_BACKEND_WEBGPU
                          : d.backend == HL_BACKEND_GLES3 ? HL_RHI_BACKEND_GLES3
                                                          : HL_RHI_BACKEND_AUTO;
    bool refused = false;
    hl_rhi_backend refused_backend = HL_RHI_BACKEND_AUTO;
    hl_result res = device_create(&d, want, rhi_features, gate, gate_user, &r->dev, &refused, &refused_backend);
    if (res && refused && want == HL_RHI_BACKEND_AUTO && refused_backend == HL_RHI_BACKEND_WEBGPU) {
        /* AUTO: a webgpu device the requirements refuse (not one that failed to start) is
           skipped for gles3, the next backend; the message keeps both reasons */
        char first[512];
        snprintf(first, sizeof first, "%s", hl_last_error());
        res = device_create(&d, HL_RHI_BACKEND_GLES3, rhi_features, gate, gate_user, &r->dev, &refused,
                            &refused_backend);
        if (res) {
            char second[512];
            snprintf(second, sizeof second, "%s", hl_last_error());
            hl__fail(res, "hl_renderer_create: no backend meets the requirements: %s; %s", first, second);
        }
    }
    if (res) {
        hl__free(r);
        return res;
    }
    r->backend = hl_rhi_device_backend(r->dev);
    r->created_caps = *hl_rhi_device_caps(r->dev);
    r->gl_depth = hl_rhi_device_caps(r->dev)->clip_depth_negative_one;
    hl_graph_desc gd = {r->dev, 0, "renderer"};
    res = hl_graph_create(&gd, &r->graph);
    r->parallel_min = HL__PARALLEL_MIN;
    if (!res) res = hl__workers_start(d.frontend_threads, &r->workers);
    if (!res) res = hl__render_resources_init(r);
    hl_render_target_desc od = {0};
    od.width = d.width;
    od.height = d.height;
    od.sample_count = d.sample_count;
    if (!res) res = target_create(r, &od, &r->output);
    if (!res) res = hl__present_gpu_rebuild(r); /* the window's surface, configured at the output's size */
    if (res) {
        hl_renderer_destroy(r);
        return res;
    }
    *out = r;
    return HL_OK;
}

void hl__renderer_set_host(hl_renderer *r, const hl__render_host *host) { r->host = *host; }

hl_result hl__layout_target(hl_renderer *r, uint32_t color_count, const hl_rhi_format *formats, bool no_depth,
                            uint32_t samples, hl_render_target **out) {
    for (uint32_t i = 0; i < r->layout_count; i++) {
        hl_render_target *t = r->layouts[i];
        if (t->desc.color_count != color_count || t->desc.no_depth != no_depth || t->desc.sample_count != samples)
            continue;
        if (!memcmp(t->formats, formats, color_count * sizeof *formats)) {
            *out = t;
            return HL_OK;
        }
    }
    if (!hl__reserve((void **)&r->layouts, &r->layout_capacity, r->layout_count + 1, sizeof *r->layouts))
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "renderer: out of memory for an attachment layout");
    hl_render_target *t = hl__calloc(1, sizeof *t);
    if (!t) return hl__fail(HL_ERR_OUT_OF_MEMORY, "renderer: out of memory for an attachment layout");
    t->r = r;
    t->layout_only = true;
    t->desc.color_count = color_count;
    t->desc.sample_count = samples;
    t->desc.no_depth = no_depth;
    memcpy(t->formats, formats, color_count * sizeof *formats);
    t->generation = ++r->next_object_id;
    r->layouts[r->layout_count++] = t;
    *out = t;
    return HL_OK;
}

void hl_renderer_destroy(hl_renderer *r) {
    if (!r) return;
    if (r->dev) {
        /* the owner, or any thread once detached (it takes the renderer over); another
           thread's renderer is left untouched with an HL_ERR_INVALID_STATE message */
        if (hl_rhi_device_attach(r->dev)) return;
        /* a GPU that did not finish within the timeout: the rest of the teardown waits no more
           (the RHI releases what it can) */
        if (hl_rhi_device_wait_idle(r->dev) == HL_ERR_TIMEOUT) hl_rhi_device_set_wait_timeout(r->dev, 1);
    }
    if (r->in_record) {
        hl__fail(HL_ERR_INVALID_STATE, "hl_renderer_destroy: called from the pipeline's record callback (ignored)");
        return;
    }
    if (r->host.destroy) {
        hl__render_host host = r->host;
        r->host = (hl__render_host){0};
        host.destroy(host.user);
    }
    if (r->graph) hl_graph_destroy(r->graph);
    if (r->dev) hl__present_free(r);
    while (r->targets) target_free(r, r->targets); /* the output and every target the app kept */
    hl__compute_shaders_free(r);
    if (r->dev) hl__storage_free(r);
    if (r->dev) hl__storage_shaders_free(r);
    if (r->dev) {
        hl__bundles_free(r);
        hl__render_release_retired(r);
        hl__render_fullscreen_free(r); /* before the programs: the groups use their layouts */
        hl__render_ubufs_free(r);
        hl__render_resources_free(r); /* material mirrors first: they hold uses of programs */
        hl__render_programs_free(r);
    }
    hl__free(r->draws);
    hl__free(r->order);
    hl__free(r->sort_items);
    hl__free(r->sort_spare);
    hl__free(r->inst_items);
    hl__free(r->batch_table);
    hl__free(r->seen_table);
    hl__free(r->draw_memo);
    hl__free(r->visible_recs);
    hl__free(r->visible_pos);
    hl__free(r->visible_flags);
    hl__free(r->visible_kind);
    for (uint32_t i = 0; i < HL__MAX_WORKER_PARTS; i++) {
        hl__free(r->build_parts[i].serial);
        hl__free(r->build_parts[i].rest);
        hl__free(r->build_parts[i].dirty);
        hl__free(r->build_parts[i].commits);
        hl__free(r->build_parts[i].stamps);
    }
    hl__free(r->object_cpu);
    hl__free(r->object_dirty);
    hl__free(r->mip_scratch);
    hl__free(r->draw_order);
    hl__free(r->sorted_packets);
    hl__free(r->lists);
    hl__free(r->list_items);
    hl__free(r->draw_counted);
    hl__free(r->batch_meshes);
    hl__ptr_map_free(&r->ev_told);
    hl__ptr_map_free(&r->before_told);
    hl__ptr_map_free(&r->face_counted);
    for (uint32_t i = 0; i < r->layout_count; i++) hl__free(r->layouts[i]);
    hl__free(r->layouts);
    for (uint32_t i = 0; i < HL__MAX_VIEWS; i++) {
        hl__free(r->sort_cache[i].keys);
        hl__free(r->sort_cache[i].order);
    }
    hl__workers_stop(r->workers);
    hl__free(r->instance_data);
    hl__free(r->retired_buffers);
    hl__free(r->retired_groups);
    hl__free(r->retired_layouts);
    if (r->dev) hl_rhi_device_destroy(r->dev);
    hl__free(r);
}

/* Getters accept NULL (AUTO / "" / 0 / an all-zero record) so a failed create cannot crash them. */
hl_backend hl_renderer_backend(const hl_renderer *r) {
    if (!r) return HL_BACKEND_AUTO;
    return r->backend == HL_RHI_BACKEND_WEBGPU ? HL_BACKEND_WEBGPU : HL_BACKEND_GLES3;
}

const char *hl_renderer_adapter_name(const hl_renderer *r) { return r ? hl_rhi_device_caps(r->dev)->adapter_name : ""; }

void hl_renderer_size(const hl_renderer *r, uint32_t *width, uint32_t *height) {
    if (width) *width = r ? r->output->desc.width : 0;
    if (height) *height = r ? r->output->desc.height : 0;
}

hl_result hl_renderer_resize(hl_renderer *r, uint32_t width, uint32_t height) {
    if (!r) return hl__fail(HL_ERR_VALIDATION, "hl_renderer_resize: r is NULL");
    hl_result res = hl_render_target_resize(r, r->output, width, height);
    if (!res) {
        r->desc.width = width;
        r->desc.height = height;
    }
    return res;
}

const hl_render_stats *hl_renderer_stats(const hl_renderer *r) {
    static const hl_render_stats none;
    return r ? &r->stats : &none;
}

hl_result hl_renderer_wait_idle(hl_renderer *r) {
    if (!r) return hl__fail(HL_ERR_VALIDATION, "hl_renderer_wait_idle: r is NULL");
    hl_result res = hl_rhi_device_check_thread(r->dev, "hl_renderer_wait_idle");
    if (res) return res;
    /* lost: HL_ERR_DEVICE_LOST (nothing to wait for); released: nothing is rebuilt for a wait */
    if (r->gpu_state == HL__GPU_LOST || hl_rhi_device_is_lost(r->dev))
        return hl__renderer_ready(r, "hl_renderer_wait_idle", false);
    res = hl__renderer_after(r, hl_rhi_device_wait_idle(r->dev));
    r->stats.gpu_ns = hl_rhi_device_stats(r->dev)->gpu_frame_ns;
    return res;
}

hl_result hl_renderer_detach(hl_renderer *r) {
    if (!r) return hl__fail(HL_ERR_VALIDATION, "hl_renderer_detach: r is NULL");
    if (r->in_frame || r->in_record) return hl__fail(HL_ERR_INVALID_STATE, "hl_renderer_detach: inside hl_renderer_render_frame");
    return hl_rhi_device_detach(r->dev);
}

hl_result hl_renderer_attach(hl_renderer *r) {
    if (!r) return hl__fail(HL_ERR_VALIDATION, "hl_renderer_attach: r is NULL");
    return hl_rhi_device_attach(r->dev);
}

hl_result hl_renderer_read_pixels(hl_renderer *r, uint8_t *rgba, size_t size) {
    if (!r) return hl__fail(HL_ERR_VALIDATION, "hl_renderer_read_pixels: r is NULL");
    return hl_render_target_read(r, r->output, 0, rgba, size);
}

/* ---- frames ------------------------------------------------------------------------------------ */
void hl__renderer_set_parallel_min(hl_renderer *r, uint32_t n) {
    if (r) r->parallel_min = n ? n : HL__PARALLEL_MIN;
}

static void frame_begin(hl_renderer *r) {
    uint64_t frame_index = r->stats.frame_index;
    memset(&r->stats, 0, sizeof r->stats);
    r->stats.frame_index = frame_index;
    r->stats.device_recoveries = r->recoveries;
    r->stats.device_generation = hl_rhi_device_generation(r->dev);
    hl__present_stats(r);
    r->frame_serial++;
    r->storage_frame++;
    r->view_count = 0;
    r->invocations = 0;
    r->list_count = 0;
    r->list_item_count = 0;
    r->fs_params_used = 0;
    r->has_pending_scene = false;
    r->batch_mesh_count = 0;
    r->after_events = false;
    if (r->draw_counted) memset(r->draw_counted, 0, r->draw_counted_capacity);
    r->draw_count = 0;
    r->tile_count = 0;
    r->instance_count = 0;
    r->object_dirty_count = 0; /* a failed frame's batch went with its graph */
    hl_graph_begin(r->graph);
    if (r->desc.before_render) r->desc.before_render(r, r->stats.frame_index + 1, r->desc.event_user);
    r->frame_t0 = hl__now_ns();
}

static void count_live(hl_renderer *r) {
    hl_render_stats *st = &r->stats;
    st->programs = st->pipelines = st->targets = 0;
    for (uint32_t i = 0; i < r->program_count; i++) st->programs += r->programs[i] != NULL;
    for (uint32_t i = 0; i < r->pipeline_count; i++) st->pipelines += r->pipelines[i] != NULL;
    for (const hl_render_target *t = r->targets; t; t = t->next_target) st->targets++;
    st->gpu_objects = hl_rhi_device_live_objects(r->dev);
    st->mirrors = hl__mirror_count(r);
}

static void repoint_instances(hl_rhi_draw_packet *pk, hl_rhi_buffer old, hl_rhi_buffer nb) {
    for (uint32_t k = 0; k < pk->vertex_buffer_count; k++)
        if (pk->vertex_buffers[k].id == old.id) pk->vertex_buffers[k] = nb;
}

static hl_result frame_finish(hl_renderer *r, hl_result res) {
    const hl_rhi_stats *rs = hl_rhi_device_stats(r->dev);
    uint64_t pipe0 = rs->pipeline_switches, bg0 = rs->bind_group_switches;
    if (!res) res = hl__flush_objects(r, true);
    if (!res && r->instance_count) {
        if (r->instance_count > r->instance_capacity) {
            uint32_t cap = r->instance_capacity;
            while (cap < r->instance_count) cap *= 2;
            hl_rhi_buffer nb;
            hl_rhi_buffer_desc bd = {(uint64_t)cap * 64u, HL_RHI_BUFFER_USAGE_VERTEX | HL_RHI_BUFFER_USAGE_COPY_DST, NULL,
                                     "instances"};
            res = hl_rhi_buffer_create(r->dev, &bd, &nb);
            if (!res) {
                /* packets recorded this frame name the old buffer: point them at the new one
                   (prepared draws are never instanced, so no record keeps the old one) */
                for (uint32_t i = 0; i < r->draw_count; i++) repoint_instances(&r->draws[i].packet, r->instance_vbo, nb);
                /* the views' sorted copies (view_sort): only a view's colour draws have one, the
                   shadow-only draws after them do not */
                for (uint32_t v = 0; v < r->view_count; v++)
                    for (uint32_t i = 0; i < r->views[v].draw_count; i++)
                        repoint_instances(&r->sorted_packets[r->views[v].draw_first + i], r->instance_vbo, nb);
                res = hl__retire_buffer(r, r->instance_vbo);
                if (res) hl_rhi_buffer_destroy(r->dev, nb);
                else r->instance_vbo = nb;
                r->instance_capacity = cap;
            }
        }
        if (!res)
            res = hl_graph_upload_buffer(r->graph, r->instance_vbo, 0, r->instance_data, (uint64_t)r->instance_count * 64u,
                                         NULL, 0);
        r->stats.upload_bytes += (uint64_t)r->instance_count * 64u;
    }
    hl_rhi_submission sub = {0};
    r->stats.record_ns = hl__now_ns() - r->frame_t0;
    if (!res) {
        res = hl_graph_execute(r->graph, &sub);
        if (res && r->host.name) { /* a pass of the pipeline's failed in prepare or execute: name the pipeline */
            char msg[400];
            snprintf(msg, sizeof msg, "%s", hl_last_error());
            hl__fail(res, "pipeline '%s': %s", r->host.name, msg);
        }
    } else {
        hl_graph_begin(r->graph); /* drop what was recorded */
    }
    r->graph_ok = !res;
    r->graph_read = false;
    if (res) hl__retained_drop(r);
    if (!res) {
        const hl_graph_stats *gs = hl_graph_get_stats(r->graph);
        r->stats.graph_compile_ns = gs->compile_ns;
        r->stats.prepare_ns = gs->prepare_ns;
        r->stats.execute_ns = gs->execute_ns;
        r->stats.submit_ns = gs->submit_ns;
        r->stats.passes = gs->passes_total - gs->passes_culled;
        for (uint32_t v = 0; v < r->view_count; v++) {
            const hl__view *view = &r->views[v];
            if (view->scripted) continue; /* counted as its scene passes drew them */
            /* summed as its draws were sorted (a loop over them here took about 1 ms a 100k-draw
               frame on the H100 host) */
            r->stats.draws += view->draw_count;
            r->stats.instances += view->instances;
            r->stats.faces += view->faces;
        }
        r->stats.pipeline_switches = rs->pipeline_switches - pipe0;
        r->stats.bind_group_switches = rs->bind_group_switches - bg0;
        r->stats.frame_index++;
    }
    hl__bundles_frame_end(r);
    hl__render_release_retired(r);
    hl__render_fullscreen_evict(r);
    hl__render_evict(r);
    hl__render_env_evict(r);
    hl__render_programs_evict(r);
    count_live(r);
    r->stats.gpu_ns = rs->gpu_frame_ns;
    if (!res) hl__render_after_events(r);
    if (r->host.frame_end) r->host.frame_end(r->host.user, r, !res);
    if (!res && r->desc.after_render) r->desc.after_render(r, r->stats.frame_index, r->desc.event_user);
    return res;
}

/* One render call: the pipeline host's record, or the direct recorder. */
static hl_result record_invocation(hl_renderer *r, hl_render_target *t, hl_stage *stage, hl_camera *camera) {
    if (r->in_record)
        return hl__fail(HL_ERR_INVALID_STATE, "render call from inside the pipeline's record callback (refused)");
    uint32_t invocation = r->invocations++;
    if (!r->host.record) return hl__record_view(r, t, stage, camera);
    r->in_record = true;
    hl_result res = r->host.record(r->host.user, r, t, stage, camera, invocation);
    r->in_record = false;
    return res;
}

hl_result hl_renderer_render_to_target(hl_renderer *r, hl_render_target *t, hl_stage *stage, hl_camera *camera) {
    hl_result check = target_check(r, t, "hl_renderer_render_to_target");
    if (check) return check;
    if (r->in_frame || r->in_record) return hl__fail(HL_ERR_INVALID_STATE, "hl_renderer_render_to_target: inside render_frame (use hl_render_frame_render_to_target)");
    hl_result res = hl__renderer_ready(r, "hl_renderer_render_to_target", true);
    if (res) return res;
    uint64_t t0 = hl__now_ns();
    frame_begin(r);
    res = record_invocation(r, t, stage, camera);
    res = hl__renderer_after(r, frame_finish(r, res));
    r->stats.cpu_ns = hl__now_ns() - t0;
    return res;
}

hl_result hl_renderer_render(hl_renderer *r, hl_stage *stage, hl_camera *camera) {
    if (!r) return hl__fail(HL_ERR_VALIDATION, "hl_renderer_render: r is NULL");
    return hl_renderer_render_to_target(r, r->output, stage, camera);
}

hl_result hl_renderer_render_frame(hl_renderer *r, hl_render_frame_fn fn, void *user) {
    if (!r || !fn) return hl__fail(HL_ERR_VALIDATION, "hl_renderer_render_frame: %s is NULL", r ? "fn" : "r");
    hl_result check = hl_rhi_device_check_thread(r->dev, "hl_renderer_render_frame");
    if (check) return check;
    if (r->in_frame || r->in_record) return hl__fail(HL_ERR_INVALID_STATE, "hl_renderer_render_frame: already inside a frame");
    check = hl__renderer_ready(r, "hl_renderer_render_frame", true);
    if (check) return check;
    uint64_t t0 = hl__now_ns();
    frame_begin(r);
    hl_render_frame f = {r, HL_OK};
    r->in_frame = true;
    hl_result res = fn(&f, user);
    r->in_frame = false;
    if (res && !hl_last_error()[0]) /* the callback failed without a message of its own */
        hl__fail(res, "hl_renderer_render_frame: the frame callback returned %s", hl_result_name(res));
    if (!res && f.error) res = f.error;
    res = hl__renderer_after(r, frame_finish(r, res));
    r->stats.cpu_ns = hl__now_ns() - t0;
    return res;
}

hl_result hl_render_frame_render_to_target(hl_render_frame *f, hl_render_target *t, hl_stage *stage, hl_camera *camera) {
    if (!f) return hl__fail(HL_ERR_VALIDATION, "hl_render_frame_render_to_target: f is NULL");
    if (f->error) return f->error;
    hl_result res = target_check(f->r, t, "hl_render_frame_render_to_target");
    if (res) return res; /* refused before recording anything: the frame goes on */
    res = record_invocation(f->r, t, stage, camera);
    if (res) f->error = res;
    return res;
}

hl_result hl_render_frame_render(hl_render_frame *f, hl_stage *stage, hl_camera *camera) {
    if (!f) return hl__fail(HL_ERR_VALIDATION, "hl_render_frame_render: f is NULL");
    return hl_render_frame_render_to_target(f, f->r->output, stage, camera);
}

/* ---- present: copy a target's colour into the output ---------------------------------------- */
typedef struct present_pass {
    hl_graph_texture src, dst;
} present_pass;

static hl_result setup_present(hl_graph_pass_builder *b, void *params, void *user) {
    const present_pass *p = user;
    present_pass *copy = params;
    *copy = *p;
    hl_result res = hl_graph_copy_texture(b, p->src, p->dst);
    if (!res) res = hl_graph_output_texture(b, p->dst);
    return res;
}

static hl_result exec_present(hl_graph_ctx *ctx, void *params, void *user) {
    (void)user;
    const present_pass *p = params;
    hl_rhi_texture_region all = {0};
    return hl_rhi_cmd_copy_texture_to_texture(hl_graph_ctx_cmd(ctx), hl_graph_ctx_texture(ctx, p->src), &all,
                                              hl_graph_ctx_texture(ctx, p->dst), 0, 0, 0, 0);
}

hl_result hl_render_frame_present(hl_render_frame *f, hl_render_target *t) {
    if (!f) return hl__fail(HL_ERR_VALIDATION, "hl_render_frame_present: f is NULL");
    if (f->error) return f->error;
    hl_renderer *r = f->r;
    hl_result check = target_check(r, t, "hl_render_frame_present");
    if (check) return check; /* refused before recording anything: the frame goes on */
    hl_render_target *o = r->output;
    if (t->desc.width != o->desc.width || t->desc.height != o->desc.height || t->formats[0] != o->formats[0]) {
        f->error = hl__fail(HL_ERR_VALIDATION,
                            "hl_render_frame_present: the target (%ux%u %s) differs from the output (%ux%u %s)",
                            t->desc.width, t->desc.height, hl_rhi_format_get_info(t->formats[0])->name, o->desc.width,
                            o->desc.height, hl_rhi_format_get_info(o->formats[0])->name);
        return f->error;
    }
    present_pass p;
    p.src = hl_graph_import_texture(r->graph, t->color[0], "present source");
    p.dst = hl__output_import(r);
    hl_graph_pass pass = hl_graph_add_pass(r->graph, "present", HL_GRAPH_PASS_COPY, setup_present, NULL, exec_present,
                                           &p, sizeof p);
    if (!pass.id) f->error = hl_last_error_code() ? hl_last_error_code() : HL_ERR_VALIDATION;
    return f->error;
}

hl_result hl_renderer_write_graph_dot(hl_renderer *r, FILE *f) {
    if (!r || !f) return hl__fail(HL_ERR_VALIDATION, "hl_renderer_write_graph_dot: %s is NULL", r ? "f" : "r");
    hl_result res = hl_rhi_device_check_thread(r->dev, "hl_renderer_write_graph_dot");
    if (res) return res;
    if (r->in_frame || r->in_record)
        return hl__fail(HL_ERR_INVALID_STATE, "hl_renderer_write_graph_dot: inside a frame");
    if (!r->graph_ok)
        return hl__fail(HL_ERR_INVALID_STATE, "hl_renderer_write_graph_dot: %s",
                        r->graph_read            ? "a storage buffer read replaced the last frame's graph"
                        : r->stats.frame_index ? "the last frame failed"
                                               : "no frame rendered yet");
    res = hl_graph_write_dot(r->graph, f);
    if (!res && ferror(f)) res = hl__fail(HL_ERR_IO, "hl_renderer_write_graph_dot: the write failed");
    return res;
}
