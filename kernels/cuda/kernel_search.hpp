#pragma once
// The cuda backend's exhaustive search (`--algo exhaustive`, as cudnnFind is for cuDNN): every
// variant that can run the problem is timed on the prepared run's own buffers, and the fastest runs.
// Plain C++ (the timing is a callback), so the choice is unit-tested on the CPU (test_cuda_search.cpp);
// CudaPreparedRun supplies the timer (cold CUDA-event samples, like the measurement itself).
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/types.hpp"
#include "cuda/kernel_selection.hpp"
#include "problem/conv_problem.hpp"

namespace kbench::gpu::conv {

// What the search times: applicable_variants without `direct`, the fallback, which is orders of
// magnitude slower wherever a fast path applies (seed 76: ~100x); `direct` alone when nothing else applies.
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
