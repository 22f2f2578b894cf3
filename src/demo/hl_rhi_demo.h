/* The RHI demo scene: a small test scene drawn with the RHI alone (what `hilo3d rhi-demo`
 * and `make demo` render until the scene renderer exists, and what the cross-backend test
 * compares). Depth-tested coloured and textured geometry, per-draw uniforms through dynamic
 * UBO offsets, an alpha-blended pane, 4x MSAA resolved into the output. */
#ifndef HL_RHI_DEMO_H
#define HL_RHI_DEMO_H

#include "hl_rhi.h"

typedef struct hl_rhi_demo_desc {
    uint32_t width, height; /* default 512 x 512 */
    uint32_t sample_count;  /* 1 or 4; default 4 */
} hl_rhi_demo_desc;

/* Renders one frame and reads it back into rgba (width * height * 4 bytes, row 0 = top).
 * frame_ns receives the CPU time of recording + submitting + waiting for the frame. */
hl_result hl_rhi_demo_render(hl_rhi_device *dev, const hl_rhi_demo_desc *desc, uint8_t *rgba, uint64_t *frame_ns);

#endif
