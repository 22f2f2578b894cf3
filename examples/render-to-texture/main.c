/* render-to-texture: one scene drawn into a texture, shown on a quad of another scene.
 *
 * Scene A (a yellow disc on purple, unlit) renders into a render target; the target's colour
 * attachment is a scene texture (hl_render_target_texture) that a material of scene B uses as
 * its map: a tilted quad in front of a perspective camera shows scene A like a screen. Both
 * render calls run in one frame (hl_renderer_render_frame: one graph, one submission, in the
 * order recorded). The program then checks that the quad shows scene A: its middle is yellow,
 * its corner purple, and the space around it is scene B's background.
 *
 *     render-to-texture [auto|webgpu|gles3]      (default auto)
 *
 * Exit code 0 when the image is right, 1 otherwise.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "hilo3d/renderer.h"
#include "hilo3d/scene.h"

enum { W = 128, H = 128, TARGET = 128 };

#define TRY(call)                                                                           \
    do {                                                                                    \
        if ((call) != HL_OK) {                                                              \
            fprintf(stderr, "render-to-texture: %s failed: %s\n", #call, hl_last_error());  \
            return 1;                                                                       \
        }                                                                                   \
    } while (0)

typedef struct scenes {
    hl_render_target *target;
    hl_stage *a, *b;
    hl_camera *cam_a, *cam_b;
} scenes;

/* The frame: first scene A into the target, then scene B (which samples it) into the output. */
static hl_result frame(hl_render_frame *f, void *user) {
    scenes *s = user;
    hl_result r = hl_render_frame_render_to_target(f, s->target, s->a, s->cam_a);
    if (r == HL_OK) r = hl_render_frame_render(f, s->b, s->cam_b);
    return r;
}

/* Adds a mesh (the mesh keeps its own references: release yours when done). */
static hl_mesh *add_mesh(hl_stage *stage, hl_geometry *g, hl_material *m) {
    hl_mesh_desc md = {0};
    md.geometry = g;
    md.material = m;
    hl_mesh *mesh = NULL;
    if (hl_mesh_create(&md, &mesh) != HL_OK) return NULL;
    if (hl_stage_add(stage, hl_mesh_node(mesh)) != HL_OK) { /* on success the stage owns the node */
        hl_node_destroy(hl_mesh_node(mesh));
        return NULL;
    }
    return mesh;
}

static int srgb8(float c) { /* the output is sRGB-encoded */
    float s = c <= 0.0031308f ? c * 12.92f : 1.055f * powf(c, 1.0f / 2.4f) - 0.055f;
    return (int)(s * 255.0f + 0.5f);
}

/* Checks the output pixel showing world point p against the linear colour c (+-tol). */
static int check(const uint8_t *img, hl_camera *cam, hl_vec3 p, hl_color c, int tol, const char *what) {
    hl_vec3 ndc = hl_camera_project(cam, p);
    int x = (int)((ndc.x * 0.5f + 0.5f) * W), y = (int)((0.5f - ndc.y * 0.5f) * H);
    const uint8_t *px = img + ((size_t)y * W + (size_t)x) * 4;
    int r = srgb8(c.r), g = srgb8(c.g), b = srgb8(c.b);
    if (abs(px[0] - r) <= tol && abs(px[1] - g) <= tol && abs(px[2] - b) <= tol) return 1;
    fprintf(stderr, "render-to-texture: %s at pixel (%d, %d) is %d %d %d, expected %d %d %d\n", what, x, y, px[0],
            px[1], px[2], r, g, b);
    return 0;
}

int main(int argc, char **argv) {
    hl_renderer_desc rd = {0};
    if (argc > 1 && hl_backend_parse(argv[1], &rd.backend) != HL_OK) {
        fprintf(stderr, "usage: render-to-texture [auto|webgpu|gles3]\n");
        return 2;
    }
    rd.width = W;
    rd.height = H;
    hl_renderer *r;
    TRY(hl_renderer_create(&rd, &r));
    printf("render-to-texture: %s\n", hl_backend_name(hl_renderer_backend(r)));

    /* The render target: one RGBA8 sRGB colour attachment and depth (zero = defaults), cleared
     * to purple (a target has its own clear colour; the renderer's output takes the stage's). */
    const hl_color purple = {0.3f, 0.05f, 0.4f, 1.0f}, yellow = {1.0f, 0.8f, 0.0f, 1.0f};
    const hl_color grey = {0.02f, 0.02f, 0.02f, 1.0f};
    scenes s = {0};
    hl_render_target_desc td = {0};
    td.width = td.height = TARGET;
    td.clear_color = purple;
    TRY(hl_render_target_create(r, &td, &s.target));

    /* Scene A: a yellow sphere seen straight on by an orthographic camera spanning [-1, 1]: a
     * disc of radius 0.5, half the texture wide. Basic materials are unlit: exact colours. */
    TRY(hl_stage_create(&s.a));
    hl_geometry *sphere, *quad;
    TRY(hl_geometry_create_sphere(NULL, &sphere));
    hl_basic_material_desc bd = {0};
    bd.color = yellow;
    hl_material *yellow_m, *screen_m;
    TRY(hl_material_create_basic(&bd, &yellow_m));
    if (!add_mesh(s.a, sphere, yellow_m)) return 1;
    hl_camera_desc ortho = {0};
    ortho.projection = HL_PROJECTION_ORTHOGRAPHIC; /* left/right/bottom/top 0 = -1, 1, -1, 1 */
    TRY(hl_camera_create(&ortho, &s.cam_a));
    hl_node_set_translation(hl_camera_node(s.cam_a), (hl_vec3){0, 0, 5}); /* looks down -Z */

    /* Scene B: a 2 x 2 quad whose map is the target's colour attachment (owned by the target:
     * not released here), turned 30 degrees about Y, in front of a perspective camera. */
    TRY(hl_stage_create(&s.b));
    hl_stage_set_clear_color(s.b, grey);
    hl_plane_desc pd = {2.0f, 2.0f, 1, 1};
    TRY(hl_geometry_create_plane(&pd, &quad));
    bd.color = (hl_color){1, 1, 1, 1};
    bd.texture.texture = hl_render_target_texture(s.target, 0);
    bd.state.double_sided = true;
    TRY(hl_material_create_basic(&bd, &screen_m));
    hl_mesh *screen = add_mesh(s.b, quad, screen_m);
    if (!screen) return 1;
    hl_node_set_rotation(hl_mesh_node(screen), hl_quat_from_axis_angle((hl_vec3){0, 1, 0}, 0.5235988f));
    hl_camera_desc persp = {0};
    persp.fov_y_deg = 50.0f;
    TRY(hl_camera_create(&persp, &s.cam_b));
    hl_node_set_translation(hl_camera_node(s.cam_b), (hl_vec3){0, 0, 3.2f});
    hl_geometry_release(sphere), hl_geometry_release(quad);
    hl_material_release(yellow_m), hl_material_release(screen_m);

    TRY(hl_renderer_render_frame(r, frame, &s));
    static uint8_t img[W * H * 4];
    TRY(hl_renderer_read_pixels(r, img, sizeof img));

    /* World positions of points of the quad: its node's world matrix times the local point
     * (the plane lies in its local XY plane, corners at +-1). */
    const hl_mat4 *world = hl_node_world_matrix(hl_mesh_node(screen));
    hl_vec3 middle = hl_mat4_transform_point(world, (hl_vec3){0, 0, 0});
    hl_vec3 corner = hl_mat4_transform_point(world, (hl_vec3){0.8f, 0.8f, 0});
    hl_camera_update(s.cam_b);
    int ok = check(img, s.cam_b, middle, yellow, 6, "the quad's middle (scene A's disc)") &
             check(img, s.cam_b, corner, purple, 6, "the quad's corner (scene A's background)") &
             check(img, s.cam_b, (hl_vec3){0, 1.3f, 0}, grey, 2, "above the quad (scene B's background)");
    printf("render-to-texture: %s\n", ok ? "ok" : "wrong image");

    hl_stage_destroy(s.a);
    hl_stage_destroy(s.b);
    hl_node_destroy(hl_camera_node(s.cam_a)); /* cameras outside a stage belong to the caller */
    hl_node_destroy(hl_camera_node(s.cam_b));
    hl_renderer_destroy(r); /* destroys the render target too */
    return ok ? 0 : 1;
}
