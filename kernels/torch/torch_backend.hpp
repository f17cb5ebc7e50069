#pragma once
// `--backends torch`: torch.nn.functional's convolutions in an embedded CPython, eager or through
// torch.compile (torch:compile, torch:compile-max-autotune), on kbench's own buffers. The
// interpreter is found at run time; without Python, libpython or torch the backend is unavailable
// with the reason, and nothing of Python is needed to build. See docs/torch-backend.md.
#include <memory>
#include <string>

#include "backend/backend.hpp"

namespace kbench::torch {

// `python_flag`: --python PATH, empty when not given (then $KBENCH_PYTHON, then python3 on PATH).
std::unique_ptr<Backend> make_torch_backend(std::string python_flag);

}  // namespace kbench::torch
