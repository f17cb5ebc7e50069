#include "io/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <cstdio>
#include <iostream>
#include <optional>

#include <fmt/format.h>

#include "core/error.hpp"
#include "io/atomic_file.hpp"
#include "io/input_file.hpp"

namespace kbench::io {

namespace {

namespace fs = std::filesystem;

OutputPlan refused(std::string reason) { return {WriteMode::in_place, std::move(reason)}; }

std::string parent_of(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

// Why new files cannot be made in DIRECTORY, if they cannot. access() rather than trying: the check
// must create nothing; it still sees a read-only file system (EROFS), even for root.
std::optional<std::string> directory_refusal(const std::string& directory) {
  struct stat info {};
  if (::stat(directory.c_str(), &info) != 0) {
    if (errno == ENOENT) return fmt::format("the directory {} does not exist", directory);
    return fmt::format("cannot use the directory {}: {}", directory, std::strerror(errno));
  }
  if (!S_ISDIR(info.st_mode)) return fmt::format("{} is {}, not a directory", directory, describe_file_type(info.st_mode));
  if (::access(directory.c_str(), W_OK | X_OK) != 0)
    return fmt::format("cannot create files in {}: {}", directory, std::strerror(errno));
  return std::nullopt;
}

// Where a chain of symbolic links ends when its last target does not exist (the file a write through
// it creates, as a shell's `>` would); nullopt for a loop.
std::optional<std::string> dangling_target(const std::string& path) {
  fs::path at(path);
  for (int hop = 0; hop < 40; ++hop) {
    std::error_code error;
    const fs::file_status status = fs::symlink_status(at, error);
    if (error || !fs::is_symlink(status)) return at.string();
    const fs::path next = fs::read_symlink(at, error);
    if (error) return std::nullopt;
    at = next.is_absolute() ? next : at.parent_path() / next;
  }
  return std::nullopt;
}

// Whether a rename in its directory can replace the regular file PATH (FILE its lstat). A rename
// needs the directory writable, cannot replace a mount point (a file bind-mounted into a container,
// EBUSY), would split a file with other hard links from them, and in a sticky directory (/tmp) is
// refused on another user's file; writing in place is what cp, a shell's `>` and editors do then.
bool rename_can_replace(const std::string& path, const struct stat& file) {
  const std::string directory = parent_of(path);
  struct stat dir {};
  if (::stat(directory.c_str(), &dir) != 0 || ::access(directory.c_str(), W_OK | X_OK) != 0) return false;
  if (dir.st_dev != file.st_dev || file.st_nlink > 1) return false;
#if defined(STATX_ATTR_MOUNT_ROOT)
  struct statx extended {};
  if (::statx(AT_FDCWD, path.c_str(), AT_SYMLINK_NOFOLLOW, 0, &extended) == 0 &&
      (extended.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) && (extended.stx_attributes & STATX_ATTR_MOUNT_ROOT))
    return false;
#endif
  const uid_t me = ::geteuid();
  if ((dir.st_mode & S_ISVTX) && me != 0 && file.st_uid != me && dir.st_uid != me) return false;
  return true;
}

// An existing destination that is not a link: what kind it is decides how it is written.
OutputPlan plan_existing(const std::string& path, const struct stat& info) {
  if (S_ISDIR(info.st_mode)) return refused("it is a directory; expected a file name");
  // A block device or a socket is never a report's place: writing a disk as root would wreck it.
  if (!S_ISREG(info.st_mode) && !S_ISCHR(info.st_mode) && !S_ISFIFO(info.st_mode))
    return refused(fmt::format("it is {}; expected a regular file, a new file, a pipe or a character device",
                               describe_file_type(info.st_mode)));
  // A read-only file stays so: neither `>` nor cp replaces one.
  if (::access(path.c_str(), W_OK) != 0) return refused(fmt::format("cannot write it: {}", std::strerror(errno)));
  if (S_ISREG(info.st_mode) && rename_can_replace(path, info)) return {WriteMode::replace, {}};
  return {WriteMode::in_place, {}};
}

void write_all(int fd, const std::string& content) {
  for (std::size_t done = 0; done < content.size();) {
    const ssize_t wrote = ::write(fd, content.data() + done, content.size() - done);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote == 0) errno = EIO;
    if (wrote <= 0) return;
    done += static_cast<std::size_t>(wrote);
  }
  errno = 0;
}

[[noreturn]] void fail_writing(const std::string& path, const char* doing) {
  throw OutputError(fmt::format("cannot write {}: {}{}", path, doing, std::strerror(errno)));
}

const char* what_failed() { return errno == EPIPE ? "the reader of the pipe left: " : ""; }

void write_in_place(const std::string& path, const std::string& content) {
  const auto fail = [&](const char* doing) { fail_writing(path, doing); };
  // O_NONBLOCK for the open only: a FIFO without a reader fails (ENXIO) instead of waiting forever;
  // then blocking writes, so a slow reader gets every byte. O_TRUNC and O_CREAT for a link to a
  // regular file (or to none yet), as a shell's `>` would; devices and pipes ignore them. A reader
  // that leaves early is EPIPE here (kbench ignores SIGPIPE), an error like any other.
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
  write_all(fd, content);
  if (errno != 0) close_and_fail(what_failed());
  if (::close(fd) != 0) fail("");
}

}  // namespace

OutputPlan plan_output(const std::string& path) {
  if (path.empty()) return refused("expected a file name");
  struct stat link {};
  if (::lstat(path.c_str(), &link) != 0) {
    if (errno != ENOENT) return refused(std::strerror(errno));
    if (auto why = directory_refusal(parent_of(path))) return refused(*why);
    return {WriteMode::replace, {}};  // a new file, made beside it and renamed into place
  }
  // Standard output's own file (or pipe, or terminal) gets the document through standard output, at
  // its offset (a `>>` log is appended to, not truncated), once: a rename would leave stdout
  // writing to the replaced file.
  if (struct stat out {}; names_standard_output(path) && ::stat(path.c_str(), &out) == 0) {
    OutputPlan plan = plan_existing(path, out);
    plan.mode = WriteMode::in_place;
    return plan;
  }
  if (!S_ISLNK(link.st_mode)) return plan_existing(path, link);
  // A symbolic link is written through, in place: a rename would replace the link itself. /dev/stdout
  // is one (to /proc/self/fd/1): renaming over it would, as root, break /dev/stdout for the whole
  // machine, and the report would miss the file the shell redirected to.
  struct stat target {};
  if (::stat(path.c_str(), &target) == 0) {
    OutputPlan plan = plan_existing(path, target);
    plan.mode = WriteMode::in_place;
    return plan;
  }
  if (errno != ENOENT) return refused(std::strerror(errno));
  const std::optional<std::string> end = dangling_target(path);
  if (!end) return refused("a symbolic link loop");
  if (auto why = directory_refusal(parent_of(*end)))
    return refused(fmt::format("it is a symbolic link to {}, and {}", *end, *why));
  return {WriteMode::in_place, {}};
}

void check_output_file(const std::string& path, std::string_view flag) {
  const OutputPlan plan = plan_output(path);
  if (!plan.refusal.empty()) throw InputError(fmt::format("{}: {}: {}", flag, path.empty() ? "''" : path, plan.refusal));
}

void check_output_not_an_input(const std::string& path, std::string_view flag, const std::vector<std::string>& inputs,
                               std::string_view what) {
  struct stat output {};
  if (path.empty() || ::stat(path.c_str(), &output) != 0 || !S_ISREG(output.st_mode)) return;
  for (const std::string& input : inputs) {
    struct stat info {};
    if (::stat(input.c_str(), &info) == 0 && info.st_dev == output.st_dev && info.st_ino == output.st_ino)
      throw InputError(fmt::format("{}: {}: it is {} {}, which the command reads; expected another file to write",
                                   flag, path, what, input));
  }
}

void check_output_directory(const std::string& path, std::string_view flag) {
  if (path.empty()) throw InputError(fmt::format("{}: '': expected a directory name", flag));
  const auto refuse = [&](const std::string& reason) {
    throw InputError(fmt::format("{}: {}: {}", flag, path, reason));
  };
  std::error_code error;
  fs::path existing = fs::absolute(path, error);
  if (error) refuse(error.message());
  // The nearest ancestor that exists decides: create_directories makes the rest when the run writes.
  while (!fs::exists(fs::symlink_status(existing, error)) && existing.has_relative_path())
    existing = existing.parent_path();
  struct stat info {};
  if (::stat(existing.c_str(), &info) != 0) refuse(fmt::format("{}: {}", existing.string(), std::strerror(errno)));
  if (!S_ISDIR(info.st_mode))
    refuse(fmt::format("{} is {}, not a directory", existing.string(), describe_file_type(info.st_mode)));
  if (::access(existing.c_str(), W_OK | X_OK) != 0)
    refuse(fmt::format("cannot create files in {}: {}", existing.string(), std::strerror(errno)));
}

bool is_rewritable_file(const std::string& path) {
  const OutputPlan plan = plan_output(path);
  return plan.refusal.empty() && plan.mode == WriteMode::replace;
}

bool names_standard_output(const std::string& path) {
  struct stat out {}, named {};
  return !path.empty() && ::fstat(STDOUT_FILENO, &out) == 0 && ::stat(path.c_str(), &named) == 0 &&
         out.st_dev == named.st_dev && out.st_ino == named.st_ino;
}

void write_output_file(const std::string& path, const std::string& content) {
  const OutputPlan plan = plan_output(path);
  if (!plan.refusal.empty()) throw OutputError(fmt::format("cannot write {}: {}", path, plan.refusal));
  // A rename the file system refuses although writing is allowed (a mount point the checks above
  // could not see) falls back to writing in place.
  if (plan.mode == WriteMode::replace && replace_file(path, content)) return;
  if (names_standard_output(path)) {
    std::cout.flush();
    std::fflush(stdout);
    write_all(STDOUT_FILENO, content);
    if (errno != 0) fail_writing(path, what_failed());
    return;
  }
  write_in_place(path, content);
}

}  // namespace kbench::io
