/* See hl_test_render.h. */
#include "hl_test_render.h"

#include <math.h>

hl_backend hl_test_render_backend = HL_BACKEND_WEBGPU;

hl_backend backend_of(int argc, char **argv) {
    return hl_test_render_backend = hl_test_backend_arg(argc, argv, HL_RHI_BACKEND_WEBGPU) == HL_RHI_BACKEND_GLES3 ? HL_BACKEND_GLES3
                                                                                          : HL_BACKEND_WEBGPU;
}
int srgb_byte(float c) {
    c = c < 0 ? 0 : c > 1 ? 1 : c;
    float s = c <= 0.0031308f ? c * 12.92f : 1.055f * powf(c, 1.0f / 2.4f) - 0.055f;
    return (int)floorf(s * 255.0f + 0.5f);
}
hl_renderer *make_renderer(uint32_t w, uint32_t h, uint32_t samples) { return make_renderer_with(w, h, samples, NULL); }
hl_renderer *make_renderer_with(uint32_t w, uint32_t h, uint32_t samples, const hl_pipeline_factory *pipeline) {
    hl_renderer_desc rd = {0};
    rd.backend = hl_test_render_backend;
    rd.width = w;
    rd.height = h;
    rd.sample_count = samples;
    rd.pipeline = pipeline;
    hl_renderer *r = NULL;
    HL_CHECK_OK(hl_renderer_create(&rd, &r));
    return r;
}
static hl_result runtime_create(const hl_pipeline_caps *caps, void *user, hl_pipeline_runtime **out) {
    (void)caps;
    const hl_test_runtime *rt = user;
    hl_pipeline_runtime_desc d = {rt->name, rt->state, rt->record, NULL};
    return hl_pipeline_runtime_create(&d, out);
}
void hl_test_runtime_factory(hl_test_runtime *rt, hl_pipeline_factory *f) {
    *f = (hl_pipeline_factory){rt->name, NULL, runtime_create, rt};
}
bool render_read(hl_renderer *r, hl_stage *stage, hl_camera *camera, uint8_t *img, size_t n) {
    hl_result res = hl_renderer_render(r, stage, camera);
    HL_CHECK_OK(res);
    if (!res) HL_CHECK_OK(res = hl_renderer_read_pixels(r, img, n));
    return !res;
}
hl_result hl_test_forward_lists(hl_pipeline_context ctx, hl_pipeline_culling c, hl_pipeline_renderer_list *opaque,
                                hl_pipeline_renderer_list *transparent) {
    hl_pipeline_renderer_list_desc ld = {c, HL_PIPELINE_QUEUE_OPAQUE, HL_PIPELINE_SORT_MATERIAL_FRONT_TO_BACK, false, NULL,
                                         HL_PIPELINE_MATERIALS_ALL, 0};
    hl_result res = hl_pipeline_create_renderer_list(ctx, &ld, opaque);
    ld.queue = HL_PIPELINE_QUEUE_TRANSPARENT;
    ld.sorting = HL_PIPELINE_SORT_BACK_TO_FRONT;
    if (!res) res = hl_pipeline_create_renderer_list(ctx, &ld, transparent);
    return res;
}
hl_camera *front_camera(hl_stage *s) {
    hl_camera_desc cd = {0};
    cd.projection = HL_PROJECTION_ORTHOGRAPHIC;
    cd.near_plane = 0.1f, cd.far_plane = 20.0f;
    hl_camera *c = NULL;
    HL_CHECK_OK(hl_camera_create(&cd, &c));
    if (!c) return NULL;
    hl_node_set_translation(hl_camera_node(c), (hl_vec3){0, 0, 5});
    HL_CHECK_OK(hl_stage_add(s, hl_camera_node(c)));
    return c;
}
hl_mesh *add_mesh(hl_stage *s, hl_geometry *g, hl_material *m, hl_vec3 pos) {
    hl_mesh_desc md = {0};
    md.geometry = g;
    md.material = m;
    hl_mesh *mesh = NULL;
    HL_CHECK_OK(hl_mesh_create(&md, &mesh));
    if (!mesh) return NULL;
    hl_node_set_translation(hl_mesh_node(mesh), pos);
    HL_CHECK_OK(hl_stage_add(s, hl_mesh_node(mesh)));
    return mesh;
}
hl_material *basic(float r, float g, float b, float a) {
    hl_basic_material_desc bd = {0};
    bd.color = (hl_color){r, g, b, a};
    if (a < 1.0f) {
        bd.state.alpha_mode = HL_ALPHA_BLEND;
    }
    hl_material *m = NULL;
    HL_CHECK_OK(hl_material_create_basic(&bd, &m));
    return m;
}
hl_geometry *plane(float w, float h) {
    hl_plane_desc pd = {w, h, 1, 1};
    hl_geometry *g = NULL;
    HL_CHECK_OK(hl_geometry_create_plane(&pd, &g));
    return g;
}

void draw_texture(hl_renderer *r, hl_texture *tex, uint8_t *img, size_t size) {
    hl_stage *s = NULL;
    HL_CHECK_OK(hl_stage_create(&s));
    if (!s) return;
    hl_camera *cam = front_camera(s);
    hl_basic_material_desc bd = {0};
    bd.texture.texture = tex;
    hl_material *m = NULL;
    HL_CHECK_OK(hl_material_create_basic(&bd, &m));
    hl_geometry *g = plane(2.0f, 2.0f);
    add_mesh(s, g, m, (hl_vec3){0, 0, 0});
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_OK(hl_renderer_read_pixels(r, img, size));
    hl_material_release(m);
    hl_geometry_release(g);
    hl_stage_destroy(s);
}
