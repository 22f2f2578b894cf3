/* GPU-driven draw passes (hl_pipeline_add_gpu_draw_pass) with storage shaders, on one backend
 * per run; every pixel compared with a CPU reference.
 *
 * webgpu: rectangles described in a storage buffer (pixel bounds, colour, depth), one instance
 * each, drawn into an RGBA8 target at several sizes and aspects (1x1 .. 67x23) in every draw
 * form: direct, indexed (an index buffer in storage), indirect and indexed-indirect with the
 * arguments written by a compute pass of the same frame; opaque (later instances win), alpha and
 * additive blending over a cleared colour, a loaded colour (a second pass onto the first), depth
 * test and write with the instances in reverse order (the nearest wins), back-face culling (a
 * mirrored rectangle disappears), two passes sharing one buffer, and random combinations of
 * all of these (HL_GPU_DRAW_RANDOM=N). Values exact (colours are k/255 of an RGBA8 unorm target;
 * alpha blends within +-2: per-layer rounding, damped by the layers above). Refusals by name: a missing or
 * unknown block, depth without a depth texture, a direct draw of 0, an indirect range past the
 * buffer, a shader with a sampler, a uniform block other than Params, a writable buffer block,
 * another renderer's shader. Explicit vertex buffers (per-vertex corners, per-instance bounds and
 * UNORM8X4 colours interleaved) draw the same rects, exactly; an input without an attribute is
 * refused by name. A sampler2D reads a texture a fullscreen pass wrote (texelFetch: exact).
 * gles3: hl_storage_shader_create and the pass are HL_ERR_UNSUPPORTED with no GL call. */
#include <stdlib.h>
#include <string.h>

#include "hilo3d/compute.h"
#include "hilo3d/scene.h"
#include "hl_test.h"
#include "hl_test_render.h"
#include "render_internal.h"

/* rect i: bounds (x0, y0, x1, y1) in pixels, colour (k/255), z in [0, 1] */
typedef struct rect {
    float bounds[4];
    float color[4];
    float z, mirror, pad[2];
} rect;

static const char *k_vs =
    "#version 310 es\n"
    "struct Rect { vec4 bounds; vec4 color; vec4 z; };\n"
    "layout(std430) readonly buffer Rects { Rect rects[]; };\n"
    "layout(std140) uniform Params { vec4 size; };\n" /* target width, height */
    "out vec4 v_color;\n"
    "void main() {\n"
    "    Rect q = rects[gl_InstanceID];\n"
    "    int c = gl_VertexID % 6;\n"
    "    bool right = c == 1 || c == 4 || c == 5, bottom = c == 2 || c == 3 || c == 5;\n"
    "    if (q.z.y < 0.5) right = !right;\n" /* counter-clockwise (front) unless mirrored */
    "    vec2 px = vec2(right ? q.bounds.z : q.bounds.x, bottom ? q.bounds.w : q.bounds.y);\n"
    "    gl_Position = vec4(px.x / size.x * 2.0 - 1.0, 1.0 - px.y / size.y * 2.0, q.z.x, 1.0);\n"
    "    v_color = q.color;\n"
    "}\n";
static const char *k_fs = "#version 310 es\n"
                          "precision highp float;\n"
                          "in vec4 v_color;\n"
                          "out vec4 o_color;\n"
                          "void main() { o_color = v_color; }\n";

/* args[0..4] = (6, n, 0, 0, 0) for draw-indirect, (6, n, 0, 0, 0) = index count, instances,
 * first index, base vertex, first instance for the indexed form: the same five words */
static const char *k_args =
    "@group(0) @binding(0) var<storage, read> n: array<u32>;\n"
    "@group(0) @binding(1) var<storage, read_write> args: array<u32>;\n"
    "@compute @workgroup_size(1)\n"
    "fn main() { args[0] = 6u; args[1] = n[0]; args[2] = 0u; args[3] = 0u; args[4] = 0u; }\n";
static const hl_compute_binding k_args_abi[] = {
    {"n", 0, 0, HL_COMPUTE_STORAGE_READ, 4},
    {"args", 0, 1, HL_COMPUTE_STORAGE_READ_WRITE, 20},
};

enum form { F_DIRECT = 0, F_INDEXED, F_INDIRECT, F_INDEXED_INDIRECT, F_COUNT };

typedef struct st {
    hl_renderer *r;
    hl_render_target *target;
    hl_storage_shader *shader;
    hl_compute_kernel *args;
    hl_storage_buffer *rects, *index, *n, *argbuf;
    uint32_t count, w, h;
    enum form form;
    hl_pipeline_blend blend;
    bool depth, cull, second; /* second: a loaded second pass drawing instance 0 again, opaque */
    bool misuse, gles3;
    hl_result codes[16];
    char msgs[16][200];
    uint32_t code_count;
    uint64_t native_before, native_after;
} st;

static void note(st *s, hl_result r) {
    if (s->code_count < 16) {
        snprintf(s->msgs[s->code_count], sizeof s->msgs[0], "%s", r ? hl_last_error() : "");
        s->codes[s->code_count++] = r;
    }
}

/* When set, passes take their blend/depth/cull from this material (see main). */
static const hl_material *g_state_material;

static hl_result record(hl_pipeline_context ctx, void *state) {
    st *s = state;
    if (s->gles3) {
        s->native_before = hl_rhi_device_stats(s->r->dev)->native_calls;
        hl_pipeline_gpu_draw_pass_desc g = {0};
        note(s, hl_pipeline_add_gpu_draw_pass(ctx, &g));
        s->native_after = hl_rhi_device_stats(s->r->dev)->native_calls;
        return HL_OK;
    }
    hl_pipeline_texture img, depth = {0};
    hl_pipeline_buffer rects, index = {0}, args = {0}, n;
    hl_result res = hl_pipeline_import_render_target(ctx, s->target, 0, &img);
    if (!res) res = hl_pipeline_import_storage_buffer(ctx, s->rects, &rects);
    if (!res && s->depth) {
        hl_pipeline_texture_desc td = {HL_PIPELINE_FORMAT_DEPTH24_PLUS, s->w, s->h, 0, 0, "depth", 1, 0};
        res = hl_pipeline_create_texture(ctx, &td, &depth);
    }
    if (res) return res;
    bool indexed = s->form == F_INDEXED || s->form == F_INDEXED_INDIRECT;
    if (indexed && (res = hl_pipeline_import_storage_buffer(ctx, s->index, &index))) return res;
    if (s->form >= F_INDIRECT) {
        if ((res = hl_pipeline_import_storage_buffer(ctx, s->n, &n))) return res;
        hl_pipeline_buffer_desc bd = {20, "args"};
        if ((res = hl_pipeline_create_buffer(ctx, &bd, &args))) return res; /* a transient, written on the GPU */
        hl_pipeline_compute_resource cr[2] = {{0}};
        cr[0].name = "n";
        cr[0].buffer = n;
        cr[1].name = "args";
        cr[1].buffer = args;
        cr[1].overwrite = true; /* every byte written: a transient needs no earlier writer */
        hl_pipeline_compute_pass_desc cd = {0};
        cd.name = "args";
        cd.kernel = s->args;
        cd.resources = cr;
        cd.resource_count = 2;
        cd.groups[0] = 1;
        if ((res = hl_pipeline_add_compute_pass(ctx, &cd))) return res;
    }
    float size[4] = {(float)s->w, (float)s->h, 0, 0};
    hl_pipeline_gpu_draw_pass_desc g = {0};
    g.name = "rects";
    g.shader = s->shader;
    g.buffers[0] = (hl_pipeline_storage_binding){"Rects", rects, 0, 0};
    g.buffer_count = 1;
    g.params = size;
    g.params_size = sizeof size;
    g.color[0] = img;
    g.color_count = 1;
    g.clear_color[0] = 0.2f;
    g.clear_color[3] = 1.0f;
    g.depth = depth;
    g.blend = s->blend;
    g.depth_test = g.depth_write = s->depth;
    g.cull_back = s->cull;
    g.index_buffer = index;
    g.count = 6;
    g.instance_count = s->count;
    g.indirect = args;
    if (g_state_material) { /* the material's state must win over these */
        g.material_state = g_state_material;
        g.blend = HL_PIPELINE_BLEND_ADDITIVE;
        g.cull_back = true;
    }
    if (s->misuse) {
        hl_pipeline_gpu_draw_pass_desc b = g;
        b.buffer_count = 0;
        note(s, hl_pipeline_add_gpu_draw_pass(ctx, &b));
        b = g;
        b.buffers[0].block = "Rect";
        note(s, hl_pipeline_add_gpu_draw_pass(ctx, &b));
        b = g;
        b.depth = (hl_pipeline_texture){0, 0};
        b.depth_test = true;
        note(s, hl_pipeline_add_gpu_draw_pass(ctx, &b));
        b = g;
        b.count = 0;
        b.indirect = (hl_pipeline_buffer){0, 0};
        note(s, hl_pipeline_add_gpu_draw_pass(ctx, &b));
        b = g;
        b.indirect = rects;
        b.indirect_offset = s->count * sizeof(rect) - 8;
        note(s, hl_pipeline_add_gpu_draw_pass(ctx, &b));
        b = g;
        b.params_size = 8;
        note(s, hl_pipeline_add_gpu_draw_pass(ctx, &b));
        b = g;
        b.buffers[0].offset = 4;
        note(s, hl_pipeline_add_gpu_draw_pass(ctx, &b));
        b = g;
        b.shader = NULL;
        note(s, hl_pipeline_add_gpu_draw_pass(ctx, &b));
    }
    if ((res = hl_pipeline_add_gpu_draw_pass(ctx, &g))) return res;
    if (s->second) { /* instance 0 again over the first pass's pixels, opaque, loaded */
        hl_pipeline_gpu_draw_pass_desc b = g;
        b.name = "again";
        b.load_color = true;
        b.load_depth = true;
        b.blend = HL_PIPELINE_BLEND_OPAQUE;
        b.index_buffer = (hl_pipeline_buffer){0, 0};
        b.indirect = (hl_pipeline_buffer){0, 0};
        b.instance_count = 1;
        b.depth_test = b.depth_write = false;
        if ((res = hl_pipeline_add_gpu_draw_pass(ctx, &b))) return res;
    }
    return HL_OK;
}

static uint32_t g_seed = 0x5eed;
static uint32_t rnd(uint32_t n) {
    g_seed = g_seed * 1103515245u + 12345u;
    return (g_seed >> 8) % n;
}

static int blend1(int dst, int src, int src_a, hl_pipeline_blend b) {
    if (b == HL_PIPELINE_BLEND_OPAQUE) return src;
    if (b == HL_PIPELINE_BLEND_ADDITIVE) return dst + src > 255 ? 255 : dst + src;
    double v = src / 255.0 * (src_a / 255.0) + dst / 255.0 * (1.0 - src_a / 255.0);
    return (int)(v * 255.0 + 0.5);
}

/* The CPU's image: clear, then each rect in instance order (depth: the nearest wins; culled
 * mirrored rects drawing nothing: back faces); alpha of the alpha blend as the GPU:
 * src_a * a + dst_a * (1 - a). */
static void reference(const st *s, const rect *q, uint8_t *img) {
    static float zbuf[128 * 128];
    for (uint32_t i = 0; i < s->w * s->h; i++) {
        img[i * 4 + 0] = 51, img[i * 4 + 1] = 0, img[i * 4 + 2] = 0, img[i * 4 + 3] = 255;
        zbuf[i] = 1.0f;
    }
    for (uint32_t k = 0; k < s->count + (s->second ? 1 : 0); k++) {
        bool again = k == s->count;
        const rect *r = again ? &q[0] : &q[k];
        if (s->cull && r->mirror > 0.5f) continue; /* clockwise: a back face */
        for (uint32_t y = 0; y < s->h; y++)
            for (uint32_t x = 0; x < s->w; x++) {
                float cx = x + 0.5f, cy = y + 0.5f;
                if (cx < r->bounds[0] || cx >= r->bounds[2] || cy < r->bounds[1] || cy >= r->bounds[3]) continue;
                uint32_t i = y * s->w + x;
                if (s->depth && !again) {
                    if (!(r->z <= zbuf[i])) continue;
                    zbuf[i] = r->z;
                }
                int sa = (int)(r->color[3] * 255.0f + 0.5f);
                hl_pipeline_blend b = again ? HL_PIPELINE_BLEND_OPAQUE : s->blend;
                for (int c = 0; c < 3; c++) img[i * 4 + c] = (uint8_t)blend1(img[i * 4 + c], (int)(r->color[c] * 255.0f + 0.5f), sa, b);
                if (b == HL_PIPELINE_BLEND_OPAQUE) img[i * 4 + 3] = (uint8_t)sa;
                else if (b == HL_PIPELINE_BLEND_ADDITIVE) img[i * 4 + 3] = (uint8_t)(img[i * 4 + 3] + sa > 255 ? 255 : img[i * 4 + 3] + sa);
                else img[i * 4 + 3] = (uint8_t)(int)((sa / 255.0 + img[i * 4 + 3] / 255.0 * (1 - sa / 255.0)) * 255.0 + 0.5);
            }
    }
}

static hl_result make_kernel(hl_renderer *r, hl_compute_kernel **out) {
    hl_compute_shader_desc d = {0};
    d.wgsl = k_args;
    d.workgroup_size[0] = 1;
    d.bindings = k_args_abi;
    d.binding_count = 2;
    hl_compute_shader *cs = NULL;
    hl_result res = hl_compute_shader_create(r, &d, &cs);
    if (res) return res;
    hl_compute_kernel_desc kd = {cs, NULL, 0, NULL};
    return hl_compute_kernel_create(r, &kd, out);
}

static void run_case(uint32_t w, uint32_t h, uint32_t count, enum form form, hl_pipeline_blend blend, bool depth, bool cull,
                     bool second) {
    st s;
    memset(&s, 0, sizeof s);
    hl_test_runtime rt = {"gpu-draw", record, &s};
    hl_pipeline_factory f;
    hl_test_runtime_factory(&rt, &f);
    hl_renderer *r = make_renderer_with(16, 16, 1, &f);
    if (!r) return;
    s.r = r;
    s.w = w, s.h = h, s.count = count, s.form = form, s.blend = blend, s.depth = depth, s.cull = cull, s.second = second;
    rect *q = calloc(count, sizeof *q);
    uint8_t *img = malloc((size_t)w * h * 4), *want = malloc((size_t)w * h * 4);
    hl_stage *stage = NULL;
    HL_CHECK_OK(hl_stage_create(&stage));
    hl_camera *cam = front_camera(stage);
    for (uint32_t i = 0; i < count; i++) {
        uint32_t x0 = rnd(w), y0 = rnd(h);
        q[i].bounds[0] = (float)x0, q[i].bounds[1] = (float)y0;
        q[i].bounds[2] = (float)(x0 + 1 + rnd(w - x0)), q[i].bounds[3] = (float)(y0 + 1 + rnd(h - y0));
        for (int c = 0; c < 3; c++) q[i].color[c] = (float)rnd(256) / 255.0f;
        q[i].color[3] = blend == HL_PIPELINE_BLEND_OPAQUE ? 1.0f : (float)(64 + rnd(128)) / 255.0f;
        q[i].z = (float)rnd(1000) / 1000.0f;
        q[i].mirror = cull && rnd(3) == 0 ? 1.0f : 0.0f;
    }
    hl_render_target_desc td = {w, h, 1, {HL_TARGET_RGBA8}, 1, true, {0, 0, 0, 0}, "gpu draw"};
    HL_CHECK_OK(hl_render_target_create(r, &td, &s.target));
    hl_storage_shader_desc sd = {k_vs, k_fs, "rects"};
    hl_result sr = hl_storage_shader_create(r, &sd, &s.shader);
    HL_CHECK_MSG(sr == HL_OK, "%s", hl_last_error());
    HL_CHECK_OK(make_kernel(r, &s.args));
    hl_storage_buffer_desc bd = {count * sizeof(rect), 0, HL_STORAGE_RECOVERY_CPU_SHADOW, q, "rects"};
    HL_CHECK_OK(hl_storage_buffer_create(r, &bd, &s.rects));
    uint32_t idx[6] = {0, 1, 2, 3, 4, 5};
    hl_storage_buffer_desc id = {sizeof idx, HL_STORAGE_USAGE_INDEX, HL_STORAGE_RECOVERY_CPU_SHADOW, idx, "indices"};
    HL_CHECK_OK(hl_storage_buffer_create(r, &id, &s.index));
    uint32_t n[1] = {count};
    hl_storage_buffer_desc nd = {4, 0, HL_STORAGE_RECOVERY_CPU_SHADOW, n, "n"};
    HL_CHECK_OK(hl_storage_buffer_create(r, &nd, &s.n));
    if (q && img && want && s.target && s.shader && s.args && s.rects && s.index && s.n) {
        hl_result res = hl_renderer_render(r, stage, cam);
        HL_CHECK_MSG(res == HL_OK, "%ux%u form %d: %s", w, h, (int)form, hl_last_error());
        HL_CHECK_OK(hl_render_target_read(r, s.target, 0, img, (size_t)w * h * 4));
        reference(&s, q, want);
        int worst = 0;
        uint32_t at = 0;
        for (uint32_t i = 0; i < w * h * 4; i++)
            if (abs(img[i] - want[i]) > worst) worst = abs(img[i] - want[i]), at = i;
        /* alpha blending rounds to 8 bits after each layer: a rounding difference of half a step is
           damped by (1 - a) >= 1 - 191/255 in the next layers, so it stays within 0.5 / (64/255) = 2 */
        HL_CHECK_MSG(worst <= (blend == HL_PIPELINE_BLEND_ALPHA ? 2 : 0),
                     "%ux%u, %u rects, form %d, blend %d, depth %d, cull %d, second %d: worst %d at (%u, %u) ch %u "
                     "(%u vs %u)", w, h, count, (int)form, (int)blend, depth, cull, second, worst, at / 4 % w, at / 4 / w,
                     at % 4, img[at], want[at]);
    }
    free(q);
    free(img);
    free(want);
    hl_stage_destroy(stage);
    hl_renderer_destroy(r);
}

static void test_misuse(void) {
    st s;
    memset(&s, 0, sizeof s);
    hl_test_runtime rt = {"gpu-draw-misuse", record, &s};
    hl_pipeline_factory f;
    hl_test_runtime_factory(&rt, &f);
    hl_renderer *r = make_renderer_with(16, 16, 1, &f), *other = make_renderer(16, 16, 1);
    if (!r || !other) return;
    s.r = r;
    s.w = s.h = 8, s.count = 2, s.misuse = true;
    rect q[2] = {{{0, 0, 4, 4}, {1, 0, 0, 1}, 0.5f, 0, {0, 0}}, {{2, 2, 8, 8}, {0, 1, 0, 1}, 0.5f, 0, {0, 0}}};
    hl_render_target_desc td = {8, 8, 1, {HL_TARGET_RGBA8}, 1, true, {0, 0, 0, 0}, "misuse"};
    HL_CHECK_OK(hl_render_target_create(r, &td, &s.target));
    hl_storage_shader_desc sd = {k_vs, k_fs, "rects"};
    HL_CHECK_OK(hl_storage_shader_create(r, &sd, &s.shader));
    hl_storage_buffer_desc bd = {sizeof q, 0, HL_STORAGE_RECOVERY_CPU_SHADOW, q, "rects"};
    HL_CHECK_OK(hl_storage_buffer_create(r, &bd, &s.rects));
    hl_stage *stage = NULL;
    HL_CHECK_OK(hl_stage_create(&stage));
    hl_camera *cam = front_camera(stage);
    HL_CHECK_OK(hl_renderer_render(r, stage, cam));
    static const char *const want[] = {
        "storage block 'Rects' has no buffer",
        "'Rect' is no storage block of shader 'rects'",
        "depth test or write without a depth texture",
        "count 0 on a direct draw",
        "indirect arguments: range [88, +16) of a 96-byte buffer",
        "params_size 8 for block Params of 16 bytes",
        "block 'Rects': range [4, +0)",
        "the shader is NULL",
    };
    HL_CHECK_EQ(s.code_count, 8);
    for (uint32_t i = 0; i < s.code_count && i < 8; i++)
        HL_CHECK_MSG(s.codes[i] == HL_ERR_VALIDATION && strstr(s.msgs[i], want[i]), "misuse %u: %d '%s' (want '%s')", i,
                     (int)s.codes[i], s.msgs[i], want[i]);
    /* shaders refused at creation */
    hl_storage_shader *x = NULL;
    const char *sampler_fs = "#version 310 es\nprecision highp float;\nuniform highp sampler2DShadow u_t;\nout vec4 o;\n"
                             "void main() { o = vec4(texture(u_t, vec3(0.5))); }\n";
    hl_storage_shader_desc bad = {k_vs, sampler_fs, "sampled"};
    HL_CHECK_RESULT(hl_storage_shader_create(r, &bad, &x), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "sampler 'u_t' must be a sampler2D") != NULL);
    const char *block_fs = "#version 310 es\nprecision highp float;\nuniform Other { vec4 c; };\nout vec4 o;\n"
                           "void main() { o = c; }\n";
    bad.fragment = block_fs;
    HL_CHECK_RESULT(hl_storage_shader_create(r, &bad, &x), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "uniform block 'Other' (only 'Params' is bound)") != NULL);
    const char *writable_fs = "#version 310 es\nprecision highp float;\nlayout(std430) buffer W { vec4 c[]; };\n"
                              "out vec4 o;\nvoid main() { o = c[0]; }\n";
    bad.fragment = writable_fs;
    HL_CHECK_RESULT(hl_storage_shader_create(r, &bad, &x), HL_ERR_SHADER);
    HL_CHECK(strstr(hl_last_error(), "storage block 'W' must be declared readonly") != NULL);
    bad.fragment = NULL;
    HL_CHECK_RESULT(hl_storage_shader_create(r, &bad, &x), HL_ERR_VALIDATION);
    HL_CHECK(x == NULL);
    HL_CHECK_RESULT(hl_storage_shader_destroy(other, s.shader), HL_ERR_VALIDATION);
    HL_CHECK_OK(hl_storage_shader_destroy(r, s.shader));
    HL_CHECK_RESULT(hl_storage_shader_destroy(r, s.shader), HL_ERR_VALIDATION);
    HL_CHECK_OK(hl_storage_shader_destroy(r, NULL));
    hl_stage_destroy(stage);
    hl_renderer_destroy(other);
    hl_renderer_destroy(r);
}

/* Explicit vertex buffers: a unit quad (6 float2 corners, per vertex) placed per instance by
 * float4 bounds and a UNORM8X4 colour (per instance, one interleaved buffer): the same rects as
 * the pulled draws, the same CPU reference. */
static const char *k_attr_vs = "#version 310 es\n"
                               "layout(std140) uniform Params { vec4 size; };\n"
                               "in vec2 a_corner;\n"
                               "in vec4 a_bounds;\n"
                               "in vec4 a_color;\n"
                               "out vec4 v_color;\n"
                               "void main() {\n"
                               "    vec2 px = mix(a_bounds.xy, a_bounds.zw, a_corner);\n"
                               "    gl_Position = vec4(px.x / size.x * 2.0 - 1.0, 1.0 - px.y / size.y * 2.0, 0.5, 1.0);\n"
                               "    v_color = a_color;\n"
                               "}\n";

typedef struct attr_st {
    hl_render_target *target;
    hl_storage_shader *shader;
    hl_storage_buffer *corners, *inst;
    uint32_t w, h, count;
    bool misuse;
    hl_result code;
    char msg[200];
} attr_st;

static hl_result attr_record(hl_pipeline_context ctx, void *state) {
    attr_st *s = state;
    hl_pipeline_texture img;
    hl_pipeline_buffer corners, inst;
    hl_result res = hl_pipeline_import_render_target(ctx, s->target, 0, &img);
    if (!res) res = hl_pipeline_import_storage_buffer(ctx, s->corners, &corners);
    if (!res) res = hl_pipeline_import_storage_buffer(ctx, s->inst, &inst);
    if (res) return res;
    float size[4] = {(float)s->w, (float)s->h, 0, 0};
    hl_pipeline_gpu_draw_pass_desc g = {0};
    g.name = "attributes";
    g.shader = s->shader;
    g.params = size;
    g.params_size = sizeof size;
    g.color[0] = img;
    g.color_count = 1;
    g.clear_color[0] = 0.2f;
    g.clear_color[3] = 1.0f;
    g.vertex[0] = (hl_pipeline_vertex_attribute){"a_corner", corners, 0, 8, HL_PIPELINE_VERTEX_FLOAT32X2, false};
    g.vertex[1] = (hl_pipeline_vertex_attribute){"a_bounds", inst, 0, 20, HL_PIPELINE_VERTEX_FLOAT32X4, true};
    g.vertex[2] = (hl_pipeline_vertex_attribute){"a_color", inst, 16, 20, HL_PIPELINE_VERTEX_UNORM8X4, true};
    g.vertex_count = 3;
    g.count = 6;
    g.instance_count = s->count;
    if (s->misuse) {
        hl_pipeline_gpu_draw_pass_desc b = g;
        b.vertex_count = 2;
        s->code = hl_pipeline_add_gpu_draw_pass(ctx, &b);
        snprintf(s->msg, sizeof s->msg, "%s", s->code ? hl_last_error() : "");
        return HL_OK;
    }
    return hl_pipeline_add_gpu_draw_pass(ctx, &g);
}

static void test_vertex_buffers(uint32_t w, uint32_t h, uint32_t count) {
    attr_st s;
    memset(&s, 0, sizeof s);
    s.w = w, s.h = h, s.count = count;
    hl_test_runtime rt = {"gpu-draw-attributes", attr_record, &s};
    hl_pipeline_factory f;
    hl_test_runtime_factory(&rt, &f);
    hl_renderer *r = make_renderer_with(16, 16, 1, &f);
    if (!r) return;
    rect *q = calloc(count, sizeof *q);
    uint8_t *inst = calloc(count, 20), *img = malloc((size_t)w * h * 4), *want = malloc((size_t)w * h * 4);
    for (uint32_t i = 0; i < count; i++) {
        uint32_t x0 = rnd(w), y0 = rnd(h);
        float b[4] = {(float)x0, (float)y0, (float)(x0 + 1 + rnd(w - x0)), (float)(y0 + 1 + rnd(h - y0))};
        uint8_t c[4] = {(uint8_t)rnd(256), (uint8_t)rnd(256), (uint8_t)rnd(256), 255};
        memcpy(q[i].bounds, b, sizeof b);
        for (int k = 0; k < 4; k++) q[i].color[k] = (float)c[k] / 255.0f;
        memcpy(inst + i * 20, b, 16);
        memcpy(inst + i * 20 + 16, c, 4);
    }
    static const float corners[12] = {0, 0, 1, 0, 0, 1, 0, 1, 1, 0, 1, 1};
    hl_render_target_desc td = {w, h, 1, {HL_TARGET_RGBA8}, 1, true, {0, 0, 0, 0}, "attributes"};
    HL_CHECK_OK(hl_render_target_create(r, &td, &s.target));
    hl_storage_shader_desc sd = {k_attr_vs, k_fs, "attributes"};
    hl_result sr = hl_storage_shader_create(r, &sd, &s.shader);
    HL_CHECK_MSG(sr == HL_OK, "%s", hl_last_error());
    hl_storage_buffer_desc cd = {sizeof corners, HL_STORAGE_USAGE_VERTEX, HL_STORAGE_RECOVERY_CPU_SHADOW, corners, "corners"};
    HL_CHECK_OK(hl_storage_buffer_create(r, &cd, &s.corners));
    hl_storage_buffer_desc id = {(uint64_t)count * 20, HL_STORAGE_USAGE_VERTEX, HL_STORAGE_RECOVERY_CPU_SHADOW, inst,
                                 "instances"};
    HL_CHECK_OK(hl_storage_buffer_create(r, &id, &s.inst));
    hl_stage *stage = NULL;
    HL_CHECK_OK(hl_stage_create(&stage));
    hl_camera *cam = front_camera(stage);
    if (q && inst && img && want && s.target && s.shader && s.corners && s.inst) {
        hl_result res = hl_renderer_render(r, stage, cam);
        HL_CHECK_MSG(res == HL_OK, "attributes %ux%u: %s", w, h, hl_last_error());
        HL_CHECK_OK(hl_render_target_read(r, s.target, 0, img, (size_t)w * h * 4));
        st ref;
        memset(&ref, 0, sizeof ref);
        ref.w = w, ref.h = h, ref.count = count, ref.blend = HL_PIPELINE_BLEND_OPAQUE;
        reference(&ref, q, want);
        int worst = 0;
        for (size_t i = 0; i < (size_t)w * h * 4; i++) worst = abs(img[i] - want[i]) > worst ? abs(img[i] - want[i]) : worst;
        HL_CHECK_MSG(worst == 0, "attributes %ux%u, %u rects: worst %d/255", w, h, count, worst);
        s.misuse = true;
        HL_CHECK_OK(hl_renderer_render(r, stage, cam));
        HL_CHECK_MSG(s.code == HL_ERR_VALIDATION && strstr(s.msg, "vertex input 'a_color' of shader 'attributes' has no "
                                                                   "attribute"), "%d '%s'", (int)s.code, s.msg);
    }
    free(q);
    free(inst);
    free(img);
    free(want);
    hl_stage_destroy(stage);
    hl_renderer_destroy(r);
}

/* Sampled textures: a fullscreen pass writes a 4x4 pattern (texel (x, y) = (x, y, 51, 255)), a
 * GPU-driven pass covering a 21x13 target reads it with texelFetch at (x % 4, y % 4): exact. */
static const char *k_pattern_fs = "#version 300 es\n"
                                  "precision highp float;\n"
                                  "in vec2 v_uv;\n"
                                  "out vec4 o_color;\n"
                                  "void main() { o_color = vec4(floor(gl_FragCoord.xy) / 255.0, 51.0 / 255.0, 1.0); }\n";
static const char *k_tex_vs = "#version 310 es\n"
                              "void main() {\n"
                              "    vec2 p = vec2(float((gl_VertexID & 1) << 2) - 1.0, float((gl_VertexID & 2) << 1) - 1.0);\n"
                              "    gl_Position = vec4(p, 0.0, 1.0);\n"
                              "}\n";
static const char *k_tex_fs = "#version 310 es\n"
                              "precision highp float;\n"
                              "uniform sampler2D u_pattern;\n"
                              "out vec4 o_color;\n"
                              "void main() { o_color = texelFetch(u_pattern, ivec2(gl_FragCoord.xy) % 4, 0); }\n";

typedef struct tex_st {
    hl_render_target *target;
    hl_storage_shader *shader;
    bool misuse;
    hl_result code;
    char msg[200];
} tex_st;

static hl_result tex_record(hl_pipeline_context ctx, void *state) {
    tex_st *s = state;
    hl_pipeline_texture img, pattern;
    hl_pipeline_texture_desc td = {HL_PIPELINE_FORMAT_RGBA8, 4, 4, 0, 0, "pattern", 1, 0};
    hl_result res = hl_pipeline_import_render_target(ctx, s->target, 0, &img);
    if (!res) res = hl_pipeline_create_texture(ctx, &td, &pattern);
    hl_pipeline_fullscreen_pass_desc fd = {0};
    fd.name = "pattern";
    fd.fragment = k_pattern_fs;
    fd.outputs[0] = pattern;
    fd.output_count = 1;
    if (!res) res = hl_pipeline_add_fullscreen_pass(ctx, &fd);
    if (res) return res;
    hl_pipeline_gpu_draw_pass_desc g = {0};
    g.name = "sampled";
    g.shader = s->shader;
    g.color[0] = img;
    g.color_count = 1;
    g.texture_names[0] = "u_pattern";
    g.textures[0] = pattern;
    g.texture_count = 1;
    g.count = 3;
    if (s->misuse) {
        g.texture_names[0] = "u_other";
        s->code = hl_pipeline_add_gpu_draw_pass(ctx, &g);
        snprintf(s->msg, sizeof s->msg, "%s", s->code ? hl_last_error() : "");
        return HL_OK;
    }
    return hl_pipeline_add_gpu_draw_pass(ctx, &g);
}

static void test_textures(void) {
    enum { TW = 21, TH = 13 };
    tex_st s;
    memset(&s, 0, sizeof s);
    hl_test_runtime rt = {"gpu-draw-textures", tex_record, &s};
    hl_pipeline_factory f;
    hl_test_runtime_factory(&rt, &f);
    hl_renderer *r = make_renderer_with(16, 16, 1, &f);
    if (!r) return;
    hl_render_target_desc td = {TW, TH, 1, {HL_TARGET_RGBA8}, 1, true, {0, 0, 0, 0}, "sampled"};
    HL_CHECK_OK(hl_render_target_create(r, &td, &s.target));
    hl_storage_shader_desc sd = {k_tex_vs, k_tex_fs, "sampled"};
    hl_result sr = hl_storage_shader_create(r, &sd, &s.shader);
    HL_CHECK_MSG(sr == HL_OK, "%s", hl_last_error());
    hl_stage *stage = NULL;
    HL_CHECK_OK(hl_stage_create(&stage));
    hl_camera *cam = front_camera(stage);
    if (s.target && s.shader) {
        hl_result res = hl_renderer_render(r, stage, cam);
        HL_CHECK_MSG(res == HL_OK, "textures: %s", hl_last_error());
        uint8_t img[TW * TH * 4];
        HL_CHECK_OK(hl_render_target_read(r, s.target, 0, img, sizeof img));
        uint32_t bad = 0;
        for (uint32_t y = 0; y < TH; y++)
            for (uint32_t x = 0; x < TW; x++) {
                const uint8_t want[4] = {(uint8_t)(x % 4), (uint8_t)(y % 4), 51, 255};
                bad += memcmp(img + (y * TW + x) * 4, want, 4) != 0;
            }
        HL_CHECK_MSG(bad == 0, "textures: %u pixels differ", bad);
        s.misuse = true;
        HL_CHECK_OK(hl_renderer_render(r, stage, cam));
        HL_CHECK_MSG(s.code == HL_ERR_VALIDATION && strstr(s.msg, "texture 'u_other' is no sampler of shader 'sampled'"),
                     "%d '%s'", (int)s.code, s.msg);
    }
    hl_stage_destroy(stage);
    hl_renderer_destroy(r);
}

static void test_gles3(void) {
    st s;
    memset(&s, 0, sizeof s);
    s.gles3 = true;
    hl_test_runtime rt = {"gpu-draw-gles3", record, &s};
    hl_pipeline_factory f;
    hl_test_runtime_factory(&rt, &f);
    hl_renderer *r = make_renderer_with(16, 16, 1, &f);
    if (!r) return;
    s.r = r;
    uint64_t calls = hl_rhi_device_stats(r->dev)->native_calls;
    hl_storage_shader *x = (hl_storage_shader *)&x;
    hl_storage_shader_desc sd = {k_vs, k_fs, "rects"};
    HL_CHECK_RESULT(hl_storage_shader_create(r, &sd, &x), HL_ERR_UNSUPPORTED);
    HL_CHECK(x == NULL && strstr(hl_last_error(), "gles3 backend") != NULL);
    HL_CHECK_RESULT(hl_storage_shader_destroy(r, (hl_storage_shader *)&sd), HL_ERR_UNSUPPORTED);
    HL_CHECK_EQ(hl_rhi_device_stats(r->dev)->native_calls, calls);
    hl_stage *stage = NULL;
    HL_CHECK_OK(hl_stage_create(&stage));
    hl_camera *cam = front_camera(stage);
    HL_CHECK_OK(hl_renderer_render(r, stage, cam));
    HL_CHECK(s.code_count == 1 && s.codes[0] == HL_ERR_UNSUPPORTED && s.native_after == s.native_before);
    hl_stage_destroy(stage);
    hl_renderer_destroy(r);
}

int main(int argc, char **argv) {
    hl_backend be = backend_of(argc, argv);
    if (be == HL_BACKEND_GLES3) {
        test_gles3();
        return hl_test_finish();
    }
    static const uint32_t sizes[][2] = {{1, 1}, {67, 23}, {20, 45}, {32, 32}};
    for (int k = 0; k < 4; k++)
        for (int form = 0; form < F_COUNT; form++)
            run_case(sizes[k][0], sizes[k][1], k == 0 ? 1 : 9 + 7 * (uint32_t)k, (enum form)form, HL_PIPELINE_BLEND_OPAQUE,
                     false, false, false);
    run_case(40, 30, 12, F_DIRECT, HL_PIPELINE_BLEND_ALPHA, false, false, false);
    run_case(40, 30, 12, F_INDIRECT, HL_PIPELINE_BLEND_ADDITIVE, false, false, false);
    run_case(40, 30, 24, F_INDEXED, HL_PIPELINE_BLEND_OPAQUE, true, false, false);
    run_case(33, 17, 24, F_DIRECT, HL_PIPELINE_BLEND_OPAQUE, false, true, false);
    run_case(33, 17, 10, F_INDEXED_INDIRECT, HL_PIPELINE_BLEND_ALPHA, false, false, true);
    /* random combinations (HL_GPU_DRAW_RANDOM=N for more): size, count, form, blend, depth, cull */
    uint32_t n = getenv("HL_GPU_DRAW_RANDOM") ? (uint32_t)strtoul(getenv("HL_GPU_DRAW_RANDOM"), NULL, 10) : 6;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t w = 1 + rnd(120), h = 1 + rnd(120), count = 1 + rnd(40);
        enum form form = (enum form)rnd(F_COUNT);
        hl_pipeline_blend blend = (hl_pipeline_blend)rnd(3);
        bool depth = blend == HL_PIPELINE_BLEND_OPAQUE && rnd(2), cull = rnd(2), second = rnd(3) == 0;
        run_case(w, h, count, form, blend, depth, cull, second);
    }
    /* a material's state: BLEND, no depth, double-sided = the explicit ALPHA, no depth, no culling */
    hl_basic_material_desc bd = {0};
    bd.color = (hl_color){1, 1, 1, 0.5f};
    bd.state.alpha_mode = HL_ALPHA_BLEND;
    bd.state.double_sided = true;
    bd.state.depth_test = bd.state.depth_write = HL_TOGGLE_OFF;
    hl_material *mat = NULL;
    HL_CHECK_OK(hl_material_create_basic(&bd, &mat));
    g_state_material = mat;
    run_case(40, 30, 12, F_DIRECT, HL_PIPELINE_BLEND_ALPHA, false, false, false);
    g_state_material = NULL;
    hl_material_release(mat);
    test_misuse();
    test_vertex_buffers(40, 30, 12);
    test_vertex_buffers(7, 19, 30);
    test_textures();
    return hl_test_finish();
}
