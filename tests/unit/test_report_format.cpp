// Formatting helpers and the table builder behind the human-readable reports.
#include <doctest/doctest.h>

#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "report/format.hpp"
#include "report/reporter.hpp"
#include "report/table.hpp"

using namespace kbench::report;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace

TEST_SUITE("report") {
  TEST_CASE("format_significant keeps three significant figures, rounding before counting") {
    CHECK(format_significant(12.2345) == "12.2");
    CHECK(format_significant(0.045649) == "0.0456");
    CHECK(format_significant(1234) == "1230");
    CHECK(format_significant(9.996) == "10.0");
    CHECK(format_significant(999.5) == "1000");
    CHECK(format_significant(-1.234) == "-1.23");
    CHECK(format_significant(0) == "0");
    CHECK(format_significant(1.5, 2) == "1.5");
    CHECK(format_significant(std::numeric_limits<double>::quiet_NaN()) == "n/a");
    CHECK(format_significant(std::numeric_limits<double>::infinity()) == "inf");
  }

  TEST_CASE("format_duration picks ns, µs, ms or s by magnitude after rounding") {
    CHECK(format_duration(12.2e-3) == "12.2 ms");
    CHECK(format_duration(1.74e-3) == "1.74 ms");
    CHECK(format_duration(46e-6) == "46.0 µs");
    CHECK(format_duration(123.4e-6) == "123 µs");
    CHECK(format_duration(1.5) == "1.50 s");
    CHECK(format_duration(123.4) == "123 s");
    CHECK(format_duration(0.99996) == "1.00 s");     // not "1000 ms"
    CHECK(format_duration(999.96e-6) == "1.00 ms");  // not "1000 µs"
    CHECK(format_duration(5e-7) == "500 ns");
    CHECK(format_duration(5.76e-9) == "5.76 ns");
    CHECK(format_duration(999.96e-9) == "1.00 µs");  // not "1000 ns"
    CHECK(format_duration(0) == "0 s");
    CHECK(format_duration(std::numeric_limits<double>::quiet_NaN()) == "n/a");
    CHECK(duration_unit(12.2e-3).suffix == "ms");
    CHECK(duration_unit(12.2e-3).scale == doctest::Approx(1e-3));
  }

  TEST_CASE("rates and quantities use decimal prefixes") {
    CHECK(format_bandwidth(4.8e12) == "4.80 TB/s");
    CHECK(format_bandwidth(987e9) == "987 GB/s");
    CHECK(format_bandwidth(999.9e9) == "1.00 TB/s");
    CHECK(format_flop_rate(67e12) == "67.0 TFLOP/s");
    CHECK(format_flop_rate(494.7e12) == "495 TFLOP/s");
    CHECK(format_quantity(14.316e9, "B") == "14.3 GB");
    CHECK(format_quantity(549.7e9, "FLOP") == "550 GFLOP");
    CHECK(format_quantity(512, "B") == "512 B");
    CHECK(format_quantity(0.5, "B") == "0.500 B");
  }

  TEST_CASE("format_count shortens large counts for narrow columns") {
    CHECK(format_count(0) == "0");
    CHECK(format_count(512) == "512");
    CHECK(format_count(4096) == "4096");
    CHECK(format_count(9999) == "9999");
    CHECK(format_count(10000) == "10.0k");
    CHECK(format_count(12345) == "12.3k");
    CHECK(format_count(999999) == "1.00M");
    CHECK(format_count(1228800) == "1.23M");
    CHECK(format_count(2147450880) == "2.15G");
  }

  TEST_CASE("headroom reads as a multiple of the floor") {
    CHECK(format_ratio(1.4234) == "1.42×");
    CHECK(format_headroom(1.4234) == "1.42× floor");
    CHECK(format_headroom(12.34) == "12.3× floor");
  }

  TEST_CASE("display_width counts code points, not bytes") {
    CHECK(display_width("") == 0);
    CHECK(display_width("abc") == 3);
    CHECK(display_width("1.42×") == 5);
    CHECK(display_width("46.0 µs") == 7);
    CHECK(display_width("p10–p90") == 7);
    CHECK(std::string("46.0 µs").size() == 8);  // the point: bytes and columns differ
  }

  TEST_CASE("shorten_middle keeps both ends and never splits a UTF-8 sequence") {
    CHECK(shorten_middle("direct", 10) == "direct");
    CHECK(shorten_middle("direct", 6) == "direct");
    CHECK(shorten_middle("cudnn:IMPLICIT_PRECOMP_GEMM", 15) == "cudnn:I…MP_GEMM");
    CHECK(display_width(shorten_middle("cudnn:IMPLICIT_PRECOMP_GEMM", 15)) == 15);
    CHECK(shorten_middle("abcdef", 4) == "ab…f");
    CHECK(shorten_middle("abcdef", 1) == "…");
    CHECK(shorten_middle("abcdef", 0).empty());
    CHECK(shorten_middle("µµµµµµ", 4) == "µµ…µ");
    CHECK(shorten_end("abcdef", 4) == "abc…");
    CHECK(shorten_end("abcdef", 6) == "abcdef");
    CHECK(shorten_end("××××××", 3) == "××…");
  }

  TEST_CASE("wrap_words breaks at spaces within the width") {
    CHECK(wrap_words("", 10) == std::vector<std::string>{""});
    CHECK(wrap_words("one two three", 100) == std::vector<std::string>{"one two three"});
    CHECK(wrap_words("one two three", 7) == std::vector<std::string>{"one two", "three"});
    CHECK(wrap_words("one two three", 6) == std::vector<std::string>{"one", "two", "three"});
    // A word wider than the line is kept whole on a line of its own.
    CHECK(wrap_words("see /a/very/long/path now", 8) == std::vector<std::string>{"see", "/a/very/long/path", "now"});
    // Widths are display columns: "µs ×" is 4 columns though 7 bytes.
    CHECK(wrap_words("46 µs × 2", 7) == std::vector<std::string>{"46 µs ×", "2"});
    CHECK(wrap_words("  spaced   out  ", 20) == std::vector<std::string>{"spaced out"});
    // A first line that starts after a label has less room than the lines below it.
    CHECK(wrap_words("aa bb cc dd", 5, 2) == std::vector<std::string>{"aa", "bb cc", "dd"});
  }

  TEST_CASE("report formats parse from their names") {
    using kbench::ReportFormat;
    CHECK(kbench::parse_report_format("text") == ReportFormat::text);
    CHECK(kbench::parse_report_format("json") == ReportFormat::json);
    CHECK(kbench::parse_report_format("csv") == ReportFormat::csv);
    CHECK(kbench::parse_report_format("markdown") == ReportFormat::markdown);
    CHECK(kbench::parse_report_format("md") == ReportFormat::markdown);
    CHECK_FALSE(kbench::parse_report_format("JSON").has_value());
    CHECK_FALSE(kbench::parse_report_format("").has_value());
    for (ReportFormat f : {ReportFormat::text, ReportFormat::json, ReportFormat::csv, ReportFormat::markdown})
      CHECK(kbench::parse_report_format(kbench::to_string(f)) == f);
  }

  TEST_CASE("table columns line up by display width, with multi-byte characters") {
    Table table({{"name", Align::left, false, 4}, {"time", Align::right, false, 4}, {"x", Align::right, false, 1}});
    table.add_row({{"a"}, {"46.0 µs"}, {"1.42×"}});
    table.add_row({{"bbbb"}, {"12.2 ms"}, {"10.0×"}});
    const auto lines = lines_of(table.render(100, false).text);
    REQUIRE(lines.size() == 4);
    CHECK(lines[0] == "name     time      x");
    CHECK(lines[1] == "--------------------");
    CHECK(lines[2] == "a     46.0 µs  1.42×");
    CHECK(lines[3] == "bbbb  12.2 ms  10.0×");
    for (const auto& line : lines) CHECK(display_width(line) == 20);
  }

  TEST_CASE("a shrinkable column is cut in the middle to fit the width") {
    Table table({{"impl", Align::left, true, 6}, {"t", Align::right, false, 1}});
    table.add_row({{"cudnn:IMPLICIT_PRECOMP_GEMM"}, {"1"}});
    const auto rendered = table.render(12, false);
    const auto lines = lines_of(rendered.text);
    REQUIRE(lines.size() == 3);
    CHECK(lines[2] == "cudn…GEMM  1");
    for (const auto& line : lines) CHECK(display_width(line) <= 12);

    // Never below the column's minimum (or its header): the table overflows instead.
    const auto narrow = lines_of(table.render(4, false).text);
    CHECK(narrow[2] == "cud…MM  1");
  }

  TEST_CASE("a row tail spans the remaining columns and reports when it was cut") {
    Table table({{"a", Align::left, false, 1}, {"b", Align::left, false, 1}, {"c", Align::left, false, 1}});
    table.add_row({{"x"}, {"y"}, {"z"}});
    table.add_row({{"x"}}, {"short"});
    table.add_row({{"x"}}, {"a reason far too long for the width"});
    const auto rendered = table.render(20, false);
    const auto lines = lines_of(rendered.text);
    REQUIRE(lines.size() == 5);
    CHECK(lines[2] == "x  y  z");
    CHECK(lines[3] == "x  short");  // wider than the columns it covers, and no trailing blanks
    CHECK(lines[4] == "x  a reason far too…");
    CHECK(display_width(lines[4]) == 20);
    REQUIRE(rendered.shortened_tails.size() == 1);
    CHECK(rendered.shortened_tails[0] == 2);

    // Too many leading cells: the tail keeps the last column rather than vanishing.
    Table crowded({{"a", Align::left, false, 1}, {"b", Align::left, false, 1}});
    crowded.add_row({{"x"}, {"y"}}, {"tail"});
    CHECK(lines_of(crowded.render(20, false).text)[2] == "x  tail");
  }

  TEST_CASE("colour codes appear only when asked for and do not disturb alignment") {
    Table table({{"status", Align::left, false, 6}, {"n", Align::right, false, 1}});
    table.add_row({{"ok", Tone::good}, {"1"}});
    table.add_row({{"x"}}, {"wrong: bad", Tone::bad});
    const std::string plain = table.render(100, false).text;
    CHECK(plain.find('\x1b') == std::string::npos);
    const std::string colored = table.render(100, true).text;
    CHECK(colored.find("\x1b[32mok\x1b[0m      1") != std::string::npos);
    CHECK(colored.find("\x1b[31mwrong: bad\x1b[0m") != std::string::npos);
    CHECK(paint("skipped", Tone::warn) == "\x1b[33mskipped\x1b[0m");
    CHECK(paint("plain", Tone::plain) == "plain");
  }
}
