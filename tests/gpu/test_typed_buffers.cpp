// GpuPreparedRun's buffers in the problem's dtype and layout: the seeded fill at every memory offset
// holds draw_as of the element's LOGICAL index (checked on the raw bytes, decoded on the host), the
// poison is NaN of the dtype, read-back maps logical indices to memory offsets, the checksum sees a
// 16-bit change, and the fp32 views refuse half data.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "data/host_tensors.hpp"
#include "problem/memory_layout.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/device_kernels.hpp"
#include "runtime/gpu_prepared_run.hpp"
#include "runtime/tensor_storage.hpp"

using namespace kbench::gpu;
using kbench::ConvProblem;
using kbench::Dims;
using kbench::DType;
using kbench::Layout;
using kbench::Operand;
using kbench::data::TensorRole;

namespace {

constexpr std::uint64_t kOutputSeed = 77;

// Its "convolution" writes seeded values into y (in y's dtype and layout), so read-back can be checked
// against data::draw_as at logical indices.
class SeededOutputRun final : public GpuPreparedRun {
 public:
  explicit SeededOutputRun(const ConvProblem& problem) : GpuPreparedRun(problem, 0) {}
  std::string implementation() const override { return "seeded_output"; }
  kbench::MathMode math_used() const override { return kbench::MathMode::fp32; }

  const void* data_of(Operand operand) const {
    return operand == Operand::input    ? x_data()
           : operand == Operand::weight ? w_data()
           : operand == Operand::bias   ? b_data()
                                        : static_cast<const void*>(y_data());
  }

  // The raw element bits of a tensor, in memory order.
  std::vector<std::uint32_t> raw(Operand operand) const {
    const TensorStorage s = tensor_storage(problem(), operand);
    const void* data = data_of(operand);
    const std::size_t element = static_cast<std::size_t>(kbench::bytes_per_element(s.dtype));
    std::vector<unsigned char> bytes(static_cast<std::size_t>(storage_bytes(s)));
    if (!bytes.empty()) KBENCH_CUDA_CHECK(cudaMemcpy(bytes.data(), data, bytes.size(), cudaMemcpyDeviceToHost));
    std::vector<std::uint32_t> bits(static_cast<std::size_t>(s.count));
    for (std::size_t i = 0; i < bits.size(); ++i) {
      if (element == 4) {
        std::memcpy(&bits[i], &bytes[i * 4], 4);
      } else {
        std::uint16_t half = 0;
        std::memcpy(&half, &bytes[i * 2], 2);
        bits[i] = half;
      }
    }
    return bits;
  }

  void clobber_one_input_element() {
    // Flips one 16-bit (or 32-bit) element's lowest byte: the checksum must see it.
    KBENCH_CUDA_CHECK(cudaMemset(const_cast<void*>(x_data()), 0x5a, 1));
  }

  const float* fp32_input() const { return x(); }

 protected:
  void enqueue(cudaStream_t stream) override {
    fill_seeded(y_data(), tensor_storage(problem(), Operand::output), kOutputSeed, TensorRole::weight, 1.0f, stream);
  }
};

ConvProblem problem(DType dtype, Layout layout, int rank) {
  ConvProblem p;
  p.dtype = dtype;
  p.layout = layout;
  p.spatial_rank = rank;
  p.batch = 2;
  p.in_channels = 6;
  p.out_channels = 4;
  p.groups = 2;
  p.input = rank == 1 ? Dims{{37, 1, 1}} : rank == 2 ? Dims{{9, 7, 1}} : Dims{{5, 4, 3}};
  p.kernel = rank == 1 ? Dims{{3, 1, 1}} : rank == 2 ? Dims{{3, 2, 1}} : Dims{{2, 2, 1}};
  p.bias = true;
  return p;
}

}  // namespace

TEST_CASE("typed buffers: the fill stores draw_as of each logical index at its memory offset") {
  for (const DType dtype : {DType::fp32, DType::fp16, DType::bf16})
    for (const Layout layout : {Layout::nchw, Layout::nhwc})
      for (int rank = 1; rank <= 3; ++rank) {
        CAPTURE(kbench::to_string(dtype));
        CAPTURE(kbench::to_string(layout));
        CAPTURE(rank);
        const ConvProblem p = problem(dtype, layout, rank);
        SeededOutputRun run(p);
        run.fill_inputs(99);
        const float bound = kbench::data::init_bound(p);
        const std::pair<Operand, TensorRole> tensors[] = {{Operand::input, TensorRole::input},
                                                          {Operand::weight, TensorRole::weight},
                                                          {Operand::bias, TensorRole::bias}};
        for (const auto& [operand, role] : tensors) {
          const std::vector<std::uint32_t> memory = run.raw(operand);
          std::int64_t differing = 0;
          for (std::int64_t logical = 0; logical < static_cast<std::int64_t>(memory.size()); ++logical) {
            const float expected = kbench::data::draw_as(dtype, 99, role, static_cast<std::uint64_t>(logical), bound);
            const std::uint32_t bits = memory[static_cast<std::size_t>(kbench::memory_offset(p, operand, logical))];
            if (bits != encode_element(dtype, expected)) ++differing;
          }
          CHECK(differing == 0);
          // The typed gather (logical order, widened) is make_seeded, the reference's own values.
          CHECK(read_elements(run.data_of(operand), tensor_storage(p, operand), {}, nullptr) ==
                kbench::data::make_seeded(p, 99, role));
        }
        CHECK(run.inputs_unchanged());
      }
}

TEST_CASE("typed buffers: poison is NaN of the dtype; read-back maps logical indices to memory offsets") {
  for (const DType dtype : {DType::fp32, DType::fp16, DType::bf16})
    for (const Layout layout : {Layout::nchw, Layout::nhwc}) {
      CAPTURE(kbench::to_string(dtype));
      CAPTURE(kbench::to_string(layout));
      const ConvProblem p = problem(dtype, layout, 2);
      SeededOutputRun run(p);
      run.fill_inputs(1);
      run.poison_output();
      for (const std::uint32_t bits : run.raw(Operand::output)) REQUIRE(bits == nan_bits(dtype));
      for (const float v : run.read_output({})) REQUIRE(std::isnan(v));

      run.run();
      const std::vector<float> all = run.read_output({});
      REQUIRE(static_cast<std::int64_t>(all.size()) == p.output_elements());
      const std::vector<std::uint32_t> memory = run.raw(Operand::output);
      std::int64_t differing = 0;
      for (std::int64_t logical = 0; logical < p.output_elements(); ++logical) {
        const float expected =
            kbench::data::draw_as(dtype, kOutputSeed, TensorRole::weight, static_cast<std::uint64_t>(logical), 1.0f);
        const std::uint32_t bits = memory[static_cast<std::size_t>(kbench::memory_offset(p, Operand::output, logical))];
        if (all[static_cast<std::size_t>(logical)] != expected || decode_element(dtype, bits) != expected) ++differing;
      }
      CHECK(differing == 0);
      // Sampled, out of order, repeated.
      const std::vector<std::int64_t> some = {p.output_elements() - 1, 0, 5, 5, p.output_elements() / 2};
      const std::vector<float> got = run.read_output(some);
      for (std::size_t j = 0; j < some.size(); ++j) CHECK(got[j] == all[static_cast<std::size_t>(some[j])]);
      const std::vector<std::int64_t> outside = {p.output_elements()};
      CHECK_THROWS_AS(run.read_output(outside), std::out_of_range);
    }
}

TEST_CASE("typed buffers: the input checksum sees a change of one 16-bit element") {
  for (const DType dtype : {DType::fp16, DType::bf16}) {
    CAPTURE(kbench::to_string(dtype));
    SeededOutputRun run(problem(dtype, Layout::nhwc, 2));
    run.fill_inputs(5);
    run.run();
    CHECK(run.inputs_unchanged());
    run.clobber_one_input_element();
    CHECK_FALSE(run.inputs_unchanged());
  }
}

TEST_CASE("typed buffers: the fp32 views are for fp32 problems only; sizes by element size") {
  SeededOutputRun half(problem(DType::fp16, Layout::nhwc, 2));
  CHECK_THROWS_AS((void)half.fp32_input(), std::logic_error);
  SeededOutputRun single(problem(DType::fp32, Layout::nhwc, 2));
  CHECK(single.fp32_input() != nullptr);

  const ConvProblem p32 = problem(DType::fp32, Layout::nchw, 3);
  const ConvProblem p16 = problem(DType::bf16, Layout::nchw, 3);
  const std::int64_t elements =
      p32.input_elements() + p32.weight_elements() + p32.bias_elements() + p32.output_elements();
  CHECK(GpuPreparedRun::device_bytes_needed(p32, 0) - GpuPreparedRun::device_bytes_needed(p16, 0) == 2 * elements);
}
