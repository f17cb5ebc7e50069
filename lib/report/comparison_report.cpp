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

// Where a label's results ran, from its first result: a column heading says "(CPU)" for the host's.
ResultDevice device_of(const RunReport& report, const std::string& label) {
  for (const auto& r : report.results)
    if (label_of(r) == label) return r.ran_on;
  return ResultDevice::gpu;
}

std::string heading_of(const RunReport& report, const std::string& label) {
  return device_of(report, label) == ResultDevice::cpu ? label + " (CPU)" : label;
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
  std::int64_t count = 1;              // how many times the model runs the workload (the spec's count)
  std::optional<std::size_t> fastest;  // the label index of the fastest verified, timed result
};

std::vector<Row> build_rows(const RunReport& report, const std::vector<std::string>& labels) {
  std::vector<Row> rows;
  for (const auto& summary : report.workloads)
    for (MathMode math : report.settings.math_modes) {
      Row row{summary.workload.name, math, {}, summary.floor_for(math).floor_s, summary.workload.count, {}};
      for (const auto& label : labels) row.results.push_back(find_result(report, row.workload, math, label));
      for (std::size_t i = 0; i < labels.size(); ++i)
        if (const auto t = median_of(row.results[i]); t && (!row.fastest || *t < *median_of(row.results[*row.fastest])))
          row.fastest = i;
      rows.push_back(row);
    }
  return rows;
}

// "30.4× slower", "1.52× faster", "same": a time against the reference time it is compared with.
std::string relative_text(double time, double reference) {
  const double ratio = time / reference;
  if (report::format_significant(ratio) == "1.00") return "same";
  return ratio > 1 ? report::format_ratio(ratio) + " slower" : report::format_ratio(1 / ratio) + " faster";
}

// What each label's time is set against in a row: the baseline's when one was named, else the fastest.
struct Reference {
  std::optional<std::size_t> baseline;  // --baseline's label index
  std::optional<std::size_t> of(const Row& row) const { return baseline ? baseline : row.fastest; }
  const char* self_word() const { return baseline ? "baseline" : "fastest"; }
};

std::string relative_cell(const Row& row, std::size_t i, const Reference& reference) {
  const auto t = median_of(row.results[i]);
  const auto ref = reference.of(row);
  if (!t || !ref) return "";
  if (*ref == i) return reference.self_word();
  const auto r = median_of(row.results[*ref]);
  if (!r) return "";
  return relative_text(*t, *r);
}

// Median and, for a GPU result, its multiple of the floor; a CPU result is not set against a GPU's floor.
std::string median_cell(const Result* r, double floor_s) {
  if (!r) return "-";
  if (auto median = median_of(r)) {
    if (r->ran_on == ResultDevice::cpu || floor_s <= 0) return report::format_duration(*median);
    return fmt::format("{} ({})", report::format_duration(*median), report::format_ratio(*median / floor_s));
  }
  return std::string(to_string(r->status));
}

// The side-by-side cell: the median, then how it stands against the reference ("fastest", "2.1× slower").
std::string side_cell(const Row& row, std::size_t i, const Reference& reference) {
  const Result* r = row.results[i];
  if (!r) return "-";
  const auto median = median_of(r);
  if (!median) return std::string(to_string(r->status));
  const std::string relative = relative_cell(row, i, reference);
  return relative.empty() ? report::format_duration(*median)
                          : fmt::format("{} {}", report::format_duration(*median), relative);
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::size_t widest_line(const std::string& text) {
  std::size_t widest = 0, start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    widest = std::max(widest, report::display_width(std::string_view(text).substr(start, end - start)));
    start = end + 1;
  }
  return widest;
}

std::string versus_heading(const std::vector<std::string>& labels, const Reference& reference) {
  return reference.baseline ? "vs " + labels[*reference.baseline] : "vs fastest";
}

// One row per (workload, math, backend) that has a result: what the side-by-side table becomes when its
// backends do not fit the width (three or more, or long names).
report::Table long_table(const RunReport& report, const std::vector<Row>& rows, const std::vector<std::string>& labels,
                         const Reference& reference) {
  report::Table table({{"workload", report::Align::left, true, 16},
                       {"math", report::Align::left},
                       {"floor", report::Align::right},
                       {"backend", report::Align::left, true, 16},
                       {"median (×floor)", report::Align::right},
                       {versus_heading(labels, reference), report::Align::left}});
  for (const auto& row : rows) {
    bool first = true;
    for (std::size_t i = 0; i < labels.size(); ++i) {
      const Result* r = row.results[i];
      if (r == nullptr && reference.baseline != i) continue;
      table.add_row({{first ? row.workload : std::string()},
                     {first ? std::string(to_string(row.math)) : std::string()},
                     {first ? report::format_duration(row.floor_s) : std::string()},
                     {heading_of(report, labels[i])},
                     {median_cell(r, row.floor_s), r ? report::tone_of(r->status) : report::Tone::plain},
                     {relative_cell(row, i, reference)}});
      first = false;
    }
  }
  return table;
}

// Per math mode and label: count x median summed over the workloads every label timed, so the totals
// compare like with like (a backend that skipped the slow workloads would otherwise look fast).
struct Total {
  MathMode math;
  std::vector<double> seconds;  // per label
  std::size_t common = 0;       // workloads every label timed
  std::size_t workloads = 0;    // workloads in the report
};

std::vector<Total> totals_of(const std::vector<Row>& rows, std::size_t labels, const std::vector<MathMode>& modes) {
  std::vector<Total> totals;
  for (MathMode math : modes) {
    Total total{math, std::vector<double>(labels, 0.0), 0, 0};
    for (const Row& row : rows) {
      if (row.math != math) continue;
      ++total.workloads;
      if (!std::all_of(row.results.begin(), row.results.end(), [](const Result* r) { return median_of(r).has_value(); }))
        continue;
      ++total.common;
      for (std::size_t i = 0; i < labels; ++i)
        total.seconds[i] += static_cast<double>(row.count) * *median_of(row.results[i]);
    }
    totals.push_back(std::move(total));
  }
  return totals;
}

void write_totals(const RunReport& report, const std::vector<Total>& totals, const std::vector<std::string>& labels,
                  const Reference& reference, std::size_t width, std::ostream& out) {
  for (const Total& total : totals) {
    if (total.workloads < 2) continue;  // one workload: its row is the total
    if (total.common == 0) {
      out << fmt::format("\ntotal {}: no workload was timed by every backend\n", to_string(total.math));
      continue;
    }
    out << '\n';
    for (const std::string& line :
         report::wrap_words(fmt::format("total {}, each workload's median x its count, over the {} of {} workloads "
                                        "every backend timed",
                                        to_string(total.math), total.common, total.workloads),
                            width))
      out << line << '\n';
    std::size_t best = 0;
    for (std::size_t i = 1; i < labels.size(); ++i)
      if (total.seconds[i] < total.seconds[best]) best = i;
    const std::size_t ref = reference.baseline.value_or(best);
    report::Table table({{"backend", report::Align::left, true, 16},
                         {"total", report::Align::right},
                         {versus_heading(labels, reference), report::Align::left}});
    for (std::size_t i = 0; i < labels.size(); ++i)
      table.add_row({{heading_of(report, labels[i])},
                     {report::format_duration(total.seconds[i])},
                     {i == ref ? reference.self_word() : relative_text(total.seconds[i], total.seconds[ref])}});
    out << table.render(width, false, "  ").text;
  }
}

// "medians of 5 to 100 samples": what the timings rest on, from the results themselves.
std::string samples_text(const RunReport& report) {
  std::optional<std::int64_t> fewest, most;
  for (const Result& r : report.results)
    if (const Measurement* m = report::shown_timing(r)) {
      fewest = fewest ? std::min<std::int64_t>(*fewest, m->stats.count) : m->stats.count;
      most = most ? std::max<std::int64_t>(*most, m->stats.count) : m->stats.count;
    }
  if (!fewest) return "no result was timed";
  if (*fewest == *most) return fmt::format("medians of {} samples each", *fewest);
  return fmt::format("medians of {} to {} samples", *fewest, *most);
}

}  // namespace

void write_comparison(const RunReport& report, const std::string& baseline, ReportFormat format, std::ostream& out,
                      const ReportStyle& style) {
  const auto labels = backend_labels(report);
  if (labels.empty()) {
    out << "no results to compare\n";
    return;
  }
  Reference reference;
  if (!baseline.empty()) {
    const auto base_it = std::find(labels.begin(), labels.end(), baseline);
    if (base_it == labels.end())
      throw InputError(
          fmt::format("--baseline: '{}' is not among the backends run ({})", baseline, fmt::join(labels, ", ")));
    reference.baseline = static_cast<std::size_t>(base_it - labels.begin());
  }
  const auto rows = build_rows(report, labels);

  if (format == ReportFormat::csv) {
    out << "workload,math,floor_ms";
    for (const auto& label : labels)
      out << ',' << csv_field(label + " median_ms") << ',' << csv_field(label + " status") << ','
          << csv_field(label + " ran_on") << ',' << csv_field(label + " " + versus_heading(labels, reference));
    out << ",fastest\n";
    for (const auto& row : rows) {
      out << csv_field(row.workload) << ',' << to_string(row.math) << ',' << fmt::format("{:.6g}", row.floor_s * 1e3);
      for (std::size_t i = 0; i < labels.size(); ++i) {
        const Result* r = row.results[i];
        const auto m = median_of(r);
        const auto ref = reference.of(row);
        const auto ref_median = ref ? median_of(row.results[*ref]) : std::nullopt;
        out << ',' << (m ? fmt::format("{:.6g}", *m * 1e3) : "") << ',' << (r ? to_string(r->status) : "") << ','
            << (r ? to_string(r->ran_on) : "") << ','
            << (m && ref_median ? fmt::format("{:.6g}", *m / *ref_median) : "");
      }
      out << ',' << (row.fastest ? csv_field(labels[*row.fastest]) : "") << '\n';
    }
    return;
  }

  std::vector<std::string> headers{"workload", "math", "floor"};
  for (const auto& label : labels) headers.push_back(heading_of(report, label));

  std::vector<std::vector<report::Cell>> cells;
  for (const auto& row : rows) {
    std::vector<report::Cell> line{
        {row.workload}, {std::string(to_string(row.math))}, {report::format_duration(row.floor_s)}};
    for (std::size_t i = 0; i < labels.size(); ++i) {
      const Result* r = row.results[i];
      line.push_back({side_cell(row, i, reference), r ? report::tone_of(r->status) : report::Tone::plain});
    }
    cells.push_back(std::move(line));
  }
  const std::string versus = reference.baseline ? fmt::format("against the baseline, {}", labels[*reference.baseline])
                                                : std::string("against the fastest verified result of its row");

  if (format == ReportFormat::markdown) {
    for (ResultDevice device : report::result_devices(report)) out << "- " << report::device_line(report, device) << '\n';
    out << fmt::format("- {}; each time {}\n\n", samples_text(report), versus);
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
  for (ResultDevice device : report::result_devices(report)) out << report::device_line(report, device) << '\n';
  // Measured without colour codes, which take no columns. The side-by-side table has no ×floor: the
  // one-row-per-backend table does.
  const bool fits = widest_line(table.render(style.width, false).text) <= style.width;
  const std::string about = fmt::format("{}; each time {}{}", samples_text(report), versus,
                                        fits ? "" : "; (×floor) = median / the GPU's roofline floor, for GPU results");
  for (const std::string& line : report::wrap_words(about, style.width)) out << line << '\n';
  out << (fits ? table : long_table(report, rows, labels, reference)).render(style.width, style.color).text;
  write_totals(report, totals_of(rows, labels.size(), report.settings.math_modes), labels, reference, style.width,
               out);
  // Why each result that is not ok is not, wrapped to the width under its first line.
  const std::size_t room = style.width > 24 ? style.width - 4 : 20;
  for (const auto& r : report.results) {
    if (r.status == ResultStatus::ok) continue;
    const std::vector<std::string> lines = report::wrap_words(
        fmt::format("{} · {} · {}: {}: {}", r.workload, label_of(r), to_string(r.math_requested), to_string(r.status),
                    r.reason),
        room, room + 2);
    for (std::size_t i = 0; i < lines.size(); ++i) out << (i == 0 ? "  " : "    ") << lines[i] << '\n';
  }
}

}  // namespace kbench
