#pragma once
// The seam between the pipeline (lib/) and whatever computes a convolution: the CPU reference,
// cuDNN, our CUDA kernels. The measurement loop, the verifier and the reports drive any backend
// through these two small interfaces, which is also how they are unit-tested with fake backends.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/support.hpp"
#include "core/types.hpp"
#include "problem/conv_problem.hpp"
#include "verify/error_bound.hpp"

namespace kbench {

enum class AlgoSearch { heuristic, exhaustive };

// Everything a backend may consult. Each backend reads what applies to it and ignores the rest;
// typed fields rather than a free-form blob so a misspelt option cannot pass silently.
struct BackendOptions {
  MathMode math = MathMode::fp32;
  std::string variant;  // empty: the backend's own choice; else a kernel family or algorithm name
  AlgoSearch algo_search = AlgoSearch::heuristic;
  std::int64_t workspace_limit_bytes = std::int64_t{4} << 30;
  int device = 0;
};

struct TimingOptions {
  bool cold = true;    // flush caches (L2 on a GPU) before each sample
  bool graph = false;  // GPU: replay a captured CUDA graph instead of launching
};

struct Sample {
  double seconds = 0;
  bool throttled = false;  // the device clock dropped during this sample
};

// A problem set up on one backend: buffers allocated, algorithm chosen, ready to run repeatedly.
class PreparedRun {
 public:
  virtual ~PreparedRun() = default;

  // What actually runs, e.g. "direct", "depthwise_rows", "cudnn:IMPLICIT_PRECOMP_GEMM".
  virtual std::string implementation() const = 0;
  // The math the backend actually used (a tf32 request may still run FMA kernels).
  virtual MathMode math_used() const = 0;
  // How often the output is rounded to its dtype: once, or (a bias added in a step of its own) before
  // and after the bias; the error bound counts what this declares (verify/error_bound.hpp).
  virtual OutputRounding output_rounding() const { return OutputRounding::once; }
  // Extra facts for the report (workspace bytes, tile shape, ...), as (key, value) pairs.
  virtual std::vector<std::pair<std::string, std::string>> properties() const { return {}; }

  // Fresh seeded inputs (data::draw), generated where the backend computes, and their checksum noted.
  virtual void fill_inputs(std::uint64_t seed) = 0;
  // Every output element set to NaN, so an element the kernel forgets to write fails verification.
  virtual void poison_output() = 0;
  // One complete execution; returns when its results are visible to read_output.
  virtual void run() = 0;
  // One timed execution, synchronised device-wide before the clock is read.
  virtual Sample timed_run(const TimingOptions& timing) = 0;
  // Output values at the given flat indices (row-major output), or the whole output when empty.
  virtual std::vector<float> read_output(std::span<const std::int64_t> indices) = 0;
  // False when the inputs no longer match the checksum taken by fill_inputs (a kernel wrote them).
  virtual bool inputs_unchanged() = 0;
  // What a reader of this run's result must know that the run found out while running (a device
  // that refused an L2 reset, samples that could not be taken the usual way); read after timing.
  virtual std::vector<std::string> warnings() const { return {}; }
};

// The device a plan is made for (`kbench plan`): the one present, or a --target GPU's datasheet facts
// where none is. What a backend would run can depend on it (Hopper-only kernels, grids sized by SMs).
struct PlanDevice {
  std::string name;
  int cc_major = 0, cc_minor = 0;  // compute capability; 0.0 when unknown
  int sms = 0;                     // 0 when unknown: what depends on it is described, not counted
  bool present = false;            // false: not on this machine, planned from its datasheet
};

// One variant as a plan describes it: what `NAME:VARIANT` runs, named as a result would name it.
struct VariantPlan {
  std::string variant;                                          // as --backends NAME:VARIANT spells it
  std::string implementation;                                   // the kernel that runs, as a result's `implementation`
  std::vector<std::pair<std::string, std::string>> properties;  // as a result's `properties`
};

// What a backend would run for a problem, decided without running it.
struct BackendPlan {
  Support support;  // no: the backend does not take the problem, or cannot plan it here
  // What runs (the default, or the forced variant) first, then the others `NAME:all` runs, in its order.
  std::vector<VariantPlan> variants;
  std::vector<std::pair<std::string, std::string>> ruled_out;  // (variant, why it cannot run the problem there)
};

class Backend {
 public:
  virtual ~Backend() = default;

  virtual std::string name() const = 0;         // as typed in --backends, e.g. "cudnn"
  virtual std::string description() const = 0;  // one line for `kbench list`
  virtual bool runs_on_cpu() const { return false; }
  // Whether a run without --backends includes it (when available); false for a backend whose start
  // costs seconds or whose figures are a peer's rather than kbench's (torch).
  virtual bool selected_by_default() const { return true; }

  // Whether this machine can run the backend at all (GPU present, library loadable).
  virtual Support available() const = 0;
  // Whether it can run this problem with these options (ops, dims, dtypes, math modes).
  virtual Support supports(const ConvProblem& problem, const BackendOptions& options) const = 0;
  // Whether the problem fits this machine's memory now; the reason carries needed and available bytes.
  virtual Support fits(const ConvProblem& problem, const BackendOptions& options) const = 0;
  // Whether `variant` (what follows NAME: in --backends; never empty) can name anything at all, whatever
  // the problem: no stops the run before it starts, as the command line's error (a module file not there).
  virtual Support variant_usable(const std::string& /*variant*/) const { return Support::yes(); }
  // Whether this machine can run what `variant` names (never empty): a plugin library that loads and speaks
  // kbench's ABI. No makes each of its results `unavailable` with the reason, as available() does.
  virtual Support variant_available(const std::string& /*variant*/) const { return Support::yes(); }
  // Named variants that "NAME:all" expands to (kernel families, cuDNN algorithms); empty if none.
  virtual std::vector<std::string> variants(const ConvProblem&, const BackendOptions&) const { return {}; }

  // What runs the problem with these options on `device`, without preparing anything (`kbench plan`).
  // A backend that decides only when it prepares (cuDNN's heuristics ask the device) says so.
  virtual BackendPlan plan(const ConvProblem&, const BackendOptions&, const PlanDevice&) const {
    return {Support::no(name() + " chooses what runs only when it prepares a problem on its device"), {}, {}};
  }

  virtual std::unique_ptr<PreparedRun> prepare(const ConvProblem& problem, const BackendOptions& options) = 0;

  // Facts about this process's environment that change what the backend runs (a library setting
  // from an environment variable), for the run's notes; asked once per run of a selected backend.
  virtual std::vector<std::string> environment_notes() const { return {}; }
};

}  // namespace kbench
