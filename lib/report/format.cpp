#include "report/format.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

namespace kbench::report {

namespace {

// `value` rounded to `digits` significant figures and the decimal exponent of the rounded value.
// Going through scientific notation makes the rounding and the exponent agree (9.996 -> 1.00e+01).
struct Rounded {
  double value;
  int exponent;
};

Rounded round_significant(double value, int digits) {
  if (value == 0) return {0, 0};
  const std::string scientific = fmt::format("{:.{}e}", value, digits - 1);
  const auto e = scientific.find('e');
  return {std::strtod(scientific.c_str(), nullptr), std::atoi(scientific.c_str() + e + 1)};
}

std::string non_finite(double value) {
  if (std::isnan(value)) return "n/a";
  return value > 0 ? "inf" : "-inf";
}

// Index into k, M, G, T, P, E for a value >= 1000 (0 = no prefix), chosen after rounding.
int decimal_prefix_index(double value) {
  const Rounded rounded = round_significant(std::fabs(value), 3);
  if (rounded.exponent < 3) return 0;
  return std::min(rounded.exponent / 3, 6);
}

constexpr std::array<std::string_view, 7> kPrefixes = {"", "k", "M", "G", "T", "P", "E"};

// Byte offsets of each code point's first byte, plus the string's end.
std::vector<std::size_t> code_point_starts(std::string_view text) {
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i < text.size(); ++i)
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) starts.push_back(i);
  starts.push_back(text.size());
  return starts;
}

constexpr std::string_view kEllipsis = "…";

}  // namespace

std::string format_significant(double value, int digits) {
  if (!std::isfinite(value)) return non_finite(value);
  digits = std::max(digits, 1);
  const Rounded rounded = round_significant(value, digits);
  if (rounded.value == 0) return "0";  // no digits to be significant: "0", not "0.00"
  const int decimals = std::max(0, digits - 1 - rounded.exponent);
  return fmt::format("{:.{}f}", rounded.value, decimals);
}

DurationUnit duration_unit(double seconds) {
  const double magnitude = std::fabs(round_significant(seconds, 3).value);
  if (magnitude == 0 || magnitude >= 1) return {"s", 1};
  if (magnitude >= 1e-3) return {"ms", 1e-3};
  if (magnitude >= 1e-6) return {"µs", 1e-6};
  return {"ns", 1e-9};  // floors of tiny example problems
}

std::string format_duration(double seconds) {
  if (!std::isfinite(seconds)) return non_finite(seconds);
  const DurationUnit unit = duration_unit(seconds);
  return fmt::format("{} {}", format_significant(seconds / unit.scale), unit.suffix);
}

std::string format_quantity(double value, std::string_view unit) {
  if (!std::isfinite(value)) return fmt::format("{} {}", non_finite(value), unit);
  const int index = decimal_prefix_index(value);
  const double scaled = value / std::pow(1000.0, index);
  return fmt::format("{} {}{}", format_significant(scaled), kPrefixes[static_cast<std::size_t>(index)], unit);
}

std::string format_bandwidth(double bytes_per_second) { return format_quantity(bytes_per_second, "B") + "/s"; }

std::string format_flop_rate(double flops_per_second) { return format_quantity(flops_per_second, "FLOP") + "/s"; }

std::string format_count(std::int64_t count) {
  if (count > -10000 && count < 10000) return fmt::format("{}", count);  // four digits fit any column
  const double value = static_cast<double>(count);
  const int index = decimal_prefix_index(value);
  return format_significant(value / std::pow(1000.0, index)) + std::string(kPrefixes[static_cast<std::size_t>(index)]);
}

std::string format_ratio(double ratio) { return format_significant(ratio) + "×"; }

std::string format_headroom(double ratio) { return format_ratio(ratio) + " floor"; }

std::size_t display_width(std::string_view utf8) {
  return static_cast<std::size_t>(
      std::count_if(utf8.begin(), utf8.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string shorten_middle(std::string_view text, std::size_t width) {
  const auto starts = code_point_starts(text);
  const std::size_t length = starts.size() - 1;
  if (length <= width) return std::string(text);
  if (width == 0) return {};
  const std::size_t kept = width - 1;  // one column goes to the ellipsis
  const std::size_t head = (kept + 1) / 2;
  const std::size_t tail = kept / 2;
  std::string out(text.substr(0, starts[head]));
  out += kEllipsis;
  out += text.substr(starts[length - tail]);
  return out;
}

namespace {

// Whether cutting kept apart every pair of texts that were different.
bool keeps_apart(const std::vector<std::string>& texts, const std::vector<std::string>& cut) {
  for (std::size_t i = 0; i < texts.size(); ++i)
    for (std::size_t j = i + 1; j < texts.size(); ++j)
      if (texts[i] != texts[j] && cut[i] == cut[j]) return false;
  return true;
}

bool is_separator(char c) { return c == '-' || c == '_' || c == '.' || c == ':' || c == '/' || c == ' '; }

// The bytes every text starts with, cut back to just after a separator so no word is split.
std::size_t shared_prefix(const std::vector<std::string>& texts) {
  if (texts.size() < 2) return 0;
  std::size_t n = texts[0].size();
  for (const std::string& t : texts) {
    std::size_t i = 0;
    while (i < n && i < t.size() && t[i] == texts[0][i]) ++i;
    n = i;
  }
  while (n > 0 && !is_separator(texts[0][n - 1])) --n;
  return n;
}

std::string keep_end(std::string_view text, std::size_t width) {
  const auto starts = code_point_starts(text);
  const std::size_t length = starts.size() - 1;
  if (length <= width) return std::string(text);
  if (width == 0) return {};
  return std::string(kEllipsis) + std::string(text.substr(starts[length - (width - 1)]));
}

}  // namespace

std::vector<std::string> shorten_apart(const std::vector<std::string>& texts, std::size_t width) {
  std::vector<std::string> middle;
  for (const std::string& t : texts) middle.push_back(shorten_middle(t, width));
  if (keeps_apart(texts, middle) || width < 2) return middle;
  // Only the texts that do not fit need cutting; the shared prefix is judged among them.
  std::vector<std::string> long_texts;
  for (const std::string& t : texts)
    if (display_width(t) > width) long_texts.push_back(t);
  const std::size_t prefix = shared_prefix(long_texts);
  if (prefix > 0) {
    std::vector<std::string> rest;
    for (const std::string& t : texts)
      rest.push_back(display_width(t) <= width ? t
                                               : std::string(kEllipsis) + shorten_middle(std::string_view(t).substr(prefix), width - 1));
    if (keeps_apart(texts, rest)) return rest;
  }
  std::vector<std::string> ends;
  for (const std::string& t : texts) ends.push_back(keep_end(t, width));
  return keeps_apart(texts, ends) ? ends : middle;
}

std::string format_scaled(double value) {
  struct Prefix {
    double scale;
    const char* symbol;
  };
  static constexpr Prefix kPrefixes[] = {{1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}, {1, ""}};
  if (!(value > 0)) return format_significant(value);
  for (const Prefix& p : kPrefixes) {
    // Chosen after rounding, so 999.96e9 reads "1.00T", never "1000G".
    if (std::stod(format_significant(value / p.scale)) >= 1 || p.scale == 1)
      return format_significant(value / p.scale) + p.symbol;
  }
  return format_significant(value);
}

std::string shorten_end(std::string_view text, std::size_t width) {
  const auto starts = code_point_starts(text);
  const std::size_t length = starts.size() - 1;
  if (length <= width) return std::string(text);
  if (width == 0) return {};
  std::string out(text.substr(0, starts[width - 1]));
  out += kEllipsis;
  return out;
}

std::vector<std::string> wrap_words(std::string_view text, std::size_t width, std::size_t first_line_width) {
  std::vector<std::string> lines;
  std::string line;
  std::size_t line_width = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    if (text[pos] == ' ') {
      ++pos;
      continue;
    }
    const std::size_t end = std::min(text.find(' ', pos), text.size());
    const std::string_view word = text.substr(pos, end - pos);
    const std::size_t word_width = display_width(word);
    const std::size_t limit = lines.empty() ? first_line_width : width;
    if (!line.empty() && line_width + 1 + word_width > limit) {
      lines.push_back(std::move(line));
      line.clear();
      line_width = 0;
    }
    if (!line.empty()) {
      line += ' ';
      ++line_width;
    }
    line += word;
    line_width += word_width;
    pos = end;
  }
  if (!line.empty() || lines.empty()) lines.push_back(std::move(line));
  return lines;
}

}  // namespace kbench::report
