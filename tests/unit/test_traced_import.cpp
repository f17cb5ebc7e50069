// import/traced_import.hpp: the calls a KernelBench file's Model made when Python ran it, as recorded by
// kernels/torch/kernelbench_reader.py, into workloads; without Python (test_import_kernelbench.cpp and
// tests/cli/test_import_torch_reader.sh run the reader itself).
#include <doctest/doctest.h>

#include <string>
#include <variant>

#include <fmt/format.h>

#include "import/traced_import.hpp"

namespace {

namespace import = kbench::import;
using kbench::Dims;

// One recorded call; `extra` replaces or adds keys (a JSON fragment starting with a comma).
std::string call(const std::string& function, const std::string& attribute, const std::string& input,
                 const std::string& weight, const std::string& extra = "") {
  const bool transposed = function.rfind("conv_transpose", 0) == 0;
  const int rank = function[function.size() - 2] - '0';
  const std::string ones = rank == 1 ? "[1]" : rank == 2 ? "[1, 1]" : "[1, 1, 1]";
  const std::string zeros = rank == 1 ? "[0]" : rank == 2 ? "[0, 0]" : "[0, 0, 0]";
  std::string text = fmt::format(
      R"({{"function": "{}", "module": true, "attribute": "{}", "line": 7, "input": {}, "weight": {},
          "bias": false, "stride": {}, "padding": {}, "dilation": {}, "groups": 1, "dtype": "float32",
          "weight_dtype": "float32")",
      function, attribute, input, weight, ones, zeros, ones);
  if (transposed) text += fmt::format(R"(, "output_padding": {})", zeros);
  return text + extra + "}";
}

std::string document(const std::string& calls) { return R"({"torch": "2.5.0", "calls": [)" + calls + "]}"; }

import::Imported read(const std::string& json) {
  const import::ImportOutcome outcome = import::import_traced_calls(json, "dir/problem.py", "problem");
  if (const auto* error = std::get_if<import::ImportError>(&outcome)) FAIL(error->message());
  return std::get<import::Imported>(outcome);
}

std::string refusal(const std::string& json) {
  const import::ImportOutcome outcome = import::import_traced_calls(json, "dir/problem.py", "problem");
  REQUIRE(std::holds_alternative<import::ImportError>(outcome));
  return std::get<import::ImportError>(outcome).message();
}

}  // namespace

TEST_SUITE("import kernelbench") {
  TEST_CASE("traced import: one recorded conv2d is one workload with the file's name and the call's line") {
    const auto imported = read(document(call("conv2d", "conv1", "[16, 3, 224, 224]", "[96, 3, 11, 11]",
                                             R"(, "stride": [4, 4], "padding": [2, 1], "bias": true)")));
    REQUIRE(imported.workloads.size() == 1);
    const kbench::Workload& w = imported.workloads[0];
    CHECK(w.name == "problem");
    CHECK(w.source_file == "dir/problem.py");
    CHECK(w.source_line == 7);
    CHECK(w.problem.op == kbench::OpKind::conv);
    CHECK(w.problem.spatial_rank == 2);
    CHECK(w.problem.batch == 16);
    CHECK(w.problem.in_channels == 3);
    CHECK(w.problem.out_channels == 96);
    CHECK(w.problem.kernel == Dims{{11, 11, 1}});
    CHECK(w.problem.stride == Dims{{4, 4, 1}});
    CHECK(w.problem.pad_before == Dims{{2, 1, 0}});
    CHECK(w.problem.pad_after == Dims{{2, 1, 0}});
    CHECK(w.problem.bias);
    CHECK(w.problem.dtype == kbench::DType::fp32);
    CHECK(w.description == "self.conv1 of the Model in problem.py (kbench import kernelbench, run in torch 2.5.0); "
                           "output [16, 96, 55, 54]");
    // The reader names what ran the file ("runner"); the older {"torch": VERSION} above still reads.
    const auto stub = read(R"({"runner": "kbench's torch stub", "calls": [)" +
                           call("conv1d", "conv", "[1, 2, 8]", "[2, 2, 3]") + "]}");
    CHECK(stub.workloads.at(0).description ==
          "self.conv of the Model in problem.py (kbench import kernelbench, run in kbench's torch stub); output [1, 2, 6]");
  }

  TEST_CASE("traced import: a grouped conv_transpose3d takes C_out from its weight's second dim x groups") {
    const auto imported =
        read(document(call("conv_transpose3d", "up", "[2, 8, 4, 5, 6]", "[8, 3, 3, 3, 3]",
                           R"(, "groups": 2, "stride": [2, 2, 2], "output_padding": [1, 0, 1], "dtype": "bfloat16",
                              "weight_dtype": "bfloat16")")));
    const kbench::ConvProblem& p = imported.workloads.at(0).problem;
    CHECK(p.op == kbench::OpKind::conv_transpose);
    CHECK(p.in_channels == 8);
    CHECK(p.out_channels == 6);
    CHECK(p.groups == 2);
    CHECK(p.output_padding == Dims{{1, 0, 1}});
    CHECK(p.dtype == kbench::DType::bf16);
  }

  TEST_CASE("traced import: a channels-last input is layout nhwc, channels first (or an older tracer) nchw") {
    const auto last = read(document(call("conv2d", "conv", "[2, 8, 6, 6]", "[4, 8, 3, 3]",
                                         R"(, "dtype": "float16", "weight_dtype": "float16", "channels_last": true)")));
    CHECK(last.workloads.at(0).problem.layout == kbench::Layout::nhwc);
    CHECK(last.workloads.at(0).problem.dtype == kbench::DType::fp16);
    const auto first = read(document(call("conv2d", "conv", "[2, 8, 6, 6]", "[4, 8, 3, 3]", R"(, "channels_last": false)")));
    CHECK(first.workloads.at(0).problem.layout == kbench::Layout::nchw);
    const auto older = read(document(call("conv2d", "conv", "[2, 8, 6, 6]", "[4, 8, 3, 3]")));
    CHECK(older.workloads.at(0).problem.layout == kbench::Layout::nchw);
  }

  TEST_CASE("traced import: several calls are named by attribute, a layer applied twice gets -2") {
    const auto imported = read(document(call("conv1d", "depthwise", "[4, 8, 100]", "[8, 1, 3]", R"(, "groups": 8)") +
                                        "," + call("conv1d", "pointwise", "[4, 8, 98]", "[8, 8, 1]") + "," +
                                        call("conv1d", "pointwise", "[4, 8, 98]", "[8, 8, 1]") + "," +
                                        call("conv1d", "conv1d", "[4, 8, 98]", "[2, 8, 1]", R"(, "module": false)")));
    REQUIRE(imported.workloads.size() == 4);
    CHECK(imported.workloads[0].name == "problem-depthwise");
    CHECK(imported.workloads[1].name == "problem-pointwise");
    CHECK(imported.workloads[2].name == "problem-pointwise-2");
    CHECK(imported.workloads[3].name == "problem-conv1d");
    CHECK(imported.workloads[3].description.rfind("F.conv1d in forward of the Model", 0) == 0);
  }

  TEST_CASE("traced import: padding same splits dilation x (kernel - 1) with the odd one after, valid pads none") {
    const auto same = read(document(
        call("conv2d", "c", "[1, 4, 9, 9]", "[4, 4, 4, 3]", R"(, "padding": "same", "dilation": [1, 2])")));
    CHECK(same.workloads[0].problem.pad_before == Dims{{1, 2, 0}});
    CHECK(same.workloads[0].problem.pad_after == Dims{{2, 2, 0}});
    const auto valid = read(document(call("conv2d", "c", "[1, 4, 9, 9]", "[4, 4, 3, 3]", R"(, "padding": "valid")")));
    CHECK(valid.workloads[0].problem.pad_before == Dims{{0, 0, 0}});
    CHECK(refusal(document(call("conv_transpose2d", "t", "[1, 4, 9, 9]", "[4, 4, 3, 3]", R"(, "padding": "same")")))
              .find("padding 'same'") != std::string::npos);
  }

  TEST_CASE("traced import: what cannot be a workload is an error at the file's line") {
    CHECK(refusal(R"({"error": {"message": "RuntimeError: needs CUDA", "line": 12}})") ==
          "dir/problem.py:12: RuntimeError: needs CUDA");
    CHECK(refusal(document(call("conv2d", "c", "[1, 5, 9, 9]", "[4, 4, 3, 3]"))) ==
          "dir/problem.py:7: self.c: its weight [4, 4, 3, 3] with groups 1 takes 4 input channels, its input "
          "[1, 5, 9, 9] has 5");
    CHECK(refusal(document(call("conv2d", "c", "[5, 9, 9]", "[4, 5, 3, 3]"))).find("unbatched") != std::string::npos);
    CHECK(refusal(document(call("conv2d", "c", "[1, 4, 9, 9]", "[4, 4, 3, 3]",
                                R"(, "dtype": "float64", "weight_dtype": "float64")")))
              .find("torch.float64") != std::string::npos);
    CHECK(refusal(document(call("conv2d", "c", "[1, 4, 9, 9]", "[4, 4, 3, 3]", R"(, "weight_dtype": "float16")")))
              .find("its weight is torch.float16 and its input torch.float32") != std::string::npos);
    CHECK(refusal(document(call("conv2d", "c", "[1, 4, 2, 2]", "[4, 4, 3, 3]"))).find("kernel size") !=
          std::string::npos);
    CHECK(refusal(document("")).find("made no convolution call") != std::string::npos);
    CHECK(refusal("not json").find("kbench's KernelBench reader wrote what is not its JSON") != std::string::npos);
    CHECK(refusal(document(call("conv2d", "c", "[1, 4, 9, 9]", "[4, 4, 3, 3]", R"(, "stride": [1])")))
              .find("kbench's KernelBench reader recorded a call it cannot read") != std::string::npos);
  }
}
