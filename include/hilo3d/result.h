/** @file
 * hilo3d: result codes, last-error messages and the allocator hook.
 *
 * Every fallible hilo3d call returns an hl_result. HL_OK is 0, so `if (r)` tests for failure.
 * On failure the call leaves a message naming the problem in a thread-local buffer that
 * hl_last_error() returns; the message stays until the next failure on the same thread.
 */
#ifndef HILO3D_RESULT_H
#define HILO3D_RESULT_H

#include <stddef.h>
#include <stdint.h>

#include "hilo3d/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One list generates the enum and the names (hl_result_name). */
#define HL_RESULTS(X)                                                                  \
    X(HL_OK, "ok")                                                                     \
    X(HL_ERR_VALIDATION, "validation error: the input breaks the API contract")        \
    X(HL_ERR_UNSUPPORTED, "unsupported by this backend or device")                     \
    X(HL_ERR_DEVICE_LOST, "device or context lost")                                    \
    X(HL_ERR_OUT_OF_MEMORY, "out of memory")                                           \
    X(HL_ERR_INVALID_STATE, "call not allowed in the current state")                   \
    X(HL_ERR_IO, "input/output error")                                                 \
    X(HL_ERR_PARSE, "parse error")                                                     \
    X(HL_ERR_NOT_FOUND, "not found")                                                   \
    X(HL_ERR_SHADER, "shader compilation or reflection failed")                        \
    X(HL_ERR_BACKEND, "the native API reported an error")                              \
    X(HL_ERR_TIMEOUT, "timed out")

typedef enum hl_result {
#define HL__RESULT_ENUM(name, text) name,
    HL_RESULTS(HL__RESULT_ENUM)
#undef HL__RESULT_ENUM
    HL_RESULT_COUNT
} hl_result;

/** "HL_ERR_VALIDATION" etc.; "HL_UNKNOWN" for values outside the list. */
HL_API const char *hl_result_name(hl_result r);
/** A sentence describing the code itself (not the last failure). */
HL_API const char *hl_result_text(hl_result r);
/** The message of the last failure on this thread ("" when none). */
HL_API const char *hl_last_error(void);
/** The code of the last failure on this thread (HL_OK when none). */
HL_API hl_result hl_last_error_code(void);
HL_API void hl_clear_error(void);

/** Host allocator hook. All heap memory hilo3d owns goes through it, so tests and benchmarks
 * can count allocations per frame. alloc/realloc/free follow the C library's contracts;
 * free(NULL) must be a no-op. Pass NULL to hl_set_allocator to restore the C library. Set it
 * before creating any object; memory must be freed by the allocator that made it. */
typedef struct hl_allocator {
    void *(*alloc)(size_t size, void *user);
    void *(*realloc)(void *ptr, size_t size, void *user);
    void (*free)(void *ptr, void *user);
    void *user;
} hl_allocator;

HL_API void hl_set_allocator(const hl_allocator *allocator);

/** Number of alloc + realloc calls made through the hook since the process started (counts
 * the default allocator too). The difference across a frame is that frame's allocations. */
HL_API uint64_t hl_alloc_count(void);

#ifdef __cplusplus
}
#endif

#endif
