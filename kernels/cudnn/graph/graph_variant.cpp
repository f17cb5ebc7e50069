#include "cudnn/graph/graph_variant.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>

#include <fmt/format.h>

#include "cudnn/graph/knob_names.hpp"

namespace kbench::gpu {

namespace {

constexpr std::string_view kEnginePrefix = "engine/";
constexpr std::string_view kUnknownKnobPrefix = "KNOB_";

std::string upper(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return out;
}

bool starts_with_ignoring_case(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && upper(text.substr(0, prefix.size())) == upper(prefix);
}

// A whole decimal integer: digits (after a '-' when `signed_value`), nothing else, no overflow.
std::optional<std::int64_t> whole_integer(std::string_view text, bool signed_value) {
  if (text.empty() || text.front() == '+' || (!signed_value && text.front() == '-')) return std::nullopt;
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

ParsedGraphVariant refuse(std::string_view text, const std::string& what) {
  return {std::nullopt, fmt::format("malformed cuDNN graph variant '{}': {}; expected {}", text, what,
                                    kGraphVariantGrammar)};
}

}  // namespace

bool is_graph_variant(std::string_view variant) {
  return upper(variant) == "GRAPH" || starts_with_ignoring_case(variant, kEnginePrefix);
}

std::string knob_name(std::int64_t type) {
  for (const KnobName& k : kKnobNames)
    if (k.type == type) return std::string(k.name);
  return fmt::format("{}{}", kUnknownKnobPrefix, type);
}

std::optional<std::int64_t> knob_type(std::string_view name) {
  const std::string wanted = upper(name);
  if (const std::int64_t type = knob_type_of(wanted); type >= 0) return type;
  if (wanted.starts_with(kUnknownKnobPrefix))
    return whole_integer(std::string_view(wanted).substr(kUnknownKnobPrefix.size()), false);
  return std::nullopt;
}

std::string knob_choices_text(const EngineConfigName& config) {
  std::string text;
  for (const auto& [type, choice] : config.knobs) {
    if (!text.empty()) text.push_back(',');
    text += fmt::format("{}={}", knob_name(type), choice);
  }
  return text;
}

std::string engine_config_name(const EngineConfigName& config) {
  if (config.knobs.empty()) return fmt::format("{}{}", kEnginePrefix, config.engine);
  return fmt::format("{}{}:{}", kEnginePrefix, config.engine, knob_choices_text(config));
}

std::string graph_variant_name(const GraphVariant& variant) {
  return variant.config ? engine_config_name(*variant.config) : "graph";
}

ParsedGraphVariant parse_graph_variant(std::string_view text) {
  if (upper(text) == "GRAPH") return {GraphVariant{}, {}};
  if (!starts_with_ignoring_case(text, kEnginePrefix)) return refuse(text, "neither 'graph' nor 'engine/...'");
  std::string_view rest = text.substr(kEnginePrefix.size());
  const std::size_t colon = rest.find(':');
  const std::string_view index = rest.substr(0, colon);
  EngineConfigName config;
  const auto engine = whole_integer(index, false);
  if (!engine) return refuse(text, fmt::format("the engine index '{}' is not a non-negative integer", index));
  config.engine = *engine;
  if (colon == std::string_view::npos) return {GraphVariant{config}, {}};

  std::string_view knobs = rest.substr(colon + 1);
  if (knobs.empty()) return refuse(text, "no knob choice after ':'");
  while (true) {
    const std::size_t comma = knobs.find(',');
    const std::string_view choice = knobs.substr(0, comma);
    const std::size_t equals = choice.find('=');
    if (equals == std::string_view::npos)
      return refuse(text, fmt::format("the knob choice '{}' is not KNOB=value", choice));
    const std::string_view name = choice.substr(0, equals);
    const auto type = knob_type(name);
    if (!type) return refuse(text, fmt::format("unknown knob '{}'", name));
    const auto value = whole_integer(choice.substr(equals + 1), true);
    if (!value) return refuse(text, fmt::format("the value of knob {} is not an integer", name));
    const bool repeated = std::any_of(config.knobs.begin(), config.knobs.end(),
                                      [&](const auto& knob) { return knob.first == *type; });
    if (repeated) return refuse(text, fmt::format("knob {} is given twice", knob_name(*type)));
    config.knobs.emplace_back(*type, *value);
    if (comma == std::string_view::npos) break;
    knobs = knobs.substr(comma + 1);
  }
  std::sort(config.knobs.begin(), config.knobs.end());
  return {GraphVariant{config}, {}};
}

}  // namespace kbench::gpu
