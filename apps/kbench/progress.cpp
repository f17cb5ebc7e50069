#include "progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "terminal.hpp"

namespace kbench::cli {

namespace {

// Characters a terminal shows for UTF-8 TEXT: every byte but continuation bytes.
std::size_t display_width(const std::string& text) {
  std::size_t width = 0;
  for (unsigned char c : text) width += (c & 0xC0) != 0x80;
  return width;
}

}  // namespace

ProgressLine::ProgressLine()
    : enabled_(isatty(fileno(stderr)) != 0),
      escapes_(terminal_takes_escapes(STDERR_FILENO)),
      started_(std::chrono::steady_clock::now()) {}

void ProgressLine::start(int workload_index, int workload_count, const std::string& label) {
  index_ = workload_index;
  count_ = workload_count;
  label_ = label;
  samples_ = 0;
  draw();
}

void ProgressLine::sample_taken(int samples) {
  samples_ = samples;
  draw();
}

void ProgressLine::finish_result() {
  ++finished_;
  draw();
}

void ProgressLine::clear() {
  if (!enabled_ || drawn_width_ == 0) return;
  if (escapes_)
    fmt::print(stderr, "\r\033[2K");
  else
    fmt::print(stderr, "\r{:{}}\r", "", drawn_width_);
  std::fflush(stderr);
  drawn_width_ = 0;
  last_drawn_ = {};  // the next state shows at once
}

void ProgressLine::draw() {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (drawn_width_ != 0 && now - last_drawn_ < kRedrawInterval) return;
  last_drawn_ = now;
  const double elapsed = std::chrono::duration<double>(now - started_).count();
  const std::string line = fmt::format("[workload {}/{}] {} · {} samples · {} results done · {:.0f} s", index_ + 1,
                                       count_, label_, samples_, finished_, elapsed);
  const std::size_t width = display_width(line);
  if (escapes_)
    fmt::print(stderr, "\r\033[2K{}", line);
  else  // a dumb terminal: spaces over what a longer line left
    fmt::print(stderr, "\r{}{:{}}", line, "", drawn_width_ > width ? drawn_width_ - width : 0);
  drawn_width_ = std::max({width, drawn_width_, std::size_t{1}});
  std::fflush(stderr);
}

}  // namespace kbench::cli
