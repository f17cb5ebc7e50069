// One row per result for spreadsheets and scripts: RFC 4180 quoting, a header row, times in
// milliseconds, and an empty cell wherever a value does not exist (no timing for a result that is
// not ok, no floor for a workload the report does not describe). Lines end in LF.
#include <fmt/format.h>

#include <cmath>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "report/reporter.hpp"
#include "report/result_view.hpp"

namespace kbench {

namespace {

// dtype, layout and accumulation came with half precision, pass with the backward passes, ran_on and
// device (the GPU's name or the CPU's model and threads) after them: last, so the columns before keep
// their places. headroom is empty for a CPU result: the floors are a GPU's.
constexpr const char* kColumns[] = {
    "workload",   "backend",    "variant",   "implementation", "math_requested",    "math_used",
    "status",     "reason",     "median_ms", "mean_ms",        "stdev_ms",          "min_ms",
    "max_ms",     "p10_ms",     "p90_ms",    "samples",        "throttled_samples", "floor_ms",
    "headroom",   "tflops",     "GBps",      "max_abs_error",  "max_rel_error",     "checked",
    "mismatches", "full_check", "dtype",     "layout",         "accumulation",      "pass",
    "ran_on",     "device",
};

// Quoted only when it must be: a comma, a double quote or a line break inside the field.
std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  quoted += '"';
  return quoted;
}

// Six significant figures: finer than any timer kbench uses, short enough to read.
std::string number(double value) { return std::isfinite(value) ? fmt::format("{:.6g}", value) : ""; }
std::string number(const std::optional<double>& value) { return value ? number(*value) : ""; }
std::string milliseconds(double seconds) { return number(seconds * 1e3); }

std::vector<std::string> result_fields(const report::ResultView& view, const RunReport& report) {
  const Result& r = *view.result;
  std::vector<std::string> f = {r.workload,
                                r.backend,
                                r.variant,
                                r.implementation,
                                std::string(to_string(r.math_requested)),
                                std::string(to_string(r.math_used)),
                                std::string(to_string(r.status)),
                                r.reason};
  if (view.timing) {
    const Statistics& s = view.timing->stats;
    for (double seconds : {s.median, s.mean, s.stdev, s.min, s.max, s.p10, s.p90}) f.push_back(milliseconds(seconds));
    f.push_back(fmt::format("{}", s.count));
    f.push_back(fmt::format("{}", view.timing->throttled_samples));
  } else {
    f.insert(f.end(), 9, "");
  }
  f.push_back(view.floor_s ? milliseconds(*view.floor_s) : "");
  f.push_back(number(view.headroom));
  f.push_back(view.achieved_flops ? number(*view.achieved_flops / 1e12) : "");
  f.push_back(view.achieved_Bps ? number(*view.achieved_Bps / 1e9) : "");
  if (r.verification) {
    const Comparison& c = r.verification->comparison;
    f.push_back(number(c.max_abs_error));
    f.push_back(number(c.max_rel_error));
    f.push_back(fmt::format("{}", c.checked));
    f.push_back(fmt::format("{}", c.mismatches));
    f.push_back(r.verification->full ? "true" : "false");
  } else {
    f.insert(f.end(), 5, "");
  }
  f.push_back(std::string(to_string(r.dtype)));
  f.push_back(std::string(to_string(r.layout)));
  f.push_back(r.accumulation);
  f.push_back(std::string(to_string(r.pass)));
  f.push_back(std::string(to_string(r.ran_on)));
  f.push_back(report::device_name(report, r.ran_on));
  return f;
}

void write_line(const std::vector<std::string>& fields, std::ostream& out) {
  for (std::size_t i = 0; i < fields.size(); ++i) out << (i ? "," : "") << csv_field(fields[i]);
  out << '\n';
}

}  // namespace

void write_csv_report(const RunReport& report, std::ostream& out) {
  write_line(std::vector<std::string>(std::begin(kColumns), std::end(kColumns)), out);
  for (const Result& result : report.results) write_line(result_fields(report::view_result(result, report), report), out);
}

}  // namespace kbench
