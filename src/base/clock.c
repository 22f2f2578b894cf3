/* Monotonic time for deadlines and frame timers. */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "hl_base.h"

uint64_t hl__now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
