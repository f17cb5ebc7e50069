// `kbench import kernelbench FILE.py...` and `kbench import miopen FILE|-`: workload specs from what
// users already have (KernelBench problem files, MIOpenDriver command lines), written as YAML that
// `kbench run` reads (to stdout or --output). The readers are lib/import/; what they cannot read is an
// error naming the file, line and what it was (exit 2), and what they read but ignore is a note on stderr.
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "choice_flags.hpp"
#include "commands.hpp"
#include "document_output.hpp"
#include "help_text.hpp"
#include "core/error.hpp"
#include "import/miopen_import.hpp"
#include "import/spec_writer.hpp"
#include "io/input_file.hpp"
#include "io/output_file.hpp"
#include "torch/interpreter.hpp"
#include "torch/kernelbench_trace.hpp"

namespace kbench::cli {

namespace {

import::Imported take(import::ImportOutcome outcome) {
  if (const auto* error = std::get_if<import::ImportError>(&outcome)) throw InputError(error->message());
  return std::get<import::Imported>(std::move(outcome));
}

struct ImportFlags {
  std::string source;  // kernelbench | miopen
  std::vector<std::string> inputs;
  std::string output;
  std::string name_prefix;
  std::string reader = "auto";  // kernelbench: auto | torch | stub
  std::string python;           // the Python that runs the files (as run --python)
  int timeout = 60;             // kernelbench: seconds one file may run
};

// The KernelBench files, all run by one child Python (torch/kernelbench_trace.hpp) as --reader says; one
// Imported per file, each with a note saying what read it.
std::vector<import::Imported> read_kernelbench(const ImportFlags& flags, const std::vector<std::string>& paths) {
  std::vector<torch::KernelBenchFile> files;
  for (const std::string& path : paths)
    files.push_back({path, flags.name_prefix + import::name_from_text(std::filesystem::path(path).stem().string())});
  torch::KernelBenchReadOptions options;
  options.reader = flags.reader == "torch"  ? torch::KernelBenchReader::torch
                   : flags.reader == "stub" ? torch::KernelBenchReader::stub
                                            : torch::KernelBenchReader::automatic;
  options.python = torch::choose_interpreter(flags.python, std::getenv("KBENCH_PYTHON"));
  options.timeout_seconds = flags.timeout;
  torch::KernelBenchReading reading = torch::read_kernelbench_files(files, options);
  if (!reading.unavailable.empty())
    throw InputError(fmt::format("import kernelbench{}: {}", flags.reader == "auto" ? "" : " --reader " + flags.reader,
                                 reading.unavailable));
  const std::string how = reading.runner.starts_with("torch")
                              ? fmt::format("by running its Model in {} (meta tensors), Python {}", reading.runner,
                                            reading.python)
                              : fmt::format("by running its Model against kbench's torch stub, Python {}{}",
                                            reading.python, reading.no_torch.empty() ? "" : "; " + reading.no_torch);
  std::vector<import::Imported> out;
  for (std::size_t i = 0; i < reading.outcomes.size(); ++i) {
    out.push_back(take(std::move(reading.outcomes[i])));
    out.back().notes.push_back(fmt::format("{}: read {}", files[i].path, how));
  }
  return out;
}

// Standard input, up to the spec size limit (a log piped in is read whole, so it must end).
std::string read_stdin() {
  std::optional<std::string> text = io::read_standard_input(io::kMaxSpecBytes);
  if (!text) throw InputError(fmt::format("-: standard input is over the {} MiB limit of an import", io::kMaxSpecBytes >> 20));
  return std::move(*text);
}

}  // namespace

int run_import(const ImportFlags& flags) {
  std::vector<Workload> workloads;
  std::map<std::string, std::string> named_in;  // workload name -> the file it came from
  std::vector<import::Imported> kernelbench;
  if (flags.source == "kernelbench") kernelbench = read_kernelbench(flags, flags.inputs);
  for (std::size_t i = 0; i < flags.inputs.size(); ++i) {
    const std::string& path = flags.inputs[i];
    import::Imported imported;
    if (flags.source == "kernelbench") {
      imported = std::move(kernelbench[i]);
    } else {
      const std::string text =
          path == "-" ? read_stdin() : io::read_input_file(path, "MIOpenDriver commands", io::kMaxSpecBytes);
      imported = take(import::import_miopen(text, path, flags.name_prefix));
    }
    for (const std::string& note : imported.notes) std::cerr << "kbench: note: " << note << '\n';
    for (Workload& w : imported.workloads) {
      if (const auto seen = named_in.find(w.name); seen != named_in.end())
        throw InputError(
            fmt::format("{}: the workload name '{}' is already taken by {}; expected distinct file "
                        "names (or import them separately with --name-prefix)",
                        path, w.name, seen->second));
      named_in.emplace(w.name, path);
      workloads.push_back(std::move(w));
    }
  }
  std::string sources;
  for (const std::string& path : flags.inputs) sources += (sources.empty() ? "" : ", ") + path;
  const std::string header = fmt::format(
      "Written by kbench import {} from {}.\nkbench run reads it as it is; edit names and descriptions freely.",
      flags.source, sources);
  const std::string text = import::write_spec(workloads, header);
  if (flags.output.empty()) {
    std::cout << text;
  } else {
    if (!write_document_or_stdout(flags.output, text, "spec")) return exit_output_failed;
    std::cerr << "kbench: imported " << workloads.size() << " workload" << (workloads.size() == 1 ? "" : "s")
              << " into " << flags.output << '\n';
  }
  return exit_ok;
}

Command add_import_command(CLI::App& app) {
  auto flags = std::make_shared<ImportFlags>();
  app.add_option("source", flags->source,
                 "What the inputs are: kernelbench (problem .py files) or miopen "
                 "(MIOpenDriver command lines, one per line)")
      ->required()
      ->check(one_of({"kernelbench", "miopen"}));
  app.add_option("inputs", flags->inputs, "Files to import; for miopen, '-' reads standard input")->required();
  app.add_option("--output,-o", flags->output, "Write the spec here (default: standard output)");
  app.add_option("--reader", flags->reader,
                 "kernelbench: how Python runs each file: torch (its Model on meta tensors in torch), stub "
                 "(against kbench's torch-free stand-in for torch.nn, which models the convolution layers), or "
                 "auto (torch where the Python has it, else the stub; the default)")
      ->check(one_of({"auto", "torch", "stub"},
                     {{"parser", "kbench's own parser of KernelBench files is gone; Python reads every file now: "
                                 "--reader stub runs it without torch (kbench's stand-in for torch.nn), --reader "
                                 "torch in torch, auto (the default) picks torch where the Python has it"}}));
  app.add_option("--python", flags->python,
                 "kernelbench: the Python that runs the files (default: $KBENCH_PYTHON, else python3 on PATH)");
  app.add_option("--timeout", flags->timeout, "kernelbench: the seconds one file may run before it is stopped")
      ->check(CLI::Range(1, 3600));
  app.add_option("--name-prefix", flags->name_prefix,
                 "Put this before every workload name (letters, digits, '.', '_', '-')");
  set_examples(app, {
                    "kbench import kernelbench 63_conv_standard_2D.py --output conv.yaml",
                    "kbench import miopen commands.txt | kbench run - --backends cudnn",
                });
  return {
      [flags] {
        for (char c : flags->name_prefix)
          if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-'))
            throw InputError(fmt::format("--name-prefix: '{}' has '{}'; expected letters, digits, '.', '_' or '-'",
                                         flags->name_prefix, c));
        if (!flags->name_prefix.empty() && !std::isalnum(static_cast<unsigned char>(flags->name_prefix[0])))
          throw InputError(fmt::format("--name-prefix: '{}' must start with a letter or digit", flags->name_prefix));
        int stdin_count = 0;
        for (const std::string& path : flags->inputs) {
          if (path == "-") {
            if (flags->source != "miopen")
              throw InputError("import kernelbench: '-' (standard input) is for miopen; expected .py files");
            if (++stdin_count > 1) throw InputError("import: '-' (standard input) is given more than once");
            continue;
          }
          io::check_input_path(path, flags->source == "miopen" ? "MIOpenDriver commands" : "KernelBench problem file",
                               false);
        }
        if (!flags->output.empty()) {
          io::check_output_file(flags->output, "--output");
          io::check_output_not_an_input(flags->output, "--output", flags->inputs, "the input");
        }
      },
      [flags] { return run_import(*flags); }};
}

}  // namespace kbench::cli
