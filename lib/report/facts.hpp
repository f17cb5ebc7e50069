#pragma once
// The labelled lines the text and Markdown reports print above their tables: what the run was
// measured against, and per workload its shapes, work and floors. One list, two layouts.
#include <string>
#include <string_view>
#include <vector>

#include "run/result.hpp"

namespace kbench::report {

struct Fact {
  std::string label;  // "device", "floor fp32", ...
  std::string value;
};

// device (or "no CUDA device — floors for target X (source)"), peaks, timing, run settings, notes.
std::vector<Fact> run_facts(const RunReport& report);

// problem, shapes, work, batch override, one floor per math mode in use, the published floor.
std::vector<Fact> workload_facts(const RunReport& report, const WorkloadSummary& summary);

// "memory 4.8 TB/s{sep}fp32 67 TFLOP/s (3xTF32 165 TFLOP/s){sep}tf32 495 TFLOP/s": the rates floors
// use. The 3xTF32 rate is shown where it, not FFMA, is the fp32 peak.
std::string peak_rates_text(const DevicePeaks& peaks, std::string_view separator);

// "fp16/bf16 tensor 989 TFLOP/s, fp16 without tensor cores 134 TFLOP/s": the rates half workloads use
// (the tensor rate for their floors; derived from TF32 and FFMA where the peaks did not give them).
std::string half_rates_text(const DevicePeaks& peaks);

// The label of the published-floor fact, spelled out so nobody takes it for kbench's floor.
inline constexpr std::string_view kPublishedFloorLabel = "published floor (input bytes @ datasheet BW)";

}  // namespace kbench::report
