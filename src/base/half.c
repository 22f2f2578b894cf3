/* Float texel helpers: IEEE 754 binary16 conversions (16-bit float texels) and the 2x2 box
 * reduction of a linear RGB float image. */
#include <string.h>

#include "hl_base.h"

/* Round to nearest even; overflow gives infinity, NaN stays NaN. */
uint16_t hl__f32_to_f16(float f) {
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    uint32_t sign = (x >> 16) & 0x8000u;
    int32_t exp = (int32_t)((x >> 23) & 0xFFu) - 127 + 15;
    uint32_t mant = x & 0x7FFFFFu;
    if (((x >> 23) & 0xFFu) == 0xFFu) return (uint16_t)(sign | 0x7C00u | (mant ? 0x200u : 0u));
    if (exp >= 31) return (uint16_t)(sign | 0x7C00u);
    if (exp <= 0) {
        if (exp < -10) return (uint16_t)sign;
        mant |= 0x800000u;
        uint32_t shift = (uint32_t)(14 - exp);
        uint32_t h = mant >> shift;
        uint32_t rem = mant & ((1u << shift) - 1u), half = 1u << (shift - 1u);
        if (rem > half || (rem == half && (h & 1u))) h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = sign | ((uint32_t)exp << 10) | (mant >> 13);
    uint32_t rem = mant & 0x1FFFu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) h++;
    return (uint16_t)h;
}

float hl__f16_to_f32(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1Fu, mant = h & 0x3FFu, x;
    if (exp == 0x1Fu) {
        x = sign | 0x7F800000u | (mant << 13);
    } else if (exp) {
        x = sign | ((exp + 112u) << 23) | (mant << 13);
    } else if (!mant) {
        x = sign;
    } else { /* subnormal: normalise */
        exp = 113u;
        while (!(mant & 0x400u)) {
            mant <<= 1;
            exp--;
        }
        x = sign | (exp << 23) | ((mant & 0x3FFu) << 13);
    }
    float f;
    memcpy(&f, &x, sizeof f);
    return f;
}

void hl__halve_rgbf(const float *src, uint32_t w, uint32_t h, float *dst) {
    uint32_t nw = w > 1 ? w / 2 : 1, nh = h > 1 ? h / 2 : 1;
    for (uint32_t y = 0; y < nh; y++) {
        uint32_t y0 = y * 2 < h ? y * 2 : h - 1, y1 = y * 2 + 1 < h ? y * 2 + 1 : y0;
        for (uint32_t x = 0; x < nw; x++) {
            uint32_t x0 = x * 2 < w ? x * 2 : w - 1, x1 = x * 2 + 1 < w ? x * 2 + 1 : x0;
            for (uint32_t c = 0; c < 3; c++)
                dst[((size_t)y * nw + x) * 3 + c] =
                    0.25f * (src[((size_t)y0 * w + x0) * 3 + c] + src[((size_t)y0 * w + x1) * 3 + c] +
                             src[((size_t)y1 * w + x0) * 3 + c] + src[((size_t)y1 * w + x1) * 3 + c]);
        }
    }
}
