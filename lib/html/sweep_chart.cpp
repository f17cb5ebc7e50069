#include "html/sweep_chart.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <tuple>

#include "html/escape.hpp"
#include "html/log_axis.hpp"
#include "html/svg.hpp"
#include "report/format.hpp"

namespace kbench::html {

namespace {

constexpr double kWidth = 980;
constexpr double kPlotLeft = 80, kPlotRight = 700, kLegendLeft = 720;
constexpr double kTimeTop = 30, kTimeBottom = 250;
constexpr double kRatioTop = 290, kRatioBottom = 430;
constexpr double kHeight = 480;

// The value of `key` at a point, or nothing when the point was not swept along it.
std::optional<std::string> value_of(const Workload& w, const std::string& key) {
  for (const SweepValue& v : w.sweep)
    if (v.key == key) return v.value;
  return std::nullopt;
}

// The one axis whose value differs between the points (every other axis the same), if there is one.
std::optional<std::string> varying_axis(const std::vector<const WorkloadSummary*>& points) {
  const Workload& first = points.front()->workload;
  std::optional<std::string> varying;
  for (const SweepValue& axis : first.sweep) {
    bool differs = false;
    for (const WorkloadSummary* p : points) {
      const auto value = value_of(p->workload, axis.key);
      if (!value || p->workload.sweep.size() != first.sweep.size()) return std::nullopt;
      differs = differs || *value != axis.value;
    }
    if (differs && varying) return std::nullopt;  // a second varying axis
    if (differs) varying = axis.key;
  }
  return varying;
}

// One line on the chart: the results of one backend request at one math mode from one run.
struct Series {
  std::string label;
  std::string color;
  bool tf32 = false;
  std::vector<const PageEntry*> at;  // per point; null where there is nothing to draw
};

std::vector<Series> series_of(const PageModel& model, const SweepGroup& sweep,
                              const std::vector<const PageEntry*>& entries) {
  std::vector<Series> series;
  std::map<std::tuple<std::size_t, std::string, std::string, MathMode>, std::size_t> index;
  const bool several = model.sources && model.sources->size() > 1;
  for (std::size_t p = 0; p < sweep.points.size(); ++p)
    for (const PageEntry* e : entries) {
      const Result& r = *e->view.result;
      if (!e->plotted || r.workload != sweep.points[p]->workload.name) continue;
      const auto key = std::tuple{e->document, r.backend, r.variant, r.math_requested};
      auto [it, added] = index.emplace(key, series.size());
      if (added) {
        const std::string label =
            fmt::format("{}{}{}{} {}", several ? fmt::format("#{} ", e->document + 1) : "", r.backend,
                        r.variant.empty() ? "" : ":", r.variant, to_string(r.math_requested));
        series.push_back({label, model.color_of(*e), r.math_used == MathMode::tf32,
                          std::vector<const PageEntry*>(sweep.points.size(), nullptr)});
      }
      if (!series[it->second].at[p]) series[it->second].at[p] = e;  // one mark per point: the first result
    }
  return series;
}

std::vector<MathMode> modes_of(const std::vector<Series>& series) {
  for (const Series& s : series)
    for (const PageEntry* e : s.at)
      if (e && e->view.result->math_used == MathMode::tf32) return {MathMode::fp32, MathMode::tf32};
  return {MathMode::fp32};
}

double x_of(std::size_t point, std::size_t count) {
  if (count < 2) return (kPlotLeft + kPlotRight) / 2;
  return kPlotLeft + 20 + (kPlotRight - kPlotLeft - 40) * static_cast<double>(point) / static_cast<double>(count - 1);
}

struct Range {
  double lo = std::numeric_limits<double>::infinity(), hi = 0;
  void include(double v) {
    if (!(v > 0) || !std::isfinite(v)) return;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  LogAxis axis(double top, double bottom, double fallback) const {
    return hi > 0 ? LogAxis(lo / 1.3, hi * 1.3, bottom, top) : LogAxis(fallback, fallback, bottom, top);
  }
};

// Polylines through consecutive points that have a value; a missing point breaks the line.
std::string lines_through(const std::vector<std::optional<double>>& ys, std::size_t count,
                          std::string_view attributes) {
  std::string out, points;
  std::size_t in_line = 0;
  const auto flush = [&] {
    if (in_line >= 2) out += fmt::format("<polyline points=\"{}\" {}/>", points, attributes);
    points.clear();
    in_line = 0;
  };
  for (std::size_t p = 0; p < ys.size(); ++p) {
    if (!ys[p]) {
      flush();
      continue;
    }
    points += fmt::format("{}{},{}", in_line++ == 0 ? "" : " ", px(x_of(p, count)), px(*ys[p]));
  }
  flush();
  return out;
}

std::string mark(double x, double y, bool square, const std::string& color) {
  return square ? fmt::format("<rect x=\"{}\" y=\"{}\" width=\"9\" height=\"9\" fill=\"{}\"/>", px(x - 4.5),
                              px(y - 4.5), color)
                : fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"4.5\" fill=\"{}\"/>", px(x), px(y), color);
}

std::string y_ticks(const LogAxis& y, bool durations) {
  std::string out;
  for (double tick : y.ticks()) {
    out += svg_line(kPlotLeft, y.to_pixel(tick), kPlotRight, y.to_pixel(tick), "grid");
    out += svg_text(kPlotLeft - 6, y.to_pixel(tick) + 4, durations ? compact_duration(tick) : compact_si(tick) + "×",
                    "end", "tick");
  }
  return out;
}

}  // namespace

std::vector<SweepGroup> find_sweeps(const std::vector<const WorkloadSummary*>& workloads) {
  std::vector<SweepGroup> groups;
  for (const WorkloadSummary* w : workloads) {
    const std::string& origin = w->workload.sweep_origin;
    if (origin.empty()) continue;
    auto group = std::find_if(groups.begin(), groups.end(), [&](const SweepGroup& g) { return g.origin == origin; });
    if (group == groups.end()) group = groups.insert(groups.end(), SweepGroup{origin, "", {}});
    group->points.push_back(w);
  }
  std::vector<SweepGroup> drawable;
  for (SweepGroup& g : groups) {
    if (g.points.size() < 2) continue;
    if (const auto axis = varying_axis(g.points)) {
      g.axis = *axis;
      drawable.push_back(std::move(g));
    }
  }
  return drawable;
}

std::string sweep_svg(const PageModel& model, const SweepGroup& sweep, const std::vector<const PageEntry*>& entries) {
  const std::vector<Series> series = series_of(model, sweep, entries);
  const std::vector<MathMode> modes = modes_of(series);
  const std::size_t count = sweep.points.size();

  Range times, ratios;
  for (const WorkloadSummary* p : sweep.points)
    for (MathMode math : modes) times.include(p->floor_for(math).floor_s);
  for (const Series& s : series)
    for (const PageEntry* e : s.at)
      if (e) {
        times.include(e->view.timing->stats.median);
        if (e->view.headroom) ratios.include(*e->view.headroom);
      }
  ratios.include(1);  // the floor itself is always on the ×floor panel
  const LogAxis time_y = times.axis(kTimeTop, kTimeBottom, 1e-3);
  const LogAxis ratio_y = ratios.axis(kRatioTop, kRatioBottom, 1);

  std::string out = fmt::format(
      "<svg class=\"chart sweep\" viewBox=\"0 0 {0} {1}\" width=\"{0}\" height=\"{1}\" role=\"img\" "
      "aria-label=\"{2}\">",
      kWidth, kHeight, escape(fmt::format("{} along {}: time and ×floor per backend", sweep.origin, sweep.axis)));
  out += y_ticks(time_y, true) + y_ticks(ratio_y, false);
  out += svg_text(kPlotLeft, kTimeTop - 12, "median time (floor dashed)", "start", "axis-label");
  out += svg_text(kPlotLeft, kRatioTop - 12, "×floor (median / floor)", "start", "axis-label");
  for (std::size_t p = 0; p < count; ++p) {
    const double x = x_of(p, count);
    out += svg_line(x, kTimeTop, x, kRatioBottom, "grid");
    const auto value = value_of(sweep.points[p]->workload, sweep.axis);
    out += svg_text(x, kRatioBottom + 16, value ? *value : "?", "middle", "tick");
  }
  out += svg_text((kPlotLeft + kPlotRight) / 2, kRatioBottom + 36, sweep.axis, "middle", "axis-label");
  out += svg_line(kPlotLeft, ratio_y.to_pixel(1), kPlotRight, ratio_y.to_pixel(1), "sweep-floor");

  double legend_y = kTimeTop + 4;
  for (MathMode math : modes) {
    std::vector<std::optional<double>> ys;
    for (const WorkloadSummary* p : sweep.points) ys.push_back(time_y.to_pixel(p->floor_for(math).floor_s));
    out += lines_through(ys, count,
                         fmt::format("class=\"sweep-floor{}\"", math == MathMode::tf32 ? " sweep-floor-tf32" : ""));
    out += svg_line(kLegendLeft, legend_y, kLegendLeft + 22, legend_y,
                    math == MathMode::tf32 ? "sweep-floor sweep-floor-tf32" : "sweep-floor");
    out += svg_text(kLegendLeft + 28, legend_y + 4, fmt::format("{} floor", to_string(math)), "start", "row-label");
    legend_y += 16;
  }
  for (const Series& s : series) {
    std::vector<std::optional<double>> time_ys, ratio_ys;
    for (const PageEntry* e : s.at) {
      time_ys.push_back(e ? std::optional(time_y.to_pixel(e->view.timing->stats.median)) : std::nullopt);
      ratio_ys.push_back(e && e->view.headroom ? std::optional(ratio_y.to_pixel(*e->view.headroom)) : std::nullopt);
    }
    const std::string stroke = fmt::format("class=\"sweep-line\" stroke=\"{}\"", s.color);
    out += lines_through(time_ys, count, stroke) + lines_through(ratio_ys, count, stroke);
    for (std::size_t p = 0; p < count; ++p) {
      const PageEntry* e = s.at[p];
      if (!e) continue;
      const double median = e->view.timing->stats.median;
      std::string title =
          fmt::format("{} at {}={}: median {}", s.label, sweep.axis, *value_of(sweep.points[p]->workload, sweep.axis),
                      report::format_duration(median));
      if (e->view.headroom) title += ", " + report::format_headroom(*e->view.headroom);
      std::string marks = mark(x_of(p, count), time_y.to_pixel(median), s.tf32, s.color);
      if (ratio_ys[p]) marks += mark(x_of(p, count), *ratio_ys[p], s.tf32, s.color);
      out += fmt::format("<g class=\"sweep-point\" data-result=\"{}\">{}<title>{}</title></g>", e->id, marks,
                         escape(title));
    }
    out += mark(kLegendLeft + 11, legend_y, s.tf32, s.color);
    out += svg_text(kLegendLeft + 28, legend_y + 4, report::shorten_middle(s.label, 34), "start", "row-label");
    legend_y += 16;
  }
  if (series.empty())
    out += svg_text((kPlotLeft + kPlotRight) / 2, kTimeTop + 60, "no timed results", "middle", "empty-note");
  out += "</svg>";
  return out;
}

}  // namespace kbench::html
