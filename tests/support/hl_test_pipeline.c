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

const hl_pipeline_factory *hl_test_forward_post(void) {
    static hl_pipeline_factory *f;
    if (!f) {
        hl_forward_feature_desc features[1];
        hl_forward_tone_map(NULL, &features[0]);
        hl_forward_pipeline_desc d = {features, 1};
        if (hl_forward_pipeline_factory_create(&d, &f)) f = NULL;
    }
    return f;
}

const hl_pipeline_factory *hl_test_deferred(void) {
    static hl_pipeline_factory *f;
    if (!f && hl_deferred_pipeline_factory_create(NULL, &f)) f = NULL;
    return f;
}
