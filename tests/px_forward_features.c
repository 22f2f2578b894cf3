/* The Forward pipeline with features, on one backend per run.
 *
 * - No-op features at every injection point (sampling nothing): the image equals the direct
 *   recorder's byte for byte, with the same pass count (no pass, no texture added); they run
 *   in injection order, then insertion order, all with the same culling result; each renderer
 *   gets its own feature state, destroyed in reverse creation order.
 * - A feature that samples scene colour and does nothing: the scene goes through the RGBA16F
 *   intermediate (4x when the output is) and one copy pass; the image equals the direct one
 *   within +-1 at 1x (+-2 at 4x: sRGB vs linear resolve), and an MRT target's other
 *   attachments equal the direct ones.
 * - Tone mapping (known values, +-2 of 255): an HDR clear colour (3.0, 1.5, 0.25) through ACES
 *   fitted and PBR Neutral at exposures 1 and 0.5, computed here on the CPU.
 * - Bloom: a bright unlit box on black glows around its edges (pixels outside it > 0, far
 *   corners 0), not at all below the threshold; disabling it removes its passes.
 * - FXAA: a rotated white box on black at 1x: more edge pixels take intermediate values with
 *   FXAA than without, flat areas keep their values (+-1).
 * - Errors: sampled depth (HL_ERR_UNSUPPORTED at factory creation), duplicate names, a failing
 *   feature create (renderer creation fails, states made so far destroyed), an unknown feature
 *   name for hl_forward_set_feature_enabled. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hilo3d/pipeline.h"
#include "hl_base.h"
#include "hl_scene_demo.h"
#include "hl_test.h"

static char g_log[512];
static void logf_(const char *s) { strncat(g_log, s, sizeof g_log - strlen(g_log) - 1); }

typedef struct noop {
    char tag[4];
    hl_pipeline_culling seen;
} noop;

static hl_pipeline_culling g_first_culling;
static bool g_culling_same = true;

static hl_result noop_record(hl_pipeline_context ctx, hl_forward_frame *frame, void *state) {
    (void)ctx;
    noop *n = state;
    logf_(n->tag);
    if (!g_first_culling.token) g_first_culling = frame->culling;
    g_culling_same &= frame->culling.token == g_first_culling.token && frame->culling.index == g_first_culling.index;
    return HL_OK;
}

static hl_result noop_create(const void *user, void **state) {
    noop *n = (noop *)user;
    char s[8];
    snprintf(s, sizeof s, "+%s", n->tag);
    logf_(s);
    *state = n;
    return HL_OK;
}

static void noop_destroy(void *state) {
    char s[8];
    snprintf(s, sizeof s, "-%s", ((noop *)state)->tag);
    logf_(s);
}

static hl_result fail_create(const void *user, void **state) {
    (void)user, (void)state;
    return hl__fail(HL_ERR_IO, "the feature's file is missing");
}

static hl_result passthrough_record(hl_pipeline_context ctx, hl_forward_frame *frame, void *state) {
    (void)ctx, (void)frame, (void)state;
    return HL_OK;
}

static hl_renderer *make(hl_backend be, uint32_t w, uint32_t h, uint32_t samples, const hl_pipeline_factory *f) {
    hl_renderer_desc rd = {0};
    rd.backend = be;
    rd.width = w;
    rd.height = h;
    rd.sample_count = samples;
    rd.pipeline = f;
    hl_renderer *r = NULL;
    HL_CHECK_OK(hl_renderer_create(&rd, &r));
    return r;
}

static int max_diff(const uint8_t *a, const uint8_t *b, size_t n) {
    int m = 0;
    for (size_t i = 0; i < n; i++)
        if (i % 4 != 3 && abs(a[i] - b[i]) > m) m = abs(a[i] - b[i]);
    return m;
}

static void test_noop_and_order(hl_backend be) {
    /* insertion order deliberately not injection order */
    static const hl_forward_injection at[] = {HL_FORWARD_BEFORE_OUTPUT,   HL_FORWARD_AFTER_OPAQUE,
                                              HL_FORWARD_BEFORE_SHADOW,   HL_FORWARD_POST,
                                              HL_FORWARD_AFTER_TRANSPARENT, HL_FORWARD_AFTER_OPAQUE};
    noop users[6] = {{"F", {0, 0}}, {"C", {0, 0}}, {"A", {0, 0}}, {"E", {0, 0}}, {"D", {0, 0}}, {"c", {0, 0}}};
    hl_forward_feature_desc fd[6];
    memset(fd, 0, sizeof fd);
    for (int i = 0; i < 6; i++) {
        char *name = users[i].tag;
        fd[i].name = name;
        fd[i].injection = at[i];
        fd[i].user = &users[i];
        fd[i].user_size = sizeof users[i];
        fd[i].create = noop_create;
        fd[i].record = noop_record;
        fd[i].destroy = noop_destroy;
    }
    hl_forward_pipeline_desc pd = {fd, 6};
    hl_pipeline_factory *f = NULL;
    HL_CHECK_OK(hl_forward_pipeline_factory_create(&pd, &f));
    if (!f) return;
    hl_scene_demo demo;
    HL_CHECK_OK(hl_scene_demo_create(1.5f, &demo));
    g_log[0] = 0;
    hl_renderer *direct = make(be, 60, 40, 4, NULL), *r = make(be, 60, 40, 4, f);
    hl_forward_pipeline_factory_destroy(f); /* the renderer keeps copies */
    HL_CHECK_MSG(strcmp(g_log, "+F+C+A+E+D+c") == 0, "creation order: %s", g_log);
    if (!direct || !r || !demo.stage) return;
    uint8_t a[60 * 40 * 4], b[60 * 40 * 4];
    for (int frame = 0; frame < 2; frame++) {
        g_log[0] = 0;
        g_first_culling = (hl_pipeline_culling){0, 0};
        g_culling_same = true;
        HL_CHECK_OK(hl_renderer_render(direct, demo.stage, demo.camera));
        HL_CHECK_OK(hl_renderer_render(r, demo.stage, demo.camera));
        HL_CHECK_MSG(strcmp(g_log, "ACcDEF") == 0, "record order: %s (want ACcDEF)", g_log);
        HL_CHECK(g_culling_same);
        HL_CHECK_OK(hl_renderer_read_pixels(direct, a, sizeof a));
        HL_CHECK_OK(hl_renderer_read_pixels(r, b, sizeof b));
        HL_CHECK_MSG(memcmp(a, b, sizeof a) == 0, "no-op features: image differs from the direct one (max %d)",
                     max_diff(a, b, sizeof a));
        /* no pass added: the last scene pass resolves the 4x output, as the direct recorder's does */
        HL_CHECK_EQ(hl_renderer_stats(r)->passes, hl_renderer_stats(direct)->passes);
        HL_CHECK_EQ(hl_renderer_stats(r)->draws, hl_renderer_stats(direct)->draws);
    }
    /* switching one off: it no longer runs */
    HL_CHECK_OK(hl_forward_set_feature_enabled(r, "D", false));
    g_log[0] = 0;
    HL_CHECK_OK(hl_renderer_render(r, demo.stage, demo.camera));
    HL_CHECK_MSG(strcmp(g_log, "ACcEF") == 0, "record order with D off: %s", g_log);
    HL_CHECK_RESULT(hl_forward_set_feature_enabled(r, "nope", true), HL_ERR_VALIDATION);
    HL_CHECK_RESULT(hl_forward_set_feature_enabled(direct, "D", true), HL_ERR_VALIDATION);
    g_log[0] = 0;
    hl_renderer_destroy(r);
    HL_CHECK_MSG(strcmp(g_log, "-c-D-E-A-C-F") == 0, "destroy order: %s", g_log);
    hl_renderer_destroy(direct);
    hl_scene_demo_destroy(&demo);
}

static void test_intermediate(hl_backend be) {
    hl_forward_feature_desc fd = {0};
    fd.name = "samples colour";
    fd.injection = HL_FORWARD_POST;
    fd.samples_scene_color = true;
    fd.record = passthrough_record;
    hl_forward_pipeline_desc pd = {&fd, 1};
    hl_pipeline_factory *f = NULL;
    HL_CHECK_OK(hl_forward_pipeline_factory_create(&pd, &f));
    hl_scene_demo demo;
    HL_CHECK_OK(hl_scene_demo_create(1.5f, &demo));
    /* without the environment: its reflections of the studio's bright box exceed 1.0, and at
       4x the intermediate resolves those HDR samples unclamped while the direct path averages
       clamped ones (a real difference of HDR rendering, up to 6 of 255 at such edges, not
       what this compares) */
    hl_stage_set_environment(demo.stage, NULL);
    for (uint32_t samples = 1; samples <= 4; samples += 3) {
        hl_renderer *direct = make(be, 60, 40, samples, NULL), *r = make(be, 60, 40, samples, f);
        if (!direct || !r || !demo.stage) return;
        uint8_t a[60 * 40 * 4], b[60 * 40 * 4];
        HL_CHECK_OK(hl_renderer_render(direct, demo.stage, demo.camera));
        HL_CHECK_OK(hl_renderer_render(r, demo.stage, demo.camera));
        HL_CHECK_OK(hl_renderer_read_pixels(direct, a, sizeof a));
        HL_CHECK_OK(hl_renderer_read_pixels(r, b, sizeof b));
        /* +-1 at 1x; +-2 at 4x: the direct path resolves the sRGB samples, the intermediate
           linear ones, and the two averages round differently at edges */
        int tol = samples > 1 ? 2 : 1;
        HL_CHECK_MSG(max_diff(a, b, sizeof a) <= tol, "%ux through the RGBA16F intermediate: max difference %d (<= %d)",
                     samples, max_diff(a, b, sizeof a), tol);
        /* the direct passes + the copy to the output (MSAA: resolved by the last scene pass) */
        HL_CHECK_EQ(hl_renderer_stats(r)->passes, hl_renderer_stats(direct)->passes + 1);
        /* an MRT target: attachment 0 through the intermediate (+-1), the others drawn into
           textures of their formats (resolved into the target's at 4x): equal to the direct ones */
        hl_render_target_desc td = {0};
        td.width = 30;
        td.height = 20;
        td.color_count = 4;
        td.formats[1] = HL_TARGET_RGBA16F;
        td.formats[2] = HL_TARGET_RGBA8;
        td.sample_count = samples;
        hl_render_target *ta = NULL, *tb = NULL;
        HL_CHECK_OK(hl_render_target_create(direct, &td, &ta));
        HL_CHECK_OK(hl_render_target_create(r, &td, &tb));
        HL_CHECK_OK(hl_renderer_render_to_target(direct, ta, demo.stage, demo.camera));
        HL_CHECK_OK(hl_renderer_render_to_target(r, tb, demo.stage, demo.camera));
        for (uint32_t i = 0; ta && tb && i < 4; i++) {
            size_t n = hl_render_target_read_size(ta, i);
            uint8_t *x = malloc(n), *y = malloc(n);
            HL_CHECK_OK(hl_render_target_read(direct, ta, i, x, n));
            HL_CHECK_OK(hl_render_target_read(r, tb, i, y, n));
            if (i == 0) {
                HL_CHECK_MSG(max_diff(x, y, n) <= (samples > 1 ? 2 : 1), "%ux MRT attachment 0: max difference %d",
                             samples, max_diff(x, y, n));
            } else {
                HL_CHECK_MSG(memcmp(x, y, n) == 0, "%ux MRT attachment %u differs from the direct one", samples, i);
            }
            free(x);
            free(y);
        }
        /* disabled: no intermediate, no copy: the direct image exactly */
        HL_CHECK_OK(hl_forward_set_feature_enabled(r, "samples colour", false));
        HL_CHECK_OK(hl_renderer_render(r, demo.stage, demo.camera));
        HL_CHECK_OK(hl_renderer_read_pixels(r, b, sizeof b));
        HL_CHECK(memcmp(a, b, sizeof a) == 0);
        HL_CHECK_EQ(hl_renderer_stats(r)->passes, hl_renderer_stats(direct)->passes);
        hl_renderer_destroy(r);
        hl_renderer_destroy(direct);
    }
    hl_forward_pipeline_factory_destroy(f);
    hl_scene_demo_destroy(&demo);
}

/* ---- tone mapping ---- */
static double aces(double x) {
    double v = x * (2.51 * x + 0.03) / (x * (2.43 * x + 0.59) + 0.14);
    return v < 0 ? 0 : v > 1 ? 1 : v;
}
static void neutral(double c[3]) {
    const double start = 0.8 - 0.04, desat = 0.15;
    double x = fmin(c[0], fmin(c[1], c[2]));
    double offset = x < 0.08 ? x - 6.25 * x * x : 0.04;
    for (int i = 0; i < 3; i++) c[i] -= offset;
    double peak = fmax(c[0], fmax(c[1], c[2]));
    if (peak < start) return;
    double d = 1.0 - start, np = 1.0 - d * d / (peak + d - start);
    double g = 1.0 - 1.0 / (desat * (peak - np) + 1.0);
    for (int i = 0; i < 3; i++) c[i] = c[i] * np / peak * (1 - g) + np * g;
}
static int to_srgb8(double c) {
    c = c < 0 ? 0 : c > 1 ? 1 : c;
    double s = c <= 0.0031308 ? c * 12.92 : 1.055 * pow(c, 1.0 / 2.4) - 0.055;
    return (int)lround(s * 255.0);
}

static void test_tone_map(hl_backend be) {
    hl_stage *s = NULL;
    hl_camera *cam = NULL;
    HL_CHECK_OK(hl_stage_create(&s));
    const double hdr[3] = {3.0, 1.5, 0.25};
    hl_stage_set_clear_color(s, (hl_color){3.0f, 1.5f, 0.25f, 1});
    hl_camera_desc cd = {0};
    HL_CHECK_OK(hl_camera_create(&cd, &cam));
    HL_CHECK_OK(hl_stage_add(s, hl_camera_node(cam)));
    for (int op = 0; op < 2; op++)
        for (int e = 0; e < 2; e++) {
            hl_tone_map_desc td = {op ? HL_TONE_MAP_NEUTRAL : HL_TONE_MAP_ACES, e ? 0.5f : 1.0f};
            hl_forward_feature_desc fd;
            hl_forward_tone_map(&td, &fd);
            hl_forward_pipeline_desc pd = {&fd, 1};
            hl_pipeline_factory *f = NULL;
            HL_CHECK_OK(hl_forward_pipeline_factory_create(&pd, &f));
            hl_renderer *r = make(be, 8, 8, 1, f);
            hl_forward_pipeline_factory_destroy(f);
            if (!r) continue;
            uint8_t px[8 * 8 * 4];
            HL_CHECK_OK(hl_renderer_render(r, s, cam));
            HL_CHECK_OK(hl_renderer_read_pixels(r, px, sizeof px));
            double c[3];
            for (int i = 0; i < 3; i++) c[i] = hdr[i] * td.exposure;
            if (op) neutral(c);
            else
                for (int i = 0; i < 3; i++) c[i] = aces(c[i]);
            HL_CHECK_PIXEL(&px[(4 * 8 + 4) * 4], to_srgb8(c[0]), to_srgb8(c[1]), to_srgb8(c[2]), 255, 2);
            hl_renderer_destroy(r);
        }
    hl_stage_destroy(s);
}

/* ---- bloom and FXAA: a box on black ---- */
static hl_result box_scene(float brightness, float angle_deg, hl_stage **out_s, hl_camera **out_cam) {
    hl_stage *s = NULL;
    hl_result res = hl_stage_create(&s);
    if (res) return res;
    hl_stage_set_clear_color(s, (hl_color){0, 0, 0, 1});
    hl_box_desc bd = {1, 1, 1};
    hl_geometry *g = NULL;
    res = hl_geometry_create_box(&bd, &g);
    hl_basic_material_desc md = {0};
    md.color = (hl_color){brightness, brightness, brightness, 1};
    hl_material *m = NULL;
    if (!res) res = hl_material_create_basic(&md, &m);
    hl_mesh_desc mesh = {0};
    mesh.geometry = g;
    mesh.material = m;
    hl_mesh *me = NULL;
    if (!res) res = hl_mesh_create(&mesh, &me);
    hl_material_release(m);
    hl_geometry_release(g);
    if (!res) {
        float a = angle_deg * 3.14159265f / 180.0f;
        hl_node_set_rotation(hl_mesh_node(me), (hl_quat){0, 0, sinf(a / 2), cosf(a / 2)});
        res = hl_stage_add(s, hl_mesh_node(me));
    }
    hl_camera_desc cd = {0};
    cd.fov_y_deg = 60;
    cd.aspect = 1;
    hl_camera *cam = NULL;
    if (!res) res = hl_camera_create(&cd, &cam);
    if (!res) {
        hl_node_set_translation(hl_camera_node(cam), (hl_vec3){0, 0, 4});
        res = hl_stage_add(s, hl_camera_node(cam));
    }
    if (res) {
        hl_stage_destroy(s);
        return res;
    }
    *out_s = s;
    *out_cam = cam;
    return HL_OK;
}

static void test_bloom(hl_backend be) {
    hl_stage *s = NULL;
    hl_camera *cam = NULL;
    HL_CHECK_OK(box_scene(8.0f, 0.0f, &s, &cam));
    if (!s) return;
    hl_bloom_desc bd = {1.0f, 0.5f, 2}; /* 2 levels: the glow stays within ~8 pixels of a 64x64 image */
    hl_forward_feature_desc fd;
    hl_forward_bloom(&bd, &fd);
    hl_forward_pipeline_desc pd = {&fd, 1};
    hl_pipeline_factory *f = NULL;
    HL_CHECK_OK(hl_forward_pipeline_factory_create(&pd, &f));
    hl_renderer *r = make(be, 64, 64, 1, f);
    hl_forward_pipeline_factory_destroy(f);
    if (!r) return;
    uint8_t px[64 * 64 * 4];
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_OK(hl_renderer_read_pixels(r, px, sizeof px));
    uint32_t passes_on = hl_renderer_stats(r)->passes;
    /* the box spans x ~ 25..39 at y = 32 (1 unit at distance 3.5..4.5, fov 60): 4 pixels left of it glow */
    int glow = px[(32 * 64 + 19) * 4], corner = px[(2 * 64 + 2) * 4], centre = px[(32 * 64 + 32) * 4];
    HL_CHECK_MSG(glow >= 20, "bloom: glow beside the box %d (>= 20)", glow);
    HL_CHECK_MSG(corner <= 2, "bloom: far corner %d (<= 2)", corner);
    HL_CHECK_EQ(centre, 255);
    /* symmetric: left and right of the box alike (+-2) */
    HL_CHECK_MSG(abs(px[(32 * 64 + 19) * 4] - px[(32 * 64 + 44) * 4]) <= 2, "bloom: left %d right %d",
                 px[(32 * 64 + 19) * 4], px[(32 * 64 + 44) * 4]);
    HL_CHECK_MSG(abs(px[(19 * 64 + 32) * 4] - px[(44 * 64 + 32) * 4]) <= 2, "bloom: top %d bottom %d",
                 px[(19 * 64 + 32) * 4], px[(44 * 64 + 32) * 4]);
    HL_CHECK_OK(hl_forward_set_feature_enabled(r, "bloom", false));
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_OK(hl_renderer_read_pixels(r, px, sizeof px));
    HL_CHECK_EQ(px[(32 * 64 + 19) * 4], 0);
    /* on: opaque, prefilter, down, up, composite, copy out; off: opaque only */
    HL_CHECK_MSG(hl_renderer_stats(r)->passes == 1 && passes_on == 6, "bloom off: %u passes, on: %u", hl_renderer_stats(r)->passes,
                 passes_on);
    hl_renderer_destroy(r);
    hl_stage_destroy(s);
    /* below the threshold: nothing blooms */
    HL_CHECK_OK(box_scene(0.9f, 0.0f, &s, &cam));
    HL_CHECK_OK(hl_forward_pipeline_factory_create(&pd, &f));
    r = make(be, 64, 64, 1, f);
    hl_forward_pipeline_factory_destroy(f);
    if (!r) return;
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_OK(hl_renderer_read_pixels(r, px, sizeof px));
    HL_CHECK_EQ(px[(32 * 64 + 19) * 4], 0);
    hl_renderer_destroy(r);
    hl_stage_destroy(s);
}

static void test_fxaa(hl_backend be) {
    hl_stage *s = NULL;
    hl_camera *cam = NULL;
    HL_CHECK_OK(box_scene(1.0f, 30.0f, &s, &cam));
    if (!s) return;
    hl_forward_feature_desc fd;
    hl_forward_fxaa(&fd);
    hl_forward_pipeline_desc pd = {&fd, 1};
    hl_pipeline_factory *f = NULL;
    HL_CHECK_OK(hl_forward_pipeline_factory_create(&pd, &f));
    hl_renderer *r = make(be, 64, 64, 1, f), *direct = make(be, 64, 64, 1, NULL);
    hl_forward_pipeline_factory_destroy(f);
    if (!r || !direct) return;
    uint8_t a[64 * 64 * 4], b[64 * 64 * 4];
    HL_CHECK_OK(hl_renderer_render(direct, s, cam));
    HL_CHECK_OK(hl_renderer_render(r, s, cam));
    HL_CHECK_OK(hl_renderer_read_pixels(direct, a, sizeof a));
    HL_CHECK_OK(hl_renderer_read_pixels(r, b, sizeof b));
    int mid_a = 0, mid_b = 0, flat_changed = 0;
    for (int i = 0; i < 64 * 64; i++) {
        mid_a += a[i * 4] > 8 && a[i * 4] < 247;
        mid_b += b[i * 4] > 8 && b[i * 4] < 247;
        /* far from the box: unchanged */
        int x = i % 64, y = i / 64;
        if ((x < 12 || x > 52 || y < 12 || y > 52) && abs(a[i * 4] - b[i * 4]) > 1) flat_changed++;
    }
    HL_CHECK_MSG(mid_a == 0, "without FXAA the 1x edge has no intermediate pixels (%d)", mid_a);
    HL_CHECK_MSG(mid_b >= 40, "FXAA: %d edge pixels with intermediate values (>= 40)", mid_b);
    HL_CHECK_EQ(flat_changed, 0);
    HL_CHECK_EQ(b[(32 * 64 + 32) * 4], 255);
    hl_renderer_destroy(r);
    hl_renderer_destroy(direct);
    hl_stage_destroy(s);
}

static void test_errors(hl_backend be) {
    hl_forward_feature_desc fd[2];
    memset(fd, 0, sizeof fd);
    fd[0].name = "depth reader";
    fd[0].injection = HL_FORWARD_POST;
    fd[0].samples_depth = true;
    fd[0].record = passthrough_record;
    hl_forward_pipeline_desc pd = {fd, 1};
    hl_pipeline_factory *f = NULL;
    HL_CHECK_RESULT(hl_forward_pipeline_factory_create(&pd, &f), HL_ERR_UNSUPPORTED);
    HL_CHECK(strstr(hl_last_error(), "samples scene depth") != NULL && f == NULL);
    fd[0].samples_depth = false;
    fd[1] = fd[0];
    pd.feature_count = 2;
    HL_CHECK_RESULT(hl_forward_pipeline_factory_create(&pd, &f), HL_ERR_VALIDATION);
    fd[0].injection = HL_FORWARD_INJECTION_COUNT;
    pd.feature_count = 1;
    HL_CHECK_RESULT(hl_forward_pipeline_factory_create(&pd, &f), HL_ERR_VALIDATION);
    /* a failing feature create: the renderer is not made; states made before it are destroyed */
    noop first = {"X", {0, 0}};
    memset(fd, 0, sizeof fd);
    fd[0].name = "ok";
    fd[0].injection = HL_FORWARD_POST;
    fd[0].user = &first;
    fd[0].user_size = sizeof first;
    fd[0].create = noop_create;
    fd[0].record = noop_record;
    fd[0].destroy = noop_destroy;
    fd[1] = fd[0];
    fd[1].name = "fails";
    fd[1].create = fail_create;
    pd.feature_count = 2;
    HL_CHECK_OK(hl_forward_pipeline_factory_create(&pd, &f));
    g_log[0] = 0;
    hl_renderer_desc rd = {0};
    rd.backend = be;
    rd.width = rd.height = 8;
    rd.pipeline = f;
    hl_renderer *r = NULL;
    HL_CHECK_RESULT(hl_renderer_create(&rd, &r), HL_ERR_IO);
    HL_CHECK_MSG(strstr(hl_last_error(), "forward feature 'fails': create failed") != NULL, "%s", hl_last_error());
    HL_CHECK_MSG(strcmp(g_log, "+X-X") == 0, "states: %s", g_log);
    HL_CHECK(r == NULL);
    hl_forward_pipeline_factory_destroy(f);
    /* bad shipped parameters fail at renderer creation with the feature named */
    hl_bloom_desc bad = {-1.0f, 0.5f, 9};
    hl_forward_bloom(&bad, &fd[0]);
    pd.feature_count = 1;
    HL_CHECK_OK(hl_forward_pipeline_factory_create(&pd, &f));
    rd.pipeline = f;
    HL_CHECK_RESULT(hl_renderer_create(&rd, &r), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "bloom") != NULL);
    hl_forward_pipeline_factory_destroy(f);
    /* no features: the direct recorder */
    pd.feature_count = 0;
    HL_CHECK_OK(hl_forward_pipeline_factory_create(&pd, &f));
    rd.pipeline = f;
    HL_CHECK_OK(hl_renderer_create(&rd, &r));
    HL_CHECK(r && strcmp(hl_renderer_pipeline_name(r), "forward") == 0);
    hl_renderer_destroy(r);
    hl_forward_pipeline_factory_destroy(f);
}

int main(int argc, char **argv) {
    hl_backend be = hl_test_backend_arg(argc, argv, HL_RHI_BACKEND_WEBGPU) == HL_RHI_BACKEND_GLES3 ? HL_BACKEND_GLES3
                                                                                                : HL_BACKEND_WEBGPU;
    test_noop_and_order(be);
    test_intermediate(be);
    test_tone_map(be);
    test_bloom(be);
    test_fxaa(be);
    test_errors(be);
    return hl_test_finish();
}
