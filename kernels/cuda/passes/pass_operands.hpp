#pragma once
// The operands a pass's kernels take, from a run's four buffers. The buffers keep the forward
// problem's shapes whatever the pass (runtime/gpu_prepared_run.hpp): x, w, b, y. A backward_data pass
// runs its backward_data_problem forward (pass_problem.hpp), whose input is the run's grad_output
// (in y's buffer) and whose output is grad_input (in x's), with the weight as it is and no bias; a
// backward_weights pass reads x and grad_output (y's buffer) and writes grad_weight (w's) and grad_bias (b's).
#include "core/types.hpp"
#include "cuda/common/operands.hpp"

namespace kbench::gpu::conv {

inline Operands pass_operands(Pass pass, void* x, void* w, void* b, void* y) {
  switch (pass) {
    case Pass::forward: return Operands::of(x, w, b, y);
    case Pass::backward_data: return Operands::of(y, w, nullptr, x);
    case Pass::backward_weights: {
      Operands ops;
      ops.x = static_cast<const float*>(x);
      ops.dy = static_cast<const float*>(y);
      ops.dw = static_cast<float*>(w);
      ops.db = static_cast<float*>(b);
      return ops;
    }
  }
  return {};
}

}  // namespace kbench::gpu::conv
