// The reference's three entry points against each other and against an independent naive
// implementation (scatter: every input element pushes its products into the outputs its taps reach),
// on a few hundred random small problems covering every feature.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <vector>

#include "data/host_tensors.hpp"
#include "problem/problem_metrics.hpp"
#include "reference/reference_conv.hpp"
#include "test_seed.hpp"

using kbench::ConvProblem;
using kbench::Dims;
using kbench::OpKind;
using kbench::data::HostTensors;

namespace {

// Output extent written out independently of ConvProblem::output_extent.
std::int64_t naive_extent(const ConvProblem& p, int d) {
  if (p.op == OpKind::conv_transpose)
    return (p.input[d] - 1) * p.stride[d] - p.pad_before[d] - p.pad_after[d] + p.dilation[d] * (p.kernel[d] - 1) +
           p.output_padding[d] + 1;
  return (p.input[d] + p.pad_before[d] + p.pad_after[d] - p.dilation[d] * (p.kernel[d] - 1) - 1) / p.stride[d] + 1;
}

// Row-major coordinates of `flat` within `extent` (rank entries).
std::vector<std::int64_t> coords(std::int64_t flat, const std::vector<std::int64_t>& extent) {
  std::vector<std::int64_t> c(extent.size());
  for (std::size_t d = extent.size(); d-- > 0;) {
    c[d] = flat % extent[d];
    flat /= extent[d];
  }
  return c;
}

std::vector<double> naive_scatter(const ConvProblem& p, const HostTensors& t) {
  const auto rank = static_cast<std::size_t>(p.spatial_rank);
  std::vector<std::int64_t> in_extent(rank), k_extent(rank), out_extent(rank);
  std::int64_t in_volume = 1, k_volume = 1, out_volume = 1;
  for (std::size_t d = 0; d < rank; ++d) {
    in_extent[d] = p.input[static_cast<int>(d)];
    k_extent[d] = p.kernel[static_cast<int>(d)];
    out_extent[d] = naive_extent(p, static_cast<int>(d));
    in_volume *= in_extent[d];
    k_volume *= k_extent[d];
    out_volume *= out_extent[d];
  }
  const std::int64_t cin_g = p.in_channels / p.groups, cout_g = p.out_channels / p.groups;
  std::vector<double> out(static_cast<std::size_t>(p.batch * p.out_channels * out_volume), 0.0);
  for (std::int64_t n = 0; n < p.batch; ++n)
    for (std::int64_t ci = 0; ci < p.in_channels; ++ci)
      for (std::int64_t i = 0; i < in_volume; ++i) {
        const double x = t.input[static_cast<std::size_t>((n * p.in_channels + ci) * in_volume + i)];
        const std::vector<std::int64_t> ic = coords(i, in_extent);
        for (std::int64_t local = 0; local < cout_g; ++local) {
          const std::int64_t co = ci / cin_g * cout_g + local;
          for (std::int64_t k = 0; k < k_volume; ++k) {
            const std::vector<std::int64_t> kc = coords(k, k_extent);
            std::int64_t o = 0;  // flat output position, -1 when the tap misses
            for (std::size_t d = 0; d < rank && o >= 0; ++d) {
              const int dd = static_cast<int>(d);
              std::int64_t od = 0;
              if (p.op == OpKind::conv_transpose) {
                od = ic[d] * p.stride[dd] - p.pad_before[dd] + kc[d] * p.dilation[dd];
              } else {  // input i is read by output o when o * stride - pad + k * dilation == i
                const std::int64_t num = ic[d] + p.pad_before[dd] - kc[d] * p.dilation[dd];
                od = num >= 0 && num % p.stride[dd] == 0 ? num / p.stride[dd] : -1;
              }
              o = od >= 0 && od < out_extent[d] ? o * out_extent[d] + od : -1;
            }
            if (o < 0) continue;
            const std::int64_t w_index = p.op == OpKind::conv_transpose ? (ci * cout_g + local) * k_volume + k
                                                                        : (co * cin_g + ci % cin_g) * k_volume + k;
            out[static_cast<std::size_t>((n * p.out_channels + co) * out_volume + o)] +=
                t.weight[static_cast<std::size_t>(w_index)] * x;
          }
        }
      }
  if (p.bias)
    for (std::size_t e = 0; e < out.size(); ++e)
      out[e] += t.bias[e / static_cast<std::size_t>(out_volume) % static_cast<std::size_t>(p.out_channels)];
  return out;
}

bool close(double got, double want) { return std::abs(got - want) <= 1e-12 * std::max(1.0, std::abs(want)); }

// First position where the two differ beyond 1e-12, or -1.
std::int64_t first_difference(const std::vector<double>& got, const std::vector<double>& want) {
  if (got.size() != want.size()) return 0;
  for (std::size_t i = 0; i < got.size(); ++i)
    if (!close(got[i], want[i])) return static_cast<std::int64_t>(i);
  return -1;
}

ConvProblem random_problem(std::mt19937_64& rng) {
  const auto pick = [&rng](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  for (;;) {
    ConvProblem p;
    p.op = pick(0, 2) == 0 ? OpKind::conv_transpose : OpKind::conv;
    p.spatial_rank = static_cast<int>(pick(1, 3));
    p.batch = pick(1, 2);
    p.groups = pick(1, 3);
    p.in_channels = p.groups * pick(1, 3);
    p.out_channels = p.groups * pick(1, 3);
    p.bias = pick(0, 1) == 1;
    const std::int64_t max_input = p.spatial_rank == 3 ? 4 : p.spatial_rank == 2 ? 7 : 12;
    bool valid = true;
    for (int d = 0; d < p.spatial_rank; ++d) {
      p.input[d] = pick(1, max_input);
      p.kernel[d] = pick(1, 3);
      p.stride[d] = pick(1, 3);
      p.dilation[d] = pick(1, 3);
      p.pad_before[d] = pick(0, 2);
      p.pad_after[d] = pick(0, 2);
      // PyTorch requires output_padding < max(stride, dilation).
      if (p.op == OpKind::conv_transpose) p.output_padding[d] = pick(0, std::max(p.stride[d], p.dilation[d]) - 1);
      const bool window_fits = p.input[d] + p.pad_before[d] + p.pad_after[d] >= p.dilation[d] * (p.kernel[d] - 1) + 1;
      valid = valid && naive_extent(p, d) >= 1 && (p.op == OpKind::conv_transpose || window_fits);
    }
    if (valid) return p;
  }
}

void check_against_naive(const ConvProblem& p, std::uint64_t seed, std::mt19937_64& rng) {
  const HostTensors tensors = kbench::data::make_host_tensors(p, seed);
  const std::vector<double> full = kbench::reference::convolve(p, tensors);
  const std::vector<double> naive = naive_scatter(p, tensors);
  INFO(kbench::describe(p), " seed ", seed);
  CHECK(first_difference(full, naive) == -1);

  std::vector<std::int64_t> indices{0, p.output_elements() - 1};
  std::uniform_int_distribution<std::int64_t> any_output(0, p.output_elements() - 1);
  for (int i = 0; i < 40; ++i) indices.push_back(any_output(rng));
  std::vector<double> expected;
  for (const std::int64_t index : indices) expected.push_back(naive[static_cast<std::size_t>(index)]);
  CHECK(first_difference(kbench::reference::convolve_at(p, tensors, indices), expected) == -1);
  CHECK(first_difference(kbench::reference::convolve_at_seeded(p, seed, indices), expected) == -1);
}

}  // namespace

TEST_SUITE("reference") {
  TEST_CASE("random small problems: convolve == convolve_at == convolve_at_seeded == naive scatter") {
    std::mt19937_64 rng(kbench::testing::test_seed(20240611));
    int transposed = 0, grouped = 0, biased = 0, strided = 0, dilated = 0, padded = 0, out_padded = 0;
    int by_rank[4] = {0, 0, 0, 0};
    for (int trial = 0; trial < 300; ++trial) {
      const ConvProblem p = random_problem(rng);
      check_against_naive(p, rng(), rng);
      transposed += p.op == OpKind::conv_transpose;
      grouped += p.groups > 1;
      biased += p.bias;
      by_rank[p.spatial_rank] += 1;
      for (int d = 0; d < p.spatial_rank; ++d) {
        strided += p.stride[d] > 1;
        dilated += p.dilation[d] > 1;
        padded += p.pad_before[d] != p.pad_after[d];
        out_padded += p.output_padding[d] > 0;
      }
    }
    // The generator must really have covered every feature.
    CHECK(transposed > 50);
    CHECK(grouped > 50);
    CHECK(biased > 50);
    CHECK(strided > 50);
    CHECK(dilated > 50);
    CHECK(padded > 50);
    CHECK(out_padded > 10);
    CHECK(by_rank[1] > 50);
    CHECK(by_rank[2] > 50);
    CHECK(by_rank[3] > 50);
  }

  TEST_CASE("problems large enough to be split into many tiles") {
    std::mt19937_64 rng(kbench::testing::test_seed(7));
    ConvProblem long_rows;  // 1-D rows longer than one tile: split along W
    long_rows.spatial_rank = 1;
    long_rows.in_channels = 2;
    long_rows.out_channels = 3;
    long_rows.input = Dims{{40000, 1, 1}};
    long_rows.kernel = Dims{{3, 1, 1}};
    long_rows.stride = Dims{{2, 1, 1}};
    long_rows.dilation = Dims{{2, 1, 1}};
    long_rows.pad_before = long_rows.pad_after = Dims{{1, 0, 0}};
    long_rows.bias = true;
    check_against_naive(long_rows, 11, rng);

    ConvProblem long_transposed = long_rows;
    long_transposed.op = OpKind::conv_transpose;
    long_transposed.input = Dims{{9000, 1, 1}};
    long_transposed.output_padding = Dims{{1, 0, 0}};
    check_against_naive(long_transposed, 12, rng);

    ConvProblem many_rows;  // 2-D plane of many short rows: split along rows
    many_rows.spatial_rank = 2;
    many_rows.batch = 1;
    many_rows.in_channels = many_rows.out_channels = many_rows.groups = 2;
    many_rows.input = Dims{{400, 50, 1}};
    many_rows.kernel = Dims{{3, 2, 1}};
    many_rows.pad_before = Dims{{2, 0, 0}};
    check_against_naive(many_rows, 13, rng);
  }

  // Not run by default (doctest --no-skip runs it): prints the reference's throughput.
  TEST_CASE("throughput of a mid-sized conv2d" * doctest::skip()) {
    ConvProblem p;
    p.batch = 8;
    p.in_channels = 16;
    p.out_channels = 32;
    p.input = Dims{{64, 64, 1}};
    p.kernel = Dims{{3, 3, 1}};
    p.pad_before = p.pad_after = Dims{{1, 1, 0}};
    const HostTensors tensors = kbench::data::make_host_tensors(p, 1);
    kbench::reference::convolve(p, tensors);  // warm-up
    const auto start = std::chrono::steady_clock::now();
    const std::vector<double> out = kbench::reference::convolve(p, tensors);
    const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
    const double flops = kbench::compute_metrics(p).flops;
    MESSAGE(kbench::describe(p), ": ", seconds.count() * 1e3, " ms, ", flops / seconds.count() / 1e9, " GFLOP/s");
    CHECK(out.size() == static_cast<std::size_t>(p.output_elements()));
  }
}
