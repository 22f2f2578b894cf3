/* Fullscreen passes for pipeline runtimes: one triangle covering the attachments, a GLSL ES
 * 3.00 fragment shader of the runtime's, an optional std140 block `Params` (group 0, binding
 * 0) and sampled graph textures (group 0, bindings 1 + 2i / 2 + 2i) read through the
 * renderer's linear clamp sampler.
 *
 * v_uv: the engine's vertex shader gives the fragment shader `in vec2 v_uv`, the texture
 * coordinate of the pixel in every input, (0, 0) at the image's top left on both backends.
 *
 * Programs are cached like shader materials (the exact description compared whole: fragment
 * source and input names); pipelines by program and output formats. The bind group holds
 * the frame's transient views, so it is made in the graph's prepare stage and retired with
 * the frame. */
#include <string.h>

#include "render_internal.h"

/* (0, 0) at the image's top left on both backends: the gles3 backend negates gl_Position.y
 * (rhi/gles3/gles3_pipeline.c), which makes its textures' rows run as WebGPU's do. */
const char *const hl__render_fullscreen_vs =
    "#version 300 es\n"
    "out vec2 v_uv;\n"
    "void main() {\n"
    "    vec2 p = vec2(float((gl_VertexID & 1) << 2) - 1.0, float((gl_VertexID & 2) << 1) - 1.0);\n"
    "    v_uv = vec2(p.x * 0.5 + 0.5, 0.5 - p.y * 0.5);\n"
    "    gl_Position = vec4(p, 0.0, 1.0);\n"
    "}\n";

/* 0: unlit; 1: lit; 2: lit with the view's environment (HL_IBL). */
static uint8_t lit_kind(const hl_renderer *r, const hl__fullscreen_desc *d) {
    if (!d->lighting_view) return 0;
    return r->views[d->lighting_view - 1].env ? 2 : 1;
}

/* A lit pass's source: the user's #version line, the lighting library, then the rest of the
 * user's text from its second line (#line keeps the user's line numbers in messages). NULL
 * when out of memory; the source must start with its #version line (else the compile names
 * the problem: the library is put first and the user's text after it unchanged). */
static char *lit_source(const char *fragment, bool ibl) {
    const char *nl = strchr(fragment, '\n');
    bool versioned = strncmp(fragment, "#version", 8) == 0 && nl;
    size_t head = versioned ? (size_t)(nl + 1 - fragment) : 0;
    const char *lib = hl__render_lighting_glsl, *ibl_define = ibl ? "#define HL_IBL 1\n" : "";
    size_t n = head + strlen(ibl_define) + strlen(lib) + 16 + strlen(fragment + head) + 1;
    char *out = hl__malloc(n);
    if (!out) return NULL;
    memcpy(out, fragment, head);
    snprintf(out + head, n - head, "%s%s#line 2\n%s", ibl_define, lib, fragment + head);
    return out;
}

static hl_result program_create(hl_renderer *r, const hl__fullscreen_desc *d, hl__program *p) {
    hl_rhi_binding_plan_entry plan[5 + HL__FULLSCREEN_MAX_INPUTS];
    uint32_t pn = 0;
    uint8_t kind = lit_kind(r, d);
    bool lit = kind != 0, ibl = kind == 2;
    plan[pn++] = (hl_rhi_binding_plan_entry){HL_RHI_PLAN_UNIFORM_BLOCK, "Params", 0, 0, 0};
    for (uint32_t i = 0; i < d->input_count; i++)
        plan[pn++] = (hl_rhi_binding_plan_entry){HL_RHI_PLAN_SAMPLER, d->input_names[i], 0, 1 + 2 * i, 2 + 2 * i};
    if (lit) {
        plan[pn++] = (hl_rhi_binding_plan_entry){HL_RHI_PLAN_UNIFORM_BLOCK, "Frame", 1, 0, 0};
        plan[pn++] = (hl_rhi_binding_plan_entry){HL_RHI_PLAN_SAMPLER, "u_shadowAtlas", 2, 0, 1};
    }
    if (ibl) { /* the view's environment (render_env.c) */
        plan[pn++] = (hl_rhi_binding_plan_entry){HL_RHI_PLAN_SAMPLER, "u_envSpecular", 2, 2, 3};
        plan[pn++] = (hl_rhi_binding_plan_entry){HL_RHI_PLAN_SAMPLER, "u_brdfLut", 2, 4, 5};
    }
    char *source = lit ? lit_source(d->fragment, ibl) : NULL;
    if (lit && !source) return hl__fail(HL_ERR_OUT_OF_MEMORY, "fullscreen pass '%s': out of memory", d->name);
    hl_shader_program_desc pd = {0};
    pd.vertex_source = hl__render_fullscreen_vs;
    pd.fragment_source = lit ? source : d->fragment;
    pd.bindings = plan;
    pd.binding_count = pn;
    pd.label = d->name;
    hl_result res = hl_shader_program_compile(&pd, r->backend, &p->prog);
    hl__free(source);
    if (res) return res;
    p->defines = lit; /* group 1 (Frame) takes a dynamic offset: hl__program_layouts */
    const hl_shader_reflection *refl = &p->prog.reflection;
    for (uint32_t k = 0; k < refl->texture_count; k++) {
        bool known = lit && strcmp(refl->textures[k].name, "u_shadowAtlas") == 0;
        known |= ibl && (!strcmp(refl->textures[k].name, "u_envSpecular") || !strcmp(refl->textures[k].name, "u_brdfLut"));
        if (known) continue;
        for (uint32_t i = 0; i < d->input_count; i++) known |= strcmp(refl->textures[k].name, d->input_names[i]) == 0;
        if (!known)
            return hl__fail(HL_ERR_VALIDATION, "fullscreen pass '%s': sampler '%s' is not one of the pass's inputs", d->name,
                            refl->textures[k].name);
        if (refl->textures[k].comparison || refl->textures[k].dimension != HL_RHI_TEXTURE_2D)
            return hl__fail(HL_ERR_VALIDATION, "fullscreen pass '%s': sampler '%s' must be a sampler2D", d->name,
                            refl->textures[k].name);
    }
    for (uint32_t k = 0; k < refl->block_count; k++)
        if (strcmp(refl->blocks[k].name, "Params") != 0 && !(lit && strcmp(refl->blocks[k].name, "Frame") == 0))
            return hl__fail(HL_ERR_VALIDATION, "fullscreen pass '%s': uniform block '%s' (only 'Params' is bound)", d->name,
                            refl->blocks[k].name);
    res = hl_shader_program_create_shaders(r->dev, &p->prog, &p->vs, &p->fs);
    if (!res) res = hl__program_layouts(r, p, lit ? 3u : 1u, "fullscreen");
    for (uint32_t i = 0; i < HL_ATTR_COUNT + 4; i++) p->location[i] = -1;
    return res;
}

/* The exact description: lit_kind (a byte), fragment source and input names in order, each
 * with its NUL. */
static bool desc_matches(const hl_renderer *r, const hl__program *p, const hl__fullscreen_desc *d) {
    const uint8_t *at = p->desc, *end = p->desc + p->desc_size;
    if (at == end || *at++ != lit_kind(r, d)) return false;
    size_t n = strlen(d->fragment) + 1;
    if ((size_t)(end - at) < n || memcmp(at, d->fragment, n)) return false;
    at += n;
    for (uint32_t i = 0; i < d->input_count; i++) {
        n = strlen(d->input_names[i]) + 1;
        if ((size_t)(end - at) < n || memcmp(at, d->input_names[i], n)) return false;
        at += n;
    }
    return at == end;
}

/* Found without allocating (a steady frame makes no heap allocation); made on a miss. */
static hl_result program_get(hl_renderer *r, const hl__fullscreen_desc *d, hl__program **out) {
    for (uint32_t i = 0; i < r->program_count; i++) {
        hl__program *p = r->programs[i];
        if (p && p->kind == HL__PROGRAM_FULLSCREEN && desc_matches(r, p, d)) {
            p->last_frame = r->frame_serial;
            r->stats.cache_hits++;
            *out = p;
            return HL_OK;
        }
    }
    size_t fs_len = strlen(d->fragment) + 1, size = 1 + fs_len;
    for (uint32_t i = 0; i < d->input_count; i++) size += strlen(d->input_names[i]) + 1;
    if (size > UINT32_MAX) return hl__fail(HL_ERR_VALIDATION, "fullscreen pass '%s': source too large", d->name);
    uint8_t *desc = hl__malloc(size);
    if (!desc) return hl__fail(HL_ERR_OUT_OF_MEMORY, "fullscreen pass '%s': out of memory", d->name);
    desc[0] = lit_kind(r, d);
    memcpy(desc + 1, d->fragment, fs_len);
    size_t at = 1 + fs_len;
    for (uint32_t i = 0; i < d->input_count; i++) {
        size_t n = strlen(d->input_names[i]) + 1;
        memcpy(desc + at, d->input_names[i], n);
        at += n;
    }
    hl__program *p;
    r->stats.cache_misses++;
    p = hl__calloc(1, sizeof *p);
    if (!p) {
        hl__free(desc);
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "fullscreen pass '%s': out of memory", d->name);
    }
    p->kind = HL__PROGRAM_FULLSCREEN;
    p->desc = desc;
    p->desc_size = (uint32_t)size;
    hl_result res = program_create(r, d, p);
    if (res) {
        hl__program_release(r, p);
        return res;
    }
    if ((res = hl__program_add(r, p))) return res;
    p->last_frame = r->frame_serial;
    *out = p;
    return HL_OK;
}

typedef struct fs_pass {
    hl_renderer *r;
    hl__program *p;
    hl_rhi_render_pipeline pipeline;
    hl_graph_texture inputs[HL__FULLSCREEN_MAX_INPUTS];
    uint32_t input_binding[HL__FULLSCREEN_MAX_INPUTS]; /* texture binding, 0 = unused by the shader */
    uint32_t input_count;
    hl_graph_texture outputs[4];
    uint32_t output_count;
    hl_rhi_buffer params;
    uint32_t params_offset, params_size; /* size 0: no Params block */
    hl_rhi_bind_group group;
    /* lit passes: the view's Frame block (group 1, dynamic offset) and the shadow atlas (group 2) */
    bool lit;
    hl_rhi_bind_group frame_group, atlas_group;
    uint32_t frame_offset;
    hl_graph_texture atlas; /* read when the view has shadow tiles (zero: none) */
} fs_pass;

static hl_result setup_fs(hl_graph_pass_builder *b, void *params, void *user) {
    fs_pass *p = params;
    *p = *(const fs_pass *)user;
    hl_result res = HL_OK;
    for (uint32_t i = 0; !res && i < p->input_count; i++)
        if (p->input_binding[i]) res = hl_graph_read_texture(b, p->inputs[i]);
    if (!res && p->atlas.id) res = hl_graph_read_texture(b, p->atlas);
    for (uint32_t i = 0; !res && i < p->output_count; i++) {
        hl_graph_color_attachment_desc c = {0};
        c.load_op = HL_RHI_LOAD_CLEAR; /* every pixel is written */
        c.store_op = HL_RHI_STORE_STORE;
        res = hl_graph_color_attachment(b, i, p->outputs[i], &c);
    }
    return res;
}

static hl_result prepare_fs(hl_graph_ctx *ctx, void *params, void *user) {
    (void)user;
    fs_pass *p = params;
    hl_renderer *r = p->r;
    hl__fs_group key;
    memset(&key, 0, sizeof key);
    key.layout = p->p->bgl[0];
    uint32_t n = 0;
    if (p->params_size) {
        key.entries[n].binding = 0;
        key.entries[n].buffer = p->params;
        key.entries[n].offset = p->params_offset;
        key.entries[n++].size = p->params_size;
    }
    for (uint32_t i = 0; i < p->input_count; i++) {
        if (!p->input_binding[i]) continue;
        key.entries[n].binding = p->input_binding[i];
        key.entries[n++].view = hl_graph_ctx_view(ctx, p->inputs[i]);
        key.entries[n].binding = p->input_binding[i] + 1;
        key.entries[n++].sampler = r->default_sampler;
    }
    key.count = n;
    return hl__frame_group_get(r, key.layout, key.entries, n, "fullscreen", &p->group);
}

hl_result hl__frame_group_get(hl_renderer *r, hl_rhi_bind_group_layout layout, const hl_rhi_bind_group_entry *entries,
                              uint32_t n, const char *label, hl_rhi_bind_group *out) {
    hl__fs_group key;
    memset(&key, 0, sizeof key);
    if (n > sizeof key.entries / sizeof key.entries[0])
        return hl__fail(HL_ERR_VALIDATION, "%s: %u bindings in one group", label, n);
    key.layout = layout;
    key.count = n;
    memcpy(key.entries, entries, n * sizeof *entries);
    for (uint32_t i = 0; i < r->fs_group_count; i++) {
        hl__fs_group *g = &r->fs_groups[i];
        if (g->layout.id == key.layout.id && g->count == n && !memcmp(g->entries, key.entries, sizeof key.entries)) {
            g->last_frame = r->frame_serial;
            *out = g->group;
            return HL_OK;
        }
    }
    if (!hl__reserve((void **)&r->fs_groups, &r->fs_group_capacity, r->fs_group_count + 1, sizeof *r->fs_groups))
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "%s: out of memory for a bind group", label);
    hl_rhi_bind_group_desc bd = {key.layout, key.entries, n, label};
    hl_result res = hl_rhi_bind_group_create(r->dev, &bd, &key.group);
    if (res) return res;
    key.last_frame = r->frame_serial;
    r->fs_groups[r->fs_group_count++] = key;
    *out = key.group;
    return HL_OK;
}

void hl__render_fullscreen_evict(hl_renderer *r) {
    uint32_t k = 0;
    for (uint32_t i = 0; i < r->fs_group_count; i++) {
        hl__fs_group *g = &r->fs_groups[i];
        /* unused for 8 frames: the graph's pool hands out several textures of one kind while
           frames are in flight, so a pass's groups take turns */
        if (g->last_frame + 8 < r->frame_serial) {
            hl_rhi_bind_group_destroy(r->dev, g->group);
            continue;
        }
        r->fs_groups[k++] = *g;
    }
    r->fs_group_count = k;
}

void hl__render_fullscreen_free(hl_renderer *r) {
    for (uint32_t i = 0; i < r->fs_group_count; i++) hl_rhi_bind_group_destroy(r->dev, r->fs_groups[i].group);
    hl__free(r->fs_groups);
    r->fs_groups = NULL;
    r->fs_group_count = r->fs_group_capacity = 0;
}

static hl_result exec_fs(hl_graph_ctx *ctx, void *params, void *user) {
    (void)user;
    fs_pass *p = params;
    hl_rhi_cmd *cmd = hl_graph_ctx_cmd(ctx);
    hl_result res = hl_graph_ctx_begin_render_pass(ctx);
    if (!res) res = hl_rhi_cmd_set_pipeline(cmd, p->pipeline);
    if (!res) res = hl_rhi_cmd_set_bind_group(cmd, 0, p->group, NULL, 0);
    if (!res && p->lit) res = hl_rhi_cmd_set_bind_group(cmd, 1, p->frame_group, &p->frame_offset, 1);
    if (!res && p->lit) res = hl_rhi_cmd_set_bind_group(cmd, 2, p->atlas_group, NULL, 0);
    if (!res) res = hl_rhi_cmd_draw(cmd, 3, 1, 0, 0);
    if (!res) res = hl_rhi_cmd_end_render_pass(cmd);
    return res;
}

/* A 256-byte-aligned slot of the parameter buffer, grown (the old one retired) when full. */
hl_result hl__params_slot(hl_renderer *r, const void *data, uint32_t size, uint32_t *offset) {
    uint32_t need = r->fs_params_used + ((size + 255u) & ~255u);
    if (need > r->fs_params_capacity) {
        uint32_t cap = r->fs_params_capacity ? r->fs_params_capacity : 4096u;
        while (cap < need) cap *= 2;
        if (cap > (64u << 20)) return hl__fail(HL_ERR_VALIDATION, "passes: too many parameter bytes in one frame");
        hl_rhi_buffer nb;
        hl_rhi_buffer_desc bd = {cap, HL_RHI_BUFFER_USAGE_UNIFORM | HL_RHI_BUFFER_USAGE_COPY_DST, NULL, "pass params"};
        hl_result res = hl_rhi_buffer_create(r->dev, &bd, &nb);
        if (res) return res;
        if (r->fs_params.id && (res = hl__retire_buffer(r, r->fs_params))) {
            hl_rhi_buffer_destroy(r->dev, nb);
            return res;
        }
        r->fs_params = nb;
        r->fs_params_capacity = cap;
        r->fs_params_used = 0; /* earlier passes of this frame keep the retired buffer */
        need = (size + 255u) & ~255u;
    }
    *offset = r->fs_params_used;
    r->fs_params_used = need;
    return hl_graph_upload_buffer(r->graph, r->fs_params, *offset, data, size, NULL, 0);
}

hl_result hl__add_fullscreen_pass(hl_renderer *r, const hl__fullscreen_desc *d) {
    const char *name = d->name ? d->name : "fullscreen";
    if (!d->fragment) return hl__fail(HL_ERR_VALIDATION, "fullscreen pass '%s': fragment is NULL", name);
    if (d->input_count > HL__FULLSCREEN_MAX_INPUTS || d->output_count < 1 || d->output_count > 4)
        return hl__fail(HL_ERR_VALIDATION, "fullscreen pass '%s': %u inputs (at most %u), %u outputs (1..4)", name,
                        d->input_count, HL__FULLSCREEN_MAX_INPUTS, d->output_count);
    if (d->params_size > HL__FULLSCREEN_MAX_PARAMS || (d->params_size && !d->params))
        return hl__fail(HL_ERR_VALIDATION, "fullscreen pass '%s': params_size %u (at most %u, with params)", name,
                        d->params_size, HL__FULLSCREEN_MAX_PARAMS);
    for (uint32_t i = 0; i < d->input_count; i++) {
        if (!d->input_names[i] || !d->input_names[i][0])
            return hl__fail(HL_ERR_VALIDATION, "fullscreen pass '%s': input %u has no name", name, i);
        for (uint32_t k = 0; k < i; k++)
            if (!strcmp(d->input_names[i], d->input_names[k]))
                return hl__fail(HL_ERR_VALIDATION, "fullscreen pass '%s': input name '%s' twice", name, d->input_names[i]);
        const hl_rhi_texture_desc *td = hl_graph_texture_desc(r->graph, d->inputs[i]);
        if (!td) return hl__fail(HL_ERR_VALIDATION, "fullscreen pass '%s': input '%s' is not a texture of this frame", name,
                                 d->input_names[i]);
        const hl_rhi_format_caps *fc = &hl_rhi_device_caps(r->dev)->formats[td->format];
        if (td->sample_count > 1 || !(fc->flags & HL_RHI_FORMAT_CAP_FILTERABLE))
            return hl__fail(HL_ERR_VALIDATION,
                            "fullscreen pass '%s': input '%s' is not filterable-sampled (single-sample RGBA8, RGBA8 sRGB, "
                            "RGBA16F or R8)",
                            name, d->input_names[i]);
        for (uint32_t o = 0; o < d->output_count; o++)
            if (d->outputs[o].id == d->inputs[i].id)
                return hl__fail(HL_ERR_VALIDATION, "fullscreen pass '%s': texture '%s' is both input and output", name,
                                d->input_names[i]);
    }
    hl__pipeline_key k;
    memset(&k, 0, sizeof k);
    uint32_t w = 0, h = 0;
    for (uint32_t i = 0; i < d->output_count; i++) {
        const hl_rhi_texture_desc *td = hl_graph_texture_desc(r->graph, d->outputs[i]);
        if (!td) return hl__fail(HL_ERR_VALIDATION, "fullscreen pass '%s': output %u is not a texture of this frame", name, i);
        if (td->sample_count > 1 || td->format >= HL_RHI_FORMAT_DEPTH16_UNORM)
            return hl__fail(HL_ERR_VALIDATION, "fullscreen pass '%s': output %u is %s", name, i,
                            td->sample_count > 1 ? "multisampled" : "a depth texture");
        if (i && (td->width != w || td->height != h))
            return hl__fail(HL_ERR_VALIDATION, "fullscreen pass '%s': outputs differ in size", name);
        w = td->width, h = td->height;
        k.color_formats[i] = td->format;
    }
    /* the resolved texture read after scene passes into the samples: resolve first; any
       waiting scene pass goes in before this one */
    hl_result res0 = d->reads_target ? hl__target_resolve_now(r, d->reads_target) : hl__scene_flush(r, false, false);
    if (res0) return res0;
    hl__fullscreen_desc dd = *d;
    dd.name = name;
    hl__program *p = NULL;
    hl_result res = program_get(r, &dd, &p);
    if (res) return res;
    const hl_shader_block *pb = hl_shader_program_find_block(&p->prog, "Params");
    if (pb && d->params_size < pb->size)
        return hl__fail(HL_ERR_VALIDATION, "fullscreen pass '%s': params_size %u is smaller than block Params (%u bytes)",
                        name, d->params_size, pb->size);
    k.program_id = p->id;
    k.color_count = d->output_count;
    k.sample_count = 1;
    k.topology = HL_RHI_TOPOLOGY_TRIANGLE_LIST;
    hl__pipeline_entry *pe = NULL;
    if ((res = hl__pipeline_get(r, p, &k, &pe))) return res;
    fs_pass fp;
    memset(&fp, 0, sizeof fp);
    fp.r = r;
    fp.p = p;
    fp.pipeline = pe->pipeline;
    fp.input_count = d->input_count;
    const hl_shader_reflection *refl = &p->prog.reflection;
    for (uint32_t i = 0; i < d->input_count; i++) {
        fp.inputs[i] = d->inputs[i];
        for (uint32_t t = 0; t < refl->texture_count; t++)
            if (!strcmp(refl->textures[t].name, d->input_names[i])) fp.input_binding[i] = 1 + 2 * i;
    }
    fp.output_count = d->output_count;
    memcpy(fp.outputs, d->outputs, sizeof fp.outputs);
    if (d->lighting_view) {
        const hl__view *v = &r->views[d->lighting_view - 1];
        hl_rhi_bind_group_entry e[2];
        memset(e, 0, sizeof e);
        e[0].binding = 0;
        e[0].buffer = r->frame_ubo;
        e[0].size = sizeof(hl__frame_block);
        if ((res = hl__owned_group_get(r, &r->fs_frame_group, p, 1, e, 1, "fullscreen frame"))) return res;
        hl_rhi_bind_group_entry a[6];
        memset(a, 0, sizeof a);
        a[0].binding = 0, a[0].view = r->atlas_view;
        a[1].binding = 1, a[1].sampler = r->atlas_sampler;
        if (v->env) {
            a[2].binding = 2, a[2].view = v->env->view;
            a[3].binding = 3, a[3].sampler = r->env_cube_sampler;
            a[4].binding = 4, a[4].view = r->env_brdf_view;
            a[5].binding = 5, a[5].sampler = r->env_lut_sampler;
        }
        hl__owned_group *og = v->env ? &r->fs_env_atlas_group : &r->fs_atlas_group;
        if ((res = hl__owned_group_get(r, og, p, 2, a, v->env ? 6 : 2, "fullscreen shadow atlas"))) return res;
        fp.lit = true;
        fp.frame_group = r->fs_frame_group.group;
        fp.atlas_group = og->group;
        fp.frame_offset = v->frame_slot * HL__FRAME_STRIDE;
        if (v->shadow_count) fp.atlas = r->views[v->shadow_view].atlas;
    }
    if (pb) {
        fp.params_size = pb->size;
        if ((res = hl__params_slot(r, d->params, pb->size, &fp.params_offset))) return res;
        fp.params = r->fs_params;
    }
    hl_graph_pass gp = hl_graph_add_pass(r->graph, name, HL_GRAPH_PASS_RENDER, setup_fs, prepare_fs, exec_fs, &fp, sizeof fp);
    if (!gp.id) return hl_last_error_code() ? hl_last_error_code() : HL_ERR_VALIDATION;
    if (d->writes_target) d->writes_target->resolve_pending = false; /* this pass wrote the resolved texture last */
    return HL_OK;
}

/* ---- copies ------------------------------------------------------------------------------------------------ */
typedef struct copy_pass {
    hl_graph_texture src, dst;
} copy_pass;

static hl_result setup_copy(hl_graph_pass_builder *b, void *params, void *user) {
    copy_pass *p = params;
    *p = *(const copy_pass *)user;
    return hl_graph_copy_texture(b, p->src, p->dst);
}

static hl_result exec_copy(hl_graph_ctx *ctx, void *params, void *user) {
    (void)user;
    copy_pass *p = params;
    hl_rhi_texture_region region = {0};
    return hl_rhi_cmd_copy_texture_to_texture(hl_graph_ctx_cmd(ctx), hl_graph_ctx_texture(ctx, p->src), &region,
                                              hl_graph_ctx_texture(ctx, p->dst), 0, 0, 0, 0);
}

hl_result hl__add_copy_pass(hl_renderer *r, const char *name, hl_graph_texture src, hl_graph_texture dst,
                            hl_render_target *reads_target, hl_render_target *writes_target) {
    name = name ? name : "copy";
    const hl_rhi_texture_desc *s = hl_graph_texture_desc(r->graph, src), *d = hl_graph_texture_desc(r->graph, dst);
    if (!s || !d) return hl__fail(HL_ERR_VALIDATION, "copy pass '%s': a texture is not one of this frame", name);
    if (src.id == dst.id) return hl__fail(HL_ERR_VALIDATION, "copy pass '%s': source and destination are one texture", name);
    if (s->format != d->format || s->width != d->width || s->height != d->height || s->sample_count > 1 ||
        d->sample_count > 1 || s->format >= HL_RHI_FORMAT_DEPTH16_UNORM)
        return hl__fail(HL_ERR_VALIDATION,
                        "copy pass '%s': the textures must be single-sample colour textures of one format and size "
                        "(%ux%u and %ux%u)",
                        name, s->width, s->height, d->width, d->height);
    hl_result res = reads_target ? hl__target_resolve_now(r, reads_target) : hl__scene_flush(r, false, false);
    if (res) return res;
    copy_pass cp = {src, dst};
    hl_graph_pass gp = hl_graph_add_pass(r->graph, name, HL_GRAPH_PASS_COPY, setup_copy, NULL, exec_copy, &cp, sizeof cp);
    if (!gp.id) return hl_last_error_code() ? hl_last_error_code() : HL_ERR_VALIDATION;
    if (writes_target) writes_target->resolve_pending = false;
    return HL_OK;
}

/* ---- clears ------------------------------------------------------------------------------------------------ */
static hl_result setup_clear(hl_graph_pass_builder *b, void *params, void *user) {
    (void)user;
    hl_graph_texture t = *(const hl_graph_texture *)params;
    hl_graph_color_attachment_desc c = {0};
    c.load_op = HL_RHI_LOAD_CLEAR;
    c.store_op = HL_RHI_STORE_STORE;
    return hl_graph_color_attachment(b, 0, t, &c);
}

static hl_result setup_clear_params(hl_graph_pass_builder *b, void *params, void *user) {
    *(hl_graph_texture *)params = *(const hl_graph_texture *)user;
    return setup_clear(b, params, NULL);
}

static hl_result exec_clear(hl_graph_ctx *ctx, void *params, void *user) {
    (void)params, (void)user;
    hl_result res = hl_graph_ctx_begin_render_pass(ctx);
    if (!res) res = hl_rhi_cmd_end_render_pass(hl_graph_ctx_cmd(ctx));
    return res;
}

hl_result hl__add_clear_pass(hl_renderer *r, const char *name, hl_graph_texture tex) {
    hl_result res = hl__scene_flush(r, false, false);
    if (res) return res;
    hl_graph_pass gp = hl_graph_add_pass(r->graph, name ? name : "clear", HL_GRAPH_PASS_RENDER, setup_clear_params, NULL,
                                         exec_clear, &tex, sizeof tex);
    return gp.id ? HL_OK : hl_last_error_code() ? hl_last_error_code() : HL_ERR_VALIDATION;
}
