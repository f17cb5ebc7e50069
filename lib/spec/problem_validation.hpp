#pragma once
// The rules that make a ConvProblem runnable, whatever built it (a YAML spec, a command line, a test):
// every size in range, groups dividing the channels, a positive output size, output_padding within
// PyTorch's bound, and no tensor too large to allocate. Reports the first broken rule with the field to
// blame, so the YAML layer can point at the offending key.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "problem/conv_problem.hpp"

namespace kbench {

// Any single size or count above this is refused (PyTorch indexes most dims with int32 somewhere).
inline constexpr std::int64_t kMaxProblemDimension = 2147483647;  // 2^31 - 1
// Any one tensor (input, weight, output) with more elements than this is refused before allocation:
// 2^40 fp32 elements is 4 TiB, far past any device.
inline constexpr std::int64_t kMaxTensorElements = std::int64_t{1} << 40;

enum class ProblemField {
  spatial_rank,
  batch,
  in_channels,
  out_channels,
  input,  // the spatial input sizes
  kernel,
  stride,
  padding,
  dilation,
  groups,
  output_padding,
};

// The field's name as the spec writes it ("out_channels", "padding").
std::string_view to_string(ProblemField field);

struct ProblemIssue {
  ProblemField field;
  int spatial_dim = -1;  // the spatial dimension at fault, or -1 for the field as a whole
  std::string message;   // "what was wrong; expected ..."
};

// nullopt when the problem is valid. Checks ranges first, so the size arithmetic after them cannot overflow.
std::optional<ProblemIssue> find_problem_issue(const ConvProblem& problem);

}  // namespace kbench
