#include "report/benchmark_name.hpp"

#include <fmt/format.h>

namespace kbench::report {

std::string benchmark_name(const Result& result) {
  const std::string backend = result.variant.empty() ? result.backend : result.backend + ":" + result.variant;
  std::string name = fmt::format("{}/{}/{}", result.workload, backend, to_string(result.math_requested));
  if (result.dtype != DType::fp32 || result.layout != Layout::nchw)
    name += fmt::format("/{}-{}", to_string(result.dtype), to_string(result.layout));
  if (result.pass != Pass::forward) name += fmt::format("/{}", to_string(result.pass));
  return name;
}

}  // namespace kbench::report
