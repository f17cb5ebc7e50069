#pragma once
// Which elements of a pass's computed tensor (problem/conv_pass.hpp) to verify when the whole of it is
// too large to recompute on the CPU: every corner, points along every border and face, random interior
// points, and grad_bias's ends and a sample of it.
#include <cstdint>
#include <vector>

#include "problem/conv_problem.hpp"

namespace kbench {

// Sorted, unique flat output indices; all of them when the output has at most `max_points` elements.
std::vector<std::int64_t> choose_check_points(const ConvProblem& problem, std::int64_t max_points, std::uint64_t seed);

}  // namespace kbench
