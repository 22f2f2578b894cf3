#include "hl_test_alloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#if defined(__GLIBC__)
#include <execinfo.h>
#endif

#include "hilo3d/result.h"

enum { HELD_MAX = 8192 };
static const char *g_who = "";
static bool g_trace, g_hold;
static void *g_held[HELD_MAX];
static uint32_t g_held_count;

static void trace_stack(const char *what, size_t size) {
    if (!g_trace) return;
    fprintf(stderr, "%s: %s of %zu bytes in a counted frame:\n", g_who, what, size);
#if defined(__GLIBC__)
    void *frames[32];
    backtrace_symbols_fd(frames, backtrace(frames, 32), 2);
#endif
}

static void *hook_alloc(size_t size, void *user) {
    (void)user;
    trace_stack("allocation", size);
    return malloc(size);
}

static void *hook_realloc(void *ptr, size_t size, void *user) {
    (void)user;
    trace_stack("reallocation", size);
    return realloc(ptr, size);
}

static void hook_free(void *ptr, void *user) {
    (void)user;
    if (g_hold && ptr && g_held_count < HELD_MAX) g_held[g_held_count++] = ptr;
    else free(ptr);
}

void hl_test_alloc_install(const char *who) {
    static const hl_allocator hook = {hook_alloc, hook_realloc, hook_free, NULL};
    g_who = who ? who : "";
    hl_set_allocator(&hook);
}

void hl_test_alloc_trace(bool on) { g_trace = on; }

void hl_test_alloc_hold_frees(bool on) {
    g_hold = on;
    if (!on)
        while (g_held_count) free(g_held[--g_held_count]);
}
