// libFuzzer target: arbitrary argument vectors through kbench's command line front end, the very
// CLI11 app `main` builds, then each parsed command's `check` (every path and flag combination, by
// stat and access only: nothing is read, created or run). Promises: parsing ends in a command or in
// exit 0 (help, version) or 2 (a usage error), never another exception; an accepted numeric flag
// holds a finite number; `check` refuses only with an InputError.
//
// Input: the arguments after `kbench`, one a line ('\n' separates them, so a corpus file is readable).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/error.hpp"
#include "frontend.hpp"
#include "fuzz_support.hpp"

namespace {

using kbench::fuzz::require;

std::vector<std::string> split_arguments(std::string_view bytes) {
  std::vector<std::string> arguments;
  while (!bytes.empty() && arguments.size() < 64) {
    const std::size_t end = std::min(bytes.find('\n'), bytes.size());
    arguments.emplace_back(bytes.substr(0, end));
    bytes.remove_prefix(std::min(end + 1, bytes.size()));
  }
  return arguments;
}

bool is_numeric_type(const std::string& type) {
  return type.starts_with("INT") || type.starts_with("UINT") || type.starts_with("FLOAT");
}

// Every numeric option given on the command line of `app` (or of its parsed subcommands) holds a finite number.
void require_finite_numbers(const CLI::App& app) {
  for (const CLI::Option* option : app.get_options()) {
    if (option->count() == 0 || !is_numeric_type(option->get_type_name())) continue;
    for (const std::string& text : option->results()) {
      char* end = nullptr;
      const double value = std::strtod(text.c_str(), &end);
      require(end != text.c_str() && std::isfinite(value),
              "a numeric flag accepted a value that is not a finite number", option->get_name() + " " + text);
    }
  }
  for (const CLI::App* sub : app.get_subcommands()) require_finite_numbers(*sub);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::string> arguments =
      split_arguments(std::string_view(reinterpret_cast<const char*>(data), size));
  std::vector<const char*> argv{"kbench"};
  for (const std::string& argument : arguments) argv.push_back(argument.c_str());

  const auto frontend = kbench::cli::make_frontend();
  std::ostringstream out, err;
  const auto parsed = kbench::cli::parse_command_line(*frontend, static_cast<int>(argv.size()), argv.data(), out, err);
  if (const int* code = std::get_if<int>(&parsed)) {
    require(*code == kbench::exit_ok || *code == kbench::exit_bad_input, "parsing ended with an undocumented status",
            std::to_string(*code));
    return 0;
  }
  require_finite_numbers(frontend->app);
  try {
    std::get<const kbench::cli::Command*>(parsed)->check();
  } catch (const kbench::InputError&) {
  }
  return 0;
}
