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

/** One list generates the enum and the names (hl_result_name): X(code, sentence) per result,
 * in value order (hl_result_text returns the sentence). */
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

/** What a fallible call did: HL_OK (0) or the kind of failure; hl_last_error() has the details.
 * The values are HL_RESULTS in order (hl_result_text gives each one's sentence). */
typedef enum hl_result {
#define HL__RESULT_ENUM(name, text) name,
    HL_RESULTS(HL__RESULT_ENUM)
#undef HL__RESULT_ENUM
    HL_RESULT_COUNT /**< the number of codes; not a result any call returns */
} hl_result;
/* The values, documented here because the X-macro above writes them. */
/** @var HL_OK
 * Success (0: `if (r)` tests for failure). */
/** @var HL_ERR_VALIDATION
 * The input breaks the API contract: a bad descriptor field, a NULL where an object is needed, a
 * stale handle, an object of another renderer or device. The message names the field. */
/** @var HL_ERR_UNSUPPORTED
 * Valid input this backend or device cannot do (a missing feature, format or limit, Dawn not
 * found, compute on gles3). */
/** @var HL_ERR_DEVICE_LOST
 * The GPU device or GL context was lost; renderers recover on the next render call
 * (renderer.h, "Device loss"). */
/** @var HL_ERR_OUT_OF_MEMORY
 * An allocation failed (the host allocator's or the GPU's). */
/** @var HL_ERR_INVALID_STATE
 * The call is not allowed now: from a thread that does not own the object, inside a frame where
 * it must be outside, a handle kept past its scope, a second pending read. */
/** @var HL_ERR_IO
 * A file could not be read or written; the message names the path and the reason. */
/** @var HL_ERR_PARSE
 * Malformed input data (glTF JSON, an image, a shader scanner's input); the message says where. */
/** @var HL_ERR_NOT_FOUND
 * A named thing does not exist (a uniform member, a child node). */
/** @var HL_ERR_SHADER
 * A shader failed to compile or reflect; the message carries the compiler's. */
/** @var HL_ERR_BACKEND
 * The native API (Dawn, EGL, GL) reported an error the validation layer did not foresee. */
/** @var HL_ERR_TIMEOUT
 * A wait for the GPU gave up after its timeout; the work stays queued and a later wait may
 * succeed. */

/** The code's name, "HL_ERR_VALIDATION" etc.; "HL_UNKNOWN" for values outside the list (static
 * strings). */
HL_API const char *hl_result_name(hl_result r);
/** A sentence describing the code itself (not the last failure); "unknown result code" for values
 * outside the list. */
HL_API const char *hl_result_text(hl_result r);
/** The message of the last failure on this thread ("" when none). The buffer is the thread's own
 * (512 bytes, longer messages truncated) and is overwritten by the next failure on the thread;
 * successful calls leave it as it is. */
HL_API const char *hl_last_error(void);
/** The code of the last failure on this thread (HL_OK when none). */
HL_API hl_result hl_last_error_code(void);
/** Forgets this thread's last failure: hl_last_error() returns "" and hl_last_error_code() HL_OK
 * until the next failure. Other threads' messages are not touched. */
HL_API void hl_clear_error(void);

/** Host allocator hook. All heap memory hilo3d owns goes through it, so tests and benchmarks
 * can count allocations per frame. alloc/realloc/free follow the C library's contracts;
 * free(NULL) must be a no-op. Pass NULL to hl_set_allocator to restore the C library. Set it
 * before creating any object; memory must be freed by the allocator that made it. */
typedef struct hl_allocator {
    void *(*alloc)(size_t size, void *user);              /**< like malloc (never asked for 0 bytes) */
    void *(*realloc)(void *ptr, size_t size, void *user); /**< like realloc (never asked for 0 bytes) */
    void (*free)(void *ptr, void *user);                  /**< like free */
    void *user;                                           /**< passed to the three as given */
} hl_allocator;

/** Installs the allocator (copied), process-wide: every thread's later allocations use it. NULL,
 * or an allocator missing any of its three functions, restores the C library's. Not
 * thread-safe: call it once, before any hilo3d object exists and before other threads use
 * hilo3d. Dawn's and the drivers' own memory does not go through it. */
HL_API void hl_set_allocator(const hl_allocator *allocator);

/** Number of alloc + realloc calls made through the hook since the process started (counts
 * the default allocator too). The difference across a frame is that frame's allocations. */
HL_API uint64_t hl_alloc_count(void);

#ifdef __cplusplus
}
#endif

#endif
