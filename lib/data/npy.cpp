#include "data/npy.hpp"

#include <bit>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.hpp"

namespace kbench::data {

namespace {

static_assert(std::endian::native == std::endian::little, "the .npy writer assumes a little-endian host");

template <class T>
void write(const std::string& path, std::span<const T> values, const std::vector<std::int64_t>& shape,
           const char* descr) {
  // A 1-tuple needs its trailing comma in Python syntax: (5,)
  const std::string dims = shape.size() == 1 ? fmt::format("{},", shape[0]) : fmt::format("{}", fmt::join(shape, ", "));
  std::string header = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': ({}), }}", descr, dims);
  // Magic (6) + version (2) + header length (2) + header + '\n' must be a multiple of 64.
  const std::size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header.push_back('\n');

  std::ofstream out(path, std::ios::binary);
  if (!out) throw OutputError(fmt::format("cannot write {}: {}", path, std::strerror(errno)));
  out.write("\x93NUMPY\x01\x00", 8);
  const auto length = static_cast<std::uint16_t>(header.size());
  const char length_bytes[2] = {static_cast<char>(length & 0xff), static_cast<char>(length >> 8)};
  out.write(length_bytes, 2);
  out.write(header.data(), static_cast<std::streamsize>(header.size()));
  out.write(reinterpret_cast<const char*>(values.data()), static_cast<std::streamsize>(values.size_bytes()));
  out.close();  // the last buffer is written here: a full disk may only show now
  if (!out) throw OutputError(fmt::format("cannot write {}: {}", path, std::strerror(errno)));
}

}  // namespace

void write_npy(const std::string& path, std::span<const float> values, const std::vector<std::int64_t>& shape) {
  write(path, values, shape, "<f4");
}

void write_npy(const std::string& path, std::span<const double> values, const std::vector<std::int64_t>& shape) {
  write(path, values, shape, "<f8");
}

void write_npy(const std::string& path, std::span<const std::uint16_t> values, const std::vector<std::int64_t>& shape,
               const char* descr) {
  write(path, values, shape, descr);
}

}  // namespace kbench::data
