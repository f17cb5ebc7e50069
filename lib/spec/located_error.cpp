#include "spec/located_error.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace kbench::spec {

std::string format_position(std::string_view origin, SourcePosition position) {
  return fmt::format("{}:{}:{}", origin, position.line, position.column);
}

void throw_located_error(std::string_view origin, SourcePosition position, std::string_view key_path,
                         std::string_view problem) {
  throw InputError(fmt::format("{}: {}: {}", format_position(origin, position), key_path, problem));
}

}  // namespace kbench::spec
