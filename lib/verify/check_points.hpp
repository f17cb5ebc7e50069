#pragma once
// Which output elements to verify when the whole output is too large to recompute on the CPU:
// every corner, points along every border and face, and random interior points.
#include <cstdint>
#include <vector>

#include "problem/conv_problem.hpp"

namespace kbench {

// Sorted, unique flat output indices; all of them when the output has at most `max_points` elements.
std::vector<std::int64_t> choose_check_points(const ConvProblem& problem, std::int64_t max_points, std::uint64_t seed);

}  // namespace kbench
