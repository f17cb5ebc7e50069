#include "progress.hpp"

#include <unistd.h>

#include <cstdio>

#include <fmt/format.h>

namespace kbench::cli {

ProgressLine::ProgressLine() : enabled_(isatty(fileno(stderr)) != 0), started_(std::chrono::steady_clock::now()) {}

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
  if (enabled_) fmt::print(stderr, "\r\033[2K");
}

void ProgressLine::draw() {
  if (!enabled_) return;
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  fmt::print(stderr, "\r\033[2K[workload {}/{}] {} · {} samples · {} results done · {:.0f} s", index_ + 1, count_,
             label_, samples_, finished_, elapsed);
  std::fflush(stderr);
}

}  // namespace kbench::cli
