/* hello-scene: the renderer's everyday path. A stage holds a floor, a red sphere and a blue box
 * with PBR (metallic-roughness) materials, an ambient light and a directional light that casts
 * shadows; a perspective camera looks at them. hl_renderer_render draws one frame and
 * hl_renderer_read_pixels reads it back, then the program checks what it sees: the sphere is
 * red, the box blue, the sphere's shadow darkens the floor and the background is the clear
 * colour.
 *
 *     hello-scene [auto|webgpu|gles3] [out.ppm]     (default auto, no file)
 *
 * Exit code 0 when the image is right, 1 otherwise.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "hilo3d/renderer.h"
#include "hilo3d/scene.h"

enum { W = 160, H = 120 };

#define TRY(call)                                                                     \
    do {                                                                              \
        if ((call) != HL_OK) {                                                        \
            fprintf(stderr, "hello-scene: %s failed: %s\n", #call, hl_last_error());  \
            return 1;                                                                 \
        }                                                                             \
    } while (0)

/* Adds a mesh of geometry g and material m at position p. The mesh takes its own references to
 * g and m, so the caller may release its own afterwards. */
static hl_mesh *add_mesh(hl_stage *stage, hl_geometry *g, hl_material *m, hl_vec3 p, bool cast, bool receive) {
    hl_mesh_desc md = {0};
    md.geometry = g;
    md.material = m;
    md.cast_shadows = cast;
    md.receive_shadows = receive;
    hl_mesh *mesh = NULL;
    if (hl_mesh_create(&md, &mesh) != HL_OK) return NULL;
    hl_node_set_translation(hl_mesh_node(mesh), p);
    if (hl_stage_add(stage, hl_mesh_node(mesh)) != HL_OK) { /* on success the stage owns the node */
        hl_node_destroy(hl_mesh_node(mesh));
        return NULL;
    }
    return mesh;
}

/* The output is sRGB-encoded: the 8-bit value a linear colour channel c reads back as. */
static int srgb8(float c) {
    float s = c <= 0.0031308f ? c * 12.92f : 1.055f * powf(c, 1.0f / 2.4f) - 0.055f;
    return (int)(s * 255.0f + 0.5f);
}

static const uint8_t *pixel_of(const uint8_t *img, hl_camera *cam, hl_vec3 world) {
    hl_vec3 ndc = hl_camera_project(cam, world); /* x, y in [-1, 1], +y up */
    int x = (int)((ndc.x * 0.5f + 0.5f) * W), y = (int)((0.5f - ndc.y * 0.5f) * H);
    x = x < 0 ? 0 : x >= W ? W - 1 : x;
    y = y < 0 ? 0 : y >= H ? H - 1 : y;
    return img + ((size_t)y * W + (size_t)x) * 4;
}

int main(int argc, char **argv) {
    hl_renderer_desc rd = {0}; /* zero = defaults: auto backend, 4x MSAA, ... */
    if (argc > 1 && hl_backend_parse(argv[1], &rd.backend) != HL_OK) {
        fprintf(stderr, "usage: hello-scene [auto|webgpu|gles3] [out.ppm]\n");
        return 2;
    }
    rd.width = W;
    rd.height = H;
    hl_renderer *r;
    TRY(hl_renderer_create(&rd, &r));
    printf("hello-scene: %s on %s\n", hl_backend_name(hl_renderer_backend(r)), hl_renderer_adapter_name(r));

    hl_stage *stage;
    TRY(hl_stage_create(&stage));
    const hl_color sky = {0.05f, 0.1f, 0.2f, 1.0f}; /* linear, like every colour in hilo3d */
    hl_stage_set_clear_color(stage, sky);

    /* Geometry (shapes centred at the origin) and PBR materials. */
    hl_geometry *floor_g, *sphere_g, *box_g;
    hl_plane_desc plane = {8.0f, 8.0f, 1, 1};
    TRY(hl_geometry_create_plane(&plane, &floor_g)); /* in the XY plane, facing +Z */
    TRY(hl_geometry_create_sphere(NULL, &sphere_g)); /* radius 0.5 */
    TRY(hl_geometry_create_box(NULL, &box_g));       /* 1 x 1 x 1 */
    hl_pbr_material_desc pd = {0};
    pd.base_color = (hl_color){0.6f, 0.6f, 0.6f, 1.0f};
    pd.roughness = 0.9f;
    hl_material *grey, *red, *blue;
    TRY(hl_material_create_pbr(&pd, &grey));
    pd.base_color = (hl_color){0.8f, 0.05f, 0.05f, 1.0f};
    pd.roughness = 0.4f;
    TRY(hl_material_create_pbr(&pd, &red));
    pd.base_color = (hl_color){0.05f, 0.1f, 0.8f, 1.0f};
    pd.metallic = 0.5f;
    TRY(hl_material_create_pbr(&pd, &blue));

    hl_mesh *floor_m = add_mesh(stage, floor_g, grey, (hl_vec3){0, 0, 0}, false, true);
    hl_mesh *sphere_m = add_mesh(stage, sphere_g, red, (hl_vec3){0, 1.0f, 0}, true, true);
    hl_mesh *box_m = add_mesh(stage, box_g, blue, (hl_vec3){-1.5f, 0.5f, 0}, true, true);
    if (!floor_m || !sphere_m || !box_m) {
        fprintf(stderr, "hello-scene: mesh: %s\n", hl_last_error());
        return 1;
    }
    /* The plane faces +Z: turn it to face +Y (a floor). */
    hl_node_set_rotation(hl_mesh_node(floor_m), hl_quat_from_axis_angle((hl_vec3){1, 0, 0}, -1.5707963f));
    hl_geometry_release(floor_g), hl_geometry_release(sphere_g), hl_geometry_release(box_g);
    hl_material_release(grey), hl_material_release(red), hl_material_release(blue);

    /* Lights: a little ambient, and a sun shining down and slightly towards the camera (it
     * shines along its node's -Z axis, so we point that axis with look_at). */
    hl_light_desc ld = {0};
    ld.kind = HL_LIGHT_AMBIENT;
    ld.intensity = 0.15f;
    hl_light *ambient, *sun;
    TRY(hl_light_create(&ld, &ambient));
    TRY(hl_stage_add(stage, hl_light_node(ambient)));
    ld.kind = HL_LIGHT_DIRECTIONAL;
    ld.intensity = 3.0f;
    ld.cast_shadows = true;
    TRY(hl_light_create(&ld, &sun));
    hl_node_look_at(hl_light_node(sun), (hl_vec3){0, -1.0f, 0.4f}, (hl_vec3){0, 1, 0});
    TRY(hl_stage_add(stage, hl_light_node(sun)));

    /* The camera: up and in front, looking at the sphere. */
    hl_camera_desc cd = {0};
    cd.fov_y_deg = 45.0f;
    cd.aspect = (float)W / (float)H;
    hl_camera *cam;
    TRY(hl_camera_create(&cd, &cam));
    hl_node_set_translation(hl_camera_node(cam), (hl_vec3){0, 3.0f, 5.0f});
    hl_node_look_at(hl_camera_node(cam), (hl_vec3){0, 0.5f, 0}, (hl_vec3){0, 1, 0});
    TRY(hl_stage_add(stage, hl_camera_node(cam)));

    /* One frame, read back: W * H RGBA8 pixels, sRGB-encoded, row 0 at the top. */
    static uint8_t img[W * H * 4];
    TRY(hl_renderer_render(r, stage, cam));
    TRY(hl_renderer_read_pixels(r, img, sizeof img));

    if (argc > 2) { /* a binary PPM: viewable almost anywhere */
        FILE *f = fopen(argv[2], "wb");
        if (f) {
            fprintf(f, "P6\n%d %d\n255\n", W, H);
            for (size_t i = 0; i < (size_t)W * H; i++) fwrite(img + i * 4, 1, 3, f);
            if (fclose(f) != 0) fprintf(stderr, "hello-scene: could not write %s\n", argv[2]);
        }
    }

    /* Where things landed: hl_camera_project gives a world point's screen position. */
    const uint8_t *s = pixel_of(img, cam, (hl_vec3){0, 1.3f, 0.4f});    /* the sphere's sunlit top */
    const uint8_t *b = pixel_of(img, cam, (hl_vec3){-1.5f, 1.0f, 0.2f}); /* the box's top face */
    const uint8_t *shade = pixel_of(img, cam, (hl_vec3){0, 0, 0.4f});   /* floor below the sphere: in its shadow */
    const uint8_t *lit = pixel_of(img, cam, (hl_vec3){1.5f, 0, 0.4f});  /* floor in the sun */
    const uint8_t *bg = img;                                            /* top left: nothing but sky */
    int ok = 1;
    if (!(s[0] > s[1] + 40 && s[0] > s[2] + 40))
        ok = 0, fprintf(stderr, "sphere is not red: %d %d %d\n", s[0], s[1], s[2]);
    if (!(b[2] > b[0] + 20 && b[2] > b[1] + 10))
        ok = 0, fprintf(stderr, "box is not blue: %d %d %d\n", b[0], b[1], b[2]);
    if (!(shade[0] + shade[1] + shade[2] < (lit[0] + lit[1] + lit[2]) / 2))
        ok = 0, fprintf(stderr, "no shadow: shadowed floor %d, lit floor %d\n", shade[0] + shade[1] + shade[2],
                        lit[0] + lit[1] + lit[2]);
    if (abs(bg[0] - srgb8(sky.r)) > 2 || abs(bg[1] - srgb8(sky.g)) > 2 || abs(bg[2] - srgb8(sky.b)) > 2)
        ok = 0, fprintf(stderr, "background %d %d %d is not the clear colour %d %d %d\n", bg[0], bg[1], bg[2],
                        srgb8(sky.r), srgb8(sky.g), srgb8(sky.b));
    printf("hello-scene: %s\n", ok ? "ok" : "wrong image");

    /* The stage destroys its nodes (meshes, lights, camera); the renderer its GPU objects. */
    hl_stage_destroy(stage);
    hl_renderer_destroy(r);
    return ok ? 0 : 1;
}
