#pragma once
// A problem prepared on the cuda backend: GpuPreparedRun's buffers and timing, plus one kernel launch:
// the variant asked for, the default for the math, or (AlgoSearch::exhaustive) the fastest variant
// after timing every one on these buffers (selection.hpp).
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "backend/backend.hpp"
#include "cuda/kernel_launch.hpp"
#include "cuda/selection.hpp"
#include "runtime/gpu_prepared_run.hpp"

namespace kbench::gpu {

class CudaPreparedRun final : public GpuPreparedRun {
 public:
  // `search` exhaustive: `choice` is ignored and the search picks; heuristic: `choice` runs, as the
  // backend resolved it (conv::resolve_choice: in its envelope; the launch does not ask again).
  CudaPreparedRun(const ConvProblem& problem, int device, const conv::KernelChoice& choice, MathMode requested,
                  AlgoSearch search);

  std::string implementation() const override { return launch_->implementation(); }
  MathMode math_used() const override { return conv::family_math(choice_.family); }
  std::vector<std::pair<std::string, std::string>> properties() const override;

 protected:
  void enqueue(cudaStream_t stream) override;

 private:
  conv::SearchOutcome search(MathMode requested);

  conv::KernelChoice choice_;
  std::unique_ptr<conv::KernelLaunch> launch_;
  std::optional<conv::SearchOutcome> search_;
};

}  // namespace kbench::gpu
