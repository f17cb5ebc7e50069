#pragma once
// The reference's guards, run before any index: the problem must pass validate_problem (a problem built
// in code may not), and host tensors must hold exactly the elements the problem's shapes call for (a
// mismatch is a bug in the caller, reported before any index can run past the end of a vector).
#include "data/host_tensors.hpp"
#include "problem/conv_problem.hpp"

namespace kbench::reference {

// Throws kbench::InputError "the CPU reference cannot compute this convolution: " + validate_problem's
// reason.
void require_computable(const ConvProblem& problem);

// Throws std::invalid_argument naming the tensor whose size is wrong.
void require_tensors_match(const ConvProblem& problem, const data::HostTensors& tensors);

}  // namespace kbench::reference
