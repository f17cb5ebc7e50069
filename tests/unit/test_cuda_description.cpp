// What a cuda kernel choice runs, named and described from its descriptors alone
// (selection.hpp), and what each choice needs of the device's architecture
// (registry.hpp): the answers `kbench plan` gives without a GPU, and the names a result
// carries after a run.
#include <doctest/doctest.h>

#include <random>
#include <string>

#include "cuda/registry.hpp"
#include "cuda/selection.hpp"
#include "headline_problems.hpp"
#include "test_cuda_index_support.hpp"
#include "test_seed.hpp"

namespace kbench {
namespace {

using gpu::conv::Family;
using gpu::conv::KernelChoice;
using gpu::conv::KernelDescription;
using gpu::conv::LaunchDevice;

constexpr LaunchDevice kH100{132, 0};

std::string property(const KernelDescription& d, const std::string& key) {
  for (const auto& [k, v] : d.properties)
    if (k == key) return v;
  FAIL("no property '" << key << "' in " << d.implementation);
  return {};
}

KernelDescription describe_default(const ConvProblem& p, MathMode math, LaunchDevice device = kH100) {
  return gpu::conv::describe_kernel(KernelChoice{gpu::conv::default_family(p, math)}, p, device);
}

bool ends_with(const std::string& text, const std::string& tail) { return text.ends_with(tail); }

}  // namespace

TEST_SUITE("cuda_index") {
  TEST_CASE("the seeds' default kernels, named and described as a result would name them") {
    // 84: one block per (plane, strip of 32 rows, segment of 512 columns): 8192 planes x 8 x 1.
    const KernelDescription d84 = describe_default(testing::headline84(), MathMode::fp32);
    CHECK(d84.implementation == "depthwise2d/k3");
    CHECK(property(d84, "blocks") == std::to_string(std::int64_t{64} * 128 * 8));
    CHECK(property(d84, "store_width_floats") == "2");  // rows of 510 floats: 2 mod 4

    // 50: the input-patch GEMM, M 96 x N 256*55*55 x K 3*121.
    const KernelDescription d50 = describe_default(testing::headline50(), MathMode::tf32);
    CHECK(d50.implementation == "implicit_gemm_tf32/input_patch/96x256");
    CHECK(property(d50, "gemm") == "M 96 x N 774400 x K 363 (121 taps), 1 group(s)");
    CHECK(property(d50, "tensor_instruction") == "mma.sync m16n8k8");
    CHECK(describe_default(testing::headline50(), MathMode::fp32).implementation ==
          "implicit_gemm_3xtf32/input_patch/96x256");

    // 76: A resident in shared memory, one persistent block per SM for its single row tile.
    const KernelDescription d76 = describe_default(testing::headline76(), MathMode::fp32);
    CHECK(d76.implementation == "implicit_gemm_3xtf32/channel_blocks/128x256/resident_a");
    CHECK(property(d76, "gemm") == "M 128 x N 11184512 x K 192 (3 taps), 1 group(s)");
    CHECK(property(d76, "a_schedule").starts_with("resident_a: 132 persistent block(s) per row tile"));
    // Without the device's SM count the grid is described, not counted.
    const KernelDescription d76_unknown = describe_default(testing::headline76(), MathMode::fp32, LaunchDevice{});
    CHECK(d76_unknown.implementation == d76.implementation);
    CHECK(property(d76_unknown, "a_schedule").find("counted on the device") != std::string::npos);

    // 77: one phase GEMM over the odd coordinates, 16 x 64 x 16^3 of the 16 x 64 x 33 x 65 x 65 outputs.
    const KernelDescription d77 = describe_default(testing::headline77(), MathMode::tf32);
    CHECK(d77.implementation == "transposed_phase_tf32/channel_blocks/64x128");
    CHECK(property(d77, "phase_gemms") == "1");
    CHECK(property(d77, "computed_outputs") == "16777216 of 142771200 (11.8%)");
    CHECK(property(d77, "zero_fill").starts_with("the untapped outputs of 33792 planes"));
    CHECK(property(d77, "launches") == "2");
  }

  TEST_CASE("problem 84 channels last: the depthwise NHWC kernel, its tile, vectors, shared memory and blocks") {
    ConvProblem p = testing::headline84();
    p.layout = Layout::nhwc;
    for (const DType dtype : {DType::fp16, DType::bf16}) {
      p.dtype = dtype;
      const KernelDescription d = describe_default(p, MathMode::fp32);
      CHECK(d.implementation == "depthwise_nhwc/4x32x64");
      CHECK(property(d, "vector_width") == std::string("8 ") + std::string(to_string(dtype)) + " elements (16 bytes)");
      CHECK(property(d, "shared_memory_bytes") == "2304");  // 64 channels x 9 taps x 4 bytes
      CHECK(property(d, "blocks") == std::to_string(std::int64_t{2} * 16 * 64 * 64));
      CHECK(property(d, "accumulation") == "fp32");
    }
    p.dtype = DType::fp32;
    const KernelDescription d = describe_default(p, MathMode::tf32);
    CHECK(d.implementation == "depthwise_nhwc/4x32x32");
    CHECK(property(d, "tile") == "4 output rows x 32 columns x 32 channels of one (image, depth) plane, 256 threads");
    CHECK(property(d, "blocks") == std::to_string(std::int64_t{4} * 16 * 64 * 64));
  }

  TEST_CASE("a transposed convolution whose taps all land has no zero fill, one whose taps all miss is bias only") {
    ConvProblem every;  // stride 1: every output on the one phase
    every.op = OpKind::conv_transpose;
    every.spatial_rank = 2;
    every.batch = 2;
    every.in_channels = 8;
    every.out_channels = 16;
    every.input = Dims{{12, 12, 1}};
    every.kernel = Dims{{3, 3, 1}};
    REQUIRE(validate_problem(every));
    // (By default it runs as the forward convolution it equals: test_cuda_as_forward.cpp.)
    const KernelDescription d = gpu::conv::describe_kernel(KernelChoice{Family::transposed_phase_3xtf32}, every, kH100);
    CHECK(d.implementation.starts_with("transposed_phase_3xtf32/"));
    CHECK(property(d, "zero_fill") == "none (every output lies on a tapped phase)");

    ConvProblem none;  // 1-tap kernel at stride 4 from 2 inputs, cropped by 1: outputs 0..2, taps land at -1 and 3
    none.op = OpKind::conv_transpose;
    none.spatial_rank = 1;
    none.in_channels = none.out_channels = 8;
    none.input = Dims{{2, 1, 1}};
    none.kernel = Dims{{1, 1, 1}};
    none.stride = Dims{{4, 1, 1}};
    none.pad_before = none.pad_after = Dims{{1, 0, 0}};
    none.bias = true;
    REQUIRE(validate_problem(none));
    const KernelChoice phase{Family::transposed_phase_ffma};
    REQUIRE(gpu::conv::choice_envelope(phase, none, MathMode::fp32));
    const KernelDescription bias = gpu::conv::describe_kernel(phase, none, kH100);
    CHECK(bias.implementation == "transposed_phase_ffma/bias_only");
    CHECK(property(bias, "launches") == "1");
  }

  TEST_CASE("every variant of random problems is described, its name saying what the variant chose") {
    std::mt19937_64 rng(kbench::testing::test_seed(31));
    int wgmma = 0, no_fill = 0, split = 0;
    for (int trial = 0; trial < 200; ++trial) {
      const ConvProblem p = test::random_problem(rng, trial % 2 == 0 ? OpKind::conv : OpKind::conv_transpose);
      for (const MathMode math : {MathMode::fp32, MathMode::tf32})
        for (const KernelChoice& c : gpu::conv::applicable_variants(p, math)) {
          const KernelDescription d = gpu::conv::describe_kernel(c, p, kH100);
          CAPTURE(gpu::conv::variant_name(c));
          CAPTURE(d.implementation);
          const std::string family(gpu::conv::family_name(c.family));
          // A stride-1 transposed problem on a forward kernel: that kernel's name, then "/as_forward".
          const std::string kernel = d.implementation.ends_with("/as_forward")
                                         ? d.implementation.substr(0, d.implementation.size() - 11)
                                         : d.implementation;
          CHECK((d.implementation == family || d.implementation.starts_with(family + "/")));
          CHECK_FALSE(d.properties.empty());
          CHECK(property(d, "launches") != "");
          if (c.order) CHECK(d.implementation.find(gpu::conv::igemm::order_name(*c.order)) != std::string::npos);
          if (c.mma == gpu::conv::igemm::MmaKind::wgmma) {
            CHECK(ends_with(kernel, "/wgmma"));
            ++wgmma;
          }
          if (c.stores && gpu::conv::depthwise::is_bulk(*c.stores))
            CHECK(ends_with(kernel, gpu::conv::depthwise::store_mode_name(*c.stores)));
          if (c.fill == gpu::conv::FillBlocks::none) {
            CHECK(d.implementation.find("/no_fill_blocks") != std::string::npos);
            ++no_fill;
          }
          if (c.split == gpu::conv::igemm::SplitK::none) CHECK_FALSE(ends_with(kernel, "/split_k"));
          if (ends_with(kernel, "/split_k")) ++split;
        }
    }
    // The draws reach the variants whose names the checks above read (bulk copies need depthwise 2-D
    // problems with rows of a multiple of 4 floats, which these draws rarely make: the next test).
    CHECK(wgmma > 0);
    CHECK(no_fill > 0);
    CHECK(split > 0);  // on 132 SMs (no_split_k needs longer reductions: test_cuda_index_igemm_split.cpp)
  }

  TEST_CASE("depthwise2d bulk copies: a block per strip, or as many persistent blocks as stay resident") {
    const ConvProblem p = testing::headline84();
    const KernelChoice copies{.family = Family::depthwise2d, .stores = gpu::conv::depthwise::StoreMode::bulk};
    const KernelChoice pipelined{.family = Family::depthwise2d,
                                 .stores = gpu::conv::depthwise::StoreMode::bulk_pipelined};
    REQUIRE(gpu::conv::choice_envelope(copies, p, MathMode::fp32));
    REQUIRE(gpu::conv::choice_envelope(pipelined, p, MathMode::fp32));
    const KernelDescription one = gpu::conv::describe_kernel(copies, p, kH100);
    CHECK(one.implementation == "depthwise2d/k3/bulk_copies");
    CHECK(property(one, "blocks") == property(one, "strips"));
    const KernelDescription two = gpu::conv::describe_kernel(pipelined, p, LaunchDevice{132, 264});
    CHECK(two.implementation == "depthwise2d/k3/bulk_pipelined");
    CHECK(property(two, "blocks") == "264");
    CHECK(property(gpu::conv::describe_kernel(pipelined, p, LaunchDevice{}), "blocks").find("counted on the device") !=
          std::string::npos);
  }

  TEST_CASE("what a choice needs of the device's architecture") {
    const KernelChoice wgmma{.family = Family::implicit_gemm_tf32, .mma = gpu::conv::igemm::MmaKind::wgmma};
    const KernelChoice bulk{.family = Family::depthwise2d, .stores = gpu::conv::depthwise::StoreMode::bulk};
    const KernelChoice plain{Family::implicit_gemm_tf32};
    using gpu::conv::choice_runs_on_capability;
    CHECK(choice_runs_on_capability(wgmma, 9, 0, "H100"));
    CHECK_FALSE(choice_runs_on_capability(wgmma, 8, 0, "A100"));
    CHECK_FALSE(choice_runs_on_capability(wgmma, 10, 0, "B200"));  // sm_90a images load on 9.0 only
    CHECK(choice_runs_on_capability(bulk, 9, 0, "H100"));
    CHECK(choice_runs_on_capability(bulk, 10, 0, "B200"));
    const Support a100 = choice_runs_on_capability(bulk, 8, 0, "NVIDIA A100 40GB");
    CHECK_FALSE(a100);
    CHECK(a100.reason == "bulk copies (cp.async.bulk) needs compute capability 9.0 or later; NVIDIA A100 40GB is 8.0");
    CHECK(choice_runs_on_capability(plain, 8, 0, "A100"));
    CHECK(choice_runs_on_capability(plain, 7, 5, "T4"));
  }

}  // TEST_SUITE

}  // namespace kbench
