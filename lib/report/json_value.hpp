#pragma once
// Strict reading of JSON values for the results document's from_json functions (results_json.hpp):
// a number where a number is expected, an integer in range, a name from a fixed list. nlohmann's own
// get<> reads true as 1, 2.5 as the integer 2 and -1 as 2^64-1, which would let a hand-edited file
// through misread. Every refusal is an InputError naming the JSON path of the value at fault.
#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace kbench::json_value {

using ojson = nlohmann::ordered_json;

// The document being read, for the length of a read: a refusal finds its value in it to name the
// path. Only a refusal pays for that (one search of the document), so reading a good document costs
// nothing more. nlohmann's JSON_DIAGNOSTICS gives paths by keeping a parent pointer in every value
// instead: more memory and time for every document, a different ABI for every target that includes
// nlohmann, and GCC 12 -Warray-bounds false positives wherever a nlohmann::json is parsed.
class ReadingDocument {
 public:
  explicit ReadingDocument(const ojson& root);
  ~ReadingDocument();
  ReadingDocument(const ReadingDocument&) = delete;
  ReadingDocument& operator=(const ReadingDocument&) = delete;

 private:
  const ojson* previous_;
};

// Where `value` sits in the document being read, as a JSON pointer: "/results/0/status", "" for the
// root; nullopt outside a ReadingDocument or for a value that is not in it.
std::optional<std::string> path_of(const ojson& value);

// "results JSON /results/0/layout: unknown layout 'x'; ...": the document's path of the value at fault.
[[noreturn]] void refuse(const ojson& value, std::string_view problem);
// The same for a key of `object` that is missing or cannot be read: "/results/0/status: missing".
[[noreturn]] void refuse_key(const ojson& object, std::string_view key, std::string_view problem);

[[noreturn]] void refuse_not_array(const ojson& value);
// "unknown layout 'x'; expected nchw or nhwc".
[[noreturn]] void refuse_unknown_name(const ojson& value, std::string_view what, const std::string& name,
                                      const std::vector<std::string_view>& names);

bool has(const ojson& object, std::string_view key);
// The value of a key every version of the document has; refuses a non-object or a missing key.
const ojson& member(const ojson& object, std::string_view key);

// JSON has no NaN or infinity: a non-finite number is written as null, and null reads back as NaN.
ojson null_if_nan(double value);
double nan_if_null(const ojson& value);

template <class T>
inline constexpr bool is_vector = false;
template <class T>
inline constexpr bool is_vector<std::vector<T>> = true;
template <class T>
inline constexpr bool is_optional = false;
template <class T>
inline constexpr bool is_optional<std::optional<T>> = true;

std::string text(const ojson& value);
bool boolean(const ojson& value);
double number(const ojson& value);
std::int64_t integer(const ojson& value);
std::uint64_t unsigned_integer(const ojson& value);

// `value` as a T: the scalars above, any integer type (range-checked), a vector of any of them, an
// optional (null for none), and every other type through its from_json (results_json.hpp).
template <class T>
T as(const ojson& value) {
  if constexpr (std::is_same_v<T, std::string>) {
    return text(value);
  } else if constexpr (std::is_same_v<T, bool>) {
    return boolean(value);
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(number(value));
  } else if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T>) {
    const std::uint64_t v = unsigned_integer(value);
    if (v > std::numeric_limits<T>::max()) refuse(value, "integer out of range");
    return static_cast<T>(v);
  } else if constexpr (std::is_integral_v<T>) {
    const std::int64_t v = integer(value);
    if (v < std::numeric_limits<T>::min() || v > std::numeric_limits<T>::max()) refuse(value, "integer out of range");
    return static_cast<T>(v);
  } else if constexpr (is_optional<T>) {
    if (value.is_null()) return std::nullopt;
    return as<typename T::value_type>(value);
  } else if constexpr (is_vector<T>) {
    if (!value.is_array()) refuse_not_array(value);
    T out;
    out.reserve(value.size());
    for (const ojson& element : value) out.push_back(as<typename T::value_type>(element));
    return out;
  } else {
    // Our types' from_json, by ADL: never nlohmann's, which would read an enum as its integer.
    T out{};
    from_json(value, out);
    return out;
  }
}

// A key every version of the document has, and one that older documents lack (`out` keeps its
// default then): the one-line reads of a from_json.
template <class T>
void read(const ojson& object, std::string_view key, T& out) {
  out = as<T>(member(object, key));
}
template <class T>
bool read_optional(const ojson& object, std::string_view key, T& out) {
  if (!has(object, key)) return false;
  read(object, key, out);
  return true;
}

// An enum written by its to_string: only those names read back (never a spec's synonyms), and an
// unknown one is refused with the list.
template <class Enum, std::size_t N>
Enum named(const ojson& value, const std::array<Enum, N>& choices, std::string_view what) {
  const std::string name = text(value);
  std::vector<std::string_view> names;
  for (Enum choice : choices) {
    if (to_string(choice) == name) return choice;
    names.push_back(to_string(choice));
  }
  refuse_unknown_name(value, what, name, names);
}

}  // namespace kbench::json_value
