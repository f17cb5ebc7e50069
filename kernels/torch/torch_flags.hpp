#pragma once
// What kbench's options mean for torch, as plain data and JSON text the Python helper reads: the
// variant (eager, compile, compile-max-autotune), --math (torch's TF32 switches), --algo
// (cudnn.benchmark), and the convolution call itself. Pure: unit-tested without Python.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "backend/backend.hpp"
#include "core/support.hpp"
#include "problem/conv_problem.hpp"

namespace kbench::torch {

enum class TorchMode { eager, compile, compile_max_autotune };

// "" and "eager": eager; "compile"; "compile-max-autotune". nullopt for anything else.
std::optional<TorchMode> parse_torch_variant(std::string_view variant);
std::string_view variant_name(TorchMode mode);   // as --backends torch:VARIANT spells it
std::vector<std::string> torch_variant_names();  // what torch:all runs, eager first

struct TorchSettings {
  TorchMode mode = TorchMode::eager;
  bool allow_tf32 = false;       // torch.backends.cudnn.allow_tf32 and torch.backends.cuda.matmul.allow_tf32
  bool cudnn_benchmark = false;  // torch.backends.cudnn.benchmark: cuDNN times its algorithms (--algo exhaustive)
  std::string module;            // a KernelBench-style file whose model runs instead (--backends module:PATH)
};

// The settings for these options; the variant must parse (supports() has checked it).
TorchSettings torch_settings(const BackendOptions& options);

// The settings as the JSON object the helper applies: {"mode", "allow_tf32", "cudnn_benchmark", "module"}.
std::string settings_json(const TorchSettings& settings);

// torch.nn.functional's function for the problem: conv1d..conv3d, conv_transpose1d..conv_transpose3d.
std::string functional_name(const ConvProblem& problem);

// Whether torch can express the problem (fp32, nchw, equal padding before and after), in every pass:
// the forward pass through torch.nn.functional, the backward passes through
// torch.ops.aten.convolution_backward (what autograd calls), asked for grad_input, or for grad_weight
// and grad_bias.
Support torch_expressible(const ConvProblem& problem);

// The call as the JSON object the helper makes it from: function, stride, padding, dilation,
// groups, output_padding (transposed only), bias, the four tensors' shapes (a backward pass's
// tensors have the forward ones' shapes: problem/conv_pass.hpp) and the pass.
std::string call_json(const ConvProblem& problem);

// What a result names as its implementation: "torch.nn.functional.conv2d", or
// "torch.compile(conv2d)" / "torch.compile(conv2d, mode=max-autotune)"; for a backward pass
// "torch.ops.aten.convolution_backward(conv2d, grad_input)" or
// "torch.compile(convolution_backward(conv2d, grad_weight))".
std::string implementation_name(const ConvProblem& problem, TorchMode mode);

// Shapes of the tensors kbench hands torch: input, weight, bias, output (PyTorch's NCHW layouts).
std::vector<std::int64_t> input_shape(const ConvProblem& problem);
std::vector<std::int64_t> weight_shape(const ConvProblem& problem);
std::vector<std::int64_t> output_shape(const ConvProblem& problem);

}  // namespace kbench::torch
