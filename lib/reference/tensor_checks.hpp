#pragma once
// Host tensors must hold exactly the elements the problem's shapes call for; a mismatch is a bug in
// the caller, reported before any index can run past the end of a vector.
#include "data/host_tensors.hpp"
#include "problem/conv_problem.hpp"

namespace kbench::reference {

// Throws std::invalid_argument naming the tensor whose size is wrong.
void require_tensors_match(const ConvProblem& problem, const data::HostTensors& tensors);

}  // namespace kbench::reference
