// Sweeps: `sweep:` in a spec and --axis on the command line expand to the Cartesian product of their
// values, first axis slowest, each point an ordinary validated workload named after its values and
// remembering them; bad values are refused naming the value (and, in a spec, its line and column).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/error.hpp"
#include "report/json_report.hpp"
#include "roofline/device_peaks.hpp"
#include "spec/load.hpp"
#include "spec/sweep.hpp"

using kbench::AxisOverride;
using kbench::InputError;
using kbench::SweepValue;
using kbench::Workload;

namespace {

std::vector<Workload> parse(const std::string& text) { return kbench::parse_workloads(text, "s.yaml"); }

std::vector<std::string> names_of(const std::vector<Workload>& workloads) {
  std::vector<std::string> names;
  for (const Workload& w : workloads) names.push_back(w.name);
  return names;
}

const char* kBase = R"(name: conv
op: conv
input: [2, 4, 16, 16]
out_channels: 8
kernel: 3
)";

std::string error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const InputError& error) {
    return error.what();
  }
  return "(no error)";
}

}  // namespace

TEST_SUITE("sweep") {
  TEST_CASE("sweep: the Cartesian product, first axis slowest, names suffixed in axis order") {
    const auto workloads = parse(std::string(kBase) + "sweep: {batch: [1, 8], kernel: [3, [3, 5], 1]}\n");
    CHECK(names_of(workloads) == std::vector<std::string>{
                                     "conv.batch-1.kernel-3",
                                     "conv.batch-1.kernel-3x5",
                                     "conv.batch-1.kernel-1",
                                     "conv.batch-8.kernel-3",
                                     "conv.batch-8.kernel-3x5",
                                     "conv.batch-8.kernel-1",
                                 });
    const Workload& w = workloads[4];
    CHECK(w.problem.batch == 8);
    CHECK(w.problem.in_channels == 4);  // batch replaces input[0] only
    CHECK(w.problem.kernel == kbench::Dims{{3, 5, 1}});
    CHECK(w.sweep_origin == "conv");
    CHECK(w.sweep == std::vector<SweepValue>{{"batch", "8"}, {"kernel", "3x5"}});
    CHECK(w.source_file == "s.yaml");
    CHECK(w.source_line == 1);
  }

  TEST_CASE("sweep: every problem key can be swept, and a key the spec leaves out is added") {
    const auto workloads = parse(R"(name: t
op: conv_transpose
input: [1, 4, 8, 8]
out_channels: 4
kernel: 3
stride: 2
sweep:
  groups: [1, 2]
  padding: [0, [[1, 0], 1]]
  output_padding: [0, 1]
  bias: [false, true]
  dilation: [1, 2]
  out_channels: [4, 8]
  input: [[1, 4, 8, 8], [2, 4, 6, 10]]
  stride: [2]
  dtype: [fp32, bf16]
  layout: [nhwc]
)");
    CHECK(workloads.size() == 2 * 2 * 2 * 2 * 2 * 2 * 2 * 2);
    const Workload& last = workloads.back();
    CHECK(last.problem.groups == 2);
    CHECK(last.problem.pad_before == kbench::Dims{{1, 1, 0}});
    CHECK(last.problem.pad_after == kbench::Dims{{0, 1, 0}});
    CHECK(last.problem.output_padding == kbench::Dims{{1, 1, 0}});
    CHECK(last.problem.bias);
    CHECK(last.problem.input == kbench::Dims{{6, 10, 1}});
    CHECK(last.problem.dtype == kbench::DType::bf16);
    CHECK(last.problem.layout == kbench::Layout::nhwc);
    CHECK(last.name ==
          "t.groups-2.padding-1_0x1_1.output_padding-1.bias-true.dilation-2.out_channels-8.input-2x4x6x10.stride-2."
          "dtype-bf16.layout-nhwc");
  }

  TEST_CASE("sweep: a layout's rank-specific name is the layout, and points are named by nchw / nhwc") {
    const auto workloads = parse(R"(name: l
op: conv
input: [1, 4, 8]
out_channels: 4
kernel: 3
sweep:
  layout: [ncw, nwc]
)");
    REQUIRE(workloads.size() == 2);
    CHECK(workloads[0].problem.layout == kbench::Layout::nchw);
    CHECK(workloads[1].problem.layout == kbench::Layout::nhwc);
    CHECK(workloads[1].name == "l.layout-nhwc");
    const auto swept = kbench::apply_axes({workloads[0]}, {kbench::parse_axis_flag("layout=nwc")});
    CHECK(swept[0].problem.layout == kbench::Layout::nhwc);
    CHECK(swept[0].name == "l.layout-nhwc");
  }

  TEST_CASE("sweep: a point's origin and values are in the results document and read back, others have none") {
    kbench::RunReport report;
    report.kbench_version = "test";
    report.peaks = *kbench::find_device("h100-sxm");
    report.settings.math_modes = {kbench::MathMode::fp32};
    for (const Workload& w : parse(std::string(kBase) + "sweep: {batch: [1, 8], kernel: [3, [3, 5]]}\n")) {
      kbench::WorkloadSummary summary;
      summary.workload = w;
      report.workloads.push_back(summary);
    }
    report.workloads.push_back(report.workloads.front());
    report.workloads.back().workload.name = "plain";
    report.workloads.back().workload.sweep_origin.clear();
    report.workloads.back().workload.sweep.clear();
    const auto document = kbench::report_to_json(report);
    CHECK(document["workloads"][3]["sweep"] ==
          nlohmann::ordered_json::parse(
              R"({"origin": "conv", "axes": [{"key": "batch", "value": "8"}, {"key": "kernel", "value": "3x5"}]})"));
    CHECK_FALSE(document["workloads"][4].contains("sweep"));
    const kbench::RunReport back = kbench::read_json_report(document);
    for (std::size_t i = 0; i < report.workloads.size(); ++i) {
      CAPTURE(i);
      CHECK(back.workloads[i].workload.sweep_origin == report.workloads[i].workload.sweep_origin);
      CHECK(back.workloads[i].workload.sweep == report.workloads[i].workload.sweep);
    }
  }

  TEST_CASE("sweep: in a list of workloads, each swept entry is replaced by its points in place") {
    const auto workloads = parse(R"(- name: a
  op: conv
  input: [1, 4, 8, 8]
  out_channels: 4
  kernel: 3
- name: b
  op: conv
  input: [1, 4, 8, 8]
  out_channels: 4
  kernel: 3
  sweep: {stride: [1, 2]}
- name: c
  op: conv
  input: [1, 4, 8, 8]
  out_channels: 4
  kernel: 1
)");
    CHECK(names_of(workloads) == std::vector<std::string>{"a", "b.stride-1", "b.stride-2", "c"});
    CHECK(workloads[0].sweep_origin.empty());
    CHECK(workloads[2].source_line == 6);
    CHECK(workloads[3].source_line == 12);
  }

  TEST_CASE("sweep: errors name the file, the line and column of the value, and the point") {
    CHECK(error_of(std::string(kBase) + "sweep: {kernel: [3, 17]}\n") ==
          "s.yaml:6:21: sweep.kernel[1]: kernel size can't be greater than actual input size: in spatial dim 0 the "
          "dilated kernel spans 17 (kernel 17, dilation 1) but the padded input is 16 (input 16 + padding 0+0), so the "
          "calculated output size is 0; expected a dilated kernel no wider than the padded input (in the sweep point "
          "kernel=17)");
    CHECK(error_of(std::string(kBase) + "sweep: {dtype: [fp32, fp61]}\n") ==
          "s.yaml:6:23: sweep.dtype[1]: unknown dtype 'fp61' (did you mean 'fp16'?); expected fp32, fp16 or bf16 (in "
          "the sweep point dtype=fp61)");
    CHECK(
        error_of(std::string(kBase) + "sweep: {layout: [nhwc, ncw]}\n") ==
        "s.yaml:6:24: sweep.layout[1]: layout ncw is the 1-D name, but the input has 2 spatial dims; expected nchw or "
        "nhwc (in the sweep point layout=ncw)");
    CHECK(error_of(std::string(kBase) + "sweep: {kernel: [3, 2.5]}\n")
              .starts_with("s.yaml:6:21: sweep.kernel[1]: got the float 2.5"));
    CHECK(error_of(std::string(kBase) + "sweep: {groups: [3]}\n")
              .starts_with("s.yaml:6:18: sweep.groups[0]: in_channels must be divisible by groups"));
    CHECK(error_of(std::string(kBase) + "sweep: {batch: [1, 8]}\nsweep: {batch: [2]}\n").find("appears twice") !=
          std::string::npos);
    CHECK(error_of(std::string(kBase) + "sweep: {}\n").starts_with("s.yaml:6:8: sweep: got an empty mapping"));
    CHECK(error_of(std::string(kBase) + "sweep: [batch]\n")
              .starts_with("s.yaml:6:8: sweep: got a list; expected a mapping"));
    CHECK(error_of(std::string(kBase) + "sweep: {name: [a, b]}\n")
              .starts_with("s.yaml:6:9: sweep.name: unknown key 'name'"));
  }

  TEST_CASE("sweep: two points with one name are a duplicate, as any two workloads") {
    CHECK(error_of(std::string(kBase) + "sweep: {kernel: [3, 3]}\n") ==
          "s.yaml:1:7: name: duplicate workload name 'conv.kernel-3', first defined at s.yaml:1:7; expected each name "
          "once per load");
  }

  TEST_CASE("sweep: the point count is bounded") {
    std::string values = "[";
    for (int i = 1; i <= 101; ++i) values += std::to_string(i) + (i < 101 ? ", " : "]");
    const std::string message =
        error_of(std::string(kBase) + "sweep: {batch: " + values + ", out_channels: " + values + "}\n");
    CHECK(message.find("the sweep has 10201 or more points; expected at most 10000") != std::string::npos);
  }

  TEST_CASE("axis: KEY=V1,V2 parses, unknown keys and empty values are refused naming --axis") {
    const AxisOverride axis = kbench::parse_axis_flag("kernel=3,3x5,1");
    CHECK(axis.key == "kernel");
    CHECK(axis.values == std::vector<std::string>{"3", "3x5", "1"});
    CHECK_THROWS_WITH_AS(kbench::parse_axis_flag("strde=1,2"),
                         doctest::Contains("--axis strde=1,2: unknown key 'strde' (did you mean 'stride'?)"),
                         InputError);
    CHECK_THROWS_WITH_AS(kbench::parse_axis_flag("batch"), doctest::Contains("--axis: got 'batch'; expected KEY=V1,V2"),
                         InputError);
    CHECK_THROWS_WITH_AS(kbench::parse_axis_flag("batch=1,,8"), doctest::Contains("an empty value"), InputError);
    CHECK_THROWS_WITH_AS(kbench::parse_axis_flag("=1"), doctest::Contains("expected KEY=V1,V2"), InputError);
  }

  TEST_CASE("axis: applied to parsed workloads, the same expansion and names as a spec's sweep") {
    const auto base = parse(kBase);
    const auto swept =
        kbench::apply_axes(base, {kbench::parse_axis_flag("batch=1,8"), kbench::parse_axis_flag("kernel=3,3x5,1")});
    const auto from_spec = parse(std::string(kBase) + "sweep: {batch: [1, 8], kernel: [3, [3, 5], 1]}\n");
    REQUIRE(swept.size() == from_spec.size());
    for (std::size_t i = 0; i < swept.size(); ++i) {
      CAPTURE(i);
      CHECK(swept[i].name == from_spec[i].name);
      CHECK(swept[i].problem == from_spec[i].problem);
      CHECK(swept[i].sweep == from_spec[i].sweep);
      CHECK(swept[i].sweep_origin == "conv");
    }
    CHECK(kbench::apply_axes(base, {}).front().name == "conv");
  }

  TEST_CASE("axis: on a swept workload, the same key replaces its value and a new key is added") {
    const auto from_spec = parse(std::string(kBase) + "sweep: {batch: [1, 8]}\n");
    const auto swept = kbench::apply_axes(
        {from_spec[0]}, {kbench::parse_axis_flag("batch=4"), kbench::parse_axis_flag("padding=1,1_0x2")});
    CHECK(names_of(swept) == std::vector<std::string>{"conv.batch-4.padding-1", "conv.batch-4.padding-1_0x2_2"});
    CHECK(swept[1].problem.pad_before == kbench::Dims{{1, 2, 0}});
    CHECK(swept[1].problem.pad_after == kbench::Dims{{0, 2, 0}});
  }

  TEST_CASE("axis: values the problem refuses are errors naming the value or the workload") {
    const auto base = parse(kBase);
    const auto error_with = [&](const std::string& flag) {
      try {
        kbench::apply_axes(base, {kbench::parse_axis_flag(flag)});
      } catch (const InputError& error) {
        return std::string(error.what());
      }
      return std::string("(no error)");
    };
    CHECK(error_with("dtype=fp32,fp8") ==
          "--axis dtype=fp32,fp8: value 'fp8': unknown dtype; expected fp32, fp16 or bf16");
    CHECK(error_with("layout=nhwc,ndhwc") ==
          "--axis layout=nhwc,ndhwc: value 'ndhwc': layout ndhwc is the 3-D name, but the input has 2 spatial dims; "
          "expected nchw or nhwc");
    CHECK(error_with("kernel=3,17").starts_with("--axis kernel=17: workload 'conv': kernel size can't be greater"));
    CHECK(
        error_with("kernel=3x5x7").starts_with("--axis kernel=3x5x7: value '3x5x7': got 3 entries for 2 spatial dims"));
    CHECK(error_with("batch=0").starts_with("--axis batch=0: value '0': '0' is not an integer from 1 to 2147483647"));
    CHECK(error_with("batch=-1").starts_with("--axis batch=-1: value '-1': '-1' is not an integer"));
    CHECK(error_with("stride=2.5").starts_with("--axis stride=2.5: value '2.5': '2.5' is not an integer"));
    CHECK(error_with("bias=yes") == "--axis bias=yes: value 'yes': expected true or false");
    CHECK(error_with("output_padding=1").find("applies only to op: conv_transpose") != std::string::npos);
    CHECK(error_with("input=1x4x16").find("a sweep keeps the spatial rank") != std::string::npos);
    CHECK(error_with("kernel=3,3x3") ==
          "--axis: two points are named 'conv.kernel-3'; expected each value once per axis");
    CHECK(error_with("groups=3")
              .starts_with("--axis groups=3: workload 'conv': in_channels must be divisible by groups"));
  }
}
