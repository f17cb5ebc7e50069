#include "io/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "core/error.hpp"
#include "io/input_file.hpp"
#include "run/atomic_file.hpp"

namespace kbench::io {

namespace {

namespace fs = std::filesystem;

[[noreturn]] void refuse(std::string_view flag, const std::string& path, const std::string& reason) {
  throw InputError(fmt::format("{}: {}: {}", flag, path, reason));
}

std::string parent_of(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

// A directory new files can be made in. access() rather than trying: the check must create nothing;
// it still sees a read-only file system (EROFS), even for root.
void require_writable_directory(std::string_view flag, const std::string& path, const std::string& directory) {
  struct stat info {};
  if (::stat(directory.c_str(), &info) != 0) {
    if (errno == ENOENT) refuse(flag, path, fmt::format("the directory {} does not exist", directory));
    refuse(flag, path, fmt::format("cannot use the directory {}: {}", directory, std::strerror(errno)));
  }
  if (!S_ISDIR(info.st_mode))
    refuse(flag, path, fmt::format("{} is {}, not a directory", directory, describe_file_type(info.st_mode)));
  if (::access(directory.c_str(), W_OK | X_OK) != 0)
    refuse(flag, path, fmt::format("cannot create files in {}: {}", directory, std::strerror(errno)));
}

}  // namespace

void check_output_file(const std::string& path, std::string_view flag) {
  if (path.empty()) refuse(flag, "''", "expected a file name");
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    if (errno != ENOENT) refuse(flag, path, std::strerror(errno));
    require_writable_directory(flag, path, parent_of(path));
    return;
  }
  if (S_ISDIR(info.st_mode)) refuse(flag, path, "it is a directory; expected a file name");
  // A block device or a socket is never a report's place: writing a disk as root would wreck it.
  if (!S_ISREG(info.st_mode) && !S_ISCHR(info.st_mode) && !S_ISFIFO(info.st_mode))
    refuse(flag, path,
           fmt::format("it is {}; expected a regular file, a new file, a pipe or a character device",
                       describe_file_type(info.st_mode)));
  if (::access(path.c_str(), W_OK) != 0) refuse(flag, path, fmt::format("cannot write it: {}", std::strerror(errno)));
  // A regular file is replaced by a rename, which needs its directory writable too.
  if (is_rewritable_file(path)) require_writable_directory(flag, path, parent_of(path));
}

void check_output_directory(const std::string& path, std::string_view flag) {
  if (path.empty()) refuse(flag, "''", "expected a directory name");
  std::error_code error;
  fs::path existing = fs::absolute(path, error);
  if (error) refuse(flag, path, error.message());
  // The nearest ancestor that exists decides: create_directories makes the rest when the run writes.
  while (!fs::exists(fs::symlink_status(existing, error)) && existing.has_relative_path())
    existing = existing.parent_path();
  struct stat info {};
  if (::stat(existing.c_str(), &info) != 0)
    refuse(flag, path, fmt::format("{}: {}", existing.string(), std::strerror(errno)));
  if (!S_ISDIR(info.st_mode))
    refuse(flag, path, fmt::format("{} is {}, not a directory", existing.string(), describe_file_type(info.st_mode)));
  if (::access(existing.c_str(), W_OK | X_OK) != 0)
    refuse(flag, path, fmt::format("cannot create files in {}: {}", existing.string(), std::strerror(errno)));
}

bool is_rewritable_file(const std::string& path) {
  // lstat: a rename replaces a symbolic link itself, not what it points to. /dev/stdout is one (to
  // /proc/self/fd/1): renaming over it would, as root, break /dev/stdout for the whole machine, and
  // the report would miss the file the shell redirected to. A link is written through, in place.
  struct stat info {};
  return ::lstat(path.c_str(), &info) != 0 || S_ISREG(info.st_mode);
}

void write_output_file(const std::string& path, const std::string& content) {
  if (is_rewritable_file(path)) return write_file_atomically(path, content);
  const auto fail = [&](const char* doing) {
    throw OutputError(fmt::format("cannot write {}: {}{}", path, doing, std::strerror(errno)));
  };
  // O_NONBLOCK for the open only: a FIFO without a reader fails (ENXIO) instead of waiting forever;
  // then blocking writes, so a slow reader gets every byte. O_TRUNC and O_CREAT for a link to a
  // regular file (or to none yet), as a shell's `>` would; devices and pipes ignore them.
  const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_TRUNC | O_CREAT, 0666);
  if (fd < 0) fail(errno == ENXIO ? "no process reads the pipe: " : "");
  const auto close_and_fail = [&](const char* doing) {
    const int saved = errno;
    ::close(fd);
    errno = saved;
    fail(doing);
  };
  if (const int flags = ::fcntl(fd, F_GETFL); flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0)
    close_and_fail("");
  for (std::size_t done = 0; done < content.size();) {
    const ssize_t wrote = ::write(fd, content.data() + done, content.size() - done);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote == 0) errno = EIO;
    if (wrote <= 0) close_and_fail("");
    done += static_cast<std::size_t>(wrote);
  }
  if (::close(fd) != 0) fail("");
}

}  // namespace kbench::io
