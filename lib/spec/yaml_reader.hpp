#pragma once
// yaml-cpp nodes read with every failure located: a value of the wrong kind, out of range, a key that
// is unknown, missing or repeated all end in one InputError "FILE:LINE:COL: KEY.PATH: ...; expected ...".
// Private to lib/spec (yaml-cpp is a private dependency of kbench::core).
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "spec/did_you_mean.hpp"
#include "spec/located_error.hpp"

namespace kbench::spec {

// yaml-cpp marks are 0-based; a null mark (no position known) becomes 1:1.
SourcePosition position_of(const YAML::Mark& mark);

// A node with its key path ("records[0].ms") and the position to report for it.
struct Located {
  YAML::Node node;
  std::string path;
  SourcePosition position;
};

// "stride" + "[1]" style path building; an empty parent means a top-level key.
std::string child_path(std::string_view parent, std::string_view key);
std::string element_path(std::string_view parent, std::size_t index);

// For messages: "a list", "a mapping", "the string \"x\"", "the float 2.5", ...
std::string describe_node(const YAML::Node& node);

class SpecReader {
 public:
  explicit SpecReader(std::string origin) : origin_(std::move(origin)) {}

  const std::string& origin() const { return origin_; }

  [[noreturn]] void fail(SourcePosition position, std::string_view key_path, std::string_view problem) const;
  [[noreturn]] void fail(const Located& where, std::string_view problem) const;

  // A decimal integer in [min, max]; floats, quoted numbers, booleans and overflow are errors.
  std::int64_t read_integer(const Located& where, std::int64_t min, std::int64_t max) const;
  // An integer or float (finiteness is the caller's rule).
  double read_number(const Located& where) const;
  // true / false only: "yes" or 1 are more likely slips than intent.
  bool read_bool(const Located& where) const;
  // Any non-null scalar, as written.
  std::string read_text(const Located& where) const;
  // The elements of a sequence, each located; `expected` completes "...; expected <expected>".
  std::vector<Located> read_sequence(const Located& where, std::string_view expected) const;

 private:
  std::string origin_;
};

// The keys a mapping may hold and the words people write for them instead.
struct KeySet {
  std::span<const std::string_view> allowed;
  std::span<const KnownAlias> aliases;
};

// A mapping whose keys are checked once, up front: an unknown key (with a suggestion), a repeated key
// or a non-text key is an error. Fields are then fetched by name.
class MappingFields {
 public:
  // `expected` names what the mapping should be, for the error when it is not one ("a workload mapping").
  MappingFields(const SpecReader& reader, const Located& mapping, KeySet keys, std::string_view expected);

  std::optional<Located> find(std::string_view key) const;
  // The keys present, in the order written.
  std::vector<std::string> keys() const;
  // Reads `key` as `value` from now on, present before or not: a sweep point's value in place of the
  // mapping's own (spec/sweep_expansion.hpp). The key is not checked against the allowed set.
  void override_field(std::string_view key, Located value);
  // Missing -> error at the mapping's position: "missing required key 'K'; expected <expected>".
  Located require(std::string_view key, std::string_view expected) const;

  SourcePosition position() const { return position_; }
  const std::string& path() const { return path_; }
  // Where to report a rule about `key` that has no node (a default value): the mapping itself.
  std::string path_of(std::string_view key) const { return child_path(path_, key); }

 private:
  struct Field {
    Located value;
    int key_line = 0;  // for "appears twice (first at line N)"
  };

  const SpecReader& reader_;
  std::string path_;
  SourcePosition position_;
  std::vector<std::pair<std::string, Field>> fields_;
};

}  // namespace kbench::spec
