// `kbench merge A.json B.json ... --output ALL.json`: the shards of one run (`--shard K/N`) or runs
// of the same settings joined into one results document, which diffs and reports like any other.
// Documents of other kbench versions or settings are refused with the files and the field (exit 2).
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "core/error.hpp"
#include "document_output.hpp"
#include "help_text.hpp"
#include "diff/results_file.hpp"
#include "io/input_file.hpp"
#include "io/output_file.hpp"
#include "report/merge.hpp"
#include "report/reporter.hpp"

namespace kbench::cli {

namespace {

struct MergeFlags {
  std::vector<std::string> inputs;
  std::string output;
};

int merge(const MergeFlags& flags) {
  std::vector<NamedReport> documents;
  for (const std::string& path : flags.inputs) documents.push_back({path, load_results_file(path)});
  const RunReport merged = merge_reports(documents);
  std::ostringstream json;
  write_report(merged, ReportFormat::json, json, ReportStyle{false});
  if (flags.output.empty()) {
    std::cout << json.str();
  } else {
    if (!write_document_or_stdout(flags.output, json.str(), "merged document")) return exit_output_failed;
    std::cerr << "kbench: merged " << documents.size() << " documents (" << merged.results.size() << " results) into "
              << flags.output << '\n';
  }
  return exit_ok;
}

}  // namespace

Command add_merge_command(CLI::App& app) {
  auto flags = std::make_shared<MergeFlags>();
  app.add_option("inputs", flags->inputs, "Results documents (kbench.results/1 JSON), e.g. the shards of one run")
      ->required();
  app.add_option("--output,-o", flags->output, "Write the merged document here (default: standard output)");
  set_examples(app, {
                    "kbench merge shard-1.json shard-2.json --output all.json",
                });
  return {[flags] {
            for (const std::string& path : flags->inputs) io::check_input_path(path, "results file", false);
            if (!flags->output.empty()) {
              io::check_output_file(flags->output, "--output");
              io::check_output_not_an_input(flags->output, "--output", flags->inputs, "the results file");
            }
          },
          [flags] { return merge(*flags); }};
}

}  // namespace kbench::cli
