#include "html/svg.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>

#include "html/escape.hpp"

namespace kbench::html {

namespace {

struct Prefix {
  double scale;
  const char* symbol;
};
// From the largest down; the first not above the value wins.
constexpr std::array<Prefix, 11> kPrefixes = {{{1e18, "E"},
                                               {1e15, "P"},
                                               {1e12, "T"},
                                               {1e9, "G"},
                                               {1e6, "M"},
                                               {1e3, "k"},
                                               {1, ""},
                                               {1e-3, "m"},
                                               {1e-6, "µ"},
                                               {1e-9, "n"},
                                               {1e-12, "p"}}};

// Tick values sit on 1, 2, 5 × 10^k up to floating-point dust; "{:.3g}" removes the dust.
std::string short_number(double value) { return fmt::format("{:.3g}", value); }

}  // namespace

std::string px(double value) { return fmt::format("{:.1f}", value); }

std::string svg_line(double x1, double y1, double x2, double y2, std::string_view css_class) {
  return fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" class=\"{}\"/>", px(x1), px(y1), px(x2), px(y2),
                     css_class);
}

std::string svg_text(double x, double y, std::string_view text, std::string_view anchor, std::string_view css_class) {
  return fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"{}\" class=\"{}\">{}</text>", px(x), px(y), anchor,
                     css_class, escape(text));
}

std::string compact_si(double value) {
  if (value == 0 || !std::isfinite(value)) return short_number(value);
  const double magnitude = std::fabs(value) * (1 + 1e-9);
  for (const Prefix& prefix : kPrefixes)
    if (magnitude >= prefix.scale)
      return fmt::format("{}{}{}", short_number(value / prefix.scale), *prefix.symbol ? " " : "", prefix.symbol);
  return short_number(value);
}

std::string compact_duration(double seconds) {
  const double magnitude = seconds * (1 + 1e-9);
  if (magnitude >= 1) return short_number(seconds) + " s";
  if (magnitude >= 1e-3) return short_number(seconds * 1e3) + " ms";
  if (magnitude >= 1e-6) return short_number(seconds * 1e6) + " µs";
  return short_number(seconds * 1e9) + " ns";
}

}  // namespace kbench::html
