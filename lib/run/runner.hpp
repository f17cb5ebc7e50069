#pragma once
// Runs workloads on backends: for each (workload, backend or variant, math mode) it checks
// availability, support and fit, prepares, verifies against the fp64 reference, and times.
// Each result is independent: one backend failing never costs another its result.
#include <atomic>
#include <vector>

#include "backend/registry.hpp"
#include "run/result.hpp"
#include "run/run_config.hpp"
#include "spec/workload.hpp"

namespace kbench {

class RunObserver {
 public:
  virtual ~RunObserver() = default;
  // Before each result's work starts: workload i of n (0-based), backend label, math mode.
  virtual void on_start(int /*workload_index*/, int /*workload_count*/, const std::string& /*label*/) {}
  // After each timed sample of the current result.
  virtual void on_sample(int /*samples_taken*/) {}
  // After each result is added to `report`, so the caller can persist partial reports.
  virtual void on_result(const RunReport& /*report*/) {}
  // After the last result of a workload (report.workloads.back()), unless the run was stopped during it.
  virtual void on_workload_finished(const RunReport& /*report*/) {}
};

// `stop` (may be null) is polled between results; once set, the report is marked interrupted.
RunReport run_workloads(const std::vector<Workload>& workloads, const Registry& registry, const RunConfig& config,
                        RunObserver* observer = nullptr, const std::atomic<bool>* stop = nullptr);

// Floors and metrics for a workload, without running anything (used by the runner and by `kbench list`).
WorkloadSummary summarize_workload(const Workload& workload, const DevicePeaks& peaks);

}  // namespace kbench
