// The KernelBench level-1 convolution suite (#50, #54-#87): every problem as its Python module builds
// it, transcribed here from KernelBench/level1/*.py, checked against the specs, with output shapes and
// FLOPs worked out by this file's own formulas (not lib/problem's) and compared with what kbench derives.
#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "problem/problem_metrics.hpp"
#include "spec/load.hpp"

using kbench::ConvProblem;
using kbench::Workload;

namespace {

const std::string kSuiteDir = std::string(KBENCH_SOURCE_DIR) + "/workloads/kernelbench/level1";

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

// Short forms for the table: a single value repeated over the rank.
Shape all(std::int64_t v, int rank) { return Shape(static_cast<std::size_t>(rank), v); }

std::vector<Module> kernelbench_modules() {
  const auto m = [](int id, bool transposed, Shape input, std::int64_t out, Shape k, Shape s, Shape p, Shape d,
                    std::int64_t g = 1, Shape op = {},
                    bool bias = false) { return Module{id, transposed, input, out, k, s, p, d, g, op, bias}; };
  const auto one = [](int rank) { return all(1, rank); };
  const auto zero = [](int rank) { return all(0, rank); };
  return {
      m(50, false, {256, 3, 224, 224}, 96, {11, 11}, {4, 4}, {2, 2}, one(2), 1, {}, true),
      m(54, false, {16, 3, 64, 64, 64}, 64, all(3, 3), one(3), zero(3), one(3)),
      m(55, false, {8, 64, 512, 1024}, 128, {3, 3}, one(2), zero(2), one(2)),
      m(56, false, {8, 64, 512, 256}, 128, {5, 7}, one(2), zero(2), one(2)),
      m(57, true, {8, 64, 1024, 1024}, 64, {3, 3}, one(2), zero(2), one(2)),
      m(58, true, {16, 32, 16, 32, 64}, 16, {3, 5, 7}, one(3), zero(3), one(3)),
      m(59, false, {16, 3, 256, 256, 10}, 64, {3, 3, 1}, one(3), zero(3), one(3)),
      m(60, false, {16, 3, 64, 64, 64}, 64, {3, 5, 7}, one(3), zero(3), one(3)),
      m(61, true, {8, 48, 64, 64, 64}, 48, all(3, 3), one(3), zero(3), one(3)),
      m(62, false, {8, 32, 512, 512}, 64, {5, 9}, one(2), zero(2), one(2)),
      m(63, false, {16, 16, 1024, 1024}, 128, {3, 3}, one(2), zero(2), one(2)),
      m(64, true, {64, 128, 65536}, 128, {3}, {1}, {0}, {1}),
      m(65, true, {8, 64, 512, 512}, 64, {3, 7}, one(2), zero(2), one(2)),
      m(66, false, {8, 3, 16, 128, 128}, 64, {3, 5, 7}, one(3), zero(3), one(3)),
      m(67, false, {32, 64, 131072}, 128, {3}, {1}, {0}, {1}),
      m(68, true, {16, 32, 64, 64, 64}, 64, {3, 5, 5}, one(3), zero(3), one(3)),
      m(69, true, {64, 64, 128, 256}, 128, {3, 5}, one(2), zero(2), one(2)),
      m(70, true, {8, 48, 96, 96, 96}, 24, all(3, 3), one(3), zero(3), one(3)),
      m(71, true, {8, 32, 512, 1024}, 32, {3, 3}, one(2), zero(2), one(2)),
      m(72, true, {8, 32, 12, 24, 48}, 32, {3, 5, 7}, all(2, 3), {1, 2, 3}, one(3), 4, {1, 1, 1}),
      m(73, true, {4, 32, 32, 64, 128}, 32, all(3, 3), all(2, 3), all(1, 3), one(3), 4),
      m(74, true, {32, 32, 131072}, 64, {5}, {1}, {0}, {3}),
      m(75, true, {16, 32, 128, 256}, 64, {3, 5}, {2, 3}, {1, 2}, {2, 1}, 4),
      m(76, false, {64, 64, 524280}, 128, {3}, {3}, {0}, {4}),
      m(77, true, {16, 32, 16, 32, 32}, 64, all(3, 3), all(2, 3), all(1, 3), all(2, 3)),
      m(78, true, {8, 32, 512, 1024}, 32, {3, 7}, one(2), {1, 3}, one(2)),
      m(79, true, {16, 32, 131072}, 64, {3}, {2}, {1}, {2}),
      m(80, false, {8, 32, 512, 512}, 64, {5, 9}, one(2), {2, 4}, {2, 3}),
      m(81, true, {16, 32, 64, 128}, 64, {3, 3}, {5, 5}, {1, 1}, {2, 2}),
      m(82, false, {16, 64, 512, 512}, 64, {3, 3}, one(2), zero(2), one(2), 64),
      m(83, false, {64, 8, 512, 512}, 8, {3, 1}, one(2), zero(2), one(2), 8),
      m(84, false, {64, 128, 256, 512}, 128, {3, 3}, one(2), zero(2), one(2), 128),
      m(85, false, {32, 128, 128, 256}, 128, {3, 7}, one(2), zero(2), one(2), 128),
      // #86: the depthwise layer, then the pointwise layer on its output (same spatial size: padding 1).
      m(86, false, {16, 64, 512, 512}, 64, {3, 3}, one(2), one(2), one(2), 64),
      m(86, false, {16, 64, 512, 512}, 128, {1, 1}, one(2), zero(2), one(2)),
      m(87, false, {16, 64, 1024, 1024}, 128, {1, 1}, one(2), zero(2), one(2)),
  };
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

Shape first_rank(const kbench::Dims& dims, int rank) { return Shape(dims.v, dims.v + rank); }

void check_problem(const Module& m, const ConvProblem& p) {
  const int rank = static_cast<int>(m.kernel.size());
  CHECK(p.transposed() == m.transposed);
  CHECK(p.dtype == kbench::DType::fp32);
  CHECK(p.spatial_rank == rank);
  CHECK(kbench::input_shape(p) == m.input);
  CHECK(p.out_channels == m.out_channels);
  CHECK(first_rank(p.kernel, rank) == m.kernel);
  CHECK(first_rank(p.stride, rank) == m.stride);
  CHECK(first_rank(p.pad_before, rank) == m.padding);
  CHECK(first_rank(p.pad_after, rank) == m.padding);  // the modules pad symmetrically
  CHECK(first_rank(p.dilation, rank) == m.dilation);
  CHECK(p.groups == m.groups);
  CHECK(first_rank(p.output_padding, rank) == (m.output_padding.empty() ? all(0, rank) : m.output_padding));
  CHECK(p.bias == m.bias);
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

  TEST_CASE("kernelbench suite: every spec is its module, output shape and FLOPs as computed here") {
    const auto workloads = load_suite();
    const auto modules = kernelbench_modules();
    REQUIRE(workloads.size() == modules.size());
    for (std::size_t i = 0; i < modules.size(); ++i) {
      const Module& m = modules[i];
      const Workload& w = workloads[i];
      CAPTURE(w.name);
      REQUIRE(problem_id(w.name) == m.id);
      check_problem(m, w.problem);
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
