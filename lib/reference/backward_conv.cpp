// Backward passes: backward-data as the forward convolution of dy, and the weight gradient as one
// gather per weight element (its reduction over N x spatial is long: problem 76's elements sum 11 million
// terms, so they are spread over threads one element, or a chunk of short ones, at a time).
#include "reference/backward_conv.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "problem/rank3.hpp"
#include "reference/gather.hpp"
#include "reference/parallel.hpp"
#include "reference/reference_conv.hpp"
#include "reference/seeded_values.hpp"
#include "reference/tensor_checks.hpp"

namespace kbench::reference {

namespace {

struct HostOperands {
  const float* x;
  const float* dy;
  double input(std::int64_t i) const { return x[i]; }
  double grad_output(std::int64_t i) const { return dy[i]; }
};

// One grad_weight element: where its reduction runs is the grid a conv iterates (its output, reading x at
// o*s - p + k*d) or a conv_transpose's (its input, writing dy at i*s - p + k*d). Either way: grid position
// g, other coordinate g*s - p + k*d. `p3` is rank 3 (as_rank3).
template <class Operands>
double weight_grad_element(const ConvProblem& p3, const Operands& v, std::int64_t flat) {
  const std::int64_t taps = p3.kernel_volume();
  const std::int64_t tap = flat % taps;
  const std::int64_t d1 = flat / taps % p3.weight_dim1();
  const std::int64_t d0 = flat / taps / p3.weight_dim1();
  const std::int64_t k[3] = {tap / (p3.kernel[1] * p3.kernel[2]), tap / p3.kernel[2] % p3.kernel[1],
                             tap % p3.kernel[2]};
  // conv: weight [C_out, C_in/g, k]; conv_transpose: [C_in, C_out/g, k].
  std::int64_t co = 0, ci = 0;
  if (p3.transposed()) {
    ci = d0;
    co = ci / p3.in_channels_per_group() * p3.out_channels_per_group() + d1;
  } else {
    co = d0;
    ci = co / p3.out_channels_per_group() * p3.in_channels_per_group() + d1;
  }
  const Dims grid = p3.transposed() ? p3.input : p3.output();
  const Dims other = p3.transposed() ? p3.output() : p3.input;
  const std::int64_t in_volume = p3.input_spatial_volume();
  const std::int64_t out_volume = p3.output_spatial_volume();
  double sum = 0;
  for (std::int64_t n = 0; n < p3.batch; ++n) {
    const std::int64_t x_c = (n * p3.in_channels + ci) * in_volume;
    const std::int64_t dy_c = (n * p3.out_channels + co) * out_volume;
    const std::int64_t on_grid = p3.transposed() ? x_c : dy_c;
    const std::int64_t off_grid = p3.transposed() ? dy_c : x_c;
    for (std::int64_t g0 = 0; g0 < grid[0]; ++g0) {
      const std::int64_t o0 = g0 * p3.stride[0] - p3.pad_before[0] + k[0] * p3.dilation[0];
      if (o0 < 0 || o0 >= other[0]) continue;
      for (std::int64_t g1 = 0; g1 < grid[1]; ++g1) {
        const std::int64_t o1 = g1 * p3.stride[1] - p3.pad_before[1] + k[1] * p3.dilation[1];
        if (o1 < 0 || o1 >= other[1]) continue;
        const std::int64_t grid_row = on_grid + (g0 * grid[1] + g1) * grid[2];
        const std::int64_t other_row = off_grid + (o0 * other[1] + o1) * other[2];
        for (std::int64_t g2 = 0; g2 < grid[2]; ++g2) {
          const std::int64_t o2 = g2 * p3.stride[2] - p3.pad_before[2] + k[2] * p3.dilation[2];
          if (o2 < 0 || o2 >= other[2]) continue;
          const std::int64_t at_grid = grid_row + g2, at_other = other_row + o2;
          sum += p3.transposed() ? v.input(at_grid) * v.grad_output(at_other)
                                 : v.grad_output(at_grid) * v.input(at_other);
        }
      }
    }
  }
  return sum;
}

// grad_bias[c]: dy summed over N and the output's positions.
template <class Operands>
double bias_grad_element(const ConvProblem& p, const Operands& v, std::int64_t c) {
  const std::int64_t plane = p.output_spatial_volume();
  double sum = 0;
  for (std::int64_t n = 0; n < p.batch; ++n)
    for (std::int64_t i = 0; i < plane; ++i) sum += v.grad_output((n * p.out_channels + c) * plane + i);
  return sum;
}

void require_sizes(const ConvProblem& p, std::span<const float> x, std::span<const float> dy) {
  if (static_cast<std::int64_t>(x.size()) != p.input_elements() ||
      static_cast<std::int64_t>(dy.size()) != p.output_elements())
    throw std::invalid_argument(fmt::format("weight_grad: x has {} elements and dy {}, the problem needs {} and {}",
                                            x.size(), dy.size(), p.input_elements(), p.output_elements()));
}

void require_in_range(std::span<const std::int64_t> indices, std::int64_t count, const char* what) {
  for (const std::int64_t index : indices)
    if (index < 0 || index >= count)
      throw std::out_of_range(fmt::format("{} index {} is outside the {}'s {} elements", what, index, what, count));
}

// Elements per work item: enough that a short reduction is not dwarfed by handing it out.
std::int64_t chunk_for(const ConvProblem& p) {
  return std::clamp<std::int64_t>((1 << 16) / std::max<std::int64_t>(reduction_length(p), 1), 1, 256);
}

// grad_weight then grad_bias at the given flat indices of a backward_weights result.
template <class Operands>
std::vector<double> weight_pass_at(const ConvProblem& p, const Operands& v, std::span<const std::int64_t> indices) {
  const ConvProblem p3 = as_rank3(p);
  const std::int64_t weights = p.weight_elements();
  std::vector<double> result(indices.size());
  const auto count = static_cast<std::int64_t>(indices.size());
  const std::int64_t chunk = chunk_for(p);
  parallel_for((count + chunk - 1) / chunk, [&](std::int64_t item) {
    const std::int64_t end = std::min(count, (item + 1) * chunk);
    for (std::int64_t i = item * chunk; i < end; ++i) {
      const std::int64_t at = indices[static_cast<std::size_t>(i)];
      result[static_cast<std::size_t>(i)] =
          at < weights ? weight_grad_element(p3, v, at) : bias_grad_element(p3, v, at - weights);
    }
  });
  return result;
}

std::vector<std::int64_t> all_indices(std::int64_t count) {
  std::vector<std::int64_t> all(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<std::int64_t>(i);
  return all;
}

// grad_input's flat indices ([N, C_in, in...]) as the same elements' indices in the output of `q`, its
// backward_data_covering_problem, whose spatial extents may be longer.
std::vector<std::int64_t> covering_indices(const ConvProblem& p, const ConvProblem& q,
                                           std::span<const std::int64_t> indices) {
  require_in_range(indices, computed_elements(p), computed_name(p).data());
  if (q.output_elements() == p.input_elements()) return {indices.begin(), indices.end()};
  const Dims wide = q.output();
  std::vector<std::int64_t> mapped;
  mapped.reserve(indices.size());
  for (std::int64_t index : indices) {
    std::int64_t coordinate[kMaxSpatialRank] = {};
    for (int d = p.spatial_rank - 1; d >= 0; --d) {
      coordinate[d] = index % p.input[d];
      index /= p.input[d];
    }
    std::int64_t at = index;  // n x C_in + c: the same in both
    for (int d = 0; d < p.spatial_rank; ++d) at = at * wide[d] + coordinate[d];
    mapped.push_back(at);
  }
  return mapped;
}

ConvProblem forward_only(ConvProblem p) {
  p.pass = Pass::forward;
  return p;
}

}  // namespace

std::vector<double> weight_grad_at(const ConvProblem& p, std::span<const float> x, std::span<const float> dy,
                                   std::span<const std::int64_t> weight_indices) {
  require_computable(forward_only(p));
  require_sizes(p, x, dy);
  require_in_range(weight_indices, p.weight_elements(), "weight");
  ConvProblem no_bias = p;
  no_bias.bias = false;
  return weight_pass_at(no_bias, HostOperands{x.data(), dy.data()}, weight_indices);
}

std::vector<double> weight_grad(const ConvProblem& p, std::span<const float> x, std::span<const float> dy) {
  return weight_grad_at(p, x, dy, all_indices(p.weight_elements()));
}

std::vector<double> bias_grad(const ConvProblem& p, std::span<const float> dy) {
  require_computable(forward_only(p));
  if (static_cast<std::int64_t>(dy.size()) != p.output_elements())
    throw std::invalid_argument(
        fmt::format("bias_grad: dy has {} elements, the problem's output {}", dy.size(), p.output_elements()));
  const HostOperands v{nullptr, dy.data()};
  std::vector<double> grad(static_cast<std::size_t>(p.out_channels));
  for (std::int64_t c = 0; c < p.out_channels; ++c) grad[static_cast<std::size_t>(c)] = bias_grad_element(p, v, c);
  return grad;
}

std::vector<double> backward_pass_at(const ConvProblem& p, const data::HostTensors& tensors,
                                     std::span<const std::int64_t> indices) {
  require_computable(p);
  require_tensors_match(p, tensors);
  if (p.pass == Pass::backward_data) {
    const ConvProblem q = backward_data_covering_problem(p);
    return convolve_at(q, data::HostTensors{tensors.grad_output, tensors.weight, {}, {}},
                       covering_indices(p, q, indices));
  }
  require_in_range(indices, computed_elements(p), computed_name(p).data());
  return weight_pass_at(p, HostOperands{tensors.input.data(), tensors.grad_output.data()}, indices);
}

std::vector<double> backward_pass(const ConvProblem& p, const data::HostTensors& tensors) {
  if (p.pass == Pass::backward_data) {
    require_computable(p);
    require_tensors_match(p, tensors);
    const ConvProblem q = backward_data_covering_problem(p);
    std::vector<double> covering = convolve(q, data::HostTensors{tensors.grad_output, tensors.weight, {}, {}});
    if (q.output_elements() == p.input_elements()) return covering;
    std::vector<double> grad_input;
    grad_input.reserve(static_cast<std::size_t>(p.input_elements()));
    for (const std::int64_t at : covering_indices(p, q, all_indices(p.input_elements())))
      grad_input.push_back(covering[static_cast<std::size_t>(at)]);
    return grad_input;
  }
  return backward_pass_at(p, tensors, all_indices(computed_elements(p)));
}

std::vector<double> backward_pass_at_seeded(const ConvProblem& p, std::uint64_t seed,
                                            std::span<const std::int64_t> indices, Terms terms) {
  require_computable(p);
  const SeededValues values{p.dtype, seed, data::init_bound(p), terms};
  if (p.pass == Pass::backward_data) {
    const ConvProblem q = backward_data_covering_problem(p);
    return gather_outputs(q, SeededValues{values.dtype, seed, values.bound, terms, data::TensorRole::grad_output},
                          covering_indices(p, q, indices));
  }
  require_in_range(indices, computed_elements(p), computed_name(p).data());
  return weight_pass_at(p, values, indices);
}

}  // namespace kbench::reference
