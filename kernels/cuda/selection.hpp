#pragma once
// What the cuda backend runs for a problem: the default policy (default_family: the fastest family
// expected for the math), every variant `cuda:all` runs in its order (applicable_variants), one
// result's choice resolved once (resolve_choice, which prepare hands to the launch), and the
// exhaustive search (`--algo exhaustive`, as cudnnFind is for cuDNN: every variant timed on the
// prepared run's buffers, the fastest runs). Plain C++ (the timing is a callback), unit-tested on the
// CPU (test_cuda_selection.cpp, test_cuda_resolution.cpp, test_cuda_search.cpp).
#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/types.hpp"
#include "cuda/implicit_gemm/forward_gemm_choice.hpp"
#include "cuda/registry.hpp"
#include "cuda/transposed/forward_equivalent.hpp"
#include "cuda/transposed/phase_index.hpp"
#include "problem/conv_problem.hpp"
#include "problem/rank3.hpp"

namespace kbench::gpu::conv {

// The reduction a GEMM kernel runs per output: (C_in/g) x the taps of one phase. Forward, every tap;
// transposed, at most one phase's, ceil(kernel / tap period) along each dimension (a x2 upsampler's
// 4x4: 2 x 2). Not kbench::reduction_length (problem/conv_pass.hpp): that is the most products summed
// into one element of any pass, the n of its error bound.
inline std::int64_t phase_reduction_length(const ConvProblem& p) {
  if (!p.transposed()) return p.in_channels_per_group() * p.kernel_volume();
  std::int64_t taps = 1;
  for (int d = 0; d < p.spatial_rank; ++d) taps *= ceil_div(p.kernel[d], make_phase_dim(p, d).period);
  return p.in_channels_per_group() * taps;
}

// A GEMM pays off once both its M (output channels per group) and its reduction have some length.
inline bool gemm_worthwhile(const ConvProblem& p) {
  return p.out_channels_per_group() >= 8 && phase_reduction_length(p) >= 8;
}

// Whether family `f`, the default for a stride-1 transposed problem's forward equivalent `forward`,
// runs a kernel the transposed families lack, and so pays for the launch that rewrites the weights:
// the register depthwise kernel, direct_tiled's unrolled forward instances, a GEMM in the input_patch
// order or with A resident. A forward GEMM otherwise is the phase GEMM the transposed family runs
// (at stride 1 a single phase with every tap: same order, tile and schedule), less that launch.
inline bool forward_kernel_pays(Family f, const ConvProblem& forward) {
  if (f == Family::depthwise2d || f == Family::direct_tiled) return true;
  if (!is_implicit_gemm(f)) return false;
  const igemm::GemmConvParams d = forward_gemm_params(as_rank3(forward), KernelChoice{.family = f});
  return d.order == igemm::KOrder::input_patch || d.a_schedule == igemm::ASchedule::resident;
}

inline Family default_family(const ConvProblem& p, MathMode math) {
  const EnvelopeScope scope;  // each family it tries, and its forward equivalent's policy, asked once
  // A backward_data pass runs as the forward pass of its backward_data_problem: that problem's default.
  if (p.pass == Pass::backward_data) return default_family(backward_data_problem(p), math);
  // backward_weights: depthwise problems on their own family (fp32 NCHW), where the generic GEMM's
  // tiles would be M = 1 row of padding; the GEMM, which takes every dtype and layout, for the rest.
  if (p.pass == Pass::backward_weights)
    return family_envelope(Family::wgrad_depthwise, p, math) ? Family::wgrad_depthwise : Family::wgrad_gemm_ffma;
  // Depthwise convolutions stored channels last, in every dtype: their own kernel, which reads whole
  // 16-byte vectors of channels (the fp32 families read NCHW only; the half GEMM's M would be 1).
  if (p.layout == Layout::nhwc && family_envelope(Family::depthwise_nhwc, p, math)) return Family::depthwise_nhwc;
  // fp16 and bf16: the tensor-core GEMMs (forward, or transposed by phases) where a GEMM pays (its M,
  // the output channels per group, and its reduction at least 8 long) and it runs the problem; what
  // it does not pay for (depthwise, groups of a few channels) on the shared-memory direct kernel in
  // NCHW; else the generic kernel, which takes every dtype and layout. The fp32 families below take
  // fp32 NCHW only.
  if (p.dtype != DType::fp32) {
    const Family half = p.transposed() ? Family::transposed_phase_half : Family::implicit_gemm_half;
    if (gemm_worthwhile(p) && family_envelope(half, p, math)) return half;
    return family_envelope(Family::direct_tiled, p, math) ? Family::direct_tiled : Family::direct;
  }
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

// --- Every variant, in the order `cuda:all` runs them; one result resolved -----------------------
// Which of the cuda backend's kernel families and variants can run a problem, and in what order
// `cuda:all` and the exhaustive search take them. Plain C++ with no CUDA include, so it is
// unit-tested on the CPU (test_cuda_selection.cpp). The families' envelopes are in their
// descriptors (registry.hpp), the default in selection.hpp, a choice in common/kernel_choice.hpp and
// its variant name in registry.hpp.

// Every variant that can run the problem: each applicable family with its defaults, then the
// variants its descriptor offers that lie in their envelope. Ordered: the default, the others, then
// those driving the asynchronous units.
inline std::vector<KernelChoice> applicable_variants(const ConvProblem& p, MathMode math) {
  const EnvelopeScope scope;  // the families' envelopes asked here are asked again by default_family
  std::vector<KernelChoice> out;
  if (!problem_supported(p)) return out;  // nor has it a default (a backward_data pass without a forward form)
  for (const Family f : applicable_families(p, math)) {
    const KernelChoice own{.family = f};
    out.push_back(own);
    std::vector<KernelChoice> candidates;
    descriptor(f).variants(own, problem_for(f, p), candidates);
    for (const KernelChoice& c : candidates)
      if (choice_envelope(c, p, math)) out.push_back(c);
  }
  // The default first, those driving the asynchronous units last. A kernel fault poisons the
  // process's CUDA context and fails every later launch, so a run of every variant (`cuda:all`)
  // records the default and the plain kernels first; the last depend most on protocols
  // (descriptors, barriers, the async proxy) that the CPU emulation models but only a device confirms.
  const Family preferred = default_family(p, math);
  const auto rank = [&](const KernelChoice& c) {
    if (c == KernelChoice{.family = preferred}) return 0;
    return uses_async_units(c) ? 2 : 1;
  };
  std::stable_sort(out.begin(), out.end(),
                   [&](const KernelChoice& a, const KernelChoice& b) { return rank(a) < rank(b); });
  return out;
}

// What one result runs, resolved once: the forced variant (`variant` non-empty) or the default
// family for the math, with the answer of whether it runs the problem at all. The choice is the one
// the launch builds (make_kernel_launch asks no envelope again); meaningless where `support` is no.
struct Resolution {
  Support support;
  KernelChoice choice;
};

inline Resolution resolve_choice(const ConvProblem& p, MathMode math, std::string_view variant) {
  const EnvelopeScope scope;
  if (Support s = problem_supported(p); !s) return {std::move(s), {}};
  if (variant.empty()) return {Support::yes(), KernelChoice{.family = default_family(p, math)}};  // direct at least
  VariantParse parsed = parse_variant_with_reason(variant);
  if (!parsed.choice) return {Support::no(fmt::format("unknown cuda kernel variant '{}': {}", variant, parsed.error)), {}};
  return {choice_envelope(*parsed.choice, p, math), *parsed.choice};
}

// --- The exhaustive search -----------------------------------------------------------------------
// The cuda backend's exhaustive search (`--algo exhaustive`, as cudnnFind is for cuDNN): every
// variant that can run the problem is timed on the prepared run's own buffers, and the fastest runs.
// Plain C++ (the timing is a callback), so the choice is unit-tested on the CPU (test_cuda_search.cpp);
// CudaPreparedRun supplies the timer (cold CUDA-event samples, like the measurement itself).

// What the search times: applicable_variants without `direct`, the fallback, which is orders of
// magnitude slower wherever a fast path applies (problem 76: ~100x); `direct` alone when nothing else applies.
inline std::vector<KernelChoice> search_candidates(const ConvProblem& problem, MathMode math) {
  std::vector<KernelChoice> out;
  for (const KernelChoice& c : applicable_variants(problem, math))
    if (c.family != Family::direct) out.push_back(c);
  if (out.empty()) out.push_back(KernelChoice{Family::direct});
  return out;
}

struct CandidateTime {
  KernelChoice choice;
  double ms = -1;     // best sample, or -1 when timing it failed
  std::string error;  // why timing it failed
};

struct SearchOutcome {
  KernelChoice best;
  std::vector<CandidateTime> times;  // in candidate order
};

// Times each candidate with `time_ms` (which may throw: that candidate is out, with its reason) and
// picks the fastest; the first candidate wins ties. Throws std::runtime_error, with every reason, when
// none could be timed.
inline SearchOutcome pick_fastest(const std::vector<KernelChoice>& candidates,
                                  const std::function<double(const KernelChoice&)>& time_ms) {
  SearchOutcome outcome;
  const CandidateTime* fastest = nullptr;
  outcome.times.reserve(candidates.size());
  for (const KernelChoice& c : candidates) {
    CandidateTime t{c, -1, {}};
    try {
      t.ms = time_ms(c);
    } catch (const std::exception& e) {
      t.error = e.what();
    }
    outcome.times.push_back(t);
  }
  std::string reasons;
  for (const CandidateTime& t : outcome.times) {
    if (t.ms >= 0 && (fastest == nullptr || t.ms < fastest->ms)) fastest = &t;
    if (t.ms < 0) reasons += fmt::format("; {}: {}", variant_name(t.choice), t.error);
  }
  if (fastest == nullptr)
    throw std::runtime_error(fmt::format("cuda exhaustive search: no variant could be timed{}", reasons));
  outcome.best = fastest->choice;
  return outcome;
}

// "implicit_gemm_tf32 3.41 ms (chosen); implicit_gemm_tf32/streamed_a 3.62 ms; ..." for the report.
inline std::string search_summary(const SearchOutcome& outcome) {
  std::string out;
  for (const CandidateTime& t : outcome.times) {
    if (!out.empty()) out += "; ";
    const std::string name = variant_name(t.choice);
    if (t.ms < 0) {
      out += fmt::format("{} failed ({})", name, t.error);
    } else {
      const bool chosen = name == variant_name(outcome.best);
      out += fmt::format("{} {:.4g} ms{}", name, t.ms, chosen ? " (chosen)" : "");
    }
  }
  return out;
}

}  // namespace kbench::gpu::conv
