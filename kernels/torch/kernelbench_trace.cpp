#include "torch/kernelbench_trace.hpp"

#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "import/traced_import.hpp"
#include "torch/child_process.hpp"
#include "torch/kernelbench_reader_sources.hpp"

namespace kbench::torch {

namespace {

const char* mode_word(KernelBenchReader reader) {
  switch (reader) {
    case KernelBenchReader::torch:
      return "torch";
    case KernelBenchReader::stub:
      return "stub";
    case KernelBenchReader::automatic:
      break;
  }
  return "auto";
}

std::vector<std::string> lines_of(std::string_view text) {
  std::vector<std::string> lines;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    lines.emplace_back(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

std::string what_to_do() {
  return "kbench import kernelbench runs each file in Python 3.8 or later: install it (Debian: apt install "
         "python3; with torch to run files in torch: pip install torch, or apt install python3-torch), or point "
         "kbench at one with --python PATH or KBENCH_PYTHON=PATH";
}

// The reader's first line: what runs the files. Null when the child ended before it said.
nlohmann::json header_of(const std::vector<std::string>& lines) {
  try {
    if (!lines.empty()) return nlohmann::json::parse(lines[0]);
  } catch (const nlohmann::json::exception&) {
  }
  return nullptr;
}

}  // namespace

KernelBenchReading read_kernelbench_files(const std::vector<KernelBenchFile>& files,
                                          const KernelBenchReadOptions& options) {
  KernelBenchReading reading;
  ChildLimits limits;
  // Starting Python (and importing torch), then each file for at most its timeout; the child's own alarm
  // ends a file first, this ends a child that ignores it.
  limits.timeout = std::chrono::seconds(options.start_seconds +
                                        (options.timeout_seconds + 5) * static_cast<long long>(files.size()));
  limits.max_stdout = std::size_t{64} << 20;
  const auto run = [&](KernelBenchReader reader) {
    std::vector<std::string> argv = {options.python.program,
                                     "-B",
                                     "-c",
                                     generated::kKernelBenchReaderSource,
                                     mode_word(reader),
                                     std::to_string(options.timeout_seconds),
                                     generated::kKernelBenchStubTorchSource};
    for (const KernelBenchFile& file : files) argv.push_back(file.path);
    return run_program(argv, limits);
  };
  ChildOutcome child = run(options.reader);
  const std::string who = fmt::format("Python '{}' (from {})", options.python.program, options.python.source);
  if (!child.started) {
    reading.unavailable = fmt::format("{} cannot be run: {}; {}", who, child.start_error, what_to_do());
    return reading;
  }
  std::vector<std::string> lines = lines_of(child.out);
  nlohmann::json header = header_of(lines);
  std::string torch_ended;  // auto: importing torch ended Python (a broken install); the stub reads instead
  if (!header.is_object() && options.reader == KernelBenchReader::automatic) {
    torch_ended = fmt::format("importing torch ended {} ({}; {})", who, describe_outcome(child, limits),
                              python_failure_summary(child.err));
    child = run(KernelBenchReader::stub);
    lines = lines_of(child.out);
    header = header_of(lines);
  }
  if (!header.is_object()) {
    reading.unavailable = fmt::format("{} could not run kbench's KernelBench reader ({}): {}{}; {}", who,
                                      describe_outcome(child, limits), python_failure_summary(child.err),
                                      python_environment_note(), what_to_do());
    return reading;
  }
  if (header.contains("no_torch") && options.reader == KernelBenchReader::torch) {
    reading.unavailable = fmt::format("{}; install torch there, or point kbench at a Python with torch (--python "
                                      "PATH or KBENCH_PYTHON=PATH), or read without torch with --reader stub",
                                      header.value("no_torch", std::string()));
    return reading;
  }
  reading.runner = header.value("runner", std::string("?"));
  reading.python = fmt::format("{} ({})", header.value("python", std::string("?")),
                               header.value("executable", std::string("?")));
  reading.no_torch = torch_ended.empty() ? header.value("no_torch", std::string()) : torch_ended;
  for (std::size_t i = 0; i < files.size(); ++i) {
    const KernelBenchFile& file = files[i];
    if (i + 1 < lines.size()) {
      reading.outcomes.push_back(import::import_traced_calls(lines[i + 1], file.path, file.name));
    } else {  // the child ended (or was killed) while it ran this file
      const std::string said = python_failure_summary(child.err);  // its last word on stderr
      reading.outcomes.push_back(import::ImportError{
          file.path, 0, 0,
          fmt::format("Python stopped while running this file ({}; {})", describe_outcome(child, limits), said)});
    }
    if (i + 1 >= lines.size()) break;  // the files after it were never run
  }
  return reading;
}

}  // namespace kbench::torch
