// The launch side of the `implicit_gemm_half` family (common/family_launcher.hpp): no device memory beyond
// the problem's tensors, nothing to configure (either kernel's shared memory is under the default
// 48 KB); the variant `/wgmma` launches the sm_90a kernel.
#include <memory>
#include <utility>

#include "cuda/common/family_launcher.hpp"
#include "cuda/half_gemm/half_gemm_family.hpp"
#include "cuda/half_gemm/half_gemm.hpp"

namespace kbench::gpu::conv {

namespace {

class HalfGemmLaunch final : public KernelLaunch {
 public:
  HalfGemmLaunch(const ConvProblem& p, bool wgmma, KernelDescription description)
      : KernelLaunch(std::move(description)), desc_(half_gemm::make_half_gemm_params(p)), wgmma_(wgmma) {}
  void enqueue(const Operands& ops, cudaStream_t stream) override {
    if (wgmma_) return half_gemm::launch_half_gemm_wgmma(desc_, ops, stream);
    half_gemm::launch_half_gemm(desc_, ops, stream);
  }

 private:
  half_gemm::HalfGemmParams desc_;
  bool wgmma_;
};

}  // namespace

const FamilyLauncher& implicit_gemm_half_launcher() {
  static const FamilyLauncher launcher{
      .make_launch = [](const KernelChoice& c, const ConvProblem& p, const LaunchDevice&,
                        KernelDescription d) -> std::unique_ptr<KernelLaunch> {
        return std::make_unique<HalfGemmLaunch>(p, c.mma == igemm::MmaKind::wgmma, std::move(d));
      },
  };
  return launcher;
}

}  // namespace kbench::gpu::conv
