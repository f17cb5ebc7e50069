// Stride-1 transposed convolutions run as the forward convolutions they equal
// (transposed/forward_equivalent.hpp), as the cuda backend's launch does it, under the CUDA emulation:
// the weights kernel (forward_weights_kernel.cuh) writes the forward weights from the transposed ones, then
// a forward kernel (the register depthwise kernel, the shared-memory direct kernel) runs on them,
// and every output is compared with the fp64 reference of the transposed problem itself.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "cuda/depthwise/depthwise2d_kernel.cuh"
#include "cuda/direct/direct_tiled_kernel.cuh"
#include "cuda/selection.hpp"
#include "cuda/transposed/forward_weights_kernel.cuh"
#include "emulated_run.hpp"
#include "problem_factory.hpp"
#include "test_seed.hpp"

// The tiled kernel's `extern __shared__` array, defined by test_emulated_direct_depthwise.cpp.
namespace kbench::gpu::conv::direct_tiled {
extern unsigned char smem[kMaxSmemBytes];
}

namespace kbench {
namespace {

namespace dw = gpu::conv::depthwise;
namespace dt = gpu::conv::direct_tiled;
using gpu::conv::Family;
using gpu_tests::pick;

// The forward weights as the device writes them: a small grid whose grid-stride loop turns several
// times, on NaN-poisoned memory (an element it skipped fails the comparison after it).
std::vector<float> emulated_forward_weights(const ConvProblem& forward, const std::vector<float>& transposed) {
  std::vector<float> out(static_cast<std::size_t>(forward.weight_elements()), std::nanf(""));
  emu::clear_buffers();
  emu::allow_read(transposed.data(), transposed.size() * sizeof(float));
  emu::allow_write(out.data(), out.size() * sizeof(float));
  constexpr unsigned kBlocks = 2, kThreads = 64;
  emu::launch(emu::Dim3{kBlocks}, emu::Dim3{kThreads}, nullptr, 0, [&] {
    gpu::conv::write_forward_weights(forward, transposed.data(), out.data(),
                                     static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x,
                                     static_cast<std::int64_t>(gridDim.x) * blockDim.x);
  });
  return out;
}

// Runs `p` (stride-1 transposed) as its forward equivalent on `family` (depthwise2d or direct_tiled,
// inside its envelope there) and checks every output against the transposed reference.
void check_as_forward(const ConvProblem& p, Family family, std::uint64_t seed) {
  const std::optional<ConvProblem> forward = gpu::conv::forward_equivalent(p);
  REQUIRE(forward.has_value());
  REQUIRE(gpu::conv::family_envelope(family, p, MathMode::fp32));
  const data::HostTensors t = data::make_host_tensors(p, seed);
  data::HostTensors tf = t;
  tf.weight = emulated_forward_weights(*forward, t.weight);
  if (family == Family::depthwise2d) {
    const dw::Params tiling = gpu::conv::depthwise_params(*forward, std::nullopt);
    emu_tests::launch_and_compare(
        p, t, tf, static_cast<unsigned>(tiling.blocks()), dw::kThreads,
        [&](const data::HostTensors& k, float* y) {
          dw::with_depthwise_instance(tiling, [&](auto kk, auto pad, auto mode) {
            dw::depthwise2d_kernel<decltype(kk)::value, decltype(pad)::value, decltype(mode)::value>(
                tiling, k.input.data(), k.weight.data(), k.bias.empty() ? nullptr : k.bias.data(), y);
          });
        },
        true);
    return;
  }
  REQUIRE(family == Family::direct_tiled);
  const dt::DirectTiledParams d = dt::make_params(*forward).desc;
  REQUIRE(d.smem_bytes() <= static_cast<std::int64_t>(sizeof dt::smem));
  CHECK(dt::instance_kernel(d) != dt::kTransposedInstance);  // a forward instance
  CHECK(dt::instance_kernel(d) != dt::kTransposedPairs);
  emu_tests::launch_and_compare(
      p, t, tf, static_cast<unsigned>(d.blocks()), dt::kThreads,
      [&](const data::HostTensors& k, float* y) {
        dt::with_tiled_instance(d, [&](auto kk) {
          dt::direct_tiled_kernel<decltype(kk)::value, DType::fp32>(d, k.input.data(), k.weight.data(),
                                                       k.bias.empty() ? nullptr : k.bias.data(), y);
        });
      },
      true, dt::smem, static_cast<std::size_t>(d.smem_bytes()));
}

ConvProblem transposed_depthwise(std::int64_t channels, std::int64_t h, std::int64_t w, std::int64_t k,
                                 std::int64_t pad_top, std::int64_t pad_left, bool bias) {
  return ConvProblem{.op = OpKind::conv_transpose, .spatial_rank = 2, .batch = 2, .in_channels = channels,
                     .out_channels = channels, .groups = channels, .input = Dims{{h, w, 1}}, .kernel = Dims{{k, k, 1}},
                     .pad_before = Dims{{pad_top, pad_left, 0}}, .pad_after = Dims{{pad_top, pad_left, 0}},
                     .bias = bias};
}

}  // namespace

TEST_CASE("stride-1 transposed depthwise convolutions on the register depthwise kernel, as forward") {
  // Forward padding (k - 1) - pad: centred for "same" (pad (k - 1) / 2), zero for a crop of k - 1.
  for (const std::int64_t k : {3, 5, 7}) {
    CAPTURE(k);
    const std::int64_t centred = (k - 1) / 2;
    check_as_forward(transposed_depthwise(3, 11, 36, k, centred, centred, true), Family::depthwise2d, 10 + k);
    check_as_forward(transposed_depthwise(2, 9, 20, k, k - 1, k - 1, false), Family::depthwise2d, 20 + k);
  }
}

TEST_CASE("stride-1 transposed convolutions on the shared-memory direct kernel's forward instances") {
  std::mt19937_64 rng(testing::test_seed(7711));
  gpu_tests::ShapeLimits limits = gpu_tests::small_shapes();
  limits.stride = 1;
  int checked = 0;
  for (int draws = 0; checked < 12 && draws < 400; ++draws) {
    const int rank = static_cast<int>(pick(rng, 1, 3));
    const ConvProblem p =
        gpu_tests::random_problem(rng, OpKind::conv_transpose, rank, pick(rng, 1, 2), pick(rng, 1, 2), limits);
    if (!gpu::conv::forward_equivalent(p) || !gpu::conv::family_envelope(Family::direct_tiled, p, MathMode::fp32))
      continue;
    CAPTURE(draws);
    check_as_forward(p, Family::direct_tiled, 300 + static_cast<std::uint64_t>(draws));
    ++checked;
  }
  CHECK(checked == 12);
  // A full 3x3 transposed depthwise layer (padding 0: forward padding 2 all round), the unrolled k3.
  check_as_forward(transposed_depthwise(4, 10, 30, 3, 0, 0, true), Family::direct_tiled, 41);
}

}  // namespace kbench
