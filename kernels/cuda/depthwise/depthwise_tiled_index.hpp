#pragma once
// Tiling of the shared-memory depthwise kernel (depthwise_tiled_kernel.cuh), shared with the CPU tests.
//
// The register kernel (depthwise2d, seed 84) slides rows through registers and needs stride 1,
// dilation 1, a square 3/5/7 kernel and 16-byte input rows. This one takes every other forward
// depthwise convolution of rank 1 or 2: any stride, dilation, padding and kernel shape, any widths,
// channel multipliers (groups == C_in, C_out = m x C_in: PyTorch's depthwise with depth multiplier).
//
// A block of 256 threads owns a tile of output rows x columns of one input plane (n, c) and all m
// output channels that read it: it copies the input window the tile reads (zeros where it lies in
// the padding) and the plane's m x KH x KW weights into shared memory once, then each thread
// computes P outputs for each of the m channels from there. The threads are threads_h x threads_w
// with threads_w a multiple of 32: a warp covers 32 consecutive columns of one row, so both the copy
// (one row segment per warp instruction) and the stores coalesce. A thread's P outputs lie along
// one axis, so its loop only steps two pointers: in 2-D, thread (ty, tx) owns rows ty*P .. ty*P + P-1
// of column tx; in 1-D (one row) columns tx, tx + threads_w, ... (thread_origin, thread_output).
//
// Rank 1 is rank 2 with one row (in_h = out_h = KH = 1).
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>

#include "core/host_device.hpp"
#include "problem/conv_geometry.hpp"
#include "problem/conv_problem.hpp"

namespace kbench::gpu::conv::depthwise_tiled {

inline constexpr int kThreads = 256;
inline constexpr int kWarps = kThreads / 32;
// A block's shared memory stays within the default 48 KB (no opt-in attribute needed), which also
// leaves room for several blocks per SM to overlap one's copy with another's arithmetic.
inline constexpr std::int64_t kMaxSmemBytes = 48 * 1024;
inline constexpr int kMaxOutputsPerThread = 8;

struct TiledDesc {
  std::int64_t channels = 1;    // input channels (= groups)
  std::int64_t multiplier = 1;  // output channels per input channel
  std::int64_t planes = 1;      // batch * channels: plane = n * channels + c
  std::int64_t in_h = 1, in_w = 1, out_h = 1, out_w = 1;
  int kernel_h = 1, kernel_w = 1;
  int stride_h = 1, stride_w = 1;
  int dilation_h = 1, dilation_w = 1;
  std::int64_t pad_top = 0, pad_left = 0;
  int threads_w = 64;        // threads across a row (a multiple of 32 dividing kThreads)
  int per_thread = 1;        // P: outputs of a thread per output channel
  bool along_rows = true;    // a thread's outputs are consecutive rows (2-D) or every threads_w-th column (1-D)
  std::int64_t tiles_h = 1, tiles_w = 1;
  int window_rows = 1, window_cols = 1;  // the input window of a tile, in shared memory (row pitch window_cols)

  KBENCH_HD int threads_h() const { return kThreads / threads_w; }
  KBENCH_HD int tile_rows() const { return threads_h() * (along_rows ? per_thread : 1); }
  KBENCH_HD int tile_cols() const { return threads_w * (along_rows ? 1 : per_thread); }
  KBENCH_HD int taps() const { return kernel_h * kernel_w; }
  KBENCH_HD std::int64_t blocks() const { return planes * tiles_h * tiles_w; }
  KBENCH_HD int window_floats() const { return window_rows * window_cols; }
  KBENCH_HD int weight_floats() const { return static_cast<int>(multiplier) * taps(); }
  // Warp-sized segments of the window's rows: the unit of the copy (one coalesced load per warp).
  KBENCH_HD int segments_per_row() const { return (window_cols + 31) / 32; }
  KBENCH_HD int segments() const { return window_rows * segments_per_row(); }
  std::int64_t smem_bytes() const {
    return static_cast<std::int64_t>(window_floats() + weight_floats()) * static_cast<std::int64_t>(sizeof(float));
  }
};

// Input rows (or columns) a tile of `outputs` outputs reads: from its first output's first tap to
// its last output's last tap.
inline std::int64_t window_extent(std::int64_t outputs, std::int64_t stride, std::int64_t kernel, std::int64_t dilation) {
  return (outputs - 1) * stride + (kernel - 1) * dilation + 1;
}

// The tiling of problem `p`, or why it has none within kMaxSmemBytes. `p` must be a forward depthwise
// convolution of rank 1 or 2 (depthwise_tiled_envelope checks the rest).
struct TiledPlan {
  TiledDesc desc;
  std::string why_not;
};

// Whether a window of rows x cols and multiplier x taps weights fit in kMaxSmemBytes (each factor
// tested first: with dilations up to 2^30 their products could overflow).
inline bool floats_fit(std::int64_t rows, std::int64_t cols, std::int64_t multiplier, std::int64_t taps) {
  constexpr std::int64_t kFloats = kMaxSmemBytes / std::int64_t{sizeof(float)};
  return rows <= kFloats && cols <= kFloats && multiplier <= kFloats && taps <= kFloats &&
         rows * cols + multiplier * taps <= kFloats;
}

inline TiledPlan make_tiled_plan(const ConvProblem& p) {
  TiledPlan plan;
  TiledDesc& d = plan.desc;
  const bool one_d = p.spatial_rank == 1;
  const int h = 0, w = one_d ? 0 : 1;  // which of the problem's dimensions are rows and columns
  d.channels = p.in_channels;
  d.multiplier = p.out_channels / p.in_channels;
  d.planes = p.batch * p.in_channels;
  d.in_h = one_d ? 1 : p.input[h];
  d.out_h = one_d ? 1 : p.output_extent(h);
  d.in_w = p.input[w];
  d.out_w = p.output_extent(w);
  d.pad_top = one_d ? 0 : p.pad_before[h];
  d.pad_left = p.pad_before[w];
  const std::int64_t kh = one_d ? 1 : p.kernel[h], sh = one_d ? 1 : p.stride[h], dh = one_d ? 1 : p.dilation[h];
  const std::int64_t kw = p.kernel[w], sw = p.stride[w], dw = p.dilation[w];

  // Candidates, most preferred first: 2-D, 64 threads across (32 for narrow outputs) and as many
  // rows per thread (up to 8) as the output has; 1-D, one row of 256 threads and up to 8 columns
  // each. Fewer outputs per thread, then 32 threads across, when the window does not fit.
  const auto pow2_covering = [](std::int64_t need, int most) {
    int n = 1;
    while (n < most && n < need) n *= 2;
    return n;
  };
  const auto fits_with = [&](int threads_w) {
    const int threads_h = kThreads / threads_w;
    const std::int64_t need = one_d ? geometry::ceil_div(d.out_w, threads_w) : geometry::ceil_div(d.out_h, threads_h);
    for (int per = pow2_covering(need, kMaxOutputsPerThread); per >= 1; per /= 2) {
      const std::int64_t rows = window_extent(std::int64_t{threads_h} * (one_d ? 1 : per), sh, kh, dh);
      const std::int64_t cols = window_extent(std::int64_t{threads_w} * (one_d ? per : 1), sw, kw, dw);
      if (floats_fit(rows, cols, d.multiplier, kh * kw)) {
        d.threads_w = threads_w;
        d.per_thread = per;
        d.along_rows = !one_d;
        d.window_rows = static_cast<int>(rows);
        d.window_cols = static_cast<int>(cols);
        return true;
      }
    }
    return false;
  };
  const int preferred = one_d ? kThreads : (d.out_w <= 32 ? 32 : 64);
  if (!fits_with(preferred) && (preferred == 32 || !fits_with(32))) {
    plan.why_not = "depthwise_tiled: the input window of the smallest tile exceeds 48 KB of shared memory "
                   "(stride, dilation or channel multiplier too large)";
    return plan;
  }
  // The window fits in 48 KB, so every extent and step below is far from 2^31.
  d.kernel_h = static_cast<int>(kh);
  d.kernel_w = static_cast<int>(kw);
  d.stride_h = static_cast<int>(sh);
  d.stride_w = static_cast<int>(sw);
  d.dilation_h = static_cast<int>(dh);
  d.dilation_w = static_cast<int>(dw);
  d.tiles_h = geometry::ceil_div(d.out_h, d.tile_rows());
  d.tiles_w = geometry::ceil_div(d.out_w, d.tile_cols());
  if (d.blocks() > 0x7fffffff) plan.why_not = "depthwise_tiled: too many blocks for one launch";
  return plan;
}

// A block's tile: its plane and the first output row and column; the window's top-left input
// coordinates (negative in the padding).
struct BlockTile {
  std::int64_t plane = 0;
  std::int64_t row0 = 0, col0 = 0;  // output
  std::int64_t in_row0 = 0, in_col0 = 0;
};

// Consecutive blocks walk a plane's tile columns, then its tile rows, so tiles sharing halo rows run together.
KBENCH_HD BlockTile block_tile(const TiledDesc& d, std::int64_t block) {
  BlockTile b;
  const std::int64_t tile_col = block % d.tiles_w;
  const std::int64_t tile_row = (block / d.tiles_w) % d.tiles_h;
  b.plane = block / (d.tiles_w * d.tiles_h);
  b.row0 = tile_row * d.tile_rows();
  b.col0 = tile_col * d.tile_cols();
  b.in_row0 = b.row0 * d.stride_h - d.pad_top;
  b.in_col0 = b.col0 * d.stride_w - d.pad_left;
  return b;
}

// Segment `s` of the window (s < segments()): window row and first window column; lane i copies
// column col + i when it is below window_cols.
struct Segment {
  int row = 0, col = 0;
};
KBENCH_HD Segment window_segment(const TiledDesc& d, int s) {
  const int per_row = d.segments_per_row();
  return Segment{s / per_row, 32 * (s % per_row)};
}

// Whether window element (row, col) of tile `b` lies inside the input (else it is padding: zero).
KBENCH_HD bool window_in_input(const TiledDesc& d, const BlockTile& b, int row, int col) {
  const std::int64_t ih = b.in_row0 + row, iw = b.in_col0 + col;
  return ih >= 0 && ih < d.in_h && iw >= 0 && iw < d.in_w;
}

// A tile-relative output position (the output is row0 + row, col0 + col, valid inside out_h x out_w).
struct ThreadOutput {
  int row = 0, col = 0;
};

// Thread `tid`'s first output: thread (ty, tx) = (tid / threads_w, tid % threads_w) starts at row
// ty * P (2-D) or ty (1-D), column tx. Computed once per thread (a division by a run-time width).
KBENCH_HD ThreadOutput thread_origin(const TiledDesc& d, int tid) {
  const int ty = tid / d.threads_w, tx = tid % d.threads_w;
  return ThreadOutput{d.along_rows ? ty * d.per_thread : ty, tx};
}

// Its output i < P: i rows down (2-D), or i x threads_w columns across (1-D: a warp's 32 lanes stay
// on 32 consecutive columns, for coalesced stores).
KBENCH_HD ThreadOutput thread_output(const TiledDesc& d, const ThreadOutput& origin, int i) {
  return d.along_rows ? ThreadOutput{origin.row + i, origin.col} : ThreadOutput{origin.row, origin.col + i * d.threads_w};
}

// How many of a thread's P outputs lie inside the output (the first ones: they grow along one axis).
KBENCH_HD int thread_output_count(const TiledDesc& d, const BlockTile& b, const ThreadOutput& origin) {
  const std::int64_t row = b.row0 + origin.row, col = b.col0 + origin.col;
  if (row >= d.out_h || col >= d.out_w) return 0;
  const std::int64_t left = d.along_rows ? d.out_h - row : (d.out_w - col + d.threads_w - 1) / d.threads_w;
  return left < d.per_thread ? static_cast<int>(left) : d.per_thread;
}

// From one of a thread's outputs to the next: in the window (floats) and in the output plane.
KBENCH_HD int window_step(const TiledDesc& d) {
  return d.along_rows ? d.stride_h * d.window_cols : d.threads_w * d.stride_w;
}
KBENCH_HD std::int64_t output_step(const TiledDesc& d) { return d.along_rows ? d.out_w : d.threads_w; }

// Window element read by tile-relative output (row, col) through tap (kh, kw).
KBENCH_HD int window_index(const TiledDesc& d, int row, int col, int kh, int kw) {
  return (row * d.stride_h + kh * d.dilation_h) * d.window_cols + col * d.stride_w + kw * d.dilation_w;
}

// The kernel size of the compiled instance that runs `d`: 3, 5 or 7 for those square kernels with
// column dilation 1 (taps unrolled, each row's taps at constant offsets), 0 for any other shape
// (taps looped at run time).
inline int instance_kernel(const TiledDesc& d) {
  const bool square = d.kernel_h == d.kernel_w && d.dilation_w == 1;
  return square && (d.kernel_h == 3 || d.kernel_h == 5 || d.kernel_h == 7) ? d.kernel_h : 0;
}

// Calls f(std::integral_constant<int, K>) for the compiled instance that runs `d`
// (K = instance_kernel(d)). The CUDA launcher and the CPU emulation tests dispatch through this.
template <class F>
void with_tiled_instance(const TiledDesc& d, F&& f) {
  switch (instance_kernel(d)) {
    case 3: return f(std::integral_constant<int, 3>{});
    case 5: return f(std::integral_constant<int, 5>{});
    case 7: return f(std::integral_constant<int, 7>{});
    default: return f(std::integral_constant<int, 0>{});
  }
}

}  // namespace kbench::gpu::conv::depthwise_tiled
