// Backward passes: the backward-data problem as a convolution of dy, and the weight gradient as one
// gather per weight element (its reduction over N x spatial is long: seed 76's elements sum 11 million
// terms, so they are spread over threads one element, or a chunk of short ones, at a time).
#include "reference/backward_conv.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "reference/computable.hpp"
#include "reference/parallel.hpp"
#include "reference/rank3.hpp"

namespace kbench::reference {

namespace {

// Where one weight element's reduction runs: the grid iterated (a conv's output, a conv_transpose's
// input), and which tensor sits on it.
struct WeightGradGather {
  const ConvProblem& p3;  // rank 3 (as_rank3)
  std::span<const float> x;
  std::span<const float> dy;

  double element(std::int64_t flat) const {
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
    const Dims in = p3.input;
    const Dims out = p3.output();
    // The grid a conv iterates is its output (reading x at o*s - p + k*d); a conv_transpose's is its input
    // (writing dy at i*s - p + k*d). Either way: grid position g, other coordinate g*s - p + k*d.
    const Dims grid = p3.transposed() ? in : out;
    const Dims other = p3.transposed() ? out : in;
    const std::int64_t x_plane = (p3.in_channels) * p3.input_spatial_volume();
    const std::int64_t dy_plane = (p3.out_channels) * p3.output_spatial_volume();
    double sum = 0;
    for (std::int64_t n = 0; n < p3.batch; ++n) {
      const float* x_c = x.data() + n * x_plane + ci * p3.input_spatial_volume();
      const float* dy_c = dy.data() + n * dy_plane + co * p3.output_spatial_volume();
      const float* on_grid = p3.transposed() ? x_c : dy_c;
      const float* off_grid = p3.transposed() ? dy_c : x_c;
      for (std::int64_t g0 = 0; g0 < grid[0]; ++g0) {
        const std::int64_t o0 = g0 * p3.stride[0] - p3.pad_before[0] + k[0] * p3.dilation[0];
        if (o0 < 0 || o0 >= other[0]) continue;
        for (std::int64_t g1 = 0; g1 < grid[1]; ++g1) {
          const std::int64_t o1 = g1 * p3.stride[1] - p3.pad_before[1] + k[1] * p3.dilation[1];
          if (o1 < 0 || o1 >= other[1]) continue;
          const float* grid_row = on_grid + (g0 * grid[1] + g1) * grid[2];
          const float* other_row = off_grid + (o0 * other[1] + o1) * other[2];
          for (std::int64_t g2 = 0; g2 < grid[2]; ++g2) {
            const std::int64_t o2 = g2 * p3.stride[2] - p3.pad_before[2] + k[2] * p3.dilation[2];
            if (o2 < 0 || o2 >= other[2]) continue;
            sum += static_cast<double>(grid_row[g2]) * static_cast<double>(other_row[o2]);
          }
        }
      }
    }
    return sum;
  }
};

void require_sizes(const ConvProblem& p, std::span<const float> x, std::span<const float> dy) {
  if (static_cast<std::int64_t>(x.size()) != p.input_elements() ||
      static_cast<std::int64_t>(dy.size()) != p.output_elements())
    throw std::invalid_argument(fmt::format("weight_grad: x has {} elements and dy {}, the problem needs {} and {}",
                                            x.size(), dy.size(), p.input_elements(), p.output_elements()));
}

// Weight elements per work item: enough that a short reduction is not dwarfed by handing it out.
std::int64_t chunk_for(const ConvProblem& p) {
  const std::int64_t terms = weight_grad_reduction_length(p);
  return std::clamp<std::int64_t>((1 << 16) / std::max<std::int64_t>(terms, 1), 1, 256);
}

}  // namespace

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
  require_computable(p);
  if (const Support s = backward_data_support(p); !s) throw std::invalid_argument(s.reason);
  ConvProblem q = p;
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

std::int64_t weight_grad_reduction_length(const ConvProblem& p) {
  return p.batch * (p.transposed() ? p.input_spatial_volume() : p.output_spatial_volume());
}

std::vector<double> weight_grad_at(const ConvProblem& p, std::span<const float> x, std::span<const float> dy,
                                   std::span<const std::int64_t> weight_indices) {
  require_computable(p);
  require_sizes(p, x, dy);
  for (const std::int64_t index : weight_indices)
    if (index < 0 || index >= p.weight_elements())
      throw std::out_of_range(
          fmt::format("weight index {} is outside the weight's {} elements", index, p.weight_elements()));
  const ConvProblem p3 = as_rank3(p);
  const WeightGradGather gather{p3, x, dy};
  std::vector<double> result(weight_indices.size());
  const auto count = static_cast<std::int64_t>(weight_indices.size());
  const std::int64_t chunk = chunk_for(p);
  parallel_for((count + chunk - 1) / chunk, [&](std::int64_t item) {
    const std::int64_t end = std::min(count, (item + 1) * chunk);
    for (std::int64_t i = item * chunk; i < end; ++i)
      result[static_cast<std::size_t>(i)] = gather.element(weight_indices[static_cast<std::size_t>(i)]);
  });
  return result;
}

std::vector<double> weight_grad(const ConvProblem& p, std::span<const float> x, std::span<const float> dy) {
  std::vector<std::int64_t> all(static_cast<std::size_t>(p.weight_elements()));
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<std::int64_t>(i);
  return weight_grad_at(p, x, dy, all);
}

std::vector<double> bias_grad(const ConvProblem& p, std::span<const float> dy) {
  require_computable(p);
  if (static_cast<std::int64_t>(dy.size()) != p.output_elements())
    throw std::invalid_argument(
        fmt::format("bias_grad: dy has {} elements, the problem's output {}", dy.size(), p.output_elements()));
  const std::int64_t plane = p.output_spatial_volume();
  std::vector<double> grad(static_cast<std::size_t>(p.out_channels), 0.0);
  for (std::int64_t n = 0; n < p.batch; ++n)
    for (std::int64_t c = 0; c < p.out_channels; ++c) {
      const float* values = dy.data() + (n * p.out_channels + c) * plane;
      double sum = 0;
      for (std::int64_t i = 0; i < plane; ++i) sum += values[i];
      grad[static_cast<std::size_t>(c)] += sum;
    }
  return grad;
}

}  // namespace kbench::reference
