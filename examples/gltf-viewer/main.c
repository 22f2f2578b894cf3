/* gltf-viewer: loads a glTF 2.0 model (.gltf or .glb), frames it and writes one image.
 *
 * The loader builds scene nodes (meshes, PBR materials, textures, the file's cameras and
 * lights) under one root node; the program adds that root to a stage, places a camera so that
 * the model's bounds fill the view, lights it with a sun and the built-in studio environment
 * (image-based lighting), renders once and writes the image as a binary PPM. It fails when the
 * model cannot be loaded or nothing of it shows.
 *
 *     gltf-viewer [MODEL.gltf|MODEL.glb] [OUT.ppm] [auto|webgpu|gles3]
 *         (defaults: the sample model beside the build, gltf-viewer.ppm, auto)
 *
 * Exit code 0 when the model was drawn, 1 otherwise.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "hilo3d/environment.h"
#include "hilo3d/gltf.h"
#include "hilo3d/renderer.h"
#include "hilo3d/scene.h"

#ifndef GLTF_VIEWER_DEFAULT_MODEL /* set by CMakeLists.txt when hilo3d's sample model is found */
#define GLTF_VIEWER_DEFAULT_MODEL "BoxTextured.gltf"
#endif

enum { W = 320, H = 240 };

static int write_ppm(const char *path, const uint8_t *rgba) {
    FILE *f = fopen(path, "wb");
    if (!f) return 0;
    fprintf(f, "P6\n%d %d\n255\n", W, H);
    for (size_t i = 0; i < (size_t)W * H; i++) fwrite(rgba + i * 4, 1, 3, f); /* drop alpha */
    return fclose(f) == 0;
}

int main(int argc, char **argv) {
    const char *model = argc > 1 ? argv[1] : GLTF_VIEWER_DEFAULT_MODEL;
    const char *out = argc > 2 ? argv[2] : "gltf-viewer.ppm";
    hl_renderer_desc rd = {0};
    if (argc > 3 && hl_backend_parse(argv[3], &rd.backend) != HL_OK) {
        fprintf(stderr, "usage: gltf-viewer [MODEL.gltf|MODEL.glb] [OUT.ppm] [auto|webgpu|gles3]\n");
        return 2;
    }
    hl_gltf_asset *asset = NULL;
    if (hl_gltf_load_file(model, NULL, &asset) != HL_OK) { /* the message names the file or JSON path */
        fprintf(stderr, "gltf-viewer: %s\n", hl_last_error());
        return 1;
    }
    const hl_gltf_report *rep = hl_gltf_asset_report(asset);
    printf("gltf-viewer: %s: %u meshes, %llu triangles, %u materials, %u textures (%.1f ms)\n", model, rep->meshes,
           (unsigned long long)rep->triangles, rep->materials, rep->textures, rep->load_ms);

    rd.width = W;
    rd.height = H;
    hl_renderer *r = NULL;
    hl_stage *stage = NULL;
    hl_camera *cam = NULL;
    hl_light *sun = NULL;
    hl_environment *env = NULL;
    hl_light_desc ld = {0};
    ld.kind = HL_LIGHT_DIRECTIONAL;
    ld.intensity = 2.0f;
    hl_camera_desc cd = {0};
    cd.fov_y_deg = 45.0f;
    cd.aspect = (float)W / (float)H;
    int ok = hl_renderer_create(&rd, &r) == HL_OK && hl_stage_create(&stage) == HL_OK &&
             hl_stage_add(stage, hl_gltf_asset_root(asset)) == HL_OK && /* the stage owns the tree now */
             hl_camera_create(&cd, &cam) == HL_OK && hl_stage_add(stage, hl_camera_node(cam)) == HL_OK &&
             hl_light_create(&ld, &sun) == HL_OK && hl_stage_add(stage, hl_light_node(sun)) == HL_OK &&
             hl_environment_create_default(&env) == HL_OK;
    if (!ok) {
        fprintf(stderr, "gltf-viewer: %s\n", hl_last_error());
        return 1;
    }
    hl_stage_set_environment(stage, env); /* the stage keeps its own reference */
    hl_environment_release(env);
    hl_stage_set_clear_color(stage, (hl_color){0.02f, 0.02f, 0.03f, 1});
    hl_node_look_at(hl_light_node(sun), (hl_vec3){-0.4f, -1.0f, -0.6f}, (hl_vec3){0, 1, 0});

    /* Frame the model: look at the centre of its bounds from a distance at which a sphere
     * around them fits the vertical field of view, a little from above and the side. */
    hl_aabb box = hl_gltf_asset_bounds(asset);
    if (hl_aabb_is_empty(&box)) {
        fprintf(stderr, "gltf-viewer: %s has no meshes to show\n", model);
        return 1;
    }
    hl_vec3 c = {(box.min.x + box.max.x) / 2, (box.min.y + box.max.y) / 2, (box.min.z + box.max.z) / 2};
    hl_vec3 size = {box.max.x - box.min.x, box.max.y - box.min.y, box.max.z - box.min.z};
    float radius = 0.5f * hl_vec3_length(size);
    float dist = radius / sinf(0.5f * cd.fov_y_deg * 3.14159265f / 180.0f);
    hl_vec3 dir = hl_vec3_normalize((hl_vec3){0.6f, 0.5f, 1.0f});
    hl_node_set_translation(hl_camera_node(cam), (hl_vec3){c.x + dir.x * dist, c.y + dir.y * dist, c.z + dir.z * dist});
    hl_node_look_at(hl_camera_node(cam), c, (hl_vec3){0, 1, 0});
    hl_camera_desc fit = *hl_camera_get_desc(cam);
    fit.near_plane = dist * 0.01f, fit.far_plane = dist * 4.0f; /* depth precision around the model */
    hl_camera_set_desc(cam, &fit);

    static uint8_t img[W * H * 4];
    if (hl_renderer_render(r, stage, cam) != HL_OK || hl_renderer_read_pixels(r, img, sizeof img) != HL_OK) {
        fprintf(stderr, "gltf-viewer: %s\n", hl_last_error());
        return 1;
    }
    /* Something must show: pixels that differ from the background (the top left corner). */
    int drawn = 0;
    for (int i = 0; i < W * H; i++)
        drawn += abs(img[i * 4] - img[0]) + abs(img[i * 4 + 1] - img[1]) + abs(img[i * 4 + 2] - img[2]) > 24;
    ok = write_ppm(out, img);
    printf("gltf-viewer: %d%% of the image shows the model; %s %s\n", drawn * 100 / (W * H),
           ok ? "wrote" : "could not write", out);
    ok = ok && drawn > W * H / 20;

    hl_gltf_asset_destroy(asset); /* before the stage that holds its nodes */
    hl_stage_destroy(stage);
    hl_renderer_destroy(r);
    return ok ? 0 : 1;
}
