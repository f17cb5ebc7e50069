// GitHub-flavoured Markdown for pull requests and docs/results/: the text report's facts as
// bullet lists and its results table as a pipe table with the same columns.
#include <fmt/format.h>

#include <ostream>
#include <string>
#include <vector>

#include "report/facts.hpp"
#include "report/format.hpp"
#include "report/record_math.hpp"
#include "report/reporter.hpp"
#include "report/result_view.hpp"

namespace kbench {

namespace {

using namespace report;

// Inside a table cell a '|' ends the cell and a line break ends the row; '*' and '\' and '`'
// would start formatting. Everything else is shown as typed.
std::string escape_cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '\n' || c == '\r') {
      out += ' ';
      continue;
    }
    if (c == '|' || c == '*' || c == '\\' || c == '`') out += '\\';
    out += c;
  }
  return out;
}

void write_facts(const std::vector<Fact>& facts, std::ostream& out) {
  for (const Fact& fact : facts) out << "- " << fact.label << ": " << escape_cell(fact.value) << '\n';
}

void write_device_table(const RunReport& report, ResultDevice device, const std::vector<const Result*>& results,
                        std::ostream& out) {
  const std::vector<Column> columns = result_columns();
  out << '\n' << escape_cell(device_line(report, device)) << "\n\n";
  out << '|';
  for (const Column& column : columns) out << ' ' << escape_cell(column.header) << " |";
  out << "\n|";
  for (const Column& column : columns) out << (column.align == Align::right ? " --: |" : " --- |");
  out << '\n';

  std::vector<std::string> notes;
  for (const Result* result : results) {
    const ResultView view = view_result(*result, report);
    ResultRow row = result_row(view);
    // No spanning in a pipe table: the status cell holds "status: reason" and the numbers stay empty.
    if (row.tail) {
      row.cells.push_back(*row.tail);
      row.cells.resize(columns.size());
    }
    out << '|';
    for (const Cell& cell : row.cells) out << ' ' << escape_cell(cell.text) << " |";
    out << '\n';
    for (std::string& note : result_notes(view)) notes.push_back(std::move(note));
  }
  if (!notes.empty()) {
    out << '\n';
    for (const std::string& note : notes) out << "- " << escape_cell(note) << '\n';
  }
}

// A table per device the results ran on, each under the line naming it.
void write_results(const RunReport& report, const std::vector<const Result*>& results, std::ostream& out) {
  if (results.empty()) {
    out << "\nNo results.\n";
    return;
  }
  for (ResultDevice device : result_devices(report)) {
    std::vector<const Result*> on_device;
    for (const Result* result : results)
      if (result->ran_on == device) on_device.push_back(result);
    if (!on_device.empty()) write_device_table(report, device, on_device, out);
  }
}

}  // namespace

void write_markdown_report(const RunReport& report, std::ostream& out) {
  out << "# kbench results\n\n";
  out << "kbench " << escape_cell(report.kbench_version);
  if (!report.started_at.empty()) out << " · " << escape_cell(report.started_at);
  if (!report.host.empty()) out << " · " << escape_cell(report.host);
  out << "\n\n";
  write_facts(run_facts(report), out);
  if (report.interrupted) out << "\n**Interrupted**: the run stopped early; the results below are partial.\n";

  const ResultsByWorkload results(report);
  for (const WorkloadSummary& summary : report.workloads) {
    const Workload& w = summary.workload;
    out << "\n## " << escape_cell(w.name) << " · " << data_text(w.problem) << "\n\n";
    if (!w.description.empty()) out << escape_cell(w.description) << "\n\n";
    write_facts(workload_facts(report, summary), out);
    for (const PublishedRecord& record : w.records) {
      std::string text =
          fmt::format("{}, {}: {}", record.hardware, record.implementation, format_duration(record.ms * 1e-3));
      if (record.stdev_ms >= 0) text += fmt::format(" (stdev {})", format_duration(record.stdev_ms * 1e-3));
      text += fmt::format(", math {}", record_math_text(record));
      out << "- published record: " << escape_cell(text) << '\n';
    }
    if (const std::string note = record_math_note(w.records, results.of(w.name)); !note.empty())
      out << "- note: " << escape_cell(note) << '\n';
    write_results(report, results.of(w.name), out);
  }
  for (const std::string& name : unsummarized_workloads(report)) {
    out << "\n## " << escape_cell(name) << " (no workload summary in this report)\n";
    write_results(report, results.of(name), out);
  }
  if (!report.results.empty())
    out << "\nMedian, spread (the samples' standard deviation as a percentage of the median) and rates (FLOP/s and "
           "B/s with SI prefixes: 593M is 593 million) are from verified runs only; ×floor = median / kbench's floor "
           "at the math mode used (GPU results only: the floors are the GPU's); err/checked = largest \\|error\\| "
           "against the fp64 reference / output elements compared (\\* = a sample, not every element).\n";
}

}  // namespace kbench
