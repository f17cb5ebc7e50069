#pragma once
// `kbench import kernelbench` with the embedded torch: the file is run, its Model built from
// get_init_inputs() and its forward applied to get_inputs(), with every tensor on torch's meta device
// (shapes only: nothing is allocated or computed) and torch.nn.functional's convolutions replaced by a
// recorder. What the recorder saw becomes the workloads (import/traced_import.hpp), so a file the
// parser cannot follow (computed shapes, helper functions, several layers in any order) is read as
// PyTorch itself runs it.
#include <string>

#include "import/import_error.hpp"
#include "torch/embedded_torch.hpp"

namespace kbench::torch {

// `torch` must be available. Python's own errors in the file are ImportErrors at the file's line.
import::ImportOutcome trace_kernelbench(const EmbeddedTorch& torch, const std::string& path, const std::string& name);

}  // namespace kbench::torch
