#include "html/roofline_chart.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

#include "html/escape.hpp"
#include "html/log_axis.hpp"
#include "html/svg.hpp"
#include "report/format.hpp"

namespace kbench::html {

namespace {

constexpr double kWidth = 760, kHeight = 470;
constexpr double kLeft = 84, kRight = kWidth - 24, kTop = 22, kBottom = kHeight - 58;

struct Point {
  const PageEntry* entry;
  double intensity;  // FLOP/byte
  double flops;      // achieved FLOP/s
};

struct Domain {
  double x_min = std::numeric_limits<double>::infinity(), x_max = 0;
  double y_min = std::numeric_limits<double>::infinity(), y_max = 0;
  void include_x(double x) {
    x_min = std::min(x_min, x);
    x_max = std::max(x_max, x);
  }
  void include(double x, double y) {
    include_x(x);
    y_min = std::min(y_min, y);
    y_max = std::max(y_max, y);
  }
};

std::vector<MathMode> roof_modes(const std::vector<Point>& points) {
  bool tf32 = false;
  for (const Point& p : points) tf32 = tf32 || p.entry->view.result->math_used == MathMode::tf32;
  return tf32 ? std::vector<MathMode>{MathMode::fp32, MathMode::tf32} : std::vector<MathMode>{MathMode::fp32};
}

std::string axes(const LogAxis& x, const LogAxis& y) {
  std::string out;
  for (double tick : x.ticks()) {
    const double px_x = x.to_pixel(tick);
    out += svg_line(px_x, kTop, px_x, kBottom, "grid");
    out += svg_text(px_x, kBottom + 16, compact_si(tick), "middle", "tick");
  }
  for (double tick : y.ticks()) {
    const double px_y = y.to_pixel(tick);
    out += svg_line(kLeft, px_y, kRight, px_y, "grid");
    out += svg_text(kLeft - 6, px_y + 4, compact_si(tick), "end", "tick");
  }
  out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" class=\"frame\"/>", px(kLeft), px(kTop),
                     px(kRight - kLeft), px(kBottom - kTop));
  out += svg_text((kLeft + kRight) / 2, kHeight - 14, "arithmetic intensity (FLOP per byte of device memory traffic)",
                  "middle", "axis-label");
  // The y axis's title, along it: the ticks carry only the SI prefix.
  const double title_x = 18, title_y = (kTop + kBottom) / 2;
  out += fmt::format("<g transform=\"rotate(-90 {} {})\">{}</g>", px(title_x), px(title_y),
                     svg_text(title_x, title_y, "achieved FLOP/s (from the median)", "middle", "axis-label"));
  return out;
}

// The roof min(bandwidth × I, peak) across the x domain, as a polyline clipped to the y domain.
std::string roof(const LogAxis& x, const LogAxis& y, double bandwidth, double peak, MathMode math, ComputeUnits units) {
  std::vector<double> xs;
  const double start = std::max(x.lo(), y.lo() / bandwidth);  // where the memory roof enters the plot
  const double ridge = peak / bandwidth;
  xs.push_back(start);
  if (ridge > start && ridge < x.hi()) xs.push_back(ridge);
  xs.push_back(x.hi());
  std::string points;
  for (double xi : xs) {
    const double yi = std::min(bandwidth * xi, peak);
    points += fmt::format("{},{} ", px(x.to_pixel(xi)), px(y.to_pixel(yi)));
  }
  std::string out = fmt::format("<polyline points=\"{}\" class=\"roof roof-{}\"/>", points, to_string(math));
  const std::string label =
      fmt::format("{} compute roof {} ({})", to_string(math), report::format_flop_rate(peak), to_string(units));
  if (y.contains(peak)) out += svg_text(kRight - 4, y.to_pixel(peak) - 5, label, "end", "roof-label");
  return out;
}

// The bandwidth label runs along the memory roof, a quarter of the way up its visible part.
std::string memory_roof_label(const LogAxis& x, const LogAxis& y, double bandwidth) {
  const double x0 = std::max(x.lo(), y.lo() / bandwidth);
  const double x1 = std::min(x.hi(), y.hi() / bandwidth);
  if (!(x1 > x0)) return "";
  const double px0 = x.to_pixel(x0), py0 = y.to_pixel(bandwidth * x0);
  const double px1 = x.to_pixel(x1), py1 = y.to_pixel(bandwidth * x1);
  const double angle = std::atan2(py1 - py0, px1 - px0) * 180 / std::numbers::pi;
  const double at_x = px0 + 0.25 * (px1 - px0), at_y = py0 + 0.25 * (py1 - py0) - 6;
  return fmt::format(
      "<g transform=\"rotate({} {} {})\">{}</g>", px(angle), px(at_x), px(at_y),
      svg_text(at_x, at_y, "memory roof " + report::format_bandwidth(bandwidth), "middle", "roof-label"));
}

// "W1", "W2", ... under each workload's column of points, in the order their sections appear;
// tags that would overlap are stacked upward instead.
std::string workload_tags(const LogAxis& x, const std::vector<const WorkloadSummary*>& workloads) {
  struct Tag {
    double at;
    std::size_t number;
  };
  std::vector<Tag> tags;
  for (std::size_t w = 0; w < workloads.size(); ++w) {
    const double intensity = workloads[w]->metrics.arithmetic_intensity();
    if (intensity > 0) tags.push_back({x.to_pixel(intensity), w + 1});
  }
  std::sort(tags.begin(), tags.end(), [](const Tag& a, const Tag& b) { return a.at < b.at; });
  std::string out;
  std::vector<double> last_at_level;  // right end of the last tag on each level
  for (const Tag& tag : tags) {
    std::size_t level = 0;
    while (level < last_at_level.size() && tag.at - last_at_level[level] < 22) ++level;
    if (level == last_at_level.size()) last_at_level.push_back(0);
    last_at_level[level] = tag.at;
    out += svg_text(tag.at, kBottom - 6 - 12.0 * static_cast<double>(level), fmt::format("W{}", tag.number), "middle",
                    "workload-tag");
  }
  return out;
}

std::string point_svg(const Point& p, const LogAxis& x, const LogAxis& y, const std::string& color,
                      const std::string& workload_tag) {
  const report::ResultView& view = p.entry->view;
  const Result& r = *view.result;
  const double cx = x.to_pixel(p.intensity);
  const double cy = y.to_pixel(p.flops);
  std::string title = fmt::format("{} · {}: median {}, {}, {} FLOP/B", workload_tag, p.entry->label,
                                  report::format_duration(view.timing->stats.median), report::format_flop_rate(p.flops),
                                  report::format_significant(p.intensity));
  if (view.headroom) title += ", " + report::format_headroom(*view.headroom);
  const std::string shape =
      r.math_used == MathMode::tf32
          ? fmt::format("<rect x=\"{}\" y=\"{}\" width=\"10\" height=\"10\" fill=\"{}\"/>", px(cx - 5), px(cy - 5),
                        color)
          : fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"5.5\" fill=\"{}\"/>", px(cx), px(cy), color);
  return fmt::format("<g class=\"roofline-point\" data-result=\"{}\">{}<title>{}</title></g>", p.entry->id, shape,
                     escape(title));
}

}  // namespace

std::string roofline_svg(const PageModel& model, const DeviceGroup& device) {
  const DevicePeaks& peaks = device.peaks;
  std::vector<Point> points;
  for (const PageEntry* entry : model.entries_of(device))
    if (entry->plotted)
      points.push_back({entry, entry->view.summary->metrics.arithmetic_intensity(), *entry->view.achieved_flops});
  const std::vector<MathMode> modes = roof_modes(points);

  const std::vector<const WorkloadSummary*> workloads = model.workloads_of(device);
  Domain domain;
  for (const Point& p : points) domain.include(p.intensity, p.flops);
  // Every workload's column is on the chart, timed or not, so its tag never sits at a clamped edge.
  for (const WorkloadSummary* w : workloads)
    if (w->metrics.arithmetic_intensity() > 0) domain.include_x(w->metrics.arithmetic_intensity());
  for (MathMode math : modes)
    if (peaks.bandwidth_Bps > 0 && peaks.flops_for(math) > 0)
      domain.include(peaks.flops_for(math) / peaks.bandwidth_Bps, peaks.flops_for(math));
  // No peaks and nothing timed: an empty but labelled frame.
  if (domain.x_max == 0) domain.include_x(1);
  if (domain.y_max == 0) domain.include(domain.x_min, 1e12);
  const LogAxis x(domain.x_min / 4, domain.x_max * 4, kLeft, kRight);
  const LogAxis y(std::min(domain.y_min, domain.y_max / 1e3) / 2, domain.y_max * 2, kBottom, kTop);

  std::string out = fmt::format(
      "<svg class=\"chart roofline\" viewBox=\"0 0 {0} {1}\" width=\"{0}\" height=\"{1}\" role=\"img\" "
      "aria-label=\"{2}\">",
      kWidth, kHeight, escape("roofline of " + device_title(peaks)));
  out += axes(x, y);
  if (peaks.bandwidth_Bps > 0) {
    for (MathMode math : modes)
      if (peaks.flops_for(math) > 0)
        out += roof(x, y, peaks.bandwidth_Bps, peaks.flops_for(math), math, peaks.compute_units_for(math));
    out += memory_roof_label(x, y, peaks.bandwidth_Bps);
  }

  out += workload_tags(x, workloads);
  for (const Point& p : points) {
    std::string tag = p.entry->view.result->workload;
    for (std::size_t w = 0; w < workloads.size(); ++w)
      if (workloads[w]->workload.name == tag) tag = fmt::format("W{} {}", w + 1, tag);
    out += point_svg(p, x, y, model.color_of(*p.entry), tag);
  }
  if (points.empty())
    out += svg_text((kLeft + kRight) / 2, (kTop + kBottom) / 2, "no timed results", "middle", "empty-note");
  out += "</svg>";
  return out;
}

}  // namespace kbench::html
