#include "report/json_value.hpp"

#include <fmt/format.h>

#include <cmath>

#include "core/error.hpp"

namespace kbench::json_value {

namespace {

thread_local const ojson* reading_root = nullptr;

// The reader never looks deeper than results[].verification.fresh_inputs.first_mismatch.got (depth 6),
// so the search stops well before a hostile document's nesting could exhaust the stack.
constexpr int kDeepestRead = 16;

// JSON pointer tokens escape '~' and '/' (RFC 6901).
std::string pointer_token(std::string_view key) {
  std::string token;
  for (char c : key) {
    if (c == '~')
      token += "~0";
    else if (c == '/')
      token += "~1";
    else
      token += c;
  }
  return token;
}

bool find_path(const ojson& node, const ojson& target, int depth, std::string& path) {
  if (&node == &target) return true;
  if (depth == kDeepestRead) return false;
  const std::size_t length = path.size();
  if (node.is_object()) {
    for (const auto& [key, child] : node.items()) {
      path += '/';
      path += pointer_token(key);
      if (find_path(child, target, depth + 1, path)) return true;
      path.resize(length);
    }
  } else if (node.is_array()) {
    for (std::size_t i = 0; i < node.size(); ++i) {
      path += '/';
      path += std::to_string(i);
      if (find_path(node[i], target, depth + 1, path)) return true;
      path.resize(length);
    }
  }
  return false;
}

[[noreturn]] void refuse_at(const std::optional<std::string>& path, std::string_view problem) {
  if (!path) throw InputError(fmt::format("results JSON: {}", problem));
  throw InputError(fmt::format("results JSON {}: {}", path->empty() ? "/" : *path, problem));
}

}  // namespace

ReadingDocument::ReadingDocument(const ojson& root) : previous_(reading_root) { reading_root = &root; }
ReadingDocument::~ReadingDocument() { reading_root = previous_; }

std::optional<std::string> path_of(const ojson& value) {
  std::string path;
  if (reading_root && find_path(*reading_root, value, 0, path)) return path;
  return std::nullopt;
}

void refuse(const ojson& value, std::string_view problem) { refuse_at(path_of(value), problem); }

void refuse_key(const ojson& object, std::string_view key, std::string_view problem) {
  std::optional<std::string> path = path_of(object);
  if (path) {
    *path += '/';
    *path += pointer_token(key);
  }
  refuse_at(path, problem);
}

bool has(const ojson& object, std::string_view key) { return object.is_object() && object.contains(key); }

const ojson& member(const ojson& object, std::string_view key) {
  if (!object.is_object()) refuse(object, fmt::format("expected an object, got {}", object.type_name()));
  const auto found = object.find(key);
  if (found == object.end()) refuse_key(object, key, "missing");
  return *found;
}

ojson null_if_nan(double value) { return std::isfinite(value) ? ojson(value) : ojson(nullptr); }

double nan_if_null(const ojson& value) {
  return value.is_null() ? std::numeric_limits<double>::quiet_NaN() : number(value);
}

std::string text(const ojson& value) {
  if (!value.is_string()) refuse(value, fmt::format("expected a string, got {}", value.type_name()));
  return value.get<std::string>();
}

bool boolean(const ojson& value) {
  if (!value.is_boolean()) refuse(value, fmt::format("expected true or false, got {}", value.type_name()));
  return value.get<bool>();
}

double number(const ojson& value) {
  if (!value.is_number()) refuse(value, fmt::format("expected a number, got {}", value.type_name()));
  return value.get<double>();
}

std::int64_t integer(const ojson& value) {
  if (value.is_number_unsigned() && value.get<std::uint64_t>() > std::numeric_limits<std::int64_t>::max())
    refuse(value, "integer out of range");
  if (!value.is_number_integer()) refuse(value, fmt::format("expected an integer, got {}", value.dump()));
  return value.get<std::int64_t>();
}

std::uint64_t unsigned_integer(const ojson& value) {
  if (!value.is_number_unsigned()) refuse(value, fmt::format("expected a non-negative integer, got {}", value.dump()));
  return value.get<std::uint64_t>();
}

void refuse_not_array(const ojson& value) {
  refuse(value, fmt::format("expected an array, got {}", value.type_name()));
}

void refuse_unknown_name(const ojson& value, std::string_view what, const std::string& name,
                         const std::vector<std::string_view>& names) {
  std::string expected;
  for (std::size_t i = 0; i < names.size(); ++i)
    expected += fmt::format("{}{}", i == 0 ? "" : i + 1 == names.size() ? " or " : ", ", names[i]);
  refuse(value, fmt::format("unknown {} '{}'; expected {}", what, name, expected));
}

}  // namespace kbench::json_value
