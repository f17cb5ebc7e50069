// Paths that are not what a spec, results or peaks file should be: a named pipe or a device (reading
// would block or never end), a file over the size limit, a directory whose links loop. Each must be
// refused at once with an InputError naming the path (docs/robustness.md, "Hostile inputs").
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <string>

#include "core/error.hpp"
#include "diff/results_file.hpp"
#include "io/input_file.hpp"
#include "roofline/device_peaks.hpp"
#include "spec/load.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
using kbench::InputError;
using kbench::testing::TempDir;

namespace {

const std::string kSpec = "name: w\nop: conv\ninput: [1, 2, 5, 5]\nout_channels: 2\nkernel: 3\n";

template <class F>
std::string input_error_of(F&& f) {
  try {
    f();
  } catch (const InputError& error) {
    return error.what();
  }
  FAIL("no InputError");
  return {};
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string make_fifo(const TempDir& dir, const std::string& name) {
  const std::string path = dir / name;
  REQUIRE(::mkfifo(path.c_str(), 0600) == 0);
  return path;
}

}  // namespace

TEST_SUITE("hostile paths") {
  TEST_CASE("a named pipe given as a spec, results or peaks file is refused without blocking") {
    const TempDir dir("fifo");
    const std::string fifo = make_fifo(dir, "spec.yaml");  // nobody ever writes to it
    const auto start = std::chrono::steady_clock::now();
    const std::string spec = input_error_of([&] { kbench::load_workloads(fifo); });
    CHECK(spec ==
          fifo + ": cannot open workload spec: it is a named pipe (FIFO); expected a regular file or a directory");
    // Read directly (as a checked path that turned into a FIFO afterwards would be): still no blocking.
    CHECK(input_error_of([&] { kbench::io::read_input_file(fifo, "workload spec", 100); }) ==
          fifo + ": cannot open workload spec: it is a named pipe (FIFO); expected a regular file");
    CHECK(contains(input_error_of([&] { kbench::load_results_file(fifo); }),
                   fifo + ": cannot open the results file: it is a named pipe"));
    CHECK(contains(input_error_of([&] { kbench::load_peaks_file(fifo); }),
                   fifo + ": cannot open peaks file: it is a named pipe"));
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  }

  TEST_CASE("a character device given as a spec or results file is refused, not read forever") {
    CHECK(input_error_of([] { kbench::load_workloads("/dev/zero"); }) ==
          "/dev/zero: cannot open workload spec: it is a character device; expected a regular file or a directory");
    CHECK(contains(input_error_of([] { kbench::load_results_file("/dev/urandom"); }), "it is a character device"));
    CHECK(contains(input_error_of([] { kbench::io::check_input_path("/dev/null", "peaks file", false); }),
                   "/dev/null: cannot open peaks file: it is a character device; expected a regular file"));
  }

  TEST_CASE("check_input_path: regular files and directories pass, a directory only where allowed") {
    const TempDir dir("kinds");
    const std::string file = dir.file("a.yaml", kSpec);
    CHECK(kbench::io::check_input_path(file, "workload spec", true) == kbench::io::PathKind::regular_file);
    CHECK(kbench::io::check_input_path(dir.path.string(), "workload spec", true) == kbench::io::PathKind::directory);
    CHECK(contains(input_error_of([&] { kbench::io::check_input_path(dir.path.string(), "the results file", false); }),
                   "it is a directory; expected a regular file"));
    CHECK(
        contains(input_error_of([&] { kbench::io::check_input_path(dir / "missing.json", "the results file", false); }),
                 "missing.json: cannot open the results file: No such file or directory"));
  }

  TEST_CASE("a spec over the size limit is refused with the limit named, and one just under it is read") {
    const TempDir dir("size");
    std::string text = kSpec;
    text.resize(kbench::io::kMaxSpecBytes, '#');  // a comment to the limit: still a spec
    text[kSpec.size()] = '\n';
    CHECK(kbench::load_workloads(dir.file("at_limit.yaml", text)).size() == 1);
    text.push_back('#');
    const std::string big = dir.file("over_limit.yaml", text);
    CHECK(input_error_of([&] { kbench::load_workloads(big); }) ==
          big + ": cannot open workload spec: it is 4194305 bytes; the limit is 4 MiB");
    CHECK(contains(input_error_of([&] { kbench::io::read_input_file(big, "peaks file", kbench::io::kMaxPeaksBytes); }),
                   "the limit is 1 MiB"));
  }

  TEST_CASE("a directory whose link leads back above it is refused, naming the link") {
    const TempDir dir("loop");
    dir.file("specs/a.yaml", kSpec);
    fs::create_directories(dir.path / "specs" / "deep" / "er");
    fs::create_directory_symlink("../..", dir.path / "specs" / "deep" / "er" / "back");
    const std::string root = dir / "specs";
    const std::string message = input_error_of([&] { kbench::load_workloads(root); });
    CHECK(message ==
          root + "/deep/er/back: symbolic link loop: it leads back to " + root +
              ", a directory above it; remove the link, or give the directories it links as separate arguments");
    // Short, not hundreds of components: the loop is caught on its first turn.
    CHECK(message.size() < 400);
    // A link out of the tree that comes back into it is caught where it re-enters.
    fs::remove(dir.path / "specs" / "deep" / "er" / "back");
    fs::create_directory_symlink("..", dir.path / "specs" / "out");
    CHECK(input_error_of([&] {
            kbench::load_workloads(root);
          }).starts_with(root + "/out/specs: symbolic link loop: it leads back to " + root + ", "));
  }

  TEST_CASE("a link to the directory itself is a loop, and a link to a sibling directory is followed") {
    const TempDir dir("links");
    dir.file("specs/a.yaml", kSpec);
    dir.file("other/b.yaml", "name: b\nop: conv\ninput: [1, 2, 5, 5]\nout_channels: 2\nkernel: 3\n");
    fs::create_directory_symlink(".", dir.path / "specs" / "self");
    CHECK(contains(input_error_of([&] { kbench::load_workloads(dir / "specs"); }),
                   "/specs/self: symbolic link loop: it leads back to " + (dir / "specs")));
    fs::remove(dir.path / "specs" / "self");
    fs::create_directory_symlink(dir.path / "other", dir.path / "specs" / "linked");
    const auto workloads = kbench::load_workloads(dir / "specs");
    REQUIRE(workloads.size() == 2);
    CHECK(workloads[0].name == "w");
    CHECK(workloads[1].name == "b");
  }

  TEST_CASE("a *.yaml entry of a directory that is not a regular file is refused, naming it") {
    const TempDir dir("special");
    dir.file("specs/a.yaml", kSpec);
    const std::string fifo = make_fifo(dir, "specs/pipe.yaml");
    CHECK(input_error_of([&] { kbench::load_workloads(dir / "specs"); }) ==
          fifo + ": cannot open workload spec: it is a named pipe (FIFO); expected a regular file");
    fs::remove(fifo);
    fs::create_symlink(dir.path / "nowhere.yaml", dir.path / "specs" / "dangling.yaml");
    CHECK(input_error_of([&] { kbench::load_workloads(dir / "specs"); }) ==
          (dir / "specs/dangling.yaml") + ": cannot open workload spec: No such file or directory");
    // Other files, dangling or special, are none of the walk's business.
    fs::remove(dir.path / "specs" / "dangling.yaml");
    fs::create_symlink(dir.path / "nowhere", dir.path / "specs" / "README");
    make_fifo(dir, "specs/notes.txt");
    CHECK(kbench::load_workloads(dir / "specs").size() == 1);
  }

  TEST_CASE("a link loop given directly as the path is refused with what it is") {
    const TempDir dir("selflink");
    fs::create_symlink(dir.path / "b.yaml", dir.path / "a.yaml");
    fs::create_symlink(dir.path / "a.yaml", dir.path / "b.yaml");
    CHECK(input_error_of([&] { kbench::load_workloads(dir / "a.yaml"); }) ==
          (dir / "a.yaml") + ": cannot open workload spec: a symbolic link loop (a link that leads back to itself)");
  }

  TEST_CASE("JSON inputs: a number past double's range is refused as bad input, not a crash") {
    CHECK(input_error_of([] {
            kbench::parse_results_text(R"({"schema": 1e999})", "r.json");
          }).starts_with("r.json: not JSON: [json.exception.out_of_range.406] number overflow parsing '1e999'"));
  }

  TEST_CASE("peaks files: infinite and out-of-range numbers, a name that is not a string") {
    const TempDir dir("peaks");
    const auto peaks = [&](const std::string& json) { return dir.file("peaks.json", json); };
    const std::string base = R"("bandwidth_GBps": 3350, "fp32_TFLOPs": 67, "tf32_TFLOPs": 495)";
    CHECK(kbench::load_peaks_file(peaks("{" + base + "}")).bandwidth_Bps > 0);
    CHECK(contains(input_error_of([&] {
                     kbench::load_peaks_file(
                         peaks(R"({"bandwidth_GBps": 1e999, "fp32_TFLOPs": 67, "tf32_TFLOPs": 495})"));
                   }),
                   "not valid JSON: [json.exception.out_of_range.406] number overflow"));
    CHECK(contains(input_error_of([&] { kbench::load_peaks_file(peaks("{" + base + R"(, "sms": 1e300})")); }),
                   "sms: expected at most 100000"));
    CHECK(contains(input_error_of([&] { kbench::load_peaks_file(peaks("{" + base + R"(, "name": 5})")); }),
                   "name: expected a string, got 5"));
  }
}
