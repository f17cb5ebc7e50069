#pragma once
// A logarithmic axis for the report's charts: times span microseconds to seconds and rates span
// decades, so both charts are log-scaled. The domain snaps outward to "nice" values (1, 2, 5 ×
// 10^k) so tick labels are round numbers, and the ticks thin out to decades on wide ranges.
#include <vector>

namespace kbench::html {

class LogAxis {
 public:
  // Covers [data_min, data_max] (both > 0; equal is fine) mapped onto [pixel_lo, pixel_hi]
  // (pixel_hi may be smaller, for a y axis that grows upward).
  LogAxis(double data_min, double data_max, double pixel_lo, double pixel_hi);

  double lo() const { return lo_; }
  double hi() const { return hi_; }
  // Pixel position of `value`, clamped to the domain (a value <= 0 maps to the low end).
  double to_pixel(double value) const;
  bool contains(double value) const { return value >= lo_ && value <= hi_; }
  // Labelled ticks: 1-2-5 steps when the domain spans under three decades, decades beyond.
  std::vector<double> ticks() const;

 private:
  double lo_, hi_;
  double pixel_lo_, pixel_hi_;
};

// The largest 1, 2 or 5 × 10^k at most `value`, and the smallest at least `value` (value > 0).
double nice_floor(double value);
double nice_ceil(double value);

}  // namespace kbench::html
