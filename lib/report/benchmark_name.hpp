#pragma once
// The name a result carries in formats made for other tools (gbench, github-action-benchmark):
// "workload/backend[:variant]/math", and "/dtype-layout" after it when the data is not fp32 nchw
// ("conv/cuda/fp32/fp16-nhwc"; fp32 nchw names are as they were, so existing series go on). Those tools match results
// across runs by name alone, so the name holds only what was asked for, never what happened to run (the implementation
// a backend picked, the math mode it fell back to): a changed choice stays one series on a dashboard.
#include <string>

#include "run/result.hpp"

namespace kbench::report {

std::string benchmark_name(const Result& result);

// Timing unit of every value in those formats: fixed, so a series keeps its unit when a kernel
// crosses a millisecond (google/benchmark's compare.py refuses to compare different units).
inline constexpr const char* kToolTimeUnit = "us";
inline constexpr double kSecondsPerToolTimeUnit = 1e-6;

}  // namespace kbench::report
