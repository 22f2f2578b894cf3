/* Backend selection: the one place that knows every backend table.
 *
 * AUTO probes webgpu (adapter only) and takes it when usable, else gles3 when the
 * requirements allow it. Requirements that gles3 can never meet (compute, storage, indirect)
 * exclude it before anything is created. An explicit backend never falls back, and once a
 * backend is chosen its creation failure is the answer.
 *
 * HL_RHI_NO_WEBGPU (the browser build, gles3 on WebGL 2): the webgpu backend is not linked;
 * asking for it is HL_ERR_UNSUPPORTED and AUTO takes gles3. */
#include <stdio.h>
#include <string.h>

#include "rhi_internal.h"

#define HL__GLES3_EXCLUDING_FEATURES                                                              \
    (HL_RHI_FEATURE_COMPUTE | HL_RHI_FEATURE_STORAGE_BUFFER | HL_RHI_FEATURE_STORAGE_TEXTURE | \
     HL_RHI_FEATURE_INDIRECT_DRAW)

static const hl__rhi_backend_fns *hl__backend_table(hl_rhi_backend b) {
    switch (b) {
#ifndef HL_RHI_NO_WEBGPU
    case HL_RHI_BACKEND_WEBGPU: return &hl__rhi_webgpu_backend;
#endif
    case HL_RHI_BACKEND_GLES3: return &hl__rhi_gles3_backend;
    case HL_RHI_BACKEND_NULL: return &hl__rhi_null_backend;
    default: return NULL;
    }
}

/* Names the first requirement gles3 cannot meet, or NULL. */
static const char *hl__gles3_excluded_by(uint32_t features) {
    uint32_t bad = features & HL__GLES3_EXCLUDING_FEATURES;
    return bad ? hl_rhi_feature_name(bad & (~bad + 1u)) : NULL;
}

static hl_result hl__absent(hl_rhi_backend b) {
    return hl__fail(HL_ERR_UNSUPPORTED, "%s: this build has no %s backend", hl_rhi_backend_name(b),
                    hl_rhi_backend_name(b));
}

static hl_result hl__probe_one(hl_rhi_backend b, const hl_rhi_device_desc *desc, char *name, size_t size) {
    const hl__rhi_backend_fns *fns = hl__backend_table(b);
    if (!fns) return hl__absent(b);
    if (b == HL_RHI_BACKEND_GLES3) {
        const char *why = hl__gles3_excluded_by(desc->requirements.features);
        if (why)
            return hl__fail(HL_ERR_UNSUPPORTED, "gles3 cannot provide the required feature \"%s\"", why);
    }
    return fns->probe(&desc->requirements, desc, name, size);
}

/* Resolves AUTO to a concrete backend, probing as needed. */
static hl_result hl__resolve_auto(const hl_rhi_device_desc *desc, hl_rhi_backend *out, char *name, size_t size) {
    hl_result r = hl__probe_one(HL_RHI_BACKEND_WEBGPU, desc, name, size);
    if (r == HL_OK) {
        *out = HL_RHI_BACKEND_WEBGPU;
        return HL_OK;
    }
    char why_webgpu[256];
    snprintf(why_webgpu, sizeof why_webgpu, "%s", hl_last_error());
    const char *excluded = hl__gles3_excluded_by(desc->requirements.features);
    if (excluded)
        return hl__fail(HL_ERR_UNSUPPORTED, "auto: webgpu is unusable (%s) and gles3 cannot provide the required feature \"%s\"",
                        why_webgpu, excluded);
    r = hl__probe_one(HL_RHI_BACKEND_GLES3, desc, name, size);
    if (r) {
        char why_gles3[256];
        snprintf(why_gles3, sizeof why_gles3, "%s", hl_last_error());
        return hl__fail(r == HL_ERR_UNSUPPORTED ? HL_ERR_UNSUPPORTED : r, "auto: webgpu is unusable (%s); gles3 is unusable (%s)",
                        why_webgpu, why_gles3);
    }
    *out = HL_RHI_BACKEND_GLES3;
    return HL_OK;
}

hl_result hl_rhi_probe(hl_rhi_backend b, const hl_rhi_requirements *req, char *adapter_name, size_t adapter_name_size) {
    if ((unsigned)b >= HL_RHI_BACKEND_COUNT)
        return hl__fail(HL_ERR_VALIDATION, "hl_rhi_probe: backend %d is out of range", (int)b);
    hl_rhi_device_desc desc = {0};
    desc.backend = b;
    if (req) desc.requirements = *req;
    if (adapter_name && adapter_name_size) adapter_name[0] = '\0';
    if (b == HL_RHI_BACKEND_AUTO) {
        hl_rhi_backend chosen;
        return hl__resolve_auto(&desc, &chosen, adapter_name, adapter_name_size);
    }
    return hl__probe_one(b, &desc, adapter_name, adapter_name_size);
}

hl_result hl_rhi_device_create(const hl_rhi_device_desc *desc, hl_rhi_device **out) {
    if (!out) return hl__fail(HL_ERR_VALIDATION, "hl_rhi_device_create: out is NULL");
    *out = NULL;
    hl_rhi_device_desc d = {0};
    if (desc) d = *desc;
    if ((unsigned)d.backend >= HL_RHI_BACKEND_COUNT)
        return hl__fail(HL_ERR_VALIDATION, "hl_rhi_device_create: desc.backend %d is out of range", (int)d.backend);
    /* the window system before any probe: a refusal makes no native call */
    hl_result vr = hl__validate_display(&d.display, "hl_rhi_device_create");
    if (vr) return vr;
    hl_rhi_backend b = d.backend;
    if (b == HL_RHI_BACKEND_AUTO) {
        hl_result r = hl__resolve_auto(&d, &b, NULL, 0);
        if (r) return r;
    } else if (b == HL_RHI_BACKEND_GLES3) {
        const char *why = hl__gles3_excluded_by(d.requirements.features);
        if (why)
            return hl__fail(HL_ERR_UNSUPPORTED,
                            "hl_rhi_device_create: gles3 cannot provide the required feature \"%s\" (an explicit backend never falls back)",
                            why);
    }
    d.backend = b;
    if (!hl__backend_table(b)) return hl__absent(b);
    /* hl__rhi_device_create_with also checks caps.features against the requirements. */
    return hl__rhi_device_create_with(hl__backend_table(b), &d, out);
}
