/* The library's version (hilo3d/version.h): the string of the headers it was built with. */
#include "hilo3d/version.h"

const char *hl_version_string(void) { return HILO3D_VERSION_STRING; }
