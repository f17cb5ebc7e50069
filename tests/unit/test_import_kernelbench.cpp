// kbench import kernelbench without torch: KernelBench problem files run by python3 (on PATH) against
// kbench's stand-in for torch (kernels/torch/kernelbench_stub_torch.py). The fixtures under
// tests/data/import/ are written in KernelBench's style from the shipped headline problems' shapes; every
// shipped level-1 spec is also written out as a module here and read back to the same problem; what the
// stub does not model, and hostile files, are errors naming the file and line.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <variant>

#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "import/spec_writer.hpp"
#include "problem/problem_metrics.hpp"
#include "spec/load.hpp"
#include "torch/kernelbench_trace.hpp"

using kbench::ConvProblem;
using kbench::Workload;
namespace import = kbench::import;
namespace fs = std::filesystem;

namespace {

const std::string kSuiteDir = std::string(KBENCH_SOURCE_DIR) + "/workloads/kernelbench/level1/";
const std::string kFixtures = std::string(KBENCH_TEST_DATA_DIR) + "/import/";

// A fresh directory for one test's modules, removed with it.
class ModuleDir {
 public:
  ModuleDir() {
    static int count = 0;
    path_ = fs::temp_directory_path() / fmt::format("kbench-import-test-{}-{}", ::getpid(), ++count);
    fs::create_directories(path_);
  }
  ~ModuleDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  ModuleDir(const ModuleDir&) = delete;
  ModuleDir& operator=(const ModuleDir&) = delete;

  std::string write(const std::string& file, const std::string& text) const {
    const fs::path path = path_ / file;
    std::ofstream(path) << text;
    return path.string();
  }

 private:
  fs::path path_;
};

// The files (path, workload name) read by one child python3 against the stub.
std::vector<import::ImportOutcome> read_stub(const std::vector<kbench::torch::KernelBenchFile>& files,
                                             int timeout_seconds = 60) {
  kbench::torch::KernelBenchReadOptions options;
  options.reader = kbench::torch::KernelBenchReader::stub;
  options.timeout_seconds = timeout_seconds;
  kbench::torch::KernelBenchReading reading = kbench::torch::read_kernelbench_files(files, options);
  REQUIRE_MESSAGE(reading.unavailable.empty(), reading.unavailable);
  CHECK(reading.runner == "kbench's torch stub");
  return std::move(reading.outcomes);
}

import::ImportOutcome read_one(const std::string& source) {
  ModuleDir dir;
  auto outcomes = read_stub({{dir.write("m.py", source), "m"}});
  REQUIRE(outcomes.size() == 1);
  return std::move(outcomes[0]);
}

import::Imported imported(const import::ImportOutcome& outcome) {
  if (const auto* error = std::get_if<import::ImportError>(&outcome)) FAIL(error->message());
  return std::get<import::Imported>(outcome);
}

import::ImportError refused(const import::ImportOutcome& outcome) {
  REQUIRE_MESSAGE(std::holds_alternative<import::ImportError>(outcome), "imported what should be refused");
  return std::get<import::ImportError>(outcome);
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
  TEST_CASE("import kernelbench: the headline fixtures read as the shipped headline specs") {
    const std::pair<const char*, const char*> headline[] = {
        {"50_conv_standard_2D__alexnet_first_layer.py", "050_conv2d_alexnet_first_layer.yaml"},
        {"76_conv_standard_1D_dilated_strided__.py", "076_conv1d_dilated_strided.yaml"},
        {"77_conv_transposed_3D_square_input_square_kernel___padded____dilated____strided__.py",
         "077_conv_transpose3d.yaml"},
        {"84_conv_depthwise_2D_asymmetric_input_square_kernel.py", "084_conv2d_depthwise.yaml"},
    };
    std::vector<kbench::torch::KernelBenchFile> files;
    for (const auto& [fixture, spec] : headline) files.push_back({kFixtures + fixture, "headline"});
    const auto outcomes = read_stub(files);
    REQUIRE(outcomes.size() == 4);
    for (std::size_t i = 0; i < 4; ++i) {
      CAPTURE(headline[i].first);
      const auto result = imported(outcomes[i]);
      const auto shipped = kbench::load_workloads(kSuiteDir + headline[i].second);
      REQUIRE(result.workloads.size() == 1);
      REQUIRE(shipped.size() == 1);
      CHECK(result.workloads[0].problem == shipped[0].problem);
      CHECK(result.workloads[0].name == "headline");
      CHECK(result.workloads[0].source_line > 0);
      CHECK(result.workloads[0].description.find("run in kbench's torch stub") != std::string::npos);
      check_round_trip(result.workloads);
    }
  }

  TEST_CASE("import kernelbench: every shipped level-1 spec, written as a module, reads back as its problem") {
    const auto suite = kbench::load_workloads(kSuiteDir);
    REQUIRE(suite.size() == 36);
    ModuleDir dir;
    std::vector<kbench::torch::KernelBenchFile> files;
    for (const Workload& w : suite) files.push_back({dir.write(w.name + ".py", module_for(w.problem)), w.name});
    const auto outcomes = read_stub(files);
    REQUIRE(outcomes.size() == suite.size());
    for (std::size_t i = 0; i < suite.size(); ++i) {
      const Workload& w = suite[i];
      CAPTURE(w.name);
      const auto result = imported(outcomes[i]);
      REQUIRE(result.workloads.size() == 1);
      CHECK(result.workloads[0].problem == w.problem);
      CHECK(result.workloads[0].description.find(
                fmt::format("output [{}]", fmt::join(kbench::output_shape(w.problem), ", "))) != std::string::npos);
      check_round_trip(result.workloads);
    }
  }

  TEST_CASE("import kernelbench: keyword arguments, tuples, arithmetic, padding='same' and a chain of two layers") {
    const auto outcomes = read_stub({{kFixtures + "keyword_arguments_separable.py", "sep"}});
    const auto result = imported(outcomes.at(0));
    REQUIRE(result.workloads.size() == 2);
    const ConvProblem& depthwise = result.workloads[0].problem;
    CHECK(result.workloads[0].name == "sep-depthwise");
    CHECK(result.workloads[0].source_line == 16);  // self.depthwise = torch.nn.Conv2d(
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
        read_one("import torch\nfrom torch import nn\nclass Model(nn.Module):\n    def __init__(self):\n"
                 "        super().__init__()\n        self.c = nn.Conv1d(4, 4, 4, padding='same', bias=False)\n"
                 "    def forward(self, x): return self.c(x)\n"
                 "def get_inputs(): return [torch.randn(1, 4, 10)]\n"));
    REQUIRE(result.workloads.size() == 1);
    CHECK(result.workloads[0].problem.pad_before[0] == 1);
    CHECK(result.workloads[0].problem.pad_after[0] == 2);
    CHECK(kbench::output_shape(result.workloads[0].problem) == std::vector<std::int64_t>{1, 4, 10});
  }

  TEST_CASE("import kernelbench: a module it cannot read is refused at the line, naming what") {
    const auto outcomes = read_stub({{kFixtures + "refused_reflect_padding.py", "r"}});
    const auto error = refused(outcomes.at(0));
    CHECK(error.line == 9);  // the statement that builds the layer
    CHECK(error.what == "self.conv: padding_mode 'reflect'; kbench pads with zeros only");
    CHECK(error.message().starts_with(kFixtures + "refused_reflect_padding.py:9: "));
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
    const std::string forward = tail.substr(0, tail.find("def get_inputs"));
    const std::string inputs = tail.substr(0, tail.find("def get_init_inputs"));
    struct Case {
      std::string source;
      int line;
      std::string what;
    };
    const Case cases[] = {
        {head + "        self.conv = nn.Conv2d(c, 16, k, stride=2.0)\n" + tail, 6,
         "nn.Conv2d stride: got 2.0; expected an integer of at least 1 or a tuple of 2"},
        {head + "        self.conv = nn.Conv2d(c, 16, k // 1, stride=k / 3)\n" + tail, 6, "nn.Conv2d stride: got 1.0"},
        {head + "        self.conv = nn.Conv2d(c, 16, kernel)\n" + tail, 6,
         "NameError: name 'kernel' is not defined"},
        {head + "        self.conv = nn.Conv2d(c, 16, kernel=k)\n" + tail, 6, "unexpected keyword argument 'kernel'"},
        {head + "        self.conv = nn.Sequential(nn.Conv2d(c, 16, k), nn.ReLU())\n" + tail, 6,
         "nn.ReLU is not modelled by kbench's torch-free reader; read this file with torch"},
        {head + "        self.conv = nn.LazyConv2d(16, k)\n" + tail, 6, "nn.LazyConv2d is not modelled"},
        {head + conv + "    def forward(self, x):\n        return torch.relu(self.conv(x))\n" +
             "def get_inputs():\n    return [torch.randn(2, 8, 16, 16)]\ndef get_init_inputs():\n    return [8, 3]\n",
         8, "torch.relu is not modelled"},
        {head + conv + "    def forward(self, x):\n        return self.conv(x) * 2\n" +
             "def get_inputs():\n    return [torch.randn(2, 8, 16, 16)]\ndef get_init_inputs():\n    return [8, 3]\n",
         8, "the tensor operator __mul__ is not modelled"},
        {head + conv + inputs + "def get_init_inputs():\n    return [4, 3]\n", 6,
         "self.conv: its weight [16, 4, 3, 3] with groups 1 takes 4 input channels, its input [2, 8, 16, 16] has 8"},
        {head + conv + inputs + "def get_init_inputs():\n    return [8]\n", 4,
         "TypeError: Model.__init__() missing 1 required positional argument: 'k'"},
        {head + conv + inputs + "def get_init_inputs():\n    return [8, 17]\n", 6,
         "kernel size can't be greater than actual input size"},
        {head + "        self.conv = nn.Conv2d(c, 16, k, stride=2, padding='same')\n" + tail, 6,
         "ValueError: padding='same' is not supported for strided convolutions"},
        {head + "        self.conv = nn.Conv2d(c, 16, k, padding=(1, 2, 3))\n" + tail, 6,
         "nn.Conv2d padding: got (1, 2, 3); expected one integer or a tuple of 2"},
        {head + "        self.conv = nn.Conv2d(c, 16, k, bias=1)\n" + tail, 6, "bias: got 1; expected True or False"},
        {head + "        self.conv = nn.Conv2d(c, 16, k, groups=3)\n" + tail, 6,
         "ValueError: in_channels must be divisible by groups"},
        {head + "        self.conv = nn.Conv2d(c, 16, (k, 99999999999999999999))\n" + tail, 6,
         "nn.Conv2d kernel_size: value cannot be converted to type int64_t without overflow"},
        {head + "        self.conv = nn.Conv2d(c, 16, (k, 999999999999))\n" + tail, 6,
         "got 999999999999; expected an integer from 1 to 2147483647"},
        // Python's own words for a syntax error differ between versions (3.8: "EOL while scanning ...").
        {head + "        self.conv = nn.Conv2d(c, 16, 'k)\n" + tail, 6, "SyntaxError: "},
        {head + "        self.conv = nn.Conv2d(c, 16, k) $\n" + tail, 6, "SyntaxError: invalid syntax"},
        {head + "        self.relu = nn.Identity()\n" + tail, 8,
         "AttributeError: 'Model' object has no attribute 'conv'"},
        {head + "        self.conv = nn.Identity()\n" + tail, 0, "made no convolution call"},
        {head + conv + forward + "def get_inputs():\n    return [torch.randn(8, 16, 16)]\n" +
             "def get_init_inputs():\n    return [8, 3]\n",
         6, "its input is [8, 16, 16]; expected a batched 4-D input"},
        {"import torch\nx = 1\n", 0, "no `class Model(nn.Module)`; expected a KernelBench problem file"},
        {"", 0, "no `class Model(nn.Module)`"},
        {"import torch.nn.init\n", 1, "import torch.nn.init: not modelled by kbench's torch-free reader"},
    };
    ModuleDir dir;
    std::vector<kbench::torch::KernelBenchFile> files;
    for (std::size_t i = 0; i < std::size(cases); ++i)
      files.push_back({dir.write(fmt::format("case{}.py", i), cases[i].source), "m"});
    const auto outcomes = read_stub(files);
    REQUIRE(outcomes.size() == std::size(cases));
    for (std::size_t i = 0; i < std::size(cases); ++i) {
      const Case& c = cases[i];
      CAPTURE(c.source);
      const auto error = refused(outcomes[i]);
      CHECK(error.line == c.line);
      CHECK_MESSAGE(error.what.find(c.what) != std::string::npos, error.what);
    }
  }

  TEST_CASE("import kernelbench: hostile files end in an error naming them, not a crash or a hang of kbench") {
    const std::string model =
        "class Model(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.conv = nn.Conv1d(2, 2, 3)\n    def forward(self, x):\n        return self.conv(x)\n"
        "def get_inputs():\n    return [torch.randn(1, 2, 8)]\n";
    const std::string imports = "import torch\nimport torch.nn as nn\n";  // lines 1-2, the hostile line is 3
    struct Case {
      std::string line3;
      std::string what;
    };
    const Case cases[] = {
        {"raise RuntimeError('needs a GPU')\n", "RuntimeError: needs a GPU"},
        {"import sys; sys.exit(3)\n", "SystemExit: 3"},
        {"while True: pass\n", "the file ran longer than 1 s (--timeout); stopped"},
        {"x = bytearray(8 << 30)\n", "MemoryError"},  // past the stub's 4 GiB address space
        {"import kbench_no_such_module\n", "ModuleNotFoundError: No module named 'kbench_no_such_module'"},
        {"print('to stdout, which kbench does not read')\n", ""},
    };
    ModuleDir dir;
    std::vector<kbench::torch::KernelBenchFile> files;
    for (std::size_t i = 0; i < std::size(cases); ++i)
      files.push_back({dir.write(fmt::format("hostile{}.py", i), imports + cases[i].line3 + model), "m"});
    // Last: a file that ends the Python process. The files before it are read; it is named.
    files.push_back({dir.write("exits.py", imports + "import os; os._exit(7)\n" + model), "m"});
    const auto outcomes = read_stub(files, 1);
    REQUIRE(outcomes.size() == files.size());
    for (std::size_t i = 0; i < std::size(cases); ++i) {
      CAPTURE(cases[i].line3.substr(0, 60));
      if (cases[i].what.empty()) {
        CHECK(imported(outcomes[i]).workloads.size() == 1);
        continue;
      }
      const auto error = refused(outcomes[i]);
      CHECK(error.line == 3);
      CHECK_MESSAGE(error.what.find(cases[i].what) != std::string::npos, error.what);
    }
    const auto exited = refused(outcomes.back());
    CHECK(exited.file == files.back().path);
    CHECK_MESSAGE(exited.what.find("Python stopped while running this file (exit 7") != std::string::npos,
                  exited.what);
  }

  TEST_CASE("import kernelbench: a file that outlasts its alarm is killed with its Python, and named") {
    // The alarm's handler never runs: the file ignores SIGALRM (as C code that holds the GIL never lets it).
    ModuleDir dir;
    const std::string path =
        dir.write("stuck.py", "import signal\nsignal.signal(signal.SIGALRM, signal.SIG_IGN)\nwhile True: pass\n");
    kbench::torch::KernelBenchReadOptions options;
    options.reader = kbench::torch::KernelBenchReader::stub;
    options.timeout_seconds = 1;
    options.start_seconds = 2;
    const auto reading = kbench::torch::read_kernelbench_files({{path, "m"}}, options);
    REQUIRE(reading.outcomes.size() == 1);
    const auto error = refused(reading.outcomes[0]);
    CHECK(error.file == path);
    CHECK_MESSAGE(error.what.find("Python stopped while running this file (gave no answer within 8 s and was killed") !=
                      std::string::npos,
                  error.what);
  }

  TEST_CASE("import kernelbench: constants nothing uses may be anything, and names come from the text") {
    const auto result =
        imported(read_one("import torch\nimport torch.nn as nn\neps = 1e-5\nscale = 1 / 3\n"
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

  TEST_CASE("import kernelbench: without any Python, the reading is unavailable, saying what to install") {
    kbench::torch::KernelBenchReadOptions options;
    options.python = {"/nonexistent/python3", "--python"};
    const auto reading = kbench::torch::read_kernelbench_files({{kFixtures + "keyword_arguments_separable.py", "m"}},
                                                               options);
    CHECK(reading.outcomes.empty());
    CHECK(reading.unavailable.find("Python '/nonexistent/python3' (from --python) cannot be run") != std::string::npos);
    CHECK(reading.unavailable.find("apt install python3") != std::string::npos);
  }
}
