#pragma once
// Whether the device present can run a cuda kernel choice: registry.hpp's architecture
// needs (wgmma on 9.0, bulk copies on 9.0 or later) asked of the device's compute capability. The
// one place the cuda backend (supports, variants) and its exhaustive search ask.
#include <string>

#include "backend/backend.hpp"
#include "problem/conv_problem.hpp"

namespace kbench::gpu {

namespace conv {
struct KernelChoice;  // cuda/common/kernel_choice.hpp (not included: it is host-only, and nvcc includes this)
}

// Whether the current device can load this build's kernels (compiled for sm_90, with its PTX): asks
// the runtime about the direct kernel, which every problem can fall back to (direct/direct.cu).
namespace conv {
bool kernel_image_loadable(std::string* reason);
}

// yes on a 9.0 device; else no with the reason (the device's capability, or no usable device).
// Never throws.
Support wgmma_device_support(int device);

// yes on a device of compute capability 9.0 or later; else no with the reason. Never throws.
Support bulk_copy_device_support(int device);

// What the choice's instructions need of the device (above); yes for every other choice.
Support choice_runs_on(const conv::KernelChoice& choice, int device);

// Whether the choice runs anything but its family's default on the device (no_split_k where the
// default would not split: registry.hpp's split_variant_on_device, asked with the
// device's SM count). Never throws.
Support choice_differs_on(const conv::KernelChoice& choice, const ConvProblem& problem, int device);

}  // namespace kbench::gpu
