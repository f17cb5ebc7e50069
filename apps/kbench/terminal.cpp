#include "terminal.hpp"

#include <unistd.h>

#include <cstdlib>
#include <string_view>

namespace kbench::cli {

bool terminal_takes_escapes(int fd) {
  if (::isatty(fd) == 0) return false;
  const char* term = std::getenv("TERM");
  return term != nullptr && *term != '\0' && std::string_view(term) != "dumb";
}

bool stdout_wants_color() { return terminal_takes_escapes(STDOUT_FILENO) && std::getenv("NO_COLOR") == nullptr; }

}  // namespace kbench::cli
