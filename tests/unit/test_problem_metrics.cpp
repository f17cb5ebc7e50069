// Shapes, FLOPs and bytes of the four headline workloads against docs (kernelbench-conv.md). The problems
// are written out by hand here, independent of the spec parser.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <vector>

#include "problem/conv_geometry.hpp"
#include "problem/problem_metrics.hpp"
#include "headline_problems.hpp"

using kbench::ConvProblem;
using kbench::Dims;
using kbench::OpKind;
using kbench::testing::headline50;
using kbench::testing::headline76;
using kbench::testing::headline77;
using kbench::testing::headline84;

namespace {

std::string giga(double value, int decimals) { return fmt::format("{:.{}f}", value / 1e9, decimals); }

}  // namespace

TEST_SUITE("metrics") {
  TEST_CASE("problem 76: Conv1d") {
    const ConvProblem p = headline76();
    CHECK(kbench::output_shape(p) == std::vector<std::int64_t>{64, 128, 174758});
    CHECK(kbench::shape_string(kbench::output_shape(p)) == "[64, 128, 174758]");
    CHECK(kbench::weight_shape(p) == std::vector<std::int64_t>{128, 64, 3});
    CHECK(p.input_elements() == 2147450880);  // needs 64-bit offsets
    const kbench::ProblemMetrics m = kbench::compute_metrics(p);
    CHECK(m.flops == 2.0 * 64 * 128 * 64 * 174758 * 3);
    CHECK(giga(m.flops, 1) == "549.7");
    CHECK(m.input_bytes == 4.0 * 64 * 64 * 524280);
    CHECK(m.weight_bytes == 4.0 * 128 * 64 * 3);
    CHECK(m.bias_bytes == 0);
    CHECK(m.output_bytes == 4.0 * 64 * 128 * 174758);
    CHECK(giga(m.bytes(), 3) == "14.316");
    CHECK(fmt::format("{:.0f}", m.arithmetic_intensity()) == "38");
  }

  TEST_CASE("bytes by element size: fp16 and bf16 halve every tensor's bytes, FLOPs and layout change nothing") {
    ConvProblem half = headline50();
    const kbench::ProblemMetrics fp32 = kbench::compute_metrics(half);
    for (const kbench::DType dtype : {kbench::DType::fp16, kbench::DType::bf16}) {
      half.dtype = dtype;
      half.layout = kbench::Layout::nhwc;
      const kbench::ProblemMetrics m = kbench::compute_metrics(half);
      CHECK(m.flops == fp32.flops);
      CHECK(m.input_bytes == fp32.input_bytes / 2);
      CHECK(m.weight_bytes == fp32.weight_bytes / 2);
      CHECK(m.bias_bytes == fp32.bias_bytes / 2);
      CHECK(m.output_bytes == fp32.output_bytes / 2);
    }
    CHECK(kbench::data_text(half) == "bf16 nhwc");
  }

  TEST_CASE("problem 50: Conv2d with bias") {
    const ConvProblem p = headline50();
    CHECK(kbench::output_shape(p) == std::vector<std::int64_t>{256, 96, 55, 55});
    CHECK(kbench::weight_shape(p) == std::vector<std::int64_t>{96, 3, 11, 11});
    const kbench::ProblemMetrics m = kbench::compute_metrics(p);
    // multiply-adds over the 363-long reduction, plus one bias add per output element
    CHECK(m.flops == 2.0 * 256 * 96 * 55 * 55 * 3 * 121 + 256.0 * 96 * 55 * 55);
    CHECK(giga(m.flops, 1) == "54.0");
    CHECK(m.bias_bytes == 4.0 * 96);
    CHECK(giga(m.bytes(), 3) == "0.452");
    CHECK(fmt::format("{:.0f}", m.arithmetic_intensity()) == "120");
  }

  TEST_CASE("problem 84: depthwise Conv2d") {
    const ConvProblem p = headline84();
    CHECK(kbench::output_shape(p) == std::vector<std::int64_t>{64, 128, 254, 510});
    CHECK(kbench::weight_shape(p) == std::vector<std::int64_t>{128, 1, 3, 3});
    const kbench::ProblemMetrics m = kbench::compute_metrics(p);
    CHECK(m.flops == 2.0 * 64 * 128 * 254 * 510 * 9);
    CHECK(giga(m.flops, 1) == "19.1");
    CHECK(giga(m.bytes(), 3) == "8.540");
    CHECK(fmt::format("{:.1f}", m.arithmetic_intensity()) == "2.2");
  }

  TEST_CASE("problem 77: ConvTranspose3d counts only landed taps") {
    const ConvProblem p = headline77();
    CHECK(kbench::output_shape(p) == std::vector<std::int64_t>{16, 64, 33, 65, 65});
    CHECK(kbench::weight_shape(p) == std::vector<std::int64_t>{32, 64, 3, 3, 3});
    // Per dimension, 2i - 1 + 2k misses the output only for (i, k) = (0, 0) and (last, 2):
    // 16*3 - 2 = 46 along D, 32*3 - 2 = 94 along H and W.
    CHECK(kbench::geometry::landed_pairs(p, 0) == 46);
    CHECK(kbench::geometry::landed_pairs(p, 1) == 94);
    CHECK(kbench::geometry::landed_pairs(p, 2) == 94);
    const kbench::ProblemMetrics m = kbench::compute_metrics(p);
    CHECK(m.flops == 2.0 * 16 * 32 * 64 * 46 * 94 * 94);
    CHECK(giga(m.flops, 1) == "26.6");
    // every tap, cropped or not, would be 29.0 G
    CHECK(giga(2.0 * 16 * 32 * 64 * 16 * 32 * 32 * 27, 1) == "29.0");
    CHECK(giga(m.bytes(), 3) == "0.605");
    CHECK(fmt::format("{:.0f}", m.arithmetic_intensity()) == "44");
  }

  TEST_CASE("fp16 halves the bytes, not the FLOPs") {
    ConvProblem p = headline50();
    const kbench::ProblemMetrics fp32 = kbench::compute_metrics(p);
    p.dtype = kbench::DType::fp16;
    const kbench::ProblemMetrics fp16 = kbench::compute_metrics(p);
    CHECK(fp16.flops == fp32.flops);
    CHECK(fp16.bytes() == fp32.bytes() / 2);
  }
}
