/* The framing, default lights and pipelines shared by the CLI and the browser page
 * (hl_demo_model.h). */
#include <math.h>
#include <string.h>

#include "hl_base.h"
#include "hl_deferred.h"
#include "hl_demo_model.h"

hl_camera *hl_demo_frame_camera(hl_aabb box, float aspect) {
    hl_vec3 c = {(box.min.x + box.max.x) * 0.5f, (box.min.y + box.max.y) * 0.5f, (box.min.z + box.max.z) * 0.5f};
    hl_vec3 half = {(box.max.x - box.min.x) * 0.5f, (box.max.y - box.min.y) * 0.5f, (box.max.z - box.min.z) * 0.5f};
    float r = hl_vec3_length(half);
    if (!(r > 1e-6f) || !isfinite(r)) r = 1.0f;
    const float fov_y = 45.0f;
    float half_fov = fov_y * 0.5f * 3.14159265f / 180.0f;
    if (aspect < 1.0f) half_fov = atanf(tanf(half_fov) * aspect); /* the narrower field frames it */
    float dist = r / sinf(half_fov) * 1.05f;
    hl_camera_desc cd = {0};
    cd.fov_y_deg = fov_y;
    cd.aspect = aspect;
    cd.near_plane = dist * 0.01f;
    cd.far_plane = dist * 10.0f;
    cd.name = "auto";
    hl_camera *cam = NULL;
    if (hl_camera_create(&cd, &cam)) return NULL;
    hl_vec3 dir = hl_vec3_normalize((hl_vec3){0.0f, 0.3f, 1.0f});
    hl_node_set_translation(hl_camera_node(cam), (hl_vec3){c.x + dir.x * dist, c.y + dir.y * dist, c.z + dir.z * dist});
    hl_node_look_at(hl_camera_node(cam), c, (hl_vec3){0, 1, 0});
    return cam;
}

hl_result hl_demo_default_lights(hl_stage *s, hl_aabb box, bool environment) {
    hl_light_desc ld = {0};
    hl_light *l = NULL;
    hl_result res = HL_OK;
    if (!environment) {
        ld.kind = HL_LIGHT_AMBIENT;
        ld.intensity = 0.3f;
        if ((res = hl_light_create(&ld, &l)) || (res = hl_stage_add(s, hl_light_node(l)))) return res;
    }
    ld.kind = HL_LIGHT_DIRECTIONAL;
    ld.intensity = 2.5f;
    if ((res = hl_light_create(&ld, &l)) || (res = hl_stage_add(s, hl_light_node(l)))) return res;
    hl_vec3 c = {(box.min.x + box.max.x) * 0.5f, (box.min.y + box.max.y) * 0.5f, (box.min.z + box.max.z) * 0.5f};
    hl_node_set_translation(hl_light_node(l), (hl_vec3){c.x + 1.0f, c.y + 2.0f, c.z + 1.5f});
    hl_node_look_at(hl_light_node(l), c, (hl_vec3){0, 1, 0});
    return HL_OK;
}

hl_result hl_demo_pipeline_factory(const char *name, hl_pipeline_factory **factory) {
    *factory = NULL;
    if (!strcmp(name, "forward")) return HL_OK;
    if (!strcmp(name, "forward-post")) {
        hl_forward_feature_desc features[3];
        hl_forward_bloom(NULL, &features[0]);
        hl_forward_tone_map(NULL, &features[1]);
        hl_forward_fxaa(&features[2]);
        hl_forward_pipeline_desc fd = {features, 3};
        return hl_forward_pipeline_factory_create(&fd, factory);
    }
    if (!strcmp(name, "deferred")) {
        hl_deferred_desc dd = {.bloom = true};
        return hl_deferred_pipeline_factory_create(&dd, factory);
    }
    return hl__fail(HL_ERR_VALIDATION, "pipeline '%s': forward, forward-post or deferred", name);
}

void hl_demo_pipeline_release(const char *name, hl_pipeline_factory *factory) {
    if (!factory) return;
    if (!strcmp(name, "deferred")) hl_deferred_pipeline_factory_destroy(factory);
    else hl_forward_pipeline_factory_destroy(factory);
}
