#pragma once
// Which of the cuda backend's kernel families and variants can run a problem, and in what order
// `cuda:all` and the exhaustive search take them. Plain C++ with no CUDA include, so it is
// unit-tested on the CPU (test_cuda_selection.cpp). The families' envelopes are in their
// descriptors (family_table.hpp), the default in default_policy.hpp, a choice in kernel_choice.hpp and
// its variant name in variant_names.hpp.
#include <algorithm>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "cuda/default_policy.hpp"
#include "cuda/family_table.hpp"
#include "cuda/variant_names.hpp"

namespace kbench::gpu::conv {

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

}  // namespace kbench::gpu::conv
