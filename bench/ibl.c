/* bench/ibl: image-based lighting costs (issue 10, environment.h).
 *
 *   ibl [--json] [--backend webgpu|gles3] [--size WxH] [--frames F]
 *
 * 1. Bake: a renderer already warm on the scene below without an environment is given one and
 *    renders one frame (hl_renderer_render + hl_renderer_wait_idle); that frame's extra wall
 *    time over the same frame without it is the bake (plus, for the renderer's first
 *    environment, its bake programs, the BRDF table and the IBL forward variants). Environments:
 *    the default studio (128 x 64, cube 128), then on the same renderer a generated 1024 x 512
 *    (cube 128) and 2048 x 1024 (cube 256) one: each a fresh bake with warm programs.
 * 2. Steady frames: 100 spheres (10 x 10, metallic and roughness varying) under one directional
 *    light, with and without the environment, alternating in blocks of 10 frames: CPU ms of the
 *    render call and, on webgpu with timestamp queries, GPU ms (medians over F frames each,
 *    default 120), and heap allocations per steady frame (allocator hook). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_draws.h"
#include "hilo3d/renderer.h"
#include "hl_base.h"

typedef struct scene {
    hl_stage *s;
    hl_camera *cam;
} scene;

static hl_result scene_create(float aspect, scene *out) {
    hl_result res = hl_stage_create(&out->s);
    hl_camera_desc cd = {0};
    cd.fov_y_deg = 40.0f;
    cd.aspect = aspect;
    cd.near_plane = 0.1f;
    cd.far_plane = 100.0f;
    if (!res) res = hl_camera_create(&cd, &out->cam);
    if (res) return res;
    hl_node_set_translation(hl_camera_node(out->cam), (hl_vec3){0, 6, 14});
    hl_node_look_at(hl_camera_node(out->cam), (hl_vec3){0, 0, 0}, (hl_vec3){0, 1, 0});
    hl_stage_add(out->s, hl_camera_node(out->cam));
    hl_sphere_desc sd = {0.4f, 48, 24};
    hl_geometry *g = NULL;
    if ((res = hl_geometry_create_sphere(&sd, &g))) return res;
    for (int i = 0; i < 100 && !res; i++) {
        hl_pbr_material_desc pd = {0};
        pd.base_color = (hl_color){0.9f, 0.6f + 0.003f * (float)i, 0.4f, 1};
        hl_material *m = NULL;
        if ((res = hl_material_create_pbr(&pd, &m))) break;
        hl_material_set_metallic_roughness(m, (float)(i % 10) / 9.0f, (float)(i / 10) / 9.0f);
        hl_mesh_desc md = {0};
        md.geometry = g;
        md.material = m;
        hl_mesh *mesh = NULL;
        if (!(res = hl_mesh_create(&md, &mesh))) {
            hl_node_set_translation(hl_mesh_node(mesh), (hl_vec3){(float)(i % 10) - 4.5f, 0, (float)(i / 10) - 4.5f});
            res = hl_stage_add(out->s, hl_mesh_node(mesh));
        }
        hl_material_release(m);
    }
    hl_geometry_release(g);
    hl_light_desc ld = {0};
    ld.kind = HL_LIGHT_DIRECTIONAL;
    ld.intensity = 2.0f;
    hl_light *l = NULL;
    if (!res) res = hl_light_create(&ld, &l);
    if (!res) {
        hl_node_set_translation(hl_light_node(l), (hl_vec3){3, 8, 4});
        hl_node_look_at(hl_light_node(l), (hl_vec3){0, 0, 0}, (hl_vec3){0, 1, 0});
        res = hl_stage_add(out->s, hl_light_node(l));
    }
    return res;
}

/* A smooth generated environment of w x h: a sky gradient and two bright lobes. */
static hl_environment *generated(uint32_t w, uint32_t h, uint32_t cube) {
    float *rgb = malloc((size_t)w * h * 3 * sizeof(float));
    if (!rgb) return NULL;
    for (uint32_t y = 0; y < h; y++) {
        float th = ((float)y + 0.5f) / (float)h * 3.14159265f;
        for (uint32_t x = 0; x < w; x++) {
            float ph = (((float)x + 0.5f) / (float)w - 0.5f) * 6.2831853f;
            float d[3] = {sinf(th) * cosf(ph), cosf(th), sinf(th) * sinf(ph)};
            float a = d[0] * 0.6f + d[1] * 0.8f, b = -d[2] * 0.8f + d[1] * 0.6f;
            for (int k = 0; k < 3; k++)
                rgb[((size_t)y * w + x) * 3 + k] = 0.2f + 0.3f * (d[1] + 1.0f) + 6.0f * powf(a > 0 ? a : 0, 64.0f) * (k == 0) +
                                                   3.0f * powf(b > 0 ? b : 0, 16.0f) * (k == 2);
        }
    }
    hl_environment_desc d = {0};
    d.width = w, d.height = h, d.rgb = rgb, d.rgb_count = (size_t)w * h * 3, d.specular_size = cube;
    hl_environment *e = NULL;
    hl_environment_create(&d, &e);
    free(rgb);
    return e;
}

static double frame_ms(hl_renderer *r, scene *sc) {
    double t0 = hl_bench_now_ms();
    if (hl_renderer_render(r, sc->s, sc->cam) || hl_renderer_wait_idle(r)) {
        fprintf(stderr, "ibl: render failed: %s\n", hl_last_error());
        exit(1);
    }
    return hl_bench_now_ms() - t0;
}

int main(int argc, char **argv) {
    bool json = false;
    hl_renderer_desc rd = {0};
    rd.backend = HL_BACKEND_WEBGPU;
    rd.width = 640;
    rd.height = 360;
    rd.sample_count = 4;
    rd.gpu_timing = true;
    uint32_t frames = 120;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) json = true;
        else if (!strcmp(argv[i], "--backend") && i + 1 < argc) hl_backend_parse(argv[++i], &rd.backend);
        else if (!strcmp(argv[i], "--size") && i + 1 < argc) sscanf(argv[++i], "%ux%u", &rd.width, &rd.height);
        else if (!strcmp(argv[i], "--frames") && i + 1 < argc) frames = (uint32_t)atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: ibl [--json] [--backend webgpu|gles3] [--size WxH] [--frames F]\n");
            return 2;
        }
    }
    if (frames < 10) frames = 10;
    hl_renderer *r = NULL;
    if (hl_renderer_create(&rd, &r)) {
        fprintf(stderr, "ibl: cannot create the renderer: %s\n", hl_last_error());
        return 1;
    }
    scene sc = {0};
    if (scene_create((float)rd.width / (float)rd.height, &sc)) {
        fprintf(stderr, "ibl: scene: %s\n", hl_last_error());
        return 1;
    }
    /* warm without an environment, then the plain frame's time */
    for (int i = 0; i < 5; i++) frame_ms(r, &sc);
    double plain[5];
    for (int i = 0; i < 5; i++) plain[i] = frame_ms(r, &sc);
    double plain_ms = hl_bench_median(plain, 5);

    static const struct {
        const char *name;
        uint32_t w, h, cube;
    } envs[3] = {{"default studio 128x64, cube 128 (first: programs, BRDF table)", 0, 0, 128},
                 {"generated 1024x512, cube 128", 1024, 512, 128},
                 {"generated 2048x1024, cube 256", 2048, 1024, 256}};
    double bake[3];
    hl_environment *studio = NULL;
    for (int k = 0; k < 3; k++) {
        hl_environment *e = NULL;
        if (k == 0) hl_environment_create_default(&e);
        else e = generated(envs[k].w, envs[k].h, envs[k].cube);
        if (!e) return 1;
        hl_stage_set_environment(sc.s, e);
        bake[k] = frame_ms(r, &sc) - plain_ms;
        if (k == 0) studio = e;
        else hl_environment_release(e);
    }
    hl_stage_set_environment(sc.s, studio);
    hl_environment_release(studio);

    /* steady frames, alternating blocks of 10 with and without the environment */
    double *cpu[2], *gpu[2];
    uint64_t allocs[2] = {0, 0};
    uint32_t n[2] = {0, 0};
    for (int m = 0; m < 2; m++) {
        cpu[m] = calloc(frames, sizeof(double));
        gpu[m] = calloc(frames, sizeof(double));
    }
    hl_environment_retain(studio);
    for (int i = 0; i < 10; i++) frame_ms(r, &sc); /* the environment's variants warm */
    while (n[0] < frames || n[1] < frames) {
        for (int m = 0; m < 2; m++) {
            hl_stage_set_environment(sc.s, m ? studio : NULL);
            frame_ms(r, &sc); /* the switch frame is not measured */
            for (int i = 0; i < 10 && n[m] < frames; i++) {
                uint64_t a0 = hl_alloc_count();
                frame_ms(r, &sc);
                allocs[m] += hl_alloc_count() - a0;
                const hl_render_stats *st = hl_renderer_stats(r);
                cpu[m][n[m]] = (double)st->cpu_ns / 1e6;
                gpu[m][n[m]] = (double)st->gpu_ns / 1e6;
                n[m]++;
            }
        }
    }
    double cpu_ms[2], gpu_ms[2];
    for (int m = 0; m < 2; m++) {
        cpu_ms[m] = hl_bench_median(cpu[m], frames);
        gpu_ms[m] = hl_bench_median(gpu[m], frames);
    }
    const char *adapter = hl_renderer_adapter_name(r);
    if (json) {
        printf("{\"backend\":\"%s\",\"adapter\":\"%s\",\"size\":\"%ux%u\",\"samples\":%u,\"plain_frame_ms\":%.3f,"
               "\"bake_ms\":{\"studio_first\":%.2f,\"generated_1024\":%.2f,\"generated_2048_cube256\":%.2f},"
               "\"steady\":{\"cpu_ms\":{\"none\":%.4f,\"ibl\":%.4f},\"gpu_ms\":{\"none\":%.4f,\"ibl\":%.4f},"
               "\"allocations_per_frame\":{\"none\":%.3f,\"ibl\":%.3f}},\"frames\":%u}\n",
               hl_backend_name(rd.backend), adapter, rd.width, rd.height, rd.sample_count, plain_ms, bake[0], bake[1],
               bake[2], cpu_ms[0], cpu_ms[1], gpu_ms[0], gpu_ms[1], (double)allocs[0] / frames,
               (double)allocs[1] / frames, frames);
    } else {
        printf("ibl on %s (%s), %ux%u %ux MSAA, 100 spheres; frame without environment %.2f ms (wall, waited)\n",
               hl_backend_name(rd.backend), adapter, rd.width, rd.height, rd.sample_count, plain_ms);
        for (int k = 0; k < 3; k++) printf("  bake %-62s %8.2f ms\n", envs[k].name, bake[k]);
        printf("  steady (medians of %u frames each, alternating): CPU %.4f ms without, %.4f ms with the environment\n",
               frames, cpu_ms[0], cpu_ms[1]);
        printf("                                                   GPU %.4f ms without, %.4f ms with (0: no timestamps)\n",
               gpu_ms[0], gpu_ms[1]);
        printf("  heap allocations per steady frame: %.3f without, %.3f with\n", (double)allocs[0] / frames,
               (double)allocs[1] / frames);
    }
    hl_environment_release(studio);
    for (int m = 0; m < 2; m++) {
        free(cpu[m]);
        free(gpu[m]);
    }
    hl_renderer_destroy(r);
    hl_stage_destroy(sc.s);
    return 0;
}
