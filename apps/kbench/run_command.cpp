// `kbench run` and `kbench compare`: the same run, rendered as a full report or as a comparison.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <chrono>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "closing_line.hpp"
#include "choice_flags.hpp"
#include "commands.hpp"
#include "terminal.hpp"
#include "help_text.hpp"
#include "core/error.hpp"
#include "reference/host_memory.hpp"
#include "data/counter_rng.hpp"
#include "gpu_environment.hpp"
#include "interrupt.hpp"
#include "io/output_file.hpp"
#include "io/input_file.hpp"
#include "number_flags.hpp"
#include "progress.hpp"
#include "streamed_text.hpp"
#include "terminal.hpp"
#include "workload_flags.hpp"
#include "report/comparison_report.hpp"
#include "report/reporter.hpp"
#include "rewrite_pacer.hpp"
#include "run/runner.hpp"
#include "run/devices.hpp"
#include "run/shard.hpp"
#include "spec/load.hpp"
#include "diff/results_file.hpp"
#include "report/merge.hpp"

namespace kbench::cli {

namespace {

struct RunFlags {
  std::vector<std::string> specs;
  std::string backends;
  int iterations = 100;
  int warmups = 3;
  double time_budget_s = 10;
  std::vector<std::string> math{"fp32"};
  std::string format = "text";
  std::string output;
  std::optional<std::uint64_t> seed;
  std::string dump_dir;
  std::optional<std::int64_t> batch;
  std::string target = "h100-sxm";
  std::string peaks_file;
  bool hot = false;
  bool graph = false;
  std::string algo = "heuristic";
  double workspace_limit_mb = 4096;
  int device = 0;
  std::int64_t verify_points = 4096;
  std::optional<double> atol, rtol;
  bool list_algorithms = false;
  std::string baseline;           // compare only
  std::vector<std::string> axes;  // --axis KEY=V1,V2, repeatable
  std::string passes;             // --passes P1,P2
  std::string shard;              // --shard K/N
  std::string python;             // --python: the torch backend's interpreter
  std::string devices;            // --devices all|0,2
  std::string filter;             // --filter REGEX over workload names
  bool allow_empty = false;       // --allow-empty: a run that measured nothing still exits 0
};

void add_common_flags(CLI::App& app, RunFlags& f) {
  app.add_option("specs", f.specs,
                 "Workload spec files or directories (every *.yaml under them); - reads a spec from stdin")
      ->required();
  app.add_option("--filter", f.filter,
                 "Only the workloads whose name this regular expression matches (a leading - keeps the others), "
                 "e.g. --filter 'conv2d|depthwise'");
  app.add_option("--backends", f.backends, "Comma-separated NAME[:VARIANT|:all]; default: every available GPU backend");
  app.add_option("--iterations", f.iterations, "Timed samples per result")
      ->capture_default_str()
      ->check(whole_number(1, 1000000));
  app.add_option("--warmups", f.warmups, "Untimed runs before sampling")
      ->capture_default_str()
      ->check(whole_number(0, 1000));
  app.add_option("--time-budget", f.time_budget_s, "Seconds of sampling per workload and backend before stopping early")
      ->capture_default_str()
      ->check(finite_number(0, kMaxTimeBudgetS, true));
  app.add_option("--math", f.math, "Math mode(s): fp32 (strict IEEE) and/or tf32; comma-separated")
      ->delimiter(',')
      ->capture_default_str()
      ->check(math_mode_choice());
  app.add_option("--format", f.format, "Output format")
      ->capture_default_str()
      ->check(one_of({"text", "json", "csv", "markdown", "md", "gbench", "bencher", "github-action-benchmark"}));
  app.add_option("--output,-o", f.output,
                 "Write the report here (rewritten after every result); a text table still goes to stdout");
  app.add_option("--seed", f.seed, "Seed of the random inputs (default: a fresh one, recorded in the report)")
      ->check(whole_uint64());
  app.add_option("--dump", f.dump_dir, "Write inputs and outputs as .npy files into this directory");
  app.add_option("--batch", f.batch, "Replace every workload's batch size N (the report says so)")
      ->check(whole_number(1, 2147483647));
  app.add_option("--target", f.target, "GPU whose datasheet floors are used when no GPU is present (see `kbench list`)")
      ->capture_default_str();
  app.add_option("--peaks", f.peaks_file, "JSON file of peak rates that overrides every other source");
  app.add_flag("--hot", f.hot, "Do not flush the L2 cache before each sample");
  app.add_flag("--graph", f.graph, "Time replays of a captured CUDA graph (for tiny kernels)");
  app.add_option("--algo", f.algo,
                 "How cudnn and cuda choose: heuristic (cuDNN's heuristics, our defaults) or exhaustive (time "
                 "every algorithm or kernel variant on the prepared buffers; the fastest runs)")
      ->capture_default_str()
      ->check(one_of({"heuristic", "exhaustive"}));
  app.add_option("--workspace-limit", f.workspace_limit_mb, "Largest workspace a backend may use, MiB")
      ->capture_default_str()
      ->check(finite_number(0, kMaxWorkspaceMiB));
  app.add_option("--device", f.device, "CUDA device index")->capture_default_str()->check(whole_number(0, kMaxDevice));
  app.add_option("--verify-points", f.verify_points,
                 "Output elements checked when the whole output is too large to recompute")
      ->capture_default_str()
      ->check(whole_number(16, std::int64_t{1} << 26));
  app.add_option("--atol", f.atol,
                 "Absolute tolerance: replaces the error bound with |got - ref| <= atol + rtol*|ref| (default with "
                 "--rtol: 1e-4 for fp32, 1e-2 for tf32)")
      ->check(finite_number(0, kMaxTolerance));
  app.add_option(
      "--axis", f.axes,
      "Sweep KEY over the values, e.g. batch=1,8,64 (repeatable: the Cartesian product, as a spec's sweep:)");
  app.add_option("--passes", f.passes,
                 "Run every workload in these passes instead of its spec's: forward, backward_data, backward_weights; comma-separated (two or more name each workload NAME.PASS)");
  app.add_option("--shard", f.shard,
                 "Run the K-th of N equal parts of the (workload, backend, math) items, e.g. 2/3; `kbench merge` "
                 "joins the parts");
  app.add_option("--python", f.python,
                 "Python interpreter the torch backend embeds (default: $KBENCH_PYTHON, else python3 on PATH)");
  app.add_option("--devices", f.devices,
                 "Run on these GPUs, one kbench process each, and merge their results: all, or indices such as "
                 "0,2 (nvbench's --devices)");
  app.add_option(
         "--rtol", f.rtol,
         "Relative tolerance: replaces the error bound (see --atol; default with --atol: 1e-4 for fp32, 1e-2 for tf32)")
      ->check(finite_number(0, kMaxTolerance));
  app.add_flag("--allow-empty", f.allow_empty,
               "Exit 0 even when no result was verified and timed (default: exit 4, so CI cannot pass on nothing)");
  group_flags(app, {
                       {"What runs", {"--backends", "--filter", "--math", "--passes", "--axis", "--batch", "--shard", "--devices",
                                      "--device", "--python", "--list-algorithms", "--baseline"}},
                       {"Timing", {"--iterations", "--warmups", "--time-budget", "--hot", "--graph", "--algo",
                                   "--workspace-limit"}},
                       {"Verification", {"--seed", "--verify-points", "--atol", "--rtol", "--dump"}},
                       {"Floors", {"--target", "--peaks"}},
                       {"Report", {"--format", "--output", "--allow-empty"}},
                   });
}

// Every path before any work: specs exist and are files or directories, the peaks file is a file,
// and --output / --dump can be written, so a typo costs an exit 2, not a run whose results are lost.
void check_flags(const RunFlags& f, bool compare) {
  for (const std::string& spec : f.specs)
    if (spec != kStandardInputPath) io::check_input_path(spec, "workload spec", true);
  if (!f.peaks_file.empty()) io::check_input_path(f.peaks_file, "peaks file", false);
  if (!f.output.empty()) {
    io::check_output_file(f.output, "--output");
    // Every file the run reads: a spec given, one inside a folder given, the peaks file, a module or plugin.
    std::vector<std::string> inputs;
    for (const std::string& spec : f.specs)
      if (spec != kStandardInputPath)
        for (std::string& file : spec_files(spec)) inputs.push_back(std::move(file));
    if (!f.peaks_file.empty()) inputs.push_back(f.peaks_file);
    if (!f.backends.empty())
      for (const BackendRequest& request : parse_backend_list(f.backends))
        if ((request.backend == "module" || request.backend == "plugin") && !request.variant.empty())
          inputs.push_back(request.variant.substr(0, request.variant.find(':')));
    io::check_output_not_an_input(f.output, "--output", inputs, "the input");
  }
  if (!f.dump_dir.empty()) io::check_output_directory(f.dump_dir, "--dump");
  for (const std::string& axis : f.axes) (void)parse_axis_flag(axis);  // a malformed one costs nothing
  check_filter(f.filter);
  if (!f.passes.empty()) (void)parse_passes_flag(f.passes);
  if (!f.shard.empty()) (void)parse_shard(f.shard);
  if (!f.devices.empty()) {
    (void)parse_devices(f.devices, static_cast<int>(kMaxDevice));
    if (f.device != 0) throw InputError("--devices: given with --device; expected one of them");
    if (!f.dump_dir.empty()) throw InputError("--devices: given with --dump; expected --dump on a run on one device");
  }
  if (compare && (f.backends.empty() || parse_backend_list(f.backends).size() < 2))
    throw InputError("compare: --backends needs at least two backends, e.g. --backends cuda,cudnn");
}

// Clock and process id, mixed: fresh per run. Not std::random_device, whose static libstdc++ pulls in
// glibc 2.36's arc4random and would keep the portable binary off older GPU machines.
std::uint64_t fresh_seed() {
  const auto now = static_cast<std::uint64_t>(std::chrono::system_clock::now().time_since_epoch().count());
  return data::mix64(now ^ (static_cast<std::uint64_t>(getpid()) << 40));
}

RunConfig make_config(const RunFlags& f, const GpuEnvironment& gpu) {
  RunConfig config;
  if (!f.backends.empty()) config.backends = parse_backend_list(f.backends);
  if (f.list_algorithms) {
    if (config.backends.empty()) config.backends.push_back({"cudnn", "", true});
    for (auto& request : config.backends) request.all_variants = true;
  }
  config.math_modes.clear();
  for (const auto& m : f.math)
    if (auto mode = parse_math_mode(m);
        mode && std::find(config.math_modes.begin(), config.math_modes.end(), *mode) == config.math_modes.end())
      config.math_modes.push_back(*mode);
  config.seed = f.seed ? *f.seed : fresh_seed();
  if (!f.shard.empty()) config.shard = parse_shard(f.shard);
  config.measure.iterations = f.iterations;
  config.measure.warmups = f.warmups;
  config.measure.time_budget_s = f.time_budget_s;
  config.measure.timing.cold = !f.hot;
  config.measure.timing.graph = f.graph;
  config.backend_options.algo_search = f.algo == "exhaustive" ? AlgoSearch::exhaustive : AlgoSearch::heuristic;
  config.backend_options.workspace_limit_bytes = static_cast<std::int64_t>(f.workspace_limit_mb * 1024 * 1024);
  config.backend_options.device = f.device;
  config.verify_points = f.verify_points;
  if (f.atol || f.rtol) {
    const Tolerance fallback = default_tolerance(config.math_modes.front());
    config.tolerance = Tolerance{f.atol.value_or(fallback.atol), f.rtol.value_or(fallback.rtol)};
  }
  config.batch = f.batch;
  config.dump_dir = f.dump_dir;
  config.device_description = gpu.description;

  // Floors: an explicit --peaks file, else this GPU (measured by calibrate, else its datasheet),
  // else the --target GPU's datasheet.
  if (!f.peaks_file.empty()) {
    config.peaks = load_peaks_file(f.peaks_file);
  } else if (gpu.present && (gpu.measured || gpu.datasheet)) {
    config.peaks = gpu.measured ? *gpu.measured : *gpu.datasheet;
  } else {
    auto target = find_device(f.target);
    if (!target) {
      std::string keys;
      for (const auto& d : known_devices()) keys += (keys.empty() ? "" : ", ") + d.key;
      throw InputError(fmt::format("--target: unknown GPU '{}'; known: {}", f.target, keys));
    }
    config.peaks = *target;
    config.peaks_from_target = true;
  }
  return config;
}

// Text for stdout fits the terminal ($COLUMNS, else its width); files keep the default 100 columns.
ReportStyle stdout_style(bool color) { return ReportStyle{color, terminal_width()}; }

// A CI job must not go green on a run in which every result was unavailable, unsupported or skipped
// (no GPU on the runner, a typo'd variant): like google/benchmark when no benchmark matches, such a
// run has its own exit status unless --allow-empty says an empty run is expected.
bool measured_anything(const RunReport& report) {
  for (const Result& r : report.results)
    if (r.status == ResultStatus::ok && r.timing && r.timing->stats.count > 0) return true;
  return false;
}

int exit_code_for(const RunReport& report, bool write_failed, bool allow_empty) {
  if (report.interrupted) return exit_interrupted;
  if (write_failed) return exit_output_failed;
  for (const auto& r : report.results)
    if (r.status == ResultStatus::wrong || r.status == ResultStatus::failed) return exit_result_failed;
  if (!allow_empty && !measured_anything(report)) return exit_nothing_measured;
  return exit_ok;
}

int execute_on_devices(RunFlags& flags, bool compare, const std::vector<int>& devices);

// Where the report went, for the closing line: the --output file in its format, or stdout.
std::string destination_text(const RunFlags& flags, bool output_written) {
  if (output_written) return fmt::format("in {} ({})", flags.output, flags.format);
  if (!flags.output.empty()) return fmt::format("on stdout ({}; --output could not be written)", flags.format);
  return fmt::format("on stdout ({})", flags.format);
}

// The last word on stderr before the exit status, so a log says why a run that looks fine is red.
int finish_with_code(const RunReport& report, int code) {
  (void)report;
  if (code == exit_nothing_measured)
    std::cerr << "kbench: error: nothing was measured: no result was verified and timed (exit status "
              << exit_nothing_measured << "; --allow-empty accepts such a run)\n";
  return code;
}

// The report as `as` writes it; `kbench compare` sets backends side by side in the table formats, while
// the machine formats (JSON, gbench, bencher) carry every result instead.
std::string render_report(const RunReport& report, const RunFlags& flags, bool compare, ReportFormat as,
                          const ReportStyle& style) {
  std::ostringstream text;
  const bool table_format = as == ReportFormat::text || as == ReportFormat::markdown || as == ReportFormat::csv;
  if (compare && table_format)
    write_comparison(report, flags.baseline, as, text, style);
  else
    write_report(report, as, text, style);
  return text.str();
}

int execute(RunFlags& flags, bool compare) {
  if (!flags.devices.empty()) {
    std::string why_none;
    const std::vector<int> present = list_device_indices(why_none);
    const std::vector<int> devices =
        resolve_devices(parse_devices(flags.devices, static_cast<int>(kMaxDevice)), present, why_none);
    if (devices.size() > 1) return execute_on_devices(flags, compare, devices);
    flags.device = devices.front();  // one device: this process runs it, as --device N
  }
  const auto format = *parse_report_format(flags.format);
  const std::vector<Workload> workloads =
      with_workload_flags(load_workloads(flags.specs), flags.passes, flags.axes, flags.filter);

  try {  // the test-only host memory figure, refused before anything runs rather than in every result
    (void)reference::available_host_memory();
  } catch (const std::invalid_argument& e) {
    throw InputError(e.what());
  }
  Registry registry;
  register_backends(registry, flags.python);
  // A misspelt backend is the command line's error, said before anything else is (the GPU probe's notes).
  if (!flags.backends.empty())
    for (const BackendRequest& request : parse_backend_list(flags.backends)) (void)requested_backend(registry, request);
  const GpuEnvironment gpu = detect_gpu(flags.device);
  RunConfig config = make_config(flags, gpu);
  // A signal while specs loaded, devices were probed or backends registered: nothing ran, so nothing
  // is written (an earlier run's --output stays as it was).
  if (interrupt_requested()) {
    std::cerr << "kbench: interrupted before the first result; nothing was written\n";
    return exit_interrupted;
  }

  // Documents are rewritten as results come (temporary file, then rename; paced so that writing
  // stays linear, rewrite_pacer.hpp), so an interrupted or crashed run still leaves a valid report.
  const auto render = [&](const RunReport& report, ReportFormat as, const ReportStyle& style) {
    return render_report(report, flags, compare, as, style);
  };
  ProgressLine progress;
  // At a terminal, `run`'s text report comes workload by workload as each finishes (`compare` sets
  // results side by side, so it waits for them all).
  std::optional<StreamedTextReport> streamed;
  // --output naming standard output itself (/dev/stdout) gets the one document there, and no table.
  const bool output_is_stdout = io::names_standard_output(flags.output);
  if (!compare && !output_is_stdout && isatty(fileno(stdout)) && (format == ReportFormat::text || !flags.output.empty()))
    streamed.emplace(progress, stdout_style(stdout_wants_color()));
  struct Observer : RunObserver {
    ProgressLine& progress;
    std::function<void(const RunReport&)> persist;
    StreamedTextReport* streamed;
    Observer(ProgressLine& p, std::function<void(const RunReport&)> f, StreamedTextReport* s)
        : progress(p), persist(std::move(f)), streamed(s) {}
    void on_start(int index, int count, const std::string& label) override { progress.start(index, count, label); }
    void on_sample(int taken) override { progress.sample_taken(taken); }
    void on_result(const RunReport& report) override {
      progress.finish_result();
      if (persist) persist(report);
    }
    void on_workload_finished(const RunReport& report) override {
      if (streamed) streamed->workload_finished(report);
    }
  };
  // A write that fails during the run (a full disk) does not stop it: the results are kept, the
  // report is tried again as results come and at the end, and printed to stdout if it still fails.
  std::string output_failure;
  RewritePacer pacer;
  const auto persist = [&](const RunReport& partial) {
    if (!pacer.due()) return;
    const RewritePacer::Timed timed(pacer);
    RunReport marked = partial;
    marked.interrupted = true;  // until the run completes
    try {
      io::write_output_file(flags.output, render(marked, format, ReportStyle{}));
    } catch (const OutputError& e) {
      if (output_failure.empty()) {
        progress.clear();
        std::cerr << "kbench: error: " << e.what() << "; the run goes on, and the report goes to stdout if "
                  << "--output still cannot be written at the end\n";
      }
      output_failure = e.what();
    }
  };
  // A pipe or a device (/dev/stdout) is written once, at the end: rewrites would pile up documents.
  const bool rewrite_each_result = !flags.output.empty() && io::is_rewritable_file(flags.output);
  Observer observer(progress,
                    rewrite_each_result ? std::function<void(const RunReport&)>(persist)
                                        : std::function<void(const RunReport&)>{},
                    streamed ? &*streamed : nullptr);

  if (!gpu.present) std::cerr << "kbench: " << gpu.description << "; GPU backends are unavailable\n";
  RunReport report = run_workloads(workloads, registry, config, &observer, &interrupt_requested());
  progress.clear();

  bool output_written = false;
  if (!flags.output.empty()) {
    try {
      io::write_output_file(flags.output, render(report, format, ReportStyle{}));
      output_written = true;
      output_failure.clear();
    } catch (const OutputError& e) {
      output_failure = e.what();
    }
  }
  if (output_written && output_is_stdout) {
    // the document is what stdout holds
  } else if (streamed && (output_written || format == ReportFormat::text))
    streamed->finish(report);
  else if (output_written)
    std::cout << render(report, ReportFormat::text, stdout_style(stdout_wants_color()));
  else
    std::cout << render(report, format, stdout_style(format == ReportFormat::text && stdout_wants_color()));
  if (!output_failure.empty())
    std::cerr << "kbench: error: " << output_failure << "; the report went to stdout instead\n";
  for (const std::string& failure : report.write_failures) std::cerr << "kbench: error: --dump: " << failure << '\n';
  if (report.interrupted) std::cerr << "kbench: interrupted; the report holds the results that finished\n";
  std::cerr << closing_line(report, {workloads.size(), destination_text(flags, output_written)}) << '\n';
  return finish_with_code(
      report, exit_code_for(report, !output_failure.empty() || !report.write_failures.empty(), flags.allow_empty));
}

// --devices with several GPUs: the same command once per device (its share of the items, the same seed),
// each writing JSON to a private directory, then the documents merged and reported as one run's.
int execute_on_devices(RunFlags& flags, bool compare, const std::vector<int>& devices) {
  const std::uint64_t seed = flags.seed ? *flags.seed : fresh_seed();
  const Shard run_shard = flags.shard.empty() ? Shard{} : parse_shard(flags.shard);
  // Ctrl-C reaches the children too (one process group): each keeps what it finished and exits 130,
  // and this process, not killed by it, merges and reports what they kept.
  char pattern[] = "/tmp/kbench-devices-XXXXXX";
  const char* dir = mkdtemp(pattern);
  if (dir == nullptr) throw OutputError(fmt::format("--devices: cannot make a directory in /tmp: {}", strerror(errno)));
  struct Child {
    int device;
    pid_t pid;
    std::string output;
  };
  std::vector<Child> children;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    const std::string output = fmt::format("{}/device-{}.json", dir, devices[i]);
    const auto args =
        child_arguments(process_arguments(), devices[i],
                        child_shard(run_shard, static_cast<int>(i), static_cast<int>(devices.size())), seed, output);
    std::vector<char*> argv;
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);  // its text report
    pid_t pid = 0;
    const int error = posix_spawn(&pid, "/proc/self/exe", &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (error != 0)
      throw std::runtime_error(
          fmt::format("--devices: cannot start kbench for device {}: {}", devices[i], strerror(error)));
    std::cerr << "kbench: device " << devices[i] << ": " << fmt::format("{}", fmt::join(args, " ")) << '\n';
    children.push_back({devices[i], pid, output});
  }
  std::vector<NamedReport> documents;
  int worst = exit_ok;
  for (const Child& child : children) {
    int status = 0;
    while (waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {
    }
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : exit_result_failed;
    if (code == exit_bad_input) worst = exit_bad_input;
    if (code == exit_interrupted && worst != exit_bad_input) worst = exit_interrupted;
    std::error_code ignored;
    if (std::filesystem::exists(child.output, ignored) && code != exit_bad_input)
      documents.push_back({fmt::format("device {}", child.device), load_results_file(child.output)});
    else
      std::cerr << fmt::format("kbench: error: the run on device {} ended with status {} and no results\n",
                               child.device, code);
  }
  std::error_code ignored;
  if (worst == exit_bad_input || documents.empty()) {
    std::filesystem::remove_all(dir, ignored);
    return worst == exit_ok ? exit_result_failed : worst;
  }
  RunReport report = merge_reports(documents);
  std::filesystem::remove_all(dir, ignored);
  if (documents.size() < children.size()) report.interrupted = true;  // a device's results are missing
  const auto format = *parse_report_format(flags.format);
  const auto render = [&](ReportFormat as, const ReportStyle& style) {
    return render_report(report, flags, compare, as, style);
  };
  bool write_failed = false;
  if (!flags.output.empty()) {
    try {
      io::write_output_file(flags.output, render(format, ReportStyle{}));
      if (!io::names_standard_output(flags.output))
        std::cout << render(ReportFormat::text, stdout_style(stdout_wants_color()));
    } catch (const OutputError& e) {
      std::cerr << "kbench: error: " << e.what() << "; the report went to stdout instead\n";
      std::cout << render(format, stdout_style(false));
      write_failed = true;
    }
  } else {
    std::cout << render(format, stdout_style(format == ReportFormat::text && stdout_wants_color()));
  }
  // Every device's document lists every workload's analysis (as every shard does).
  std::cerr << closing_line(report, {report.workloads.size(),
                                     destination_text(flags, !flags.output.empty() && !write_failed)})
            << '\n';
  return finish_with_code(report, exit_code_for(report, write_failed, flags.allow_empty));
}

}  // namespace

Command add_run_command(CLI::App& app) {
  auto flags = std::make_shared<RunFlags>();
  add_common_flags(app, *flags);
  app.add_flag("--list-algorithms", flags->list_algorithms,
               "Time every algorithm/kernel variant of the chosen backends (default cudnn), like NAME:all")
      ->group("What runs");
  set_examples(app, {
                        "kbench run my-conv.yaml                          # every GPU backend available here",
                        "kbench run workloads/kernelbench/level1 --backends cuda,cudnn --math fp32,tf32",
                        "kbench run my-conv.yaml --axis batch=1,8,64 --format json --output results.json",
                        "kbench run my-conv.yaml --backends reference     # the CPU reference, without a GPU",
                    });
  return {[flags] {
            stop_gracefully_on_interrupt();  // from here, a first signal stops the run between results
            check_flags(*flags, false);
          },
          [flags] { return execute(*flags, false); }};
}

Command add_compare_command(CLI::App& app) {
  auto flags = std::make_shared<RunFlags>();
  add_common_flags(app, *flags);
  app.add_option("--baseline", flags->baseline,
                 "Backend every time is set against (default: the fastest verified result of each row)")
      ->group("What runs");
  set_examples(app, {
                        "kbench compare my-conv.yaml --backends cuda,cudnn",
                        "kbench compare workloads/kernelbench/level1 --backends cuda,cudnn,torch --baseline cudnn",
                        "kbench compare my-conv.yaml --backends reference,torch   # on the CPU",
                    });
  return {[flags] {
            stop_gracefully_on_interrupt();
            check_flags(*flags, true);
          },
          [flags] { return execute(*flags, true); }};
}

}  // namespace kbench::cli
