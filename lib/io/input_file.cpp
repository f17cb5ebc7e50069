#include "io/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>

#include <fmt/format.h>

#include "core/error.hpp"

namespace kbench::io {

namespace {

// Closes the descriptor on every way out of read_input_file.
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

std::string errno_text(int error) {
  // ELOOP's own text ("Too many levels of symbolic links") does not say what to do about it.
  if (error == ELOOP) return "a symbolic link loop (a link that leads back to itself)";
  return std::strerror(error);
}

std::string format_bytes(std::uintmax_t bytes) {
  if (bytes >= (std::uintmax_t{1} << 20) && bytes % (std::uintmax_t{1} << 20) == 0)
    return fmt::format("{} MiB", bytes >> 20);
  return fmt::format("{} bytes", bytes);
}

[[noreturn]] void refuse(const std::string& path, std::string_view what, const std::string& reason) {
  throw InputError(fmt::format("{}: cannot open {}: {}", path, what, reason));
}

std::string too_large(std::uintmax_t size, std::uintmax_t max_bytes) {
  return fmt::format("it is {} bytes; the limit is {}", size, format_bytes(max_bytes));
}

}  // namespace

std::string describe_file_type(unsigned mode) {
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a named pipe (FIFO)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

std::string read_input_file(const std::string& path, std::string_view what, std::uintmax_t max_bytes) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer, forever.
  const Descriptor fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (fd.get() < 0) refuse(path, what, errno_text(errno));
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) refuse(path, what, errno_text(errno));
  if (!S_ISREG(info.st_mode))
    refuse(path, what, fmt::format("it is {}; expected a regular file", describe_file_type(info.st_mode)));
  const auto size = static_cast<std::uintmax_t>(info.st_size);
  if (size > max_bytes) refuse(path, what, too_large(size, max_bytes));

  // Read to the end rather than st_size bytes: the file may change while it is read. One byte past
  // the limit is enough to know it is over.
  std::string text;
  text.reserve(static_cast<std::size_t>(size));
  char buffer[1 << 16];
  while (text.size() <= max_bytes) {
    const ssize_t got = ::read(fd.get(), buffer, sizeof buffer);
    if (got < 0) {
      if (errno == EINTR) continue;
      refuse(path, what, errno_text(errno));
    }
    if (got == 0) return text;
    text.append(buffer, static_cast<std::size_t>(got));
  }
  refuse(path, what, too_large(text.size(), max_bytes) + " (it grew while being read)");
}

PathKind check_input_path(const std::string& path, std::string_view what, bool allow_directory) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) refuse(path, what, errno_text(errno));
  if (S_ISREG(info.st_mode)) return PathKind::regular_file;
  if (S_ISDIR(info.st_mode) && allow_directory) return PathKind::directory;
  refuse(path, what,
         fmt::format("it is {}; expected a regular file{}", describe_file_type(info.st_mode),
                     allow_directory ? " or a directory" : ""));
}

std::optional<std::string> read_standard_input(std::uintmax_t max_bytes) {
  std::string text;
  char buffer[65536];
  while (std::cin.read(buffer, sizeof buffer) || std::cin.gcount() > 0) {
    text.append(buffer, static_cast<std::size_t>(std::cin.gcount()));
    if (text.size() > max_bytes) return std::nullopt;
  }
  return text;
}

}  // namespace kbench::io
