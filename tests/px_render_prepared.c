/* PreparedDraw reuse: a static scene's second frame reuses every draw; moving a mesh reuses
 * its draw too (only its object block uploads) and the pixel follows; a material variant
 * change rebuilds exactly that draw. Pixel tolerance +-1. */
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

    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    const hl_render_stats *st = hl_renderer_stats(r);
    HL_CHECK_EQ(st->prepared_rebuilt, 3);
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_EQ(st->prepared_reused, 3);
    HL_CHECK_EQ(st->prepared_rebuilt, 0);

    /* move the red quad to the lower left: reused draw, new object block */
    hl_node_set_translation(hl_mesh_node(a), (hl_vec3){-0.5f, -0.5f, 0});
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_EQ(st->prepared_reused, 3);
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

    hl_stage_destroy(s);
    hl_geometry_release(quad);
    hl_renderer_destroy(r);
    return hl_test_finish();
}
