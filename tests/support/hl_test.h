/* Test support: backend from the command line, assertions that count, pixel readback,
 * shader programs for the device's backend, PNG output.
 *
 * Every test binary ends with `return hl_test_finish();`, which prints the CTest-readable
 * line "N passed, M failed" and returns non-zero on any failure. */
#ifndef HL_TEST_H
#define HL_TEST_H

#include <stdio.h>
#include <string.h>

#include "hl_rhi.h"
#include "hl_shader.h"

/* "--backend webgpu|gles3|null" from argv, else $HL_TEST_BACKEND, else `fallback`. */
hl_rhi_backend hl_test_backend_arg(int argc, char **argv, hl_rhi_backend fallback);

/* Creates a device of exactly that backend; on failure prints why, counts a failure and
 * returns NULL (the caller returns hl_test_finish()). */
hl_rhi_device *hl_test_device(hl_rhi_backend backend);

void hl_test_check(int ok, const char *file, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
int hl_test_finish(void);
int hl_test_failures(void);

#define HL_CHECK(cond) hl_test_check(!!(cond), __FILE__, __LINE__, "%s", #cond)
#define HL_CHECK_MSG(cond, ...) hl_test_check(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define HL_CHECK_EQ(a, b)                                                                              \
    do {                                                                                               \
        long long hl__a = (long long)(a), hl__b = (long long)(b);                                      \
        hl_test_check(hl__a == hl__b, __FILE__, __LINE__, "%s == %s (%lld vs %lld)", #a, #b, hl__a, hl__b); \
    } while (0)
/* expr returns hl_result; on failure prints the code and hl_last_error(). */
#define HL_CHECK_OK(expr)                                                                              \
    do {                                                                                               \
        hl_result hl__r = (expr);                                                                      \
        hl_test_check(hl__r == HL_OK, __FILE__, __LINE__, "%s -> %s: %s", #expr, hl_result_name(hl__r), \
                      hl__r ? hl_last_error() : "");                                                   \
    } while (0)
#define HL_CHECK_RESULT(expr, code)                                                                    \
    do {                                                                                               \
        hl_result hl__r = (expr);                                                                      \
        hl_test_check(hl__r == (code), __FILE__, __LINE__, "%s -> %s, expected %s (%s)", #expr,         \
                      hl_result_name(hl__r), hl_result_name(code), hl_last_error());                   \
    } while (0)
/* px: 4 bytes; each channel within tol of (r,g,b,a). */
#define HL_CHECK_PIXEL(px, r, g, b, a, tol) hl_test_check_pixel((px), (r), (g), (b), (a), (tol), __FILE__, __LINE__, #px)
void hl_test_check_pixel(const uint8_t *px, int r, int g, int b, int a, int tol, const char *file, int line,
                         const char *what);

/* Reads mip 0 of an RGBA8 texture (needs COPY_SRC) into out (width * height * 4 bytes). */
hl_result hl_test_read_rgba8(hl_rhi_device *dev, hl_rhi_texture tex, uint8_t *out);

/* A vertex + fragment program compiled for the device's backend and its RHI shader modules. */
typedef struct hl_test_program {
    hl_shader_program prog;
    hl_rhi_shader vs, fs;
} hl_test_program;

hl_result hl_test_program_create(hl_rhi_device *dev, const char *vs, const char *fs,
                                 const hl_rhi_binding_plan_entry *plan, uint32_t plan_count, hl_test_program *out);
void hl_test_program_destroy(hl_rhi_device *dev, hl_test_program *p);

/* A colour render target: texture with RENDER_ATTACHMENT | COPY_SRC | SAMPLED and its view. */
typedef struct hl_test_target {
    hl_rhi_texture tex;
    hl_rhi_texture_view view;
    uint32_t width, height;
} hl_test_target;

hl_result hl_test_target_create(hl_rhi_device *dev, uint32_t w, uint32_t h, hl_rhi_format format,
                                uint32_t sample_count, hl_test_target *out);
void hl_test_target_destroy(hl_rhi_device *dev, hl_test_target *t);

/* Writes RGBA8 pixels as PNG (stb_image_write); false on failure. */
int hl_test_write_png(const char *path, uint32_t w, uint32_t h, const uint8_t *rgba);

/* ---- a pipeline from GLSL in one call (layouts built from the reflection) ----------------- */
typedef struct hl_test_attr {
    const char *name; /* vertex input name in the GLSL */
    hl_rhi_vertex_format format;
    uint32_t offset;
} hl_test_attr;

typedef struct hl_test_pipeline_desc {
    const char *vs, *fs;
    const hl_rhi_binding_plan_entry *plan; /* optional explicit plan */
    uint32_t plan_count;
    uint32_t stride; /* one vertex buffer with attrs; 0 = no vertex buffer */
    const hl_test_attr *attrs;
    uint32_t attr_count;
    hl_rhi_format color_formats[HL_RHI_MAX_COLOR_ATTACHMENTS]; /* default one RGBA8 */
    uint32_t color_count;
    hl_rhi_format depth_format; /* UNDEFINED = none */
    bool depth_write;
    hl_rhi_compare depth_compare;
    uint32_t sample_count;
    bool blend_alpha; /* src-alpha / one-minus-src-alpha on every target */
    bool dynamic_ubo; /* uniform buffers take dynamic offsets */
    hl_rhi_topology topology;
} hl_test_pipeline_desc;

typedef struct hl_test_pipeline {
    hl_test_program prog;
    hl_rhi_bind_group_layout bgl[HL_RHI_MAX_BIND_GROUPS];
    uint32_t group_count;
    hl_rhi_pipeline_layout layout;
    hl_rhi_render_pipeline pipe;
} hl_test_pipeline;

hl_result hl_test_pipeline_create(hl_rhi_device *dev, const hl_test_pipeline_desc *desc, hl_test_pipeline *out);
void hl_test_pipeline_destroy(hl_rhi_device *dev, hl_test_pipeline *p);

/* The tint program's pipeline: 2D positions (a_pos, float32x2, stride 8) at depth 0.5 and one
 * uniform block Tint { vec4 u_tint; } whose colour every fragment takes, its buffer bound with
 * a dynamic offset; blend_alpha as given. */
hl_test_pipeline_desc hl_test_tint_pipeline_desc(bool blend_alpha);
/* Four quads of 6 vertices (2 floats each) for the tint pipeline: quad q covers quadrant q of
 * the target, its right half when bit 0 of q is set, its top half (clip y > 0) when bit 1 is. */
void hl_test_quadrant_quads(float out[48]);
/* The tint pipeline p's bind group over ubo (its 16-byte block at a dynamic offset; named label)
 * and four packets: packet q draws quad q of vbo (hl_test_quadrant_quads) with its tint at
 * offsets[q]. */
hl_result hl_test_quadrant_packets(hl_rhi_device *dev, const hl_test_pipeline *p, hl_rhi_buffer vbo, hl_rhi_buffer ubo,
                                   const uint32_t offsets[4], const char *label, hl_rhi_bind_group *bg,
                                   hl_rhi_draw_packet pk[4]);

/* Buffer with COPY_DST | COPY_SRC added to usage, filled with data when given. */
hl_result hl_test_buffer(hl_rhi_device *dev, uint32_t usage, const void *data, uint64_t size, hl_rhi_buffer *out);

/* Begins a frame and a render pass on t (clear to `clear`; depth view optional, cleared to 1). */
hl_result hl_test_begin(hl_rhi_device *dev, const hl_test_target *t, const float clear[4], hl_rhi_texture_view depth,
                        hl_rhi_cmd **cmd);
/* Ends the pass and the frame, waits for the submission. */
hl_result hl_test_end(hl_rhi_device *dev, hl_rhi_cmd *cmd);

#endif
