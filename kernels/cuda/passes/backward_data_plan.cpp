#include "cuda/passes/backward_data_plan.hpp"

#include <utility>

namespace kbench::gpu::conv {

namespace {

class BackwardDataPlan final : public KernelPlan {
 public:
  BackwardDataPlan(std::unique_ptr<KernelPlan> forward_plan, KernelDescription description)
      : KernelPlan(std::move(description)), forward_plan_(std::move(forward_plan)) {}
  void enqueue(const Operands& ops, cudaStream_t stream) override { forward_plan_->enqueue(ops, stream); }

 private:
  std::unique_ptr<KernelPlan> forward_plan_;
};

}  // namespace

std::unique_ptr<KernelPlan> make_backward_data_plan(std::unique_ptr<KernelPlan> forward_plan,
                                                    KernelDescription description) {
  return std::make_unique<BackwardDataPlan>(std::move(forward_plan), std::move(description));
}

}  // namespace kbench::gpu::conv
