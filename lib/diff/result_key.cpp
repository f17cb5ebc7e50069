#include "diff/result_key.hpp"

#include <fmt/format.h>

namespace kbench::diff {

ResultKey key_of(const Result& result) {
  return {result.workload, result.backend, result.variant, result.math_requested,
          result.dtype,    result.layout,  result.pass};
}

std::string backend_label(const ResultKey& key) {
  return key.variant.empty() ? key.backend : fmt::format("{}:{}", key.backend, key.variant);
}

std::string to_string(const ResultKey& key) {
  std::string text = fmt::format("{} · {} · {}", key.workload, backend_label(key), to_string(key.math));
  if (key.dtype != DType::fp32 || key.layout != Layout::nchw)
    text += fmt::format(" · {} {}", to_string(key.dtype), to_string(key.layout));
  if (key.pass != Pass::forward) text += fmt::format(" · {}", to_string(key.pass));
  return text;
}

}  // namespace kbench::diff
