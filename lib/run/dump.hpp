#pragma once
// --dump DIR: a workload's inputs, each backend's output and the reference as .npy files, with an
// index JSON per workload, so a mismatch can be inspected in numpy or against PyTorch. Every tensor is
// written in the spec's dtype and memory layout (run/dump_tensor.hpp); the reference in fp64, in the same
// layout. The index names each file's dtype (float32, float16, bfloat16, float64), layout and shapes.
// A backward pass dumps the operands it reads by their autograd names (grad_output) and its computed
// gradient as the output and reference; grad_bias of a backward_weights pass as a second tensor of each
// (`reference:grad_bias`, `output:BACKEND:MATH:grad_bias`).
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "problem/memory_layout.hpp"
#include "run/result.hpp"
#include "spec/workload.hpp"

namespace kbench {

class WorkloadDump {
 public:
  // Writes the operands the pass reads at once (unless larger than the dump limit, which is noted).
  WorkloadDump(std::string dir, const Workload& workload, std::uint64_t seed);
  // False (and the skip noted in the index) when the output is over the dump limit: call it
  // before reading a large output back from a device.
  bool accepts_output(const Result& result, std::int64_t elements);
  // Whether an output of `elements` is under the dump limit (accepts_output's answer, without noting it).
  bool within_limit(std::int64_t elements) const;
  void add_output(const Result& result, std::span<const float> output);
  void add_reference(std::span<const double> output);
  // Writes DIR/<workload>.index.json and adds a note to the report naming it; when a file could not be
  // written, a note saying so instead, and the failure in report.write_failures.
  void finish(RunReport& report);

 private:
  // Runs one write; after a failure (a full disk) it and every later write of this dump is skipped, so
  // the run goes on and keeps its results, and finish() reports the failure.
  template <class Write>
  void attempt(Write&& write);
  bool fits(std::int64_t elements, std::int64_t element_bytes, const std::string& what);
  void add_file(const std::string& role, const std::string& file, Operand operand, const std::string& dtype);

  std::string dir_;
  Workload workload_;
  nlohmann::json index_;
  std::string failure_;  // the first write that failed, or empty
};

}  // namespace kbench
