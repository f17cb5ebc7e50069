// Where kbench writes: checked before any work (InputError naming the flag and path), and written
// without replacing a device or blocking on a pipe; a write that fails late is an OutputError naming
// the path, and a --dump that fails mid-run leaves the results whole (docs/robustness.md).
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/error.hpp"
#include "io/output_file.hpp"
#include "reference/reference_backend.hpp"
#include "run/run_config.hpp"
#include "run/runner.hpp"
#include "spec/load.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
using kbench::InputError;
using kbench::OutputError;
using kbench::testing::TempDir;

namespace {

template <class Error, class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& error) {
    return error.what();
  }
  FAIL("no error thrown");
  return {};
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool is_character_device(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISCHR(info.st_mode);
}

// /dev/null or /dev/full (`minor` 3 or 7) to write to. As root, a private node of the same device in
// `dir`, where it can be made: a bug that renames over its destination then replaces that node, not
// the system's (which is how this test once broke /dev/null for the whole machine).
std::string device_like(const TempDir& dir, const char* name, unsigned minor) {
  const std::string node = dir / name;
  if (::geteuid() == 0 && ::mknod(node.c_str(), S_IFCHR | 0666, makedev(1, minor)) == 0) return node;
  return std::string("/dev/") + name;
}

}  // namespace

TEST_SUITE("output destinations") {
  TEST_CASE("check_output_file accepts new files, regular files, devices and pipes, and creates nothing") {
    const TempDir dir("out-ok");
    kbench::io::check_output_file(dir / "new.json", "--output");
    kbench::io::check_output_file(dir.file("old.json", "{}"), "--output");
    kbench::io::check_output_file("/dev/null", "--output");
    const std::string fifo = dir / "pipe";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    kbench::io::check_output_file(fifo, "--output");  // not opened: a reader must not see an early EOF
    CHECK_FALSE(fs::exists(dir.path / "new.json"));
    CHECK(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()) == 2);
  }

  TEST_CASE("check_output_file refuses what cannot be written, naming the flag, the path and why") {
    const TempDir dir("out-bad");
    const std::string missing = dir / "no-such-dir/out.json";
    CHECK(error_of<InputError>([&] { kbench::io::check_output_file(missing, "--output"); }) ==
          "--output: " + missing + ": the directory " + (dir / "no-such-dir") + " does not exist");
    CHECK(error_of<InputError>([&] { kbench::io::check_output_file(dir.path.string(), "--html"); }) ==
          "--html: " + dir.path.string() + ": it is a directory; expected a file name");
    const std::string file = dir.file("file", "x");
    CHECK(error_of<InputError>([&] { kbench::io::check_output_file(file + "/out.json", "--output"); }) ==
          "--output: " + file + "/out.json: Not a directory");
    CHECK(error_of<InputError>([&] { kbench::io::check_output_file("", "--output"); }) ==
          "--output: '': expected a file name");
  }

  TEST_CASE("check_output_directory: a directory, or one to be made under a writable one") {
    const TempDir dir("dump-check");
    kbench::io::check_output_directory(dir.path.string(), "--dump");
    kbench::io::check_output_directory(dir / "a/b/c", "--dump");
    CHECK_FALSE(fs::exists(dir.path / "a"));  // made when the run writes, not by the check
    const std::string file = dir.file("file", "x");
    CHECK(error_of<InputError>([&] { kbench::io::check_output_directory(file, "--dump"); }) ==
          "--dump: " + file + ": " + file + " is a regular file, not a directory");
    CHECK(error_of<InputError>([&] { kbench::io::check_output_directory(file + "/sub", "--dump"); }) ==
          "--dump: " + file + "/sub: " + file + " is a regular file, not a directory");
    CHECK(error_of<InputError>([&] {
            kbench::io::check_output_directory("/dev/null/x", "--dump");
          }).ends_with("/dev/null is a character device, not a directory"));
  }

  TEST_CASE("a device is written in place, never replaced, and a full one is an OutputError naming it") {
    const TempDir dir("devices");
    const std::string null = device_like(dir, "null", 3);
    const std::string full = device_like(dir, "full", 7);
    kbench::io::write_output_file(null, "{}\n");
    CHECK(is_character_device(null));
    CHECK(error_of<OutputError>([&] { kbench::io::write_output_file(full, "{}\n"); }) ==
          "cannot write " + full + ": No space left on device");
    CHECK(is_character_device(full));  // as root, a rename would have put a file in its place
  }

  TEST_CASE("a pipe nobody reads fails at once instead of blocking") {
    const TempDir dir("out-fifo");
    const std::string fifo = dir / "pipe";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    const auto start = std::chrono::steady_clock::now();
    CHECK(error_of<OutputError>([&] { kbench::io::write_output_file(fifo, "{}\n"); }) ==
          "cannot write " + fifo + ": no process reads the pipe: No such device or address");
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  }

  TEST_CASE("a symbolic link is written through, in place, and stays a link") {
    const TempDir dir("out-link");
    const std::string target = dir.file("real.json", "an old and longer document");
    const std::string link = dir / "link.json";
    fs::create_symlink(target, link);
    CHECK_FALSE(kbench::io::is_rewritable_file(link));
    kbench::io::write_output_file(link, "new");
    CHECK(fs::is_symlink(link));
    CHECK(read_text(target) == "new");  // truncated first, as a shell's > would
  }

  TEST_CASE("regular files are replaced atomically, and a failed write is an OutputError naming the path") {
    const TempDir dir("out-file");
    const std::string path = dir.file("out.json", "old");
    kbench::io::write_output_file(path, "new");
    CHECK(read_text(path) == "new");
    fs::remove(path);
    fs::create_directories(dir.path / "out.json" / "inside");  // a directory appeared after the check
    CHECK(error_of<OutputError>([&] { kbench::io::write_output_file(path, "x"); }) ==
          "cannot write " + path + ": it is a directory; expected a file name");
    CHECK(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()) == 1);  // no .tmp left
  }

  TEST_CASE("a --dump write that fails mid-run keeps every result and says which file failed") {
    const TempDir dir("dump-fail");
    const kbench::Workload workload =
        kbench::parse_workloads("name: w\nop: conv\ninput: [1, 2, 6, 6]\nout_channels: 2\nkernel: 3\n", "<test>")
            .front();
    // The weight's file name is taken by a directory: that one write fails, as on a full disk.
    fs::create_directories(dir.path / "w.weight.npy");
    kbench::Registry registry;
    registry.add(kbench::make_reference_backend());
    kbench::RunConfig config;
    config.seed = 1;
    config.measure.warmups = 0;
    config.measure.iterations = 2;
    config.peaks = *kbench::find_device("h100-sxm");
    config.dump_dir = dir.path.string();
    const kbench::RunReport report = kbench::run_workloads({workload}, registry, config);
    REQUIRE(report.results.size() == 1);
    CHECK(report.results.front().status == kbench::ResultStatus::ok);
    REQUIRE(report.write_failures.size() == 1);
    CHECK(report.write_failures.front().starts_with("cannot write " + (dir / "w.weight.npy")));
    CHECK(std::any_of(report.notes.begin(), report.notes.end(), [](const std::string& note) {
      return note.starts_with("--dump of w is incomplete: cannot write ");
    }));
    CHECK(fs::exists(dir.path / "w.x.npy"));             // written before the failure
    CHECK_FALSE(fs::exists(dir.path / "w.index.json"));  // nothing after it
  }
}
