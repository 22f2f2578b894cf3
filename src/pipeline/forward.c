/* The Forward pipeline with features (hilo3d/pipeline.h): a factory holding copies of the
 * feature descriptions, a runtime per renderer holding each feature's state, and the record
 * that injects the features around the built-in passes. Without features the factory makes
 * the direct runtime. */
#include <stdio.h>
#include <string.h>

#include "pipeline_internal.h"

typedef struct fwd_feature {
    hl_forward_feature_desc d; /* name and user point into this record */
    char name[64];
    void *user_copy; /* owned (user_size bytes) */
} fwd_feature;

typedef struct fwd_factory {
    hl_pipeline_factory f; /* first: the public pointer */
    uint32_t magic;
    uint32_t count;
    fwd_feature features[HL_FORWARD_MAX_FEATURES];
} fwd_factory;

#define FWD_MAGIC 0x46574446u

typedef struct fwd_instance {
    hl_forward_feature_desc d; /* a copy: name points at name[], user at user_copy */
    char name[64];
    void *user_copy;
    void *state;
    bool created, enabled;
} fwd_instance;

typedef struct fwd_runtime {
    uint32_t count;
    fwd_instance features[HL_FORWARD_MAX_FEATURES];
} fwd_runtime;

static const char *const k_copy_fs = "#version 300 es\n"
                                     "precision highp float;\n"
                                     "in vec2 v_uv;\n"
                                     "uniform sampler2D u_src;\n"
                                     "out vec4 o_color;\n"
                                     "void main() { o_color = texture(u_src, v_uv); }\n";

/* ---- record ------------------------------------------------------------------------------------------- */
static hl_result run_features(hl_pipeline_context ctx, fwd_runtime *fr, hl_forward_injection at, hl_forward_frame *frame) {
    for (uint32_t i = 0; i < fr->count; i++) {
        fwd_instance *f = &fr->features[i];
        if (!f->enabled || f->d.injection != at) continue;
        frame->injection = at;
        hl_result res = f->d.record(ctx, frame, f->state);
        if (res) {
            char msg[400];
            snprintf(msg, sizeof msg, "%s", hl_last_error()[0] ? hl_last_error() : hl_result_name(res));
            return hl__fail(res, "forward feature '%s': %s", f->name, msg);
        }
    }
    return HL_OK;
}

/* Where the scene passes draw: the output (no intermediate), or the runtime's textures. */
typedef struct scene_targets {
    bool intermediate;
    hl_pipeline_texture color[4];   /* attachment 0: the scene colour (MSAA: the samples) */
    hl_pipeline_texture resolve[4]; /* MSAA: what the last pass resolves into */
    hl_pipeline_texture depth;
} scene_targets;

static hl_result scene_pass(hl_pipeline_context ctx, hl_pipeline_renderer_list l, bool transparent, bool last,
                            const scene_targets *st) {
    hl_pipeline_scene_pass_desc pd = {0};
    pd.name = transparent ? "transparent" : "opaque";
    pd.list = l;
    pd.load_color = pd.load_depth = transparent;
    if (st->intermediate) {
        memcpy(pd.color, st->color, sizeof pd.color);
        pd.depth = st->depth;
        if (last) memcpy(pd.resolve, st->resolve, sizeof pd.resolve);
    }
    return hl_pipeline_add_scene_pass(ctx, &pd);
}

/* With the intermediate: attachment 0 is the RGBA16F scene colour; an MRT output's other
 * attachments (normal, base colour, distance) are drawn into textures of the output's formats
 * (its own, single-sample; or multisampled ones resolved into its own); depth is the runtime's.
 * A multisampled output makes the intermediate multisampled (4x), resolved by the last pass. */
static hl_result make_targets(hl_pipeline_context ctx, const hl_pipeline_output *out, hl_forward_frame *frame,
                              scene_targets *st) {
    uint32_t samples = out->sample_count > 1 ? 4 : 1;
    hl_pipeline_texture_desc td = {HL_PIPELINE_FORMAT_RGBA16F, 0, 0, 0, 0, "scene colour", 1, 0};
    hl_result res = hl_pipeline_create_texture(ctx, &td, &frame->color);
    if (!res && samples > 1) {
        td = (hl_pipeline_texture_desc){HL_PIPELINE_FORMAT_RGBA16F, 0, 0, 0, 0, "scene colour msaa", 4, 0};
        res = hl_pipeline_create_texture(ctx, &td, &st->color[0]);
        st->resolve[0] = frame->color;
    } else {
        st->color[0] = frame->color;
    }
    for (uint32_t i = 1; !res && i < out->color_count; i++) {
        hl_pipeline_texture own;
        res = hl_pipeline_output_texture(ctx, i, &own);
        if (!res && samples > 1) {
            td = (hl_pipeline_texture_desc){out->color_formats[i], 0, 0, 0, 0, "attachment msaa", 4, 0};
            res = hl_pipeline_create_texture(ctx, &td, &st->color[i]);
            st->resolve[i] = own;
        } else {
            st->color[i] = own;
        }
    }
    td = (hl_pipeline_texture_desc){HL_PIPELINE_FORMAT_DEPTH24_PLUS, 0, 0, 0, 0, "scene depth", samples, 0};
    if (!res && out->has_depth) res = hl_pipeline_create_texture(ctx, &td, &st->depth);
    frame->scene = st->color[0];
    st->intermediate = true;
    return res;
}

static hl_result forward_record(hl_pipeline_context ctx, void *state) {
    fwd_runtime *fr = state;
    bool intermediate = false;
    for (uint32_t i = 0; i < fr->count; i++)
        intermediate |= fr->features[i].enabled && fr->features[i].d.samples_scene_color;
    hl_forward_frame frame;
    memset(&frame, 0, sizeof frame);
    hl_pipeline_output out_desc;
    hl_result res = hl_pipeline_context_output(ctx, &out_desc);
    if (res) return res;
    hl_pipeline_cull_desc cd = {0};
    if (intermediate) {
        cd.color_count = out_desc.color_count;
        cd.color_formats[0] = HL_PIPELINE_FORMAT_RGBA16F;
        for (uint32_t i = 1; i < out_desc.color_count; i++) cd.color_formats[i] = out_desc.color_formats[i];
        cd.no_depth = !out_desc.has_depth;
        cd.samples = out_desc.sample_count > 1 ? 4 : 1;
    }
    res = hl_pipeline_cull(ctx, &cd, &frame.culling);
    if (!res) res = hl_pipeline_output_texture(ctx, 0, &frame.output);
    scene_targets st;
    memset(&st, 0, sizeof st);
    if (!res && intermediate) {
        res = make_targets(ctx, &out_desc, &frame, &st);
    } else {
        frame.color = frame.scene = frame.output;
        frame.color_is_output = true;
    }
    hl_pipeline_renderer_list opaque, transparent;
    hl_pipeline_renderer_list_desc ld = {frame.culling, HL_PIPELINE_QUEUE_OPAQUE, HL_PIPELINE_SORT_MATERIAL_FRONT_TO_BACK,
                                         false, NULL, HL_PIPELINE_MATERIALS_ALL, 0};
    if (!res) res = hl_pipeline_create_renderer_list(ctx, &ld, &opaque);
    ld.queue = HL_PIPELINE_QUEUE_TRANSPARENT;
    if (!res) res = hl_pipeline_create_renderer_list(ctx, &ld, &transparent);
    uint32_t ntransparent = 0;
    if (!res) res = hl_pipeline_renderer_list_count(ctx, transparent, &ntransparent);
    if (!res) res = run_features(ctx, fr, HL_FORWARD_BEFORE_SHADOW, &frame);
    if (!res) res = hl_pipeline_record_shadows(ctx, frame.culling);
    if (!res) res = run_features(ctx, fr, HL_FORWARD_AFTER_SHADOW, &frame);
    if (!res) res = run_features(ctx, fr, HL_FORWARD_BEFORE_OPAQUE, &frame);
    if (!res) res = scene_pass(ctx, opaque, false, ntransparent == 0, &st);
    if (!res) res = run_features(ctx, fr, HL_FORWARD_AFTER_OPAQUE, &frame);
    if (!res) res = run_features(ctx, fr, HL_FORWARD_BEFORE_TRANSPARENT, &frame);
    if (!res && ntransparent) res = scene_pass(ctx, transparent, true, true, &st);
    if (!res) res = run_features(ctx, fr, HL_FORWARD_AFTER_TRANSPARENT, &frame);
    if (!res) res = run_features(ctx, fr, HL_FORWARD_BEFORE_POST, &frame);
    if (!res) res = run_features(ctx, fr, HL_FORWARD_POST, &frame);
    if (!res) res = run_features(ctx, fr, HL_FORWARD_AFTER_POST, &frame);
    if (!res) res = run_features(ctx, fr, HL_FORWARD_BEFORE_OUTPUT, &frame);
    if (!res && intermediate && frame.color.id != frame.output.id) {
        hl_pipeline_fullscreen_pass_desc fd = {0};
        fd.name = "output";
        fd.fragment = k_copy_fs;
        fd.input_names[0] = "u_src";
        fd.inputs[0] = frame.color;
        fd.input_count = 1;
        fd.outputs[0] = frame.output;
        fd.output_count = 1;
        res = hl_pipeline_add_fullscreen_pass(ctx, &fd);
    }
    return res;
}

/* ---- runtime ------------------------------------------------------------------------------------------ */
static void runtime_free(fwd_runtime *fr) {
    for (uint32_t i = fr->count; i-- > 0;) { /* reverse creation order */
        fwd_instance *f = &fr->features[i];
        if (f->created && f->d.destroy) f->d.destroy(f->state);
        hl__free(f->user_copy);
    }
    hl__free(fr);
}

static void forward_destroy(void *state) { runtime_free(state); }

static hl_result forward_features_create(const hl_pipeline_caps *caps, void *user, hl_pipeline_runtime **out) {
    (void)caps;
    const fwd_factory *ff = user;
    if (!ff->count) return hl__pipeline_direct_runtime(out);
    fwd_runtime *fr = hl__calloc(1, sizeof *fr);
    if (!fr) return hl__fail(HL_ERR_OUT_OF_MEMORY, "forward pipeline: out of memory");
    hl_result res = HL_OK;
    for (uint32_t i = 0; i < ff->count && !res; i++) {
        const fwd_feature *src = &ff->features[i];
        fwd_instance *f = &fr->features[i];
        fr->count = i + 1;
        f->d = src->d;
        memcpy(f->name, src->name, sizeof f->name);
        f->d.name = f->name;
        if (src->d.user_size) {
            if (!(f->user_copy = hl__malloc(src->d.user_size))) {
                res = hl__fail(HL_ERR_OUT_OF_MEMORY, "forward feature '%s': out of memory", f->name);
                break;
            }
            memcpy(f->user_copy, src->user_copy, src->d.user_size);
            f->d.user = f->user_copy;
        }
        f->state = (void *)f->d.user;
        if (f->d.create) {
            hl_clear_error();
            res = f->d.create(f->d.user, &f->state);
            if (res) {
                char msg[400];
                snprintf(msg, sizeof msg, "%s", hl_last_error()[0] ? hl_last_error() : hl_result_name(res));
                hl__fail(res, "forward feature '%s': create failed: %s", f->name, msg);
                break;
            }
        }
        f->created = true;
        f->enabled = true;
    }
    if (!res) {
        hl_pipeline_runtime_desc d = {"forward", fr, forward_record, forward_destroy};
        res = hl_pipeline_runtime_create(&d, out);
    }
    if (res) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", hl_last_error());
        runtime_free(fr);
        hl__fail(res, "%s", msg);
    }
    return res;
}

hl_result hl_forward_set_feature_enabled(hl_renderer *r, const char *name, bool enabled) {
    if (!r || !name) return hl__fail(HL_ERR_VALIDATION, "hl_forward_set_feature_enabled: %s is NULL", r ? "name" : "r");
    hl_result res = hl_rhi_device_check_thread(r->dev, "hl_forward_set_feature_enabled");
    if (res) return res;
    hl_pipeline_runtime *rt = hl__pipeline_renderer_runtime(r);
    if (rt && rt->record == forward_record) {
        fwd_runtime *fr = rt->state;
        for (uint32_t i = 0; i < fr->count; i++)
            if (!strcmp(fr->features[i].name, name)) {
                fr->features[i].enabled = enabled;
                return HL_OK;
            }
    }
    return hl__fail(HL_ERR_VALIDATION, "hl_forward_set_feature_enabled: the renderer's pipeline has no feature '%s'", name);
}

/* ---- factory ------------------------------------------------------------------------------------------ */
void hl_forward_pipeline_factory_destroy(hl_pipeline_factory *factory) {
    if (!factory) return;
    fwd_factory *ff = (fwd_factory *)factory;
    if (ff->magic != FWD_MAGIC) return;
    for (uint32_t i = 0; i < ff->count; i++) hl__free(ff->features[i].user_copy);
    ff->magic = 0;
    hl__free(ff);
}

hl_result hl_forward_pipeline_factory_create(const hl_forward_pipeline_desc *desc, hl_pipeline_factory **out) {
    const char *fn = "hl_forward_pipeline_factory_create";
    if (!out) return hl__fail(HL_ERR_VALIDATION, "%s: out is NULL", fn);
    *out = NULL;
    uint32_t n = desc ? desc->feature_count : 0;
    if (n > HL_FORWARD_MAX_FEATURES || (n && !desc->features))
        return hl__fail(HL_ERR_VALIDATION, "%s: %u features (at most %u, with features set)", fn, n, HL_FORWARD_MAX_FEATURES);
    for (uint32_t i = 0; i < n; i++) {
        const hl_forward_feature_desc *f = &desc->features[i];
        if (!f->name || !f->name[0] || strlen(f->name) >= 64)
            return hl__fail(HL_ERR_VALIDATION, "%s: feature %u needs a name of 1..63 bytes", fn, i);
        if ((unsigned)f->injection >= HL_FORWARD_INJECTION_COUNT || !f->record)
            return hl__fail(HL_ERR_VALIDATION, "%s: feature '%s': injection %d out of range or no record function", fn,
                            f->name, (int)f->injection);
        if (f->samples_depth)
            return hl__fail(HL_ERR_UNSUPPORTED,
                            "%s: feature '%s' samples scene depth, which the Forward pipeline does not offer", fn, f->name);
        if (f->user_size && !f->user)
            return hl__fail(HL_ERR_VALIDATION, "%s: feature '%s': user_size %zu with user NULL", fn, f->name, f->user_size);
        for (uint32_t k = 0; k < i; k++)
            if (!strcmp(desc->features[k].name, f->name))
                return hl__fail(HL_ERR_VALIDATION, "%s: two features named '%s'", fn, f->name);
    }
    fwd_factory *ff = hl__calloc(1, sizeof *ff);
    if (!ff) return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: out of memory", fn);
    ff->magic = FWD_MAGIC;
    ff->f.name = "forward";
    ff->f.create = forward_features_create;
    ff->f.user = ff;
    for (uint32_t i = 0; i < n; i++) {
        fwd_feature *f = &ff->features[i];
        f->d = desc->features[i];
        snprintf(f->name, sizeof f->name, "%s", f->d.name);
        f->d.name = f->name;
        if (f->d.user_size) {
            if (!(f->user_copy = hl__malloc(f->d.user_size))) {
                ff->count = i;
                hl_forward_pipeline_factory_destroy(&ff->f);
                return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: out of memory", fn);
            }
            memcpy(f->user_copy, f->d.user, f->d.user_size);
            f->d.user = f->user_copy;
        }
        ff->count = i + 1;
    }
    *out = &ff->f;
    return HL_OK;
}
