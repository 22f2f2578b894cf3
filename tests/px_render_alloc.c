/* Renderer steady-state allocations: the demo scene (every feature: shadows from a
 * directional and a spot light, PBR, a texture, transparent panes, 300 instanced cubes) at
 * 160 x 90, 4x MSAA. After 4 warm-up frames (caches, high-water arrays and GPU mirrors
 * filled), 8 more frames with the box moving each frame (so object uploads and the shadow
 * plan change) must not call hl__malloc / hl__calloc / hl__realloc: hl_alloc_count() is
 * unchanged (target and bound: 0 allocations per frame). The same again for frames of two
 * views (a render target and the output) through hl_renderer_render_frame. And for a churned grid
 * whose new meshes come at addresses never seen (the removed ones kept alive): no allocation
 * after the warm-up, and the removed meshes put back draw what a new renderer draws; and for 200
 * frames of a churned 1,000-mesh grid (no allocation after frame 20). Allocations inside the GPU drivers
 * and Dawn are not counted (they do not go through hl__malloc). An allocation in a counted
 * render prints its size and call stack (glibc's backtrace; resolve the offsets with
 * addr2line), so a failure on another machine says where it came from. The long churn's new
 * meshes take the removed ones' memory except in frame 5 and frames 100-129 (new addresses
 * only, through the hook): the renderer's records must not depend on which (they did: the
 * test failed in 3 runs of 8 on NVIDIA's GL driver, where the C library's reuse varied). */
#include <stdio.h>
#include <string.h>

#include "hilo3d/renderer.h"
#include "hl_scene_demo.h"
#include "hl_test.h"
#include "hl_test_alloc.h"

typedef struct frame_ctx {
    hl_render_target *t;
    hl_scene_demo *demo;
} frame_ctx;

static hl_result two_views(hl_render_frame *f, void *user) {
    frame_ctx *c = user;
    hl_result res = hl_render_frame_render_to_target(f, c->t, c->demo->stage, c->demo->camera);
    if (!res) res = hl_render_frame_render(f, c->demo->stage, c->demo->camera);
    return res;
}

int main(int argc, char **argv) {
    hl_test_alloc_install("px_render_alloc");
    hl_backend be = hl_test_backend_arg(argc, argv, HL_RHI_BACKEND_WEBGPU) == HL_RHI_BACKEND_GLES3 ? HL_BACKEND_GLES3
                                                                                                : HL_BACKEND_WEBGPU;
    hl_renderer_desc rd = {0};
    rd.backend = be;
    rd.width = 160;
    rd.height = 90;
    rd.sample_count = 4;
    hl_renderer *r = NULL;
    HL_CHECK_OK(hl_renderer_create(&rd, &r));
    if (!r) return hl_test_finish();
    hl_scene_demo demo;
    HL_CHECK_OK(hl_scene_demo_create(16.0f / 9.0f, &demo));
    for (int i = 0; i < 4; i++) HL_CHECK_OK(hl_renderer_render(r, demo.stage, demo.camera));
    uint64_t before = hl_alloc_count();
    enum { FRAMES = 8 };
    hl_test_alloc_trace(true);
    for (int i = 0; i < FRAMES; i++) {
        hl_node_set_translation(hl_mesh_node(demo.box), (hl_vec3){4.3f, 0.6f + 0.05f * (float)i, -0.5f});
        HL_CHECK_OK(hl_renderer_render(r, demo.stage, demo.camera));
    }
    HL_CHECK_OK(hl_renderer_wait_idle(r));
    hl_test_alloc_trace(false);
    uint64_t after = hl_alloc_count();
    printf("%s: %llu allocations over %d steady-state frames (%.2f per frame)\n", hl_backend_name(be),
           (unsigned long long)(after - before), FRAMES, (double)(after - before) / FRAMES);
    HL_CHECK_EQ(after - before, 0);

    /* the same through hl_renderer_render_frame: the scene into a target, then into the
       output (two views, one submission) */
    hl_render_target *t = NULL;
    HL_CHECK_OK(hl_render_target_create(r, NULL, &t));
    frame_ctx fc = {t, &demo};
    for (int i = 0; i < 4; i++) HL_CHECK_OK(hl_renderer_render_frame(r, two_views, &fc));
    before = hl_alloc_count();
    hl_test_alloc_trace(true);
    for (int i = 0; i < FRAMES; i++) {
        hl_node_set_translation(hl_mesh_node(demo.box), (hl_vec3){4.3f, 0.6f + 0.05f * (float)i, -0.5f});
        HL_CHECK_OK(hl_renderer_render_frame(r, two_views, &fc));
    }
    HL_CHECK_OK(hl_renderer_wait_idle(r));
    hl_test_alloc_trace(false);
    after = hl_alloc_count();
    printf("%s: %llu allocations over %d steady-state render_frame frames (2 views each)\n", hl_backend_name(be),
           (unsigned long long)(after - before), FRAMES);
    HL_CHECK_EQ(after - before, 0);
    hl_render_target_destroy(r, t);

    /* churn whose new meshes come at addresses the renderer has never seen (the removed ones are
       kept alive, detached): each new mesh takes the record of one removed two frames before
       (render_resources.c spare_from_stale, up to 64 a walk: the 80 new meshes of a frame need
       two walks), so after the warm-up no frame allocates; then the
       removed meshes come back (their records gone to others) and the image equals a new
       renderer's of the same stage */
    enum { GRID = 400, SWAP = 80, WARM = 12, CHURN = 24 };
    hl_stage *gs = NULL;
    hl_camera *gc = NULL;
    HL_CHECK_OK(hl_scene_grid_create(GRID, 8, &gs, &gc));
    HL_CHECK_OK(hl_stage_update(gs));
    hl_mesh *grid[GRID], *kept[(WARM + CHURN) * SWAP];
    uint32_t kept_count = 0, count = 0;
    hl_mesh *const *gm = hl_stage_meshes(gs, &count);
    HL_CHECK_EQ(count, GRID);
    memcpy(grid, gm, sizeof grid);
    uint64_t in_render = 0; /* the application's mesh creation allocates too: only the renders count */
    for (int f = 0; f < WARM + CHURN; f++) {
        for (int j = 0; j < SWAP; j++) {
            uint32_t i = (uint32_t)(f * 97 + j * 101) % GRID;
            hl_mesh_desc md = {0};
            md.geometry = hl_mesh_geometry(grid[i]);
            md.material = hl_mesh_material(grid[i]);
            hl_mesh *nm = NULL;
            HL_CHECK_OK(hl_mesh_create(&md, &nm));
            hl_node_set_translation(hl_mesh_node(nm), hl_node_translation(hl_mesh_node(grid[i])));
            HL_CHECK_OK(hl_node_remove_child(hl_stage_root(gs), hl_mesh_node(grid[i])));
            kept[kept_count++] = grid[i];
            grid[i] = nm;
            HL_CHECK_OK(hl_stage_add(gs, hl_mesh_node(nm)));
        }
        before = hl_alloc_count();
        hl_test_alloc_trace(f >= WARM);
        HL_CHECK_OK(hl_renderer_render(r, gs, gc));
        hl_test_alloc_trace(false);
        if (f >= WARM) in_render += hl_alloc_count() - before;
        /* each frame finished before the next: the bundles the churn replaces come back to the
           RHI's free arrays at once, whatever the GPU's pace (their high water is not this test's) */
        HL_CHECK_OK(hl_renderer_wait_idle(r));
    }
    printf("%s: %llu allocations in the renders of %d churned frames (%d meshes of %d new at unseen addresses each)\n",
           hl_backend_name(be), (unsigned long long)in_render, CHURN, SWAP, GRID);
    HL_CHECK_EQ(in_render, 0);
    for (int j = 0; j < SWAP; j++) { /* the first ones removed, back in place of their successors */
        hl_mesh *back = kept[j];
        uint32_t i = (uint32_t)(j * 101) % GRID;
        HL_CHECK_OK(hl_node_remove_child(hl_stage_root(gs), hl_mesh_node(grid[i])));
        kept[j] = grid[i];
        grid[i] = back;
        HL_CHECK_OK(hl_stage_add(gs, hl_mesh_node(back)));
    }
    static uint8_t img[160 * 90 * 4], fresh[160 * 90 * 4];
    HL_CHECK_OK(hl_renderer_render(r, gs, gc));
    HL_CHECK_OK(hl_renderer_read_pixels(r, img, sizeof img));
    hl_renderer *r2 = NULL;
    HL_CHECK_OK(hl_renderer_create(&rd, &r2));
    HL_CHECK_OK(hl_renderer_render(r2, gs, gc));
    HL_CHECK_OK(hl_renderer_read_pixels(r2, fresh, sizeof fresh));
    int worst = 0;
    for (size_t i = 0; i < sizeof img; i++) {
        int d = img[i] > fresh[i] ? img[i] - fresh[i] : fresh[i] - img[i];
        if (d > worst) worst = d;
    }
    HL_CHECK_MSG(worst == 0, "after churn the image differs from a new renderer's by %d", worst);
    hl_renderer_destroy(r2);
    for (uint32_t k = 0; k < kept_count; k++) hl_node_destroy(hl_mesh_node(kept[k]));
    hl_stage_destroy(gs);

    hl_scene_demo_destroy(&demo);
    hl_renderer_destroy(r);

    /* long churn of a 1,000-mesh grid of 100 materials (scene_draws' churn at 1k): 10 meshes
       destroyed and 10 new ones a frame for 200 frames, bundles re-recorded at chunk sizes that
       drift (a chunk larger than any before came first in frame 74 here: its bundle's arrays
       were of a size class the free arrays could not serve), eviction's passes at frames 60, 120
       and 180 giving records and slots back: no allocation in the renders after frame 20 */
    enum { LONG_GRID = 1000, LONG_SWAP = 10, LONG_WARM = 20, LONG_FRAMES = 200 };
    hl_renderer_desc rl = rd;
    rl.width = 64;
    rl.height = 36;
    rl.sample_count = 1;
    HL_CHECK_OK(hl_renderer_create(&rl, &r));
    HL_CHECK_OK(hl_scene_grid_create(LONG_GRID, 100, &gs, &gc));
    HL_CHECK_OK(hl_stage_update(gs));
    static hl_mesh *lg[LONG_GRID];
    gm = hl_stage_meshes(gs, &count);
    HL_CHECK_EQ(count, LONG_GRID);
    memcpy(lg, gm, sizeof lg);
    uint64_t long_allocs = 0;
    for (uint32_t f = 0; r && f < LONG_FRAMES; f++) {
        /* the new meshes take the removed ones' memory (the C library reuses it at once),
           except in frame 5 of the warm-up and frames 100-129, which get new addresses only:
           the records wanted must not depend on which (keyed by address alone, a new mesh at a
           removed one's address took that record at once, and the unseen addresses of frames
           100-129 wanted more records at once than the warm-up ever had) */
        if (f == 5 || f == 100) hl_test_alloc_hold_frees(true);
        if (f == 6 || f == 130) hl_test_alloc_hold_frees(false);
        for (uint32_t j = 0; j < LONG_SWAP; j++) {
            uint32_t i = (uint32_t)(((uint64_t)f * 7919u + (uint64_t)j * 104729u) % LONG_GRID);
            hl_mesh_desc md = {0};
            md.geometry = hl_mesh_geometry(lg[i]);
            md.material = hl_mesh_material(lg[i]);
            hl_vec3 at = hl_node_translation(hl_mesh_node(lg[i]));
            hl_mesh *nm = NULL;
            HL_CHECK_OK(hl_mesh_create(&md, &nm));
            hl_node_destroy(hl_mesh_node(lg[i]));
            hl_node_set_translation(hl_mesh_node(nm), at);
            HL_CHECK_OK(hl_stage_add(gs, hl_mesh_node(nm)));
            lg[i] = nm;
        }
        before = hl_alloc_count();
        hl_test_alloc_trace(f >= LONG_WARM);
        HL_CHECK_OK(hl_renderer_render(r, gs, gc));
        hl_test_alloc_trace(false);
        if (f >= LONG_WARM) {
            if (hl_alloc_count() != before) fprintf(stderr, "px_render_alloc: (long churn, frame %u)\n", f);
            long_allocs += hl_alloc_count() - before;
        }
        HL_CHECK_OK(hl_renderer_wait_idle(r));
    }
    printf("%s: %llu allocations in the renders of %d churned frames of a %d-mesh grid (%d new a frame)\n",
           hl_backend_name(be), (unsigned long long)long_allocs, LONG_FRAMES - LONG_WARM, LONG_GRID, LONG_SWAP);
    HL_CHECK_EQ(long_allocs, 0);
    hl_stage_destroy(gs);
    hl_renderer_destroy(r);
    return hl_test_finish();
}
