/* Renderer pixel tests of scene features without a test of their own: linear fog, a custom
 * geometry with quantised (normalised integer) attributes, and a texture loaded from a PNG
 * file sampled with nearest filtering. Orthographic camera at z = 5 over [-1, 1]^2, 64 x 64,
 * 1 sample. Tolerance +-2 per channel (sRGB encode of computed linear values). */
#include <stdio.h>

#include "hl_test_render.h"

enum { W = 64, H = 64 };

static const uint8_t *px(const uint8_t *img, int x, int y) { return img + ((size_t)y * W + (size_t)x) * 4; }

static void test_fog(void) {
    hl_renderer *r = make_renderer(W, H, 1);
    hl_stage *s = NULL;
    HL_CHECK_OK(hl_stage_create(&s));
    if (!r || !s) return;
    hl_camera *cam = front_camera(s);
    /* linear fog from 0 to 10: a black quad 5 units from the camera is half fog */
    hl_fog fog = {HL_FOG_LINEAR, {1.0f, 0.0f, 1.0f, 1.0f}, 0.0f, 10.0f, 0.0f};
    hl_stage_set_fog(s, &fog);
    hl_geometry *g = plane(1.0f, 1.0f);
    hl_material *m = basic(0, 0, 0, 1);
    add_mesh(s, g, m, (hl_vec3){0, 0, 0});
    static uint8_t img[W * H * 4];
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_OK(hl_renderer_read_pixels(r, img, sizeof img));
    int half = srgb_byte(0.5f);
    HL_CHECK_PIXEL(px(img, 32, 32), half, 0, half, 255, 2);
    /* fog off: the quad is black again */
    hl_stage_set_fog(s, NULL);
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_OK(hl_renderer_read_pixels(r, img, sizeof img));
    HL_CHECK_PIXEL(px(img, 32, 32), 0, 0, 0, 255, 1);
    hl_material_release(m);
    hl_geometry_release(g);
    hl_stage_destroy(s);
    hl_renderer_destroy(r);
}

static void test_quantised(void) {
    hl_renderer *r = make_renderer(W, H, 1);
    hl_stage *s = NULL;
    HL_CHECK_OK(hl_stage_create(&s));
    if (!r || !s) return;
    hl_camera *cam = front_camera(s);
    /* a quad over the right half: SNORM16 x4 positions (x in [0, 1], y in [-1, 1]) and UNORM8
       colours; the basic material multiplies its white by the vertex colour */
    const int16_t pos[4][4] = {{0, -32767, 0, 0}, {32767, -32767, 0, 0}, {32767, 32767, 0, 0}, {0, 32767, 0, 0}};
    const uint8_t col[4][4] = {{255, 128, 0, 255}, {255, 128, 0, 255}, {255, 128, 0, 255}, {255, 128, 0, 255}};
    const uint16_t idx[6] = {0, 1, 2, 0, 2, 3};
    hl_geometry_desc gd = {0};
    gd.vertex_count = 4;
    gd.attributes[HL_ATTR_POSITION] = (hl_attribute_desc){pos, HL_COMPONENT_SNORM16, 4};
    gd.attributes[HL_ATTR_COLOR_0] = (hl_attribute_desc){col, HL_COMPONENT_UNORM8, 4};
    gd.indices = idx;
    gd.index_count = 6;
    gd.index_format = HL_INDEX_UINT16;
    hl_geometry *g = NULL;
    HL_CHECK_OK(hl_geometry_create(&gd, &g));
    hl_material *m = basic(1, 1, 1, 1);
    if (g) add_mesh(s, g, m, (hl_vec3){0, 0, 0});
    static uint8_t img[W * H * 4];
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_OK(hl_renderer_read_pixels(r, img, sizeof img));
    HL_CHECK_PIXEL(px(img, 48, 32), 255, srgb_byte(128.0f / 255.0f), 0, 255, 2);
    HL_CHECK_PIXEL(px(img, 16, 32), 0, 0, 0, 255, 1); /* left half: clear colour */
    /* a dirty-range update: only the 16 bytes of COLOR_0 upload, and the next frame shows them */
    const uint8_t green[4][4] = {{0, 255, 0, 255}, {0, 255, 0, 255}, {0, 255, 0, 255}, {0, 255, 0, 255}};
    HL_CHECK_OK(hl_geometry_update_attribute(g, HL_ATTR_COLOR_0, 0, 4, green));
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_OK(hl_renderer_read_pixels(r, img, sizeof img));
    HL_CHECK_PIXEL(px(img, 48, 32), 0, 255, 0, 255, 1);
    const hl_geometry_layout *gl = hl_geometry_get_layout(g);
    uint64_t up = hl_renderer_stats(r)->upload_bytes;
    HL_CHECK_MSG(up == 16 && up < gl->vertex_bytes,
                 "frame upload %llu bytes: only the colour range (16 bytes), not the vertex block again",
                 (unsigned long long)up);
    hl_material_release(m);
    hl_geometry_release(g);
    hl_stage_destroy(s);
    hl_renderer_destroy(r);
}

static void test_texture_file(void) {
    /* 2 x 2 PNG: red, green / blue, white (row 0 on top) */
    const uint8_t texels[16] = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255};
    char path[64];
    snprintf(path, sizeof path, "features_%s.png", hl_backend_name(hl_test_render_backend));
    HL_CHECK(hl_test_write_png(path, 2, 2, texels));
    hl_texture_desc td = {0};
    td.mipmaps = HL_MIPMAPS_NONE;
    td.sampler.mag_filter = td.sampler.min_filter = HL_FILTER_NEAREST;
    td.sampler.wrap_u = td.sampler.wrap_v = HL_WRAP_CLAMP;
    hl_texture *tex = NULL;
    HL_CHECK_OK(hl_texture_load_file(path, &td, &tex));
    hl_renderer *r = make_renderer(W, H, 1);
    if (!r || !tex) {
        hl_texture_release(tex);
        hl_renderer_destroy(r);
        return;
    }
    static uint8_t img[W * H * 4];
    draw_texture(r, tex, img, sizeof img);
    HL_CHECK_PIXEL(px(img, 16, 16), 255, 0, 0, 255, 1);
    HL_CHECK_PIXEL(px(img, 48, 16), 0, 255, 0, 255, 1);
    HL_CHECK_PIXEL(px(img, 16, 48), 0, 0, 255, 255, 1);
    HL_CHECK_PIXEL(px(img, 48, 48), 255, 255, 255, 255, 1);
    /* a missing file is an IO error naming it */
    hl_texture *none = NULL;
    HL_CHECK_RESULT(hl_texture_load_file("no_such_file.png", NULL, &none), HL_ERR_IO);
    hl_texture_release(tex);
    hl_renderer_destroy(r);
}

int main(int argc, char **argv) {
    backend_of(argc, argv);
    test_fog();
    test_quantised();
    test_texture_file();
    return hl_test_finish();
}
