/** @file
 * hilo3d: environments for image-based lighting (IBL).
 *
 * An environment is the light arriving from every direction, held as an equirectangular image
 * of linear RGB radiance (rows top to bottom: row 0 looks up (+Y), the middle row along the
 * horizon; column 0 looks along -X, the quarter column along -Z, the middle column along +X).
 * It is CPU data with a revision, like a texture: a renderer that draws a stage with an
 * environment builds from it, on the GPU and once per revision,
 *   - a prefiltered specular cubemap (GGX, roughness r in mip r * (mips - 1)),
 *   - the diffuse irradiance as 9 spherical-harmonic coefficients (computed on the GPU, read
 *     back once) and
 *   - (once per renderer) the split-sum BRDF lookup table,
 * and lights every lit material with them (metallic-roughness PBR: diffuse irradiance plus
 * prefiltered specular, times ambient occlusion), on both backends.
 *
 * hl_stage_set_environment puts one on a stage (scene.h); hl_stage_set_exposure scales the
 * whole lit colour. The neutral default environment (hl_environment_create_default) is a soft
 * studio: a bright overhead, a mid-grey horizon and a darker floor, the same on every machine.
 *
 * Reference counted: created with one reference; a stage retains the environment it shows.
 */
#ifndef HILO3D_ENVIRONMENT_H
#define HILO3D_ENVIRONMENT_H

#include <stddef.h>
#include <stdint.h>

#include "hilo3d/export.h"
#include "hilo3d/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/** An environment: an equirectangular radiance image with intensity and rotation, reference
 * counted (see the top of this file). */
typedef struct hl_environment hl_environment;

/** The largest equirectangular image an environment keeps: larger images are reduced (2x2 box
 * filter, repeatedly) until the width is at most this. */
#define HL_ENVIRONMENT_MAX_WIDTH 2048u

/** An environment made from floats (hl_environment_create). Zero = defaults where one is given. */
typedef struct hl_environment_desc {
    /** The image size: width 2..HL_TEXTURE_MAX_DIMENSION, height 1.. (images wider than
     * HL_ENVIRONMENT_MAX_WIDTH are reduced). @{ */
    uint32_t width, height;
    /** @} */
    /** Equirectangular linear RGB radiance, width * height * 3 floats (rows top to bottom), copied;
     * non-finite or negative values are refused. */
    const float *rgb;
    size_t rgb_count;      /**< floats readable at rgb (at least width * height * 3) */
    float intensity;       /**< radiance scale; 0 = 1; must be finite and >= 0 */
    float rotation;        /**< radians about +Y, counter-clockwise seen from above; 0 = none */
    uint32_t specular_size; /**< face size of the specular cubemap's mip 0: 16..512, a power of two;
                              0 = 128 */
    const char *label;      /**< for messages (copied); NULL = none */
} hl_environment_desc;

/** An environment with one reference from desc. HL_ERR_VALIDATION naming the field for a bad
 * desc. The pixels are copied. */
HL_API hl_result hl_environment_create(const hl_environment_desc *desc, hl_environment **out);
/** The built-in neutral studio environment (128 x 64, generated; intensity 1). */
HL_API hl_result hl_environment_create_default(hl_environment **out);
/** A Radiance .hdr file (RGBE, "-Y H +X W"), equirectangular. Errors as hl_texture_load_file:
 * HL_ERR_IO (path and reason), HL_ERR_PARSE (corrupt or truncated), HL_ERR_UNSUPPORTED (not an
 * HDR image: the message names what it is), HL_ERR_VALIDATION (too large). */
HL_API hl_result hl_environment_load_hdr(const char *path, hl_environment **out);
/** The same from memory (data only read during the call). */
HL_API hl_result hl_environment_load_hdr_memory(const void *data, size_t size, hl_environment **out);

/** Adds a reference (NULL is a no-op). Not atomic: one thread at a time. */
HL_API void hl_environment_retain(hl_environment *e);
/** Drops a reference; the last one frees the image (renderers drop their GPU maps later).
 * NULL is a no-op. */
HL_API void hl_environment_release(hl_environment *e);
/** References held (the creator's, stages', renderers'); 0 for NULL. */
HL_API uint32_t hl_environment_ref_count(const hl_environment *e);

/** Radiance scale (finite, >= 0; other values are ignored). Changing it does not rebuild. */
HL_API void hl_environment_set_intensity(hl_environment *e, float intensity);
/** The radiance scale; 0 for NULL. */
HL_API float hl_environment_intensity(const hl_environment *e);
/** Rotation about +Y in radians (finite; other values are ignored). Does not rebuild. */
HL_API void hl_environment_set_rotation(hl_environment *e, float radians);
/** The rotation about +Y in radians; 0 for NULL. */
HL_API float hl_environment_rotation(const hl_environment *e);

/** The kept image (after any reduction): width, height (both optional), and width * height * 3
 * floats owned by the environment. NULL (and sizes 0) for NULL. */
HL_API const float *hl_environment_pixels(const hl_environment *e, uint32_t *width, uint32_t *height);
/** The face size of the specular cubemap's mip 0 (resolved: 128 by default); 0 for NULL. */
HL_API uint32_t hl_environment_specular_size(const hl_environment *e);
/** Bumped when the pixels change (a renderer rebuilds its GPU maps then); 0 for NULL. */
HL_API uint64_t hl_environment_revision(const hl_environment *e);
/** The radiance arriving from direction (x, y, z) (any length > 0), bilinear in the kept image,
 * rotation and intensity applied: what the renderer's mirror reflection sees at roughness 0.
 * Black for NULL or a zero direction. */
HL_API void hl_environment_sample(const hl_environment *e, float x, float y, float z, float rgb[3]);

#ifdef __cplusplus
}
#endif

#endif
