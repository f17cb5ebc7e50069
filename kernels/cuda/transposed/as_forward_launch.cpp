// A stride-1 transposed convolution on a forward kernel (forward_equivalent.hpp): each execution
// first writes the forward weights from the run's own, then runs the forward launch on them.
#include <utility>

#include "cuda/common/family_launcher.hpp"
#include "cuda/transposed/forward_weights.hpp"
#include "runtime/device_buffer.hpp"

namespace kbench::gpu::conv {

namespace {

class AsForwardLaunch final : public KernelLaunch {
 public:
  AsForwardLaunch(const ConvProblem& forward, std::unique_ptr<KernelLaunch> forward_launch,
                  KernelDescription description)
      : KernelLaunch(std::move(description)),
        forward_(forward),
        weights_(forward.weight_elements()),
        forward_launch_(std::move(forward_launch)) {}
  void enqueue(const Operands& ops, cudaStream_t stream) override {
    launch_forward_weights(forward_, ops.w, weights_.data(), stream);
    forward_launch_->enqueue(Operands{ops.x, weights_.data(), ops.bias, ops.y}, stream);
  }

 private:
  ConvProblem forward_;
  DeviceBuffer<float> weights_;
  std::unique_ptr<KernelLaunch> forward_launch_;
};

}  // namespace

std::unique_ptr<KernelLaunch> make_as_forward_launch(const ConvProblem& forward,
                                                     std::unique_ptr<KernelLaunch> forward_launch,
                                                     KernelDescription description) {
  return std::make_unique<AsForwardLaunch>(forward, std::move(forward_launch), std::move(description));
}

}  // namespace kbench::gpu::conv
