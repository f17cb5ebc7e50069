#pragma once
// A problem prepared on the cuda backend: GpuPreparedRun's buffers and timing, plus one kernel plan.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cuda/kernel_plan.hpp"
#include "runtime/gpu_prepared_run.hpp"

namespace kbench::gpu {

class CudaPreparedRun final : public GpuPreparedRun {
 public:
  CudaPreparedRun(const ConvProblem& problem, int device, const conv::KernelChoice& choice, MathMode requested);

  std::string implementation() const override { return plan_->implementation(); }
  MathMode math_used() const override { return conv::family_math(choice_.family); }
  std::vector<std::pair<std::string, std::string>> properties() const override;

 protected:
  void enqueue(cudaStream_t stream) override;

 private:
  conv::KernelChoice choice_;
  std::unique_ptr<conv::KernelPlan> plan_;
};

}  // namespace kbench::gpu
