#include "torch/torch_flags.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "problem/conv_pass.hpp"

namespace kbench::torch {

namespace {

nlohmann::json spatial(const Dims& dims, int rank) {
  nlohmann::json out = nlohmann::json::array();
  for (int d = 0; d < rank; ++d) out.push_back(dims[d]);
  return out;
}

}  // namespace

std::optional<TorchMode> parse_torch_variant(std::string_view variant) {
  if (variant.empty() || variant == "eager") return TorchMode::eager;
  if (variant == "compile") return TorchMode::compile;
  if (variant == "compile-max-autotune") return TorchMode::compile_max_autotune;
  return std::nullopt;
}

std::string_view variant_name(TorchMode mode) {
  switch (mode) {
    case TorchMode::eager: return "eager";
    case TorchMode::compile: return "compile";
    case TorchMode::compile_max_autotune: return "compile-max-autotune";
  }
  return "eager";
}

std::vector<std::string> torch_variant_names() { return {"eager", "compile", "compile-max-autotune"}; }

TorchSettings torch_settings(const BackendOptions& options) {
  TorchSettings s;
  s.mode = parse_torch_variant(options.variant).value_or(TorchMode::eager);
  s.allow_tf32 = options.math == MathMode::tf32;
  s.cudnn_benchmark = options.algo_search == AlgoSearch::exhaustive;
  return s;
}

std::string settings_json(const TorchSettings& settings) {
  const nlohmann::json doc{{"mode", std::string(variant_name(settings.mode))},
                           {"allow_tf32", settings.allow_tf32},
                           {"cudnn_benchmark", settings.cudnn_benchmark},
                           {"module", settings.module}};
  return doc.dump();
}

std::string functional_name(const ConvProblem& problem) {
  return fmt::format("{}{}d", problem.transposed() ? "conv_transpose" : "conv", problem.spatial_rank);
}

Support torch_expressible(const ConvProblem& problem) {
  // Every dtype and layout: the tensors reach torch in the problem's dtype, channels-last strided for
  // nhwc (torch's channels_last). Whether this torch has a kernel for the dtype on its device is known
  // when it runs (no fp16 convolutions on the CPU in torch 1.13): the result is then unsupported.
  if (problem.spatial_rank < 1 || problem.spatial_rank > 3)
    return Support::no(fmt::format("torch has no {}-d convolution", problem.spatial_rank));
  for (int d = 0; d < problem.spatial_rank; ++d)
    if (problem.pad_before[d] != problem.pad_after[d])
      return Support::no(
          fmt::format("padding differs before and after along spatial dimension {} ({} and {}); torch.nn.functional's "
                      "convolutions take one padding per dimension",
                      d, problem.pad_before[d], problem.pad_after[d]));
  return Support::yes();
}

std::vector<std::int64_t> input_shape(const ConvProblem& p) {
  std::vector<std::int64_t> shape{p.batch, p.in_channels};
  for (int d = 0; d < p.spatial_rank; ++d) shape.push_back(p.input[d]);
  return shape;
}

std::vector<std::int64_t> weight_shape(const ConvProblem& p) {
  std::vector<std::int64_t> shape{p.weight_dim0(), p.weight_dim1()};
  for (int d = 0; d < p.spatial_rank; ++d) shape.push_back(p.kernel[d]);
  return shape;
}

std::vector<std::int64_t> output_shape(const ConvProblem& p) {
  std::vector<std::int64_t> shape{p.batch, p.out_channels};
  for (int d = 0; d < p.spatial_rank; ++d) shape.push_back(p.output_extent(d));
  return shape;
}

std::string call_json(const ConvProblem& problem) {
  const int rank = problem.spatial_rank;
  nlohmann::json doc{{"function", functional_name(problem)},
                     {"stride", spatial(problem.stride, rank)},
                     {"padding", spatial(problem.pad_before, rank)},
                     {"dilation", spatial(problem.dilation, rank)},
                     {"groups", problem.groups},
                     {"bias", problem.bias},
                     {"input_shape", input_shape(problem)},
                     {"weight_shape", weight_shape(problem)},
                     {"output_shape", output_shape(problem)},
                     {"pass", to_string(problem.pass)},
                     {"dtype", to_string(problem.dtype)},
                     {"layout", to_string(problem.layout)}};
  if (problem.transposed()) doc["output_padding"] = spatial(problem.output_padding, rank);
  return doc.dump();
}

std::string implementation_name(const ConvProblem& problem, TorchMode mode) {
  // A backward pass is aten's convolution_backward for that function, asked for one gradient.
  const std::string function =
      problem.pass == Pass::forward
          ? functional_name(problem)
          : fmt::format("convolution_backward({}, {})", functional_name(problem), computed_name(problem));
  if (problem.pass != Pass::forward && mode == TorchMode::eager) return "torch.ops.aten." + function;
  switch (mode) {
    case TorchMode::eager: return "torch.nn.functional." + function;
    case TorchMode::compile: return "torch.compile(" + function + ")";
    case TorchMode::compile_max_autotune: return "torch.compile(" + function + ", mode=max-autotune)";
  }
  return function;
}

}  // namespace kbench::torch
