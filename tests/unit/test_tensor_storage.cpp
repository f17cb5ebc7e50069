// The GPU runtime's storage arithmetic (kernels/runtime/tensor_storage.hpp) on the CPU: what the fill,
// poison, checksum and read-back kernels compute per element, for every dtype and layout.
#include <doctest/doctest.h>

#include <cmath>
#include <set>
#include <vector>

#include "problem/conv_geometry.hpp"
#include "runtime/tensor_storage.hpp"

using namespace kbench;
using gpu::TensorStorage;

namespace {

ConvProblem problem(DType dtype, Layout layout, OpKind op, int rank) {
  ConvProblem p;
  p.op = op;
  p.dtype = dtype;
  p.layout = layout;
  p.spatial_rank = rank;
  p.batch = 2;
  p.in_channels = 6;
  p.out_channels = 4;
  p.groups = 2;
  p.input = rank == 1 ? Dims{{7, 1, 1}} : rank == 2 ? Dims{{5, 3, 1}} : Dims{{3, 4, 2}};
  p.kernel = rank == 1 ? Dims{{3, 1, 1}} : rank == 2 ? Dims{{3, 2, 1}} : Dims{{2, 1, 2}};
  p.bias = true;
  return p;
}

constexpr Operand kOperands[] = {Operand::input, Operand::weight, Operand::bias, Operand::output};
constexpr DType kDTypes[] = {DType::fp32, DType::fp16, DType::bf16};

// The memory a fill writes, simulated: element bits at each offset.
std::vector<std::uint32_t> simulated_fill(const TensorStorage& s, std::uint64_t seed, data::TensorRole role,
                                          float bound) {
  std::vector<std::uint32_t> memory(static_cast<std::size_t>(s.count));
  for (std::int64_t offset = 0; offset < s.count; ++offset)
    memory[static_cast<std::size_t>(offset)] = gpu::seeded_element_bits(s, seed, role, bound, offset);
  return memory;
}

}  // namespace

TEST_CASE("tensor_storage: element counts and bytes by the dtype's size") {
  for (const DType dtype : kDTypes) {
    const ConvProblem p = problem(dtype, Layout::nhwc, OpKind::conv, 2);
    CHECK(gpu::tensor_storage(p, Operand::input).count == p.input_elements());
    CHECK(gpu::tensor_storage(p, Operand::weight).count == p.weight_elements());
    CHECK(gpu::tensor_storage(p, Operand::bias).count == p.bias_elements());
    CHECK(gpu::tensor_storage(p, Operand::output).count == p.output_elements());
    CHECK(gpu::storage_bytes(gpu::tensor_storage(p, Operand::input)) ==
          p.input_elements() * (dtype == DType::fp32 ? 4 : 2));
  }
}

TEST_CASE("tensor_storage: offsets are memory_layout's, a bijection, and the inverse is logical_index") {
  for (const Layout layout : {Layout::nchw, Layout::nhwc})
    for (const OpKind op : {OpKind::conv, OpKind::conv_transpose})
      for (int rank = 1; rank <= 3; ++rank)
        for (const Operand operand : kOperands) {
          const ConvProblem p = problem(DType::fp16, layout, op, rank);
          const TensorStorage s = gpu::tensor_storage(p, operand);
          CAPTURE(to_string(layout));
          CAPTURE(rank);
          CAPTURE(static_cast<int>(operand));
          CHECK(s.channels_last == (layout == Layout::nhwc && operand != Operand::bias));
          std::set<std::int64_t> seen;
          for (std::int64_t logical = 0; logical < s.count; ++logical) {
            const std::int64_t offset = gpu::storage_offset(s, logical);
            REQUIRE(offset == memory_offset(p, operand, logical));
            REQUIRE(gpu::storage_logical(s, offset) == logical);
            REQUIRE(gpu::storage_logical(s, offset) == logical_index(p, operand, offset));
            seen.insert(offset);
          }
          CHECK(static_cast<std::int64_t>(seen.size()) == s.count);
          if (s.count > 0) CHECK(*seen.rbegin() == s.count - 1);
        }
}

TEST_CASE("tensor_storage: an NHWC activation keeps channels contiguous, an NHWC weight is KRSC") {
  const ConvProblem p = problem(DType::bf16, Layout::nhwc, OpKind::conv, 2);
  const TensorStorage x = gpu::tensor_storage(p, Operand::input);
  // x[n=1, c=2, h=3, w=1]: logical ((1*6+2)*5+3)*3+1; memory ((1*5+3)*3+1)*6+2.
  CHECK(gpu::storage_offset(x, ((1 * 6 + 2) * 5 + 3) * 3 + 1) == ((1 * 5 + 3) * 3 + 1) * 6 + 2);
  const TensorStorage w = gpu::tensor_storage(p, Operand::weight);  // [K=4, C/g=3, R=3, S=2] -> [K, R, S, C/g]
  CHECK(gpu::storage_offset(w, ((2 * 3 + 1) * 3 + 2) * 2 + 1) == ((2 * 3 + 2) * 2 + 1) * 3 + 1);
  // A transposed convolution's weight [C_in, C_out/g, k...] -> [C_in, k..., C_out/g].
  const ConvProblem t = problem(DType::bf16, Layout::nhwc, OpKind::conv_transpose, 1);
  const TensorStorage wt = gpu::tensor_storage(t, Operand::weight);  // [6, 2, 3] -> [6, 3, 2]
  CHECK(gpu::storage_offset(wt, (5 * 2 + 1) * 3 + 2) == (5 * 3 + 2) * 2 + 1);
}

TEST_CASE("encode/decode: fp32 bits, fp16 and bf16 patterns, exact on values of the dtype") {
  CHECK(gpu::encode_element(DType::fp32, 1.0f) == 0x3f800000u);
  CHECK(gpu::encode_element(DType::fp16, 1.0f) == 0x3c00u);
  CHECK(gpu::encode_element(DType::bf16, 1.0f) == 0x3f80u);
  CHECK(gpu::encode_element(DType::fp16, -2.5f) == 0xc100u);
  CHECK(gpu::encode_element(DType::bf16, -2.5f) == 0xc020u);
  for (const DType dtype : kDTypes)
    for (const float v : {0.0f, -0.0f, 1.0f, 0.333251953125f, -65504.0f, 6.103515625e-05f, 1e-7f}) {
      const float held = round_to_dtype(dtype, v);
      CHECK(gpu::decode_element(dtype, gpu::encode_element(dtype, held)) == held);
      CHECK(std::signbit(gpu::decode_element(dtype, gpu::encode_element(dtype, held))) == std::signbit(held));
    }
  // 16-bit patterns only: the upper half of a stored 16-bit element is never set.
  CHECK(gpu::encode_element(DType::fp16, -1.0f) <= 0xffffu);
  CHECK(gpu::encode_element(DType::bf16, -1.0f) <= 0xffffu);
}

TEST_CASE("poison is a quiet NaN in every dtype") {
  for (const DType dtype : kDTypes) {
    CAPTURE(to_string(dtype));
    CHECK(std::isnan(gpu::decode_element(dtype, gpu::nan_bits(dtype))));
    CHECK(gpu::encode_element(dtype, gpu::decode_element(dtype, gpu::nan_bits(dtype))) == gpu::nan_bits(dtype));
  }
  CHECK(gpu::nan_bits(DType::fp16) <= 0xffffu);
  CHECK(gpu::nan_bits(DType::bf16) <= 0xffffu);
}

TEST_CASE("the seeded fill stores draw_as of each element's LOGICAL index at its memory offset") {
  const std::uint64_t seed = 4242;
  for (const DType dtype : kDTypes)
    for (const Layout layout : {Layout::nchw, Layout::nhwc})
      for (const OpKind op : {OpKind::conv, OpKind::conv_transpose})
        for (int rank = 1; rank <= 3; ++rank) {
          const ConvProblem p = problem(dtype, layout, op, rank);
          const std::pair<Operand, data::TensorRole> tensors[] = {{Operand::input, data::TensorRole::input},
                                                                  {Operand::weight, data::TensorRole::weight},
                                                                  {Operand::bias, data::TensorRole::bias}};
          for (const auto& [operand, role] : tensors) {
            CAPTURE(to_string(dtype));
            CAPTURE(to_string(layout));
            CAPTURE(rank);
            CAPTURE(static_cast<int>(operand));
            const TensorStorage s = gpu::tensor_storage(p, operand);
            const std::vector<std::uint32_t> memory = simulated_fill(s, seed, role, 0.25f);
            for (std::int64_t logical = 0; logical < s.count; ++logical) {
              const float expected = data::draw_as(dtype, seed, role, static_cast<std::uint64_t>(logical), 0.25f);
              const std::uint32_t bits = memory[static_cast<std::size_t>(memory_offset(p, operand, logical))];
              REQUIRE(bits == gpu::encode_element(dtype, expected));
              REQUIRE(gpu::decode_element(dtype, bits) == expected);
            }
          }
        }
}

TEST_CASE("one problem in two layouts holds the same logical tensor, in different places") {
  const ConvProblem first = problem(DType::fp16, Layout::nchw, OpKind::conv, 2);
  ConvProblem last = first;
  last.layout = Layout::nhwc;
  const TensorStorage a = gpu::tensor_storage(first, Operand::input);
  const TensorStorage b = gpu::tensor_storage(last, Operand::input);
  const std::vector<std::uint32_t> in_nchw = simulated_fill(a, 7, data::TensorRole::input, 1.0f);
  const std::vector<std::uint32_t> in_nhwc = simulated_fill(b, 7, data::TensorRole::input, 1.0f);
  CHECK(in_nchw != in_nhwc);
  for (std::int64_t logical = 0; logical < a.count; ++logical)
    REQUIRE(in_nchw[static_cast<std::size_t>(gpu::storage_offset(a, logical))] ==
            in_nhwc[static_cast<std::size_t>(gpu::storage_offset(b, logical))]);
}

TEST_CASE("checksum terms depend on offset and bits: a change or a swap shows in the sum") {
  const std::uint64_t base = gpu::checksum_term(3, 0x3c00u) + gpu::checksum_term(4, 0x4000u);
  CHECK(gpu::checksum_term(3, 0x4000u) + gpu::checksum_term(4, 0x3c00u) != base);  // swapped
  CHECK(gpu::checksum_term(3, 0x3c01u) + gpu::checksum_term(4, 0x4000u) != base);  // last bit of fp16
  CHECK(gpu::checksum_term(4, 0x4000u) + gpu::checksum_term(3, 0x3c00u) == base);  // order-independent
  // fp32's terms are the ones the runtime always used: mix64(bits << 32 ^ mix64(offset + c)).
  CHECK(gpu::checksum_term(9, 0x3f800000u) ==
        data::mix64((std::uint64_t{0x3f800000u} << 32) ^ data::mix64(9 + 0x632be59bd9b4e019ULL)));
}
