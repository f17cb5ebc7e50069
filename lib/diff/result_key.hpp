#pragma once
// What makes a result of one run the same measurement as a result of another: the workload, the
// backend, the variant that was asked for (a kernel family, a cuDNN algorithm; empty for the
// backend's own choice), the math mode that was asked for, the data it ran on (dtype and layout: an
// fp16 NHWC result is not the fp32 NCHW one, even under one workload name) and the pass it computed. What actually ran (implementation,
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
  DType dtype = DType::fp32;
  Layout layout = Layout::nchw;  // documents from before layouts read as nchw
  Pass pass = Pass::forward;     // and from before passes as forward
  bool operator==(const ResultKey&) const = default;
};

ResultKey key_of(const Result& result);

// "workload · backend:variant · fp32" (no ":variant" for the backend's own choice), then " · fp16 nhwc"
// when the data is not fp32 nchw (so fp32 nchw keys read as before), then " · backward_data" for a backward pass.
std::string to_string(const ResultKey& key);

// "backend:variant" or "backend".
std::string backend_label(const ResultKey& key);

}  // namespace kbench::diff
