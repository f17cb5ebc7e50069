#pragma once
// NumPy .npy files (format 1.0, little-endian, C order) for --dump, so a mismatch can be opened
// with numpy.load and set against PyTorch.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace kbench::data {

void write_npy(const std::string& path, std::span<const float> values, const std::vector<std::int64_t>& shape);
void write_npy(const std::string& path, std::span<const double> values, const std::vector<std::int64_t>& shape);
// 16-bit elements under a given numpy type: "<f2" (IEEE half, numpy.float16) or "<u2" (bf16's bit
// patterns: numpy has no bfloat16).
void write_npy(const std::string& path, std::span<const std::uint16_t> values, const std::vector<std::int64_t>& shape,
               const char* descr);

}  // namespace kbench::data
