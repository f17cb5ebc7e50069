#pragma once
// How a stride-1 transposed convolution run on a forward kernel (forward_equivalent.hpp) is described:
// the forward kernel's name with "/as_forward", its facts, the forward padding and the launch that
// rewrites the weights.
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

#include "cuda/common/family_descriptor.hpp"

namespace kbench::gpu::conv {

// A launch count ("2 (pack weights, GEMM)", "1") with the forward weights' launch first:
// "3 (forward weights, pack weights, GEMM)", "2 (forward weights, kernel)".
inline std::string with_forward_weights_launch(const std::string& launches) {
  std::int64_t n = 0;
  const auto [end, error] = std::from_chars(launches.data(), launches.data() + launches.size(), n);
  if (error != std::errc{}) return launches;
  const std::string_view rest(end, static_cast<std::size_t>(launches.data() + launches.size() - end));
  if (rest.starts_with(" (")) return fmt::format("{} (forward weights, {}", n + 1, rest.substr(2));
  return fmt::format("{} (forward weights, {})", n + 1, n == 1 ? "kernel" : "kernels");
}

inline KernelDescription as_forward_description(KernelDescription d, const ConvProblem& forward) {
  d.implementation += "/as_forward";
  for (auto& [key, value] : d.properties)
    if (key == "launches") value = with_forward_weights_launch(value);
  d.properties.emplace_back("as_forward",
                            fmt::format("stride-1 transposed convolution run as the forward one it equals: kernel "
                                        "flipped, channel axes swapped ({} weights, rewritten by a launch of their "
                                        "own), padding {}",
                                        forward.weight_elements(), padding_text(forward)));
  return d;
}

}  // namespace kbench::gpu::conv
