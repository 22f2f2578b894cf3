/* Renderer test support: the scene helpers the px_render_* tests share (public API only). */
#ifndef HL_TEST_RENDER_H
#define HL_TEST_RENDER_H

#include "hilo3d/pipeline.h"
#include "hilo3d/renderer.h"
#include "hl_test.h"

/* The backend of this run; backend_of sets it from --backend (default webgpu). */
extern hl_backend hl_test_render_backend;
hl_backend backend_of(int argc, char **argv);
/* Linear [0, 1] -> sRGB byte (the exact encode of an RGBA8 sRGB target). */
int srgb_byte(float c);
/* A renderer of the run's backend (checks the result). */
hl_renderer *make_renderer(uint32_t w, uint32_t h, uint32_t samples);
/* The same with a pipeline factory (NULL: the built-in one). */
hl_renderer *make_renderer_with(uint32_t w, uint32_t h, uint32_t samples, const hl_pipeline_factory *pipeline);
/* A pipeline whose runtime records through record(ctx, state): hl_test_runtime_factory fills
 * *f (its create makes a runtime named name with that record and state, for each renderer made
 * with f; rt and state outlive those renderers). */
typedef struct hl_test_runtime {
    const char *name;
    hl_result (*record)(hl_pipeline_context ctx, void *state);
    void *state;
} hl_test_runtime;
void hl_test_runtime_factory(hl_test_runtime *rt, hl_pipeline_factory *f);

/* Renders stage through camera with r and reads the output into img (n bytes); checks both. */
bool render_read(hl_renderer *r, hl_stage *stage, hl_camera *camera, uint8_t *img, size_t n);

/* The opaque (material front to back) and transparent (back to front) renderer lists of c,
 * every material kind. */
hl_result hl_test_forward_lists(hl_pipeline_context ctx, hl_pipeline_culling c, hl_pipeline_renderer_list *opaque,
                                hl_pipeline_renderer_list *transparent);

/* An orthographic camera at (0, 0, 5) looking down -Z over [-1, 1]^2, added to s. */
hl_camera *front_camera(hl_stage *s);
/* A mesh of geometry + material at pos, added to s (the mesh holds its own references). */
hl_mesh *add_mesh(hl_stage *s, hl_geometry *g, hl_material *m, hl_vec3 pos);
/* A basic (unlit) material of a linear colour. */
hl_material *basic(float r, float g, float b, float a);
/* A w x h plane geometry in the XY plane facing +Z. */
hl_geometry *plane(float w, float h);
/* tex on an unlit 2 x 2 plane filling front_camera's view, rendered by r and read into img
 * (size bytes: the renderer's width * height * 4); the scene is made and freed here. */
void draw_texture(hl_renderer *r, hl_texture *tex, uint8_t *img, size_t size);

#endif
