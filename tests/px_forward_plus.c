/* Forward+ light culling (issue 9 §4.3) through the public API, on one backend per run.
 *
 * webgpu: a floor and a row of boxes lit by 256 point lights (finite radius: attenuation
 * (1 - d / r)^2, zero beyond). Each frame: (1) a depth prepass into an RGBA16F texture (the
 * view depth 1 / gl_FragCoord.w, through an override material) with its depth buffer; (2) a
 * compute pass tiles the image (16x16 pixels), reads each tile's depth range from that texture
 * and keeps the lights whose bounding box, projected, overlaps the tile on screen and in depth
 * (conservative); (3) the scene pass draws the meshes with a storage material that loops over
 * its tile's list, read from group-3 storage (`Lights`, `Tiles`). The reference: the same
 * meshes drawn with a material that loops over all 256 lights. Checked at 128x96 and 72x120:
 * every pixel within 2/255 per channel of the reference (the same lights summed in another
 * order), the image lit (not the clear colour) over most of the frame, and the tiles keep far
 * fewer lights than 256 on average (read back). gles3: the pipeline cannot be made (it
 * requires compute). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hilo3d/compute.h"
#include "hilo3d/renderer.h"
#include "hilo3d/scene.h"
#include "hl_test.h"
#include "hl_test_render.h"

enum { LIGHTS = 256, TILE = 16, MAX_PER_TILE = 255 };

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
/* %s: the loop header (the tile's list, or every light) */
static const char *k_lit_fs_head = "#version 310 es\n"
                                   "precision highp float;\n"
                                   "struct Light { vec4 p; vec4 c; };\n"
                                   "layout(std430) readonly buffer Lights { uvec4 header; Light lights[]; };\n";
static const char *k_tiled_fs_body =
    "layout(std430) readonly buffer Tiles { uvec4 grid; uint lists[]; };\n" /* grid.x: tiles per row */
    "in vec3 v_pos;\n"
    "in vec3 v_normal;\n"
    "layout(location = 0) out vec4 o_color;\n"
    "vec3 shade(Light l, vec3 n) {\n"
    "    vec3 d = l.p.xyz - v_pos;\n"
    "    float dist = length(d);\n"
    "    float a = max(1.0 - dist / l.p.w, 0.0);\n"
    "    return l.c.rgb * a * a * max(dot(n, d / max(dist, 1e-4)), 0.0);\n"
    "}\n"
    "void main() {\n"
    "    vec3 n = normalize(v_normal);\n"
    "    uvec2 t = uvec2(gl_FragCoord.xy) / 16u;\n"
    "    uint base = (t.y * grid.x + t.x) * 256u;\n"
    "    vec3 c = vec3(0.02);\n"
    "    uint count = lists[base];\n"
    "    for (uint i = 0u; i < count; i++) c += shade(lights[lists[base + 1u + i]], n);\n"
    "    o_color = vec4(c, 1.0);\n"
    "}\n";
static const char *k_brute_fs_body = "in vec3 v_pos;\n"
                                     "in vec3 v_normal;\n"
                                     "layout(location = 0) out vec4 o_color;\n"
                                     "vec3 shade(Light l, vec3 n) {\n"
                                     "    vec3 d = l.p.xyz - v_pos;\n"
                                     "    float dist = length(d);\n"
                                     "    float a = max(1.0 - dist / l.p.w, 0.0);\n"
                                     "    return l.c.rgb * a * a * max(dot(n, d / max(dist, 1e-4)), 0.0);\n"
                                     "}\n"
                                     "void main() {\n"
                                     "    vec3 n = normalize(v_normal);\n"
                                     "    vec3 c = vec3(0.02);\n"
                                     "    for (uint i = 0u; i < header.x; i++) c += shade(lights[i], n);\n"
                                     "    o_color = vec4(c, 1.0);\n"
                                     "}\n";

/* One thread per tile: the tile's depth range, then every light's projected box against it. */
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
    "        if (keep && count < 255u) { tiles[base + 1u + count] = i; count = count + 1u; }\n"
    "    }\n"
    "    tiles[base] = count;\n"
    "}\n";
static const hl_compute_binding k_cull_abi[] = {
    {"params", 0, 0, HL_COMPUTE_UNIFORM_BUFFER, 80},
    {"depth", 0, 1, HL_COMPUTE_SAMPLED_TEXTURE_2D, 0},
    {"lights", 0, 2, HL_COMPUTE_STORAGE_READ, 48},
    {"tiles", 0, 3, HL_COMPUTE_STORAGE_READ_WRITE, 4},
};

typedef struct st {
    bool tiled;
    hl_material *depth_mat, *lit_mat;
    hl_compute_kernel *cull;
    hl_storage_buffer *lights, *tiles;
    uint32_t w, h;
} st;

static hl_result record(hl_pipeline_context ctx, void *state) {
    st *s = state;
    hl_pipeline_buffer lights, tiles = {0};
    hl_result res = hl_pipeline_import_storage_buffer(ctx, s->lights, &lights);
    if (res) return res;
    hl_pipeline_culling main_c;
    if ((res = hl_pipeline_cull(ctx, NULL, &main_c))) return res;
    if (s->tiled) {
        /* (1) depth prepass */
        hl_pipeline_cull_desc cd = {0};
        cd.color_count = 1;
        cd.color_formats[0] = HL_PIPELINE_FORMAT_RGBA16F;
        hl_pipeline_culling pc;
        if ((res = hl_pipeline_cull(ctx, &cd, &pc))) return res;
        hl_pipeline_renderer_list_desc ld = {0};
        ld.culling = pc;
        ld.queue = HL_PIPELINE_QUEUE_ALL;
        ld.override_material = s->depth_mat;
        hl_pipeline_renderer_list pl;
        hl_pipeline_texture depth_color, depth;
        hl_pipeline_texture_desc td = {HL_PIPELINE_FORMAT_RGBA16F, s->w, s->h, 0, 0, "view depth", 1, 0};
        hl_pipeline_texture_desc dd = {HL_PIPELINE_FORMAT_DEPTH24_PLUS, s->w, s->h, 0, 0, "prepass depth", 1, 0};
        if ((res = hl_pipeline_create_renderer_list(ctx, &ld, &pl)) ||
            (res = hl_pipeline_create_texture(ctx, &td, &depth_color)) ||
            (res = hl_pipeline_create_texture(ctx, &dd, &depth)))
            return res;
        hl_pipeline_scene_pass_desc pd = {0};
        pd.name = "depth prepass";
        pd.list = pl;
        pd.color[0] = depth_color;
        pd.depth = depth;
        if ((res = hl_pipeline_add_scene_pass(ctx, &pd))) return res;
        /* (2) tile culling */
        hl_stage *stage;
        hl_camera *cam;
        if ((res = hl_pipeline_context_scene(ctx, &stage, &cam))) return res;
        struct {
            float view_proj[16];
            uint32_t size[4];
        } params;
        memcpy(params.view_proj, hl_camera_view_projection(cam), sizeof params.view_proj);
        params.size[0] = s->w, params.size[1] = s->h;
        params.size[2] = (s->w + TILE - 1) / TILE, params.size[3] = (s->h + TILE - 1) / TILE;
        if ((res = hl_pipeline_import_storage_buffer(ctx, s->tiles, &tiles))) return res;
        hl_pipeline_compute_resource cr[4] = {{0}};
        cr[0].name = "params";
        cr[0].data = &params;
        cr[0].data_size = sizeof params;
        cr[1].name = "depth";
        cr[1].texture = depth_color;
        cr[2].name = "lights";
        cr[2].buffer = lights;
        cr[3].name = "tiles";
        cr[3].buffer = tiles;
        cr[3].overwrite = true;
        hl_pipeline_compute_pass_desc kd = {0};
        kd.name = "light culling";
        kd.kernel = s->cull;
        kd.resources = cr;
        kd.resource_count = 4;
        kd.groups[0] = (params.size[2] + 7) / 8;
        kd.groups[1] = (params.size[3] + 7) / 8;
        if ((res = hl_pipeline_add_compute_pass(ctx, &kd))) return res;
    }
    /* (3) the lit scene */
    hl_pipeline_renderer_list_desc ld = {0};
    ld.culling = main_c;
    ld.queue = HL_PIPELINE_QUEUE_ALL;
    ld.override_material = s->lit_mat;
    hl_pipeline_renderer_list l;
    if ((res = hl_pipeline_create_renderer_list(ctx, &ld, &l))) return res;
    hl_pipeline_scene_pass_desc pd = {0};
    pd.name = s->tiled ? "forward+" : "brute force";
    pd.list = l;
    pd.storage[0] = (hl_pipeline_storage_binding){"Lights", lights, 0, 0};
    pd.storage[1] = (hl_pipeline_storage_binding){"Tiles", tiles, 0, 0};
    pd.storage_count = s->tiled ? 2 : 1;
    return hl_pipeline_add_scene_pass(ctx, &pd);
}

static hl_material *shader(const char *vs, const char *fs, bool normal, const char *label) {
    hl_material_attribute attrs[2] = {{"a_position", HL_ATTR_POSITION}, {"a_normal", HL_ATTR_NORMAL}};
    hl_shader_material_desc sd = {0};
    sd.vs = vs;
    sd.fs = fs;
    sd.attributes = attrs;
    sd.attribute_count = normal ? 2 : 1;
    sd.label = label;
    hl_material *m = NULL;
    HL_CHECK_OK(hl_material_create_shader(&sd, &m));
    return m;
}

static void run(uint32_t w, uint32_t h, const float *lights) {
    static char tiled_fs[4096], brute_fs[4096];
    snprintf(tiled_fs, sizeof tiled_fs, "%s%s", k_lit_fs_head, k_tiled_fs_body);
    snprintf(brute_fs, sizeof brute_fs, "%s%s", k_lit_fs_head, k_brute_fs_body);
    st a = {true, NULL, NULL, NULL, NULL, NULL, w, h}, b = {false, NULL, NULL, NULL, NULL, NULL, w, h};
    hl_test_runtime ra = {"forward+", record, &a}, rb = {"brute force", record, &b};
    hl_pipeline_factory fa, fb;
    hl_test_runtime_factory(&ra, &fa);
    hl_test_runtime_factory(&rb, &fb);
    hl_renderer *r1 = make_renderer_with(w, h, 1, &fa), *r2 = make_renderer_with(w, h, 1, &fb);
    a.depth_mat = shader(k_depth_vs, k_depth_fs, false, "view depth");
    a.lit_mat = shader(k_lit_vs, tiled_fs, true, "forward+");
    b.lit_mat = shader(k_lit_vs, brute_fs, true, "all lights");
    /* the scene: a 30 x 30 floor (y = 0) and 9 boxes, seen from above and behind */
    hl_stage *stage = NULL;
    HL_CHECK_OK(hl_stage_create(&stage));
    hl_stage_set_clear_color(stage, (hl_color){0, 0, 0, 1});
    hl_plane_desc fd = {30.0f, 30.0f, 1, 1};
    hl_box_desc bd = {1.5f, 2.0f, 1.5f};
    hl_geometry *floor_g = NULL, *box_g = NULL;
    HL_CHECK_OK(hl_geometry_create_plane(&fd, &floor_g));
    HL_CHECK_OK(hl_geometry_create_box(&bd, &box_g));
    hl_material *plain = basic(1, 1, 1, 1);
    hl_mesh *floor_m = add_mesh(stage, floor_g, plain, (hl_vec3){0, 0, 0});
    if (floor_m) hl_node_set_rotation(hl_mesh_node(floor_m), (hl_quat){-0.70710678f, 0, 0, 0.70710678f}); /* +Z -> +Y */
    for (int i = 0; i < 9; i++) add_mesh(stage, box_g, plain, (hl_vec3){-8.0f + 2.0f * (float)i, 1.0f, -2.0f + (float)(i % 3)});
    hl_camera_desc camd = {0};
    camd.projection = HL_PROJECTION_PERSPECTIVE;
    camd.fov_y_deg = 60.0f;
    camd.aspect = (float)w / (float)h;
    camd.near_plane = 0.5f;
    camd.far_plane = 100.0f;
    hl_camera *cam = NULL;
    HL_CHECK_OK(hl_camera_create(&camd, &cam));
    hl_node_set_translation(hl_camera_node(cam), (hl_vec3){0, 12, 16});
    hl_node_look_at(hl_camera_node(cam), (hl_vec3){0, 0, 0}, (hl_vec3){0, 1, 0});
    HL_CHECK_OK(hl_stage_add(stage, hl_camera_node(cam)));
    uint8_t *ia = malloc((size_t)w * h * 4), *ib = malloc((size_t)w * h * 4);
    if (!r1 || !r2 || !a.depth_mat || !a.lit_mat || !b.lit_mat || !ia || !ib) goto out;
    {
        hl_compute_shader_desc cd = {0};
        cd.wgsl = k_cull;
        cd.workgroup_size[0] = 8;
        cd.workgroup_size[1] = 8;
        cd.bindings = k_cull_abi;
        cd.binding_count = 4;
        hl_compute_shader *cs = NULL;
        hl_result cr = hl_compute_shader_create(r1, &cd, &cs);
        HL_CHECK_MSG(cr == HL_OK, "%s", hl_last_error());
        hl_compute_kernel_desc kd = {cs, NULL, 0, "light culling"};
        if (cs) HL_CHECK_OK(hl_compute_kernel_create(r1, &kd, &a.cull));
    }
    uint64_t lbytes = 16 + (uint64_t)LIGHTS * 32;
    hl_storage_buffer_desc ld = {lbytes, 0, HL_STORAGE_RECOVERY_CPU_SHADOW, lights, "lights"};
    HL_CHECK_OK(hl_storage_buffer_create(r1, &ld, &a.lights));
    HL_CHECK_OK(hl_storage_buffer_create(r2, &ld, &b.lights));
    uint32_t tiles = ((w + TILE - 1) / TILE) * ((h + TILE - 1) / TILE);
    hl_storage_buffer_desc tdsc = {16 + (uint64_t)tiles * 256 * 4, 0, HL_STORAGE_RECOVERY_REINITIALIZE, NULL, "tiles"};
    HL_CHECK_OK(hl_storage_buffer_create(r1, &tdsc, &a.tiles));
    if (!a.cull || !a.lights || !b.lights || !a.tiles) goto out;
    hl_result res = hl_renderer_render(r1, stage, cam);
    HL_CHECK_MSG(res == HL_OK, "forward+: %s", hl_last_error());
    res = hl_renderer_render(r2, stage, cam);
    HL_CHECK_MSG(res == HL_OK, "brute force: %s", hl_last_error());
    HL_CHECK_OK(hl_renderer_read_pixels(r1, ia, (size_t)w * h * 4));
    HL_CHECK_OK(hl_renderer_read_pixels(r2, ib, (size_t)w * h * 4));
    int worst = 0;
    uint32_t lit = 0, at = 0;
    for (size_t i = 0; i < (size_t)w * h * 4; i++)
        if (abs(ia[i] - ib[i]) > worst) worst = abs(ia[i] - ib[i]), at = (uint32_t)i;
    for (size_t i = 0; i < (size_t)w * h; i++) lit += ib[i * 4] > 40 || ib[i * 4 + 1] > 40 || ib[i * 4 + 2] > 40;
    HL_CHECK_MSG(worst <= 2, "%ux%u: forward+ differs from brute force by %d/255 at (%u, %u)", w, h, worst, at / 4 % w,
                 at / 4 / w);
    HL_CHECK_MSG(lit > w * h / 3, "%ux%u: %u pixels lit", w, h, lit);
    /* the lists: far fewer than all lights per tile */
    uint32_t *t = malloc(tdsc.size);
    if (t) {
        HL_CHECK_OK(hl_storage_buffer_read(r1, a.tiles, 0, tdsc.size));
        HL_CHECK_OK(hl_storage_buffer_read_wait(r1, t, tdsc.size, 0));
        uint64_t sum = 0;
        uint32_t most = 0;
        for (uint32_t i = 0; i < tiles; i++) {
            uint32_t c = t[4 + i * 256];
            sum += c;
            most = c > most ? c : most;
        }
        HL_CHECK_EQ(t[0], (w + TILE - 1) / TILE);
        HL_CHECK_MSG(sum < (uint64_t)tiles * LIGHTS / 4 && most < MAX_PER_TILE,
                     "%ux%u: %.1f lights per tile on average, %u at most", w, h, (double)sum / tiles, most);
        if (getenv("HL_VERBOSE"))
            fprintf(stderr, "%ux%u: %u tiles, %.1f lights per tile on average, %u at most, worst %d/255, %u lit\n", w, h,
                    tiles, (double)sum / tiles, most, worst, lit);
        free(t);
    }
out:
    free(ia);
    free(ib);
    hl_stage_destroy(stage);
    hl_geometry_release(floor_g);
    hl_geometry_release(box_g);
    hl_material_release(plain);
    hl_material_release(a.depth_mat);
    hl_material_release(a.lit_mat);
    hl_material_release(b.lit_mat);
    hl_renderer_destroy(r1);
    hl_renderer_destroy(r2);
}

int main(int argc, char **argv) {
    if (backend_of(argc, argv) == HL_BACKEND_GLES3) {
        /* the pipeline cannot run there: the compute kernel and storage are refused first */
        hl_renderer *r = make_renderer(16, 16, 1);
        if (r) {
            hl_compute_shader *cs = NULL;
            hl_compute_shader_desc cd = {0};
            cd.wgsl = k_cull;
            cd.bindings = k_cull_abi;
            cd.binding_count = 4;
            HL_CHECK_RESULT(hl_compute_shader_create(r, &cd, &cs), HL_ERR_UNSUPPORTED);
            hl_renderer_destroy(r);
        }
        return hl_test_finish();
    }
    /* 256 lights above the floor: positions in [-14, 14] x [0.3, 2.5] x [-14, 14], radius 1.5..4 */
    float *lights = calloc(4 + LIGHTS * 8, sizeof(float));
    if (!lights) return 1;
    uint32_t n = LIGHTS;
    memcpy(lights, &n, 4);
    uint32_t seed = 4242;
    for (uint32_t i = 0; i < LIGHTS; i++) {
        float *l = lights + 4 + i * 8;
        float u[8];
        for (int k = 0; k < 8; k++) {
            seed = seed * 1664525u + 1013904223u;
            u[k] = (float)(seed >> 8) / 16777216.0f;
        }
        l[0] = -14.0f + 28.0f * u[0], l[1] = 0.3f + 2.2f * u[1], l[2] = -14.0f + 28.0f * u[2], l[3] = 1.5f + 2.5f * u[3];
        l[4] = 0.2f + 0.6f * u[4], l[5] = 0.2f + 0.6f * u[5], l[6] = 0.2f + 0.6f * u[6], l[7] = 1.0f;
    }
    run(128, 96, lights);
    run(72, 120, lights);
    free(lights);
    return hl_test_finish();
}
