/* The parallel frontend (hl_renderer_desc.frontend_threads): a renderer culling, sorting and
 * preparing its draws (records and normal matrices: render_frame.c prep_part) on 4
 * threads and one on the calling thread alone draw the same scene with the same results: the
 * same visible and culled counts, shadow tiles and draws, the same draw order (the meshes of the
 * sorted colour draws and of the shadow-only draws, in order) and the same image exactly (max
 * difference 0), frame after frame while meshes move, are replaced and the camera turns (culling
 * and transparent order change). The scene: 6,000 boxes (above the size the threads start at),
 * every seventh material transparent, a directional light casting shadows (the traversal fits
 * its box), a camera that sees part of the grid; frontend_threads out of range is refused. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hilo3d/renderer.h"
#include "hl_scene_demo.h"
#include "hl_test.h"
#include "render_internal.h"

enum { W = 96, H = 64, N = 6000, MATERIALS = 21 };

static hl_renderer *make(hl_backend be, uint32_t threads) {
    hl_renderer_desc rd = {0};
    rd.backend = be;
    rd.width = W;
    rd.height = H;
    rd.sample_count = 1;
    rd.shadow_atlas_size = 512;
    rd.frontend_threads = threads;
    hl_renderer *r = NULL;
    HL_CHECK_OK(hl_renderer_create(&rd, &r));
    return r;
}

/* Both renderers draw the stage; everything that must agree is compared. */
static void frame(hl_renderer *a, hl_renderer *b, hl_stage *s, hl_camera *cam, const char *what) {
    static uint8_t ia[W * H * 4], ib[W * H * 4];
    HL_CHECK_OK(hl_renderer_render(a, s, cam));
    HL_CHECK_OK(hl_renderer_render(b, s, cam));
    const hl_render_stats *sa = hl_renderer_stats(a), *sb = hl_renderer_stats(b);
    HL_CHECK_MSG(sa->meshes_visible == sb->meshes_visible && sa->meshes_culled == sb->meshes_culled &&
                     sa->draws == sb->draws && sa->shadow_tiles == sb->shadow_tiles && sa->faces == sb->faces,
                 "%s: visible %u/%u culled %u/%u draws %u/%u", what, sa->meshes_visible, sb->meshes_visible,
                 sa->meshes_culled, sb->meshes_culled, sa->draws, sb->draws);
    const hl__view *va = &a->views[0], *vb = &b->views[0];
    HL_CHECK_EQ(va->draw_count, vb->draw_count);
    HL_CHECK_EQ(va->opaque_count, vb->opaque_count);
    HL_CHECK_EQ(va->shadow_only_count, vb->shadow_only_count);
    bool same_order = va->draw_count == vb->draw_count && va->shadow_only_count == vb->shadow_only_count;
    for (uint32_t i = 0; same_order && i < va->draw_count; i++)
        same_order = a->draws[a->draw_order[va->draw_first + i]].mesh == b->draws[b->draw_order[vb->draw_first + i]].mesh;
    for (uint32_t i = 0; same_order && i < va->shadow_only_count; i++)
        same_order = a->draws[va->draw_first + va->draw_count + i].mesh == b->draws[vb->draw_first + vb->draw_count + i].mesh;
    HL_CHECK_MSG(same_order, "%s: the draw order differs", what);
    HL_CHECK_OK(hl_renderer_read_pixels(a, ia, sizeof ia));
    HL_CHECK_OK(hl_renderer_read_pixels(b, ib, sizeof ib));
    int diff = 0;
    for (size_t i = 0; i < sizeof ia; i++) {
        int d = abs((int)ia[i] - (int)ib[i]);
        if (d > diff) diff = d;
    }
    HL_CHECK_MSG(diff == 0, "%s: the images differ by %d", what, diff);
}

int main(int argc, char **argv) {
    hl_backend be = hl_test_backend_arg(argc, argv, HL_RHI_BACKEND_WEBGPU) == HL_RHI_BACKEND_GLES3 ? HL_BACKEND_GLES3
                                                                                                : HL_BACKEND_WEBGPU;
    hl_renderer_desc bad = {0};
    bad.backend = be;
    bad.frontend_threads = HL__MAX_FRONTEND_THREADS + 1;
    hl_renderer *none = NULL;
    HL_CHECK_RESULT(hl_renderer_create(&bad, &none), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "frontend_threads") != NULL);

    hl_stage *s = NULL;
    hl_camera *cam = NULL;
    HL_CHECK_OK(hl_scene_grid_create(N, MATERIALS, &s, &cam));
    hl_renderer *a = make(be, 4), *b = make(be, 1);
    if (!s || !a || !b) {
        hl_renderer_destroy(a);
        hl_renderer_destroy(b);
        hl_stage_destroy(s);
        return hl_test_finish();
    }
    HL_CHECK_EQ(hl__workers_threads(a->workers), 4);
    HL_CHECK_EQ(hl__workers_threads(b->workers), 1);
    hl_camera_desc cd = *hl_camera_get_desc(cam);
    cd.aspect = (float)W / (float)H;
    cd.fov_y_deg = 40.0f; /* part of the grid out of view */
    HL_CHECK_OK(hl_camera_set_desc(cam, &cd));
    HL_CHECK_OK(hl_stage_update(s));
    uint32_t count = 0;
    hl_mesh *const *ms = hl_stage_meshes(s, &count);
    for (uint32_t i = 0; i < MATERIALS; i += 7) HL_CHECK_OK(hl_material_set_alpha_mode(hl_mesh_material(ms[i]), HL_ALPHA_BLEND, 0));
    for (uint32_t i = 0; i < count; i++) hl_mesh_set_shadows(ms[i], i % 3 != 0, true);
    hl_light_desc ld = {0};
    ld.kind = HL_LIGHT_DIRECTIONAL;
    ld.intensity = 1.5f;
    ld.color = (hl_color){1, 1, 1, 1};
    ld.cast_shadows = true;
    hl_light *sun = NULL;
    HL_CHECK_OK(hl_light_create(&ld, &sun));
    hl_node_look_at(hl_light_node(sun), (hl_vec3){1, -2, 0.5f}, (hl_vec3){0, 1, 0});
    HL_CHECK_OK(hl_stage_add(s, hl_light_node(sun)));

    frame(a, b, s, cam, "first");
    const hl_render_stats *st = hl_renderer_stats(a);
    HL_CHECK(st->meshes_culled > 0 && st->meshes_visible >= HL__PARALLEL_MIN);
    frame(a, b, s, cam, "static");
    for (int f = 0; f < 6; f++) {
        /* meshes move, some are replaced, the camera turns */
        ms = hl_stage_meshes(s, &count);
        for (uint32_t i = (uint32_t)f; i < count; i += 5) {
            hl_vec3 t = hl_node_translation(hl_mesh_node(ms[i]));
            t.y = 0.3f * sinf(0.9f * (float)f + 0.21f * (float)i);
            hl_node_set_translation(hl_mesh_node(ms[i]), t);
        }
        if (f % 2) {
            hl_mesh *m = ms[(uint32_t)(f * 977) % count];
            hl_mesh_desc md = {0};
            md.geometry = hl_mesh_geometry(m);
            md.material = hl_mesh_material(m);
            md.cast_shadows = md.receive_shadows = true;
            hl_mesh *n = NULL;
            HL_CHECK_OK(hl_mesh_create(&md, &n));
            hl_node_set_translation(hl_mesh_node(n), hl_node_translation(hl_mesh_node(m)));
            hl_node_destroy(hl_mesh_node(m));
            HL_CHECK_OK(hl_stage_add(s, hl_mesh_node(n)));
            HL_CHECK_OK(hl_stage_update(s));
        }
        hl_vec3 eye = hl_node_translation(hl_camera_node(cam));
        float ang = 0.15f * (float)(f + 1);
        hl_node_look_at(hl_camera_node(cam), (hl_vec3){eye.x + 30.0f * sinf(ang), 0, eye.z - 60.0f * cosf(ang)},
                        (hl_vec3){0, 1, 0});
        frame(a, b, s, cam, "changing");
    }
    hl_renderer_destroy(a);
    hl_renderer_destroy(b);
    hl_stage_destroy(s);
    return hl_test_finish();
}
