#pragma once
// Whether a cuda kernel variant ("family[/order][/schedule]...") takes a problem under a math mode:
// its envelope only, whatever the device (whether the device runs the variant is device_support's
// question). In a .cpp of its own: nvcc's front end does not compile kernel_selection.hpp's C++20.
#include <string>

#include "backend/backend.hpp"
#include "core/types.hpp"
#include "problem/conv_problem.hpp"

namespace kbench::gpu_tests {

Support variant_envelope(const ConvProblem& problem, const std::string& variant, MathMode math);

}  // namespace kbench::gpu_tests
