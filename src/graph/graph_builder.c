/* The graph object, the frame arena and the builder: resources, passes, declarations,
 * uploads and commit records. Nothing here touches the device except import checks done
 * later by the compiler. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "graph_internal.h"

const char *const hl__gacc_names[HL__ACC_COUNT] = {
    "sampled", "color",   "depth",   "resolve",  "copy_src", "copy_dst", "storage_read", "storage_write",
    "storage_rw", "storage_texture_write", "uniform", "vertex", "index", "indirect", "clear", "mips",
};

static const char *const hl__graph_error_names[] = {
#define HL__GRAPH_ERR_NAME(name, text) #name,
    HL_GRAPH_ERRORS(HL__GRAPH_ERR_NAME)
#undef HL__GRAPH_ERR_NAME
};

const char *hl_graph_error_name(hl_graph_error e) {
    return (unsigned)e < HL_GRAPH_ERR_COUNT ? hl__graph_error_names[e] : "HL_GRAPH_ERR_UNKNOWN";
}

hl_graph_error hl_graph_error_kind(const hl_graph *g) { return g ? g->error_kind : HL_GRAPH_ERR_NONE; }

/* ---- arena -------------------------------------------------------------------------------- */
void *hl__graph_arena_alloc(hl_graph *g, size_t size) {
    if (size > SIZE_MAX / 2) { /* rounding up and the chunk header would overflow */
        hl__fail(HL_ERR_OUT_OF_MEMORY, "hl_graph: frame arena request of %zu bytes is too large", size);
        return NULL;
    }
    size = (size + 15u) & ~(size_t)15u;
    if (!size) size = 16;
    for (hl__arena_chunk *c = g->arena_cur; c; c = c->next) {
        if (c->size - c->used >= size) {
            void *p = c->data + c->used;
            c->used += size;
            g->arena_cur = c;
            memset(p, 0, size);
            return p;
        }
    }
    /* a request larger than a chunk gets one rounded up to a power of two: requests that grow
       a little each frame (a visible list, say) then allocate a logarithmic number of times */
    size_t chunk = g->arena_chunk_bytes;
    while (chunk < size) chunk = chunk > SIZE_MAX / 4 ? size : chunk * 2;
    hl__arena_chunk *c = hl__malloc(sizeof(hl__arena_chunk) + chunk);
    if (!c) {
        hl__fail(HL_ERR_OUT_OF_MEMORY, "hl_graph: frame arena chunk of %zu bytes", chunk);
        return NULL;
    }
    c->next = NULL;
    c->size = chunk;
    c->used = size;
    /* append at the end so the reset walk reuses chunks in order */
    hl__arena_chunk **tail = &g->arena_head;
    while (*tail) tail = &(*tail)->next;
    *tail = c;
    g->arena_cur = c;
    memset(c->data, 0, size);
    return c->data;
}

static void hl__graph_arena_reset(hl_graph *g) {
    for (hl__arena_chunk *c = g->arena_head; c; c = c->next) c->used = 0;
    g->arena_cur = g->arena_head;
}

static const char *hl__graph_name(hl_graph *g, const char *name, const char *fallback) {
    if (!name || !name[0]) name = fallback;
    size_t n = strlen(name) + 1;
    char *s = hl__graph_arena_alloc(g, n);
    if (!s) return fallback;
    memcpy(s, name, n);
    return s;
}

/* ---- errors and handles --------------------------------------------------------------------- */
hl_result hl__graph_build_fail(hl_graph *g, hl_result code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    hl__failv(code, fmt, ap);
    va_end(ap);
    if (g && !g->build_result) {
        g->build_result = code;
        snprintf(g->build_msg, sizeof(g->build_msg), "%s", hl_last_error());
    }
    return code;
}

static uint32_t hl__graph_make_id(const hl_graph *g, uint32_t index) {
    return (g->gen << HL__GRAPH_INDEX_BITS) | (index + 1u);
}

static uint32_t hl__graph_id_index(const hl_graph *g, uint32_t id, uint32_t count) {
    if (!g || !id || (id >> HL__GRAPH_INDEX_BITS) != g->gen) return HL__GRAPH_NONE;
    uint32_t i = (id & HL__GRAPH_INDEX_MASK) - 1u;
    return i < count ? i : HL__GRAPH_NONE;
}

uint32_t hl__graph_texture_index(const hl_graph *g, hl_graph_texture t) {
    uint32_t i = hl__graph_id_index(g, t.id, g ? g->res_count : 0);
    return i != HL__GRAPH_NONE && !g->res[i].is_buffer ? i : HL__GRAPH_NONE;
}

uint32_t hl__graph_buffer_index(const hl_graph *g, hl_graph_buffer b) {
    uint32_t i = hl__graph_id_index(g, b.id, g ? g->res_count : 0);
    return i != HL__GRAPH_NONE && g->res[i].is_buffer ? i : HL__GRAPH_NONE;
}

uint32_t hl__graph_pass_index(const hl_graph *g, hl_graph_pass p) {
    return hl__graph_id_index(g, p.id, g ? g->passes_count : 0);
}

hl_graph_pass hl__graph_pass_handle(const hl_graph *g, uint32_t index) {
    return (hl_graph_pass){hl__graph_make_id(g, index)};
}

const char *hl__graph_res_kind(const hl__gres *r) { return r->is_buffer ? "buffer" : "texture"; }

/* ---- the graph object ----------------------------------------------------------------------- */
static void hl__graph_drop_untaken(hl_graph *g);

hl_result hl_graph_create(const hl_graph_desc *desc, hl_graph **out) {
    if (!out) return hl__fail(HL_ERR_VALIDATION, "hl_graph_create: out is NULL");
    *out = NULL;
    if (!desc) return hl__fail(HL_ERR_VALIDATION, "hl_graph_create: desc is NULL");
    if (!desc->device) return hl__fail(HL_ERR_VALIDATION, "hl_graph_create: desc->device is NULL");
    hl_graph *g = hl__calloc(1, sizeof(*g));
    if (!g) return hl__fail(HL_ERR_OUT_OF_MEMORY, "hl_graph_create: %zu bytes", sizeof(*g));
    g->dev = desc->device;
    g->caps = hl_rhi_device_caps(desc->device);
    g->arena_chunk_bytes = desc->arena_chunk_bytes ? desc->arena_chunk_bytes : 64u * 1024u;
    g->gen = 1;
    *out = g;
    return HL_OK;
}

void hl_graph_destroy(hl_graph *g) {
    if (!g) return;
    hl_rhi_device_wait_idle(g->dev);
    hl__graph_drop_untaken(g);
    hl__graph_pool_release_all(g, true);
    for (uint32_t i = 0; i < g->views_count; i++) hl_rhi_texture_view_destroy(g->dev, g->views[i].view);
    hl__arena_chunk *c = g->arena_head;
    while (c) {
        hl__arena_chunk *n = c->next;
        hl__free(c);
        c = n;
    }
    hl__free(g->res);
    hl__free(g->passes);
    hl__free(g->acc);
    hl__free(g->deps);
    hl__free(g->uploads);
    hl__free(g->commits);
    hl__free(g->edges);
    hl__free(g->edge_start);
    hl__free(g->edge_list);
    hl__free(g->indegree);
    hl__free(g->heap);
    hl__free(g->topo);
    hl__free(g->order);
    hl__free(g->order_index);
    hl__free(g->slots);
    hl__free(g->lifetimes);
    hl__free(g->plan_scratch);
    hl__free(g->plan_offsets);
    hl__free(g->pool);
    hl__free(g->views);
    hl__free(g);
}

void hl_graph_trim(hl_graph *g) {
    if (g) hl__graph_pool_release_all(g, false);
}

/* An extracted object of the finished frame that nobody took goes back to the device. */
static void hl__graph_drop_untaken(hl_graph *g) {
    for (uint32_t i = 0; i < g->res_count; i++) {
        hl__gres *r = &g->res[i];
        if (!r->own_object || r->taken) continue;
        if (r->is_buffer) hl_rhi_buffer_destroy(g->dev, r->buf);
        else {
            hl_rhi_texture_view_destroy(g->dev, r->view);
            hl_rhi_texture_destroy(g->dev, r->tex);
        }
        r->own_object = false;
    }
}

void hl_graph_begin(hl_graph *g) {
    if (!g) return;
    hl__graph_drop_untaken(g);
    g->gen = g->gen % 4095u + 1u;
    g->state = HL__GRAPH_BUILDING;
    g->compiled = false;
    g->lifetimes_count = 0; /* hl_graph_offset_plan: nothing compiled in this frame yet */
    g->build_result = HL_OK;
    g->build_msg[0] = 0;
    g->error_kind = HL_GRAPH_ERR_NONE;
    g->res_count = g->passes_count = g->acc_count = g->deps_count = 0;
    g->uploads_count = g->commits_count = 0;
    g->order_count = 0;
    memset(&g->stats, 0, sizeof(g->stats));
    hl__graph_arena_reset(g);
}

static bool hl__graph_building(hl_graph *g, const char *fn) {
    if (!g) {
        hl__fail(HL_ERR_VALIDATION, "%s: graph is NULL", fn);
        return false;
    }
    if (g->state != HL__GRAPH_BUILDING) {
        hl__graph_build_fail(g, HL_ERR_INVALID_STATE, "%s: call hl_graph_begin first (the frame is %s)", fn,
                             g->state == HL__GRAPH_IDLE ? "not begun" : "already executed");
        return false;
    }
    return true;
}

/* ---- resources -------------------------------------------------------------------------------- */
static hl__gres *hl__graph_new_res(hl_graph *g, bool is_buffer, const char *name, const char *fn, uint32_t *index) {
    if (g->res_count >= HL__GRAPH_INDEX_MASK) {
        hl__graph_build_fail(g, HL_ERR_VALIDATION, "%s: more than %u resources", fn, HL__GRAPH_INDEX_MASK);
        return NULL;
    }
    if (!hl__reserve((void **)&g->res, &g->res_cap, g->res_count + 1, sizeof(hl__gres))) {
        hl__graph_build_fail(g, HL_ERR_OUT_OF_MEMORY, "%s: resource table", fn);
        return NULL;
    }
    *index = g->res_count++;
    hl__gres *r = &g->res[*index];
    memset(r, 0, sizeof(*r));
    r->is_buffer = is_buffer;
    r->name = hl__graph_name(g, name, is_buffer ? "buffer" : "texture");
    r->slot = HL__GRAPH_NONE;
    return r;
}

hl_graph_texture hl_graph_create_texture(hl_graph *g, const hl_rhi_texture_desc *desc, const char *name) {
    if (!hl__graph_building(g, "hl_graph_create_texture")) return (hl_graph_texture){0};
    if (!desc) {
        hl__graph_build_fail(g, HL_ERR_VALIDATION, "hl_graph_create_texture: desc of '%s' is NULL", name ? name : "");
        return (hl_graph_texture){0};
    }
    uint32_t i;
    hl__gres *r = hl__graph_new_res(g, false, name, "hl_graph_create_texture", &i);
    if (!r) return (hl_graph_texture){0};
    r->origin = HL__RES_TRANSIENT;
    r->tdesc = *desc;
    r->tdesc.label = r->name;
    return (hl_graph_texture){hl__graph_make_id(g, i)};
}

hl_graph_buffer hl_graph_create_buffer(hl_graph *g, const hl_rhi_buffer_desc *desc, const char *name) {
    if (!hl__graph_building(g, "hl_graph_create_buffer")) return (hl_graph_buffer){0};
    if (!desc) {
        hl__graph_build_fail(g, HL_ERR_VALIDATION, "hl_graph_create_buffer: desc of '%s' is NULL", name ? name : "");
        return (hl_graph_buffer){0};
    }
    uint32_t i;
    hl__gres *r = hl__graph_new_res(g, true, name, "hl_graph_create_buffer", &i);
    if (!r) return (hl_graph_buffer){0};
    r->origin = HL__RES_TRANSIENT;
    r->bdesc = *desc;
    r->bdesc.label = r->name;
    return (hl_graph_buffer){hl__graph_make_id(g, i)};
}

hl_graph_texture hl_graph_import_texture(hl_graph *g, hl_rhi_texture tex, const char *name) {
    if (!hl__graph_building(g, "hl_graph_import_texture")) return (hl_graph_texture){0};
    const hl_rhi_texture_desc *d = hl_rhi_texture_get_desc(g->dev, tex);
    if (!d) {
        hl__graph_build_fail(g, HL_ERR_VALIDATION, "hl_graph_import_texture: '%s' is not a live texture of the device",
                             name ? name : "");
        return (hl_graph_texture){0};
    }
    uint32_t i;
    hl__gres *r = hl__graph_new_res(g, false, name, "hl_graph_import_texture", &i);
    if (!r) return (hl_graph_texture){0};
    r->origin = HL__RES_IMPORTED;
    r->imported_tex = tex;
    r->tdesc = *d;
    return (hl_graph_texture){hl__graph_make_id(g, i)};
}

hl_graph_buffer hl_graph_import_buffer(hl_graph *g, hl_rhi_buffer buf, const char *name) {
    if (!hl__graph_building(g, "hl_graph_import_buffer")) return (hl_graph_buffer){0};
    if (!buf.id) {
        hl__graph_build_fail(g, HL_ERR_VALIDATION, "hl_graph_import_buffer: '%s' has buffer id 0", name ? name : "");
        return (hl_graph_buffer){0};
    }
    uint32_t i;
    hl__gres *r = hl__graph_new_res(g, true, name, "hl_graph_import_buffer", &i);
    if (!r) return (hl_graph_buffer){0};
    r->origin = HL__RES_IMPORTED;
    r->imported_buf = buf;
    return (hl_graph_buffer){hl__graph_make_id(g, i)};
}

hl_graph_buffer hl_graph_import_buffer_usage(hl_graph *g, hl_rhi_buffer buf, uint64_t size, uint32_t usage,
                                             const char *name) {
    hl_graph_buffer h = hl_graph_import_buffer(g, buf, name);
    if (h.id) {
        hl__gres *r = &g->res[hl__graph_buffer_index(g, h)];
        r->bdesc.size = size;
        r->bdesc.usage = usage;
    }
    return h;
}

hl_graph_texture hl_graph_import_texture_deferred(hl_graph *g, const hl_rhi_texture_desc *desc,
                                                  hl_graph_texture_provider provider, void *user, const char *name) {
    if (!hl__graph_building(g, "hl_graph_import_texture_deferred")) return (hl_graph_texture){0};
    if (!desc || !provider) {
        hl__graph_build_fail(g, HL_ERR_VALIDATION, "hl_graph_import_texture_deferred: %s of '%s' is NULL",
                             desc ? "provider" : "desc", name ? name : "");
        return (hl_graph_texture){0};
    }
    uint32_t i;
    hl__gres *r = hl__graph_new_res(g, false, name, "hl_graph_import_texture_deferred", &i);
    if (!r) return (hl_graph_texture){0};
    r->origin = HL__RES_DEFERRED;
    r->tdesc = *desc;
    r->tdesc.label = r->name;
    r->provider = provider;
    r->provider_user = user;
    return (hl_graph_texture){hl__graph_make_id(g, i)};
}

static hl__gres *hl__graph_res_arg(hl_graph *g, uint32_t index, const char *fn, const char *what) {
    if (index == HL__GRAPH_NONE) {
        hl__graph_build_fail(g, HL_ERR_VALIDATION, "%s: %s is not a %s of this frame", fn, what, what);
        return NULL;
    }
    return &g->res[index];
}

void hl_graph_extract_texture(hl_graph *g, hl_graph_texture tex) {
    if (!hl__graph_building(g, "hl_graph_extract_texture")) return;
    hl__gres *r = hl__graph_res_arg(g, hl__graph_texture_index(g, tex), "hl_graph_extract_texture", "texture");
    if (!r) return;
    if (r->origin != HL__RES_TRANSIENT) {
        hl__graph_build_fail(g, HL_ERR_VALIDATION, "hl_graph_extract_texture: texture '%s' is imported, not transient",
                             r->name);
        return;
    }
    r->extracted = true;
    r->output = true;
}

void hl_graph_extract_buffer(hl_graph *g, hl_graph_buffer buf) {
    if (!hl__graph_building(g, "hl_graph_extract_buffer")) return;
    hl__gres *r = hl__graph_res_arg(g, hl__graph_buffer_index(g, buf), "hl_graph_extract_buffer", "buffer");
    if (!r) return;
    if (r->origin != HL__RES_TRANSIENT) {
        hl__graph_build_fail(g, HL_ERR_VALIDATION, "hl_graph_extract_buffer: buffer '%s' is imported, not transient",
                             r->name);
        return;
    }
    r->extracted = true;
    r->output = true;
}

hl_rhi_texture hl_graph_take_texture(hl_graph *g, hl_graph_texture tex) {
    uint32_t i = hl__graph_texture_index(g, tex);
    if (i == HL__GRAPH_NONE || g->state != HL__GRAPH_DONE) return (hl_rhi_texture){0};
    hl__gres *r = &g->res[i];
    if (!r->own_object || r->taken) return (hl_rhi_texture){0};
    r->taken = true;
    hl_rhi_texture_view_destroy(g->dev, r->view); /* the caller gets the texture only */
    r->view = (hl_rhi_texture_view){0};
    return r->tex;
}

hl_rhi_buffer hl_graph_take_buffer(hl_graph *g, hl_graph_buffer buf) {
    uint32_t i = hl__graph_buffer_index(g, buf);
    if (i == HL__GRAPH_NONE || g->state != HL__GRAPH_DONE) return (hl_rhi_buffer){0};
    hl__gres *r = &g->res[i];
    if (!r->own_object || r->taken) return (hl_rhi_buffer){0};
    r->taken = true;
    return r->buf;
}

void hl_graph_mark_output_texture(hl_graph *g, hl_graph_texture tex) {
    if (!hl__graph_building(g, "hl_graph_mark_output_texture")) return;
    hl__gres *r = hl__graph_res_arg(g, hl__graph_texture_index(g, tex), "hl_graph_mark_output_texture", "texture");
    if (r) r->output = true;
}

void hl_graph_mark_output_buffer(hl_graph *g, hl_graph_buffer buf) {
    if (!hl__graph_building(g, "hl_graph_mark_output_buffer")) return;
    hl__gres *r = hl__graph_res_arg(g, hl__graph_buffer_index(g, buf), "hl_graph_mark_output_buffer", "buffer");
    if (r) r->output = true;
}

const hl_rhi_texture_desc *hl_graph_texture_desc(const hl_graph *g, hl_graph_texture tex) {
    uint32_t i = hl__graph_texture_index(g, tex);
    return i == HL__GRAPH_NONE ? NULL : &g->res[i].tdesc;
}

const hl_rhi_buffer_desc *hl_graph_buffer_desc(const hl_graph *g, hl_graph_buffer buf) {
    uint32_t i = hl__graph_buffer_index(g, buf);
    return i == HL__GRAPH_NONE ? NULL : &g->res[i].bdesc;
}

/* ---- passes ----------------------------------------------------------------------------------- */
hl_graph_pass hl_graph_add_pass(hl_graph *g, const char *name, hl_graph_pass_kind kind, hl_graph_setup_fn setup,
                                hl_graph_prepare_fn prepare, hl_graph_execute_fn execute, void *user,
                                size_t params_size) {
    if (!hl__graph_building(g, "hl_graph_add_pass")) return (hl_graph_pass){0};
    const char *shown = name ? name : "";
    if (kind > HL_GRAPH_PASS_COPY) {
        hl__graph_build_fail(g, HL_ERR_VALIDATION, "hl_graph_add_pass: pass '%s' has an invalid kind %d", shown,
                             (int)kind);
        return (hl_graph_pass){0};
    }
    if (!execute) {
        hl__graph_build_fail(g, HL_ERR_VALIDATION, "hl_graph_add_pass: pass '%s' has no execute callback", shown);
        return (hl_graph_pass){0};
    }
    if (g->passes_count >= HL__GRAPH_INDEX_MASK ||
        !hl__reserve((void **)&g->passes, &g->passes_cap, g->passes_count + 1, sizeof(hl__gpass))) {
        hl__graph_build_fail(g, HL_ERR_OUT_OF_MEMORY, "hl_graph_add_pass: pass table (pass '%s')", shown);
        return (hl_graph_pass){0};
    }
    uint32_t index = g->passes_count;
    hl__gpass *p = &g->passes[index];
    memset(p, 0, sizeof(*p));
    p->name = hl__graph_name(g, name, "pass");
    p->kind = kind;
    p->prepare = prepare;
    p->execute = execute;
    p->user = user;
    p->position = HL__GRAPH_NONE;
    p->first_access = g->acc_count;
    if (params_size) {
        p->params = hl__graph_arena_alloc(g, params_size);
        if (!p->params) {
            hl__graph_build_fail(g, HL_ERR_OUT_OF_MEMORY, "hl_graph_add_pass: %zu parameter bytes of pass '%s'",
                                 params_size, p->name);
            return (hl_graph_pass){0};
        }
    }
    g->passes_count++;
    if (setup) {
        hl_graph_pass_builder b = {g, index};
        hl_result r = setup(&b, g->passes[index].params, user);
        if (r) {
            hl__graph_build_fail(g, r, "setup of pass '%s' failed: %s", g->passes[index].name, hl_last_error());
            return (hl_graph_pass){0};
        }
    }
    p = &g->passes[index];
    p->access_count = g->acc_count - p->first_access;
    return hl__graph_pass_handle(g, index);
}

void hl_graph_add_dependency(hl_graph *g, hl_graph_pass before, hl_graph_pass after) {
    if (!hl__graph_building(g, "hl_graph_add_dependency")) return;
    uint32_t b = hl__graph_pass_index(g, before), a = hl__graph_pass_index(g, after);
    if (b == HL__GRAPH_NONE || a == HL__GRAPH_NONE) {
        hl__graph_build_fail(g, HL_ERR_VALIDATION, "hl_graph_add_dependency: %s is not a pass of this frame",
                             b == HL__GRAPH_NONE ? "before" : "after");
        return;
    }
    if (!hl__reserve((void **)&g->deps, &g->deps_cap, g->deps_count + 1, sizeof(hl__gdep))) {
        hl__graph_build_fail(g, HL_ERR_OUT_OF_MEMORY, "hl_graph_add_dependency: dependency table");
        return;
    }
    g->deps[g->deps_count++] = (hl__gdep){b, a};
}

/* ---- declarations -------------------------------------------------------------------------------- */
hl_graph_pass hl_graph_builder_pass(const hl_graph_pass_builder *b) {
    return b ? hl__graph_pass_handle(b->g, b->pass) : (hl_graph_pass){0};
}

hl_graph *hl_graph_builder_graph(hl_graph_pass_builder *b) { return b ? b->g : NULL; }

/* Appends one access of the builder's pass; NULL after recording a build error. */
static hl__gaccess *hl__graph_declare(hl_graph_pass_builder *b, uint32_t res, bool want_buffer, hl__gacc_kind kind,
                                      const char *fn) {
    if (!b || !b->g) {
        hl__fail(HL_ERR_VALIDATION, "%s: builder is NULL", fn);
        return NULL;
    }
    hl_graph *g = b->g;
    const char *pass = g->passes[b->pass].name;
    if (res == HL__GRAPH_NONE) {
        hl__graph_build_fail(g, HL_ERR_VALIDATION, "%s: pass '%s' names a %s that is not one of this frame", fn, pass,
                             want_buffer ? "buffer" : "texture");
        return NULL;
    }
    if (!hl__reserve((void **)&g->acc, &g->acc_cap, g->acc_count + 1, sizeof(hl__gaccess))) {
        hl__graph_build_fail(g, HL_ERR_OUT_OF_MEMORY, "%s: access table (pass '%s')", fn, pass);
        return NULL;
    }
    hl__gaccess *a = &g->acc[g->acc_count++];
    memset(a, 0, sizeof(*a));
    a->pass = b->pass;
    a->res = res;
    a->kind = (uint8_t)kind;
    a->pair = HL__GRAPH_NONE;
    a->next_reader = HL__GRAPH_NONE;
    switch (kind) {
    case HL__ACC_SAMPLED:
    case HL__ACC_COPY_SRC:
    case HL__ACC_STORAGE_READ:
    case HL__ACC_UNIFORM:
    case HL__ACC_VERTEX:
    case HL__ACC_INDEX:
    case HL__ACC_INDIRECT: a->reads = 1; break;
    case HL__ACC_STORAGE_READ_WRITE:
    case HL__ACC_MIPS: a->reads = a->writes = 1; break;
    default: a->writes = 1; break; /* colour/depth refined by the caller */
    }
    return a;
}

static hl_result hl__graph_decl_result(hl_graph_pass_builder *b, const hl__gaccess *a) {
    return a ? HL_OK : (b && b->g && b->g->build_result ? b->g->build_result : HL_ERR_VALIDATION);
}

#define HL__TEX(b, t) ((b) && (b)->g ? hl__graph_texture_index((b)->g, (t)) : HL__GRAPH_NONE)
#define HL__BUF(b, x) ((b) && (b)->g ? hl__graph_buffer_index((b)->g, (x)) : HL__GRAPH_NONE)

hl_result hl_graph_read_texture(hl_graph_pass_builder *b, hl_graph_texture tex) {
    return hl__graph_decl_result(b, hl__graph_declare(b, HL__TEX(b, tex), false, HL__ACC_SAMPLED, "hl_graph_read_texture"));
}

hl_result hl_graph_color_attachment(hl_graph_pass_builder *b, uint32_t slot, hl_graph_texture tex,
                                    const hl_graph_color_attachment_desc *desc) {
    if (b && b->g && slot >= HL_RHI_MAX_COLOR_ATTACHMENTS)
        return hl__graph_build_fail(b->g, HL_ERR_VALIDATION, "hl_graph_color_attachment: pass '%s' slot %u >= %u",
                                    b->g->passes[b->pass].name, slot, HL_RHI_MAX_COLOR_ATTACHMENTS);
    hl__gaccess *a = hl__graph_declare(b, HL__TEX(b, tex), false, HL__ACC_COLOR, "hl_graph_color_attachment");
    if (!a) return hl__graph_decl_result(b, a);
    a->slot = (uint8_t)slot;
    if (desc) a->u.color = *desc;
    a->reads = a->u.color.load_op == HL_RHI_LOAD_LOAD;
    a->writes = 1;
    a->discard = a->u.color.store_op == HL_RHI_STORE_DISCARD;
    return HL_OK;
}

hl_result hl_graph_depth_attachment(hl_graph_pass_builder *b, hl_graph_texture tex, const hl_graph_depth_attachment_desc *desc) {
    hl__gaccess *a = hl__graph_declare(b, HL__TEX(b, tex), false, HL__ACC_DEPTH, "hl_graph_depth_attachment");
    if (!a) return hl__graph_decl_result(b, a);
    if (desc) a->u.depth = *desc;
    else a->u.depth.depth_clear_value = 1.0f;
    const hl_graph_depth_attachment_desc *d = &a->u.depth;
    bool ro = d->depth_read_only;
    const hl__gres *r = &b->g->res[a->res];
    const hl_rhi_format_info *fi = hl_rhi_format_get_info(r->tdesc.format);
    bool stencil = fi && fi->has_stencil;
    if (stencil) ro = ro && d->stencil_read_only;
    a->reads = ro || d->depth_load_op == HL_RHI_LOAD_LOAD || (stencil && d->stencil_load_op == HL_RHI_LOAD_LOAD);
    a->writes = !ro;
    a->discard = !ro && d->depth_store_op == HL_RHI_STORE_DISCARD;
    return HL_OK;
}

hl_result hl_graph_resolve_attachment(hl_graph_pass_builder *b, uint32_t slot, hl_graph_texture tex) {
    if (b && b->g && slot >= HL_RHI_MAX_COLOR_ATTACHMENTS)
        return hl__graph_build_fail(b->g, HL_ERR_VALIDATION, "hl_graph_resolve_attachment: pass '%s' slot %u >= %u",
                                    b->g->passes[b->pass].name, slot, HL_RHI_MAX_COLOR_ATTACHMENTS);
    hl__gaccess *a = hl__graph_declare(b, HL__TEX(b, tex), false, HL__ACC_RESOLVE, "hl_graph_resolve_attachment");
    if (a) a->slot = (uint8_t)slot;
    return hl__graph_decl_result(b, a);
}

static hl_result hl__graph_copy(hl_graph_pass_builder *b, uint32_t src, bool src_buf, uint32_t dst, bool dst_buf,
                                const char *fn) {
    hl__gaccess *s = hl__graph_declare(b, src, src_buf, HL__ACC_COPY_SRC, fn);
    if (!s) return hl__graph_decl_result(b, s);
    uint32_t si = b->g->acc_count - 1;
    hl__gaccess *d = hl__graph_declare(b, dst, dst_buf, HL__ACC_COPY_DST, fn);
    if (!d) {
        b->g->acc_count--; /* drop the unpaired source */
        return hl__graph_decl_result(b, d);
    }
    d->pair = si;
    b->g->acc[si].pair = b->g->acc_count - 1;
    return HL_OK;
}

hl_result hl_graph_copy_texture(hl_graph_pass_builder *b, hl_graph_texture src, hl_graph_texture dst) {
    return hl__graph_copy(b, HL__TEX(b, src), false, HL__TEX(b, dst), false, "hl_graph_copy_texture");
}
hl_result hl_graph_copy_buffer(hl_graph_pass_builder *b, hl_graph_buffer src, hl_graph_buffer dst) {
    return hl__graph_copy(b, HL__BUF(b, src), true, HL__BUF(b, dst), true, "hl_graph_copy_buffer");
}
hl_result hl_graph_copy_buffer_part(hl_graph_pass_builder *b, hl_graph_buffer src, hl_graph_buffer dst) {
    hl_result res = hl__graph_copy(b, HL__BUF(b, src), true, HL__BUF(b, dst), true, "hl_graph_copy_buffer_part");
    if (!res) b->g->acc[b->g->acc_count - 1].reads = 1; /* the rest of dst is kept */
    return res;
}
hl_result hl_graph_copy_texture_to_buffer(hl_graph_pass_builder *b, hl_graph_texture src, hl_graph_buffer dst) {
    return hl__graph_copy(b, HL__TEX(b, src), false, HL__BUF(b, dst), true, "hl_graph_copy_texture_to_buffer");
}
hl_result hl_graph_copy_buffer_to_texture(hl_graph_pass_builder *b, hl_graph_buffer src, hl_graph_texture dst) {
    return hl__graph_copy(b, HL__BUF(b, src), true, HL__TEX(b, dst), false, "hl_graph_copy_buffer_to_texture");
}

#define HL__SIMPLE_DECL(fn, handle_type, index_macro, is_buf, kind)                                            \
    hl_result fn(hl_graph_pass_builder *b, handle_type h) {                                                  \
        return hl__graph_decl_result(b, hl__graph_declare(b, index_macro(b, h), is_buf, kind, #fn));          \
    }

HL__SIMPLE_DECL(hl_graph_storage_read, hl_graph_buffer, HL__BUF, true, HL__ACC_STORAGE_READ)
HL__SIMPLE_DECL(hl_graph_storage_write, hl_graph_buffer, HL__BUF, true, HL__ACC_STORAGE_WRITE)
HL__SIMPLE_DECL(hl_graph_storage_read_write, hl_graph_buffer, HL__BUF, true, HL__ACC_STORAGE_READ_WRITE)
HL__SIMPLE_DECL(hl_graph_storage_write_texture, hl_graph_texture, HL__TEX, false, HL__ACC_STORAGE_TEXTURE_WRITE)
HL__SIMPLE_DECL(hl_graph_uniform_read, hl_graph_buffer, HL__BUF, true, HL__ACC_UNIFORM)
HL__SIMPLE_DECL(hl_graph_vertex_read, hl_graph_buffer, HL__BUF, true, HL__ACC_VERTEX)
HL__SIMPLE_DECL(hl_graph_index_read, hl_graph_buffer, HL__BUF, true, HL__ACC_INDEX)
HL__SIMPLE_DECL(hl_graph_indirect_read, hl_graph_buffer, HL__BUF, true, HL__ACC_INDIRECT)
HL__SIMPLE_DECL(hl_graph_clear_buffer, hl_graph_buffer, HL__BUF, true, HL__ACC_CLEAR)
HL__SIMPLE_DECL(hl_graph_generate_mips, hl_graph_texture, HL__TEX, false, HL__ACC_MIPS)

hl_result hl_graph_clear_texture(hl_graph_pass_builder *b, hl_graph_texture tex, const float rgba_or_depth[4]) {
    hl__gaccess *a = hl__graph_declare(b, HL__TEX(b, tex), false, HL__ACC_CLEAR, "hl_graph_clear_texture");
    if (a && rgba_or_depth) memcpy(a->u.clear, rgba_or_depth, sizeof(a->u.clear));
    return hl__graph_decl_result(b, a);
}

hl_result hl_graph_depends_on(hl_graph_pass_builder *b, hl_graph_pass before) {
    if (!b || !b->g) return hl__fail(HL_ERR_VALIDATION, "hl_graph_depends_on: builder is NULL");
    hl_graph_add_dependency(b->g, before, hl__graph_pass_handle(b->g, b->pass));
    return b->g->build_result;
}

hl_result hl_graph_side_effect(hl_graph_pass_builder *b) {
    if (!b || !b->g) return hl__fail(HL_ERR_VALIDATION, "hl_graph_side_effect: builder is NULL");
    b->g->passes[b->pass].side_effect = true;
    return HL_OK;
}

hl_result hl_graph_output_texture(hl_graph_pass_builder *b, hl_graph_texture tex) {
    if (!b || !b->g) return hl__fail(HL_ERR_VALIDATION, "hl_graph_output_texture: builder is NULL");
    hl_graph_mark_output_texture(b->g, tex);
    return b->g->build_result;
}

hl_result hl_graph_output_buffer(hl_graph_pass_builder *b, hl_graph_buffer buf) {
    if (!b || !b->g) return hl__fail(HL_ERR_VALIDATION, "hl_graph_output_buffer: builder is NULL");
    hl_graph_mark_output_buffer(b->g, buf);
    return b->g->build_result;
}

hl_result hl_graph_extract_texture_in(hl_graph_pass_builder *b, hl_graph_texture tex) {
    if (!b || !b->g) return hl__fail(HL_ERR_VALIDATION, "hl_graph_extract_texture_in: builder is NULL");
    hl_graph_extract_texture(b->g, tex);
    return b->g->build_result;
}

hl_result hl_graph_extract_buffer_in(hl_graph_pass_builder *b, hl_graph_buffer buf) {
    if (!b || !b->g) return hl__fail(HL_ERR_VALIDATION, "hl_graph_extract_buffer_in: builder is NULL");
    hl_graph_extract_buffer(b->g, buf);
    return b->g->build_result;
}

/* ---- uploads and commit records ------------------------------------------------------------------- */
hl_result hl_graph_commit_on_submit(hl_graph *g, uint64_t *slot, uint64_t value) {
    if (!hl__graph_building(g, "hl_graph_commit_on_submit")) return g ? g->build_result : HL_ERR_VALIDATION;
    if (!slot) return hl__graph_build_fail(g, HL_ERR_VALIDATION, "hl_graph_commit_on_submit: slot is NULL");
    if (!hl__reserve((void **)&g->commits, &g->commits_cap, g->commits_count + 1, sizeof(hl__gcommit)))
        return hl__graph_build_fail(g, HL_ERR_OUT_OF_MEMORY, "hl_graph_commit_on_submit: commit table");
    g->commits[g->commits_count++] = (hl__gcommit){slot, value};
    return HL_OK;
}

hl_result hl_graph_commits_on_submit(hl_graph *g, const hl_graph_commit *commits, uint32_t count) {
    if (!hl__graph_building(g, "hl_graph_commits_on_submit")) return g ? g->build_result : HL_ERR_VALIDATION;
    if (!count) return HL_OK;
    if (!commits) return hl__graph_build_fail(g, HL_ERR_VALIDATION, "hl_graph_commits_on_submit: commits is NULL");
    for (uint32_t i = 0; i < count; i++)
        if (!commits[i].slot)
            return hl__graph_build_fail(g, HL_ERR_VALIDATION, "hl_graph_commits_on_submit: commit %u's slot is NULL", i);
    if (count > UINT32_MAX - g->commits_count ||
        !hl__reserve((void **)&g->commits, &g->commits_cap, g->commits_count + count, sizeof(hl__gcommit)))
        return hl__graph_build_fail(g, HL_ERR_OUT_OF_MEMORY, "hl_graph_commits_on_submit: commit table");
    memcpy(g->commits + g->commits_count, commits, (size_t)count * sizeof *commits);
    g->commits_count += count;
    return HL_OK;
}

/* A new upload of size bytes from data: a copy in the frame arena, or (copy false) data itself. */
static hl__gupload *hl__graph_new_upload(hl_graph *g, const void *data, uint64_t size, bool copy, const char *fn) {
    if (!data || !size) {
        hl__graph_build_fail(g, HL_ERR_VALIDATION, "%s: %s", fn, data ? "size is 0" : "data is NULL");
        return NULL;
    }
    if (!hl__reserve((void **)&g->uploads, &g->uploads_cap, g->uploads_count + 1, sizeof(hl__gupload))) {
        hl__graph_build_fail(g, HL_ERR_OUT_OF_MEMORY, "%s: upload table", fn);
        return NULL;
    }
    void *kept = copy ? hl__graph_arena_alloc(g, (size_t)size) : (void *)(uintptr_t)data;
    if (!kept) {
        hl__graph_build_fail(g, HL_ERR_OUT_OF_MEMORY, "%s: %llu bytes in the frame arena", fn, (unsigned long long)size);
        return NULL;
    }
    if (copy) memcpy(kept, data, (size_t)size);
    hl__gupload *u = &g->uploads[g->uploads_count++];
    memset(u, 0, sizeof(*u));
    u->data = kept;
    u->size = size;
    return u;
}

static hl_result hl__graph_upload_buffer(hl_graph *g, hl_rhi_buffer buf, uint64_t offset, const void *data, uint64_t size,
                                         uint64_t *delivered, uint64_t revision, bool copy, const char *fn) {
    if (!hl__graph_building(g, fn)) return g ? g->build_result : HL_ERR_VALIDATION;
    if (!buf.id) return hl__graph_build_fail(g, HL_ERR_VALIDATION, "%s: buf is id 0", fn);
    if ((offset | size) & 3u)
        return hl__graph_build_fail(g, HL_ERR_VALIDATION, "%s: offset %llu and size %llu must be multiples of 4", fn,
                                    (unsigned long long)offset, (unsigned long long)size);
    hl__gupload *u = hl__graph_new_upload(g, data, size, copy, fn);
    if (!u) return g->build_result;
    u->buf = buf;
    u->offset = offset;
    return delivered ? hl_graph_commit_on_submit(g, delivered, revision) : HL_OK;
}

hl_result hl_graph_upload_buffer(hl_graph *g, hl_rhi_buffer buf, uint64_t offset, const void *data, uint64_t size,
                                 uint64_t *delivered, uint64_t revision) {
    return hl__graph_upload_buffer(g, buf, offset, data, size, delivered, revision, true, "hl_graph_upload_buffer");
}

hl_result hl_graph_upload_buffer_kept(hl_graph *g, hl_rhi_buffer buf, uint64_t offset, const void *data, uint64_t size,
                                      uint64_t *delivered, uint64_t revision) {
    return hl__graph_upload_buffer(g, buf, offset, data, size, delivered, revision, false, "hl_graph_upload_buffer_kept");
}

hl_result hl_graph_upload_texture(hl_graph *g, hl_rhi_texture tex, const hl_rhi_texture_region *region,
                                  const void *data, uint32_t row_pitch, uint32_t data_size, uint64_t *delivered,
                                  uint64_t revision) {
    if (!hl__graph_building(g, "hl_graph_upload_texture")) return g ? g->build_result : HL_ERR_VALIDATION;
    if (!hl_rhi_texture_get_desc(g->dev, tex))
        return hl__graph_build_fail(g, HL_ERR_VALIDATION, "hl_graph_upload_texture: tex is not a live texture");
    hl__gupload *u = hl__graph_new_upload(g, data, data_size, true, "hl_graph_upload_texture");
    if (!u) return g->build_result;
    u->is_texture = true;
    u->tex = tex;
    if (region) u->region = *region;
    u->row_pitch = row_pitch;
    return delivered ? hl_graph_commit_on_submit(g, delivered, revision) : HL_OK;
}
