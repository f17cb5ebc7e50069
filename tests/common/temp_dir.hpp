#pragma once
// A scratch directory for one test, removed (with everything in it) when the test ends.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace kbench::testing {

struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& label = "test") {
    static int counter = 0;
    path = std::filesystem::temp_directory_path() /
           ("kbench-" + label + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  // PATH/name as a string, with `text` written to it when given.
  std::string file(const std::string& name, const std::string& text) const {
    const auto where = path / name;
    std::filesystem::create_directories(where.parent_path());
    std::ofstream(where, std::ios::binary) << text;
    return where.string();
  }
  std::string operator/(const std::string& name) const { return (path / name).string(); }
};

}  // namespace kbench::testing
