#include "runtime/device_kernels.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "runtime/cuda_check.hpp"
#include "runtime/device_buffer.hpp"

namespace kbench::gpu {

namespace {

constexpr int kThreads = 256;
// Enough blocks to fill any current GPU several times over; grid-stride loops cover the rest.
constexpr std::int64_t kMaxBlocks = 1 << 16;

unsigned int blocks_for(std::int64_t count) {
  const std::int64_t wanted = (count + kThreads - 1) / kThreads;
  return static_cast<unsigned int>(std::clamp<std::int64_t>(wanted, 1, kMaxBlocks));
}

__device__ std::int64_t first_index() { return static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; }

__device__ std::int64_t grid_stride() { return static_cast<std::int64_t>(gridDim.x) * blockDim.x; }

// Elements are handled as bit patterns: fp32 as 32-bit words, fp16 and bf16 as 16-bit ones (their
// conversions are core/half.hpp's, so no cuda_fp16.h type is needed here).
template <class E>
__device__ std::uint32_t load_bits(const E* data, std::int64_t offset) {
  if constexpr (sizeof(E) == 4)
    return __float_as_uint(data[offset]);
  else
    return data[offset];
}

template <class E>
__device__ void store_bits(E* data, std::int64_t offset, std::uint32_t bits) {
  if constexpr (sizeof(E) == 4)
    data[offset] = __uint_as_float(bits);
  else
    data[offset] = static_cast<E>(bits);
}

template <class E>
__global__ void fill_seeded_kernel(E* data, TensorStorage s, std::uint64_t seed, data::TensorRole role, float bound) {
  for (std::int64_t i = first_index(); i < s.count; i += grid_stride())
    store_bits(data, i, seeded_element_bits(s, seed, role, bound, i));
}

template <class E>
__global__ void fill_bits_kernel(E* data, std::int64_t count, std::uint32_t bits) {
  for (std::int64_t i = first_index(); i < count; i += grid_stride()) store_bits(data, i, bits);
}

template <class E>
__global__ void checksum_kernel(const E* data, std::int64_t count, unsigned long long* sum) {
  std::uint64_t local = 0;
  for (std::int64_t i = first_index(); i < count; i += grid_stride()) local += checksum_term(i, load_bits(data, i));
  // Wrap-around addition is associative and commutative, so the reduction order does not matter.
  for (int offset = 16; offset > 0; offset /= 2) local += __shfl_down_sync(0xffffffffu, local, offset);
  if ((threadIdx.x & 31) == 0) atomicAdd(sum, static_cast<unsigned long long>(local));
}

// out[j] = the element at logical index indices[j] (first + j when indices is null), widened to float.
template <class E>
__global__ void gather_kernel(const E* data, TensorStorage s, const std::int64_t* indices, std::int64_t first,
                              std::int64_t n, float* out) {
  for (std::int64_t j = first_index(); j < n; j += grid_stride()) {
    const std::int64_t logical = indices ? indices[j] : first + j;
    out[j] = decode_element(s.dtype, load_bits(data, storage_offset(s, logical)));
  }
}

// Calls f(typed pointer) with the element type of `dtype`.
template <class F>
void with_elements(void* data, DType dtype, F&& f) {
  if (dtype == DType::fp32)
    f(static_cast<float*>(data));
  else
    f(static_cast<std::uint16_t*>(data));
}

template <class F>
void with_elements(const void* data, DType dtype, F&& f) {
  if (dtype == DType::fp32)
    f(static_cast<const float*>(data));
  else
    f(static_cast<const std::uint16_t*>(data));
}

}  // namespace

void fill_seeded(void* data, const TensorStorage& s, std::uint64_t seed, data::TensorRole role, float bound,
                 cudaStream_t stream) {
  if (s.count <= 0) return;
  with_elements(data, s.dtype, [&](auto* typed) {
    fill_seeded_kernel<<<blocks_for(s.count), kThreads, 0, stream>>>(typed, s, seed, role, bound);
  });
  KBENCH_CUDA_CHECK_LAUNCH();
}

void fill_seeded(float* data, std::int64_t count, std::uint64_t seed, data::TensorRole role, float bound,
                 cudaStream_t stream) {
  fill_seeded(static_cast<void*>(data), flat_storage(DType::fp32, count), seed, role, bound, stream);
}

void fill_nan(void* data, const TensorStorage& s, cudaStream_t stream) {
  if (s.count <= 0) return;
  with_elements(data, s.dtype, [&](auto* typed) {
    fill_bits_kernel<<<blocks_for(s.count), kThreads, 0, stream>>>(typed, s.count, nan_bits(s.dtype));
  });
  KBENCH_CUDA_CHECK_LAUNCH();
}

void fill_value(float* data, std::int64_t count, float value, cudaStream_t stream) {
  if (count <= 0) return;
  fill_bits_kernel<<<blocks_for(count), kThreads, 0, stream>>>(data, count, encode_element(DType::fp32, value));
  KBENCH_CUDA_CHECK_LAUNCH();
}

std::uint64_t checksum(const void* data, const TensorStorage& s, cudaStream_t stream) {
  DeviceBuffer<unsigned long long> sum(1);
  KBENCH_CUDA_CHECK(cudaMemsetAsync(sum.data(), 0, sum.bytes(), stream));
  if (s.count > 0) {
    with_elements(data, s.dtype, [&](const auto* typed) {
      checksum_kernel<<<blocks_for(s.count), kThreads, 0, stream>>>(typed, s.count, sum.data());
    });
    KBENCH_CUDA_CHECK_LAUNCH();
  }
  unsigned long long host = 0;
  KBENCH_CUDA_CHECK(cudaMemcpyAsync(&host, sum.data(), sizeof host, cudaMemcpyDeviceToHost, stream));
  KBENCH_CUDA_CHECK(cudaStreamSynchronize(stream));
  return static_cast<std::uint64_t>(host);
}

std::uint64_t checksum(const float* data, std::int64_t count, cudaStream_t stream) {
  return checksum(static_cast<const void*>(data), flat_storage(DType::fp32, count), stream);
}

namespace {

// Gathers n elements into `out` (host) through a device buffer of n floats.
template <class E>
void gather(const E* data, const TensorStorage& s, const std::int64_t* device_indices, std::int64_t first,
            std::int64_t n, float* out, cudaStream_t stream) {
  DeviceBuffer<float> device_values(n);
  gather_kernel<<<blocks_for(n), kThreads, 0, stream>>>(data, s, device_indices, first, n, device_values.data());
  KBENCH_CUDA_CHECK_LAUNCH();
  KBENCH_CUDA_CHECK(cudaMemcpyAsync(out, device_values.data(), device_values.bytes(), cudaMemcpyDeviceToHost, stream));
  KBENCH_CUDA_CHECK(cudaStreamSynchronize(stream));  // before device_values is freed
}

}  // namespace

std::vector<float> read_elements(const void* data, const TensorStorage& s, std::span<const std::int64_t> indices,
                                 cudaStream_t stream) {
  for (const std::int64_t index : indices)
    if (index < 0 || index >= s.count)
      throw std::out_of_range("read_elements: index " + std::to_string(index) + " outside [0, " +
                              std::to_string(s.count) + ")");
  if (indices.empty()) {
    // Every element, in logical order, converted in chunks: a float copy of a whole multi-GB output
    // might not fit beside it on the device.
    std::vector<float> all(static_cast<std::size_t>(s.count));
    constexpr std::int64_t kChunk = std::int64_t{1} << 24;
    for (std::int64_t first = 0; first < s.count; first += kChunk) {
      const std::int64_t n = std::min(kChunk, s.count - first);
      with_elements(data, s.dtype,
                    [&](const auto* typed) { gather(typed, s, nullptr, first, n, all.data() + first, stream); });
    }
    KBENCH_CUDA_CHECK(cudaStreamSynchronize(stream));
    return all;
  }
  const auto n = static_cast<std::int64_t>(indices.size());
  DeviceBuffer<std::int64_t> device_indices(n);
  KBENCH_CUDA_CHECK(
      cudaMemcpyAsync(device_indices.data(), indices.data(), device_indices.bytes(), cudaMemcpyHostToDevice, stream));
  std::vector<float> values(indices.size());
  with_elements(data, s.dtype,
                [&](const auto* typed) { gather(typed, s, device_indices.data(), 0, n, values.data(), stream); });
  return values;
}

std::vector<float> read_elements(const float* data, std::int64_t count, std::span<const std::int64_t> indices,
                                 cudaStream_t stream) {
  return read_elements(static_cast<const void*>(data), flat_storage(DType::fp32, count), indices, stream);
}

}  // namespace kbench::gpu
