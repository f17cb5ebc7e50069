#pragma once
// Whether a cuda kernel variant ("family[/order][/schedule]...") takes a problem under a math mode:
// its envelope only, whatever the device (whether the device runs the variant is device_support's
// question). In a .cpp of its own: nvcc's front end does not compile selection.hpp's C++20.
#include <string>
#include <vector>

#include "backend/backend.hpp"
#include "core/types.hpp"
#include "problem/conv_problem.hpp"

namespace kbench::gpu_tests {

Support variant_envelope(const ConvProblem& problem, const std::string& variant, MathMode math);

// The variants `cuda:all` would run for the problem (applicable_variants), by name, whatever the device.
std::vector<std::string> applicable_variant_names(const ConvProblem& problem, MathMode math);

// The variant the cuda backend runs the problem on by default (default_family's name), or "" where the
// backend does not support the problem (problem_supported).
std::string default_variant(const ConvProblem& problem, MathMode math);

// Whether the problem is a stride-1 transposed convolution with a forward equivalent (forward_equivalent.hpp).
bool has_forward_equivalent(const ConvProblem& problem);

}  // namespace kbench::gpu_tests
