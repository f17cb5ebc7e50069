#include "spec/yaml_reader.hpp"

#include <fmt/format.h>

#include "spec/scalar_text.hpp"

namespace kbench::spec {

namespace {

// Quoted scalars carry the non-specific tag "!"; an explicit !!str is text too.
bool is_quoted(const YAML::Node& node) { return node.Tag() == "!" || node.Tag() == "tag:yaml.org,2002:str"; }

ScalarKind kind_of(const YAML::Node& node) {
  if (node.IsNull()) return ScalarKind::null;
  return classify_scalar(node.Scalar(), is_quoted(node));
}

std::string range_text(std::int64_t min, std::int64_t max) {
  if (max == 2147483647) return fmt::format("an integer from {} to 2147483647 (2^31-1)", min);
  return fmt::format("an integer from {} to {}", min, max);
}

}  // namespace

SourcePosition position_of(const YAML::Mark& mark) {
  if (mark.is_null()) return {};
  return {mark.line + 1, mark.column + 1};
}

std::string child_path(std::string_view parent, std::string_view key) {
  return parent.empty() ? std::string(key) : fmt::format("{}.{}", parent, key);
}

std::string element_path(std::string_view parent, std::size_t index) { return fmt::format("{}[{}]", parent, index); }

std::string describe_node(const YAML::Node& node) {
  if (node.IsSequence()) return node.size() == 0 ? "an empty list" : "a list";
  if (node.IsMap()) return "a mapping";
  if (node.IsNull()) return "nothing (null)";
  return describe_scalar(node.Scalar(), is_quoted(node));
}

void SpecReader::fail(SourcePosition position, std::string_view key_path, std::string_view problem) const {
  throw_located_error(origin_, position, key_path, problem);
}

void SpecReader::fail(const Located& where, std::string_view problem) const {
  fail(where.position, where.path, problem);
}

std::int64_t SpecReader::read_integer(const Located& where, std::int64_t min, std::int64_t max) const {
  const YAML::Node& node = where.node;
  if (!node.IsScalar() || kind_of(node) != ScalarKind::integer)
    fail(where, fmt::format("got {}; expected {}", describe_node(node), range_text(min, max)));
  const auto value = parse_integer_text(node.Scalar());
  if (!value || *value > max)
    fail(where, fmt::format("got {}, which is too large; expected {}", node.Scalar(), range_text(min, max)));
  if (*value < min) fail(where, fmt::format("got {}; expected {}", *value, range_text(min, max)));
  return *value;
}

double SpecReader::read_number(const Located& where) const {
  const YAML::Node& node = where.node;
  const ScalarKind kind = node.IsScalar() ? kind_of(node) : ScalarKind::null;
  if (!node.IsScalar() || (kind != ScalarKind::integer && kind != ScalarKind::floating))
    fail(where, fmt::format("got {}; expected a number", describe_node(node)));
  const auto value = parse_number_text(node.Scalar());
  if (!value) fail(where, fmt::format("got {}; expected a number", describe_node(node)));
  return *value;
}

bool SpecReader::read_bool(const Located& where) const {
  const YAML::Node& node = where.node;
  if (!node.IsScalar() || kind_of(node) != ScalarKind::boolean)
    fail(where, fmt::format("got {}; expected true or false", describe_node(node)));
  return *parse_bool_text(node.Scalar());
}

std::string SpecReader::read_text(const Located& where) const {
  const YAML::Node& node = where.node;
  if (!node.IsScalar()) fail(where, fmt::format("got {}; expected text", describe_node(node)));
  return node.Scalar();
}

std::vector<Located> SpecReader::read_sequence(const Located& where, std::string_view expected) const {
  if (!where.node.IsSequence()) fail(where, fmt::format("got {}; expected {}", describe_node(where.node), expected));
  std::vector<Located> elements;
  elements.reserve(where.node.size());
  for (std::size_t i = 0; i < where.node.size(); ++i) {
    const YAML::Node element = where.node[i];
    elements.push_back({element, element_path(where.path, i), position_of(element.Mark())});
  }
  return elements;
}

MappingFields::MappingFields(const SpecReader& reader, const Located& mapping, KeySet keys, std::string_view expected)
    : reader_(reader), path_(mapping.path), position_(mapping.position) {
  if (!mapping.node.IsMap()) {
    const std::string shown_path = mapping.path.empty() ? "(top level)" : mapping.path;
    reader.fail(mapping.position, shown_path,
                fmt::format("got {}; expected {}", describe_node(mapping.node), expected));
  }
  for (auto it = mapping.node.begin(); it != mapping.node.end(); ++it) {
    const YAML::Node key = it->first;  // copies: it-> yields a temporary pair
    const YAML::Node value = it->second;
    const SourcePosition key_position = position_of(key.Mark());
    if (!key.IsScalar())
      reader.fail(key_position, path_.empty() ? "(key)" : path_,
                  fmt::format("got {} as a key; expected a key name", describe_node(key)));
    const std::string name = key.Scalar();
    const std::string path = child_path(path_, name);
    bool known = false;
    for (std::string_view allowed : keys.allowed) known = known || allowed == name;
    if (!known) {
      std::string problem =
          fmt::format("unknown key '{}'{}", name, did_you_mean_suffix(name, keys.allowed, keys.aliases));
      problem += "; expected one of:";
      for (std::size_t i = 0; i < keys.allowed.size(); ++i)
        problem += fmt::format("{} {}", i == 0 ? "" : ",", keys.allowed[i]);
      reader.fail(key_position, path, problem);
    }
    for (const auto& [seen_name, seen] : fields_)
      if (seen_name == name)
        reader.fail(
            key_position, path,
            fmt::format("key '{}' appears twice (first at line {}); expected each key once", name, seen.key_line));
    // An empty value (`stride:`) has no position of its own: yaml-cpp marks the next token. Point at the key.
    const SourcePosition value_position = value.IsNull() ? key_position : position_of(value.Mark());
    fields_.push_back({name, Field{Located{value, path, value_position}, key_position.line}});
  }
}

std::optional<Located> MappingFields::find(std::string_view key) const {
  for (const auto& [name, field] : fields_)
    if (name == key) return field.value;
  return std::nullopt;
}

std::vector<std::string> MappingFields::keys() const {
  std::vector<std::string> names;
  for (const auto& [name, field] : fields_) names.push_back(name);
  return names;
}

void MappingFields::override_field(std::string_view key, Located value) {
  for (auto& [name, field] : fields_)
    if (name == key) {
      field.value = std::move(value);
      return;
    }
  const int line = value.position.line;
  fields_.push_back({std::string(key), Field{std::move(value), line}});
}

Located MappingFields::require(std::string_view key, std::string_view expected) const {
  if (auto field = find(key)) return *field;
  reader_.fail(position_, path_of(key), fmt::format("missing required key '{}'; expected {}", key, expected));
}

}  // namespace kbench::spec
