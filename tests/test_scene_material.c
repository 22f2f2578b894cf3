/* Scene layer: textures (pixels, PNG files, samplers, revisions), basic / PBR / shader
 * materials (variants, revisions, bindings), reference counting and errors. */
#include <math.h>
#include <unistd.h>

#include "hilo3d/hilo3d.h"
#include "hl_test.h"

static const char *k_vs = "#version 300 es\n"
                          "layout(std140) uniform EffectBlock { vec4 tint; };\n"
                          "in vec3 a_position; out vec4 v_tint;\n"
                          "void main() { v_tint = tint; gl_Position = vec4(a_position, 1.0); }\n";
static const char *k_fs = "#version 300 es\n"
                          "precision highp float;\n"
                          "in vec4 v_tint; layout(location = 0) out vec4 outColor;\n"
                          "void main() { outColor = v_tint; }\n";

static void test_textures(void) {
    uint8_t px[4 * 2 * 4];
    for (int i = 0; i < 8; ++i) {
        px[i * 4 + 0] = (uint8_t)(i * 30);
        px[i * 4 + 1] = (uint8_t)(255 - i * 30);
        px[i * 4 + 2] = (uint8_t)(i & 1 ? 255 : 0);
        px[i * 4 + 3] = 255;
    }
    char path[128];
    snprintf(path, sizeof path, "/tmp/hl_test_scene_tex_%d.png", (int)getpid());
    HL_CHECK(hl_test_write_png(path, 4, 2, px));
    hl_texture *t = NULL;
    HL_CHECK_OK(hl_texture_load_file(path, NULL, &t));
    unlink(path);
    if (!t) return;
    const hl_texture_info *info = hl_texture_get_info(t);
    HL_CHECK_EQ(info->width, 4);
    HL_CHECK_EQ(info->height, 2);
    HL_CHECK_EQ(info->mip_levels, 3);
    HL_CHECK_EQ(info->mipmaps, HL_MIPMAPS_GENERATE);
    HL_CHECK_EQ(info->color_space, HL_COLOR_SPACE_SRGB);
    HL_CHECK_EQ(info->sampler.wrap_u, HL_WRAP_REPEAT);
    HL_CHECK_EQ(info->sampler.min_filter, HL_FILTER_LINEAR);
    HL_CHECK(memcmp(hl_texture_pixels(t), px, sizeof px) == 0);
    uint64_t trev = hl_texture_revision(t);
    HL_CHECK(trev != 0);

    /* content and sampler revisions move independently (values: revision.h, compare only) */
    px[0] = 1;
    HL_CHECK_OK(hl_texture_set_pixels(t, 4, 2, px, sizeof px));
    HL_CHECK(hl_texture_revision(t) > trev);
    trev = hl_texture_revision(t);
    HL_CHECK_EQ(hl_texture_pixels(t)[0], 1);
    uint64_t srev = hl_texture_sampler_revision(t);
    HL_CHECK_OK(
        hl_texture_set_sampler(t, &(hl_sampler_desc){.wrap_u = HL_WRAP_CLAMP, .mag_filter = HL_FILTER_NEAREST}));
    HL_CHECK(hl_texture_sampler_revision(t) > srev);
    srev = hl_texture_sampler_revision(t);
    HL_CHECK_EQ(hl_texture_revision(t), trev);
    HL_CHECK_EQ(info->sampler.wrap_u, HL_WRAP_CLAMP);
    HL_CHECK_EQ(info->sampler.wrap_v, HL_WRAP_REPEAT);
    HL_CHECK_OK(
        hl_texture_set_sampler(t, &(hl_sampler_desc){.wrap_u = HL_WRAP_CLAMP, .mag_filter = HL_FILTER_NEAREST}));
    HL_CHECK_EQ(hl_texture_sampler_revision(t), srev); /* unchanged */
    HL_CHECK_RESULT(hl_texture_set_sampler(t, &(hl_sampler_desc){.wrap_v = (hl_wrap)9}), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "wrap_v") != NULL);
    /* resize through set_pixels */
    uint8_t big[8 * 8 * 4] = {0};
    HL_CHECK_OK(hl_texture_set_pixels(t, 8, 8, big, sizeof big));
    HL_CHECK_EQ(info->width, 8);
    HL_CHECK_EQ(info->mip_levels, 4);
    hl_texture_release(t);

    /* from pixels */
    HL_CHECK_OK(hl_texture_create(
        &(hl_texture_desc){
            .width = 2, .height = 2, .mipmaps = HL_MIPMAPS_NONE, .color_space = HL_COLOR_SPACE_LINEAR, .label = "lut"},
        &t));
    HL_CHECK_EQ(hl_texture_get_info(t)->mip_levels, 1);
    HL_CHECK_EQ(hl_texture_pixels(t)[5], 0);
    HL_CHECK(strcmp(hl_texture_label(t), "lut") == 0);
    hl_texture_release(t);

    /* errors */
    HL_CHECK_RESULT(hl_texture_create(&(hl_texture_desc){.width = 0, .height = 4}, &t), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "width") != NULL);
    HL_CHECK(t == NULL);
    HL_CHECK_RESULT(hl_texture_load_file("/nonexistent/dir/x.png", NULL, &t), HL_ERR_IO);
    HL_CHECK(strstr(hl_last_error(), "/nonexistent/dir/x.png") != NULL);
    const char junk[] = "this is not an image at all";
    HL_CHECK_RESULT(hl_texture_load_memory(junk, sizeof junk, NULL, &t), HL_ERR_PARSE);
    HL_CHECK_RESULT(hl_texture_load_memory(junk, sizeof junk, &(hl_texture_desc){.width = 2}, &t), HL_ERR_VALIDATION);
}

static void test_basic_and_pbr(void) {
    hl_texture *tex = NULL, *nrm = NULL;
    HL_CHECK_OK(hl_texture_create(&(hl_texture_desc){.width = 1, .height = 1}, &tex));
    HL_CHECK_OK(
        hl_texture_create(&(hl_texture_desc){.width = 1, .height = 1, .color_space = HL_COLOR_SPACE_LINEAR}, &nrm));

    hl_material *basic = NULL;
    HL_CHECK_OK(hl_material_create_basic(NULL, &basic));
    const hl_material_variant *v = hl_material_get_variant(basic);
    HL_CHECK_EQ(v->kind, HL_MATERIAL_BASIC);
    HL_CHECK_EQ(v->texture_mask, 0);
    HL_CHECK(v->depth_test && v->depth_write && !v->double_sided);
    HL_CHECK_EQ(hl_material_get_factors(basic)->base_color.g, 1);
    uint64_t rev = hl_material_revision(basic), vrev = hl_material_variant_revision(basic);
    HL_CHECK_OK(hl_material_set_color(basic, (hl_color){1, 0, 0, 1}));
    HL_CHECK(hl_material_revision(basic) > rev);
    HL_CHECK_EQ(hl_material_variant_revision(basic), vrev); /* a factor: same variant */
    HL_CHECK_OK(hl_material_set_texture(basic, HL_TEXTURE_BASE_COLOR, tex, 0));
    HL_CHECK(hl_material_variant_revision(basic) > vrev);
    HL_CHECK_EQ(v->texture_mask, 1u << HL_TEXTURE_BASE_COLOR);
    rev = hl_material_revision(basic);
    HL_CHECK_OK(hl_material_set_texture(basic, HL_TEXTURE_BASE_COLOR, tex, 0)); /* same: nothing */
    HL_CHECK_EQ(hl_material_revision(basic), rev);
    HL_CHECK_RESULT(hl_material_set_texture(basic, HL_TEXTURE_NORMAL, nrm, 0), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "BASE_COLOR") != NULL);
    HL_CHECK_RESULT(hl_material_set_metallic_roughness(basic, 1, 1), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "basic material") != NULL);

    hl_pbr_material_desc pd = {0};
    pd.base_color = (hl_color){0.8f, 0.1f, 0.1f, 1};
    pd.metallic = 0.5f;
    pd.textures[HL_TEXTURE_BASE_COLOR] = (hl_texture_ref){tex, 0};
    pd.textures[HL_TEXTURE_NORMAL] = (hl_texture_ref){nrm, 1};
    pd.label = "red";
    hl_material *pbr = NULL;
    HL_CHECK_OK(hl_material_create_pbr(&pd, &pbr));
    const hl_material_factors *f = hl_material_get_factors(pbr);
    HL_CHECK(f->metallic == 0.5f && f->roughness == 1.0f && f->normal_scale == 1.0f && f->occlusion_strength == 1.0f);
    HL_CHECK(f->alpha_cutoff == 0.5f);
    v = hl_material_get_variant(pbr);
    HL_CHECK_EQ(v->kind, HL_MATERIAL_PBR);
    HL_CHECK_EQ(v->texture_mask, (1u << HL_TEXTURE_BASE_COLOR) | (1u << HL_TEXTURE_NORMAL));
    HL_CHECK_EQ(v->texcoord1_mask, 1u << HL_TEXTURE_NORMAL);
    uint32_t tc = 9;
    HL_CHECK(hl_material_get_texture(pbr, HL_TEXTURE_NORMAL, &tc) == nrm && tc == 1);
    HL_CHECK(hl_material_get_texture(pbr, HL_TEXTURE_EMISSIVE, NULL) == NULL);
    HL_CHECK(strcmp(hl_material_label(pbr), "red") == 0);

    vrev = hl_material_variant_revision(pbr);
    HL_CHECK_OK(hl_material_set_metallic_roughness(pbr, 1, 0)); /* exactly 0 through the setter */
    HL_CHECK(f->roughness == 0.0f && f->metallic == 1.0f);
    HL_CHECK_EQ(hl_material_variant_revision(pbr), vrev);
    HL_CHECK(!hl_material_is_transparent(pbr));
    HL_CHECK_OK(hl_material_set_alpha_mode(pbr, HL_ALPHA_BLEND, 0));
    HL_CHECK(hl_material_is_transparent(pbr));
    HL_CHECK_EQ(v->alpha_mode, HL_ALPHA_BLEND);
    HL_CHECK(!v->depth_write); /* blend defaults to no depth write */
    HL_CHECK(hl_material_variant_revision(pbr) > vrev);
    vrev = hl_material_variant_revision(pbr);
    HL_CHECK_OK(hl_material_set_alpha_mode(pbr, HL_ALPHA_MASK, 0.3f));
    HL_CHECK(v->depth_write && v->alpha_mode == HL_ALPHA_MASK);
    HL_CHECK(f->alpha_cutoff == 0.3f);
    HL_CHECK_OK(hl_material_set_double_sided(pbr, true));
    HL_CHECK(v->double_sided);
    HL_CHECK(hl_material_variant_revision(pbr) > vrev);
    HL_CHECK_OK(hl_material_set_texture(pbr, HL_TEXTURE_NORMAL, NULL, 0));
    HL_CHECK_EQ(v->texture_mask, 1u << HL_TEXTURE_BASE_COLOR);
    HL_CHECK_EQ(v->texcoord1_mask, 0);
    HL_CHECK_OK(hl_material_set_state(pbr, &(hl_material_state){.depth_test = HL_TOGGLE_OFF}));
    HL_CHECK(!v->depth_test && !v->double_sided && v->alpha_mode == HL_ALPHA_OPAQUE);

    /* errors */
    HL_CHECK_RESULT(hl_material_set_metallic_roughness(pbr, 1.5f, 0), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "metallic 1.5") != NULL);
    pd.roughness = -1;
    HL_CHECK_RESULT(hl_material_create_pbr(&pd, &(hl_material *){0}), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "roughness") != NULL);
    pd.roughness = 0;
    pd.textures[HL_TEXTURE_OCCLUSION] = (hl_texture_ref){tex, 2};
    HL_CHECK_RESULT(hl_material_create_pbr(&pd, &(hl_material *){0}), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "textures[OCCLUSION].texcoord") != NULL);
    HL_CHECK_RESULT(hl_material_set_alpha_mode(pbr, (hl_alpha_mode)7, 0), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "alpha_mode") != NULL);

    /* reference counting: materials keep their textures */
    hl_texture_release(tex);
    hl_texture_release(nrm);
    HL_CHECK_EQ(hl_texture_get_info(hl_material_get_texture(pbr, HL_TEXTURE_BASE_COLOR, NULL))->width, 1);
    hl_material_retain(pbr);
    hl_material_release(pbr);
    hl_material_release(pbr);
    hl_material_release(basic); /* frees tex (last reference); ASan checks */
}

static void test_shader_material(void) {
    hl_uniform_block_bindings_reset();
    HL_CHECK_OK(hl_register_uniform_block_binding("EffectBlock", NULL));
    hl_std140_layout *layout = NULL;
    HL_CHECK_OK(hl_std140_layout_create((const hl_std140_entry[]){{"tint", HL_STD140_VEC4, 0}}, 1, &layout));
    hl_uniform_buffer *ub = NULL, *ub2 = NULL;
    HL_CHECK_OK(hl_uniform_buffer_create(layout, &ub));
    HL_CHECK_OK(hl_uniform_buffer_create(layout, &ub2));
    hl_std140_layout_release(layout);
    hl_texture *tex = NULL;
    HL_CHECK_OK(hl_texture_create(&(hl_texture_desc){.width = 1, .height = 1}, &tex));

    hl_shader_material_desc d = {0};
    d.vs = k_vs;
    d.fs = k_fs;
    d.attributes = (const hl_material_attribute[]){{"a_position", HL_ATTR_POSITION}};
    d.attribute_count = 1;
    d.uniform_blocks = (const hl_material_uniform_block[]){{"EffectBlock", ub}};
    d.uniform_block_count = 1;
    d.textures = (const hl_material_texture[]){{"u_map", tex}};
    d.texture_count = 1;
    d.state.alpha_mode = HL_ALPHA_BLEND;
    hl_material *m = NULL, *m2 = NULL;
    HL_CHECK_OK(hl_material_create_shader(&d, &m));
    HL_CHECK_OK(hl_material_create_shader(&d, &m2));
    if (!m || !m2) return;
    const hl_material_variant *v = hl_material_get_variant(m);
    HL_CHECK_EQ(v->kind, HL_MATERIAL_SHADER);
    HL_CHECK(v->shader_hash != 0);
    HL_CHECK(v->shader_hash == hl_material_get_variant(m2)->shader_hash);
    HL_CHECK(hl_material_is_transparent(m));
    HL_CHECK(strcmp(hl_material_shader_vs(m), k_vs) == 0);
    uint32_t n = 0;
    const hl_material_attribute *attrs = hl_material_shader_attributes(m, &n);
    HL_CHECK(n == 1 && strcmp(attrs[0].name, "a_position") == 0 && attrs[0].semantic == HL_ATTR_POSITION);
    const hl_material_uniform_block *blocks = hl_material_shader_uniform_blocks(m, &n);
    HL_CHECK(n == 1 && blocks[0].buffer == ub && strcmp(blocks[0].name, "EffectBlock") == 0);
    HL_CHECK(hl_uniform_block_binding(blocks[0].name, NULL)); /* what the renderer checks */
    const hl_material_texture *texs = hl_material_shader_textures(m, &n);
    HL_CHECK(n == 1 && texs[0].texture == tex);

    /* UBO writes change the buffer, not the material */
    uint64_t rev = hl_material_revision(m), vrev = hl_material_variant_revision(m);
    HL_CHECK_OK(hl_uniform_buffer_set(ub, "tint", (const float[]){1, 0.5f, 0.2f, 1}, 4));
    HL_CHECK_EQ(hl_material_revision(m), rev);
    /* rebinding a block is a material change, not a variant change */
    HL_CHECK_OK(hl_material_set_uniform_block(m, "EffectBlock", ub2));
    HL_CHECK(hl_material_revision(m) > rev);
    HL_CHECK_EQ(hl_material_variant_revision(m), vrev);
    blocks = hl_material_shader_uniform_blocks(m, &n);
    HL_CHECK(n == 1 && blocks[0].buffer == ub2);
    HL_CHECK_OK(hl_material_set_uniform_block(m, "Extra", ub));
    hl_material_shader_uniform_blocks(m, &n);
    HL_CHECK_EQ(n, 2);
    HL_CHECK(!hl_uniform_block_binding("Extra", NULL)); /* unregistered: the renderer refuses it */
    HL_CHECK_OK(hl_material_set_named_texture(m, "u_map", tex));
    HL_CHECK_RESULT(hl_material_set_color(m, (hl_color){1, 1, 1, 1}), HL_ERR_VALIDATION);
    HL_CHECK_RESULT(hl_material_set_uniform_block(m, "Extra", NULL), HL_ERR_VALIDATION);

    /* errors name the field */
    hl_shader_material_desc bad = d;
    bad.vs = "void main() {}";
    HL_CHECK_RESULT(hl_material_create_shader(&bad, &(hl_material *){0}), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "#version 300 es") != NULL);
    bad = d;
    bad.fs = NULL;
    HL_CHECK_RESULT(hl_material_create_shader(&bad, &(hl_material *){0}), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "fs is NULL") != NULL);
    bad = d;
    bad.attributes = (const hl_material_attribute[]){{"a_pos", HL_ATTR_POSITION}, {"a_pos", HL_ATTR_NORMAL}};
    bad.attribute_count = 2;
    HL_CHECK_RESULT(hl_material_create_shader(&bad, &(hl_material *){0}), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "\"a_pos\" is mapped twice") != NULL);
    bad = d;
    bad.uniform_blocks = (const hl_material_uniform_block[]){{"EffectBlock", NULL}};
    HL_CHECK_RESULT(hl_material_create_shader(&bad, &(hl_material *){0}), HL_ERR_VALIDATION);
    HL_CHECK(strstr(hl_last_error(), "uniform_blocks[0] (\"EffectBlock\") has no buffer") != NULL);

    /* everything retained by the materials survives the caller's releases */
    hl_uniform_buffer_release(ub);
    hl_uniform_buffer_release(ub2);
    hl_texture_release(tex);
    HL_CHECK_EQ(hl_uniform_buffer_size(hl_material_shader_uniform_blocks(m2, &n)[0].buffer), 16);
    hl_material_release(m);
    hl_material_release(m2);
    hl_uniform_block_bindings_reset();
}

/* UV transforms (KHR_texture_transform): the rows the spec defines, the variant bit only for a
 * slot with a map, revisions, refusals. */
static void test_uv_transform(void) {
    hl_texture_desc td = {0};
    td.width = td.height = 1;
    hl_texture *t = NULL;
    HL_CHECK_OK(hl_texture_create(&td, &t));
    hl_material *m = NULL;
    HL_CHECK_OK(hl_material_create_pbr(NULL, &m));
    if (!m || !t) return;
    const hl_material_factors *f = hl_material_get_factors(m);
    HL_CHECK(f->uv_rows[2][0][0] == 1 && f->uv_rows[2][1][1] == 1 && f->uv_rows[2][0][2] == 0);
    uint64_t vrev = hl_material_variant_revision(m), rev = hl_material_revision(m);
    hl_uv_transform x = {{0.25f, 0.5f}, 1.5707963f, {2, 3}};
    HL_CHECK_OK(hl_material_set_uv_transform(m, HL_TEXTURE_NORMAL, &x));
    /* rows: (cos sx, sin sy, ox), (-sin sx, cos sy, oy) with cos ~ 0, sin ~ 1 */
    HL_CHECK(fabsf(f->uv_rows[2][0][0]) < 1e-6f && fabsf(f->uv_rows[2][0][1] - 3) < 1e-6f && f->uv_rows[2][0][2] == 0.25f);
    HL_CHECK(fabsf(f->uv_rows[2][1][0] + 2) < 1e-6f && fabsf(f->uv_rows[2][1][1]) < 1e-6f && f->uv_rows[2][1][2] == 0.5f);
    HL_CHECK(hl_material_revision(m) != rev);
    HL_CHECK_EQ(hl_material_get_variant(m)->uv_transform_mask, 0); /* no normal map yet */
    HL_CHECK(hl_material_variant_revision(m) == vrev);
    HL_CHECK_OK(hl_material_set_texture(m, HL_TEXTURE_NORMAL, t, 0));
    HL_CHECK_EQ(hl_material_get_variant(m)->uv_transform_mask, 1u << HL_TEXTURE_NORMAL);
    rev = hl_material_revision(m);
    HL_CHECK_OK(hl_material_set_uv_transform(m, HL_TEXTURE_NORMAL, &x)); /* the same: no change */
    HL_CHECK(hl_material_revision(m) == rev);
    HL_CHECK_OK(hl_material_set_uv_transform(m, HL_TEXTURE_NORMAL, NULL));
    HL_CHECK_EQ(hl_material_get_variant(m)->uv_transform_mask, 0);
    hl_uv_transform bad = {{NAN, 0}, 0, {1, 1}};
    HL_CHECK_RESULT(hl_material_set_uv_transform(m, HL_TEXTURE_NORMAL, &bad), HL_ERR_VALIDATION);
    HL_CHECK_RESULT(hl_material_set_uv_transform(m, (hl_texture_slot)9, &x), HL_ERR_VALIDATION);
    hl_material *b = NULL;
    HL_CHECK_OK(hl_material_create_basic(NULL, &b));
    HL_CHECK_RESULT(hl_material_set_uv_transform(b, HL_TEXTURE_EMISSIVE, &x), HL_ERR_VALIDATION);
    HL_CHECK_OK(hl_material_set_uv_transform(b, HL_TEXTURE_BASE_COLOR, &x));
    hl_material *s = NULL;
    hl_shader_material_desc sd = {0};
    sd.vs = "#version 300 es\nvoid main(){gl_Position=vec4(0.0);}\n";
    sd.fs = "#version 300 es\nprecision mediump float;\nout vec4 o;\nvoid main(){o=vec4(1.0);}\n";
    HL_CHECK_OK(hl_material_create_shader(&sd, &s));
    HL_CHECK_RESULT(hl_material_set_uv_transform(s, HL_TEXTURE_BASE_COLOR, &x), HL_ERR_VALIDATION);
    hl_material_release(s);
    hl_material_release(b);
    hl_material_release(m);
    hl_texture_release(t);
}

int main(void) {
    test_uv_transform();
    test_textures();
    test_basic_and_pbr();
    test_shader_material();
    return hl_test_finish();
}
