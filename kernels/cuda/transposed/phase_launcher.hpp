#pragma once
// Transposed convolution by phase decomposition (families transposed_phase_ffma / _3xtf32 / _tf32):
// one implicit GEMM per tapped phase combination, computing only taps that land; untapped outputs
// written as the bias by the first GEMM launch (or a stand-alone fill when no phase has work).
#include <memory>

#include "cuda/common/family_launcher.hpp"

namespace kbench::gpu::conv {

// `description`: describe_kernel's for the choice on `device`.
std::unique_ptr<KernelLaunch> make_phase_launch(const KernelChoice& choice, const ConvProblem& problem,
                                                const LaunchDevice& device, KernelDescription description);
std::int64_t phase_launch_device_bytes(const KernelChoice& choice, const ConvProblem& problem,
                                       const LaunchDevice& device);

}  // namespace kbench::gpu::conv
