/* Scene passes with pass-global storage (hl_pipeline_scene_pass_desc.storage): the storage
 * variant of shader materials (GLSL ES 3.10 sources with read-only storage blocks) read at
 * group 3 from the buffers the pass binds by block name, on one backend per run.
 *
 * webgpu: three meshes sharing one storage material (three draws: shader materials are never
 * instanced), its fragment shader colouring by screen column from a `Palette` block; every
 * covered pixel equals the palette entry of its column (exact: the entries are 0 or 1) and the
 * rest the clear colour; the next frame binds another buffer and the pixels follow (the storage
 * is the pass's, not the material's); a CPU write to the buffer shows in the following frame;
 * two passes of one frame with different palettes into two targets. Refusals by name: a pass
 * that does not bind the block a drawn material reads (at the call), a block given twice, an
 * offset not aligned, the direct recorder drawing the material (the frame fails naming it).
 * gles3: a scene pass with storage is HL_ERR_UNSUPPORTED at the call, and a storage material's
 * program fails to compile with HL_ERR_UNSUPPORTED (pipeline or direct recorder). */
#include <string.h>

#include "hilo3d/compute.h"
#include "hilo3d/renderer.h"
#include "hilo3d/scene.h"
#include "hl_test.h"
#include "hl_test_render.h"

enum { W = 40, H = 24 };

static const char *k_vs = "#version 310 es\n"
                          "layout(std140) uniform Object { mat4 u_model; mat4 u_normalMatrix; };\n"
                          "in vec3 a_position;\n"
                          "void main() { gl_Position = vec4((u_model * vec4(a_position, 1.0)).xy, 0.5, 1.0); }\n";
static const char *k_fs = "#version 310 es\n"
                          "precision highp float;\n"
                          "layout(std430) readonly buffer Palette { vec4 colors[]; };\n"
                          "layout(location = 0) out vec4 o_color;\n"
                          "void main() { o_color = colors[(int(gl_FragCoord.x) / 4) % 4]; }\n";

static const float k_pal_a[16] = {1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1, 0, 1};
static const float k_pal_b[16] = {0, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1};

enum mode { M_ONE = 0, M_NONE, M_TWICE, M_UNALIGNED, M_TWO_PASSES, M_GLES3 };

typedef struct st {
    enum mode m;
    hl_storage_buffer *pal[2];
    uint32_t which;
    hl_render_target *second; /* M_TWO_PASSES: the other palette's image */
    hl_result code;
    char msg[300];
} st;

static hl_result scene_pass(hl_pipeline_context ctx, st *s, hl_pipeline_culling c, uint32_t pal, bool target) {
    hl_pipeline_renderer_list_desc ld = {0};
    ld.culling = c;
    ld.queue = HL_PIPELINE_QUEUE_ALL;
    hl_pipeline_renderer_list list;
    hl_result res = hl_pipeline_create_renderer_list(ctx, &ld, &list);
    if (res) return res;
    hl_pipeline_scene_pass_desc pd = {0};
    pd.name = target ? "second palette" : "palette";
    pd.list = list;
    if (target) {
        hl_pipeline_texture t;
        if ((res = hl_pipeline_import_render_target(ctx, s->second, 0, &t))) return res;
        pd.color[0] = t;
    }
    if (s->m == M_NONE) return hl_pipeline_add_scene_pass(ctx, &pd);
    hl_pipeline_buffer b = {0};
    if (s->m != M_GLES3 && (res = hl_pipeline_import_storage_buffer(ctx, s->pal[pal], &b))) return res;
    pd.storage[0] = (hl_pipeline_storage_binding){"Palette", b, 0, 0};
    pd.storage_count = 1;
    if (s->m == M_TWICE) pd.storage[1] = pd.storage[0], pd.storage_count = 2;
    if (s->m == M_UNALIGNED) pd.storage[0].offset = 16;
    return hl_pipeline_add_scene_pass(ctx, &pd);
}

static hl_result record(hl_pipeline_context ctx, void *state) {
    st *s = state;
    hl_pipeline_culling c;
    hl_result res = hl_pipeline_cull(ctx, NULL, &c);
    if (res) return res;
    if (s->m == M_NONE || s->m == M_TWICE || s->m == M_UNALIGNED || s->m == M_GLES3) {
        res = scene_pass(ctx, s, c, 0, false);
        s->code = res;
        snprintf(s->msg, sizeof s->msg, "%s", res ? hl_last_error() : "");
        return HL_OK;
    }
    if (s->m == M_TWO_PASSES) {
        hl_pipeline_cull_desc cd = {0};
        cd.color_count = 1;
        cd.color_formats[0] = HL_PIPELINE_FORMAT_RGBA8_SRGB;
        cd.no_depth = true;
        hl_pipeline_culling c2;
        if ((res = hl_pipeline_cull(ctx, &cd, &c2))) return res;
        if ((res = scene_pass(ctx, s, c2, 1 - s->which, true))) return res;
    }
    return scene_pass(ctx, s, c, s->which, false);
}

static hl_material *storage_material(void) {
    hl_material_attribute attrs[1] = {{"a_position", HL_ATTR_POSITION}};
    hl_shader_material_desc sd = {0};
    sd.vs = k_vs;
    sd.fs = k_fs;
    sd.attributes = attrs;
    sd.attribute_count = 1;
    sd.label = "palette material";
    hl_material *m = NULL;
    HL_CHECK_OK(hl_material_create_shader(&sd, &m));
    return m;
}

/* Three quads sharing m: at (-0.5, 0.5), (0.5, 0.5) and (0, -0.5), half a view wide each. */
static hl_stage *make_stage(hl_material *m, hl_camera **cam) {
    hl_stage *stage = NULL;
    HL_CHECK_OK(hl_stage_create(&stage));
    hl_plane_desc pd = {1.0f, 1.0f, 1, 1};
    hl_geometry *quad = NULL;
    HL_CHECK_OK(hl_geometry_create_plane(&pd, &quad));
    static const float at[3][2] = {{-0.5f, 0.5f}, {0.5f, 0.5f}, {0.0f, -0.5f}};
    for (int i = 0; i < 3; i++) add_mesh(stage, quad, m, (hl_vec3){at[i][0], at[i][1], 0.0f});
    hl_geometry_release(quad);
    *cam = front_camera(stage);
    hl_stage_set_clear_color(stage, (hl_color){0, 0, 0, 0}); /* as the second target's */
    return stage;
}

/* Every pixel: inside a quad the palette entry of its column, else the clear colour (0). */
static void check_image(const uint8_t *img, const float *pal, const char *what) {
    uint32_t bad = 0, first = UINT32_MAX;
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            bool top = y < H / 2, covered = top || (x >= W / 4 && x < 3 * W / 4);
            uint8_t want[4] = {0, 0, 0, 0};
            if (covered)
                for (int c = 0; c < 4; c++) want[c] = (uint8_t)(pal[((x / 4) % 4) * 4 + c] * 255.0f);
            if (memcmp(img + (y * W + x) * 4, want, 4)) {
                bad++;
                if (first == UINT32_MAX) first = y * W + x;
            }
        }
    HL_CHECK_MSG(bad == 0, "%s: %u pixels differ, the first at (%u, %u): %u %u %u %u", what, bad,
                 first == UINT32_MAX ? 0 : first % W, first == UINT32_MAX ? 0 : first / W,
                 first == UINT32_MAX ? 0 : img[first * 4], first == UINT32_MAX ? 0 : img[first * 4 + 1],
                 first == UINT32_MAX ? 0 : img[first * 4 + 2], first == UINT32_MAX ? 0 : img[first * 4 + 3]);
}

static void test_webgpu(void) {
    st s;
    memset(&s, 0, sizeof s);
    hl_test_runtime rt = {"scene-storage", record, &s};
    hl_pipeline_factory f;
    hl_test_runtime_factory(&rt, &f);
    hl_renderer *r = make_renderer_with(W, H, 1, &f), *direct = make_renderer(W, H, 1);
    hl_material *m = storage_material();
    hl_camera *cam = NULL;
    hl_stage *stage = make_stage(m, &cam);
    if (!r || !direct || !m) goto out;
    hl_storage_buffer_desc bd = {sizeof k_pal_a, 0, HL_STORAGE_RECOVERY_CPU_SHADOW, k_pal_a, "palette a"};
    HL_CHECK_OK(hl_storage_buffer_create(r, &bd, &s.pal[0]));
    bd.initial_data = k_pal_b;
    bd.label = "palette b";
    HL_CHECK_OK(hl_storage_buffer_create(r, &bd, &s.pal[1]));
    hl_render_target_desc td = {W, H, 1, {HL_TARGET_RGBA8_SRGB}, 1, false, {0, 0, 0, 0}, "second"};
    HL_CHECK_OK(hl_render_target_create(r, &td, &s.second));
    static uint8_t img[W * H * 4], img2[W * H * 4];
    /* palette a, then b: the pass's storage decides */
    for (uint32_t k = 0; k < 2; k++) {
        s.m = M_ONE;
        s.which = k;
        hl_result res = hl_renderer_render(r, stage, cam);
        HL_CHECK_MSG(res == HL_OK, "%s", hl_last_error());
        HL_CHECK_EQ(hl_renderer_stats(r)->draws, 3);
        HL_CHECK_OK(hl_renderer_read_pixels(r, img, sizeof img));
        check_image(img, k ? k_pal_b : k_pal_a, k ? "palette b" : "palette a");
    }
    /* a CPU write shows in the next frame */
    HL_CHECK_OK(hl_storage_buffer_write(r, s.pal[1], 0, k_pal_a, sizeof k_pal_a));
    HL_CHECK_OK(hl_renderer_render(r, stage, cam));
    HL_CHECK_OK(hl_renderer_read_pixels(r, img, sizeof img));
    check_image(img, k_pal_a, "palette b overwritten with a");
    HL_CHECK_OK(hl_storage_buffer_write(r, s.pal[1], 0, k_pal_b, sizeof k_pal_b));
    /* two passes, two palettes, one frame */
    s.m = M_TWO_PASSES;
    s.which = 0;
    hl_result res = hl_renderer_render(r, stage, cam);
    HL_CHECK_MSG(res == HL_OK, "two passes: %s", hl_last_error());
    HL_CHECK_EQ(hl_renderer_stats(r)->draws, 6);
    HL_CHECK_OK(hl_renderer_read_pixels(r, img, sizeof img));
    HL_CHECK_OK(hl_render_target_read(r, s.second, 0, img2, sizeof img2));
    check_image(img, k_pal_a, "two passes: output");
    check_image(img2, k_pal_b, "two passes: target");
    /* refusals */
    static const struct {
        enum mode m;
        const char *text;
    } refused[] = {
        {M_NONE, "shader material 'palette material' reads storage block 'Palette', which the pass does not bind"},
        {M_TWICE, "storage block 'Palette' is given twice"},
        {M_UNALIGNED, "storage block 'Palette': range [16, +0)"},
    };
    for (uint32_t i = 0; i < 3; i++) {
        s.m = refused[i].m;
        s.code = HL_OK;
        HL_CHECK_OK(hl_renderer_render(r, stage, cam));
        HL_CHECK_MSG(s.code == HL_ERR_VALIDATION && strstr(s.msg, refused[i].text), "refusal %u: %d '%s' (want '%s')", i,
                     (int)s.code, s.msg, refused[i].text);
    }
    HL_CHECK_RESULT(hl_renderer_render(direct, stage, cam), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "shader material 'palette material' reads storage blocks") != NULL);
out:
    hl_stage_destroy(stage);
    hl_material_release(m);
    hl_renderer_destroy(direct);
    hl_renderer_destroy(r);
}

static void test_gles3(void) {
    st s;
    memset(&s, 0, sizeof s);
    s.m = M_GLES3;
    hl_test_runtime rt = {"scene-storage-gles3", record, &s};
    hl_pipeline_factory f;
    hl_test_runtime_factory(&rt, &f);
    hl_renderer *r = make_renderer_with(W, H, 1, &f), *direct = make_renderer(W, H, 1);
    hl_material *m = storage_material(), *plain = basic(1, 0, 0, 1);
    hl_camera *cam = NULL, *cam2 = NULL;
    hl_stage *stage = make_stage(m, &cam), *stage2 = make_stage(plain, &cam2);
    if (r && direct && m && plain) {
        /* a scene pass with storage: refused at the call */
        HL_CHECK_OK(hl_renderer_render(r, stage2, cam2));
        HL_CHECK_MSG(s.code == HL_ERR_UNSUPPORTED && strstr(s.msg, "gles3 backend has no storage buffers"), "%d '%s'",
                     (int)s.code, s.msg);
        /* the storage material itself: its program is webgpu-only, in a pipeline or not */
        HL_CHECK_RESULT(hl_renderer_render(r, stage, cam), HL_ERR_UNSUPPORTED);
        HL_CHECK(strstr(hl_last_error(), "compile for webgpu only") != NULL);
        HL_CHECK_RESULT(hl_renderer_render(direct, stage, cam), HL_ERR_UNSUPPORTED);
        HL_CHECK(strstr(hl_last_error(), "compile for webgpu only") != NULL);
    }
    hl_stage_destroy(stage);
    hl_stage_destroy(stage2);
    hl_material_release(m);
    hl_material_release(plain);
    hl_renderer_destroy(direct);
    hl_renderer_destroy(r);
}

int main(int argc, char **argv) {
    if (backend_of(argc, argv) == HL_BACKEND_GLES3) test_gles3();
    else test_webgpu();
    return hl_test_finish();
}
