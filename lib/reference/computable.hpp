#pragma once
// The reference's own guard: which problems it can compute without dividing by zero or indexing out of
// bounds. The spec loader validates user input more thoroughly; this catches problems built in code.
#include "core/support.hpp"
#include "problem/conv_problem.hpp"

namespace kbench::reference {

// Yes when the reference can compute `problem`'s pass; otherwise no, with what is wrong with it for a
// person to read.
Support computable(const ConvProblem& problem);

// Throws kbench::InputError carrying computable's reason.
void require_computable(const ConvProblem& problem);

}  // namespace kbench::reference
