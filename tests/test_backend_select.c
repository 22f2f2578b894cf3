/* Backend selection with the real backends: auto prefers webgpu, takes gles3 when Dawn cannot
 * be loaded, an explicit backend never falls back, and requirements that gles3 cannot meet
 * exclude it before anything is created. */
#include <stdlib.h>

#include "hl_test.h"

static hl_result create(hl_rhi_backend b, const char *dawn, uint32_t features, hl_rhi_device **dev) {
    hl_rhi_device_desc d = {0};
    d.backend = b;
    d.dawn_library_path = dawn;
    d.requirements.features = features;
    *dev = NULL;
    return hl_rhi_device_create(&d, dev);
}

int main(void) {
    unsetenv("HL_DAWN_LIBRARY"); /* the descriptor's path must be the one used */
    const char *missing = "/nonexistent/libwebgpu_wrapper.so";
    hl_rhi_device *dev = NULL;

    /* Dawn missing: explicit webgpu fails, naming the library; no device, no fallback */
    HL_CHECK_RESULT(create(HL_RHI_BACKEND_WEBGPU, missing, 0, &dev), HL_ERR_UNSUPPORTED);
    HL_CHECK(dev == NULL);
    HL_CHECK(strstr(hl_last_error(), "nonexistent") != NULL);

    /* Dawn missing: auto takes gles3 */
    HL_CHECK_OK(create(HL_RHI_BACKEND_AUTO, missing, 0, &dev));
    if (dev) {
        HL_CHECK_EQ(hl_rhi_device_backend(dev), HL_RHI_BACKEND_GLES3);
        hl_rhi_device_destroy(dev);
    }

    /* Dawn missing + compute required: gles3 is excluded before creation, so auto fails */
    HL_CHECK_RESULT(create(HL_RHI_BACKEND_AUTO, missing, HL_RHI_FEATURE_COMPUTE, &dev), HL_ERR_UNSUPPORTED);
    HL_CHECK(dev == NULL);
    HL_CHECK(strstr(hl_last_error(), "compute") != NULL);

    /* explicit gles3 with a storage requirement: refused before any creation */
    HL_CHECK_RESULT(create(HL_RHI_BACKEND_GLES3, NULL, HL_RHI_FEATURE_STORAGE_BUFFER, &dev), HL_ERR_UNSUPPORTED);
    HL_CHECK(dev == NULL);

    /* the probe answers without a device */
    char name[128] = "";
    HL_CHECK_OK(hl_rhi_probe(HL_RHI_BACKEND_GLES3, NULL, name, sizeof name));
    HL_CHECK(name[0] != '\0');

    /* Dawn present (the bootstrap location): auto prefers webgpu, with or without compute */
    HL_CHECK_OK(create(HL_RHI_BACKEND_AUTO, NULL, 0, &dev));
    if (dev) {
        HL_CHECK_EQ(hl_rhi_device_backend(dev), HL_RHI_BACKEND_WEBGPU);
        hl_rhi_device_destroy(dev);
    }
    HL_CHECK_OK(create(HL_RHI_BACKEND_AUTO, NULL, HL_RHI_FEATURE_COMPUTE, &dev));
    if (dev) {
        HL_CHECK(hl_rhi_device_caps(dev)->features & HL_RHI_FEATURE_COMPUTE);
        hl_rhi_device_destroy(dev);
    }
    HL_CHECK_OK(hl_rhi_probe(HL_RHI_BACKEND_WEBGPU, NULL, name, sizeof name));
    HL_CHECK_OK(hl_rhi_probe(HL_RHI_BACKEND_AUTO, NULL, name, sizeof name));

    /* $HL_EGL_DEVICE picks one EGL device (Mesa lists its software device here as device 0);
     * a missing device or a value that is not an index is an error naming it, never another
     * display */
    setenv("HL_EGL_DEVICE", "0", 1);
    HL_CHECK_OK(create(HL_RHI_BACKEND_GLES3, NULL, 0, &dev));
    if (dev) hl_rhi_device_destroy(dev);
    setenv("HL_EGL_DEVICE", "15", 1);
    HL_CHECK_RESULT(create(HL_RHI_BACKEND_GLES3, NULL, 0, &dev), HL_ERR_UNSUPPORTED);
    HL_CHECK(dev == NULL && strstr(hl_last_error(), "HL_EGL_DEVICE=15") != NULL);
    HL_CHECK_RESULT(hl_rhi_probe(HL_RHI_BACKEND_GLES3, NULL, name, sizeof name), HL_ERR_UNSUPPORTED);
    setenv("HL_EGL_DEVICE", "gpu1", 1);
    HL_CHECK_RESULT(create(HL_RHI_BACKEND_GLES3, NULL, 0, &dev), HL_ERR_UNSUPPORTED);
    HL_CHECK(dev == NULL && strstr(hl_last_error(), "'gpu1' is not an EGL device index") != NULL);
    unsetenv("HL_EGL_DEVICE");
    return hl_test_finish();
}
