#pragma once
// KernelBench problem files (level1/NN_*.py) read without Python: the module-level constants, the
// `Model(nn.Module)` whose __init__ builds nn.ConvNd / nn.ConvTransposeNd layers from its arguments,
// `get_inputs()` (the input tensor's shape and dtype) and `get_init_inputs()` (the arguments __init__
// gets). Missing arguments take PyTorch's defaults (bias=True). Several layers are read when forward
// applies them one after another (KernelBench #86), each a workload. What the reader cannot follow is an
// ImportError at its line and column.
#include <string>
#include <string_view>

#include "import/import_error.hpp"

namespace kbench::import {

// `origin` names the file in messages and descriptions; `name` is the workload's name (a layer's
// attribute is appended, "-depthwise", when the model has several).
ImportOutcome import_kernelbench(std::string_view source, const std::string& origin, const std::string& name);

}  // namespace kbench::import
