#pragma once
// The `implicit_gemm_half` family: forward convolutions of fp16 or bf16 tensors, any rank, as an
// implicit GEMM on tensor cores (mma.sync.m16n8k16, fp32 accumulation, the output rounded once).
// NHWC with C_in/g a multiple of 8 loads 16 bytes at a time with cp.async; NCHW and other channel
// counts gather elements (correct everywhere in the envelope, fast where channels are last).
// Products of fp16 or bf16 operands are exact in fp32, so it computes in fp32 under either math.
// The variant `/wgmma` runs the same GEMM on Hopper's wgmma.mma_async m64n64k16 (sm_90a,
// half_wgmma_kernel.cuh): same envelope, same numerics, compute capability 9.0 devices only.
#include <fmt/format.h>

#include "cuda/common/family_descriptor.hpp"
#include "cuda/half_gemm/half_gemm_index.hpp"
#include "cuda/half_gemm/half_wgmma_index.hpp"

namespace kbench::gpu::conv {

inline constexpr std::int64_t kMaxGridY = 65535;  // column tiles and groups: gridDim.y and .z

// Whether one launch of the GEMM `d` fits CUDA's grid: row tiles in x, column tiles in y, groups in z.
inline Support half_gemm_grid_fits(const half_gemm::HalfGemmParams& d, std::string_view family) {
  if (d.col_tiles > kMaxGridY || d.p3.groups > kMaxGridY)
    return Support::no(fmt::format("{}: over 65,535 column tiles or groups for one launch", family));
  if (d.row_tiles > 0x7fffffff) return Support::no(fmt::format("{}: too many row tiles for one launch", family));
  return Support::yes();
}

// Both instructions serve every forward problem: the wgmma kernel shares the tile, the grid and the
// loads (and serves transposed_phase_half's phase GEMMs alike).
inline Support implicit_gemm_half_envelope(const KernelChoice&, const ConvProblem& p, MathMode) {
  if (p.transposed()) return Support::no("implicit_gemm_half: forward convolutions only");
  return half_gemm_grid_fits(half_gemm::make_half_gemm_params(p), "implicit_gemm_half");
}

inline bool half_gemm_on_wgmma(const KernelChoice& c) { return c.mma == igemm::MmaKind::wgmma; }

// The wgmma variant, wherever the family applies (cuda:all lists it last: uses_async_units).
inline void implicit_gemm_half_variants(const KernelChoice& own, const ConvProblem&,
                                        std::vector<KernelChoice>& candidates) {
  candidates.push_back(KernelChoice{.family = own.family, .mma = igemm::MmaKind::wgmma});
}

inline std::optional<ArchitectureNeed> implicit_gemm_half_architecture_need(const KernelChoice& c) {
  if (half_gemm_on_wgmma(c)) return kWgmmaNeed;
  return std::nullopt;
}

inline std::string_view half_gemm_loads(const half_gemm::HalfGemmParams& d) {
  return d.vector_loads ? "cp_async16" : "gathered";
}

// "implicit_gemm_half/cp_async16/64x64" (NHWC, C_in/g a multiple of 8) or ".../gathered/64x64", then
// "/wgmma" on Hopper's warpgroup instruction.
inline KernelDescription describe_implicit_gemm_half(const KernelChoice& c, const ConvProblem& p, const LaunchDevice&) {
  namespace hg = half_gemm;
  const hg::HalfGemmParams d = hg::make_half_gemm_params(p);
  const bool wgmma = half_gemm_on_wgmma(c);
  const std::string_view element = p.dtype == DType::bf16 ? "bf16" : "f16";
  return {
      fmt::format("implicit_gemm_half/{}/{}x{}{}", half_gemm_loads(d), hg::kTileM, hg::kTileN, wgmma ? "/wgmma" : ""),
      {{"gemm", fmt::format("M {} (output positions) x N {} (output channels) x K {} (taps x channels), {} "
                            "group(s)",
                            d.rows, d.cols, d.depth, p.groups)},
       {"instruction", wgmma ? fmt::format("wgmma.mma_async.m64n64k16.f32.{}.{} (sm_90a), both operands from "
                                           "shared memory",
                                           element, element)
                             : fmt::format("mma.sync.m16n8k16.f32.{}", element)},
       {"accumulation", "fp32"},
       {"tile",
        wgmma ? fmt::format("{}x{}x{}, {} threads, one warpgroup", hg::kTileM, hg::kTileN, hg::kTileK, hg::kThreads)
              : fmt::format("{}x{}x{}, {} threads, warps of {}x{}", hg::kTileM, hg::kTileN, hg::kTileK, hg::kThreads,
                            hg::kWarpM, hg::kWarpN)},
       {"loads", d.vector_loads ? "16-byte cp.async, zero-filled at padding"
                                : "element gathers (NCHW, or C_in/g not a multiple of 8)"},
       {"stages", std::to_string(wgmma ? hg::kWgmmaStages : hg::kStages)},
       {"shared_memory_bytes", std::to_string(wgmma ? hg::kWgmmaSmemBytes : hg::kSmemBytes)},
       {"blocks", std::to_string(d.row_tiles * d.col_tiles * p.groups)},
       {"launches", "1"}}};
}

inline constexpr FamilyDescriptor kImplicitGemmHalfFamily{
    .family = Family::implicit_gemm_half,
    .summary = "fp16/bf16 implicit GEMM on tensor cores, NHWC and NCHW",
    .dtypes = dtype_bit(DType::fp16) | dtype_bit(DType::bf16),
    .layouts = kAllLayouts,
    .computes_in = MathMode::fp32,
    .knobs = kKnobMma,
    .runs_forward_equivalent = false,  // its weights rewrite is fp32 only (forward_weights_kernel.cuh)
    .envelope = implicit_gemm_half_envelope,
    .any_extent = false,
    .variants = implicit_gemm_half_variants,
    .describe = describe_implicit_gemm_half,
    .architecture_need = implicit_gemm_half_architecture_need,
    .differs_on_device = same_on_every_device,
};

}  // namespace kbench::gpu::conv
