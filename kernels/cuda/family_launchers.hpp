#pragma once
// The launch side of each kernel family: the device facts its launch counts with, the launch, and
// the device memory that launch takes beyond the problem's tensors. Declared here from families.def,
// defined in each family's folder (its `*_launcher.cpp`); kernel_launch.cpp picks a family's launcher
// from the same list and builds the launch.
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

// Each family's launcher, as families.def names it (one function may serve several families).
#define KBENCH_CUDA_FAMILY(name, descriptor, launcher) const FamilyLauncher& launcher();
#include "cuda/families.def"

// A stride-1 transposed convolution on a forward kernel (forward_equivalent.hpp): each execution
// first writes the forward weights from the run's own, then runs `forward_launch` on them.
std::unique_ptr<KernelLaunch> make_as_forward_launch(const ConvProblem& forward,
                                                     std::unique_ptr<KernelLaunch> forward_launch,
                                                     KernelDescription description);

}  // namespace kbench::gpu::conv
