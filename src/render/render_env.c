/* Image-based lighting: an environment's GPU maps, built once per environment revision.
 *
 * The bake runs when a view first shows an environment (or a new revision of it), in a small
 * frame of its own outside the graph frame being recorded (as texture uploads do):
 *   1. the equirectangular image goes up as RGBA16F with its mip chain made on the CPU
 *      (hl__halve_rgbf: the same texels on every backend);
 *   2. its diffuse irradiance: 9 spherical-harmonic projections of the radiance, one fragment
 *      each (a 9 x 1 target summing every texel of the level at most 128 wide, solid-angle
 *      weighted), read back once and folded with the cosine lobe's factors;
 *   3. the specular cubemap: face size S (hl_environment_specular_size), mips down to 8 x 8;
 *      mip m holds GGX-prefiltered radiance for roughness m / (mips - 1), N = V = R, 128
 *      Hammersley samples, each read from the source mip its solid angle covers (filtered
 *      importance sampling); mip 0 is the mirror image;
 *   4. once per renderer, the split-sum BRDF table (64 x 64: x = N.V, y = roughness; r = scale,
 *      g = bias of F0; 256 samples, the Smith-GGX k = alpha / 2 the direct lights use).
 * Faces follow the cube conventions both APIs share; a fullscreen pass's v_uv is (0, 0) at row
 * 0 on both backends, so one shader writes the same faces everywhere.
 *
 * Mirrors: at most HL__MAX_ENVS at once, keyed by the environment (retained); released at frame
 * end once only the renderer holds the environment, or unused for 120 frames. */
#include <math.h>
#include <string.h>

#include "hilo3d/environment.h"
#include "hilo3d/scene.h"
#include "render_internal.h"

#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Woverlength-strings"
#endif

#define HL__ENV_COMMON                                                                                  \
    "#version 300 es\n"                                                                                 \
    "precision highp float;\n"                                                                          \
    "precision highp int;\n"                                                                            \
    "layout(std140) uniform Params { vec4 u_p0; vec4 u_p1; };\n"                                        \
    "in vec2 v_uv;\n"                                                                                   \
    "out vec4 o_color;\n"                                                                               \
    "const float PI = 3.14159265358979;\n"                                                              \
    "float radicalInverse(uint b) {\n"                                                                  \
    "    b = (b << 16u) | (b >> 16u);\n"                                                                \
    "    b = ((b & 0x55555555u) << 1u) | ((b & 0xAAAAAAAAu) >> 1u);\n"                                  \
    "    b = ((b & 0x33333333u) << 2u) | ((b & 0xCCCCCCCCu) >> 2u);\n"                                  \
    "    b = ((b & 0x0F0F0F0Fu) << 4u) | ((b & 0xF0F0F0F0u) >> 4u);\n"                                  \
    "    b = ((b & 0x00FF00FFu) << 8u) | ((b & 0xFF00FF00u) >> 8u);\n"                                  \
    "    return float(b) * 2.3283064365386963e-10;\n"                                                   \
    "}\n"                                                                                               \
    /* the half vector of Hammersley sample i of n around +Z, GGX with alpha^2 = a2 */                 \
    "vec3 ggxHalf(uint i, uint n, float a2) {\n"                                                        \
    "    float phi = 2.0 * PI * float(i) / float(n), xi = radicalInverse(i);\n"                         \
    "    float c = sqrt((1.0 - xi) / (1.0 + (a2 - 1.0) * xi));\n"                                       \
    "    float s = sqrt(max(1.0 - c * c, 0.0));\n"                                                      \
    "    return vec3(s * cos(phi), s * sin(phi), c);\n"                                                 \
    "}\n"

/* u_p0: x face, y roughness (0: the mirror image), z the mirror image's source level, w samples;
 * u_p1: x solid angle of a source texel at level 0 (the equator's), y the source's last level. */
static const char *const k_specular_fs =
    HL__ENV_COMMON
    "uniform sampler2D u_equirect;\n"
    "vec3 faceDir(int face, vec2 uv) {\n"
    "    float sc = uv.x * 2.0 - 1.0, tc = uv.y * 2.0 - 1.0;\n"
    "    if (face == 0) return vec3(1.0, -tc, -sc);\n"
    "    if (face == 1) return vec3(-1.0, -tc, sc);\n"
    "    if (face == 2) return vec3(sc, 1.0, tc);\n"
    "    if (face == 3) return vec3(sc, -1.0, -tc);\n"
    "    if (face == 4) return vec3(sc, -tc, 1.0);\n"
    "    return vec3(-sc, -tc, -1.0);\n"
    "}\n"
    "vec3 radiance(vec3 d, float lod) {\n"
    "    float u = abs(d.x) + abs(d.z) < 1e-7 ? 0.5 : 0.5 + atan(d.z, d.x) / (2.0 * PI);\n"
    "    return textureLod(u_equirect, vec2(u, acos(clamp(d.y, -1.0, 1.0)) / PI), lod).rgb;\n"
    "}\n"
    "void main() {\n"
    "    vec3 n = normalize(faceDir(int(u_p0.x), v_uv));\n"
    "    float rough = u_p0.y;\n"
    "    if (rough <= 0.0) {\n"
    "        o_color = vec4(radiance(n, u_p0.z), 1.0);\n"
    "        return;\n"
    "    }\n"
    "    float a2 = rough * rough * rough * rough;\n"
    "    vec3 up = abs(n.y) < 0.999 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0);\n"
    "    vec3 tx = normalize(cross(up, n)), ty = cross(n, tx);\n"
    "    uint count = uint(u_p0.w);\n"
    "    vec3 sum = vec3(0.0);\n"
    "    float wsum = 0.0;\n"
    "    for (uint i = 0u; i < count; i++) {\n"
    "        vec3 hs = ggxHalf(i, count, a2);\n"
    "        vec3 h = tx * hs.x + ty * hs.y + n * hs.z;\n"
    "        vec3 l = 2.0 * dot(n, h) * h - n;\n"
    "        float nl = dot(n, l);\n"
    "        if (nl <= 0.0) continue;\n"
    "        float dd = hs.z * hs.z * (a2 - 1.0) + 1.0;\n"
    "        float pdf = a2 / (PI * dd * dd) * 0.25;\n" /* D(h) (N.H) / (4 V.H), N = V */
    "        float lod = clamp(0.5 * log2(1.0 / (float(count) * pdf * u_p1.x)) + 1.0, 0.0, u_p1.y);\n"
    "        sum += radiance(l, lod) * nl;\n"
    "        wsum += nl;\n"
    "    }\n"
    "    o_color = vec4(sum / max(wsum, 1e-6), 1.0);\n"
    "}\n";

/* One fragment per coefficient k = gl_FragCoord.x: the radiance's projection on the real SH
 * basis function k (y up: 1: y, 2: z, 3: x, 4: xy, 5: yz, 6: 3z^2 - 1, 7: xz, 8: x^2 - y^2),
 * summed over every texel of source level u_p0.x. */
static const char *const k_sh_fs =
    HL__ENV_COMMON
    "uniform sampler2D u_equirect;\n"
    "void main() {\n"
    "    int k = int(gl_FragCoord.x), lod = int(u_p0.x);\n"
    "    ivec2 size = textureSize(u_equirect, lod);\n"
    "    float dphi = 2.0 * PI / float(size.x), dtheta = PI / float(size.y);\n"
    "    vec3 sum = vec3(0.0);\n"
    "    for (int y = 0; y < size.y; y++) {\n"
    "        float theta = (float(y) + 0.5) * dtheta, st = sin(theta), ct = cos(theta);\n"
    "        float dw = dphi * dtheta * st;\n"
    "        for (int x = 0; x < size.x; x++) {\n"
    "            float phi = (float(x) + 0.5) * dphi - PI;\n"
    "            vec3 d = vec3(st * cos(phi), ct, st * sin(phi));\n"
    "            float b = k == 0 ? 0.282095 : k == 1 ? 0.488603 * d.y : k == 2 ? 0.488603 * d.z\n"
    "                    : k == 3 ? 0.488603 * d.x : k == 4 ? 1.092548 * d.x * d.y : k == 5 ? 1.092548 * d.y * d.z\n"
    "                    : k == 6 ? 0.315392 * (3.0 * d.z * d.z - 1.0) : k == 7 ? 1.092548 * d.x * d.z\n"
    "                    : 0.546274 * (d.x * d.x - d.y * d.y);\n"
    "            sum += texelFetch(u_equirect, ivec2(x, y), lod).rgb * (b * dw);\n"
    "        }\n"
    "    }\n"
    "    o_color = vec4(sum, 1.0);\n"
    "}\n";

/* x = N.V, y = roughness, at texel centres. V.H is clamped to 1: near N.V = 1 rounding can put it
 * just above, and GLSL leaves pow of a negative base undefined. */
static const char *const k_brdf_fs =
    HL__ENV_COMMON
    "void main() {\n"
    "    float nv = max(v_uv.x, 1e-3), rough = v_uv.y;\n"
    "    float alpha = rough * rough, a2 = alpha * alpha, k = alpha * 0.5;\n"
    "    vec3 v = vec3(sqrt(1.0 - nv * nv), 0.0, nv);\n"
    "    float sa = 0.0, sb = 0.0;\n"
    "    const uint N = 256u;\n"
    "    for (uint i = 0u; i < N; i++) {\n"
    "        vec3 h = ggxHalf(i, N, a2);\n"
    "        vec3 l = 2.0 * dot(v, h) * h - v;\n"
    "        float nl = l.z, nh = max(h.z, 0.0), vh = clamp(dot(v, h), 0.0, 1.0);\n"
    "        if (nl <= 0.0) continue;\n"
    "        float g = (nl / (nl * (1.0 - k) + k)) * (nv / (nv * (1.0 - k) + k));\n"
    "        float gv = g * vh / max(nh * nv, 1e-6);\n"
    "        float fc = pow(max(1.0 - vh, 0.0), 5.0);\n"
    "        sa += (1.0 - fc) * gv;\n"
    "        sb += fc * gv;\n"
    "    }\n"
    "    o_color = vec4(sa / float(N), sb / float(N), 0.0, 1.0);\n"
    "}\n";

enum { ENV_SPECULAR = 0, ENV_SH, ENV_BRDF, ENV_KINDS };
enum { BRDF_SIZE = 64, SPEC_SAMPLES = 128, SH_MAX_WIDTH = 128, MIN_FACE = 8 };
#define ENV_PARAM_SLOTS 64u

/* Compiles the bake program of `kind` once per renderer (kept until the renderer goes). */
static hl_result bake_program(hl_renderer *r, uint32_t kind) {
    hl__env_program *ep = &r->env_programs[kind];
    if (ep->pipeline.id) return HL_OK;
    const char *fs = kind == ENV_SPECULAR ? k_specular_fs : kind == ENV_SH ? k_sh_fs : k_brdf_fs;
    hl_rhi_binding_plan_entry plan[2] = {{HL_RHI_PLAN_UNIFORM_BLOCK, "Params", 0, 0, 0},
                                         {HL_RHI_PLAN_SAMPLER, "u_equirect", 0, 1, 2}};
    hl_shader_program_desc pd = {0};
    pd.vertex_source = hl__render_fullscreen_vs;
    pd.fragment_source = fs;
    pd.bindings = plan;
    pd.binding_count = kind == ENV_BRDF ? 1 : 2;
    pd.label = "environment bake";
    hl_result res = hl_shader_program_compile(&pd, r->backend, &ep->prog);
    if (res) return res;
    ep->compiled = true;
    res = hl_shader_program_create_shaders(r->dev, &ep->prog, &ep->vs, &ep->fs);
    hl_rhi_bind_group_layout_entry e[HL_RHI_MAX_BINDINGS];
    uint32_t n = res ? 0 : hl_shader_program_layout_entries(&ep->prog, 0, true, e, HL_RHI_MAX_BINDINGS);
    if (!res) {
        hl_rhi_bind_group_layout_desc ld = {e, n, "environment bake"};
        res = hl_rhi_bind_group_layout_create(r->dev, &ld, &ep->bgl);
    }
    if (!res) {
        hl_rhi_pipeline_layout_desc pl = {&ep->bgl, 1, "environment bake"};
        res = hl_rhi_pipeline_layout_create(r->dev, &pl, &ep->layout);
    }
    if (!res) {
        hl_rhi_color_target_state ct = {0};
        ct.format = HL_RHI_FORMAT_RGBA16_FLOAT;
        hl_rhi_render_pipeline_desc d = {0};
        d.layout = ep->layout;
        d.vertex = ep->vs;
        d.fragment = ep->fs;
        d.color_targets = &ct;
        d.color_target_count = 1;
        d.label = "environment bake";
        res = hl_rhi_render_pipeline_create(r->dev, &d, &ep->pipeline);
    }
    return res;
}

static void program_free(hl_renderer *r, hl__env_program *ep) {
    hl_rhi_render_pipeline_destroy(r->dev, ep->pipeline);
    hl_rhi_pipeline_layout_destroy(r->dev, ep->layout);
    hl_rhi_bind_group_layout_destroy(r->dev, ep->bgl);
    hl_rhi_shader_destroy(r->dev, ep->vs);
    hl_rhi_shader_destroy(r->dev, ep->fs);
    if (ep->compiled) hl_shader_program_free(&ep->prog);
    memset(ep, 0, sizeof *ep);
}

/* One fullscreen draw of a bake. */
typedef struct bake_step {
    uint32_t kind;
    hl_rhi_texture_view view;
    float params[8]; /* Params: u_p0, u_p1 */
} bake_step;

/* What one bake frame needs and releases at the end. */
typedef struct bake {
    hl_renderer *r;
    hl_rhi_buffer params;
    uint32_t stride, used;
    bake_step steps[ENV_PARAM_SLOTS];
    hl_rhi_texture source, sh;
    hl_rhi_texture_view source_view, sh_view;
    hl_rhi_bind_group groups[ENV_KINDS];
    hl_rhi_texture_view face_views[6 * 8];
    uint32_t face_view_count;
} bake;

static hl_result bake_group(bake *b, uint32_t kind) {
    hl_renderer *r = b->r;
    if (b->groups[kind].id) return HL_OK;
    hl_rhi_bind_group_entry e[3];
    memset(e, 0, sizeof e);
    e[0].binding = 0;
    e[0].buffer = b->params;
    e[0].size = 32;
    e[1].binding = 1;
    e[1].view = b->source_view;
    e[2].binding = 2;
    e[2].sampler = r->env_source_sampler;
    hl_rhi_bind_group_desc d = {r->env_programs[kind].bgl, e, kind == ENV_BRDF ? 1u : 3u, "environment bake"};
    return hl_rhi_bind_group_create(r->dev, &d, &b->groups[kind]);
}

/* Queues one fullscreen draw of `kind` into view with parameters p0, p1 (bake_run records). */
static void bake_draw(bake *b, uint32_t kind, hl_rhi_texture_view view, const float p0[4], const float p1[4]) {
    bake_step *st = &b->steps[b->used++];
    st->kind = kind;
    st->view = view;
    memcpy(st->params, p0, sizeof(float) * 4);
    memcpy(st->params + 4, p1, sizeof(float) * 4);
}

/* Writes every step's parameters, then records and submits them in one frame of their own. */
static hl_result bake_run(bake *b) {
    hl_renderer *r = b->r;
    hl_result res = HL_OK;
    for (uint32_t i = 0; !res && i < b->used; i++)
        res = hl_rhi_buffer_write(r->dev, b->params, (uint64_t)i * b->stride, b->steps[i].params, sizeof b->steps[i].params);
    for (uint32_t k = 0; !res && k < ENV_KINDS; k++) res = bake_group(b, k);
    hl_rhi_cmd *cmd = NULL;
    if (!res) res = hl_rhi_begin_frame(r->dev, &cmd);
    if (res) return res;
    for (uint32_t i = 0; !res && i < b->used; i++) {
        const bake_step *st = &b->steps[i];
        hl_rhi_color_attachment ca = {0};
        ca.view = st->view;
        ca.load_op = HL_RHI_LOAD_CLEAR;
        ca.store_op = HL_RHI_STORE_STORE;
        hl_rhi_render_pass_desc rp = {0};
        rp.color_attachments = &ca;
        rp.color_attachment_count = 1;
        rp.label = "environment bake";
        if ((res = hl_rhi_cmd_begin_render_pass(cmd, &rp))) break;
        uint32_t offset = i * b->stride;
        res = hl_rhi_cmd_set_pipeline(cmd, r->env_programs[st->kind].pipeline);
        if (!res) res = hl_rhi_cmd_set_bind_group(cmd, 0, b->groups[st->kind], &offset, 1);
        if (!res) res = hl_rhi_cmd_draw(cmd, 3, 1, 0, 0);
        hl_result end = hl_rhi_cmd_end_render_pass(cmd);
        if (!res) res = end;
    }
    if (res) {
        hl_rhi_abort_frame(r->dev);
        return res;
    }
    hl_rhi_submission sub;
    return hl_rhi_end_frame(r->dev, &sub);
}

/* The equirectangular image as RGBA16F with its whole mip chain (2x2 box on the CPU). */
static hl_result upload_source(bake *b, const hl_environment *env, uint32_t *levels_out) {
    hl_renderer *r = b->r;
    uint32_t w = 0, h = 0;
    const float *rgb = hl_environment_pixels(env, &w, &h);
    uint32_t levels = 1;
    while ((w >> (levels - 1)) > 1 || (h >> (levels - 1)) > 1) levels++;
    hl_rhi_texture_desc td = {0};
    td.format = HL_RHI_FORMAT_RGBA16_FLOAT;
    td.width = w;
    td.height = h;
    td.mip_levels = levels;
    td.usage = HL_RHI_TEXTURE_USAGE_SAMPLED | HL_RHI_TEXTURE_USAGE_COPY_DST;
    td.label = "environment source";
    hl_result res = hl_rhi_texture_create(r->dev, &td, &b->source);
    if (!res) res = hl_rhi_texture_view_create(r->dev, b->source, NULL, &b->source_view);
    if (res) return res;
    /* scratch: this level as floats, the next one, and the half texels */
    size_t n = (size_t)w * h;
    float *cur = hl__malloc(n * 3 * sizeof(float));
    float *next = hl__malloc(((size_t)(w / 2 + 1) * (h / 2 + 1)) * 3 * sizeof(float));
    uint16_t *texels = hl__malloc(n * 4 * sizeof(uint16_t));
    if (!cur || !next || !texels) res = hl__fail(HL_ERR_OUT_OF_MEMORY, "renderer: out of memory uploading an environment");
    if (!res) memcpy(cur, rgb, n * 3 * sizeof(float));
    for (uint32_t level = 0; !res && level < levels; level++) {
        for (size_t i = 0; i < (size_t)w * h; i++) {
            for (uint32_t c = 0; c < 3; c++) texels[i * 4 + c] = hl__f32_to_f16(cur[i * 3 + c]);
            texels[i * 4 + 3] = 0x3C00u; /* 1.0 */
        }
        hl_rhi_texture_region reg = {0};
        reg.mip_level = level;
        reg.width = w;
        reg.height = h;
        res = hl_rhi_texture_write(r->dev, b->source, &reg, texels, 0);
        r->stats.upload_bytes += (uint64_t)w * h * 8u;
        uint32_t nw = w > 1 ? w / 2 : 1, nh = h > 1 ? h / 2 : 1;
        hl__halve_rgbf(cur, w, h, next);
        float *t = cur;
        cur = next;
        next = t;
        w = nw;
        h = nh;
    }
    hl__free(cur);
    hl__free(next);
    hl__free(texels);
    *levels_out = levels;
    return res;
}

static void bake_free(bake *b) {
    hl_renderer *r = b->r;
    for (uint32_t i = 0; i < ENV_KINDS; i++) hl_rhi_bind_group_destroy(r->dev, b->groups[i]);
    for (uint32_t i = 0; i < b->face_view_count; i++) hl_rhi_texture_view_destroy(r->dev, b->face_views[i]);
    hl_rhi_texture_view_destroy(r->dev, b->source_view);
    hl_rhi_texture_view_destroy(r->dev, b->sh_view);
    hl_rhi_texture_destroy(r->dev, b->source);
    hl_rhi_texture_destroy(r->dev, b->sh);
    hl_rhi_buffer_destroy(r->dev, b->params);
}

static hl_result make_target(hl_renderer *r, uint32_t w, uint32_t h, uint32_t usage, const char *label,
                             hl_rhi_texture *tex, hl_rhi_texture_view *view) {
    hl_rhi_texture_desc td = {0};
    td.format = HL_RHI_FORMAT_RGBA16_FLOAT;
    td.width = w;
    td.height = h;
    td.usage = HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT | usage;
    td.label = label;
    hl_result res = hl_rhi_texture_create(r->dev, &td, tex);
    if (!res) res = hl_rhi_texture_view_create(r->dev, *tex, NULL, view);
    return res;
}

/* The renderer's samplers and BRDF table, made with the first environment. */
static hl_result shared_objects(hl_renderer *r) {
    hl_result res = HL_OK;
    if (!r->env_source_sampler.id) {
        hl_rhi_sampler_desc sd = {0};
        sd.mag_filter = sd.min_filter = sd.mipmap_filter = HL_RHI_FILTER_LINEAR;
        sd.address_u = HL_RHI_ADDRESS_REPEAT; /* longitude wraps */
        res = hl_rhi_sampler_create(r->dev, &sd, &r->env_source_sampler);
    }
    if (!res && !r->env_cube_sampler.id) {
        hl_rhi_sampler_desc sd = {0};
        sd.mag_filter = sd.min_filter = sd.mipmap_filter = HL_RHI_FILTER_LINEAR;
        res = hl_rhi_sampler_create(r->dev, &sd, &r->env_cube_sampler);
    }
    if (!res && !r->env_lut_sampler.id) {
        hl_rhi_sampler_desc sd = {0};
        sd.mag_filter = sd.min_filter = HL_RHI_FILTER_LINEAR;
        sd.lod_max = 0.25f;
        res = hl_rhi_sampler_create(r->dev, &sd, &r->env_lut_sampler);
    }
    for (uint32_t k = 0; !res && k < ENV_KINDS; k++) res = bake_program(r, k);
    return res;
}

static hl_result build(hl_renderer *r, hl__gpu_env *ge) {
    hl_result res = shared_objects(r);
    if (res) return res;
    bake b;
    memset(&b, 0, sizeof b);
    b.r = r;
    uint32_t align = hl_rhi_device_caps(r->dev)->limits.min_uniform_buffer_offset_alignment;
    b.stride = align > 256 ? align : 256;
    hl_rhi_buffer_desc bd = {(uint64_t)b.stride * ENV_PARAM_SLOTS, HL_RHI_BUFFER_USAGE_UNIFORM | HL_RHI_BUFFER_USAGE_COPY_DST,
                             NULL, "environment bake parameters"};
    uint32_t src_levels = 0;
    res = hl_rhi_buffer_create(r->dev, &bd, &b.params);
    if (!res) res = upload_source(&b, ge->env, &src_levels);
    if (!res) res = make_target(r, 9, 1, HL_RHI_TEXTURE_USAGE_COPY_SRC, "environment SH", &b.sh, &b.sh_view);
    bool need_lut = !r->env_brdf.id;
    if (!res && need_lut)
        res = make_target(r, BRDF_SIZE, BRDF_SIZE, HL_RHI_TEXTURE_USAGE_SAMPLED, "BRDF table", &r->env_brdf,
                          &r->env_brdf_view);
    /* the cubemap */
    uint32_t size = hl_environment_specular_size(ge->env), mips = 0;
    while ((size >> mips) >= MIN_FACE && mips < 8) mips++;
    if (!res) {
        hl_rhi_texture_desc td = {0};
        td.dimension = HL_RHI_TEXTURE_CUBE;
        td.format = HL_RHI_FORMAT_RGBA16_FLOAT;
        td.width = td.height = size;
        td.depth_or_layers = 6;
        td.mip_levels = mips;
        td.usage = HL_RHI_TEXTURE_USAGE_SAMPLED | HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT;
        td.label = "environment specular";
        res = hl_rhi_texture_create(r->dev, &td, &ge->cube);
        if (!res) res = hl_rhi_texture_view_create(r->dev, ge->cube, NULL, &ge->view);
    }
    for (uint32_t m = 0; !res && m < mips; m++)
        for (uint32_t f = 0; !res && f < 6; f++) {
            hl_rhi_texture_view_desc vd = {HL_RHI_TEXTURE_2D, m, 1, f, 1, "environment face"};
            res = hl_rhi_texture_view_create(r->dev, ge->cube, &vd, &b.face_views[b.face_view_count]);
            if (!res) b.face_view_count++;
        }
    uint32_t sw = 0, sh = 0;
    hl_environment_pixels(ge->env, &sw, &sh);
    if (!res) {
        /* the SH sums read the first level at most SH_MAX_WIDTH wide */
        uint32_t sh_level = 0;
        while ((sw >> sh_level) > SH_MAX_WIDTH) sh_level++;
        float p0[4] = {(float)sh_level, 0, 0, 0}, p1[4] = {0};
        bake_draw(&b, ENV_SH, b.sh_view, p0, p1);
        /* mirror level: the source level whose texels match the face's (4 faces around) */
        float mirror = log2f((float)sw / (4.0f * (float)size));
        float texel = 2.0f * 3.14159265f * 3.14159265f / ((float)sw * (float)sh);
        for (uint32_t m = 0; m < mips; m++)
            for (uint32_t f = 0; f < 6; f++) {
                float q0[4] = {(float)f, mips > 1 ? (float)m / (float)(mips - 1) : 0.0f, mirror > 0 ? mirror : 0.0f,
                               (float)SPEC_SAMPLES};
                float q1[4] = {texel, (float)(src_levels - 1), 0, 0};
                bake_draw(&b, ENV_SPECULAR, b.face_views[m * 6 + f], q0, q1);
            }
        if (need_lut) bake_draw(&b, ENV_BRDF, r->env_brdf_view, p1, p1);
        res = bake_run(&b);
    }
    uint16_t texels[9 * 4];
    hl_rhi_texture_region reg = {0};
    reg.width = 9;
    reg.height = 1;
    if (!res) res = hl_rhi_texture_read(r->dev, b.sh, &reg, texels, 0);
    if (!res) {
        /* irradiance / PI = sum over l of (A_l / PI) L_lm Y_lm: A_0 = PI, A_1 = 2 PI / 3, A_2 = PI / 4 */
        static const float band[9] = {1.0f, 2.0f / 3, 2.0f / 3, 2.0f / 3, 0.25f, 0.25f, 0.25f, 0.25f, 0.25f};
        static const float basis[9] = {0.282095f, 0.488603f, 0.488603f, 0.488603f, 1.092548f,
                                       1.092548f, 0.315392f, 1.092548f, 0.546274f};
        for (uint32_t k = 0; k < 9; k++) {
            for (uint32_t c = 0; c < 3; c++) ge->sh[k][c] = hl__f16_to_f32(texels[k * 4 + c]) * band[k] * basis[k];
            ge->sh[k][3] = 0.0f;
        }
        ge->mips = mips;
        ge->revision = hl_environment_revision(ge->env);
    }
    bake_free(&b);
    if (res && need_lut) {
        hl_rhi_texture_view_destroy(r->dev, r->env_brdf_view);
        hl_rhi_texture_destroy(r->dev, r->env_brdf);
        r->env_brdf_view = (hl_rhi_texture_view){0};
        r->env_brdf = (hl_rhi_texture){0};
    }
    return res;
}

static void gpu_env_release(hl_renderer *r, hl__gpu_env *ge) {
    hl_rhi_texture_view_destroy(r->dev, ge->view);
    hl_rhi_texture_destroy(r->dev, ge->cube);
    hl_environment_release(ge->env);
    memset(ge, 0, sizeof *ge);
}

/* The mirror of env, built (again) when its revision changed. */
static hl_result gpu_env_get(hl_renderer *r, hl_environment *env, hl__gpu_env **out) {
    hl__gpu_env *ge = NULL, *free_slot = NULL, *oldest = NULL;
    for (uint32_t i = 0; i < HL__MAX_ENVS; i++) {
        hl__gpu_env *e = &r->envs[i];
        if (e->env == env) ge = e;
        else if (!e->env && !free_slot) free_slot = e;
        else if (e->env && e->last_frame != r->frame_serial && (!oldest || e->last_frame < oldest->last_frame)) oldest = e;
    }
    if (!ge) {
        if (!free_slot && oldest) {
            gpu_env_release(r, oldest);
            free_slot = oldest;
        }
        if (!free_slot)
            return hl__fail(HL_ERR_VALIDATION, "renderer: more than %u environments in one frame", HL__MAX_ENVS);
        ge = free_slot;
        hl_environment_retain(env);
        ge->env = env;
        r->stats.cache_misses++;
    }
    ge->last_frame = r->frame_serial;
    if (ge->revision != hl_environment_revision(env)) {
        hl_rhi_texture_view_destroy(r->dev, ge->view);
        hl_rhi_texture_destroy(r->dev, ge->cube);
        ge->view = (hl_rhi_texture_view){0};
        ge->cube = (hl_rhi_texture){0};
        ge->revision = 0;
        hl_result res = build(r, ge);
        if (res) {
            gpu_env_release(r, ge);
            return res;
        }
    }
    *out = ge;
    return HL_OK;
}

hl_result hl__env_view(hl_renderer *r, hl_stage *stage, hl__frame_block *fb, hl__gpu_env **out) {
    *out = NULL;
    fb->exposure[0] = hl_stage_exposure(stage);
    hl_environment *env = hl_stage_environment(stage);
    if (!env) return HL_OK;
    hl__gpu_env *ge = NULL;
    hl_result res = gpu_env_get(r, env, &ge);
    if (res) return res;
    float rot = hl_environment_rotation(env);
    fb->env[0] = hl_environment_intensity(env);
    fb->env[1] = (float)(ge->mips - 1);
    fb->env[2] = cosf(rot);
    fb->env[3] = sinf(rot);
    memcpy(fb->env_sh, ge->sh, sizeof fb->env_sh);
    *out = ge;
    return HL_OK;
}

void hl__render_env_evict(hl_renderer *r) {
    bool aged = r->frame_serial % 60u == 0;
    uint64_t old = aged && r->frame_serial > 120 ? r->frame_serial - 120 : 0;
    for (uint32_t i = 0; i < HL__MAX_ENVS; i++) {
        hl__gpu_env *ge = &r->envs[i];
        if (ge->env && (ge->last_frame < old || hl_environment_ref_count(ge->env) == 1)) gpu_env_release(r, ge);
    }
}

void hl__render_env_free(hl_renderer *r) {
    for (uint32_t i = 0; i < HL__MAX_ENVS; i++)
        if (r->envs[i].env) gpu_env_release(r, &r->envs[i]);
    for (uint32_t k = 0; k < ENV_KINDS; k++) program_free(r, &r->env_programs[k]);
    hl_rhi_texture_view_destroy(r->dev, r->env_brdf_view);
    hl_rhi_texture_destroy(r->dev, r->env_brdf);
    hl_rhi_sampler_destroy(r->dev, r->env_source_sampler);
    hl_rhi_sampler_destroy(r->dev, r->env_cube_sampler);
    hl_rhi_sampler_destroy(r->dev, r->env_lut_sampler);
    r->env_brdf_view = (hl_rhi_texture_view){0};
    r->env_brdf = (hl_rhi_texture){0};
    r->env_source_sampler = r->env_cube_sampler = r->env_lut_sampler = (hl_rhi_sampler){0};
}
