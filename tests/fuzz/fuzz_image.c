/* Fuzz target: hl_texture_load_memory, the one path every image takes (hl_texture_load_file
 * reads the file, then calls the same decoder): format sniffing, PNG through libpng, JPEG
 * through libjpeg-turbo, Radiance HDR through the checked stb_image reader. The input is the
 * image file itself, so the corpus is plain image files.
 *
 * A 16 MiB decode limit keeps each run short (a mutated header may claim 8192x8192); a texture
 * that loads must be within the limits it was given, and every pixel is read so ASan checks
 * that the buffer holds width * height * 4 bytes.
 *
 * The same bytes then go to hl_environment_load_hdr_memory (environment.h: HDR only, decoded to
 * linear floats by the same checked reader, then reduced to at most HL_ENVIRONMENT_MAX_WIDTH):
 * an environment that loads has a size within its limits and finite radiance >= 0 everywhere. */
#include <float.h>
#include <stddef.h>
#include <stdint.h>

#include "hilo3d/environment.h"
#include "hilo3d/texture.h"

enum { DECODE_LIMIT = 16 << 20 };

static void environment(const uint8_t *data, size_t size) {
    hl_environment *e = NULL;
    if (hl_environment_load_hdr_memory(data, size, &e) != HL_OK) {
        if (e) __builtin_trap();
        return;
    }
    uint32_t w = 0, h = 0;
    const float *rgb = hl_environment_pixels(e, &w, &h);
    if (!rgb || w < 2 || h < 1 || w > HL_ENVIRONMENT_MAX_WIDTH || h > HL_TEXTURE_MAX_DIMENSION) __builtin_trap();
    for (size_t i = 0, n = (size_t)w * h * 3; i < n; i++)
        if (!(rgb[i] >= 0.0f && rgb[i] <= FLT_MAX)) __builtin_trap(); /* finite, >= 0 */
    hl_environment_release(e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    environment(data, size);
    hl_texture *t = NULL;
    hl_texture_desc desc = {.decode_limit = DECODE_LIMIT, .mipmaps = HL_MIPMAPS_NONE};
    hl_result r = hl_texture_load_memory(data, size, &desc, &t);
    if (r != HL_OK) {
        if (t) __builtin_trap(); /* a failure leaves no texture */
        return 0;
    }
    const hl_texture_info *info = hl_texture_get_info(t);
    const uint8_t *px = hl_texture_pixels(t);
    if (!info || !px || info->width == 0 || info->height == 0 || info->width > HL_TEXTURE_MAX_DIMENSION ||
        info->height > HL_TEXTURE_MAX_DIMENSION || (uint64_t)info->width * info->height * 4u > DECODE_LIMIT)
        __builtin_trap();
    size_t bytes = (size_t)info->width * info->height * 4u;
    uint8_t acc = 0;
    for (size_t i = 0; i < bytes; i += 61) acc ^= px[i];
    acc ^= px[bytes - 1];
    /* keeps the reads */
    __asm__ volatile("" : : "r"(acc));
    hl_texture_release(t);
    return 0;
}
