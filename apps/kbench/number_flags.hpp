#pragma once
// Checks for numeric flags, run by CLI11 on the text at parse time: the value must be a number of
// the right kind (finite: `nan` and `inf` are refused), inside the flag's accepted range, which the
// message names ("--time-budget: expected a finite number in (0, 86400], got 'nan'"). CLI11's own
// PositiveNumber and Range let NaN through (every comparison with it is false).
#include <cstdint>

#include <CLI/CLI.hpp>

namespace kbench::cli {

// A finite real number in [min, max], or (min, max] when min_exclusive.
CLI::Validator finite_number(double min, double max, bool min_exclusive = false);

// A whole number, written in decimal, in [min, max].
CLI::Validator whole_number(std::int64_t min, std::int64_t max);

// Any uint64 (a seed): a whole decimal number in [0, 2^64 - 1], no sign.
CLI::Validator whole_uint64();

// `kbench diff --threshold`: a percentage, "5" or "5%", finite, in [0, 1000).
CLI::Validator percentage();

// The accepted ranges, shared by the flags of several commands and by the docs (docs/cli.md).
inline constexpr std::int64_t kMaxDevice = 1023;
inline constexpr double kMaxTimeBudgetS = 86400;           // a day of sampling per workload and backend
inline constexpr double kMaxWorkspaceMiB = 1024.0 * 1024;  // 1 TiB
inline constexpr double kMaxTolerance = 1e6;

}  // namespace kbench::cli
