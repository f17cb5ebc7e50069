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

// Registers `kernel_tensors` with the emulation, runs `kernel` on them over `blocks` blocks of
// `threads`, and compares every output with the reference of problem `p` on tensors `t` (the same
// tensors, or for a problem the kernel computes another way, such as a stride-1 transposed
// convolution run as forward, the tensors of the problem as given); `counted_stores`: the kernel
// writes its output only by streaming stores or bulk copies, each element exactly once (checked).
inline void launch_and_compare(const ConvProblem& p, const data::HostTensors& t,
                               const data::HostTensors& kernel_tensors, unsigned blocks, unsigned threads,
                               const std::function<void(const data::HostTensors&, float*)>& kernel, bool counted_stores,
                               unsigned char* shared = nullptr, std::size_t shared_bytes = 0) {
  std::vector<float> y(static_cast<std::size_t>(p.output_elements()), kPoison);
  emu::clear_buffers();
  emu::allow_read(kernel_tensors.input.data(), kernel_tensors.input.size() * sizeof(float));
  emu::allow_read(kernel_tensors.weight.data(), kernel_tensors.weight.size() * sizeof(float));
  if (!kernel_tensors.bias.empty())
    emu::allow_read(kernel_tensors.bias.data(), kernel_tensors.bias.size() * sizeof(float));
  emu::allow_write(y.data(), y.size() * sizeof(float));
  emu::launch(emu::Dim3{blocks}, emu::Dim3{threads}, shared, shared_bytes, [&] { kernel(kernel_tensors, y.data()); });
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

// launch_and_compare on the problem's fresh random tensors (seeded).
inline void run_and_compare(const ConvProblem& p, std::uint64_t seed, unsigned blocks, unsigned threads,
                            const std::function<void(const data::HostTensors&, float*)>& kernel, bool counted_stores,
                            unsigned char* shared = nullptr, std::size_t shared_bytes = 0) {
  const data::HostTensors t = data::make_host_tensors(p, seed);
  launch_and_compare(p, t, t, blocks, threads, kernel, counted_stores, shared, shared_bytes);
}

}  // namespace kbench::emu_tests
