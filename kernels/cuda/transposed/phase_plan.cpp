#include "cuda/transposed/phase_plan.hpp"

#include <set>
#include <vector>

#include <fmt/format.h>

#include "cuda/implicit_gemm/gemm_part.hpp"
#include "cuda/transposed/phase_gemm_index.hpp"
#include "cuda/transposed/zero_fill_launch.hpp"
#include "reference/rank3.hpp"

namespace kbench::gpu::conv {

namespace {

class PhasePlan final : public KernelPlan {
 public:
  PhasePlan(const KernelChoice& choice, const ConvProblem& p3)
      : family_(choice.family), fill_(choice.fill.value_or(FillBlocks::trailing)), zero_(make_zero_fill_desc(p3)) {
    for (const PhaseGemm& g : transposed_gemms(p3, fill_)) {
      parts_.emplace_back(g.desc, g.taps, gemm_math(family_));
      computed_ += g.desc.columns * g.desc.rows * g.desc.groups;
    }
    total_ = p3.output_elements();
  }

  std::string implementation() const override {
    if (parts_.empty()) return fmt::format("{}/bias_only", family_name(family_));
    std::set<std::string> orders;
    for (const igemm::GemmPart& p : parts_) orders.insert(p.order_name());
    return fmt::format("{}/{}/{}{}", family_name(family_), orders.size() == 1 ? *orders.begin() : "mixed",
                       parts_.front().tile_name(), fill_ == FillBlocks::none ? "/no_fill_blocks" : "");
  }

  std::vector<std::pair<std::string, std::string>> properties() const override {
    std::vector<std::pair<std::string, std::string>> props;
    props.emplace_back("phase_gemms", std::to_string(parts_.size()));
    props.emplace_back("computed_outputs", fmt::format("{} of {} ({:.1f}%)", computed_, total_,
                                                       100.0 * static_cast<double>(computed_) /
                                                           static_cast<double>(total_)));
    for (std::size_t i = 0; i < parts_.size() && i < 8; ++i) {
      const igemm::GemmConvDesc& d = parts_[i].desc();
      props.emplace_back(fmt::format("gemm_{}", i),
                         fmt::format("M {} x N {} x K {} ({} taps), {}, tile {}, {} B smem", d.rows, d.columns,
                                     d.cin_per_group * d.taps, d.taps, parts_[i].order_name(), parts_[i].tile_name(),
                                     parts_[i].smem_bytes()));
    }
    if (!parts_.empty() && zero_.planes > 0) {
      const igemm::GemmConvDesc& first = parts_.front().desc();
      props.emplace_back("zero_fill", fmt::format("{} planes over the first GEMM's {} blocks and {} fill-only blocks "
                                                  "after them",
                                                  zero_.planes, igemm::gemm_grid(first).x - first.fill_blocks,
                                                  first.fill_blocks));
    }
    props.emplace_back("launches", std::to_string(parts_.empty() ? 1 : 2 * parts_.size()));
    return props;
  }

  void enqueue(const Operands& ops, cudaStream_t stream) override {
    if (parts_.empty()) {
      launch_zero_fill(zero_, ops, stream);
      return;
    }
    for (igemm::GemmPart& p : parts_) p.pack(ops.w, stream);
    // The first GEMM also writes every untapped plane and row, overlapping those stores with its math.
    for (std::size_t i = 0; i < parts_.size(); ++i) parts_[i].run(ops, i == 0 ? zero_ : ZeroFillDesc{}, stream);
  }

 private:
  Family family_;
  FillBlocks fill_;
  ZeroFillDesc zero_;
  std::vector<igemm::GemmPart> parts_;
  std::int64_t computed_ = 0;
  std::int64_t total_ = 0;
};

}  // namespace

std::unique_ptr<KernelPlan> make_phase_plan(const KernelChoice& choice, const ConvProblem& problem) {
  return std::make_unique<PhasePlan>(choice, reference::as_rank3(problem));
}

std::int64_t phase_plan_device_bytes(const ConvProblem& problem) {
  std::int64_t bytes = 0;  // fill-only blocks allocate nothing
  for (const PhaseGemm& g : transposed_gemms(reference::as_rank3(problem)))
    bytes += igemm::GemmPart::device_bytes(g.desc, g.taps.size());
  return bytes;
}

}  // namespace kbench::gpu::conv
