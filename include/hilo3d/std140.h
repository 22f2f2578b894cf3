/** @file
 * hilo3d: std140 layout calculator (pure functions, no allocation, no GPU).
 *
 * A schema is a flat list of (name, type, array_count) entries, the contract of seed 004
 * "custom GLSL and UBO contract": scalars, vectors, matrices and fixed arrays of them, no
 * nested structs. hl_std140_compute gives each member's byte offset and strides per the
 * GLSL std140 rules:
 *   - float/int/uint/bool: size 4, align 4; vec2: 8/8; vec3: 12/16; vec4: 16/16.
 *   - matN: N columns of vecN, each column padded to 16 bytes (mat3 = 48 bytes).
 *   - arrays: every element (and every matrix column) rounded up to a 16-byte stride.
 *   - block size rounded up to 16.
 * Values given to hl_std140_write are tightly packed 4-byte scalars (float for float types,
 * int32 for int/bool, uint32 for uint); matrices column-major (mat3 = 9 floats).
 *
 * Implemented in src/shader/std140.c; used by the scene's uniform buffers and the renderer.
 */
#ifndef HILO3D_STD140_H
#define HILO3D_STD140_H

#include <stdint.h>

#include "hilo3d/export.h"
#include "hilo3d/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Limits of a schema (HL_ERR_VALIDATION beyond them): array_count at most
 * HL_STD140_MAX_ARRAY_COUNT; a block (every member's offset + size) at most
 * HL_STD140_MAX_BLOCK_SIZE bytes, the largest multiple of 16 a uint32 holds. Devices bind far
 * less as one uniform block (often 16-64 KiB): the renderer checks its own limit. */
#define HL_STD140_MAX_ARRAY_COUNT 65536u
#define HL_STD140_MAX_BLOCK_SIZE 0xfffffff0u

typedef enum hl_std140_type {
    HL_STD140_INVALID = 0,
    HL_STD140_FLOAT,
    HL_STD140_VEC2,
    HL_STD140_VEC3,
    HL_STD140_VEC4,
    HL_STD140_INT,
    HL_STD140_IVEC2,
    HL_STD140_IVEC3,
    HL_STD140_IVEC4,
    HL_STD140_UINT,
    HL_STD140_UVEC2,
    HL_STD140_UVEC3,
    HL_STD140_UVEC4,
    HL_STD140_BOOL,
    HL_STD140_MAT2,
    HL_STD140_MAT3,
    HL_STD140_MAT4,
    HL_STD140_TYPE_COUNT
} hl_std140_type;

/** GLSL spelling ("vec3", "mat4"...) and back (HL_STD140_INVALID when unknown). */
HL_API const char *hl_std140_type_name(hl_std140_type t);
HL_API hl_std140_type hl_std140_type_from_name(const char *glsl_name);
/** Number of 4-byte scalars one element holds when tightly packed (mat3 = 9). 0 if invalid. */
HL_API uint32_t hl_std140_type_scalars(hl_std140_type t);

/** One schema entry. name: a GLSL identifier (the caller keeps the string alive for the
 * duration of the call only). array_count: 0 = not an array, N = `type name[N]`. */
typedef struct hl_std140_entry {
    const char *name;
    hl_std140_type type;
    uint32_t array_count;
} hl_std140_entry;

/** Where a member lives. size is the member's total padded footprint (for an array:
 * array_stride * count); matrix_stride is 16 for matrices, 0 otherwise; array_stride 0
 * when not an array. */
typedef struct hl_std140_member {
    uint32_t offset;
    uint32_t size;
    uint32_t align;
    uint32_t array_stride;
    uint32_t matrix_stride;
} hl_std140_member;

/** Fills members[0..count-1] (the caller's array holds count members: the entries and the
 * members are parallel arrays of one size) and *out_size (block size, multiple of 16). Fails
 * with HL_ERR_VALIDATION naming the entry on: NULL/empty/non-identifier/duplicate name, invalid
 * type, count == 0, array_count or block size over the limits above; members and *out_size
 * may then be partly written. */
HL_API hl_result hl_std140_compute(const hl_std140_entry *entries, uint32_t count, hl_std140_member *members,
                            uint32_t *out_size);

/** Scatters value_count tightly packed scalars (values holds value_count * 4 bytes) into block
 * (block_size bytes) at member m (of type t with array_count elements, 0 = not an array).
 * value_count must be the full hl_std140_type_scalars(t) * max(array_count, 1). Returns
 * HL_ERR_VALIDATION otherwise, or when any byte the write would touch (from m->offset, m->size
 * and the strides in m, whatever produced them) lies outside block_size; nothing is written
 * then. *changed (optional) says whether any byte changed; *dirty_lo / *dirty_hi (optional)
 * get the written byte range [lo, hi). */
HL_API hl_result hl_std140_write(void *block, uint32_t block_size, const hl_std140_member *m, hl_std140_type t,
                          uint32_t array_count, const void *values, uint32_t value_count, int *changed,
                          uint32_t *dirty_lo, uint32_t *dirty_hi);

#ifdef __cplusplus
}
#endif

#endif
