/* Compute shaders (include/hilo3d/compute.h): the binding ABI checked against the WGSL source
 * (src/shader/hl_wgsl.h) and the device's limits, then Dawn's compile; gles3 refuses first. */
#include <string.h>

#include "hilo3d/compute.h"
#include "hl_wgsl.h"
#include "render_internal.h"

/* The recipe of a shader module (device loss rebuilds it): the source and its entry point. */
typedef struct module_recipe {
    char *wgsl; /* owned copy */
    char entry[HL_WGSL_MAX_NAME];
} module_recipe;

struct hl_compute_shader {
    hl_renderer *r;
    struct hl_compute_shader *next;
    hl_rhi_shader module;
    module_recipe recipe;
    uint32_t workgroup_size[3];
    hl_compute_binding bindings[HL_WGSL_MAX_BINDINGS]; /* names copied into names[] */
    char names[HL_WGSL_MAX_BINDINGS][HL_WGSL_MAX_NAME];
    char texel[HL_WGSL_MAX_BINDINGS][24]; /* the source's texture template argument per binding */
    uint32_t binding_count;
    hl_wgsl_override overrides[HL_WGSL_MAX_OVERRIDES];
    uint32_t override_count;
    char label[64];
};

struct hl_compute_kernel {
    hl_renderer *r;
    struct hl_compute_kernel *next;
    hl_rhi_bind_group_layout groups[HL_COMPUTE_MAX_GROUPS];
    uint32_t group_count;
    /* the recipe (device loss rebuilds the kernel; the shader may be gone by then): its module's,
       the layout entries per group, the constants */
    module_recipe recipe;
    hl_rhi_bind_group_layout_entry entries[HL_COMPUTE_MAX_GROUPS][HL_COMPUTE_MAX_BINDINGS];
    uint32_t entry_count[HL_COMPUTE_MAX_GROUPS];
    char constant_names[HL_COMPUTE_MAX_CONSTANTS][HL_WGSL_MAX_NAME];
    double constant_values[HL_COMPUTE_MAX_CONSTANTS];
    uint32_t constant_count;
    hl_rhi_pipeline_layout layout;
    hl_rhi_compute_pipeline pipeline;
    uint32_t workgroup_size[3];
    hl_compute_binding bindings[HL_WGSL_MAX_BINDINGS]; /* the shader's ABI (names in names[]) */
    char names[HL_WGSL_MAX_BINDINGS][HL_WGSL_MAX_NAME];
    uint32_t binding_count;
    char label[64];
};

static const char *const k_type_names[HL_COMPUTE_BINDING_TYPE_COUNT] = {
    "uniform buffer", "read-only storage buffer", "read-write storage buffer", "sampled 2D texture",
    "filtering sampler", "non-filtering sampler", "comparison sampler", "write-only 2D storage texture",
};

const char *hl_compute_binding_type_name(hl_compute_binding_type type) {
    return (unsigned)type < HL_COMPUTE_BINDING_TYPE_COUNT ? k_type_names[type] : "?";
}

static bool is_buffer(hl_compute_binding_type t) { return t <= HL_COMPUTE_STORAGE_READ_WRITE; }

/* The WGSL kind each ABI type declares (both sampler kinds are `sampler`). */
static hl_wgsl_kind wgsl_kind_of(hl_compute_binding_type t) {
    static const hl_wgsl_kind k[HL_COMPUTE_BINDING_TYPE_COUNT] = {
        HL_WGSL_UNIFORM_BUFFER, HL_WGSL_STORAGE_READ,       HL_WGSL_STORAGE_READ_WRITE,
        HL_WGSL_SAMPLED_TEXTURE_2D, HL_WGSL_SAMPLER,        HL_WGSL_SAMPLER,
        HL_WGSL_SAMPLER_COMPARISON, HL_WGSL_STORAGE_TEXTURE_2D_WRITE,
    };
    return k[t];
}

static hl_result check_call(hl_renderer *r, const char *fn) { return hl__compute_check(r, fn); }

/* The ABI alone: types, slots, names, sizes. */
static hl_result check_abi(const hl_compute_shader_desc *d, const char *fn, const char *label) {
    if (d->binding_count && !d->bindings)
        return hl__fail(HL_ERR_VALIDATION, "%s: '%s': bindings is NULL with binding_count %u", fn, label, d->binding_count);
    if (d->binding_count > HL_WGSL_MAX_BINDINGS)
        return hl__fail(HL_ERR_VALIDATION, "%s: '%s': %u bindings (at most %u)", fn, label, d->binding_count,
                        HL_WGSL_MAX_BINDINGS);
    for (uint32_t i = 0; i < d->binding_count; i++) {
        const hl_compute_binding *b = &d->bindings[i];
        const char *name = b->name && b->name[0] ? b->name : NULL;
        if (!name) return hl__fail(HL_ERR_VALIDATION, "%s: '%s': binding %u has no name", fn, label, i);
        if (strlen(name) >= HL_WGSL_MAX_NAME)
            return hl__fail(HL_ERR_VALIDATION, "%s: '%s': binding name '%.32s...' is longer than %u bytes", fn, label, name,
                            HL_WGSL_MAX_NAME - 1);
        if ((unsigned)b->type >= HL_COMPUTE_BINDING_TYPE_COUNT)
            return hl__fail(HL_ERR_VALIDATION, "%s: '%s': binding '%s' has type %d", fn, label, name, (int)b->type);
        if (b->group >= HL_COMPUTE_MAX_GROUPS || b->binding >= HL_COMPUTE_MAX_BINDINGS)
            return hl__fail(HL_ERR_VALIDATION, "%s: '%s': binding '%s' at @group(%u) @binding(%u) (groups 0-%u, bindings 0-%u)",
                            fn, label, name, b->group, b->binding, HL_COMPUTE_MAX_GROUPS - 1, HL_COMPUTE_MAX_BINDINGS - 1);
        if (b->min_binding_size && (!is_buffer(b->type) || (b->min_binding_size & 3u)))
            return hl__fail(HL_ERR_VALIDATION, "%s: '%s': binding '%s': min_binding_size %llu (buffers only, a multiple of 4)",
                            fn, label, name, (unsigned long long)b->min_binding_size);
        for (uint32_t j = 0; j < i; j++) {
            const hl_compute_binding *o = &d->bindings[j];
            if (o->group == b->group && o->binding == b->binding)
                return hl__fail(HL_ERR_VALIDATION, "%s: '%s': bindings '%s' and '%s' share @group(%u) @binding(%u)", fn,
                                label, o->name, name, b->group, b->binding);
            if (!strcmp(o->name, name))
                return hl__fail(HL_ERR_VALIDATION, "%s: '%s': two bindings named '%s'", fn, label, name);
        }
    }
    return HL_OK;
}

/* The ABI against what the source declares, both ways. */
static hl_result check_source(const hl_compute_shader_desc *d, const hl_wgsl_info *info, const char *fn,
                              const char *label) {
    for (uint32_t i = 0; i < d->binding_count; i++) {
        const hl_compute_binding *b = &d->bindings[i];
        const hl_wgsl_binding *v = NULL;
        for (uint32_t k = 0; k < info->binding_count && !v; k++)
            if (info->bindings[k].group == b->group && info->bindings[k].binding == b->binding) v = &info->bindings[k];
        if (!v)
            return hl__fail(HL_ERR_VALIDATION, "%s: '%s': binding '%s' (@group(%u) @binding(%u)) is not declared in the source",
                            fn, label, b->name, b->group, b->binding);
        if (strcmp(v->name, b->name))
            return hl__fail(HL_ERR_VALIDATION, "%s: '%s': @group(%u) @binding(%u) is '%s' in the source (line %u), '%s' in "
                            "the ABI", fn, label, b->group, b->binding, v->name, v->line, b->name);
        if (v->kind != wgsl_kind_of(b->type))
            return hl__fail(HL_ERR_VALIDATION, "%s: '%s': binding '%s' is a %s in the source (line %u), a %s in the ABI", fn,
                            label, b->name, hl_wgsl_kind_name(v->kind), v->line, hl_compute_binding_type_name(b->type));
    }
    for (uint32_t k = 0; k < info->binding_count; k++) {
        const hl_wgsl_binding *v = &info->bindings[k];
        bool found = false;
        for (uint32_t i = 0; i < d->binding_count && !found; i++)
            found = d->bindings[i].group == v->group && d->bindings[i].binding == v->binding;
        if (!found)
            return hl__fail(HL_ERR_VALIDATION, "%s: '%s': the source declares '%s' at @group(%u) @binding(%u) (line %u), "
                            "which the ABI does not list", fn, label, v->name, v->group, v->binding, v->line);
    }
    return HL_OK;
}

static hl_result module_make(hl_renderer *r, const module_recipe *m, const char *label, hl_rhi_shader *out) {
    hl_rhi_shader_desc sd = {0};
    sd.stage = HL_RHI_SHADER_COMPUTE;
    sd.wgsl = m->wgsl;
    sd.entry_point = m->entry;
    sd.label = label;
    return hl_rhi_shader_create(r->dev, &sd, out);
}

hl_result hl_compute_shader_create(hl_renderer *r, const hl_compute_shader_desc *desc, hl_compute_shader **out) {
    const char *fn = "hl_compute_shader_create";
    if (out) *out = NULL;
    hl_result res = check_call(r, fn);
    if (res) return res;
    if (!desc || !out) return hl__fail(HL_ERR_VALIDATION, "%s: %s is NULL", fn, desc ? "out" : "desc");
    if (!desc->wgsl) return hl__fail(HL_ERR_VALIDATION, "%s: desc->wgsl is NULL", fn);
    const char *entry = desc->entry_point && desc->entry_point[0] ? desc->entry_point : "main";
    const char *label = desc->label && desc->label[0] ? desc->label : entry;
    if ((res = check_abi(desc, fn, label))) return res;
    hl_wgsl_info *info = hl__malloc(sizeof *info);
    if (!info) return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: '%s': reflection", fn, label);
    size_t len = strnlen(desc->wgsl, (size_t)HL_WGSL_MAX_SOURCE + 1);
    res = hl_wgsl_reflect(desc->wgsl, len, entry, info);
    if (res) {
        char msg[300];
        snprintf(msg, sizeof msg, "%s", hl_last_error());
        hl__free(info);
        return hl__fail(res, "%s: '%s': %s", fn, label, msg);
    }
    uint32_t wg[3];
    for (int i = 0; i < 3; i++) wg[i] = desc->workgroup_size[i] ? desc->workgroup_size[i] : 1;
    const hl_rhi_limits *lim = &hl_rhi_device_caps(r->dev)->limits;
    if (memcmp(wg, info->workgroup_size, sizeof wg))
        res = hl__fail(HL_ERR_VALIDATION, "%s: '%s': @workgroup_size(%u, %u, %u) in the source (line %u), (%u, %u, %u) in "
                       "the descriptor", fn, label, info->workgroup_size[0], info->workgroup_size[1],
                       info->workgroup_size[2], info->entry_line, wg[0], wg[1], wg[2]);
    else if (!wg[0] || !wg[1] || !wg[2] || wg[0] > lim->max_compute_workgroup_size_x ||
             wg[1] > lim->max_compute_workgroup_size_y || wg[2] > lim->max_compute_workgroup_size_z ||
             (uint64_t)wg[0] * wg[1] * wg[2] > lim->max_compute_invocations_per_workgroup)
        res = hl__fail(HL_ERR_UNSUPPORTED, "%s: '%s': workgroup size (%u, %u, %u) is outside the device's limits "
                       "((%u, %u, %u), %u invocations)", fn, label, wg[0], wg[1], wg[2],
                       lim->max_compute_workgroup_size_x, lim->max_compute_workgroup_size_y,
                       lim->max_compute_workgroup_size_z, lim->max_compute_invocations_per_workgroup);
    if (!res) res = check_source(desc, info, fn, label);
    hl_compute_shader *s = res ? NULL : hl__calloc(1, sizeof *s);
    if (!res && !s) res = hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: '%s'", fn, label);
    if (res) {
        hl__free(info);
        return res;
    }
    for (uint32_t i = 0; i < desc->binding_count; i++)
        for (uint32_t k = 0; k < info->binding_count; k++)
            if (info->bindings[k].group == desc->bindings[i].group && info->bindings[k].binding == desc->bindings[i].binding)
                snprintf(s->texel[i], sizeof s->texel[i], "%s", info->bindings[k].texel);
    memcpy(s->overrides, info->overrides, sizeof s->overrides);
    s->override_count = info->override_count;
    snprintf(s->label, sizeof s->label, "%s", label);
    hl__free(info);
    s->recipe.wgsl = hl__malloc(len + 1);
    if (!s->recipe.wgsl) {
        hl__free(s);
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: '%s': a copy of the source", fn, label);
    }
    memcpy(s->recipe.wgsl, desc->wgsl, len);
    s->recipe.wgsl[len] = '\0';
    snprintf(s->recipe.entry, sizeof s->recipe.entry, "%s", entry);
    res = module_make(r, &s->recipe, label, &s->module);
    if (res) {
        char msg[400];
        snprintf(msg, sizeof msg, "%s", hl_last_error());
        hl__free(s->recipe.wgsl);
        hl__free(s);
        return hl__fail(res == HL_ERR_VALIDATION ? HL_ERR_SHADER : res, "%s: '%s': %s", fn, label, msg);
    }
    s->r = r;
    memcpy(s->workgroup_size, wg, sizeof wg);
    s->binding_count = desc->binding_count;
    for (uint32_t i = 0; i < desc->binding_count; i++) {
        s->bindings[i] = desc->bindings[i];
        snprintf(s->names[i], sizeof s->names[i], "%s", desc->bindings[i].name);
        s->bindings[i].name = s->names[i];
    }
    s->next = r->compute_shaders;
    r->compute_shaders = s;
    *out = s;
    return HL_OK;
}

static void shader_free(hl_renderer *r, hl_compute_shader *s) {
    for (hl_compute_shader **p = &r->compute_shaders; *p; p = &(*p)->next)
        if (*p == s) {
            *p = s->next;
            break;
        }
    hl_rhi_shader_destroy(r->dev, s->module);
    hl__free(s->recipe.wgsl);
    hl__free(s);
}

hl_result hl_compute_shader_destroy(hl_renderer *r, hl_compute_shader *s) {
    const char *fn = "hl_compute_shader_destroy";
    if (!s) return HL_OK;
    hl_result res = check_call(r, fn);
    if (res) return res;
    for (hl_compute_shader *it = r->compute_shaders; it; it = it->next)
        if (it == s) {
            shader_free(r, s);
            return HL_OK;
        }
    return hl__fail(HL_ERR_VALIDATION, "%s: the shader was not created by this renderer (or was destroyed)", fn);
}

void hl_compute_shader_workgroup_size(const hl_compute_shader *s, uint32_t size[3]) {
    for (int i = 0; i < 3; i++) size[i] = s ? s->workgroup_size[i] : 0;
}


/* ---- kernels ------------------------------------------------------------------------------------ */
static bool shader_of(const hl_renderer *r, const hl_compute_shader *s) {
    for (const hl_compute_shader *it = r->compute_shaders; it; it = it->next)
        if (it == s) return true;
    return false;
}

static const char *const k_scalar_names[] = {"(inferred)", "bool", "i32", "u32", "f32", "(not a scalar)"};

static hl_result check_constants(const hl_compute_shader *s, const hl_compute_kernel_desc *d, const char *fn,
                                 const char *label) {
    if (d->constant_count > HL_COMPUTE_MAX_CONSTANTS || (d->constant_count && !d->constants))
        return hl__fail(HL_ERR_VALIDATION, "%s: '%s': %u constants%s (at most %u)", fn, label, d->constant_count,
                        d->constants ? "" : " with constants NULL", HL_COMPUTE_MAX_CONSTANTS);
    bool set[HL_WGSL_MAX_OVERRIDES] = {false};
    for (uint32_t i = 0; i < d->constant_count; i++) {
        const hl_compute_constant *c = &d->constants[i];
        if (!c->name || !c->name[0]) return hl__fail(HL_ERR_VALIDATION, "%s: '%s': constant %u has no name", fn, label, i);
        uint32_t k = 0;
        while (k < s->override_count && strcmp(s->overrides[k].name, c->name)) k++;
        if (k == s->override_count)
            return hl__fail(HL_ERR_VALIDATION, "%s: '%s': constant '%s' is not an override of the source", fn, label, c->name);
        if (set[k]) return hl__fail(HL_ERR_VALIDATION, "%s: '%s': constant '%s' is set twice", fn, label, c->name);
        set[k] = true;
        const hl_wgsl_override *o = &s->overrides[k];
        double v = c->value;
        bool integral = v == (double)(long long)v;
        bool ok = o->type == HL_WGSL_BOOL  ? (v == 0.0 || v == 1.0)
                  : o->type == HL_WGSL_I32 ? (integral && v >= -2147483648.0 && v <= 2147483647.0)
                  : o->type == HL_WGSL_U32 ? (integral && v >= 0.0 && v <= 4294967295.0)
                  : o->type == HL_WGSL_F32 ? (v == v && v >= -3.4028234663852886e38 && v <= 3.4028234663852886e38)
                                           : false;
        if (!ok && (o->type == HL_WGSL_SCALAR_INFERRED || o->type == HL_WGSL_SCALAR_OTHER))
            return hl__fail(HL_ERR_VALIDATION, "%s: '%s': override '%s' (line %u) has no explicit bool, i32, u32 or f32 type: "
                            "the kernel cannot set it", fn, label, c->name, o->line);
        if (!ok)
            return hl__fail(HL_ERR_VALIDATION, "%s: '%s': constant '%s' = %g does not fit the override's type %s (line %u)",
                            fn, label, c->name, v, k_scalar_names[o->type], o->line);
    }
    for (uint32_t k = 0; k < s->override_count; k++)
        if (!set[k] && !s->overrides[k].has_default)
            return hl__fail(HL_ERR_VALIDATION, "%s: '%s': override '%s' (line %u) has no default: the kernel must set it", fn,
                            label, s->overrides[k].name, s->overrides[k].line);
    return HL_OK;
}

static hl_rhi_format storage_format(const char *texel) {
    static const struct {
        const char *wgsl;
        hl_rhi_format format;
    } k[] = {{"rgba8unorm", HL_RHI_FORMAT_RGBA8_UNORM}, {"rgba8uint", HL_RHI_FORMAT_RGBA8_UINT},
             {"rgba16float", HL_RHI_FORMAT_RGBA16_FLOAT}, {"r32float", HL_RHI_FORMAT_R32_FLOAT},
             {"rg32float", HL_RHI_FORMAT_RG32_FLOAT},     {"rgba32float", HL_RHI_FORMAT_RGBA32_FLOAT},
             {"r32uint", HL_RHI_FORMAT_R32_UINT}};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        if (!strcmp(texel, k[i].wgsl)) return k[i].format;
    return HL_RHI_FORMAT_UNDEFINED;
}

/* The layout entry of ABI binding i of s. */
static hl_result layout_entry(const hl_compute_shader *s, uint32_t i, hl_rhi_bind_group_layout_entry *e, const char *fn,
                              const char *label) {
    const hl_compute_binding *b = &s->bindings[i];
    memset(e, 0, sizeof *e);
    e->binding = b->binding;
    e->visibility = HL_RHI_STAGE_COMPUTE;
    e->min_binding_size = b->min_binding_size;
    switch (b->type) {
    case HL_COMPUTE_UNIFORM_BUFFER: e->type = HL_RHI_BINDING_UNIFORM_BUFFER; break;
    case HL_COMPUTE_STORAGE_READ: e->type = HL_RHI_BINDING_READ_ONLY_STORAGE_BUFFER; break;
    case HL_COMPUTE_STORAGE_READ_WRITE: e->type = HL_RHI_BINDING_STORAGE_BUFFER; break;
    case HL_COMPUTE_SAMPLER_FILTERING:
    case HL_COMPUTE_SAMPLER_NON_FILTERING: e->type = HL_RHI_BINDING_SAMPLER; break;
    case HL_COMPUTE_SAMPLER_COMPARISON: e->type = HL_RHI_BINDING_COMPARISON_SAMPLER; break;
    case HL_COMPUTE_SAMPLED_TEXTURE_2D:
        e->type = HL_RHI_BINDING_SAMPLED_TEXTURE;
        e->sample_type = !strcmp(s->texel[i], "i32") ? HL_RHI_SAMPLE_SINT
                         : !strcmp(s->texel[i], "u32") ? HL_RHI_SAMPLE_UINT
                                                       : HL_RHI_SAMPLE_FLOAT;
        break;
    case HL_COMPUTE_STORAGE_TEXTURE_2D_WRITE:
        e->type = HL_RHI_BINDING_STORAGE_TEXTURE;
        e->storage_format = storage_format(s->texel[i]);
        if (e->storage_format == HL_RHI_FORMAT_UNDEFINED)
            return hl__fail(HL_ERR_VALIDATION, "%s: '%s': storage texture '%s' has format '%s' (rgba8unorm, rgba8uint, "
                            "rgba16float, r32float, rg32float, rgba32float or r32uint)", fn, label, b->name, s->texel[i]);
        break;
    default: return hl__fail(HL_ERR_VALIDATION, "%s: '%s': binding '%s' has no layout", fn, label, b->name);
    }
    return HL_OK;
}

/* The kernel's GPU objects go; its recipe stays. */
static void kernel_drop(hl_renderer *r, hl_compute_kernel *k) {
    if (k->pipeline.id) hl_rhi_compute_pipeline_destroy(r->dev, k->pipeline);
    if (k->layout.id) hl_rhi_pipeline_layout_destroy(r->dev, k->layout);
    for (uint32_t g = 0; g < k->group_count; g++)
        if (k->groups[g].id) hl_rhi_bind_group_layout_destroy(r->dev, k->groups[g]);
    k->pipeline = (hl_rhi_compute_pipeline){0};
    k->layout = (hl_rhi_pipeline_layout){0};
    memset(k->groups, 0, sizeof k->groups);
}

static void kernel_release(hl_renderer *r, hl_compute_kernel *k) {
    kernel_drop(r, k);
    hl__free(k->recipe.wgsl);
    hl__free(k);
}

/* The kernel's layouts and pipeline from its recipe, with module (the shader's, or one made
 * from the recipe). */
static hl_result kernel_build(hl_renderer *r, hl_compute_kernel *k, hl_rhi_shader module) {
    hl_result res = HL_OK;
    for (uint32_t g = 0; !res && g < k->group_count; g++) {
        hl_rhi_bind_group_layout_desc ld = {k->entries[g], k->entry_count[g], k->label};
        res = hl_rhi_bind_group_layout_create(r->dev, &ld, &k->groups[g]);
    }
    hl_rhi_pipeline_layout_desc pld = {k->groups, k->group_count, k->label};
    if (!res) res = hl_rhi_pipeline_layout_create(r->dev, &pld, &k->layout);
    hl_rhi_constant constants[HL_COMPUTE_MAX_CONSTANTS];
    for (uint32_t i = 0; i < k->constant_count; i++)
        constants[i] = (hl_rhi_constant){k->constant_names[i], k->constant_values[i]};
    hl_rhi_compute_pipeline_desc cd = {k->layout, module, constants, k->constant_count, k->label};
    if (!res) res = hl_rhi_compute_pipeline_create(r->dev, &cd, &k->pipeline);
    return res;
}

hl_result hl_compute_kernel_create(hl_renderer *r, const hl_compute_kernel_desc *desc, hl_compute_kernel **out) {
    const char *fn = "hl_compute_kernel_create";
    if (out) *out = NULL;
    hl_result res = check_call(r, fn);
    if (res) return res;
    if (!desc || !out) return hl__fail(HL_ERR_VALIDATION, "%s: %s is NULL", fn, desc ? "out" : "desc");
    const hl_compute_shader *s = desc->shader;
    if (!s || !shader_of(r, s))
        return hl__fail(HL_ERR_VALIDATION, "%s: the shader is NULL, another renderer's or destroyed", fn);
    const char *label = desc->label && desc->label[0] ? desc->label : s->label;
    if ((res = check_constants(s, desc, fn, label))) return res;
    hl_compute_kernel *k = hl__calloc(1, sizeof *k);
    if (!k) return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: '%s'", fn, label);
    k->r = r;
    memcpy(k->workgroup_size, s->workgroup_size, sizeof k->workgroup_size);
    k->binding_count = s->binding_count;
    for (uint32_t i = 0; i < s->binding_count; i++) {
        k->bindings[i] = s->bindings[i];
        memcpy(k->names[i], s->names[i], sizeof k->names[i]);
        k->bindings[i].name = k->names[i];
    }
    snprintf(k->label, sizeof k->label, "%s", label);
    for (uint32_t i = 0; i < s->binding_count; i++)
        if (s->bindings[i].group + 1 > k->group_count) k->group_count = s->bindings[i].group + 1;
    for (uint32_t g = 0; !res && g < k->group_count; g++)
        for (uint32_t i = 0; !res && i < s->binding_count; i++)
            if (s->bindings[i].group == g) res = layout_entry(s, i, &k->entries[g][k->entry_count[g]++], fn, label);
    k->constant_count = desc->constant_count;
    for (uint32_t i = 0; i < desc->constant_count; i++) {
        snprintf(k->constant_names[i], sizeof k->constant_names[i], "%s", desc->constants[i].name);
        k->constant_values[i] = desc->constants[i].value;
    }
    size_t len = strlen(s->recipe.wgsl);
    if (!res && !(k->recipe.wgsl = hl__malloc(len + 1))) res = hl__fail(HL_ERR_OUT_OF_MEMORY, "a copy of the source");
    if (!res) {
        memcpy(k->recipe.wgsl, s->recipe.wgsl, len + 1);
        memcpy(k->recipe.entry, s->recipe.entry, sizeof k->recipe.entry);
        res = kernel_build(r, k, s->module);
    }
    if (res) {
        char msg[400];
        snprintf(msg, sizeof msg, "%s", hl_last_error());
        kernel_release(r, k);
        return hl__fail(res, "%s: '%s': %s", fn, label, msg);
    }
    k->next = r->compute_kernels;
    r->compute_kernels = k;
    *out = k;
    return HL_OK;
}

hl_result hl_compute_kernel_destroy(hl_renderer *r, hl_compute_kernel *k) {
    const char *fn = "hl_compute_kernel_destroy";
    if (!k) return HL_OK;
    hl_result res = check_call(r, fn);
    if (res) return res;
    for (hl_compute_kernel **p = &r->compute_kernels; *p; p = &(*p)->next)
        if (*p == k) {
            *p = k->next;
            kernel_release(r, k);
            return HL_OK;
        }
    return hl__fail(HL_ERR_VALIDATION, "%s: the kernel was not created by this renderer (or was destroyed)", fn);
}

bool hl__compute_kernel_objects(const hl_compute_kernel *k, hl_rhi_compute_pipeline *pipeline,
                                hl_rhi_bind_group_layout groups[4], uint32_t *group_count) {
    if (!k) return false;
    *pipeline = k->pipeline;
    memcpy(groups, k->groups, sizeof k->groups);
    *group_count = k->group_count;
    return true;
}

const hl_compute_binding *hl__compute_kernel_abi(const hl_renderer *r, const hl_compute_kernel *k, uint32_t *count,
                                                 const char **label) {
    for (const hl_compute_kernel *c = r->compute_kernels; c; c = c->next)
        if (c == k) {
            *count = k->binding_count;
            *label = k->label;
            return k->bindings;
        }
    return NULL;
}

void hl__compute_gpu_drop(hl_renderer *r) {
    for (hl_compute_kernel *k = r->compute_kernels; k; k = k->next) kernel_drop(r, k);
    for (hl_compute_shader *s = r->compute_shaders; s; s = s->next) {
        hl_rhi_shader_destroy(r->dev, s->module);
        s->module = (hl_rhi_shader){0};
    }
}

hl_result hl__compute_gpu_rebuild(hl_renderer *r) {
    hl_result res = HL_OK;
    for (hl_compute_shader *s = r->compute_shaders; s && !res; s = s->next)
        if (!s->module.id) res = module_make(r, &s->recipe, s->label, &s->module);
    for (hl_compute_kernel *k = r->compute_kernels; k && !res; k = k->next) {
        if (k->pipeline.id) continue;
        hl_rhi_shader module = {0};
        res = module_make(r, &k->recipe, k->label, &module);
        if (!res) res = kernel_build(r, k, module);
        hl_rhi_shader_destroy(r->dev, module); /* the pipeline keeps what it needs */
    }
    return res;
}

void hl__compute_shaders_free(hl_renderer *r) {
    while (r->compute_kernels) {
        hl_compute_kernel *k = r->compute_kernels;
        r->compute_kernels = k->next;
        kernel_release(r, k);
    }
    while (r->compute_shaders) shader_free(r, r->compute_shaders);
}
