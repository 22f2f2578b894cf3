/* Scene layer internals: object structs and the project's allocator / error hooks.
 *
 * The scene layer knows no RHI: allocation, errors and hashing come from src/base. */
#ifndef HL_SCENE_INTERNAL_H
#define HL_SCENE_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>

#include "hilo3d/scene.h" /* with geometry, material, texture, uniform, std140, math3d */
#include "hilo3d/std140.h"
#include "hl_base.h"

/* ---- shared helpers (scene_util.c) ---- */
bool hl__is_identifier(const char *s);
/* Replaces *dst with a copy of src (NULL clears). false on out of memory (message set). */
bool hl__set_string(char **dst, const char *src);
/* The next value of the one process-wide revision counter (atomic, never 0, strictly
 * increasing): every revision of every scene object and texture comes from here, so no two
 * states of any two objects share a revision (revision.h). */
uint64_t hl__next_revision(void);
/* The first of n revisions taken at once (the threaded world update takes them in blocks). */
uint64_t hl__next_revisions(uint64_t n);

static inline void hl__range_merge(hl_dirty_range *r, uint32_t lo, uint32_t hi) {
    if (hi <= lo) return;
    if (r->size == 0) {
        r->offset = lo;
        r->size = hi - lo;
        return;
    }
    uint32_t end = r->offset + r->size;
    if (lo < r->offset) r->offset = lo;
    if (hi > end) end = hi;
    r->size = end - r->offset;
}
/* The upload rule of revision.h for one block. */
static inline hl_upload_kind hl__upload_kind(uint64_t changed_at, uint64_t dirty_base, const hl_dirty_range *dirty,
                                             uint32_t full_size, uint64_t uploaded, hl_dirty_range *out) {
    if (uploaded >= changed_at) {
        if (out) *out = (hl_dirty_range){0, 0};
        return HL_UPLOAD_NONE;
    }
    if (uploaded != 0 && uploaded >= dirty_base) {
        if (out) *out = *dirty;
        return HL_UPLOAD_RANGE;
    }
    if (out) *out = (hl_dirty_range){0, full_size};
    return HL_UPLOAD_FULL;
}

/* ---- nodes ---- */
struct hl_node {
    hl_node_kind kind;
    char *name;
    hl_vec3 translation;
    hl_quat rotation;
    hl_vec3 scale;
    hl_mat4 world;
    uint64_t world_revision;
    uint64_t parent_rev_seen; /* parent's world_revision when world was computed */
    bool local_dirty;         /* TRS changed since the world matrix was computed */
    bool visible;
    bool effective_visible;
    int32_t render_order;
    void *user;
    hl_stage *stage_of_root; /* only on a stage's root node */
    hl_node *parent, *first_child, *last_child, *prev_sibling, *next_sibling;
    uint32_t child_count;
    uint32_t stage_index; /* its place in its stage's walk order (hl_stage_update) */
};

struct hl_mesh {
    hl_node node; /* first: hl_mesh * <-> hl_node * */
    hl_geometry *geometry;
    hl_material *material;
    bool instanced, cast_shadows, receive_shadows;
    uint32_t layers; /* hl_mesh_set_layers; default 1 */
    uint64_t serial; /* hl_mesh_serial: taken at creation, never another mesh's */
    uint64_t revision;
    hl_mesh_events events; /* hl_mesh_set_events; all NULL = none */
    /* hl_mesh_set_skin: inverse bind matrices, joint boxes and joint nodes (one allocation),
     * 0 = none */
    hl_node **joints;
    hl_mat4 *inverse_bind;
    uint32_t joint_count;
    /* The posed bounds' inputs (hl_mesh_world_aabb), made for geometry revision
     * joint_boxes_rev (0 = not yet): per joint, the box in its bind space (inverse_bind *
     * POSITION) of the vertices it moves (empty: none); skin_posed: the geometry has what
     * skinned drawing needs and some joint moves a vertex. */
    hl_aabb *joint_boxes;
    uint64_t joint_boxes_rev;
    bool skin_posed;
};

struct hl_camera {
    hl_node node;
    hl_camera_desc desc; /* resolved */
    hl_mat4 view, projection, view_projection;
    hl_frustum frustum;
    uint64_t revision;
    uint64_t seen_world_revision;
    bool proj_dirty;
};

struct hl_light {
    hl_node node;
    hl_light_desc desc; /* resolved, name NULL */
    uint64_t revision;
};

void hl__node_init(hl_node *n, hl_node_kind kind);
/* Mesh, camera and light start with their hl_node, so a typed pointer that is really some
 * other node (a cast through hl_*_node) still points at a readable hl_node: its kind decides.
 * hl__is_kind: false for NULL or another kind. hl__check_node_kind: HL_ERR_VALIDATION naming
 * fn, the kind expected and the kind received. */
static inline bool hl__is_kind(const void *object, hl_node_kind kind) {
    return object && ((const hl_node *)object)->kind == kind;
}
hl_result hl__check_node_kind(const char *fn, const void *object, hl_node_kind want);
void hl__camera_recompute(hl_camera *c);

#endif
