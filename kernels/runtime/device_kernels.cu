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

__global__ void fill_seeded_kernel(float* data, std::int64_t count, std::uint64_t seed, data::TensorRole role,
                                   float bound) {
  for (std::int64_t i = first_index(); i < count; i += grid_stride())
    data[i] = data::draw(seed, role, static_cast<std::uint64_t>(i), bound);
}

__global__ void fill_value_kernel(float* data, std::int64_t count, float value) {
  for (std::int64_t i = first_index(); i < count; i += grid_stride()) data[i] = value;
}

__device__ std::uint64_t checksum_term(std::int64_t index, float value) {
  const std::uint64_t bits = __float_as_uint(value);
  return data::mix64((bits << 32) ^ data::mix64(static_cast<std::uint64_t>(index) + 0x632be59bd9b4e019ULL));
}

__global__ void checksum_kernel(const float* data, std::int64_t count, unsigned long long* sum) {
  std::uint64_t local = 0;
  for (std::int64_t i = first_index(); i < count; i += grid_stride()) local += checksum_term(i, data[i]);
  // Wrap-around addition is associative and commutative, so the reduction order does not matter.
  for (int offset = 16; offset > 0; offset /= 2) local += __shfl_down_sync(0xffffffffu, local, offset);
  if ((threadIdx.x & 31) == 0) atomicAdd(sum, static_cast<unsigned long long>(local));
}

__global__ void gather_kernel(const float* data, const std::int64_t* indices, std::int64_t count, float* out) {
  for (std::int64_t j = first_index(); j < count; j += grid_stride()) out[j] = data[indices[j]];
}

}  // namespace

void fill_seeded(float* data, std::int64_t count, std::uint64_t seed, data::TensorRole role, float bound,
                 cudaStream_t stream) {
  if (count <= 0) return;
  fill_seeded_kernel<<<blocks_for(count), kThreads, 0, stream>>>(data, count, seed, role, bound);
  KBENCH_CUDA_CHECK_LAUNCH();
}

void fill_value(float* data, std::int64_t count, float value, cudaStream_t stream) {
  if (count <= 0) return;
  fill_value_kernel<<<blocks_for(count), kThreads, 0, stream>>>(data, count, value);
  KBENCH_CUDA_CHECK_LAUNCH();
}

std::uint64_t checksum(const float* data, std::int64_t count, cudaStream_t stream) {
  DeviceBuffer<unsigned long long> sum(1);
  KBENCH_CUDA_CHECK(cudaMemsetAsync(sum.data(), 0, sum.bytes(), stream));
  if (count > 0) {
    checksum_kernel<<<blocks_for(count), kThreads, 0, stream>>>(data, count, sum.data());
    KBENCH_CUDA_CHECK_LAUNCH();
  }
  unsigned long long host = 0;
  KBENCH_CUDA_CHECK(cudaMemcpyAsync(&host, sum.data(), sizeof host, cudaMemcpyDeviceToHost, stream));
  KBENCH_CUDA_CHECK(cudaStreamSynchronize(stream));
  return static_cast<std::uint64_t>(host);
}

std::vector<float> read_elements(const float* data, std::int64_t count, std::span<const std::int64_t> indices,
                                 cudaStream_t stream) {
  if (indices.empty()) {
    std::vector<float> all(static_cast<std::size_t>(count));
    if (count > 0)
      KBENCH_CUDA_CHECK(cudaMemcpyAsync(all.data(), data, all.size() * sizeof(float), cudaMemcpyDeviceToHost, stream));
    KBENCH_CUDA_CHECK(cudaStreamSynchronize(stream));
    return all;
  }
  for (const std::int64_t index : indices)
    if (index < 0 || index >= count)
      throw std::out_of_range("read_elements: index " + std::to_string(index) + " outside [0, " +
                              std::to_string(count) + ")");
  const auto n = static_cast<std::int64_t>(indices.size());
  DeviceBuffer<std::int64_t> device_indices(n);
  DeviceBuffer<float> device_values(n);
  KBENCH_CUDA_CHECK(
      cudaMemcpyAsync(device_indices.data(), indices.data(), device_indices.bytes(), cudaMemcpyHostToDevice, stream));
  gather_kernel<<<blocks_for(n), kThreads, 0, stream>>>(data, device_indices.data(), n, device_values.data());
  KBENCH_CUDA_CHECK_LAUNCH();
  std::vector<float> values(indices.size());
  KBENCH_CUDA_CHECK(
      cudaMemcpyAsync(values.data(), device_values.data(), device_values.bytes(), cudaMemcpyDeviceToHost, stream));
  KBENCH_CUDA_CHECK(cudaStreamSynchronize(stream));
  return values;
}

}  // namespace kbench::gpu
