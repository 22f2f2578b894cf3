/* An allocator hook for counted frames (px_render_alloc, bench/scene_draws --trace-allocs):
 * while tracing is on, every hilo3d allocation prints its size and call stack to stderr (glibc's
 * backtrace; resolve the offsets with addr2line), so an allocation in a steady frame on another
 * machine says where it came from; while frees are held, freed blocks are kept back (released
 * when holding ends), so the application's new objects come at addresses never seen, where the
 * C library would otherwise hand a freed object's memory to the next new one. */
#ifndef HL_TEST_ALLOC_H
#define HL_TEST_ALLOC_H

#include <stdbool.h>

/* Installs the hook (hl_set_allocator: before any hilo3d object exists); who prefixes the
 * messages. */
void hl_test_alloc_install(const char *who);
/* Tracing on or off (off at install). */
void hl_test_alloc_trace(bool on);
/* Holding frees on or off (off at install); off releases what was held. At most 8,192 blocks
 * are held, later frees go through. */
void hl_test_alloc_hold_frees(bool on);

#endif
