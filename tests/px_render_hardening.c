/* Regression tests of the renderer defects found by hostile and ordinary use (issue 7), each
 * under the variation that found it: sizes and aspects, sharing, culling, address reuse, a
 * second renderer, many shader materials. Pixels are checked with tolerance +-1 (sRGB encode;
 * NVIDIA rounds 0.5 down). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hl_test_render.h"

/* A stage with a shadow-casting directional light and two casters sharing geometry and
 * material, the second far outside the view. */
static void culled_caster_shares_material(bool instanced, uint32_t w, uint32_t h) {
    hl_renderer *r = make_renderer(w, h, 1);
    if (!r) return;
    hl_stage *s = NULL;
    HL_CHECK_OK(hl_stage_create(&s));
    hl_camera *cam = front_camera(s);
    hl_light_desc ld = {0};
    ld.kind = HL_LIGHT_DIRECTIONAL;
    ld.cast_shadows = true;
    ld.intensity = 1;
    ld.color = (hl_color){1, 1, 1, 1};
    hl_light *l = NULL;
    HL_CHECK_OK(hl_light_create(&ld, &l));
    hl_stage_add(s, hl_light_node(l));
    hl_geometry *g = NULL;
    HL_CHECK_OK(hl_geometry_create_box(NULL, &g));
    hl_material *m = NULL;
    HL_CHECK_OK(hl_material_create_pbr(NULL, &m));
    const float xs[2] = {0.0f, 5.0f};
    for (int i = 0; i < 2; i++) {
        hl_mesh_desc md = {g, m, instanced, true, true, NULL};
        hl_mesh *mesh = NULL;
        HL_CHECK_OK(hl_mesh_create(&md, &mesh));
        hl_node_set_translation(hl_mesh_node(mesh), (hl_vec3){xs[i], 0, 0});
        hl_stage_add(s, hl_mesh_node(mesh));
    }
    for (int f = 0; f < 3; f++) {
        hl_result res = hl_renderer_render(r, s, cam);
        HL_CHECK_MSG(res == HL_OK, "%ux%u %s frame %d: %s %s", w, h, instanced ? "instanced" : "plain", f,
                     hl_result_name(res), hl_last_error());
        const hl_render_stats *st = hl_renderer_stats(r);
        HL_CHECK_EQ(st->meshes_visible, 1);
        HL_CHECK_EQ(st->meshes_culled, 1);
    }
    hl_stage_destroy(s);
    hl_material_release(m);
    hl_geometry_release(g);
    hl_renderer_destroy(r);
}

/* The demo scene at square, portrait and odd sizes (the shadow caster outside the view at
 * these aspects broke every frame). */
#include "hl_scene_demo.h"
static void demo_sizes(void) {
    static const uint32_t sizes[][2] = {{256, 256}, {64, 64}, {90, 160}, {33, 17}, {1, 1}, {17, 301}};
    for (uint32_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        uint32_t w = sizes[i][0], h = sizes[i][1];
        hl_renderer *r = make_renderer(w, h, i % 2 ? 4 : 1);
        if (!r) return;
        hl_scene_demo demo;
        HL_CHECK_OK(hl_scene_demo_create((float)w / (float)h, &demo));
        hl_result res = hl_renderer_render(r, demo.stage, demo.camera);
        HL_CHECK_MSG(res == HL_OK, "demo %ux%u: %s %s", w, h, hl_result_name(res), hl_last_error());
        uint8_t *px = malloc((size_t)w * h * 4);
        HL_CHECK_OK(hl_renderer_read_pixels(r, px, (size_t)w * h * 4));
        free(px);
        hl_scene_demo_destroy(&demo);
        hl_renderer_destroy(r);
    }
}

/* Many equivalent shader materials whose sources differ only in a comment: every one renders
 * its tint (their program keys must never alias an engine variant or each other). */
static const char *k_vs = "#version 300 es\n"
                          "layout(std140) uniform Object { mat4 u_model; mat4 u_normalMatrix; };\n"
                          "layout(std140) uniform HardeningBlock { vec4 tint; };\n"
                          "in vec3 a_position; out vec4 v_tint;\n"
                          "void main() { v_tint = tint; gl_Position = vec4((u_model * vec4(a_position, 1.0)).xy, 0.5, 1.0); }\n";
static const char *k_fs = "#version 300 es\nprecision highp float;\nin vec4 v_tint; layout(location = 0) out vec4 outColor;\n"
                          "void main() { outColor = v_tint; }\n";

static hl_material *tint_material(const char *vs, hl_uniform_buffer *ub) {
    static hl_material_attribute a = {"a_position", HL_ATTR_POSITION};
    hl_material_uniform_block blk = {"HardeningBlock", ub};
    hl_shader_material_desc sd = {0};
    sd.vs = vs;
    sd.fs = k_fs;
    sd.attributes = &a;
    sd.attribute_count = 1;
    sd.uniform_blocks = &blk;
    sd.uniform_block_count = 1;
    sd.label = "hardening";
    hl_material *m = NULL;
    HL_CHECK_OK(hl_material_create_shader(&sd, &m));
    return m;
}

static hl_uniform_buffer *tint_buffer(float r, float g, float b) {
    hl_std140_entry e[1] = {{"tint", HL_STD140_VEC4, 0}};
    hl_std140_layout *l = NULL;
    HL_CHECK_OK(hl_std140_layout_create(e, 1, &l));
    hl_uniform_buffer *ub = NULL;
    HL_CHECK_OK(hl_uniform_buffer_create(l, &ub));
    const float tint[4] = {r, g, b, 1};
    HL_CHECK_OK(hl_uniform_buffer_set(ub, "tint", tint, 4));
    hl_std140_layout_release(l);
    return ub;
}

static void shader_material_keys(void) {
    enum { W = 32, H = 32, N = 24 };
    hl_renderer *r = make_renderer(W, H, 1);
    if (!r) return;
    HL_CHECK_OK(hl_register_uniform_block_binding("HardeningBlock", NULL));
    hl_uniform_buffer *ub = tint_buffer(0.6f, 0.8f, 1.0f);
    hl_geometry *quad = plane(2, 2);
    static uint8_t px[W * H * 4];
    int ok = 0;
    for (int n = 0; n < N; n++) {
        char vs[1024];
        snprintf(vs, sizeof vs, n ? "%s// %d\n" : "%s", k_vs, n);
        hl_material *m = tint_material(vs, ub);
        hl_stage *s = NULL;
        HL_CHECK_OK(hl_stage_create(&s));
        hl_camera *cam = front_camera(s);
        add_mesh(s, quad, m, (hl_vec3){0, 0, 0});
        hl_result res = hl_renderer_render(r, s, cam);
        HL_CHECK_MSG(res == HL_OK, "shader material %d: %s %s", n, hl_result_name(res), hl_last_error());
        if (!res && !hl_renderer_read_pixels(r, px, sizeof px)) {
            const uint8_t *c = px + ((H / 2) * W + W / 2) * 4;
            ok += abs(c[0] - srgb_byte(0.6f)) <= 1 && abs(c[1] - srgb_byte(0.8f)) <= 1 && abs(c[2] - 255) <= 1;
        }
        hl_stage_destroy(s);
        hl_material_release(m);
    }
    HL_CHECK_EQ(ok, N);
    hl_geometry_release(quad);
    hl_uniform_buffer_release(ub);
    hl_renderer_destroy(r);
}

/* One new shader material per frame, released after its frame: the renderer's programs,
 * pipelines and mirrors stay bounded (they are released once unused). */
static void shader_material_churn(void) {
    enum { W = 16, H = 16, FRAMES = 400 };
    hl_renderer *r = make_renderer(W, H, 1);
    if (!r) return;
    HL_CHECK_OK(hl_register_uniform_block_binding("HardeningBlock", NULL));
    hl_uniform_buffer *ub = tint_buffer(1, 0, 0);
    hl_geometry *quad = plane(2, 2);
    hl_stage *s = NULL;
    HL_CHECK_OK(hl_stage_create(&s));
    hl_camera *cam = front_camera(s);
    uint32_t max_programs = 0, max_pipelines = 0, max_mirrors = 0;
    for (int f = 0; f < FRAMES; f++) {
        char vs[1024];
        snprintf(vs, sizeof vs, "%s// frame %d\n", k_vs, f);
        hl_material *m = tint_material(vs, ub);
        hl_mesh *mesh = add_mesh(s, quad, m, (hl_vec3){0, 0, 0});
        hl_result res = hl_renderer_render(r, s, cam);
        if (res) {
            HL_CHECK_MSG(0, "churn frame %d: %s %s", f, hl_result_name(res), hl_last_error());
            break;
        }
        hl_node_destroy(hl_mesh_node(mesh));
        hl_material_release(m);
        const hl_render_stats *st = hl_renderer_stats(r);
        if (f >= FRAMES / 2) {
            if (st->programs > max_programs) max_programs = st->programs;
            if (st->pipelines > max_pipelines) max_pipelines = st->pipelines;
            if (st->mirrors > max_mirrors) max_mirrors = st->mirrors;
        }
    }
    printf("churn: at most %u programs, %u pipelines, %u mirrors in the second half\n", max_programs, max_pipelines,
           max_mirrors);
    /* a released material's mirror goes at the end of the next frame; its program and pipeline
       after 60 unused frames (renderer.h): about 61 at any time, not one per frame ever drawn.
       Mesh slots of destroyed meshes go after 120 to 180 unused frames. */
    HL_CHECK_MSG(max_programs <= 64, "programs %u", max_programs);
    HL_CHECK_MSG(max_pipelines <= 64, "pipelines %u", max_pipelines);
    HL_CHECK_MSG(max_mirrors <= 200, "mirrors %u", max_mirrors);
    hl_stage_destroy(s);
    hl_geometry_release(quad);
    hl_uniform_buffer_release(ub);
    hl_renderer_destroy(r);
}

/* A new mesh at a destroyed mesh's address draws at its own place. */
static void mesh_address_reuse(void) {
    enum { W = 48, H = 48 };
    hl_renderer *r = make_renderer(W, H, 1);
    if (!r) return;
    hl_stage *s = NULL;
    HL_CHECK_OK(hl_stage_create(&s));
    hl_camera *cam = front_camera(s);
    hl_geometry *g = plane(0.8f, 0.8f);
    hl_material *m = basic(1, 1, 1, 1);
    static uint8_t px[W * H * 4];
    int wrong = 0;
    for (int it = 0; it < 10; it++) {
        hl_mesh *L = add_mesh(s, g, m, (hl_vec3){-0.5f, 0, 0});
        hl_mesh *R = add_mesh(s, g, m, (hl_vec3){0.5f, 0, 0});
        HL_CHECK_OK(hl_renderer_render(r, s, cam));
        if (it % 2) {
            hl_node_destroy(hl_mesh_node(L));
            hl_node_destroy(hl_mesh_node(R));
        } else {
            hl_node_destroy(hl_mesh_node(R));
            hl_node_destroy(hl_mesh_node(L));
        }
        hl_mesh *N = add_mesh(s, g, m, (hl_vec3){-0.5f, 0, 0});
        HL_CHECK_OK(hl_renderer_render(r, s, cam));
        HL_CHECK_OK(hl_renderer_read_pixels(r, px, sizeof px));
        int left = px[((H / 2) * W + W / 4) * 4] != 0, right = px[((H / 2) * W + 3 * W / 4) * 4] != 0;
        wrong += !(left && !right);
        hl_node_destroy(hl_mesh_node(N));
    }
    HL_CHECK_EQ(wrong, 0);
    hl_material_release(m);
    hl_geometry_release(g);
    hl_stage_destroy(s);
    hl_renderer_destroy(r);
}

/* Render targets belong to their renderer: another renderer refuses them, before touching
 * anything; the owner still uses them afterwards; destroying the renderer first frees them. */
static void target_ownership(void) {
    hl_renderer *r1 = make_renderer(16, 16, 1), *r2 = make_renderer(16, 16, 1);
    if (!r1 || !r2) {
        hl_renderer_destroy(r1);
        hl_renderer_destroy(r2);
        return;
    }
    hl_render_target *t = NULL;
    HL_CHECK_OK(hl_render_target_create(r1, NULL, &t));
    hl_stage *s = NULL;
    HL_CHECK_OK(hl_stage_create(&s));
    hl_camera *cam = front_camera(s);
    static uint8_t px[16 * 16 * 4];
    HL_CHECK_RESULT(hl_render_target_destroy(r2, t), HL_ERR_VALIDATION);
    HL_CHECK_RESULT(hl_render_target_resize(r2, t, 8, 8), HL_ERR_VALIDATION);
    HL_CHECK_RESULT(hl_render_target_read(r2, t, 0, px, sizeof px), HL_ERR_VALIDATION);
    HL_CHECK_RESULT(hl_renderer_render_to_target(r2, t, s, cam), HL_ERR_VALIDATION);
    /* its attachment texture drawn by the other renderer: refused, not drawn as a 1x1 stand-in */
    hl_material *m = basic(1, 1, 1, 1);
    HL_CHECK_OK(hl_material_set_texture(m, HL_TEXTURE_BASE_COLOR, hl_render_target_texture(t, 0), 0));
    hl_geometry *g = plane(2, 2);
    hl_mesh *mesh = add_mesh(s, g, m, (hl_vec3){0, 0, 0});
    HL_CHECK_RESULT(hl_renderer_render(r2, s, cam), HL_ERR_VALIDATION);
    HL_CHECK_OK(hl_renderer_render(r1, s, cam));
    /* a mesh passed as the camera: refused (it overflowed a heap block) */
    HL_CHECK_RESULT(hl_renderer_render(r1, s, (hl_camera *)hl_mesh_node(mesh)), HL_ERR_VALIDATION);
    hl_node_destroy(hl_mesh_node(mesh));
    hl_material_release(m);
    hl_geometry_release(g);
    /* the target still works with its owner */
    HL_CHECK_OK(hl_renderer_render_to_target(r1, t, s, cam));
    HL_CHECK_OK(hl_render_target_read(r1, t, 0, px, sizeof px));
    HL_CHECK_OK(hl_render_target_resize(r1, t, 8, 4));
    HL_CHECK_EQ(hl_render_target_read_size(t, 0), 8 * 4 * 4);
    HL_CHECK_RESULT(hl_render_target_read(r1, t, 0, px, 8 * 4 * 4 - 1), HL_ERR_VALIDATION);
    HL_CHECK_OK(hl_render_target_read(r1, t, 0, px, 8 * 4 * 4));
    HL_CHECK_EQ(hl_renderer_stats(r1)->targets, 2);
    /* a second target, left for the renderer to destroy (LeakSanitizer checks it) */
    hl_render_target *t2 = NULL;
    HL_CHECK_OK(hl_render_target_create(r1, NULL, &t2));
    HL_CHECK_OK(hl_render_target_destroy(r1, t));
    HL_CHECK_RESULT(hl_render_target_destroy(r1, t), HL_ERR_VALIDATION); /* already destroyed: refused, not freed twice */
    HL_CHECK_RESULT(hl_renderer_read_pixels(r1, px, 100), HL_ERR_VALIDATION);
    hl_stage_destroy(s);
    hl_renderer_destroy(r1);
    hl_renderer_destroy(r2);
}

/* A material that samples the target being rendered: the same error on both backends. */
static void target_samples_itself(void) {
    hl_renderer *r = make_renderer(16, 16, 1);
    if (!r) return;
    hl_render_target *t = NULL;
    HL_CHECK_OK(hl_render_target_create(r, NULL, &t));
    hl_stage *s = NULL;
    HL_CHECK_OK(hl_stage_create(&s));
    hl_camera *cam = front_camera(s);
    hl_material *m = basic(1, 1, 1, 1);
    HL_CHECK_OK(hl_material_set_texture(m, HL_TEXTURE_BASE_COLOR, hl_render_target_texture(t, 0), 0));
    hl_geometry *g = plane(2, 2);
    add_mesh(s, g, m, (hl_vec3){0, 0, 0});
    HL_CHECK_RESULT(hl_renderer_render_to_target(r, t, s, cam), HL_ERR_VALIDATION);
    HL_CHECK_OK(hl_renderer_render(r, s, cam)); /* into the output it is fine */
    HL_CHECK_RESULT(hl_renderer_render_to_target(r, t, s, cam), HL_ERR_VALIDATION);
    hl_stage_destroy(s);
    hl_material_release(m);
    hl_geometry_release(g);
    hl_renderer_destroy(r);
}

/* Render order: the full int32 range orders opaque draws (-1 before +1; 32768 after 0),
 * whatever their pipelines. Overlapping quads without depth test: the last drawn shows. */
static void render_order(void) {
    enum { W = 8, H = 8 };
    static const int32_t orders[][2] = {{-1, 1}, {0, 32768}, {INT32_MIN, INT32_MAX}, {-32769, -32768}, {65536, 65537}};
    static uint8_t px[W * H * 4];
    for (uint32_t i = 0; i < sizeof orders / sizeof orders[0]; i++) {
        for (int flip = 0; flip < 2; flip++) {
            hl_renderer *r = make_renderer(W, H, 1);
            if (!r) return;
            hl_stage *s = NULL;
            HL_CHECK_OK(hl_stage_create(&s));
            hl_camera *cam = front_camera(s);
            hl_geometry *g = plane(2, 2);
            hl_material *red = basic(1, 0, 0, 1), *green = basic(0, 1, 0, 1);
            hl_material_state st = {0};
            st.depth_test = st.depth_write = HL_TOGGLE_OFF;
            HL_CHECK_OK(hl_material_set_state(red, &st));
            HL_CHECK_OK(hl_material_set_state(green, &st));
            /* added in both orders: the order value, not insertion, decides */
            hl_mesh *a = add_mesh(s, g, flip ? green : red, (hl_vec3){0, 0, 0});
            hl_mesh *b = add_mesh(s, g, flip ? red : green, (hl_vec3){0, 0, 0});
            hl_node_set_render_order(hl_mesh_node(flip ? b : a), orders[i][0]); /* red: first */
            hl_node_set_render_order(hl_mesh_node(flip ? a : b), orders[i][1]); /* green: last, shows */
            HL_CHECK_OK(hl_renderer_render(r, s, cam));
            HL_CHECK_OK(hl_renderer_read_pixels(r, px, sizeof px));
            HL_CHECK_MSG(px[1] > 200 && px[0] < 50, "orders %d then %d (flip %d): pixel %d,%d,%d", orders[i][0], orders[i][1],
                         flip, px[0], px[1], px[2]);
            hl_stage_destroy(s);
            hl_material_release(red);
            hl_material_release(green);
            hl_geometry_release(g);
            hl_renderer_destroy(r);
        }
    }
}

/* Several views into the output in one frame: each clears, so the last one shows, whatever
 * the stages, cameras and fog of the views before it. */
typedef struct views_ctx {
    hl_stage *stages[3];
    hl_camera *cams[3];
    int order[3];
} views_ctx;

static hl_result record_views(hl_render_frame *f, void *user) {
    views_ctx *c = user;
    for (int i = 0; i < 3; i++) {
        hl_result res = hl_render_frame_render(f, c->stages[c->order[i]], c->cams[c->order[i]]);
        if (res) return res;
    }
    return HL_OK;
}

static void views_in_one_frame(void) {
    enum { W = 16, H = 16 };
    static const float clears[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    static const int orders[3][3] = {{0, 1, 2}, {2, 0, 1}, {1, 2, 0}};
    hl_renderer *r = make_renderer(W, H, 1);
    if (!r) return;
    views_ctx c;
    hl_geometry *g = plane(1, 1);
    hl_material *m = basic(1, 1, 1, 1);
    for (int i = 0; i < 3; i++) {
        HL_CHECK_OK(hl_stage_create(&c.stages[i]));
        hl_stage_set_clear_color(c.stages[i], (hl_color){clears[i][0], clears[i][1], clears[i][2], 1});
        c.cams[i] = front_camera(c.stages[i]);
        add_mesh(c.stages[i], g, m, (hl_vec3){i - 1.0f, 0, 0}); /* a white quad at a different place each */
        if (i == 1) {
            hl_fog fog = {0};
            fog.mode = HL_FOG_LINEAR;
            fog.color = (hl_color){1, 1, 1, 1};
            fog.start = 0;
            fog.end = 1;
            hl_stage_set_fog(c.stages[i], &fog);
        }
    }
    static uint8_t px[W * H * 4];
    for (int o = 0; o < 3; o++) {
        memcpy(c.order, orders[o], sizeof c.order);
        HL_CHECK_OK(hl_renderer_render_frame(r, record_views, &c));
        HL_CHECK_OK(hl_renderer_read_pixels(r, px, sizeof px));
        int last = c.order[2];
        /* a corner shows the last view's clear colour */
        HL_CHECK_MSG(abs(px[0] - (int)(clears[last][0] * 255)) <= 1 && abs(px[1] - (int)(clears[last][1] * 255)) <= 1 &&
                         abs(px[2] - (int)(clears[last][2] * 255)) <= 1,
                     "order %d,%d,%d: corner %d,%d,%d", c.order[0], c.order[1], c.order[2], px[0], px[1], px[2]);
    }
    for (int i = 0; i < 3; i++) hl_stage_destroy(c.stages[i]);
    hl_material_release(m);
    hl_geometry_release(g);
    hl_renderer_destroy(r);
}

/* A shader material that loops `n` times per pixel (n from a uniform): with a short wait
 * timeout, reading the output back returns HL_ERR_TIMEOUT instead of waiting for ever (n * 1000
 * iterations: a shader that never ends would not let the test end either); the
 * renderer stays usable, and once the GPU is done the pixels are right. */
static const char *k_loop_fs = "#version 300 es\nprecision highp float;\nin vec4 v_tint;\n"
                               "layout(std140) uniform HardeningLoop { vec4 loop; };\n"
                               "layout(location = 0) out vec4 outColor;\n"
                               "void main() {\n"
                               "    float acc = 0.0;\n"
                               "    int n = int(loop.x);\n"
                               /* nested: llvmpipe caps each loop at 65535 iterations */
                               "    for (int i = 0; i < n; i++)\n"
                               "        for (int j = 0; j < 1000; j++) acc = fract(acc * 1.0001 + 0.37);\n"
                               "    outColor = vec4(v_tint.rgb, 1.0) + vec4(acc * 1e-30);\n"
                               "}\n";

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static void long_shader_times_out(void) {
    enum { W = 32, H = 32 };
    hl_renderer_desc rd = {0};
    rd.backend = hl_test_render_backend;
    rd.width = W;
    rd.height = H;
    rd.sample_count = 1;
    rd.wait_timeout_ms = 200;
    hl_renderer *r = NULL;
    HL_CHECK_OK(hl_renderer_create(&rd, &r));
    if (!r) return;
    HL_CHECK_OK(hl_register_uniform_block_binding("HardeningBlock", NULL));
    HL_CHECK_OK(hl_register_uniform_block_binding("HardeningLoop", NULL));
    hl_uniform_buffer *tint = tint_buffer(0.6f, 0.8f, 1.0f);
    hl_std140_entry e[1] = {{"loop", HL_STD140_VEC4, 0}};
    hl_std140_layout *l = NULL;
    HL_CHECK_OK(hl_std140_layout_create(e, 1, &l));
    hl_uniform_buffer *loop = NULL;
    HL_CHECK_OK(hl_uniform_buffer_create(l, &loop));
    hl_std140_layout_release(l);
    static hl_material_attribute a = {"a_position", HL_ATTR_POSITION};
    hl_material_uniform_block blk[2] = {{"HardeningBlock", tint}, {"HardeningLoop", loop}};
    hl_shader_material_desc sd = {0};
    sd.vs = k_vs;
    sd.fs = k_loop_fs;
    sd.attributes = &a;
    sd.attribute_count = 1;
    sd.uniform_blocks = blk;
    sd.uniform_block_count = 2;
    sd.label = "long loop";
    hl_material *m = NULL;
    HL_CHECK_OK(hl_material_create_shader(&sd, &m));
    hl_stage *s = NULL;
    HL_CHECK_OK(hl_stage_create(&s));
    hl_camera *cam = front_camera(s);
    hl_geometry *quad = plane(2, 2);
    add_mesh(s, quad, m, (hl_vec3){0, 0, 0});
    static uint8_t px[W * H * 4];
    /* calibrate: the GPU time grows linearly with the loop count (a first frame compiles) */
    float n = 1;
    double ms = 0;
    for (int i = 0; i < 16 && ms < 200; i++) {
        float v[4] = {n, 0, 0, 0};
        HL_CHECK_OK(hl_uniform_buffer_set(loop, "loop", v, 4));
        double t0 = now_ms();
        HL_CHECK_OK(hl_renderer_render(r, s, cam));
        while (hl_renderer_wait_idle(r) == HL_ERR_TIMEOUT && now_ms() - t0 < 60000) {
        }
        ms = i ? now_ms() - t0 : 0;
        n = i ? n * 4 : 4;
    }
    n /= 4; /* the count the last frame ran */
    for (int i = 0; i < 3; i++) { /* the fastest of a few: a loaded machine inflates one measurement */
        double t0 = now_ms();
        HL_CHECK_OK(hl_renderer_render(r, s, cam));
        while (hl_renderer_wait_idle(r) == HL_ERR_TIMEOUT && now_ms() - t0 < 60000) {
        }
        if (now_ms() - t0 < ms) ms = now_ms() - t0;
    }
    float long_n = n * (float)(2500.0 / (ms > 1 ? ms : 1)); /* about 2.5 s of GPU time */
    printf("timeout: %.0f iterations took %.0f ms; the long frame runs %.0f\n", n, ms, long_n);
    float v[4] = {long_n, 0, 0, 0};
    HL_CHECK_OK(hl_uniform_buffer_set(loop, "loop", v, 4));
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    double t0 = now_ms();
    hl_result res = hl_renderer_read_pixels(r, px, sizeof px);
    double waited = now_ms() - t0;
    HL_CHECK_MSG(res == HL_ERR_TIMEOUT, "read_pixels during a long frame: %s after %.0f ms (%s)", hl_result_name(res), waited,
                 hl_last_error());
    HL_CHECK_MSG(waited < 2000, "read_pixels waited %.0f ms with a 200 ms timeout", waited);
    /* the GPU finishes: waits succeed again and the frame's pixels are right */
    double start = now_ms();
    while ((res = hl_renderer_wait_idle(r)) == HL_ERR_TIMEOUT && now_ms() - start < 60000) {
    }
    HL_CHECK_OK(res);
    HL_CHECK_OK(hl_renderer_read_pixels(r, px, sizeof px));
    HL_CHECK_PIXEL(px + ((H / 2) * W + W / 2) * 4, srgb_byte(0.6f), srgb_byte(0.8f), 255, 255, 1);
    hl_stage_destroy(s);
    hl_material_release(m);
    hl_geometry_release(quad);
    hl_uniform_buffer_release(tint);
    hl_uniform_buffer_release(loop);
    hl_renderer_destroy(r);
}

/* A macro bomb in a shader material: refused quickly with HL_ERR_SHADER before any compiler
 * (ours, glslang or the GL driver) runs, the same on both backends. */
static void macro_bomb_refused(void) {
    hl_renderer *r = make_renderer(8, 8, 1);
    if (!r) return;
    char fs[2048];
    int n = snprintf(fs, sizeof fs, "#version 300 es\nprecision highp float;\n#define A0 x x x x x x x x\n");
    for (int i = 1; i < 12; i++)
        n += snprintf(fs + n, sizeof fs - (size_t)n, "#define A%d A%d A%d A%d A%d A%d A%d A%d A%d\n", i, i - 1, i - 1, i - 1,
                      i - 1, i - 1, i - 1, i - 1, i - 1);
    snprintf(fs + n, sizeof fs - (size_t)n,
             "in vec4 v_tint; layout(location = 0) out vec4 outColor;\nvoid main() { float x = 1.0; outColor = vec4(A11); }\n");
    HL_CHECK_OK(hl_register_uniform_block_binding("HardeningBlock", NULL));
    hl_uniform_buffer *ub = tint_buffer(1, 1, 1);
    static hl_material_attribute a = {"a_position", HL_ATTR_POSITION};
    hl_material_uniform_block blk = {"HardeningBlock", ub};
    hl_shader_material_desc sd = {0};
    sd.vs = k_vs;
    sd.fs = fs;
    sd.attributes = &a;
    sd.attribute_count = 1;
    sd.uniform_blocks = &blk;
    sd.uniform_block_count = 1;
    hl_material *m = NULL;
    HL_CHECK_OK(hl_material_create_shader(&sd, &m));
    hl_stage *s = NULL;
    HL_CHECK_OK(hl_stage_create(&s));
    hl_camera *cam = front_camera(s);
    hl_geometry *quad = plane(2, 2);
    add_mesh(s, quad, m, (hl_vec3){0, 0, 0});
    double t0 = now_ms();
    HL_CHECK_RESULT(hl_renderer_render(r, s, cam), HL_ERR_SHADER);
    double ms = now_ms() - t0;
    HL_CHECK_MSG(ms < 2000, "the macro bomb took %.0f ms to refuse", ms);
    hl_stage_destroy(s);
    hl_material_release(m);
    hl_geometry_release(quad);
    hl_uniform_buffer_release(ub);
    hl_renderer_destroy(r);
}

/* A frame with a shadow pass and nothing to draw: the output still shows the clear colour
 * (the frame before the light, the first with its shadow pass, and one more), whatever the
 * kind of the light. */
static void shadow_pass_without_draws(void) {
    enum { W = 13, H = 13 };
    static const hl_light_kind kinds[3] = {HL_LIGHT_SPOT, HL_LIGHT_DIRECTIONAL, HL_LIGHT_POINT};
    static uint8_t px[W * H * 4];
    for (int k = 0; k < 3; k++) {
        hl_renderer *r = make_renderer(W, H, 1);
        if (!r) return;
        hl_stage *s = NULL;
        HL_CHECK_OK(hl_stage_create(&s));
        hl_camera *cam = front_camera(s);
        hl_light_desc ld = {0};
        ld.kind = kinds[k];
        ld.cast_shadows = true;
        ld.intensity = 1;
        ld.range = 10;
        ld.color = (hl_color){1, 1, 1, 1};
        hl_light *l = NULL;
        HL_CHECK_OK(hl_light_create(&ld, &l));
        const float clears[3][4] = {{0.6f, 0.4f, 0.6f, 0.5f}, {0.1f, 0.9f, 0.2f, 1.0f}, {0.3f, 0.2f, 0.9f, 1.0f}};
        for (int f = 0; f < 3; f++) {
            if (f == 1) hl_stage_add(s, hl_light_node(l)); /* the first shadow pass of the renderer */
            hl_stage_set_clear_color(s, (hl_color){clears[f][0], clears[f][1], clears[f][2], clears[f][3]});
            HL_CHECK_OK(hl_renderer_render(r, s, cam));
            HL_CHECK_OK(hl_renderer_read_pixels(r, px, sizeof px));
            HL_CHECK_MSG(abs(px[0] - srgb_byte(clears[f][0])) <= 1 && abs(px[1] - srgb_byte(clears[f][1])) <= 1 &&
                             abs(px[2] - srgb_byte(clears[f][2])) <= 1 && abs(px[3] - (int)(clears[f][3] * 255 + 0.5f)) <= 1,
                         "light kind %d frame %d: %d %d %d %d", (int)kinds[k], f, px[0], px[1], px[2], px[3]);
        }
        hl_stage_destroy(s);
        hl_renderer_destroy(r);
    }
}

/* A shader material writing location 0 only, drawn into a 4-attachment target: the other
 * attachments keep their clear value on both backends (GL draw buffers masked like WebGPU's
 * write mask), and a blending material blends every attachment alike. */
static void shader_material_into_mrt(void) {
    enum { W = 8, H = 8 };
    hl_renderer *r = make_renderer(W, H, 1);
    if (!r) return;
    HL_CHECK_OK(hl_register_uniform_block_binding("HardeningBlock", NULL));
    hl_uniform_buffer *ub = tint_buffer(0.6f, 0.8f, 1.0f);
    hl_material *m = tint_material(k_vs, ub);
    hl_render_target_desc td = {0};
    td.color_count = 4;
    td.formats[0] = HL_TARGET_RGBA8;
    td.formats[1] = HL_TARGET_RGBA8;
    td.formats[2] = HL_TARGET_RGBA16F;
    td.formats[3] = HL_TARGET_RGBA8;
    td.clear_color = (hl_color){0.2f, 0.4f, 0.6f, 1.0f};
    hl_render_target *t = NULL;
    HL_CHECK_OK(hl_render_target_create(r, &td, &t));
    hl_stage *s = NULL;
    HL_CHECK_OK(hl_stage_create(&s));
    hl_camera *cam = front_camera(s);
    hl_geometry *quad = plane(2, 2);
    add_mesh(s, quad, m, (hl_vec3){0, 0, 0});
    if (t) {
        HL_CHECK_OK(hl_renderer_render_to_target(r, t, s, cam));
        static uint8_t px[W * H * 8];
        HL_CHECK_OK(hl_render_target_read(r, t, 0, px, sizeof px));
        HL_CHECK_PIXEL(px + ((H / 2) * W + W / 2) * 4, 153, 204, 255, 255, 1); /* the shader's tint (RGBA8 unorm) */
        HL_CHECK_OK(hl_render_target_read(r, t, 1, px, sizeof px));
        HL_CHECK_PIXEL(px + ((H / 2) * W + W / 2) * 4, 51, 102, 153, 255, 1); /* untouched: the clear */
        HL_CHECK_OK(hl_render_target_read(r, t, 3, px, sizeof px));
        HL_CHECK_PIXEL(px + ((H / 2) * W + W / 2) * 4, 51, 102, 153, 255, 1);
        HL_CHECK_OK(hl_render_target_read(r, t, 2, px, sizeof px));
        uint16_t h[4];
        memcpy(h, px + ((H / 2) * W + W / 2) * 8, sizeof h);
        /* 0.2 0.4 0.6 1 as halves, +-1 ulp (the clear value's conversion rounds either way) */
        HL_CHECK_MSG(abs(h[0] - 0x3266) <= 1 && abs(h[1] - 0x3666) <= 1 && abs(h[2] - 0x38cd) <= 1 && h[3] == 0x3c00,
                     "RGBA16F attachment 2: %04x %04x %04x %04x", h[0], h[1], h[2], h[3]);
    }
    /* the same material blending over an opaque quad: attachments 1..3 keep the opaque quad's
       values (its normal, base colour, distance), in a frame after a shadow pass */
    hl_material_state st = {0};
    st.alpha_mode = HL_ALPHA_BLEND;
    HL_CHECK_OK(hl_material_set_state(m, &st));
    hl_material *under = basic(1, 0, 0, 1);
    hl_mesh *u = add_mesh(s, quad, under, (hl_vec3){0, 0, -1});
    hl_light_desc ld = {0};
    ld.kind = HL_LIGHT_DIRECTIONAL;
    ld.cast_shadows = true;
    ld.intensity = 1;
    hl_light *l = NULL;
    HL_CHECK_OK(hl_light_create(&ld, &l));
    hl_stage_add(s, hl_light_node(l));
    hl_mesh_set_shadows(u, true, true);
    static uint8_t ref[3][W * H * 8], got[3][W * H * 8];
    if (t) {
        hl_node_set_visible(hl_mesh_node(u), true);
        for (int pass = 0; pass < 2; pass++) {
            /* pass 0: the opaque quad alone; pass 1: with the blending shader material over it */
            hl_node_set_visible(hl_mesh_node(hl_stage_meshes(s, &(uint32_t){0})[0]), pass == 1);
            HL_CHECK_OK(hl_renderer_render_to_target(r, t, s, cam));
            for (uint32_t a = 1; a < 4; a++)
                HL_CHECK_OK(hl_render_target_read(r, t, a, pass ? got[a - 1] : ref[a - 1], sizeof ref[0]));
        }
        for (uint32_t a = 1; a < 4; a++)
            HL_CHECK_MSG(memcmp(ref[a - 1], got[a - 1], hl_render_target_read_size(t, a)) == 0,
                         "attachment %u changed under a blending shader material that does not write it", a);
    }
    hl_material_release(under);
    hl_stage_destroy(s);
    hl_material_release(m);
    hl_geometry_release(quad);
    hl_uniform_buffer_release(ub);
    hl_renderer_destroy(r);
}

/* Mip chains are made on the CPU (the same texels everywhere): a 1-texel black/white sRGB
 * checker seen from far enough to sample its 2x2 level averages in linear light (0.5 -> sRGB
 * 188), on every backend and driver. */
static void mip_chain_values(void) {
    enum { W = 2, H = 2, T = 8 };
    hl_renderer *r = make_renderer(W, H, 1);
    if (!r) return;
    static uint8_t px[T * T * 4];
    for (int i = 0; i < T * T; i++) {
        uint8_t v = ((i % T) + (i / T)) % 2 ? 255 : 0;
        px[i * 4] = px[i * 4 + 1] = px[i * 4 + 2] = v;
        px[i * 4 + 3] = 255;
    }
    hl_texture_desc td = {0};
    td.width = td.height = T;
    td.pixels = px;
    td.pixels_size = sizeof px;
    hl_texture *tex = NULL;
    HL_CHECK_OK(hl_texture_create(&td, &tex));
    hl_material *m = basic(1, 1, 1, 1);
    HL_CHECK_OK(hl_material_set_texture(m, HL_TEXTURE_BASE_COLOR, tex, 0));
    hl_stage *s = NULL;
    HL_CHECK_OK(hl_stage_create(&s));
    hl_camera *cam = front_camera(s);
    hl_geometry *quad = plane(2, 2);
    add_mesh(s, quad, m, (hl_vec3){0, 0, 0});
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    static uint8_t out[W * H * 4];
    HL_CHECK_OK(hl_renderer_read_pixels(r, out, sizeof out));
    for (int i = 0; i < W * H; i++) HL_CHECK_PIXEL(out + i * 4, 188, 188, 188, 255, 1);
    hl_stage_destroy(s);
    hl_material_release(m);
    hl_texture_release(tex);
    hl_geometry_release(quad);
    hl_renderer_destroy(r);
}

/* Targets destroyed and re-created (often at the same address) with other formats and sample
 * counts: the prepared draws of the old target are never reused for the new one. */
static void target_address_reuse(void) {
    enum { W = 8, H = 8 };
    hl_renderer *r = make_renderer(W, H, 1);
    if (!r) return;
    hl_stage *s = NULL;
    HL_CHECK_OK(hl_stage_create(&s));
    hl_camera *cam = front_camera(s);
    hl_geometry *quad = plane(2, 2);
    hl_material *m = basic(0, 1, 0, 1);
    add_mesh(s, quad, m, (hl_vec3){0, 0, 0});
    static const hl_target_format fmts[3] = {HL_TARGET_RGBA8, HL_TARGET_RGBA16F, HL_TARGET_RGBA8_SRGB};
    static uint8_t px[W * H * 8];
    for (int i = 0; i < 12; i++) {
        hl_render_target_desc td = {0};
        td.formats[0] = fmts[i % 3];
        td.sample_count = (i / 3) % 2 ? 4 : 1;
        hl_render_target *t = NULL;
        HL_CHECK_OK(hl_render_target_create(r, &td, &t));
        if (!t) break;
        hl_result res = hl_renderer_render_to_target(r, t, s, cam);
        HL_CHECK_MSG(res == HL_OK, "target %d (format %d, %u samples): %s %s", i, (int)td.formats[0], td.sample_count,
                     hl_result_name(res), hl_last_error());
        HL_CHECK_OK(hl_render_target_read(r, t, 0, px, sizeof px));
        if (fmts[i % 3] != HL_TARGET_RGBA16F) HL_CHECK_PIXEL(px + ((H / 2) * W + W / 2) * 4, 0, 255, 0, 255, 1);
        HL_CHECK_OK(hl_render_target_destroy(r, t));
    }
    hl_stage_destroy(s);
    hl_material_release(m);
    hl_geometry_release(quad);
    hl_renderer_destroy(r);
}

int main(int argc, char **argv) {
    backend_of(argc, argv);
    static const uint32_t sizes[][2] = {{64, 64}, {256, 256}, {48, 96}, {96, 48}, {1, 1}};
    for (uint32_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        culled_caster_shares_material(false, sizes[i][0], sizes[i][1]);
        culled_caster_shares_material(true, sizes[i][0], sizes[i][1]);
    }
    demo_sizes();
    shader_material_keys();
    shader_material_churn();
    mesh_address_reuse();
    target_ownership();
    target_samples_itself();
    render_order();
    views_in_one_frame();
    shadow_pass_without_draws();
    shader_material_into_mrt();
    mip_chain_values();
    target_address_reuse();
    macro_bomb_refused();
    long_shader_times_out();
    return hl_test_finish();
}
