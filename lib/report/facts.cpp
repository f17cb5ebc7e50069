#include "report/facts.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "report/format.hpp"
#include "report/result_view.hpp"

namespace kbench::report {

namespace {

std::string join_modes(const std::vector<MathMode>& modes) {
  std::vector<std::string_view> names;
  for (MathMode math : modes) names.push_back(to_string(math));
  return fmt::format("{}", fmt::join(names, ", "));
}

// The half rates are shown only when some workload is fp16 or bf16, so fp32 reports read as they did.
bool has_half_workload(const RunReport& report) {
  for (const WorkloadSummary& summary : report.workloads)
    if (summary.workload.problem.dtype != DType::fp32) return true;
  return false;
}

std::string peaks_text(const DevicePeaks& peaks, bool half) {
  std::string text = peaks.name.empty() ? "unknown device" : peaks.name;
  if (!peaks.source.empty()) text += fmt::format(" ({})", peaks.source);
  text += ": " + peak_rates_text(peaks, ", ");
  if (half) text += ", " + half_rates_text(peaks);
  if (peaks.sms > 0) text += fmt::format(", {} SMs", peaks.sms);
  if (peaks.l2_bytes > 0) text += fmt::format(", L2 {}", format_quantity(peaks.l2_bytes, "B"));
  return text;
}

std::string floor_text(const Floor& floor) {
  return fmt::format("{}, {} binds (memory {}, compute {} by {})", format_duration(floor.floor_s), floor.binds,
                     format_duration(floor.memory_s), format_duration(floor.compute_s), to_string(floor.compute_units));
}

// "3 to 100 per timed result (fewest: reference on cli-small-conv2d)": what the medians rest on, counted
// from the results, since the budget stops sampling before --iterations.
std::string samples_text(const RunReport& report) {
  const Result* fewest = nullptr;
  std::int64_t most = 0;
  for (const Result& r : report.results)
    if (const Measurement* m = shown_timing(r)) {
      if (!fewest || m->stats.count < fewest->timing->stats.count) fewest = &r;
      most = std::max<std::int64_t>(most, m->stats.count);
    }
  if (!fewest) return "";
  const std::int64_t least = fewest->timing->stats.count;
  if (least == most) return fmt::format("{} per timed result", least);
  return fmt::format("{} to {} per timed result (fewest: {} on {})", least, most, result_label(*fewest), fewest->workload);
}

}  // namespace

std::string peak_rates_text(const DevicePeaks& peaks, std::string_view separator) {
  std::string fp32 = format_flop_rate(peaks.fp32_flops);
  if (peaks.compute_units_for(MathMode::fp32) == ComputeUnits::split_tf32)
    fp32 += fmt::format(" (3xTF32 {})", format_flop_rate(peaks.fp32_accurate_flops()));
  return fmt::format("memory {}{}fp32 {}{}tf32 {}", format_bandwidth(peaks.bandwidth_Bps), separator, fp32, separator,
                     format_flop_rate(peaks.tf32_flops));
}

std::string half_rates_text(const DevicePeaks& peaks) {
  const double fp16 = peaks.half_tensor_flops(DType::fp16);
  const double bf16 = peaks.half_tensor_flops(DType::bf16);
  const std::string tensor =
      fp16 == bf16 ? fmt::format("fp16/bf16 tensor {}", format_flop_rate(fp16))
                   : fmt::format("fp16 tensor {}, bf16 tensor {}", format_flop_rate(fp16), format_flop_rate(bf16));
  return fmt::format("{}, fp16 without tensor cores {}", tensor, format_flop_rate(peaks.fp16_vector_flops()));
}

std::vector<Fact> run_facts(const RunReport& report) {
  std::vector<Fact> facts;
  if (report.peaks_from_target)
    facts.push_back({"gpu", fmt::format("{} — floors for target {} ({})", report.device.empty() ? "none" : report.device,
                                        report.peaks.name, report.peaks.source)});
  else
    facts.push_back({"gpu", report.device});
  if (!report.host_cpu.empty()) facts.push_back({"cpu", report.host_cpu});
  facts.push_back({"peaks", peaks_text(report.peaks, has_half_workload(report))});
  if (!report.build.empty()) facts.push_back({"build", report.build});

  const RunSettings& s = report.settings;
  const MeasureOptions& m = s.measure;
  // Each protocol that timed a result of this report, named by its device: a CPU timing is not a GPU's.
  for (ResultDevice device : result_devices(report))
    facts.push_back({fmt::format("{} timing", to_string(device)),
                     fmt::format("{} · budget {} per result", protocol_text(m, device), format_duration(m.time_budget_s))});
  if (std::string samples = samples_text(report); !samples.empty()) facts.push_back({"samples", std::move(samples)});
  facts.push_back(
      {"run", fmt::format("seed {} · math {} · backends {} · verify {} sampled outputs if a full check is too slow",
                          s.seed, s.math_modes.empty() ? "fp32" : join_modes(s.math_modes),
                          s.backends.empty() ? "all available" : fmt::format("{}", fmt::join(s.backends, ", ")),
                          s.verify_points)});
  for (const std::string& note : report.notes) facts.push_back({"note", note});
  return facts;
}

std::vector<Fact> workload_facts(const RunReport& report, const WorkloadSummary& summary) {
  const ConvProblem& p = summary.workload.problem;
  const ProblemMetrics& metrics = summary.metrics;
  std::vector<Fact> facts;
  facts.push_back({"problem", describe(p)});
  facts.push_back({"shapes", fmt::format("input {} · weight {} · output {}", shape_string(input_shape(p)),
                                         shape_string(weight_shape(p)), shape_string(output_shape(p)))});
  if (p.pass != Pass::forward) facts.push_back({"computes", fmt::format("{} ({})", computed_text(p), to_string(p.pass))});
  std::string bytes = fmt::format("input {}, weight {}", format_quantity(metrics.input_bytes, "B"),
                                  format_quantity(metrics.weight_bytes, "B"));
  if (metrics.bias_bytes > 0) bytes += fmt::format(", bias {}", format_quantity(metrics.bias_bytes, "B"));
  bytes += fmt::format(", output {}", format_quantity(metrics.output_bytes, "B"));
  facts.push_back({"work", fmt::format("{} · {} ({}) · {} FLOP/B", format_quantity(metrics.flops, "FLOP"),
                                       format_quantity(metrics.bytes(), "B"), bytes,
                                       format_significant(metrics.arithmetic_intensity()))});
  if (summary.workload.count != 1)
    facts.push_back({"count", fmt::format("{} (times the model runs it; the suite total weights its time by this)",
                                          summary.workload.count)});
  if (summary.batch_overridden)
    facts.push_back({"batch", fmt::format("N={} (--batch; the spec says N={})", p.batch, summary.spec_batch)});
  for (MathMode math : math_modes_for(report, summary.workload.name))
    facts.push_back({fmt::format("floor {}", to_string(math)), floor_text(summary.floor_for(math))});
  facts.push_back(
      {std::string(kPublishedFloorLabel),
       fmt::format("{} (headroom-v1; no compute term)", format_duration(summary.floor_fp32.published_input_only_s))});
  return facts;
}

}  // namespace kbench::report
