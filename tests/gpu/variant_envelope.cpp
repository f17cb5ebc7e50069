#include "variant_envelope.hpp"

#include <optional>

#include "cuda/kernel_choice.hpp"
#include "cuda/kernel_selection.hpp"

namespace kbench::gpu_tests {

Support variant_envelope(const ConvProblem& problem, const std::string& variant, MathMode math) {
  const std::optional<gpu::conv::KernelChoice> choice = gpu::conv::parse_variant(variant);
  if (!choice) return Support::no("unknown variant " + variant);
  return gpu::conv::choice_envelope(*choice, problem, math);
}

}  // namespace kbench::gpu_tests
