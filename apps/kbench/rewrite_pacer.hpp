#pragma once
// When a run rewrites its --output document. A document of N results costs N to render and write,
// so a rewrite after every result costs N² over a run: 1,194 skipped workloads took 56 s to write
// and 0.35 s to run. Paced instead by what writing costs: after a rewrite that took T, the next
// waits until kWaitPerWrite·T has passed, so rewriting takes at most 1/kWaitPerWrite of the run
// and the whole run's writing stays linear, while every result that took longer than that to
// produce (a timed one, at any realistic document size) is on disk as soon as it is done.
#include <chrono>

namespace kbench::cli {

class RewritePacer {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr int kWaitPerWrite = 20;

  // Whether a rewrite now keeps within the budget (the first always does).
  bool due() const { return Clock::now() >= next_; }

  // Times one rewrite, from construction to destruction, and sets when the next is due.
  class Timed {
   public:
    explicit Timed(RewritePacer& pacer) : pacer_(pacer), start_(Clock::now()) {}
    ~Timed() {
      const Clock::time_point end = Clock::now();
      pacer_.next_ = end + (end - start_) * kWaitPerWrite;
    }
    Timed(const Timed&) = delete;
    Timed& operator=(const Timed&) = delete;

   private:
    RewritePacer& pacer_;
    Clock::time_point start_;
  };

 private:
  Clock::time_point next_{};
};

}  // namespace kbench::cli
