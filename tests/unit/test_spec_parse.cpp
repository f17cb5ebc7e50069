// parse_workloads on inline YAML: defaults, every accepted spelling of each key, boundaries that must
// still be accepted, and located errors for problems the file corpus does not cover.
#include <doctest/doctest.h>

#include <string>

#include "core/error.hpp"
#include "spec/load.hpp"

using kbench::ConvProblem;
using kbench::Dims;
using kbench::Workload;

namespace {

Dims dims(std::int64_t a, std::int64_t b = 1, std::int64_t c = 1) { return Dims{{a, b, c}}; }
Dims pads(std::int64_t a, std::int64_t b = 0, std::int64_t c = 0) { return Dims{{a, b, c}}; }

Workload parse_one(const std::string& yaml) {
  const auto workloads = kbench::parse_workloads(yaml, "<string>");
  REQUIRE(workloads.size() == 1);
  return workloads.front();
}

std::string error_of(const std::string& yaml) {
  try {
    kbench::parse_workloads(yaml, "<string>");
  } catch (const kbench::InputError& error) {
    return error.what();
  }
  FAIL("expected an InputError for:\n" << yaml);
  return {};
}

// A valid 2D workload; tests append or override keys (a later key would be a duplicate, so they
// build their own text when they need a different value for one of these).
const std::string kHead = "name: t\nop: conv\n";

}  // namespace

TEST_SUITE("spec") {
  TEST_CASE("spec parse: defaults of every optional key") {
    const Workload w = parse_one(kHead + "input: [2, 3, 10, 12]\nout_channels: 5\nkernel: 3\n");
    const ConvProblem& p = w.problem;
    CHECK(w.name == "t");
    CHECK(w.description.empty());
    CHECK(w.records.empty());
    CHECK(w.source_file == "<string>");
    CHECK(w.source_line == 1);
    CHECK(p.dtype == kbench::DType::fp32);
    CHECK(p.layout == kbench::Layout::nchw);
    CHECK(p.spatial_rank == 2);
    CHECK(p.batch == 2);
    CHECK(p.in_channels == 3);
    CHECK(p.out_channels == 5);
    CHECK(p.input == dims(10, 12));
    CHECK(p.kernel == dims(3, 3));
    CHECK(p.stride == dims(1, 1));
    CHECK(p.dilation == dims(1, 1));
    CHECK(p.pad_before == pads(0, 0));
    CHECK(p.pad_after == pads(0, 0));
    CHECK(p.output_padding == pads(0, 0));
    CHECK(p.groups == 1);
    CHECK_FALSE(p.bias);
    CHECK(p.output() == dims(8, 10));
  }

  TEST_CASE("spec parse: every dtype, and every layout name at the ranks it is written for") {
    const auto problem_of = [](const std::string& keys, const std::string& input) {
      return parse_one(kHead + keys + "input: " + input + "\nout_channels: 2\nkernel: 1\n").problem;
    };
    CHECK(problem_of("dtype: fp16\n", "[1, 2, 4, 4]").dtype == kbench::DType::fp16);
    CHECK(problem_of("dtype: bf16\n", "[1, 2, 4, 4]").dtype == kbench::DType::bf16);
    CHECK(problem_of("dtype: fp32\n", "[1, 2, 4, 4]").dtype == kbench::DType::fp32);
    for (const std::string input : {"[1, 2, 4]", "[1, 2, 4, 4]", "[1, 2, 4, 4, 4]"}) {
      CAPTURE(input);
      CHECK(problem_of("layout: nchw\n", input).layout == kbench::Layout::nchw);
      CHECK(problem_of("layout: nhwc\n", input).layout == kbench::Layout::nhwc);
    }
    CHECK(problem_of("layout: ncw\n", "[1, 2, 4]").layout == kbench::Layout::nchw);
    CHECK(problem_of("layout: nwc\n", "[1, 2, 4]").layout == kbench::Layout::nhwc);
    CHECK(problem_of("layout: ncdhw\n", "[1, 2, 4, 4, 4]").layout == kbench::Layout::nchw);
    CHECK(problem_of("layout: ndhwc\n", "[1, 2, 4, 4, 4]").layout == kbench::Layout::nhwc);
    // The layout may come before input in the file: its rank check waits for input.
    CHECK(error_of(kHead + "layout: ncdhw\ninput: [1, 2, 4]\nout_channels: 2\nkernel: 1\n") ==
          "<string>:3:9: layout: layout ncdhw is the 3-D name, but the input has 1 spatial dim; expected nchw or nhwc "
          "(or their 1-D names ncw and nwc)");
    CHECK(error_of(kHead + "layout: NHWC\ninput: [1, 2, 4, 4]\nout_channels: 2\nkernel: 1\n")
              .starts_with("<string>:3:9: layout: unknown layout 'NHWC' (did you mean 'nhwc'?)"));
    CHECK(error_of(kHead + "format: nhwc\ninput: [1, 2, 4, 4]\nout_channels: 2\nkernel: 1\n")
              .starts_with("<string>:3:1: format: unknown key 'format' (did you mean 'layout'?)"));
  }

  TEST_CASE("spec parse: dims past the spatial rank keep their neutral values") {
    const Workload w = parse_one(kHead +
                                 "input: [1, 2, 9]\nout_channels: 2\nkernel: [3]\nstride: [2]\n"
                                 "padding: [[1, 2]]\ndilation: 2\n");
    const ConvProblem& p = w.problem;
    CHECK(p.spatial_rank == 1);
    CHECK(p.input == dims(9));
    CHECK(p.kernel == dims(3));
    CHECK(p.stride == dims(2));
    CHECK(p.dilation == dims(2));
    CHECK(p.pad_before == pads(1));
    CHECK(p.pad_after == pads(2));
    CHECK(p.output() == dims(4));  // (9 + 1 + 2 - 5) / 2 + 1
  }

  TEST_CASE("spec parse: padding as scalar, per-dim list, pairs, and a mix") {
    const std::string base = kHead + "input: [1, 1, 9, 9, 9]\nout_channels: 1\nkernel: 3\n";
    CHECK(parse_one(base + "padding: 2").problem.pad_before == pads(2, 2, 2));
    CHECK(parse_one(base + "padding: 2").problem.pad_after == pads(2, 2, 2));
    const ConvProblem per_dim = parse_one(base + "padding: [0, 1, 2]").problem;
    CHECK(per_dim.pad_before == pads(0, 1, 2));
    CHECK(per_dim.pad_after == pads(0, 1, 2));
    const ConvProblem mixed = parse_one(base + "padding: [[0, 1], 2, [3, 0]]").problem;
    CHECK(mixed.pad_before == pads(0, 2, 3));
    CHECK(mixed.pad_after == pads(1, 2, 0));
    CHECK(mixed.output() == dims(8, 11, 10));
    const ConvProblem block = parse_one(base + "padding:\n  - [1, 0]\n  - 0\n  - [0, 1]\n").problem;
    CHECK(block.pad_before == pads(1, 0, 0));
    CHECK(block.pad_after == pads(0, 0, 1));
  }

  TEST_CASE("spec parse: conv_transpose with asymmetric cropping, output_padding under dilation") {
    const Workload w = parse_one(
        "name: t\nop: conv_transpose\ninput: [1, 4, 5, 6]\nout_channels: 6\nkernel: [3, 2]\n"
        "stride: [1, 2]\ndilation: [2, 1]\npadding: [[1, 0], 0]\noutput_padding: [1, 1]\ngroups: 2\nbias: true\n");
    const ConvProblem& p = w.problem;
    CHECK(p.transposed());
    CHECK(p.groups == 2);
    CHECK(p.bias);
    // PyTorch's rule is "smaller than either stride or dilation": dim 0 has stride 1 but dilation 2.
    CHECK(p.output_padding == pads(1, 1));
    CHECK(p.pad_before == pads(1, 0));
    CHECK(p.pad_after == pads(0, 0));
    CHECK(p.output() == dims(4 - 1 + 4 + 1 + 1, 10 + 1 + 1 + 1));
  }

  TEST_CASE("spec parse: records, with and without stdev, integers accepted as milliseconds") {
    const Workload w = parse_one(kHead +
                                 "input: [1, 1, 4]\nout_channels: 1\nkernel: 1\nrecords:\n"
                                 "  - {hardware: GPU A, implementation: eager, ms: 2, stdev_ms: 0, source: s1, math: tf32}\n"
                                 "  - hardware: GPU B\n    implementation: compiled\n    ms: .5\n    source: s2\n");
    REQUIRE(w.records.size() == 2);
    CHECK(w.records[0].math == kbench::MathMode::tf32);
    CHECK_FALSE(w.records[1].math.has_value());  // the source does not say
    CHECK(w.records[0].hardware == "GPU A");
    CHECK(w.records[0].ms == 2.0);
    CHECK(w.records[0].stdev_ms == 0.0);
    CHECK(w.records[1].implementation == "compiled");
    CHECK(w.records[1].ms == 0.5);
    CHECK(w.records[1].stdev_ms < 0);
    CHECK(w.records[1].source == "s2");
  }

  TEST_CASE("spec parse: several YAML documents, lists, anchors and aliases") {
    const auto workloads = kbench::parse_workloads(
        "name: a\nop: conv\ninput: [1, 2, 8]\nout_channels: 2\nkernel: 1\n"
        "---\n"
        "- name: b\n  op: conv\n  input: &shape [1, 2, 8]\n  out_channels: 4\n  kernel: &k 3\n"
        "- name: c\n  op: conv_transpose\n  input: *shape\n  out_channels: 2\n  kernel: *k\n"
        "---\n",
        "<multi>");
    REQUIRE(workloads.size() == 3);
    CHECK(workloads[0].name == "a");
    CHECK(workloads[1].name == "b");
    CHECK(workloads[1].source_line == 7);
    CHECK(workloads[2].name == "c");
    CHECK(workloads[2].source_line == 12);
    // Aliases (within one document; YAML anchors do not cross `---`) resolve to the anchored values.
    CHECK(workloads[2].problem.input == dims(8));
    CHECK(workloads[2].problem.kernel == dims(3));
  }

  TEST_CASE("spec parse: the largest accepted sizes are accepted") {
    // One dim of 2^31-1 and a tensor of exactly 2^40 elements are on the allowed side of the limits.
    const Workload longest = parse_one(kHead + "input: [1, 1, 2147483647]\nout_channels: 1\nkernel: 1\n");
    CHECK(longest.problem.input == dims(2147483647));
    const Workload largest = parse_one(kHead + "input: [1024, 1024, 1024, 1024]\nout_channels: 1\nkernel: 1\n");
    CHECK(largest.problem.input_elements() == std::int64_t{1} << 40);
  }

  TEST_CASE("spec parse: names may be quoted, numeric or dotted") {
    CHECK(parse_one("name: 'v1.2_conv-a'\nop: conv\ninput: [1, 1, 1]\nout_channels: 1\nkernel: 1\n").name ==
          "v1.2_conv-a");
    CHECK(parse_one("name: 123\nop: conv\ninput: [1, 1, 1]\nout_channels: 1\nkernel: 1\n").name == "123");
  }

  TEST_CASE("spec parse: errors inside the second workload of a list point into it") {
    const std::string message = error_of(
        "- name: ok\n  op: conv\n  input: [1, 1, 4]\n  out_channels: 1\n  kernel: 1\n"
        "- name: broken\n  op: conv\n  input: [1, 1, 4, 4]\n  out_channels: 1\n  kernel: 1\n  stride: [1, -2]\n");
    CHECK(message == "<string>:11:15: stride[1]: got -2; expected an integer from 1 to 2147483647 (2^31-1)");
  }

  TEST_CASE("spec parse: a rule about a field written as one integer points at that integer") {
    const std::string message = error_of(kHead + "input: [1, 1, 2, 2]\nout_channels: 1\nkernel: 3\n");
    CHECK(
        message.starts_with("<string>:5:9: kernel: kernel size can't be greater than actual input size: in "
                            "spatial dim 0 the dilated kernel spans 3"));
  }

  TEST_CASE("spec parse: a rank mismatch blames the odd one out") {
    // Lists disagreeing among themselves: input decides, and the list that differs from it is blamed.
    CHECK(error_of(kHead + "input: [1, 1, 8, 8]\nout_channels: 1\nkernel: [3, 3]\nstride: [1, 1, 1]\n")
              .starts_with("<string>:6:9: stride: got 3 entries but input has 2 spatial dims"));
    // One list against input: input decides.
    CHECK(error_of(kHead + "input: [1, 1, 8, 8]\nout_channels: 1\nkernel: [3, 3, 3]\n")
              .starts_with("<string>:5:9: kernel: got 3 entries but input has 2 spatial dims"));
    // Two lists agreeing against input: input is blamed.
    CHECK(
        error_of(kHead + "input: [1, 1, 8]\nout_channels: 1\nkernel: [3, 3]\ndilation: [1, 2]\n")
            .starts_with("<string>:3:8: input: got 1 spatial size but kernel and dilation all have 2 entries; expected "
                         "[N, C] and 2 spatial sizes (4 entries) to match them, or those lists with 1 entry"));
  }

  TEST_CASE("spec parse: more located errors") {
    CHECK(error_of("") ==
          "<string>:1:1: (top level): the file holds no workload (empty or only comments); "
          "expected a workload mapping or a list of them");
    CHECK(error_of(kHead + "input: [1, 1, 4]\nout_channels: 1\nkernel: 1\n? [a, b]\n: 1\n")
              .starts_with("<string>:6:3: (key): got a list as a key; expected a key name"));
    CHECK(error_of(kHead + "input: 8\nout_channels: 1\nkernel: 1\n")
              .starts_with("<string>:3:8: input: got the integer 8; expected a list [N, C, spatial...]"));
    CHECK(error_of(kHead + "input: [1, 1, 4]\nout_channels: 1\nkernel: {size: 3}\n")
              .starts_with("<string>:5:9: kernel: got a mapping; expected an integer from 1"));
    CHECK(error_of(kHead + "input: [1, 1, 4]\nout_channels: 1\nkernel: 1\ndescription: [a]\n")
              .starts_with("<string>:6:14: description: got a list; expected text"));
    CHECK(error_of(kHead + "input: [1, 1, 4]\nout_channels: 1\nkernel: 1\nrecords: [5]\n")
              .starts_with("<string>:6:11: records[0]: got the integer 5; expected a record mapping"));
    CHECK(error_of(kHead + "input: [1, 1, 4]\nout_channels: 1\nkernel: 1\nrecords:\n"
                           "  - {hardware: h, implementation: i, ms: 1, stdev_ms: -0.5, source: s}\n")
              .starts_with(
                  "<string>:7:55: records[0].stdev_ms: got -0.5; expected a finite number of milliseconds >= 0"));
    CHECK(error_of(kHead + "input: [1, 1, 4]\nout_channels: 1\nkernel: 1\nrecords:\n"
                           "  - {hardware: h, implementation: i, ms: 1e999, source: s}\n")
              .starts_with("<string>:7:42: records[0].ms: got 1e999; expected a finite number"));
    CHECK(error_of(kHead + "input: [1, 1, 4]\nout_channels: 1\nkernel: 1\nbias: 1\n")
              .starts_with("<string>:6:7: bias: got the integer 1; expected true or false"));
    CHECK(error_of("name: -lead\nop: conv\ninput: [1, 1, 4]\nout_channels: 1\nkernel: 1\n")
              .starts_with("<string>:1:7: name: '-lead' has '-' at position 1"));
    CHECK(error_of(kHead + "input: [1, 1, 4]\nout_channels: 1\nkernel: 1\nbatch: 8\n")
              .starts_with("<string>:6:1: batch: unknown key 'batch' (did you mean 'input'?)"));
    CHECK(error_of(kHead + "input: [1, 1, 4]\nout_channels: 1\nkernel: 1\nPadding: 1\n")
              .starts_with("<string>:6:1: Padding: unknown key 'Padding' (did you mean 'padding'?)"));
  }
}
