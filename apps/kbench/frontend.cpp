#include "frontend.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

#include "core/error.hpp"

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
  return frontend;
}

namespace {
std::vector<std::string>& recorded_arguments() {
  static std::vector<std::string> arguments;
  return arguments;
}
}  // namespace

const std::vector<std::string>& process_arguments() { return recorded_arguments(); }

std::variant<const Command*, int> parse_command_line(Frontend& frontend, int argc, const char* const* argv,
                                                     std::ostream& out, std::ostream& err) {
  recorded_arguments().assign(argv, argv + argc);
  try {
    frontend.app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = frontend.app.exit(e, out, err);  // prints help or the usage error
    return code == 0 ? exit_ok : exit_bad_input;
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
    err << "kbench: failed: " << e.what() << '\n';
    return exit_result_failed;
  }
}

}  // namespace kbench::cli
