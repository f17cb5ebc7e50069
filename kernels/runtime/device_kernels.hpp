#pragma once
// Small device-side utilities every GPU backend shares: seeded fills that reproduce
// data::draw_as element for element, constant (NaN) fills, an order-independent checksum of a
// buffer's bits, and a gather for sampled read-back. All launches are grid-stride with 64-bit
// indices (problem 76's input has more than 2^31 bytes) and are checked as they are issued.
//
// The TensorStorage overloads handle any dtype (fp32, fp16, bf16 as 16-bit patterns) and layout
// (runtime/tensor_storage.hpp): values and read-back indices are LOGICAL, the kernels walk memory
// offsets. The float overloads are the fp32, flat special case (offset = index).
#include <cuda_runtime_api.h>

#include <cstdint>
#include <span>
#include <vector>

#include "data/counter_rng.hpp"
#include "runtime/tensor_storage.hpp"

namespace kbench::gpu {

// At every memory offset i of `data` (s.count elements of s.dtype): the bits of
// data::draw_as(s.dtype, seed, role, storage_logical(s, i), bound). Offsets in order, so writes coalesce.
void fill_seeded(void* data, const TensorStorage& s, std::uint64_t seed, data::TensorRole role, float bound,
                 cudaStream_t stream);
// data[i] = data::draw(seed, role, i, bound) for every i in [0, count).
void fill_seeded(float* data, std::int64_t count, std::uint64_t seed, data::TensorRole role, float bound,
                 cudaStream_t stream);

// Every element a quiet NaN of s.dtype.
void fill_nan(void* data, const TensorStorage& s, cudaStream_t stream);
// data[i] = value for every i in [0, count).
void fill_value(float* data, std::int64_t count, float value, cudaStream_t stream);

// Sum (mod 2^64) over memory offsets i of checksum_term(i, bits of element i) (tensor_storage.hpp):
// independent of the order the terms are added in, so atomics may add them in any order, yet any
// change of a value or a swap of two values changes it with overwhelming probability. Synchronizes
// `stream`.
std::uint64_t checksum(const void* data, const TensorStorage& s, cudaStream_t stream);
std::uint64_t checksum(const float* data, std::int64_t count, cudaStream_t stream);

// The elements at LOGICAL indices `indices` (all s.count, in logical order, when `indices` is
// empty), each read at its memory offset and widened exactly to float. Throws std::out_of_range
// for an index outside [0, s.count). Synchronizes `stream`.
std::vector<float> read_elements(const void* data, const TensorStorage& s, std::span<const std::int64_t> indices,
                                 cudaStream_t stream);
std::vector<float> read_elements(const float* data, std::int64_t count, std::span<const std::int64_t> indices,
                                 cudaStream_t stream);

}  // namespace kbench::gpu
