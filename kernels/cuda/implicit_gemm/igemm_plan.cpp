#include "cuda/implicit_gemm/igemm_plan.hpp"

#include <fmt/format.h>

#include "cuda/implicit_gemm/gemm_part.hpp"
#include "reference/rank3.hpp"

namespace kbench::gpu::conv {

namespace {

class IgemmPlan final : public KernelPlan {
 public:
  IgemmPlan(Family family, const ConvProblem& p3)
      : family_(family), part_(forward_gemm_desc(p3), igemm::forward_taps(p3), gemm_math(family)) {}

  std::string implementation() const override {
    return fmt::format("{}/{}/{}", family_name(family_), part_.order_name(), part_.tile_name());
  }

  std::vector<std::pair<std::string, std::string>> properties() const override {
    const igemm::GemmConvDesc& d = part_.desc();
    return {{"gemm", fmt::format("M {} x N {} x K {} ({} taps), {} group(s)", d.rows, d.columns,
                                 d.cin_per_group * d.taps, d.taps, d.groups)},
            {"tile", fmt::format("{}x{}", part_.tile_name(), igemm::kChunkRows)},
            {"reduction_order", part_.order_name()},
            {"threads_per_block", std::to_string(igemm::tile_facts(part_.tile()).threads)},
            {"smem_bytes", std::to_string(part_.smem_bytes())},
            {"launches", "2 (pack weights, GEMM)"}};
  }

  void enqueue(const Operands& ops, cudaStream_t stream) override {
    part_.pack(ops.w, stream);
    part_.run(ops, ZeroFillDesc{}, stream);
  }

 private:
  Family family_;
  igemm::GemmPart part_;
};

}  // namespace

std::unique_ptr<KernelPlan> make_igemm_plan(Family family, const ConvProblem& problem) {
  return std::make_unique<IgemmPlan>(family, reference::as_rank3(problem));
}

std::int64_t igemm_plan_device_bytes(Family family, const ConvProblem& problem) {
  const ConvProblem p3 = reference::as_rank3(problem);
  return igemm::GemmPart::device_bytes(forward_gemm_desc(p3), static_cast<std::size_t>(p3.kernel_volume()),
                                       gemm_math(family));
}

}  // namespace kbench::gpu::conv
