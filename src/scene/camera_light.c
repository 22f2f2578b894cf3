/* Cameras (perspective / orthographic, WebGPU depth 0..1) and lights. */
#include <math.h>
#include <string.h>

#include <cglm/cglm.h>
#include <cglm/clipspace/ortho_rh_zo.h>
#include <cglm/clipspace/persp_rh_zo.h>

#include "scene_internal.h"

#define HL__DEG2RAD 0.017453292519943295f

/* ---- cameras ------------------------------------------------------------------------------- */

static hl_result hl__resolve_camera(const char *fn, const hl_camera_desc *in, hl_camera_desc *out) {
    hl_camera_desc d = in ? *in : (hl_camera_desc){0};
    d.name = NULL;
    if ((unsigned)d.projection > HL_PROJECTION_ORTHOGRAPHIC)
        return hl__fail(HL_ERR_VALIDATION, "%s: projection %d is invalid", fn, (int)d.projection);
    if (d.fov_y_deg == 0) d.fov_y_deg = 50.0f;
    if (d.aspect == 0) d.aspect = 1.0f;
    if (d.near_plane == 0) d.near_plane = 0.1f;
    if (d.far_plane == 0) d.far_plane = 1000.0f;
    if (d.left == 0 && d.right == 0 && d.bottom == 0 && d.top == 0) {
        d.left = -1;
        d.right = 1;
        d.bottom = -1;
        d.top = 1;
    }
    if (!(d.aspect > 0) || !isfinite(d.aspect))
        return hl__fail(HL_ERR_VALIDATION, "%s: aspect %g must be positive", fn, (double)d.aspect);
    if (d.projection == HL_PROJECTION_PERSPECTIVE) {
        if (!(d.fov_y_deg > 0 && d.fov_y_deg < 180))
            return hl__fail(HL_ERR_VALIDATION, "%s: fov_y_deg %g must be in (0, 180)", fn, (double)d.fov_y_deg);
        if (!(d.near_plane > 0))
            return hl__fail(HL_ERR_VALIDATION, "%s: near_plane %g must be positive for a perspective camera", fn,
                            (double)d.near_plane);
    } else {
        if (!(d.left != d.right) || !(d.bottom != d.top))
            return hl__fail(HL_ERR_VALIDATION, "%s: left/right (%g, %g) and bottom/top (%g, %g) must differ", fn,
                            (double)d.left, (double)d.right, (double)d.bottom, (double)d.top);
    }
    if (!(d.far_plane > d.near_plane) || !isfinite(d.far_plane))
        return hl__fail(HL_ERR_VALIDATION, "%s: far_plane %g must be greater than near_plane %g", fn,
                        (double)d.far_plane, (double)d.near_plane);
    *out = d;
    return HL_OK;
}

hl_result hl_camera_create(const hl_camera_desc *desc, hl_camera **out) {
    static const char fn[] = "hl_camera_create";
    if (!out) return hl__fail(HL_ERR_VALIDATION, "%s: out is NULL", fn);
    *out = NULL;
    hl_camera_desc d;
    hl_result r = hl__resolve_camera(fn, desc, &d);
    if (r) return r;
    hl_camera *c = hl__malloc(sizeof *c);
    if (!c) return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: out of memory", fn);
    memset(c, 0, sizeof *c);
    hl__node_init(&c->node, HL_NODE_CAMERA);
    if (!hl__set_string(&c->node.name, desc ? desc->name : NULL)) {
        hl__free(c);
        return HL_ERR_OUT_OF_MEMORY;
    }
    c->desc = d;
    c->proj_dirty = true;
    hl__camera_recompute(c); /* draws the first revision */
    *out = c;
    return HL_OK;
}

/* A typed camera pointer that is NULL or another node kind (a mesh cast through its node)
 * behaves like NULL everywhere below: only the hl_node head is read to tell. */
#define HL__CAMERA(c) hl__is_kind((c), HL_NODE_CAMERA)

hl_result hl_camera_check(const hl_camera *c) { return hl__check_node_kind("hl_camera_check", c, HL_NODE_CAMERA); }

hl_node *hl_camera_node(hl_camera *c) { return HL__CAMERA(c) ? &c->node : NULL; }
hl_camera *hl_node_camera(hl_node *n) { return n && n->kind == HL_NODE_CAMERA ? (hl_camera *)n : NULL; }

hl_result hl_camera_set_desc(hl_camera *c, const hl_camera_desc *desc) {
    hl_result res = hl__check_node_kind("hl_camera_set_desc", c, HL_NODE_CAMERA);
    if (res) return res;
    hl_camera_desc d;
    hl_result r = hl__resolve_camera("hl_camera_set_desc", desc, &d);
    if (r) return r;
    c->desc = d;
    c->proj_dirty = true;
    return HL_OK;
}

const hl_camera_desc *hl_camera_get_desc(const hl_camera *c) { return HL__CAMERA(c) ? &c->desc : NULL; }

void hl_camera_set_aspect(hl_camera *c, float aspect) {
    if (!HL__CAMERA(c) || !(aspect > 0) || !isfinite(aspect) || c->desc.aspect == aspect) return;
    c->desc.aspect = aspect;
    c->proj_dirty = true;
}

void hl__camera_recompute(hl_camera *c) {
    const hl_camera_desc *d = &c->desc;
    mat4 p;
    if (d->projection == HL_PROJECTION_PERSPECTIVE)
        glm_perspective_rh_zo(d->fov_y_deg * HL__DEG2RAD, d->aspect, d->near_plane, d->far_plane, p);
    else
        glm_ortho_rh_zo(d->left, d->right, d->bottom, d->top, d->near_plane, d->far_plane, p);
    memcpy(c->projection.m, p, sizeof(float) * 16);
    hl_mat4_inverse(&c->node.world, &c->view);
    c->view_projection = hl_mat4_mul(&c->projection, &c->view);
    c->frustum = hl_frustum_from_matrix(&c->view_projection);
    c->seen_world_revision = c->node.world_revision;
    c->proj_dirty = false;
    c->revision = hl__next_revision();
}

hl_result hl_camera_update(hl_camera *c) {
    hl_result r = hl__check_node_kind("hl_camera_update", c, HL_NODE_CAMERA);
    if (r) return r;
    hl_node_update_world(&c->node);
    if (c->proj_dirty || c->seen_world_revision != c->node.world_revision) hl__camera_recompute(c);
    return HL_OK;
}

const hl_mat4 *hl_camera_view(const hl_camera *c) { return HL__CAMERA(c) ? &c->view : NULL; }
const hl_mat4 *hl_camera_projection(const hl_camera *c) { return HL__CAMERA(c) ? &c->projection : NULL; }
const hl_mat4 *hl_camera_view_projection(const hl_camera *c) { return HL__CAMERA(c) ? &c->view_projection : NULL; }
const hl_frustum *hl_camera_frustum(const hl_camera *c) { return HL__CAMERA(c) ? &c->frustum : NULL; }
uint64_t hl_camera_revision(const hl_camera *c) { return HL__CAMERA(c) ? c->revision : 0; }

hl_vec3 hl_camera_project(const hl_camera *c, hl_vec3 world) {
    if (!HL__CAMERA(c)) return (hl_vec3){0, 0, 0};
    return hl_mat4_transform_point(&c->view_projection, world);
}

/* ---- lights -------------------------------------------------------------------------------- */

static hl_result hl__resolve_light(const char *fn, const hl_light_desc *in, hl_light_desc *out) {
    if (!in) return hl__fail(HL_ERR_VALIDATION, "%s: desc is NULL", fn);
    hl_light_desc d = *in;
    d.name = NULL;
    if ((unsigned)d.kind > HL_LIGHT_SPOT) return hl__fail(HL_ERR_VALIDATION, "%s: kind %d is invalid", fn, (int)d.kind);
    if (d.color.r == 0 && d.color.g == 0 && d.color.b == 0 && d.color.a == 0) d.color = (hl_color){1, 1, 1, 1};
    if (d.intensity == 0) d.intensity = 1.0f;
    if (d.outer_cone_deg == 0) d.outer_cone_deg = 30.0f;
    hl_shadow_desc *s = &d.shadow;
    if (s->bias == 0) s->bias = 0.005f;
    if (s->map_size == 0) s->map_size = 1024;
    if (s->ortho_size == 0) s->ortho_size = 10.0f;
    if (s->near_plane == 0) s->near_plane = 0.1f;
    if (s->far_plane == 0) s->far_plane = 100.0f;
    if (!(d.intensity >= 0) || !isfinite(d.intensity))
        return hl__fail(HL_ERR_VALIDATION, "%s: intensity %g must be a non-negative number", fn, (double)d.intensity);
    if (!(d.range >= 0) || !isfinite(d.range))
        return hl__fail(HL_ERR_VALIDATION, "%s: range %g must be >= 0 (0 = unlimited)", fn, (double)d.range);
    if (!(d.outer_cone_deg > 0 && d.outer_cone_deg <= 90))
        return hl__fail(HL_ERR_VALIDATION, "%s: outer_cone_deg %g must be in (0, 90]", fn, (double)d.outer_cone_deg);
    if (!(d.inner_cone_deg >= 0 && d.inner_cone_deg <= d.outer_cone_deg))
        return hl__fail(HL_ERR_VALIDATION, "%s: inner_cone_deg %g must be in [0, outer_cone_deg %g]", fn,
                        (double)d.inner_cone_deg, (double)d.outer_cone_deg);
    if (s->map_size < 16 || s->map_size > 8192)
        return hl__fail(HL_ERR_VALIDATION, "%s: shadow.map_size %u must be 16..8192", fn, s->map_size);
    if (!(s->far_plane > s->near_plane && s->near_plane > 0))
        return hl__fail(HL_ERR_VALIDATION, "%s: shadow.near_plane %g / far_plane %g must satisfy 0 < near < far", fn,
                        (double)s->near_plane, (double)s->far_plane);
    if (!(s->ortho_size > 0))
        return hl__fail(HL_ERR_VALIDATION, "%s: shadow.ortho_size %g must be positive", fn, (double)s->ortho_size);
    if (d.kind == HL_LIGHT_AMBIENT && d.cast_shadows)
        return hl__fail(HL_ERR_VALIDATION, "%s: an ambient light cannot cast shadows (cast_shadows is set)", fn);
    *out = d;
    return HL_OK;
}

hl_result hl_light_create(const hl_light_desc *desc, hl_light **out) {
    static const char fn[] = "hl_light_create";
    if (!out) return hl__fail(HL_ERR_VALIDATION, "%s: out is NULL", fn);
    *out = NULL;
    hl_light_desc d;
    hl_result r = hl__resolve_light(fn, desc, &d);
    if (r) return r;
    hl_light *l = hl__malloc(sizeof *l);
    if (!l) return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: out of memory", fn);
    memset(l, 0, sizeof *l);
    hl__node_init(&l->node, HL_NODE_LIGHT);
    if (!hl__set_string(&l->node.name, desc->name)) {
        hl__free(l);
        return HL_ERR_OUT_OF_MEMORY;
    }
    l->desc = d;
    l->revision = hl__next_revision();
    *out = l;
    return HL_OK;
}

/* A typed light pointer that is NULL or another node kind behaves like NULL everywhere below. */
#define HL__LIGHT(l) hl__is_kind((l), HL_NODE_LIGHT)

hl_result hl_light_check(const hl_light *l) { return hl__check_node_kind("hl_light_check", l, HL_NODE_LIGHT); }

hl_node *hl_light_node(hl_light *l) { return HL__LIGHT(l) ? &l->node : NULL; }
hl_light *hl_node_light(hl_node *n) { return n && n->kind == HL_NODE_LIGHT ? (hl_light *)n : NULL; }

hl_result hl_light_set_desc(hl_light *l, const hl_light_desc *desc) {
    hl_result res = hl__check_node_kind("hl_light_set_desc", l, HL_NODE_LIGHT);
    if (res) return res;
    hl_light_desc d;
    hl_result r = hl__resolve_light("hl_light_set_desc", desc, &d);
    if (r) return r;
    if (memcmp(&d, &l->desc, sizeof d) != 0) {
        l->desc = d;
        l->revision = hl__next_revision();
    }
    return HL_OK;
}

const hl_light_desc *hl_light_get_desc(const hl_light *l) { return HL__LIGHT(l) ? &l->desc : NULL; }

void hl_light_set_color(hl_light *l, hl_color c) {
    if (!HL__LIGHT(l) || memcmp(&c, &l->desc.color, sizeof c) == 0) return;
    l->desc.color = c;
    l->revision = hl__next_revision();
}

void hl_light_set_intensity(hl_light *l, float intensity) {
    if (!HL__LIGHT(l) || !(intensity >= 0) || !isfinite(intensity) || l->desc.intensity == intensity) return;
    l->desc.intensity = intensity;
    l->revision = hl__next_revision();
}

void hl_light_set_cast_shadows(hl_light *l, bool cast) {
    if (!HL__LIGHT(l) || l->desc.kind == HL_LIGHT_AMBIENT || l->desc.cast_shadows == cast) return;
    l->desc.cast_shadows = cast;
    l->revision = hl__next_revision();
}

hl_vec3 hl_light_direction(const hl_light *l) {
    if (!HL__LIGHT(l)) return (hl_vec3){0, 0, -1};
    hl_vec3 d = hl_vec3_normalize(hl_mat4_transform_dir(&l->node.world, (hl_vec3){0, 0, -1}));
    return (d.x == 0 && d.y == 0 && d.z == 0) ? (hl_vec3){0, 0, -1} : d;
}

hl_vec3 hl_light_position(const hl_light *l) { return hl_node_world_position(HL__LIGHT(l) ? &l->node : NULL); }
uint64_t hl_light_revision(const hl_light *l) { return HL__LIGHT(l) ? l->revision : 0; }
