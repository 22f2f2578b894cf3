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

/* Limits of a schema (HL_ERR_VALIDATION beyond them): array_count at most
 * HL_STD140_MAX_ARRAY_COUNT; a block (every member's offset + size) at most
 * HL_STD140_MAX_BLOCK_SIZE bytes, the largest multiple of 16 a uint32 holds. Devices bind far
 * less as one uniform block (often 16-64 KiB): the renderer checks its own limit. */
/** The largest array_count of a schema entry. */
#define HL_STD140_MAX_ARRAY_COUNT 65536u
/** The largest block (every member's offset + size), in bytes: the largest multiple of 16 a
 * uint32 holds. Devices bind far less as one uniform block (often 16-64 KiB): the renderer
 * checks its own limit. */
#define HL_STD140_MAX_BLOCK_SIZE 0xfffffff0u

/** The GLSL types a std140 schema may hold (size / alignment in bytes per element; arrays
 * round every element up to 16). */
typedef enum hl_std140_type {
    HL_STD140_INVALID = 0, /**< no type: refused in schemas, returned for unknown names */
    HL_STD140_FLOAT,       /**< float: 4 / 4 */
    HL_STD140_VEC2,        /**< vec2: 8 / 8 */
    HL_STD140_VEC3,        /**< vec3: 12 / 16 */
    HL_STD140_VEC4,        /**< vec4: 16 / 16 */
    HL_STD140_INT,         /**< int: 4 / 4 (values int32) */
    HL_STD140_IVEC2,       /**< ivec2: 8 / 8 */
    HL_STD140_IVEC3,       /**< ivec3: 12 / 16 */
    HL_STD140_IVEC4,       /**< ivec4: 16 / 16 */
    HL_STD140_UINT,        /**< uint: 4 / 4 (values uint32) */
    HL_STD140_UVEC2,       /**< uvec2: 8 / 8 */
    HL_STD140_UVEC3,       /**< uvec3: 12 / 16 */
    HL_STD140_UVEC4,       /**< uvec4: 16 / 16 */
    HL_STD140_BOOL,        /**< bool: 4 / 4 (values int32, 0 or 1) */
    HL_STD140_MAT2,        /**< mat2: 2 columns of 16 bytes (4 scalars given) */
    HL_STD140_MAT3,        /**< mat3: 3 columns of 16 bytes, 48 in all (9 scalars given) */
    HL_STD140_MAT4,        /**< mat4: 4 columns of 16 bytes (16 scalars given) */
    HL_STD140_TYPE_COUNT   /**< the number of values above; not a type */
} hl_std140_type;

/** GLSL spelling ("vec3", "mat4"...); "invalid" for HL_STD140_INVALID and values outside the enum. */
HL_API const char *hl_std140_type_name(hl_std140_type t);
/** The type spelled glsl_name in GLSL ("vec3", "mat4"...); HL_STD140_INVALID when unknown or NULL. */
HL_API hl_std140_type hl_std140_type_from_name(const char *glsl_name);
/** Number of 4-byte scalars one element holds when tightly packed (mat3 = 9). 0 if invalid. */
HL_API uint32_t hl_std140_type_scalars(hl_std140_type t);

/** One schema entry. name: a GLSL identifier (the caller keeps the string alive for the
 * duration of the call only). array_count: 0 = not an array, N = `type name[N]`. */
typedef struct hl_std140_entry {
    const char *name;     /**< the member's GLSL identifier, unique in the schema */
    hl_std140_type type;  /**< its type (not HL_STD140_INVALID) */
    uint32_t array_count; /**< 0 = not an array; N = `type name[N]`, at most HL_STD140_MAX_ARRAY_COUNT */
} hl_std140_entry;

/** Where a member lives. size is the member's total padded footprint (for an array:
 * array_stride * count); matrix_stride is 16 for matrices, 0 otherwise; array_stride 0
 * when not an array. */
typedef struct hl_std140_member {
    uint32_t offset;        /**< byte offset in the block (a multiple of align) */
    uint32_t size;          /**< padded footprint in bytes (arrays: array_stride * count) */
    uint32_t align;         /**< base alignment in bytes (4, 8 or 16) */
    uint32_t array_stride;  /**< bytes between elements (a multiple of 16); 0 when not an array */
    uint32_t matrix_stride; /**< bytes between matrix columns: 16 for matrices, else 0 */
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
