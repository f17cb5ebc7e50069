#include "spec/scalar_text.hpp"

#include <charconv>
#include <limits>

#include <fmt/format.h>

namespace kbench::spec {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::string_view without_sign(std::string_view text) {
  if (!text.empty() && (text.front() == '+' || text.front() == '-')) text.remove_prefix(1);
  return text;
}

bool all_digits(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text)
    if (!is_digit(c)) return false;
  return true;
}

bool is_infinity_word(std::string_view text) { return text == ".inf" || text == ".Inf" || text == ".INF"; }
bool is_nan_word(std::string_view text) { return text == ".nan" || text == ".NaN" || text == ".NAN"; }

// [-+]? ( \.[0-9]+ | [0-9]+ ( \.[0-9]* )? ) ( [eE] [-+]? [0-9]+ )?  — the core schema's float, minus inf/nan.
bool is_decimal_float_text(std::string_view text) {
  std::string_view rest = without_sign(text);
  std::size_t i = 0;
  std::size_t mantissa_digits = 0;
  while (i < rest.size() && is_digit(rest[i])) ++i, ++mantissa_digits;
  if (i < rest.size() && rest[i] == '.') {
    ++i;
    while (i < rest.size() && is_digit(rest[i])) ++i, ++mantissa_digits;
  }
  if (mantissa_digits == 0) return false;
  if (i < rest.size() && (rest[i] == 'e' || rest[i] == 'E')) {
    ++i;
    if (i < rest.size() && (rest[i] == '+' || rest[i] == '-')) ++i;
    if (!all_digits(rest.substr(i))) return false;
    i = rest.size();
  }
  return i == rest.size();
}

bool is_null_text(std::string_view text) {
  return text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL";
}

// Long values are cut so one bad line cannot flood the terminal.
std::string shortened(std::string_view text) {
  constexpr std::size_t limit = 40;
  if (text.size() <= limit) return std::string(text);
  return std::string(text.substr(0, limit)) + "...";
}

}  // namespace

bool is_integer_text(std::string_view text) { return all_digits(without_sign(text)); }

ScalarKind classify_scalar(std::string_view text, bool quoted) {
  if (quoted) return ScalarKind::text;
  if (is_null_text(text)) return ScalarKind::null;
  if (parse_bool_text(text)) return ScalarKind::boolean;
  if (is_integer_text(text)) return ScalarKind::integer;
  if (is_decimal_float_text(text) || is_infinity_word(without_sign(text)) || is_nan_word(text))
    return ScalarKind::floating;
  return ScalarKind::text;
}

std::optional<std::int64_t> parse_integer_text(std::string_view text) {
  if (!is_integer_text(text)) return std::nullopt;
  // from_chars takes a '-' but not a '+'.
  if (text.front() == '+') text.remove_prefix(1);
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<double> parse_number_text(std::string_view text) {
  const bool negative = !text.empty() && text.front() == '-';
  const std::string_view magnitude = without_sign(text);
  if (is_infinity_word(magnitude))
    return negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  if (is_nan_word(text)) return std::numeric_limits<double>::quiet_NaN();
  if (!is_integer_text(text) && !is_decimal_float_text(text)) return std::nullopt;
  // from_chars rejects a leading '+' and a bare leading '.', both valid YAML.
  std::string normalised = negative ? "-" : "";
  if (!magnitude.empty() && magnitude.front() == '.') normalised += '0';
  normalised += magnitude;
  double value = 0;
  const auto [end, error] = std::from_chars(normalised.data(), normalised.data() + normalised.size(), value);
  if (end != normalised.data() + normalised.size()) return std::nullopt;
  // Out of double's range: report it as infinite so callers' finiteness checks catch it.
  if (error == std::errc::result_out_of_range)
    return negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  if (error != std::errc()) return std::nullopt;
  return value;
}

std::optional<bool> parse_bool_text(std::string_view text) {
  if (text == "true" || text == "True" || text == "TRUE") return true;
  if (text == "false" || text == "False" || text == "FALSE") return false;
  return std::nullopt;
}

std::string describe_scalar(std::string_view text, bool quoted) {
  switch (classify_scalar(text, quoted)) {
    case ScalarKind::null: return "nothing (null)";
    case ScalarKind::boolean: return fmt::format("{} (a boolean)", text);
    case ScalarKind::integer: return fmt::format("the integer {}", shortened(text));
    case ScalarKind::floating: return fmt::format("the float {}", shortened(text));
    case ScalarKind::text: return fmt::format("the string \"{}\"", shortened(text));
  }
  return std::string(text);
}

}  // namespace kbench::spec
