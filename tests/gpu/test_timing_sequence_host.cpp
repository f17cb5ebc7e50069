// The timing protocol's order (runtime/timing_sequence.hpp), checked without a device: what lies
// between the events, what lies outside, and when the blocked stream is released.
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "runtime/timing_sequence.hpp"

using namespace kbench::gpu;

namespace {

std::ptrdiff_t position(const std::vector<TimingStep>& steps, TimingStep step) {
  const auto it = std::find(steps.begin(), steps.end(), step);
  REQUIRE_MESSAGE(it != steps.end(), "step " << static_cast<int>(step) << " missing");
  CHECK_MESSAGE(std::count(steps.begin(), steps.end(), step) == 1, "step " << static_cast<int>(step) << " twice");
  return it - steps.begin();
}

bool has(const std::vector<TimingStep>& steps, TimingStep step) {
  return std::find(steps.begin(), steps.end(), step) != steps.end();
}

}  // namespace

TEST_SUITE("host") {
  TEST_CASE("a sample's steps: only the execution between the events, the blocked stream released after the stop") {
    for (const bool cold : {true, false}) {
      for (const bool blocking : {true, false}) {
        CAPTURE(cold);
        CAPTURE(blocking);
        const std::vector<TimingStep> steps = timing_sequence(cold, blocking);
        const auto start = position(steps, TimingStep::record_start);
        const auto stop = position(steps, TimingStep::record_stop);
        const auto execute = position(steps, TimingStep::execute);
        // The interval holds the execution and nothing else.
        CHECK(start + 1 == execute);
        CHECK(execute + 1 == stop);
        // The clock probe brackets the events from outside.
        CHECK(position(steps, TimingStep::probe_start) < start);
        CHECK(position(steps, TimingStep::probe_stop) > stop);
        // The events are read only after a device-wide synchronisation, the last step.
        CHECK(position(steps, TimingStep::synchronize_device) == static_cast<std::ptrdiff_t>(steps.size()) - 1);
        CHECK(has(steps, TimingStep::flush_l2) == cold);
        if (cold) CHECK(position(steps, TimingStep::flush_l2) < position(steps, TimingStep::probe_start));
        CHECK(has(steps, TimingStep::block_stream) == blocking);
        CHECK(has(steps, TimingStep::release_stream) == blocking);
        if (blocking) {
          const auto block = position(steps, TimingStep::block_stream);
          const auto release = position(steps, TimingStep::release_stream);
          // Held before anything the interval waits for is queued, after the flush (which then
          // runs while the host enqueues), and before the probe, so the probe times no host wait.
          CHECK(block < position(steps, TimingStep::probe_start));
          if (cold) CHECK(position(steps, TimingStep::flush_l2) < block);
          // Released only once every host call that queues work has returned: the stop event and
          // the probe's stop stamp are queued behind the held stream, never raced by it.
          CHECK(release > stop);
          CHECK(release > position(steps, TimingStep::probe_stop));
          CHECK(release < position(steps, TimingStep::synchronize_device));
        }
      }
    }
  }
}
