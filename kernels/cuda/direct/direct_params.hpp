#pragma once
// What the generic direct kernel needs to know of a problem, computed once on the host. Plain C++
// (no CUDA header): the entry point and the CPU emulation tests build it alike.
#include <cstdint>

#include "cuda/transposed/phase_index.hpp"
#include "problem/conv_problem.hpp"
#include "problem/rank3.hpp"

namespace kbench::gpu::conv {

struct DirectParams {
  ConvProblem p3;          // rank 3 (as_rank3)
  Dims out;                // p3.output()
  PhaseDim phase[3];       // transposed only: per-dimension phase data for the tap walks
  std::int64_t total = 0;  // output elements
};

inline DirectParams make_direct_params(const ConvProblem& problem) {
  DirectParams d;
  d.p3 = as_rank3(problem);
  d.out = d.p3.output();
  for (int i = 0; i < 3; ++i) d.phase[i] = make_phase_dim(d.p3, i);
  d.total = d.p3.output_elements();
  return d;
}

}  // namespace kbench::gpu::conv
