#pragma once
// Validates a JSON document against a JSON Schema file with python3's jsonschema (installed by
// scripts/install-deps.sh and in CI). A test that needs it fails, saying why, when it is missing:
// a skipped conformance check would pass unnoticed.
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <nlohmann/json.hpp>

namespace kbench::test {

struct SchemaVerdict {
  bool valid = false;
  std::string log;  // the validator's complaint, or why it could not run
};

inline SchemaVerdict validate_against_schema(const nlohmann::ordered_json& document, const std::string& schema_path) {
  namespace fs = std::filesystem;
  static int counter = 0;
  const fs::path dir =
      fs::temp_directory_path() / ("kbench-schema-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  fs::create_directories(dir);
  const fs::path doc_path = dir / "document.json";
  const fs::path log_path = dir / "validate.log";
  std::ofstream(doc_path) << document.dump(2);
  const std::string script =
      "import json, sys, jsonschema\n"
      "schema = json.load(open(sys.argv[1]))\n"
      "validator = jsonschema.validators.validator_for(schema)\n"
      "validator.check_schema(schema)\n"
      "validator(schema).validate(json.load(open(sys.argv[2])))\n";
  const std::string command =
      "python3 -c '" + script + "' '" + schema_path + "' '" + doc_path.string() + "' >'" + log_path.string() + "' 2>&1";
  const int status = std::system(command.c_str());
  SchemaVerdict verdict;
  verdict.valid = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  std::ifstream in(log_path);
  verdict.log.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  std::error_code ignored;
  fs::remove_all(dir, ignored);
  return verdict;
}

inline std::string test_data_path(const std::string& relative) {
  return std::string(KBENCH_TEST_DATA_DIR) + "/" + relative;
}

}  // namespace kbench::test
