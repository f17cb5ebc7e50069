#pragma once
// The roofline floor: no implementation can beat max(bytes / bandwidth, FLOPs / peak rate).
#include <string>

#include "problem/problem_metrics.hpp"
#include "roofline/device_peaks.hpp"

namespace kbench {

struct Floor {
  double memory_s = 0;
  double compute_s = 0;
  double floor_s = 0;
  std::string binds;  // "memory" or "compute"
  // The units whose peak the compute term uses: FFMA or 3xTF32 for fp32 (the faster), TF32 for tf32;
  // FP16 / BF16 tensor cores for half data.
  ComputeUnits compute_units = ComputeUnits::ffma;
  // The figure published beside the KernelBench records ("headroom-v1"): input bytes only, at the
  // datasheet bandwidth, no compute term. Shown labelled, never used as kbench's floor.
  double published_input_only_s = 0;
};

// For fp16/bf16 data (`dtype`) the compute term uses that type's dense tensor rate at either math mode.
Floor compute_floor(const ProblemMetrics& metrics, const DevicePeaks& peaks, MathMode math, DType dtype = DType::fp32);

// "memory", or "compute, 3xTF32": which term binds and, for compute, by which units.
std::string binding_text(const Floor& floor);

// time / floor: 1.0 is perfect, 2.0 means twice as slow as the floor allows.
inline double headroom(double seconds, const Floor& floor) { return floor.floor_s > 0 ? seconds / floor.floor_s : 0; }

}  // namespace kbench
