#include "run/runner.hpp"

#include <algorithm>
#include <exception>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/build_info.hpp"
#include "core/error.hpp"
#include "data/counter_rng.hpp"
#include "measure/measure.hpp"
#include "reference/host_memory.hpp"
#include "reference/reference_conv.hpp"
#include "run/cpu_rate.hpp"
#include "run/dump.hpp"
#include "run/run_metadata.hpp"
#include "spec/problem_validation.hpp"
#include "verify/check_points.hpp"

namespace kbench {

namespace {

// One column of work: a backend, and the variant it was asked to run (empty = its own choice).
struct BackendEntry {
  Backend* backend = nullptr;
  std::string variant;
  bool all_variants = false;
  bool timed = true;  // the CPU reference is timed only when asked for, or when nothing else runs
};

std::vector<BackendEntry> select_backends(const Registry& registry, const RunConfig& config, RunReport& report) {
  std::vector<BackendEntry> entries;
  if (!config.backends.empty()) {
    for (const auto& request : config.backends) {
      Backend* backend = registry.find(request.backend);
      if (!backend)
        throw InputError(fmt::format("--backends: unknown backend '{}'; known: {}", request.backend,
                                     fmt::join(registry.names(), ", ")));
      entries.push_back({backend, request.variant, request.all_variants, true});
    }
    return entries;
  }
  for (const auto& backend : registry.all())
    if (!backend->runs_on_cpu() && backend->available()) entries.push_back({backend.get(), "", false, true});
  if (entries.empty()) {
    for (const auto& backend : registry.all())
      if (backend->runs_on_cpu()) entries.push_back({backend.get(), "", false, true});
    report.notes.push_back("no GPU backend is available here; timing the CPU reference where it fits the time budget");
  }
  return entries;
}

// Whether the fp64 output of a full check may be held for the whole workload: it sits beside every
// backend's own buffers (the CPU reference's run alone takes inputs + fp64 + fp32 outputs: seed 84,
// 17 GB of a 23 GB machine), so it takes at most a quarter of the host memory free when it is made.
// Where this fails the check samples, as for a slow reference; whether it fits must not hang on how
// fast the CPU measured (seed 84's full check on 2 cores is 2.0-2.5 s, at the threshold).
bool full_output_fits(const ConvProblem& problem) {
  const std::optional<std::int64_t> available = reference::available_host_memory();
  return !available || 8.0 * static_cast<double>(problem.output_elements()) <= 0.25 * static_cast<double>(*available);
}

// Reference values for verification, computed at most once per workload and shared by every backend.
class ExpectedOutput {
 public:
  ExpectedOutput(const ConvProblem& problem, const RunConfig& config) : problem_(problem), config_(config) {}

  const std::vector<std::int64_t>& points() { return compute().points; }  // empty = every element
  const std::vector<double>& values() { return compute().values; }
  bool full() { return compute().points.empty(); }
  bool computed() const { return data_.has_value(); }

 private:
  struct Data {
    std::vector<std::int64_t> points;
    std::vector<double> values;
  };
  const Data& compute() {
    if (data_) return *data_;
    Data d;
    const double seconds = compute_metrics(problem_).flops / reference_flops_per_second();
    if (seconds <= config_.full_verify_max_s && full_output_fits(problem_)) {
      d.values = reference::convolve(problem_, data::make_host_tensors(problem_, config_.seed));
    } else {
      d.points = choose_check_points(problem_, config_.verify_points, config_.seed);
      d.values = reference::convolve_at_seeded(problem_, config_.seed, d.points);
    }
    data_ = std::move(d);
    return *data_;
  }
  ConvProblem problem_;
  const RunConfig& config_;
  std::optional<Data> data_;
};

std::string format_seconds(double s) { return s >= 1 ? fmt::format("{:.1f} s", s) : fmt::format("{:.0f} ms", s * 1e3); }

// The CPU runs a whole workload per sample: decide up front whether it fits the budget.
Support cpu_budget_check(const ConvProblem& problem, const RunConfig& config, const MeasureOptions& options) {
  const double rate = reference_flops_per_second();
  const double per_run = compute_metrics(problem).flops / rate;
  const int runs_needed = options.warmups + options.discarded + 2;  // + the verification run + one sample
  if (per_run * runs_needed <= config.measure.time_budget_s) return Support::yes();
  return Support::no(fmt::format(
      "the CPU reference needs about {} per run here ({:.2f} GFLOP/s measured), {} runs at least; "
      "over the --time-budget of {} per workload and backend",
      format_seconds(per_run), rate / 1e9, runs_needed, format_seconds(config.measure.time_budget_s)));
}

MeasureOptions measure_options_for(const Backend& backend, const RunConfig& config) {
  MeasureOptions options = config.measure;
  if (backend.runs_on_cpu()) {
    // A CPU run has no L2 to flush or clocks to ramp: one warm-up (page faults) is enough.
    options.warmups = std::min(options.warmups, 1);
    options.discarded = 0;
  }
  return options;
}

// No kernel beats max(bytes/BW, FLOPs/peak). A median clearly under it means the timing missed work
// (another stream, an unsynchronised launch) or the peaks are wrong for this device.
constexpr double kFloorMeasurementSlack = 0.9;

void flag_if_faster_than_floor(Result& result, const Floor& floor) {
  const double median = result.timing->stats.median;
  if (floor.floor_s <= 0 || median >= kFloorMeasurementSlack * floor.floor_s) return;
  result.warnings.push_back(fmt::format(
      "suspicious: median {:.4g} ms is {:.0f}% below the roofline floor of {:.4g} ms ({}); the timing may miss "
      "work or the peaks may not match this device",
      median * 1e3, (1 - median / floor.floor_s) * 100, floor.floor_s * 1e3, binding_text(floor)));
}

Result run_one(const Workload& workload, Backend& backend, const BackendEntry& entry, const std::string& variant,
               MathMode math, const RunConfig& config, ExpectedOutput& expected, WorkloadDump* dump, const Floor& floor,
               const std::atomic<bool>* stop, RunObserver* observer) {
  Result result;
  result.workload = workload.name;
  result.backend = backend.name();
  result.variant = variant;
  result.math_requested = math;
  result.math_used = math;
  const ConvProblem& problem = workload.problem;

  BackendOptions options = config.backend_options;
  options.math = math;
  options.variant = variant;
  const MeasureOptions measure_opts = measure_options_for(backend, config);

  const auto give_up = [&](ResultStatus status, std::string reason) {
    result.status = status;
    result.reason = std::move(reason);
    return result;
  };
  try {
    if (Support s = backend.available(); !s) return give_up(ResultStatus::unavailable, s.reason);
    if (Support s = backend.supports(problem, options); !s) return give_up(ResultStatus::unsupported, s.reason);
    if (Support s = backend.fits(problem, options); !s) return give_up(ResultStatus::skipped, s.reason);
    if (backend.runs_on_cpu() && entry.timed)
      if (Support s = cpu_budget_check(problem, config, measure_opts); !s) return give_up(ResultStatus::skipped, s.reason);

    auto run = backend.prepare(problem, options);
    result.implementation = run->implementation();
    result.math_used = run->math_used();
    result.properties = run->properties();

    // Verification run: fresh seeded inputs, a poisoned output, then compare with the fp64 reference.
    run->fill_inputs(config.seed);
    run->poison_output();
    run->run();
    Verification verification;
    verification.tolerance = config.tolerance.value_or(default_tolerance(math));
    const auto got = run->read_output(expected.points());
    verification.full = expected.full();
    verification.comparison = compare_outputs(got, expected.values(), verification.tolerance);
    verification.inputs_unchanged = run->inputs_unchanged();
    result.verification = verification;
    if (dump && dump->accepts_output(result, problem.output_elements()))
      dump->add_output(result, expected.full() ? got : run->read_output({}));

    if (!verification.inputs_unchanged) return give_up(ResultStatus::wrong, "the backend modified its inputs");
    if (!verification.comparison.passed()) {
      const auto& c = verification.comparison;
      const std::int64_t where = expected.full() ? c.first_mismatch : expected.points()[static_cast<std::size_t>(c.first_mismatch)];
      return give_up(ResultStatus::wrong,
                     fmt::format("{} of {} checked elements out of tolerance (atol {:g}, rtol {:g}); first at output "
                                 "index {}: got {:g}, expected {:g}",
                                 c.mismatches, c.checked, verification.tolerance.atol, verification.tolerance.rtol, where,
                                 c.first_mismatch_got, c.first_mismatch_expected));
    }
    if (entry.timed)
      result.timing = measure(*run, measure_opts, stop, [observer](int taken) {
        if (observer) observer->on_sample(taken);
      });
    for (std::string& warning : run->warnings()) result.warnings.push_back(std::move(warning));

    // Fresh inputs after timing: the output must follow them (no replayed results, no state kept).
    const std::uint64_t fresh_seed = data::mix64(config.seed ^ 0xf4e5'1234'abcd'0001ULL);
    const auto points = choose_check_points(problem, std::min<std::int64_t>(config.verify_points, 1024), fresh_seed);
    run->fill_inputs(fresh_seed);
    run->poison_output();
    run->run();
    const auto fresh = compare_outputs(run->read_output(points), reference::convolve_at_seeded(problem, fresh_seed, points),
                                       verification.tolerance);
    result.verification->fresh_inputs = fresh;
    result.verification->fresh_inputs_seed = fresh_seed;
    if (!fresh.passed() || !run->inputs_unchanged()) {
      result.timing.reset();
      return give_up(ResultStatus::wrong,
                     fmt::format("the output does not follow fresh inputs: {} of {} elements out of tolerance on the second "
                                 "verification (seed {}){}",
                                 fresh.mismatches, fresh.checked, fresh_seed,
                                 run->inputs_unchanged() ? "" : "; the inputs were modified"));
    }
    result.status = ResultStatus::ok;
    if (result.timing) flag_if_faster_than_floor(result, floor);
  } catch (const std::exception& e) {
    return give_up(ResultStatus::failed, e.what());
  }
  return result;
}

// Variants to run for one entry on one problem: "NAME:all" expands; otherwise exactly one.
std::vector<std::string> variants_for(const BackendEntry& entry, const ConvProblem& problem, const RunConfig& config,
                                      MathMode math) {
  if (!entry.all_variants) return {entry.variant};
  BackendOptions options = config.backend_options;
  options.math = math;
  std::vector<std::string> variants;
  if (entry.backend->available()) variants = entry.backend->variants(problem, options);
  if (variants.empty()) variants.push_back("");
  return variants;
}

}  // namespace

WorkloadSummary summarize_workload(const Workload& workload, const DevicePeaks& peaks) {
  WorkloadSummary summary;
  summary.workload = workload;
  summary.metrics = compute_metrics(workload.problem);
  summary.floor_fp32 = compute_floor(summary.metrics, peaks, MathMode::fp32);
  summary.floor_tf32 = compute_floor(summary.metrics, peaks, MathMode::tf32);
  summary.spec_batch = workload.problem.batch;
  return summary;
}

RunReport run_workloads(const std::vector<Workload>& workloads, const Registry& registry, const RunConfig& config,
                        RunObserver* observer, const std::atomic<bool>* stop) {
  RunReport report;
  report.kbench_version = KBENCH_VERSION;
  report.build = std::string(build_description());
  report.started_at = current_time_iso8601();
  report.host = host_name();
  report.peaks = config.peaks;
  report.peaks_from_target = config.peaks_from_target;
  report.device = config.device_description;
  report.settings.math_modes = config.math_modes;
  report.settings.seed = config.seed;
  report.settings.measure = config.measure;
  report.settings.verify_points = config.verify_points;
  for (const auto& request : config.backends)
    report.settings.backends.push_back(request.backend + (request.all_variants ? ":all"
                                                          : request.variant.empty() ? ""
                                                                                    : ":" + request.variant));
  const auto entries = select_backends(registry, config, report);
  for (const auto& entry : entries)
    for (std::string& note : entry.backend->environment_notes())
      if (std::find(report.notes.begin(), report.notes.end(), note) == report.notes.end())
        report.notes.push_back(std::move(note));
  const auto stopped = [&] { return stop && stop->load(); };

  const int count = static_cast<int>(workloads.size());
  for (int index = 0; index < count && !stopped(); ++index) {
    Workload workload = workloads[static_cast<std::size_t>(index)];
    WorkloadSummary summary = summarize_workload(workload, config.peaks);
    if (config.batch) {
      workload.problem.batch = *config.batch;
      if (const auto issue = find_problem_issue(workload.problem))
        throw InputError(fmt::format("--batch {}: {}: {}", *config.batch, workload.name, issue->message));
      summary = summarize_workload(workload, config.peaks);
      summary.batch_overridden = true;
      summary.spec_batch = workloads[static_cast<std::size_t>(index)].problem.batch;
    }
    report.workloads.push_back(summary);

    ExpectedOutput expected(workload.problem, config);
    std::optional<WorkloadDump> dump;
    if (!config.dump_dir.empty()) dump.emplace(config.dump_dir, workload, config.seed);

    for (const auto& entry : entries) {
      for (MathMode math : config.math_modes) {
        for (const auto& variant : variants_for(entry, workload.problem, config, math)) {
          if (stopped()) break;
          const std::string label = entry.backend->name() + (variant.empty() ? "" : ":" + variant);
          if (observer) observer->on_start(index, count, label);
          report.results.push_back(run_one(workload, *entry.backend, entry, variant, math, config, expected,
                                           dump ? &*dump : nullptr, summary.floor_for(math), stop, observer));
          if (observer) observer->on_result(report);
        }
      }
    }
    if (dump) {
      if (expected.computed() && expected.full()) dump->add_reference(expected.values());
      dump->finish(report);
    }
  }
  report.interrupted = stopped();
  return report;
}

}  // namespace kbench
