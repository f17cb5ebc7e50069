#include "report/suite_total.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

namespace kbench::report {

bool has_counts(const RunReport& report) {
  return std::any_of(report.workloads.begin(), report.workloads.end(),
                     [](const WorkloadSummary& s) { return s.workload.count != 1; });
}

std::vector<SuiteTotal> suite_totals(const RunReport& report) {
  // A result whose workload has no summary (a hand-made document) counts once, as a spec without count.
  std::map<std::string, std::int64_t> counts;
  for (const WorkloadSummary& s : report.workloads) counts[s.workload.name] = s.workload.count;
  for (const Result& r : report.results) counts.emplace(r.workload, 1);
  std::vector<SuiteTotal> totals;
  for (const Result& r : report.results) {
    // By what was asked for, not what ran: the implementation a backend picks differs per workload.
    const std::string label =
        fmt::format("{}{}{} {}", r.backend, r.variant.empty() ? "" : ":", r.variant, to_string(r.math_requested));
    auto total = std::find_if(totals.begin(), totals.end(), [&](const SuiteTotal& t) { return t.label == label; });
    if (total == totals.end()) total = totals.insert(totals.end(), SuiteTotal{label, 0, 0, counts.size()});
    if (r.status != ResultStatus::ok || !r.timing) continue;
    total->weighted_s += static_cast<double>(counts.at(r.workload)) * r.timing->stats.median;
    ++total->timed;
  }
  return totals;
}

}  // namespace kbench::report
