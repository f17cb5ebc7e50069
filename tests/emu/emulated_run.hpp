#pragma once
// Runs a kernel source under the CUDA emulation on a problem's fresh random tensors and checks it
// against the fp64 reference: shared by the emulation tests of the direct and depthwise kernels.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "data/host_tensors.hpp"
#include "problem/conv_problem.hpp"
#include "reference/reference_conv.hpp"
#include "verify/compare.hpp"
#include "verify/tolerance.hpp"

namespace kbench::emu_tests {

inline constexpr float kPoison = 1.0e30f;  // every output is overwritten or the comparison fails

// Registers the tensors with the emulation, runs `kernel` over `blocks` blocks of `threads`, compares
// every output with the reference; `counted_stores`: the kernel writes its output only by streaming
// stores or bulk copies, each element exactly once (checked).
inline void run_and_compare(const ConvProblem& p, std::uint64_t seed, unsigned blocks, unsigned threads,
                            const std::function<void(const data::HostTensors&, float*)>& kernel, bool counted_stores,
                            unsigned char* shared = nullptr, std::size_t shared_bytes = 0) {
  const data::HostTensors t = data::make_host_tensors(p, seed);
  std::vector<float> y(static_cast<std::size_t>(p.output_elements()), kPoison);
  emu::clear_buffers();
  emu::allow_read(t.input.data(), t.input.size() * sizeof(float));
  emu::allow_read(t.weight.data(), t.weight.size() * sizeof(float));
  if (!t.bias.empty()) emu::allow_read(t.bias.data(), t.bias.size() * sizeof(float));
  emu::allow_write(y.data(), y.size() * sizeof(float));
  emu::launch(emu::Dim3{blocks}, emu::Dim3{threads}, shared, shared_bytes, [&] { kernel(t, y.data()); });
  const Comparison c = compare_outputs(y, reference::convolve(p, t), default_tolerance(MathMode::fp32));
  INFO("mismatches " << c.mismatches << " of " << c.checked << ", first at " << c.first_mismatch << ": got "
                     << c.first_mismatch_got << ", expected " << c.first_mismatch_expected);
  CHECK(c.passed());
  if (counted_stores) {
    const std::vector<std::uint8_t>& counts = emu::write_counts(y.data());
    std::size_t not_once = 0;
    for (std::size_t i = 0; i < y.size(); ++i) not_once += counts[i * sizeof(float)] != 1 ? 1 : 0;
    CHECK_MESSAGE(not_once == 0, not_once << " outputs not written exactly once");
  }
}

}  // namespace kbench::emu_tests
