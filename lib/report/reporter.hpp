#pragma once
// Rendering a RunReport: one entry point, one implementation file per format (text_report.cpp,
// json_report.cpp, csv_report.cpp, markdown_report.cpp, gbench_report.cpp, bencher_report.cpp),
// in the manner of google/benchmark's Reporter family. Reporters only format: every number they
// print is already in the RunReport.
//
// One rule holds in every format: a time is shown only for a result whose status is ok, i.e. whose
// output passed verification. A wrong result's time is never printed, whatever its `timing` holds.
#include <cstddef>
#include <optional>
#include <ostream>
#include <string_view>

#include "run/result.hpp"

namespace kbench {

// gbench: google/benchmark's JSON output schema; bencher: github-action-benchmark's
// customSmallerIsBetter list (docs/diff-and-reports.md describes both mappings).
enum class ReportFormat { text, json, csv, markdown, gbench, bencher };

std::string_view to_string(ReportFormat format);
// "text", "json", "csv", "markdown" (also "md"), "gbench", "bencher" (also "github-action-benchmark");
// nullopt for anything else.
std::optional<ReportFormat> parse_report_format(std::string_view text);

struct ReportStyle {
  bool color = false;       // ANSI colours in the text report; the CLI decides (a terminal and no NO_COLOR)
  std::size_t width = 100;  // columns of the text report and compare's table; the CLI gives the terminal's
};

// The whole report in `format`, ending with a newline.
void write_report(const RunReport& report, ReportFormat format, std::ostream& out, const ReportStyle& style = {});

void write_text_report(const RunReport& report, std::ostream& out, const ReportStyle& style);
// The text report piece by piece, for a run that prints each workload as it finishes (as google/benchmark
// prints each benchmark): the header, each workload, then the end (suite totals, legend). In a row they
// print write_text_report's text; `streamed` says the header went out before the run ended, so an
// interruption is told at the end instead.
void write_text_header(const RunReport& report, std::ostream& out, const ReportStyle& style);
void write_text_workload(const RunReport& report, const WorkloadSummary& summary, std::ostream& out,
                         const ReportStyle& style);
void write_text_end(const RunReport& report, std::ostream& out, const ReportStyle& style, bool streamed);
void write_json_report(const RunReport& report, std::ostream& out);
void write_csv_report(const RunReport& report, std::ostream& out);
void write_markdown_report(const RunReport& report, std::ostream& out);
void write_gbench_report(const RunReport& report, std::ostream& out);
void write_bencher_report(const RunReport& report, std::ostream& out);

}  // namespace kbench
