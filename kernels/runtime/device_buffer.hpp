#pragma once
// RAII device memory. Sizes are in elements; 64-bit throughout (problem 76's input has 2^31+ floats).
#include <cuda_runtime_api.h>

#include <cstdint>
#include <utility>

#include "runtime/cuda_check.hpp"

namespace kbench::gpu {

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::int64_t count) : count_(count) {
    if (count_ > 0) KBENCH_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&data_), bytes()));
  }
  ~DeviceBuffer() { reset(); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      reset();
      data_ = std::exchange(other.data_, nullptr);
      count_ = std::exchange(other.count_, 0);
    }
    return *this;
  }

  T* data() const { return data_; }
  std::int64_t size() const { return count_; }
  std::size_t bytes() const { return static_cast<std::size_t>(count_) * sizeof(T); }

 private:
  void reset() noexcept {
    if (data_) cudaFree(data_);  // no throw from a destructor; a failed free leaves nothing to undo
    data_ = nullptr;
    count_ = 0;
  }
  T* data_ = nullptr;
  std::int64_t count_ = 0;
};

}  // namespace kbench::gpu
