#pragma once
// `--backends module:PATH.py`: a KernelBench-style problem or solution file (a ModelNew or Model class,
// get_init_inputs()) run in the embedded torch beside kbench's other backends. The model is built from
// the file's own get_init_inputs(), its convolution's weight and bias become kbench's buffers (matched
// by shape, refused when none or several match), and its forward is timed and verified like any
// backend's. See docs/torch-backend.md.
#include <memory>
#include <string>

#include "backend/backend.hpp"
#include "torch/embedded_torch.hpp"

namespace kbench::torch {

// `torch`: as make_torch_backend's (the same one).
std::unique_ptr<Backend> make_module_backend(std::shared_ptr<const EmbeddedTorch> torch);

}  // namespace kbench::torch
