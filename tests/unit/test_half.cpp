// fp16 and bf16 rounding (core/half.hpp): exhaustive round trips, against numpy's float16 on the cases
// that decide a rounding (tests/data/golden/fp16_rounding.txt), and bf16 against round to nearest even
// computed from its definition in exact fp64 arithmetic.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>

#include "core/half.hpp"

using namespace kbench;

namespace {

bool is_nan_fp16(std::uint16_t h) { return (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu) != 0; }

// bf16 round to nearest even from the definition: of the two bf16 values around x (its fp32 bits
// truncated, and the next one up in magnitude), the nearer in exact arithmetic; on a tie, the even one.
// Past the largest finite bf16 the next one up is Inf, which IEEE rounding reaches as if it were 2^128.
std::uint16_t bf16_by_definition(float x) {
  const std::uint32_t bits = float_bits(x);
  const auto down = static_cast<std::uint16_t>(bits >> 16);
  const auto up = static_cast<std::uint16_t>(down + 1);
  const double lo = std::fabs(static_cast<double>(float_from_bf16_bits(down)));
  const double hi =
      (up & 0x7fffu) == 0x7f80u ? std::ldexp(1.0, 128) : std::fabs(static_cast<double>(float_from_bf16_bits(up)));
  const double a = std::fabs(static_cast<double>(x));
  if (a - lo < hi - a) return down;
  if (a - lo > hi - a) return up;
  return (down & 1u) ? up : down;
}

}  // namespace

TEST_CASE("every fp16 value widens to fp32 and rounds back to itself") {
  for (std::uint32_t h = 0; h <= 0xffffu; ++h) {
    const auto half = static_cast<std::uint16_t>(h);
    const float widened = float_from_fp16_bits(half);
    if (is_nan_fp16(half)) {
      CHECK(std::isnan(widened));
      CHECK(is_nan_fp16(fp16_bits_from_float(widened)));
      continue;
    }
    CHECK(fp16_bits_from_float(widened) == half);
  }
}

TEST_CASE("fp16 widening: known values") {
  CHECK(float_from_fp16_bits(0x3c00) == 1.0f);
  CHECK(float_from_fp16_bits(0x7bff) == 65504.0f);
  CHECK(float_from_fp16_bits(0x0001) == std::ldexp(1.0f, -24));  // smallest subnormal
  CHECK(float_from_fp16_bits(0x0400) == std::ldexp(1.0f, -14));  // smallest normal
  CHECK(float_from_fp16_bits(0xc000) == -2.0f);
  CHECK(std::isinf(float_from_fp16_bits(0x7c00)));
  CHECK(std::signbit(float_from_fp16_bits(0x8000)));
}

TEST_CASE("fp32 to fp16 matches numpy's float16 on the deciding cases") {
  std::ifstream in(std::string(KBENCH_SOURCE_DIR) + "/tests/data/golden/fp16_rounding.txt");
  REQUIRE(in);
  std::string line;
  int checked = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::uint32_t fp32 = 0, fp16 = 0;
    fields >> std::hex >> fp32 >> fp16;
    const auto expected = static_cast<std::uint16_t>(fp16);
    const std::uint16_t got = fp16_bits_from_float(float_from_bits(fp32));
    INFO("fp32 bits " << std::hex << fp32);
    if (is_nan_fp16(expected))
      CHECK(is_nan_fp16(got));
    else
      CHECK(got == expected);
    ++checked;
  }
  CHECK(checked > 7000);
}

TEST_CASE("fp32 to fp16: ties to even, subnormals, overflow, NaN") {
  CHECK(fp16_bits_from_float(1.0f + std::ldexp(1.0f, -11)) == 0x3c00);      // tie: stays on even 1.0
  CHECK(fp16_bits_from_float(1.0f + 3 * std::ldexp(1.0f, -11)) == 0x3c02);  // tie: up to even
  CHECK(fp16_bits_from_float(std::ldexp(1.0f, -25)) == 0x0000);             // half the smallest: even zero
  CHECK(fp16_bits_from_float(std::nextafter(std::ldexp(1.0f, -25), 1.0f)) == 0x0001);
  CHECK(fp16_bits_from_float(65519.99f) == 0x7bff);
  CHECK(fp16_bits_from_float(65520.0f) == 0x7c00);
  CHECK(fp16_bits_from_float(-std::numeric_limits<float>::infinity()) == 0xfc00);
  CHECK(is_nan_fp16(fp16_bits_from_float(std::numeric_limits<float>::quiet_NaN())));
  CHECK(fp16_bits_from_float(-0.0f) == 0x8000);
}

TEST_CASE("fp32 to bf16 is round to nearest even by its definition") {
  std::mt19937 rng(7);
  for (int i = 0; i < 200000; ++i) {
    const float x = float_from_bits(static_cast<std::uint32_t>(rng()));
    if (std::isnan(x)) {
      CHECK(std::isnan(float_from_bf16_bits(bf16_bits_from_float(x))));
      continue;
    }
    if (std::isinf(x)) continue;
    INFO("x bits " << std::hex << float_bits(x));
    CHECK(bf16_bits_from_float(x) == bf16_by_definition(x));
  }
  CHECK(bf16_bits_from_float(1.0f + std::ldexp(1.0f, -8)) == 0x3f80);        // tie: stays on even 1.0
  CHECK(bf16_bits_from_float(1.0f + 3 * std::ldexp(1.0f, -8)) == 0x3f82);    // tie: up to even
  CHECK(bf16_bits_from_float(std::numeric_limits<float>::max()) == 0x7f80);  // rounds past the largest: Inf
  CHECK(bf16_bits_from_float(std::numeric_limits<float>::denorm_min()) == 0x0000);
  CHECK(std::isnan(float_from_bf16_bits(bf16_bits_from_float(std::numeric_limits<float>::quiet_NaN()))));
}

TEST_CASE("round_to_dtype keeps fp32, rounds fp16 and bf16") {
  CHECK(round_to_dtype(DType::fp32, 0.1f) == 0.1f);
  CHECK(round_to_dtype(DType::fp16, 0.1f) == float_from_fp16_bits(0x2e66));
  CHECK(round_to_dtype(DType::bf16, 0.1f) == float_from_bf16_bits(0x3dcd));
  CHECK(unit_roundoff(DType::fp16) == std::ldexp(1.0, -11));
  CHECK(unit_roundoff(DType::bf16) == std::ldexp(1.0, -8));
}
