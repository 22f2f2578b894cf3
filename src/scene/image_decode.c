/* Image decoding for textures: which format the bytes are, the size checks before decoding,
 * and the dispatch to the decoder of each accepted format. */
#include <string.h>

#include "hilo3d/texture.h"
#include "image_decode.h"

static const char *const hl__kind_names[] = {
    [HL__IMAGE_UNKNOWN] = "unknown",
    [HL__IMAGE_PNG] = "PNG",
    [HL__IMAGE_JPEG] = "JPEG",
    [HL__IMAGE_HDR] = "HDR",
    [HL__IMAGE_GIF] = "GIF",
    [HL__IMAGE_BMP] = "BMP",
    [HL__IMAGE_PSD] = "PSD",
    [HL__IMAGE_PNM] = "PNM", /* PBM/PGM/PPM/PAM/PFM */
    [HL__IMAGE_PIC] = "Softimage PIC",
    [HL__IMAGE_WEBP] = "WebP",
    [HL__IMAGE_TIFF] = "TIFF",
    [HL__IMAGE_QOI] = "QOI",
    [HL__IMAGE_DDS] = "DDS",
    [HL__IMAGE_KTX] = "KTX",
    [HL__IMAGE_KTX2] = "KTX2",
    [HL__IMAGE_EXR] = "OpenEXR",
    [HL__IMAGE_ICO] = "ICO/CUR",
    [HL__IMAGE_AVIF] = "AVIF",
    [HL__IMAGE_HEIF] = "HEIF",
    [HL__IMAGE_JXL] = "JPEG XL",
    [HL__IMAGE_JP2] = "JPEG 2000",
};

const char *hl__image_kind_name(hl__image_kind kind) {
    if ((unsigned)kind >= sizeof hl__kind_names / sizeof hl__kind_names[0] || !hl__kind_names[kind])
        return "unknown";
    return hl__kind_names[kind];
}

static bool hl__starts(const uint8_t *d, size_t size, const void *magic, size_t n) {
    return size >= n && memcmp(d, magic, n) == 0;
}

hl__image_kind hl__image_sniff(const uint8_t *d, size_t n) {
    if (!d) return HL__IMAGE_UNKNOWN;
    if (hl__starts(d, n, "\x89PNG\r\n\x1a\n", 8)) return HL__IMAGE_PNG;
    if (hl__starts(d, n, "\xff\xd8\xff", 3)) return HL__IMAGE_JPEG;
    /* the decoder checks the rest of the first line */
    if (hl__starts(d, n, "#?RADIANCE", 10) || hl__starts(d, n, "#?RGBE", 6)) return HL__IMAGE_HDR;
    if (hl__starts(d, n, "GIF87a", 6) || hl__starts(d, n, "GIF89a", 6)) return HL__IMAGE_GIF;
    if (hl__starts(d, n, "8BPS", 4)) return HL__IMAGE_PSD;
    if (hl__starts(d, n, "\x53\x80\xf6\x34", 4)) return HL__IMAGE_PIC;
    if (n >= 12 && !memcmp(d, "RIFF", 4) && !memcmp(d + 8, "WEBP", 4)) return HL__IMAGE_WEBP;
    if (hl__starts(d, n, "II*\0", 4) || hl__starts(d, n, "MM\0*", 4)) return HL__IMAGE_TIFF;
    if (hl__starts(d, n, "qoif", 4)) return HL__IMAGE_QOI;
    if (hl__starts(d, n, "DDS ", 4)) return HL__IMAGE_DDS;
    if (hl__starts(d, n, "\xabKTX 11\xbb", 8)) return HL__IMAGE_KTX;
    if (hl__starts(d, n, "\xabKTX 20\xbb", 8)) return HL__IMAGE_KTX2;
    if (hl__starts(d, n, "\x76\x2f\x31\x01", 4)) return HL__IMAGE_EXR;
    if (hl__starts(d, n, "\0\0\1\0", 4) || hl__starts(d, n, "\0\0\2\0", 4)) return HL__IMAGE_ICO;
    if (hl__starts(d, n, "\xff\x0a", 2) || hl__starts(d, n, "\0\0\0\x0cJXL \r\n\x87\n", 12)) return HL__IMAGE_JXL;
    if (hl__starts(d, n, "\0\0\0\x0cjP  \r\n\x87\n", 12) || hl__starts(d, n, "\xff\x4f\xff\x51", 4))
        return HL__IMAGE_JP2;
    if (n >= 12 && !memcmp(d + 4, "ftyp", 4)) {
        if (!memcmp(d + 8, "avif", 4) || !memcmp(d + 8, "avis", 4)) return HL__IMAGE_AVIF;
        if (!memcmp(d + 8, "heic", 4) || !memcmp(d + 8, "heix", 4) || !memcmp(d + 8, "mif1", 4) ||
            !memcmp(d + 8, "msf1", 4) || !memcmp(d + 8, "hevc", 4))
            return HL__IMAGE_HEIF;
    }
    /* PNM: P1..P7 or PF/Pf, then whitespace */
    if (n >= 3 && d[0] == 'P' && ((d[1] >= '1' && d[1] <= '7') || d[1] == 'F' || d[1] == 'f') &&
        (d[2] == ' ' || d[2] == '\t' || d[2] == '\n' || d[2] == '\r'))
        return HL__IMAGE_PNM;
    if (hl__starts(d, n, "BM", 2)) return HL__IMAGE_BMP;
    return HL__IMAGE_UNKNOWN;
}

hl_result hl__image_check_size(const hl__image_job *job, hl__image_kind kind, uint64_t width, uint64_t height,
                               size_t bytes_per_pixel, size_t extra_bytes, size_t *rgba_bytes) {
    const char *name = hl__image_kind_name(kind);
    if (width == 0 || height == 0)
        return hl__fail(HL_ERR_PARSE, "%s: %s: corrupt %s header: size %llux%llu", job->fn, job->what, name,
                        (unsigned long long)width, (unsigned long long)height);
    if (width > HL_TEXTURE_MAX_DIMENSION || height > HL_TEXTURE_MAX_DIMENSION)
        return hl__fail(HL_ERR_VALIDATION, "%s: %s: the %s image is %llux%llu, larger than HL_TEXTURE_MAX_DIMENSION (%u)",
                        job->fn, job->what, name, (unsigned long long)width, (unsigned long long)height,
                        HL_TEXTURE_MAX_DIMENSION);
    size_t pixels = (size_t)width * (size_t)height; /* <= 2^26: no overflow */
    size_t need = 0;
    bool fits = hl__mul_size(pixels, bytes_per_pixel, &need) && hl__add_size(need, extra_bytes, &need);
    if (!fits || need > job->limit)
        return hl__fail(HL_ERR_VALIDATION,
                        "%s: %s: decoding the %llux%llu %s image needs %s%zu bytes, above the decode limit of %zu "
                        "bytes (hl_texture_desc.decode_limit)",
                        job->fn, job->what, (unsigned long long)width, (unsigned long long)height, name,
                        fits ? "" : "more than ", fits ? need : SIZE_MAX, job->limit);
    *rgba_bytes = pixels * 4u;
    return HL_OK;
}

hl_result hl__image_decode(const hl__image_job *job, hl__image *out) {
    *out = (hl__image){0};
    hl__image_kind kind = hl__image_sniff(job->data, job->size);
    switch (kind) {
    case HL__IMAGE_PNG: return hl__png_decode(job, out);
    case HL__IMAGE_JPEG: return hl__jpeg_decode(job, out);
    case HL__IMAGE_HDR: return hl__hdr_decode(job, out);
    case HL__IMAGE_UNKNOWN:
        return hl__fail(HL_ERR_PARSE, "%s: %s is not an image of a known format (supported: PNG, JPEG, HDR)", job->fn,
                        job->what);
    default:
        return hl__fail(HL_ERR_UNSUPPORTED, "%s: %s: %s is not supported: PNG, JPEG, HDR", job->fn, job->what,
                        hl__image_kind_name(kind));
    }
}
