/* hilo3d command-line tool.
 *
 *   hilo3d info [--json]
 *   hilo3d rhi-demo [--backend auto|webgpu|gles3] [--width W] [--height H] [--samples 1|4] --out FILE.png
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "hl_rhi.h"
#include "hl_rhi_demo.h"

#define STB_IMAGE_WRITE_IMPLEMENTATION
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wsign-compare"
#endif
#include <stb/stb_image_write.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

int hl_cli_render(int argc, char **argv);
int hl_cli_write_png(const char *path, uint32_t w, uint32_t h, const uint8_t *rgba);

int hl_cli_write_png(const char *path, uint32_t w, uint32_t h, const uint8_t *rgba) {
    return stbi_write_png(path, (int)w, (int)h, 4, rgba, (int)w * 4) != 0;
}

static void usage(FILE *f) {
    fprintf(f,
            "usage:\n"
            "  hilo3d info [--json]\n"
            "      which backends are available, their adapters and capabilities, and what auto picks\n"
            "  hilo3d render [--backend auto|webgpu|gles3] [--width W --height H] [--samples 1|4] [--frames N]\n"
            "                [--out FILE.png]\n"
            "      renders the built-in demo scene (default 1280x720 to out/demo.png)\n"
            "  hilo3d rhi-demo [--backend auto|webgpu|gles3] [--width W] [--height H] [--samples 1|4]\n"
            "                  [--out FILE.png]\n"
            "      renders the RHI test scene to a PNG (default out/demo.png)\n"
            "  hilo3d graph-dump [--width W] [--height H] [--out FILE.dot]\n"
            "      writes the render graph of a typical deferred frame as Graphviz DOT (default stdout)\n");
}

static const char *arg_value(int argc, char **argv, const char *name) {
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], name) == 0) return i + 1 < argc ? argv[i + 1] : "";
    }
    return NULL;
}

static bool has_flag(int argc, char **argv, const char *name) {
    for (int i = 2; i < argc; i++)
        if (strcmp(argv[i], name) == 0) return true;
    return false;
}

/* Rejects unknown options so a typo is an error, not a silent default. */
static bool check_options(int argc, char **argv, const char *const *with_value, const char *const *flags) {
    for (int i = 2; i < argc; i++) {
        bool known = false;
        for (const char *const *o = with_value; *o && !known; o++)
            if (strcmp(argv[i], *o) == 0) {
                known = true;
                if (i + 1 >= argc) {
                    fprintf(stderr, "hilo3d: option %s needs a value\n", argv[i]);
                    return false;
                }
                i++;
            }
        for (const char *const *o = flags; *o && !known; o++)
            if (strcmp(argv[i], *o) == 0) known = true;
        if (!known) {
            fprintf(stderr, "hilo3d: unknown option '%s'\n", argv[i]);
            return false;
        }
    }
    return true;
}

static bool parse_u32(const char *s, const char *what, uint32_t lo, uint32_t hi, uint32_t *out) {
    char *end = NULL;
    unsigned long v = strtoul(s, &end, 10);
    if (!s[0] || *end || v < lo || v > hi) {
        fprintf(stderr, "hilo3d: %s '%s' must be an integer in [%u, %u]\n", what, s, lo, hi);
        return false;
    }
    *out = (uint32_t)v;
    return true;
}

static cJSON *caps_json(const hl_rhi_caps *caps) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "adapter", caps->adapter_name);
    cJSON_AddStringToObject(o, "driver", caps->driver_info);
    cJSON *feats = cJSON_AddArrayToObject(o, "features");
    for (uint32_t bit = 1; bit && bit <= HL_RHI_FEATURE_FLOAT32_FILTERABLE; bit <<= 1)
        if (caps->features & bit) cJSON_AddItemToArray(feats, cJSON_CreateString(hl_rhi_feature_name(bit)));
    cJSON *lim = cJSON_AddObjectToObject(o, "limits");
    const hl_rhi_limits *l = &caps->limits;
    cJSON_AddNumberToObject(lim, "max_texture_dimension_2d", l->max_texture_dimension_2d);
    cJSON_AddNumberToObject(lim, "max_bind_groups", l->max_bind_groups);
    cJSON_AddNumberToObject(lim, "max_uniform_buffer_binding_size", l->max_uniform_buffer_binding_size);
    cJSON_AddNumberToObject(lim, "min_uniform_buffer_offset_alignment", l->min_uniform_buffer_offset_alignment);
    cJSON_AddNumberToObject(lim, "max_color_attachments", l->max_color_attachments);
    cJSON_AddNumberToObject(lim, "max_vertex_attributes", l->max_vertex_attributes);
    cJSON_AddNumberToObject(lim, "max_storage_buffers_per_stage", l->max_storage_buffers_per_stage);
    cJSON_AddNumberToObject(lim, "max_compute_invocations_per_workgroup", l->max_compute_invocations_per_workgroup);
    cJSON *fmts = cJSON_AddObjectToObject(o, "formats");
    static const char *cap_names[] = {"sampled", "filterable", "renderable", "blendable", "storage", "resolve"};
    for (int f = 1; f < HL_RHI_FORMAT_COUNT; f++) {
        const hl_rhi_format_caps *fc = &caps->formats[f];
        cJSON *e = cJSON_CreateArray();
        for (uint32_t i = 0; i < 6; i++)
            if (fc->flags & (1u << i)) cJSON_AddItemToArray(e, cJSON_CreateString(cap_names[i]));
        if (fc->sample_counts & (1u << 2)) cJSON_AddItemToArray(e, cJSON_CreateString("msaa4"));
        cJSON_AddItemToObject(fmts, hl_rhi_format_get_info((hl_rhi_format)f)->name, e);
    }
    return o;
}

static int cmd_info(int argc, char **argv) {
    static const char *const vals[] = {NULL};
    static const char *const flags[] = {"--json", NULL};
    if (!check_options(argc, argv, vals, flags)) return 2;
    bool json = has_flag(argc, argv, "--json");
    cJSON *root = cJSON_CreateObject();
    cJSON *backends = cJSON_AddObjectToObject(root, "backends");
    hl_rhi_backend gpu[2] = {HL_RHI_BACKEND_WEBGPU, HL_RHI_BACKEND_GLES3};
    for (int i = 0; i < 2; i++) {
        cJSON *b = cJSON_AddObjectToObject(backends, hl_rhi_backend_name(gpu[i]));
        char name[128] = "";
        hl_result r = hl_rhi_probe(gpu[i], NULL, name, sizeof(name));
        cJSON_AddBoolToObject(b, "available", r == HL_OK);
        if (r) {
            cJSON_AddStringToObject(b, "error", hl_last_error());
            continue;
        }
        hl_rhi_device_desc dd = {0};
        dd.backend = gpu[i];
        hl_rhi_device *dev = NULL;
        r = hl_rhi_device_create(&dd, &dev);
        if (r) {
            cJSON_ReplaceItemInObject(b, "available", cJSON_CreateBool(0));
            cJSON_AddStringToObject(b, "error", hl_last_error());
            continue;
        }
        cJSON_AddItemToObject(b, "capabilities", caps_json(hl_rhi_device_caps(dev)));
        hl_rhi_device_destroy(dev);
    }
    /* What auto picks: the same rule hl_rhi_device_create applies (probe webgpu, else gles3). */
    char name[128] = "";
    const char *pick = hl_rhi_probe(HL_RHI_BACKEND_WEBGPU, NULL, name, sizeof(name)) == HL_OK ? "webgpu"
                       : hl_rhi_probe(HL_RHI_BACKEND_GLES3, NULL, name, sizeof(name)) == HL_OK ? "gles3"
                                                                                                : NULL;
    if (pick) cJSON_AddStringToObject(root, "auto", pick);
    else cJSON_AddNullToObject(root, "auto");

    if (json) {
        char *s = cJSON_PrintUnformatted(root);
        puts(s);
        cJSON_free(s);
    } else {
        for (int i = 0; i < 2; i++) {
            cJSON *b = cJSON_GetObjectItem(backends, hl_rhi_backend_name(gpu[i]));
            cJSON *caps = cJSON_GetObjectItem(b, "capabilities");
            if (caps)
                printf("%-7s available: %s (%s)\n", hl_rhi_backend_name(gpu[i]),
                       cJSON_GetObjectItem(caps, "adapter")->valuestring,
                       cJSON_GetObjectItem(caps, "driver")->valuestring);
            else
                printf("%-7s unavailable: %s\n", hl_rhi_backend_name(gpu[i]),
                       cJSON_GetObjectItem(b, "error")->valuestring);
        }
        printf("auto    -> %s\n", pick ? pick : "(none)");
    }
    cJSON_Delete(root);
    return pick ? 0 : 1;
}

static int cmd_rhi_demo(int argc, char **argv) {
    static const char *const vals[] = {"--backend", "--width", "--height", "--samples", "--out", NULL};
    static const char *const flags[] = {NULL};
    if (!check_options(argc, argv, vals, flags)) return 2;
    hl_rhi_backend backend = HL_RHI_BACKEND_AUTO;
    const char *s = arg_value(argc, argv, "--backend");
    if (s && (hl_rhi_backend_parse(s, &backend) != HL_OK || backend == HL_RHI_BACKEND_NULL)) {
        fprintf(stderr, "hilo3d: --backend '%s' must be auto, webgpu or gles3\n", s);
        return 2;
    }
    hl_rhi_demo_desc dd = {0};
    dd.width = 512;
    dd.height = 512;
    dd.sample_count = 4;
    if ((s = arg_value(argc, argv, "--width")) && !parse_u32(s, "--width", 1, 8192, &dd.width)) return 2;
    if ((s = arg_value(argc, argv, "--height")) && !parse_u32(s, "--height", 1, 8192, &dd.height)) return 2;
    if ((s = arg_value(argc, argv, "--samples")) && !parse_u32(s, "--samples", 1, 4, &dd.sample_count)) return 2;
    if (dd.sample_count != 1 && dd.sample_count != 4) {
        fprintf(stderr, "hilo3d: --samples must be 1 or 4\n");
        return 2;
    }
    const char *out = arg_value(argc, argv, "--out");
    if (!out) out = "out/demo.png";

    hl_rhi_device_desc desc = {0};
    desc.backend = backend;
    hl_rhi_device *dev = NULL;
    hl_result r = hl_rhi_device_create(&desc, &dev);
    if (r) {
        fprintf(stderr, "hilo3d: cannot create a %s device: %s: %s\n", hl_rhi_backend_name(backend),
                hl_result_name(r), hl_last_error());
        return 1;
    }
    uint8_t *rgba = malloc((size_t)dd.width * dd.height * 4);
    if (!rgba) {
        fprintf(stderr, "hilo3d: out of memory\n");
        hl_rhi_device_destroy(dev);
        return 1;
    }
    uint64_t ns = 0;
    r = hl_rhi_demo_render(dev, &dd, rgba, &ns);
    int rc = 0;
    if (r) {
        fprintf(stderr, "hilo3d: rendering failed: %s: %s\n", hl_result_name(r), hl_last_error());
        rc = 1;
    } else if (!stbi_write_png(out, (int)dd.width, (int)dd.height, 4, rgba, (int)dd.width * 4)) {
        fprintf(stderr, "hilo3d: cannot write %s\n", out);
        rc = 1;
    } else {
        const hl_rhi_caps *caps = hl_rhi_device_caps(dev);
        const hl_rhi_stats *st = hl_rhi_device_stats(dev);
        printf("backend: %s (%s)\nframe: %.3f ms (record + submit + wait, first frame)\n"
               "draws: %llu, pipeline switches: %llu, bind group switches: %llu, native calls: %llu\n"
               "wrote %s (%ux%u, %ux MSAA)\n",
               hl_rhi_backend_name(hl_rhi_device_backend(dev)), caps->adapter_name, (double)ns / 1e6,
               (unsigned long long)st->draws, (unsigned long long)st->pipeline_switches,
               (unsigned long long)st->bind_group_switches, (unsigned long long)st->native_calls, out, dd.width,
               dd.height, dd.sample_count);
    }
    free(rgba);
    hl_rhi_device_destroy(dev);
    return rc;
}

int main(int argc, char **argv) {
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (strcmp(argv[1], "info") == 0) return cmd_info(argc, argv);
    if (strcmp(argv[1], "rhi-demo") == 0) return cmd_rhi_demo(argc, argv);
    if (strcmp(argv[1], "render") == 0) return hl_cli_render(argc, argv);
    if (strcmp(argv[1], "graph-dump") == 0) { int hl_cli_graph_dump(int, char **); return hl_cli_graph_dump(argc, argv); }
    fprintf(stderr, "hilo3d: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
