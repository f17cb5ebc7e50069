#include "data/host_tensors.hpp"

#include <algorithm>
#include <cmath>
#include <thread>

namespace kbench::data {

float init_bound(const ConvProblem& p) {
  const double fan_in = static_cast<double>(p.weight_dim1() * p.kernel_volume());
  return static_cast<float>(1.0 / std::sqrt(fan_in));
}

float seeded_value(const ConvProblem& p, std::uint64_t seed, TensorRole role, std::int64_t index) {
  return draw_as(p.dtype, seed, role, static_cast<std::uint64_t>(index), init_bound(p));
}

std::vector<float> make_seeded(const ConvProblem& p, std::uint64_t seed, TensorRole role) {
  const std::int64_t count = role_elements(p, role);
  std::vector<float> values(static_cast<std::size_t>(count));
  const float bound = init_bound(p);
  const std::int64_t workers = std::clamp<std::int64_t>(std::thread::hardware_concurrency(), 1, 64);
  const std::int64_t chunk = (count + workers - 1) / workers;
  {
    std::vector<std::jthread> threads;  // joined at the end of this block, before `values` is returned
    for (std::int64_t w = 0; w < workers && w * chunk < count; ++w) {
      threads.emplace_back([&, w] {
        const std::int64_t end = std::min(count, (w + 1) * chunk);
        for (std::int64_t i = w * chunk; i < end; ++i)
          values[static_cast<std::size_t>(i)] = draw_as(p.dtype, seed, role, static_cast<std::uint64_t>(i), bound);
      });
    }
  }
  return values;
}

std::vector<TensorRole> roles_read(const ConvProblem& p) {
  switch (p.pass) {
    case Pass::forward:
      return p.bias ? std::vector{TensorRole::input, TensorRole::weight, TensorRole::bias}
                    : std::vector{TensorRole::input, TensorRole::weight};
    case Pass::backward_data: return {TensorRole::grad_output, TensorRole::weight};
    case Pass::backward_weights: return {TensorRole::input, TensorRole::grad_output};
  }
  return {};
}

Operand role_operand(TensorRole role) {
  switch (role) {
    case TensorRole::input: return Operand::input;
    case TensorRole::weight: return Operand::weight;
    case TensorRole::bias: return Operand::bias;
    case TensorRole::grad_output: return Operand::output;
  }
  return Operand::output;
}

std::int64_t role_elements(const ConvProblem& p, TensorRole role) {
  switch (role) {
    case TensorRole::input: return p.input_elements();
    case TensorRole::weight: return p.weight_elements();
    case TensorRole::bias: return p.bias_elements();
    case TensorRole::grad_output: return p.output_elements();
  }
  return 0;
}

const char* role_name(TensorRole role) {
  switch (role) {
    case TensorRole::input: return "input";
    case TensorRole::weight: return "weight";
    case TensorRole::bias: return "bias";
    case TensorRole::grad_output: return "grad_output";
  }
  return "?";
}

std::vector<float>& HostTensors::operator[](TensorRole role) {
  switch (role) {
    case TensorRole::input: return input;
    case TensorRole::weight: return weight;
    case TensorRole::bias: return bias;
    case TensorRole::grad_output: return grad_output;
  }
  return input;
}

const std::vector<float>& HostTensors::operator[](TensorRole role) const {
  return const_cast<HostTensors&>(*this)[role];
}

HostTensors make_host_tensors(const ConvProblem& p, std::uint64_t seed) {
  HostTensors tensors;
  for (const TensorRole role : roles_read(p)) tensors[role] = make_seeded(p, seed, role);
  return tensors;
}

}  // namespace kbench::data
