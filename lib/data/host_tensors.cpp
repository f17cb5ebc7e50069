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
  const std::int64_t count = role == TensorRole::input    ? p.input_elements()
                             : role == TensorRole::weight ? p.weight_elements()
                                                          : p.bias_elements();
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

HostTensors make_host_tensors(const ConvProblem& p, std::uint64_t seed) {
  return {make_seeded(p, seed, TensorRole::input), make_seeded(p, seed, TensorRole::weight),
          make_seeded(p, seed, TensorRole::bias)};
}

}  // namespace kbench::data
