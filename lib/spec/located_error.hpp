#pragma once
// Builds the one shape every spec error has: "FILE:LINE:COL: KEY.PATH: what was wrong; expected ...".
// Kept free of yaml-cpp so validation code and tests can raise and read the same messages.
#include <string>
#include <string_view>

namespace kbench::spec {

// 1-based, as editors and compilers print them.
struct SourcePosition {
  int line = 1;
  int column = 1;
};

// "origin:line:col"
std::string format_position(std::string_view origin, SourcePosition position);

// Throws kbench::InputError("origin:line:col: key_path: problem").
[[noreturn]] void throw_located_error(std::string_view origin, SourcePosition position, std::string_view key_path,
                                      std::string_view problem);

}  // namespace kbench::spec
