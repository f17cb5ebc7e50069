#pragma once
// The keys a workload spec may use, and the near-misses people write for them. One list, shared by the
// reader (unknown-key errors, did-you-mean) and the tests; docs/workload-format.md documents each.
#include <array>
#include <string_view>

#include "spec/did_you_mean.hpp"

namespace kbench::spec {

inline constexpr std::array<std::string_view, 18> kWorkloadKeys = {
    "name",     "description", "op",   "dtype",          "layout",  "input", "out_channels", "kernel", "stride",
    "padding",  "dilation",    "groups", "bias",         "output_padding", "records", "sweep", "count",  "pass",
};

inline constexpr std::array<KnownAlias, 22> kWorkloadKeyAliases = {{
    {"passes", "pass"},        {"direction", "pass"},
    {"kernel_size", "kernel"}, {"in_channels", "input"},  {"batch", "input"},          {"batch_size", "input"},
    {"shape", "input"},        {"input_shape", "input"},  {"transposed", "op"},        {"type", "op"},
    {"operation", "op"},       {"precision", "dtype"},    {"data_type", "dtype"},      {"memory_format", "layout"},
    {"format", "layout"},      {"data_format", "layout"}, {"tensor_format", "layout"}, {"channels_last", "layout"},
    {"pad", "padding"},        {"pads", "padding"},       {"timings", "records"},      {"baselines", "records"},
}};

inline constexpr std::array<std::string_view, 6> kRecordKeys = {"hardware", "implementation", "ms", "stdev_ms",
                                                                "source",   "math"};

inline constexpr std::array<KnownAlias, 8> kRecordKeyAliases = {{
    {"time_ms", "ms"},
    {"mean_ms", "ms"},
    {"std", "stdev_ms"},
    {"std_ms", "stdev_ms"},
    {"gpu", "hardware"},
    {"device", "hardware"},
    {"impl", "implementation"},
    {"url", "source"},
}};

inline constexpr std::array<std::string_view, 2> kOpNames = {"conv", "conv_transpose"};

inline constexpr std::array<KnownAlias, 12> kOpAliases = {{
    {"conv1d", "conv"},
    {"conv2d", "conv"},
    {"conv3d", "conv"},
    {"convolution", "conv"},
    {"conv_transpose1d", "conv_transpose"},
    {"conv_transpose2d", "conv_transpose"},
    {"conv_transpose3d", "conv_transpose"},
    {"convtranspose1d", "conv_transpose"},
    {"convtranspose2d", "conv_transpose"},
    {"convtranspose3d", "conv_transpose"},
    {"deconv", "conv_transpose"},
    {"transposed_conv", "conv_transpose"},
}};

inline constexpr std::array<std::string_view, 3> kDTypeNames = {"fp32", "fp16", "bf16"};

inline constexpr std::array<KnownAlias, 8> kDTypeAliases = {{
    {"float32", "fp32"},
    {"float", "fp32"},
    {"float16", "fp16"},
    {"half", "fp16"},
    {"bfloat16", "bf16"},
    {"f32", "fp32"},
    {"f16", "fp16"},
    {"bf", "bf16"},
}};

}  // namespace kbench::spec
