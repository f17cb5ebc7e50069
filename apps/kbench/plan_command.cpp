// `kbench plan`: which kernel each backend would run for each workload and math mode, with its facts
// (GEMM shape, tile, shared memory, blocks), the other variants `NAME:all` would run, and what is ruled
// out and why; decided without running anything, so it answers on a machine without the GPU, for the
// --target GPU (as the CUTLASS profiler's --enumerate or cuDNN's heuristics query would, before a run).
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "choice_flags.hpp"
#include "commands.hpp"
#include "help_text.hpp"
#include "workload_flags.hpp"
#include "core/error.hpp"
#include "gpu_environment.hpp"
#include "io/input_file.hpp"
#include "number_flags.hpp"
#include "report/plan_report.hpp"
#include "run/planner.hpp"
#include "run/run_config.hpp"
#include "spec/load.hpp"

namespace kbench::cli {

namespace {

struct PlanFlags {
  std::vector<std::string> specs;
  std::string backends;
  std::vector<std::string> math{"fp32"};
  std::string target = "h100-sxm";
  int device = 0;
  std::string format = "text";
  bool verbose = false;
  std::vector<std::string> axes;  // --axis KEY=V1,V2
  std::string passes;             // --passes P1,P2
  std::string filter;             // --filter REGEX over workload names
};

// The device present, or the --target GPU's datasheet facts where there is none.
std::pair<PlanDevice, std::string> plan_device(const PlanFlags& flags) {
  const std::optional<DevicePeaks> target = find_device(flags.target);
  if (!target) throw InputError(fmt::format("--target: unknown GPU '{}' (`kbench list` shows the keys)", flags.target));
  const GpuEnvironment gpu = detect_gpu(flags.device);
  if (gpu.present) return {gpu.plan_device, fmt::format("device {}", flags.device)};
  return {PlanDevice{target->name, target->cc_major, target->cc_minor, target->sms, false},
          fmt::format("--target {}; no device here: {}", target->key, gpu.description)};
}

// --backends as asked, or every backend of this build.
std::vector<BackendRequest> requested_backends(const PlanFlags& flags, const Registry& registry) {
  if (!flags.backends.empty()) return parse_backend_list(flags.backends);
  std::vector<BackendRequest> all;
  for (const auto& backend : registry.all()) all.push_back({backend->name(), "", false});
  return all;
}

int plan(const PlanFlags& flags) {
  const std::vector<Workload> workloads =
      with_workload_flags(load_workloads(flags.specs), flags.passes, flags.axes, flags.filter);

  Registry registry;
  register_backends(registry);
  std::vector<MathMode> maths;
  for (const std::string& m : flags.math) maths.push_back(*parse_math_mode(m));
  PlanReport report;
  std::tie(report.device, report.device_source) = plan_device(flags);
  report.entries =
      plan_workloads(workloads, registry, requested_backends(flags, registry), maths, report.device, flags.device);
  if (flags.format == "json")
    write_plan_json(report, std::cout);
  else
    write_plan_text(report, std::cout, flags.verbose);
  return 0;
}

}  // namespace

Command add_plan_command(CLI::App& app) {
  auto flags = std::make_shared<PlanFlags>();
  app.add_option("specs", flags->specs, "Workload spec files or directories (every *.yaml under them)")->required();
  app.add_option("--axis", flags->axes, "Sweep KEY over the values, e.g. batch=1,8,64 (repeatable), as `run` does");
  app.add_option("--filter", flags->filter,
                 "Only the workloads whose name this regular expression matches (a leading - keeps the others)");
  app.add_option("--passes", flags->passes,
                 "Plan every workload in these passes instead of its spec's: forward, backward_data, backward_weights; comma-separated (two or more name each workload NAME.PASS)");
  app.add_option("--backends", flags->backends, "Comma-separated NAME[:VARIANT]; default: every backend of this build");
  app.add_option("--math", flags->math, "Math mode(s): fp32 and/or tf32; comma-separated")
      ->delimiter(',')
      ->capture_default_str()
      ->check(math_mode_choice());
  app.add_option("--target", flags->target, "GPU planned for when none is present (see `kbench list`)")
      ->capture_default_str();
  app.add_option("--device", flags->device, "CUDA device index")
      ->capture_default_str()
      ->check(whole_number(0, kMaxDevice));
  app.add_option("--format", flags->format, "Output format")
      ->capture_default_str()
      ->check(one_of({"text", "json"}));
  app.add_flag("--verbose,-v", flags->verbose, "Print every variant's facts, not the default's only");
  set_examples(app, {
                    "kbench plan my-conv.yaml --backends cuda --math fp32,tf32",
                    "kbench plan workloads/kernelbench/level1 --backends cuda:all --target a100-40gb --verbose",
                });
  return {[flags] {
            for (const std::string& spec : flags->specs)
              if (spec != kStandardInputPath) io::check_input_path(spec, "workload spec", true);
            for (const std::string& axis : flags->axes) (void)parse_axis_flag(axis);
            check_filter(flags->filter);
            if (!flags->passes.empty()) (void)parse_passes_flag(flags->passes);
          },
          [flags] { return plan(*flags); }};
}

}  // namespace kbench::cli
