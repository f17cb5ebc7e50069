#include "report/reporter.hpp"

namespace kbench {

std::string_view to_string(ReportFormat format) {
  switch (format) {
    case ReportFormat::text: return "text";
    case ReportFormat::json: return "json";
    case ReportFormat::csv: return "csv";
    case ReportFormat::markdown: return "markdown";
    case ReportFormat::gbench: return "gbench";
    case ReportFormat::bencher: return "bencher";
  }
  return "?";
}

std::optional<ReportFormat> parse_report_format(std::string_view text) {
  if (text == "text") return ReportFormat::text;
  if (text == "json") return ReportFormat::json;
  if (text == "csv") return ReportFormat::csv;
  if (text == "markdown" || text == "md") return ReportFormat::markdown;
  if (text == "gbench") return ReportFormat::gbench;
  if (text == "bencher" || text == "github-action-benchmark") return ReportFormat::bencher;
  return std::nullopt;
}

void write_report(const RunReport& report, ReportFormat format, std::ostream& out, const ReportStyle& style) {
  switch (format) {
    case ReportFormat::text: write_text_report(report, out, style); return;
    case ReportFormat::json: write_json_report(report, out); return;
    case ReportFormat::csv: write_csv_report(report, out); return;
    case ReportFormat::markdown: write_markdown_report(report, out); return;
    case ReportFormat::gbench: write_gbench_report(report, out); return;
    case ReportFormat::bencher: write_bencher_report(report, out); return;
  }
}

}  // namespace kbench
