/* The deferred pipeline of hl_deferred.h: public SRP calls only. */
#include "hl_deferred.h"

#include <stdlib.h>
#include <string.h>

/* Background pixels (a < 1.5) keep the clear colour; unlit pixels (no normal) their base
 * colour; the rest get hl_shade (with the stage's environment when it has one) times the
 * stage's exposure. textureLod: Tint wants implicit derivatives in uniform control
 * flow, and this shader returns early. */
static const char *const k_lighting_fs =
    "#version 300 es\n"
    "precision highp float;\n"
    "in vec2 v_uv;\n"
    "uniform sampler2D g_base;\n"
    "uniform sampler2D g_normal;\n"
    "uniform sampler2D g_material;\n"
    "uniform sampler2D g_position;\n"
    "out vec4 o_color;\n"
    "void main() {\n"
    "    vec4 b = textureLod(g_base, v_uv, 0.0);\n"
    "    if (b.a < 1.5) {\n"
    "        o_color = b;\n"
    "        return;\n"
    "    }\n"
    "    vec4 n = textureLod(g_normal, v_uv, 0.0);\n"
    "    vec4 m = textureLod(g_material, v_uv, 0.0);\n"
    "    vec4 p = textureLod(g_position, v_uv, 0.0);\n"
    "    vec3 c = b.rgb + m.rgb;\n"
    "    if (dot(n.xyz, n.xyz) > 0.25)\n" /* lit: the stage's exposure applies, as in Forward */
    "        c = (hl_shade(b.rgb, normalize(n.xyz), p.xyz, n.w, m.w, b.a - 2.0, p.w > 0.5) + m.rgb) * u_exposure.x;\n"
    "    o_color = vec4(hl_fog(c, p.xyz), 1.0);\n"
    "}\n";

typedef struct feature {
    hl_forward_feature_desc desc;
    void *user; /* the runtime's copy of the feature's parameters */
    void *state;
} feature;

typedef struct deferred {
    hl_deferred_desc desc;
    feature features[2]; /* bloom (when asked for), tone map */
    uint32_t feature_count;
} deferred;

static void deferred_destroy(void *state) {
    deferred *d = state;
    for (uint32_t i = d->feature_count; i-- > 0;) {
        if (d->features[i].desc.destroy) d->features[i].desc.destroy(d->features[i].state);
        free(d->features[i].user);
    }
    free(d);
}

static hl_result scene_pass(hl_pipeline_context ctx, const char *name, hl_pipeline_culling c, hl_pipeline_queue queue,
                            hl_pipeline_materials materials, hl_pipeline_sorting sorting, const hl_pipeline_texture *color,
                            uint32_t color_count, hl_pipeline_texture depth, bool load) {
    hl_pipeline_renderer_list_desc ld = {c, queue, sorting, false, NULL, materials, 0};
    hl_pipeline_renderer_list list = {0};
    hl_result res = hl_pipeline_create_renderer_list(ctx, &ld, &list);
    uint32_t n = 0;
    if (!res) res = hl_pipeline_renderer_list_count(ctx, list, &n);
    if (res || (!n && load)) return res; /* nothing to draw over what is there */
    hl_pipeline_scene_pass_desc pd = {.name = name, .list = list, .load_color = load, .load_depth = load, .depth = depth};
    for (uint32_t i = 0; i < color_count; i++) pd.color[i] = color[i];
    return hl_pipeline_add_scene_pass(ctx, &pd);
}

/* Outputs other than one RGBA8 sRGB attachment (render targets of other formats, MRT, no
 * depth): the forward passes straight into them. */
static hl_result forward_record(hl_pipeline_context ctx) {
    hl_pipeline_culling c = {0};
    hl_result res = hl_pipeline_cull(ctx, NULL, &c);
    if (!res) res = hl_pipeline_record_shadows(ctx, c);
    hl_pipeline_renderer_list_desc ld = {.culling = c, .queue = HL_PIPELINE_QUEUE_OPAQUE};
    hl_pipeline_renderer_list opaque = {0}, transparent = {0};
    if (!res) res = hl_pipeline_create_renderer_list(ctx, &ld, &opaque);
    ld.queue = HL_PIPELINE_QUEUE_TRANSPARENT;
    if (!res) res = hl_pipeline_create_renderer_list(ctx, &ld, &transparent);
    uint32_t n = 0;
    if (!res) res = hl_pipeline_renderer_list_count(ctx, transparent, &n);
    hl_pipeline_scene_pass_desc pd = {.name = "opaque", .list = opaque};
    if (!res) res = hl_pipeline_add_scene_pass(ctx, &pd);
    pd = (hl_pipeline_scene_pass_desc){.name = "transparent", .list = transparent, .load_color = true, .load_depth = true};
    if (!res && n) res = hl_pipeline_add_scene_pass(ctx, &pd);
    return res;
}

static hl_result deferred_record(hl_pipeline_context ctx, void *state) {
    deferred *d = state;
    hl_pipeline_output out;
    hl_result res = hl_pipeline_context_output(ctx, &out);
    if (res) return res;
    if (out.color_count != 1 || out.color_formats[0] != HL_PIPELINE_FORMAT_RGBA8_SRGB || !out.has_depth)
        return forward_record(ctx);
    /* the G-buffer: four RGBA16F textures and depth, the output's size */
    static const char *const names[4] = {"g_base", "g_normal", "g_material", "g_position"};
    hl_pipeline_texture g[4], depth, lit;
    for (uint32_t i = 0; i < 4 && !res; i++) {
        hl_pipeline_texture_desc td = {HL_PIPELINE_FORMAT_RGBA16F, 0, 0, 0, 0, names[i], 1, 0};
        res = hl_pipeline_create_texture(ctx, &td, &g[i]);
    }
    hl_pipeline_texture_desc dd = {HL_PIPELINE_FORMAT_DEPTH24_PLUS, 0, 0, 0, 0, "depth", 1, 0};
    if (!res) res = hl_pipeline_create_texture(ctx, &dd, &depth);
    hl_pipeline_texture_desc ld = {HL_PIPELINE_FORMAT_RGBA16F, 0, 0, 0, 0, "lit", 1, 0};
    if (!res) res = hl_pipeline_create_texture(ctx, &ld, &lit);
    hl_pipeline_cull_desc gc = {.color_count = 4, .gbuffer = true};
    for (uint32_t i = 0; i < 4; i++) gc.color_formats[i] = HL_PIPELINE_FORMAT_RGBA16F;
    hl_pipeline_culling gcull = {0}, fcull = {0};
    if (!res) res = hl_pipeline_cull(ctx, &gc, &gcull);
    if (!res) res = hl_pipeline_record_shadows(ctx, gcull);
    if (!res)
        res = scene_pass(ctx, "g-buffer", gcull, HL_PIPELINE_QUEUE_OPAQUE, HL_PIPELINE_MATERIALS_ENGINE,
                         HL_PIPELINE_SORT_MATERIAL_FRONT_TO_BACK, g, 4, depth, false);
    /* lighting: every pixel of `lit` */
    hl_pipeline_fullscreen_pass_desc fp = {.name = "lighting", .fragment = k_lighting_fs, .input_count = 4,
                                           .output_count = 1, .lighting = gcull};
    for (uint32_t i = 0; i < 4; i++) fp.input_names[i] = names[i], fp.inputs[i] = g[i];
    fp.outputs[0] = lit;
    if (!res) res = hl_pipeline_add_fullscreen_pass(ctx, &fp);
    /* forward over it: opaque shader materials, then transparent meshes; derived from the G-buffer
       culling (the same visible meshes, lights and shadow atlas: one traversal, one shadow pass) */
    hl_pipeline_cull_desc fc = {.color_count = 1, .color_formats = {HL_PIPELINE_FORMAT_RGBA16F}, .base = gcull,
                                .exclude_opaque_engine = true};
    if (!res) res = hl_pipeline_cull(ctx, &fc, &fcull);
    if (!res)
        res = scene_pass(ctx, "forward opaque", fcull, HL_PIPELINE_QUEUE_OPAQUE, HL_PIPELINE_MATERIALS_SHADER,
                         HL_PIPELINE_SORT_MATERIAL_FRONT_TO_BACK, &lit, 1, depth, true);
    if (!res)
        res = scene_pass(ctx, "transparent", fcull, HL_PIPELINE_QUEUE_TRANSPARENT, HL_PIPELINE_MATERIALS_ALL,
                         HL_PIPELINE_SORT_MATERIAL_FRONT_TO_BACK, &lit, 1, depth, true);
    /* post: the Forward features' own records, then into the output */
    hl_forward_frame frame = {.culling = fcull, .color = lit, .scene = lit, .injection = HL_FORWARD_POST};
    if (!res) res = hl_pipeline_output_texture(ctx, 0, &frame.output);
    for (uint32_t i = 0; i < d->feature_count && !res; i++)
        res = d->features[i].desc.record(ctx, &frame, d->features[i].state);
    if (!res) res = hl_pipeline_add_present_pass(ctx, frame.color); /* a copy: tone mapped to the output format */
    return res;
}

typedef struct factory_data {
    hl_pipeline_factory factory;
    hl_deferred_desc desc;
    hl_pipeline_requirements req;
    hl_pipeline_texture_requirement textures[3];
} factory_data;

static hl_result add_feature(deferred *d, const hl_forward_feature_desc *f) {
    feature *ft = &d->features[d->feature_count];
    ft->desc = *f;
    ft->user = malloc(f->user_size ? f->user_size : 1);
    if (!ft->user) return HL_ERR_OUT_OF_MEMORY;
    if (f->user_size) memcpy(ft->user, f->user, f->user_size);
    ft->state = ft->user;
    hl_result res = f->create ? f->create(ft->user, &ft->state) : HL_OK;
    if (res) {
        free(ft->user);
        return res;
    }
    d->feature_count++;
    return HL_OK;
}

static hl_result deferred_create(const hl_pipeline_caps *caps, void *user, hl_pipeline_runtime **out) {
    (void)caps;
    const factory_data *fd = user;
    deferred *d = calloc(1, sizeof *d);
    if (!d) return HL_ERR_OUT_OF_MEMORY;
    d->desc = fd->desc;
    hl_forward_feature_desc f;
    hl_result res = HL_OK;
    if (d->desc.bloom) {
        hl_forward_bloom(&d->desc.bloom_desc, &f);
        res = add_feature(d, &f);
    }
    if (!res) {
        hl_forward_tone_map(&d->desc.tone_map, &f);
        res = add_feature(d, &f);
    }
    hl_pipeline_runtime_desc rd = {"deferred", d, deferred_record, deferred_destroy};
    if (!res) return hl_pipeline_runtime_create(&rd, out); /* destroys the state on failure */
    deferred_destroy(d);
    return res;
}

hl_result hl_deferred_pipeline_factory_create(const hl_deferred_desc *desc, hl_pipeline_factory **out) {
    if (!out) return HL_ERR_VALIDATION;
    *out = NULL;
    factory_data *fd = calloc(1, sizeof *fd);
    if (!fd) return HL_ERR_OUT_OF_MEMORY;
    if (desc) fd->desc = *desc;
    if (fd->desc.tone_map.exposure == 0.0f) fd->desc.tone_map.exposure = 1.0f;
    fd->textures[0] = (hl_pipeline_texture_requirement){HL_PIPELINE_FORMAT_RGBA16F, HL_PIPELINE_USE_COLOR_ATTACHMENT, 1};
    fd->textures[1] = (hl_pipeline_texture_requirement){HL_PIPELINE_FORMAT_RGBA16F, HL_PIPELINE_USE_FILTERABLE_SAMPLED, 1};
    fd->textures[2] = (hl_pipeline_texture_requirement){HL_PIPELINE_FORMAT_RGBA8_SRGB, HL_PIPELINE_USE_COPY_DESTINATION, 1};
    fd->req.limits.max_color_attachments = 4;
    fd->req.textures = fd->textures;
    fd->req.texture_count = 3;
    fd->factory = (hl_pipeline_factory){"deferred", &fd->req, deferred_create, fd};
    *out = &fd->factory;
    return HL_OK;
}

void hl_deferred_pipeline_factory_destroy(hl_pipeline_factory *factory) {
    free(factory); /* the factory is the first member of its factory_data */
}
