/* bench/graph_compile: the render graph's CPU cost and memory figures on the null backend.
 *
 *   graph_compile [--json] [--frames F]
 *
 * Synthetic graphs of 10, 100 and 1,000 render passes (pass i samples the outputs of passes
 * i-1 and i-4 and renders into its own 256x256 RGBA8 target; every 10th pass renders a target
 * nobody reads and is culled): per pass, the time to build, compile and execute (execute on
 * the null backend: pool, imports, begin/end of every render pass, submission), the same
 * frame recorded straight on the RHI (raw: begin_frame, one begin/end render pass per live
 * pass on pre-made targets, end_frame) and the ratio; heap allocations per steady-state frame
 * (target 0). Then the typical deferred frame at 1920x1080 (G-buffer with 3 targets + depth,
 * lighting, 5-level bloom, tone map, output): transient bytes without reuse, with the reuse
 * the executor does, the offset planner's heap and the lower bound.
 * One JSON line per case with --json, a readable line otherwise. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hl_graph.h"
#include "hl_rhi.h"

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

#define TRY(expr)                                                                                    \
    do {                                                                                             \
        hl_result r_ = (expr);                                                                       \
        if (r_) {                                                                                    \
            fprintf(stderr, "graph_compile: %s: %s: %s\n", #expr, hl_result_name(r_), hl_last_error()); \
            exit(1);                                                                                 \
        }                                                                                            \
    } while (0)

enum { SIDE = 256, MAX_PASSES = 1000 };

static hl_graph_texture g_out[MAX_PASSES];

static void build_synthetic(hl_graph *g, uint32_t n) {
    static char names[MAX_PASSES][16];
    hl_graph_begin(g);
    hl_rhi_texture_desc d = {0};
    d.format = HL_RHI_FORMAT_RGBA8_UNORM;
    d.width = d.height = SIDE;
    for (uint32_t i = 0; i < n; i++) {
        if (!names[i][0]) snprintf(names[i], sizeof(names[i]), "pass%u", i);
        g_out[i] = hl_graph_create_texture(g, &d, names[i]);
        hl_graph_texture reads[2] = {{0}, {0}};
        uint32_t nr = 0;
        bool dead = i % 10 == 9 && i + 1 < n;
        if (!dead) {
            /* read the latest live outputs before this one */
            for (uint32_t back = 1; back <= i && nr < 1; back++)
                if (!((i - back) % 10 == 9)) reads[nr++] = g_out[i - back];
            if (i >= 4 && (i - 4) % 10 != 9) reads[nr++] = g_out[i - 4];
        }
        hl_graph_add_synthetic_pass(g, names[i], reads, nr, &g_out[i], 1, (hl_graph_texture){0});
    }
    hl_graph_mark_output_texture(g, g_out[n - 1]);
}

typedef struct timing {
    double build, compile, execute, raw; /* ns per frame */
    double allocs;
    uint32_t culled, objects;
} timing;

static timing run_synthetic(hl_rhi_device *dev, uint32_t n, uint32_t frames) {
    hl_graph *g = NULL;
    hl_graph_desc gd = {0};
    gd.device = dev;
    TRY(hl_graph_create(&gd, &g));
    timing t = {0};
    for (uint32_t i = 0; i < 3; i++) { /* warm-up: arenas, pools, views reach their high water */
        build_synthetic(g, n);
        TRY(hl_graph_execute(g, NULL));
    }
    uint64_t allocs = hl_alloc_count();
    for (uint32_t f = 0; f < frames; f++) {
        uint64_t t0 = now_ns();
        build_synthetic(g, n);
        uint64_t t1 = now_ns();
        TRY(hl_graph_compile(g, NULL));
        uint64_t t2 = now_ns();
        TRY(hl_graph_execute(g, NULL));
        uint64_t t3 = now_ns();
        t.build += (double)(t1 - t0);
        t.compile += (double)(t2 - t1);
        t.execute += (double)(t3 - t2);
    }
    t.allocs = (double)(hl_alloc_count() - allocs) / frames;
    const hl_graph_stats *st = hl_graph_get_stats(g);
    t.culled = st->passes_culled;
    t.objects = st->transient_objects;
    uint32_t live = st->passes_total - st->passes_culled;
    hl_graph_destroy(g);

    /* raw: the same number of render passes on pre-made targets, straight on the RHI */
    enum { RAW_TARGETS = 8 };
    hl_rhi_texture tex[RAW_TARGETS];
    hl_rhi_texture_view view[RAW_TARGETS];
    hl_rhi_texture_desc d = {0};
    d.format = HL_RHI_FORMAT_RGBA8_UNORM;
    d.width = d.height = SIDE;
    d.usage = HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT | HL_RHI_TEXTURE_USAGE_SAMPLED;
    for (int i = 0; i < RAW_TARGETS; i++) {
        TRY(hl_rhi_texture_create(dev, &d, &tex[i]));
        TRY(hl_rhi_texture_view_create(dev, tex[i], NULL, &view[i]));
    }
    for (uint32_t f = 0; f < frames + 3; f++) {
        uint64_t t0 = now_ns();
        hl_rhi_cmd *cmd = NULL;
        TRY(hl_rhi_begin_frame(dev, &cmd));
        for (uint32_t p = 0; p < live; p++) {
            hl_rhi_color_attachment ca = {0};
            ca.view = view[p % RAW_TARGETS];
            hl_rhi_render_pass_desc rp = {0};
            rp.color_attachments = &ca;
            rp.color_attachment_count = 1;
            TRY(hl_rhi_cmd_begin_render_pass(cmd, &rp));
            TRY(hl_rhi_cmd_end_render_pass(cmd));
        }
        hl_rhi_submission s;
        TRY(hl_rhi_end_frame(dev, &s));
        if (f >= 3) t.raw += (double)(now_ns() - t0);
    }
    for (int i = 0; i < RAW_TARGETS; i++) hl_rhi_texture_destroy(dev, tex[i]);
    t.build /= frames;
    t.compile /= frames;
    t.execute /= frames;
    t.raw /= frames;
    return t;
}

static hl_result provide(void *user, hl_rhi_texture *out) {
    *out = *(hl_rhi_texture *)user;
    return HL_OK;
}

int main(int argc, char **argv) {
    bool json = false;
    uint32_t frames = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) json = true;
        else if (!strcmp(argv[i], "--frames") && i + 1 < argc) frames = (uint32_t)strtoul(argv[++i], NULL, 10);
        else {
            fprintf(stderr, "usage: graph_compile [--json] [--frames F]\n");
            return 2;
        }
    }
    hl_rhi_device_desc dd = {0};
    dd.backend = HL_RHI_BACKEND_NULL;
    hl_rhi_device *dev = NULL;
    TRY(hl_rhi_device_create(&dd, &dev));
    static const uint32_t sizes[3] = {10, 100, 1000};
    for (int k = 0; k < 3; k++) {
        uint32_t n = sizes[k];
        uint32_t f = frames ? frames : (n >= 1000 ? 50 : n >= 100 ? 300 : 2000);
        timing t = run_synthetic(dev, n, f);
        uint32_t live = n - t.culled;
        double total = t.build + t.compile + t.execute;
        if (json)
            printf("{\"bench\":\"graph_compile\",\"case\":\"synthetic\",\"passes\":%u,\"culled\":%u,\"transient_objects\":%u,"
                   "\"frames\":%u,\"build_ns_per_pass\":%.1f,\"compile_ns_per_pass\":%.1f,\"execute_ns_per_pass\":%.1f,"
                   "\"total_ns_per_pass\":%.1f,\"raw_rhi_ns_per_live_pass\":%.1f,\"ratio_execute_vs_raw\":%.2f,"
                   "\"ratio_total_vs_raw\":%.2f,\"allocs_per_frame\":%.2f}\n",
                   n, t.culled, t.objects, f, t.build / n, t.compile / n, t.execute / n, total / n, t.raw / live,
                   t.execute / t.raw, total / t.raw, t.allocs);
        else
            printf("synthetic %4u passes (%u culled, %u transient objects): build %.0f ns, compile %.0f ns, execute %.0f ns "
                   "per pass; raw RHI %.0f ns per live pass (execute x%.2f, total x%.2f); %.2f allocs/frame\n",
                   n, t.culled, t.objects, t.build / n, t.compile / n, t.execute / n, t.raw / live, t.execute / t.raw,
                   total / t.raw, t.allocs);
    }

    /* the typical deferred frame */
    hl_rhi_texture surface;
    hl_rhi_texture_desc sd = {0};
    sd.format = HL_RHI_FORMAT_RGBA8_UNORM;
    sd.width = 1920;
    sd.height = 1080;
    sd.usage = HL_RHI_TEXTURE_USAGE_RENDER_ATTACHMENT;
    TRY(hl_rhi_texture_create(dev, &sd, &surface));
    hl_graph *g = NULL;
    hl_graph_desc gd = {0};
    gd.device = dev;
    TRY(hl_graph_create(&gd, &g));
    uint32_t f = frames ? frames : 500;
    double ns = 0;
    uint64_t allocs = 0;
    for (uint32_t i = 0; i < f + 3; i++) {
        if (i == 3) allocs = hl_alloc_count();
        uint64_t t0 = now_ns();
        hl_graph_begin(g);
        TRY(hl_graph_build_example_deferred(g, 1920, 1080, provide, &surface, NULL));
        TRY(hl_graph_execute(g, NULL));
        if (i >= 3) ns += (double)(now_ns() - t0);
    }
    hl_graph_offset_plan(g);
    const hl_graph_stats *st = hl_graph_get_stats(g);
    double allocs_per_frame = (double)(hl_alloc_count() - allocs) / f;
    if (json)
        printf("{\"bench\":\"graph_compile\",\"case\":\"deferred\",\"width\":1920,\"height\":1080,\"passes\":%u,"
               "\"culled\":%u,\"transient_objects\":%u,\"bytes_without_reuse\":%llu,\"bytes_with_reuse\":%llu,"
               "\"bytes_offset_plan\":%llu,\"bytes_lower_bound\":%llu,\"frame_ns\":%.0f,\"allocs_per_frame\":%.2f}\n",
               st->passes_total, st->passes_culled, st->transient_objects, (unsigned long long)st->bytes_without_reuse,
               (unsigned long long)st->bytes_with_reuse, (unsigned long long)st->bytes_offset_plan,
               (unsigned long long)st->bytes_lower_bound, ns / f, allocs_per_frame);
    else
        printf("deferred 1920x1080: %u passes (%u culled), %u transient objects; bytes without reuse %llu, with reuse "
               "%llu, offset plan %llu, lower bound %llu; %.0f ns per frame (build+compile+execute), %.2f allocs/frame\n",
               st->passes_total, st->passes_culled, st->transient_objects, (unsigned long long)st->bytes_without_reuse,
               (unsigned long long)st->bytes_with_reuse, (unsigned long long)st->bytes_offset_plan,
               (unsigned long long)st->bytes_lower_bound, ns / f, allocs_per_frame);
    hl_graph_destroy(g);
    hl_rhi_texture_destroy(dev, surface);
    hl_rhi_device_destroy(dev);
    return 0;
}
