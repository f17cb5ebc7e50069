#pragma once
// The reference's own guard: which problems it can compute without dividing by zero or indexing out of
// bounds. The spec loader validates user input more thoroughly; this catches problems built in code.
#include <string>

#include "problem/conv_problem.hpp"

namespace kbench::reference {

// Empty when the reference can compute `problem`; otherwise what is wrong with it, for a person to read.
std::string why_not_computable(const ConvProblem& problem);

// Throws kbench::InputError carrying why_not_computable's reason.
void require_computable(const ConvProblem& problem);

}  // namespace kbench::reference
