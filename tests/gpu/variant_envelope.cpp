#include "variant_envelope.hpp"

#include <optional>
#include <string>
#include <vector>

#include "cuda/common/kernel_choice.hpp"
#include "cuda/selection.hpp"

namespace kbench::gpu_tests {

Support variant_envelope(const ConvProblem& problem, const std::string& variant, MathMode math) {
  const std::optional<gpu::conv::KernelChoice> choice = gpu::conv::parse_variant(variant);
  if (!choice) return Support::no("unknown variant " + variant);
  return gpu::conv::choice_envelope(*choice, problem, math);
}

std::vector<std::string> applicable_variant_names(const ConvProblem& problem, MathMode math) {
  std::vector<std::string> names;
  for (const gpu::conv::KernelChoice& c : gpu::conv::applicable_variants(problem, math))
    names.push_back(gpu::conv::variant_name(c));
  return names;
}

std::string default_variant(const ConvProblem& problem, MathMode math) {
  if (!gpu::conv::problem_supported(problem).ok) return "";
  return std::string(gpu::conv::family_name(gpu::conv::default_family(problem, math)));
}

bool has_forward_equivalent(const ConvProblem& problem) { return gpu::conv::forward_equivalent(problem).has_value(); }

}  // namespace kbench::gpu_tests
