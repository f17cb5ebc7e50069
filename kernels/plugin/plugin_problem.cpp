#include "plugin/plugin_problem.hpp"

#include <fmt/format.h>

namespace kbench::plugin {

namespace {

std::int32_t op_code(OpKind op) {
  return op == OpKind::conv_transpose ? KBENCH_PLUGIN_OP_CONV_TRANSPOSE : KBENCH_PLUGIN_OP_CONV;
}

std::int32_t pass_code(Pass pass) {
  switch (pass) {
    case Pass::forward: return KBENCH_PLUGIN_PASS_FORWARD;
    case Pass::backward_data: return KBENCH_PLUGIN_PASS_BACKWARD_DATA;
    case Pass::backward_weights: return KBENCH_PLUGIN_PASS_BACKWARD_WEIGHTS;
  }
  return KBENCH_PLUGIN_PASS_FORWARD;
}

std::int32_t dtype_code(DType dtype) {
  switch (dtype) {
    case DType::fp32: return KBENCH_PLUGIN_DTYPE_FP32;
    case DType::fp16: return KBENCH_PLUGIN_DTYPE_FP16;
    case DType::bf16: return KBENCH_PLUGIN_DTYPE_BF16;
  }
  return KBENCH_PLUGIN_DTYPE_FP32;
}

// Entries past the rank keep the header's neutral values: 1 for extents and steps, 0 for padding.
void copy_dims(std::int64_t (&to)[KBENCH_PLUGIN_MAX_SPATIAL_RANK], const Dims& from, int rank, std::int64_t neutral) {
  for (int d = 0; d < KBENCH_PLUGIN_MAX_SPATIAL_RANK; ++d) to[d] = d < rank ? from[d] : neutral;
}

}  // namespace

kbench_plugin_problem_t to_plugin_problem(const ConvProblem& problem, MathMode math) {
  static_assert(KBENCH_PLUGIN_MAX_SPATIAL_RANK == kMaxSpatialRank);
  kbench_plugin_problem_t p{};
  p.op = op_code(problem.op);
  p.pass = pass_code(problem.pass);
  p.dtype = dtype_code(problem.dtype);
  p.layout = problem.layout == Layout::nhwc ? KBENCH_PLUGIN_LAYOUT_NHWC : KBENCH_PLUGIN_LAYOUT_NCHW;
  p.math = math == MathMode::tf32 ? KBENCH_PLUGIN_MATH_TF32 : KBENCH_PLUGIN_MATH_FP32;
  p.spatial_rank = problem.spatial_rank;
  p.has_bias = problem.bias ? 1 : 0;
  p.batch = problem.batch;
  p.in_channels = problem.in_channels;
  p.out_channels = problem.out_channels;
  p.groups = problem.groups;
  const int rank = problem.spatial_rank;
  copy_dims(p.input, problem.input, rank, 1);
  copy_dims(p.output, problem.output(), rank, 1);
  copy_dims(p.kernel, problem.kernel, rank, 1);
  copy_dims(p.stride, problem.stride, rank, 1);
  copy_dims(p.dilation, problem.dilation, rank, 1);
  copy_dims(p.pad_before, problem.pad_before, rank, 0);
  copy_dims(p.pad_after, problem.pad_after, rank, 0);
  copy_dims(p.output_padding, problem.output_padding, rank, 0);
  return p;
}

Support parse_plugin_spec(std::string_view text, const std::function<bool(const std::string&)>& is_file,
                          PluginSpec& spec) {
  if (text.empty())
    return Support::no("the plugin backend needs a library: --backends plugin:PATH.so or plugin:PATH.so:VARIANT");
  spec = PluginSpec{std::string(text), ""};
  if (is_file(spec.path)) return Support::yes();
  const std::size_t colon = text.rfind(':');
  if (colon == std::string_view::npos || colon == 0) return Support::yes();
  const std::string_view variant = text.substr(colon + 1);
  if (variant.find('/') != std::string_view::npos) return Support::yes();
  if (variant.empty())
    return Support::no(fmt::format("plugin:{}: empty variant after ':'; expected plugin:PATH.so[:VARIANT]", text));
  spec = PluginSpec{std::string(text.substr(0, colon)), std::string(variant)};
  return Support::yes();
}

Support check_abi_version(std::uint32_t plugin_version, std::uint32_t kbench_version) {
  if (plugin_version == kbench_version) return Support::yes();
  return Support::no(
      fmt::format("it was built for kbench plugin ABI version {}, and this kbench speaks version {} "
                  "(rebuild the plugin against this kbench's include/kbench/plugin.h)",
                  plugin_version, kbench_version));
}

std::string_view memory_name(std::int32_t memory) {
  switch (memory) {
    case KBENCH_PLUGIN_MEMORY_HOST: return "host";
    case KBENCH_PLUGIN_MEMORY_CUDA_DEVICE: return "cuda_device";
    default: break;
  }
  return "unknown";
}

}  // namespace kbench::plugin
