#pragma once
// The order of one timed sample, as data: GpuPreparedRun::timed_run walks this list, and the host
// tests check its invariants (the execution alone between the events; flush and clock probes
// outside; with blocking, the stream held before the start event and released only after the stop
// event is recorded). Pure, no CUDA: see docs/gpu-runtime.md, "Timing protocol".
#include <vector>

namespace kbench::gpu {

enum class TimingStep {
  flush_l2,            // cold samples only: write a buffer larger than the L2
  block_stream,        // launch the spinning kernel (StreamBlocker)
  probe_start,         // the SM clock probe's first stamp
  record_start,        // start event
  execute,             // enqueue(), or the graph's launch
  record_stop,         // stop event
  probe_stop,          // the clock probe's second stamp
  release_stream,      // the host lets the spinning kernel finish
  synchronize_device,  // device-wide: work forked to other streams has finished too
};

inline std::vector<TimingStep> timing_sequence(bool cold, bool blocking) {
  std::vector<TimingStep> steps;
  if (cold) steps.push_back(TimingStep::flush_l2);
  // The block goes before the probe, so the probed interval is the execution, not the host's enqueue.
  if (blocking) steps.push_back(TimingStep::block_stream);
  for (const TimingStep s : {TimingStep::probe_start, TimingStep::record_start, TimingStep::execute,
                             TimingStep::record_stop, TimingStep::probe_stop})
    steps.push_back(s);
  if (blocking) steps.push_back(TimingStep::release_stream);
  steps.push_back(TimingStep::synchronize_device);
  return steps;
}

}  // namespace kbench::gpu
