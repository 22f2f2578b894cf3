/* png_diff A.png B.png [MAX_MEAN]: compares two PNG images of one size channel by channel (RGB;
 * alpha is ignored: a window has none). Prints the mean absolute difference in 1/255 units over
 * every channel of every pixel, the largest difference, the share of pixels off by more than 4,
 * and exits 0 when the mean is at most MAX_MEAN (default 1.0, i.e. 1/255), 1 when it is above
 * or the images differ in size, 2 when a file cannot be read. Used by test_view.sh. */
#include <stdio.h>
#include <stdlib.h>

#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"
#endif
#include <stb/stb_image.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: png_diff A.png B.png [MAX_MEAN]\n");
        return 2;
    }
    double max_mean = argc > 3 ? strtod(argv[3], NULL) : 1.0;
    int wa, ha, wb, hb, ca, cb;
    unsigned char *a = stbi_load(argv[1], &wa, &ha, &ca, 4);
    unsigned char *b = stbi_load(argv[2], &wb, &hb, &cb, 4);
    if (!a || !b) {
        fprintf(stderr, "png_diff: cannot read %s\n", !a ? argv[1] : argv[2]);
        return 2;
    }
    if (wa != wb || ha != hb) {
        printf("png_diff: sizes differ: %dx%d vs %dx%d\n", wa, ha, wb, hb);
        return 1;
    }
    double sum = 0;
    int max = 0;
    long off4 = 0;
    long n = (long)wa * ha;
    for (long i = 0; i < n; i++) {
        int pixel_max = 0;
        for (int c = 0; c < 3; c++) {
            int d = abs((int)a[i * 4 + c] - (int)b[i * 4 + c]);
            sum += d;
            if (d > pixel_max) pixel_max = d;
        }
        if (pixel_max > max) max = pixel_max;
        if (pixel_max > 4) off4++;
    }
    double mean = sum / (double)(n * 3);
    printf("png_diff: %dx%d: mean %.4f/255, max %d/255, %.3f%% of pixels off by more than 4\n", wa, ha, mean, max,
           100.0 * (double)off4 / (double)n);
    stbi_image_free(a);
    stbi_image_free(b);
    return mean <= max_mean ? 0 : 1;
}
