/* compute-particles: particles moved by a compute kernel and drawn straight from GPU memory.
 *
 * A storage buffer holds 4096 particles (position, velocity). Each frame a pipeline of our own
 * runs a WGSL compute pass that moves every particle (a spring pulling it to the centre, a
 * swirl around the Y axis), then a GPU-driven draw of one small quad per particle, its vertex
 * shader reading the particles from the same buffer. After 30 frames the program reads the
 * buffer back, checks it against the same steps computed on the CPU and counts lit pixels.
 *
 * Compute is webgpu only: the pipeline asks for it, so the renderer refuses gles3 (or an AUTO
 * pick without webgpu) with HL_ERR_UNSUPPORTED, which the program prints before exiting with 3.
 *
 *     compute-particles [auto|webgpu|gles3]      (default auto)
 *
 * Exit code 0 when the results are right, 1 when not, 3 when the device has no compute.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "hilo3d/compute.h"
#include "hilo3d/pipeline.h"
#include "hilo3d/renderer.h"
#include "hilo3d/scene.h"

enum { N = 4096, FRAMES = 30, W = 128, H = 128 };

typedef struct sim_params { float dt, spring, swirl, pad; } sim_params; /* WGSL's Sim (std140-like) */
static const sim_params k_sim = {1.0f / 60.0f, 2.0f, 3.0f, 0.0f};

static const char *k_step_wgsl =
    "struct Body { p: vec4<f32>, v: vec4<f32>, }\n"
    "struct Sim { dt: f32, spring: f32, swirl: f32, pad: f32, }\n"
    "@group(0) @binding(0) var<uniform> sim: Sim;\n"
    "@group(0) @binding(1) var<storage, read_write> bodies: array<Body>;\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(global_invocation_id) id: vec3<u32>) {\n"
    "    if (id.x >= arrayLength(&bodies)) { return; }\n"
    "    var b = bodies[id.x];\n"
    "    let a = -sim.spring * b.p.xyz + sim.swirl * vec3<f32>(-b.p.z, 0.0, b.p.x);\n"
    "    b.v = vec4<f32>(b.v.xyz + a * sim.dt, 0.0);\n"
    "    b.p = vec4<f32>(b.p.xyz + b.v.xyz * sim.dt, 1.0);\n"
    "    bodies[id.x] = b;\n"
    "}\n";
/* The kernel's binding ABI: every resource the WGSL declares (checked against the source). */
static const hl_compute_binding k_step_abi[2] = {
    {"sim", 0, 0, HL_COMPUTE_UNIFORM_BUFFER, sizeof(sim_params)},
    {"bodies", 0, 1, HL_COMPUTE_STORAGE_READ_WRITE, 32},
};

/* The draw: GLSL ES 3.10 reading the same buffer (read-only), 6 vertices per particle seen from
 * above (x, z), one colour added per quad. */
static const char *k_sprite_vs = "#version 310 es\n"
                                 "struct Body { vec4 p; vec4 v; };\n"
                                 "layout(std430) readonly buffer Bodies { Body bodies[]; };\n"
                                 "const vec2 k_corner[6] = vec2[6](vec2(-1, -1), vec2(1, -1), vec2(-1, 1),\n"
                                 "                                 vec2(-1, 1), vec2(1, -1), vec2(1, 1));\n"
                                 "void main() {\n"
                                 "    vec2 p = bodies[gl_InstanceID].p.xz * 0.3 + k_corner[gl_VertexID] * 0.012;\n"
                                 "    gl_Position = vec4(p, 0.0, 1.0);\n"
                                 "}\n";
static const char *k_sprite_fs = "#version 310 es\n"
                                 "precision highp float;\n"
                                 "out vec4 o_color;\n"
                                 "void main() { o_color = vec4(0.05, 0.15, 0.3, 1.0); }\n";

typedef struct particles {
    hl_compute_kernel *step;
    hl_storage_shader *sprites;
    hl_storage_buffer *bodies;
} particles;

/* Each render call: import the buffer into the frame, step, draw. The graph orders the two
 * passes by what they access (the draw reads what the compute pass wrote). */
static hl_result record(hl_pipeline_context ctx, void *user) {
    particles *p = user;
    hl_pipeline_buffer bodies;
    hl_pipeline_texture out;
    hl_result r = hl_pipeline_import_storage_buffer(ctx, p->bodies, &bodies);
    if (r == HL_OK) r = hl_pipeline_output_texture(ctx, 0, &out);
    hl_pipeline_compute_resource res[2] = {{0}};
    res[0].name = "sim", res[0].data = &k_sim, res[0].data_size = sizeof k_sim;
    res[1].name = "bodies", res[1].buffer = bodies;
    hl_pipeline_compute_pass_desc cp = {0};
    cp.name = "step";
    cp.kernel = p->step;
    cp.resources = res;
    cp.resource_count = 2;
    cp.groups[0] = N / 64;
    if (r == HL_OK) r = hl_pipeline_add_compute_pass(ctx, &cp);
    hl_pipeline_gpu_draw_pass_desc dp = {0};
    dp.name = "sprites";
    dp.shader = p->sprites;
    dp.buffers[0] = (hl_pipeline_storage_binding){"Bodies", bodies, 0, 0};
    dp.buffer_count = 1;
    dp.color[0] = out;
    dp.color_count = 1;
    dp.clear_color[3] = 1.0f; /* opaque black */
    dp.blend = HL_PIPELINE_BLEND_ADDITIVE;
    dp.count = 6;
    dp.instance_count = N;
    if (r == HL_OK) r = hl_pipeline_add_gpu_draw_pass(ctx, &dp);
    return r;
}

static hl_result create(const hl_pipeline_caps *caps, void *user, hl_pipeline_runtime **out) {
    (void)caps;
    hl_pipeline_runtime_desc d = {"particles", user, record, NULL};
    return hl_pipeline_runtime_create(&d, out);
}

static void step_cpu(float *b) { /* the kernel's arithmetic for one particle (8 floats) */
    float a[3] = {-k_sim.spring * b[0] - k_sim.swirl * b[2], -k_sim.spring * b[1],
                  -k_sim.spring * b[2] + k_sim.swirl * b[0]};
    for (int c = 0; c < 3; c++) b[4 + c] += a[c] * k_sim.dt;
    for (int c = 0; c < 3; c++) b[c] += b[4 + c] * k_sim.dt;
}

int main(int argc, char **argv) {
    /* The pipeline needs compute and storage buffers: gles3 cannot meet that. */
    hl_pipeline_requirements needs = {0};
    needs.capabilities = HL_PIPELINE_CAP_COMPUTE | HL_PIPELINE_CAP_STORAGE_BUFFERS;
    particles p = {0};
    hl_pipeline_factory factory = {"particles", &needs, create, &p};
    hl_renderer_desc rd = {0};
    if (argc > 1 && hl_backend_parse(argv[1], &rd.backend) != HL_OK) {
        fprintf(stderr, "usage: compute-particles [auto|webgpu|gles3]\n");
        return 2;
    }
    rd.width = W, rd.height = H, rd.sample_count = 1, rd.pipeline = &factory;
    hl_renderer *r;
    hl_result res = hl_renderer_create(&rd, &r);
    if (res == HL_ERR_UNSUPPORTED) {
        printf("compute-particles: not on this device: %s\n", hl_last_error());
        return 3;
    }
    if (res != HL_OK) return fprintf(stderr, "compute-particles: %s\n", hl_last_error()), 1;

    /* Particles on a ring, moving around it, with a little height. Kept for the CPU check. */
    static float cpu[N * 8];
    for (int i = 0; i < N; i++) {
        float t = 6.2831853f * (float)i / N, rad = 1.0f + 1.5f * (float)(i % 7) / 7.0f, *b = cpu + i * 8;
        b[0] = rad * cosf(t), b[1] = 0.2f * sinf(5.0f * t), b[2] = rad * sinf(t), b[3] = 1.0f;
        b[4] = -sinf(t), b[5] = 0.0f, b[6] = cosf(t), b[7] = 0.0f;
    }
    hl_storage_buffer_desc bd = {sizeof cpu, 0, HL_STORAGE_RECOVERY_CPU_SHADOW, cpu, "bodies"};
    hl_compute_shader_desc sd = {k_step_wgsl, "main", {64, 1, 1}, k_step_abi, 2, "step"};
    hl_storage_shader_desc ssd = {k_sprite_vs, k_sprite_fs, "sprites"};
    hl_compute_shader *shader = NULL;
    hl_stage *stage = NULL; /* the pipeline draws no scene, but a render call takes a stage and a camera */
    hl_camera *cam = NULL;
    res = hl_storage_buffer_create(r, &bd, &p.bodies);
    if (!res) res = hl_compute_shader_create(r, &sd, &shader); /* the ABI is checked here */
    if (!res) res = hl_compute_kernel_create(r, &(hl_compute_kernel_desc){shader, NULL, 0, "step"}, &p.step);
    hl_compute_shader_destroy(r, shader); /* the kernel keeps what it needs */
    if (!res) res = hl_storage_shader_create(r, &ssd, &p.sprites);
    if (!res) res = hl_stage_create(&stage);
    if (!res) res = hl_camera_create(NULL, &cam);
    for (int f = 0; f < FRAMES && !res; f++) res = hl_renderer_render(r, stage, cam);

    /* Read the particles back: the read runs on the GPU's timeline, the wait copies it out. */
    static float gpu[N * 8];
    if (!res) res = hl_storage_buffer_read(r, p.bodies, 0, sizeof gpu);
    if (!res) res = hl_storage_buffer_read_wait(r, gpu, sizeof gpu, 0);
    static uint8_t img[W * H * 4];
    if (!res) res = hl_renderer_read_pixels(r, img, sizeof img);
    if (res) return fprintf(stderr, "compute-particles: %s\n", hl_last_error()), 1;

    float worst = 0;
    for (int i = 0; i < N; i++) {
        for (int f = 0; f < FRAMES; f++) step_cpu(cpu + i * 8);
        for (int c = 0; c < 8; c++) worst = fmaxf(worst, fabsf(cpu[i * 8 + c] - gpu[i * 8 + c]));
    }
    int lit = 0;
    for (int i = 0; i < W * H; i++) lit += img[i * 4 + 2] > 0;
    int ok = worst < 1e-3f && lit > 1000;
    printf("compute-particles: %d frames, largest GPU/CPU difference %.2g, %d pixels lit: %s\n", FRAMES, (double)worst,
           lit, ok ? "ok" : "wrong");
    hl_node_destroy(hl_camera_node(cam));
    hl_stage_destroy(stage);
    hl_renderer_destroy(r); /* kernels, shaders and storage buffers go with it */
    return ok ? 0 : 1;
}
