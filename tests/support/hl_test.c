/* Test support implementation: see hl_test.h. */
#include "hl_test.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBIW_ASSERT(x) ((void)(x))
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wsign-compare"
#endif
#include <stb/stb_image_write.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

static int g_passed, g_failed;

void hl_test_check(int ok, const char *file, int line, const char *fmt, ...) {
    if (ok) {
        g_passed++;
        return;
    }
    g_failed++;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s:%d: FAILED: ", file, line);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int hl_test_failures(void) { return g_failed; }

int hl_test_finish(void) {
    if (g_passed + g_failed == 0) {
        printf("0 passed, 1 failed: no check ran\n");
        return 1;
    }
    printf("%d passed, %d failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}

void hl_test_check_pixel(const uint8_t *px, int r, int g, int b, int a, int tol, const char *file, int line,
                         const char *what) {
    int want[4] = {r, g, b, a};
    int ok = 1;
    for (int i = 0; i < 4; i++) {
        if (want[i] < 0) continue; /* -1: channel not checked */
        int d = (int)px[i] - want[i];
        if (d < -tol || d > tol) ok = 0;
    }
    hl_test_check(ok, file, line, "%s = (%d,%d,%d,%d), expected (%d,%d,%d,%d) +-%d", what, px[0], px[1], px[2],
                  px[3], r, g, b, a, tol);
}

hl_rhi_backend hl_test_backend_arg(int argc, char **argv, hl_rhi_backend fallback) {
    const char *name = NULL;
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "--backend") == 0) name = argv[i + 1];
    if (!name) name = getenv("HL_TEST_BACKEND");
    hl_rhi_backend b = fallback;
    if (name && hl_rhi_backend_parse(name, &b) != HL_OK) {
        fprintf(stderr, "unknown backend '%s'\n", name);
        b = fallback;
    }
    return b;
}

hl_rhi_device *hl_test_device(hl_rhi_backend backend) {
    hl_rhi_device_desc d = {0};
    d.backend = backend;
    hl_rhi_device *dev = NULL;
    hl_result r = hl_rhi_device_create(&d, &dev);
    hl_test_check(r == HL_OK, __FILE__, __LINE__, "create %s device: %s: %s", hl_rhi_backend_name(backend),
                  hl_result_name(r), hl_last_error());
    if (r == HL_OK) {
        const hl_rhi_caps *caps = hl_rhi_device_caps(dev);
        printf("backend %s: %s\n", hl_rhi_backend_name(backend), caps->adapter_name);
    }
    return r == HL_OK ? dev : NULL;
}

hl_result hl_test_read_rgba8(hl_rhi_device *dev, hl_rhi_texture tex, uint8_t *out) {
    hl_rhi_texture_region region = {0};
    return hl_rhi_texture_read(dev, tex, &region, out, 0);
}

hl_result hl_test_program_create(hl_rhi_device *dev, const char *vs, const char *fs,
                                 const hl_rhi_binding_plan_entry *plan, uint32_t plan_count, hl_test_program *out) {
    memset(out, 0, sizeof(*out));
    hl_shader_program_desc pd = {0};
    pd.vertex_source = vs;
    pd.fragment_source = fs;
    pd.bindings = plan;
    pd.binding_count = plan_count;
    hl_result r = hl_shader_program_compile(&pd, hl_rhi_device_backend(dev), &out->prog);
    if (r) return r;
    r = hl_shader_program_create_shaders(dev, &out->prog, &out->vs, &out->fs);
    if (r) hl_test_program_destroy(dev, out);
    return r;
}

void hl_test_program_destroy(hl_rhi_device *dev, hl_test_program *p) {
    hl_rhi_shader_destroy(dev, p->vs);
    hl_rhi_shader_destroy(dev, p->fs);
    hl_shader_program_free(&p->prog);
    memset(p, 0, sizeof(*p));
}

hl_result hl_test_target_create(hl_rhi_device *dev, uint32_t w, uint32_t h, hl_rhi_format format,
                                uint32_t sample_count, hl_test_target *out) {
    memset(out, 0, sizeof(*out));
    hl_rhi_texture_desc td = {0};
    td.format = format;
    td.width = w;
    td.height = h;
    td.sample_count = sample_count;
    td.usage = HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT;
    if (sample_count <= 1) td.usage |= HL_RHI_TEXTURE_USAGE_COPY_SRC | HL_RHI_TEXTURE_USAGE_SAMPLED;
    hl_result r = hl_rhi_texture_create(dev, &td, &out->tex);
    if (r) return r;
    r = hl_rhi_texture_view_create(dev, out->tex, NULL, &out->view);
    if (r) {
        hl_rhi_texture_destroy(dev, out->tex);
        return r;
    }
    out->width = w;
    out->height = h;
    return HL_OK;
}

void hl_test_target_destroy(hl_rhi_device *dev, hl_test_target *t) {
    hl_rhi_texture_view_destroy(dev, t->view);
    hl_rhi_texture_destroy(dev, t->tex);
    memset(t, 0, sizeof(*t));
}

int hl_test_write_png(const char *path, uint32_t w, uint32_t h, const uint8_t *rgba) {
    return stbi_write_png(path, (int)w, (int)h, 4, rgba, (int)w * 4) != 0;
}

hl_test_pipeline_desc hl_test_tint_pipeline_desc(bool blend_alpha) {
    static const hl_test_attr attr = {"a_pos", HL_RHI_VERTEX_FLOAT32X2, 0};
    hl_test_pipeline_desc pd = {0};
    pd.vs = "#version 300 es\n"
            "in vec2 a_pos;\n"
            "void main() { gl_Position = vec4(a_pos, 0.5, 1.0); }\n";
    pd.fs = "#version 300 es\n"
            "precision highp float;\n"
            "layout(std140) uniform Tint { vec4 u_tint; };\n"
            "out vec4 o_color;\n"
            "void main() { o_color = u_tint; }\n";
    pd.stride = 8;
    pd.attrs = &attr;
    pd.attr_count = 1;
    pd.dynamic_ubo = true;
    pd.blend_alpha = blend_alpha;
    return pd;
}

void hl_test_quadrant_quads(float out[48]) {
    for (int q = 0; q < 4; q++) {
        float x0 = (q & 1) ? 0.0f : -1.0f, y0 = (q & 2) ? 0.0f : -1.0f, x1 = x0 + 1.0f, y1 = y0 + 1.0f;
        const float v[12] = {x0, y0, x1, y0, x1, y1, x0, y0, x1, y1, x0, y1};
        memcpy(out + q * 12, v, sizeof v);
    }
}

hl_result hl_test_quadrant_packets(hl_rhi_device *dev, const hl_test_pipeline *p, hl_rhi_buffer vbo, hl_rhi_buffer ubo,
                                   const uint32_t offsets[4], const char *label, hl_rhi_bind_group *bg,
                                   hl_rhi_draw_packet pk[4]) {
    hl_rhi_bind_group_entry be = {0};
    be.buffer = ubo;
    be.size = 16;
    hl_rhi_bind_group_desc bgd = {p->bgl[0], &be, 1, label};
    hl_result r = hl_rhi_bind_group_create(dev, &bgd, bg);
    if (r) return r;
    memset(pk, 0, 4 * sizeof *pk);
    for (int q = 0; q < 4; q++) {
        pk[q].pipeline = p->pipe;
        pk[q].bind_groups[0] = *bg;
        pk[q].dynamic_offsets[0] = offsets[q];
        pk[q].bind_group_count = 1;
        pk[q].dynamic_offset_mask = 1;
        pk[q].vertex_buffer_count = 1;
        pk[q].vertex_buffers[0] = vbo;
        pk[q].vertex_offsets[0] = (uint64_t)q * 48u;
        pk[q].count = 6;
    }
    return HL_OK;
}

hl_result hl_test_pipeline_create(hl_rhi_device *dev, const hl_test_pipeline_desc *desc, hl_test_pipeline *out) {
    memset(out, 0, sizeof(*out));
    hl_result r = hl_test_program_create(dev, desc->vs, desc->fs, desc->plan, desc->plan_count, &out->prog);
    if (r) return r;
    const hl_shader_reflection *refl = &out->prog.prog.reflection;
    uint32_t groups = 0;
    for (uint32_t i = 0; i < refl->block_count; i++)
        if (refl->blocks[i].group + 1 > groups) groups = refl->blocks[i].group + 1;
    for (uint32_t i = 0; i < refl->texture_count; i++)
        if (refl->textures[i].group + 1 > groups) groups = refl->textures[i].group + 1;
    for (uint32_t g = 0; g < groups && !r; g++) {
        hl_rhi_bind_group_layout_entry e[HL_RHI_MAX_BINDINGS];
        uint32_t n = hl_shader_program_layout_entries(&out->prog.prog, g, desc->dynamic_ubo, e, HL_RHI_MAX_BINDINGS);
        hl_rhi_bind_group_layout_desc bd = {e, n, "test"};
        r = hl_rhi_bind_group_layout_create(dev, &bd, &out->bgl[g]);
    }
    out->group_count = groups;
    if (!r) {
        hl_rhi_pipeline_layout_desc pd = {out->bgl, groups, "test"};
        r = hl_rhi_pipeline_layout_create(dev, &pd, &out->layout);
    }
    hl_rhi_vertex_attribute attrs[HL_RHI_MAX_VERTEX_ATTRIBUTES];
    for (uint32_t i = 0; i < desc->attr_count && !r; i++) {
        attrs[i].format = desc->attrs[i].format;
        attrs[i].offset = desc->attrs[i].offset;
        attrs[i].location = UINT32_MAX;
        for (uint32_t k = 0; k < refl->input_count; k++)
            if (strcmp(refl->inputs[k].name, desc->attrs[i].name) == 0) attrs[i].location = refl->inputs[k].location;
        if (attrs[i].location == UINT32_MAX) {
            fprintf(stderr, "hl_test_pipeline_create: no vertex input '%s'\n", desc->attrs[i].name);
            r = HL_ERR_NOT_FOUND;
        }
    }
    hl_rhi_vertex_buffer_layout vbl = {desc->stride, false, attrs, desc->attr_count};
    hl_rhi_color_target_state ct[HL_RHI_MAX_COLOR_ATTACHMENTS];
    memset(ct, 0, sizeof(ct));
    uint32_t color_count = desc->color_count ? desc->color_count : 1;
    for (uint32_t i = 0; i < color_count; i++) {
        ct[i].format = desc->color_formats[i] ? desc->color_formats[i] : HL_RHI_FORMAT_RGBA8_UNORM;
        if (desc->blend_alpha) {
            ct[i].blend_enabled = true;
            ct[i].color = (hl_rhi_blend_component){HL_RHI_BLEND_SRC_ALPHA, HL_RHI_BLEND_ONE_MINUS_SRC_ALPHA, 0};
            ct[i].alpha = (hl_rhi_blend_component){HL_RHI_BLEND_ONE, HL_RHI_BLEND_ONE_MINUS_SRC_ALPHA, 0};
        }
    }
    if (!r) {
        hl_rhi_render_pipeline_desc rd = {0};
        rd.layout = out->layout;
        rd.vertex = out->prog.vs;
        rd.fragment = out->prog.fs;
        rd.vertex_buffers = &vbl;
        rd.vertex_buffer_count = desc->stride ? 1 : 0;
        rd.topology = desc->topology;
        rd.depth_stencil.format = desc->depth_format;
        rd.depth_stencil.depth_write = desc->depth_write;
        rd.depth_stencil.depth_compare = desc->depth_compare;
        rd.color_targets = ct;
        rd.color_target_count = desc->fs ? color_count : 0;
        rd.sample_count = desc->sample_count;
        rd.label = "test";
        r = hl_rhi_render_pipeline_create(dev, &rd, &out->pipe);
    }
    if (r) hl_test_pipeline_destroy(dev, out);
    return r;
}

void hl_test_pipeline_destroy(hl_rhi_device *dev, hl_test_pipeline *p) {
    hl_rhi_render_pipeline_destroy(dev, p->pipe);
    hl_rhi_pipeline_layout_destroy(dev, p->layout);
    for (uint32_t g = 0; g < HL_RHI_MAX_BIND_GROUPS; g++) hl_rhi_bind_group_layout_destroy(dev, p->bgl[g]);
    hl_test_program_destroy(dev, &p->prog);
    memset(p, 0, sizeof(*p));
}

hl_result hl_test_buffer(hl_rhi_device *dev, uint32_t usage, const void *data, uint64_t size, hl_rhi_buffer *out) {
    hl_rhi_buffer_desc bd = {0};
    bd.size = size;
    bd.usage = usage | HL_RHI_BUFFER_USAGE_COPY_DST | HL_RHI_BUFFER_USAGE_COPY_SRC;
    bd.initial_data = data;
    bd.label = "test";
    return hl_rhi_buffer_create(dev, &bd, out);
}

hl_result hl_test_begin(hl_rhi_device *dev, const hl_test_target *t, const float clear[4], hl_rhi_texture_view depth,
                        hl_rhi_cmd **cmd) {
    hl_result r = hl_rhi_begin_frame(dev, cmd);
    if (r) return r;
    hl_rhi_color_attachment ca = {0};
    ca.view = t->view;
    memcpy(ca.clear_color, clear, sizeof(ca.clear_color));
    hl_rhi_render_pass_desc rp = {0};
    rp.color_attachments = &ca;
    rp.color_attachment_count = 1;
    rp.depth_stencil.view = depth;
    rp.depth_stencil.depth_clear_value = 1.0f;
    r = hl_rhi_cmd_begin_render_pass(*cmd, &rp);
    if (r) hl_rhi_abort_frame(dev);
    return r;
}

hl_result hl_test_end(hl_rhi_device *dev, hl_rhi_cmd *cmd) {
    hl_result r = hl_rhi_cmd_end_render_pass(cmd);
    hl_rhi_submission s = {0};
    if (!r) r = hl_rhi_end_frame(dev, &s);
    if (r) {
        hl_rhi_abort_frame(dev);
        return r;
    }
    return hl_rhi_submission_wait(dev, s, UINT64_MAX);
}
