// The cuDNN backend on fp16 and bf16 data (fp32 compute) and on channels-last tensors, against the fp64
// reference of the same dtype-rounded inputs: every kind of problem in both layouts and math modes,
// every algorithm cuDNN accepts, exhaustive search, the workspace limit, and what the results record.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "cudnn/cudnn_backend.hpp"
#include "cudnn_half_problems.hpp"
#include "problem_factory.hpp"
#include "reference/reference_conv.hpp"
#include "verify/compare.hpp"
#include "verify/tolerance.hpp"

using kbench::BackendOptions;
using kbench::ConvProblem;
using kbench::Dims;
using kbench::DType;
using kbench::Layout;
using kbench::MathMode;
using kbench::OpKind;
using kbench::gpu_tests::half_problems;
using kbench::gpu_tests::NamedProblem;

namespace {

ConvProblem as(ConvProblem p, DType dtype, Layout layout) {
  p.dtype = dtype;
  p.layout = layout;
  return p;
}

// kbench's own check, as `kbench run` makes it: the error bound of verify/error_bound.hpp for the math
// the run used and the output rounding it declares (the legacy path's cudnnAddTensor rounds a biased
// half output twice), with every element's S, Q and bias from the fp64 reference.
kbench::Comparison compare_with_bound(const kbench::PreparedRun& run, const ConvProblem& p, std::uint64_t seed,
                                      const std::vector<float>& got) {
  std::vector<std::int64_t> indices(static_cast<std::size_t>(p.output_elements()));
  std::iota(indices.begin(), indices.end(), 0);
  using kbench::reference::Terms;
  const std::vector<double> values = kbench::reference::convolve_at_seeded(p, seed, indices);
  const std::vector<double> sums = kbench::reference::convolve_at_seeded(p, seed, indices, Terms::magnitude);
  std::vector<double> roots = kbench::reference::convolve_at_seeded(p, seed, indices, Terms::square);
  for (double& r : roots) r = std::sqrt(r);
  const std::vector<double> biases = kbench::biases_at(p, seed, indices);
  const kbench::ErrorBound bound = kbench::error_bound_for(p, run.math_used(), run.output_rounding());
  const kbench::Comparison c = kbench::compare_outputs(got, kbench::ExpectedValues{values, sums, roots, biases}, bound);
  if (!c.passed())
    MESSAGE(run.implementation() << ": " << c.mismatches << " of " << c.checked << " outside " << bound.describe()
                                 << "; first at " << c.first_mismatch << ": got " << c.first_mismatch_got
                                 << ", expected " << c.first_mismatch_expected << " within "
                                 << c.first_mismatch_allowed);
  return c;
}

kbench::Comparison run_and_compare(kbench::Backend& backend, const ConvProblem& p, const BackendOptions& options,
                                   std::unique_ptr<kbench::PreparedRun>* keep = nullptr) {
  constexpr std::uint64_t seed = 4321;
  std::unique_ptr<kbench::PreparedRun> run = backend.prepare(p, options);
  run->fill_inputs(seed);
  run->poison_output();
  run->run();
  const std::vector<float> got = run->read_output({});
  CHECK(run->inputs_unchanged());
  const kbench::Comparison c = compare_with_bound(*run, p, seed, got);
  if (keep) *keep = std::move(run);
  return c;
}

std::string property(const kbench::PreparedRun& run, const std::string& key) {
  for (const auto& [k, v] : run.properties())
    if (k == key) return v;
  return {};
}

}  // namespace

TEST_CASE("cuDNN on fp16 and bf16 data in both layouts matches the reference, in both math modes") {
  const std::unique_ptr<kbench::Backend> backend = kbench::gpu::make_cudnn_backend();
  REQUIRE(backend->available().ok);
  for (const NamedProblem& np : half_problems())
    for (const DType dtype : {DType::fp16, DType::bf16})
      for (const Layout layout : {Layout::nchw, Layout::nhwc})
        for (const MathMode math : {MathMode::fp32, MathMode::tf32}) {
          const ConvProblem p = as(np.problem, dtype, layout);
          CAPTURE(np.name);
          CAPTURE(kbench::to_string(dtype));
          CAPTURE(kbench::to_string(layout));
          CAPTURE(kbench::to_string(math));
          BackendOptions options;
          options.math = math;
          // CHECK, not REQUIRE: one combination cuDNN refuses (with its reason) leaves the others tested.
          const kbench::Support supported = backend->supports(p, options);
          CHECK_MESSAGE(supported.ok, supported.reason);
          if (!supported) continue;
          REQUIRE(backend->fits(p, options).ok);
          std::unique_ptr<kbench::PreparedRun> run;
          CHECK(run_and_compare(*backend, p, options, &run).passed());
          CHECK(run->math_used() == MathMode::fp32);  // fp32 accumulation of exact products
          // The legacy path adds a forward bias with cudnnAddTensor, after the output was rounded once.
          const bool adds_after = property(*run, "cudnn_api") == "legacy" && kbench::adds_bias(p);
          CHECK(run->output_rounding() ==
                (adds_after ? kbench::OutputRounding::bias_added_after : kbench::OutputRounding::once));
          CHECK(property(*run, "data_type") == (dtype == DType::fp16 ? "CUDNN_DATA_HALF" : "CUDNN_DATA_BFLOAT16"));
          CHECK(property(*run, "compute_type") == "CUDNN_DATA_FLOAT");
          CHECK(property(*run, "layout").rfind(kbench::to_string(layout), 0) == 0);
          MESSAGE(np.name << " [" << kbench::to_string(dtype) << ", " << kbench::to_string(layout) << ", "
                          << kbench::to_string(math) << "]: " << run->implementation() << ", "
                          << property(*run, "math_type"));
        }
}

TEST_CASE("cuDNN on fp32 channels-last data matches the reference (the fp32 tolerance)") {
  const std::unique_ptr<kbench::Backend> backend = kbench::gpu::make_cudnn_backend();
  for (const NamedProblem& np : half_problems()) {
    CAPTURE(np.name);
    const ConvProblem p = as(np.problem, DType::fp32, Layout::nhwc);
    BackendOptions options;
    REQUIRE(backend->supports(p, options).ok);
    std::unique_ptr<kbench::PreparedRun> run = backend->prepare(p, options);
    run->fill_inputs(8);
    run->poison_output();
    run->run();
    std::vector<std::int64_t> indices(static_cast<std::size_t>(p.output_elements()));
    std::iota(indices.begin(), indices.end(), 0);
    CHECK(kbench::compare_outputs(run->read_output({}), kbench::reference::convolve_at_seeded(p, 8, indices),
                                  kbench::default_tolerance(MathMode::fp32))
              .passed());
    CHECK(property(*run, "math_type") == "CUDNN_FMA_MATH");
  }
}

TEST_CASE("every algorithm cuDNN accepts for fp16 NHWC computes the convolution (cudnn:all)") {
  const auto backend = kbench::gpu::make_cudnn_backend();
  for (const std::size_t which : {std::size_t{1}, std::size_t{5}}) {
    const ConvProblem p = as(half_problems()[which].problem, DType::fp16, Layout::nhwc);
    BackendOptions options;
    int ran = 0;
    for (const std::string& variant : backend->variants(p, options)) {
      CAPTURE(variant);
      options.variant = variant;
      const kbench::Support s = backend->supports(p, options);
      if (!s) {
        MESSAGE(variant << ": unsupported: " << s.reason);
        continue;
      }
      CHECK(run_and_compare(*backend, p, options).passed());
      ++ran;
    }
    CHECK(ran >= 1);
  }
}

TEST_CASE("exhaustive search and a zero workspace limit on bf16 NHWC") {
  const auto backend = kbench::gpu::make_cudnn_backend();
  for (const std::size_t which : {std::size_t{1}, std::size_t{6}}) {
    const ConvProblem p = as(half_problems()[which].problem, DType::bf16, Layout::nhwc);
    CAPTURE(half_problems()[which].name);
    BackendOptions options;
    options.algo_search = kbench::AlgoSearch::exhaustive;
    REQUIRE(backend->supports(p, options).ok);
    std::unique_ptr<kbench::PreparedRun> run;
    CHECK(run_and_compare(*backend, p, options, &run).passed());
    CHECK(property(*run, "algo_search") == "exhaustive");

    BackendOptions none;
    none.workspace_limit_bytes = 0;
    const kbench::Support s = backend->supports(p, none);
    if (s) {
      CHECK(run_and_compare(*backend, p, none, &run).passed());
      CHECK(property(*run, "workspace_bytes") == "0");
    } else {
      CHECK(s.reason.find("workspace") != std::string::npos);
    }
  }
}

TEST_CASE("graph replay of cuDNN on fp16 NHWC (backward data and a half bias add)") {
  const auto backend = kbench::gpu::make_cudnn_backend();
  const ConvProblem p = as(half_problems()[5].problem, DType::fp16, Layout::nhwc);
  std::unique_ptr<kbench::PreparedRun> run = backend->prepare(p, {});
  run->fill_inputs(5);
  for (const bool graph : {false, true}) {
    CAPTURE(graph);
    run->poison_output();
    CHECK(run->timed_run({true, graph}).seconds > 0);
    CHECK(compare_with_bound(*run, p, 5, run->read_output({})).passed());
  }
  CHECK(run->inputs_unchanged());
}
