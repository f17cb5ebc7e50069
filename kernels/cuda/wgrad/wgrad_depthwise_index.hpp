#pragma once
// The `wgrad_depthwise` family's index arithmetic: backward_weights of depthwise problems (groups ==
// C_in == C_out), host/device and free of CUDA headers, so tests/unit checks it against the reference
// (test_cuda_index_wgrad_depthwise.cpp).
//
// For a depthwise problem the generic GEMM (wgrad_index.hpp) has M = 1 row and N = taps columns per
// group: its 64 x 64 tiles would be almost all padding. Here instead
//   grad_weight[ch, tap] = sum over (n, pos) of rows[n, ch, pos] x gathered[n, ch, at(pos, tap)]
// (rows and gathered as in wgrad_index.hpp: dy and x for a conv, x and dy for a conv_transpose) is
// computed by blocks that each take one channel and a slice of its reduction. A slice is a run of
// *steps*; a step is `lines` consecutive lines (innermost-but-one dimension) of one (n, depth) plane
// of the rows' operand and kSegment positions along each line. A step stages its rows and the window
// of the gathered operand they meet at every tap in shared memory, so each value is read from global
// memory once per step, and every thread multiplies its rows by all taps of the channel into
// registers (at most kMaxTaps of them). A block's sums leave through a fixed tree into a per-slice
// partial; the slices are summed in slice order by the GEMM's sum kernel: deterministic, no atomics.
#include <algorithm>
#include <bit>
#include <cstdint>

#include "core/host_device.hpp"
#include "cuda/wgrad/wgrad_index.hpp"

namespace kbench::gpu::conv::wgrad_depthwise {

inline constexpr int kThreads = 256;
inline constexpr int kWarps = kThreads / 32;
inline constexpr int kSegment = 64;   // positions along a line per step (a coalesced 256-byte read)
inline constexpr int kMaxLines = 16;  // lines per step: 16 x 64 = 4 positions per thread
// Accumulators per thread: 7x7 (or 3x3x3, or a 1-D kernel of 49). More taps would spill registers.
inline constexpr int kMaxTaps = 49;
// Shared memory a block may take without opting in: the step's rows, window, tap offsets and the
// warps' sums must fit.
inline constexpr std::int64_t kMaxSmemBytes = 48 * 1024;
// Blocks per SM assumed when choosing slices, two waves of them: 256 threads of 120 registers (49
// accumulators; CUDA 13, sm_90) leave room for 2 per SM.
inline constexpr std::int64_t kBlocksPerSm = 2;
// A slice shorter than this spends more on its block's start and final sums than on its products.
inline constexpr std::int64_t kMinStepsPerSlice = 8;
// gridDim.x holds channels x slices.
inline constexpr std::int64_t kMaxGridX = 0x7fffffff;

struct WgradDepthwiseParams {
  wgrad::WgradParams g;  // the geometry: groups = channels, one row and one gathered channel per group
  int lines = 1;       // lines per step
  std::int64_t span_h = 1, span_w = 1;  // the gathered window's lines and positions per depth tap
  std::int64_t line_blocks = 1, segments = 1;  // steps along the lines and along a line, per (n, depth)
  std::int64_t slices = 1, steps_per_slice = 1;
};

KBENCH_HD std::int64_t channels(const WgradDepthwiseParams& d) { return d.g.groups; }
KBENCH_HD std::int64_t taps(const WgradDepthwiseParams& d) { return d.g.taps; }
KBENCH_HD std::int64_t weight_elements(const WgradDepthwiseParams& d) { return channels(d) * taps(d); }
KBENCH_HD std::int64_t steps(const WgradDepthwiseParams& d) {
  return d.g.batch * d.g.row_extent[0] * d.line_blocks * d.segments;
}
KBENCH_HD std::int64_t row_stage_floats(const WgradDepthwiseParams& d) { return std::int64_t{d.lines} * kSegment; }
KBENCH_HD std::int64_t window_floats(const WgradDepthwiseParams& d) { return d.g.kernel[0] * d.span_h * d.span_w; }
// Shared memory: rows, window, then the warps' sums (kWarps x kMaxTaps floats) and the taps'
// offsets into the window (kMaxTaps ints).
KBENCH_HD std::int64_t smem_bytes(const WgradDepthwiseParams& d) {
  return (row_stage_floats(d) + window_floats(d) + kWarps * kMaxTaps + kMaxTaps) * 4;
}

// Step `s`: its (n, depth) plane of the rows' operand, first line and first position along the lines.
struct Step {
  std::int64_t n, depth, line0, pos0;
};
KBENCH_HD Step step_at(const WgradDepthwiseParams& d, std::int64_t s) {
  const std::int64_t segment = s % d.segments;
  std::int64_t rest = s / d.segments;
  const std::int64_t block = rest % d.line_blocks;
  rest /= d.line_blocks;
  return {rest / d.g.row_extent[0], rest % d.g.row_extent[0], block * d.lines, segment * kSegment};
}

// The rows' operand's flat position (within a channel's plane) of a step's staged element `e`
// (line e / kSegment, position e % kSegment), or -1 past the operand's extent (staged as zero).
KBENCH_HD std::int64_t row_position(const WgradDepthwiseParams& d, const Step& step, std::int64_t e) {
  const std::int64_t h = step.line0 + e / kSegment, w = step.pos0 + e % kSegment;
  if (h >= d.g.row_extent[1] || w >= d.g.row_extent[2]) return -1;
  return (step.depth * d.g.row_extent[1] + h) * d.g.row_extent[2] + w;
}

// The gathered operand's flat position of a step's window element `e` ([depth tap][span_h][span_w],
// the depth planes the taps reach, the lines and positions the step's rows reach), or -1 in the
// padding (staged as zero).
KBENCH_HD std::int64_t window_source(const WgradDepthwiseParams& d, const Step& step, std::int64_t e) {
  const std::int64_t ww = e % d.span_w, hh = (e / d.span_w) % d.span_h, td = e / (d.span_w * d.span_h);
  const wgrad::WgradParams& g = d.g;
  const std::int64_t z = step.depth * g.stride[0] - g.pad[0] + td * g.dilation[0];
  const std::int64_t y = step.line0 * g.stride[1] - g.pad[1] + hh;
  const std::int64_t x = step.pos0 * g.stride[2] - g.pad[2] + ww;
  if (z < 0 || z >= g.gathered_extent[0] || y < 0 || y >= g.gathered_extent[1] || x < 0 || x >= g.gathered_extent[2])
    return -1;
  return (z * g.gathered_extent[1] + y) * g.gathered_extent[2] + x;
}

// Where staged row element `e` meets the window at tap 0, and where tap `tap` is from there: the
// window element a product reads is window_base(e) + tap_offset(tap).
KBENCH_HD std::int64_t window_base(const WgradDepthwiseParams& d, std::int64_t e) {
  return (e / kSegment) * d.g.stride[1] * d.span_w + (e % kSegment) * d.g.stride[2];
}
KBENCH_HD std::int64_t tap_offset(const WgradDepthwiseParams& d, std::int64_t tap) {
  const std::int64_t tw = tap % d.g.kernel[2], th = (tap / d.g.kernel[2]) % d.g.kernel[1];
  const std::int64_t td = tap / (d.g.kernel[2] * d.g.kernel[1]);
  return (td * d.span_h + th * d.g.dilation[1]) * d.span_w + tw * d.g.dilation[2];
}

// The steps [begin, end) of slice `s`.
struct StepRange {
  std::int64_t begin, end;
};
KBENCH_HD StepRange slice_range(const WgradDepthwiseParams& d, std::int64_t s) {
  const std::int64_t begin = s * d.steps_per_slice;
  const std::int64_t end = begin + d.steps_per_slice < steps(d) ? begin + d.steps_per_slice : steps(d);
  return {begin, end};
}

// Partials (or, unsliced, grad_weight): block b = slice x channels + channel writes its taps at b x taps.
KBENCH_HD std::int64_t partial_index(const WgradDepthwiseParams& d, std::int64_t slice, std::int64_t channel, std::int64_t tap) {
  return (slice * channels(d) + channel) * taps(d) + tap;
}

inline WgradDepthwiseParams with_lines(WgradDepthwiseParams d, int lines) {
  d.lines = lines;
  d.span_h = (lines - 1) * d.g.stride[1] + (d.g.kernel[1] - 1) * d.g.dilation[1] + 1;
  d.span_w = (kSegment - 1) * d.g.stride[2] + (d.g.kernel[2] - 1) * d.g.dilation[2] + 1;
  d.line_blocks = (d.g.row_extent[1] + lines - 1) / lines;
  d.segments = (d.g.row_extent[2] + kSegment - 1) / kSegment;
  return d;
}

inline WgradDepthwiseParams with_slices(WgradDepthwiseParams d, std::int64_t slices) {
  d.steps_per_slice = (steps(d) + slices - 1) / slices;
  d.slices = (steps(d) + d.steps_per_slice - 1) / d.steps_per_slice;  // no empty slice
  return d;
}

// Slices that give about two waves of kBlocksPerSm blocks on `sms` SMs, each at least
// kMinStepsPerSlice long and the grid in bounds; 1 where the SMs are unknown (0).
inline std::int64_t choose_slices(const WgradDepthwiseParams& d, int sms) {
  if (sms <= 0) return 1;
  const std::int64_t wanted = (2 * kBlocksPerSm * sms + channels(d) - 1) / channels(d);
  const std::int64_t longest = std::max<std::int64_t>(1, steps(d) / kMinStepsPerSlice);
  return std::max<std::int64_t>(1, std::min({wanted, longest, kMaxGridX / channels(d)}));
}

// The depthwise backward_weights problem `p` for a device of `sms` SMs (unsliced for 0): the most
// lines per step (a power of two, no more than the lines there are) whose window fits the shared
// memory; check fits(d) before running it.
inline WgradDepthwiseParams make_wgrad_depthwise_params(const ConvProblem& p, int sms) {
  WgradDepthwiseParams d;
  d.g = wgrad::make_wgrad_params(p, 0);
  int lines = static_cast<int>(std::min<std::int64_t>(kMaxLines, std::bit_ceil(static_cast<std::uint64_t>(
                                                                     std::max<std::int64_t>(1, d.g.row_extent[1])))));
  d = with_lines(d, lines);
  while (lines > 1 && smem_bytes(d) > kMaxSmemBytes) d = with_lines(d, lines /= 2);
  return with_slices(d, choose_slices(d, sms));
}

inline bool fits(const WgradDepthwiseParams& d) { return smem_bytes(d) <= kMaxSmemBytes; }

// Workspace the slices' partials take (elements); 0 unsliced, where the blocks write grad_weight.
inline std::int64_t workspace_elements(const WgradDepthwiseParams& d) { return d.slices > 1 ? d.slices * weight_elements(d) : 0; }

}  // namespace kbench::gpu::conv::wgrad_depthwise
