#pragma once
// The launch side of each kernel family: the device facts its launch counts with, the launch, and
// the device memory that launch takes beyond the problem's tensors. Declared here, defined in each family's
// folder (direct/direct_launcher.cpp, depthwise/depthwise_launcher.cpp, implicit_gemm/igemm_launcher.cpp,
// transposed/phase_launcher.cpp, half_gemm/half_gemm_launcher.cpp,
// half_gemm/half_phase_launcher.cpp, depthwise_nhwc/depthwise_nhwc_launcher.cpp,
// wgrad/wgrad_launcher.cpp, wgrad/wgrad_depthwise_launcher.cpp); kernel_launch.cpp picks a family's
// launcher and builds the launch.
#include <cstdint>
#include <memory>

#include "cuda/kernel_launch.hpp"

namespace kbench::gpu::conv {

struct FamilyLauncher {
  // Fills in what the launch needs of the current device beyond its SMs (and configures the kernel
  // where a query needs it configured first); null where nothing.
  void (*configure)(const KernelChoice& choice, const ConvProblem& problem, LaunchDevice& device) = nullptr;
  // The launch of a problem the family runs as it is (choice_envelope holds).
  std::unique_ptr<KernelLaunch> (*make_launch)(const KernelChoice& choice, const ConvProblem& problem,
                                               const LaunchDevice& device, KernelDescription description) = nullptr;
  // Device memory the launch allocates beyond the problem's tensors; null where none.
  std::int64_t (*device_bytes)(const KernelChoice& choice, const ConvProblem& problem,
                               const LaunchDevice& device) = nullptr;
};

const FamilyLauncher& direct_launcher();
const FamilyLauncher& direct_tiled_launcher();
const FamilyLauncher& depthwise2d_launcher();
const FamilyLauncher& implicit_gemm_launcher();
const FamilyLauncher& transposed_phase_launcher();
const FamilyLauncher& implicit_gemm_half_launcher();
const FamilyLauncher& transposed_phase_half_launcher();
const FamilyLauncher& depthwise_nhwc_launcher();
const FamilyLauncher& wgrad_gemm_launcher();
const FamilyLauncher& wgrad_depthwise_launcher();

// A stride-1 transposed convolution on a forward kernel (forward_equivalent.hpp): each execution
// first writes the forward weights from the run's own, then runs `forward_launch` on them.
std::unique_ptr<KernelLaunch> make_as_forward_launch(const ConvProblem& forward,
                                                     std::unique_ptr<KernelLaunch> forward_launch,
                                                     KernelDescription description);

}  // namespace kbench::gpu::conv
