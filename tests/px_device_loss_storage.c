/* Device loss and storage buffers, compute kernels and storage shaders (renderer.h "device loss",
 * compute.h "Recovery policy"), on one backend per run. Every value is exact: the kernels do u32
 * arithmetic and the GPU-driven draw writes k/255 colours into an RGBA8 unorm target, so values
 * read back equal the CPU's bit for bit and images before and after a recovery differ by 0.
 *
 * webgpu:
 * - CPU_SHADOW: initial data plus a CPU write of part of it, then a compute pass adding to every
 *   element: the read shows the GPU's sums and info.shadow_stale is set. While lost, storage and
 *   compute calls are HL_ERR_DEVICE_LOST (a refused write leaves the CPU copy alone). After
 *   hl_renderer_recover the read shows exactly the initial data plus the CPU write (the GPU's adds
 *   are gone), shadow_stale and writes_pending are clear; the kernel made before the loss (its
 *   shader destroyed before the loss) dispatches again and the values advance by its add; so do
 *   a kernel whose shader is kept and a kernel made after the recovery from it. A second loss,
 *   recovered by the next render call itself, restores the CPU copy again.
 * - REINITIALIZE: GPU-modified buffers come back with their initial contents and lost: a read is
 *   HL_ERR_INVALID_STATE naming the loss, and so is every frame using one as a read-only binding,
 *   a read-write binding without overwrite, indirect dispatch arguments or a copy source (those
 *   frames write nothing). A partial CPU write does not make one whole; neither does a whole
 *   overwrite pass that the record adds but the engine refuses (the frame still submits), nor one
 *   in a frame whose record fails. Full writers do: a CPU write of the whole buffer (the read
 *   shows what was written), a compute pass binding all of it read-write with overwrite (read by
 *   another pass of the same frame, and readable afterwards: the kernel's values), a whole clear
 *   (zeros) and a whole copy destination (the source's values). A buffer lost before its
 *   renderer ever ran a frame is lost too.
 * - A read pending at the loss: its wait is HL_ERR_DEVICE_LOST while lost and, the recovery
 *   having dropped it, HL_ERR_INVALID_STATE after (no crash); a new read works.
 * - A storage shader drawing rects from a CPU_SHADOW buffer (CPU-patched before the first frame)
 *   draws the same pixels after recovery as before (max difference 0) and as the CPU reference;
 *   drawing from a lost REINITIALIZE copy fails the frame until a whole CPU write, then draws the
 *   same pixels again.
 * - hl_renderer_release_gpu_resources (no loss; refused while a read is pending): CPU_SHADOW
 *   buffers come back with the CPU's copy, REINITIALIZE ones lost the same way; the device
 *   generation stays 1.
 * gles3: storage buffers, compute shaders, kernels and storage shaders are HL_ERR_UNSUPPORTED
 * before and after a loss; a scene renders the same image (max difference 0) after the render
 * call recovers the device. */
#include <stdlib.h>
#include <string.h>

#include "hilo3d/compute.h"
#include "hilo3d/scene.h"
#include "hl_test.h"
#include "hl_test_render.h"

enum { N = 256 }; /* u32 elements of every buffer of the compute cases: 4 workgroups of 64 */

/* data[i] += add over count elements (read-write in place: reads what was there) */
static const char *k_add =
    "struct Params { add: u32, count: u32, pad0: u32, pad1: u32, }\n"
    "@group(0) @binding(0) var<uniform> params: Params;\n"
    "@group(0) @binding(1) var<storage, read_write> data: array<u32>;\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(global_invocation_id) id: vec3<u32>) {\n"
    "    if (id.x >= params.count) { return; }\n"
    "    data[id.x] = data[id.x] + params.add;\n"
    "}\n";
static const hl_compute_binding k_add_abi[] = {
    {"params", 0, 0, HL_COMPUTE_UNIFORM_BUFFER, 16},
    {"data", 0, 1, HL_COMPUTE_STORAGE_READ_WRITE, 4},
};

/* dst[i] = src[i] * mul + add: writes every element of dst without reading it (overwrite) */
static const char *k_map =
    "struct Params { mul: u32, add: u32, count: u32, pad: u32, }\n"
    "@group(0) @binding(0) var<uniform> params: Params;\n"
    "@group(0) @binding(1) var<storage, read> src: array<u32>;\n"
    "@group(0) @binding(2) var<storage, read_write> dst: array<u32>;\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(global_invocation_id) id: vec3<u32>) {\n"
    "    if (id.x >= params.count) { return; }\n"
    "    dst[id.x] = src[id.x] * params.mul + params.add;\n"
    "}\n";
static const hl_compute_binding k_map_abi[] = {
    {"params", 0, 0, HL_COMPUTE_UNIFORM_BUFFER, 16},
    {"src", 0, 1, HL_COMPUTE_STORAGE_READ, 4},
    {"dst", 0, 2, HL_COMPUTE_STORAGE_READ_WRITE, 4},
};

static const char *k_lost_text = "lost its contents with the device";

/* What the record of the next frame does. */
enum mode {
    M_NONE = 0,
    M_ADD_ALL,          /* add to shadow and every REINITIALIZE buffer */
    M_ADD_SHADOW,       /* add to shadow */
    M_READ_ONLY,        /* ra as the read-only src of map into scratch */
    M_PARTIAL_RW,       /* add on ra: read-write without overwrite */
    M_INDIRECT,         /* add on scratch dispatched with ra as the indirect arguments */
    M_COPY_SRC,         /* ra copied whole into scratch */
    M_OVERWRITE_REFUSED, /* map into rb (whole, overwrite) with 0 workgroups: refused, frame goes on */
    M_OVERWRITE_FAIL,   /* map into rb (whole, overwrite), then the record fails */
    M_RESTORE,          /* rc cleared, src copied into rd, map src -> rb (overwrite), map rb -> scratch */
    M_DRAW,             /* the rects drawn from rects (or rects_lost when draw_lost) */
};

typedef struct st {
    enum mode m;
    hl_compute_kernel *add, *map, *map_new;
    /* compute cases */
    hl_storage_buffer *shadow, *src, *scratch, *ra, *rb, *rc, *rd;
    uint32_t add_value;
    /* the draw case */
    hl_render_target *target;
    hl_storage_shader *rect_shader;
    hl_storage_buffer *rects, *rects_lost;
    bool draw_lost;
    /* the code of a refused call inside the record */
    hl_result refused;
    char refused_msg[300];
} st;

typedef struct params {
    uint32_t a, b, count, pad; /* add: (add, count); map: (mul, add, count) */
} params;

static hl_result import(hl_pipeline_context ctx, hl_storage_buffer *b, hl_pipeline_buffer *out) {
    return hl_pipeline_import_storage_buffer(ctx, b, out);
}

static hl_result add_pass(hl_pipeline_context ctx, st *s, hl_storage_buffer *b, const hl_storage_buffer *indirect) {
    hl_pipeline_buffer data, args = {0};
    hl_result res = import(ctx, b, &data);
    if (!res && indirect) res = import(ctx, (hl_storage_buffer *)indirect, &args);
    if (res) return res;
    params p = {s->add_value, N, 0, 0};
    hl_pipeline_compute_resource rs[2] = {{0}};
    rs[0].name = "params";
    rs[0].data = &p;
    rs[0].data_size = sizeof p;
    rs[1].name = "data";
    rs[1].buffer = data;
    hl_pipeline_compute_pass_desc d = {0};
    d.name = "add";
    d.kernel = s->add;
    d.resources = rs;
    d.resource_count = 2;
    d.groups[0] = N / 64;
    d.indirect = args;
    return hl_pipeline_add_compute_pass(ctx, &d);
}

/* dst = src * mul + add over all N elements, dst bound whole with overwrite; groups 0 = none
 * (refused by the engine). */
static hl_result map_pass(hl_pipeline_context ctx, hl_compute_kernel *k, hl_storage_buffer *src, hl_storage_buffer *dst,
                          uint32_t mul, uint32_t add, uint32_t groups) {
    hl_pipeline_buffer a, b;
    hl_result res = import(ctx, src, &a);
    if (!res) res = import(ctx, dst, &b);
    if (res) return res;
    params p = {mul, add, N, 0};
    hl_pipeline_compute_resource rs[3] = {{0}};
    rs[0].name = "params";
    rs[0].data = &p;
    rs[0].data_size = sizeof p;
    rs[1].name = "src";
    rs[1].buffer = a;
    rs[2].name = "dst";
    rs[2].buffer = b;
    rs[2].overwrite = true;
    hl_pipeline_compute_pass_desc d = {0};
    d.name = "map";
    d.kernel = k;
    d.resources = rs;
    d.resource_count = 3;
    d.groups[0] = groups;
    return hl_pipeline_add_compute_pass(ctx, &d);
}

static hl_result draw_record(hl_pipeline_context ctx, st *s);

static hl_result record(hl_pipeline_context ctx, void *state) {
    st *s = state;
    hl_result res = HL_OK;
    hl_pipeline_buffer a, b;
    switch (s->m) {
    case M_NONE: return HL_OK;
    case M_ADD_ALL: {
        hl_storage_buffer *all[5] = {s->shadow, s->ra, s->rb, s->rc, s->rd};
        for (int i = 0; i < 5 && !res; i++) res = add_pass(ctx, s, all[i], NULL);
        return res;
    }
    case M_ADD_SHADOW: return add_pass(ctx, s, s->shadow, NULL);
    case M_READ_ONLY: return map_pass(ctx, s->map, s->ra, s->scratch, 2, 1, N / 64);
    case M_PARTIAL_RW: return add_pass(ctx, s, s->ra, NULL);
    case M_INDIRECT: return add_pass(ctx, s, s->scratch, s->ra);
    case M_COPY_SRC:
        if ((res = import(ctx, s->ra, &a)) || (res = import(ctx, s->scratch, &b))) return res;
        return hl_pipeline_add_buffer_copy_pass(ctx, "copy lost", a, 0, b, 0, N * 4);
    case M_OVERWRITE_REFUSED:
        s->refused = map_pass(ctx, s->map, s->src, s->rb, 3, 2, 0);
        snprintf(s->refused_msg, sizeof s->refused_msg, "%s", s->refused ? hl_last_error() : "");
        return HL_OK; /* the frame goes on without the pass */
    case M_OVERWRITE_FAIL:
        if ((res = map_pass(ctx, s->map, s->src, s->rb, 3, 2, N / 64))) return res;
        return HL_ERR_VALIDATION; /* the record fails after adding the pass: nothing of it commits */
    case M_RESTORE:
        if ((res = import(ctx, s->rc, &a))) return res;
        if ((res = hl_pipeline_add_buffer_clear_pass(ctx, "clear rc", a, 0, 0))) return res;
        if ((res = import(ctx, s->src, &a)) || (res = import(ctx, s->rd, &b))) return res;
        if ((res = hl_pipeline_add_buffer_copy_pass(ctx, "src to rd", a, 0, b, 0, N * 4))) return res;
        if ((res = map_pass(ctx, s->map, s->src, s->rb, 3, 2, N / 64))) return res;
        /* rb read in the frame that made it whole, after the pass that did */
        return map_pass(ctx, s->map_new, s->rb, s->scratch, 1, 1, N / 64);
    case M_DRAW: return draw_record(ctx, s);
    }
    return HL_OK;
}

static hl_result make_shader(hl_renderer *r, const char *src, const hl_compute_binding *abi, uint32_t n,
                             hl_compute_shader **out) {
    hl_compute_shader_desc d = {0};
    d.wgsl = src;
    d.workgroup_size[0] = 64;
    d.bindings = abi;
    d.binding_count = n;
    return hl_compute_shader_create(r, &d, out);
}

static hl_result make_kernel(hl_renderer *r, hl_compute_shader *sh, hl_compute_kernel **out) {
    hl_compute_kernel_desc kd = {sh, NULL, 0, NULL};
    return hl_compute_kernel_create(r, &kd, out);
}

static bool read_u32(hl_renderer *r, hl_storage_buffer *b, uint32_t *out) {
    hl_result res = hl_storage_buffer_read(r, b, 0, N * 4);
    if (!res) res = hl_storage_buffer_read_wait(r, out, N * 4, 0);
    HL_CHECK_MSG(res == HL_OK, "read: %s", hl_last_error());
    return res == HL_OK;
}

/* Reads b and compares it with want (N values); names the first difference. */
static void check_values(hl_renderer *r, hl_storage_buffer *b, const uint32_t *want, const char *what) {
    static uint32_t got[N];
    memset(got, 0xab, sizeof got);
    if (!read_u32(r, b, got)) return;
    uint32_t bad = 0, at = 0;
    for (uint32_t i = 0; i < N; i++)
        if (got[i] != want[i] && !bad++) at = i;
    HL_CHECK_MSG(bad == 0, "%s: %u of %u values differ (first [%u] = %u, want %u)", what, bad, N, at, got[at], want[at]);
}

/* A read of b is refused: its contents were lost with the device. */
static void check_lost(hl_renderer *r, hl_storage_buffer *b, const char *what) {
    hl_result res = hl_storage_buffer_read(r, b, 0, N * 4);
    HL_CHECK_MSG(res == HL_ERR_INVALID_STATE && strstr(hl_last_error(), k_lost_text),
                 "%s: read -> %s '%s', want HL_ERR_INVALID_STATE naming the loss", what, hl_result_name(res),
                 res ? hl_last_error() : "");
    if (!res) { /* end the read it started */
        uint32_t sink[N];
        hl_storage_buffer_read_wait(r, sink, sizeof sink, 0);
    }
}

/* The frame of mode m fails: HL_ERR_INVALID_STATE naming the loss. */
static void check_frame_lost(hl_renderer *r, st *s, enum mode m, hl_stage *stage, hl_camera *cam, const char *what) {
    s->m = m;
    hl_result res = hl_renderer_render(r, stage, cam);
    HL_CHECK_MSG(res == HL_ERR_INVALID_STATE && strstr(hl_last_error(), k_lost_text),
                 "%s: render -> %s '%s', want HL_ERR_INVALID_STATE naming the loss", what, hl_result_name(res),
                 res ? hl_last_error() : "");
    s->m = M_NONE;
}

static void render_ok(hl_renderer *r, st *s, enum mode m, hl_stage *stage, hl_camera *cam, const char *what) {
    s->m = m;
    hl_result res = hl_renderer_render(r, stage, cam);
    HL_CHECK_MSG(res == HL_OK, "%s: %s", what, res ? hl_last_error() : "");
    s->m = M_NONE;
}

static void add_all(uint32_t *v, uint32_t add) {
    for (uint32_t i = 0; i < N; i++) v[i] += add;
}

/* ---- CPU_SHADOW, REINITIALIZE and a pending read across losses --------------------------------------- */
static void test_losses(void) {
    printf("losses\n");
    st s;
    memset(&s, 0, sizeof s);
    hl_test_runtime rt = {"device-loss-storage", record, &s};
    hl_pipeline_factory f;
    hl_test_runtime_factory(&rt, &f);
    hl_renderer *r = make_renderer_with(16, 16, 1, &f);
    hl_stage *stage = NULL;
    HL_CHECK_OK(hl_stage_create(&stage));
    hl_camera *cam = stage ? front_camera(stage) : NULL;
    if (!r || !cam) goto out;
    hl_compute_shader *add_sh = NULL, *map_sh = NULL;
    HL_CHECK_OK(make_shader(r, k_add, k_add_abi, 2, &add_sh));
    HL_CHECK_OK(make_shader(r, k_map, k_map_abi, 3, &map_sh));
    HL_CHECK_OK(make_kernel(r, add_sh, &s.add));
    HL_CHECK_OK(make_kernel(r, map_sh, &s.map));
    HL_CHECK_OK(hl_compute_shader_destroy(r, add_sh)); /* the add kernel outlives its shader, and the losses */

    static uint32_t base[N], src[N], zeros[N], ra_init[N], c_init[N], d_init[N], want[N];
    for (uint32_t i = 0; i < N; i++) {
        base[i] = i * 10u;
        src[i] = 1000u + i;
        ra_init[i] = 7u * i + 3u;
        c_init[i] = 5u;
        d_init[i] = 9u;
    }
    hl_storage_buffer_desc d = {N * 4, 0, HL_STORAGE_RECOVERY_CPU_SHADOW, base, "shadow"};
    HL_CHECK_OK(hl_storage_buffer_create(r, &d, &s.shadow));
    d.initial_data = src, d.label = "src";
    HL_CHECK_OK(hl_storage_buffer_create(r, &d, &s.src));
    d.initial_data = NULL, d.label = "scratch";
    HL_CHECK_OK(hl_storage_buffer_create(r, &d, &s.scratch));
    d.recovery = HL_STORAGE_RECOVERY_REINITIALIZE;
    d.usage = HL_STORAGE_USAGE_INDIRECT, d.initial_data = ra_init, d.label = "ra";
    HL_CHECK_OK(hl_storage_buffer_create(r, &d, &s.ra));
    d.usage = 0, d.initial_data = NULL, d.label = "rb"; /* zeros */
    HL_CHECK_OK(hl_storage_buffer_create(r, &d, &s.rb));
    d.initial_data = c_init, d.label = "rc";
    HL_CHECK_OK(hl_storage_buffer_create(r, &d, &s.rc));
    d.initial_data = d_init, d.label = "rd";
    HL_CHECK_OK(hl_storage_buffer_create(r, &d, &s.rd));
    if (!s.add || !s.map || !s.shadow || !s.src || !s.scratch || !s.ra || !s.rb || !s.rc || !s.rd) goto out;

    /* a CPU write of part of shadow: elements 16..31 */
    uint32_t part[16];
    for (uint32_t i = 0; i < 16; i++) part[i] = base[16 + i] = 5000u + i;
    HL_CHECK_OK(hl_storage_buffer_write(r, s.shadow, 16 * 4, part, sizeof part));
    hl_storage_buffer_info info;
    HL_CHECK_OK(hl_storage_buffer_info_get(r, s.shadow, &info));
    HL_CHECK(info.writes_pending && !info.shadow_stale);

    /* GPU writes: + 5 to shadow and every REINITIALIZE buffer, committed */
    s.add_value = 5;
    render_ok(r, &s, M_ADD_ALL, stage, cam, "add before the loss");
    memcpy(want, base, sizeof want);
    add_all(want, 5);
    check_values(r, s.shadow, want, "shadow: GPU adds before the loss");
    memcpy(want, ra_init, sizeof want);
    add_all(want, 5);
    check_values(r, s.ra, want, "ra: GPU adds before the loss");
    HL_CHECK_OK(hl_storage_buffer_info_get(r, s.shadow, &info));
    HL_CHECK_MSG(info.shadow_stale && !info.writes_pending, "shadow before the loss: stale %d, pending %d", info.shadow_stale,
                 info.writes_pending);

    /* the loss, with a read pending */
    HL_CHECK_OK(hl_storage_buffer_read(r, s.shadow, 0, N * 4));
    HL_CHECK_OK(hl_renderer_simulate_device_loss(r));
    HL_CHECK(hl_renderer_device_lost(r));
    uint32_t got[N];
    bool done = false;
    HL_CHECK_RESULT(hl_storage_buffer_read_wait(r, got, sizeof got, 0), HL_ERR_DEVICE_LOST);
    HL_CHECK_RESULT(hl_storage_buffer_read_poll(r, &done), HL_ERR_DEVICE_LOST);
    HL_CHECK_RESULT(hl_storage_buffer_read(r, s.src, 0, 4), HL_ERR_DEVICE_LOST);
    uint32_t junk[N] = {0};
    HL_CHECK_RESULT(hl_storage_buffer_write(r, s.shadow, 0, junk, sizeof junk), HL_ERR_DEVICE_LOST);
    hl_storage_buffer *x = NULL;
    HL_CHECK_RESULT(hl_storage_buffer_create(r, &d, &x), HL_ERR_DEVICE_LOST);
    hl_compute_shader *y = NULL;
    HL_CHECK_RESULT(make_shader(r, k_add, k_add_abi, 2, &y), HL_ERR_DEVICE_LOST);
    hl_compute_kernel *z = NULL;
    HL_CHECK_RESULT(make_kernel(r, map_sh, &z), HL_ERR_DEVICE_LOST);
    HL_CHECK(x == NULL && y == NULL && z == NULL);
    HL_CHECK_MSG(strstr(hl_last_error(), "the device was lost") != NULL, "%s", hl_last_error());

    /* recovery: the pending read is gone (its wait fails, no crash) */
    HL_CHECK_OK(hl_renderer_recover(r));
    HL_CHECK(!hl_renderer_device_lost(r));
    HL_CHECK_EQ(hl_renderer_stats(r)->device_generation, 2);
    HL_CHECK_RESULT(hl_storage_buffer_read_wait(r, got, sizeof got, 0), HL_ERR_INVALID_STATE);
    HL_CHECK(strstr(hl_last_error(), "no read is pending") != NULL);
    HL_CHECK_RESULT(hl_storage_buffer_read_poll(r, &done), HL_ERR_INVALID_STATE);

    /* CPU_SHADOW: the initial data and the CPU write, without the GPU's adds (a new read works) */
    check_values(r, s.shadow, base, "shadow after recovery");
    check_values(r, s.src, src, "src after recovery");
    HL_CHECK_OK(hl_storage_buffer_info_get(r, s.shadow, &info));
    HL_CHECK_MSG(!info.shadow_stale && !info.writes_pending, "shadow after recovery: stale %d, pending %d",
                 info.shadow_stale, info.writes_pending);
    /* the kernel whose shader went before the loss: + 5 again */
    render_ok(r, &s, M_ADD_SHADOW, stage, cam, "add after recovery");
    memcpy(want, base, sizeof want);
    add_all(want, 5);
    check_values(r, s.shadow, want, "shadow: the add kernel after recovery");
    s.add_value = 7;
    render_ok(r, &s, M_ADD_SHADOW, stage, cam, "add after recovery, again");
    add_all(want, 7);
    check_values(r, s.shadow, want, "shadow: the add kernel after recovery, twice");
    HL_CHECK_OK(hl_storage_buffer_info_get(r, s.shadow, &info));
    HL_CHECK(info.shadow_stale);
    /* a kernel made after the recovery from the shader kept across it */
    HL_CHECK_OK(make_kernel(r, map_sh, &s.map_new));

    /* REINITIALIZE: every buffer is lost; none of its uses goes through, nothing is written */
    check_lost(r, s.ra, "ra after recovery");
    check_lost(r, s.rb, "rb after recovery");
    check_lost(r, s.rc, "rc after recovery");
    check_lost(r, s.rd, "rd after recovery");
    HL_CHECK_OK(hl_storage_buffer_info_get(r, s.ra, &info));
    HL_CHECK_MSG(!info.shadow_stale && !info.writes_pending, "ra after recovery: stale %d, pending %d", info.shadow_stale,
                 info.writes_pending);
    check_frame_lost(r, &s, M_READ_ONLY, stage, cam, "ra as a read-only binding");
    check_frame_lost(r, &s, M_PARTIAL_RW, stage, cam, "ra as a read-write binding without overwrite");
    check_frame_lost(r, &s, M_INDIRECT, stage, cam, "ra as indirect arguments");
    HL_CHECK(strstr(hl_last_error(), "indirect arguments") != NULL);
    check_frame_lost(r, &s, M_COPY_SRC, stage, cam, "ra as a copy source");
    check_values(r, s.scratch, zeros, "scratch after the refused frames");
    render_ok(r, &s, M_NONE, stage, cam, "an empty frame");
    check_lost(r, s.ra, "ra after an empty frame");
    /* a partial CPU write does not make it whole; a whole one does */
    uint32_t head[4] = {1, 2, 3, 4};
    HL_CHECK_OK(hl_storage_buffer_write(r, s.ra, 0, head, sizeof head));
    check_lost(r, s.ra, "ra after a partial CPU write");
    for (uint32_t i = 0; i < N; i++) want[i] = 100000u + i;
    HL_CHECK_OK(hl_storage_buffer_write(r, s.ra, 0, want, N * 4));
    check_values(r, s.ra, want, "ra after a whole CPU write");
    render_ok(r, &s, M_READ_ONLY, stage, cam, "ra as a read-only binding once whole");
    for (uint32_t i = 0; i < N; i++) want[i] = want[i] * 2u + 1u;
    check_values(r, s.scratch, want, "scratch = ra * 2 + 1");

    /* rb: a partial CPU write, a refused overwrite pass and a failed frame leave it lost */
    HL_CHECK_OK(hl_storage_buffer_write(r, s.rb, 64, head, sizeof head));
    check_lost(r, s.rb, "rb after a partial CPU write");
    render_ok(r, &s, M_OVERWRITE_REFUSED, stage, cam, "a refused overwrite pass");
    HL_CHECK_MSG(s.refused == HL_ERR_VALIDATION && strstr(s.refused_msg, "0 x 1 x 1 workgroups"), "refused: %s '%s'",
                 hl_result_name(s.refused), s.refused_msg);
    check_lost(r, s.rb, "rb after a refused overwrite pass");
    s.m = M_OVERWRITE_FAIL;
    HL_CHECK_RESULT(hl_renderer_render(r, stage, cam), HL_ERR_VALIDATION);
    s.m = M_NONE;
    check_lost(r, s.rb, "rb after a failed frame that overwrote it");
    /* full writers: overwrite pass (read after it in its own frame), whole clear, whole copy */
    render_ok(r, &s, M_RESTORE, stage, cam, "full writers");
    for (uint32_t i = 0; i < N; i++) want[i] = src[i] * 3u + 2u;
    check_values(r, s.rb, want, "rb = src * 3 + 2 (overwrite pass)");
    add_all(want, 1);
    check_values(r, s.scratch, want, "scratch = rb + 1 in rb's restoring frame");
    check_values(r, s.rc, zeros, "rc cleared whole");
    check_values(r, s.rd, src, "rd = src (whole copy)");

    /* a second loss, recovered by the render call itself: the CPU copies again */
    HL_CHECK_OK(hl_renderer_simulate_device_loss(r));
    s.add_value = 5;
    render_ok(r, &s, M_ADD_SHADOW, stage, cam, "add in the frame that recovers");
    HL_CHECK_EQ(hl_renderer_stats(r)->device_generation, 3);
    HL_CHECK_EQ(hl_renderer_stats(r)->device_recoveries, 2);
    memcpy(want, base, sizeof want);
    add_all(want, 5);
    check_values(r, s.shadow, want, "shadow after the second loss and an add");
    check_lost(r, s.ra, "ra after the second loss (whole again before it)");
    check_lost(r, s.rb, "rb after the second loss");
out:
    hl_stage_destroy(stage);
    hl_renderer_destroy(r); /* kernels, the kept shader and the buffers left to it */
}

/* ---- a storage shader across a loss -------------------------------------------------------------------- */
enum { W = 29, H = 19, RECTS = 5 };

typedef struct rect {
    float bounds[4]; /* pixels: x0, y0, x1, y1 */
    float color[4];  /* k/255 */
} rect;

static const char *k_vs =
    "#version 310 es\n"
    "struct Rect { vec4 bounds; vec4 color; };\n"
    "layout(std430) readonly buffer Rects { Rect rects[]; };\n"
    "layout(std140) uniform Params { vec4 size; };\n"
    "out vec4 v_color;\n"
    "void main() {\n"
    "    Rect q = rects[gl_InstanceID];\n"
    "    int c = gl_VertexID % 6;\n"
    "    bool right = c == 1 || c == 4 || c == 5, bottom = c == 2 || c == 3 || c == 5;\n"
    "    vec2 px = vec2(right ? q.bounds.z : q.bounds.x, bottom ? q.bounds.w : q.bounds.y);\n"
    "    gl_Position = vec4(px.x / size.x * 2.0 - 1.0, 1.0 - px.y / size.y * 2.0, 0.5, 1.0);\n"
    "    v_color = q.color;\n"
    "}\n";
static const char *k_fs = "#version 310 es\n"
                          "precision highp float;\n"
                          "in vec4 v_color;\n"
                          "out vec4 o_color;\n"
                          "void main() { o_color = v_color; }\n";

static hl_result draw_record(hl_pipeline_context ctx, st *s) {
    hl_pipeline_texture img;
    hl_pipeline_buffer rects;
    hl_result res = hl_pipeline_import_render_target(ctx, s->target, 0, &img);
    if (!res) res = import(ctx, s->draw_lost ? s->rects_lost : s->rects, &rects);
    if (res) return res;
    float size[4] = {W, H, 0, 0};
    hl_pipeline_gpu_draw_pass_desc g = {0};
    g.name = "rects";
    g.shader = s->rect_shader;
    g.buffers[0] = (hl_pipeline_storage_binding){"Rects", rects, 0, 0};
    g.buffer_count = 1;
    g.params = size;
    g.params_size = sizeof size;
    g.color[0] = img;
    g.color_count = 1;
    g.clear_color[0] = 0.2f;
    g.clear_color[3] = 1.0f;
    g.count = 6;
    g.instance_count = RECTS;
    return hl_pipeline_add_gpu_draw_pass(ctx, &g);
}

/* The CPU's image: cleared to (51, 0, 0, 255), then the rects opaque in instance order over the
 * pixels whose centres they cover. */
static void rects_reference(const rect *q, uint8_t *img) {
    for (uint32_t i = 0; i < W * H; i++) img[i * 4 + 0] = 51, img[i * 4 + 1] = 0, img[i * 4 + 2] = 0, img[i * 4 + 3] = 255;
    for (uint32_t k = 0; k < RECTS; k++)
        for (uint32_t y = 0; y < H; y++)
            for (uint32_t x = 0; x < W; x++) {
                float cx = x + 0.5f, cy = y + 0.5f;
                if (cx < q[k].bounds[0] || cx >= q[k].bounds[2] || cy < q[k].bounds[1] || cy >= q[k].bounds[3]) continue;
                for (int c = 0; c < 4; c++) img[(y * W + x) * 4 + c] = (uint8_t)(q[k].color[c] * 255.0f + 0.5f);
            }
}

static int max_diff(const uint8_t *a, const uint8_t *b, size_t n) {
    int worst = 0;
    for (size_t i = 0; i < n; i++) worst = abs(a[i] - b[i]) > worst ? abs(a[i] - b[i]) : worst;
    return worst;
}

static bool draw_read(hl_renderer *r, st *s, hl_stage *stage, hl_camera *cam, uint8_t *img, const char *what) {
    s->m = M_DRAW;
    hl_result res = hl_renderer_render(r, stage, cam);
    HL_CHECK_MSG(res == HL_OK, "%s: %s", what, res ? hl_last_error() : "");
    if (!res) HL_CHECK_OK(res = hl_render_target_read(r, s->target, 0, img, W * H * 4));
    return !res;
}

static void test_draw(void) {
    printf("storage shader\n");
    st s;
    memset(&s, 0, sizeof s);
    hl_test_runtime rt = {"device-loss-draw", record, &s};
    hl_pipeline_factory f;
    hl_test_runtime_factory(&rt, &f);
    hl_renderer *r = make_renderer_with(16, 16, 1, &f);
    hl_stage *stage = NULL;
    HL_CHECK_OK(hl_stage_create(&stage));
    hl_camera *cam = stage ? front_camera(stage) : NULL;
    if (!r || !cam) goto out;
    rect q[RECTS] = {
        {{0, 0, 12, 9}, {1, 0, 0, 1}},
        {{8, 4, 22, 15}, {0, 1, 0, 1}},
        {{3, 11, 29, 19}, {0, 0, 1, 1}},
        {{20, 1, 27, 7}, {128 / 255.0f, 64 / 255.0f, 32 / 255.0f, 1}},
        {{14, 8, 17, 18}, {1, 1, 1, 200 / 255.0f}},
    };
    hl_render_target_desc td = {W, H, 1, {HL_TARGET_RGBA8}, 1, true, {0, 0, 0, 0}, "rects"};
    HL_CHECK_OK(hl_render_target_create(r, &td, &s.target));
    hl_storage_shader_desc sd = {k_vs, k_fs, "rects"};
    hl_result sr = hl_storage_shader_create(r, &sd, &s.rect_shader);
    HL_CHECK_MSG(sr == HL_OK, "%s", hl_last_error());
    hl_storage_buffer_desc bd = {sizeof q, 0, HL_STORAGE_RECOVERY_CPU_SHADOW, q, "rects"};
    HL_CHECK_OK(hl_storage_buffer_create(r, &bd, &s.rects));
    bd.recovery = HL_STORAGE_RECOVERY_REINITIALIZE, bd.label = "rects (reinitialize)";
    HL_CHECK_OK(hl_storage_buffer_create(r, &bd, &s.rects_lost));
    if (!s.target || !s.rect_shader || !s.rects || !s.rects_lost) goto out;
    /* the CPU patches rect 1's colour before the first frame: the CPU copy holds it */
    const float yellow[4] = {1, 1, 0, 1};
    memcpy(q[1].color, yellow, sizeof yellow);
    HL_CHECK_OK(hl_storage_buffer_write(r, s.rects, sizeof(rect) + 16, yellow, sizeof yellow));
    static uint8_t before[W * H * 4], after[W * H * 4], want[W * H * 4];
    rects_reference(q, want);
    if (!draw_read(r, &s, stage, cam, before, "draw before the loss")) goto out;
    int d = max_diff(before, want, sizeof want);
    HL_CHECK_MSG(d == 0, "draw before the loss: %d/255 from the CPU reference", d);

    HL_CHECK_OK(hl_renderer_simulate_device_loss(r));
    memset(after, 0, sizeof after);
    if (draw_read(r, &s, stage, cam, after, "draw in the frame that recovers")) {
        d = max_diff(before, after, sizeof after);
        printf("  after recovery: max difference %d/255\n", d);
        HL_CHECK_MSG(d == 0, "the draw after recovery differs by %d/255", d);
    }
    HL_CHECK_EQ(hl_renderer_stats(r)->device_generation, 2);
    /* drawing from a lost REINITIALIZE buffer fails the frame until a whole CPU write */
    s.draw_lost = true;
    s.m = M_DRAW;
    hl_result res = hl_renderer_render(r, stage, cam);
    HL_CHECK_MSG(res == HL_ERR_INVALID_STATE && strstr(hl_last_error(), k_lost_text), "draw from a lost buffer: %s '%s'",
                 hl_result_name(res), res ? hl_last_error() : "");
    HL_CHECK_OK(hl_storage_buffer_write(r, s.rects_lost, 0, q, sizeof q));
    memset(after, 0, sizeof after);
    if (draw_read(r, &s, stage, cam, after, "draw from the buffer written whole")) {
        d = max_diff(before, after, sizeof after);
        HL_CHECK_MSG(d == 0, "the draw from the rewritten buffer differs by %d/255", d);
    }
out:
    hl_stage_destroy(stage);
    hl_renderer_destroy(r);
}

/* ---- hl_renderer_release_gpu_resources ------------------------------------------------------------------ */
static void test_release(void) {
    printf("release\n");
    st s;
    memset(&s, 0, sizeof s);
    hl_test_runtime rt = {"device-loss-release", record, &s};
    hl_pipeline_factory f;
    hl_test_runtime_factory(&rt, &f);
    hl_renderer *r = make_renderer_with(16, 16, 1, &f);
    hl_stage *stage = NULL;
    HL_CHECK_OK(hl_stage_create(&stage));
    hl_camera *cam = stage ? front_camera(stage) : NULL;
    if (!r || !cam) goto out;
    static uint32_t base[N], ra_init[N], want[N];
    for (uint32_t i = 0; i < N; i++) base[i] = 3u * i + 1u, ra_init[i] = 11u * i;
    hl_storage_buffer_desc d = {N * 4, 0, HL_STORAGE_RECOVERY_REINITIALIZE, ra_init, "fresh"};
    hl_storage_buffer *fresh = NULL;
    HL_CHECK_OK(hl_storage_buffer_create(r, &d, &fresh));
    /* released before the renderer's first frame: lost all the same */
    HL_CHECK_OK(hl_renderer_release_gpu_resources(r));
    if (fresh) check_lost(r, fresh, "a buffer released before any frame");

    d.label = "ra";
    HL_CHECK_OK(hl_storage_buffer_create(r, &d, &s.ra));
    d.recovery = HL_STORAGE_RECOVERY_CPU_SHADOW, d.initial_data = base, d.label = "shadow";
    HL_CHECK_OK(hl_storage_buffer_create(r, &d, &s.shadow));
    hl_compute_shader *sh = NULL;
    HL_CHECK_OK(make_shader(r, k_add, k_add_abi, 2, &sh));
    HL_CHECK_OK(make_kernel(r, sh, &s.add));
    HL_CHECK_OK(hl_compute_shader_destroy(r, sh));
    if (!s.ra || !s.shadow || !s.add) goto out;
    uint32_t part[8];
    for (uint32_t i = 0; i < 8; i++) part[i] = base[100 + i] = 777u + i;
    HL_CHECK_OK(hl_storage_buffer_write(r, s.shadow, 400, part, sizeof part));
    /* + 9 to shadow, then to ra (M_PARTIAL_RW adds to ra) */
    s.add_value = 9;
    render_ok(r, &s, M_ADD_SHADOW, stage, cam, "add to shadow");
    memcpy(want, base, sizeof want);
    add_all(want, 9);
    check_values(r, s.shadow, want, "shadow before the release");
    render_ok(r, &s, M_PARTIAL_RW, stage, cam, "add to ra");
    memcpy(want, ra_init, sizeof want);
    add_all(want, 9);
    check_values(r, s.ra, want, "ra before the release");

    /* refused while a read is pending */
    HL_CHECK_OK(hl_storage_buffer_read(r, s.shadow, 0, 16));
    HL_CHECK_RESULT(hl_renderer_release_gpu_resources(r), HL_ERR_INVALID_STATE);
    uint32_t got[4];
    HL_CHECK_OK(hl_storage_buffer_read_wait(r, got, sizeof got, 0));
    HL_CHECK_OK(hl_renderer_release_gpu_resources(r));
    HL_CHECK(!hl_renderer_device_lost(r));
    check_values(r, s.shadow, base, "shadow after the release: the CPU copy");
    hl_storage_buffer_info info;
    HL_CHECK_OK(hl_storage_buffer_info_get(r, s.shadow, &info));
    HL_CHECK(!info.shadow_stale);
    check_lost(r, s.ra, "ra after the release");
    check_frame_lost(r, &s, M_PARTIAL_RW, stage, cam, "ra after the release as a read-write binding");
    render_ok(r, &s, M_ADD_SHADOW, stage, cam, "add after the release");
    memcpy(want, base, sizeof want);
    add_all(want, 9);
    check_values(r, s.shadow, want, "shadow: the add kernel after the release");
    for (uint32_t i = 0; i < N; i++) want[i] = 42u * i;
    HL_CHECK_OK(hl_storage_buffer_write(r, s.ra, 0, want, N * 4));
    check_values(r, s.ra, want, "ra written whole after the release");
    HL_CHECK_EQ(hl_renderer_stats(r)->device_generation, 1);
    HL_CHECK_EQ(hl_renderer_stats(r)->device_recoveries, 0);
out:
    hl_stage_destroy(stage);
    hl_renderer_destroy(r);
}

/* ---- gles3 --------------------------------------------------------------------------------------------- */
static void check_refused(hl_renderer *r, const char *when) {
    hl_storage_buffer *b = NULL;
    hl_storage_buffer_desc d = {64, 0, HL_STORAGE_RECOVERY_CPU_SHADOW, NULL, "x"};
    hl_result res = hl_storage_buffer_create(r, &d, &b);
    HL_CHECK_MSG(res == HL_ERR_UNSUPPORTED && b == NULL && strstr(hl_last_error(), "gles3 backend"), "%s: create -> %s '%s'",
                 when, hl_result_name(res), hl_last_error());
    hl_storage_buffer *fake = (hl_storage_buffer *)&d;
    uint32_t v[4] = {0};
    bool done;
    HL_CHECK_RESULT(hl_storage_buffer_write(r, fake, 0, v, 4), HL_ERR_UNSUPPORTED);
    HL_CHECK_RESULT(hl_storage_buffer_read(r, fake, 0, 4), HL_ERR_UNSUPPORTED);
    HL_CHECK_RESULT(hl_storage_buffer_read_poll(r, &done), HL_ERR_UNSUPPORTED);
    HL_CHECK_RESULT(hl_storage_buffer_read_wait(r, v, sizeof v, 0), HL_ERR_UNSUPPORTED);
    HL_CHECK_RESULT(hl_storage_buffer_destroy(r, fake), HL_ERR_UNSUPPORTED);
    hl_compute_shader *cs = NULL;
    HL_CHECK_RESULT(make_shader(r, k_add, k_add_abi, 2, &cs), HL_ERR_UNSUPPORTED);
    hl_compute_kernel *k = NULL;
    HL_CHECK_RESULT(make_kernel(r, (hl_compute_shader *)&d, &k), HL_ERR_UNSUPPORTED);
    hl_storage_shader *ss = NULL;
    hl_storage_shader_desc sd = {k_vs, k_fs, "rects"};
    HL_CHECK_RESULT(hl_storage_shader_create(r, &sd, &ss), HL_ERR_UNSUPPORTED);
    HL_CHECK(cs == NULL && k == NULL && ss == NULL);
}

static void test_gles3(void) {
    printf("gles3\n");
    enum { S = 24 };
    hl_renderer *r = make_renderer(S, S, 1);
    hl_stage *stage = NULL;
    HL_CHECK_OK(hl_stage_create(&stage));
    hl_camera *cam = stage ? front_camera(stage) : NULL;
    hl_geometry *g = plane(1.0f, 1.0f);
    hl_material *m = basic(1.0f, 0.5f, 0.0f, 1.0f);
    if (!r || !cam || !g || !m) goto out;
    add_mesh(stage, g, m, (hl_vec3){0, 0, 0});
    static uint8_t before[S * S * 4], after[S * S * 4];
    check_refused(r, "before the loss");
    if (!render_read(r, stage, cam, before, sizeof before)) goto out;
    /* the plane covers the centre: orange there, not at the corner */
    const uint8_t *c = before + ((S / 2) * S + S / 2) * 4;
    HL_CHECK_PIXEL(c, 255, srgb_byte(0.5f), 0, 255, 1);
    HL_CHECK(memcmp(before, c, 4) != 0);
    HL_CHECK_OK(hl_renderer_simulate_device_loss(r));
    HL_CHECK(hl_renderer_device_lost(r));
    check_refused(r, "while lost"); /* the backend is known: refused before the device is asked */
    memset(after, 0, sizeof after);
    if (render_read(r, stage, cam, after, sizeof after)) {
        int d = max_diff(before, after, sizeof after);
        printf("  after recovery: max difference %d/255\n", d);
        HL_CHECK_MSG(d == 0, "gles3: the image after recovery differs by %d/255", d);
    }
    HL_CHECK_EQ(hl_renderer_stats(r)->device_generation, 2);
    check_refused(r, "after recovery");
out:
    hl_material_release(m);
    hl_geometry_release(g);
    hl_stage_destroy(stage);
    hl_renderer_destroy(r);
}

int main(int argc, char **argv) {
    hl_backend be = backend_of(argc, argv);
    if (be == HL_BACKEND_GLES3) test_gles3();
    else {
        test_losses();
        test_draw();
        test_release();
    }
    return hl_test_finish();
}
