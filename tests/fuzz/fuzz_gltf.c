/* Fuzz target: the glTF data layer (src/scene/gltf_internal.h) on arbitrary documents: the GLB
 * framing or the JSON text, buffers from the GLB chunk and base64 data: URIs (no folder: file
 * URIs are refused), then every accessor's validation and decoding; then the whole loader
 * (hilo3d/gltf.h: nodes, materials, images, cameras, lights, morph targets, animations) on the
 * same bytes. Oracle: a refused document leaves the output zeroed; every read of a valid
 * accessor either fills its values or fails with a code of the contract; primitives become
 * geometry or a refusal that leaves no object; a load gives an asset with a root or a contract
 * code and no asset; morph weights set on the first nodes read back as set, and weights 0 again
 * restore the geometry bit for bit; animations apply; nothing is read past a buffer (ASan) and
 * nothing leaks (LSan). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gltf_internal.h"
#include "hilo3d/geometry.h"
#include "hilo3d/gltf.h"

/* FNV-1a of the vertex blocks of node n's meshes (at most a few MiB of them). */
static uint64_t mesh_hash(hl_node *n) {
    uint64_t h = 1469598103934665603u;
    for (hl_node *c = n ? hl_node_first_child(n) : NULL; c; c = hl_node_next_sibling(c)) {
        hl_geometry *g = hl_node_mesh(c) ? hl_mesh_geometry(hl_node_mesh(c)) : NULL;
        if (!g || hl_geometry_get_layout(g)->vertex_bytes > (4u << 20)) continue;
        const uint8_t *b = hl_geometry_vertex_data(g);
        for (uint32_t i = 0; i < hl_geometry_get_layout(g)->vertex_bytes; i++) h = (h ^ b[i]) * 1099511628211u;
    }
    return h;
}

/* Morph weights on the first nodes: set as given (read back the same), and all zero again
 * giving back the geometry of zero weights bit for bit (flat-expanded primitives included). */
static void morph_weights(hl_gltf_asset *a) {
    float w[64], got[64];
    for (uint32_t i = 0; i < 64; i++) w[i] = i & 1 ? -0.5f - (float)i : 1.0f + (float)i * 0.25f;
    for (uint32_t n = 0; n < 8; n++) {
        uint32_t t = hl_gltf_asset_morph_weights(a, n, NULL, 0);
        if (!t) continue;
        if (t > 64 || hl_gltf_asset_set_morph_weights(a, n, NULL, 0)) __builtin_trap();
        uint64_t h0 = mesh_hash(hl_gltf_asset_node(a, n));
        if (hl_gltf_asset_set_morph_weights(a, n, w, 64) || hl_gltf_asset_morph_weights(a, n, got, 64) != t ||
            memcmp(got, w, t * sizeof(float)) != 0)
            __builtin_trap();
        if (hl_gltf_asset_set_morph_weights(a, n, NULL, 0) || mesh_hash(hl_gltf_asset_node(a, n)) != h0) __builtin_trap();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > (1u << 20)) return 0;
    hl__gltf_doc doc;
    hl_result r = hl__gltf_parse(data, size, NULL, &doc);
    if (r) {
        static const hl__gltf_doc zero;
        if (memcmp(&doc, &zero, sizeof doc) != 0) __builtin_trap();
        if (r != HL_ERR_PARSE && r != HL_ERR_IO && r != HL_ERR_OUT_OF_MEMORY) __builtin_trap();
        return 0;
    }
    enum { CAP = 1 << 16 };
    static float f[CAP];
    static uint32_t u[CAP];
    for (uint32_t i = 0; i < 64; i++) {
        hl__gltf_accessor_info info;
        hl_result e = hl__gltf_accessor_info_get(&doc, i, &info);
        if (e) {
            if (e != HL_ERR_PARSE) __builtin_trap();
            continue;
        }
        if (!info.count || !info.components || info.components > 16) __builtin_trap();
        if ((uint64_t)info.count * info.components > CAP) continue;
        e = hl__gltf_accessor_read_float(&doc, i, f, CAP);
        if (e) __builtin_trap(); /* info_get passed: the read must too */
        e = hl__gltf_accessor_read_uint(&doc, i, u, CAP);
        if (e && e != HL_ERR_PARSE) __builtin_trap();
    }
    for (uint32_t m = 0; m < 4; m++)
        for (uint32_t p = 0; p < 4; p++) {
            hl_geometry *g = (hl_geometry *)&doc;
            hl_result e = hl__gltf_primitive_geometry(&doc, m, p, &g);
            if (e ? g != NULL : g == NULL) __builtin_trap();
            if (e && e != HL_ERR_PARSE && e != HL_ERR_VALIDATION && e != HL_ERR_OUT_OF_MEMORY) __builtin_trap();
            hl_geometry_release(g);
        }
    hl__gltf_free(&doc);
    hl_gltf_asset *a = (hl_gltf_asset *)&doc;
    hl_gltf_load_desc ld = {0};
    ld.decode_limit = 16u << 20; /* images of at most 16 MiB decoded */
    r = hl_gltf_load_memory(data, size, &ld, &a);
    if (r ? a != NULL : (a == NULL || hl_gltf_asset_root(a) == NULL)) __builtin_trap();
    if (r && r != HL_ERR_PARSE && r != HL_ERR_IO && r != HL_ERR_UNSUPPORTED && r != HL_ERR_VALIDATION &&
        r != HL_ERR_OUT_OF_MEMORY)
        __builtin_trap();
    if (a) {
        (void)hl_gltf_asset_bounds(a);
        morph_weights(a);
        for (uint32_t i = 0; i < hl_gltf_asset_animation_count(a) && i < 4; i++)
            if (hl_animation_apply(hl_gltf_asset_animation(a, i), 0.37f, HL_ANIMATION_LOOP)) __builtin_trap();
    }
    hl_gltf_asset_destroy(a);
    return 0;
}
