/* Replays fuzz inputs without libFuzzer: every file named on the command line, and every
 * file inside each directory named, goes once through LLVMFuzzerTestOneInput. Calls
 * LLVMFuzzerInitialize first where the target defines one. Prints
 * "N passed, 0 failed" for CTest; a crash or sanitizer report fails the test. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* optional in a target, as with libFuzzer: called once before the first input */
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static int run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return 0;
    }
    uint8_t *buf = NULL;
    size_t size = 0, cap = 0;
    for (;;) {
        if (size == cap) {
            cap = cap ? cap * 2 : 4096;
            uint8_t *nb = realloc(buf, cap);
            if (!nb) break;
            buf = nb;
        }
        size_t n = fread(buf + size, 1, cap - size, f);
        if (!n) break;
        size += n;
    }
    fclose(f);
    LLVMFuzzerTestOneInput(buf ? buf : (const uint8_t *)"", size);
    free(buf);
    return 1;
}

int main(int argc, char **argv) {
    int count = 0;
    if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "replay: %s does not exist\n", argv[i]);
            printf("0 passed, 1 failed\n");
            return 1;
        }
        if (!S_ISDIR(st.st_mode)) {
            count += run_file(argv[i]);
            continue;
        }
        DIR *d = opendir(argv[i]);
        struct dirent *e;
        while (d && (e = readdir(d))) {
            if (e->d_name[0] == '.') continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
            count += run_file(path);
        }
        if (d) closedir(d);
    }
    if (count == 0) {
        fprintf(stderr, "replay: no inputs\n");
        printf("0 passed, 1 failed\n");
        return 1;
    }
    printf("%d passed, 0 failed\n", count);
    return 0;
}
