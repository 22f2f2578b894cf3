/* hilo3d RHI, the engine's side: the public contract (include/hilo3d/rhi.h) plus what only the
 * engine's layers and tests call. Not installed; these functions are not exported from the
 * shared library. */
#ifndef HL_RHI_H
#define HL_RHI_H

#include "hilo3d/rhi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* HL_OK when the calling thread owns dev, else HL_ERR_INVALID_STATE with the message every
 * RHI call gives, naming `caller` and both threads. For layers above the RHI that must refuse
 * a call before doing work of their own. Costs a thread-local read and a relaxed load. */
hl_result hl_rhi_device_check_thread(const hl_rhi_device *dev, const char *caller);

/* Tests only: fn (NULL = none) edits the capabilities of every device created or recreated
 * after the call (e.g. to make a recovery find a smaller device). Process-wide. */
void hl_rhi_set_test_caps_hook(void (*fn)(hl_rhi_caps *caps));

/* Tests only: the next hl_rhi_surface_acquire of s reports `status` (OUTDATED, TIMEOUT and LOST
 * without calling the backend or giving a texture; SUBOPTIMAL with the backend's texture), as a
 * driver would; OPTIMAL clears it. */
hl_result hl_rhi_surface_test_force_status(hl_rhi_device *dev, hl_rhi_surface s, hl_rhi_surface_status status);


#ifdef __cplusplus
}
#endif

#endif
