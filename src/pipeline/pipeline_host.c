/* The render pipeline host: hl_renderer_create with a pipeline factory (requirements merged
 * and checked against each candidate device), the capability snapshot, runtimes (one
 * renderer each, destroyed exactly once) and the record context of each invocation.
 * The built-in Forward factory without features installs no host: the renderer keeps its
 * direct recorder. */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "pipeline_internal.h"

#define current hl__pipeline_current

/* ---- names ------------------------------------------------------------------------------------------ */
static const char *const k_format_names[HL_PIPELINE_FORMAT_COUNT] = {
    "rgba8-srgb", "rgba8", "rgba16f", "rgba32f", "r8", "depth24-plus", "depth24-plus-stencil8", "depth32f"};
static const char *const k_use_names[HL_PIPELINE_USE_COUNT] = {
    "sampled", "filterable-sampled", "color-attachment", "depth-stencil-attachment", "copy-source", "copy-destination"};

const char *hl_pipeline_format_name(hl_pipeline_format format) {
    return (unsigned)format < HL_PIPELINE_FORMAT_COUNT ? k_format_names[format] : "?";
}

const char *hl_pipeline_use_name(hl_pipeline_texture_use use) {
    return (unsigned)use < HL_PIPELINE_USE_COUNT ? k_use_names[use] : "?";
}

const char *hl_pipeline_capability_name(uint32_t capability) {
    switch (capability) {
    case HL_PIPELINE_CAP_COMPUTE: return "compute";
    case HL_PIPELINE_CAP_STORAGE_BUFFERS: return "storage-buffers";
    case HL_PIPELINE_CAP_INDEPENDENT_BLEND: return "independent-blend";
    default: return "?";
    }
}

/* ---- capabilities -------------------------------------------------------------------------------------- */
const hl_rhi_format hl__pipeline_rhi_formats[HL_PIPELINE_FORMAT_COUNT] = {
    HL_RHI_FORMAT_RGBA8_UNORM_SRGB, HL_RHI_FORMAT_RGBA8_UNORM, HL_RHI_FORMAT_RGBA16_FLOAT,
    HL_RHI_FORMAT_RGBA32_FLOAT,     HL_RHI_FORMAT_R8_UNORM,    HL_RHI_FORMAT_DEPTH24_PLUS,
    HL_RHI_FORMAT_DEPTH24_PLUS_STENCIL8, HL_RHI_FORMAT_DEPTH32_FLOAT};

static bool is_depth(hl_pipeline_format f) { return f >= HL_PIPELINE_FORMAT_DEPTH24_PLUS; }

static void caps_snapshot(const hl_rhi_caps *rc, hl_pipeline_caps *out) {
    memset(out, 0, sizeof *out);
    out->limits.max_texture_dimension_2d = rc->limits.max_texture_dimension_2d;
    out->limits.max_color_attachments = rc->limits.max_color_attachments;
    out->limits.max_sampled_textures_per_stage = rc->limits.max_sampled_textures_per_stage;
    if (rc->features & HL_RHI_FEATURE_COMPUTE) out->capabilities |= HL_PIPELINE_CAP_COMPUTE;
    if (rc->features & HL_RHI_FEATURE_STORAGE_BUFFER) out->capabilities |= HL_PIPELINE_CAP_STORAGE_BUFFERS;
    if (rc->independent_blend) out->capabilities |= HL_PIPELINE_CAP_INDEPENDENT_BLEND;
    for (uint32_t i = 0; i < HL_PIPELINE_FORMAT_COUNT; i++) out->formats[i] = rc->formats[hl__pipeline_rhi_formats[i]];
}

const hl_pipeline_limits *hl_pipeline_caps_limits(const hl_pipeline_caps *caps) {
    static const hl_pipeline_limits none = {0, 0, 0};
    return caps ? &caps->limits : &none;
}

bool hl_pipeline_caps_has(const hl_pipeline_caps *caps, uint32_t capabilities) {
    return caps && (capabilities & ~(uint32_t)HL_PIPELINE_CAP_ALL) == 0 &&
           (caps->capabilities & capabilities) == capabilities;
}

bool hl_pipeline_caps_supports_texture_format(const hl_pipeline_caps *caps, hl_pipeline_format format,
                                              hl_pipeline_texture_use use, uint32_t samples) {
    if (!caps || (unsigned)format >= HL_PIPELINE_FORMAT_COUNT || (unsigned)use >= HL_PIPELINE_USE_COUNT) return false;
    if (samples == 0) samples = 1;
    if (samples != 1 && samples != 4) return false;
    const hl_rhi_format_caps *fc = &caps->formats[format];
    bool attachment = use == HL_PIPELINE_USE_COLOR_ATTACHMENT || use == HL_PIPELINE_USE_DEPTH_STENCIL_ATTACHMENT;
    if (samples == 4 && (!attachment || !(fc->sample_counts & 4u))) return false; /* multisampled: attachments only */
    switch (use) {
    case HL_PIPELINE_USE_SAMPLED: return (fc->flags & HL_RHI_FORMAT_CAP_SAMPLED) != 0;
    case HL_PIPELINE_USE_FILTERABLE_SAMPLED:
        return (fc->flags & HL_RHI_FORMAT_CAP_SAMPLED) && (fc->flags & HL_RHI_FORMAT_CAP_FILTERABLE);
    case HL_PIPELINE_USE_COLOR_ATTACHMENT: return !is_depth(format) && (fc->flags & HL_RHI_FORMAT_CAP_RENDERABLE);
    case HL_PIPELINE_USE_DEPTH_STENCIL_ATTACHMENT: return is_depth(format) && (fc->flags & HL_RHI_FORMAT_CAP_RENDERABLE);
    case HL_PIPELINE_USE_COPY_SOURCE:
    case HL_PIPELINE_USE_COPY_DESTINATION: return !is_depth(format) && (fc->flags & HL_RHI_FORMAT_CAP_SAMPLED);
    default: return false;
    }
}

/* ---- requirements ---------------------------------------------------------------------------------------- */
/* Adds `in` to `n`: capabilities united, limits the stricter (larger) minimum, texture needs
 * de-duplicated in first-seen order (0 samples counts as 1). */
static hl_result reqs_merge(hl__pipeline_reqs *n, const hl_pipeline_requirements *in, const char *who) {
    if (!in) return HL_OK;
    if (in->capabilities & ~(uint32_t)HL_PIPELINE_CAP_ALL)
        return hl__fail(HL_ERR_VALIDATION, "hl_renderer_create: pipeline '%s': unknown capability bits 0x%x", who,
                        in->capabilities & ~(uint32_t)HL_PIPELINE_CAP_ALL);
    if (in->texture_count && !in->textures)
        return hl__fail(HL_ERR_VALIDATION, "hl_renderer_create: pipeline '%s': texture_count %u with textures NULL", who,
                        in->texture_count);
    n->capabilities |= in->capabilities;
    const uint32_t *lim_in = &in->limits.max_texture_dimension_2d;
    uint32_t *lim = &n->limits.max_texture_dimension_2d;
    for (size_t i = 0; i < sizeof n->limits / sizeof(uint32_t); i++)
        if (lim_in[i] > lim[i]) lim[i] = lim_in[i];
    for (uint32_t i = 0; i < in->texture_count; i++) {
        hl_pipeline_texture_requirement t = in->textures[i];
        if ((unsigned)t.format >= HL_PIPELINE_FORMAT_COUNT || (unsigned)t.use >= HL_PIPELINE_USE_COUNT ||
            (t.samples != 0 && t.samples != 1 && t.samples != 4))
            return hl__fail(HL_ERR_VALIDATION,
                            "hl_renderer_create: pipeline '%s': texture requirement %u (format %d, use %d, %u samples) "
                            "is out of range (samples 1 or 4)",
                            who, i, (int)t.format, (int)t.use, t.samples);
        if (t.samples == 0) t.samples = 1;
        bool seen = false;
        for (uint32_t k = 0; k < n->texture_count && !seen; k++)
            seen = n->textures[k].format == t.format && n->textures[k].use == t.use && n->textures[k].samples == t.samples;
        if (seen) continue;
        if (n->texture_count == HL_PIPELINE_MAX_TEXTURE_REQUIREMENTS)
            return hl__fail(HL_ERR_VALIDATION,
                            "hl_renderer_create: pipeline '%s': more than %u distinct texture requirements "
                            "(HL_PIPELINE_MAX_TEXTURE_REQUIREMENTS)",
                            who, HL_PIPELINE_MAX_TEXTURE_REQUIREMENTS);
        n->textures[n->texture_count++] = t;
    }
    return HL_OK;
}

typedef struct gate_ctx {
    const char *name;
    const hl__pipeline_reqs *reqs;
} gate_ctx;

/* Every requirement against one device; the message says "requires" and names the first unmet one. */
static hl_result gate(void *user, const hl_rhi_caps *rc) {
    const gate_ctx *g = user;
    hl_pipeline_caps caps;
    caps_snapshot(rc, &caps);
    const char *be = rc->backend == HL_RHI_BACKEND_WEBGPU ? "webgpu" : "gles3";
    for (uint32_t bit = 1; bit & HL_PIPELINE_CAP_ALL; bit <<= 1)
        if ((g->reqs->capabilities & bit) && !(caps.capabilities & bit))
            return hl__fail(HL_ERR_UNSUPPORTED, "pipeline '%s' requires %s, which the %s device (%s) lacks", g->name,
                            hl_pipeline_capability_name(bit), be, rc->adapter_name);
    static const char *const limit_names[] = {"max_texture_dimension_2d", "max_color_attachments",
                                              "max_sampled_textures_per_stage"};
    const uint32_t *want = &g->reqs->limits.max_texture_dimension_2d, *have = &caps.limits.max_texture_dimension_2d;
    for (size_t i = 0; i < sizeof limit_names / sizeof limit_names[0]; i++)
        if (want[i] > have[i])
            return hl__fail(HL_ERR_UNSUPPORTED, "pipeline '%s' requires limit %s >= %u; the %s device (%s) has %u", g->name,
                            limit_names[i], want[i], be, rc->adapter_name, have[i]);
    for (uint32_t i = 0; i < g->reqs->texture_count; i++) {
        const hl_pipeline_texture_requirement *t = &g->reqs->textures[i];
        if (!hl_pipeline_caps_supports_texture_format(&caps, t->format, t->use, t->samples))
            return hl__fail(HL_ERR_UNSUPPORTED, "pipeline '%s' requires texture format %s as %s with %u sample%s, which the "
                            "%s device (%s) does not support",
                            g->name, hl_pipeline_format_name(t->format), hl_pipeline_use_name(t->use), t->samples,
                            t->samples == 1 ? "" : "s", be, rc->adapter_name);
    }
    return HL_OK;
}

/* ---- runtimes ----------------------------------------------------------------------------------------- */
hl_result hl_pipeline_runtime_create(const hl_pipeline_runtime_desc *desc, hl_pipeline_runtime **out) {
    if (!out) return hl__fail(HL_ERR_VALIDATION, "hl_pipeline_runtime_create: out is NULL");
    *out = NULL;
    if (!desc) return hl__fail(HL_ERR_VALIDATION, "hl_pipeline_runtime_create: desc is NULL");
    hl_pipeline_runtime *rt = hl__calloc(1, sizeof *rt);
    if (!rt) return hl__fail(HL_ERR_OUT_OF_MEMORY, "hl_pipeline_runtime_create: out of memory");
    snprintf(rt->name, sizeof rt->name, "%s", desc->name && desc->name[0] ? desc->name : "pipeline");
    rt->state = desc->state;
    rt->record = desc->record;
    rt->destroy = desc->destroy;
    *out = rt;
    return HL_OK;
}

static void runtime_free(hl_pipeline_runtime *rt) {
    void (*destroy)(void *) = rt->destroy;
    void *state = rt->state;
    rt->destroy = NULL;
    hl__persistent_free(rt);
    hl__free(rt);
    if (destroy) destroy(state);
}

hl_result hl_pipeline_runtime_destroy(hl_pipeline_runtime *rt) {
    if (!rt) return HL_OK;
    if (rt->attached)
        return hl__fail(HL_ERR_INVALID_STATE,
                        "hl_pipeline_runtime_destroy: runtime '%s' belongs to a renderer (hl_renderer_destroy destroys it)",
                        rt->name);
    runtime_free(rt);
    return HL_OK;
}

/* ---- the built-in Forward factory ---------------------------------------------------------------------- */
hl_result hl__pipeline_direct_runtime(hl_pipeline_runtime **out) {
    hl_pipeline_runtime_desc d = {"forward", NULL, NULL, NULL};
    hl_result res = hl_pipeline_runtime_create(&d, out);
    if (!res) (*out)->direct = true;
    return res;
}

static hl_result forward_create(const hl_pipeline_caps *caps, void *user, hl_pipeline_runtime **out) {
    (void)caps, (void)user;
    return hl__pipeline_direct_runtime(out);
}

static const hl_pipeline_factory k_forward = {"forward", NULL, forward_create, NULL};

const hl_pipeline_factory *hl_forward_pipeline_factory(void) { return &k_forward; }

/* ---- invocations --------------------------------------------------------------------------------------- */

static _Thread_local invocation *g_current; /* the invocation being recorded on this thread */
static atomic_uint_fast64_t g_next_token = 1;

static hl_result host_record(void *user, hl_renderer *r, hl_render_target *t, hl_stage *stage, hl_camera *camera,
                             uint32_t index) {
    hl_pipeline_runtime *rt = user;
    if (!rt->record) return HL_OK;
    if (!stage || !camera) return hl__fail(HL_ERR_VALIDATION, "renderer: %s is NULL", stage ? "camera" : "stage");
    invocation inv = {atomic_fetch_add(&g_next_token, 1), rt, r, t, stage, camera, index, r->view_count, r->list_count};
    invocation *outer = g_current;
    g_current = &inv;
    hl_clear_error();
    hl_result res = rt->record((hl_pipeline_context){inv.token}, rt->state);
    g_current = outer;
    if (!res) res = hl__target_finish(r, t);
    if (res) {
        char msg[400];
        snprintf(msg, sizeof msg, "%s", hl_last_error()[0] ? hl_last_error() : hl_result_name(res));
        hl__fail(res, "pipeline '%s': record (invocation %u) failed: %s", rt->name, index, msg);
    }
    return res;
}

static void host_destroy(void *user) { runtime_free(user); }

/* Device loss / hl_renderer_release_gpu_resources: the persistent targets go with their records
 * (the next acquire makes them fresh). */
static void host_gpu_release(void *user) { hl__persistent_free(user); }

/* Recovery: the pipeline's requirements against the replacement device. */
static hl_result host_revalidate(void *user, const hl_rhi_caps *caps) {
    const hl_pipeline_runtime *rt = user;
    gate_ctx g = {rt->name, &rt->reqs};
    return gate(&g, caps);
}

static void host_frame_end(void *user, hl_renderer *r, bool ok) {
    (void)r;
    hl__persistent_frame_end(user, ok);
}

invocation *hl__pipeline_current(hl_pipeline_context ctx, const char *fn, hl_result *res) {
    invocation *inv = g_current;
    if (!inv || ctx.token == 0 || inv->token != ctx.token) {
        *res = hl__fail(HL_ERR_INVALID_STATE,
                        "%s: the context is not the invocation being recorded on this thread (a context is valid only "
                        "inside its record call)",
                        fn);
        return NULL;
    }
    *res = HL_OK;
    return inv;
}

hl_result hl_pipeline_context_frame_index(hl_pipeline_context ctx, uint64_t *out) {
    hl_result res;
    invocation *inv = current(ctx, "hl_pipeline_context_frame_index", &res);
    if (!inv) return res;
    if (!out) return hl__fail(HL_ERR_VALIDATION, "hl_pipeline_context_frame_index: out is NULL");
    *out = inv->r->stats.frame_index + 1;
    return HL_OK;
}

hl_result hl_pipeline_context_invocation(hl_pipeline_context ctx, uint32_t *out) {
    hl_result res;
    invocation *inv = current(ctx, "hl_pipeline_context_invocation", &res);
    if (!inv) return res;
    if (!out) return hl__fail(HL_ERR_VALIDATION, "hl_pipeline_context_invocation: out is NULL");
    *out = inv->index;
    return HL_OK;
}

hl_result hl_pipeline_context_output(hl_pipeline_context ctx, hl_pipeline_output *out) {
    hl_result res;
    invocation *inv = current(ctx, "hl_pipeline_context_output", &res);
    if (!inv) return res;
    if (!out) return hl__fail(HL_ERR_VALIDATION, "hl_pipeline_context_output: out is NULL");
    const hl_render_target_desc *d = &inv->target->desc;
    memset(out, 0, sizeof *out);
    out->kind = inv->target == inv->r->output ? HL_PIPELINE_OUTPUT_RENDERER : HL_PIPELINE_OUTPUT_RENDER_TARGET;
    out->width = d->width;
    out->height = d->height;
    out->sample_count = d->sample_count ? d->sample_count : 1;
    out->color_count = d->color_count ? d->color_count : 1;
    for (uint32_t i = 0; i < out->color_count && i < 4; i++) out->color_formats[i] = (hl_pipeline_format)d->formats[i];
    out->has_depth = !d->no_depth;
    return HL_OK;
}

hl_result hl_pipeline_context_caps(hl_pipeline_context ctx, const hl_pipeline_caps **out) {
    hl_result res;
    invocation *inv = current(ctx, "hl_pipeline_context_caps", &res);
    if (!inv) return res;
    if (!out) return hl__fail(HL_ERR_VALIDATION, "hl_pipeline_context_caps: out is NULL");
    *out = &inv->rt->caps;
    return HL_OK;
}

static hl_result texture_of(invocation *inv, hl_pipeline_texture t, const char *fn, hl_graph_texture *out);

hl_result hl_pipeline_context_scene(hl_pipeline_context ctx, hl_stage **stage, hl_camera **camera) {
    hl_result res;
    invocation *inv = current(ctx, "hl_pipeline_context_scene", &res);
    if (!inv) return res;
    if (stage) *stage = inv->stage;
    if (camera) *camera = inv->camera;
    return HL_OK;
}

/* ---- culling results, renderer lists, passes ------------------------------------------------------------ */
static hl_result culling_view(invocation *inv, hl_pipeline_culling c, const char *fn, uint32_t *view) {
    if (c.token != inv->token || c.index < inv->first_view || c.index >= inv->r->view_count ||
        !inv->r->views[c.index].scripted)
        return hl__fail(HL_ERR_INVALID_STATE, "%s: the culling result is not one of this invocation (valid only inside "
                        "the record call that made it)", fn);
    *view = c.index;
    return HL_OK;
}

hl_result hl_pipeline_cull(hl_pipeline_context ctx, const hl_pipeline_cull_desc *desc, hl_pipeline_culling *out) {
    hl_result res;
    invocation *inv = current(ctx, "hl_pipeline_cull", &res);
    if (!inv) return res;
    if (!out) return hl__fail(HL_ERR_VALIDATION, "hl_pipeline_cull: out is NULL");
    *out = (hl_pipeline_culling){0, 0};
    hl_camera *camera = desc && desc->camera ? desc->camera : inv->camera;
    hl_render_target *target = inv->target;
    if (desc && desc->color_count) {
        if (desc->color_count > 4)
            return hl__fail(HL_ERR_VALIDATION, "hl_pipeline_cull: color_count %u (at most 4)", desc->color_count);
        hl_rhi_format formats[4] = {0};
        for (uint32_t i = 0; i < desc->color_count; i++) {
            if ((unsigned)desc->color_formats[i] >= HL_PIPELINE_FORMAT_COUNT || is_depth(desc->color_formats[i]))
                return hl__fail(HL_ERR_VALIDATION, "hl_pipeline_cull: color_formats[%u] is not a colour format", i);
            formats[i] = hl__pipeline_rhi_formats[desc->color_formats[i]];
        }
        uint32_t samples = desc->samples ? desc->samples : 1;
        if (samples != 1 && samples != 4)
            return hl__fail(HL_ERR_VALIDATION, "hl_pipeline_cull: samples %u (1 or 4)", desc->samples);
        if ((res = hl__layout_target(inv->r, desc->color_count, formats, desc->no_depth, samples, &target))) return res;
    }
    bool gbuffer = desc && desc->gbuffer;
    if (gbuffer) {
        bool ok = desc->color_count == 4 && !desc->no_depth;
        for (uint32_t i = 0; ok && i < 4; i++) ok = desc->color_formats[i] == HL_PIPELINE_FORMAT_RGBA16F;
        if (!ok)
            return hl__fail(HL_ERR_VALIDATION, "hl_pipeline_cull: a G-buffer culling needs color_count 4, every colour "
                            "format RGBA16F, and depth");
    }
    uint32_t view = 0;
    if (desc && desc->base.token) {
        uint32_t base = 0;
        if ((res = culling_view(inv, desc->base, "hl_pipeline_cull (base)", &base))) return res;
        if (desc->camera && desc->camera != inv->r->views[base].camera)
            return hl__fail(HL_ERR_VALIDATION, "hl_pipeline_cull: camera differs from the base culling result's (a "
                            "derived culling reuses its visible set)");
        res = hl__view_prepare_derived(inv->r, target, base, gbuffer, desc->exclude_opaque_engine, &view);
    } else if (desc && desc->exclude_opaque_engine) {
        return hl__fail(HL_ERR_VALIDATION, "hl_pipeline_cull: exclude_opaque_engine needs a base culling (its shadows are "
                        "drawn from the base's draws)");
    } else {
        res = hl__view_prepare(inv->r, target, inv->target, inv->stage, camera, gbuffer, &view);
    }
    if (res) return res;
    *out = (hl_pipeline_culling){inv->token, view};
    return HL_OK;
}

hl_result hl_pipeline_culling_info_get(hl_pipeline_context ctx, hl_pipeline_culling culling, hl_pipeline_culling_info *out) {
    hl_result res;
    invocation *inv = current(ctx, "hl_pipeline_culling_info_get", &res);
    if (!inv) return res;
    uint32_t view = 0;
    if ((res = culling_view(inv, culling, "hl_pipeline_culling_info_get", &view))) return res;
    if (!out) return hl__fail(HL_ERR_VALIDATION, "hl_pipeline_culling_info_get: out is NULL");
    const hl__view *v = &inv->r->views[view];
    memset(out, 0, sizeof *out);
    out->visible_meshes = v->visible;
    out->culled_meshes = v->mesh_count - v->visible;
    out->shadow_casters_outside = v->shadow_count ? v->shadow_only_count : 0;
    out->lights = (uint32_t)inv->r->frame_blocks[v->frame_slot].light_info[0];
    out->shadow_tiles = v->shadow_count;
    out->draws = v->draw_count;
    return HL_OK;
}

hl_result hl_pipeline_record_shadows(hl_pipeline_context ctx, hl_pipeline_culling culling) {
    hl_result res;
    invocation *inv = current(ctx, "hl_pipeline_record_shadows", &res);
    if (!inv) return res;
    uint32_t view = 0;
    if ((res = culling_view(inv, culling, "hl_pipeline_record_shadows", &view))) return res;
    return hl__view_add_shadow_pass(inv->r, view);
}

static hl_result list_index(invocation *inv, hl_pipeline_renderer_list l, const char *fn, uint32_t *out) {
    if (l.token != inv->token || l.index < inv->first_list || l.index >= inv->r->list_count)
        return hl__fail(HL_ERR_INVALID_STATE, "%s: the renderer list is not one of this invocation (valid only inside "
                        "the record call that made it)", fn);
    *out = l.index;
    return HL_OK;
}

hl_result hl_pipeline_create_renderer_list(hl_pipeline_context ctx, const hl_pipeline_renderer_list_desc *desc,
                                           hl_pipeline_renderer_list *out) {
    const char *fn = "hl_pipeline_create_renderer_list";
    hl_result res;
    invocation *inv = current(ctx, fn, &res);
    if (!inv) return res;
    if (!desc || !out) return hl__fail(HL_ERR_VALIDATION, "%s: %s is NULL", fn, desc ? "out" : "desc");
    *out = (hl_pipeline_renderer_list){0, 0};
    uint32_t view = 0;
    if ((res = culling_view(inv, desc->culling, fn, &view))) return res;
    if ((unsigned)desc->queue > HL_PIPELINE_QUEUE_ALL || (unsigned)desc->sorting > HL_PIPELINE_SORT_NONE ||
        (unsigned)desc->materials > HL_PIPELINE_MATERIALS_SHADER)
        return hl__fail(HL_ERR_VALIDATION, "%s: queue %d, sorting %d or materials %d is out of range", fn,
                        (int)desc->queue, (int)desc->sorting, (int)desc->materials);
    static const hl__list_queue queues[] = {HL__QUEUE_OPAQUE, HL__QUEUE_TRANSPARENT, HL__QUEUE_ALL};
    static const hl__list_sort sorts[] = {HL__SORT_ENGINE, HL__SORT_BACK_TO_FRONT, HL__SORT_NONE};
    uint32_t list = 0;
    static const hl__list_materials materials[] = {HL__LIST_ALL_MATERIALS, HL__LIST_ENGINE_MATERIALS,
                                                   HL__LIST_SHADER_MATERIALS};
    res = hl__list_create(inv->r, view, queues[desc->queue], sorts[desc->sorting], desc->cast_shadows_only,
                          materials[desc->materials], desc->layer_mask, desc->override_material, &list);
    if (res) return res;
    *out = (hl_pipeline_renderer_list){inv->token, list};
    return HL_OK;
}

hl_result hl_pipeline_renderer_list_count(hl_pipeline_context ctx, hl_pipeline_renderer_list list, uint32_t *draws) {
    const char *fn = "hl_pipeline_renderer_list_count";
    hl_result res;
    invocation *inv = current(ctx, fn, &res);
    if (!inv) return res;
    uint32_t l = 0;
    if ((res = list_index(inv, list, fn, &l))) return res;
    if (!draws) return hl__fail(HL_ERR_VALIDATION, "%s: draws is NULL", fn);
    *draws = inv->r->lists[l].count;
    return HL_OK;
}

typedef hl_result (*execute_fn)(hl_pipeline_pass_encoder enc, void *user);
static hl_result call_execute(hl__generic_fn execute, void *user, uint64_t token) {
    return ((execute_fn)execute)((hl_pipeline_pass_encoder){token}, user);
}

hl_result hl_pipeline_add_scene_pass(hl_pipeline_context ctx, const hl_pipeline_scene_pass_desc *desc) {
    const char *fn = "hl_pipeline_add_scene_pass";
    hl_result res;
    invocation *inv = current(ctx, fn, &res);
    if (!inv) return res;
    if (!desc) return hl__fail(HL_ERR_VALIDATION, "%s: desc is NULL", fn);
    uint32_t l = 0;
    if ((res = list_index(inv, desc->list, fn, &l))) return res;
    hl__scene_pass_desc d;
    memset(&d, 0, sizeof d);
    d.name = desc->name;
    d.list = l;
    d.load_color = desc->load_color;
    d.load_depth = desc->load_depth;
    for (uint32_t i = 0; i < 4; i++)
        if (desc->color[i].token && (res = texture_of(inv, desc->color[i], fn, &d.color[i]))) return res;
    if (desc->depth.token && (res = texture_of(inv, desc->depth, fn, &d.depth))) return res;
    for (uint32_t i = 0; i < 4; i++)
        if (desc->resolve[i].token && (res = texture_of(inv, desc->resolve[i], fn, &d.resolve[i]))) return res;
    d.lists[0] = l;
    d.list_count = 1;
    if (desc->execute) {
        d.trampoline = call_execute;
        d.execute = (hl__generic_fn)desc->execute;
        d.user = desc->user;
        for (uint32_t i = 0; i < 3; i++) {
            if (!desc->more_lists[i].token) break;
            if ((res = list_index(inv, desc->more_lists[i], fn, &d.lists[d.list_count]))) return res;
            d.list_count++;
        }
    } else if (desc->more_lists[0].token) {
        return hl__fail(HL_ERR_VALIDATION, "%s: more_lists without an execute callback to draw them", fn);
    }
    if (desc->storage_count > 4) return hl__fail(HL_ERR_VALIDATION, "%s: storage_count %u (at most 4)", fn, desc->storage_count);
    if (desc->storage_count && hl_rhi_device_backend(inv->r->dev) == HL_RHI_BACKEND_GLES3)
        return hl__fail(HL_ERR_UNSUPPORTED, "%s: the gles3 backend has no storage buffers (scene pass storage); use webgpu", fn);
    _Static_assert(HL__SCENE_STORAGE_MAX == 4, "scene pass storage limits agree");
    d.storage_count = desc->storage_count;
    for (uint32_t i = 0; i < desc->storage_count; i++) {
        const hl_pipeline_storage_binding *b = &desc->storage[i];
        if (!b->block || !b->block[0] || strlen(b->block) >= sizeof d.storage[i].block)
            return hl__fail(HL_ERR_VALIDATION, "%s: storage[%u] has no block name (or one of 64 bytes or more)", fn, i);
        for (uint32_t k = 0; k < i; k++)
            if (!strcmp(desc->storage[k].block, b->block))
                return hl__fail(HL_ERR_VALIDATION, "%s: storage block '%s' is given twice", fn, b->block);
        if ((res = hl__pipeline_buffer_of(inv, b->buffer, fn, &d.storage[i].buffer))) return res;
        if ((res = hl__storage_check_input(inv->r, d.storage[i].buffer, desc->name ? desc->name : "scene", "read")))
            return res;
        const hl_rhi_buffer_desc *bd = hl_graph_buffer_desc(inv->r->graph, d.storage[i].buffer);
        uint32_t align = hl_rhi_device_caps(inv->r->dev)->limits.min_storage_buffer_offset_alignment;
        if (b->offset % align || b->offset >= bd->size || (b->size & 3u) || b->size > bd->size - b->offset)
            return hl__fail(HL_ERR_VALIDATION, "%s: storage block '%s': range [%llu, +%llu) of a %llu-byte buffer", fn,
                            b->block, (unsigned long long)b->offset, (unsigned long long)b->size,
                            (unsigned long long)bd->size);
        snprintf(d.storage[i].block, sizeof d.storage[i].block, "%s", b->block);
        d.storage[i].offset = b->offset;
        d.storage[i].size = b->size;
    }
    return hl__view_add_scene_pass(inv->r, &d);
}

/* ---- scene pass encoders -------------------------------------------------------------------------------- */
hl_result hl_pipeline_pass_set_viewport(hl_pipeline_pass_encoder enc, float x, float y, float width, float height) {
    return hl__encoder_viewport(enc.token, x, y, width, height);
}
hl_result hl_pipeline_pass_set_scissor(hl_pipeline_pass_encoder enc, uint32_t x, uint32_t y, uint32_t width,
                                       uint32_t height) {
    return hl__encoder_scissor(enc.token, x, y, width, height);
}
hl_result hl_pipeline_pass_set_stencil_reference(hl_pipeline_pass_encoder enc, uint32_t reference) {
    return hl__encoder_stencil(enc.token, reference);
}
hl_result hl_pipeline_pass_draw_list(hl_pipeline_pass_encoder enc, uint32_t slot) {
    return hl__encoder_draw_list(enc.token, slot);
}

/* ---- graph textures and fullscreen passes ------------------------------------------------------------ */
static hl_result texture_of(invocation *inv, hl_pipeline_texture t, const char *fn, hl_graph_texture *out) {
    if (t.token != inv->token || !t.id || !hl_graph_texture_desc(inv->r->graph, (hl_graph_texture){t.id}))
        return hl__fail(HL_ERR_INVALID_STATE, "%s: the texture is not one of this invocation (valid only inside the record "
                        "call that made it)", fn);
    *out = (hl_graph_texture){t.id};
    return HL_OK;
}

hl_result hl__pipeline_texture_of(invocation *inv, hl_pipeline_texture t, const char *fn, hl_graph_texture *out) {
    return texture_of(inv, t, fn, out);
}

hl_result hl__pipeline_texture_size(const invocation *inv, uint32_t width, uint32_t height, float scale, uint32_t min_size,
                                    const char *fn, const char *name, uint32_t *out_w, uint32_t *out_h) {
    uint32_t w = width, h = height;
    if (!w || !h) {
        if (scale == 0.0f) scale = 1.0f;
        if (!(scale > 0.0f) || scale > 16.0f)
            return hl__fail(HL_ERR_VALIDATION, "%s: texture '%s': scale %g (0 < scale <= 16)", fn, name, (double)scale);
        uint32_t lo = min_size ? min_size : 1;
        const hl_render_target_desc *od = &inv->target->desc;
        double sw = (double)od->width * scale + 0.5, sh = (double)od->height * scale + 0.5;
        w = sw < lo ? lo : (uint32_t)sw;
        h = sh < lo ? lo : (uint32_t)sh;
    }
    uint32_t max = hl_rhi_device_caps(inv->r->dev)->limits.max_texture_dimension_2d;
    if (w > max || h > max)
        return hl__fail(HL_ERR_VALIDATION, "%s: texture '%s' is %ux%u (the device allows %u per side)", fn, name, w, h, max);
    *out_w = w;
    *out_h = h;
    return HL_OK;
}

hl_result hl_pipeline_create_texture(hl_pipeline_context ctx, const hl_pipeline_texture_desc *desc,
                                     hl_pipeline_texture *out) {
    const char *fn = "hl_pipeline_create_texture";
    hl_result res;
    invocation *inv = current(ctx, fn, &res);
    if (!inv) return res;
    if (!desc || !out) return hl__fail(HL_ERR_VALIDATION, "%s: %s is NULL", fn, desc ? "out" : "desc");
    *out = (hl_pipeline_texture){0, 0};
    const char *name = desc->name && desc->name[0] ? desc->name : "texture";
    if ((unsigned)desc->format >= HL_PIPELINE_FORMAT_COUNT ||
        (is_depth(desc->format) && desc->format != HL_PIPELINE_FORMAT_DEPTH24_PLUS))
        return hl__fail(HL_ERR_VALIDATION, "%s: texture '%s': format %d (a colour format or DEPTH24_PLUS)", fn, name,
                        (int)desc->format);
    uint32_t w = 0, h = 0;
    if ((res = hl__pipeline_texture_size(inv, desc->width, desc->height, desc->scale, desc->min_size, fn, name, &w, &h)))
        return res;
    if (desc->samples > 1 && desc->samples != 4)
        return hl__fail(HL_ERR_VALIDATION, "%s: texture '%s': samples %u (1 or 4)", fn, name, desc->samples);
    uint32_t chain = 1;
    for (uint32_t big = w > h ? w : h; big > 1; big >>= 1) chain++;
    uint32_t mips = desc->mip_count == HL_PIPELINE_MIP_CHAIN ? chain : desc->mip_count ? desc->mip_count : 1;
    if (mips > chain)
        return hl__fail(HL_ERR_VALIDATION, "%s: texture '%s': %u mip levels, at most %u for %ux%u", fn, name, mips,
                        chain, w, h);
    if (mips > 1 && (desc->samples > 1 || is_depth(desc->format)))
        return hl__fail(HL_ERR_VALIDATION, "%s: texture '%s': mips need a single-sample colour format", fn, name);
    hl_rhi_texture_desc td = {0};
    td.format = hl__pipeline_rhi_formats[desc->format];
    td.width = w;
    td.height = h;
    td.mip_levels = mips;
    td.sample_count = desc->samples > 1 ? 4 : 1;
    hl_graph_texture t = hl_graph_create_texture(inv->r->graph, &td, name);
    if (!t.id) return hl_last_error_code() ? hl_last_error_code() : HL_ERR_VALIDATION;
    *out = (hl_pipeline_texture){inv->token, t.id};
    return HL_OK;
}

hl_result hl_pipeline_output_texture(hl_pipeline_context ctx, uint32_t index, hl_pipeline_texture *out) {
    const char *fn = "hl_pipeline_output_texture";
    hl_result res;
    invocation *inv = current(ctx, fn, &res);
    if (!inv) return res;
    if (!out) return hl__fail(HL_ERR_VALIDATION, "%s: out is NULL", fn);
    uint32_t n = inv->target->desc.color_count ? inv->target->desc.color_count : 1;
    if (index >= n) return hl__fail(HL_ERR_VALIDATION, "%s: index %u (the output has %u colour attachments)", fn, index, n);
    hl_graph_texture t = hl__target_output_texture(inv->r, inv->target, index);
    *out = (hl_pipeline_texture){inv->token, t.id};
    return HL_OK;
}

hl_result hl_pipeline_texture_size(hl_pipeline_context ctx, hl_pipeline_texture tex, uint32_t *width, uint32_t *height) {
    const char *fn = "hl_pipeline_texture_size";
    hl_result res;
    invocation *inv = current(ctx, fn, &res);
    if (!inv) return res;
    hl_graph_texture t;
    if ((res = texture_of(inv, tex, fn, &t))) return res;
    const hl_rhi_texture_desc *d = hl_graph_texture_desc(inv->r->graph, t);
    if (width) *width = d->width;
    if (height) *height = d->height;
    return HL_OK;
}

typedef struct mip_pass {
    hl_graph_texture tex;
} mip_pass;

static hl_result setup_mips(hl_graph_pass_builder *b, void *params, void *user) {
    mip_pass *p = params;
    *p = *(const mip_pass *)user;
    return hl_graph_generate_mips(b, p->tex);
}

static hl_result exec_mips(hl_graph_ctx *ctx, void *params, void *user) {
    (void)user;
    const mip_pass *p = params;
    return hl_rhi_cmd_generate_mipmaps(hl_graph_ctx_cmd(ctx), hl_graph_ctx_texture(ctx, p->tex));
}

hl_result hl_pipeline_add_mip_pass(hl_pipeline_context ctx, hl_pipeline_texture tex) {
    const char *fn = "hl_pipeline_add_mip_pass";
    hl_result res;
    invocation *inv = current(ctx, fn, &res);
    if (!inv) return res;
    mip_pass p;
    if ((res = texture_of(inv, tex, fn, &p.tex))) return res;
    const hl_rhi_texture_desc *d = hl_graph_texture_desc(inv->r->graph, p.tex);
    const char *name = d->label ? d->label : "texture";
    if (d->mip_levels < 2)
        return hl__fail(HL_ERR_VALIDATION, "%s: texture '%s' has one mip level (hl_pipeline_texture_desc.mip_count)", fn,
                        name);
    uint32_t need = HL_RHI_FORMAT_CAP_FILTERABLE | HL_RHI_FORMAT_CAP_RENDERABLE;
    if ((hl_rhi_device_caps(inv->r->dev)->formats[d->format].flags & need) != need)
        return hl__fail(HL_ERR_UNSUPPORTED, "%s: texture '%s': %s is not filterable and renderable on this device", fn,
                        name, hl_rhi_format_get_info(d->format)->name);
    hl_graph_pass gp = hl_graph_add_pass(inv->r->graph, "mips", HL_GRAPH_PASS_COPY, setup_mips, NULL, exec_mips, &p,
                                         sizeof p);
    return gp.id ? HL_OK : hl_last_error_code() ? hl_last_error_code() : HL_ERR_VALIDATION;
}

hl_result hl_pipeline_add_fullscreen_pass(hl_pipeline_context ctx, const hl_pipeline_fullscreen_pass_desc *desc) {
    const char *fn = "hl_pipeline_add_fullscreen_pass";
    hl_result res;
    invocation *inv = current(ctx, fn, &res);
    if (!inv) return res;
    if (!desc) return hl__fail(HL_ERR_VALIDATION, "%s: desc is NULL", fn);
    if (desc->input_count > HL_PIPELINE_FULLSCREEN_MAX_INPUTS || desc->output_count > 4)
        return hl__fail(HL_ERR_VALIDATION, "%s: %u inputs, %u outputs (at most %u and 4)", fn, desc->input_count,
                        desc->output_count, HL_PIPELINE_FULLSCREEN_MAX_INPUTS);
    _Static_assert(HL_PIPELINE_FULLSCREEN_MAX_INPUTS == HL__FULLSCREEN_MAX_INPUTS, "fullscreen input limits agree");
    _Static_assert(HL_PIPELINE_FULLSCREEN_MAX_PARAMS == HL__FULLSCREEN_MAX_PARAMS, "fullscreen params limits agree");
    hl__fullscreen_desc d;
    memset(&d, 0, sizeof d);
    d.name = desc->name;
    d.fragment = desc->fragment;
    d.params = desc->params;
    d.params_size = desc->params_size;
    d.input_count = desc->input_count;
    d.output_count = desc->output_count;
    for (uint32_t i = 0; i < desc->input_count; i++) {
        d.input_names[i] = desc->input_names[i];
        if ((res = texture_of(inv, desc->inputs[i], fn, &d.inputs[i]))) return res;
        if (inv->target->imp_serial == inv->r->frame_serial)
            for (uint32_t c = 0; c < 4; c++)
                if (inv->target->imp_color[c].id == d.inputs[i].id) d.reads_target = inv->target;
    }
    for (uint32_t i = 0; i < desc->output_count; i++) {
        if ((res = texture_of(inv, desc->outputs[i], fn, &d.outputs[i]))) return res;
        if (inv->target->imp_serial == inv->r->frame_serial)
            for (uint32_t c = 0; c < 4; c++)
                if (inv->target->imp_color[c].id == d.outputs[i].id) d.writes_target = inv->target;
    }
    if (desc->lighting.token) {
        uint32_t view = 0;
        if ((res = culling_view(inv, desc->lighting, fn, &view))) return res;
        if (!inv->r->views[inv->r->views[view].shadow_view].shadows_recorded)
            return hl__fail(HL_ERR_INVALID_STATE, "%s: '%s' lights with a culling result whose shadows are not recorded "
                            "(hl_pipeline_record_shadows first)", fn, desc->name ? desc->name : "fullscreen");
        d.lighting_view = view + 1;
    }
    return hl__add_fullscreen_pass(inv->r, &d);
}

/* The target whose colour texture t is (imported this frame), or NULL. */
static hl_render_target *target_of_texture(invocation *inv, hl_graph_texture t) {
    for (hl_render_target *rt = inv->r->targets; rt; rt = rt->next_target) {
        if (rt->imp_serial != inv->r->frame_serial) continue;
        for (uint32_t c = 0; c < 4; c++)
            if (rt->imp_color[c].id == t.id) return rt;
    }
    return NULL;
}

hl_result hl_pipeline_add_copy_pass(hl_pipeline_context ctx, const char *name, hl_pipeline_texture src,
                                    hl_pipeline_texture dst) {
    const char *fn = "hl_pipeline_add_copy_pass";
    hl_result res;
    invocation *inv = current(ctx, fn, &res);
    if (!inv) return res;
    hl_graph_texture s = {0}, d = {0};
    if ((res = texture_of(inv, src, fn, &s)) || (res = texture_of(inv, dst, fn, &d))) return res;
    return hl__add_copy_pass(inv->r, name, s, d, target_of_texture(inv, s), target_of_texture(inv, d));
}

static const char *const k_present_fs = "#version 300 es\n"
                                        "precision highp float;\n"
                                        "in vec2 v_uv;\n"
                                        "uniform sampler2D u_src;\n"
                                        "layout(location = 0) out vec4 o_color;\n"
                                        "void main() { o_color = texture(u_src, v_uv); }\n";

hl_result hl_pipeline_add_present_pass(hl_pipeline_context ctx, hl_pipeline_texture src) {
    const char *fn = "hl_pipeline_add_present_pass";
    hl_result res;
    invocation *inv = current(ctx, fn, &res);
    if (!inv) return res;
    hl_graph_texture s = {0};
    hl_pipeline_texture out = {0};
    if ((res = texture_of(inv, src, fn, &s)) || (res = hl_pipeline_output_texture(ctx, 0, &out))) return res;
    if (out.id == src.id) return hl__fail(HL_ERR_VALIDATION, "%s: src is the output itself", fn);
    const hl_rhi_texture_desc *sd = hl_graph_texture_desc(inv->r->graph, s);
    const hl_rhi_texture_desc *od = hl_graph_texture_desc(inv->r->graph, (hl_graph_texture){out.id});
    if (sd->sample_count > 1) return hl__fail(HL_ERR_VALIDATION, "%s: src is multisampled (resolve it first)", fn);
    if (sd->width == od->width && sd->height == od->height && sd->format == od->format)
        return hl_pipeline_add_copy_pass(ctx, "present", src, out);
    hl_pipeline_fullscreen_pass_desc d = {0};
    d.name = "present";
    d.fragment = k_present_fs;
    d.input_names[0] = "u_src";
    d.inputs[0] = src;
    d.input_count = 1;
    d.outputs[0] = out;
    d.output_count = 1;
    return hl_pipeline_add_fullscreen_pass(ctx, &d);
}

hl_result hl_pipeline_import_render_target(hl_pipeline_context ctx, hl_render_target *target, uint32_t index,
                                           hl_pipeline_texture *out) {
    const char *fn = "hl_pipeline_import_render_target";
    hl_result res;
    invocation *inv = current(ctx, fn, &res);
    if (!inv) return res;
    if (!out) return hl__fail(HL_ERR_VALIDATION, "%s: out is NULL", fn);
    *out = (hl_pipeline_texture){0, 0};
    bool mine = false;
    for (hl_render_target *rt = inv->r->targets; rt && !mine; rt = rt->next_target) mine = rt == target;
    if (!target || !mine)
        return hl__fail(HL_ERR_VALIDATION, "%s: the target is not one of this renderer's (destroyed, or another's)", fn);
    if (target == inv->target)
        return hl__fail(HL_ERR_VALIDATION, "%s: the target is the invocation's output (hl_pipeline_output_texture)", fn);
    uint32_t n = target->desc.color_count ? target->desc.color_count : 1;
    if (index >= n) return hl__fail(HL_ERR_VALIDATION, "%s: index %u (the target has %u colour attachments)", fn, index, n);
    hl_graph_texture t = hl__target_output_texture(inv->r, target, index);
    hl_graph_mark_output_texture(inv->r->graph, t); /* written here: a result of the frame */
    *out = (hl_pipeline_texture){inv->token, t.id};
    return HL_OK;
}

/* ---- the renderer -------------------------------------------------------------------------------------- */
hl_result hl_renderer_create(const hl_renderer_desc *desc, hl_renderer **out) {
    if (!out) return hl__fail(HL_ERR_VALIDATION, "hl_renderer_create: out is NULL");
    *out = NULL;
    const hl_pipeline_factory *f = desc && desc->pipeline ? desc->pipeline : &k_forward;
    const char *name = f->name && f->name[0] ? f->name : "pipeline";
    if (!f->create) return hl__fail(HL_ERR_VALIDATION, "hl_renderer_create: pipeline '%s' has no create function", name);
    hl__pipeline_reqs reqs;
    memset(&reqs, 0, sizeof reqs);
    hl_result res = reqs_merge(&reqs, f->requirements, name);
    if (res) return res;
    gate_ctx g = {name, &reqs};
    hl_renderer *r = NULL;
    res = hl__renderer_create(desc, 0, gate, &g, &r);
    if (res) return res;
    hl_pipeline_caps caps;
    caps_snapshot(hl_rhi_device_caps(r->dev), &caps);
    hl_pipeline_runtime *rt = NULL;
    hl_clear_error();
    res = f->create(&caps, f->user, &rt);
    if (!res && !rt)
        res = hl__fail(HL_ERR_VALIDATION, "hl_renderer_create: pipeline '%s': create returned HL_OK without a runtime", name);
    else if (!res && rt->attached)
        res = hl__fail(HL_ERR_INVALID_STATE,
                       "hl_renderer_create: pipeline '%s': runtime '%s' already belongs to another renderer (a factory "
                       "makes a new runtime for each renderer)",
                       name, rt->name);
    else if (res) {
        char msg[400];
        snprintf(msg, sizeof msg, "%s", hl_last_error()[0] ? hl_last_error() : hl_result_name(res));
        hl__fail(res, "hl_renderer_create: pipeline '%s': create failed: %s", name, msg);
    }
    if (res) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", hl_last_error());
        hl_renderer_destroy(r);
        hl__fail(res, "%s", msg);
        return res;
    }
    if (rt->direct) { /* the built-in Forward runtime: the renderer records directly */
        runtime_free(rt);
        *out = r;
        return HL_OK;
    }
    rt->attached = true;
    rt->renderer = r;
    rt->caps = caps;
    rt->reqs = reqs;
    hl__render_host host = {rt, host_record, host_destroy, host_frame_end, rt->name, host_gpu_release, host_revalidate};
    hl__renderer_set_host(r, &host);
    *out = r;
    return HL_OK;
}

hl_pipeline_runtime *hl__pipeline_renderer_runtime(hl_renderer *r) {
    return r && r->host.destroy ? (hl_pipeline_runtime *)r->host.user : NULL;
}

const char *hl_renderer_pipeline_name(const hl_renderer *r) {
    if (!r) return "";
    if (!r->host.destroy) return "forward";
    return ((const hl_pipeline_runtime *)r->host.user)->name;
}
