#include "report/merge.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.hpp"

namespace kbench {

namespace {

// The first setting (by its JSON name) in which `b` differs from `a`, with both values, or nothing.
struct Mismatch {
  std::string field;
  std::string a, b;
};

template <typename T>
void compare_field(std::optional<Mismatch>& found, std::string_view field, const T& a, const T& b) {
  if (!found && !(a == b)) found = Mismatch{std::string(field), fmt::format("{}", a), fmt::format("{}", b)};
}

std::vector<std::string> math_names(const std::vector<MathMode>& modes) {
  std::vector<std::string> names;
  for (MathMode m : modes) names.emplace_back(to_string(m));
  return names;
}

// What makes two runs' numbers comparable; named as docs/json-schema.md names the keys.
std::optional<Mismatch> find_mismatch(const RunReport& a, const RunReport& b) {
  std::optional<Mismatch> m;
  compare_field(m, "kbench_version", a.kbench_version, b.kbench_version);
  const RunSettings &sa = a.settings, &sb = b.settings;
  compare_field(m, "settings.seed", sa.seed, sb.seed);
  compare_field(m, "settings.math_modes", fmt::format("{}", fmt::join(math_names(sa.math_modes), ",")),
                fmt::format("{}", fmt::join(math_names(sb.math_modes), ",")));
  compare_field(m, "settings.backends", fmt::format("{}", fmt::join(sa.backends, ",")),
                fmt::format("{}", fmt::join(sb.backends, ",")));
  compare_field(m, "settings.warmups", sa.measure.warmups, sb.measure.warmups);
  compare_field(m, "settings.discarded", sa.measure.discarded, sb.measure.discarded);
  compare_field(m, "settings.iterations", sa.measure.iterations, sb.measure.iterations);
  compare_field(m, "settings.time_budget_s", sa.measure.time_budget_s, sb.measure.time_budget_s);
  compare_field(m, "settings.cold", sa.measure.timing.cold, sb.measure.timing.cold);
  compare_field(m, "settings.graph", sa.measure.timing.graph, sb.measure.timing.graph);
  compare_field(m, "settings.verify_points", sa.verify_points, sb.verify_points);
  const DevicePeaks &pa = a.peaks, &pb = b.peaks;
  compare_field(m, "peaks.name", pa.name, pb.name);
  compare_field(m, "peaks.source", pa.source, pb.source);
  compare_field(m, "peaks.bandwidth_GBps", pa.bandwidth_Bps / 1e9, pb.bandwidth_Bps / 1e9);
  compare_field(m, "peaks.fp32_TFLOPs", pa.fp32_flops / 1e12, pb.fp32_flops / 1e12);
  compare_field(m, "peaks.tf32_TFLOPs", pa.tf32_flops / 1e12, pb.tf32_flops / 1e12);
  // As the floors use them: a document without the keys has the derived rates (DevicePeaks).
  compare_field(m, "peaks.fp16_tensor_TFLOPs", pa.half_tensor_flops(DType::fp16) / 1e12,
                pb.half_tensor_flops(DType::fp16) / 1e12);
  compare_field(m, "peaks.bf16_tensor_TFLOPs", pa.half_tensor_flops(DType::bf16) / 1e12,
                pb.half_tensor_flops(DType::bf16) / 1e12);
  compare_field(m, "floors_for_target", a.peaks_from_target, b.peaks_from_target);
  return m;
}

// Two descriptions of one workload name must be the same workload: same problem, same --batch override.
std::optional<std::string> workload_difference(const WorkloadSummary& a, const WorkloadSummary& b) {
  if (!(a.workload.problem == b.workload.problem)) return "problem";
  if (a.batch_overridden != b.batch_overridden || a.spec_batch != b.spec_batch) return "batch_overridden";
  if (a.workload.sweep_origin != b.workload.sweep_origin) return "sweep";
  if (a.workload.count != b.workload.count) return "count";
  return std::nullopt;
}

// Where a result stands in the backends asked for ("cudnn:all" ranks every cudnn variant). With no
// list (every available backend), the order the backends first appear in the documents.
std::size_t backend_rank(const RunSettings& settings, const std::vector<std::string>& seen, const Result& result) {
  if (settings.backends.empty())
    return static_cast<std::size_t>(std::find(seen.begin(), seen.end(), result.backend) - seen.begin());
  for (std::size_t i = 0; i < settings.backends.size(); ++i) {
    const std::string& request = settings.backends[i];
    const std::size_t colon = request.find(':');
    const std::string name = request.substr(0, colon);
    const std::string variant = colon == std::string::npos ? "" : request.substr(colon + 1);
    if (name == result.backend && (variant == "all" || variant == result.variant)) return i;
  }
  return settings.backends.size();
}

std::size_t math_rank(const RunSettings& settings, MathMode math) {
  const auto it = std::find(settings.math_modes.begin(), settings.math_modes.end(), math);
  return static_cast<std::size_t>(it - settings.math_modes.begin());
}

// Appends `note` unless it is there already (notes, hosts, backends: each once, in first-seen order).
void add_note(std::vector<std::string>& notes, const std::string& note) {
  if (std::find(notes.begin(), notes.end(), note) == notes.end()) notes.push_back(note);
}

}  // namespace

RunReport merge_reports(const std::vector<NamedReport>& reports) {
  if (reports.empty()) throw InputError("merge: no results documents given; expected at least one");
  const NamedReport& first = reports.front();
  RunReport merged = first.report;
  merged.workloads.clear();
  merged.results.clear();
  merged.notes.clear();
  merged.write_failures.clear();

  std::map<std::string, std::size_t> workload_index;  // name -> position in merged.workloads
  std::map<std::string, std::string> described_in;    // name -> the file that first described it
  std::vector<std::string> hosts, devices;
  for (const NamedReport& named : reports) {
    const RunReport& r = named.report;
    if (const auto m = find_mismatch(first.report, r))
      throw InputError(
          fmt::format("merge: {} and {} differ in {} ({} vs {}); expected documents of runs with the "
                      "same kbench version, settings and peaks",
                      first.origin, named.origin, m->field, m->a, m->b));
    for (const WorkloadSummary& w : r.workloads) {
      const auto [it, inserted] = workload_index.emplace(w.workload.name, merged.workloads.size());
      if (inserted) {
        merged.workloads.push_back(w);
        described_in.emplace(w.workload.name, named.origin);
      } else if (const auto field = workload_difference(merged.workloads[it->second], w)) {
        throw InputError(
            fmt::format("merge: workload '{}' is described differently by {} and {} (its {}); "
                        "expected one workload per name",
                        w.workload.name, described_in.at(w.workload.name), named.origin, *field));
      }
    }
    merged.results.insert(merged.results.end(), r.results.begin(), r.results.end());
    for (const std::string& note : r.notes) add_note(merged.notes, note);
    merged.interrupted = merged.interrupted || r.interrupted;
    merged.started_at = std::min(merged.started_at, r.started_at);  // ISO 8601 UTC sorts as text
    add_note(hosts, r.host);
    add_note(devices, r.device);
    merged.peak_rss_bytes = std::max(merged.peak_rss_bytes, r.peak_rss_bytes);  // each part its own process
  }
  if (hosts.size() > 1) merged.notes.push_back(fmt::format("merged from runs on hosts {}", fmt::join(hosts, ", ")));
  if (devices.size() > 1)
    merged.notes.push_back(fmt::format("merged from runs on devices {}", fmt::join(devices, "; ")));

  // The order one unsharded run lists its results in; results of one (workload, backend, math)
  // item come from one document and keep their order there (stable sort).
  const RunSettings& settings = merged.settings;
  std::vector<std::string> seen_backends;
  for (const Result& r : merged.results) add_note(seen_backends, r.backend);
  const auto key = [&](const Result& r) {
    const auto it = workload_index.find(r.workload);
    const std::size_t workload = it == workload_index.end() ? merged.workloads.size() : it->second;
    return std::tuple{workload, backend_rank(settings, seen_backends, r), math_rank(settings, r.math_requested)};
  };
  std::stable_sort(merged.results.begin(), merged.results.end(),
                   [&](const Result& a, const Result& b) { return key(a) < key(b); });
  return merged;
}

}  // namespace kbench
