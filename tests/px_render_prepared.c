/* PreparedDraw reuse and the kept view: a static scene's second frame takes the whole sorted list
 * of the first (no culling, building or sorting: retained_draws, nothing rebuilt, uploaded or
 * created, the same image); moving a mesh reuses its draw (only its object block uploads) and the
 * pixel follows; a material variant change rebuilds exactly that draw; render order, another
 * camera, a resize, mesh events and instancing each end the kept list for that frame. Pixel
 * tolerance +-1; kept frames' images equal the built ones exactly. */
#include <string.h>

#include "hilo3d/renderer.h"
#include "hl_test.h"

enum { W = 64, H = 64 };

static hl_mesh *add_quad(hl_stage *s, hl_geometry *g, hl_color c, float x, float y) {
    hl_basic_material_desc bd = {0};
    bd.color = c;
    hl_material *m = NULL;
    HL_CHECK_OK(hl_material_create_basic(&bd, &m));
    hl_mesh_desc md = {0};
    md.geometry = g;
    md.material = m;
    hl_mesh *mesh = NULL;
    HL_CHECK_OK(hl_mesh_create(&md, &mesh));
    hl_material_release(m);
    if (!mesh) return NULL;
    hl_node_set_translation(hl_mesh_node(mesh), (hl_vec3){x, y, 0});
    HL_CHECK_OK(hl_stage_add(s, hl_mesh_node(mesh)));
    return mesh;
}

static int events_called;
static void count_event(hl_mesh *m, void *user) {
    (void)m;
    ++*(int *)user;
}

int main(int argc, char **argv) {
    hl_rhi_backend rb = hl_test_backend_arg(argc, argv, HL_RHI_BACKEND_GLES3);
    hl_renderer_desc rd = {0};
    rd.backend = rb == HL_RHI_BACKEND_WEBGPU ? HL_BACKEND_WEBGPU : HL_BACKEND_GLES3;
    rd.width = W;
    rd.height = H;
    rd.sample_count = 1;
    hl_renderer *r = NULL;
    HL_CHECK_OK(hl_renderer_create(&rd, &r));
    if (!r) return hl_test_finish();
    hl_stage *s = NULL;
    HL_CHECK_OK(hl_stage_create(&s));
    hl_plane_desc pd = {0.5f, 0.5f, 1, 1};
    hl_geometry *quad = NULL;
    HL_CHECK_OK(hl_geometry_create_plane(&pd, &quad));
    hl_mesh *a = add_quad(s, quad, (hl_color){1, 0, 0, 1}, -0.5f, 0.5f);
    add_quad(s, quad, (hl_color){0, 1, 0, 1}, 0.5f, 0.5f);
    hl_mesh *c = add_quad(s, quad, (hl_color){0, 0, 1, 1}, 0.5f, -0.5f);
    hl_camera_desc cd = {0};
    cd.projection = HL_PROJECTION_ORTHOGRAPHIC;
    hl_camera *cam = NULL;
    HL_CHECK_OK(hl_camera_create(&cd, &cam));
    hl_node_set_translation(hl_camera_node(cam), (hl_vec3){0, 0, 5});
    HL_CHECK_OK(hl_stage_add(s, hl_camera_node(cam)));
    static uint8_t img[W * H * 4];

    static uint8_t built[W * H * 4];
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    const hl_render_stats *st = hl_renderer_stats(r);
    HL_CHECK_EQ(st->prepared_rebuilt, 3);
    HL_CHECK_EQ(st->retained_draws, 0);
    HL_CHECK_OK(hl_renderer_read_pixels(r, built, sizeof built));
    uint32_t objects = st->gpu_objects;
    for (int f = 0; f < 3; f++) { /* static: the kept list, nothing rebuilt, uploaded or created */
        HL_CHECK_OK(hl_renderer_render(r, s, cam));
        HL_CHECK_EQ(st->retained_draws, 3);
        HL_CHECK_EQ(st->draws, 3);
        HL_CHECK_EQ(st->prepared_reused, 0);
        HL_CHECK_EQ(st->prepared_rebuilt, 0);
        HL_CHECK_EQ(st->upload_bytes, 0);
        HL_CHECK_EQ(st->cache_misses, 0);
        HL_CHECK_EQ(st->meshes_visible, 3);
        HL_CHECK_EQ(st->gpu_objects, objects);
        HL_CHECK_OK(hl_renderer_read_pixels(r, img, sizeof img));
        HL_CHECK(memcmp(img, built, sizeof img) == 0);
    }

    /* move the red quad to the lower left: reused draw, new object block */
    hl_node_set_translation(hl_mesh_node(a), (hl_vec3){-0.5f, -0.5f, 0});
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_EQ(st->prepared_reused, 3);
    HL_CHECK_EQ(st->retained_draws, 0);
    HL_CHECK_OK(hl_renderer_read_pixels(r, img, sizeof img));
    HL_CHECK_PIXEL(img + (48 * W + 16) * 4, 255, 0, 0, 255, 1); /* lower left: red now */
    HL_CHECK_PIXEL(img + (16 * W + 16) * 4, 0, 0, 0, 255, 1);   /* upper left: cleared */

    /* a variant change (alpha mode) rebuilds that draw only */
    HL_CHECK_OK(hl_material_set_alpha_mode(hl_mesh_material(c), HL_ALPHA_BLEND, 0));
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_EQ(st->prepared_rebuilt, 1);
    HL_CHECK_EQ(st->prepared_reused, 2);
    HL_CHECK_OK(hl_renderer_read_pixels(r, img, sizeof img));
    HL_CHECK_PIXEL(img + (48 * W + 48) * 4, 0, 0, 255, 255, 1);

    /* kept again once nothing changes (at most one more built frame: uploads settle) */
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_EQ(st->retained_draws, 3);
    HL_CHECK_OK(hl_renderer_read_pixels(r, built, sizeof built));
    HL_CHECK_PIXEL(built + (48 * W + 16) * 4, 255, 0, 0, 255, 1);

    /* render order: the sort runs again (and the next frame keeps the new order) */
    hl_node_set_render_order(hl_mesh_node(a), 5);
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_EQ(st->retained_draws, 0);
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_EQ(st->retained_draws, 3);

    /* another camera, then the first one again: both built */
    hl_camera *cam2 = NULL;
    HL_CHECK_OK(hl_camera_create(&cd, &cam2));
    hl_node_set_translation(hl_camera_node(cam2), (hl_vec3){0.5f, 0, 5});
    HL_CHECK_OK(hl_stage_add(s, hl_camera_node(cam2)));
    HL_CHECK_OK(hl_renderer_render(r, s, cam)); /* the stage changed (a camera added) */
    HL_CHECK_EQ(st->retained_draws, 0);
    HL_CHECK_OK(hl_renderer_render(r, s, cam2));
    HL_CHECK_EQ(st->retained_draws, 0);
    HL_CHECK_OK(hl_renderer_read_pixels(r, img, sizeof img));
    HL_CHECK_PIXEL(img + (48 * W + 16) * 4, 0, 0, 0, 255, 1); /* shifted: red quad out of that pixel */
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_EQ(st->retained_draws, 0);
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_EQ(st->retained_draws, 3);
    HL_CHECK_OK(hl_renderer_read_pixels(r, img, sizeof img));
    HL_CHECK(memcmp(img, built, sizeof img) == 0);

    /* mesh events: called every frame, so never kept */
    hl_mesh_events ev = {0};
    ev.before_render = count_event;
    ev.user = &events_called;
    HL_CHECK_OK(hl_mesh_set_events(c, &ev));
    for (int f = 0; f < 3; f++) HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_EQ(st->retained_draws, 0);
    HL_CHECK_EQ(events_called, 3);
    HL_CHECK_OK(hl_mesh_set_events(c, NULL));
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_EQ(st->retained_draws, 3);

    /* a resize: the output is new */
    HL_CHECK_OK(hl_renderer_resize(r, W, H));
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_OK(hl_renderer_resize(r, W + 2, H));
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_EQ(st->retained_draws, 0);
    HL_CHECK_OK(hl_renderer_resize(r, W, H));
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_EQ(st->retained_draws, 0);
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_EQ(st->retained_draws, 3);
    HL_CHECK_OK(hl_renderer_read_pixels(r, img, sizeof img));
    HL_CHECK(memcmp(img, built, sizeof img) == 0);

    /* a device loss: rebuilt after recovery, kept again after */
    HL_CHECK_OK(hl_renderer_simulate_device_loss(r));
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_EQ(st->retained_draws, 0);
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_EQ(st->retained_draws, 3);
    HL_CHECK_OK(hl_renderer_read_pixels(r, img, sizeof img));
    HL_CHECK(memcmp(img, built, sizeof img) == 0);

    /* a shader material beside the basic ones, declaring a shorter Frame block than the engine's
       programs (80 bytes of its 5,696): its draws share the renderer's frame group, so a static
       frame still takes the kept list and creates nothing (the group was made again at every
       switch between the two programs before, and the kept list then named retired groups: the
       next frame failed, "handle is destroyed or stale") */
    static const char *vs = "#version 300 es\n"
                            "layout(std140) uniform Frame { mat4 u_viewProj; vec4 u_cameraPos; };\n"
                            "layout(std140) uniform Object { mat4 u_model; mat4 u_normalMatrix; };\n"
                            "in vec3 a_position;\n"
                            "void main() { gl_Position = u_viewProj * (u_model * vec4(a_position, 1.0)); }\n";
    static const char *fs = "#version 300 es\nprecision highp float;\nlayout(location = 0) out vec4 outColor;\n"
                            "void main() { outColor = vec4(1.0, 1.0, 0.0, 1.0); }\n";
    static const hl_material_attribute attr = {"a_position", HL_ATTR_POSITION};
    hl_shader_material_desc sd = {0};
    sd.vs = vs;
    sd.fs = fs;
    sd.attributes = &attr;
    sd.attribute_count = 1;
    sd.label = "short frame block";
    hl_material *sm = NULL;
    HL_CHECK_OK(hl_material_create_shader(&sd, &sm));
    hl_mesh_desc smd = {0};
    smd.geometry = quad;
    smd.material = sm;
    hl_mesh *shader_mesh = NULL;
    if (sm) HL_CHECK_OK(hl_mesh_create(&smd, &shader_mesh));
    hl_material_release(sm);
    if (shader_mesh) {
        hl_node_set_translation(hl_mesh_node(shader_mesh), (hl_vec3){-0.5f, 0.5f, 0});
        HL_CHECK_OK(hl_stage_add(s, hl_mesh_node(shader_mesh)));
        HL_CHECK_OK(hl_renderer_render(r, s, cam)); /* the new mesh: built */
        HL_CHECK_OK(hl_renderer_render(r, s, cam));
        HL_CHECK_OK(hl_renderer_read_pixels(r, built, sizeof built));
        HL_CHECK_PIXEL(built + (16 * W + 16) * 4, 255, 255, 0, 255, 1); /* upper left: the shader quad */
        HL_CHECK_PIXEL(built + (48 * W + 16) * 4, 255, 0, 0, 255, 1);
        objects = st->gpu_objects;
        for (int f = 0; f < 3; f++) {
            HL_CHECK_OK(hl_renderer_render(r, s, cam));
            HL_CHECK_EQ(st->retained_draws, 4);
            HL_CHECK_EQ(st->prepared_rebuilt, 0);
            HL_CHECK_EQ(st->gpu_objects, objects);
            HL_CHECK_OK(hl_renderer_read_pixels(r, img, sizeof img));
            HL_CHECK(memcmp(img, built, sizeof img) == 0);
        }
    }

    hl_stage_destroy(s);
    hl_geometry_release(quad);
    hl_renderer_destroy(r);
    return hl_test_finish();
}
