#pragma once
// `kbench compare`: one row per (workload, math mode), a column per backend with its median and
// headroom against the floor, and each backend's speedup over the baseline.
#include <ostream>
#include <string>

#include "report/reporter.hpp"

namespace kbench {

// `baseline` is a backend label ("cudnn", "cudnn:ALGO"); empty = the first backend in the report.
// Text, Markdown and CSV; JSON callers use write_json_report (the comparison is derivable from it).
void write_comparison(const RunReport& report, const std::string& baseline, ReportFormat format, std::ostream& out,
                      const ReportStyle& style = {});

}  // namespace kbench
