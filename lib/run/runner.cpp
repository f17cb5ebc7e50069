#include "run/runner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <memory>
#include <new>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "backend/unsupported_problem.hpp"
#include "core/build_info.hpp"
#include "core/error.hpp"
#include "core/memory_budget.hpp"
#include "data/counter_rng.hpp"
#include "measure/measure.hpp"
#include "problem/conv_pass.hpp"
#include "reference/host_memory.hpp"
#include "reference/reference_conv.hpp"
#include "run/cpu_rate.hpp"
#include "run/dump.hpp"
#include "run/math_policy.hpp"
#include "run/run_metadata.hpp"
#include "problem/problem_validation.hpp"
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
      entries.push_back({&requested_backend(registry, request), request.variant, request.all_variants, true});
    }
    return entries;
  }
  for (const auto& backend : registry.all())
    if (backend->selected_by_default() && !backend->runs_on_cpu() && backend->available())
      entries.push_back({backend.get(), "", false, true});
  if (entries.empty()) {
    for (const auto& backend : registry.all())
      if (backend->selected_by_default() && backend->runs_on_cpu()) entries.push_back({backend.get(), "", false, true});
    report.notes.push_back("no GPU backend is available here; timing the CPU reference where it fits the time budget");
  }
  return entries;
}

// The reference at the points a check compares (all of them when `points` is empty).
struct ReferenceValues {
  std::vector<std::int64_t> points;
  std::vector<double> values, abs_sums, root_sum_squares;
  ExpectedValues view() const { return {values, abs_sums, root_sum_squares}; }
};

std::vector<double> square_roots(std::vector<double> values) {
  for (double& v : values) v = std::sqrt(v);
  return values;
}

ReferenceValues reference_everywhere(const ConvProblem& problem, std::uint64_t seed) {
  const data::HostTensors tensors = data::make_host_tensors(problem, seed);
  using reference::Terms;
  return {{},
          reference::convolve(problem, tensors),
          reference::convolve(problem, reference::tensors_for_terms(tensors, Terms::magnitude)),
          square_roots(reference::convolve(problem, reference::tensors_for_terms(tensors, Terms::square)))};
}

// Whether `bytes` more may be held on the host beside every backend's own buffers (the CPU reference's
// run alone takes inputs + fp64 + fp32 outputs: problem 84, 17 GB of a 23 GB machine): at most a quarter of
// the memory free now.
bool fits_quarter_of_host_memory(double bytes) {
  const std::optional<std::int64_t> available = reference::available_host_memory();
  return !available || bytes <= 0.25 * static_cast<double>(*available);
}

double operand_bytes(const ConvProblem& problem) {
  double bytes = 0;
  for (const data::TensorRole role : data::roles_read(problem))
    bytes += 4.0 * static_cast<double>(data::role_elements(problem, role));
  return bytes;
}

ReferenceValues reference_at(const ConvProblem& problem, std::uint64_t seed, std::vector<std::int64_t> points) {
  using reference::Terms;
  ReferenceValues r;
  if (problem.pass == Pass::backward_weights && fits_quarter_of_host_memory(2 * operand_bytes(problem))) {
    // Each point sums N x spatial terms: from host copies of x and dy, not values drawn term by term.
    const data::HostTensors tensors = data::make_host_tensors(problem, seed);
    r.values = reference::convolve_at(problem, tensors, points);
    r.abs_sums = reference::convolve_at(problem, reference::tensors_for_terms(tensors, Terms::magnitude), points);
    r.root_sum_squares =
        square_roots(reference::convolve_at(problem, reference::tensors_for_terms(tensors, Terms::square), points));
  } else {
    r.values = reference::convolve_at_seeded(problem, seed, points, Terms::value);
    r.abs_sums = reference::convolve_at_seeded(problem, seed, points, Terms::magnitude);
    r.root_sum_squares = square_roots(reference::convolve_at_seeded(problem, seed, points, Terms::square));
  }
  r.points = std::move(points);
  return r;
}

// Whether the fp64 result of a full check may be held for the whole workload. Where this fails the check
// samples, as for a slow reference; whether it fits must not hang on how fast the CPU measured (problem 84's
// full check on 2 cores is 2.0-2.5 s, at the threshold).
bool full_output_fits(const ConvProblem& problem) {
  return fits_quarter_of_host_memory(8.0 * static_cast<double>(computed_elements(problem)));
}

// How much slower than the tiled forward convolution the reference computes a pass per product:
// backward_weights' long reductions read with strides, at about a quarter of its rate.
double reference_slowdown(const ConvProblem& problem) { return problem.pass == Pass::backward_weights ? 4.0 : 1.0; }

// The reference's time for the whole computed tensor, three times (values, magnitudes, squares).
double full_check_seconds(const ConvProblem& problem) {
  return 3.0 * reference_slowdown(problem) * compute_metrics(problem).flops / reference_flops_per_second();
}

// The same for `points` elements of it, each at its longest reduction (an upper bound: padding is not
// subtracted, as the gather of one element runs about as fast per product as the tiled convolution).
double reference_seconds(const ConvProblem& problem, double points) {
  const double per_point = 2.0 * static_cast<double>(reduction_length(problem));
  return 3.0 * reference_slowdown(problem) * points * per_point / reference_flops_per_second();
}

// How many points a sampled check takes: `wanted`, unless each point's reduction is so long (a
// backward_weights element of problem 76 sums 11 million terms) that they would take longer than a full
// check may; then as many as fit that time, and never fewer than reach every corner and grad_bias.
std::int64_t sampled_point_count(const ConvProblem& problem, std::int64_t wanted, double max_seconds) {
  constexpr std::int64_t kFewest = 64;
  const double affordable = max_seconds / std::max(reference_seconds(problem, 1.0), 1e-12);
  return std::clamp<std::int64_t>(static_cast<std::int64_t>(affordable), std::min(kFewest, wanted), wanted);
}

// Reference values for verification, computed at most once per workload and shared by every backend:
// each checked element's value and, for the error bound, its S and Q (verify/error_bound.hpp).
class ExpectedOutput {
 public:
  ExpectedOutput(const ConvProblem& problem, const RunConfig& config) : problem_(problem), config_(config) {}

  const std::vector<std::int64_t>& points() { return compute().points; }  // empty = every element
  ExpectedValues values() { return compute().view(); }
  bool full() { return compute().points.empty(); }
  bool computed() const { return data_.has_value(); }
  const std::vector<double>& reference() { return compute().values; }
  // Sampled, where not computed yet: a full check would not fit in host memory beside a backend's buffers.
  void sample_only() { sample_only_ = true; }

  // Whether compute() would check every element, decided as it decides, without computing.
  bool would_be_full() const {
    if (data_) return data_->points.empty();
    if (sample_only_) return false;
    // The full check convolves three times (values, magnitudes, squares).
    return full_check_seconds(problem_) <= config_.full_verify_max_s && full_output_fits(problem_);
  }
  // The host memory compute() will hold while it computes, 0 once done: a full check's fp32 host operands
  // and one copy of them for a term, and its three fp64 results (values, magnitudes, squares).
  double bytes_to_compute() const {
    if (data_) return 0;
    if (would_be_full()) return 2 * operand_bytes(problem_) + 3 * 8.0 * static_cast<double>(computed_elements(problem_));
    const bool host_operands =
        problem_.pass == Pass::backward_weights && fits_quarter_of_host_memory(2 * operand_bytes(problem_));
    return host_operands ? 2 * operand_bytes(problem_) : 0;
  }

 private:
  const ReferenceValues& compute() {
    if (data_) return *data_;
    if (would_be_full())
      data_ = reference_everywhere(problem_, config_.seed);
    else
      data_ = reference_at(problem_, config_.seed, choose_check_points(problem_, point_count(config_.verify_points),
                                                                       config_.seed));
    return *data_;
  }
  std::int64_t point_count(std::int64_t wanted) const {
    return sampled_point_count(problem_, wanted, config_.full_verify_max_s);
  }
  ConvProblem problem_;
  const RunConfig& config_;
  bool sample_only_ = false;
  std::optional<ReferenceValues> data_;
};

std::string format_seconds(double s) { return s >= 1 ? fmt::format("{:.1f} s", s) : fmt::format("{:.0f} ms", s * 1e3); }

// The CPU runs a whole workload per sample: decide up front whether it fits the budget.
Support cpu_budget_check(const ConvProblem& problem, const RunConfig& config, const MeasureOptions& options) {
  const double rate = reference_flops_per_second();
  const double per_run = compute_metrics(problem).flops / rate;
  // + the verification run + the protocol's minimum of samples
  const int runs_needed = options.warmups + options.discarded + 1 + std::min(options.min_samples, options.iterations);
  if (per_run * runs_needed <= config.measure.time_budget_s) return Support::yes();
  return Support::no(
      fmt::format("the CPU reference needs about {} per run here ({:.2f} GFLOP/s measured), {} runs at least; "
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

// Everything one result's phases share: what runs, on what, against what.
struct ResultContext {
  const Workload& workload;
  Backend& backend;
  const BackendEntry& entry;
  const std::string& variant;
  MathMode math;
  const RunConfig& config;
  ExpectedOutput& expected;
  WorkloadDump* dump;  // null unless --dump
  const Floor& floor;
  const std::atomic<bool>* stop;
  RunObserver* observer;
};

// One (workload, backend or variant, math mode) result, in the phases its run() names: admit,
// prepare, verify, time, verify again on fresh inputs. A phase that ends the result says why with a
// status; an exception from the backend ends it as failed (as unsupported for UnsupportedProblem).
// Never throws.
class ResultRun {
 public:
  explicit ResultRun(const ResultContext& context) : c_(context) {
    result_.workload = c_.workload.name;
    result_.backend = c_.backend.name();
    result_.variant = c_.variant;
    result_.math_requested = c_.math;
    result_.math_used = c_.math;
    result_.dtype = c_.workload.problem.dtype;
    result_.layout = c_.workload.problem.layout;
    result_.pass = c_.workload.problem.pass;
    result_.accumulation = kDefaultAccumulation;
    result_.ran_on = c_.backend.runs_on_cpu() ? ResultDevice::cpu : ResultDevice::gpu;
    options_ = c_.config.backend_options;
    options_.math = c_.math;
    options_.variant = c_.variant;
    measure_ = measure_options_for(c_.backend, c_.config);
  }

  Result run() {
    try {
      if (admit() && prepare() && verify() && time() && verify_fresh_inputs()) finish_ok();
    } catch (const UnsupportedProblem& e) {
      end(ResultStatus::unsupported, e.what());
    } catch (const std::bad_alloc& e) {
      // What the admission's estimate missed: named, so the run's other results stand and the reader
      // knows which buffer did not fit.
      end(ResultStatus::failed,
          fmt::format("out of host memory allocating {}{} ({})", allocating_.what,
                      allocating_.bytes > 0 ? fmt::format(" ({})", format_memory(allocating_.bytes)) : "", e.what()));
    } catch (const std::exception& e) {
      end(ResultStatus::failed, e.what());
    }
    return result_;
  }

 private:
  const ConvProblem& problem() const { return c_.workload.problem; }

  bool end(ResultStatus status, std::string reason) {
    result_.status = status;
    result_.reason = std::move(reason);
    return false;
  }

  // Whether the backend can run this here: available, supported, fits memory (and for the CPU, the budget).
  bool admit() {
    if (Support s = c_.backend.available(); !s) return end(ResultStatus::unavailable, s.reason);
    if (!c_.variant.empty())
      if (Support s = c_.backend.variant_available(c_.variant); !s) return end(ResultStatus::unavailable, s.reason);
    if (Support s = c_.backend.supports(problem(), options_); !s) return end(ResultStatus::unsupported, s.reason);
    if (Support s = c_.backend.fits(problem(), options_); !s) return end(ResultStatus::skipped, s.reason);
    if (c_.backend.runs_on_cpu() && c_.entry.timed)
      if (Support s = cpu_budget_check(problem(), c_.config, measure_); !s) return end(ResultStatus::skipped, s.reason);
    return host_memory_admits();
  }

  // Whether the host buffers this result will hold fit; a full check that would not fit beside them
  // gives way to a sampled one first.
  bool host_memory_admits() {
    const std::optional<std::int64_t> available = reference::available_host_memory();
    Support fits = host_memory_fits(host_memory_need(), available, reference::available_host_memory_source());
    if (!fits && !c_.expected.computed() && c_.expected.would_be_full()) {
      c_.expected.sample_only();
      fits = host_memory_fits(host_memory_need(), available, reference::available_host_memory_source());
    }
    return fits ? true : end(ResultStatus::skipped, fits.reason);
  }

  // The host buffers this result will hold beside what is held already.
  HostMemoryNeed host_memory_need() const {
    HostMemoryNeed need;
    const double computed = static_cast<double>(computed_elements(problem()));
    if (c_.backend.runs_on_cpu()) need.add(fmt::format("{}'s tensors", c_.backend.name()), host_backend_bytes());
    need.add("the fp64 reference of the check", c_.expected.bytes_to_compute());
    if (c_.expected.would_be_full()) need.add("the output read back for the check", 4 * computed);
    if (c_.dump && c_.dump->within_limit(computed_elements(problem())))
      need.add("the output --dump writes", 2 * 4 * computed);  // read back, then converted to its dtype
    return need;
  }

  // A host backend's operands in fp32 and its output in fp64 and fp32 (the reference's own buffers; what a
  // host backend keeps at most).
  double host_backend_bytes() const {
    return operand_bytes(problem()) + 12.0 * static_cast<double>(computed_elements(problem()));
  }

  bool prepare() {
    allocating_ = {fmt::format("{}'s buffers", c_.backend.name()), c_.backend.runs_on_cpu() ? host_backend_bytes() : 0};
    run_ = c_.backend.prepare(problem(), options_);
    result_.implementation = run_->implementation();
    result_.math_used = reported_math(problem().dtype, run_->math_used() == MathMode::tf32);
    result_.properties = run_->properties();
    for (const auto& [key, value] : result_.properties)
      if (key == "accumulation") result_.accumulation = value;  // the reference's fp64
    return true;
  }

  // Against the error bound, with each element's bias where the bound counts a rounding before it
  // (computed per check: cheap beside the reference, and held only for the backends that need it).
  Comparison compare_with_bound(std::span<const float> got, ExpectedValues expected, const ErrorBound& bound,
                                std::uint64_t seed, std::span<const std::int64_t> points) const {
    std::vector<double> biases;
    if (bound.output_rounding == OutputRounding::bias_added_after) {
      biases = biases_at(problem(), seed, points);
      expected.biases = biases;
    }
    return compare_outputs(got, expected, bound);
  }

  // Fresh seeded inputs, a poisoned output, one execution: what every check of the output starts from.
  // Returns the execution's wall time.
  double execute_on(std::uint64_t seed) {
    allocating_ = {fmt::format("{}'s run", c_.backend.name()), 0};
    run_->fill_inputs(seed);
    run_->poison_output();
    const auto start = std::chrono::steady_clock::now();
    run_->run();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  // A CPU run is admitted on an estimate from a small problem's rate, which can be 2x off on a big one:
  // the verification run's own time corrects it before the samples start, so a run that cannot take the
  // protocol's minimum of samples within the budget is skipped with the measured figure, not reported
  // as a median of one sample.
  bool fits_budget_measured() {
    if (!c_.backend.runs_on_cpu() || !c_.entry.timed) return true;
    const int runs = measure_.warmups + measure_.discarded + std::min(measure_.min_samples, measure_.iterations);
    if (first_run_s_ * runs <= c_.config.measure.time_budget_s) return true;
    return end(ResultStatus::skipped,
               fmt::format("one run took {} here (verified), so {} more runs (warm-up and the minimum of {} samples) "
                           "need about {}, over the --time-budget of {} per workload and backend",
                           format_seconds(first_run_s_), runs, std::min(measure_.min_samples, measure_.iterations),
                           format_seconds(first_run_s_ * runs), format_seconds(c_.config.measure.time_budget_s)));
  }

  // Against the fp64 reference, in full or at its sampled points.
  bool verify() {
    first_run_s_ = execute_on(c_.config.seed);
    Verification verification;
    allocating_ = {"the fp64 reference of the check", c_.expected.bytes_to_compute()};
    const std::vector<std::int64_t>& points = c_.expected.points();
    allocating_ = {"the output read back for the check",
                   4.0 * static_cast<double>(points.empty() ? computed_elements(problem()) : points.size())};
    const auto got = run_->read_output(points);
    verification.full = c_.expected.full();
    const ExpectedValues expected = c_.expected.values();
    if (c_.config.tolerance) {
      verification.tolerance = *c_.config.tolerance;
      verification.comparison = compare_outputs(got, expected.values, *verification.tolerance);
    } else {
      verification.bound = error_bound_for(problem(), c_.math, run_->output_rounding());
      verification.comparison =
          compare_with_bound(got, expected, *verification.bound, c_.config.seed, c_.expected.points());
    }
    verification.kernelbench_rule =
        KernelBenchRule{default_tolerance(c_.math), compare_outputs(got, expected.values, default_tolerance(c_.math))};
    verification.inputs_unchanged = run_->inputs_unchanged();
    result_.verification = verification;
    if (c_.dump && c_.dump->accepts_output(result_, computed_elements(problem()))) {
      allocating_ = {"the output --dump writes", 2 * 4.0 * static_cast<double>(computed_elements(problem()))};
      c_.dump->add_output(result_, c_.expected.full() ? got : run_->read_output({}));
    }

    if (!verification.inputs_unchanged) return end(ResultStatus::wrong, "the backend modified its inputs");
    if (verification.comparison.passed()) return true;
    const Comparison& cmp = verification.comparison;
    const std::int64_t where =
        c_.expected.full() ? cmp.first_mismatch : c_.expected.points()[static_cast<std::size_t>(cmp.first_mismatch)];
    return end(ResultStatus::wrong,
               fmt::format("{} of {} checked elements out of {}; first at {} index {}: got {:g}, expected {:g}, "
                           "allowed error {:.3g}",
                           cmp.mismatches, cmp.checked, verification.criterion(), computed_name(problem()), where,
                           cmp.first_mismatch_got,
                           cmp.first_mismatch_expected, cmp.first_mismatch_allowed));
  }

  bool time() {
    if (!fits_budget_measured()) return false;
    if (c_.entry.timed)
      result_.timing = measure(*run_, measure_, c_.stop, [observer = c_.observer](int taken) {
        if (observer) observer->on_sample(taken);
      });
    for (std::string& warning : run_->warnings()) result_.warnings.push_back(std::move(warning));
    return true;
  }

  // Fresh inputs after timing: the output must follow them (no replayed results, no state kept).
  bool verify_fresh_inputs() {
    const std::uint64_t fresh_seed = data::mix64(c_.config.seed ^ 0xf4e5'1234'abcd'0001ULL);
    const std::int64_t wanted = std::min<std::int64_t>(c_.config.verify_points, 1024);
    const auto points = choose_check_points(
        problem(), sampled_point_count(problem(), wanted, c_.config.full_verify_max_s), fresh_seed);
    execute_on(fresh_seed);
    const auto got = run_->read_output(points);
    const Verification& first = *result_.verification;
    const Comparison fresh =
        first.tolerance
            ? compare_outputs(got, reference::convolve_at_seeded(problem(), fresh_seed, points), *first.tolerance)
            : compare_with_bound(got, reference_at(problem(), fresh_seed, points).view(), *first.bound, fresh_seed,
                                 points);
    result_.verification->fresh_inputs = fresh;
    result_.verification->fresh_inputs_seed = fresh_seed;
    if (fresh.passed() && run_->inputs_unchanged()) return true;
    result_.timing.reset();
    return end(ResultStatus::wrong,
               fmt::format("the output does not follow fresh inputs: {} of {} elements out of {} on the second "
                           "verification (seed {}){}",
                           fresh.mismatches, fresh.checked, first.criterion(), fresh_seed,
                           run_->inputs_unchanged() ? "" : "; the inputs were modified"));
  }

  void finish_ok() {
    result_.status = ResultStatus::ok;
    if (result_.timing && result_.ran_on == ResultDevice::gpu) flag_if_faster_than_floor(result_, c_.floor);
  }

  // What the result is allocating now, for the message of a std::bad_alloc.
  struct Allocation {
    std::string what;
    double bytes = 0;
  };

  const ResultContext& c_;
  Allocation allocating_{"its buffers", 0};
  Result result_;
  BackendOptions options_;
  MeasureOptions measure_;
  std::unique_ptr<PreparedRun> run_;
  double first_run_s_ = 0;  // the verification run's wall time
};

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
  const DType dtype = workload.problem.dtype;  // half data: both floors at its tensor rate
  summary.floor_fp32 = compute_floor(summary.metrics, peaks, MathMode::fp32, dtype);
  summary.floor_tf32 = compute_floor(summary.metrics, peaks, MathMode::tf32, dtype);
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
  report.host_cpu = host_cpu_description();
  report.peaks = config.peaks;
  report.peaks_from_target = config.peaks_from_target;
  report.device = config.device_description;
  report.settings.math_modes = config.math_modes;
  report.settings.seed = config.seed;
  report.settings.measure = config.measure;
  report.settings.verify_points = config.verify_points;
  for (const auto& request : config.backends)
    report.settings.backends.push_back(request.backend + (request.all_variants      ? ":all"
                                                          : request.variant.empty() ? ""
                                                                                    : ":" + request.variant));
  const auto entries = select_backends(registry, config, report);
  for (const auto& entry : entries)
    for (std::string& note : entry.backend->environment_notes())
      if (std::find(report.notes.begin(), report.notes.end(), note) == report.notes.end())
        report.notes.push_back(std::move(note));
  if (config.shard.count > 1)
    report.notes.push_back(
        fmt::format("--shard {}: this document holds one of {} parts of the run's results; `kbench "
                    "merge` joins the parts",
                    config.shard.text(), config.shard.count));
  if (std::string note = math_modes_note(workloads, config.math_modes); !note.empty())
    report.notes.push_back(std::move(note));
  const auto stopped = [&] { return stop && stop->load(); };

  const int count = static_cast<int>(workloads.size());
  // The (workload, backend, math mode) items in run order, numbered for --shard; every shard still
  // lists every workload's analysis, which `kbench merge` relies on. A half workload has one math mode
  // (math_policy.hpp), so its items are fewer; the numbering is still a function of the inputs alone.
  std::size_t item = 0;
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

    const std::vector<MathMode> maths = math_modes_for(workload.problem, config.math_modes);
    for (const auto& entry : entries) {
      for (MathMode math : maths) {
        if (!config.shard.selects(item++)) continue;
        for (const auto& variant : variants_for(entry, workload.problem, config, math)) {
          if (stopped()) break;
          const std::string label = entry.backend->name() + (variant.empty() ? "" : ":" + variant);
          if (observer) observer->on_start(index, count, label);
          const ResultContext context{.workload = workload,
                                      .backend = *entry.backend,
                                      .entry = entry,
                                      .variant = variant,
                                      .math = math,
                                      .config = config,
                                      .expected = expected,
                                      .dump = dump ? &*dump : nullptr,
                                      .floor = summary.floor_for(math),
                                      .stop = stop,
                                      .observer = observer};
          report.results.push_back(ResultRun(context).run());
          if (observer) observer->on_result(report);
        }
      }
    }
    if (dump) {
      if (expected.computed() && expected.full()) dump->add_reference(expected.reference());
      dump->finish(report);
    }
    if (observer && !stopped()) observer->on_workload_finished(report);
  }
  report.interrupted = stopped();
  report.peak_rss_bytes = peak_rss_bytes().value_or(0);
  return report;
}

}  // namespace kbench
