/* GPU mirrors of scene data: geometry buffers, textures, material blocks and bind groups, and
 * per-mesh object-block slots. Each mirror keeps the revision it delivered; uploads join the
 * frame's graph upload batch and the delivered revision commits only with a valid submission.
 * Textures upload at once (outside any frame) and generate their mips in a small frame of
 * their own: cold-start preparation is separate GPU work. Mirrors unused for a while are
 * released (hl__render_evict). */
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <string.h>

#include "render_internal.h"

/* ---- pointer map ------------------------------------------------------------------------------- */
static uint32_t ptr_hash(const void *p) {
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return (uint32_t)x;
}

uint32_t hl__ptr_map_get(const hl__ptr_map *m, const void *key) {
    if (!m->capacity) return UINT32_MAX;
    uint32_t mask = m->capacity - 1;
    for (uint32_t i = ptr_hash(key) & mask;; i = (i + 1) & mask) {
        if (m->keys[i] == key) return m->values[i];
        if (!m->keys[i]) return UINT32_MAX;
    }
}

static bool map_grow(hl__ptr_map *m) {
    uint32_t cap = m->capacity ? m->capacity * 2 : 64;
    const void **keys = hl__calloc(cap, sizeof *keys);
    uint32_t *values = hl__calloc(cap, sizeof *values);
    if (!keys || !values) {
        hl__free(keys);
        hl__free(values);
        hl__fail(HL_ERR_OUT_OF_MEMORY, "renderer: out of memory growing a cache map");
        return false;
    }
    for (uint32_t i = 0; i < m->capacity; i++) {
        if (!m->keys[i]) continue;
        uint32_t j = ptr_hash(m->keys[i]) & (cap - 1);
        while (keys[j]) j = (j + 1) & (cap - 1);
        keys[j] = m->keys[i];
        values[j] = m->values[i];
    }
    hl__free(m->keys);
    hl__free(m->values);
    m->keys = keys;
    m->values = values;
    m->capacity = cap;
    return true;
}

bool hl__ptr_map_put(hl__ptr_map *m, const void *key, uint32_t value) {
    if ((m->count + 1) * 2 > m->capacity && !map_grow(m)) return false;
    uint32_t mask = m->capacity - 1;
    uint32_t i = ptr_hash(key) & mask;
    while (m->keys[i] && m->keys[i] != key) i = (i + 1) & mask;
    if (!m->keys[i]) m->count++;
    m->keys[i] = key;
    m->values[i] = value;
    return true;
}

void hl__ptr_map_remove(hl__ptr_map *m, const void *key) {
    if (!m->capacity) return;
    uint32_t mask = m->capacity - 1;
    uint32_t i = ptr_hash(key) & mask;
    while (m->keys[i] && m->keys[i] != key) i = (i + 1) & mask;
    if (!m->keys[i]) return;
    m->keys[i] = NULL;
    m->count--;
    /* re-insert the rest of the cluster (backward-shift deletion by re-insertion) */
    for (uint32_t j = (i + 1) & mask; m->keys[j]; j = (j + 1) & mask) {
        const void *k = m->keys[j];
        uint32_t v = m->values[j];
        m->keys[j] = NULL;
        m->count--;
        hl__ptr_map_put(m, k, v);
    }
}

void hl__ptr_map_clear(hl__ptr_map *m) {
    if (m->capacity) memset(m->keys, 0, m->capacity * sizeof *m->keys);
    m->count = 0;
}

void hl__ptr_map_free(hl__ptr_map *m) {
    hl__free(m->keys);
    hl__free(m->values);
    memset(m, 0, sizeof *m);
}

/* ---- records: one allocation each, found through pointer arrays ------------------------------ */
void *hl__record_place(void ***array, uint32_t *count, uint32_t *capacity, uint32_t *hint, void *rec, uint32_t *index) {
    uint32_t i;
    for (i = *hint; i < *count && (*array)[i]; i++) {
    }
    if (i == *count) {
        if (!hl__reserve((void **)array, capacity, *count + 1, sizeof(void *))) return NULL;
        (*array)[i] = NULL;
        (*count)++;
    }
    (*array)[i] = rec;
    *index = i;
    *hint = i + 1;
    return rec;
}

void *hl__record_alloc(void ***array, uint32_t *count, uint32_t *capacity, uint32_t *hint, size_t size, uint32_t *index) {
    void *rec = hl__calloc(1, size);
    if (!rec) {
        hl__fail(HL_ERR_OUT_OF_MEMORY, "renderer: out of memory for a cache record");
        return NULL;
    }
    if (!hl__record_place(array, count, capacity, hint, rec, index)) {
        hl__free(rec);
        return NULL;
    }
    return rec;
}

void hl__record_clear(void **array, uint32_t i, uint32_t *hint) {
    hl__free(array[i]);
    array[i] = NULL;
    if (i < *hint) *hint = i;
}

/* ---- shared objects ------------------------------------------------------------------------------ */
static hl_result make_buffer(hl_renderer *r, uint64_t size, uint32_t usage, const char *label, hl_rhi_buffer *out) {
    hl_rhi_buffer_desc d = {0};
    d.size = (size + 3u) & ~(uint64_t)3u;
    d.usage = usage | HL_RHI_BUFFER_USAGE_COPY_DST;
    d.label = label;
    return hl_rhi_buffer_create(r->dev, &d, out);
}

hl_result hl__render_resources_init(hl_renderer *r) {
    hl_result res = make_buffer(r, (uint64_t)HL__FRAME_STRIDE * HL__MAX_VIEWS, HL_RHI_BUFFER_USAGE_UNIFORM, "frame",
                                &r->frame_ubo);
    if (!res)
        res = make_buffer(r, (uint64_t)HL__SHADOW_STRIDE * HL_RENDER_MAX_SHADOW_TILES * HL__MAX_VIEWS,
                          HL_RHI_BUFFER_USAGE_UNIFORM, "shadow", &r->shadow_ubo);
    r->object_capacity = 1024;
    if (!res)
        res = make_buffer(r, (uint64_t)HL__OBJECT_STRIDE * r->object_capacity, HL_RHI_BUFFER_USAGE_UNIFORM, "objects",
                          &r->object_ubo);
    r->instance_capacity = 1024;
    if (!res)
        res = make_buffer(r, (uint64_t)64 * r->instance_capacity, HL_RHI_BUFFER_USAGE_VERTEX, "instances",
                          &r->instance_vbo);
    /* the shadow atlas: one depth texture, tiles per light */
    hl_rhi_texture_desc td = {0};
    td.format = HL_RHI_FORMAT_DEPTH24_PLUS;
    td.width = td.height = r->desc.shadow_atlas_size;
    td.usage = HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT | HL_RHI_TEXTURE_USAGE_SAMPLED;
    td.label = "shadow atlas";
    if (!res) res = hl_rhi_texture_create(r->dev, &td, &r->atlas);
    if (!res) res = hl_rhi_texture_view_create(r->dev, r->atlas, NULL, &r->atlas_view);
    hl_rhi_sampler_desc sd = {0};
    sd.mag_filter = sd.min_filter = HL_RHI_FILTER_LINEAR;
    sd.compare = HL_RHI_COMPARE_LESS_EQUAL;
    if (!res) res = hl_rhi_sampler_create(r->dev, &sd, &r->atlas_sampler);
    sd = (hl_rhi_sampler_desc){0};
    sd.mag_filter = sd.min_filter = sd.mipmap_filter = HL_RHI_FILTER_LINEAR; /* graph textures with mips */
    if (!res) res = hl_rhi_sampler_create(r->dev, &sd, &r->default_sampler);
    return res;
}

void hl__gpu_texture_release(hl_renderer *r, uint32_t i) {
    hl__gpu_texture *t = r->textures[i];
    if (!t->target) hl_rhi_texture_destroy(r->dev, t->tex);
    hl_rhi_texture_view_destroy(r->dev, t->view);
    hl_rhi_sampler_destroy(r->dev, t->sampler);
    hl__ptr_map_remove(&r->texture_map, t->texture);
    hl_texture_release(t->texture);
    hl__record_clear((void **)r->textures, i, &r->texture_hint);
}

static void gpu_material_release(hl_renderer *r, uint32_t i) {
    hl__gpu_material *m = r->materials[i];
    hl__owned_group_destroy(r, &m->group);
    if (m->program) m->program->users--;
    hl_rhi_buffer_destroy(r->dev, m->ubo);
    hl__ptr_map_remove(&r->material_map, m->material);
    hl_material_release(m->material);
    hl__record_clear((void **)r->materials, i, &r->material_hint);
}

static void gpu_geometry_release(hl_renderer *r, uint32_t i) {
    hl__gpu_geometry *g = r->geometries[i];
    hl_rhi_buffer_destroy(r->dev, g->vbo);
    hl_rhi_buffer_destroy(r->dev, g->ibo);
    hl__ptr_map_remove(&r->geometry_map, g->geometry);
    hl_geometry_release(g->geometry);
    hl__record_clear((void **)r->geometries, i, &r->geometry_hint);
}

void hl__render_resources_free(hl_renderer *r) {
    for (uint32_t i = 0; i < r->geometry_count; i++)
        if (r->geometries[i]) gpu_geometry_release(r, i);
    for (uint32_t i = 0; i < r->material_count; i++)
        if (r->materials[i]) gpu_material_release(r, i);
    for (uint32_t i = 0; i < r->texture_count; i++)
        if (r->textures[i]) hl__gpu_texture_release(r, i);
    for (uint32_t i = 0; i < r->mesh_count; i++) {
        if (r->meshes[i]) hl__free(r->meshes[i]->prepared);
        hl__free(r->meshes[i]);
    }
    for (uint32_t i = 0; i < r->spare_mesh_count; i++) {
        hl__free(r->spare_meshes[i]->prepared);
        hl__free(r->spare_meshes[i]);
    }
    hl__free(r->spare_meshes);
    r->spare_meshes = NULL;
    r->spare_mesh_count = r->spare_mesh_capacity = 0;
    hl__free(r->geometries);
    hl__free(r->materials);
    hl__free(r->textures);
    hl__free(r->meshes);
    hl__free(r->mesh_last);
    r->mesh_last = NULL;
    r->mesh_last_capacity = 0;
    hl__free(r->free_object_slots);
    hl__free(r->free_skin_slots);
    hl__ptr_map_free(&r->geometry_map);
    hl__ptr_map_free(&r->material_map);
    hl__ptr_map_free(&r->texture_map);
    hl__ptr_map_free(&r->mesh_map);
    hl__owned_group_destroy(r, &r->frame_group);
    hl__owned_group_destroy(r, &r->object_group);
    hl__owned_group_destroy(r, &r->shadow_frame_group);
    hl__owned_group_destroy(r, &r->shadow_object_group);
    hl__owned_group_destroy(r, &r->skin_group);
    hl__owned_group_destroy(r, &r->shadow_skin_group);
    hl__owned_group_destroy(r, &r->atlas_group);
    hl__owned_group_destroy(r, &r->env_group);
    hl__owned_group_destroy(r, &r->env_atlas_group);
    hl__owned_group_destroy(r, &r->fs_env_atlas_group);
    hl__render_env_free(r);
    hl__owned_group_destroy(r, &r->fs_frame_group);
    hl__owned_group_destroy(r, &r->fs_atlas_group);
    hl__owned_group_destroy(r, &r->empty_group);
    hl_rhi_buffer_destroy(r->dev, r->frame_ubo);
    hl_rhi_buffer_destroy(r->dev, r->object_ubo);
    hl_rhi_buffer_destroy(r->dev, r->skin_ubo);
    hl_rhi_buffer_destroy(r->dev, r->shadow_ubo);
    hl_rhi_buffer_destroy(r->dev, r->instance_vbo);
    if (r->fs_params.id) hl_rhi_buffer_destroy(r->dev, r->fs_params);
    hl_rhi_sampler_destroy(r->dev, r->atlas_sampler);
    hl_rhi_sampler_destroy(r->dev, r->default_sampler);
    hl_rhi_texture_view_destroy(r->dev, r->atlas_view);
    hl_rhi_texture_destroy(r->dev, r->atlas);
    /* empty again, as at creation (a release of the GPU objects inits them again later) */
    r->geometries = NULL;
    r->materials = NULL;
    r->textures = NULL;
    r->meshes = NULL;
    r->free_object_slots = r->free_skin_slots = NULL;
    r->geometry_count = r->geometry_capacity = r->geometry_hint = 0;
    r->material_count = r->material_capacity = r->material_hint = 0;
    r->texture_count = r->texture_capacity = r->texture_hint = 0;
    r->mesh_count = r->mesh_capacity = r->mesh_hint = 0;
    r->free_object_count = r->free_object_capacity = r->object_slots_used = 0;
    r->free_skin_count = r->free_skin_capacity = r->skin_slots_used = r->skin_capacity = 0;
    r->object_capacity = r->instance_capacity = 0;
    r->fs_params_capacity = r->fs_params_used = 0;
    r->frame_ubo = r->object_ubo = r->skin_ubo = r->shadow_ubo = r->instance_vbo = r->fs_params = (hl_rhi_buffer){0};
    r->atlas_sampler = r->default_sampler = (hl_rhi_sampler){0};
    r->atlas_view = (hl_rhi_texture_view){0};
    r->atlas = (hl_rhi_texture){0};
    hl__owned_group *groups[] = {&r->frame_group, &r->object_group, &r->shadow_frame_group, &r->shadow_object_group,
                                 &r->skin_group, &r->shadow_skin_group, &r->atlas_group, &r->env_group,
                                 &r->env_atlas_group, &r->fs_env_atlas_group, &r->fs_frame_group, &r->fs_atlas_group,
                                 &r->empty_group};
    for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++) memset(groups[i], 0, sizeof *groups[i]);
}

/* ---- geometry ------------------------------------------------------------------------------------ */
hl_result hl__gpu_geometry_get(hl_renderer *r, hl_geometry *geo, hl__gpu_geometry **out) {
    uint32_t i = hl__ptr_map_get(&r->geometry_map, geo);
    hl__gpu_geometry *g;
    const hl_geometry_layout *l = hl_geometry_get_layout(geo);
    if (i == UINT32_MAX) {
        r->stats.cache_misses++;
        g = hl__record_alloc((void ***)&r->geometries, &r->geometry_count, &r->geometry_capacity, &r->geometry_hint, sizeof *g, &i);
        if (!g) return HL_ERR_OUT_OF_MEMORY;
        uint32_t vusage = HL_RHI_BUFFER_USAGE_VERTEX;
        hl_result res = make_buffer(r, l->vertex_bytes, vusage, hl_geometry_label(geo), &g->vbo);
        if (!res && l->index_count)
            res = make_buffer(r, l->index_bytes, HL_RHI_BUFFER_USAGE_INDEX, hl_geometry_label(geo), &g->ibo);
        if (res || !hl__ptr_map_put(&r->geometry_map, geo, i)) {
            hl_rhi_buffer_destroy(r->dev, g->vbo);
            hl_rhi_buffer_destroy(r->dev, g->ibo);
            hl__record_clear((void **)r->geometries, i, &r->geometry_hint);
            return res ? res : HL_ERR_OUT_OF_MEMORY;
        }
        hl_geometry_retain(geo);
        g->geometry = geo;
        g->vertex_bytes = l->vertex_bytes;
        g->index_bytes = l->index_bytes;
    } else {
        r->stats.cache_hits++;
        g = r->geometries[i];
    }
    g->last_frame = r->frame_serial;
    /* uploads: only what changed since the delivered revision */
    hl_dirty_range range;
    uint64_t rev = hl_geometry_revision(geo);
    hl_upload_kind k = hl_geometry_vertex_upload(geo, g->vbo_revision, &range);
    const uint8_t *vdata = hl_geometry_vertex_data(geo);
    if (k == HL_UPLOAD_FULL) range = (hl_dirty_range){0, l->vertex_bytes};
    if (k != HL_UPLOAD_NONE) {
        uint32_t off = range.offset & ~3u, end = (range.offset + range.size + 3u) & ~3u;
        if (end > l->vertex_bytes) end = l->vertex_bytes & ~3u;
        hl_result res = hl_graph_upload_buffer(r->graph, g->vbo, off, vdata + off, end - off, &g->vbo_revision, rev);
        if (res) return res;
        r->stats.upload_bytes += end - off;
    }
    if (l->index_count) {
        k = hl_geometry_index_upload(geo, g->ibo_revision, &range);
        if (k == HL_UPLOAD_FULL) range = (hl_dirty_range){0, l->index_bytes};
        if (k != HL_UPLOAD_NONE) {
            const uint8_t *idata = hl_geometry_index_data(geo);
            uint32_t off = range.offset & ~3u, end = (range.offset + range.size + 3u) & ~3u;
            uint32_t cap = (l->index_bytes + 3u) & ~3u;
            if (end > cap) end = cap;
            /* the last 2 bytes of an odd UINT16 count lie past the CPU block: upload them
               from a padded copy through the arena-copying upload call */
            if (end > l->index_bytes) {
                uint8_t tail[4] = {0, 0, 0, 0};
                uint32_t head = (l->index_bytes - off) & ~3u;
                if (head) {
                    hl_result res = hl_graph_upload_buffer(r->graph, g->ibo, off, idata + off, head, NULL, 0);
                    if (res) return res;
                }
                memcpy(tail, idata + off + head, l->index_bytes - off - head);
                hl_result res = hl_graph_upload_buffer(r->graph, g->ibo, off + head, tail, 4, &g->ibo_revision, rev);
                if (res) return res;
            } else {
                hl_result res = hl_graph_upload_buffer(r->graph, g->ibo, off, idata + off, end - off, &g->ibo_revision, rev);
                if (res) return res;
            }
            r->stats.upload_bytes += end - off;
        }
    }
    *out = g;
    return HL_OK;
}

/* ---- textures ------------------------------------------------------------------------------------ */
static hl_rhi_address_mode wrap_mode(hl_wrap w) {
    return w == HL_WRAP_CLAMP ? HL_RHI_ADDRESS_CLAMP_TO_EDGE : w == HL_WRAP_MIRROR ? HL_RHI_ADDRESS_MIRROR_REPEAT
                                                                                  : HL_RHI_ADDRESS_REPEAT;
}

/* sRGB byte -> linear, and back with rounding (IEC 61966-2-1). */
static float g_srgb_lut[256];
static pthread_once_t g_srgb_once = PTHREAD_ONCE_INIT;

static void srgb_lut_init(void) {
    for (int i = 0; i < 256; i++) {
        float v = (float)i / 255.0f;
        g_srgb_lut[i] = v <= 0.04045f ? v / 12.92f : powf((v + 0.055f) / 1.055f, 2.4f);
    }
}

static float srgb_to_linear(uint8_t c) { return g_srgb_lut[c]; }

static uint8_t linear_to_srgb(float v) {
    v = v <= 0.0f ? 0.0f : v >= 1.0f ? 1.0f : v;
    float s = v <= 0.0031308f ? v * 12.92f : 1.055f * powf(v, 1.0f / 2.4f) - 0.055f;
    return (uint8_t)(s * 255.0f + 0.5f);
}

void hl__mip_downsample(const uint8_t *src, uint32_t w, uint32_t h, bool srgb, uint8_t *dst, uint32_t nw, uint32_t nh) {
    pthread_once(&g_srgb_once, srgb_lut_init);
    for (uint32_t y = 0; y < nh; y++) {
        uint32_t y0 = y * 2u < h ? y * 2u : h - 1u, y1 = y * 2u + 1u < h ? y * 2u + 1u : y0;
        for (uint32_t x = 0; x < nw; x++) {
            uint32_t x0 = x * 2u < w ? x * 2u : w - 1u, x1 = x * 2u + 1u < w ? x * 2u + 1u : x0;
            const uint8_t *p[4] = {src + ((size_t)y0 * w + x0) * 4u, src + ((size_t)y0 * w + x1) * 4u,
                                   src + ((size_t)y1 * w + x0) * 4u, src + ((size_t)y1 * w + x1) * 4u};
            uint8_t *o = dst + ((size_t)y * nw + x) * 4u;
            for (int c = 0; c < 4; c++) {
                if (srgb && c < 3) {
                    float sum = 0;
                    for (int k = 0; k < 4; k++) sum += srgb_to_linear(p[k][c]);
                    o[c] = linear_to_srgb(sum * 0.25f);
                } else {
                    o[c] = (uint8_t)((p[0][c] + p[1][c] + p[2][c] + p[3][c] + 2u) / 4u);
                }
            }
        }
    }
}

static hl_result texture_upload(hl_renderer *r, hl__gpu_texture *t) {
    const hl_texture_info *info = hl_texture_get_info(t->texture);
    bool srgb = info->color_space != HL_COLOR_SPACE_LINEAR;
    if (!t->tex.id || t->width != info->width || t->height != info->height || t->levels != info->mip_levels ||
        t->srgb != srgb) {
        hl_rhi_texture_view_destroy(r->dev, t->view);
        hl_rhi_texture_destroy(r->dev, t->tex);
        hl_rhi_texture_desc d = {0};
        d.format = srgb ? HL_RHI_FORMAT_RGBA8_UNORM_SRGB : HL_RHI_FORMAT_RGBA8_UNORM;
        d.width = info->width;
        d.height = info->height;
        d.mip_levels = info->mip_levels;
        d.usage = HL_RHI_TEXTURE_USAGE_SAMPLED | HL_RHI_TEXTURE_USAGE_COPY_DST;
        d.label = hl_texture_label(t->texture);
        hl_result res = hl_rhi_texture_create(r->dev, &d, &t->tex);
        if (!res) res = hl_rhi_texture_view_create(r->dev, t->tex, NULL, &t->view);
        if (res) return res;
        t->width = info->width;
        t->height = info->height;
        t->levels = info->mip_levels;
        t->srgb = srgb;
    }
    hl_rhi_texture_region all = {0};
    hl_result res = hl_rhi_texture_write(r->dev, t->tex, &all, hl_texture_pixels(t->texture), 0);
    if (res) return res;
    r->stats.upload_bytes += (uint64_t)info->width * info->height * 4u;
    /* The mip chain is made here, on the CPU, and uploaded level by level: the same texels on
       every backend and driver (drivers' mipmap generators differ, e.g. for odd sizes). */
    uint32_t w = info->width, h = info->height;
    const uint8_t *src = hl_texture_pixels(t->texture);
    for (uint32_t level = 1; level < info->mip_levels; level++) {
        uint32_t nw = w > 1 ? w / 2 : 1, nh = h > 1 ? h / 2 : 1;
        size_t bytes = (size_t)nw * nh * 4u;
        /* two halves of one high-water scratch block: the level being made and the one before */
        size_t half = ((size_t)info->width / 2u + 1u) * ((size_t)info->height / 2u + 1u) * 4u;
        if (half * 2u > UINT32_MAX)
            return hl__fail(HL_ERR_OUT_OF_MEMORY, "renderer: texture '%s' is too large for its mip chain",
                            hl_texture_label(t->texture));
        if (!hl__reserve((void **)&r->mip_scratch, &r->mip_scratch_capacity, (uint32_t)(half * 2u), 1))
            return HL_ERR_OUT_OF_MEMORY;
        uint8_t *dst = r->mip_scratch + (level % 2u ? 0 : half);
        hl__mip_downsample(src, w, h, srgb, dst, nw, nh);
        hl_rhi_texture_region reg = {0};
        reg.mip_level = level;
        reg.width = nw;
        reg.height = nh;
        if ((res = hl_rhi_texture_write(r->dev, t->tex, &reg, dst, 0))) return res;
        r->stats.upload_bytes += bytes;
        src = dst;
        w = nw;
        h = nh;
    }
    t->revision = hl_texture_revision(t->texture);
    return HL_OK;
}

hl_result hl__gpu_texture_get(hl_renderer *r, hl_texture *tex, hl__gpu_texture **out) {
    uint32_t i = hl__ptr_map_get(&r->texture_map, tex);
    hl__gpu_texture *t;
    if (i == UINT32_MAX) {
        const hl_renderer *owner = hl__proxy_owner(tex);
        if (owner && owner != r)
            return hl__fail(HL_ERR_VALIDATION,
                            "renderer: a material uses an attachment texture of another renderer's render target");
        r->stats.cache_misses++;
        t = hl__record_alloc((void ***)&r->textures, &r->texture_count, &r->texture_capacity, &r->texture_hint, sizeof *t, &i);
        if (!t) return HL_ERR_OUT_OF_MEMORY;
        if (!hl__ptr_map_put(&r->texture_map, tex, i)) {
            hl__record_clear((void **)r->textures, i, &r->texture_hint);
            return HL_ERR_OUT_OF_MEMORY;
        }
        hl_texture_retain(tex);
        t->texture = tex;
    } else {
        r->stats.cache_hits++;
        t = r->textures[i];
    }
    t->last_frame = r->frame_serial;
    if (t->target) { /* a render-target attachment: its resolved colour texture */
        hl_render_target *rt = t->target;
        if (rt == r->recording_target)
            return hl__fail(HL_ERR_VALIDATION,
                            "renderer: a material samples attachment %u of the render target it renders into",
                            t->target_index);
        hl_rhi_texture cur = rt->color[t->target_index];
        if (t->tex.id != cur.id) {
            hl_rhi_texture_view_destroy(r->dev, t->view);
            t->view = (hl_rhi_texture_view){0};
            t->tex = cur;
            hl_result res = hl_rhi_texture_view_create(r->dev, cur, NULL, &t->view);
            if (res) return res;
        }
        if (!t->sampler.id) {
            hl_rhi_sampler_desc sd = {0};
            sd.mag_filter = sd.min_filter = HL_RHI_FILTER_LINEAR;
            hl_result res = hl_rhi_sampler_create(r->dev, &sd, &t->sampler);
            if (res) return res;
        }
        *out = t;
        return HL_OK;
    }
    if (t->revision != hl_texture_revision(tex) || !t->tex.id) {
        hl_result res = texture_upload(r, t);
        if (res) return res;
    }
    /* the sampler depends on the texture's level count too: new pixels of another size change
       it (a long-lived renderer kept a single-level clamp on a texture that had gained mips) */
    const hl_texture_info *info = hl_texture_get_info(tex);
    if (!t->sampler.id || t->sampler_revision != hl_texture_sampler_revision(tex) ||
        t->sampler_one_level != (info->mip_levels <= 1)) {
        hl_rhi_sampler_desc sd = {0};
        sd.address_u = wrap_mode(info->sampler.wrap_u);
        sd.address_v = wrap_mode(info->sampler.wrap_v);
        sd.mag_filter = info->sampler.mag_filter == HL_FILTER_NEAREST ? HL_RHI_FILTER_NEAREST : HL_RHI_FILTER_LINEAR;
        sd.min_filter = info->sampler.min_filter == HL_FILTER_NEAREST ? HL_RHI_FILTER_NEAREST : HL_RHI_FILTER_LINEAR;
        sd.mipmap_filter = info->sampler.mip_filter == HL_FILTER_NEAREST ? HL_RHI_FILTER_NEAREST : HL_RHI_FILTER_LINEAR;
        if (info->mip_levels <= 1) sd.lod_max = 0.25f;
        hl_rhi_sampler_destroy(r->dev, t->sampler);
        t->sampler = (hl_rhi_sampler){0};
        hl_result res = hl_rhi_sampler_create(r->dev, &sd, &t->sampler);
        if (res) return res;
        t->sampler_revision = hl_texture_sampler_revision(tex);
        t->sampler_one_level = info->mip_levels <= 1;
    }
    *out = t;
    return HL_OK;
}

/* ---- materials ----------------------------------------------------------------------------------- */
static void material_block(const hl_material *m, hl__material_block *b) {
    const hl_material_factors *f = hl_material_get_factors(m);
    memset(b, 0, sizeof *b);
    b->base_color[0] = f->base_color.r;
    b->base_color[1] = f->base_color.g;
    b->base_color[2] = f->base_color.b;
    b->base_color[3] = f->base_color.a;
    b->emissive[0] = f->emissive.x;
    b->emissive[1] = f->emissive.y;
    b->emissive[2] = f->emissive.z;
    b->emissive[3] = f->occlusion_strength;
    b->pbr[0] = f->metallic;
    b->pbr[1] = f->roughness;
    b->pbr[2] = f->alpha_cutoff;
    b->pbr[3] = f->normal_scale;
    for (uint32_t t = 0; t < HL_TEXTURE_SLOT_COUNT; t++)
        for (uint32_t row = 0; row < 2; row++) memcpy(b->uv[t * 2 + row], f->uv_rows[t][row], 3 * sizeof(float));
}

hl_result hl__gpu_material_get(hl_renderer *r, hl_material *mat, hl__gpu_material **out) {
    uint32_t i = hl__ptr_map_get(&r->material_map, mat);
    hl__gpu_material *m;
    if (i == UINT32_MAX) {
        r->stats.cache_misses++;
        m = hl__record_alloc((void ***)&r->materials, &r->material_count, &r->material_capacity, &r->material_hint, sizeof *m, &i);
        if (!m) return HL_ERR_OUT_OF_MEMORY;
        hl_result res = make_buffer(r, sizeof(hl__material_block), HL_RHI_BUFFER_USAGE_UNIFORM, hl_material_label(mat),
                                    &m->ubo);
        if (res || !hl__ptr_map_put(&r->material_map, mat, i)) {
            hl_rhi_buffer_destroy(r->dev, m->ubo);
            hl__record_clear((void **)r->materials, i, &r->material_hint);
            return res ? res : HL_ERR_OUT_OF_MEMORY;
        }
        hl_material_retain(mat);
        m->material = mat;
    } else {
        r->stats.cache_hits++;
        m = r->materials[i];
    }
    m->last_frame = r->frame_serial;
    *out = m;
    return HL_OK;
}

hl_result hl__gpu_material_bind(hl_renderer *r, hl__gpu_material *m, const hl__program *prog) {
    hl_material *mat = m->material;
    if (prog->kind == HL__PROGRAM_SHADER) return hl__shader_material_group(r, mat, prog, m);
    uint64_t rev = hl_material_revision(mat);
    if (m->ubo_revision != rev) {
        hl__material_block b;
        material_block(mat, &b);
        /* the UV transform rows only when a map has one (the shader declares them then) */
        uint64_t n = hl_material_get_variant(mat)->uv_transform_mask ? sizeof b : offsetof(hl__material_block, uv);
        hl_result res = hl_graph_upload_buffer(r->graph, m->ubo, 0, &b, n, &m->ubo_revision, rev);
        if (res) return res;
        r->stats.upload_bytes += n;
    }
    /* bind group: the material block plus its maps, for this program's group-2 layout */
    hl_rhi_bind_group_entry e[1 + 2 * HL_TEXTURE_SLOT_COUNT];
    memset(e, 0, sizeof e);
    uint32_t n = 0;
    e[n].binding = 0;
    e[n++].buffer = m->ubo;
    for (uint32_t s = 0; s < HL_TEXTURE_SLOT_COUNT; s++) {
        if (!(prog->defines & ((uint64_t)HL__DEF_MAP0 << s))) continue;
        hl__gpu_texture *t;
        hl_result res = hl__gpu_texture_get(r, hl_material_get_texture(mat, (hl_texture_slot)s, NULL), &t);
        if (res) return res;
        e[n].binding = 1 + 2 * s;
        e[n++].view = t->view;
        e[n].binding = 2 + 2 * s;
        e[n++].sampler = t->sampler;
    }
    return hl__owned_group_get(r, &m->group, prog, 2, e, n, hl_material_label(mat));
}

/* ---- owned groups and retired objects ------------------------------------------------------ */
hl_result hl__owned_group_get(hl_renderer *r, hl__owned_group *og, const hl__program *p, uint32_t g,
                              const hl_rhi_bind_group_entry *bound, uint32_t bound_count, const char *label) {
    const hl_rhi_bind_group_layout_entry *le = p->entries[g];
    uint32_t lc = p->entry_count[g];
    /* program ids are never reused: one found to match stays matching while the layout stands */
    bool same_layout = og->layout.id && ((p->id && og->layout_program == p->id) ||
                                         (og->entry_count == lc && memcmp(og->entries, le, lc * sizeof *le) == 0));
    if (same_layout) og->layout_program = p->id;
    bool same_bound = og->group.id && og->bound_count == bound_count &&
                      (!bound_count || memcmp(og->bound, bound, bound_count * sizeof *bound) == 0);
    if (same_layout && same_bound) return HL_OK;
    if (bound_count > HL_RHI_MAX_BINDINGS)
        return hl__fail(HL_ERR_VALIDATION, "renderer: %s: %u bindings (at most %d)", label, bound_count, HL_RHI_MAX_BINDINGS);
    hl_result res = HL_OK;
    if (og->group.id || (!same_layout && og->layout.id)) { /* this frame's packets may name them */
        res = hl__retire_group(r, og, !same_layout);
        if (res) return res;
    }
    if (!same_layout) {
        memset(og->entries, 0, sizeof og->entries);
        memcpy(og->entries, le, lc * sizeof *le);
        og->entry_count = lc;
        og->layout_program = p->id;
        hl_rhi_bind_group_layout_desc ld = {og->entries, lc, label};
        if ((res = hl_rhi_bind_group_layout_create(r->dev, &ld, &og->layout))) {
            og->layout = (hl_rhi_bind_group_layout){0};
            return res;
        }
    }
    memset(og->bound, 0, sizeof og->bound);
    if (bound_count) memcpy(og->bound, bound, bound_count * sizeof *bound);
    og->bound_count = bound_count;
    hl_rhi_bind_group_desc d = {og->layout, og->bound, bound_count, label};
    if ((res = hl_rhi_bind_group_create(r->dev, &d, &og->group))) og->group = (hl_rhi_bind_group){0};
    return res;
}

void hl__owned_group_destroy(hl_renderer *r, hl__owned_group *og) {
    hl_rhi_bind_group_destroy(r->dev, og->group);
    hl_rhi_bind_group_layout_destroy(r->dev, og->layout);
    memset(og, 0, sizeof *og);
}

hl_result hl__retire_buffer(hl_renderer *r, hl_rhi_buffer b) {
    if (!hl__reserve((void **)&r->retired_buffers, &r->retired_buffer_capacity, r->retired_buffer_count + 1,
                     sizeof b))
        return HL_ERR_OUT_OF_MEMORY;
    r->retired_buffers[r->retired_buffer_count++] = b;
    return HL_OK;
}

hl_result hl__retire_group(hl_renderer *r, hl__owned_group *og, bool with_layout) {
    if (!hl__reserve((void **)&r->retired_groups, &r->retired_group_capacity, r->retired_group_count + 1,
                     sizeof og->group) ||
        !hl__reserve((void **)&r->retired_layouts, &r->retired_layout_capacity, r->retired_layout_count + 1,
                     sizeof og->layout))
        return HL_ERR_OUT_OF_MEMORY;
    r->retire_epoch++;
    if (og->group.id) r->retired_groups[r->retired_group_count++] = og->group;
    og->group = (hl_rhi_bind_group){0};
    og->bound_count = 0;
    if (with_layout && og->layout.id) {
        r->retired_layouts[r->retired_layout_count++] = og->layout;
        og->layout = (hl_rhi_bind_group_layout){0};
        og->entry_count = 0;
    }
    return HL_OK;
}

/* ---- mesh object slots ------------------------------------------------------------------------- */
hl_result hl__flush_objects(hl_renderer *r, bool last) {
    hl_result res = HL_OK;
    for (uint32_t i = 0; i < r->object_dirty_count && !res;) {
        uint32_t first = r->object_dirty[i], end = first + 1;
        for (i++; i < r->object_dirty_count && r->object_dirty[i] == end; i++) end++;
        uint64_t at = (uint64_t)first * HL__OBJECT_STRIDE, size = (uint64_t)(end - first) * HL__OBJECT_STRIDE;
        const uint8_t *data = r->object_cpu + (size_t)first * HL__OBJECT_STRIDE;
        res = last ? hl_graph_upload_buffer_kept(r->graph, r->object_ubo, at, data, size, NULL, 0)
                   : hl_graph_upload_buffer(r->graph, r->object_ubo, at, data, size, NULL, 0);
    }
    r->object_dirty_count = 0;
    return res;
}

static hl_result grow_objects(hl_renderer *r, uint32_t need) {
    uint32_t cap = r->object_capacity;
    while (cap < need) cap *= 2;
    /* this frame's blocks so far belong to the old buffer (its packets name it) */
    hl_result res = hl__flush_objects(r, false); /* copied: the CPU copy grows with the buffer */
    if (res) return res;
    hl_rhi_buffer nb;
    res = make_buffer(r, (uint64_t)HL__OBJECT_STRIDE * cap, HL_RHI_BUFFER_USAGE_UNIFORM, "objects", &nb);
    if (res) return res;
    /* packets and uploads of this frame may still name the old buffer and its groups */
    if ((res = hl__retire_buffer(r, r->object_ubo)) || (r->object_group.group.id && (res = hl__retire_group(r, &r->object_group, false))) ||
        (r->shadow_object_group.group.id && (res = hl__retire_group(r, &r->shadow_object_group, false)))) {
        hl_rhi_buffer_destroy(r->dev, nb);
        return res;
    }
    r->object_ubo = nb;
    r->object_capacity = cap;
    for (uint32_t i = 0; i < r->mesh_count; i++)
        if (r->meshes[i]) r->meshes[i]->world_revision = 0; /* upload again */
    return HL_OK;
}

static hl_result grow_skins(hl_renderer *r, uint32_t need) {
    uint32_t cap = r->skin_capacity ? r->skin_capacity : 4;
    while (cap < need) cap *= 2;
    hl_rhi_buffer nb;
    hl_result res = make_buffer(r, (uint64_t)HL__SKIN_STRIDE * cap, HL_RHI_BUFFER_USAGE_UNIFORM, "skins", &nb);
    if (res) return res;
    if ((r->skin_ubo.id && (res = hl__retire_buffer(r, r->skin_ubo))) ||
        (r->skin_group.group.id && (res = hl__retire_group(r, &r->skin_group, false))) ||
        (r->shadow_skin_group.group.id && (res = hl__retire_group(r, &r->shadow_skin_group, false)))) {
        hl_rhi_buffer_destroy(r->dev, nb);
        return res;
    }
    r->skin_ubo = nb;
    r->skin_capacity = cap;
    for (uint32_t i = 0; i < r->mesh_count; i++)
        if (r->meshes[i]) r->meshes[i]->skin_frame = 0; /* upload again */
    return HL_OK;
}

hl_result hl__gpu_mesh_skin(hl_renderer *r, hl__gpu_mesh *gm) {
    if (!gm->skin_slot1) {
        uint32_t s;
        if (r->free_skin_count) {
            s = r->free_skin_slots[--r->free_skin_count];
        } else {
            if (r->skin_slots_used >= r->skin_capacity) {
                hl_result res = grow_skins(r, r->skin_slots_used + 1);
                if (res) return res;
            }
            /* room to give the slot back (mesh_record_release then allocates nothing) */
            if (!hl__reserve((void **)&r->free_skin_slots, &r->free_skin_capacity, r->skin_slots_used + 1, sizeof(uint32_t)))
                return HL_ERR_OUT_OF_MEMORY;
            s = r->skin_slots_used++;
        }
        gm->skin_slot1 = s + 1;
        gm->skin_frame = 0;
    }
    if (gm->skin_frame == r->frame_serial) return HL_OK;
    uint32_t n = hl_mesh_skin_matrices(gm->mesh, r->skin_scratch, HL_SKIN_MAX_JOINTS);
    if (!n) return HL_OK;
    uint64_t bytes = (uint64_t)n * sizeof(hl_mat4);
    hl_result res = hl_graph_upload_buffer(r->graph, r->skin_ubo, (uint64_t)(gm->skin_slot1 - 1) * HL__SKIN_STRIDE,
                                           r->skin_scratch, bytes, NULL, 0);
    if (res) return res;
    r->stats.upload_bytes += bytes;
    gm->skin_frame = r->frame_serial;
    return HL_OK;
}

hl_result hl__reserve_object_slots(hl_renderer *r, uint32_t extra) {
    uint64_t need = (uint64_t)r->object_slots_used + extra;
    if (need <= r->object_capacity) return HL_OK;
    if (need > UINT32_MAX / 2) return hl__fail(HL_ERR_OUT_OF_MEMORY, "renderer: too many meshes");
    return grow_objects(r, (uint32_t)need);
}

void hl__normal_matrix(const hl_mat4 *world, float out[16]) {
    hl_mat4 inv;
    hl_mat4_inverse(world, &inv);
    for (int c = 0; c < 4; c++)
        for (int rr = 0; rr < 4; rr++) out[c * 4 + rr] = inv.m[rr * 4 + c];
}

hl_result hl__objects_reserve(hl_renderer *r, uint32_t dirty) {
    if (!hl__reserve((void **)&r->object_cpu, &r->object_cpu_capacity, r->object_capacity, HL__OBJECT_STRIDE) ||
        !hl__reserve((void **)&r->object_dirty, &r->object_dirty_capacity, r->object_dirty_count + dirty, sizeof(uint32_t)))
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "renderer: out of memory for the object blocks");
    return HL_OK;
}

void hl__object_block_write(hl_renderer *r, const hl__gpu_mesh *gm, const hl_mat4 *world, uint64_t wrev) {
    uint8_t *slot = r->object_cpu + (size_t)gm->slot * HL__OBJECT_STRIDE;
    hl__object_block *b = (hl__object_block *)(void *)slot;
    memset(slot + sizeof *b, 0, HL__OBJECT_STRIDE - sizeof *b);
    memcpy(b->model, world->m, sizeof b->model);
    if (gm->normal_revision == wrev && wrev) memcpy(b->normal_matrix, gm->normal, sizeof b->normal_matrix);
    else hl__normal_matrix(world, b->normal_matrix);
}

hl_result hl__gpu_mesh_slot(hl_renderer *r, const hl_mesh *mesh, hl__gpu_mesh **out) {
    return hl__gpu_mesh_slot_hint(r, mesh, NULL, out);
}

static void spare_from_stale(hl_renderer *r);

hl_result hl__gpu_mesh_slot_hint(hl_renderer *r, const hl_mesh *mesh, hl__gpu_mesh *hint, hl__gpu_mesh **out) {
    const uint64_t serial = hl_mesh_serial(mesh);
    bool hinted = hint && hint->mesh == mesh && hint->serial == serial;
    uint32_t i = hinted ? 0u : hl__ptr_map_get(&r->mesh_map, mesh);
    if (!hinted && i != UINT32_MAX && r->meshes[i]->serial != serial) {
        /* a new mesh at a removed one's address: the removed one's record leaves the map and
           is let go by the stale walk like any removed mesh's, and the new mesh gets a record
           as a mesh at an unseen address does (so churn wants as many records whatever
           addresses the application's allocator hands out) */
        r->meshes[i]->mesh = NULL;
        hl__ptr_map_remove(&r->mesh_map, mesh);
        i = UINT32_MAX;
    }
    hl__gpu_mesh *gm;
    if (hinted) {
        gm = hint;
    } else if (i == UINT32_MAX) {
        /* room to give this record and its slot back later: eviction and the stale walk release
           records without allocating (a churned scene's first evictions come in its steady frames) */
        uint32_t spares = r->mesh_map.count + 1u > 64u ? r->mesh_map.count + 1u : 64u;
        if (!hl__reserve((void **)&r->spare_meshes, &r->spare_mesh_capacity, spares, sizeof *r->spare_meshes) ||
            !hl__reserve((void **)&r->free_object_slots, &r->free_object_capacity, r->object_slots_used + 1u, sizeof(uint32_t)) ||
            !hl__reserve((void **)&r->mesh_last, &r->mesh_last_capacity, r->mesh_count + 1u, sizeof *r->mesh_last))
            return HL_ERR_OUT_OF_MEMORY;
        if (!r->spare_mesh_count) spare_from_stale(r);
        if (r->spare_mesh_count && (gm = hl__record_place((void ***)&r->meshes, &r->mesh_count, &r->mesh_capacity,
                                                          &r->mesh_hint, r->spare_meshes[r->spare_mesh_count - 1], &i))) {
            /* a record eviction let go (churn makes no allocation): its prepared draw's memory stays */
            r->spare_mesh_count--;
            struct hl__draw *prepared = gm->prepared;
            memset(gm, 0, sizeof *gm);
            gm->prepared = prepared;
        } else {
            gm = hl__record_alloc((void ***)&r->meshes, &r->mesh_count, &r->mesh_capacity, &r->mesh_hint, sizeof *gm, &i);
        }
        if (!gm) return HL_ERR_OUT_OF_MEMORY;
        r->mesh_last[i] = 0; /* until it is drawn, below (a failure on the way leaves no record at i) */
        uint32_t s;
        if (r->free_object_count) {
            s = r->free_object_slots[--r->free_object_count];
        } else {
            s = r->object_slots_used++;
            if (s >= r->object_capacity) {
                hl_result res = grow_objects(r, s + 1);
                if (res) {
                    r->object_slots_used--;
                    hl__record_clear((void **)r->meshes, i, &r->mesh_hint);
                    return res;
                }
            }
        }
        gm->mesh = mesh;
        gm->serial = serial;
        gm->slot = s;
        gm->index = i;
        if (!hl__ptr_map_put(&r->mesh_map, mesh, i)) {
            if (hl__reserve((void **)&r->free_object_slots, &r->free_object_capacity, r->free_object_count + 1,
                            sizeof(uint32_t)))
                r->free_object_slots[r->free_object_count++] = s;
            hl__record_clear((void **)r->meshes, i, &r->mesh_hint);
            return HL_ERR_OUT_OF_MEMORY;
        }
        gm->slot = s;
    } else {
        gm = r->meshes[i];
    }
    /* A mesh seen for the first time, or one whose world matrix changed, uploads its block.
     * A mesh missing last frame uploads too: its address may belong to a new mesh now. */
    const hl_node *node = hl_mesh_node((hl_mesh *)mesh);
    uint64_t wrev = hl_node_world_revision(node);
    bool fresh = hl__gpu_mesh_fresh(r, gm);
    hl__gpu_mesh_drawn(r, gm);
    if (fresh || gm->world_revision != wrev) {
        /* the whole slot (the block and its zero padding) into the frame's batch: consecutive
           slots are consecutive bytes, uploaded as one copy (hl__flush_objects); delivered at
           the submission, like every upload */
        hl_result res = hl__objects_reserve(r, 1);
        if (res) return res;
        hl__object_block_write(r, gm, hl_node_world_matrix(node), wrev);
        res = hl_graph_commit_on_submit(r->graph, &gm->world_revision, wrev);
        if (res) return res;
        r->object_dirty[r->object_dirty_count++] = gm->slot;
        r->stats.upload_bytes += sizeof(hl__object_block);
    }
    *out = gm;
    return HL_OK;
}

/* Releases mirrors at the end of a frame (the RHI defers the native objects past the
 * submissions that use them): every frame those whose scene object only the mirror still
 * references (the application released it and nothing else holds it: no draw can name it
 * again), and every 60 frames those unused for 120 frames. Materials go first: releasing one
 * drops its references to textures and uniform buffers, whose mirrors then go in the same pass. */
uint32_t hl__mirror_count(const hl_renderer *r) {
    return r->geometry_map.count + r->texture_map.count + r->material_map.count + r->ubuf_map.count +
           r->mesh_map.count;
}

static void evict_mirrors(hl_renderer *r);

void hl__render_evict(hl_renderer *r) {
    uint32_t before = hl__mirror_count(r);
    evict_mirrors(r);
    if (hl__mirror_count(r) != before) r->mirror_epoch++; /* nothing is created here: only releases */
}

/* Mesh record i let go: out of the map, its slots free, the record kept as a spare for the next
 * new mesh (at most as many spares as meshes held, and 64) or freed. */
static void mesh_record_release(hl_renderer *r, uint32_t i) {
    hl__gpu_mesh *m = r->meshes[i];
    r->mesh_last[i] = 0;
    if (m->mesh) hl__ptr_map_remove(&r->mesh_map, m->mesh);
    if (hl__reserve((void **)&r->free_object_slots, &r->free_object_capacity, r->free_object_count + 1, sizeof(uint32_t)))
        r->free_object_slots[r->free_object_count++] = m->slot;
    if (m->skin_slot1 &&
        hl__reserve((void **)&r->free_skin_slots, &r->free_skin_capacity, r->free_skin_count + 1, sizeof(uint32_t)))
        r->free_skin_slots[r->free_skin_count++] = m->skin_slot1 - 1;
    if (r->spare_mesh_count < (r->mesh_map.count > 64 ? r->mesh_map.count : 64) &&
        hl__reserve((void **)&r->spare_meshes, &r->spare_mesh_capacity, r->spare_mesh_count + 1, sizeof *r->spare_meshes)) {
        r->spare_meshes[r->spare_mesh_count++] = m;
        r->meshes[i] = NULL;
        if (i < r->mesh_hint) r->mesh_hint = i;
        /* no mesh's: a hint to this record found earlier in the frame (prep_part) no longer holds */
        m->mesh = NULL;
    } else {
        hl__free(m->prepared);
        hl__record_clear((void **)r->meshes, i, &r->mesh_hint);
    }
}

/* No spare record for a new mesh: the records of meshes not drawn in the last two frames (nor in
 * the kept view) become spares, as the next eviction pass would make them (such a mesh, if it
 * still exists, gets a record again when it is drawn). A walk goes on from where the last one
 * stopped and takes up to 64 (all of them fit the spares, so none is freed while the frame's
 * hints may point at it); the walks of one frame see each record once at most. So churn, whose
 * new meshes come at addresses the renderer has not seen, takes the records of the meshes it
 * removed instead of allocating a record each until eviction's horizon (120 frames). */
static void spare_from_stale(hl_renderer *r) {
    if (r->stale_walk_frame != r->frame_serial) {
        r->stale_walk_frame = r->frame_serial;
        r->stale_walk_steps = 0;
    }
    uint64_t old = hl__evict_horizon(r, r->frame_serial > 2 ? r->frame_serial - 2 : 0);
    for (uint32_t found = 0; r->stale_walk_steps < r->mesh_count && found < 64; r->stale_walk_steps++) {
        if (r->stale_cursor >= r->mesh_count) r->stale_cursor = 0;
        uint32_t i = r->stale_cursor++;
        if (r->meshes[i] && r->mesh_last[i] && r->mesh_last[i] < old) {
            mesh_record_release(r, i);
            found++;
        }
    }
}

static void evict_mirrors(hl_renderer *r) {
    bool aged = r->frame_serial % 60u == 0;
    uint64_t old = hl__evict_horizon(r, aged && r->frame_serial > 120 ? r->frame_serial - 120 : 0);
    if (aged)
        for (uint32_t i = 0; i < r->mesh_count; i++)
            if (r->meshes[i] && r->mesh_last[i] < old) mesh_record_release(r, i);
    for (uint32_t i = 0; i < r->material_count; i++) {
        hl__gpu_material *m = r->materials[i];
        if (m && (m->last_frame < old || hl_material_ref_count(m->material) == 1)) gpu_material_release(r, i);
    }
    hl__render_ubufs_evict(r, old);
    for (uint32_t i = 0; i < r->texture_count; i++) {
        hl__gpu_texture *t = r->textures[i];
        if (t && !t->target && (t->last_frame < old || hl_texture_ref_count(t->texture) == 1))
            hl__gpu_texture_release(r, i);
    }
    for (uint32_t i = 0; i < r->geometry_count; i++) {
        hl__gpu_geometry *g = r->geometries[i];
        if (g && (g->last_frame < old || hl_geometry_ref_count(g->geometry) == 1)) gpu_geometry_release(r, i);
    }
}

void hl__render_release_retired(hl_renderer *r) {
    for (uint32_t i = 0; i < r->retired_group_count; i++) hl_rhi_bind_group_destroy(r->dev, r->retired_groups[i]);
    for (uint32_t i = 0; i < r->retired_layout_count; i++) hl_rhi_bind_group_layout_destroy(r->dev, r->retired_layouts[i]);
    for (uint32_t i = 0; i < r->retired_buffer_count; i++) hl_rhi_buffer_destroy(r->dev, r->retired_buffers[i]);
    r->retired_group_count = r->retired_layout_count = r->retired_buffer_count = 0;
}
