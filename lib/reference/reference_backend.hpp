#pragma once
// The CPU reference as a Backend, so it can be listed, run and timed like any other (`--backends
// reference`). It computes in fp64 from fp32 inputs and stores fp32 outputs.
#include <memory>

#include "backend/backend.hpp"

namespace kbench {

std::unique_ptr<Backend> make_reference_backend();

}  // namespace kbench
