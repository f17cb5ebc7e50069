#pragma once
// How the cuda backend runs each pass of a convolution (problem/conv_pass.hpp) on its families:
//   forward           the forward families run the problem as it is;
//   backward_data     the forward families run backward_data_problem(p): the forward problem whose
//                     output is p's grad_input (a conv's is a conv_transpose, a conv_transpose's a
//                     conv), reading p's grad_output as its input and p's weight unchanged in memory,
//                     so every forward kernel, variant and default applies to it as to any forward
//                     problem of that shape;
//   backward_weights  the families that compute that pass (wgrad/) run p itself.
// Plain C++ with no CUDA include: the unit tests ask it on the CPU (test_cuda_passes.cpp).
#include <string>

#include <fmt/format.h>

#include "cuda/common/family_descriptor.hpp"
#include "problem/conv_pass.hpp"
#include "problem/problem_metrics.hpp"

namespace kbench::gpu::conv {

// The problem the families run for `p`'s pass; `p` must pass backward_data_support for backward_data.
inline ConvProblem families_problem(const ConvProblem& p) {
  return p.pass == Pass::backward_data ? backward_data_problem(p) : p;
}

// What a reason about the problem the families run adds, for a backward_data problem, so that a
// padding or channel count the spec does not have does not puzzle.
inline std::string backward_data_context(const ConvProblem& forward) {
  return fmt::format(" (backward_data runs as the forward pass of {})", describe(forward));
}

// A backward_data pass run as the forward pass of `forward` (its backward_data_problem): the forward
// kernel's name with "/backward_data_as_forward", its facts, and which problem it ran.
inline KernelDescription as_backward_data_description(KernelDescription d, const ConvProblem& forward) {
  d.implementation += "/backward_data_as_forward";
  d.properties.emplace_back("pass", "backward_data");
  d.properties.emplace_back("runs_as", describe(forward));
  return d;
}

}  // namespace kbench::gpu::conv
