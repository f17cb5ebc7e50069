#pragma once
// The launch side of a kernel family: a launch (KernelLaunch: a problem set up for one family, device
// tables and buffers built, kernels configured, ready to be enqueued any number of times) and the
// family's launcher (the device facts its launch counts with, the launch, the device memory it takes
// beyond the problem's tensors). Each launcher is declared here from families.def and defined in its
// family's folder (its `*_launcher.cpp`); kernel_launch.cpp picks a family's launcher from the same
// list and builds the launch. Includes no family folder.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "core/types.hpp"
#include "cuda/common/family_descriptor.hpp"
#include "cuda/common/operands.hpp"
#include "problem/conv_problem.hpp"

namespace kbench::gpu::conv {

class KernelLaunch {
 public:
  explicit KernelLaunch(KernelDescription description) : description_(std::move(description)) {}
  virtual ~KernelLaunch() = default;
  // The kernel that runs, e.g. "implicit_gemm_tf32/k_table/96x128" (family/reduction order/tile),
  // and its facts: describe_kernel's answer for this device.
  const std::string& implementation() const { return description_.implementation; }
  const Properties& properties() const { return description_.properties; }
  // Every kernel of one execution, on `stream`, no synchronisation.
  virtual void enqueue(const Operands& ops, cudaStream_t stream) = 0;

 private:
  KernelDescription description_;
};

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
