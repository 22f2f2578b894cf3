/* std140 layout calculator for in-tree layers (scene uniform buffers, renderer engine blocks).
 * The declarations are public API (include/hilo3d/std140.h); the implementation is
 * src/shader/std140.c, which includes no RHI header. */
#ifndef HL_STD140_H
#define HL_STD140_H

#include "hilo3d/std140.h"

#endif
