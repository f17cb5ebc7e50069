// kbench's tensors in host memory (host/host_operands.hpp), as the CPU backends hand them out: stored
// in the problem's dtype and layout, read back by logical index, poisoned, checksummed.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "data/host_tensors.hpp"
#include "host/host_operands.hpp"
#include "problem/conv_pass.hpp"

using namespace kbench;

namespace {

ConvProblem small_problem(DType dtype, Layout layout) {
  ConvProblem p;
  p.spatial_rank = 2;
  p.batch = 2;
  p.in_channels = 3;
  p.out_channels = 4;
  p.groups = 1;
  p.input = {5, 6, 1};
  p.kernel = {3, 2, 1};
  p.bias = true;
  p.dtype = dtype;
  p.layout = layout;
  return p;
}

}  // namespace

TEST_CASE("host operands: every dtype and layout stores the seeded tensors where the layout says") {
  for (const DType dtype : {DType::fp32, DType::fp16, DType::bf16})
    for (const Layout layout : {Layout::nchw, Layout::nhwc}) {
      CAPTURE(static_cast<int>(dtype));
      CAPTURE(static_cast<int>(layout));
      const ConvProblem p = small_problem(dtype, layout);
      host::HostOperands operands(p);
      operands.fill(7);
      const float bound = data::init_bound(p);
      const auto* input = static_cast<const std::byte*>(operands.data(Operand::input));
      const gpu::TensorStorage storage = gpu::tensor_storage(p, Operand::input);
      const auto size = static_cast<std::size_t>(bytes_per_element(dtype));
      for (std::int64_t logical = 0; logical < p.input_elements(); ++logical) {
        std::uint32_t bits = 0;
        std::memcpy(&bits, input + static_cast<std::size_t>(memory_offset(p, Operand::input, logical)) * size, size);
        const float expected = data::draw_as(dtype, 7, data::TensorRole::input, static_cast<std::uint64_t>(logical), bound);
        REQUIRE(gpu::decode_element(storage.dtype, bits) == expected);
      }
    }
}

TEST_CASE("host operands: poison, read back by logical index, and the inputs' checksum") {
  const ConvProblem p = small_problem(DType::bf16, Layout::nhwc);
  host::HostOperands operands(p);
  operands.fill(1);
  const std::uint64_t filled = operands.input_checksum();
  operands.poison();
  CHECK(operands.input_checksum() == filled);  // poison touches the output only
  const std::vector<float> all = operands.read({});
  REQUIRE(static_cast<std::int64_t>(all.size()) == computed_elements(p));
  for (const float v : all) REQUIRE(std::isnan(v));

  // Write one output element through its channels-last offset: it reads back at its logical index.
  const std::int64_t logical = 37;
  const std::uint16_t one = 0x3f80;  // bf16 1.0
  auto* output = static_cast<std::byte*>(operands.data(Operand::output));
  std::memcpy(output + memory_offset(p, Operand::output, logical) * 2, &one, 2);
  const std::int64_t indices[] = {logical, logical + 1};
  const std::vector<float> got = operands.read(indices);
  CHECK(got[0] == 1.0f);
  CHECK(std::isnan(got[1]));
  const std::int64_t outside[] = {computed_elements(p)};
  CHECK_THROWS_AS(operands.read(outside), std::out_of_range);

  // A backend that writes into an input changes the checksum.
  auto* weight = static_cast<std::byte*>(operands.data(Operand::weight));
  weight[3] = static_cast<std::byte>(static_cast<unsigned>(weight[3]) ^ 1u);
  CHECK(operands.input_checksum() != filled);
}

TEST_CASE("host operands: no bias, no bias buffer") {
  ConvProblem p = small_problem(DType::fp32, Layout::nchw);
  p.bias = false;
  host::HostOperands operands(p);
  CHECK(operands.data(Operand::bias) == nullptr);
  CHECK(operands.data(Operand::input) != nullptr);
}
