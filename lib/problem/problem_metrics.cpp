#include "problem/problem_metrics.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "problem/conv_geometry.hpp"
#include "problem/conv_pass.hpp"

namespace kbench {

ProblemMetrics compute_metrics(const ConvProblem& p) {
  ProblemMetrics m;
  const double element = static_cast<double>(bytes_per_element(p.dtype));
  double landed = 1;
  for (int d = 0; d < p.spatial_rank; ++d) landed *= static_cast<double>(geometry::landed_pairs(p, d));
  // Forward: per output element, (C_in/g) x kernel taps. Transposed: per input element and output
  // channel of its group, the taps that land; the batch and channel factors are the same product.
  const double channel_pairs =
      p.transposed() ? static_cast<double>(p.in_channels) * static_cast<double>(p.out_channels_per_group())
                     : static_cast<double>(p.out_channels) * static_cast<double>(p.in_channels_per_group());
  // Every pass multiplies the same pairs (a backward pass is the forward's products regrouped), and each
  // tensor crosses memory once: read as an operand or written as the result. Only the bias differs:
  // forward adds it, backward_weights sums dy into grad_bias, backward_data has no bias term.
  const bool bias_term = p.bias && p.pass != Pass::backward_data;
  m.flops = 2.0 * static_cast<double>(p.batch) * channel_pairs * landed;
  if (bias_term) m.flops += static_cast<double>(p.output_elements());
  m.input_bytes = element * static_cast<double>(p.input_elements());
  m.weight_bytes = element * static_cast<double>(p.weight_elements());
  m.bias_bytes = bias_term ? element * static_cast<double>(p.bias_elements()) : 0.0;
  m.output_bytes = element * static_cast<double>(p.output_elements());
  return m;
}

namespace {
std::vector<std::int64_t> nc_shape(std::int64_t n, std::int64_t c, const Dims& spatial, int rank) {
  std::vector<std::int64_t> shape{n, c};
  for (int d = 0; d < rank; ++d) shape.push_back(spatial[d]);
  return shape;
}
}  // namespace

std::vector<std::int64_t> input_shape(const ConvProblem& p) {
  return nc_shape(p.batch, p.in_channels, p.input, p.spatial_rank);
}
std::vector<std::int64_t> weight_shape(const ConvProblem& p) {
  return nc_shape(p.weight_dim0(), p.weight_dim1(), p.kernel, p.spatial_rank);
}
std::vector<std::int64_t> output_shape(const ConvProblem& p) {
  return nc_shape(p.batch, p.out_channels, p.output(), p.spatial_rank);
}

std::string shape_string(const std::vector<std::int64_t>& shape) { return fmt::format("[{}]", fmt::join(shape, ", ")); }

namespace {
std::string dims_string(const Dims& dims, int rank) {
  bool uniform = true;
  for (int d = 1; d < rank; ++d) uniform = uniform && dims[d] == dims[0];
  if (uniform) return fmt::format("{}", dims[0]);
  std::vector<std::int64_t> values(dims.v, dims.v + rank);
  return fmt::format("{}", fmt::join(values, "x"));
}
}  // namespace

std::string computed_text(const ConvProblem& p) {
  std::string text = fmt::format("{} {}", computed_name(p), shape_string(computed_extents(p)));
  if (const std::int64_t bias = computed_bias_elements(p); bias > 0) text += fmt::format(" + grad_bias [{}]", bias);
  return text;
}

std::string data_text(const ConvProblem& p) { return fmt::format("{} {}", to_string(p.dtype), to_string(p.layout)); }

std::string describe(const ConvProblem& p) {
  const auto in = input_shape(p);
  std::string text =
      fmt::format("{}{}d {} -> {} k{} s{} d{}", p.transposed() ? "conv_transpose" : "conv", p.spatial_rank,
                  fmt::join(in, "x"), p.out_channels, dims_string(p.kernel, p.spatial_rank),
                  dims_string(p.stride, p.spatial_rank), dims_string(p.dilation, p.spatial_rank));
  if (p.pad_before == p.pad_after)
    text += fmt::format(" p{}", dims_string(p.pad_before, p.spatial_rank));
  else
    text += fmt::format(" p{}/{}", dims_string(p.pad_before, p.spatial_rank), dims_string(p.pad_after, p.spatial_rank));
  if (p.transposed()) text += fmt::format(" op{}", dims_string(p.output_padding, p.spatial_rank));
  if (p.groups != 1) text += fmt::format(" g{}", p.groups);
  if (p.bias) text += " bias";
  if (p.pass != Pass::forward) text += fmt::format(" {}", to_string(p.pass));
  return text;
}

}  // namespace kbench
