#include "streamed_text.hpp"

#include <iostream>

namespace kbench::cli {

void StreamedTextReport::print_workloads(const RunReport& report) {
  if (!header_printed_) write_text_header(report, std::cout, style_);
  header_printed_ = true;
  for (; workloads_printed_ < report.workloads.size(); ++workloads_printed_)
    write_text_workload(report, report.workloads[workloads_printed_], std::cout, style_);
}

void StreamedTextReport::workload_finished(const RunReport& report) {
  progress_.clear();
  print_workloads(report);
  std::cout.flush();
}

void StreamedTextReport::finish(const RunReport& report) {
  if (!header_printed_) {
    write_text_report(report, std::cout, style_);
    return;
  }
  print_workloads(report);
  write_text_end(report, std::cout, style_, true);
}

}  // namespace kbench::cli
