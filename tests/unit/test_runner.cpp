#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>

#include "core/error.hpp"
#include "problem/problem_metrics.hpp"
#include "fake_backend.hpp"
#include "reference/reference_backend.hpp"
#include "run/math_policy.hpp"
#include "run/run_config.hpp"
#include "run/runner.hpp"

using namespace kbench;
using testing::FakeBackend;
using testing::FakeBackendConfig;
using testing::Misbehaviour;

namespace {

Workload small_workload(const std::string& name = "small") {
  Workload w;
  w.name = name;
  w.problem = testing::small_problem();
  return w;
}

RunConfig quick_config(const std::string& backends) {
  RunConfig config;
  if (!backends.empty()) config.backends = parse_backend_list(backends);
  config.seed = 42;
  config.measure.warmups = 1;
  config.measure.iterations = 3;
  config.peaks = *find_device("h100-sxm");
  return config;
}

Registry registry_with(std::vector<FakeBackendConfig> fakes) {
  Registry registry;
  registry.add(make_reference_backend());
  for (auto& fake : fakes) registry.add(std::make_unique<FakeBackend>(fake));
  return registry;
}

FakeBackendConfig fake(const std::string& name, Misbehaviour misbehaviour = Misbehaviour::none) {
  FakeBackendConfig config;
  config.name = name;
  config.misbehaviour = misbehaviour;
  return config;
}

const Result& only(const RunReport& report) {
  REQUIRE(report.results.size() == 1);
  return report.results.front();
}
// A temporary report would leave the reference dangling (ASan caught one).
const Result& only(RunReport&&) = delete;

}  // namespace

TEST_SUITE("runner") {
  TEST_CASE("a correct backend is verified in full and timed") {
    const auto registry = registry_with({fake("good")});
    const RunReport report = run_workloads({small_workload()}, registry, quick_config("good"));
    const Result& r = only(report);
    CHECK(r.status == ResultStatus::ok);
    REQUIRE(r.verification.has_value());
    CHECK(r.verification->full);
    CHECK(r.verification->comparison.checked == testing::small_problem().output_elements());
    CHECK(r.verification->comparison.passed());
    REQUIRE(r.verification->fresh_inputs.has_value());
    CHECK(r.verification->fresh_inputs->passed());
    REQUIRE(r.timing.has_value());
    CHECK(r.timing->samples_s.size() == 3);
    CHECK(r.implementation == "fake_kernel");
    CHECK(report.workloads.size() == 1);
    CHECK(report.workloads[0].metrics.flops > 0);
  }

  TEST_CASE("cheating and broken backends are caught, and never timed") {
    struct Case {
      Misbehaviour misbehaviour;
      ResultStatus status;
      const char* reason_fragment;
    };
    const Case cases[] = {
        {Misbehaviour::leave_output_unwritten, ResultStatus::wrong, "checked elements out of the error bound"},
        {Misbehaviour::replay_first_output, ResultStatus::wrong, "fresh inputs"},
        {Misbehaviour::modify_input, ResultStatus::wrong, "modified its inputs"},
        {Misbehaviour::wrong_values, ResultStatus::wrong, "checked elements out of the error bound"},
        {Misbehaviour::throw_in_run, ResultStatus::failed, "cudaErrorIllegalAddress"},
        {Misbehaviour::throw_in_prepare, ResultStatus::failed, "out of memory"},
        {Misbehaviour::no_kernel_in_run, ResultStatus::unsupported, "no fp16 kernel for this call"},
    };
    for (const auto& c : cases) {
      CAPTURE(static_cast<int>(c.misbehaviour));
      const auto registry = registry_with({fake("bad", c.misbehaviour)});
      const RunReport report = run_workloads({small_workload()}, registry, quick_config("bad"));
      const Result& r = only(report);
      CHECK(r.status == c.status);
      CAPTURE(r.reason);
      CHECK(r.reason.find(c.reason_fragment) != std::string::npos);
      CHECK_FALSE(r.timing.has_value());
    }
  }

  TEST_CASE("the error bound decides by default, a fixed tolerance under --atol/--rtol, KernelBench's rule beside") {
    const auto registry = registry_with({fake("good"), fake("bad", Misbehaviour::wrong_values)});
    const RunReport report = run_workloads({small_workload()}, registry, quick_config("good,bad"));
    REQUIRE(report.results.size() == 2);
    const Verification& good = *report.results[0].verification;
    REQUIRE(good.bound.has_value());
    CHECK_FALSE(good.tolerance.has_value());
    CHECK(good.bound->reduction_length ==
          testing::small_problem().in_channels_per_group() * testing::small_problem().kernel_volume() +
              (testing::small_problem().bias ? 1 : 0));
    CHECK(good.comparison.max_error_ratio < 1);
    REQUIRE(good.kernelbench_rule.has_value());
    CHECK(good.kernelbench_rule->comparison.passed());
    REQUIRE(good.fresh_inputs.has_value());
    CHECK(good.fresh_inputs->passed());
    const Result& bad = report.results[1];
    CHECK(bad.status == ResultStatus::wrong);
    CHECK(bad.verification->comparison.max_error_ratio > 1);
    CHECK(bad.reason.find("allowed error") != std::string::npos);

    RunConfig loose = quick_config("bad");
    loose.tolerance = Tolerance{1.0, 1.0};
    const RunReport loose_report = run_workloads({small_workload()}, registry, loose);
    const Result& tolerated = only(loose_report);
    CHECK(tolerated.status == ResultStatus::ok);
    CHECK(tolerated.verification->tolerance.has_value());
    CHECK_FALSE(tolerated.verification->bound.has_value());
  }

  TEST_CASE("one failing backend does not cost the others their results") {
    const auto registry = registry_with({fake("a", Misbehaviour::throw_in_run), fake("b")});
    const RunReport report = run_workloads({small_workload("w1"), small_workload("w2")}, registry, quick_config("a,b"));
    REQUIRE(report.results.size() == 4);
    for (const auto& r : report.results)
      CHECK(r.status == (r.backend == "a" ? ResultStatus::failed : ResultStatus::ok));
  }

  TEST_CASE("unavailable, unsupported and too-large are statuses with reasons") {
    FakeBackendConfig off = fake("off"), cannot = fake("cannot"), big = fake("big");
    off.available = false;
    cannot.supports = false;
    big.fits = false;
    const auto registry = registry_with({off, cannot, big});
    const RunReport report = run_workloads({small_workload()}, registry, quick_config("off,cannot,big"));
    REQUIRE(report.results.size() == 3);
    CHECK(report.results[0].status == ResultStatus::unavailable);
    CHECK(report.results[0].reason == "fake: no device");
    CHECK(report.results[1].status == ResultStatus::unsupported);
    CHECK(report.results[2].status == ResultStatus::skipped);
    CHECK(report.results[2].reason.find("needs 2 GB") != std::string::npos);
  }

  TEST_CASE("host memory: a result whose host buffers do not fit is skipped with the figures, the rest run") {
    // The test-only figure between what the small workload needs and what the large one does: the
    // large one's host backend result is skipped, its device-like backend verifies by sampling instead.
    setenv("KBENCH_TEST_HOST_MEMORY_AVAILABLE", "300000", 1);
    FakeBackendConfig host = fake("host"), device = fake("device");
    host.on_cpu = true;
    Workload large = small_workload("large");
    large.problem.batch = 64;  // 355.3 KB of host tensors (fp32 operands, fp64 and fp32 output); small: 11.5 KB
    const auto registry = registry_with({host, device});
    const RunReport report = run_workloads({small_workload("small"), large}, registry, quick_config("host,device"));
    unsetenv("KBENCH_TEST_HOST_MEMORY_AVAILABLE");
    REQUIRE(report.results.size() == 4);
    for (const Result& r : report.results) {
      CAPTURE(r.workload);
      CAPTURE(r.backend);
      CAPTURE(r.reason);
      const bool does_not_fit = r.workload == "large" && r.backend == "host";
      CHECK(r.status == (does_not_fit ? ResultStatus::skipped : ResultStatus::ok));
      if (does_not_fit)
        CHECK(r.reason == "needs 355.3 KB of host memory (355.3 KB for host's tensors), 300.0 KB available "
                          "(KBENCH_TEST_HOST_MEMORY_AVAILABLE)");
    }
    // The device-like backend's check of the large workload sampled rather than hold its fp64 reference.
    CHECK_FALSE(report.results[3].verification->full);
    CHECK(report.results[1].verification->full);
  }

  TEST_CASE("host memory: a std::bad_alloc is a failed result naming the allocation, the others run") {
    FakeBackendConfig oom = fake("oom", Misbehaviour::bad_alloc_in_prepare);
    oom.on_cpu = true;
    const auto registry = registry_with({oom, fake("good")});
    const RunReport report = run_workloads({small_workload()}, registry, quick_config("oom,good"));
    REQUIRE(report.results.size() == 2);
    CHECK(report.results[0].status == ResultStatus::failed);
    CHECK(report.results[0].reason.starts_with("out of host memory allocating oom's buffers ("));
    CHECK(report.results[0].reason.ends_with(" KB) (std::bad_alloc)"));
    CHECK(report.results[1].status == ResultStatus::ok);
    CHECK(report.peak_rss_bytes > 0);
  }

  TEST_CASE("without --backends: available GPU backends run, the reference is only the verifier") {
    FakeBackendConfig off = fake("off");
    off.available = false;
    const auto registry = registry_with({fake("gpu"), off});
    const RunReport report = run_workloads({small_workload()}, registry, quick_config(""));
    const Result& r = only(report);
    CHECK(r.backend == "gpu");
  }

  TEST_CASE("without --backends and no GPU backend: the CPU reference is timed, and the report says why") {
    FakeBackendConfig off = fake("off");
    off.available = false;
    const auto registry = registry_with({off});
    const RunReport report = run_workloads({small_workload()}, registry, quick_config(""));
    const Result& r = only(report);
    CHECK(r.backend == "reference");
    CHECK(r.status == ResultStatus::ok);
    CHECK(r.timing.has_value());
    REQUIRE_FALSE(report.notes.empty());
    CHECK(report.notes[0].find("no GPU backend") != std::string::npos);
  }

  TEST_CASE("the CPU reference is skipped with an estimate when it would blow the time budget") {
    Workload huge = small_workload("huge");
    huge.problem.batch = 8;  // ~150 GFLOP in ~300 MB: too slow for the budget, not too big for memory
    huge.problem.in_channels = 256;
    huge.problem.out_channels = 256;
    huge.problem.groups = 1;
    huge.problem.input = Dims{{128, 128, 1}};
    huge.problem.stride = Dims{{1, 1, 1}};
    RunConfig config = quick_config("reference");
    config.measure.time_budget_s = 1;
    const RunReport report = run_workloads({huge}, registry_with({}), config);
    const Result& r = only(report);
    CHECK(r.status == ResultStatus::skipped);
    CHECK(r.reason.find("time-budget") != std::string::npos);
  }

  TEST_CASE("NAME:all expands to every variant, NAME:VARIANT runs one") {
    FakeBackendConfig multi = fake("multi");
    multi.variants = {"v1", "v2", "v3"};
    const auto registry = registry_with({multi});
    const RunReport all = run_workloads({small_workload()}, registry, quick_config("multi:all"));
    REQUIRE(all.results.size() == 3);
    CHECK(all.results[2].variant == "v3");
    const RunReport one = run_workloads({small_workload()}, registry, quick_config("multi:v2"));
    CHECK(only(one).variant == "v2");
  }

  TEST_CASE("math modes multiply the results, --batch overrides N and is recorded") {
    const auto registry = registry_with({fake("good")});
    RunConfig config = quick_config("good");
    config.math_modes = {MathMode::fp32, MathMode::tf32};
    config.batch = 1;
    const RunReport report = run_workloads({small_workload()}, registry, config);
    REQUIRE(report.results.size() == 2);
    CHECK(report.results[1].math_requested == MathMode::tf32);
    CHECK(report.workloads[0].batch_overridden);
    CHECK(report.workloads[0].spec_batch == 2);
    CHECK(report.workloads[0].workload.problem.batch == 1);
  }

  TEST_CASE("a half workload runs once per backend at math fp32, whatever --math asks, and says why") {
    const auto registry = registry_with({fake("good")});
    Workload half = small_workload("half");
    half.problem.dtype = DType::bf16;
    half.problem.layout = Layout::nhwc;
    RunConfig config = quick_config("good,reference");
    config.math_modes = {MathMode::fp32, MathMode::tf32};
    // Verified within the error bound, whose output term is bf16's: the reference's output is rounded to it.
    const RunReport both = run_workloads({small_workload("single"), half}, registry, config);
    // single: 2 backends x 2 modes; half: 2 backends x 1 mode.
    REQUIRE(both.results.size() == 6);
    for (std::size_t i = 4; i < 6; ++i) {
      const Result& r = both.results[i];
      CHECK(r.workload == "half");
      CHECK(r.math_requested == MathMode::fp32);
      CHECK(r.dtype == DType::bf16);
      CHECK(r.layout == Layout::nhwc);
      CHECK(r.status == ResultStatus::ok);
    }
    CHECK(both.results[4].accumulation == "fp32");  // the fake says nothing: a GPU backend's fp32
    CHECK(both.results[5].accumulation == "fp64");  // the reference says so
    CHECK(both.results[0].dtype == DType::fp32);
    CHECK(both.results[0].layout == Layout::nchw);
    const auto note = std::find_if(both.notes.begin(), both.notes.end(), [](const std::string& n) {
      return n.find("fp16/bf16 workload") != std::string::npos;
    });
    REQUIRE(note != both.notes.end());
    CHECK(note->starts_with("1 fp16/bf16 workload ran once per backend at math fp32"));

    config.math_modes = {MathMode::tf32};
    const RunReport tf32 = run_workloads({half}, registry, config);
    REQUIRE(tf32.results.size() == 2);
    CHECK(tf32.results[0].math_requested == MathMode::fp32);
    CHECK(std::any_of(tf32.notes.begin(), tf32.notes.end(),
                      [](const std::string& n) { return n.find("ran once per backend") != std::string::npos; }));

    config.math_modes = {MathMode::fp32};  // nothing collapsed: no note
    const RunReport fp32 = run_workloads({half}, registry, config);
    CHECK(std::none_of(fp32.notes.begin(), fp32.notes.end(),
                       [](const std::string& n) { return n.find("ran once per backend") != std::string::npos; }));
  }

  TEST_CASE("a backend that rounds before adding the bias is held to the bound it declares, in both checks") {
    // A depthwise fp16 layer with bias: the bias cancels much of each sum, so rounding the sum first
    // costs far more than half an ulp of the result (docs/verification.md).
    Workload depthwise = small_workload("depthwise");
    ConvProblem& p = depthwise.problem;
    p.dtype = DType::fp16;
    p.in_channels = p.out_channels = p.groups = 8;
    p.input = Dims{{12, 12, 1}};
    p.kernel = Dims{{5, 5, 1}};
    p.stride = Dims{{1, 1, 1}};
    p.pad_before = p.pad_after = Dims{{2, 2, 0}};
    FakeBackendConfig declares = fake("declares", Misbehaviour::rounds_before_bias);
    declares.output_rounding = OutputRounding::bias_added_after;
    FakeBackendConfig silent = fake("silent", Misbehaviour::rounds_before_bias);
    const auto registry = registry_with({declares, silent});
    RunConfig config = quick_config("declares,silent");
    const RunReport full = run_workloads({depthwise}, registry, config);
    REQUIRE(full.results.size() == 2);
    const Result& ok = full.results[0];
    CHECK_MESSAGE(ok.status == ResultStatus::ok, ok.reason);
    REQUIRE(ok.verification.has_value());
    CHECK(ok.verification->bound->output_rounding == OutputRounding::bias_added_after);
    CHECK(ok.verification->fresh_inputs->passed());  // the second check hands the bound the biases too
    CHECK(full.results[1].status == ResultStatus::wrong);  // the same arithmetic, undeclared
    // Sampled checks (points, not the whole output) take each point's bias.
    config.full_verify_max_s = 0;
    config.verify_points = 200;
    const RunReport sampled = run_workloads({depthwise}, registry, config);
    REQUIRE(sampled.results.size() == 2);
    CHECK_MESSAGE(sampled.results[0].status == ResultStatus::ok, sampled.results[0].reason);
    CHECK_FALSE(sampled.results[0].verification->full);
    CHECK(sampled.results[1].status == ResultStatus::wrong);
  }

  TEST_CASE("math_used follows one rule for every backend: half data is fp32, fp32 data what the kernel says") {
    // A backend that calls its half run tf32 (as torch did under --math tf32, where cuDNN's result for
    // the same arithmetic said fp32) is reported fp32 like every other.
    FakeBackendConfig says_tf32 = fake("says_tf32");
    says_tf32.math_used = MathMode::tf32;
    const auto registry = registry_with({says_tf32});
    Workload half = small_workload("half");
    half.problem.dtype = DType::fp16;
    RunConfig config = quick_config("says_tf32");
    config.math_modes = {MathMode::tf32};
    const RunReport half_data = run_workloads({half}, registry, config);
    const Result& h = only(half_data);
    CHECK(h.status == ResultStatus::ok);
    CHECK(h.math_used == MathMode::fp32);
    const RunReport fp32_data = run_workloads({small_workload()}, registry, config);
    CHECK(only(fp32_data).math_used == MathMode::tf32);

    CHECK(reported_math(DType::fp16, true) == MathMode::fp32);
    CHECK(reported_math(DType::bf16, true) == MathMode::fp32);
    CHECK(reported_math(DType::fp32, true) == MathMode::tf32);
    CHECK(reported_math(DType::fp32, false) == MathMode::fp32);
  }

  TEST_CASE("shards of a run mixing fp32 and half workloads partition its results, the same way every time") {
    const auto registry = registry_with({fake("good")});
    Workload half = small_workload("half");
    half.problem.dtype = DType::fp16;
    const std::vector<Workload> workloads{small_workload("a"), half, small_workload("b")};
    RunConfig config = quick_config("good");
    config.math_modes = {MathMode::fp32, MathMode::tf32};
    const auto labels = [](const RunReport& report) {
      std::vector<std::string> out;
      for (const Result& r : report.results) out.push_back(r.workload + "/" + std::string(to_string(r.math_requested)));
      return out;
    };
    const std::vector<std::string> whole = labels(run_workloads(workloads, registry, config));
    CHECK(whole == std::vector<std::string>{"a/fp32", "a/tf32", "half/fp32", "b/fp32", "b/tf32"});
    std::vector<std::string> joined;
    for (int k = 1; k <= 2; ++k) {
      config.shard = Shard{k, 2};
      const auto part = labels(run_workloads(workloads, registry, config));
      CHECK(part == labels(run_workloads(workloads, registry, config)));
      joined.insert(joined.end(), part.begin(), part.end());
    }
    // Items 0..4 in run order: shard 1 takes 0, 2, 4 and shard 2 takes 1, 3.
    CHECK(joined == std::vector<std::string>{"a/fp32", "half/fp32", "b/tf32", "a/tf32", "b/fp32"});
  }

  TEST_CASE("a stop request ends the run between results and marks it interrupted") {
    const auto registry = registry_with({fake("good")});
    struct StopAfterFirst : RunObserver {
      std::atomic<bool> stop{false};
      int results = 0;
      void on_result(const RunReport&) override {
        ++results;
        stop = true;
      }
    } observer;
    const RunReport report = run_workloads({small_workload("a"), small_workload("b")}, registry, quick_config("good"),
                                           &observer, &observer.stop);
    CHECK(report.interrupted);
    CHECK(report.results.size() == 1);
    CHECK(observer.results == 1);
  }

  TEST_CASE("unknown backends and malformed lists are input errors") {
    const auto registry = registry_with({});
    CHECK_THROWS_AS(run_workloads({small_workload()}, registry, quick_config("nope")), InputError);
    CHECK_THROWS_AS(parse_backend_list("a,,b"), InputError);
    RunConfig huge_batch = quick_config("reference");
    huge_batch.batch = std::int64_t{1} << 40;  // 2^40 images: refused before anything is allocated
    CHECK_THROWS_WITH_AS(run_workloads({small_workload()}, registry, huge_batch), doctest::Contains("--batch"),
                         InputError);
    CHECK_THROWS_AS(parse_backend_list(":x"), InputError);
    const auto list = parse_backend_list("cuda,cudnn:all,cudnn:FFT");
    REQUIRE(list.size() == 3);
    CHECK(list[1].all_variants);
    CHECK(list[2].variant == "FFT");
    // An engine config's comma-separated knobs stay in its variant; the next backend starts a new entry.
    const auto engines = parse_backend_list("cudnn:engine/12:TILEK=2,SPLIT_K_SLC=1,cuda,cudnn:engine/3:A=1,B=2");
    REQUIRE(engines.size() == 3);
    CHECK(engines[0].variant == "engine/12:TILEK=2,SPLIT_K_SLC=1");
    CHECK(engines[1].backend == "cuda");
    CHECK(engines[2].variant == "engine/3:A=1,B=2");
    CHECK(parse_backend_list("cudnn,x=1").size() == 2);  // no variant before it: a (bad) backend name of its own
    CHECK_THROWS_AS(parse_backend_list("cudnn:engine/1:A=1,,cuda"), InputError);
  }

  TEST_CASE("a variant its backend can never use stops the run before anything runs") {
    FakeBackendConfig picky = fake("picky");
    picky.unusable_variant = "missing.py";
    const auto registry = registry_with({picky});
    CHECK_THROWS_WITH_AS(run_workloads({small_workload()}, registry, quick_config("picky,picky:missing.py")),
                         doctest::Contains("--backends: picky: no such thing as 'missing.py'"), InputError);
    CHECK(run_workloads({small_workload()}, registry, quick_config("picky:other.py")).results.size() == 1);
  }

  TEST_CASE("a variant this machine cannot run is unavailable, the backend's other variants still run") {
    FakeBackendConfig loader = fake("loader");
    loader.unavailable_variant = "lib32.so";
    const auto registry = registry_with({loader});
    const RunReport report =
        run_workloads({small_workload()}, registry, quick_config("loader:lib32.so,loader:lib64.so"));
    REQUIRE(report.results.size() == 2);
    CHECK(report.results[0].status == ResultStatus::unavailable);
    CHECK(report.results[0].reason == "loader: 'lib32.so' does not load here");
    CHECK(report.results[1].status == ResultStatus::ok);
  }

  TEST_CASE("what a run found out while timing is in its result's warnings, a backend's environment in the notes") {
    FakeBackendConfig refused = fake("refused");
    refused.run_warnings = {"the device refused the persisting-L2 reset (fake)"};
    refused.environment_notes = {"NVIDIA_TF32_OVERRIDE=0 is set (fake)"};
    FakeBackendConfig quiet = fake("quiet");
    quiet.environment_notes = {"NVIDIA_TF32_OVERRIDE=0 is set (fake)"};  // the same fact is noted once
    const auto registry = registry_with({refused, quiet});
    RunConfig config = quick_config("refused,quiet");
    config.math_modes = {MathMode::fp32, MathMode::tf32};
    const RunReport report = run_workloads({small_workload(), small_workload("second")}, registry, config);
    REQUIRE(report.results.size() == 8);
    for (const Result& r : report.results) {
      CAPTURE(r.backend);
      CHECK(r.status == ResultStatus::ok);
      if (r.backend == "refused") {
        REQUIRE(r.warnings.size() == 1);
        CHECK(r.warnings[0] == "the device refused the persisting-L2 reset (fake)");
      } else {
        CHECK(r.warnings.empty());
      }
    }
    CHECK(std::count(report.notes.begin(), report.notes.end(), "NVIDIA_TF32_OVERRIDE=0 is set (fake)") == 1);
  }

  TEST_CASE("a result faster than the roofline floor is flagged as suspicious") {
    FakeBackendConfig too_fast = fake("too_fast");
    too_fast.sample_seconds = {1e-12};  // far below any floor of the small problem on an H100
    FakeBackendConfig plausible = fake("plausible");
    plausible.sample_seconds = {1.0};
    const auto registry = registry_with({too_fast, plausible});
    const RunReport report = run_workloads({small_workload()}, registry, quick_config("too_fast,plausible"));
    REQUIRE(report.results.size() == 2);
    REQUIRE(report.results[0].warnings.size() == 1);
    CHECK(report.results[0].warnings[0].find("suspicious") != std::string::npos);
    CHECK(report.results[1].warnings.empty());
  }

  TEST_CASE("an fp32 result under the FFMA floor but over the 3xTF32 floor is not suspicious") {
    // Compute-bound peaks (memory nearly free): FFMA 1 TFLOP/s, TF32 30, so 3xTF32 is 10 TFLOP/s.
    const double flops = compute_metrics(testing::small_problem()).flops;
    FakeBackendConfig split_tf32 = fake("split_tf32");
    split_tf32.sample_seconds = {flops / 5e12};  // 5x under the FFMA floor, 2x over the 3xTF32 one
    FakeBackendConfig too_fast = fake("too_fast");
    too_fast.sample_seconds = {flops / 2e13};  // half the 3xTF32 floor
    const auto registry = registry_with({split_tf32, too_fast});
    RunConfig config = quick_config("split_tf32,too_fast");
    config.peaks.bandwidth_Bps = 1e18;
    config.peaks.fp32_flops = 1e12;
    config.peaks.tf32_flops = 30e12;
    const RunReport report = run_workloads({small_workload()}, registry, config);
    REQUIRE(report.results.size() == 2);
    REQUIRE(report.results[0].status == ResultStatus::ok);
    CHECK(report.results[0].warnings.empty());
    REQUIRE(report.results[1].warnings.size() == 1);
    CHECK(report.results[1].warnings[0].find("(compute, 3xTF32)") != std::string::npos);
  }
}
