/* RHI core on the null backend: handles, validation codes, pass state machine, caches,
 * deferred release, command-state cache, transfers, steady-state allocations, selection,
 * waits with timeouts (simulated GPU latency) and the thread-ownership contract. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hl_test.h"
#include "rhi_internal.h"

static hl_rhi_device *new_null(void) {
    hl_rhi_device_desc d = {0};
    d.backend = HL_RHI_BACKEND_NULL;
    hl_rhi_device *dev = NULL;
    HL_CHECK_OK(hl_rhi_device_create(&d, &dev));
    return dev;
}

static hl_rhi_buffer make_buffer(hl_rhi_device *dev, uint64_t size, uint32_t usage) {
    hl_rhi_buffer_desc d = {0};
    d.size = size;
    d.usage = usage;
    hl_rhi_buffer b = {0};
    HL_CHECK_OK(hl_rhi_buffer_create(dev, &d, &b));
    return b;
}

/* Everything a draw needs on a null device: target, layout with a dynamic UBO, pipeline. */
typedef struct fixture {
    hl_rhi_texture rt;
    hl_rhi_texture_view rtv;
    hl_rhi_buffer ubo, vbo, ibo;
    hl_rhi_bind_group_layout bgl;
    hl_rhi_bind_group group;
    hl_rhi_pipeline_layout pl;
    hl_rhi_shader vs, fs;
    hl_rhi_render_pipeline pipe;
} fixture;

static const uint32_t fake_spirv[4] = {0x07230203u, 0, 0, 0};

static void make_pipeline_desc(const fixture *f, hl_rhi_render_pipeline_desc *pd, hl_rhi_vertex_buffer_layout *vbl,
                               hl_rhi_vertex_attribute *attr, hl_rhi_color_target_state *ct) {
    memset(pd, 0, sizeof *pd);
    memset(vbl, 0, sizeof *vbl);
    memset(attr, 0, sizeof *attr);
    memset(ct, 0, sizeof *ct);
    attr->format = HL_RHI_VERTEX_FLOAT32X3;
    vbl->stride = 12;
    vbl->attributes = attr;
    vbl->attribute_count = 1;
    ct->format = HL_RHI_FORMAT_RGBA8_UNORM;
    pd->layout = f->pl;
    pd->vertex = f->vs;
    pd->fragment = f->fs;
    pd->vertex_buffers = vbl;
    pd->vertex_buffer_count = 1;
    pd->color_targets = ct;
    pd->color_target_count = 1;
}

static void fixture_create(hl_rhi_device *dev, fixture *f) {
    memset(f, 0, sizeof *f);
    hl_rhi_texture_desc td = {0};
    td.format = HL_RHI_FORMAT_RGBA8_UNORM;
    td.width = td.height = 16;
    td.usage = HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT | HL_RHI_TEXTURE_USAGE_COPY_SRC;
    HL_CHECK_OK(hl_rhi_texture_create(dev, &td, &f->rt));
    HL_CHECK_OK(hl_rhi_texture_view_create(dev, f->rt, NULL, &f->rtv));
    f->ubo = make_buffer(dev, 1024, HL_RHI_BUFFER_USAGE_UNIFORM | HL_RHI_BUFFER_USAGE_COPY_DST);
    f->vbo = make_buffer(dev, 1200, HL_RHI_BUFFER_USAGE_VERTEX | HL_RHI_BUFFER_USAGE_COPY_DST);
    f->ibo = make_buffer(dev, 600, HL_RHI_BUFFER_USAGE_INDEX);
    hl_rhi_bind_group_layout_entry le = {0};
    le.binding = 0;
    le.visibility = HL_RHI_STAGE_VERTEX | HL_RHI_STAGE_FRAGMENT;
    le.type = HL_RHI_BINDING_UNIFORM_BUFFER;
    le.has_dynamic_offset = true;
    hl_rhi_bind_group_layout_desc ld = {&le, 1, "ubo layout"};
    HL_CHECK_OK(hl_rhi_bind_group_layout_create(dev, &ld, &f->bgl));
    hl_rhi_bind_group_entry ge = {0};
    ge.binding = 0;
    ge.buffer = f->ubo;
    ge.size = 256;
    hl_rhi_bind_group_desc gd = {f->bgl, &ge, 1, NULL};
    HL_CHECK_OK(hl_rhi_bind_group_create(dev, &gd, &f->group));
    hl_rhi_pipeline_layout_desc pld = {&f->bgl, 1, NULL};
    HL_CHECK_OK(hl_rhi_pipeline_layout_create(dev, &pld, &f->pl));
    hl_rhi_shader_desc sd = {0};
    sd.spirv = fake_spirv;
    sd.spirv_word_count = 4;
    sd.stage = HL_RHI_SHADER_VERTEX;
    HL_CHECK_OK(hl_rhi_shader_create(dev, &sd, &f->vs));
    sd.stage = HL_RHI_SHADER_FRAGMENT;
    HL_CHECK_OK(hl_rhi_shader_create(dev, &sd, &f->fs));
    hl_rhi_render_pipeline_desc pd;
    hl_rhi_vertex_buffer_layout vbl;
    hl_rhi_vertex_attribute attr;
    hl_rhi_color_target_state ct;
    make_pipeline_desc(f, &pd, &vbl, &attr, &ct);
    HL_CHECK_OK(hl_rhi_render_pipeline_create(dev, &pd, &f->pipe));
}

static hl_rhi_render_pass_desc pass_desc(const fixture *f, hl_rhi_color_attachment *ca) {
    memset(ca, 0, sizeof *ca);
    ca->view = f->rtv;
    hl_rhi_render_pass_desc rp = {0};
    rp.color_attachments = ca;
    rp.color_attachment_count = 1;
    return rp;
}

/* ---- tests ------------------------------------------------------------------------------- */
static void test_results_and_formats(void) {
    HL_CHECK(strcmp(hl_result_name(HL_ERR_VALIDATION), "HL_ERR_VALIDATION") == 0);
    HL_CHECK(strcmp(hl_result_name((hl_result)999), "HL_UNKNOWN") == 0);
    HL_CHECK(strcmp(hl_rhi_format_get_info(HL_RHI_FORMAT_RGBA8_UNORM)->name, "rgba8unorm") == 0);
    HL_CHECK(hl_rhi_format_get_info(HL_RHI_FORMAT_COUNT) == NULL);
    HL_CHECK_EQ(hl__format_texel_size(HL_RHI_FORMAT_RGBA16_FLOAT), 8);
    HL_CHECK_EQ(hl__format_texel_size(HL_RHI_FORMAT_DEPTH24_PLUS), 0);
    HL_CHECK_EQ(hl_rhi_vertex_format_size(HL_RHI_VERTEX_FLOAT32X3), 12);
    hl_rhi_backend b;
    HL_CHECK_OK(hl_rhi_backend_parse("gles3", &b));
    HL_CHECK_EQ(b, HL_RHI_BACKEND_GLES3);
    HL_CHECK_RESULT(hl_rhi_backend_parse("vulkan", &b), HL_ERR_VALIDATION);
    HL_CHECK(strcmp(hl_rhi_feature_name(HL_RHI_FEATURE_COMPUTE), "compute") == 0);
}

static void test_handles(void) {
    hl_rhi_device *dev = new_null();
    hl_rhi_device *other = new_null();
    if (!dev || !other) return;
    hl_rhi_buffer_desc d = {0};
    d.usage = HL_RHI_BUFFER_USAGE_COPY_DST | HL_RHI_BUFFER_USAGE_COPY_SRC;
    hl_rhi_buffer b = {0};
    uint64_t calls = dev->stats.native_calls;
    HL_CHECK_RESULT(hl_rhi_buffer_create(dev, &d, &b), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "desc.size is 0") != NULL);
    d.size = 6;
    HL_CHECK_RESULT(hl_rhi_buffer_create(dev, &d, &b), HL_ERR_VALIDATION);
    d.size = 64;
    d.usage = 0;
    HL_CHECK_RESULT(hl_rhi_buffer_create(dev, &d, &b), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "desc.usage") != NULL);
    HL_CHECK_EQ(dev->stats.native_calls, calls);

    b = make_buffer(dev, 64, HL_RHI_BUFFER_USAGE_COPY_DST | HL_RHI_BUFFER_USAGE_COPY_SRC);
    HL_CHECK(b.id != 0);
    uint32_t data[4] = {1, 2, 3, 4};
    HL_CHECK_OK(hl_rhi_buffer_write(dev, b, 0, data, sizeof data));
    /* a handle of another device is rejected even if its slot and generation match */
    hl_rhi_buffer ob = make_buffer(other, 64, HL_RHI_BUFFER_USAGE_COPY_DST);
    HL_CHECK(ob.id != b.id);
    HL_CHECK(hl__pool_get(dev, HL__POOL_BUFFER, ob.id) == NULL);
    HL_CHECK_RESULT(hl_rhi_buffer_write(dev, ob, 0, data, sizeof data), HL_ERR_VALIDATION);
    /* stale after destroy; destroy again is a silent no-op */
    hl_rhi_buffer_destroy(dev, b);
    calls = dev->stats.native_calls;
    HL_CHECK_RESULT(hl_rhi_buffer_write(dev, b, 0, data, sizeof data), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "handle is destroyed or stale") != NULL);
    hl_rhi_buffer_destroy(dev, b);
    hl_rhi_buffer_destroy(dev, (hl_rhi_buffer){0});
    HL_CHECK_EQ(dev->stats.native_calls, calls);
    /* a new buffer does not revive the old handle */
    hl_rhi_buffer b2 = make_buffer(dev, 64, HL_RHI_BUFFER_USAGE_COPY_DST);
    HL_CHECK(b2.id != b.id);
    HL_CHECK(hl__pool_get(dev, HL__POOL_BUFFER, b.id) == NULL);
    HL_CHECK(hl__pool_get(dev, HL__POOL_BUFFER, 0) == NULL);
    hl_rhi_device_destroy(other);
    hl_rhi_device_destroy(dev);
}

static void test_create_validation(void) {
    hl_rhi_device *dev = new_null();
    if (!dev) return;
    uint64_t calls = dev->stats.native_calls;
    hl_rhi_texture t;
    hl_rhi_texture_desc td = {0};
    td.width = td.height = 8;
    td.usage = HL_RHI_TEXTURE_USAGE_SAMPLED;
    HL_CHECK_RESULT(hl_rhi_texture_create(dev, &td, &t), HL_ERR_VALIDATION); /* no format */
    td.format = HL_RHI_FORMAT_RGBA8_UNORM;
    td.mip_levels = 5;
    HL_CHECK_RESULT(hl_rhi_texture_create(dev, &td, &t), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "mip_levels") != NULL);
    td.mip_levels = 1;
    td.sample_count = 2;
    HL_CHECK_RESULT(hl_rhi_texture_create(dev, &td, &t), HL_ERR_VALIDATION);
    td.sample_count = 4;
    td.usage = HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT;
    td.mip_levels = 2;
    HL_CHECK_RESULT(hl_rhi_texture_create(dev, &td, &t), HL_ERR_VALIDATION);
    td.mip_levels = 1;
    td.width = 100000;
    HL_CHECK_RESULT(hl_rhi_texture_create(dev, &td, &t), HL_ERR_VALIDATION);
    HL_CHECK_EQ(dev->stats.native_calls, calls);
    td.width = 8;
    HL_CHECK_OK(hl_rhi_texture_create(dev, &td, &t));
    HL_CHECK_EQ(hl_rhi_texture_get_desc(dev, t)->sample_count, 4);

    /* view range */
    hl_rhi_texture_view v;
    hl_rhi_texture_view_desc vd = {0};
    vd.base_mip_level = 1;
    calls = dev->stats.native_calls;
    HL_CHECK_RESULT(hl_rhi_texture_view_create(dev, t, &vd, &v), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "base_mip_level") != NULL);

    /* default view dimensions: whole cube -> CUBE, one layer -> 2D, whole array -> 2D_ARRAY */
    hl_rhi_texture cube;
    hl_rhi_texture_desc cd = {0};
    cd.dimension = HL_RHI_TEXTURE_CUBE;
    cd.format = HL_RHI_FORMAT_RGBA8_UNORM;
    cd.width = cd.height = 8;
    cd.usage = HL_RHI_TEXTURE_USAGE_SAMPLED;
    HL_CHECK_OK(hl_rhi_texture_create(dev, &cd, &cube));
    HL_CHECK_EQ(hl_rhi_texture_get_desc(dev, cube)->depth_or_layers, 6);
    hl_rhi_texture_view cv;
    HL_CHECK_OK(hl_rhi_texture_view_create(dev, cube, NULL, &cv));
    HL_CHECK_EQ(((hl__texture_view *)hl__pool_get(dev, HL__POOL_VIEW, cv.id))->desc.dimension, HL_RHI_TEXTURE_CUBE);
    hl_rhi_texture_view_desc one = {0};
    one.base_layer = 3;
    one.layer_count = 1;
    HL_CHECK_OK(hl_rhi_texture_view_create(dev, cube, &one, &cv));
    HL_CHECK_EQ(((hl__texture_view *)hl__pool_get(dev, HL__POOL_VIEW, cv.id))->desc.dimension, HL_RHI_TEXTURE_2D);
    one.layer_count = 4;
    HL_CHECK_RESULT(hl_rhi_texture_view_create(dev, cube, &one, &cv), HL_ERR_VALIDATION); /* 3 + 4 > 6 */
    calls = dev->stats.native_calls;

    /* bind group layout: duplicate binding, zero visibility */
    hl_rhi_bind_group_layout_entry le[2] = {{0}};
    le[0].visibility = le[1].visibility = HL_RHI_STAGE_FRAGMENT;
    le[1].type = HL_RHI_BINDING_SAMPLER;
    hl_rhi_bind_group_layout_desc ld = {le, 2, NULL};
    hl_rhi_bind_group_layout l;
    HL_CHECK_RESULT(hl_rhi_bind_group_layout_create(dev, &ld, &l), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "duplicates") != NULL);
    le[1].binding = 1;
    le[0].visibility = 0;
    HL_CHECK_RESULT(hl_rhi_bind_group_layout_create(dev, &ld, &l), HL_ERR_VALIDATION);

    /* shader without source, pipeline layout with a stale group */
    hl_rhi_shader_desc sd = {0};
    hl_rhi_shader s;
    HL_CHECK_RESULT(hl_rhi_shader_create(dev, &sd, &s), HL_ERR_VALIDATION);
    hl_rhi_bind_group_layout bad = {12345};
    hl_rhi_pipeline_layout_desc pld = {&bad, 1, NULL};
    hl_rhi_pipeline_layout pl;
    HL_CHECK_RESULT(hl_rhi_pipeline_layout_create(dev, &pld, &pl), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "desc.groups[0]") != NULL);
    HL_CHECK_EQ(dev->stats.native_calls, calls);
    hl_rhi_device_destroy(dev);
}

static void test_bind_group_compat(void) {
    hl_rhi_device *dev = new_null();
    if (!dev) return;
    fixture f;
    fixture_create(dev, &f);
    uint64_t calls = dev->stats.native_calls;
    hl_rhi_bind_group g;
    hl_rhi_bind_group_entry ge = {0};
    hl_rhi_bind_group_desc gd = {f.bgl, &ge, 1, NULL};
    /* buffer without UNIFORM usage */
    ge.buffer = f.vbo;
    HL_CHECK_RESULT(hl_rhi_bind_group_create(dev, &gd, &g), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "UNIFORM") != NULL);
    /* a view where a buffer is expected */
    ge.buffer.id = 0;
    ge.view = f.rtv;
    HL_CHECK_RESULT(hl_rhi_bind_group_create(dev, &gd, &g), HL_ERR_VALIDATION);
    /* missing entry / wrong binding */
    ge = (hl_rhi_bind_group_entry){0};
    ge.buffer = f.ubo;
    ge.binding = 3;
    HL_CHECK_RESULT(hl_rhi_bind_group_create(dev, &gd, &g), HL_ERR_VALIDATION);
    gd.entry_count = 0;
    HL_CHECK_RESULT(hl_rhi_bind_group_create(dev, &gd, &g), HL_ERR_VALIDATION);
    gd.entry_count = 1;
    /* misaligned offset and out-of-range size */
    ge.binding = 0;
    ge.offset = 4;
    HL_CHECK_RESULT(hl_rhi_bind_group_create(dev, &gd, &g), HL_ERR_VALIDATION);
    ge.offset = 768;
    ge.size = 512;
    HL_CHECK_RESULT(hl_rhi_bind_group_create(dev, &gd, &g), HL_ERR_VALIDATION);
    /* sampler where the layout wants a comparison sampler */
    hl_rhi_bind_group_layout_entry le = {0};
    le.visibility = HL_RHI_STAGE_FRAGMENT;
    le.type = HL_RHI_BINDING_COMPARISON_SAMPLER;
    hl_rhi_bind_group_layout_desc ld = {&le, 1, NULL};
    hl_rhi_bind_group_layout cl;
    HL_CHECK_OK(hl_rhi_bind_group_layout_create(dev, &ld, &cl));
    hl_rhi_sampler smp;
    HL_CHECK_OK(hl_rhi_sampler_create(dev, NULL, &smp));
    calls = dev->stats.native_calls;
    ge = (hl_rhi_bind_group_entry){0};
    ge.sampler = smp;
    gd.layout = cl;
    HL_CHECK_RESULT(hl_rhi_bind_group_create(dev, &gd, &g), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "comparison") != NULL);
    HL_CHECK_EQ(dev->stats.native_calls, calls);
    hl_rhi_device_destroy(dev);
}

static void test_pass_state_machine(void) {
    hl_rhi_device *dev = new_null();
    if (!dev) return;
    fixture f;
    fixture_create(dev, &f);
    hl_rhi_cmd *cmd = NULL;
    hl_rhi_color_attachment ca;
    hl_rhi_render_pass_desc rp = pass_desc(&f, &ca);
    uint64_t calls = dev->stats.native_calls;

    HL_CHECK_RESULT(hl_rhi_cmd_draw(&dev->cmd, 3, 1, 0, 0), HL_ERR_INVALID_STATE); /* no frame */
    HL_CHECK_RESULT(hl_rhi_end_frame(dev, NULL), HL_ERR_INVALID_STATE);
    HL_CHECK_EQ(dev->stats.native_calls, calls);
    HL_CHECK_OK(hl_rhi_begin_frame(dev, &cmd));
    hl_rhi_cmd *cmd2;
    calls = dev->stats.native_calls;
    HL_CHECK_RESULT(hl_rhi_begin_frame(dev, &cmd2), HL_ERR_INVALID_STATE);
    HL_CHECK_RESULT(hl_rhi_cmd_draw(cmd, 3, 1, 0, 0), HL_ERR_INVALID_STATE); /* no pass */
    HL_CHECK_RESULT(hl_rhi_cmd_set_pipeline(cmd, f.pipe), HL_ERR_INVALID_STATE);
    HL_CHECK_RESULT(hl_rhi_cmd_end_render_pass(cmd), HL_ERR_INVALID_STATE);
    HL_CHECK_RESULT(hl_rhi_cmd_dispatch(cmd, 1, 1, 1), HL_ERR_INVALID_STATE);
    HL_CHECK_EQ(dev->stats.native_calls, calls);

    HL_CHECK_OK(hl_rhi_cmd_begin_render_pass(cmd, &rp));
    calls = dev->stats.native_calls;
    HL_CHECK_RESULT(hl_rhi_cmd_begin_render_pass(cmd, &rp), HL_ERR_INVALID_STATE);
    HL_CHECK(strstr(hl_last_error(), "a render pass is already open") != NULL);
    HL_CHECK_RESULT(hl_rhi_cmd_begin_compute_pass(cmd, NULL), HL_ERR_INVALID_STATE);
    HL_CHECK_RESULT(hl_rhi_cmd_clear_buffer(cmd, f.ubo, 0, 0), HL_ERR_INVALID_STATE);
    HL_CHECK_RESULT(hl_rhi_cmd_draw(cmd, 3, 1, 0, 0), HL_ERR_INVALID_STATE); /* no pipeline */
    HL_CHECK(strstr(hl_last_error(), "no pipeline") != NULL);
    HL_CHECK_EQ(dev->stats.native_calls, calls);

    HL_CHECK_OK(hl_rhi_cmd_set_pipeline(cmd, f.pipe));
    calls = dev->stats.native_calls;
    HL_CHECK_RESULT(hl_rhi_cmd_draw(cmd, 3, 1, 0, 0), HL_ERR_VALIDATION); /* group 0 missing */
    HL_CHECK(strstr(hl_last_error(), "bind group 0") != NULL);
    uint32_t off = 4;
    HL_CHECK_RESULT(hl_rhi_cmd_set_bind_group(cmd, 0, f.group, &off, 1), HL_ERR_VALIDATION); /* misaligned */
    HL_CHECK(strstr(hl_last_error(), "not a multiple of 256") != NULL);
    off = 1024;
    HL_CHECK_RESULT(hl_rhi_cmd_set_bind_group(cmd, 0, f.group, &off, 1), HL_ERR_VALIDATION); /* out of range */
    HL_CHECK_RESULT(hl_rhi_cmd_set_bind_group(cmd, 0, f.group, NULL, 0), HL_ERR_VALIDATION); /* count */
    HL_CHECK_EQ(dev->stats.native_calls, calls);
    off = 256;
    HL_CHECK_OK(hl_rhi_cmd_set_bind_group(cmd, 0, f.group, &off, 1));
    calls = dev->stats.native_calls;
    HL_CHECK_RESULT(hl_rhi_cmd_draw(cmd, 3, 1, 0, 0), HL_ERR_VALIDATION); /* vertex buffer 0 missing */
    HL_CHECK(strstr(hl_last_error(), "vertex buffer slot 0") != NULL);
    HL_CHECK_RESULT(hl_rhi_cmd_set_vertex_buffer(cmd, 0, f.ubo, 0), HL_ERR_VALIDATION); /* not VERTEX */
    HL_CHECK_EQ(dev->stats.native_calls, calls);
    HL_CHECK_OK(hl_rhi_cmd_set_vertex_buffer(cmd, 0, f.vbo, 0));
    HL_CHECK_OK(hl_rhi_cmd_draw(cmd, 3, 1, 0, 0));
    calls = dev->stats.native_calls;
    HL_CHECK_RESULT(hl_rhi_cmd_draw_indexed(cmd, 3, 1, 0, 0, 0), HL_ERR_VALIDATION); /* no index buffer */
    HL_CHECK_RESULT(hl_rhi_cmd_set_scissor(cmd, 8, 8, 16, 16), HL_ERR_VALIDATION);
    HL_CHECK_RESULT(hl_rhi_cmd_dispatch(cmd, 1, 1, 1), HL_ERR_INVALID_STATE);
    HL_CHECK_EQ(dev->stats.native_calls, calls);
    HL_CHECK_OK(hl_rhi_cmd_set_index_buffer(cmd, f.ibo, HL_RHI_INDEX_UINT16, 0));
    HL_CHECK_OK(hl_rhi_cmd_draw_indexed(cmd, 300, 1, 0, 0, 0));
    calls = dev->stats.native_calls;
    HL_CHECK_RESULT(hl_rhi_cmd_draw_indexed(cmd, 301, 1, 0, 0, 0), HL_ERR_VALIDATION);
    HL_CHECK_EQ(dev->stats.native_calls, calls);

    /* end_frame with an open pass aborts the frame */
    hl_rhi_submission sub;
    HL_CHECK_RESULT(hl_rhi_end_frame(dev, &sub), HL_ERR_INVALID_STATE);
    HL_CHECK(!hl_rhi_frame_is_open(dev));
    HL_CHECK_EQ(sub.serial, 0);

    /* compute pass: dispatch without pipeline; draw inside compute */
    HL_CHECK_OK(hl_rhi_begin_frame(dev, &cmd));
    HL_CHECK_OK(hl_rhi_cmd_begin_compute_pass(cmd, "c"));
    calls = dev->stats.native_calls;
    HL_CHECK_RESULT(hl_rhi_cmd_dispatch(cmd, 1, 1, 1), HL_ERR_INVALID_STATE);
    HL_CHECK_RESULT(hl_rhi_cmd_draw(cmd, 3, 1, 0, 0), HL_ERR_INVALID_STATE);
    HL_CHECK_RESULT(hl_rhi_cmd_begin_render_pass(cmd, &rp), HL_ERR_INVALID_STATE);
    HL_CHECK(strstr(hl_last_error(), "a compute pass is already open") != NULL);
    HL_CHECK_EQ(dev->stats.native_calls, calls);
    HL_CHECK_OK(hl_rhi_cmd_end_compute_pass(cmd));
    HL_CHECK_OK(hl_rhi_end_frame(dev, &sub));
    HL_CHECK(sub.serial > 0);
    HL_CHECK_OK(hl_rhi_submission_wait(dev, sub, UINT64_MAX));
    hl_rhi_device_destroy(dev);
}

static void test_render_pass_validation(void) {
    hl_rhi_device *dev = new_null();
    if (!dev) return;
    fixture f;
    fixture_create(dev, &f);
    hl_rhi_texture_desc td = {0};
    td.format = HL_RHI_FORMAT_RGBA8_UNORM;
    td.width = td.height = 16;
    td.usage = HL_RHI_TEXTURE_USAGE_SAMPLED;
    hl_rhi_texture sampled, small;
    hl_rhi_texture_view sv, smv;
    HL_CHECK_OK(hl_rhi_texture_create(dev, &td, &sampled));
    HL_CHECK_OK(hl_rhi_texture_view_create(dev, sampled, NULL, &sv));
    td.width = td.height = 8;
    td.usage = HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT;
    HL_CHECK_OK(hl_rhi_texture_create(dev, &td, &small));
    HL_CHECK_OK(hl_rhi_texture_view_create(dev, small, NULL, &smv));
    hl_rhi_cmd *cmd;
    HL_CHECK_OK(hl_rhi_begin_frame(dev, &cmd));
    uint64_t calls = dev->stats.native_calls;
    hl_rhi_color_attachment ca[2];
    memset(ca, 0, sizeof ca);
    hl_rhi_render_pass_desc rp = {0};
    rp.color_attachments = ca;
    rp.color_attachment_count = 1;
    ca[0].view = sv;
    HL_CHECK_RESULT(hl_rhi_cmd_begin_render_pass(cmd, &rp), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "color_attachments[0].view: texture lacks RENDER_ATTACHMENT usage") != NULL);
    ca[0].view = f.rtv;
    ca[1].view = smv;
    rp.color_attachment_count = 2;
    HL_CHECK_RESULT(hl_rhi_cmd_begin_render_pass(cmd, &rp), HL_ERR_VALIDATION); /* size mismatch */
    rp.color_attachment_count = 1;
    ca[0].resolve_target = smv; /* resolve from a single-sampled view */
    HL_CHECK_RESULT(hl_rhi_cmd_begin_render_pass(cmd, &rp), HL_ERR_VALIDATION);
    ca[0].resolve_target.id = 0;
    rp.depth_stencil.view = f.rtv; /* not a depth format */
    HL_CHECK_RESULT(hl_rhi_cmd_begin_render_pass(cmd, &rp), HL_ERR_VALIDATION);
    rp.depth_stencil.view.id = 0;
    HL_CHECK_EQ(dev->stats.native_calls, calls);
    /* pipeline / pass mismatch: two-attachment pass, one-target pipeline */
    ca[1].view = f.rtv;
    rp.color_attachment_count = 2;
    HL_CHECK_OK(hl_rhi_cmd_begin_render_pass(cmd, &rp));
    calls = dev->stats.native_calls;
    HL_CHECK_RESULT(hl_rhi_cmd_set_pipeline(cmd, f.pipe), HL_ERR_VALIDATION);
    HL_CHECK_EQ(dev->stats.native_calls, calls);
    HL_CHECK_OK(hl_rhi_cmd_end_render_pass(cmd));
    HL_CHECK_OK(hl_rhi_end_frame(dev, NULL));
    hl_rhi_device_destroy(dev);
}

static void test_copies(void) {
    hl_rhi_device *dev = new_null();
    if (!dev) return;
    uint32_t all = HL_RHI_BUFFER_USAGE_COPY_SRC | HL_RHI_BUFFER_USAGE_COPY_DST;
    hl_rhi_buffer a = make_buffer(dev, 256, all), b = make_buffer(dev, 256, all | HL_RHI_BUFFER_USAGE_MAP_READ);
    hl_rhi_buffer nodst = make_buffer(dev, 256, HL_RHI_BUFFER_USAGE_COPY_SRC);
    uint32_t src[64], dst[64];
    for (int i = 0; i < 64; i++) src[i] = (uint32_t)i * 7u + 1u;
    HL_CHECK_OK(hl_rhi_buffer_write(dev, a, 0, src, sizeof src));
    hl_rhi_cmd *cmd;
    HL_CHECK_OK(hl_rhi_begin_frame(dev, &cmd));
    uint64_t calls = dev->stats.native_calls;
    HL_CHECK_RESULT(hl_rhi_cmd_copy_buffer_to_buffer(cmd, a, 0, b, 128, 256), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "dst_offset") != NULL);
    HL_CHECK_RESULT(hl_rhi_cmd_copy_buffer_to_buffer(cmd, a, 4, b, 0, 256), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "src_offset") != NULL);
    HL_CHECK_RESULT(hl_rhi_cmd_copy_buffer_to_buffer(cmd, a, 0, nodst, 0, 16), HL_ERR_VALIDATION);
    HL_CHECK_RESULT(hl_rhi_cmd_copy_buffer_to_buffer(cmd, a, 0, a, 0, 16), HL_ERR_VALIDATION);
    HL_CHECK_EQ(dev->stats.native_calls, calls);
    HL_CHECK_OK(hl_rhi_cmd_copy_buffer_to_buffer(cmd, a, 0, b, 0, 256));
    HL_CHECK_OK(hl_rhi_cmd_clear_buffer(cmd, b, 0, 16));
    /* write after use in this frame would reorder on webgpu */
    HL_CHECK_RESULT(hl_rhi_buffer_write(dev, b, 0, src, 16), HL_ERR_INVALID_STATE);
    HL_CHECK_RESULT(hl_rhi_buffer_read(dev, b, 0, dst, sizeof dst), HL_ERR_INVALID_STATE);
    hl_rhi_submission s;
    HL_CHECK_OK(hl_rhi_end_frame(dev, &s));
    HL_CHECK_OK(hl_rhi_buffer_read(dev, b, 0, dst, sizeof dst));
    HL_CHECK_EQ(dst[0], 0);
    HL_CHECK_EQ(dst[3], 0);
    HL_CHECK_EQ(dst[4], src[4]);
    HL_CHECK_EQ(dst[63], src[63]);

    /* texture round trip through a buffer with a 256-byte row pitch */
    hl_rhi_texture_desc td = {0};
    td.format = HL_RHI_FORMAT_RGBA8_UNORM;
    td.width = 4;
    td.height = 4;
    td.usage = HL_RHI_TEXTURE_USAGE_COPY_SRC | HL_RHI_TEXTURE_USAGE_COPY_DST;
    hl_rhi_texture t1, t2;
    HL_CHECK_OK(hl_rhi_texture_create(dev, &td, &t1));
    HL_CHECK_OK(hl_rhi_texture_create(dev, &td, &t2));
    uint8_t px[64], back[64];
    for (int i = 0; i < 64; i++) px[i] = (uint8_t)(i * 3);
    HL_CHECK_OK(hl_rhi_texture_write(dev, t1, NULL, px, 0));
    hl_rhi_buffer staging = make_buffer(dev, 1024, all);
    HL_CHECK_OK(hl_rhi_begin_frame(dev, &cmd));
    calls = dev->stats.native_calls;
    HL_CHECK_RESULT(hl_rhi_cmd_copy_texture_to_buffer(cmd, t1, NULL, staging, 0, 16), HL_ERR_VALIDATION);
    hl_rhi_texture_region big = {0, 2, 0, 0, 4, 4, 1};
    HL_CHECK_RESULT(hl_rhi_cmd_copy_texture_to_texture(cmd, t1, &big, t2, 0, 0, 0, 0), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "src_region") != NULL);
    HL_CHECK_EQ(dev->stats.native_calls, calls);
    HL_CHECK_OK(hl_rhi_cmd_copy_texture_to_buffer(cmd, t1, NULL, staging, 0, 256));
    HL_CHECK_OK(hl_rhi_cmd_copy_buffer_to_texture(cmd, staging, 0, 256, t2, NULL));
    HL_CHECK_OK(hl_rhi_end_frame(dev, NULL));
    HL_CHECK_OK(hl_rhi_texture_read(dev, t2, NULL, back, 0));
    HL_CHECK(memcmp(px, back, sizeof px) == 0);
    hl_rhi_device_destroy(dev);
}

static void test_caches(void) {
    hl_rhi_device *dev = new_null();
    if (!dev) return;
    hl_rhi_sampler_desc sd = {0};
    sd.mag_filter = HL_RHI_FILTER_LINEAR;
    sd.label = "a";
    hl_rhi_sampler s1, s2, s3;
    HL_CHECK_OK(hl_rhi_sampler_create(dev, &sd, &s1));
    sd.label = "b"; /* labels are not part of the key */
    HL_CHECK_OK(hl_rhi_sampler_create(dev, &sd, &s2));
    HL_CHECK_EQ(dev->stats.cache_misses, 1);
    HL_CHECK_EQ(dev->stats.cache_hits, 1);
    HL_CHECK(s1.id != s2.id);
    hl__sampler *p1 = hl__pool_get(dev, HL__POOL_SAMPLER, s1.id), *p2 = hl__pool_get(dev, HL__POOL_SAMPLER, s2.id);
    HL_CHECK(p1 && p2 && p1->be.u64 == p2->be.u64);
    sd.min_filter = HL_RHI_FILTER_LINEAR;
    HL_CHECK_OK(hl_rhi_sampler_create(dev, &sd, &s3));
    HL_CHECK_EQ(dev->stats.cache_misses, 2);

    /* layouts and pipelines */
    hl_rhi_reset_stats(dev);
    fixture f, g;
    fixture_create(dev, &f);
    HL_CHECK_EQ(dev->stats.cache_misses, 3); /* bgl, pipeline layout, pipeline */
    fixture_create(dev, &g); /* same layouts; its own shaders make its pipeline a new key */
    HL_CHECK_EQ(dev->stats.cache_misses, 4);
    HL_CHECK_EQ(dev->stats.cache_hits, 2);
    /* a different pipeline descriptor misses */
    hl_rhi_render_pipeline_desc pd;
    hl_rhi_vertex_buffer_layout vbl;
    hl_rhi_vertex_attribute attr;
    hl_rhi_color_target_state ct;
    make_pipeline_desc(&f, &pd, &vbl, &attr, &ct);
    pd.cull_mode = HL_RHI_CULL_BACK;
    hl_rhi_render_pipeline rp2;
    HL_CHECK_OK(hl_rhi_render_pipeline_create(dev, &pd, &rp2));
    HL_CHECK_EQ(dev->stats.cache_misses, 5);
    /* g's pipeline shares f's layout entry even through another pipeline layout handle */
    pd.cull_mode = HL_RHI_CULL_NONE;
    pd.layout = g.pl;
    hl_rhi_render_pipeline p3;
    HL_CHECK_OK(hl_rhi_render_pipeline_create(dev, &pd, &p3));
    HL_CHECK_EQ(dev->stats.cache_misses, 5);
    HL_CHECK_EQ(((hl__render_pipeline *)hl__pool_get(dev, HL__POOL_RENDER_PIPELINE, p3.id))->be.u64,
                ((hl__render_pipeline *)hl__pool_get(dev, HL__POOL_RENDER_PIPELINE, f.pipe.id))->be.u64);

    /* an unreferenced entry is kept for reuse, then dropped by clear_caches */
    hl_rhi_sampler_destroy(dev, s3);
    uint64_t calls = dev->stats.native_calls;
    hl_rhi_sampler s4;
    HL_CHECK_OK(hl_rhi_sampler_create(dev, &sd, &s4));
    HL_CHECK_EQ(dev->stats.cache_misses, 5);
    HL_CHECK_EQ(dev->stats.native_calls, calls);
    hl_rhi_sampler_destroy(dev, s4);
    hl_rhi_device_clear_caches(dev);
    HL_CHECK_EQ(dev->stats.native_calls, calls + 1);
    HL_CHECK_OK(hl_rhi_sampler_create(dev, &sd, &s4));
    HL_CHECK_EQ(dev->stats.cache_misses, 6);
    hl_rhi_device_destroy(dev);

    /* a bounded cache evicts the least recently used unreferenced entry */
    hl_rhi_device_desc dd = {0};
    dd.backend = HL_RHI_BACKEND_NULL;
    dd.cache_capacity = 2;
    HL_CHECK_OK(hl_rhi_device_create(&dd, &dev));
    if (!dev) return;
    hl_rhi_sampler a, b, c;
    sd = (hl_rhi_sampler_desc){0};
    HL_CHECK_OK(hl_rhi_sampler_create(dev, &sd, &a));
    sd.address_u = HL_RHI_ADDRESS_REPEAT;
    HL_CHECK_OK(hl_rhi_sampler_create(dev, &sd, &b));
    hl_rhi_sampler_destroy(dev, a);
    sd.address_u = HL_RHI_ADDRESS_MIRROR_REPEAT;
    calls = dev->stats.native_calls;
    HL_CHECK_OK(hl_rhi_sampler_create(dev, &sd, &c));
    HL_CHECK_EQ(dev->stats.native_calls, calls + 2); /* release of a + create of c */
    uint32_t live = 0;
    for (uint32_t i = 0; i < dev->cache_count; i++) live += dev->cache[i].used != 0;
    HL_CHECK_EQ(live, 2);
    hl_rhi_device_destroy(dev);
}

static void test_deferred_release(void) {
    hl_rhi_device *dev = new_null();
    if (!dev) return;
    fixture f;
    fixture_create(dev, &f);
    hl_rhi_cmd *cmd;
    hl_rhi_color_attachment ca;
    hl_rhi_render_pass_desc rp = pass_desc(&f, &ca);
    HL_CHECK_OK(hl_rhi_begin_frame(dev, &cmd));
    HL_CHECK_OK(hl_rhi_cmd_begin_render_pass(cmd, &rp));
    HL_CHECK_OK(hl_rhi_cmd_set_pipeline(cmd, f.pipe));
    uint32_t off = 0;
    HL_CHECK_OK(hl_rhi_cmd_set_bind_group(cmd, 0, f.group, &off, 1));
    HL_CHECK_OK(hl_rhi_cmd_set_vertex_buffer(cmd, 0, f.vbo, 0));
    HL_CHECK_OK(hl_rhi_cmd_draw(cmd, 3, 1, 0, 0));
    HL_CHECK_OK(hl_rhi_cmd_end_render_pass(cmd));
    hl_rhi_submission s;
    HL_CHECK_OK(hl_rhi_end_frame(dev, &s));

    uint32_t vslot = (f.vbo.id & 0xFFFFFu) - 1u, tslot = (f.rt.id & 0xFFFFFu) - 1u;
    uint32_t vwslot = (f.rtv.id & 0xFFFFFu) - 1u;
    uint64_t calls = dev->stats.native_calls;
    hl_rhi_buffer_destroy(dev, f.vbo);
    hl_rhi_texture_destroy(dev, f.rt); /* its view dies with it */
    HL_CHECK_EQ(dev->stats.native_calls, calls); /* nothing released yet */
    HL_CHECK(hl__pool_get(dev, HL__POOL_BUFFER, f.vbo.id) == NULL);
    HL_CHECK(hl__pool_get(dev, HL__POOL_VIEW, f.rtv.id) == NULL);
    HL_CHECK_EQ(dev->pools[HL__POOL_BUFFER].state[vslot], HL__SLOT_ZOMBIE);
    HL_CHECK_EQ(dev->pools[HL__POOL_TEXTURE].state[tslot], HL__SLOT_ZOMBIE);
    HL_CHECK_EQ(dev->pools[HL__POOL_VIEW].state[vwslot], HL__SLOT_ZOMBIE);
    HL_CHECK_EQ(dev->deferred_count, 3);
    HL_CHECK_RESULT(hl_rhi_buffer_write(dev, f.vbo, 0, &off, 4), HL_ERR_VALIDATION);
    bool done = false;
    HL_CHECK_OK(hl_rhi_submission_poll(dev, s, &done));
    HL_CHECK(done);
    HL_CHECK_EQ(dev->deferred_count, 0);
    HL_CHECK_EQ(dev->pools[HL__POOL_BUFFER].state[vslot], HL__SLOT_FREE);
    HL_CHECK_EQ(dev->pools[HL__POOL_VIEW].state[vwslot], HL__SLOT_FREE);
    /* poll: 1 native call; buffer, texture, view: 3 */
    HL_CHECK_EQ(dev->stats.native_calls, calls + 4);

    /* an object used only by an aborted frame is released once earlier work completed */
    hl_rhi_color_attachment ca2;
    hl_rhi_texture_desc td = {0};
    td.format = HL_RHI_FORMAT_RGBA8_UNORM;
    td.width = td.height = 4;
    td.usage = HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT;
    hl_rhi_texture t2;
    hl_rhi_texture_view v2;
    HL_CHECK_OK(hl_rhi_texture_create(dev, &td, &t2));
    HL_CHECK_OK(hl_rhi_texture_view_create(dev, t2, NULL, &v2));
    fixture tmpf = f;
    tmpf.rtv = v2;
    hl_rhi_render_pass_desc rp2 = pass_desc(&tmpf, &ca2);
    HL_CHECK_OK(hl_rhi_begin_frame(dev, &cmd));
    HL_CHECK_OK(hl_rhi_cmd_begin_render_pass(cmd, &rp2));
    hl_rhi_texture_destroy(dev, t2);
    HL_CHECK_EQ(dev->deferred_count, 2);
    hl_rhi_abort_frame(dev);
    HL_CHECK_EQ(dev->deferred_count, 0);

    /* an object never used by a submission is released at once */
    hl_rhi_buffer tmp = make_buffer(dev, 16, HL_RHI_BUFFER_USAGE_VERTEX);
    calls = dev->stats.native_calls;
    hl_rhi_buffer_destroy(dev, tmp);
    HL_CHECK_EQ(dev->stats.native_calls, calls + 1);
    hl_rhi_device_destroy(dev);
}

static void test_state_cache_and_packets(void) {
    hl_rhi_device *dev = new_null();
    if (!dev) return;
    fixture f;
    fixture_create(dev, &f);
    hl_rhi_cmd *cmd;
    hl_rhi_color_attachment ca;
    hl_rhi_render_pass_desc rp = pass_desc(&f, &ca);
    HL_CHECK_OK(hl_rhi_begin_frame(dev, &cmd));
    HL_CHECK_OK(hl_rhi_cmd_begin_render_pass(cmd, &rp));
    hl_rhi_reset_stats(dev);
    uint32_t off = 0;
    for (int i = 0; i < 3; i++) {
        HL_CHECK_OK(hl_rhi_cmd_set_pipeline(cmd, f.pipe));
        HL_CHECK_OK(hl_rhi_cmd_set_bind_group(cmd, 0, f.group, &off, 1));
        HL_CHECK_OK(hl_rhi_cmd_set_vertex_buffer(cmd, 0, f.vbo, 0));
        HL_CHECK_OK(hl_rhi_cmd_set_viewport(cmd, 0, 0, 16, 16, 0, 1)); /* the pass default */
        HL_CHECK_OK(hl_rhi_cmd_set_stencil_reference(cmd, 0));
        HL_CHECK_OK(hl_rhi_cmd_draw(cmd, 3, 1, 0, 0));
    }
    HL_CHECK_EQ(dev->stats.pipeline_switches, 1);
    HL_CHECK_EQ(dev->stats.bind_group_switches, 1);
    HL_CHECK_EQ(dev->stats.vertex_buffer_switches, 1);
    HL_CHECK_EQ(dev->stats.redundant_state_skipped, 3 + 3 + 2 + 2 + 2);
    HL_CHECK_EQ(dev->stats.draws, 3);
    /* 3 binds + 3 draws reached the backend */
    HL_CHECK_EQ(dev->stats.native_calls, 6);
    off = 256;
    HL_CHECK_OK(hl_rhi_cmd_set_bind_group(cmd, 0, f.group, &off, 1));
    HL_CHECK_EQ(dev->stats.bind_group_switches, 2);

    /* packets: only changes reach the backend */
    hl_rhi_draw_packet pk[4];
    memset(pk, 0, sizeof pk);
    for (int i = 0; i < 4; i++) {
        pk[i].pipeline = f.pipe;
        pk[i].bind_groups[0] = f.group;
        pk[i].bind_group_count = 1;
        pk[i].dynamic_offset_mask = 1;
        pk[i].dynamic_offsets[0] = (uint32_t)(i / 2) * 256u;
        pk[i].vertex_buffers[0] = f.vbo;
        pk[i].vertex_buffer_count = 1;
        pk[i].count = 3;
    }
    hl_rhi_reset_stats(dev);
    uint32_t failed = 99;
    HL_CHECK_OK(hl_rhi_cmd_draw_packets(cmd, pk, 4, &failed));
    HL_CHECK_EQ(dev->stats.draws, 4);
    /* bound offset was 256: packet 0 switches to 0, packet 2 back to 256; pipeline and vbo unchanged */
    HL_CHECK_EQ(dev->stats.bind_group_switches, 2);
    HL_CHECK_EQ(dev->stats.pipeline_switches, 0);
    HL_CHECK_EQ(dev->stats.native_calls, 4 + 2);
    /* a bad packet stops the batch and names its index */
    pk[2].dynamic_offsets[0] = 8;
    hl_rhi_reset_stats(dev);
    HL_CHECK_RESULT(hl_rhi_cmd_draw_packets(cmd, pk, 4, &failed), HL_ERR_VALIDATION);
    HL_CHECK_EQ(failed, 2);
    HL_CHECK_EQ(dev->stats.draws, 2);
    HL_CHECK_OK(hl_rhi_cmd_end_render_pass(cmd));
    HL_CHECK_OK(hl_rhi_end_frame(dev, NULL));
    hl_rhi_device_destroy(dev);
}

static void test_steady_state_allocations(void) {
    hl_rhi_device *dev = new_null();
    if (!dev) return;
    fixture f;
    fixture_create(dev, &f);
    hl_rhi_color_attachment ca;
    hl_rhi_render_pass_desc rp = pass_desc(&f, &ca);
    uint64_t before = 0;
    for (int frame = 0; frame < 4; frame++) {
        if (frame == 3) before = hl_alloc_count();
        hl_rhi_cmd *cmd;
        HL_CHECK_OK(hl_rhi_begin_frame(dev, &cmd));
        HL_CHECK_OK(hl_rhi_buffer_write(dev, f.ubo, 0, &frame, 4));
        HL_CHECK_OK(hl_rhi_cmd_begin_render_pass(cmd, &rp));
        HL_CHECK_OK(hl_rhi_cmd_set_pipeline(cmd, f.pipe));
        HL_CHECK_OK(hl_rhi_cmd_set_vertex_buffer(cmd, 0, f.vbo, 0));
        for (uint32_t i = 0; i < 100; i++) {
            uint32_t off = (i % 4u) * 256u;
            HL_CHECK_OK(hl_rhi_cmd_set_bind_group(cmd, 0, f.group, &off, 1));
            HL_CHECK_OK(hl_rhi_cmd_draw(cmd, 3, 1, 0, 0));
        }
        HL_CHECK_OK(hl_rhi_cmd_end_render_pass(cmd));
        hl_rhi_submission s;
        HL_CHECK_OK(hl_rhi_end_frame(dev, &s));
        bool done;
        HL_CHECK_OK(hl_rhi_submission_poll(dev, s, &done));
    }
    HL_CHECK_EQ(hl_alloc_count() - before, 0);
    hl_rhi_device_destroy(dev);
}

/* A backend table that is the null one minus compute, to exercise feature checks. */
static hl_result no_compute_create(hl_rhi_device *dev, const hl_rhi_device_desc *desc) {
    hl_result r = hl__rhi_null_backend.device_create(dev, desc);
    dev->caps.features &= ~(uint32_t)(HL_RHI_FEATURE_COMPUTE | HL_RHI_FEATURE_STORAGE_BUFFER | HL_RHI_FEATURE_INDIRECT_DRAW);
    dev->caps.backend = HL_RHI_BACKEND_GLES3;
    return r;
}

static void test_selection_and_features(void) {
    hl_rhi_device_desc d = {0};
    d.backend = HL_RHI_BACKEND_GLES3;
    d.requirements.features = HL_RHI_FEATURE_COMPUTE;
    hl_rhi_device *dev = (hl_rhi_device *)1;
    uint64_t allocs = hl_alloc_count();
    HL_CHECK_RESULT(hl_rhi_device_create(&d, &dev), HL_ERR_UNSUPPORTED);
    HL_CHECK(dev == NULL);
    HL_CHECK_EQ(hl_alloc_count(), allocs); /* nothing was created */
    HL_CHECK(strstr(hl_last_error(), "compute") != NULL);
    HL_CHECK_RESULT(hl_rhi_probe(HL_RHI_BACKEND_GLES3, &d.requirements, NULL, 0), HL_ERR_UNSUPPORTED);
    d.backend = (hl_rhi_backend)42;
    HL_CHECK_RESULT(hl_rhi_device_create(&d, &dev), HL_ERR_VALIDATION);
    /* null satisfies every feature */
    d.backend = HL_RHI_BACKEND_NULL;
    d.requirements.features = HL_RHI_FEATURE_COMPUTE | HL_RHI_FEATURE_STORAGE_BUFFER;
    HL_CHECK_OK(hl_rhi_device_create(&d, &dev));
    HL_CHECK_EQ(hl_rhi_device_backend(dev), HL_RHI_BACKEND_NULL);
    hl_rhi_device_destroy(dev);
    char name[64];
    HL_CHECK_OK(hl_rhi_probe(HL_RHI_BACKEND_NULL, NULL, name, sizeof name));

    /* a device lacking a required feature is destroyed and refused */
    hl__rhi_backend_fns fns = hl__rhi_null_backend;
    fns.device_create = no_compute_create;
    d.requirements.features = HL_RHI_FEATURE_COMPUTE;
    HL_CHECK_RESULT(hl__rhi_device_create_with(&fns, &d, &dev), HL_ERR_UNSUPPORTED);
    /* feature-gated calls on a device without compute */
    d.requirements.features = 0;
    HL_CHECK_OK(hl__rhi_device_create_with(&fns, &d, &dev));
    if (!dev) return;
    uint64_t calls = dev->stats.native_calls;
    hl_rhi_buffer_desc bd = {64, HL_RHI_BUFFER_USAGE_STORAGE, NULL, NULL};
    hl_rhi_buffer b;
    HL_CHECK_RESULT(hl_rhi_buffer_create(dev, &bd, &b), HL_ERR_UNSUPPORTED);
    hl_rhi_shader_desc sd = {0};
    sd.stage = HL_RHI_SHADER_COMPUTE;
    sd.glsl = "void main(){}";
    hl_rhi_shader s;
    HL_CHECK_RESULT(hl_rhi_shader_create(dev, &sd, &s), HL_ERR_UNSUPPORTED);
    sd.stage = HL_RHI_SHADER_VERTEX;
    sd.glsl = NULL;
    sd.spirv = fake_spirv;
    sd.spirv_word_count = 4;
    HL_CHECK_RESULT(hl_rhi_shader_create(dev, &sd, &s), HL_ERR_VALIDATION); /* gles3 needs glsl */
    hl_rhi_compute_pipeline_desc cpd = {0};
    hl_rhi_compute_pipeline cp;
    HL_CHECK_RESULT(hl_rhi_compute_pipeline_create(dev, &cpd, &cp), HL_ERR_UNSUPPORTED);
    hl_rhi_cmd *cmd;
    HL_CHECK_OK(hl_rhi_begin_frame(dev, &cmd));
    calls = dev->stats.native_calls;
    HL_CHECK_RESULT(hl_rhi_cmd_begin_compute_pass(cmd, NULL), HL_ERR_UNSUPPORTED);
    HL_CHECK_RESULT(hl_rhi_cmd_draw_indirect(cmd, (hl_rhi_buffer){0}, 0), HL_ERR_UNSUPPORTED);
    HL_CHECK_EQ(dev->stats.native_calls, calls);
    hl_rhi_abort_frame(dev);
    HL_CHECK(!hl_rhi_frame_is_open(dev));
    hl_rhi_device_destroy(dev);
}

static void test_device_lost(void) {
    hl_rhi_device *dev = new_null();
    if (!dev) return;
    hl_rhi_buffer b = make_buffer(dev, 16, HL_RHI_BUFFER_USAGE_COPY_DST);
    dev->lost = true;
    uint32_t v = 0;
    HL_CHECK_RESULT(hl_rhi_buffer_write(dev, b, 0, &v, 4), HL_ERR_DEVICE_LOST);
    hl_rhi_cmd *cmd;
    HL_CHECK_RESULT(hl_rhi_begin_frame(dev, &cmd), HL_ERR_DEVICE_LOST);
    hl_rhi_buffer_desc bd = {16, HL_RHI_BUFFER_USAGE_VERTEX, NULL, NULL};
    HL_CHECK_RESULT(hl_rhi_buffer_create(dev, &bd, &b), HL_ERR_DEVICE_LOST);
    hl_rhi_device_destroy(dev);
}

/* ---- waits with timeouts (a null device with simulated GPU latency) ------------------------ */
static uint64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static hl_rhi_submission submit_empty_frame(hl_rhi_device *dev) {
    hl_rhi_cmd *cmd = NULL;
    hl_rhi_submission s = {0};
    HL_CHECK_OK(hl_rhi_begin_frame(dev, &cmd));
    HL_CHECK_OK(hl_rhi_end_frame(dev, &s));
    return s;
}

static void test_wait_timeouts(void) {
    hl_rhi_device_desc d = {0};
    d.backend = HL_RHI_BACKEND_NULL;
    d.wait_timeout_ms = 60;
    hl_rhi_device *dev = NULL;
    HL_CHECK_OK(hl_rhi_device_create(&d, &dev));
    if (!dev) return;
    hl_rhi_buffer b = make_buffer(dev, 16, HL_RHI_BUFFER_USAGE_MAP_READ | HL_RHI_BUFFER_USAGE_COPY_DST);
    const uint32_t data[4] = {1, 2, 3, 4};
    HL_CHECK_OK(hl_rhi_buffer_write(dev, b, 0, data, sizeof data));

    /* a submission that needs 400 ms of "GPU" time against a 60 ms timeout */
    hl__rhi_null_set_latency(dev, 400u * 1000000u);
    hl_rhi_submission s = submit_empty_frame(dev);
    uint64_t t0 = now_ms();
    HL_CHECK_RESULT(hl_rhi_device_wait_idle(dev), HL_ERR_TIMEOUT);
    uint64_t waited = now_ms() - t0;
    HL_CHECK_MSG(waited >= 55 && waited < 350, "wait_idle gave up after %llu ms (timeout 60 ms)",
                 (unsigned long long)waited);
    HL_CHECK(strstr(hl_last_error(), "hl_rhi_device_wait_idle") != NULL);
    HL_CHECK(strstr(hl_last_error(), "60 ms") != NULL);
    HL_CHECK(strstr(hl_last_error(), "submission 1") != NULL);

    /* readback: the same timeout, naming the read; dst untouched */
    uint32_t got[4] = {7, 7, 7, 7};
    HL_CHECK_RESULT(hl_rhi_buffer_read(dev, b, 0, got, sizeof got), HL_ERR_TIMEOUT);
    HL_CHECK(strstr(hl_last_error(), "hl_rhi_buffer_read") != NULL);
    HL_CHECK_EQ(got[0], 7);
    bool done = true;
    HL_CHECK_OK(hl_rhi_submission_poll(dev, s, &done));
    HL_CHECK(!done);
    /* an explicit short wait times out too, a long one succeeds: the device stayed consistent */
    HL_CHECK_RESULT(hl_rhi_submission_wait(dev, s, 1000000u), HL_ERR_TIMEOUT);
    HL_CHECK(strstr(hl_last_error(), "1 ms") != NULL);
    HL_CHECK_OK(hl_rhi_submission_wait(dev, s, 5000000000ull));
    HL_CHECK_MSG(now_ms() - t0 >= 390, "the submission completed after %llu ms (latency 400 ms)",
                 (unsigned long long)(now_ms() - t0));
    HL_CHECK_OK(hl_rhi_submission_poll(dev, s, &done));
    HL_CHECK(done);
    HL_CHECK_OK(hl_rhi_buffer_read(dev, b, 0, got, sizeof got));
    HL_CHECK_EQ(got[3], 4);

    /* a raised timeout lets the implicit waits ride out the latency */
    hl__rhi_null_set_latency(dev, 150u * 1000000u);
    submit_empty_frame(dev);
    HL_CHECK_RESULT(hl_rhi_buffer_read(dev, b, 0, got, sizeof got), HL_ERR_TIMEOUT);
    HL_CHECK_OK(hl_rhi_device_set_wait_timeout(dev, HL_RHI_WAIT_FOREVER));
    HL_CHECK_OK(hl_rhi_buffer_read(dev, b, 0, got, sizeof got));
    HL_CHECK_EQ(got[1], 2);

    /* objects destroyed while a submission runs are released once it completed */
    HL_CHECK_OK(hl_rhi_device_set_wait_timeout(dev, 0)); /* back to the default: 10 s */
    hl_rhi_submission s2 = submit_empty_frame(dev);
    (void)s2;
    HL_CHECK_OK(hl_rhi_device_wait_idle(dev));

    /* destroy with a submission still running: waits at most the timeout, releases everything */
    HL_CHECK_OK(hl_rhi_device_set_wait_timeout(dev, 50));
    hl__rhi_null_set_latency(dev, 3000u * 1000000u);
    submit_empty_frame(dev);
    t0 = now_ms();
    hl_rhi_device_destroy(dev);
    waited = now_ms() - t0;
    HL_CHECK_MSG(waited < 1000, "destroy took %llu ms with a 50 ms timeout", (unsigned long long)waited);
    HL_CHECK_EQ(hl_last_error_code(), HL_ERR_TIMEOUT);
    HL_CHECK(strstr(hl_last_error(), "hl_rhi_device_destroy") != NULL);

    /* the resolved defaults */
    HL_CHECK_EQ(hl__wait_timeout_ns(0), 10000000000ull);
    HL_CHECK_EQ(hl__wait_timeout_ns(250), 250000000ull);
    HL_CHECK(hl__wait_timeout_ns(HL_RHI_WAIT_FOREVER) == UINT64_MAX);
}

/* ---- threads: a device belongs to one thread; hand-over by detach / attach ------------------ */
typedef struct thread_job {
    hl_rhi_device *dev;
    hl_rhi_buffer buf;
    int attach; /* 1: attach first, use, detach */
    hl_result begin, create, read, wait, attach_r, detach_r, destroy_code, check;
    char message[512], check_message[512];
    uint32_t read_value;
} thread_job;

static void *thread_use(void *arg) {
    thread_job *j = arg;
    if (j->attach) j->attach_r = hl_rhi_device_attach(j->dev);
    j->check = hl_rhi_device_check_thread(j->dev, "layer_call");
    snprintf(j->check_message, sizeof j->check_message, "%s", hl_last_error());
    hl_rhi_cmd *cmd = NULL;
    j->begin = hl_rhi_begin_frame(j->dev, &cmd);
    snprintf(j->message, sizeof j->message, "%s", hl_last_error());
    if (!j->begin) {
        hl_rhi_submission s;
        hl_rhi_end_frame(j->dev, &s);
    }
    hl_rhi_buffer_desc bd = {0};
    bd.size = 16;
    bd.usage = HL_RHI_BUFFER_USAGE_MAP_READ | HL_RHI_BUFFER_USAGE_COPY_DST;
    hl_rhi_buffer b = {0};
    j->create = hl_rhi_buffer_create(j->dev, &bd, &b);
    if (!j->create) hl_rhi_buffer_destroy(j->dev, b);
    j->read = hl_rhi_buffer_read(j->dev, j->buf, 0, &j->read_value, 4);
    j->wait = hl_rhi_device_wait_idle(j->dev);
    /* a void call from the wrong thread leaves its message and does nothing */
    hl_clear_error();
    hl_rhi_buffer_destroy(j->dev, j->buf);
    j->destroy_code = hl_last_error_code();
    if (j->attach) j->detach_r = hl_rhi_device_detach(j->dev);
    return NULL;
}

static void *thread_destroy(void *arg) {
    thread_job *j = arg;
    hl_clear_error();
    hl_rhi_device_destroy(j->dev);
    j->destroy_code = hl_last_error_code();
    return NULL;
}

static void run_thread(void *(*fn)(void *), thread_job *j) {
    pthread_t t;
    HL_CHECK(pthread_create(&t, NULL, fn, j) == 0);
    pthread_join(t, NULL);
}

static void test_thread_ownership(void) {
    hl_rhi_device *dev = new_null();
    if (!dev) return;
    hl_rhi_buffer b = make_buffer(dev, 16, HL_RHI_BUFFER_USAGE_MAP_READ | HL_RHI_BUFFER_USAGE_COPY_DST);
    const uint32_t v = 0xC0FFEEu;
    HL_CHECK_OK(hl_rhi_buffer_write(dev, b, 0, &v, 4));

    /* 1. another thread without a hand-over: every entry point refuses, naming both threads */
    thread_job j;
    memset(&j, 0, sizeof j);
    j.dev = dev;
    j.buf = b;
    run_thread(thread_use, &j);
    HL_CHECK_EQ(j.check, HL_ERR_INVALID_STATE);
    HL_CHECK_MSG(strncmp(j.check_message, "layer_call: the device belongs to thread ", 41) == 0, "message: %s",
                 j.check_message);
    HL_CHECK_OK(hl_rhi_device_check_thread(dev, "layer_call"));
    HL_CHECK_RESULT(hl_rhi_device_check_thread(NULL, "layer_call"), HL_ERR_VALIDATION);
    HL_CHECK_EQ(j.begin, HL_ERR_INVALID_STATE);
    HL_CHECK_EQ(j.create, HL_ERR_INVALID_STATE);
    HL_CHECK_EQ(j.read, HL_ERR_INVALID_STATE);
    HL_CHECK_EQ(j.wait, HL_ERR_INVALID_STATE);
    HL_CHECK_EQ(j.destroy_code, HL_ERR_INVALID_STATE);
    HL_CHECK_MSG(strstr(j.message, "hl_rhi_begin_frame: the device belongs to thread ") != NULL &&
                     strstr(j.message, "not to the calling thread ") != NULL &&
                     strstr(j.message, "hl_rhi_device_detach") != NULL,
                 "message: %s", j.message);
    /* nothing changed on the owner: the buffer is alive, no frame is open */
    uint32_t got = 0;
    HL_CHECK_OK(hl_rhi_buffer_read(dev, b, 0, &got, 4));
    HL_CHECK_EQ(got, v);
    HL_CHECK(!hl_rhi_frame_is_open(dev));

    /* 2. detach refuses with an open frame; attach on the owner is a no-op */
    hl_rhi_cmd *cmd = NULL;
    HL_CHECK_OK(hl_rhi_begin_frame(dev, &cmd));
    HL_CHECK_RESULT(hl_rhi_device_detach(dev), HL_ERR_INVALID_STATE);
    hl_rhi_abort_frame(dev);
    HL_CHECK_OK(hl_rhi_device_attach(dev));

    /* 3. hand-over: detach here, the other thread attaches, uses it, detaches */
    HL_CHECK_OK(hl_rhi_device_detach(dev));
    HL_CHECK_RESULT(hl_rhi_buffer_write(dev, b, 0, &v, 4), HL_ERR_INVALID_STATE); /* detached: nobody's */
    HL_CHECK(strstr(hl_last_error(), "detached") != NULL);
    HL_CHECK_RESULT(hl_rhi_device_detach(dev), HL_ERR_INVALID_STATE);
    memset(&j, 0, sizeof j);
    j.dev = dev;
    j.buf = b;
    j.attach = 1;
    run_thread(thread_use, &j);
    HL_CHECK_EQ(j.attach_r, HL_OK);
    HL_CHECK_EQ(j.check, HL_OK);
    HL_CHECK_EQ(j.begin, HL_OK);
    HL_CHECK_EQ(j.create, HL_OK);
    HL_CHECK_EQ(j.read, HL_OK);
    HL_CHECK_EQ(j.read_value, v);
    HL_CHECK_EQ(j.wait, HL_OK);
    HL_CHECK_EQ(j.destroy_code, HL_OK); /* it owned the device: the buffer is gone */
    HL_CHECK_EQ(j.detach_r, HL_OK);
    HL_CHECK_OK(hl_rhi_device_attach(dev));
    HL_CHECK_RESULT(hl_rhi_buffer_read(dev, b, 0, &got, 4), HL_ERR_VALIDATION); /* destroyed over there */

    /* 4. a detached device may be destroyed from any thread */
    HL_CHECK_OK(hl_rhi_device_detach(dev));
    memset(&j, 0, sizeof j);
    j.dev = dev;
    run_thread(thread_destroy, &j);
    HL_CHECK_EQ(j.destroy_code, HL_OK);
}

/* attach from a second thread while the first owns the device */
static void *thread_attach_only(void *arg) {
    thread_job *j = arg;
    j->attach_r = hl_rhi_device_attach(j->dev);
    snprintf(j->message, sizeof j->message, "%s", hl_last_error());
    return NULL;
}

static void test_thread_attach_owned(void) {
    hl_rhi_device *dev = new_null();
    if (!dev) return;
    thread_job j;
    memset(&j, 0, sizeof j);
    j.dev = dev;
    run_thread(thread_attach_only, &j);
    HL_CHECK_EQ(j.attach_r, HL_ERR_INVALID_STATE);
    HL_CHECK_MSG(strstr(j.message, "still belongs to thread") != NULL, "message: %s", j.message);
    /* the owner keeps it */
    HL_CHECK_OK(hl_rhi_device_wait_idle(dev));
    hl_rhi_device_destroy(dev);
}

int main(void) {
    test_results_and_formats();
    test_handles();
    test_create_validation();
    test_bind_group_compat();
    test_pass_state_machine();
    test_render_pass_validation();
    test_copies();
    test_caches();
    test_deferred_release();
    test_state_cache_and_packets();
    test_steady_state_allocations();
    test_selection_and_features();
    test_device_lost();
    test_wait_timeouts();
    test_thread_ownership();
    test_thread_attach_owned();
    return hl_test_finish();
}
