#pragma once
// The few SVG elements the charts are made of, written as text. Coordinates are rounded to a tenth
// of a pixel: finer is invisible and only bloats the page.
#include <string>
#include <string_view>

namespace kbench::html {

std::string px(double value);  // "12.3"

std::string svg_line(double x1, double y1, double x2, double y2, std::string_view css_class);
// `text` is escaped here; anchor is "start", "middle" or "end".
std::string svg_text(double x, double y, std::string_view text, std::string_view anchor, std::string_view css_class);

// Tick labels: a value with a decimal prefix and as few digits as it needs ("20 T", "500 m").
// Tick values are 1, 2 or 5 × 10^k, so no rounding is ever hidden.
std::string compact_si(double value);
// A tick on a time axis: "500 µs", "2 ms", "1 s".
std::string compact_duration(double seconds);

}  // namespace kbench::html
