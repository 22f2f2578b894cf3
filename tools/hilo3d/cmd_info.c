/* `hilo3d info`: which backends are available, their adapters and capabilities, and what
 * auto picks; as text or (--json) one JSON object. */
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "hl_rhi.h"

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

static const char *json_string(const cJSON *o, const char *key) {
    const cJSON *v = cJSON_GetObjectItem(o, key);
    return cJSON_IsString(v) ? v->valuestring : "?";
}

int hl_cli_info(int argc, char **argv) {
    static const hl_cli_command cmd = {
        "info", "Lists which backends are available, their adapters, drivers and capabilities, and which one\n"
                "auto picks. Exit code 1 when no backend is available. 'hilo3d info MODEL.gltf' (or .glb) prints\n"
                "the load report of a glTF model instead.\n"};
    bool json = false;
    const hl_cli_option opts[] = {
        {.name = "json", .kind = HL_CLI_FLAG, .help = "print one JSON object instead of text", .value = &json},
    };
    if (argc > 1 && hl_cli_is_model(argv[1])) return hl_cli_info_model(argv[1], argc - 1, argv + 1);
    int prc = hl_cli_parse(&cmd, opts, sizeof opts / sizeof opts[0], argc, argv);
    if (prc >= 0) return prc;

    cJSON *root = cJSON_CreateObject();
    cJSON *backends = cJSON_AddObjectToObject(root, "backends");
    if (!backends) {
        hl_cli_error("out of memory");
        cJSON_Delete(root);
        return HL_CLI_EXIT_FAIL;
    }
    hl_rhi_backend gpu[2] = {HL_RHI_BACKEND_WEBGPU, HL_RHI_BACKEND_GLES3};
    for (int i = 0; i < 2; i++) {
        cJSON *b = cJSON_AddObjectToObject(backends, hl_rhi_backend_name(gpu[i]));
        char name[128] = "";
        hl_result r = hl_rhi_probe(gpu[i], NULL, name, sizeof(name));
        if (r) {
            cJSON_AddBoolToObject(b, "available", 0);
            cJSON_AddStringToObject(b, "error", hl_last_error());
            continue;
        }
        hl_rhi_device_desc dd = {0};
        dd.backend = gpu[i];
        hl_rhi_device *dev = NULL;
        r = hl_rhi_device_create(&dd, &dev);
        cJSON_AddBoolToObject(b, "available", r == HL_OK);
        if (r) {
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

    int rc = pick ? HL_CLI_EXIT_OK : HL_CLI_EXIT_FAIL;
    if (json) {
        char *s = cJSON_PrintUnformatted(root);
        if (!s) {
            hl_cli_error("cannot format the JSON: out of memory");
            rc = HL_CLI_EXIT_FAIL;
        } else {
            size_t n = strlen(s);
            s[n] = '\n'; /* cJSON's buffer holds the terminator: swap it for the line end */
            if (hl_cli_write_output(NULL, s, n + 1)) rc = HL_CLI_EXIT_FAIL;
            cJSON_free(s);
        }
    } else {
        for (int i = 0; i < 2; i++) {
            const cJSON *b = cJSON_GetObjectItem(backends, hl_rhi_backend_name(gpu[i]));
            const cJSON *caps = cJSON_GetObjectItem(b, "capabilities");
            if (caps)
                hl_cli_printf("%-7s available: %s (%s)\n", hl_rhi_backend_name(gpu[i]), json_string(caps, "adapter"),
                              json_string(caps, "driver"));
            else
                hl_cli_printf("%-7s unavailable: %s\n", hl_rhi_backend_name(gpu[i]), json_string(b, "error"));
        }
        hl_cli_printf("auto    -> %s\n", pick ? pick : "(none)");
    }
    cJSON_Delete(root);
    return rc;
}
