/* bench/gltf_load: glTF loading and animation costs (issue 10).
 *
 *   gltf_load [--json] [--triangles N] [--texture S] [--characters C] [--joints J] [--frames F]
 *             [--backend webgpu|gles3] [--size WxH] [--write-glb DIR]
 *
 * 1. Load: a GLB generated in memory (a grid of about N triangles, default 1,000,000, with
 *    POSITION, NORMAL, TEXCOORD_0, u32 indices, a PNG base colour map of S x S, default 1024,
 *    and a PNG normal map of the same size) is parsed and built (hl_gltf_load_memory: JSON,
 *    accessors, geometry, image decoding, tangents): MB/s of the file; then the first frame
 *    (hl_renderer_render + hl_renderer_wait_idle: upload of the geometry and textures, mips,
 *    programs): ms to first frame from the start of the load, the renderer already created.
 * 2. Animation: C skinned characters (default 100), each a mesh of J boxes (default 16) skinned
 *    to a chain of J joints and one animation turning every joint (LINEAR rotation, 30 keys),
 *    all sampled each frame (hl_animations_apply) and rendered (the renderer computes and
 *    uploads every joint palette: C x J matrices): CPU ms of the sampling and of the render call
 *    (medians over F frames, default 60, after 60 warm-up frames: one loop of the 1 s
 *    animation) and heap allocations per steady-state frame (allocator hook).
 * --write-glb DIR also writes the two models (grid.glb, characters.glb) there, for
 * `hilo3d render DIR/characters.glb --animation 0 --time 0.25`. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_draws.h"
#include "hilo3d/gltf.h"
#include "hilo3d/renderer.h"
#include "hilo3d/scene.h"
#include "hl_test_gltf.h"


/* A grid of about `tris` triangles over [-1, 1]^2 with two S x S PNG maps. */
static uint8_t *grid_glb(uint32_t tris, uint32_t tex, size_t *size) {
    uint32_t q = (uint32_t)ceil(sqrt((double)tris / 2.0)), v = q + 1;
    size_t nv = (size_t)v * v, ni = (size_t)q * q * 6;
    float *pos = malloc(nv * 12), *nrm = malloc(nv * 12), *uv = malloc(nv * 8);
    uint32_t *idx = malloc(ni * 4);
    uint8_t *img = malloc((size_t)tex * tex * 4), *nmap = malloc((size_t)tex * tex * 4);
    if (!pos || !nrm || !uv || !idx || !img || !nmap) return NULL;
    for (uint32_t y = 0; y < v; y++)
        for (uint32_t x = 0; x < v; x++) {
            size_t i = (size_t)y * v + x;
            float fx = (float)x / (float)q, fy = (float)y / (float)q;
            pos[i * 3] = fx * 2 - 1, pos[i * 3 + 1] = fy * 2 - 1, pos[i * 3 + 2] = 0.05f * sinf(fx * 40.0f) * cosf(fy * 40.0f);
            nrm[i * 3] = 0, nrm[i * 3 + 1] = 0, nrm[i * 3 + 2] = 1;
            uv[i * 2] = fx, uv[i * 2 + 1] = 1 - fy;
        }
    size_t k = 0;
    for (uint32_t y = 0; y < q; y++)
        for (uint32_t x = 0; x < q; x++) {
            uint32_t a = y * v + x, b = a + 1, c = a + v, d = c + 1;
            idx[k++] = a, idx[k++] = b, idx[k++] = d, idx[k++] = a, idx[k++] = d, idx[k++] = c;
        }
    for (size_t i = 0; i < (size_t)tex * tex; i++) { /* noise-like content: PNG cannot shrink it much */
        uint32_t h = (uint32_t)i * 2654435761u;
        img[i * 4] = (uint8_t)(h >> 24), img[i * 4 + 1] = (uint8_t)(h >> 16), img[i * 4 + 2] = (uint8_t)(h >> 8), img[i * 4 + 3] = 255;
        nmap[i * 4] = (uint8_t)(128 + (h >> 28)), nmap[i * 4 + 1] = (uint8_t)(128 + ((h >> 24) & 15)), nmap[i * 4 + 2] = 250,
        nmap[i * 4 + 3] = 255;
    }
    size_t png_n = 0, nrm_n = 0;
    uint8_t *png = hl_test_png(tex, tex, img, &png_n), *npng = hl_test_png(tex, tex, nmap, &nrm_n);
    hl_test_glb g = {0};
    size_t o_p = hl_test_glb_add(&g, pos, nv * 12), o_n = hl_test_glb_add(&g, nrm, nv * 12);
    size_t o_uv = hl_test_glb_add(&g, uv, nv * 8), o_i = hl_test_glb_add(&g, idx, ni * 4);
    size_t o_png = hl_test_glb_add(&g, png, png_n), o_npng = hl_test_glb_add(&g, npng, nrm_n);
    char json[3000];
    snprintf(json, sizeof json,
             "{\"asset\":{\"version\":\"2.0\"},\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"mesh\":0}],"
             "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":1,\"TEXCOORD_0\":2},\"indices\":3,\"material\":0}]}],"
             "\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0},\"metallicFactor\":0},"
             "\"normalTexture\":{\"index\":1}}],\"textures\":[{\"source\":0},{\"source\":1}],"
             "\"images\":[{\"bufferView\":4,\"mimeType\":\"image/png\"},{\"bufferView\":5,\"mimeType\":\"image/png\"}],"
             "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":%zu,\"type\":\"VEC3\"},"
             "{\"bufferView\":1,\"componentType\":5126,\"count\":%zu,\"type\":\"VEC3\"},"
             "{\"bufferView\":2,\"componentType\":5126,\"count\":%zu,\"type\":\"VEC2\"},"
             "{\"bufferView\":3,\"componentType\":5125,\"count\":%zu,\"type\":\"SCALAR\"}],"
             "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu},"
             "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu},"
             "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu}],"
             "\"buffers\":[{\"byteLength\":%zu}]}",
             nv, nv, nv, ni, o_p, nv * 12, o_n, nv * 12, o_uv, nv * 8, o_i, ni * 4, o_png, png_n, o_npng, nrm_n, g.bin_len);
    uint8_t *file = hl_test_glb_file(json, &g, size);
    hl_test_glb_free(&g);
    free(pos), free(nrm), free(uv), free(idx), free(img), free(nmap), free(png), free(npng);
    return file;
}

/* C skinned characters: one mesh (J boxes stacked 0.25 apart, box j on joint j) shared by every
 * character, each with its own skin over a chain of J joints rooted at its place on a grid, and
 * one animation per character turning every joint. */
static uint8_t *characters_glb(uint32_t chars, uint32_t joints, size_t *size) {
    enum { KEYS = 30 };
    float times[KEYS], rot[KEYS * 4];
    for (int k = 0; k < KEYS; k++) {
        times[k] = (float)k / (KEYS - 1);
        float a = 0.4f * sinf(6.2831853f * times[k]);
        rot[k * 4] = 0, rot[k * 4 + 1] = 0, rot[k * 4 + 2] = sinf(a / 2), rot[k * 4 + 3] = cosf(a / 2);
    }
    size_t nv = (size_t)joints * 8, ni = (size_t)joints * 36;
    float *pos = malloc(nv * 12), *wts = malloc(nv * 16), *ibm = calloc((size_t)joints * 16, sizeof(float));
    uint16_t *jnt = malloc(nv * 8), *idx = malloc(ni * 2);
    if (!pos || !wts || !ibm || !jnt || !idx) return NULL;
    static const uint16_t box_idx[36] = {0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
                                         2, 3, 7, 2, 7, 6, 1, 2, 6, 1, 6, 5, 0, 4, 7, 0, 7, 3};
    for (uint32_t j = 0; j < joints; j++) {
        for (uint32_t v = 0; v < 8; v++) {
            size_t i = (size_t)j * 8 + v;
            pos[i * 3] = (v & 1) ^ ((v >> 1) & 1) ? 0.1f : -0.1f;
            pos[i * 3 + 1] = 0.25f * (float)j + ((v >> 1) & 1 ? 0.1f : -0.1f);
            pos[i * 3 + 2] = v & 4 ? 0.1f : -0.1f;
            jnt[i * 4] = (uint16_t)j, jnt[i * 4 + 1] = jnt[i * 4 + 2] = jnt[i * 4 + 3] = 0;
            wts[i * 4] = 1, wts[i * 4 + 1] = wts[i * 4 + 2] = wts[i * 4 + 3] = 0;
        }
        for (int k = 0; k < 36; k++) idx[(size_t)j * 36 + (size_t)k] = (uint16_t)(j * 8 + box_idx[k]);
        float *m = ibm + (size_t)j * 16; /* the inverse of the joint's bind pose: translate(0, -0.25 j, 0) */
        m[0] = m[5] = m[10] = m[15] = 1;
        m[13] = -0.25f * (float)j;
    }
    hl_test_glb g = {0};
    size_t o_p = hl_test_glb_add(&g, pos, nv * 12), o_j = hl_test_glb_add(&g, jnt, nv * 8);
    size_t o_w = hl_test_glb_add(&g, wts, nv * 16), o_i = hl_test_glb_add(&g, idx, ni * 2);
    size_t o_m = hl_test_glb_add(&g, ibm, (size_t)joints * 64);
    size_t o_t = hl_test_glb_add(&g, times, sizeof times), o_r = hl_test_glb_add(&g, rot, sizeof rot);
    free(pos), free(wts), free(ibm), free(jnt), free(idx);
    size_t cap = 8192 + (size_t)chars * joints * 170 + (size_t)chars * 400;
    char *json = malloc(cap);
    if (!json) return NULL;
    uint32_t per = joints + 1; /* nodes per character: the joints, then the mesh node */
    size_t at = (size_t)snprintf(json, cap, "{\"asset\":{\"version\":\"2.0\"},\"scenes\":[{\"nodes\":[");
    for (uint32_t c = 0; c < chars; c++)
        at += (size_t)snprintf(json + at, cap - at, "%s%u,%u", c ? "," : "", c * per, c * per + joints);
    at += (size_t)snprintf(json + at, cap - at, "]}],\"nodes\":[");
    for (uint32_t c = 0; c < chars; c++) {
        float x = (float)(c % 10) * 2.0f - 9.0f, z = -(float)(c / 10) * 2.0f;
        for (uint32_t j = 0; j < joints; j++) {
            at += (size_t)snprintf(json + at, cap - at, "%s{\"translation\":[%g,%g,%g]", c || j ? "," : "",
                                   j ? 0.0 : (double)x, j ? 0.25 : 0.0, j ? 0.0 : (double)z);
            if (j + 1 < joints) at += (size_t)snprintf(json + at, cap - at, ",\"children\":[%u]", c * per + j + 1);
            at += (size_t)snprintf(json + at, cap - at, "}");
        }
        at += (size_t)snprintf(json + at, cap - at, ",{\"mesh\":0,\"skin\":%u}", c);
    }
    at += (size_t)snprintf(json + at, cap - at, "],\"skins\":[");
    for (uint32_t c = 0; c < chars; c++) {
        at += (size_t)snprintf(json + at, cap - at, "%s{\"inverseBindMatrices\":4,\"joints\":[", c ? "," : "");
        for (uint32_t j = 0; j < joints; j++) at += (size_t)snprintf(json + at, cap - at, "%s%u", j ? "," : "", c * per + j);
        at += (size_t)snprintf(json + at, cap - at, "]}");
    }
    at += (size_t)snprintf(json + at, cap - at, "],\"animations\":[");
    for (uint32_t c = 0; c < chars; c++) {
        at += (size_t)snprintf(json + at, cap - at, "%s{\"samplers\":[{\"input\":5,\"output\":6}],\"channels\":[", c ? "," : "");
        for (uint32_t j = 0; j < joints; j++)
            at += (size_t)snprintf(json + at, cap - at, "%s{\"sampler\":0,\"target\":{\"node\":%u,\"path\":\"rotation\"}}",
                                   j ? "," : "", c * per + j);
        at += (size_t)snprintf(json + at, cap - at, "]}");
    }
    snprintf(json + at, cap - at,
             "],\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"JOINTS_0\":1,\"WEIGHTS_0\":2},\"indices\":3}]}],"
             "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":%zu,\"type\":\"VEC3\"},"
             "{\"bufferView\":1,\"componentType\":5123,\"count\":%zu,\"type\":\"VEC4\"},"
             "{\"bufferView\":2,\"componentType\":5126,\"count\":%zu,\"type\":\"VEC4\"},"
             "{\"bufferView\":3,\"componentType\":5123,\"count\":%zu,\"type\":\"SCALAR\"},"
             "{\"bufferView\":4,\"componentType\":5126,\"count\":%u,\"type\":\"MAT4\"},"
             "{\"bufferView\":5,\"componentType\":5126,\"count\":%d,\"type\":\"SCALAR\"},"
             "{\"bufferView\":6,\"componentType\":5126,\"count\":%d,\"type\":\"VEC4\"}],"
             "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu},"
             "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu},"
             "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu},"
             "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu}],"
             "\"buffers\":[{\"byteLength\":%zu}]}",
             nv, nv, nv, ni, joints, KEYS, KEYS, o_p, nv * 12, o_j, nv * 8, o_w, nv * 16, o_i, ni * 2, o_m,
             (size_t)joints * 64, o_t, sizeof times, o_r, sizeof rot, g.bin_len);
    uint8_t *file = hl_test_glb_file(json, &g, size);
    free(json);
    hl_test_glb_free(&g);
    return file;
}

static void write_glb(const char *dir, const char *name, const uint8_t *data, size_t size) {
    if (!dir) return;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size) fprintf(stderr, "gltf_load: cannot write %s\n", path);
    if (f) fclose(f);
}

static hl_camera *camera_at(hl_vec3 pos, hl_vec3 target, float aspect) {
    hl_camera_desc cd = {0};
    cd.fov_y_deg = 50;
    cd.aspect = aspect;
    cd.near_plane = 0.05f;
    cd.far_plane = 200;
    hl_camera *c = NULL;
    if (hl_camera_create(&cd, &c)) return NULL;
    hl_node_set_translation(hl_camera_node(c), pos);
    hl_node_look_at(hl_camera_node(c), target, (hl_vec3){0, 1, 0});
    return c;
}

static int fail(const char *what, hl_result r) {
    fprintf(stderr, "gltf_load: %s: %s: %s\n", what, hl_result_name(r), hl_last_error());
    return 1;
}

int main(int argc, char **argv) {
    bool json = false;
    uint32_t tris = 1000000, tex = 1024, chars = 100, joints = 16, frames = 60, w = 640, h = 360;
    hl_backend backend = HL_BACKEND_WEBGPU;
    const char *write_dir = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--json")) json = true;
        else if (!strcmp(a, "--triangles") && v) tris = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(a, "--texture") && v) tex = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(a, "--characters") && v) chars = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(a, "--joints") && v) joints = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(a, "--frames") && v) frames = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(a, "--size") && v && sscanf(v, "%ux%u", &w, &h) == 2) i++;
        else if (!strcmp(a, "--backend") && v && !hl_backend_parse(argv[++i], &backend)) continue;
        else if (!strcmp(a, "--write-glb") && v) write_dir = argv[++i];
        else {
            fprintf(stderr, "usage: gltf_load [--json] [--triangles N] [--texture S] [--characters C] [--joints J] "
                            "[--frames F] [--backend webgpu|gles3] [--size WxH] [--write-glb DIR]\n");
            return 2;
        }
    }
    if (!tris || tris > 20000000 || !tex || tex > 8192 || !chars || !joints || chars * joints > 1000000 || !frames ||
        !w || !h) {
        fprintf(stderr, "gltf_load: a value out of range\n");
        return 2;
    }
    hl_renderer_desc rd = {0};
    rd.backend = backend;
    rd.width = w;
    rd.height = h;
    rd.sample_count = 1;
    hl_renderer *r = NULL;
    hl_result res = hl_renderer_create(&rd, &r);
    if (res) return fail("renderer", res);

    /* 1. load + first frame */
    size_t size = 0;
    uint8_t *file = grid_glb(tris, tex, &size);
    if (!file) return fail("generating the model", HL_ERR_OUT_OF_MEMORY);
    write_glb(write_dir, "grid.glb", file, size);
    double t0 = hl_bench_now_ms();
    hl_gltf_asset *a = NULL;
    if ((res = hl_gltf_load_memory(file, size, NULL, &a))) return fail("load", res);
    double t1 = hl_bench_now_ms();
    hl_stage *s = NULL;
    hl_stage_create(&s);
    hl_stage_add(s, hl_gltf_asset_root(a));
    hl_light_desc ld = {.kind = HL_LIGHT_DIRECTIONAL, .intensity = 2};
    hl_light *l = NULL;
    hl_light_create(&ld, &l);
    hl_stage_add(s, hl_light_node(l));
    hl_camera *cam = camera_at((hl_vec3){0, -1.5f, 2.0f}, (hl_vec3){0, 0, 0}, (float)w / (float)h);
    if ((res = hl_renderer_render(r, s, cam)) || (res = hl_renderer_wait_idle(r))) return fail("first frame", res);
    double t2 = hl_bench_now_ms();
    const hl_gltf_report *rp = hl_gltf_asset_report(a);
    double mb = (double)size / 1048576.0, load_ms = t1 - t0, first_ms = t2 - t0;
    if (json)
        printf("{\"bench\": \"load\", \"triangles\": %llu, \"file_mb\": %.2f, \"texture\": %u, \"load_ms\": %.2f, "
               "\"parse_mb_per_s\": %.1f, \"first_frame_ms\": %.2f, \"backend\": \"%s\"}\n",
               (unsigned long long)rp->triangles, mb, tex, load_ms, mb / (load_ms / 1e3), first_ms,
               hl_backend_name(hl_renderer_backend(r)));
    else
        printf("load: %llu triangles, %.1f MB GLB with two %ux%u PNG maps: parse and build %.1f ms (%.0f MB/s), first "
               "frame %.1f ms after the start of the load (%s)\n",
               (unsigned long long)rp->triangles, mb, tex, tex, load_ms, mb / (load_ms / 1e3), first_ms,
               hl_backend_name(hl_renderer_backend(r)));
    hl_gltf_asset_destroy(a);
    hl_stage_destroy(s);
    hl_node_destroy(hl_camera_node(cam));
    free(file);

    /* 2. animated characters */
    file = characters_glb(chars, joints, &size);
    if (file) write_glb(write_dir, "characters.glb", file, size);
    if (!file || (res = hl_gltf_load_memory(file, size, NULL, &a))) return fail("characters", res ? res : HL_ERR_OUT_OF_MEMORY);
    free(file);
    hl_stage_create(&s);
    hl_stage_add(s, hl_gltf_asset_root(a));
    hl_light_create(&ld, &l);
    hl_stage_add(s, hl_light_node(l));
    cam = camera_at((hl_vec3){0, 5, 10}, (hl_vec3){0, 2, -9}, (float)w / (float)h);
    uint32_t na = hl_gltf_asset_animation_count(a);
    hl_animation **anims = malloc(na * sizeof *anims);
    double *anim_ms = malloc(frames * sizeof(double)), *render_ms = malloc(frames * sizeof(double));
    if (!anims || !anim_ms || !render_ms) return fail("characters", HL_ERR_OUT_OF_MEMORY);
    for (uint32_t i = 0; i < na; i++) anims[i] = hl_gltf_asset_animation(a, i);
    uint64_t allocs = 0;
    enum { WARMUP = 60 }; /* one loop of the 1 s animation at 60 frames per second: every pose seen once */
    for (uint32_t f = 0; f < frames + WARMUP; f++) {
        uint64_t a0 = hl_alloc_count();
        double f0 = hl_bench_now_ms();
        res = hl_animations_apply(anims, na, (float)f / 60.0f, HL_ANIMATION_LOOP);
        double f1 = hl_bench_now_ms();
        if (!res) res = hl_renderer_render(r, s, cam);
        double f2 = hl_bench_now_ms();
        if (res) return fail("animated frame", res);
        if (f >= WARMUP) {
            anim_ms[f - WARMUP] = f1 - f0;
            render_ms[f - WARMUP] = f2 - f1;
            allocs += hl_alloc_count() - a0;
        }
        if (f % 8 == 7) hl_renderer_wait_idle(r);
    }
    hl_renderer_wait_idle(r);
    double am = hl_bench_median(anim_ms, frames), rm = hl_bench_median(render_ms, frames);
    const hl_render_stats *st = hl_renderer_stats(r);
    if (json)
        printf("{\"bench\": \"animate\", \"skinned_characters\": %u, \"joints\": %u, \"animate_ms\": %.4f, \"render_cpu_ms\": %.4f, "
               "\"draws\": %u, \"allocs_per_frame\": %.2f, \"frames\": %u}\n",
               chars, joints, am, rm, st->draws, (double)allocs / frames, frames);
    else
        printf("animate: %u skinned characters x %u joints: sampling %.3f ms, render call %.3f ms CPU (%u draws, the "
               "palettes included), %.2f allocations per frame (medians of %u frames)\n",
               chars, joints, am, rm, st->draws, (double)allocs / frames, frames);
    free(anims), free(anim_ms), free(render_ms);
    hl_renderer_destroy(r);
    hl_gltf_asset_destroy(a);
    hl_stage_destroy(s);
    hl_node_destroy(hl_camera_node(cam));
    return 0;
}
