/* The GPU-driven examples (hl_gpu_examples.h): particles and GPU culling, through the public
 * compute, storage and pipeline API only. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hilo3d/scene.h"
#include "hl_gpu_examples.h"

#define MAX_COUNT (1u << 22)

/* ---- particles ------------------------------------------------------------------------------------ */
const char *const hl_gpu_particles_step_wgsl =
    "struct Body { p: vec4<f32>, v: vec4<f32>, }\n"
    "struct Sim { dt: f32, k: f32, w: f32, damping: f32, count: u32, pad0: u32, pad1: u32, pad2: u32, }\n"
    "@group(0) @binding(0) var<uniform> sim: Sim;\n"
    "@group(0) @binding(1) var<storage, read_write> bodies: array<Body>;\n"
    "@compute @workgroup_size(256)\n"
    "fn main(@builtin(global_invocation_id) id: vec3<u32>) {\n"
    "    let i = id.x;\n"
    "    if (i >= sim.count) { return; }\n"
    "    var b = bodies[i];\n"
    "    let p = b.p.xyz;\n"
    "    let a = -sim.k * p + sim.w * vec3<f32>(-p.z, 0.0, p.x);\n"
    "    let v = (b.v.xyz + a * sim.dt) * sim.damping;\n"
    "    b.v = vec4<f32>(v, 0.0);\n"
    "    b.p = vec4<f32>(p + v * sim.dt, 1.0);\n"
    "    bodies[i] = b;\n"
    "}\n";
const hl_compute_binding hl_gpu_particles_step_abi[2] = {
    {"sim", 0, 0, HL_COMPUTE_UNIFORM_BUFFER, 32},
    {"bodies", 0, 1, HL_COMPUTE_STORAGE_READ_WRITE, 32},
};

const char *const hl_gpu_particles_compact_wgsl =
    "struct Body { p: vec4<f32>, v: vec4<f32>, }\n"
    "struct DrawArgs { vertex_count: u32, instance_count: atomic<u32>, first_vertex: u32, first_instance: u32, }\n"
    "@group(0) @binding(0) var<storage, read> bodies: array<Body>;\n"
    "@group(0) @binding(1) var<storage, read_write> args: DrawArgs;\n"
    "@group(0) @binding(2) var<storage, read_write> visible: array<u32>;\n"
    "@compute @workgroup_size(256)\n"
    "fn main(@builtin(global_invocation_id) id: vec3<u32>) {\n"
    "    let i = id.x;\n"
    "    if (i == 0u) { args.vertex_count = 6u; }\n"
    "    if (i >= arrayLength(&bodies)) { return; }\n"
    "    if (bodies[i].p.y > 0.0) {\n"
    "        visible[atomicAdd(&args.instance_count, 1u)] = i;\n"
    "    }\n"
    "}\n";
const hl_compute_binding hl_gpu_particles_compact_abi[3] = {
    {"bodies", 0, 0, HL_COMPUTE_STORAGE_READ, 32},
    {"args", 0, 1, HL_COMPUTE_STORAGE_READ_WRITE, 16},
    {"visible", 0, 2, HL_COMPUTE_STORAGE_READ_WRITE, 4},
};

/* quads over (x, z) seen from above, 2.5 pixels wide, coloured by speed */
static const char *k_sprite_vs =
    "#version 310 es\n"
    "struct Body { vec4 p; vec4 v; };\n"
    "layout(std430) readonly buffer Bodies { Body bodies[]; };\n"
    "layout(std430) readonly buffer Visible { uint index[]; };\n"
    "layout(std140) uniform Params { vec4 view; };\n" /* xy: world to NDC scale, zw: half quad in NDC */
    "const vec2 k_corner[6] = vec2[6](vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(-1.0, 1.0), vec2(-1.0, 1.0),\n"
    "                                 vec2(1.0, -1.0), vec2(1.0, 1.0));\n"
    "out vec3 v_color;\n"
    "void main() {\n"
    "    Body b = bodies[index[gl_InstanceID]];\n"
    "    float speed = clamp(length(b.v.xyz) * 0.25, 0.0, 1.0);\n"
    "    v_color = mix(vec3(0.004, 0.01, 0.05), vec3(0.08, 0.03, 0.005), speed);\n"
    "    gl_Position = vec4(b.p.xz * view.xy + k_corner[gl_VertexID] * view.zw, 0.0, 1.0);\n"
    "}\n";
static const char *k_sprite_fs = "#version 310 es\n"
                                 "precision highp float;\n"
                                 "in vec3 v_color;\n"
                                 "out vec4 o_color;\n"
                                 "void main() { o_color = vec4(v_color, 0.0); }\n";

/* ---- gpu culling ---------------------------------------------------------------------------------- */
const char *const hl_gpu_culling_wgsl =
    "struct Frustum { planes: array<vec4<f32>, 6>, }\n"
    "struct Args { index_count: u32, instance_count: atomic<u32>, first_index: u32, base_vertex: u32,\n"
    "              first_instance: u32, }\n"
    "@group(0) @binding(0) var<uniform> frustum: Frustum;\n"
    "@group(0) @binding(1) var<storage, read> spheres: array<vec4<f32>>;\n"
    "@group(0) @binding(2) var<storage, read_write> args: Args;\n"
    "@group(0) @binding(3) var<storage, read_write> visible: array<u32>;\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(global_invocation_id) id: vec3<u32>) {\n"
    "    let i = id.y * 4194304u + id.x;\n"
    "    if (i == 0u) { args.index_count = 36u; }\n"
    "    if (i >= arrayLength(&spheres)) { return; }\n"
    "    let s = spheres[i];\n"
    "    for (var p = 0u; p < 6u; p = p + 1u) {\n"
    "        let pl = frustum.planes[p];\n"
    "        if (pl.x * s.x + pl.y * s.y + pl.z * s.z + pl.w < -s.w) { return; }\n"
    "    }\n"
    "    visible[atomicAdd(&args.instance_count, 1u)] = i;\n"
    "}\n";
const hl_compute_binding hl_gpu_culling_abi[4] = {
    {"frustum", 0, 0, HL_COMPUTE_UNIFORM_BUFFER, 96},
    {"spheres", 0, 1, HL_COMPUTE_STORAGE_READ, 16},
    {"args", 0, 2, HL_COMPUTE_STORAGE_READ_WRITE, 20},
    {"visible", 0, 3, HL_COMPUTE_STORAGE_READ_WRITE, 4},
};

const char *const hl_gpu_cube_vs =
    "#version 310 es\n"
    "layout(std430) readonly buffer Spheres { vec4 spheres[]; };\n"
    "layout(std430) readonly buffer Visible { uint visible[]; };\n"
    "layout(std140) uniform Params { mat4 view_proj; };\n"
    "flat out uint v_id;\n"
    "out vec3 v_pos;\n"
    "void main() {\n"
    "    uint id = visible[gl_InstanceID];\n"
    "    vec4 s = spheres[id];\n"
    "    vec3 corner = vec3(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1), float((gl_VertexID >> 2) & 1));\n"
    "    v_pos = s.xyz + (corner * 2.0 - 1.0) * s.w;\n"
    "    gl_Position = view_proj * vec4(v_pos, 1.0);\n"
    "    v_id = id;\n"
    "}\n";
const char *const hl_gpu_cube_fs =
    "#version 310 es\n"
    "precision highp float;\n"
    "flat in uint v_id;\n"
    "in vec3 v_pos;\n"
    "out vec4 o_color;\n"
    "void main() {\n"
    "    uint h = v_id * 2654435761u;\n"
    "    vec3 base = vec3(float((h >> 8) & 255u), float((h >> 16) & 255u), float((h >> 24) & 255u)) / 255.0;\n"
    "    vec3 n = normalize(cross(dFdx(v_pos), dFdy(v_pos)));\n"
    "    float light = 0.35 + 0.65 * abs(dot(n, normalize(vec3(0.4, 0.8, 0.45))));\n"
    "    o_color = vec4(base * light, 1.0);\n"
    "}\n";

const uint32_t hl_gpu_cube_indices[36] = {0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4,
                                    2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5};

/* ---- forward+ -------------------------------------------------------------------------------------- */
static const char *k_depth_vs = "#version 300 es\n"
                                "layout(std140) uniform Frame { mat4 u_viewProj; vec4 u_cameraPos; };\n"
                                "layout(std140) uniform Object { mat4 u_model; mat4 u_normalMatrix; };\n"
                                "in vec3 a_position;\n"
                                "void main() { gl_Position = u_viewProj * u_model * vec4(a_position, 1.0); }\n";
static const char *k_depth_fs = "#version 300 es\n"
                                "precision highp float;\n"
                                "layout(location = 0) out vec4 o_depth;\n"
                                "void main() { o_depth = vec4(1.0 / gl_FragCoord.w, 0.0, 0.0, 1.0); }\n";
static const char *k_lit_vs = "#version 310 es\n"
                              "layout(std140) uniform Frame { mat4 u_viewProj; vec4 u_cameraPos; };\n"
                              "layout(std140) uniform Object { mat4 u_model; mat4 u_normalMatrix; };\n"
                              "in vec3 a_position;\n"
                              "in vec3 a_normal;\n"
                              "out vec3 v_pos;\n"
                              "out vec3 v_normal;\n"
                              "void main() {\n"
                              "    vec4 w = u_model * vec4(a_position, 1.0);\n"
                              "    v_pos = w.xyz;\n"
                              "    v_normal = mat3(u_normalMatrix) * a_normal;\n"
                              "    gl_Position = u_viewProj * w;\n"
                              "}\n";
static const char *k_lit_fs_head = "#version 310 es\n"
                                   "precision highp float;\n"
                                   "struct Light { vec4 p; vec4 c; };\n"
                                   "layout(std430) readonly buffer Lights { uvec4 header; Light lights[]; };\n"
                                   "in vec3 v_pos;\n"
                                   "in vec3 v_normal;\n"
                                   "layout(location = 0) out vec4 o_color;\n"
                                   "vec3 shade(Light l, vec3 n) {\n"
                                   "    vec3 d = l.p.xyz - v_pos;\n"
                                   "    float dist = length(d);\n"
                                   "    float a = max(1.0 - dist / l.p.w, 0.0);\n"
                                   "    return l.c.rgb * a * a * max(dot(n, d / max(dist, 1e-4)), 0.0);\n"
                                   "}\n";
static const char *k_tiled_fs_body =
    "layout(std430) readonly buffer Tiles { uvec4 grid; uint lists[]; };\n" /* grid.x: tiles per row */

    "void main() {\n"
    "    vec3 n = normalize(v_normal);\n"
    "    uvec2 t = uvec2(gl_FragCoord.xy) / 16u;\n"
    "    uint base = (t.y * grid.x + t.x) * 256u;\n"
    "    vec3 c = vec3(0.02);\n"
    "    uint count = lists[base];\n"
    "    if (count == 0xFFFFFFFFu) {\n" /* the tile's list overflowed: every light */
    "        for (uint i = 0u; i < header.x; i++) c += shade(lights[i], n);\n"
    "    } else {\n"
    "        for (uint i = 0u; i < count; i++) c += shade(lights[lists[base + 1u + i]], n);\n"
    "    }\n"
    "    o_color = vec4(c, 1.0);\n"
    "}\n";
static const char *k_brute_fs_body = "void main() {\n"
                                     "    vec3 n = normalize(v_normal);\n"
                                     "    vec3 c = vec3(0.02);\n"
                                     "    for (uint i = 0u; i < header.x; i++) c += shade(lights[i], n);\n"
                                     "    o_color = vec4(c, 1.0);\n"
                                     "}\n";
static const char *k_cull =
    "struct Params { view_proj: mat4x4<f32>, size: vec4<u32>, }\n" /* width, height, tiles x, tiles y */
    "struct Light { p: vec4<f32>, c: vec4<f32>, }\n"
    "struct Lights { header: vec4<u32>, lights: array<Light>, }\n"
    "@group(0) @binding(0) var<uniform> params: Params;\n"
    "@group(0) @binding(1) var depth: texture_2d<f32>;\n"
    "@group(0) @binding(2) var<storage, read> lights: Lights;\n"
    "@group(0) @binding(3) var<storage, read_write> tiles: array<u32>;\n"
    "@compute @workgroup_size(8, 8)\n"
    "fn main(@builtin(global_invocation_id) id: vec3<u32>) {\n"
    "    let tx = id.x; let ty = id.y;\n"
    "    if (tx >= params.size.z || ty >= params.size.w) { return; }\n"
    "    if (tx == 0u && ty == 0u) { tiles[0] = params.size.z; }\n"
    "    var lo = 1e30; var hi = 0.0;\n"
    "    for (var y = ty * 16u; y < min(ty * 16u + 16u, params.size.y); y = y + 1u) {\n"
    "        for (var x = tx * 16u; x < min(tx * 16u + 16u, params.size.x); x = x + 1u) {\n"
    "            let d = textureLoad(depth, vec2<i32>(i32(x), i32(y)), 0).x;\n"
    "            lo = min(lo, d); hi = max(hi, d);\n"
    "        }\n"
    "    }\n"
    "    let base = 4u + (ty * params.size.z + tx) * 256u;\n"
    "    var count = 0u;\n"
    "    let w = f32(params.size.x); let h = f32(params.size.y);\n"
    "    for (var i = 0u; i < lights.header.x; i = i + 1u) {\n"
    "        let l = lights.lights[i];\n"
    "        var x0 = 1e30; var x1 = -1e30; var y0 = 1e30; var y1 = -1e30; var w0 = 1e30; var w1 = -1e30;\n"
    "        var behind = false;\n"
    "        for (var k = 0u; k < 8u; k = k + 1u) {\n"
    "            let s = vec3<f32>(f32(k & 1u), f32((k >> 1u) & 1u), f32((k >> 2u) & 1u)) * 2.0 - 1.0;\n"
    "            let c = params.view_proj * vec4<f32>(l.p.xyz + s * l.p.w, 1.0);\n"
    "            if (c.w <= 1e-3) { behind = true; }\n"
    "            let px = (c.x / c.w * 0.5 + 0.5) * w; let py = (0.5 - c.y / c.w * 0.5) * h;\n"
    "            x0 = min(x0, px); x1 = max(x1, px); y0 = min(y0, py); y1 = max(y1, py);\n"
    "            w0 = min(w0, c.w); w1 = max(w1, c.w);\n"
    "        }\n"
    "        var keep = behind;\n"
    "        if (!behind) {\n"
    "            let fx = f32(tx * 16u); let fy = f32(ty * 16u);\n"
    "            keep = x1 >= fx - 1.0 && x0 <= fx + 17.0 && y1 >= fy - 1.0 && y0 <= fy + 17.0 && w1 >= lo * 0.999 &&\n"
    "                   w0 <= hi * 1.001;\n"
    "        }\n"
    "        if (keep) {\n"
    "            if (count == 255u) { count = 0xFFFFFFFFu; break; }\n" /* overflow: the tile shades every light */
    "            tiles[base + 1u + count] = i; count = count + 1u;\n"
    "        }\n"
    "    }\n"
    "    tiles[base] = count;\n"
    "}\n";
static const hl_compute_binding k_cull_abi[] = {
    {"params", 0, 0, HL_COMPUTE_UNIFORM_BUFFER, 80},
    {"depth", 0, 1, HL_COMPUTE_SAMPLED_TEXTURE_2D, 0},
    {"lights", 0, 2, HL_COMPUTE_STORAGE_READ, 48},
    {"tiles", 0, 3, HL_COMPUTE_STORAGE_READ_WRITE, 4},
};

enum { FP_LIGHTS = 256, FP_TILE = 16 };

struct hl_gpu_example {
    hl_gpu_example_desc desc;
    hl_pipeline_factory factory;
    hl_pipeline_requirements reqs;
    hl_renderer *r;
    hl_compute_kernel *k0, *k1;
    hl_storage_shader *shader;
    hl_storage_buffer *data, *args, *visible, *index;
    float *spheres; /* gpu-culling: the CPU's copy */
    uint32_t *list; /* cpu_cull: the visible list */
    uint32_t cpu_count;
    float view_proj[16], planes[24];
    uint32_t width, height;
    /* the example's scene (hl_gpu_example_scene) */
    hl_stage *stage;
    hl_camera *camera;
    hl_material *depth_mat, *lit_mat; /* forward-plus */
};

hl_result hl_gpu_example_parse(const char *name, hl_gpu_example_kind *out) {
    if (name && !strcmp(name, "particles")) *out = HL_GPU_EXAMPLE_PARTICLES;
    else if (name && !strcmp(name, "gpu-culling")) *out = HL_GPU_EXAMPLE_CULLING;
    else if (name && !strcmp(name, "forward-plus")) *out = HL_GPU_EXAMPLE_FORWARD_PLUS;
    else return HL_ERR_VALIDATION;
    return HL_OK;
}

static hl_result runtime_record(hl_pipeline_context ctx, void *state);

static hl_result factory_create(const hl_pipeline_caps *caps, void *user, hl_pipeline_runtime **out) {
    (void)caps;
    hl_gpu_example *ex = user;
    hl_pipeline_runtime_desc d = {ex->factory.name, ex, runtime_record, NULL};
    return hl_pipeline_runtime_create(&d, out);
}

hl_result hl_gpu_example_create(const hl_gpu_example_desc *desc, hl_gpu_example **out) {
    if (!desc || !out) return HL_ERR_VALIDATION;
    *out = NULL;
    uint32_t n = desc->count ? desc->count : desc->kind == HL_GPU_EXAMPLE_PARTICLES ? 65536u : 100000u;
    if (desc->kind == HL_GPU_EXAMPLE_FORWARD_PLUS) n = desc->count ? desc->count : FP_LIGHTS;
    if ((unsigned)desc->kind > HL_GPU_EXAMPLE_FORWARD_PLUS || n > MAX_COUNT ||
        (desc->kind == HL_GPU_EXAMPLE_FORWARD_PLUS && n > 4096))
        return HL_ERR_VALIDATION;
    hl_gpu_example *ex = calloc(1, sizeof *ex);
    if (!ex) return HL_ERR_OUT_OF_MEMORY;
    ex->desc = *desc;
    ex->desc.count = n;
    ex->reqs.capabilities = HL_PIPELINE_CAP_COMPUTE | HL_PIPELINE_CAP_STORAGE_BUFFERS;
    static const char *const names[] = {"particles", "gpu-culling", "forward-plus"};
    ex->factory = (hl_pipeline_factory){names[ex->desc.kind], &ex->reqs, factory_create, ex};
    *out = ex;
    return HL_OK;
}

const hl_pipeline_factory *hl_gpu_example_factory(hl_gpu_example *ex) { return ex ? &ex->factory : NULL; }

hl_result hl_gpu_kernel_create(hl_renderer *r, const char *wgsl, const hl_compute_binding *abi, uint32_t n, uint32_t wg,
                               const char *label, hl_compute_kernel **out) {
    hl_compute_shader_desc d = {0};
    d.wgsl = wgsl;
    d.workgroup_size[0] = wg;
    d.bindings = abi;
    d.binding_count = n;
    d.label = label;
    hl_compute_shader *s = NULL;
    hl_result res = hl_compute_shader_create(r, &d, &s);
    if (res) return res;
    hl_compute_kernel_desc kd = {s, NULL, 0, label};
    res = hl_compute_kernel_create(r, &kd, out);
    hl_compute_shader_destroy(r, s);
    return res;
}

static uint32_t lcg(uint32_t *seed) {
    *seed = *seed * 1664525u + 1013904223u;
    return *seed >> 8;
}

hl_result hl_gpu_example_setup(hl_gpu_example *ex, hl_renderer *r) {
    if (!ex || !r) return HL_ERR_VALIDATION;
    ex->r = r;
    hl_renderer_size(r, &ex->width, &ex->height);
    uint32_t n = ex->desc.count, seed = 12345;
    hl_result res;
    if (ex->desc.kind == HL_GPU_EXAMPLE_PARTICLES) {
        float *bodies = malloc((size_t)n * 32);
        if (!bodies) return HL_ERR_OUT_OF_MEMORY;
        for (uint32_t i = 0; i < n; i++) {
            float *b = bodies + (size_t)i * 8;
            for (int c = 0; c < 3; c++) b[c] = ((float)lcg(&seed) / 16777216.0f * 2.0f - 1.0f) * 4.0f;
            for (int c = 4; c < 7; c++) b[c] = (float)lcg(&seed) / 16777216.0f * 2.0f - 1.0f;
            b[3] = 1.0f, b[7] = 0.0f;
        }
        hl_storage_buffer_desc bd = {(uint64_t)n * 32, 0, HL_STORAGE_RECOVERY_CPU_SHADOW, bodies, "bodies"};
        res = hl_storage_buffer_create(r, &bd, &ex->data);
        free(bodies);
        hl_storage_buffer_desc ad = {16, HL_STORAGE_USAGE_INDIRECT, HL_STORAGE_RECOVERY_REINITIALIZE, NULL, "draw args"};
        hl_storage_buffer_desc vd = {(uint64_t)n * 4, 0, HL_STORAGE_RECOVERY_REINITIALIZE, NULL, "visible"};
        hl_storage_shader_desc sd = {k_sprite_vs, k_sprite_fs, "sprites"};
        if (!res) res = hl_storage_buffer_create(r, &ad, &ex->args);
        if (!res) res = hl_storage_buffer_create(r, &vd, &ex->visible);
        if (!res) res = hl_gpu_kernel_create(r, hl_gpu_particles_step_wgsl, hl_gpu_particles_step_abi, 2, 256, "integrate", &ex->k0);
        if (!res) res = hl_gpu_kernel_create(r, hl_gpu_particles_compact_wgsl, hl_gpu_particles_compact_abi, 3, 256, "compact", &ex->k1);
        if (!res) res = hl_storage_shader_create(r, &sd, &ex->shader);
        return res;
    }
    if (ex->desc.kind == HL_GPU_EXAMPLE_FORWARD_PLUS) {
        /* lights above the floor: [-14, 14] x [0.3, 2.5] x [-14, 14], radius 1.5..4 */
        float *lights = calloc(4 + (size_t)n * 8, sizeof(float));
        if (!lights) return HL_ERR_OUT_OF_MEMORY;
        memcpy(lights, &n, 4);
        for (uint32_t i = 0; i < n; i++) {
            float *l = lights + 4 + (size_t)i * 8, u[8];
            for (int k = 0; k < 8; k++) u[k] = (float)lcg(&seed) / 16777216.0f;
            l[0] = -14.0f + 28.0f * u[0], l[1] = 0.3f + 2.2f * u[1], l[2] = -14.0f + 28.0f * u[2];
            l[3] = 1.5f + 2.5f * u[3];
            l[4] = 0.2f + 0.6f * u[4], l[5] = 0.2f + 0.6f * u[5], l[6] = 0.2f + 0.6f * u[6], l[7] = 1.0f;
        }
        hl_storage_buffer_desc ld = {16 + (uint64_t)n * 32, 0, HL_STORAGE_RECOVERY_CPU_SHADOW, lights, "lights"};
        res = hl_storage_buffer_create(r, &ld, &ex->data);
        free(lights);
        uint32_t tiles = ((ex->width + FP_TILE - 1) / FP_TILE) * ((ex->height + FP_TILE - 1) / FP_TILE);
        hl_storage_buffer_desc td = {16 + (uint64_t)tiles * 256 * 4, 0, HL_STORAGE_RECOVERY_REINITIALIZE, NULL, "tiles"};
        if (!res) res = hl_storage_buffer_create(r, &td, &ex->visible);
        if (!res && !ex->desc.brute_force) {
            hl_compute_shader_desc cd = {0};
            cd.wgsl = k_cull;
            cd.workgroup_size[0] = cd.workgroup_size[1] = 8;
            cd.bindings = k_cull_abi;
            cd.binding_count = 4;
            cd.label = "light culling";
            hl_compute_shader *cs = NULL;
            res = hl_compute_shader_create(r, &cd, &cs);
            hl_compute_kernel_desc kd = {cs, NULL, 0, "light culling"};
            if (!res) res = hl_compute_kernel_create(r, &kd, &ex->k0);
            hl_compute_shader_destroy(r, cs);
        }
        return res;
    }
    ex->spheres = malloc((size_t)n * 16);
    ex->list = ex->desc.cpu_cull ? malloc((size_t)n * 4) : NULL;
    if (!ex->spheres || (ex->desc.cpu_cull && !ex->list)) return HL_ERR_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < n * 4; i++) {
        float u = (float)lcg(&seed) / 16777216.0f;
        ex->spheres[i] = i % 4 == 3 ? 0.2f + 0.8f * u : (u * 2.0f - 1.0f) * 50.0f;
    }
    hl_storage_buffer_desc bd = {(uint64_t)n * 16, 0, HL_STORAGE_RECOVERY_CPU_SHADOW, ex->spheres, "spheres"};
    hl_storage_buffer_desc cd = {sizeof hl_gpu_cube_indices, HL_STORAGE_USAGE_INDEX, HL_STORAGE_RECOVERY_CPU_SHADOW, hl_gpu_cube_indices, "cube"};
    hl_storage_buffer_desc ad = {20, HL_STORAGE_USAGE_INDIRECT, HL_STORAGE_RECOVERY_REINITIALIZE, NULL, "draw args"};
    hl_storage_buffer_desc vd = {(uint64_t)n * 4, 0, HL_STORAGE_RECOVERY_REINITIALIZE, NULL, "visible"};
    hl_storage_shader_desc sd = {hl_gpu_cube_vs, hl_gpu_cube_fs, "cubes"};
    res = hl_storage_buffer_create(r, &bd, &ex->data);
    if (!res) res = hl_storage_buffer_create(r, &cd, &ex->index);
    if (!res) res = hl_storage_buffer_create(r, &ad, &ex->args);
    if (!res) res = hl_storage_buffer_create(r, &vd, &ex->visible);
    if (!res && !ex->desc.cpu_cull) res = hl_gpu_kernel_create(r, hl_gpu_culling_wgsl, hl_gpu_culling_abi, 4, 64, "cull", &ex->k0);
    if (!res) res = hl_storage_shader_create(r, &sd, &ex->shader);
    return res;
}

void hl_gpu_look_at(float aspect, float fovy, const float eye[3], float out[16]) {
    const float up[3] = {0, 1, 0};
    float f[3] = {-eye[0], -eye[1], -eye[2]};
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
    float n = 1.0f, fa = 300.0f, t = 1.0f / tanf(0.5f * fovy);
    float proj[16] = {t / aspect, 0, 0, 0, 0, t, 0, 0, 0, 0, fa / (n - fa), -1, 0, 0, n * fa / (n - fa), 0};
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) {
            float v = 0;
            for (int k = 0; k < 4; k++) v += proj[k * 4 + r] * view[c * 4 + k];
            out[c * 4 + r] = v;
        }
}

void hl_gpu_frustum_planes(const float m[16], float out[24]) {
    for (int c = 0; c < 4; c++) {
        float r0 = m[c * 4 + 0], r1 = m[c * 4 + 1], r2 = m[c * 4 + 2], r3 = m[c * 4 + 3];
        out[0 + c] = r3 + r0, out[4 + c] = r3 - r0, out[8 + c] = r3 + r1;
        out[12 + c] = r3 - r1, out[16 + c] = r2, out[20 + c] = r3 - r2;
    }
    for (int p = 0; p < 6; p++) {
        float *q = out + p * 4, l = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
        for (int c = 0; c < 4; c++) q[c] /= l;
    }
}

bool hl_gpu_sphere_in_frustum(const float pl[24], const float s[4]) {
    for (int p = 0; p < 6; p++) {
        const float *q = pl + p * 4;
        if (q[0] * s[0] + q[1] * s[1] + q[2] * s[2] + q[3] < -s[3]) return false;
    }
    return true;
}

hl_result hl_gpu_example_frame(hl_gpu_example *ex, uint32_t frame) {
    if (!ex || !ex->r) return ex ? HL_ERR_INVALID_STATE : HL_ERR_VALIDATION; /* setup first */
    if (ex->desc.kind != HL_GPU_EXAMPLE_CULLING) return HL_OK;
    float a = 0.6f + 0.01f * (float)frame, eye[3] = {70.0f * sinf(a), 25.0f, 70.0f * cosf(a)};
    hl_gpu_look_at((float)ex->width / (float)ex->height, 0.9f, eye, ex->view_proj);
    hl_gpu_frustum_planes(ex->view_proj, ex->planes);
    if (!ex->desc.cpu_cull) return HL_OK;
    ex->cpu_count = 0;
    for (uint32_t i = 0; i < ex->desc.count; i++)
        if (hl_gpu_sphere_in_frustum(ex->planes, ex->spheres + (size_t)i * 4)) ex->list[ex->cpu_count++] = i;
    return ex->cpu_count ? hl_storage_buffer_write(ex->r, ex->visible, 0, ex->list, (uint64_t)ex->cpu_count * 4) : HL_OK;
}

void hl_gpu_example_view_proj(const hl_gpu_example *ex, float out[16]) {
    static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    memcpy(out, ex && ex->r && ex->view_proj[15] + ex->view_proj[11] != 0.0f ? ex->view_proj : identity, 16 * sizeof(float));
}

uint32_t hl_gpu_example_count_visible(const hl_gpu_example *ex) {
    if (!ex || ex->desc.kind != HL_GPU_EXAMPLE_CULLING || !ex->spheres) return 0;
    uint32_t n = 0;
    for (uint32_t i = 0; i < ex->desc.count; i++) n += hl_gpu_sphere_in_frustum(ex->planes, ex->spheres + (size_t)i * 4);
    return n;
}

const hl_gpu_particles_sim hl_gpu_particles_default_sim = {1.0f / 60.0f, 2.0f, 3.0f, 0.995f, 0, {0, 0, 0}};

void hl_gpu_particles_step_cpu(const hl_gpu_particles_sim *sim, float b[8]) {
    float p[3] = {b[0], b[1], b[2]};
    float a[3] = {-sim->k * p[0] + sim->w * -p[2], -sim->k * p[1], -sim->k * p[2] + sim->w * p[0]};
    for (int c = 0; c < 3; c++) {
        b[4 + c] = (b[4 + c] + a[c] * sim->dt) * sim->damping;
        b[c] = p[c] + b[4 + c] * sim->dt;
    }
    b[3] = 1.0f;
    b[7] = 0.0f;
}

hl_storage_buffer *hl_gpu_example_buffer(const hl_gpu_example *ex, hl_gpu_example_buffer_kind which) {
    if (!ex) return NULL;
    return which == HL_GPU_EXAMPLE_DATA ? ex->data : which == HL_GPU_EXAMPLE_ARGS ? ex->args
                                                   : which == HL_GPU_EXAMPLE_VISIBLE ? ex->visible : NULL;
}

hl_result hl_gpu_particles_record_step(hl_pipeline_context ctx, hl_compute_kernel *step, hl_compute_kernel *compact,
                                       uint32_t count, hl_pipeline_buffer bodies, hl_pipeline_buffer args,
                                       hl_pipeline_buffer visible) {
    hl_gpu_particles_sim sim = hl_gpu_particles_default_sim;
    sim.count = count;
    hl_pipeline_compute_resource rs[3] = {{0}};
    rs[0].name = "sim";
    rs[0].data = &sim;
    rs[0].data_size = sizeof sim;
    rs[1].name = "bodies";
    rs[1].buffer = bodies;
    hl_pipeline_compute_pass_desc d = {0};
    d.name = "integrate";
    d.kernel = step;
    d.resources = rs;
    d.resource_count = 2;
    d.groups[0] = (count + 255) / 256;
    hl_result res = hl_pipeline_add_compute_pass(ctx, &d);
    if (!res) res = hl_pipeline_add_buffer_clear_pass(ctx, "reset", args, 0, 0);
    if (res) return res;
    memset(rs, 0, sizeof rs);
    rs[0].name = "bodies";
    rs[0].buffer = bodies;
    rs[1].name = "args";
    rs[1].buffer = args;
    rs[2].name = "visible";
    rs[2].buffer = visible;
    d.name = "compact";
    d.kernel = compact;
    d.resource_count = 3;
    return hl_pipeline_add_compute_pass(ctx, &d);
}

static hl_result record_particles(hl_pipeline_context ctx, hl_gpu_example *ex, hl_pipeline_texture out) {
    hl_pipeline_buffer bodies, args, visible;
    hl_result res = hl_pipeline_import_storage_buffer(ctx, ex->data, &bodies);
    if (!res) res = hl_pipeline_import_storage_buffer(ctx, ex->args, &args);
    if (!res) res = hl_pipeline_import_storage_buffer(ctx, ex->visible, &visible);
    if (!res) res = hl_gpu_particles_record_step(ctx, ex->k0, ex->k1, ex->desc.count, bodies, args, visible);
    if (res) return res;
    /* [-6, 6] fits the shorter side; quads 2.5 pixels wide */
    float aspect = (float)ex->width / (float)ex->height;
    float view[4] = {aspect >= 1.0f ? 1.0f / (6.0f * aspect) : 1.0f / 6.0f, aspect >= 1.0f ? 1.0f / 6.0f : aspect / 6.0f,
                     2.5f / (float)ex->width, 2.5f / (float)ex->height};
    hl_pipeline_gpu_draw_pass_desc g = {0};
    g.name = "sprites";
    g.shader = ex->shader;
    g.buffers[0] = (hl_pipeline_storage_binding){"Bodies", bodies, 0, 0};
    g.buffers[1] = (hl_pipeline_storage_binding){"Visible", visible, 0, 0};
    g.buffer_count = 2;
    g.params = view;
    g.params_size = sizeof view;
    g.color[0] = out;
    g.color_count = 1;
    g.clear_color[3] = 1.0f;
    g.blend = HL_PIPELINE_BLEND_ADDITIVE;
    g.indirect = args;
    return hl_pipeline_add_gpu_draw_pass(ctx, &g);
}

static hl_result record_culling(hl_pipeline_context ctx, hl_gpu_example *ex, hl_pipeline_texture out) {
    hl_pipeline_buffer spheres, cube, args = {0}, visible;
    hl_pipeline_texture depth;
    hl_pipeline_texture_desc dd = {HL_PIPELINE_FORMAT_DEPTH24_PLUS, 0, 0, 1.0f, 0, "depth", 1, 0};
    hl_result res = hl_pipeline_import_storage_buffer(ctx, ex->data, &spheres);
    if (!res) res = hl_pipeline_import_storage_buffer(ctx, ex->index, &cube);
    if (!res) res = hl_pipeline_import_storage_buffer(ctx, ex->visible, &visible);
    if (!res) res = hl_pipeline_create_texture(ctx, &dd, &depth);
    if (res) return res;
    if (!ex->desc.cpu_cull) {
        if ((res = hl_pipeline_import_storage_buffer(ctx, ex->args, &args)) ||
            (res = hl_pipeline_add_buffer_clear_pass(ctx, "reset", args, 0, 0)))
            return res;
        hl_pipeline_compute_resource cr[4] = {{0}};
        cr[0].name = "frustum";
        cr[0].data = ex->planes;
        cr[0].data_size = sizeof ex->planes;
        cr[1].name = "spheres";
        cr[1].buffer = spheres;
        cr[2].name = "args";
        cr[2].buffer = args;
        cr[3].name = "visible";
        cr[3].buffer = visible;
        hl_pipeline_compute_pass_desc cd = {0};
        cd.name = "cull";
        cd.kernel = ex->k0;
        cd.resources = cr;
        cd.resource_count = 4;
        uint32_t groups = (ex->desc.count + 63) / 64; /* 65,536 workgroups of 64 per row */
        cd.groups[0] = groups > 65536u ? 65536u : groups;
        cd.groups[1] = (groups + 65535u) / 65536u;
        if ((res = hl_pipeline_add_compute_pass(ctx, &cd))) return res;
    }
    hl_pipeline_gpu_draw_pass_desc g = {0};
    g.name = "cubes";
    g.shader = ex->shader;
    g.buffers[0] = (hl_pipeline_storage_binding){"Spheres", spheres, 0, 0};
    g.buffers[1] = (hl_pipeline_storage_binding){"Visible", visible, 0, 0};
    g.buffer_count = 2;
    g.params = ex->view_proj;
    g.params_size = sizeof ex->view_proj;
    g.color[0] = out;
    g.color_count = 1;
    g.clear_color[0] = 0.02f, g.clear_color[1] = 0.02f, g.clear_color[2] = 0.03f, g.clear_color[3] = 1.0f;
    g.depth = depth;
    g.depth_test = g.depth_write = g.cull_back = true;
    g.index_buffer = cube;
    if (ex->desc.cpu_cull) {
        if (!ex->cpu_count) return HL_OK; /* nothing visible: the output keeps its clear */
        g.count = 36;
        g.instance_count = ex->cpu_count;
    } else {
        g.indirect = args;
    }
    return hl_pipeline_add_gpu_draw_pass(ctx, &g);
}

/* depth prepass -> tile light culling -> the scene lit from each tile's list (or every light) */
static hl_result record_forward_plus(hl_pipeline_context ctx, hl_gpu_example *ex) {
    hl_pipeline_buffer lights, tiles = {0};
    hl_result res = hl_pipeline_import_storage_buffer(ctx, ex->data, &lights);
    hl_pipeline_culling main_c;
    if (!res) res = hl_pipeline_cull(ctx, NULL, &main_c);
    if (res) return res;
    if (!ex->desc.brute_force) {
        hl_pipeline_cull_desc cd = {0};
        cd.color_count = 1;
        cd.color_formats[0] = HL_PIPELINE_FORMAT_RGBA16F;
        hl_pipeline_culling pc;
        hl_pipeline_renderer_list pl;
        hl_pipeline_texture view_depth, depth;
        hl_pipeline_texture_desc td = {HL_PIPELINE_FORMAT_RGBA16F, ex->width, ex->height, 0, 0, "view depth", 1, 0};
        hl_pipeline_texture_desc dd = {HL_PIPELINE_FORMAT_DEPTH24_PLUS, ex->width, ex->height, 0, 0, "prepass depth", 1, 0};
        if ((res = hl_pipeline_cull(ctx, &cd, &pc))) return res;
        hl_pipeline_renderer_list_desc ld = {0};
        ld.culling = pc;
        ld.queue = HL_PIPELINE_QUEUE_ALL;
        ld.override_material = ex->depth_mat;
        if ((res = hl_pipeline_create_renderer_list(ctx, &ld, &pl)) ||
            (res = hl_pipeline_create_texture(ctx, &td, &view_depth)) || (res = hl_pipeline_create_texture(ctx, &dd, &depth)))
            return res;
        hl_pipeline_scene_pass_desc pd = {0};
        pd.name = "depth prepass";
        pd.list = pl;
        pd.color[0] = view_depth;
        pd.depth = depth;
        if ((res = hl_pipeline_add_scene_pass(ctx, &pd))) return res;
        hl_stage *stage;
        hl_camera *cam;
        if ((res = hl_pipeline_context_scene(ctx, &stage, &cam))) return res;
        struct {
            float view_proj[16];
            uint32_t size[4];
        } params;
        memcpy(params.view_proj, hl_camera_view_projection(cam), sizeof params.view_proj);
        params.size[0] = ex->width, params.size[1] = ex->height;
        params.size[2] = (ex->width + FP_TILE - 1) / FP_TILE, params.size[3] = (ex->height + FP_TILE - 1) / FP_TILE;
        if ((res = hl_pipeline_import_storage_buffer(ctx, ex->visible, &tiles))) return res;
        hl_pipeline_compute_resource cr[4] = {{0}};
        cr[0].name = "params";
        cr[0].data = &params;
        cr[0].data_size = sizeof params;
        cr[1].name = "depth";
        cr[1].texture = view_depth;
        cr[2].name = "lights";
        cr[2].buffer = lights;
        cr[3].name = "tiles";
        cr[3].buffer = tiles;
        cr[3].overwrite = true;
        hl_pipeline_compute_pass_desc kd = {0};
        kd.name = "light culling";
        kd.kernel = ex->k0;
        kd.resources = cr;
        kd.resource_count = 4;
        kd.groups[0] = (params.size[2] + 7) / 8;
        kd.groups[1] = (params.size[3] + 7) / 8;
        if ((res = hl_pipeline_add_compute_pass(ctx, &kd))) return res;
    }
    hl_pipeline_renderer_list_desc ld = {0};
    ld.culling = main_c;
    ld.queue = HL_PIPELINE_QUEUE_ALL;
    ld.override_material = ex->lit_mat;
    hl_pipeline_renderer_list l;
    if ((res = hl_pipeline_create_renderer_list(ctx, &ld, &l))) return res;
    hl_pipeline_scene_pass_desc pd = {0};
    pd.name = ex->desc.brute_force ? "every light" : "forward+";
    pd.list = l;
    pd.storage[0] = (hl_pipeline_storage_binding){"Lights", lights, 0, 0};
    pd.storage[1] = (hl_pipeline_storage_binding){"Tiles", tiles, 0, 0};
    pd.storage_count = ex->desc.brute_force ? 1 : 2;
    return hl_pipeline_add_scene_pass(ctx, &pd);
}

static hl_result runtime_record(hl_pipeline_context ctx, void *state) {
    hl_gpu_example *ex = state;
    if (ex->desc.kind == HL_GPU_EXAMPLE_FORWARD_PLUS) return record_forward_plus(ctx, ex);
    hl_pipeline_texture out;
    hl_result res = hl_pipeline_output_texture(ctx, 0, &out);
    if (res) return res;
    return ex->desc.kind == HL_GPU_EXAMPLE_PARTICLES ? record_particles(ctx, ex, out) : record_culling(ctx, ex, out);
}

static hl_material *shader_material(const char *vs, const char *fs, bool normal, const char *label) {
    hl_material_attribute attrs[2] = {{"a_position", HL_ATTR_POSITION}, {"a_normal", HL_ATTR_NORMAL}};
    hl_shader_material_desc sd = {0};
    sd.vs = vs;
    sd.fs = fs;
    sd.attributes = attrs;
    sd.attribute_count = normal ? 2 : 1;
    sd.label = label;
    hl_material *m = NULL;
    return hl_material_create_shader(&sd, &m) ? NULL : m;
}

/* forward-plus: a 30 x 30 floor (y = 0) and 9 boxes seen from above and behind */
static hl_result fplus_scene(hl_gpu_example *ex, hl_stage *stage) {
    char fs[4096];
    snprintf(fs, sizeof fs, "%s%s", k_lit_fs_head, ex->desc.brute_force ? k_brute_fs_body : k_tiled_fs_body);
    ex->depth_mat = shader_material(k_depth_vs, k_depth_fs, false, "view depth");
    ex->lit_mat = shader_material(k_lit_vs, fs, true, ex->desc.brute_force ? "every light" : "forward+");
    hl_basic_material_desc bd = {0};
    bd.color = (hl_color){1, 1, 1, 1};
    hl_material *plain = NULL;
    hl_geometry *floor_g = NULL, *box_g = NULL;
    hl_plane_desc fd = {30.0f, 30.0f, 1, 1};
    hl_box_desc xd = {1.5f, 2.0f, 1.5f};
    hl_result res = !ex->depth_mat || !ex->lit_mat ? HL_ERR_VALIDATION : hl_material_create_basic(&bd, &plain);
    if (!res) res = hl_geometry_create_plane(&fd, &floor_g);
    if (!res) res = hl_geometry_create_box(&xd, &box_g);
    for (int i = -1; !res && i < 9; i++) {
        hl_mesh_desc md = {0};
        md.geometry = i < 0 ? floor_g : box_g;
        md.material = plain;
        hl_mesh *m = NULL;
        if ((res = hl_mesh_create(&md, &m))) break;
        if (i < 0) hl_node_set_rotation(hl_mesh_node(m), (hl_quat){-0.70710678f, 0, 0, 0.70710678f}); /* +Z -> +Y */
        else hl_node_set_translation(hl_mesh_node(m), (hl_vec3){-8.0f + 2.0f * (float)i, 1.0f, -2.0f + (float)(i % 3)});
        res = hl_stage_add(stage, hl_mesh_node(m));
    }
    hl_geometry_release(floor_g);
    hl_geometry_release(box_g);
    hl_material_release(plain);
    return res;
}

hl_result hl_gpu_example_scene(hl_gpu_example *ex, hl_stage **stage, hl_camera **camera) {
    if (!ex || !stage || !camera || !ex->r) return ex && !ex->r ? HL_ERR_INVALID_STATE : HL_ERR_VALIDATION;
    if (!ex->stage) {
        hl_result res = hl_stage_create(&ex->stage);
        if (res) return res;
        hl_stage_set_clear_color(ex->stage, (hl_color){0, 0, 0, 1});
        hl_camera_desc cd = {0};
        cd.projection = HL_PROJECTION_PERSPECTIVE;
        cd.fov_y_deg = 60.0f;
        cd.aspect = (float)ex->width / (float)ex->height;
        cd.near_plane = 0.5f;
        cd.far_plane = 100.0f;
        if ((res = hl_camera_create(&cd, &ex->camera))) return res;
        hl_node_set_translation(hl_camera_node(ex->camera), (hl_vec3){0, 12, 16});
        hl_node_look_at(hl_camera_node(ex->camera), (hl_vec3){0, 0, 0}, (hl_vec3){0, 1, 0});
        if ((res = hl_stage_add(ex->stage, hl_camera_node(ex->camera)))) return res;
        if (ex->desc.kind == HL_GPU_EXAMPLE_FORWARD_PLUS && (res = fplus_scene(ex, ex->stage))) return res;
    }
    *stage = ex->stage;
    *camera = ex->camera;
    return HL_OK;
}

void hl_gpu_example_destroy(hl_gpu_example *ex) {
    if (!ex) return;
    hl_stage_destroy(ex->stage);
    hl_material_release(ex->depth_mat);
    hl_material_release(ex->lit_mat);
    free(ex->spheres);
    free(ex->list);
    free(ex);
}
