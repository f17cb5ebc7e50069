// `kbench report RESULTS.json...`: renders saved results again, as a self-contained HTML page
// (--html, any number of files: several runs side by side) or in any --format of `kbench run`
// (one file), e.g. gbench or github-action-benchmark for existing dashboards.
#include <iostream>
#include <memory>
#include <sstream>

#include <fmt/format.h>

#include "choice_flags.hpp"
#include "commands.hpp"
#include "help_text.hpp"
#include "terminal.hpp"
#include "core/error.hpp"
#include "diff/results_file.hpp"
#include "html/html_report.hpp"
#include "io/input_file.hpp"
#include "io/output_file.hpp"
#include "report/reporter.hpp"

namespace kbench::cli {

namespace {

struct ReportFlags {
  std::vector<std::string> inputs;
  std::string html;
  std::string format;
  std::string output;
};

// Without --html the command renders a format (text by default); with it, only when asked to.
bool renders_format(const ReportFlags& flags) {
  return flags.html.empty() || !flags.format.empty() || !flags.output.empty();
}

void check_flags(const ReportFlags& flags) {
  for (const std::string& path : flags.inputs) io::check_input_path(path, "the results file", false);
  if (renders_format(flags) && flags.inputs.size() != 1)
    throw InputError(
        fmt::format("report: --format renders one results file, got {}; use --html for several", flags.inputs.size()));
  if (!flags.html.empty()) {
    io::check_output_file(flags.html, "--html");
    io::check_output_not_an_input(flags.html, "--html", flags.inputs, "the results file");
  }
  if (!flags.output.empty()) {
    io::check_output_file(flags.output, "--output");
    io::check_output_not_an_input(flags.output, "--output", flags.inputs, "the results file");
    if (!flags.html.empty()) io::check_output_not_an_input(flags.output, "--output", {flags.html}, "the --html page");
  }
}

int execute(const ReportFlags& flags) {
  std::vector<html::HtmlSource> sources;
  for (const std::string& path : flags.inputs) sources.push_back({path, load_results_file(path)});

  // A destination that fails once checked (a full disk) is reported, and the other still written.
  bool write_failed = false;
  const auto report_failure = [&](const OutputError& e, const char* instead) {
    std::cerr << "kbench: error: " << e.what() << instead << '\n';
    write_failed = true;
  };
  if (!flags.html.empty()) {
    std::ostringstream page;
    html::write_html_report(sources, page);
    try {
      io::write_output_file(flags.html, page.str());
      std::size_t results = 0;
      for (const auto& source : sources) results += source.report.results.size();
      std::cerr << fmt::format("kbench: wrote {} ({} run{}, {} results)\n", flags.html, sources.size(),
                               sources.size() == 1 ? "" : "s", results);
    } catch (const OutputError& e) {
      report_failure(e, "");
    }
  }
  if (renders_format(flags)) {
    const ReportFormat format = *parse_report_format(flags.format.empty() ? "text" : flags.format);
    std::ostringstream text;
    // Text for stdout fits the terminal; a file keeps the default width.
    write_report(sources.front().report, format, text,
                 ReportStyle{false, flags.output.empty() ? terminal_width() : ReportStyle{}.width});
    bool to_stdout = flags.output.empty();
    try {
      if (!to_stdout) io::write_output_file(flags.output, text.str());
    } catch (const OutputError& e) {
      report_failure(e, "; the rendering went to stdout instead");
      to_stdout = true;
    }
    if (to_stdout) std::cout << text.str();
  }
  return write_failed ? exit_output_failed : exit_ok;
}

}  // namespace

Command add_report_command(CLI::App& app) {
  auto flags = std::make_shared<ReportFlags>();
  app.add_option("results", flags->inputs, "Results files written by kbench run --format json")->required();
  app.add_option("--html", flags->html, "Write a self-contained HTML report (charts, tables) here");
  app.add_option("--format", flags->format, "Render the (single) results file in this format instead (default text)")
      ->check(one_of({"text", "json", "csv", "markdown", "md", "gbench", "bencher", "github-action-benchmark"}));
  app.add_option("--output,-o", flags->output, "Write the --format rendering here instead of stdout");
  set_examples(app, {
                    "kbench report results.json --html report.html",
                    "kbench report base.json new.json --html both.html",
                    "kbench report results.json --format markdown --output results.md",
                });
  return {[flags] { check_flags(*flags); }, [flags] { return execute(*flags); }};
}

}  // namespace kbench::cli
