/* A textured, skinned, animated glTF model rendered by both backends must give the same image.
 *
 * The model, built here as a .gltf text whose buffer and PNG image are base64 data: URIs (as the
 * sample models' "Embedded" variants): a tube (radius 0.4, y from -1 to 1; 9 rings of 17
 * vertices, the seam doubled for its UVs; normals) skinned to a chain of three joints (one at
 * each third of its height, inverse bind matrices given), every vertex on two neighbouring
 * joints with weights that blend between the bones' centres; a PBR material whose base colour
 * is a 64x64 PNG checker of orange (240, 140, 20) and blue (20, 110, 230), linear filtering with
 * mipmaps, repeat; one LINEAR animation of 2 s turning the root joint about Y and bending the
 * two others about Z; a directional and a point light (KHR_lights_punctual); a perspective
 * camera. Posed at t 0 (straight), 0.5, 1 and 1.75 and seen through the file's camera (its
 * aspect set to the output's) at 160x120, 97x61 and 128x128, black clear, 1x.
 *
 * Checked on the run's backend, so that the comparison is not between two blank images: the
 * model covers >= 10% of the pixels (a pixel is covered when a channel exceeds 16); the
 * checker's colours both show (orange: r >= 48 and r > 2b; blue: b >= 48 and b > 2r), each on
 * >= 10% of the covered pixels; each pose differs from the one before (>= 5% of the covered
 * pixels change by more than 32 in a channel), and the bent pose of t 1 is >= 1.3 times as wide
 * as the straight one of t 0 (the skin follows the joint chain).
 *
 * webgpu run only (as px_pipeline_deferred): the same frames rendered by a gles3 renderer from
 * the same stage; tolerance over all channels (RGBA) of the whole image: mean |webgpu - gles3|
 * <= 1/255 and 99th percentile <= 4/255 (hl_gen_compare, the randomized differential scenes'
 * bound: lavapipe and llvmpipe share one rasterizer; sampling, blending and float rounding may
 * differ by a unit). The figures are printed per size and time; a failing pair is written as
 * px_gltf_parity_<w>x<h>_t<t>_<backend>.png. A backend that cannot be created fails the run
 * (the reason printed). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hilo3d/gltf.h"
#include "hilo3d/renderer.h"
#include "hilo3d/scene.h"
#include "hl_scene_gen.h"
#include "hl_test.h"
#include "hl_test_gltf.h"
#include "hl_test_render.h"

enum { SEG = 16, RINGS = 9, VERTS = (SEG + 1) * RINGS, INDICES = SEG * (RINGS - 1) * 6, JOINTS = 3, TEX = 64, KEYS = 3 };
#define RADIUS 0.5f
#define BONE (2.0f / 3.0f) /* joint spacing: three bones over the tube's height of 2 */
#define PI_F 3.14159265f

static const uint8_t k_orange[3] = {240, 140, 20}, k_blue[3] = {20, 110, 230};

/* The quaternion (x, y, z, w) of a turn of `deg` degrees about the unit axis (x, y, z). */
static void quat(float x, float y, float z, float deg, float *q) {
    float h = deg * PI_F / 360.0f, s = sinf(h);
    q[0] = x * s, q[1] = y * s, q[2] = z * s, q[3] = cosf(h);
}

/* Appends a buffer view over n bytes of data and an accessor of it; the accessor's index. */
typedef struct doc {
    hl_test_glb bin;
    char views[4096], accessors[4096];
    uint32_t count;
} doc;

static uint32_t add_accessor(doc *d, const void *data, size_t n, uint32_t ctype, uint32_t count, const char *type,
                             int target, const char *extra) {
    size_t off = hl_test_glb_add(&d->bin, data, n);
    size_t v = strlen(d->views), a = strlen(d->accessors);
    char tgt[24] = "";
    if (target) snprintf(tgt, sizeof tgt, ",\"target\":%d", target);
    snprintf(d->views + v, sizeof d->views - v, "%s{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu%s}",
             d->count ? "," : "", off, n, tgt);
    snprintf(d->accessors + a, sizeof d->accessors - a,
             "%s{\"bufferView\":%u,\"componentType\":%u,\"count\":%u,\"type\":\"%s\"%s}", d->count ? "," : "", d->count,
             ctype, count, type, extra ? extra : "");
    return d->count++;
}

/* The model's .gltf text (malloc'd; NULL on failure). */
static char *tube_gltf(void) {
    static float pos[VERTS * 3], nrm[VERTS * 3], uv[VERTS * 2], wts[VERTS * 4];
    static uint8_t jnt[VERTS * 4];
    static uint16_t idx[INDICES];
    for (int i = 0; i < RINGS; i++) {
        float y = -1.0f + 2.0f * (float)i / (RINGS - 1);
        /* bone b spans joints b and b + 1 (s in [b, b + 1]); weights blend from one bone's
           centre to the next: s <= 0.5 all joint 0, s >= 2.5 all joint 2 */
        float t = (y + 1.0f) / BONE - 0.5f;
        int k = t < 1.0f ? 0 : 1;
        float f = t - (float)k;
        f = f < 0 ? 0 : f > 1 ? 1 : f;
        for (int j = 0; j <= SEG; j++) {
            int v = i * (SEG + 1) + j;
            float a = 2.0f * PI_F * (float)j / SEG;
            float sx = j == SEG ? 0.0f : sinf(a), cz = j == SEG ? 1.0f : cosf(a);
            pos[v * 3] = RADIUS * sx, pos[v * 3 + 1] = y, pos[v * 3 + 2] = RADIUS * cz;
            nrm[v * 3] = sx, nrm[v * 3 + 1] = 0, nrm[v * 3 + 2] = cz;
            uv[v * 2] = (float)j / SEG, uv[v * 2 + 1] = 1.0f - (float)i / (RINGS - 1);
            jnt[v * 4] = (uint8_t)k, jnt[v * 4 + 1] = (uint8_t)(k + 1), jnt[v * 4 + 2] = jnt[v * 4 + 3] = 0;
            wts[v * 4] = 1.0f - f, wts[v * 4 + 1] = f, wts[v * 4 + 2] = wts[v * 4 + 3] = 0;
        }
    }
    uint32_t n = 0;
    for (int i = 0; i + 1 < RINGS; i++)
        for (int j = 0; j < SEG; j++) { /* counter-clockwise seen from outside */
            uint16_t a = (uint16_t)(i * (SEG + 1) + j), b = (uint16_t)(a + 1), c = (uint16_t)(b + SEG + 1),
                     d = (uint16_t)(a + SEG + 1);
            idx[n++] = a, idx[n++] = b, idx[n++] = c, idx[n++] = a, idx[n++] = c, idx[n++] = d;
        }
    /* joint k's bind pose: translate(0, -1 + k * BONE, 0); column-major inverse */
    float ibm[JOINTS * 16] = {0};
    for (int k = 0; k < JOINTS; k++) {
        float *m = ibm + k * 16;
        m[0] = m[5] = m[10] = m[15] = 1.0f;
        m[13] = 1.0f - (float)k * BONE;
    }
    const float times[KEYS] = {0, 1, 2};
    float rot[JOINTS][KEYS * 4];
    const float deg[JOINTS][KEYS] = {{0, 30, 60}, {0, 35, -30}, {0, 45, -40}};
    for (int k = 0; k < KEYS; k++) {
        quat(0, 1, 0, deg[0][k], rot[0] + k * 4);
        quat(0, 0, 1, deg[1][k], rot[1] + k * 4);
        quat(0, 0, 1, deg[2][k], rot[2] + k * 4);
    }
    uint8_t texels[TEX * TEX * 4];
    for (int y = 0; y < TEX; y++)
        for (int x = 0; x < TEX; x++) {
            const uint8_t *c = ((x / 8) ^ (y / 8)) & 1 ? k_blue : k_orange;
            uint8_t *p = texels + (y * TEX + x) * 4;
            p[0] = c[0], p[1] = c[1], p[2] = c[2], p[3] = 255;
        }
    doc d;
    memset(&d, 0, sizeof d);
    char bounds[96];
    snprintf(bounds, sizeof bounds, ",\"min\":[%g,-1,%g],\"max\":[%g,1,%g]", -RADIUS, -RADIUS, RADIUS, RADIUS);
    uint32_t a_pos = add_accessor(&d, pos, sizeof pos, 5126, VERTS, "VEC3", 34962, bounds);
    uint32_t a_nrm = add_accessor(&d, nrm, sizeof nrm, 5126, VERTS, "VEC3", 34962, NULL);
    uint32_t a_uv = add_accessor(&d, uv, sizeof uv, 5126, VERTS, "VEC2", 34962, NULL);
    uint32_t a_jnt = add_accessor(&d, jnt, sizeof jnt, 5121, VERTS, "VEC4", 34962, NULL);
    uint32_t a_wts = add_accessor(&d, wts, sizeof wts, 5126, VERTS, "VEC4", 34962, NULL);
    uint32_t a_idx = add_accessor(&d, idx, sizeof idx, 5123, INDICES, "SCALAR", 34963, NULL);
    uint32_t a_ibm = add_accessor(&d, ibm, sizeof ibm, 5126, JOINTS, "MAT4", 0, NULL);
    uint32_t a_t = add_accessor(&d, times, sizeof times, 5126, KEYS, "SCALAR", 0, ",\"min\":[0],\"max\":[2]");
    uint32_t a_rot[JOINTS];
    for (int k = 0; k < JOINTS; k++) a_rot[k] = add_accessor(&d, rot[k], sizeof rot[k], 5126, KEYS, "VEC4", 0, NULL);
    size_t png_n = 0;
    uint8_t *png = hl_test_png(TEX, TEX, texels, &png_n);
    char *png_uri = png ? hl_test_data_uri("image/png", png, png_n) : NULL;
    char *bin_uri = hl_test_data_uri("application/octet-stream", d.bin.bin, d.bin.bin_len);
    free(png);
    /* the sun: its -Z turned down 30 degrees, then 30 degrees about Y (from the upper right front) */
    float qx[4], qy[4], sun[4];
    quat(1, 0, 0, -30, qx);
    quat(0, 1, 0, 30, qy);
    sun[0] = qy[3] * qx[0] + qy[0] * qx[3] + qy[1] * qx[2] - qy[2] * qx[1];
    sun[1] = qy[3] * qx[1] - qy[0] * qx[2] + qy[1] * qx[3] + qy[2] * qx[0];
    sun[2] = qy[3] * qx[2] + qy[0] * qx[1] - qy[1] * qx[0] + qy[2] * qx[3];
    sun[3] = qy[3] * qx[3] - qy[0] * qx[0] - qy[1] * qx[1] - qy[2] * qx[2];
    size_t cap = 16384 + (png_uri ? strlen(png_uri) : 0) + (bin_uri ? strlen(bin_uri) : 0);
    char *json = png_uri && bin_uri ? malloc(cap) : NULL;
    if (json) {
        int len = snprintf(
            json, cap,
            "{\"asset\":{\"version\":\"2.0\",\"generator\":\"px_gltf_parity\"},"
            "\"extensionsUsed\":[\"KHR_lights_punctual\"],"
            "\"extensions\":{\"KHR_lights_punctual\":{\"lights\":["
            "{\"name\":\"sun\",\"type\":\"directional\",\"color\":[1,1,1],\"intensity\":2.5},"
            "{\"name\":\"lamp\",\"type\":\"point\",\"color\":[1,1,1],\"intensity\":3,\"range\":8}]}},"
            "\"scene\":0,\"scenes\":[{\"nodes\":[0,1,4,5,6]}],"
            "\"nodes\":[{\"name\":\"tube\",\"mesh\":0,\"skin\":0},"
            "{\"name\":\"j0\",\"translation\":[0,-1,0],\"children\":[2]},"
            "{\"name\":\"j1\",\"translation\":[0,%.9g,0],\"children\":[3]},"
            "{\"name\":\"j2\",\"translation\":[0,%.9g,0]},"
            "{\"name\":\"camera\",\"camera\":0,\"translation\":[0,0,3]},"
            "{\"name\":\"sun\",\"rotation\":[%.9g,%.9g,%.9g,%.9g],\"extensions\":{\"KHR_lights_punctual\":{\"light\":0}}},"
            "{\"name\":\"lamp\",\"translation\":[-1.6,0.8,1.6],\"extensions\":{\"KHR_lights_punctual\":{\"light\":1}}}],"
            "\"cameras\":[{\"type\":\"perspective\",\"perspective\":{\"yfov\":0.9,\"aspectRatio\":1.3333334,"
            "\"znear\":0.1,\"zfar\":50}}],"
            "\"skins\":[{\"name\":\"chain\",\"joints\":[1,2,3],\"skeleton\":1,\"inverseBindMatrices\":%u}],"
            "\"meshes\":[{\"name\":\"tube\",\"primitives\":[{\"attributes\":{\"POSITION\":%u,\"NORMAL\":%u,"
            "\"TEXCOORD_0\":%u,\"JOINTS_0\":%u,\"WEIGHTS_0\":%u},\"indices\":%u,\"material\":0,\"mode\":4}]}],"
            "\"materials\":[{\"name\":\"checker\",\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0},"
            "\"metallicFactor\":0,\"roughnessFactor\":0.6}}],"
            "\"textures\":[{\"sampler\":0,\"source\":0}],"
            "\"samplers\":[{\"magFilter\":9729,\"minFilter\":9987,\"wrapS\":10497,\"wrapT\":10497}],"
            "\"images\":[{\"uri\":\"%s\"}],"
            "\"animations\":[{\"name\":\"bend\",\"samplers\":[{\"input\":%u,\"output\":%u,\"interpolation\":\"LINEAR\"},"
            "{\"input\":%u,\"output\":%u,\"interpolation\":\"LINEAR\"},{\"input\":%u,\"output\":%u,\"interpolation\":\"LINEAR\"}],"
            "\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"rotation\"}},"
            "{\"sampler\":1,\"target\":{\"node\":2,\"path\":\"rotation\"}},"
            "{\"sampler\":2,\"target\":{\"node\":3,\"path\":\"rotation\"}}]}],"
            "\"accessors\":[%s],\"bufferViews\":[%s],"
            "\"buffers\":[{\"byteLength\":%zu,\"uri\":\"%s\"}]}",
            (double)BONE, (double)BONE, (double)sun[0], (double)sun[1], (double)sun[2], (double)sun[3], a_ibm, a_pos,
            a_nrm, a_uv, a_jnt, a_wts, a_idx, png_uri, a_t, a_rot[0], a_t, a_rot[1], a_t, a_rot[2], d.accessors, d.views,
            d.bin.bin_len, bin_uri);
        if (len < 0 || (size_t)len >= cap) free(json), json = NULL;
    }
    free(png_uri);
    free(bin_uri);
    hl_test_glb_free(&d.bin);
    return json;
}

static hl_renderer *make(hl_backend be, uint32_t w, uint32_t h) {
    hl_renderer_desc rd = {0};
    rd.backend = be;
    rd.width = w;
    rd.height = h;
    hl_renderer *r = NULL;
    hl_result res = hl_renderer_create(&rd, &r);
    HL_CHECK_MSG(res == HL_OK, "%s renderer %ux%u: %s: %s", hl_backend_name(be), w, h, hl_result_name(res),
                 res ? hl_last_error() : "");
    return r;
}

/* What an image shows: covered pixels (a channel > 16), those of each checker colour, the
 * covered columns' extent. */
typedef struct content {
    uint32_t covered, orange, blue, x0, x1;
} content;

static content content_of(const uint8_t *img, uint32_t w, uint32_t h) {
    content c = {0, 0, 0, w, 0};
    for (uint32_t i = 0; i < w * h; i++) {
        const uint8_t *p = img + (size_t)i * 4;
        if (p[0] <= 16 && p[1] <= 16 && p[2] <= 16) continue;
        c.covered++;
        c.orange += p[0] >= 48 && p[0] > 2 * p[2];
        c.blue += p[2] >= 48 && p[2] > 2 * p[0];
        if (i % w < c.x0) c.x0 = i % w;
        if (i % w > c.x1) c.x1 = i % w;
    }
    return c;
}

/* Pixels of a and b whose channels differ by more than 32. */
static uint32_t changed(const uint8_t *a, const uint8_t *b, uint32_t w, uint32_t h) {
    uint32_t n = 0;
    for (size_t i = 0; i < (size_t)w * h; i++) {
        int m = 0;
        for (int k = 0; k < 3; k++) {
            int dd = abs(a[i * 4 + k] - b[i * 4 + k]);
            m = dd > m ? dd : m;
        }
        n += m > 32;
    }
    return n;
}

enum { TIMES = 4 };
static const float k_times[TIMES] = {0.0f, 0.5f, 1.0f, 1.75f};

static void run_size(hl_backend be, hl_stage *s, hl_animation *anim, hl_camera *cam, uint32_t w, uint32_t h,
                     hl_gen_diff *worst) {
    hl_renderer *r = make(be, w, h), *other = be == HL_BACKEND_WEBGPU ? make(HL_BACKEND_GLES3, w, h) : NULL;
    size_t size = (size_t)w * h * 4;
    uint8_t *img[TIMES] = {0}, *ref = malloc(size);
    for (int t = 0; t < TIMES; t++) img[t] = malloc(size);
    bool ok = r && ref && (be != HL_BACKEND_WEBGPU || other);
    for (int t = 0; t < TIMES && ok; t++) ok = img[t] != NULL;
    content c[TIMES] = {{0}};
    hl_camera_set_aspect(cam, (float)w / (float)h);
    for (int t = 0; t < TIMES && ok; t++) {
        HL_CHECK_OK(hl_animation_apply(anim, k_times[t], HL_ANIMATION_CLAMP));
        ok = render_read(r, s, cam, img[t], size);
        if (!ok) break;
        c[t] = content_of(img[t], w, h);
        printf("%ux%u t %.2f %s: covered %.1f%%, orange %.1f%% / blue %.1f%% of it, columns %u..%u", w, h,
               (double)k_times[t], hl_backend_name(be), 100.0 * c[t].covered / (w * h),
               100.0 * c[t].orange / (c[t].covered ? c[t].covered : 1), 100.0 * c[t].blue / (c[t].covered ? c[t].covered : 1),
               c[t].x0, c[t].x1);
        HL_CHECK_MSG(c[t].covered * 10 >= w * h, "%ux%u t %.2f: the model covers %u of %u pixels (>= 10%%)", w, h,
                     (double)k_times[t], c[t].covered, w * h);
        HL_CHECK_MSG(c[t].orange * 10 >= c[t].covered && c[t].blue * 10 >= c[t].covered,
                     "%ux%u t %.2f: the checker's colours show: orange %u, blue %u of %u covered (>= 10%% each)", w, h,
                     (double)k_times[t], c[t].orange, c[t].blue, c[t].covered);
        if (t > 0) {
            uint32_t moved = changed(img[t - 1], img[t], w, h);
            HL_CHECK_MSG(moved * 20 >= c[t - 1].covered, "%ux%u: the pose of t %.2f differs from t %.2f: %u pixels of %u (>= 5%%)",
                         w, h, (double)k_times[t], (double)k_times[t - 1], moved, c[t - 1].covered);
        }
        if (other) {
            ok = render_read(other, s, cam, ref, size);
            if (!ok) break;
            hl_gen_diff d;
            hl_gen_compare(img[t], ref, w, h, false, &d);
            printf("; vs gles3: mean %.3f/255, p99 %u/255, max %u at (%u, %u)", d.mean, d.p99, d.max, d.worst_x, d.worst_y);
            if (d.mean > worst->mean) worst->mean = d.mean;
            if (d.p99 > worst->p99) worst->p99 = d.p99;
            if (d.max > worst->max) worst->max = d.max;
            bool same = d.mean <= 1.0 && d.p99 <= 4;
            HL_CHECK_MSG(same, "%ux%u t %.2f: webgpu vs gles3 mean %.3f/255 (<= 1), p99 %u/255 (<= 4)", w, h,
                         (double)k_times[t], d.mean, d.p99);
            if (!same) {
                char path[96];
                snprintf(path, sizeof path, "px_gltf_parity_%ux%u_t%.2f_webgpu.png", w, h, (double)k_times[t]);
                hl_test_write_png(path, w, h, img[t]);
                snprintf(path, sizeof path, "px_gltf_parity_%ux%u_t%.2f_gles3.png", w, h, (double)k_times[t]);
                hl_test_write_png(path, w, h, ref);
            }
        }
        printf("\n");
    }
    /* t 0 is straight, t 1 bent by 35 + 45 degrees: wider on screen */
    if (ok) {
        uint32_t straight = c[0].x1 - c[0].x0 + 1, bent = c[2].x1 - c[2].x0 + 1;
        HL_CHECK_MSG(bent * 10 >= straight * 13, "%ux%u: the bent pose spans %u columns, the straight one %u (>= 1.3x)", w,
                     h, bent, straight);
    }
    for (int t = 0; t < TIMES; t++) free(img[t]);
    free(ref);
    hl_renderer_destroy(other);
    hl_renderer_destroy(r);
}

int main(int argc, char **argv) {
    hl_backend be = backend_of(argc, argv);
    char *json = tube_gltf();
    HL_CHECK_MSG(json != NULL, "the model's .gltf text is built");
    hl_gltf_asset *a = NULL;
    if (json) HL_CHECK_OK(hl_gltf_load_memory(json, strlen(json), NULL, &a));
    free(json);
    hl_stage *s = NULL;
    HL_CHECK_OK(hl_stage_create(&s));
    if (a && s) {
        const hl_gltf_report *rep = hl_gltf_asset_report(a);
        HL_CHECK_EQ(rep->meshes, 1);
        HL_CHECK_EQ(rep->triangles, INDICES / 3);
        HL_CHECK_EQ(rep->skins, 1);
        HL_CHECK_EQ(rep->textures, 1);
        HL_CHECK_EQ(rep->lights, 2);
        HL_CHECK_EQ(rep->cameras, 1);
        HL_CHECK_EQ(rep->animations, 1);
        hl_animation *anim = hl_gltf_asset_animation(a, 0);
        HL_CHECK_EQ(hl_animation_channel_count(anim), JOINTS);
        HL_CHECK(fabsf(hl_animation_duration(anim) - 2.0f) < 1e-6f);
        hl_camera *cam = hl_gltf_asset_camera(a, 0);
        HL_CHECK(cam != NULL);
        hl_stage_set_clear_color(s, (hl_color){0, 0, 0, 1});
        HL_CHECK_OK(hl_stage_add(s, hl_gltf_asset_root(a)));
        static const uint32_t k_sizes[3][2] = {{160, 120}, {97, 61}, {128, 128}};
        hl_gen_diff worst = {0};
        for (int i = 0; i < 3 && anim && cam; i++) run_size(be, s, anim, cam, k_sizes[i][0], k_sizes[i][1], &worst);
        if (be == HL_BACKEND_WEBGPU)
            printf("worst webgpu vs gles3: mean %.3f/255, p99 %u/255, max %u\n", worst.mean, worst.p99, worst.max);
    }
    hl_gltf_asset_destroy(a);
    hl_stage_destroy(s);
    return hl_test_finish();
}
