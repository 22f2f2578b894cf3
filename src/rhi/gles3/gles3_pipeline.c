/* Shaders, programs, render pipelines, samplers and bind groups.
 *
 * A pipeline is a linked program plus fixed state. Programs are shared by pipelines with the
 * same vertex + fragment shaders. Binding points come from the shaders' binding plans: the
 * program's uniform blocks, sorted by (group, binding), get consecutive UBO binding points;
 * each combined sampler of the plan gets its own texture unit that takes the texture from
 * (group, binding) and the sampler object from (group, sampler_binding). Bind groups are
 * resolved (buffer names, ranges, sampler names) at creation and applied at draw time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gles3_internal.h"

#ifndef GL_TEXTURE_MAX_ANISOTROPY_EXT
#define GL_TEXTURE_MAX_ANISOTROPY_EXT 0x84FE
#endif

/* ---- shaders --------------------------------------------------------------------------------- */
#define HL__GL_USER_MAIN "hl_gles3_user_main"

/* The vertex stage's y flip (see gles3_internal.h): `main` is renamed right after #version and
 * a wrapper main negates gl_Position.y after calling it. */
static char *hl__flip_vertex_source(const char *src) {
    static const char define[] = "#define main " HL__GL_USER_MAIN "\n";
    static const char tail[] = "\n#undef main\nvoid main() {\n    " HL__GL_USER_MAIN
                               "();\n    gl_Position.y = -gl_Position.y;\n}\n";
    size_t n = strlen(src);
    size_t split = 0;
    const char *v = strstr(src, "#version");
    if (v) {
        const char *nl = strchr(v, '\n');
        split = nl ? (size_t)(nl - src) + 1u : n;
    }
    char *out = hl__malloc(n + sizeof define + sizeof tail + 2u);
    if (!out) return NULL;
    size_t o = 0;
    memcpy(out, src, split);
    o += split;
    if (split && out[split - 1] != '\n') out[o++] = '\n';
    memcpy(out + o, define, sizeof define - 1u);
    o += sizeof define - 1u;
    memcpy(out + o, src + split, n - split);
    o += n - split;
    memcpy(out + o, tail, sizeof tail);
    return out;
}

static void hl__free_plan(hl__gl_shader *s) {
    for (uint32_t i = 0; i < s->plan_count; i++) hl__free((void *)s->plan[i].name);
    hl__free(s->plan);
    s->plan = NULL;
    s->plan_count = 0;
}

hl_result hl__gl_shader_create(hl_rhi_device *dev, const hl_rhi_shader_desc *desc, hl__shader *shader) {
    if (desc->stage == HL_RHI_SHADER_COMPUTE)
        return hl__fail(HL_ERR_UNSUPPORTED, "gles3: OpenGL ES 3.0 has no compute shaders (desc.stage)");
    if (!desc->glsl) return hl__fail(HL_ERR_VALIDATION, "gles3: shader desc.glsl is NULL (GLSL ES 3.00 source needed)");
    hl__gl_make_current(dev);
    hl__gl_device *g = hl__gl(dev);
    hl__gl_shader *s = hl__calloc(1, sizeof *s);
    if (!s) return hl__fail(HL_ERR_OUT_OF_MEMORY, "gles3: out of memory for a shader");
    s->stage = desc->stage;
    s->uid = g->next_shader_uid++;
    if (desc->binding_plan_count) {
        s->plan = hl__calloc(desc->binding_plan_count, sizeof *s->plan);
        if (!s->plan) {
            hl__free(s);
            return hl__fail(HL_ERR_OUT_OF_MEMORY, "gles3: out of memory for a binding plan");
        }
        for (uint32_t i = 0; i < desc->binding_plan_count; i++) {
            s->plan[i] = desc->binding_plan[i];
            s->plan[i].name = hl__strdup(desc->binding_plan[i].name ? desc->binding_plan[i].name : "");
            s->plan_count = i + 1u;
            if (!s->plan[i].name) {
                hl__free_plan(s);
                hl__free(s);
                return hl__fail(HL_ERR_OUT_OF_MEMORY, "gles3: out of memory for a binding plan");
            }
        }
    }
    char *flipped = NULL;
    const char *source = desc->glsl;
    if (desc->stage == HL_RHI_SHADER_VERTEX) {
        flipped = hl__flip_vertex_source(desc->glsl);
        if (!flipped) {
            hl__free_plan(s);
            hl__free(s);
            return hl__fail(HL_ERR_OUT_OF_MEMORY, "gles3: out of memory for shader source");
        }
        source = flipped;
    }
    GLenum type = desc->stage == HL_RHI_SHADER_VERTEX ? GL_VERTEX_SHADER : GL_FRAGMENT_SHADER;
    s->name = HL__GL(dev, glCreateShader(type));
    HL__GL(dev, glShaderSource(s->name, 1, &source, NULL));
    HL__GL(dev, glCompileShader(s->name));
    hl__free(flipped);
    GLint ok = 0;
    HL__GL(dev, glGetShaderiv(s->name, GL_COMPILE_STATUS, &ok));
    if (!ok) {
        char log[1024] = {0};
        HL__GL(dev, glGetShaderInfoLog(s->name, (GLsizei)sizeof log, NULL, log));
        HL__GL(dev, glDeleteShader(s->name));
        hl__free_plan(s);
        hl__free(s);
        return hl__fail(HL_ERR_SHADER, "gles3: %s shader%s%s does not compile: %s",
                        type == GL_VERTEX_SHADER ? "vertex" : "fragment", desc->label ? " " : "",
                        desc->label ? desc->label : "", log);
    }
    shader->be.ptr = s;
    return HL_OK;
}

static void hl__program_release(hl_rhi_device *dev, hl__gl_program *prog);

void hl__gl_shader_destroy(hl_rhi_device *dev, hl__shader *shader) {
    hl__gl_shader *s = shader->be.ptr;
    if (!s) return;
    if (dev->be) {
        hl__gl_make_current(dev);
        HL__GL(dev, glDeleteShader(s->name));
        /* programs linked for introspection that no pipeline took: nothing can use them now */
        hl__gl_device *g = hl__gl(dev);
        for (hl__gl_program *p = g->programs, *next; p; p = next) {
            next = p->next;
            if (!p->refs && (p->vs_uid == s->uid || p->fs_uid == s->uid)) hl__program_release(dev, p);
        }
    }
    hl__free_plan(s);
    hl__free(s);
    shader->be.ptr = NULL;
}

/* ---- programs -------------------------------------------------------------------------------- */
static int hl__ubo_cmp(const void *a, const void *b) {
    const uint32_t *x = a, *y = b;
    if (x[0] != y[0]) return x[0] < y[0] ? -1 : 1;
    if (x[1] != y[1]) return x[1] < y[1] ? -1 : 1;
    return 0;
}

static hl_result hl__program_link(hl_rhi_device *dev, hl__gl_shader *vs, hl__gl_shader *fs, hl__gl_program **out) {
    hl__gl_device *g = hl__gl(dev);
    hl__gl_program *p = hl__calloc(1, sizeof *p);
    if (!p) return hl__fail(HL_ERR_OUT_OF_MEMORY, "gles3: out of memory for a program");
    p->vs_uid = vs->uid;
    p->fs_uid = fs ? fs->uid : 0;
    p->name = HL__GL(dev, glCreateProgram());
    HL__GL(dev, glAttachShader(p->name, vs->name));
    if (fs) {
        HL__GL(dev, glAttachShader(p->name, fs->name));
    } else {
        if (!g->depth_only_fs) {
            static const char *src = "#version 300 es\nvoid main() {}\n";
            g->depth_only_fs = HL__GL(dev, glCreateShader(GL_FRAGMENT_SHADER));
            HL__GL(dev, glShaderSource(g->depth_only_fs, 1, &src, NULL));
            HL__GL(dev, glCompileShader(g->depth_only_fs));
        }
        HL__GL(dev, glAttachShader(p->name, g->depth_only_fs));
    }
    HL__GL(dev, glLinkProgram(p->name));
    GLint ok = 0;
    HL__GL(dev, glGetProgramiv(p->name, GL_LINK_STATUS, &ok));
    if (!ok) {
        char log[1024] = {0};
        HL__GL(dev, glGetProgramInfoLog(p->name, (GLsizei)sizeof log, NULL, log));
        HL__GL(dev, glDeleteProgram(p->name));
        hl__free(p);
        return hl__fail(HL_ERR_SHADER, "gles3: program does not link: %s", log);
    }

    hl__gl_shader *stages[2] = {vs, fs};
    /* Uniform blocks: distinct (group, binding), sorted, one binding point each. */
    uint32_t pairs[HL__GL_MAX_PROGRAM_UBOS][2];
    uint32_t npairs = 0;
    for (int st = 0; st < 2; st++) {
        const hl__gl_shader *s = stages[st];
        for (uint32_t i = 0; s && i < s->plan_count; i++) {
            const hl_rhi_binding_plan_entry *e = &s->plan[i];
            if (e->kind != HL_RHI_PLAN_UNIFORM_BLOCK) continue;
            bool seen = false;
            for (uint32_t k = 0; k < npairs; k++) seen |= pairs[k][0] == e->group && pairs[k][1] == e->binding;
            if (seen) continue;
            if (npairs == HL__GL_MAX_PROGRAM_UBOS || npairs == g->ubo_slots) {
                HL__GL(dev, glDeleteProgram(p->name));
                hl__free(p);
                return hl__fail(HL_ERR_UNSUPPORTED, "gles3: the program uses more than %u uniform blocks",
                                npairs);
            }
            pairs[npairs][0] = e->group;
            pairs[npairs][1] = e->binding;
            npairs++;
        }
    }
    qsort(pairs, npairs, sizeof pairs[0], hl__ubo_cmp);
    p->ubo_count = npairs;
    for (uint32_t k = 0; k < npairs; k++) {
        p->ubo[k].group = pairs[k][0];
        p->ubo[k].binding = pairs[k][1];
        if (pairs[k][0] < 8) p->group_mask |= (uint8_t)(1u << pairs[k][0]);
    }
    hl__gl_use_program(dev, p->name);
    for (int st = 0; st < 2; st++) {
        const hl__gl_shader *s = stages[st];
        for (uint32_t i = 0; s && i < s->plan_count; i++) {
            const hl_rhi_binding_plan_entry *e = &s->plan[i];
            if (e->kind == HL_RHI_PLAN_UNIFORM_BLOCK) {
                GLuint index = HL__GL(dev, glGetUniformBlockIndex(p->name, e->name));
                if (index == GL_INVALID_INDEX) continue; /* optimised out */
                for (uint32_t k = 0; k < npairs; k++)
                    if (p->ubo[k].group == e->group && p->ubo[k].binding == e->binding)
                        HL__GL(dev, glUniformBlockBinding(p->name, index, k));
            } else if (e->kind == HL_RHI_PLAN_SAMPLER) {
                GLint loc = HL__GL(dev, glGetUniformLocation(p->name, e->name));
                if (loc < 0) continue; /* unused in this program */
                bool seen = false;
                for (int ps = 0; ps < st && !seen; ps++) {
                    const hl__gl_shader *o = stages[ps];
                    for (uint32_t j = 0; o && j < o->plan_count; j++)
                        if (o->plan[j].kind == HL_RHI_PLAN_SAMPLER && strcmp(o->plan[j].name, e->name) == 0) seen = true;
                }
                for (uint32_t j = 0; j < i && !seen; j++)
                    if (s->plan[j].kind == HL_RHI_PLAN_SAMPLER && strcmp(s->plan[j].name, e->name) == 0) seen = true;
                if (seen) continue; /* the same uniform listed by both stages */
                if (p->unit_count >= g->draw_units) {
                    HL__GL(dev, glDeleteProgram(p->name));
                    hl__gl_use_program(dev, 0);
                    hl__free(p);
                    return hl__fail(HL_ERR_UNSUPPORTED, "gles3: the program uses more than %u samplers",
                                    g->draw_units);
                }
                uint32_t unit = p->unit_count++;
                p->unit[unit].group = e->group;
                p->unit[unit].binding = e->binding;
                p->unit[unit].sampler_binding = e->sampler_binding;
                if (e->group < 8) p->group_mask |= (uint8_t)(1u << e->group);
                HL__GL(dev, glUniform1i(loc, (GLint)unit));
            }
        }
    }
    *out = p;
    return HL_OK;
}

/* A program linked for introspection alone has no references: it waits in the list for the
 * pipelines of its shaders, and goes when one of its shaders is destroyed. */
hl_result hl__gl_program_find_or_link(hl_rhi_device *dev, hl__gl_shader *vs, hl__gl_shader *fs, hl__gl_program **out) {
    hl__gl_device *g = hl__gl(dev);
    uint64_t fs_uid = fs ? fs->uid : 0;
    for (hl__gl_program *p = g->programs; p; p = p->next) {
        if (p->vs_uid == vs->uid && p->fs_uid == fs_uid) {
            *out = p;
            return HL_OK;
        }
    }
    hl_result r = hl__program_link(dev, vs, fs, out);
    if (r) return r;
    (*out)->refs = 0;
    (*out)->next = g->programs;
    g->programs = *out;
    return HL_OK;
}

static hl_result hl__program_acquire(hl_rhi_device *dev, hl__gl_shader *vs, hl__gl_shader *fs, hl__gl_program **out) {
    hl_result r = hl__gl_program_find_or_link(dev, vs, fs, out);
    if (!r) (*out)->refs++;
    return r;
}

static void hl__program_release(hl_rhi_device *dev, hl__gl_program *prog) {
    hl__gl_device *g = hl__gl(dev);
    if (prog->refs && --prog->refs) return;
    for (hl__gl_program **pp = &g->programs; *pp; pp = &(*pp)->next) {
        if (*pp == prog) {
            *pp = prog->next;
            break;
        }
    }
    if (g->st.program == prog->name) hl__gl_use_program(dev, 0);
    if (g->applied_program == prog) g->applied_program = NULL;
    HL__GL(dev, glDeleteProgram(prog->name));
    hl__free(prog);
}

void hl__gl_programs_release(hl_rhi_device *dev) {
    hl__gl_device *g = hl__gl(dev);
    while (g->programs) {
        hl__gl_program *p = g->programs;
        g->programs = p->next;
        HL__GL(dev, glDeleteProgram(p->name));
        hl__free(p);
    }
}

/* ---- render pipelines ------------------------------------------------------------------------ */
static GLenum hl__compare(hl_rhi_compare c, GLenum def) {
    switch (c) {
    case HL_RHI_COMPARE_NEVER: return GL_NEVER;
    case HL_RHI_COMPARE_LESS: return GL_LESS;
    case HL_RHI_COMPARE_EQUAL: return GL_EQUAL;
    case HL_RHI_COMPARE_LESS_EQUAL: return GL_LEQUAL;
    case HL_RHI_COMPARE_GREATER: return GL_GREATER;
    case HL_RHI_COMPARE_NOT_EQUAL: return GL_NOTEQUAL;
    case HL_RHI_COMPARE_GREATER_EQUAL: return GL_GEQUAL;
    case HL_RHI_COMPARE_ALWAYS: return GL_ALWAYS;
    default: return def;
    }
}

static GLenum hl__stencil_op(hl_rhi_stencil_op op) {
    switch (op) {
    case HL_RHI_STENCIL_ZERO: return GL_ZERO;
    case HL_RHI_STENCIL_REPLACE: return GL_REPLACE;
    case HL_RHI_STENCIL_INVERT: return GL_INVERT;
    case HL_RHI_STENCIL_INCREMENT_CLAMP: return GL_INCR;
    case HL_RHI_STENCIL_DECREMENT_CLAMP: return GL_DECR;
    case HL_RHI_STENCIL_INCREMENT_WRAP: return GL_INCR_WRAP;
    case HL_RHI_STENCIL_DECREMENT_WRAP: return GL_DECR_WRAP;
    default: return GL_KEEP;
    }
}

static GLenum hl__blend_factor(hl_rhi_blend_factor f, GLenum def) {
    switch (f) {
    case HL_RHI_BLEND_ZERO: return GL_ZERO;
    case HL_RHI_BLEND_ONE: return GL_ONE;
    case HL_RHI_BLEND_SRC: return GL_SRC_COLOR;
    case HL_RHI_BLEND_ONE_MINUS_SRC: return GL_ONE_MINUS_SRC_COLOR;
    case HL_RHI_BLEND_SRC_ALPHA: return GL_SRC_ALPHA;
    case HL_RHI_BLEND_ONE_MINUS_SRC_ALPHA: return GL_ONE_MINUS_SRC_ALPHA;
    case HL_RHI_BLEND_DST: return GL_DST_COLOR;
    case HL_RHI_BLEND_ONE_MINUS_DST: return GL_ONE_MINUS_DST_COLOR;
    case HL_RHI_BLEND_DST_ALPHA: return GL_DST_ALPHA;
    case HL_RHI_BLEND_ONE_MINUS_DST_ALPHA: return GL_ONE_MINUS_DST_ALPHA;
    case HL_RHI_BLEND_CONSTANT: return GL_CONSTANT_COLOR;
    case HL_RHI_BLEND_ONE_MINUS_CONSTANT: return GL_ONE_MINUS_CONSTANT_COLOR;
    default: return def;
    }
}

static GLenum hl__blend_op(hl_rhi_blend_op op) {
    switch (op) {
    case HL_RHI_BLEND_OP_SUBTRACT: return GL_FUNC_SUBTRACT;
    case HL_RHI_BLEND_OP_REVERSE_SUBTRACT: return GL_FUNC_REVERSE_SUBTRACT;
    case HL_RHI_BLEND_OP_MIN: return GL_MIN;
    case HL_RHI_BLEND_OP_MAX: return GL_MAX;
    default: return GL_FUNC_ADD;
    }
}

static GLenum hl__topology(hl_rhi_topology t) {
    switch (t) {
    case HL_RHI_TOPOLOGY_TRIANGLE_STRIP: return GL_TRIANGLE_STRIP;
    case HL_RHI_TOPOLOGY_LINE_LIST: return GL_LINES;
    case HL_RHI_TOPOLOGY_LINE_STRIP: return GL_LINE_STRIP;
    case HL_RHI_TOPOLOGY_POINT_LIST: return GL_POINTS;
    default: return GL_TRIANGLES;
    }
}

/* Interns the vertex layout: VAO cache keys name it by index. */
static hl_result hl__intern_layout(hl_rhi_device *dev, const hl__render_pipeline_info *info, uint32_t *out) {
    hl__gl_device *g = hl__gl(dev);
    hl__gl_vertex_layout l;
    memset(&l, 0, sizeof l);
    l.buffer_count = info->vertex_buffer_count;
    uint32_t a = 0;
    for (uint32_t b = 0; b < info->vertex_buffer_count && b < HL_RHI_MAX_VERTEX_BUFFERS; b++) {
        l.stride[b] = info->vb_stride[b];
        l.per_instance[b] = info->vb_per_instance[b];
        for (uint32_t k = 0; k < info->vb_attribute_count[b] && a < info->attribute_count &&
                             a < HL_RHI_MAX_VERTEX_ATTRIBUTES;
             k++, a++) {
            l.attr[a].format = (uint32_t)info->attributes[a].format;
            l.attr[a].offset = info->attributes[a].offset;
            l.attr[a].location = info->attributes[a].location;
            l.attr[a].buffer = b;
        }
    }
    l.attr_count = a;
    for (uint32_t i = 0; i < g->layout_count; i++) {
        if (memcmp(&g->layouts[i], &l, sizeof l) == 0) {
            *out = i;
            return HL_OK;
        }
    }
    void *arr = g->layouts;
    if (!hl__reserve(&arr, &g->layout_capacity, g->layout_count + 1u, sizeof l)) return HL_ERR_OUT_OF_MEMORY;
    g->layouts = arr;
    g->layouts[g->layout_count] = l;
    *out = g->layout_count++;
    return HL_OK;
}

hl_result hl__gl_render_pipeline_create(hl_rhi_device *dev, const hl__render_pipeline_info *info, hl__native *be) {
    hl__gl_make_current(dev);
    hl__shader *vs_obj = hl__pool_get(dev, HL__POOL_SHADER, info->vertex.id);
    hl__shader *fs_obj = info->fragment.id ? hl__pool_get(dev, HL__POOL_SHADER, info->fragment.id) : NULL;
    if (!vs_obj || !vs_obj->be.ptr) return hl__fail(HL_ERR_VALIDATION, "gles3: render pipeline: vertex shader is not live");
    if (info->fragment.id && (!fs_obj || !fs_obj->be.ptr))
        return hl__fail(HL_ERR_VALIDATION, "gles3: render pipeline: fragment shader is not live");
    hl__gl_pipeline *p = hl__calloc(1, sizeof *p);
    if (!p) return hl__fail(HL_ERR_OUT_OF_MEMORY, "gles3: out of memory for a pipeline");
    hl_result r = hl__intern_layout(dev, info, &p->layout_id);
    if (!r) r = hl__program_acquire(dev, vs_obj->be.ptr, fs_obj ? fs_obj->be.ptr : NULL, &p->prog);
    if (r) {
        hl__free(p);
        return r;
    }
    p->vertex_buffer_count = info->vertex_buffer_count;
    p->mode = hl__topology(info->topology);
    p->restart = info->topology == HL_RHI_TOPOLOGY_TRIANGLE_STRIP || info->topology == HL_RHI_TOPOLOGY_LINE_STRIP;
    p->cull = info->cull_mode != HL_RHI_CULL_NONE;
    p->cull_face = info->cull_mode == HL_RHI_CULL_FRONT ? GL_FRONT : GL_BACK;
    /* The vertex-stage y flip mirrors window-space winding: RHI CCW is GL CW. */
    p->front_face = info->front_face == HL_RHI_FRONT_CW ? GL_CCW : GL_CW;

    const hl_rhi_depth_stencil_state *ds = &info->depth_stencil;
    p->depth_test = ds->format != HL_RHI_FORMAT_UNDEFINED;
    p->depth_func = hl__compare(ds->depth_compare, ds->depth_write ? GL_LESS : GL_ALWAYS);
    p->depth_write = ds->depth_write ? GL_TRUE : GL_FALSE;
    p->stencil = ds->format != HL_RHI_FORMAT_UNDEFINED && ds->stencil_enabled;
    const hl_rhi_stencil_face *faces[2] = {&ds->stencil_front, &ds->stencil_back};
    for (int f = 0; f < 2; f++) {
        p->st_func[f] = hl__compare(faces[f]->compare, GL_ALWAYS);
        p->st_fail[f] = hl__stencil_op(faces[f]->fail_op);
        p->st_zfail[f] = hl__stencil_op(faces[f]->depth_fail_op);
        p->st_pass[f] = hl__stencil_op(faces[f]->pass_op);
    }
    p->st_read_mask = ds->stencil_read_mask ? ds->stencil_read_mask : 0xFFu;
    p->st_write_mask = ds->stencil_write_mask ? ds->stencil_write_mask : 0xFFu;
    p->poly_offset = ds->depth_bias != 0 || ds->depth_bias_slope_scale != 0.0f;
    p->poly_factor = ds->depth_bias_slope_scale;
    p->poly_units = (float)ds->depth_bias;

    /* GLES 3.0 has one blend state and one colour mask for all draw buffers: those of the first
     * written target (the core refuses pipelines whose written targets differ); a target written
     * not at all gets draw buffer GL_NONE while the pipeline is bound. */
    p->target_count = info->color_target_count;
    uint32_t first = info->color_target_count;
    for (uint32_t i = 0; i < info->color_target_count; i++) {
        if (info->color_targets[i].write_none) continue;
        p->draw_mask |= 1u << i;
        if (first == info->color_target_count) first = i;
    }
    if (first == info->color_target_count) {
        memset(p->color_mask, GL_FALSE, sizeof p->color_mask);
    } else {
        const hl_rhi_color_target_state *ct = &info->color_targets[first];
        p->blend = ct->blend_enabled;
        p->eq_rgb = hl__blend_op(ct->color.op);
        p->eq_a = hl__blend_op(ct->alpha.op);
        p->src_rgb = hl__blend_factor(ct->color.src_factor, GL_ONE);
        p->dst_rgb = hl__blend_factor(ct->color.dst_factor, GL_ZERO);
        p->src_a = hl__blend_factor(ct->alpha.src_factor, GL_ONE);
        p->dst_a = hl__blend_factor(ct->alpha.dst_factor, GL_ZERO);
        uint32_t m = ct->write_none ? 0u : (ct->write_mask ? ct->write_mask : HL_RHI_COLOR_WRITE_ALL);
        p->color_mask[0] = (m & HL_RHI_COLOR_WRITE_R) ? GL_TRUE : GL_FALSE;
        p->color_mask[1] = (m & HL_RHI_COLOR_WRITE_G) ? GL_TRUE : GL_FALSE;
        p->color_mask[2] = (m & HL_RHI_COLOR_WRITE_B) ? GL_TRUE : GL_FALSE;
        p->color_mask[3] = (m & HL_RHI_COLOR_WRITE_A) ? GL_TRUE : GL_FALSE;
    }
    p->a2c = info->alpha_to_coverage;
    be->ptr = p;
    return HL_OK;
}

void hl__gl_render_pipeline_destroy(hl_rhi_device *dev, hl__native be) {
    hl__gl_pipeline *p = be.ptr;
    if (!p) return;
    if (dev->be) {
        hl__gl_make_current(dev);
        if (hl__gl(dev)->pipeline == p) hl__gl(dev)->pipeline = NULL;
        hl__program_release(dev, p->prog);
    }
    hl__free(p);
}

/* ---- samplers -------------------------------------------------------------------------------- */
static GLenum hl__wrap(hl_rhi_address_mode m) {
    switch (m) {
    case HL_RHI_ADDRESS_REPEAT: return GL_REPEAT;
    case HL_RHI_ADDRESS_MIRROR_REPEAT: return GL_MIRRORED_REPEAT;
    default: return GL_CLAMP_TO_EDGE;
    }
}

hl_result hl__gl_sampler_create(hl_rhi_device *dev, const hl_rhi_sampler_desc *d, hl__native *be) {
    hl__gl_make_current(dev);
    hl__gl_device *g = hl__gl(dev);
    GLuint s = 0;
    HL__GL(dev, glGenSamplers(1, &s));
    if (!s) return hl__fail(HL_ERR_BACKEND, "gles3: glGenSamplers returned no name");
    bool min_linear = d->min_filter == HL_RHI_FILTER_LINEAR, mip_linear = d->mipmap_filter == HL_RHI_FILTER_LINEAR;
    GLenum min = min_linear ? (mip_linear ? GL_LINEAR_MIPMAP_LINEAR : GL_LINEAR_MIPMAP_NEAREST)
                            : (mip_linear ? GL_NEAREST_MIPMAP_LINEAR : GL_NEAREST_MIPMAP_NEAREST);
    GLenum mag = d->mag_filter == HL_RHI_FILTER_LINEAR ? GL_LINEAR : GL_NEAREST;
    HL__GL(dev, glSamplerParameteri(s, GL_TEXTURE_MIN_FILTER, (GLint)min));
    HL__GL(dev, glSamplerParameteri(s, GL_TEXTURE_MAG_FILTER, (GLint)mag));
    HL__GL(dev, glSamplerParameteri(s, GL_TEXTURE_WRAP_S, (GLint)hl__wrap(d->address_u)));
    HL__GL(dev, glSamplerParameteri(s, GL_TEXTURE_WRAP_T, (GLint)hl__wrap(d->address_v)));
    HL__GL(dev, glSamplerParameteri(s, GL_TEXTURE_WRAP_R, (GLint)hl__wrap(d->address_w)));
    HL__GL(dev, glSamplerParameterf(s, GL_TEXTURE_MIN_LOD, d->lod_min));
    HL__GL(dev, glSamplerParameterf(s, GL_TEXTURE_MAX_LOD, d->lod_max > 0.0f ? d->lod_max : 32.0f));
    if (d->compare != HL_RHI_COMPARE_UNDEFINED) {
        HL__GL(dev, glSamplerParameteri(s, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE));
        HL__GL(dev, glSamplerParameteri(s, GL_TEXTURE_COMPARE_FUNC, (GLint)hl__compare(d->compare, GL_LESS)));
    }
    if (g->aniso && d->max_anisotropy > 1) {
        float a = (float)d->max_anisotropy;
        if (a > g->max_aniso) a = g->max_aniso;
        HL__GL(dev, glSamplerParameterf(s, GL_TEXTURE_MAX_ANISOTROPY_EXT, a));
    }
    be->u64 = 0;
    be->u32[0] = s;
    return HL_OK;
}

void hl__gl_sampler_destroy(hl_rhi_device *dev, hl__native be) {
    GLuint s = be.u32[0];
    if (!s || !dev->be) return;
    hl__gl_make_current(dev);
    hl__gl_forget_sampler(dev, s);
    HL__GL(dev, glDeleteSamplers(1, &s));
}

/* ---- bind groups ----------------------------------------------------------------------------- */
hl_result hl__gl_bind_group_create(hl_rhi_device *dev, hl__bind_group *group, hl__bind_group_layout *layout) {
    hl__gl_bind_group *bg = hl__calloc(1, sizeof *bg);
    if (!bg) return hl__fail(HL_ERR_OUT_OF_MEMORY, "gles3: out of memory for a bind group");
    int8_t dynamic = 0;
    for (uint32_t i = 0; i < group->entry_count && i < HL_RHI_MAX_BINDINGS; i++) {
        const hl_rhi_bind_group_entry *src = &group->entries[i];
        const hl_rhi_bind_group_layout_entry *le = NULL;
        for (uint32_t k = 0; k < layout->entry_count; k++)
            if (layout->entries[k].binding == src->binding) le = &layout->entries[k];
        hl__gl_bg_entry *e = &bg->e[bg->count++];
        e->binding = src->binding;
        e->dynamic_index = -1;
        if (!le) continue;
        switch (le->type) {
        case HL_RHI_BINDING_UNIFORM_BUFFER: {
            hl__buffer *b = hl__pool_get(dev, HL__POOL_BUFFER, src->buffer.id);
            e->kind = HL__GL_BG_UBO;
            e->buffer = b ? b->be.u32[0] : 0;
            e->offset = (uint32_t)src->offset;
            e->size = (uint32_t)(src->size ? src->size : (b ? b->desc.size - src->offset : 0));
            break;
        }
        case HL_RHI_BINDING_SAMPLED_TEXTURE:
            e->kind = HL__GL_BG_TEXTURE;
            e->view_id = src->view.id;
            break;
        case HL_RHI_BINDING_SAMPLER:
        case HL_RHI_BINDING_COMPARISON_SAMPLER: {
            hl__sampler *s = hl__pool_get(dev, HL__POOL_SAMPLER, src->sampler.id);
            e->kind = HL__GL_BG_SAMPLER;
            e->sampler = s ? s->be.u32[0] : 0;
            break;
        }
        default:
            hl__free(bg);
            return hl__fail(HL_ERR_UNSUPPORTED, "gles3: binding %u: storage bindings do not exist in OpenGL ES 3.0",
                            src->binding);
        }
        if (le->has_dynamic_offset) e->dynamic_index = dynamic++;
    }
    group->be.ptr = bg;
    return HL_OK;
}

void hl__gl_bind_group_destroy(hl_rhi_device *dev, hl__bind_group *group) {
    hl__gl_bind_group *bg = group->be.ptr;
    if (!bg) return;
    hl__gl_device *g = hl__gl(dev);
    if (g)
        for (uint32_t i = 0; i < HL_RHI_MAX_BIND_GROUPS; i++)
            if (g->groups[i] == bg) g->groups[i] = NULL;
    hl__free(bg);
    group->be.ptr = NULL;
}
