#include "report/result_view.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "report/format.hpp"

namespace kbench::report {

const Measurement* shown_timing(const Result& result) {
  if (result.status != ResultStatus::ok || !result.timing || result.timing->stats.count <= 0) return nullptr;
  return &*result.timing;
}

ResultView view_result(const Result& result, const RunReport& report) {
  ResultView view;
  view.result = &result;
  view.summary = report.find_workload(result.workload);
  view.timing = shown_timing(result);
  const MeasureOptions& m = report.settings.measure;
  view.below_minimum = view.timing && view.timing->stats.count < std::min(m.min_samples, m.iterations);
  if (view.summary) {
    const Floor& floor = view.summary->floor_for(result.math_used);
    if (floor.floor_s > 0) view.floor_s = floor.floor_s;
  }
  if (view.timing && view.timing->stats.median > 0) {
    // The floors are a GPU's: a CPU result 10^4 above them says nothing about either.
    if (view.floor_s && result.ran_on == ResultDevice::gpu)
      view.headroom = headroom(view.timing->stats.median, view.summary->floor_for(result.math_used));
    if (view.summary) {
      view.achieved_flops = result.achieved_flops(view.summary->metrics);
      view.achieved_Bps = result.achieved_Bps(view.summary->metrics);
    }
  }
  return view;
}

Tone tone_of(ResultStatus status) {
  switch (status) {
    case ResultStatus::ok: return Tone::good;
    case ResultStatus::wrong:
    case ResultStatus::failed: return Tone::bad;
    case ResultStatus::unsupported:
    case ResultStatus::unavailable:
    case ResultStatus::skipped: return Tone::warn;
  }
  return Tone::plain;
}

std::vector<MathMode> math_modes_for(const RunReport& report, const std::string& workload) {
  // A half workload runs at fp32 alone (run/math_policy.hpp), and both its floors are the same.
  if (const WorkloadSummary* summary = report.find_workload(workload))
    if (summary->workload.problem.dtype != DType::fp32) return {MathMode::fp32};
  bool fp32 = false;
  bool tf32 = false;
  const auto mark = [&](MathMode math) { (math == MathMode::tf32 ? tf32 : fp32) = true; };
  for (MathMode math : report.settings.math_modes) mark(math);
  for (const Result& result : report.results) {
    if (result.workload != workload) continue;
    mark(result.math_requested);
    if (result.status == ResultStatus::ok) mark(result.math_used);
  }
  std::vector<MathMode> modes;
  if (fp32 || !tf32) modes.push_back(MathMode::fp32);
  if (tf32) modes.push_back(MathMode::tf32);
  return modes;
}

std::vector<ResultDevice> result_devices(const RunReport& report) {
  std::vector<ResultDevice> devices;
  for (const Result& result : report.results)
    if (std::find(devices.begin(), devices.end(), result.ran_on) == devices.end()) devices.push_back(result.ran_on);
  if (devices.empty()) devices.push_back(ResultDevice::gpu);
  return devices;
}

std::string device_name(const RunReport& report, ResultDevice device) {
  if (device == ResultDevice::cpu) return report.host_cpu.empty() ? "the host's CPU" : report.host_cpu;
  return report.device.empty() ? "unknown GPU" : report.device;
}

std::string protocol_text(const MeasureOptions& m, ResultDevice device) {
  if (device == ResultDevice::cpu)
    return fmt::format("CPU clock · up to {} iterations after {} warm-up{}, none discarded · no cache flush",
                       m.iterations, std::min(m.warmups, 1), std::min(m.warmups, 1) == 1 ? "" : "s");
  return fmt::format("CUDA events · {} iterations after {} warm-ups and {} discarded · {} · {}", m.iterations,
                     m.warmups, m.discarded, m.timing.cold ? "L2 flushed before each sample" : "warm L2",
                     m.timing.graph ? "CUDA graph replay" : "stream launches");
}

std::string device_line(const RunReport& report, ResultDevice device) {
  const MeasureOptions& m = report.settings.measure;
  const std::string how = device == ResultDevice::cpu ? "CPU clock, no flush"
                          : m.timing.graph            ? "CUDA events, graph replay"
                                                      : (m.timing.cold ? "CUDA events, L2 flushed" : "CUDA events, warm L2");
  // Without a GPU the line says so briefly; the header's gpu line and each result's reason say why.
  if (device == ResultDevice::gpu && report.peaks_from_target)
    return fmt::format("on GPU: none on this machine (floors for --target {})", report.peaks.name);
  return fmt::format("on {}: {} ({})", device == ResultDevice::cpu ? "CPU" : "GPU", device_name(report, device), how);
}

std::vector<const Result*> results_for(const RunReport& report, const std::string& workload) {
  std::vector<const Result*> found;
  for (const Result& result : report.results)
    if (result.workload == workload) found.push_back(&result);
  return found;
}

ResultsByWorkload::ResultsByWorkload(const RunReport& report) {
  for (const Result& result : report.results) groups_[result.workload].push_back(&result);
}

const std::vector<const Result*>& ResultsByWorkload::of(const std::string& workload) const {
  const auto group = groups_.find(workload);
  return group == groups_.end() ? none_ : group->second;
}

std::vector<std::string> unsummarized_workloads(const RunReport& report) {
  std::vector<std::string> names;
  for (const Result& result : report.results)
    if (!report.find_workload(result.workload) && std::find(names.begin(), names.end(), result.workload) == names.end())
      names.push_back(result.workload);
  return names;
}

std::string result_label(const Result& result) {
  std::string label = result.backend;
  const std::string& what = result.implementation.empty() ? result.variant : result.implementation;
  if (!what.empty()) label += "/" + what;
  const bool ran = result.status == ResultStatus::ok || result.status == ResultStatus::wrong;
  label += fmt::format(" {}", to_string(ran ? result.math_used : result.math_requested));
  return label;
}

std::vector<Column> result_columns() {
  // At a narrow terminal the byte rate goes first, then the verification figures, then the spread
  // (every one of them is in --format json); the median, its rate and ×floor always stay.
  return {
      {"backend", Align::left, true, 9},  // "reference" stays whole
      {"implementation", Align::left, true, 12},
      {"math", Align::left, false, 4},
      {"status", Align::left, false, 6},
      {"median", Align::right, false, 6},
      {"spread", Align::right, false, 6, 2},
      {"FLOP/s", Align::right, false, 6},
      {"B/s", Align::right, false, 4, 4},
      {"×floor", Align::right, false, 6},
      {"err/checked", Align::left, false, 11, 3},
  };
}

namespace {

// One format at every sample count: the standard deviation as a percentage of the median (nvbench's
// "noise"), two significant figures; nothing for one sample.
std::string spread_text(const Statistics& stats) {
  if (stats.count < 2 || !(stats.median > 0)) return "";
  return "±" + format_significant(100 * stats.stdev / stats.median, 2) + "%";
}

std::string verification_text(const Verification& verification) {
  const Comparison& c = verification.comparison;
  const std::string error = c.max_abs_error == 0 ? "0" : fmt::format("{:.1e}", c.max_abs_error);
  // '*' marks a sample of the output rather than every element.
  return fmt::format("{}/{}{}", error, format_count(c.checked), verification.full ? "" : "*");
}

// What ran, without a repeat of the backend column ("cudnn" + "cudnn:IMPLICIT_GEMM" shows as
// "IMPLICIT_GEMM"): the implementation column is the one cut when the table is too wide.
std::string implementation_text(const Result& result) {
  const std::string& what = result.implementation.empty() ? result.variant : result.implementation;
  const std::string prefix = result.backend + ":";
  if (what.size() > prefix.size() && what.compare(0, prefix.size(), prefix) == 0) return what.substr(prefix.size());
  return what;
}

}  // namespace

// GCC 12 warns (-Wrestrict) inside std::string's operator+ once it is inlined here, a false positive
// (GCC bug 105329) seen only from a fresh build directory; the build fails on any warning.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ == 12
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wrestrict"
#endif
ResultRow result_row(const ResultView& view) {
  const Result& r = *view.result;
  ResultRow row;
  row.cells.push_back({r.backend, Tone::plain});
  row.cells.push_back({implementation_text(r), Tone::plain});
  if (r.status != ResultStatus::ok) {
    // Nothing ran to completion correctly: the math shown is what was asked for, and the numbers'
    // place holds the status and why.
    const bool ran = r.status == ResultStatus::wrong;
    row.cells.push_back({std::string(to_string(ran ? r.math_used : r.math_requested)), Tone::plain});
    std::string tail(to_string(r.status));
    if (!r.reason.empty()) tail += ": " + r.reason;
    row.tail = Cell{tail, tone_of(r.status)};
    return row;
  }
  row.cells.push_back({std::string(to_string(r.math_used)), Tone::plain});
  row.cells.push_back({"ok", Tone::good});
  if (view.timing) {
    const Statistics& stats = view.timing->stats;
    row.cells.push_back({(view.below_minimum ? "~" : "") + format_duration(stats.median), Tone::plain});
    row.cells.push_back({spread_text(stats), Tone::plain});
  } else {
    row.cells.push_back({});
    row.cells.push_back({});
  }
  row.cells.push_back({view.achieved_flops ? format_scaled(*view.achieved_flops) : "", Tone::plain});
  row.cells.push_back({view.achieved_Bps ? format_scaled(*view.achieved_Bps) : "", Tone::plain});
  row.cells.push_back({view.headroom ? format_ratio(*view.headroom) : "", Tone::plain});
  row.cells.push_back({r.verification ? verification_text(*r.verification) : "", Tone::plain});
  return row;
}
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ == 12
#pragma GCC diagnostic pop
#endif

std::vector<std::string> result_notes(const ResultView& view) {
  const Result& r = *view.result;
  std::vector<std::string> notes;
  const std::string label = result_label(r);
  const bool ran = r.status == ResultStatus::ok || r.status == ResultStatus::wrong;
  if (ran && r.math_used != r.math_requested)
    notes.push_back(fmt::format("{}: {} was requested; the backend ran {}", label, to_string(r.math_requested),
                                to_string(r.math_used)));
  if (r.verification) {
    const Verification& v = *r.verification;
    if (!v.inputs_unchanged && r.status == ResultStatus::ok)
      notes.push_back(fmt::format("{}: the backend modified its inputs", label));
    if (v.bound && ran)
      notes.push_back(
          fmt::format("{}: worst element at {:.2g} of its error bound (c = {:.2g} at uniform terms, n = {})", label,
                      v.comparison.max_error_ratio, v.bound->c_uniform(), v.bound->reduction_length));
    if (v.kernelbench_rule && ran && v.kernelbench_rule->comparison.passed() != v.comparison.passed())
      notes.push_back(fmt::format("{}: KernelBench's rule (atol {:g}, rtol {:g}) would have {} it", label,
                                  v.kernelbench_rule->tolerance.atol, v.kernelbench_rule->tolerance.rtol,
                                  v.kernelbench_rule->comparison.passed() ? "passed" : "failed"));
  }
  if (view.timing) {
    const Measurement& m = *view.timing;
    if (m.throttled_samples > 0)
      notes.push_back(
          fmt::format("{}: {} of {} samples ran at a reduced clock", label, m.throttled_samples, m.stats.count));
    if (view.below_minimum)
      notes.push_back(fmt::format("{}: ~ only {} sample{}, under the protocol's minimum of {} (a run stopped by "
                                  "Ctrl-C, or an older document): a rough figure, not a measurement",
                                  label, m.stats.count, m.stats.count == 1 ? "" : "s", MeasureOptions{}.min_samples));
    else if (m.budget_exhausted)
      notes.push_back(fmt::format("{}: the time budget ran out after {} samples", label, m.stats.count));
  }
  if (r.verification && r.verification->fresh_inputs && r.status == ResultStatus::ok)
    notes.push_back(fmt::format("{}: re-verified on fresh inputs after timing ({} elements)", label,
                                r.verification->fresh_inputs->checked));
  for (const auto& warning : r.warnings) notes.push_back(fmt::format("{}: {}", label, warning));
  if (!r.properties.empty()) {
    std::string text = label + ":";
    for (std::size_t i = 0; i < r.properties.size(); ++i)
      text += fmt::format("{} {}={}", i == 0 ? "" : ",", r.properties[i].first, r.properties[i].second);
    notes.push_back(text);
  }
  return notes;
}

}  // namespace kbench::report
