/* Recording one view into the frame's graph: the shared frontend (traversal, culling, queues,
 * instancing, prepared draws, lights and the shadow atlas plan) and its passes (shadow,
 * opaque, transparent). Identical for both backends: only the projection depth range differs
 * (r->gl_depth, from the device's clip_depth_negative_one capability), and the RHI carries
 * everything else. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hl_stage_update.h"
#include "render_internal.h"

hl_rhi_format hl__target_rhi_format(hl_target_format f) {
    switch (f) {
    case HL_TARGET_RGBA8: return HL_RHI_FORMAT_RGBA8_UNORM;
    case HL_TARGET_RGBA16F: return HL_RHI_FORMAT_RGBA16_FLOAT;
    default: return HL_RHI_FORMAT_RGBA8_UNORM_SRGB;
    }
}

static void mat_copy(float *dst, const hl_mat4 *m) { memcpy(dst, m->m, 16 * sizeof(float)); }

/* Matrix actually uploaded for rasterising: gles3 clips z in [-1, 1]. */
static hl_mat4 raster_matrix(const hl_renderer *r, const hl_mat4 *m) {
    return r->gl_depth ? hl_mat4_clip_zo_to_no(m) : *m;
}

/* ---- light and shadow planning ------------------------------------------------------------------ */
static hl_mat4 look_at(hl_vec3 eye, hl_vec3 dir, hl_vec3 up_hint) {
    hl_vec3 f = hl_vec3_normalize(dir);
    if (fabsf(hl_vec3_dot(f, up_hint)) > 0.99f) up_hint = (hl_vec3){1, 0, 0};
    hl_vec3 s = hl_vec3_normalize(hl_vec3_cross(f, up_hint));
    hl_vec3 u = hl_vec3_cross(s, f);
    hl_mat4 m = hl_mat4_identity();
    m.m[0] = s.x, m.m[4] = s.y, m.m[8] = s.z;
    m.m[1] = u.x, m.m[5] = u.y, m.m[9] = u.z;
    m.m[2] = -f.x, m.m[6] = -f.y, m.m[10] = -f.z;
    m.m[12] = -hl_vec3_dot(s, eye);
    m.m[13] = -hl_vec3_dot(u, eye);
    m.m[14] = hl_vec3_dot(f, eye);
    return m;
}

/* Right-handed, depth 0..1 (WebGPU). */
static hl_mat4 perspective(float fovy_rad, float aspect, float n, float f) {
    hl_mat4 m;
    memset(&m, 0, sizeof m);
    float t = 1.0f / tanf(fovy_rad * 0.5f);
    m.m[0] = t / aspect;
    m.m[5] = t;
    m.m[10] = f / (n - f);
    m.m[11] = -1.0f;
    m.m[14] = n * f / (n - f);
    return m;
}

static hl_mat4 ortho(float l, float rr, float b, float t, float n, float f) {
    hl_mat4 m = hl_mat4_identity();
    m.m[0] = 2.0f / (rr - l);
    m.m[5] = 2.0f / (t - b);
    m.m[10] = 1.0f / (n - f);
    m.m[12] = -(rr + l) / (rr - l);
    m.m[13] = -(t + b) / (t - b);
    m.m[14] = n / (n - f);
    return m;
}

static void add_tile(hl_renderer *r, hl__view *v, const hl_mat4 *vp, uint32_t tiles_per_side) {
    hl__shadow_tile *t = &r->tiles[r->tile_count];
    uint32_t local = r->tile_count - v->shadow_first;
    uint32_t size = r->desc.shadow_atlas_size / tiles_per_side;
    t->x = (local % tiles_per_side) * size;
    t->y = (local / tiles_per_side) * size;
    t->size = size;
    mat_copy(t->view_proj, vp);
    hl_mat4 rm = raster_matrix(r, vp);
    mat_copy(t->render_vp, &rm);
    r->tile_count++;
}

/* Lights into the Frame block; shadow tiles for casters (directional 1, spot 1, point 6). */
static void plan_lights(hl_renderer *r, hl__view *v, hl_stage *stage, hl__frame_block *fb, const hl_aabb *scene_box) {
    uint32_t count = 0;
    hl_light *const *lights = hl_stage_lights(stage, &count);
    uint32_t used = 0, tiles_needed = 0;
    for (uint32_t i = 0; i < count; i++) {
        const hl_light_desc *d = hl_light_get_desc(lights[i]);
        if (d->kind == HL_LIGHT_AMBIENT || !d->cast_shadows) continue;
        tiles_needed += d->kind == HL_LIGHT_POINT ? 6u : 1u;
    }
    if (tiles_needed > HL_RENDER_MAX_SHADOW_TILES) tiles_needed = HL_RENDER_MAX_SHADOW_TILES;
    uint32_t per_side = 1;
    while (per_side * per_side < tiles_needed) per_side++;
    v->shadow_first = r->tile_count;
    for (uint32_t i = 0; i < count; i++) {
        const hl_light_desc *d = hl_light_get_desc(lights[i]);
        float k = d->intensity;
        if (d->kind == HL_LIGHT_AMBIENT) {
            fb->ambient[0] += d->color.r * k;
            fb->ambient[1] += d->color.g * k;
            fb->ambient[2] += d->color.b * k;
            continue;
        }
        if (used >= HL_RENDER_MAX_LIGHTS) continue;
        hl_vec3 pos = hl_light_position(lights[i]);
        hl_vec3 dir = hl_light_direction(lights[i]);
        float type = d->kind == HL_LIGHT_DIRECTIONAL ? 0.0f : d->kind == HL_LIGHT_POINT ? 1.0f : 2.0f;
        float *c = fb->light_color[used];
        c[0] = d->color.r * k, c[1] = d->color.g * k, c[2] = d->color.b * k, c[3] = type;
        float *p = fb->light_pos[used];
        p[0] = pos.x, p[1] = pos.y, p[2] = pos.z, p[3] = d->range;
        const float deg = 3.14159265f / 180.0f;
        float *dd = fb->light_dir[used];
        dd[0] = dir.x, dd[1] = dir.y, dd[2] = dir.z, dd[3] = cosf(d->outer_cone_deg * deg);
        float *s = fb->light_shadow[used];
        float inner = d->inner_cone_deg > 0 ? cosf(d->inner_cone_deg * deg) : 1.0f;
        s[0] = inner > dd[3] ? inner : dd[3] + 1e-4f, s[1] = -1.0f, s[2] = d->shadow.bias;
        uint32_t need = d->kind == HL_LIGHT_POINT ? 6u : 1u;
        if (d->cast_shadows && r->tile_count - v->shadow_first + need <= tiles_needed) {
            s[1] = (float)(r->tile_count - v->shadow_first);
            if (d->kind == HL_LIGHT_DIRECTIONAL) {
                /* orthographic box around the visible scene, seen along the light */
                hl_vec3 c0 = {(scene_box->min.x + scene_box->max.x) * 0.5f, (scene_box->min.y + scene_box->max.y) * 0.5f,
                              (scene_box->min.z + scene_box->max.z) * 0.5f};
                hl_vec3 ext = {scene_box->max.x - c0.x, scene_box->max.y - c0.y, scene_box->max.z - c0.z};
                float radius = hl_aabb_is_empty(scene_box) ? d->shadow.ortho_size : hl_vec3_length(ext);
                if (radius <= 0) radius = 1;
                hl_vec3 eye = {c0.x - dir.x * radius * 2, c0.y - dir.y * radius * 2, c0.z - dir.z * radius * 2};
                hl_mat4 view = look_at(eye, dir, (hl_vec3){0, 1, 0});
                hl_mat4 proj = ortho(-radius, radius, -radius, radius, radius * 0.5f, radius * 3.5f);
                hl_mat4 vp = hl_mat4_mul(&proj, &view);
                add_tile(r, v, &vp, per_side);
            } else if (d->kind == HL_LIGHT_SPOT) {
                hl_mat4 view = look_at(pos, dir, (hl_vec3){0, 1, 0});
                float far_plane = d->range > 0 ? d->range : d->shadow.far_plane;
                hl_mat4 proj = perspective(2.0f * d->outer_cone_deg * deg + 0.05f, 1.0f, d->shadow.near_plane, far_plane);
                hl_mat4 vp = hl_mat4_mul(&proj, &view);
                add_tile(r, v, &vp, per_side);
            } else {
                static const hl_vec3 dirs[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
                static const hl_vec3 ups[6] = {{0, -1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}, {0, -1, 0}, {0, -1, 0}};
                float far_plane = d->range > 0 ? d->range : d->shadow.far_plane;
                for (int f = 0; f < 6; f++) {
                    hl_mat4 view = look_at(pos, dirs[f], ups[f]);
                    hl_mat4 proj = perspective(3.14159265f * 0.5f, 1.0f, d->shadow.near_plane, far_plane);
                    hl_mat4 vp = hl_mat4_mul(&proj, &view);
                    add_tile(r, v, &vp, per_side);
                }
            }
        }
        used++;
    }
    v->shadow_count = r->tile_count - v->shadow_first;
    fb->light_info[0] = (float)used;
    fb->light_info[1] = 1.0f / (float)r->desc.shadow_atlas_size;
    for (uint32_t t = 0; t < v->shadow_count; t++) {
        const hl__shadow_tile *tile = &r->tiles[v->shadow_first + t];
        memcpy(fb->shadow_matrix[t], tile->view_proj, sizeof fb->shadow_matrix[t]);
        float inv = 1.0f / (float)r->desc.shadow_atlas_size;
        fb->shadow_rect[t][0] = (float)tile->x * inv;
        fb->shadow_rect[t][1] = (float)tile->y * inv;
        fb->shadow_rect[t][2] = fb->shadow_rect[t][3] = (float)tile->size * inv;
    }
}

/* ---- shared bind groups ------------------------------------------------------------------------- */
static hl_rhi_bind_group_entry buffer_entry(uint32_t binding, hl_rhi_buffer b, uint64_t size) {
    hl_rhi_bind_group_entry e;
    memset(&e, 0, sizeof e);
    e.binding = binding;
    e.buffer = b;
    e.size = size;
    return e;
}

/* Frame (0), Object (1) and group 3 for a colour program: the shadow atlas for shadow receivers
 * (bindings 0, 1) and, with IBL, the view's environment (specular cube 2, 3; BRDF table 4, 5).
 * *g3: the group 3 to bind (id 0 = none). */
static hl_result color_groups(hl_renderer *r, const hl__view *v, const hl__program *p, hl_rhi_bind_group *g3) {
    *g3 = (hl_rhi_bind_group){0};
    hl_result res = HL_OK;
    if (!(p->empty_groups & 1u)) {
        hl_rhi_bind_group_entry e = buffer_entry(0, r->frame_ubo, sizeof(hl__frame_block));
        res = hl__owned_group_get(r, &r->frame_group, p, 0, &e, 1, "frame");
    }
    if (!res && p->kind == HL__PROGRAM_FORWARD && (p->defines & HL__DEF_SKINNED)) {
        hl_rhi_bind_group_entry e = buffer_entry(0, r->skin_ubo, HL__SKIN_STRIDE);
        res = hl__owned_group_get(r, &r->skin_group, p, 1, &e, 1, "skins");
    } else if (!res && !(p->empty_groups & 2u)) {
        hl_rhi_bind_group_entry e = buffer_entry(0, r->object_ubo, sizeof(hl__object_block));
        res = hl__owned_group_get(r, &r->object_group, p, 1, &e, 1, "objects");
    }
    bool ibl = p->kind == HL__PROGRAM_FORWARD && (p->defines & HL__DEF_IBL);
    if (!res && p->group_count > 3 && !p->storage) {
        hl_rhi_bind_group_entry a[6];
        memset(a, 0, sizeof a);
        uint32_t n = 0;
        bool atlas = !ibl || (p->defines & HL__DEF_RECEIVE_SHADOWS);
        if (atlas) {
            a[n].binding = 0, a[n++].view = r->atlas_view;
            a[n].binding = 1, a[n++].sampler = r->atlas_sampler;
        }
        if (ibl) {
            if (!v->env) return hl__fail(HL_ERR_INVALID_STATE, "renderer: an IBL program in a view without an environment");
            a[n].binding = 2, a[n++].view = v->env->view;
            a[n].binding = 3, a[n++].sampler = r->env_cube_sampler;
            a[n].binding = 4, a[n++].view = r->env_brdf_view;
            a[n].binding = 5, a[n++].sampler = r->env_lut_sampler;
        }
        hl__owned_group *og = !ibl ? &r->atlas_group : atlas ? &r->env_atlas_group : &r->env_group;
        res = hl__owned_group_get(r, og, p, 3, a, n, !ibl ? "shadow atlas" : "environment");
        *g3 = og->group;
    }
    return res;
}

/* The shadow program (instanced, skinned or plain) and its groups; skin: the draw's
 * HL__DEF_SKINNED / HL__DEF_SKINNED8 bits. */
static hl_result shadow_program(hl_renderer *r, bool instanced, uint64_t skin, hl__program **out) {
    uint64_t defs = (instanced ? HL__DEF_INSTANCED : 0u) | skin;
    hl_result res = hl__program_get(r, HL__PROGRAM_SHADOW, defs, out);
    if (res) return res;
    hl_rhi_bind_group_entry e = buffer_entry(0, r->shadow_ubo, 64);
    if ((res = hl__owned_group_get(r, &r->shadow_frame_group, *out, 0, &e, 1, "shadow"))) return res;
    if (skin) {
        e = buffer_entry(0, r->skin_ubo, HL__SKIN_STRIDE);
        return hl__owned_group_get(r, &r->shadow_skin_group, *out, 1, &e, 1, "skins");
    }
    e = buffer_entry(0, r->object_ubo, sizeof(hl__object_block));
    return hl__owned_group_get(r, &r->shadow_object_group, *out, 1, &e, 1, "objects");
}

/* The shadow pipeline of a layout for shadow program sp. */
static hl_result shadow_pipeline(hl_renderer *r, hl__program *sp, const hl_geometry_layout *l, bool instanced,
                                 hl__pipeline_entry **out) {
    hl__pipeline_key sk;
    memset(&sk, 0, sizeof sk);
    sk.program_id = sp->id;
    hl_result res = hl__pipeline_key_vertex(sp, l, &sk);
    if (res) return res;
    sk.depth_format = HL_RHI_FORMAT_DEPTH24_PLUS;
    sk.sample_count = 1;
    sk.depth_test = sk.depth_write = 1;
    sk.instanced = instanced;
    sk.shadow = 1;
    return hl__pipeline_get(r, sp, &sk, out);
}

/* Vertex buffers of a packet: the program's attributes in semantic order (as the pipeline's
 * vertex state lists them), then the instance matrices. */
static void packet_vertex_buffers(const hl__program *p, const hl__gpu_geometry *g, const hl_geometry_layout *l,
                                  hl_rhi_buffer instance_vbo, uint32_t first_instance, bool instanced,
                                  hl_rhi_draw_packet *pk) {
    uint8_t n = 0;
    for (uint32_t a = 0; a < HL_ATTR_COUNT; a++) {
        if (p->location[a] < 0) continue;
        pk->vertex_buffers[n] = g->vbo;
        pk->vertex_offsets[n++] = l->attributes[a].offset;
    }
    if (instanced) {
        pk->vertex_buffers[n] = instance_vbo;
        pk->vertex_offsets[n++] = (uint64_t)first_instance * 64u;
    }
    pk->vertex_buffer_count = n;
}

static void packet_indices(const hl__gpu_geometry *g, const hl_geometry_layout *l, hl_rhi_draw_packet *pk) {
    pk->indexed = l->index_count ? 1 : 0;
    pk->index_buffer = g->ibo;
    pk->index_format = l->index_format == HL_INDEX_UINT16 ? HL_RHI_INDEX_UINT16 : HL_RHI_INDEX_UINT32;
    pk->count = l->index_count ? l->index_count : l->vertex_count;
}

/* A draw's sort key (64 bits, compared whole): the class (opaque before transparent), the
 * render order (all 32 bits, biased so that negative orders sort first), then 31 bits of
 * state or depth: opaque draws grouped by pipeline, material and geometry (the renderer's own
 * identities, the same on every backend; low bits only: equal bits only weaken grouping),
 * transparent ones back to front. Ties keep the traversal order. */
#define HL__SORT_CLASS_SHIFT 63
#define HL__SORT_ORDER_SHIFT 31
#define HL__SORT_CLASS_MASK (1ull << HL__SORT_CLASS_SHIFT)
#define HL__SORT_ORDER_MASK (0xffffffffull << HL__SORT_ORDER_SHIFT)
#define HL__SORT_LOW_MASK ((1ull << HL__SORT_ORDER_SHIFT) - 1u)
#define HL__SORT_PIPELINE_SHIFT 20 /* opaque: 11 bits pipeline, 10 bits material, 10 bits geometry */
#define HL__SORT_MATERIAL_SHIFT 10
_Static_assert((HL__SORT_CLASS_MASK & HL__SORT_ORDER_MASK) == 0, "sort key: class and order overlap");
_Static_assert((HL__SORT_ORDER_MASK & HL__SORT_LOW_MASK) == 0, "sort key: order and state overlap");
_Static_assert((HL__SORT_CLASS_MASK | HL__SORT_ORDER_MASK | HL__SORT_LOW_MASK) == ~0ull, "sort key: bits unused");
_Static_assert(HL__SORT_PIPELINE_SHIFT + 11 == HL__SORT_ORDER_SHIFT, "sort key: opaque state fields");

static uint32_t float_order(float f) { /* monotonic uint of a float */
    uint32_t u;
    memcpy(&u, &f, 4);
    return (u & 0x80000000u) ? ~u : u | 0x80000000u;
}

uint64_t hl__sort_key(bool transparent, int32_t render_order, uint32_t pipeline, uint32_t material, uint32_t geometry, float depth) {
    uint64_t key = (uint64_t)transparent << HL__SORT_CLASS_SHIFT;
    key |= (uint64_t)((uint32_t)render_order ^ 0x80000000u) << HL__SORT_ORDER_SHIFT;
    if (transparent) return key | ((uint64_t)(~float_order(depth)) >> 1); /* farther first */
    return key | ((uint64_t)(pipeline & 0x7ffu) << HL__SORT_PIPELINE_SHIFT) |
           ((uint64_t)(material & 0x3ffu) << HL__SORT_MATERIAL_SHIFT) | (uint64_t)(geometry & 0x3ffu);
}

typedef struct hl__sort_item {
    uint64_t key;
    uint32_t index;
} sort_item;

static int sort_cmp(const void *a, const void *b) {
    const sort_item *x = a, *y = b;
    return x->key < y->key ? -1 : x->key > y->key ? 1 : (x->index < y->index ? -1 : x->index > y->index);
}

/* Instancing is a hint: meshes with shader materials (whose shaders read no instance inputs)
 * and skinned meshes (a palette each) are drawn one by one. */
static bool draws_instanced(hl_mesh *m) {
    return hl_mesh_instanced(m) && hl_material_get_kind(hl_mesh_material(m)) != HL_MATERIAL_SHADER &&
           !hl_mesh_skin_joint_count(m);
}

/* Is the draw of mesh (with material mat, geometry layout l) skinned? Engine materials with
 * JOINTS_0 (UINT8 / UINT16 x4) and 4 WEIGHTS_0 (shader materials draw the bind pose): then
 * HL__DEF_SKINNED, plus HL__DEF_SKINNED8 when JOINTS_1 and 4 WEIGHTS_1 add a second set of
 * influences; else 0. */
static uint64_t skin_defines(const hl_mesh *mesh, const hl_material *mat, const hl_geometry_layout *l) {
    const hl_vertex_attribute_info *j = &l->attributes[HL_ATTR_JOINTS_0], *w = &l->attributes[HL_ATTR_WEIGHTS_0];
    const hl_vertex_attribute_info *j1 = &l->attributes[HL_ATTR_JOINTS_1], *w1 = &l->attributes[HL_ATTR_WEIGHTS_1];
    if (!hl_mesh_skin_joint_count(mesh) || hl_material_get_kind(mat) == HL_MATERIAL_SHADER || !j->present ||
        !w->present || w->components != 4 || l->topology != HL_TOPOLOGY_TRIANGLES)
        return 0;
    return HL__DEF_SKINNED | (j1->present && w1->present && w1->components == 4 ? HL__DEF_SKINNED8 : 0u);
}

/* A draw's skinning inputs for the shadow pass: skin (skin_defines) set, the joints and
 * weights of one set of influences, or of both. */
static void draw_skin_attrs(hl__draw *out, uint64_t skin, const hl_geometry_layout *l) {
    static const hl_attribute skin_attrs[4] = {HL_ATTR_JOINTS_0, HL_ATTR_WEIGHTS_0, HL_ATTR_JOINTS_1,
                                               HL_ATTR_WEIGHTS_1};
    out->skinned = skin != 0;
    out->skin_attrs = !skin ? 0u : (skin & HL__DEF_SKINNED8) ? 4u : 2u;
    for (uint32_t i = 0; i < out->skin_attrs; i++) out->skin_offsets[i] = l->attributes[skin_attrs[i]].offset;
}

/* Builds one draw (mesh, or an instanced batch starting at instance `first`). */
/* override: a material drawn instead of the mesh's (renderer lists); such draws are not kept
 * as the mesh's prepared draw. */
static hl_result build_draw_as(hl_renderer *r, const hl__view *v, hl_mesh *mesh, uint32_t instances, uint32_t first,
                               hl_material *override, hl__draw *out);

static hl_result build_draw(hl_renderer *r, const hl__view *v, hl_mesh *mesh, uint32_t instances, uint32_t first,
                            hl__draw *out) {
    return build_draw_as(r, v, mesh, instances, first, NULL, out);
}

/* What a draw needs besides its mesh's own slot: the material's mirror and group, the program,
 * group 3, the geometry's buffers, the shadow program. For one view these depend on the
 * material, the geometry and the mesh's shadow flags only (draw_memo reuses them). */
typedef struct draw_inputs {
    hl__gpu_material *gm;
    hl__program *p, *sp; /* sp: the shadow program when the draw casts */
    hl__gpu_geometry *g;
    hl_rhi_bind_group g3;
    bool casts;
} draw_inputs;

static hl_result draw_resolve(hl_renderer *r, const hl__view *v, hl_mesh *mesh, hl_material *mat, bool instanced,
                              uint64_t skin, hl__gpu_mesh **rec, draw_inputs *in) {
    const hl_render_target *t = v->target;
    hl_geometry *geo = hl_mesh_geometry(mesh);
    const hl_geometry_layout *l = hl_geometry_get_layout(geo);
    const hl_material_variant *var = hl_material_get_variant(mat);
    hl_result res = hl__gpu_material_get(r, mat, &in->gm);
    if (res) return res;
    hl__program *p;
    if (var->kind == HL_MATERIAL_SHADER) {
        res = hl__shader_material_program(r, mat, in->gm, &p);
    } else {
        bool gbuffer = v->gbuffer && var->alpha_mode != HL_ALPHA_BLEND;
        uint64_t defines = hl__program_key_for(l, var, instanced, v->shadow_count > 0 && hl_mesh_receive_shadows(mesh),
                                               v->fog && !gbuffer, t->desc.color_count);
        if (gbuffer) defines |= HL__DEF_GBUFFER;
        else if (v->env && (defines & HL__DEF_HAS_NORMAL)) defines |= HL__DEF_IBL; /* lit with normals */
        defines = hl__program_key_fit(defines | skin);
        res = hl__program_get(r, HL__PROGRAM_FORWARD, defines, &p);
    }
    if (!res && p->storage && !v->scripted)
        res = hl__fail(HL_ERR_VALIDATION, "renderer: shader material '%s' reads storage blocks (GLSL ES 3.10): draw it "
                       "through a pipeline's scene pass that binds them (hl_pipeline_scene_pass_desc.storage)",
                       hl_material_label(mat));
    in->p = p;
    /* the mesh's object slot (and palette) first: a palette buffer that grows retires the groups
       that color_groups and shadow_program make */
    if (!res && !instanced && !(res = hl__gpu_mesh_slot_hint(r, mesh, *rec, rec)) && skin) res = hl__gpu_mesh_skin(r, *rec);
    if (res || (res = color_groups(r, v, p, &in->g3))) return res;
    if ((res = hl__gpu_geometry_get(r, geo, &in->g)) || (res = hl__gpu_material_bind(r, in->gm, p))) return res;
    in->casts = hl_mesh_cast_shadows(mesh) && v->shadow_count > 0;
    in->sp = NULL;
    if (in->casts && (res = shadow_program(r, instanced, skin, &in->sp))) return res;
    return HL_OK;
}

static hl_result draw_assemble(hl_renderer *r, const hl__view *v, hl_mesh *mesh, uint32_t instances, uint32_t first,
                               hl_material *override, uint64_t skin, hl__gpu_mesh *rec, const draw_inputs *in,
                               const hl__prepared_sig *kind_sig, hl__prepared_sig *sig_out, hl__draw *out);

static hl_result build_draw_as(hl_renderer *r, const hl__view *v, hl_mesh *mesh, uint32_t instances, uint32_t first,
                               hl_material *override, hl__draw *out) {
    hl_material *mat = override ? override : hl_mesh_material(mesh);
    bool instanced = instances > 0;
    uint64_t skin = instanced ? 0u : skin_defines(mesh, mat, hl_geometry_get_layout(hl_mesh_geometry(mesh)));
    hl__gpu_mesh *rec = NULL;
    draw_inputs in;
    hl_result res = draw_resolve(r, v, mesh, mat, instanced, skin, &rec, &in);
    return res ? res : draw_assemble(r, v, mesh, instances, first, override, skin, rec, &in, NULL, NULL, out);
}

/* A mesh's signature from that of an earlier mesh of its memo kind (all but its revision). */
static hl__prepared_sig kind_signature(const hl__prepared_sig *kind, const hl_mesh *mesh) {
    hl__prepared_sig sig = *kind;
    sig.mesh_revision = hl_mesh_revision(mesh);
    return sig;
}

/* The mesh's prepared draw as this view's draw (its signature holds). */
static void prepared_take(const hl__view *v, const hl__gpu_mesh *rec, const hl__program *p, hl_mesh *mesh, hl__draw *out) {
    *out = *rec->prepared;
    out->packet.dynamic_offsets[0] = p->empty_groups & 1u ? 0 : v->frame_slot * HL__FRAME_STRIDE;
    out->mesh = mesh;
}

/* The draw from its inputs: the mesh's prepared draw when its signature holds, else built.
 * kind_sig (plain draws of the draw memo): the signature of an earlier mesh of the same kind in
 * this view, equal to this mesh's in all but its revision (*sig_out: this draw's signature). */
static hl_result draw_assemble(hl_renderer *r, const hl__view *v, hl_mesh *mesh, uint32_t instances, uint32_t first,
                               hl_material *override, uint64_t skin, hl__gpu_mesh *rec, const draw_inputs *in,
                               const hl__prepared_sig *kind_sig, hl__prepared_sig *sig_out, hl__draw *out) {
    const hl_render_target *t = v->target;
    hl_material *mat = override ? override : hl_mesh_material(mesh);
    const hl_geometry_layout *l = hl_geometry_get_layout(hl_mesh_geometry(mesh));
    const hl_material_variant *var = hl_material_get_variant(mat);
    bool instanced = instances > 0, skinned = skin != 0, casts = in->casts;
    hl__gpu_material *gm = in->gm;
    hl__gpu_geometry *g = in->g;
    hl__program *p = in->p, *sp = in->sp;
    hl_rhi_bind_group g3 = in->g3;
    hl_result res;
    hl__prepared_sig sig;
    memset(&sig, 0, sizeof sig);
    if (kind_sig) {
        sig = kind_signature(kind_sig, mesh);
    } else if (!instanced) {
        sig.mesh_revision = hl_mesh_revision(mesh);
        sig.variant_revision = hl_material_variant_revision(mat);
        sig.evict_epoch = r->evict_epoch;
        sig.program_id = p->id;
        sig.target = t;
        sig.target_generation = t->generation;
        sig.casts_shadows = casts;
        sig.material_group = gm->group.group.id;
        sig.vbo = g->vbo.id;
        sig.ibo = g->ibo.id;
        sig.frame_group = r->frame_group.group.id;
        sig.object_group = skinned ? r->skin_group.group.id : r->object_group.group.id;
        sig.atlas_group = g3.id;
        sig.shadow_frame_group = r->shadow_frame_group.group.id;
        sig.shadow_object_group = skinned ? r->shadow_skin_group.group.id : r->shadow_object_group.group.id;
    }
    if (sig_out) *sig_out = sig;
    if (!instanced) {
        if (!override && rec->prepared && !memcmp(&sig, &rec->prepared_sig, sizeof sig)) {
            prepared_take(v, rec, p, mesh, out);
            out->color_entry->last_frame = r->frame_serial; /* alive: the eviction epoch holds */
            if (out->shadow_entry) out->shadow_entry->last_frame = r->frame_serial;
            r->stats.prepared_reused++;
            return HL_OK;
        }
    }

    hl__pipeline_key k;
    memset(&k, 0, sizeof k);
    k.program_id = p->id;
    if ((res = hl__pipeline_key_vertex(p, l, &k))) return res;
    k.color_count = t->desc.color_count;
    for (uint32_t i = 0; i < k.color_count; i++) k.color_formats[i] = t->formats[i];
    k.depth_format = t->desc.no_depth ? 0 : HL_RHI_FORMAT_DEPTH24_PLUS;
    k.sample_count = t->desc.sample_count;
    k.blend = var->alpha_mode == HL_ALPHA_BLEND;
    k.depth_test = var->depth_test && !t->desc.no_depth;
    k.depth_write = var->depth_write && !t->desc.no_depth;
    k.cull = !var->double_sided;
    k.instanced = instanced;
    memset(out, 0, sizeof *out);
    hl_rhi_draw_packet *pk = &out->packet;
    if ((res = hl__pipeline_get(r, p, &k, &out->color_entry))) return res;
    pk->pipeline = out->color_entry->pipeline;
    pk->bind_groups[0] = r->frame_group.group;
    pk->dynamic_offsets[0] = v->frame_slot * HL__FRAME_STRIDE;
    pk->bind_groups[1] = skinned ? r->skin_group.group : r->object_group.group;
    pk->dynamic_offsets[1] = skinned ? (rec->skin_slot1 - 1) * HL__SKIN_STRIDE : rec ? rec->slot * HL__OBJECT_STRIDE : 0;
    pk->bind_groups[2] = gm->group.group;
    pk->bind_group_count = 3;
    if (p->group_count > 3 && !p->storage) { /* storage programs: the scene pass binds group 3 */
        pk->bind_groups[3] = g3;
        pk->bind_group_count = 4;
    }
    pk->dynamic_offset_mask = 3;
    for (uint32_t gi = 0; gi < 3; gi++) {
        if (!(p->empty_groups & (1u << gi))) continue;
        if ((res = hl__empty_group(r, p, gi, &pk->bind_groups[gi]))) return res;
        pk->dynamic_offset_mask &= (uint8_t)~(1u << gi);
        pk->dynamic_offsets[gi] = 0;
    }
    packet_vertex_buffers(p, g, l, r->instance_vbo, first, instanced, pk);
    packet_indices(g, l, pk);
    pk->instance_count = instanced ? instances : 1;
    out->faces = (l->topology == HL_TOPOLOGY_TRIANGLES ? pk->count / 3u : 0u) * pk->instance_count;
    out->mesh = mesh;
    out->transparent = var->alpha_mode == HL_ALPHA_BLEND;
    out->casts_shadows = casts;
    out->instanced = instanced;
    out->position_offset = l->attributes[HL_ATTR_POSITION].offset;
    draw_skin_attrs(out, skin, l);
    /* ties of the sort key come from content (the pipeline's state and program, and the order
       in which the view meets materials and geometries: see view_build_draws), never from ids
       or addresses: a new renderer, either backend, orders the same scene the same way */
    out->tie_pipeline = (uint32_t)out->color_entry->content_hash;
    if (sp) {
        if ((res = shadow_pipeline(r, sp, l, instanced, &out->shadow_entry))) return res;
        out->shadow_pipeline = out->shadow_entry->pipeline;
    }
    out->instance_first = first;
    if (rec && !override) {
        if (!rec->prepared && !(rec->prepared = hl__malloc(sizeof *rec->prepared)))
            return hl__fail(HL_ERR_OUT_OF_MEMORY, "renderer: out of memory for a prepared draw");
        *rec->prepared = *out;
        rec->prepared_sig = sig;
        r->stats.prepared_rebuilt++;
    }
    return HL_OK;
}

/* A caster outside the view: the shadow pass only (no colour program, no material group). */
static hl_result build_shadow_draw(hl_renderer *r, hl_mesh *mesh, hl__draw *out) {
    hl_geometry *geo = hl_mesh_geometry(mesh);
    const hl_geometry_layout *l = hl_geometry_get_layout(geo);
    hl__gpu_geometry *g;
    hl__gpu_mesh *rec;
    hl__program *sp;
    hl__pipeline_entry *se;
    hl_result res;
    /* a skinned caster is drawn skinned (its palette before the groups, as in build_draw_as) */
    uint64_t skin = skin_defines(mesh, hl_mesh_material(mesh), l);
    if ((res = hl__gpu_geometry_get(r, geo, &g)) || (res = hl__gpu_mesh_slot(r, mesh, &rec)) ||
        (skin && (res = hl__gpu_mesh_skin(r, rec))) || (res = shadow_program(r, false, skin, &sp)) ||
        (res = shadow_pipeline(r, sp, l, false, &se)))
        return res;
    memset(out, 0, sizeof *out);
    hl_rhi_draw_packet *pk = &out->packet;
    pk->dynamic_offsets[1] = skin ? (rec->skin_slot1 - 1) * HL__SKIN_STRIDE : rec->slot * HL__OBJECT_STRIDE;
    draw_skin_attrs(out, skin, l);
    pk->vertex_buffers[0] = g->vbo;
    pk->vertex_buffer_count = 1;
    packet_indices(g, l, pk);
    pk->instance_count = 1;
    out->mesh = mesh;
    out->casts_shadows = true;
    out->position_offset = l->attributes[HL_ATTR_POSITION].offset;
    out->shadow_pipeline = se->pipeline;
    out->shadow_entry = se;
    return HL_OK;
}

/* ---- passes -------------------------------------------------------------------------------------
 * Each pass gets its view as user data (views live in the renderer for the whole frame). */
static hl_result setup_shadow(hl_graph_pass_builder *b, void *params, void *user) {
    (void)params;
    hl__view *v = user;
    hl_graph_depth_attachment_desc d = {0};
    d.depth_clear_value = 1.0f;
    return hl_graph_depth_attachment(b, v->atlas, &d);
}

static hl_result exec_shadow(hl_graph_ctx *ctx, void *params, void *user) {
    (void)params;
    hl__view *v = user;
    hl_renderer *r = v->r;
    hl_rhi_cmd *cmd = hl_graph_ctx_cmd(ctx);
    hl_result res = hl_graph_ctx_begin_render_pass(ctx);
    for (uint32_t t = 0; !res && t < v->shadow_count; t++) {
        const hl__shadow_tile *tile = &r->tiles[v->shadow_first + t];
        res = hl_rhi_cmd_set_viewport(cmd, (float)tile->x, (float)tile->y, (float)tile->size, (float)tile->size, 0, 1);
        if (!res) res = hl_rhi_cmd_set_scissor(cmd, tile->x, tile->y, tile->size, tile->size);
        uint32_t tile_off = (v->shadow_first + t) * HL__SHADOW_STRIDE;
        for (uint32_t i = 0; !res && i < v->draw_count + v->shadow_only_count; i++) {
            const hl__draw *d = &r->draws[v->draw_first + i];
            if (!d->casts_shadows || d->transparent) continue;
            hl_rhi_draw_packet pk = d->packet;
            pk.pipeline = d->shadow_pipeline;
            pk.bind_groups[0] = r->shadow_frame_group.group;
            pk.dynamic_offsets[0] = tile_off;
            pk.bind_groups[1] = d->skinned ? r->shadow_skin_group.group : r->shadow_object_group.group;
            pk.bind_group_count = 2;
            pk.dynamic_offset_mask = 3;
            /* position is the shadow program's only attribute (slot 0), the instances after it;
               skinned: the joints and weights after it (of both sets with 8 influences) */
            pk.vertex_buffers[0] = d->packet.vertex_buffers[0];
            pk.vertex_offsets[0] = d->position_offset;
            pk.vertex_buffer_count = 1;
            for (uint32_t s = 0; s < d->skin_attrs; s++) {
                pk.vertex_buffers[1 + s] = d->packet.vertex_buffers[0];
                pk.vertex_offsets[1 + s] = d->skin_offsets[s];
            }
            pk.vertex_buffer_count += (uint8_t)d->skin_attrs;
            if (d->instanced) {
                pk.vertex_buffers[1] = r->instance_vbo;
                pk.vertex_offsets[1] = d->packet.vertex_offsets[d->packet.vertex_buffer_count - 1];
                pk.vertex_buffer_count = 2;
            }
            res = hl_rhi_cmd_draw_packets(cmd, &pk, 1, NULL);
        }
    }
    if (!res) res = hl_rhi_cmd_end_render_pass(cmd);
    return res;
}

static hl_result setup_color(hl_graph_pass_builder *b, hl__view *v, bool transparent) {
    bool last = transparent || !v->has_transparent;
    hl_result res = HL_OK;
    for (uint32_t i = 0; !res && i < v->color_count; i++) {
        hl_graph_color_attachment_desc c = {0};
        c.load_op = transparent ? HL_RHI_LOAD_LOAD : HL_RHI_LOAD_CLEAR;
        c.store_op = (last && v->msaa) ? HL_RHI_STORE_DISCARD : HL_RHI_STORE_STORE;
        memcpy(c.clear_color, v->clear, sizeof c.clear_color);
        res = hl_graph_color_attachment(b, i, v->color[i], &c);
        if (!res && last && v->msaa) res = hl_graph_resolve_attachment(b, i, v->resolve[i]);
        if (!res && last) res = hl_graph_output_texture(b, v->msaa ? v->resolve[i] : v->color[i]);
    }
    if (!res && v->depth.id) {
        hl_graph_depth_attachment_desc d = {0};
        d.depth_load_op = transparent ? HL_RHI_LOAD_LOAD : HL_RHI_LOAD_CLEAR;
        d.depth_store_op = last ? HL_RHI_STORE_DISCARD : HL_RHI_STORE_STORE;
        d.depth_clear_value = 1.0f;
        res = hl_graph_depth_attachment(b, v->depth, &d);
    }
    if (!res && v->shadow_count) res = hl_graph_read_texture(b, v->atlas);
    return res;
}

static hl_result setup_opaque(hl_graph_pass_builder *b, void *params, void *user) {
    (void)params;
    return setup_color(b, user, false);
}

static hl_result setup_transparent(hl_graph_pass_builder *b, void *params, void *user) {
    (void)params;
    return setup_color(b, user, true);
}

static hl_result exec_color(hl_graph_ctx *ctx, hl__view *v, bool transparent) {
    hl_renderer *r = v->r;
    hl_rhi_cmd *cmd = hl_graph_ctx_cmd(ctx);
    hl_result res = hl_graph_ctx_begin_render_pass(ctx);
    uint32_t first = v->draw_first + (transparent ? v->opaque_count : 0);
    uint32_t count = transparent ? v->draw_count - v->opaque_count : v->opaque_count;
    /* the view's packets in execution order (view_sort): one call for the pass, through render
       bundles (render_bundle.c) or one by one; the RHI's command-state cache carries the bound
       state from one to the next */
    if (!res && count && !r->desc.no_render_bundles)
        res = hl__bundles_draw(r, cmd, v, transparent, &r->sorted_packets[first], count);
    else if (!res && count)
        res = hl_rhi_cmd_draw_packets(cmd, &r->sorted_packets[first], count, NULL);
    if (!res) res = hl_rhi_cmd_end_render_pass(cmd);
    return res;
}

static hl_result exec_opaque(hl_graph_ctx *ctx, void *params, void *user) {
    (void)params;
    return exec_color(ctx, user, false);
}

static hl_result exec_transparent(hl_graph_ctx *ctx, void *params, void *user) {
    (void)params;
    return exec_color(ctx, user, true);
}

static hl_graph_texture import_target(hl_renderer *r, hl_rhi_texture t, const char *name) {
    return t.id ? hl_graph_import_texture(r->graph, t, name) : (hl_graph_texture){0};
}

/* The renderer's output colour is a deferred import (seed 003 §7.4, importOutput): the graph asks
 * for the texture only when a pass that uses it survives culling, which is where a window's
 * surface image is to be acquired: once per frame, however many passes write the output
 * (hl_render_stats.output_acquires). */
static hl_result provide_output(void *user, hl_rhi_texture *out) {
    hl_renderer *r = user;
    if (r->output_acquired != r->frame_serial) {
        r->output_acquired = r->frame_serial;
        r->stats.output_acquires++;
    }
    *out = r->output->color[0];
    return HL_OK;
}

hl_graph_texture hl__output_import(hl_renderer *r) {
    const hl_rhi_texture_desc *d = hl_rhi_texture_get_desc(r->dev, r->output->color[0]);
    if (!d) return import_target(r, r->output->color[0], "output"); /* the graph names the stale handle */
    return hl_graph_import_texture_deferred(r->graph, d, provide_output, r, "output");
}

/* Colour attachment i of t (its single-sample texture) as a resource of this frame. */
static hl_graph_texture import_color(hl_renderer *r, hl_render_target *t, uint32_t i) {
    return t == r->output && i == 0 ? hl__output_import(r) : import_target(r, t->color[i], "colour");
}

/* ---- one view: update -> cull -> lights -> draws -> sort -> uploads -> passes ----------------- */
static hl_result view_begin(hl_renderer *r, hl__view *v, hl_render_target *t, hl_stage *stage, hl_camera *camera) {
    hl_result res = hl_camera_check(camera); /* a node of another kind cast to a camera is refused */
    if (!res) res = hl__stage_update_on(stage, r->workers, r->parallel_min);
    if (!res) res = hl_camera_update(camera);
    if (res) return res;
    memset(v, 0, sizeof *v);
    v->target = t;
    v->stage = stage;
    v->camera = camera;
    v->r = r;
    v->frame_slot = r->view_count;
    v->shadow_view = r->view_count;
    hl__frame_block *fb = &r->frame_blocks[v->frame_slot];
    memset(fb, 0, sizeof *fb);
    hl_mat4 vp = raster_matrix(r, hl_camera_view_projection(camera));
    mat_copy(fb->view_proj, &vp);
    v->eye = hl_node_world_position(hl_camera_node(camera));
    fb->camera_pos[0] = v->eye.x, fb->camera_pos[1] = v->eye.y, fb->camera_pos[2] = v->eye.z;
    fb->camera_pos[3] = hl_camera_get_desc(camera)->far_plane;
    const hl_fog *fog = hl_stage_fog(stage);
    v->fog = fog && fog->mode != HL_FOG_NONE;
    if (v->fog) {
        fb->fog_color[0] = fog->color.r, fb->fog_color[1] = fog->color.g, fb->fog_color[2] = fog->color.b;
        fb->fog_params[0] = (float)fog->mode, fb->fog_params[1] = fog->start, fb->fog_params[2] = fog->end;
        fb->fog_params[3] = fog->density;
    }
    hl__gpu_env *env = NULL;
    res = hl__env_view(r, stage, fb, &env);
    v->env = env;
    return res;
}

/* The traversal, split for the frontend threads: part p tests its range of the stage's meshes and
 * writes its visible ones at r->order[first..) and its offscreen casters at r->order[mesh_count +
 * first..), in traversal order; view_cull joins the parts in order. Reads the scene only (a skinned
 * mesh's joint boxes are a cache of the mesh itself, which only its part touches). */
typedef struct cull_ctx {
    hl_renderer *r;
    hl_mesh *const *meshes;
    uint32_t mesh_count;
    const hl_frustum *fr;
    bool need_box;
} cull_ctx;

static void cull_part(void *ctx, uint32_t part, uint32_t parts) {
    const cull_ctx *c = ctx;
    uint32_t first, end, visible = 0, offscreen = 0, culled = 0;
    hl__work_range(c->mesh_count, part, parts, &first, &end);
    uint32_t *order = c->r->order;
    hl_aabb box = {{1e30f, 1e30f, 1e30f}, {-1e30f, -1e30f, -1e30f}};
    for (uint32_t i = first; i < end; i++) {
        hl_sphere s = hl_mesh_world_sphere(c->meshes[i]);
        /* a skinned mesh's bounds are its posed bounds (they follow its joints) */
        if (!hl_frustum_test_sphere(c->fr, &s)) {
            culled++;
            /* a caster outside the view may still shadow what is visible: it joins the
               shadow pass (and the bounds the directional shadow box is fitted to) only */
            if (!hl_mesh_cast_shadows(c->meshes[i])) continue;
            order[c->mesh_count + first + offscreen++] = i;
        } else {
            order[first + visible++] = i;
        }
        if (!c->need_box) continue;
        hl_aabb b = hl_mesh_world_aabb(c->meshes[i]);
        hl_aabb_merge(&box, &b);
    }
    c->r->cull_parts[part] = (struct hl__cull_part){visible, offscreen, culled, box};
}

/* One traversal: meshes in the view (r->order[0..visible)), shadow casters outside it (after
 * mesh_count), and the bounds a directional shadow box is fitted to. */
static hl_result view_cull(hl_renderer *r, hl__view *v, hl_aabb *box) {
    uint32_t mesh_count = 0;
    hl_mesh *const *meshes = hl_stage_meshes(v->stage, &mesh_count);
    const hl_frustum *fr = hl_camera_frustum(v->camera);
    uint64_t need = (uint64_t)mesh_count * 2u + 1u;
    if (need > UINT32_MAX) return hl__fail(HL_ERR_OUT_OF_MEMORY, "renderer: %u meshes in one stage", mesh_count);
    if (!hl__reserve((void **)&r->order, &r->order_capacity, (uint32_t)need, sizeof(uint32_t)))
        return HL_ERR_OUT_OF_MEMORY;
    *box = (hl_aabb){{1e30f, 1e30f, 1e30f}, {-1e30f, -1e30f, -1e30f}};
    bool need_box = false;
    uint32_t light_count = 0;
    hl_light *const *lights = hl_stage_lights(v->stage, &light_count);
    for (uint32_t i = 0; i < light_count; i++) {
        const hl_light_desc *ld = hl_light_get_desc(lights[i]);
        need_box |= ld->kind == HL_LIGHT_DIRECTIONAL && ld->cast_shadows;
    }
    cull_ctx c = {r, meshes, mesh_count, fr, need_box};
    uint32_t parts = mesh_count >= r->parallel_min ? hl__workers_parts(r->workers, HL__FRONTEND_PARTS_PER_THREAD) : 1u;
    hl__workers_run(r->workers, parts, cull_part, &c);
    /* the parts in order (moved down over the gaps the parts before left) */
    uint32_t visible = 0, offscreen = 0;
    for (uint32_t p = 0; p < parts; p++) {
        const struct hl__cull_part *cp = &r->cull_parts[p];
        uint32_t first, end;
        hl__work_range(mesh_count, p, parts, &first, &end);
        if (first != visible) memmove(r->order + visible, r->order + first, cp->visible * sizeof *r->order);
        if (first != offscreen)
            memmove(r->order + mesh_count + offscreen, r->order + mesh_count + first, cp->offscreen * sizeof *r->order);
        visible += cp->visible;
        offscreen += cp->offscreen;
        r->stats.meshes_culled += cp->culled;
        hl_aabb_merge(box, &cp->box);
    }
    r->stats.meshes_visible += visible;
    v->visible = visible;
    v->offscreen = offscreen;
    v->mesh_count = mesh_count;
    v->order_serial = ++r->order_serial;
    return hl__reserve_object_slots(r, visible + offscreen);
}

/* The number of the first meeting of object p in this view (a table cleared per view). */
static uint32_t seen_index(hl_renderer *r, const void *p) {
    uint32_t slot = (uint32_t)hl__hash_mix((uint64_t)(uintptr_t)p) & r->seen_mask;
    struct hl__seen_slot *e = &r->seen_table[slot];
    while (e->stamp == r->seen_stamp && e->object != p) {
        slot = (slot + 1) & r->seen_mask;
        e = &r->seen_table[slot];
    }
    if (e->stamp != r->seen_stamp) *e = (struct hl__seen_slot){p, r->seen_count++, r->seen_stamp};
    return e->index;
}

static void seen_ties(hl_renderer *r, hl_mesh *m, hl__draw *d) {
    d->tie_material = seen_index(r, hl_mesh_material(m));
    d->tie_geometry = seen_index(r, hl_mesh_geometry(m));
}

/* before_render once per mesh per render call: the meshes told, forgotten when the render
 * call changes. On a failed insert the mesh is told again rather than not at all. */
static bool before_seen(hl_renderer *r, const hl_mesh *m) {
    if (r->before_invocation != r->invocations || r->before_serial != r->frame_serial) {
        r->before_invocation = r->invocations;
        r->before_serial = r->frame_serial;
        hl__ptr_map_clear(&r->before_told);
    }
    if (hl__ptr_map_get(&r->before_told, m) != UINT32_MAX) return true;
    hl__ptr_map_put(&r->before_told, m, 0);
    return false;
}

/* The memo of draw inputs (draw_inputs) per view. Meshes sharing a material and a geometry
 * (and their shadow flags) share everything draw_resolve finds: the first mesh of each such
 * kind resolves them (uploads, groups, programs: as many lookups as before), every later mesh
 * of the view takes them from here and pays for its own slot and prepared draw only. An entry
 * holds while no group was retired since it was made (a retired group may be one it names). */
#define DRAW_MEMO_SLOTS 2048u /* a power of two; filled to half at most */
struct hl__draw_memo {
    uint64_t stamp, retire_epoch;
    const void *material, *geometry;
    uint32_t flags, tie_material, tie_geometry;
    draw_inputs in;
    hl__prepared_sig sig; /* the first mesh's (draw_assemble's kind_sig) */
};

static uint64_t memo_hash(const void *mat, const void *geo, uint32_t flags) {
    return hl__hash_mix((uint64_t)(uintptr_t)mat ^ hl__hash_mix((uint64_t)(uintptr_t)geo ^ flags));
}

static struct hl__draw_memo *memo_slot(hl_renderer *r, const void *mat, const void *geo, uint32_t flags) {
    uint32_t slot = (uint32_t)memo_hash(mat, geo, flags) & (DRAW_MEMO_SLOTS - 1u);
    struct hl__draw_memo *e = &r->draw_memo[slot];
    while (e->stamp == r->draw_memo_stamp && (e->material != mat || e->geometry != geo || e->flags != flags)) {
        slot = (slot + 1u) & (DRAW_MEMO_SLOTS - 1u);
        e = &r->draw_memo[slot];
    }
    return e;
}

static uint32_t memo_flags(hl_mesh *m) {
    return (hl_mesh_receive_shadows(m) ? 1u : 0u) | (hl_mesh_cast_shadows(m) ? 2u : 0u);
}

/* A plain (not instanced) mesh's draw in view_build_draws, with its ties; hint: its record
 * when prep_part found one. */
static hl_result mesh_draw(hl_renderer *r, const hl__view *v, hl_mesh *m, hl__gpu_mesh *hint, hl__draw *out) {
    hl_material *mat = hl_mesh_material(m);
    hl_geometry *geo = hl_mesh_geometry(m);
    if (!r->draw_memo || skin_defines(m, mat, hl_geometry_get_layout(geo))) { /* skinned: its palette is its own */
        hl_result res = build_draw(r, v, m, 0, 0, out);
        if (!res) seen_ties(r, m, out);
        return res;
    }
    uint32_t flags = memo_flags(m);
    struct hl__draw_memo *e = memo_slot(r, mat, geo, flags);
    hl__gpu_mesh *rec = hint;
    hl_result res;
    if (e->stamp == r->draw_memo_stamp && e->retire_epoch == r->retire_epoch) {
        if ((res = hl__gpu_mesh_slot_hint(r, m, hint, &rec))) return res;
        if (e->retire_epoch == r->retire_epoch) {
            if ((res = draw_assemble(r, v, m, 0, 0, NULL, 0, rec, &e->in, &e->sig, NULL, out))) return res;
            out->tie_material = e->tie_material;
            out->tie_geometry = e->tie_geometry;
            r->stats.draw_memo_hits++;
            return HL_OK;
        }
    }
    draw_inputs in;
    if ((res = draw_resolve(r, v, m, mat, false, 0, &rec, &in))) return res;
    uint64_t epoch = r->retire_epoch;
    hl__prepared_sig sig;
    if ((res = draw_assemble(r, v, m, 0, 0, NULL, 0, rec, &in, NULL, &sig, out))) return res;
    seen_ties(r, m, out);
    if (epoch != r->retire_epoch || r->draw_memo_count >= DRAW_MEMO_SLOTS / 2u) return HL_OK;
    if (e->stamp == r->draw_memo_stamp) e = memo_slot(r, mat, geo, flags); /* an entry gone stale: its slot */
    if (e->stamp != r->draw_memo_stamp) r->draw_memo_count++;
    *e = (struct hl__draw_memo){r->draw_memo_stamp, epoch, mat, geo, flags, out->tie_material, out->tie_geometry, in, sig};
    return HL_OK;
}

/* Draw building, in three steps over the visible meshes' parts (the same contiguous ranges for
 * the scan and the build, so a part's positions and lists are its own):
 *   scan (frontend threads): per mesh its flags (instanced, events, built on the calling thread),
 *     its record (the renderer's mesh map is only read here) and, for a mesh whose world matrix
 *     is not the one its record last made a normal matrix of, that matrix (its own record only);
 *     per part its counts and, in order, the meshes the calling thread must build: skinned ones,
 *     all of them without a memo, and the first of each memo kind the part meets (a part's table
 *     of kinds that overflows lists more: the calling thread checks the memo itself);
 *   serial (calling thread, parts in order): those meshes, each skipped when an earlier one made
 *     its kind's memo entry (what resolves groups, programs and uploads, and numbers materials and
 *     geometries in the order the view meets them: the same for any number of parts);
 *   build (frontend threads): every other plain mesh whose kind's inputs are in the memo, whose
 *     record was drawn last frame (no upload owed) and whose prepared draw holds; the rest are
 *     listed and built on the calling thread afterwards, in order. */
#define HL__VF_INSTANCED 1u
#define HL__VF_EVENTS 2u
#define HL__VF_SERIAL 4u /* skinned, or no memo: built on the calling thread, never from the memo */
#define HL__VF_BUILT 8u  /* built on the calling thread */
#define HL__VF_THREAD 16u /* built by the frontend threads */
#define HL__SCAN_KINDS 256u /* a part's table of memo kinds (a power of two; slot 255 is "none" too) */

typedef struct scan_ctx {
    hl_renderer *r;
    hl_mesh *const *meshes;
    uint32_t visible;
} scan_ctx;

static void scan_part(void *ctx, uint32_t part, uint32_t parts) {
    const scan_ctx *c = ctx;
    hl_renderer *r = c->r;
    struct hl__build_part *bp = &r->build_parts[part];
    hl__work_range(c->visible, part, parts, &bp->first, &bp->end);
    bp->plain = bp->instanced = bp->events = bp->serial_count = 0;
    if (++bp->kind_stamp == 0) { /* wrapped: the table cleared once */
        memset(bp->kinds, 0, sizeof bp->kinds);
        bp->kind_stamp = 1;
    }
    for (uint32_t i = bp->first; i < bp->end; i++) {
        hl_mesh *m = c->meshes[r->order[i]];
        uint8_t fl = 0;
        if (hl_mesh_get_events(m)) fl |= HL__VF_EVENTS, bp->events++;
        if (draws_instanced(m)) {
            r->visible_flags[i] = fl | HL__VF_INSTANCED;
            r->visible_recs[i] = NULL;
            bp->instanced++;
            continue;
        }
        r->visible_pos[i] = bp->plain++;
        hl_material *mat = hl_mesh_material(m);
        hl_geometry *geo = hl_mesh_geometry(m);
        bool serial = !r->draw_memo || skin_defines(m, mat, hl_geometry_get_layout(geo));
        bool first = serial;
        r->visible_kind[i] = 255u;
        if (!serial) { /* the part's first of its kind, or a table too full to tell */
            uint32_t flags = memo_flags(m), slot = (uint32_t)memo_hash(mat, geo, flags) & (HL__SCAN_KINDS - 1u);
            first = true;
            for (uint32_t probe = 0; probe < 8u; probe++, slot = (slot + 1u) & (HL__SCAN_KINDS - 1u)) {
                struct hl__scan_kind *k = &bp->kinds[slot];
                if (k->stamp != bp->kind_stamp) {
                    *k = (struct hl__scan_kind){mat, geo, flags, bp->kind_stamp, NULL};
                    r->visible_kind[i] = (uint8_t)slot;
                    break;
                }
                if (k->material == mat && k->geometry == geo && k->flags == flags) {
                    first = false;
                    r->visible_kind[i] = (uint8_t)slot;
                    break;
                }
            }
        }
        if (serial) fl |= HL__VF_SERIAL;
        if (first) bp->serial[bp->serial_count++] = i;
        r->visible_flags[i] = fl;
        uint32_t k = hl__ptr_map_get(&r->mesh_map, m);
        hl__gpu_mesh *rec = k == UINT32_MAX ? NULL : r->meshes[k];
        if (rec && rec->serial != hl_mesh_serial(m)) rec = NULL; /* a removed mesh's, at this one's address */
        r->visible_recs[i] = rec;
        if (!rec) continue;
        const hl_node *node = hl_mesh_node(m);
        uint64_t wrev = hl_node_world_revision(node);
        if (rec->normal_revision == wrev) continue;
        hl__normal_matrix(hl_node_world_matrix(node), rec->normal);
        rec->normal_revision = wrev;
    }
}

/* The scan of the view's visible meshes on `parts` parts; the per-part lists reserved first. */
static hl_result view_scan(hl_renderer *r, hl_mesh *const *meshes, uint32_t visible, uint32_t parts) {
    if (!hl__reserve((void **)&r->visible_recs, &r->visible_rec_capacity, visible + 1u, sizeof *r->visible_recs) ||
        !hl__reserve((void **)&r->visible_pos, &r->visible_pos_capacity, visible + 1u, sizeof *r->visible_pos) ||
        !hl__reserve((void **)&r->visible_flags, &r->visible_flags_capacity, visible + 1u, sizeof *r->visible_flags) ||
        !hl__reserve((void **)&r->visible_kind, &r->visible_kind_capacity, visible + 1u, sizeof *r->visible_kind))
        return HL_ERR_OUT_OF_MEMORY;
    for (uint32_t p = 0; p < parts; p++) {
        uint32_t a, b;
        hl__work_range(visible, p, parts, &a, &b);
        struct hl__build_part *bp = &r->build_parts[p];
        uint32_t n = b - a + 1u;
        if (!hl__reserve((void **)&bp->serial, &bp->serial_capacity, n, sizeof *bp->serial) ||
            !hl__reserve((void **)&bp->rest, &bp->rest_capacity, n, sizeof *bp->rest) ||
            !hl__reserve((void **)&bp->dirty, &bp->dirty_capacity, n, sizeof *bp->dirty) ||
            !hl__reserve((void **)&bp->commits, &bp->commit_capacity, n, sizeof *bp->commits) ||
            !hl__reserve((void **)&bp->stamps, &bp->stamp_capacity, 2u * n, sizeof *bp->stamps))
            return HL_ERR_OUT_OF_MEMORY;
    }
    hl__workers_run(r->workers, parts, scan_part, &(scan_ctx){r, meshes, visible});
    uint32_t plain = 0;
    for (uint32_t p = 0; p < parts; p++) {
        r->build_parts[p].plain_first = plain;
        plain += r->build_parts[p].plain;
    }
    return HL_OK;
}

/* The memo entry of m's kind made in this view and still valid, looked up only (frontend threads
 * too: the memo does not change while they run); NULL: none. */
static const struct hl__draw_memo *memo_find_kind(const hl_renderer *r, const void *mat, const void *geo, uint32_t flags) {
    uint32_t slot = (uint32_t)memo_hash(mat, geo, flags) & (DRAW_MEMO_SLOTS - 1u);
    for (const struct hl__draw_memo *e = &r->draw_memo[slot]; e->stamp == r->draw_memo_stamp;
         slot = (slot + 1u) & (DRAW_MEMO_SLOTS - 1u), e = &r->draw_memo[slot])
        if (e->material == mat && e->geometry == geo && e->flags == flags)
            return e->retire_epoch == r->retire_epoch ? e : NULL;
    return NULL;
}

static const struct hl__draw_memo *memo_find(const hl_renderer *r, hl_mesh *m) {
    return memo_find_kind(r, hl_mesh_material(m), hl_mesh_geometry(m), memo_flags(m));
}

/* The plain draws the frontend threads build (the build step above). Each writes its own record,
 * object slot, draw and flag; the slots written, the revisions to commit and the pipeline
 * entries used go to the part's lists (the caller merges them in order). */
typedef struct build_ctx {
    hl_renderer *r;
    const hl__view *v;
    hl_mesh *const *meshes;
    uint32_t first; /* the view's first plain draw */
} build_ctx;

static void stamp_note(struct hl__build_part *bp, struct hl__pipeline_entry *e) {
    uint32_t h = (uint32_t)(hl__hash_mix((uint64_t)(uintptr_t)e) & 31u);
    if (bp->stamp_seen[h] == e) return;
    bp->stamp_seen[h] = e;
    bp->stamps[bp->stamp_count++] = e;
}

static void build_part(void *ctx, uint32_t part, uint32_t parts) {
    (void)parts;
    const build_ctx *c = ctx;
    hl_renderer *r = c->r;
    struct hl__build_part *bp = &r->build_parts[part];
    bp->count = bp->rest_count = bp->stamp_count = 0;
    bp->reused = bp->upload_bytes = 0;
    memset(bp->stamp_seen, 0, sizeof bp->stamp_seen);
    /* the memo entry of each kind the part's scan met, looked up once (its meshes name the slot) */
    for (uint32_t k = 0; k < HL__SCAN_KINDS; k++) {
        struct hl__scan_kind *sk = &bp->kinds[k];
        if (sk->stamp == bp->kind_stamp) sk->memo = memo_find_kind(r, sk->material, sk->geometry, sk->flags);
    }
    for (uint32_t i = bp->first; i < bp->end; i++) {
        uint8_t fl = r->visible_flags[i];
        if (fl & (HL__VF_INSTANCED | HL__VF_BUILT)) continue;
        hl_mesh *m = c->meshes[r->order[i]];
        uint8_t kind = r->visible_kind[i];
        const struct hl__draw_memo *e = fl & HL__VF_SERIAL ? NULL : kind != 255u ? bp->kinds[kind].memo : memo_find(r, m);
        hl__gpu_mesh *rec = r->visible_recs[i];
        if (!e || !rec || rec->mesh != m || !rec->prepared || hl__gpu_mesh_fresh(r, rec)) {
            bp->rest[bp->rest_count++] = i;
            continue;
        }
        hl__prepared_sig sig = kind_signature(&e->sig, m);
        if (memcmp(&sig, &rec->prepared_sig, sizeof sig)) {
            bp->rest[bp->rest_count++] = i;
            continue;
        }
        const hl_node *node = hl_mesh_node(m);
        uint64_t wrev = hl_node_world_revision(node);
        if (rec->world_revision != wrev) {
            hl__object_block_write(r, rec, hl_node_world_matrix(node), wrev);
            bp->dirty[bp->count] = rec->slot;
            bp->commits[bp->count++] = (hl_graph_commit){&rec->world_revision, wrev};
            bp->upload_bytes += sizeof(hl__object_block);
        }
        hl__gpu_mesh_drawn(r, rec);
        hl__draw *out = &r->draws[c->first + bp->plain_first + r->visible_pos[i]];
        prepared_take(c->v, rec, e->in.p, m, out);
        out->tie_material = e->tie_material;
        out->tie_geometry = e->tie_geometry;
        stamp_note(bp, out->color_entry);
        if (out->shadow_entry) stamp_note(bp, out->shadow_entry);
        bp->reused++;
        r->visible_flags[i] = fl | HL__VF_THREAD;
    }
}

/* The frontend threads' results into the frame: the slots written, the revisions committed at
 * the submission, the pipeline entries stamped alive (the eviction epoch holds), the counters. */
static hl_result build_merge(hl_renderer *r, uint32_t parts) {
    uint32_t n = 0;
    for (uint32_t p = 0; p < parts; p++) n += r->build_parts[p].count;
    hl_result res = hl__objects_reserve(r, n);
    for (uint32_t p = 0; p < parts && !res; p++) {
        struct hl__build_part *bp = &r->build_parts[p];
        if (bp->count) /* (the list may be unallocated when nothing moved: no memcpy of NULL) */
            memcpy(r->object_dirty + r->object_dirty_count, bp->dirty, (size_t)bp->count * sizeof *bp->dirty);
        r->object_dirty_count += bp->count;
        res = hl_graph_commits_on_submit(r->graph, bp->commits, bp->count);
        for (uint32_t k = 0; k < bp->stamp_count; k++) bp->stamps[k]->last_frame = r->frame_serial;
        r->stats.prepared_reused += bp->reused;
        r->stats.draw_memo_hits += bp->reused;
        r->stats.upload_bytes += bp->upload_bytes;
    }
    return res;
}

/* Visible mesh i (of part p) built on the calling thread, at its position from `first`. */
static hl_result plain_draw_at(hl_renderer *r, hl__view *v, hl_mesh *const *meshes, uint32_t i, uint32_t p,
                               uint32_t first) {
    hl_result res = mesh_draw(r, v, meshes[r->order[i]], r->visible_recs[i],
                              &r->draws[first + r->build_parts[p].plain_first + r->visible_pos[i]]);
    if (!res) r->visible_flags[i] |= HL__VF_BUILT;
    return res;
}

/* The plain meshes' draws (the serial and build steps above), in visible order from r->draw_count.
 * If a group was retired while the calling thread built the rest (the threads' draws may name
 * it), the threads' draws are built again. The result is the same for any number of threads. */
static hl_result plain_draws(hl_renderer *r, hl__view *v, hl_mesh *const *meshes, uint32_t parts, uint32_t plain) {
    uint32_t first = r->draw_count;
    hl_result res = HL_OK;
    for (uint32_t p = 0; p < parts && !res; p++) {
        const struct hl__build_part *bp = &r->build_parts[p];
        for (uint32_t k = 0; k < bp->serial_count && !res; k++) {
            uint32_t i = bp->serial[k];
            if (!(r->visible_flags[i] & HL__VF_SERIAL) && memo_find(r, meshes[r->order[i]])) continue;
            res = plain_draw_at(r, v, meshes, i, p, first);
        }
    }
    uint64_t epoch = r->retire_epoch;
    if (!res) res = hl__objects_reserve(r, 0); /* at the object buffer's size, which may have grown */
    if (!res) {
        hl__workers_run(r->workers, parts, build_part, &(build_ctx){r, v, meshes, first});
        res = build_merge(r, parts);
    }
    for (uint32_t p = 0; p < parts && !res; p++) {
        const struct hl__build_part *bp = &r->build_parts[p];
        for (uint32_t k = 0; k < bp->rest_count && !res; k++) res = plain_draw_at(r, v, meshes, bp->rest[k], p, first);
    }
    for (uint32_t p = 0; p < parts && !res && r->retire_epoch != epoch; p++) {
        const struct hl__build_part *bp = &r->build_parts[p];
        for (uint32_t i = bp->first; i < bp->end && !res; i++)
            if (r->visible_flags[i] & HL__VF_THREAD) res = plain_draw_at(r, v, meshes, i, p, first);
    }
    if (res) return res;
    r->draw_count = first + plain;
    return HL_OK;
}

/* Draws: plain meshes one each, instanced meshes batched by (geometry, material, layers), then the
 * shadow-only draws of casters outside the view (when a light casts shadows). */
static hl_result view_build_draws(hl_renderer *r, hl__view *v) {
    hl_mesh *const *meshes = hl_stage_meshes(v->stage, &(uint32_t){0});
    uint32_t visible = v->visible;
    if (!r->draw_memo) r->draw_memo = hl__calloc(DRAW_MEMO_SLOTS, sizeof *r->draw_memo); /* none: no memo */
    /* two parts a thread: each part lists the first mesh of each memo kind it meets, which the
       calling thread then looks up in the memo (more parts, more of those) */
    uint32_t parts = visible >= r->parallel_min ? hl__workers_parts(r->workers, 2u) : 1u;
    hl_result res = view_scan(r, meshes, visible, parts);
    if (res) return res;
    /* mesh before-render events: visible meshes, before their draws are prepared */
    uint32_t with_events = 0;
    for (uint32_t p = 0; p < parts; p++) with_events += r->build_parts[p].events;
    bool events = false;
    for (uint32_t i = 0; with_events && i < visible; i++) {
        if (!(r->visible_flags[i] & HL__VF_EVENTS)) continue;
        hl_mesh *m = meshes[r->order[i]];
        const hl_mesh_events *ev = hl_mesh_get_events(m);
        if (!ev) continue;
        r->view_events = true;
        r->after_events |= ev->after_render != NULL; /* instanced batches then keep their meshes */
        if (ev->before_render && !before_seen(r, m)) {
            ev->before_render(m, ev->user);
            events = true;
        }
    }
    if (events) { /* a callback may have added meshes or changed what the scan found */
        meshes = hl_stage_meshes(v->stage, &(uint32_t){0});
        if ((res = view_scan(r, meshes, visible, parts))) return res;
    }
    uint64_t need = (uint64_t)r->draw_count + visible + v->offscreen;
    if (need > UINT32_MAX / 2) return hl__fail(HL_ERR_OUT_OF_MEMORY, "renderer: too many draws in one frame");
    if (!hl__reserve((void **)&r->draws, &r->draw_capacity, (uint32_t)need, sizeof(hl__draw)))
        return HL_ERR_OUT_OF_MEMORY;
    v->draw_first = r->draw_count;
    uint32_t ninst = 0;
    for (uint32_t p = 0; p < parts; p++) ninst += r->build_parts[p].instanced;
    sort_item *inst = NULL;
    if (ninst) {
        if (!hl__reserve((void **)&r->instance_data, &r->instance_data_capacity, (r->instance_count + ninst) * 16u,
                         sizeof(float)) ||
            !hl__reserve((void **)&r->inst_items, &r->inst_capacity, ninst, sizeof(sort_item)))
            return HL_ERR_OUT_OF_MEMORY;
        /* batches in the order their first mesh is met, meshes in traversal order: the draw
           order never depends on addresses (it is the same on both backends and every run) */
        uint32_t cap = 16;
        while (cap < ninst * 2u) cap *= 2;
        if (!hl__reserve((void **)&r->batch_table, &r->batch_table_capacity, cap, sizeof *r->batch_table))
            return HL_ERR_OUT_OF_MEMORY;
        memset(r->batch_table, 0, cap * sizeof *r->batch_table);
        inst = r->inst_items;
        uint32_t k = 0, batches = 0;
        for (uint32_t i = 0; i < visible; i++) {
            if (!(r->visible_flags[i] & HL__VF_INSTANCED)) continue;
            hl_mesh *m = meshes[r->order[i]];
            const void *geo = hl_mesh_geometry(m), *mat = hl_mesh_material(m);
            uint32_t layers = hl_mesh_layers(m);
            uint64_t h = hl__hash_mix((uint64_t)(uintptr_t)geo ^ hl__hash_mix((uint64_t)(uintptr_t)mat ^ layers));
            uint32_t slot = (uint32_t)h & (cap - 1);
            while (r->batch_table[slot].geometry &&
                   (r->batch_table[slot].geometry != geo || r->batch_table[slot].material != mat ||
                    r->batch_table[slot].layers != layers))
                slot = (slot + 1) & (cap - 1);
            if (!r->batch_table[slot].geometry) {
                r->batch_table[slot].geometry = geo;
                r->batch_table[slot].material = mat;
                r->batch_table[slot].layers = layers;
                r->batch_table[slot].batch = batches++;
            }
            inst[k++] = (sort_item){((uint64_t)r->batch_table[slot].batch << 32) | i, r->order[i]};
        }
        qsort(inst, ninst, sizeof *inst, sort_cmp);
    }
    /* materials and geometries numbered in the order the view meets them: the sort groups
       draws by these numbers, which depend on the scene only */
    uint32_t cap = 16;
    while (cap < visible * 4u + 4u) cap *= 2;
    uint32_t seen_capacity = r->seen_table_capacity;
    if (!hl__reserve((void **)&r->seen_table, &r->seen_table_capacity, cap, sizeof *r->seen_table))
        return HL_ERR_OUT_OF_MEMORY;
    /* a new table, or the stamps wrapped: cleared once (else the stamp tells this view's slots) */
    if (r->seen_table_capacity != seen_capacity || ++r->seen_stamp == 0) {
        memset(r->seen_table, 0, r->seen_table_capacity * sizeof *r->seen_table);
        r->seen_stamp = 1;
    }
    r->seen_mask = cap - 1;
    r->seen_count = 0;
    r->draw_memo_stamp++;
    r->draw_memo_count = 0;
    res = plain_draws(r, v, meshes, parts, visible - ninst);
    for (uint32_t i = 0; i < ninst && !res;) {
        hl_mesh *m0 = meshes[inst[i].index];
        uint32_t j = i, first = r->instance_count;
        while (j < ninst && hl_mesh_geometry(meshes[inst[j].index]) == hl_mesh_geometry(m0) &&
               hl_mesh_material(meshes[inst[j].index]) == hl_mesh_material(m0) &&
               hl_mesh_layers(meshes[inst[j].index]) == hl_mesh_layers(m0)) {
            memcpy(&r->instance_data[(size_t)r->instance_count * 16u],
                   hl_node_world_matrix(hl_mesh_node(meshes[inst[j].index]))->m, 64);
            r->instance_count++;
            j++;
        }
        uint32_t batch_first = r->batch_mesh_count;
        if (r->after_events) {
            if (!hl__reserve((void **)&r->batch_meshes, &r->batch_mesh_capacity, r->batch_mesh_count + (j - i),
                             sizeof(hl_mesh *)))
                return HL_ERR_OUT_OF_MEMORY;
            for (uint32_t k = i; k < j; k++) r->batch_meshes[r->batch_mesh_count++] = meshes[inst[k].index];
        }
        res = build_draw(r, v, m0, j - i, first, &r->draws[r->draw_count]);
        if (!res) {
            r->draws[r->draw_count].batch_first = batch_first;
            r->draws[r->draw_count].batch_count = r->after_events ? j - i : 0;
            seen_ties(r, m0, &r->draws[r->draw_count++]);
        }
        i = j;
    }
    if (res) return res;
    v->draw_count = r->draw_count - v->draw_first;
    for (uint32_t i = 0; v->shadow_count && i < v->offscreen && !res; i++) {
        res = build_shadow_draw(r, meshes[r->order[v->mesh_count + i]], &r->draws[r->draw_count]);
        if (!res) {
            r->draw_count++;
            v->shadow_only_count++;
        }
    }
    return res;
}

/* view_sort's steps for the frontend threads, each over its part of the view's draws: the sort
 * keys; the draws in execution order. */
typedef struct sort_ctx {
    hl_renderer *r;
    hl__view *v;
    const uint32_t *order; /* the sorted draw indices (the output step) */
    uint32_t opaque[HL__MAX_WORKER_PARTS];
    uint64_t instances[HL__MAX_WORKER_PARTS], faces[HL__MAX_WORKER_PARTS];
} sort_ctx;

static void sort_keys_part(void *ctx, uint32_t part, uint32_t parts) {
    sort_ctx *c = ctx;
    hl_renderer *r = c->r;
    const hl__view *v = c->v;
    uint32_t first, end;
    hl__work_range(v->draw_count, part, parts, &first, &end);
    for (uint32_t i = first; i < end; i++) {
        hl__draw *d = &r->draws[v->draw_first + i];
        int32_t order = hl_node_render_order(hl_mesh_node((hl_mesh *)d->mesh));
        if (d->transparent) {
            hl_vec3 cc = hl_mesh_world_sphere((hl_mesh *)d->mesh).center;
            hl_vec3 dv = {cc.x - v->eye.x, cc.y - v->eye.y, cc.z - v->eye.z};
            d->depth = hl_vec3_length(dv);
        }
        d->sort_key = hl__sort_key(d->transparent, order, d->tie_pipeline, d->tie_material, d->tie_geometry, d->depth);
        r->sort_items[i] = (sort_item){d->sort_key, i};
    }
}

/* items (in index order) sorted by key, stably, so equal keys keep index order (sort_cmp's
 * order): a least-significant-digit radix sort by bytes through spare (as large), over only the
 * bytes some keys differ in (opaque keys differ in one or two; counting all eight bytes made the
 * counters of the shared ones long chains of increments). Keys already in order stay. Linear: a
 * churned 100k-draw list sorted by qsort took 600 instructions an item. */
static void radix_sort(sort_item *items, sort_item *spare, uint32_t n) {
    if (n < 2) return;
    uint64_t first = items[0].key, diff = 0;
    bool sorted = true;
    for (uint32_t i = 1; i < n; i++) {
        diff |= items[i].key ^ first;
        sorted &= items[i].key >= items[i - 1].key;
    }
    if (sorted) return;
    uint32_t shifts[8], passes = 0;
    for (uint32_t b = 0; b < 8; b++)
        if ((diff >> (8u * b)) & 255u) shifts[passes++] = 8u * b;
    uint32_t hist[8][256];
    memset(hist, 0, passes * sizeof hist[0]);
    for (uint32_t i = 0; i < n; i++) {
        uint64_t k = items[i].key;
        for (uint32_t p = 0; p < passes; p++) hist[p][(k >> shifts[p]) & 255u]++;
    }
    sort_item *src = items, *dst = spare;
    for (uint32_t p = 0; p < passes; p++) {
        uint32_t *h = hist[p], at = 0;
        for (uint32_t v = 0; v < 256; v++) {
            uint32_t c = h[v];
            h[v] = at;
            at += c;
        }
        for (uint32_t i = 0; i < n; i++) dst[h[(src[i].key >> shifts[p]) & 255u]++] = src[i];
        sort_item *t = src;
        src = dst;
        dst = t;
    }
    if (src != items) memcpy(items, src, (size_t)n * sizeof *items);
}

static void sort_output_part(void *ctx, uint32_t part, uint32_t parts) {
    sort_ctx *c = ctx;
    hl_renderer *r = c->r;
    const hl__view *v = c->v;
    uint32_t first, end, opaque = 0;
    uint64_t instances = 0, faces = 0;
    hl__work_range(v->draw_count, part, parts, &first, &end);
    for (uint32_t i = first; i < end; i++) {
        uint32_t k = v->draw_first + c->order[i];
        const hl__draw *d = &r->draws[k];
        r->draw_order[v->draw_first + i] = k;
        r->sorted_packets[v->draw_first + i] = d->packet;
        opaque += !d->transparent;
        instances += d->packet.instance_count;
        faces += d->faces;
    }
    c->opaque[part] = opaque;
    c->instances[part] = instances;
    c->faces[part] = faces;
}

/* Order: opaque by render order / pipeline / material / geometry; transparent back to front.
 * The draws stay where they were built; r->draw_order lists them in execution order. */
static hl_result view_sort(hl_renderer *r, hl__view *v) {
    if (!hl__reserve((void **)&r->sort_items, &r->sort_capacity, v->draw_count + 1u, sizeof(sort_item)) ||
        !hl__reserve((void **)&r->draw_order, &r->draw_order_capacity, r->draw_count + 1u, sizeof(uint32_t)) ||
        !hl__reserve((void **)&r->sorted_packets, &r->sorted_packet_capacity, r->draw_count + 1u,
                     sizeof(hl_rhi_draw_packet)))
        return HL_ERR_OUT_OF_MEMORY;
    sort_ctx c;
    memset(&c, 0, sizeof c);
    c.r = r;
    c.v = v;
    uint32_t parts = v->draw_count >= r->parallel_min ? hl__workers_parts(r->workers, HL__FRONTEND_PARTS_PER_THREAD) : 1u;
    hl__workers_run(r->workers, parts, sort_keys_part, &c);
    sort_item *si = r->sort_items;
    /* A static scene builds the same keys in the same order every frame: then last frame's
       order holds and the sort is skipped. */
    struct hl__sort_cache *sc = &r->sort_cache[v->frame_slot];
    bool same = sc->count == v->draw_count;
    for (uint32_t i = 0; same && i < v->draw_count; i++) same = sc->keys[i] == si[i].key;
    if (!same) {
        if (!hl__reserve((void **)&sc->keys, &sc->capacity, v->draw_count + 1u, sizeof(uint64_t)) ||
            !hl__reserve((void **)&sc->order, &sc->order_capacity, v->draw_count + 1u, sizeof(uint32_t)) ||
            !hl__reserve((void **)&r->sort_spare, &r->sort_spare_capacity, v->draw_count + 1u, sizeof(sort_item)))
            return HL_ERR_OUT_OF_MEMORY;
        for (uint32_t i = 0; i < v->draw_count; i++) sc->keys[i] = si[i].key;
        radix_sort(si, r->sort_spare, v->draw_count);
        for (uint32_t i = 0; i < v->draw_count; i++) sc->order[i] = si[i].index;
        sc->count = v->draw_count;
    }
    c.order = sc->order;
    hl__workers_run(r->workers, parts, sort_output_part, &c);
    v->opaque_count = 0;
    v->instances = v->faces = 0;
    for (uint32_t p = 0; p < parts; p++) {
        v->opaque_count += c.opaque[p];
        v->instances += c.instances[p];
        v->faces += c.faces[p];
    }
    v->has_transparent = v->opaque_count < v->draw_count;
    return HL_OK;
}

/* Uploads of the view (Frame block, shadow tiles) and its graph resources and passes. */
static hl_result view_add_passes(hl_renderer *r, hl__view *v) {
    hl_render_target *t = v->target;
    hl_result res = hl_graph_upload_buffer(r->graph, r->frame_ubo, (uint64_t)v->frame_slot * HL__FRAME_STRIDE,
                                           &r->frame_blocks[v->frame_slot], sizeof(hl__frame_block), NULL, 0);
    for (uint32_t i = 0; !res && i < v->shadow_count; i++)
        res = hl_graph_upload_buffer(r->graph, r->shadow_ubo, (uint64_t)(v->shadow_first + i) * HL__SHADOW_STRIDE,
                                     r->tiles[v->shadow_first + i].render_vp, 64, NULL, 0);
    if (res) return res;
    v->color_count = t->desc.color_count;
    v->msaa = t->desc.sample_count > 1;
    hl_color cc = t == r->output ? hl_stage_clear_color(v->stage) : t->desc.clear_color;
    v->clear[0] = cc.r, v->clear[1] = cc.g, v->clear[2] = cc.b, v->clear[3] = cc.a;
    for (uint32_t i = 0; i < v->color_count; i++) {
        if (v->msaa) {
            v->color[i] = import_target(r, t->msaa[i], "msaa colour");
            v->resolve[i] = import_color(r, t, i);
        } else {
            v->color[i] = import_color(r, t, i);
        }
    }
    v->depth = import_target(r, t->depth, "depth");
    if (v->shadow_count) {
        v->atlas = hl_graph_import_texture(r->graph, r->atlas, "shadow atlas");
        hl_graph_add_pass(r->graph, "shadow", HL_GRAPH_PASS_RENDER, setup_shadow, NULL, exec_shadow, v, 0);
    }
    hl_graph_add_pass(r->graph, "opaque", HL_GRAPH_PASS_RENDER, setup_opaque, NULL, exec_opaque, v, 0);
    if (v->has_transparent)
        hl_graph_add_pass(r->graph, "transparent", HL_GRAPH_PASS_RENDER, setup_transparent, NULL, exec_transparent, v, 0);
    return HL_OK;
}

/* ---- the kept view (hl__retained) ----------------------------------------------------------------- */
/* The ids of the shared groups the view's packets name (a grown buffer or a new atlas changes one). */
static void shared_groups(const hl_renderer *r, uint64_t ids[HL__RETAINED_GROUPS]) {
    const hl__owned_group *g[HL__RETAINED_GROUPS] = {&r->frame_group,        &r->object_group,   &r->skin_group,
                                                     &r->atlas_group,        &r->env_group,      &r->env_atlas_group,
                                                     &r->shadow_frame_group, &r->shadow_object_group,
                                                     &r->shadow_skin_group};
    for (uint32_t i = 0; i < HL__RETAINED_GROUPS; i++) ids[i] = g[i]->group.id;
}

static bool retained_matches(const hl_renderer *r, const hl__view *v) {
    const hl__retained *k = &r->retained;
    if (!k->valid || r->view_count != 0 || k->stage != v->stage || k->camera != v->camera || k->target != v->target ||
        k->target_generation != v->target->generation || k->env != v->env || k->revision != hl_revision_now() ||
        k->evict_epoch != r->evict_epoch || k->mirror_epoch != r->mirror_epoch ||
        k->device_generation != hl_rhi_device_generation(r->dev) || k->retire_epoch != r->retire_epoch)
        return false;
    uint64_t ids[HL__RETAINED_GROUPS];
    shared_groups(r, ids);
    return memcmp(ids, k->group_ids, sizeof ids) == 0;
}

static void retained_use(hl_renderer *r, hl__view *v) {
    hl__retained *k = &r->retained;
    *v = k->view;
    r->frame_blocks[v->frame_slot] = k->frame_block;
    r->draw_count = k->draw_count;
    r->tile_count = k->tile_count;
    r->stats.meshes_visible += k->meshes_visible;
    r->stats.meshes_culled += k->meshes_culled;
    r->stats.lights = k->lights;
    r->stats.shadow_tiles += k->shadow_tiles;
    r->stats.retained_draws += v->draw_count + v->shadow_only_count;
    k->used_serial = r->frame_serial;
    v->kept = true;
}

/* After a view was built: keep it when nothing in it needs per-frame work of the building steps. */
static void retained_keep(hl_renderer *r, const hl__view *v, uint32_t visible0, uint32_t culled0, uint64_t retire0) {
    hl__retained *k = &r->retained;
    k->valid = false;
    if (r->view_count != 0 || r->view_events || r->instance_count || v->draw_first != 0) return;
    k->stage = v->stage;
    k->camera = v->camera;
    k->target = v->target;
    k->target_generation = v->target->generation;
    k->env = v->env;
    k->revision = hl_revision_now();
    k->evict_epoch = r->evict_epoch;
    k->device_generation = hl_rhi_device_generation(r->dev);
    k->mirror_epoch = r->mirror_epoch;
    k->retire_epoch = retire0; /* a group retired while this view built: its packets may name it */
    shared_groups(r, k->group_ids);
    k->view = *v;
    k->draw_count = r->draw_count;
    k->tile_count = r->tile_count;
    k->meshes_visible = r->stats.meshes_visible - visible0;
    k->meshes_culled = r->stats.meshes_culled - culled0;
    k->lights = r->stats.lights;
    k->shadow_tiles = v->shadow_count;
    k->frame_block = r->frame_blocks[v->frame_slot];
    k->built_serial = r->frame_serial;
    k->used_serial = 0;
    k->valid = true;
}

void hl__retained_drop(hl_renderer *r) { r->retained.valid = false; }

uint64_t hl__evict_horizon(const hl_renderer *r, uint64_t old) {
    const hl__retained *k = &r->retained;
    return k->valid && k->used_serial == r->frame_serial && k->built_serial < old ? k->built_serial : old;
}

hl_result hl__record_view(hl_renderer *r, hl_render_target *t, hl_stage *stage, hl_camera *camera) {
    if (r->view_count >= HL__MAX_VIEWS)
        return hl__fail(HL_ERR_VALIDATION, "renderer: more than %u render calls in one frame", HL__MAX_VIEWS);
    if (!stage || !camera) return hl__fail(HL_ERR_VALIDATION, "renderer: %s is NULL", stage ? "camera" : "stage");
    hl__view *v = &r->views[r->view_count];
    hl_aabb box;
    r->recording_target = t;
    hl__workers_hold(r->workers, true); /* the view's loops follow each other: the workers stay awake */
    uint64_t t0 = hl__now_ns();
    hl_result res = view_begin(r, v, t, stage, camera);
    uint64_t t1 = hl__now_ns();
    r->stats.update_ns += t1 - t0;
    if (!res && retained_matches(r, v)) {
        retained_use(r, v);
    } else if (!res) {
        uint32_t visible0 = r->stats.meshes_visible, culled0 = r->stats.meshes_culled;
        uint64_t retire0 = r->retire_epoch;
        if (r->view_count == 0) r->retained.valid = false; /* its draws are about to be overwritten */
        r->view_events = false;
        res = view_cull(r, v, &box);
        if (!res) {
            plan_lights(r, v, stage, &r->frame_blocks[v->frame_slot], &box);
            r->stats.lights = (uint32_t)r->frame_blocks[v->frame_slot].light_info[0];
            r->stats.shadow_tiles += v->shadow_count;
            t0 = hl__now_ns();
            r->stats.cull_ns += t0 - t1;
            res = view_build_draws(r, v);
            t1 = hl__now_ns();
            r->stats.build_ns += t1 - t0;
        }
        if (!res) res = view_sort(r, v);
        r->stats.sort_ns += hl__now_ns() - t1;
        if (!res) retained_keep(r, v, visible0, culled0, retire0);
    }
    hl__workers_hold(r->workers, false);
    if (!res) res = view_add_passes(r, v);
    r->recording_target = NULL;
    if (res) return res;
    r->view_count++;
    return HL_OK;
}

/* ---- the steps for pipeline runtimes -----------------------------------------------------------
 * hl__record_view above is the direct recorder (its counters are pinned by px_pipeline_parity);
 * these functions give a runtime the same steps one by one: a prepared view ("culling
 * results"), its shadow pass, renderer lists and scene passes drawing them. */
static hl_result view_finish(hl_renderer *r, hl__view *v, hl_render_target *output, hl_result res, uint32_t *out_view);

hl_result hl__view_prepare(hl_renderer *r, hl_render_target *t, hl_render_target *output, hl_stage *stage,
                           hl_camera *camera, bool gbuffer, uint32_t *out_view) {
    if (r->view_count >= HL__MAX_VIEWS)
        return hl__fail(HL_ERR_VALIDATION, "renderer: more than %u culls / render calls in one frame", HL__MAX_VIEWS);
    if (!stage || !camera) return hl__fail(HL_ERR_VALIDATION, "renderer: %s is NULL", stage ? "camera" : "stage");
    hl__view *v = &r->views[r->view_count];
    hl_aabb box;
    r->recording_target = output; /* a material sampling the invocation's output is refused, layouts or not */
    hl__workers_hold(r->workers, true);
    uint64_t t0 = hl__now_ns();
    hl_result res = view_begin(r, v, t, stage, camera);
    uint64_t t1 = hl__now_ns();
    r->stats.update_ns += t1 - t0;
    if (!res) {
        v->gbuffer = gbuffer;
        res = view_cull(r, v, &box);
    }
    if (!res) {
        plan_lights(r, v, stage, &r->frame_blocks[v->frame_slot], &box);
        r->stats.lights = (uint32_t)r->frame_blocks[v->frame_slot].light_info[0];
        r->stats.shadow_tiles += v->shadow_count;
    }
    r->stats.cull_ns += hl__now_ns() - t1;
    hl__workers_hold(r->workers, false);
    for (uint32_t i = 0; !res && i < v->shadow_count; i++)
        res = hl_graph_upload_buffer(r->graph, r->shadow_ubo, (uint64_t)(v->shadow_first + i) * HL__SHADOW_STRIDE,
                                     r->tiles[v->shadow_first + i].render_vp, 64, NULL, 0);
    return view_finish(r, v, output, res, out_view);
}

/* Keeps in r->order[0..visible) only the meshes a derived view with exclude_opaque_engine draws
   (shader materials, transparent meshes); the scratch then no longer holds the base's traversal. */
static void exclude_opaque_engine(hl_renderer *r, hl__view *v) {
    hl_mesh *const *meshes = hl_stage_meshes(v->stage, &(uint32_t){0});
    uint32_t kept = 0;
    for (uint32_t i = 0; i < v->visible; i++) {
        const hl_material *m = hl_mesh_material(meshes[r->order[i]]);
        const hl_material_variant *var = m ? hl_material_get_variant(m) : NULL;
        bool wanted = !m || hl_material_get_kind(m) == HL_MATERIAL_SHADER || (var && var->alpha_mode == HL_ALPHA_BLEND);
        if (wanted) r->order[kept++] = r->order[i];
    }
    v->visible = kept;
    v->offscreen = 0; /* no shadow-only draws: the base draws the shadows */
    v->order_serial = ++r->order_serial;
}

hl_result hl__view_prepare_derived(hl_renderer *r, hl_render_target *t, uint32_t base, bool gbuffer,
                                   bool exclude_opaque, uint32_t *out_view) {
    if (r->view_count >= HL__MAX_VIEWS)
        return hl__fail(HL_ERR_VALIDATION, "renderer: more than %u culls / render calls in one frame", HL__MAX_VIEWS);
    hl__view *v = &r->views[r->view_count];
    const hl__view *b = &r->views[base];
    hl_render_target *output = b->output;
    r->recording_target = output;
    /* the base's stage and camera are updated and its Frame block made this frame already */
    memset(v, 0, sizeof *v);
    v->target = t, v->stage = b->stage, v->camera = b->camera, v->r = r;
    v->eye = b->eye, v->fog = b->fog, v->gbuffer = gbuffer, v->env = b->env;
    v->frame_slot = r->view_count;
    v->shadow_view = b->shadow_view, v->shadow_first = b->shadow_first, v->shadow_count = b->shadow_count;
    memcpy(&r->frame_blocks[v->frame_slot], &r->frame_blocks[b->frame_slot], sizeof(hl__frame_block));
    hl_result res;
    if (b->order_serial == r->order_serial) { /* r->order still holds the base's traversal */
        v->visible = b->visible, v->offscreen = b->offscreen, v->mesh_count = b->mesh_count;
        v->order_serial = b->order_serial;
        res = hl__reserve_object_slots(r, v->visible + v->offscreen);
    } else { /* another cull came between: the same traversal again (same stage and camera) */
        hl_aabb box;
        uint32_t culled = r->stats.meshes_culled, visible = r->stats.meshes_visible;
        res = view_cull(r, v, &box);
        r->stats.meshes_culled = culled, r->stats.meshes_visible = visible; /* counted by the base */
    }
    if (!res && exclude_opaque) exclude_opaque_engine(r, v);
    return view_finish(r, v, output, res, out_view);
}

/* The end of hl__view_prepare(_derived) after culling and lights: draws, order, the Frame block's
 * upload, then the view's record as a culling result of the invocation. */
static hl_result view_finish(hl_renderer *r, hl__view *v, hl_render_target *output, hl_result res, uint32_t *out_view) {
    v->scripted = true; /* a pipeline's view: storage materials may draw (their pass binds group 3) */
    if (!res) res = view_build_draws(r, v);
    if (!res) res = view_sort(r, v);
    if (!res) res = hl_graph_upload_buffer(r->graph, r->frame_ubo, (uint64_t)v->frame_slot * HL__FRAME_STRIDE,
                                           &r->frame_blocks[v->frame_slot], sizeof(hl__frame_block), NULL, 0);
    r->recording_target = NULL;
    if (res) return res;
    hl_render_target *t = v->target;
    hl_stage *stage = v->stage;
    v->scripted = true;
    v->output = output;
    v->invocation = r->invocations ? r->invocations - 1 : 0;
    uint32_t end = v->draw_first + v->draw_count + v->shadow_only_count;
    if (!hl__reserve((void **)&r->draw_counted, &r->draw_counted_capacity, end + 1u, 1))
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "renderer: out of memory for a culling result");
    memset(r->draw_counted + v->draw_first, 0, end - v->draw_first);
    v->color_count = t->desc.color_count;
    v->msaa = t->desc.sample_count > 1;
    /* the clear colour of the invocation's target (the stage's for the renderer's output), for
       attachment layouts too: they stand in for that target */
    hl_color cc = output == r->output ? hl_stage_clear_color(stage) : output->desc.clear_color;
    v->clear[0] = cc.r, v->clear[1] = cc.g, v->clear[2] = cc.b, v->clear[3] = cc.a;
    *out_view = r->view_count++;
    return HL_OK;
}

hl_result hl__view_add_shadow_pass(hl_renderer *r, uint32_t view) {
    hl__view *v = &r->views[view];
    if (v->shadow_view != view) { /* derived: the base's shadows, recorded once */
        if (r->views[v->shadow_view].shadows_recorded) return HL_OK;
        view = v->shadow_view;
        v = &r->views[view];
    }
    if (v->shadows_recorded)
        return hl__fail(HL_ERR_INVALID_STATE, "renderer: the shadows of this culling result are recorded already");
    v->shadows_recorded = true;
    if (!v->shadow_count) return HL_OK;
    hl_result res = hl__scene_flush(r, false, false);
    if (res) return res;
    v->atlas = hl_graph_import_texture(r->graph, r->atlas, "shadow atlas");
    hl_graph_add_pass(r->graph, "shadow", HL_GRAPH_PASS_RENDER, setup_shadow, NULL, exec_shadow, v, 0);
    return HL_OK;
}

typedef struct list_sort_item {
    uint64_t key;
    float depth;
    uint32_t pos, draw;
} list_sort_item;

static int list_cmp_back_to_front(const void *a, const void *b) {
    const list_sort_item *x = a, *y = b;
    if (x->depth != y->depth) return x->depth > y->depth ? -1 : 1;
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static hl_result list_create(hl_renderer *r, uint32_t view, hl__list_queue queue, hl__list_sort sort, bool casters_only,
                             hl__list_materials materials, uint32_t layer_mask, hl_material *override,
                             uint32_t *out_list);

/* A renderer list: its draws built and sorted (stats.build_ns). */
hl_result hl__list_create(hl_renderer *r, uint32_t view, hl__list_queue queue, hl__list_sort sort, bool casters_only,
                          hl__list_materials materials, uint32_t layer_mask, hl_material *override,
                          uint32_t *out_list) {
    uint64_t t0 = hl__now_ns();
    hl_result res = list_create(r, view, queue, sort, casters_only, materials, layer_mask, override, out_list);
    r->stats.build_ns += hl__now_ns() - t0;
    return res;
}

static hl_result list_create(hl_renderer *r, uint32_t view, hl__list_queue queue, hl__list_sort sort, bool casters_only,
                             hl__list_materials materials, uint32_t layer_mask, hl_material *override,
                             uint32_t *out_list) {
    hl__view *v = &r->views[view];
    uint64_t need = (uint64_t)r->list_item_count + v->draw_count + 1u;
    if (need > UINT32_MAX / 2) return hl__fail(HL_ERR_OUT_OF_MEMORY, "renderer: renderer lists too long");
    if (!hl__reserve((void **)&r->lists, &r->list_capacity, r->list_count + 1u, sizeof *r->lists) ||
        !hl__reserve((void **)&r->list_items, &r->list_item_capacity, (uint32_t)need, sizeof *r->list_items) ||
        !hl__reserve((void **)&r->sort_items, &r->sort_capacity, v->draw_count + 1u, sizeof(sort_item)))
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "renderer: out of memory for a renderer list");
    hl__list *l = &r->lists[r->list_count];
    l->view = view;
    l->first = r->list_item_count;
    l->count = 0;
    /* the engine order (r->draw_order: opaque by render order / pipeline / material /
       geometry, then transparent back to front) or the order the draws were built in */
    for (uint32_t i = 0; i < v->draw_count; i++) {
        uint32_t k = sort == HL__SORT_NONE ? v->draw_first + i : r->draw_order[v->draw_first + i];
        const hl__draw *d = &r->draws[k];
        if ((queue == HL__QUEUE_OPAQUE && d->transparent) || (queue == HL__QUEUE_TRANSPARENT && !d->transparent)) continue;
        if (casters_only && !hl_mesh_cast_shadows(d->mesh)) continue;
        if (layer_mask && !(hl_mesh_layers((hl_mesh *)d->mesh) & layer_mask)) continue;
        if (materials != HL__LIST_ALL_MATERIALS &&
            (hl_material_get_kind(hl_mesh_material((hl_mesh *)d->mesh)) == HL_MATERIAL_SHADER) !=
                (materials == HL__LIST_SHADER_MATERIALS))
            continue;
        r->list_items[l->first + l->count++] = k;
    }
    if (sort == HL__SORT_BACK_TO_FRONT && l->count > 1) {
        /* by the distance of each mesh's bounding sphere from the eye, ties in engine order
           (a stable sort through the position) */
        list_sort_item *items = (list_sort_item *)r->sort_items;
        _Static_assert(sizeof(list_sort_item) <= 2 * sizeof(sort_item), "list items fit the sort scratch");
        if (!hl__reserve((void **)&r->sort_items, &r->sort_capacity, l->count * 2u + 1u, sizeof(sort_item)))
            return hl__fail(HL_ERR_OUT_OF_MEMORY, "renderer: out of memory for a renderer list");
        items = (list_sort_item *)r->sort_items;
        for (uint32_t i = 0; i < l->count; i++) {
            const hl__draw *d = &r->draws[r->list_items[l->first + i]];
            hl_vec3 c = hl_mesh_world_sphere((hl_mesh *)d->mesh).center;
            hl_vec3 dv = {c.x - v->eye.x, c.y - v->eye.y, c.z - v->eye.z};
            items[i] = (list_sort_item){0, hl_vec3_length(dv), i, r->list_items[l->first + i]};
        }
        qsort(items, l->count, sizeof *items, list_cmp_back_to_front);
        for (uint32_t i = 0; i < l->count; i++) r->list_items[l->first + i] = items[i].draw;
    }
    if (override && l->count) {
        /* the same meshes, geometry and order with the override material: new draws after the
           frame's others (through the program and pipeline caches; never a mesh's prepared draw) */
        uint64_t total = (uint64_t)r->draw_count + l->count;
        if (total > UINT32_MAX / 2 ||
            !hl__reserve((void **)&r->draws, &r->draw_capacity, (uint32_t)total, sizeof(hl__draw)) ||
            !hl__reserve((void **)&r->draw_counted, &r->draw_counted_capacity, (uint32_t)total + 1u, 1))
            return hl__fail(HL_ERR_OUT_OF_MEMORY, "renderer: out of memory for an override renderer list");
        l = &r->lists[r->list_count];
        r->recording_target = v->output;
        hl_result res = HL_OK;
        for (uint32_t i = 0; i < l->count && !res; i++) {
            uint32_t k = r->list_items[l->first + i];
            hl_mesh *mesh = (hl_mesh *)r->draws[k].mesh;
            uint32_t instances = r->draws[k].instanced ? r->draws[k].packet.instance_count : 0;
            uint32_t first = r->draws[k].instance_first;
            uint32_t batch_first = r->draws[k].batch_first, batch_count = r->draws[k].batch_count;
            res = build_draw_as(r, v, mesh, instances, first, override, &r->draws[r->draw_count]);
            if (!res) {
                r->draws[r->draw_count].batch_first = batch_first;
                r->draws[r->draw_count].batch_count = batch_count;
                r->draw_counted[r->draw_count] = 0;
                r->list_items[l->first + i] = r->draw_count++;
            }
        }
        r->recording_target = NULL;
        if (res) return res;
    }
    r->list_item_count += l->count;
    *out_list = r->list_count++;
    return HL_OK;
}

typedef hl__scene_pass scene_pass;

static hl_result exec_scene(hl_graph_ctx *ctx, void *params, void *user);

static void target_import(hl_renderer *r, hl_render_target *t) {
    if (t->imp_serial == r->frame_serial) return;
    memset(t->imp_color, 0, sizeof t->imp_color);
    memset(t->imp_msaa, 0, sizeof t->imp_msaa);
    uint32_t n = t->desc.color_count;
    for (uint32_t i = 0; i < n; i++) {
        t->imp_color[i] = import_color(r, t, i);
        if (t->desc.sample_count > 1) t->imp_msaa[i] = import_target(r, t->msaa[i], "msaa colour");
    }
    t->imp_depth = import_target(r, t->depth, "depth");
    t->imp_serial = r->frame_serial;
    t->resolve_pending = false;
}

static void view_import(hl_renderer *r, hl__view *v) {
    if (v->imported) return;
    hl_render_target *t = v->target;
    target_import(r, t);
    for (uint32_t i = 0; i < v->color_count; i++) {
        v->color[i] = v->msaa ? t->imp_msaa[i] : t->imp_color[i];
        v->resolve[i] = v->msaa ? t->imp_color[i] : (hl_graph_texture){0};
    }
    v->depth = t->imp_depth;
    v->imported = true;
}

hl_graph_texture hl__target_output_texture(hl_renderer *r, hl_render_target *t, uint32_t index) {
    target_import(r, t);
    return t->imp_color[index];
}

static hl_result setup_scene(hl_graph_pass_builder *b, void *params, void *user) {
    scene_pass *p = params;
    const scene_pass *src = user;
    *p = *src;
    hl__view *v = p->v;
    bool resolve = p->resolve && v->msaa && !v->target->layout_only;
    hl_result res = HL_OK;
    for (uint32_t i = 0; !res && i < p->color_count; i++) {
        hl_graph_color_attachment_desc c = {0};
        c.load_op = p->load_color ? HL_RHI_LOAD_LOAD : HL_RHI_LOAD_CLEAR;
        c.store_op = resolve && p->discard ? HL_RHI_STORE_DISCARD : HL_RHI_STORE_STORE;
        memcpy(c.clear_color, v->clear, sizeof c.clear_color);
        res = hl_graph_color_attachment(b, i, p->color[i], &c);
        if (!res && resolve) res = hl_graph_resolve_attachment(b, i, v->resolve[i]);
        if (!res && p->layout_resolve[i].id) res = hl_graph_resolve_attachment(b, i, p->layout_resolve[i]);
    }
    if (!res && p->depth.id) {
        hl_graph_depth_attachment_desc d = {0};
        d.depth_load_op = p->load_depth ? HL_RHI_LOAD_LOAD : HL_RHI_LOAD_CLEAR;
        d.depth_store_op = p->discard ? HL_RHI_STORE_DISCARD : HL_RHI_STORE_STORE;
        d.depth_clear_value = 1.0f;
        res = hl_graph_depth_attachment(b, p->depth, &d);
    }
    if (!res && v->shadow_count) res = hl_graph_read_texture(b, v->r->views[v->shadow_view].atlas);
    for (uint32_t i = 0; !res && i < p->storage_count; i++) {
        bool seen = false;
        for (uint32_t k = 0; k < i; k++) seen |= p->storage[k].buffer.id == p->storage[i].buffer.id;
        if (!seen) res = hl_graph_storage_read(b, p->storage[i].buffer);
    }
    return res;
}

/* The group 3 the pass made for a storage program (prepare_scene), or {0}. */
static hl_rhi_bind_group storage_group(const scene_pass *p, const hl__program *prog) {
    for (uint32_t i = 0; i < p->storage_group_count; i++)
        if (p->storage_groups[i].program == prog->id) return p->storage_groups[i].group;
    return (hl_rhi_bind_group){0};
}

/* Group 3 for every storage program the pass's lists draw: its storage blocks bound to the
 * pass's buffers by block name. */
static hl_result prepare_scene(hl_graph_ctx *ctx, void *params, void *user) {
    (void)user;
    scene_pass *p = params;
    hl_renderer *r = p->v->r;
    p->storage_group_count = 0;
    for (uint32_t li = 0; li < p->list_count; li++) {
        const hl__list *l = &r->lists[p->lists[li]];
        for (uint32_t i = 0; i < l->count; i++) {
            const hl__draw *d = &r->draws[r->list_items[l->first + i]];
            const hl__program *prog = d->color_entry ? d->color_entry->program : NULL;
            if (!prog || !prog->storage || storage_group(p, prog).id) continue;
            if (p->storage_group_count == 8)
                return hl__fail(HL_ERR_VALIDATION, "scene pass: more than 8 storage shader programs in one pass");
            hl_rhi_bind_group_entry e[HL_RHI_MAX_BINDINGS];
            uint32_t n = 0;
            const hl_shader_reflection *refl = &prog->prog.reflection;
            for (uint32_t b = 0; b < refl->block_count; b++) {
                const hl_shader_block *blk = &refl->blocks[b];
                if (!blk->storage || blk->group != HL_SHADER_STORAGE_GROUP) continue;
                const hl__scene_storage *s = NULL;
                for (uint32_t k = 0; k < p->storage_count && !s; k++)
                    if (!strcmp(p->storage[k].block, blk->name)) s = &p->storage[k];
                if (!s)
                    return hl__fail(HL_ERR_VALIDATION, "scene pass: a shader material reads storage block '%s', which the "
                                    "pass does not bind (hl_pipeline_scene_pass_desc.storage)", blk->name);
                memset(&e[n], 0, sizeof e[n]);
                e[n].binding = blk->binding;
                e[n].buffer = hl_graph_ctx_buffer(ctx, s->buffer);
                e[n].offset = s->offset;
                e[n++].size = s->size;
            }
            hl_rhi_bind_group g;
            hl_result res = hl__frame_group_get(r, prog->bgl[3], e, n, "scene storage", &g);
            if (res) return res;
            p->storage_groups[p->storage_group_count].program = prog->id;
            p->storage_groups[p->storage_group_count++].group = g;
        }
    }
    return HL_OK;
}

static hl_result scene_add(hl_renderer *r, const scene_pass *sp, const char *name) {
    hl_graph_pass p = hl_graph_add_pass(r->graph, name, HL_GRAPH_PASS_RENDER, setup_scene,
                                        sp->storage_count ? prepare_scene : NULL, exec_scene, (void *)sp, sizeof *sp);
    return p.id ? HL_OK : hl_last_error_code() ? hl_last_error_code() : HL_ERR_VALIDATION;
}

hl_result hl__scene_flush(hl_renderer *r, bool resolve, bool discard) {
    if (!r->has_pending_scene) return HL_OK;
    r->has_pending_scene = false;
    scene_pass sp = r->pending_scene;
    sp.resolve = resolve;
    sp.discard = discard;
    hl_result res = scene_add(r, &sp, r->pending_scene_name);
    if (!res && resolve && sp.v->msaa) sp.v->target->resolve_pending = false;
    return res;
}

/* Whether render call `invocation` counted mesh m's faces this frame (and marks it). */
static bool face_seen(hl_renderer *r, const hl_mesh *m, uint32_t invocation) {
    if (r->face_serial != r->frame_serial) {
        r->face_serial = r->frame_serial;
        hl__ptr_map_clear(&r->face_counted);
    }
    _Static_assert(HL__MAX_VIEWS <= 32, "render calls of a frame fit a 32-bit mask");
    uint32_t bit = 1u << invocation, mask = hl__ptr_map_get(&r->face_counted, m);
    if (mask == UINT32_MAX) mask = 0;
    if (mask & bit) return true;
    hl__ptr_map_put(&r->face_counted, m, mask | bit);
    return false;
}

static hl_result draw_list(const scene_pass *p, hl_rhi_cmd *cmd, uint32_t list_index) {
    hl_renderer *r = p->v->r;
    const hl__list *l = &r->lists[list_index];
    hl_result res = HL_OK;
    for (uint32_t i = 0; !res && i < l->count; i++) {
        uint32_t k = r->list_items[l->first + i];
        const hl__draw *d = &r->draws[k];
        if (d->color_entry && d->color_entry->program->storage) { /* the pass's storage at group 3 */
            hl_rhi_draw_packet pk = d->packet;
            pk.bind_groups[3] = storage_group(p, d->color_entry->program);
            pk.bind_group_count = 4;
            res = hl_rhi_cmd_draw_packets(cmd, &pk, 1, NULL);
        } else {
            res = hl_rhi_cmd_draw_packets(cmd, &d->packet, 1, NULL);
        }
        /* executed draws: every one counts as a draw; faces once per mesh (or instanced batch)
           and render call, however many passes, culls or override lists draw it */
        r->stats.draws++;
        r->stats.instances += d->packet.instance_count;
        r->draw_counted[k] = 1;
        if (!face_seen(r, d->mesh, p->v->invocation)) r->stats.faces += d->faces;
    }
    return res;
}

/* The running execute callback of this thread (one at a time: callbacks do not nest). */
static _Thread_local struct {
    const scene_pass *pass;
    hl_rhi_cmd *cmd;
    uint64_t token;
} g_encoder;
static _Atomic uint64_t g_encoder_serial;

static const scene_pass *encoder_pass(uint64_t token, const char *fn) {
    if (!g_encoder.pass || !token || token != g_encoder.token) {
        hl__fail(HL_ERR_INVALID_STATE, "%s: the encoder is not the running execute callback's (valid only during that "
                 "call, on its thread)", fn);
        return NULL;
    }
    return g_encoder.pass;
}

hl_result hl__encoder_viewport(uint64_t token, float x, float y, float w, float h) {
    const char *fn = "hl_pipeline_pass_set_viewport";
    const scene_pass *p = encoder_pass(token, fn);
    if (!p) return HL_ERR_INVALID_STATE;
    if (!(x >= 0.0f && y >= 0.0f && w > 0.0f && h > 0.0f && x + w <= (float)p->width && y + h <= (float)p->height))
        return hl__fail(HL_ERR_VALIDATION, "%s: (%g, %g) %g x %g is not a non-empty rectangle within the %ux%u attachments",
                        fn, (double)x, (double)y, (double)w, (double)h, p->width, p->height);
    return hl_rhi_cmd_set_viewport(g_encoder.cmd, x, y, w, h, 0.0f, 1.0f);
}

hl_result hl__encoder_scissor(uint64_t token, uint32_t x, uint32_t y, uint32_t w, uint32_t h) {
    const char *fn = "hl_pipeline_pass_set_scissor";
    const scene_pass *p = encoder_pass(token, fn);
    if (!p) return HL_ERR_INVALID_STATE;
    if (x > p->width || y > p->height || w > p->width - x || h > p->height - y)
        return hl__fail(HL_ERR_VALIDATION, "%s: (%u, %u) %u x %u is not within the %ux%u attachments", fn, x, y, w, h,
                        p->width, p->height);
    return hl_rhi_cmd_set_scissor(g_encoder.cmd, x, y, w, h);
}

hl_result hl__encoder_stencil(uint64_t token, uint32_t ref) {
    if (!encoder_pass(token, "hl_pipeline_pass_set_stencil_reference")) return HL_ERR_INVALID_STATE;
    return hl_rhi_cmd_set_stencil_reference(g_encoder.cmd, ref);
}

hl_result hl__encoder_draw_list(uint64_t token, uint32_t slot) {
    const char *fn = "hl_pipeline_pass_draw_list";
    const scene_pass *p = encoder_pass(token, fn);
    if (!p) return HL_ERR_INVALID_STATE;
    if (slot >= p->list_count)
        return hl__fail(HL_ERR_VALIDATION, "%s: slot %u (the pass has %u list%s: 0 = its list, 1.. = more_lists)", fn, slot,
                        p->list_count, p->list_count == 1 ? "" : "s");
    return draw_list(p, g_encoder.cmd, p->lists[slot]);
}

static hl_result exec_scene(hl_graph_ctx *ctx, void *params, void *user) {
    (void)user;
    scene_pass *p = params;
    hl_rhi_cmd *cmd = hl_graph_ctx_cmd(ctx);
    hl_result res = hl_graph_ctx_begin_render_pass(ctx);
    if (!res && p->execute) {
        if (g_encoder.pass) return hl__fail(HL_ERR_INVALID_STATE, "renderer: an execute callback is running already");
        uint64_t token = ++g_encoder_serial;
        g_encoder.pass = p, g_encoder.cmd = cmd, g_encoder.token = token;
        hl_clear_error();
        /* calls that would poison the frame (render, resize, destroy, readback) are refused
           inside the callback, as inside record */
        hl_renderer *r = p->v->r;
        bool was = r->in_record;
        r->in_record = true;
        res = p->trampoline(p->execute, p->user, token);
        r->in_record = was;
        g_encoder.pass = NULL, g_encoder.cmd = NULL, g_encoder.token = 0;
        if (res && !hl_last_error()[0]) hl__fail(res, "the execute callback returned %s", hl_result_name(res));
    } else if (!res) {
        res = draw_list(p, cmd, p->lists[0]);
    }
    if (!res) res = hl_rhi_cmd_end_render_pass(cmd);
    return res;
}

/* The attachments of a layout view's scene pass must match the layout the draws were built for. */
static hl_result check_layout_attachments(hl_renderer *r, const hl__view *v, const hl__scene_pass_desc *d,
                                          const char *name) {
    const hl_render_target *t = v->target;
    uint32_t samples = t->desc.sample_count, w = 0, h = 0;
    for (uint32_t i = 0; i < 4; i++) {
        bool want = i < t->desc.color_count;
        const hl_rhi_texture_desc *td = d->color[i].id ? hl_graph_texture_desc(r->graph, d->color[i]) : NULL;
        if (want != (td != NULL) || (td && (td->format != t->formats[i] || td->sample_count != samples)))
            return hl__fail(HL_ERR_VALIDATION,
                            "scene pass '%s': colour attachment %u does not match the culling result's layout (%u "
                            "attachments of the formats given to the cull, %u sample%s)",
                            name, i, t->desc.color_count, samples, samples == 1 ? "" : "s");
        const hl_rhi_texture_desc *rd = d->resolve[i].id ? hl_graph_texture_desc(r->graph, d->resolve[i]) : NULL;
        if (d->resolve[i].id && (!td || samples == 1 || !rd || rd->sample_count != 1 || rd->format != td->format ||
                                 rd->width != td->width || rd->height != td->height))
            return hl__fail(HL_ERR_VALIDATION,
                            "scene pass '%s': resolve target %u must be a single-sample texture of attachment %u's "
                            "format and size, for a multisampled layout",
                            name, i, i);
        if (!td) continue;
        if (w && (td->width != w || td->height != h))
            return hl__fail(HL_ERR_VALIDATION, "scene pass '%s': attachments differ in size", name);
        w = td->width, h = td->height;
    }
    const hl_rhi_texture_desc *dd = d->depth.id ? hl_graph_texture_desc(r->graph, d->depth) : NULL;
    if (t->desc.no_depth ? dd != NULL : (!dd || dd->format != HL_RHI_FORMAT_DEPTH24_PLUS || dd->sample_count != samples))
        return hl__fail(HL_ERR_VALIDATION, "scene pass '%s': %s", name,
                        t->desc.no_depth ? "the culling result's layout has no depth attachment"
                                         : "a DEPTH24_PLUS depth texture of the layout's sample count is required");
    if (dd && (dd->width != w || dd->height != h))
        return hl__fail(HL_ERR_VALIDATION, "scene pass '%s': the depth texture differs in size", name);
    return HL_OK;
}

hl_result hl__view_add_scene_pass(hl_renderer *r, const hl__scene_pass_desc *desc) {
    const hl__list *l = &r->lists[desc->list];
    hl__view *v = &r->views[l->view];
    const char *name = desc->name ? desc->name : "scene";
    if (v->shadow_count && !r->views[v->shadow_view].shadows_recorded)
        return hl__fail(HL_ERR_INVALID_STATE,
                        "renderer: scene pass '%s' draws a culling result whose lights cast shadows before its shadows "
                        "are recorded (record the shadows first)",
                        name);
    scene_pass sp;
    memset(&sp, 0, sizeof sp);
    sp.v = v;
    sp.lists[0] = desc->list;
    sp.list_count = 1;
    if (desc->execute) {
        if (!desc->trampoline) return hl__fail(HL_ERR_VALIDATION, "renderer: scene pass '%s': execute without a trampoline", name);
        sp.trampoline = desc->trampoline;
        sp.execute = desc->execute;
        sp.user = desc->user;
        for (uint32_t i = 1; i < desc->list_count && i < 4; i++) {
            if (r->lists[desc->lists[i]].view != l->view)
                return hl__fail(HL_ERR_VALIDATION,
                                "scene pass '%s': more_lists[%u] is a renderer list of another culling result (its draws "
                                "are prepared for that culling's camera and attachments)",
                                name, i - 1);
            sp.lists[sp.list_count++] = desc->lists[i];
        }
    }
    sp.load_color = desc->load_color;
    sp.load_depth = desc->load_depth;
    sp.color_count = v->color_count;
    if (desc->storage_count > HL__SCENE_STORAGE_MAX)
        return hl__fail(HL_ERR_VALIDATION, "scene pass '%s': %u storage buffers (at most %u)", name, desc->storage_count,
                        HL__SCENE_STORAGE_MAX);
    memcpy(sp.storage, desc->storage, sizeof sp.storage);
    sp.storage_count = desc->storage_count;
    /* every storage program the lists draw must find its blocks in the pass: checked here, by
       name, so that the error comes before the frame (prepare makes the groups) */
    for (uint32_t li = 0; li < sp.list_count; li++) {
        const hl__list *ll = &r->lists[sp.lists[li]];
        for (uint32_t i = 0; i < ll->count; i++) {
            const hl__draw *d = &r->draws[r->list_items[ll->first + i]];
            const hl__program *prog = d->color_entry ? d->color_entry->program : NULL;
            if (!prog || !prog->storage) continue;
            const hl_shader_reflection *refl = &prog->prog.reflection;
            for (uint32_t b = 0; b < refl->block_count; b++) {
                if (!refl->blocks[b].storage) continue;
                bool found = false;
                for (uint32_t k = 0; k < sp.storage_count; k++) found |= !strcmp(sp.storage[k].block, refl->blocks[b].name);
                if (!found)
                    return hl__fail(HL_ERR_VALIDATION, "scene pass '%s': shader material '%s' reads storage block '%s', "
                                    "which the pass does not bind (hl_pipeline_scene_pass_desc.storage)", name,
                                    d->mesh ? hl_material_label(hl_mesh_material((hl_mesh *)d->mesh)) : "?",
                                    refl->blocks[b].name);
            }
        }
    }
    if (v->target->layout_only) {
        hl_result res = check_layout_attachments(r, v, desc, name);
        if (res) return res;
        memcpy(sp.color, desc->color, sizeof sp.color);
        memcpy(sp.layout_resolve, desc->resolve, sizeof sp.layout_resolve);
        sp.depth = desc->depth;
    } else {
        bool given = desc->depth.id != 0;
        for (uint32_t i = 0; i < 4; i++) given |= desc->color[i].id != 0;
        if (given)
            return hl__fail(HL_ERR_VALIDATION,
                            "scene pass '%s': attachments given for a culling result made for the output (cull with an "
                            "attachment layout to draw into textures)",
                            name);
        view_import(r, v);
        memcpy(sp.color, v->color, sizeof sp.color);
        sp.depth = v->depth;
    }
    const hl_rhi_texture_desc *td = hl_graph_texture_desc(r->graph, sp.color[0].id ? sp.color[0] : sp.depth);
    sp.width = td ? td->width : v->target->desc.width;
    sp.height = td ? td->height : v->target->desc.height;
    hl_result res = hl__scene_flush(r, false, false);
    if (res) return res;
    if (v->target->layout_only) {
        if ((res = scene_add(r, &sp, name))) return res;
    } else { /* waits: the next pass, or the end of the record, decides how it ends */
        r->pending_scene = sp;
        snprintf(r->pending_scene_name, sizeof r->pending_scene_name, "%s", name);
        r->has_pending_scene = true;
        v->target->resolve_pending = v->msaa;
    }
    v->wrote_output = true;
    return HL_OK;
}

/* MSAA: one more pass loads the samples and resolves them (everything was stored). */
static hl_result setup_resolve(hl_graph_pass_builder *b, void *params, void *user) {
    (void)params;
    const hl_render_target *t = user;
    hl_result res = HL_OK;
    for (uint32_t i = 0; !res && i < t->desc.color_count; i++) {
        hl_graph_color_attachment_desc c = {0};
        c.load_op = HL_RHI_LOAD_LOAD;
        c.store_op = HL_RHI_STORE_DISCARD;
        res = hl_graph_color_attachment(b, i, t->imp_msaa[i], &c);
        if (!res) res = hl_graph_resolve_attachment(b, i, t->imp_color[i]);
    }
    return res;
}

static hl_result exec_resolve(hl_graph_ctx *ctx, void *params, void *user) {
    (void)params, (void)user;
    hl_result res = hl_graph_ctx_begin_render_pass(ctx);
    if (!res) res = hl_rhi_cmd_end_render_pass(hl_graph_ctx_cmd(ctx));
    return res;
}

hl_result hl__target_resolve_now(hl_renderer *r, hl_render_target *t) {
    if (t->imp_serial != r->frame_serial) return HL_OK;
    /* the waiting scene pass resolves (depth kept: more scene passes may follow) */
    hl_result res0 = hl__scene_flush(r, true, false);
    if (res0 || !t->resolve_pending) return res0;
    hl_graph_pass p = hl_graph_add_pass(r->graph, "resolve", HL_GRAPH_PASS_RENDER, setup_resolve, NULL, exec_resolve, t, 0);
    if (!p.id) return hl_last_error_code() ? hl_last_error_code() : HL_ERR_VALIDATION;
    t->resolve_pending = false;
    return HL_OK;
}

hl_result hl__target_finish(hl_renderer *r, hl_render_target *t) {
    if (t->imp_serial != r->frame_serial) return HL_OK; /* nothing recorded into it */
    hl_result res = hl__scene_flush(r, true, true); /* the last pass: resolves, drops samples and depth */
    if (!res) res = hl__target_resolve_now(r, t);
    if (res) return res;
    for (uint32_t c = 0; c < t->desc.color_count; c++) hl_graph_mark_output_texture(r->graph, t->imp_color[c]);
    return HL_OK;
}

/* ---- mesh after-render events ----------------------------------------------------------------------- */
static void notify_mesh(hl_renderer *r, hl_mesh *m) {
    const hl_mesh_events *ev = hl_mesh_get_events(m);
    if (!ev || !ev->after_render || hl__ptr_map_get(&r->ev_told, m) != UINT32_MAX) return;
    hl__ptr_map_put(&r->ev_told, m, 0);
    ev->after_render(m, ev->user);
}

static void notify_draw(hl_renderer *r, const hl__draw *d) {
    if (!d->instanced) {
        notify_mesh(r, (hl_mesh *)d->mesh);
        return;
    }
    for (uint32_t i = 0; i < d->batch_count; i++) notify_mesh(r, r->batch_meshes[d->batch_first + i]);
}

void hl__render_after_events(hl_renderer *r) {
    if (!r->after_events) return; /* no visible mesh of the frame has an after-render event */
    hl__ptr_map_clear(&r->ev_told);
    for (uint32_t v = 0; v < r->view_count; v++) {
        const hl__view *view = &r->views[v];
        if (view->scripted) continue;
        for (uint32_t i = 0; i < view->draw_count; i++) notify_draw(r, &r->draws[view->draw_first + i]);
    }
    for (uint32_t k = 0; k < r->draw_count && k < r->draw_counted_capacity; k++)
        if (r->draw_counted[k]) notify_draw(r, &r->draws[k]);
}
