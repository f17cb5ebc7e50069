#pragma once
// The transposed-convolution families by phase decomposition, one per math: `transposed_phase_ffma`,
// `transposed_phase_3xtf32`, `transposed_phase_tf32`: one implicit GEMM per tapped phase combination,
// computing only the taps that land, the untapped outputs written as the bias by the first GEMM's
// launch (with fill-only blocks after its column tiles unless `/no_fill_blocks`); `/no_split_k` last.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "cuda/common/family_descriptor.hpp"
#include "cuda/implicit_gemm/gemm_family_common.hpp"
#include "cuda/transposed/phase_gemm_index.hpp"
#include "cuda/transposed/zero_fill_index.hpp"
#include "problem/rank3.hpp"

namespace kbench::gpu::conv {

// Fill-only blocks for the first phase GEMM `first` (without any yet): trailing_fill_blocks where
// the zero fill has work, none that would push the grid past 2^31 - 1 blocks (the GEMM blocks then
// fill more).
inline std::int64_t default_fill_blocks(const ConvProblem& p3, const igemm::GemmConvParams& first) {
  const ZeroFillParams zero = make_zero_fill_params(p3);
  if (!zero_fill_has_work(zero)) return 0;
  const std::int64_t tiles = igemm::gemm_grid(first).x;
  return std::min(trailing_fill_blocks(tiles, zero.planes), std::max<std::int64_t>(0, 0x7fffffff - tiles));
}

// The phase GEMMs of a transposed convolution, as the launch enqueues them: the first one carries the
// zero fill of the untapped outputs, with fill-only blocks after its column tiles (trailing_fill_blocks)
// unless `fill` is FillBlocks::none.
inline std::vector<PhaseGemm> transposed_gemms(const ConvProblem& p3, FillBlocks fill = FillBlocks::trailing) {
  const igemm::TileFacts f =
      igemm::tile_facts(igemm::choose_tile(p3.out_channels_per_group(), igemm::KOrder::channel_blocks));
  std::vector<PhaseGemm> gemms = make_phase_gemms(p3, f.bm);
  if (!gemms.empty() && fill == FillBlocks::trailing)
    gemms.front().desc.fill_blocks = default_fill_blocks(p3, gemms.front().desc);
  return gemms;
}

// Largest stride (phase bit masks are 64-bit) and number of phase GEMMs (one launch each).
inline constexpr std::int64_t kMaxPhaseStride = 64;
inline constexpr std::int64_t kMaxPhaseGemms = 256;

inline Support transposed_phase_envelope(const KernelChoice& c, const ConvProblem& p, MathMode) {
  const std::string_view name = family_name(c.family);
  if (!p.transposed()) return Support::no(fmt::format("{}: transposed convolutions only", name));
  const ConvProblem p3 = as_rank3(p);
  for (int d = 0; d < 3; ++d)
    if (p3.stride[d] > kMaxPhaseStride) return Support::no(fmt::format("{}: stride above {}", name, kMaxPhaseStride));
  if (tapped_phase_combinations(p3) > kMaxPhaseGemms)
    return Support::no(fmt::format("{}: more than {} phase combinations", name, kMaxPhaseGemms));
  const FillBlocks fill = c.fill.value_or(FillBlocks::trailing);
  const std::vector<PhaseGemm> gemms = transposed_gemms(p3, fill);
  if (fill == FillBlocks::none && (gemms.empty() || default_fill_blocks(p3, gemms.front().desc) == 0))
    return Support::no(fmt::format("{}: no fill-only blocks to leave out", name));
  for (const PhaseGemm& g : gemms)
    if (Support s = gemm_params_fit(g.desc, name); !s) return s;
  if (c.split == igemm::SplitK::none &&
      std::none_of(gemms.begin(), gemms.end(), [](const PhaseGemm& g) { return igemm::ever_splits(g.desc).ok; }))
    return Support::no(fmt::format("{}: no_split_k changes nothing: no phase GEMM's reduction could be split", name));
  return Support::yes();
}

// The GEMMs without fill-only blocks, then the reduction never split.
inline void transposed_phase_variants(const KernelChoice& own, const ConvProblem&,
                                      std::vector<KernelChoice>& candidates) {
  candidates.push_back(KernelChoice{.family = own.family, .fill = FillBlocks::none});
  candidates.push_back(KernelChoice{.family = own.family, .split = igemm::SplitK::none});
}

// "transposed_phase_tf32/channel_blocks/96x128" (the first GEMM's tile; "mixed" when the phase GEMMs
// take different reduction orders), "/no_fill_blocks" when forced; ".../bias_only" when no tap lands.
inline KernelDescription describe_transposed_phase(const KernelChoice& choice, const ConvProblem& p,
                                                   const LaunchDevice& device) {
  const ConvProblem p3 = as_rank3(p);
  const FillBlocks fill = choice.fill.value_or(FillBlocks::trailing);
  const std::vector<PhaseGemm> gemms = transposed_gemms(p3, fill);
  const ZeroFillParams zero = make_zero_fill_params(p3);
  const std::string_view family = family_name(choice.family);
  if (gemms.empty())
    return {fmt::format("{}/bias_only", family),
            {{"phase_gemms", "0"},
             {"computed_outputs", fmt::format("0 of {} (0.0%)", p3.output_elements())},
             {"launches", "1"}}};
  std::set<std::string> orders;
  std::int64_t computed = 0;
  std::int64_t launches = 0;
  bool split = false;
  Properties props;
  // Reserved up front: GCC 12 otherwise warns (-Warray-bounds) on the first emplace_back into an empty
  // vector of string pairs, a false positive of its inlined reallocation path.
  props.reserve(4 + std::min<std::size_t>(gemms.size(), 8));
  props.emplace_back("phase_gemms", std::to_string(gemms.size()));
  props.emplace_back("computed_outputs", "");  // filled in below, once counted
  for (std::size_t i = 0; i < gemms.size(); ++i) {
    const igemm::GemmConvParams d = gemm_on_device(gemms[i].desc, device, split_of(choice));
    orders.insert(igemm::order_name(d.order));
    computed += d.columns * d.rows * d.groups;
    launches += d.splits > 1 ? 3 : 2;  // pack, GEMM, and split-K's reduction
    split = split || d.splits > 1;
    if (i < 8)
      props.emplace_back(
          fmt::format("gemm_{}", i),
          fmt::format("M {} x N {} x K {} ({} taps), {}, tile {}, {} B smem{}", d.rows, d.columns,
                      d.cin_per_group * d.taps, d.taps, igemm::order_name(d.order), tile_name(d),
                      igemm::smem_layout(d).total_bytes, d.splits > 1 ? fmt::format(", split_k {}", d.splits) : ""));
  }
  const std::int64_t total = p3.output_elements();
  props[1].second = fmt::format("{} of {} ({:.1f}%)", computed, total,
                                100.0 * static_cast<double>(computed) / static_cast<double>(total));
  if (!zero_fill_has_work(zero)) {
    props.emplace_back("zero_fill", "none (every output lies on a tapped phase)");
  } else {
    const igemm::GemmConvParams first = gemm_on_device(gemms.front().desc, device);
    props.emplace_back("zero_fill",
                       fmt::format("the untapped outputs of {} planes, by the first GEMM's {} blocks and "
                                   "{} fill-only blocks after them",
                                   zero.planes, igemm::gemm_grid(first).x - first.fill_blocks, first.fill_blocks));
  }
  props.emplace_back("launches", std::to_string(launches));
  return {
      fmt::format("{}/{}/{}{}{}", family, orders.size() == 1 ? *orders.begin() : "mixed", tile_name(gemms.front().desc),
                  fill == FillBlocks::none ? "/no_fill_blocks" : "", split ? "/split_k" : ""),
      std::move(props)};
}

inline Support transposed_phase_differs_on_device(const KernelChoice& choice, const ConvProblem& p, int sms) {
  if (choice.split != igemm::SplitK::none || sms <= 0) return Support::yes();
  const LaunchDevice device{sms, 0};
  bool splits = false;
  for (const PhaseGemm& g : transposed_gemms(as_rank3(p), choice.fill.value_or(FillBlocks::trailing)))
    splits = splits || gemm_on_device(g.desc, device).splits > 1;
  return no_split_differs(splits, sms);
}

inline constexpr FamilyDescriptor transposed_phase_descriptor(Family f, std::string_view summary, MathMode computes_in) {
  return {
      .family = f,
      .summary = summary,
      .computes_in = computes_in,
      .knobs = kKnobSplit | kKnobFill,
      .runs_forward_equivalent = false,  // transposed by construction
      .envelope = transposed_phase_envelope,
      .any_extent = false,
      .variants = transposed_phase_variants,
      .describe = describe_transposed_phase,
      .architecture_need = no_architecture_need,
      .differs_on_device = transposed_phase_differs_on_device,
  };
}

inline constexpr FamilyDescriptor kTransposedPhaseFfmaFamily =
    transposed_phase_descriptor(Family::transposed_phase_ffma, "transposed convolutions, an implicit GEMM per output phase, fp32 FFMA", MathMode::fp32);
inline constexpr FamilyDescriptor kTransposedPhase3xtf32Family =
    transposed_phase_descriptor(Family::transposed_phase_3xtf32, "transposed convolutions, a GEMM per output phase, split TF32", MathMode::fp32);
inline constexpr FamilyDescriptor kTransposedPhaseTf32Family =
    transposed_phase_descriptor(Family::transposed_phase_tf32, "transposed convolutions, a GEMM per output phase, TF32, math tf32 only", MathMode::tf32);

}  // namespace kbench::gpu::conv
