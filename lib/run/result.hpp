#pragma once
// What a run produces: one Result per (workload, backend/variant, math mode), collected in a
// RunReport that every reporter (text, JSON, CSV, Markdown) renders.
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/types.hpp"
#include "measure/measure.hpp"
#include "problem/problem_metrics.hpp"
#include "roofline/floor.hpp"
#include "spec/workload.hpp"
#include "verify/compare.hpp"
#include "verify/error_bound.hpp"
#include "verify/tolerance.hpp"

namespace kbench {

enum class ResultStatus {
  ok,           // verified and (when timing was asked for) timed
  wrong,        // ran, but the output failed verification: its time is never reported
  failed,       // threw or a CUDA/cuDNN call failed
  unsupported,  // the backend cannot express this problem
  unavailable,  // the backend cannot run on this machine (no GPU, no driver)
  skipped,      // would not fit memory or the time budget; the reason has the numbers
};
std::string_view to_string(ResultStatus status);

// Where a result runs: on the GPU (timed with CUDA events under the GPU protocol, set against the
// floors) or on the host's CPU (timed by the CPU clock, one warm-up, no flush; never set against a
// GPU's roofs, which it would miss by 10^4).
enum class ResultDevice { gpu, cpu };
std::string_view to_string(ResultDevice device);

// KernelBench's fixed rule (atol = rtol = 1e-4 in fp32, 1e-2 where TF32 is allowed), applied beside the
// error bound for comparison with its published verdicts; it decides nothing here.
struct KernelBenchRule {
  Tolerance tolerance;
  Comparison comparison;
};

struct Verification {
  // What decided: the error bound derived from the problem and math (the default), or a fixed
  // tolerance when --atol/--rtol were given. Exactly one is set.
  std::optional<ErrorBound> bound;
  std::optional<Tolerance> tolerance;
  Comparison comparison;
  std::optional<KernelBenchRule> kernelbench_rule;
  bool full = false;             // every output element checked, else a sample
  bool inputs_unchanged = true;  // the backend did not write its inputs
  // A second check after timing, on fresh inputs from another seed, at sampled points: catches a
  // backend that replays an earlier output or is only right the first time.
  std::optional<Comparison> fresh_inputs;
  std::uint64_t fresh_inputs_seed = 0;
  std::string against = "reference (fp64, CPU)";

  // "the error bound (...)" or "tolerance (atol 1e-4, rtol 1e-4)", for messages.
  std::string criterion() const;
};

struct Result {
  std::string workload;        // Workload::name
  std::string backend;         // as registered, e.g. "cudnn"
  std::string variant;         // requested variant, empty for the backend's choice
  std::string implementation;  // what ran
  MathMode math_requested = MathMode::fp32;
  MathMode math_used = MathMode::fp32;
  // The workload's data as this result ran it (also in its workload's problem; here so a result read
  // alone, or matched by `kbench diff`, says what it measured).
  DType dtype = DType::fp32;
  Layout layout = Layout::nchw;
  Pass pass = Pass::forward;
  std::string accumulation;  // "fp32" (GPU backends), "fp64" (the reference); empty in older documents
  ResultDevice ran_on = ResultDevice::gpu;  // RunReport::device or RunReport::host_cpu names it
  ResultStatus status = ResultStatus::ok;
  std::string reason;  // for every status but ok
  std::optional<Verification> verification;
  std::optional<Measurement> timing;  // only when verified and timed
  std::vector<std::pair<std::string, std::string>> properties;
  // Things a reader must know about an ok result, e.g. faster than the floor allows (a timing or
  // verification hole, not a fast kernel).
  std::vector<std::string> warnings;

  // Rates from the median, or 0 without timing.
  double achieved_flops(const ProblemMetrics& metrics) const;
  double achieved_Bps(const ProblemMetrics& metrics) const;
};

// Per workload: the spec, its derived numbers and the floor at each math mode the run used.
struct WorkloadSummary {
  Workload workload;
  ProblemMetrics metrics;
  Floor floor_fp32;
  Floor floor_tf32;
  bool batch_overridden = false;  // --batch replaced the spec's N
  std::int64_t spec_batch = 0;
  const Floor& floor_for(MathMode math) const { return math == MathMode::tf32 ? floor_tf32 : floor_fp32; }
};

struct RunSettings {
  std::vector<std::string> backends;  // requested; empty = every available one
  std::vector<MathMode> math_modes;
  std::uint64_t seed = 0;
  MeasureOptions measure;
  std::int64_t verify_points = 0;  // sampled output elements for large outputs
};

struct RunReport {
  std::string kbench_version;
  std::string build;       // core/build_info.hpp: commit, build type, compiler, CUDA; empty in older files
  std::string started_at;  // ISO 8601 UTC
  std::string host;
  std::int64_t peak_rss_bytes = 0;  // the run's peak host memory (resident set); 0 where unknown
  std::string device;              // the GPU that ran, or "none (no CUDA device found: ...)"
  std::string host_cpu;            // "AMD EPYC 7B13, 2 threads": what host results ran on; empty in older files
  DevicePeaks peaks;               // what floors are computed against
  bool peaks_from_target = false;  // no GPU present: floors for --target
  RunSettings settings;
  std::vector<WorkloadSummary> workloads;
  std::vector<Result> results;
  bool interrupted = false;
  std::vector<std::string> notes;  // e.g. "no CUDA device found: ..."
  // Files of the run that could not be written (a --dump file on a full disk), each a message naming
  // its path: the results are whole, and the CLI's exit status says so. Not part of the JSON document.
  std::vector<std::string> write_failures;

  // The summary of the workload named NAME (the first, should two share it), or nullptr. Every
  // result's view looks its workload up, so this is a hash lookup, not a scan: a scan made
  // rendering or reading N results N² (10,000 took minutes).
  const WorkloadSummary* find_workload(const std::string& name) const;

 private:
  // find_workload's index, rebuilt when the list has grown or shrunk since; a hit is checked against
  // the list, so a workload renamed in place is found by a scan, never wrongly.
  mutable std::unordered_map<std::string, std::size_t> workload_index_;
  mutable std::size_t indexed_workloads_ = 0;
};

}  // namespace kbench
