/* Synthetic passes and the typical deferred frame used by `hilo3d graph-dump`, the compile
 * benchmark and tests. They declare what a real renderer would and record empty render
 * passes, so they run on any backend (the null one included). */
#include <string.h>

#include "graph_internal.h"

typedef struct hl__synthetic {
    hl_graph_texture reads[8], colors[HL_RHI_MAX_COLOR_ATTACHMENTS], depth;
    uint32_t read_count, color_count;
} hl__synthetic;

/* user is the caller's template, alive only during hl_graph_add_pass (setup runs inside it):
 * setup copies it into the pass parameters, and the later stages read only those. */
static hl_result hl__synthetic_setup(hl_graph_pass_builder *b, void *params, void *user) {
    hl__synthetic *s = params;
    memcpy(s, user, sizeof(*s));
    hl_result r = HL_OK;
    for (uint32_t i = 0; i < s->read_count && !r; i++)
        if (s->reads[i].id) r = hl_graph_read_texture(b, s->reads[i]);
    for (uint32_t i = 0; i < s->color_count && !r; i++) r = hl_graph_color_attachment(b, i, s->colors[i], NULL);
    if (!r && s->depth.id) r = hl_graph_depth_attachment(b, s->depth, NULL);
    return r;
}

static hl_result hl__synthetic_execute(hl_graph_ctx *ctx, void *params, void *user) {
    (void)params, (void)user;
    hl_result r = hl_graph_ctx_begin_render_pass(ctx);
    return r ? r : hl_rhi_cmd_end_render_pass(hl_graph_ctx_cmd(ctx));
}

hl_graph_pass hl_graph_add_synthetic_pass(hl_graph *g, const char *name, const hl_graph_texture *reads,
                                          uint32_t read_count, const hl_graph_texture *colors, uint32_t color_count,
                                          hl_graph_texture depth) {
    if (g && (read_count > 8 || color_count > HL_RHI_MAX_COLOR_ATTACHMENTS)) {
        hl__graph_build_fail(g, HL_ERR_VALIDATION, "hl_graph_add_synthetic_pass: pass '%s': %u reads, %u colours",
                             name ? name : "", read_count, color_count);
        return (hl_graph_pass){0};
    }
    hl__synthetic s;
    memset(&s, 0, sizeof(s));
    if (read_count) memcpy(s.reads, reads, read_count * sizeof(*reads));
    if (color_count) memcpy(s.colors, colors, color_count * sizeof(*colors));
    s.read_count = read_count;
    s.color_count = color_count;
    s.depth = depth;
    return hl_graph_add_pass(g, name, HL_GRAPH_PASS_RENDER, hl__synthetic_setup, NULL, hl__synthetic_execute, &s,
                             sizeof(s));
}

static hl_graph_texture hl__example_texture(hl_graph *g, const char *name, uint32_t w, uint32_t h, hl_rhi_format f) {
    hl_rhi_texture_desc d = {0};
    d.format = f;
    d.width = w ? w : 1;
    d.height = h ? h : 1;
    return hl_graph_create_texture(g, &d, name);
}

hl_result hl_graph_build_example_deferred(hl_graph *g, uint32_t width, uint32_t height,
                                          hl_graph_texture_provider surface, void *surface_user,
                                          hl_graph_texture *out_surface) {
    if (!g || !surface) return hl__fail(HL_ERR_VALIDATION, "hl_graph_build_example_deferred: %s is NULL",
                                        g ? "surface" : "graph");
    const uint32_t w = width, h = height;
    hl_graph_texture gb[3] = {hl__example_texture(g, "gbuffer.albedo", w, h, HL_RHI_FORMAT_RGBA8_UNORM),
                              hl__example_texture(g, "gbuffer.normal", w, h, HL_RHI_FORMAT_RGBA16_FLOAT),
                              hl__example_texture(g, "gbuffer.material", w, h, HL_RHI_FORMAT_RGBA8_UNORM)};
    hl_graph_texture depth = hl__example_texture(g, "depth", w, h, HL_RHI_FORMAT_DEPTH24_PLUS);
    hl_graph_add_synthetic_pass(g, "gbuffer", NULL, 0, gb, 3, depth);

    hl_graph_texture hdr = hl__example_texture(g, "hdr", w, h, HL_RHI_FORMAT_RGBA16_FLOAT);
    hl_graph_texture light_in[4] = {gb[0], gb[1], gb[2], depth};
    hl_graph_add_synthetic_pass(g, "lighting", light_in, 4, &hdr, 1, (hl_graph_texture){0});

    /* bloom: bright pass to half size, 4 further downsamples, 4 upsamples back to half size */
    static const char *down_names[5] = {"bloom.down0", "bloom.down1", "bloom.down2", "bloom.down3", "bloom.down4"};
    static const char *up_names[4] = {"bloom.up0", "bloom.up1", "bloom.up2", "bloom.up3"};
    hl_graph_texture down[5], up[4];
    hl_graph_texture src = hdr;
    for (uint32_t i = 0; i < 5; i++) {
        down[i] = hl__example_texture(g, down_names[i], w >> (i + 1), h >> (i + 1), HL_RHI_FORMAT_RGBA16_FLOAT);
        hl_graph_add_synthetic_pass(g, i == 0 ? "bloom.bright" : down_names[i], &src, 1, &down[i], 1,
                                    (hl_graph_texture){0});
        src = down[i];
    }
    for (int i = 3; i >= 0; i--) {
        up[i] = hl__example_texture(g, up_names[i], w >> (i + 1), h >> (i + 1), HL_RHI_FORMAT_RGBA16_FLOAT);
        hl_graph_texture in[2] = {src, down[i]};
        hl_graph_add_synthetic_pass(g, up_names[i], in, 2, &up[i], 1, (hl_graph_texture){0});
        src = up[i];
    }
    hl_graph_texture ldr = hl__example_texture(g, "ldr", w, h, HL_RHI_FORMAT_RGBA8_UNORM);
    hl_graph_texture tone_in[2] = {hdr, src};
    hl_graph_add_synthetic_pass(g, "tonemap", tone_in, 2, &ldr, 1, (hl_graph_texture){0});

    /* a debug view nobody consumes: culled */
    hl_graph_texture debug = hl__example_texture(g, "debug.normals", w, h, HL_RHI_FORMAT_RGBA8_UNORM);
    hl_graph_add_synthetic_pass(g, "debug.normals", &gb[1], 1, &debug, 1, (hl_graph_texture){0});

    hl_rhi_texture_desc sd = {0};
    sd.format = HL_RHI_FORMAT_RGBA8_UNORM;
    sd.width = w;
    sd.height = h;
    sd.usage = HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT;
    hl_graph_texture out = hl_graph_import_texture_deferred(g, &sd, surface, surface_user, "surface");
    hl_graph_add_synthetic_pass(g, "output", &ldr, 1, &out, 1, (hl_graph_texture){0});
    hl_graph_mark_output_texture(g, out);
    if (out_surface) *out_surface = out;
    return g->build_result;
}
