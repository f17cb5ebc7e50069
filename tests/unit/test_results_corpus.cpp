// The fuzz seeds of the results reader (tests/fuzz/corpus-results/), in every build: each is accepted,
// or refused with an InputError that starts with its name (what fuzz_results_json checks, without libFuzzer).
// The accepted ones are documents written by older kbench versions (before host_memory, host_cpu,
// ran_on, a result's dtype and layout): written back by this one, they keep every value they had.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "diff/results_file.hpp"
#include "io/input_file.hpp"
#include "report/json_report.hpp"

namespace {

using nlohmann::ordered_json;

// Where `rewritten` lost or changed a value of `original`. A result's achieved and headroom are
// derived by today's rules (no headroom for a result that ran on the CPU), so they may change.
void compare(const ordered_json& original, const ordered_json& rewritten, const std::string& path,
             std::vector<std::string>& differences) {
  if (original.is_object() && rewritten.is_object()) {
    for (const auto& [key, value] : original.items()) {
      if (path.starts_with("/results/") && (key == "achieved" || key == "headroom")) continue;
      if (!rewritten.contains(key))
        differences.push_back(path + "/" + key + ": lost");
      else
        compare(value, rewritten[key], path + "/" + key, differences);
    }
  } else if (original.is_array() && rewritten.is_array() && original.size() == rewritten.size()) {
    for (std::size_t i = 0; i < original.size(); ++i)
      compare(original[i], rewritten[i], path + "/" + std::to_string(i), differences);
  } else if (original != rewritten) {
    differences.push_back(path + ": " + original.dump() + " became " + rewritten.dump());
  }
}

}  // namespace

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

  TEST_CASE("older results documents keep every value when written back") {
    int compared = 0;
    for (const auto& entry :
         std::filesystem::directory_iterator(std::filesystem::path(KBENCH_SOURCE_DIR) / "tests/fuzz/corpus-results")) {
      const std::string file = entry.path().string();
      kbench::RunReport report;
      try {
        report = kbench::load_results_file(file);
      } catch (const kbench::InputError&) {
        continue;  // the refused seeds: the test above
      }
      INFO(file);
      const ordered_json original =
          ordered_json::parse(kbench::io::read_input_file(file, "the results file", kbench::io::kMaxResultsBytes));
      std::vector<std::string> differences;
      compare(original, kbench::report_to_json(report), "", differences);
      std::string listed;
      for (const std::string& difference : differences) listed += "\n  " + difference;
      CHECK_MESSAGE(differences.empty(), "values the rewrite lost or changed:" << listed);
      ++compared;
    }
    CHECK(compared >= 5);
  }
}
