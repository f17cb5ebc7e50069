#pragma once
// A problem set up for one kernel family: device tables and buffers built, kernels configured, ready
// to be enqueued any number of times. Built by the cuda backend's prepared run, on its device.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/types.hpp"
#include "cuda/common/operands.hpp"
#include "cuda/kernel_description.hpp"
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

// The launch of a resolved choice: one that lies in its envelope for `problem`, as resolve_choice
// (kernel_selection.hpp) or search_candidates answered when the run was prepared. Its envelope is not
// asked again here: one result asks each envelope once.
std::unique_ptr<KernelLaunch> make_kernel_launch(const KernelChoice& choice, const ConvProblem& problem);

// Device memory a launch allocates beyond the problem's tensors (packed weights, index tables, split-K's
// workspace) on `device`.
std::int64_t launch_device_bytes(const KernelChoice& choice, const ConvProblem& problem, const LaunchDevice& device);

}  // namespace kbench::gpu::conv
