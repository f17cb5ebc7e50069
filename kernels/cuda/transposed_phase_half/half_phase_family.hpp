#pragma once
// The `transposed_phase_half` family: transposed convolutions of fp16 or bf16 tensors, any rank, NHWC
// and NCHW, as one tensor-core GEMM (half_gemm_kernel.cuh) per tapped phase combination over the
// taps that land there (half_phase_index.hpp), each phase's weights packed first; the outputs no tap
// reaches get the bias from one fill launch. fp32 accumulation, the output rounded once. The variant
// `/wgmma` runs each phase GEMM on the wgmma kernel (half_wgmma_kernel.cuh; compute capability 9.0).
#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cuda/common/family_descriptor.hpp"
#include "cuda/half_gemm/half_gemm_family.hpp"
#include "cuda/transposed_phase_half/half_phase_index.hpp"
#include "problem/rank3.hpp"

namespace kbench::gpu::conv {

// The untapped-phase masks are 64-bit; each phase GEMM is a launch (and a packing launch).
inline constexpr std::int64_t kMaxHalfPhaseStride = 64;
inline constexpr std::size_t kMaxHalfPhaseGemms = 256;

inline Support transposed_phase_half_envelope(const KernelChoice&, const ConvProblem& p, MathMode) {
  if (!p.transposed()) return Support::no("transposed_phase_half: transposed convolutions only");
  const ConvProblem p3 = as_rank3(p);
  for (int d = 0; d < 3; ++d)
    if (p3.stride[d] > kMaxHalfPhaseStride)
      return Support::no(fmt::format("transposed_phase_half: stride above {}", kMaxHalfPhaseStride));
  if (half_gemm::tapped_phase_count(p3) > static_cast<std::int64_t>(kMaxHalfPhaseGemms))
    return Support::no(fmt::format("transposed_phase_half: more than {} phase combinations", kMaxHalfPhaseGemms));
  for (const half_gemm::HalfPhaseGemm& g : half_gemm::make_half_phase_gemms(p))
    if (Support s = half_gemm_grid_fits(g.desc, "transposed_phase_half"); !s) return s;
  return Support::yes();
}

// Elements of the packed weights: each kernel tap lands on one phase per dimension, so at most the
// weights' size.
inline std::int64_t half_phase_packed_elements(const std::vector<half_gemm::HalfPhaseGemm>& gemms) {
  return gemms.empty() ? 0 : gemms.back().packed_offset + half_gemm::packed_elements(gemms.back());
}

// The wgmma variant wherever the family applies and a tap lands somewhere (cuda:all lists it last).
inline void transposed_phase_half_variants(const KernelChoice& own, const ConvProblem& p,
                                           std::vector<KernelChoice>& candidates) {
  if (half_gemm::tapped_phase_count(as_rank3(p)) > 0)
    candidates.push_back(KernelChoice{.family = own.family, .mma = igemm::MmaKind::wgmma});
}

// "transposed_phase_half/cp_async16/64x64" (NHWC, C_in/g a multiple of 8), ".../gathered/64x64",
// then "/wgmma" on the warpgroup instruction; "transposed_phase_half/bias_only" when no tap lands.
inline KernelDescription describe_transposed_phase_half(const KernelChoice& c, const ConvProblem& p,
                                                        const LaunchDevice&) {
  const bool wgmma = half_gemm_on_wgmma(c);
  namespace hg = half_gemm;
  const std::vector<hg::HalfPhaseGemm> gemms = hg::make_half_phase_gemms(p);
  const hg::BiasFillParams fill = hg::make_bias_fill_params(p);
  const std::int64_t total = fill.p3.batch * fill.out_volume;
  std::int64_t computed = 0;
  for (const hg::HalfPhaseGemm& g : gemms) computed += g.desc.rows;
  Properties props;
  // Reserved up front: GCC 12 otherwise warns (-Warray-bounds) on the first emplace_back into an empty
  // vector of string pairs, a false positive of its inlined reallocation path.
  props.reserve(5 + std::min<std::size_t>(gemms.size(), 8));
  props.emplace_back("phase_gemms", std::to_string(gemms.size()));
  props.emplace_back("computed_positions", fmt::format("{} of {} ({:.1f}%)", computed, total,
                                                       100.0 * static_cast<double>(computed) /
                                                           static_cast<double>(total > 0 ? total : 1)));
  for (std::size_t i = 0; i < gemms.size() && i < 8; ++i) {
    const hg::HalfGemmParams& d = gemms[i].desc;
    props.emplace_back(fmt::format("gemm_{}", i),
                       fmt::format("phase ({}, {}, {}): M {} x N {} x K {} ({} taps), {} group(s)", gemms[i].phase[0],
                                   gemms[i].phase[1], gemms[i].phase[2], d.rows, d.cols, d.depth, d.kvol, p.groups));
  }
  const std::int64_t packed = half_phase_packed_elements(gemms);
  const auto fills = fill.has_work ? 1 : 0;
  props.emplace_back("bias_fill", fill.has_work ? "one launch writes the outputs of untapped phases"
                                                : "none (every output lies on a tapped phase)");
  if (gemms.empty())
    return {"transposed_phase_half/bias_only", {props[0], props[1], props.back(), {"launches", std::to_string(fills)}}};
  const hg::HalfGemmParams& first = gemms.front().desc;
  const std::string_view element = p.dtype == DType::bf16 ? "bf16" : "f16";
  props.emplace_back("instruction", wgmma ? fmt::format("wgmma.mma_async.m64n64k16.f32.{}.{} (sm_90a)", element, element)
                                          : fmt::format("mma.sync.m16n8k16.f32.{}", element));
  props.emplace_back("accumulation", "fp32");
  props.emplace_back("tile", fmt::format("{}x{}x{}, {} threads, warps of {}x{}", hg::kTileM, hg::kTileN, hg::kTileK,
                                         hg::kThreads, hg::kWarpM, hg::kWarpN));
  props.emplace_back("loads", first.vector_loads ? "16-byte cp.async, zero-filled at padding"
                                                 : "element gathers (NCHW, or C_in/g not a multiple of 8)");
  props.emplace_back("packed_weights_bytes", std::to_string(packed * 2));
  props.emplace_back("launches", std::to_string(2 * gemms.size() + fills));
  return {fmt::format("transposed_phase_half/{}/{}x{}{}", half_gemm_loads(first), hg::kTileM, hg::kTileN,
                      wgmma ? "/wgmma" : ""),
          std::move(props)};
}

inline constexpr FamilyDescriptor kTransposedPhaseHalfFamily{
    .family = Family::transposed_phase_half,
    .summary = "fp16/bf16 transposed convolutions, a tensor-core GEMM per tapped phase",
    .dtypes = dtype_bit(DType::fp16) | dtype_bit(DType::bf16),
    .layouts = kAllLayouts,
    .computes_in = MathMode::fp32,
    .knobs = kKnobMma,
    .runs_forward_equivalent = false,  // transposed by construction (a stride-1 problem is one phase)
    .envelope = transposed_phase_half_envelope,
    .any_extent = false,
    .variants = transposed_phase_half_variants,
    .describe = describe_transposed_phase_half,
    .architecture_need = implicit_gemm_half_architecture_need,
    .differs_on_device = same_on_every_device,
};

}  // namespace kbench::gpu::conv
