#include "cuda/cuda_prepared_run.hpp"

namespace kbench::gpu {

// The base constructor made `device` current, so the plan's buffers and kernel settings land on it.
CudaPreparedRun::CudaPreparedRun(const ConvProblem& problem, int device, conv::Family family, MathMode requested)
    : GpuPreparedRun(problem, device), family_(family), plan_(conv::make_kernel_plan(family, problem, requested)) {}

std::vector<std::pair<std::string, std::string>> CudaPreparedRun::properties() const {
  std::vector<std::pair<std::string, std::string>> props = {{"kernel_family", std::string(conv::family_name(family_))}};
  for (auto& p : plan_->properties()) props.push_back(std::move(p));
  return props;
}

void CudaPreparedRun::enqueue(cudaStream_t stream) { plan_->enqueue(conv::Operands{x(), w(), b(), y()}, stream); }

}  // namespace kbench::gpu
