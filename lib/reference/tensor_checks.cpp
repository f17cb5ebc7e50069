#include "reference/tensor_checks.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace kbench::reference {

void require_tensors_match(const ConvProblem& p, const data::HostTensors& tensors) {
  const auto check = [](const char* name, std::size_t have, std::int64_t want) {
    if (static_cast<std::int64_t>(have) != want)
      throw std::invalid_argument(fmt::format("{} tensor has {} elements, the problem needs {}", name, have, want));
  };
  check("input", tensors.input.size(), p.input_elements());
  check("weight", tensors.weight.size(), p.weight_elements());
  check("bias", tensors.bias.size(), p.bias_elements());
}

}  // namespace kbench::reference
