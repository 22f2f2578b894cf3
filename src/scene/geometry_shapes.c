/* Box, sphere, plane and cylinder generators (POSITION, NORMAL, TANGENT, TEXCOORD_0, indices). */
#include <math.h>
#include <string.h>

#include "scene_internal.h"

#define HL__PI 3.14159265358979323846f

typedef struct hl__shape {
    uint32_t vertex_count, index_count;
    uint32_t nv, ni; /* written so far */
    float *pos, *nrm, *tan, *uv;
    uint32_t *idx;
} hl__shape;

/* count * size bytes, NULL when that overflows size_t or allocation fails. */
static void *hl__alloc_array(size_t count, size_t size) {
    size_t bytes;
    return hl__mul_size(count, size, &bytes) ? hl__malloc(bytes) : NULL;
}

/* vc and ic come from segment counts each generator bounds (at most 4097^2 vertices and
 * 6 * 4096^2 indices), so they fit uint32 and hl_geometry_create's limits. */
static hl_result hl__shape_alloc(hl__shape *s, uint32_t vc, uint32_t ic, const char *fn) {
    memset(s, 0, sizeof *s);
    if (vc > HL_GEOMETRY_MAX_VERTICES)
        return hl__fail(HL_ERR_VALIDATION, "%s: %u vertices exceed the limit of %u", fn, vc,
                        (uint32_t)HL_GEOMETRY_MAX_VERTICES);
    s->vertex_count = vc;
    s->index_count = ic;
    s->pos = hl__alloc_array(vc, sizeof(float) * 3);
    s->nrm = hl__alloc_array(vc, sizeof(float) * 3);
    s->tan = hl__alloc_array(vc, sizeof(float) * 4);
    s->uv = hl__alloc_array(vc, sizeof(float) * 2);
    s->idx = hl__alloc_array(ic, sizeof(uint32_t));
    if (!s->pos || !s->nrm || !s->tan || !s->uv || !s->idx) {
        hl__free(s->pos);
        hl__free(s->nrm);
        hl__free(s->tan);
        hl__free(s->uv);
        hl__free(s->idx);
        memset(s, 0, sizeof *s);
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: out of memory for %u vertices and %u indices", fn, vc, ic);
    }
    return HL_OK;
}

static void hl__vtx(hl__shape *s, hl_vec3 p, hl_vec3 n, hl_vec4 t, float u, float v) {
    uint32_t i = s->nv++;
    s->pos[i * 3 + 0] = p.x, s->pos[i * 3 + 1] = p.y, s->pos[i * 3 + 2] = p.z;
    s->nrm[i * 3 + 0] = n.x, s->nrm[i * 3 + 1] = n.y, s->nrm[i * 3 + 2] = n.z;
    s->tan[i * 4 + 0] = t.x, s->tan[i * 4 + 1] = t.y, s->tan[i * 4 + 2] = t.z, s->tan[i * 4 + 3] = t.w;
    s->uv[i * 2 + 0] = u, s->uv[i * 2 + 1] = v;
}

static void hl__tri(hl__shape *s, uint32_t a, uint32_t b, uint32_t c) {
    s->idx[s->ni++] = a;
    s->idx[s->ni++] = b;
    s->idx[s->ni++] = c;
}

/* Builds the geometry (UINT16 indices when every index fits) and frees the arrays. */
static hl_result hl__shape_finish(hl__shape *s, const char *label, hl_geometry **out) {
    hl_geometry_desc d = {0};
    d.vertex_count = s->nv;
    d.attributes[HL_ATTR_POSITION].data = s->pos;
    d.attributes[HL_ATTR_NORMAL].data = s->nrm;
    d.attributes[HL_ATTR_TANGENT].data = s->tan;
    d.attributes[HL_ATTR_TEXCOORD_0].data = s->uv;
    d.index_count = s->ni;
    d.label = label;
    uint16_t *idx16 = NULL;
    if (s->nv <= 65536) {
        idx16 = hl__alloc_array(s->ni ? s->ni : 1, sizeof(uint16_t));
        if (idx16) {
            for (uint32_t i = 0; i < s->ni; ++i)
                idx16[i] = (uint16_t)s->idx[i];
            d.indices = idx16;
            d.index_format = HL_INDEX_UINT16;
        }
    }
    if (!d.indices) {
        d.indices = s->idx;
        d.index_format = HL_INDEX_UINT32;
    }
    hl_result r = hl_geometry_create(&d, out);
    hl__free(idx16);
    hl__free(s->pos);
    hl__free(s->nrm);
    hl__free(s->tan);
    hl__free(s->uv);
    hl__free(s->idx);
    return r;
}

static bool hl__positive(float v) { return v > 0.0f && isfinite(v); }

hl_result hl_geometry_create_box(const hl_box_desc *desc, hl_geometry **out) {
    static const char fn[] = "hl_geometry_create_box";
    if (!out) return hl__fail(HL_ERR_VALIDATION, "%s: out is NULL", fn);
    *out = NULL;
    hl_box_desc d = desc ? *desc : (hl_box_desc){0};
    if (d.width == 0) d.width = 1;
    if (d.height == 0) d.height = 1;
    if (d.depth == 0) d.depth = 1;
    if (!hl__positive(d.width) || !hl__positive(d.height) || !hl__positive(d.depth))
        return hl__fail(HL_ERR_VALIDATION, "%s: width/height/depth (%g, %g, %g) must be positive", fn, (double)d.width,
                        (double)d.height, (double)d.depth);
    hl__shape s;
    hl_result r = hl__shape_alloc(&s, 24, 36, fn);
    if (r) return r;
    float hx = d.width * 0.5f, hy = d.height * 0.5f, hz = d.depth * 0.5f;
    /* each face: normal n, u axis (tangent) t, v axis b = n x t; corners counter-clockwise */
    static const float faces[6][9] = {
        {1, 0, 0, 0, 0, -1, 0, 1, 0},  /* +X */
        {-1, 0, 0, 0, 0, 1, 0, 1, 0},  /* -X */
        {0, 1, 0, 1, 0, 0, 0, 0, -1},  /* +Y */
        {0, -1, 0, 1, 0, 0, 0, 0, 1},  /* -Y */
        {0, 0, 1, 1, 0, 0, 0, 1, 0},   /* +Z */
        {0, 0, -1, -1, 0, 0, 0, 1, 0}, /* -Z */
    };
    for (int f = 0; f < 6; ++f) {
        hl_vec3 n = {faces[f][0], faces[f][1], faces[f][2]};
        hl_vec3 t = {faces[f][3], faces[f][4], faces[f][5]};
        hl_vec3 b = {faces[f][6], faces[f][7], faces[f][8]};
        uint32_t base = s.nv;
        for (int c = 0; c < 4; ++c) {
            float su = (c == 1 || c == 2) ? 1.0f : -1.0f; /* corners: (-,-) (+,-) (+,+) (-,+) */
            float sv = (c >= 2) ? 1.0f : -1.0f;
            hl_vec3 p = {(n.x + t.x * su + b.x * sv) * hx, (n.y + t.y * su + b.y * sv) * hy,
                         (n.z + t.z * su + b.z * sv) * hz};
            hl__vtx(&s, p, n, (hl_vec4){t.x, t.y, t.z, 1.0f}, (su + 1) * 0.5f, 1.0f - (sv + 1) * 0.5f);
        }
        hl__tri(&s, base, base + 1, base + 2);
        hl__tri(&s, base, base + 2, base + 3);
    }
    return hl__shape_finish(&s, "box", out);
}

hl_result hl_geometry_create_sphere(const hl_sphere_desc *desc, hl_geometry **out) {
    static const char fn[] = "hl_geometry_create_sphere";
    if (!out) return hl__fail(HL_ERR_VALIDATION, "%s: out is NULL", fn);
    *out = NULL;
    hl_sphere_desc d = desc ? *desc : (hl_sphere_desc){0};
    if (d.radius == 0) d.radius = 0.5f;
    if (d.width_segments == 0) d.width_segments = 32;
    if (d.height_segments == 0) d.height_segments = 16;
    if (!hl__positive(d.radius))
        return hl__fail(HL_ERR_VALIDATION, "%s: radius %g must be positive", fn, (double)d.radius);
    if (d.width_segments < 3 || d.width_segments > 1024)
        return hl__fail(HL_ERR_VALIDATION, "%s: width_segments %u must be 3..1024", fn, d.width_segments);
    if (d.height_segments < 2 || d.height_segments > 1024)
        return hl__fail(HL_ERR_VALIDATION, "%s: height_segments %u must be 2..1024", fn, d.height_segments);
    uint32_t ws = d.width_segments, hs = d.height_segments;
    hl__shape s;
    hl_result r = hl__shape_alloc(&s, (ws + 1) * (hs + 1), 6 * ws * (hs - 1), fn);
    if (r) return r;
    for (uint32_t y = 0; y <= hs; ++y) {
        float v = (float)y / (float)hs, theta = v * HL__PI; /* 0 at +Y */
        for (uint32_t x = 0; x <= ws; ++x) {
            float u = (float)x / (float)ws, phi = u * 2.0f * HL__PI;
            hl_vec3 n = {-cosf(phi) * sinf(theta), cosf(theta), sinf(phi) * sinf(theta)};
            /* tangent = d(position)/du, horizontal; well defined at the poles too */
            hl_vec4 t = {sinf(phi), 0.0f, cosf(phi), 1.0f};
            hl__vtx(&s, (hl_vec3){n.x * d.radius, n.y * d.radius, n.z * d.radius}, n, t, u, v);
        }
    }
    for (uint32_t y = 0; y < hs; ++y) {
        for (uint32_t x = 0; x < ws; ++x) {
            uint32_t a = y * (ws + 1) + x, b = a + 1, c = a + ws + 1, e = c + 1;
            if (y != 0) hl__tri(&s, b, a, e);
            if (y != hs - 1) hl__tri(&s, a, c, e);
        }
    }
    return hl__shape_finish(&s, "sphere", out);
}

hl_result hl_geometry_create_plane(const hl_plane_desc *desc, hl_geometry **out) {
    static const char fn[] = "hl_geometry_create_plane";
    if (!out) return hl__fail(HL_ERR_VALIDATION, "%s: out is NULL", fn);
    *out = NULL;
    hl_plane_desc d = desc ? *desc : (hl_plane_desc){0};
    if (d.width == 0) d.width = 1;
    if (d.height == 0) d.height = 1;
    if (d.width_segments == 0) d.width_segments = 1;
    if (d.height_segments == 0) d.height_segments = 1;
    if (!hl__positive(d.width) || !hl__positive(d.height))
        return hl__fail(HL_ERR_VALIDATION, "%s: width/height (%g, %g) must be positive", fn, (double)d.width,
                        (double)d.height);
    if (d.width_segments > 4096 || d.height_segments > 4096)
        return hl__fail(HL_ERR_VALIDATION, "%s: width_segments/height_segments (%u, %u) must be at most 4096", fn,
                        d.width_segments, d.height_segments);
    uint32_t ws = d.width_segments, hs = d.height_segments;
    hl__shape s;
    hl_result r = hl__shape_alloc(&s, (ws + 1) * (hs + 1), 6 * ws * hs, fn);
    if (r) return r;
    for (uint32_t y = 0; y <= hs; ++y) {
        float v = (float)y / (float)hs;
        for (uint32_t x = 0; x <= ws; ++x) {
            float u = (float)x / (float)ws;
            hl__vtx(&s, (hl_vec3){(u - 0.5f) * d.width, (0.5f - v) * d.height, 0.0f}, (hl_vec3){0, 0, 1},
                    (hl_vec4){1, 0, 0, 1}, u, v);
        }
    }
    for (uint32_t y = 0; y < hs; ++y) {
        for (uint32_t x = 0; x < ws; ++x) {
            uint32_t a = y * (ws + 1) + x, b = a + 1, c = a + ws + 1, e = c + 1;
            /* rows go down (-Y): a b / c e, counter-clockwise seen from +Z */
            hl__tri(&s, a, c, b);
            hl__tri(&s, b, c, e);
        }
    }
    return hl__shape_finish(&s, "plane", out);
}

hl_result hl_geometry_create_cylinder(const hl_cylinder_desc *desc, hl_geometry **out) {
    static const char fn[] = "hl_geometry_create_cylinder";
    if (!out) return hl__fail(HL_ERR_VALIDATION, "%s: out is NULL", fn);
    *out = NULL;
    hl_cylinder_desc d = desc ? *desc : (hl_cylinder_desc){0};
    if (d.radius_top == 0) d.radius_top = 0.5f;
    if (d.radius_bottom == 0) d.radius_bottom = 0.5f;
    if (d.height == 0) d.height = 1;
    if (d.radial_segments == 0) d.radial_segments = 16;
    if (d.height_segments == 0) d.height_segments = 1;
    if (!hl__positive(d.radius_top) || !hl__positive(d.radius_bottom) || !hl__positive(d.height))
        return hl__fail(HL_ERR_VALIDATION, "%s: radius_top/radius_bottom/height (%g, %g, %g) must be positive", fn,
                        (double)d.radius_top, (double)d.radius_bottom, (double)d.height);
    if (d.radial_segments < 3 || d.radial_segments > 1024)
        return hl__fail(HL_ERR_VALIDATION, "%s: radial_segments %u must be 3..1024", fn, d.radial_segments);
    if (d.height_segments > 1024)
        return hl__fail(HL_ERR_VALIDATION, "%s: height_segments %u must be at most 1024", fn, d.height_segments);
    uint32_t rs = d.radial_segments, hs = d.height_segments;
    uint32_t vc = (rs + 1) * (hs + 1) + (d.open_ended ? 0 : 2 * (rs + 2));
    uint32_t ic = 6 * rs * hs + (d.open_ended ? 0 : 6 * rs);
    hl__shape s;
    hl_result r = hl__shape_alloc(&s, vc, ic, fn);
    if (r) return r;
    float half = d.height * 0.5f;
    float slope = (d.radius_bottom - d.radius_top) / d.height;
    for (uint32_t y = 0; y <= hs; ++y) {
        float v = (float)y / (float)hs;
        float radius = d.radius_top + (d.radius_bottom - d.radius_top) * v;
        for (uint32_t x = 0; x <= rs; ++x) {
            float u = (float)x / (float)rs, a = u * 2.0f * HL__PI;
            float sa = sinf(a), ca = cosf(a);
            hl_vec3 n = hl_vec3_normalize((hl_vec3){sa, slope, ca});
            hl__vtx(&s, (hl_vec3){radius * sa, half - v * d.height, radius * ca}, n, (hl_vec4){ca, 0.0f, -sa, 1.0f}, u,
                    v);
        }
    }
    for (uint32_t y = 0; y < hs; ++y) {
        for (uint32_t x = 0; x < rs; ++x) {
            uint32_t a = y * (rs + 1) + x, b = a + 1, c = a + rs + 1, e = c + 1;
            hl__tri(&s, a, c, b);
            hl__tri(&s, b, c, e);
        }
    }
    if (!d.open_ended) {
        for (int top = 1; top >= 0; --top) {
            float y = top ? half : -half, radius = top ? d.radius_top : d.radius_bottom, sign = top ? 1.0f : -1.0f;
            hl_vec3 n = {0, sign, 0};
            uint32_t center = s.nv;
            hl__vtx(&s, (hl_vec3){0, y, 0}, n, (hl_vec4){1, 0, 0, 1}, 0.5f, 0.5f);
            for (uint32_t x = 0; x <= rs; ++x) {
                float a = (float)x / (float)rs * 2.0f * HL__PI, sa = sinf(a), ca = cosf(a);
                hl__vtx(&s, (hl_vec3){radius * sa, y, radius * ca}, n, (hl_vec4){1, 0, 0, 1}, 0.5f + sa * 0.5f,
                        0.5f - ca * 0.5f * sign);
            }
            for (uint32_t x = 0; x < rs; ++x) {
                if (top)
                    hl__tri(&s, center, center + 1 + x, center + 2 + x);
                else
                    hl__tri(&s, center, center + 2 + x, center + 1 + x);
            }
        }
    }
    return hl__shape_finish(&s, "cylinder", out);
}
