#pragma once
// One output element computed on its own, as a sum over the input elements and taps that feed it
// (the gather formulation). Templated over where the values come from, so host tensors and values
// regenerated from the seed share one implementation.
#include <cstdint>

#include "problem/conv_geometry.hpp"
#include "problem/conv_problem.hpp"

namespace kbench::reference {

// Values: input(i), weight(i), bias(i) returning double, for flat indices into PyTorch's layouts.
// `p3` must be the rank-3 form of the problem (as_rank3).
template <class Values>
double gather_output(const ConvProblem& p3, const Values& values, std::int64_t flat_output) {
  const Dims out_extent = p3.output();
  const geometry::TensorCoord out = geometry::unflatten(flat_output, p3.out_channels, out_extent, 3);
  const std::int64_t group = out.c / p3.out_channels_per_group();
  const std::int64_t cin_per_group = p3.in_channels_per_group();
  const std::int64_t in_volume = p3.input_spatial_volume();
  const std::int64_t kernel_volume = p3.kernel_volume();
  // Between consecutive input channels of the group: the input moves one plane; the weight moves one
  // [k...] block along dim 1 (conv: [C_out, C_in/g, k...]) or one whole dim-0 row (transposed).
  const std::int64_t weight_channel_step = p3.transposed() ? p3.weight_dim1() * kernel_volume : kernel_volume;
  const std::int64_t first_in_channel = group * cin_per_group;
  const std::int64_t in_base = (out.n * p3.in_channels + first_in_channel) * in_volume;
  const std::int64_t weight_base =
      p3.transposed() ? (first_in_channel * p3.weight_dim1() + out.c % p3.out_channels_per_group()) * kernel_volume
                      : out.c * cin_per_group * kernel_volume;

  // Input coordinate feeding output coordinate `o` through tap k along d, or -1 when none does.
  const auto source = [&p3](int d, std::int64_t o, std::int64_t k) -> std::int64_t {
    std::int64_t in = -1;
    if (p3.transposed()) return geometry::transposed_tap_source(p3, d, o, k, &in) ? in : -1;
    in = geometry::conv_input_coord(p3, d, o, k);
    return in >= 0 && in < p3.input[d] ? in : -1;
  };

  double sum = p3.bias ? values.bias(out.c) : 0.0;
  for (std::int64_t kd = 0; kd < p3.kernel[0]; ++kd) {
    const std::int64_t id = source(0, out.pos[0], kd);
    if (id < 0) continue;
    for (std::int64_t kh = 0; kh < p3.kernel[1]; ++kh) {
      const std::int64_t ih = source(1, out.pos[1], kh);
      if (ih < 0) continue;
      for (std::int64_t kw = 0; kw < p3.kernel[2]; ++kw) {
        const std::int64_t iw = source(2, out.pos[2], kw);
        if (iw < 0) continue;
        const std::int64_t in_offset = in_base + (id * p3.input[1] + ih) * p3.input[2] + iw;
        const std::int64_t weight_offset = weight_base + (kd * p3.kernel[1] + kh) * p3.kernel[2] + kw;
        for (std::int64_t ci = 0; ci < cin_per_group; ++ci)
          sum += values.weight(weight_offset + ci * weight_channel_step) * values.input(in_offset + ci * in_volume);
      }
    }
  }
  return sum;
}

}  // namespace kbench::reference
