#pragma once
// Small device-side utilities every GPU backend shares: seeded fills that reproduce
// data::draw element for element, constant (NaN) fills, an order-independent checksum of a
// buffer's bits, and a gather for sampled read-back. All launches are grid-stride with 64-bit
// indices (seed 76's input has more than 2^31 bytes) and are checked as they are issued.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <span>
#include <vector>

#include "data/counter_rng.hpp"

namespace kbench::gpu {

// data[i] = data::draw(seed, role, i, bound) for every i in [0, count).
void fill_seeded(float* data, std::int64_t count, std::uint64_t seed, data::TensorRole role, float bound,
                 cudaStream_t stream);

// data[i] = value for every i in [0, count).
void fill_value(float* data, std::int64_t count, float value, cudaStream_t stream);

// Sum (mod 2^64) over i of a 64-bit mix of (i, bit pattern of data[i]): independent of the order
// the terms are added in, so atomics may add them in any order, yet any change of a value or a
// swap of two values changes it with overwhelming probability. Synchronizes `stream`.
std::uint64_t checksum(const float* data, std::int64_t count, cudaStream_t stream);

// Host copies of data[indices[j]] (all `count` elements when `indices` is empty). Throws
// std::out_of_range for an index outside [0, count). Synchronizes `stream`.
std::vector<float> read_elements(const float* data, std::int64_t count, std::span<const std::int64_t> indices,
                                 cudaStream_t stream);

}  // namespace kbench::gpu
