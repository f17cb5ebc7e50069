#pragma once
// The CPU reference as a Backend, so it can be listed, run and timed like any other (`--backends
// reference`). It computes in fp64 from the seeded inputs (rounded to the
// problem's dtype) and stores the output rounded once to that dtype, held as floats in logical order
// whatever the layout.
#include <memory>

#include "backend/backend.hpp"

namespace kbench {

std::unique_ptr<Backend> make_reference_backend();

}  // namespace kbench
