#pragma once
// What makes a result of one run the same measurement as a result of another: the workload, the
// backend, the variant that was asked for (a kernel family, a cuDNN algorithm; empty for the
// backend's own choice) and the math mode that was asked for. What actually ran (implementation,
// math mode used) is compared, not matched on: a backend that picks another algorithm is the
// same benchmark with a change worth reporting, not two unrelated results.
#include <string>

#include "core/types.hpp"
#include "run/result.hpp"

namespace kbench::diff {

struct ResultKey {
  std::string workload;
  std::string backend;
  std::string variant;
  MathMode math = MathMode::fp32;  // requested
  bool operator==(const ResultKey&) const = default;
};

ResultKey key_of(const Result& result);

// "workload · backend:variant · fp32" (no ":variant" for the backend's own choice).
std::string to_string(const ResultKey& key);

// "backend:variant" or "backend".
std::string backend_label(const ResultKey& key);

}  // namespace kbench::diff
