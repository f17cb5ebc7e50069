#pragma once
// A backward_data pass run as the forward pass of its backward_data_problem (pass_problem.hpp): the
// forward launch of that problem, under the backward_data description. The operands it is given are
// already the forward problem's (pass_operands.hpp: grad_output as its input, grad_input as its output).
#include <memory>

#include "cuda/common/family_launcher.hpp"

namespace kbench::gpu::conv {

std::unique_ptr<KernelLaunch> make_backward_data_launch(std::unique_ptr<KernelLaunch> forward_launch,
                                                        KernelDescription description);

}  // namespace kbench::gpu::conv
