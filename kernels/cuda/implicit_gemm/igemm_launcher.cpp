#include "cuda/common/family_launcher.hpp"
#include "cuda/implicit_gemm/gemm_part.hpp"
#include "cuda/implicit_gemm/igemm_launcher.hpp"
#include "cuda/implicit_gemm/implicit_gemm_family.hpp"
#include "problem/rank3.hpp"

namespace kbench::gpu::conv {

namespace {

class IgemmLaunch final : public KernelLaunch {
 public:
  IgemmLaunch(const KernelChoice& choice, const ConvProblem& p3, const LaunchDevice& device,
              KernelDescription description)
      : KernelLaunch(std::move(description)),
        part_(gemm_on_device(forward_gemm_params(p3, choice), device, split_of(choice)), igemm::forward_taps(p3),
              gemm_math(choice.family)) {}

  void enqueue(const Operands& ops, cudaStream_t stream) override {
    part_.pack(ops.w, stream);
    part_.run(ops, ZeroFillParams{}, stream);
  }

 private:
  igemm::GemmPart part_;
};

}  // namespace

std::unique_ptr<KernelLaunch> make_igemm_launch(const KernelChoice& choice, const ConvProblem& problem,
                                                const LaunchDevice& device, KernelDescription description) {
  return std::make_unique<IgemmLaunch>(choice, as_rank3(problem), device, std::move(description));
}

std::int64_t igemm_launch_device_bytes(const KernelChoice& choice, const ConvProblem& problem,
                                       const LaunchDevice& device) {
  const ConvProblem p3 = as_rank3(problem);
  return igemm::GemmPart::device_bytes(gemm_on_device(forward_gemm_params(p3, choice), device, split_of(choice)),
                                       static_cast<std::size_t>(p3.kernel_volume()));
}

const FamilyLauncher& implicit_gemm_launcher() {
  static const FamilyLauncher launcher{.make_launch = make_igemm_launch, .device_bytes = igemm_launch_device_bytes};
  return launcher;
}

}  // namespace kbench::gpu::conv
