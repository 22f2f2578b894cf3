/* The GPU-culling workload (issue 9 §4.2), on one backend per run.
 *
 * webgpu: 100,000 instance bounding spheres in a storage buffer; a compute pass tests each
 * against the camera's six frustum planes and appends the visible ones to an index list with an
 * atomic counter that is also the instance count of indexed-indirect arguments; a GPU-driven pass
 * draws a cube per visible instance from those arguments (depth tested). Checked: the visible
 * count read back equals the CPU's frustum test exactly, the list holds exactly the CPU's
 * instances, and the image equals (+-1 per channel) a render of the CPU-culled list drawn
 * directly, at two sizes and aspects (96x64, 48x80) and two camera positions; the culled
 * render draws far fewer instances than there are. The same frame also runs on gles3 as a
 * refusal: the cull pass is HL_ERR_UNSUPPORTED there (px_storage covers every call). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hilo3d/compute.h"
#include "hilo3d/scene.h"
#include "hl_test.h"
#include "hl_test_render.h"
#include "render_internal.h"

enum { INSTANCES = 100000 };

static const char *k_cull =
    "struct Frustum { planes: array<vec4<f32>, 6>, }\n"
    "struct Args { index_count: u32, instance_count: atomic<u32>, first_index: u32, base_vertex: u32,\n"
    "              first_instance: u32, }\n"
    "@group(0) @binding(0) var<uniform> frustum: Frustum;\n"
    "@group(0) @binding(1) var<storage, read> spheres: array<vec4<f32>>;\n"
    "@group(0) @binding(2) var<storage, read_write> args: Args;\n"
    "@group(0) @binding(3) var<storage, read_write> visible: array<u32>;\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(global_invocation_id) id: vec3<u32>) {\n"
    "    let i = id.x;\n"
    "    if (i == 0u) { args.index_count = 36u; }\n"
    "    if (i >= arrayLength(&spheres)) { return; }\n"
    "    let s = spheres[i];\n"
    "    for (var p = 0u; p < 6u; p = p + 1u) {\n"
    "        let pl = frustum.planes[p];\n"
    "        if (pl.x * s.x + pl.y * s.y + pl.z * s.z + pl.w < -s.w) { return; }\n"
    "    }\n"
    "    visible[atomicAdd(&args.instance_count, 1u)] = i;\n"
    "}\n";
static const hl_compute_binding k_cull_abi[] = {
    {"frustum", 0, 0, HL_COMPUTE_UNIFORM_BUFFER, 96},
    {"spheres", 0, 1, HL_COMPUTE_STORAGE_READ, 16},
    {"args", 0, 2, HL_COMPUTE_STORAGE_READ_WRITE, 20},
    {"visible", 0, 3, HL_COMPUTE_STORAGE_READ_WRITE, 4},
};

/* A cube of half-size r (the sphere's radius) per visible instance, coloured from its index. */
static const char *k_vs =
    "#version 310 es\n"
    "layout(std430) readonly buffer Spheres { vec4 spheres[]; };\n"
    "layout(std430) readonly buffer Visible { uint visible[]; };\n"
    "layout(std140) uniform Params { mat4 view_proj; };\n"
    "flat out uint v_id;\n"
    "void main() {\n"
    "    uint id = visible[gl_InstanceID];\n"
    "    vec4 s = spheres[id];\n"
    "    vec3 corner = vec3(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1), float((gl_VertexID >> 2) & 1));\n"
    "    gl_Position = view_proj * vec4(s.xyz + (corner * 2.0 - 1.0) * s.w, 1.0);\n"
    "    v_id = id;\n"
    "}\n";
static const char *k_fs = "#version 310 es\n"
                          "precision highp float;\n"
                          "flat in uint v_id;\n"
                          "out vec4 o_color;\n"
                          "void main() {\n"
                          "    uint h = v_id * 2654435761u;\n"
                          "    o_color = vec4(float((h >> 8) & 255u), float((h >> 16) & 255u), float((h >> 24) & 255u),\n"
                          "                   255.0) / 255.0;\n"
                          "}\n";

/* the 12 triangles of the cube over corners (x | y << 1 | z << 2), counter-clockwise outside */
static const uint32_t k_cube[36] = {0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4,
                                    2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5};

typedef struct st {
    hl_renderer *r;
    hl_render_target *target;
    hl_compute_kernel *cull;
    hl_storage_shader *cubes;
    hl_storage_buffer *spheres, *cube, *args, *visible, *cpu_list;
    uint32_t w, h, cpu_count;
    bool gpu; /* cull on the GPU, else draw cpu_list directly */
    float view_proj[16], planes[24];
    hl_result gles3_code;
} st;

static hl_result record(hl_pipeline_context ctx, void *state) {
    st *s = state;
    hl_pipeline_buffer spheres, cube, args = {0}, visible;
    hl_result res = hl_pipeline_import_storage_buffer(ctx, s->spheres, &spheres);
    if (res == HL_ERR_UNSUPPORTED) { /* gles3 */
        s->gles3_code = res;
        return HL_OK;
    }
    hl_pipeline_texture img, depth;
    hl_pipeline_texture_desc dd = {HL_PIPELINE_FORMAT_DEPTH24_PLUS, s->w, s->h, 0, 0, "depth", 1, 0};
    if (!res) res = hl_pipeline_import_storage_buffer(ctx, s->cube, &cube);
    if (!res) res = hl_pipeline_import_render_target(ctx, s->target, 0, &img);
    if (!res) res = hl_pipeline_create_texture(ctx, &dd, &depth);
    if (res) return res;
    if (s->gpu) {
        if ((res = hl_pipeline_import_storage_buffer(ctx, s->args, &args)) ||
            (res = hl_pipeline_import_storage_buffer(ctx, s->visible, &visible)) ||
            (res = hl_pipeline_add_buffer_clear_pass(ctx, "reset args", args, 0, 0)))
            return res;
        hl_pipeline_compute_resource cr[4] = {{0}};
        cr[0].name = "frustum";
        cr[0].data = s->planes;
        cr[0].data_size = sizeof s->planes;
        cr[1].name = "spheres";
        cr[1].buffer = spheres;
        cr[2].name = "args";
        cr[2].buffer = args;
        cr[3].name = "visible";
        cr[3].buffer = visible;
        hl_pipeline_compute_pass_desc cd = {0};
        cd.name = "cull";
        cd.kernel = s->cull;
        cd.resources = cr;
        cd.resource_count = 4;
        cd.groups[0] = (INSTANCES + 63) / 64;
        if ((res = hl_pipeline_add_compute_pass(ctx, &cd))) return res;
    } else if ((res = hl_pipeline_import_storage_buffer(ctx, s->cpu_list, &visible))) {
        return res;
    }
    hl_pipeline_gpu_draw_pass_desc g = {0};
    g.name = s->gpu ? "cubes (GPU-culled)" : "cubes (CPU-culled)";
    g.shader = s->cubes;
    g.buffers[0] = (hl_pipeline_storage_binding){"Spheres", spheres, 0, 0};
    g.buffers[1] = (hl_pipeline_storage_binding){"Visible", visible, 0, 0};
    g.buffer_count = 2;
    g.params = s->view_proj;
    g.params_size = sizeof s->view_proj;
    g.color[0] = img;
    g.color_count = 1;
    g.clear_color[3] = 1.0f;
    g.depth = depth;
    g.depth_test = g.depth_write = true;
    g.cull_back = true;
    g.index_buffer = cube;
    if (s->gpu) g.indirect = args;
    else g.count = 36, g.instance_count = s->cpu_count;
    return hl_pipeline_add_gpu_draw_pass(ctx, &g);
}

/* column-major perspective (WebGPU depth 0..1) * look-at */
static void camera(float aspect, const float eye[3], float out[16]) {
    const float target[3] = {0, 0, 0}, up[3] = {0, 1, 0};
    float f[3] = {target[0] - eye[0], target[1] - eye[1], target[2] - eye[2]};
    float fl = sqrtf(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
    for (int i = 0; i < 3; i++) f[i] /= fl;
    float sx[3] = {f[1] * up[2] - f[2] * up[1], f[2] * up[0] - f[0] * up[2], f[0] * up[1] - f[1] * up[0]};
    float sl = sqrtf(sx[0] * sx[0] + sx[1] * sx[1] + sx[2] * sx[2]);
    for (int i = 0; i < 3; i++) sx[i] /= sl;
    float u[3] = {sx[1] * f[2] - sx[2] * f[1], sx[2] * f[0] - sx[0] * f[2], sx[0] * f[1] - sx[1] * f[0]};
    float view[16] = {sx[0], u[0], -f[0], 0, sx[1], u[1], -f[1], 0, sx[2], u[2], -f[2], 0,
                      -(sx[0] * eye[0] + sx[1] * eye[1] + sx[2] * eye[2]),
                      -(u[0] * eye[0] + u[1] * eye[1] + u[2] * eye[2]),
                      f[0] * eye[0] + f[1] * eye[1] + f[2] * eye[2], 1};
    float n = 1.0f, fa = 200.0f, t = 1.0f / tanf(0.5f * 0.8f);
    float proj[16] = {t / aspect, 0, 0, 0, 0, t, 0, 0, 0, 0, fa / (n - fa), -1, 0, 0, n * fa / (n - fa), 0};
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) {
            float v = 0;
            for (int k = 0; k < 4; k++) v += proj[k * 4 + r] * view[c * 4 + k];
            out[c * 4 + r] = v;
        }
}

/* The six planes (left, right, bottom, top, near, far) of clip = M v with 0 <= z <= w,
 * normalized: inside where dot(n, p) + d >= 0. */
static void planes_of(const float m[16], float out[24]) {
    float row[4][4];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) row[r][c] = m[c * 4 + r];
    for (int c = 0; c < 4; c++) {
        out[0 + c] = row[3][c] + row[0][c];
        out[4 + c] = row[3][c] - row[0][c];
        out[8 + c] = row[3][c] + row[1][c];
        out[12 + c] = row[3][c] - row[1][c];
        out[16 + c] = row[2][c];
        out[20 + c] = row[3][c] - row[2][c];
    }
    for (int p = 0; p < 6; p++) {
        float *q = out + p * 4, l = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
        for (int c = 0; c < 4; c++) q[c] /= l;
    }
}

static bool inside(const float *pl, const float *s) {
    for (int p = 0; p < 6; p++) {
        const float *q = pl + p * 4;
        if (q[0] * s[0] + q[1] * s[1] + q[2] * s[2] + q[3] < -s[3]) return false;
    }
    return true;
}

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static hl_result make_kernel(hl_renderer *r, hl_compute_kernel **out) {
    hl_compute_shader_desc d = {0};
    d.wgsl = k_cull;
    d.workgroup_size[0] = 64;
    d.bindings = k_cull_abi;
    d.binding_count = 4;
    hl_compute_shader *cs = NULL;
    hl_result res = hl_compute_shader_create(r, &d, &cs);
    if (res) return res;
    hl_compute_kernel_desc kd = {cs, NULL, 0, NULL};
    return hl_compute_kernel_create(r, &kd, out);
}

static void run(uint32_t w, uint32_t h, const float eye[3], float *spheres) {
    st s;
    memset(&s, 0, sizeof s);
    hl_test_runtime rt = {"gpu-culling", record, &s};
    hl_pipeline_factory f;
    hl_test_runtime_factory(&rt, &f);
    hl_renderer *r = make_renderer_with(16, 16, 1, &f);
    if (!r) return;
    s.r = r;
    s.w = w, s.h = h;
    camera((float)w / (float)h, eye, s.view_proj);
    planes_of(s.view_proj, s.planes);
    uint32_t *want = malloc(INSTANCES * 4), *got = malloc(INSTANCES * 4);
    uint8_t *a = malloc((size_t)w * h * 4), *b = malloc((size_t)w * h * 4);
    hl_stage *stage = NULL;
    HL_CHECK_OK(hl_stage_create(&stage));
    hl_camera *cam = front_camera(stage);
    for (uint32_t i = 0; i < INSTANCES; i++)
        if (inside(s.planes, spheres + i * 4)) want[s.cpu_count++] = i;
    hl_render_target_desc td = {w, h, 1, {HL_TARGET_RGBA8}, 1, true, {0, 0, 0, 0}, "culling"};
    HL_CHECK_OK(hl_render_target_create(r, &td, &s.target));
    HL_CHECK_OK(make_kernel(r, &s.cull));
    hl_storage_shader_desc sd = {k_vs, k_fs, "cubes"};
    hl_result sr = hl_storage_shader_create(r, &sd, &s.cubes);
    HL_CHECK_MSG(sr == HL_OK, "%s", hl_last_error());
    hl_storage_buffer_desc bd = {INSTANCES * 16, 0, HL_STORAGE_RECOVERY_CPU_SHADOW, spheres, "spheres"};
    HL_CHECK_OK(hl_storage_buffer_create(r, &bd, &s.spheres));
    hl_storage_buffer_desc cd = {sizeof k_cube, HL_STORAGE_USAGE_INDEX, HL_STORAGE_RECOVERY_CPU_SHADOW, k_cube, "cube"};
    HL_CHECK_OK(hl_storage_buffer_create(r, &cd, &s.cube));
    hl_storage_buffer_desc ad = {20, HL_STORAGE_USAGE_INDIRECT, HL_STORAGE_RECOVERY_REINITIALIZE, NULL, "args"};
    HL_CHECK_OK(hl_storage_buffer_create(r, &ad, &s.args));
    hl_storage_buffer_desc vd = {INSTANCES * 4, 0, HL_STORAGE_RECOVERY_REINITIALIZE, NULL, "visible"};
    HL_CHECK_OK(hl_storage_buffer_create(r, &vd, &s.visible));
    hl_storage_buffer_desc ld = {INSTANCES * 4, 0, HL_STORAGE_RECOVERY_CPU_SHADOW, want, "cpu list"};
    HL_CHECK_OK(hl_storage_buffer_create(r, &ld, &s.cpu_list));
    if (want && got && a && b && s.target && s.cull && s.cubes && s.spheres && s.cube && s.args && s.visible && s.cpu_list) {
        if (getenv("HL_VERBOSE")) fprintf(stderr, "%ux%u: %u of %u visible\n", w, h, s.cpu_count, INSTANCES);
        HL_CHECK_MSG(s.cpu_count > 100 && s.cpu_count < INSTANCES / 2, "%ux%u: %u visible", w, h, s.cpu_count);
        s.gpu = true;
        HL_CHECK_OK(hl_renderer_render(r, stage, cam));
        HL_CHECK_EQ(hl_renderer_stats(r)->passes, 3);
        HL_CHECK_OK(hl_render_target_read(r, s.target, 0, a, (size_t)w * h * 4));
        uint32_t args[5] = {0};
        HL_CHECK_OK(hl_storage_buffer_read(r, s.args, 0, 20));
        HL_CHECK_OK(hl_storage_buffer_read_wait(r, args, sizeof args, 0));
        HL_CHECK_MSG(args[0] == 36 && args[1] == s.cpu_count && args[2] == 0 && args[3] == 0 && args[4] == 0,
                     "%ux%u: args %u %u %u %u %u; the CPU finds %u visible", w, h, args[0], args[1], args[2], args[3],
                     args[4], s.cpu_count);
        if (args[1] == s.cpu_count) {
            HL_CHECK_OK(hl_storage_buffer_read(r, s.visible, 0, (uint64_t)s.cpu_count * 4));
            HL_CHECK_OK(hl_storage_buffer_read_wait(r, got, INSTANCES * 4, 0));
            qsort(got, s.cpu_count, 4, cmp_u32);
            HL_CHECK(memcmp(got, want, (size_t)s.cpu_count * 4) == 0);
        }
        s.gpu = false;
        HL_CHECK_OK(hl_renderer_render(r, stage, cam));
        HL_CHECK_EQ(hl_renderer_stats(r)->passes, 1);
        HL_CHECK_OK(hl_render_target_read(r, s.target, 0, b, (size_t)w * h * 4));
        int worst = 0;
        uint32_t lit = 0;
        for (size_t i = 0; i < (size_t)w * h * 4; i++) worst = abs(a[i] - b[i]) > worst ? abs(a[i] - b[i]) : worst;
        for (size_t i = 0; i < (size_t)w * h; i++) lit += a[i * 4] | a[i * 4 + 1] | a[i * 4 + 2] ? 1 : 0;
        HL_CHECK_MSG(worst <= 1, "%ux%u: GPU-culled image differs from the CPU-culled one by %d/255", w, h, worst);
        HL_CHECK_MSG(lit > w * h / 4, "%ux%u: %u pixels covered", w, h, lit);
    }
    free(want);
    free(got);
    free(a);
    free(b);
    hl_stage_destroy(stage);
    hl_renderer_destroy(r);
}

static void test_gles3(void) {
    st s;
    memset(&s, 0, sizeof s);
    hl_test_runtime rt = {"gpu-culling-gles3", record, &s};
    hl_pipeline_factory f;
    hl_test_runtime_factory(&rt, &f);
    hl_renderer *r = make_renderer_with(16, 16, 1, &f);
    if (!r) return;
    hl_stage *stage = NULL;
    HL_CHECK_OK(hl_stage_create(&stage));
    hl_camera *cam = front_camera(stage);
    hl_storage_buffer_desc bd = {16, 0, HL_STORAGE_RECOVERY_CPU_SHADOW, NULL, "spheres"};
    HL_CHECK_RESULT(hl_storage_buffer_create(r, &bd, &s.spheres), HL_ERR_UNSUPPORTED);
    s.spheres = (hl_storage_buffer *)&s; /* never dereferenced: the backend refuses first */
    HL_CHECK_OK(hl_renderer_render(r, stage, cam));
    HL_CHECK_EQ(s.gles3_code, HL_ERR_UNSUPPORTED);
    hl_stage_destroy(stage);
    hl_renderer_destroy(r);
}

int main(int argc, char **argv) {
    if (backend_of(argc, argv) == HL_BACKEND_GLES3) {
        test_gles3();
        return hl_test_finish();
    }
    float *spheres = malloc((size_t)INSTANCES * 16);
    if (!spheres) return 1;
    uint32_t seed = 777;
    for (uint32_t i = 0; i < INSTANCES * 4; i++) {
        seed = seed * 1664525u + 1013904223u;
        float u = (float)(seed >> 8) / 16777216.0f;
        spheres[i] = i % 4 == 3 ? 0.2f + 0.8f * u : (u * 2.0f - 1.0f) * 50.0f;
    }
    const float eye0[3] = {10, 5, 30}, eye1[3] = {60, -10, 10};
    run(96, 64, eye0, spheres);
    run(48, 80, eye1, spheres);
    free(spheres);
    return hl_test_finish();
}
