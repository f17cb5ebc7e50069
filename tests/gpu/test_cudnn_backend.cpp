// The cuDNN backend against kbench's fp64 CPU reference, on small problems of every kind it
// accepts, in both math modes: the output must pass the mode's default tolerance, every poisoned
// element must be overwritten, and the inputs must be left as they were.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "problem_factory.hpp"
#include "cudnn/cudnn_algorithms.hpp"
#include "cudnn/cudnn_backend.hpp"
#include "cudnn/cudnn_pass.hpp"
#include "cudnn/cudnn_prepared_run.hpp"
#include "cudnn/graph/graph_api.hpp"
#include "cudnn/graph/graph_variant.hpp"
#include "problem/conv_pass.hpp"
#include "reference/reference_conv.hpp"
#include "verify/compare.hpp"
#include "verify/tolerance.hpp"

using kbench::BackendOptions;
using kbench::ConvProblem;
using kbench::Dims;
using kbench::MathMode;
using kbench::OpKind;

namespace {

struct NamedProblem {
  const char* name;
  ConvProblem problem;
};

std::vector<NamedProblem> problems() {
  using D = Dims;
  const OpKind conv = OpKind::conv;
  const OpKind tconv = OpKind::conv_transpose;
  return {
      {"conv1d, stride 3, dilation 4 (problem 76 in miniature)",
       ConvProblem{.op = conv, .spatial_rank = 1, .batch = 2, .in_channels = 3, .out_channels = 5,
                   .input = D{{50, 1, 1}}, .kernel = D{{3, 1, 1}}, .stride = D{{3, 1, 1}}, .dilation = D{{4, 1, 1}}}},
      {"conv1d, asymmetric padding cuDNN can express exactly",
       ConvProblem{.op = conv, .spatial_rank = 1, .batch = 1, .in_channels = 2, .out_channels = 3,
                   .input = D{{10, 1, 1}}, .kernel = D{{3, 1, 1}}, .stride = D{{2, 1, 1}}, .pad_before = D{{1, 0, 0}},
                   .bias = true}},
      {"conv2d, grouped, strided, dilated, padded, bias",
       ConvProblem{.op = conv, .spatial_rank = 2, .batch = 2, .in_channels = 4, .out_channels = 6, .groups = 2,
                   .input = D{{9, 7, 1}}, .kernel = D{{3, 2, 1}}, .stride = D{{2, 1, 1}}, .dilation = D{{1, 2, 1}},
                   .pad_before = D{{1, 0, 0}}, .pad_after = D{{1, 0, 0}}, .bias = true}},
      {"conv2d, 11x11 stride 4 padding 2 (problem 50 in miniature)",
       ConvProblem{.op = conv, .spatial_rank = 2, .batch = 1, .in_channels = 3, .out_channels = 8,
                   .input = D{{31, 29, 1}}, .kernel = D{{11, 11, 1}}, .stride = D{{4, 4, 1}},
                   .pad_before = D{{2, 2, 0}}, .pad_after = D{{2, 2, 0}}, .bias = true}},
      {"conv2d, depthwise 3x3 (problem 84 in miniature)",
       ConvProblem{.op = conv, .spatial_rank = 2, .batch = 2, .in_channels = 8, .out_channels = 8, .groups = 8,
                   .input = D{{12, 14, 1}}, .kernel = D{{3, 3, 1}}}},
      {"conv3d, padded, uneven strides, bias",
       ConvProblem{.op = conv, .spatial_rank = 3, .batch = 1, .in_channels = 2, .out_channels = 4,
                   .input = D{{5, 6, 7}}, .kernel = D{{3, 3, 3}}, .stride = D{{1, 2, 1}}, .pad_before = D{{1, 1, 1}},
                   .pad_after = D{{1, 1, 1}}, .bias = true}},
      {"conv_transpose1d, asymmetric padding expressible as backward data",
       ConvProblem{.op = tconv, .spatial_rank = 1, .batch = 2, .in_channels = 3, .out_channels = 4,
                   .input = D{{9, 1, 1}}, .kernel = D{{3, 1, 1}}, .stride = D{{2, 1, 1}}, .pad_before = D{{2, 0, 0}},
                   .pad_after = D{{1, 0, 0}}, .bias = true}},
      {"conv_transpose2d, grouped, output_padding, bias",
       ConvProblem{.op = tconv, .spatial_rank = 2, .batch = 2, .in_channels = 4, .out_channels = 6, .groups = 2,
                   .input = D{{5, 6, 1}}, .kernel = D{{3, 3, 1}}, .stride = D{{2, 2, 1}}, .pad_before = D{{1, 1, 0}},
                   .pad_after = D{{1, 1, 0}}, .output_padding = D{{1, 0, 0}}, .bias = true}},
      {"conv_transpose3d, stride 2, padding 1, dilation 2 (problem 77 in miniature)",
       ConvProblem{.op = tconv, .spatial_rank = 3, .batch = 1, .in_channels = 4, .out_channels = 2,
                   .input = D{{4, 4, 4}}, .kernel = D{{3, 3, 3}}, .stride = D{{2, 2, 2}}, .dilation = D{{2, 2, 2}},
                   .pad_before = D{{1, 1, 1}}, .pad_after = D{{1, 1, 1}}}},
  };
}

// Every element of the pass's computed tensor (grad_weight then grad_bias for backward_weights).
std::vector<std::int64_t> all_indices(const ConvProblem& p) {
  std::vector<std::int64_t> indices(static_cast<std::size_t>(kbench::computed_elements(p)));
  std::iota(indices.begin(), indices.end(), 0);
  return indices;
}

// Prepare, fill, poison, run, and compare the whole output with the reference.
kbench::Comparison run_and_compare(kbench::Backend& backend, const ConvProblem& p, const BackendOptions& options,
                                   const kbench::Tolerance& tolerance,
                                   std::unique_ptr<kbench::PreparedRun>* keep = nullptr) {
  constexpr std::uint64_t seed = 1234;
  std::unique_ptr<kbench::PreparedRun> run = backend.prepare(p, options);
  run->fill_inputs(seed);
  run->poison_output();
  run->run();
  const std::vector<float> got = run->read_output({});
  const std::vector<double> expected = kbench::reference::convolve_at_seeded(p, seed, all_indices(p));
  CHECK(run->inputs_unchanged());
  const kbench::Comparison c = kbench::compare_outputs(got, expected, tolerance);
  if (!c.passed())
    MESSAGE(run->implementation() << ": " << c.mismatches << " of " << c.checked << " mismatch; first at "
                                  << c.first_mismatch << ": got " << c.first_mismatch_got << ", expected "
                                  << c.first_mismatch_expected << "; max rel error " << c.max_rel_error);
  if (keep) *keep = std::move(run);
  return c;
}

// The legacy algorithms among a variant list (the graph API's "graph" and "engine/..." follow them).
std::vector<std::string> legacy_only(const std::vector<std::string>& variants) {
  std::vector<std::string> legacy;
  for (const std::string& v : variants)
    if (!kbench::gpu::is_graph_variant(v)) legacy.push_back(v);
  return legacy;
}

std::string property(const kbench::PreparedRun& run, const std::string& key) {
  for (const auto& [k, v] : run.properties())
    if (k == key) return v;
  return {};
}

}  // namespace

TEST_CASE("cuDNN matches the reference on every kind of problem, in both math modes") {
  const std::unique_ptr<kbench::Backend> backend = kbench::gpu::make_cudnn_backend();
  REQUIRE(backend->available().ok);
  for (const NamedProblem& np : problems()) {
    for (const MathMode math : {MathMode::fp32, MathMode::tf32}) {
      CAPTURE(np.name);
      CAPTURE(kbench::to_string(math));
      BackendOptions options;
      options.math = math;
      const kbench::Support supported = backend->supports(np.problem, options);
      INFO(supported.reason);
      REQUIRE(supported.ok);
      REQUIRE(backend->fits(np.problem, options).ok);
      std::unique_ptr<kbench::PreparedRun> run;
      const kbench::Comparison c =
          run_and_compare(*backend, np.problem, options, kbench::default_tolerance(math), &run);
      CHECK(c.passed());
      CHECK(run->implementation().rfind("cudnn:", 0) == 0);
      if (math == MathMode::fp32) {
        CHECK(run->math_used() == MathMode::fp32);
        CHECK(property(*run, "math_type") == "CUDNN_FMA_MATH");
      }
      CHECK(property(*run, "cudnn_call") ==
            (np.problem.transposed() ? "cudnnConvolutionBackwardData" : "cudnnConvolutionForward"));
      if (np.problem.bias) CHECK(property(*run, "bias") == "separate cudnnAddTensor, timed");
      MESSAGE(np.name << " [" << kbench::to_string(math) << "]: " << run->implementation() << ", "
                      << property(*run, "math_type") << ", max rel error " << c.max_rel_error);
    }
  }
}

TEST_CASE("cuDNN computes both backward passes of every kind of problem as the reference does") {
  const std::unique_ptr<kbench::Backend> backend = kbench::gpu::make_cudnn_backend();
  REQUIRE(backend->available().ok);
  for (const NamedProblem& np : problems()) {
    for (const kbench::Pass pass : {kbench::Pass::backward_data, kbench::Pass::backward_weights}) {
      ConvProblem p = np.problem;
      p.pass = pass;
      CAPTURE(np.name);
      CAPTURE(kbench::to_string(pass));
      BackendOptions options;
      options.math = MathMode::fp32;
      const kbench::Support supported = backend->supports(p, options);
      INFO(supported.reason);
      REQUIRE(supported.ok);
      REQUIRE(backend->fits(p, options).ok);
      std::unique_ptr<kbench::PreparedRun> run;
      const kbench::Comparison c = run_and_compare(*backend, p, options, kbench::default_tolerance(MathMode::fp32), &run);
      CHECK(c.passed());
      CHECK(property(*run, "cudnn_call") == kbench::gpu::api_function(kbench::gpu::cudnn_call(p).api));
      CHECK(property(*run, "math_type") == "CUDNN_FMA_MATH");
      if (p.bias && pass == kbench::Pass::backward_weights)
        CHECK(property(*run, "grad_bias") == "separate cudnnConvolutionBackwardBias, timed");
      CHECK(property(*run, "bias").empty());
      MESSAGE(np.name << " [" << kbench::to_string(pass) << "]: " << run->implementation() << ", max rel error "
                      << c.max_rel_error);
    }
  }
}

TEST_CASE("backward passes: forced, exhaustive and every listed backward-filter algorithm compute the gradient") {
  const auto backend = kbench::gpu::make_cudnn_backend();
  ConvProblem weights = problems()[2].problem;  // grouped, strided, dilated, bias
  weights.pass = kbench::Pass::backward_weights;
  BackendOptions options;
  options.variant = "ALGO_1";
  REQUIRE(backend->supports(weights, options).ok);
  std::unique_ptr<kbench::PreparedRun> run;
  CHECK(run_and_compare(*backend, weights, options, kbench::default_tolerance(MathMode::fp32), &run).passed());
  CHECK(run->implementation() == "cudnn:ALGO_1");
  options.variant = "IMPLICIT_GEMM";  // a forward algorithm: not the call's
  CHECK(backend->supports(weights, options).reason.find("unknown cuDNN backward-filter algorithm") !=
        std::string::npos);

  options.variant.clear();
  options.algo_search = kbench::AlgoSearch::exhaustive;
  CHECK(run_and_compare(*backend, weights, options, kbench::default_tolerance(MathMode::fp32), &run).passed());
  CHECK(property(*run, "algo_search") == "exhaustive");

  // A conv_transpose's backward data is cuDNN's forward: every forward algorithm it accepts.
  ConvProblem data = problems()[7].problem;
  data.pass = kbench::Pass::backward_data;
  options = BackendOptions{};
  CHECK(legacy_only(backend->variants(data, options)) == kbench::gpu::forward_algorithm_names());
  for (ConvProblem* p : {&weights, &data}) {
    int ran = 0;
    for (const std::string& variant : backend->variants(*p, options)) {
      CAPTURE(variant);
      options.variant = variant;
      if (!backend->supports(*p, options)) continue;
      CHECK(run_and_compare(*backend, *p, options, kbench::default_tolerance(MathMode::tf32)).passed());
      ++ran;
    }
    options.variant.clear();
    CHECK(ran >= 1);
  }
}

TEST_CASE("a forced algorithm runs as named; an unknown one is refused") {
  const auto backend = kbench::gpu::make_cudnn_backend();
  const ConvProblem conv = problems()[2].problem;
  BackendOptions options;
  options.variant = "IMPLICIT_GEMM";
  REQUIRE(backend->supports(conv, options).ok);
  std::unique_ptr<kbench::PreparedRun> run;
  CHECK(run_and_compare(*backend, conv, options, kbench::default_tolerance(MathMode::fp32), &run).passed());
  CHECK(run->implementation() == "cudnn:IMPLICIT_GEMM");
  CHECK(property(*run, "algo_search") == "forced");

  const ConvProblem transposed = problems()[7].problem;
  options.variant = "ALGO_1";
  REQUIRE(backend->supports(transposed, options).ok);
  CHECK(run_and_compare(*backend, transposed, options, kbench::default_tolerance(MathMode::fp32), &run).passed());
  CHECK(run->implementation() == "cudnn:ALGO_1");

  options.variant = "NO_SUCH_ALGO";
  const kbench::Support s = backend->supports(conv, options);
  CHECK_FALSE(s.ok);
  CHECK(s.reason.find("unknown cuDNN forward algorithm 'NO_SUCH_ALGO'") != std::string::npos);
}

TEST_CASE("the plan names what a prepared run runs, and lists only algorithms cuDNN accepts") {
  const auto backend = kbench::gpu::make_cudnn_backend();
  REQUIRE(backend->available().ok);
  const kbench::PlanDevice device{"this device", 9, 0, 132, true};
  for (const auto& np : problems())
    for (const MathMode math : {MathMode::fp32, MathMode::tf32}) {
      INFO(np.name << " [" << kbench::to_string(math) << "]");
      BackendOptions options;
      options.math = math;
      const kbench::BackendPlan plan = backend->plan(np.problem, options, device);
      REQUIRE_MESSAGE(plan.support.ok, plan.support.reason);
      REQUIRE_FALSE(plan.variants.empty());
      CHECK(plan.variants.front().implementation == backend->prepare(np.problem, options)->implementation());
      // Every other algorithm it lists prepares and runs as named, forced.
      for (std::size_t i = 1; i < plan.variants.size(); ++i) {
        options.variant = plan.variants[i].variant;
        CHECK_MESSAGE(backend->supports(np.problem, options).ok, plan.variants[i].variant);
      }
      CHECK(plan.variants.size() + plan.ruled_out.size() == backend->variants(np.problem, options).size());
    }
}

TEST_CASE("every algorithm cuDNN accepts computes the convolution (cudnn:all)") {
  // FFT and Winograd variants round differently from a direct sum, so this sweep checks at the
  // TF32 tolerance (1e-2): loose for rounding, still far too tight for a wrong index.
  const auto backend = kbench::gpu::make_cudnn_backend();
  for (const std::size_t which : {std::size_t{3}, std::size_t{7}}) {
    const ConvProblem p = problems()[which].problem;
    BackendOptions options;
    int ran = 0;
    for (const std::string& variant : backend->variants(p, options)) {
      CAPTURE(variant);
      options.variant = variant;
      const kbench::Support s = backend->supports(p, options);
      if (!s) {
        MESSAGE(variant << ": unsupported: " << s.reason);
        CHECK_FALSE(s.reason.empty());
        continue;
      }
      CHECK(run_and_compare(*backend, p, options, kbench::default_tolerance(MathMode::tf32)).passed());
      ++ran;
    }
    CHECK(ran >= 1);
  }
}

TEST_CASE("exhaustive search picks a measured algorithm that is correct") {
  const auto backend = kbench::gpu::make_cudnn_backend();
  for (const std::size_t which : {std::size_t{2}, std::size_t{8}}) {
    const ConvProblem p = problems()[which].problem;
    BackendOptions options;
    options.algo_search = kbench::AlgoSearch::exhaustive;
    REQUIRE(backend->supports(p, options).ok);
    std::unique_ptr<kbench::PreparedRun> run;
    CHECK(run_and_compare(*backend, p, options, kbench::default_tolerance(MathMode::fp32), &run).passed());
    CHECK(property(*run, "algo_search") == "exhaustive");
    CHECK_FALSE(property(*run, "search_time_ms").empty());
  }
}

TEST_CASE("the workspace limit is honoured") {
  const auto backend = kbench::gpu::make_cudnn_backend();
  const ConvProblem p = problems()[3].problem;
  BackendOptions options;
  options.workspace_limit_bytes = 0;
  const kbench::Support s = backend->supports(p, options);
  if (s) {
    std::unique_ptr<kbench::PreparedRun> run;
    CHECK(run_and_compare(*backend, p, options, kbench::default_tolerance(MathMode::fp32), &run).passed());
    CHECK(property(*run, "workspace_bytes") == "0");
  } else {
    CHECK(s.reason.find("workspace") != std::string::npos);
  }
}

TEST_CASE("padding cuDNN cannot express is unsupported, with the reason") {
  const auto backend = kbench::gpu::make_cudnn_backend();
  ConvProblem p = problems()[0].problem;
  p.stride = Dims{{1, 1, 1}};
  p.pad_before = Dims{{0, 0, 0}};
  p.pad_after = Dims{{1, 0, 0}};
  const kbench::Support s = backend->supports(p, {});
  CHECK_FALSE(s.ok);
  CHECK(s.reason.find("asymmetric padding 0/1") != std::string::npos);
}

TEST_CASE("variants list cuDNN's algorithms for the call the problem uses") {
  const auto backend = kbench::gpu::make_cudnn_backend();
  CHECK(legacy_only(backend->variants(problems()[2].problem, {})).size() == 8);
  CHECK(legacy_only(backend->variants(problems()[7].problem, {})).size() == 6);
  // The graph API's variants follow the legacy ones, "graph" first, where it is built.
  const std::vector<std::string> all = backend->variants(problems()[2].problem, {});
  CHECK((all.size() > 8) == kbench::gpu::graph_api_built());
  if (kbench::gpu::graph_api_built()) CHECK(all[8] == "graph");
}

TEST_CASE("graph replay of cuDNN (convolution and bias) times and computes the same result") {
  const auto backend = kbench::gpu::make_cudnn_backend();
  const ConvProblem p = problems()[7].problem;  // backward data + cudnnAddTensor
  BackendOptions options;
  std::unique_ptr<kbench::PreparedRun> run = backend->prepare(p, options);
  run->fill_inputs(5);
  for (const bool graph : {false, true}) {
    CAPTURE(graph);
    run->poison_output();
    const kbench::Sample sample = run->timed_run({true, graph});
    CHECK(sample.seconds > 0);
    const std::vector<float> got = run->read_output({});
    const std::vector<double> expected = kbench::reference::convolve_at_seeded(p, 5, all_indices(p));
    CHECK(kbench::compare_outputs(got, expected, kbench::default_tolerance(MathMode::fp32)).passed());
  }
  CHECK(run->inputs_unchanged());
}

TEST_CASE("a finished run leaves the shared handle on the default stream, not on its destroyed one") {
  const auto handle = std::make_shared<kbench::gpu::CudnnHandle>(0);
  const ConvProblem p = problems()[2].problem;  // forward convolution with bias
  BackendOptions options;
  {
    kbench::gpu::CudnnPreparedRun run(p, options, handle);
    run.fill_inputs(3);
    run.poison_output();
    (void)run.timed_run({true, false});
    cudaStream_t during = nullptr;
    REQUIRE(cudnnGetStream(handle->get(), &during) == CUDNN_STATUS_SUCCESS);
    CHECK(during != nullptr);  // the run's own stream, while the run lives
    CHECK(run.warnings().empty());
  }
  cudaStream_t after = reinterpret_cast<cudaStream_t>(1);
  REQUIRE(cudnnGetStream(handle->get(), &after) == CUDNN_STATUS_SUCCESS);
  CHECK(after == nullptr);
  // The handle still answers queries, and a second run on it computes the convolution.
  kbench::gpu::CudnnPreparedRun again(p, options, handle);
  again.fill_inputs(4);
  again.poison_output();
  again.run();
  const std::vector<double> expected = kbench::reference::convolve_at_seeded(p, 4, all_indices(p));
  CHECK(kbench::compare_outputs(again.read_output({}), expected, kbench::default_tolerance(MathMode::fp32)).passed());
}
