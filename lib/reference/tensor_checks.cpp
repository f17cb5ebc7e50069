#include "reference/tensor_checks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "problem/problem_validation.hpp"

namespace kbench::reference {

void require_computable(const ConvProblem& problem) {
  require_valid_problem(problem, "the CPU reference cannot compute this convolution");
}

void require_tensors_match(const ConvProblem& p, const data::HostTensors& tensors) {
  const auto check = [](const char* name, std::size_t have, std::int64_t want) {
    if (static_cast<std::int64_t>(have) != want)
      throw std::invalid_argument(fmt::format("{} tensor has {} elements, the problem needs {}", name, have, want));
  };
  // Every role: the ones the pass reads hold their tensor, the others nothing (a bias given to a problem
  // without one is a caller's mistake, not something to ignore).
  const std::vector<data::TensorRole> read = data::roles_read(p);
  for (const data::TensorRole role :
       {data::TensorRole::input, data::TensorRole::weight, data::TensorRole::bias, data::TensorRole::grad_output}) {
    const bool reads = std::find(read.begin(), read.end(), role) != read.end();
    check(data::role_name(role), tensors[role].size(), reads ? data::role_elements(p, role) : 0);
  }
}

}  // namespace kbench::reference
