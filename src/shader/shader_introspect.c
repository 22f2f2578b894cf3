/* Reflection without SPIR-V: what the declarations give at compile time, completed by the GL
 * driver's program introspection when the shaders exist (the browser build, which has neither
 * glslang nor SPIRV-Cross), and the check that compares it with SPIRV-Cross's reflection.
 *
 * The declarations name the blocks (with their plan bindings), the samplers, the vertex inputs
 * and the fragment outputs with the locations the toolchain gave them: the GL artifact carries
 * those locations explicitly, so they are known before any driver sees the text, and a
 * declared but unused input or sampler stays in the reflection as it does in SPIR-V's. The
 * driver adds what only a compiler knows: the std140 size of each block and its members'
 * offsets, strides and types (std140 blocks keep every member active). The driver's lists are
 * also checked against the declarations: an active block, sampler or input the scan did not
 * find, or an input at another location, is HL_ERR_SHADER. */
#include <stdio.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <string.h>

#include "shader_internal.h"

static _Atomic uint64_t g_checks;

uint64_t hl_shader_introspection_checks(void) { return g_checks; }

bool hl__shader_introspection_check(void) {
    const char *v = getenv("HL_SHADER_INTROSPECTION_CHECK");
    return v && v[0] == '1' && v[1] == '\0';
}

static hl_shader_type type_from_glsl(const char *t) {
    static const struct {
        const char *name;
        hl_shader_type type;
    } k[] = {
        {"float", HL_SHADER_TYPE_FLOAT}, {"vec2", HL_SHADER_TYPE_VEC2},   {"vec3", HL_SHADER_TYPE_VEC3},
        {"vec4", HL_SHADER_TYPE_VEC4},   {"int", HL_SHADER_TYPE_INT},     {"ivec2", HL_SHADER_TYPE_IVEC2},
        {"ivec3", HL_SHADER_TYPE_IVEC3}, {"ivec4", HL_SHADER_TYPE_IVEC4}, {"uint", HL_SHADER_TYPE_UINT},
        {"uvec2", HL_SHADER_TYPE_UVEC2}, {"uvec3", HL_SHADER_TYPE_UVEC3}, {"uvec4", HL_SHADER_TYPE_UVEC4},
        {"bool", HL_SHADER_TYPE_BOOL},   {"mat2", HL_SHADER_TYPE_MAT2},   {"mat3", HL_SHADER_TYPE_MAT3},
        {"mat4", HL_SHADER_TYPE_MAT4},   {"mat2x2", HL_SHADER_TYPE_MAT2}, {"mat3x3", HL_SHADER_TYPE_MAT3},
        {"mat4x4", HL_SHADER_TYPE_MAT4},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        if (strcmp(k[i].name, t) == 0)
            return k[i].type;
    return HL_SHADER_TYPE_UNKNOWN;
}

/* The hl_shader_type of a driver variable as SPIRV-Cross maps the SPIR-V type: non-square
 * matrices have none, and booleans, which SPIR-V stores in a block as 32-bit unsigned integers
 * (glslang's bool / bvecN members), are uint / uvecN. */
static hl_shader_type type_from_rhi(const hl_rhi_program_variable *v) {
    if (v->columns > 1)
        return v->scalar == HL_RHI_SCALAR_FLOAT && v->columns == v->rows && v->rows <= 4
                   ? (hl_shader_type)(HL_SHADER_TYPE_MAT2 + (v->columns - 2))
                   : HL_SHADER_TYPE_UNKNOWN;
    if (v->columns != 1 || v->rows < 1 || v->rows > 4)
        return HL_SHADER_TYPE_UNKNOWN;
    switch (v->scalar) {
    case HL_RHI_SCALAR_FLOAT: return (hl_shader_type)(HL_SHADER_TYPE_FLOAT + (v->rows - 1));
    case HL_RHI_SCALAR_INT: return (hl_shader_type)(HL_SHADER_TYPE_INT + (v->rows - 1));
    case HL_RHI_SCALAR_UINT:
    case HL_RHI_SCALAR_BOOL: return (hl_shader_type)(HL_SHADER_TYPE_UINT + (v->rows - 1));
    default: return HL_SHADER_TYPE_UNKNOWN;
    }
}

static void sort_io(hl_shader_io *list, uint32_t n) {
    for (uint32_t i = 1; i < n; i++)
        for (uint32_t j = i; j > 0 && list[j - 1].location > list[j].location; j--) {
            hl_shader_io t = list[j];
            list[j] = list[j - 1];
            list[j - 1] = t;
        }
}

static void add_io(hl_shader_io *list, uint32_t *count, const hl__sh_stage *st, bool inputs) {
    const hl__sh_item *items = inputs ? st->ins : st->outs;
    uint32_t n = inputs ? st->in_count : st->out_count;
    for (uint32_t i = 0; i < n; i++) {
        hl_shader_io *io = &list[(*count)++];
        memset(io, 0, sizeof *io);
        _Static_assert(sizeof io->name == sizeof items[i].name, "hl_shader_io and hl__sh_item names");
        memcpy(io->name, items[i].name, sizeof io->name);
        io->location = items[i].location >= 0 ? (uint32_t)items[i].location : 0u;
        io->type = type_from_glsl(items[i].type);
    }
    sort_io(list, *count);
}

static hl_result add_blocks(hl_shader_reflection *r, const hl__sh_stage *st, uint32_t bit,
                            const hl_rhi_binding_plan_entry *plan, uint32_t plan_count) {
    for (uint32_t i = 0; st && i < st->block_count; i++) {
        const hl__sh_item *it = &st->blocks[i];
        hl_shader_block *b = NULL;
        for (uint32_t k = 0; k < r->block_count; k++)
            if (strcmp(r->blocks[k].name, it->name) == 0)
                b = &r->blocks[k];
        if (b) {
            b->stages |= bit;
            continue;
        }
        const hl_rhi_binding_plan_entry *e = hl__plan_find(plan, plan_count, HL_RHI_PLAN_UNIFORM_BLOCK, it->name);
        if (!e)
            return hl__fail(HL_ERR_SHADER, "reflection: uniform block '%s' has no plan entry", it->name);
        b = &r->blocks[r->block_count++];
        memset(b, 0, sizeof *b);
        _Static_assert(sizeof b->name == sizeof it->name, "hl_shader_block and hl__sh_item names");
        memcpy(b->name, it->name, sizeof b->name);
        b->group = e->group;
        b->binding = e->binding;
        b->stages = bit;
        b->storage = it->storage;
    }
    return HL_OK;
}

hl_result hl__reflect_declared(const hl__sh_stage *vs, const hl__sh_stage *fs, const hl_rhi_binding_plan_entry *plan,
                               uint32_t plan_count, hl_shader_reflection *out) {
    memset(out, 0, sizeof *out);
    uint32_t nb = vs->block_count + (fs ? fs->block_count : 0), nt = vs->sampler_count + (fs ? fs->sampler_count : 0);
    uint32_t ni = vs->in_count, no = fs ? fs->out_count : 0;
    out->blocks = hl__calloc(nb ? nb : 1, sizeof *out->blocks);
    out->textures = hl__calloc(nt ? nt : 1, sizeof *out->textures);
    out->inputs = hl__calloc(ni ? ni : 1, sizeof *out->inputs);
    out->outputs = hl__calloc(no ? no : 1, sizeof *out->outputs);
    hl_result r = HL_OK;
    if (!out->blocks || !out->textures || !out->inputs || !out->outputs)
        r = hl__fail(HL_ERR_OUT_OF_MEMORY, "reflection: out of memory");
    if (!r)
        r = add_blocks(out, vs, HL_RHI_STAGE_VERTEX, plan, plan_count);
    if (!r)
        r = add_blocks(out, fs, HL_RHI_STAGE_FRAGMENT, plan, plan_count);
    if (!r)
        r = hl__reflect_add_textures(out, vs, HL_RHI_STAGE_VERTEX, plan, plan_count, nt);
    if (!r)
        r = hl__reflect_add_textures(out, fs, HL_RHI_STAGE_FRAGMENT, plan, plan_count, nt);
    if (!r) {
        add_io(out->inputs, &out->input_count, vs, true);
        if (fs)
            add_io(out->outputs, &out->output_count, fs, false);
    }
    if (r)
        hl__reflection_free(out);
    return r;
}

/* ---- block members from the driver's flat list ----------------------------------------------- */
/* The driver lists each leaf of a block: "m", "arr[0]" (a basic array), "s.f", "structs[1].f".
 * A top-level member is everything under one first name; its SPIR-V facts (offset, declared
 * size as SPIRV-Cross computes it, array size and stride) follow from the leaves below it. */
typedef struct member_list {
    const hl_rhi_program_info *info;
    int32_t block;
    size_t strip; /* length of the "Block." prefix the driver put on every name (0: none) */
} member_list;

static const char *leaf_name(const member_list *l, const hl_rhi_program_variable *v) { return v->name + l->strip; }

/* Whether name lies under prefix (the prefix is a whole path: what follows is '\0', '.' or '['). */
static bool under(const char *name, const char *prefix, size_t n) {
    return strncmp(name, prefix, n) == 0 && (name[n] == '\0' || name[n] == '.' || name[n] == '[');
}

typedef struct member_facts {
    uint64_t offset, size;
    uint32_t array_size, array_stride, matrix_stride;
    hl_shader_type type;
    bool found;
} member_facts;

static uint64_t leaf_bytes(const hl_rhi_program_variable *v) {
    if (v->columns > 1)
        return (uint64_t)v->matrix_stride * v->columns;
    return (uint64_t)v->rows * 4u; /* 32-bit components (booleans too) */
}

/* The facts of the member at path (e.g. "lights", "s.inner"), from the leaves under it. */
static void facts_of(const member_list *l, const char *path, member_facts *f, unsigned depth);

/* A struct's declared size as SPIRV-Cross computes it: the end of its last member (unpadded).
 * path is the struct's own path ("s", "lights[0]"). */
static uint64_t struct_extent(const member_list *l, const char *path, uint64_t base, unsigned depth) {
    size_t n = strlen(path);
    uint64_t end = base;
    char child[256];
    for (uint32_t i = 0; i < l->info->uniform_count; i++) {
        const hl_rhi_program_variable *v = &l->info->uniforms[i];
        if (v->block != l->block)
            continue;
        const char *name = leaf_name(l, v);
        if (!under(name, path, n) || name[n] != '.')
            continue;
        const char *c = name + n + 1;
        size_t cn = strcspn(c, ".[");
        if (n + 1 + cn >= sizeof child)
            continue;
        snprintf(child, sizeof child, "%.*s", (int)(n + 1 + cn), name);
        member_facts cf;
        facts_of(l, child, &cf, depth + 1);
        if (cf.found && cf.offset + cf.size > end)
            end = cf.offset + cf.size;
    }
    return end - base;
}

static void facts_of(const member_list *l, const char *path, member_facts *f, unsigned depth) {
    memset(f, 0, sizeof *f);
    if (depth > 16)
        return; /* GLSL ES structs nest far less deep; a driver list that does is refused by the caller */
    size_t n = strlen(path);
    const hl_rhi_program_variable *leaf = NULL;
    bool is_struct = false, is_struct_array = false;
    uint32_t count = 0;
    uint64_t first = UINT64_MAX, second = UINT64_MAX; /* smallest offsets of elements 0 and 1 */
    for (uint32_t i = 0; i < l->info->uniform_count; i++) {
        const hl_rhi_program_variable *v = &l->info->uniforms[i];
        if (v->block != l->block)
            continue;
        const char *name = leaf_name(l, v);
        if (!under(name, path, n))
            continue;
        const char *rest = name + n;
        if (rest[0] == '\0' || strcmp(rest, "[0]") == 0) {
            leaf = v;
            continue;
        }
        if (rest[0] == '.') {
            is_struct = true;
            if (v->offset < first)
                first = v->offset;
            continue;
        }
        /* "[k]" followed by ".": an array of structs */
        char *end = NULL;
        unsigned long k = strtoul(rest + 1, &end, 10);
        if (!end || end[0] != ']' || end[1] != '.' || k > 65535)
            continue;
        is_struct_array = true;
        if (k + 1 > count)
            count = (uint32_t)k + 1u;
        if (k == 0 && v->offset < first)
            first = v->offset;
        if (k == 1 && v->offset < second)
            second = v->offset;
    }
    if (leaf && !is_struct && !is_struct_array) {
        f->found = true;
        f->offset = leaf->offset;
        f->type = type_from_rhi(leaf);
        bool array = strcmp(leaf_name(l, leaf) + n, "[0]") == 0;
        f->matrix_stride = leaf->columns > 1 ? leaf->matrix_stride : 0u;
        if (array) {
            f->array_size = leaf->array_size;
            f->array_stride = leaf->array_stride;
            f->size = (uint64_t)leaf->array_stride * leaf->array_size;
        } else {
            f->size = leaf_bytes(leaf);
        }
        return;
    }
    if (leaf || first == UINT64_MAX)
        return; /* a name that is both a leaf and a struct: not a list a driver makes */
    f->found = true;
    f->type = HL_SHADER_TYPE_STRUCT;
    f->offset = first;
    if (!is_struct_array) {
        f->size = struct_extent(l, path, first, depth);
        return;
    }
    char element[256];
    snprintf(element, sizeof element, "%s[0]", path);
    uint64_t stride = count > 1 && second != UINT64_MAX && second > first
                          ? second - first
                          : (struct_extent(l, element, first, depth) + 15u) & ~(uint64_t)15u; /* std140 */
    f->array_size = count;
    f->array_stride = stride > UINT32_MAX ? UINT32_MAX : (uint32_t)stride;
    f->size = stride * count;
}

static int cmp_member_offset(const void *a, const void *b) {
    const hl_shader_block_member *x = a, *y = b;
    return x->offset < y->offset ? -1 : x->offset > y->offset ? 1 : 0;
}

/* Fills b's size and members from the driver's block bi. */
static hl_result block_from_driver(hl_shader_block *b, const hl_rhi_program_info *info, uint32_t bi) {
    member_list l = {info, (int32_t)bi, 0};
    /* "Block." in front of every member name: a block with an instance name */
    size_t bn = strlen(b->name);
    bool all_prefixed = true, any = false;
    for (uint32_t i = 0; i < info->uniform_count; i++) {
        const hl_rhi_program_variable *v = &info->uniforms[i];
        if (v->block != (int32_t)bi)
            continue;
        any = true;
        all_prefixed &= strncmp(v->name, b->name, bn) == 0 && v->name[bn] == '.';
    }
    if (any && all_prefixed)
        l.strip = bn + 1;
    uint32_t cap = 0;
    for (uint32_t i = 0; i < info->uniform_count; i++)
        cap += info->uniforms[i].block == (int32_t)bi;
    b->size = info->blocks[bi].data_size;
    if (!cap)
        return HL_OK;
    b->members = hl__calloc(cap, sizeof *b->members);
    if (!b->members)
        return hl__fail(HL_ERR_OUT_OF_MEMORY, "reflection: out of memory");
    uint64_t end = 0;
    for (uint32_t i = 0; i < info->uniform_count; i++) {
        const hl_rhi_program_variable *v = &info->uniforms[i];
        if (v->block != (int32_t)bi)
            continue;
        const char *name = leaf_name(&l, v);
        size_t tn = strcspn(name, ".[");
        char top[64];
        if (tn == 0 || tn >= sizeof top)
            return hl__fail(HL_ERR_SHADER, "reflection: uniform block '%s': the driver names a member '%s'", b->name,
                            v->name);
        memcpy(top, name, tn);
        top[tn] = '\0';
        bool seen = false;
        for (uint32_t k = 0; k < b->member_count && !seen; k++)
            seen = strcmp(b->members[k].name, top) == 0;
        if (seen)
            continue;
        member_facts f;
        facts_of(&l, top, &f, 0);
        if (!f.found)
            return hl__fail(HL_ERR_SHADER, "reflection: uniform block '%s': member '%s' is not a layout the toolchain "
                            "can read from the driver", b->name, top);
        uint64_t lim = HL_SHADER_MAX_UNIFORM_BLOCK_BYTES;
        if (f.size > lim || f.offset + f.size > lim)
            return hl__fail(HL_ERR_SHADER, "uniform block '%s': member '%s' ends past %u bytes "
                            "(HL_SHADER_MAX_UNIFORM_BLOCK_BYTES)", b->name, top, (unsigned)lim);
        hl_shader_block_member *m = &b->members[b->member_count++];
        snprintf(m->name, sizeof m->name, "%s", top);
        m->type = f.type;
        m->offset = (uint32_t)f.offset;
        m->size = (uint32_t)f.size;
        m->array_size = f.array_size;
        m->array_stride = f.array_stride;
        m->matrix_stride = f.matrix_stride;
        if (f.offset + f.size > end)
            end = f.offset + f.size;
    }
    qsort(b->members, b->member_count, sizeof *b->members, cmp_member_offset);
    if (b->size > HL_SHADER_MAX_UNIFORM_BLOCK_BYTES || end > b->size)
        return hl__fail(HL_ERR_SHADER, "uniform block '%s': larger than %u bytes (HL_SHADER_MAX_UNIFORM_BLOCK_BYTES), or "
                        "the driver's size %u does not cover its members (%llu bytes)", b->name,
                        (unsigned)HL_SHADER_MAX_UNIFORM_BLOCK_BYTES, b->size, (unsigned long long)end);
    return HL_OK;
}

/* Completes r (from hl__reflect_declared) with the driver's facts and checks its lists. */
static hl_result reflect_from_driver(hl_shader_reflection *r, const hl_rhi_program_info *info, const char *what) {
    for (uint32_t i = 0; i < info->block_count; i++) {
        bool declared = false;
        for (uint32_t k = 0; k < r->block_count && !declared; k++)
            declared = strcmp(r->blocks[k].name, info->blocks[i].name) == 0;
        if (!declared)
            return hl__fail(HL_ERR_SHADER, "%s: the linked program has a uniform block '%s' that the toolchain's "
                            "declaration scan did not find", what, info->blocks[i].name);
    }
    for (uint32_t k = 0; k < r->block_count; k++) {
        hl_shader_block *b = &r->blocks[k];
        uint32_t bi = info->block_count;
        for (uint32_t i = 0; i < info->block_count && bi == info->block_count; i++)
            if (strcmp(info->blocks[i].name, b->name) == 0)
                bi = i;
        if (bi == info->block_count)
            return hl__fail(HL_ERR_SHADER, "%s: uniform block '%s' is declared but the driver left it out of the "
                            "linked program, so its layout is unknown (a std140 block stays active; is it used?)",
                            what, b->name);
        hl__free(b->members);
        b->members = NULL;
        b->member_count = 0;
        hl_result res = block_from_driver(b, info, bi);
        if (res)
            return res;
    }
    for (uint32_t i = 0; i < info->uniform_count; i++) {
        const hl_rhi_program_variable *v = &info->uniforms[i];
        if (v->block >= 0)
            continue;
        const hl_shader_texture_binding *t = NULL;
        for (uint32_t k = 0; k < r->texture_count && !t; k++)
            if (strcmp(r->textures[k].name, v->name) == 0)
                t = &r->textures[k];
        if (v->scalar != HL_RHI_SCALAR_SAMPLER || !t)
            return hl__fail(HL_ERR_SHADER, "%s: the linked program has a uniform '%s' outside a block that is not one "
                            "of the declared samplers", what, v->name);
        if (t->dimension != v->dimension || t->sample_type != v->sample_type || t->comparison != v->comparison)
            return hl__fail(HL_ERR_SHADER, "%s: sampler '%s': the driver reports another sampler type than declared",
                            what, v->name);
    }
    for (uint32_t i = 0; i < info->input_count; i++) {
        const hl_rhi_program_variable *v = &info->inputs[i];
        const hl_shader_io *io = NULL;
        for (uint32_t k = 0; k < r->input_count && !io; k++)
            if (strcmp(r->inputs[k].name, v->name) == 0)
                io = &r->inputs[k];
        if (!io)
            return hl__fail(HL_ERR_SHADER, "%s: the linked program has a vertex input '%s' that the toolchain's "
                            "declaration scan did not find", what, v->name);
        if (v->location < 0 || (uint32_t)v->location != io->location)
            return hl__fail(HL_ERR_SHADER, "%s: vertex input '%s' is at location %d in the linked program, planned at %u",
                            what, v->name, (int)v->location, io->location);
        if (type_from_rhi(v) != io->type)
            return hl__fail(HL_ERR_SHADER, "%s: vertex input '%s' is a %s in the linked program, declared %s", what,
                            v->name, hl_shader_type_name(type_from_rhi(v)), hl_shader_type_name(io->type));
    }
    return HL_OK;
}

/* ---- the introspection check ------------------------------------------------------------------- */
#define DIFF(...) (snprintf(msg, cap, __VA_ARGS__), false)

static bool same_reflection(const hl_shader_reflection *a, const hl_shader_reflection *b, char *msg, size_t cap) {
    if (a->block_count != b->block_count)
        return DIFF("%u uniform blocks (SPIR-V) vs %u (driver)", a->block_count, b->block_count);
    for (uint32_t i = 0; i < a->block_count; i++) {
        const hl_shader_block *x = &a->blocks[i], *y = NULL;
        for (uint32_t k = 0; k < b->block_count && !y; k++)
            if (strcmp(b->blocks[k].name, x->name) == 0)
                y = &b->blocks[k];
        if (!y)
            return DIFF("uniform block '%s' is missing from the driver's reflection", x->name);
        if (x->group != y->group || x->binding != y->binding || x->size != y->size || x->stages != y->stages ||
            x->storage != y->storage || x->member_count != y->member_count)
            return DIFF("uniform block '%s': group %u/%u binding %u/%u size %u/%u stages %u/%u members %u/%u "
                        "(SPIR-V/driver)", x->name, x->group, y->group, x->binding, y->binding, x->size, y->size,
                        x->stages, y->stages, x->member_count, y->member_count);
        for (uint32_t m = 0; m < x->member_count; m++) {
            const hl_shader_block_member *p = &x->members[m], *q = &y->members[m];
            if (strcmp(p->name, q->name) != 0 || p->type != q->type || p->offset != q->offset || p->size != q->size ||
                p->array_size != q->array_size || p->array_stride != q->array_stride ||
                p->matrix_stride != q->matrix_stride)
                return DIFF("uniform block '%s' member %u: '%s' %s offset %u size %u array %u stride %u matrix stride "
                            "%u (SPIR-V) vs '%s' %s offset %u size %u array %u stride %u matrix stride %u (driver)",
                            x->name, m, p->name, hl_shader_type_name(p->type), p->offset, p->size, p->array_size,
                            p->array_stride, p->matrix_stride, q->name, hl_shader_type_name(q->type), q->offset, q->size,
                            q->array_size, q->array_stride, q->matrix_stride);
        }
    }
    if (a->texture_count != b->texture_count)
        return DIFF("%u textures (SPIR-V) vs %u (driver)", a->texture_count, b->texture_count);
    for (uint32_t i = 0; i < a->texture_count; i++) {
        const hl_shader_texture_binding *x = &a->textures[i], *y = &b->textures[i];
        if (strcmp(x->name, y->name) != 0 || x->group != y->group || x->binding != y->binding ||
            x->sampler_binding != y->sampler_binding || x->dimension != y->dimension ||
            x->sample_type != y->sample_type || x->comparison != y->comparison || x->stages != y->stages)
            return DIFF("texture %u: '%s' (SPIR-V) vs '%s' (driver) differ in binding, type or stages", i, x->name,
                        y->name);
    }
    const hl_shader_io *lists[2][2] = {{a->inputs, b->inputs}, {a->outputs, b->outputs}};
    uint32_t counts[2][2] = {{a->input_count, b->input_count}, {a->output_count, b->output_count}};
    for (int l = 0; l < 2; l++) {
        const char *what = l ? "fragment output" : "vertex input";
        if (counts[l][0] != counts[l][1])
            return DIFF("%u %ss (SPIR-V) vs %u (driver)", counts[l][0], what, counts[l][1]);
        for (uint32_t i = 0; i < counts[l][0]; i++) {
            const hl_shader_io *x = &lists[l][0][i], *y = &lists[l][1][i];
            if (strcmp(x->name, y->name) != 0 || x->location != y->location || x->type != y->type)
                return DIFF("%s %u: '%s' location %u %s (SPIR-V) vs '%s' location %u %s (driver)", what, i, x->name,
                            x->location, hl_shader_type_name(x->type), y->name, y->location,
                            hl_shader_type_name(y->type));
        }
    }
    return true;
}

#undef DIFF

/* ---- shader creation ----------------------------------------------------------------------------- */
hl_result hl_shader_program_create_shaders(hl_rhi_device *dev, hl_shader_program *p, hl_rhi_shader *vs,
                                           hl_rhi_shader *fs) {
    if (vs)
        vs->id = 0;
    if (fs)
        fs->id = 0;
    if (!dev || !p || !vs || !fs)
        return hl__fail(HL_ERR_VALIDATION, "hl_shader_program_create_shaders: dev, p, vs and fs must not be NULL");
    bool has_fs = p->fragment_glsl || p->fragment_spirv;
    hl_rhi_shader_desc sd;
    hl_shader_program_vertex_desc(p, &sd);
    hl_result r = hl_rhi_shader_create(dev, &sd, vs);
    if (!r && has_fs) {
        hl_shader_program_fragment_desc(p, &sd);
        r = hl_rhi_shader_create(dev, &sd, fs);
    }
    if (!r && p->reflect_on_device) {
        hl_rhi_program_info *info = NULL;
        r = hl_rhi_program_introspect(dev, *vs, *fs, &info);
        char what[96];
        snprintf(what, sizeof what, "shader program '%s'", p->label[0] ? p->label : "(unlabelled)");
        if (!r)
            r = reflect_from_driver(&p->reflection, info, what);
        hl_rhi_program_info_free(info);
        if (!r && p->expected) {
            char msg[400];
            if (!same_reflection(p->expected, &p->reflection, msg, sizeof msg))
                r = hl__fail(HL_ERR_SHADER, "%s: introspection check: the driver's reflection differs from "
                             "SPIRV-Cross's: %s", what, msg);
            else
                g_checks++;
            hl__reflection_free(p->expected);
            hl__free(p->expected);
            p->expected = NULL;
        }
        if (!r)
            p->reflect_on_device = false;
    }
    if (r) {
        hl_rhi_shader_destroy(dev, *fs);
        hl_rhi_shader_destroy(dev, *vs);
        vs->id = fs->id = 0;
    }
    return r;
}
