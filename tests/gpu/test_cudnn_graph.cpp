// cuDNN's graph API on a device (cudnn:graph, cudnn:engine/...) against kbench's fp64 reference: every
// engine config cuDNN's heuristics list for the seven half problems, every pass of convolutions and
// transposed convolutions in both math modes, a forced config, the fused bias, the exhaustive search
// over both APIs, the workspace limit and CUDA graph replay. Skipped where the graph API is not built.
#include <doctest/doctest.h>

#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "cudnn/cudnn_backend.hpp"
#include "cudnn/graph/graph_api.hpp"
#include "cudnn/graph/graph_variant.hpp"
#include "cudnn_half_problems.hpp"
#include "problem/conv_pass.hpp"
#include "reference/reference_conv.hpp"
#include "verify/compare.hpp"
#include "verify/tolerance.hpp"

using kbench::BackendOptions;
using kbench::ConvProblem;
using kbench::DType;
using kbench::Layout;
using kbench::MathMode;
using kbench::Pass;
using kbench::gpu_tests::half_problems;
using kbench::gpu_tests::NamedProblem;

namespace {

ConvProblem as(ConvProblem p, DType dtype, Layout layout, Pass pass = Pass::forward) {
  p.dtype = dtype;
  p.layout = layout;
  p.pass = pass;
  return p;
}

// fp32: the mode's tolerance; half data: one rounding of the output (4 u_out absolute, 2 u_out relative).
kbench::Tolerance tolerance_for(const ConvProblem& p, MathMode math) {
  if (p.dtype == DType::fp32) return kbench::default_tolerance(math);
  const double u = kbench::unit_roundoff(p.dtype);
  return {4 * u, 2 * u};
}

// Prepare, fill, poison, run, and compare the pass's whole computed tensor with the reference.
bool runs_correctly(kbench::Backend& backend, const ConvProblem& p, const BackendOptions& options,
                    std::unique_ptr<kbench::PreparedRun>* keep = nullptr) {
  constexpr std::uint64_t seed = 2024;
  std::unique_ptr<kbench::PreparedRun> run = backend.prepare(p, options);
  run->fill_inputs(seed);
  run->poison_output();
  run->run();
  std::vector<std::int64_t> indices(static_cast<std::size_t>(kbench::computed_elements(p)));
  std::iota(indices.begin(), indices.end(), 0);
  const std::vector<double> expected = kbench::reference::convolve_at_seeded(p, seed, indices);
  CHECK(run->inputs_unchanged());
  const kbench::Comparison c = kbench::compare_outputs(run->read_output({}), expected, tolerance_for(p, options.math));
  if (!c.passed())
    MESSAGE(run->implementation() << ": " << c.mismatches << " of " << c.checked << " mismatch; first at "
                                  << c.first_mismatch << ": got " << c.first_mismatch_got << ", expected "
                                  << c.first_mismatch_expected);
  if (keep) *keep = std::move(run);
  return c.passed();
}

std::string property(const kbench::PreparedRun& run, const std::string& key) {
  for (const auto& [k, v] : run.properties())
    if (k == key) return v;
  return {};
}

std::vector<std::string> engine_variants(const kbench::Backend& backend, const ConvProblem& p,
                                         const BackendOptions& options) {
  std::vector<std::string> engines;
  for (const std::string& v : backend.variants(p, options))
    if (v.starts_with("engine/")) engines.push_back(v);
  return engines;
}

}  // namespace

TEST_CASE("every engine config cuDNN's heuristics list for fp16 NHWC computes the seven problems") {
  if (!kbench::gpu::graph_api_built()) return;
  const auto backend = kbench::gpu::make_cudnn_backend();
  REQUIRE(backend->available().ok);
  int ran = 0;
  for (const NamedProblem& np : half_problems()) {
    const ConvProblem p = as(np.problem, DType::fp16, Layout::nhwc);
    CAPTURE(np.name);
    BackendOptions options;
    for (const std::string& variant : engine_variants(*backend, p, options)) {
      CAPTURE(variant);
      options.variant = variant;
      const kbench::Support s = backend->supports(p, options);
      if (!s) {
        MESSAGE(np.name << ": " << variant << ": unsupported: " << s.reason);
        CHECK_FALSE(s.reason.empty());
        continue;
      }
      std::unique_ptr<kbench::PreparedRun> run;
      CHECK(runs_correctly(*backend, p, options, &run));
      CHECK(run->implementation() == "cudnn:" + variant);  // each listed config runs as named
      CHECK(run->math_used() == MathMode::fp32);
      ++ran;
    }
  }
  MESSAGE(ran << " engine configs ran");
  CHECK(ran >= 1);
}

TEST_CASE("cudnn:graph computes every pass in fp32, fp16 and bf16, both layouts and math modes") {
  if (!kbench::gpu::graph_api_built()) return;
  const auto backend = kbench::gpu::make_cudnn_backend();
  for (const std::size_t which : {std::size_t{1}, std::size_t{5}, std::size_t{6}})
    for (const Pass pass : {Pass::forward, Pass::backward_data, Pass::backward_weights})
      for (const DType dtype : {DType::fp32, DType::fp16, DType::bf16})
        for (const Layout layout : {Layout::nchw, Layout::nhwc})
          for (const MathMode math : {MathMode::fp32, MathMode::tf32}) {
            const ConvProblem p = as(half_problems()[which].problem, dtype, layout, pass);
            CAPTURE(half_problems()[which].name);
            CAPTURE(kbench::to_string(pass));
            CAPTURE(kbench::to_string(dtype));
            CAPTURE(kbench::to_string(layout));
            CAPTURE(kbench::to_string(math));
            BackendOptions options;
            options.variant = "graph";
            options.math = math;
            const kbench::Support s = backend->supports(p, options);
            if (!s) {
              MESSAGE("cudnn:graph unsupported: " << s.reason);
              continue;
            }
            std::unique_ptr<kbench::PreparedRun> run;
            CHECK(runs_correctly(*backend, p, options, &run));
            CHECK(property(*run, "cudnn_api") == "graph");
            CHECK(run->implementation().starts_with("cudnn:engine/"));
            // --math fp32 on fp32 data: no TF32 config may run, and the result says fp32.
            if (dtype == DType::fp32 && math == MathMode::fp32) {
              CHECK(run->math_used() == MathMode::fp32);
              CHECK(property(*run, "numerical_notes").find("TENSOR_CORE") == std::string::npos);
            }
            if (dtype != DType::fp32) CHECK(run->math_used() == MathMode::fp32);
            CHECK(property(*run, "numerical_notes").find("DOWN_CONVERT_INPUTS") == std::string::npos);
          }
}

TEST_CASE("a forced engine config runs as named; a malformed or unknown one is refused with why") {
  if (!kbench::gpu::graph_api_built()) return;
  const auto backend = kbench::gpu::make_cudnn_backend();
  const ConvProblem p = as(half_problems()[2].problem, DType::fp16, Layout::nhwc);
  BackendOptions options;
  const std::vector<std::string> engines = engine_variants(*backend, p, options);
  REQUIRE_FALSE(engines.empty());
  bool forced = false;
  for (const std::string& variant : engines) {
    options.variant = variant;
    if (!backend->supports(p, options)) continue;
    std::unique_ptr<kbench::PreparedRun> run;
    CHECK(runs_correctly(*backend, p, options, &run));
    CHECK(run->implementation() == "cudnn:" + variant);
    CHECK(property(*run, "engine_config") == variant);
    CHECK(property(*run, "algo_search") == "forced");
    CHECK(property(*run, "ranked_by") == "forced");
    forced = true;
    break;
  }
  CHECK(forced);

  options.variant = "engine/12:TILEK";
  kbench::Support s = backend->supports(p, options);
  CHECK_FALSE(s.ok);
  CHECK(s.reason.find(std::string(kbench::gpu::kGraphVariantGrammar)) != std::string::npos);
  CHECK_FALSE(backend->variant_usable("engine/x").ok);
  options.variant = "engine/999999";  // no such engine
  s = backend->supports(p, options);
  CHECK_FALSE(s.ok);
  CHECK(s.reason.find("cudnn-frontend") != std::string::npos);
}

TEST_CASE("the graph fuses the forward bias and keeps grad_bias a separate, timed step") {
  if (!kbench::gpu::graph_api_built()) return;
  const auto backend = kbench::gpu::make_cudnn_backend();
  for (const DType dtype : {DType::fp32, DType::fp16})
    for (const std::size_t which : {std::size_t{1}, std::size_t{5}}) {  // conv2d and conv_transpose2d, with bias
      CAPTURE(kbench::to_string(dtype));
      CAPTURE(half_problems()[which].name);
      BackendOptions options;
      options.variant = "graph";
      const ConvProblem forward = as(half_problems()[which].problem, dtype, Layout::nhwc);
      REQUIRE(forward.bias);
      if (const kbench::Support s = backend->supports(forward, options); !s) {
        MESSAGE("fused bias unsupported: " << s.reason);
      } else {
        std::unique_ptr<kbench::PreparedRun> run;
        CHECK(runs_correctly(*backend, forward, options, &run));
        CHECK(property(*run, "bias").starts_with("fused pointwise add"));
        CHECK(property(*run, "graph_operation").find("pointwise ADD") != std::string::npos);
      }
      const ConvProblem weights = as(half_problems()[which].problem, dtype, Layout::nhwc, Pass::backward_weights);
      if (const kbench::Support s = backend->supports(weights, options); !s) {
        MESSAGE("wgrad unsupported: " << s.reason);
      } else {
        std::unique_ptr<kbench::PreparedRun> run;
        CHECK(runs_correctly(*backend, weights, options, &run));  // grad_weight and grad_bias
        CHECK(property(*run, "grad_bias") == "separate cudnnConvolutionBackwardBias, timed");
      }
    }
}

TEST_CASE("--algo exhaustive times the legacy algorithms and the engine configs under kbench's protocol") {
  if (!kbench::gpu::graph_api_built()) return;
  const auto backend = kbench::gpu::make_cudnn_backend();
  for (const DType dtype : {DType::fp32, DType::bf16}) {
    const ConvProblem p = as(half_problems()[1].problem, dtype, Layout::nhwc);
    CAPTURE(kbench::to_string(dtype));
    BackendOptions options;
    options.algo_search = kbench::AlgoSearch::exhaustive;
    REQUIRE(backend->supports(p, options).ok);
    std::unique_ptr<kbench::PreparedRun> run;
    CHECK(runs_correctly(*backend, p, options, &run));
    CHECK(property(*run, "algo_search") == "exhaustive");
    CHECK(property(*run, "search_timing").starts_with("kbench's own cold protocol"));
    CHECK_FALSE(property(*run, "search_time_ms").empty());
    const std::string api = property(*run, "cudnn_api");
    CHECK((api == "graph" || api == "legacy"));
    MESSAGE(kbench::to_string(dtype) << ": " << run->implementation() << " (" << property(*run, "search_candidates")
                                     << ")");
  }
}

TEST_CASE("a zero workspace limit is honoured by the graph's configs, and a graph replays") {
  if (!kbench::gpu::graph_api_built()) return;
  const auto backend = kbench::gpu::make_cudnn_backend();
  const ConvProblem p = as(half_problems()[5].problem, DType::fp16, Layout::nhwc);
  BackendOptions options;
  options.variant = "graph";
  options.workspace_limit_bytes = 0;
  const kbench::Support s = backend->supports(p, options);
  if (s) {
    std::unique_ptr<kbench::PreparedRun> run;
    CHECK(runs_correctly(*backend, p, options, &run));
    CHECK(property(*run, "workspace_bytes") == "0");
  } else {
    CHECK(s.reason.find("workspace") != std::string::npos);
  }

  options.workspace_limit_bytes = BackendOptions{}.workspace_limit_bytes;
  std::unique_ptr<kbench::PreparedRun> run = backend->prepare(p, options);
  run->fill_inputs(5);
  std::vector<std::int64_t> indices(static_cast<std::size_t>(p.output_elements()));
  std::iota(indices.begin(), indices.end(), 0);
  const std::vector<double> expected = kbench::reference::convolve_at_seeded(p, 5, indices);
  for (const bool graph : {false, true}) {
    CAPTURE(graph);
    run->poison_output();
    CHECK(run->timed_run({true, graph}).seconds > 0);
    CHECK(kbench::compare_outputs(run->read_output({}), expected, tolerance_for(p, MathMode::fp32)).passed());
  }
  CHECK(run->inputs_unchanged());
}

TEST_CASE("the plan lists the graph's configs as cudnn:all runs them") {
  if (!kbench::gpu::graph_api_built()) return;
  const auto backend = kbench::gpu::make_cudnn_backend();
  const kbench::PlanDevice device{"this device", 9, 0, 132, true};
  const ConvProblem p = as(half_problems()[2].problem, DType::bf16, Layout::nhwc);
  BackendOptions options;
  const kbench::BackendPlan plan = backend->plan(p, options, device);
  REQUIRE(plan.support.ok);
  CHECK(plan.variants.size() + plan.ruled_out.size() == backend->variants(p, options).size());
  bool graph_listed = false;
  for (const kbench::VariantPlan& v : plan.variants)
    if (v.variant == "graph") {
      graph_listed = true;
      options.variant = "graph";
      CHECK(v.implementation == backend->prepare(p, options)->implementation());
    }
  CHECK(graph_listed);
}
