/* Thread ownership of devices (ids, descriptions, the misuse message) and wait deadlines. */
#define _GNU_SOURCE /* gettid */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core_private.h"

_Thread_local uint64_t hl__tls_thread_id;
static _Atomic uint64_t hl__thread_counter;

uint64_t hl__thread_id_assign(void) {
    if (!hl__tls_thread_id) hl__tls_thread_id = atomic_fetch_add(&hl__thread_counter, 1u) + 1u;
    return hl__tls_thread_id;
}

long hl__thread_os_id(void) { return (long)gettid(); }

void hl__thread_describe(long os_tid, char *buf, size_t size) {
    /* The name from /proc: works for any live thread of the process, on the error path only. */
    char path[64], name[32] = "";
    snprintf(path, sizeof path, "/proc/self/task/%ld/comm", os_tid);
    FILE *f = fopen(path, "r");
    if (f) {
        if (!fgets(name, sizeof name, f)) name[0] = '\0';
        fclose(f);
        name[strcspn(name, "\n")] = '\0';
    }
    if (name[0])
        snprintf(buf, size, "thread %ld (\"%s\")", os_tid, name);
    else
        snprintf(buf, size, "thread %ld (no longer running)", os_tid);
}

void hl__set_owner_here(hl_rhi_device *dev) {
    atomic_store(&dev->owner_tid, hl__thread_os_id());
    atomic_store(&dev->owner, hl__thread_id());
}

hl_result hl__fail_thread(const hl_rhi_device *dev, const char *fn) {
    hl_rhi_device *d = (hl_rhi_device *)dev;
    char self[64], owner[64];
    hl__thread_describe(hl__thread_os_id(), self, sizeof self);
    if (atomic_load(&d->owner) == 0)
        return hl__fail(HL_ERR_INVALID_STATE,
                        "%s: the device is detached (no thread owns it) and %s called; call "
                        "hl_rhi_device_attach on this thread first",
                        fn, self);
    hl__thread_describe(atomic_load(&d->owner_tid), owner, sizeof owner);
    return hl__fail(HL_ERR_INVALID_STATE,
                    "%s: the device belongs to %s, not to the calling %s; hand it over with "
                    "hl_rhi_device_detach on its owner, then hl_rhi_device_attach here",
                    fn, owner, self);
}

/* ---- deadlines ------------------------------------------------------------------------------ */
uint64_t hl__deadline(uint64_t timeout_ns) {
    uint64_t now = hl__now_ns();
    return timeout_ns >= UINT64_MAX - now ? UINT64_MAX : now + timeout_ns;
}

uint64_t hl__time_left(uint64_t deadline) {
    if (deadline == UINT64_MAX) return UINT64_MAX;
    uint64_t now = hl__now_ns();
    return deadline > now ? deadline - now : 0;
}

uint64_t hl__wait_timeout_ns(uint32_t timeout_ms) {
    if (timeout_ms == HL_RHI_WAIT_FOREVER) return UINT64_MAX;
    if (timeout_ms == 0) timeout_ms = HL_RHI_WAIT_TIMEOUT_DEFAULT_MS;
    return (uint64_t)timeout_ms * 1000000u;
}

const char *hl__duration_text(uint64_t ns, char *buf, size_t size) {
    if (ns == UINT64_MAX)
        snprintf(buf, size, "no limit");
    else if (ns % 1000000u == 0 && ns < 10000000000ull)
        snprintf(buf, size, "%" PRIu64 " ms", ns / 1000000u);
    else if (ns < 1000000u)
        snprintf(buf, size, "%" PRIu64 " ns", ns);
    else if (ns < 10000000000ull)
        snprintf(buf, size, "%.1f ms", (double)ns / 1e6);
    else
        snprintf(buf, size, "%.1f s", (double)ns / 1e9);
    return buf;
}
