// What kbench's options mean for torch, checked without Python: variants, --math and --algo as
// torch's switches, the functional call and its arguments, what torch cannot express.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "torch/torch_flags.hpp"

using namespace kbench;
using namespace kbench::torch;

namespace {

ConvProblem conv2d() {
  ConvProblem p;
  p.batch = 2;
  p.in_channels = 4;
  p.out_channels = 6;
  p.groups = 2;
  p.input = Dims{{17, 19, 1}};
  p.kernel = Dims{{3, 2, 1}};
  p.stride = Dims{{2, 1, 1}};
  p.pad_before = p.pad_after = Dims{{1, 1, 0}};
  p.bias = true;
  return p;
}

ConvProblem conv_transpose3d() {
  ConvProblem p;
  p.op = OpKind::conv_transpose;
  p.spatial_rank = 3;
  p.batch = 1;
  p.in_channels = 4;
  p.out_channels = 6;
  p.groups = 2;
  p.input = Dims{{4, 5, 3}};
  p.kernel = Dims{{2, 3, 3}};
  p.stride = Dims{{2, 2, 1}};
  p.dilation = Dims{{1, 2, 1}};
  p.pad_before = p.pad_after = Dims{{0, 1, 1}};
  p.output_padding = Dims{{1, 0, 0}};
  return p;
}

}  // namespace

TEST_CASE("torch flags: variants") {
  CHECK(parse_torch_variant("") == TorchMode::eager);
  CHECK(parse_torch_variant("eager") == TorchMode::eager);
  CHECK(parse_torch_variant("compile") == TorchMode::compile);
  CHECK(parse_torch_variant("compile-max-autotune") == TorchMode::compile_max_autotune);
  CHECK_FALSE(parse_torch_variant("max-autotune"));
  CHECK_FALSE(parse_torch_variant("Compile"));
  CHECK(torch_variant_names() == std::vector<std::string>{"eager", "compile", "compile-max-autotune"});
  for (const std::string& name : torch_variant_names()) CHECK(variant_name(*parse_torch_variant(name)) == name);
}

TEST_CASE("torch flags: --math tf32 allows TF32 in cuDNN and matmul, --algo exhaustive sets cudnn.benchmark") {
  BackendOptions options;
  TorchSettings s = torch_settings(options);
  CHECK(s.mode == TorchMode::eager);
  CHECK_FALSE(s.allow_tf32);
  CHECK_FALSE(s.cudnn_benchmark);
  options.math = MathMode::tf32;
  options.algo_search = AlgoSearch::exhaustive;
  options.variant = "compile-max-autotune";
  s = torch_settings(options);
  CHECK(s.mode == TorchMode::compile_max_autotune);
  CHECK(s.allow_tf32);
  CHECK(s.cudnn_benchmark);
  const auto doc = nlohmann::json::parse(settings_json(s));
  CHECK(doc["mode"] == "compile-max-autotune");
  CHECK(doc["allow_tf32"] == true);
  CHECK(doc["cudnn_benchmark"] == true);
}

TEST_CASE("torch flags: a 2D grouped convolution's call") {
  const ConvProblem p = conv2d();
  CHECK(functional_name(p) == "conv2d");
  CHECK(implementation_name(p, TorchMode::eager) == "torch.nn.functional.conv2d");
  CHECK(implementation_name(p, TorchMode::compile) == "torch.compile(conv2d)");
  CHECK(implementation_name(p, TorchMode::compile_max_autotune) == "torch.compile(conv2d, mode=max-autotune)");
  const auto doc = nlohmann::json::parse(call_json(p));
  CHECK(doc["function"] == "conv2d");
  CHECK(doc["stride"] == nlohmann::json::array({2, 1}));
  CHECK(doc["padding"] == nlohmann::json::array({1, 1}));
  CHECK(doc["dilation"] == nlohmann::json::array({1, 1}));
  CHECK(doc["groups"] == 2);
  CHECK(doc["bias"] == true);
  CHECK_FALSE(doc.contains("output_padding"));
  CHECK(doc["input_shape"] == nlohmann::json::array({2, 4, 17, 19}));
  CHECK(doc["weight_shape"] == nlohmann::json::array({6, 2, 3, 2}));
  CHECK(doc["output_shape"] == nlohmann::json::array({2, 6, 9, 20}));
  CHECK(doc["dtype"] == "fp32");  // what the helper checks the DLPack tensors' dtype against
  CHECK(doc["layout"] == "nchw");
  CHECK(torch_expressible(p));
}

TEST_CASE("torch flags: a 3D transposed convolution's call, weight [C_in, C_out/groups, k...]") {
  const ConvProblem p = conv_transpose3d();
  CHECK(functional_name(p) == "conv_transpose3d");
  const auto doc = nlohmann::json::parse(call_json(p));
  CHECK(doc["output_padding"] == nlohmann::json::array({1, 0, 0}));
  CHECK(doc["dilation"] == nlohmann::json::array({1, 2, 1}));
  CHECK(doc["padding"] == nlohmann::json::array({0, 1, 1}));
  CHECK(doc["weight_shape"] == nlohmann::json::array({4, 3, 2, 3, 3}));
  CHECK(doc["bias"] == false);
  // (in - 1) * stride - 2 * padding + dilation * (kernel - 1) + output_padding + 1, per dimension
  CHECK(output_shape(p) == std::vector<std::int64_t>{1, 6, 9, 11, 3});
}

TEST_CASE("torch flags: what torch.nn.functional cannot express") {
  ConvProblem p = conv2d();
  p.pad_after[1] = 0;
  const Support s = torch_expressible(p);
  CHECK_FALSE(s);
  CHECK(s.reason.find("padding differs before and after along spatial dimension 1") != std::string::npos);
  // Every dtype and layout reaches torch as it is (whether torch has a kernel is known when it runs).
  for (const DType dtype : {DType::fp32, DType::fp16, DType::bf16})
    for (const Layout layout : {Layout::nchw, Layout::nhwc}) {
      p = conv2d();
      p.dtype = dtype;
      p.layout = layout;
      CHECK(torch_expressible(p));
    }
}
