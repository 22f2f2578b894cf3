/** @file
 * hilo3d: HL_API, the mark on every public function declaration.
 *
 * The shared library (built with -DBUILD_SHARED_LIBS=ON) compiles with -fvisibility=hidden and
 * HILO3D_BUILDING_SHARED defined, so the functions marked here are the only ones it exports;
 * everything else the engine's layers share stays inside it. For the static library and for
 * programs using either library, HL_API is empty.
 */
#ifndef HILO3D_EXPORT_H
#define HILO3D_EXPORT_H

/** Marks a public function: exported from the shared library, empty everywhere else. */
#if defined(HILO3D_BUILDING_SHARED) && (defined(__GNUC__) || defined(__clang__))
#define HL_API __attribute__((visibility("default")))
#else
#define HL_API
#endif

#endif
