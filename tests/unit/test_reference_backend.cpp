// The CPU reference driven through the Backend / PreparedRun interfaces, as the pipeline drives it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/error.hpp"
#include "data/host_tensors.hpp"
#include "problem/problem_validation.hpp"
#include "reference/host_memory.hpp"
#include "reference/reference_backend.hpp"
#include "reference/reference_conv.hpp"
#include "reference/round_once.hpp"

using kbench::ConvProblem;
using kbench::Dims;

namespace {

ConvProblem small_conv() {
  ConvProblem p;
  p.batch = 2;
  p.in_channels = 3;
  p.out_channels = 4;
  p.input = Dims{{9, 7, 1}};
  p.kernel = Dims{{3, 2, 1}};
  p.stride = Dims{{2, 1, 1}};
  p.pad_before = p.pad_after = Dims{{1, 1, 0}};
  p.bias = true;
  return p;
}

std::string property(const kbench::PreparedRun& run, const std::string& key) {
  for (const auto& [name, value] : run.properties())
    if (name == key) return value;
  return {};
}

}  // namespace

TEST_SUITE("reference") {
  TEST_CASE("backend: identity and support") {
    const auto backend = kbench::make_reference_backend();
    CHECK(backend->name() == "reference");
    CHECK(backend->runs_on_cpu());
    CHECK(backend->available());
    CHECK_FALSE(backend->description().empty());
    ConvProblem p = small_conv();
    kbench::BackendOptions options;
    CHECK(backend->supports(p, options));
    options.math = kbench::MathMode::tf32;
    CHECK(backend->supports(p, options));
    for (const kbench::DType dtype : {kbench::DType::fp16, kbench::DType::bf16})
      for (const kbench::Layout layout : {kbench::Layout::nchw, kbench::Layout::nhwc}) {
        p.dtype = dtype;
        p.layout = layout;
        CHECK(backend->supports(p, options));
      }
    p = small_conv();
    p.groups = 2;  // does not divide 3 input channels
    CHECK_FALSE(backend->supports(p, options));
    CHECK_THROWS_AS(backend->prepare(p, options), kbench::InputError);
  }

  TEST_CASE("backend: its plan is the one kernel a run names, or the reason it cannot run the problem") {
    const auto backend = kbench::make_reference_backend();
    kbench::BackendOptions options;
    const kbench::PlanDevice nowhere{"NVIDIA H100 SXM5 80GB", 9, 0, 132, false};
    const kbench::BackendPlan plan = backend->plan(small_conv(), options, nowhere);
    CHECK(plan.support);
    REQUIRE(plan.variants.size() == 1);
    CHECK(plan.variants[0].implementation == backend->prepare(small_conv(), options)->implementation());
    CHECK(plan.ruled_out.empty());
    ConvProblem p = small_conv();
    p.groups = 2;  // does not divide 3 input channels
    const kbench::BackendPlan refused = backend->plan(p, options, nowhere);
    CHECK_FALSE(refused.support);
    CHECK(refused.support.reason == backend->supports(p, options).reason);
    CHECK(refused.variants.empty());
  }

  TEST_CASE("backend: fp16 and bf16 in both layouts: the fp64 result of the rounded inputs, rounded once") {
    const auto backend = kbench::make_reference_backend();
    for (const kbench::DType dtype : {kbench::DType::fp16, kbench::DType::bf16}) {
      ConvProblem p = small_conv();
      p.dtype = dtype;
      const kbench::data::HostTensors inputs = kbench::data::make_host_tensors(p, 5);
      // The inputs hold the dtype's values (rounding them again changes nothing).
      for (const float x : inputs.input) REQUIRE(kbench::round_to_dtype(dtype, x) == x);
      for (const float w : inputs.weight) REQUIRE(kbench::round_to_dtype(dtype, w) == w);
      const std::vector<double> exact = kbench::reference::convolve(p, inputs);
      std::vector<float> first_layout;
      for (const kbench::Layout layout : {kbench::Layout::nchw, kbench::Layout::nhwc}) {
        CAPTURE(kbench::to_string(dtype));
        CAPTURE(kbench::to_string(layout));
        p.layout = layout;
        const auto run = backend->prepare(p, {});
        CHECK(property(*run, "accumulation") == "fp64");
        CHECK(property(*run, "output_rounding").find(kbench::to_string(dtype)) != std::string::npos);
        CHECK(property(*run, "storage").empty() == (layout == kbench::Layout::nchw));
        run->fill_inputs(5);
        run->poison_output();
        run->run();
        const std::vector<float> got = run->read_output({});
        REQUIRE(got.size() == exact.size());
        for (std::size_t i = 0; i < got.size(); ++i)
          REQUIRE(got[i] == kbench::reference::round_once_to_dtype(dtype, exact[i]));
        // Logical indices whatever the layout: the same values in the same order.
        if (first_layout.empty())
          first_layout = got;
        else
          CHECK(got == first_layout);
        const std::vector<std::int64_t> some{p.output_elements() - 1, 3};
        CHECK(run->read_output(some) == std::vector<float>{got.back(), got[3]});
      }
    }
  }

  TEST_CASE("round once: fp64 to fp16 and bf16 with one rounding, not two through fp32") {
    using kbench::DType;
    using kbench::reference::round_once_to_dtype;
    // Just above the tie between fp16's 1 and 1 + 2^-10: up. Through fp32 it is the tie, and ties go to the even 1.
    const double above_fp16_tie = 1.0 + 0x1p-11 + 0x1p-40;
    CHECK(kbench::round_to_dtype(DType::fp16, static_cast<float>(above_fp16_tie)) == 1.0f);  // the double rounding
    CHECK(round_once_to_dtype(DType::fp16, above_fp16_tie) == 1.0f + 0x1p-10f);
    CHECK(round_once_to_dtype(DType::fp16, -above_fp16_tie) == -(1.0f + 0x1p-10f));
    CHECK(round_once_to_dtype(DType::fp16, 1.0 + 0x1p-11 - 0x1p-40) == 1.0f);
    CHECK(round_once_to_dtype(DType::fp16, 1.0 + 0x1p-11) == 1.0f);                // an exact tie: even
    CHECK(round_once_to_dtype(DType::fp16, 1.0 + 3 * 0x1p-11) == 1.0f + 0x1p-9f);  // an exact tie: even, up
    const double above_bf16_tie = 1.0 + 0x1p-8 + 0x1p-45;
    CHECK(round_once_to_dtype(DType::bf16, above_bf16_tie) == 1.0f + 0x1p-7f);
    CHECK(round_once_to_dtype(DType::fp16, 65520.0) == std::numeric_limits<float>::infinity());  // past fp16's max
    CHECK(round_once_to_dtype(DType::fp16, 65519.99) == 65504.0f);
    CHECK(round_once_to_dtype(DType::fp16, 1e300) == std::numeric_limits<float>::infinity());
    CHECK(round_once_to_dtype(DType::bf16, -1e300) == -std::numeric_limits<float>::infinity());
    CHECK(round_once_to_dtype(DType::fp16, 0x1p-25 + 0x1p-60) == 0x1p-24f);  // subnormal: just over half a unit
    CHECK(round_once_to_dtype(DType::fp16, 0x1p-25) == 0.0f);
    CHECK(std::isnan(round_once_to_dtype(DType::bf16, std::nan(""))));
    CHECK(round_once_to_dtype(DType::fp32, above_fp16_tie) == static_cast<float>(above_fp16_tie));
    // Every value a float holds exactly rounds as round_to_dtype rounds it.
    for (const float x : {0.1f, -3.3f, 1e-6f, 7.0e4f, 0x1.ffep15f, 1.0f + 0x1p-11f})
      for (const DType dtype : {DType::fp16, DType::bf16})
        CHECK(round_once_to_dtype(dtype, x) == kbench::round_to_dtype(dtype, x));
  }

  TEST_CASE("backend: fits() weighs the problem against host memory") {
    const auto backend = kbench::make_reference_backend();
    CHECK(backend->fits(small_conv(), {}));
    if (!kbench::reference::available_host_memory()) return;  // not Linux: fits() cannot tell
    ConvProblem huge = small_conv();
    huge.batch = std::int64_t{1} << 40;  // petabytes
    const kbench::Support fits = backend->fits(huge, {});
    CHECK_FALSE(fits);
    CHECK(fits.reason.find(" of host memory (") != std::string::npos);
    CHECK(fits.reason.find(" available (") != std::string::npos);
  }

  TEST_CASE("backend: a prepared run fills, poisons, runs, reads back") {
    const auto backend = kbench::make_reference_backend();
    const ConvProblem p = small_conv();
    kbench::BackendOptions options;
    options.math = kbench::MathMode::tf32;
    const auto run = backend->prepare(p, options);
    CHECK(run->implementation() == "cpu_direct_fp64");
    CHECK(run->math_used() == kbench::MathMode::fp32);
    CHECK(property(*run, "accumulation") == "fp64");
    CHECK(property(*run, "math_note").find("tf32") != std::string::npos);

    CHECK_THROWS_AS(run->run(), std::logic_error);  // no inputs yet
    run->fill_inputs(5);
    run->poison_output();
    const std::vector<float> poisoned = run->read_output({});
    CHECK(poisoned.size() == static_cast<std::size_t>(p.output_elements()));
    CHECK(std::all_of(poisoned.begin(), poisoned.end(), [](float x) { return std::isnan(x); }));

    run->run();
    const std::vector<double> expected = kbench::reference::convolve(p, kbench::data::make_host_tensors(p, 5));
    const std::vector<float> all = run->read_output({});
    REQUIRE(all.size() == expected.size());
    for (std::size_t i = 0; i < all.size(); ++i) CHECK(all[i] == static_cast<float>(expected[i]));
    const std::vector<std::int64_t> some{7, 0, p.output_elements() - 1};
    CHECK(run->read_output(some) == std::vector<float>{all[7], all[0], all.back()});
    const std::vector<std::int64_t> outside{p.output_elements()};
    CHECK_THROWS_AS(run->read_output(outside), std::out_of_range);
    CHECK(run->inputs_unchanged());

    const kbench::Sample sample = run->timed_run({});
    CHECK(sample.seconds > 0);
    CHECK_FALSE(sample.throttled);
    CHECK(run->read_output({}) == all);

    run->fill_inputs(6);  // new seed, new inputs, new output
    run->run();
    CHECK(run->read_output({}) != all);
    CHECK(run->inputs_unchanged());
  }

  TEST_CASE("validate_problem: the reference refuses a broken problem with the field to blame") {
    const auto backend = kbench::make_reference_backend();
    const auto refusal = [&](const ConvProblem& q) {
      const kbench::Support s = backend->supports(q, kbench::BackendOptions{});
      CHECK(s.reason == kbench::validate_problem(q).reason);
      return s.reason;
    };
    ConvProblem p = small_conv();
    CHECK(kbench::validate_problem(p));
    p.spatial_rank = 4;
    CHECK(refusal(p) == "spatial_rank: 4 spatial dims; expected 1 to 3");
    p = small_conv();
    p.out_channels = 5;
    p.in_channels = 4;
    p.groups = 2;
    CHECK(refusal(p) ==
          "groups: out_channels must be divisible by groups, got out_channels 5 and groups 2; expected groups to "
          "divide both in_channels and out_channels");
    p = small_conv();
    p.dilation = Dims{{1, 0, 1}};
    CHECK(refusal(p) == "dilation[1]: got 0; expected an integer from 1 to 2147483647 (2^31-1)");
    p = small_conv();
    p.pad_after = Dims{{1, -1, 0}};
    CHECK(refusal(p) == "padding[1]: negative padding -1 is not supported; expected an integer >= 0");
    p = small_conv();
    p.kernel = Dims{{12, 2, 1}};
    CHECK(refusal(p).find("kernel[0]: kernel size can't be greater than actual input size") == 0);
    p = small_conv();
    p.output_padding = Dims{{1, 0, 0}};  // a rule the reference did not check before there was one validator
    CHECK(refusal(p).find("output_padding[0]: output_padding 1 given for a conv") == 0);
    CHECK_THROWS_WITH_AS(kbench::reference::convolve_at_seeded(p, 1, {}),
                         doctest::Contains("the CPU reference cannot compute this convolution: output_padding[0]"),
                         kbench::InputError);
  }

  TEST_CASE("host memory: MemAvailable parsed from /proc/meminfo text") {
    using kbench::reference::parse_mem_available;
    CHECK(parse_mem_available("MemTotal:       24576000 kB\nMemFree:  100 kB\nMemAvailable:   2048 kB\n") ==
          std::int64_t{2048} * 1024);
    CHECK(parse_mem_available("MemAvailable: 1 kB") == 1024);
    CHECK_FALSE(parse_mem_available("MemTotal: 5 kB\n").has_value());
    CHECK_FALSE(parse_mem_available("MemAvailable: lots\n").has_value());
    CHECK_FALSE(parse_mem_available("MemAvailable: 12 MB\n").has_value());
    CHECK_FALSE(parse_mem_available("XMemAvailable: 12 kB\n").has_value());
    const auto here = kbench::reference::available_host_memory();
    if (here) CHECK(*here > 0);
  }
}
