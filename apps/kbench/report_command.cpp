// `kbench report RESULTS.json...`: renders saved results again, as a self-contained HTML page
// (--html, any number of files: several runs side by side) or in any --format of `kbench run`
// (one file), e.g. gbench or github-action-benchmark for existing dashboards.
#include <iostream>
#include <memory>
#include <sstream>

#include <fmt/format.h>

#include "commands.hpp"
#include "core/error.hpp"
#include "diff/results_file.hpp"
#include "html/html_report.hpp"
#include "report/reporter.hpp"
#include "run/atomic_file.hpp"

namespace kbench::cli {

namespace {

struct ReportFlags {
  std::vector<std::string> inputs;
  std::string html;
  std::string format;
  std::string output;
};

int execute(const ReportFlags& flags) {
  std::vector<html::HtmlSource> sources;
  for (const std::string& path : flags.inputs) sources.push_back({path, load_results_file(path)});

  if (!flags.html.empty()) {
    std::ostringstream page;
    html::write_html_report(sources, page);
    write_file_atomically(flags.html, page.str());
    std::size_t results = 0;
    for (const auto& source : sources) results += source.report.results.size();
    std::cerr << fmt::format("kbench: wrote {} ({} run{}, {} results)\n", flags.html, sources.size(),
                             sources.size() == 1 ? "" : "s", results);
  }
  // Without --html the command renders a format (text by default); with it, only when asked to.
  if (flags.html.empty() || !flags.format.empty() || !flags.output.empty()) {
    if (sources.size() != 1)
      throw InputError(fmt::format("report: --format renders one results file, got {}; use --html for several",
                                   sources.size()));
    const ReportFormat format = *parse_report_format(flags.format.empty() ? "text" : flags.format);
    std::ostringstream text;
    write_report(sources.front().report, format, text);
    if (flags.output.empty())
      std::cout << text.str();
    else
      write_file_atomically(flags.output, text.str());
  }
  return exit_ok;
}

}  // namespace

Command add_report_command(CLI::App& app) {
  auto flags = std::make_shared<ReportFlags>();
  app.add_option("results", flags->inputs, "Results files written by kbench run --format json")->required();
  app.add_option("--html", flags->html, "Write a self-contained HTML report (charts, tables) here");
  app.add_option("--format", flags->format, "Render the (single) results file in this format instead (default text)")
      ->check(CLI::IsMember({"text", "json", "csv", "markdown", "md", "gbench", "bencher", "github-action-benchmark"}));
  app.add_option("--output,-o", flags->output, "Write the --format rendering here instead of stdout");
  return [flags] { return execute(*flags); };
}

}  // namespace kbench::cli
