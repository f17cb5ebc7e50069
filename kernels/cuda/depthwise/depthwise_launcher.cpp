// The launch side of the `depthwise2d` family (common/family_launcher.hpp): the register kernel, or the
// bulk-copy kernel, whose shared memory is opted in before the occupancy query that sizes the
// pipelined grid (as many blocks as stay resident).
#include <utility>

#include "cuda/common/family_launcher.hpp"
#include "cuda/depthwise/depthwise_family.hpp"
#include "cuda/depthwise/depthwise2d.hpp"

namespace kbench::gpu::conv {

namespace {

class DepthwiseLaunch final : public KernelLaunch {
 public:
  DepthwiseLaunch(const ConvProblem& p, std::optional<depthwise::StoreMode> stores, KernelDescription description)
      : KernelLaunch(std::move(description)), tiling_(depthwise_params(p, stores)) {}
  void enqueue(const Operands& ops, cudaStream_t stream) override {
    depthwise::launch_depthwise2d(tiling_, ops, stream);
  }

 private:
  depthwise::Params tiling_;
};

class DepthwiseBulkLaunch final : public KernelLaunch {
 public:
  DepthwiseBulkLaunch(const ConvProblem& p, depthwise::StoreMode mode, const LaunchDevice& device,
                      KernelDescription description)
      : KernelLaunch(std::move(description)),
        tiling_(depthwise_bulk_params(p, mode).tiling),
        blocks_(depthwise_bulk_blocks(tiling_, device)) {}
  void enqueue(const Operands& ops, cudaStream_t stream) override {
    depthwise::launch_depthwise2d_bulk(tiling_, blocks_, ops, stream);
  }

 private:
  depthwise::BulkParams tiling_;
  std::int64_t blocks_ = 0;
};

bool bulk(const KernelChoice& c) { return c.stores && depthwise::is_bulk(*c.stores); }

void configure(const KernelChoice& choice, const ConvProblem& problem, LaunchDevice& device) {
  if (!bulk(choice)) return;
  const depthwise::BulkParams tiling = depthwise_bulk_params(problem, *choice.stores).tiling;
  depthwise::configure_depthwise2d_bulk(tiling);
  if (tiling.stages > 1) device.bulk_resident_blocks = depthwise::depthwise2d_bulk_resident_blocks(tiling);
}

std::unique_ptr<KernelLaunch> make_launch(const KernelChoice& choice, const ConvProblem& problem,
                                          const LaunchDevice& device, KernelDescription description) {
  if (bulk(choice))
    return std::make_unique<DepthwiseBulkLaunch>(problem, *choice.stores, device, std::move(description));
  return std::make_unique<DepthwiseLaunch>(problem, choice.stores, std::move(description));
}

}  // namespace

const FamilyLauncher& depthwise2d_launcher() {
  static const FamilyLauncher launcher{.configure = configure, .make_launch = make_launch};
  return launcher;
}

}  // namespace kbench::gpu::conv
