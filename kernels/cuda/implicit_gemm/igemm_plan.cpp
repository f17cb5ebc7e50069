#include "cuda/implicit_gemm/igemm_plan.hpp"

#include <fmt/format.h>

#include "cuda/implicit_gemm/gemm_part.hpp"
#include "cuda/implicit_gemm/igemm_resident_index.hpp"
#include "reference/rank3.hpp"

namespace kbench::gpu::conv {

namespace {

std::string patch_summary(const igemm::GemmConvDesc& d) {
  if (d.order != igemm::KOrder::input_patch) return "none";
  return fmt::format("{} channel(s) x {} rows x {} floats per block ({} bytes), {} column tiles per image",
                     d.cin_per_group, d.patch.rows, d.patch.stride, d.patch.floats * 4, d.patch.tiles_per_image);
}

std::string resident_summary(const igemm::GemmPart& part) {
  const igemm::GemmConvDesc& d = part.desc();
  if (d.a_schedule != igemm::ASchedule::resident) return "streamed_a (every block reads its A chunks from L2)";
  return fmt::format("resident_a: {} persistent block(s) per row tile walk {} column tiles, A in shared memory",
                     igemm::gemm_grid(d).x, igemm::column_tiles(d, igemm::tile_facts(part.tile()).bn));
}

class IgemmPlan final : public KernelPlan {
 public:
  IgemmPlan(const KernelChoice& choice, const ConvProblem& p3)
      : family_(choice.family),
        part_(forward_gemm_desc(p3, choice), igemm::forward_taps(p3),
              gemm_math(choice.family)) {}

  // "implicit_gemm_tf32/channel_blocks/128x256", with "/resident_a" when A stays in shared memory,
  // "/wgmma" on Hopper's warpgroup instruction.
  std::string implementation() const override {
    const igemm::GemmConvDesc& d = part_.desc();
    return fmt::format("{}/{}/{}{}{}", family_name(family_), part_.order_name(), part_.tile_name(),
                       d.a_schedule == igemm::ASchedule::resident ? "/resident_a" : "",
                       d.mma == igemm::MmaKind::wgmma ? "/wgmma" : "");
  }

  std::vector<std::pair<std::string, std::string>> properties() const override {
    const igemm::GemmConvDesc& d = part_.desc();
    return {{"gemm", fmt::format("M {} x N {} x K {} ({} taps), {} group(s)", d.rows, d.columns,
                                 d.cin_per_group * d.taps, d.taps, d.groups)},
            {"tile", fmt::format("{}x{}", part_.tile_name(), igemm::kChunkRows)},
            {"reduction_order", part_.order_name()},
            {"input_patch", patch_summary(part_.desc())},
            {"a_schedule", resident_summary(part_)},
            {"tensor_instruction", gemm_math(family_) == igemm::GemmMath::ffma ? "none (FFMA)"
                                   : part_.desc().mma == igemm::MmaKind::wgmma
                                       ? "wgmma.mma_async m64n96k8 (sm_90a)"
                                       : "mma.sync m16n8k8"},
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

std::unique_ptr<KernelPlan> make_igemm_plan(const KernelChoice& choice, const ConvProblem& problem) {
  return std::make_unique<IgemmPlan>(choice, reference::as_rank3(problem));
}

std::int64_t igemm_plan_device_bytes(const KernelChoice& choice, const ConvProblem& problem) {
  const ConvProblem p3 = reference::as_rank3(problem);
  return igemm::GemmPart::device_bytes(forward_gemm_desc(p3, choice),
                                       static_cast<std::size_t>(p3.kernel_volume()));
}

}  // namespace kbench::gpu::conv
