// The launch side of the `wgrad_gemm_ffma` family (common/family_launcher.hpp): the split chosen for the
// device and the workspace its partials take.
#include <utility>

#include "cuda/common/family_launcher.hpp"
#include "cuda/wgrad/wgrad_family.hpp"
#include "cuda/wgrad/wgrad.hpp"
#include "runtime/device_buffer.hpp"

namespace kbench::gpu::conv {

namespace {

class WgradLaunch final : public KernelLaunch {
 public:
  WgradLaunch(const ConvProblem& p, const LaunchDevice& device, KernelDescription description)
      : KernelLaunch(std::move(description)),
        desc_(wgrad::make_wgrad_params(p, device.sms)),
        workspace_(wgrad::workspace_elements(desc_)) {}
  void enqueue(const Operands& ops, cudaStream_t stream) override {
    wgrad::launch_wgrad(desc_, ops, workspace_.data(), stream);
  }

 private:
  wgrad::WgradParams desc_;
  DeviceBuffer<float> workspace_;
};

}  // namespace

const FamilyLauncher& wgrad_gemm_launcher() {
  static const FamilyLauncher launcher{
      .make_launch = [](const KernelChoice&, const ConvProblem& p, const LaunchDevice& device, KernelDescription d)
          -> std::unique_ptr<KernelLaunch> { return std::make_unique<WgradLaunch>(p, device, std::move(d)); },
      .device_bytes = [](const KernelChoice&, const ConvProblem& p, const LaunchDevice& device) -> std::int64_t {
        return wgrad::workspace_elements(wgrad::make_wgrad_params(p, device.sms)) * std::int64_t{sizeof(float)};
      },
  };
  return launcher;
}

}  // namespace kbench::gpu::conv
