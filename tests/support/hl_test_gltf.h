/* glTF test models built in memory: a GLB from JSON text and a binary chunk, PNG images.
 * JSON texts name buffer 0 (the binary chunk) with "buffers":[{"byteLength":N}], N from
 * hl_test_glb.bin_len after the data is added. */
#ifndef HL_TEST_GLTF_H
#define HL_TEST_GLTF_H

#include <stddef.h>
#include <stdint.h>

typedef struct hl_test_glb {
    uint8_t *bin;
    size_t bin_len, bin_cap;
} hl_test_glb;

/* Appends n bytes (4-aligned start); returns their byte offset in the binary chunk. */
size_t hl_test_glb_add(hl_test_glb *g, const void *data, size_t n);
/* The GLB file of json (NUL-terminated) and g's binary chunk (none when empty); malloc'd. */
uint8_t *hl_test_glb_file(const char *json, const hl_test_glb *g, size_t *size);
void hl_test_glb_free(hl_test_glb *g);
/* rgba (w * h * 4 bytes) encoded as PNG; malloc'd, *size its length (NULL on failure). */
uint8_t *hl_test_png(uint32_t w, uint32_t h, const uint8_t *rgba, size_t *size);
/* n bytes as a data: URI, "data:<mime>;base64,..." (NUL-terminated, malloc'd; NULL on failure):
 * for .gltf texts that embed their buffers and images as the sample models' "Embedded" variants do. */
char *hl_test_data_uri(const char *mime, const void *data, size_t n);

#endif
