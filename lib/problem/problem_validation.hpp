#pragma once
// The rules that make a ConvProblem runnable, whatever built it (a YAML spec, an importer, a command
// line, a kernel's rewrite of a problem, a test): every size in range, groups dividing the channels, a
// positive output size, output_padding within PyTorch's bound, and no tensor too large to allocate. The
// one validator: the readers point at the offending key with the field find_problem_issue blames, and
// the CPU reference and the kernels ask validate_problem.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/support.hpp"
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

// The issue for a person to read, led by the field at fault: "dilation[1]: got 0; expected ...".
std::string describe(const ProblemIssue& issue);

// Yes when find_problem_issue finds nothing; otherwise no, with the first issue described.
Support validate_problem(const ConvProblem& problem);

// Throws kbench::InputError "CONTEXT: " + validate_problem's reason when the problem breaks a rule: the
// guard of code that computes a problem it did not validate itself (the CPU reference).
void require_valid_problem(const ConvProblem& problem, std::string_view context);

}  // namespace kbench
