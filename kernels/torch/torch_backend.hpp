#pragma once
// `--backends torch`: torch.nn.functional's convolutions in an embedded CPython, eager or through
// torch.compile (torch:compile, torch:compile-max-autotune), on kbench's own buffers. The
// interpreter is found at run time; without Python, libpython or torch the backend is unavailable
// with the reason, and nothing of Python is needed to build. See docs/torch-backend.md.
#include <memory>
#include <string>

#include "backend/backend.hpp"
#include "torch/embedded_torch.hpp"

namespace kbench::torch {

// `torch`: the interpreter and torch this backend runs in, shared with the module backend so that
// the interpreter is probed and started once per process.
std::unique_ptr<Backend> make_torch_backend(std::shared_ptr<const EmbeddedTorch> torch);

}  // namespace kbench::torch
