#include "frontend.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

#include "core/error.hpp"
#include "help_text.hpp"
#include "spec/did_you_mean.hpp"

namespace kbench::cli {

std::unique_ptr<Frontend> make_frontend() {
  auto frontend = std::make_unique<Frontend>();
  CLI::App& app = frontend->app;
  app.description("kbench: benchmark convolution kernels against cuDNN, a CPU reference and the roofline floor");
  app.set_version_flag("--version", std::string("kbench ") + KBENCH_VERSION);
  app.require_subcommand(1);
  const auto add = [&](const char* name, const char* help, auto adder) {
    CLI::App* sub = app.add_subcommand(name, help);
    frontend->commands[sub] = adder(*sub);
  };
  add("run", "Run workloads on backends, verify, time and report", add_run_command);
  add("compare", "Run workloads on several backends and set them side by side", add_compare_command);
  add("list", "List workloads, backends and known GPUs", add_list_command);
  add("plan", "Show which kernel each backend would run for each workload, and why, without running it",
      add_plan_command);
  add("info", "Show the build configuration and the devices found", add_info_command);
  add("calibrate", "Measure this GPU's copy bandwidth and FP32/TF32 rates and store them", add_calibrate_command);
  add("diff", "Compare two results files: faster, slower, same or unclear per result", add_diff_command);
  add("report", "Render results files as an HTML report (--html) or in another format", add_report_command);
  add("merge", "Join results documents (the shards of one run) into one", add_merge_command);
  add("import", "Write a workload spec from KernelBench problem files or MIOpenDriver command lines",
      add_import_command);
  set_examples(app, {
                        "kbench run my-conv.yaml                  # time it on every backend available here",
                        "kbench compare my-conv.yaml --backends cuda,cudnn",
                        "kbench list                              # what can run here",
                        "kbench COMMAND --help                    # each command's flags and examples",
                    });
  return frontend;
}

namespace {
std::vector<std::string>& recorded_arguments() {
  static std::vector<std::string> arguments;
  return arguments;
}

std::vector<std::string> subcommand_names(const CLI::App& app) {
  std::vector<std::string> names;
  const std::function<bool(const CLI::App*)> every = [](const CLI::App*) { return true; };
  for (const CLI::App* sub : app.get_subcommands(every)) names.push_back(sub->get_name());
  return names;
}

// Every long flag a command takes, "--backends", for suggestions.
std::vector<std::string> long_flags(CLI::App& app) {
  std::vector<std::string> flags;
  for (const CLI::Option* option : app.get_options())
    for (const std::string& name : option->get_lnames()) flags.push_back("--" + name);
  return flags;
}

std::string suggestion(std::string_view word, const std::vector<std::string>& candidates) {
  const std::vector<std::string_view> views(candidates.begin(), candidates.end());
  return spec::did_you_mean_suffix(word, views);
}

// What CLI11 would say less helpfully, said first: an unknown command ("rnu": "A subcommand is required")
// or an unknown long flag ("--backend": "The following argument was not expected"), each with the
// nearest known name. Empty when the command line has neither.
std::string unknown_name_message(CLI::App& app, int argc, const char* const* argv) {
  if (argc < 2) return {};
  const std::string first = argv[1];
  const std::vector<std::string> commands = subcommand_names(app);
  if (first.empty() || first[0] != '-') {
    if (std::find(commands.begin(), commands.end(), first) != commands.end()) {
      CLI::App* sub = app.get_subcommand(first);
      for (int i = 2; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--") break;  // what follows is positional
        if (arg.size() < 3 || arg.rfind("--", 0) != 0) continue;
        const std::string name = arg.substr(0, arg.find('='));
        if (sub->get_option_no_throw(name) != nullptr) continue;
        return fmt::format("{}: unknown flag '{}'{}; see 'kbench {} --help'", first, name,
                           suggestion(name, long_flags(*sub)), first);
      }
      return {};
    }
    return fmt::format("unknown command '{}'{}; the commands are {}; see 'kbench --help'", first,
                       suggestion(first, commands), fmt::join(commands, ", "));
  }
  if (first == "--help" || first == "-h" || first == "--version" || first.rfind("--version=", 0) == 0) return {};
  std::vector<std::string> top = long_flags(app);
  return fmt::format("unknown flag '{}'{} before a command; expected 'kbench COMMAND ...' ({}); see 'kbench --help'",
                     first.substr(0, first.find('=')), suggestion(first.substr(0, first.find('=')), top),
                     fmt::join(commands, ", "));
}
}  // namespace

const std::vector<std::string>& process_arguments() { return recorded_arguments(); }

std::variant<const Command*, int> parse_command_line(Frontend& frontend, int argc, const char* const* argv,
                                                     std::ostream& out, std::ostream& err) {
  recorded_arguments().assign(argv, argv + argc);
  if (const std::string message = unknown_name_message(frontend.app, argc, argv); !message.empty()) {
    err << "kbench: error: " << message << '\n';
    return exit_bad_input;
  }
  try {
    frontend.app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return frontend.app.exit(e, out, err) == 0 ? exit_ok : exit_bad_input;
  } catch (const CLI::CallForAllHelp& e) {
    return frontend.app.exit(e, out, err) == 0 ? exit_ok : exit_bad_input;
  } catch (const CLI::CallForVersion& e) {
    return frontend.app.exit(e, out, err) == 0 ? exit_ok : exit_bad_input;
  } catch (const CLI::ParseError& e) {
    // One prefix for every error kbench prints, naming the command it is about.
    const std::string command = argc >= 2 && argv[1][0] != '-' ? std::string(argv[1]) : std::string();
    err << "kbench: error: " << (command.empty() ? "" : command + ": ") << e.what() << "; see 'kbench "
        << (command.empty() ? "" : command + " ") << "--help'\n";
    return exit_bad_input;
  }
  for (const auto& [sub, command] : frontend.commands)
    if (sub->parsed()) return &command;
  return exit_bad_input;  // require_subcommand(1) makes this unreachable
}

int run_command(const Command& command, std::ostream& err) {
  try {
    command.check();
    const int code = command.run();
    // `kbench run ... > file` on a full disk: the report is lost unless the status says so.
    std::cout.flush();
    if ((std::fflush(stdout) != 0 || std::ferror(stdout) || !std::cout) && code != exit_interrupted) {
      err << "kbench: error: cannot write to standard output: " << std::strerror(errno) << '\n';
      return exit_output_failed;
    }
    return code;
  } catch (const InputError& e) {
    err << "kbench: error: " << e.what() << '\n';
    return exit_bad_input;
  } catch (const OutputError& e) {
    err << "kbench: error: " << e.what() << '\n';
    return exit_output_failed;
  } catch (const std::exception& e) {
    err << "kbench: error: " << e.what() << '\n';
    return exit_result_failed;
  }
}

}  // namespace kbench::cli
