// The plugin ABI's pure parts, without loading a library: ConvProblem as the C struct (every field, the
// neutral values past the rank, each enum), where `plugin:PATH[:VARIANT]` splits, and the version check.
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "plugin/plugin_problem.hpp"
#include "problem_factory.hpp"

using namespace kbench;
using namespace kbench::plugin;

namespace {

ConvProblem transposed_1d() {
  return ConvProblem{.op = OpKind::conv_transpose, .spatial_rank = 1, .batch = 3, .in_channels = 4, .out_channels = 6,
                     .groups = 2, .input = Dims{{12, 1, 1}}, .kernel = Dims{{3, 1, 1}}, .stride = Dims{{3, 1, 1}},
                     .dilation = Dims{{2, 1, 1}}, .pad_before = Dims{{1, 0, 0}}, .pad_after = Dims{{2, 0, 0}},
                     .output_padding = Dims{{1, 0, 0}}, .bias = true};
}

bool no_files(const std::string&) { return false; }

}  // namespace

TEST_CASE("plugin problem: every field of a transposed 1-D problem, neutral values past its rank") {
  ConvProblem problem = transposed_1d();
  problem.pass = Pass::backward_weights;
  problem.dtype = DType::bf16;
  problem.layout = Layout::nhwc;
  const kbench_plugin_problem_t p = to_plugin_problem(problem, MathMode::tf32);
  CHECK(p.op == KBENCH_PLUGIN_OP_CONV_TRANSPOSE);
  CHECK(p.pass == KBENCH_PLUGIN_PASS_BACKWARD_WEIGHTS);
  CHECK(p.dtype == KBENCH_PLUGIN_DTYPE_BF16);
  CHECK(p.layout == KBENCH_PLUGIN_LAYOUT_NHWC);
  CHECK(p.math == KBENCH_PLUGIN_MATH_TF32);
  CHECK(p.spatial_rank == 1);
  CHECK(p.has_bias == 1);
  CHECK(p.reserved == 0);
  CHECK(p.batch == 3);
  CHECK(p.in_channels == 4);
  CHECK(p.out_channels == 6);
  CHECK(p.groups == 2);
  CHECK(p.input[0] == 12);
  CHECK(p.output[0] == problem.output_extent(0));
  CHECK(p.output[0] == (12 - 1) * 3 - 1 - 2 + 2 * (3 - 1) + 1 + 1);
  CHECK(p.kernel[0] == 3);
  CHECK(p.stride[0] == 3);
  CHECK(p.dilation[0] == 2);
  CHECK(p.pad_before[0] == 1);
  CHECK(p.pad_after[0] == 2);
  CHECK(p.output_padding[0] == 1);
  for (int d = 1; d < KBENCH_PLUGIN_MAX_SPATIAL_RANK; ++d) {
    CHECK(p.input[d] == 1);
    CHECK(p.output[d] == 1);
    CHECK(p.kernel[d] == 1);
    CHECK(p.stride[d] == 1);
    CHECK(p.dilation[d] == 1);
    CHECK(p.pad_before[d] == 0);
    CHECK(p.pad_after[d] == 0);
    CHECK(p.output_padding[d] == 0);
  }
}

TEST_CASE("plugin problem: each op, pass, dtype and layout has its own code") {
  ConvProblem problem = transposed_1d();
  std::set<int> passes, dtypes;
  for (const Pass pass : {Pass::forward, Pass::backward_data, Pass::backward_weights}) {
    problem.pass = pass;
    passes.insert(to_plugin_problem(problem, MathMode::fp32).pass);
  }
  for (const DType dtype : {DType::fp32, DType::fp16, DType::bf16}) {
    problem.dtype = dtype;
    dtypes.insert(to_plugin_problem(problem, MathMode::fp32).dtype);
  }
  CHECK(passes == std::set<int>{KBENCH_PLUGIN_PASS_FORWARD, KBENCH_PLUGIN_PASS_BACKWARD_DATA,
                                KBENCH_PLUGIN_PASS_BACKWARD_WEIGHTS});
  CHECK(dtypes == std::set<int>{KBENCH_PLUGIN_DTYPE_FP32, KBENCH_PLUGIN_DTYPE_FP16, KBENCH_PLUGIN_DTYPE_BF16});
  problem.op = OpKind::conv;
  problem.layout = Layout::nchw;
  problem.bias = false;
  const kbench_plugin_problem_t p = to_plugin_problem(problem, MathMode::fp32);
  CHECK(p.op == KBENCH_PLUGIN_OP_CONV);
  CHECK(p.layout == KBENCH_PLUGIN_LAYOUT_NCHW);
  CHECK(p.math == KBENCH_PLUGIN_MATH_FP32);
  CHECK(p.has_bias == 0);
  CHECK(p.output[0] == problem.output_extent(0));
}

TEST_CASE("plugin problem: a 3-D problem carries all three dimensions") {
  const ConvProblem problem =
      ConvProblem{.op = OpKind::conv, .spatial_rank = 3, .batch = 1, .in_channels = 3, .out_channels = 4,
                  .input = Dims{{6, 7, 5}}, .kernel = Dims{{3, 2, 1}}, .stride = Dims{{1, 2, 1}},
                  .dilation = Dims{{1, 1, 2}}, .pad_before = Dims{{1, 0, 1}}, .pad_after = Dims{{1, 1, 0}}};
  const kbench_plugin_problem_t p = to_plugin_problem(problem, MathMode::fp32);
  for (int d = 0; d < 3; ++d) {
    CHECK(p.input[d] == problem.input[d]);
    CHECK(p.output[d] == problem.output_extent(d));
    CHECK(p.kernel[d] == problem.kernel[d]);
    CHECK(p.stride[d] == problem.stride[d]);
    CHECK(p.dilation[d] == problem.dilation[d]);
    CHECK(p.pad_before[d] == problem.pad_before[d]);
    CHECK(p.pad_after[d] == problem.pad_after[d]);
  }
}

TEST_CASE("plugin spec: a path alone, PATH:VARIANT, and a ':' inside a path") {
  PluginSpec spec;
  CHECK(parse_plugin_spec("./libmy.so", no_files, spec));
  CHECK(spec == PluginSpec{"./libmy.so", ""});
  CHECK(parse_plugin_spec("./libmy.so:tiled", no_files, spec));
  CHECK(spec == PluginSpec{"./libmy.so", "tiled"});
  CHECK(parse_plugin_spec("/opt/a:b/libmy.so", no_files, spec));  // the text after ':' has a '/'
  CHECK(spec == PluginSpec{"/opt/a:b/libmy.so", ""});
  CHECK(parse_plugin_spec("/opt/a:b/libmy.so:v2", no_files, spec));
  CHECK(spec == PluginSpec{"/opt/a:b/libmy.so", "v2"});
  // A file whose own name holds ':' is a path whole when it exists.
  const auto exists = [](const std::string& path) { return path == "/tmp/lib:odd.so"; };
  CHECK(parse_plugin_spec("/tmp/lib:odd.so", exists, spec));
  CHECK(spec == PluginSpec{"/tmp/lib:odd.so", ""});
  CHECK(parse_plugin_spec("/tmp/lib:odd.so:fast", exists, spec));
  CHECK(spec == PluginSpec{"/tmp/lib:odd.so", "fast"});
}

TEST_CASE("plugin spec: no path, or an empty variant, says how to name a plugin") {
  PluginSpec spec;
  const Support none = parse_plugin_spec("", no_files, spec);
  CHECK_FALSE(none);
  CHECK(none.reason.find("plugin:PATH.so") != std::string::npos);
  const Support empty = parse_plugin_spec("./libmy.so:", no_files, spec);
  CHECK_FALSE(empty);
  CHECK(empty.reason.find("empty variant") != std::string::npos);
}

TEST_CASE("plugin ABI version: equal versions load, others are refused naming both") {
  CHECK(check_abi_version(KBENCH_PLUGIN_ABI_VERSION));
  const Support newer = check_abi_version(7, 1);
  CHECK_FALSE(newer);
  CHECK(newer.reason.find("version 7") != std::string::npos);
  CHECK(newer.reason.find("speaks version 1") != std::string::npos);
  CHECK(memory_name(KBENCH_PLUGIN_MEMORY_HOST) == "host");
  CHECK(memory_name(KBENCH_PLUGIN_MEMORY_CUDA_DEVICE) == "cuda_device");
  CHECK(memory_name(5) == "unknown");
}
