#include "run/atomic_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>

#include "core/error.hpp"

namespace kbench {

void write_file_atomically(const std::string& path, const std::string& content) {
  const std::string temporary = fmt::format("{}.tmp.{}", path, getpid());
  std::FILE* file = std::fopen(temporary.c_str(), "wb");
  if (!file) throw OutputError(fmt::format("cannot write {}: {} (creating {})", path, std::strerror(errno), temporary));
  const bool written = std::fwrite(content.data(), 1, content.size(), file) == content.size() &&
                       std::fflush(file) == 0 && fsync(fileno(file)) == 0;
  const int write_errno = errno;
  std::fclose(file);
  if (!written) {
    std::remove(temporary.c_str());
    throw OutputError(fmt::format("cannot write {}: {} (writing {})", path, std::strerror(write_errno), temporary));
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const int rename_errno = errno;
    std::remove(temporary.c_str());
    throw OutputError(fmt::format("cannot write {}: cannot replace it: {}", path, std::strerror(rename_errno)));
  }
}

}  // namespace kbench
