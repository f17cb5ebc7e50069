// kbench import kernelbench: KernelBench problem files read without Python. The fixtures under
// tests/data/import/ are written in KernelBench's style from the shipped seeds' shapes; every shipped
// level-1 spec is also written out as a module here and read back to the same problem.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <variant>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "import/kernelbench_import.hpp"
#include "import/spec_writer.hpp"
#include "problem/problem_metrics.hpp"
#include "spec/load.hpp"

using kbench::ConvProblem;
using kbench::Workload;
namespace import = kbench::import;

namespace {

const std::string kSuiteDir = std::string(KBENCH_SOURCE_DIR) + "/workloads/kernelbench/level1/";
const std::string kFixtures = std::string(KBENCH_TEST_DATA_DIR) + "/import/";

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  REQUIRE_MESSAGE(in, path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

import::Imported imported(const import::ImportOutcome& outcome){
    if (const auto* error = std::get_if<import::ImportError>(&outcome)) FAIL(error->message());
return std::get<import::Imported>(outcome);
}  // namespace

import::ImportError refused(const import::ImportOutcome& outcome){
    REQUIRE_MESSAGE(std::holds_alternative<import::ImportError>(outcome), "imported what should be refused");
return std::get<import::ImportError>(outcome);
}

import::ImportOutcome import_text(const std::string& source){return import::import_kernelbench(source, "m.py", "m");
}

// A tuple when the dims differ (or for a 1-D problem, to exercise "(k,)"), else one integer.
std::string py_dims(const kbench::Dims& dims, int rank) {
  bool uniform = true;
  for (int d = 1; d < rank; ++d) uniform = uniform && dims[d] == dims[0];
  if (uniform && rank > 1) return fmt::format("{}", dims[0]);
  return rank == 1 ? fmt::format("({},)", dims[0]) : fmt::format("({})", fmt::join(dims.v, dims.v + rank, ", "));
}

// The problem as a KernelBench-style module: constants, Model(...) from get_init_inputs(), a
// positional/keyword mix in the nn.Conv call.
std::string module_for(const ConvProblem& p) {
  const int rank = p.spatial_rank;
  const std::string conv = fmt::format("nn.Conv{}{}d", p.transposed() ? "Transpose" : "", rank);
  std::string spatial, names;
  for (int d = 0; d < rank; ++d) {
    spatial += fmt::format("size_{} = {}\n", d, p.input[d]);
    names += fmt::format(", size_{}", d);
  }
  return fmt::format(
      "import torch\nimport torch.nn as nn\n\n"
      "class Model(nn.Module):\n"
      "    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0, dilation=1,\n"
      "                 groups: int = 1, bias: bool = False, output_padding=0):\n"
      "        super(Model, self).__init__()\n"
      "        self.conv = {}(in_channels, out_channels, kernel_size, stride=stride, padding=padding,\n"
      "            {}groups=groups, bias=bias, dilation=dilation)\n\n"
      "    def forward(self, x: torch.Tensor) -> torch.Tensor:\n"
      "        return self.conv(x)\n\n"
      "# Test code\nbatch_size = {}\nin_channels = {}\nout_channels = {}\n{}\n"
      "def get_inputs():\n    x = torch.randn(batch_size, in_channels{})\n    return [x]\n\n"
      "def get_init_inputs():\n    return [in_channels, out_channels, {}, {}, {}, {}, {}, {}{}]\n",
      conv, p.transposed() ? "output_padding=output_padding, " : "", p.batch, p.in_channels, p.out_channels, spatial,
      names, py_dims(p.kernel, rank), py_dims(p.stride, rank), py_dims(p.pad_before, rank), py_dims(p.dilation, rank),
      p.groups, p.bias ? "True" : "False", p.transposed() ? ", " + py_dims(p.output_padding, rank) : "");
}

void check_round_trip(const std::vector<Workload>& workloads) {
  const std::string text = import::write_spec(workloads, "written by a test");
  const std::vector<Workload> back = kbench::parse_workloads(text, "round-trip.yaml");
  REQUIRE(back.size() == workloads.size());
  for (std::size_t i = 0; i < back.size(); ++i) {
    CHECK(back[i].name == workloads[i].name);
    CHECK(back[i].description == workloads[i].description);
    CHECK(back[i].problem == workloads[i].problem);
    CHECK(back[i].count == workloads[i].count);
  }
}

}  // namespace

TEST_SUITE("import kernelbench") {
  TEST_CASE("import kernelbench: the seed fixtures read as the shipped seed specs") {
    const std::pair<const char*, const char*> seeds[] = {
        {"50_conv_standard_2D__alexnet_first_layer.py", "050_conv2d_alexnet_first_layer.yaml"},
        {"76_conv_standard_1D_dilated_strided__.py", "076_conv1d_dilated_strided.yaml"},
        {"77_conv_transposed_3D_square_input_square_kernel___padded____dilated____strided__.py",
         "077_conv_transpose3d.yaml"},
        {"84_conv_depthwise_2D_asymmetric_input_square_kernel.py", "084_conv2d_depthwise.yaml"},
    };
    for (const auto& [fixture, spec] : seeds) {
      CAPTURE(fixture);
      const auto result = imported(import::import_kernelbench(read_text(kFixtures + fixture), fixture, "seed"));
      const auto shipped = kbench::load_workloads(kSuiteDir + spec);
      REQUIRE(result.workloads.size() == 1);
      REQUIRE(shipped.size() == 1);
      CHECK(result.workloads[0].problem == shipped[0].problem);
      CHECK(result.workloads[0].name == "seed");
      CHECK(result.workloads[0].source_line > 0);
      check_round_trip(result.workloads);
    }
  }

  TEST_CASE("import kernelbench: every shipped level-1 spec, written as a module, reads back as its problem") {
    const auto suite = kbench::load_workloads(kSuiteDir);
    REQUIRE(suite.size() == 36);
    for (const Workload& w : suite) {
      CAPTURE(w.name);
      const std::string source = module_for(w.problem);
      CAPTURE(source);
      const auto result = imported(import::import_kernelbench(source, w.name + ".py", w.name));
      REQUIRE(result.workloads.size() == 1);
      CHECK(result.workloads[0].problem == w.problem);
      CHECK(result.workloads[0].description.find(
                fmt::format("output [{}]", fmt::join(kbench::output_shape(w.problem), ", "))) != std::string::npos);
      check_round_trip(result.workloads);
    }
  }

  TEST_CASE("import kernelbench: keyword arguments, tuples, arithmetic, padding='same' and a chain of two layers") {
    const auto result = imported(import::import_kernelbench(read_text(kFixtures + "keyword_arguments_separable.py"),
                                                            "keyword_arguments_separable.py", "sep"));
    REQUIRE(result.workloads.size() == 2);
    const ConvProblem& depthwise = result.workloads[0].problem;
    CHECK(result.workloads[0].name == "sep-depthwise");
    CHECK(kbench::input_shape(depthwise) == std::vector<std::int64_t>{4, 32, 64, 48});
    CHECK(depthwise.out_channels == 64);
    CHECK(depthwise.kernel == kbench::Dims{{3, 5, 1}});
    CHECK(depthwise.dilation == kbench::Dims{{1, 2, 1}});
    CHECK(depthwise.groups == 8);
    CHECK(depthwise.bias);  // the keyword-only default
    // 'same': dilation x (kernel - 1) in total, the odd one after (both even here).
    CHECK(depthwise.pad_before == kbench::Dims{{1, 4, 0}});
    CHECK(depthwise.pad_after == kbench::Dims{{1, 4, 0}});
    CHECK(kbench::output_shape(depthwise) == std::vector<std::int64_t>{4, 64, 64, 48});
    const ConvProblem& pointwise = result.workloads[1].problem;
    CHECK(result.workloads[1].name == "sep-pointwise");
    CHECK(kbench::input_shape(pointwise) == std::vector<std::int64_t>{4, 64, 64, 48});
    CHECK(pointwise.out_channels == 40);
    CHECK(pointwise.stride == kbench::Dims{{2, 2, 1}});
    CHECK_FALSE(pointwise.bias);
    check_round_trip(result.workloads);
  }

  TEST_CASE("import kernelbench: padding='same' with an even kernel puts the extra row after") {
    const auto result = imported(
        import_text("import torch\nfrom torch import nn\nclass Model(nn.Module):\n    def __init__(self):\n"
                    "        super().__init__()\n        self.c = nn.Conv1d(4, 4, 4, padding='same', bias=False)\n"
                    "    def forward(self, x): return self.c(x)\n"
                    "def get_inputs(): return [torch.randn(1, 4, 10)]\n"));
    REQUIRE(result.workloads.size() == 1);
    CHECK(result.workloads[0].problem.pad_before[0] == 1);
    CHECK(result.workloads[0].problem.pad_after[0] == 2);
    CHECK(kbench::output_shape(result.workloads[0].problem) == std::vector<std::int64_t>{1, 4, 10});
  }

  TEST_CASE("import kernelbench: a module it cannot read is refused at the line, naming what") {
    const auto error = refused(import::import_kernelbench(read_text(kFixtures + "refused_reflect_padding.py"),
                                                          "refused_reflect_padding.py", "r"));
    CHECK(error.line == 10);  // the argument's own line, inside the call
    CHECK(error.what.find("padding_mode") != std::string::npos);
    CHECK(error.what.find("'reflect'") != std::string::npos);
    CHECK(error.message().starts_with("refused_reflect_padding.py:10:"));
  }

  TEST_CASE("import kernelbench: refusals, each at its line") {
    const std::string head =
        "import torch\nimport torch.nn as nn\nclass Model(nn.Module):\n    def __init__(self, c, k):\n"
        "        super().__init__()\n";  // lines 1-5
    const std::string tail =
        "    def forward(self, x):\n        return self.conv(x)\n"
        "def get_inputs():\n    return [torch.randn(2, 8, 16, 16)]\n"
        "def get_init_inputs():\n    return [8, 3]\n";
    const std::string conv = "        self.conv = nn.Conv2d(c, 16, k)\n";  // line 6
    struct Case {
      std::string source;
      int line;
      std::string what;
    };
    const Case cases[] = {
        {head + "        self.conv = nn.Conv2d(c, 16, k, stride=2.0)\n" + tail, 6, "not a decimal integer"},
        {head + "        self.conv = nn.Conv2d(c, 16, k // 1, stride=k / 3)\n" + tail, 6, "true division"},
        {head + "        self.conv = nn.Conv2d(c, 16, kernel)\n" + tail, 6, "'kernel' is not defined"},
        {head + "        self.conv = nn.Conv2d(c, 16, kernel=k)\n" + tail, 6, "no argument 'kernel'"},
        {head + "        self.conv = nn.Sequential(nn.Conv2d(c, 16, k))\n" + tail, 6, "cannot read this 'Conv2d'"},
        {head + "        self.conv = nn.LazyConv2d(16, k)\n" + tail, 6, "LazyConv2d"},
        {head + conv + "    def forward(self, x):\n        return torch.relu(self.conv(x))\n" +
             "def get_inputs():\n    return [torch.randn(2, 8, 16, 16)]\ndef get_init_inputs():\n    return [8, 3]\n",
         8, "forward does something other"},
        {head + conv + tail.substr(0, tail.find("def get_inputs")) +
             "def get_inputs():\n    return [torch.randn(2, 8, 16, 16), torch.randn(2, 8, 16, 16)]\n"
             "def get_init_inputs():\n    return [8, 3]\n",
         10, "expected a list of one tensor"},
        {head + conv + tail.substr(0, tail.find("def get_init_inputs")) + "def get_init_inputs():\n    return [4, 3]\n",
         6, "in_channels is 4 but its input [2, 8, 16, 16] has 8 channels"},
        {head + conv + tail.substr(0, tail.find("def get_init_inputs")) + "def get_init_inputs():\n    return [8]\n", 4,
         "needs 'k' but get_init_inputs() gives 1 value"},
        {head + conv + tail.substr(0, tail.find("def get_init_inputs")) +
             "def get_init_inputs():\n    return [8, 17]\n",
         6, "kernel size can't be greater than actual input size"},
        {head + "        self.conv = nn.Conv2d(c, 16, k, stride=2, padding='same')\n" + tail, 6,
         "padding='same' is not supported for strided convolutions"},
        {head + "        self.conv = nn.Conv2d(c, 16, k, padding=(1, 2, 3))\n" + tail, 6, "a tuple of 2"},
        {head + "        self.conv = nn.Conv2d(c, 16, k, bias=1)\n" + tail, 6, "expected True or False"},
        {head + "        self.conv = nn.Conv2d(c, 16, k, groups=3)\n" + tail, 6, "divisible by groups"},
        {head + "        self.conv = nn.Conv2d(c, 16, (k, 99999999999999999999))\n" + tail, 6, "too large"},
        {head + "        self.conv = nn.Conv2d(c, 16, k ** 70)\n" + tail, 6, "integer overflow"},
        {head + "        self.conv = nn.Conv2d(c, 16, 'k)\n" + tail, 6, "never closed"},
        {head + "        self.conv = nn.Conv2d(c, 16, (k, k)\n" + tail, 6, "never closed"},
        {head + "        self.conv = nn.Conv2d(c, 16, k) $\n" + tail, 6, "unexpected character '$'"},
        {head + "        self.relu = nn.ReLU()\n" + tail, 4, "builds no nn.ConvNd"},
        {"import torch\nx = 1\n", 0, "no `class Model(nn.Module)`"},
        {"", 0, "no `class Model(nn.Module)`"},
    };
    for (const Case& c : cases) {
      CAPTURE(c.source);
      const auto error = refused(import_text(c.source));
      CHECK(error.line == c.line);
      CHECK_MESSAGE(error.what.find(c.what) != std::string::npos, error.what);
    }
  }

  TEST_CASE("import kernelbench: integer arithmetic is Python's (floor division and modulo toward -infinity)") {
    // kernel -(-7 // 2) = 4 (ceiling division), stride -7 % 3 = 2, padding 2 ** 2 - 3 = 1, dilation (1, 2)[-1] = 2.
    const auto result = imported(import_text(
        "import torch\nimport torch.nn as nn\nk = -(-7 // 2)\nclass Model(nn.Module):\n    def __init__(self):\n"
        "        super().__init__()\n        self.conv = nn.Conv1d(2, 2, k, -7 % 3, 2 ** 2 - 3, (1, 2)[-1], "
        "bias=False)\n"
        "    def forward(self, x):\n        return self.conv(x)\n"
        "def get_inputs():\n    return [torch.randn(1, 2, 32)]\n"));
    REQUIRE(result.workloads.size() == 1);
    const ConvProblem& p = result.workloads[0].problem;
    CHECK(p.kernel[0] == 4);
    CHECK(p.stride[0] == 2);
    CHECK(p.pad_before[0] == 1);
    CHECK(p.dilation[0] == 2);
  }

  TEST_CASE("import kernelbench: hostile files end in an error, not a crash or a hang") {
    const std::string model =
        "class Model(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.conv = nn.Conv1d(2, 2, k)\n    def forward(self, x):\n        return self.conv(x)\n"
        "def get_inputs():\n    return [torch.randn(1, 2, 8)]\n";  // lines 2-9 after one line of constants
    std::string chain = "a0 = 1\n";
    for (int i = 1; i < 1000; ++i) chain += fmt::format("a{} = a{}\n", i, i - 1);
    struct Case {
      std::string constants;
      std::string what;
    };
    const Case cases[] = {
        {"k = " + std::string(150, '(') + "1" + std::string(150, ')') + "\n", "nested more than 100 deep"},
        {"k = " + std::string(100000, '-') + "1\n", "nested (or names defined through names) more than 200"},
        {chain + "k = a999\n", "more than 200 deep"},
        {"k = 2 ** 1000000000000000000\n", "integer overflow"},
        {"s = (1,) * 64\nt = s * 64\nu = t * 64\nk = u[0]\n", "a sequence of 262144 items"},
        {"k = k\n", "defined in terms of itself"},
    };
    for (const Case& c : cases) {
      CAPTURE(c.what);
      const auto error = refused(import_text(c.constants + model));
      CHECK_MESSAGE(error.what.find(c.what) != std::string::npos, error.what);
    }
    // 1 ** huge is no loop to a huge exponent.
    const auto fine = imported(import_text("k = 1 ** 1000000000000000000 + 2\n" + model));
    CHECK(fine.workloads[0].problem.kernel[0] == 3);
  }

  TEST_CASE("import kernelbench: constants nothing uses may be anything, and names come from the text") {
    const auto result =
        imported(import_text("import torch\nimport torch.nn as nn\neps = 1e-5\nscale = 1 / 3\n"
                             "class Model(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                             "        self.conv = nn.ConvTranspose1d(2, 3, 3, stride=2, output_padding=1)\n"
                             "    def forward(self, x):\n        return self.conv(x)\n"
                             "def get_inputs():\n    return [torch.randn(1, 2, 5)]\n"));
    REQUIRE(result.workloads.size() == 1);
    CHECK(result.workloads[0].problem.output_padding[0] == 1);
    CHECK(result.workloads[0].problem.bias);
    CHECK(import::name_from_text("76_conv_standard_1D_dilated_strided__") == "76_conv_standard_1d_dilated_strided");
    CHECK(import::name_from_text("--A b!c--") == "a-b-c");
    CHECK(import::name_from_text("!!!") == "workload");
  }
}
