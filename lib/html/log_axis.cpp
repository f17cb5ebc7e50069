#include "html/log_axis.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace kbench::html {

namespace {

constexpr std::array<double, 3> kSteps = {1, 2, 5};
// Values within this relative distance of a nice value count as on it (10^k is not exact in binary).
constexpr double kSlack = 1e-9;

}  // namespace

double nice_floor(double value) {
  const double decade = std::pow(10.0, std::floor(std::log10(value)));
  double best = decade;
  for (double step : kSteps)
    if (step * decade <= value * (1 + kSlack)) best = step * decade;
  return best;
}

double nice_ceil(double value) {
  const double decade = std::pow(10.0, std::floor(std::log10(value)));
  for (double step : kSteps)
    if (step * decade >= value * (1 - kSlack)) return step * decade;
  return 10 * decade;
}

LogAxis::LogAxis(double data_min, double data_max, double pixel_lo, double pixel_hi)
    : pixel_lo_(pixel_lo), pixel_hi_(pixel_hi) {
  if (!(data_min > 0) || !std::isfinite(data_min)) data_min = 1;
  if (!(data_max > 0) || !std::isfinite(data_max)) data_max = data_min;
  if (data_max < data_min) std::swap(data_min, data_max);
  lo_ = nice_floor(data_min);
  hi_ = nice_ceil(data_max);
  if (hi_ <= lo_) hi_ = nice_ceil(lo_ * 1.5);  // a single value still gets a span around it
}

double LogAxis::to_pixel(double value) const {
  const double clamped = std::clamp(value > 0 ? value : lo_, lo_, hi_);
  const double fraction = (std::log10(clamped) - std::log10(lo_)) / (std::log10(hi_) - std::log10(lo_));
  return pixel_lo_ + fraction * (pixel_hi_ - pixel_lo_);
}

std::vector<double> LogAxis::ticks() const {
  const bool decades_only = std::log10(hi_ / lo_) >= 3;
  std::vector<double> out;
  for (double decade = std::pow(10.0, std::floor(std::log10(lo_))); decade <= hi_ * (1 + kSlack); decade *= 10)
    for (double step : kSteps) {
      if (decades_only && step != 1) continue;
      const double tick = step * decade;
      if (tick >= lo_ * (1 - kSlack) && tick <= hi_ * (1 + kSlack)) out.push_back(tick);
    }
  return out;
}

}  // namespace kbench::html
