#include "run/atomic_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

namespace kbench {

void write_file_atomically(const std::string& path, const std::string& content) {
  const std::string temporary = fmt::format("{}.tmp.{}", path, getpid());
  std::FILE* file = std::fopen(temporary.c_str(), "wb");
  if (!file) throw std::runtime_error(fmt::format("cannot write {}: {}", temporary, std::strerror(errno)));
  const bool written = std::fwrite(content.data(), 1, content.size(), file) == content.size() &&
                       std::fflush(file) == 0 && fsync(fileno(file)) == 0;
  const int write_errno = errno;
  std::fclose(file);
  if (!written) {
    std::remove(temporary.c_str());
    throw std::runtime_error(fmt::format("cannot write {}: {}", temporary, std::strerror(write_errno)));
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const int rename_errno = errno;
    std::remove(temporary.c_str());
    throw std::runtime_error(fmt::format("cannot replace {}: {}", path, std::strerror(rename_errno)));
  }
}

}  // namespace kbench
