/* bench/peer_filament: hilo3d against Google Filament (Debian's 1.9.25) on the same scene, in one run.
 *
 * Scene: N unlit cubes (one shared cube geometry: 24 vertices with positions only, 36 16-bit indices;
 * M unlit materials, cube i uses material i % M) on a square grid in the y = 0 plane, all in view of
 * one static perspective camera (60 degrees vertical, near 0.1, far 1000); the output 1280x720,
 * single-sample (no MSAA, no post-processing on either side), cleared to a dark blue.
 *
 * hilo3d: the public API only (<hilo3d/hilo3d.h>, linked against libhilo3d): one renderer (gles3 by
 * default, or --backend webgpu), sample_count 1, a stage with HL_MATERIAL_BASIC (unlit) materials.
 * A frame is hl_renderer_render + hl_renderer_wait_idle.
 *
 * Filament: Engine::create(OPENGL) with a headless swap chain (createSwapChain(w, h, READABLE)).
 * Debian builds Filament's Linux GL platform as PlatformGLX (no EGL one), so it needs an X
 * display even for a headless swap chain (a GLX pbuffer): run under xvfb-run (make peer-filament
 * does). The material is bench/peer_filament_unlit.mat compiled by matc at build time
 * (shadingModel unlit, one float4 parameter). The view: post-processing off (so no tone mapping,
 * FXAA, dithering or bloom), shadows off, sample count 1, no lights, no skybox; the renderer
 * clears to the same colour. A frame is beginFrame, render(view) for each view, endFrame,
 * flushAndWait.
 *
 * Colours: hilo3d's output is an sRGB target and its material colours are linear; with
 * post-processing off Filament writes the material colour unchanged into the (non-sRGB) swap
 * chain. So Filament's material instances are given the sRGB-encoded colour of hilo3d's linear
 * one: both images then hold the same bytes.
 *
 * Filament 1.9 and 10k renderables (two limits, both crashes without a message):
 * - Its command buffer: the driver commands of one flush, the per-renderable uniform data a
 *   view's prepare uploads (about 256 bytes a renderable) included, must fit in one part of a
 *   circular buffer of fixed size (6 MiB here); more overwrites commands not yet executed and the
 *   driver thread crashes on garbage (seen: FFence::FenceSignal::signal, OpenGLProgram's
 *   constructor, an X error GLXBadDrawable on glXSwapBuffers). Here 5k-6k cubes in one view never
 *   crashed, 8k sometimes, 10k in 200 frames nearly always (20-60 frames often passed), also
 *   with 2 views. Handled: the scene is split into ceil(N / 4000) views (--views V overrides;
 *   10k -> 3 views), each its own Scene holding a contiguous block of grid rows, rendered in the
 *   same frame into the same swap chain with a flush between views (Filament 1.9 has no
 *   Engine::flush(): a fence waited on with Mode::FLUSH and timeout 0 flushes without waiting;
 *   destroyed after the frame), and the build flushes every 1,000 renderables. The farthest rows
 *   are drawn first; the first view clears, the later ones have BlendMode TRANSLUCENT (they keep
 *   what is there; the cubes are opaque, alpha 1) and a nearer block of rows never lies behind a
 *   farther one from this camera, so the image is the same as one view's (the image check).
 * - Its OpenGL handle arena (fixed when Filament is built): creating more than about 10,046
 *   renderables crashes in OpenGLDriver::createRenderPrimitiveS whatever the views; the bench
 *   refuses more than 10,000 cubes with a message.
 *
 * Alternation: for each round, one hilo3d frame and one Filament frame (the order swaps every
 * round), each waited to completion; per frame: wall time (CLOCK_MONOTONIC), process CPU
 * (CLOCK_PROCESS_CPUTIME_ID: every thread, so Filament's driver thread and job system, hilo3d's
 * frontend workers and llvmpipe's rasterizer threads) and main-thread CPU
 * (CLOCK_THREAD_CPUTIME_ID). Medians and p90 per engine and case, and the ratios Filament /
 * hilo3d (above 1: hilo3d is faster).
 *
 * Images: after the timed frames each engine's frame is read back (hl_renderer_read_pixels;
 * Filament's Renderer::readPixels), and pixels whose ray (cast on the CPU against the cubes' boxes)
 * hits the middle of a cube's face must hold that cube's colour, pixels whose ray hits nothing
 * the clear colour (within 3/255). Exit status 1 when either engine fails this or draws nothing.
 *
 *   peer_filament [--json] [--meshes N[,N...]] [--frames F] [--warmup W] [--width W] [--height H]
 *                 [--materials M] [--views V] [--backend gles3|webgpu] [--material FILE.filamat]
 *                 [--dump PREFIX] [--engines hilo3d,filament]
 * --engines: time only the frames of the engines named (both by default; both images are
 * still checked); for telling apart a failure of one engine alone from one of the two together.
 */
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include <hilo3d/hilo3d.h>

#include <backend/PixelBufferDescriptor.h>
#include <filament/Camera.h>
#include <filament/Engine.h>
#include <filament/Fence.h>
#include <filament/IndexBuffer.h>
#include <filament/Material.h>
#include <filament/MaterialInstance.h>
#include <filament/RenderableManager.h>
#include <filament/Renderer.h>
#include <filament/Scene.h>
#include <filament/SwapChain.h>
#include <filament/TransformManager.h>
#include <filament/VertexBuffer.h>
#include <filament/View.h>
#include <filament/Viewport.h>
#include <utils/EntityManager.h>

#ifndef PEER_FILAMENT_MATERIAL
#define PEER_FILAMENT_MATERIAL "peer_filament_unlit.filamat"
#endif

namespace fl = filament;
using filament::math::float3;
using filament::math::float4;
using filament::math::mat4f;

namespace {

constexpr float kHalf = 0.3f; /* the cube's half size (0.6 wide: spacing 1 leaves gaps) */
constexpr uint32_t kCubesPerView = 4000;      /* see "10k renderables" above */
constexpr uint32_t kFilamentMaxCubes = 10000; /* see "Filament 1.9 and 10k renderables" above */
const float kClear[4] = {0.05f, 0.07f, 0.15f, 1.0f}; /* linear */

struct Config {
    std::vector<uint32_t> meshes{1000, 10000};
    uint32_t frames = 60, warmup = 10, width = 1280, height = 720, materials = 100, views = 0;
    bool json = false;
    hl_backend backend = HL_BACKEND_GLES3;
    std::string material = PEER_FILAMENT_MATERIAL;
    bool run_hilo = true, run_fila = true; /* --engines: whose frames are timed (diagnosis) */
    std::string dump; /* --dump PREFIX: the checked images as PREFIX-<engine>-<N>.ppm */
};

/* ---- timing ---- */
struct Clocks {
    double wall, proc, thread; /* ns */
};

double now_ns(clockid_t id) {
    timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

Clocks clocks_now() {
    return {now_ns(CLOCK_MONOTONIC), now_ns(CLOCK_PROCESS_CPUTIME_ID), now_ns(CLOCK_THREAD_CPUTIME_ID)};
}

struct Samples {
    std::vector<double> wall, proc, thread;
    void add(const Clocks &a, const Clocks &b) {
        wall.push_back(b.wall - a.wall);
        proc.push_back(b.proc - a.proc);
        thread.push_back(b.thread - a.thread);
    }
};

double quantile(std::vector<double> v, double q) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    size_t i = (size_t)std::lround(q * (double)(v.size() - 1));
    return v[i];
}

/* ---- the shared scene description ---- */
struct Grid {
    uint32_t n, side, rows;
    float3 eye;
    float fov = 60.0f, near_ = 0.1f, far_ = 1000.0f;
    float3 pos(uint32_t i) const {
        float x = (float)(i % side) - 0.5f * (float)(side - 1), z = (float)(i / side) - 0.5f * (float)(rows - 1);
        return {x, 0.0f, z};
    }
};

Grid make_grid(uint32_t n) {
    Grid g;
    g.n = n;
    g.side = (uint32_t)std::ceil(std::sqrt((double)n));
    g.rows = (n + g.side - 1) / g.side;
    /* as bench/scene_draws' grid: above and in front, looking at the centre; every cube in view */
    g.eye = {0.0f, (float)g.side * 0.9f, (float)g.side * 0.75f};
    return g;
}

float srgb_encode(float c) {
    c = std::min(std::max(c, 0.0f), 1.0f);
    return c <= 0.0031308f ? 12.92f * c : 1.055f * std::pow(c, 1.0f / 2.4f) - 0.055f;
}

/* material k's linear colour */
hl_color material_color(uint32_t k) {
    return {0.1f + 0.9f * (float)(k % 10) / 9.0f, 0.1f + 0.9f * (float)((k / 10) % 10) / 9.0f, 0.6f, 1.0f};
}

void expected_rgba8(hl_color c, uint8_t out[4]) {
    out[0] = (uint8_t)std::lround(255.0f * srgb_encode(c.r));
    out[1] = (uint8_t)std::lround(255.0f * srgb_encode(c.g));
    out[2] = (uint8_t)std::lround(255.0f * srgb_encode(c.b));
    out[3] = 255;
}

/* 24 vertices (4 per face, so faces could carry their own attributes as a box does), 36 indices,
 * counter-clockwise front faces. */
void cube_mesh(float pos[24 * 3], uint16_t idx[36]) {
    static const int faces[6][4][3] = {
        {{1, -1, -1}, {1, 1, -1}, {1, 1, 1}, {1, -1, 1}},     /* +x */
        {{-1, -1, 1}, {-1, 1, 1}, {-1, 1, -1}, {-1, -1, -1}}, /* -x */
        {{-1, 1, -1}, {-1, 1, 1}, {1, 1, 1}, {1, 1, -1}},     /* +y */
        {{-1, -1, 1}, {-1, -1, -1}, {1, -1, -1}, {1, -1, 1}}, /* -y */
        {{-1, -1, 1}, {1, -1, 1}, {1, 1, 1}, {-1, 1, 1}},     /* +z */
        {{1, -1, -1}, {-1, -1, -1}, {-1, 1, -1}, {1, 1, -1}}, /* -z */
    };
    for (int f = 0; f < 6; f++) {
        for (int v = 0; v < 4; v++)
            for (int c = 0; c < 3; c++) pos[(f * 4 + v) * 3 + c] = kHalf * (float)faces[f][v][c];
        const uint16_t b = (uint16_t)(f * 4);
        const uint16_t q[6] = {b, (uint16_t)(b + 1), (uint16_t)(b + 2), b, (uint16_t)(b + 2), (uint16_t)(b + 3)};
        memcpy(idx + f * 6, q, sizeof q);
    }
}

/* ---- the image check: rays from the camera against the cubes' boxes ---- */
struct Probe {
    uint32_t x, y;
    int cube; /* -1: background */
};

float3 norm3(float3 v) {
    float l = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
    return {v.x / l, v.y / l, v.z / l};
}
float3 cross3(float3 a, float3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }

/* The nearest cube the ray through pixel (px, py) (row 0 = top) hits; -2 when it hits one near an
 * edge (left out of the check), -1 when none. */
int cast(const Grid &g, uint32_t w, uint32_t h, float px, float py) {
    float3 fwd = norm3(float3{0, 0, 0} - g.eye), right = norm3(cross3(fwd, {0, 1, 0})), up = cross3(right, fwd);
    float t = std::tan(0.5f * g.fov * (float)M_PI / 180.0f), aspect = (float)w / (float)h;
    float sx = (2.0f * (px + 0.5f) / (float)w - 1.0f) * t * aspect, sy = (1.0f - 2.0f * (py + 0.5f) / (float)h) * t;
    float3 d = norm3(fwd + right * sx + up * sy);
    float best = 1e30f;
    int hit = -1;
    for (uint32_t i = 0; i < g.n; i++) {
        float3 c = g.pos(i);
        float t0 = -1e30f, t1 = 1e30f;
        for (int a = 0; a < 3; a++) {
            float o = g.eye[a] - c[a], inv = 1.0f / d[a];
            float ta = (-kHalf - o) * inv, tb = (kHalf - o) * inv;
            if (ta > tb) std::swap(ta, tb);
            t0 = std::max(t0, ta);
            t1 = std::min(t1, tb);
        }
        if (t0 <= t1 && t0 > 0 && t0 < best) {
            best = t0;
            float3 p = g.eye + d * t0 - c;
            /* on the face hit two coordinates are inside: keep only hits well inside */
            int inside = 0;
            for (int a = 0; a < 3; a++) inside += std::fabs(p[a]) < kHalf * 0.75f;
            hit = inside >= 2 ? (int)i : -2;
        }
    }
    return hit;
}

std::vector<Probe> make_probes(const Grid &g, uint32_t w, uint32_t h) {
    std::vector<Probe> cubes, bg;
    const uint32_t steps = 24;
    for (uint32_t j = 1; j < steps; j++)
        for (uint32_t i = 1; i < steps; i++) {
            uint32_t x = i * w / steps, y = j * h / steps;
            int c = cast(g, w, h, (float)x, (float)y);
            if (c >= 0 && cubes.size() < 48) cubes.push_back({x, y, c});
            else if (c == -1 && bg.size() < 16) bg.push_back({x, y, -1});
        }
    /* the top corners: above the grid's far edge */
    for (uint32_t x : {2u, w - 3u}) {
        int c = cast(g, w, h, (float)x, 2.0f);
        if (c == -1) bg.push_back({x, 2, -1});
    }
    cubes.insert(cubes.end(), bg.begin(), bg.end());
    return cubes;
}

void write_ppm(const std::string &path, const std::vector<uint8_t> &rgba, uint32_t w, uint32_t h) {
    FILE *f = fopen(path.c_str(), "wb");
    if (!f) return;
    fprintf(f, "P6\n%u %u\n255\n", w, h);
    for (size_t i = 0; i < (size_t)w * h; i++) fwrite(&rgba[i * 4], 1, 3, f);
    fclose(f);
}

struct Check {
    uint32_t cube_ok = 0, cube_n = 0, bg_ok = 0, bg_n = 0;
    std::string first_bad;
    bool pass() const { return cube_n && bg_n && cube_ok == cube_n && bg_ok == bg_n; }
};

/* rgba: row 0 = top */
Check check_image(const uint8_t *rgba, uint32_t w, const std::vector<Probe> &probes, uint32_t materials) {
    Check k;
    uint8_t bg[4];
    expected_rgba8({kClear[0], kClear[1], kClear[2], 1}, bg);
    for (const Probe &p : probes) {
        uint8_t want[4];
        if (p.cube >= 0) expected_rgba8(material_color((uint32_t)p.cube % materials), want);
        else memcpy(want, bg, 4);
        const uint8_t *got = rgba + ((size_t)p.y * w + p.x) * 4;
        bool ok = true;
        for (int c = 0; c < 3; c++) ok = ok && std::abs((int)got[c] - (int)want[c]) <= 3;
        (p.cube >= 0 ? k.cube_n : k.bg_n)++;
        if (ok) (p.cube >= 0 ? k.cube_ok : k.bg_ok)++;
        else if (k.first_bad.empty()) {
            char s[160];
            snprintf(s, sizeof s, "pixel (%u,%u) %s: got %u %u %u, want %u %u %u", p.x, p.y,
                     p.cube >= 0 ? "cube" : "background", got[0], got[1], got[2], want[0], want[1], want[2]);
            k.first_bad = s;
        }
    }
    return k;
}

/* ---- hilo3d ---- */
struct Hilo {
    hl_renderer *ren = nullptr;
    hl_stage *stage = nullptr;
    hl_camera *cam = nullptr;
    uint32_t draws = 0;

    bool fail(const char *what, hl_result r) {
        fprintf(stderr, "peer_filament: hilo3d %s: %s: %s\n", what, hl_result_name(r), hl_last_error());
        return false;
    }

    bool create(const Config &c) {
        hl_renderer_desc rd = {};
        rd.backend = c.backend;
        rd.width = c.width;
        rd.height = c.height;
        rd.sample_count = 1;
        rd.wait_timeout_ms = 600000;
        hl_result r = hl_renderer_create(&rd, &ren);
        return r ? fail("hl_renderer_create", r) : true;
    }

    bool build(const Grid &g, uint32_t materials) {
        hl_result r = hl_stage_create(&stage);
        if (r) return fail("hl_stage_create", r);
        hl_stage_set_clear_color(stage, {kClear[0], kClear[1], kClear[2], kClear[3]});
        float pos[24 * 3];
        uint16_t idx[36];
        cube_mesh(pos, idx);
        hl_geometry_desc gd = {};
        gd.vertex_count = 24;
        gd.attributes[HL_ATTR_POSITION].data = pos;
        gd.attributes[HL_ATTR_POSITION].components = 3;
        gd.indices = idx;
        gd.index_count = 36;
        gd.index_format = HL_INDEX_UINT16;
        gd.label = "cube";
        hl_geometry *geo = nullptr;
        if ((r = hl_geometry_create(&gd, &geo))) return fail("hl_geometry_create", r);
        std::vector<hl_material *> mats(materials, nullptr);
        for (uint32_t k = 0; !r && k < materials; k++) {
            hl_basic_material_desc md = {};
            md.color = material_color(k);
            r = hl_material_create_basic(&md, &mats[k]);
        }
        for (uint32_t i = 0; !r && i < g.n; i++) {
            hl_mesh_desc md = {};
            md.geometry = geo;
            md.material = mats[i % materials];
            hl_mesh *m = nullptr;
            if ((r = hl_mesh_create(&md, &m))) break;
            float3 p = g.pos(i);
            hl_node_set_translation(hl_mesh_node(m), {p.x, p.y, p.z});
            r = hl_stage_add(stage, hl_mesh_node(m));
        }
        for (hl_material *m : mats) hl_material_release(m); /* the meshes hold theirs */
        hl_geometry_release(geo);
        if (r) return fail("building the stage", r);
        hl_camera_desc cd = {};
        cd.fov_y_deg = g.fov;
        cd.near_plane = g.near_;
        cd.far_plane = g.far_;
        uint32_t w, h;
        hl_renderer_size(ren, &w, &h);
        cd.aspect = (float)w / (float)h;
        if ((r = hl_camera_create(&cd, &cam))) return fail("hl_camera_create", r);
        hl_node_set_translation(hl_camera_node(cam), {g.eye.x, g.eye.y, g.eye.z});
        hl_node_look_at(hl_camera_node(cam), {0, 0, 0}, {0, 1, 0});
        if ((r = hl_stage_add(stage, hl_camera_node(cam)))) return fail("hl_stage_add(camera)", r);
        return true;
    }

    bool frame() {
        hl_result r = hl_renderer_render(ren, stage, cam);
        if (!r) r = hl_renderer_wait_idle(ren);
        if (r) return fail("frame", r);
        draws = hl_renderer_stats(ren)->draws;
        return true;
    }

    bool read(std::vector<uint8_t> &rgba) {
        uint32_t w, h;
        hl_renderer_size(ren, &w, &h);
        rgba.assign((size_t)w * h * 4, 0);
        hl_result r = hl_renderer_render(ren, stage, cam);
        if (!r) draws = hl_renderer_stats(ren)->draws;
        if (!r) r = hl_renderer_read_pixels(ren, rgba.data(), rgba.size());
        return r ? fail("read_pixels", r) : true;
    }

    void clear_scene() {
        hl_stage_destroy(stage); /* the camera is in the stage */
        stage = nullptr;
        cam = nullptr;
    }

    ~Hilo() {
        clear_scene();
        hl_renderer_destroy(ren);
    }
};

/* ---- Filament ---- */
struct Fila {
    fl::Engine *engine = nullptr;
    fl::SwapChain *swap = nullptr;
    fl::Renderer *renderer = nullptr;
    fl::Material *material = nullptr;
    fl::VertexBuffer *vb = nullptr;
    fl::IndexBuffer *ib = nullptr;
    utils::Entity cam_entity;
    fl::Camera *cam = nullptr;
    std::vector<fl::MaterialInstance *> instances;
    std::vector<fl::Scene *> scenes;
    std::vector<fl::View *> views;
    std::vector<utils::Entity> renderables;
    uint32_t width = 0, height = 0;
    uint64_t skipped = 0; /* beginFrame() asked to skip (drawn anyway) */
    bool flush_views = true;
    std::vector<fl::Fence *> fences;
    float pos[24 * 3];
    uint16_t idx[36];

    bool create(const Config &c) {
        width = c.width;
        height = c.height;
        engine = fl::Engine::create(fl::Engine::Backend::OPENGL);
        if (!engine) {
            fprintf(stderr, "peer_filament: Filament: Engine::create(OPENGL) failed (Debian's Filament uses GLX: "
                            "is DISPLAY set? run under xvfb-run -a)\n");
            return false;
        }
        swap = engine->createSwapChain(width, height, fl::SwapChain::CONFIG_READABLE);
        renderer = engine->createRenderer();
        if (!swap || !renderer) {
            fprintf(stderr, "peer_filament: Filament: no headless swap chain or renderer\n");
            return false;
        }
        fl::Renderer::ClearOptions co;
        co.clearColor = {srgb_encode(kClear[0]), srgb_encode(kClear[1]), srgb_encode(kClear[2]), 1.0f};
        co.clear = true;
        co.discard = true;
        renderer->setClearOptions(co);

        FILE *f = fopen(c.material.c_str(), "rb");
        if (!f) {
            fprintf(stderr, "peer_filament: cannot open the Filament material %s (--material)\n", c.material.c_str());
            return false;
        }
        std::vector<uint8_t> pkg;
        uint8_t buf[65536];
        for (size_t got; (got = fread(buf, 1, sizeof buf, f)) > 0;) pkg.insert(pkg.end(), buf, buf + got);
        fclose(f);
        material = fl::Material::Builder().package(pkg.data(), pkg.size()).build(*engine);
        if (!material) {
            fprintf(stderr, "peer_filament: Filament rejected the material %s\n", c.material.c_str());
            return false;
        }
        for (uint32_t k = 0; k < c.materials; k++) {
            fl::MaterialInstance *mi = material->createInstance();
            hl_color lc = material_color(k);
            mi->setParameter("color", float4{srgb_encode(lc.r), srgb_encode(lc.g), srgb_encode(lc.b), 1.0f});
            instances.push_back(mi);
        }
        cube_mesh(pos, idx);
        vb = fl::VertexBuffer::Builder()
                 .vertexCount(24)
                 .bufferCount(1)
                 .attribute(fl::VertexAttribute::POSITION, 0, fl::VertexBuffer::AttributeType::FLOAT3, 0, 12)
                 .build(*engine);
        ib = fl::IndexBuffer::Builder().indexCount(36).bufferType(fl::IndexBuffer::IndexType::USHORT).build(*engine);
        vb->setBufferAt(*engine, 0, fl::VertexBuffer::BufferDescriptor(pos, sizeof pos, nullptr));
        ib->setBuffer(*engine, fl::IndexBuffer::BufferDescriptor(idx, sizeof idx, nullptr));
        cam_entity = utils::EntityManager::get().create();
        cam = engine->createCamera(cam_entity);
        return true;
    }

    void build(const Grid &g, uint32_t nviews) {
        cam->setProjection(g.fov, (double)width / height, g.near_, g.far_, fl::Camera::Fov::VERTICAL);
        cam->lookAt(float3{g.eye.x, g.eye.y, g.eye.z}, float3{0, 0, 0}, float3{0, 1, 0});
        nviews = std::max(1u, std::min(nviews, g.rows));
        auto &tm = engine->getTransformManager();
        for (uint32_t v = 0; v < nviews; v++) {
            fl::Scene *s = engine->createScene();
            fl::View *view = engine->createView();
            view->setScene(s);
            view->setCamera(cam);
            view->setViewport({0, 0, width, height});
            view->setPostProcessingEnabled(false);
            view->setShadowingEnabled(false);
            view->setSampleCount(1);
            view->setAntiAliasing(fl::View::AntiAliasing::NONE);
            view->setDithering(fl::View::Dithering::NONE);
            /* the first view clears (the renderer's clear options), the others keep its pixels */
            if (v) view->setBlendMode(fl::View::BlendMode::TRANSLUCENT);
            scenes.push_back(s);
            views.push_back(view);
        }
        renderables.resize(g.n);
        utils::EntityManager::get().create(g.n, renderables.data());
        for (uint32_t i = 0; i < g.n; i++) {
            /* rows 0.. are the farthest (smallest z): view 0 takes the first block of rows */
            uint32_t row = i / g.side, v = (uint32_t)((uint64_t)row * nviews / g.rows);
            fl::RenderableManager::Builder(1)
                .boundingBox({{-kHalf, -kHalf, -kHalf}, {kHalf, kHalf, kHalf}})
                .material(0, instances[i % instances.size()])
                .geometry(0, fl::RenderableManager::PrimitiveType::TRIANGLES, vb, ib, 0, 36)
                .culling(true)
                .castShadows(false)
                .receiveShadows(false)
                .build(*engine, renderables[i]);
            float3 p = g.pos(i);
            tm.setTransform(tm.getInstance(renderables[i]), mat4f::translation(p));
            scenes[v]->addEntity(renderables[i]);
            /* the creation commands go through the same command buffer (see the top) */
            if (i % 1000 == 999) engine->flushAndWait();
        }
        engine->flushAndWait();
    }

    void draw() {
        if (!renderer->beginFrame(swap)) skipped++;
        for (size_t i = 0; i < views.size(); i++) {
            renderer->render(views[i]);
            /* hand this view's commands to the driver thread before the next view's are written
               (see "10k renderables" above): Filament 1.9 has no Engine::flush(); a fence waited
               on with FLUSH and no timeout flushes without waiting; destroyed after the frame */
            if (flush_views && i + 1 < views.size()) {
                fl::Fence *f = engine->createFence();
                f->wait(fl::Fence::Mode::FLUSH, 0);
                fences.push_back(f);
            }
        }
    }

    void destroy_fences() {
        for (fl::Fence *f : fences) engine->destroy(f);
        fences.clear();
    }

    bool frame() {
        draw();
        renderer->endFrame();
        engine->flushAndWait();
        destroy_fences();
        return true;
    }

    static void on_read(void *, size_t, void *user) { *(bool *)user = true; }

    bool read(std::vector<uint8_t> &rgba) {
        std::vector<uint8_t> raw((size_t)width * height * 4, 0);
        bool done = false;
        draw();
        renderer->readPixels(0, 0, width, height,
                             fl::backend::PixelBufferDescriptor(raw.data(), raw.size(), fl::backend::PixelDataFormat::RGBA,
                                                                fl::backend::PixelDataType::UBYTE, on_read, &done));
        renderer->endFrame();
        engine->flushAndWait();
        destroy_fences();
        /* the callback comes through the engine's message queue: beginFrame pumps it */
        for (int i = 0; i < 4 && !done; i++) frame();
        if (!done) {
            fprintf(stderr, "peer_filament: Filament's readPixels never completed\n");
            return false;
        }
        /* Filament's GL driver flips glReadPixels' rows itself: row 0 is the top, as hilo3d's */
        rgba.swap(raw);
        return true;
    }

    void clear_scene() {
        for (utils::Entity e : renderables) {
            engine->destroy(e);
            utils::EntityManager::get().destroy(e);
        }
        renderables.clear();
        for (fl::View *v : views) engine->destroy(v);
        for (fl::Scene *s : scenes) engine->destroy(s);
        views.clear();
        scenes.clear();
        if (engine) engine->flushAndWait();
    }

    ~Fila() {
        if (!engine) return;
        clear_scene();
        for (fl::MaterialInstance *mi : instances) engine->destroy(mi);
        if (material) engine->destroy(material);
        if (vb) engine->destroy(vb);
        if (ib) engine->destroy(ib);
        if (cam) engine->destroyCameraComponent(cam_entity);
        utils::EntityManager::get().destroy(cam_entity);
        if (renderer) engine->destroy(renderer);
        if (swap) engine->destroy(swap);
        fl::Engine::destroy(&engine);
    }
};

struct Stat {
    double med, p90;
};
Stat stat(const std::vector<double> &v) { return {quantile(v, 0.5) / 1e6, quantile(v, 0.9) / 1e6}; }

int usage() {
    fprintf(stderr, "usage: peer_filament [--json] [--meshes N[,N...]] [--frames F] [--warmup W] [--width W] "
                    "[--height H] [--materials M] [--views V] [--backend gles3|webgpu] [--material FILE.filamat] [--dump PREFIX] [--engines hilo3d,filament]\n");
    return 2;
}

} // namespace

int main(int argc, char **argv) {
    Config c;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : nullptr;
        if (!strcmp(a, "--json")) {
            c.json = true;
            continue;
        }
        if (!v) return usage();
        i++;
        if (!strcmp(a, "--frames")) c.frames = (uint32_t)strtoul(v, nullptr, 10);
        else if (!strcmp(a, "--warmup")) c.warmup = (uint32_t)strtoul(v, nullptr, 10);
        else if (!strcmp(a, "--width")) c.width = (uint32_t)strtoul(v, nullptr, 10);
        else if (!strcmp(a, "--height")) c.height = (uint32_t)strtoul(v, nullptr, 10);
        else if (!strcmp(a, "--materials")) c.materials = (uint32_t)strtoul(v, nullptr, 10);
        else if (!strcmp(a, "--views")) c.views = (uint32_t)strtoul(v, nullptr, 10);
        else if (!strcmp(a, "--material")) c.material = v;
        else if (!strcmp(a, "--dump")) c.dump = v;
        else if (!strcmp(a, "--engines")) {
            c.run_hilo = strstr(v, "hilo3d") != nullptr;
            c.run_fila = strstr(v, "filament") != nullptr;
            if (!c.run_hilo && !c.run_fila) return usage();
        }
        else if (!strcmp(a, "--backend")) {
            if (hl_backend_parse(v, &c.backend) || c.backend == HL_BACKEND_AUTO) {
                fprintf(stderr, "peer_filament: --backend must be gles3 or webgpu\n");
                return 2;
            }
        } else if (!strcmp(a, "--meshes")) {
            c.meshes.clear();
            for (const char *p = v; *p;) {
                char *end;
                unsigned long n = strtoul(p, &end, 10);
                if (end == p || !n || n > 1000000) {
                    fprintf(stderr, "peer_filament: --meshes takes counts 1..1000000\n");
                    return 2;
                }
                c.meshes.push_back((uint32_t)n);
                p = *end == ',' ? end + 1 : end;
            }
        } else {
            return usage();
        }
    }
    for (uint32_t n : c.meshes)
        if (n > kFilamentMaxCubes) {
            fprintf(stderr, "peer_filament: %u cubes: Filament 1.9.25's OpenGL handle arena (fixed at its build) runs "
                            "out at about 10,050 renderables and crashes; at most %u here\n", n, kFilamentMaxCubes);
            return 2;
        }
    if (!c.frames || !c.materials || c.width < 16 || c.height < 16 || c.width > 4096 || c.height > 4096) {
        fprintf(stderr, "peer_filament: --frames and --materials must be > 0, the size 16..4096\n");
        return 2;
    }

    int rc = 0;
    for (uint32_t n : c.meshes) {
        /* a new renderer and a new Filament engine per case: each case starts from empty caches
           and an empty handle arena (see the top) */
        Hilo hilo;
        Fila fila;
        if (!hilo.create(c) || !fila.create(c)) return 1;
        if (!c.json && n == c.meshes[0])
            printf("peer_filament: %ux%u, 1 sample, unlit cubes, %u materials; hilo3d %s on %s; Filament 1.9 OpenGL "
                   "(GLX); %u measured frames after %u, alternating\n",
                   c.width, c.height, c.materials, hl_backend_name(hl_renderer_backend(hilo.ren)),
                   hl_renderer_adapter_name(hilo.ren), c.frames, c.warmup);
        Grid g = make_grid(n);
        uint32_t nviews = c.views ? c.views : (n + kCubesPerView - 1) / kCubesPerView;
        uint32_t mats = std::min(c.materials, n);
        if (!hilo.build(g, mats)) return 1;
        fila.build(g, nviews);
        Samples hs, fs;
        for (uint32_t f = 0; f < c.warmup + c.frames; f++) {
            bool measured = f >= c.warmup;
            for (int k = 0; k < 2; k++) {
                bool hilo_turn = (k == 0) == (f % 2 == 0);
                if (hilo_turn ? !c.run_hilo : !c.run_fila) continue;
                Clocks t0 = clocks_now();
                bool ok = hilo_turn ? hilo.frame() : fila.frame();
                Clocks t1 = clocks_now();
                if (!ok) return 1;
                if (measured) (hilo_turn ? hs : fs).add(t0, t1);
            }
        }
        std::vector<Probe> probes = make_probes(g, c.width, c.height);
        std::vector<uint8_t> hi, fi;
        if (!hilo.read(hi) || !fila.read(fi)) return 1;
        if (!c.dump.empty()) {
            write_ppm(c.dump + "-hilo3d-" + std::to_string(n) + ".ppm", hi, c.width, c.height);
            write_ppm(c.dump + "-filament-" + std::to_string(n) + ".ppm", fi, c.width, c.height);
        }
        Check hc = check_image(hi.data(), c.width, probes, mats), fc = check_image(fi.data(), c.width, probes, mats);
        if (!hc.pass() || !fc.pass()) rc = 1;
        if (hilo.draws == 0) rc = 1;
        Stat hw = stat(hs.wall), hp = stat(hs.proc), ht = stat(hs.thread);
        Stat fw = stat(fs.wall), fp = stat(fs.proc), ft = stat(fs.thread);
        uint32_t used_views = (uint32_t)fila.views.size();
        if (c.json) {
            printf("{\"bench\":\"peer_filament\",\"meshes\":%u,\"materials\":%u,\"size\":\"%ux%u\",\"frames\":%u,"
                   "\"hilo3d\":{\"backend\":\"%s\",\"adapter\":\"%s\",\"draws\":%u,\"wall_ms\":{\"median\":%.3f,\"p90\":%.3f},"
                   "\"process_cpu_ms\":{\"median\":%.3f,\"p90\":%.3f},\"main_thread_cpu_ms\":{\"median\":%.3f,\"p90\":%.3f},"
                   "\"image\":{\"pass\":%s,\"cube_pixels\":\"%u/%u\",\"background_pixels\":\"%u/%u\"}},"
                   "\"filament\":{\"version\":\"1.9\",\"views\":%u,\"skipped_begin_frames\":%llu,"
                   "\"wall_ms\":{\"median\":%.3f,\"p90\":%.3f},"
                   "\"process_cpu_ms\":{\"median\":%.3f,\"p90\":%.3f},\"main_thread_cpu_ms\":{\"median\":%.3f,\"p90\":%.3f},"
                   "\"image\":{\"pass\":%s,\"cube_pixels\":\"%u/%u\",\"background_pixels\":\"%u/%u\"}},"
                   "\"ratio_filament_over_hilo3d\":{\"wall\":%.3f,\"process_cpu\":%.3f,\"main_thread_cpu\":%.3f}}\n",
                   n, mats, c.width, c.height, c.frames, hl_backend_name(hl_renderer_backend(hilo.ren)),
                   hl_renderer_adapter_name(hilo.ren), hilo.draws, hw.med, hw.p90, hp.med, hp.p90, ht.med, ht.p90,
                   hc.pass() ? "true" : "false", hc.cube_ok, hc.cube_n, hc.bg_ok, hc.bg_n, used_views,
                   (unsigned long long)fila.skipped, fw.med, fw.p90, fp.med, fp.p90, ft.med, ft.p90,
                   fc.pass() ? "true" : "false", fc.cube_ok, fc.cube_n, fc.bg_ok, fc.bg_n, fw.med / hw.med,
                   fp.med / hp.med, ft.med / ht.med);
        } else {
            printf("\n%u cubes (%u draws in hilo3d; Filament in %u view%s)      median ms (p90)\n", n, hilo.draws,
                   used_views, used_views == 1 ? "" : "s");
            printf("  %-10s %18s %18s %18s\n", "", "wall", "process CPU", "main-thread CPU");
            printf("  %-10s %9.3f (%6.3f) %9.3f (%6.3f) %9.3f (%6.3f)\n", "hilo3d", hw.med, hw.p90, hp.med, hp.p90,
                   ht.med, ht.p90);
            printf("  %-10s %9.3f (%6.3f) %9.3f (%6.3f) %9.3f (%6.3f)\n", "filament", fw.med, fw.p90, fp.med, fp.p90,
                   ft.med, ft.p90);
            printf("  %-10s %18.2f %18.2f %18.2f   (above 1: hilo3d faster)\n", "fil/hilo", fw.med / hw.med,
                   fp.med / hp.med, ft.med / ht.med);
            printf("  image check: hilo3d %s (cubes %u/%u, background %u/%u)%s%s; filament %s (cubes %u/%u, "
                   "background %u/%u)%s%s\n",
                   hc.pass() ? "pass" : "FAIL", hc.cube_ok, hc.cube_n, hc.bg_ok, hc.bg_n, hc.first_bad.empty() ? "" : ": ",
                   hc.first_bad.c_str(), fc.pass() ? "pass" : "FAIL", fc.cube_ok, fc.cube_n, fc.bg_ok, fc.bg_n,
                   fc.first_bad.empty() ? "" : ": ", fc.first_bad.c_str());
            if (fila.skipped) printf("  (Filament's beginFrame asked to skip %llu frames; drawn anyway)\n",
                                     (unsigned long long)fila.skipped);
        }
        fflush(stdout);
        hilo.clear_scene();
        fila.clear_scene();
    }
    return rc;
}
