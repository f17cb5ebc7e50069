#pragma once
// One updating status line on stderr while a run goes on, on a terminal only: nothing of it ever
// reaches a file, a pipe or a CI log. Redrawn at most every kRedrawInterval, however fast samples
// come (a terminal, or a terminal emulator's log, is not a sample counter); on a `dumb` terminal
// (terminal.hpp) with a carriage return and spaces, without escape sequences.
#include <chrono>
#include <string>

namespace kbench::cli {

class ProgressLine {
 public:
  static constexpr std::chrono::milliseconds kRedrawInterval{100};

  ProgressLine();
  void start(int workload_index, int workload_count, const std::string& label);
  void sample_taken(int samples);
  void finish_result();
  void clear();  // erase the line before the report is printed

 private:
  void draw();
  bool enabled_ = false;
  bool escapes_ = false;
  int index_ = 0, count_ = 0, finished_ = 0, samples_ = 0;
  std::string label_;
  std::size_t drawn_width_ = 0;  // characters on the line now; 0 when nothing is drawn
  std::chrono::steady_clock::time_point started_, last_drawn_;
};

}  // namespace kbench::cli
