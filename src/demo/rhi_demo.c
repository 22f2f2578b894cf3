/* The RHI demo scene (see hl_rhi_demo.h). */
#include "hl_rhi_demo.h"

#include <math.h>
#include <string.h>
#include <time.h>

#include "hl_shader.h"
#include "hl_base.h"

static const char *k_vs =
    "#version 300 es\n"
    "layout(std140) uniform Draw { mat4 u_transform; vec4 u_tint; };\n"
    "in vec3 a_position;\n"
    "in vec4 a_color;\n"
    "in vec2 a_uv;\n"
    "out vec4 v_color;\n"
    "out vec2 v_uv;\n"
    "void main() {\n"
    "    v_color = a_color * u_tint;\n"
    "    v_uv = a_uv;\n"
    "    gl_Position = u_transform * vec4(a_position, 1.0);\n"
    "}\n";

static const char *k_fs =
    "#version 300 es\n"
    "precision highp float;\n"
    "uniform sampler2D u_tex;\n"
    "in vec4 v_color;\n"
    "in vec2 v_uv;\n"
    "layout(location = 0) out vec4 o_color;\n"
    "void main() { o_color = v_color * texture(u_tex, v_uv); }\n";

typedef struct demo_vertex {
    float pos[3];
    uint8_t color[4];
    float uv[2];
} demo_vertex;

/* One UBO slice per draw: mat4 + vec4, padded to the 256-byte dynamic offset alignment. */
typedef struct demo_uniforms {
    float transform[16];
    float tint[4];
    uint8_t pad[256 - 80];
} demo_uniforms;

typedef struct demo_draw {
    float angle, scale_x, scale_y, x, y, z;
    float tint[4];
    uint32_t first_index, index_count;
    bool textured, blended;
} demo_draw;

/* Column-major: rotate in the xy plane, scale, translate; z is replaced by the draw's depth. */
static void demo_transform(const demo_draw *d, float *m) {
    float c = cosf(d->angle), s = sinf(d->angle);
    memset(m, 0, 16 * sizeof(float));
    m[0] = c * d->scale_x;
    m[1] = s * d->scale_x;
    m[4] = -s * d->scale_y;
    m[5] = c * d->scale_y;
    m[10] = 0.0f;
    m[12] = d->x;
    m[13] = d->y;
    m[14] = d->z;
    m[15] = 1.0f;
}

typedef struct demo_gpu {
    hl_shader_program prog;
    hl_rhi_shader vs, fs;
    hl_rhi_bind_group_layout bgl[2];
    hl_rhi_pipeline_layout layout;
    hl_rhi_render_pipeline opaque, blended;
    hl_rhi_buffer vbo, ibo, ubo;
    hl_rhi_texture white, checker, color, resolve, depth;
    hl_rhi_texture_view white_view, checker_view, color_view, resolve_view, depth_view;
    hl_rhi_sampler sampler;
    hl_rhi_bind_group ubo_group, white_group, checker_group;
} demo_gpu;

static void demo_release(hl_rhi_device *dev, demo_gpu *g) {
    hl_rhi_bind_group_destroy(dev, g->ubo_group);
    hl_rhi_bind_group_destroy(dev, g->white_group);
    hl_rhi_bind_group_destroy(dev, g->checker_group);
    hl_rhi_sampler_destroy(dev, g->sampler);
    hl_rhi_texture_view_destroy(dev, g->white_view);
    hl_rhi_texture_view_destroy(dev, g->checker_view);
    hl_rhi_texture_view_destroy(dev, g->color_view);
    hl_rhi_texture_view_destroy(dev, g->resolve_view);
    hl_rhi_texture_view_destroy(dev, g->depth_view);
    hl_rhi_texture_destroy(dev, g->white);
    hl_rhi_texture_destroy(dev, g->checker);
    hl_rhi_texture_destroy(dev, g->color);
    hl_rhi_texture_destroy(dev, g->resolve);
    hl_rhi_texture_destroy(dev, g->depth);
    hl_rhi_buffer_destroy(dev, g->vbo);
    hl_rhi_buffer_destroy(dev, g->ibo);
    hl_rhi_buffer_destroy(dev, g->ubo);
    hl_rhi_render_pipeline_destroy(dev, g->opaque);
    hl_rhi_render_pipeline_destroy(dev, g->blended);
    hl_rhi_pipeline_layout_destroy(dev, g->layout);
    hl_rhi_bind_group_layout_destroy(dev, g->bgl[0]);
    hl_rhi_bind_group_layout_destroy(dev, g->bgl[1]);
    hl_rhi_shader_destroy(dev, g->vs);
    hl_rhi_shader_destroy(dev, g->fs);
    hl_shader_program_free(&g->prog);
}

static hl_result demo_texture(hl_rhi_device *dev, uint32_t w, uint32_t h, uint32_t usage, uint32_t samples,
                              hl_rhi_format format, hl_rhi_texture *tex, hl_rhi_texture_view *view) {
    hl_rhi_texture_desc td = {0};
    td.format = format;
    td.width = w;
    td.height = h;
    td.sample_count = samples;
    td.usage = usage;
    hl_result r = hl_rhi_texture_create(dev, &td, tex);
    return r ? r : hl_rhi_texture_view_create(dev, *tex, NULL, view);
}

#define DEMO_TRY(expr)                                                                                 \
    do {                                                                                               \
        r = (expr);                                                                                    \
        if (r) goto done;                                                                              \
    } while (0)

hl_result hl_rhi_demo_render(hl_rhi_device *dev, const hl_rhi_demo_desc *desc, uint8_t *rgba, uint64_t *frame_ns) {
    hl_rhi_demo_desc d = {0};
    if (desc) d = *desc;
    if (!d.width) d.width = 512;
    if (!d.height) d.height = 512;
    if (!d.sample_count) d.sample_count = 4;
    if (d.sample_count != 1 && d.sample_count != 4)
        return hl__fail(HL_ERR_VALIDATION, "hl_rhi_demo_render: sample_count %u (must be 1 or 4)", d.sample_count);
    if (!rgba) return hl__fail(HL_ERR_VALIDATION, "hl_rhi_demo_render: rgba is NULL");

    demo_gpu g;
    memset(&g, 0, sizeof(g));
    hl_result r;

    static const hl_rhi_binding_plan_entry plan[] = {
        {HL_RHI_PLAN_UNIFORM_BLOCK, "Draw", 0, 0, 0},
        {HL_RHI_PLAN_SAMPLER, "u_tex", 1, 0, 1},
    };
    hl_shader_program_desc pd = {0};
    pd.vertex_source = k_vs;
    pd.fragment_source = k_fs;
    pd.bindings = plan;
    pd.binding_count = 2;
    pd.label = "rhi-demo";
    DEMO_TRY(hl_shader_program_compile(&pd, hl_rhi_device_backend(dev), &g.prog));
    DEMO_TRY(hl_shader_program_create_shaders(dev, &g.prog, &g.vs, &g.fs));

    hl_rhi_bind_group_layout_entry e0 = {0};
    e0.binding = 0;
    e0.visibility = HL_RHI_STAGE_VERTEX;
    e0.type = HL_RHI_BINDING_UNIFORM_BUFFER;
    e0.has_dynamic_offset = true;
    e0.min_binding_size = 80;
    hl_rhi_bind_group_layout_desc bd = {&e0, 1, "demo.draw"};
    DEMO_TRY(hl_rhi_bind_group_layout_create(dev, &bd, &g.bgl[0]));
    hl_rhi_bind_group_layout_entry e1[2] = {{0}, {0}};
    e1[0].binding = 0;
    e1[0].visibility = HL_RHI_STAGE_FRAGMENT;
    e1[0].type = HL_RHI_BINDING_SAMPLED_TEXTURE;
    e1[1].binding = 1;
    e1[1].visibility = HL_RHI_STAGE_FRAGMENT;
    e1[1].type = HL_RHI_BINDING_SAMPLER;
    bd = (hl_rhi_bind_group_layout_desc){e1, 2, "demo.material"};
    DEMO_TRY(hl_rhi_bind_group_layout_create(dev, &bd, &g.bgl[1]));
    hl_rhi_pipeline_layout_desc pld = {g.bgl, 2, "demo"};
    DEMO_TRY(hl_rhi_pipeline_layout_create(dev, &pld, &g.layout));

    hl_rhi_vertex_attribute attrs[3] = {
        {HL_RHI_VERTEX_FLOAT32X3, offsetof(demo_vertex, pos), 0},
        {HL_RHI_VERTEX_UNORM8X4, offsetof(demo_vertex, color), 1},
        {HL_RHI_VERTEX_FLOAT32X2, offsetof(demo_vertex, uv), 2},
    };
    /* Locations follow the reflection of the vertex inputs by name. */
    const hl_shader_reflection *refl = &g.prog.reflection;
    for (uint32_t i = 0; i < refl->input_count; i++) {
        if (strcmp(refl->inputs[i].name, "a_position") == 0) attrs[0].location = refl->inputs[i].location;
        if (strcmp(refl->inputs[i].name, "a_color") == 0) attrs[1].location = refl->inputs[i].location;
        if (strcmp(refl->inputs[i].name, "a_uv") == 0) attrs[2].location = refl->inputs[i].location;
    }
    hl_rhi_vertex_buffer_layout vbl = {sizeof(demo_vertex), false, attrs, 3};
    hl_rhi_color_target_state ct = {0};
    ct.format = HL_RHI_FORMAT_RGBA8_UNORM;
    hl_rhi_render_pipeline_desc rpd = {0};
    rpd.layout = g.layout;
    rpd.vertex = g.vs;
    rpd.fragment = g.fs;
    rpd.vertex_buffers = &vbl;
    rpd.vertex_buffer_count = 1;
    rpd.depth_stencil.format = HL_RHI_FORMAT_DEPTH24_PLUS;
    rpd.depth_stencil.depth_write = true;
    rpd.depth_stencil.depth_compare = HL_RHI_COMPARE_LESS;
    rpd.color_targets = &ct;
    rpd.color_target_count = 1;
    rpd.sample_count = d.sample_count;
    rpd.label = "demo.opaque";
    DEMO_TRY(hl_rhi_render_pipeline_create(dev, &rpd, &g.opaque));
    ct.blend_enabled = true;
    ct.color = (hl_rhi_blend_component){HL_RHI_BLEND_SRC_ALPHA, HL_RHI_BLEND_ONE_MINUS_SRC_ALPHA, HL_RHI_BLEND_OP_ADD};
    ct.alpha = (hl_rhi_blend_component){HL_RHI_BLEND_ONE, HL_RHI_BLEND_ONE_MINUS_SRC_ALPHA, HL_RHI_BLEND_OP_ADD};
    rpd.depth_stencil.depth_write = false;
    rpd.label = "demo.blended";
    DEMO_TRY(hl_rhi_render_pipeline_create(dev, &rpd, &g.blended));

    /* Geometry: a unit quad (indices 0..5) and a triangle (6..8), both centred on the origin. */
    static const demo_vertex verts[] = {
        {{-1, -1, 0}, {255, 255, 255, 255}, {0, 1}}, {{1, -1, 0}, {255, 255, 255, 255}, {1, 1}},
        {{1, 1, 0}, {255, 255, 255, 255}, {1, 0}},   {{-1, 1, 0}, {255, 255, 255, 255}, {0, 0}},
        {{0, 1, 0}, {255, 64, 64, 255}, {0.5f, 0}},  {{-0.87f, -0.5f, 0}, {64, 255, 64, 255}, {0, 1}},
        {{0.87f, -0.5f, 0}, {64, 64, 255, 255}, {1, 1}},
    };
    static const uint16_t indices[] = {0, 1, 2, 0, 2, 3, 4, 5, 6, 0};
    hl_rhi_buffer_desc bdesc = {sizeof(verts), HL_RHI_BUFFER_USAGE_VERTEX | HL_RHI_BUFFER_USAGE_COPY_DST, verts, "demo.vbo"};
    DEMO_TRY(hl_rhi_buffer_create(dev, &bdesc, &g.vbo));
    bdesc = (hl_rhi_buffer_desc){sizeof(indices), HL_RHI_BUFFER_USAGE_INDEX | HL_RHI_BUFFER_USAGE_COPY_DST, indices, "demo.ibo"};
    DEMO_TRY(hl_rhi_buffer_create(dev, &bdesc, &g.ibo));

    const float pi = 3.14159265f;
    const demo_draw draws[] = {
        /* background: quad tinted teal-blue */
        {0, 1, 1, 0, 0, 0.95f, {0.10f, 0.22f, 0.32f, 1}, 0, 6, false, false},
        /* checkered board, rotated */
        {pi / 12, 0.55f, 0.55f, -0.05f, 0.02f, 0.5f, {1, 1, 1, 1}, 0, 6, true, false},
        /* triangles: two in front of the board, one behind it (partly hidden) */
        {0.0f, 0.35f, 0.35f, -0.45f, 0.45f, 0.3f, {1, 1, 1, 1}, 6, 3, false, false},
        {pi, 0.30f, 0.30f, 0.50f, -0.40f, 0.3f, {1, 1, 1, 1}, 6, 3, false, false},
        {pi / 2, 0.45f, 0.45f, 0.45f, 0.45f, 0.7f, {1, 0.9f, 0.5f, 1}, 6, 3, false, false},
        /* translucent pane in front of everything */
        {0, 0.9f, 0.18f, 0, -0.62f, 0.1f, {1.0f, 0.85f, 0.2f, 0.5f}, 0, 6, false, true},
    };
    enum { DRAW_COUNT = sizeof(draws) / sizeof(draws[0]) };
    demo_uniforms uni[DRAW_COUNT];
    memset(uni, 0, sizeof(uni));
    for (uint32_t i = 0; i < DRAW_COUNT; i++) {
        demo_transform(&draws[i], uni[i].transform);
        memcpy(uni[i].tint, draws[i].tint, sizeof(uni[i].tint));
    }
    bdesc = (hl_rhi_buffer_desc){sizeof(uni), HL_RHI_BUFFER_USAGE_UNIFORM | HL_RHI_BUFFER_USAGE_COPY_DST, uni, "demo.ubo"};
    DEMO_TRY(hl_rhi_buffer_create(dev, &bdesc, &g.ubo));

    /* Textures: 1x1 white, 8x8 checker. */
    const uint32_t tex_usage = HL_RHI_TEXTURE_USAGE_SAMPLED | HL_RHI_TEXTURE_USAGE_COPY_DST;
    DEMO_TRY(demo_texture(dev, 1, 1, tex_usage, 1, HL_RHI_FORMAT_RGBA8_UNORM, &g.white, &g.white_view));
    DEMO_TRY(demo_texture(dev, 8, 8, tex_usage, 1, HL_RHI_FORMAT_RGBA8_UNORM, &g.checker, &g.checker_view));
    static const uint8_t white[4] = {255, 255, 255, 255};
    hl_rhi_texture_region all = {0};
    DEMO_TRY(hl_rhi_texture_write(dev, g.white, &all, white, 0));
    uint8_t checker[8 * 8 * 4];
    for (uint32_t y = 0; y < 8; y++)
        for (uint32_t x = 0; x < 8; x++) {
            uint8_t *p = checker + (y * 8 + x) * 4;
            bool on = ((x ^ y) & 1) != 0;
            p[0] = on ? 240 : 40;
            p[1] = on ? 240 : 60;
            p[2] = on ? 230 : 90;
            p[3] = 255;
        }
    DEMO_TRY(hl_rhi_texture_write(dev, g.checker, &all, checker, 0));
    hl_rhi_sampler_desc smp = {0};
    DEMO_TRY(hl_rhi_sampler_create(dev, &smp, &g.sampler));

    hl_rhi_bind_group_entry be = {0};
    be.binding = 0;
    be.buffer = g.ubo;
    be.size = sizeof(demo_uniforms);
    hl_rhi_bind_group_desc bgd = {g.bgl[0], &be, 1, "demo.draw"};
    DEMO_TRY(hl_rhi_bind_group_create(dev, &bgd, &g.ubo_group));
    hl_rhi_bind_group_entry te[2] = {{0}, {0}};
    te[0].binding = 0;
    te[0].view = g.white_view;
    te[1].binding = 1;
    te[1].sampler = g.sampler;
    bgd = (hl_rhi_bind_group_desc){g.bgl[1], te, 2, "demo.white"};
    DEMO_TRY(hl_rhi_bind_group_create(dev, &bgd, &g.white_group));
    te[0].view = g.checker_view;
    bgd.label = "demo.checker";
    DEMO_TRY(hl_rhi_bind_group_create(dev, &bgd, &g.checker_group));

    /* Targets. */
    const uint32_t att = HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT;
    const uint32_t out_usage = att | HL_RHI_TEXTURE_USAGE_COPY_SRC | HL_RHI_TEXTURE_USAGE_SAMPLED;
    if (d.sample_count > 1) {
        DEMO_TRY(demo_texture(dev, d.width, d.height, att, d.sample_count, HL_RHI_FORMAT_RGBA8_UNORM, &g.color,
                              &g.color_view));
        DEMO_TRY(demo_texture(dev, d.width, d.height, out_usage, 1, HL_RHI_FORMAT_RGBA8_UNORM, &g.resolve,
                              &g.resolve_view));
    } else {
        DEMO_TRY(demo_texture(dev, d.width, d.height, out_usage, 1, HL_RHI_FORMAT_RGBA8_UNORM, &g.color,
                              &g.color_view));
    }
    DEMO_TRY(demo_texture(dev, d.width, d.height, att, d.sample_count, HL_RHI_FORMAT_DEPTH24_PLUS, &g.depth,
                          &g.depth_view));

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    hl_rhi_cmd *cmd = NULL;
    DEMO_TRY(hl_rhi_begin_frame(dev, &cmd));
    hl_rhi_color_attachment ca = {0};
    ca.view = g.color_view;
    ca.resolve_target = g.resolve_view;
    ca.load_op = HL_RHI_LOAD_CLEAR;
    ca.store_op = d.sample_count > 1 ? HL_RHI_STORE_DISCARD : HL_RHI_STORE_STORE;
    ca.clear_color[0] = 0.02f;
    ca.clear_color[1] = 0.02f;
    ca.clear_color[2] = 0.03f;
    ca.clear_color[3] = 1.0f;
    hl_rhi_render_pass_desc rp = {0};
    rp.color_attachments = &ca;
    rp.color_attachment_count = 1;
    rp.depth_stencil.view = g.depth_view;
    rp.depth_stencil.depth_load_op = HL_RHI_LOAD_CLEAR;
    rp.depth_stencil.depth_store_op = HL_RHI_STORE_DISCARD;
    rp.depth_stencil.depth_clear_value = 1.0f;
    rp.label = "demo.main";
    r = hl_rhi_cmd_begin_render_pass(cmd, &rp);
    for (uint32_t i = 0; !r && i < DRAW_COUNT; i++) {
        uint32_t off = i * (uint32_t)sizeof(demo_uniforms);
        r = hl_rhi_cmd_set_pipeline(cmd, draws[i].blended ? g.blended : g.opaque);
        if (!r) r = hl_rhi_cmd_set_bind_group(cmd, 0, g.ubo_group, &off, 1);
        if (!r) r = hl_rhi_cmd_set_bind_group(cmd, 1, draws[i].textured ? g.checker_group : g.white_group, NULL, 0);
        if (!r) r = hl_rhi_cmd_set_vertex_buffer(cmd, 0, g.vbo, 0);
        if (!r) r = hl_rhi_cmd_set_index_buffer(cmd, g.ibo, HL_RHI_INDEX_UINT16, 0);
        if (!r) r = hl_rhi_cmd_draw_indexed(cmd, draws[i].index_count, 1, draws[i].first_index, 0, 0);
    }
    if (!r) r = hl_rhi_cmd_end_render_pass(cmd);
    hl_rhi_submission sub = {0};
    if (!r) r = hl_rhi_end_frame(dev, &sub);
    else hl_rhi_abort_frame(dev);
    if (!r) r = hl_rhi_submission_wait(dev, sub, UINT64_MAX);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (frame_ns) *frame_ns = (uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000000ull + (uint64_t)(t1.tv_nsec - t0.tv_nsec);
    if (r) goto done;
    DEMO_TRY(hl_rhi_texture_read(dev, d.sample_count > 1 ? g.resolve : g.color, &all, rgba, 0));

done:
    if (hl_rhi_frame_is_open(dev)) hl_rhi_abort_frame(dev);
    demo_release(dev, &g);
    return r;
}
