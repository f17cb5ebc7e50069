// The launch side of the `transposed_phase_half` family (common/family_launcher.hpp): the packed weights of
// every phase GEMM in one device buffer; per run, the bias fill, then each phase's packing and GEMM
// (on the wgmma kernel for the variant `/wgmma`).
#include <memory>
#include <utility>
#include <vector>

#include "cuda/common/family_launcher.hpp"
#include "cuda/half_gemm/half_gemm.hpp"
#include "cuda/transposed_phase_half/half_phase_family.hpp"
#include "cuda/transposed_phase_half/half_phase.hpp"
#include "runtime/device_buffer.hpp"

namespace kbench::gpu::conv {

namespace {

class HalfPhaseLaunch final : public KernelLaunch {
 public:
  HalfPhaseLaunch(const ConvProblem& p, bool wgmma, KernelDescription description)
      : KernelLaunch(std::move(description)),
        wgmma_(wgmma),
        gemms_(half_gemm::make_half_phase_gemms(p)),
        fill_(half_gemm::make_bias_fill_params(p)),
        packed_(half_phase_packed_elements(gemms_)) {}

  void enqueue(const Operands& ops, cudaStream_t stream) override {
    // The packing is part of the convolution, as cuDNN's weight transforms are: inside the timed region.
    half_gemm::launch_untapped_bias_fill(fill_, ops, stream);
    for (const half_gemm::HalfPhaseGemm& g : gemms_) {
      half_gemm::launch_pack_phase_weights(g, ops.w, packed_.data(), stream);
      Operands phase = ops;  // the GEMM reads its B from the packed weights
      phase.w = static_cast<const float*>(static_cast<const void*>(packed_.data() + g.packed_offset));
      if (wgmma_)
        half_gemm::launch_half_gemm_wgmma(g.desc, phase, stream);
      else
        half_gemm::launch_half_gemm(g.desc, phase, stream);
    }
  }

 private:
  bool wgmma_;
  std::vector<half_gemm::HalfPhaseGemm> gemms_;
  half_gemm::BiasFillParams fill_;
  DeviceBuffer<std::uint16_t> packed_;
};

}  // namespace

const FamilyLauncher& transposed_phase_half_launcher() {
  static const FamilyLauncher launcher{
      .make_launch = [](const KernelChoice& c, const ConvProblem& p, const LaunchDevice&,
                        KernelDescription d) -> std::unique_ptr<KernelLaunch> {
        return std::make_unique<HalfPhaseLaunch>(p, c.mma == igemm::MmaKind::wgmma, std::move(d));
      },
      .device_bytes = [](const KernelChoice&, const ConvProblem& p, const LaunchDevice&) -> std::int64_t {
        return half_phase_packed_elements(half_gemm::make_half_phase_gemms(p)) * 2;
      },
  };
  return launcher;
}

}  // namespace kbench::gpu::conv
