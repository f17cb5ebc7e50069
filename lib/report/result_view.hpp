#pragma once
// What a reporter may show of one result. The rule "a time only for a verified result" is applied
// here, once, so no reporter can print a wrong kernel's time by reading Result::timing directly.
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "report/table.hpp"
#include "run/result.hpp"

namespace kbench::report {

struct ResultView {
  const Result* result = nullptr;
  const WorkloadSummary* summary = nullptr;  // null when the report has no summary for the workload
  const Measurement* timing = nullptr;       // null unless the result is ok and was timed
  std::optional<double> floor_s;             // the floor at the math mode used, when known
  std::optional<double> headroom;            // median / floor
  std::optional<double> achieved_flops;      // FLOP/s from the median
  std::optional<double> achieved_Bps;        // bytes/s from the median
  // Fewer samples than the protocol's minimum (a run stopped by Ctrl-C): the median is marked "~" and a
  // note gives the count, so it never reads as a plain result.
  bool below_minimum = false;
};

ResultView view_result(const Result& result, const RunReport& report);

// The timing a result may show: null unless status is ok (a wrong, failed or skipped result's
// samples, if any were taken, never leave the run).
const Measurement* shown_timing(const Result& result);

Tone tone_of(ResultStatus status);

// The math modes a workload's floors are shown for: those the settings asked for and those any of
// its results requested or used, fp32 first. Never empty (fp32 when nothing says otherwise).
std::vector<MathMode> math_modes_for(const RunReport& report, const std::string& workload);

// The kinds of device the report's results ran on, in order of first appearance; the GPU when it has none.
std::vector<ResultDevice> result_devices(const RunReport& report);
// "NVIDIA H100 80GB HBM3" or "AMD EPYC 7B13, 2 threads": what a result that ran on `device` ran on.
std::string device_name(const RunReport& report, ResultDevice device);
// How results on `device` were timed: the GPU protocol (CUDA events, warm-ups, discarded run, L2 flush,
// launches) or the CPU's (CPU clock, one warm-up, no flush), from the run's settings.
std::string protocol_text(const MeasureOptions& measure, ResultDevice device);
// "on CPU: AMD EPYC 7B13, 2 threads (CPU clock, no flush)": the line above a table of such results.
std::string device_line(const RunReport& report, ResultDevice device);

// The results of one workload, in run order.
std::vector<const Result*> results_for(const RunReport& report, const std::string& workload);

// The results of every workload, grouped in one pass, each group in run order: what a reporter of
// the whole report uses (results_for once per workload would make N results cost N²).
class ResultsByWorkload {
 public:
  explicit ResultsByWorkload(const RunReport& report);
  const std::vector<const Result*>& of(const std::string& workload) const;  // empty when it has none

 private:
  std::unordered_map<std::string, std::vector<const Result*>> groups_;
  std::vector<const Result*> none_;
};
// Workloads named by results but without a summary in the report (a hand-edited JSON file, say),
// in order of first appearance: reporters show their results without floors rather than drop them.
std::vector<std::string> unsummarized_workloads(const RunReport& report);

// "cudnn/IMPLICIT_GEMM tf32": names a result in notes under a table.
std::string result_label(const Result& result);

// The results table shared by the text and Markdown reporters: one row per result; a result that
// is not ok shows its status and reason in place of the numbers (the row's tail).
std::vector<Column> result_columns();
struct ResultRow {
  std::vector<Cell> cells;   // every column when ok, else the leading ones
  std::optional<Cell> tail;  // "wrong: reason" for a result that is not ok
};
ResultRow result_row(const ResultView& view);

// One line per fact a reader should not miss that has no column: math fallback, modified inputs,
// throttled samples, an exhausted budget, the first mismatch of a wrong result, backend properties.
std::vector<std::string> result_notes(const ResultView& view);

}  // namespace kbench::report
