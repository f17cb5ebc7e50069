// `kbench diff BASE.json NEW.json`: two runs' results matched and given verdicts; the exit status
// is the contract CI relies on (docs/exit-codes.md): 0 nothing slower, 1 something slower or newly
// wrong/failed, 2 unusable input.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <sstream>

#include <fmt/format.h>

#include "choice_flags.hpp"
#include "commands.hpp"
#include "terminal.hpp"
#include "help_text.hpp"
#include "core/error.hpp"
#include "diff/diff.hpp"
#include "diff/diff_render.hpp"
#include "diff/results_file.hpp"
#include "io/input_file.hpp"
#include "io/output_file.hpp"
#include "number_flags.hpp"

namespace kbench::cli {

namespace {

struct DiffFlags {
  std::string base;
  std::string current;
  std::string threshold = "5";
  double alpha = 0.05;
  std::string format = "text";
  std::string output;
};

// "5" and "5%" both mean five percent; a fraction like 0.05 would be 0.05%, so it is taken as typed.
// The text was checked at parse time (percentage()).
double parse_threshold(std::string text) {
  if (!text.empty() && text.back() == '%') text.pop_back();
  return std::stod(text) / 100;
}

void check_flags(const DiffFlags& flags) {
  io::check_input_path(flags.base, "the results file", false);
  io::check_input_path(flags.current, "the results file", false);
  if (!flags.output.empty()) {
    io::check_output_file(flags.output, "--output");
    io::check_output_not_an_input(flags.output, "--output", {flags.base, flags.current}, "the results file");
  }
}

int execute(const DiffFlags& flags) {
  const diff::VerdictOptions options{parse_threshold(flags.threshold), flags.alpha};
  const auto format = *diff::parse_diff_format(flags.format);
  const RunReport base = load_results_file(flags.base);
  const RunReport current = load_results_file(flags.current);
  const diff::DiffReport report = diff::diff_reports(base, current, options);
  const diff::DiffSources sources{flags.base, flags.current};

  // When --output cannot be written (a full disk), the diff goes to stdout in its --format instead.
  std::string output_failure;
  if (!flags.output.empty()) {
    std::ostringstream document;
    diff::write_diff(report, sources, format, document);
    try {
      io::write_output_file(flags.output, document.str());
    } catch (const OutputError& e) {
      output_failure = e.what();
    }
  }
  if (!flags.output.empty() && output_failure.empty()) {
    // --output naming standard output itself (/dev/stdout) holds the one document: no summary after it.
    if (!io::names_standard_output(flags.output))
      diff::write_diff(report, sources, diff::DiffFormat::text, std::cout, stdout_wants_color());
  } else
    diff::write_diff(report, sources, format, std::cout, format == diff::DiffFormat::text && stdout_wants_color());
  const int code = diff::diff_exit_code(report);
  if (code == exit_bad_input)
    std::cerr << "kbench: error: nothing to compare: no result of " << flags.base << " matches one of " << flags.current
              << " (same workload, backend, variant and math mode)\n";
  if (output_failure.empty() || code == exit_bad_input) return code;
  std::cerr << "kbench: error: " << output_failure << "; the diff went to stdout instead\n";
  return exit_output_failed;
}

}  // namespace

Command add_diff_command(CLI::App& app) {
  auto flags = std::make_shared<DiffFlags>();
  app.add_option("base", flags->base, "Results of the baseline run (kbench run --format json)")->required();
  app.add_option("new", flags->current, "Results of the run to judge")->required();
  app.add_option("--threshold", flags->threshold,
                 "Smallest change of the median, in percent, that can be called faster or slower")
      ->capture_default_str()
      ->check(percentage());
  app.add_option("--alpha", flags->alpha, "Significance level of the Mann-Whitney U test on the samples")
      ->capture_default_str()
      ->check(finite_number(1e-9, 0.5));
  app.add_option("--format", flags->format, "Output format")
      ->capture_default_str()
      ->check(one_of({"text", "markdown", "md", "json"}));
  app.add_option("--output,-o", flags->output, "Write the diff here in --format; a text summary still goes to stdout");
  set_examples(app, {
                    "kbench diff base.json new.json                  # exit 1 if anything is slower",
                    "kbench diff base.json new.json --threshold 3% --format markdown --output diff.md",
                });
  return {[flags] { check_flags(*flags); }, [flags] { return execute(*flags); }};
}

}  // namespace kbench::cli
