// TF32 operands as the tensor-core kernels form them (tf32_bits.hpp): truncation of raw fp32 bits for
// plain TF32, and the big + small split of 3xTF32, with the error bounds their comments promise.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <random>

#include "cuda/common/tf32_bits.hpp"
#include "test_seed.hpp"

namespace kbench {
namespace {

namespace conv = gpu::conv;

}  // namespace

TEST_SUITE("cuda_index") {
  TEST_CASE("TF32 operands: truncation, split and the 3xTF32 product stay within their error bounds") {
    std::mt19937_64 rng(kbench::testing::test_seed(32));
    std::uniform_real_distribution<float> mantissa(1.0f, 2.0f);
    std::uniform_int_distribution<int> exponent(-60, 60);
    double worst_truncation = 0, worst_split = 0, worst_product = 0;
    for (int i = 0; i < 200000; ++i) {
      const float sign = (i % 2 == 0) ? 1.0f : -1.0f;
      const float v = sign * std::ldexp(mantissa(rng), exponent(rng));
      const float w = -sign * std::ldexp(mantissa(rng), exponent(rng) / 4);

      const float truncated = conv::tf32_value_of(conv::float_bits(v));
      CHECK(std::fabs(truncated) <= std::fabs(v));
      worst_truncation = std::max(worst_truncation, std::fabs((double(v) - truncated) / v));

      const conv::Tf32Split s = conv::split_tf32(v);
      CHECK(conv::tf32_value_of(s.big) == conv::bits_float(s.big));  // big is exactly a TF32 value
      const double big = conv::tf32_value_of(s.big), small = conv::tf32_value_of(s.small);
      worst_split = std::max(worst_split, std::fabs((double(v) - (big + small)) / v));

      // What the three products sum: A is split in registers exactly like B.
      const conv::Tf32Split a = conv::split_tf32(w);
      const double a_big = conv::tf32_value_of(a.big), a_small = conv::tf32_value_of(a.small);
      const double product = a_small * big + a_big * small + a_big * big;
      worst_product = std::max(worst_product, std::fabs((product - double(w) * v) / (double(w) * v)));
    }
    CHECK(worst_truncation < std::ldexp(1.0, -10));
    CHECK(worst_truncation > std::ldexp(1.0, -11));  // the bound is reached, not loose
    CHECK(worst_split <= std::ldexp(1.0, -21));
    CHECK(worst_product < std::ldexp(1.0, -19));  // fp32-level (1.9e-6): docs/kernels.md relates it to 1e-4
    // Zeros split into zeros, whatever the sign.
    CHECK(conv::tf32_value_of(conv::split_tf32(0.0f).small) == 0.0f);
    CHECK(conv::tf32_value_of(conv::split_tf32(-0.0f).big) == 0.0f);
  }

}  // TEST_SUITE

}  // namespace kbench
