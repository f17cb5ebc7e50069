// `--format bencher` (also `github-action-benchmark`): the list github-action-benchmark reads with
// tool "customSmallerIsBetter", [{name, unit, value, range, extra}], one entry per verified and
// timed result: value is the median, range ± the sample standard deviation, both in
// report::kToolTimeUnit; extra says what ran and how close to the floor it got. A result without a
// verified time has no value to plot and is left out (the run's own exit status reports it).
#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <ostream>

#include "report/benchmark_name.hpp"
#include "report/format.hpp"
#include "report/reporter.hpp"
#include "report/result_view.hpp"

namespace kbench {

namespace {

using ojson = nlohmann::ordered_json;

std::string extra_text(const report::ResultView& view, const RunReport& report) {
  const Result& r = *view.result;
  const Statistics& s = view.timing->stats;
  std::string text = fmt::format("{} samples, p10–p90 {}–{} µs", s.count, report::format_significant(s.p10 * 1e6),
                                 report::format_significant(s.p90 * 1e6));
  if (!r.implementation.empty()) text += fmt::format("\nimplementation {}", r.implementation);
  text += fmt::format("\nmath {}", to_string(r.math_used));
  if (r.math_used != r.math_requested) text += fmt::format(" ({} requested)", to_string(r.math_requested));
  if (view.headroom) text += fmt::format("\n{} kbench's roofline floor", report::format_ratio(*view.headroom));
  text += fmt::format("\ndevice {}", report.device);
  for (const std::string& warning : r.warnings) text += "\nwarning: " + warning;
  return text;
}

}  // namespace

void write_bencher_report(const RunReport& report, std::ostream& out) {
  ojson entries = ojson::array();
  for (const Result& r : report.results) {
    const report::ResultView view = report::view_result(r, report);
    if (!view.timing || view.timing->samples_s.empty()) continue;
    const Statistics& s = view.timing->stats;
    const double scale = report::kSecondsPerToolTimeUnit;
    entries.push_back({{"name", report::benchmark_name(r)},
                       {"unit", report::kToolTimeUnit},
                       {"value", s.median / scale},
                       {"range", fmt::format("± {}", report::format_significant(s.stdev / scale))},
                       {"extra", extra_text(view, report)}});
  }
  out << entries.dump(2, ' ', false, ojson::error_handler_t::replace) << '\n';
}

}  // namespace kbench
