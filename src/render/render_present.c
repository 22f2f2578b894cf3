/* Windows: the renderer's surface and hl_renderer_present (renderer.h, "windows").
 *
 * The output stays the render target of every render call. A present is one small graph frame
 * of its own (its own graph, so hl_renderer_write_graph_dot keeps showing the render frame):
 * the output imported, the window's surface texture imported as a deferred resource (seed 000
 * §2.1: the provider runs only when the live present pass needs it, after compile), a fullscreen
 * pass that copies the output into it texel for texel (texelFetch: the surface has the output's
 * size), then hl_rhi_surface_present. The output is sRGB-encoded RGBA8; the surface formats are
 * linear (webgpu's BGRA8 sRGB is not an RHI format), so the pass encodes to sRGB again, exactly
 * (decode then encode of 8-bit values round-trips), or copies as is for an sRGB surface.
 *
 * Configuration: at the output's size; again after hl_renderer_resize, after a SUBOPTIMAL
 * texture (before the next acquire), and inside the provider when acquire says OUTDATED (then
 * acquired once more). No texture (still outdated, timeout, lost): nothing is presented and the
 * call succeeds (presents_skipped); a lost native surface is made again by the next present.
 * Device loss: every object here goes with the others (hl__present_gpu_drop) and the surface
 * is made and configured again at recovery (hl__present_gpu_rebuild). */
#include <string.h>

#include "render_internal.h"

static const char *const k_fs_encode =
    "#version 300 es\n"
    "precision highp float;\n"
    "uniform sampler2D u_src;\n"
    "layout(location = 0) out vec4 o_color;\n"
    "vec3 hl_encode(vec3 c) {\n"
    "    c = clamp(c, 0.0, 1.0);\n"
    "    return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(vec3(0.0031308), c));\n"
    "}\n"
    "void main() {\n"
    "    vec4 c = texelFetch(u_src, ivec2(gl_FragCoord.xy), 0);\n"
    "    o_color = vec4(hl_encode(c.rgb), c.a);\n"
    "}\n";

static const char *const k_fs_copy = "#version 300 es\n"
                                     "precision highp float;\n"
                                     "uniform sampler2D u_src;\n"
                                     "layout(location = 0) out vec4 o_color;\n"
                                     "void main() { o_color = texelFetch(u_src, ivec2(gl_FragCoord.xy), 0); }\n";

static const char *status_name(hl_rhi_surface_status s) {
    switch (s) {
    case HL_RHI_SURFACE_OPTIMAL: return "optimal";
    case HL_RHI_SURFACE_SUBOPTIMAL: return "suboptimal";
    case HL_RHI_SURFACE_OUTDATED: return "outdated";
    case HL_RHI_SURFACE_TIMEOUT: return "timeout";
    case HL_RHI_SURFACE_LOST: return "lost";
    default: return "?";
    }
}

hl_result hl__present_validate_desc(const hl_renderer_desc *d) {
    const char *fn = "hl_renderer_create";
    const hl_native_window *w = &d->window;
    switch (w->system) {
    case HL_WINDOW_NONE:
        if (w->display || w->window || w->wayland_surface)
            return hl__fail(HL_ERR_VALIDATION, "%s: desc.window has handles but system HL_WINDOW_NONE", fn);
        return HL_OK;
    case HL_WINDOW_X11:
        if (!w->display || !w->window)
            return hl__fail(HL_ERR_VALIDATION, "%s: desc.window (X11) needs the Display * and the Window (%s is missing)",
                            fn, w->display ? "window" : "display");
        return HL_OK;
    case HL_WINDOW_WAYLAND:
        if (!w->display || !w->wayland_surface)
            return hl__fail(HL_ERR_VALIDATION,
                            "%s: desc.window (Wayland) needs the wl_display and the wl_surface (%s is missing)", fn,
                            w->display ? "wayland_surface" : "display");
        return HL_OK;
    case HL_WINDOW_CANVAS:
#ifdef __EMSCRIPTEN__
        if (w->display || w->window || w->wayland_surface)
            return hl__fail(HL_ERR_VALIDATION,
                            "%s: desc.window (canvas) takes no handles: the canvas is the page's (Module.canvas)", fn);
        return HL_OK;
#else
        return hl__fail(HL_ERR_UNSUPPORTED,
                        "%s: desc.window.system HL_WINDOW_CANVAS is the browser build's (Emscripten, WebGL 2): this "
                        "is a native build (use HL_WINDOW_X11 or HL_WINDOW_WAYLAND)",
                        fn);
#endif
    default: return hl__fail(HL_ERR_VALIDATION, "%s: desc.window.system %d is out of range", fn, (int)w->system);
    }
}

void hl__present_display(const hl_renderer_desc *d, hl_rhi_native_display *out) {
    out->system = d->window.system == HL_WINDOW_X11       ? HL_RHI_WINDOW_SYSTEM_X11
                  : d->window.system == HL_WINDOW_WAYLAND ? HL_RHI_WINDOW_SYSTEM_WAYLAND
                  : d->window.system == HL_WINDOW_CANVAS  ? HL_RHI_WINDOW_SYSTEM_CANVAS
                                                          : HL_RHI_WINDOW_SYSTEM_NONE;
    out->display = out->system == HL_RHI_WINDOW_SYSTEM_NONE || out->system == HL_RHI_WINDOW_SYSTEM_CANVAS
                       ? NULL
                       : d->window.display;
}

/* ---- the surface ------------------------------------------------------------------------------------ */
static hl_rhi_present_mode present_mode(const hl_renderer *r, const hl_rhi_surface_caps *caps) {
    if (!r->desc.no_vsync) return HL_RHI_PRESENT_FIFO;
    if (caps->present_modes & (1u << HL_RHI_PRESENT_IMMEDIATE)) return HL_RHI_PRESENT_IMMEDIATE;
    if (caps->present_modes & (1u << HL_RHI_PRESENT_MAILBOX)) return HL_RHI_PRESENT_MAILBOX;
    return HL_RHI_PRESENT_FIFO;
}

/* Configures the surface at the output's size. A texture still acquired from a failed present
 * (its graph frame failed after the acquire) is presented first: configure needs none. */
static hl_result surface_configure(hl_renderer *r) {
    hl__present *p = &r->present;
    if (p->acquired.id) {
        p->acquired.id = 0;
        (void)hl_rhi_surface_present(r->dev, p->surface);
    }
    hl_rhi_surface_caps caps;
    hl_result res = hl_rhi_surface_get_caps(r->dev, p->surface, &caps);
    if (res) return res;
    hl_rhi_surface_config c = {0};
    c.format = caps.formats[0];
    c.usage = HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT;
    c.width = r->output->desc.width;
    c.height = r->output->desc.height;
    c.present_mode = present_mode(r, &caps);
    if ((res = hl_rhi_surface_configure(r->dev, p->surface, &c))) return res;
    p->format = c.format;
    p->width = c.width;
    p->height = c.height;
    p->reconfigure = false;
    p->configures++;
    r->stats.surface_configures = p->configures;
    return HL_OK;
}

static hl_result surface_make(hl_renderer *r) {
    hl__present *p = &r->present;
    hl_rhi_surface_desc sd = {0};
    sd.window = r->desc.window.window;
    sd.wayland_surface = r->desc.window.wayland_surface;
    sd.label = "window";
    hl_result res = hl_rhi_surface_create(r->dev, &sd, &p->surface);
    if (!res) res = surface_configure(r);
    if (res && p->surface.id) {
        hl_rhi_surface_destroy(r->dev, p->surface);
        p->surface.id = 0;
    }
    return res;
}

/* ---- the copy pass's objects ---------------------------------------------------------------------- */
static void pass_objects_drop(hl_renderer *r) {
    hl__present *p = &r->present;
    hl_rhi_bind_group_destroy(r->dev, p->group);
    hl_rhi_render_pipeline_destroy(r->dev, p->pipeline);
    hl_rhi_pipeline_layout_destroy(r->dev, p->layout);
    hl_rhi_bind_group_layout_destroy(r->dev, p->bgl);
    hl_rhi_shader_destroy(r->dev, p->vs);
    hl_rhi_shader_destroy(r->dev, p->fs);
    p->group.id = p->pipeline.id = p->layout.id = p->bgl.id = p->vs.id = p->fs.id = 0;
    p->group_view.id = 0;
    p->pipeline_format = HL_RHI_FORMAT_UNDEFINED;
}

/* The program, layouts and pipeline for the surface's format (made once per format). */
static hl_result pass_objects_get(hl_renderer *r) {
    hl__present *p = &r->present;
    if (p->pipeline.id && p->pipeline_format == p->format) return HL_OK;
    pass_objects_drop(r);
    bool encode = !hl_rhi_format_get_info(p->format)->is_srgb;
    if (!p->prog_ready || p->prog_encodes != encode) {
        if (p->prog_ready) hl_shader_program_free(&p->prog);
        p->prog_ready = false;
        const hl_rhi_binding_plan_entry plan[1] = {{HL_RHI_PLAN_SAMPLER, "u_src", 0, 0, 1}};
        hl_shader_program_desc pd = {0};
        pd.vertex_source = hl__render_fullscreen_vs;
        pd.fragment_source = encode ? k_fs_encode : k_fs_copy;
        pd.bindings = plan;
        pd.binding_count = 1;
        pd.label = "present";
        hl_result res = hl_shader_program_compile(&pd, r->backend, &p->prog);
        if (res) return res;
        p->prog_ready = true;
        p->prog_encodes = encode;
    }
    hl_rhi_shader_desc sd;
    hl_shader_program_vertex_desc(&p->prog, &sd);
    hl_result res = hl_rhi_shader_create(r->dev, &sd, &p->vs);
    if (!res) {
        hl_shader_program_fragment_desc(&p->prog, &sd);
        res = hl_rhi_shader_create(r->dev, &sd, &p->fs);
    }
    hl_rhi_bind_group_layout_entry e[4];
    uint32_t n = hl_shader_program_layout_entries(&p->prog, 0, false, e, 4);
    hl_rhi_bind_group_layout_desc bd = {e, n, "present"};
    if (!res) res = hl_rhi_bind_group_layout_create(r->dev, &bd, &p->bgl);
    hl_rhi_pipeline_layout_desc ld = {&p->bgl, 1, "present"};
    if (!res) res = hl_rhi_pipeline_layout_create(r->dev, &ld, &p->layout);
    hl_rhi_color_target_state ct = {0};
    ct.format = p->format;
    hl_rhi_render_pipeline_desc rd = {0};
    rd.layout = p->layout;
    rd.vertex = p->vs;
    rd.fragment = p->fs;
    rd.color_targets = &ct;
    rd.color_target_count = 1;
    rd.label = "present";
    if (!res) res = hl_rhi_render_pipeline_create(r->dev, &rd, &p->pipeline);
    if (res) {
        pass_objects_drop(r);
        return res;
    }
    p->pipeline_format = p->format;
    return HL_OK;
}

/* ---- the graph frame ------------------------------------------------------------------------------ */
typedef struct present_pass {
    hl_renderer *r;
    hl_graph_texture src, dst;
} present_pass;

static hl_result setup_present(hl_graph_pass_builder *b, void *params, void *user) {
    present_pass *pp = params;
    *pp = *(const present_pass *)user;
    hl_graph_color_attachment_desc c = {0};
    c.load_op = HL_RHI_LOAD_DONT_CARE; /* every pixel is written */
    hl_result res = hl_graph_read_texture(b, pp->src);
    if (!res) res = hl_graph_color_attachment(b, 0, pp->dst, &c);
    if (!res) res = hl_graph_output_texture(b, pp->dst);
    return res;
}

static hl_result prepare_present(hl_graph_ctx *ctx, void *params, void *user) {
    (void)user;
    present_pass *pp = params;
    hl__present *p = &pp->r->present;
    hl_rhi_texture_view v = hl_graph_ctx_view(ctx, pp->src);
    if (p->group.id && p->group_view.id == v.id) return HL_OK;
    hl_rhi_bind_group_destroy(pp->r->dev, p->group); /* an older output's (in-flight use is kept) */
    p->group.id = 0;
    hl_rhi_bind_group_entry e[2];
    memset(e, 0, sizeof e);
    e[0].binding = 0;
    e[0].view = v;
    e[1].binding = 1;
    e[1].sampler = pp->r->default_sampler;
    hl_rhi_bind_group_desc bd = {p->bgl, e, 2, "present"};
    hl_result res = hl_rhi_bind_group_create(pp->r->dev, &bd, &p->group);
    if (!res) p->group_view = v;
    return res;
}

static hl_result exec_present(hl_graph_ctx *ctx, void *params, void *user) {
    (void)user;
    present_pass *pp = params;
    hl__present *p = &pp->r->present;
    hl_rhi_cmd *cmd = hl_graph_ctx_cmd(ctx);
    hl_result res = hl_graph_ctx_begin_render_pass(ctx);
    if (!res) res = hl_rhi_cmd_set_pipeline(cmd, p->pipeline);
    if (!res) res = hl_rhi_cmd_set_bind_group(cmd, 0, p->group, NULL, 0);
    if (!res) res = hl_rhi_cmd_draw(cmd, 3, 1, 0, 0);
    if (!res) res = hl_rhi_cmd_end_render_pass(cmd);
    return res;
}

/* The deferred import's provider: the surface's texture, acquired now (the present pass is
 * live and the graph compiled). No texture: the present is skipped (p->skipped). */
static hl_result provide_surface(void *user, hl_rhi_texture *out) {
    hl_renderer *r = user;
    hl__present *p = &r->present;
    hl_rhi_surface_status st;
    hl_result res = hl_rhi_surface_acquire(r->dev, p->surface, out, &st);
    if (!res && st == HL_RHI_SURFACE_OUTDATED) {
        p->outdated++;
        res = surface_configure(r); /* the same size: the graph declared it */
        if (!res) res = hl_rhi_surface_acquire(r->dev, p->surface, out, &st);
    }
    if (res) return res;
    if (out->id) {
        p->acquired = *out;
        if (st == HL_RHI_SURFACE_SUBOPTIMAL) p->reconfigure = true;
        return HL_OK;
    }
    if (st == HL_RHI_SURFACE_LOST) { /* made again by the next present */
        hl_rhi_surface_destroy(r->dev, p->surface);
        p->surface.id = 0;
    }
    p->skipped = true;
    return hl__fail(HL_ERR_NOT_FOUND, "hl_renderer_present: the window's surface gave no texture (%s)", status_name(st));
}

static hl_result present_frame(hl_renderer *r) {
    hl__present *p = &r->present;
    hl_result res = HL_OK;
    if (!p->surface.id) res = surface_make(r);
    else if (p->reconfigure || p->width != r->output->desc.width || p->height != r->output->desc.height)
        res = surface_configure(r);
    if (!res) res = pass_objects_get(r);
    if (res) return res;
    hl_graph *g = p->graph;
    hl_graph_begin(g);
    present_pass pp;
    pp.r = r;
    pp.src = hl_graph_import_texture(g, r->output->color[0], "output");
    hl_rhi_texture_desc dd = {0};
    dd.format = p->format;
    dd.width = p->width;
    dd.height = p->height;
    dd.usage = HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT;
    pp.dst = hl_graph_import_texture_deferred(g, &dd, provide_surface, r, "window");
    hl_graph_pass pass = hl_graph_add_pass(g, "present", HL_GRAPH_PASS_RENDER, setup_present, prepare_present,
                                           exec_present, &pp, sizeof pp);
    if (!pass.id) return hl_last_error_code() ? hl_last_error_code() : HL_ERR_VALIDATION;
    p->skipped = false;
    res = hl_graph_execute(g, NULL);
    if (res && p->skipped) {
        p->skipped_count++;
        r->stats.presents_skipped = p->skipped_count;
        hl_clear_error();
        return HL_OK;
    }
    if (res) return res;
    p->acquired.id = 0;
    res = hl_rhi_surface_present(r->dev, p->surface);
    if (!res) {
        p->presents++;
        r->stats.presents = p->presents;
    }
    return res;
}

hl_result hl_renderer_present(hl_renderer *r) {
    const char *fn = "hl_renderer_present";
    if (!r) return hl__fail(HL_ERR_VALIDATION, "%s: r is NULL", fn);
    hl_result res = hl_rhi_device_check_thread(r->dev, fn);
    if (res) return res;
    if (r->in_frame || r->in_record) return hl__fail(HL_ERR_INVALID_STATE, "%s: inside hl_renderer_render_frame", fn);
    if (r->desc.window.system == HL_WINDOW_NONE)
        return hl__fail(HL_ERR_INVALID_STATE, "%s: the renderer has no window (hl_renderer_desc.window)", fn);
    if ((res = hl__renderer_ready(r, fn, true))) return res;
    uint64_t t0 = hl__now_ns();
    res = hl__renderer_after(r, present_frame(r));
    r->present.present_ns = hl__now_ns() - t0;
    r->stats.present_ns = r->present.present_ns;
    return res;
}

/* ---- lifetime ------------------------------------------------------------------------------------ */
void hl__present_stats(hl_renderer *r) {
    const hl__present *p = &r->present;
    r->stats.presents = p->presents;
    r->stats.presents_skipped = p->skipped_count;
    r->stats.surface_configures = p->configures;
    r->stats.present_ns = p->present_ns;
}

void hl__present_gpu_drop(hl_renderer *r) {
    hl__present *p = &r->present;
    if (r->desc.window.system == HL_WINDOW_NONE) return;
    pass_objects_drop(r);
    if (p->surface.id) hl_rhi_surface_destroy(r->dev, p->surface);
    p->surface.id = 0;
    p->acquired.id = 0;
    if (p->graph) hl_graph_destroy(p->graph);
    p->graph = NULL;
}

hl_result hl__present_gpu_rebuild(hl_renderer *r) {
    hl__present *p = &r->present;
    if (r->desc.window.system == HL_WINDOW_NONE) return HL_OK;
    hl_graph_desc gd = {r->dev, 0, "present"};
    hl_result res = p->graph ? HL_OK : hl_graph_create(&gd, &p->graph);
    if (!res && !p->surface.id) res = surface_make(r);
    return res;
}

void hl__present_free(hl_renderer *r) {
    hl__present_gpu_drop(r);
    if (r->present.prog_ready) hl_shader_program_free(&r->present.prog);
    r->present.prog_ready = false;
}
