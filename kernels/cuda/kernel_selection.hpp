#pragma once
// Which of the cuda backend's kernel families can run a problem ("envelope"), which variants apply,
// and which one runs by default. Plain C++ with no CUDA include, so it is unit-tested on the CPU
// (test_cuda_selection.cpp). The families and their names are in kernel_family.hpp, a choice and
// its variant name in kernel_choice.hpp, the forward GEMMs' descriptors in forward_gemm_choice.hpp.
//
// The default is the fastest family expected for the math: TF32 where allowed; for fp32 the 3xTF32
// GEMMs, whose operand split keeps each product within 2^-19 relative (test_cuda_tf32_bits.cpp) and
// which the GPU tests hold to the fp32 tolerance; the strict FFMA GEMMs stay variants. Every run is
// verified against the fp64 reference at the fp32 tolerance, so a 3xTF32 result that misses it fails
// loudly rather than passing for fp32.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "backend/backend.hpp"
#include "cuda/depthwise/depthwise_bulk_index.hpp"
#include "cuda/depthwise/depthwise_index.hpp"
#include "cuda/direct/direct_tiled_plan.hpp"
#include "cuda/forward_gemm_choice.hpp"
#include "cuda/implicit_gemm/igemm_config.hpp"
#include "cuda/implicit_gemm/igemm_index.hpp"
#include "cuda/implicit_gemm/igemm_split_index.hpp"
#include "cuda/kernel_choice.hpp"
#include "cuda/kernel_family.hpp"
#include "cuda/transposed/forward_equivalent.hpp"
#include "cuda/transposed/phase_gemm_index.hpp"
#include "cuda/transposed/zero_fill_index.hpp"
#include "problem/conv_problem.hpp"
#include "reference/computable.hpp"
#include "reference/rank3.hpp"

namespace kbench::gpu::conv {

// Whether the backend computes this problem at all: then `direct` always can (every index and
// coordinate of it is 64-bit, so no extent a spec allows is too long for it).
inline Support problem_supported(const ConvProblem& p) {
  if (p.dtype != DType::fp32) return Support::no(fmt::format("the cuda backend computes fp32 only, not {}", to_string(p.dtype)));
  if (const std::string why = reference::why_not_computable(p); !why.empty()) return Support::no(why);
  return Support::yes();
}

// The problem family `f` runs in place of `p`: a stride-1 transposed convolution's forward equivalent
// (forward_equivalent.hpp) for every family but `direct`, which takes any problem as it is, and the
// phase GEMMs, transposed by construction; nullopt where `f` runs `p` itself.
inline std::optional<ConvProblem> forward_problem_for(Family f, const ConvProblem& p) {
  if (f == Family::direct || is_transposed_phase(f)) return std::nullopt;
  return forward_equivalent(p);
}

inline ConvProblem problem_for(Family f, const ConvProblem& p) { return forward_problem_for(f, p).value_or(p); }

// A forward problem's padding per dimension, before+after: "2+2 x 1+1".
inline std::string padding_text(const ConvProblem& p) {
  std::string text;
  for (int d = 0; d < p.spatial_rank; ++d)
    text += fmt::format("{}{}+{}", d > 0 ? " x " : "", p.pad_before[d], p.pad_after[d]);
  return text;
}

// The fast paths keep coordinates, offsets and extents below 2^30 so their 32-bit coordinate
// arithmetic (and its unsigned bounds tests) cannot overflow; element counts and offsets are 64-bit
// throughout. Longer dimensions (a spec allows up to 2^31 - 1) run on `direct`.
inline constexpr std::int64_t kMaxExtent = std::int64_t{1} << 30;

inline Support fast_path_extents(const ConvProblem& p) {
  for (int d = 0; d < p.spatial_rank; ++d) {
    const std::int64_t reach = p.dilation[d] * (p.kernel[d] - 1) + p.pad_before[d] + p.pad_after[d];
    if (p.input[d] >= kMaxExtent || p.output_extent(d) >= kMaxExtent || reach >= kMaxExtent)
      return Support::no(fmt::format("spatial dimension {} reaches 2^30 or more (only `direct` takes that)", d));
  }
  return Support::yes();
}

inline Support depthwise2d_envelope(const ConvProblem& p) {
  namespace dw = depthwise;
  if (p.transposed()) return Support::no("depthwise2d: forward convolutions only");
  if (p.spatial_rank != 2) return Support::no("depthwise2d: 2-D only");
  if (p.groups != p.in_channels || p.out_channels != p.in_channels)
    return Support::no("depthwise2d: needs groups == in_channels == out_channels");
  const std::int64_t k = p.kernel[0];
  if (p.kernel[1] != k || (k != 3 && k != 5 && k != 7)) return Support::no("depthwise2d: square 3x3, 5x5 or 7x7 kernels only");
  if (p.stride[0] != 1 || p.stride[1] != 1 || p.dilation[0] != 1 || p.dilation[1] != 1)
    return Support::no("depthwise2d: stride 1 and dilation 1 only");
  if (p.pad_before[1] != 0 && p.pad_before[1] != (k - 1) / 2)
    return Support::no("depthwise2d: left padding must be 0 or (kernel - 1) / 2");
  if (p.pad_before[0] > k - 1) return Support::no("depthwise2d: top padding must be below the kernel size");
  if (p.input[1] % 4 != 0) return Support::no("depthwise2d: input width must be a multiple of 4 (16-byte rows)");
  const dw::Tiling t = dw::make_tiling(dw::plane_shape(p));
  if (t.blocks() > 0x7fffffff) return Support::no("depthwise2d: too many blocks for one launch");
  return Support::yes();
}

// The register kernel's tiling of a problem in the depthwise2d envelope, with its row stores (split
// unless forced).
inline depthwise::Tiling depthwise_tiling(const ConvProblem& p, std::optional<depthwise::StoreMode> stores) {
  depthwise::Tiling t = depthwise::make_tiling(depthwise::plane_shape(p));
  t.stores = stores.value_or(depthwise::StoreMode::split);
  return t;
}

// The bulk-copy kernel's tiling of a problem in the depthwise2d envelope for a bulk store mode (one
// stage, or two when pipelined; why_not: its alignment and shared-memory limits).
inline depthwise::BulkPlan depthwise_bulk_plan(const ConvProblem& p, depthwise::StoreMode mode) {
  return depthwise::make_bulk_tiling(depthwise::plane_shape(p), mode == depthwise::StoreMode::bulk_pipelined ? 2 : 1);
}

// Every convolution, forward or transposed, whose smallest tile's input windows (one per input
// channel of a group and depth tap) and the group's weights fit in 48 KB of shared memory
// (direct_tiled_plan.hpp).
inline Support direct_tiled_envelope(const ConvProblem& p) {
  const direct_tiled::TiledPlan plan = direct_tiled::make_tiled_plan(p);
  if (!plan.why_not.empty()) return Support::no(plan.why_not);
  return Support::yes();
}

// Limits every GEMM descriptor must meet: the grid, the shared memory (which also bounds the tap
// list, k table or patch offsets it keeps there: long kernels), 32-bit chunk counts.
inline Support gemm_desc_fits(const igemm::GemmConvDesc& d, std::string_view family) {
  const igemm::TileFacts f = igemm::tile_facts(igemm::choose_tile(d));
  if (igemm::gemm_grid(d).x > 0x7fffffff || d.rows_padded / f.bm > 65535 || d.groups > 65535)
    return Support::no(fmt::format("{}: the problem needs more blocks than one launch has", family));
  if (d.chunks * igemm::kChunkRows > 0x7fffffff) return Support::no(fmt::format("{}: reduction too long", family));
  if (d.order == igemm::KOrder::input_patch && d.batch * d.patch.tiles_per_image > 0x7fffffff)
    return Support::no(fmt::format("{}: the problem needs more blocks than one launch has", family));
  if (igemm::smem_layout(d).total_bytes > igemm::kMaxSmemBytes)
    return Support::no(fmt::format("{}: needs more shared memory than a block has", family));
  return Support::yes();
}

// Fill-only blocks for the first phase GEMM `first` (without any yet): trailing_fill_blocks where
// the zero fill has work, none that would push the grid past 2^31 - 1 blocks (the GEMM blocks then
// fill more).
inline std::int64_t default_fill_blocks(const ConvProblem& p3, const igemm::GemmConvDesc& first) {
  const ZeroFillDesc zero = make_zero_fill_desc(p3);
  if (!zero_fill_has_work(zero)) return 0;
  const std::int64_t tiles = igemm::gemm_grid(first).x;
  return std::min(trailing_fill_blocks(tiles, zero.planes), std::max<std::int64_t>(0, 0x7fffffff - tiles));
}

// The phase GEMMs of a transposed convolution, as the plan launches them: the first one carries the
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

inline Support choice_envelope(const KernelChoice& c, const ConvProblem& p, MathMode math) {
  if (Support s = problem_supported(p); !s) return s;
  const Family f = c.family;
  const std::string_view name = family_name(f);
  if ((c.order || c.schedule || c.mma) && !is_implicit_gemm(f))
    return Support::no(fmt::format(
        "{}: a reduction order, A schedule or tensor-core instruction can be chosen for the implicit_gemm families only",
        name));
  if (c.split && !is_implicit_gemm(f) && !is_transposed_phase(f))
    return Support::no(fmt::format("{}: a reduction split can be chosen for the implicit GEMM families only", name));
  if (c.stores && f != Family::depthwise2d)
    return Support::no(fmt::format("{}: a row store mode can be chosen for depthwise2d only", name));
  if (c.fill && !is_transposed_phase(f))
    return Support::no(fmt::format("{}: where the zero fill runs can be chosen for the transposed_phase families only", name));
  if (family_math(f) == MathMode::tf32 && math != MathMode::tf32)
    return Support::no(fmt::format("{} rounds to TF32, which math fp32 forbids", name));
  if (const std::optional<ConvProblem> forward = forward_problem_for(f, p)) {
    // The shape's reasons are the forward problem's: say so, or a padding the spec does not have puzzles.
    Support s = choice_envelope(c, *forward, math);
    if (!s) s.reason += fmt::format(" (as the forward convolution this stride-1 transposed one equals, padding {})",
                                    padding_text(*forward));
    return s;
  }
  if (f == Family::direct) return Support::yes();
  if (Support s = fast_path_extents(p); !s) return s;
  if (f == Family::depthwise2d) {
    if (c.stores == depthwise::StoreMode::realigned && p.spatial_rank == 2 &&
        depthwise::store_width(p.output_extent(1)) != 2)
      return Support::no("depthwise2d: realigned stores change rows of 2 mod 4 floats only");
    if (Support s = depthwise2d_envelope(p); !s || !c.stores || !depthwise::is_bulk(*c.stores)) return s;
    if (const std::string why = depthwise_bulk_plan(p, *c.stores).why_not; !why.empty()) return Support::no(why);
    return Support::yes();
  }
  if (f == Family::direct_tiled) return direct_tiled_envelope(p);
  const ConvProblem p3 = reference::as_rank3(p);
  if (is_implicit_gemm(f)) {
    if (p.transposed()) return Support::no(fmt::format("{}: forward convolutions only", name));
    const ForwardGemm g = forward_gemm(p3, c);
    if (!g.why_not.empty()) return Support::no(fmt::format("{}: {}", name, g.why_not));
    if (c.split == igemm::SplitK::none)
      if (const std::string why = igemm::why_never_split(g.desc); !why.empty())
        return Support::no(fmt::format("{}: no_split_k changes nothing: {}", name, why));
    return gemm_desc_fits(g.desc, name);
  }
  // transposed_phase_*
  if (!p.transposed()) return Support::no(fmt::format("{}: transposed convolutions only", name));
  for (int d = 0; d < 3; ++d)
    if (p3.stride[d] > kMaxPhaseStride) return Support::no(fmt::format("{}: stride above {}", name, kMaxPhaseStride));
  if (tapped_phase_combinations(p3) > kMaxPhaseGemms)
    return Support::no(fmt::format("{}: more than {} phase combinations", name, kMaxPhaseGemms));
  const FillBlocks fill = c.fill.value_or(FillBlocks::trailing);
  const std::vector<PhaseGemm> gemms = transposed_gemms(p3, fill);
  if (fill == FillBlocks::none && (gemms.empty() || default_fill_blocks(p3, gemms.front().desc) == 0))
    return Support::no(fmt::format("{}: no fill-only blocks to leave out", name));
  for (const PhaseGemm& g : gemms)
    if (Support s = gemm_desc_fits(g.desc, name); !s) return s;
  if (c.split == igemm::SplitK::none &&
      std::none_of(gemms.begin(), gemms.end(), [](const PhaseGemm& g) { return igemm::why_never_split(g.desc).empty(); }))
    return Support::no(fmt::format("{}: no_split_k changes nothing: no phase GEMM's reduction could be split", name));
  return Support::yes();
}

inline Support family_envelope(Family f, const ConvProblem& p, MathMode math) {
  return choice_envelope(KernelChoice{f}, p, math);
}

inline std::vector<Family> applicable_families(const ConvProblem& p, MathMode math) {
  std::vector<Family> out;
  for (const Family f : kAllFamilies)
    if (family_envelope(f, p, math)) out.push_back(f);
  return out;
}

// The reduction of one output: (C_in/g) x the taps that reach it. Forward, every tap; transposed,
// at most one phase's, ceil(kernel / tap period) along each dimension (a x2 upsampler's 4x4: 2 x 2).
inline std::int64_t reduction_length(const ConvProblem& p) {
  if (!p.transposed()) return p.in_channels_per_group() * p.kernel_volume();
  std::int64_t taps = 1;
  for (int d = 0; d < p.spatial_rank; ++d) taps *= ceil_div(p.kernel[d], make_phase_dim(p, d).period);
  return p.in_channels_per_group() * taps;
}

// A GEMM pays off once both its M (output channels per group) and its reduction have some length.
inline bool gemm_worthwhile(const ConvProblem& p) {
  return p.out_channels_per_group() >= 8 && reduction_length(p) >= 8;
}

// Whether family `f`, the default for a stride-1 transposed problem's forward equivalent `forward`,
// runs a kernel the transposed families lack, and so pays for the launch that rewrites the weights:
// the register depthwise kernel, direct_tiled's unrolled forward instances, a GEMM in the input_patch
// order or with A resident. A forward GEMM otherwise is the phase GEMM the transposed family runs
// (at stride 1 a single phase with every tap: same order, tile and schedule), less that launch.
inline bool forward_kernel_pays(Family f, const ConvProblem& forward) {
  if (f == Family::depthwise2d || f == Family::direct_tiled) return true;
  if (!is_implicit_gemm(f)) return false;
  const igemm::GemmConvDesc d = forward_gemm_desc(reference::as_rank3(forward), KernelChoice{f});
  return d.order == igemm::KOrder::input_patch || d.a_schedule == igemm::ASchedule::resident;
}

inline Family default_family(const ConvProblem& p, MathMode math) {
  // A stride-1 transposed convolution takes its forward equivalent's default where that pays.
  if (const std::optional<ConvProblem> forward = forward_equivalent(p))
    if (const Family f = default_family(*forward, math); forward_kernel_pays(f, *forward)) return f;
  const bool tf32 = math == MathMode::tf32;
  if (!p.transposed() && family_envelope(Family::depthwise2d, p, math)) return Family::depthwise2d;
  const Family gemm = p.transposed() ? (tf32 ? Family::transposed_phase_tf32 : Family::transposed_phase_3xtf32)
                                     : (tf32 ? Family::implicit_gemm_tf32 : Family::implicit_gemm_3xtf32);
  const bool gemm_fits = family_envelope(gemm, p, math).ok;
  if (gemm_worthwhile(p) && gemm_fits) return gemm;
  // What the GEMM does not pay for (under 8 output channels per group, the GEMM's M, or a reduction
  // under 8 long: depthwise and its upsamplers, groups of a few channels) goes to the shared-memory
  // direct kernel; where that does not fit either (many output channels on a short reduction: a
  // 1x1 from 4 channels to 4,096), a GEMM with a short reduction still beats `direct`.
  if (family_envelope(Family::direct_tiled, p, math)) return Family::direct_tiled;
  return gemm_fits ? gemm : Family::direct;
}

// Whether the choice drives Hopper's asynchronous units (wgmma, bulk copies and their mbarriers).
inline bool uses_async_units(const KernelChoice& c) {
  return c.mma == igemm::MmaKind::wgmma || (c.stores && depthwise::is_bulk(*c.stores));
}

// Every variant that can run the problem: each applicable family with its defaults; depthwise2d's
// other store modes (realigned_stores, bulk_copies, bulk_pipelined); the transposed GEMMs without
// fill-only blocks; the GEMMs whose reduction a device might split, never split (no_split_k: a
// device that would not split them rules it out, split_variant_on_device); and for the forward implicit GEMMs each other (order, A schedule, wgmma) that
// applies, named by what differs from the defaults ("implicit_gemm_tf32/k_table", ".../streamed_a").
// Ordered: the default, the others, then those driving the asynchronous units.
inline std::vector<KernelChoice> applicable_variants(const ConvProblem& p, MathMode math) {
  std::vector<KernelChoice> out;
  for (const Family f : applicable_families(p, math)) {
    out.push_back(KernelChoice{f});
    if (f == Family::depthwise2d)
      for (const depthwise::StoreMode m :
           {depthwise::StoreMode::realigned, depthwise::StoreMode::bulk, depthwise::StoreMode::bulk_pipelined})
        if (const KernelChoice c{f, std::nullopt, std::nullopt, m}; choice_envelope(c, p, math)) out.push_back(c);
    if (is_transposed_phase(f)) {
      const KernelChoice gemm_fill{f, std::nullopt, std::nullopt, std::nullopt, FillBlocks::none};
      if (choice_envelope(gemm_fill, p, math)) out.push_back(gemm_fill);
    }
    if (is_implicit_gemm(f) || is_transposed_phase(f)) {
      const KernelChoice whole{f, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt, igemm::SplitK::none};
      if (choice_envelope(whole, p, math)) out.push_back(whole);
    }
    if (!is_implicit_gemm(f)) continue;
    const ConvProblem p3 = reference::as_rank3(problem_for(f, p));
    const igemm::GemmConvDesc preferred = forward_gemm_desc(p3, KernelChoice{f});
    for (const igemm::KOrder o : kAllOrders) {
      const igemm::ASchedule usual = forward_gemm_desc(p3, KernelChoice{f, o}).a_schedule;  // o's default
      for (const igemm::ASchedule s : kAllSchedules) {
        if (o == preferred.order && s == preferred.a_schedule) continue;  // the family's own entry
        const KernelChoice c{f, o == preferred.order ? std::nullopt : std::optional(o),
                             s == usual ? std::nullopt : std::optional(s)};
        if (choice_envelope(c, p, math)) out.push_back(c);
      }
      const KernelChoice wgmma{f, o == preferred.order ? std::nullopt : std::optional(o), std::nullopt, std::nullopt,
                               std::nullopt, igemm::MmaKind::wgmma};
      if (choice_envelope(wgmma, p, math)) out.push_back(wgmma);
    }
  }
  // The default first, those driving the asynchronous units last. A kernel fault poisons the
  // process's CUDA context and fails every later launch, so a run of every variant (`cuda:all`)
  // records the default and the plain kernels first; the last depend most on protocols
  // (descriptors, barriers, the async proxy) that the CPU emulation models but only a device confirms.
  const Family preferred = default_family(p, math);
  const auto rank = [&](const KernelChoice& c) {
    if (c == KernelChoice{preferred}) return 0;
    return uses_async_units(c) ? 2 : 1;
  };
  std::stable_sort(out.begin(), out.end(),
                   [&](const KernelChoice& a, const KernelChoice& b) { return rank(a) < rank(b); });
  return out;
}

}  // namespace kbench::gpu::conv
