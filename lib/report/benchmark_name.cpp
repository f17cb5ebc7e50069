#include "report/benchmark_name.hpp"

#include <fmt/format.h>

namespace kbench::report {

std::string benchmark_name(const Result& result) {
  const std::string backend = result.variant.empty() ? result.backend : result.backend + ":" + result.variant;
  return fmt::format("{}/{}/{}", result.workload, backend, to_string(result.math_requested));
}

}  // namespace kbench::report
