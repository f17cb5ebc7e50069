// The fuzz seeds of the results reader (tests/fuzz/corpus-results/), in every build: each is accepted,
// or refused with an InputError that starts with its name (what fuzz_results_json checks, without libFuzzer).
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "diff/results_file.hpp"

TEST_SUITE("results corpus") {
  TEST_CASE("results fuzz seeds are accepted or refused with an InputError naming the file") {
    std::vector<std::filesystem::path> files;
    for (const auto& entry :
         std::filesystem::directory_iterator(std::filesystem::path(KBENCH_SOURCE_DIR) / "tests/fuzz/corpus-results"))
      files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    REQUIRE(files.size() >= 10);
    int accepted = 0;
    for (const auto& file : files) {
      INFO(file.string());
      try {
        const kbench::RunReport report = kbench::load_results_file(file.string());
        accepted += report.results.empty() && !report.interrupted ? 0 : 1;
      } catch (const kbench::InputError& error) {
        CHECK(std::string(error.what()).starts_with(file.string() + ": "));
      }
    }
    CHECK(accepted >= 5);  // the real run documents
  }
}
