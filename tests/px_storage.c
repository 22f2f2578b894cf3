/* Storage buffers and compute passes through a pipeline's graph (include/hilo3d/compute.h), on
 * one backend per run.
 *
 * webgpu: a storage buffer's initial contents, CPU writes (delivered by the next graph frame)
 * and asynchronous reads (poll, wait, one pending read per renderer, a destination too small, a
 * read pending at destroy); descriptors refused by name; another renderer's buffer. Compute
 * passes in the frame transaction: dst += src * scale + add over frames (the values read back
 * equal the CPU's exactly: one multiply-add of small integers), the CPU shadow made stale only
 * by a frame that submits (a record that fails after adding the pass changes neither contents
 * nor flags), a transient buffer between two passes, a culled pass (nothing reads what it
 * writes), an indirect dispatch whose arguments a compute pass wrote, an imported buffer without
 * the indirect usage refused by name, buffer clear / copy passes (whole and ranged), a storage
 * texture written by a kernel (13x7, exact texels, copied into a target) and read back as a
 * sampled texture by another, every binding problem refused by name. The particle workload: 65,536 bodies integrated by a kernel
 * each frame for 8 frames, compacted with an atomic counter into draw-indirect arguments and a
 * visible-index list; bodies within 1e-4 of the CPU reference, the count equal to the CPU's
 * and the list the same set.
 * gles3: every storage call, and every compute call inside a record, is HL_ERR_UNSUPPORTED with
 * no native call made. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hilo3d/compute.h"
#include "hilo3d/scene.h"
#include "hl_test.h"
#include "hl_gpu_examples.h"
#include "hl_test_render.h"
#include "render_internal.h"

static const char *k_axpy =
    "struct Params { scale: f32, add: f32, count: u32, pad: u32, }\n"
    "@group(0) @binding(0) var<uniform> params: Params;\n"
    "@group(0) @binding(1) var<storage, read> src: array<f32>;\n"
    "@group(0) @binding(2) var<storage, read_write> dst: array<f32>;\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(global_invocation_id) id: vec3<u32>) {\n"
    "    let i = id.x;\n"
    "    if (i >= params.count) { return; }\n"
    "    dst[i] = dst[i] + src[i] * params.scale + params.add;\n"
    "}\n";
static const hl_compute_binding k_axpy_abi[] = {
    {"params", 0, 0, HL_COMPUTE_UNIFORM_BUFFER, 16},
    {"src", 0, 1, HL_COMPUTE_STORAGE_READ, 4},
    {"dst", 0, 2, HL_COMPUTE_STORAGE_READ_WRITE, 4},
};

/* args = ((n + 63) / 64, 1, 1): the workgroups of an axpy over n elements. */
static const char *k_args =
    "@group(0) @binding(0) var<storage, read> n: array<u32>;\n"
    "@group(0) @binding(1) var<storage, read_write> args: array<u32>;\n"
    "@compute @workgroup_size(1)\n"
    "fn main() { args[0] = (n[0] + 63u) / 64u; args[1] = 1u; args[2] = 1u; }\n";
static const hl_compute_binding k_args_abi[] = {
    {"n", 0, 0, HL_COMPUTE_STORAGE_READ, 4},
    {"args", 0, 1, HL_COMPUTE_STORAGE_READ_WRITE, 12},
};

/* Textures in compute passes: one kernel writes a storage texture, another reads it as a
 * sampled texture into a buffer. */
static const char *k_write_img =
    "@group(0) @binding(0) var img: texture_storage_2d<rgba8unorm, write>;\n"
    "@compute @workgroup_size(8, 8)\n"
    "fn main(@builtin(global_invocation_id) id: vec3<u32>) {\n"
    "    let d = textureDimensions(img);\n"
    "    if (id.x >= d.x || id.y >= d.y) { return; }\n"
    "    textureStore(img, vec2<i32>(id.xy), vec4<f32>(f32(id.x) / 255.0, f32(id.y) / 255.0, 51.0 / 255.0, 1.0));\n"
    "}\n";
static const hl_compute_binding k_write_img_abi[] = {{"img", 0, 0, HL_COMPUTE_STORAGE_TEXTURE_2D_WRITE, 0}};
static const char *k_read_img =
    "@group(0) @binding(0) var src: texture_2d<f32>;\n"
    "@group(0) @binding(1) var<storage, read_write> texels: array<u32>;\n"
    "@compute @workgroup_size(8, 8)\n"
    "fn main(@builtin(global_invocation_id) id: vec3<u32>) {\n"
    "    let d = textureDimensions(src);\n"
    "    if (id.x >= d.x || id.y >= d.y) { return; }\n"
    "    texels[id.y * d.x + id.x] = pack4x8unorm(textureLoad(src, vec2<i32>(id.xy), 0));\n"
    "}\n";
static const hl_compute_binding k_read_img_abi[] = {{"src", 0, 0, HL_COMPUTE_SAMPLED_TEXTURE_2D, 0},
                                                    {"texels", 0, 1, HL_COMPUTE_STORAGE_READ_WRITE, 4}};
enum { TEX_W = 13, TEX_H = 7 };

typedef struct params {
    float scale, add;
    uint32_t count, pad;
} params;

enum mode {
    M_AXPY = 0,   /* dst += src * scale + add */
    M_AXPY_FAIL,  /* the same, then the record fails */
    M_TRANSIENT,  /* tmp = 0; tmp += src; dst += tmp * 1 (two passes through a transient) */
    M_CULLED,     /* a pass writing a transient nothing reads */
    M_INDIRECT,   /* args from n, then an indirect axpy */
    M_NO_INDIRECT_USAGE, /* the same with an args buffer lacking HL_STORAGE_USAGE_INDIRECT */
    M_CLEAR_COPY, /* dst[0..4) = 0 (ranged clear); copy src[4..8) to dst[8..12) */
    M_CLEAR_WHOLE,
    M_MISUSE,     /* every refused call; records its codes */
    M_TEXTURES,   /* a storage texture written, copied into a target and read back by a kernel */
    M_PARTICLES,
    M_GLES3,      /* every compute call refused */
};

typedef struct st {
    enum mode m;
    hl_renderer *r;
    hl_render_target *image; /* particles: the RGBA8 target the draw counts into */
    hl_storage_shader *quads;
    hl_compute_kernel *axpy, *args, *step, *compact, *write_img, *read_img;
    hl_render_target *tex_target;
    hl_storage_buffer *src, *dst, *n, *argbuf, *bodies, *draw_args, *visible;
    params p;
    hl_result misuse[24];
    char misuse_msg[24][200];
    uint32_t misuse_count;
    uint64_t native_before, native_after;
} st;

static hl_result axpy(hl_pipeline_context ctx, st *s, hl_pipeline_buffer src, hl_pipeline_buffer dst, const params *p) {
    hl_pipeline_compute_resource res[3] = {{0}};
    res[0].name = "params";
    res[0].data = p;
    res[0].data_size = sizeof *p;
    res[1].name = "src";
    res[1].buffer = src;
    res[2].name = "dst";
    res[2].buffer = dst;
    hl_pipeline_compute_pass_desc d = {0};
    d.name = "axpy";
    d.kernel = s->axpy;
    d.resources = res;
    d.resource_count = 3;
    d.groups[0] = (p->count + 63) / 64;
    return hl_pipeline_add_compute_pass(ctx, &d);
}

static void note(st *s, hl_result r) {
    if (s->misuse_count < 24) {
        snprintf(s->misuse_msg[s->misuse_count], sizeof s->misuse_msg[0], "%s", r ? hl_last_error() : "");
        s->misuse[s->misuse_count++] = r;
    }
}

static hl_result record(hl_pipeline_context ctx, void *state) {
    st *s = state;
    hl_pipeline_buffer src = {0}, dst = {0}, tmp = {0}, n = {0}, args = {0};
    hl_result res = HL_OK;
    if (s->m == M_GLES3) {
        s->native_before = hl_rhi_device_stats(s->r->dev)->native_calls;
        hl_pipeline_buffer_desc bd = {64, "tmp"};
        note(s, hl_pipeline_create_buffer(ctx, &bd, &tmp));
        note(s, hl_pipeline_import_storage_buffer(ctx, (hl_storage_buffer *)s, &src));
        note(s, hl_pipeline_add_buffer_clear_pass(ctx, NULL, tmp, 0, 0));
        note(s, hl_pipeline_add_buffer_copy_pass(ctx, NULL, tmp, 0, src, 0, 4));
        hl_pipeline_compute_pass_desc d = {0};
        note(s, hl_pipeline_add_compute_pass(ctx, &d));
        s->native_after = hl_rhi_device_stats(s->r->dev)->native_calls;
        return HL_OK;
    }
    if (s->m == M_PARTICLES) return HL_OK; /* handled by particles_record */
    if ((res = hl_pipeline_import_storage_buffer(ctx, s->src, &src))) return res;
    if ((res = hl_pipeline_import_storage_buffer(ctx, s->dst, &dst))) return res;
    switch (s->m) {
    case M_AXPY: return axpy(ctx, s, src, dst, &s->p);
    case M_AXPY_FAIL:
        if ((res = axpy(ctx, s, src, dst, &s->p))) return res;
        return hl__fail(HL_ERR_VALIDATION, "the test's record fails on purpose");
    case M_TRANSIENT: {
        hl_pipeline_buffer_desc bd = {s->p.count * 4u, "tmp"};
        params one = {1.0f, 0.0f, s->p.count, 0};
        if ((res = hl_pipeline_create_buffer(ctx, &bd, &tmp))) return res;
        if ((res = hl_pipeline_add_buffer_clear_pass(ctx, "zero tmp", tmp, 0, 0))) return res;
        if ((res = axpy(ctx, s, src, tmp, &one))) return res;
        return axpy(ctx, s, tmp, dst, &s->p);
    }
    case M_CULLED: {
        hl_pipeline_buffer_desc bd = {s->p.count * 4u, "unread"};
        if ((res = hl_pipeline_create_buffer(ctx, &bd, &tmp))) return res;
        if ((res = hl_pipeline_add_buffer_clear_pass(ctx, "zero unread", tmp, 0, 0))) return res;
        return axpy(ctx, s, src, tmp, &s->p);
    }
    case M_INDIRECT:
    case M_NO_INDIRECT_USAGE: {
        if ((res = hl_pipeline_import_storage_buffer(ctx, s->n, &n))) return res;
        if (s->m == M_INDIRECT) {
            if ((res = hl_pipeline_import_storage_buffer(ctx, s->argbuf, &args))) return res;
        } else {
            hl_pipeline_buffer_desc bd = {16, "args"};
            (void)bd;
            if ((res = hl_pipeline_import_storage_buffer(ctx, s->dst, &args))) return res; /* no INDIRECT usage */
            dst = src;
        }
        hl_pipeline_compute_resource r2[2] = {{0}};
        r2[0].name = "n";
        r2[0].buffer = n;
        r2[1].name = "args";
        r2[1].buffer = args;
        hl_pipeline_compute_pass_desc d = {0};
        d.name = "args";
        d.kernel = s->args;
        d.resources = r2;
        d.resource_count = 2;
        d.groups[0] = 1;
        if ((res = hl_pipeline_add_compute_pass(ctx, &d))) return res;
        hl_pipeline_compute_resource r3[3] = {{0}};
        r3[0].name = "params";
        r3[0].data = &s->p;
        r3[0].data_size = sizeof s->p;
        r3[1].name = "src";
        r3[1].buffer = src;
        r3[2].name = "dst";
        r3[2].buffer = dst;
        d.name = "axpy indirect";
        d.kernel = s->axpy;
        d.resources = r3;
        d.resource_count = 3;
        d.indirect = args;
        return hl_pipeline_add_compute_pass(ctx, &d);
    }
    case M_CLEAR_COPY:
        if ((res = hl_pipeline_add_buffer_clear_pass(ctx, "clear 0..4", dst, 0, 16))) return res;
        return hl_pipeline_add_buffer_copy_pass(ctx, "copy", src, 16, dst, 32, 16);
    case M_CLEAR_WHOLE: return hl_pipeline_add_buffer_clear_pass(ctx, "clear all", dst, 0, 0);
    case M_TEXTURES: {
        hl_pipeline_texture img, target;
        hl_pipeline_texture_desc td = {HL_PIPELINE_FORMAT_RGBA8, TEX_W, TEX_H, 0, 0, "image", 1, 0};
        if ((res = hl_pipeline_create_texture(ctx, &td, &img)) ||
            (res = hl_pipeline_import_render_target(ctx, s->tex_target, 0, &target)))
            return res;
        hl_pipeline_compute_resource w = {0};
        w.name = "img";
        w.texture = img;
        hl_pipeline_compute_pass_desc d = {0};
        d.name = "write image";
        d.kernel = s->write_img;
        d.resources = &w;
        d.resource_count = 1;
        d.groups[0] = (TEX_W + 7) / 8;
        d.groups[1] = (TEX_H + 7) / 8;
        if ((res = hl_pipeline_add_compute_pass(ctx, &d))) return res;
        if ((res = hl_pipeline_add_copy_pass(ctx, "to target", img, target))) return res;
        hl_pipeline_compute_resource rr[2] = {{0}};
        rr[0].name = "src";
        rr[0].texture = img;
        rr[1].name = "texels";
        rr[1].buffer = dst;
        rr[1].size = TEX_W * TEX_H * 4;
        rr[1].overwrite = true;
        d.name = "read image";
        d.kernel = s->read_img;
        d.resources = rr;
        d.resource_count = 2;
        return hl_pipeline_add_compute_pass(ctx, &d);
    }
    case M_MISUSE: {
        hl_pipeline_compute_resource rs[3] = {{0}};
        rs[0].name = "params";
        rs[0].data = &s->p;
        rs[0].data_size = sizeof s->p;
        rs[1].name = "src";
        rs[1].buffer = src;
        rs[2].name = "dst";
        rs[2].buffer = dst;
        hl_pipeline_compute_pass_desc d = {0};
        d.kernel = s->axpy;
        d.resources = rs;
        d.resource_count = 3;
        d.groups[0] = 1;
        d.resource_count = 2; /* dst missing */
        note(s, hl_pipeline_add_compute_pass(ctx, &d));
        d.resource_count = 3;
        rs[2].name = "dest"; /* unknown */
        note(s, hl_pipeline_add_compute_pass(ctx, &d));
        rs[2].name = "src"; /* twice */
        note(s, hl_pipeline_add_compute_pass(ctx, &d));
        rs[2].name = "dst";
        rs[2].offset = 4; /* not a multiple of 256 */
        note(s, hl_pipeline_add_compute_pass(ctx, &d));
        rs[2].offset = 0;
        rs[2].size = 8192; /* past the end */
        note(s, hl_pipeline_add_compute_pass(ctx, &d));
        rs[2].size = 0;
        rs[0].data_size = 6; /* not a multiple of 4, below 16 */
        note(s, hl_pipeline_add_compute_pass(ctx, &d));
        rs[0].data_size = sizeof s->p;
        d.groups[0] = 0;
        note(s, hl_pipeline_add_compute_pass(ctx, &d));
        d.groups[0] = 1;
        d.kernel = NULL;
        note(s, hl_pipeline_add_compute_pass(ctx, &d));
        d.kernel = s->axpy;
        hl_pipeline_buffer forged = dst;
        forged.token++;
        rs[2].buffer = forged;
        note(s, hl_pipeline_add_compute_pass(ctx, &d));
        rs[2].buffer = dst;
        note(s, hl_pipeline_add_buffer_clear_pass(ctx, NULL, dst, 8, 8192));
        note(s, hl_pipeline_add_buffer_copy_pass(ctx, NULL, dst, 0, dst, 64, 16));
        note(s, hl_pipeline_add_buffer_copy_pass(ctx, NULL, src, 2, dst, 0, 16));
        hl_pipeline_buffer_desc bd = {6, "odd"};
        note(s, hl_pipeline_create_buffer(ctx, &bd, &tmp));
        note(s, hl_pipeline_import_storage_buffer(ctx, NULL, &tmp));
        d.indirect = src;
        d.indirect_offset = 4096 - 8; /* 12 bytes do not fit */
        note(s, hl_pipeline_add_compute_pass(ctx, &d));
        return HL_OK;
    }
    default: return HL_OK;
    }
}

static hl_result make_kernel_xy(hl_renderer *r, const char *src, const hl_compute_binding *abi, uint32_t n, uint32_t wx,
                                uint32_t wy, hl_compute_kernel **out) {
    hl_compute_shader_desc d = {0};
    d.wgsl = src;
    d.workgroup_size[0] = wx;
    d.workgroup_size[1] = wy;
    d.bindings = abi;
    d.binding_count = n;
    hl_compute_shader *s = NULL;
    hl_result res = hl_compute_shader_create(r, &d, &s);
    if (res) return res;
    hl_compute_kernel_desc kd = {s, NULL, 0, NULL};
    res = hl_compute_kernel_create(r, &kd, out);
    hl_compute_shader_destroy(r, s);
    return res;
}

static hl_result make_kernel(hl_renderer *r, const char *src, const hl_compute_binding *abi, uint32_t n, uint32_t wg,
                             hl_compute_kernel **out) {
    return make_kernel_xy(r, src, abi, n, wg, 1, out);
}

static bool read_floats(hl_renderer *r, hl_storage_buffer *b, uint64_t offset, float *out, uint32_t count) {
    hl_result res = hl_storage_buffer_read(r, b, offset, count * 4u);
    if (!res) res = hl_storage_buffer_read_wait(r, out, count * 4u, 0);
    HL_CHECK_MSG(res == HL_OK, "read: %s", hl_last_error());
    return res == HL_OK;
}

typedef struct scene {
    hl_stage *stage;
    hl_camera *camera;
} scene;

static void scene_make(scene *sc) {
    HL_CHECK_OK(hl_stage_create(&sc->stage));
    sc->camera = front_camera(sc->stage);
}

/* ---- storage buffers alone ------------------------------------------------------------------------- */
static void test_buffers(void) {
    hl_renderer *r = make_renderer(16, 16, 1), *other = make_renderer(16, 16, 1);
    if (!r || !other) return;
    float init[256];
    for (int i = 0; i < 256; i++) init[i] = (float)i;
    hl_storage_buffer_desc d = {sizeof init, 0, HL_STORAGE_RECOVERY_CPU_SHADOW, init, "numbers"};
    hl_storage_buffer *b = NULL, *o = NULL;
    HL_CHECK_OK(hl_storage_buffer_create(r, &d, &b));
    HL_CHECK_OK(hl_storage_buffer_create(other, &d, &o));
    float got[256];
    if (read_floats(r, b, 0, got, 256)) HL_CHECK(memcmp(got, init, sizeof init) == 0);
    /* a write, delivered by the read's own frame */
    float w[4] = {-1, -2, -3, -4};
    HL_CHECK_OK(hl_storage_buffer_write(r, b, 40, w, sizeof w));
    HL_CHECK_OK(hl_storage_buffer_write(r, b, 1000, w, 4)); /* another range */
    hl_storage_buffer_info info;
    HL_CHECK_OK(hl_storage_buffer_info_get(r, b, &info));
    HL_CHECK(info.writes_pending && !info.shadow_stale && info.size == sizeof init);
    HL_CHECK_OK(hl_storage_buffer_read(r, b, 32, 32));
    HL_CHECK_OK(hl_storage_buffer_info_get(r, b, &info));
    HL_CHECK(!info.writes_pending);
    /* one read per renderer */
    HL_CHECK_RESULT(hl_storage_buffer_read(r, b, 0, 4), HL_ERR_INVALID_STATE);
    HL_CHECK(strstr(hl_last_error(), "a read of 'numbers' is pending") != NULL);
    HL_CHECK_RESULT(hl_storage_buffer_destroy(r, b), HL_ERR_INVALID_STATE);
    bool done = false;
    for (int i = 0; i < 100000 && !done; i++) HL_CHECK_OK(hl_storage_buffer_read_poll(r, &done));
    float part[8];
    HL_CHECK_RESULT(hl_storage_buffer_read_wait(r, part, 16, 0), HL_ERR_VALIDATION); /* too small: still pending */
    HL_CHECK_OK(hl_storage_buffer_read_wait(r, part, sizeof part, 0));
    float want[8] = {8, 9, -1, -2, -3, -4, 14, 15};
    HL_CHECK(memcmp(part, want, sizeof want) == 0);
    HL_CHECK_RESULT(hl_storage_buffer_read_wait(r, part, sizeof part, 0), HL_ERR_INVALID_STATE);
    HL_CHECK_RESULT(hl_storage_buffer_read_poll(r, &done), HL_ERR_INVALID_STATE);
    if (read_floats(r, b, 1000, got, 1)) HL_CHECK(got[0] == -1.0f);
    /* refusals */
    hl_storage_buffer *x = (hl_storage_buffer *)&x;
    hl_storage_buffer_desc bad = d;
    bad.size = 0;
    HL_CHECK_RESULT(hl_storage_buffer_create(r, &bad, &x), HL_ERR_VALIDATION);
    HL_CHECK(x == NULL && strstr(hl_last_error(), "'numbers': size 0") != NULL);
    bad.size = 6;
    HL_CHECK_RESULT(hl_storage_buffer_create(r, &bad, &x), HL_ERR_VALIDATION);
    bad = d;
    bad.usage = 1u << 7;
    HL_CHECK_RESULT(hl_storage_buffer_create(r, &bad, &x), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "usage 0x80 has unknown bits") != NULL);
    bad = d;
    bad.recovery = (hl_storage_recovery)7;
    HL_CHECK_RESULT(hl_storage_buffer_create(r, &bad, &x), HL_ERR_VALIDATION);
    bad = d;
    bad.initial_data = NULL;
    bad.size = (uint64_t)hl_rhi_device_caps(r->dev)->limits.max_storage_buffer_binding_size + 4;
    HL_CHECK_RESULT(hl_storage_buffer_create(r, &bad, &x), HL_ERR_UNSUPPORTED);
    HL_CHECK(strstr(hl_last_error(), "above the device's storage binding size") != NULL);
    HL_CHECK_RESULT(hl_storage_buffer_create(r, NULL, &x), HL_ERR_VALIDATION);
    HL_CHECK_RESULT(hl_storage_buffer_write(r, b, 2, w, 4), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "range [2, +4)") != NULL);
    HL_CHECK_RESULT(hl_storage_buffer_write(r, b, 1020, w, 8), HL_ERR_VALIDATION);
    HL_CHECK_RESULT(hl_storage_buffer_write(r, b, 0, NULL, 4), HL_ERR_VALIDATION);
    HL_CHECK_RESULT(hl_storage_buffer_write(r, o, 0, w, 4), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "another renderer's or destroyed") != NULL);
    HL_CHECK_RESULT(hl_storage_buffer_read(r, o, 0, 4), HL_ERR_VALIDATION);
    HL_CHECK_RESULT(hl_storage_buffer_read(r, b, 0, 0), HL_ERR_VALIDATION);
    HL_CHECK_RESULT(hl_storage_buffer_info_get(r, o, &info), HL_ERR_VALIDATION);
    HL_CHECK_RESULT(hl_storage_buffer_destroy(r, o), HL_ERR_VALIDATION);
    /* REINITIALIZE keeps a buffer too; zeros without initial data */
    hl_storage_buffer_desc z = {64, HL_STORAGE_USAGE_INDIRECT, HL_STORAGE_RECOVERY_REINITIALIZE, NULL, NULL};
    hl_storage_buffer *zb = NULL;
    HL_CHECK_OK(hl_storage_buffer_create(r, &z, &zb));
    if (read_floats(r, zb, 0, got, 16))
        for (int i = 0; i < 16; i++) HL_CHECK(got[i] == 0.0f);
    HL_CHECK_OK(hl_storage_buffer_info_get(r, zb, &info));
    HL_CHECK(info.recovery == HL_STORAGE_RECOVERY_REINITIALIZE && info.usage == HL_STORAGE_USAGE_INDIRECT);
    HL_CHECK_OK(hl_storage_buffer_destroy(r, b));
    HL_CHECK_RESULT(hl_storage_buffer_write(r, b, 0, w, 4), HL_ERR_VALIDATION); /* destroyed */
    HL_CHECK_OK(hl_storage_buffer_destroy(r, NULL));
    /* a read left pending and zb left: hl_renderer_destroy frees them */
    HL_CHECK_OK(hl_storage_buffer_read(r, zb, 0, 4));
    hl_renderer_destroy(other);
    hl_renderer_destroy(r);
}

/* ---- compute passes ------------------------------------------------------------------------------- */
enum { N = 1024 };

static void cpu_axpy(float *dst, const float *src, const params *p) {
    for (uint32_t i = 0; i < p->count; i++) dst[i] = dst[i] + src[i] * p->scale + p->add;
}

static void test_passes(void) {
    st s;
    memset(&s, 0, sizeof s);
    hl_test_runtime rt = {"storage-test", record, &s};
    hl_pipeline_factory f;
    hl_test_runtime_factory(&rt, &f);
    hl_renderer *r = make_renderer_with(16, 16, 1, &f);
    if (!r) return;
    s.r = r;
    scene sc;
    scene_make(&sc);
    HL_CHECK_OK(make_kernel(r, k_axpy, k_axpy_abi, 3, 64, &s.axpy));
    HL_CHECK_OK(make_kernel(r, k_args, k_args_abi, 2, 1, &s.args));
    static float src[N], dst[N], want[N], got[N];
    for (int i = 0; i < N; i++) src[i] = (float)(i % 97), dst[i] = (float)(i % 13), want[i] = dst[i];
    hl_storage_buffer_desc d = {sizeof src, 0, HL_STORAGE_RECOVERY_CPU_SHADOW, src, "src"};
    HL_CHECK_OK(hl_storage_buffer_create(r, &d, &s.src));
    d.initial_data = dst;
    d.label = "dst";
    HL_CHECK_OK(hl_storage_buffer_create(r, &d, &s.dst));
    uint32_t count[4] = {1000, 0, 0, 0};
    hl_storage_buffer_desc nd = {16, 0, HL_STORAGE_RECOVERY_CPU_SHADOW, count, "n"};
    HL_CHECK_OK(hl_storage_buffer_create(r, &nd, &s.n));
    hl_storage_buffer_desc ad = {16, HL_STORAGE_USAGE_INDIRECT, HL_STORAGE_RECOVERY_REINITIALIZE, NULL, "args"};
    HL_CHECK_OK(hl_storage_buffer_create(r, &ad, &s.argbuf));
    if (!s.axpy || !s.args || !s.src || !s.dst || !s.n || !s.argbuf) goto out;

    /* three frames of dst += src * 2 + 1 (count 1000 of 1024: the tail stays) */
    s.m = M_AXPY;
    s.p = (params){2.0f, 1.0f, 1000, 0};
    hl_storage_buffer_info info;
    for (int f3 = 0; f3 < 3; f3++) {
        HL_CHECK_OK(hl_renderer_render(r, sc.stage, sc.camera));
        cpu_axpy(want, src, &s.p);
    }
    HL_CHECK_EQ(hl_renderer_stats(r)->passes, 1);
    HL_CHECK_OK(hl_storage_buffer_info_get(r, s.dst, &info));
    HL_CHECK(info.shadow_stale);
    HL_CHECK_OK(hl_storage_buffer_info_get(r, s.src, &info));
    HL_CHECK(!info.shadow_stale); /* only read */
    if (read_floats(r, s.dst, 0, got, N)) HL_CHECK(memcmp(got, want, sizeof want) == 0);

    /* a CPU write of the whole buffer: fresh shadow; then a frame that fails changes nothing */
    for (int i = 0; i < N; i++) want[i] = (float)i;
    HL_CHECK_OK(hl_storage_buffer_write(r, s.dst, 0, want, sizeof want));
    HL_CHECK_OK(hl_storage_buffer_info_get(r, s.dst, &info));
    HL_CHECK(!info.shadow_stale && info.writes_pending);
    s.m = M_AXPY_FAIL;
    HL_CHECK_RESULT(hl_renderer_render(r, sc.stage, sc.camera), HL_ERR_VALIDATION);
    HL_CHECK_OK(hl_storage_buffer_info_get(r, s.dst, &info));
    HL_CHECK(!info.shadow_stale && info.writes_pending);
    /* the next frame delivers the write, then runs the pass */
    s.m = M_AXPY;
    HL_CHECK_OK(hl_renderer_render(r, sc.stage, sc.camera));
    cpu_axpy(want, src, &s.p);
    HL_CHECK_OK(hl_storage_buffer_info_get(r, s.dst, &info));
    HL_CHECK(info.shadow_stale && !info.writes_pending);
    if (read_floats(r, s.dst, 0, got, N)) HL_CHECK(memcmp(got, want, sizeof want) == 0);

    /* a transient between two passes: dst += (0 + src) * 2 + 1 */
    s.m = M_TRANSIENT;
    HL_CHECK_OK(hl_renderer_render(r, sc.stage, sc.camera));
    HL_CHECK_EQ(hl_renderer_stats(r)->passes, 3);
    cpu_axpy(want, src, &s.p);
    if (read_floats(r, s.dst, 0, got, N)) HL_CHECK(memcmp(got, want, sizeof want) == 0);
    /* nothing reads the transient: both passes culled, dst unchanged */
    s.m = M_CULLED;
    HL_CHECK_OK(hl_renderer_render(r, sc.stage, sc.camera));
    HL_CHECK_EQ(hl_renderer_stats(r)->passes, 0);
    if (read_floats(r, s.dst, 0, got, N)) HL_CHECK(memcmp(got, want, sizeof want) == 0);

    /* indirect: the first pass writes (1000 + 63) / 64 = 16 workgroups; n changed to 100 by the
       CPU: 2 workgroups of 64 = elements 0..127, of which the kernel's count (1000) keeps all */
    s.m = M_INDIRECT;
    count[0] = 100;
    HL_CHECK_OK(hl_storage_buffer_write(r, s.n, 0, count, 4));
    HL_CHECK_OK(hl_renderer_render(r, sc.stage, sc.camera));
    HL_CHECK_EQ(hl_renderer_stats(r)->passes, 2);
    uint32_t groups[3] = {0};
    HL_CHECK_OK(hl_storage_buffer_read(r, s.argbuf, 0, 12));
    HL_CHECK_OK(hl_storage_buffer_read_wait(r, groups, sizeof groups, 0));
    HL_CHECK(groups[0] == 2 && groups[1] == 1 && groups[2] == 1);
    params p128 = s.p;
    p128.count = 128;
    cpu_axpy(want, src, &p128);
    if (read_floats(r, s.dst, 0, got, N)) HL_CHECK(memcmp(got, want, sizeof want) == 0);
    s.m = M_NO_INDIRECT_USAGE;
    HL_CHECK_RESULT(hl_renderer_render(r, sc.stage, sc.camera), HL_ERR_VALIDATION);
    HL_CHECK_MSG(strstr(hl_last_error(), "imported buffer 'dst' lacks usage") != NULL, "%s", hl_last_error());

    /* clears and copies */
    s.m = M_CLEAR_COPY;
    HL_CHECK_OK(hl_renderer_render(r, sc.stage, sc.camera));
    for (int i = 0; i < 4; i++) want[i] = 0.0f;
    for (int i = 0; i < 4; i++) want[8 + i] = src[4 + i];
    if (read_floats(r, s.dst, 0, got, N)) HL_CHECK(memcmp(got, want, sizeof want) == 0);
    s.m = M_CLEAR_WHOLE;
    HL_CHECK_OK(hl_renderer_render(r, sc.stage, sc.camera));
    memset(want, 0, sizeof want);
    if (read_floats(r, s.dst, 0, got, N)) HL_CHECK(memcmp(got, want, sizeof want) == 0);

    /* textures: a storage texture written by one kernel, copied into a target, sampled by another */
    HL_CHECK_OK(make_kernel_xy(r, k_write_img, k_write_img_abi, 1, 8, 8, &s.write_img));
    HL_CHECK_OK(make_kernel_xy(r, k_read_img, k_read_img_abi, 2, 8, 8, &s.read_img));
    hl_render_target_desc ttd = {TEX_W, TEX_H, 1, {HL_TARGET_RGBA8}, 1, true, {0, 0, 0, 0}, "texture target"};
    HL_CHECK_OK(hl_render_target_create(r, &ttd, &s.tex_target));
    s.m = M_TEXTURES;
    hl_result tr = s.write_img && s.read_img ? hl_renderer_render(r, sc.stage, sc.camera) : HL_ERR_VALIDATION;
    HL_CHECK_MSG(tr == HL_OK, "textures: %s", hl_last_error());
    HL_CHECK_EQ(hl_renderer_stats(r)->passes, 3);
    if (!tr) {
        uint8_t img[TEX_W * TEX_H * 4], texels[TEX_W * TEX_H * 4];
        HL_CHECK_OK(hl_render_target_read(r, s.tex_target, 0, img, sizeof img));
        HL_CHECK_OK(hl_storage_buffer_read(r, s.dst, 0, sizeof texels));
        HL_CHECK_OK(hl_storage_buffer_read_wait(r, texels, sizeof texels, 0));
        uint32_t bad = 0;
        for (uint32_t y = 0; y < TEX_H; y++)
            for (uint32_t x = 0; x < TEX_W; x++) {
                const uint8_t want4[4] = {(uint8_t)x, (uint8_t)y, 51, 255};
                bad += memcmp(img + (y * TEX_W + x) * 4, want4, 4) != 0;
                bad += memcmp(texels + (y * TEX_W + x) * 4, want4, 4) != 0;
            }
        HL_CHECK_MSG(bad == 0, "textures: %u texels differ", bad);
    }

    /* misuse: each refused with a message naming the problem */
    s.m = M_MISUSE;
    HL_CHECK_OK(hl_renderer_render(r, sc.stage, sc.camera));
    static const struct {
        hl_result code;
        const char *text;
    } expect[] = {
        {HL_ERR_VALIDATION, "binding 'dst' (read-write storage buffer, group 0 binding 2) has no resource"},
        {HL_ERR_VALIDATION, "resource 'dest' is no binding of kernel"},
        {HL_ERR_VALIDATION, "resource 'src' is given twice"},
        {HL_ERR_VALIDATION, "storage binding 'dst': range [4, +0)"},
        {HL_ERR_VALIDATION, "storage binding 'dst': range [0, +8192) of a 4096-byte buffer"},
        {HL_ERR_VALIDATION, "uniform 'params' needs data"},
        {HL_ERR_VALIDATION, "0 x 1 x 1 workgroups"},
        {HL_ERR_VALIDATION, "the kernel is NULL"},
        {HL_ERR_INVALID_STATE, "the buffer is not one of this invocation"},
        {HL_ERR_VALIDATION, "range [8, +8192)"},
        {HL_ERR_VALIDATION, "source and destination are one buffer"},
        {HL_ERR_VALIDATION, "the source: range [2, +16)"},
        {HL_ERR_VALIDATION, "buffer 'odd': size 6"},
        {HL_ERR_VALIDATION, "the storage buffer is NULL"},
        {HL_ERR_VALIDATION, "indirect arguments: range [4088, +12)"},
    };
    HL_CHECK_EQ(s.misuse_count, sizeof expect / sizeof expect[0]);
    for (uint32_t i = 0; i < s.misuse_count && i < sizeof expect / sizeof expect[0]; i++)
        HL_CHECK_MSG(s.misuse[i] == expect[i].code && strstr(s.misuse_msg[i], expect[i].text) != NULL,
                     "misuse %u: code %d, '%s' (want '%s')", i, (int)s.misuse[i], s.misuse_msg[i], expect[i].text);
    /* storage calls inside the record are refused */
    HL_CHECK_EQ(hl_renderer_stats(r)->passes, 0);
out:
    hl_stage_destroy(sc.stage);
    hl_renderer_destroy(r); /* kernels and buffers left to it */
}

/* ---- particles ------------------------------------------------------------------------------------------ */
enum { BODIES = 65536, STEPS = 8 };

/* The particle example's kernels (src/demo/hl_gpu_examples.h): each step a = -k p + w (axis x p),
 * v = (v + a dt) * damping, p += v dt; bodies with p.y > 0 compacted into visible[] through an
 * atomic counter that is also the instance count of the draw-indirect arguments. */
/* Each visible body a one-pixel quad at its (x, y) over [-EXTENT, EXTENT]^2, adding 1/255 to red:
 * a pixel's red is the count of bodies on it (RGBA8 unorm: exact). */
enum { IMG = 64 };
#define EXTENT 10.0f
static const char *k_quad_vs =
    "#version 310 es\n"
    "struct Body { vec4 p; vec4 v; };\n"
    "layout(std430) readonly buffer Bodies { Body bodies[]; };\n"
    "layout(std430) readonly buffer Visible { uint index[]; };\n"
    "layout(std140) uniform Params { vec4 view; };\n" /* x: 1 / extent, y: 1 / width, z: 1 / height */
    "const vec2 k_corner[6] = vec2[6](vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(-1.0, 1.0), vec2(-1.0, 1.0),\n"
    "                                 vec2(1.0, -1.0), vec2(1.0, 1.0));\n"
    "void main() {\n"
    "    vec3 p = bodies[index[gl_InstanceID]].p.xyz;\n"
    "    gl_Position = vec4(p.xy * view.x + k_corner[gl_VertexID] * view.yz, 0.0, 1.0);\n"
    "}\n";
static const char *k_quad_fs = "#version 310 es\n"
                               "precision highp float;\n"
                               "out vec4 o_color;\n"
                               "void main() { o_color = vec4(1.0 / 255.0, 0.0, 0.0, 0.0); }\n";

static hl_result particles_record(hl_pipeline_context ctx, void *state) {
    st *s = state;
    hl_pipeline_buffer bodies, args, visible;
    hl_result res = hl_pipeline_import_storage_buffer(ctx, s->bodies, &bodies);
    if (!res) res = hl_pipeline_import_storage_buffer(ctx, s->draw_args, &args);
    if (!res) res = hl_pipeline_import_storage_buffer(ctx, s->visible, &visible);
    if (res) return res;
    if ((res = hl_gpu_particles_record_step(ctx, s->step, s->compact, BODIES, bodies, args, visible))) return res;
    hl_pipeline_texture img;
    if ((res = hl_pipeline_import_render_target(ctx, s->image, 0, &img))) return res;
    float view[4] = {1.0f / EXTENT, 1.0f / IMG, 1.0f / IMG, 0.0f};
    hl_pipeline_gpu_draw_pass_desc g = {0};
    g.name = "particles";
    g.shader = s->quads;
    g.buffers[0] = (hl_pipeline_storage_binding){"Bodies", bodies, 0, 0};
    g.buffers[1] = (hl_pipeline_storage_binding){"Visible", visible, 0, 0};
    g.buffer_count = 2;
    g.params = view;
    g.params_size = sizeof view;
    g.color[0] = img;
    g.color_count = 1;
    g.blend = HL_PIPELINE_BLEND_ADDITIVE;
    g.indirect = args;
    return hl_pipeline_add_gpu_draw_pass(ctx, &g);
}

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static void test_particles(void) {
    st s;
    memset(&s, 0, sizeof s);
    s.m = M_PARTICLES;
    hl_test_runtime rt = {"particles", particles_record, &s};
    hl_pipeline_factory f;
    hl_test_runtime_factory(&rt, &f);
    hl_renderer *r = make_renderer_with(16, 16, 1, &f);
    float *cpu = malloc((size_t)BODIES * 8 * sizeof(float)), *gpu = malloc((size_t)BODIES * 8 * sizeof(float));
    uint32_t *vis = malloc((size_t)BODIES * 4), *want_vis = malloc((size_t)BODIES * 4);
    scene sc = {0};
    if (!r || !cpu || !gpu || !vis || !want_vis) goto out;
    scene_make(&sc);
    HL_CHECK_OK(make_kernel(r, hl_gpu_particles_step_wgsl, hl_gpu_particles_step_abi, 2, 256, &s.step));
    HL_CHECK_OK(make_kernel(r, hl_gpu_particles_compact_wgsl, hl_gpu_particles_compact_abi, 3, 256, &s.compact));
    uint32_t seed = 12345;
    for (uint32_t i = 0; i < BODIES * 8; i++) {
        seed = seed * 1664525u + 1013904223u;
        float u = (float)(seed >> 8) / 16777216.0f; /* [0, 1) */
        cpu[i] = (i % 8 == 3 || i % 8 == 7) ? (i % 8 == 3 ? 1.0f : 0.0f) : (u * 2.0f - 1.0f) * (i % 8 < 4 ? 4.0f : 1.0f);
    }
    hl_storage_buffer_desc bd = {(uint64_t)BODIES * 32, 0, HL_STORAGE_RECOVERY_CPU_SHADOW, cpu, "bodies"};
    HL_CHECK_OK(hl_storage_buffer_create(r, &bd, &s.bodies));
    hl_storage_buffer_desc ad = {16, HL_STORAGE_USAGE_INDIRECT, HL_STORAGE_RECOVERY_REINITIALIZE, NULL, "draw args"};
    HL_CHECK_OK(hl_storage_buffer_create(r, &ad, &s.draw_args));
    hl_storage_buffer_desc vd = {(uint64_t)BODIES * 4, 0, HL_STORAGE_RECOVERY_REINITIALIZE, NULL, "visible"};
    HL_CHECK_OK(hl_storage_buffer_create(r, &vd, &s.visible));
    hl_render_target_desc td = {IMG, IMG, 1, {HL_TARGET_RGBA8}, 1, true, {0, 0, 0, 0}, "particles"};
    HL_CHECK_OK(hl_render_target_create(r, &td, &s.image));
    hl_storage_shader_desc qd = {k_quad_vs, k_quad_fs, "quads"};
    hl_result qr = hl_storage_shader_create(r, &qd, &s.quads);
    HL_CHECK_MSG(qr == HL_OK, "%s", hl_last_error());
    if (!s.step || !s.compact || !s.bodies || !s.draw_args || !s.visible || !s.image || !s.quads) goto out;
    for (int step = 0; step < STEPS; step++) {
        HL_CHECK_OK(hl_renderer_render(r, sc.stage, sc.camera));
        for (uint32_t i = 0; i < BODIES; i++) hl_gpu_particles_step_cpu(&hl_gpu_particles_default_sim, cpu + i * 8);
    }
    HL_CHECK_EQ(hl_renderer_stats(r)->passes, 4);
    uint32_t want_count = 0;
    for (uint32_t i = 0; i < BODIES; i++)
        if (cpu[i * 8 + 1] > 0.0f) want_vis[want_count++] = i;
    HL_CHECK_OK(hl_storage_buffer_read(r, s.bodies, 0, (uint64_t)BODIES * 32));
    HL_CHECK_OK(hl_storage_buffer_read_wait(r, gpu, (uint64_t)BODIES * 32, 0));
    double worst = 0;
    for (uint32_t i = 0; i < BODIES; i++)
        for (int c = 0; c < 7; c++) {
            if (c == 3) continue;
            double e = fabs((double)gpu[i * 8 + c] - cpu[i * 8 + c]);
            worst = e > worst ? e : worst;
        }
    HL_CHECK_MSG(worst <= 1e-4, "bodies after %d steps: worst difference %g from the CPU", STEPS, worst);
    uint32_t args[4] = {0};
    HL_CHECK_OK(hl_storage_buffer_read(r, s.draw_args, 0, 16));
    HL_CHECK_OK(hl_storage_buffer_read_wait(r, args, sizeof args, 0));
    /* a body within float rounding of y = 0 could land either side: none does for this seed */
    HL_CHECK_MSG(args[0] == 6 && args[1] == want_count && args[2] == 0 && args[3] == 0, "args %u %u %u %u, want 6 %u 0 0",
                 args[0], args[1], args[2], args[3], want_count);
    HL_CHECK(want_count > BODIES / 4 && want_count < BODIES * 3 / 4);
    if (args[1] == want_count && want_count) {
        HL_CHECK_OK(hl_storage_buffer_read(r, s.visible, 0, (uint64_t)want_count * 4));
        HL_CHECK_OK(hl_storage_buffer_read_wait(r, vis, (uint64_t)BODIES * 4, 0));
        qsort(vis, want_count, 4, cmp_u32);
        HL_CHECK(memcmp(vis, want_vis, (size_t)want_count * 4) == 0);
    }
    /* the image: each visible body adds one to the red of exactly one pixel, the one its
       position falls on. Rasterizers snap vertices to a sub-pixel grid (1/256 pixel on lavapipe),
       so a body within 1/128 pixel of a pixel edge may land on either side: per pixel, the red
       lies between the bodies surely on it and those plus the ones that may be */
    static uint8_t img[IMG * IMG * 4];
    static uint32_t count[IMG * IMG], maybe[IMG * IMG];
    memset(count, 0, sizeof count);
    memset(maybe, 0, sizeof maybe);
    uint32_t outside = 0, ambiguous = 0;
    const double m = 1.0 / 128.0;
    for (uint32_t k = 0; k < want_count; k++) {
        const float *b = cpu + want_vis[k] * 8;
        double x = (b[0] / EXTENT + 1.0) * 0.5 * IMG, y = (1.0 - b[1] / EXTENT) * 0.5 * IMG;
        if (x < 1 || y < 1 || x >= IMG - 1 || y >= IMG - 1) {
            outside++;
            continue;
        }
        int ix = (int)x, iy = (int)y;
        double fx = x - ix, fy = y - iy;
        int x0 = fx < m ? ix - 1 : ix, x1 = fx > 1 - m ? ix + 1 : ix;
        int y0 = fy < m ? iy - 1 : iy, y1 = fy > 1 - m ? iy + 1 : iy;
        if (x0 == x1 && y0 == y1) {
            count[iy * IMG + ix]++;
            continue;
        }
        ambiguous++;
        for (int yy = y0; yy <= y1; yy++)
            for (int xx = x0; xx <= x1; xx++) maybe[yy * IMG + xx]++;
    }
    HL_CHECK_EQ(outside, 0);
    hl_result rr = hl_render_target_read(r, s.image, 0, img, sizeof img);
    HL_CHECK_MSG(rr == HL_OK, "%s", hl_last_error());
    if (rr) goto out;
    uint64_t sum = 0;
    uint32_t bad = 0, lit = 0;
    for (uint32_t i = 0; i < IMG * IMG; i++) {
        sum += img[i * 4];
        bad += img[i * 4] < count[i] || img[i * 4] > count[i] + maybe[i];
        lit += img[i * 4] != 0;
        HL_CHECK(img[i * 4 + 1] == 0 && img[i * 4 + 2] == 0 && img[i * 4 + 3] == 0);
    }
    HL_CHECK_MSG(sum == want_count, "red sums to %llu, %u bodies visible", (unsigned long long)sum, want_count);
    HL_CHECK_MSG(bad == 0, "%u pixels outside the CPU's counts (%u bodies near an edge)", bad, ambiguous);
    HL_CHECK_MSG(lit > 300 && ambiguous < want_count / 16, "%u pixels lit, %u bodies near an edge", lit, ambiguous);
out:
    free(cpu);
    free(gpu);
    free(vis);
    free(want_vis);
    hl_stage_destroy(sc.stage);
    hl_renderer_destroy(r);
}

/* ---- gles3 --------------------------------------------------------------------------------------------- */
static void test_gles3(void) {
    st s;
    memset(&s, 0, sizeof s);
    s.m = M_GLES3;
    hl_test_runtime rt = {"storage-gles3", record, &s};
    hl_pipeline_factory f;
    hl_test_runtime_factory(&rt, &f);
    hl_renderer *r = make_renderer_with(16, 16, 1, &f);
    if (!r) return;
    s.r = r;
    uint64_t calls = hl_rhi_device_stats(r->dev)->native_calls;
    hl_storage_buffer *b = (hl_storage_buffer *)&b;
    hl_storage_buffer_desc d = {64, 0, HL_STORAGE_RECOVERY_CPU_SHADOW, NULL, "x"};
    HL_CHECK_RESULT(hl_storage_buffer_create(r, &d, &b), HL_ERR_UNSUPPORTED);
    HL_CHECK(b == NULL && strstr(hl_last_error(), "gles3 backend has no compute shaders or storage buffers") != NULL);
    hl_storage_buffer *fake = (hl_storage_buffer *)&d;
    HL_CHECK_RESULT(hl_storage_buffer_write(r, fake, 0, &d, 4), HL_ERR_UNSUPPORTED);
    HL_CHECK_RESULT(hl_storage_buffer_read(r, fake, 0, 4), HL_ERR_UNSUPPORTED);
    bool done;
    HL_CHECK_RESULT(hl_storage_buffer_read_poll(r, &done), HL_ERR_UNSUPPORTED);
    HL_CHECK_RESULT(hl_storage_buffer_read_wait(r, &d, 4, 0), HL_ERR_UNSUPPORTED);
    HL_CHECK_RESULT(hl_storage_buffer_destroy(r, fake), HL_ERR_UNSUPPORTED);
    HL_CHECK_EQ(hl_rhi_device_stats(r->dev)->native_calls, calls);
    scene sc;
    scene_make(&sc);
    HL_CHECK_OK(hl_renderer_render(r, sc.stage, sc.camera));
    HL_CHECK_EQ(s.misuse_count, 5);
    for (uint32_t i = 0; i < s.misuse_count; i++)
        HL_CHECK_MSG(s.misuse[i] == HL_ERR_UNSUPPORTED && strstr(s.misuse_msg[i], "gles3 backend"), "call %u: %d '%s'", i,
                     (int)s.misuse[i], s.misuse_msg[i]);
    HL_CHECK_EQ(s.native_after, s.native_before);
    hl_stage_destroy(sc.stage);
    hl_renderer_destroy(r);
}

int main(int argc, char **argv) {
    hl_backend be = backend_of(argc, argv);
    if (be == HL_BACKEND_GLES3) test_gles3();
    else {
        test_buffers();
        test_passes();
        test_particles();
    }
    return hl_test_finish();
}
