/** @file
 * hilo3d: the version of the headers and of the library.
 *
 * The three numbers below are the project's version (CMakeLists.txt reads them from this file,
 * so they are the only place it is written). Semantic versioning: before 1.0.0 a minor release
 * may change the API. HILO3D_VERSION_STRING is what these headers say; hl_version_string() is
 * what the library linked says (compare them to catch a mismatched install).
 */
#ifndef HILO3D_VERSION_H
#define HILO3D_VERSION_H

#include "hilo3d/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One number per line, nothing after it: CMakeLists.txt reads these lines. */
/** The major version: 0 while the API may still change in minor releases. */
#define HILO3D_VERSION_MAJOR 0
/** The minor version: new API (and, before 1.0.0, changed API). */
#define HILO3D_VERSION_MINOR 1
/** The patch version: fixes only. */
#define HILO3D_VERSION_PATCH 0

#define HILO3D__STR2(x) #x
#define HILO3D__STR(x) HILO3D__STR2(x)
/** "MAJOR.MINOR.PATCH", e.g. "0.1.0". */
#define HILO3D_VERSION_STRING                                                                                  \
    HILO3D__STR(HILO3D_VERSION_MAJOR) "." HILO3D__STR(HILO3D_VERSION_MINOR) "." HILO3D__STR(HILO3D_VERSION_PATCH)
/** One number that grows with every release: major * 10000 + minor * 100 + patch. */
#define HILO3D_VERSION_NUMBER (HILO3D_VERSION_MAJOR * 10000 + HILO3D_VERSION_MINOR * 100 + HILO3D_VERSION_PATCH)

/** The version of the library the program runs with, "MAJOR.MINOR.PATCH" (a static string): equal
 * to HILO3D_VERSION_STRING when headers and library come from the same install. */
HL_API const char *hl_version_string(void);

#ifdef __cplusplus
}
#endif

#endif
