/* Compute shaders (include/hilo3d/compute.h), on one backend per run.
 *
 * webgpu: a shader whose ABI lists every binding type is made, and its workgroup size kept;
 * each disagreement between ABI and source is refused before Dawn sees the source, with a
 * message naming the binding or the line: a name, a type, a slot, a binding the source lacks,
 * a source variable the ABI lacks, the workgroup size, a size above the device limit, f16, a
 * non-literal workgroup size, a missing entry point; a source the scanner passes but Dawn
 * refuses is HL_ERR_SHADER with Dawn's message; bad descriptors; another renderer's shader;
 * inside a frame. The renderer destroys the shaders left (leak checks of the ASan run).
 * Kernels: override constants of every scalar type set and their effect read back from a dispatch
 * (through the RHI: the graph's compute passes are not there yet), the defaults, the kernel
 * outliving its shader; each refused constant named (unknown, twice, missing without default,
 * out of its type's range, an override without an explicit type), another renderer's shader.
 * gles3: every call is HL_ERR_UNSUPPORTED before any GL call (native-call counter unchanged). */
#include <string.h>

#include "hilo3d/compute.h"
#include "hl_test.h"
#include "hl_test_render.h"
#include "render_internal.h"

static const char *k_src =
    "struct Params { count: u32, scale: f32, }\n"
    "@group(0) @binding(0) var<uniform> params: Params;\n"
    "@group(0) @binding(1) var<storage, read> src: array<f32>;\n"
    "@group(0) @binding(2) var<storage, read_write> dst: array<f32>;\n"
    "@group(1) @binding(0) var tex: texture_2d<f32>;\n"
    "@group(1) @binding(1) var samp: sampler;\n"
    "@group(1) @binding(2) var cmp: sampler_comparison;\n"
    "@group(1) @binding(3) var depth: texture_depth_2d;\n"
    "@group(2) @binding(0) var img: texture_storage_2d<rgba8unorm, write>;\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(global_invocation_id) id: vec3<u32>) {\n"
    "    let i = id.x;\n"
    "    if (i >= params.count) { return; }\n"
    "    let c = textureSampleLevel(tex, samp, vec2<f32>(0.5, 0.5), 0.0);\n"
    "    let d = textureSampleCompareLevel(depth, cmp, vec2<f32>(0.5, 0.5), 0.5);\n"
    "    dst[i] = src[i] * params.scale + c.x + d;\n"
    "    textureStore(img, vec2<i32>(i32(i), 0), c);\n"
    "}\n";

/* The ABI of k_src minus the depth texture (a type the ABI has no name for: see below). */
static hl_compute_binding k_abi[] = {
    {"params", 0, 0, HL_COMPUTE_UNIFORM_BUFFER, 16},
    {"src", 0, 1, HL_COMPUTE_STORAGE_READ, 0},
    {"dst", 0, 2, HL_COMPUTE_STORAGE_READ_WRITE, 4},
    {"tex", 1, 0, HL_COMPUTE_SAMPLED_TEXTURE_2D, 0},
    {"samp", 1, 1, HL_COMPUTE_SAMPLER_FILTERING, 0},
    {"cmp", 1, 2, HL_COMPUTE_SAMPLER_COMPARISON, 0},
    {"img", 2, 0, HL_COMPUTE_STORAGE_TEXTURE_2D_WRITE, 0},
};
enum { ABI_COUNT = sizeof k_abi / sizeof k_abi[0] };

/* k_src without the depth texture and the compare sample. */
static char g_src[4096];

static const char *source_without_depth(void) {
    size_t n = 0;
    for (const char *line = k_src; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = (size_t)(end - line) + 1;
        if (!strstr(line, "depth") || (size_t)(strstr(line, "depth") - line) > len) {
            memcpy(g_src + n, line, len);
            n += len;
        }
        line += len;
    }
    g_src[n] = '\0';
    char *d = strstr(g_src, " + d;");
    if (d) memmove(d, d + 4, strlen(d + 4) + 1); /* "... + c.x;" */
    return g_src;
}

static hl_result make(hl_renderer *r, const char *src, const hl_compute_binding *abi, uint32_t n, uint32_t wg,
                      hl_compute_shader **out) {
    hl_compute_shader_desc d = {0};
    d.wgsl = src;
    d.workgroup_size[0] = wg;
    d.bindings = abi;
    d.binding_count = n;
    d.label = "test kernel";
    return hl_compute_shader_create(r, &d, out);
}

static void refused(hl_renderer *r, const char *src, const hl_compute_binding *abi, uint32_t n, uint32_t wg,
                    hl_result want, const char *needle) {
    hl_compute_shader *s = (hl_compute_shader *)&s;
    hl_result res = make(r, src, abi, n, wg, &s);
    HL_CHECK_MSG(res == want && s == NULL && strstr(hl_last_error(), needle) != NULL,
                 "want %s naming '%s', got %s: %s", hl_result_name(want), needle, hl_result_name(res), hl_last_error());
}

typedef struct frame_try {
    hl_renderer *r;
    hl_result res;
} frame_try;

static hl_result frame_fn(hl_render_frame *f, void *user) {
    (void)f;
    frame_try *t = user;
    hl_compute_shader *s = NULL;
    t->res = make(t->r, source_without_depth(), k_abi, ABI_COUNT, 64, &s);
    return HL_OK;
}

static void test_webgpu(void) {
    hl_renderer *r = make_renderer(16, 16, 1), *other = make_renderer(16, 16, 1);
    if (!r || !other) return;
    const char *src = source_without_depth();
    hl_compute_shader *s = NULL;
    HL_CHECK_OK(make(r, src, k_abi, ABI_COUNT, 64, &s));
    uint32_t wg[3];
    hl_compute_shader_workgroup_size(s, wg);
    HL_CHECK(wg[0] == 64 && wg[1] == 1 && wg[2] == 1);

    /* the ABI against the source, each way */
    hl_compute_binding abi[ABI_COUNT];
    memcpy(abi, k_abi, sizeof abi);
    abi[2].name = "out";
    refused(r, src, abi, ABI_COUNT, 64, HL_ERR_VALIDATION, "@group(0) @binding(2) is 'dst' in the source (line 4), 'out'");
    memcpy(abi, k_abi, sizeof abi);
    abi[1].type = HL_COMPUTE_STORAGE_READ_WRITE;
    refused(r, src, abi, ABI_COUNT, 64, HL_ERR_VALIDATION,
            "'src' is a read-only storage buffer in the source (line 3), a read-write storage buffer in the ABI");
    memcpy(abi, k_abi, sizeof abi);
    abi[3].binding = 5;
    refused(r, src, abi, ABI_COUNT, 64, HL_ERR_VALIDATION, "binding 'tex' (@group(1) @binding(5)) is not declared");
    refused(r, src, k_abi, ABI_COUNT - 1, 64, HL_ERR_VALIDATION,
            "declares 'img' at @group(2) @binding(0) (line 8), which the ABI does not list");
    refused(r, k_src, k_abi, ABI_COUNT, 64, HL_ERR_VALIDATION, "declares 'depth'");
    refused(r, src, k_abi, ABI_COUNT, 32, HL_ERR_VALIDATION,
            "@workgroup_size(64, 1, 1) in the source (line 10), (32, 1, 1) in the descriptor");
    /* the ABI alone */
    memcpy(abi, k_abi, sizeof abi);
    abi[4].min_binding_size = 8;
    refused(r, src, abi, ABI_COUNT, 64, HL_ERR_VALIDATION, "'samp': min_binding_size 8 (buffers only");
    abi[4] = k_abi[4];
    abi[5].group = 4;
    refused(r, src, abi, ABI_COUNT, 64, HL_ERR_VALIDATION, "'cmp' at @group(4) @binding(2) (groups 0-3");
    abi[5] = k_abi[5];
    abi[6].binding = 0, abi[6].group = 0;
    refused(r, src, abi, ABI_COUNT, 64, HL_ERR_VALIDATION, "'params' and 'img' share @group(0) @binding(0)");
    abi[6] = k_abi[6];
    abi[6].name = "tex";
    refused(r, src, abi, ABI_COUNT, 64, HL_ERR_VALIDATION, "two bindings named 'tex'");
    /* the source */
    const hl_compute_binding one[1] = {{"buf", 0, 0, HL_COMPUTE_STORAGE_READ_WRITE, 0}};
    refused(r, "@group(0) @binding(0) var<storage, read_write> buf: array<u32>;\n"
               "@compute @workgroup_size(4096) fn main() { buf[0] = 1u; }",
            one, 1, 4096, HL_ERR_UNSUPPORTED, "workgroup size (4096, 1, 1) is outside the device's limits");
    refused(r, "enable f16;\n@group(0) @binding(0) var<storage, read_write> buf: array<u32>;\n"
               "@compute @workgroup_size(1) fn main() { buf[0] = 1u; }",
            one, 1, 1, HL_ERR_SHADER, "'test kernel': WGSL: line 1: 'f16': f16 is not supported");
    refused(r, "override n: u32 = 8;\n@group(0) @binding(0) var<storage, read_write> buf: array<u32>;\n"
               "@compute @workgroup_size(n) fn main() { buf[0] = 1u; }",
            one, 1, 8, HL_ERR_SHADER, "@workgroup_size takes 1 to 3 integer literals");
    refused(r, "@group(0) @binding(0) var<storage, read_write> buf: array<u32>;\n@compute @workgroup_size(1) fn cs() {}",
            one, 1, 1, HL_ERR_SHADER, "no function 'main'");
    refused(r, "@group(0) @binding(0) var<storage, read_write> buf: array<u32>;\n"
               "@compute @workgroup_size(1) fn main() { buf[0] = undefined_name; }",
            one, 1, 1, HL_ERR_SHADER, "'test kernel'"); /* Dawn's compile error */
    /* descriptors and ownership */
    HL_CHECK_RESULT(hl_compute_shader_create(r, NULL, &s), HL_ERR_VALIDATION);
    hl_compute_shader_desc nd = {0};
    HL_CHECK_RESULT(hl_compute_shader_create(r, &nd, &s), HL_ERR_VALIDATION);
    HL_CHECK_RESULT(make(r, src, NULL, 3, 64, &s), HL_ERR_VALIDATION);
    hl_compute_shader *kept = NULL;
    HL_CHECK_OK(make(r, src, k_abi, ABI_COUNT, 64, &kept));
    HL_CHECK_RESULT(hl_compute_shader_destroy(other, kept), HL_ERR_VALIDATION);
    HL_CHECK_OK(hl_compute_shader_destroy(r, kept));
    HL_CHECK_RESULT(hl_compute_shader_destroy(r, kept), HL_ERR_VALIDATION); /* destroyed: not one of r's */
    HL_CHECK_OK(hl_compute_shader_destroy(r, NULL));
    /* inside a frame: refused */
    frame_try t = {r, HL_OK};
    HL_CHECK_OK(hl_renderer_render_frame(r, frame_fn, &t));
    HL_CHECK_RESULT(t.res, HL_ERR_INVALID_STATE);
    /* s is left for hl_renderer_destroy */
    hl_renderer_destroy(other);
    hl_renderer_destroy(r);
}

static const char *k_kernel_src =
    "override mul: u32 = 1u;\n"
    "override add: f32;\n"
    "override flag: bool = false;\n"
    "override inferred = 2.0;\n"
    "@group(0) @binding(0) var<storage, read_write> data: array<u32>;\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(global_invocation_id) id: vec3<u32>) {\n"
    "    if (id.x >= 256u) { return; }\n"
    "    var v = id.x * mul + u32(add);\n"
    "    if (flag) { v = v + 1000u; }\n"
    "    data[id.x] = v + u32(inferred) - 2u;\n"
    "}\n";
static const hl_compute_binding k_kernel_abi[1] = {{"data", 0, 0, HL_COMPUTE_STORAGE_READ_WRITE, 1024}};

static hl_result kernel(hl_renderer *r, hl_compute_shader *s, const hl_compute_constant *c, uint32_t n,
                        hl_compute_kernel **out) {
    hl_compute_kernel_desc d = {s, c, n, NULL};
    return hl_compute_kernel_create(r, &d, out);
}

static void kernel_refused(hl_renderer *r, hl_compute_shader *s, const hl_compute_constant *c, uint32_t n,
                           const char *needle) {
    hl_compute_kernel *k = (hl_compute_kernel *)&k;
    hl_result res = kernel(r, s, c, n, &k);
    HL_CHECK_MSG(res == HL_ERR_VALIDATION && k == NULL && strstr(hl_last_error(), needle) != NULL,
                 "want HL_ERR_VALIDATION naming '%s', got %s: %s", needle, hl_result_name(res), hl_last_error());
}

/* Runs k over 256 elements of a storage buffer through the RHI (the graph's compute passes are
 * not there yet) and reads the values back. */
static void dispatch(hl_renderer *r, hl_compute_kernel *k, uint32_t out[256]) {
    hl_rhi_device *dev = r->dev;
    hl_rhi_compute_pipeline p;
    hl_rhi_bind_group_layout groups[4];
    uint32_t group_count = 0;
    HL_CHECK(hl__compute_kernel_objects(k, &p, groups, &group_count) && group_count == 1);
    hl_rhi_buffer_desc bd = {0};
    bd.size = 256 * 4;
    bd.usage = HL_RHI_BUFFER_USAGE_STORAGE | HL_RHI_BUFFER_USAGE_COPY_SRC;
    hl_rhi_buffer b;
    HL_CHECK_OK(hl_rhi_buffer_create(dev, &bd, &b));
    hl_rhi_bind_group_entry e = {0};
    e.buffer = b;
    hl_rhi_bind_group_desc gd = {groups[0], &e, 1, "data"};
    hl_rhi_bind_group g;
    HL_CHECK_OK(hl_rhi_bind_group_create(dev, &gd, &g));
    hl_rhi_cmd *cmd = NULL;
    HL_CHECK_OK(hl_rhi_begin_frame(dev, &cmd));
    HL_CHECK_OK(hl_rhi_cmd_begin_compute_pass(cmd, "kernel"));
    HL_CHECK_OK(hl_rhi_cmd_set_compute_pipeline(cmd, p));
    HL_CHECK_OK(hl_rhi_cmd_set_bind_group(cmd, 0, g, NULL, 0));
    HL_CHECK_OK(hl_rhi_cmd_dispatch(cmd, 4, 1, 1));
    HL_CHECK_OK(hl_rhi_cmd_end_compute_pass(cmd));
    hl_rhi_submission sub;
    HL_CHECK_OK(hl_rhi_end_frame(dev, &sub));
    HL_CHECK_OK(hl_rhi_submission_wait(dev, sub, UINT64_MAX));
    HL_CHECK_OK(hl_rhi_buffer_read(dev, b, 0, out, 256 * 4));
    hl_rhi_bind_group_destroy(dev, g);
    hl_rhi_buffer_destroy(dev, b);
}

static void test_kernels(void) {
    hl_renderer *r = make_renderer(16, 16, 1), *other = make_renderer(16, 16, 1);
    if (!r || !other) return;
    hl_compute_shader *s = NULL, *foreign = NULL;
    HL_CHECK_OK(make(r, k_kernel_src, k_kernel_abi, 1, 64, &s));
    HL_CHECK_OK(make(other, k_kernel_src, k_kernel_abi, 1, 64, &foreign));
    const hl_compute_constant c[3] = {{"mul", 5}, {"add", 11}, {"flag", 1}};
    hl_compute_kernel *k = NULL;
    HL_CHECK_OK(kernel(r, s, c, 3, &k));
    /* the shader may go: the kernel keeps what it needs */
    HL_CHECK_OK(hl_compute_shader_destroy(r, s));
    uint32_t out[256] = {0};
    if (k) dispatch(r, k, out);
    int bad = 0;
    for (uint32_t i = 0; i < 256; i++) bad += out[i] != i * 5u + 11u + 1000u;
    HL_CHECK_MSG(bad == 0, "kernel with mul 5, add 11, flag 1: %d of 256 values wrong (out[1] = %u, want 1016)", bad,
                 out[1]);
    HL_CHECK_OK(make(r, k_kernel_src, k_kernel_abi, 1, 64, &s));
    const hl_compute_constant only_add[1] = {{"add", 0}};
    hl_compute_kernel *k2 = NULL;
    HL_CHECK_OK(kernel(r, s, only_add, 1, &k2)); /* the defaults: mul 1, flag false */
    if (k2) dispatch(r, k2, out);
    bad = 0;
    for (uint32_t i = 0; i < 256; i++) bad += out[i] != i;
    HL_CHECK_MSG(bad == 0, "kernel with the defaults: %d of 256 values wrong", bad);

    kernel_refused(r, s, NULL, 0, "override 'add' (line 2) has no default: the kernel must set it");
    const hl_compute_constant unknown[2] = {{"add", 1}, {"scale", 1}};
    kernel_refused(r, s, unknown, 2, "constant 'scale' is not an override of the source");
    const hl_compute_constant twice[2] = {{"add", 1}, {"add", 2}};
    kernel_refused(r, s, twice, 2, "constant 'add' is set twice");
    const hl_compute_constant neg[2] = {{"add", 1}, {"mul", -1}};
    kernel_refused(r, s, neg, 2, "constant 'mul' = -1 does not fit the override's type u32 (line 1)");
    const hl_compute_constant frac[2] = {{"add", 1}, {"mul", 2.5}};
    kernel_refused(r, s, frac, 2, "'mul' = 2.5 does not fit");
    const hl_compute_constant half[2] = {{"add", 1}, {"flag", 0.5}};
    kernel_refused(r, s, half, 2, "'flag' = 0.5 does not fit the override's type bool");
    const hl_compute_constant huge[1] = {{"add", 1e39}};
    kernel_refused(r, s, huge, 1, "'add' = 1e+39 does not fit the override's type f32");
    const hl_compute_constant inferred[2] = {{"add", 1}, {"inferred", 3}};
    kernel_refused(r, s, inferred, 2, "override 'inferred' (line 4) has no explicit bool, i32, u32 or f32 type");
    kernel_refused(r, foreign, only_add, 1, "the shader is NULL, another renderer's or destroyed");
    kernel_refused(r, NULL, only_add, 1, "the shader is NULL");
    HL_CHECK_RESULT(hl_compute_kernel_destroy(other, k2), HL_ERR_VALIDATION);
    HL_CHECK_OK(hl_compute_kernel_destroy(r, k2));
    HL_CHECK_OK(hl_compute_kernel_destroy(r, NULL));
    /* k, s and foreign are left to hl_renderer_destroy */
    hl_renderer_destroy(other);
    hl_renderer_destroy(r);
}

static void test_gles3(void) {
    hl_renderer *r = make_renderer(16, 16, 1);
    if (!r) return;
    uint64_t calls = hl_rhi_device_stats(r->dev)->native_calls;
    hl_compute_shader *s = (hl_compute_shader *)&s;
    HL_CHECK_RESULT(make(r, source_without_depth(), k_abi, ABI_COUNT, 64, &s), HL_ERR_UNSUPPORTED);
    HL_CHECK(s == NULL && strstr(hl_last_error(), "gles3 backend has no compute shaders") != NULL);
    HL_CHECK_RESULT(hl_compute_shader_create(r, NULL, NULL), HL_ERR_UNSUPPORTED); /* before anything else */
    HL_CHECK_RESULT(hl_compute_shader_destroy(r, (hl_compute_shader *)&s), HL_ERR_UNSUPPORTED);
    hl_compute_kernel *k = NULL;
    hl_compute_kernel_desc kd = {(hl_compute_shader *)&s, NULL, 0, NULL};
    HL_CHECK_RESULT(hl_compute_kernel_create(r, &kd, &k), HL_ERR_UNSUPPORTED);
    HL_CHECK_RESULT(hl_compute_kernel_destroy(r, (hl_compute_kernel *)&k), HL_ERR_UNSUPPORTED);
    HL_CHECK_EQ(hl_rhi_device_stats(r->dev)->native_calls, calls);
    hl_renderer_destroy(r);
}

int main(int argc, char **argv) {
    hl_backend be = backend_of(argc, argv);
    if (be == HL_BACKEND_GLES3) test_gles3();
    else {
        test_webgpu();
        test_kernels();
    }
    return hl_test_finish();
}
