#pragma once
// The forward implicit-GEMM families, one per math: `implicit_gemm_ffma` (fp32 FFMA),
// `implicit_gemm_3xtf32` (split TF32 on tensor cores, fp32-level error) and `implicit_gemm_tf32`
// (TF32, math tf32 only). Variants force a reduction order (`/channel_blocks`, `/k_table`,
// `/input_patch`), then an A schedule (`/streamed_a`, `/resident_a`), or Hopper's `/wgmma`, and
// `/no_split_k` last; forward_gemm_choice.hpp turns a choice into its GEMM descriptor.
#include "cuda/common/family_descriptor.hpp"
#include "cuda/implicit_gemm/forward_gemm_choice.hpp"
#include "cuda/implicit_gemm/gemm_family_common.hpp"
#include "problem/rank3.hpp"

namespace kbench::gpu::conv {

inline Support implicit_gemm_envelope(const KernelChoice& c, const ConvProblem& p, MathMode) {
  const std::string_view name = family_name(c.family);
  if (p.transposed()) return Support::no(fmt::format("{}: forward convolutions only", name));
  const ForwardGemm g = forward_gemm(as_rank3(p), c);
  if (!g.support) return Support::no(fmt::format("{}: {}", name, g.support.reason));
  if (c.split == igemm::SplitK::none)
    if (const Support s = igemm::ever_splits(g.desc); !s)
      return Support::no(fmt::format("{}: no_split_k changes nothing: {}", name, s.reason));
  return gemm_params_fit(g.desc, name);
}

// The reduction never split, then each other (order, A schedule, wgmma) that applies, named by what
// differs from the defaults ("implicit_gemm_tf32/k_table", ".../streamed_a").
inline void implicit_gemm_variants(const KernelChoice& own, const ConvProblem& runs,
                                   std::vector<KernelChoice>& candidates) {
  const ConvProblem p3 = as_rank3(runs);
  const Family f = own.family;
  candidates.push_back(KernelChoice{.family = f, .split = igemm::SplitK::none});
  const igemm::GemmConvParams preferred = forward_gemm_params(p3, own);
  for (const igemm::KOrder o : kAllOrders) {
    const igemm::ASchedule usual = forward_gemm_params(p3, KernelChoice{.family = f, .order = o}).a_schedule;
    const std::optional<igemm::KOrder> order = o == preferred.order ? std::nullopt : std::optional(o);
    for (const igemm::ASchedule s : kAllSchedules) {
      if (o == preferred.order && s == preferred.a_schedule) continue;  // the family's own entry
      candidates.push_back(
          KernelChoice{.family = f, .order = order, .schedule = s == usual ? std::nullopt : std::optional(s)});
    }
    candidates.push_back(KernelChoice{.family = f, .order = order, .mma = igemm::MmaKind::wgmma});
  }
}

inline std::string patch_summary(const igemm::GemmConvParams& d) {
  if (d.order != igemm::KOrder::input_patch) return "none";
  return fmt::format("{} channel(s) x {} rows x {} floats per block ({} bytes), {} column tiles per image",
                     d.cin_per_group, d.patch.rows, d.patch.stride, d.patch.floats * 4, d.patch.tiles_per_image);
}

inline std::string resident_summary(const igemm::GemmConvParams& d) {
  if (d.a_schedule != igemm::ASchedule::resident) return "streamed_a (every block reads its A chunks from L2)";
  const std::int64_t columns = igemm::column_tiles(d, igemm::tile_facts(igemm::choose_tile(d)).bn);
  if (d.resident_blocks == 0)
    return fmt::format(
        "resident_a: persistent blocks per row tile (one per SM, counted on the device) walk {} "
        "column tiles, A in shared memory",
        columns);
  return fmt::format("resident_a: {} persistent block(s) per row tile walk {} column tiles, A in shared memory",
                     igemm::gemm_grid(d).x, columns);
}

// "implicit_gemm_tf32/channel_blocks/128x256", with "/resident_a" when A stays in shared memory,
// "/wgmma" on Hopper's warpgroup instruction.
inline KernelDescription describe_implicit_gemm(const KernelChoice& choice, const ConvProblem& p,
                                                const LaunchDevice& device) {
  const igemm::GemmConvParams d =
      gemm_on_device(forward_gemm_params(as_rank3(p), choice), device, split_of(choice));
  const bool wgmma = d.mma == igemm::MmaKind::wgmma;
  return {fmt::format("{}/{}/{}{}{}{}", family_name(choice.family), igemm::order_name(d.order), tile_name(d),
                      d.a_schedule == igemm::ASchedule::resident ? "/resident_a" : "", wgmma ? "/wgmma" : "",
                      d.splits > 1 ? "/split_k" : ""),
          {{"gemm", fmt::format("M {} x N {} x K {} ({} taps), {} group(s)", d.rows, d.columns,
                                d.cin_per_group * d.taps, d.taps, d.groups)},
           {"tile", fmt::format("{}x{}", tile_name(d), igemm::kChunkRows)},
           {"reduction_order", igemm::order_name(d.order)},
           {"input_patch", patch_summary(d)},
           {"a_schedule", resident_summary(d)},
           {"tensor_instruction", gemm_math(choice.family) == igemm::GemmMath::ffma ? "none (FFMA)"
                                  : wgmma ? "wgmma.mma_async m64n96k8 (sm_90a)"
                                          : "mma.sync m16n8k8"},
           {"split_k", split_summary(d, device, split_of(choice))},
           {"threads_per_block", std::to_string(igemm::tile_facts(igemm::choose_tile(d)).threads)},
           {"smem_bytes", std::to_string(igemm::smem_layout(d).total_bytes)},
           {"launches", d.splits > 1 ? "3 (pack weights, GEMM, split-K reduction)" : "2 (pack weights, GEMM)"}}};
}

inline std::optional<ArchitectureNeed> implicit_gemm_architecture_need(const KernelChoice& c) {
  if (c.mma == igemm::MmaKind::wgmma) return kWgmmaNeed;
  return std::nullopt;
}

inline Support implicit_gemm_differs_on_device(const KernelChoice& choice, const ConvProblem& p, int sms) {
  if (choice.split != igemm::SplitK::none || sms <= 0) return Support::yes();
  KernelChoice automatic = choice;
  automatic.split.reset();
  const LaunchDevice device{sms, 0};
  return no_split_differs(gemm_on_device(forward_gemm_params(as_rank3(p), automatic), device).splits > 1, sms);
}

inline constexpr FamilyDescriptor implicit_gemm_descriptor(Family f, std::string_view summary, MathMode computes_in) {
  return {
      .family = f,
      .summary = summary,
      .computes_in = computes_in,
      .knobs = kKnobOrder | kKnobSchedule | kKnobMma | kKnobSplit,
      .runs_forward_equivalent = true,
      .envelope = implicit_gemm_envelope,
      .any_extent = false,
      .variants = implicit_gemm_variants,
      .describe = describe_implicit_gemm,
      .architecture_need = implicit_gemm_architecture_need,
      .differs_on_device = implicit_gemm_differs_on_device,
  };
}

inline constexpr FamilyDescriptor kImplicitGemmFfmaFamily =
    implicit_gemm_descriptor(Family::implicit_gemm_ffma, "forward implicit GEMM, fp32 FFMA", MathMode::fp32);
inline constexpr FamilyDescriptor kImplicitGemm3xtf32Family =
    implicit_gemm_descriptor(Family::implicit_gemm_3xtf32, "forward implicit GEMM, split TF32 on tensor cores, fp32-level error", MathMode::fp32);
inline constexpr FamilyDescriptor kImplicitGemmTf32Family =
    implicit_gemm_descriptor(Family::implicit_gemm_tf32, "forward implicit GEMM, TF32 tensor cores, math tf32 only", MathMode::tf32);

}  // namespace kbench::gpu::conv
