// The launch side of the `direct` and `direct_tiled` families (common/family_launcher.hpp).
#include <utility>

#include "cuda/common/family_launcher.hpp"
#include "cuda/direct/direct_family.hpp"
#include "cuda/direct/direct.hpp"
#include "cuda/direct/direct_tiled_family.hpp"
#include "cuda/direct/direct_tiled_index.hpp"

namespace kbench::gpu::conv {

namespace {

class DirectLaunch final : public KernelLaunch {
 public:
  DirectLaunch(const ConvProblem& p, KernelDescription description)
      : KernelLaunch(std::move(description)), desc_(make_direct_params(p)) {}
  void enqueue(const Operands& ops, cudaStream_t stream) override { launch_direct(desc_, ops, stream); }

 private:
  DirectParams desc_;
};

class DirectTiledLaunch final : public KernelLaunch {
 public:
  DirectTiledLaunch(const ConvProblem& p, KernelDescription description)
      : KernelLaunch(std::move(description)), desc_(direct_tiled::make_params(p).desc) {}
  void enqueue(const Operands& ops, cudaStream_t stream) override {
    direct_tiled::launch_direct_tiled(desc_, ops, stream);
  }

 private:
  direct_tiled::DirectTiledParams desc_;
};

}  // namespace

const FamilyLauncher& direct_launcher() {
  static const FamilyLauncher launcher{
      .make_launch = [](const KernelChoice&, const ConvProblem& p, const LaunchDevice&,
                        KernelDescription d) -> std::unique_ptr<KernelLaunch> {
        return std::make_unique<DirectLaunch>(p, std::move(d));
      },
  };
  return launcher;
}

const FamilyLauncher& direct_tiled_launcher() {
  static const FamilyLauncher launcher{
      .make_launch = [](const KernelChoice&, const ConvProblem& p, const LaunchDevice&,
                        KernelDescription d) -> std::unique_ptr<KernelLaunch> {
        return std::make_unique<DirectTiledLaunch>(p, std::move(d));
      },
  };
  return launcher;
}

}  // namespace kbench::gpu::conv
