#include "problem/problem_validation.hpp"

#include <algorithm>
#include <initializer_list>
#include <limits>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"

namespace kbench {

namespace {

constexpr std::int64_t kSaturated = std::numeric_limits<std::int64_t>::max();

// Element counts of absurd shapes overflow 64 bits; saturate so they still compare as "too many".
std::int64_t saturating_product(std::initializer_list<std::int64_t> factors) {
  std::int64_t product = 1;
  for (std::int64_t factor : factors)
    if (__builtin_mul_overflow(product, factor, &product)) return kSaturated;
  return product;
}

std::int64_t saturating_volume(const Dims& dims, int rank) {
  std::int64_t volume = 1;
  for (int d = 0; d < rank; ++d) volume = saturating_product({volume, dims[d]});
  return volume;
}

std::string shape_text(std::int64_t dim0, std::int64_t dim1, const Dims& spatial, int rank) {
  std::string text = fmt::format("[{}, {}", dim0, dim1);
  for (int d = 0; d < rank; ++d) text += fmt::format(", {}", spatial[d]);
  return text + "]";
}

ProblemIssue issue(ProblemField field, int dim, std::string message) { return {field, dim, std::move(message)}; }

std::optional<ProblemIssue> check_count(ProblemField field, std::int64_t value, std::int64_t min, int dim = -1) {
  if (value >= min && value <= kMaxProblemDimension) return std::nullopt;
  return issue(field, dim,
               fmt::format("got {}; expected an integer from {} to {} (2^31-1)", value, min, kMaxProblemDimension));
}

std::optional<ProblemIssue> check_ranges(const ConvProblem& p) {
  if (p.spatial_rank < 1 || p.spatial_rank > kMaxSpatialRank)
    return issue(ProblemField::spatial_rank, -1,
                 fmt::format("{} spatial dims; expected 1 to {}", p.spatial_rank, kMaxSpatialRank));
  for (auto [field, value] : {std::pair{ProblemField::batch, p.batch},
                              {ProblemField::in_channels, p.in_channels},
                              {ProblemField::out_channels, p.out_channels},
                              {ProblemField::groups, p.groups}})
    if (auto found = check_count(field, value, 1)) return found;
  for (int d = 0; d < p.spatial_rank; ++d) {
    for (auto [field, dims] : {std::pair{ProblemField::input, &p.input},
                               {ProblemField::kernel, &p.kernel},
                               {ProblemField::stride, &p.stride},
                               {ProblemField::dilation, &p.dilation}})
      if (auto found = check_count(field, (*dims)[d], 1, d)) return found;
    for (const Dims* pad : {&p.pad_before, &p.pad_after}) {
      if ((*pad)[d] < 0)
        return issue(ProblemField::padding, d,
                     fmt::format("negative padding {} is not supported; expected an integer >= 0", (*pad)[d]));
      if (auto found = check_count(ProblemField::padding, (*pad)[d], 0, d)) return found;
    }
    if (auto found = check_count(ProblemField::output_padding, p.output_padding[d], 0, d)) return found;
  }
  return std::nullopt;
}

std::optional<ProblemIssue> check_groups(const ConvProblem& p) {
  // PyTorch's wording: "in_channels must be divisible by groups".
  if (p.in_channels % p.groups != 0)
    return issue(ProblemField::groups, -1,
                 fmt::format("in_channels must be divisible by groups, got in_channels {} (input[1]) and groups {}; "
                             "expected groups to divide both in_channels and out_channels",
                             p.in_channels, p.groups));
  if (p.out_channels % p.groups != 0)
    return issue(ProblemField::groups, -1,
                 fmt::format("out_channels must be divisible by groups, got out_channels {} and groups {}; "
                             "expected groups to divide both in_channels and out_channels",
                             p.out_channels, p.groups));
  return std::nullopt;
}

std::optional<ProblemIssue> check_output_padding(const ConvProblem& p) {
  for (int d = 0; d < p.spatial_rank; ++d) {
    const std::int64_t extra = p.output_padding[d];
    if (extra == 0) continue;
    if (!p.transposed())
      return issue(ProblemField::output_padding, d,
                   fmt::format("output_padding {} given for a conv; expected output_padding only with "
                               "op: conv_transpose",
                               extra));
    const std::int64_t bound = std::max(p.stride[d], p.dilation[d]);
    if (extra >= bound)
      return issue(ProblemField::output_padding, d,
                   fmt::format("output padding must be smaller than either stride or dilation, got output_padding "
                               "{} with stride {} and dilation {} in spatial dim {}; expected at most {}",
                               extra, p.stride[d], p.dilation[d], d, bound - 1));
  }
  return std::nullopt;
}

// Ranges are already checked: every term is below 2^31, so these sums and products fit in 64 bits.
std::optional<ProblemIssue> check_output_size(const ConvProblem& p) {
  for (int d = 0; d < p.spatial_rank; ++d) {
    const std::int64_t span = p.dilation[d] * (p.kernel[d] - 1) + 1;
    if (!p.transposed()) {
      const std::int64_t padded = p.input[d] + p.pad_before[d] + p.pad_after[d];
      if (padded < span)
        return issue(
            ProblemField::kernel, d,
            fmt::format("kernel size can't be greater than actual input size: in spatial dim {} the "
                        "dilated kernel spans {} (kernel {}, dilation {}) but the padded input is {} "
                        "(input {} + padding {}+{}), so the calculated output size is 0; expected a "
                        "dilated kernel no wider than the padded input",
                        d, span, p.kernel[d], p.dilation[d], padded, p.input[d], p.pad_before[d], p.pad_after[d]));
      // Huge padding can push a conv's output past the per-dimension limit.
      if (p.output_extent(d) > kMaxProblemDimension)
        return issue(
            ProblemField::padding, d,
            fmt::format("calculated output size {} in spatial dim {} is too large (input {} + padding "
                        "{}+{}); expected at most {} (2^31-1)",
                        p.output_extent(d), d, p.input[d], p.pad_before[d], p.pad_after[d], kMaxProblemDimension));
      continue;
    }
    const std::int64_t size = p.output_extent(d);
    if (size > kMaxProblemDimension)
      return issue(ProblemField::stride, d,
                   fmt::format("calculated output size {} in spatial dim {} is too large (input {}, stride {}, "
                               "kernel {}, dilation {}); expected at most {} (2^31-1)",
                               size, d, p.input[d], p.stride[d], p.kernel[d], p.dilation[d], kMaxProblemDimension));
    if (size < 1)
      return issue(ProblemField::padding, d,
                   fmt::format("calculated output size {} in spatial dim {} is too small (input {}, stride {}, "
                               "kernel {}, dilation {}, output_padding {}, padding {}+{} cropped); expected an "
                               "output size of at least 1",
                               size, d, p.input[d], p.stride[d], p.kernel[d], p.dilation[d], p.output_padding[d],
                               p.pad_before[d], p.pad_after[d]));
  }
  return std::nullopt;
}

std::optional<ProblemIssue> check_tensor(ProblemField blame, std::string_view tensor, std::int64_t dim0,
                                         std::int64_t dim1, const Dims& spatial, int rank) {
  const std::int64_t elements = saturating_product({dim0, dim1, saturating_volume(spatial, rank)});
  if (elements <= kMaxTensorElements) return std::nullopt;
  const std::string count = elements == kSaturated ? "more than 2^63" : fmt::format("{}", elements);
  return issue(blame, -1,
               fmt::format("the {} tensor {} would have {} elements; expected at most 2^40 ({}) elements per tensor",
                           tensor, shape_text(dim0, dim1, spatial, rank), count, kMaxTensorElements));
}

std::optional<ProblemIssue> check_tensor_sizes(const ConvProblem& p) {
  if (auto found = check_tensor(ProblemField::input, "input", p.batch, p.in_channels, p.input, p.spatial_rank))
    return found;
  if (auto found =
          check_tensor(ProblemField::kernel, "weight", p.weight_dim0(), p.weight_dim1(), p.kernel, p.spatial_rank))
    return found;
  return check_tensor(ProblemField::out_channels, "output", p.batch, p.out_channels, p.output(), p.spatial_rank);
}

}  // namespace

std::string_view to_string(ProblemField field) {
  switch (field) {
    case ProblemField::spatial_rank: return "spatial_rank";
    case ProblemField::batch: return "batch";
    case ProblemField::in_channels: return "in_channels";
    case ProblemField::out_channels: return "out_channels";
    case ProblemField::input: return "input";
    case ProblemField::kernel: return "kernel";
    case ProblemField::stride: return "stride";
    case ProblemField::padding: return "padding";
    case ProblemField::dilation: return "dilation";
    case ProblemField::groups: return "groups";
    case ProblemField::output_padding: return "output_padding";
  }
  return "?";
}

std::optional<ProblemIssue> find_problem_issue(const ConvProblem& problem) {
  if (auto found = check_ranges(problem)) return found;
  if (auto found = check_groups(problem)) return found;
  if (auto found = check_output_padding(problem)) return found;
  if (auto found = check_output_size(problem)) return found;
  return check_tensor_sizes(problem);
}

std::string describe(const ProblemIssue& issue) {
  if (issue.spatial_dim < 0) return fmt::format("{}: {}", to_string(issue.field), issue.message);
  return fmt::format("{}[{}]: {}", to_string(issue.field), issue.spatial_dim, issue.message);
}

Support validate_problem(const ConvProblem& problem) {
  if (const auto issue = find_problem_issue(problem)) return Support::no(describe(*issue));
  return Support::yes();
}

void require_valid_problem(const ConvProblem& problem, std::string_view context) {
  if (const Support s = validate_problem(problem); !s) throw InputError(fmt::format("{}: {}", context, s.reason));
}

}  // namespace kbench
