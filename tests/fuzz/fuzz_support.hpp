#pragma once
// What both spec fuzzers share: parse arbitrary bytes as a workload spec, accept a refusal only in the
// documented shape (an InputError reading "<fuzz>:LINE:COL: ..."), and turn any broken promise into an
// abort, which libFuzzer records as a crash together with the input that caused it.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "spec/load.hpp"

namespace kbench::fuzz {

inline constexpr std::string_view kOrigin = "<fuzz>";

// Not assert(): these checks must stay on in every build type the fuzzers are built with.
[[noreturn]] inline void broken_promise(std::string_view what, std::string_view detail) {
  std::fprintf(stderr, "kbench fuzz: %.*s\n  %.*s\n", static_cast<int>(what.size()), what.data(),
               static_cast<int>(detail.size()), detail.data());
  std::abort();
}

inline void require(bool holds, std::string_view what, std::string_view detail = {}) {
  if (!holds) broken_promise(what, detail);
}

// load.hpp promises every error starts "FILE:LINE:COL: " with a 1-based line and column.
inline bool is_located_message(std::string_view message) {
  if (!message.starts_with(kOrigin) || message.size() <= kOrigin.size() || message[kOrigin.size()] != ':') return false;
  std::string_view rest = message.substr(kOrigin.size() + 1);
  for (int number = 0; number < 2; ++number) {
    std::size_t digits = 0;
    while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9') ++digits;
    if (digits == 0 || rest[0] == '0' || digits >= rest.size() || rest[digits] != ':') return false;
    rest.remove_prefix(digits + 1);
  }
  return rest.starts_with(" ");
}

// The workloads in `bytes`, or nullopt when the spec was refused the documented way. Any other
// exception is left to escape: uncaught, it aborts, and libFuzzer reports the input.
inline std::optional<std::vector<Workload>> parse_or_refuse(const std::uint8_t* bytes, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(bytes), size);
  try {
    return parse_workloads(text, std::string(kOrigin));
  } catch (const InputError& error) {
    require(is_located_message(error.what()), "InputError without the \"<fuzz>:LINE:COL: \" prefix", error.what());
    return std::nullopt;
  }
}

}  // namespace kbench::fuzz
