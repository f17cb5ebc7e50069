// convolve: the whole output, computed tile by tile. Each tile is a block of output rows (and, for
// very long rows, columns) of one (n, c_out) plane, owned by one thread, so no two threads ever add
// into the same element and the result does not depend on the thread count.
//
// Within a tile the loops run input channel -> kernel taps -> output row -> contiguous run of the
// row. The run (geometry::conv_tap_run / transposed_tap_run) already excludes padding and, for a
// transposed convolution, the outputs a tap cannot reach, so the innermost loop has no branches and
// vectorises when both strides are 1.
#include <algorithm>
#include <vector>

#include "problem/conv_geometry.hpp"
#include "problem/rank3.hpp"
#include "reference/backward_conv.hpp"
#include "reference/parallel.hpp"
#include "reference/reference_conv.hpp"
#include "reference/tensor_checks.hpp"

namespace kbench::reference {

namespace {

struct TilePlan {
  std::int64_t planes = 0;  // N x C_out
  std::int64_t rows = 0;    // output rows per plane: D_out x H_out
  std::int64_t cols = 0;    // W_out
  std::int64_t rows_per_tile = 1;
  std::int64_t cols_per_tile = 1;

  std::int64_t row_tiles() const { return (rows + rows_per_tile - 1) / rows_per_tile; }
  std::int64_t col_tiles() const { return (cols + cols_per_tile - 1) / cols_per_tile; }
  std::int64_t count() const { return planes * row_tiles() * col_tiles(); }
};

TilePlan plan_tiles(const ConvProblem& p3) {
  const Dims out = p3.output();
  TilePlan plan;
  plan.planes = p3.batch * p3.out_channels;
  plan.rows = out[0] * out[1];
  plan.cols = out[2];
  // A tile's fp64 accumulators (64 KiB) stay in L2 while every input channel and tap sweeps over them.
  constexpr std::int64_t tile_elements = 8192;
  plan.cols_per_tile = std::min(plan.cols, tile_elements);
  plan.rows_per_tile = std::clamp<std::int64_t>(tile_elements / plan.cols_per_tile, 1, plan.rows);
  // Enough tiles that no thread idles while another finishes a large one.
  const std::int64_t wanted = 4 * static_cast<std::int64_t>(worker_count());
  while (plan.count() < wanted) {
    if (plan.rows_per_tile > 1)
      plan.rows_per_tile = (plan.rows_per_tile + 1) / 2;
    else if (plan.cols_per_tile > 256)
      plan.cols_per_tile = (plan.cols_per_tile + 1) / 2;
    else
      break;
  }
  return plan;
}

// out[j * out_step] += w * in[j * in_step], j < count; the unit-stride case separately so it vectorises.
void accumulate_run(double* out, const float* in, double w, const geometry::TapRun& run) {
  if (run.out_step == 1 && run.in_step == 1) {
    for (std::int64_t j = 0; j < run.count; ++j) out[j] += w * static_cast<double>(in[j]);
  } else {
    for (std::int64_t j = 0; j < run.count; ++j) out[j * run.out_step] += w * static_cast<double>(in[j * run.in_step]);
  }
}

class TileComputer {
 public:
  TileComputer(const ConvProblem& p3, const data::HostTensors& tensors, double* output)
      : p_(p3), tensors_(tensors), output_(output), plan_(plan_tiles(p3)), out_(p3.output()) {}

  std::int64_t tile_count() const { return plan_.count(); }

  void compute(std::int64_t tile) const {
    const std::int64_t col_tile = tile % plan_.col_tiles();
    const std::int64_t row_tile = tile / plan_.col_tiles() % plan_.row_tiles();
    const std::int64_t plane = tile / plan_.col_tiles() / plan_.row_tiles();
    const std::int64_t row_begin = row_tile * plan_.rows_per_tile;
    const std::int64_t row_end = std::min(plan_.rows, row_begin + plan_.rows_per_tile);
    const std::int64_t col_begin = col_tile * plan_.cols_per_tile;
    const std::int64_t col_end = std::min(plan_.cols, col_begin + plan_.cols_per_tile);
    const std::int64_t n = plane / p_.out_channels;
    const std::int64_t co = plane % p_.out_channels;

    double* const plane_out = output_ + plane * plan_.rows * plan_.cols;
    const double initial = p_.bias ? static_cast<double>(tensors_.bias[static_cast<std::size_t>(co)]) : 0.0;
    for (std::int64_t row = row_begin; row < row_end; ++row)
      std::fill(plane_out + row * plan_.cols + col_begin, plane_out + row * plan_.cols + col_end, initial);

    // Which outputs of the tile's columns each tap along W feeds: the same for every row and channel.
    std::vector<geometry::TapRun> runs(static_cast<std::size_t>(p_.kernel[2]));
    for (std::int64_t kw = 0; kw < p_.kernel[2]; ++kw)
      runs[static_cast<std::size_t>(kw)] = p_.transposed() ? geometry::transposed_tap_run(p_, 2, kw, col_begin, col_end)
                                                           : geometry::conv_tap_run(p_, 2, kw, col_begin, col_end);

    const std::int64_t cin_per_group = p_.in_channels_per_group();
    const std::int64_t group = co / p_.out_channels_per_group();
    for (std::int64_t c = 0; c < cin_per_group; ++c) {
      const std::int64_t ci = group * cin_per_group + c;
      const float* in_plane = tensors_.input.data() + (n * p_.in_channels + ci) * p_.input_spatial_volume();
      const float* weights = tensors_.weight.data() + weight_block(co, ci) * p_.kernel_volume();
      for (std::int64_t kd = 0; kd < p_.kernel[0]; ++kd)
        for (std::int64_t kh = 0; kh < p_.kernel[1]; ++kh)
          for (std::int64_t row = row_begin; row < row_end; ++row) {
            std::int64_t id = 0;
            std::int64_t ih = 0;
            if (!source(0, row / out_[1], kd, &id) || !source(1, row % out_[1], kh, &ih)) continue;
            const float* in_row = in_plane + (id * p_.input[1] + ih) * p_.input[2];
            double* out_row = plane_out + row * plan_.cols;
            const float* tap_weights = weights + (kd * p_.kernel[1] + kh) * p_.kernel[2];
            for (std::int64_t kw = 0; kw < p_.kernel[2]; ++kw) {
              const geometry::TapRun& run = runs[static_cast<std::size_t>(kw)];
              accumulate_run(out_row + run.first_out, in_row + run.first_in, static_cast<double>(tap_weights[kw]), run);
            }
          }
    }
  }

 private:
  // Index of the [k...] weight block linking output channel co and input channel ci (same group).
  std::int64_t weight_block(std::int64_t co, std::int64_t ci) const {
    if (p_.transposed()) return ci * p_.out_channels_per_group() + co % p_.out_channels_per_group();
    return co * p_.in_channels_per_group() + ci % p_.in_channels_per_group();
  }

  // Input coordinate feeding output coordinate o through tap k along d, if any.
  bool source(int d, std::int64_t o, std::int64_t k, std::int64_t* in) const {
    if (p_.transposed()) return geometry::transposed_tap_source(p_, d, o, k, in);
    *in = geometry::conv_input_coord(p_, d, o, k);
    return *in >= 0 && *in < p_.input[d];
  }

  const ConvProblem& p_;
  const data::HostTensors& tensors_;
  double* output_;
  TilePlan plan_;
  Dims out_;
};

}  // namespace

std::vector<double> convolve(const ConvProblem& p, const data::HostTensors& tensors) {
  if (p.pass != Pass::forward) return backward_pass(p, tensors);
  require_computable(p);
  require_tensors_match(p, tensors);
  const ConvProblem p3 = as_rank3(p);
  std::vector<double> output(static_cast<std::size_t>(p3.output_elements()));
  const TileComputer computer(p3, tensors, output.data());
  parallel_for(computer.tile_count(), [&computer](std::int64_t tile) { computer.compute(tile); });
  return output;
}

}  // namespace kbench::reference
