/* Renderer internals shared by the files of src/render (never included elsewhere). */
#ifndef HL_RENDER_INTERNAL_H
#define HL_RENDER_INTERNAL_H

#include "hilo3d/renderer.h"
#include "hl_graph.h"
#include "hl_rhi.h"
#include "hl_shader.h"
#include "hl_base.h"

#define HL__STR_(x) #x
#define HL__STR(x) HL__STR_(x)

#define HL_RENDER_MAX_LIGHTS 64 /* per view (ambient lights fold into one term and do not count) */
#define HL_RENDER_MAX_SHADOW_TILES 16
#define HL__OBJECT_STRIDE 256u /* one dynamic-offset slice per mesh (model + normal matrix) */
/* one dynamic-offset slice per skinned mesh: its joint palette, HL_SKIN_MAX_JOINTS matrices (the
 * skinned programs' Object block: 16 KiB, GLES 3.0's smallest MAX_UNIFORM_BLOCK_SIZE) */
#define HL__SKIN_STRIDE (64u * HL_SKIN_MAX_JOINTS)
#define HL__FRAME_STRIDE 8192u /* one Frame block slice per view (the block: 5.5 KiB) */
#define HL__MAX_VIEWS ((uint32_t)HL_RENDER_MAX_VIEWS) /* views (render calls) per graph frame */
#define HL__SHADOW_STRIDE 256u

extern const char *const hl__render_forward_vs;
extern const char *const hl__render_forward_fs;
extern const char *const hl__render_shadow_vs;
/* The engine's fullscreen-triangle vertex shader (v_uv: (0, 0) at the top left on both backends). */
extern const char *const hl__render_fullscreen_vs;
/* The Frame block, u_shadowAtlas, hl_shade and hl_fog for lit fullscreen passes (after #version). */
extern const char *const hl__render_lighting_glsl;

/* ---- a pointer-keyed hash map (open addressing), grown outside the hot path ------------------ */
typedef struct hl__ptr_map {
    const void **keys;
    uint32_t *values;
    uint32_t capacity, count; /* capacity: power of two */
} hl__ptr_map;

uint32_t hl__ptr_map_get(const hl__ptr_map *m, const void *key); /* UINT32_MAX when absent */
bool hl__ptr_map_put(hl__ptr_map *m, const void *key, uint32_t value);
void hl__ptr_map_remove(hl__ptr_map *m, const void *key);
void hl__ptr_map_free(hl__ptr_map *m);
/* Empties the map and keeps its storage (no allocation when refilled to the same size). */
void hl__ptr_map_clear(hl__ptr_map *m);

/* ---- std140 blocks written by the renderer (sizes match the GLSL in render_shaders.c) -------- */
typedef struct hl__frame_block {
    float view_proj[16];
    float camera_pos[4]; /* w = far plane (MRT depth output) */
    float ambient[4];
    float fog_color[4];
    float fog_params[4];
    float light_info[4];
    float light_color[HL_RENDER_MAX_LIGHTS][4];
    float light_pos[HL_RENDER_MAX_LIGHTS][4];
    float light_dir[HL_RENDER_MAX_LIGHTS][4];
    float light_shadow[HL_RENDER_MAX_LIGHTS][4];
    float shadow_matrix[HL_RENDER_MAX_SHADOW_TILES][16];
    float shadow_rect[HL_RENDER_MAX_SHADOW_TILES][4];
    float env[4];        /* environment: x intensity (0 = none), y specular mips - 1, z cos / w sin rotation */
    float env_sh[9][4];  /* its diffuse irradiance / PI: 9 spherical-harmonic terms, basis folded in */
    float exposure[4];   /* x: the stage's exposure */
} hl__frame_block;
_Static_assert(sizeof(hl__frame_block) <= HL__FRAME_STRIDE, "a view's Frame block fits its slice");

typedef struct hl__object_block {
    float model[16];
    float normal_matrix[16];
} hl__object_block;

typedef struct hl__material_block {
    float base_color[4];
    float emissive[4]; /* w: occlusion strength */
    float pbr[4];      /* metallic, roughness, alpha cutoff, normal scale */
    float uv[HL_TEXTURE_SLOT_COUNT * 2][4]; /* per map, its UV transform's two rows (x, y, offset) */
} hl__material_block;

/* ---- GPU mirrors of scene objects ------------------------------------------------------------ */
typedef struct hl__gpu_geometry {
    hl_geometry *geometry; /* retained */
    hl_rhi_buffer vbo, ibo;
    uint64_t vbo_revision, ibo_revision; /* delivered revisions (committed on valid submit) */
    uint32_t vertex_bytes, index_bytes;
    uint64_t last_frame;
} hl__gpu_geometry;

typedef struct hl__gpu_texture {
    hl_texture *texture; /* retained; NULL for a free slot */
    hl_rhi_texture tex;
    hl_rhi_texture_view view;
    hl_rhi_sampler sampler;
    uint64_t revision, sampler_revision; /* uploaded */
    bool sampler_one_level; /* the sampler was made for a single-level texture (lod_max 0.25) */
    uint32_t width, height, levels;
    bool srgb;
    hl_render_target *target; /* render-target attachment shown by this texture */
    uint32_t target_index;
    uint64_t last_frame;
} hl__gpu_texture;

/* A bind group the renderer owns together with its own handle of the layout it was made for
 * (equal layouts share one native object in the RHI cache, so the group serves every program
 * whose group has exactly these layout entries, and no program's lifetime limits it). */
typedef struct hl__owned_group {
    hl_rhi_bind_group_layout layout;
    hl_rhi_bind_group group;
    uint32_t entry_count;
    hl_rhi_bind_group_layout_entry entries[HL_RHI_MAX_BINDINGS]; /* zero-padded: compared with memcmp */
    hl_rhi_bind_group_entry bound[HL_RHI_MAX_BINDINGS];          /* what the group binds (exact key) */
    uint32_t bound_count;
    uint64_t layout_program; /* a program id whose group layout was found equal to `layout` (0 = none) */
} hl__owned_group;

typedef struct hl__gpu_material {
    hl_material *material; /* retained */
    hl_rhi_buffer ubo;
    uint64_t ubo_revision; /* delivered */
    hl__owned_group group; /* group 2 */
    struct hl__program *program; /* shader materials: the program (one of its users) */
    uint64_t program_revision;   /* the variant revision the program was found for */
    uint64_t last_frame;
} hl__gpu_material;

/* A shader material's uniform buffer on the GPU. */
typedef struct hl__gpu_ubuf {
    hl_uniform_buffer *ub; /* retained */
    hl_rhi_buffer buffer;
    uint32_t size;
    uint64_t revision; /* delivered */
    uint64_t last_frame;
} hl__gpu_ubuf;

/* What a prepared draw was built from: compared whole (memcmp of a zeroed struct), never by a
 * digest. Revisions are unique per process, so a new mesh at a destroyed mesh's address never
 * matches the old record. */
typedef struct hl__prepared_sig {
    uint64_t mesh_revision, variant_revision;
    uint64_t evict_epoch; /* the pipelines it names are alive while the epoch holds */
    uint64_t program_id;
    const hl_render_target *target;
    uint64_t target_generation;
    uint32_t casts_shadows;
    uint32_t material_group, vbo, ibo;
    uint32_t frame_group, object_group, atlas_group, shadow_frame_group, shadow_object_group;
    uint32_t zero; /* 0: no padding bytes (signatures are compared with memcmp, and a copied
                      struct's padding is indeterminate) */
} hl__prepared_sig;
_Static_assert(sizeof(hl__prepared_sig) == offsetof(hl__prepared_sig, zero) + sizeof(uint32_t),
               "hl__prepared_sig has padding");

/* Per mesh: its object-block slot (persistent while the mesh keeps being drawn). */
typedef struct hl__gpu_mesh {
    const hl_mesh *mesh;   /* NULL: its mesh is gone (another took its address), left to the stale walk */
    uint64_t serial;       /* hl_mesh_serial of mesh: the key's address alone may be a new mesh's */
    uint32_t slot;
    uint32_t skin_slot1;  /* skinned: its joint-palette slot + 1 (0: none yet) */
    uint64_t skin_frame;  /* the frame whose palette was last uploaded */
    uint64_t world_revision;    /* delivered */
    uint32_t index;             /* its place in r->meshes (r->mesh_last[index]: the frame it was last drawn in) */
    /* the normal matrix of world revision normal_revision (0: none), made by the frontend
       threads before the draws are built (render_frame.c prep_part) */
    uint64_t normal_revision;
    float normal[16];
    /* PreparedDraw: the last draw built for the mesh, reused while its signature holds */
    struct hl__draw *prepared;
    hl__prepared_sig prepared_sig;
} hl__gpu_mesh;

/* A compiled program with its layouts. Its key is exact: the kind and the define bits for the
 * engine's programs, the whole description (sources, block and texture names, bindings,
 * attribute map) for a shader material's; the hash only finds candidates. */
typedef enum hl__program_kind {
    HL__PROGRAM_FORWARD = 1,
    HL__PROGRAM_SHADOW,
    HL__PROGRAM_SHADER,
    HL__PROGRAM_FULLSCREEN, /* fullscreen passes of pipeline runtimes (render_fullscreen.c) */
    HL__PROGRAM_STORAGE,    /* storage shaders of GPU-driven passes (render_gpu_draw.c) */
} hl__program_kind;

typedef struct hl__program {
    hl__program_kind kind;
    uint64_t defines;     /* forward and shadow programs: HL__DEF_* bits */
    uint8_t *desc;        /* shader programs: the exact description (owned) */
    uint32_t desc_size;
    uint64_t hash;        /* lookup only */
    uint64_t id;          /* unique per renderer, never reused (pipeline keys, prepared draws) */
    uint32_t users;       /* pipelines and shader-material mirrors holding it */
    uint64_t last_frame;
    hl_shader_program prog;
    hl_rhi_shader vs, fs;
    hl_rhi_bind_group_layout bgl[4];
    uint32_t entry_count[4];
    hl_rhi_bind_group_layout_entry entries[4][HL_RHI_MAX_BINDINGS]; /* zero-padded, per group */
    uint32_t group_count;
    hl_rhi_pipeline_layout layout;
    int32_t location[HL_ATTR_COUNT + 4]; /* vertex input locations by semantic, then instance 0..3; -1 absent */
    uint32_t empty_groups; /* bit g: the program uses nothing in group g (shader materials) */
    uint32_t output_mask;  /* bit i: the fragment shader writes colour attachment i */
    bool storage;          /* shader materials: read-only storage blocks at group 3 (the scene pass's) */
} hl__program;

/* Everything that shapes a pipeline, compared whole (the struct is zeroed before filling). */
typedef struct hl__pipeline_key {
    uint64_t program_id;
    uint32_t attr_format[HL_ATTR_COUNT]; /* hl_rhi_vertex_format of each attribute the program reads, else 0 */
    uint32_t attr_stride[HL_ATTR_COUNT];
    uint32_t topology;
    uint32_t color_formats[4];
    uint32_t color_count;
    uint32_t depth_format;
    uint32_t sample_count;
    uint8_t blend, depth_test, depth_write, cull, instanced, shadow; /* blend: 0 none, 1 alpha, HL__BLEND_ADDITIVE */
    uint8_t attr_instance; /* GPU-driven draws: bit a, attribute a steps per instance */
    uint8_t pad;
} hl__pipeline_key;
#define HL__BLEND_ADDITIVE 2

typedef struct hl__pipeline_entry {
    hl__pipeline_key key;
    uint64_t hash;
    uint64_t id;        /* unique per renderer */
    hl_rhi_render_pipeline pipeline;
    hl__program *program; /* one of its users */
    uint64_t content_hash; /* the key with the program's content hash for its id (sort ties) */
    uint64_t last_frame;
} hl__pipeline_entry;

/* Pipelines and programs unused for this many frames are released (render_program.c). */
#define HL__PROGRAM_KEEP_FRAMES 60u

/* One draw of a view: everything execute needs, resolved before the frame. */
typedef struct hl__draw {
    hl_rhi_draw_packet packet;
    uint64_t sort_key;
    float depth;
    uint32_t faces;
    const hl_mesh *mesh;
    bool casts_shadows;
    bool transparent;
    bool instanced;
    bool skinned;             /* drawn with a joint palette (the shadow pass too) */
    uint64_t position_offset; /* POSITION's offset in the vertex block (shadow pass) */
    /* skinned: the offsets of JOINTS_0, WEIGHTS_0, then JOINTS_1, WEIGHTS_1 (shadow pass); skin_attrs
       of them (2, or 4 with 8 influences) */
    uint64_t skin_offsets[4];
    uint32_t skin_attrs;
    hl_rhi_render_pipeline shadow_pipeline;
    hl__pipeline_entry *color_entry, *shadow_entry; /* stamped when a prepared draw is reused */
    uint32_t tie_pipeline, tie_material, tie_geometry; /* sort-key state, from content only */
    uint32_t instance_first; /* instanced draws: the batch's first instance */
    uint32_t batch_first, batch_count; /* instanced draws: their meshes in r->batch_meshes */
} hl__draw;

typedef struct hl__shadow_tile {
    float view_proj[16];   /* WebGPU depth */
    float render_vp[16];   /* what the shadow pass uploads (GL depth on gles3) */
    uint32_t x, y, size;   /* atlas texels */
} hl__shadow_tile;

/* One recorded view (a render call inside the frame). */
/* An environment's GPU maps (render_env.c). */
#define HL__MAX_ENVS 4u /* environments one renderer keeps at once (and shows in one frame) */
typedef struct hl__gpu_env {
    hl_environment *env; /* retained; NULL = a free slot */
    uint64_t revision;   /* built from (0 = not built) */
    hl_rhi_texture cube; /* prefiltered specular, RGBA16F, mips = roughness steps */
    hl_rhi_texture_view view;
    uint32_t mips;
    float sh[9][4]; /* irradiance / PI (hl__frame_block.env_sh) */
    uint64_t last_frame;
} hl__gpu_env;

/* A bake program of render_env.c (fullscreen triangle into an RGBA16F target). */
typedef struct hl__env_program {
    hl_shader_program prog;
    bool compiled;
    hl_rhi_shader vs, fs;
    hl_rhi_bind_group_layout bgl;
    hl_rhi_pipeline_layout layout;
    hl_rhi_render_pipeline pipeline;
} hl__env_program;

typedef struct hl__view {
    hl_render_target *target;  /* the output or a render target */
    hl_stage *stage;
    hl_camera *camera;
    hl_vec3 eye;
    bool fog;
    const hl__gpu_env *env;    /* the stage's environment (NULL = none): forward programs get IBL */
    uint32_t visible, offscreen; /* culling: r->order[0..visible) in view, offscreen casters after mesh_count */
    uint32_t mesh_count;
    uint32_t frame_slot;       /* index of its Frame block */
    uint32_t draw_first, draw_count; /* into r->draws (opaque then transparent) */
    uint32_t opaque_count;
    /* its draws' instances and faces for the frame's statistics, summed by view_sort as it puts
       them in order; a kept view keeps them */
    uint64_t instances, faces;
    uint32_t shadow_only_count; /* draws after draw_count: casters outside the view, shadow pass only */
    uint32_t shadow_first, shadow_count; /* tiles */
    hl_graph_texture color[4], resolve[4], depth, atlas;
    uint32_t color_count;
    float clear[4];
    bool msaa;
    bool has_transparent;
    hl_renderer *r;
    /* views recorded by a pipeline runtime (hl__view_prepare): their passes come from renderer
       lists; the attachments are imported once, by the first scene pass */
    bool scripted, shadows_recorded, imported, wrote_output;
    bool gbuffer; /* opaque engine materials draw their G-buffer variant (HL__DEF_GBUFFER) */
    uint32_t shadow_view; /* the view whose shadow tiles, atlas and shadow pass this one uses: itself,
                             or for a view derived from a base culling (hl__view_prepare), the base */
    uint64_t order_serial; /* r->order_serial when its traversal filled r->order */
    hl_render_target *output; /* scripted views: the invocation's target (target may be a layout) */
    uint32_t invocation;      /* scripted views: the render call of the frame that made it */
    bool kept;                /* the direct recorder reused the kept view's list (hl__retained) */
} hl__view;

/* A renderer list: draws of one view, filtered and ordered (r->list_items[first..+count)). */
typedef struct hl__list {
    uint32_t view;
    uint32_t first, count;
} hl__list;

typedef enum hl__list_queue { HL__QUEUE_OPAQUE = 0, HL__QUEUE_TRANSPARENT, HL__QUEUE_ALL } hl__list_queue;
typedef enum hl__list_sort { HL__SORT_ENGINE = 0, HL__SORT_BACK_TO_FRONT, HL__SORT_NONE } hl__list_sort;

/* Scene pass of a scripted view: a list into the view's target. Colour and depth are
 * cleared (the view's clear colour, depth 1) or loaded; everything is stored. */
typedef void (*hl__generic_fn)(void);
typedef hl_result (*hl__execute_trampoline)(hl__generic_fn execute, void *user, uint64_t encoder_token);

/* A storage buffer a scene pass binds at group 3 for the storage variants of shader materials
 * (GLSL ES 3.10 sources), by block name. */
#define HL__SCENE_STORAGE_MAX 4
typedef struct hl__scene_storage {
    char block[64];
    hl_graph_buffer buffer;
    uint64_t offset, size; /* size 0: to the end */
} hl__scene_storage;

typedef struct hl__scene_pass_desc {
    const char *name;
    uint32_t list;
    bool load_color, load_depth;
    /* a view prepared for a layout target (hl__layout_target): its attachments, matching the
       layout (colour textures of its formats and sample count, a DEPTH24_PLUS depth texture of
       that sample count unless no_depth), and for a multisampled layout optional single-sample
       textures the pass resolves colour attachment i into */
    hl_graph_texture color[4], depth, resolve[4];
    /* optional execute callback (the pipeline layer's hl_pipeline_scene_pass_desc.execute, called
       through its trampoline with the encoder token) and the lists it may draw: lists[0] = list,
       then more (the same view); list_count 1 without more */
    hl__execute_trampoline trampoline;
    hl__generic_fn execute;
    void *user;
    uint32_t lists[4], list_count;
    hl__scene_storage storage[HL__SCENE_STORAGE_MAX];
    uint32_t storage_count;
} hl__scene_pass_desc;

/* A scene pass as recorded (render_frame.c); the last one into a target waits (r->pending)
 * until the next pass or the end of the record, so that it can resolve the samples and drop
 * depth itself, as the direct recorder's last pass does, instead of an extra resolve pass. */
typedef struct hl__scene_pass {
    hl__view *v;
    bool load_color, load_depth;
    bool resolve, discard; /* set when flushed: resolve the samples; discard depth (and samples) */
    hl_graph_texture color[4], depth;
    hl_graph_texture layout_resolve[4]; /* layout views: resolve targets given by the runtime */
    uint32_t color_count;
    hl__execute_trampoline trampoline;
    hl__generic_fn execute;
    void *user;
    /* the lists it draws, as indices (r->lists may move while the frame is built: resolved at
       execute): lists[0] the pass's list, then more_lists for an execute callback */
    uint32_t lists[4], list_count;
    uint32_t width, height;        /* the attachments' size (viewport and scissor checks) */
    hl__scene_storage storage[HL__SCENE_STORAGE_MAX];
    uint32_t storage_count;
    /* prepare: group 3 of each storage program the pass draws (by program id) */
    struct {
        uint64_t program;
        hl_rhi_bind_group group;
    } storage_groups[8];
    uint32_t storage_group_count;
} hl__scene_pass;

/* The encoder functions behind hl_pipeline_pass_* (render_frame.c): token must be the running
   execute callback's (per thread), else HL_ERR_INVALID_STATE. */
hl_result hl__encoder_viewport(uint64_t token, float x, float y, float w, float h);
hl_result hl__encoder_scissor(uint64_t token, uint32_t x, uint32_t y, uint32_t w, uint32_t h);
hl_result hl__encoder_stencil(uint64_t token, uint32_t ref);
hl_result hl__encoder_draw_list(uint64_t token, uint32_t slot);
/* Adds the waiting scene pass: resolve (the samples into the resolved texture), discard (the
 * samples and depth are not needed after it). Before any other pass is added. */
hl_result hl__scene_flush(hl_renderer *r, bool resolve, bool discard);

/* A descriptor-only target (no textures): draws prepared for `color_count` colour attachments
 * of these formats, 1 or 4 samples, with or without depth, drawn into graph textures by scene
 * passes. Owned by the renderer (one per layout, freed with it). */
hl_result hl__layout_target(hl_renderer *r, uint32_t color_count, const hl_rhi_format *formats, bool no_depth,
                            uint32_t samples, hl_render_target **out);

struct hl_render_target {
    hl_renderer *r;                 /* the owner: every call checks it */
    hl_render_target *next_target;  /* the owner's list (destroyed with the renderer) */
    hl_render_target_desc desc;
    hl_rhi_texture color[4], msaa[4], depth;
    hl_rhi_format formats[4];
    hl_texture *scene_tex[4]; /* hl_render_target_texture, created on demand */
    uint64_t generation;      /* bumps when the attachments are re-created */
    /* pipeline runtimes: the graph imports of this frame (frame_serial imp_serial), shared by
       every scene and fullscreen pass; resolve_pending: the last writer was a scene pass into
       the multisampled attachments */
    uint64_t imp_serial;
    hl_graph_texture imp_color[4], imp_msaa[4], imp_depth;
    bool resolve_pending;
    bool layout_only; /* hl__layout_target: formats without textures */
};

struct hl_render_frame {
    hl_renderer *r;
    hl_result error;
};

/* The render pipeline host (src/pipeline, above this layer) hooks in here. Without a record
 * hook every invocation goes straight to hl__record_view: the direct recorder. */
typedef struct hl__render_host {
    void *user;
    /* records one invocation (render call) in place of hl__record_view; invocation counts the
       render calls of the frame from 0 */
    hl_result (*record)(void *user, hl_renderer *r, hl_render_target *t, hl_stage *stage, hl_camera *camera,
                        uint32_t invocation);
    /* called once, first thing in hl_renderer_destroy (the device still exists) */
    void (*destroy)(void *user);
    /* after each frame's graph execution: ok = the submission is valid (commit what the frame
       did), else roll back; may be NULL */
    void (*frame_end)(void *user, hl_renderer *r, bool ok);
    const char *name; /* the pipeline's name, for messages (lives as long as the host) */
    /* device loss and hl_renderer_release_gpu_resources: drop every GPU object the runtime
       holds (persistent targets with their records); may be NULL */
    void (*gpu_release)(void *user);
    /* recovery: the pipeline's static requirements against the replacement device (HL_OK or
       an error naming what it lacks); may be NULL */
    hl_result (*revalidate)(void *user, const hl_rhi_caps *caps);
} hl__render_host;

/* Accepts or refuses a device for a renderer being created: HL_OK, or an error with a message
 * naming what the device lacks. */
typedef hl_result (*hl__device_gate_fn)(void *user, const hl_rhi_caps *caps);

/* hl_renderer_create without the pipeline: rhi_features (HL_RHI_FEATURE_*) are asked of the
 * device; with HL_BACKEND_AUTO a device the gate refuses is dropped for the next backend
 * (webgpu, then gles3); an explicit backend the gate refuses fails with the gate's error. */
hl_result hl__renderer_create(const hl_renderer_desc *desc, uint32_t rhi_features, hl__device_gate_fn gate,
                              void *gate_user, hl_renderer **out);
/* Installs the host; hl_renderer_destroy calls its destroy. */
void hl__renderer_set_host(hl_renderer *r, const hl__render_host *host);

/* The one pending storage-buffer read of a renderer (render_storage.c). */
typedef struct hl__storage_read {
    bool pending;
    struct hl_storage_buffer *buffer;
    hl_rhi_submission submission;
    uint64_t size;
    hl_rhi_buffer staging; /* MAP_READ | COPY_DST, grown to the largest read */
    uint64_t staging_size;
} hl__storage_read;

/* Where the renderer's GPU side stands (render_recovery.c). */
typedef enum hl__gpu_state {
    HL__GPU_LIVE = 0,  /* every object the renderer keeps exists on the device */
    HL__GPU_RELEASED,  /* dropped (hl_renderer_release_gpu_resources, or a recovery's new device):
                          the next call that needs them rebuilds them from their recipes */
    HL__GPU_LOST,      /* the device was lost: render calls recover first, others fail */
} hl__gpu_state;

/* The direct recorder's kept view (hl__record_view): a frame whose first view has the stage,
 * camera, target and environment of the view that built the list, with nothing changed anywhere
 * since (hl_revision_now), no mirror, program or pipeline released and no device loss, reuses that
 * view's culling, draws, order and lights: only the view's constants are uploaded and its passes
 * recorded. Views with instanced batches or mesh events are never kept. */
#define HL__RETAINED_GROUPS 9
typedef struct hl__retained {
    bool valid;
    hl_stage *stage;
    hl_camera *camera;
    hl_render_target *target;
    const struct hl__gpu_env *env;
    uint64_t target_generation, revision, evict_epoch, mirror_epoch, device_generation;
    uint64_t group_ids[HL__RETAINED_GROUPS]; /* the shared groups its packets name */
    uint64_t retire_epoch; /* hl_renderer.retire_epoch when its build began: a group retired since
                              (during the build too) may be named by its packets */
    hl__view view;
    uint32_t draw_count, tile_count;
    uint32_t meshes_visible, meshes_culled, lights, shadow_tiles;
    uint64_t built_serial; /* the frame that built the list: what it uses was touched then */
    uint64_t used_serial;  /* the last frame that reused it */
    hl__frame_block frame_block;
} hl__retained;

/* The window's surface and the present frame (render_present.c). */
typedef struct hl__present {
    hl_rhi_surface surface;  /* {0}: none yet (made by the next present or rebuild) */
    hl_rhi_format format;    /* its configuration */
    uint32_t width, height;
    bool reconfigure;        /* a SUBOPTIMAL texture was shown: configure before the next acquire */
    hl_rhi_texture acquired; /* acquired by this present's provider, not presented yet */
    bool skipped;            /* this present's provider found no texture */
    hl_graph *graph;         /* the present frames' own graph */
    hl_shader_program prog;  /* the copy pass (CPU artifacts, kept across losses) */
    bool prog_ready, prog_encodes;
    hl_rhi_shader vs, fs;
    hl_rhi_bind_group_layout bgl;
    hl_rhi_pipeline_layout layout;
    hl_rhi_render_pipeline pipeline;
    hl_rhi_format pipeline_format;
    hl_rhi_bind_group group;      /* the output's view and the default sampler */
    hl_rhi_texture_view group_view;
    uint64_t presents, skipped_count, present_ns; /* stats (since creation) */
    uint32_t configures, outdated;
} hl__present;

/* Frontend threads (hl_renderer_desc.frontend_threads): the base's worker pool (hl__workers,
 * hl_base.h). What runs on them only reads the scene and writes its own part of renderer scratch:
 * no RHI call, no allocation, no error message. */
#define HL__MAX_FRONTEND_THREADS HL__MAX_WORKER_THREADS
/* The parts of a frontend loop: 4 per thread (HL__MAX_WORKER_PARTS at most), so that a late or
 * slow thread leaves its share to the others. */
#define HL__FRONTEND_PARTS_PER_THREAD 4u
/* Loops shorter than this run on the calling thread alone (waking workers costs more). */
#define HL__PARALLEL_MIN 4096u
/* Tests only: the size from which the frontend splits its loops (HL__PARALLEL_MIN by default;
 * the randomized scenes run the threaded paths on small views with it). 0 restores the default. */
void hl__renderer_set_parallel_min(hl_renderer *r, uint32_t n);

/* Render bundles of the direct recorder's colour passes (render_bundle.c): per view slot and pass
 * (opaque, transparent), last frame's packets and their chunks, one bundle each. */
typedef struct hl__bundle_chunk {
    uint32_t first, count; /* into the packets */
    uint64_t hash;         /* of its packets (matching only: equality compares them) */
    hl_rhi_render_bundle bundle; /* 0: drawn directly (content new last frame) */
    bool seen;             /* matched a chunk of the frame before (scratch) */
} hl__bundle_chunk;

typedef struct hl__bundle_cache {
    hl_rhi_format color[4]; /* the attachment layout its bundles were recorded for */
    uint32_t color_count;
    hl_rhi_format depth;
    uint32_t samples;
    hl_rhi_draw_packet *packets; /* last frame's (high-water) */
    uint32_t packet_count, packet_capacity;
    hl__bundle_chunk *chunks;
    uint32_t chunk_count, chunk_capacity;
    uint64_t frame; /* frame_serial it was last drawn in */
} hl__bundle_cache;

/* Draws count packets of view v's opaque or transparent pass through the cache's bundles (recording
 * the chunks that changed) with one hl_rhi_cmd_execute_bundles. */
hl_result hl__bundles_draw(hl_renderer *r, hl_rhi_cmd *cmd, const hl__view *v, bool transparent,
                           const hl_rhi_draw_packet *packets, uint32_t count);
/* Frame end: caches not drawn in this frame are emptied (their bundles destroyed). */
void hl__bundles_frame_end(hl_renderer *r);
/* Every bundle destroyed (GPU objects dropped); hl__bundles_free also frees the arrays. */
void hl__bundles_drop(hl_renderer *r);
void hl__bundles_free(hl_renderer *r);

struct hl_renderer {
    hl_renderer_desc desc;
    hl_rhi_device *dev;
    hl__gpu_state gpu_state;
    hl_rhi_caps created_caps; /* the device's capabilities at creation: a replacement must have them */
    uint32_t recoveries;      /* successful recoveries (hl_render_stats.device_recoveries) */
    char lost_reason[256];    /* the loss's message (device_lost event, recovery errors) */
    hl_rhi_backend backend;
    hl_graph *graph;
    bool gl_depth; /* clip z in [-1, 1]: remap projections */

    hl_render_target *output; /* the renderer's own colour target */
    hl_render_target *targets; /* every target of this renderer, the output included */
    struct hl_compute_shader *compute_shaders; /* every compute shader of this renderer */
    struct hl_compute_kernel *compute_kernels; /* every compute kernel of this renderer */
    struct hl_storage_buffer *storage_buffers; /* every storage buffer of this renderer */
    struct hl_storage_shader *storage_shaders; /* every storage graphics shader of this renderer */
    hl__storage_read storage_read;             /* the pending read (render_storage.c) */
    uint64_t storage_clock; /* orders CPU and GPU writes of storage buffers (shadow_stale) */
    uint64_t storage_frame; /* counts graph frames (render frames and reads): import caching */
    const hl_render_target *recording_target; /* the target of the view being recorded */

    /* scene mirrors */
    hl__ptr_map geometry_map, texture_map, material_map, mesh_map;
    /* records are allocated one by one (the graph's upload batch holds pointers to their
       delivered revisions until the frame commits); the arrays hold pointers, NULL = free */
    hl__gpu_geometry **geometries;
    uint32_t geometry_count, geometry_capacity, geometry_hint;
    hl__gpu_texture **textures;
    uint32_t texture_count, texture_capacity, texture_hint;
    hl__gpu_material **materials;
    uint32_t material_count, material_capacity, material_hint;
    hl__gpu_mesh **meshes;
    uint32_t mesh_count, mesh_capacity, mesh_hint;
    /* the frame meshes[i] was last drawn in, by i (0: never, or no record): kept apart from the
       records so the stale walk and eviction read it without touching them (at 100,000 records,
       each a cache miss) */
    uint64_t *mesh_last;
    uint32_t mesh_last_capacity;
    hl__gpu_mesh **spare_meshes; /* records eviction released, reused by new meshes (no allocation) */
    uint32_t spare_mesh_count, spare_mesh_capacity;
    uint32_t stale_cursor;     /* where the walk for stale records to take goes on (spare_from_stale) */
    uint64_t stale_walk_frame; /* the frame of the last walk, and the records its walks saw */
    uint32_t stale_walk_steps;
    hl__ptr_map ubuf_map;
    hl__gpu_ubuf **ubufs;
    uint32_t ubuf_count, ubuf_capacity, ubuf_hint;
    uint32_t *free_object_slots;
    uint32_t free_object_count, free_object_capacity;
    uint32_t object_slots_used;
    /* Object blocks of this frame, batched (render_resources.c hl__flush_objects): the CPU copy
       of every slot written (HL__OBJECT_STRIDE each, padding zero) and the slots written since
       the last flush, in order; runs of consecutive slots upload as one copy */
    uint8_t *object_cpu;
    uint32_t object_cpu_capacity; /* slots */
    uint32_t *object_dirty;
    uint32_t object_dirty_count, object_dirty_capacity;
    /* joint palettes of skinned meshes (HL__SKIN_STRIDE each) */
    uint32_t *free_skin_slots;
    uint32_t free_skin_count, free_skin_capacity;
    uint32_t skin_slots_used, skin_capacity;
    hl_rhi_buffer skin_ubo;
    hl__owned_group skin_group, shadow_skin_group;
    hl_mat4 skin_scratch[HL_SKIN_MAX_JOINTS];

    /* programs and pipelines: records (pointers stay put), released at frame end once unused
       (render_program.c, hl__render_programs_evict) */
    hl__program **programs;
    uint32_t program_count, program_capacity, program_hint;
    hl__pipeline_entry **pipelines;
    uint32_t pipeline_count, pipeline_capacity, pipeline_hint;
    uint64_t next_object_id; /* program and pipeline ids */
    uint64_t evict_epoch;    /* bumped when a program or pipeline is released (prepared draws) */
    hl__retained retained;   /* the direct recorder's kept view */
    uint64_t mirror_epoch;   /* bumped when hl__render_evict released a mirror (the kept view) */
    /* hl__program_get's memo of engine programs by (kind, defines): valid while evict_epoch holds
       (programs are released only where the epoch is bumped) */
    struct {
        hl__program *p;
        uint64_t defines, epoch;
        uint32_t kind;
    } program_memo[16];
    bool view_events;        /* the view being built met a mesh with events */

    /* shared GPU objects */
    hl_rhi_buffer frame_ubo, object_ubo, shadow_ubo, instance_vbo;
    uint32_t object_capacity;   /* slots in object_ubo */
    uint32_t instance_capacity; /* matrices in instance_vbo */
    /* shared groups (owned with their layouts: no program's lifetime limits them) */
    hl__owned_group frame_group, object_group, shadow_frame_group, shadow_object_group, atlas_group, empty_group;
    hl__owned_group fs_frame_group, fs_atlas_group; /* lit fullscreen passes (groups 1 and 2) */
    /* group 3 of forward programs with IBL: the environment alone, and with the shadow atlas */
    hl__owned_group env_group, env_atlas_group;
    hl__owned_group fs_env_atlas_group; /* lit fullscreen passes of a view with an environment (group 2) */
    /* image-based lighting (render_env.c) */
    hl__gpu_env envs[HL__MAX_ENVS];
    hl__env_program env_programs[3];
    hl_rhi_texture env_brdf;
    hl_rhi_texture_view env_brdf_view;
    hl_rhi_sampler env_source_sampler, env_cube_sampler, env_lut_sampler;
    hl_rhi_texture atlas;
    hl_rhi_texture_view atlas_view;
    hl_rhi_sampler atlas_sampler;
    hl_rhi_texture white;
    hl_rhi_texture_view white_view;
    hl_rhi_sampler default_sampler;

    /* per frame (high-water) */
    hl__view views[HL__MAX_VIEWS];
    uint32_t view_count;
    hl__draw *draws;
    uint32_t draw_count, draw_capacity;
    uint32_t *order;
    uint32_t order_capacity;
    struct hl__sort_item *sort_items; /* high-water scratch for sorting */
    uint32_t sort_capacity;
    struct hl__sort_item *sort_spare; /* the radix sort's second buffer (high-water) */
    uint32_t sort_spare_capacity;
    struct hl__sort_item *inst_items;
    uint32_t inst_capacity;
    struct hl__batch_slot { /* instanced batching: (geometry, material, layers) -> batch, per view */
        const void *geometry, *material;
        uint32_t layers; /* renderer lists select whole batches by layer */
        uint32_t batch;
    } *batch_table;
    uint32_t batch_table_capacity;
    struct hl__seen_slot { /* per view: material/geometry -> the order the view met it */
        const void *object;
        uint32_t index;
        uint32_t stamp; /* the view's seen_stamp: an older one is an empty slot (no clearing) */
    } *seen_table;
    uint32_t seen_table_capacity, seen_mask, seen_count, seen_stamp;
    /* per view, by visible index (render_frame.c view_build_draws): the mesh's record found by the
       scan (or NULL), its plain draw's position in its part (plus the part's offset: among the
       view's plain draws), and what the scan and the builds found (HL__VF_* bits) */
    struct hl__gpu_mesh **visible_recs;
    uint32_t visible_rec_capacity;
    uint32_t *visible_pos;
    uint32_t visible_pos_capacity;
    uint8_t *visible_flags;
    uint32_t visible_flags_capacity;
    uint8_t *visible_kind; /* the slot of the mesh's memo kind in its part's table (255: none) */
    uint32_t visible_kind_capacity;
    struct hl__build_part { /* the frontend threads' part of the scan and draw building (one per thread) */
        uint32_t first, end;  /* its visible range */
        uint32_t plain_first; /* the plain draws of the parts before it */
        uint32_t plain, instanced, events; /* the scan's counts */
        /* the scan: meshes built on the calling thread in order (skinned, no memo, the part's first
           of each memo kind); the build: meshes it left to the calling thread */
        uint32_t *serial, *rest;
        uint32_t serial_count, rest_count, serial_capacity, rest_capacity;
        uint32_t kind_stamp; /* the scan's table of memo kinds met (HL__SCAN_KINDS slots) */
        struct hl__scan_kind {
            const void *material, *geometry;
            uint32_t flags, stamp;
            const struct hl__draw_memo *memo; /* the build's: the kind's memo entry (NULL: none) */
        } kinds[256];
        uint32_t *dirty; /* object slots written */
        hl_graph_commit *commits; /* the records' delivered world revisions, committed at the submission */
        uint32_t count; /* dirty and commits: one each per moved mesh */
        uint32_t dirty_capacity, commit_capacity;
        struct hl__pipeline_entry *stamp_seen[32]; /* the pipeline entries its draws use, listed once */
        struct hl__pipeline_entry **stamps;
        uint32_t stamp_count, stamp_capacity;
        uint64_t reused, upload_bytes;
    } build_parts[HL__MAX_WORKER_PARTS];
    /* per view: the inputs of plain mesh draws by (material, geometry, shadow flags), valid while
       the view's stamp and retire_epoch hold (render_frame.c mesh_draw); allocated once */
    struct hl__draw_memo *draw_memo;
    uint64_t draw_memo_stamp;
    uint32_t draw_memo_count;
    uint32_t *draw_order; /* per view: its draws in execution order (indices into draws) */
    uint32_t draw_order_capacity;
    hl_rhi_draw_packet *sorted_packets; /* per view: the packets of draw_order, in that order */
    uint32_t sorted_packet_capacity;
    /* per view slot: the sort keys and order of the last frame; equal keys reuse the order */
    struct hl__sort_cache {
        uint64_t *keys;
        uint32_t *order;
        uint32_t count, capacity, order_capacity;
    } sort_cache[HL__MAX_VIEWS];
    hl__shadow_tile tiles[HL_RENDER_MAX_SHADOW_TILES * HL__MAX_VIEWS];
    uint32_t tile_count;
    hl__frame_block frame_blocks[HL__MAX_VIEWS];
    float *instance_data; /* 16 floats per instance */
    uint32_t instance_count, instance_data_capacity;
    /* objects replaced while a frame records (a grown object buffer): packets and uploads of
       this frame may still name them, so they are destroyed when the frame ends */
    hl_rhi_buffer *retired_buffers;
    uint32_t retired_buffer_count, retired_buffer_capacity;
    hl_rhi_bind_group *retired_groups;
    uint32_t retired_group_count, retired_group_capacity;
    uint64_t retire_epoch; /* counts hl__retire_group calls (the kept view is not reused across one) */
    hl_rhi_bind_group_layout *retired_layouts;
    uint32_t retired_layout_count, retired_layout_capacity;
    uint8_t *mip_scratch; /* high-water: CPU mip chains of texture uploads */
    uint32_t mip_scratch_capacity;
    uint64_t frame_index; /* successful frames */
    uint64_t frame_serial; /* frames attempted: stamps last_frame */
    uint64_t output_acquired; /* frame_serial of the frame that last acquired the output texture */
    uint64_t frame_t0;     /* hl__now_ns() when the render call began recording (stats.record_ns) */
    uint64_t order_serial; /* traversals into r->order (a derived view reuses its base's while it holds) */
    bool in_frame;
    bool in_record; /* the pipeline host's record callback is running */
    bool graph_ok;  /* the graph holds the last frame, which succeeded (hl_renderer_write_graph_dot) */
    bool graph_read; /* a storage read's frame replaced the last render frame in the graph */
    hl__scene_pass pending_scene; /* hl__scene_flush */
    char pending_scene_name[64];
    bool has_pending_scene;
    hl__list *lists; /* renderer lists of this frame (high-water) */
    uint32_t list_count, list_capacity;
    uint32_t *list_items; /* draw indices of the lists */
    uint32_t list_item_count, list_item_capacity;
    uint8_t *draw_counted; /* per draw of scripted views: executed (faces in the stats already) */
    uint32_t draw_counted_capacity;
    hl_mesh **batch_meshes; /* the meshes of this frame's instanced draws */
    uint32_t batch_mesh_count, batch_mesh_capacity;
    bool after_events; /* a visible mesh of this frame has an after-render event */
    hl__ptr_map face_counted; /* mesh -> bit mask of the render calls whose faces it counted */
    uint64_t face_serial;
    hl__ptr_map before_told; /* meshes told before_render in this render call */
    uint32_t before_invocation;
    uint64_t before_serial;
    hl__ptr_map ev_told; /* mesh after-render events: meshes told this frame */
    hl_render_target **layouts; /* hl__layout_target */
    uint32_t layout_count, layout_capacity;
    struct hl__fs_group *fs_groups; /* render_fullscreen.c */
    uint32_t fs_group_count, fs_group_capacity;
    hl_rhi_buffer fs_params; /* parameter blocks of fullscreen passes, 256-byte slots */
    uint32_t fs_params_capacity, fs_params_used;
    uint32_t invocations; /* render calls recorded in this frame */
    hl__bundle_cache bundle_caches[HL__MAX_VIEWS][2]; /* render_bundle.c */
    hl__bundle_chunk *bundle_scratch; /* high-water: a pass's new chunks */
    uint32_t bundle_scratch_capacity;
    uint32_t *bundle_table; /* high-water: last frame's chunks by hash */
    uint32_t bundle_table_capacity;
    hl_rhi_render_bundle *bundle_handles; /* high-water: the bundles of one execute */
    uint32_t bundle_handle_capacity;
    hl__render_host host; /* the render pipeline host (src/pipeline); empty = direct recorder */
    hl__present present;  /* the window (desc.window), render_present.c */
    hl__workers *workers; /* frontend threads (NULL: the calling thread alone) */
    uint32_t parallel_min; /* meshes / draws a loop needs to be split (HL__PARALLEL_MIN; tests lower it) */
    struct hl__cull_part { /* view_cull's per-part results */
        uint32_t visible, offscreen, culled;
        hl_aabb box;
    } cull_parts[HL__MAX_WORKER_PARTS];
    hl_render_stats stats;
};

/* render_present.c: windows. The renderer description's window checked (create), turned into
 * the device's display; the present objects dropped with every GPU object, the surface made and
 * configured again at rebuild (recovery); the cumulative window counters put back into the
 * stats of a new frame; everything freed at destroy. */
hl_result hl__present_validate_desc(const hl_renderer_desc *d);
void hl__present_display(const hl_renderer_desc *d, hl_rhi_native_display *out);
void hl__present_gpu_drop(hl_renderer *r);
hl_result hl__present_gpu_rebuild(hl_renderer *r);
void hl__present_stats(hl_renderer *r);
void hl__present_free(hl_renderer *r);

/* render_recovery.c: the recovery coordinator. hl__renderer_ready is the gate every call that
 * needs the device passes: a lost device fails it with HL_ERR_DEVICE_LOST (recover = false) or
 * is recovered first (recover = true: render calls); dropped objects are rebuilt. */
hl_result hl__renderer_ready(hl_renderer *r, const char *fn, bool recover);
/* After a call failed: when the device turns out lost, the renderer notes it (once per loss:
 * the device_lost event). Returns res. */
hl_result hl__renderer_after(hl_renderer *r, hl_result res);
/* renderer.c: every target's attachments dropped / made again (those without), the attachment
 * proxies' mirrors registered again. */
void hl__targets_drop(hl_renderer *r);
hl_result hl__targets_rebuild(hl_renderer *r);
/* render_compute.c, render_gpu_draw.c, render_storage.c: their GPU objects dropped / rebuilt
 * from what the objects keep (sources, constants, CPU copies by recovery policy). */
void hl__compute_gpu_drop(hl_renderer *r);
hl_result hl__compute_gpu_rebuild(hl_renderer *r);
void hl__storage_shaders_gpu_drop(hl_renderer *r);
hl_result hl__storage_shaders_gpu_rebuild(hl_renderer *r);
void hl__storage_gpu_drop(hl_renderer *r);
/* HL_ERR_INVALID_STATE naming pass and use when gb is a storage buffer whose contents were lost
 * with the device (REINITIALIZE) and no full writer has committed since (else HL_OK). */
hl_result hl__storage_check_input(hl_renderer *r, hl_graph_buffer gb, const char *pass, const char *use);
hl_result hl__storage_gpu_rebuild(hl_renderer *r);

/* render_resources.c */
hl_result hl__render_resources_init(hl_renderer *r);
void hl__render_resources_free(hl_renderer *r);
hl_result hl__gpu_geometry_get(hl_renderer *r, hl_geometry *g, hl__gpu_geometry **out);
hl_result hl__gpu_texture_get(hl_renderer *r, hl_texture *t, hl__gpu_texture **out);
hl_result hl__gpu_material_get(hl_renderer *r, hl_material *m, hl__gpu_material **out);
/* Uploads the material block (engine materials) and makes group 2 for program prog. */
hl_result hl__gpu_material_bind(hl_renderer *r, hl__gpu_material *m, const hl__program *prog);
hl_result hl__gpu_mesh_slot(hl_renderer *r, const hl_mesh *m, hl__gpu_mesh **out);
/* hl__gpu_mesh_slot with the mesh's record when the caller has it (hint: NULL = look it up) */
hl_result hl__gpu_mesh_slot_hint(hl_renderer *r, const hl_mesh *m, hl__gpu_mesh *hint, hl__gpu_mesh **out);
/* The normal matrix of a world matrix: transpose(inverse(model)) (upper 3x3 used). */
void hl__normal_matrix(const hl_mat4 *world, float out[16]);
/* A record not drawn in the frame before this one (or never): its block is uploaded again, since
 * its mesh's address may belong to a new mesh now. */
static inline bool hl__gpu_mesh_fresh(const hl_renderer *r, const hl__gpu_mesh *gm) {
    uint64_t last = r->mesh_last[gm->index];
    return last == 0 || last + 1 < r->frame_serial;
}
/* A record drawn in this frame. */
static inline void hl__gpu_mesh_drawn(hl_renderer *r, const hl__gpu_mesh *gm) {
    r->mesh_last[gm->index] = r->frame_serial;
}
/* The CPU copy of the object buffer at its size and room for `dirty` more written slots. */
hl_result hl__objects_reserve(hl_renderer *r, uint32_t dirty);
/* gm's block (world, of world revision wrev, and its normal matrix: gm's own when made for wrev)
 * into the CPU copy (reserved); the caller lists the slot as written. Frontend threads call it
 * for their own records. */
void hl__object_block_write(hl_renderer *r, const hl__gpu_mesh *gm, const hl_mat4 *world, uint64_t wrev);
/* A skinned mesh's joint palette: its slot in skin_ubo (made on first use) and, once per frame,
 * its joint matrices uploaded there. */
hl_result hl__gpu_mesh_skin(hl_renderer *r, hl__gpu_mesh *gm);
/* Makes room for `extra` more mesh slots before a view records (at most one growth a view). */
hl_result hl__reserve_object_slots(hl_renderer *r, uint32_t extra);
/* Uploads the object blocks written since the last flush (to the current object buffer):
 * before the frame's graph executes (last: the batch reads the CPU copy itself, which nothing
 * writes before the execute), and before that buffer is replaced (copied: the CPU copy grows). */
hl_result hl__flush_objects(hl_renderer *r, bool last);
void hl__render_evict(hl_renderer *r);
/* Mirrors held: geometry, textures, materials, uniform buffers, mesh slots (stats.mirrors). */
uint32_t hl__mirror_count(const hl_renderer *r);
/* The eviction threshold `old` (records last used before it go) lowered to the frame that built
 * the kept view when this frame reused it: what the view draws was last touched then. */
uint64_t hl__evict_horizon(const hl_renderer *r, uint64_t old);
/* Forgets the kept view (a failed frame, a loss, released GPU objects). */
void hl__retained_drop(hl_renderer *r);
/* Objects a frame being recorded may still name: destroyed when the frame ends. */
hl_result hl__retire_buffer(hl_renderer *r, hl_rhi_buffer b);
/* Retires g's group (and its layout when with_layout) to the frame's end; g keeps the rest. */
hl_result hl__retire_group(hl_renderer *r, hl__owned_group *g, bool with_layout);
void hl__render_release_retired(hl_renderer *r);
/* A group that binds `bound` through group `g` of program p's layout. Reuses the existing group
 * when both the layout entries and the bound resources are exactly equal; otherwise the old one
 * is retired to the frame's end and a new one made. */
hl_result hl__owned_group_get(hl_renderer *r, hl__owned_group *og, const hl__program *p, uint32_t g,
                              const hl_rhi_bind_group_entry *bound, uint32_t bound_count, const char *label);
void hl__owned_group_destroy(hl_renderer *r, hl__owned_group *og);
/* Records: hint is the lowest index that may be free (kept by alloc and clear). */
void *hl__record_alloc(void ***array, uint32_t *count, uint32_t *capacity, uint32_t *hint, size_t size, uint32_t *index);
/* Puts an existing record rec at a free index of the array (NULL when the array cannot grow). */
void *hl__record_place(void ***array, uint32_t *count, uint32_t *capacity, uint32_t *hint, void *rec, uint32_t *index);
/* Frees record i of the array (hl__free) and makes its slot reusable. */
void hl__record_clear(void **array, uint32_t i, uint32_t *hint);
void hl__gpu_texture_release(hl_renderer *r, uint32_t index);
/* One 2x2 box-filtered mip level (nw x nh) of an RGBA8 level (w x h); sRGB colour averages in
 * linear light. Edges of odd sizes repeat the last row/column. */
void hl__mip_downsample(const uint8_t *src, uint32_t w, uint32_t h, bool srgb, uint8_t *dst, uint32_t nw, uint32_t nh);

/* render_program.c */
hl_result hl__program_get(hl_renderer *r, hl__program_kind kind, uint64_t defines, hl__program **out);
uint64_t hl__program_hash(hl__program_kind kind, uint64_t defines, const void *desc, uint32_t desc_size);
/* Finds a program by its exact key (kind, defines, description) or NULL; counts a cache hit. */
hl__program *hl__program_find(hl_renderer *r, hl__program_kind kind, uint64_t defines, const void *desc,
                              uint32_t desc_size, uint64_t hash);
/* Layouts of a compiled program (groups 0..group_count-1 from its reflection; groups 0 and 1 take
 * dynamic offsets) and its vertex input locations by semantic (names[i] for semantic i). */
hl_result hl__program_layouts(hl_renderer *r, hl__program *p, uint32_t group_count, const char *label);
/* Adds a compiled program to the cache (takes it; on failure it is released). */
hl_result hl__program_add(hl_renderer *r, hl__program *p);
void hl__program_release(hl_renderer *r, hl__program *p); /* frees p */
/* The pipeline of key (key->program_id names p), one frame use stamped; layout is the geometry's. */
hl_result hl__pipeline_get(hl_renderer *r, hl__program *p, const hl__pipeline_key *key, hl__pipeline_entry **out);
/* Fills the vertex-state part of a pipeline key: the attributes p reads, exactly. */
hl_result hl__pipeline_key_vertex(const hl__program *p, const hl_geometry_layout *layout, hl__pipeline_key *k);
uint64_t hl__program_key_for(const hl_geometry_layout *layout, const hl_material_variant *v, bool instanced,
                             bool receive_shadows, bool fog, uint32_t mrt_count);
/* A forward key whose vertex inputs fit the RHI's HL_RHI_MAX_VERTEX_BUFFERS (one buffer each):
 * while over (8 skin influences), the tangent goes (no normal mapping), then TEXCOORD_1 (its
 * maps read TEXCOORD_0), then COLOR_0. */
uint64_t hl__program_key_fit(uint64_t key);
/* Releases pipelines unused for HL__PROGRAM_KEEP_FRAMES frames, and programs unused as long that
 * nothing holds; bumps r->evict_epoch when anything went. */
void hl__render_programs_evict(hl_renderer *r);
void hl__render_programs_free(hl_renderer *r);

/* render_shader_material.c */
hl_result hl__shader_material_program(hl_renderer *r, hl_material *m, hl__gpu_material *gm, hl__program **out);
hl_result hl__shader_material_group(hl_renderer *r, hl_material *m, const hl__program *p, hl__gpu_material *gm);
hl_result hl__empty_group(hl_renderer *r, const hl__program *p, uint32_t g, hl_rhi_bind_group *out);
void hl__render_ubufs_free(hl_renderer *r);
/* Releases uniform-buffer mirrors last used before that frame or whose buffer only the mirror
 * still references. */
void hl__render_ubufs_evict(hl_renderer *r, uint64_t unused_before);
enum {
    HL__DEF_HAS_NORMAL = 1u << 0,
    HL__DEF_HAS_TANGENT = 1u << 1,
    HL__DEF_HAS_UV0 = 1u << 2,
    HL__DEF_HAS_UV1 = 1u << 3,
    HL__DEF_HAS_COLOR = 1u << 4,
    HL__DEF_INSTANCED = 1u << 5,
    HL__DEF_UNLIT = 1u << 6,
    HL__DEF_ALPHA_MASK = 1u << 7,
    HL__DEF_RECEIVE_SHADOWS = 1u << 8,
    HL__DEF_FOG = 1u << 9,
    HL__DEF_MAP0 = 1u << 10, /* 5 maps: bits 10..14 */
    HL__DEF_MAP0_UV1 = 1u << 15, /* bits 15..19 */
    HL__DEF_MRT_SHIFT = 20,      /* 2 bits: MRT_COUNT - 1 */
    HL__DEF_GBUFFER = 1u << 22,  /* G-buffer outputs instead of lighting (render_shaders.c) */
    HL__DEF_UV_TRANSFORM = 1u << 23, /* maps sample through their UV transforms (KHR_texture_transform) */
    HL__DEF_SKINNED = 1u << 24,  /* vertices placed by a joint palette (the Object block's u_joints) */
    HL__DEF_SKINNED8 = 1u << 25, /* with SKINNED: a second set of 4 influences (JOINTS_1 / WEIGHTS_1) */
    HL__DEF_IBL = 1u << 26,      /* image-based lighting: the view's environment in group 3 (render_env.c) */
};

/* renderer.c: the renderer that owns an attachment texture (hl_render_target_texture), or NULL */
const hl_renderer *hl__proxy_owner(const hl_texture *tex);

/* render_frame.c */
hl_result hl__record_view(hl_renderer *r, hl_render_target *target, hl_stage *stage, hl_camera *camera);
/* The steps of hl__record_view for pipeline runtimes: update, cull, lights, draws and sort of
 * one view (and its uploads), without passes; *out_view indexes r->views. target: what the
 * draws are prepared for (output, or a layout target); output: the invocation's target. */
hl_result hl__view_prepare(hl_renderer *r, hl_render_target *target, hl_render_target *output, hl_stage *stage,
                           hl_camera *camera, bool gbuffer, uint32_t *out_view);
/* A view of the same stage and camera as view `base` (of this frame) with draws of its own for
 * `target`: the base's visible set (its traversal reused while r->order still holds it), lights
 * and Frame block, and the base's shadow tiles and shadow pass (shadow_view = base). */
hl_result hl__view_prepare_derived(hl_renderer *r, hl_render_target *target, uint32_t base, bool gbuffer,
                                   bool exclude_opaque_engine, uint32_t *out_view);
/* The shadow pass of a prepared view (nothing when no light casts shadows); once per view. */
hl_result hl__view_add_shadow_pass(hl_renderer *r, uint32_t view);
/* A renderer list of a prepared view. */
typedef enum hl__list_materials { HL__LIST_ALL_MATERIALS = 0, HL__LIST_ENGINE_MATERIALS, HL__LIST_SHADER_MATERIALS } hl__list_materials;
hl_result hl__list_create(hl_renderer *r, uint32_t view, hl__list_queue queue, hl__list_sort sort, bool casters_only,
                          hl__list_materials materials, uint32_t layer_mask, hl_material *override,
                          uint32_t *out_list);
hl_result hl__view_add_scene_pass(hl_renderer *r, const hl__scene_pass_desc *desc);
/* Mesh after-render events of a frame whose submission is valid. */
void hl__render_after_events(hl_renderer *r);
/* After a runtime's record: the target it drew into gets its MSAA resolve (when a scene pass
 * wrote it last) and its output marks. */
hl_result hl__target_finish(hl_renderer *r, hl_render_target *t);
/* Attachment `index` of t as a single-sample graph texture (the resolved one of an MSAA
 * target), imported once per frame. */
hl_graph_texture hl__target_output_texture(hl_renderer *r, hl_render_target *t, uint32_t index);
/* The output's colour texture as a deferred import of this frame (acquired after culling, once
 * per frame, only if a live pass uses it). */
hl_graph_texture hl__output_import(hl_renderer *r);
/* render_storage.c: the checks of every compute and storage call (thread, gles3 refused first,
 * not inside a frame); storage buffers in the graph frame being built. */
hl_result hl__compute_check(hl_renderer *r, const char *fn);
struct hl_storage_buffer;
/* The buffer as a graph buffer of this frame (once per frame; pending CPU writes join the upload
 * batch; marked as an output: its writers are never culled). */
hl_result hl__storage_import(hl_renderer *r, struct hl_storage_buffer *b, const char *fn, hl_graph_buffer *out);
/* The storage buffer imported as gb in this frame, or NULL (a transient). */
struct hl_storage_buffer *hl__storage_of_graph_buffer(hl_renderer *r, hl_graph_buffer gb);
/* A pass of this frame writes b: its CPU shadow is stale once the frame submits. */
hl_result hl__storage_written(hl_renderer *r, struct hl_storage_buffer *b);
void hl__storage_free(hl_renderer *r);
/* The kernel's binding ABI and label, or NULL when k is not one of r's kernels. */
const struct hl_compute_binding *hl__compute_kernel_abi(const hl_renderer *r, const struct hl_compute_kernel *k,
                                                        uint32_t *count, const char **label);
/* A compute pass with its resources resolved to graph handles (render_storage.c). */
typedef struct hl__compute_resource {
    const char *name;
    hl_graph_buffer buffer;
    uint64_t offset, size;
    hl_graph_texture texture;
    const void *data;
    uint32_t data_size;
    bool overwrite; /* read-write storage taken as a write */
} hl__compute_resource;
hl_result hl__add_compute_pass(hl_renderer *r, const char *name, struct hl_compute_kernel *k,
                               const hl__compute_resource *res, uint32_t count, const uint32_t groups[3],
                               hl_graph_buffer indirect, uint64_t indirect_offset);
/* render_gpu_draw.c: a GPU-driven draw with graph handles resolved. */
struct hl_storage_shader;
typedef struct hl__gpu_draw_desc {
    const char *name;
    struct hl_storage_shader *shader;
    const char *blocks[8];
    hl_graph_buffer buffers[8];
    uint64_t offsets[8], sizes[8];
    uint32_t buffer_count;
    const void *params;
    uint32_t params_size;
    hl_graph_texture color[4];
    uint32_t color_count;
    bool load_color;
    float clear_color[4];
    hl_graph_texture depth;
    bool load_depth;
    uint8_t blend; /* 0 opaque, 1 alpha, HL__BLEND_ADDITIVE */
    bool depth_test, depth_write, cull_back;
    hl_graph_buffer index;
    uint32_t count, instance_count;
    hl_graph_buffer indirect;
    uint64_t indirect_offset;
    struct {
        const char *name;
        hl_graph_buffer buffer;
        uint64_t offset;
        uint32_t stride;
        hl_rhi_vertex_format format;
        bool per_instance;
    } vertex[8];
    uint32_t vertex_count;
    const char *texture_names[4];
    hl_graph_texture textures[4];
    uint32_t texture_count;
} hl__gpu_draw_desc;
hl_result hl__add_gpu_draw_pass(hl_renderer *r, const hl__gpu_draw_desc *d);
void hl__storage_shaders_free(hl_renderer *r);
hl_result hl__add_buffer_clear_pass(hl_renderer *r, const char *name, hl_graph_buffer buf, uint64_t offset, uint64_t size);
hl_result hl__add_buffer_copy_pass(hl_renderer *r, const char *name, hl_graph_buffer src, uint64_t src_offset,
                                   hl_graph_buffer dst, uint64_t dst_offset, uint64_t size);
/* render_compute.c: destroys the compute kernels and shaders left (hl_renderer_destroy). */
void hl__compute_shaders_free(hl_renderer *r);
/* The kernel's RHI pipeline and bind group layouts (tests; the graph's compute passes later). */
bool hl__compute_kernel_objects(const struct hl_compute_kernel *k, hl_rhi_compute_pipeline *pipeline,
                                hl_rhi_bind_group_layout groups[4], uint32_t *group_count);
/* Resolves t's samples now when a scene pass wrote them after the last resolve (before a pass
 * reads the resolved texture). */
hl_result hl__target_resolve_now(hl_renderer *r, hl_render_target *t);

/* render_fullscreen.c: a fullscreen triangle with a GLSL ES 3.00 fragment shader. */
#define HL__FULLSCREEN_MAX_INPUTS 8
#define HL__FULLSCREEN_MAX_PARAMS 4096
typedef struct hl__fullscreen_desc {
    const char *name;
    const char *fragment;
    const void *params;
    uint32_t params_size;
    const char *input_names[HL__FULLSCREEN_MAX_INPUTS];
    hl_graph_texture inputs[HL__FULLSCREEN_MAX_INPUTS];
    uint32_t input_count;
    hl_graph_texture outputs[4];
    uint32_t output_count;
    hl_render_target *writes_target; /* the outputs are this target's attachments (or NULL) */
    hl_render_target *reads_target;  /* an input is this target's attachment (or NULL) */
    uint32_t lighting_view;          /* 1 + a view: its Frame block and shadow atlas bound (0: none) */
} hl__fullscreen_desc;
hl_result hl__add_fullscreen_pass(hl_renderer *r, const hl__fullscreen_desc *d);
/* Clears a colour texture to 0 (a render pass with no draws). */
hl_result hl__add_clear_pass(hl_renderer *r, const char *name, hl_graph_texture tex);
/* A texture-to-texture copy (same format and size, single-sample colour textures). */
hl_result hl__add_copy_pass(hl_renderer *r, const char *name, hl_graph_texture src, hl_graph_texture dst,
                            hl_render_target *reads_target, hl_render_target *writes_target);
/* Bind groups of fullscreen passes, reused while their entries (the pooled transient views,
 * the parameter slot) stay the same: a steady frame creates none. Unused for 8 frames: destroyed. */
typedef struct hl__fs_group {
    hl_rhi_bind_group_layout layout;
    uint32_t count;
    hl_rhi_bind_group_entry entries[1 + 2 * HL__FULLSCREEN_MAX_INPUTS]; /* zero-padded: compared whole */
    hl_rhi_bind_group group;
    uint64_t last_frame;
} hl__fs_group;
/* A bind group of layout binding exactly these entries (at most 17), cached by the renderer
 * (the frame's passes share it; unused for 8 frames it goes). */
hl_result hl__frame_group_get(hl_renderer *r, hl_rhi_bind_group_layout layout, const hl_rhi_bind_group_entry *entries,
                              uint32_t n, const char *label, hl_rhi_bind_group *out);
/* A 256-byte-aligned slot of the renderer's uniform parameter buffer (r->fs_params), filled with
 * size bytes through the frame's upload batch. */
hl_result hl__params_slot(hl_renderer *r, const void *data, uint32_t size, uint32_t *offset);
void hl__render_fullscreen_evict(hl_renderer *r);
void hl__render_fullscreen_free(hl_renderer *r);

/* ---- image-based lighting (render_env.c) ---------------------------------------------------- */
/* The stage's exposure and environment into fb; *out = the environment's maps (built first when
 * new or changed), NULL without one. */
hl_result hl__env_view(hl_renderer *r, hl_stage *stage, hl__frame_block *fb, hl__gpu_env **out);
void hl__render_env_evict(hl_renderer *r); /* frame end */
void hl__render_env_free(hl_renderer *r);
hl_rhi_format hl__target_rhi_format(hl_target_format f);
/* The 64-bit sort key of a draw (layout and its static checks in render_frame.c). */
uint64_t hl__sort_key(bool transparent, int32_t render_order, uint32_t pipeline, uint32_t material, uint32_t geometry, float depth);

#endif
