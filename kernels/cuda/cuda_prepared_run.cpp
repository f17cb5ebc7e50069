#include "cuda/cuda_prepared_run.hpp"

namespace kbench::gpu {

// The base constructor made `device` current, so the plan's buffers and kernel settings land on it.
CudaPreparedRun::CudaPreparedRun(const ConvProblem& problem, int device, const conv::KernelChoice& choice,
                                 MathMode requested)
    : GpuPreparedRun(problem, device), choice_(choice), plan_(conv::make_kernel_plan(choice, problem, requested)) {}

std::vector<std::pair<std::string, std::string>> CudaPreparedRun::properties() const {
  std::vector<std::pair<std::string, std::string>> props = {{"kernel_family", std::string(conv::family_name(choice_.family))}};
  for (auto& p : plan_->properties()) props.push_back(std::move(p));
  return props;
}

void CudaPreparedRun::enqueue(cudaStream_t stream) { plan_->enqueue(conv::Operands{x(), w(), b(), y()}, stream); }

}  // namespace kbench::gpu
