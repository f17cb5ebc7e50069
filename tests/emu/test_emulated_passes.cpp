// The backward passes under the CUDA emulation, against the fp64 reference of the pass itself:
// - backward_data as the cuda backend runs it: the forward pass of backward_data_problem(p) on the
//   generic direct kernel, its input the run's grad_output values and its weight p's own;
// - backward_weights on wgrad_gemm_ffma's kernels (wgrad_kernel.cuh): the GEMM over every split on
//   NaN-poisoned partials, the ordered sum of the splits, grad_bias; convolutions and transposed ones,
//   1-D to 3-D, groups, split and unsplit;
// - backward_weights on wgrad_depthwise's kernel (wgrad_depthwise_kernel.cuh) over every slice on
//   NaN-poisoned partials, then the same sum and grad_bias kernels: depthwise convolutions and
//   transposed ones, 1-D to 3-D, stride, dilation, padding, lines per step and slices of every kind.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "cuda/direct/direct_kernel.cuh"
#include "cuda/selection.hpp"
#include "cuda/wgrad/wgrad_depthwise_kernel.cuh"
#include "cuda/wgrad/wgrad_kernel.cuh"
#include "data/host_tensors.hpp"
#include "emulated_run.hpp"
#include "emulated_typed_run.hpp"
#include "problem/conv_pass.hpp"
#include "problem_factory.hpp"
#include "reference/reference_conv.hpp"
#include "test_seed.hpp"
#include "verify/compare.hpp"
#include "verify/tolerance.hpp"

// The wgrad kernels' `extern __shared__` array, as the emulation provides it (one block runs at a time).
namespace kbench::gpu::conv::wgrad {
alignas(16) unsigned char smem[kSmemBytes];
}
namespace kbench::gpu::conv::wgrad_depthwise {
alignas(16) unsigned char smem[kMaxSmemBytes];
}

namespace kbench {
namespace {

namespace wg = gpu::conv::wgrad;
namespace wd = gpu::conv::wgrad_depthwise;
using gpu_tests::pick;

void require_matches(const ConvProblem& p, const std::vector<float>& got, const data::HostTensors& t) {
  const std::vector<double> want = reference::convolve(p, t);
  REQUIRE(got.size() == want.size());
  const Comparison c = compare_outputs(got, want, default_tolerance(MathMode::fp32));
  INFO("mismatches " << c.mismatches << " of " << c.checked << ", first at " << c.first_mismatch << ": got "
                     << c.first_mismatch_got << ", expected " << c.first_mismatch_expected);
  CHECK(c.passed());
}

// p (backward_data) as its backward_data_problem's forward pass on the direct kernel.
void check_backward_data(const ConvProblem& p, std::uint64_t seed) {
  REQUIRE(gpu::conv::problem_supported(p).ok);
  const ConvProblem q = backward_data_problem(p);
  const data::HostTensors t = data::make_host_tensors(p, seed);  // grad_output and weight
  data::HostTensors tq;
  tq.input = t.grad_output;  // what the run's y buffer holds, filled with the grad_output role
  tq.weight = t.weight;      // unchanged in memory
  const gpu::conv::DirectParams d = gpu::conv::make_direct_params(q);
  std::vector<float> dx(static_cast<std::size_t>(q.output_elements()), emu_tests::kPoison);
  REQUIRE(static_cast<std::int64_t>(dx.size()) == computed_elements(p));
  emu::clear_buffers();
  emu::allow_read(tq.input.data(), tq.input.size() * sizeof(float));
  emu::allow_read(tq.weight.data(), tq.weight.size() * sizeof(float));
  const auto blocks = static_cast<unsigned>(std::max<std::int64_t>(1, d.total / (3 * gpu::conv::kDirectThreads)));
  emu::launch(emu::Dim3{blocks}, emu::Dim3{gpu::conv::kDirectThreads}, nullptr, 0, [&] {
    gpu::conv::direct_conv_kernel<DType::fp32, Layout::nchw>(d, tq.input.data(), tq.weight.data(), nullptr, dx.data());
  });
  require_matches(p, dx, t);
}

// p (backward_weights) on the wgrad kernels in `splits` splits; returns grad_weight then grad_bias.
std::vector<float> run_wgrad(const ConvProblem& p, const data::HostTensors& t, std::int64_t splits) {
  const wg::WgradParams d = wg::with_splits(wg::make_wgrad_params(p, 0), splits);
  const std::vector<float>& rows = d.rows_are_x ? t.input : t.grad_output;
  const std::vector<float>& gathered = d.rows_are_x ? t.grad_output : t.input;
  std::vector<float> dw(static_cast<std::size_t>(wg::weight_elements(d)), std::nanf(""));
  std::vector<float> workspace(static_cast<std::size_t>(wg::workspace_elements(d)), std::nanf(""));
  std::vector<float> db(static_cast<std::size_t>(d.bias_channels), std::nanf(""));
  emu::clear_buffers();
  const emu::Dim3 grid{static_cast<unsigned>(wg::tiles_n(d)), static_cast<unsigned>(wg::tiles_m(d)),
                       static_cast<unsigned>(d.groups * d.splits)};
  float* gemm_out = d.splits > 1 ? workspace.data() : dw.data();
  emu::launch(grid, emu::Dim3{wg::kThreads}, wg::smem, wg::kSmemBytes,
              [&] { wg::wgrad_gemm_kernel<DType::fp32>(d, rows.data(), gathered.data(), gemm_out); });
  if (d.splits > 1)
    emu::launch(emu::Dim3{2}, emu::Dim3{wg::kThreads}, nullptr, 0,
                [&] { wg::wgrad_sum_splits_kernel(wg::weight_elements(d), d.splits, workspace.data(), dw.data()); });
  if (d.bias_channels > 0)
    emu::launch(emu::Dim3{static_cast<unsigned>(d.bias_channels)}, emu::Dim3{wg::kThreads}, wg::smem,
                wg::kThreads * sizeof(float), [&] { wg::wgrad_bias_kernel<DType::fp32>(d, t.grad_output.data(), db.data()); });
  dw.insert(dw.end(), db.begin(), db.end());
  return dw;
}

void check_backward_weights(const ConvProblem& p, std::uint64_t seed, std::int64_t splits) {
  REQUIRE(gpu::conv::family_envelope(gpu::conv::Family::wgrad_gemm_ffma, p, MathMode::fp32).ok);
  const data::HostTensors t = data::make_host_tensors(p, seed);  // input and grad_output
  const std::vector<float> got = run_wgrad(p, t, splits);
  REQUIRE(static_cast<std::int64_t>(got.size()) == computed_elements(p));
  require_matches(p, got, t);
}

// p (backward_weights) in kType and p's layout on the wgrad kernels in `splits` splits: the operands
// stored as the run stores them, grad_weight and grad_bias poisoned, read back in logical order and
// checked within emulated_typed_run.hpp's bound.
template <DType kType>
void check_backward_weights_typed(const ConvProblem& p, std::uint64_t seed, std::int64_t splits) {
  using emu_tests::Stored;
  using E = gpu::conv::Element<kType>;
  REQUIRE(p.dtype == kType);
  REQUIRE(gpu::conv::family_envelope(gpu::conv::Family::wgrad_gemm_ffma, p, MathMode::fp32).ok);
  const wg::WgradParams d = wg::with_splits(wg::make_wgrad_params(p, 0), splits);
  const data::HostTensors t = data::make_host_tensors(p, seed);
  const std::vector<Stored<kType>> x = emu_tests::to_memory<kType>(p, Operand::input, t.input);
  const std::vector<Stored<kType>> dy = emu_tests::to_memory<kType>(p, Operand::output, t.grad_output);
  std::vector<Stored<kType>> dw(static_cast<std::size_t>(wg::weight_elements(d)), E::narrow(NAN));
  std::vector<Stored<kType>> db(static_cast<std::size_t>(d.bias_channels), E::narrow(NAN));
  std::vector<float> workspace(static_cast<std::size_t>(wg::workspace_elements(d)), std::nanf(""));
  emu::clear_buffers();
  const emu::Dim3 grid{static_cast<unsigned>(wg::tiles_n(d)), static_cast<unsigned>(wg::tiles_m(d)),
                       static_cast<unsigned>(d.groups * d.splits)};
  REQUIRE(wg::stores_through_workspace(d) == (kType != DType::fp32 || p.layout == Layout::nhwc || splits > 1));
  float* gemm_out = wg::stores_through_workspace(d) ? workspace.data() : reinterpret_cast<float*>(dw.data());
  const Stored<kType>* rows = d.rows_are_x ? x.data() : dy.data();
  const Stored<kType>* gathered = d.rows_are_x ? dy.data() : x.data();
  emu::launch(grid, emu::Dim3{wg::kThreads}, wg::smem, wg::kSmemBytes,
              [&] { wg::wgrad_gemm_kernel<kType>(d, rows, gathered, gemm_out); });
  if (wg::stores_through_workspace(d))
    emu::launch(emu::Dim3{2}, emu::Dim3{wg::kThreads}, nullptr, 0,
                [&] { wg::wgrad_store_kernel<kType>(d, workspace.data(), dw.data()); });
  if (d.bias_channels > 0)
    emu::launch(emu::Dim3{static_cast<unsigned>(d.bias_channels)}, emu::Dim3{wg::kThreads}, wg::smem,
                wg::kThreads * sizeof(float), [&] { wg::wgrad_bias_kernel<kType>(d, dy.data(), db.data()); });
  std::vector<float> got;
  for (std::int64_t i = 0; i < wg::weight_elements(d); ++i)
    got.push_back(E::widen(dw[static_cast<std::size_t>(memory_offset(p, Operand::weight, i))]));
  for (const Stored<kType> v : db) got.push_back(E::widen(v));
  const emu_tests::BoundCheck c = emu_tests::check_within_bound(p, t, got);
  INFO(to_string(p.dtype) << " " << to_string(p.layout) << ": " << c.failures << " of " << c.checked
                          << " outside the bound, first at " << c.first << ": got " << c.got << ", expected "
                          << c.expected << " within " << c.allowed);
  CHECK(c.failures == 0);
}

// p (depthwise backward_weights) on the wgrad_depthwise kernel as `d` stages and slices it, then the
// sum of the slices and grad_bias as wgrad_gemm_ffma's; returns grad_weight then grad_bias.
std::vector<float> run_wgrad_depthwise(const ConvProblem& p, const data::HostTensors& t, const wd::WgradDepthwiseParams& d) {
  REQUIRE(wd::fits(d));
  const std::vector<float>& rows = d.g.rows_are_x ? t.input : t.grad_output;
  const std::vector<float>& gathered = d.g.rows_are_x ? t.grad_output : t.input;
  std::vector<float> dw(static_cast<std::size_t>(wd::weight_elements(d)), std::nanf(""));
  std::vector<float> workspace(static_cast<std::size_t>(wd::workspace_elements(d)), std::nanf(""));
  std::vector<float> db(static_cast<std::size_t>(d.g.bias_channels), std::nanf(""));
  REQUIRE(static_cast<std::int64_t>(dw.size() + db.size()) == computed_elements(p));
  emu::clear_buffers();
  float* out = d.slices > 1 ? workspace.data() : dw.data();
  emu::launch(emu::Dim3{static_cast<unsigned>(wd::channels(d) * d.slices)}, emu::Dim3{wd::kThreads}, wd::smem,
              static_cast<std::size_t>(wd::smem_bytes(d)),
              [&] { wd::wgrad_depthwise_kernel(d, rows.data(), gathered.data(), out); });
  if (d.slices > 1)
    emu::launch(emu::Dim3{2}, emu::Dim3{wg::kThreads}, nullptr, 0,
                [&] { wg::wgrad_sum_splits_kernel(wd::weight_elements(d), d.slices, workspace.data(), dw.data()); });
  if (d.g.bias_channels > 0)
    emu::launch(emu::Dim3{static_cast<unsigned>(d.g.bias_channels)}, emu::Dim3{wg::kThreads}, wg::smem,
                wg::kThreads * sizeof(float), [&] { wg::wgrad_bias_kernel<DType::fp32>(d.g, t.grad_output.data(), db.data()); });
  dw.insert(dw.end(), db.begin(), db.end());
  return dw;
}

void check_wgrad_depthwise(const ConvProblem& p, std::uint64_t seed, const wd::WgradDepthwiseParams& d) {
  REQUIRE(gpu::conv::family_envelope(gpu::conv::Family::wgrad_depthwise, p, MathMode::fp32).ok);
  const data::HostTensors t = data::make_host_tensors(p, seed);
  require_matches(p, run_wgrad_depthwise(p, t, d), t);
}

ConvProblem random_pass_problem(std::mt19937_64& rng, int i, Pass pass) {
  const OpKind op = i % 2 ? OpKind::conv_transpose : OpKind::conv;
  ConvProblem p =
      gpu_tests::random_problem(rng, op, 1 + i % 3, pick(rng, 1, 5), pick(rng, 1, 5), gpu_tests::small_shapes());
  p.pass = pass;
  return p;
}

}  // namespace

TEST_CASE("emulated backward_data: the forward pass of backward_data_problem on grad_output") {
  std::mt19937_64 rng(testing::test_seed(2604));
  int ran = 0;
  for (int i = 0; i < 24; ++i) {
    const ConvProblem p = random_pass_problem(rng, i, Pass::backward_data);
    if (!backward_data_support(p)) continue;
    CAPTURE(describe(p));
    check_backward_data(p, 200 + static_cast<std::uint64_t>(i));
    ++ran;
  }
  CHECK(ran >= 12);
}

TEST_CASE("emulated wgrad_gemm_ffma: grad_weight and grad_bias, split and unsplit") {
  std::mt19937_64 rng(testing::test_seed(2605));
  for (int i = 0; i < 18; ++i) {
    ConvProblem p = random_pass_problem(rng, i, Pass::backward_weights);
    p.bias = i % 3 != 0;
    CAPTURE(describe(p));
    const std::int64_t splits = i % 2 ? 1 : pick(rng, 2, 4);
    CAPTURE(splits);
    check_backward_weights(p, 300 + static_cast<std::uint64_t>(i), splits);
  }
  // More than one tile each way (rows and columns past 64) with groups, split in 3.
  ConvProblem wide = ConvProblem{.op = OpKind::conv, .spatial_rank = 2, .batch = 2, .in_channels = 2 * 9,
                                 .out_channels = 2 * 70, .groups = 2, .input = Dims{{6, 5, 1}},
                                 .kernel = Dims{{3, 3, 1}}, .stride = Dims{{1, 2, 1}}, .pad_before = Dims{{1, 0, 0}},
                                 .pad_after = Dims{{1, 1, 0}}, .bias = true};
  wide.pass = Pass::backward_weights;
  check_backward_weights(wide, 399, 3);
  wide.op = OpKind::conv_transpose;
  check_backward_weights(wide, 398, 2);
}

TEST_CASE("emulated wgrad_gemm_ffma in fp16, bf16 and fp32 NHWC: grad_weight and grad_bias, split and unsplit") {
  std::mt19937_64 rng(testing::test_seed(2606));
  for (int i = 0; i < 12; ++i) {
    ConvProblem p = random_pass_problem(rng, i, Pass::backward_weights);
    p.bias = i % 3 != 0;
    p.layout = i % 2 == 0 ? Layout::nhwc : Layout::nchw;
    const std::int64_t splits = i % 4 < 2 ? 1 : pick(rng, 2, 4);
    CAPTURE(describe(p));
    CAPTURE(splits);
    const auto seed = 2606 + static_cast<std::uint64_t>(i);
    p.dtype = DType::fp16;
    check_backward_weights_typed<DType::fp16>(p, seed, splits);
    p.dtype = DType::bf16;
    check_backward_weights_typed<DType::bf16>(p, seed, splits);
    if (p.layout == Layout::nhwc) {
      p.dtype = DType::fp32;
      check_backward_weights_typed<DType::fp32>(p, seed, splits);
    }
  }
}

TEST_CASE("emulated wgrad_depthwise: grad_weight and grad_bias, every lines per step, sliced and not") {
  std::mt19937_64 rng(testing::test_seed(2613));
  gpu_tests::ShapeLimits limits;  // lines past one segment (64) and one line block (16); 5x5 and 7x7
  limits.input[0] = 150;
  limits.input[1] = 24;
  limits.input[2] = 6;
  limits.kernel[0] = 9;
  limits.kernel[1] = 7;
  limits.batch = limits.groups = limits.dilation = limits.padding = 2;
  for (int i = 0; i < 15; ++i) {
    ConvProblem p = gpu_tests::random_problem(rng, i % 2 ? OpKind::conv_transpose : OpKind::conv, 1 + i % 3, 1, 1, limits);
    p.pass = Pass::backward_weights;
    p.bias = i % 3 != 0;
    // Any lines per step whose window fits (more than the lines there are, too), 1 to 4 slices.
    int lines = 1 << pick(rng, 0, 4);
    while (!wd::fits(wd::with_lines(wd::make_wgrad_depthwise_params(p, 0), lines))) lines /= 2;
    const wd::WgradDepthwiseParams d = wd::with_slices(wd::with_lines(wd::make_wgrad_depthwise_params(p, 0), lines), pick(rng, 1, 4));
    CAPTURE(describe(p));
    CAPTURE(d.lines);
    CAPTURE(d.slices);
    check_wgrad_depthwise(p, 500 + static_cast<std::uint64_t>(i), d);
  }
  // Problem 84's shape, smaller: 3x3, no padding, lines of 198 (4 segments), 38 lines (3 line blocks),
  // sliced as for 132 SMs (3 slices of 8 steps); then strided and dilated with padding, as chosen.
  ConvProblem p84 = ConvProblem{.op = OpKind::conv, .spatial_rank = 2, .batch = 2, .in_channels = 3, .out_channels = 3,
                                .groups = 3, .input = Dims{{40, 200, 1}}, .kernel = Dims{{3, 3, 1}}};
  p84.pass = Pass::backward_weights;
  const wd::WgradDepthwiseParams d84 = wd::make_wgrad_depthwise_params(p84, 132);
  REQUIRE(d84.slices == 3);
  check_wgrad_depthwise(p84, 598, d84);
  ConvProblem strided = ConvProblem{.op = OpKind::conv, .spatial_rank = 2, .batch = 1, .in_channels = 2,
                                    .out_channels = 2, .groups = 2, .input = Dims{{30, 140, 1}},
                                    .kernel = Dims{{3, 5, 1}}, .stride = Dims{{2, 3, 1}}, .dilation = Dims{{2, 1, 1}},
                                    .pad_before = Dims{{1, 2, 0}}, .pad_after = Dims{{2, 1, 0}}, .bias = true};
  strided.pass = Pass::backward_weights;
  check_wgrad_depthwise(strided, 597, wd::make_wgrad_depthwise_params(strided, 132));
}

}  // namespace kbench
