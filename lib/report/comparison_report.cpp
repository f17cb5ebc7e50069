#include "report/comparison_report.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.hpp"
#include "report/format.hpp"
#include "report/result_view.hpp"
#include "report/table.hpp"

namespace kbench {

namespace {

std::string label_of(const Result& r) { return r.variant.empty() ? r.backend : r.backend + ":" + r.variant; }

// Column order: the order backends first appear in the results (the order of --backends).
std::vector<std::string> backend_labels(const RunReport& report) {
  std::vector<std::string> labels;
  for (const auto& r : report.results)
    if (std::find(labels.begin(), labels.end(), label_of(r)) == labels.end()) labels.push_back(label_of(r));
  return labels;
}

const Result* find_result(const RunReport& report, const std::string& workload, MathMode math,
                          const std::string& label) {
  for (const auto& r : report.results)
    if (r.workload == workload && r.math_requested == math && label_of(r) == label) return &r;
  return nullptr;
}

std::optional<double> median_of(const Result* r) {
  if (!r || r->status != ResultStatus::ok || !r->timing || r->timing->stats.count == 0) return std::nullopt;
  return r->timing->stats.median;
}

struct Row {
  std::string workload;
  MathMode math;
  std::vector<const Result*> results;  // one per label, null where absent
  double floor_s;
};

std::vector<Row> build_rows(const RunReport& report, const std::vector<std::string>& labels) {
  std::vector<Row> rows;
  for (const auto& summary : report.workloads)
    for (MathMode math : report.settings.math_modes) {
      Row row{summary.workload.name, math, {}, summary.floor_for(math).floor_s};
      for (const auto& label : labels) row.results.push_back(find_result(report, row.workload, math, label));
      rows.push_back(row);
    }
  return rows;
}

std::string time_cell(const Result* r, double floor_s) {
  if (!r) return "-";
  if (auto median = median_of(r))
    return fmt::format("{} ({})", report::format_duration(*median), report::format_ratio(*median / floor_s));
  return std::string(to_string(r->status));
}

std::string speedup_cell(const Result* r, const Result* base) {
  const auto t = median_of(r);
  const auto b = median_of(base);
  if (!t || !b) return "-";
  return report::format_ratio(*b / *t);
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

constexpr std::size_t kWidth = 100;

std::size_t widest_line(const std::string& text) {
  std::size_t widest = 0, start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    widest = std::max(widest, report::display_width(std::string_view(text).substr(start, end - start)));
    start = end + 1;
  }
  return widest;
}

// One row per (workload, math, backend) that has a result (and the baseline's, always): what the
// side-by-side table becomes when its backends do not fit the width (three or more, or long names).
report::Table long_table(const std::vector<Row>& rows, const std::vector<std::string>& labels, std::size_t base_index) {
  report::Table table({{"workload", report::Align::left, true, 16},
                       {"math", report::Align::left},
                       {"floor", report::Align::right},
                       {"backend", report::Align::left, true, 16},
                       {"median (/ floor)", report::Align::right},
                       {fmt::format("speedup vs {}", labels[base_index]), report::Align::right}});
  for (const auto& row : rows) {
    bool first = true;
    for (std::size_t i = 0; i < labels.size(); ++i) {
      const Result* r = row.results[i];
      if (r == nullptr && i != base_index) continue;
      table.add_row({{first ? row.workload : std::string()},
                     {first ? std::string(to_string(row.math)) : std::string()},
                     {first ? report::format_duration(row.floor_s) : std::string()},
                     {labels[i]},
                     {time_cell(r, row.floor_s), r ? report::tone_of(r->status) : report::Tone::plain},
                     {i == base_index ? "baseline" : speedup_cell(r, row.results[base_index])}});
      first = false;
    }
  }
  return table;
}

}  // namespace

void write_comparison(const RunReport& report, const std::string& baseline, ReportFormat format, std::ostream& out,
                      const ReportStyle& style) {
  const auto labels = backend_labels(report);
  if (labels.empty()) {
    out << "no results to compare\n";
    return;
  }
  const std::string base = baseline.empty() ? labels.front() : baseline;
  const auto base_it = std::find(labels.begin(), labels.end(), base);
  if (base_it == labels.end())
    throw InputError(fmt::format("--baseline: '{}' is not among the backends run ({})", base, fmt::join(labels, ", ")));
  const auto base_index = static_cast<std::size_t>(base_it - labels.begin());
  const auto rows = build_rows(report, labels);

  if (format == ReportFormat::csv) {
    out << "workload,math,floor_ms";
    for (const auto& label : labels)
      out << ',' << csv_field(label + " median_ms") << ',' << csv_field(label + " status");
    out << '\n';
    for (const auto& row : rows) {
      out << csv_field(row.workload) << ',' << to_string(row.math) << ',' << fmt::format("{:.6g}", row.floor_s * 1e3);
      for (const Result* r : row.results) {
        const auto m = median_of(r);
        out << ',' << (m ? fmt::format("{:.6g}", *m * 1e3) : "") << ',' << (r ? to_string(r->status) : "");
      }
      out << '\n';
    }
    return;
  }

  std::vector<std::string> headers{"workload", "math", "floor"};
  for (const auto& label : labels) headers.push_back(label);
  for (std::size_t i = 0; i < labels.size(); ++i)
    if (i != base_index) headers.push_back(labels[i] + " speedup");

  std::vector<std::vector<report::Cell>> cells;
  for (const auto& row : rows) {
    std::vector<report::Cell> line{
        {row.workload}, {std::string(to_string(row.math))}, {report::format_duration(row.floor_s)}};
    for (const Result* r : row.results)
      line.push_back({time_cell(r, row.floor_s), r ? report::tone_of(r->status) : report::Tone::plain});
    for (std::size_t i = 0; i < labels.size(); ++i)
      if (i != base_index) line.push_back({speedup_cell(row.results[i], row.results[base_index])});
    cells.push_back(std::move(line));
  }

  if (format == ReportFormat::markdown) {
    out << "| " << fmt::format("{}", fmt::join(headers, " | ")) << " |\n|";
    for (std::size_t i = 0; i < headers.size(); ++i) out << (i < 2 ? " --- |" : " ---: |");
    out << '\n';
    for (const auto& line : cells) {
      out << '|';
      for (const auto& cell : line) out << ' ' << cell.text << " |";
      out << '\n';
    }
    return;
  }

  std::vector<report::Column> columns;
  for (std::size_t i = 0; i < headers.size(); ++i)
    columns.push_back({headers[i], i < 2 ? report::Align::left : report::Align::right, i == 0, 16});
  report::Table table(columns);
  for (auto& line : cells) table.add_row(std::move(line));
  out << fmt::format(
      "Median of up to {} samples per backend, with (median / roofline floor);\n"
      "speedup = {} median / backend median\n",
      report.settings.measure.iterations, base);
  // Measured without colour codes, which take no columns.
  const bool fits = widest_line(table.render(kWidth, false).text) <= kWidth;
  out << (fits ? table : long_table(rows, labels, base_index)).render(kWidth, style.color).text;
  for (const auto& r : report.results)
    if (r.status != ResultStatus::ok)
      out << fmt::format("  {} · {} · {}: {}: {}\n", r.workload, label_of(r), to_string(r.math_requested),
                         to_string(r.status), r.reason);
}

}  // namespace kbench
