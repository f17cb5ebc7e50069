// The torch backend's backward passes end to end on the CPU (TorchCpuRun, the path CI runs with
// Debian's python3-torch): backward_data and backward_weights of convolutions and transposed
// convolutions (bias, groups, stride, dilation, padding, output_padding, 1-D to 3-D) through
// torch.ops.aten.convolution_backward, against kbench's fp64 reference. The interpreter is
// $KBENCH_PYTHON, else /usr/bin/python3 (Debian's torch); the cases skip, saying why, where it has
// no torch. Not under the sanitizers: the embedded interpreter is never finalised, so what it holds
// at exit reads as leaks (tests/cli/test_torch_backend.sh runs torch there with leak checks off).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "data/host_tensors.hpp"
#include "problem/conv_pass.hpp"
#include "problem_factory.hpp"
#include "reference/reference_conv.hpp"
#include "torch/interpreter.hpp"
#include "torch/torch_flags.hpp"
#include "torch/torch_prepared_run.hpp"
#include "torch/torch_session.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define KBENCH_TORCH_PASSES_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KBENCH_TORCH_PASSES_SANITIZED 1
#endif
#endif

using kbench::ConvProblem;
using kbench::Dims;
using kbench::OpKind;
using kbench::Pass;

namespace {

// The process's torch session, or null with why there is none (asked once).
kbench::torch::TorchSession* session(std::string& why) {
#if defined(KBENCH_TORCH_PASSES_SANITIZED)
  why = "built with AddressSanitizer: the embedded interpreter's memory would read as leaks";
  return nullptr;
#else
  static std::string reason;
  static kbench::torch::TorchSession* opened = []() -> kbench::torch::TorchSession* {
    const char* env = std::getenv("KBENCH_PYTHON");
    const kbench::torch::InterpreterChoice choice{env && *env ? env : "/usr/bin/python3", "test"};
    kbench::torch::InterpreterInfo info;
    if (const kbench::Support s = kbench::torch::probe_interpreter(choice, info); !s) {
      reason = s.reason;
      return nullptr;
    }
    if (!info.torch_version) {
      reason = choice.program + " has no torch";
      return nullptr;
    }
    try {
      return &kbench::torch::TorchSession::open(info);
    } catch (const std::exception& e) {
      reason = e.what();
      return nullptr;
    }
  }();
  why = reason;
  return opened;
#endif
}

struct NamedProblem {
  const char* name;
  ConvProblem problem;
};

std::vector<NamedProblem> problems() {
  using D = Dims;
  const OpKind conv = OpKind::conv;
  const OpKind tconv = OpKind::conv_transpose;
  return {
      {"conv1d, stride 3, dilation 2, bias",
       ConvProblem{.op = conv, .spatial_rank = 1, .batch = 2, .in_channels = 3, .out_channels = 5,
                   .input = D{{20, 1, 1}}, .kernel = D{{3, 1, 1}}, .stride = D{{3, 1, 1}}, .dilation = D{{2, 1, 1}},
                   .pad_before = D{{1, 0, 0}}, .pad_after = D{{1, 0, 0}}, .bias = true}},
      // Unequal strides and dilations per dimension, so swapping two of them changes the result.
      {"conv2d, grouped, stride (2, 1), dilation (1, 2), padding (1, 2), bias",
       ConvProblem{.op = conv, .spatial_rank = 2, .batch = 2, .in_channels = 4, .out_channels = 6, .groups = 2,
                   .input = D{{9, 8, 1}}, .kernel = D{{3, 2, 1}}, .stride = D{{2, 1, 1}}, .dilation = D{{1, 2, 1}},
                   .pad_before = D{{1, 2, 0}}, .pad_after = D{{1, 2, 0}}, .bias = true}},
      {"conv3d, depthwise, stride (1, 2, 1)",
       ConvProblem{.op = conv, .spatial_rank = 3, .batch = 1, .in_channels = 3, .out_channels = 3, .groups = 3,
                   .input = D{{4, 6, 5}}, .kernel = D{{2, 3, 2}}, .stride = D{{1, 2, 1}}, .pad_before = D{{0, 1, 1}},
                   .pad_after = D{{0, 1, 1}}}},
      {"conv_transpose1d, stride 2, output_padding 1, bias",
       ConvProblem{.op = tconv, .spatial_rank = 1, .batch = 2, .in_channels = 4, .out_channels = 3,
                   .input = D{{7, 1, 1}}, .kernel = D{{3, 1, 1}}, .stride = D{{2, 1, 1}}, .pad_before = D{{1, 0, 0}},
                   .pad_after = D{{1, 0, 0}}, .output_padding = D{{1, 0, 0}}, .bias = true}},
      {"conv_transpose2d, grouped, stride (2, 3), dilation (2, 1), output_padding (1, 2), bias",
       ConvProblem{.op = tconv, .spatial_rank = 2, .batch = 2, .in_channels = 4, .out_channels = 6, .groups = 2,
                   .input = D{{5, 4, 1}}, .kernel = D{{3, 3, 1}}, .stride = D{{2, 3, 1}}, .dilation = D{{2, 1, 1}},
                   .pad_before = D{{1, 0, 0}}, .pad_after = D{{1, 0, 0}}, .output_padding = D{{1, 2, 0}},
                   .bias = true}},
      // Output padding at or past the stride (below the dilation): dy's forward conv is longer than grad_input.
      {"conv_transpose2d, stride (1, 2), dilation 3, output_padding 2, bias",
       ConvProblem{.op = tconv, .spatial_rank = 2, .batch = 2, .in_channels = 3, .out_channels = 4,
                   .input = D{{6, 5, 1}}, .kernel = D{{2, 3, 1}}, .stride = D{{1, 2, 1}}, .dilation = D{{3, 3, 1}},
                   .pad_before = D{{0, 1, 0}}, .pad_after = D{{0, 1, 0}}, .output_padding = D{{2, 2, 0}},
                   .bias = true}},
  };
}

// Runs the pass through torch and compares every computed element with the reference, within
// fp32 summation's error: a small multiple of the sum of the terms' magnitudes.
void check_pass(kbench::torch::TorchSession& torch, ConvProblem p) {
  constexpr std::uint64_t seed = 99;
  REQUIRE(kbench::torch::torch_expressible(p).ok);
  kbench::torch::TorchCpuRun run(torch, p, kbench::torch::TorchSettings{});
  run.fill_inputs(seed);
  run.poison_output();
  run.run();
  const std::vector<float> got = run.read_output({});
  CHECK(run.inputs_unchanged());

  const kbench::data::HostTensors tensors = kbench::data::make_host_tensors(p, seed);
  const std::vector<double> expected = kbench::reference::convolve(p, tensors);
  const std::vector<double> magnitude = kbench::reference::convolve(
      p, kbench::reference::tensors_for_terms(tensors, kbench::reference::Terms::magnitude));
  REQUIRE(got.size() == static_cast<std::size_t>(kbench::computed_elements(p)));
  REQUIRE(expected.size() == got.size());
  int mismatches = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double allowed = 5e-5 * magnitude[i] + 1e-6;
    if (!(std::abs(got[i] - expected[i]) <= allowed)) {  // NaN (an element never written) fails too
      if (mismatches++ < 3)
        MESSAGE(kbench::computed_name(p) << "[" << i << "]: torch " << got[i] << ", reference " << expected[i]);
    }
  }
  CHECK(mismatches == 0);
  CHECK(run.implementation().find("convolution_backward") != std::string::npos);
}

void check_all(Pass pass) {
  std::string why;
  kbench::torch::TorchSession* torch = session(why);
  if (!torch) {
    MESSAGE("skipped: no torch (" << why << ")");
    return;
  }
  for (const NamedProblem& np : problems()) {
    const std::string name = np.name;
    CAPTURE(name);
    ConvProblem p = np.problem;
    p.pass = pass;
    check_pass(*torch, p);
  }
}

}  // namespace

TEST_CASE("torch passes: backward_data (grad_input) matches the reference") { check_all(Pass::backward_data); }

TEST_CASE("torch passes: backward_weights (grad_weight, then grad_bias) matches the reference") {
  check_all(Pass::backward_weights);
}

TEST_CASE("torch passes: a backward pass names convolution_backward and sends the pass to the helper") {
  ConvProblem p = problems()[1].problem;
  p.pass = Pass::backward_weights;
  CHECK(kbench::torch::implementation_name(p, kbench::torch::TorchMode::eager) ==
        "torch.ops.aten.convolution_backward(conv2d, grad_weight)");
  CHECK(kbench::torch::implementation_name(p, kbench::torch::TorchMode::compile) ==
        "torch.compile(convolution_backward(conv2d, grad_weight))");
  CHECK(kbench::torch::call_json(p).find("\"pass\":\"backward_weights\"") != std::string::npos);
  p.pass = Pass::backward_data;
  CHECK(kbench::torch::torch_expressible(p).ok);
}
