#include "terminal.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <string_view>

namespace kbench::cli {

bool terminal_takes_escapes(int fd) {
  if (::isatty(fd) == 0) return false;
  const char* term = std::getenv("TERM");
  return term != nullptr && *term != '\0' && std::string_view(term) != "dumb";
}

bool stdout_wants_color() { return terminal_takes_escapes(STDOUT_FILENO) && std::getenv("NO_COLOR") == nullptr; }

std::size_t terminal_width() {
  std::size_t width = 0;
  if (const char* columns = std::getenv("COLUMNS")) {
    const std::string_view text(columns);
    std::size_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error == std::errc() && end == text.data() + text.size()) width = value;
  }
  winsize size{};
  if (width == 0 && isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0) width = size.ws_col;
  if (width == 0) width = kDefaultWidth;
  return std::clamp<std::size_t>(width, kNarrowestWidth, 1000);
}

}  // namespace kbench::cli
