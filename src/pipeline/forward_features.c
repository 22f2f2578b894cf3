/* The shipped Forward features: bloom, tone mapping, FXAA (POST injection). Each is a set of
 * fullscreen passes over graph textures; their parameters are copied by the factory.
 *
 * Bloom: a prefilter keeps what exceeds `threshold` (scaled by how far the brightest channel
 * goes past it) at half size, `levels` - 1 more halvings average 2x2 blocks (four bilinear
 * taps), then each level is upsampled with a 3x3 tent and added to the next larger one, and
 * the result, times `intensity`, is added to the scene colour.
 * Tone mapping: exposure, then ACES fitted (Narkowicz 2015: x(2.51x + 0.03) / (x(2.43x + 0.59)
 * + 0.14)) or the Khronos PBR Neutral curve, clamped to [0, 1]; the output's sRGB encoding
 * follows. FXAA: luma-based edge detection and a blend along the edge (the "FXAA lite"
 * structure: 5 luma taps, skip below a local contrast threshold, two taps along the edge
 * direction, a wider pair kept only if its luma stays in range). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pipeline_internal.h"

static hl_result fullscreen(hl_pipeline_context ctx, const char *name, const char *fs, const void *params,
                            uint32_t params_size, const char *const *names, const hl_pipeline_texture *inputs,
                            uint32_t input_count, hl_pipeline_texture out) {
    hl_pipeline_fullscreen_pass_desc d = {0};
    d.name = name;
    d.fragment = fs;
    d.params = params;
    d.params_size = params_size;
    for (uint32_t i = 0; i < input_count; i++) {
        d.input_names[i] = names[i];
        d.inputs[i] = inputs[i];
    }
    d.input_count = input_count;
    d.outputs[0] = out;
    d.output_count = 1;
    return hl_pipeline_add_fullscreen_pass(ctx, &d);
}

/* ---- bloom ------------------------------------------------------------------------------------------------ */
static const char *const k_prefilter_fs =
    "#version 300 es\n"
    "precision highp float;\n"
    "in vec2 v_uv;\n"
    "uniform sampler2D u_src;\n"
    "layout(std140) uniform Params { vec4 texel; vec4 p; };\n" /* texel: 1/size of u_src; p.x threshold */
    "out vec4 o_color;\n"
    "void main() {\n"
    "    vec3 c = 0.25 * (texture(u_src, v_uv + texel.xy * vec2(-0.5, -0.5)).rgb +\n"
    "                     texture(u_src, v_uv + texel.xy * vec2( 0.5, -0.5)).rgb +\n"
    "                     texture(u_src, v_uv + texel.xy * vec2(-0.5,  0.5)).rgb +\n"
    "                     texture(u_src, v_uv + texel.xy * vec2( 0.5,  0.5)).rgb);\n"
    "    float m = max(c.r, max(c.g, c.b));\n"
    "    float k = max(m - p.x, 0.0) / max(m, 1e-4);\n"
    "    o_color = vec4(c * k, 1.0);\n"
    "}\n";
static const char *const k_down_fs =
    "#version 300 es\n"
    "precision highp float;\n"
    "in vec2 v_uv;\n"
    "uniform sampler2D u_src;\n"
    "layout(std140) uniform Params { vec4 texel; vec4 p; };\n"
    "out vec4 o_color;\n"
    "void main() {\n"
    "    vec3 c = texture(u_src, v_uv + texel.xy * vec2(-0.5, -0.5)).rgb +\n"
    "             texture(u_src, v_uv + texel.xy * vec2( 0.5, -0.5)).rgb +\n"
    "             texture(u_src, v_uv + texel.xy * vec2(-0.5,  0.5)).rgb +\n"
    "             texture(u_src, v_uv + texel.xy * vec2( 0.5,  0.5)).rgb;\n"
    "    o_color = vec4(0.25 * c, 1.0);\n"
    "}\n";
static const char *const k_up_fs = /* tent-filtered u_low (texel: 1/size of u_low) + u_high */
    "#version 300 es\n"
    "precision highp float;\n"
    "in vec2 v_uv;\n"
    "uniform sampler2D u_low;\n"
    "uniform sampler2D u_high;\n"
    "layout(std140) uniform Params { vec4 texel; vec4 p; };\n"
    "out vec4 o_color;\n"
    "void main() {\n"
    "    vec2 t = texel.xy;\n"
    "    vec3 c = 4.0 * texture(u_low, v_uv).rgb;\n"
    "    c += 2.0 * (texture(u_low, v_uv + vec2(t.x, 0.0)).rgb + texture(u_low, v_uv - vec2(t.x, 0.0)).rgb +\n"
    "                texture(u_low, v_uv + vec2(0.0, t.y)).rgb + texture(u_low, v_uv - vec2(0.0, t.y)).rgb);\n"
    "    c += texture(u_low, v_uv + t).rgb + texture(u_low, v_uv - t).rgb +\n"
    "         texture(u_low, v_uv + vec2(t.x, -t.y)).rgb + texture(u_low, v_uv + vec2(-t.x, t.y)).rgb;\n"
    "    o_color = vec4(c / 16.0 * p.x + texture(u_high, v_uv).rgb * p.y, 1.0);\n"
    "}\n";

typedef struct fs_params {
    float texel[4];
    float p[4];
} fs_params;

static hl_result bloom_create(const void *user, void **state) {
    hl_bloom_desc *d = (hl_bloom_desc *)user; /* the runtime's own copy */
    if (d->threshold == 0.0f) d->threshold = 1.0f;
    if (d->intensity == 0.0f) d->intensity = 0.5f;
    if (d->levels == 0) d->levels = 4;
    if (!(d->threshold >= 0.0f) || !(d->intensity >= 0.0f) || d->levels > 6 || !isfinite(d->threshold) ||
        !isfinite(d->intensity))
        return hl__fail(HL_ERR_VALIDATION, "bloom: threshold %g, intensity %g (>= 0), levels %u (1..6)",
                        (double)d->threshold, (double)d->intensity, d->levels);
    *state = d;
    return HL_OK;
}

static hl_result bloom_record(hl_pipeline_context ctx, hl_forward_frame *frame, void *state) {
    const hl_bloom_desc *d = state;
    hl_pipeline_texture level[6], up[6];
    uint32_t w[6], h[6];
    hl_result res = HL_OK;
    for (uint32_t i = 0; i < d->levels && !res; i++) {
        char name[32];
        snprintf(name, sizeof name, "bloom %u", i);
        hl_pipeline_texture_desc td = {HL_PIPELINE_FORMAT_RGBA16F, 0, 0, 1.0f / (float)(2u << i), 1, name, 1, 0};
        res = hl_pipeline_create_texture(ctx, &td, &level[i]);
        if (!res) res = hl_pipeline_texture_size(ctx, level[i], &w[i], &h[i]);
    }
    uint32_t sw = 0, sh = 0;
    if (!res) res = hl_pipeline_texture_size(ctx, frame->color, &sw, &sh);
    static const char *const one[] = {"u_src"};
    fs_params p = {{1.0f / (float)sw, 1.0f / (float)sh, 0, 0}, {d->threshold, 0, 0, 0}};
    if (!res) res = fullscreen(ctx, "bloom prefilter", k_prefilter_fs, &p, sizeof p, one, &frame->color, 1, level[0]);
    for (uint32_t i = 1; i < d->levels && !res; i++) {
        p = (fs_params){{1.0f / (float)w[i - 1], 1.0f / (float)h[i - 1], 0, 0}, {0, 0, 0, 0}};
        res = fullscreen(ctx, "bloom down", k_down_fs, &p, sizeof p, one, &level[i - 1], 1, level[i]);
    }
    /* up[i] = tent(up[i + 1] or level[last]) + level[i]; the last step adds the scene */
    static const char *const two[] = {"u_low", "u_high"};
    hl_pipeline_texture low = level[d->levels - 1];
    uint32_t lw = w[d->levels - 1], lh = h[d->levels - 1];
    for (uint32_t i = d->levels - 1; i-- > 0 && !res;) {
        char name[32];
        snprintf(name, sizeof name, "bloom up %u", i);
        hl_pipeline_texture_desc td = {HL_PIPELINE_FORMAT_RGBA16F, 0, 0, 1.0f / (float)(2u << i), 1, name, 1, 0};
        res = hl_pipeline_create_texture(ctx, &td, &up[i]);
        hl_pipeline_texture in[2] = {low, level[i]};
        p = (fs_params){{1.0f / (float)lw, 1.0f / (float)lh, 0, 0}, {1.0f, 1.0f, 0, 0}};
        if (!res) res = fullscreen(ctx, "bloom up", k_up_fs, &p, sizeof p, two, in, 2, up[i]);
        low = up[i], lw = w[i], lh = h[i];
    }
    hl_pipeline_texture out;
    hl_pipeline_texture_desc td = {HL_PIPELINE_FORMAT_RGBA16F, 0, 0, 0, 0, "bloom composite", 1, 0};
    if (!res) res = hl_pipeline_create_texture(ctx, &td, &out);
    hl_pipeline_texture in[2] = {low, frame->color};
    p = (fs_params){{1.0f / (float)lw, 1.0f / (float)lh, 0, 0}, {d->intensity, 1.0f, 0, 0}};
    if (!res) res = fullscreen(ctx, "bloom composite", k_up_fs, &p, sizeof p, two, in, 2, out);
    if (!res) frame->color = out;
    return res;
}

void hl_forward_bloom(const hl_bloom_desc *desc, hl_forward_feature_desc *out) {
    static const hl_bloom_desc defaults = {0};
    memset(out, 0, sizeof *out);
    out->name = "bloom";
    out->injection = HL_FORWARD_POST;
    out->samples_scene_color = true;
    out->user = desc ? desc : &defaults;
    out->user_size = sizeof(hl_bloom_desc);
    out->create = bloom_create;
    out->record = bloom_record;
}

/* ---- tone mapping ----------------------------------------------------------------------------------------- */
static const char *const k_tone_fs =
    "#version 300 es\n"
    "precision highp float;\n"
    "in vec2 v_uv;\n"
    "uniform sampler2D u_src;\n"
    "layout(std140) uniform Params { vec4 p; };\n" /* p.x exposure, p.y operator (0 ACES, 1 neutral) */
    "out vec4 o_color;\n"
    "vec3 aces(vec3 x) { return clamp(x * (2.51 * x + 0.03) / (x * (2.43 * x + 0.59) + 0.14), 0.0, 1.0); }\n"
    "vec3 neutral(vec3 c) {\n"
    "    const float start = 0.8 - 0.04, desat = 0.15;\n"
    "    float x = min(c.r, min(c.g, c.b));\n"
    "    float offset = x < 0.08 ? x - 6.25 * x * x : 0.04;\n"
    "    c -= offset;\n"
    "    float peak = max(c.r, max(c.g, c.b));\n"
    "    if (peak < start) return c;\n"
    "    float d = 1.0 - start;\n"
    "    float np = 1.0 - d * d / (peak + d - start);\n"
    "    c *= np / peak;\n"
    "    float g = 1.0 - 1.0 / (desat * (peak - np) + 1.0);\n"
    "    return mix(c, vec3(np), g);\n"
    "}\n"
    "void main() {\n"
    "    vec3 c = max(texture(u_src, v_uv).rgb * p.x, vec3(0.0));\n"
    "    o_color = vec4(p.y < 0.5 ? aces(c) : clamp(neutral(c), 0.0, 1.0), 1.0);\n"
    "}\n";

static hl_result tone_create(const void *user, void **state) {
    hl_tone_map_desc *d = (hl_tone_map_desc *)user;
    if (d->exposure == 0.0f) d->exposure = 1.0f;
    if ((unsigned)d->op > HL_TONE_MAP_NEUTRAL || !(d->exposure > 0.0f) || !isfinite(d->exposure))
        return hl__fail(HL_ERR_VALIDATION, "tone map: operator %d, exposure %g (> 0)", (int)d->op, (double)d->exposure);
    *state = d;
    return HL_OK;
}

static hl_result tone_record(hl_pipeline_context ctx, hl_forward_frame *frame, void *state) {
    const hl_tone_map_desc *d = state;
    hl_pipeline_texture out;
    hl_pipeline_texture_desc td = {HL_PIPELINE_FORMAT_RGBA8_SRGB, 0, 0, 0, 0, "tone mapped", 1, 0};
    hl_result res = hl_pipeline_create_texture(ctx, &td, &out);
    float p[4] = {d->exposure, d->op == HL_TONE_MAP_NEUTRAL ? 1.0f : 0.0f, 0, 0};
    static const char *const one[] = {"u_src"};
    if (!res) res = fullscreen(ctx, "tone map", k_tone_fs, p, sizeof p, one, &frame->color, 1, out);
    if (!res) frame->color = out;
    return res;
}

void hl_forward_tone_map(const hl_tone_map_desc *desc, hl_forward_feature_desc *out) {
    static const hl_tone_map_desc defaults = {HL_TONE_MAP_ACES, 1.0f};
    memset(out, 0, sizeof *out);
    out->name = "tone-map";
    out->injection = HL_FORWARD_POST;
    out->samples_scene_color = true;
    out->user = desc ? desc : &defaults;
    out->user_size = sizeof(hl_tone_map_desc);
    out->create = tone_create;
    out->record = tone_record;
}

/* ---- FXAA -------------------------------------------------------------------------------------------------- */
/* textureLod and no early return: WebGPU (Tint) allows implicit-derivative sampling only in
 * uniform control flow */
static const char *const k_fxaa_fs =
    "#version 300 es\n"
    "precision highp float;\n"
    "in vec2 v_uv;\n"
    "uniform sampler2D u_src;\n"
    "layout(std140) uniform Params { vec4 texel; };\n"
    "out vec4 o_color;\n"
    "float luma(vec3 c) { return dot(sqrt(max(c, vec3(0.0))), vec3(0.299, 0.587, 0.114)); }\n"
    "vec3 at(vec2 uv) { return textureLod(u_src, uv, 0.0).rgb; }\n"
    "void main() {\n"
    "    vec2 t = texel.xy;\n"
    "    vec3 cm = at(v_uv);\n"
    "    float lm = luma(cm);\n"
    "    float lnw = luma(at(v_uv + vec2(-t.x, -t.y)));\n"
    "    float lne = luma(at(v_uv + vec2( t.x, -t.y)));\n"
    "    float lsw = luma(at(v_uv + vec2(-t.x,  t.y)));\n"
    "    float lse = luma(at(v_uv + vec2( t.x,  t.y)));\n"
    "    float lmin = min(lm, min(min(lnw, lne), min(lsw, lse)));\n"
    "    float lmax = max(lm, max(max(lnw, lne), max(lsw, lse)));\n"
    "    vec2 dir = vec2(-((lnw + lne) - (lsw + lse)), (lnw + lsw) - (lne + lse));\n"
    "    float reduce = max((lnw + lne + lsw + lse) * 0.25 * 0.125, 1.0 / 128.0);\n"
    "    float rcp = 1.0 / (min(abs(dir.x), abs(dir.y)) + reduce);\n"
    "    dir = clamp(dir * rcp, vec2(-8.0), vec2(8.0)) * t;\n"
    "    vec3 a = 0.5 * (at(v_uv + dir * (1.0 / 3.0 - 0.5)) + at(v_uv + dir * (2.0 / 3.0 - 0.5)));\n"
    "    vec3 b = a * 0.5 + 0.25 * (at(v_uv - dir * 0.5) + at(v_uv + dir * 0.5));\n"
    "    float lb = luma(b);\n"
    "    vec3 edge = (lb < lmin || lb > lmax) ? a : b;\n"
    "    bool flat_ = lmax - lmin < max(0.0312, lmax * 0.125);\n"
    "    o_color = vec4(flat_ ? cm : edge, 1.0);\n"
    "}\n";

static hl_result fxaa_record(hl_pipeline_context ctx, hl_forward_frame *frame, void *state) {
    (void)state;
    uint32_t w = 0, h = 0;
    hl_result res = hl_pipeline_texture_size(ctx, frame->color, &w, &h);
    hl_pipeline_texture out;
    hl_pipeline_texture_desc td = {HL_PIPELINE_FORMAT_RGBA8_SRGB, 0, 0, 0, 0, "fxaa", 1, 0};
    if (!res) res = hl_pipeline_create_texture(ctx, &td, &out);
    float p[4] = {1.0f / (float)w, 1.0f / (float)h, 0, 0};
    static const char *const one[] = {"u_src"};
    if (!res) res = fullscreen(ctx, "fxaa", k_fxaa_fs, p, sizeof p, one, &frame->color, 1, out);
    if (!res) frame->color = out;
    return res;
}

void hl_forward_fxaa(hl_forward_feature_desc *out) {
    memset(out, 0, sizeof *out);
    out->name = "fxaa";
    out->injection = HL_FORWARD_POST;
    out->samples_scene_color = true;
    out->record = fxaa_record;
}
