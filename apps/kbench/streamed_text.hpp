#pragma once
// The text report at a terminal as the run goes, as google/benchmark prints each benchmark when it ends:
// the header with the first finished workload, then each workload's table as soon as its last result is
// in. The progress line (stderr) is cleared before each and drawn again by the runner's next event, so it
// stays beneath. The rest (a workload the run was stopped in, suite totals, the legend) comes at the end.
#include <cstddef>

#include "progress.hpp"
#include "report/reporter.hpp"
#include "run/result.hpp"

namespace kbench::cli {

class StreamedTextReport {
 public:
  StreamedTextReport(ProgressLine& progress, const ReportStyle& style) : progress_(progress), style_(style) {}

  // After report.workloads.back() got its last result.
  void workload_finished(const RunReport& report);
  // Whatever is not printed yet, from the report the run returned; the whole report if nothing was.
  void finish(const RunReport& report);

 private:
  void print_workloads(const RunReport& report);

  ProgressLine& progress_;
  ReportStyle style_;
  bool header_printed_ = false;
  std::size_t workloads_printed_ = 0;
};

}  // namespace kbench::cli
