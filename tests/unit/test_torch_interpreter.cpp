// The torch backend's interpreter discovery, without running Python: which interpreter is chosen,
// what its report is read as, where its libpython is looked for, which torch has torch.compile.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include "torch/interpreter.hpp"

using namespace kbench::torch;

namespace {

// What Debian 12's /usr/bin/python3 prints for the probe (sys.path shortened).
constexpr const char* kDebianReport = R"({"executable": "/usr/bin/python3", "version": "3.11.2", "major": 3,
  "minor": 11, "libdir": "/usr/lib/x86_64-linux-gnu", "ldlibrary": "libpython3.11.so",
  "instsoname": "libpython3.11.so.1.0", "shared": true, "base_prefix": "/usr", "base_exec_prefix": "/usr",
  "path": ["/usr/lib/python311.zip", "/usr/lib/python3.11", "/usr/lib/python3/dist-packages"], "torch": "1.13.1"})";

}  // namespace

TEST_CASE("torch interpreter: --python wins over KBENCH_PYTHON, which wins over python3 on PATH") {
  CHECK(choose_interpreter("/opt/py/bin/python", "/usr/bin/python3").program == "/opt/py/bin/python");
  CHECK(choose_interpreter("/opt/py/bin/python", "/usr/bin/python3").source == "--python");
  CHECK(choose_interpreter("", "/usr/bin/python3").program == "/usr/bin/python3");
  CHECK(choose_interpreter("", "/usr/bin/python3").source == "KBENCH_PYTHON");
  CHECK(choose_interpreter("", "").program == "python3");  // set but empty: as if unset
  CHECK(choose_interpreter("", nullptr).source == "PATH");
}

TEST_CASE("torch interpreter: Debian's report is read field by field") {
  const InterpreterInfo info = parse_interpreter_report(kDebianReport);
  CHECK(info.executable == "/usr/bin/python3");
  CHECK(info.version == "3.11.2");
  CHECK(info.major == 3);
  CHECK(info.minor == 11);
  CHECK(info.shared);
  CHECK(info.base_prefix == "/usr");
  REQUIRE(info.path.size() == 3);
  CHECK(info.path[2] == "/usr/lib/python3/dist-packages");
  REQUIRE(info.torch_version);
  CHECK(*info.torch_version == "1.13.1");
}

TEST_CASE("torch interpreter: a report without torch, and malformed reports") {
  std::string no_torch = kDebianReport;
  no_torch.replace(no_torch.find("\"1.13.1\""), 8, "null");
  CHECK_FALSE(parse_interpreter_report(no_torch).torch_version);
  CHECK_THROWS_AS(parse_interpreter_report("Traceback (most recent call last):"), std::runtime_error);
  CHECK_THROWS_AS(parse_interpreter_report("[1, 2]"), std::runtime_error);
  std::string no_libdir = kDebianReport;
  no_libdir.replace(no_libdir.find("\"libdir\""), 8, "\"libdyr\"");
  CHECK_THROWS_WITH_AS(parse_interpreter_report(no_libdir), doctest::Contains("libdir"), std::runtime_error);
}

TEST_CASE("torch interpreter: libpython is looked for in LIBDIR first, then by soname") {
  const InterpreterInfo info = parse_interpreter_report(kDebianReport);
  const auto candidates = libpython_candidates(info);
  REQUIRE(candidates.size() == 4);
  CHECK(candidates[0] == "/usr/lib/x86_64-linux-gnu/libpython3.11.so");
  CHECK(candidates[1] == "/usr/lib/x86_64-linux-gnu/libpython3.11.so.1.0");
  CHECK(candidates[2] == "libpython3.11.so.1.0");
  CHECK(candidates[3] == "libpython3.11.so");
}

TEST_CASE("torch interpreter: a static-only Python (pyenv's default) offers no archive to dlopen") {
  InterpreterInfo info;
  info.libdir = "/root/.pyenv/versions/3.11.7/lib";
  info.ldlibrary = "libpython3.11.a";
  info.instsoname = "libpython3.11.a";
  CHECK(libpython_candidates(info).empty());
  info.libdir.clear();
  info.ldlibrary = "libpython3.12.so";
  info.instsoname.clear();
  CHECK(libpython_candidates(info) == std::vector<std::string>{"libpython3.12.so"});
}

TEST_CASE("torch interpreter: torch.compile exists from torch 2.0") {
  CHECK_FALSE(torch_has_compile("1.13.1"));
  CHECK_FALSE(torch_has_compile("1.13.0a0"));
  CHECK(torch_has_compile("2.0.0"));
  CHECK(torch_has_compile("2.5.1+cu124"));
  CHECK(torch_has_compile("2.6.0a0+git1234"));
  CHECK(torch_has_compile("10.0"));
  CHECK_FALSE(torch_has_compile(""));
  CHECK_FALSE(torch_has_compile("unknown"));
}

TEST_CASE("torch interpreter: a program that does not exist is unavailable, with how to choose another") {
  InterpreterInfo info;
  const kbench::Support s = probe_interpreter({"/nonexistent/kbench-test/python3", "--python"}, info);
  CHECK_FALSE(s);
  CHECK(s.reason.find("/nonexistent/kbench-test/python3") != std::string::npos);
  CHECK(s.reason.find("--python") != std::string::npos);
  CHECK(s.reason.find("KBENCH_PYTHON") != std::string::npos);
}

TEST_CASE("torch interpreter: the probe is a program that prints one JSON object") {
  const std::string_view probe = interpreter_probe_source();
  CHECK(probe.find("json.dumps") != std::string_view::npos);
  CHECK(probe.find("import torch") == std::string_view::npos);  // found by metadata, never imported: cheap
}
