// Every malformed spec under tests/data/specs/bad/ must be refused with a located InputError.
// Each file states its own expectation on its first line:
//   # expect: LINE:COL: KEY.PATH: message fragment
// and the error must read "FILE:LINE:COL: KEY.PATH: ..." and contain the fragment.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "spec/load.hpp"

namespace {

const std::string kSpecData = std::string(KBENCH_TEST_DATA_DIR) + "/specs";

struct Expectation {
  std::string position;  // "LINE:COL"
  std::string key_path;
  std::string fragment;
};

Expectation read_expectation(const std::string& file) {
  std::ifstream stream(file);
  std::string line;
  std::getline(stream, line);
  const std::string marker = "# expect: ";
  REQUIRE_MESSAGE(line.starts_with(marker), file << ": first line must be '# expect: LINE:COL: KEY: fragment'");
  const std::string rest = line.substr(marker.size());
  const auto position_end = rest.find(": ");
  REQUIRE(position_end != std::string::npos);
  const auto key_end = rest.find(": ", position_end + 2);
  REQUIRE(key_end != std::string::npos);
  return {rest.substr(0, position_end), rest.substr(position_end + 2, key_end - position_end - 2),
          rest.substr(key_end + 2)};
}

// The message of the InputError `load` throws; fails the test when it throws nothing or something else.
template <typename Load>
std::string input_error_of(Load load) {
  try {
    load();
  } catch (const kbench::InputError& error) {
    return error.what();
  }
  FAIL("expected an InputError");
  return {};
}

std::vector<std::string> bad_files() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(kSpecData + "/bad"))
    if (entry.path().extension() == ".yaml") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST_SUITE("spec") {
  TEST_CASE("spec bad corpus: every file is refused at the stated place with the stated message") {
    const auto files = bad_files();
    REQUIRE(files.size() >= 20);
    for (const std::string& file : files) {
      CAPTURE(file);
      const Expectation expected = read_expectation(file);
      const std::string message = input_error_of([&] { kbench::load_workloads(file); });
      CAPTURE(message);
      const std::string prefix = file + ":" + expected.position + ": " + expected.key_path + ": ";
      CHECK(message.starts_with(prefix));
      CHECK(message.find(expected.fragment) != std::string::npos);
      // parse_workloads on the same text must agree, naming the origin it was given.
      std::ifstream stream(file);
      const std::string text((std::istreambuf_iterator<char>(stream)), std::istreambuf_iterator<char>());
      const std::string parsed = input_error_of([&] { kbench::parse_workloads(text, "<inline>"); });
      CHECK(parsed.starts_with("<inline>:" + expected.position + ": " + expected.key_path + ": "));
    }
  }

  TEST_CASE("spec bad corpus: a duplicate name across files names both places") {
    const std::string dir = kSpecData + "/duplicate_across_files";
    const std::string message = input_error_of([&] { kbench::load_workloads(dir); });
    CAPTURE(message);
    CHECK(message.starts_with(dir + "/nested/b_second.yaml:2:7: name: duplicate workload name 'shared-name'"));
    CHECK(message.find("first defined at " + dir + "/a_first.yaml:2:7") != std::string::npos);
    // Each file alone is fine.
    CHECK(kbench::load_workloads(dir + "/a_first.yaml").size() == 1);
    CHECK(kbench::load_workloads(dir + "/nested/b_second.yaml").size() == 1);
  }

  TEST_CASE("spec missing paths and empty directories are input errors") {
    const std::string missing = kSpecData + "/does_not_exist.yaml";
    const std::string message = input_error_of([&] { kbench::load_workloads(missing); });
    CHECK(message.starts_with(missing + ": cannot open workload spec: "));

    const std::string empty_dir = kSpecData + "/no_specs_dir";
    const std::string dir_message = input_error_of([&] { kbench::load_workloads(empty_dir); });
    CHECK(dir_message.starts_with(empty_dir + ": no workload specs found"));
  }

  TEST_CASE("spec directories: *.yaml and *.yml, recursively, sorted by path, other files skipped") {
    const std::string dir = kSpecData + "/mixed_dir";
    const auto workloads = kbench::load_workloads(dir);
    REQUIRE(workloads.size() == 3);
    CHECK(workloads[0].name == "mixed-a");
    CHECK(workloads[1].name == "mixed-b");
    CHECK(workloads[2].name == "mixed-sub-a");
    CHECK(workloads[2].source_file == dir + "/sub/a.yaml");
    CHECK(workloads[2].problem.transposed());
  }
}
