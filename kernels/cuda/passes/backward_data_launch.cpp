#include "cuda/passes/backward_data_launch.hpp"

#include <utility>

namespace kbench::gpu::conv {

namespace {

class BackwardDataLaunch final : public KernelLaunch {
 public:
  BackwardDataLaunch(std::unique_ptr<KernelLaunch> forward_launch, KernelDescription description)
      : KernelLaunch(std::move(description)), forward_launch_(std::move(forward_launch)) {}
  void enqueue(const Operands& ops, cudaStream_t stream) override { forward_launch_->enqueue(ops, stream); }

 private:
  std::unique_ptr<KernelLaunch> forward_launch_;
};

}  // namespace

std::unique_ptr<KernelLaunch> make_backward_data_launch(std::unique_ptr<KernelLaunch> forward_launch,
                                                        KernelDescription description) {
  return std::make_unique<BackwardDataLaunch>(std::move(forward_launch), std::move(description));
}

}  // namespace kbench::gpu::conv
