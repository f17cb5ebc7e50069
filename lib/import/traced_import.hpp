#pragma once
// KernelBench problem files read by running them: the convolution calls a file's Model made when its
// forward ran on get_inputs() (recorded by kernels/torch/kernelbench_reader.py, in torch or its stub), as
// JSON, turned into workloads. Pure, so it is tested without Python; every call is checked as a spec is
// (problem_validation.hpp), and what cannot be a workload is an ImportError naming the file and line.
//
// The JSON: {"runner": "torch VERSION" | "kbench's torch stub", "calls": [CALL...]} (older tracers wrote
// "torch": VERSION) or {"error": {"message": TEXT, "line": N}}, where
// CALL = {"function": "conv2d" | "conv_transpose3d" | ..., "attribute": "conv1" (the module's name in the
// model, or the function's for a call in forward itself), "line": N, "input": [N, C, spatial...],
// "weight": [...], "bias": true | false, "stride": [...], "padding": [...] | "same" | "valid",
// "dilation": [...], "groups": G, "output_padding": [...] (transposed only), "dtype": "float32" |
// "float16" | "bfloat16", "weight_dtype": the same, "channels_last": true where the input's channels are its
// innermost dim (layout: nhwc; optional, false when absent)}.
#include <string>
#include <string_view>

#include "import/import_error.hpp"

namespace kbench::import {

// `origin` names the file; `name` the workload (with the attribute appended, "-depthwise", when the
// model makes several calls). Malformed JSON is an ImportError too (the tracer's fault, said so).
ImportOutcome import_traced_calls(std::string_view json, const std::string& origin, const std::string& name);

}  // namespace kbench::import
