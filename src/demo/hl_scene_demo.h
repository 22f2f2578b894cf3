/* The built-in demo scene of `hilo3d render`: a grid of PBR spheres (metallic 0 -> 1 along x,
 * roughness 0 -> 1 along z), a ground plane receiving shadows from a directional and a spot
 * light, lit also by the default studio environment (image-based lighting, intensity 0.4), a
 * textured box, transparent panes and a few hundred instanced cubes. */
#ifndef HL_SCENE_DEMO_H
#define HL_SCENE_DEMO_H

#include "hilo3d/renderer.h"

typedef struct hl_scene_demo {
    hl_stage *stage;
    hl_camera *camera; /* in the stage */
    hl_vec3 camera_target; /* the point the camera looks at (an orbiting viewer's centre) */
    hl_mesh *box;      /* the textured box (tests move it) */
    uint32_t instanced_cubes;
} hl_scene_demo;

/* aspect: the camera's aspect ratio. */
hl_result hl_scene_demo_create(float aspect, hl_scene_demo *out);
void hl_scene_demo_destroy(hl_scene_demo *d);

/* The benchmark grid of bench/scene_draws, bench/srp_overhead and px_pipeline_parity: `meshes`
 * boxes (0.6 units) on a square grid sharing one geometry, `materials` PBR materials in turn
 * (colour, metallic and roughness from the index), one directional light, a 16:9 camera above
 * the grid looking at its centre. The stage owns everything; hl_stage_destroy frees it. */
hl_result hl_scene_grid_create(uint32_t meshes, uint32_t materials, hl_stage **out_stage, hl_camera **out_camera);

#endif
