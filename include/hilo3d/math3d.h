/** @file
 * hilo3d: plain math types shared by the scene API (no cglm needed to use them).
 *
 * Conventions:
 * - Right-handed world, +Y up, a camera looks down its local -Z.
 * - hl_mat4 is column-major: m[col * 4 + row], the same memory order as GLSL and cglm, so a
 *   matrix can be copied straight into a std140 mat4.
 * - Clip space is WebGPU's: x, y in [-1, 1], depth z/w in [0, 1] (hl_mat4_clip_zo_to_no turns
 *   such a projection into OpenGL's [-1, 1] depth for the gles3 path).
 * - Quaternions are (x, y, z, w) with w the real part; identity is {0, 0, 0, 1}.
 */
#ifndef HILO3D_MATH3D_H
#define HILO3D_MATH3D_H

#include <stdbool.h>
#include <stdint.h>

#include "hilo3d/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A 2D vector (texture coordinates, sizes). */
typedef struct hl_vec2 { /** @{ */ float x, y; /**< the components, in order */ /** @} */ } hl_vec2;
/** A 3D point, direction or scale. */
typedef struct hl_vec3 { /** @{ */ float x, y, z; /**< the components, in order */ /** @} */ } hl_vec3;
/** A 4D vector: homogeneous points, planes (xyz normal, w distance). */
typedef struct hl_vec4 { /** @{ */ float x, y, z, w; /**< the components, in order */ /** @} */ } hl_vec4;
/** A rotation quaternion: (x, y, z) the imaginary part, w the real part; identity {0, 0, 0, 1}. */
typedef struct hl_quat { /** @{ */ float x, y, z, w; /**< components (w real) */ /** @} */ } hl_quat;
/** Linear RGBA colour. */
typedef struct hl_color { /** @{ */ float r, g, b, a; /**< linear channels; a = 1 is opaque */ /** @} */ } hl_color;
/** A 4x4 matrix, column-major. */
typedef struct hl_mat4 { float m[16]; /**< m[col * 4 + row] (translation in m[12..14]) */ } hl_mat4;

/** An axis-aligned box; empty when min > max on any axis. */
typedef struct hl_aabb { /** @{ */ hl_vec3 min, max; /**< opposite corners, min <= max when not empty */ /** @} */ } hl_aabb;
/** A bounding sphere. */
typedef struct hl_sphere { hl_vec3 center; /**< in the space of what it bounds */ float radius; /**< radius (>= 0) */ } hl_sphere;

/** Six planes (x, y, z) = inward normal, w = distance: a point p is inside a plane when
 * dot(xyz, p) + w >= 0. Order: left, right, bottom, top, near, far. */
typedef struct hl_frustum { hl_vec4 planes[6]; /**< left, right, bottom, top, near, far */ } hl_frustum;

/** The identity matrix. */
HL_API hl_mat4 hl_mat4_identity(void);
/** a * b: the transform that applies b, then a. */
HL_API hl_mat4 hl_mat4_mul(const hl_mat4 *a, const hl_mat4 *b);
/** The inverse of m into *out; false (and identity in *out) when m is singular. */
HL_API bool hl_mat4_inverse(const hl_mat4 *m, hl_mat4 *out);
/** T * R * S: scale s, then rotation r (taken as given, not normalised), then translation t. */
HL_API hl_mat4 hl_mat4_from_trs(hl_vec3 t, hl_quat r, hl_vec3 s);
/** m * (p, 1) with the perspective divide by w (w == 0 leaves xyz undivided). */
HL_API hl_vec3 hl_mat4_transform_point(const hl_mat4 *m, hl_vec3 p);
/** m * (p, 1) without divide. */
HL_API hl_vec4 hl_mat4_transform_vec4(const hl_mat4 *m, hl_vec4 p);
/** m * (d, 0): a direction, not normalised. */
HL_API hl_vec3 hl_mat4_transform_dir(const hl_mat4 *m, hl_vec3 d);
/** Multiplies a depth-[0,1] projection by the matrix that maps z to [-1,1] (z' = 2z - w). */
HL_API hl_mat4 hl_mat4_clip_zo_to_no(const hl_mat4 *proj);

/** The identity rotation {0, 0, 0, 1}. */
HL_API hl_quat hl_quat_identity(void);
/** Rotation of `radians` around axis (normalised here; a zero axis gives identity). */
HL_API hl_quat hl_quat_from_axis_angle(hl_vec3 axis, float radians);
/** Intrinsic X then Y then Z rotation in radians (same as three.js 'XYZ' order). */
HL_API hl_quat hl_quat_from_euler(float x, float y, float z);
/** a * b: the rotation b, then a. */
HL_API hl_quat hl_quat_mul(hl_quat a, hl_quat b);
/** q scaled to unit length; identity for a zero or non-finite q. */
HL_API hl_quat hl_quat_normalize(hl_quat q);
/** v rotated by q (a unit quaternion). */
HL_API hl_vec3 hl_quat_rotate(hl_quat q, hl_vec3 v);

/** v scaled to unit length; zero stays zero. */
HL_API hl_vec3 hl_vec3_normalize(hl_vec3 v);
/** The dot product. */
HL_API float hl_vec3_dot(hl_vec3 a, hl_vec3 b);
/** The cross product a x b (right-handed). */
HL_API hl_vec3 hl_vec3_cross(hl_vec3 a, hl_vec3 b);
/** The Euclidean length. */
HL_API float hl_vec3_length(hl_vec3 v);

/** Bounds of the 8 transformed corners. An empty box (min > max) stays empty. */
HL_API hl_aabb hl_aabb_transform(const hl_aabb *box, const hl_mat4 *m);
/** true when min > max on any axis. */
HL_API bool hl_aabb_is_empty(const hl_aabb *box);
/** Grows *box to contain b (an empty b changes nothing). */
HL_API void hl_aabb_merge(hl_aabb *box, const hl_aabb *b);
/** Centre transformed, radius scaled by the largest axis scale of m. */
HL_API hl_sphere hl_sphere_transform(const hl_sphere *s, const hl_mat4 *m);

/** Planes of a view-projection matrix in WebGPU clip space (depth 0..1), normalised. */
HL_API hl_frustum hl_frustum_from_matrix(const hl_mat4 *view_proj);
/** false when the sphere lies entirely outside one plane (conservative: may keep some
 * spheres outside near the frustum's corners). */
HL_API bool hl_frustum_test_sphere(const hl_frustum *f, const hl_sphere *s);
/** false when the box lies entirely outside one plane, or is empty (conservative like
 * hl_frustum_test_sphere). */
HL_API bool hl_frustum_test_aabb(const hl_frustum *f, const hl_aabb *box);

#ifdef __cplusplus
}
#endif

#endif
