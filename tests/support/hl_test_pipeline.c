/* The Forward pipeline recorded through the public SRP calls (see hl_test_pipeline.h). */
#include "hl_test_pipeline.h"

#include "hl_deferred.h"

/* The transparent pass draws its list from an execute callback: the encoder path, in every
   scripted run of the randomized scenes. */
static hl_result draw_transparent(hl_pipeline_pass_encoder enc, void *user) {
    (void)user;
    return hl_pipeline_pass_draw_list(enc, 0);
}

static hl_result forward_record(hl_pipeline_context ctx, void *state) {
    (void)state;
    hl_pipeline_culling c;
    hl_result res = hl_pipeline_cull(ctx, NULL, &c);
    if (!res) res = hl_pipeline_record_shadows(ctx, c);
    hl_pipeline_renderer_list opaque, transparent;
    hl_pipeline_renderer_list_desc ld = {c, HL_PIPELINE_QUEUE_OPAQUE, HL_PIPELINE_SORT_MATERIAL_FRONT_TO_BACK, false, NULL, HL_PIPELINE_MATERIALS_ALL, 0};
    if (!res) res = hl_pipeline_create_renderer_list(ctx, &ld, &opaque);
    ld.queue = HL_PIPELINE_QUEUE_TRANSPARENT;
    if (!res) res = hl_pipeline_create_renderer_list(ctx, &ld, &transparent);
    uint32_t n = 0;
    if (!res) res = hl_pipeline_renderer_list_count(ctx, transparent, &n);
    hl_pipeline_scene_pass_desc pd = {.name = "opaque", .list = opaque, .load_color = false, .load_depth = false};
    if (!res) res = hl_pipeline_add_scene_pass(ctx, &pd);
    pd = (hl_pipeline_scene_pass_desc){
        .name = "transparent", .list = transparent, .load_color = true, .load_depth = true, .execute = draw_transparent};
    if (!res && n) res = hl_pipeline_add_scene_pass(ctx, &pd);
    return res;
}

static hl_result forward_create(const hl_pipeline_caps *caps, void *user, hl_pipeline_runtime **out) {
    (void)caps, (void)user;
    hl_pipeline_runtime_desc d = {"scripted-forward", NULL, forward_record, NULL};
    return hl_pipeline_runtime_create(&d, out);
}

const hl_pipeline_factory *hl_test_scripted_forward(void) {
    static const hl_pipeline_factory f = {"scripted-forward", NULL, forward_create, NULL};
    return &f;
}

/* A POST feature on graph mips: the scene colour copied into a texture with two levels, the
   second made by a mip pass, and 3/4 of level 0 + 1/4 of level 1 (magnified) written on. */
static const char *const k_soften_fs = "#version 300 es\n"
                                       "precision highp float;\n"
                                       "in vec2 v_uv;\n"
                                       "uniform sampler2D u_src;\n"
                                       "layout(location = 0) out vec4 o_color;\n"
                                       "void main() {\n"
                                       "    o_color = mix(textureLod(u_src, v_uv, 0.0), textureLod(u_src, v_uv, 1.0), 0.25);\n"
                                       "}\n";

static hl_result soften_record(hl_pipeline_context ctx, hl_forward_frame *frame, void *state) {
    (void)state;
    uint32_t w = 0, h = 0;
    hl_result res = hl_pipeline_texture_size(ctx, frame->color, &w, &h);
    if (res || (w < 2 && h < 2)) return res; /* 1x1: no second level */
    hl_pipeline_texture mipped, out;
    hl_pipeline_texture_desc td = {HL_PIPELINE_FORMAT_RGBA16F, w, h, 0, 0, "soften mips", 1, 2};
    res = hl_pipeline_create_texture(ctx, &td, &mipped);
    td.mip_count = 1;
    td.name = "softened";
    if (!res) res = hl_pipeline_create_texture(ctx, &td, &out);
    if (!res) res = hl_pipeline_add_copy_pass(ctx, "soften copy", frame->color, mipped);
    if (!res) res = hl_pipeline_add_mip_pass(ctx, mipped);
    hl_pipeline_fullscreen_pass_desc d = {0};
    d.name = "soften";
    d.fragment = k_soften_fs;
    d.input_names[0] = "u_src";
    d.inputs[0] = mipped;
    d.input_count = 1;
    d.outputs[0] = out;
    d.output_count = 1;
    if (!res) res = hl_pipeline_add_fullscreen_pass(ctx, &d);
    if (!res) frame->color = out;
    return res;
}

const hl_pipeline_factory *hl_test_forward_post(void) {
    static hl_pipeline_factory *f;
    if (!f) {
        hl_forward_feature_desc features[2] = {{0}};
        features[0].name = "soften";
        features[0].injection = HL_FORWARD_POST;
        features[0].samples_scene_color = true;
        features[0].record = soften_record;
        hl_forward_tone_map(NULL, &features[1]);
        hl_forward_pipeline_desc d = {features, 2};
        if (hl_forward_pipeline_factory_create(&d, &f)) f = NULL;
    }
    return f;
}

const hl_pipeline_factory *hl_test_deferred(void) {
    static hl_pipeline_factory *f;
    if (!f && hl_deferred_pipeline_factory_create(NULL, &f)) f = NULL;
    return f;
}
