#include "diff/results_file.hpp"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "core/error.hpp"
#include "report/json_report.hpp"

namespace kbench {

RunReport load_results_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: cannot open the results file", path));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw InputError(fmt::format("{}: cannot read the results file", path));
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::parse_error& e) {
    // e.byte is the offset of the problem; nlohmann's message names it as well.
    throw InputError(fmt::format("{}: not JSON: {}", path, e.what()));
  }
  try {
    return read_json_report(document);
  } catch (const InputError& e) {
    throw InputError(fmt::format("{}: {}", path, e.what()));
  }
}

}  // namespace kbench
