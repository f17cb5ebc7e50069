#pragma once
// Whether a device can run a cuda kernel choice. Every choice runs on any device this build targets,
// except the wgmma ones: their kernel (igemm_wgmma.cu) is built for sm_90a alone, and an sm_90a
// image loads on compute capability 9.0 devices only (H100, H200). The one place the cuda backend
// (supports, variants) and its exhaustive search ask.
#include "backend/backend.hpp"

namespace kbench::gpu {

namespace conv {
struct KernelChoice;  // cuda/kernel_selection.hpp (not included: it is host-only, and nvcc includes this)
}

// yes on a 9.0 device; else no with the reason (the device's capability, or no usable device).
// Never throws.
Support wgmma_device_support(int device);

// yes for a choice that is not wgmma; else wgmma_device_support(device).
Support choice_runs_on(const conv::KernelChoice& choice, int device);

}  // namespace kbench::gpu
