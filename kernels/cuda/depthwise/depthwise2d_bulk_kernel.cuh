#pragma once
// Depthwise 2-D convolution through bulk copies (`depthwise2d/bulk_copies` and `/bulk_pipelined`,
// sm_90): a block loads a strip's input window into shared memory with one bulk copy per row,
// computes the strip into a shared staging area, and writes it with one bulk copy. Tiling,
// schedules and the reasons for them: depthwise_bulk_index.hpp. Device code only (its entry point is
// depthwise2d.cu); the CPU emulation tests run it too.
#include <cstdint>

#include "cuda/common/bulk_copy_ops.cuh"
#include "cuda/depthwise/depthwise_bulk_index.hpp"
#include "cuda/depthwise/depthwise_weights.cuh"

namespace kbench::gpu::conv::depthwise {

// Blocks per SM the registers must allow: one stage, four at 3x3 (64 registers: the weights and
// the sliding window take 18), three at 5x5 (50), two at 7x7 (98); two stages, two (their shared
// memory holds no more).
__host__ __device__ constexpr int bulk_min_blocks(int kernel, int stages) {
  return stages == 2 ? 2 : (kernel == 3 ? 4 : (kernel == 5 ? 3 : 2));
}

// Zeros where the window holds no input: the margins of the loaded rows, whole rows in the padding.
// Offsets within shared memory fit an int (32-bit division is a few instructions, 64-bit ~50).
__device__ __forceinline__ void zero_window_padding(const BulkParams& t, const BulkStrip& s, float* window, int tid) {
  const int pitch = static_cast<int>(t.pitch), margins = static_cast<int>(t.pitch - t.in_w);
  const int loaded_begin = static_cast<int>(s.loaded_begin), loaded_end = static_cast<int>(s.loaded_end);
  const int loaded = loaded_end - loaded_begin;
  for (int z = tid; z < loaded * margins; z += kBulkThreads) {
    const int row = loaded_begin + z / margins;
    window[row * pitch + static_cast<int>(bulk_margin_column(t, z % margins))] = 0.0f;
  }
  const int padded = static_cast<int>(s.window_rows(t.kernel)) - loaded;
  for (int z = tid; z < padded * pitch; z += kBulkThreads) {
    const int k = z / pitch;  // k-th padding row: the top ones first
    const int row = k < loaded_begin ? k : loaded_end + (k - loaded_begin);
    window[row * pitch + z % pitch] = 0.0f;
  }
}

// One output column over the item's rows. Window row q sits in ring slot (q - row_begin) % K, so
// every slot index is a compile-time constant once the row loop is unrolled by K.
template <int K>
__device__ __forceinline__ void compute_item(const BulkParams& t, const BulkItem& it, const float* window,
                                             float* staging, const float (&wk)[K][K], float b0) {
  const int row_begin = static_cast<int>(it.row_begin), row_end = static_cast<int>(it.row_end);
  if (row_begin >= row_end) return;  // a segment past the last strip's rows
  const int pitch = static_cast<int>(t.pitch), out_w = static_cast<int>(t.out_w);
  const float* col = window + bulk_window_column(t, it.column, 0);
  float* out = staging + it.column;
  float ring[K][K];
#pragma unroll
  for (int q = 0; q < K - 1; ++q)
#pragma unroll
    for (int kw = 0; kw < K; ++kw) ring[q][kw] = col[(row_begin + q) * pitch + kw];
  for (int row = row_begin; row < row_end; row += K) {
#pragma unroll
    for (int u = 0; u < K; ++u) {
      if (row + u < row_end) {
        const float* fresh = col + (row + u + K - 1) * pitch;
#pragma unroll
        for (int kw = 0; kw < K; ++kw) ring[(u + K - 1) % K][kw] = fresh[kw];
        float acc = b0;
#pragma unroll
        for (int kh = 0; kh < K; ++kh)
#pragma unroll
          for (int kw = 0; kw < K; ++kw) acc = fmaf(ring[(u + kh) % K][kw], wk[kh][kw], acc);
        out[(row + u) * out_w] = acc;
      }
    }
  }
}

// Starts strip `s` into `window`: warp 0 announces its bytes on `barrier` and issues one copy per
// loaded row (lane 0 arrives first, so the copies complete bytes already expected); every thread
// zeroes its share of the padding. Every thread of the block calls it.
__device__ __forceinline__ void start_strip(const BulkParams& t, const BulkStrip& s, const float* __restrict__ x,
                                            float* window, std::uint64_t* barrier, int tid) {
  if (tid < 32) {
    const auto row_bytes = static_cast<unsigned>(t.in_w * 4);
    const auto rows = static_cast<unsigned>(s.loaded_end - s.loaded_begin);
    if (tid == 0) mbarrier_arrive_expect_tx(barrier, rows * row_bytes);
    __syncwarp();
    const float* plane = x + s.plane * t.in_h * t.in_w;
    for (std::int64_t row = s.loaded_begin + tid; row < s.loaded_end; row += 32)
      bulk_copy_to_shared(window + row * t.pitch + t.margin, plane + (s.first_input_row + row) * t.in_w, row_bytes,
                          barrier);
  }
  zero_window_padding(t, s, window, tid);
}

// Strips blockIdx.x, + gridDim.x, ... of t.total_strips(). STAGES 1: one window and staging area,
// each strip loaded, computed and stored in turn (launched with a block per strip, the loop runs
// once). STAGES 2: stage j % 2 serves the block's j-th strip; strip j + 1's rows are requested
// before strip j is computed, and strip j's copy out drains while strip j + 1 is.
template <int K, int STAGES>
__global__ void __launch_bounds__(kBulkThreads, bulk_min_blocks(K, STAGES))
    depthwise2d_bulk_kernel(const BulkParams t, const float* __restrict__ x, const float* __restrict__ w,
                            const float* __restrict__ bias, float* __restrict__ y) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
  __trap();  // bulk copies need sm_90; device_support keeps this choice off older devices
#else
  static_assert(STAGES == 1 || STAGES == 2);
  extern __shared__ __align__(16) unsigned char bulk_smem[];
  auto* barriers = reinterpret_cast<std::uint64_t*>(bulk_smem);
  const auto window = [&](int stage) { return reinterpret_cast<float*>(bulk_smem + t.window_offset_bytes(stage)); };
  const auto staging = [&](int stage) { return reinterpret_cast<float*>(bulk_smem + t.staging_offset_bytes(stage)); };
  const int tid = static_cast<int>(threadIdx.x);
  const std::int64_t total = t.total_strips(), step = gridDim.x;

  if (tid == 0) {
#pragma unroll
    for (int stage = 0; stage < STAGES; ++stage) mbarrier_init(&barriers[stage], 1);
    fence_mbarrier_init();
  }
  __syncthreads();
  if (STAGES == 2 && static_cast<std::int64_t>(blockIdx.x) < total)
    start_strip(t, bulk_strip(t, blockIdx.x), x, window(0), &barriers[0], tid);

  int j = 0;
  for (std::int64_t strip = blockIdx.x; strip < total; strip += step, ++j) {
    const int stage = STAGES == 2 ? (j & 1) : 0;
    const BulkStrip s = bulk_strip(t, strip);
    if (tid == 0) bulk_wait_read<STAGES - 1>();  // this stage's previous copy out has read its staging
    __syncthreads();                             // and nobody still reads the window the next copies in overwrite
    if (STAGES == 1) {
      start_strip(t, s, x, window(0), &barriers[0], tid);
      __syncthreads();  // the zeros
    } else if (strip + step < total) {
      start_strip(t, bulk_strip(t, strip + step), x, window(stage ^ 1), &barriers[stage ^ 1], tid);
    }
    const std::int64_t channel = s.plane % t.channels;
    float wk[K][K];
    load_plane_weights<K>(w, channel, wk);
    const float b0 = plane_bias(bias, channel);
    // The k-th use of a stage's barrier completes its phase k.
    mbarrier_wait(&barriers[stage], static_cast<unsigned>((STAGES == 2 ? j >> 1 : j) & 1));
    for (std::int64_t item = tid; item < t.items(); item += kBulkThreads)
      compute_item<K>(t, bulk_item(t, s, item), window(stage), staging(stage), wk, b0);

    fence_proxy_async_shared();  // this thread's staging writes, before the copy engine reads them
    __syncthreads();
    if (tid == 0) {
      bulk_copy_to_global(y + (s.plane * t.out_h + s.row_begin) * t.out_w, staging(stage),
                          static_cast<unsigned>(s.rows * t.out_w * 4));
      bulk_commit();
    }
  }
  if (tid == 0) bulk_wait_read<0>();  // the block's shared memory must outlive the copies' reads
#endif
}

}  // namespace kbench::gpu::conv::depthwise
