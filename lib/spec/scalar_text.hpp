#pragma once
// What a YAML scalar's text means under the YAML 1.2 core schema. yaml-cpp hands every scalar over
// as a string, so deciding "is this an integer, a float, a boolean or text" is ours to do — strictly,
// so that `stride: 2.0` or `stride: "2"` is reported rather than silently accepted.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kbench::spec {

enum class ScalarKind { null, boolean, integer, floating, text };

// `quoted` is true for '...' / "..." scalars (and explicit !!str): they are always text.
ScalarKind classify_scalar(std::string_view text, bool quoted);

// Decimal integers only ("12", "-3", "+7"). nullopt when the text is no integer or does not fit 64 bits
// (use is_integer_text to tell those apart).
std::optional<std::int64_t> parse_integer_text(std::string_view text);
bool is_integer_text(std::string_view text);

// Integers, decimals, exponents, .inf and .nan (any sign / case the core schema allows).
std::optional<double> parse_number_text(std::string_view text);

std::optional<bool> parse_bool_text(std::string_view text);

// For messages: the kind, then the value, e.g. "the float 2.5", "the string \"two\"", "true (a boolean)".
std::string describe_scalar(std::string_view text, bool quoted);

}  // namespace kbench::spec
