// The KernelBench level-1 convolution suite (#50, #54-#87): every spec is the problem its KernelBench
// module builds when KernelBench runs it, Model(*get_init_inputs()) on get_inputs(). The modules' call
// structure (constants, get_inputs, get_init_inputs, Model.__init__'s signature and body, forward) is
// data, tests/data/import/kernelbench_level1/calls.json, extracted from KernelBench's files by
// extract_calls.py; each module is built back from it here and run by python3 against kbench's torch
// stub (kbench import kernelbench --reader stub), Model(*get_init_inputs()) as KernelBench calls it (its
// #73 passes its groups where __init__ takes output_padding). tests/cli/test_kernelbench_modules_torch.sh
// runs the same modules in torch. Output shapes and FLOPs are then worked out by this file's own formulas (not lib/problem's) and
// compared with what kbench derives.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <unistd.h>
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "problem/problem_metrics.hpp"
#include "spec/load.hpp"
#include "torch/kernelbench_trace.hpp"

using kbench::ConvProblem;
using kbench::Workload;

namespace {

const std::string kSuiteDir = std::string(KBENCH_SOURCE_DIR) + "/workloads/kernelbench/level1";
const std::string kCalls = std::string(KBENCH_TEST_DATA_DIR) + "/import/kernelbench_level1/calls.json";

using Shape = std::vector<std::int64_t>;

// One nn.ConvNd / nn.ConvTransposeNd call as the module makes it, defaults filled in as PyTorch's.
struct Module {
  int id;
  bool transposed;
  Shape input;  // [N, C_in, spatial...]
  std::int64_t out_channels;
  Shape kernel, stride, padding, dilation;  // one entry per spatial dim
  std::int64_t groups = 1;
  Shape output_padding = {};  // empty: 0 in every dim
  bool bias = false;
};

nlohmann::json load_calls() {
  std::ifstream in(kCalls);
  REQUIRE_MESSAGE(in, kCalls);
  return nlohmann::json::parse(in);
}

// A def with its parameters and body statements (each possibly several lines), indented.
std::string python_function(const std::string& name, const nlohmann::json& f, const std::string& pad) {
  std::string text = fmt::format("{}def {}({}):\n", pad, name, f.at("parameters").get<std::string>());
  for (const auto& statement : f.at("body")) {
    std::istringstream lines(statement.get<std::string>());
    for (std::string line; std::getline(lines, line);) text += pad + "    " + line + "\n";
  }
  return text;
}

// The runnable module calls.json records (as write_modules.py builds it).
std::string module_text(const nlohmann::json& record) {
  const nlohmann::json& f = record.at("functions");
  std::string text = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n\nclass Model(nn.Module):\n";
  text += python_function("__init__", f.at("Model.__init__"), "    ") + "\n";
  text += python_function("forward", f.at("Model.forward"), "    ") + "\n";
  for (const auto& constant : record.at("constants")) text += constant.get<std::string>() + "\n";
  text += '\n';  // not "\n" + std::string&&: GCC 12 warns falsely there (-Wrestrict, GCC bug 105329)
  text += python_function("get_inputs", f.at("get_inputs"), "") + "\n";
  text += python_function("get_init_inputs", f.at("get_init_inputs"), "");
  return text;
}

// Each KernelBench module's layers (#86: two), as the stub reader reads the module built from calls.json.
struct ModuleAsRun {
  int id;
  std::string file;
  Workload workload;
};

std::vector<ModuleAsRun> modules_as_run() {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / fmt::format("kbench-suite-test-{}", ::getpid());
  fs::create_directories(dir);
  const nlohmann::json calls = load_calls();
  std::vector<kbench::torch::KernelBenchFile> files;
  for (const auto& record : calls) {
    const fs::path path = dir / record.at("file").get<std::string>();
    std::ofstream(path) << module_text(record);
    files.push_back({path.string(), "m"});
  }
  kbench::torch::KernelBenchReadOptions options;
  options.reader = kbench::torch::KernelBenchReader::stub;
  const kbench::torch::KernelBenchReading reading = kbench::torch::read_kernelbench_files(files, options);
  std::error_code ignored;
  fs::remove_all(dir, ignored);
  REQUIRE_MESSAGE(reading.unavailable.empty(), reading.unavailable);
  REQUIRE(reading.outcomes.size() == calls.size());
  std::vector<ModuleAsRun> out;
  for (std::size_t i = 0; i < calls.size(); ++i) {
    const auto& outcome = reading.outcomes[i];
    if (const auto* error = std::get_if<kbench::import::ImportError>(&outcome)) FAIL(error->message());
    for (const Workload& w : std::get<kbench::import::Imported>(outcome).workloads)
      out.push_back({calls[i].at("problem").get<int>(), calls[i].at("file").get<std::string>(), w});
  }
  return out;
}

Shape dims_of(const kbench::Dims& dims, int rank) { return Shape(dims.v, dims.v + rank); }

Module module_of(const ModuleAsRun& m) {
  const ConvProblem& p = m.workload.problem;
  const int rank = p.spatial_rank;
  REQUIRE(p.pad_before == p.pad_after);  // the modules pad symmetrically
  return Module{m.id,
                p.transposed(),
                kbench::input_shape(p),
                p.out_channels,
                dims_of(p.kernel, rank),
                dims_of(p.stride, rank),
                dims_of(p.pad_before, rank),
                dims_of(p.dilation, rank),
                p.groups,
                p.transposed() ? dims_of(p.output_padding, rank) : Shape{},
                p.bias};
}

std::vector<Module> kernelbench_modules() {
  std::vector<Module> out;
  for (const ModuleAsRun& m : modules_as_run()) out.push_back(module_of(m));
  return out;
}

std::int64_t output_padding_of(const Module& m, std::size_t d) {
  return m.output_padding.empty() ? 0 : m.output_padding[d];
}

// PyTorch's documented output sizes (Conv*d / ConvTranspose*d "Shape" sections).
Shape expected_output(const Module& m) {
  Shape out{m.input[0], m.out_channels};
  for (std::size_t d = 0; d < m.kernel.size(); ++d) {
    const std::int64_t in = m.input[d + 2], k = m.kernel[d], s = m.stride[d], p = m.padding[d], dil = m.dilation[d];
    out.push_back(m.transposed ? (in - 1) * s - 2 * p + dil * (k - 1) + output_padding_of(m, d) + 1
                               : (in + 2 * p - dil * (k - 1) - 1) / s + 1);
  }
  return out;
}

// Multiply-adds counted by brute force along each dim: a conv does kernel taps for every output
// (padding taps included, as a dense kernel does them); a transposed conv only the (input, tap)
// pairs whose output position survives the cropping. Dims are independent, so the counts multiply.
double expected_flops(const Module& m) {
  const Shape out = expected_output(m);
  double pairs = 1;
  for (std::size_t d = 0; d < m.kernel.size(); ++d) {
    std::int64_t count = 0;
    if (!m.transposed) {
      count = out[d + 2] * m.kernel[d];
    } else {
      for (std::int64_t i = 0; i < m.input[d + 2]; ++i)
        for (std::int64_t k = 0; k < m.kernel[d]; ++k) {
          const std::int64_t o = i * m.stride[d] - m.padding[d] + k * m.dilation[d];
          count += o >= 0 && o < out[d + 2];
        }
    }
    pairs *= static_cast<double>(count);
  }
  const std::int64_t n = m.input[0], c_in = m.input[1];
  // Per (input position, tap) pair a transposed conv feeds C_out/g channels from each input channel;
  // per (output position, tap) pair a conv reads C_in/g channels into each output channel.
  const double channels = m.transposed ? static_cast<double>(c_in) * static_cast<double>(m.out_channels / m.groups)
                                       : static_cast<double>(m.out_channels) * static_cast<double>(c_in / m.groups);
  double flops = 2.0 * static_cast<double>(n) * channels * pairs;
  if (m.bias) {
    double elements = 1;
    for (std::int64_t v : out) elements *= static_cast<double>(v);
    flops += elements;  // one add per output element
  }
  return flops;
}

std::vector<Workload> load_suite() { return kbench::load_workloads(kSuiteDir); }

// "kernelbench-l1-086-..." -> 86
int problem_id(const std::string& name) { return std::stoi(name.substr(std::string("kernelbench-l1-").size(), 3)); }

}  // namespace

TEST_SUITE("kernelbench suite") {
  TEST_CASE("kernelbench suite: 35 problems (#50, #54-#87), #86 as two workloads, in problem order") {
    const auto workloads = load_suite();
    REQUIRE(workloads.size() == 36);
    std::vector<int> ids;
    for (const Workload& w : workloads) {
      CHECK(w.name.starts_with("kernelbench-l1-"));
      ids.push_back(problem_id(w.name));
    }
    std::vector<int> expected{50};
    for (int id = 54; id <= 87; ++id) {
      expected.push_back(id);
      if (id == 86) expected.push_back(id);
    }
    CHECK(ids == expected);
    CHECK(workloads[33].name == "kernelbench-l1-086-conv2d-depthwise-separable-depthwise");
    CHECK(workloads[34].name == "kernelbench-l1-086-conv2d-depthwise-separable-pointwise");
  }

  TEST_CASE("kernelbench suite: every spec is the problem its module builds as KernelBench runs it") {
    const auto workloads = load_suite();
    const auto modules = modules_as_run();
    REQUIRE(workloads.size() == modules.size());
    for (std::size_t i = 0; i < modules.size(); ++i) {
      const Workload& w = workloads[i];
      CAPTURE(w.name);
      CAPTURE(modules[i].file);
      REQUIRE(problem_id(w.name) == modules[i].id);
      const ConvProblem& built = modules[i].workload.problem;
      // Every key of the problem: shapes, kernel, stride, padding on each side, dilation, output_padding,
      // groups, bias, dtype, layout, pass.
      CHECK(kbench::describe(w.problem) == kbench::describe(built));
      CHECK(kbench::data_text(w.problem) == kbench::data_text(built));
      CHECK(w.problem == built);
    }
  }

  TEST_CASE("kernelbench suite: #73's constants say 4 groups, the layer it builds has 1") {
    const auto calls = load_calls();
    const auto record = std::find_if(calls.begin(), calls.end(), [](const auto& r) { return r.at("problem") == 73; });
    REQUIRE(record != calls.end());
    const auto& constants = record->at("constants");
    CHECK(std::find(constants.begin(), constants.end(), "groups = 4") != constants.end());
    CHECK(record->at("functions").at("get_init_inputs").at("body")[0] ==
          "return [in_channels, out_channels, kernel_size, stride, padding, groups]");
    for (const ModuleAsRun& m : modules_as_run())
      if (m.id == 73) {
        CHECK(m.workload.problem.groups == 1);
        CHECK(m.workload.problem.output_padding == kbench::Dims{{0, 0, 0}});
      }
  }

  TEST_CASE("kernelbench suite: output shape and FLOPs of every spec as computed here") {
    const auto workloads = load_suite();
    const auto modules = kernelbench_modules();
    REQUIRE(workloads.size() == modules.size());
    for (std::size_t i = 0; i < modules.size(); ++i) {
      const Module& m = modules[i];
      const Workload& w = workloads[i];
      CAPTURE(w.name);
      REQUIRE(problem_id(w.name) == m.id);
      const Shape out = expected_output(m);
      CHECK(kbench::output_shape(w.problem) == out);
      CHECK(kbench::compute_metrics(w.problem).flops == doctest::Approx(expected_flops(m)).epsilon(1e-12));
      // The description promises the output shape; it must be the one computed here.
      CHECK(w.description.find(fmt::format("output [{}]", fmt::join(out, ", "))) != std::string::npos);
    }
  }

  TEST_CASE("kernelbench suite: #86's pointwise layer reads what its depthwise layer writes") {
    const auto modules = kernelbench_modules();
    const Module& depthwise = modules[33];
    const Module& pointwise = modules[34];
    CHECK(expected_output(depthwise) == pointwise.input);
  }

  TEST_CASE("kernelbench suite: hand-checked figures for the formulas themselves") {
    const auto modules = kernelbench_modules();
    std::map<int, const Module*> by_id;
    for (const Module& m : modules) by_id.emplace(m.id, &m);  // #86: its first (depthwise) layer
    // Worked by hand: 72: (12-1)*2 - 2 + 2 + 1 + 1 = 24, (24-1)*2 - 4 + 4 + 2 = 48, (48-1)*2 - 6 + 6 + 2 = 96.
    CHECK(expected_output(*by_id[72]) == Shape{8, 32, 24, 48, 96});
    // 81: (64-1)*5 - 2 + 4 + 1 = 318; (128-1)*5 - 2 + 4 + 1 = 638.
    CHECK(expected_output(*by_id[81]) == Shape{16, 64, 318, 638});
    // 80: (512 + 4 - 8 - 1) + 1 = 508; (512 + 8 - 24 - 1) + 1 = 496.
    CHECK(expected_output(*by_id[80]) == Shape{8, 64, 508, 496});
    // 87 (pointwise): 2 x 16 x 128 x 64 x 1024 x 1024.
    CHECK(expected_flops(*by_id[87]) == doctest::Approx(2.0 * 16 * 128 * 64 * 1024 * 1024));
    // 64 (stride 1, no cropping): every input element meets every tap.
    CHECK(expected_flops(*by_id[64]) == doctest::Approx(2.0 * 64 * 128 * 128 * 65536 * 3));
    // 77 (the seed): 26.6 GFLOP counting landed taps only (docs: 29.0 G with the cropped ones).
    CHECK(expected_flops(*by_id[77]) == doctest::Approx(26.6e9).epsilon(0.005));
  }

  TEST_CASE("kernelbench suite: every workload carries KernelBench's H100 baselines, eager and compiled") {
    for (const Workload& w : load_suite()) {
      CAPTURE(w.name);
      REQUIRE(w.records.size() == 4);
      const std::string sxm = "NVIDIA H100 80GB HBM3", pcie = "NVIDIA H100 PCIe";
      CHECK(w.records[0].hardware == sxm);
      CHECK(w.records[1].hardware == sxm);
      CHECK(w.records[2].hardware == pcie);
      CHECK(w.records[3].hardware == pcie);
      for (std::size_t i = 0; i < 4; ++i) {
        CHECK(w.records[i].implementation.starts_with(i % 2 == 0 ? "PyTorch eager" : "torch.compile"));
        CHECK(w.records[i].ms > 0);
        CHECK(w.records[i].source.starts_with("KernelBench baseline timings (PyTorch 2.5, CUDA 12.4)"));
        // PyTorch's defaults, which KernelBench's timing script keeps: cuDNN convolutions with TF32 allowed.
        CHECK(w.records[i].math == kbench::MathMode::tf32);
      }
      const int id = problem_id(w.name);
      if (id == 50 || id == 76 || id == 77 || id == 84) continue;  // the seeds, as first published
      // The rest name the JSON they were read from, at the commit read, with the mode and the spread.
      const std::string blob =
          "https://github.com/ScalingIntelligence/KernelBench/blob/"
          "423217d9fda91e0c2d67e4a43bf62f96f6d104f1/results/timing/";
      CHECK(w.records[0].source.ends_with(blob + "H100_Modal/baseline_time_torch.json"));
      CHECK(w.records[1].source.ends_with(blob + "H100_Modal/baseline_time_torch_compile_inductor_default.json"));
      CHECK(w.records[2].source.ends_with(blob + "H100_PCIe_LambdaLabs/baseline_time_torch.json"));
      CHECK(w.records[3].source.ends_with(blob +
                                          "H100_PCIe_LambdaLabs/baseline_time_torch_compile_inductor_default.json"));
      CHECK(w.records[1].implementation.starts_with("torch.compile (inductor, default"));
      for (const auto& record : w.records) CHECK(record.stdev_ms >= 0);
    }
  }

  TEST_CASE("kernelbench suite: baselines spot-checked against the JSON files") {
    std::map<std::string, const Workload*> by_name;
    const auto workloads = load_suite();
    for (const Workload& w : workloads) by_name.emplace(w.name, &w);
    const Workload& w87 = *by_name.at("kernelbench-l1-087-conv2d-pointwise");
    CHECK(w87.records[0].ms == doctest::Approx(4.66));
    CHECK(w87.records[0].stdev_ms == doctest::Approx(0.259));
    CHECK(w87.records[1].ms == doctest::Approx(13.3));
    const Workload& w72 = *by_name.at("kernelbench-l1-072-conv-transpose3d-strided-padded-grouped");
    CHECK(w72.records[2].ms == doctest::Approx(3.23));
    CHECK(w72.records[3].stdev_ms == doctest::Approx(0.00712));
  }
}
