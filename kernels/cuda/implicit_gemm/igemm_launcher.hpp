#pragma once
// Forward convolution as one implicit GEMM (families implicit_gemm_ffma / _3xtf32 / _tf32).
#include <memory>

#include "cuda/implicit_gemm/igemm_params.hpp"
#include "cuda/common/family_launcher.hpp"

namespace kbench::gpu::conv {

// `description`: describe_kernel's for the choice on `device`, whose SMs size a resident-A grid.
std::unique_ptr<KernelLaunch> make_igemm_launch(const KernelChoice& choice, const ConvProblem& problem,
                                                const LaunchDevice& device, KernelDescription description);
std::int64_t igemm_launch_device_bytes(const KernelChoice& choice, const ConvProblem& problem,
                                       const LaunchDevice& device);

}  // namespace kbench::gpu::conv
