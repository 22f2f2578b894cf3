/** @file
 * hilo3d: the whole public API in one include (the RHI, hilo3d/rhi.h, included: programs that
 * only use the renderer may include the headers they use instead). */
#ifndef HILO3D_H
#define HILO3D_H

#include "hilo3d/version.h"
#include "hilo3d/result.h"
#include "hilo3d/math3d.h"
#include "hilo3d/revision.h"
#include "hilo3d/std140.h"
#include "hilo3d/uniform.h"
#include "hilo3d/texture.h"
#include "hilo3d/environment.h"
#include "hilo3d/geometry.h"
#include "hilo3d/material.h"
#include "hilo3d/scene.h"
#include "hilo3d/gltf.h"
#include "hilo3d/renderer.h"
#include "hilo3d/pipeline.h"
#include "hilo3d/compute.h"
#include "hilo3d/rhi.h"

#endif
