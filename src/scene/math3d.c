/* hl_mat4 / hl_quat helpers on top of cglm. hl_mat4 is copied into properly aligned cglm
 * locals, so public structs need no alignment and any allocator works. */
#include <math.h>
#include <string.h>

#include <cglm/cglm.h>

#include "scene_internal.h"

static void hl__to_glm(const hl_mat4 *m, mat4 out) { memcpy(out, m->m, sizeof(float) * 16); }
static hl_mat4 hl__from_glm(mat4 m) {
    hl_mat4 r;
    memcpy(r.m, m, sizeof(float) * 16);
    return r;
}

hl_mat4 hl_mat4_identity(void) {
    hl_mat4 r = {{0}};
    r.m[0] = r.m[5] = r.m[10] = r.m[15] = 1.0f;
    return r;
}

hl_mat4 hl_mat4_mul(const hl_mat4 *a, const hl_mat4 *b) {
    mat4 ga, gb, gr;
    hl__to_glm(a, ga);
    hl__to_glm(b, gb);
    glm_mat4_mul(ga, gb, gr);
    return hl__from_glm(gr);
}

bool hl_mat4_inverse(const hl_mat4 *m, hl_mat4 *out) {
    mat4 g, inv;
    hl__to_glm(m, g);
    float det = glm_mat4_det(g);
    if (!(fabsf(det) > 1e-30f) || !isfinite(det)) {
        *out = hl_mat4_identity();
        return false;
    }
    glm_mat4_inv_precise(g, inv);
    *out = hl__from_glm(inv);
    return true;
}

hl_mat4 hl_mat4_from_trs(hl_vec3 t, hl_quat r, hl_vec3 s) {
    /* columns of R scaled by S, translation in column 3 */
    float x = r.x, y = r.y, z = r.z, w = r.w;
    float xx = x * x, yy = y * y, zz = z * z, xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y, wz = w * z;
    hl_mat4 m;
    m.m[0] = (1 - 2 * (yy + zz)) * s.x;
    m.m[1] = (2 * (xy + wz)) * s.x;
    m.m[2] = (2 * (xz - wy)) * s.x;
    m.m[3] = 0;
    m.m[4] = (2 * (xy - wz)) * s.y;
    m.m[5] = (1 - 2 * (xx + zz)) * s.y;
    m.m[6] = (2 * (yz + wx)) * s.y;
    m.m[7] = 0;
    m.m[8] = (2 * (xz + wy)) * s.z;
    m.m[9] = (2 * (yz - wx)) * s.z;
    m.m[10] = (1 - 2 * (xx + yy)) * s.z;
    m.m[11] = 0;
    m.m[12] = t.x;
    m.m[13] = t.y;
    m.m[14] = t.z;
    m.m[15] = 1;
    return m;
}

hl_vec4 hl_mat4_transform_vec4(const hl_mat4 *m, hl_vec4 p) {
    const float *a = m->m;
    hl_vec4 r;
    r.x = a[0] * p.x + a[4] * p.y + a[8] * p.z + a[12] * p.w;
    r.y = a[1] * p.x + a[5] * p.y + a[9] * p.z + a[13] * p.w;
    r.z = a[2] * p.x + a[6] * p.y + a[10] * p.z + a[14] * p.w;
    r.w = a[3] * p.x + a[7] * p.y + a[11] * p.z + a[15] * p.w;
    return r;
}

hl_vec3 hl_mat4_transform_point(const hl_mat4 *m, hl_vec3 p) {
    hl_vec4 r = hl_mat4_transform_vec4(m, (hl_vec4){p.x, p.y, p.z, 1.0f});
    if (r.w != 0.0f && r.w != 1.0f) return (hl_vec3){r.x / r.w, r.y / r.w, r.z / r.w};
    return (hl_vec3){r.x, r.y, r.z};
}

hl_vec3 hl_mat4_transform_dir(const hl_mat4 *m, hl_vec3 d) {
    hl_vec4 r = hl_mat4_transform_vec4(m, (hl_vec4){d.x, d.y, d.z, 0.0f});
    return (hl_vec3){r.x, r.y, r.z};
}

hl_mat4 hl_mat4_clip_zo_to_no(const hl_mat4 *proj) {
    hl_mat4 fix = hl_mat4_identity();
    fix.m[10] = 2.0f; /* z' = 2z - w */
    fix.m[14] = -1.0f;
    return hl_mat4_mul(&fix, proj);
}

hl_quat hl_quat_identity(void) { return (hl_quat){0, 0, 0, 1}; }

hl_quat hl_quat_from_axis_angle(hl_vec3 axis, float radians) {
    hl_vec3 a = hl_vec3_normalize(axis);
    if (a.x == 0 && a.y == 0 && a.z == 0) return hl_quat_identity();
    float s = sinf(radians * 0.5f);
    return (hl_quat){a.x * s, a.y * s, a.z * s, cosf(radians * 0.5f)};
}

hl_quat hl_quat_mul(hl_quat a, hl_quat b) {
    versor ga = {a.x, a.y, a.z, a.w}, gb = {b.x, b.y, b.z, b.w}, gr;
    glm_quat_mul(ga, gb, gr);
    return (hl_quat){gr[0], gr[1], gr[2], gr[3]};
}

hl_quat hl_quat_from_euler(float x, float y, float z) {
    /* intrinsic X, Y, Z = extrinsic Z, Y, X: q = qx * qy * qz */
    hl_quat qx = hl_quat_from_axis_angle((hl_vec3){1, 0, 0}, x);
    hl_quat qy = hl_quat_from_axis_angle((hl_vec3){0, 1, 0}, y);
    hl_quat qz = hl_quat_from_axis_angle((hl_vec3){0, 0, 1}, z);
    return hl_quat_mul(hl_quat_mul(qx, qy), qz);
}

hl_quat hl_quat_normalize(hl_quat q) {
    float len = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    if (!(len > 0.0f) || !isfinite(len)) return hl_quat_identity();
    return (hl_quat){q.x / len, q.y / len, q.z / len, q.w / len};
}

hl_vec3 hl_quat_rotate(hl_quat q, hl_vec3 v) {
    versor g = {q.x, q.y, q.z, q.w};
    vec3 in = {v.x, v.y, v.z}, out;
    glm_quat_rotatev(g, in, out);
    return (hl_vec3){out[0], out[1], out[2]};
}

float hl_vec3_dot(hl_vec3 a, hl_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
float hl_vec3_length(hl_vec3 v) { return sqrtf(hl_vec3_dot(v, v)); }
hl_vec3 hl_vec3_cross(hl_vec3 a, hl_vec3 b) {
    return (hl_vec3){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
hl_vec3 hl_vec3_normalize(hl_vec3 v) {
    float len = hl_vec3_length(v);
    if (!(len > 0.0f)) return (hl_vec3){0, 0, 0};
    return (hl_vec3){v.x / len, v.y / len, v.z / len};
}

bool hl_aabb_is_empty(const hl_aabb *b) { return b->min.x > b->max.x || b->min.y > b->max.y || b->min.z > b->max.z; }

void hl_aabb_merge(hl_aabb *box, const hl_aabb *b) {
    if (hl_aabb_is_empty(b)) return;
    box->min.x = fminf(box->min.x, b->min.x), box->min.y = fminf(box->min.y, b->min.y);
    box->min.z = fminf(box->min.z, b->min.z);
    box->max.x = fmaxf(box->max.x, b->max.x), box->max.y = fmaxf(box->max.y, b->max.y);
    box->max.z = fmaxf(box->max.z, b->max.z);
}

hl_aabb hl_aabb_transform(const hl_aabb *box, const hl_mat4 *m) {
    if (hl_aabb_is_empty(box)) return *box;
    /* Arvo: centre + |M| * extent */
    hl_vec3 c = {(box->min.x + box->max.x) * 0.5f, (box->min.y + box->max.y) * 0.5f, (box->min.z + box->max.z) * 0.5f};
    hl_vec3 e = {(box->max.x - box->min.x) * 0.5f, (box->max.y - box->min.y) * 0.5f, (box->max.z - box->min.z) * 0.5f};
    hl_vec3 wc = hl_mat4_transform_point(m, c);
    const float *a = m->m;
    hl_vec3 we = {fabsf(a[0]) * e.x + fabsf(a[4]) * e.y + fabsf(a[8]) * e.z,
                  fabsf(a[1]) * e.x + fabsf(a[5]) * e.y + fabsf(a[9]) * e.z,
                  fabsf(a[2]) * e.x + fabsf(a[6]) * e.y + fabsf(a[10]) * e.z};
    return (hl_aabb){{wc.x - we.x, wc.y - we.y, wc.z - we.z}, {wc.x + we.x, wc.y + we.y, wc.z + we.z}};
}

hl_sphere hl_sphere_transform(const hl_sphere *s, const hl_mat4 *m) {
    const float *a = m->m;
    float sx = a[0] * a[0] + a[1] * a[1] + a[2] * a[2];
    float sy = a[4] * a[4] + a[5] * a[5] + a[6] * a[6];
    float sz = a[8] * a[8] + a[9] * a[9] + a[10] * a[10];
    float smax = sqrtf(fmaxf(sx, fmaxf(sy, sz)));
    return (hl_sphere){hl_mat4_transform_point(m, s->center), s->radius * smax};
}

hl_frustum hl_frustum_from_matrix(const hl_mat4 *vp) {
    const float *a = vp->m;
    /* row i of the column-major matrix */
    hl_vec4 r0 = {a[0], a[4], a[8], a[12]}, r1 = {a[1], a[5], a[9], a[13]}, r2 = {a[2], a[6], a[10], a[14]},
            r3 = {a[3], a[7], a[11], a[15]};
    hl_frustum f;
    f.planes[0] = (hl_vec4){r3.x + r0.x, r3.y + r0.y, r3.z + r0.z, r3.w + r0.w}; /* left:  x >= -w */
    f.planes[1] = (hl_vec4){r3.x - r0.x, r3.y - r0.y, r3.z - r0.z, r3.w - r0.w}; /* right: x <= w */
    f.planes[2] = (hl_vec4){r3.x + r1.x, r3.y + r1.y, r3.z + r1.z, r3.w + r1.w}; /* bottom */
    f.planes[3] = (hl_vec4){r3.x - r1.x, r3.y - r1.y, r3.z - r1.z, r3.w - r1.w}; /* top */
    f.planes[4] = r2;                                                            /* near: z >= 0 */
    f.planes[5] = (hl_vec4){r3.x - r2.x, r3.y - r2.y, r3.z - r2.z, r3.w - r2.w}; /* far: z <= w */
    for (int i = 0; i < 6; ++i) {
        hl_vec4 *p = &f.planes[i];
        float len = sqrtf(p->x * p->x + p->y * p->y + p->z * p->z);
        if (len > 0.0f) {
            p->x /= len;
            p->y /= len;
            p->z /= len;
            p->w /= len;
        }
    }
    return f;
}

bool hl_frustum_test_sphere(const hl_frustum *f, const hl_sphere *s) {
    for (int i = 0; i < 6; ++i) {
        const hl_vec4 *p = &f->planes[i];
        if (p->x * s->center.x + p->y * s->center.y + p->z * s->center.z + p->w < -s->radius) return false;
    }
    return true;
}

bool hl_frustum_test_aabb(const hl_frustum *f, const hl_aabb *b) {
    if (hl_aabb_is_empty(b)) return false;
    for (int i = 0; i < 6; ++i) {
        const hl_vec4 *p = &f->planes[i];
        /* the corner furthest along the plane normal */
        float x = p->x >= 0 ? b->max.x : b->min.x;
        float y = p->y >= 0 ? b->max.y : b->min.y;
        float z = p->z >= 0 ? b->max.z : b->min.z;
        if (p->x * x + p->y * y + p->z * z + p->w < 0) return false;
    }
    return true;
}
