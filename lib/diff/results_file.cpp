#include "diff/results_file.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "io/input_file.hpp"
#include "report/json_report.hpp"

namespace kbench {

RunReport load_results_file(const std::string& path) {
  return parse_results_text(io::read_input_file(path, "the results file", io::kMaxResultsBytes), path);
}

RunReport parse_results_text(const std::string& text, const std::string& origin) {
  nlohmann::ordered_json document;
  try {
    document = nlohmann::ordered_json::parse(text);
  } catch (const nlohmann::json::exception& e) {  // parse_error, and out_of_range for 1e999
    // e.byte is the offset of the problem; nlohmann's message names it as well.
    throw InputError(fmt::format("{}: not JSON: {}", origin, e.what()));
  }
  try {
    return read_json_report(document);
  } catch (const InputError& e) {
    throw InputError(fmt::format("{}: {}", origin, e.what()));
  }
}

}  // namespace kbench
