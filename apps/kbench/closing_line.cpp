#include "closing_line.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

namespace kbench::cli {

namespace {

std::string plural(std::size_t n, const char* one, const char* many) { return fmt::format("{} {}", n, n == 1 ? one : many); }

// "4 ok, 1 wrong, 2 skipped": ok always, the other statuses where there are any, failures first.
std::string status_counts(const RunReport& report) {
  std::string text;
  for (ResultStatus status : {ResultStatus::ok, ResultStatus::wrong, ResultStatus::failed, ResultStatus::skipped,
                              ResultStatus::unavailable, ResultStatus::unsupported}) {
    const auto n = static_cast<std::size_t>(std::count_if(report.results.begin(), report.results.end(),
                                                          [&](const Result& r) { return r.status == status; }));
    if (n > 0 || status == ResultStatus::ok) text += fmt::format("{}{} {}", text.empty() ? "" : ", ", n, to_string(status));
  }
  return text;
}

}  // namespace

std::string closing_line(const RunReport& report, const RunOutcome& outcome) {
  std::set<std::string> workloads;
  for (const Result& r : report.results) workloads.insert(r.workload);
  const std::size_t reached = std::max(report.workloads.size(), workloads.size());
  const std::string what =
      report.interrupted
          ? fmt::format("interrupted after {} of {}: {}", reached, plural(outcome.workloads_asked, "workload", "workloads"),
                        plural(report.results.size(), "result", "results"))
          : fmt::format("done: {} of {}", plural(report.results.size(), "result", "results"),
                        plural(outcome.workloads_asked, "workload", "workloads"));
  return fmt::format("kbench: {}: {}; report {}", what, status_counts(report), outcome.report_destination);
}

}  // namespace kbench::cli
