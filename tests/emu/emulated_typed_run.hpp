#pragma once
// Runs a kernel source of any element type and layout under the CUDA emulation on a problem's seeded
// tensors and checks it against the fp64 reference from an error bound: the tensors are stored in the
// problem's dtype (values already rounded to it by the seeded generator) and layout
// (problem/memory_layout.hpp), the output read back to logical order and widened.
//
// The bound, per output: |got - ref| <= u_out (|ref| + a) + a + tiny, a = (K + 2) 2^-23 S with
// S = sum |x w| over the output's reduction (the reference on |x|, |w|, no bias), K the reduction
// length: fp32 accumulation of K exact products (fp16 and bf16 products are exact in fp32) plus the
// bias, generously; u_out the output dtype's unit roundoff (its one rounding); tiny, half of fp16's
// smallest subnormal. A wrong product or a wrong operand is an error of the order of S: it fails.
#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/types.hpp"
#include "cuda/common/element.hpp"
#include "data/host_tensors.hpp"
#include "problem/conv_pass.hpp"
#include "problem/conv_problem.hpp"
#include "problem/memory_layout.hpp"
#include "reference/reference_conv.hpp"

namespace kbench::emu_tests {

template <DType kType>
using Stored = gpu::conv::Storage<kType>;

// A logical tensor stored in the problem's dtype and layout.
template <DType kType>
std::vector<Stored<kType>> to_memory(const ConvProblem& p, Operand operand, const std::vector<float>& logical) {
  std::vector<Stored<kType>> out(logical.size());
  for (std::size_t i = 0; i < logical.size(); ++i)
    out[static_cast<std::size_t>(memory_offset(p, operand, static_cast<std::int64_t>(i)))] =
        gpu::conv::Element<kType>::narrow(logical[i]);
  return out;
}

// The kernel, given the stored x, w, bias (nullptr without) and y.
template <DType kType>
using TypedKernel =
    std::function<void(const Stored<kType>*, const Stored<kType>*, const Stored<kType>*, Stored<kType>*)>;

struct BoundCheck {
  std::int64_t checked = 0, failures = 0, first = -1;
  double got = 0, expected = 0, allowed = 0;
};

// The computed elements `got` (logical order) of p's pass against the reference on `t`, within the
// bound above (S from the reference on every operand's magnitudes; a backward_weights pass keeps its
// grad_bias, whose S is the sum of |grad_output|).
inline BoundCheck check_within_bound(const ConvProblem& p, const data::HostTensors& t, const std::vector<float>& got) {
  const std::vector<double> ref = reference::convolve(p, t);
  ConvProblem unbiased = p;
  unbiased.bias = p.pass == Pass::backward_weights && p.bias;
  data::HostTensors magnitudes{t.input, t.weight, {}, t.grad_output};
  for (std::vector<float>* operand : {&magnitudes.input, &magnitudes.weight, &magnitudes.grad_output})
    for (float& v : *operand) v = std::fabs(v);
  const std::vector<double> sums = reference::convolve(unbiased, magnitudes);
  REQUIRE(sums.size() == got.size());
  const double k = static_cast<double>(reduction_length(p));
  const double u_out = unit_roundoff(p.dtype);
  BoundCheck c;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double a = (k + 2) * 0x1p-23 * sums[i];
    const double allowed = u_out * (std::fabs(ref[i]) + a) + a + 0x1p-25;
    ++c.checked;
    if (!(std::fabs(static_cast<double>(got[i]) - ref[i]) <= allowed)) {
      if (c.failures++ == 0) {
        c.first = static_cast<std::int64_t>(i);
        c.got = got[i];
        c.expected = ref[i];
        c.allowed = allowed;
      }
    }
  }
  return c;
}

// What one run of a convolution's launches computed: its outputs against the bound above, and how
// many outputs the streaming stores did not write exactly once (when counted).
struct TypedRun {
  BoundCheck bound;
  std::size_t not_written_once = 0;
};

// Runs `launches` (the launches of one convolution, each an emu::launch) on the seeded tensors of `p`
// stored as its dtype and layout (kType must be p.dtype), with x, w and the bias registered as
// readable and y as writable (`launches` registers any buffer of its own); every output poisoned
// first, so one left unwritten fails. `counted_stores`: the launches write the output only by
// streaming stores, each element exactly once (counted). An EmulationError passes through.
template <DType kType>
TypedRun run_typed_sequence(const ConvProblem& p, std::uint64_t seed, const TypedKernel<kType>& launches,
                            bool counted_stores = false) {
  REQUIRE(p.dtype == kType);
  const data::HostTensors t = data::make_host_tensors(p, seed);
  const std::vector<Stored<kType>> x = to_memory<kType>(p, Operand::input, t.input);
  const std::vector<Stored<kType>> w = to_memory<kType>(p, Operand::weight, t.weight);
  const std::vector<Stored<kType>> b = to_memory<kType>(p, Operand::bias, t.bias);
  const auto poison = gpu::conv::Element<kType>::narrow(NAN);
  std::vector<Stored<kType>> y(static_cast<std::size_t>(p.output_elements()), poison);
  emu::clear_buffers();
  emu::allow_read(x.data(), x.size() * sizeof x[0]);
  emu::allow_read(w.data(), w.size() * sizeof w[0]);
  if (!b.empty()) emu::allow_read(b.data(), b.size() * sizeof b[0]);
  emu::allow_write(y.data(), y.size() * sizeof y[0]);
  launches(x.data(), w.data(), b.empty() ? nullptr : b.data(), y.data());
  std::vector<float> got(y.size());
  for (std::size_t i = 0; i < y.size(); ++i)
    got[i] = gpu::conv::Element<kType>::widen(
        y[static_cast<std::size_t>(memory_offset(p, Operand::output, static_cast<std::int64_t>(i)))]);
  TypedRun run{check_within_bound(p, t, got)};
  if (counted_stores) {
    const std::vector<std::uint8_t>& counts = emu::write_counts(y.data());
    for (std::size_t i = 0; i < y.size(); ++i) run.not_written_once += counts[i * sizeof y[0]] != 1 ? 1 : 0;
  }
  return run;
}

// run_typed_sequence, every output checked within the bound (and, counted, written exactly once).
template <DType kType>
void run_typed_sequence_and_compare(const ConvProblem& p, std::uint64_t seed, const TypedKernel<kType>& launches,
                                    bool counted_stores = false) {
  const TypedRun run = run_typed_sequence<kType>(p, seed, launches, counted_stores);
  const BoundCheck& c = run.bound;
  INFO(to_string(p.dtype) << " " << to_string(p.layout) << ": " << c.failures << " of " << c.checked
                          << " outside the bound, first at " << c.first << ": got " << c.got << ", expected "
                          << c.expected << " within " << c.allowed);
  CHECK(c.failures == 0);
  if (counted_stores)
    CHECK_MESSAGE(run.not_written_once == 0, run.not_written_once << " outputs not written exactly once");
}

// One launch of `kernel` over `grid` blocks of `threads`, with `shared` as the dynamic shared memory;
// otherwise as run_typed_sequence_and_compare.
template <DType kType>
void run_typed_and_compare(const ConvProblem& p, std::uint64_t seed, emu::Dim3 grid, unsigned threads,
                           const TypedKernel<kType>& kernel, unsigned char* shared = nullptr,
                           std::size_t shared_bytes = 0, bool counted_stores = false) {
  run_typed_sequence_and_compare<kType>(
      p, seed,
      [&](const Stored<kType>* x, const Stored<kType>* w, const Stored<kType>* b, Stored<kType>* y) {
        emu::launch(grid, emu::Dim3{threads}, shared, shared_bytes, [&] { kernel(x, w, b, y); });
      },
      counted_stores);
}

}  // namespace kbench::emu_tests
