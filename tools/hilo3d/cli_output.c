/* Checked output of the hilo3d tool: every write error is reported with its reason and turns
 * into exit code 1. Files are written whole from memory (so the first failing call gives the
 * errno to report), through a temporary file renamed over the target. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBI_WRITE_NO_STDIO /* PNG to memory only: the writes below are the checked ones */
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wsign-compare"
#endif
#include <stb/stb_image_write.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

/* ---- standard output ------------------------------------------------------------------- */

/* errno of the first failed write to stdout (0: none seen); a later fflush may not repeat it. */
static int g_stdout_errno = 0;

static void note_stdout_error(void) {
    if (!g_stdout_errno) g_stdout_errno = errno ? errno : EIO;
}

int hl_cli_printf(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    errno = 0;
    int n = vfprintf(stdout, fmt, ap);
    va_end(ap);
    if (n < 0) note_stdout_error();
    return n;
}

static int write_stdout(const void *data, size_t size) {
    errno = 0;
    if (fwrite(data, 1, size, stdout) != size || fflush(stdout) != 0) {
        note_stdout_error();
        return 1;
    }
    return 0;
}

int hl_cli_close_stdout(void) {
    errno = 0;
    if (fflush(stdout) != 0) note_stdout_error();
    bool failed = ferror(stdout) || g_stdout_errno;
    errno = 0;
    if (fclose(stdout) != 0) {
        note_stdout_error();
        failed = true;
    }
    if (!failed) return 0;
    hl_cli_error("cannot write standard output: %s", strerror(g_stdout_errno ? g_stdout_errno : EIO));
    return 1;
}

/* ---- files ----------------------------------------------------------------------------- */

/* Creates the folders above the last '/' of path (mkdir -p of its dirname). Returns 0, or
 * errno with the failing folder left in dir. */
static int make_parent_dirs(const char *path, char *dir, size_t dir_size) {
    size_t len = strlen(path);
    if (len >= dir_size) return ENAMETOOLONG;
    memcpy(dir, path, len + 1);
    for (size_t i = 1; i < len; i++) {
        if (dir[i] != '/' || dir[i - 1] == '/') continue;
        dir[i] = '\0';
        if (mkdir(dir, 0777) != 0) {
            int e = errno;
            struct stat st;
            if (stat(dir, &st) != 0) return e;
            if (!S_ISDIR(st.st_mode)) return ENOTDIR;
        }
        dir[i] = '/';
    }
    return 0;
}

static int write_all(int fd, const void *data, size_t size) {
    const unsigned char *p = data;
    while (size > 0) {
        ssize_t n = write(fd, p, size);
        if (n < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        if (n == 0) return EIO;
        p += n;
        size -= (size_t)n;
    }
    return 0;
}

/* Writes in place: devices, pipes, and paths that are not regular files. Returns 0 or errno. */
static int write_in_place(const char *path, const void *data, size_t size) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) return errno;
    int e = write_all(fd, data, size);
    if (close(fd) != 0 && !e) e = errno;
    return e;
}

/* Writes a temporary file next to path and renames it over path. Returns 0 or errno; *stage
 * says which step failed. */
static int write_atomic(const char *path, const struct stat *old, const void *data, size_t size,
                        const char **stage) {
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0;
    char tmp[PATH_MAX];
    int fd = -1;
    /* ".<name>.<pid>.<n>.tmp": O_EXCL so an existing file is never reused; mode 0666 minus
     * the umask, as a plain fopen would create it. */
    for (unsigned attempt = 0; fd < 0 && attempt < 100; attempt++) {
        int n = snprintf(tmp, sizeof tmp, "%.*s.%s.%ld.%u.tmp", (int)dir_len, path, path + dir_len, (long)getpid(),
                         attempt);
        if (n < 0 || (size_t)n >= sizeof tmp) {
            *stage = "cannot create a temporary file";
            return ENAMETOOLONG;
        }
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST) break;
    }
    if (fd < 0) {
        *stage = "cannot create a temporary file";
        return errno;
    }
    int e = 0;
    *stage = NULL;
    if (old && fchmod(fd, old->st_mode & 0777) != 0) e = errno; /* keep the replaced file's mode */
    if (!e) e = write_all(fd, data, size);
    if (!e && fsync(fd) != 0) e = errno;
    if (close(fd) != 0 && !e) e = errno;
    if (!e && rename(tmp, path) != 0) e = errno;
    if (e) unlink(tmp);
    return e;
}

static int write_file(const char *path, const void *data, size_t size) {
    char buf[PATH_MAX];
    if (!path[0]) {
        hl_cli_error("cannot write an empty path");
        return 1;
    }
    int e = make_parent_dirs(path, buf, sizeof buf);
    if (e) {
        hl_cli_error("cannot create the folder of %s: %s: %s", path, buf, strerror(e));
        return 1;
    }
    /* A symbolic link is followed: its target gets replaced, the link stays. */
    const char *target = path;
    char *resolved = NULL;
    struct stat st;
    bool exists = lstat(path, &st) == 0;
    if (exists && S_ISLNK(st.st_mode)) {
        resolved = realpath(path, NULL); /* NULL for a dangling link: written in place below */
        if (resolved) {
            target = resolved;
            exists = stat(target, &st) == 0;
        }
    }
    /* /dev/stdout, /proc/self/fd/N: the open file behind the name is the destination, even
     * when it is a regular file, so it is never replaced. */
    bool in_place = strncmp(path, "/dev/", 5) == 0 || strncmp(path, "/proc/", 6) == 0;
    const char *stage = NULL;
    if (in_place || (exists && !S_ISREG(st.st_mode))) {
        e = write_in_place(target, data, size);
    } else {
        e = write_atomic(target, exists ? &st : NULL, data, size, &stage);
        /* A writable file in a folder we may not create files in: overwrite it in place. */
        if (e == EACCES && exists && stage) {
            stage = NULL;
            e = write_in_place(target, data, size);
        }
    }
    free(resolved);
    if (e) {
        if (stage) hl_cli_error("cannot write %s: %s: %s", path, stage, strerror(e));
        else hl_cli_error("cannot write %s: %s", path, strerror(e));
        return 1;
    }
    return 0;
}

int hl_cli_write_output(const char *path, const void *data, size_t size) {
    return path ? write_file(path, data, size) : write_stdout(data, size);
}

/* ---- PNG ------------------------------------------------------------------------------- */

typedef struct png_buffer {
    unsigned char *data;
    size_t size, cap;
    bool failed;
} png_buffer;

static void png_append(void *context, void *data, int size) {
    png_buffer *b = context;
    if (b->failed || size <= 0) return;
    size_t need = b->size + (size_t)size;
    if (need > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < need) cap *= 2;
        unsigned char *p = realloc(b->data, cap);
        if (!p) {
            b->failed = true;
            return;
        }
        b->data = p;
        b->cap = cap;
    }
    memcpy(b->data + b->size, data, (size_t)size);
    b->size = need;
}

int hl_cli_write_png(const char *path, uint32_t w, uint32_t h, const uint8_t *rgba) {
    if (w == 0 || h == 0 || w > INT_MAX / 4 || h > INT_MAX) {
        hl_cli_error("cannot write %s: %ux%u is not a PNG size", path ? path : "standard output", (unsigned)w,
                     (unsigned)h);
        return 1;
    }
    png_buffer b = {0};
    int ok = stbi_write_png_to_func(png_append, &b, (int)w, (int)h, 4, rgba, (int)w * 4);
    int rc;
    if (!ok || b.failed) {
        hl_cli_error("cannot encode %s: out of memory", path ? path : "standard output");
        rc = 1;
    } else {
        rc = hl_cli_write_output(path, b.data, b.size);
    }
    free(b.data);
    return rc;
}
