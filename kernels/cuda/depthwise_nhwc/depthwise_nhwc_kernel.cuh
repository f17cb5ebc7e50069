#pragma once
// Depthwise convolution of channels-last tensors (fp32, fp16, bf16), 1-D to 3-D, any stride,
// dilation, padding, kernel and bias. Index arithmetic in depthwise_nhwc_index.hpp; design in
// docs/kernels/depthwise_nhwc.md.
//
// A block stages its slice's weights in shared memory as fp32, then each thread computes kRun
// outputs along W for one 16-byte vector of channels: per tap it reads the tap's weights from shared
// memory once for its outputs and loads each output's input vector (16 bytes, read-only path; the
// columns neighbouring outputs and taps share come from L1), widened to fp32. fp32 accumulation,
// the bias added, the output rounded once to the element type (common/element.hpp) and stored as
// one 16-byte streaming store per output position.
//
// Device code only (its entry point is depthwise_nhwc.cu); the CPU emulation tests run it too.
#include <cstdint>

#include "cuda/common/element.hpp"
#include "cuda/depthwise_nhwc/depthwise_nhwc_index.hpp"

namespace kbench::gpu::conv::depthwise_nhwc {

// One 16-byte vector of elements at `p` (16-byte aligned), widened to fp32.
template <DType kType>
__device__ __forceinline__ void load_vector(const Storage<kType>* p, float (&v)[vector_width(kType)]) {
  using E = Element<kType>;
  const float4 q = __ldg(reinterpret_cast<const float4*>(p));
  if constexpr (kType == DType::fp32) {
    v[0] = q.x;
    v[1] = q.y;
    v[2] = q.z;
    v[3] = q.w;
  } else {
    const std::uint32_t words[4] = {__float_as_uint(q.x), __float_as_uint(q.y), __float_as_uint(q.z),
                                    __float_as_uint(q.w)};
#pragma unroll
    for (int i = 0; i < 4; ++i) {  // the lower address is the low half
      v[2 * i] = E::widen(static_cast<std::uint16_t>(words[i] & 0xffffu));
      v[2 * i + 1] = E::widen(static_cast<std::uint16_t>(words[i] >> 16));
    }
  }
}

// `v` rounded once to the element type, as one 16-byte vector.
template <DType kType>
__device__ __forceinline__ float4 pack_vector(const float (&v)[vector_width(kType)]) {
  using E = Element<kType>;
  if constexpr (kType == DType::fp32) {
    return make_float4(v[0], v[1], v[2], v[3]);
  } else {
    std::uint32_t words[4];
#pragma unroll
    for (int i = 0; i < 4; ++i)
      words[i] =
          static_cast<std::uint32_t>(E::narrow(v[2 * i])) | (static_cast<std::uint32_t>(E::narrow(v[2 * i + 1])) << 16);
    return make_float4(__uint_as_float(words[0]), __uint_as_float(words[1]), __uint_as_float(words[2]),
                       __uint_as_float(words[3]));
  }
}

// Grid: t.blocks() blocks of kThreads; t.smem_bytes() of dynamic shared memory. x and y 16-byte
// aligned (C a multiple of the vector width keeps every vector so). At least two blocks per SM, so
// at most 128 registers: left to itself, ptxas holds the bf16 instance to 80 and spills.
template <DType kType>
__global__ void __launch_bounds__(kThreads, kMinBlocks)
    depthwise_nhwc_kernel(const Params t, const Storage<kType>* __restrict__ x, const Storage<kType>* __restrict__ w,
                          const Storage<kType>* __restrict__ bias, Storage<kType>* __restrict__ y) {
  using E = Element<kType>;
  constexpr int kV = vector_width(kType);
  extern __shared__ __align__(16) unsigned char smem[];
  float* const weights = reinterpret_cast<float*>(smem);  // [tap][slice channel]
  const ConvProblem& p = t.p3;
  const BlockOrigin b = block_origin(t, blockIdx.x);
  const int sc = t.slice_channels();
  const int kvol = static_cast<int>(weight_offset(t, 1, 0));  // taps per channel
  const std::int64_t c0 = b.vector0 * kV;

  // The slice's weights, one contiguous run of [channel][tap] in global memory, read in order;
  // channels past C (a narrower last slice) as zeros.
  const Storage<kType>* const slice = w + weight_offset(t, c0, 0);
  const int real = b.vectors * kV * kvol;
  for (int i = threadIdx.x; i < sc * kvol; i += kThreads) {
    const int ch = i / kvol, tap = i - ch * kvol;
    weights[tap * sc + ch] = i < real ? E::widen(slice[i]) : 0.0f;
  }
  __syncthreads();

  const ThreadRun run = thread_run(t, b, threadIdx.x);
  if (!run.active) return;
  const std::int64_t c = c0 + std::int64_t{run.vector} * kV;
  // The thread's channels of its image, its first output, its biases: few values live across the loops.
  const Storage<kType>* const xs = x + input_offset(t, b.image, 0, 0, 0, c);
  Storage<kType>* const ys = y + output_offset(t, b.image, b.depth, run.row, run.col0, c);
  const Storage<kType>* const bs = bias != nullptr ? bias + c : nullptr;
  const RunColumns columns = run_columns(t, run);
  const int dilation = static_cast<int>(p.dilation[2]);
  const std::int64_t step = input_offset(t, 0, 0, 0, dilation, 0);  // one dilation along the row
  const int kw = static_cast<int>(p.kernel[2]);

  float acc[kRun][kV] = {};
  for (int kd = 0; kd < p.kernel[0]; ++kd) {
    const std::int64_t id = input_coord(t, 0, b.depth, kd);
    if (id < 0 || id >= p.input[0]) continue;
    for (int kh = 0; kh < p.kernel[1]; ++kh) {
      const std::int64_t ih = input_coord(t, 1, run.row, kh);
      if (ih < 0 || ih >= p.input[1]) continue;
      const Storage<kType>* const line = xs + input_offset(t, 0, id, ih, 0, 0);
      const float* const row_taps = weights + (kd * p.kernel[1] + kh) * kw * sc + run.vector * kV;
      // Each output's input offset in the row, stepped by one dilation per tap (no 64-bit multiply
      // per load).
      std::int64_t at[kRun];
#pragma unroll
      for (int r = 0; r < kRun; ++r) at[r] = input_offset(t, 0, 0, 0, columns.first[r], 0);
      for (int kx = 0; kx < kw; ++kx) {
        const int shift = kx * dilation;  // below 2^30: a reach
        // The tap's weights once for the run's outputs; their inputs are independent loads.
        float wv[kV];
#pragma unroll
        for (int q = 0; q < kV / 4; ++q) {
          const float4 wq = reinterpret_cast<const float4*>(row_taps + kx * sc)[q];
          wv[4 * q] = wq.x;
          wv[4 * q + 1] = wq.y;
          wv[4 * q + 2] = wq.z;
          wv[4 * q + 3] = wq.w;
        }
#pragma unroll
        for (int r = 0; r < kRun; ++r) {
          if (column_inside(t, columns.first[r] + shift)) {  // else padding, or an output past the row
            float v[kV];
            load_vector<kType>(line + at[r], v);
#pragma unroll
            for (int e = 0; e < kV; ++e) acc[r][e] = fmaf(v[e], wv[e], acc[r][e]);
          }
          at[r] += step;
        }
      }
    }
  }

  float bv[kV] = {};
  if (bs != nullptr)
#pragma unroll
    for (int e = 0; e < kV; ++e) bv[e] = E::widen(bs[e]);
#pragma unroll
  for (int r = 0; r < kRun; ++r) {
    if (r >= run.outputs) break;
    float out[kV];
#pragma unroll
    for (int e = 0; e < kV; ++e) out[e] = acc[r][e] + bv[e];
    __stcs(reinterpret_cast<float4*>(ys + output_offset(t, 0, 0, 0, r, 0)), pack_vector<kType>(out));
  }
}

}  // namespace kbench::gpu::conv::depthwise_nhwc
