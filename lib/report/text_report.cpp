// The terminal report: a header saying what the numbers are measured against, then per workload
// its derived numbers, floors, published records and a table of results. Fits the style's width
// (100 columns for files and pipes; the terminal's, or $COLUMNS, at a terminal).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

#include "report/facts.hpp"
#include "report/format.hpp"
#include "report/record_math.hpp"
#include "report/reporter.hpp"
#include "report/result_view.hpp"
#include "report/suite_total.hpp"
#include "report/table.hpp"

namespace kbench {

namespace {

using namespace report;

constexpr std::string_view kIndent = "  ";

// `text` after `first` on its first line, wrapped to the report width; later lines start at
// column `hang`, so a value reads as one block beside its label.
void write_wrapped(std::size_t width, std::string_view first, std::size_t hang, std::string_view text,
                   std::ostream& out) {
  const auto room = [width](std::size_t used) { return width > used + 20 ? width - used : std::size_t{20}; };
  const std::vector<std::string> lines = wrap_words(text, room(hang), room(display_width(first)));
  for (std::size_t i = 0; i < lines.size(); ++i)
    out << (i == 0 ? std::string(first) : std::string(hang, ' ')) << lines[i] << '\n';
}

// "label      value", labels padded to `label_width`; a label too long for that gets a colon
// instead, and its value's later lines line up with the other values.
void write_facts(std::size_t width, const std::vector<Fact>& facts, std::size_t label_width, std::string_view indent,
                 std::ostream& out) {
  const std::size_t hang = display_width(indent) + label_width;
  for (const Fact& fact : facts) {
    const std::size_t label = display_width(fact.label);
    const std::string first = label < label_width
                                  ? fmt::format("{}{}{}", indent, fact.label, std::string(label_width - label, ' '))
                                  : fmt::format("{}{}: ", indent, fact.label);
    write_wrapped(width, first, hang, fact.value, out);
  }
}

void write_header(const RunReport& report, std::ostream& out, const ReportStyle& style) {
  out << "kbench " << report.kbench_version;
  if (!report.started_at.empty()) out << " · " << report.started_at;
  if (!report.host.empty()) out << " · " << report.host;
  out << '\n';
  write_facts(style.width, run_facts(report), 12, "", out);
  if (report.interrupted) {
    const std::string text = "INTERRUPTED: the run stopped early; the results below are partial";
    out << (style.color ? paint(text, Tone::warn) : text) << '\n';
  }
}

void write_workload_facts(const RunReport& report, const WorkloadSummary& summary,
                          const std::vector<const Result*>& results, std::ostream& out, std::size_t width) {
  const Workload& w = summary.workload;
  std::string title = fmt::format("{} · {}", w.name, data_text(w.problem));  // "name · fp16 nhwc"
  if (!w.source_file.empty())
    title +=
        w.source_line > 0 ? fmt::format(" ({}:{})", w.source_file, w.source_line) : fmt::format(" ({})", w.source_file);
  out << '\n';
  write_wrapped(width, "", 4, title, out);
  if (!w.description.empty()) write_wrapped(width, kIndent, kIndent.size(), w.description, out);
  write_facts(width, workload_facts(report, summary), 12, kIndent, out);

  if (w.records.empty()) return;
  out << kIndent << "published records (informative; other hardware and software)\n";
  Table records({{"hardware", Align::left, true, 12},
                 {"implementation", Align::left, true, 12},
                 {"math", Align::left, false, 4},
                 {"mean", Align::right, false, 4},
                 {"stdev", Align::right, false, 5}});
  for (const PublishedRecord& record : w.records)
    records.add_row({{record.hardware},
                     {record.implementation},
                     {record_math_text(record)},
                     {format_duration(record.ms * 1e-3)},
                     {record.stdev_ms >= 0 ? format_duration(record.stdev_ms * 1e-3) : ""}});
  out << records.render(width, false, "    ").text;
  if (const std::string note = record_math_note(w.records, results); !note.empty())
    write_wrapped(width, "    note: ", 10, note, out);
}

// One table of results that ran on one device, under the line naming it.
void write_device_table(const RunReport& report, ResultDevice device, const std::vector<const Result*>& results,
                        std::ostream& out, const ReportStyle& style) {
  write_wrapped(style.width, fmt::format("{}", kIndent), kIndent.size() + 2, device_line(report, device), out);
  Table table(result_columns());
  std::vector<ResultView> views;
  for (const Result* result : results) {
    views.push_back(view_result(*result, report));
    ResultRow row = result_row(views.back());
    if (row.tail)
      table.add_row(std::move(row.cells), std::move(*row.tail));
    else
      table.add_row(std::move(row.cells));
  }
  const RenderedTable rendered = table.render(style.width, style.color, kIndent);
  out << rendered.text;

  // A reason cut to fit its row is given whole below the table: it is what a person acts on.
  std::vector<std::string> notes;
  for (std::size_t row : rendered.shortened_tails) {
    const Result& r = *views[row].result;
    notes.push_back(fmt::format("{}: {}: {}", result_label(r), to_string(r.status), r.reason));
  }
  for (const ResultView& view : views)
    for (std::string& note : result_notes(view)) notes.push_back(std::move(note));
  const bool has_numbers = std::any_of(views.begin(), views.end(), [](const ResultView& v) { return v.timing; });
  if (!rendered.dropped.empty() && has_numbers)
    notes.insert(notes.begin(), fmt::format("{} left out to fit {} columns (--format json has them)",
                                            fmt::join(rendered.dropped, ", "), style.width));
  for (const std::string& note : notes)
    write_wrapped(style.width, fmt::format("{}- ", kIndent), kIndent.size() + 2, note, out);
}

// A workload's results, a table per device they ran on (GPU and CPU timings never share one).
void write_results(const RunReport& report, const std::vector<const Result*>& results, std::ostream& out,
                   const ReportStyle& style) {
  out << '\n';
  if (results.empty()) {
    out << kIndent << "no results\n";
    return;
  }
  for (ResultDevice device : result_devices(report)) {
    std::vector<const Result*> on_device;
    for (const Result* result : results)
      if (result->ran_on == device) on_device.push_back(result);
    if (!on_device.empty()) write_device_table(report, device, on_device, out, style);
  }
}

// Only for a report with counts (a model imported layer by layer): its convolution time per backend.
void write_suite_totals(const RunReport& report, std::ostream& out) {
  if (!has_counts(report)) return;
  out << "\nsuite total, each workload's median x its count\n";
  for (const SuiteTotal& total : suite_totals(report))
    out << fmt::format("{}{:<28} {:>10}  ({} of {} workloads timed)\n", kIndent, total.label,
                       total.timed > 0 ? format_duration(total.weighted_s) : "-", total.timed, total.workloads);
}

void write_legend(std::ostream& out, std::size_t width) {
  out << '\n';
  write_wrapped(width, "", 0,
                "median, spread (the samples' standard deviation as a percentage of the median) and rates (FLOP/s "
                "and B/s with SI prefixes: 593M is 593 million) are from verified runs only; ×floor = median / kbench's floor at the math mode used (GPU results only: the floors are "
                "the GPU's); err/checked = largest |error| against the fp64 reference / output elements compared "
                "(* = a sample, not every element)",
                out);
}

}  // namespace

void write_text_header(const RunReport& report, std::ostream& out, const ReportStyle& style) {
  write_header(report, out, style);
}

void write_text_workload(const RunReport& report, const WorkloadSummary& summary, std::ostream& out,
                         const ReportStyle& style) {
  const std::vector<const Result*> results = results_for(report, summary.workload.name);
  write_workload_facts(report, summary, results, out, style.width);
  write_results(report, results, out, style);
}

namespace {
void write_text_workloads(const RunReport& report, std::ostream& out, const ReportStyle& style) {
  const ResultsByWorkload results(report);
  for (const WorkloadSummary& summary : report.workloads) {
    write_workload_facts(report, summary, results.of(summary.workload.name), out, style.width);
    write_results(report, results.of(summary.workload.name), out, style);
  }
  for (const std::string& name : unsummarized_workloads(report)) {
    out << '\n' << name << " (no workload summary in this report)\n";
    write_results(report, results.of(name), out, style);
  }
}
}  // namespace

void write_text_end(const RunReport& report, std::ostream& out, const ReportStyle& style, bool streamed) {
  if (streamed && report.interrupted) {
    const std::string text = "\nINTERRUPTED: the run stopped early; the results above are partial";
    out << (style.color ? paint(text, Tone::warn) : text) << '\n';
  }
  if (!report.results.empty()) {
    write_suite_totals(report, out);
    write_legend(out, style.width);
  }
}

void write_text_report(const RunReport& report, std::ostream& out, const ReportStyle& style) {
  write_text_header(report, out, style);
  write_text_workloads(report, out, style);
  write_text_end(report, out, style, false);
}

}  // namespace kbench
