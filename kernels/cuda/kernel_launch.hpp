#pragma once
// A resolved choice's launch, built by the cuda backend's prepared run on its device from the
// family's launcher (common/family_launcher.hpp), and the device memory it takes.
#include <cstdint>
#include <memory>

#include "cuda/common/family_launcher.hpp"
#include "problem/conv_problem.hpp"

namespace kbench::gpu::conv {

// The launch of a resolved choice: one that lies in its envelope for `problem`, as resolve_choice
// (selection.hpp) or search_candidates answered when the run was prepared. Its envelope is not
// asked again here: one result asks each envelope once.
std::unique_ptr<KernelLaunch> make_kernel_launch(const KernelChoice& choice, const ConvProblem& problem);

// Device memory a launch allocates beyond the problem's tensors (packed weights, index tables, split-K's
// workspace) on `device`.
std::int64_t launch_device_bytes(const KernelChoice& choice, const ConvProblem& problem, const LaunchDevice& device);

}  // namespace kbench::gpu::conv
