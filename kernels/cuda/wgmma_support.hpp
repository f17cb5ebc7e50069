#pragma once
// Whether a device can run the wgmma kernel (igemm_wgmma.cu), which is built for sm_90a alone: an
// sm_90a image loads on compute capability 9.0 devices only (H100, H200).
#include "backend/backend.hpp"

namespace kbench::gpu {

// yes on a 9.0 device; else no with the reason (the device's capability, or no usable device).
// Never throws.
Support wgmma_device_support(int device);

}  // namespace kbench::gpu
