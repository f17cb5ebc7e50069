// The shipped workloads: the four KernelBench headline problems (shapes, parameters, published records) and every
// example spec, loaded through the public API exactly as `kbench run` loads them.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "spec/load.hpp"

using kbench::ConvProblem;
using kbench::Dims;
using kbench::OpKind;
using kbench::Workload;

namespace {

const std::string kWorkloadsDir = std::string(KBENCH_SOURCE_DIR) + "/workloads";
const std::string kSeedsDir = kWorkloadsDir + "/kernelbench/level1";
const std::string kExamplesDir = kWorkloadsDir + "/examples";

Workload load_one(const std::string& path) {
  const auto workloads = kbench::load_workloads(path);
  REQUIRE(workloads.size() == 1);
  return workloads.front();
}

Dims dims(std::int64_t a, std::int64_t b = 1, std::int64_t c = 1) { return Dims{{a, b, c}}; }
Dims pads(std::int64_t a, std::int64_t b = 0, std::int64_t c = 0) { return Dims{{a, b, c}}; }

// The four records every seed carries, in the order the reference table lists them.
void check_records(const Workload& w, double sxm_eager, double sxm_std, double sxm_compile, double pcie_eager,
                   double pcie_compile) {
  REQUIRE(w.records.size() == 4);
  const std::string source = "KernelBench baseline timings (PyTorch 2.5, CUDA 12.4)";
  const struct {
    const char* hardware;
    const char* implementation;
    double ms;
    double stdev;
  } expected[] = {
      {"NVIDIA H100 80GB HBM3", "PyTorch eager", sxm_eager, sxm_std},
      {"NVIDIA H100 80GB HBM3", "torch.compile", sxm_compile, -1},
      {"NVIDIA H100 PCIe", "PyTorch eager", pcie_eager, -1},
      {"NVIDIA H100 PCIe", "torch.compile", pcie_compile, -1},
  };
  for (std::size_t i = 0; i < 4; ++i) {
    CAPTURE(i);
    CHECK(w.records[i].hardware == expected[i].hardware);
    CHECK(w.records[i].implementation == expected[i].implementation);
    CHECK(w.records[i].ms == doctest::Approx(expected[i].ms));
    CHECK(w.records[i].stdev_ms == doctest::Approx(expected[i].stdev));
    CHECK(w.records[i].source == source);
  }
}

}  // namespace

TEST_SUITE("spec") {
  TEST_CASE("spec problem 76: conv1d dilated strided") {
    const Workload w = load_one(kSeedsDir + "/076_conv1d_dilated_strided.yaml");
    const ConvProblem& p = w.problem;
    CHECK(w.name == "kernelbench-l1-076-conv1d-dilated-strided");
    CHECK_FALSE(w.description.empty());
    CHECK(w.source_line == 4);
    CHECK(p.op == OpKind::conv);
    CHECK(p.dtype == kbench::DType::fp32);
    CHECK(p.spatial_rank == 1);
    CHECK(p.batch == 64);
    CHECK(p.in_channels == 64);
    CHECK(p.out_channels == 128);
    CHECK(p.groups == 1);
    CHECK(p.input == dims(524280));
    CHECK(p.kernel == dims(3));
    CHECK(p.stride == dims(3));
    CHECK(p.dilation == dims(4));
    CHECK(p.pad_before == pads(0));
    CHECK(p.pad_after == pads(0));
    CHECK(p.output_padding == pads(0));
    CHECK_FALSE(p.bias);
    CHECK(p.output() == dims(174758));
    CHECK(p.input_elements() == 2147450880);
    check_records(w, 12.2, 0.153, 12.3, 19.1, 19.1);
  }

  TEST_CASE("spec problem 50: conv2d AlexNet first layer, with bias") {
    const Workload w = load_one(kSeedsDir + "/050_conv2d_alexnet_first_layer.yaml");
    const ConvProblem& p = w.problem;
    CHECK(w.name == "kernelbench-l1-050-conv2d-alexnet-first-layer");
    CHECK(p.op == OpKind::conv);
    CHECK(p.spatial_rank == 2);
    CHECK(p.batch == 256);
    CHECK(p.in_channels == 3);
    CHECK(p.out_channels == 96);
    CHECK(p.input == dims(224, 224));
    CHECK(p.kernel == dims(11, 11));
    CHECK(p.stride == dims(4, 4));
    CHECK(p.dilation == dims(1, 1));
    CHECK(p.pad_before == pads(2, 2));
    CHECK(p.pad_after == pads(2, 2));
    CHECK(p.bias);
    CHECK(p.output() == dims(55, 55));
    check_records(w, 2.20, 0.036, 1.74, 2.97, 2.26);
  }

  TEST_CASE("spec problem 84: depthwise conv2d") {
    const Workload w = load_one(kSeedsDir + "/084_conv2d_depthwise.yaml");
    const ConvProblem& p = w.problem;
    CHECK(w.name == "kernelbench-l1-084-conv2d-depthwise");
    CHECK(p.op == OpKind::conv);
    CHECK(p.spatial_rank == 2);
    CHECK(p.batch == 64);
    CHECK(p.in_channels == 128);
    CHECK(p.out_channels == 128);
    CHECK(p.groups == 128);
    CHECK(p.input == dims(256, 512));
    CHECK(p.kernel == dims(3, 3));
    CHECK(p.stride == dims(1, 1));
    CHECK(p.pad_before == pads(0, 0));
    CHECK_FALSE(p.bias);
    CHECK(p.output() == dims(254, 510));
    check_records(w, 10.1, 0.103, 9.83, 13.3, 15.5);
  }

  TEST_CASE("spec problem 77: conv_transpose3d") {
    const Workload w = load_one(kSeedsDir + "/077_conv_transpose3d.yaml");
    const ConvProblem& p = w.problem;
    CHECK(w.name == "kernelbench-l1-077-conv-transpose3d");
    CHECK(p.op == OpKind::conv_transpose);
    CHECK(p.spatial_rank == 3);
    CHECK(p.batch == 16);
    CHECK(p.in_channels == 32);
    CHECK(p.out_channels == 64);
    CHECK(p.input == dims(16, 32, 32));
    CHECK(p.kernel == dims(3, 3, 3));
    CHECK(p.stride == dims(2, 2, 2));
    CHECK(p.dilation == dims(2, 2, 2));
    CHECK(p.pad_before == pads(1, 1, 1));
    CHECK(p.pad_after == pads(1, 1, 1));
    CHECK(p.output_padding == pads(0, 0, 0));
    CHECK_FALSE(p.bias);
    CHECK(p.output() == dims(33, 65, 65));
    check_records(w, 1.96, 0.036, 1.96, 2.44, 2.45);
  }

  TEST_CASE("spec seed directory loads the four headline problems in file order, among the rest of the suite") {
    const auto workloads = kbench::load_workloads(kSeedsDir);
    std::vector<std::string> names;
    const std::set<std::string> seed_ids{"050", "076", "077", "084"};
    for (const Workload& w : workloads)
      if (seed_ids.contains(w.name.substr(std::string("kernelbench-l1-").size(), 3))) names.push_back(w.name);
    CHECK(names == std::vector<std::string>{
                       "kernelbench-l1-050-conv2d-alexnet-first-layer",
                       "kernelbench-l1-076-conv1d-dilated-strided",
                       "kernelbench-l1-077-conv-transpose3d",
                       "kernelbench-l1-084-conv2d-depthwise",
                   });
    for (const Workload& w : workloads) CHECK(w.source_file.starts_with(kSeedsDir));
  }

  TEST_CASE("spec every example parses, and stays small enough for the CPU reference") {
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(kExamplesDir))
      if (entry.path().extension() == ".yaml") files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    REQUIRE(files.size() >= 8);

    std::set<OpKind> ops;
    std::set<int> conv_ranks, transposed_ranks;
    for (const std::string& file : files) {
      CAPTURE(file);
      const auto workloads = kbench::load_workloads(file);
      REQUIRE_FALSE(workloads.empty());
      for (const Workload& w : workloads) {
        CAPTURE(w.name);
        CHECK(w.name.starts_with("example-"));
        CHECK_FALSE(w.description.empty());
        CHECK(w.source_file == file);
        const ConvProblem& p = w.problem;
        ops.insert(p.op);
        (p.transposed() ? transposed_ranks : conv_ranks).insert(p.spatial_rank);
        // Multiply-adds of the direct formula (an upper bound for transposed ones): <= 0.15 G MACs = 0.3 GFLOP.
        const std::int64_t macs = p.transposed() ? p.input_elements() * p.weight_dim1() * p.kernel_volume()
                                                 : p.output_elements() * p.weight_dim1() * p.kernel_volume();
        CHECK(macs <= 150'000'000);
      }
    }
    CHECK(ops.size() == 2);
    CHECK(conv_ranks == std::set<int>{1, 2, 3});
    CHECK(transposed_ranks == std::set<int>{1, 2, 3});
  }

  TEST_CASE("spec examples: the shapes their descriptions promise") {
    const Workload dilated = load_one(kExamplesDir + "/conv2d_dilated_asymmetric.yaml");
    CHECK(dilated.problem.pad_before == pads(2, 6));
    CHECK(dilated.problem.pad_after == pads(3, 5));
    CHECK(dilated.problem.output() == dims(49, 39));

    const Workload grouped = load_one(kExamplesDir + "/conv2d_grouped.yaml");
    CHECK(grouped.problem.groups == 4);
    CHECK(grouped.problem.output() == dims(32, 32));

    const Workload depthwise = load_one(kExamplesDir + "/conv2d_depthwise.yaml");
    CHECK(depthwise.problem.groups == depthwise.problem.in_channels);
    CHECK(depthwise.problem.bias);

    const Workload valid = load_one(kExamplesDir + "/conv2d_depthwise_valid.yaml");
    CHECK(valid.problem.groups == valid.problem.in_channels);
    CHECK(valid.problem.output() == dims(32, 66));
    CHECK(valid.problem.output()[1] % 4 == 2);  // rows 2 mod 4 floats long, as problem 84's 510

    const Workload strided = load_one(kExamplesDir + "/conv2d_depthwise_strided.yaml");
    CHECK(strided.problem.groups == strided.problem.in_channels);
    CHECK(strided.problem.out_channels == 2 * strided.problem.in_channels);  // depth multiplier 2
    CHECK(strided.problem.output() == dims(56, 56));

    const Workload line = load_one(kExamplesDir + "/conv1d_depthwise.yaml");
    CHECK(line.problem.groups == line.problem.in_channels);
    CHECK(line.problem.output() == dims(3000));

    const Workload narrow = load_one(kExamplesDir + "/conv2d_grouped_narrow.yaml");
    CHECK(narrow.problem.in_channels_per_group() == 4);
    CHECK(narrow.problem.output() == dims(56, 56));

    const Workload video = load_one(kExamplesDir + "/conv3d_depthwise.yaml");
    CHECK(video.problem.groups == video.problem.in_channels);
    CHECK(video.problem.output() == dims(8, 28, 28));

    const Workload t1 = load_one(kExamplesDir + "/conv_transpose1d.yaml");
    CHECK(t1.problem.output_padding == pads(1));
    CHECK(t1.problem.output() == dims(513));

    const Workload t2 = load_one(kExamplesDir + "/conv_transpose2d_grouped.yaml");
    CHECK(t2.problem.groups == 2);
    CHECK(t2.problem.output() == dims(40, 40));

    const Workload head = load_one(kExamplesDir + "/conv2d_head.yaml");
    CHECK(head.problem.out_channels == 1);
    CHECK(head.problem.bias);
    CHECK(head.problem.output() == dims(128, 128));

    const Workload upsample = load_one(kExamplesDir + "/conv_transpose2d_depthwise.yaml");
    CHECK(upsample.problem.groups == upsample.problem.in_channels);
    CHECK(upsample.problem.out_channels == upsample.problem.in_channels);
    CHECK(upsample.problem.output() == dims(512, 512));  // x2

    const Workload t3 = load_one(kExamplesDir + "/conv_transpose3d.yaml");
    CHECK(t3.problem.stride == dims(1, 2, 2));
    CHECK(t3.problem.pad_before == pads(1, 1, 1));
    CHECK(t3.problem.pad_after == pads(1, 0, 1));
    CHECK(t3.problem.output_padding == pads(0, 1, 1));
    CHECK(t3.problem.output() == dims(6, 17, 16));

    const Workload wide = load_one(kExamplesDir + "/conv1d_wide.yaml");
    CHECK(wide.problem.out_channels == 128);  // the 128-row GEMM tiles
    CHECK(wide.problem.output() == dims(498));

    const Workload c3 = load_one(kExamplesDir + "/conv3d.yaml");
    CHECK(c3.problem.output() == dims(16, 12, 12));

    const auto pair = kbench::load_workloads(kExamplesDir + "/two_workloads.yaml");
    REQUIRE(pair.size() == 2);
    CHECK(pair[0].name == "example-list-conv2d-pointwise-strided");
    CHECK(pair[0].source_line == 2);
    CHECK(pair[0].problem.output() == dims(16, 16));
    CHECK(pair[1].name == "example-list-conv-transpose2d-dilated");
    CHECK(pair[1].source_line == 10);
    CHECK(pair[1].problem.output() == dims(36, 36));
  }

  TEST_CASE("spec the whole workloads tree loads with unique names") {
    const auto workloads = kbench::load_workloads(kWorkloadsDir);
    CHECK(workloads.size() >= 14);
    std::set<std::string> names;
    for (const Workload& w : workloads) names.insert(w.name);
    CHECK(names.size() == workloads.size());
  }
}
