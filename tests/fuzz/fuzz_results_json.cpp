// libFuzzer target: arbitrary bytes as a results file, through the reader behind `kbench diff` and
// `kbench report`. A file is either refused with an InputError that starts with its name, or
// accepted; an accepted file must then go through what those commands do with it (every report
// format, the HTML page, a diff against itself) without any exception, and its JSON rendering must
// be read back as the same number of results. Anything else aborts, and libFuzzer keeps the input.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "core/error.hpp"
#include "diff/diff.hpp"
#include "diff/diff_render.hpp"
#include "diff/results_file.hpp"
#include "fuzz_support.hpp"
#include "html/html_report.hpp"
#include "report/reporter.hpp"

namespace {

using kbench::fuzz::require;

constexpr const char* kOrigin = "<fuzz>";

void render_every_way(const kbench::RunReport& report) {
  for (const auto format :
       {kbench::ReportFormat::text, kbench::ReportFormat::json, kbench::ReportFormat::csv,
        kbench::ReportFormat::markdown, kbench::ReportFormat::gbench, kbench::ReportFormat::bencher}) {
    std::ostringstream out;
    kbench::write_report(report, format, out);
  }
  std::ostringstream page;
  kbench::html::write_html_report({{kOrigin, report}}, page);

  // `kbench diff FILE FILE`: the same samples on both sides, so nothing can be slower.
  const kbench::diff::DiffReport diff = kbench::diff::diff_reports(report, report, kbench::diff::VerdictOptions{});
  for (const auto format :
       {kbench::diff::DiffFormat::text, kbench::diff::DiffFormat::markdown, kbench::diff::DiffFormat::json}) {
    std::ostringstream out;
    kbench::diff::write_diff(diff, {kOrigin, kOrigin}, format, out);
  }
  const int code = kbench::diff::diff_exit_code(diff);
  require(code == kbench::exit_ok || code == kbench::exit_bad_input, "a file diffed against itself came out slower",
          std::to_string(code));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  kbench::RunReport report;
  try {
    report = kbench::parse_results_text(text, kOrigin);
  } catch (const kbench::InputError& error) {
    require(std::string_view(error.what()).starts_with(std::string(kOrigin) + ": "),
            "InputError that does not start with the file's name", error.what());
    return 0;
  }
  render_every_way(report);

  std::ostringstream json;
  kbench::write_report(report, kbench::ReportFormat::json, json);
  kbench::RunReport again;
  try {
    again = kbench::parse_results_text(json.str(), kOrigin);
  } catch (const kbench::InputError& error) {
    kbench::fuzz::broken_promise("an accepted file, written back as JSON, is refused", error.what());
  }
  require(again.results.size() == report.results.size() && again.workloads.size() == report.workloads.size(),
          "the JSON rendering of an accepted file lost results or workloads");
  return 0;
}
