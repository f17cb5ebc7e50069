#include "number_flags.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>

#include <fmt/format.h>

namespace kbench::cli {

namespace {

// strtod reads "nan", "inf", hex floats and leading blanks; only the blanks are refused here, the
// rest by the finiteness check. The whole text must be the number.
std::optional<double> read_real(const std::string& text) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text.front()))) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return std::nullopt;
  return value;
}

template <class Integer>
std::optional<Integer> read_whole(const std::string& text) {
  Integer value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

CLI::Validator finite_number(double min, double max, bool min_exclusive) {
  const std::string range = fmt::format("{}{:g}, {:g}]", min_exclusive ? "(" : "[", min, max);
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        const std::optional<double> value = read_real(text);
        const bool ok =
            value && std::isfinite(*value) && (min_exclusive ? *value > min : *value >= min) && *value <= max;
        return ok ? std::string() : fmt::format("expected a finite number in {}, got '{}'", range, text);
      },
      "FINITE in " + range);
}

CLI::Validator whole_number(std::int64_t min, std::int64_t max) {
  const std::string range = fmt::format("[{}, {}]", min, max);
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        const std::optional<std::int64_t> value = read_whole<std::int64_t>(text);
        const bool ok = value && *value >= min && *value <= max;
        return ok ? std::string() : fmt::format("expected a whole number in {}, got '{}'", range, text);
      },
      "in " + range);
}

CLI::Validator whole_uint64() {
  const std::string range = fmt::format("[0, {}]", std::numeric_limits<std::uint64_t>::max());
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        return read_whole<std::uint64_t>(text) ? std::string()
                                               : fmt::format("expected a whole number in {}, got '{}'", range, text);
      },
      "in " + range);
}

CLI::Validator percentage() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        std::string number = text;
        if (!number.empty() && number.back() == '%') number.pop_back();
        const std::optional<double> value = read_real(number);
        const bool ok = value && std::isfinite(*value) && *value >= 0 && *value < 1000;
        return ok ? std::string()
                  : fmt::format("expected a percentage such as 5 or 5%, a finite number in [0, 1000), got '{}'", text);
      },
      "PERCENT in [0, 1000)");
}

}  // namespace kbench::cli
