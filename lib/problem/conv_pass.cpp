#include "problem/conv_pass.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace kbench {

std::int64_t computed_elements(const ConvProblem& p) {
  switch (p.pass) {
    case Pass::forward: return p.output_elements();
    case Pass::backward_data: return p.input_elements();
    case Pass::backward_weights: return p.weight_elements() + p.bias_elements();
  }
  return 0;
}

std::string_view computed_name(const ConvProblem& p) {
  switch (p.pass) {
    case Pass::forward: return "output";
    case Pass::backward_data: return "grad_input";
    case Pass::backward_weights: return "grad_weight";
  }
  return "?";
}

std::vector<std::int64_t> computed_extents(const ConvProblem& p) {
  std::vector<std::int64_t> extents;
  Dims spatial;
  switch (p.pass) {
    case Pass::forward: extents = {p.batch, p.out_channels}, spatial = p.output(); break;
    case Pass::backward_data: extents = {p.batch, p.in_channels}, spatial = p.input; break;
    case Pass::backward_weights: extents = {p.weight_dim0(), p.weight_dim1()}, spatial = p.kernel; break;
  }
  extents.insert(extents.end(), spatial.v, spatial.v + p.spatial_rank);
  return extents;
}

std::int64_t computed_bias_elements(const ConvProblem& p) {
  return p.pass == Pass::backward_weights ? p.bias_elements() : 0;
}

std::vector<Operand> computed_operands(const ConvProblem& p) {
  switch (p.pass) {
    case Pass::forward: return {Operand::output};
    case Pass::backward_data: return {Operand::input};
    case Pass::backward_weights:
      return p.bias ? std::vector{Operand::weight, Operand::bias} : std::vector{Operand::weight};
  }
  return {};
}

std::int64_t reduction_length(const ConvProblem& p) {
  switch (p.pass) {
    // An output element of either op sums C_in/g x taps; a grad_input element, C_out/g x taps.
    case Pass::forward: return p.in_channels_per_group() * p.kernel_volume() + (p.bias ? 1 : 0);
    case Pass::backward_data: return p.out_channels_per_group() * p.kernel_volume();
    case Pass::backward_weights: {
      const std::int64_t grid = p.batch * (p.transposed() ? p.input_spatial_volume() : p.output_spatial_volume());
      return std::max(grid, p.bias ? p.batch * p.output_spatial_volume() : 0);
    }
  }
  return 0;
}

Support backward_data_support(const ConvProblem& p) {
  if (!p.transposed()) return Support::yes();
  for (int d = 0; d < p.spatial_rank; ++d)
    if (p.output_padding[d] >= p.stride[d])
      return Support::no(fmt::format(
          "output_padding[{}] = {} is not below stride {}: the forward convolution of grad_output would produce "
          "more elements than grad_input has",
          d, p.output_padding[d], p.stride[d]));
  return Support::yes();
}

ConvProblem backward_data_problem(const ConvProblem& p) {
  if (const Support s = backward_data_support(p); !s) throw std::invalid_argument(s.reason);
  return backward_data_covering_problem(p);
}

ConvProblem backward_data_covering_problem(const ConvProblem& p) {
  ConvProblem q = p;
  q.pass = Pass::forward;
  q.op = p.transposed() ? OpKind::conv : OpKind::conv_transpose;
  q.in_channels = p.out_channels;
  q.out_channels = p.in_channels;
  q.input = p.output();
  q.bias = false;
  for (int d = 0; d < p.spatial_rank; ++d) {
    q.output_padding[d] = 0;
    if (!p.transposed()) {
      // The transposed conv's output without output padding, against the input it must reproduce.
      const std::int64_t reached =
          (q.input[d] - 1) * p.stride[d] - p.pad_before[d] - p.pad_after[d] + p.dilation[d] * (p.kernel[d] - 1) + 1;
      q.output_padding[d] = p.input[d] - reached;
    }
  }
  return q;
}

}  // namespace kbench
