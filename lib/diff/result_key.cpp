#include "diff/result_key.hpp"

#include <fmt/format.h>

namespace kbench::diff {

ResultKey key_of(const Result& result) {
  return {result.workload, result.backend, result.variant, result.math_requested};
}

std::string backend_label(const ResultKey& key) {
  return key.variant.empty() ? key.backend : fmt::format("{}:{}", key.backend, key.variant);
}

std::string to_string(const ResultKey& key) {
  return fmt::format("{} · {} · {}", key.workload, backend_label(key), to_string(key.math));
}

}  // namespace kbench::diff
