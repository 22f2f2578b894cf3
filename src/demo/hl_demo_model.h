/* What `hilo3d render MODEL`, `hilo3d view` and the browser page add around a model or the demo
 * scene, shared so that all three draw the same image: a camera framing a box, the default lights
 * of a model without any, and the pipelines chosen by name. */
#ifndef HL_DEMO_MODEL_H
#define HL_DEMO_MODEL_H

#include <stdbool.h>

#include "hilo3d/pipeline.h"
#include "hilo3d/renderer.h"

/* A perspective camera (45 degrees vertical, narrower for aspect < 1) framing box from the front,
 * a little above, at aspect; near and far planes scaled to the box. Not in a stage; NULL when it
 * cannot be made. The caller destroys it (hl_node_destroy(hl_camera_node(c))) unless it adds it
 * to a stage. */
hl_camera *hl_demo_frame_camera(hl_aabb box, float aspect);

/* The lights of a model that has none: a key light from the upper right front of box and, when
 * the stage has no environment, an ambient term. Added to s. */
hl_result hl_demo_default_lights(hl_stage *s, hl_aabb box, bool environment);

/* The pipelines of `--pipeline`, by name: "forward" (a NULL factory: the built-in one),
 * "forward-post" (bloom, ACES tone mapping, FXAA) and "deferred" (hl_deferred.h, with bloom).
 * Another name is HL_ERR_VALIDATION. *factory is released with hl_demo_pipeline_release after
 * hl_renderer_create (the renderer keeps what it needs). */
#define HL_DEMO_PIPELINES {"forward", "forward-post", "deferred", NULL}
hl_result hl_demo_pipeline_factory(const char *name, hl_pipeline_factory **factory);
void hl_demo_pipeline_release(const char *name, hl_pipeline_factory *factory); /* NULL is fine */

#endif
