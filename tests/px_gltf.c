/* glTF models built in memory (GLB), loaded with hilo3d/gltf.h and rendered on one backend per
 * run, checked by pixel (64x64 output, black clear, exact colours within +-1 per channel):
 *   - an unlit quad with a 2x2 nearest-filtered PNG (red, green / blue, white), seen through
 *     the file's orthographic camera: each quadrant its texel; the same with the UVs in
 *     TEXCOORD_1 (texCoord 1); the same through a perspective camera of the file; through
 *     KHR_texture_transform (scale and offset, a half turn, a texCoord override);
 *   - a node hierarchy: a parent given as a matrix (translate 0.5, 0.5 and scale 0.5) over a
 *     red quad: only the top-right quadrant is red;
 *   - vertex colours (COLOR_0, normalized u8) on two triangles of an unlit white material;
 *   - KHR_mesh_quantization: normalized i16 positions in a triangle strip, two of them replaced
 *     by a sparse accessor: the shape the sparse values give is covered, the original is not;
 *   - alpha MASK: a texel with alpha 0 shows the clear colour, its neighbour its colour;
 *   - KHR_lights_punctual: a white PBR quad lit by the file's directional light is brighter at
 *     intensity 3 than at 1, and black without the light;
 *   - an animation moving a node: the quad is where the LINEAR translation puts it at t 0, 0.5, 1;
 *   - a normal map on a primitive without tangents (generated at load): a normal tilted towards
 *     +X (red) or +Y (green) is brighter under a light from that side;
 *   - skins: a quad whose top vertices follow an animated joint (sheared at t 1, square at t 0),
 *     and a skin of 256 joints whose last one moves the quad; the mesh node's own transform is
 *     ignored as glTF specifies; a second set of influences (JOINTS_1 / WEIGHTS_1) placing the
 *     top vertices alone, in the colour pass and in a shadow on a lit ground quad;
 *   - morph targets: a target moving the top vertices, its weight animated (sheared at t 1); on
 *     a flat-shaded quad (no NORMAL) a moved vertex covering its new pixel and the face it
 *     tilts shaded by its recomputed normal, the other face unchanged. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hilo3d/gltf.h"
#include "hilo3d/renderer.h"
#include "hilo3d/scene.h"
#include "hl_test.h"
#include "hl_test_gltf.h"
#include "hl_test_render.h"

enum { W = 64, H = 64 };
static hl_renderer *g_r;

/* Loads the GLB (json, g); NULL (a failed check) when it does not load. */
static hl_gltf_asset *load_glb(const char *json, const hl_test_glb *g) {
    size_t n = 0;
    uint8_t *file = hl_test_glb_file(json, g, &n);
    static int written;
    const char *dir = getenv("HL_GLTF_CORPUS_DIR"); /* seeds for fuzz_gltf */
    char name[512];
    if (dir && snprintf(name, sizeof name, "%s/px_gltf_%02d.glb", dir, written++) < (int)sizeof name) {
        FILE *f = fopen(name, "wb");
        if (f) fwrite(file, 1, n, f), fclose(f);
    }
    hl_gltf_asset *a = NULL;
    HL_CHECK_OK(hl_gltf_load_memory(file, n, NULL, &a));
    free(file);
    return a;
}

/* Loads the GLB (json, g), applies animation 0 at time anim_t when anim_t >= 0, and renders it
 * through the file's camera `cam`; img W*H*4. */
static bool render_glb_at(const char *json, const hl_test_glb *g, uint32_t cam, float anim_t, uint8_t *img) {
    hl_gltf_asset *a = load_glb(json, g);
    if (!a) return false;
    hl_stage *s = NULL;
    HL_CHECK_OK(hl_stage_create(&s));
    hl_stage_set_clear_color(s, (hl_color){0, 0, 0, 1});
    HL_CHECK_OK(hl_stage_add(s, hl_gltf_asset_root(a)));
    if (anim_t >= 0) HL_CHECK_OK(hl_animation_apply(hl_gltf_asset_animation(a, 0), anim_t, HL_ANIMATION_CLAMP));
    hl_camera *c = hl_gltf_asset_camera(a, cam);
    HL_CHECK_MSG(c != NULL, "the file's camera %u exists", cam);
    bool ok = c && render_read(g_r, s, c, img, (size_t)W * H * 4);
    hl_gltf_asset_destroy(a);
    hl_stage_destroy(s);
    return ok;
}

static bool render_glb(const char *json, const hl_test_glb *g, uint32_t cam, uint8_t *img) {
    return render_glb_at(json, g, cam, -1.0f, img);
}

static const uint8_t *px(const uint8_t *img, int x, int y) { return img + ((size_t)y * W + (size_t)x) * 4; }

/* the quad [-1, 1]^2 at z = 0 facing +Z: positions, UVs (glTF: v down), indices */
static const float k_pos[12] = {-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0};
static const float k_uv[8] = {0, 1, 1, 1, 1, 0, 0, 0};
static const uint16_t k_idx[6] = {0, 1, 2, 0, 2, 3};
#define ORTHO_CAMERA "{\"type\":\"orthographic\",\"orthographic\":{\"xmag\":1,\"ymag\":1,\"znear\":0.1,\"zfar\":10}}"

static void test_textured_quad_xf(uint32_t texcoord, bool perspective, const char *xf, const uint8_t want[4][3]);

static void test_textured_quad(uint32_t texcoord, bool perspective) {
    static const uint8_t plain[4][3] = {{255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {255, 255, 255}};
    test_textured_quad_xf(texcoord, perspective, NULL, plain);
}

/* KHR_texture_transform: the top-right texel (green) everywhere through scale 0.5 and offset
 * (0.5, 0); the whole map turned half a turn (rotation pi about the origin, offset (1, 1)):
 * white top left, red bottom right; a transform naming TEXCOORD_1 in place of the info's 0. */
static void test_texture_transform(void) {
    static const uint8_t green[4][3] = {{0, 255, 0}, {0, 255, 0}, {0, 255, 0}, {0, 255, 0}};
    static const uint8_t turned[4][3] = {{255, 255, 255}, {0, 0, 255}, {0, 255, 0}, {255, 0, 0}};
    test_textured_quad_xf(0, false, "{\"offset\":[0.5,0],\"scale\":[0.5,0.5]}", green);
    test_textured_quad_xf(0, false, "{\"offset\":[1,1],\"rotation\":3.14159265}", turned);
    test_textured_quad_xf(1, false, "{\"offset\":[0.5,0],\"scale\":[0.5,0.5],\"texCoord\":1}", green);
}

static void test_textured_quad_xf(uint32_t texcoord, bool perspective, const char *xf, const uint8_t want[4][3]) {
    hl_test_glb g = {0};
    const uint8_t texels[16] = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255};
    size_t png_n = 0;
    uint8_t *png = hl_test_png(2, 2, texels, &png_n);
    size_t o_pos = hl_test_glb_add(&g, k_pos, sizeof k_pos), o_uv = hl_test_glb_add(&g, k_uv, sizeof k_uv);
    size_t o_idx = hl_test_glb_add(&g, k_idx, sizeof k_idx), o_png = hl_test_glb_add(&g, png, png_n);
    free(png);
    /* perspective: yfov 2 atan(0.5) from z = 2 sees exactly [-1, 1] */
    char camera[200];
    if (perspective)
        snprintf(camera, sizeof camera, "{\"type\":\"perspective\",\"perspective\":{\"yfov\":%.9f,\"aspectRatio\":1,"
                 "\"znear\":0.1,\"zfar\":100}}", 2.0 * atan(0.5));
    else
        snprintf(camera, sizeof camera, "%s", ORTHO_CAMERA);
    char json[3000];
    snprintf(json, sizeof json,
             "{\"asset\":{\"version\":\"2.0\"},\"extensionsUsed\":[\"KHR_materials_unlit\"],\"scene\":0,"
             "\"scenes\":[{\"nodes\":[0,1]}],\"nodes\":[{\"mesh\":0,\"name\":\"quad\"},{\"camera\":0,\"translation\":[0,0,2]}],"
             "\"cameras\":[%s],"
             "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"TEXCOORD_%u\":1},\"indices\":2,\"material\":0}]}],"
             "\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0,\"texCoord\":%u%s%s%s}},"
             "\"extensions\":{\"KHR_materials_unlit\":{}}}],"
             "\"textures\":[{\"source\":0,\"sampler\":0}],\"samplers\":[{\"magFilter\":9728,\"minFilter\":9728}],"
             "\"images\":[{\"bufferView\":3,\"mimeType\":\"image/png\"}],"
             "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"},"
             "{\"bufferView\":1,\"componentType\":5126,\"count\":4,\"type\":\"VEC2\"},"
             "{\"bufferView\":2,\"componentType\":5123,\"count\":6,\"type\":\"SCALAR\"}],"
             "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":48},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":32},"
             "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":12},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu}],"
             "\"buffers\":[{\"byteLength\":%zu}]}",
             camera, texcoord, xf && strstr(xf, "texCoord") ? 0u : texcoord,
             xf ? ",\"extensions\":{\"KHR_texture_transform\":" : "", xf ? xf : "", xf ? "}" : "", o_pos, o_uv, o_idx,
             o_png, png_n, g.bin_len);
    uint8_t img[W * H * 4];
    if (render_glb(json, &g, 0, img)) {
        const char *what = perspective ? "perspective" : texcoord ? "texCoord 1" : "texCoord 0";
        printf("textured quad (%s%s%s)\n", what, xf ? ", transform " : "", xf ? xf : "");
        static const int at[4][2] = {{16, 16}, {48, 16}, {16, 48}, {48, 48}}; /* top left: texel (0, 0) */
        for (int q = 0; q < 4; q++)
            HL_CHECK_PIXEL(px(img, at[q][0], at[q][1]), want[q][0], want[q][1], want[q][2], 255, 1);
    }
    hl_test_glb_free(&g);
}

/* an unlit quad of colour rgba under the given node JSON (node 0 the parent of node 1, the mesh) */
static void test_hierarchy(void) {
    hl_test_glb g = {0};
    size_t o_pos = hl_test_glb_add(&g, k_pos, sizeof k_pos), o_idx = hl_test_glb_add(&g, k_idx, sizeof k_idx);
    char json[2000];
    snprintf(json, sizeof json,
             "{\"asset\":{\"version\":\"2.0\"},\"scenes\":[{\"nodes\":[0,2]}],"
             "\"nodes\":[{\"children\":[1],\"matrix\":[0.5,0,0,0, 0,0.5,0,0, 0,0,0.5,0, 0.5,0.5,0,1]},{\"mesh\":0},"
             "{\"camera\":0,\"translation\":[0,0,2]}],\"cameras\":[" ORTHO_CAMERA "],"
             "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"indices\":1,\"material\":0}]}],"
             "\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorFactor\":[1,0,0,1]},\"extensions\":{\"KHR_materials_unlit\":{}}}],"
             "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"},"
             "{\"bufferView\":1,\"componentType\":5123,\"count\":6,\"type\":\"SCALAR\"}],"
             "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":48},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":12}],"
             "\"buffers\":[{\"byteLength\":%zu}]}",
             o_pos, o_idx, g.bin_len);
    uint8_t img[W * H * 4];
    if (render_glb(json, &g, 0, img)) {
        printf("hierarchy (matrix parent)\n");
        HL_CHECK_PIXEL(px(img, 48, 16), 255, 0, 0, 255, 1);
        HL_CHECK_PIXEL(px(img, 16, 16), 0, 0, 0, 255, 1);
        HL_CHECK_PIXEL(px(img, 16, 48), 0, 0, 0, 255, 1);
        HL_CHECK_PIXEL(px(img, 48, 48), 0, 0, 0, 255, 1);
        HL_CHECK_PIXEL(px(img, 34, 30), 255, 0, 0, 255, 1); /* just inside the quadrant's corner */
        HL_CHECK_PIXEL(px(img, 29, 30), 0, 0, 0, 255, 1);
    }
    hl_test_glb_free(&g);
}

static void test_vertex_colors(void) {
    hl_test_glb g = {0};
    /* lower right triangle yellow, upper left cyan (no indices) */
    const float pos[18] = {-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, -1, 0, 1, 1, 0, -1, 1, 0};
    const uint8_t col[24] = {255, 255, 0, 255, 255, 255, 0, 255, 255, 255, 0, 255,
                             0, 255, 255, 255, 0, 255, 255, 255, 0, 255, 255, 255};
    size_t o_pos = hl_test_glb_add(&g, pos, sizeof pos), o_col = hl_test_glb_add(&g, col, sizeof col);
    char json[2000];
    snprintf(json, sizeof json,
             "{\"asset\":{\"version\":\"2.0\"},\"scenes\":[{\"nodes\":[0,1]}],"
             "\"nodes\":[{\"mesh\":0},{\"camera\":0,\"translation\":[0,0,2]}],\"cameras\":[" ORTHO_CAMERA "],"
             "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"COLOR_0\":1},\"material\":0}]}],"
             "\"materials\":[{\"extensions\":{\"KHR_materials_unlit\":{}}}],"
             "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":6,\"type\":\"VEC3\"},"
             "{\"bufferView\":1,\"componentType\":5121,\"normalized\":true,\"count\":6,\"type\":\"VEC4\"}],"
             "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":72},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":24}],"
             "\"buffers\":[{\"byteLength\":%zu}]}",
             o_pos, o_col, g.bin_len);
    uint8_t img[W * H * 4];
    if (render_glb(json, &g, 0, img)) {
        printf("vertex colours\n");
        HL_CHECK_PIXEL(px(img, 52, 44), 255, 255, 0, 255, 1);
        HL_CHECK_PIXEL(px(img, 12, 20), 0, 255, 255, 255, 1);
    }
    hl_test_glb_free(&g);
}

static void test_quantized_sparse_strip(void) {
    hl_test_glb g = {0};
    /* strip order: (-0.5,-0.5) (0.5,-0.5) (-0.5,0.5) (0.5,0.5) as normalized i16 (x 16384/32767) */
    const int16_t pos[12] = {-16384, -16384, 0, 16384, -16384, 0, -16384, 16384, 0, 16384, 16384, 0};
    const uint8_t sp_idx[2] = {1, 3};
    const int16_t sp_val[6] = {32767, -16384, 0, 32767, 16384, 0}; /* the right side moved to x = 1 */
    size_t o_pos = hl_test_glb_add(&g, pos, sizeof pos), o_si = hl_test_glb_add(&g, sp_idx, sizeof sp_idx);
    size_t o_sv = hl_test_glb_add(&g, sp_val, sizeof sp_val);
    char json[2400];
    snprintf(json, sizeof json,
             "{\"asset\":{\"version\":\"2.0\"},\"extensionsUsed\":[\"KHR_mesh_quantization\"],"
             "\"extensionsRequired\":[\"KHR_mesh_quantization\"],\"scenes\":[{\"nodes\":[0,1]}],"
             "\"nodes\":[{\"mesh\":0},{\"camera\":0,\"translation\":[0,0,2]}],\"cameras\":[" ORTHO_CAMERA "],"
             "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"mode\":5,\"material\":0}]}],"
             "\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorFactor\":[0,1,0,1]},\"extensions\":{\"KHR_materials_unlit\":{}}}],"
             "\"accessors\":[{\"bufferView\":0,\"componentType\":5122,\"normalized\":true,\"count\":4,\"type\":\"VEC3\","
             "\"sparse\":{\"count\":2,\"indices\":{\"bufferView\":1,\"componentType\":5121},\"values\":{\"bufferView\":2}}}],"
             "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":24},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":2},"
             "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":12}],"
             "\"buffers\":[{\"byteLength\":%zu}]}",
             o_pos, o_si, o_sv, g.bin_len);
    uint8_t img[W * H * 4];
    if (render_glb(json, &g, 0, img)) {
        printf("quantized strip with sparse positions\n");
        HL_CHECK_PIXEL(px(img, 56, 32), 0, 255, 0, 255, 1); /* x = 0.77: covered by the sparse values */
        HL_CHECK_PIXEL(px(img, 32, 32), 0, 255, 0, 255, 1);
        HL_CHECK_PIXEL(px(img, 8, 32), 0, 0, 0, 255, 1);   /* x = -0.73: outside */
        HL_CHECK_PIXEL(px(img, 32, 6), 0, 0, 0, 255, 1);   /* y = 0.8: outside */
    }
    hl_test_glb_free(&g);
}

static void test_alpha_mask(void) {
    hl_test_glb g = {0};
    const uint8_t texels[8] = {255, 0, 0, 0, 0, 255, 0, 255}; /* left: red, alpha 0; right: green */
    size_t png_n = 0;
    uint8_t *png = hl_test_png(2, 1, texels, &png_n);
    size_t o_pos = hl_test_glb_add(&g, k_pos, sizeof k_pos), o_uv = hl_test_glb_add(&g, k_uv, sizeof k_uv);
    size_t o_idx = hl_test_glb_add(&g, k_idx, sizeof k_idx), o_png = hl_test_glb_add(&g, png, png_n);
    free(png);
    char json[2600];
    snprintf(json, sizeof json,
             "{\"asset\":{\"version\":\"2.0\"},\"scenes\":[{\"nodes\":[0,1]}],"
             "\"nodes\":[{\"mesh\":0},{\"camera\":0,\"translation\":[0,0,2]}],\"cameras\":[" ORTHO_CAMERA "],"
             "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"TEXCOORD_0\":1},\"indices\":2,\"material\":0}]}],"
             "\"materials\":[{\"alphaMode\":\"MASK\",\"alphaCutoff\":0.5,\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0}},"
             "\"extensions\":{\"KHR_materials_unlit\":{}}}],"
             "\"textures\":[{\"source\":0,\"sampler\":0}],\"samplers\":[{\"magFilter\":9728,\"minFilter\":9728}],"
             "\"images\":[{\"bufferView\":3,\"mimeType\":\"image/png\"}],"
             "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"},"
             "{\"bufferView\":1,\"componentType\":5126,\"count\":4,\"type\":\"VEC2\"},"
             "{\"bufferView\":2,\"componentType\":5123,\"count\":6,\"type\":\"SCALAR\"}],"
             "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":48},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":32},"
             "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":12},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu}],"
             "\"buffers\":[{\"byteLength\":%zu}]}",
             o_pos, o_uv, o_idx, o_png, png_n, g.bin_len);
    uint8_t img[W * H * 4];
    if (render_glb(json, &g, 0, img)) {
        printf("alpha mask\n");
        HL_CHECK_PIXEL(px(img, 16, 32), 0, 0, 0, 255, 1); /* discarded: the clear colour */
        HL_CHECK_PIXEL(px(img, 48, 32), 0, 255, 0, 255, 1);
    }
    hl_test_glb_free(&g);
}

/* A red quad half the view's size whose node an animation moves from x = -0.5 (t 0) to 0.5 (t 1). */
static void test_animation(void) {
    hl_test_glb g = {0};
    const float times[2] = {0, 1}, tr[6] = {-0.5f, 0, 0, 0.5f, 0, 0};
    size_t o_pos = hl_test_glb_add(&g, k_pos, sizeof k_pos), o_idx = hl_test_glb_add(&g, k_idx, sizeof k_idx);
    size_t o_t = hl_test_glb_add(&g, times, sizeof times), o_tr = hl_test_glb_add(&g, tr, sizeof tr);
    char json[2600];
    snprintf(json, sizeof json,
             "{\"asset\":{\"version\":\"2.0\"},\"scenes\":[{\"nodes\":[0,1]}],"
             "\"nodes\":[{\"mesh\":0,\"scale\":[0.5,0.5,1]},{\"camera\":0,\"translation\":[0,0,2]}],\"cameras\":[" ORTHO_CAMERA "],"
             "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"indices\":1,\"material\":0}]}],"
             "\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorFactor\":[1,0,0,1]},\"extensions\":{\"KHR_materials_unlit\":{}}}],"
             "\"animations\":[{\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}],"
             "\"samplers\":[{\"input\":2,\"output\":3}]}],"
             "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"},"
             "{\"bufferView\":1,\"componentType\":5123,\"count\":6,\"type\":\"SCALAR\"},"
             "{\"bufferView\":2,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
             "{\"bufferView\":3,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}],"
             "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":48},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":12},"
             "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":8},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":24}],"
             "\"buffers\":[{\"byteLength\":%zu}]}",
             o_pos, o_idx, o_t, o_tr, g.bin_len);
    uint8_t img[W * H * 4];
    const float ts[3] = {0.0f, 0.5f, 1.0f};
    for (int i = 0; i < 3; i++) {
        if (!render_glb_at(json, &g, 0, ts[i], img)) break;
        printf("animated node at t %.1f\n", (double)ts[i]);
        int red_x = i == 0 ? 8 : i == 1 ? 32 : 56, black_x = i == 0 ? 56 : i == 1 ? 4 : 8;
        HL_CHECK_PIXEL(px(img, red_x, 32), 255, 0, 0, 255, 1);
        HL_CHECK_PIXEL(px(img, black_x, 32), 0, 0, 0, 255, 1);
        HL_CHECK_PIXEL(px(img, red_x, 8), 0, 0, 0, 255, 1); /* y = 0.75: above the half-size quad */
    }
    hl_test_glb_free(&g);
}

/* A skinned quad (half the view, bottom vertices on joint 0, top ones on joint 1, or every
 * vertex on joint 255 of 256) whose mesh node is far away (glTF ignores a skinned mesh's node
 * transform): joint 1 moved right by an animation (0 at t 0, 0.5 at t 1) shears the quad;
 * joint 255 moved right by 0.5 moves it. */
/* A joint hierarchy: joint 1 (the top vertices, inverse bind translate(0, -0.5)) is a child of
 * joint 0 (the bottom ones) 0.5 above it; joint 0 turned 45 degrees about Z turns the whole quad
 * into a diamond only if joint 1's world matrix includes its parent's turn. */
static void test_skin_chain(void) {
    hl_test_glb g = {0};
    const float pos[12] = {-0.5f, -0.5f, 0, 0.5f, -0.5f, 0, 0.5f, 0.5f, 0, -0.5f, 0.5f, 0};
    const uint8_t joints[16] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    const float weights[16] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    const float ibm[32] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -0.5f, 0, 1};
    size_t o_pos = hl_test_glb_add(&g, pos, sizeof pos), o_idx = hl_test_glb_add(&g, k_idx, sizeof k_idx);
    size_t o_j = hl_test_glb_add(&g, joints, sizeof joints), o_w = hl_test_glb_add(&g, weights, sizeof weights);
    size_t o_m = hl_test_glb_add(&g, ibm, sizeof ibm);
    char json[3000];
    snprintf(json, sizeof json,
             "{\"asset\":{\"version\":\"2.0\"},\"scenes\":[{\"nodes\":[0,1,2]}],"
             "\"nodes\":[{\"mesh\":0,\"skin\":0},{\"camera\":0,\"translation\":[0,0,2]},"
             "{\"name\":\"j0\",\"rotation\":[0,0,0.38268343,0.92387953],\"children\":[3]},"
             "{\"name\":\"j1\",\"translation\":[0,0.5,0]}],"
             "\"cameras\":[" ORTHO_CAMERA "],\"skins\":[{\"joints\":[2,3],\"inverseBindMatrices\":4}],"
             "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"JOINTS_0\":2,\"WEIGHTS_0\":3},\"indices\":1,"
             "\"material\":0}]}],"
             "\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorFactor\":[1,0,0,1]},\"extensions\":{\"KHR_materials_unlit\":{}}}],"
             "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"},"
             "{\"bufferView\":1,\"componentType\":5123,\"count\":6,\"type\":\"SCALAR\"},"
             "{\"bufferView\":2,\"componentType\":5121,\"count\":4,\"type\":\"VEC4\"},"
             "{\"bufferView\":3,\"componentType\":5126,\"count\":4,\"type\":\"VEC4\"},"
             "{\"bufferView\":4,\"componentType\":5126,\"count\":2,\"type\":\"MAT4\"}],"
             "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":48},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":12},"
             "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":16},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":64},"
             "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":128}],\"buffers\":[{\"byteLength\":%zu}]}",
             o_pos, o_idx, o_j, o_w, o_m, g.bin_len);
    uint8_t img[W * H * 4];
    if (render_glb(json, &g, 0, img)) {
        printf("skinned quad on a two-joint chain turned 45 degrees: a diamond\n");
        HL_CHECK_PIXEL(px(img, 52, 32), 255, 0, 0, 255, 1); /* (0.64, 0): inside the diamond, outside the square */
        HL_CHECK_PIXEL(px(img, 32, 11), 255, 0, 0, 255, 1); /* (0, 0.64): the top corner (joint 1's vertices) */
        HL_CHECK_PIXEL(px(img, 46, 18), 0, 0, 0, 255, 1);   /* (0.45, 0.45): the square's corner, outside the diamond */
    }
    hl_test_glb_free(&g);
}

static void test_skin(bool many) {
    hl_test_glb g = {0};
    const float pos[12] = {-0.5f, -0.5f, 0, 0.5f, -0.5f, 0, 0.5f, 0.5f, 0, -0.5f, 0.5f, 0};
    uint8_t joints[16] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    if (many)
        for (int v = 0; v < 4; v++) joints[v * 4] = 255;
    const float weights[16] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    const float times[2] = {0, 1}, tr[6] = {0, 0, 0, 0.5f, 0, 0};
    size_t o_pos = hl_test_glb_add(&g, pos, sizeof pos), o_idx = hl_test_glb_add(&g, k_idx, sizeof k_idx);
    size_t o_j = hl_test_glb_add(&g, joints, sizeof joints), o_w = hl_test_glb_add(&g, weights, sizeof weights);
    size_t o_t = hl_test_glb_add(&g, times, sizeof times), o_tr = hl_test_glb_add(&g, tr, sizeof tr);
    /* nodes: 0 the mesh (far away), 1 the camera, 2.. the joints (256: 2..257, the last moved) */
    char joints_list[2000] = "", joint_nodes[16000] = "";
    uint32_t nj = many ? 256 : 2;
    for (uint32_t k = 0; k < nj; k++) {
        size_t a = strlen(joints_list), b = strlen(joint_nodes);
        snprintf(joints_list + a, sizeof joints_list - a, "%s%u", k ? "," : "", 2 + k);
        snprintf(joint_nodes + b, sizeof joint_nodes - b, ",{\"name\":\"j%u\"%s}", k,
                 many && k == 255 ? ",\"translation\":[0.5,0,0]" : "");
    }
    char *json = malloc(40000);
    if (!json) return;
    snprintf(json, 40000,
             "{\"asset\":{\"version\":\"2.0\"},\"scenes\":[{\"nodes\":[0,1%s]}],"
             "\"nodes\":[{\"mesh\":0,\"skin\":0,\"translation\":[5,5,5]},{\"camera\":0,\"translation\":[0,0,2]}%s],"
             "\"cameras\":[" ORTHO_CAMERA "],\"skins\":[{\"joints\":[%s]}],"
             "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"JOINTS_0\":2,\"WEIGHTS_0\":3},\"indices\":1,"
             "\"material\":0}]}],"
             "\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorFactor\":[1,0,0,1]},\"extensions\":{\"KHR_materials_unlit\":{}}}],"
             "\"animations\":[{\"channels\":[{\"sampler\":0,\"target\":{\"node\":3,\"path\":\"translation\"}}],"
             "\"samplers\":[{\"input\":4,\"output\":5}]}],"
             "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"},"
             "{\"bufferView\":1,\"componentType\":5123,\"count\":6,\"type\":\"SCALAR\"},"
             "{\"bufferView\":2,\"componentType\":5121,\"count\":4,\"type\":\"VEC4\"},"
             "{\"bufferView\":3,\"componentType\":5126,\"count\":4,\"type\":\"VEC4\"},"
             "{\"bufferView\":4,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
             "{\"bufferView\":5,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}],"
             "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":48},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":12},"
             "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":16},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":64},"
             "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":8},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":24}],"
             "\"buffers\":[{\"byteLength\":%zu}]}",
             "", joint_nodes, joints_list, o_pos, o_idx, o_j, o_w, o_t, o_tr, g.bin_len);
    /* the joints hang under the scene root too: add them to the scene's node list */
    char *scene = strstr(json, "[0,1]");
    if (scene) {
        char tail[40000];
        snprintf(tail, sizeof tail, "%s", scene + 4);
        snprintf(scene, 40000 - (size_t)(scene - json), "[0,1,%s%s", joints_list, tail);
    }
    uint8_t img[W * H * 4];
    if (many) {
        if (render_glb_at(json, &g, 0, -1.0f, img)) {
            printf("skin of 256 joints, the last moved right by 0.5\n");
            HL_CHECK_PIXEL(px(img, 56, 32), 255, 0, 0, 255, 1); /* x 0.75 */
            HL_CHECK_PIXEL(px(img, 8, 32), 0, 0, 0, 255, 1);    /* x -0.75 */
            HL_CHECK_PIXEL(px(img, 20, 32), 0, 0, 0, 255, 1);   /* x -0.36: left of the moved quad */
        }
    } else {
        for (int i = 0; i < 2; i++) {
            if (!render_glb_at(json, &g, 0, (float)i, img)) break;
            printf("skinned quad, joint 1 animated to x %.1f\n", i * 0.5);
            HL_CHECK_PIXEL(px(img, 32, 32), 255, 0, 0, 255, 1);
            HL_CHECK_PIXEL(px(img, 56, 19), i ? 255 : 0, 0, 0, 255, 1); /* (0.75, 0.4): only the sheared quad */
            HL_CHECK_PIXEL(px(img, 19, 19), i ? 0 : 255, 0, 0, 255, 1); /* (-0.4, 0.4): only the square */
        }
    }
    free(json);
    hl_test_glb_free(&g);
}

/* A second set of skin influences (JOINTS_1 / WEIGHTS_1, 8 joints a vertex): the half-size
 * quad's bottom vertices on joint 0 through JOINTS_0, its top ones only on joint 2 (moved right
 * by 0.5) through JOINTS_1 (u16; their WEIGHTS_0 are 0), the mesh node far away: sheared as the
 * animated quad of test_skin. A lit ground quad 1 behind it (PBR white, receives shadows) and a
 * directional light travelling along (0, -1, -1) that casts shadows: the skinned shadow program
 * puts the shadow of the quad's top half, sheared too, 1 below it. Checked: the quad's red at
 * (0.75, 0.4) and the ground at (-0.39, 0.4) (the square's corner); the ground under the
 * sheared shadow (0.77, -0.61) darker by 40 than at (-0.33, -0.61) (in the square's shadow).
 * full: the quad also has NORMAL, TEXCOORD_0/1, COLOR_0 and a PBR material (black, emissive red)
 * with a normal map (generated tangents) and an occlusion map on TEXCOORD_1: 10 attributes, over
 * the 8 vertex buffers, so the draw leaves the tangent and TEXCOORD_1 out and still places the
 * quad by its 8 influences (red within 40: the light's specular on the black base). */
static void test_skin8(bool full) {
    hl_test_glb g = {0};
    const float pos[12] = {-0.5f, -0.5f, 0, 0.5f, -0.5f, 0, 0.5f, 0.5f, 0, -0.5f, 0.5f, 0};
    const float nrm[12] = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
    const uint8_t joints0[16] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    const float weights0[16] = {1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    const uint16_t joints1[16] = {0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0};
    const float weights1[16] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    const float white[16] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    const uint8_t flat_normal[4] = {128, 128, 255, 255};
    size_t png_n = 0;
    uint8_t *png = hl_test_png(1, 1, flat_normal, &png_n);
    size_t o_pos = hl_test_glb_add(&g, pos, sizeof pos), o_idx = hl_test_glb_add(&g, k_idx, sizeof k_idx);
    size_t o_j0 = hl_test_glb_add(&g, joints0, sizeof joints0), o_w0 = hl_test_glb_add(&g, weights0, sizeof weights0);
    size_t o_j1 = hl_test_glb_add(&g, joints1, sizeof joints1), o_w1 = hl_test_glb_add(&g, weights1, sizeof weights1);
    size_t o_gp = hl_test_glb_add(&g, k_pos, sizeof k_pos), o_gn = hl_test_glb_add(&g, nrm, sizeof nrm);
    size_t o_uv = hl_test_glb_add(&g, k_uv, sizeof k_uv), o_c = hl_test_glb_add(&g, white, sizeof white);
    size_t o_png = hl_test_glb_add(&g, png, png_n);
    free(png);
    char json[5000];
    snprintf(json, sizeof json,
             "{\"asset\":{\"version\":\"2.0\"},\"scenes\":[{\"nodes\":[0,1,2,3,4,5]}],"
             "\"nodes\":[{\"mesh\":0,\"skin\":0,\"translation\":[5,5,5]},{\"camera\":0,\"translation\":[0,0,2]},"
             "{\"name\":\"j0\"},{\"name\":\"j1\"},{\"name\":\"j2\",\"translation\":[0.5,0,0]},"
             "{\"name\":\"ground\",\"mesh\":1,\"translation\":[0,0,-1]}],"
             "\"cameras\":[" ORTHO_CAMERA "],\"skins\":[{\"joints\":[2,3,4]}],"
             "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"JOINTS_0\":2,\"WEIGHTS_0\":3,\"JOINTS_1\":4,"
             "\"WEIGHTS_1\":5%s},\"indices\":1,\"material\":%d}]},"
             "{\"primitives\":[{\"attributes\":{\"POSITION\":6,\"NORMAL\":7},\"indices\":1,\"material\":1}]}],"
             "\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorFactor\":[1,0,0,1]},\"extensions\":{\"KHR_materials_unlit\":{}}},"
             "{\"pbrMetallicRoughness\":{\"baseColorFactor\":[1,1,1,1],\"metallicFactor\":0,\"roughnessFactor\":1}},"
             "{\"pbrMetallicRoughness\":{\"baseColorFactor\":[0,0,0,1],\"metallicFactor\":0,\"roughnessFactor\":1},"
             "\"emissiveFactor\":[1,0,0],\"normalTexture\":{\"index\":0},\"occlusionTexture\":{\"index\":0,\"texCoord\":1}}],"
             "\"textures\":[{\"source\":0}],\"images\":[{\"bufferView\":10,\"mimeType\":\"image/png\"}],"
             "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"},"
             "{\"bufferView\":1,\"componentType\":5123,\"count\":6,\"type\":\"SCALAR\"},"
             "{\"bufferView\":2,\"componentType\":5121,\"count\":4,\"type\":\"VEC4\"},"
             "{\"bufferView\":3,\"componentType\":5126,\"count\":4,\"type\":\"VEC4\"},"
             "{\"bufferView\":4,\"componentType\":5123,\"count\":4,\"type\":\"VEC4\"},"
             "{\"bufferView\":5,\"componentType\":5126,\"count\":4,\"type\":\"VEC4\"},"
             "{\"bufferView\":6,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"},"
             "{\"bufferView\":7,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"},"
             "{\"bufferView\":8,\"componentType\":5126,\"count\":4,\"type\":\"VEC2\"},"
             "{\"bufferView\":9,\"componentType\":5126,\"count\":4,\"type\":\"VEC4\"}],"
             "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":48},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":12},"
             "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":16},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":64},"
             "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":32},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":64},"
             "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":48},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":48},"
             "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":32},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":64},"
             "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu}],\"buffers\":[{\"byteLength\":%zu}]}",
             full ? ",\"NORMAL\":7,\"TEXCOORD_0\":8,\"TEXCOORD_1\":8,\"COLOR_0\":9" : "", full ? 2 : 0, o_pos, o_idx, o_j0,
             o_w0, o_j1, o_w1, o_gp, o_gn, o_uv, o_c, o_png, png_n, g.bin_len);
    hl_gltf_asset *a = load_glb(json, &g);
    hl_test_glb_free(&g);
    if (!a) return;
    /* the mesh nodes are the first children of their glTF nodes */
    hl_mesh *quad = hl_node_mesh(hl_node_first_child(hl_gltf_asset_node(a, 0)));
    hl_mesh *ground = hl_node_mesh(hl_node_first_child(hl_gltf_asset_node(a, 5)));
    HL_CHECK_MSG(quad && ground && hl_mesh_skin_joint_count(quad) == 3, "the skinned quad (3 joints) and the ground");
    const hl_geometry_layout *l = quad ? hl_geometry_get_layout(hl_mesh_geometry(quad)) : NULL;
    HL_CHECK(l && l->attributes[HL_ATTR_JOINTS_1].present && l->attributes[HL_ATTR_JOINTS_1].type == HL_COMPONENT_UINT16 &&
             l->attributes[HL_ATTR_WEIGHTS_1].present);
    HL_CHECK(l && l->attributes[HL_ATTR_TANGENT].present == full && l->attributes[HL_ATTR_TEXCOORD_1].present == full);
    hl_stage *s = NULL;
    hl_light *light = NULL;
    HL_CHECK_OK(hl_stage_create(&s));
    hl_light_desc ld = {0};
    ld.kind = HL_LIGHT_DIRECTIONAL;
    ld.intensity = 2;
    ld.cast_shadows = true;
    HL_CHECK_OK(hl_light_create(&ld, &light));
    uint8_t img[W * H * 4];
    if (quad && ground && s && light) {
        hl_mesh_set_shadows(quad, true, false);
        hl_mesh_set_shadows(ground, false, true);
        hl_stage_set_clear_color(s, (hl_color){0, 0, 0, 1});
        hl_node_set_translation(hl_light_node(light), (hl_vec3){0, 3, 3});
        hl_node_look_at(hl_light_node(light), (hl_vec3){0, 0, 0}, (hl_vec3){0, 1, 0});
        HL_CHECK_OK(hl_stage_add(s, hl_light_node(light)));
        light = NULL; /* the stage's */
        HL_CHECK_OK(hl_stage_add(s, hl_gltf_asset_root(a)));
        if (render_read(g_r, s, hl_gltf_asset_camera(a, 0), img, sizeof img)) {
            printf("8 skin influences%s: the top vertices on a JOINTS_1 joint, forward and shadow\n",
                   full ? " and 10 attributes" : "");
            int tol = full ? 40 : 1;
            HL_CHECK_PIXEL(px(img, 32, 32), 255, 0, 0, 255, tol);
            HL_CHECK_PIXEL(px(img, 56, 19), 255, 0, 0, 255, tol); /* (0.75, 0.4): only the sheared quad */
            const uint8_t *corner = px(img, 19, 19), *shadow = px(img, 56, 51), *lit = px(img, 20, 51);
            HL_CHECK_MSG(corner[1] >= 60, "(-0.39, 0.4) is the lit ground, not the quad: %u %u %u", corner[0], corner[1],
                         corner[2]);
            HL_CHECK_MSG(lit[1] >= 60 && lit[1] >= shadow[1] + 40,
                         "ground at (0.77, -0.61) in the sheared quad's shadow (g %u), at (-0.33, -0.61) lit (g %u)",
                         shadow[1], lit[1]);
        }
    }
    hl_node_destroy(hl_light_node(light));
    hl_gltf_asset_destroy(a);
    hl_stage_destroy(s);
}

/* Morph targets: a half-size quad whose one target moves its top vertices right by 0.5; its
 * weight animated from 0 (t 0) to 1 (t 1) shears the quad as the skinned one. */
static void test_morph(void) {
    hl_test_glb g = {0};
    const float pos[12] = {-0.5f, -0.5f, 0, 0.5f, -0.5f, 0, 0.5f, 0.5f, 0, -0.5f, 0.5f, 0};
    const float nrm[12] = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
    const float d[12] = {0, 0, 0, 0, 0, 0, 0.5f, 0, 0, 0.5f, 0, 0}, times[2] = {0, 1}, w[2] = {0, 1};
    size_t o_pos = hl_test_glb_add(&g, pos, sizeof pos), o_idx = hl_test_glb_add(&g, k_idx, sizeof k_idx);
    size_t o_n = hl_test_glb_add(&g, nrm, sizeof nrm), o_d = hl_test_glb_add(&g, d, sizeof d);
    size_t o_t = hl_test_glb_add(&g, times, sizeof times), o_w = hl_test_glb_add(&g, w, sizeof w);
    char json[3000];
    snprintf(json, sizeof json,
             "{\"asset\":{\"version\":\"2.0\"},\"scenes\":[{\"nodes\":[0,1]}],"
             "\"nodes\":[{\"mesh\":0},{\"camera\":0,\"translation\":[0,0,2]}],\"cameras\":[" ORTHO_CAMERA "],"
             "\"meshes\":[{\"weights\":[0],\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":2},\"indices\":1,"
             "\"material\":0,\"targets\":[{\"POSITION\":3}]}]}],"
             "\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorFactor\":[1,0,0,1]},\"extensions\":{\"KHR_materials_unlit\":{}}}],"
             "\"animations\":[{\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"weights\"}}],"
             "\"samplers\":[{\"input\":4,\"output\":5}]}],"
             "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"},"
             "{\"bufferView\":1,\"componentType\":5123,\"count\":6,\"type\":\"SCALAR\"},"
             "{\"bufferView\":2,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"},"
             "{\"bufferView\":3,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"},"
             "{\"bufferView\":4,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
             "{\"bufferView\":5,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"}],"
             "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":48},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":12},"
             "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":48},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":48},"
             "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":8},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":8}],"
             "\"buffers\":[{\"byteLength\":%zu}]}",
             o_pos, o_idx, o_n, o_d, o_t, o_w, g.bin_len);
    uint8_t img[W * H * 4];
    for (int i = 0; i < 2; i++) {
        if (!render_glb_at(json, &g, 0, (float)i, img)) break;
        printf("morph target weight %d\n", i);
        HL_CHECK_PIXEL(px(img, 32, 32), 255, 0, 0, 255, 1);
        HL_CHECK_PIXEL(px(img, 56, 19), i ? 255 : 0, 0, 0, 255, 1);
        HL_CHECK_PIXEL(px(img, 19, 19), i ? 0 : 255, 0, 0, 255, 1);
    }
    hl_test_glb_free(&g);
}

/* Morph targets on a flat-shaded quad (no NORMAL: the loader gives every triangle its own
 * vertices and face normal): a white PBR quad [-0.5, 0.5]^2 as triangles (0,1,3) (1,2,3), lit
 * by the file's directional light along -Z; the target moves vertex 2 by (0.4, 0.4, 1.5), its
 * weight animated from 0 (t 0) to 1 (t 1). At 1 the vertex covers (0.8, 0.8) and the second
 * face, tilted to the normal (-0.54, -0.54, 0.65), is darker than the first, which keeps its
 * shade; at 0 the quad is flat and (0.8, 0.8) empty. */
static void test_morph_flat(void) {
    hl_test_glb g = {0};
    const float pos[12] = {-0.5f, -0.5f, 0, 0.5f, -0.5f, 0, 0.5f, 0.5f, 0, -0.5f, 0.5f, 0};
    const uint16_t idx[6] = {0, 1, 3, 1, 2, 3};
    const float d[12] = {0, 0, 0, 0, 0, 0, 0.4f, 0.4f, 1.5f, 0, 0, 0}, times[2] = {0, 1}, w[2] = {0, 1};
    size_t o_pos = hl_test_glb_add(&g, pos, sizeof pos), o_idx = hl_test_glb_add(&g, idx, sizeof idx);
    size_t o_d = hl_test_glb_add(&g, d, sizeof d), o_t = hl_test_glb_add(&g, times, sizeof times);
    size_t o_w = hl_test_glb_add(&g, w, sizeof w);
    char json[3000];
    snprintf(json, sizeof json,
             "{\"asset\":{\"version\":\"2.0\"},\"extensionsUsed\":[\"KHR_lights_punctual\"],"
             "\"extensions\":{\"KHR_lights_punctual\":{\"lights\":[{\"type\":\"directional\",\"intensity\":3}]}},"
             "\"scenes\":[{\"nodes\":[0,1,2]}],\"nodes\":[{\"mesh\":0},{\"camera\":0,\"translation\":[0,0,2]},"
             "{\"extensions\":{\"KHR_lights_punctual\":{\"light\":0}}}],\"cameras\":[" ORTHO_CAMERA "],"
             "\"meshes\":[{\"weights\":[0],\"primitives\":[{\"attributes\":{\"POSITION\":0},\"indices\":1,"
             "\"material\":0,\"targets\":[{\"POSITION\":2}]}]}],"
             "\"materials\":[{\"pbrMetallicRoughness\":{\"metallicFactor\":0,\"roughnessFactor\":1}}],"
             "\"animations\":[{\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"weights\"}}],"
             "\"samplers\":[{\"input\":3,\"output\":4}]}],"
             "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"},"
             "{\"bufferView\":1,\"componentType\":5123,\"count\":6,\"type\":\"SCALAR\"},"
             "{\"bufferView\":2,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"},"
             "{\"bufferView\":3,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
             "{\"bufferView\":4,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"}],"
             "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":48},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":12},"
             "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":48},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":8},"
             "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":8}],"
             "\"buffers\":[{\"byteLength\":%zu}]}",
             o_pos, o_idx, o_d, o_t, o_w, g.bin_len);
    uint8_t img[W * H * 4];
    int first[2] = {-1, -1}, second[2] = {-1, -1};
    for (int i = 0; i < 2; i++) {
        if (!render_glb_at(json, &g, 0, (float)i, img)) break;
        first[i] = px(img, 22, 41)[0], second[i] = px(img, 41, 22)[0]; /* (-0.3, -0.3), (0.3, 0.3) */
        const uint8_t *corner = px(img, 57, 6);                      /* (0.8, 0.8) */
        printf("flat-shaded morph weight %d: first face %d, second %d, (0.8, 0.8) %u\n", i, first[i], second[i], corner[0]);
        HL_CHECK_MSG(i ? corner[0] >= 20 : corner[0] == 0, "(0.8, 0.8) %s the moved vertex's face (%u)",
                     i ? "inside" : "outside", corner[0]);
    }
    HL_CHECK_MSG(first[0] >= 40 && abs(second[0] - first[0]) <= 1, "weight 0: one flat shade (%d, %d)", first[0], second[0]);
    HL_CHECK_MSG(abs(first[1] - first[0]) <= 1, "the unmoved face keeps its shade (%d, %d)", first[0], first[1]);
    HL_CHECK_MSG(second[1] >= 20 && second[1] <= first[1] - 25, "the tilted face is darker (%d, the flat one %d)",
                 second[1], first[1]);
    hl_test_glb_free(&g);
}

/* The centre of a white PBR quad lit by the file's directional light of `intensity` (< 0: no
 * light node); the red channel. */
static int lit_center(float intensity) {
    hl_test_glb g = {0};
    size_t o_pos = hl_test_glb_add(&g, k_pos, sizeof k_pos), o_idx = hl_test_glb_add(&g, k_idx, sizeof k_idx);
    const float normals[12] = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
    size_t o_nrm = hl_test_glb_add(&g, normals, sizeof normals);
    char json[2600], light_node[120] = "";
    if (intensity >= 0) snprintf(light_node, sizeof light_node, ",{\"extensions\":{\"KHR_lights_punctual\":{\"light\":0}}}");
    snprintf(json, sizeof json,
             "{\"asset\":{\"version\":\"2.0\"},\"extensionsUsed\":[\"KHR_lights_punctual\"],"
             "\"extensions\":{\"KHR_lights_punctual\":{\"lights\":[{\"type\":\"directional\",\"intensity\":%g}]}},"
             "\"scenes\":[{\"nodes\":[0,1%s]}],"
             "\"nodes\":[{\"mesh\":0},{\"camera\":0,\"translation\":[0,0,2]}%s],\"cameras\":[" ORTHO_CAMERA "],"
             "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":2},\"indices\":1,\"material\":0}]}],"
             "\"materials\":[{\"pbrMetallicRoughness\":{\"metallicFactor\":0,\"roughnessFactor\":1}}],"
             "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"},"
             "{\"bufferView\":1,\"componentType\":5123,\"count\":6,\"type\":\"SCALAR\"},"
             "{\"bufferView\":2,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"}],"
             "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":48},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":12},"
             "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":48}],"
             "\"buffers\":[{\"byteLength\":%zu}]}",
             intensity >= 0 ? intensity : 1.0f, intensity >= 0 ? ",2" : "", light_node, o_pos, o_idx, o_nrm, g.bin_len);
    uint8_t img[W * H * 4];
    int red = -1;
    if (render_glb(json, &g, 0, img)) red = px(img, 32, 32)[0];
    hl_test_glb_free(&g);
    return red;
}

/* A normal-mapped white PBR quad without tangents (the loader makes them) whose map tilts the
 * normal towards +X (green: towards +Y), lit by a directional light coming from the side given
 * by the light node's rotation quaternion q; the centre's red channel. */
static int normal_mapped(const uint8_t texel[4], const float q[4]) {
    hl_test_glb g = {0};
    size_t png_n = 0;
    uint8_t *png = hl_test_png(1, 1, texel, &png_n);
    const float normals[12] = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
    size_t o_pos = hl_test_glb_add(&g, k_pos, sizeof k_pos), o_uv = hl_test_glb_add(&g, k_uv, sizeof k_uv);
    size_t o_idx = hl_test_glb_add(&g, k_idx, sizeof k_idx), o_nrm = hl_test_glb_add(&g, normals, sizeof normals);
    size_t o_png = hl_test_glb_add(&g, png, png_n);
    free(png);
    char json[3000];
    snprintf(json, sizeof json,
             "{\"asset\":{\"version\":\"2.0\"},\"extensionsUsed\":[\"KHR_lights_punctual\"],"
             "\"extensions\":{\"KHR_lights_punctual\":{\"lights\":[{\"type\":\"directional\",\"intensity\":2}]}},"
             "\"scenes\":[{\"nodes\":[0,1,2]}],\"nodes\":[{\"mesh\":0},{\"camera\":0,\"translation\":[0,0,2]},"
             "{\"rotation\":[%g,%g,%g,%g],\"extensions\":{\"KHR_lights_punctual\":{\"light\":0}}}],\"cameras\":[" ORTHO_CAMERA "],"
             "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"TEXCOORD_0\":1,\"NORMAL\":3},\"indices\":2,"
             "\"material\":0}]}],"
             "\"materials\":[{\"normalTexture\":{\"index\":0},\"pbrMetallicRoughness\":{\"metallicFactor\":0}}],"
             "\"textures\":[{\"source\":0}],\"images\":[{\"bufferView\":4,\"mimeType\":\"image/png\"}],"
             "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"},"
             "{\"bufferView\":1,\"componentType\":5126,\"count\":4,\"type\":\"VEC2\"},"
             "{\"bufferView\":2,\"componentType\":5123,\"count\":6,\"type\":\"SCALAR\"},"
             "{\"bufferView\":3,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"}],"
             "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":48},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":32},"
             "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":12},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":48},"
             "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu}],\"buffers\":[{\"byteLength\":%zu}]}",
             q[0], q[1], q[2], q[3], o_pos, o_uv, o_idx, o_nrm, o_png, png_n, g.bin_len);
    uint8_t img[W * H * 4];
    int red = -1;
    if (render_glb(json, &g, 0, img)) red = px(img, 32, 32)[0];
    hl_test_glb_free(&g);
    return red;
}

static void test_normal_map(void) {
    const float c = 0.92388f, sn = 0.38268f; /* 45-degree turns of the light's -Z */
    const float from_right[4] = {0, sn, 0, c}, from_left[4] = {0, -sn, 0, c};
    const float from_above[4] = {-sn, 0, 0, c}, from_below[4] = {sn, 0, 0, c};
    const uint8_t tilt_x[4] = {185, 128, 241, 255}, tilt_y[4] = {128, 185, 241, 255};
    int r = normal_mapped(tilt_x, from_right), l = normal_mapped(tilt_x, from_left);
    int up = normal_mapped(tilt_y, from_above), down = normal_mapped(tilt_y, from_below);
    printf("normal map (generated tangents): tilt +X lit from right %d / left %d; tilt +Y from above %d / below %d\n",
           r, l, up, down);
    HL_CHECK_MSG(r > l + 30, "a normal tilted towards +X is brighter lit from +X (%d vs %d)", r, l);
    HL_CHECK_MSG(up > down + 30, "a normal tilted towards +Y (the map's green) is brighter lit from +Y (%d vs %d)", up, down);
}

static void test_lights(void) {
    int none = lit_center(-1.0f), one = lit_center(1.0f), three = lit_center(3.0f);
    printf("directional light: none %d, intensity 1 %d, intensity 3 %d\n", none, one, three);
    HL_CHECK_MSG(none == 0, "no light: black (%d)", none);
    HL_CHECK_MSG(one > 20 && three > one, "the file's light lights the quad, more at intensity 3 (%d, %d)", one, three);
}

int main(int argc, char **argv) {
    backend_of(argc, argv);
    g_r = make_renderer(W, H, 1);
    if (!g_r) return hl_test_finish();
    test_textured_quad(0, false);
    test_textured_quad(1, false);
    test_textured_quad(0, true);
    test_texture_transform();
    test_hierarchy();
    test_vertex_colors();
    test_quantized_sparse_strip();
    test_alpha_mask();
    test_lights();
    test_animation();
    test_normal_map();
    test_skin(false);
    test_skin(true);
    test_skin_chain();
    test_skin8(false);
    test_skin8(true);
    test_morph();
    test_morph_flat();
    hl_renderer_destroy(g_r);
    return hl_test_finish();
}
