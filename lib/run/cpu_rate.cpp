#include "run/cpu_rate.hpp"

#include <algorithm>
#include <chrono>

#include "data/host_tensors.hpp"
#include "problem/problem_metrics.hpp"
#include "reference/reference_conv.hpp"

namespace kbench {

double reference_flops_per_second() {
  static const double rate = [] {
    // A mid-sized 2D convolution: large enough to occupy every thread, ~40 MFLOP.
    ConvProblem probe;
    probe.spatial_rank = 2;
    probe.batch = 4;
    probe.in_channels = 16;
    probe.out_channels = 32;
    probe.input = Dims{{40, 40, 1}};
    probe.kernel = Dims{{3, 3, 1}};
    probe.pad_before = probe.pad_after = Dims{{1, 1, 0}};
    const auto tensors = data::make_host_tensors(probe, 1);
    double best = 1e30;
    for (int i = 0; i < 3; ++i) {
      const auto start = std::chrono::steady_clock::now();
      (void)reference::convolve(probe, tensors);
      best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    return compute_metrics(probe).flops / std::max(best, 1e-6);
  }();
  return rate;
}

}  // namespace kbench
