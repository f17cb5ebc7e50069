// The launch side of the `wgrad_depthwise` family (common/family_launcher.hpp): the slices chosen for the
// device and the workspace their partials take.
#include <utility>

#include "cuda/common/family_launcher.hpp"
#include "cuda/wgrad/wgrad_depthwise_family.hpp"
#include "cuda/wgrad/wgrad.hpp"
#include "runtime/device_buffer.hpp"

namespace kbench::gpu::conv {

namespace {

class WgradDepthwiseLaunch final : public KernelLaunch {
 public:
  WgradDepthwiseLaunch(const ConvProblem& p, const LaunchDevice& device, KernelDescription description)
      : KernelLaunch(std::move(description)),
        desc_(wgrad_depthwise::make_wgrad_depthwise_params(p, device.sms)),
        workspace_(wgrad_depthwise::workspace_elements(desc_)) {}
  void enqueue(const Operands& ops, cudaStream_t stream) override {
    wgrad_depthwise::launch_wgrad_depthwise(desc_, ops, workspace_.data(), stream);
  }

 private:
  wgrad_depthwise::WgradDepthwiseParams desc_;
  DeviceBuffer<float> workspace_;
};

}  // namespace

const FamilyLauncher& wgrad_depthwise_launcher() {
  static const FamilyLauncher launcher{
      .make_launch = [](const KernelChoice&, const ConvProblem& p, const LaunchDevice& device, KernelDescription d)
          -> std::unique_ptr<KernelLaunch> { return std::make_unique<WgradDepthwiseLaunch>(p, device, std::move(d)); },
      .device_bytes = [](const KernelChoice&, const ConvProblem& p, const LaunchDevice& device) -> std::int64_t {
        return wgrad_depthwise::workspace_elements(wgrad_depthwise::make_wgrad_depthwise_params(p, device.sms)) *
               std::int64_t{sizeof(float)};
      },
  };
  return launcher;
}

}  // namespace kbench::gpu::conv
