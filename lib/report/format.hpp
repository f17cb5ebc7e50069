#pragma once
// Number and text formatting shared by the human-readable reporters (text and Markdown).
// Three significant figures everywhere: timing noise makes a fourth digit meaningless, and a
// fixed precision keeps columns comparable across rows.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kbench::report {

// `value` rounded to `digits` significant figures, in fixed notation: 12.2, 0.0456, 1230.
// Rounding happens before the digits are counted, so 9.996 becomes "10.0", not "10.00".
std::string format_significant(double value, int digits = 3);

// Seconds in ns, µs, ms or s, whichever keeps the number readable: "46.0 µs", "12.2 ms", "1.50 s".
// The unit is chosen after rounding, so 0.99996 s prints "1.00 s", never "1000 ms".
std::string format_duration(double seconds);

// The unit format_duration would pick for `seconds`, as (suffix, seconds per unit), so a range can
// be printed in the same unit as the value it sits beside.
struct DurationUnit {
  std::string_view suffix;  // "ns", "µs", "ms" or "s"
  double scale;             // seconds per unit
};
DurationUnit duration_unit(double seconds);

// Bytes per second in decimal units: "4.80 TB/s", "987 GB/s".
std::string format_bandwidth(double bytes_per_second);
// FLOP per second in decimal units: "67.0 TFLOP/s", "495 TFLOP/s".
std::string format_flop_rate(double flops_per_second);
// Quantities in decimal units: format_quantity(14.3e9, "B") == "14.3 GB", (550e9, "FLOP") == "550 GFLOP".
std::string format_quantity(double value, std::string_view unit);
// Counts for narrow columns: exact up to 9999 ("4096"), then "12.3k", "1.23M", "2.15G".
std::string format_count(std::int64_t count);

// time / floor as a multiplier: "1.42×"; and labelled for prose: "1.42× floor".
std::string format_ratio(double ratio);
std::string format_headroom(double ratio);

// Columns a UTF-8 string takes on a terminal: one per code point. Every character kbench prints
// ('×', 'µ', '–', '…', box-free ASCII otherwise) is one column wide, so no width table is needed.
std::size_t display_width(std::string_view utf8);

// `text` cut to at most `width` columns by replacing its middle with '…', keeping both ends
// (names differ at their ends: "cudnn:IMPLICIT_GEMM" vs "cudnn:IMPLICIT_PRECOMP_GEMM").
// Never splits a UTF-8 sequence.
std::string shorten_middle(std::string_view text, std::size_t width);
// Every text of a column cut to at most `width` columns so that texts that differ still differ: cut in the
// middle where that keeps them apart, else with the prefix they all share dropped ("…layer1.0.conv1"
// for three "resnet50-0xx-layer1.0.conv1"), else keeping their ends. Same order as `texts`.
std::vector<std::string> shorten_apart(const std::vector<std::string>& texts, std::size_t width);

// Rates in a narrow column, scaled to their magnitude with an SI prefix and no unit: "55.7T", "593M", "12.0k"
// (the column's header names the unit), so a CPU's rate reads as "593M", never "0.000593".
std::string format_scaled(double value);

// `text` cut to at most `width` columns, ending in '…' when anything was dropped.
std::string shorten_end(std::string_view text, std::size_t width);

// `text` broken at spaces into lines of at most `width` columns; a word longer than that (a path,
// say) gets a line of its own rather than being cut. Words are rejoined with single spaces.
// `first_line_width` applies to the first line only (text that starts after a label).
std::vector<std::string> wrap_words(std::string_view text, std::size_t width, std::size_t first_line_width);
inline std::vector<std::string> wrap_words(std::string_view text, std::size_t width) {
  return wrap_words(text, width, width);
}

}  // namespace kbench::report
