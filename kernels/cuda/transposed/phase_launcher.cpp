#include "cuda/common/family_launcher.hpp"
#include "cuda/implicit_gemm/gemm_part.hpp"
#include "cuda/transposed/phase_gemm_index.hpp"
#include "cuda/transposed/phase_launcher.hpp"
#include "cuda/transposed/transposed_phase_family.hpp"
#include "cuda/transposed/zero_fill.hpp"
#include "problem/rank3.hpp"

namespace kbench::gpu::conv {

namespace {

class PhaseLaunch final : public KernelLaunch {
 public:
  PhaseLaunch(const KernelChoice& choice, const ConvProblem& p3, const LaunchDevice& device,
              KernelDescription description)
      : KernelLaunch(std::move(description)), zero_(make_zero_fill_params(p3)) {
    for (const PhaseGemm& g : transposed_gemms(p3, choice.fill.value_or(FillBlocks::trailing)))
      parts_.emplace_back(gemm_on_device(g.desc, device, split_of(choice)), g.taps, gemm_math(choice.family));
  }

  void enqueue(const Operands& ops, cudaStream_t stream) override {
    if (parts_.empty()) {
      launch_zero_fill(zero_, ops, stream);
      return;
    }
    for (igemm::GemmPart& p : parts_) p.pack(ops.w, stream);
    // The first GEMM also writes every untapped plane and row, overlapping those stores with its math.
    for (std::size_t i = 0; i < parts_.size(); ++i) parts_[i].run(ops, i == 0 ? zero_ : ZeroFillParams{}, stream);
  }

 private:
  ZeroFillParams zero_;
  std::vector<igemm::GemmPart> parts_;
};

}  // namespace

std::unique_ptr<KernelLaunch> make_phase_launch(const KernelChoice& choice, const ConvProblem& problem,
                                                const LaunchDevice& device, KernelDescription description) {
  return std::make_unique<PhaseLaunch>(choice, as_rank3(problem), device, std::move(description));
}

std::int64_t phase_launch_device_bytes(const KernelChoice& choice, const ConvProblem& problem,
                                       const LaunchDevice& device) {
  std::int64_t bytes = 0;  // fill-only blocks allocate nothing
  for (const PhaseGemm& g : transposed_gemms(as_rank3(problem), choice.fill.value_or(FillBlocks::trailing)))
    bytes += igemm::GemmPart::device_bytes(gemm_on_device(g.desc, device, split_of(choice)), g.taps.size());
  return bytes;
}

const FamilyLauncher& transposed_phase_launcher() {
  static const FamilyLauncher launcher{.make_launch = make_phase_launch, .device_bytes = phase_launch_device_bytes};
  return launcher;
}

}  // namespace kbench::gpu::conv
