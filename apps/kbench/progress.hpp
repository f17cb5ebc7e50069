#pragma once
// One updating status line on stderr while a run goes on, on a terminal only: nothing of it ever
// reaches a file, a pipe or a CI log.
#include <chrono>
#include <string>

namespace kbench::cli {

class ProgressLine {
 public:
  ProgressLine();
  void start(int workload_index, int workload_count, const std::string& label);
  void sample_taken(int samples);
  void finish_result();
  void clear();  // erase the line before the report is printed

 private:
  void draw();
  bool enabled_ = false;
  int index_ = 0, count_ = 0, finished_ = 0, samples_ = 0;
  std::string label_;
  std::chrono::steady_clock::time_point started_;
};

}  // namespace kbench::cli
