/* The render pipeline host's contract (include/hilo3d/pipeline.h), on one backend per run:
 * requirements (capabilities, limits, texture formats) refuse an explicit backend with
 * HL_ERR_UNSUPPORTED naming the requirement, and AUTO picks the backend that meets them;
 * bad requirements are HL_ERR_VALIDATION; a failing factory returns its own error and leaves
 * nothing allocated; a runtime serves one renderer and is destroyed exactly once; record runs
 * once per invocation (render, render_to_target, each call inside render_frame) with a context
 * that describes the output and is HL_ERR_INVALID_STATE once its call returned; render,
 * resize, destroy and target calls made from inside record are refused without harm; a failing
 * record fails the frame (no after-render event) and the next frame works. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hilo3d/pipeline.h"
#include "hl_test.h"

/* live heap blocks of the engine (the allocator hook, set before any object exists) */
static long g_live;
static void *count_alloc(size_t size, void *user) {
    (void)user;
    void *p = malloc(size);
    if (p) g_live++;
    return p;
}
static void *count_realloc(void *ptr, size_t size, void *user) {
    if (!ptr) return count_alloc(size, user);
    return realloc(ptr, size);
}
static void count_free(void *ptr, void *user) {
    (void)user;
    if (ptr) g_live--;
    free(ptr);
}

typedef struct probe {
    int creates, records, destroys;
    hl_pipeline_context kept;
    hl_pipeline_output out[8];
    uint64_t frame_index[8];
    uint32_t invocation[8];
    hl_result fail_record; /* returned by the next record */
    hl_renderer *r;        /* for the calls made from inside record */
    hl_render_target *t;
    hl_stage *stage;
    hl_camera *camera;
    bool misbehave;
    hl_result nested[6];
    hl_pipeline_runtime *shared; /* returned by every create when set */
    hl_result create_error;
    bool msaa16f_attachment, msaa16f_sampled; /* answers of the snapshot given to create */
} probe;

static hl_result probe_record(hl_pipeline_context ctx, void *state) {
    probe *p = state;
    uint32_t i = (uint32_t)p->records++ % 8;
    HL_CHECK_OK(hl_pipeline_context_output(ctx, &p->out[i]));
    HL_CHECK_OK(hl_pipeline_context_frame_index(ctx, &p->frame_index[i]));
    HL_CHECK_OK(hl_pipeline_context_invocation(ctx, &p->invocation[i]));
    const hl_pipeline_caps *caps = NULL;
    HL_CHECK_OK(hl_pipeline_context_caps(ctx, &caps));
    HL_CHECK(caps != NULL && hl_pipeline_caps_limits(caps)->max_color_attachments >= 4);
    HL_CHECK_RESULT(hl_pipeline_context_output(ctx, NULL), HL_ERR_VALIDATION);
    hl_stage *st = NULL;
    hl_camera *cam = NULL;
    HL_CHECK_OK(hl_pipeline_context_scene(ctx, &st, &cam));
    HL_CHECK(st == p->stage && cam == p->camera);
    p->kept = ctx;
    if (p->misbehave) {
        p->nested[0] = hl_renderer_render(p->r, p->stage, p->camera);
        p->nested[1] = hl_renderer_resize(p->r, 32, 32);
        p->nested[2] = hl_render_target_destroy(p->r, p->t);
        p->nested[3] = hl_render_target_resize(p->r, p->t, 8, 8);
        uint8_t px[4];
        p->nested[4] = hl_render_target_read(p->r, p->t, 0, px, sizeof px);
        hl_renderer_destroy(p->r); /* ignored, with a message */
        p->nested[5] = hl_last_error_code();
    }
    hl_result f = p->fail_record;
    p->fail_record = HL_OK;
    return f;
}

static void probe_destroy(void *state) { ((probe *)state)->destroys++; }

static hl_result probe_create(const hl_pipeline_caps *caps, void *user, hl_pipeline_runtime **out) {
    probe *p = user;
    p->creates++;
    HL_CHECK(caps != NULL);
    p->msaa16f_attachment =
        hl_pipeline_caps_supports_texture_format(caps, HL_PIPELINE_FORMAT_RGBA16F, HL_PIPELINE_USE_COLOR_ATTACHMENT, 4);
    p->msaa16f_sampled = hl_pipeline_caps_supports_texture_format(caps, HL_PIPELINE_FORMAT_RGBA16F, HL_PIPELINE_USE_SAMPLED, 4);
    if (p->create_error) return p->create_error;
    if (p->shared) {
        *out = p->shared;
        return HL_OK;
    }
    hl_pipeline_runtime_desc d = {"probe", p, probe_record, probe_destroy};
    return hl_pipeline_runtime_create(&d, out);
}

static int after_events;
static void on_after(hl_renderer *r, uint64_t frame_index, void *user) {
    (void)r, (void)frame_index, (void)user;
    after_events++;
}

static hl_result two_views(hl_render_frame *f, void *user) {
    probe *p = user;
    hl_result res = hl_render_frame_render_to_target(f, p->t, p->stage, p->camera);
    if (!res) res = hl_render_frame_render(f, p->stage, p->camera);
    return res;
}

static hl_result make_scene(hl_stage **stage, hl_camera **camera) {
    hl_result res = hl_stage_create(stage);
    hl_camera_desc cd = {0};
    if (!res) res = hl_camera_create(&cd, camera);
    if (!res) res = hl_stage_add(*stage, hl_camera_node(*camera));
    return res;
}

static void test_requirements(hl_backend be) {
    probe p = {0};
    hl_pipeline_factory f = {"needs", NULL, probe_create, &p};
    hl_renderer_desc rd = {0};
    rd.backend = be;
    rd.width = rd.height = 16;
    rd.pipeline = &f;
    hl_renderer *r = NULL;
    /* compute: webgpu has it, gles3 refuses it naming the pipeline and the capability */
    hl_pipeline_requirements req = {0};
    req.capabilities = HL_PIPELINE_CAP_COMPUTE;
    f.requirements = &req;
    hl_result res = hl_renderer_create(&rd, &r);
    if (be == HL_BACKEND_GLES3) {
        HL_CHECK_RESULT(res, HL_ERR_UNSUPPORTED);
        HL_CHECK_MSG(strstr(hl_last_error(), "'needs' requires compute") != NULL, "%s", hl_last_error());
        HL_CHECK(r == NULL && p.creates == 0);
    } else {
        HL_CHECK_OK(res);
        HL_CHECK_EQ(p.creates, 1);
        hl_renderer_destroy(r);
        HL_CHECK_EQ(p.destroys, 1);
    }
    r = NULL;
    /* AUTO with compute required: webgpu (the only backend with it). The AUTO cases run in
       the webgpu run only: a Dawn device made after EGL's in one process leaves driver
       allocations LeakSanitizer cannot attribute (as in test_backend_select) */
    bool auto_cases = be == HL_BACKEND_WEBGPU;
    rd.backend = HL_BACKEND_AUTO;
    res = auto_cases ? hl_renderer_create(&rd, &r) : HL_ERR_UNSUPPORTED;
    if (!res) {
        HL_CHECK_EQ(hl_renderer_backend(r), HL_BACKEND_WEBGPU);
        hl_renderer_destroy(r);
        r = NULL;
    }
    rd.backend = be;
    /* a limit no device has */
    req = (hl_pipeline_requirements){0};
    req.limits.max_texture_dimension_2d = 1u << 30;
    p = (probe){0};
    HL_CHECK_RESULT(hl_renderer_create(&rd, &r), HL_ERR_UNSUPPORTED);
    HL_CHECK_MSG(strstr(hl_last_error(), "max_texture_dimension_2d >= 1073741824") != NULL, "%s", hl_last_error());
    HL_CHECK_EQ(p.creates, 0);
    /* AUTO: both backends refused, both reasons named */
    rd.backend = HL_BACKEND_AUTO;
    if (auto_cases) {
        HL_CHECK_RESULT(hl_renderer_create(&rd, &r), HL_ERR_UNSUPPORTED);
        HL_CHECK_MSG(strstr(hl_last_error(), "no backend meets the requirements") != NULL &&
                         strstr(hl_last_error(), "the webgpu device") != NULL &&
                         strstr(hl_last_error(), "the gles3 device") != NULL,
                     "%s", hl_last_error());
    }
    rd.backend = be;
    /* texture formats: what the snapshot says decides; 4x MSAA sampling is never offered */
    hl_pipeline_texture_requirement tex[3] = {{HL_PIPELINE_FORMAT_RGBA16F, HL_PIPELINE_USE_COLOR_ATTACHMENT, 4},
                                              {HL_PIPELINE_FORMAT_RGBA8, HL_PIPELINE_USE_SAMPLED, 0},
                                              {HL_PIPELINE_FORMAT_RGBA16F, HL_PIPELINE_USE_COLOR_ATTACHMENT, 4}};
    req = (hl_pipeline_requirements){0};
    req.textures = tex;
    req.texture_count = 3;
    HL_CHECK_OK(hl_renderer_create(&rd, &r));
    HL_CHECK(p.msaa16f_attachment && !p.msaa16f_sampled);
    hl_renderer_destroy(r);
    r = NULL;
    tex[1] = (hl_pipeline_texture_requirement){HL_PIPELINE_FORMAT_RGBA8, HL_PIPELINE_USE_SAMPLED, 4};
    HL_CHECK_RESULT(hl_renderer_create(&rd, &r), HL_ERR_UNSUPPORTED);
    HL_CHECK_MSG(strstr(hl_last_error(), "requires texture format rgba8 as sampled with 4 samples") != NULL, "%s",
                 hl_last_error());
    tex[1] = (hl_pipeline_texture_requirement){HL_PIPELINE_FORMAT_DEPTH32F, HL_PIPELINE_USE_COLOR_ATTACHMENT, 1};
    HL_CHECK_RESULT(hl_renderer_create(&rd, &r), HL_ERR_UNSUPPORTED);
    HL_CHECK_MSG(strstr(hl_last_error(), "depth32f as color-attachment") != NULL, "%s", hl_last_error());
    /* malformed requirements: HL_ERR_VALIDATION before any device */
    tex[1] = (hl_pipeline_texture_requirement){HL_PIPELINE_FORMAT_COUNT, HL_PIPELINE_USE_SAMPLED, 1};
    HL_CHECK_RESULT(hl_renderer_create(&rd, &r), HL_ERR_VALIDATION);
    tex[1] = (hl_pipeline_texture_requirement){HL_PIPELINE_FORMAT_RGBA8, HL_PIPELINE_USE_SAMPLED, 2};
    HL_CHECK_RESULT(hl_renderer_create(&rd, &r), HL_ERR_VALIDATION);
    req = (hl_pipeline_requirements){0};
    req.capabilities = 1u << 20;
    HL_CHECK_RESULT(hl_renderer_create(&rd, &r), HL_ERR_VALIDATION);
    HL_CHECK_MSG(strstr(hl_last_error(), "unknown capability bits") != NULL, "%s", hl_last_error());
    req = (hl_pipeline_requirements){0};
    req.texture_count = 2;
    HL_CHECK_RESULT(hl_renderer_create(&rd, &r), HL_ERR_VALIDATION);
    /* 100 requirements, all the same: one after merging */
    hl_pipeline_texture_requirement many[100];
    for (int i = 0; i < 100; i++) many[i] = (hl_pipeline_texture_requirement){HL_PIPELINE_FORMAT_RGBA8, HL_PIPELINE_USE_SAMPLED, i & 1};
    req.textures = many;
    req.texture_count = 100;
    HL_CHECK_OK(hl_renderer_create(&rd, &r));
    hl_renderer_destroy(r);
    HL_CHECK(p.creates > 0 && p.creates == p.destroys);
    /* the capability queries answer out-of-range arguments with false */
    HL_CHECK(!hl_pipeline_caps_supports_texture_format(NULL, HL_PIPELINE_FORMAT_RGBA8, HL_PIPELINE_USE_SAMPLED, 1));
    HL_CHECK(!hl_pipeline_caps_has(NULL, HL_PIPELINE_CAP_COMPUTE));
    HL_CHECK_EQ(hl_pipeline_caps_limits(NULL)->max_texture_dimension_2d, 0);
    HL_CHECK(strcmp(hl_pipeline_format_name(HL_PIPELINE_FORMAT_COUNT), "?") == 0);
}

static void test_factory_and_runtime(hl_backend be) {
    probe p = {0};
    hl_pipeline_factory f = {"probe-factory", NULL, probe_create, &p};
    hl_renderer_desc rd = {0};
    rd.backend = be;
    rd.width = rd.height = 16;
    rd.pipeline = &f;
    hl_renderer *r = NULL;
    /* a failing factory: its own code, the pipeline named, nothing left behind */
    long live0 = g_live;
    p.create_error = HL_ERR_IO;
    HL_CHECK_RESULT(hl_renderer_create(&rd, &r), HL_ERR_IO);
    HL_CHECK_MSG(strstr(hl_last_error(), "pipeline 'probe-factory': create failed") != NULL, "%s", hl_last_error());
    HL_CHECK(r == NULL && p.creates == 1 && p.destroys == 0);
    HL_CHECK_MSG(g_live == live0, "%ld engine heap blocks left by the failed create", g_live - live0);
    p.create_error = HL_OK;
    /* no create function; create returning no runtime */
    hl_pipeline_factory none = {"none", NULL, NULL, NULL};
    rd.pipeline = &none;
    HL_CHECK_RESULT(hl_renderer_create(&rd, &r), HL_ERR_VALIDATION);
    rd.pipeline = &f;
    /* one runtime per renderer: the second renderer offered the same runtime is refused */
    hl_pipeline_runtime_desc d = {"shared", &p, probe_record, probe_destroy};
    HL_CHECK_OK(hl_pipeline_runtime_create(&d, &p.shared));
    HL_CHECK_OK(hl_renderer_create(&rd, &r));
    HL_CHECK(strcmp(hl_renderer_pipeline_name(r), "shared") == 0);
    HL_CHECK_RESULT(hl_pipeline_runtime_destroy(p.shared), HL_ERR_INVALID_STATE);
    hl_renderer *r2 = NULL;
    HL_CHECK_RESULT(hl_renderer_create(&rd, &r2), HL_ERR_INVALID_STATE);
    HL_CHECK_MSG(strstr(hl_last_error(), "already belongs to another renderer") != NULL, "%s", hl_last_error());
    HL_CHECK(r2 == NULL && p.destroys == 0);
    hl_renderer_destroy(r);
    HL_CHECK_EQ(p.destroys, 1); /* exactly once, by its renderer */
    p.shared = NULL;
    /* a runtime no renderer took: hl_pipeline_runtime_destroy runs its destroy once */
    hl_pipeline_runtime *lone = NULL;
    HL_CHECK_OK(hl_pipeline_runtime_create(&d, &lone));
    HL_CHECK_OK(hl_pipeline_runtime_destroy(lone));
    HL_CHECK_EQ(p.destroys, 2);
    HL_CHECK_OK(hl_pipeline_runtime_destroy(NULL));
    /* the default */
    rd.pipeline = NULL;
    HL_CHECK_OK(hl_renderer_create(&rd, &r));
    HL_CHECK(strcmp(hl_renderer_pipeline_name(r), "forward") == 0);
    hl_renderer_destroy(r);
    HL_CHECK(hl_forward_pipeline_factory() == hl_forward_pipeline_factory());
}

static void test_record(hl_backend be) {
    probe p = {0};
    hl_pipeline_factory f = {"probe", NULL, probe_create, &p};
    hl_renderer_desc rd = {0};
    rd.backend = be;
    rd.width = 48;
    rd.height = 20;
    rd.sample_count = 1;
    rd.pipeline = &f;
    rd.after_render = on_after;
    hl_renderer *r = NULL;
    HL_CHECK_OK(hl_renderer_create(&rd, &r));
    if (!r) return;
    p.r = r;
    HL_CHECK_OK(make_scene(&p.stage, &p.camera));
    hl_render_target_desc td = {0};
    td.width = 24;
    td.height = 12;
    td.color_count = 2;
    td.formats[1] = HL_TARGET_RGBA16F;
    td.sample_count = 4;
    HL_CHECK_OK(hl_render_target_create(r, &td, &p.t));
    /* one record per render call, with the output it renders into */
    after_events = 0;
    HL_CHECK_OK(hl_renderer_render(r, p.stage, p.camera));
    HL_CHECK_EQ(p.records, 1);
    HL_CHECK(p.out[0].kind == HL_PIPELINE_OUTPUT_RENDERER && p.out[0].width == 48 && p.out[0].height == 20);
    HL_CHECK(p.out[0].sample_count == 1 && p.out[0].color_count == 1 && p.out[0].has_depth);
    HL_CHECK(p.out[0].color_formats[0] == HL_PIPELINE_FORMAT_RGBA8_SRGB);
    HL_CHECK_EQ(p.frame_index[0], 1);
    HL_CHECK_EQ(p.invocation[0], 0);
    HL_CHECK_EQ(after_events, 1);
    /* the kept context is dead */
    uint64_t fi = 0;
    HL_CHECK_RESULT(hl_pipeline_context_frame_index(p.kept, &fi), HL_ERR_INVALID_STATE);
    hl_pipeline_output o;
    HL_CHECK_RESULT(hl_pipeline_context_output(p.kept, &o), HL_ERR_INVALID_STATE);
    HL_CHECK_RESULT(hl_pipeline_context_output((hl_pipeline_context){0}, &o), HL_ERR_INVALID_STATE);
    HL_CHECK_MSG(strstr(hl_last_error(), "only inside its record call") != NULL, "%s", hl_last_error());
    HL_CHECK_OK(hl_renderer_render_to_target(r, p.t, p.stage, p.camera));
    HL_CHECK_EQ(p.records, 2);
    HL_CHECK(p.out[1].kind == HL_PIPELINE_OUTPUT_RENDER_TARGET && p.out[1].width == 24 && p.out[1].height == 12);
    HL_CHECK(p.out[1].sample_count == 4 && p.out[1].color_count == 2);
    HL_CHECK(p.out[1].color_formats[1] == HL_PIPELINE_FORMAT_RGBA16F);
    HL_CHECK_EQ(p.frame_index[1], 2);
    /* render_frame: one record per render call, invocations 0 and 1 of one frame */
    HL_CHECK_OK(hl_renderer_render_frame(r, two_views, &p));
    HL_CHECK_EQ(p.records, 4);
    HL_CHECK(p.frame_index[2] == 3 && p.frame_index[3] == 3);
    HL_CHECK(p.invocation[2] == 0 && p.invocation[3] == 1);
    HL_CHECK(p.out[2].kind == HL_PIPELINE_OUTPUT_RENDER_TARGET && p.out[3].kind == HL_PIPELINE_OUTPUT_RENDERER);
    HL_CHECK_EQ(after_events, 3);
    /* calls that would poison the frame, made from inside record: refused, nothing broken */
    p.misbehave = true;
    HL_CHECK_OK(hl_renderer_render(r, p.stage, p.camera));
    p.misbehave = false;
    for (int i = 0; i < 6; i++) HL_CHECK_MSG(p.nested[i] == HL_ERR_INVALID_STATE, "nested call %d: %s", i, hl_result_name(p.nested[i]));
    uint32_t w = 0, h = 0;
    hl_renderer_size(r, &w, &h);
    HL_CHECK(w == 48 && h == 20);
    HL_CHECK_EQ(hl_render_target_read_size(p.t, 0), (size_t)24 * 12 * 4);
    /* a failing record fails the frame: no after-render event; the next frame works */
    int events = after_events;
    p.fail_record = HL_ERR_VALIDATION;
    HL_CHECK_RESULT(hl_renderer_render(r, p.stage, p.camera), HL_ERR_VALIDATION);
    HL_CHECK_MSG(strstr(hl_last_error(), "pipeline 'probe': record (invocation 0) failed") != NULL, "%s", hl_last_error());
    HL_CHECK_EQ(after_events, events);
    p.fail_record = HL_ERR_VALIDATION;
    HL_CHECK_RESULT(hl_renderer_render_frame(r, two_views, &p), HL_ERR_VALIDATION);
    HL_CHECK_EQ(after_events, events);
    uint64_t frames = hl_renderer_stats(r)->frame_index;
    HL_CHECK_OK(hl_renderer_render(r, p.stage, p.camera));
    HL_CHECK_EQ(hl_renderer_stats(r)->frame_index, frames + 1);
    HL_CHECK_EQ(after_events, events + 1);
    HL_CHECK_EQ(p.destroys, 0);
    hl_renderer_destroy(r);
    HL_CHECK_EQ(p.destroys, 1);
    HL_CHECK_EQ(p.creates, 1);
    hl_stage_destroy(p.stage);
}

int main(int argc, char **argv) {
    hl_backend be = hl_test_backend_arg(argc, argv, HL_RHI_BACKEND_WEBGPU) == HL_RHI_BACKEND_GLES3 ? HL_BACKEND_GLES3
                                                                                                : HL_BACKEND_WEBGPU;
    static const hl_allocator counting = {count_alloc, count_realloc, count_free, NULL};
    hl_set_allocator(&counting);
    test_requirements(be);
    test_factory_and_runtime(be);
    test_record(be);
    return hl_test_finish();
}
