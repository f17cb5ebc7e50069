#include "html/workload_chart.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "html/escape.hpp"
#include "html/log_axis.hpp"
#include "html/svg.hpp"
#include "report/format.hpp"
#include "report/record_math.hpp"

namespace kbench::html {

namespace {

constexpr double kWidth = 980;
constexpr double kLabelRight = 300;  // row labels end here
constexpr double kPlotLeft = 310, kPlotRight = 800;
constexpr double kTop = 44, kRowHeight = 24;

struct Spread {
  double low, high;
};

// The spread the text report prints: p10–p90 from 10 samples on, ±stdev below that.
Spread spread_of(const Statistics& s) {
  if (s.count >= 10) return {s.p10, s.p90};
  return {std::max(s.median - s.stdev, s.min), s.median + s.stdev};
}

std::vector<MathMode> modes_in_use(const std::vector<const PageEntry*>& entries) {
  bool tf32 = false;
  for (const PageEntry* e : entries) tf32 = tf32 || e->view.result->math_used == MathMode::tf32;
  return tf32 ? std::vector<MathMode>{MathMode::fp32, MathMode::tf32} : std::vector<MathMode>{MathMode::fp32};
}

// Labelled "<label> <seconds><note>", e.g. "fp32 compute 3.33 ms (3xTF32)".
std::string term_line(const LogAxis& x, double seconds, double bottom, std::string_view css_class,
                      std::string_view label, int label_row, std::string_view note = "") {
  if (!(seconds > 0)) return "";
  const double at = x.to_pixel(seconds);
  return svg_line(at, kTop - 4, at, bottom, css_class) +
         svg_text(at, 14 + 13.0 * label_row, fmt::format("{} {}{}", label, report::format_duration(seconds), note),
                  "middle", std::string(css_class) + "-label");
}

std::string row_label(double y, std::string_view text) {
  return svg_text(kLabelRight, y + 4, report::shorten_middle(text, 44), "end", "row-label");
}

}  // namespace

std::string workload_svg(const PageModel& model, const WorkloadSummary& summary,
                         const std::vector<const PageEntry*>& entries) {
  const std::vector<PublishedRecord>& records = summary.workload.records;
  const std::vector<MathMode> modes = modes_in_use(entries);
  const double rows = static_cast<double>(entries.size() + records.size());
  const double bottom = kTop + std::max(rows, 1.0) * kRowHeight + 6;
  const double height = bottom + 34;

  double lo = std::numeric_limits<double>::infinity(), hi = 0;
  const auto include = [&](double seconds) {
    if (!(seconds > 0) || !std::isfinite(seconds)) return;
    lo = std::min(lo, seconds);
    hi = std::max(hi, seconds);
  };
  for (MathMode math : modes) {
    const Floor& floor = summary.floor_for(math);
    include(floor.memory_s);
    include(floor.compute_s);
  }
  for (const PageEntry* e : entries) {
    const Spread spread = spread_of(e->view.timing->stats);
    include(spread.low);
    include(spread.high);
  }
  for (const PublishedRecord& r : records) {
    include(r.ms * 1e-3);
    if (r.stdev_ms > 0) include((r.ms + r.stdev_ms) * 1e-3);
  }
  if (hi == 0) lo = hi = 1e-3;
  const LogAxis x(lo / 1.3, hi * 1.3, kPlotLeft, kPlotRight);

  std::string out = fmt::format(
      "<svg class=\"chart times\" viewBox=\"0 0 {0} {1}\" width=\"{0}\" height=\"{1}\" role=\"img\" "
      "aria-label=\"{2}\">",
      kWidth, px(height), escape("times of " + summary.workload.name + " against the roofline floor"));
  // No implementation can run faster than the floor of its math mode: shade up to the lowest one.
  double lowest_floor = std::numeric_limits<double>::infinity();
  for (MathMode math : modes) lowest_floor = std::min(lowest_floor, summary.floor_for(math).floor_s);
  if (lowest_floor > 0 && std::isfinite(lowest_floor))
    out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" class=\"below-floor\"/>", px(kPlotLeft),
                       px(kTop - 4), px(x.to_pixel(lowest_floor) - kPlotLeft), px(bottom - kTop + 4));
  for (double tick : x.ticks()) {
    out += svg_line(x.to_pixel(tick), kTop - 4, x.to_pixel(tick), bottom, "grid");
    out += svg_text(x.to_pixel(tick), bottom + 16, compact_duration(tick), "middle", "tick");
  }
  const Floor& fp32 = summary.floor_for(MathMode::fp32);
  out += term_line(x, fp32.memory_s, bottom, "memory-term", "memory", 0);
  int label_row = 1;
  for (MathMode math : modes) {
    const Floor& floor = summary.floor_for(math);
    out += term_line(x, floor.compute_s, bottom, "compute-term", fmt::format("{} compute", to_string(math)),
                     label_row++, fmt::format(" ({})", to_string(floor.compute_units)));
  }

  double y = kTop + kRowHeight / 2;
  for (const PageEntry* e : entries) {
    const report::ResultView& view = e->view;
    const Statistics& stats = view.timing->stats;
    const Spread spread = spread_of(stats);
    const std::string color = model.color_of(*e);
    out += row_label(y, e->label);
    out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" class=\"spread\" stroke=\"{}\"/>",
                       px(x.to_pixel(spread.low)), px(y), px(x.to_pixel(spread.high)), px(y), color);
    std::string title =
        fmt::format("{}: median {}, spread {}–{}, {} samples", e->label, report::format_duration(stats.median),
                    report::format_duration(spread.low), report::format_duration(spread.high), stats.count);
    const std::string shape = view.result->math_used == MathMode::tf32
                                  ? fmt::format("<rect x=\"{}\" y=\"{}\" width=\"10\" height=\"10\" fill=\"{}\"/>",
                                                px(x.to_pixel(stats.median) - 5), px(y - 5), color)
                                  : fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"5.5\" fill=\"{}\"/>",
                                                px(x.to_pixel(stats.median)), px(y), color);
    out +=
        fmt::format("<g class=\"median-mark\" data-result=\"{}\">{}<title>{}</title></g>", e->id, shape, escape(title));
    std::string right = report::format_duration(stats.median);
    if (view.headroom) right += " · " + report::format_headroom(*view.headroom);
    out += svg_text(kPlotRight + 10, y + 4, right, "start", "row-value");
    y += kRowHeight;
  }
  for (const PublishedRecord& r : records) {
    const double at = x.to_pixel(r.ms * 1e-3);
    // The math it ran under, beside results whose math column says theirs (report/record_math.hpp).
    out += row_label(y, fmt::format("published ({}): {}, {}", report::record_math_text(r), r.implementation, r.hardware));
    if (r.stdev_ms > 0)
      out += svg_line(x.to_pixel((r.ms - r.stdev_ms) * 1e-3), y, x.to_pixel((r.ms + r.stdev_ms) * 1e-3), y,
                      "record-spread");
    out += fmt::format("<g class=\"record-mark\"><path d=\"M{0} {1} l6 6 l-6 6 l-6 -6 z\"/><title>{2}</title></g>",
                       px(at), px(y - 6),
                       escape(fmt::format("{} on {}, math {}: {} ({})", r.implementation, r.hardware,
                                          report::record_math_text(r), report::format_duration(r.ms * 1e-3), r.source)));
    out +=
        svg_text(kPlotRight + 10, y + 4, report::format_duration(r.ms * 1e-3) + " (published)", "start", "row-value");
    y += kRowHeight;
  }
  if (rows == 0) out += svg_text((kPlotLeft + kPlotRight) / 2, kTop + 14, "no timed results", "middle", "empty-note");
  out += "</svg>";
  return out;
}

}  // namespace kbench::html
