#include "io/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "core/error.hpp"

namespace kbench::io {

namespace {

// The temporary file being written, for remove_pending_temporary_file: a plain buffer a signal
// handler may read, published by the flag once it holds a whole path.
char g_pending_path[PATH_MAX];
std::atomic<bool> g_pending{false};

void set_pending(const std::string& path) {
  g_pending.store(false);
  if (path.size() >= sizeof g_pending_path) return;  // not removable by the handler; rare and harmless
  std::memcpy(g_pending_path, path.c_str(), path.size() + 1);
  g_pending.store(true);
}

// Random enough that two processes (or a leftover) never meet: pid, clock and a counter, mixed.
std::string random_suffix() {
  static std::atomic<std::uint64_t> counter{0};
  std::uint64_t x = static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
                    (static_cast<std::uint64_t>(getpid()) << 32) ^ (counter.fetch_add(1) * 0x9E3779B97F4A7C15ull);
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  static constexpr char kAlphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::string out;
  for (int i = 0; i < 8; ++i, x /= 62) out += kAlphabet[x % 62];
  return out;
}

class TemporaryFile {
 public:
  // Made in PATH's directory, so the rename stays on one file system.
  explicit TemporaryFile(const std::string& path) : target_(path) {
    namespace fs = std::filesystem;
    const fs::path target(path);
    const std::string directory = target.has_parent_path() ? target.parent_path().string() : std::string(".");
    const long name_max = ::pathconf(directory.c_str(), _PC_NAME_MAX);
    const std::string prefix = temporary_name_prefix(target.filename().string(), name_max > 0 ? name_max : 255);
    for (int attempt = 0; attempt < 100; ++attempt) {
      const std::string candidate =
          (target.has_parent_path() ? target.parent_path() / (prefix + random_suffix()) : fs::path(prefix + random_suffix()))
              .string();
      set_pending(candidate);
      // 0600 until it is complete: a private file's content is never readable at the temporary name.
      fd_ = ::open(candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
      if (fd_ >= 0) {
        path_ = candidate;
        return;
      }
      g_pending.store(false);
      if (errno != EEXIST) break;
    }
    throw OutputError(fmt::format("cannot write {}: {} (creating a temporary file beside it)", path, std::strerror(errno)));
  }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  ~TemporaryFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!path_.empty()) {
      g_pending.store(false);
      ::unlink(path_.c_str());
    }
  }

  [[noreturn]] void fail(const char* doing, int error) const {
    throw OutputError(fmt::format("cannot write {}: {} ({} {})", target_, std::strerror(error), doing, path_));
  }

  void write_all(const std::string& content) {
    for (std::size_t done = 0; done < content.size();) {
      const ssize_t wrote = ::write(fd_, content.data() + done, content.size() - done);
      if (wrote < 0 && errno == EINTR) continue;
      if (wrote <= 0) fail("writing", wrote == 0 ? EIO : errno);
      done += static_cast<std::size_t>(wrote);
    }
  }

  // The target's mode, and its owner and group where this process may give them (root, or a group
  // it is in): a rewrite changes the content, not who may read it.
  void take_mode_of_target() {
    struct stat target {};
    if (::stat(target_.c_str(), &target) == 0 && S_ISREG(target.st_mode)) {
      if ((target.st_uid != ::geteuid() || target.st_gid != ::getegid()) &&
          ::fchown(fd_, target.st_uid, target.st_gid) != 0)
        (void)::fchown(fd_, static_cast<uid_t>(-1), target.st_gid);  // the group alone, when we are its member
      if (::fchmod(fd_, target.st_mode & 07777) != 0) fail("setting the mode of", errno);
      return;
    }
    // A new file: what open(..., 0666) would have made, the umask applied.
    const mode_t mask = ::umask(0);
    ::umask(mask);
    if (::fchmod(fd_, 0666 & ~mask) != 0) fail("setting the mode of", errno);
  }

  void flush_and_close() {
    if (::fsync(fd_) != 0) fail("flushing", errno);
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) fail("closing", errno);
  }

  // False when the file system refuses to replace this target by a rename (a mount point) though
  // it may be writable in place.
  bool rename_over_target() {
    if (::rename(path_.c_str(), target_.c_str()) == 0) {
      g_pending.store(false);
      path_.clear();
      return true;
    }
    if (errno == EBUSY || errno == EXDEV) return false;
    throw OutputError(fmt::format("cannot write {}: cannot replace it: {}", target_, std::strerror(errno)));
  }

 private:
  std::string target_, path_;
  int fd_ = -1;
};

}  // namespace

std::string temporary_name_prefix(const std::string& file_name, long name_max) {
  // "." + name + ".tmp." + 8 random characters.
  const std::size_t room = name_max > 14 ? static_cast<std::size_t>(name_max) - 14 : 0;
  std::string prefix(1, '.');
  prefix.append(file_name, 0, room);
  prefix += ".tmp.";
  return prefix;
}

bool replace_file(const std::string& path, const std::string& content) {
  TemporaryFile temporary(path);
  temporary.take_mode_of_target();
  temporary.write_all(content);
  temporary.flush_and_close();
  return temporary.rename_over_target();
}

void write_file_atomically(const std::string& path, const std::string& content) {
  if (!replace_file(path, content))
    throw OutputError(fmt::format("cannot write {}: cannot replace it: {}", path, std::strerror(EBUSY)));
}

void remove_pending_temporary_file() noexcept {
  if (g_pending.load()) ::unlink(g_pending_path);
}

}  // namespace kbench::io
