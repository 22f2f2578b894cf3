/* One world of the randomized differential scenes (see hl_scene_gen.h): a renderer and its own
 * copy of every scene object, driven by the world's own PRNG. Every decision reads only the
 * generator's bookkeeping (never a call's result), so worlds seeded alike stay in lockstep.
 *
 * Bookkeeping: geometries, materials and targets live in record pools. A record is "active"
 * while the generator may pick it for new uses and mutate it; "destroying" an object releases
 * the generator's reference and retires the record, which stays while meshes still use the
 * object (the engine keeps it alive through the mesh), so the generator always knows what every
 * mesh draws: its attributes, and which render targets its material samples.
 *
 * Contracts the generator keeps (the API's, not work-arounds):
 *   - a view never renders into a target that a material of its stage samples (any mesh of the
 *     stage, visible or not), except for the deliberate misuse check, which expects
 *     HL_ERR_VALIDATION;
 *   - a target is rendered (from stage 0, whose materials never sample targets) in the frame it
 *     is created or resized, before any view can sample it, so no undefined content is sampled;
 *   - a shader material is only drawn with geometries that have the attributes it reads, and
 *     its uniform blocks are registered before the first render;
 *   - present only copies a target of the output's size and format. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "hilo3d/gltf.h"
#include "hl_scene_gen.h"
#include "hl_test.h"
#include "hl_test_pipeline.h"

/* render_internal.h, for tests: the view size from which the frontend splits its loops across
 * its threads (4,096 by default; the generator lowers it so small views take the threaded
 * paths, compared with a renderer on one thread) */
void hl__renderer_set_parallel_min(hl_renderer *r, uint32_t n);

enum {
    MAX_GEO = 40,       /* geometry records (active + retired) */
    ACTIVE_GEO = 14,
    MAX_TEX = 14,
    MAX_MAT = 72,       /* material records */
    ACTIVE_MAT = 24,
    MAX_TGT = 5,
    MAX_STAGES = 3,
    MAX_GROUPS = 6,
    MAX_LIGHTS = 10,
    MAX_ASSETS = 4, /* glTF assets per stage (opt.gltf) */
    MAX_MESHES = 400,   /* hard cap per stage (options cap lower) */
    MAX_IMAGES = 64,
    MAX_OPS = 12,       /* views of one frame */
    MAT_BINDINGS = 5,   /* texture bindings tracked per material */
    PROGRAM_COUNT = 6,
    SCHEMA_COUNT = 5,
    UB_PER_SCHEMA = 3,
};

#define ATTR(a) (1u << (a))
#define POS ATTR(HL_ATTR_POSITION)
#define NRM ATTR(HL_ATTR_NORMAL)
#define TAN ATTR(HL_ATTR_TANGENT)
#define UV0 ATTR(HL_ATTR_TEXCOORD_0)
#define UV1 ATTR(HL_ATTR_TEXCOORD_1)
#define COL ATTR(HL_ATTR_COLOR_0)

typedef struct gen_geo {
    hl_geometry *g;
    bool used;   /* record in use (active or retired with users) */
    bool active;
    uint32_t users; /* meshes using it */
    uint32_t attrs;
    uint32_t vertex_count;
    bool dynamic;
    hl_component_type pos_type;
    uint32_t pos_comps;
    uint32_t serial;
} gen_geo;

typedef struct gen_tex {
    hl_texture *t;
    uint32_t w, h;
} gen_tex;

typedef struct gen_mat {
    hl_material *m;
    bool used, active;
    uint32_t users;
    hl_material_kind kind;
    bool rtt;              /* may sample render targets (never used in stage 0) */
    uint32_t program;      /* shader materials: the source */
    uint32_t needs;        /* attributes the material's shader reads (shader materials) */
    uint32_t sampled[MAT_BINDINGS]; /* target serial sampled by each binding, 0 = none */
    uint32_t serial;
} gen_mat;

typedef struct gen_target {
    hl_render_target *t;
    uint32_t serial; /* 0 = empty slot */
    uint32_t w, h, count, samples;
    hl_target_format formats[4];
    bool no_depth;
    bool fresh;      /* created or resized: needs its first render */
    bool written;    /* written in this frame */
} gen_target;

typedef struct gen_mesh {
    hl_mesh *mesh;
    uint32_t geo, mat; /* records */
    int32_t parent;    /* group index, -1 = root */
    bool instanced;
} gen_mesh;

typedef struct gen_stage {
    hl_stage *s;
    hl_camera *cam[2]; /* perspective, orthographic (both in the stage) */
    hl_node *groups[MAX_GROUPS];
    uint32_t group_count;
    gen_mesh meshes[MAX_MESHES];
    uint32_t mesh_count;
    hl_light *lights[MAX_LIGHTS];
    uint32_t light_count;
    hl_gltf_asset *assets[MAX_ASSETS]; /* opt.gltf: loaded assets, their roots in the stage */
    bool animated[MAX_ASSETS];
    uint32_t asset_count;
} gen_stage;

typedef enum op_kind { OP_OUTPUT, OP_TARGET, OP_PRESENT } op_kind;

typedef struct gen_op {
    op_kind kind;
    uint32_t stage, cam, target;
    bool free_cam;      /* the world's camera outside every stage */
    uint32_t cam_stage; /* the stage whose camera is used (another stage's now and then) */
    bool match_aspect;  /* set the camera's aspect to the view's */
} gen_op;

struct hl_gen_world {
    hl_gen_options opt;
    hl_backend backend;
    hl_gen_rng rng;
    hl_gen_rng gltf_rng; /* opt.gltf's own stream */
    hl_gen_rng env_rng;  /* opt.env's own stream */
    hl_gen_rng loss_rng; /* opt.loss's own stream */
    hl_gen_rng thread_rng; /* the frontend threads' own stream (the other streams unchanged by it) */
    uint32_t losses;     /* opt.loss: losses so far */
    hl_renderer *r;
    uint32_t out_w, out_h, samples, atlas;
    uint32_t frame;
    uint32_t serial; /* object serials (targets, materials, geometries) */
    uint32_t unique; /* unique shader-source counter */

    gen_geo geos[MAX_GEO];
    gen_tex texs[MAX_TEX];
    uint32_t tex_count;
    hl_uniform_buffer *ubs[SCHEMA_COUNT][UB_PER_SCHEMA];
    gen_mat mats[MAX_MAT];
    gen_target tgts[MAX_TGT];
    gen_stage stages[MAX_STAGES];
    uint32_t stage_count;
    hl_camera *free_cam;
    hl_stage *blank; /* an empty stage (--avoid mrt-blend) */
    hl_camera *blank_cam;

    /* this frame */
    gen_op ops[MAX_OPS];
    uint32_t op_count;
    bool output_written;
    uint32_t output_ops; /* render calls of this frame into the output (renders and presents) */
    hl_gen_image images[MAX_IMAGES];
    uint32_t image_count;
    uint32_t views;
    uint32_t failures;
    char failure[640];
};

/* ---- failures ----------------------------------------------------------------------------------- */
static void fail(hl_gen_world *w, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void fail(hl_gen_world *w, const char *fmt, ...) {
    if (!w->failures++) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(w->failure, sizeof w->failure, fmt, ap);
        va_end(ap);
    }
}

static void vlog(hl_gen_world *w, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void vlog(hl_gen_world *w, const char *fmt, ...) {
    if (!w->opt.verbose) return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "[frame %u] ", w->frame);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* Checks a call that must succeed; returns true when it did. */
#define CALL(w, expr) call_ok((w), (expr), #expr)
static bool call_ok(hl_gen_world *w, hl_result res, const char *what) {
    if (res == HL_OK) return true;
    fail(w, "call: %s -> %s: %s", what, hl_result_name(res), hl_last_error());
    return false;
}

/* ---- random helpers -------------------------------------------------------------------------------- */
#define RNG (&w->rng)
static float frand(hl_gen_world *w, float lo, float hi) { return hl_gen_rng_float(RNG, lo, hi); }
static uint32_t urand(hl_gen_world *w, uint32_t n) { return hl_gen_rng_below(RNG, n); }
static uint32_t urange(hl_gen_world *w, uint32_t lo, uint32_t hi) { return hl_gen_rng_range(RNG, lo, hi); }
static bool chance(hl_gen_world *w, float p) { return hl_gen_rng_chance(RNG, p); }

static hl_vec3 rand_vec(hl_gen_world *w, float r) { return (hl_vec3){frand(w, -r, r), frand(w, -r, r), frand(w, -r, r)}; }

static hl_quat rand_quat(hl_gen_world *w) {
    hl_vec3 axis = rand_vec(w, 1.0f);
    if (hl_vec3_length(axis) < 1e-3f) axis = (hl_vec3){0, 1, 0};
    return hl_quat_from_axis_angle(axis, frand(w, 0.0f, 6.2831853f));
}

static hl_color rand_color(hl_gen_world *w, float alpha) {
    return (hl_color){frand(w, 0.05f, 1.0f), frand(w, 0.05f, 1.0f), frand(w, 0.05f, 1.0f), alpha};
}

/* A side length: small sizes most of the time, big ones rarely; capped by max_size. */
static uint32_t rand_dim(hl_gen_world *w) {
    uint32_t u = urand(w, 100), d;
    if (u < 55) d = urange(w, 1, 48);
    else if (u < 80) d = urange(w, 49, 160);
    else if (u < 92) d = urange(w, 161, 512);
    else if (u < 98) d = urange(w, 513, 1536);
    else d = urange(w, 1537, 4096);
    uint32_t cap = w->opt.max_size ? w->opt.max_size : 4096;
    return d > cap ? 1 + d % cap : d;
}

static void rand_size(hl_gen_world *w, uint32_t *x, uint32_t *y) {
    *x = rand_dim(w);
    *y = chance(w, 0.3f) ? *x : rand_dim(w);
}

/* A render order: mostly 0, sometimes small, negative, or at the ends of the range. */
static int32_t rand_order(hl_gen_world *w) {
    uint32_t u = urand(w, 100);
    if (u < 60) return 0;
    if (u < 80) return (int32_t)urange(w, 0, 10) - 5;
    if (u < 90) return (int32_t)urange(w, 0, 200000) - 100000;
    static const int32_t ends[] = {INT32_MIN, INT32_MAX, INT32_MIN + 1, INT32_MAX - 1, 32768, -32769, 65536};
    return ends[urand(w, sizeof ends / sizeof ends[0])];
}

/* ---- attribute packing --------------------------------------------------------------------------- */
/* Packs n vertices of src (src_comps floats each) into type x comps (missing components: 0, the
 * 4th 1 for floats / max for normalised types). Returns a malloc'ed buffer. */
static void *pack(const float *src, uint32_t n, uint32_t src_comps, hl_component_type type, uint32_t comps) {
    uint32_t cs = hl_component_size(type);
    uint8_t *out = malloc((size_t)n * comps * cs + 4);
    if (!out) return NULL;
    for (uint32_t v = 0; v < n; v++)
        for (uint32_t c = 0; c < comps; c++) {
            float x = c < src_comps ? src[v * src_comps + c] : (c == 3 ? 1.0f : 0.0f);
            uint8_t *d = out + ((size_t)v * comps + c) * cs;
            switch (type) {
            case HL_COMPONENT_FLOAT32: memcpy(d, &x, 4); break;
            case HL_COMPONENT_UNORM8: *d = (uint8_t)lrintf(fminf(fmaxf(x, 0.0f), 1.0f) * 255.0f); break;
            case HL_COMPONENT_SNORM8: *(int8_t *)d = (int8_t)lrintf(fminf(fmaxf(x, -1.0f), 1.0f) * 127.0f); break;
            case HL_COMPONENT_UINT8: *d = (uint8_t)lrintf(fminf(fmaxf(x, 0.0f), 255.0f)); break;
            case HL_COMPONENT_UNORM16: {
                uint16_t u = (uint16_t)lrintf(fminf(fmaxf(x, 0.0f), 1.0f) * 65535.0f);
                memcpy(d, &u, 2);
                break;
            }
            case HL_COMPONENT_SNORM16: {
                int16_t s = (int16_t)lrintf(fminf(fmaxf(x, -1.0f), 1.0f) * 32767.0f);
                memcpy(d, &s, 2);
                break;
            }
            case HL_COMPONENT_UINT16: {
                uint16_t u = (uint16_t)lrintf(fminf(fmaxf(x, 0.0f), 65535.0f));
                memcpy(d, &u, 2);
                break;
            }
            default: break;
            }
        }
    return out;
}

typedef struct fmt_choice {
    hl_component_type type;
    uint32_t comps;
} fmt_choice;

static fmt_choice pick_fmt(hl_gen_world *w, const fmt_choice *choices, uint32_t n) { return choices[urand(w, n)]; }

/* ---- geometries --------------------------------------------------------------------------------- */
static uint32_t next_serial(hl_gen_world *w) { return ++w->serial; }

/* A parametric surface (blob, wave sheet or twisted band) as a (nu+1) x (nv+1) grid with
 * a random attribute set, formats, index format and topology. */
static hl_geometry *make_custom(hl_gen_world *w, gen_geo *rec) {
    uint32_t nu = urange(w, 2, 18), nv = urange(w, 2, 14), shape = urand(w, 3);
    /* Two segments around a blob or a band (th = 0, pi, 2 pi) give a flat, doubly covered surface:
       coincident triangles of different colours, whose z-fighting no two rasterizers resolve alike. */
    if (shape != 1 && nu < 3) nu = 3;
    uint32_t gv = (nu + 1) * (nv + 1);
    float amp = frand(w, 0.0f, 0.3f), ku = (float)urange(w, 1, 4), kv = (float)urange(w, 1, 3);
    float *pos = malloc(sizeof(float) * 3 * gv), *nrm = malloc(sizeof(float) * 3 * gv);
    float *uv = malloc(sizeof(float) * 2 * gv), *tan = malloc(sizeof(float) * 4 * gv), *col = malloc(sizeof(float) * 4 * gv);
    float *jnt = malloc(sizeof(float) * 4 * gv), *wgt = malloc(sizeof(float) * 4 * gv);
    hl_geometry *g = NULL;
    if (!pos || !nrm || !uv || !tan || !col || !jnt || !wgt) goto done;
    for (uint32_t j = 0; j <= nv; j++)
        for (uint32_t i = 0; i <= nu; i++) {
            uint32_t k = j * (nu + 1) + i;
            float u = (float)i / (float)nu, v = (float)j / (float)nv;
            float p[3], du[3], dv[3];
            for (int pass = 0; pass < 3; pass++) {
                float uu = u + (pass == 1 ? 1e-3f : 0.0f), vv = v + (pass == 2 ? 1e-3f : 0.0f), q[3];
                if (shape == 0) { /* blob */
                    float th = uu * 6.2831853f, ph = 0.05f + vv * 3.0415927f;
                    float rr = 0.6f * (1.0f + amp * sinf(ku * th) * sinf(kv * ph * 2.0f));
                    q[0] = rr * sinf(ph) * cosf(th), q[1] = rr * cosf(ph), q[2] = -rr * sinf(ph) * sinf(th);
                } else if (shape == 1) { /* wave sheet facing +Z */
                    q[0] = uu - 0.5f, q[1] = vv - 0.5f;
                    q[2] = amp * sinf(ku * 3.1415927f * uu) * cosf(kv * 3.1415927f * vv);
                } else { /* twisted band */
                    float th = uu * 6.2831853f, s = (vv - 0.5f) * 0.5f, tw = kv * 0.5f * th;
                    q[0] = (0.5f + s * cosf(tw)) * cosf(th), q[2] = -(0.5f + s * cosf(tw)) * sinf(th), q[1] = s * sinf(tw) + amp * sinf(ku * th) * 0.3f;
                }
                float *dst = pass == 0 ? p : pass == 1 ? du : dv;
                memcpy(dst, q, sizeof q);
            }
            float a[3] = {du[0] - p[0], du[1] - p[1], du[2] - p[2]}, b[3] = {dv[0] - p[0], dv[1] - p[1], dv[2] - p[2]};
            hl_vec3 n = hl_vec3_normalize(hl_vec3_cross((hl_vec3){a[0], a[1], a[2]}, (hl_vec3){b[0], b[1], b[2]}));
            if (hl_vec3_length(n) < 0.5f) n = (hl_vec3){0, 0, 1};
            hl_vec3 t = hl_vec3_normalize((hl_vec3){a[0], a[1], a[2]});
            if (hl_vec3_length(t) < 0.5f) t = (hl_vec3){1, 0, 0};
            memcpy(pos + 3 * k, p, sizeof p);
            nrm[3 * k] = n.x, nrm[3 * k + 1] = n.y, nrm[3 * k + 2] = n.z;
            uv[2 * k] = u, uv[2 * k + 1] = v;
            tan[4 * k] = t.x, tan[4 * k + 1] = t.y, tan[4 * k + 2] = t.z, tan[4 * k + 3] = (i + j) % 7 ? 1.0f : -1.0f;
            col[4 * k] = 0.5f + 0.5f * sinf(3.0f * u + 1.0f), col[4 * k + 1] = 0.5f + 0.5f * cosf(2.0f * v);
            col[4 * k + 2] = u * v, col[4 * k + 3] = 0.5f + 0.5f * v;
            for (int c = 0; c < 4; c++) jnt[4 * k + c] = (float)((i + c * j) % 4), wgt[4 * k + c] = c == 0 ? 1.0f : 0.0f;
        }
    /* triangles of the grid (both windings show up across shapes: the band's and blob's differ) */
    uint32_t tri_count = nu * nv * 2;
    uint32_t *idx = malloc(sizeof(uint32_t) * tri_count * 3);
    if (!idx) goto done;
    for (uint32_t j = 0, t = 0; j < nv; j++)
        for (uint32_t i = 0; i < nu; i++, t += 2) {
            uint32_t a0 = j * (nu + 1) + i, a1 = a0 + 1, b0 = a0 + nu + 1, b1 = b0 + 1;
            uint32_t q[6] = {a0, a1, b1, a0, b1, b0};
            memcpy(idx + t * 3, q, sizeof q);
        }
    /* No lines: GL ES rasterizes them by the diamond-exit rule and Vulkan (Dawn) as parallelograms,
       with different coverage and interpolation, a legitimate difference between the backends. */
    hl_topology topo = HL_TOPOLOGY_TRIANGLES;
    uint32_t u = urand(w, 100);
    if (u < 4) topo = HL_TOPOLOGY_POINTS;
    bool indexed = chance(w, 0.7f);
    uint32_t vcount = indexed ? gv : tri_count * 3, icount = tri_count * 3;
    if (topo == HL_TOPOLOGY_LINES && !indexed) vcount -= vcount % 2;
    /* non-indexed: expand every attribute through the index list */
    float *src[7] = {pos, nrm, uv, tan, col, jnt, wgt};
    const uint32_t sc[7] = {3, 3, 2, 4, 4, 4, 4};
    float *exp[7] = {0};
    if (!indexed) {
        for (int a = 0; a < 7; a++) {
            exp[a] = malloc(sizeof(float) * sc[a] * vcount);
            if (!exp[a]) goto free_exp;
            for (uint32_t v = 0; v < vcount; v++) memcpy(exp[a] + v * sc[a], src[a] + idx[v] * sc[a], sizeof(float) * sc[a]);
        }
    }
    float *const *data = indexed ? src : exp;

    static const fmt_choice pos_f[] = {{HL_COMPONENT_FLOAT32, 3}, {HL_COMPONENT_FLOAT32, 3}, {HL_COMPONENT_FLOAT32, 3},
                                       {HL_COMPONENT_FLOAT32, 3}, {HL_COMPONENT_SNORM16, 4}, {HL_COMPONENT_FLOAT32, 4}};
    static const fmt_choice nrm_f[] = {{HL_COMPONENT_FLOAT32, 3}, {HL_COMPONENT_FLOAT32, 3}, {HL_COMPONENT_SNORM8, 4},
                                       {HL_COMPONENT_SNORM16, 4}};
    static const fmt_choice tan_f[] = {{HL_COMPONENT_FLOAT32, 4}, {HL_COMPONENT_SNORM8, 4}, {HL_COMPONENT_SNORM16, 4}};
    static const fmt_choice uv_f[] = {{HL_COMPONENT_FLOAT32, 2}, {HL_COMPONENT_FLOAT32, 2}, {HL_COMPONENT_UNORM16, 2},
                                      {HL_COMPONENT_UNORM16, 4}, {HL_COMPONENT_UNORM8, 4}};
    static const fmt_choice col_f[] = {{HL_COMPONENT_FLOAT32, 4}, {HL_COMPONENT_FLOAT32, 3}, {HL_COMPONENT_UNORM8, 4},
                                       {HL_COMPONENT_UNORM16, 4}};
    static const fmt_choice jnt_f[] = {{HL_COMPONENT_UINT8, 4}, {HL_COMPONENT_UINT16, 4}};
    static const fmt_choice wgt_f[] = {{HL_COMPONENT_UNORM8, 4}, {HL_COMPONENT_FLOAT32, 4}, {HL_COMPONENT_UNORM16, 4}};

    uint32_t attrs = POS;
    if (chance(w, 0.8f)) attrs |= NRM;
    if (chance(w, 0.7f)) attrs |= UV0;
    if ((attrs & NRM) && (attrs & UV0) && chance(w, 0.4f)) attrs |= TAN;
    if (chance(w, 0.3f)) attrs |= UV1;
    if (chance(w, 0.4f)) attrs |= COL;
    if (chance(w, 0.12f)) attrs |= ATTR(HL_ATTR_JOINTS_0) | ATTR(HL_ATTR_WEIGHTS_0);
    /* a second set of influences (8 joints a vertex) on some of those */
    if ((attrs & ATTR(HL_ATTR_JOINTS_0)) && chance(w, 0.4f)) attrs |= ATTR(HL_ATTR_JOINTS_1) | ATTR(HL_ATTR_WEIGHTS_1);
    hl_geometry_desc gd = {0};
    void *packed[HL_ATTR_COUNT] = {0};
    fmt_choice f[HL_ATTR_COUNT];
    f[HL_ATTR_POSITION] = pick_fmt(w, pos_f, 6);
    f[HL_ATTR_NORMAL] = pick_fmt(w, nrm_f, 4);
    f[HL_ATTR_TANGENT] = pick_fmt(w, tan_f, 3);
    f[HL_ATTR_TEXCOORD_0] = pick_fmt(w, uv_f, 5);
    f[HL_ATTR_TEXCOORD_1] = pick_fmt(w, uv_f, 5);
    f[HL_ATTR_COLOR_0] = pick_fmt(w, col_f, 4);
    f[HL_ATTR_JOINTS_0] = pick_fmt(w, jnt_f, 2);
    f[HL_ATTR_WEIGHTS_0] = pick_fmt(w, wgt_f, 3);
    if (attrs & ATTR(HL_ATTR_JOINTS_1)) { /* drawn only then: other geometries keep their random stream */
        f[HL_ATTR_JOINTS_1] = pick_fmt(w, jnt_f, 2);
        f[HL_ATTR_WEIGHTS_1] = pick_fmt(w, wgt_f, 3);
    }
    static const int src_of[HL_ATTR_COUNT] = {0, 1, 3, 2, 2, 4, 5, 6, 5, 6};
    bool ok = true;
    for (uint32_t a = 0; a < HL_ATTR_COUNT; a++) {
        if (!(attrs & ATTR(a))) continue;
        int s = src_of[a];
        packed[a] = pack(data[s], vcount, sc[s], f[a].type, f[a].comps);
        ok &= packed[a] != NULL;
        gd.attributes[a] = (hl_attribute_desc){packed[a], f[a].type, f[a].comps};
    }
    void *ind = NULL;
    hl_index_format ifmt = chance(w, 0.5f) ? HL_INDEX_UINT16 : chance(w, 0.5f) ? HL_INDEX_UINT32 : HL_INDEX_FORMAT_DEFAULT;
    if (indexed && ok) {
        if (topo == HL_TOPOLOGY_LINES) icount -= icount % 2;
        if (ifmt == HL_INDEX_UINT16) {
            uint16_t *i16 = malloc(sizeof(uint16_t) * icount);
            if (i16)
                for (uint32_t i = 0; i < icount; i++) i16[i] = (uint16_t)idx[i];
            ind = i16;
        } else {
            ind = malloc(sizeof(uint32_t) * icount);
            if (ind) memcpy(ind, idx, sizeof(uint32_t) * icount);
        }
        ok &= ind != NULL;
        gd.indices = ind;
        gd.index_count = icount;
        gd.index_format = ifmt;
    }
    gd.vertex_count = vcount;
    gd.topology = topo;
    gd.dynamic = chance(w, 0.3f);
    gd.label = "custom";
    if (ok && CALL(w, hl_geometry_create(&gd, &g))) {
        rec->attrs = attrs;
        rec->vertex_count = vcount;
        rec->dynamic = gd.dynamic;
        rec->pos_type = f[HL_ATTR_POSITION].type;
        rec->pos_comps = f[HL_ATTR_POSITION].comps;
    } else {
        /* keep the bookkeeping independent of the result: the record still exists */
        rec->attrs = attrs;
        rec->vertex_count = vcount;
    }
    free(ind);
    for (uint32_t a = 0; a < HL_ATTR_COUNT; a++) free(packed[a]);
free_exp:
    for (int a = 0; a < 7; a++) free(exp[a]);
    free(idx);
done:
    free(pos), free(nrm), free(uv), free(tan), free(col), free(jnt), free(wgt);
    return g;
}

static hl_geometry *make_builtin(hl_gen_world *w, uint32_t kind) {
    hl_geometry *g = NULL;
    if (kind == 0) {
        hl_box_desc d = {frand(w, 0.2f, 1.5f), frand(w, 0.2f, 1.5f), frand(w, 0.2f, 1.5f)};
        CALL(w, hl_geometry_create_box(chance(w, 0.2f) ? NULL : &d, &g));
    } else if (kind == 1) {
        hl_sphere_desc d = {frand(w, 0.2f, 0.9f), urange(w, 3, 32), urange(w, 2, 16)};
        CALL(w, hl_geometry_create_sphere(chance(w, 0.2f) ? NULL : &d, &g));
    } else if (kind == 2) {
        hl_plane_desc d = {frand(w, 0.3f, 2.0f), frand(w, 0.3f, 2.0f), urange(w, 1, 4), urange(w, 1, 4)};
        CALL(w, hl_geometry_create_plane(chance(w, 0.2f) ? NULL : &d, &g));
    } else {
        hl_cylinder_desc d = {chance(w, 0.3f) ? 0.001f : frand(w, 0.1f, 0.7f), frand(w, 0.1f, 0.7f), frand(w, 0.3f, 1.5f),
                              urange(w, 3, 24), urange(w, 1, 3), chance(w, 0.3f)};
        CALL(w, hl_geometry_create_cylinder(chance(w, 0.2f) ? NULL : &d, &g));
    }
    return g;
}

static uint32_t active_geo_count(const hl_gen_world *w) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < MAX_GEO; i++) n += w->geos[i].active;
    return n;
}

/* Creates an active geometry record; UINT32_MAX when the pool is full. */
static uint32_t geo_add(hl_gen_world *w) {
    if (active_geo_count(w) >= ACTIVE_GEO) return UINT32_MAX;
    uint32_t i = 0;
    while (i < MAX_GEO && w->geos[i].used) i++;
    if (i == MAX_GEO) return UINT32_MAX;
    gen_geo *rec = &w->geos[i];
    memset(rec, 0, sizeof *rec);
    rec->used = rec->active = true;
    rec->serial = next_serial(w);
    uint32_t kind = urand(w, 10);
    if (kind < 6) {
        rec->g = make_builtin(w, kind % 4);
        const hl_geometry_layout *gl = hl_geometry_get_layout(rec->g);
        rec->vertex_count = gl ? gl->vertex_count : 0;
        rec->attrs = POS | NRM | UV0 | TAN;
        rec->pos_type = HL_COMPONENT_FLOAT32;
        rec->pos_comps = 3;
    } else {
        rec->g = make_custom(w, rec);
    }
    return i;
}

static void geo_unuse(hl_gen_world *w, uint32_t i) {
    gen_geo *rec = &w->geos[i];
    if (rec->users) rec->users--;
    if (!rec->active && !rec->users) rec->used = false;
}

/* Releases the generator's reference; meshes keep the geometry alive. */
static void geo_retire(hl_gen_world *w, uint32_t i) {
    gen_geo *rec = &w->geos[i];
    hl_geometry_release(rec->g);
    rec->active = false;
    if (!rec->users) rec->used = false;
}

/* A random active geometry having every attribute in `needs`; UINT32_MAX when none. */
static uint32_t geo_pick(hl_gen_world *w, uint32_t needs) {
    uint32_t cand[MAX_GEO], n = 0;
    for (uint32_t i = 0; i < MAX_GEO; i++)
        if (w->geos[i].active && (w->geos[i].attrs & needs) == needs) cand[n++] = i;
    return n ? cand[urand(w, n)] : UINT32_MAX;
}

/* ---- textures ------------------------------------------------------------------------------------- */
static uint8_t *texture_pixels(hl_gen_world *w, uint32_t tw, uint32_t th) {
    uint8_t *px = malloc((size_t)tw * th * 4);
    uint32_t pattern = urand(w, 5), cell = urange(w, 2, 16);
    float c0[4], c1[4];
    for (int c = 0; c < 4; c++) c0[c] = frand(w, 0, 1), c1[c] = frand(w, 0, 1);
    bool opaque = chance(w, 0.6f);
    float fx = frand(w, 1.0f, 4.0f), fy = frand(w, 1.0f, 4.0f);
    if (!px) return NULL;
    for (uint32_t y = 0; y < th; y++)
        for (uint32_t x = 0; x < tw; x++) {
            float u = (x + 0.5f) / (float)tw, v = (y + 0.5f) / (float)th, t;
            switch (pattern) {
            case 0: t = u; break;                                        /* gradient */
            case 1: t = ((x / cell) + (y / cell)) % 2 ? 1.0f : 0.0f; break; /* checker */
            case 2: t = 0.5f + 0.5f * sinf(fx * 6.28f * u) * cosf(fy * 6.28f * v); break;
            case 3: t = (u - 0.5f) * (u - 0.5f) + (v - 0.5f) * (v - 0.5f) < 0.1f ? 1.0f : 0.0f; break;
            default: t = (float)((x * 7 + y * 13) % 5) / 4.0f; break; /* texel noise */
            }
            uint8_t *p = px + ((size_t)y * tw + x) * 4;
            for (int c = 0; c < 4; c++) p[c] = (uint8_t)lrintf((c0[c] + (c1[c] - c0[c]) * t) * 255.0f);
            if (opaque) p[3] = 255;
        }
    return px;
}

static hl_sampler_desc rand_sampler(hl_gen_world *w) {
    hl_sampler_desc s = {0};
    s.wrap_u = (hl_wrap)urand(w, 4);
    s.wrap_v = (hl_wrap)urand(w, 4);
    s.mag_filter = (hl_filter)urand(w, 3);
    s.min_filter = (hl_filter)urand(w, 3);
    s.mip_filter = (hl_filter)urand(w, 3);
    return s;
}

static void tex_size(hl_gen_world *w, uint32_t *tw, uint32_t *th) {
    uint32_t u = urand(w, 100);
    uint32_t hi = u < 70 ? 32 : u < 95 ? 128 : 512;
    *tw = urange(w, 1, hi);
    *th = chance(w, 0.4f) ? *tw : urange(w, 1, hi);
}

/* (Re)creates texture slot i; materials keep the old texture alive. */
static void tex_make(hl_gen_world *w, uint32_t i) {
    gen_tex *t = &w->texs[i];
    hl_texture_release(t->t);
    t->t = NULL;
    tex_size(w, &t->w, &t->h);
    uint8_t *px = texture_pixels(w, t->w, t->h);
    hl_texture_desc d = {0};
    d.width = t->w;
    d.height = t->h;
    d.pixels = px;
    d.pixels_size = px ? (size_t)t->w * t->h * 4 : 0;
    d.mipmaps = (hl_mipmaps)urand(w, 3);
    if (w->opt.avoid & HL_GEN_AVOID_MIPS) d.mipmaps = HL_MIPMAPS_NONE;
    d.color_space = (hl_color_space)urand(w, 3);
    d.sampler = rand_sampler(w);
    d.label = "gen";
    if (chance(w, 0.1f)) { /* no pixels: transparent black */
        d.pixels = NULL;
        d.pixels_size = 0;
    }
    CALL(w, hl_texture_create(&d, &t->t));
    free(px);
}

/* ---- shader materials: sources, schemas, uniform buffers ------------------------------------------- */
#define VS_HEAD                                                                                    \
    "#version 300 es\n"                                                                            \
    "layout(std140) uniform Frame { mat4 u_viewProj; vec4 u_cameraPos; };\n"                       \
    "layout(std140) uniform Object { mat4 u_model; mat4 u_normalMatrix; };\n"
#define FS_HEAD "#version 300 es\nprecision highp float;\nlayout(location = 0) out vec4 outColor;\n"

typedef struct gen_program {
    const char *vs, *fs;
    uint32_t needs;
    int schema; /* -1: no block */
    uint32_t texture_count;
    const char *textures[2];
    hl_material_attribute attrs[3];
    uint32_t attr_count;
} gen_program;

static const gen_program k_programs[PROGRAM_COUNT] = {
    {VS_HEAD "in vec3 a_position;\n"
             "void main() { gl_Position = u_viewProj * (u_model * vec4(a_position, 1.0)); }\n",
     FS_HEAD "layout(std140) uniform GenTint { vec4 tint; };\n"
             "void main() { outColor = tint; }\n",
     POS, 0, 0, {0}, {{"a_position", HL_ATTR_POSITION}}, 1},
    {VS_HEAD "in vec3 a_position; in vec2 a_uv; out vec2 v_uv;\n"
             "void main() { v_uv = a_uv; gl_Position = u_viewProj * (u_model * vec4(a_position, 1.0)); }\n",
     FS_HEAD "layout(std140) uniform GenParams { vec4 tint; vec2 scale; float mixv; int mode; };\n"
             "uniform sampler2D u_tex; in vec2 v_uv;\n"
             "void main() {\n"
             "    vec4 c = texture(u_tex, v_uv * scale);\n"
             "    outColor = mode == 1 ? c * tint : mix(c, tint, mixv);\n"
             "}\n",
     POS | UV0, 1, 1, {"u_tex"}, {{"a_position", HL_ATTR_POSITION}, {"a_uv", HL_ATTR_TEXCOORD_0}}, 2},
    {VS_HEAD "in vec3 a_position; in vec3 a_normal; out vec3 v_n;\n"
             "void main() { v_n = mat3(u_normalMatrix) * a_normal; gl_Position = u_viewProj * (u_model * vec4(a_position, 1.0)); }\n",
     FS_HEAD "layout(std140) uniform GenLight { vec3 dir; float gain; vec4 color; mat3 basis; float ambient[3]; };\n"
             "in vec3 v_n;\n"
             "void main() {\n"
             "    vec3 n = normalize(v_n + vec3(0.0, 0.0, 1e-4));\n"
             "    float d = max(dot(n, normalize(basis * dir)), 0.0);\n"
             "    outColor = vec4(color.rgb * d * gain + vec3(ambient[0], ambient[1], ambient[2]), color.a);\n"
             "}\n",
     POS | NRM, 2, 0, {0}, {{"a_position", HL_ATTR_POSITION}, {"a_normal", HL_ATTR_NORMAL}}, 2},
    {VS_HEAD "in vec3 a_position; in vec4 a_color; in vec2 a_uv; out vec4 v_color; out vec2 v_uv;\n"
             "void main() { v_color = a_color; v_uv = a_uv; gl_Position = u_viewProj * (u_model * vec4(a_position, 1.0)); }\n",
     FS_HEAD "layout(std140) uniform GenMix { vec4 weights; uvec2 flags; mat4 colorMatrix; ivec3 sel; };\n"
             "uniform sampler2D u_texA; uniform sampler2D u_texB; in vec4 v_color; in vec2 v_uv;\n"
             "void main() {\n"
             "    vec4 a = texture(u_texA, v_uv), b = texture(u_texB, v_uv.yx);\n"
             "    vec4 c = v_color * weights.x + a * weights.y + b * weights.z;\n"
             "    if ((flags.x & 1u) != 0u) c = colorMatrix * c;\n"
             "    if (sel.y > 0) c.rgb = c.gbr;\n"
             "    outColor = vec4(clamp(c.rgb, 0.0, 1.0), clamp(c.a + weights.w, 0.0, 1.0));\n"
             "}\n",
     POS | COL | UV0, 3, 2, {"u_texA", "u_texB"},
     {{"a_position", HL_ATTR_POSITION}, {"a_color", HL_ATTR_COLOR_0}, {"a_uv", HL_ATTR_TEXCOORD_0}}, 3},
    {VS_HEAD "layout(std140) uniform GenWobble { vec4 amp; vec4 phase[2]; bool flip; mat2 rot; };\n"
             "in vec3 a_position; in vec3 a_normal; out vec3 v_p;\n"
             "void main() {\n"
             "    vec3 p = a_position + a_normal * amp.x * sin(dot(a_position, phase[0].xyz) * amp.y + phase[1].w);\n"
             "    v_p = vec3(rot * p.xy, p.z);\n"
             "    gl_Position = u_viewProj * (u_model * vec4(p, 1.0));\n"
             "}\n",
     FS_HEAD "layout(std140) uniform GenWobble { vec4 amp; vec4 phase[2]; bool flip; mat2 rot; };\n"
             "in vec3 v_p;\n"
             "void main() {\n"
             "    vec3 c = 0.5 + 0.5 * sin(v_p * phase[1].xyz * 3.0);\n"
             "    outColor = vec4(flip ? 1.0 - c : c, amp.w);\n"
             "}\n",
     POS | NRM, 4, 0, {0}, {{"a_position", HL_ATTR_POSITION}, {"a_normal", HL_ATTR_NORMAL}}, 2},
    {VS_HEAD "in vec3 a_position; in vec3 a_normal; out vec3 v_n;\n"
             "void main() { v_n = mat3(u_normalMatrix) * a_normal; gl_Position = u_viewProj * (u_model * vec4(a_position, 1.0)); }\n",
     FS_HEAD "in vec3 v_n;\n"
             "void main() { outColor = vec4(normalize(v_n + vec3(0.0, 0.0, 1e-4)) * 0.5 + 0.5, 1.0); }\n",
     POS | NRM, -1, 0, {0}, {{"a_position", HL_ATTR_POSITION}, {"a_normal", HL_ATTR_NORMAL}}, 2},
};

static const char *const k_block_names[SCHEMA_COUNT] = {"GenTint", "GenParams", "GenLight", "GenMix", "GenWobble"};

static const hl_std140_entry k_schema0[] = {{"tint", HL_STD140_VEC4, 0}};
static const hl_std140_entry k_schema1[] = {
    {"tint", HL_STD140_VEC4, 0}, {"scale", HL_STD140_VEC2, 0}, {"mixv", HL_STD140_FLOAT, 0}, {"mode", HL_STD140_INT, 0}};
static const hl_std140_entry k_schema2[] = {{"dir", HL_STD140_VEC3, 0},
                                            {"gain", HL_STD140_FLOAT, 0},
                                            {"color", HL_STD140_VEC4, 0},
                                            {"basis", HL_STD140_MAT3, 0},
                                            {"ambient", HL_STD140_FLOAT, 3}};
static const hl_std140_entry k_schema3[] = {{"weights", HL_STD140_VEC4, 0},
                                            {"flags", HL_STD140_UVEC2, 0},
                                            {"colorMatrix", HL_STD140_MAT4, 0},
                                            {"sel", HL_STD140_IVEC3, 0}};
static const hl_std140_entry k_schema4[] = {
    {"amp", HL_STD140_VEC4, 0}, {"phase", HL_STD140_VEC4, 2}, {"flip", HL_STD140_BOOL, 0}, {"rot", HL_STD140_MAT2, 0}};
static const hl_std140_entry *const k_schemas[SCHEMA_COUNT] = {k_schema0, k_schema1, k_schema2, k_schema3, k_schema4};
static const uint32_t k_schema_len[SCHEMA_COUNT] = {1, 4, 5, 4, 4};

/* Writes random, well-conditioned values into every member of ub. */
static void ub_randomize(hl_gen_world *w, uint32_t schema, hl_uniform_buffer *ub) {
    for (uint32_t m = 0; m < k_schema_len[schema]; m++) {
        const hl_std140_entry *e = &k_schemas[schema][m];
        uint32_t n = hl_std140_type_scalars(e->type) * (e->array_count ? e->array_count : 1);
        uint32_t v[64];
        for (uint32_t k = 0; k < n && k < 64; k++) {
            float f = frand(w, 0.0f, 1.0f);
            switch (e->type) {
            case HL_STD140_INT: case HL_STD140_IVEC2: case HL_STD140_IVEC3: case HL_STD140_IVEC4:
            case HL_STD140_UINT: case HL_STD140_UVEC2: case HL_STD140_UVEC3: case HL_STD140_UVEC4:
            case HL_STD140_BOOL: v[k] = urand(w, 3) ? urand(w, 2) : urand(w, 5); break;
            default: memcpy(&v[k], &f, 4); break;
            }
        }
        if (schema == 2 && e->type == HL_STD140_MAT3) { /* a rotation: the light direction stays non-zero */
            hl_quat q = rand_quat(w);
            hl_vec3 c[3] = {hl_quat_rotate(q, (hl_vec3){1, 0, 0}), hl_quat_rotate(q, (hl_vec3){0, 1, 0}),
                            hl_quat_rotate(q, (hl_vec3){0, 0, 1})};
            float f[9] = {c[0].x, c[0].y, c[0].z, c[1].x, c[1].y, c[1].z, c[2].x, c[2].y, c[2].z};
            memcpy(v, f, sizeof f);
        }
        if (schema == 2 && m == 0) { /* dir: away from zero */
            float f[3] = {frand(w, 0.3f, 1.0f), frand(w, -1.0f, 1.0f), frand(w, 0.3f, 1.0f)};
            memcpy(v, f, sizeof f);
        }
        if (schema == 1 && m == 1) { /* scale */
            float f[2] = {frand(w, 0.5f, 3.0f), frand(w, 0.5f, 3.0f)};
            memcpy(v, f, sizeof f);
        }
        if (schema == 4 && m == 0) { /* amp: displacement, frequency, -, alpha */
            float f[4] = {frand(w, 0.0f, 0.15f), frand(w, 0.5f, 4.0f), 0.0f, chance(w, 0.7f) ? 1.0f : frand(w, 0.2f, 1.0f)};
            memcpy(v, f, sizeof f);
        }
        if (ub) CALL(w, hl_uniform_buffer_set(ub, e->name, v, n));
    }
}

static void ubs_create(hl_gen_world *w) {
    for (uint32_t s = 0; s < SCHEMA_COUNT; s++) {
        CALL(w, hl_register_uniform_block_binding(k_block_names[s], NULL));
        hl_std140_layout *l = NULL;
        CALL(w, hl_std140_layout_create(k_schemas[s], k_schema_len[s], &l));
        for (uint32_t i = 0; i < UB_PER_SCHEMA; i++) {
            if (l) CALL(w, hl_uniform_buffer_create(l, &w->ubs[s][i]));
            ub_randomize(w, s, w->ubs[s][i]);
        }
        hl_std140_layout_release(l);
    }
}

/* ---- render targets (bookkeeping helpers used by materials) --------------------------------------- */
static uint32_t pick_target(hl_gen_world *w) {
    uint32_t cand[MAX_TGT], n = 0;
    for (uint32_t i = 0; i < MAX_TGT; i++)
        if (w->tgts[i].serial) cand[n++] = i;
    return n ? cand[urand(w, n)] : UINT32_MAX;
}

/* ---- materials ------------------------------------------------------------------------------------- */
static hl_material_state rand_state(hl_gen_world *w) {
    hl_material_state st = {0};
    uint32_t u = urand(w, 100);
    st.alpha_mode = u < 65 ? HL_ALPHA_OPAQUE : u < 80 ? HL_ALPHA_MASK : HL_ALPHA_BLEND;
    st.alpha_cutoff = chance(w, 0.3f) ? 0.0f : frand(w, 0.2f, 0.8f);
    if (w->opt.avoid & HL_GEN_AVOID_ALPHA_TEST) st.alpha_cutoff = 1e-6f; /* 0 would be the default, 0.5 */
    st.double_sided = chance(w, 0.3f);
    if (chance(w, 0.1f)) st.depth_test = (hl_toggle)urand(w, 3);
    if (chance(w, 0.1f)) st.depth_write = (hl_toggle)urand(w, 3);
    if (w->opt.avoid & HL_GEN_AVOID_DRAW_ORDER) st.depth_test = st.depth_write = HL_TOGGLE_DEFAULT;
    return st;
}

/* A texture for binding b of rec: a pool texture or, for target-sampling materials, an
 * attachment of a live target (recorded in rec->sampled[b]). */
static hl_texture *pick_texture(hl_gen_world *w, gen_mat *rec, uint32_t b) {
    rec->sampled[b] = 0;
    if (rec->rtt && chance(w, 0.5f)) {
        uint32_t t = pick_target(w);
        if (t != UINT32_MAX) {
            gen_target *gt = &w->tgts[t];
            uint32_t idx = urand(w, gt->count);
            rec->sampled[b] = gt->serial;
            return hl_render_target_texture(gt->t, idx);
        }
    }
    return w->texs[urand(w, w->tex_count)].t;
}

static uint32_t active_mat_count(const hl_gen_world *w) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < MAX_MAT; i++) n += w->mats[i].active;
    return n;
}

static char *unique_source(const char *src, uint32_t n) {
    size_t len = strlen(src) + 32;
    char *s = malloc(len);
    if (s) snprintf(s, len, "%s// unique %u\n", src, n);
    return s;
}

/* Creates an active material record (rtt: may sample targets); UINT32_MAX when the pool is full. */
static uint32_t mat_add(hl_gen_world *w, bool rtt) {
    if (active_mat_count(w) >= ACTIVE_MAT) return UINT32_MAX;
    uint32_t i = 0;
    while (i < MAX_MAT && w->mats[i].used) i++;
    if (i == MAX_MAT) return UINT32_MAX;
    gen_mat *rec = &w->mats[i];
    memset(rec, 0, sizeof *rec);
    rec->used = rec->active = true;
    rec->rtt = rtt;
    rec->serial = next_serial(w);
    uint32_t u = urand(w, 100);
    rec->kind = u < 25 ? HL_MATERIAL_BASIC : u < 68 ? HL_MATERIAL_PBR : HL_MATERIAL_SHADER;
    hl_material_state st = rand_state(w);
    float alpha = st.alpha_mode == HL_ALPHA_OPAQUE ? 1.0f : frand(w, 0.1f, 1.0f);
    if (rec->kind == HL_MATERIAL_BASIC) {
        hl_basic_material_desc d = {0};
        d.color = chance(w, 0.1f) ? (hl_color){0, 0, 0, 0} : rand_color(w, alpha);
        if (chance(w, 0.5f)) d.texture = (hl_texture_ref){pick_texture(w, rec, 0), urand(w, 4) == 0};
        d.state = st;
        d.label = "gen basic";
        CALL(w, hl_material_create_basic(&d, &rec->m));
    } else if (rec->kind == HL_MATERIAL_PBR) {
        hl_pbr_material_desc d = {0};
        d.base_color = chance(w, 0.1f) ? (hl_color){0, 0, 0, 0} : rand_color(w, alpha);
        d.metallic = chance(w, 0.4f) ? 0.0f : frand(w, 0.0f, 1.0f);
        d.roughness = chance(w, 0.15f) ? 0.0f : frand(w, 0.08f, 1.0f);
        if (chance(w, 0.3f)) d.emissive = (hl_vec3){frand(w, 0, 0.6f), frand(w, 0, 0.6f), frand(w, 0, 0.6f)};
        d.normal_scale = chance(w, 0.5f) ? 0.0f : frand(w, 0.2f, 1.5f);
        d.occlusion_strength = chance(w, 0.5f) ? 0.0f : frand(w, 0.0f, 1.0f);
        for (uint32_t s = 0; s < HL_TEXTURE_SLOT_COUNT; s++)
            if (chance(w, 0.3f)) d.textures[s] = (hl_texture_ref){pick_texture(w, rec, s), urand(w, 5) == 0};
        d.state = st;
        d.label = "gen pbr";
        CALL(w, hl_material_create_pbr(&d, &rec->m));
    } else {
        rec->program = urand(w, PROGRAM_COUNT);
        const gen_program *p = &k_programs[rec->program];
        rec->needs = p->needs;
        hl_shader_material_desc d = {0};
        hl_material_uniform_block blk = {0};
        hl_material_texture tex[2] = {{0}};
        char *vs = NULL;
        d.vs = p->vs;
        d.fs = p->fs;
        if (chance(w, 0.15f)) d.vs = vs = unique_source(p->vs, ++w->unique);
        d.attributes = p->attrs;
        d.attribute_count = p->attr_count;
        if (p->schema >= 0) {
            blk.name = k_block_names[p->schema];
            blk.buffer = w->ubs[p->schema][urand(w, UB_PER_SCHEMA)];
            d.uniform_blocks = &blk;
            d.uniform_block_count = 1;
        }
        for (uint32_t t = 0; t < p->texture_count; t++) tex[t] = (hl_material_texture){p->textures[t], pick_texture(w, rec, t)};
        d.textures = p->texture_count ? tex : NULL;
        d.texture_count = p->texture_count;
        d.state = st;
        d.label = "gen shader";
        if (d.vs) CALL(w, hl_material_create_shader(&d, &rec->m));
        free(vs);
    }
    return i;
}

static void mat_unuse(hl_gen_world *w, uint32_t i) {
    gen_mat *rec = &w->mats[i];
    if (rec->users) rec->users--;
    if (!rec->active && !rec->users) rec->used = false;
}

static void mat_retire(hl_gen_world *w, uint32_t i) {
    gen_mat *rec = &w->mats[i];
    hl_material_release(rec->m);
    rec->active = false;
    if (!rec->users) rec->used = false;
}

/* A random active material usable in stage `stage` (stage 0: no target-sampling materials)
 * whose attribute needs geometry attrs covers; UINT32_MAX when none. */
static uint32_t mat_pick(hl_gen_world *w, uint32_t stage, uint32_t attrs) {
    uint32_t cand[MAX_MAT], n = 0;
    for (uint32_t i = 0; i < MAX_MAT; i++) {
        const gen_mat *m = &w->mats[i];
        if (m->active && (!m->rtt || stage > 0) && (m->needs & attrs) == m->needs) cand[n++] = i;
    }
    return n ? cand[urand(w, n)] : UINT32_MAX;
}

static bool mat_samples(const gen_mat *m, uint32_t target_serial) {
    for (uint32_t b = 0; b < MAT_BINDINGS; b++)
        if (m->sampled[b] == target_serial) return true;
    return false;
}

/* ---- meshes ---------------------------------------------------------------------------------------- */
static uint32_t max_meshes(const hl_gen_world *w) {
    uint32_t m = w->opt.max_meshes ? w->opt.max_meshes : 200;
    return m > MAX_MESHES ? MAX_MESHES : m;
}

static hl_node *group_node(gen_stage *st, int32_t parent) {
    return parent < 0 ? hl_stage_root(st->s) : st->groups[parent];
}

/* A place for a mesh: mostly around the origin (in view), sometimes far outside it. */
static hl_vec3 mesh_place(hl_gen_world *w) {
    if (chance(w, 0.15f)) {
        hl_vec3 d = hl_vec3_normalize(rand_vec(w, 1.0f));
        if (hl_vec3_length(d) < 0.5f) d = (hl_vec3){1, 0, 0};
        float r = frand(w, 15.0f, 60.0f);
        return (hl_vec3){d.x * r, d.y * r, d.z * r};
    }
    return rand_vec(w, 3.5f);
}

static void mesh_transform(hl_gen_world *w, hl_node *n, hl_vec3 at) {
    hl_node_set_translation(n, at);
    hl_node_set_rotation(n, rand_quat(w));
    float s = frand(w, 0.3f, 1.6f);
    hl_vec3 sc = chance(w, 0.2f) ? (hl_vec3){s * frand(w, 0.5f, 1.5f), s * frand(w, 0.5f, 1.5f), s * frand(w, 0.5f, 1.5f)}
                                 : (hl_vec3){s, s, s};
    hl_node_set_scale(n, sc);
}

/* Adds `count` meshes (a cluster sharing geometry and material when count > 1) to stage si. */
static void mesh_add(hl_gen_world *w, uint32_t si, uint32_t count) {
    gen_stage *st = &w->stages[si];
    uint32_t geo = geo_pick(w, 0);
    if (geo == UINT32_MAX) geo = geo_add(w);
    if (geo == UINT32_MAX) return;
    uint32_t mat = mat_pick(w, si, w->geos[geo].attrs);
    if (mat == UINT32_MAX) mat = mat_add(w, si > 0 && chance(w, 0.5f));
    if (mat == UINT32_MAX || (w->mats[mat].needs & w->geos[geo].attrs) != w->mats[mat].needs ||
        (w->mats[mat].rtt && si == 0))
        return;
    bool instanced = count > 1 ? chance(w, 0.8f) : chance(w, 0.15f);
    bool cast = chance(w, 0.4f), receive = chance(w, 0.6f);
    hl_vec3 center = mesh_place(w);
    float spacing = frand(w, 0.4f, 1.5f);
    int32_t parent = st->group_count && chance(w, 0.4f) ? (int32_t)urand(w, st->group_count) : -1;
    int32_t order = rand_order(w);
    for (uint32_t k = 0; k < count && st->mesh_count < max_meshes(w); k++) {
        gen_mesh *gm = &st->meshes[st->mesh_count++];
        memset(gm, 0, sizeof *gm);
        gm->geo = geo;
        gm->mat = mat;
        gm->parent = parent;
        gm->instanced = instanced;
        w->geos[geo].users++;
        w->mats[mat].users++;
        hl_mesh_desc md = {w->geos[geo].g, w->mats[mat].m, instanced, cast, receive, "gen"};
        hl_vec3 at = {center.x + spacing * (float)(k % 4), center.y + spacing * (float)((k / 4) % 4),
                      center.z - spacing * (float)(k / 16)};
        float jitter = frand(w, 0.0f, 0.2f);
        at.x += jitter;
        if (md.geometry && md.material) CALL(w, hl_mesh_create(&md, &gm->mesh));
        hl_node *n = hl_mesh_node(gm->mesh);
        mesh_transform(w, n, at);
        hl_node_set_render_order(n, k == 0 ? order : chance(w, 0.8f) ? order : rand_order(w));
        if (n) CALL(w, hl_node_add_child(group_node(st, parent), n));
    }
}

static void mesh_remove(hl_gen_world *w, uint32_t si, uint32_t k) {
    gen_stage *st = &w->stages[si];
    gen_mesh *gm = &st->meshes[k];
    hl_node_destroy(hl_mesh_node(gm->mesh));
    geo_unuse(w, gm->geo);
    mat_unuse(w, gm->mat);
    st->meshes[k] = st->meshes[--st->mesh_count];
}

/* ---- lights and cameras ---------------------------------------------------------------------------- */
static hl_light_desc rand_light_desc(hl_gen_world *w, hl_light_kind kind) {
    hl_light_desc d = {0};
    d.kind = kind;
    d.color = chance(w, 0.2f) ? (hl_color){0, 0, 0, 0} : rand_color(w, 1.0f);
    d.intensity = kind == HL_LIGHT_AMBIENT ? frand(w, 0.0f, 0.4f) : chance(w, 0.1f) ? 0.0f : frand(w, 0.2f, 2.5f);
    if (kind == HL_LIGHT_POINT || kind == HL_LIGHT_SPOT) d.range = chance(w, 0.4f) ? 0.0f : frand(w, 4.0f, 25.0f);
    if (kind == HL_LIGHT_SPOT) {
        d.outer_cone_deg = chance(w, 0.2f) ? 0.0f : frand(w, 12.0f, 60.0f);
        d.inner_cone_deg = frand(w, 0.0f, 1.0f) * (d.outer_cone_deg ? d.outer_cone_deg : 30.0f) * 0.8f;
    }
    d.cast_shadows = kind != HL_LIGHT_AMBIENT && chance(w, 0.4f);
    if (chance(w, 0.5f)) {
        d.shadow.bias = frand(w, 0.001f, 0.01f);
        d.shadow.normal_bias = frand(w, 0.0f, 0.05f);
        d.shadow.map_size = 1u << urange(w, 7, 11);
        d.shadow.ortho_size = frand(w, 4.0f, 14.0f);
        d.shadow.near_plane = chance(w, 0.5f) ? 0.0f : frand(w, 0.1f, 1.0f);
        d.shadow.far_plane = chance(w, 0.5f) ? 0.0f : frand(w, 30.0f, 120.0f);
    }
    d.name = "gen light";
    return d;
}

static void light_place(hl_gen_world *w, hl_light *l, hl_light_kind kind) {
    hl_node *n = hl_light_node(l);
    hl_vec3 d = hl_vec3_normalize((hl_vec3){frand(w, -1, 1), frand(w, 0.2f, 1.0f), frand(w, -1, 1)});
    float dist = kind == HL_LIGHT_POINT ? frand(w, 1.0f, 7.0f) : frand(w, 6.0f, 14.0f);
    hl_node_set_translation(n, (hl_vec3){d.x * dist, d.y * dist, d.z * dist});
    hl_vec3 target = rand_vec(w, 1.5f);
    hl_node_look_at(n, target, fabsf(d.y) > 0.95f ? (hl_vec3){1, 0, 0} : (hl_vec3){0, 1, 0});
}

static void light_add(hl_gen_world *w, uint32_t si) {
    gen_stage *st = &w->stages[si];
    if (st->light_count >= MAX_LIGHTS) return;
    uint32_t u = urand(w, 100);
    hl_light_kind kind = u < 20 ? HL_LIGHT_AMBIENT : u < 55 ? HL_LIGHT_DIRECTIONAL : u < 80 ? HL_LIGHT_POINT : HL_LIGHT_SPOT;
    hl_light_desc d = rand_light_desc(w, kind);
    hl_light *l = NULL;
    CALL(w, hl_light_create(&d, &l));
    light_place(w, l, kind);
    if (l) CALL(w, hl_stage_add(st->s, hl_light_node(l)));
    st->lights[st->light_count++] = l;
}

static void camera_place(hl_gen_world *w, hl_camera *c, bool ortho) {
    hl_node *n = hl_camera_node(c);
    float el = frand(w, -1.0f, 1.3f), az = frand(w, 0.0f, 6.2831853f);
    float dist = ortho ? frand(w, 10.0f, 20.0f) : frand(w, 6.0f, 14.0f);
    hl_vec3 p = {cosf(el) * sinf(az) * dist, sinf(el) * dist, cosf(el) * cosf(az) * dist};
    hl_node_set_translation(n, p);
    hl_node_look_at(n, rand_vec(w, 1.0f), (hl_vec3){0, 1, 0});
}

static hl_camera_desc rand_camera_desc(hl_gen_world *w, bool ortho, float aspect) {
    hl_camera_desc d = {0};
    if (ortho) {
        d.projection = HL_PROJECTION_ORTHOGRAPHIC;
        float hh = frand(w, 2.0f, 7.0f), hw = hh * aspect;
        d.left = -hw, d.right = hw, d.bottom = -hh, d.top = hh;
        d.near_plane = frand(w, 0.1f, 1.0f);
        d.far_plane = frand(w, 40.0f, 120.0f);
    } else {
        d.fov_y_deg = frand(w, 25.0f, 100.0f);
        d.aspect = aspect;
        d.near_plane = chance(w, 0.2f) ? 0.0f : frand(w, 0.05f, 1.0f);
        d.far_plane = chance(w, 0.2f) ? 0.0f : frand(w, 30.0f, 300.0f);
    }
    d.name = ortho ? "gen ortho" : "gen perspective";
    return d;
}

static void group_transform(hl_gen_world *w, hl_node *g) {
    hl_node_set_translation(g, rand_vec(w, 1.0f));
    hl_node_set_rotation(g, rand_quat(w));
    float s = frand(w, 0.7f, 1.3f);
    hl_node_set_scale(g, (hl_vec3){s, s, s});
}

static hl_fog rand_fog(hl_gen_world *w) {
    hl_fog f = {0};
    f.mode = (hl_fog_mode)urand(w, 4);
    f.color = rand_color(w, 1.0f);
    f.start = frand(w, 0.0f, 8.0f);
    f.end = chance(w, 0.2f) ? 0.0f : f.start + frand(w, 2.0f, 30.0f);
    f.density = chance(w, 0.2f) ? 0.0f : frand(w, 0.005f, 0.15f);
    return f;
}

static void stage_create(hl_gen_world *w, uint32_t si) {
    gen_stage *st = &w->stages[si];
    memset(st, 0, sizeof *st);
    CALL(w, hl_stage_create(&st->s));
    float aspect = (float)w->out_w / (float)w->out_h;
    for (int c = 0; c < 2; c++) {
        hl_camera_desc cd = rand_camera_desc(w, c == 1, aspect);
        CALL(w, hl_camera_create(&cd, &st->cam[c]));
        camera_place(w, st->cam[c], c == 1);
        if (st->s && st->cam[c]) CALL(w, hl_stage_add(st->s, hl_camera_node(st->cam[c])));
    }
    st->group_count = urand(w, MAX_GROUPS + 1);
    for (uint32_t g = 0; g < st->group_count; g++) {
        CALL(w, hl_node_create("gen group", &st->groups[g]));
        group_transform(w, st->groups[g]);
        int32_t parent = g && chance(w, 0.4f) ? (int32_t)urand(w, g) : -1;
        if (st->s && st->groups[g]) CALL(w, hl_node_add_child(group_node(st, parent), st->groups[g]));
    }
    uint32_t lights = urand(w, 6);
    for (uint32_t l = 0; l < lights; l++) light_add(w, si);
    if (chance(w, 0.3f)) {
        hl_fog f = rand_fog(w);
        hl_stage_set_fog(st->s, &f);
    }
    hl_stage_set_clear_color(st->s, chance(w, 0.7f) ? rand_color(w, 1.0f) : rand_color(w, frand(w, 0.0f, 1.0f)));
    uint32_t u = urand(w, 100), cap = max_meshes(w);
    uint32_t n = u < 10 ? 0 : u < 65 ? urange(w, 1, 20) : u < 92 ? urange(w, 21, 80) : urange(w, 81, cap);
    while (w->stages[si].mesh_count < n && w->stages[si].mesh_count < cap) {
        uint32_t before = st->mesh_count;
        mesh_add(w, si, chance(w, 0.15f) ? urange(w, 2, 12) : 1);
        if (st->mesh_count == before) break;
    }
}

static void stage_destroy(hl_gen_world *w, uint32_t si) {
    gen_stage *st = &w->stages[si];
    for (uint32_t k = 0; k < st->asset_count; k++) hl_gltf_asset_destroy(st->assets[k]); /* roots go with the stage */
    for (uint32_t k = 0; k < st->mesh_count; k++) {
        geo_unuse(w, st->meshes[k].geo);
        mat_unuse(w, st->meshes[k].mat);
    }
    hl_stage_destroy(st->s);
    memset(st, 0, sizeof *st);
}

static const char *format_name(hl_target_format f) {
    return f == HL_TARGET_RGBA16F ? "RGBA16F" : f == HL_TARGET_RGBA8 ? "RGBA8" : "RGBA8_SRGB";
}

/* ---- render targets -------------------------------------------------------------------------------- */
static void target_add(hl_gen_world *w) {
    uint32_t i = 0;
    while (i < MAX_TGT && w->tgts[i].serial) i++;
    if (i == MAX_TGT) return;
    gen_target *gt = &w->tgts[i];
    memset(gt, 0, sizeof *gt);
    gt->serial = next_serial(w);
    hl_render_target_desc d = {0};
    bool match_output = chance(w, 0.25f);
    if (match_output) {
        gt->w = w->out_w, gt->h = w->out_h; /* width/height 0: the renderer's size */
    } else {
        rand_size(w, &gt->w, &gt->h);
        d.width = gt->w, d.height = gt->h;
    }
    uint32_t u = urand(w, 100);
    gt->count = u < 50 ? 1 : u < 65 ? 2 : u < 75 ? 3 : 4;
    d.color_count = gt->count == 1 && chance(w, 0.3f) ? 0 : gt->count;
    for (uint32_t a = 0; a < gt->count; a++) {
        gt->formats[a] = (hl_target_format)urand(w, 3);
        d.formats[a] = gt->formats[a];
    }
    if (match_output) gt->formats[0] = d.formats[0] = HL_TARGET_RGBA8_SRGB;
    gt->samples = chance(w, 0.3f) ? 4 : 1;
    d.sample_count = gt->samples == 1 && chance(w, 0.5f) ? 0 : gt->samples;
    gt->no_depth = chance(w, 0.15f) && !(w->opt.avoid & HL_GEN_AVOID_DRAW_ORDER);
    d.no_depth = gt->no_depth;
    d.clear_color = rand_color(w, frand(w, 0.0f, 1.0f));
    d.label = "gen target";
    gt->fresh = true;
    vlog(w, "target %u (#%u) created: %ux%u%s, %u attachments %s %s %s %s, %ux, depth %d", i, gt->serial, gt->w, gt->h,
         match_output ? " (renderer size)" : "", gt->count, format_name(gt->formats[0]), gt->count > 1 ? format_name(gt->formats[1]) : "",
         gt->count > 2 ? format_name(gt->formats[2]) : "", gt->count > 3 ? format_name(gt->formats[3]) : "", gt->samples, !gt->no_depth);
    CALL(w, hl_render_target_create(w->r, &d, &gt->t));
}

static void target_remove(hl_gen_world *w, uint32_t i) {
    gen_target *gt = &w->tgts[i];
    vlog(w, "target %u (#%u) destroyed", i, gt->serial);
    if (gt->t) CALL(w, hl_render_target_destroy(w->r, gt->t));
    memset(gt, 0, sizeof *gt);
}

static void target_resize(hl_gen_world *w, uint32_t i) {
    gen_target *gt = &w->tgts[i];
    uint32_t nw, nh;
    if (chance(w, 0.3f)) nw = w->out_w, nh = w->out_h;
    else rand_size(w, &nw, &nh);
    vlog(w, "target %u (#%u) resized %ux%u -> %ux%u", i, gt->serial, gt->w, gt->h, nw, nh);
    if (gt->t) CALL(w, hl_render_target_resize(w->r, gt->t, nw, nh));
    if (nw != gt->w || nh != gt->h) gt->fresh = true; /* new attachments: undefined until rendered */
    gt->w = nw, gt->h = nh;
}

/* --avoid mrt-blend: may stage si not draw into target t? */
static bool avoid_target(const hl_gen_world *w, uint32_t si, uint32_t t) {
    if (w->tgts[t].count < 2 || !(w->opt.avoid & HL_GEN_AVOID_MRT_BLEND)) return false;
    const gen_stage *st = &w->stages[si];
    for (uint32_t k = 0; k < st->mesh_count; k++)
        if (hl_material_is_transparent(w->mats[st->meshes[k].mat].m)) return true;
    return false;
}

/* Does any mesh of stage si draw with a material that samples target serial? */
static bool stage_samples(const hl_gen_world *w, uint32_t si, uint32_t serial) {
    const gen_stage *st = &w->stages[si];
    for (uint32_t k = 0; k < st->mesh_count; k++)
        if (mat_samples(&w->mats[st->meshes[k].mat], serial)) return true;
    return false;
}

/* ---- mutations ------------------------------------------------------------------------------------- */
static uint32_t pick_stage(hl_gen_world *w) { return urand(w, w->stage_count); }

/* A random mesh: stage in *si, index returned; UINT32_MAX when the stage has none. */
static uint32_t pick_mesh(hl_gen_world *w, uint32_t *si) {
    *si = pick_stage(w);
    uint32_t n = w->stages[*si].mesh_count;
    return n ? urand(w, n) : UINT32_MAX;
}

static uint32_t pick_active_mat(hl_gen_world *w) {
    uint32_t cand[MAX_MAT], n = 0;
    for (uint32_t i = 0; i < MAX_MAT; i++)
        if (w->mats[i].active) cand[n++] = i;
    return n ? cand[urand(w, n)] : UINT32_MAX;
}

static void mutate_material(hl_gen_world *w) {
    uint32_t i = pick_active_mat(w);
    if (i == UINT32_MAX) return;
    gen_mat *rec = &w->mats[i];
    hl_material *m = rec->m;
    uint32_t u = urand(w, 100);
    if (u < 8) { /* a setter of another kind: HL_ERR_VALIDATION, nothing changes */
        hl_result res = rec->kind == HL_MATERIAL_PBR ? hl_material_set_uniform_block(m, "GenTint", w->ubs[0][0])
                        : rec->kind == HL_MATERIAL_SHADER ? hl_material_set_color(m, (hl_color){1, 0, 0, 1})
                                                          : hl_material_set_emissive(m, (hl_vec3){1, 1, 1});
        if (m && res != HL_ERR_VALIDATION)
            fail(w, "misuse: a %s-kind setter on a %s material returned %s (expected HL_ERR_VALIDATION)",
                 rec->kind == HL_MATERIAL_PBR ? "shader" : rec->kind == HL_MATERIAL_SHADER ? "colour" : "PBR",
                 rec->kind == HL_MATERIAL_PBR ? "PBR" : rec->kind == HL_MATERIAL_SHADER ? "shader" : "basic",
                 hl_result_name(res));
        return;
    }
    if (u < 22) {
        hl_material_state st = rand_state(w);
        if (chance(w, 0.5f)) CALL(w, hl_material_set_state(m, chance(w, 0.2f) ? NULL : &st));
        else if (chance(w, 0.5f)) CALL(w, hl_material_set_alpha_mode(m, st.alpha_mode, st.alpha_cutoff));
        else CALL(w, hl_material_set_double_sided(m, st.double_sided));
        return;
    }
    if (rec->kind == HL_MATERIAL_SHADER) {
        const gen_program *p = &k_programs[rec->program];
        if (u < 60 && p->schema >= 0) {
            uint32_t b = urand(w, UB_PER_SCHEMA);
            CALL(w, hl_material_set_uniform_block(m, k_block_names[p->schema], w->ubs[p->schema][b]));
        } else if (p->texture_count) {
            uint32_t t = urand(w, p->texture_count);
            hl_texture *tex = pick_texture(w, rec, t);
            if (tex) CALL(w, hl_material_set_named_texture(m, p->textures[t], tex));
        }
        return;
    }
    if (u < 45) {
        CALL(w, hl_material_set_color(m, rand_color(w, chance(w, 0.6f) ? 1.0f : frand(w, 0.1f, 1.0f))));
    } else if (u < 75) {
        uint32_t slot = rec->kind == HL_MATERIAL_BASIC ? 0 : urand(w, HL_TEXTURE_SLOT_COUNT);
        hl_texture *tex = chance(w, 0.25f) ? NULL : pick_texture(w, rec, slot);
        if (!tex) rec->sampled[slot] = 0;
        CALL(w, hl_material_set_texture(m, (hl_texture_slot)slot, tex, urand(w, 4) == 0));
    } else if (rec->kind == HL_MATERIAL_PBR) {
        if (chance(w, 0.5f)) CALL(w, hl_material_set_metallic_roughness(m, frand(w, 0, 1), chance(w, 0.1f) ? 0.0f : frand(w, 0.08f, 1)));
        else CALL(w, hl_material_set_emissive(m, (hl_vec3){frand(w, 0, 0.5f), frand(w, 0, 0.5f), frand(w, 0, 0.5f)}));
    } else {
        /* basic: a texture slot it lacks is refused */
        hl_result res = hl_material_set_texture(m, HL_TEXTURE_NORMAL, w->texs[0].t, 0);
        if (m && w->texs[0].t && res != HL_ERR_VALIDATION)
            fail(w, "misuse: hl_material_set_texture(basic, NORMAL) returned %s (expected HL_ERR_VALIDATION)", hl_result_name(res));
    }
}

static void mutate_geometry(hl_gen_world *w) {
    uint32_t gi = geo_pick(w, 0);
    if (gi == UINT32_MAX) return;
    gen_geo *rec = &w->geos[gi];
    uint32_t first = urand(w, rec->vertex_count), count = urange(w, 1, rec->vertex_count - first);
    float amp = frand(w, 0.0f, 0.08f), seed = frand(w, 0.0f, 6.0f);
    if (!rec->g) return;
    float *f = calloc((size_t)count * 4, sizeof(float));
    if (!f) return;
    for (uint32_t v = 0; v < count; v++) {
        float p[4];
        if (!CALL(w, hl_geometry_read_vertex(rec->g, HL_ATTR_POSITION, first + v, p))) break;
        for (int c = 0; c < 3; c++) {
            float x = p[c] + amp * sinf(seed + (float)(first + v) * 1.7f + (float)c);
            if (rec->pos_type == HL_COMPONENT_SNORM16) x = fminf(fmaxf(x, -1.0f), 1.0f);
            f[v * 4 + c] = x;
        }
        f[v * 4 + 3] = 1.0f;
    }
    void *packed = pack(f, count, 4, rec->pos_type, rec->pos_comps);
    if (packed) CALL(w, hl_geometry_update_attribute(rec->g, HL_ATTR_POSITION, first, count, packed));
    free(packed);
    free(f);
}

static void mutate_light(hl_gen_world *w) {
    gen_stage *st = &w->stages[pick_stage(w)];
    uint32_t u = urand(w, 100);
    if (u < 20 || !st->light_count) {
        light_add(w, (uint32_t)(st - w->stages));
        return;
    }
    uint32_t k = urand(w, st->light_count);
    hl_light *l = st->lights[k];
    const hl_light_desc *cur = hl_light_get_desc(l);
    hl_light_kind kind = cur ? cur->kind : HL_LIGHT_AMBIENT;
    if (u < 30) {
        hl_node_destroy(hl_light_node(l));
        st->lights[k] = st->lights[--st->light_count];
    } else if (u < 50) {
        hl_light_desc d = rand_light_desc(w, kind);
        if (l) CALL(w, hl_light_set_desc(l, &d));
    } else if (u < 70) {
        light_place(w, l, kind);
    } else if (u < 80) {
        hl_light_set_color(l, rand_color(w, 1.0f));
    } else if (u < 90) {
        hl_light_set_intensity(l, chance(w, 0.1f) ? 0.0f : frand(w, 0.1f, 2.5f));
    } else {
        hl_light_set_cast_shadows(l, chance(w, 0.5f));
    }
}

static void mutate_mesh(hl_gen_world *w, uint32_t what) {
    uint32_t si, k = pick_mesh(w, &si);
    if (k == UINT32_MAX) return;
    gen_stage *st = &w->stages[si];
    gen_mesh *gm = &st->meshes[k];
    hl_node *n = hl_mesh_node(gm->mesh);
    switch (what) {
    case 0: /* move */
        if (chance(w, 0.7f)) hl_node_set_translation(n, mesh_place(w));
        else mesh_transform(w, n, mesh_place(w));
        break;
    case 1: { /* swap the material */
        uint32_t mat = mat_pick(w, si, w->geos[gm->geo].attrs);
        if (mat == UINT32_MAX) break;
        if (gm->mesh) CALL(w, hl_mesh_set_material(gm->mesh, w->mats[mat].m));
        w->mats[mat].users++;
        mat_unuse(w, gm->mat);
        gm->mat = mat;
        break;
    }
    case 2: { /* swap the geometry */
        uint32_t geo = geo_pick(w, w->mats[gm->mat].needs);
        if (geo == UINT32_MAX) break;
        if (gm->mesh) CALL(w, hl_mesh_set_geometry(gm->mesh, w->geos[geo].g));
        w->geos[geo].users++;
        geo_unuse(w, gm->geo);
        gm->geo = geo;
        break;
    }
    case 3: /* flags */
        if (chance(w, 0.5f)) {
            gm->instanced = !gm->instanced;
            hl_mesh_set_instanced(gm->mesh, gm->instanced);
        } else {
            hl_mesh_set_shadows(gm->mesh, chance(w, 0.5f), chance(w, 0.5f));
        }
        break;
    case 4: /* visibility */
        if (st->group_count && chance(w, 0.3f)) {
            hl_node *g = st->groups[urand(w, st->group_count)];
            hl_node_set_visible(g, !hl_node_visible(g));
        } else {
            hl_node_set_visible(n, !hl_node_visible(n));
        }
        break;
    case 5: { /* reparent */
        int32_t parent = st->group_count && chance(w, 0.6f) ? (int32_t)urand(w, st->group_count) : -1;
        if (n && parent != gm->parent) {
            CALL(w, hl_node_remove_child(group_node(st, gm->parent), n));
            CALL(w, hl_node_add_child(group_node(st, parent), n));
        }
        gm->parent = parent;
        break;
    }
    case 6: /* render order */
        hl_node_set_render_order(n, rand_order(w));
        break;
    default: { /* remove a few */
        uint32_t c = urange(w, 1, 3);
        for (uint32_t i = 0; i < c && st->mesh_count; i++) mesh_remove(w, si, urand(w, st->mesh_count));
        break;
    }
    }
}

static void mutate_camera(hl_gen_world *w) {
    gen_stage *st = &w->stages[pick_stage(w)];
    uint32_t c = urand(w, 2);
    float aspect = (float)w->out_w / (float)w->out_h;
    if (chance(w, 0.5f)) {
        hl_camera_desc d = rand_camera_desc(w, c == 1, aspect);
        if (st->cam[c]) CALL(w, hl_camera_set_desc(st->cam[c], &d));
    } else {
        camera_place(w, st->cam[c], c == 1);
    }
}

static void mutate_texture(hl_gen_world *w) {
    uint32_t i = urand(w, w->tex_count);
    gen_tex *t = &w->texs[i];
    uint32_t u = urand(w, 3);
    if (u == 0) {
        hl_sampler_desc s = rand_sampler(w);
        if (t->t) CALL(w, hl_texture_set_sampler(t->t, &s));
    } else if (u == 1) {
        uint32_t tw = t->w, th = t->h;
        if (chance(w, 0.4f)) tex_size(w, &tw, &th);
        uint8_t *px = texture_pixels(w, tw, th);
        if (t->t && px) CALL(w, hl_texture_set_pixels(t->t, tw, th, px, (size_t)tw * th * 4));
        t->w = tw, t->h = th;
        free(px);
    } else {
        tex_make(w, i);
    }
}

static void mutate_pool(hl_gen_world *w) {
    uint32_t u = urand(w, 100);
    if (u < 30) { /* retire a material (meshes keep it) and make a new one */
        uint32_t i = pick_active_mat(w);
        if (i != UINT32_MAX) mat_retire(w, i);
        mat_add(w, chance(w, 0.5f));
    } else if (u < 55) {
        uint32_t i = geo_pick(w, 0);
        if (i != UINT32_MAX) geo_retire(w, i);
        geo_add(w);
    } else if (u < 70) {
        geo_add(w);
    } else if (u < 85) {
        mat_add(w, chance(w, 0.5f));
    } else {
        uint32_t s = urand(w, SCHEMA_COUNT), b = urand(w, UB_PER_SCHEMA);
        ub_randomize(w, s, w->ubs[s][b]);
    }
}

/* opt.env: now and then a stage gets the default studio or a small random environment (smooth:
 * a sky-to-ground gradient plus two soft coloured lobes, radiance up to ~4), changes intensity,
 * rotation or exposure, or loses its environment; decisions from w->env_rng only. */
static void mutate_env(hl_gen_world *w) {
    hl_gen_rng *g = &w->env_rng;
    if (!hl_gen_rng_chance(g, 0.15f)) return;
    gen_stage *st = &w->stages[hl_gen_rng_below(g, w->stage_count)];
    if (!st->s) return;
    uint32_t u = hl_gen_rng_below(g, 10);
    hl_environment *e = hl_stage_environment(st->s);
    if (u < 2) {
        e = NULL;
        if (CALL(w, hl_environment_create_default(&e))) {
            hl_environment_set_intensity(e, hl_gen_rng_float(g, 0.2f, 1.5f));
            hl_environment_set_rotation(e, hl_gen_rng_float(g, -3.2f, 3.2f));
            hl_stage_set_environment(st->s, e);
            hl_environment_release(e);
            vlog(w, "environment: default studio");
        }
    } else if (u < 5) {
        uint32_t ew = 8u << hl_gen_rng_below(g, 4), eh = ew / 2; /* 8 x 4 .. 64 x 32 */
        float *rgb = malloc((size_t)ew * eh * 3 * sizeof(float));
        float sky[3], ground[3], lobe[2][3], dir[2][3], sharp[2];
        for (int k = 0; k < 3; k++) sky[k] = hl_gen_rng_float(g, 0, 1), ground[k] = hl_gen_rng_float(g, 0, 0.5f);
        for (int l = 0; l < 2; l++) {
            float len = 0;
            for (int k = 0; k < 3; k++) {
                lobe[l][k] = hl_gen_rng_float(g, 0, 3);
                dir[l][k] = hl_gen_rng_float(g, -1, 1);
                len += dir[l][k] * dir[l][k];
            }
            len = sqrtf(len > 1e-6f ? len : 1.0f);
            for (int k = 0; k < 3; k++) dir[l][k] /= len;
            sharp[l] = hl_gen_rng_float(g, 1, 8);
        }
        for (uint32_t y = 0; rgb && y < eh; y++) {
            float th = ((float)y + 0.5f) / (float)eh * 3.14159265f;
            for (uint32_t x = 0; x < ew; x++) {
                float ph = (((float)x + 0.5f) / (float)ew - 0.5f) * 6.2831853f;
                float d[3] = {sinf(th) * cosf(ph), cosf(th), sinf(th) * sinf(ph)};
                for (int k = 0; k < 3; k++) {
                    float v = ground[k] + (sky[k] - ground[k]) * (0.5f + 0.5f * d[1]);
                    for (int l = 0; l < 2; l++) {
                        float c = d[0] * dir[l][0] + d[1] * dir[l][1] + d[2] * dir[l][2];
                        v += lobe[l][k] * powf(c > 0 ? c : 0, sharp[l]);
                    }
                    rgb[((size_t)y * ew + x) * 3 + k] = v;
                }
            }
        }
        hl_environment_desc d = {0};
        d.width = ew, d.height = eh, d.rgb = rgb, d.rgb_count = (size_t)ew * eh * 3;
        d.intensity = hl_gen_rng_float(g, 0.3f, 1.2f);
        d.specular_size = 16u << hl_gen_rng_below(g, 3);
        e = NULL;
        if (rgb && CALL(w, hl_environment_create(&d, &e))) {
            hl_stage_set_environment(st->s, e);
            hl_environment_release(e);
            vlog(w, "environment: random %ux%u, cube %u", ew, eh, d.specular_size);
        }
        free(rgb);
    } else if (u < 7 && e) {
        hl_environment_set_intensity(e, hl_gen_rng_float(g, 0.0f, 2.0f));
        hl_environment_set_rotation(e, hl_gen_rng_float(g, -3.2f, 3.2f));
    } else if (u < 9) {
        hl_stage_set_exposure(st->s, hl_gen_rng_chance(g, 0.3f) ? 1.0f : hl_gen_rng_float(g, 0.4f, 2.0f));
    } else {
        hl_stage_set_environment(st->s, NULL);
        vlog(w, "environment: none");
    }
}

/* opt.gltf: now and then a random asset loaded into a stage, one removed, or one posed by its
 * animation at a random time; decisions from w->gltf_rng only. */
static void mutate_gltf(hl_gen_world *w) {
    hl_gen_rng *g = &w->gltf_rng;
    if (!hl_gen_rng_chance(g, 0.2f)) return;
    gen_stage *st = &w->stages[hl_gen_rng_below(g, w->stage_count)];
    uint32_t u = hl_gen_rng_below(g, 10);
    if (u < 5 && st->asset_count < MAX_ASSETS) {
        size_t size = 0;
        bool animated = false;
        uint8_t *glb = hl_gen_gltf_random(g, &size, &animated);
        hl_gltf_asset *a = NULL;
        if (glb && CALL(w, hl_gltf_load_memory(glb, size, NULL, &a))) {
            if (st->s && CALL(w, hl_stage_add(st->s, hl_gltf_asset_root(a)))) {
                st->animated[st->asset_count] = animated;
                st->assets[st->asset_count++] = a;
                vlog(w, "glTF: asset loaded (%zu bytes, %u meshes%s%s)", size, hl_gltf_asset_report(a)->meshes,
                     animated ? ", animated" : "", hl_gltf_asset_report(a)->skins ? ", skinned" : "");
            } else {
                hl_gltf_asset_destroy(a);
            }
        }
        free(glb);
    } else if (u < 7 && st->asset_count) {
        uint32_t k = hl_gen_rng_below(g, st->asset_count);
        hl_node *root = hl_gltf_asset_root(st->assets[k]);
        hl_gltf_asset_destroy(st->assets[k]); /* first: the root belongs to the stage */
        hl_node_destroy(root);
        st->assets[k] = st->assets[st->asset_count - 1];
        st->animated[k] = st->animated[st->asset_count - 1];
        st->asset_count--;
        vlog(w, "glTF: asset removed");
    } else if (st->asset_count) {
        uint32_t k = hl_gen_rng_below(g, st->asset_count);
        float t = hl_gen_rng_float(g, -0.5f, 3.0f);
        if (st->animated[k])
            CALL(w, hl_animation_apply(hl_gltf_asset_animation(st->assets[k], 0), t,
                                       hl_gen_rng_chance(g, 0.5f) ? HL_ANIMATION_LOOP : HL_ANIMATION_CLAMP));
    }
}

static void mutate(hl_gen_world *w) {
    uint32_t n = w->frame == 0 ? 0 : urange(w, 0, 5);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t u = urand(w, 100);
        static const char *const names[] = {"add mesh", "move mesh", "swap material", "swap geometry", "mesh flags",
                                            "visibility", "reparent", "render order", "remove meshes"};
        vlog(w, "mutation %u: %s", u,
             u < 12   ? names[0]
             : u < 50 ? names[1 + (u - 12) % 8]
             : u < 60 ? "material"
             : u < 66 ? "uniform values"
             : u < 69 ? "texture"
             : u < 72 ? "geometry update"
             : u < 77 ? "light"
             : u < 79 ? "fog / clear colour"
             : u < 83 ? "camera"
             : u < 85 ? "renderer resize"
             : u < 89 ? "target add / resize / remove"
             : u < 94 ? "pool"
             : u < 97 ? "group transform"
             : u < 98 ? "stage re-created"
                      : "add many meshes");
        if (u < 12) {
            uint32_t si = pick_stage(w);
            mesh_add(w, si, chance(w, 0.2f) ? urange(w, 2, 12) : 1);
        } else if (u < 50) {
            mutate_mesh(w, (u - 12) % 8);
        } else if (u < 60) {
            mutate_material(w);
        } else if (u < 66) {
            uint32_t s = urand(w, SCHEMA_COUNT), b = urand(w, UB_PER_SCHEMA);
            ub_randomize(w, s, w->ubs[s][b]);
        } else if (u < 69) {
            mutate_texture(w);
        } else if (u < 72) {
            mutate_geometry(w);
        } else if (u < 77) {
            mutate_light(w);
        } else if (u < 79) {
            gen_stage *st = &w->stages[pick_stage(w)];
            if (chance(w, 0.5f)) {
                hl_fog f = rand_fog(w);
                hl_stage_set_fog(st->s, chance(w, 0.2f) ? NULL : &f);
            } else {
                hl_stage_set_clear_color(st->s, rand_color(w, chance(w, 0.7f) ? 1.0f : frand(w, 0, 1)));
            }
        } else if (u < 83) {
            mutate_camera(w);
        } else if (u < 85) {
            rand_size(w, &w->out_w, &w->out_h);
            CALL(w, hl_renderer_resize(w->r, w->out_w, w->out_h));
        } else if (u < 89) {
            uint32_t t = pick_target(w), v = urand(w, 3);
            if (v == 0 || t == UINT32_MAX) target_add(w);
            else if (v == 1) target_resize(w, t);
            else target_remove(w, t);
        } else if (u < 94) {
            mutate_pool(w);
        } else if (u < 97) {
            gen_stage *st = &w->stages[pick_stage(w)];
            if (st->group_count) group_transform(w, st->groups[urand(w, st->group_count)]);
        } else if (u < 98) {
            uint32_t si = pick_stage(w);
            stage_destroy(w, si);
            stage_create(w, si);
        } else {
            mesh_add(w, pick_stage(w), urange(w, 8, 40));
        }
    }
}

/* ---- the deliberate misuse: a view whose stage samples the target it renders into ----------------- */
static void misuse_sample_own_target(hl_gen_world *w) {
    uint32_t t = pick_target(w), si = pick_stage(w);
    if (t == UINT32_MAX) return;
    gen_target *gt = &w->tgts[t];
    uint32_t idx = urand(w, gt->count);
    gen_stage *st = &w->stages[si];
    hl_camera *cam = st->cam[0];
    const hl_camera_desc *cd = hl_camera_get_desc(cam);
    if (!gt->t || !cam || !cd || !st->s) return;
    hl_plane_desc pd = {200.0f, 200.0f, 1, 1};
    hl_geometry *g = NULL;
    hl_material *m = NULL;
    hl_mesh *mesh = NULL;
    hl_basic_material_desc bd = {0};
    bd.texture.texture = hl_render_target_texture(gt->t, idx);
    bd.state.double_sided = true;
    CALL(w, hl_geometry_create_plane(&pd, &g));
    CALL(w, hl_material_create_basic(&bd, &m));
    hl_mesh_desc md = {g, m, false, false, false, "misuse"};
    if (g && m) CALL(w, hl_mesh_create(&md, &mesh));
    if (mesh) {
        hl_node_set_translation(hl_mesh_node(mesh), (hl_vec3){0, 0, -(cd->near_plane + 1.0f)});
        CALL(w, hl_node_add_child(hl_camera_node(cam), hl_mesh_node(mesh)));
        hl_result res = hl_renderer_render_to_target(w->r, gt->t, st->s, cam);
        if (res != HL_ERR_VALIDATION)
            fail(w, "misuse: a view sampling attachment %u of the target it renders into returned %s (expected "
                 "HL_ERR_VALIDATION): %s",
                 idx, hl_result_name(res), hl_last_error());
        hl_node_destroy(hl_mesh_node(mesh));
    }
    hl_material_release(m);
    hl_geometry_release(g);
}

/* ---- views ----------------------------------------------------------------------------------------- */
static void plan_op(hl_gen_world *w, gen_op *op, bool allow_present) {
    memset(op, 0, sizeof *op);
    uint32_t u = urand(w, 100);
    op->kind = u < 35 ? OP_OUTPUT : u < 85 || !allow_present ? OP_TARGET : OP_PRESENT;
    op->stage = pick_stage(w);
    op->cam = urand(w, 2);
    op->free_cam = chance(w, 0.08f);
    op->cam_stage = chance(w, 0.05f) ? pick_stage(w) : op->stage;
    op->match_aspect = chance(w, 0.85f);
    if (op->kind == OP_TARGET) {
        uint32_t t = pick_target(w);
        if (t == UINT32_MAX) {
            op->kind = OP_OUTPUT;
            return;
        }
        op->target = t;
        /* a stage that does not sample the target (stage 0 never samples one) */
        uint32_t si = op->stage;
        for (uint32_t j = 0; j < w->stage_count; j++) {
            si = (op->stage + j) % w->stage_count;
            if (!stage_samples(w, si, w->tgts[t].serial)) break;
            si = 0;
        }
        if (avoid_target(w, si, t)) {
            op->kind = OP_OUTPUT;
            return;
        }
        if (op->cam_stage == op->stage) op->cam_stage = si;
        op->stage = si;
    } else if (op->kind == OP_PRESENT) {
        uint32_t cand[MAX_TGT], n = 0;
        for (uint32_t i = 0; i < MAX_TGT; i++) {
            const gen_target *gt = &w->tgts[i];
            if (gt->serial && gt->w == w->out_w && gt->h == w->out_h && gt->formats[0] == HL_TARGET_RGBA8_SRGB) cand[n++] = i;
        }
        if (!n) op->kind = OP_OUTPUT;
        else op->target = cand[urand(w, n)];
    }
}

static void log_op(hl_gen_world *w, const gen_op *op, bool in_frame) {
    if (!w->opt.verbose) return;
    const gen_target *gt = &w->tgts[op->target];
    static const char *const kinds[] = {"output", "target", "present"};
    vlog(w, "%sview %s: stage %u (%u meshes) camera %s%u of stage %u%s%s target %u %ux%u (%u att, %ux) out %ux%u (%ux)",
         in_frame ? "  frame " : "", kinds[op->kind], op->stage, w->stages[op->stage].mesh_count,
         op->free_cam ? "free " : op->cam ? "ortho " : "persp ", op->cam, op->cam_stage, op->match_aspect ? "" : " (aspect kept)",
         "", op->kind == OP_OUTPUT ? 0 : op->target, gt->w, gt->h, gt->count, gt->samples, w->out_w, w->out_h, w->samples);
}

/* Verbose: the stage a view draws, one line per light and per mesh. */
static void describe_stage(hl_gen_world *w, uint32_t si) {
    if (!w->opt.verbose || !w->opt.describe) return;
    gen_stage *st = &w->stages[si];
    const hl_fog *fog = hl_stage_fog(st->s);
    vlog(w, "    stage %u: fog %d, %u lights, %u meshes", si, fog ? (int)fog->mode : -1, st->light_count, st->mesh_count);
    static const char *const lk[] = {"ambient", "directional", "point", "spot"};
    for (uint32_t l = 0; l < st->light_count; l++) {
        const hl_light_desc *d = hl_light_get_desc(st->lights[l]);
        if (d)
            vlog(w, "    light %u: %s intensity %.2f range %.1f cone %.0f/%.0f shadows %d (bias %g normal %g map %u ortho %g "
                 "near %g far %g) at %.2f %.2f %.2f dir %.2f %.2f %.2f",
                 l, lk[d->kind], d->intensity, d->range, d->inner_cone_deg, d->outer_cone_deg, d->cast_shadows,
                 d->shadow.bias, d->shadow.normal_bias, d->shadow.map_size, d->shadow.ortho_size, d->shadow.near_plane,
                 d->shadow.far_plane, hl_light_position(st->lights[l]).x, hl_light_position(st->lights[l]).y,
                 hl_light_position(st->lights[l]).z, hl_light_direction(st->lights[l]).x,
                 hl_light_direction(st->lights[l]).y, hl_light_direction(st->lights[l]).z);
    }
    static const char *const mk[] = {"?", "basic", "pbr", "shader"};
    for (uint32_t k = 0; k < st->mesh_count; k++) {
        const gen_mesh *gm = &st->meshes[k];
        const gen_geo *g = &w->geos[gm->geo];
        const gen_mat *m = &w->mats[gm->mat];
        const hl_material_variant *v = hl_material_get_variant(m->m);
        const hl_geometry_layout *gl = hl_geometry_get_layout(g->g);
        hl_node *n = hl_mesh_node(gm->mesh);
        char fmts[128] = "";
        for (uint32_t a = 0, len = 0; gl && a < HL_ATTR_COUNT && len < sizeof fmts; a++)
            if (gl->attributes[a].present)
                len += (uint32_t)snprintf(fmts + len, sizeof fmts - len, " %u:%ux%u", a, (unsigned)gl->attributes[a].type,
                                          gl->attributes[a].components);
        vlog(w, "    mesh %u: geo #%u [%s ] attrs 0x%x topo %d idx %d/%u verts %u | mat #%u %s prog %u alpha %d ds %d dt %d dw %d tex 0x%x "
             "uv1 0x%x | inst %d cast %d recv %d visible %d order %d parent %d",
             k, g->serial, fmts, g->attrs, gl ? (int)gl->topology : -1, gl ? (int)gl->index_format : -1, gl ? gl->index_count : 0,
             g->vertex_count, m->serial, mk[m->kind], m->program, v ? (int)v->alpha_mode : -1, v ? v->double_sided : -1,
             v ? v->depth_test : -1, v ? v->depth_write : -1, v ? v->texture_mask : 0, v ? v->texcoord1_mask : 0,
             gm->instanced, hl_mesh_cast_shadows(gm->mesh), hl_mesh_receive_shadows(gm->mesh), hl_node_visible(n),
             hl_node_render_order(n), gm->parent);
    }
}

static void describe_camera(hl_gen_world *w, hl_camera *c) {
    if (!w->opt.verbose || !w->opt.describe) return;
    const hl_camera_desc *d = hl_camera_get_desc(c);
    hl_vec3 p = hl_node_world_position(hl_camera_node(c));
    if (d)
        vlog(w, "    camera: %s fov %.2f aspect %.4f lrbt %.2f %.2f %.2f %.2f near %.3f far %.1f at %.2f %.2f %.2f",
             d->projection ? "ortho" : "persp", d->fov_y_deg, d->aspect, d->left, d->right, d->bottom, d->top, d->near_plane,
             d->far_plane, p.x, p.y, p.z);
}

static hl_camera *op_camera(hl_gen_world *w, const gen_op *op, uint32_t vw, uint32_t vh) {
    hl_camera *c = op->free_cam ? w->free_cam : w->stages[op->cam_stage].cam[op->cam];
    if (op->match_aspect && vw && vh) hl_camera_set_aspect(c, (float)vw / (float)vh);
    describe_camera(w, c);
    return c;
}

/* Diagnosis: in the focus frame, only the meshes (lights) listed ("a:b,c") stay visible. */
static bool focused(const hl_gen_world *w) { return w->opt.focus_frame >= 0 && (uint64_t)w->opt.focus_frame == w->frame; }

static void keep_only(hl_gen_world *w, gen_stage *st, const char *list, bool lights) {
    (void)w;
    bool keep[MAX_MESHES] = {0};
    for (const char *p = list; *p;) {
        char *end;
        unsigned long lo = strtoul(p, &end, 10), hi = lo + 1;
        if (end == p) break;
        p = end;
        if (*p == ':') {
            hi = strtoul(p + 1, &end, 10);
            p = end;
        }
        for (unsigned long k = lo; k < hi && k < MAX_MESHES; k++) keep[k] = true;
        if (*p == ',') p++;
        else if (*p) break;
    }
    for (uint32_t k = 0; !lights && k < st->mesh_count; k++)
        if (!keep[k]) hl_node_set_visible(hl_mesh_node(st->meshes[k].mesh), false);
    for (uint32_t k = 0; lights && k < st->light_count; k++)
        if (!keep[k]) hl_node_set_visible(hl_light_node(st->lights[k]), false);
}

/* Runs one planned view; f NULL: a call of its own. */
static hl_result run_op(hl_gen_world *w, hl_render_frame *f, const gen_op *op) {
    gen_stage *st = &w->stages[op->stage];
    hl_result res = HL_OK;
    w->views++;
    if (focused(w) && w->opt.keep_meshes) keep_only(w, st, w->opt.keep_meshes, false);
    if (focused(w) && w->opt.keep_lights) keep_only(w, st, w->opt.keep_lights, true);
    log_op(w, op, f != NULL);
    describe_stage(w, op->stage);
    if (op->kind == OP_OUTPUT) {
        hl_camera *c = op_camera(w, op, w->out_w, w->out_h);
        res = f ? hl_render_frame_render(f, st->s, c) : hl_renderer_render(w->r, st->s, c);
        call_ok(w, res, f ? "hl_render_frame_render" : "hl_renderer_render");
        w->output_written = true;
        w->output_ops++;
    } else if (op->kind == OP_TARGET) {
        gen_target *gt = &w->tgts[op->target];
        hl_camera *c = op_camera(w, op, gt->w, gt->h);
        if (!gt->t) return HL_OK;
        res = f ? hl_render_frame_render_to_target(f, gt->t, st->s, c) : hl_renderer_render_to_target(w->r, gt->t, st->s, c);
        call_ok(w, res, f ? "hl_render_frame_render_to_target" : "hl_renderer_render_to_target");
        gt->written = true;
    } else {
        gen_target *gt = &w->tgts[op->target];
        if (!gt->t) return HL_OK;
        res = hl_render_frame_present(f, gt->t);
        call_ok(w, res, "hl_render_frame_present");
        w->output_written = true;
        w->output_ops++;
    }
    return res;
}

static hl_result frame_fn(hl_render_frame *f, void *user) {
    hl_gen_world *w = user;
    uint32_t lo = 0, hi = w->op_count;
    if (focused(w) && w->opt.keep_views_hi) lo = w->opt.keep_views_lo, hi = w->opt.keep_views_hi;
    for (uint32_t i = lo; i < w->op_count && i < hi; i++) {
        hl_result res = run_op(w, f, &w->ops[i]);
        if (res) return res;
    }
    return HL_OK;
}

/* The output is a deferred import: a successful frame acquires it once if any render call wrote
 * it (a render or a present), else never. */
static void check_output_acquires(hl_gen_world *w) {
    uint32_t got = hl_renderer_stats(w->r)->output_acquires, want = w->output_ops ? 1 : 0;
    if (got != want)
        fail(w, "stats: output_acquires %u after a frame with %u render calls into the output (want %u)", got,
             w->output_ops, want);
}

static void render_views(hl_gen_world *w) {
    /* first renders of new or resized targets, from stage 0 (which samples no target) */
    for (uint32_t i = 0; i < MAX_TGT; i++) {
        gen_target *gt = &w->tgts[i];
        if (!gt->serial || !gt->fresh) continue;
        gen_op op = {OP_TARGET, 0, 0, i, false, 0, true};
        if (avoid_target(w, 0, i)) { /* an empty stage instead: the target's clear colour */
            w->views++;
            if (gt->t) call_ok(w, hl_renderer_render_to_target(w->r, gt->t, w->blank, w->blank_cam), "hl_renderer_render_to_target (blank)");
            gt->written = true;
        } else {
            run_op(w, NULL, &op);
        }
        gt->fresh = false;
    }
    uint32_t mode = urand(w, 100);
    w->output_ops = 0;
    if (mode < 50) {
        w->op_count = 1;
        plan_op(w, &w->ops[0], false);
        if (!run_op(w, NULL, &w->ops[0])) check_output_acquires(w);
        return;
    }
    w->op_count = urange(w, 1, 6);
    for (uint32_t i = 0; i < w->op_count; i++) plan_op(w, &w->ops[i], true);
    if (call_ok(w, hl_renderer_render_frame(w->r, frame_fn, w), "hl_renderer_render_frame")) check_output_acquires(w);
}

/* ---- readback ------------------------------------------------------------------------------------- */
static hl_gen_image *image_next(hl_gen_world *w, uint32_t iw, uint32_t ih, bool half16, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
static hl_gen_image *image_next(hl_gen_world *w, uint32_t iw, uint32_t ih, bool half16, const char *fmt, ...) {
    if (w->image_count >= MAX_IMAGES) return NULL;
    hl_gen_image *im = &w->images[w->image_count++];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(im->what, sizeof im->what, fmt, ap);
    va_end(ap);
    im->w = iw, im->h = ih, im->half16 = half16, im->valid = false;
    size_t need = (size_t)iw * ih * (half16 ? 8 : 4);
    if (need > im->capacity) {
        free(im->data);
        im->data = malloc(need);
        im->capacity = im->data ? need : 0;
    }
    return im->data ? im : NULL;
}


static void read_back(hl_gen_world *w) {
    if (w->output_written) {
        hl_gen_image *im = image_next(w, w->out_w, w->out_h, false, "output (%ux MSAA)", w->samples);
        if (im) im->valid = CALL(w, hl_renderer_read_pixels(w->r, im->data, (size_t)w->out_w * w->out_h * 4));
    }
    for (uint32_t i = 0; i < MAX_TGT; i++) {
        gen_target *gt = &w->tgts[i];
        if (!gt->serial || !gt->written) continue;
        for (uint32_t a = 0; a < gt->count; a++) {
            bool half = gt->formats[a] == HL_TARGET_RGBA16F;
            size_t need = (size_t)gt->w * gt->h * (half ? 8 : 4);
            hl_gen_image *im = image_next(w, gt->w, gt->h, half, "target %u (#%u, %u attachments, %ux%s) attachment %u %s",
                                          i, gt->serial, gt->count, gt->samples, gt->no_depth ? ", no depth" : "", a,
                                          format_name(gt->formats[a]));
            if (!im || !gt->t) continue;
            size_t rs = hl_render_target_read_size(gt->t, a);
            if (rs != need) {
                fail(w, "call: hl_render_target_read_size(target %u, %u) = %zu, expected %zu (%ux%u %s)", i, a, rs, need,
                     gt->w, gt->h, format_name(gt->formats[a]));
                continue;
            }
            im->valid = CALL(w, hl_render_target_read(w->r, gt->t, a, im->data, need));
        }
    }
}

/* ---- history: the same view from a renderer that has seen nothing before ---------------------- */
static bool stage_samples_live_target(const hl_gen_world *w, uint32_t si) {
    for (uint32_t t = 0; t < MAX_TGT; t++)
        if (w->tgts[t].serial && stage_samples(w, si, w->tgts[t].serial)) return true;
    return false;
}

static uint32_t pipeline_kind(const hl_gen_world *w) {
    if (w->opt.pipeline != HL_GEN_PIPELINE_BY_SEED) return w->opt.pipeline;
    static const uint32_t by_seed[8] = {HL_GEN_PIPELINE_DIRECT,   HL_GEN_PIPELINE_SCRIPTED, HL_GEN_PIPELINE_DIRECT,
                                        HL_GEN_PIPELINE_POST,     HL_GEN_PIPELINE_DIRECT,   HL_GEN_PIPELINE_SCRIPTED,
                                        HL_GEN_PIPELINE_DEFERRED, HL_GEN_PIPELINE_POST};
    return by_seed[w->opt.seed & 7];
}

static const hl_pipeline_factory *factory_of(uint32_t kind) {
    return kind == HL_GEN_PIPELINE_SCRIPTED ? hl_test_scripted_forward()
           : kind == HL_GEN_PIPELINE_POST   ? hl_test_forward_post()
           : kind == HL_GEN_PIPELINE_DEFERRED ? hl_test_deferred()
                                            : NULL;
}

static void history_check(hl_gen_world *w, bool replay) {
    uint32_t cand[MAX_STAGES], n = 0;
    for (uint32_t si = 0; si < w->stage_count; si++)
        if (!stage_samples_live_target(w, si)) cand[n++] = si;
    uint32_t pick = urand(w, n ? n : 1), c = urand(w, 2);
    if (!n) return;
    uint32_t si = cand[pick];
    gen_stage *st = &w->stages[si];
    hl_camera *cam = st->cam[c];
    if (!st->s || !cam) return;
    hl_camera_set_aspect(cam, (float)w->out_w / (float)w->out_h);
    vlog(w, "history: stage %u camera %u, %ux%u", si, c, w->out_w, w->out_h);
    w->views++;
    hl_gen_image *mine = image_next(w, w->out_w, w->out_h, false, "history view of stage %u (%ux MSAA)", si, w->samples);
    if (!mine) return;
    if (!CALL(w, hl_renderer_render(w->r, st->s, cam))) return;
    if (replay) {
        w->image_count--;
        return;
    }
    mine->valid = CALL(w, hl_renderer_read_pixels(w->r, mine->data, (size_t)w->out_w * w->out_h * 4));
    hl_renderer_desc rd = {0};
    rd.backend = w->backend;
    rd.wait_timeout_ms = 120000; /* sanitizer builds on a loaded 2-core machine: a slow frame is not a hang */
    rd.width = w->out_w;
    rd.height = w->out_h;
    rd.sample_count = w->samples;
    rd.shadow_atlas_size = w->atlas;
    rd.no_render_bundles = true; /* the world's renderer uses them */
    rd.frontend_threads = 1;       /* the world's may use 3 */
    uint32_t kind = pipeline_kind(w); /* the other recorder of direct and scripted; post again */
    rd.pipeline = factory_of(kind == HL_GEN_PIPELINE_DIRECT     ? HL_GEN_PIPELINE_SCRIPTED
                             : kind == HL_GEN_PIPELINE_SCRIPTED ? HL_GEN_PIPELINE_DIRECT
                                                                : kind);
    hl_renderer *fresh = NULL;
    size_t size = (size_t)w->out_w * w->out_h * 4;
    uint8_t *px = malloc(size);
    if (px && CALL(w, hl_renderer_create(&rd, &fresh)) && CALL(w, hl_renderer_render(fresh, st->s, cam)) &&
        CALL(w, hl_renderer_read_pixels(fresh, px, size)) && mine->valid) {
        hl_gen_diff d;
        hl_gen_compare(mine->data, px, w->out_w, w->out_h, false, &d);
        if ((d.mean > 1.0 || d.p99 > 4) && w->opt.dump_dir) { /* both images, for --dump */
            char path[512];
            snprintf(path, sizeof path, "%s/seed%llx-frame%u-history-long-lived.png", w->opt.dump_dir,
                     (unsigned long long)w->opt.seed, w->frame);
            hl_test_write_png(path, w->out_w, w->out_h, mine->data);
            snprintf(path, sizeof path, "%s/seed%llx-frame%u-history-new.png", w->opt.dump_dir,
                     (unsigned long long)w->opt.seed, w->frame);
            hl_test_write_png(path, w->out_w, w->out_h, px);
        }
        if (d.mean > 1.0 || d.p99 > 4)
            fail(w, "history: stage %u from the renderer of %u frames vs a new renderer, %ux%u: mean %.3f/255 (<= 1), "
                 "p99 %u/255 (<= 4), max %u at (%u, %u)",
                 si, w->frame + 1, w->out_w, w->out_h, d.mean, d.p99, d.max, d.worst_x, d.worst_y);
    }
    hl_renderer_destroy(fresh);
    free(px);
}

/* opt.loss: now and then the device is lost or the GPU objects dropped before the render calls;
 * they recover (the stats count it) and draw as the other world does. Decisions from
 * w->loss_rng only. */
static void mutate_loss(hl_gen_world *w) {
    hl_gen_rng *g = &w->loss_rng;
    if (!hl_gen_rng_chance(g, 0.12f)) return;
    if (hl_gen_rng_below(g, 3) < 2) {
        CALL(w, hl_renderer_simulate_device_loss(w->r));
        w->losses++;
        vlog(w, "device loss");
    } else {
        CALL(w, hl_renderer_release_gpu_resources(w->r));
        vlog(w, "release of the GPU resources");
    }
}

/* ---- the world ------------------------------------------------------------------------------------- */

hl_result hl_gen_world_create(const hl_gen_options *opt, hl_backend backend, hl_gen_world **out) {
    *out = NULL;
    hl_gen_world *w = calloc(1, sizeof *w);
    if (!w) return HL_ERR_OUT_OF_MEMORY;
    w->opt = *opt;
    w->backend = backend;
    hl_gen_rng_seed(&w->rng, opt->seed);
    hl_gen_rng_seed(&w->gltf_rng, opt->seed ^ 0x67546C46u); /* "glTF" */
    hl_gen_rng_seed(&w->env_rng, opt->seed ^ 0x456E7669u);  /* "Envi" */
    hl_gen_rng_seed(&w->loss_rng, opt->seed ^ 0x4C6F7373u); /* "Loss" */
    rand_size(w, &w->out_w, &w->out_h);
    w->samples = chance(w, 0.5f) ? 4 : 1;
    hl_renderer_desc rd = {0};
    rd.backend = backend;
    rd.wait_timeout_ms = 120000; /* sanitizer builds on a loaded 2-core machine: a slow frame is not a hang */
    rd.width = w->out_w;
    rd.height = w->out_h;
    rd.sample_count = w->samples;
    rd.shadow_atlas_size = w->atlas = chance(w, 0.2f) ? 0 : 1u << urange(w, 8, 12);
    rd.pipeline = factory_of(pipeline_kind(w));
    /* half the worlds cull, sort and prepare their draws on 3 threads from a view of 1-64 meshes
       on (the history check's fresh renderer runs on one thread: the images must agree) */
    hl_gen_rng_seed(&w->thread_rng, opt->seed ^ 0x54687264u); /* "Thrd" */
    bool threaded = hl_gen_rng_chance(&w->thread_rng, 0.5f);
    rd.frontend_threads = threaded ? 3u : 1u;
    hl_result res = hl_renderer_create(&rd, &w->r);
    if (res) {
        free(w);
        return res;
    }
    if (threaded) hl__renderer_set_parallel_min(w->r, hl_gen_rng_range(&w->thread_rng, 1, 64));
    ubs_create(w);
    w->tex_count = urange(w, 3, MAX_TEX);
    for (uint32_t i = 0; i < w->tex_count; i++) tex_make(w, i);
    uint32_t n = urange(w, 0, 3);
    for (uint32_t i = 0; i < n; i++) target_add(w);
    n = urange(w, 3, 8);
    for (uint32_t i = 0; i < n; i++) geo_add(w);
    n = urange(w, 3, 12);
    for (uint32_t i = 0; i < n; i++) mat_add(w, chance(w, 0.4f));
    hl_camera_desc cd = rand_camera_desc(w, false, (float)w->out_w / (float)w->out_h);
    CALL(w, hl_camera_create(&cd, &w->free_cam));
    camera_place(w, w->free_cam, false);
    w->stage_count = urange(w, 1, MAX_STAGES);
    for (uint32_t s = 0; s < w->stage_count; s++) stage_create(w, s);
    CALL(w, hl_stage_create(&w->blank));
    CALL(w, hl_camera_create(NULL, &w->blank_cam));
    *out = w;
    return HL_OK;
}

void hl_gen_world_frame_run(hl_gen_world *w, hl_gen_world_frame *out) {
    if (w->frame > 0) { /* failures while building the initial scene count in frame 0 */
        w->failures = 0;
        w->failure[0] = 0;
    }
    w->image_count = 0;
    w->views = 0;
    w->output_written = false;
    w->op_count = 0;
    for (uint32_t i = 0; i < MAX_TGT; i++) w->tgts[i].written = false;
    mutate(w);
    if (w->opt.gltf) mutate_gltf(w);
    if (w->opt.env) mutate_env(w);
    if (chance(w, 0.03f)) misuse_sample_own_target(w);
    if (w->opt.loss) mutate_loss(w);
    render_views(w);
    if (w->opt.loss && w->views && hl_renderer_device_lost(w->r))
        fail(w, "loss: the renderer is still lost after the frame's render calls (%u losses so far)", w->losses);
    /* diagnosis: frames before the focus frame are only replayed (the same calls into the long-lived
       renderer, nothing read back, no second renderer) to reach it sooner */
    bool replay = w->opt.focus_frame >= 0 && w->frame < (uint64_t)w->opt.focus_frame;
    if (!replay) read_back(w);
    if (w->opt.history_every && w->frame % w->opt.history_every == w->opt.history_every - 1) history_check(w, replay);
    out->image_count = w->image_count;
    out->images = w->images;
    out->views = w->views;
    out->failures = w->failures;
    memcpy(out->failure, w->failure, sizeof out->failure);
    out->out_w = w->out_w;
    out->out_h = w->out_h;
    out->meshes = 0;
    for (uint32_t s = 0; s < w->stage_count; s++) out->meshes += w->stages[s].mesh_count;
    w->frame++;
}

void hl_gen_world_destroy(hl_gen_world *w) {
    if (!w) return;
    /* teardown in a seed-drawn order: stages or targets or materials first */
    uint32_t order = urand(w, 3);
    for (uint32_t step = 0; step < 3; step++) {
        uint32_t what = (order + step) % 3;
        if (what == 0) {
            for (uint32_t s = 0; s < w->stage_count; s++) stage_destroy(w, s);
        } else if (what == 1) {
            for (uint32_t i = 0; i < MAX_TGT; i++)
                if (w->tgts[i].serial && chance(w, 0.5f)) target_remove(w, i); /* the rest: the renderer destroys them */
        } else {
            for (uint32_t i = 0; i < MAX_MAT; i++)
                if (w->mats[i].active) mat_retire(w, i);
            for (uint32_t i = 0; i < MAX_GEO; i++)
                if (w->geos[i].active) geo_retire(w, i);
        }
    }
    for (uint32_t i = 0; i < w->tex_count; i++) hl_texture_release(w->texs[i].t);
    for (uint32_t s = 0; s < SCHEMA_COUNT; s++)
        for (uint32_t i = 0; i < UB_PER_SCHEMA; i++) hl_uniform_buffer_release(w->ubs[s][i]);
    hl_node_destroy(hl_camera_node(w->free_cam));
    hl_node_destroy(hl_camera_node(w->blank_cam));
    hl_stage_destroy(w->blank);
    hl_renderer_destroy(w->r);
    for (uint32_t i = 0; i < MAX_IMAGES; i++) free(w->images[i].data);
    free(w);
}

hl_renderer *hl_gen_world_renderer(hl_gen_world *w) { return w ? w->r : NULL; }
