#pragma once
// `--backends module:PATH.py`: a KernelBench-style problem or solution file (a ModelNew or Model class,
// get_init_inputs()) run in the embedded torch beside kbench's other backends. The model is built from
// the file's own get_init_inputs(), its convolution's weight and bias become kbench's buffers (matched
// by shape, refused when none or several match), and its forward is timed and verified like any
// backend's. See docs/torch-backend.md.
#include <memory>
#include <string>

#include "backend/backend.hpp"

namespace kbench::torch {

// `python_flag`: as make_torch_backend's.
std::unique_ptr<Backend> make_module_backend(std::string python_flag);

}  // namespace kbench::torch
