/** @file
 * hilo3d: render pipelines — who decides what a renderer records each frame.
 *
 * Every render call (hl_renderer_render, hl_renderer_render_to_target, and each
 * hl_render_frame_render* inside hl_renderer_render_frame) is one *invocation* of the
 * renderer's pipeline runtime. The runtime is made by a *factory* named in hl_renderer_desc:
 *
 *     hl_renderer_desc rd = {0};
 *     rd.pipeline = &my_factory;      // NULL: the built-in Forward factory
 *     hl_renderer_create(&rd, &r);
 *
 * Creation: the factory's requirements (capabilities, limits, texture formats) are merged and
 * normalised first; HL_BACKEND_AUTO then skips a backend whose device cannot meet them, and an
 * explicit backend that cannot is HL_ERR_UNSUPPORTED naming the requirement. Once a device is
 * chosen the factory's create is called exactly once with an immutable capability snapshot
 * (hl_pipeline_caps: no device, no renderer, no native object). It returns a new runtime
 * (hl_pipeline_runtime_create). A failing create makes hl_renderer_create release everything
 * it made and return the factory's error; the backend is not changed to try again.
 *
 * A runtime belongs to exactly one renderer: a runtime that is already attached (returned by a
 * factory a second time) is refused with HL_ERR_INVALID_STATE. Its destroy callback runs exactly
 * once: in hl_renderer_destroy, before the renderer releases its GPU resources, or in
 * hl_pipeline_runtime_destroy for a runtime no renderer took.
 *
 * Recording: the runtime's record callback is called once per invocation with a context
 * handle (hl_pipeline_context). The handle is valid only during that call and on the thread
 * making it: kept and used afterwards (or from elsewhere) every hl_pipeline_context_* call
 * returns HL_ERR_INVALID_STATE; it is never a dangling pointer. A record that fails fails the
 * whole application frame (nothing is submitted, the after-render event does not fire) and the
 * renderer's message names the pipeline.
 *
 * The built-in Forward factory without features is the direct recorder: no record callback,
 * no context, no per-draw or per-frame work beyond today's path (tests/px_pipeline_parity
 * compares its counters with the numbers of the commit before pipelines existed).
 *
 * Threading: as the renderer (see renderer.h). Factories and their user data must outlive the
 * hl_renderer_create call only; runtimes live until their renderer is destroyed.
 */
#ifndef HILO3D_PIPELINE_H
#define HILO3D_PIPELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hilo3d/export.h"
#include "hilo3d/compute.h"
#include "hilo3d/renderer.h"
#include "hilo3d/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- capabilities --------------------------------------------------------------------------------- */

/** Texture formats a pipeline may ask about. The colour values equal hl_target_format's. */
typedef enum hl_pipeline_format {
    HL_PIPELINE_FORMAT_RGBA8_SRGB = 0,       /**< 8-bit RGBA, sRGB-encoded (= HL_TARGET_RGBA8_SRGB) */
    HL_PIPELINE_FORMAT_RGBA8,                /**< 8-bit RGBA, linear (= HL_TARGET_RGBA8) */
    HL_PIPELINE_FORMAT_RGBA16F,              /**< half-float RGBA, HDR (= HL_TARGET_RGBA16F) */
    HL_PIPELINE_FORMAT_RGBA32F,              /**< float RGBA (filterable only with float32-filterable) */
    HL_PIPELINE_FORMAT_R8,                   /**< one 8-bit channel */
    HL_PIPELINE_FORMAT_DEPTH24_PLUS,         /**< depth, at least 24 bits (scene passes' depth) */
    HL_PIPELINE_FORMAT_DEPTH24_PLUS_STENCIL8, /**< depth with an 8-bit stencil */
    HL_PIPELINE_FORMAT_DEPTH32F,             /**< 32-bit float depth */
    HL_PIPELINE_FORMAT_COUNT                 /**< the number of formats */
} hl_pipeline_format;

/** What a pipeline wants to do with a texture format (hl_pipeline_caps_supports_texture_format). */
typedef enum hl_pipeline_texture_use {
    HL_PIPELINE_USE_SAMPLED = 0,          /**< read in a shader (unfiltered) */
    HL_PIPELINE_USE_FILTERABLE_SAMPLED,   /**< read through a linear sampler */
    HL_PIPELINE_USE_COLOR_ATTACHMENT,     /**< rendered to as colour (colour formats) */
    HL_PIPELINE_USE_DEPTH_STENCIL_ATTACHMENT, /**< rendered to as depth (depth formats) */
    HL_PIPELINE_USE_COPY_SOURCE,          /**< copied from */
    HL_PIPELINE_USE_COPY_DESTINATION,     /**< copied into */
    HL_PIPELINE_USE_COUNT                 /**< the number of uses */
} hl_pipeline_texture_use;

/** Capabilities beyond the renderer's baseline (bit flags). */
enum {
    HL_PIPELINE_CAP_COMPUTE = 1u << 0,           /**< compute passes (webgpu only) */
    HL_PIPELINE_CAP_STORAGE_BUFFERS = 1u << 1,   /**< storage buffers (webgpu only) */
    HL_PIPELINE_CAP_INDEPENDENT_BLEND = 1u << 2, /**< MRT attachments with different blend states */
    HL_PIPELINE_CAP_ALL = (1u << 3) - 1          /**< every bit above */
};

/** Portable limits (no backend names, no native limit objects). */
typedef struct hl_pipeline_limits {
    uint32_t max_texture_dimension_2d;       /**< largest width or height of a texture */
    uint32_t max_color_attachments;          /**< colour attachments of one pass */
    uint32_t max_sampled_textures_per_stage; /**< textures one shader stage may sample */
} hl_pipeline_limits;

/** The immutable capability snapshot of a renderer's device, frozen at creation. */
typedef struct hl_pipeline_caps hl_pipeline_caps;

/** The device's limits (owned by the snapshot); all zero for NULL. */
HL_API const hl_pipeline_limits *hl_pipeline_caps_limits(const hl_pipeline_caps *caps);
/** true when every HL_PIPELINE_CAP_* bit in `capabilities` is available */
HL_API bool hl_pipeline_caps_has(const hl_pipeline_caps *caps, uint32_t capabilities);
/** samples: 0 or 1 = single-sampled, 4 = 4x MSAA (attachment uses only; other counts: false).
 * Copies are supported for every colour format that can be sampled; depth formats cannot be
 * copied. Out-of-range arguments answer false. */
HL_API bool hl_pipeline_caps_supports_texture_format(const hl_pipeline_caps *caps, hl_pipeline_format format,
                                              hl_pipeline_texture_use use, uint32_t samples);
HL_API const char *hl_pipeline_format_name(hl_pipeline_format format);   /**< "rgba16f", ...; "?" if unknown */
HL_API const char *hl_pipeline_use_name(hl_pipeline_texture_use use);    /**< "filterable-sampled", ... */
/** "compute", "storage-buffers", "independent-blend" for one bit; "?" otherwise */
HL_API const char *hl_pipeline_capability_name(uint32_t capability);

/* ---- requirements ------------------------------------------------------------------------------------ */
/** One texture format use a pipeline cannot do without. */
typedef struct hl_pipeline_texture_requirement {
    hl_pipeline_format format;   /**< the texture format needed */
    hl_pipeline_texture_use use; /**< what the pipeline does with it */
    uint32_t samples; /**< 0 or 1: single-sampled; 4 */
} hl_pipeline_texture_requirement;

/** The most texture requirements of one factory. */
#define HL_PIPELINE_MAX_TEXTURE_REQUIREMENTS 64

/** Zero = nothing beyond the baseline. Limits are minimums (0 = none). textures: up to
 * HL_PIPELINE_MAX_TEXTURE_REQUIREMENTS entries; duplicates are merged in first-seen order. */
typedef struct hl_pipeline_requirements {
    uint32_t capabilities; /**< HL_PIPELINE_CAP_* */
    hl_pipeline_limits limits; /**< minimums the device must reach (0 = none) */
    const hl_pipeline_texture_requirement *textures; /**< format uses the device must support */
    uint32_t texture_count;    /**< entries in textures */
} hl_pipeline_requirements;

/* ---- runtime and factory ------------------------------------------------------------------------------ */
/** A pipeline runtime: the state and record callback that decide what one renderer records each
 * render call (made by a factory; destroyed by its renderer). */
typedef struct hl_pipeline_runtime hl_pipeline_runtime;

/** A context: a value naming one invocation, valid only inside that invocation's record call. */
typedef struct hl_pipeline_context {
    uint64_t token; /**< opaque; a stale or made-up token is refused (HL_ERR_INVALID_STATE) */
} hl_pipeline_context;

/** A runtime to make (hl_pipeline_runtime_create). */
typedef struct hl_pipeline_runtime_desc {
    const char *name; /**< copied (at most 63 bytes kept); default "pipeline" */
    void *state;      /**< the runtime's own data, handed to each callback */
    /** one invocation; NULL records nothing. An error return fails the application frame. */
    hl_result (*record)(hl_pipeline_context ctx, void *state);
    /** called exactly once (see the top of this header); may be NULL */
    void (*destroy)(void *state);
} hl_pipeline_runtime_desc;

/** For factories: makes a runtime (not yet attached to a renderer). */
HL_API hl_result hl_pipeline_runtime_create(const hl_pipeline_runtime_desc *desc, hl_pipeline_runtime **out);
/** Destroys a runtime no renderer took (its destroy callback runs); an attached runtime is
 * destroyed by its renderer: here that is HL_ERR_INVALID_STATE. NULL is a no-op (HL_OK). */
HL_API hl_result hl_pipeline_runtime_destroy(hl_pipeline_runtime *rt);

/** A pipeline factory: requirements and a create callback, named in hl_renderer_desc.pipeline.
 * It need only outlive hl_renderer_create. */
typedef struct hl_pipeline_factory {
    const char *name; /**< for messages; default "pipeline" */
    const hl_pipeline_requirements *requirements; /**< NULL: none */
    /** Makes the renderer's runtime (exactly once per hl_renderer_create that reaches it). caps
     * is valid during this call only (inside record: hl_pipeline_context_caps). On failure the
     * factory releases what it made itself; the error code comes back from hl_renderer_create. */
    hl_result (*create)(const hl_pipeline_caps *caps, void *user, hl_pipeline_runtime **out);
    void *user; /**< passed to create */
} hl_pipeline_factory;

/** The built-in Forward pipeline (process-wide, immutable): what a renderer uses when
 * hl_renderer_desc.pipeline is NULL. */
HL_API const hl_pipeline_factory *hl_forward_pipeline_factory(void);

/** The name of the renderer's pipeline runtime ("forward" for the built-in one). */
HL_API const char *hl_renderer_pipeline_name(const hl_renderer *r);

/* ---- inside record ------------------------------------------------------------------------------------ */
/** Where an invocation renders. */
typedef enum hl_pipeline_output_kind {
    HL_PIPELINE_OUTPUT_RENDERER = 0, /**< the renderer's own output */
    HL_PIPELINE_OUTPUT_RENDER_TARGET, /**< an hl_render_target */
} hl_pipeline_output_kind;

/** What the invocation renders into. */
typedef struct hl_pipeline_output {
    hl_pipeline_output_kind kind; /**< the renderer's output or a render target */
    /** The size in pixels. @{ */
    uint32_t width, height;
    /** @} */
    uint32_t sample_count;               /**< 1 or 4 */
    uint32_t color_count;                /**< colour attachments, 1..4 */
    hl_pipeline_format color_formats[4]; /**< formats of attachments 0..color_count-1 */
    bool has_depth;                      /**< a depth attachment exists */
} hl_pipeline_output;

/** Every call below: HL_ERR_INVALID_STATE when ctx is not the invocation being recorded on this
 * thread (kept past its record call, or made up); HL_ERR_VALIDATION for a NULL out. */
HL_API hl_result hl_pipeline_context_frame_index(hl_pipeline_context ctx, uint64_t *out); /**< frame being built: last + 1 */
HL_API hl_result hl_pipeline_context_invocation(hl_pipeline_context ctx, uint32_t *out);  /**< 0, 1, ... within the frame */
/** What the invocation renders into. */
HL_API hl_result hl_pipeline_context_output(hl_pipeline_context ctx, hl_pipeline_output *out);
/** The renderer's capability snapshot (valid as long as the renderer). */
HL_API hl_result hl_pipeline_context_caps(hl_pipeline_context ctx, const hl_pipeline_caps **out);
/** The stage and camera of the render call (read them; changing the scene inside record is the
 * application's business, not the pipeline's). Either out may be NULL. */
HL_API hl_result hl_pipeline_context_scene(hl_pipeline_context ctx, hl_stage **stage, hl_camera **camera);

/* ---- culling results, renderer lists, passes (inside record) ------------------------------- */
/** @file
 * @par Culling results, renderer lists and scene passes (inside record)
 * A culling result is one traversal of the invocation's stage through a camera: visible meshes,
 * shadow casters outside the view, lights and their shadow tiles, draws prepared (programs,
 * pipelines, bind groups: the renderer's caches) and sorted. Renderer lists select and order
 * its draws; scene passes draw a list into the invocation's output. Handles are values valid
 * inside the record call that made them (HL_ERR_INVALID_STATE after it, or from another
 * invocation). At most HL_RENDER_MAX_VIEWS culls and render calls per frame together.
 *
 * The output's attachments: the first scene pass into it usually clears (load = false), later
 * ones load; every pass stores, and after record returns the host resolves a multisampled
 * output (one extra pass) and marks it as the frame's result. A record that adds no scene pass
 * leaves the output as it was. */
/** A texture of the frame (see "graph textures" below). */
typedef struct hl_pipeline_texture {
    uint64_t token; /**< the invocation's (opaque) */
    uint32_t id;    /**< the texture within the frame; 0 = none */
} hl_pipeline_texture;

/** A buffer of the frame (webgpu only; see "graph buffers and compute passes" below). */
typedef struct hl_pipeline_buffer {
    uint64_t token; /**< the invocation's (opaque) */
    uint32_t id;    /**< the buffer within the frame; 0 = none */
} hl_pipeline_buffer;

/** A storage buffer bound to a shader's read-only storage block, by the block's name. */
typedef struct hl_pipeline_storage_binding {
    const char *block;         /**< the storage block's name */
    hl_pipeline_buffer buffer; /**< a buffer of the frame (imported storage buffer or transient) */
    /** offset a multiple of 256; size 0: to the end @{ */
    uint64_t offset, size;
    /** @} */
} hl_pipeline_storage_binding;

/** A culling result of the invocation (hl_pipeline_cull); zero = none. */
typedef struct hl_pipeline_culling {
    uint64_t token; /**< the invocation's (opaque) */
    uint32_t index; /**< which culling of the invocation */
} hl_pipeline_culling;

/** How to cull (hl_pipeline_cull; NULL: the invocation's camera, draws for its output). */
typedef struct hl_pipeline_cull_desc {
    hl_camera *camera; /**< NULL: the invocation's camera */
    /** 0: draws prepared for the invocation's output. 1..4: for scene passes into textures of
     * the runtime's (hl_pipeline_create_texture): color_count single-sample colour attachments
     * of color_formats, and a DEPTH24_PLUS depth texture unless no_depth (the scene's clear
     * colour is the stage's, as for the renderer's output). samples: 4 makes the layout
     * multisampled (textures made with samples 4; scene passes resolve into single-sample ones). */
    uint32_t color_count;
    hl_pipeline_format color_formats[4]; /**< the layout's colour formats (color_count of them) */
    bool no_depth;                       /**< the layout has no depth texture */
    uint32_t samples; /**< of the layout's attachments: 0 or 1, or 4 (MSAA; scene passes resolve) */
    /** A G-buffer culling (deferred shading): color_count 4, every format RGBA16F, with depth.
     * Opaque meshes with built-in materials draw, instead of their lit colour, what a lit
     * fullscreen pass (hl_pipeline_fullscreen_pass_desc.lighting) needs, in linear values:
     *   0: base colour rgb, a = 2 + ambient occlusion (a < 1.5 where nothing was drawn: the
     *      attachments keep the clear colour there)
     *   1: world-space normal xyz (0 for unlit materials: basic, or no normals), a = metallic
     *   2: emission rgb, a = roughness
     *   3: world position xyz, a = 1 where the mesh receives shadows, else 0
     * Transparent meshes and shader materials draw as usual: leave them out of G-buffer lists
     * (HL_PIPELINE_QUEUE_OPAQUE with HL_PIPELINE_MATERIALS_ENGINE) and draw them with another
     * culling after the lighting. Fog is the lighting pass's (hl_fog). */
    bool gbuffer;
    /** A culling result of this invocation to derive from (zero: none): its visible meshes,
     * lights and shadows are reused (no second traversal, no second shadow atlas) and only the
     * draws are made again, for this desc's layout and gbuffer. camera must be NULL or the
     * base's. hl_pipeline_record_shadows on the derived result records the base's shadows if
     * they are not yet (else it is a no-op): the two share one shadow pass. */
    hl_pipeline_culling base;
    /** No draws for opaque meshes with built-in materials (basic, PBR): for a culling whose lists
     * take only shader materials and transparent meshes, as a deferred pipeline's forward pass
     * over its G-buffer; none of its lists contains them. Only with base (the shadows are the
     * base's, drawn from its own draws). */
    bool exclude_opaque_engine;
} hl_pipeline_cull_desc;

/** desc may be NULL. */
HL_API hl_result hl_pipeline_cull(hl_pipeline_context ctx, const hl_pipeline_cull_desc *desc, hl_pipeline_culling *out);

/** What a culling found (hl_pipeline_culling_info_get). */
typedef struct hl_pipeline_culling_info {
    /** Meshes inside the view, and those outside it. @{ */
    uint32_t visible_meshes, culled_meshes;
    /** @} */
    uint32_t shadow_casters_outside; /**< casters outside the view that still cast into it */
    /** Lights of the view, and the shadow atlas tiles they take. @{ */
    uint32_t lights, shadow_tiles;
    /** @} */
    uint32_t draws; /**< prepared draws (instanced batches count once) */
} hl_pipeline_culling_info;

/** The figures of a culling result of this invocation. */
HL_API hl_result hl_pipeline_culling_info_get(hl_pipeline_context ctx, hl_pipeline_culling culling, hl_pipeline_culling_info *out);

/** The shadow maps of a culling result's lights (the renderer's shadow atlas); nothing when no
 * light casts shadows. Once per culling result, before a scene pass draws it (else that scene
 * pass is HL_ERR_INVALID_STATE). */
HL_API hl_result hl_pipeline_record_shadows(hl_pipeline_context ctx, hl_pipeline_culling culling);

/** Which draws of a culling result a renderer list takes, by the material's alpha mode. */
typedef enum hl_pipeline_queue {
    HL_PIPELINE_QUEUE_OPAQUE = 0,  /**< opaque and alpha-masked materials */
    HL_PIPELINE_QUEUE_TRANSPARENT, /**< HL_ALPHA_BLEND materials */
    HL_PIPELINE_QUEUE_ALL,         /**< both, the opaque ones first */
} hl_pipeline_queue;

/** The order of a renderer list's draws. */
typedef enum hl_pipeline_sorting {
    /** the renderer's order: opaque by render order, pipeline, material, geometry; transparent
       back to front (after the opaque draws in QUEUE_ALL) */
    HL_PIPELINE_SORT_MATERIAL_FRONT_TO_BACK = 0,
    HL_PIPELINE_SORT_BACK_TO_FRONT, /**< by the distance of each mesh's bounding sphere, farthest first */
    HL_PIPELINE_SORT_NONE,          /**< traversal order (instanced batches after the plain meshes) */
} hl_pipeline_sorting;

/** Which materials a renderer list keeps (by each mesh's own material). */
typedef enum hl_pipeline_materials {
    HL_PIPELINE_MATERIALS_ALL = 0, /**< every material (the default) */
    HL_PIPELINE_MATERIALS_ENGINE, /**< the built-in kinds (HL_MATERIAL_BASIC, HL_MATERIAL_PBR) */
    HL_PIPELINE_MATERIALS_SHADER, /**< shader materials (hl_material_create_shader) */
} hl_pipeline_materials;

/** A renderer list to make (hl_pipeline_create_renderer_list): a selection of a culling's draws. */
typedef struct hl_pipeline_renderer_list_desc {
    hl_pipeline_culling culling;  /**< the culling result it selects from (required) */
    hl_pipeline_queue queue;      /**< default opaque */
    hl_pipeline_sorting sorting;  /**< default the renderer's order */
    bool cast_shadows_only; /**< only meshes that cast shadows */
    /** drawn instead of each mesh's material (the meshes' geometry, transforms and order; through
       the renderer's program and pipeline caches); NULL: the meshes' own */
    hl_material *override_material;
    hl_pipeline_materials materials; /**< default HL_PIPELINE_MATERIALS_ALL */
    /** 0: every mesh; else only meshes on one of these layers (hl_mesh_layers(m) & layer_mask) */
    uint32_t layer_mask;
} hl_pipeline_renderer_list_desc;

/** A renderer list of the invocation; zero = none. */
typedef struct hl_pipeline_renderer_list {
    uint64_t token; /**< the invocation's (opaque) */
    uint32_t index; /**< which list of the frame */
} hl_pipeline_renderer_list;

/** Selects and orders draws of a culling result into a list (valid inside this record call). */
HL_API hl_result hl_pipeline_create_renderer_list(hl_pipeline_context ctx, const hl_pipeline_renderer_list_desc *desc,
                                           hl_pipeline_renderer_list *out);
/** The number of draws in list (instanced batches count once). */
HL_API hl_result hl_pipeline_renderer_list_count(hl_pipeline_context ctx, hl_pipeline_renderer_list list, uint32_t *draws);

/** The commands of a scene pass's execute callback (valid during that call only: afterwards,
 * or on another thread, every function below is HL_ERR_INVALID_STATE). */
typedef struct hl_pipeline_pass_encoder {
    uint64_t token; /**< the execute call's (opaque) */
} hl_pipeline_pass_encoder;

/** A scene pass to add (hl_pipeline_add_scene_pass). */
typedef struct hl_pipeline_scene_pass_desc {
    const char *name;                /**< for messages and graph dumps; default "scene" */
    hl_pipeline_renderer_list list;  /**< the draws (required) */
    bool load_color;                 /**< false: clear to the output's clear colour */
    bool load_depth;                 /**< false: clear to 1 */
    /** for a culling result made with an attachment layout: the textures, matching it (formats,
     * one size, single-sample; depth DEPTH24_PLUS unless the layout has none). Left zero for a
     * culling result of the output. */
    hl_pipeline_texture color[4];
    hl_pipeline_texture depth; /**< the depth texture for such a culling result (zero: none) */
    /** multisampled layouts: single-sample textures (format and size of color[i]) this pass
       resolves colour attachment i into (zero: none) */
    hl_pipeline_texture resolve[4];
    /** Optional: the pass's own commands. NULL draws `list` once over the whole attachment. Else
     * execute is called once when the pass executes (after allocation, inside its render pass,
     * viewport and scissor the whole attachment) with an encoder valid during that call only;
     * it may set the viewport, scissor and stencil reference and draw `list` (slot 0) and
     * more_lists (slots 1..3, renderer lists of the same culling result), each any number of
     * times, through the hl_pipeline_pass_* functions below. An error return fails the frame.
     * Render calls, resizes, destroys and readbacks of the renderer are refused inside it
     * (HL_ERR_INVALID_STATE), as inside record. */
    hl_result (*execute)(hl_pipeline_pass_encoder enc, void *user);
    void *user; /**< passed to execute */
    hl_pipeline_renderer_list more_lists[3]; /**< lists execute may draw as slots 1..3 (zero: none) */
    /** Pass-global storage (webgpu only) for the storage variants of shader materials: a shader
     * material whose sources are GLSL ES 3.10 (`#version 310 es`) may declare read-only storage
     * blocks (`layout(std430) readonly buffer Lights { ... };`), which its draws read from the
     * scene pass's buffers bound here by block name, at group 3 (groups 0-2 keep their meaning:
     * frame, object, material). A block a material of the
     * lists declares that the pass does not bind is HL_ERR_VALIDATION at this call; outside a
     * pipeline's scene pass (the direct recorder) such a material fails the frame, naming it;
     * on gles3 its program fails to compile (HL_ERR_UNSUPPORTED). Shader materials are never
     * instanced: each mesh is its own draw. */
    hl_pipeline_storage_binding storage[4];
    uint32_t storage_count; /**< entries in storage */
} hl_pipeline_scene_pass_desc;

/** Draws a renderer list into the invocation's output (every colour attachment and depth), or
 * into the given textures for a culling result made with an attachment layout. Statistics
 * (hl_render_stats) follow what executes: draws and instances count every draw of every scene
 * pass the graph runs (a list drawn twice counts twice, a culled pass not at all); faces count
 * each mesh (an instanced batch as one) once per render call, however many passes, culls or
 * override lists draw it. */
HL_API hl_result hl_pipeline_add_scene_pass(hl_pipeline_context ctx, const hl_pipeline_scene_pass_desc *desc);

/** Inside execute. Viewport and scissor in pixels of the attachments, (0, 0) at the top left on
 * both backends, within the attachment (else HL_ERR_VALIDATION; the viewport's size > 0, depth
 * range 0..1); they hold until set again or the pass ends. */
HL_API hl_result hl_pipeline_pass_set_viewport(hl_pipeline_pass_encoder enc, float x, float y, float width, float height);
/** The scissor rectangle of later draws (see hl_pipeline_pass_set_viewport). */
HL_API hl_result hl_pipeline_pass_set_scissor(hl_pipeline_pass_encoder enc, uint32_t x, uint32_t y, uint32_t width,
                                       uint32_t height);
/** The stencil reference of later draws (no engine material tests stencil today). */
HL_API hl_result hl_pipeline_pass_set_stencil_reference(hl_pipeline_pass_encoder enc, uint32_t reference);
/** Draws renderer list `slot` (0: the pass's list, 1..3: more_lists[slot - 1]) with its prepared
 * draws; statistics count every draw executed. */
HL_API hl_result hl_pipeline_pass_draw_list(hl_pipeline_pass_encoder enc, uint32_t slot);

/* ---- graph textures and fullscreen passes (inside record) ---------------------------------- */
/** @file
 * @par Graph textures and fullscreen passes (inside record)
 * Textures of the frame: transient ones made by the runtime (pooled by the renderer's graph,
 * their usage derived from the passes that touch them) and the output's colour attachments.
 * A pass whose results nothing reaches (the output, directly or through other passes) is
 * culled with everything it alone needed. */

/** Size: width x height when both are set; else relative to the output, each side
 * max(min_size, round(side * scale)) with scale 0 = 1.0 and min_size 0 = 1 (the same rounding
 * on both backends). Formats: the colour formats, and DEPTH24_PLUS for scene passes' depth
 * (depth cannot be sampled).
 * Mips (single-sample colour textures): mip_count levels, level k of side max(1, side >> k);
 * HL_PIPELINE_MIP_CHAIN for every level down to 1x1; more than that for the resolved size is
 * HL_ERR_VALIDATION. Passes render into and copy level 0; hl_pipeline_add_mip_pass makes the
 * other levels from it; fullscreen passes sample every level (trilinear: texture() picks the
 * level from the derivatives, textureLod(s, uv, k) reads level k). */
#define HL_PIPELINE_MIP_CHAIN UINT32_MAX
/** A transient texture of the frame (hl_pipeline_create_texture); sizes and mips as above. */
typedef struct hl_pipeline_texture_desc {
    hl_pipeline_format format; /**< a colour format, or DEPTH24_PLUS for scene passes' depth */
    /** An absolute size (both set), else 0 for a size relative to the output. @{ */
    uint32_t width, height;
    /** @} */
    float scale;       /**< relative size: the output's sides times scale (0 = 1.0) */
    uint32_t min_size; /**< relative size: at least this many pixels per side (0 = 1) */
    const char *name; /**< for messages; default "texture" */
    uint32_t samples; /**< 0 or 1; 4: a multisampled attachment of scene passes (not sampled, not copied) */
    uint32_t mip_count; /**< 0 or 1: one level; see above */
} hl_pipeline_texture_desc;

/** Makes a transient texture of the frame (pooled by the graph; contents undefined until a pass
 * writes it). HL_ERR_VALIDATION naming the field for a bad desc. */
HL_API hl_result hl_pipeline_create_texture(hl_pipeline_context ctx, const hl_pipeline_texture_desc *desc,
                                     hl_pipeline_texture *out);
/** Colour attachment `index` of the invocation's output as a single-sample texture (for a
 * multisampled output, the texture the samples resolve into: a fullscreen pass writing it
 * after the last scene pass replaces the resolve). This is importOutput: the renderer's own
 * output is a deferred provider, whose texture (for a window, the surface image) is acquired
 * once per frame and only if a pass using it survives graph culling; a record that writes it
 * with nothing, or only with culled passes, leaves it untouched and unacquired
 * (hl_render_stats.output_acquires). */
HL_API hl_result hl_pipeline_output_texture(hl_pipeline_context ctx, uint32_t index, hl_pipeline_texture *out);
/** The resolved size of a texture of the frame (either pointer may be NULL). */
HL_API hl_result hl_pipeline_texture_size(hl_pipeline_context ctx, hl_pipeline_texture tex, uint32_t *width, uint32_t *height);
/** A pass that makes levels 1.. of tex (made by hl_pipeline_create_texture with mip_count > 1)
 * from its level 0, in place, after the passes that wrote it: each texel of level k is one
 * linear sample of level k - 1 at its centre (the 2x2 average for even sides), the same on both
 * backends. A texture with one level, or not one of this frame's created textures, is
 * HL_ERR_VALIDATION; a format the device cannot filter and render (RGBA32F without
 * float32-filterable) HL_ERR_UNSUPPORTED. Culled like any pass when nothing reads the texture
 * afterwards. */
HL_API hl_result hl_pipeline_add_mip_pass(hl_pipeline_context ctx, hl_pipeline_texture tex);

/** The most sampled inputs of one fullscreen pass. */
#define HL_PIPELINE_FULLSCREEN_MAX_INPUTS 8
/** The most bytes of one fullscreen pass's Params block. */
#define HL_PIPELINE_FULLSCREEN_MAX_PARAMS 4096

/** A fullscreen pass: `fragment` is a GLSL ES 3.00 fragment shader with `in vec2 v_uv;` (the
 * texture coordinate of the pixel in every input, (0, 0) at the image's top left and (1, 1) at
 * its bottom right on both backends), `uniform
 * sampler2D <input_names[i]>` for the inputs (linear filtering, clamp to edge; single-sample
 * RGBA8, RGBA8 sRGB, RGBA16F or R8), an optional `layout(std140) uniform Params {...};` filled
 * from params (at least the block's std140 size, at most HL_PIPELINE_FULLSCREEN_MAX_PARAMS
 * bytes, copied at the call) and `out vec4` locations 0..output_count-1. Every output pixel is
 * written; outputs are single-sample and of one size. Programs and pipelines are cached by the
 * renderer (the source compared whole). On webgpu, `texture()` (implicit derivatives) must sit
 * in uniform control flow; textureLod(s, uv, 0.0) may go anywhere. */
typedef struct hl_pipeline_fullscreen_pass_desc {
    const char *name; /**< default "fullscreen" */
    const char *fragment;      /**< the GLSL ES 3.00 fragment source (required) */
    const void *params;        /**< the Params block's bytes (copied at the call); NULL: no block */
    uint32_t params_size;      /**< bytes at params */
    const char *input_names[HL_PIPELINE_FULLSCREEN_MAX_INPUTS]; /**< sampler2D uniform names, one per input */
    hl_pipeline_texture inputs[HL_PIPELINE_FULLSCREEN_MAX_INPUTS]; /**< textures of the frame they sample */
    uint32_t input_count;      /**< entries in input_names and inputs */
    hl_pipeline_texture outputs[4]; /**< textures written at locations 0, 1, ... */
    uint32_t output_count;     /**< outputs written, 1..4 */
    /** A culling result whose shadows are recorded (zero: none): the pass is lit like that
     * culling's scene. After the `#version` line the engine inserts the scene's Frame block
     * (camera, ambient, fog, lights, shadow matrices), `u_shadowAtlas` and two functions, the
     * very code of the forward shader:
     *   vec3 hl_shade(vec3 baseColor, vec3 n, vec3 pos, float metallic, float roughness,
     *                 float ao, bool shadowed); // ambient + every light (+ shadows), no emission
     *   vec3 hl_fog(vec3 color, vec3 pos);       // the scene's fog (none: color)
     * (PI and the names Frame, u_shadowAtlas, shadowTile, shadowFactor are taken.) */
    hl_pipeline_culling lighting;
} hl_pipeline_fullscreen_pass_desc;

/** Adds a fullscreen pass (see hl_pipeline_fullscreen_pass_desc); the shader is compiled (and
 * cached) here: HL_ERR_SHADER with the compiler's message, HL_ERR_VALIDATION for a bad desc. */
HL_API hl_result hl_pipeline_add_fullscreen_pass(hl_pipeline_context ctx, const hl_pipeline_fullscreen_pass_desc *desc);

/* ---- persistent targets (inside record) ---------------------------------------------------------------- */
/** A texture the runtime keeps from frame to frame under a key of its choosing (history,
 * accumulation). Sizes as hl_pipeline_texture_desc (relative ones follow the output); colour
 * formats only. A new key or a changed recipe (format, size) makes a new texture, cleared to 0
 * (*fresh = true), which replaces the old one only once the frame's submission is valid: a
 * failed frame keeps the old texture and contents. Passes may read it and write it (not both in
 * one pass: write into a frame texture and copy it in). A release takes effect with the frame's
 * valid submission; a key acquired in this frame cannot be released in it (HL_ERR_INVALID_STATE)
 * and a key released in this frame cannot be acquired in it. The renderer destroys what is left. */
typedef struct hl_pipeline_persistent_desc {
    hl_pipeline_format format; /**< a colour format */
    /** An absolute size (both set), else 0 for a size relative to the output. @{ */
    uint32_t width, height;
    /** @} */
    float scale;       /**< relative size: the output's sides times scale (0 = 1.0) */
    uint32_t min_size; /**< relative size: at least this many pixels per side (0 = 1) */
    const char *name;  /**< for messages and graph dumps */
} hl_pipeline_persistent_desc;

/** The persistent texture under key as a texture of this frame; *fresh (optional) is true when it
 * was made (or made again for a changed recipe) in this frame and reads as zeros. */
HL_API hl_result hl_pipeline_acquire_persistent_target(hl_pipeline_context ctx, uint64_t key,
                                                const hl_pipeline_persistent_desc *desc, hl_pipeline_texture *out,
                                                bool *fresh);
/** Drops the texture under key once this frame's submission is valid. HL_ERR_VALIDATION for an
 * unknown key, HL_ERR_INVALID_STATE for a key acquired in this frame. */
HL_API hl_result hl_pipeline_release_persistent_target(hl_pipeline_context ctx, uint64_t key);

/** Copies src into dst: single-sample colour textures of one format and size (the output's
 * colour textures included: RGBA8 sRGB for the renderer's output). */
HL_API hl_result hl_pipeline_add_copy_pass(hl_pipeline_context ctx, const char *name, hl_pipeline_texture src,
                                    hl_pipeline_texture dst);

/** Presents src (a single-sample colour texture of the frame: transient, persistent or imported;
 * any size) into colour attachment 0 of the invocation's output, as the last writer of it: a
 * copy when src has the output's size and format, else a fullscreen draw that scales with
 * linear filtering (clamp to edge) and converts the format (RGBA16F values are written as they
 * are: tone map first; R8 gives (r, 0, 0, 1); into an sRGB output the hardware encodes). src
 * being the output itself is HL_ERR_VALIDATION. */
HL_API hl_result hl_pipeline_add_present_pass(hl_pipeline_context ctx, hl_pipeline_texture src);

/** Attachment `index` of one of the renderer's render targets (not the invocation's output: use
 * hl_pipeline_output_texture) as a single-sample texture of this frame: an input of passes, or
 * their output (what is written there stays: it counts as a result of the frame). Another
 * renderer's target, a destroyed one or a bad index is HL_ERR_VALIDATION. */
HL_API hl_result hl_pipeline_import_render_target(hl_pipeline_context ctx, hl_render_target *target, uint32_t index,
                                           hl_pipeline_texture *out);

/* ---- graph buffers and compute passes (inside record; webgpu only: gles3 refuses each call) */
/** @file
 * @par Graph buffers and compute passes (inside record; webgpu only)
 * Buffers of the frame: transient ones (pooled by the renderer's graph; contents undefined until
 * a pass writes them: reading first is an error of the frame naming the pass and the buffer) and
 * imported storage buffers (their writes are results of the frame: passes writing them are never
 * culled). A pass whose results nothing reaches is culled with everything only it needed. The
 * usage a buffer needs follows from the passes that use it; an imported storage buffer must have
 * been created with it (HL_STORAGE_USAGE_INDIRECT for indirect arguments), else the frame fails
 * naming the buffer. The graph never reads GPU-produced values on the CPU. */
/** A transient buffer of the frame (hl_pipeline_create_buffer). */
typedef struct hl_pipeline_buffer_desc {
    uint64_t size;    /**< a non-zero multiple of 4 */
    const char *name; /**< default "buffer" */
} hl_pipeline_buffer_desc;

/** Makes a transient buffer of the frame (pooled by the graph; read before written is an error of
 * the frame). HL_ERR_VALIDATION for a size that is 0, not a multiple of 4 or above the device's
 * storage binding size. */
HL_API hl_result hl_pipeline_create_buffer(hl_pipeline_context ctx, const hl_pipeline_buffer_desc *desc, hl_pipeline_buffer *out);
/** The same handle for every import of one buffer within a frame. */
HL_API hl_result hl_pipeline_import_storage_buffer(hl_pipeline_context ctx, hl_storage_buffer *b, hl_pipeline_buffer *out);
/** Zero-fills [offset, offset + size) of buf (size 0: to the end); ranges are checked here. */
HL_API hl_result hl_pipeline_add_buffer_clear_pass(hl_pipeline_context ctx, const char *name, hl_pipeline_buffer buf,
                                            uint64_t offset, uint64_t size);
/** Copies size bytes between two different buffers (offsets and size multiples of 4, in range). */
HL_API hl_result hl_pipeline_add_buffer_copy_pass(hl_pipeline_context ctx, const char *name, hl_pipeline_buffer src,
                                           uint64_t src_offset, hl_pipeline_buffer dst, uint64_t dst_offset,
                                           uint64_t size);

/** What one ABI binding of the kernel's shader binds, by the binding's name. */
typedef struct hl_pipeline_compute_resource {
    const char *name; /**< the ABI binding's name */
    hl_pipeline_buffer buffer; /**< storage buffers */
    /** the bound range (offset a multiple of 256; size 0: to the end) @{ */
    uint64_t offset, size;
    /** @} */
    hl_pipeline_texture texture; /**< sampled textures (single-sample colour) and storage textures */
    const void *data;          /**< uniform buffers: data_size bytes copied at the call */
    uint32_t data_size;        /**< at least the binding's min_binding_size; at most 4096 */
    /** read-write storage buffers: the pass writes every byte of the bound range before any
       read of it, so the graph takes it as a write (an earlier writer is not needed: a
       transient may start here). The engine cannot check this; a kernel that reads first
       reads undefined values. */
    bool overwrite;
} hl_pipeline_compute_resource;

/** The most bytes of a compute pass's uniform binding (hl_pipeline_compute_resource.data). */
#define HL_PIPELINE_COMPUTE_MAX_DATA HL_COMPUTE_MAX_UNIFORM_DATA

/** A compute pass to add (hl_pipeline_add_compute_pass). */
typedef struct hl_pipeline_compute_pass_desc {
    const char *name;           /**< default "compute" */
    hl_compute_kernel *kernel;  /**< of this renderer */
    const hl_pipeline_compute_resource *resources; /**< one per ABI binding except samplers */
    uint32_t resource_count;    /**< entries in resources */
    uint32_t groups[3];         /**< workgroups dispatched (0 = 1 for y and z); x 0: none (the pass
                                   only counts when indirect is set) */
    hl_pipeline_buffer indirect; /**< non-zero: dispatch the three u32 at indirect_offset of it */
    uint64_t indirect_offset;    /**< a multiple of 4 */
} hl_pipeline_compute_pass_desc;

/** Graph access follows the ABI: read-only storage buffers and sampled textures are reads,
 * read-write storage buffers read and write in place, storage textures are writes. Samplers are
 * the renderer's (filtering: linear, clamp to edge; non-filtering: nearest; comparison: less).
 * Every binding is resolved here: a missing or unknown name, a wrong kind of resource, a range
 * outside the buffer or below min_binding_size is HL_ERR_VALIDATION naming the binding.
 * Pipelines and layouts are the kernel's; bind groups are cached by the renderer. */
HL_API hl_result hl_pipeline_add_compute_pass(hl_pipeline_context ctx, const hl_pipeline_compute_pass_desc *desc);

/** A GPU-driven draw: a storage shader (hl_storage_shader_create) drawing into colour textures
 * (and optionally a DEPTH24_PLUS texture) of one size, its vertices pulled from storage buffers
 * or read from vertex buffers (`vertex`).
 * Direct (vertex_count / index_count and instance_count) or indirect: the arguments are read
 * on the GPU from `indirect` at indirect_offset (4 u32: vertex count, instance count, first vertex,
 * first instance; indexed: 5: index count, instance count, first index, base vertex, first
 * instance), written by an earlier pass of the frame: the CPU never reads them. An index buffer
 * (u32 indices) makes the draw indexed. Storage buffers are bound by block name (every block of
 * the shader, read-only: graph reads); params fill the shader's `Params` block (copied at the
 * call, at least its size). Blend: OPAQUE, ALPHA (src-alpha, one-minus-src-alpha) or ADDITIVE
 * (one, one); depth test (less-equal) and write, back-face culling, as a material's. Refusals
 * (HL_ERR_VALIDATION, naming the binding or the field) happen at the call. */
typedef enum hl_pipeline_blend {
    HL_PIPELINE_BLEND_OPAQUE = 0, /**< no blending (the default) */
    HL_PIPELINE_BLEND_ALPHA,      /**< src-alpha, one-minus-src-alpha */
    HL_PIPELINE_BLEND_ADDITIVE,   /**< one, one */
} hl_pipeline_blend;

/** The most storage buffers one GPU-driven draw binds. */
#define HL_PIPELINE_GPU_DRAW_MAX_BUFFERS 8

/** Vertex attributes of a GPU-driven draw (explicit vertex buffers, beside or instead of pulling
 * from storage): each `in` variable of the storage shader's vertex stage by name, from a buffer
 * of the frame (an imported storage buffer made with HL_STORAGE_USAGE_VERTEX, or a transient).
 * Float inputs take the FLOAT32 formats of their component count or UNORM8X4 for vec4; uint
 * inputs UINT32. */
typedef enum hl_pipeline_vertex_format {
    HL_PIPELINE_VERTEX_FLOAT32 = 1, /**< float */
    HL_PIPELINE_VERTEX_FLOAT32X2,   /**< vec2 */
    HL_PIPELINE_VERTEX_FLOAT32X3,   /**< vec3 */
    HL_PIPELINE_VERTEX_FLOAT32X4,   /**< vec4 */
    HL_PIPELINE_VERTEX_UNORM8X4,    /**< vec4 from 4 bytes, each read as [0, 1] */
    HL_PIPELINE_VERTEX_UINT32,      /**< uint */
} hl_pipeline_vertex_format;

/** One vertex input of a GPU-driven draw and the buffer it reads. */
typedef struct hl_pipeline_vertex_attribute {
    const char *name;          /**< the vertex shader's input */
    hl_pipeline_buffer buffer; /**< a buffer of the frame (made with HL_STORAGE_USAGE_VERTEX when imported) */
    uint64_t offset;           /**< of the first element: a multiple of 4 */
    uint32_t stride;           /**< bytes from one element to the next: a multiple of 4, 4..2048 */
    hl_pipeline_vertex_format format; /**< must suit the input's type */
    bool per_instance;         /**< one element per instance instead of per vertex */
} hl_pipeline_vertex_attribute;

/** A GPU-driven draw pass to add (hl_pipeline_add_gpu_draw_pass; see hl_pipeline_blend above). */
typedef struct hl_pipeline_gpu_draw_pass_desc {
    const char *name; /**< default "gpu draw" */
    hl_storage_shader *shader; /**< of this renderer (required) */
    hl_pipeline_storage_binding buffers[HL_PIPELINE_GPU_DRAW_MAX_BUFFERS]; /**< every storage block of the shader, by name */
    uint32_t buffer_count;     /**< entries in buffers */
    const void *params;        /**< the Params block's bytes (copied at the call); NULL: none */
    uint32_t params_size;      /**< bytes at params (at least the block's size) */
    hl_pipeline_texture color[4]; /**< colour textures of the frame, one size */
    uint32_t color_count;      /**< colour textures drawn into, 1..4 */
    bool load_color;           /**< false: clear to clear_color */
    float clear_color[4];      /**< RGBA the colour textures are cleared to */
    hl_pipeline_texture depth; /**< zero: none */
    bool load_depth;           /**< false: clear to 1 */
    hl_pipeline_blend blend;   /**< default opaque */
    /** Depth test (less-equal), depth write and back-face culling (all default off). @{ */
    bool depth_test, depth_write, cull_back;
    /** @} */
    /** non-NULL: blend, depth test / write and culling from this material's state instead of the
       four fields above (alpha mode BLEND: ALPHA blending, else OPAQUE; its depth test and write;
       culling unless double-sided), as a mesh of that material draws */
    const hl_material *material_state;
    hl_pipeline_vertex_attribute vertex[8]; /**< one per input of the vertex shader (none: pulling only) */
    uint32_t vertex_count;                  /**< entries in vertex */
    /** the shader's sampler2D uniforms by name: single-sample colour textures of the frame,
       read through the renderer's linear clamp-to-edge sampler (filterable formats) */
    const char *texture_names[4];
    hl_pipeline_texture textures[4]; /**< the textures of texture_names, in order */
    uint32_t texture_count;          /**< entries in texture_names and textures */
    hl_pipeline_buffer index_buffer; /**< zero: not indexed */
    uint32_t count;                  /**< vertices (or indices) of a direct draw */
    uint32_t instance_count;         /**< direct draws; 0 = 1 */
    hl_pipeline_buffer indirect;     /**< non-zero: an indirect draw */
    uint64_t indirect_offset;        /**< a multiple of 4 */
} hl_pipeline_gpu_draw_pass_desc;

/** Adds a GPU-driven draw pass (see hl_pipeline_gpu_draw_pass_desc); every binding is checked
 * here (HL_ERR_VALIDATION naming it). */
HL_API hl_result hl_pipeline_add_gpu_draw_pass(hl_pipeline_context ctx, const hl_pipeline_gpu_draw_pass_desc *desc);

/* ---- parameter pools ------------------------------------------------------------------------------ */
/** The largest slot of a parameter pool, in bytes. */
#define HL_PIPELINE_PARAM_MAX_ITEM (1u << 20)

/** A parameter pool: storage for the parameters a runtime keeps per recorded pass (whatever its record or its
 * features need to remember for a pass), without allocating in steady frames. Make a pool in
 * the factory's create (one per runtime: a pool acquired from by one renderer's runtime
 * refuses others, HL_ERR_VALIDATION) and destroy it in the runtime's destroy. Inside record,
 * hl_pipeline_acquire_params hands out the next slot of the frame: distinct slots within a
 * frame (across invocations too); the next frame hands the same slots out again from the
 * first (reset runs on each reused slot), so a slot's contents are the caller's until the
 * frame ends. init runs only when the pool grows past its high water. Slots hold no frame
 * handles past their frame (contexts, textures, lists are per frame anyway). */
typedef struct hl_pipeline_param_pool hl_pipeline_param_pool;

/** A parameter pool to make (hl_pipeline_param_pool_create). */
typedef struct hl_pipeline_param_pool_desc {
    size_t item_size;                          /**< bytes of one slot, 1..HL_PIPELINE_PARAM_MAX_ITEM */
    hl_result (*init)(void *item, void *user); /**< a new slot (zeroed first); NULL: zeroed only */
    void (*reset)(void *item, void *user);     /**< a slot handed out again in a later frame; NULL: as left */
    void (*fini)(void *item, void *user);      /**< each slot at destroy; NULL: nothing */
    void *user;                                /**< passed to the three callbacks */
} hl_pipeline_param_pool_desc;

/** An empty pool (owned by the caller: hl_pipeline_param_pool_destroy). HL_ERR_VALIDATION for an
 * item_size outside 1..HL_PIPELINE_PARAM_MAX_ITEM. */
HL_API hl_result hl_pipeline_param_pool_create(const hl_pipeline_param_pool_desc *desc, hl_pipeline_param_pool **out);
HL_API void hl_pipeline_param_pool_destroy(hl_pipeline_param_pool *pool); /**< NULL: no-op */
/** Slots made so far (the high water); 0 for NULL. */
HL_API uint32_t hl_pipeline_param_pool_high_water(const hl_pipeline_param_pool *pool);
/** The frame's next slot (inside record). A failing init fails the call with its code. */
HL_API hl_result hl_pipeline_acquire_params(hl_pipeline_context ctx, hl_pipeline_param_pool *pool, void **out);

/* ---- the Forward pipeline with features ------------------------------------------------------------ */
/** Where a feature of the Forward pipeline records its passes. Features inject passes at fixed points of the Forward pipeline. The Forward runtime with
 * features records: cull -> [BEFORE_SHADOW] shadows [AFTER_SHADOW] -> [BEFORE_OPAQUE] opaque
 * [AFTER_OPAQUE] -> [BEFORE_TRANSPARENT] transparent [AFTER_TRANSPARENT] -> [BEFORE_POST]
 * [POST] [AFTER_POST] -> [BEFORE_OUTPUT] -> output. Features run by injection point, then in
 * the order given; every feature gets the same culling result (no second cull).
 *
 * Scene colour: when any enabled feature samples it (samples_scene_color), the scene is drawn
 * into an RGBA16F texture of the output's size (linear, unclamped: HDR; multisampled like the
 * output, resolved by the last scene pass) with its own depth texture (an MRT output's other
 * attachments are drawn into textures of their formats, resolved into the output's), the POST
 * features replace `frame->color` one after another, and the result is
 * copied into the output at the end (unless the last feature wrote the output itself);
 * otherwise the scene goes straight into the output and no intermediate exists. Sampled depth
 * is not offered: a feature asking for it fails hl_forward_pipeline_factory_create.
 *
 * No features (or none enabled at creation) = the built-in direct recorder. */
typedef enum hl_forward_injection {
    HL_FORWARD_BEFORE_SHADOW = 0,  /**< after culling, before the shadow maps */
    HL_FORWARD_AFTER_SHADOW,       /**< after the shadow maps */
    HL_FORWARD_BEFORE_OPAQUE,      /**< before the opaque scene pass */
    HL_FORWARD_AFTER_OPAQUE,       /**< after the opaque scene pass */
    HL_FORWARD_BEFORE_TRANSPARENT, /**< before the transparent scene pass */
    HL_FORWARD_AFTER_TRANSPARENT,  /**< after the transparent scene pass */
    HL_FORWARD_BEFORE_POST,        /**< before the post-processing chain */
    HL_FORWARD_POST,               /**< post-processing: may replace frame->color (bloom, tone map, FXAA) */
    HL_FORWARD_AFTER_POST,         /**< after the post-processing chain */
    HL_FORWARD_BEFORE_OUTPUT,      /**< last, before the result goes into the output */
    HL_FORWARD_INJECTION_COUNT     /**< the number of injection points */
} hl_forward_injection;

/** What a feature's record gets (a value valid inside that call). */
typedef struct hl_forward_frame {
    hl_pipeline_culling culling; /**< the one culling result of the invocation (shadows recorded) */
    /** the scene colour so far: the RGBA16F intermediate (or what a POST feature replaced it
       with), or the output's colour texture when no feature samples scene colour */
    hl_pipeline_texture color;
    bool color_is_output; /**< color is the output's texture (no intermediate) */
    hl_pipeline_texture scene; /**< where the scene passes draw (the intermediate, its samples, or the output) */
    hl_pipeline_texture output; /**< the output's colour attachment 0 (single-sample) */
    hl_forward_injection injection; /**< the point being recorded */
} hl_forward_frame;

/** One feature of a Forward factory (hl_forward_pipeline_desc), or what hl_forward_bloom and the
 * other shipped features fill in. */
typedef struct hl_forward_feature_desc {
    const char *name; /**< copied; must be unique within one factory */
    hl_forward_injection injection; /**< where its record runs */
    bool samples_scene_color; /**< needs frame->color as a sampled texture (makes the intermediate) */
    bool samples_depth;       /**< refused: sampled depth is not offered */
    /** copied at hl_forward_pipeline_factory_create (user_size bytes; 0: the pointer is kept
       as given and must outlive the factory's renderers) */
    const void *user;
    size_t user_size; /**< bytes at user to copy (0: keep the pointer) */
    /** per renderer: makes the feature's state (NULL: the state is the copied user data) */
    hl_result (*create)(const void *user, void **state);
    /** per invocation; a POST feature may set frame->color to the texture it wrote */
    hl_result (*record)(hl_pipeline_context ctx, hl_forward_frame *frame, void *state);
    /** per renderer, in reverse creation order; NULL: nothing */
    void (*destroy)(void *state);
} hl_forward_feature_desc;

/** The most features of one Forward factory. */
#define HL_FORWARD_MAX_FEATURES 32

/** A Forward factory to make (hl_forward_pipeline_factory_create). */
typedef struct hl_forward_pipeline_desc {
    const hl_forward_feature_desc *features; /**< the features, copied */
    uint32_t feature_count;                  /**< entries in features, at most HL_FORWARD_MAX_FEATURES */
} hl_forward_pipeline_desc;

/** A Forward factory with these features (descriptions and user data copied). Destroy it after
 * the renderers made with it are created (they keep what they need). */
HL_API hl_result hl_forward_pipeline_factory_create(const hl_forward_pipeline_desc *desc, hl_pipeline_factory **out);
/** Frees a factory made by hl_forward_pipeline_factory_create (renderers made with it keep
 * working). NULL, or a factory not made there, is a no-op. */
HL_API void hl_forward_pipeline_factory_destroy(hl_pipeline_factory *factory);
/** Turns a feature of the renderer's Forward runtime on or off (from the next frame; a disabled
 * feature records nothing, so its passes and textures are gone). HL_ERR_VALIDATION when the
 * renderer has no feature of that name. Features that sample scene colour keep the
 * intermediate while any of them is enabled. */
HL_API hl_result hl_forward_set_feature_enabled(hl_renderer *r, const char *name, bool enabled);

/* Shipped features (POST). Each fills *out; the parameters are copied by the factory. */
/** Bloom's parameters (hl_forward_bloom). */
typedef struct hl_bloom_desc {
    float threshold; /**< linear luminance where bloom starts; default 1.0 */
    float intensity; /**< default 0.5 */
    uint32_t levels; /**< downsample levels 1..6; default 4 */
} hl_bloom_desc;

/** The curve that maps HDR colour to [0, 1]. */
typedef enum hl_tone_map_operator {
    HL_TONE_MAP_ACES = 0, /**< the ACES filmic curve, fitted (Narkowicz 2015) */
    HL_TONE_MAP_NEUTRAL,  /**< the Khronos PBR Neutral curve */
} hl_tone_map_operator;

/** Tone mapping's parameters (hl_forward_tone_map). */
typedef struct hl_tone_map_desc {
    hl_tone_map_operator op; /**< default ACES */
    float exposure; /**< linear scale before the curve; 0 = 1.0 */
} hl_tone_map_desc;

/** The bloom feature ("bloom", POST) into *out; desc NULL: defaults. Bloom adds (intensity x) a
 * blurred copy of what exceeds threshold. Order the shipped features bloom, tone map, FXAA. */
HL_API void hl_forward_bloom(const hl_bloom_desc *desc, hl_forward_feature_desc *out);
/** The tone-mapping feature ("tone-map", POST); desc NULL: defaults. It maps HDR to [0, 1] (the
 * output's sRGB encoding follows). */
HL_API void hl_forward_tone_map(const hl_tone_map_desc *desc, hl_forward_feature_desc *out);
/** The FXAA feature ("fxaa", POST): smooths edges by luma (run it after tone mapping). */
HL_API void hl_forward_fxaa(hl_forward_feature_desc *out);

#ifdef __cplusplus
}
#endif

#endif
