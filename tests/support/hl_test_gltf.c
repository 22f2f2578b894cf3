/* glTF test models built in memory (hl_test_gltf.h). */
#include "hl_test_gltf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stb/stb_image_write.h>

size_t hl_test_glb_add(hl_test_glb *g, const void *data, size_t n) {
    size_t at = (g->bin_len + 3u) & ~(size_t)3u;
    if (at + n > g->bin_cap) {
        size_t cap = g->bin_cap ? g->bin_cap : 256;
        while (cap < at + n) cap *= 2;
        uint8_t *b = realloc(g->bin, cap);
        if (!b) abort(); /* test support: out of memory ends the test */
        g->bin = b;
        g->bin_cap = cap;
    }
    memset(g->bin + g->bin_len, 0, at - g->bin_len);
    memcpy(g->bin + at, data, n);
    g->bin_len = at + n;
    return at;
}

static void put32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}

uint8_t *hl_test_glb_file(const char *json, const hl_test_glb *g, size_t *size) {
    size_t jn = strlen(json), jp = (jn + 3u) & ~(size_t)3u, bp = (g->bin_len + 3u) & ~(size_t)3u;
    size_t total = 12 + 8 + jp + (g->bin_len ? 8 + bp : 0);
    uint8_t *f = calloc(1, total);
    if (!f) return NULL;
    put32(f, 0x46546C67u);
    put32(f + 4, 2);
    put32(f + 8, (uint32_t)total);
    put32(f + 12, (uint32_t)jp);
    put32(f + 16, 0x4E4F534Au);
    memcpy(f + 20, json, jn);
    memset(f + 20 + jn, ' ', jp - jn);
    if (g->bin_len) {
        put32(f + 20 + jp, (uint32_t)bp);
        put32(f + 24 + jp, 0x004E4942u);
        memcpy(f + 28 + jp, g->bin, g->bin_len);
    }
    *size = total;
    return f;
}

void hl_test_glb_free(hl_test_glb *g) {
    free(g->bin);
    memset(g, 0, sizeof *g);
}

typedef struct png_mem {
    uint8_t *data;
    size_t len;
    int failed;
} png_mem;

static void png_append(void *ctx, void *data, int n) {
    png_mem *m = ctx;
    uint8_t *d = realloc(m->data, m->len + (size_t)n);
    if (!d) {
        m->failed = 1;
        return;
    }
    memcpy(d + m->len, data, (size_t)n);
    m->data = d;
    m->len += (size_t)n;
}

uint8_t *hl_test_png(uint32_t w, uint32_t h, const uint8_t *rgba, size_t *size) {
    png_mem m = {0};
    if (!stbi_write_png_to_func(png_append, &m, (int)w, (int)h, 4, rgba, (int)w * 4) || m.failed) {
        free(m.data);
        *size = 0;
        return NULL;
    }
    *size = m.len;
    return m.data;
}

char *hl_test_data_uri(const char *mime, const void *data, size_t n) {
    static const char k_b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t head = strlen("data:;base64,") + strlen(mime);
    char *s = malloc(head + (n + 2) / 3 * 4 + 1);
    if (!s) return NULL;
    char *o = s + sprintf(s, "data:%s;base64,", mime);
    const uint8_t *p = data;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0u) | (i + 2 < n ? p[i + 2] : 0u);
        *o++ = k_b64[v >> 18];
        *o++ = k_b64[(v >> 12) & 63];
        *o++ = i + 1 < n ? k_b64[(v >> 6) & 63] : '=';
        *o++ = i + 2 < n ? k_b64[v & 63] : '=';
    }
    *o = 0;
    return s;
}
