/* custom-pipeline: a render pipeline of our own (hilo3d/pipeline.h, the README's "Render
 * pipelines"). A pipeline is a factory that makes a runtime; the runtime's record function is
 * called for every render call and says what the frame does, through a context valid during
 * that call only. Ours:
 *   1. culls the scene for a texture of its own (RGBA8 sRGB + depth) and records the shadows;
 *   2. draws every visible mesh into that texture (one scene pass);
 *   3. writes the renderer's output with a fullscreen pass (a GLSL ES 3.00 fragment shader):
 *      the left half in grey, the right half in colour.
 * The program renders a red sphere and checks the split: left of the middle the sphere is grey,
 * right of it red.
 *
 *     custom-pipeline [auto|webgpu|gles3]      (default auto)
 *
 * Exit code 0 when the image is right, 1 otherwise.
 */
#include <stdio.h>
#include <stdlib.h>

#include "hilo3d/pipeline.h"
#include "hilo3d/renderer.h"
#include "hilo3d/scene.h"

enum { W = 128, H = 96 };

/* v_uv runs from (0, 0) at the top left to (1, 1) at the bottom right on both backends. */
static const char *k_split_fs = "#version 300 es\n"
                                "precision highp float;\n"
                                "in vec2 v_uv;\n"
                                "uniform sampler2D u_scene;\n"
                                "out vec4 o_color;\n"
                                "void main() {\n"
                                "    vec4 c = texture(u_scene, v_uv);\n"
                                "    float grey = dot(c.rgb, vec3(0.2126, 0.7152, 0.0722));\n"
                                "    o_color = v_uv.x < 0.5 ? vec4(vec3(grey), c.a) : c;\n"
                                "}\n";

/* The runtime's own data: here only a count of the frames it recorded. */
typedef struct split_state {
    int frames;
} split_state;

/* One render call. Every hl_pipeline_* call returns an hl_result; the first failure fails the
 * frame and hl_renderer_render returns it. */
static hl_result split_record(hl_pipeline_context ctx, void *user) {
    split_state *st = user;
    /* 1. The culling result: visible meshes and lights, draws prepared for our texture layout. */
    hl_pipeline_cull_desc cd = {0};
    cd.color_count = 1;
    cd.color_formats[0] = HL_PIPELINE_FORMAT_RGBA8_SRGB;
    hl_pipeline_culling culling;
    hl_result r = hl_pipeline_cull(ctx, &cd, &culling);
    if (r == HL_OK) r = hl_pipeline_record_shadows(ctx, culling); /* nothing when no light casts */

    /* 2. Frame textures (pooled by the renderer; size 0 = the output's), one scene pass. */
    hl_pipeline_texture color, depth, out;
    hl_pipeline_texture_desc td = {0};
    td.format = HL_PIPELINE_FORMAT_RGBA8_SRGB;
    td.name = "scene colour";
    if (r == HL_OK) r = hl_pipeline_create_texture(ctx, &td, &color);
    td.format = HL_PIPELINE_FORMAT_DEPTH24_PLUS;
    td.name = "scene depth";
    if (r == HL_OK) r = hl_pipeline_create_texture(ctx, &td, &depth);
    hl_pipeline_renderer_list_desc ld = {0}; /* queue ALL: opaque first, then transparent */
    ld.culling = culling;
    ld.queue = HL_PIPELINE_QUEUE_ALL;
    hl_pipeline_renderer_list list;
    if (r == HL_OK) r = hl_pipeline_create_renderer_list(ctx, &ld, &list);
    hl_pipeline_scene_pass_desc sp = {0}; /* clears colour (to the stage's) and depth first */
    sp.name = "scene";
    sp.list = list;
    sp.color[0] = color;
    sp.depth = depth;
    if (r == HL_OK) r = hl_pipeline_add_scene_pass(ctx, &sp);

    /* 3. The fullscreen pass reads our texture and writes the output's colour. */
    if (r == HL_OK) r = hl_pipeline_output_texture(ctx, 0, &out);
    hl_pipeline_fullscreen_pass_desc fp = {0};
    fp.name = "split grey";
    fp.fragment = k_split_fs;
    fp.input_names[0] = "u_scene";
    fp.inputs[0] = color;
    fp.input_count = 1;
    fp.outputs[0] = out;
    fp.output_count = 1;
    if (r == HL_OK) r = hl_pipeline_add_fullscreen_pass(ctx, &fp);
    if (r == HL_OK) st->frames++;
    return r;
}

/* The factory's create: called once by hl_renderer_create, on the device it chose. */
static hl_result split_create(const hl_pipeline_caps *caps, void *user, hl_pipeline_runtime **out) {
    (void)caps; /* a pipeline with needs would check them here (hl_pipeline_caps_has, ...) */
    hl_pipeline_runtime_desc d = {0};
    d.name = "split-grey";
    d.state = user;
    d.record = split_record;
    return hl_pipeline_runtime_create(&d, out);
}

static int srgb_grey(const uint8_t *p) { return abs(p[0] - p[1]) <= 3 && abs(p[1] - p[2]) <= 3; }

int main(int argc, char **argv) {
    split_state state = {0};
    hl_pipeline_factory factory = {"split-grey", NULL, split_create, &state}; /* no requirements */
    hl_renderer_desc rd = {0};
    if (argc > 1 && hl_backend_parse(argv[1], &rd.backend) != HL_OK) {
        fprintf(stderr, "usage: custom-pipeline [auto|webgpu|gles3]\n");
        return 2;
    }
    rd.width = W;
    rd.height = H;
    rd.pipeline = &factory; /* read during hl_renderer_create only */
    hl_renderer *r;
    if (hl_renderer_create(&rd, &r) != HL_OK) {
        fprintf(stderr, "custom-pipeline: %s\n", hl_last_error());
        return 1;
    }
    printf("custom-pipeline: pipeline '%s' on %s\n", hl_renderer_pipeline_name(r),
           hl_backend_name(hl_renderer_backend(r)));

    /* The scene: a red PBR sphere lit by a light from the camera's side, on dark blue. */
    hl_stage *stage = NULL;
    hl_geometry *g = NULL;
    hl_material *m = NULL;
    hl_mesh *mesh = NULL;
    hl_light *light = NULL, *ambient = NULL;
    hl_camera *cam = NULL;
    hl_pbr_material_desc pd = {0};
    pd.base_color = (hl_color){0.9f, 0.05f, 0.05f, 1};
    pd.roughness = 0.5f;
    hl_light_desc ld = {0};
    ld.kind = HL_LIGHT_DIRECTIONAL;
    ld.intensity = 3.0f;
    hl_light_desc ad = {0};
    ad.intensity = 0.3f; /* kind 0: ambient */
    int ok = hl_stage_create(&stage) == HL_OK && hl_geometry_create_sphere(NULL, &g) == HL_OK &&
             hl_material_create_pbr(&pd, &m) == HL_OK &&
             hl_mesh_create(&(hl_mesh_desc){.geometry = g, .material = m}, &mesh) == HL_OK &&
             hl_stage_add(stage, hl_mesh_node(mesh)) == HL_OK && hl_light_create(&ld, &light) == HL_OK &&
             hl_stage_add(stage, hl_light_node(light)) == HL_OK && hl_light_create(&ad, &ambient) == HL_OK &&
             hl_stage_add(stage, hl_light_node(ambient)) == HL_OK && hl_camera_create(NULL, &cam) == HL_OK &&
             hl_stage_add(stage, hl_camera_node(cam)) == HL_OK;
    hl_geometry_release(g);
    hl_material_release(m);
    if (ok) {
        hl_stage_set_clear_color(stage, (hl_color){0.0f, 0.0f, 0.1f, 1});
        hl_node_look_at(hl_light_node(light), (hl_vec3){-0.3f, -0.5f, -1.0f}, (hl_vec3){0, 1, 0});
        hl_camera_set_aspect(cam, (float)W / (float)H);
        hl_node_set_translation(hl_camera_node(cam), (hl_vec3){0, 0, 2.5f}); /* looks down -Z at the sphere */
        ok = hl_renderer_render(r, stage, cam) == HL_OK;
    }
    static uint8_t img[W * H * 4];
    if (ok) ok = hl_renderer_read_pixels(r, img, sizeof img) == HL_OK;
    if (!ok) fprintf(stderr, "custom-pipeline: %s\n", hl_last_error());

    /* The sphere covers the middle: a pixel left of the middle is grey, one right of it red; the
     * background on the left grey too, on the right the clear colour's blue. */
    if (ok) {
        const uint8_t *left = img + ((size_t)(H / 2) * W + W / 2 - 12) * 4;
        const uint8_t *right = img + ((size_t)(H / 2) * W + W / 2 + 12) * 4;
        const uint8_t *bg_left = img + ((size_t)4 * W + 4) * 4, *bg_right = img + ((size_t)4 * W + W - 5) * 4;
        ok = srgb_grey(left) && left[0] > 20 && right[0] > right[1] + 60 && right[0] > right[2] + 60 &&
             srgb_grey(bg_left) && bg_right[2] > bg_right[0] + 40 && state.frames == 1;
        if (!ok)
            fprintf(stderr, "custom-pipeline: left %d %d %d, right %d %d %d, corners %d %d %d / %d %d %d, frames %d\n",
                    left[0], left[1], left[2], right[0], right[1], right[2], bg_left[0], bg_left[1], bg_left[2],
                    bg_right[0], bg_right[1], bg_right[2], state.frames);
    }
    printf("custom-pipeline: %s\n", ok ? "ok" : "wrong image");
    hl_stage_destroy(stage);
    hl_renderer_destroy(r); /* destroys the runtime (it has no destroy callback to run) */
    return ok ? 0 : 1;
}
