/* Nodes, the stage (one-pass world update, flat lists) and meshes. */
#include <math.h>
#include <string.h>

#include "hl_stage_update.h"
#include "scene_internal.h"

struct hl_stage {
    hl_node root;
    hl_mesh **meshes;
    uint32_t mesh_count, mesh_cap;
    hl_light **lights;
    uint32_t light_count, light_cap;
    hl_camera **cameras;
    uint32_t camera_count, camera_cap;
    uint64_t structure_revision;
    uint64_t walked_at; /* hl_revision_now() after the last full walk (hl_stage_update) */
    /* The walk's order, kept across updates: every node below the root in pre-order, with the
     * end of each one's subtree and what the lists need of it (kind, effective visibility). An
     * update with a kept order visits this array instead of the tree; the world update on threads
     * splits it into units, subtrees whose parents the spine (computed first, in order) holds: the
     * root's children's subtrees, and where one of them holds more than its share, its children's.
     * Structure changes keep it where that is cheap: a subtree added under the root is appended
     * (it comes last in pre-order), a subtree removed anywhere leaves holes (NULL entries whose
     * ends stay, so walks over the root's children step over them) that an update compacts once
     * they are a quarter of the entries; the lists are then rebuilt from the array. Any other
     * change (a child added below the root, a visibility change) drops it: the next update walks
     * the tree. */
    hl_node **order;
    uint32_t *order_end;
    uint8_t *order_info; /* HL__INFO_* */
    uint32_t *order_scratch; /* compaction: live entries before each index (order_cap + 1) */
    uint32_t order_count, order_cap; /* the four arrays share one block of order_cap entries each */
    uint32_t holes; /* NULL entries of order */
    bool order_kept;
    bool lists_stale; /* the lists are to be rebuilt from the kept order */
    struct hl__stage_unit {
        uint32_t first, end; /* [first, end) of order */
        uint32_t before;     /* nodes in the units before this one */
    } *units;
    uint32_t unit_count, unit_cap;
    uint32_t *spine; /* indices into order */
    uint32_t spine_count, spine_cap;
    hl_fog fog;
    hl_color clear_color;
    hl_environment *environment; /* retained */
    float exposure;
};

void hl__node_init(hl_node *n, hl_node_kind kind) {
    memset(n, 0, sizeof *n);
    n->kind = kind;
    n->rotation = hl_quat_identity();
    n->scale = (hl_vec3){1, 1, 1};
    n->world = hl_mat4_identity();
    n->world_revision = hl__next_revision();
    n->local_dirty = true;
    n->visible = true;
    n->effective_visible = true;
}

static hl_stage *hl__stage_of(const hl_node *n) {
    while (n->parent)
        n = n->parent;
    return n->stage_of_root;
}

#define HL__INFO_VISIBLE 4u /* effective visibility; the low bits: the kind's list (1 mesh, 2 light, 3 camera) */

static uint8_t hl__order_info(const hl_node *n) {
    uint8_t list = n->kind == HL_NODE_MESH ? 1u : n->kind == HL_NODE_LIGHT ? 2u : n->kind == HL_NODE_CAMERA ? 3u : 0u;
    return (uint8_t)(list | (n->effective_visible ? HL__INFO_VISIBLE : 0u));
}

/* The structure changed: the stage's lists are stale (emptied so they never hold a destroyed node)
 * until the next hl_stage_update, which rebuilds them from the kept order. */
static void hl__stage_lists_stale(hl_stage *s) {
    s->structure_revision = hl__next_revision();
    s->mesh_count = s->light_count = s->camera_count = 0;
    s->lists_stale = true;
    s->unit_count = s->spine_count = 0;
}

/* Structure or visibility changed in a way the kept order does not follow: the next update walks
 * the tree. */
static void hl__stage_touch(const hl_node *n) {
    hl_stage *s = hl__stage_of(n);
    if (!s) return;
    hl__stage_lists_stale(s);
    s->order_kept = false;
    s->order_count = s->holes = 0;
}

/* Room for `need` entries in each of the order's arrays (one block holds the four: a growing order
 * allocates once per doubling); the entries so far kept. False: out of memory. */
static bool hl__order_room(hl_stage *s, uint32_t need) {
    if (need <= s->order_cap) return true;
    uint64_t cap = s->order_cap ? (uint64_t)s->order_cap * 2u : 64u;
    if (cap < need) cap = need;
    size_t per = sizeof *s->order + sizeof *s->order_end + sizeof *s->order_scratch + sizeof *s->order_info, bytes;
    if (cap > UINT32_MAX - 1u || !hl__mul_size((size_t)cap + 1u, per, &bytes)) return false;
    uint8_t *b = hl__malloc(bytes);
    if (!b) return false;
    hl_node **order = (hl_node **)(void *)b;
    uint32_t *end = (uint32_t *)(void *)(order + cap), *scratch = end + cap; /* scratch: cap + 1 */
    uint8_t *info = (uint8_t *)(scratch + cap + 1u);
    if (s->order_count) {
        memcpy(order, s->order, (size_t)s->order_count * sizeof *order);
        memcpy(end, s->order_end, (size_t)s->order_count * sizeof *end);
        memcpy(info, s->order_info, s->order_count);
    }
    hl__free(s->order);
    s->order = order;
    s->order_end = end;
    s->order_scratch = scratch;
    s->order_info = info;
    s->order_cap = (uint32_t)cap;
    return true;
}

/* n's entry in s's kept order, or UINT32_MAX. */
static uint32_t hl__order_index(const hl_stage *s, const hl_node *n) {
    return s->order_kept && n->stage_index < s->order_count && s->order[n->stage_index] == n ? n->stage_index : UINT32_MAX;
}

/* child (just linked as the root's last child) and its subtree appended to the kept order; false:
 * out of memory (the caller drops the order). */
static bool hl__order_append(hl_stage *s, hl_node *child) {
    for (hl_node *n = child; n;) {
        uint32_t idx = s->order_count;
        if (!hl__order_room(s, idx + 1)) return false;
        n->effective_visible = n->visible && n->parent->effective_visible;
        s->order[idx] = n;
        s->order_end[idx] = idx; /* open until its subtree is done */
        s->order_info[idx] = hl__order_info(n);
        n->stage_index = idx;
        s->order_count = idx + 1;
        if (n->first_child) {
            n = n->first_child;
            continue;
        }
        for (;;) {
            s->order_end[n->stage_index] = s->order_count;
            if (n == child) return true;
            if (n->next_sibling) {
                n = n->next_sibling;
                break;
            }
            n = n->parent;
        }
    }
    return true;
}

/* child's subtree (about to be unlinked from its parent, a node of s) leaves the lists: its
 * entries become holes when the order is kept, else the next update walks. */
static void hl__stage_remove(hl_stage *s, const hl_node *child) {
    uint32_t i = hl__order_index(s, child);
    if (i == UINT32_MAX) {
        hl__stage_touch(child->parent);
        return;
    }
    hl__stage_lists_stale(s);
    for (uint32_t k = i; k < s->order_end[i]; k++) {
        if (!s->order[k]) continue;
        s->order[k] = NULL;
        s->holes++;
    }
}

hl_result hl_node_create(const char *name, hl_node **out) {
    if (!out) return hl__fail(HL_ERR_VALIDATION, "hl_node_create: out is NULL");
    *out = NULL;
    hl_node *n = hl__malloc(sizeof *n);
    if (!n) return hl__fail(HL_ERR_OUT_OF_MEMORY, "hl_node_create: out of memory");
    hl__node_init(n, HL_NODE_GROUP);
    if (!hl__set_string(&n->name, name)) {
        hl__free(n);
        return HL_ERR_OUT_OF_MEMORY;
    }
    *out = n;
    return HL_OK;
}

static void hl__unlink(hl_node *child) {
    hl_node *p = child->parent;
    if (!p) return;
    if (child->prev_sibling)
        child->prev_sibling->next_sibling = child->next_sibling;
    else
        p->first_child = child->next_sibling;
    if (child->next_sibling)
        child->next_sibling->prev_sibling = child->prev_sibling;
    else
        p->last_child = child->prev_sibling;
    child->parent = child->prev_sibling = child->next_sibling = NULL;
    p->child_count--;
    child->local_dirty = true; /* its world matrix no longer includes the old parent */
}

/* Frees n and its subtree, without touching n's parent links (iterative, no recursion). */
static void hl__free_subtree(hl_node *n) {
    hl_node *cur = n;
    for (;;) {
        while (cur->first_child)
            cur = cur->first_child; /* descend to a leaf */
        hl_node *parent = cur->parent;
        bool done = cur == n;
        if (parent && !done) {
            parent->first_child = cur->next_sibling;
            if (cur->next_sibling) cur->next_sibling->prev_sibling = NULL;
        }
        switch (cur->kind) {
        case HL_NODE_MESH: {
            hl_mesh *m = (hl_mesh *)cur;
            hl_geometry_release(m->geometry);
            hl_material_release(m->material);
            hl__free(m->inverse_bind);
            break;
        }
        default: break;
        }
        hl__free(cur->name);
        hl__free(cur);
        if (done) return;
        cur = parent;
    }
}

void hl_node_destroy(hl_node *n) {
    if (!n || n->stage_of_root) return; /* a stage root goes with hl_stage_destroy */
    if (n->parent) {
        hl_stage *s = hl__stage_of(n);
        if (s) hl__stage_remove(s, n);
        hl__unlink(n);
    }
    hl__free_subtree(n);
}

hl_node_kind hl_node_get_kind(const hl_node *n) { return n ? n->kind : HL_NODE_GROUP; }
const char *hl_node_name(const hl_node *n) { return n && n->name ? n->name : ""; }

hl_result hl_node_set_name(hl_node *n, const char *name) {
    if (!n) return hl__fail(HL_ERR_VALIDATION, "hl_node_set_name: node is NULL");
    return hl__set_string(&n->name, name) ? HL_OK : HL_ERR_OUT_OF_MEMORY;
}

hl_result hl_node_add_child(hl_node *n, hl_node *child) {
    static const char fn[] = "hl_node_add_child";
    if (!n || !child) return hl__fail(HL_ERR_VALIDATION, "%s: %s is NULL", fn, n ? "child" : "parent");
    if (child->parent)
        return hl__fail(HL_ERR_VALIDATION, "%s: child \"%s\" already has a parent (remove it first)", fn,
                        hl_node_name(child));
    if (child->stage_of_root) return hl__fail(HL_ERR_VALIDATION, "%s: child is a stage root", fn);
    for (const hl_node *a = n; a; a = a->parent)
        if (a == child)
            return hl__fail(HL_ERR_VALIDATION, "%s: child \"%s\" is the parent or one of its ancestors (cycle)", fn,
                            hl_node_name(child));
    child->parent = n;
    child->prev_sibling = n->last_child;
    child->next_sibling = NULL;
    if (n->last_child)
        n->last_child->next_sibling = child;
    else
        n->first_child = child;
    n->last_child = child;
    n->child_count++;
    child->local_dirty = true;
    hl_stage *s = hl__stage_of(n);
    if (s && n == &s->root && s->order_kept && hl__order_append(s, child)) {
        hl__stage_lists_stale(s); /* the subtree comes last in pre-order: appended */
    } else if (s) {
        hl__stage_touch(n);
    }
    return HL_OK;
}

hl_result hl_node_remove_child(hl_node *n, hl_node *child) {
    if (!n || !child) return hl__fail(HL_ERR_VALIDATION, "hl_node_remove_child: %s is NULL", n ? "child" : "parent");
    if (child->parent != n)
        return hl__fail(HL_ERR_NOT_FOUND, "hl_node_remove_child: \"%s\" is not a child of \"%s\"", hl_node_name(child),
                        hl_node_name(n));
    hl_stage *s = hl__stage_of(n);
    if (s) hl__stage_remove(s, child);
    hl__unlink(child);
    return HL_OK;
}

hl_node *hl_node_parent(const hl_node *n) { return n ? n->parent : NULL; }
hl_node *hl_node_first_child(const hl_node *n) { return n ? n->first_child : NULL; }
hl_node *hl_node_next_sibling(const hl_node *n) { return n ? n->next_sibling : NULL; }
uint32_t hl_node_child_count(const hl_node *n) { return n ? n->child_count : 0; }

/* Depth-first pre-order successor of cur within the subtree of top (NULL at the end). */
static hl_node *hl__next_dfs(hl_node *cur, const hl_node *top) {
    if (cur->first_child) return cur->first_child;
    while (cur != top) {
        if (cur->next_sibling) return cur->next_sibling;
        cur = cur->parent;
    }
    return NULL;
}

hl_node *hl_node_find(hl_node *n, const char *name) {
    if (!n || !name) return NULL;
    for (hl_node *c = n; c; c = hl__next_dfs(c, n))
        if (c->name && strcmp(c->name, name) == 0) return c;
    return NULL;
}

/* A local transform changed: the next stage update recomputes the world matrix. The first change
 * after a clean state advances the revision counter, so an update that sees it unchanged knows no
 * node anywhere changed (hl_stage_update skips its walk; renderers keep their draw lists). */
static void hl__node_dirty(hl_node *n) {
    if (!n->local_dirty) hl__next_revision();
    n->local_dirty = true;
}

void hl_node_set_translation(hl_node *n, hl_vec3 t) {
    if (!n) return;
    n->translation = t;
    hl__node_dirty(n);
}

void hl_node_set_rotation(hl_node *n, hl_quat r) {
    if (!n) return;
    n->rotation = hl_quat_normalize(r);
    hl__node_dirty(n);
}

void hl_node_set_scale(hl_node *n, hl_vec3 s) {
    if (!n) return;
    n->scale = s;
    hl__node_dirty(n);
}

hl_vec3 hl_node_translation(const hl_node *n) { return n ? n->translation : (hl_vec3){0, 0, 0}; }
hl_quat hl_node_rotation(const hl_node *n) { return n ? n->rotation : hl_quat_identity(); }
hl_vec3 hl_node_scale(const hl_node *n) { return n ? n->scale : (hl_vec3){1, 1, 1}; }

void hl_node_look_at(hl_node *n, hl_vec3 target, hl_vec3 up) {
    if (!n) return;
    hl_vec3 z = hl_vec3_normalize((hl_vec3){n->translation.x - target.x, n->translation.y - target.y,
                                            n->translation.z - target.z}); /* +Z points away from target */
    if (z.x == 0 && z.y == 0 && z.z == 0) return;
    hl_vec3 x = hl_vec3_normalize(hl_vec3_cross(up, z));
    if (x.x == 0 && x.y == 0 && x.z == 0) { /* up parallel to the view direction: pick another up */
        hl_vec3 alt = fabsf(z.y) < 0.9f ? (hl_vec3){0, 1, 0} : (hl_vec3){1, 0, 0};
        x = hl_vec3_normalize(hl_vec3_cross(alt, z));
    }
    hl_vec3 y = hl_vec3_cross(z, x);
    /* rotation matrix columns x, y, z -> quaternion */
    float m00 = x.x, m11 = y.y, m22 = z.z, trace = m00 + m11 + m22;
    hl_quat q;
    if (trace > 0) {
        float s = sqrtf(trace + 1.0f) * 2.0f;
        q = (hl_quat){(y.z - z.y) / s, (z.x - x.z) / s, (x.y - y.x) / s, 0.25f * s};
    } else if (m00 > m11 && m00 > m22) {
        float s = sqrtf(1.0f + m00 - m11 - m22) * 2.0f;
        q = (hl_quat){0.25f * s, (y.x + x.y) / s, (z.x + x.z) / s, (y.z - z.y) / s};
    } else if (m11 > m22) {
        float s = sqrtf(1.0f + m11 - m00 - m22) * 2.0f;
        q = (hl_quat){(y.x + x.y) / s, 0.25f * s, (z.y + y.z) / s, (z.x - x.z) / s};
    } else {
        float s = sqrtf(1.0f + m22 - m00 - m11) * 2.0f;
        q = (hl_quat){(z.x + x.z) / s, (z.y + y.z) / s, 0.25f * s, (x.y - y.x) / s};
    }
    hl_node_set_rotation(n, q);
}

void hl_node_set_visible(hl_node *n, bool visible) {
    if (!n || n->visible == visible) return;
    n->visible = visible;
    hl__stage_touch(n);
}

bool hl_node_visible(const hl_node *n) { return n && n->visible; }
void hl_node_set_render_order(hl_node *n, int32_t order) {
    if (!n || n->render_order == order) return;
    n->render_order = order;
    hl__next_revision(); /* the draw order changed (renderers' kept lists) */
}
int32_t hl_node_render_order(const hl_node *n) { return n ? n->render_order : 0; }
void hl_node_set_user_data(hl_node *n, void *user) {
    if (n) n->user = user;
}
void *hl_node_user_data(const hl_node *n) { return n ? n->user : NULL; }

hl_mat4 hl_node_local_matrix(const hl_node *n) {
    if (!n) return hl_mat4_identity();
    return hl_mat4_from_trs(n->translation, n->rotation, n->scale);
}

const hl_mat4 *hl_node_world_matrix(const hl_node *n) { return n ? &n->world : NULL; }
uint64_t hl_node_world_revision(const hl_node *n) { return n ? n->world_revision : 0; }
hl_vec3 hl_node_world_position(const hl_node *n) {
    if (!n) return (hl_vec3){0, 0, 0};
    return (hl_vec3){n->world.m[12], n->world.m[13], n->world.m[14]};
}

/* Recomputes n's world matrix from its parent's (already current), as revision rev. */
static void hl__compute_world_as(hl_node *n, uint64_t rev) {
    hl_mat4 local = hl_mat4_from_trs(n->translation, n->rotation, n->scale);
    n->world = n->parent ? hl_mat4_mul(&n->parent->world, &local) : local;
    n->parent_rev_seen = n->parent ? n->parent->world_revision : 0;
    n->world_revision = rev;
    n->local_dirty = false;
}

static void hl__compute_world(hl_node *n) { hl__compute_world_as(n, hl__next_revision()); }

/* Stale: its own TRS changed, or the parent's world changed since n's was computed. */
static bool hl__stale(const hl_node *n) {
    return n->local_dirty || (n->parent && n->parent->world_revision != n->parent_rev_seen);
}

void hl_node_update_world(hl_node *n) {
    if (!n) return;
    if (n->parent) hl_node_update_world(n->parent);
    if (hl__stale(n)) hl__compute_world(n);
}

/* ---- stage --------------------------------------------------------------------------------- */

hl_result hl_stage_create(hl_stage **out) {
    if (!out) return hl__fail(HL_ERR_VALIDATION, "hl_stage_create: out is NULL");
    *out = NULL;
    hl_stage *s = hl__calloc(1, sizeof *s);
    if (!s) return hl__fail(HL_ERR_OUT_OF_MEMORY, "hl_stage_create: out of memory");
    hl__node_init(&s->root, HL_NODE_GROUP);
    s->root.stage_of_root = s;
    s->clear_color = (hl_color){0, 0, 0, 1};
    s->exposure = 1.0f;
    s->structure_revision = hl__next_revision();
    *out = s;
    return HL_OK;
}

void hl_stage_destroy(hl_stage *s) {
    if (!s) return;
    while (s->root.first_child) {
        hl_node *c = s->root.first_child;
        hl__unlink(c);
        hl__free_subtree(c);
    }
    hl__free(s->root.name);
    hl__free(s->meshes);
    hl__free(s->lights);
    hl__free(s->cameras);
    hl__free(s->order); /* the block of the four arrays */
    hl__free(s->units);
    hl__free(s->spine);
    hl_environment_release(s->environment);
    hl__free(s);
}

hl_node *hl_stage_root(hl_stage *s) { return s ? &s->root : NULL; }

hl_result hl_stage_add(hl_stage *s, hl_node *n) {
    if (!s) return hl__fail(HL_ERR_VALIDATION, "hl_stage_add: stage is NULL");
    return hl_node_add_child(&s->root, n);
}

#define HL__PUSH(s, arr, count, cap, item)                                                                             \
    do {                                                                                                               \
        if ((s)->count == (s)->cap && !hl__reserve((void **)&(s)->arr, &(s)->cap, (s)->count + 1, sizeof *(s)->arr))   \
            return HL_ERR_OUT_OF_MEMORY;                                                                               \
        (s)->arr[(s)->count++] = (item);                                                                               \
    } while (0)

/* The full walk: world matrices, effective visibility, the flat lists, and the order kept for
 * the updates that follow while the structure holds. */
static hl_result hl__stage_walk(hl_stage *s) {
    s->mesh_count = s->light_count = s->camera_count = 0;
    s->order_kept = false;
    s->order_count = s->holes = 0;
    s->lists_stale = false;
    hl_node *root = &s->root;
    if (hl__stale(root)) hl__compute_world(root);
    root->effective_visible = root->visible;
    /* pre-order walk: a parent is always visited before its children; a subtree ends where the
       walk leaves it (the node's index is kept in order_end until then) */
    uint32_t idx = 0;
    bool order = true; /* false: out of memory for the order (the walk goes on without it) */
    for (hl_node *n = root->first_child; n;) {
        hl_node *p = n->parent;
        if (hl__stale(n)) hl__compute_world(n);
        n->effective_visible = n->visible && p->effective_visible;
        if (order && !hl__order_room(s, idx + 1)) order = false;
        if (order) {
            s->order[idx] = n;
            s->order_end[idx] = idx; /* open */
            s->order_info[idx] = hl__order_info(n);
            s->order_count = idx + 1; /* (what hl__order_room keeps when it grows) */
        }
        n->stage_index = idx++;
        if (n->effective_visible) {
            switch (n->kind) {
            case HL_NODE_MESH: HL__PUSH(s, meshes, mesh_count, mesh_cap, (hl_mesh *)n); break;
            case HL_NODE_LIGHT: HL__PUSH(s, lights, light_count, light_cap, (hl_light *)n); break;
            case HL_NODE_CAMERA: HL__PUSH(s, cameras, camera_count, camera_cap, (hl_camera *)n); break;
            default: break;
            }
        }
        if (n->first_child) {
            n = n->first_child;
            continue;
        }
        for (;;) { /* n's subtree is done: close it and its ancestors' that end here */
            if (order) s->order_end[n->stage_index] = idx;
            if (n->next_sibling) {
                n = n->next_sibling;
                break;
            }
            n = n->parent;
            if (n == root) {
                n = NULL;
                break;
            }
        }
    }
    s->order_count = order ? idx : 0;
    s->order_kept = order;
    s->unit_count = s->spine_count = 0;
    return HL_OK;
}

/* The kept order without its holes (subtrees removed): entries moved down, their subtree ends
 * and the nodes' indices renumbered. False: out of memory (the order is dropped). */
static bool hl__stage_compact(hl_stage *s) {
    uint32_t n = s->order_count; /* scratch has room for n + 1 (hl__order_room) */
    uint32_t live = 0;
    for (uint32_t i = 0; i < n; i++) {
        s->order_scratch[i] = live;
        live += s->order[i] != NULL;
    }
    s->order_scratch[n] = live;
    /* each entry moves to an index at or below its own, so the ends read are not yet rewritten */
    for (uint32_t i = 0; i < n; i++) {
        hl_node *x = s->order[i];
        if (!x) continue;
        uint32_t j = s->order_scratch[i];
        s->order[j] = x;
        s->order_info[j] = s->order_info[i];
        s->order_end[j] = s->order_scratch[s->order_end[i]];
        x->stage_index = j;
    }
    s->order_count = live;
    s->holes = 0;
    s->unit_count = s->spine_count = 0;
    return true;
}

/* The lists from the kept order (entries in pre-order, holes skipped). */
static hl_result hl__stage_lists(hl_stage *s) {
    s->mesh_count = s->light_count = s->camera_count = 0;
    for (uint32_t i = 0; i < s->order_count; i++) {
        uint8_t info = s->order_info[i];
        if (!s->order[i] || !(info & HL__INFO_VISIBLE)) continue;
        switch (info & 3u) {
        case 1: HL__PUSH(s, meshes, mesh_count, mesh_cap, (hl_mesh *)s->order[i]); break;
        case 2: HL__PUSH(s, lights, light_count, light_cap, (hl_light *)s->order[i]); break;
        case 3: HL__PUSH(s, cameras, camera_count, camera_cap, (hl_camera *)s->order[i]); break;
        default: break;
        }
    }
    s->lists_stale = false;
    return HL_OK;
}

/* The units of the threaded world update: the root's children's subtrees, the largest split into
 * its children's while it holds more than an eighth of the nodes (its root then joins the
 * spine). False: out of memory (the update runs in order on one thread). */
static bool hl__stage_units(hl_stage *s) {
    uint32_t n = s->order_count, count = 0;
    for (uint32_t i = 0; i < n; i = s->order_end[i]) count++;
    if (!hl__reserve((void **)&s->units, &s->unit_cap, count, sizeof *s->units)) return false;
    s->unit_count = s->spine_count = 0;
    for (uint32_t i = 0; i < n; i = s->order_end[i])
        s->units[s->unit_count++] = (struct hl__stage_unit){i, s->order_end[i], 0};
    for (uint32_t splits = 0; splits < 64u; splits++) {
        uint32_t big = UINT32_MAX, size = n / 8u;
        for (uint32_t u = 0; u < s->unit_count; u++) {
            uint32_t us = s->units[u].end - s->units[u].first;
            if (us > size && us > 1u && s->order[s->units[u].first]) big = u, size = us; /* a hole's range stays whole */
        }
        if (big == UINT32_MAX) break;
        struct hl__stage_unit b = s->units[big];
        uint32_t kids = 0;
        for (uint32_t i = b.first + 1; i < b.end; i = s->order_end[i]) kids++;
        if (!hl__reserve((void **)&s->spine, &s->spine_cap, s->spine_count + 1, sizeof *s->spine) ||
            !hl__reserve((void **)&s->units, &s->unit_cap, s->unit_count + kids, sizeof *s->units))
            return false;
        /* the spine stays in pre-order: a split unit's root follows every spine node before it */
        uint32_t at = s->spine_count;
        while (at && s->spine[at - 1] > b.first) at--;
        memmove(s->spine + at + 1, s->spine + at, (s->spine_count - at) * sizeof *s->spine);
        s->spine[at] = b.first;
        s->spine_count++;
        memmove(s->units + big + kids, s->units + big + 1, (s->unit_count - big - 1) * sizeof *s->units);
        uint32_t k = big;
        for (uint32_t i = b.first + 1; i < b.end; i = s->order_end[i])
            s->units[k++] = (struct hl__stage_unit){i, s->order_end[i], 0};
        s->unit_count = s->unit_count - 1 + kids;
    }
    uint32_t before = 0;
    for (uint32_t u = 0; u < s->unit_count; u++) {
        s->units[u].before = before;
        before += s->units[u].end - s->units[u].first;
    }
    return true;
}

/* Part of the threaded world update: the units holding nodes [total * part / parts, ...) of
 * the units' nodes, each stale node with revisions taken a block at a time. */
typedef struct hl__world_ctx {
    hl_stage *s;
} hl__world_ctx;

static void hl__world_part(void *ctx, uint32_t part, uint32_t parts) {
    hl_stage *s = ((hl__world_ctx *)ctx)->s;
    const struct hl__stage_unit *units = s->units;
    uint32_t count = s->unit_count;
    uint32_t total = count ? units[count - 1].before + (units[count - 1].end - units[count - 1].first) : 0;
    uint32_t a, b;
    hl__work_range(total, part, parts, &a, &b);
    /* the first unit starting at or after node a, up to the first starting at or after b */
    uint32_t lo = 0, hi = count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2u;
        if (units[mid].before < a) lo = mid + 1;
        else hi = mid;
    }
    uint64_t rev = 0, rev_end = 0;
    for (uint32_t u = lo; u < count && units[u].before < b; u++)
        for (uint32_t i = units[u].first; i < units[u].end; i++) {
            hl_node *n = s->order[i];
            if (!n || !hl__stale(n)) continue;
            if (rev == rev_end) {
                rev = hl__next_revisions(256u);
                rev_end = rev + 256u;
            }
            hl__compute_world_as(n, rev++);
        }
}

hl_result hl__stage_update_on(hl_stage *s, hl__workers *workers, uint32_t parallel_min) {
    if (!s) return hl__fail(HL_ERR_VALIDATION, "hl_stage_update: stage is NULL");
    /* nothing anywhere changed since the last walk (every change of a node, of the structure or of
       visibility advances the revision counter): the world matrices and lists stand */
    if (s->walked_at && s->walked_at == hl_revision_now()) return HL_OK;
    if (s->order_kept && s->holes && s->holes * 4u > s->order_count && !hl__stage_compact(s)) s->order_kept = false;
    if (!s->order_kept) {
        hl_result res = hl__stage_walk(s);
        if (res) return res;
    } else {
        /* visibility held, the structure changed only where the order followed: the lists from
           the order if it changed, then the world matrices */
        if (s->lists_stale) {
            hl_result res = hl__stage_lists(s);
            if (res) return res;
        }
        hl_node *root = &s->root;
        if (hl__stale(root)) hl__compute_world(root);
        uint32_t parts = workers && s->order_count >= parallel_min ? hl__workers_parts(workers, 4u) : 1u;
        if (parts > 1 && !s->unit_count && !hl__stage_units(s)) parts = 1;
        if (parts > 1) {
            for (uint32_t k = 0; k < s->spine_count; k++) {
                hl_node *n = s->order[s->spine[k]];
                if (n && hl__stale(n)) hl__compute_world(n);
            }
            hl__workers_run(workers, parts, hl__world_part, &(hl__world_ctx){s});
        } else {
            for (uint32_t i = 0; i < s->order_count; i++)
                if (s->order[i] && hl__stale(s->order[i])) hl__compute_world(s->order[i]);
        }
    }
    s->walked_at = hl_revision_now();
    return HL_OK;
}

hl_result hl_stage_update(hl_stage *s) { return hl__stage_update_on(s, NULL, 0); }

hl_mesh *const *hl_stage_meshes(const hl_stage *s, uint32_t *count) {
    if (count) *count = s ? s->mesh_count : 0;
    return s ? s->meshes : NULL;
}

hl_light *const *hl_stage_lights(const hl_stage *s, uint32_t *count) {
    if (count) *count = s ? s->light_count : 0;
    return s ? s->lights : NULL;
}

hl_camera *const *hl_stage_cameras(const hl_stage *s, uint32_t *count) {
    if (count) *count = s ? s->camera_count : 0;
    return s ? s->cameras : NULL;
}

uint64_t hl_stage_structure_revision(const hl_stage *s) { return s ? s->structure_revision : 0; }

void hl_stage_set_fog(hl_stage *s, const hl_fog *fog) {
    if (!s) return;
    hl_fog f = fog ? *fog : (hl_fog){0};
    if ((unsigned)f.mode > HL_FOG_EXP2) f.mode = HL_FOG_NONE;
    if (f.end == 0) f.end = 100.0f;
    if (f.density == 0) f.density = 0.01f;
    s->fog = f;
    hl__next_revision(); /* programs and constants of the stage's views */
}

const hl_fog *hl_stage_fog(const hl_stage *s) { return s ? &s->fog : NULL; }
void hl_stage_set_clear_color(hl_stage *s, hl_color c) {
    if (s) s->clear_color = c;
}
hl_color hl_stage_clear_color(const hl_stage *s) { return s ? s->clear_color : (hl_color){0, 0, 0, 1}; }

void hl_stage_set_environment(hl_stage *s, hl_environment *env) {
    if (!s || s->environment == env) return;
    hl_environment_retain(env);
    hl_environment_release(s->environment);
    s->environment = env;
    hl__next_revision();
}
hl_environment *hl_stage_environment(const hl_stage *s) { return s ? s->environment : NULL; }
void hl_stage_set_exposure(hl_stage *s, float exposure) {
    if (s && isfinite(exposure) && exposure > 0.0f && exposure != s->exposure) {
        s->exposure = exposure;
        hl__next_revision();
    }
}
float hl_stage_exposure(const hl_stage *s) { return s ? s->exposure : 1.0f; }

/* ---- meshes -------------------------------------------------------------------------------- */

hl_result hl_mesh_create(const hl_mesh_desc *desc, hl_mesh **out) {
    static const char fn[] = "hl_mesh_create";
    if (!out) return hl__fail(HL_ERR_VALIDATION, "%s: out is NULL", fn);
    *out = NULL;
    if (!desc) return hl__fail(HL_ERR_VALIDATION, "%s: desc is NULL (geometry and material are required)", fn);
    if (!desc->geometry) return hl__fail(HL_ERR_VALIDATION, "%s: desc.geometry is NULL", fn);
    if (!desc->material) return hl__fail(HL_ERR_VALIDATION, "%s: desc.material is NULL", fn);
    hl_mesh *m = hl__malloc(sizeof *m);
    if (!m) return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: out of memory", fn);
    memset(m, 0, sizeof *m);
    hl__node_init(&m->node, HL_NODE_MESH);
    if (!hl__set_string(&m->node.name, desc->name)) {
        hl__free(m);
        return HL_ERR_OUT_OF_MEMORY;
    }
    m->geometry = desc->geometry;
    m->material = desc->material;
    hl_geometry_retain(m->geometry);
    hl_material_retain(m->material);
    m->instanced = desc->instanced;
    m->cast_shadows = desc->cast_shadows;
    m->layers = 1u;
    m->receive_shadows = desc->receive_shadows;
    m->revision = hl__next_revision();
    m->serial = m->revision;
    *out = m;
    return HL_OK;
}

/* A typed mesh pointer that is NULL or another node kind behaves like NULL everywhere below. */
#define HL__MESH(m) hl__is_kind((m), HL_NODE_MESH)

hl_node *hl_mesh_node(hl_mesh *m) { return HL__MESH(m) ? &m->node : NULL; }
hl_mesh *hl_node_mesh(hl_node *n) { return n && n->kind == HL_NODE_MESH ? (hl_mesh *)n : NULL; }
hl_geometry *hl_mesh_geometry(const hl_mesh *m) { return HL__MESH(m) ? m->geometry : NULL; }
hl_material *hl_mesh_material(const hl_mesh *m) { return HL__MESH(m) ? m->material : NULL; }

hl_result hl_mesh_check(const hl_mesh *m) { return hl__check_node_kind("hl_mesh_check", m, HL_NODE_MESH); }

hl_result hl_mesh_set_geometry(hl_mesh *m, hl_geometry *g) {
    hl_result r = hl__check_node_kind("hl_mesh_set_geometry", m, HL_NODE_MESH);
    if (r) return r;
    if (!g) return hl__fail(HL_ERR_VALIDATION, "hl_mesh_set_geometry: geometry is NULL");
    if (m->geometry == g) return HL_OK;
    hl_geometry_retain(g);
    hl_geometry_release(m->geometry);
    m->geometry = g;
    m->revision = hl__next_revision();
    return HL_OK;
}

hl_result hl_mesh_set_material(hl_mesh *m, hl_material *mat) {
    hl_result r = hl__check_node_kind("hl_mesh_set_material", m, HL_NODE_MESH);
    if (r) return r;
    if (!mat) return hl__fail(HL_ERR_VALIDATION, "hl_mesh_set_material: material is NULL");
    if (m->material == mat) return HL_OK;
    hl_material_retain(mat);
    hl_material_release(m->material);
    m->material = mat;
    m->revision = hl__next_revision();
    return HL_OK;
}

hl_result hl_mesh_set_skin(hl_mesh *m, const hl_skin_desc *skin) {
    static const char fn[] = "hl_mesh_set_skin";
    hl_result r = hl__check_node_kind(fn, m, HL_NODE_MESH);
    if (r) return r;
    if (skin && skin->joint_count) {
        if (skin->joint_count > HL_SKIN_MAX_JOINTS)
            return hl__fail(HL_ERR_VALIDATION, "%s: %u joints (at most %u)", fn, skin->joint_count, HL_SKIN_MAX_JOINTS);
        if (!skin->joints) return hl__fail(HL_ERR_VALIDATION, "%s: joints is NULL", fn);
        for (uint32_t i = 0; i < skin->joint_count; i++)
            if (!skin->joints[i]) return hl__fail(HL_ERR_VALIDATION, "%s: joints[%u] is NULL", fn, i);
        for (uint32_t i = 0; skin->inverse_bind && i < skin->joint_count; i++)
            for (int k = 0; k < 16; k++)
                if (!isfinite(skin->inverse_bind[i].m[k]))
                    return hl__fail(HL_ERR_VALIDATION, "%s: inverse_bind[%u] is not finite", fn, i);
    }
    uint32_t n = skin ? skin->joint_count : 0;
    hl_mat4 *block = NULL;
    /* matrices, then the joint boxes, then the joint pointers (each part a multiple of 8 bytes) */
    _Static_assert(sizeof(hl_mat4) % 8 == 0 && sizeof(hl_aabb) % 8 == 0, "the skin block's parts stay aligned");
    if (n) {
        block = hl__malloc((size_t)n * (sizeof(hl_mat4) + sizeof(hl_aabb) + sizeof(hl_node *)));
        if (!block) return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: %u joints", fn, n);
        hl_node **joints = (hl_node **)((hl_aabb *)(block + n) + n);
        for (uint32_t i = 0; i < n; i++) {
            block[i] = skin->inverse_bind ? skin->inverse_bind[i] : hl_mat4_identity();
            joints[i] = skin->joints[i];
        }
    }
    hl__free(m->inverse_bind);
    m->inverse_bind = block;
    m->joint_boxes = n ? (hl_aabb *)(block + n) : NULL;
    m->joints = n ? (hl_node **)(m->joint_boxes + n) : NULL;
    m->joint_count = n;
    m->joint_boxes_rev = 0;
    m->skin_posed = false;
    m->revision = hl__next_revision();
    return HL_OK;
}

uint32_t hl_mesh_skin_joint_count(const hl_mesh *m) { return HL__MESH(m) ? m->joint_count : 0u; }

uint32_t hl_mesh_skin_matrices(const hl_mesh *m, hl_mat4 *out, uint32_t max) {
    if (!HL__MESH(m) || !out) return 0;
    uint32_t n = m->joint_count < max ? m->joint_count : max;
    for (uint32_t i = 0; i < n; i++) out[i] = hl_mat4_mul(hl_node_world_matrix(m->joints[i]), &m->inverse_bind[i]);
    return n;
}

void hl_mesh_set_instanced(hl_mesh *m, bool instanced) {
    if (!HL__MESH(m) || m->instanced == instanced) return;
    m->instanced = instanced;
    m->revision = hl__next_revision();
}

bool hl_mesh_instanced(const hl_mesh *m) { return HL__MESH(m) && m->instanced; }

void hl_mesh_set_shadows(hl_mesh *m, bool cast, bool receive) {
    if (!HL__MESH(m) || (m->cast_shadows == cast && m->receive_shadows == receive)) return;
    m->cast_shadows = cast;
    m->receive_shadows = receive;
    m->revision = hl__next_revision();
}

bool hl_mesh_cast_shadows(const hl_mesh *m) { return HL__MESH(m) && m->cast_shadows; }

void hl_mesh_set_layers(hl_mesh *m, uint32_t layers) {
    if (!HL__MESH(m) || m->layers == layers) return;
    m->layers = layers;
    m->revision = hl__next_revision();
}

uint32_t hl_mesh_layers(const hl_mesh *m) { return HL__MESH(m) ? m->layers : 0u; }

hl_result hl_mesh_set_events(hl_mesh *m, const hl_mesh_events *events) {
    if (!HL__MESH(m)) return hl__fail(HL_ERR_VALIDATION, "hl_mesh_set_events: m is not a mesh");
    if (events) m->events = *events;
    else memset(&m->events, 0, sizeof m->events);
    hl__next_revision(); /* renderers call the events of meshes they draw: lists are rebuilt */
    return HL_OK;
}

const hl_mesh_events *hl_mesh_get_events(const hl_mesh *m) {
    return HL__MESH(m) && (m->events.before_render || m->events.after_render) ? &m->events : NULL;
}
bool hl_mesh_receive_shadows(const hl_mesh *m) { return HL__MESH(m) && m->receive_shadows; }
uint64_t hl_mesh_revision(const hl_mesh *m) { return HL__MESH(m) ? m->revision : 0; }
uint64_t hl_mesh_serial(const hl_mesh *m) { return HL__MESH(m) ? m->serial : 0; }

/* Brings m's joint boxes up to date with its geometry: O(vertices) when the geometry (or the
 * skin) changed since they were made, else nothing; no allocation (the boxes live in the skin's
 * block). The influences read are the renderer's: JOINTS_0 / WEIGHTS_0, and JOINTS_1 /
 * WEIGHTS_1 when both are there with 4 weights; a zero weight moves nothing, a joint index past
 * the skin (invalid input) is skipped. */
static void hl__mesh_joint_boxes(hl_mesh *m) {
    uint64_t rev = hl_geometry_revision(m->geometry);
    if (m->joint_boxes_rev == rev) return;
    m->joint_boxes_rev = rev;
    m->skin_posed = false;
    const hl_geometry_layout *l = hl_geometry_get_layout(m->geometry);
    const hl_vertex_attribute_info *a = l->attributes;
    if (!a[HL_ATTR_JOINTS_0].present || !a[HL_ATTR_WEIGHTS_0].present || a[HL_ATTR_WEIGHTS_0].components != 4 ||
        l->topology != HL_TOPOLOGY_TRIANGLES)
        return; /* drawn unskinned */
    bool eight = a[HL_ATTR_JOINTS_1].present && a[HL_ATTR_WEIGHTS_1].present && a[HL_ATTR_WEIGHTS_1].components == 4;
    int sets = eight ? 2 : 1;
    static const hl_attribute joint_attr[2] = {HL_ATTR_JOINTS_0, HL_ATTR_JOINTS_1};
    static const hl_attribute weight_attr[2] = {HL_ATTR_WEIGHTS_0, HL_ATTR_WEIGHTS_1};
    for (uint32_t j = 0; j < m->joint_count; j++)
        m->joint_boxes[j] = (hl_aabb){{INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}};
    for (uint32_t v = 0; v < l->vertex_count; v++) {
        float p[4];
        /* the attributes are there and v below vertex_count: the reads cannot fail */
        (void)hl_geometry_read_vertex(m->geometry, HL_ATTR_POSITION, v, p);
        hl_vec3 pos = {p[0], p[1], p[2]};
        for (int set = 0; set < sets; set++) {
            float jf[4], wf[4];
            (void)hl_geometry_read_vertex(m->geometry, joint_attr[set], v, jf);
            (void)hl_geometry_read_vertex(m->geometry, weight_attr[set], v, wf);
            for (int k = 0; k < 4; k++) {
                uint32_t j = (uint32_t)jf[k];
                if (wf[k] == 0.0f || j >= m->joint_count) continue;
                hl_vec3 q = hl_mat4_transform_point(&m->inverse_bind[j], pos);
                hl_aabb pt = {q, q};
                hl_aabb_merge(&m->joint_boxes[j], &pt);
                m->skin_posed = true;
            }
        }
    }
}

/* The skinned bounds of m, when its draws are skinned (engine material, the geometry's skin
 * attributes, some weight): a vertex is drawn at sum(w_i * world_i * inverse_bind_i * p) over
 * its influences, in homogeneous coordinates whose w is sum(w_i), that is at the weighted mean
 * of its joints' placements for non-negative weights, normalised or not. Each placement lies
 * in its joint's box carried by the joint's world matrix, so the mean lies in their union. */
static bool hl__mesh_posed_aabb(const hl_mesh *m, hl_aabb *out) {
    if (!m->joint_count || hl_material_get_kind(m->material) == HL_MATERIAL_SHADER) return false;
    hl_mesh *mm = (hl_mesh *)m; /* a cache: the mesh itself is never const */
    hl__mesh_joint_boxes(mm);
    if (!m->skin_posed) return false;
    hl_aabb box = {{INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}};
    for (uint32_t j = 0; j < m->joint_count; j++) {
        if (hl_aabb_is_empty(&m->joint_boxes[j])) continue;
        hl_aabb b = hl_aabb_transform(&m->joint_boxes[j], &m->joints[j]->world);
        hl_aabb_merge(&box, &b);
    }
    *out = box;
    return true;
}

hl_aabb hl_mesh_world_aabb(const hl_mesh *m) {
    if (!HL__MESH(m)) return (hl_aabb){{0, 0, 0}, {0, 0, 0}};
    hl_aabb b;
    if (hl__mesh_posed_aabb(m, &b)) return b;
    b = hl_geometry_aabb(m->geometry);
    return hl_aabb_transform(&b, &m->node.world);
}

hl_sphere hl_mesh_world_sphere(const hl_mesh *m) {
    if (!HL__MESH(m)) return (hl_sphere){{0, 0, 0}, 0};
    hl_aabb b;
    if (hl__mesh_posed_aabb(m, &b)) {
        hl_vec3 h = {(b.max.x - b.min.x) * 0.5f, (b.max.y - b.min.y) * 0.5f, (b.max.z - b.min.z) * 0.5f};
        return (hl_sphere){{b.min.x + h.x, b.min.y + h.y, b.min.z + h.z}, hl_vec3_length(h)};
    }
    hl_sphere s = hl_geometry_bounding_sphere(m->geometry);
    return hl_sphere_transform(&s, &m->node.world);
}
