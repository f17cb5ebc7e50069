// convolve_at and convolve_at_seeded: selected output elements, one gather each, spread over threads.
#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

#include "data/counter_rng.hpp"
#include "problem/rank3.hpp"
#include "reference/gather.hpp"
#include "reference/parallel.hpp"
#include "reference/reference_conv.hpp"
#include "reference/seeded_values.hpp"
#include "reference/backward_conv.hpp"
#include "reference/tensor_checks.hpp"

namespace kbench::reference {

namespace {

struct HostValues {
  const float* input_values;
  const float* weight_values;
  const float* bias_values;
  double input(std::int64_t i) const { return input_values[i]; }
  double weight(std::int64_t i) const { return weight_values[i]; }
  double bias(std::int64_t i) const { return bias_values[i]; }
};

void require_indices_in_output(const ConvProblem& p, std::span<const std::int64_t> indices) {
  const std::int64_t count = computed_elements(p);
  for (const std::int64_t index : indices)
    if (index < 0 || index >= count)
      throw std::out_of_range(fmt::format("output index {} is outside the output's {} elements", index, count));
}

template <class Values>
std::vector<double> gather_all(const ConvProblem& p, const Values& values, std::span<const std::int64_t> indices) {
  const ConvProblem p3 = as_rank3(p);
  std::vector<double> result(indices.size());
  // Chunks of indices rather than single ones: one gather may be only a few taps.
  constexpr std::int64_t chunk = 64;
  const auto count = static_cast<std::int64_t>(indices.size());
  parallel_for((count + chunk - 1) / chunk, [&](std::int64_t item) {
    const std::int64_t end = std::min(count, (item + 1) * chunk);
    for (std::int64_t i = item * chunk; i < end; ++i)
      result[static_cast<std::size_t>(i)] = gather_output(p3, values, indices[static_cast<std::size_t>(i)]);
  });
  return result;
}

}  // namespace

std::vector<double> convolve_at(const ConvProblem& p, const data::HostTensors& tensors,
                                std::span<const std::int64_t> output_indices) {
  if (p.pass != Pass::forward) return backward_pass_at(p, tensors, output_indices);
  require_computable(p);
  require_tensors_match(p, tensors);
  require_indices_in_output(p, output_indices);
  const HostValues values{tensors.input.data(), tensors.weight.data(), tensors.bias.data()};
  return gather_all(p, values, output_indices);
}

data::HostTensors tensors_for_terms(const data::HostTensors& tensors, Terms terms) {
  if (terms == Terms::value) return tensors;
  const auto transform = [terms](const std::vector<float>& values) {
    std::vector<float> out(values.size());
    for (std::size_t i = 0; i < values.size(); ++i)
      out[i] = terms == Terms::magnitude ? std::abs(values[i]) : values[i] * values[i];
    return out;
  };
  return {transform(tensors.input), transform(tensors.weight), transform(tensors.bias),
          transform(tensors.grad_output)};
}

std::vector<double> convolve_at_seeded(const ConvProblem& p, std::uint64_t seed,
                                       std::span<const std::int64_t> output_indices, Terms terms) {
  if (p.pass != Pass::forward) return backward_pass_at_seeded(p, seed, output_indices, terms);
  require_computable(p);
  require_indices_in_output(p, output_indices);
  const SeededValues values{p.dtype, seed, data::init_bound(p), terms};
  return gather_all(p, values, output_indices);
}

std::vector<double> gather_outputs(const ConvProblem& p, const SeededValues& values,
                                   std::span<const std::int64_t> indices) {
  return gather_all(p, values, indices);
}

}  // namespace kbench::reference
