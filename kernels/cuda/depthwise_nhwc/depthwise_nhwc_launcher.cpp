// The launch side of the `depthwise_nhwc` family (common/family_launcher.hpp): no device memory beyond the
// problem's tensors, nothing to configure (the slice's weights stay under the default 48 KB).
#include <memory>
#include <utility>

#include "cuda/common/family_launcher.hpp"
#include "cuda/depthwise_nhwc/depthwise_nhwc_family.hpp"
#include "cuda/depthwise_nhwc/depthwise_nhwc.hpp"

namespace kbench::gpu::conv {

namespace {

class DepthwiseNhwcLaunch final : public KernelLaunch {
 public:
  DepthwiseNhwcLaunch(const ConvProblem& p, KernelDescription description)
      : KernelLaunch(std::move(description)), tiling_(depthwise_nhwc::make_params(p)) {}
  void enqueue(const Operands& ops, cudaStream_t stream) override {
    depthwise_nhwc::launch_depthwise_nhwc(tiling_, ops, stream);
  }

 private:
  depthwise_nhwc::Params tiling_;
};

}  // namespace

const FamilyLauncher& depthwise_nhwc_launcher() {
  static const FamilyLauncher launcher{
      .make_launch = [](const KernelChoice&, const ConvProblem& p, const LaunchDevice&,
                        KernelDescription d) -> std::unique_ptr<KernelLaunch> {
        return std::make_unique<DepthwiseNhwcLaunch>(p, std::move(d));
      },
  };
  return launcher;
}

}  // namespace kbench::gpu::conv
