/** @file
 * hilo3d: the renderer — draws a stage through a camera on the webgpu or gles3 backend.
 *
 * One renderer owns one RHI device, one render graph and every GPU resource derived from
 * scene data (vertex/index buffers, textures, uniform blocks, shader variants, pipelines).
 * Each hl_renderer_render call is one graph frame and one submission:
 *   update world matrices -> one traversal (visible meshes and lights, frustum culling,
 *   opaque sorted by render order / material / geometry, transparent back to front,
 *   instanced batches) -> prepared draws (reused while revisions are unchanged) -> graph:
 *   shadow pass (when a light casts shadows) -> opaque pass -> transparent pass (only with
 *   transparent draws) -> output.
 *
 * Output: the renderer's own colour target (RGBA8 sRGB, width x height, optionally 4x MSAA
 * resolved), read back with hl_renderer_read_pixels. Render targets (hl_render_target) take
 * the same draws into textures the application owns: MRT, 1x/4x MSAA with resolve,
 * sampleable attachments (hl_render_target_texture gives a scene texture that a material can
 * use), resize, readback.
 *
 * Shading: colours and lights are linear; colour maps are sRGB; the output is sRGB-encoded
 * (hardware encode of the sRGB target). PBR is metallic-roughness (GGX, Smith, Schlick),
 * shadows are PCF-filtered from one depth atlas shared by directional, spot and point lights.
 * Each view lights with at most 64 directional, point and spot lights (ambient lights add up
 * into one term and do not count); further ones, in stage order, are left out of that view.
 *
 * Threading: a renderer belongs to one thread at a time, its owner: the thread that created
 * it. Every call taking the renderer or one of its render targets must come from the owner;
 * from any other thread it returns HL_ERR_INVALID_STATE with a message naming both threads
 * and changes nothing (void calls do nothing and leave that message). The rule and the error
 * are the same on both backends. To move a renderer to another thread, call
 * hl_renderer_detach on the owner (outside hl_renderer_render_frame), then hl_renderer_attach
 * on the new thread; detach it before its owning thread exits. A detached renderer may be
 * destroyed from any thread. Several renderers may work on several threads at the same time,
 * each used by its own thread. Scene objects (stages, nodes, geometries, materials, textures,
 * cameras, lights) have no owner but are not thread-safe: use each from one thread at a time,
 * and do not share them between renderers that run on different threads.
 */
#ifndef HILO3D_RENDERER_H
#define HILO3D_RENDERER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hilo3d/export.h"
#include "hilo3d/result.h"
#include "hilo3d/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Which backend a renderer draws with, chosen once at creation. */
typedef enum hl_backend {
    HL_BACKEND_AUTO = 0, /**< webgpu when an adapter fits, else gles3 */
    HL_BACKEND_WEBGPU,   /**< WebGPU through Dawn (loaded at run time; see dawn_library_path) */
    HL_BACKEND_GLES3,    /**< OpenGL ES 3.0 over headless EGL */
} hl_backend;

HL_API const char *hl_backend_name(hl_backend b); /**< "auto", "webgpu", "gles3" */
/** The backend named "auto", "webgpu" or "gles3"; HL_ERR_VALIDATION for any other name. */
HL_API hl_result hl_backend_parse(const char *name, hl_backend *out);

/** A renderer: one RHI device, its render graph and the GPU mirrors of what it draws (owned by
 * the caller: hl_renderer_create / hl_renderer_destroy; used from its owner thread only). */
typedef struct hl_renderer hl_renderer;
/** A render target: colour attachments (and depth) the renderer draws into and the application
 * reads or samples; owned by the renderer that made it. */
typedef struct hl_render_target hl_render_target;
struct hl_pipeline_factory; /* hilo3d/pipeline.h */
/** The frame being recorded inside hl_renderer_render_frame's callback (valid only there). */
typedef struct hl_render_frame hl_render_frame;

/** Called before a frame is built and after its submission is valid (never after a failed
 * frame). `frame_index` counts successful frames from 1. */
typedef void (*hl_render_event_fn)(hl_renderer *r, uint64_t frame_index, void *user);
/** Device events (see "Device loss" below): generation is the device generation the event is
 * about (the lost one, or the replacement), message says why (lost) or which adapter
 * (recovered). The message is valid during the call only. */
typedef void (*hl_device_event_fn)(hl_renderer *r, uint64_t generation, const char *message, void *user);

/* ---- windows ------------------------------------------------------------------------------------ */
/** @file
 * @par Windows
 * A renderer may present into a native window the application made (with GLFW, SDL, Xlib ...):
 * give it in hl_renderer_desc.window. The renderer keeps rendering into its output as without a
 * window (read_pixels, targets, everything works the same); hl_renderer_present puts the output
 * into the window's surface and shows it:
 *
 *     hl_renderer_desc d = {0};
 *     d.window = (hl_native_window){HL_WINDOW_X11, glfwGetX11Display(), glfwGetX11Window(win), NULL};
 *     d.width = fb_width, d.height = fb_height;
 *     hl_renderer_create(&d, &r);
 *     each frame: hl_renderer_resize(r, fb_width, fb_height) when the framebuffer changed (not for
 *                 0 x 0: a minimised window renders and presents nothing);
 *                 hl_renderer_render(r, stage, camera); hl_renderer_present(r);
 *
 * Present is one graph frame of its own: the window's surface texture is imported as a deferred
 * resource, so it is acquired only when the present pass runs (after the graph's compile, as
 * late as possible), then a fullscreen pass copies the output into it (sRGB-encoded as the
 * output is) and the surface presents. Vsync is on unless hl_renderer_desc.no_vsync. The surface
 * is configured at the output's size: after hl_renderer_resize it is configured again; when the
 * native surface says it is outdated (the window's size no longer matches) it is configured
 * again and acquired once more, and when that still gives no texture (the window and the output
 * differ in size until the application resizes; a lost native surface, which is made again next
 * time) the present shows nothing and returns HL_OK (stats.presents_skipped). On a device loss
 * the surface is made again on the new device and configured at recovery.
 *
 * Backends: webgpu presents through a Dawn surface (X11 or Wayland); gles3 through an EGL window
 * surface (X11; the EGL display is then the X11 one instead of a headless one; in the browser
 * the WebGL canvas, HL_WINDOW_CANVAS: resize the renderer to canvas.width x height when they
 * change, a WebGL context loss is a device loss). The window and its display belong to the
 * application and must outlive the renderer. */
/** The window system of hl_native_window (see "Windows" above). */
typedef enum hl_window_system {
    HL_WINDOW_NONE = 0, /**< headless (default) */
    HL_WINDOW_X11,      /**< display: the Xlib Display *; window: the Window (XID) */
    HL_WINDOW_WAYLAND,  /**< display: struct wl_display *; wayland_surface: struct wl_surface * (webgpu) */
    /** The browser build (Emscripten) only: the page's WebGL canvas, the one Emscripten's EGL
     * draws on (Module.canvas); display, window and wayland_surface stay 0. Natively
     * HL_ERR_UNSUPPORTED. */
    HL_WINDOW_CANVAS,
} hl_window_system;

/** A window the application made, by its native handles (owned by the application; they must
 * outlive the renderer). */
typedef struct hl_native_window {
    hl_window_system system; /**< NONE: no window (headless) */
    void *display;           /**< the window system's connection: Display * (X11), wl_display * (Wayland) */
    uint64_t window;         /**< X11: the Window XID */
    void *wayland_surface;   /**< Wayland: the wl_surface * (webgpu only) */
} hl_native_window;

/** Zero = defaults: backend AUTO, 640 x 480, sample_count 4, shadow atlas 2048.
 *
 * Caches: the renderer keeps GPU mirrors of the scene objects it draws (geometry, textures,
 * materials, uniform buffers, per-mesh slots). A mirror goes at the end of the first frame in
 * which the renderer holds the last reference to its object (the application released it and
 * no mesh or material uses it), or after 120 frames unused. Shader programs and pipelines
 * unused for 60 frames are released too (a shader material's program stays while the
 * material's mirror does). So the caches hold what the last frames drew and what the
 * application still holds, and the RHI's device cache bounds the native pipelines underneath. */
typedef struct hl_renderer_desc {
    hl_backend backend;         /**< default AUTO; an explicit backend never falls back */
    /** The output's size in pixels (default 640 x 480). @{ */
    uint32_t width, height;
    /** @} */
    uint32_t sample_count;      /**< 1 or 4 (default 4: the output is 4x MSAA, resolved) */
    uint32_t shadow_atlas_size; /**< texels per side of the shadow depth atlas (default 2048) */
    /** webgpu: the file Dawn (libwebgpu_wrapper.so) is loaded from, once per process (the first
     * webgpu device loads it; later paths are not read). $HL_DAWN_LIBRARY, when set, wins over
     * this field; with neither, the first of these that exists: beside an installed shared
     * libhilo3d (`<its folder>/hilo3d/libwebgpu_wrapper.so`); for a program in `<prefix>/bin`,
     * `<prefix>/<libdir>/hilo3d/libwebgpu_wrapper.so`; the install location configured when hilo3d
     * was built (`<CMAKE_INSTALL_PREFIX>/<libdir>/hilo3d/`, where `cmake --install` puts Dawn); the
     * build tree's bootstrap copy (.deps/dawn). Not found: HL_ERR_UNSUPPORTED naming the paths
     * tried (AUTO then takes gles3). */
    const char *dawn_library_path;
    /** Called before each frame is built and after its submission is valid (hl_render_event_fn);
     * NULL: none. @{ */
    hl_render_event_fn before_render, after_render;
    /** @} */
    void *event_user; /**< passed to every event callback */
    /** How long any call waits for the GPU before it returns HL_ERR_TIMEOUT: read_pixels and
     * target reads, wait_idle, a render that finds too many frames in flight, creation, and the
     * wait in hl_renderer_destroy (which then releases everything anyway). 0 = 10000 ms;
     * UINT32_MAX = no limit. A timeout changes nothing: the frame stays queued and a later call
     * succeeds once the GPU has finished it (a shader that loops for ever never finishes). */
    uint32_t wait_timeout_ms;
    /** The render pipeline (hilo3d/pipeline.h): its requirements take part in choosing the
     * backend, and its runtime records every render call. NULL = hl_forward_pipeline_factory(),
     * the built-in Forward pipeline (the direct recorder). Read during hl_renderer_create only
     * (the factory need not outlive it). */
    const struct hl_pipeline_factory *pipeline;
    /** Measure every frame's GPU time (hl_render_stats.gpu_ns) where the backend can: webgpu on
     * an adapter with timestamp queries (two timestamps and a 16-byte read per frame). Elsewhere
     * (gles3, adapters without them) it is ignored and gpu_ns stays 0. */
    bool gpu_timing;
    /** Called once per loss, when the renderer notices it (the call that noticed returns
     * HL_ERR_DEVICE_LOST), and after each successful recovery; event_user is passed. NULL: none. @{ */
    hl_device_event_fn device_lost, device_recovered;
    /** @} */
    /** A window to present into (see "Windows" above); system NONE = headless. */
    hl_native_window window;
    /** Present without waiting for the display's refresh (may tear); default false: vsync. */
    bool no_vsync;
    /** The direct recorder draws its colour passes through render bundles: a view's sorted lists
     * are cut into chunks of a few hundred draws (where their content says, so that a change
     * moves few cuts), each recorded once into a bundle and replayed while its draws stay the
     * same (a static scene, or meshes that only move). The chunks a change touches are drawn one
     * by one in that frame and recorded the next if they stay (content that changes every frame
     * costs what it costs without bundles); a view's first frame records every chunk at once
     * (hl_render_stats.bundles_recorded / _replayed / bundle_draws). webgpu records native
     * render bundles; gles3 replays the bundles' draws itself (the same draws, the same images).
     * true: every draw is recorded one by one each frame instead. */
    bool no_render_bundles;
    /** The threads that update a stage's world matrices, cull a view, build and sort its draws:
     * the calling thread and frontend_threads - 1 workers the renderer starts and stops (they only
     * do that work, between the render call's own steps; stages and views of fewer than 4,096
     * nodes / meshes keep to the calling thread). While one view is recorded the workers spin
     * between its steps (200 us at most, and only where each thread has a core), so a render call
     * uses up to this many cores for its frontend. 0 = the machine's cores - 1, at least 1, at
     * most 8; 1 = the calling thread alone. The results (world matrices, visible sets, draw
     * order, images, counters) are the same for every count. */
    uint32_t frontend_threads;
} hl_renderer_desc;

/** desc may be NULL: all defaults. */
HL_API hl_result hl_renderer_create(const hl_renderer_desc *desc, hl_renderer **out);
/** Waits for the GPU, releases every GPU resource and destroys every render target the renderer
 * still has (their pointers become invalid). NULL is a no-op. */
HL_API void hl_renderer_destroy(hl_renderer *r);
HL_API hl_backend hl_renderer_backend(const hl_renderer *r); /**< the backend actually chosen */
/** The device's adapter, e.g. "llvmpipe (LLVM 19.1.7, 256 bits)" (owned by the renderer); "" for
 * NULL. */
HL_API const char *hl_renderer_adapter_name(const hl_renderer *r);
/** The output's size (either pointer may be NULL; 0 for a NULL renderer). */
HL_API void hl_renderer_size(const hl_renderer *r, uint32_t *width, uint32_t *height);
/** Resizes the output (outside hl_renderer_render_frame). */
HL_API hl_result hl_renderer_resize(hl_renderer *r, uint32_t width, uint32_t height);

/** Renders stage through camera into the output. The camera's aspect is not changed. */
HL_API hl_result hl_renderer_render(hl_renderer *r, hl_stage *stage, hl_camera *camera);
/** Reads the output as RGBA8 (width * height * 4 bytes, row 0 = top, sRGB-encoded) into rgba,
 * which holds `size` bytes: a smaller buffer is HL_ERR_VALIDATION (nothing written). */
HL_API hl_result hl_renderer_read_pixels(hl_renderer *r, uint8_t *rgba, size_t size);
/** Waits for every submitted frame (at most wait_timeout_ms: then HL_ERR_TIMEOUT). */
HL_API hl_result hl_renderer_wait_idle(hl_renderer *r);
/** Shows the output in the window (see "Windows" above): acquires the window surface's texture,
 * copies the output into it and presents it; outside hl_renderer_render_frame. HL_OK also when
 * the surface gives no texture this time (stats.presents_skipped counts it); HL_ERR_INVALID_STATE
 * for a renderer without a window; a lost device is recovered first, as render calls do. */
HL_API hl_result hl_renderer_present(hl_renderer *r);
/** Thread hand-over (see "Threading" above): detach on the owning thread (not inside
 * hl_renderer_render_frame); the renderer then has no owner until a thread calls attach and
 * becomes its owner. attach on the owner itself is HL_OK without effect; while another thread
 * owns the renderer it is HL_ERR_INVALID_STATE. */
HL_API hl_result hl_renderer_detach(hl_renderer *r);
/** Makes the calling thread the owner of a detached renderer (see hl_renderer_detach). */
HL_API hl_result hl_renderer_attach(hl_renderer *r);

/* ---- device loss ------------------------------------------------------------------------------ */
/** @file
 * @par Device loss
 * The driver or the GPU may take the device away (webgpu: Dawn's device-lost callback; gles3: a
 * context reset where the driver reports it, or an EGL context that is no longer valid; in the
 * browser a lost WebGL context, 'webglcontextlost': recovery succeeds once the browser has
 * restored it, 'webglcontextrestored'; until then render calls return HL_ERR_DEVICE_LOST). The
 * renderer survives it: the call that notices the loss returns HL_ERR_DEVICE_LOST (a frame in
 * flight is rolled back: nothing it did is committed) and the device_lost event fires. From then
 * on calls that need the device return HL_ERR_DEVICE_LOST (reads, target and storage calls),
 * except the render calls (hl_renderer_render, _render_to_target, _render_frame, hl_renderer_present)
 * and hl_renderer_recover, which recover first: a new device of the same backend is made from the
 * renderer's description; it must have every capability the first one had (features, limits,
 * formats; the pipeline's requirements are checked again), else recovery fails with
 * HL_ERR_UNSUPPORTED naming what is missing and the renderer stays lost (a later call tries
 * again). Then every GPU object is rebuilt from its recipe: geometry, textures, materials,
 * uniform buffers, programs, pipelines and environments as frames draw them again (the scene
 * objects hold their data); render targets with their size and formats (contents cleared, as
 * new); compute shaders, kernels and storage shaders from their sources; storage buffers by
 * their recovery policy (compute.h); a pipeline runtime's persistent targets start again fresh;
 * the window's surface (hl_renderer_desc.window) is made on the new device and configured again.
 * The device generation advances (hl_render_stats.device_generation) and the device_recovered
 * event fires. Engine objects (stages, meshes, materials, textures, targets, storage buffers)
 * keep working without any user action; the next frame draws the same image. */
/** Takes the device away as a real loss would (webgpu: destroys the Dawn device; gles3: destroys
 * the EGL context and its surface; in the browser marks it lost, the WebGL context kept until
 * the recovery replaces it) and notices it: HL_OK when the renderer is lost afterwards.
 * Allowed inside hl_renderer_render_frame's callback and a pipeline pass's execute callback
 * (that frame then fails with HL_ERR_DEVICE_LOST and is rolled back). */
HL_API hl_result hl_renderer_simulate_device_loss(hl_renderer *r);
/** Polls the device for a loss (noticing it as above); true while the renderer is lost. */
HL_API bool hl_renderer_device_lost(hl_renderer *r);
/** Recovers a lost renderer now (render calls do it themselves); HL_OK when not lost. */
HL_API hl_result hl_renderer_recover(hl_renderer *r);
/** Drops every GPU object the renderer holds (mirrors, programs, pipelines, targets' attachments,
 * environments, compute objects, storage buffers, persistent targets with their records); the
 * device stays. The next call that needs them rebuilds them from the same recipes, as after a
 * recovery. Not inside a frame (HL_ERR_INVALID_STATE). */
HL_API hl_result hl_renderer_release_gpu_resources(hl_renderer *r);

/* ---- render targets -------------------------------------------------------------------------- */
/** The format of a render target's colour attachment. */
typedef enum hl_target_format {
    HL_TARGET_RGBA8_SRGB = 0, /**< 8 bits per channel, sRGB-encoded on write (the default) */
    HL_TARGET_RGBA8,          /**< 8 bits per channel, linear values as written */
    HL_TARGET_RGBA16F,        /**< half floats: linear, unclamped (HDR) */
} hl_target_format;

/** Zero = defaults: the renderer's size, 1 colour attachment RGBA8 sRGB, 1 sample, depth on. */
typedef struct hl_render_target_desc {
    /** The size in pixels (0: the renderer's output size). @{ */
    uint32_t width, height;
    /** @} */
    uint32_t color_count; /**< colour attachments, 1..4 */
    hl_target_format formats[4]; /**< per colour attachment (default RGBA8 sRGB) */
    uint32_t sample_count; /**< 1 or 4: MSAA targets resolve into sampleable textures */
    bool no_depth;         /**< no depth attachment (no depth test in its passes) */
    hl_color clear_color; /**< default transparent black */
    const char *label;     /**< for messages (copied); NULL = none */
} hl_render_target_desc;

/** desc may be NULL: all defaults. A target belongs to the renderer that created it: every call
 * below checks that r is its renderer (another renderer's target, or a destroyed one, is
 * HL_ERR_VALIDATION); hl_renderer_destroy destroys the targets left. */
HL_API hl_result hl_render_target_create(hl_renderer *r, const hl_render_target_desc *desc, hl_render_target **out);
/** NULL t is a no-op. Not inside hl_renderer_render_frame (HL_ERR_INVALID_STATE); the output
 * cannot be destroyed this way. */
HL_API hl_result hl_render_target_destroy(hl_renderer *r, hl_render_target *t);
/** Changes t's size (its contents are lost). Not inside
 * hl_renderer_render_frame (HL_ERR_INVALID_STATE); HL_ERR_VALIDATION for 0 or a size above the
 * device's limit, and a target that cannot be made at the new size keeps its old one. */
HL_API hl_result hl_render_target_resize(hl_renderer *r, hl_render_target *t, uint32_t width, uint32_t height);
/** Renders into t. Attachment 0 gets the shaded colour; attachments 1..3 of an MRT target
 * get, in order: world-space normal (n * 0.5 + 0.5, alpha 1), base colour, and the distance from
 * the camera / far plane (r). */
HL_API hl_result hl_renderer_render_to_target(hl_renderer *r, hl_render_target *t, hl_stage *stage, hl_camera *camera);
/** Reads attachment `index` (resolved for MSAA) as 4 bytes per texel (RGBA8 targets) or
 * 8 bytes (RGBA16F, half floats), row 0 = top, into pixels, which holds `size` bytes (at least
 * hl_render_target_read_size(t, index), else HL_ERR_VALIDATION and nothing written). */
HL_API hl_result hl_render_target_read(hl_renderer *r, hl_render_target *t, uint32_t index, void *pixels, size_t size);
/** Bytes hl_render_target_read writes for attachment index (0 for a bad index or NULL t). */
HL_API size_t hl_render_target_read_size(const hl_render_target *t, uint32_t index);
/** A scene texture showing attachment `index` (owned by the target: do not release it). Use
 * it as a material map; it shows what the last frame rendered into the target. A material
 * that samples it while rendering into the same target fails with HL_ERR_VALIDATION (on both
 * backends, before any GPU work). */
HL_API hl_texture *hl_render_target_texture(hl_render_target *t, uint32_t index);

/* ---- one frame, many passes --------------------------------------------------------------- */
/** The most render calls (views) of one frame. */
#define HL_RENDER_MAX_VIEWS 16
/** The callback of hl_renderer_render_frame. Inside it, hl_render_frame_render,
 * hl_render_frame_render_to_target and hl_render_frame_present record into one graph that
 * executes as one submission when the callback returns HL_OK. No resize / destroy / readback
 * inside. At most HL_RENDER_MAX_VIEWS render calls per frame (one more is HL_ERR_VALIDATION and
 * fails the frame). An error return fails the frame: nothing is submitted. */
typedef hl_result (*hl_render_frame_fn)(hl_render_frame *f, void *user);
/** Builds one frame of several passes: calls fn(f, user) once and submits what it recorded, or
 * nothing when fn fails (its code is returned). */
HL_API hl_result hl_renderer_render_frame(hl_renderer *r, hl_render_frame_fn fn, void *user);
/** Draws the scene into t (as hl_renderer_render_to_target), inside the frame. */
HL_API hl_result hl_render_frame_render_to_target(hl_render_frame *f, hl_render_target *t, hl_stage *stage,
                                           hl_camera *camera);
/** Draws the scene into the renderer's output. */
HL_API hl_result hl_render_frame_render(hl_render_frame *f, hl_stage *stage, hl_camera *camera);
/** Copies attachment 0 of t (same size as the output) into the output. */
HL_API hl_result hl_render_frame_present(hl_render_frame *f, hl_render_target *t);

/* ---- diagnostics ------------------------------------------------------------------------------- */
/** What the last frame did and what the renderer holds (hl_renderer_stats); "last frame" figures
 * are replaced by every successful render call. */
typedef struct hl_render_stats {
    uint64_t frame_index;      /**< successful frames so far (the last one's index) */
    uint32_t draws;            /**< draw calls of the last frame */
    uint32_t instances;        /**< instances drawn (>= draws) */
    uint64_t faces;            /**< triangles submitted */
    uint32_t passes;           /**< graph passes executed */
    /** Meshes that passed frustum culling, and those it rejected, last frame. @{ */
    uint32_t meshes_visible, meshes_culled;
    /** @} */
    /** Lights used and shadow atlas tiles rendered, last frame. @{ */
    uint32_t lights, shadow_tiles;
    /** @} */
    /** last frame @{ */
    uint64_t pipeline_switches, bind_group_switches;
    /** @} */
    /** renderer caches, last frame @{ */
    uint64_t cache_hits, cache_misses;
    /** @} */
    /** prepared draws, last frame @{ */
    uint64_t prepared_reused, prepared_rebuilt;
    /** @} */
    /** Draws of the last frame whose material, program, geometry and shared groups came from an
     * earlier mesh of the same view with the same material, geometry and shadow flags (looked up
     * once per such kind and view, not per mesh). */
    uint64_t draw_memo_hits;
    /** Draws of the last frame taken from the kept list of the frame before (no culling, draw
     * building or sorting ran for them): the direct recorder keeps its first view's list while
     * that view's stage, camera, target and environment stay and nothing changes anywhere
     * (hl_revision_now); views with instanced meshes or mesh events are rebuilt every frame. */
    uint32_t retained_draws;
    /** Render bundles of the last frame (hl_renderer_desc.no_render_bundles): chunks of draws
     * recorded (new in a view's first frame, or unchanged since the frame before, which drew them
     * one by one). */
    uint32_t bundles_recorded;
    uint32_t bundles_replayed; /**< bundles recorded in an earlier frame, nothing in them changed */
    /** Draws executed through bundles (the rest, draws - bundle_draws, were drawn one by one). */
    uint32_t bundle_draws;
    uint64_t upload_bytes;                            /**< last frame */
    uint64_t cpu_ns;                                  /**< last hl_renderer_render / render_frame */
    /** cpu_ns by phase (ns), the rest being event callbacks and cache eviction: record (scene
     * update, culling, renderer lists, sorting, draw building: the pipeline's record callback or
     * the direct recorder, and for render_frame the frame callback), graph_compile (the frame
     * graph's validation, order, culling, lifetimes and transient allocation), prepare (passes'
     * programs, pipelines and bind groups), execute (command encoding and uploads), submit. @{ */
    uint64_t record_ns, graph_compile_ns, prepare_ns, execute_ns, submit_ns;
    /** @} */
    /** Parts of record_ns, summed over the frame's views (the direct recorder and a pipeline's
     * culling calls): update (scene and camera transforms, the view's constants), cull (the
     * traversal against the frustum, shadow casters, light planning), build (draws prepared or
     * rebuilt, per-object uploads queued), sort (the queues' order). @{ */
    uint64_t update_ns, cull_ns, build_ns, sort_ns;
    /** @} */
    /* what the renderer holds after the last frame (bounded: see hl_renderer_desc) */
    /** shader programs and render pipelines held @{ */
    uint32_t programs, pipelines;
    /** @} */
    uint32_t mirrors;             /**< GPU mirrors of scene objects: geometry, textures, materials,
                                     uniform buffers, mesh slots */
    uint32_t targets;             /**< render targets, the output included */
    /** Times the last frame acquired the output's texture: 1 when a pass that writes it survived
     * the frame graph's culling, else 0 (the output is imported as a deferred provider, asked
     * for its texture after culling: for a window, where the surface image is acquired). */
    uint32_t output_acquires;
    /** With hl_renderer_desc.gpu_timing where the backend measures it: the GPU time (ns, from the
     * frame's first command to the end of its last) of the latest completed frame whose
     * timestamps were read. They are read when the renderer polls the GPU, so the figure
     * trails the last render by a frame or more; after hl_renderer_wait_idle it is the last
     * frame's. 0: not measured (yet). */
    uint64_t gpu_ns;
    /** Device loss: successful recoveries so far. */
    uint32_t device_recoveries;
    uint64_t device_generation; /**< the device generation: 1 at creation, +1 per recovery */
    /** Objects alive on the device after the last frame: RHI handles of every kind and the
     * native objects of its caches (a leak across recoveries shows here). */
    uint32_t gpu_objects;
    /** Windows, counted since the renderer was made: frames shown by hl_renderer_present. */
    uint64_t presents;
    uint64_t presents_skipped; /**< presents that showed nothing (the surface gave no texture) */
    /** Times the surface was configured (at creation, on resizes, when outdated, after a
     * recovery). */
    uint32_t surface_configures;
    uint64_t present_ns; /**< the CPU time of the last present (acquire, copy pass, present) */
} hl_render_stats;

/** The renderer's figures (owned by the renderer, updated by each render call); an all-zero
 * struct for NULL. */
HL_API const hl_render_stats *hl_renderer_stats(const hl_renderer *r);

/** Writes the render graph of the last successful frame as Graphviz DOT (passes in execution
 * order, culled ones grey and dashed; resources; edges by access). HL_ERR_INVALID_STATE before
 * the first frame or after a failed one; HL_ERR_IO when writing fails. */
HL_API hl_result hl_renderer_write_graph_dot(hl_renderer *r, FILE *f);

#ifdef __cplusplus
}
#endif

#endif
