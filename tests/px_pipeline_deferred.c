/* The deferred pipeline of src/demo/hl_deferred.h (public SRP calls only), on one backend per
 * run, against the Forward pipeline with the same post (ACES tone mapping, no bloom).
 *
 * Scene: seen from above (orthographic), a grey ground receiving shadows, a red box casting a
 * shadow from a directional light, a metallic sphere with emission, an unlit (basic) box, a
 * point light with a range over the ground, ambient light; sizes 96x64 and 61x97 (portrait,
 * odd), 1x and a 4x output.
 * - Deferred vs Forward, opaque scene: mean <= 0.5/255 and p99 <= 2/255 per channel (the
 *   G-buffer is RGBA16F: world positions and normals in half floats); again with the default
 *   environment (image-based lighting in the lighting pass) and exposure 0.8, 1x.
 * - Known points (deferred): a point in the box's shadow is darker than a lit ground point by
 *   >= 40 in every channel (12 with the environment); the ground under the point light is
 *   brighter than 1.5 units away, which is brighter than 3 units away (falloff: by > 15 in
 *   summed channels, 8 with the environment), each within +-3 of Forward.
 * - Transparent blend: a blue transparent pane drawn by the forward pass over the lit colour:
 *   the pixel under it within +-3 of Forward's, and >= 20 away from the image without it.
 * - webgpu only: the same frames on gles3, mean <= 1/255 and p99 <= 4/255.
 * - 64 point lights (the renderer's maximum per view): deferred equals Forward, the last one lights.
 * - Steady frames make no heap allocation and no RHI object; errors: a G-buffer culling with
 *   another layout (HL_ERR_VALIDATION), a lit fullscreen pass whose culling has no shadows
 *   recorded (HL_ERR_INVALID_STATE), materials out of range. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hilo3d/pipeline.h"
#include "hl_base.h"
#include "hl_deferred.h"
#include "hl_test.h"
#include "render_internal.h"

typedef struct scene {
    hl_stage *s;
    hl_camera *cam;
    hl_geometry *plane, *box, *sphere, *pane_geo;
    hl_material *ground_mat, *red, *metal, *unlit, *glass;
    hl_mesh *pane;
} scene;

static hl_mesh *add_mesh(scene *sc, hl_geometry *g, hl_material *m, hl_vec3 at, bool cast, bool receive) {
    hl_mesh_desc md = {0};
    md.geometry = g;
    md.material = m;
    md.cast_shadows = cast;
    md.receive_shadows = receive;
    hl_mesh *mesh = NULL;
    HL_CHECK_OK(hl_mesh_create(&md, &mesh));
    if (!mesh) return NULL;
    hl_node_set_translation(hl_mesh_node(mesh), at);
    HL_CHECK_OK(hl_stage_add(sc->s, hl_mesh_node(mesh)));
    return mesh;
}

static void scene_create(scene *sc, float aspect) {
    memset(sc, 0, sizeof *sc);
    HL_CHECK_OK(hl_stage_create(&sc->s));
    hl_stage_set_clear_color(sc->s, (hl_color){0.05f, 0.07f, 0.1f, 1});
    hl_plane_desc pl = {14, 14, 1, 1};
    HL_CHECK_OK(hl_geometry_create_plane(&pl, &sc->plane));
    HL_CHECK_OK(hl_geometry_create_box(NULL, &sc->box));
    hl_sphere_desc sd = {0.8f, 32, 16};
    HL_CHECK_OK(hl_geometry_create_sphere(&sd, &sc->sphere));
    hl_plane_desc pp = {3, 3, 1, 1};
    HL_CHECK_OK(hl_geometry_create_plane(&pp, &sc->pane_geo));
    hl_pbr_material_desc pd = {0};
    pd.base_color = (hl_color){0.8f, 0.8f, 0.8f, 1};
    pd.roughness = 0.9f;
    HL_CHECK_OK(hl_material_create_pbr(&pd, &sc->ground_mat));
    pd.base_color = (hl_color){0.9f, 0.2f, 0.2f, 1};
    pd.roughness = 0.5f;
    HL_CHECK_OK(hl_material_create_pbr(&pd, &sc->red));
    pd.base_color = (hl_color){0.9f, 0.7f, 0.3f, 1};
    pd.metallic = 1.0f;
    pd.roughness = 0.3f;
    pd.emissive = (hl_vec3){0.05f, 0.02f, 0.0f};
    HL_CHECK_OK(hl_material_create_pbr(&pd, &sc->metal));
    hl_basic_material_desc bd = {0};
    bd.color = (hl_color){0.2f, 0.6f, 0.3f, 1};
    HL_CHECK_OK(hl_material_create_basic(&bd, &sc->unlit));
    pd = (hl_pbr_material_desc){0};
    pd.base_color = (hl_color){0.1f, 0.3f, 1.0f, 0.5f};
    pd.roughness = 0.6f;
    pd.state.alpha_mode = HL_ALPHA_BLEND;
    pd.state.double_sided = true;
    HL_CHECK_OK(hl_material_create_pbr(&pd, &sc->glass));

    hl_mesh *ground = add_mesh(sc, sc->plane, sc->ground_mat, (hl_vec3){0, 0, 0}, false, true);
    if (ground) hl_node_set_rotation(hl_mesh_node(ground), hl_quat_from_axis_angle((hl_vec3){1, 0, 0}, -1.5707963f));
    add_mesh(sc, sc->box, sc->red, (hl_vec3){-2, 2, 0}, true, false);
    add_mesh(sc, sc->sphere, sc->metal, (hl_vec3){1, 0.8f, -3}, true, true);
    add_mesh(sc, sc->box, sc->unlit, (hl_vec3){-4, 0.5f, -4}, false, false);
    sc->pane = add_mesh(sc, sc->pane_geo, sc->glass, (hl_vec3){4, 2.5f, -3}, false, false);
    if (sc->pane) {
        hl_node_set_rotation(hl_mesh_node(sc->pane), hl_quat_from_axis_angle((hl_vec3){1, 0, 0}, -1.5707963f));
        hl_node_set_visible(hl_mesh_node(sc->pane), false);
    }

    hl_light_desc ld = {0};
    ld.kind = HL_LIGHT_AMBIENT;
    ld.intensity = 0.15f;
    hl_light *l = NULL;
    HL_CHECK_OK(hl_light_create(&ld, &l));
    if (l) HL_CHECK_OK(hl_stage_add(sc->s, hl_light_node(l)));
    ld = (hl_light_desc){0};
    ld.kind = HL_LIGHT_DIRECTIONAL;
    ld.intensity = 1.5f;
    ld.cast_shadows = true;
    HL_CHECK_OK(hl_light_create(&ld, &l));
    if (l) {
        hl_node_set_translation(hl_light_node(l), (hl_vec3){-6, 6, 0});
        hl_node_look_at(hl_light_node(l), (hl_vec3){0, 0, 0}, (hl_vec3){0, 1, 0});
        HL_CHECK_OK(hl_stage_add(sc->s, hl_light_node(l)));
    }
    ld = (hl_light_desc){0};
    ld.kind = HL_LIGHT_POINT;
    ld.intensity = 4.0f;
    ld.range = 6.0f;
    ld.color = (hl_color){1.0f, 0.9f, 0.7f, 1};
    HL_CHECK_OK(hl_light_create(&ld, &l));
    if (l) {
        hl_node_set_translation(hl_light_node(l), (hl_vec3){3, 1.2f, 3});
        HL_CHECK_OK(hl_stage_add(sc->s, hl_light_node(l)));
    }
    hl_camera_desc cd = {0};
    cd.projection = HL_PROJECTION_ORTHOGRAPHIC;
    float half = 6.5f;
    cd.left = -half * (aspect > 1 ? aspect : 1), cd.right = -cd.left;
    cd.bottom = -half / (aspect < 1 ? aspect : 1), cd.top = -cd.bottom;
    cd.near_plane = 0.1f, cd.far_plane = 30.0f;
    HL_CHECK_OK(hl_camera_create(&cd, &sc->cam));
    if (sc->cam) {
        hl_node_set_translation(hl_camera_node(sc->cam), (hl_vec3){0, 15, 0});
        hl_node_look_at(hl_camera_node(sc->cam), (hl_vec3){0, 0, 0}, (hl_vec3){0, 0, -1});
        HL_CHECK_OK(hl_stage_add(sc->s, hl_camera_node(sc->cam)));
    }
}

static void scene_destroy(scene *sc) {
    hl_geometry *g[] = {sc->plane, sc->box, sc->sphere, sc->pane_geo};
    for (size_t i = 0; i < 4; i++) hl_geometry_release(g[i]);
    hl_material *m[] = {sc->ground_mat, sc->red, sc->metal, sc->unlit, sc->glass};
    for (size_t i = 0; i < 5; i++) hl_material_release(m[i]);
    hl_stage_destroy(sc->s);
}

static hl_renderer *make(hl_backend be, uint32_t w, uint32_t h, uint32_t samples, const hl_pipeline_factory *f) {
    hl_renderer_desc rd = {0};
    rd.backend = be;
    rd.width = w;
    rd.height = h;
    rd.sample_count = samples;
    rd.shadow_atlas_size = 1024;
    rd.pipeline = f;
    hl_renderer *r = NULL;
    HL_CHECK_OK(hl_renderer_create(&rd, &r));
    return r;
}

/* Renders `frames` frames and reads the last into img. */
static bool render(hl_renderer *r, scene *sc, uint32_t frames, uint8_t *img, size_t size) {
    hl_result res = HL_OK;
    for (uint32_t f = 0; f < frames && !res; f++) res = hl_renderer_render(r, sc->s, sc->cam);
    HL_CHECK_OK(res);
    if (!res) res = hl_renderer_read_pixels(r, img, size);
    HL_CHECK_OK(res);
    return res == HL_OK;
}

typedef struct diff {
    double mean;
    int p99, max, x, y;
} diff;

static diff compare(const uint8_t *a, const uint8_t *b, uint32_t w, uint32_t h) {
    uint32_t hist[256] = {0};
    diff d = {0};
    uint64_t sum = 0;
    for (uint32_t i = 0; i < w * h; i++)
        for (int c = 0; c < 3; c++) {
            int v = abs(a[i * 4 + c] - b[i * 4 + c]);
            hist[v]++;
            sum += (uint64_t)v;
            if (v > d.max) d.max = v, d.x = (int)(i % w), d.y = (int)(i / w);
        }
    uint64_t n = (uint64_t)w * h * 3, acc = 0;
    d.mean = (double)sum / (double)n;
    for (int v = 0; v < 256; v++) {
        acc += hist[v];
        if (acc * 100 >= n * 99) {
            d.p99 = v;
            break;
        }
    }
    return d;
}

static const uint8_t *px_at(const uint8_t *img, uint32_t w, uint32_t h, hl_camera *c, hl_vec3 p) {
    hl_vec3 n = hl_camera_project(c, p);
    int x = (int)floorf((n.x * 0.5f + 0.5f) * (float)w), y = (int)floorf((0.5f - n.y * 0.5f) * (float)h);
    x = x < 0 ? 0 : x >= (int)w ? (int)w - 1 : x;
    y = y < 0 ? 0 : y >= (int)h ? (int)h - 1 : y;
    return img + ((size_t)y * w + (size_t)x) * 4;
}

static int luma(const uint8_t *p) { return p[0] + p[1] + p[2]; }

static hl_pipeline_factory *g_forward, *g_deferred;

/* env: the scene also lit by the default studio environment (IBL in the lighting pass), at
 * exposure 0.8 */
static void test_case(hl_backend be, uint32_t w, uint32_t h, uint32_t samples, bool env) {
    scene sc;
    scene_create(&sc, (float)w / (float)h);
    if (env) {
        hl_environment *e = NULL;
        HL_CHECK_OK(hl_environment_create_default(&e));
        hl_environment_set_intensity(e, 0.5f);
        hl_stage_set_environment(sc.s, e);
        hl_environment_release(e);
        hl_stage_set_exposure(sc.s, 0.8f);
    }
    size_t size = (size_t)w * h * 4;
    uint8_t *fwd = malloc(size), *def = malloc(size), *fwd_t = malloc(size), *def_t = malloc(size);
    hl_renderer *rf = make(be, w, h, samples, g_forward), *rdef = make(be, w, h, samples, g_deferred);
    if (!fwd || !def || !fwd_t || !def_t || !rf || !rdef || !sc.cam) goto done;
    HL_CHECK(strcmp(hl_renderer_pipeline_name(rdef), "deferred") == 0);
    if (!render(rf, &sc, 2, fwd, size) || !render(rdef, &sc, 2, def, size)) goto done;
    diff d = compare(def, fwd, w, h);
    printf("%s %ux%u %ux%s: deferred vs forward mean %.3f/255 p99 %d max %d at (%d, %d)\n", hl_backend_name(be), w, h,
           samples, env ? " (environment)" : "", d.mean, d.p99, d.max, d.x, d.y);
    /* a 4x output: Forward antialiases edges, the deferred G-buffer is single-sample, so the
       deferred image equals the deferred 1x one instead */
    if (samples == 1) {
        HL_CHECK_MSG(d.mean <= 0.5 && d.p99 <= 2, "%s %ux%u: deferred vs forward mean %.3f (<= 0.5) p99 %d (<= 2)",
                     hl_backend_name(be), w, h, d.mean, d.p99);
    } else {
        hl_renderer *r1 = make(be, w, h, 1, g_deferred);
        uint8_t *one = malloc(size);
        if (r1 && one && render(r1, &sc, 2, one, size)) {
            diff d1 = compare(def, one, w, h);
            HL_CHECK_MSG(d1.max <= 1, "deferred %ux vs 1x: max %d (<= 1)", samples, d1.max);
        }
        free(one);
        hl_renderer_destroy(r1);
    }
    /* known points */
    const uint8_t *shadowed = px_at(def, w, h, sc.cam, (hl_vec3){-0.6f, 0, 0});
    const uint8_t *lit = px_at(def, w, h, sc.cam, (hl_vec3){-1.0f, 0, 4});
    /* the environment lights the shadow too (and ACES compresses the brighter image): smaller
       margins, measured 21 and 15 */
    int margin = env ? 12 : 40, step = env ? 8 : 15;
    for (int c = 0; c < 3; c++)
        HL_CHECK_MSG(lit[c] - shadowed[c] >= margin, "channel %d: lit %u vs shadowed %u (margin %d)", c, lit[c], shadowed[c],
                     margin);
    const hl_vec3 falloff[3] = {{3, 0, 3}, {4.5f, 0, 3}, {6, 0, 3}};
    int prev = 1 << 30;
    for (int i = 0; i < 3; i++) {
        const uint8_t *p = px_at(def, w, h, sc.cam, falloff[i]), *q = px_at(fwd, w, h, sc.cam, falloff[i]);
        HL_CHECK_MSG(luma(p) < prev - step, "falloff point %d: %d after %d", i, luma(p), prev);
        prev = luma(p);
        for (int c = 0; c < 3; c++) HL_CHECK_MSG(abs(p[c] - q[c]) <= 3, "falloff point %d channel %d: %u vs forward %u", i, c, p[c], q[c]);
    }
    /* a transparent pane over the lit ground */
    hl_node_set_visible(hl_mesh_node(sc.pane), true);
    if (!render(rf, &sc, 2, fwd_t, size) || !render(rdef, &sc, 2, def_t, size)) goto done;
    const hl_vec3 under = {4, 0, -3};
    const uint8_t *pt = px_at(def_t, w, h, sc.cam, under), *pf = px_at(fwd_t, w, h, sc.cam, under),
                  *p0 = px_at(def, w, h, sc.cam, under);
    for (int c = 0; c < 3; c++) HL_CHECK_MSG(abs(pt[c] - pf[c]) <= 3, "pane channel %d: %u vs forward %u", c, pt[c], pf[c]);
    HL_CHECK_MSG(abs(pt[2] - p0[2]) + abs(pt[0] - p0[0]) >= 20, "the pane changes the pixel: %u,%u,%u vs %u,%u,%u", pt[0],
                 pt[1], pt[2], p0[0], p0[1], p0[2]);
    d = compare(def_t, fwd_t, w, h);
    HL_CHECK_MSG(samples > 1 || (d.mean <= 0.5 && d.p99 <= 2), "with the pane: deferred vs forward mean %.3f p99 %d",
                 d.mean, d.p99);
    char path[96];
    snprintf(path, sizeof path, "px_pipeline_deferred_%ux%u_%s.png", w, h, hl_backend_name(be));
    hl_test_write_png(path, w, h, def_t);

    /* webgpu vs gles3 */
    if (be == HL_BACKEND_WEBGPU) {
        hl_renderer *rg = make(HL_BACKEND_GLES3, w, h, samples, g_deferred);
        uint8_t *g = malloc(size);
        if (rg && g && render(rg, &sc, 2, g, size)) {
            d = compare(def_t, g, w, h);
            printf("  deferred webgpu vs gles3: mean %.3f/255 p99 %d max %d\n", d.mean, d.p99, d.max);
            HL_CHECK_MSG(d.mean <= 1.0 && d.p99 <= 4, "deferred webgpu vs gles3 %ux%u: mean %.3f (<= 1) p99 %d (<= 4)", w, h,
                         d.mean, d.p99);
        }
        free(g);
        hl_renderer_destroy(rg);
    }

    /* steady frames, the GPU keeping up (a wait after each: with frames in flight the graph's
       pool hands the G-buffer textures out in changing combinations, and each new combination
       makes a bind group; a known limit of the pool, bench/README.md) */
    for (int f = 0; f < 3; f++) {
        HL_CHECK_OK(hl_renderer_render(rdef, sc.s, sc.cam));
        HL_CHECK_OK(hl_renderer_wait_idle(rdef));
    }
    uint64_t a0 = hl_alloc_count(), o0 = hl_rhi_device_stats(rdef->dev)->objects_created;
    for (int f = 0; f < 3; f++) {
        HL_CHECK_OK(hl_renderer_render(rdef, sc.s, sc.cam));
        HL_CHECK_OK(hl_renderer_wait_idle(rdef));
    }
    uint64_t a1 = hl_alloc_count(), o1 = hl_rhi_device_stats(rdef->dev)->objects_created;
    HL_CHECK_MSG(a1 == a0 && o1 == o0, "steady deferred frames: %llu allocations, %llu objects created",
                 (unsigned long long)(a1 - a0), (unsigned long long)(o1 - o0));
done:
    hl_renderer_destroy(rf);
    hl_renderer_destroy(rdef);
    free(fwd), free(def), free(fwd_t), free(def_t);
    scene_destroy(&sc);
}

/* 64 point lights (the renderer's maximum per view) in an 8 x 8 grid over a grey ground, each
 * with a small range and a colour of its own: deferred equals Forward (mean <= 0.5/255, p99
 * <= 2/255) and the ground under the last light (index 63, in the far corner) is lit by it:
 * brighter than the ground between lights by >= 30 in its dominant channel. */
static void test_many_lights(hl_backend be) {
    const uint32_t w = 96, h = 96;
    scene sc;
    memset(&sc, 0, sizeof sc);
    HL_CHECK_OK(hl_stage_create(&sc.s));
    if (!sc.s) return;
    hl_stage_set_clear_color(sc.s, (hl_color){0, 0, 0, 1});
    hl_plane_desc pl = {16, 16, 1, 1};
    HL_CHECK_OK(hl_geometry_create_plane(&pl, &sc.plane));
    hl_pbr_material_desc pd = {0};
    pd.base_color = (hl_color){0.8f, 0.8f, 0.8f, 1};
    pd.roughness = 1.0f;
    HL_CHECK_OK(hl_material_create_pbr(&pd, &sc.ground_mat));
    hl_mesh *ground = add_mesh(&sc, sc.plane, sc.ground_mat, (hl_vec3){0, 0, 0}, false, false);
    if (ground) hl_node_set_rotation(hl_mesh_node(ground), hl_quat_from_axis_angle((hl_vec3){1, 0, 0}, -1.5707963f));
    for (int i = 0; i < 64; i++) {
        hl_light_desc ld = {0};
        ld.kind = HL_LIGHT_POINT;
        ld.intensity = 1.5f;
        ld.range = 1.6f;
        ld.color = (hl_color){(i & 1) ? 1.0f : 0.3f, (i & 2) ? 1.0f : 0.3f, (i & 4) ? 1.0f : 0.3f, 1};
        hl_light *l = NULL;
        HL_CHECK_OK(hl_light_create(&ld, &l));
        if (!l) continue;
        hl_node_set_translation(hl_light_node(l), (hl_vec3){-7 + 2.0f * (float)(i % 8), 0.5f, -7 + 2.0f * (float)(i / 8)});
        HL_CHECK_OK(hl_stage_add(sc.s, hl_light_node(l)));
    }
    hl_camera_desc cd = {0};
    cd.projection = HL_PROJECTION_ORTHOGRAPHIC;
    cd.left = -8, cd.right = 8, cd.bottom = -8, cd.top = 8;
    cd.near_plane = 0.1f, cd.far_plane = 30.0f;
    HL_CHECK_OK(hl_camera_create(&cd, &sc.cam));
    if (sc.cam) {
        hl_node_set_translation(hl_camera_node(sc.cam), (hl_vec3){0, 15, 0});
        hl_node_look_at(hl_camera_node(sc.cam), (hl_vec3){0, 0, 0}, (hl_vec3){0, 0, -1});
        HL_CHECK_OK(hl_stage_add(sc.s, hl_camera_node(sc.cam)));
    }
    size_t size = (size_t)w * h * 4;
    uint8_t *fwd = malloc(size), *def = malloc(size);
    hl_renderer *rf = make(be, w, h, 1, g_forward), *rdef = make(be, w, h, 1, g_deferred);
    if (fwd && def && rf && rdef && sc.cam && render(rf, &sc, 1, fwd, size) && render(rdef, &sc, 1, def, size)) {
        HL_CHECK_EQ(hl_renderer_stats(rdef)->lights, 64);
        diff d = compare(def, fwd, w, h);
        printf("%s 64 point lights: deferred vs forward mean %.3f/255 p99 %d max %d\n", hl_backend_name(be), d.mean, d.p99,
               d.max);
        HL_CHECK_MSG(d.mean <= 0.5 && d.p99 <= 2, "64 lights: deferred vs forward mean %.3f p99 %d", d.mean, d.p99);
        const uint8_t *under = px_at(def, w, h, sc.cam, (hl_vec3){7, 0, 7}), *between = px_at(def, w, h, sc.cam, (hl_vec3){6, 0, 6});
        /* light 63: colour (1, 1, 1) */
        HL_CHECK_MSG(under[0] - between[0] >= 30, "under light 63: %u vs between lights %u", under[0], between[0]);
        hl_test_write_png(be == HL_BACKEND_WEBGPU ? "px_pipeline_deferred_lights_webgpu.png" : "px_pipeline_deferred_lights_gles3.png",
                          w, h, def);
    }
    hl_renderer_destroy(rf);
    hl_renderer_destroy(rdef);
    free(fwd), free(def);
    scene_destroy(&sc);
}

/* ---- errors ---------------------------------------------------------------------------------------------- */
static hl_result g_errors[4];

static hl_result errors_record(hl_pipeline_context ctx, void *state) {
    (void)state;
    hl_pipeline_cull_desc gc = {.color_count = 2, .color_formats = {HL_PIPELINE_FORMAT_RGBA16F, HL_PIPELINE_FORMAT_RGBA16F},
                                .gbuffer = true};
    hl_pipeline_culling c;
    g_errors[0] = hl_pipeline_cull(ctx, &gc, &c);
    hl_pipeline_culling out;
    hl_result res = hl_pipeline_cull(ctx, NULL, &out);
    hl_pipeline_texture t, o;
    hl_pipeline_texture_desc td = {HL_PIPELINE_FORMAT_RGBA16F, 0, 0, 0, 0, "t", 1, 0};
    if (!res) res = hl_pipeline_create_texture(ctx, &td, &t);
    if (!res) res = hl_pipeline_output_texture(ctx, 0, &o);
    hl_pipeline_fullscreen_pass_desc fp = {.name = "unlit lighting",
                                           .fragment = "#version 300 es\nprecision highp float;\nout vec4 o;\n"
                                                       "void main() { o = vec4(hl_fog(vec3(1.0), vec3(0.0)), 1.0); }\n",
                                           .output_count = 1,
                                           .outputs = {t},
                                           .lighting = out};
    g_errors[1] = hl_pipeline_add_fullscreen_pass(ctx, &fp);
    hl_pipeline_renderer_list_desc ld = {out, HL_PIPELINE_QUEUE_OPAQUE, HL_PIPELINE_SORT_NONE, false, NULL,
                                         (hl_pipeline_materials)7, 0};
    hl_pipeline_renderer_list l;
    g_errors[2] = hl_pipeline_create_renderer_list(ctx, &ld, &l);
    /* and the lit pass once the shadows are recorded: fine */
    if (!res) res = hl_pipeline_record_shadows(ctx, out);
    if (!res) res = hl_pipeline_add_fullscreen_pass(ctx, &fp);
    g_errors[3] = res;
    if (!res) res = hl_pipeline_add_copy_pass(ctx, "clear", t, t); /* refused: one texture */
    return HL_OK;
}

static hl_result errors_create(const hl_pipeline_caps *caps, void *user, hl_pipeline_runtime **out) {
    (void)caps, (void)user;
    hl_pipeline_runtime_desc d = {"errors", NULL, errors_record, NULL};
    return hl_pipeline_runtime_create(&d, out);
}

static void test_errors(hl_backend be) {
    static const hl_pipeline_factory f = {"errors", NULL, errors_create, NULL};
    scene sc;
    scene_create(&sc, 1.0f);
    hl_renderer *r = make(be, 32, 32, 1, &f);
    if (r && sc.cam) {
        HL_CHECK_OK(hl_renderer_render(r, sc.s, sc.cam));
        HL_CHECK_EQ(g_errors[0], HL_ERR_VALIDATION);
        HL_CHECK_EQ(g_errors[1], HL_ERR_INVALID_STATE);
        HL_CHECK_EQ(g_errors[2], HL_ERR_VALIDATION);
        HL_CHECK_EQ(g_errors[3], HL_OK);
    }
    hl_renderer_destroy(r);
    scene_destroy(&sc);
}

int main(int argc, char **argv) {
    hl_backend be = hl_test_backend_arg(argc, argv, HL_RHI_BACKEND_WEBGPU) == HL_RHI_BACKEND_GLES3 ? HL_BACKEND_GLES3
                                                                                                : HL_BACKEND_WEBGPU;
    hl_forward_feature_desc tone;
    hl_forward_tone_map(NULL, &tone);
    hl_forward_pipeline_desc fd = {&tone, 1};
    HL_CHECK_OK(hl_forward_pipeline_factory_create(&fd, &g_forward));
    HL_CHECK_OK(hl_deferred_pipeline_factory_create(NULL, &g_deferred));
    if (g_forward && g_deferred) {
        test_case(be, 96, 64, 1, false);
        test_case(be, 61, 97, 1, false);
        test_case(be, 96, 64, 4, false);
        test_case(be, 96, 64, 1, true);
        test_case(be, 61, 97, 1, true);
        test_many_lights(be);
        test_errors(be);
    }
    hl_forward_pipeline_factory_destroy(g_forward);
    hl_deferred_pipeline_factory_destroy(g_deferred);
    return hl_test_finish();
}
